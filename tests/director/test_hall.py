"""The director's hall over a real log, requested in-process: the public feed and the hall screen
without a word, the judges' page that settles a dispute (find by round and table, every challenge
of the day, CSV, the penalty), the round and retirement behind the PIN and the gate, and a judges'
page that stays open while a judge works and locks when they stop."""

from __future__ import annotations

import csv
import dataclasses
import io
import re
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from kiosk.core.log.challenge import ChallengeEntry, LogQuery
from kiosk.core.log.heartbeat import StationState
from kiosk.director.app import PAGE_ROWS, Sessions, director_app
from kiosk.director.door import DirectorDoor, StoredPin
from kiosk.director.gate import Served
from kiosk.director.launch import once_lines
from kiosk.director.pages import Pages
from kiosk.director.watch import Watcher
from kiosk.storage import CSV_COLUMNS, StationStorage, open_station_storage
from kiosk.storage.database import sqlite_url
from kiosk.storage.hall import HallControls
from kiosk.storage.log import SqlChallengeLog
from kiosk.storage.overview import LogReader
from tests.director.test_app import ORIGIN, PIN, SECRET_WORDS, form_token, post_form
from tests.storage.entries import make_beat, make_entry

LOCK_S = 60


@dataclass
class Hall:
    client: TestClient
    watcher: Watcher
    storage: StationStorage
    clock: list[float]

    def page(self, path: str = "/") -> str:
        self.watcher.read_once()
        answer = self.client.get(path)
        assert answer.status_code == 200, answer.text
        return answer.text

    def unlock(self) -> None:
        self.watcher.read_once()
        opened = post_form(self.client, "/challenges", pin=PIN)
        assert opened.status_code == 200, opened.text
        assert 'id="challenges"' in opened.text


@pytest.fixture
def hall(tmp_path: Path) -> Iterator[Hall]:
    with open_station_storage(tmp_path / "station") as storage:
        storage.judge_access.set_pin(PIN)
        url = sqlite_url(storage.local_path)
        watcher, recent, controls = Watcher(LogReader(url)), LogReader(url), HallControls(url)
        clock = [1000.0]
        app = director_app(
            watcher,
            Pages(str(storage.local_path), shared=False),
            DirectorDoor(StoredPin(storage.local_path, "kiosk set-pin"), journal=lambda line: None),
            recent,
            lock_s=LOCK_S,
            served=Served.of("127.0.0.1", 8080),
            sessions=Sessions(LOCK_S, monotonic=lambda: clock[0]),
            controls=controls,
        )
        with TestClient(app, base_url=ORIGIN) as client:
            yield Hall(client, watcher, storage, clock)
        watcher.close()
        recent.close()
        controls.close()


def a_day_of_challenges(storage: StationStorage) -> list[ChallengeEntry]:
    """Three rounds of a day at three stations: 150 challenges, words of each kept secret."""
    start = datetime.now(UTC).astimezone().replace(hour=0, minute=30, second=0, microsecond=0)
    made = []
    for n in range(150):
        words = ["ZYZZYVA", "QI"] if n == 77 else ["CAT", "DOGZ"] if n % 3 else ["QI"]
        entry = make_entry(
            words,
            station=f"Station {n % 3 + 1}",
            division="Open" if n % 5 else "Schools",
            table=n % 20 + 1,
            bad=("DOGZ",),
            judged_at=(start + timedelta(minutes=n)).astimezone(UTC),
        )
        made.append(dataclasses.replace(entry, round=n // 50 + 1, rule_profile="penalty-5-challenger_loses"))
    assert isinstance(storage.log, SqlChallengeLog)
    storage.log.record_many(made)  # one transaction: a day's worth in a moment
    return made


def test_the_public_feed_lists_todays_challenges_with_no_word(hall: Hall) -> None:
    made = a_day_of_challenges(hall.storage)
    board = hall.page("/")
    feed = re.search(r'<table id="feed".*?</table>', board, re.DOTALL)
    assert feed is not None
    newest = made[-1]
    assert f'<td data-label="Time">{newest.judged_at.astimezone():%H:%M:%S}</td>' in feed.group(0)
    assert "Station 3" in feed.group(0)
    assert "UNACCEPTABLE" in feed.group(0)
    tables = re.search(r'<table id="tables".*?</table>', board, re.DOTALL)
    assert tables is not None
    assert '<td class="n" data-label="Challenges">' in tables.group(0)  # which tables challenge most
    hall_screen = hall.page("/hall")
    pages = Pages("log", shared=False)
    for public in (
        board,
        hall_screen,
        pages.board_fragment(hall.watcher.snapshot, 0.0),
        pages.hall_fragment(hall.watcher.snapshot, 0.0),
    ):
        for word in (*SECRET_WORDS, "DOGZ"):
            assert word not in public
        assert str(hall.storage.local_path) not in public


def test_the_judges_find_the_challenge_of_round_2_table_18_among_the_days(hall: Hall) -> None:
    made = a_day_of_challenges(hall.storage)
    hall.unlock()
    wanted = [e for e in made if e.round == 2 and e.table == 18]
    assert wanted
    found = hall.client.get("/challenges", params={"round": "2", "table": "18"}).text
    ids = re.findall(r'data-challenge="([0-9a-f-]+)"', found)
    assert ids == [str(e.challenge_id) for e in reversed(wanted)]  # newest first, every one of them
    assert f"Found <b>{len(wanted)} challenges</b> today with these filters." in found
    assert "The play comes off the board" in found  # what it cost whom
    zyzzyva = hall.client.get("/challenges", params={"word": "zyzz"}).text
    assert re.findall(r'data-challenge="([0-9a-f-]+)"', zyzzyva) == [str(made[77].challenge_id)]
    assert "✓ ZYZZYVA" in zyzzyva


def test_every_challenge_of_the_day_is_reachable_page_after_page(hall: Hall) -> None:
    made = a_day_of_challenges(hall.storage)
    hall.unlock()
    seen: list[str] = []
    path = "/challenges"
    while path:
        page = hall.client.get(path).text
        seen += re.findall(r'data-challenge="([0-9a-f-]+)"', page)
        older = re.search(r'href="(challenges\?[^"]+)" id="older"', page)
        path = "/" + older.group(1).replace("&amp;", "&") if older else ""
    assert seen == [str(e.challenge_id) for e in reversed(made)]
    assert len(made) > PAGE_ROWS  # more than one page: none out of reach


def test_the_export_holds_what_the_filters_find_with_the_penalty(hall: Hall) -> None:
    made = a_day_of_challenges(hall.storage)
    assert hall.client.get("/challenges.csv").status_code == 200  # the PIN page, not the file
    assert "ZYZZYVA" not in hall.client.get("/challenges.csv").text
    hall.unlock()
    answer = hall.client.get("/challenges.csv", params={"division": "Schools"})
    assert answer.headers["content-type"].startswith("text/csv")
    assert "attachment" in answer.headers["content-disposition"]
    rows = list(csv.DictReader(io.StringIO(answer.text)))
    assert list(rows[0]) == list(CSV_COLUMNS)
    schools = [e for e in made if e.division == "Schools"]
    assert [row["challenge_id"] for row in rows] == [str(e.challenge_id) for e in reversed(schools)]
    assert {row["penalty"] for row in rows} == {
        "The play stands. The CHALLENGER loses 5 points.",
        "The play comes off the board: the CHALLENGED PLAYER scores nothing this turn.",
    }
    assert {row["round"] for row in rows} == {"1", "2", "3"}


def test_a_filter_that_cannot_be_read_is_said_and_the_rest_still_find(hall: Hall) -> None:
    a_day_of_challenges(hall.storage)
    hall.unlock()
    page = hall.client.get(
        "/challenges", params={"round": "x", "table": "0", "verdict": "MAYBE", "station": "Station 2"}
    ).text
    assert "round &#39;x&#39; is not a number from 1 to 999" in page
    assert "table &#39;0&#39; is not a number" in page
    assert "neither ACCEPTABLE nor UNACCEPTABLE" in page
    assert (
        "Found <b>50 challenges</b> today with these filters" in page
    )  # Station 2's, the one filter that could be read


def test_the_page_stays_open_while_the_judge_works_and_locks_when_they_stop(hall: Hall) -> None:
    a_day_of_challenges(hall.storage)
    hall.unlock()
    for _ in range(3):  # three minutes of reading, a scroll or a key every 50 s
        hall.clock[0] += 50
        assert (
            hall.client.post(
                "/awake", data={"form": form_token(hall.client)}, headers={"Origin": ORIGIN}
            ).status_code
            == 204
        )
    assert 'id="challenges"' in hall.client.get("/challenges?auto=1").text  # still open
    hall.clock[0] += 50
    for _ in range(3):  # the page's own updates do not keep it open
        assert 'id="found"' in hall.client.get("/challenges/rows?auto=1").text
    hall.clock[0] += 11
    assert hall.client.get("/challenges/rows?auto=1").status_code == 401  # its script reloads: the PIN
    assert 'name="pin"' in hall.client.get("/challenges").text
    assert (
        hall.client.post(
            "/awake", data={"form": form_token(hall.client)}, headers={"Origin": ORIGIN}
        ).status_code
        == 401
    )


def test_the_director_sets_the_round_behind_the_pin_and_the_station_stamps_it(hall: Hall) -> None:
    refused = post_form(hall.client, "/round", round="7")
    assert 'name="pin"' in refused.text  # no PIN yet: nothing set
    assert "Round 7" not in hall.page("/")
    forged = hall.client.post("/round", data={"round": "7"}, headers={"Origin": "http://evil.example"})
    assert forged.status_code == 403  # the gate: another site's form
    hall.unlock()
    bad = post_form(hall.client, "/round", round="0")
    assert bad.status_code == 400
    assert "is not a number from 1 to 999" in bad.text
    done = post_form(hall.client, "/round", round="7")
    assert "The round is set" in done.text
    assert "Round 7" in hall.page("/")
    hall.storage.log.record(judged := make_entry(["QI"], station="Station 1"))
    [stamped] = hall.storage.log.query(LogQuery(last=1))
    assert stamped.challenge_id == judged.challenge_id
    assert stamped.round == 7


def test_a_station_retired_by_the_director_is_no_problem_until_it_reports_again(hall: Hall) -> None:
    assert hall.storage.heartbeats is not None
    hall.storage.heartbeats.write(make_beat("Spare laptop", StationState.READY, ago_s=300, number=9))
    hall.storage.heartbeats.write(make_beat("Station 1", StationState.READY, ago_s=1, number=1))
    assert "<title>1 problem: Spare laptop not seen — Challenge stations</title>" in hall.page("/")
    hall.unlock()
    station = str(uuid.UUID(int=9))
    assert post_form(hall.client, "/retire", station=station).status_code == 200
    board = hall.page("/")
    assert "<title>all 1 station at work — Challenge stations</title>" in board
    assert "retired" in board
    assert 'href="static/ok.svg"' in board
    hall.storage.heartbeats.write(make_beat("Spare laptop", StationState.READY, ago_s=0, number=9))
    assert "s-retired" not in hall.page("/")  # it came back: watched again


def test_a_division_judged_two_ways_is_a_warning_on_the_board_and_the_hall(hall: Hall) -> None:
    assert hall.storage.heartbeats is not None
    hall.storage.heartbeats.write(make_beat("Station 1", ago_s=1, number=1))
    other = dataclasses.replace(make_beat("Station 2", ago_s=1, number=2), rule_profile="double")
    hall.storage.heartbeats.write(other)
    board = hall.page("/")
    warning = re.search(
        r'<div class="banner warn mismatch" data-mismatch="Open">(.*?)</div>', board, re.DOTALL
    )
    assert warning is not None
    said = " ".join(warning.group(1).split())
    assert "Open is judged 2 ways:" in said
    assert "5-point per-word penalty · CSW 24 at Station 1" in said
    assert "Double challenge · CSW 24 at Station 2" in said
    assert "Not judged the same way at every station" in hall.page("/hall")


def test_the_director_s_once_check_says_closed_and_retired_as_the_board_does(tmp_path: Path) -> None:
    """``kiosk director --once`` (the check before an event) names each station's state: a station
    a judge closed, or the director retired, long unheard, is that, not "not seen" (its own first
    line counts them as no problem)."""
    with open_station_storage(tmp_path) as storage:
        assert storage.heartbeats is not None
        url = sqlite_url(storage.local_path)
        storage.heartbeats.write(make_beat("Table 1", StationState.CLOSED, ago_s=600, number=1))
        storage.heartbeats.write(make_beat("Table 2", ago_s=600, number=2))
        storage.heartbeats.write(make_beat("Spare", ago_s=600, number=3))
        storage.heartbeats.write(make_beat("Table 4", ago_s=0, number=4))
        controls = HallControls(url)
        try:
            controls.retire(uuid.UUID(int=3))
        finally:
            controls.close()
        lines = once_lines(url)
    assert lines[0].startswith("4 stations: 1 problem, 1 closed, 1 retired")
    assert "  Table 1: closed by a judge, 0 today" in lines
    assert "  Table 2: not seen (problem), 0 today" in lines
    assert "  Spare: retired, 0 today" in lines
    assert "  Table 4: ready, 0 today" in lines
