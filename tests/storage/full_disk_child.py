"""PIN tries on a data directory whose disk fills up, run inside a private tmpfs (``python -m``).

``python -m tests.storage.full_disk_child FOLDER PIN TRY...``: opens a station's storage in
``FOLDER/data``, sets the judge PIN ``PIN``, fills the disk to the last byte (a file that grows
until ENOSPC), checks each ``TRY`` through ``JudgeAccess.check_pin``, then frees the disk and
checks them again. Prints one JSON object: what filling said, and each answer before and after
(the outcome and the failures on record, or "error" and the message), so the test reads it whole.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import sys
from pathlib import Path

from kiosk.core.errors import KioskError
from kiosk.storage import StationStorage, open_station_storage

FILL_CHUNK_BYTES = 4096


def fill(path: Path) -> str:
    """Write ``path`` until the disk refuses; what it said."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        while True:
            os.write(fd, b"\0" * FILL_CHUNK_BYTES)
    except OSError as exc:
        return exc.strerror or str(exc)
    finally:
        os.close(fd)


def answers(storage: StationStorage, tries: list[str]) -> list[list[object]]:
    said: list[list[object]] = []
    for pin in tries:
        try:
            check = storage.judge_access.check_pin(pin)
        except KioskError as exc:
            said.append([pin, "error", str(exc)])
        else:
            said.append([pin, check.outcome.value, check.failures])
    return said


def main(folder: Path, pin: str, tries: list[str]) -> None:
    with open_station_storage(folder / "data") as storage:
        storage.judge_access.set_pin(pin)
        # The write-ahead log emptied to nothing first, as a checkpoint leaves it: each try must
        # then grow it, on a full disk. (Otherwise SQLite writes a try over the log's old frames,
        # in space the file already has, and whether that is so depends on when it last
        # checkpointed: a try that is written is counted, and the test would test nothing.)
        with contextlib.closing(sqlite3.connect(storage.local_path)) as other:
            busy, _, _ = other.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        assert busy == 0, "the log could not be checkpointed"
        filler = folder / "fill"
        filled = fill(filler)
        full = answers(storage, tries)
        filler.unlink()
        freed = answers(storage, tries)
        print(json.dumps({"filled": filled, "full": full, "freed": freed}))


if __name__ == "__main__":
    main(Path(sys.argv[1]), sys.argv[2], sys.argv[3:])
