"""One judged challenge as the log keeps it, and what the station and judge mode ask of a log.

Value objects are not rows: ``kiosk.storage`` maps ``ChallengeEntry`` to and from its ORM model.
The station calls ``ChallengeLog.record`` and shows the verdict only after it returns; judge mode
asks with a ``LogQuery`` and reads where the log goes in a ``LogStatus``.
"""

from __future__ import annotations

import functools
import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time
from typing import NewType, Protocol

from kiosk.core.errors import InputError, StorageError
from kiosk.core.play.adjudication import Ruling, Verdict
from kiosk.core.wording import Text
from kiosk.core.words.alphabet import alphabets
from kiosk.core.words.normalise import read_typed

__all__ = [
    "MAX_QUERY_LAST",
    "MAX_ROUND",
    "MAX_SEARCH_CHARS",
    "ChallengeEntry",
    "ChallengeId",
    "ChallengeLog",
    "Found",
    "LeftOut",
    "LogQuery",
    "LogStatus",
    "SecondOpinion",
    "local_midnight",
    "record_again",
    "searched_letters",
    "stored_letters",
]

ChallengeId = NewType("ChallengeId", uuid.UUID)
MAX_QUERY_LAST = 1_000_000  # more than any event logs; a database's integers hold it
MAX_ROUND = 999  # the event's rounds are numbered 1 to this (longer than any event's schedule)
MAX_SEARCH_CHARS = 64  # a word searched for in the log: longer than any challenged word


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
    round: int | None = None  # the event's round the director had set when it was judged (schema 8)
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


@dataclass(frozen=True)
class LogQuery:
    """Which challenges to list: newest first, at most ``last``, optionally one station, one
    division, one lexicon, a time range, one table, one round, one verdict, and a word.

    ``lexicon`` matches, ignoring case, the pack's name (``Club list``), its name and edition
    (``Club list 2024``) or the published edition its set was proven to be (``NWL2023``). ``word``
    matches a challenge one of whose words holds it, read as a station reads typing
    (``searched_letters``: ``zyzz`` finds ZYZZYVA, ``challapateña`` [CH]A[LL]APATEÑA, ``col.lecció``
    CO[L·L]ECCIO). ``before``: only challenges listed after this one (its time and id),
    for the next page of a long list.
    """

    last: int | None = None
    station: str | None = None
    since: datetime | None = None  # inclusive, timezone-aware
    until: datetime | None = None  # exclusive, timezone-aware
    division: str | None = None
    lexicon: str | None = None
    table: int | None = None
    round: int | None = None
    verdict: Verdict | None = None
    word: str | None = None
    before: tuple[datetime, ChallengeId] | None = None

    def __post_init__(self) -> None:
        # In UTC from here on: a moment that has no UTC form (the year 9999 west of Greenwich) is
        # refused here, where the caller made it, not by the database the query is sent to.
        for name in ("since", "until"):
            moment = getattr(self, name)
            if moment is None:
                continue
            if moment.tzinfo is None or moment.utcoffset() is None:
                raise ValueError(f"a log query's {name} must carry its time zone, not {moment.isoformat()}")
            try:
                object.__setattr__(self, name, moment.astimezone(UTC))
            except OverflowError:
                raise ValueError(f"a log query's {name} {moment.isoformat()} has no UTC time") from None
        if self.last is not None and not 0 < self.last <= MAX_QUERY_LAST:
            raise ValueError(f"a log query lists 1 to {MAX_QUERY_LAST} challenges, not {self.last}")
        if self.table is not None and not 0 < self.table <= MAX_QUERY_LAST:
            raise ValueError(f"a table is numbered 1 to {MAX_QUERY_LAST}, not {self.table}")
        if self.round is not None and not 0 < self.round <= MAX_ROUND:
            raise ValueError(f"a round is numbered 1 to {MAX_ROUND}, not {self.round}")
        if self.word is not None:
            word = self.word.strip().upper()
            if not word or len(word) > MAX_SEARCH_CHARS or "\x00" in word:
                raise ValueError(f"a word searched for holds 1 to {MAX_SEARCH_CHARS} characters")
            object.__setattr__(self, "word", word)
        if self.before is not None:
            moment = self.before[0]
            if moment.tzinfo is None or moment.utcoffset() is None:
                raise ValueError(f"a log query's before must carry its time zone, not {moment.isoformat()}")
            object.__setattr__(self, "before", (moment.astimezone(UTC), self.before[1]))

    def word_letters(self) -> tuple[str, ...]:
        """What ``word`` may stand for in the log's words (``searched_letters``); () without one."""
        return () if self.word is None else searched_letters(self.word)

    def matches(self, entry: ChallengeEntry) -> bool:
        if self.station is not None and entry.station != self.station:
            return False
        if self.division is not None and entry.division != self.division:
            return False
        if self.lexicon is not None:
            ruling = entry.ruling
            names = (ruling.pack_name, f"{ruling.pack_name} {ruling.pack_edition}", entry.published_edition)
            if self.lexicon.lower() not in {name.lower() for name in names if name is not None}:
                return False
        if self.table is not None and entry.table != self.table:
            return False
        if self.round is not None and entry.round != self.round:
            return False
        if self.verdict is not None and entry.ruling.verdict is not self.verdict:
            return False
        if self.word is not None and not any(
            letters in stored_letters(word) for word in entry.ruling.words for letters in self.word_letters()
        ):
            return False
        if self.before is not None and (entry.judged_at, str(entry.challenge_id)) >= (
            self.before[0],
            str(self.before[1]),
        ):
            return False
        if self.since is not None and entry.judged_at < self.since:
            return False
        return not (self.until is not None and entry.judged_at >= self.until)


def stored_letters(stored: str) -> str:
    """A logged word's letters: the pack's stored spelling without the brackets around a tile of
    several letters (``[CH]A[LL]APATEÑA`` is CHALLAPATEÑA), what a judge's search is matched in
    (storage does the same in SQL)."""
    return stored.replace("[", "").replace("]", "")


@functools.lru_cache(maxsize=64)
def searched_letters(typed: str) -> tuple[str, ...]:
    """The letters a judge's search ``typed`` stands for, as each alphabet's station would read it
    typed (``read_typed``: the accents that alphabet folds, Catalan L.L and ŀl as L·L, Spanish + between
    tiles), tiles run together as ``stored_letters`` gives a logged word. A search no alphabet reads
    (a sign, half a tile) is looked for as typed, in capitals: the log's words hold no such thing,
    unless a pack did. A word copied from the log's lines or its CSV (``PE[RR]O``) is its letters."""
    readings: list[str] = []
    for alphabet in alphabets().values():
        try:
            letters = "".join(read_typed(stored_letters(typed), alphabet).shown)
        except InputError:
            continue
        if letters and letters not in readings:
            readings.append(letters)
    return tuple(readings) or (typed.upper(),)


@dataclass(frozen=True)
class LeftOut:
    """A row of the log a read left out: which challenge (its id's first eight digits, short enough
    for a judge's screen), of which station, and why."""

    challenge: str
    station: str
    why: str

    def __str__(self) -> str:
        return f"challenge {self.challenge} of station {self.station!r}: {self.why}"


class Found(list[ChallengeEntry]):
    """The challenges a read of the log found, newest first, and the rows it left out because this
    kiosk cannot read them (a verdict it does not know, words missing, a damaged row: each named
    with why). One row that cannot be read never hides the others."""

    def __init__(self, entries: Iterable[ChallengeEntry] = (), left_out: Iterable[LeftOut] = ()) -> None:
        super().__init__(entries)
        self.left_out: tuple[LeftOut, ...] = tuple(left_out)


@dataclass(frozen=True)
class LogStatus:
    """What judge mode shows about where the log goes: the backlog and the last server error.

    ``local_only``: the shared server could not be reached for the last judge read, which showed
    this station's own challenges only; judge mode must say so.
    """

    location: str
    shared: bool
    backlog: int
    last_error: Text | None
    local_only: bool = False


def record_again(
    log: ChallengeLog, entries: Sequence[ChallengeEntry]
) -> tuple[tuple[ChallengeId, ...], Text]:
    """Record the challenges kept after a log failure again, in order: which ones the log now
    holds, and why the others are still only in memory ("" when none is left)."""
    recorded: list[ChallengeId] = []
    problem: Text = ""
    for entry in entries:
        try:
            log.record(entry)
        except StorageError as exc:
            problem = exc.wording
        else:
            recorded.append(entry.challenge_id)
    return tuple(recorded), problem


def local_midnight(day: date) -> datetime:
    """The start of ``day`` in the station's local time zone, as an aware datetime (DST-safe):
    where "today" begins for judge mode's counts and the director's view."""
    return datetime.combine(day, time()).astimezone()
