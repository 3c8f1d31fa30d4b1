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

from kiosk.core.errors import StorageError
from kiosk.core.heartbeat import Heartbeat, StationState
from kiosk.storage import StationStorage, open_station_storage
from kiosk.storage.database import open_engine
from kiosk.storage.heartbeat import HeartbeatReporter, HeartbeatStore, database_now, station_id
from tests.storage.entries import make_beat, make_entry
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


def test_an_unknown_state_is_refused_by_name(storage: StationStorage) -> None:
    assert storage.heartbeats is not None
    storage.heartbeats.write(replace(beat(), reported_at=datetime.now(UTC)))
    with sqlite3.connect(storage.local_path) as conn:
        conn.execute("UPDATE station_heartbeat SET state = 'asleep'")
    with pytest.raises(StorageError, match="'asleep'"):
        storage.heartbeats.all()


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
