"""The director's board: every station and division at a glance, as plain values.

``kiosk.storage.overview`` reads it from the log (heartbeats, and counts of challenges: never a
word); ``kiosk.director`` shows it. What is decided here is what the director must not have to
work out: which stations are unseen (red), which names two stations share, each division's share
of successful challenges.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from kiosk.core.log.heartbeat import UNSEEN_AFTER_S, Heartbeat, StationState

__all__ = [
    "MAX_BOARD_DIVISIONS",
    "MAX_BOARD_STATIONS",
    "Board",
    "Counts",
    "DivisionLine",
    "StationLine",
    "build_board",
]

# The most the board reads and shows, whatever the log holds: more stations (or divisions) than any
# event has, so that rows someone else wrote cannot make the page slow or huge.
MAX_BOARD_STATIONS = 200
MAX_BOARD_DIVISIONS = 100


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


@dataclass(frozen=True)
class StationLine:
    """One station: its last report (None: it logs challenges but never reported) and its counts."""

    name: str
    beat: Heartbeat | None
    counts: Counts
    unseen_s: float | None  # seconds since the log's database last heard from it
    shared_name: bool = False  # another station reports the same name: their counts are mixed
    earlier: bool = False  # neither seen nor judging today: a station of an earlier day, not a worry

    @property
    def red(self) -> bool:
        """Not seen for a minute (or never), or not serving players: the director should look.
        A station of an earlier day (packed away after yesterday's rounds) is not red."""
        if self.earlier:
            return False
        if self.beat is None or self.unseen_s is None or self.unseen_s > UNSEEN_AFTER_S:
            return True
        return self.beat.state in (StationState.FAULT, StationState.NOT_READY)

    @property
    def unseen(self) -> bool:
        return self.beat is None or self.unseen_s is None or self.unseen_s > UNSEEN_AFTER_S


@dataclass(frozen=True)
class DivisionLine:
    name: str
    counts: Counts


@dataclass(frozen=True)
class Board:
    """Everything the first page shows, read at ``read_at`` (the log database's clock)."""

    read_at: datetime
    stations: tuple[StationLine, ...]  # today's, and earlier days' last (``earlier``)
    divisions: tuple[DivisionLine, ...]
    # What the log holds and this board leaves out, named (a report or challenges this kiosk cannot
    # read, or dated after now), and how many station reports it did not read at all (past
    # ``MAX_BOARD_STATIONS``): the page says so, and shows the rest.
    left_out: tuple[str, ...] = ()
    not_read: int = 0

    @property
    def today(self) -> tuple[StationLine, ...]:
        return tuple(line for line in self.stations if not line.earlier)

    @property
    def earlier(self) -> tuple[StationLine, ...]:
        return tuple(line for line in self.stations if line.earlier)

    @property
    def total(self) -> Counts:
        lines = [d.counts for d in self.divisions]
        return Counts(
            today=sum(c.today for c in lines),
            last_hour=sum(c.last_hour for c in lines),
            successful_today=sum(c.successful_today for c in lines),
            last_at=max((c.last_at for c in lines if c.last_at is not None), default=None),
        )


def build_board(
    read_at: datetime,
    beats: Sequence[Heartbeat],
    station_counts: Mapping[str, Counts],
    division_counts: Mapping[str, Counts],
    today_since: datetime | None = None,
    *,
    left_out: Sequence[str] = (),
    not_read: int = 0,
) -> Board:
    """The board from what the log holds: each reporting station, then each station that logged
    challenges without ever reporting (an older kiosk, or one whose reports never got through).
    A station neither seen nor judging since ``today_since`` is one of an earlier day's."""

    def earlier(seen: datetime | None, counts: Counts) -> bool:
        return today_since is not None and counts.today == 0 and (seen is None or seen < today_since)

    names = [beat.station for beat in beats]
    lines = []
    for beat in beats:
        seen = beat.seen_at
        unseen_s = None if seen is None else max(0.0, (read_at - seen).total_seconds())
        counts = station_counts.get(beat.station, Counts())
        lines.append(
            StationLine(
                name=beat.station,
                beat=beat,
                counts=counts,
                unseen_s=unseen_s,
                shared_name=names.count(beat.station) > 1,
                earlier=earlier(seen, counts),
            )
        )
    for name in sorted(set(station_counts) - set(names)):
        counts = station_counts[name]
        lines.append(
            StationLine(name=name, beat=None, counts=counts, unseen_s=None, earlier=earlier(None, counts))
        )
    lines.sort(key=lambda line: (line.name.casefold(), line.name))
    divisions = tuple(
        DivisionLine(name, counts)
        for name, counts in sorted(division_counts.items(), key=lambda item: item[0].casefold())
    )
    return Board(
        read_at=read_at,
        stations=tuple(lines),
        divisions=divisions,
        left_out=tuple(left_out),
        not_read=not_read,
    )
