"""The SQLite challenge log: committed before record() returns, WAL + FULL on every connection."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import text

from kiosk.core.errors import StorageError
from kiosk.core.log.challenge import ChallengeLog
from kiosk.storage import (
    LogQuery,
    Outbox,
    SharedChallengeLog,
    SqlChallengeLog,
    StationLog,
    StationStorage,
    open_station_storage,
)
from kiosk.storage.database import local_database_path, open_engine, sqlite_url
from tests.storage.entries import make_entry

T0 = datetime(2024, 5, 1, 9, 0, tzinfo=UTC)


def test_a_recorded_challenge_is_visible_to_another_connection_when_record_returns(
    storage: StationStorage,
) -> None:
    entry = make_entry(["CAT", "DOGZ"])
    storage.log.record(entry)
    with sqlite3.connect(storage.local_path) as other:
        rows = other.execute("SELECT station, verdict, word_count FROM challenge").fetchall()
        words = other.execute("SELECT word, status FROM challenge_word ORDER BY position").fetchall()
    assert rows == [("Table 1", "UNACCEPTABLE", 2)]
    assert words == [("CAT", "ACCEPTABLE"), ("DOGZ", "NOT_IN_LEXICON")]


def test_every_connection_runs_in_wal_with_synchronous_full(tmp_path: Path) -> None:
    engine = open_engine(sqlite_url(tmp_path / "log.sqlite3"))
    connections = [engine.connect() for _ in range(4)]  # four distinct pooled connections
    try:
        for conn in connections:
            assert conn.execute(text("PRAGMA journal_mode")).scalar() == "wal"
            assert conn.execute(text("PRAGMA synchronous")).scalar() == 2  # FULL
            assert conn.execute(text("PRAGMA foreign_keys")).scalar() == 1
    finally:
        for conn in connections:
            conn.close()
        engine.dispose()


def test_recording_the_same_challenge_twice_keeps_one_row(storage: StationStorage) -> None:
    entry = make_entry()
    storage.log.record(entry)
    storage.log.record(entry)
    assert storage.log.query(LogQuery()) == [entry]


def test_a_log_that_cannot_be_written_raises_storage_error(storage: StationStorage) -> None:
    with sqlite3.connect(storage.local_path) as other:
        other.execute("DROP TABLE challenge_word")
    with pytest.raises(StorageError, match=r"cannot write the challenge log at .*kiosk\.sqlite3"):
        storage.log.record(make_entry())


def test_queries_filter_by_station_and_time_newest_first(storage: StationStorage) -> None:
    early = make_entry(station="Table 1", judged_at=T0)
    middle = make_entry(station="Table 2", judged_at=T0 + timedelta(minutes=5))
    late = make_entry(station="Table 1", judged_at=T0 + timedelta(minutes=10))
    for entry in (middle, late, early):
        storage.log.record(entry)
    assert storage.log.query(LogQuery()) == [late, middle, early]
    assert storage.log.query(LogQuery(last=2)) == [late, middle]
    assert storage.log.query(LogQuery(station="Table 1")) == [late, early]
    assert storage.log.query(LogQuery(since=T0 + timedelta(minutes=5))) == [late, middle]
    assert storage.log.query(LogQuery(until=T0 + timedelta(minutes=5))) == [early]
    assert storage.log.count_by_station(T0) == {"Table 1": 2, "Table 2": 1}
    assert storage.log.count_by_station(T0 + timedelta(minutes=1)) == {"Table 1": 1, "Table 2": 1}


def test_the_local_log_reports_no_backlog(storage: StationStorage) -> None:
    status = storage.log.status()
    assert (status.shared, status.backlog, status.last_error) == (False, 0, None)
    assert storage.log.forward_backlog() == 0


def test_a_file_that_is_not_a_database_is_refused_with_its_name(tmp_path: Path) -> None:
    local_database_path(tmp_path).write_bytes(b"this is not SQLite" * 100)
    with pytest.raises(StorageError, match=r"kiosk\.sqlite3"):
        open_station_storage(tmp_path)


def test_the_log_can_live_in_another_sqlite_file(tmp_path: Path) -> None:
    other = tmp_path / "shared-disk" / "log.sqlite3"
    entry = make_entry()
    with open_station_storage(tmp_path / "station", sqlite_url(other)) as storage:
        storage.log.record(entry)
    with sqlite3.connect(other) as conn:
        assert conn.execute("SELECT count(*) FROM challenge").fetchone() == (1,)


def test_an_unsupported_database_url_is_refused_clearly(tmp_path: Path) -> None:
    with pytest.raises(StorageError, match="supports sqlite and postgresql"):
        open_station_storage(tmp_path, "mysql://kiosk:secret@server/kiosk")


def test_both_logs_are_challenge_logs_for_the_station(storage: StationStorage, tmp_path: Path) -> None:
    """Checked by mypy as much as by pytest: the station is handed a ChallengeLog."""
    log: ChallengeLog = storage.log
    station_log: StationLog = SharedChallengeLog(
        SqlChallengeLog(open_engine(sqlite_url(tmp_path / "remote.sqlite3")), where="remote"),
        Outbox(open_engine(sqlite_url(tmp_path / "outbox.sqlite3")), where="outbox"),
    )
    assert callable(log.record)
    assert callable(station_log.forward_backlog)
