"""The challenge log: every judged challenge, committed before the station shows its verdict.

``SqlChallengeLog`` is one database (the station's SQLite file, or a PostgreSQL server). Inserts
are idempotent on the challenge's UUID, so forwarding the same entry twice stores it once.

``SharedChallengeLog`` is what a station of a big event uses. It is **local first**: ``record``
commits the entry to the station's own SQLite log (WAL, ``synchronous=FULL``) and queues it in the
``Outbox`` in the same local transaction, then wakes a background forwarder and returns. The
verdict path never touches the network, so a server that stops answering cannot delay a verdict.
The forwarder sends the outbox to PostgreSQL (insert idempotent on the UUID, then delete from the
outbox: exactly once even if the station dies in between) within milliseconds while the server
answers, and retries every ``SHARED_RETRY_S`` while it does not. Judge mode sees the backlog and the
last server error in ``status()``.

Bounds on the network (no PostgreSQL call can hang the station or a judge screen):
  - every connection: ``connect_timeout`` 3 s for the whole set-up (per address), TCP
    ``tcp_user_timeout`` 5 s for data the server's host never acknowledges, TCP keepalives (idle
    10 s, then 3 probes 3 s apart) for idle pooled connections, and ``statement_timeout`` and
    ``lock_timeout`` 5 s on the server (``kiosk.storage.database.pg_connect_args``);
  - every call to the server (schema check, forwarding a batch, a judge's read) runs on a worker
    thread and is abandoned after ``REMOTE_DEADLINE_S`` (10 s) with a StorageError, which covers
    a peer that acknowledges and never answers (a stuck server process). An abandoned call can
    at worst still insert its batch later: the insert is idempotent, so nothing is stored twice.
    While ``MAX_PENDING_REMOTE_CALLS`` calls are still out, new ones fail at once;
  - once a call has failed, judge reads do not try the server again until the forwarder's next
    retry (every ``SHARED_RETRY_S``) finds it answering: they fall back at once.
  - ``forward_backlog`` called (by judge mode) while the forwarder is already forwarding waits
    for it at most twice ``REMOTE_DEADLINE_S``, then raises StorageError; ``status()`` reads the
    local file only.

The station's heartbeats (``kiosk.storage.heartbeat``) take the same way: written to the station's
own file by their own thread, then sent by the forwarder after the outbox, within the same
deadline, each at most once per report.

Judge reads (``query``, ``get``, ``count_by_station``) read the shared server (every station's
challenges, plus this station's backlog). If it cannot be reached they fall back to the station's
own log and ``status().local_only`` is True until a read reaches the server again: judge mode must
then say the view holds this station's challenges only.
"""

from __future__ import annotations

import contextlib
import functools
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar, cast

from sqlalchemy import Engine, Select, and_, delete, func, or_, select
from sqlalchemy.exc import IntegrityError, ProgrammingError
from sqlalchemy.orm import Session

from kiosk.core.errors import StorageError
from kiosk.core.log.challenge import ChallengeEntry, ChallengeId, Found, LeftOut, LogQuery, LogStatus
from kiosk.core.wording import Text, Wording
from kiosk.core.words.language import marked
from kiosk.storage.database import IMMEDIATE, ReportedAs, SqliteFiles, reported_as, writing
from kiosk.storage.hall import current_round, keep_round, read_round
from kiosk.storage.mapping import entry_from_json, entry_to_json, entry_to_row, row_to_entry
from kiosk.storage.migrations import INSUFFICIENT_PRIVILEGE, require_current, upgrade
from kiosk.storage.schema import ChallengeRow, ChallengeWordRow, OutboxRow

if TYPE_CHECKING:
    from kiosk.storage.heartbeat import HeartbeatStore

__all__ = [
    "MAX_PENDING_REMOTE_CALLS",
    "REMOTE_DEADLINE_S",
    "SHARED_RETRY_S",
    "LogQuery",
    "LogStatus",
    "Outbox",
    "SharedChallengeLog",
    "SqlChallengeLog",
    "StationLog",
]

SHARED_RETRY_S = 5.0  # while the server is away, try forwarding the outbox this often
REMOTE_DEADLINE_S = 10.0  # any one call to the shared server is abandoned after this long
MAX_PENDING_REMOTE_CALLS = 3  # abandoned calls still out before new calls fail at once
FORWARDER_JOIN_S = REMOTE_DEADLINE_S + 2.0  # how long close() waits for a forwarding under way
FORWARD_BATCH_ENTRIES = 200
INSERT_ATTEMPTS = 3
NAME_SHOWN_CHARS = 40  # a station's name as a message about one of its rows quotes it
_T = TypeVar("_T")
_S = TypeVar("_S", bound="Select[Any]")


def utc_now() -> datetime:
    return datetime.now(UTC)


class StationLog(Protocol):
    """What the station and judge mode call; both log classes below provide it."""

    def record(self, entry: ChallengeEntry) -> None: ...

    def query(self, query: LogQuery) -> Found: ...

    def get(self, challenge_id: ChallengeId) -> ChallengeEntry | None: ...

    def count_by_station(self, since: datetime, until: datetime | None = None) -> dict[str, int]: ...

    def status(self) -> LogStatus: ...

    def forward_backlog(self) -> int: ...


def _readable(rows: Iterable[ChallengeRow]) -> Found:
    """The entries of these rows; each row this kiosk cannot read is left out and named."""
    entries: list[ChallengeEntry] = []
    left_out: list[LeftOut] = []
    for row in rows:
        try:
            entries.append(row_to_entry(row))
        except (StorageError, ValueError, TypeError) as exc:
            station = row.station
            if len(station) > NAME_SHOWN_CHARS:
                station = station[:NAME_SHOWN_CHARS] + "…"
            left_out.append(LeftOut(str(row.id)[:8], station, str(exc)))
    return Found(entries, left_out)


def _first(query: LogQuery, entries: Iterable[ChallengeEntry], left_out: Iterable[LeftOut]) -> Found:
    """The newest ``query.last`` of ``entries`` (all of them without a ``last``)."""
    merged = _newest_first(entries)
    return Found(merged if query.last is None else merged[: query.last], left_out)


def _newest_first(entries: Iterable[ChallengeEntry]) -> list[ChallengeEntry]:
    return sorted(entries, key=lambda entry: (entry.judged_at, str(entry.challenge_id)), reverse=True)


def _add_new_challenges(
    session: Session, entries: Sequence[ChallengeEntry], *, stamp: bool = False
) -> list[ChallengeEntry]:
    """Add the entries whose UUID the database does not hold yet; return them (as stored).

    ``stamp``: the entries are being judged now, at this station (not forwarded): each without a
    round gets the round this database holds, read in the same transaction. Every row gets the time
    it was stored (the server's own clock on PostgreSQL, whatever is sent: a trigger stamps it).
    """
    unique = {entry.challenge_id: entry for entry in entries}
    present = set(session.scalars(select(ChallengeRow.id).where(ChallengeRow.id.in_(list(unique)))))
    new = [entry for challenge_id, entry in unique.items() if challenge_id not in present]
    if stamp and any(entry.round is None for entry in new):
        now = current_round(session)
        if now is not None:
            new = [entry if entry.round is not None else replace(entry, round=now.number) for entry in new]
    stored_at = utc_now()
    for entry in new:
        row = entry_to_row(entry)
        row.received_at = stored_at
        session.add(row)
    return new


def _containing(text: str) -> str:
    """A LIKE pattern for words holding ``text``, its own % and _ letters to find."""
    return "%" + text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


def _where(statement: _S, query: LogQuery) -> _S:
    """``statement`` of the challenge table, narrowed to what ``query`` asks for (not its ``last``)."""
    if query.station is not None:
        statement = statement.where(ChallengeRow.station == query.station)
    if query.division is not None:
        statement = statement.where(ChallengeRow.division == query.division)
    if query.lexicon is not None:
        wanted = query.lexicon.lower()
        title = ChallengeRow.pack_name + " " + ChallengeRow.pack_edition
        statement = statement.where(
            or_(
                func.lower(ChallengeRow.pack_name) == wanted,
                func.lower(title) == wanted,
                func.lower(ChallengeRow.published_edition) == wanted,
            )
        )
    if query.table is not None:
        statement = statement.where(ChallengeRow.table_number == query.table)
    if query.round is not None:
        statement = statement.where(ChallengeRow.round_number == query.round)
    if query.verdict is not None:
        statement = statement.where(ChallengeRow.verdict == query.verdict.value)
    if query.word is not None:  # LIKE's own signs in the word are letters to find, not wildcards
        letters = func.replace(func.replace(ChallengeWordRow.word, "[", ""), "]", "")  # stored_letters
        holding = select(ChallengeWordRow.challenge_id).where(
            or_(*(letters.like(_containing(text), escape="\\") for text in query.word_letters()))
        )
        statement = statement.where(ChallengeRow.id.in_(holding))
    if query.before is not None:
        moment, last_id = query.before
        statement = statement.where(
            or_(
                ChallengeRow.judged_at < moment,
                and_(ChallengeRow.judged_at == moment, ChallengeRow.id < last_id),
            )
        )
    if query.since is not None:
        statement = statement.where(ChallengeRow.judged_at >= query.since)
    if query.until is not None:
        statement = statement.where(ChallengeRow.judged_at < query.until)
    return statement


class SqlChallengeLog:
    """The log in one database. ``record`` returns only after the row is committed (and, for a
    SQLite file, after checking that the file committed to is still the one at its path)."""

    def __init__(
        self, engine: Engine, *, where: str, files: SqliteFiles | None = None, read_only: bool = False
    ) -> None:
        self._engine = engine
        self._writer = engine.execution_options(**{IMMEDIATE: True})
        self.where = where
        self._files = files
        self.read_only = read_only  # a reader's: the schema is checked, never upgraded

    @property
    def engine(self) -> Engine:
        return self._engine

    def upgrade(self) -> None:
        """Bring the schema up to this kiosk's version; a reader's log only checks that it is."""
        if self.read_only:
            require_current(self._engine, where=self.where)
        else:
            upgrade(self._engine, where=self.where)

    def record(self, entry: ChallengeEntry) -> None:
        """Store the entry durably (a no-op if its UUID is already there), or raise StorageError;
        an entry without a round gets the round this log holds (the one judged here now)."""
        self.record_many([entry], stamp=True)

    def record_many(self, entries: Sequence[ChallengeEntry], *, stamp: bool = False) -> int:
        """Store entries in one transaction, skipping UUIDs already present; return how many were new.
        ``stamp``: see ``_add_new_challenges`` (entries forwarded from a station keep their own)."""
        if not entries:
            return 0
        with writing(self._files), self._failing("write"):
            for attempt in range(1, INSERT_ATTEMPTS + 1):
                try:
                    with Session(self._writer, expire_on_commit=False) as session, session.begin():
                        new = _add_new_challenges(session, entries, stamp=stamp)
                except IntegrityError:
                    # Another writer stored one of these UUIDs between our check and our insert: look again.
                    if attempt == INSERT_ATTEMPTS:
                        raise
                    continue
                except ProgrammingError as exc:
                    if getattr(exc.orig, "sqlstate", None) == INSUFFICIENT_PRIVILEGE:
                        raise self._refused(entries) from exc
                    raise
                return len(new)
        raise AssertionError("unreachable")  # pragma: no cover

    def _refused(self, entries: Sequence[ChallengeEntry]) -> StorageError:
        """The server refused: say which station this database role may write as, and what to do."""
        with self._engine.connect() as conn:
            role, allowed = conn.execute(select(func.session_user(), func.kiosk_station_name())).one()
        stations = ", ".join(sorted({repr(entry.station) for entry in entries}))
        if allowed is None:
            return StorageError(
                marked(
                    "the shared log at {where} refuses challenges from the database role {role}: it is "
                    "not a station's role. On the log's server run 'kiosk shared-log setup --station NAME' "
                    "and give this station the database_url it prints for it"
                ),
                where=self.where,
                role=role,
            )
        return StorageError(
            marked(
                "the shared log at {where} refuses challenges of station {stations} from the database role "
                "{role}, which adds only station {allowed}'s. Give this station its own database_url "
                "('kiosk shared-log setup --station NAME' on the log's server), or the station_name "
                "{allowed} if it is that station"
            ),
            where=self.where,
            stations=stations,
            role=role,
            allowed=repr(allowed),
        )

    def _failing(self, action: str) -> ReportedAs:
        doing = {
            "read": marked("read the challenge log at {where}"),
            "write": marked("write the challenge log at {where}"),
            "reach": marked("reach the challenge log at {where}"),
        }
        return reported_as(Wording(doing[action], where=self.where), ValueError)

    def query(self, query: LogQuery) -> Found:
        statement = _where(select(ChallengeRow), query).order_by(
            ChallengeRow.judged_at.desc(), ChallengeRow.id.desc()
        )
        if query.last is not None:
            statement = statement.limit(query.last)
        with self._failing("read"), Session(self._engine) as session:
            return _readable(session.scalars(statement))

    def count(self, query: LogQuery) -> int:
        """How many challenges ``query`` finds, whatever its ``last``."""
        statement = _where(select(func.count()).select_from(ChallengeRow), query)
        with self._failing("read"), self._engine.connect() as conn:
            return int(conn.execute(statement).scalar_one())

    def get(self, challenge_id: ChallengeId) -> ChallengeEntry | None:
        with self._failing("read"), Session(self._engine) as session:
            row = session.get(ChallengeRow, challenge_id)
            return None if row is None else row_to_entry(row)

    def count_by_station(
        self, since: datetime, until: datetime | None = None, *, also: Sequence[ChallengeEntry] = ()
    ) -> dict[str, int]:
        """Challenges per station in the time window; ``also``: entries to count unless already stored.

        The count and the look-up of ``also`` read one snapshot of the database (REPEATABLE READ
        on PostgreSQL; one SQLite transaction is one snapshot anyway), so an entry stored between
        the two by another connection is counted once, not twice or never.
        """
        statement = (
            select(ChallengeRow.station, func.count())
            .where(ChallengeRow.judged_at >= since)
            .group_by(ChallengeRow.station)
        )
        if until is not None:
            statement = statement.where(ChallengeRow.judged_at < until)
        extra = {entry.challenge_id: entry for entry in also}
        with self._failing("read"), Session(self._engine) as session, session.begin():
            if session.get_bind().dialect.name == "postgresql":
                session.connection(execution_options={"isolation_level": "REPEATABLE READ"})
            counts = {str(row[0]): int(row[1]) for row in session.execute(statement)}
            if extra:
                stored = set(session.scalars(select(ChallengeRow.id).where(ChallengeRow.id.in_(list(extra)))))
                for challenge_id, entry in extra.items():
                    if challenge_id not in stored:
                        counts[entry.station] = counts.get(entry.station, 0) + 1
            return counts

    def ping(self) -> None:
        """Raise StorageError unless the database answers."""
        with self._failing("reach"), self._engine.connect() as conn:
            conn.execute(select(1))

    def status(self) -> LogStatus:
        return LogStatus(location=self.where, shared=False, backlog=0, last_error=None)

    def forward_backlog(self) -> int:
        return 0


class Outbox:
    """Challenges waiting for the shared server, kept in the station's own SQLite file.

    ``record`` is the verdict path of a shared log: the entry goes into the station's own log and
    into the outbox in one local transaction, so the two never disagree and nothing is half-written.
    """

    def __init__(
        self,
        engine: Engine,
        *,
        where: str,
        clock: Callable[[], datetime] = utc_now,
        files: SqliteFiles | None = None,
    ) -> None:
        self.engine = engine
        self._writer = engine.execution_options(**{IMMEDIATE: True})
        self._clock = clock
        self.where = where
        self.files = files

    def _failing(self, action: str) -> ReportedAs:
        doing = {"read": marked("read the outbox at {where}"), "write": marked("write the outbox at {where}")}
        return reported_as(Wording(doing[action], where=self.where), ValueError)

    def _row(self, entry: ChallengeEntry) -> OutboxRow:
        return OutboxRow(id=entry.challenge_id, queued_at=self._clock(), payload=entry_to_json(entry))

    def record(self, entry: ChallengeEntry) -> None:
        """Commit the entry to the station's log and queue it for the server, in one transaction.

        An entry the station's log already holds was queued when it was first recorded: no-op.
        """
        doing = Wording(marked("write the challenge log at {where}"), where=self.where)
        with (
            writing(self.files),
            reported_as(doing, ValueError),
            Session(self._writer) as session,
            session.begin(),
        ):
            for stored in _add_new_challenges(session, [entry], stamp=True):  # with its round
                session.add(self._row(stored))

    def peek(self, limit: int) -> list[ChallengeEntry]:
        """The oldest waiting entries, oldest first."""
        statement = select(OutboxRow).order_by(OutboxRow.queued_at, OutboxRow.id).limit(limit)
        with self._failing("read"), Session(self.engine) as session:
            return [entry_from_json(row.payload) for row in session.scalars(statement)]

    def entries(self) -> list[ChallengeEntry]:
        return self.peek(limit=-1)

    def remove(self, challenge_ids: Iterable[ChallengeId]) -> None:
        ids = list(challenge_ids)
        with self._failing("write"), Session(self._writer) as session, session.begin():
            session.execute(delete(OutboxRow).where(OutboxRow.id.in_(ids)))

    def count(self) -> int:
        with self._failing("read"), Session(self.engine) as session:
            return int(session.scalar(select(func.count()).select_from(OutboxRow)) or 0)


@dataclass
class _RemoteCall(Generic[_T]):
    """One call to the shared server on its own thread, so the caller can stop waiting for it."""

    call: Callable[[], _T]
    value: _T | None = None
    error: Exception | None = None
    done: bool = False

    def run(self) -> None:
        try:
            self.value = self.call()
        except Exception as exc:  # handed back to the waiting thread and raised there
            self.error = exc
        self.done = True


class SharedChallengeLog:
    """A shared PostgreSQL log, local first: see the module docstring for the flow and its bounds.

    ``record`` commits to the station's own SQLite log and outbox and returns; only a failure of
    that local write raises StorageError. ``forward_backlog`` (run by the background forwarder, or
    by judge mode) inserts idempotently by UUID and then removes from the outbox, so a crash
    between the two stores nothing twice.
    """

    def __init__(
        self,
        remote: SqlChallengeLog,
        outbox: Outbox,
        *,
        retry_s: float = SHARED_RETRY_S,
        remote_deadline_s: float = REMOTE_DEADLINE_S,
    ) -> None:
        self._remote = remote
        self._outbox = outbox
        self._local = SqlChallengeLog(outbox.engine, where=outbox.where)
        self._retry_s = retry_s
        self._remote_deadline_s = remote_deadline_s
        self._forwarding = threading.Lock()  # one schema check or forwarding at a time
        self._pending_lock = threading.Lock()
        self._pending_calls = 0
        self._remote_ready = False
        self._down = False
        self._local_only = False
        self._last_error: Text | None = None
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._forwarder: threading.Thread | None = None
        self._heartbeats: tuple[HeartbeatStore, HeartbeatStore] | None = None
        self._beats_sent: dict[object, datetime | None] = {}

    def forward_heartbeats(self, local: HeartbeatStore, remote: HeartbeatStore) -> None:
        """Send the station's heartbeats from ``local`` to ``remote`` with the outbox."""
        self._heartbeats = (local, remote)

    def wake_forwarder(self) -> None:
        """Something new waits to be sent (a heartbeat): forward soon, without waiting for a retry."""
        self._wake.set()

    # -- the verdict path: local only ----------------------------------------------------------

    def record(self, entry: ChallengeEntry) -> None:
        """Commit the entry locally (log and outbox, one transaction), wake the forwarder, return."""
        self._outbox.record(entry)
        self._wake.set()

    # -- the server, always through a deadline -------------------------------------------------

    def _mark_down(self, exc: StorageError) -> None:
        self._down = True
        self._last_error = exc.wording  # said in the judge's language on the Log status page

    def _call_remote(self, call: Callable[[], _T]) -> _T:
        """Run one call to the server on a worker thread; give up on it after the deadline."""
        with self._pending_lock:
            if self._pending_calls >= MAX_PENDING_REMOTE_CALLS:
                raise StorageError(
                    marked(
                        "the shared log at {where} has not answered {count} earlier requests; not "
                        "sending another until it does"
                    ),
                    where=self._remote.where,
                    count=self._pending_calls,
                )
            self._pending_calls += 1
        remote_call = _RemoteCall(call)

        def run() -> None:
            try:
                remote_call.run()
            finally:
                with self._pending_lock:
                    self._pending_calls -= 1

        worker = threading.Thread(target=run, name="kiosk-shared-log-call", daemon=True)
        worker.start()
        worker.join(self._remote_deadline_s)
        if not remote_call.done:
            raise StorageError(
                marked("the shared log at {where} did not answer within {seconds} s"),
                where=self._remote.where,
                seconds=f"{self._remote_deadline_s:g}",
            )
        if remote_call.error is not None:
            raise remote_call.error
        return cast(_T, remote_call.value)  # set: the call finished without an error

    def _checked(self, call: Callable[[], _T]) -> _T:
        """The call, after checking (once) the server's schema: both within one deadline."""
        if not self._remote_ready:
            self._remote.upgrade()
            self._remote_ready = True
        return call()

    def _reach_remote(self) -> None:
        """Check (once) that the server's schema is current, or that a server marked down is back."""
        if not self._remote_ready:
            self._call_remote(self._remote.upgrade)
            self._remote_ready = True
        elif self._down:
            self._call_remote(self._remote.ping)

    # -- forwarding ----------------------------------------------------------------------------

    def forward_backlog(self) -> int:
        """Forward every waiting entry now; return how many. Raises StorageError if the server is away."""
        if not self._forwarding.acquire(timeout=2 * self._remote_deadline_s):
            raise StorageError(
                Wording.counting(
                    "forwarding to the shared log at {where} is already under way and has not finished; "
                    "{count} challenge judged here waits in the local outbox",
                    "forwarding to the shared log at {where} is already under way and has not finished; "
                    "{count} challenges judged here wait in the local outbox",
                    self._outbox.count(),
                    where=self._remote.where,
                )
            )
        try:
            forwarded = 0
            if self._down or self._outbox.count():
                self._reach_remote()
            # The heartbeat first, with the backlog as it is: the director sees a station catching
            # up, or one whose outbox does not empty; then again once the outbox has gone.
            self._forward_heartbeats()
            self._keep_round()
            while batch := self._outbox.peek(FORWARD_BATCH_ENTRIES):
                self._call_remote(functools.partial(self._remote.record_many, batch))
                self._outbox.remove(entry.challenge_id for entry in batch)
                forwarded += len(batch)
            if forwarded:
                self._forward_heartbeats(again=True)
        except StorageError as exc:
            self._mark_down(exc)
            raise
        finally:
            self._forwarding.release()
        self._down = False
        self._last_error = None
        return forwarded

    def forward_now(self, deadline_s: float) -> None:
        """One forwarding now, each call to the server given at most ``deadline_s`` (the station
        is leaving: its last report, then the outbox); nothing if the server is known to be away.
        A failure is kept for judge mode like any other, never raised."""
        if self._down:
            return
        usual = self._remote_deadline_s
        self._remote_deadline_s = min(usual, deadline_s)
        try:
            with contextlib.suppress(StorageError):
                self.forward_backlog()
        finally:
            self._remote_deadline_s = usual

    def _keep_round(self) -> None:
        """Copy the server's round into the station's own database, which the station stamps its
        challenges from (``kiosk.storage.hall``)."""
        if self._heartbeats is None:
            return  # a reader's log (kiosk log show): it stamps nothing and writes nothing
        heard = self._call_remote(
            functools.partial(self._checked, functools.partial(read_round, self._remote.engine))
        )
        keep_round(self._outbox.engine, heard, files=self._outbox.files)

    def _forward_heartbeats(self, *, again: bool = False) -> None:
        """Send each local heartbeat not sent yet (``again``: each one), with the backlog as it is now."""
        if self._heartbeats is None:
            return
        local, remote = self._heartbeats
        for beat in local.all():
            if not again and self._beats_sent.get(beat.station_id, None) == beat.reported_at:
                continue
            send = functools.partial(
                remote.write, replace(beat, backlog=self._outbox.count()), server_clock=True
            )
            self._call_remote(functools.partial(self._checked, send))
            self._beats_sent[beat.station_id] = beat.reported_at

    def start_forwarder(self) -> None:
        """Forward on a background thread until ``close``: at once after each record, and every
        ``retry_s`` while the server is away."""
        if self._forwarder is None:
            self._forwarder = threading.Thread(
                target=self._forward_loop, name="kiosk-log-forwarder", daemon=True
            )
            self._forwarder.start()
            self._wake.set()  # forward what an earlier run left behind

    def _forward_loop(self) -> None:
        while not self._stop.is_set():
            if self._down:
                # The server is away: wake-ups from record() wait for the next retry.
                if self._stop.wait(self._retry_s):
                    return
            else:
                self._wake.wait(self._retry_s)
                if self._stop.is_set():
                    return
            self._wake.clear()  # anything recorded from here on sets it again
            # A failure is recorded in last_error for judge mode; try again next round.
            with contextlib.suppress(StorageError):
                self.forward_backlog()

    def close(self) -> None:
        self._stop.set()
        self._wake.set()
        if self._forwarder is not None:
            self._forwarder.join(FORWARDER_JOIN_S)
            self._forwarder = None

    # -- judge mode ----------------------------------------------------------------------------

    def status(self) -> LogStatus:
        """Local only: never waits on the server."""
        return LogStatus(
            location=self._remote.where,
            shared=True,
            backlog=self._outbox.count(),
            last_error=self._last_error,
            local_only=self._local_only,
        )

    def _read(self, remote: Callable[[], _T], local: Callable[[], _T]) -> _T:
        """The shared server's answer, or, while it cannot be reached, this station's own."""
        if not self._down:  # once the server failed, only the forwarder's retries look again
            try:
                value = self._call_remote(lambda: self._checked(remote))
            except StorageError as exc:
                self._mark_down(exc)
            else:
                self._local_only = False
                return value
        self._local_only = True
        return local()

    def _local_entries(self, query: LogQuery) -> Found:
        # The outbox only matters for entries queued by a kiosk that did not yet log locally first.
        local = self._local.query(query)
        seen = {entry.challenge_id for entry in local}
        waiting = [e for e in self._outbox.entries() if e.challenge_id not in seen and query.matches(e)]
        return _first(query, [*local, *waiting], local.left_out)

    def query(self, query: LogQuery) -> Found:
        def shared() -> Found:
            # The outbox first: an entry the forwarder removes after this is on the server already.
            waiting = [e for e in self._outbox.entries() if query.matches(e)]
            remote = self._remote.query(query)
            seen = {entry.challenge_id for entry in remote}
            fresh = [entry for entry in waiting if entry.challenge_id not in seen]
            return _first(query, [*remote, *fresh], remote.left_out)

        return self._read(shared, lambda: self._local_entries(query))

    def get(self, challenge_id: ChallengeId) -> ChallengeEntry | None:
        here = self._local.get(challenge_id)
        if here is not None:
            return here
        for entry in self._outbox.entries():
            if entry.challenge_id == challenge_id:
                return entry
        return self._read(lambda: self._remote.get(challenge_id), lambda: None)

    def count_by_station(self, since: datetime, until: datetime | None = None) -> dict[str, int]:
        window = LogQuery(since=since, until=until)

        def shared() -> dict[str, int]:
            # The outbox first (see query); then the server counts each entry once, whether the
            # forwarder has sent it, is sending it, or died between sending and clearing it.
            waiting = [entry for entry in self._outbox.entries() if window.matches(entry)]
            return self._remote.count_by_station(since, until, also=waiting)

        def local() -> dict[str, int]:
            counts: dict[str, int] = {}
            for entry in self._local_entries(window):
                counts[entry.station] = counts.get(entry.station, 0) + 1
            return counts

        return self._read(shared, local)
