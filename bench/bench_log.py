"""Challenge log latency: record() on the station's SQLite file (WAL, synchronous=FULL), and shared.

A shared log is local first: record() commits to the station's SQLite file and outbox and returns;
a background forwarder sends the entry to PostgreSQL. So this prints, for the shared log, the
record() latency (the verdict path; for SQLite with the check that the log's files are still in
place, also timed alone) with the server up, with the server stopped and with the
server blackholed (a port that accepts and never answers), and how long the forwarder takes to
get an entry onto the server (record() called to row visible on the server) while it is up.

Prints figures; asserts nothing. Run from the repository root:

    .venv/bin/python -m bench.bench_log [--count 300] [--database-url postgresql+psycopg://...]

Without --database-url it starts a throwaway PostgreSQL server on loopback (Debian's binaries,
as the tests do, fsync on); with --no-postgres it measures SQLite only.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path

from sqlalchemy import create_engine, text

from kiosk.storage import LogQuery, open_station_storage
from kiosk.storage.database import SqliteFiles
from tests.storage.entries import make_entry
from tests.storage.postgres import PostgresServer, find_postgres_bin
from tests.storage.proxy import LoopbackProxy


def measure(label: str, count: int, record: Callable[[], None]) -> None:
    record()  # warm up: connections, statement caches
    samples_ms = []
    for _ in range(count):
        start = time.perf_counter()
        record()
        samples_ms.append((time.perf_counter() - start) * 1000)
    samples_ms.sort()
    print(
        f"{label:<52} n={count}  median {statistics.median(samples_ms):7.2f} ms  "
        f"p95 {samples_ms[int(0.95 * (count - 1))]:7.2f} ms  max {samples_ms[-1]:7.2f} ms"
    )


def bench_sqlite(count: int, where: Path | None) -> None:
    with tempfile.TemporaryDirectory(dir=where) as tmp, open_station_storage(Path(tmp)) as storage:
        measure("SQLite record() (WAL, synchronous=FULL)", count, lambda: storage.log.record(make_entry()))
        # record() checks before and after its commit that the files are still the log's: two stat
        # calls each time, and the 100-byte header read again only when the database file changed
        # (a checkpoint, or an intruder)
        files = SqliteFiles(storage.local_path)
        files.remember()
        runs = 100_000
        start = time.perf_counter()
        for _ in range(runs):
            files.check()
        per_check_us = (time.perf_counter() - start) / runs * 1e6
        label = "  of which: the log files still the log (2 checks)"
        print(f"{label:<52} {2 * per_check_us:7.2f} us per record()")
        start = time.perf_counter()
        for _ in range(runs):
            files._header()
        per_read_us = (time.perf_counter() - start) / runs * 1e6
        label = "  the header read again, after a checkpoint"
        print(f"{label:<52} {per_read_us:7.2f} us per checkpoint")
        files.close()


def forwarding_lag(count: int, url: str) -> None:
    """record() called -> the row is on the server, with the background forwarder."""
    engine = create_engine(url)
    lags_ms = []
    try:
        with tempfile.TemporaryDirectory() as tmp, open_station_storage(Path(tmp), url) as storage:
            for _ in range(count):
                entry = make_entry()
                start = time.perf_counter()
                storage.log.record(entry)
                with engine.connect() as conn:
                    while not conn.execute(
                        text("SELECT 1 FROM challenge WHERE id = :id"), {"id": entry.challenge_id}
                    ).first():
                        conn.rollback()
                        time.sleep(0.0005)
                lags_ms.append((time.perf_counter() - start) * 1000)
    finally:
        engine.dispose()
    lags_ms.sort()
    print(
        f"{'shared: record() -> row on the server':<52} n={count}  median "
        f"{statistics.median(lags_ms):7.2f} ms  p95 {lags_ms[int(0.95 * (count - 1))]:7.2f} ms  "
        f"max {lags_ms[-1]:7.2f} ms"
    )


def bench_postgres(count: int, url: str, server: PostgresServer | None = None) -> None:
    with tempfile.TemporaryDirectory() as tmp, open_station_storage(Path(tmp), url) as storage:
        measure("shared record(), server up (local first)", count, lambda: storage.log.record(make_entry()))
        if server is None:  # someone else's server: do not stop it
            forwarding_lag(count // 3 or 1, url)
            return
        while storage.log.status().backlog:  # let the forwarder catch up before the outage
            time.sleep(0.01)
        server.stop()
        try:
            measure("shared record(), server stopped", count, lambda: storage.log.record(make_entry()))
            print(f"backlog after the outage: {storage.log.status().backlog} challenges")
        finally:
            server.start()
        start = time.perf_counter()
        while storage.log.status().backlog:
            time.sleep(0.01)
        print(f"backlog forwarded {time.perf_counter() - start:.1f} s after the server came back")
    forwarding_lag(count // 3 or 1, url)
    with LoopbackProxy(server.port, relaying=False) as blackhole:
        dead = blackhole.url(url)
        with tempfile.TemporaryDirectory() as tmp, open_station_storage(Path(tmp), dead) as storage:
            measure("shared record(), server blackholed", count, lambda: storage.log.record(make_entry()))
            start = time.perf_counter()
            storage.log.query(LogQuery(last=10))
            print(
                f"judge query with the server blackholed: {time.perf_counter() - start:.1f} s "
                f"(local only: {storage.log.status().local_only})"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--count", type=int, default=300)
    parser.add_argument("--database-url")
    parser.add_argument("--no-postgres", action="store_true")
    parser.add_argument("--dir", type=Path, help="Where to put the SQLite file (default: a temp dir).")
    args = parser.parse_args()
    bench_sqlite(args.count, args.dir)
    if args.no_postgres:
        return
    if args.database_url:
        bench_postgres(args.count, args.database_url)
        return
    server = PostgresServer(find_postgres_bin(), fsync=True)
    try:
        server.init()
        server.start()
        bench_postgres(args.count, server.create_database(f"bench_{uuid.uuid4().hex[:8]}"), server)
    finally:
        server.destroy()


if __name__ == "__main__":
    main()
