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
from starlette.testclient import TestClient

from kiosk.cli import kiosk
from kiosk.core.heartbeat import Heartbeat, StationState
from kiosk.director.app import PinDoor, Sessions, director_app
from kiosk.director.pages import Pages
from kiosk.director.serve import listen
from kiosk.director.watch import Watcher
from kiosk.storage import StationStorage, open_station_storage
from kiosk.storage.board import LogReader
from kiosk.storage.database import sqlite_url
from tests.storage.entries import make_beat, make_entry

PIN = "482613"
SECRET_WORDS = ("ZYZZYVA", "QUIXOTRY", "MUZJIKS", "CWMZZ")


def beat(name: str, state: StationState, *, ago_s: float, reason: str = "", number: int = 1) -> Heartbeat:
    return make_beat(name, state, ago_s=ago_s, reason=reason, number=number)


@dataclass
class View:
    client: TestClient
    watcher: Watcher
    storage: StationStorage
    clock: list[float]
    data: Path

    def board(self) -> str:
        self.watcher.read_once()
        response = self.client.get("/")
        assert response.status_code == 200
        return response.text


@pytest.fixture
def view(tmp_path: Path) -> Iterator[View]:
    data = tmp_path / "station"
    with open_station_storage(data) as storage:
        storage.judge_access.set_pin(PIN)
        url = sqlite_url(storage.local_path)
        watcher = Watcher(LogReader(url))
        recent = LogReader(url)
        clock = [1000.0]
        app = director_app(
            watcher,
            Pages(str(storage.local_path)),
            PinDoor(storage.local_path, "kiosk set-pin --data-dir station"),
            recent,
            lock_s=60,
            sessions=Sessions(60, monotonic=lambda: clock[0]),
        )
        with TestClient(app) as client:
            yield View(client, watcher, storage, clock, data)
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
    pattern = rf'<tr class="([^"]*)"\s+data-station="{re.escape(station)}">(.*?)</tr>'
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
    assert '<tr class=""' in one  # seen 5 s ago, ready: not red
    assert "s-ready" in one
    assert "Open: CSW 24" in one
    assert "Schools: School list 2026" in one
    assert "not served now" in one
    assert "asks for tables" in one
    two = row(page, "Table 2")
    assert '<tr class="red unseen"' in two  # not heard from for over a minute
    assert "not seen" in two
    assert "last said: in a challenge" in two
    assert re.search(r"6\d s ago", two)
    four = row(page, "Table 4")
    assert '<tr class="red"' in four  # seen, but not serving players
    assert "no judge PIN is set" in four
    assert 'data-station="Table 3"' not in page  # logged two days ago, never reported: ...
    assert '<span data-earlier="Table 3">Table 3</span>' in page  # ... an earlier day's, not red
    assert "3 stations, 2 in red; 3 challenges today, 3 in the last hour" in page
    open_line = re.search(r'data-division="Open">.*?</tr>', page, re.DOTALL)
    assert open_line is not None
    assert '<td class="n">1 (50%)</td>' in open_line.group(0)  # of 2 today, 1 successful


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
    wrong = view.client.post("/challenges", data={"pin": "111111"})
    assert wrong.status_code == 403
    assert "1 wrong PIN in a row." in wrong.text
    assert "ZYZZYVA" not in wrong.text
    opened = view.client.post("/challenges", data={"pin": PIN})
    assert opened.status_code == 200  # after the redirect
    assert "✗ CWMZZ" in opened.text
    assert "not in the lexicon" in opened.text
    assert "✓ ZYZZYVA" in opened.text
    assert '<td class="n">12</td>' in opened.text  # the table number
    assert 'content="60; url=lock"' in opened.text  # it locks itself
    view.clock[0] += 61
    assert 'name="pin"' in view.client.get("/challenges").text  # the minute is up
    view.client.post("/challenges", data={"pin": PIN})
    assert "ZYZZYVA" in view.client.get("/challenges").text
    view.client.get("/lock")
    assert "ZYZZYVA" not in view.client.get("/challenges").text


def test_wrong_pins_back_off_as_at_the_station(view: View) -> None:
    for _ in range(4):
        answer = view.client.post("/challenges", data={"pin": "000000"})
    assert "Wait" in answer.text or "Too soon" in answer.text
    assert view.storage.judge_access.attempts().failures >= 3  # the station's own count


def test_a_data_directory_without_a_pin_says_how_to_set_one(tmp_path: Path) -> None:
    door = PinDoor(tmp_path / "missing" / "kiosk.sqlite3", "kiosk set-pin --data-dir missing")
    accepted, message = door.check(PIN)
    assert not accepted
    assert "No judge PIN is set" in message
    assert "kiosk set-pin --data-dir missing" in message
    assert not (tmp_path / "missing").exists()  # never created


def test_the_page_stays_up_when_the_log_goes_away_and_says_so(view: View) -> None:
    seed(view.storage)
    assert "Table 1" in view.board()
    view.storage.close()
    for name in ("kiosk.sqlite3", "kiosk.sqlite3-wal", "kiosk.sqlite3-shm"):
        (view.data / name).unlink(missing_ok=True)
    page = view.board()
    assert "The log cannot be read since" in page
    assert "there is no station database at" in page
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
    page = view.board()
    assert "has schema version 99, written by a newer kiosk" in page


def test_director_once_checks_the_log_and_names_a_missing_one(view: View, tmp_path: Path) -> None:
    seed(view.storage)
    runner = CliRunner()
    result = runner.invoke(kiosk, ["director", "--data-dir", str(view.data), "--once"])
    assert result.exit_code == 0, result.output
    assert "3 stations, 2 in red" in result.output
    assert "Table 2: not seen (red), 2 today" in result.output
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
    assert '<tr class="red' in old
    assert "no reports" in old
