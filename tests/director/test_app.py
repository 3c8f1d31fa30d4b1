"""The director's pages over real logs (SQLite files written by the real storage), requested in-process."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner
from httpx2 import Response
from starlette.testclient import TestClient

from kiosk.cli import kiosk
from kiosk.core.log.heartbeat import Heartbeat, StationState
from kiosk.director.app import Sessions, director_app
from kiosk.director.door import DirectorDoor, StoredPin
from kiosk.director.gate import Served
from kiosk.director.pages import Pages
from kiosk.director.serve import listen
from kiosk.director.watch import Watcher
from kiosk.storage import StationStorage, open_station_storage
from kiosk.storage.database import sqlite_url
from kiosk.storage.overview import LogReader
from tests.storage.entries import make_beat, make_entry

PIN = "482613"
ORIGIN = "http://127.0.0.1:8080"
FORM_TOKEN = re.compile(r'name="form" value="([0-9a-f]+)"')
SECRET_WORDS = ("ZYZZYVA", "QUIXOTRY", "MUZJIKS", "CWMZZ")


def beat(name: str, state: StationState, *, ago_s: float, reason: str = "", number: int = 1) -> Heartbeat:
    return make_beat(name, state, ago_s=ago_s, reason=reason, number=number)


def form_token(client: TestClient, path: str = "/challenges") -> str:
    """The form token a page gives this browser (its form cookie comes with it)."""
    match = FORM_TOKEN.search(client.get(path).text)
    assert match is not None, "no form on the page"
    return match.group(1)


def post_form(client: TestClient, path: str, **fields: str) -> Response:
    """A post as the page's own form sends it: its token, its origin, url-encoded."""
    return client.post(path, data={"form": form_token(client), **fields}, headers={"Origin": ORIGIN})


@dataclass
class View:
    client: TestClient
    watcher: Watcher
    storage: StationStorage
    clock: list[float]
    data: Path
    door: DirectorDoor

    def board(self) -> str:
        self.watcher.read_once()
        response = self.client.get("/")
        assert response.status_code == 200
        return response.text

    def judges_page(self) -> str:
        """The judges' page, opened with the PIN."""
        self.watcher.read_once()
        opened = post_form(self.client, "/challenges", pin=PIN)
        assert opened.status_code == 200, opened.text
        assert 'id="challenges"' in opened.text
        return opened.text


@pytest.fixture
def view(tmp_path: Path) -> Iterator[View]:
    data = tmp_path / "station"
    with open_station_storage(data) as storage:
        storage.judge_access.set_pin(PIN)
        url = sqlite_url(storage.local_path)
        watcher = Watcher(LogReader(url))
        recent = LogReader(url)
        clock = [1000.0]
        door = DirectorDoor(
            StoredPin(storage.local_path, "kiosk set-pin --data-dir station"),
            monotonic=lambda: clock[0],
            journal=lambda line: None,
        )
        app = director_app(
            watcher,
            Pages(str(storage.local_path)),
            door,
            recent,
            lock_s=60,
            served=Served.of("127.0.0.1", 8080),
            sessions=Sessions(60, monotonic=lambda: clock[0]),
        )
        with TestClient(app, base_url=ORIGIN) as client:
            yield View(client, watcher, storage, clock, data, door)
        watcher.close()
        recent.close()


def seed(storage: StationStorage) -> None:
    now = datetime.now(UTC)
    storage.log.record(
        make_entry(["ZYZZYVA", "QUIXOTRY"], station="Table 1", bad=(), table=12, judged_at=now)
    )
    storage.log.record(make_entry(["MUZJIKS", "CWMZZ"], station="Table 2", bad=("CWMZZ",), judged_at=now))
    storage.log.record(
        make_entry(["CWMZZ"], station="Table 2", division="Schools", bad=("CWMZZ",), judged_at=now)
    )
    yesterday = now - timedelta(days=2)
    storage.log.record(make_entry(["QUIXOTRY"], station="Table 3", judged_at=yesterday, bad=()))
    assert storage.heartbeats is not None
    storage.heartbeats.write(beat("Table 1", StationState.READY, ago_s=5, number=1))
    storage.heartbeats.write(beat("Table 2", StationState.CHALLENGE, ago_s=61, number=2))
    storage.heartbeats.write(
        beat("Table 4", StationState.NOT_READY, ago_s=2, reason="no judge PIN is set", number=4)
    )


def row(page: str, station: str) -> str:
    pattern = rf'<tr class="([^"]*)" data-station="{re.escape(station)}">(.*?)</tr>'
    match = re.search(pattern, page, re.DOTALL)
    assert match is not None, f"no row for {station}"
    return match.group(0)


def test_the_first_page_shows_every_station_and_division_and_never_a_word(view: View) -> None:
    seed(view.storage)
    page = view.board()
    fragment = Pages("log").board_fragment(view.watcher.snapshot, 0.0)  # what the live updates send
    for word in SECRET_WORDS:
        assert word.casefold() not in page.casefold()
        assert word.casefold() not in fragment.casefold()
    one = row(page, "Table 1")
    assert '<tr class="h-at_work"' in one  # seen 5 s ago, ready: at work
    assert "s-ready" in one
    assert "Open: CSW 24" in one
    assert "Schools: School list 2026" in one
    assert "not served now" in one
    assert "asks for tables" in one
    assert "5-point per-word penalty" in one  # the rule in words, not penalty-5-challenger_loses
    two = row(page, "Table 2")
    assert '<tr class="h-problem red unseen"' in two  # not heard from for over 15 s
    assert "not seen" in two
    assert "last said: in a challenge" in two
    assert re.search(r"6\d s</span>", two)
    four = row(page, "Table 4")
    assert '<tr class="h-problem red"' in four  # seen, but not serving players
    assert "not ready" in four
    assert "why: on the judges' page" in four
    order = [page.index(f'data-station="{name}"') for name in ("Table 2", "Table 4", "Table 1")]
    assert order == sorted(order)  # problems first, named in natural order
    assert 'data-station="Table 3"' not in page  # logged two days ago, never reported: ...
    assert '<span data-earlier="Table 3">Table 3</span>' in page  # ... an earlier day's, not red
    assert "3 stations: 2 problems; 3 challenges today, 3 in the last hour" in page
    assert "<title>2 problems: Table 2 not seen, Table 4 not ready — Challenge stations</title>" in page
    assert 'href="static/problem.svg"' in page
    open_line = re.search(r'data-division="Open".*?</tr>', page, re.DOTALL)
    assert open_line is not None
    assert '<td class="n" data-label="Successful today">1 (50%)</td>' in open_line.group(0)  # of 2 today


def test_station_names_are_text_never_markup(view: View) -> None:
    assert view.storage.heartbeats is not None
    view.storage.heartbeats.write(beat("<script>alert(1)</script>", StationState.READY, ago_s=1))
    page = view.board()
    assert "<script>alert" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_the_recent_challenges_ask_for_the_judge_pin_and_lock_again(view: View) -> None:
    seed(view.storage)
    closed = view.client.get("/challenges")
    assert 'name="pin"' in closed.text
    assert "ZYZZYVA" not in closed.text
    wrong = post_form(view.client, "/challenges", pin="111111")
    assert wrong.status_code == 403
    assert "Wrong PIN: 1 wrong PIN in a row from this device." in wrong.text
    assert "ZYZZYVA" not in wrong.text
    opened = post_form(view.client, "/challenges", pin=PIN)
    assert opened.status_code == 200  # after the redirect
    assert "✗ CWMZZ" in opened.text
    assert "not in the lexicon" in opened.text
    assert "✓ ZYZZYVA" in opened.text
    assert '<td class="n" data-label="Table">12</td>' in opened.text  # the table number
    assert 'content="60; url=challenges?auto=1"' in opened.text  # without JavaScript it locks itself
    view.clock[0] += 61
    assert 'name="pin"' in view.client.get("/challenges").text  # the minute is up
    post_form(view.client, "/challenges", pin=PIN)
    assert "ZYZZYVA" in view.client.get("/challenges").text
    locked = post_form(view.client, "/lock")
    assert 'name="pin"' in locked.text
    assert "ZYZZYVA" not in view.client.get("/challenges").text


def test_the_pages_door_keeps_its_own_count_and_never_the_stations(view: View) -> None:
    """Wrong PINs at the page back off at the page; the station's count and door are untouched."""
    said = [post_form(view.client, "/challenges", pin="000000") for _ in range(3)]
    assert [answer.status_code for answer in said] == [403, 403, 403]
    assert "Wait 30 s before the next try." in said[-1].text
    early = post_form(view.client, "/challenges", pin=PIN)  # the right PIN, during the wait
    assert early.status_code == 429
    assert early.headers["retry-after"] == "30"
    assert "Too soon: that PIN was not checked. Wait 30 s" in early.text
    assert "wrong PIN" not in early.text.split("Too soon")[1].split(".")[0]
    assert view.storage.judge_access.attempts().failures == 0  # the station's own count
    assert view.storage.judge_access.check_pin(PIN).accepted  # and its judges get in at once
    assert "heard 3 wrong PINs in the last hour." in view.board()  # the director sees it
    view.clock[0] += 30
    assert post_form(view.client, "/challenges", pin=PIN).status_code == 200


def test_a_data_directory_without_a_pin_says_how_to_set_one(tmp_path: Path) -> None:
    stored = StoredPin(tmp_path / "missing" / "kiosk.sqlite3", "kiosk set-pin --data-dir missing")
    assert stored.read() is None
    assert "No judge PIN is set" in stored.missing
    assert "kiosk set-pin --data-dir missing" in stored.missing
    assert not (tmp_path / "missing").exists()  # never created


def test_the_page_stays_up_when_the_log_goes_away_and_says_so(view: View) -> None:
    seed(view.storage)
    assert "Table 1" in view.board()
    view.storage.close()
    for name in ("kiosk.sqlite3", "kiosk.sqlite3-wal", "kiosk.sqlite3-shm"):
        (view.data / name).unlink(missing_ok=True)
    page = view.board()
    assert "The log cannot be read since" in page
    assert "there is no station database at" not in page  # its path: the judges' page says it
    assert str(view.data) not in page
    judges = Pages(str(view.storage.local_path)).challenges_page([], 60, snapshot=view.watcher.snapshot)
    assert "there is no station database at" in judges
    assert "Shown: what it said at" in page
    assert 'class="stale"' in page
    assert "Table 1" in page  # what it said last
    assert not (view.data / "kiosk.sqlite3").exists()  # the view never makes one
    with open_station_storage(view.data) as storage:  # a station starts a new log there
        storage.log.record(make_entry(["QI"], station="Table 9"))
    page = view.board()
    assert "cannot be read" not in page
    assert "Table 9" in page


def test_a_log_of_another_schema_version_is_named(view: View) -> None:
    with sqlite3.connect(view.storage.local_path) as conn:
        conn.execute("UPDATE kiosk_schema SET version = 99")
    assert "The log cannot be read since" in view.board()
    assert "has schema version 99, written by a newer kiosk" in view.judges_page()


def test_director_once_checks_the_log_and_names_a_missing_one(view: View, tmp_path: Path) -> None:
    seed(view.storage)
    runner = CliRunner()
    result = runner.invoke(kiosk, ["director", "--data-dir", str(view.data), "--once"])
    assert result.exit_code == 0, result.output
    assert "3 stations: 2 problems" in result.output
    assert "Table 2: not seen (problem), 2 today" in result.output
    assert "Not seen today: Table 3" in result.output
    missing = runner.invoke(kiosk, ["director", "--data-dir", str(tmp_path / "nowhere"), "--once"])
    assert missing.exit_code == 2
    assert "there is no station database at" in missing.output
    assert not (tmp_path / "nowhere").exists()


def test_a_port_in_use_is_named(view: View) -> None:
    taken = listen("127.0.0.1", 0)
    port = taken.getsockname()[1]
    try:
        result = CliRunner().invoke(kiosk, ["director", "--data-dir", str(view.data), "--port", str(port)])
    finally:
        taken.close()
    assert result.exit_code == 2
    assert f"cannot serve on 127.0.0.1 port {port}" in result.output
    assert "give another --port" in result.output


def test_the_view_reads_only(view: View) -> None:
    seed(view.storage)
    before = view.storage.local_path.read_bytes()
    view.board()
    view.client.get("/challenges")
    for pin in ("000000", "111111", PIN):  # a PIN at the page writes nothing, not even a count
        post_form(view.client, "/challenges", pin=pin)
    assert view.storage.local_path.read_bytes() == before


def test_a_log_that_stops_answering_mid_read_is_said_to_be_silent(view: View) -> None:
    """A read that never returns leaves the last snapshot: the page says how long it has waited."""
    seen = [0.0]
    watcher = Watcher(LogReader(view.watcher.reader.url), monotonic=lambda: seen[0])
    watcher.read_once()
    pages = Pages("log")
    assert "has not answered" not in pages.board_fragment(watcher.snapshot, watcher.silent_s)
    seen[0] += 40  # no read has finished since
    assert "The log has not answered for 40 s" in pages.board_fragment(watcher.snapshot, watcher.silent_s)
    watcher.close()


def test_a_station_that_logged_today_without_reporting_is_red(view: View) -> None:
    """An older kiosk (no heartbeats) judging today is on the board, in red: no one knows its state."""
    view.storage.log.record(make_entry(["QI"], station="Old kiosk", bad=()))
    page = view.board()
    old = row(page, "Old kiosk")
    assert '<tr class="h-problem red' in old
    assert "no reports" in old


def test_the_first_page_keeps_paths_commands_and_hosts_for_the_judges_page(view: View) -> None:
    """What a hall needs is public (which station, its state); the log's path, a station's host
    and its full reason (a path, a user, the command that fixes it) are behind the PIN."""
    assert view.storage.heartbeats is not None
    reason = (
        "no judge PIN is set for the data directory /var/lib/challenge-kiosk, so this station does not "
        "serve players. A judge sets one as the user kiosk, with: kiosk set-pin --data-dir /var/lib/x"
    )
    view.storage.heartbeats.write(beat("Table 4", StationState.NOT_READY, ago_s=2, reason=reason, number=4))
    page = view.board()
    fragment = Pages(str(view.storage.local_path)).board_fragment(view.watcher.snapshot, 0.0)
    for public in (page, fragment):
        for private in ("/var/lib", "set-pin", "the user kiosk", "kiosk-04", str(view.storage.local_path)):
            assert private not in public
        assert "not ready" in row(public, "Table 4")
    judges = view.judges_page()
    assert str(view.storage.local_path) in judges
    details = re.search(r'<table id="station-details".*?</table>', judges, re.DOTALL)
    assert details is not None
    assert "kiosk-04" in details.group(0)
    assert "kiosk set-pin --data-dir /var/lib/x" in details.group(0)
