"""A station core without a window, for crash and multi-station tests (run with ``python -m``).

Streams challenges: judge, ``record`` into the log, and only then print the verdict line
``VERDICT <uuid> <verdict> backlog=<n>`` - the order the real station must keep. ``n`` is how many
earlier challenges still waited for the shared server when this one was judged (0 for a local log). With
``--stop-file``, stops when the file appears, forwards its backlog and prints ``DONE``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path

from kiosk.core.adjudication import adjudicate
from kiosk.core.errors import StorageError
from kiosk.core.lexicon import load_lexicon
from kiosk.core.record import ChallengeEntry, ChallengeId
from kiosk.storage import open_station_storage

WORDS = ("CAT", "CATS", "DOG", "DOGS", "QI", "ZA", "QIX", "DOGZ", "ZAS")
FORWARD_PATIENCE_S = 60.0


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--data-dir", type=Path, required=True)
    parser.add_argument("--pack", type=Path, required=True)
    parser.add_argument("--station", default="Table 1")
    parser.add_argument("--database-url")
    parser.add_argument("--stop-file", type=Path)
    parser.add_argument("--interval-s", type=float, default=0.0)
    args = parser.parse_args(argv)

    lexicon = load_lexicon(args.pack)
    storage = open_station_storage(args.data_dir, args.database_url)
    rng = random.Random()
    print("READY", flush=True)
    while args.stop_file is None or not args.stop_file.exists():
        words = rng.choices(WORDS, k=rng.randint(1, 4))
        ruling = adjudicate(words, lexicon)
        entry = ChallengeEntry(
            challenge_id=ChallengeId(uuid.uuid4()),
            judged_at=datetime.now(UTC),
            station=args.station,
            division="Open",
            rule_profile="double challenge",
            ruling=ruling,
        )
        backlog = storage.log.status().backlog if args.database_url else 0
        storage.log.record(entry)
        print(f"VERDICT {entry.challenge_id} {ruling.verdict.value} backlog={backlog}", flush=True)
        if args.interval_s:
            time.sleep(args.interval_s)
    deadline = time.monotonic() + FORWARD_PATIENCE_S
    while storage.log.status().backlog:
        try:
            storage.log.forward_backlog()
        except StorageError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)
    storage.close()
    print("DONE", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
