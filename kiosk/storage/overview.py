"""The director's reads of a log: the board (heartbeats, counts and the public facts of the latest
challenges, never a word) and, behind the judge PIN, the challenges a judge looks for. Read only:
nothing here writes to the log or upgrades it (the director's writes are ``kiosk.storage.hall``).

``LogReader`` opens the database lazily and again after a failure, so the director's view
outlives the database going away: a PostgreSQL server that stops, or a station's SQLite file
that is deleted or replaced (``SqliteFiles`` notices; the file is never created here). A database
of another schema version is refused by name: this kiosk knows what version ``SCHEMA_VERSION``
tables mean, no other.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, case, func, select
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.exc import ArgumentError

from kiosk.core.errors import StorageError
from kiosk.core.log.challenge import MAX_QUERY_LAST, MAX_ROUND, ChallengeEntry, Found, LogQuery
from kiosk.core.log.heartbeat import MAX_REPORT_NAME_CHARS, StationId, ruling_set
from kiosk.core.log.overview import (
    LATE_AFTER_S,
    MAX_BOARD_DIVISIONS,
    MAX_BOARD_STATIONS,
    MAX_FEED,
    MAX_TOP_TABLES,
    Board,
    Counts,
    FeedLine,
    Judged,
    Late,
    TableCount,
    build_board,
)
from kiosk.core.play.adjudication import Verdict
from kiosk.core.words.plural import counted
from kiosk.storage.database import SqliteFiles, describe_url, open_engine, reported_as, sqlite_file
from kiosk.storage.hall import current_round
from kiosk.storage.heartbeat import HeartbeatStore, database_now
from kiosk.storage.log import NAME_SHOWN_CHARS, SqlChallengeLog
from kiosk.storage.mapping import EARLIEST_SHOWN, LATEST_SHOWN
from kiosk.storage.migrations import SCHEMA_VERSION, schema_version
from kiosk.storage.schema import ChallengeRow, RetiredRow

__all__ = ["LogReader"]

SUCCESSFUL = "UNACCEPTABLE"  # the verdict of a successful challenge: the play came off the board
# Challenges dated later than this after the log's clock are left out of the counts, and named.
FUTURE_SLACK = timedelta(minutes=5)
# Station x division x way of judging groups read per board: far more than any event makes.
MAX_GROUPS = 5000
# The challenges are counted again at least this often though none was stored: the last hour moves.
RECOUNT_S = 15.0


class LogReader:
    """One log database, read for the director's view. Every read raises StorageError on failure
    and the next read opens the database again."""

    def __init__(self, url: str) -> None:
        """Raises StorageError at once for a URL that cannot be read or names another database."""
        try:
            backend = make_url(url).get_backend_name()
        except ArgumentError as exc:
            raise StorageError(
                f"the database URL '{url}' cannot be read; use e.g. postgresql+psycopg://user@host/kiosk"
            ) from exc
        if backend not in ("sqlite", "postgresql"):
            raise StorageError(
                f"the database URL {describe_url(url)} names '{backend}'; the log is sqlite or "
                "postgresql+psycopg"
            )
        self.url = url
        self._path: Path | None = sqlite_file(url)
        self.where = str(self._path) if self._path is not None else describe_url(url)
        self._engine: Engine | None = None
        self._files: SqliteFiles | None = None
        self._kept: _Counted | None = None  # the challenges last counted

    def _open(self) -> Engine:
        if self._engine is not None and self._files is not None:
            try:
                self._files.check()
            except StorageError:
                self.close()  # deleted or replaced: read whatever is at the path now, if anything
        if self._engine is None:
            if self._path is not None and not self._path.is_file():
                raise StorageError(
                    f"there is no station database at {self._path}: it was deleted or moved, or no "
                    "station has logged there yet"
                )
            self._engine = open_engine(self.url, read_only=True)
            if self._path is not None:
                self._files = SqliteFiles(self._path)
                self._files.remember()
        return self._engine

    def close(self) -> None:
        if self._engine is not None:
            self._engine.dispose()
        if self._files is not None:
            self._files.close()
        self._engine = None
        self._files = None
        self._kept = None

    def _checked(self) -> Engine:
        engine = self._open()
        try:
            with reported_as(f"read the log at {self.where}"), engine.connect() as conn:
                version = schema_version(conn)
        except StorageError:
            self.close()  # the next read opens the database again
            raise
        if version == 0:
            raise StorageError(
                f"the log at {self.where} is empty: no station of this event has written to it yet"
            )
        if version != SCHEMA_VERSION:
            who = "an older" if version < SCHEMA_VERSION else "a newer"
            raise StorageError(
                f"the log at {self.where} has schema version {version}, written by {who} kiosk; this "
                f"view reads version {SCHEMA_VERSION}. Run the same kiosk version on the stations and "
                "here (a station of this version upgrades an older log when it starts)"
            )
        return engine

    def board(
        self,
        today_since: datetime,
        hour_since: datetime,
        *,
        awaited_since: datetime | None = None,
        back_now: bool = False,
    ) -> Board:
        """Every station's last report and its counts, each division's counts and what it is judged
        with, the latest challenges and the tables that challenge most: no word.

        Bounded whatever the log holds: at most ``MAX_BOARD_STATIONS`` reports (newest seen first)
        and as many stations' counts, ``MAX_BOARD_DIVISIONS`` divisions, ``MAX_FEED`` challenges,
        no text past its bound; a report or a challenge that cannot be read, and challenges dated
        after the log's clock (a station's wrong clock, or rows written by hand: they would count
        as today's for ever), are left out and named on the board. ``awaited_since``: see
        ``build_board``; ``back_now``: the log answers again with this read (after the last failed),
        so it is now.
        """
        engine = self._checked()
        try:
            with reported_as(f"read the log at {self.where}"):
                now = database_now(engine)
                reports = HeartbeatStore(engine, where=self.where).read(limit=MAX_BOARD_STATIONS, now=now)
                with engine.connect() as conn:
                    counted = self._counted(conn, now, today_since, hour_since)
                    event_round = current_round(conn)
                    retired = _retired(conn)
        except StorageError:
            self.close()  # the next read opens the database again
            raise
        stations, divisions, judged = _fold(counted.groups)
        return build_board(
            now,
            reports.beats,
            stations,
            divisions,
            today_since,
            left_out=(*reports.unreadable, *counted.left_out),
            not_read=reports.more,
            judged=judged,
            feed=counted.feed,
            top_tables=counted.tables,
            late=counted.late,
            round=event_round,
            retired=retired,
            awaited_since=now if back_now else awaited_since,
        )

    def _counted(
        self, conn: Connection, now: datetime, today_since: datetime, hour_since: datetime
    ) -> _Counted:
        """The challenges' part of the board, counted again only when a challenge was stored (or
        removed) since, the day changed, or ``RECOUNT_S`` passed (the last hour moves on): the
        board is read every second, and recounting a day of an event's challenges each time would
        cost the log's server far more than reading the stations' reports."""
        stamp = tuple(
            conn.execute(
                select(func.count(), func.max(ChallengeRow.received_at), func.max(ChallengeRow.judged_at))
            ).one()
        )
        kept = self._kept
        if (
            kept is not None
            and kept.stamp == (stamp, today_since)
            and timedelta(0) <= now - kept.at < timedelta(seconds=RECOUNT_S)
        ):
            return kept
        feed, unreadable = _feed(conn, now)
        counted = _Counted(
            stamp=(stamp, today_since),
            at=now,
            groups=_groups(conn, now, today_since, hour_since),
            feed=tuple(feed),
            tables=tuple(_top_tables(conn, now, today_since)),
            late=_late(conn, now, today_since),
            left_out=(*_future(conn, now), *unreadable),
        )
        self._kept = counted
        return counted

    def challenges(self, query: LogQuery) -> Found:
        """The challenges ``query`` asks for, newest first, words and per-word results included (a
        ``Found``: the rows it could not read are in its ``left_out``)."""
        engine = self._checked()
        try:
            return SqlChallengeLog(engine, where=self.where).query(query)
        except StorageError:
            self.close()
            raise

    def recent(self, last: int) -> list[ChallengeEntry]:
        """The last ``last`` challenges, newest first (see ``challenges``)."""
        return self.challenges(LogQuery(last=last))

    def count(self, query: LogQuery) -> int:
        """How many challenges ``query`` finds, whatever its ``last``."""
        engine = self._checked()
        try:
            return SqlChallengeLog(engine, where=self.where).count(query)
        except StorageError:
            self.close()
            raise


def _named(column: Any) -> Any:
    return func.substr(column, 1, MAX_REPORT_NAME_CHARS)


def _delay_s(conn: Connection) -> Any:
    """How long after it was judged a challenge was stored, in seconds, in this engine's words."""
    if conn.dialect.name == "postgresql":
        return func.extract("epoch", ChallengeRow.received_at - ChallengeRow.judged_at)
    return (func.julianday(ChallengeRow.received_at) - func.julianday(ChallengeRow.judged_at)) * 86400.0


@dataclass(frozen=True)
class _Counted:
    """The board's challenges, as counted at ``at`` (the log's clock) for ``stamp``."""

    stamp: tuple[object, ...]
    at: datetime
    groups: list[_Group]
    feed: tuple[FeedLine, ...]
    tables: tuple[TableCount, ...]
    late: dict[str, Late]
    left_out: tuple[str, ...]


@dataclass(frozen=True)
class _Group:
    """Challenges of one station in one division, judged one way: counted."""

    station: str
    division: str
    way: tuple[str, str, str, str, bool]
    counts: Counts


def _groups(conn: Connection, now: datetime, today_since: datetime, hour_since: datetime) -> list[_Group]:
    """Challenges up to ``now`` per station, division and way of judging (one query gives the
    stations' counts, the divisions' and what each division was judged with): the most recently
    active first, at most ``MAX_GROUPS``."""
    dated = ChallengeRow.judged_at <= now + FUTURE_SLACK
    in_today = case((ChallengeRow.judged_at >= today_since, 1), else_=0)
    in_hour = case((ChallengeRow.judged_at >= hour_since, 1), else_=0)
    won = case(((ChallengeRow.judged_at >= today_since) & (ChallengeRow.verdict == SUCCESSFUL), 1), else_=0)
    last = func.max(ChallengeRow.judged_at)
    keys = (
        _named(ChallengeRow.station),
        _named(ChallengeRow.division),
        _named(ChallengeRow.rule_profile),
        _named(ChallengeRow.pack_name),
        _named(ChallengeRow.pack_edition),
        _named(ChallengeRow.set_hash),
        ChallengeRow.youth_rules,
        _named(func.coalesce(ChallengeRow.youth_set_hash, "")),
    )
    statement = (
        select(*keys, func.sum(in_today), func.sum(in_hour), func.sum(won), last)
        .where(dated)
        .group_by(*keys)
        .order_by(last.desc())
        .limit(MAX_GROUPS)
    )
    groups = []
    for row in conn.execute(statement):
        station, division, rule, pack, edition, set_hash, youth, youth_set, today, hour, successful, at = row
        digest = ruling_set(str(set_hash), str(youth_set) or None, bool(youth))
        groups.append(
            _Group(
                str(station),
                str(division),
                (str(rule), str(pack), str(edition), digest, bool(youth)),
                Counts(int(today or 0), int(hour or 0), int(successful or 0), at),
            )
        )
    return groups


def _fold(groups: list[_Group]) -> tuple[dict[str, Counts], dict[str, Counts], list[Judged]]:
    """Per station and per division (the most recently active, within their bounds), and today's
    ways of judging each division."""
    stations: dict[str, Counts] = {}
    divisions: dict[str, Counts] = {}
    judged = []
    for group in groups:  # the most recently active first: the bounds keep those
        if group.station in stations or len(stations) < MAX_BOARD_STATIONS:
            stations[group.station] = stations.get(group.station, Counts()) + group.counts
        if group.division in divisions or len(divisions) < MAX_BOARD_DIVISIONS:
            divisions[group.division] = divisions.get(group.division, Counts()) + group.counts
        if group.counts.today:
            judged.append(Judged(group.station, group.division, *group.way, challenges=group.counts.today))
    return stations, divisions, judged


def _feed(conn: Connection, now: datetime) -> tuple[list[FeedLine], list[str]]:
    """The latest ``MAX_FEED`` challenges up to ``now``, as the hall may see them (no word); a row
    whose verdict, table, round or time this kiosk cannot read is left out and named."""
    late = case((_delay_s(conn) > LATE_AFTER_S, True), else_=False)
    statement = (
        select(
            ChallengeRow.id,
            ChallengeRow.judged_at,
            _named(ChallengeRow.station),
            _named(ChallengeRow.division),
            ChallengeRow.table_number,
            ChallengeRow.round_number,
            _named(ChallengeRow.verdict),
            late,
        )
        .where(ChallengeRow.judged_at <= now + FUTURE_SLACK)
        .order_by(ChallengeRow.judged_at.desc(), ChallengeRow.id.desc())
        .limit(MAX_FEED)
    )
    feed: list[FeedLine] = []
    unreadable: list[str] = []
    for challenge, judged_at, station, division, table, round_number, verdict, was_late in conn.execute(
        statement
    ):
        why = _unreadable_feed(judged_at, table, round_number, verdict)
        if why:
            unreadable.append(
                f"challenge {str(challenge)[:8]} of station {str(station)[:NAME_SHOWN_CHARS]!r}: {why}, "
                "which this kiosk cannot read"
            )
            continue
        feed.append(
            FeedLine(
                judged_at, str(station), str(division), table, round_number, Verdict(verdict), bool(was_late)
            )
        )
    return feed, unreadable


def _unreadable_feed(judged_at: datetime, table: object, round_number: object, verdict: str) -> str:
    """Why a challenge cannot be listed ("" if it can)."""
    if verdict not in {v.value for v in Verdict}:
        return f"its verdict is {verdict[:20]!r}"
    if table is not None and not (type(table) is int and 0 < table <= MAX_QUERY_LAST):
        return f"its table is {table!r}"
    if round_number is not None and not (type(round_number) is int and 0 < round_number <= MAX_ROUND):
        return f"its round is {round_number!r}"
    if not EARLIEST_SHOWN <= judged_at <= LATEST_SHOWN:
        return f"it is dated {judged_at.isoformat()}"
    return ""


def _top_tables(conn: Connection, now: datetime, today_since: datetime) -> list[TableCount]:
    """Today's tables that challenge most (each in its division), at most ``MAX_TOP_TABLES``."""
    division = _named(ChallengeRow.division)
    count = func.count()
    statement = (
        select(division, ChallengeRow.table_number, count)
        .where(
            ChallengeRow.judged_at >= today_since,
            ChallengeRow.judged_at <= now + FUTURE_SLACK,
            ChallengeRow.table_number > 0,
            ChallengeRow.table_number <= MAX_QUERY_LAST,
        )
        .group_by(division, ChallengeRow.table_number)
        .order_by(count.desc(), ChallengeRow.table_number, division)
        .limit(MAX_TOP_TABLES)
    )
    return [TableCount(str(name), int(table), int(today)) for name, table, today in conn.execute(statement)]


def _late(conn: Connection, now: datetime, today_since: datetime) -> dict[str, Late]:
    """Per station, today's challenges stored more than ``LATE_AFTER_S`` after they were judged."""
    station = _named(ChallengeRow.station)
    delay = _delay_s(conn)
    received = func.max(ChallengeRow.received_at)
    statement = (
        select(station, func.count(), received, func.max(delay))
        .where(
            ChallengeRow.judged_at >= today_since,
            ChallengeRow.judged_at <= now + FUTURE_SLACK,
            ChallengeRow.received_at.is_not(None),
            delay > LATE_AFTER_S,
        )
        .group_by(station)
        .order_by(received.desc())
        .limit(MAX_BOARD_STATIONS)
    )
    return {str(name): Late(int(count), at, float(most)) for name, count, at, most in conn.execute(statement)}


def _retired(conn: Connection) -> dict[StationId, datetime]:
    statement = select(RetiredRow.station_id, RetiredRow.retired_at).limit(MAX_BOARD_STATIONS)
    return {StationId(station): at for station, at in conn.execute(statement)}


def _future(conn: Connection, now: datetime) -> list[str]:
    """Each station's challenges dated after the log's clock: named, never counted."""
    key = _named(ChallengeRow.station)
    statement = (
        select(key, func.count(), func.max(ChallengeRow.judged_at))
        .where(ChallengeRow.judged_at > now + FUTURE_SLACK)
        .group_by(key)
        .order_by(func.count().desc())
        .limit(MAX_BOARD_STATIONS)
    )
    return [
        f"{counted(int(count), 'challenge')} of station {str(name)!r} dated up to {latest:%Y-%m-%d %H:%M}Z, "
        f"after the log's clock ({now:%Y-%m-%d %H:%M}Z): not counted (that station's clock is wrong, or "
        "they were written by hand)"
        for name, count, latest in conn.execute(statement)
    ]
