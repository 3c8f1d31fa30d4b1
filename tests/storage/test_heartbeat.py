"""Station heartbeats: written by their own thread, forwarded like challenges, never in the way."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TypeVar

import pytest
from sqlalchemy import text

from kiosk.core.errors import StorageError
from kiosk.core.log.heartbeat import DivisionPack, Heartbeat, StationState
from kiosk.storage import StationStorage, open_station_storage
from kiosk.storage.database import open_engine
from kiosk.storage.heartbeat import HeartbeatReporter, HeartbeatStore, database_now, station_id
from tests.storage.entries import make_beat, make_entry, read_board
from tests.storage.postgres import PostgresServer

T = TypeVar("T")
WAIT_S = 120


def beat(state: StationState = StationState.READY, *, reason: str = "") -> Heartbeat:
    return make_beat("Table 1", state, reason=reason)


def eventually(read: Callable[[], T], done: Callable[[T], bool]) -> T:
    """Seconds-scale patience, no timing assertion: wait until ``done(read())``."""
    deadline = time.monotonic() + WAIT_S
    while not done(value := read()):
        assert time.monotonic() < deadline, f"still {value!r}"
        time.sleep(0.02)
    return value


def test_a_heartbeat_comes_back_as_it_was_written(storage: StationStorage) -> None:
    assert storage.heartbeats is not None
    sent = replace(beat(StationState.NOT_READY, reason="no judge PIN"), reported_at=datetime.now(UTC))
    storage.heartbeats.write(sent)
    storage.heartbeats.write(replace(sent, backlog=3))  # one row per station, replaced
    [back] = storage.heartbeats.all()
    assert back == replace(sent, backlog=3, seen_at=sent.reported_at)


def test_the_station_id_is_made_once_and_kept(tmp_path: Path) -> None:
    with open_station_storage(tmp_path) as storage:
        first = station_id(storage.settings)
    with open_station_storage(tmp_path) as storage:
        assert station_id(storage.settings) == first
    with open_station_storage(tmp_path / "other") as storage:
        assert station_id(storage.settings) != first


def test_the_reporter_writes_a_change_at_once_and_the_same_state_every_interval(tmp_path: Path) -> None:
    with open_station_storage(tmp_path) as storage:
        reporter = storage.heartbeat_reporter(interval_s=0.2)
        assert storage.heartbeats is not None
        reporter.report(beat(StationState.CHALLENGE))
        shown = eventually(storage.heartbeats.all, lambda rows: bool(rows))
        assert shown[0].state is StationState.CHALLENGE
        first_time = shown[0].reported_at
        assert first_time is not None
        again = eventually(storage.heartbeats.all, lambda rows: rows[0].reported_at != first_time)
        assert again[0].state is StationState.CHALLENGE  # the same state, reported again
        reporter.report(beat(StationState.JUDGE))
        eventually(storage.heartbeats.all, lambda rows: rows[0].state is StationState.JUDGE)


def test_a_heartbeat_that_cannot_be_written_is_counted_never_raised(tmp_path: Path) -> None:
    engine = open_engine(f"sqlite+pysqlite:///{tmp_path / 'empty.sqlite3'}")  # no tables at all
    reporter = HeartbeatReporter(HeartbeatStore(engine, where="empty"))
    reporter.report(beat())
    assert reporter.write_now() is None
    assert reporter.failures == 1
    assert reporter.last_error is not None
    assert "station_heartbeat" in reporter.last_error
    engine.dispose()


@pytest.mark.parametrize(
    ("column", "value", "said"),
    [
        ("state", "'asleep'", "reports the state 'asleep', which this kiosk does not know"),
        ("packs", "'{\"Open\": 1}'", "not a list of at most 32"),
        ("packs", '\'[["Open", "CSW", "24"]]\'', "not [division, pack, edition, served, digest, youth]"),
        ("packs", "'not json'", "is not JSON"),
        ("backlog", "-5", "it says -5 challenges wait"),
        ("rule_profile", "printf('%.2000c', 'x')", "its rule is over 120 characters long"),
        ("reason", "printf('%.5000c', 'x')", "its reason is over 1000 characters long"),
    ],
)
def test_a_report_that_cannot_be_read_is_left_out_and_named_never_failing_the_read(
    storage: StationStorage, column: str, value: str, said: str
) -> None:
    assert storage.heartbeats is not None
    storage.heartbeats.write(replace(make_beat("Table 1", number=1), reported_at=datetime.now(UTC)))
    storage.heartbeats.write(replace(make_beat("Table 2", number=2), reported_at=datetime.now(UTC)))
    with sqlite3.connect(storage.local_path) as conn:
        conn.execute(f"UPDATE station_heartbeat SET {column} = {value} WHERE station = 'Table 2'")
    read = storage.heartbeats.read()
    assert [b.station for b in read.beats] == ["Table 1"]
    [named] = read.unreadable
    assert named.startswith("the report of station 'Table 2' (host 'kiosk-02', id ")
    assert said in named
    assert len(named) < 400


def test_a_station_writes_its_report_within_the_bounds_a_reader_keeps(storage: StationStorage) -> None:
    assert storage.heartbeats is not None
    long = replace(
        make_beat("T" * 500, reason="why " * 1000),
        packs=tuple(DivisionPack(f"D{n}", "P" * 300, "E", True) for n in range(40)),
        reported_at=datetime.now(UTC),
        backlog=-3,
    )
    storage.heartbeats.write(long)
    read = storage.heartbeats.read()
    assert read.unreadable == ()
    [back] = read.beats
    assert len(back.station) == 120
    assert back.station.endswith("…")
    assert len(back.reason) == 1000
    assert len(back.packs) == 32
    assert back.backlog == 0


def test_heartbeats_reach_the_shared_server_stamped_by_its_clock_and_wait_while_it_is_down(
    tmp_path: Path, postgres_server: PostgresServer, postgres_url: str
) -> None:
    engine = open_engine(postgres_url)
    server = HeartbeatStore(engine, where="server")
    with open_station_storage(tmp_path, postgres_url, forward_in_background=False) as storage:
        reporter = storage.heartbeat_reporter(interval_s=3600)
        reporter.report(beat(StationState.READY))
        assert reporter.write_now() is not None
        storage.log.forward_backlog()
        [seen] = server.all()
        assert seen.state is StationState.READY
        assert seen.seen_at is not None
        assert abs(seen.seen_at - database_now(engine)) < timedelta(minutes=1)
        postgres_server.stop()
        try:
            storage.log.record(make_entry())  # the verdict path does not care
            reporter.report(beat(StationState.CHALLENGE))
            assert reporter.write_now() is not None  # the station's own file takes it at once
            with pytest.raises(StorageError):
                storage.log.forward_backlog()
        finally:
            postgres_server.start()
        assert storage.log.forward_backlog() == 1
        [seen] = server.all()
        assert seen.state is StationState.CHALLENGE
        assert seen.backlog == 0  # as it is when forwarded, not when written
    engine.dispose()


def test_the_director_sees_a_backlog_that_does_not_empty(tmp_path: Path, postgres_url: str) -> None:
    """The heartbeat goes before the outbox: an entry the server never takes shows as waiting."""
    engine = open_engine(postgres_url)
    server = HeartbeatStore(engine, where="server")
    with open_station_storage(tmp_path, postgres_url, forward_in_background=False) as storage:
        storage.log.record(make_entry())
        with sqlite3.connect(storage.local_path) as conn:  # damaged on the station's disk
            conn.execute("UPDATE outbox SET payload = 'not json'")
        reporter = storage.heartbeat_reporter(interval_s=3600)
        reporter.report(beat(StationState.READY))
        assert reporter.write_now() is not None
        with pytest.raises(StorageError, match="outbox entry cannot be read"):
            storage.log.forward_backlog()
        [seen] = server.all()
        assert seen.backlog == 1
    engine.dispose()


def test_a_report_in_a_state_no_reader_knows_leaves_the_directors_board_up(postgres_url: str) -> None:
    """Before: one such row blanked the whole board."""
    from kiosk.storage.migrations import upgrade

    engine = open_engine(postgres_url)
    upgrade(engine)
    store = HeartbeatStore(engine, where="the server")
    store.write(replace(make_beat("Table 1", number=1), reported_at=datetime.now(UTC)))
    store.write(replace(make_beat("Table 2", number=2), reported_at=datetime.now(UTC)))
    with engine.begin() as conn:
        conn.execute(text("UPDATE station_heartbeat SET state = 'dancing' WHERE station = 'Table 2'"))
    engine.dispose()
    board = read_board(postgres_url)
    assert [line.name for line in board.stations] == ["Table 1"]
    assert ["'dancing'" in why for why in board.left_out] == [True]


def test_twenty_thousand_reports_in_a_log_make_a_bounded_board(postgres_url: str) -> None:
    """Written by anyone holding the log's owner's password (before: a 7.8 MB page, 4 s a page)."""
    from kiosk.core.log.overview import MAX_BOARD_STATIONS
    from kiosk.director.pages import Pages
    from kiosk.director.watch import Snapshot
    from kiosk.storage.migrations import upgrade

    engine = open_engine(postgres_url)
    upgrade(engine)
    with engine.begin() as conn:
        conn.execute(
            text(
                "INSERT INTO station_heartbeat (station_id, station, host, state, reason, packs, "
                "rule_profile, ask_table, backlog, version, reported_at, seen_at) SELECT gen_random_uuid(), "
                "'Fake ' || n, 'kiosk-fake', 'ready', '', '[[\"Open\", \"CSW\", \"24\", true]]', "
                "'double', false, 0, '1.0', now(), now() FROM generate_series(1, 20000) n"
            )
        )
    engine.dispose()
    board = read_board(postgres_url)
    assert len(board.stations) == MAX_BOARD_STATIONS
    assert board.not_read == 20000 - MAX_BOARD_STATIONS
    page = Pages("the event").board_page(
        Snapshot(board=board, read_at=board.read_at.astimezone(), version=1), 0.0
    )
    assert len(page.encode()) < 512 * 1024, len(page.encode())
    assert f"{20000 - MAX_BOARD_STATIONS} more station reports are in the log" in page
