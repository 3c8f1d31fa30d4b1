"""Challenge log latency: record() on the station's SQLite file (WAL, synchronous=FULL), and on PostgreSQL.

Prints figures; asserts nothing. Run from the repository root:

    .venv/bin/python -m bench.bench_log [--count 300] [--database-url postgresql+psycopg://...]

Without --database-url it starts a throwaway PostgreSQL server on loopback (Debian's binaries,
as the tests do); with --no-postgres it measures SQLite only.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path

from kiosk.storage import open_station_storage
from tests.storage.entries import make_entry


def measure(label: str, count: int, record: Callable[[], None]) -> None:
    record()  # warm up: connections, statement caches
    samples_ms = []
    for _ in range(count):
        start = time.perf_counter()
        record()
        samples_ms.append((time.perf_counter() - start) * 1000)
    samples_ms.sort()
    print(
        f"{label:<44} n={count}  median {statistics.median(samples_ms):7.2f} ms  "
        f"p95 {samples_ms[int(0.95 * (count - 1))]:7.2f} ms  max {samples_ms[-1]:7.2f} ms"
    )


def bench_sqlite(count: int, where: Path | None) -> None:
    with tempfile.TemporaryDirectory(dir=where) as tmp, open_station_storage(Path(tmp)) as storage:
        measure("SQLite record() (WAL, synchronous=FULL)", count, lambda: storage.log.record(make_entry()))


def bench_postgres(count: int, url: str, stop_server: Callable[[], None] | None = None) -> None:
    with tempfile.TemporaryDirectory() as tmp, open_station_storage(Path(tmp), url) as storage:
        measure("PostgreSQL record() (loopback, fsync on)", count, lambda: storage.log.record(make_entry()))
        if stop_server is None:
            return
        stop_server()
        measure(
            "record() with the server down (to the outbox)", count, lambda: storage.log.record(make_entry())
        )
        print(f"backlog after the outage: {storage.log.status().backlog} challenges")


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
    from tests.storage.postgres import PostgresServer, find_postgres_bin

    server = PostgresServer(find_postgres_bin(), fsync=True)
    try:
        server.init()
        server.start()
        bench_postgres(args.count, server.create_database(f"bench_{uuid.uuid4().hex[:8]}"), server.stop)
    finally:
        server.destroy()


if __name__ == "__main__":
    main()
