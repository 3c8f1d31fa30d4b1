"""The director's board over a shared log flooded with fake station reports: what one read and one
page cost (issue 20: 20,000 fake heartbeats made a 7.8 MB page at 4 s a page).

Starts a throwaway PostgreSQL server on loopback (Debian's binaries, as the tests do), writes
``--reports`` station reports straight into the table (as anyone holding the tables' owner's
password could; a station's own role keeps one report, see kiosk/storage/server.py) and a few
challenges, then times ``LogReader.board`` (the read the director's view makes every 2 s) and the
rendering of the page, and prints the page's size and how many stations it shows.

Prints figures; asserts nothing. Run from the repository root:

    .venv/bin/python -m bench.bench_board [--reports 20000] [--rounds 5]
"""

from __future__ import annotations

import argparse
import statistics
import time
from datetime import UTC, datetime, timedelta

from sqlalchemy import text

from kiosk.director.pages import Pages
from kiosk.director.watch import Snapshot
from kiosk.storage.database import open_engine
from kiosk.storage.log import SqlChallengeLog
from kiosk.storage.migrations import upgrade
from kiosk.storage.overview import LogReader
from tests.storage.entries import make_entry
from tests.storage.postgres import PostgresServer, find_postgres_bin


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--reports", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    server = PostgresServer(find_postgres_bin())
    server.init()
    server.start()
    try:
        url = server.create_database("board")
        engine = open_engine(url)
        upgrade(engine)
        with engine.begin() as conn:
            conn.execute(
                text(
                    "INSERT INTO station_heartbeat (station_id, station, host, state, reason, packs, "
                    "rule_profile, ask_table, backlog, version, reported_at, seen_at) SELECT "
                    "gen_random_uuid(), 'Fake ' || n, 'kiosk-fake', 'ready', '', "
                    "'[[\"Open\", \"CSW\", \"24\", true]]', 'double', false, 0, '1.0', now(), now() "
                    "FROM generate_series(1, :n) n"
                ),
                {"n": args.reports},
            )
        SqlChallengeLog(engine, where="bench").record_many(
            [make_entry(station=f"Table {n}") for n in range(20)]
        )
        engine.dispose()
        reader = LogReader(url)
        pages = Pages("bench")
        reads_ms, renders_ms = [], []
        page = ""
        shown = 0
        for _ in range(args.rounds):
            now = datetime.now(UTC)
            start = time.perf_counter()
            board = reader.board(now - timedelta(hours=12), now - timedelta(hours=1))
            reads_ms.append((time.perf_counter() - start) * 1000)
            start = time.perf_counter()
            page = pages.board_page(Snapshot(board=board, read_at=now.astimezone(), version=1), 0.0)
            renders_ms.append((time.perf_counter() - start) * 1000)
            shown = len(board.stations)
        reader.close()
        print(f"{args.reports} station reports in the log, {args.rounds} rounds")
        for label, samples in (("board read (LogReader.board)", reads_ms), ("page rendered", renders_ms)):
            print(f"  {label:<30} median {statistics.median(samples):8.1f} ms  max {max(samples):8.1f} ms")
        print(f"  page size {len(page.encode()) / 1024:,.0f} KiB, stations shown {shown}")
    finally:
        server.destroy()


if __name__ == "__main__":
    main()
