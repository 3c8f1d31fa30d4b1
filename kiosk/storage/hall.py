"""What the director sets for the whole event, kept in the log: the current round, and the stations
it retired.

``HallControls`` is the director's side (behind the judge PIN on its page). On a shared PostgreSQL
log its role holds no write privilege on any table: it calls the server's ``kiosk_set_round`` and
``kiosk_retire`` (schema 8), in a transaction it asks to be read-write (its sessions are read only
by default), and the server stamps the time and the role. On a station's own SQLite log it writes
the two tables itself.

A station stamps each challenge with the round its own database holds (``current_round``, read in
the transaction that records the challenge: no network on the verdict path). With a shared log the
station's forwarder copies the server's round into the station's database (``keep_round``) each
time it reaches the server, so a station cut off from the server goes on stamping the round it last
heard of, and its reports say which.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime

from sqlalchemy import Engine, delete, func, insert, select
from sqlalchemy import text as sql  # not text(): pybabel takes text() for a message
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Session

from kiosk.core.log.challenge import MAX_ROUND
from kiosk.core.log.overview import EventRound
from kiosk.core.wording import Wording
from kiosk.core.words.language import marked
from kiosk.storage.database import IMMEDIATE, SqliteFiles, describe_url, open_engine, reported_as, writing
from kiosk.storage.schema import EventRoundRow, RetiredRow

__all__ = ["HallControls", "current_round", "keep_round", "read_round"]

SET_BY_SERVER = "the shared log"  # who set a round a station copied from the server


def current_round(conn: Connection | Session) -> EventRound | None:
    """The newest round set in this database, or None if none ever was."""
    row = conn.execute(
        select(EventRoundRow.round_number, EventRoundRow.set_at).order_by(EventRoundRow.id.desc()).limit(1)
    ).first()
    if row is None or not 0 < row.round_number <= MAX_ROUND:
        return None  # a round no station could have been told: as if none were set
    return EventRound(row.round_number, row.set_at)


def read_round(engine: Engine) -> EventRound | None:
    """The newest round set in this database (StorageError if it cannot be read)."""
    doing = Wording(marked("read the event's round in {where}"), where=engine.url.render_as_string())
    with reported_as(doing), engine.connect() as conn:
        return current_round(conn)


def keep_round(engine: Engine, heard: EventRound | None, *, files: SqliteFiles | None = None) -> bool:
    """Keep the round ``heard`` from the shared server in the station's own database, unless it is
    the one it holds; return whether it changed."""
    if heard is None:
        return False
    with (
        reported_as(
            Wording(marked("keep the event's round in {where}"), where=engine.url.render_as_string())
        ),
        writing(files),
        Session(engine.execution_options(**{IMMEDIATE: True})) as session,
        session.begin(),
    ):
        if current_round(session) == heard:
            return False
        session.execute(
            insert(EventRoundRow).values(round_number=heard.number, set_at=heard.set_at, set_by=SET_BY_SERVER)
        )
    return True


class HallControls:
    """The director's writes to the log at ``url``: the round, and retired stations. Each raises
    StorageError (the database away, a role without the right) with what happened."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.where = describe_url(url)
        self._engine: Engine | None = None

    def _open(self) -> Engine:
        if self._engine is None:
            self._engine = open_engine(self.url)
        return self._engine

    def close(self) -> None:
        if self._engine is not None:
            self._engine.dispose()
            self._engine = None

    def _postgres(self) -> bool:
        return self._open().dialect.name == "postgresql"

    def set_round(self, number: int) -> None:
        """Make ``number`` the event's round from now on."""
        if not 0 < number <= MAX_ROUND:
            raise ValueError(f"a round is numbered 1 to {MAX_ROUND}, not {number}")
        with reported_as(f"set the round in the log at {self.where}"), self._writing() as conn:
            if self._postgres():
                conn.execute(select(func.kiosk_set_round(number)))
            else:
                conn.execute(insert(EventRoundRow).values(round_number=number, set_at=datetime.now(UTC)))

    def retire(self, station_id: uuid.UUID, *, retire: bool = True) -> None:
        """Retire the station (not a problem until it reports again), or bring it back."""
        with reported_as(f"retire a station in the log at {self.where}"), self._writing() as conn:
            if self._postgres():
                conn.execute(select(func.kiosk_retire(station_id, retire)))
            elif retire:
                conn.execute(delete(RetiredRow).where(RetiredRow.station_id == station_id))
                conn.execute(insert(RetiredRow).values(station_id=station_id, retired_at=datetime.now(UTC)))
            else:
                conn.execute(delete(RetiredRow).where(RetiredRow.station_id == station_id))

    @contextmanager
    def _writing(self) -> Iterator[Connection]:
        """A read-write transaction, on a PostgreSQL role whose sessions are read only by default too."""
        with self._open().connect() as conn, conn.begin():
            if conn.dialect.name == "postgresql":
                conn.execute(sql("SET TRANSACTION READ WRITE"))
            yield conn
