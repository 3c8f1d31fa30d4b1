"""The director's board: every station and division at a glance, as plain values.

``kiosk.storage.overview`` reads it from the log (reports, counts and the public facts of the latest
challenges: never a word); ``kiosk.director`` shows it. What is decided here is what the director
must not have to work out:

- each station's **health**, in the order the page lists them: problems first (not seen for
  ``UNSEEN_AFTER_S``, never reported, a fault, not ready), then stations whose report is awaited
  because the log itself was away a moment ago (no false alarm in the seconds after it returns),
  then those at work, those a judge closed, those the director retired, and an earlier day's;
  names in natural order within each ("Station 2" before "Station 10");
- for each division, what it is judged with (rule, pack, edition and the word set's digest, youth
  rules) at each station, from the stations' reports now and from today's challenges: more than
  one way is a **mismatch**, which the page shows as a warning;
- which stations' challenges arrived **late** (judged while the station could not reach the log,
  received when it could), and which tables challenge most.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from kiosk.core.log.heartbeat import UNSEEN_AFTER_S, Heartbeat, StationId, StationState
from kiosk.core.play.adjudication import Verdict

__all__ = [
    "LATE_AFTER_S",
    "MAX_BOARD_DIVISIONS",
    "MAX_BOARD_STATIONS",
    "MAX_FEED",
    "MAX_TOP_TABLES",
    "Board",
    "Counts",
    "DivisionLine",
    "EventRound",
    "FeedLine",
    "Health",
    "Judged",
    "JudgedWith",
    "Late",
    "StationLine",
    "TableCount",
    "build_board",
    "natural_key",
]

# The most the board reads and shows, whatever the log holds: more stations (or divisions) than any
# event has, so that rows someone else wrote cannot make the page slow or huge.
MAX_BOARD_STATIONS = 200
MAX_BOARD_DIVISIONS = 100
MAX_FEED = 30  # the latest challenges the public page lists (time, station, table, division, verdict)
MAX_TOP_TABLES = 10  # the tables that challenge most, today
# A challenge stored this long after it was judged was judged while its station could not reach the
# log (a shared log's outbox): it arrived late. Forwarding normally takes milliseconds.
LATE_AFTER_S = 30.0


def natural_key(name: str) -> tuple[object, ...]:
    """Sorts names as people read them: "Station 2" before "Station 10", "Station 1" before
    "Station 09", ignoring case; equal keys fall back to the name itself."""
    parts: list[object] = []
    for text, number in re.findall(r"(\D*)(\d*)", name.casefold()):
        if text or number:
            parts.append((text, int(number) if number else -1))
    return (tuple(parts), name)


@dataclass(frozen=True)
class EventRound:
    """The event's round as the director last set it, and when (the log's clock)."""

    number: int
    set_at: datetime


@dataclass(frozen=True)
class Counts:
    """Challenges of one station or division: today, in the last hour, and the successful ones today
    (the play came off the board: the verdict was UNACCEPTABLE)."""

    today: int = 0
    last_hour: int = 0
    successful_today: int = 0
    last_at: datetime | None = None  # the last challenge's time, whenever it was

    @property
    def successful_share(self) -> float | None:
        """The share of today's challenges that succeeded; None with none today."""
        return self.successful_today / self.today if self.today else None

    def __add__(self, other: Counts) -> Counts:
        moments = [moment for moment in (self.last_at, other.last_at) if moment is not None]
        return Counts(
            self.today + other.today,
            self.last_hour + other.last_hour,
            self.successful_today + other.successful_today,
            max(moments, default=None),
        )


@dataclass(frozen=True)
class Late:
    """A station's challenges of today that reached the log late (judged while it was cut off)."""

    count: int
    last_received_at: datetime  # when the latest of them arrived (the log's clock)
    most_s: float  # the longest any of them waited


class Health(enum.IntEnum):
    """How the director should see a station; the page lists them in this order."""

    PROBLEM = 0  # not seen, never reported, a fault, not ready: look now
    AWAITED = 1  # the log was away a moment ago: its report is awaited, not yet a problem
    AT_WORK = 2  # ready, in a challenge, in judge mode
    CLOSED = 3  # a judge closed it ("Exit the station")
    RETIRED = 4  # the director retired it until it reports again
    EARLIER = 5  # neither seen nor judging today: an earlier day's, packed away


@dataclass(frozen=True)
class StationLine:
    """One station: its last report (None: it logs challenges but never reported) and its counts.

    ``unseen_s``: seconds since the log's database last heard from it; ``awaited``: it was last
    heard before the log itself was away, and the log answered again less than ``UNSEEN_AFTER_S``
    ago, so not hearing from it yet is no sign of trouble."""

    name: str
    beat: Heartbeat | None
    counts: Counts
    unseen_s: float | None
    shared_name: bool = False  # another station reports the same name: their counts are mixed
    earlier: bool = False  # neither seen nor judging today: a station of an earlier day, not a worry
    retired_at: datetime | None = None  # the director retired it then, and it has not reported since
    awaited: bool = False  # last heard before the log was away; the log answered again a moment ago
    late: Late | None = None

    @property
    def unseen(self) -> bool:
        return self.beat is None or self.unseen_s is None or self.unseen_s > UNSEEN_AFTER_S

    @property
    def health(self) -> Health:
        if self.earlier:
            return Health.EARLIER
        if self.retired_at is not None:
            return Health.RETIRED
        if self.beat is not None and self.beat.state is StationState.CLOSED:
            return Health.CLOSED
        if self.unseen:
            return Health.AWAITED if self.awaited and self.beat is not None else Health.PROBLEM
        if self.beat is not None and self.beat.state in (StationState.FAULT, StationState.NOT_READY):
            return Health.PROBLEM
        return Health.AT_WORK

    @property
    def red(self) -> bool:
        """A problem: the director should look now."""
        return self.health is Health.PROBLEM

    @property
    def problem(self) -> str:
        """The problem in a few public words ("" if none): no reason, path or command."""
        if not self.red:
            return ""
        if self.beat is None:
            return "never reported"
        if self.unseen:
            return "not seen"
        return self.beat.state.value


@dataclass(frozen=True)
class JudgedWith:
    """One way a division is judged: the rule profile, the pack, its edition, the word set's digest
    (with the youth list's, under youth rules) and whether youth rules apply; where, and how often.

    ``stations_now``: the stations whose reports say they judge it so now; ``stations_today``: those
    whose challenges of today were judged so, with ``challenges_today`` of them in all."""

    rule_profile: str
    pack: str
    edition: str
    set_hash: str
    youth: bool
    stations_now: tuple[str, ...] = ()
    stations_today: tuple[str, ...] = ()
    challenges_today: int = 0

    @property
    def key(self) -> tuple[str, str, str, str, bool]:
        return (self.rule_profile, self.pack, self.edition, self.set_hash, self.youth)

    @property
    def stations(self) -> tuple[str, ...]:
        return tuple(sorted({*self.stations_now, *self.stations_today}, key=natural_key))


@dataclass(frozen=True)
class DivisionLine:
    name: str
    counts: Counts
    judged_with: tuple[JudgedWith, ...] = ()

    @property
    def mismatch(self) -> bool:
        """Judged more than one way (another rule, pack, edition, word set or youth rules)."""
        return len(self.judged_with) > 1


@dataclass(frozen=True)
class FeedLine:
    """One challenge as the hall may see it: never a word."""

    judged_at: datetime
    station: str
    division: str
    table: int | None
    round: int | None
    verdict: Verdict
    late: bool = False  # it reached the log late (judged while its station was cut off)


@dataclass(frozen=True)
class TableCount:
    division: str
    table: int
    today: int


@dataclass(frozen=True)
class Board:
    """Everything the first page shows, read at ``read_at`` (the log database's clock)."""

    read_at: datetime
    stations: tuple[StationLine, ...]  # health first, then names in natural order
    divisions: tuple[DivisionLine, ...]
    # What the log holds and this board leaves out, named (a report or challenges this kiosk cannot
    # read, or dated after now), and how many station reports it did not read at all (past
    # ``MAX_BOARD_STATIONS``): the page says so, and shows the rest.
    left_out: tuple[str, ...] = ()
    not_read: int = 0
    feed: tuple[FeedLine, ...] = ()  # the latest challenges, newest first
    top_tables: tuple[TableCount, ...] = ()
    round: EventRound | None = None
    awaited_since: datetime | None = None  # the log answered again then: reports are awaited

    @property
    def today(self) -> tuple[StationLine, ...]:
        return tuple(line for line in self.stations if not line.earlier)

    @property
    def earlier(self) -> tuple[StationLine, ...]:
        return tuple(line for line in self.stations if line.earlier)

    @property
    def problems(self) -> tuple[StationLine, ...]:
        return tuple(line for line in self.stations if line.red)

    def in_health(self, health: Health) -> tuple[StationLine, ...]:
        return tuple(line for line in self.stations if line.health is health)

    @property
    def mismatched(self) -> tuple[DivisionLine, ...]:
        return tuple(line for line in self.divisions if line.mismatch)

    @property
    def behind_round(self) -> tuple[StationLine, ...]:
        """Stations at work whose reports stamp another round than the director's (not told yet)."""
        if self.round is None:
            return ()
        return tuple(
            line
            for line in self.stations
            if line.health is Health.AT_WORK
            and line.beat is not None
            and line.beat.round != self.round.number
        )

    @property
    def total(self) -> Counts:
        total = Counts()
        for line in self.divisions:
            total += line.counts
        return total


@dataclass
class _Ways:
    """A division's ways of judging, gathered from reports and challenges."""

    now: dict[tuple[str, str, str, str, bool], set[str]] = field(default_factory=dict)
    today: dict[tuple[str, str, str, str, bool], dict[str, int]] = field(default_factory=dict)

    def lines(self) -> tuple[JudgedWith, ...]:
        keys = sorted({*self.now, *self.today}, key=lambda key: (-sum(self.today.get(key, {}).values()), key))
        return tuple(
            JudgedWith(
                *key,
                stations_now=tuple(sorted(self.now.get(key, ()), key=natural_key)),
                stations_today=tuple(sorted(self.today.get(key, {}), key=natural_key)),
                challenges_today=sum(self.today.get(key, {}).values()),
            )
            for key in keys
        )


@dataclass(frozen=True)
class Judged:
    """Today's challenges of one station in one division judged one way (a read of the log)."""

    station: str
    division: str
    rule_profile: str
    pack: str
    edition: str
    set_hash: str
    youth: bool
    challenges: int

    @property
    def key(self) -> tuple[str, str, str, str, bool]:
        return (self.rule_profile, self.pack, self.edition, self.set_hash, self.youth)


def _judged_with(
    beats: Iterable[Heartbeat], judged: Iterable[Judged], divisions: Iterable[str]
) -> dict[str, tuple[JudgedWith, ...]]:
    ways: dict[str, _Ways] = {name: _Ways() for name in divisions}
    for beat in beats:
        for pack in beat.packs:
            if pack.served and pack.division in ways:
                key = (beat.rule_profile, pack.pack, pack.edition, pack.set_hash, pack.youth)
                ways[pack.division].now.setdefault(key, set()).add(beat.station)
    for row in judged:
        if row.division in ways:
            stations = ways[row.division].today.setdefault(row.key, {})
            stations[row.station] = stations.get(row.station, 0) + row.challenges
    return {name: way.lines() for name, way in ways.items()}


def build_board(
    read_at: datetime,
    beats: Sequence[Heartbeat],
    station_counts: Mapping[str, Counts],
    division_counts: Mapping[str, Counts],
    today_since: datetime | None = None,
    *,
    left_out: Sequence[str] = (),
    not_read: int = 0,
    judged: Sequence[Judged] = (),
    feed: Sequence[FeedLine] = (),
    top_tables: Sequence[TableCount] = (),
    late: Mapping[str, Late] | None = None,
    round: EventRound | None = None,
    retired: Mapping[StationId, datetime] | None = None,
    awaited_since: datetime | None = None,
) -> Board:
    """The board from what the log holds: each reporting station, then each station that logged
    challenges without ever reporting (an older kiosk, or one whose reports never got through).
    A station neither seen nor judging since ``today_since`` is one of an earlier day's. A station
    retired at a time after its last report stays retired; one that reported since is back.
    ``awaited_since``: the log answered again then, after the director could not read it; for
    ``UNSEEN_AFTER_S`` after it, a station last heard before then is awaited, not flagged: it has
    not had its chance to report yet."""
    late = late or {}
    retired = retired or {}

    def earlier(seen: datetime | None, counts: Counts) -> bool:
        return today_since is not None and counts.today == 0 and (seen is None or seen < today_since)

    names = [beat.station for beat in beats]
    lines = []
    # The log answered again this recently: a station it last heard before then has not yet had
    # its chance to report (its forwarder retries every few seconds).
    grace = awaited_since is not None and (read_at - awaited_since).total_seconds() <= UNSEEN_AFTER_S
    for beat in beats:
        seen = beat.seen_at
        awaited = grace and seen is not None and awaited_since is not None and seen < awaited_since
        unseen_s = None if seen is None else max(0.0, (read_at - seen).total_seconds())
        counts = station_counts.get(beat.station, Counts())
        retired_at = retired.get(beat.station_id)
        lines.append(
            StationLine(
                name=beat.station,
                beat=beat,
                counts=counts,
                unseen_s=unseen_s,
                shared_name=names.count(beat.station) > 1,
                earlier=earlier(seen, counts),
                retired_at=retired_at
                if retired_at is not None and (seen is None or seen <= retired_at)
                else None,
                awaited=awaited,
                late=late.get(beat.station),
            )
        )
    for name in sorted(set(station_counts) - set(names)):
        counts = station_counts[name]
        lines.append(
            StationLine(
                name=name,
                beat=None,
                counts=counts,
                unseen_s=None,
                earlier=earlier(None, counts),
                late=late.get(name),
            )
        )
    lines.sort(key=lambda line: (line.health, natural_key(line.name)))
    # Every division judged today or served now by a station of today's: a mismatch shows before
    # the first challenge of the day, not after.
    judging = [line.beat for line in lines if line.beat is not None and line.health < Health.RETIRED]
    served = {pack.division for beat in judging for pack in beat.packs if pack.served}
    division_names = sorted({*division_counts, *served}, key=natural_key)[:MAX_BOARD_DIVISIONS]
    ways = _judged_with(judging, judged, division_names)
    divisions = tuple(
        DivisionLine(name, division_counts.get(name, Counts()), ways[name]) for name in division_names
    )
    return Board(
        read_at=read_at,
        stations=tuple(lines),
        divisions=divisions,
        left_out=tuple(left_out),
        not_read=not_read,
        feed=tuple(feed),
        top_tables=tuple(top_tables),
        round=round,
        awaited_since=awaited_since,
    )
