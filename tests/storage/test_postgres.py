"""The shared log on a real PostgreSQL server (our own, on loopback): outbox and exactly-once.

These run in CI (``./dev.sh test`` installs Debian's ``postgresql``); with CI set, a missing
server fails the run instead of skipping it.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import queue
import sqlite3
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TypeVar

import pytest
from sqlalchemy import create_engine, inspect, text
from sqlalchemy.orm import Session

from kiosk.core.errors import StorageError
from kiosk.core.log.challenge import ChallengeId
from kiosk.storage import (
    LogQuery,
    LogStatus,
    Outbox,
    SharedChallengeLog,
    SqlChallengeLog,
    StationLog,
    StationStorage,
    open_station_storage,
)
from kiosk.storage.database import local_database_path, open_engine, sqlite_url
from kiosk.storage.mapping import entry_to_json
from kiosk.storage.migrations import SCHEMA_VERSION, upgrade
from kiosk.storage.schema import OutboxRow
from tests.conftest import REPO_ROOT, PackFactory
from tests.storage.entries import make_entry
from tests.storage.postgres import PostgresServer
from tests.storage.proxy import LoopbackProxy

STATIONS = 3
T = TypeVar("T")
WAIT_S = 120
QUICK_DEADLINE_S = 3.0
QUICK_RETRY_S = 0.5


def row_counts(url: str) -> dict[uuid.UUID, int]:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            if not inspect(conn).has_table("challenge"):
                return {}  # no station has reached the server yet
            rows = conn.execute(text("SELECT id, count(*) FROM challenge GROUP BY id"))
            return {row[0]: int(row[1]) for row in rows}
    finally:
        engine.dispose()


def forwarded(storage: StationStorage) -> LogStatus:
    """Wait (seconds-scale patience, no timing assertion) until the forwarder has emptied the outbox."""
    deadline = time.monotonic() + WAIT_S
    while (status := storage.log.status()).backlog:
        assert time.monotonic() < deadline, f"the forwarder did not empty the outbox: {status}"
        time.sleep(0.01)
    return status


def failed_once(storage: StationStorage) -> LogStatus:
    """Wait until the forwarder has found the server away (its error shows in judge mode)."""
    deadline = time.monotonic() + WAIT_S
    while (status := storage.log.status()).last_error is None:
        assert time.monotonic() < deadline, f"the forwarder never reported the server away: {status}"
        time.sleep(0.01)
    return status


def from_the_server(log: StationLog, read: Callable[[], T]) -> T:
    """A judge read answered by the shared server, not the local fallback.

    On a loaded machine a call can outlast its deadline; the read then falls back to this
    station's view (flagged local_only, which is what judge mode shows). Look again, as a judge
    would, after a forwarding round has found the server answering.
    """
    deadline = time.monotonic() + WAIT_S
    while True:
        value = read()
        status = log.status()
        if not status.local_only:
            return value
        print(f"a judge read fell back to the local view ({status.last_error}); reading again")
        assert time.monotonic() < deadline, f"the server never answered a judge read: {status}"
        with contextlib.suppress(StorageError):
            log.forward_backlog()
        time.sleep(0.5)


def test_stations_share_one_log(tmp_path: Path, postgres_url: str) -> None:
    first, second = make_entry(station="Table 1"), make_entry(station="Table 2")
    with open_station_storage(tmp_path / "one", postgres_url) as one:
        one.log.record(first)
        with open_station_storage(tmp_path / "two", postgres_url) as two:
            two.log.record(second)
            forwarded(one)
            shown = from_the_server(two.log, lambda: set(two.log.query(LogQuery())))
            assert shown == {first, second}  # second: forwarded or waiting
            since = datetime.now(UTC) - timedelta(hours=1)
            counts = from_the_server(two.log, lambda: two.log.count_by_station(since))
            assert counts == {"Table 1": 1, "Table 2": 1}
            assert from_the_server(two.log, lambda: two.log.get(first.challenge_id)) == first
            status = forwarded(two)
            assert (status.shared, status.local_only, status.last_error) == (True, False, None)
    assert row_counts(postgres_url) == {first.challenge_id: 1, second.challenge_id: 1}
    engine = create_engine(postgres_url)
    with engine.connect() as conn:
        assert conn.execute(text("SELECT version FROM kiosk_schema")).scalar() == SCHEMA_VERSION
    engine.dispose()


def test_record_commits_to_the_station_log_and_the_outbox_in_one_go(
    tmp_path: Path, postgres_url: str
) -> None:
    entry = make_entry()
    with open_station_storage(tmp_path, postgres_url, forward_in_background=False) as storage:
        storage.log.record(entry)
        storage.log.record(entry)  # the same challenge again: still one row, queued once
        with sqlite3.connect(storage.local_path) as conn:
            assert conn.execute("SELECT count(*) FROM challenge").fetchone() == (1,)
            assert conn.execute("SELECT count(*) FROM outbox").fetchone() == (1,)
        assert row_counts(postgres_url) == {}  # nothing went to the server on the verdict path
        assert storage.log.forward_backlog() == 1
        with sqlite3.connect(storage.local_path) as conn:  # the station keeps its own copy
            assert conn.execute("SELECT count(*) FROM challenge").fetchone() == (1,)
            assert conn.execute("SELECT count(*) FROM outbox").fetchone() == (0,)
    assert row_counts(postgres_url) == {entry.challenge_id: 1}


def test_while_the_server_is_down_challenges_wait_in_the_outbox_and_are_forwarded_once(
    tmp_path: Path, postgres_url: str, postgres_server: PostgresServer
) -> None:
    before = make_entry(station="Table 9")
    during = [make_entry() for _ in range(3)]
    with open_station_storage(tmp_path / "other", postgres_url) as other:
        elsewhere = make_entry(station="Table 2")
        other.log.record(elsewhere)
        forwarded(other)
    with open_station_storage(tmp_path, postgres_url, forward_in_background=False) as storage:
        storage.log.record(before)
        assert storage.log.forward_backlog() == 1
        postgres_server.stop()
        try:
            for entry in during:
                storage.log.record(entry)  # returns: the station keeps judging
            assert storage.log.status().backlog == 3
            with pytest.raises(StorageError):
                storage.log.forward_backlog()
            status = storage.log.status()
            assert status.backlog == 3
            assert status.last_error is not None
            # Judge mode falls back to this station's own log, and says so.
            assert set(storage.log.query(LogQuery())) == {before, *during}
            assert storage.log.status().local_only
            since = datetime.now(UTC) - timedelta(hours=1)
            assert storage.log.count_by_station(since) == {"Table 9": 1, "Table 1": 3}
            assert storage.log.get(during[0].challenge_id) == during[0]
            assert storage.log.get(elsewhere.challenge_id) is None
        finally:
            postgres_server.start()
        assert storage.log.forward_backlog() == 3
        assert storage.log.forward_backlog() == 0
        shown = from_the_server(storage.log, lambda: set(storage.log.query(LogQuery())))
        assert shown == {before, *during, elsewhere}
        assert storage.log.status() == LogStatus(
            location=status.location, shared=True, backlog=0, last_error=None, local_only=False
        )
    assert row_counts(postgres_url) == {entry.challenge_id: 1 for entry in (before, *during, elsewhere)}


def test_a_crash_between_forwarding_and_clearing_the_outbox_stores_nothing_twice(
    tmp_path: Path, postgres_url: str
) -> None:
    local = open_engine(sqlite_url(local_database_path(tmp_path)))
    upgrade(local)
    remote = SqlChallengeLog(open_engine(postgres_url), where="the test server")
    remote.upgrade()
    outbox = Outbox(local, where="the test outbox")
    forwarded, waiting = make_entry(), make_entry()
    outbox.record(forwarded)
    outbox.record(waiting)
    remote.record(forwarded)  # it reached the server, but the station died before clearing it
    shared = SharedChallengeLog(remote, outbox)
    since = datetime.now(UTC) - timedelta(hours=1)
    assert from_the_server(shared, lambda: shared.count_by_station(since)) == {"Table 1": 2}
    assert shared.forward_backlog() == 2
    assert row_counts(postgres_url) == {forwarded.challenge_id: 1, waiting.challenge_id: 1}
    local.dispose()


def test_an_outbox_left_by_an_older_kiosk_is_forwarded_and_shown(tmp_path: Path, postgres_url: str) -> None:
    """Before local-first, the outbox held challenges the station's own log did not."""
    local = open_engine(sqlite_url(local_database_path(tmp_path)))
    upgrade(local)
    queued = make_entry()
    with Session(local) as session, session.begin():  # what an older kiosk wrote: the outbox alone
        session.add(
            OutboxRow(id=queued.challenge_id, queued_at=datetime.now(UTC), payload=entry_to_json(queued))
        )
    local.dispose()
    with open_station_storage(tmp_path, postgres_url, forward_in_background=False) as storage:
        assert storage.log.get(queued.challenge_id) == queued
        assert storage.log.forward_backlog() == 1
    assert row_counts(postgres_url) == {queued.challenge_id: 1}


def test_a_station_starts_and_judges_with_the_server_down(
    tmp_path: Path, postgres_url: str, postgres_server: PostgresServer
) -> None:
    entry = make_entry()
    postgres_server.stop()
    try:
        with open_station_storage(tmp_path, postgres_url) as storage:
            storage.log.record(entry)
            failed_once(storage)
            assert storage.log.status().backlog == 1
    finally:
        postgres_server.start()
    with open_station_storage(tmp_path, postgres_url) as storage:
        forwarded(storage)  # the forwarder picks up what the last run left behind
    assert row_counts(postgres_url) == {entry.challenge_id: 1}


def test_a_shared_log_of_schema_3_takes_table_numbers_keeping_its_challenges(
    tmp_path: Path, postgres_url: str
) -> None:
    """The ADD COLUMN step on PostgreSQL itself, with a challenge of the older kiosk in the log."""
    engine = open_engine(postgres_url)
    upgrade(engine, target=3)
    old = uuid.uuid4()
    with engine.begin() as conn:  # as a kiosk of schema 3 wrote it
        conn.execute(
            text(
                "INSERT INTO challenge VALUES (:id, '2024-05-01 09:00', 'Table 1', 'Open', 'double', "
                "'Test list', 'test', 'abcd', false, 1, 'ACCEPTABLE')"
            ),
            {"id": old},
        )
        conn.execute(text("INSERT INTO challenge_word VALUES (:id, 0, 'CAT', 'ACCEPTABLE')"), {"id": old})
    engine.dispose()
    with open_station_storage(tmp_path, postgres_url, forward_in_background=False) as storage:
        storage.log.record(new := make_entry(station="Table 2", table=17))
        assert storage.log.forward_backlog() == 1
        tables = from_the_server(
            storage.log, lambda: {e.station: e.table for e in storage.log.query(LogQuery())}
        )
    assert tables == {"Table 1": None, "Table 2": 17}
    assert row_counts(postgres_url) == {old: 1, new.challenge_id: 1}


def test_a_shared_database_from_a_newer_kiosk_is_not_written_to(tmp_path: Path, postgres_url: str) -> None:
    engine = open_engine(postgres_url)
    upgrade(engine)
    with engine.begin() as conn:
        conn.execute(text("UPDATE kiosk_schema SET version = :v"), {"v": SCHEMA_VERSION + 1})
    engine.dispose()
    with open_station_storage(tmp_path, postgres_url, forward_in_background=False) as storage:
        storage.log.record(make_entry())  # kept locally; judge mode shows why
        with pytest.raises(StorageError, match="newer kiosk"):
            storage.log.forward_backlog()
        status = storage.log.status()
        assert status.backlog == 1
        assert status.last_error is not None
        assert "newer kiosk" in str(status.last_error)


def test_record_never_touches_the_network(tmp_path: Path, postgres_server: PostgresServer) -> None:
    """A server that accepts and never answers: record() returns, and no byte reached the server."""
    with LoopbackProxy(postgres_server.port, relaying=False) as blackhole:
        url = f"postgresql+psycopg://kiosk@127.0.0.1:{blackhole.port}/kiosk"
        entries = [make_entry() for _ in range(20)]
        with open_station_storage(tmp_path, url, forward_in_background=False) as storage:
            for entry in entries:
                storage.log.record(entry)
            assert storage.log.status().backlog == len(entries)
            assert (blackhole.accepted, blackhole.swallowed_bytes) == (0, 0)
            # Only now does anything ask the server, and a server that never answers gives an
            # error (the connect timeout), not a hang.
            with pytest.raises(StorageError):
                storage.log.forward_backlog()
            assert blackhole.swallowed_bytes > 0


@pytest.mark.slow
def test_a_server_that_stops_answering_delays_no_verdict_and_loses_nothing(
    tmp_path: Path, postgres_url: str
) -> None:
    """Blackholed from the start, then back, then frozen mid-connection, then back: exactly once."""
    upstream_port = int(postgres_url.rsplit(":", 1)[1].split("/", 1)[0])
    with LoopbackProxy(upstream_port, relaying=False) as proxy:
        url = proxy.url(postgres_url)
        shown: list[ChallengeId] = []

        def judge(count: int) -> None:
            for _ in range(count):
                entry = make_entry()
                storage.log.record(entry)  # returns while the server answers nothing at all
                shown.append(entry.challenge_id)

        # Deadlines shorter than a station's (10 s a call, 5 s between retries), so the test does not
        # wait them out; what happens at them is the same.
        with open_station_storage(
            tmp_path, url, remote_deadline_s=QUICK_DEADLINE_S, retry_s=QUICK_RETRY_S
        ) as storage:
            judge(3)
            # The forwarder tries the blackhole (it reads the connection attempt, never answers).
            status = failed_once(storage)
            assert proxy.swallowed_bytes > 0
            judge(3)
            assert storage.log.status().backlog == 6
            assert {e.challenge_id for e in storage.log.query(LogQuery())} == set(shown)
            assert storage.log.status().local_only

            proxy.relay()  # the server is back: the next retry forwards the backlog
            forwarded(storage)
            assert row_counts(postgres_url) == dict.fromkeys(shown, 1)
            judge(2)
            forwarded(storage)  # normally within milliseconds, over a pooled connection

            proxy.blackhole()  # now the pooled connection freezes: the peer never answers again
            judge(3)
            status = failed_once(storage)  # the call is abandoned at its deadline
            assert "did not answer within" in str(status.last_error or "")
            assert storage.log.status().backlog == 3
            judge(2)
            assert {e.challenge_id for e in storage.log.query(LogQuery())} == set(shown)
            assert storage.log.status().local_only

            proxy.relay()
            forwarded(storage)
            entries = from_the_server(storage.log, lambda: storage.log.query(LogQuery()))
            assert {e.challenge_id for e in entries} == set(shown)
    assert row_counts(postgres_url) == dict.fromkeys(shown, 1)


class Station:
    """A station core in a subprocess; its verdict lines are read on a thread into a queue."""

    def __init__(self, name: str, data_dir: Path, pack: Path, url: str) -> None:
        self.stop_file = data_dir / "stop"
        self.lines: queue.Queue[str] = queue.Queue()
        self.verdicts: dict[uuid.UUID, int] = {}  # challenge -> backlog printed with it
        self.done = False
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "tests.storage.station_child",
                "--data-dir",
                str(data_dir),
                "--pack",
                str(pack),
                "--station",
                name,
                "--database-url",
                url,
                "--stop-file",
                str(self.stop_file),
                "--interval-s",
                "0.05",
            ],
            cwd=REPO_ROOT,
            stdout=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line.strip())

    def drain(self) -> None:
        while True:
            try:
                line = self.lines.get_nowait()
            except queue.Empty:
                return
            if line.startswith("VERDICT "):
                _, challenge, _verdict, backlog = line.split()
                self.verdicts[uuid.UUID(challenge)] = int(backlog.removeprefix("backlog="))
            elif line == "DONE":
                self.done = True


def wait_until(stations: list[Station], condition: str, check: object) -> None:
    assert callable(check)
    deadline = time.monotonic() + WAIT_S
    while True:
        for station in stations:
            station.drain()
            if station.process.poll() not in (None, 0):
                pytest.fail(f"a station process died while waiting for {condition}")
        if all(check(station) for station in stations):
            return
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting for {condition}")
        time.sleep(0.05)


@pytest.fixture
def stations_cleanup() -> Iterator[list[Station]]:
    started: list[Station] = []
    yield started
    for station in started:
        if station.process.poll() is None:
            station.process.kill()
            station.process.wait()


@pytest.mark.slow
def test_several_stations_write_at_once_through_a_server_restart_exactly_once(
    tmp_path: Path,
    postgres_url: str,
    postgres_server: PostgresServer,
    make_pack: PackFactory,
    stations_cleanup: list[Station],
) -> None:
    pack = make_pack(["CAT", "CATS", "DOG", "DOGS", "QI", "ZA"])
    upgrade(engine := open_engine(postgres_url))  # so no station's first write races the schema
    engine.dispose()
    stations = stations_cleanup
    for n in range(STATIONS):
        stations.append(Station(f"Table {n + 1}", tmp_path / f"station-{n}", pack, postgres_url))

    wait_until(
        stations, "challenges forwarded as judged", lambda s: sum(b == 0 for b in s.verdicts.values()) >= 5
    )
    postgres_server.stop()
    try:
        wait_until(stations, "writes to the outbox", lambda s: sum(b > 0 for b in s.verdicts.values()) >= 5)
    finally:
        postgres_server.start()
    marks = {id(s): len(s.verdicts) for s in stations}
    wait_until(
        stations,
        "the backlog forwarded",
        lambda s: len(s.verdicts) > marks[id(s)] and list(s.verdicts.values())[-1] == 0,
    )
    for station in stations:
        station.stop_file.touch()
    wait_until(stations, "the stations to finish", lambda s: s.done)
    for station in stations:
        assert station.process.wait(timeout=WAIT_S) == 0

    counts = row_counts(postgres_url)
    shown = {challenge for station in stations for challenge in station.verdicts}
    assert set(counts) == shown  # every shown verdict is in the shared log, and nothing else
    assert set(counts.values()) == {1}  # exactly once (the primary key makes it so; we check)
    with open_station_storage(tmp_path / "judge", postgres_url) as judge:
        entries = from_the_server(judge.log, lambda: judge.log.query(LogQuery()))
        assert {entry.challenge_id for entry in entries} == {ChallengeId(c) for c in shown}
        assert {entry.station for entry in entries} == {f"Table {n + 1}" for n in range(STATIONS)}


def test_a_shared_log_of_schema_3_is_brought_forward_keeping_every_row(
    tmp_path: Path, postgres_url: str
) -> None:
    """Stations of the new kiosk upgrade a server written by the old one: ALTER TABLE, no row lost."""
    engine = open_engine(postgres_url)
    upgrade(engine, target=3)
    old = make_entry(("CAT", "DOGZ"), station="Table 9", division="Open")
    with engine.begin() as conn:
        conn.execute(
            text(
                "INSERT INTO challenge VALUES (:id, :at, 'Table 9', 'Open', 'double', 'Club list', '2024', "
                "'sha256:ab', false, 2, 'UNACCEPTABLE')"
            ),
            {"id": old.challenge_id, "at": datetime(2024, 5, 1, 9, 0)},
        )
        conn.execute(
            text(
                "INSERT INTO challenge_word VALUES (:id, 0, 'CAT', 'ACCEPTABLE'), "
                "(:id, 1, 'DOGZ', 'NOT_IN_LEXICON')"
            ),
            {"id": old.challenge_id},
        )
    engine.dispose()
    new = dataclasses.replace(
        make_entry(("QI",), bad=(), division="Schools"), published_edition="NSWL2023", edition_checked=True
    )
    with open_station_storage(tmp_path, postgres_url, forward_in_background=False) as storage:
        storage.log.record(new)
        assert storage.log.forward_backlog() == 1
        every = from_the_server(storage.log, lambda: storage.log.query(LogQuery()))
        assert {e.challenge_id: e.edition_checked for e in every} == {
            old.challenge_id: False,
            new.challenge_id: True,
        }
        schools = from_the_server(storage.log, lambda: storage.log.query(LogQuery(division="Schools")))
        by_edition = from_the_server(storage.log, lambda: storage.log.query(LogQuery(lexicon="nswl2023")))
        by_title = from_the_server(storage.log, lambda: storage.log.query(LogQuery(lexicon="CLUB LIST 2024")))
    assert [e.challenge_id for e in schools] == [new.challenge_id]
    assert [e.challenge_id for e in by_edition] == [new.challenge_id]
    assert [e.challenge_id for e in by_title] == [old.challenge_id]
    assert row_counts(postgres_url) == {old.challenge_id: 1, new.challenge_id: 1}
    with open_engine(postgres_url).connect() as conn:
        assert conn.execute(text("SELECT version FROM kiosk_schema")).scalar() == SCHEMA_VERSION


def test_a_row_no_reader_understands_leaves_the_judges_recheck_on_the_shared_log(
    tmp_path: Path, postgres_url: str
) -> None:
    """Before: one malformed row made every judge's recheck say the shared log cannot be reached."""
    with open_station_storage(tmp_path, postgres_url, forward_in_background=False) as storage:
        storage.log.record(good := make_entry(["CAT"], station="Table 1"))
        assert storage.log.forward_backlog() == 1
        bad = uuid.uuid4()
        engine = open_engine(postgres_url)
        with engine.begin() as conn:  # written by anyone holding the log's password
            conn.execute(
                text(
                    "INSERT INTO challenge (id, judged_at, station, division, rule_profile, pack_name, "
                    "pack_edition, set_hash, youth_rules, word_count, verdict, edition_checked) VALUES (:id, "
                    "now(), 'Table 2', 'Open', 'double', 'x', 'x', 'x', false, 1, 'MAYBE', false)"
                ),
                {"id": bad},
            )
            conn.execute(text("INSERT INTO challenge_word VALUES (:id, 0, 'QI', 'ACCEPTABLE')"), {"id": bad})
        engine.dispose()
        found = from_the_server(storage.log, lambda: storage.log.query(LogQuery(last=50)))
        assert not storage.log.status().local_only
    assert [entry.challenge_id for entry in found] == [good.challenge_id]
    assert [str(bad) in item.why and "'MAYBE'" in item.why for item in found.left_out] == [True]
