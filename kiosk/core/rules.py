"""Challenge rule profiles: what a ruling means for the players, in the profile's own words.

The verdict screen states the consequence of a ruling, and that consequence may depend only on the
verdict and on how many words were challenged, never on which word failed.

- **Double challenge** (North America): the loser of the challenge loses a turn.
- **Per-word penalty** (the WESPA norm): an unsuccessful challenge costs points for every word
  challenged, 5 by default. Who the points move for is configurable: the challenger loses them,
  the challenged player gains them, or both at once (the IMU rule: the points move both ways,
  off the challenger's score and onto the challenged player's).
- **Free challenge**: an unsuccessful challenge costs nothing.

Under every profile a successful challenge takes the play off the board.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from kiosk.core.adjudication import Verdict
from kiosk.core.errors import ConfigError
from kiosk.core.plural import counted

__all__ = [
    "DEFAULT_POINTS_PER_WORD",
    "Outcome",
    "PenaltyParty",
    "ProfileKind",
    "RuleProfile",
]

DEFAULT_POINTS_PER_WORD = 5
MAX_POINTS_PER_WORD = 100
TIMES = "\u00d7"  # the multiplication sign, as the verdict screen prints it


class ProfileKind(enum.Enum):
    DOUBLE = "double"
    PENALTY = "penalty"
    FREE = "free"


class PenaltyParty(enum.Enum):
    """Whose score the per-word penalty moves after an unsuccessful challenge."""

    CHALLENGER_LOSES = "challenger_loses"
    CHALLENGED_GAINS = "challenged_gains"
    BOTH = "both"  # the IMU rule: off the challenger's score and onto the challenged player's


@dataclass(frozen=True)
class Outcome:
    """What a ruling means, as the verdict screen says it: a headline and one sentence."""

    headline: str
    consequence: str

    @property
    def text(self) -> str:
        return f"{self.headline}. {self.consequence}"


_PLAY_OFF = "The play comes off the board: the CHALLENGED PLAYER scores nothing this turn."


@dataclass(frozen=True)
class RuleProfile:
    kind: ProfileKind = ProfileKind.DOUBLE
    points_per_word: int = DEFAULT_POINTS_PER_WORD
    penalty_party: PenaltyParty = PenaltyParty.CHALLENGER_LOSES

    def __post_init__(self) -> None:
        if not 0 < self.points_per_word <= MAX_POINTS_PER_WORD:
            raise ConfigError(
                f"points_per_word is {self.points_per_word}; give a whole number from 1 to "
                f"{MAX_POINTS_PER_WORD}"
            )

    @property
    def name(self) -> str:
        """The profile as the log and the judge screens name it, e.g. ``penalty-5-both``."""
        if self.kind is ProfileKind.PENALTY:
            return f"penalty-{self.points_per_word}-{self.penalty_party.value}"
        return str(self.kind.value)

    @classmethod
    def from_name(cls, name: str) -> RuleProfile:
        """The profile ``name`` stands for (``double``, ``free``, ``penalty-5-both``); ConfigError if none."""
        if name in (ProfileKind.DOUBLE.value, ProfileKind.FREE.value):
            return cls(kind=ProfileKind(name))
        kind, _, rest = name.partition("-")
        points, _, party = rest.partition("-")
        parties = {p.value: p for p in PenaltyParty}
        if (
            kind != ProfileKind.PENALTY.value
            or not points.isascii()
            or not points.isdigit()
            or party not in parties
        ):
            raise ConfigError(
                f"{name!r} is not a rule profile: use double, free or penalty-POINTS-PARTY, "
                "e.g. penalty-5-challenger_loses"
            )
        return cls(kind=ProfileKind.PENALTY, points_per_word=int(points), penalty_party=parties[party])

    @property
    def title(self) -> str:
        """The profile as players read it."""
        if self.kind is ProfileKind.DOUBLE:
            return "Double challenge"
        if self.kind is ProfileKind.FREE:
            return "Free challenge"
        return f"{self.points_per_word}-point per-word penalty"

    def outcome(self, verdict: Verdict, word_count: int) -> Outcome:
        """The consequence of a ruling on a play of ``word_count`` words."""
        if verdict is Verdict.UNACCEPTABLE:
            return Outcome("Successful challenge", _PLAY_OFF)
        if self.kind is ProfileKind.DOUBLE:
            return Outcome("Unsuccessful challenge", "The play stands. The CHALLENGER loses a turn.")
        if self.kind is ProfileKind.FREE:
            return Outcome("Unsuccessful challenge — no penalty", "The play stands. Play continues.")
        total = self.points_per_word * word_count
        words = counted(word_count, "word")
        headline = f"Unsuccessful challenge — {words} {TIMES} {self.points_per_word} points"
        moves = {
            PenaltyParty.CHALLENGER_LOSES: f"The CHALLENGER loses {total} points.",
            PenaltyParty.CHALLENGED_GAINS: f"The CHALLENGED PLAYER gains {total} points.",
            PenaltyParty.BOTH: (
                f"The CHALLENGER loses {total} points and the CHALLENGED PLAYER gains {total} points."
            ),
        }
        return Outcome(headline, f"The play stands. {moves[self.penalty_party]}")
