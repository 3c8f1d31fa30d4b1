"""The ORM models of the current schema (typed SQLAlchemy 2.x). Widgets never see these rows.

``migrations.py`` builds the same tables step by step; a test checks the two agree. The station's
own SQLite file holds every table; a shared PostgreSQL log uses the challenge and heartbeat tables.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

from sqlalchemy import DateTime, ForeignKey, Integer, Text, TypeDecorator, Uuid
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

__all__ = [
    "Base",
    "ChallengeRow",
    "ChallengeWordRow",
    "EventRoundRow",
    "HeartbeatRow",
    "JudgeAccessRow",
    "OutboxRow",
    "RetiredRow",
    "SchemaVersionRow",
    "SettingRow",
    "StationRoleRow",
    "UtcDateTime",
]


class UtcDateTime(TypeDecorator[datetime]):
    """Stored as naive UTC (SQLite has no time zones), always handed back timezone-aware UTC."""

    impl = DateTime
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None or value.utcoffset() is None:
            raise ValueError(f"a naive time {value.isoformat()} cannot be logged; use UTC")
        return value.astimezone(UTC).replace(tzinfo=None)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is not None:
            return value.astimezone(UTC)
        return value.replace(tzinfo=UTC)


class Base(DeclarativeBase):
    type_annotation_map = {  # noqa: RUF012 -- SQLAlchemy reads this class attribute by name
        datetime: UtcDateTime(),
        str: Text(),
        uuid.UUID: Uuid(),
    }


class SchemaVersionRow(Base):
    __tablename__ = "kiosk_schema"

    version: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)


class ChallengeRow(Base):
    """One judged challenge: the ruling and where and how it was made."""

    __tablename__ = "challenge"

    id: Mapped[uuid.UUID] = mapped_column(primary_key=True)
    judged_at: Mapped[datetime] = mapped_column(index=True)
    station: Mapped[str] = mapped_column(index=True)
    division: Mapped[str]
    rule_profile: Mapped[str]
    pack_name: Mapped[str]
    pack_edition: Mapped[str]
    set_hash: Mapped[str]
    youth_rules: Mapped[bool]
    word_count: Mapped[int]
    verdict: Mapped[str]
    table_number: Mapped[int | None]  # schema 4: the game's table, where the station asks (ask_table)
    youth_set_hash: Mapped[str | None]  # schema 6: what ruled, exactly
    edition_checked: Mapped[bool]
    published_edition: Mapped[str | None]
    second_opinion_pack: Mapped[str | None]
    second_opinion_edition: Mapped[str | None]
    second_opinion_set_hash: Mapped[str | None]
    second_opinion_verdict: Mapped[str | None]
    written_by: Mapped[str | None]  # schema 7: the database role that inserted it (PostgreSQL)
    round_number: Mapped[int | None]  # schema 8: the event's round the station stamped it with
    received_at: Mapped[datetime | None] = mapped_column(index=True)  # schema 8: when this database stored it
    words: Mapped[list[ChallengeWordRow]] = relationship(
        order_by="ChallengeWordRow.position",
        cascade="all, delete-orphan",
        lazy="selectin",
    )


class ChallengeWordRow(Base):
    """One challenged word and its result: for judges and exports, never a player screen."""

    __tablename__ = "challenge_word"

    challenge_id: Mapped[uuid.UUID] = mapped_column(
        ForeignKey("challenge.id", ondelete="CASCADE"), primary_key=True
    )
    position: Mapped[int] = mapped_column(primary_key=True, autoincrement=False)
    word: Mapped[str]
    status: Mapped[str]


class SettingRow(Base):
    """A station setting chosen in judge mode (division, rule profile, timings), as JSON text."""

    __tablename__ = "setting"

    key: Mapped[str] = mapped_column(primary_key=True)
    value: Mapped[str]


class JudgeAccessRow(Base):
    """The judge PIN hash and the count of wrong PINs since the last right one (a single row)."""

    __tablename__ = "judge_access"

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=False)
    pin_hash: Mapped[str | None]
    failures: Mapped[int]
    last_failure_at: Mapped[datetime | None]


class HeartbeatRow(Base):
    """The last report of one station (``kiosk.core.log.heartbeat``): one row per station, replaced."""

    __tablename__ = "station_heartbeat"

    station_id: Mapped[uuid.UUID] = mapped_column(primary_key=True)
    station: Mapped[str]
    host: Mapped[str]
    state: Mapped[str]
    reason: Mapped[str]
    packs: Mapped[str]  # JSON: [[division, pack, edition, served], ...]
    rule_profile: Mapped[str]
    ask_table: Mapped[bool]
    backlog: Mapped[int]
    version: Mapped[str]
    reported_at: Mapped[datetime]  # the station's clock
    seen_at: Mapped[datetime]  # the clock of the database that holds the row
    written_by: Mapped[str | None]  # schema 7: the database role that wrote it (PostgreSQL)
    round_number: Mapped[int | None]  # schema 8: the round the station stamps challenges with now


class StationRoleRow(Base):
    """A shared log's station credentials: the database role that may write as this station."""

    __tablename__ = "kiosk_station_role"

    role_name: Mapped[str] = mapped_column(primary_key=True)
    station: Mapped[str] = mapped_column(unique=True)


class EventRoundRow(Base):
    """The event's round as the director set it, one row each time (the newest is current)."""

    __tablename__ = "event_round"

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=True)
    round_number: Mapped[int]
    set_at: Mapped[datetime]  # the log database's clock
    set_by: Mapped[str | None]  # the database role (PostgreSQL), or what set it


class RetiredRow(Base):
    """A station the director retired (a spare laptop, a station packed away): not a problem on
    the board until it reports again after ``retired_at``."""

    __tablename__ = "station_retired"

    station_id: Mapped[uuid.UUID] = mapped_column(primary_key=True)
    retired_at: Mapped[datetime]  # the log database's clock
    retired_by: Mapped[str | None]


class OutboxRow(Base):
    """A challenge judged while the shared server was unreachable, waiting to be forwarded."""

    __tablename__ = "outbox"

    id: Mapped[uuid.UUID] = mapped_column(primary_key=True)
    queued_at: Mapped[datetime]
    payload: Mapped[str]
