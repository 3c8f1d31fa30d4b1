"""One judged challenge as the log keeps it, and what the station asks of a log.

Value objects are not rows: ``kiosk.storage`` maps ``ChallengeEntry`` to and from its ORM model.
The station calls ``ChallengeLog.record`` and shows the verdict only after it returns.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import NewType, Protocol

from kiosk.core.adjudication import Ruling, Verdict

__all__ = ["ChallengeEntry", "ChallengeId", "ChallengeLog", "SecondOpinion"]

ChallengeId = NewType("ChallengeId", uuid.UUID)


@dataclass(frozen=True)
class SecondOpinion:
    """The second-opinion lexicon a verdict screen showed, and its verdict on the same words."""

    pack_name: str
    pack_edition: str
    set_hash: str
    verdict: Verdict

    @property
    def title(self) -> str:
        return f"{self.pack_name} {self.pack_edition}" if self.pack_edition else self.pack_name


@dataclass(frozen=True)
class ChallengeEntry:
    """A judged challenge: who judged it where, with which rules, and the ruling itself.

    ``published_edition`` is the known edition the set that ruled was proven to be (``NWL2023``;
    under youth rules the set with the youth list applied), None if it is none; ``edition_checked``
    is False for entries logged before the log recorded it (schema 5 and older), which say nothing.
    """

    challenge_id: ChallengeId
    judged_at: datetime  # timezone-aware, UTC
    station: str
    division: str
    rule_profile: str
    ruling: Ruling
    table: int | None = None  # the game's table, on a station that asks for it (ask_table)
    published_edition: str | None = None
    edition_checked: bool = False
    second_opinion: SecondOpinion | None = None

    @property
    def edition_text(self) -> str:
        """What the log says of the edition, for judges: ``NWL2023 (published word set)`` and kin."""
        if not self.edition_checked:
            return "edition not recorded (logged before the log recorded it)"
        if self.published_edition is None:
            return "not a published edition"
        return f"{self.published_edition} (published word set)"


class ChallengeLog(Protocol):
    """Where rulings are kept. ``record`` returns only once the entry is durable."""

    def record(self, entry: ChallengeEntry) -> None:
        """Store the entry durably, or raise StorageError; never return before it is stored."""
        ...
