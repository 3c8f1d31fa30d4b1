"""The director's reads of a log: the board (heartbeats and counts, never a word) and, behind the
judge PIN, the recent challenges. Read only: nothing here writes to the log or upgrades it.

``LogReader`` opens the database lazily and again after a failure, so the director's view
outlives the database going away: a PostgreSQL server that stops, or a station's SQLite file
that is deleted or replaced (``SqliteFiles`` notices; the file is never created here). A database
of another schema version is refused by name: this kiosk knows what version ``SCHEMA_VERSION``
tables mean, no other.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, case, func, select
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.exc import ArgumentError

from kiosk.core.errors import StorageError
from kiosk.core.log.challenge import ChallengeEntry
from kiosk.core.log.heartbeat import MAX_REPORT_NAME_CHARS
from kiosk.core.log.overview import MAX_BOARD_DIVISIONS, MAX_BOARD_STATIONS, Board, Counts, build_board
from kiosk.core.words.plural import counted
from kiosk.storage.database import SqliteFiles, describe_url, open_engine, reported_as, sqlite_file
from kiosk.storage.heartbeat import HeartbeatStore, database_now
from kiosk.storage.log import LogQuery, SqlChallengeLog
from kiosk.storage.migrations import SCHEMA_VERSION, schema_version
from kiosk.storage.schema import ChallengeRow

__all__ = ["LogReader"]

SUCCESSFUL = "UNACCEPTABLE"  # the verdict of a successful challenge: the play came off the board
# Challenges dated later than this after the log's clock are left out of the counts, and named.
FUTURE_SLACK = timedelta(minutes=5)


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

    def board(self, today_since: datetime, hour_since: datetime) -> Board:
        """Every station's last report and its counts, each division's counts: no word.

        Bounded whatever the log holds: at most ``MAX_BOARD_STATIONS`` reports (newest seen first)
        and as many stations' counts, ``MAX_BOARD_DIVISIONS`` divisions, no text past its bound; a
        report that cannot be read, and challenges dated after the log's clock (a station's wrong
        clock, or rows written by hand: they would count as today's for ever), are left out of the
        counts and named on the board.
        """
        engine = self._checked()
        try:
            with reported_as(f"read the log at {self.where}"):
                now = database_now(engine)
                reports = HeartbeatStore(engine, where=self.where).read(limit=MAX_BOARD_STATIONS, now=now)
                with engine.connect() as conn:
                    stations = _counts(
                        conn, ChallengeRow.station, now, today_since, hour_since, MAX_BOARD_STATIONS
                    )
                    divisions = _counts(
                        conn, ChallengeRow.division, now, today_since, hour_since, MAX_BOARD_DIVISIONS
                    )
                    future = _future(conn, now)
        except StorageError:
            self.close()  # the next read opens the database again
            raise
        return build_board(
            now,
            reports.beats,
            stations,
            divisions,
            today_since,
            left_out=(*reports.unreadable, *future),
            not_read=reports.more,
        )

    def recent(self, last: int) -> list[ChallengeEntry]:
        """The last ``last`` challenges, newest first, words and per-word results included (a
        ``Found``: the rows it could not read are in its ``left_out``)."""
        engine = self._checked()
        try:
            return SqlChallengeLog(engine, where=self.where).query(LogQuery(last=last))
        except StorageError:
            self.close()
            raise


def _named(column: Any) -> Any:
    return func.substr(column, 1, MAX_REPORT_NAME_CHARS)


def _counts(
    conn: Connection,
    column: Any,
    now: datetime,
    today_since: datetime,
    hour_since: datetime,
    limit: int,
) -> dict[str, Counts]:
    """Challenges per station (or division) up to ``now``: the ``limit`` most recently active."""
    key = _named(column)
    dated = ChallengeRow.judged_at <= now + FUTURE_SLACK
    in_today = case((ChallengeRow.judged_at >= today_since, 1), else_=0)
    in_hour = case((ChallengeRow.judged_at >= hour_since, 1), else_=0)
    won = case(((ChallengeRow.judged_at >= today_since) & (ChallengeRow.verdict == SUCCESSFUL), 1), else_=0)
    last = func.max(ChallengeRow.judged_at)
    statement = (
        select(key, func.sum(in_today), func.sum(in_hour), func.sum(won), last)
        .where(dated)
        .group_by(key)
        .order_by(last.desc())
        .limit(limit)
    )
    return {
        str(name): Counts(int(today or 0), int(hour or 0), int(successful or 0), at)
        for name, today, hour, successful, at in conn.execute(statement)
    }


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
