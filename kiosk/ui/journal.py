"""A stop-gap challenge log: one JSON line per challenge, fsynced before the verdict is shown.

It stands in until ``kiosk.storage`` provides the SQLite/PostgreSQL log with the same protocol
(``kiosk.core.record.ChallengeLog``); it never reads what it wrote.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from kiosk.core.errors import StorageError
from kiosk.core.record import ChallengeEntry

__all__ = ["JsonLinesLog"]


class JsonLinesLog:
    """Appends each entry as one line and returns only after ``fsync``."""

    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        except OSError as exc:
            raise StorageError(f"the challenge log {path} cannot be opened: {exc.strerror}") from exc

    def record(self, entry: ChallengeEntry) -> None:
        ruling = entry.ruling
        line = json.dumps(
            {
                "id": str(entry.challenge_id),
                "judged_at": entry.judged_at.isoformat(),
                "station": entry.station,
                "division": entry.division,
                "rule_profile": entry.rule_profile,
                "pack_name": ruling.pack_name,
                "pack_edition": ruling.pack_edition,
                "set_hash": ruling.set_hash,
                "youth_rules": ruling.youth_rules,
                "words": list(ruling.words),
                "verdict": ruling.verdict.value,
                "results": [{"word": r.word, "status": r.status.name} for r in ruling.results],
            },
            ensure_ascii=True,
        )
        data = (line + "\n").encode("ascii")
        try:
            written = os.write(self._fd, data)
            if written != len(data):
                raise StorageError(f"the challenge log {self.path} took {written} of {len(data)} bytes")
            os.fsync(self._fd)
        except OSError as exc:
            raise StorageError(f"the challenge log {self.path} cannot be written: {exc.strerror}") from exc

    def close(self) -> None:
        os.close(self._fd)
