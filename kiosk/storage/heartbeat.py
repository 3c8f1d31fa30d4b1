"""Station heartbeats in a database: written locally, forwarded like challenges, read by the director.

``HeartbeatReporter`` is the station's side: the UI hands it the station's state (``report``:
memory only, no I/O, so the Qt thread never waits), and its own thread writes the latest one to
the station's database when it changes and every ``HEARTBEAT_INTERVAL_S``. With a shared log the
row then travels the challenges' way: ``SharedChallengeLog``'s forwarder sends it to the server
(bounded by the same deadline, after the outbox), where the server's own clock stamps
``seen_at``. Nothing here is on the verdict path: a server that is down costs the station nothing
and a heartbeat that cannot be written is only counted, never raised to the station.

``HeartbeatStore`` reads and writes the ``station_heartbeat`` rows of one database (one row per
station, replaced by each report); the director's view reads them with ``all``.
"""

from __future__ import annotations

import json
import threading
import uuid
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime

from sqlalchemy import Engine, func, insert, select, update
from sqlalchemy.orm import Session
from sqlalchemy.sql.elements import ColumnElement

from kiosk.core.errors import StorageError
from kiosk.core.heartbeat import HEARTBEAT_INTERVAL_S, DivisionPack, Heartbeat, StationId, StationState
from kiosk.core.language import marked
from kiosk.core.wording import Wording
from kiosk.storage.database import IMMEDIATE, ReportedAs, SqliteFiles, reported_as, writing
from kiosk.storage.schema import HeartbeatRow
from kiosk.storage.settings import SettingsStore

__all__ = ["STATION_ID_KEY", "HeartbeatReporter", "HeartbeatStore", "database_now", "station_id"]

STATION_ID_KEY = "station_id"
REPORTER_JOIN_S = 5.0


def utc_now() -> datetime:
    return datetime.now(UTC)


def station_id(settings: SettingsStore) -> StationId:
    """This station's identity, made once and kept in its own database: two stations given the same
    name are still two stations to the director."""
    value = settings.get(STATION_ID_KEY)
    try:
        return StationId(uuid.UUID(str(value)))
    except ValueError:
        made = StationId(uuid.uuid4())
        settings.put(STATION_ID_KEY, str(made))
        return made


def _server_utc_now() -> ColumnElement[datetime]:
    """PostgreSQL's clock as a UTC time without zone: the column's own kind."""
    return func.timezone("UTC", func.now())


def database_now(engine: Engine) -> datetime:
    """The database's clock, in UTC (a SQLite file's clock is this machine's)."""
    if engine.dialect.name != "postgresql":
        return utc_now()
    with reported_as(f"read the clock of {engine.url.render_as_string()}"), engine.connect() as conn:
        value = conn.execute(select(_server_utc_now())).scalar_one()
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def _packs_json(packs: tuple[DivisionPack, ...]) -> str:
    return json.dumps([[p.division, p.pack, p.edition, p.served] for p in packs], ensure_ascii=False)


def _packs(text: str) -> tuple[DivisionPack, ...]:
    try:
        return tuple(
            DivisionPack(str(division), str(pack), str(edition), bool(served))
            for division, pack, edition, served in json.loads(text)
        )
    except (ValueError, TypeError) as exc:
        raise StorageError(f"a station's heartbeat lists its packs as {text!r}: it cannot be read") from exc


def _state(value: str) -> StationState:
    try:
        return StationState(value)
    except ValueError:
        raise StorageError(
            f"a station reports the state {value!r}, which this kiosk does not know; read the log with "
            "the kiosk version the stations run"
        ) from None


def _beat(row: HeartbeatRow) -> Heartbeat:
    return Heartbeat(
        station_id=StationId(row.station_id),
        station=row.station,
        host=row.host,
        state=_state(row.state),
        packs=_packs(row.packs),
        rule_profile=row.rule_profile,
        version=row.version,
        reason=row.reason,
        ask_table=row.ask_table,
        backlog=row.backlog,
        reported_at=row.reported_at,
        seen_at=row.seen_at,
    )


class HeartbeatStore:
    """The ``station_heartbeat`` rows of one database."""

    def __init__(self, engine: Engine, *, where: str, files: SqliteFiles | None = None) -> None:
        self._engine = engine
        self._writer = engine.execution_options(**{IMMEDIATE: True})
        self.where = where
        self._files = files  # the station's file: nothing is written into one emptied under it

    def _failing(self, action: str) -> ReportedAs:
        doing = {
            "read": marked("read the station heartbeats in {where}"),
            "write": marked("write the station heartbeats in {where}"),
        }
        return reported_as(Wording(doing[action], where=self.where), ValueError)

    def write(self, beat: Heartbeat, *, server_clock: bool = False) -> None:
        """Replace the station's row; ``seen_at`` is the database's clock with ``server_clock`` (the
        shared server), else the report's own time (the station's file, on the station's clock)."""
        if beat.reported_at is None:
            raise ValueError("a heartbeat is written with the time it was reported")
        seen: object = _server_utc_now() if server_clock else beat.reported_at
        values = {
            "station": beat.station,
            "host": beat.host,
            "state": beat.state.value,
            "reason": beat.reason,
            "packs": _packs_json(beat.packs),
            "rule_profile": beat.rule_profile,
            "ask_table": beat.ask_table,
            "backlog": beat.backlog,
            "version": beat.version,
            "reported_at": beat.reported_at,
            "seen_at": seen,
        }
        with writing(self._files), self._failing("write"), Session(self._writer) as session, session.begin():
            key = HeartbeatRow.station_id == beat.station_id
            if session.scalar(select(HeartbeatRow.station_id).where(key)) is None:
                session.execute(insert(HeartbeatRow).values(station_id=beat.station_id, **values))
            else:
                session.execute(update(HeartbeatRow).where(key).values(**values))

    def all(self) -> list[Heartbeat]:
        """Every station's last report, by station name."""
        statement = select(HeartbeatRow).order_by(HeartbeatRow.station, HeartbeatRow.station_id)
        with self._failing("read"), Session(self._engine) as session:
            return [_beat(row) for row in session.scalars(statement)]


class HeartbeatReporter:
    """The station's reports, written by a thread of their own (see the module docstring).

    ``backlog`` says how many challenges wait for the shared server; ``written`` is called after
    each write (the shared log's forwarder is woken by it).
    """

    def __init__(
        self,
        store: HeartbeatStore,
        *,
        backlog: Callable[[], int] = lambda: 0,
        written: Callable[[], None] = lambda: None,
        interval_s: float = HEARTBEAT_INTERVAL_S,
        clock: Callable[[], datetime] = utc_now,
    ) -> None:
        self._store = store
        self._backlog = backlog
        self._written = written
        self._interval_s = interval_s
        self._clock = clock
        self._lock = threading.Lock()
        self._pending: Heartbeat | None = None
        self._last: Heartbeat | None = None
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.failures = 0
        self.last_error: str | None = None

    def report(self, beat: Heartbeat) -> None:
        """The station's state now: kept in memory, written soon if it says something new."""
        with self._lock:
            self._pending = beat
            changed = not beat.same_report(self._last)
        if changed:
            self._wake.set()

    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._loop, name="kiosk-heartbeat", daemon=True)
            self._thread.start()

    def _loop(self) -> None:
        while not self._stop.is_set():
            self._wake.wait(self._interval_s)
            self._wake.clear()
            if self._stop.is_set():
                return
            self.write_now()

    def write_now(self) -> Heartbeat | None:
        """Write the latest report now (with the backlog and the time); return it, or None."""
        with self._lock:
            beat = self._pending
        if beat is None:
            return None
        try:
            stamped = replace(beat, backlog=self._backlog(), reported_at=self._clock())
            self._store.write(stamped)
        except StorageError as exc:  # never the station's problem: the director sees it go quiet
            self.failures += 1
            self.last_error = str(exc)
            return None
        with self._lock:
            self._last = beat
        self.last_error = None
        self._written()
        return stamped

    def close(self) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(REPORTER_JOIN_S)
            self._thread = None
