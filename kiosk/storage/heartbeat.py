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
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import Engine, Row, func, insert, select, update
from sqlalchemy.orm import Session
from sqlalchemy.sql.elements import ColumnElement

from kiosk.core.errors import StorageError
from kiosk.core.log.challenge import MAX_ROUND
from kiosk.core.log.heartbeat import (
    HEARTBEAT_INTERVAL_S,
    MAX_REPORT_BACKLOG,
    MAX_REPORT_DIGEST_CHARS,
    MAX_REPORT_NAME_CHARS,
    MAX_REPORT_PACKS,
    MAX_REPORT_REASON_CHARS,
    DivisionPack,
    Heartbeat,
    StationId,
    StationState,
    bounded,
)
from kiosk.core.wording import Wording
from kiosk.core.words.language import marked
from kiosk.storage.database import IMMEDIATE, ReportedAs, SqliteFiles, reported_as, writing
from kiosk.storage.schema import HeartbeatRow
from kiosk.storage.settings import SettingsStore

__all__ = [
    "MAX_PACKS_JSON_CHARS",
    "STATION_ID_KEY",
    "HeartbeatReporter",
    "HeartbeatStore",
    "HeartbeatsRead",
    "database_now",
    "station_id",
]

STATION_ID_KEY = "station_id"
REPORTER_JOIN_S = 5.0
# a report's packs, as JSON
MAX_PACKS_JSON_CHARS = MAX_REPORT_PACKS * (3 * MAX_REPORT_NAME_CHARS + MAX_REPORT_DIGEST_CHARS + 48)
SEEN_SLACK_S = 5.0  # a time "seen" this far after the clock read with it is still taken as stamped then


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
    return json.dumps(
        [[p.division, p.pack, p.edition, p.served, p.set_hash, p.youth] for p in packs], ensure_ascii=False
    )


class _UnreadableError(Exception):
    """Why one row cannot be read (said after the row's name)."""


def _short(text: object, limit: int = 40) -> str:
    shown = str(text)
    return repr(shown if len(shown) <= limit else shown[: limit - 1] + "…")


def _text(value: object, field: str, limit: int = MAX_REPORT_NAME_CHARS) -> str:
    if not isinstance(value, str):
        raise _UnreadableError(f"its {field} is {_short(value)}, not text")
    if len(value) > limit:
        raise _UnreadableError(f"its {field} is over {limit} characters long")
    return value


def _packs(text: str) -> tuple[DivisionPack, ...]:
    if len(text) > MAX_PACKS_JSON_CHARS:
        raise _UnreadableError(f"its list of packs is over {MAX_PACKS_JSON_CHARS} characters long")
    try:
        listed = json.loads(text)
    except ValueError:
        raise _UnreadableError(f"its list of packs {_short(text)} is not JSON") from None
    if not isinstance(listed, list) or len(listed) > MAX_REPORT_PACKS:
        raise _UnreadableError(f"its packs are {_short(text)}, not a list of at most {MAX_REPORT_PACKS}")
    packs = []
    for item in listed:
        # four fields from a kiosk of schema 7; then the set's digest and the youth rules
        if not (
            isinstance(item, list) and len(item) in (4, 6) and all(isinstance(v, bool) for v in item[3::2])
        ):
            raise _UnreadableError(
                f"it lists the pack {_short(item)}, not [division, pack, edition, served, digest, youth]"
            )
        division, pack, edition = (_text(value, "pack") for value in item[:3])
        digest = _text(item[4], "pack's digest", MAX_REPORT_DIGEST_CHARS) if len(item) == 6 else ""
        packs.append(DivisionPack(division, pack, edition, item[3], digest, len(item) == 6 and item[5]))
    return tuple(packs)


def _state(value: str) -> StationState:
    try:
        return StationState(value)
    except ValueError:
        raise _UnreadableError(
            f"it reports the state {_short(value)}, which this kiosk does not know (a newer kiosk wrote "
            "it, or someone else: read the log with the kiosk version the stations run)"
        ) from None


def _beat(row: Row[Any], now: datetime | None) -> Heartbeat:
    """A report as read, or _UnreadableError: every field of the right kind and within its bound."""
    if not 0 <= row.backlog <= MAX_REPORT_BACKLOG:
        raise _UnreadableError(f"it says {row.backlog} challenges wait in its outbox")
    if row.round_number is not None and not 0 < row.round_number <= MAX_ROUND:
        raise _UnreadableError(f"it says it judges round {row.round_number}")
    if now is not None and row.seen_at > now + timedelta(seconds=SEEN_SLACK_S):
        raise _UnreadableError(
            f"it was seen at {row.seen_at:%Y-%m-%d %H:%M:%S}Z by the log's clock, which says it is "
            f"{now:%Y-%m-%d %H:%M:%S}Z now: its time was not stamped by the log's server"
        )
    return Heartbeat(
        station_id=StationId(row.station_id),
        station=_text(row.station, "station name"),
        host=_text(row.host, "host name"),
        state=_state(_text(row.state, "state")),
        packs=_packs(row.packs),
        rule_profile=_text(row.rule_profile, "rule"),
        version=_text(row.version, "version"),
        reason=_text(row.reason, "reason", MAX_REPORT_REASON_CHARS),
        ask_table=bool(row.ask_table),
        backlog=row.backlog,
        round=row.round_number,
        reported_at=row.reported_at,
        seen_at=row.seen_at,
    )


@dataclass(frozen=True)
class HeartbeatsRead:
    """What a read of the reports found: the reports, newest seen first; each row it could not read,
    named with why; and how many rows it did not read at all (past its limit)."""

    beats: tuple[Heartbeat, ...]
    unreadable: tuple[str, ...] = ()
    more: int = 0


def _capped(column: Any, limit: int) -> Any:
    """The column's text, but never more than one character past ``limit``: enough to tell it is too
    long without fetching it whole."""
    return func.substr(column, 1, limit + 1).label(column.key)


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
        beat = bounded(beat)
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
            "round_number": beat.round,
            "version": beat.version,
            "reported_at": beat.reported_at,
            "seen_at": seen,
        }
        if self._engine.dialect.name == "postgresql":
            self._report(beat)
            return
        with writing(self._files), self._failing("write"), Session(self._writer) as session, session.begin():
            key = HeartbeatRow.station_id == beat.station_id
            if session.scalar(select(HeartbeatRow.station_id).where(key)) is None:
                session.execute(insert(HeartbeatRow).values(station_id=beat.station_id, **values))
            else:
                session.execute(update(HeartbeatRow).where(key).values(**values))

    def _report(self, beat: Heartbeat) -> None:
        """On a PostgreSQL log, through the server's ``kiosk_report`` (schema 7, with the round since
        schema 8): the only way a station's role can report, as its own station, its ``seen_at``
        the server's clock."""
        assert beat.reported_at is not None
        call = func.kiosk_report(
            beat.station_id,
            beat.station,
            beat.host,
            beat.state.value,
            beat.reason,
            _packs_json(beat.packs),
            beat.rule_profile,
            beat.ask_table,
            beat.backlog,
            beat.version,
            beat.reported_at.astimezone(UTC).replace(tzinfo=None),  # the column's kind: UTC, no zone
            beat.round,
        )
        with self._failing("write"), self._engine.begin() as conn:
            conn.execute(select(call))

    def all(self) -> list[Heartbeat]:
        """Every station's last report this kiosk can read, by station name."""
        return sorted(self.read().beats, key=lambda beat: (beat.station, str(beat.station_id)))

    def read(self, *, limit: int | None = None, now: datetime | None = None) -> HeartbeatsRead:
        """The reports, newest seen first, at most ``limit`` rows read (none of them more than a
        bounded size); a row that cannot be read (a state this kiosk does not know, packs that are
        not a list, a text past its bound, a time after ``now``, the log's clock) is left out and
        named, never fails the read."""
        name, reason = MAX_REPORT_NAME_CHARS, MAX_REPORT_REASON_CHARS
        statement = select(
            HeartbeatRow.station_id,
            _capped(HeartbeatRow.station, name),
            _capped(HeartbeatRow.host, name),
            _capped(HeartbeatRow.state, name),
            _capped(HeartbeatRow.reason, reason),
            _capped(HeartbeatRow.packs, MAX_PACKS_JSON_CHARS),
            _capped(HeartbeatRow.rule_profile, name),
            HeartbeatRow.ask_table,
            HeartbeatRow.backlog,
            HeartbeatRow.round_number,
            _capped(HeartbeatRow.version, name),
            HeartbeatRow.reported_at,
            HeartbeatRow.seen_at,
        ).order_by(HeartbeatRow.seen_at.desc(), HeartbeatRow.station_id)
        if limit is not None:
            statement = statement.limit(limit)
        beats: list[Heartbeat] = []
        unreadable: list[str] = []
        with self._failing("read"), self._engine.connect() as conn:
            rows = conn.execute(statement).all()
            more = 0
            if limit is not None and len(rows) == limit:
                total = conn.execute(select(func.count()).select_from(HeartbeatRow)).scalar_one()
                more = int(total) - limit
        for row in rows:
            try:
                beats.append(_beat(row, now))
            except _UnreadableError as why:
                unreadable.append(
                    f"the report of station {_short(row.station)} (host {_short(row.host)}, id "
                    f"{row.station_id}): {why}"
                )
        return HeartbeatsRead(tuple(beats), tuple(unreadable), more)


class HeartbeatReporter:
    """The station's reports, written by a thread of their own (see the module docstring).

    ``backlog`` says how many challenges wait for the shared server, ``round`` which round the
    station stamps its challenges with now; ``written`` is called after each write (the shared
    log's forwarder is woken by it).
    """

    def __init__(
        self,
        store: HeartbeatStore,
        *,
        backlog: Callable[[], int] = lambda: 0,
        round: Callable[[], int | None] = lambda: None,
        written: Callable[[], None] = lambda: None,
        interval_s: float = HEARTBEAT_INTERVAL_S,
        clock: Callable[[], datetime] = utc_now,
    ) -> None:
        self._store = store
        self._backlog = backlog
        self._round = round
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
            stamped = replace(beat, backlog=self._backlog(), round=self._round(), reported_at=self._clock())
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
