"""The challenge log: every judged challenge, committed before the station shows its verdict.

``SqlChallengeLog`` is one database (the station's SQLite file, or a PostgreSQL server). Inserts
are idempotent on the challenge's UUID, so forwarding the same entry twice stores it once.

``SharedChallengeLog`` is what a station of a big event uses: it writes straight to the shared
PostgreSQL server and, while the server cannot be reached, to a durable ``Outbox`` in the
station's own SQLite file; the backlog is forwarded, exactly once, when the server is back. The
station keeps judging meanwhile, and judge mode shows the backlog (``status()``).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Protocol, TypeVar

from sqlalchemy import Engine, delete, func, select
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlalchemy.orm import Session

from kiosk.core.errors import StorageError
from kiosk.core.record import ChallengeEntry, ChallengeId
from kiosk.storage.database import IMMEDIATE
from kiosk.storage.mapping import entry_from_json, entry_to_json, entry_to_row, row_to_entry
from kiosk.storage.migrations import upgrade
from kiosk.storage.schema import ChallengeRow, OutboxRow

__all__ = [
    "SHARED_RETRY_S",
    "LogQuery",
    "LogStatus",
    "Outbox",
    "SharedChallengeLog",
    "SqlChallengeLog",
    "StationLog",
]

SHARED_RETRY_S = 5.0  # while the server is away, try forwarding the outbox this often
FORWARD_BATCH_ENTRIES = 200
INSERT_ATTEMPTS = 3
_T = TypeVar("_T")


def utc_now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True)
class LogQuery:
    """Which challenges to list: newest first, at most ``last``, optionally one station, a time range."""

    last: int | None = None
    station: str | None = None
    since: datetime | None = None  # inclusive, timezone-aware
    until: datetime | None = None  # exclusive, timezone-aware

    def matches(self, entry: ChallengeEntry) -> bool:
        if self.station is not None and entry.station != self.station:
            return False
        if self.since is not None and entry.judged_at < self.since:
            return False
        return not (self.until is not None and entry.judged_at >= self.until)


@dataclass(frozen=True)
class LogStatus:
    """What judge mode shows about where the log goes: the backlog and the last server error."""

    location: str
    shared: bool
    backlog: int
    last_error: str | None


class StationLog(Protocol):
    """What the station and judge mode call; both log classes below provide it."""

    def record(self, entry: ChallengeEntry) -> None: ...

    def query(self, query: LogQuery) -> list[ChallengeEntry]: ...

    def get(self, challenge_id: ChallengeId) -> ChallengeEntry | None: ...

    def count_by_station(self, since: datetime, until: datetime | None = None) -> dict[str, int]: ...

    def status(self) -> LogStatus: ...

    def forward_backlog(self) -> int: ...


def _newest_first(entries: Iterable[ChallengeEntry]) -> list[ChallengeEntry]:
    return sorted(entries, key=lambda entry: (entry.judged_at, str(entry.challenge_id)), reverse=True)


class SqlChallengeLog:
    """The log in one database. ``record`` returns only after the row is committed."""

    def __init__(self, engine: Engine, *, where: str) -> None:
        self._engine = engine
        self._writer = engine.execution_options(**{IMMEDIATE: True})
        self.where = where

    def upgrade(self) -> None:
        upgrade(self._engine, where=self.where)

    def record(self, entry: ChallengeEntry) -> None:
        """Store the entry durably (a no-op if its UUID is already there), or raise StorageError."""
        self.record_many([entry])

    def record_many(self, entries: Sequence[ChallengeEntry]) -> int:
        """Store entries in one transaction, skipping UUIDs already present; return how many were new."""
        unique = list({entry.challenge_id: entry for entry in entries}.values())
        if not unique:
            return 0
        rows = {entry.challenge_id: entry_to_row(entry) for entry in unique}
        for attempt in range(INSERT_ATTEMPTS):
            try:
                with Session(self._writer, expire_on_commit=False) as session, session.begin():
                    present = set(
                        session.scalars(select(ChallengeRow.id).where(ChallengeRow.id.in_(list(rows))))
                    )
                    new = [row for challenge_id, row in rows.items() if challenge_id not in present]
                    session.add_all(new)
                return len(new)
            except IntegrityError as exc:
                # Another writer stored one of these UUIDs between our check and our insert: look again.
                if attempt + 1 == INSERT_ATTEMPTS:
                    raise self._error("write", exc) from exc
                rows = {entry.challenge_id: entry_to_row(entry) for entry in unique}
            except (SQLAlchemyError, ValueError) as exc:
                raise self._error("write", exc) from exc
        raise AssertionError("unreachable")  # pragma: no cover

    def _error(self, action: str, exc: Exception) -> StorageError:
        detail = getattr(exc, "orig", None) or exc
        return StorageError(f"cannot {action} the challenge log at {self.where}: {detail}")

    def query(self, query: LogQuery) -> list[ChallengeEntry]:
        statement = select(ChallengeRow).order_by(ChallengeRow.judged_at.desc(), ChallengeRow.id.desc())
        if query.station is not None:
            statement = statement.where(ChallengeRow.station == query.station)
        if query.since is not None:
            statement = statement.where(ChallengeRow.judged_at >= query.since)
        if query.until is not None:
            statement = statement.where(ChallengeRow.judged_at < query.until)
        if query.last is not None:
            statement = statement.limit(query.last)
        try:
            with Session(self._engine) as session:
                return [row_to_entry(row) for row in session.scalars(statement)]
        except (SQLAlchemyError, ValueError) as exc:
            raise self._error("read", exc) from exc

    def existing(self, challenge_ids: Iterable[ChallengeId]) -> set[ChallengeId]:
        """Which of these challenges the log already holds."""
        ids = list(challenge_ids)
        if not ids:
            return set()
        try:
            with Session(self._engine) as session:
                found = session.scalars(select(ChallengeRow.id).where(ChallengeRow.id.in_(ids)))
                return {ChallengeId(challenge_id) for challenge_id in found}
        except SQLAlchemyError as exc:
            raise self._error("read", exc) from exc

    def get(self, challenge_id: ChallengeId) -> ChallengeEntry | None:
        try:
            with Session(self._engine) as session:
                row = session.get(ChallengeRow, challenge_id)
                return None if row is None else row_to_entry(row)
        except (SQLAlchemyError, ValueError) as exc:
            raise self._error("read", exc) from exc

    def count_by_station(self, since: datetime, until: datetime | None = None) -> dict[str, int]:
        statement = (
            select(ChallengeRow.station, func.count())
            .where(ChallengeRow.judged_at >= since)
            .group_by(ChallengeRow.station)
        )
        if until is not None:
            statement = statement.where(ChallengeRow.judged_at < until)
        try:
            with Session(self._engine) as session:
                return {str(row[0]): int(row[1]) for row in session.execute(statement)}
        except (SQLAlchemyError, ValueError) as exc:
            raise self._error("read", exc) from exc

    def status(self) -> LogStatus:
        return LogStatus(location=self.where, shared=False, backlog=0, last_error=None)

    def forward_backlog(self) -> int:
        return 0


class Outbox:
    """Challenges waiting for the shared server, kept in the station's own SQLite file."""

    def __init__(self, engine: Engine, *, where: str, clock: Callable[[], datetime] = utc_now) -> None:
        self._engine = engine
        self._writer = engine.execution_options(**{IMMEDIATE: True})
        self._clock = clock
        self.where = where

    def _error(self, action: str, exc: Exception) -> StorageError:
        detail = getattr(exc, "orig", None) or exc
        return StorageError(f"cannot {action} the outbox at {self.where}: {detail}")

    def put(self, entry: ChallengeEntry) -> None:
        payload = entry_to_json(entry)
        try:
            with Session(self._writer) as session, session.begin():
                if session.get(OutboxRow, entry.challenge_id) is None:
                    session.add(OutboxRow(id=entry.challenge_id, queued_at=self._clock(), payload=payload))
        except (SQLAlchemyError, ValueError) as exc:
            raise self._error("write", exc) from exc

    def peek(self, limit: int) -> list[ChallengeEntry]:
        """The oldest waiting entries, oldest first."""
        statement = select(OutboxRow).order_by(OutboxRow.queued_at, OutboxRow.id).limit(limit)
        try:
            with Session(self._engine) as session:
                return [entry_from_json(row.payload) for row in session.scalars(statement)]
        except (SQLAlchemyError, ValueError) as exc:
            raise self._error("read", exc) from exc

    def entries(self) -> list[ChallengeEntry]:
        return self.peek(limit=-1)

    def remove(self, challenge_ids: Iterable[ChallengeId]) -> None:
        ids = list(challenge_ids)
        try:
            with Session(self._writer) as session, session.begin():
                session.execute(delete(OutboxRow).where(OutboxRow.id.in_(ids)))
        except SQLAlchemyError as exc:
            raise self._error("write", exc) from exc

    def count(self) -> int:
        try:
            with Session(self._engine) as session:
                return int(session.scalar(select(func.count()).select_from(OutboxRow)) or 0)
        except SQLAlchemyError as exc:
            raise self._error("read", exc) from exc


class SharedChallengeLog:
    """A shared PostgreSQL log with a local outbox: the station judges on while the server is away.

    ``record`` writes to the server while it answers; once a write fails, the entry and every
    later one are committed to the outbox instead, with no more waiting on the server on the
    verdict path. Either way the entry is durable before ``record`` returns; only a failure of
    the local outbox too raises StorageError. ``forward_backlog`` (called by the background
    forwarder every ``retry_s``, or by judge mode) inserts idempotently by UUID and then removes
    from the outbox, so a crash between the two stores nothing twice; its first success sends
    ``record`` back to the server.
    """

    def __init__(self, remote: SqlChallengeLog, outbox: Outbox, *, retry_s: float = SHARED_RETRY_S) -> None:
        self._remote = remote
        self._outbox = outbox
        self._retry_s = retry_s
        self._lock = threading.Lock()  # one schema check or forwarding at a time
        self._remote_ready = False
        self._down = False
        self._last_error: str | None = None
        self._stop = threading.Event()
        self._forwarder: threading.Thread | None = None

    def _mark_down(self, exc: StorageError) -> None:
        self._down = True
        self._last_error = str(exc)

    def _ensure_remote(self) -> None:
        with self._lock:
            if not self._remote_ready:
                self._remote.upgrade()
                self._remote_ready = True

    def record(self, entry: ChallengeEntry) -> None:
        if not self._down:
            try:
                self._ensure_remote()
                self._remote.record(entry)
                return
            except StorageError as exc:
                self._mark_down(exc)
        self._outbox.put(entry)

    def forward_backlog(self) -> int:
        """Forward every waiting entry now; return how many. Raises StorageError if the server is away."""
        try:
            self._ensure_remote()
            forwarded = 0
            with self._lock:
                while batch := self._outbox.peek(FORWARD_BATCH_ENTRIES):
                    self._remote.record_many(batch)
                    self._outbox.remove(entry.challenge_id for entry in batch)
                    forwarded += len(batch)
        except StorageError as exc:
            self._mark_down(exc)
            raise
        self._down = False
        self._last_error = None
        return forwarded

    def start_forwarder(self) -> None:
        """Forward the backlog every ``retry_s`` on a background thread until ``close``."""
        if self._forwarder is None:
            self._forwarder = threading.Thread(
                target=self._forward_loop, name="kiosk-log-forwarder", daemon=True
            )
            self._forwarder.start()

    def _forward_loop(self) -> None:
        while not self._stop.wait(self._retry_s):
            try:
                if self._down or self._outbox.count():
                    self.forward_backlog()
            except StorageError:
                pass  # recorded in last_error for judge mode; try again next round

    def close(self) -> None:
        self._stop.set()
        if self._forwarder is not None:
            self._forwarder.join()
            self._forwarder = None

    def backlog_count(self) -> int:
        return self._outbox.count()

    def status(self) -> LogStatus:
        return LogStatus(
            location=self._remote.where,
            shared=True,
            backlog=self._outbox.count(),
            last_error=self._last_error,
        )

    def _remote_read(self, read: Callable[[], _T]) -> _T:
        waiting = self._outbox.count()
        if self._down:  # fail fast: a judge screen must not hang on a server that is away
            raise StorageError(
                f"the shared log at {self._remote.where} is unreachable ({self._last_error}); "
                f"{waiting} challenges judged here wait in the local outbox; retrying every "
                f"{self._retry_s:g} s"
            )
        try:
            self._ensure_remote()
            return read()
        except StorageError as exc:
            self._mark_down(exc)
            raise StorageError(f"{exc}. {waiting} challenges judged here wait in the local outbox") from exc

    def query(self, query: LogQuery) -> list[ChallengeEntry]:
        remote = self._remote_read(lambda: self._remote.query(query))
        seen = {entry.challenge_id for entry in remote}
        waiting = [e for e in self._outbox.entries() if e.challenge_id not in seen and query.matches(e)]
        merged = _newest_first([*remote, *waiting])
        return merged if query.last is None else merged[: query.last]

    def get(self, challenge_id: ChallengeId) -> ChallengeEntry | None:
        for entry in self._outbox.entries():
            if entry.challenge_id == challenge_id:
                return entry
        return self._remote_read(lambda: self._remote.get(challenge_id))

    def count_by_station(self, since: datetime, until: datetime | None = None) -> dict[str, int]:
        counts = self._remote_read(lambda: self._remote.count_by_station(since, until))
        window = LogQuery(since=since, until=until)
        waiting = [entry for entry in self._outbox.entries() if window.matches(entry)]
        # A crash between forwarding and removing leaves an entry in both places: count it once.
        forwarded = self._remote_read(lambda: self._remote.existing(e.challenge_id for e in waiting))
        for entry in waiting:
            if entry.challenge_id not in forwarded:
                counts[entry.station] = counts.get(entry.station, 0) + 1
        return counts
