"""The director's reads of a log: the board (heartbeats and counts, never a word) and, behind the
judge PIN, the recent challenges. Read only: nothing here writes to the log or upgrades it.

``LogReader`` opens the database lazily and again after a failure, so the director's view
outlives the database going away: a PostgreSQL server that stops, or a station's SQLite file
that is deleted or replaced (``SqliteFiles`` notices; the file is never created here). A database
of another schema version is refused by name: this kiosk knows what version ``SCHEMA_VERSION``
tables mean, no other.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from sqlalchemy import Engine, case, func, select
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

from kiosk.core.board import Board, Counts, build_board
from kiosk.core.errors import StorageError
from kiosk.core.record import ChallengeEntry
from kiosk.storage.database import SqliteFiles, describe_url, open_engine, reported_as, sqlite_file
from kiosk.storage.heartbeat import HeartbeatStore, database_now
from kiosk.storage.log import LogQuery, SqlChallengeLog
from kiosk.storage.migrations import SCHEMA_VERSION, schema_version
from kiosk.storage.schema import ChallengeRow

__all__ = ["LogReader"]

SUCCESSFUL = "UNACCEPTABLE"  # the verdict of a successful challenge: the play came off the board


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
        """Every station's last report and its counts, each division's counts: no word."""
        engine = self._checked()
        try:
            with reported_as(f"read the log at {self.where}"):
                now = database_now(engine)
                beats = HeartbeatStore(engine, where=self.where).all()
                in_hour = case((ChallengeRow.judged_at >= hour_since, 1), else_=0)
                successful = case((ChallengeRow.verdict == SUCCESSFUL, 1), else_=0)
                stations: dict[str, Counts] = {}
                divisions: dict[str, Counts] = {}
                with engine.connect() as conn:
                    for key, into in ((ChallengeRow.station, stations), (ChallengeRow.division, divisions)):
                        last = {
                            str(name): at
                            for name, at in conn.execute(
                                select(key, func.max(ChallengeRow.judged_at)).group_by(key)
                            )
                        }
                        today = conn.execute(
                            select(key, func.count(), func.sum(in_hour), func.sum(successful))
                            .where(ChallengeRow.judged_at >= today_since)
                            .group_by(key)
                        )
                        for name, count, hour, won in today:
                            into[str(name)] = Counts(
                                int(count), int(hour or 0), int(won or 0), last.get(str(name))
                            )
                        for name, at in last.items():
                            into.setdefault(name, Counts(last_at=at))
        except StorageError:
            self.close()  # the next read opens the database again
            raise
        return build_board(now, beats, stations, divisions, today_since)

    def recent(self, last: int) -> list[ChallengeEntry]:
        """The last ``last`` challenges, newest first, words and per-word results included."""
        engine = self._checked()
        try:
            return SqlChallengeLog(engine, where=self.where).query(LogQuery(last=last))
        except StorageError:
            self.close()
            raise
