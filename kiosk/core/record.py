"""One judged challenge as the log keeps it, and what the station asks of a log.

Value objects are not rows: ``kiosk.storage`` maps ``ChallengeEntry`` to and from its ORM model.
The station calls ``ChallengeLog.record`` and shows the verdict only after it returns.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import NewType, Protocol

from kiosk.core.adjudication import Ruling

__all__ = ["ChallengeEntry", "ChallengeId", "ChallengeLog"]

ChallengeId = NewType("ChallengeId", uuid.UUID)


@dataclass(frozen=True)
class ChallengeEntry:
    """A judged challenge: who judged it where, with which rules, and the ruling itself."""

    challenge_id: ChallengeId
    judged_at: datetime  # timezone-aware, UTC
    station: str
    division: str
    rule_profile: str
    ruling: Ruling
    table: int | None = None  # the game's table, on a station that asks for it (ask_table)


class ChallengeLog(Protocol):
    """Where rulings are kept. ``record`` returns only once the entry is durable."""

    def record(self, entry: ChallengeEntry) -> None:
        """Store the entry durably, or raise StorageError; never return before it is stored."""
        ...
