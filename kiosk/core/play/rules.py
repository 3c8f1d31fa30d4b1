"""Challenge rule profiles: what a ruling means for the players, in the profile's own words.

The verdict screen states the consequence of a ruling, and that consequence may depend only on the
verdict and on how many words were challenged, never on which word failed.

- **Double challenge** (North America): the loser of the challenge loses a turn.
- **Per-word penalty**: an unsuccessful challenge costs points for every word challenged, 5 by
  default.
- **Per-turn penalty** (WESPA's): a fixed number of points per unsuccessful challenge, whatever
  the word count; national variants are the same rule with their own points and words (Swedish
  play: 10 points).
- **Escalating penalty**: the points come from a schedule by the number of words challenged
  (``escalation = [5, 10, 20]``: one word 5, two words 10, three or more 20). The station judges
  one play at a time and never knows the game's earlier challenges, so it escalates with the
  words of this play only.
- **Free challenge**: an unsuccessful challenge costs nothing.

Who the points move for is configurable for every penalty: the challenger loses them, the
challenged player gains them, or both at once (the IMU rule). Under every profile a successful
challenge takes the play off the board.

A profile is configuration, not code: the station configuration's ``[rules]`` names the kind,
its points and, optionally, the profile's own name and words (``[rules.words]``: a national
variant's title and verdict lines in its own language). Every word a profile says by default is
in ``TEXTS``, one place, so that translations can route them through a catalogue.
"""

from __future__ import annotations

import enum
import functools
import re
import string
from collections.abc import Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType

from kiosk.core.errors import ConfigError
from kiosk.core.play.adjudication import MAX_WORDS_PER_CHALLENGE, Verdict
from kiosk.core.wording import Text, Wording
from kiosk.core.words.language import Catalogue, english, marked

__all__ = [
    "DEFAULT_ESCALATION",
    "DEFAULT_POINTS_PER_CHALLENGE",
    "DEFAULT_POINTS_PER_WORD",
    "MAX_POINTS",
    "PLACEHOLDERS",
    "POINT_KINDS",
    "TEXTS",
    "WORD_KEYS",
    "LoggedRule",
    "Outcome",
    "PenaltyParty",
    "ProfileKind",
    "RuleProfile",
    "check_template",
    "logged_rule",
]

DEFAULT_POINTS_PER_WORD = 5
DEFAULT_POINTS_PER_CHALLENGE = 10
DEFAULT_ESCALATION = (5, 10, 20)
MAX_POINTS = 100
_LABEL = re.compile(r"[A-Za-z0-9_-]{1,40}")


class ProfileKind(enum.Enum):
    DOUBLE = "double"
    PENALTY = "penalty"  # points for every word challenged
    PER_TURN = "per_turn"  # a fixed number of points per unsuccessful challenge (WESPA's per-turn)
    ESCALATING = "escalating"  # points from a schedule by the number of words challenged
    FREE = "free"


POINT_KINDS = (ProfileKind.PENALTY, ProfileKind.PER_TURN, ProfileKind.ESCALATING)


class PenaltyParty(enum.Enum):
    """Whose score a penalty moves after an unsuccessful challenge."""

    CHALLENGER_LOSES = "challenger_loses"
    CHALLENGED_GAINS = "challenged_gains"
    BOTH = "both"  # the IMU rule: off the challenger's score and onto the challenged player's


# Every word the profiles say, in one place (the translation work routes these through a
# catalogue). Templates may use the placeholders of PLACEHOLDERS.
TEXTS: Mapping[str, str] = MappingProxyType(
    {
        "title.double": marked("Double challenge"),
        "title.penalty": marked("{per_word}-point per-word penalty"),
        "title.per_turn": marked("{per_challenge}-point penalty per challenge"),
        "title.escalating": marked("Escalating penalty ({schedule} points)"),
        "title.free": marked("Free challenge"),
        "successful.headline": marked("Successful challenge"),
        "successful.consequence": marked(
            "The play comes off the board: the CHALLENGED PLAYER scores nothing this turn."
        ),
        "unsuccessful.double.headline": marked("Unsuccessful challenge"),
        "unsuccessful.double.consequence": marked("The play stands. The CHALLENGER loses a turn."),
        "unsuccessful.free.headline": marked("Unsuccessful challenge \u2014 no penalty"),
        "unsuccessful.free.consequence": marked("The play stands. Play continues."),
        "unsuccessful.penalty.headline": marked(
            "Unsuccessful challenge \u2014 {words} \u00d7 {per_word} points"
        ),
        "unsuccessful.per_turn.headline": marked("Unsuccessful challenge \u2014 {points} points"),
        "unsuccessful.escalating.headline": marked("Unsuccessful challenge \u2014 {words}: {points} points"),
        "party.challenger_loses": marked("The play stands. The CHALLENGER loses {points} points."),
        "party.challenged_gains": marked("The play stands. The CHALLENGED PLAYER gains {points} points."),
        "party.both": marked(
            "The play stands. The CHALLENGER loses {points} points and the CHALLENGED PLAYER gains "
            "{points} points."
        ),
        "words.one": "{count} word",  # translated as one plural message (outcome)
        "words.many": "{count} words",
    }
)

# What a template may say, filled in for the play being judged.
PLACEHOLDERS: Mapping[str, str] = MappingProxyType(
    {
        "points": "the points this unsuccessful challenge costs",
        "words": 'the number of words challenged, e.g. "3 words"',
        "count": "the number of words challenged, e.g. 3",
        "per_word": "the points per word (per-word penalty)",
        "per_challenge": "the points per challenge (per-turn penalty)",
        "schedule": 'the escalating schedule, e.g. "5, 10, 20"',
    }
)

# The profile's own words a configuration may give ([rules.words]), each replacing a default.
WORD_KEYS: Mapping[str, str] = MappingProxyType(
    {
        "title": "the profile's name as players and judges read it",
        "successful_headline": "the verdict's outcome line after a successful challenge",
        "successful_consequence": "the sentence under it",
        "unsuccessful_headline": "the verdict's outcome line after an unsuccessful challenge",
        "unsuccessful_consequence": "the sentence under it",
    }
)


def check_template(text: str, where: Text) -> str:
    """``text`` if every placeholder in it is known and well formed; else ConfigError naming them."""
    allowed = ", ".join("{" + name + "}" for name in PLACEHOLDERS)
    try:
        fields = [name for _, name, spec, conversion in string.Formatter().parse(text) if name is not None]
    except ValueError as exc:
        raise ConfigError(
            marked("{where}: {detail} (write {{{{ and }}}} for a brace; the placeholders are {allowed})"),
            where=where,
            detail=str(exc),
            allowed=allowed,
        ) from exc
    unknown = [name for name in fields if name not in PLACEHOLDERS]
    if unknown:
        raise ConfigError(
            marked("{where}: {placeholder} is not a placeholder; use {allowed}"),
            where=where,
            placeholder="{" + unknown[0] + "}",
            allowed=allowed,
        )
    return text


@dataclass(frozen=True)
class Outcome:
    """What a ruling means, as the verdict screen says it: a headline and one sentence."""

    headline: str
    consequence: str

    @property
    def text(self) -> str:
        return f"{self.headline}. {self.consequence}"


def _points_in_range(name: Text, value: int) -> None:
    if not 0 < value <= MAX_POINTS:
        raise ConfigError(
            marked("{name} is {value}; give a whole number from 1 to {most}"),
            name=name,
            value=value,
            most=MAX_POINTS,
        )


@dataclass(frozen=True)
class RuleProfile:
    """One challenge rule: its kind, its points, who they move for, and (optionally) its own words.

    ``label`` names a profile a configuration defined (``swedish``); ``words`` are its own texts
    (pairs of a ``WORD_KEYS`` key and a template), which replace the defaults of ``TEXTS``.
    """

    kind: ProfileKind = ProfileKind.DOUBLE
    points_per_word: int = DEFAULT_POINTS_PER_WORD
    penalty_party: PenaltyParty = PenaltyParty.CHALLENGER_LOSES
    points_per_challenge: int = DEFAULT_POINTS_PER_CHALLENGE
    escalation: tuple[int, ...] = DEFAULT_ESCALATION
    label: str = ""
    words: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        _points_in_range("points_per_word", self.points_per_word)
        _points_in_range("points_per_challenge", self.points_per_challenge)
        if not 0 < len(self.escalation) <= MAX_WORDS_PER_CHALLENGE:
            raise ConfigError(
                marked(
                    "escalation has {count} steps; give 1 to {most}: the points for one word, two words, "
                    "... (the last one counts for more words)"
                ),
                count=len(self.escalation),
                most=MAX_WORDS_PER_CHALLENGE,
            )
        for points in self.escalation:
            _points_in_range(Wording(marked("every step of escalation")), points)
        if any(later < earlier for earlier, later in zip(self.escalation, self.escalation[1:], strict=False)):
            raise ConfigError(
                marked("escalation {steps} goes down; an escalating penalty never costs less for more words"),
                steps=list(self.escalation),
            )
        if self.label and _LABEL.fullmatch(self.label) is None:
            raise ConfigError(
                marked(
                    "the profile name {name} may hold only letters A-Z, digits, '-' and '_' (at most 40): "
                    "it is written into the log"
                ),
                name=repr(self.label),
            )
        for key, template in self.words:
            if key not in WORD_KEYS:
                raise ConfigError(
                    marked("{key} is not a profile's word; use {keys}"),
                    key=repr(key),
                    keys=", ".join(WORD_KEYS),
                )
            check_template(template, Wording(marked("the profile's {key}"), key=key))

    # -- names: the log and the judge's saved choice ----------------------------------------------

    @property
    def name(self) -> str:
        """The profile as the log and the judge screens name it, e.g. ``penalty-5-both``,
        ``per_turn-10-challenger_loses`` or ``swedish:per_turn-10-challenger_loses``."""
        party = self.penalty_party.value
        if self.kind is ProfileKind.PENALTY:
            base = f"penalty-{self.points_per_word}-{party}"
        elif self.kind is ProfileKind.PER_TURN:
            base = f"per_turn-{self.points_per_challenge}-{party}"
        elif self.kind is ProfileKind.ESCALATING:
            base = f"escalating-{'.'.join(map(str, self.escalation))}-{party}"
        else:
            base = str(self.kind.value)
        return f"{self.label}:{base}" if self.label else base

    @classmethod
    def from_name(cls, name: str, configured: RuleProfile | None = None) -> RuleProfile:
        """The profile ``name`` stands for; ConfigError if none.

        A name with the label of the ``configured`` profile and its kind gets that profile's words
        back (a judge changed its points; the words stay the configuration's).
        """
        label, colon, base = name.rpartition(":")
        if not colon:
            label, base = "", name
        profile = cls._from_base(base, name)
        if label:
            profile = replace(profile, label=label)
        if configured is not None and label == configured.label and profile.kind is configured.kind:
            profile = replace(profile, words=configured.words)
        return profile

    @classmethod
    def _from_base(cls, base: str, name: str) -> RuleProfile:
        if base in (ProfileKind.DOUBLE.value, ProfileKind.FREE.value):
            return cls(kind=ProfileKind(base))
        kind_text, _, rest = base.partition("-")
        points, _, party = rest.partition("-")
        parties = {p.value: p for p in PenaltyParty}
        steps = points.split(".")
        if (
            kind_text in (k.value for k in POINT_KINDS)
            and party in parties
            and all(step.isascii() and step.isdigit() for step in steps)
        ):
            kind = ProfileKind(kind_text)
            numbers = tuple(int(step) for step in steps)
            if kind is ProfileKind.ESCALATING:
                return cls(kind=kind, escalation=numbers, penalty_party=parties[party])
            if len(numbers) == 1 and kind is ProfileKind.PENALTY:
                return cls(kind=kind, points_per_word=numbers[0], penalty_party=parties[party])
            if len(numbers) == 1:
                return cls(kind=kind, points_per_challenge=numbers[0], penalty_party=parties[party])
        raise ConfigError(
            marked(
                "{name} is not a rule profile: use double, free, penalty-POINTS-PARTY, per_turn-POINTS-PARTY "
                "or escalating-P1.P2.P3-PARTY, e.g. penalty-5-challenger_loses"
            ),
            name=repr(name),
        )

    # -- what players read -------------------------------------------------------------------------

    def _text(
        self, key: str, own: str | None = None, language: Catalogue | None = None, **values: object
    ) -> str:
        """The profile's own words for ``own`` if it has them (as the configuration wrote them),
        else the default ``TEXTS[key]`` in ``language``."""
        mine = dict(self.words)
        if own is not None and own in mine:
            return mine[own].format(**self._values(**values))
        words = english() if language is None else language
        return words.text(TEXTS[key], **self._values(**values))

    def _values(self, **values: object) -> dict[str, object]:
        return {
            "per_word": self.points_per_word,
            "per_challenge": self.points_per_challenge,
            "schedule": ", ".join(map(str, self.escalation)),
            "points": "",
            "words": "",
            "count": "",
            **values,
        }

    @property
    def title(self) -> str:
        """The profile as players read it (in English; ``title_in`` for another language)."""
        return self.title_in(english())

    def title_in(self, language: Catalogue) -> str:
        """The profile as players read it in ``language``."""
        return self._text(f"title.{self.kind.value}", "title", language)

    def points_for(self, word_count: int) -> int:
        """The points an unsuccessful challenge of ``word_count`` words costs (0: no points)."""
        if self.kind is ProfileKind.PENALTY:
            return self.points_per_word * word_count
        if self.kind is ProfileKind.PER_TURN:
            return self.points_per_challenge
        if self.kind is ProfileKind.ESCALATING:
            return self.escalation[min(max(word_count, 1), len(self.escalation)) - 1]
        return 0

    def outcome(self, verdict: Verdict, word_count: int, language: Catalogue | None = None) -> Outcome:
        """The consequence of a ruling on a play of ``word_count`` words, in ``language``."""
        t = english() if language is None else language
        words = t.plural("{count} word", "{count} words", word_count)
        values = {"points": self.points_for(word_count), "words": words, "count": word_count}
        if verdict is Verdict.UNACCEPTABLE:
            return Outcome(
                self._text("successful.headline", "successful_headline", t, **values),
                self._text("successful.consequence", "successful_consequence", t, **values),
            )
        kind = self.kind.value
        headline = self._text(f"unsuccessful.{kind}.headline", "unsuccessful_headline", t, **values)
        if self.kind in POINT_KINDS:
            default = f"party.{self.penalty_party.value}"
        else:
            default = f"unsuccessful.{kind}.consequence"
        return Outcome(headline, self._text(default, "unsuccessful_consequence", t, **values))


@dataclass(frozen=True)
class LoggedRule:
    """A rule profile as the log names it (``penalty-5-challenger_loses``), said in words for the
    director: its title, and what a ruling under it meant for the players (the penalty: who lost
    what). A name this kiosk cannot read is shown as it is, with no consequence."""

    name: str
    profile: RuleProfile | None

    @property
    def title(self) -> str:
        if self.profile is None:
            return self.name
        label = f"{self.profile.label}: " if self.profile.label else ""
        return f"{label}{self.profile.title}"

    def consequence(self, verdict: Verdict, word_count: int) -> str:
        """Who lost what, as the verdict screen said it (in English); "" for a rule not known here."""
        if self.profile is None:
            return ""
        return self.profile.outcome(verdict, word_count).consequence


@functools.lru_cache(maxsize=256)  # an event's log names a handful; an export asks per challenge
def logged_rule(name: str) -> LoggedRule:
    """The rule profile the log names ``name`` (see ``LoggedRule``)."""
    try:
        return LoggedRule(name, RuleProfile.from_name(name))
    except ConfigError:
        return LoggedRule(name, None)
