"""Numbered schema upgrades: each step takes the database from version N-1 to N, in one transaction.

Each step defines its tables as they were at that version (SQLAlchemy Core, not the ORM models,
which move on), so an old database is upgraded by the same code that built it then. A database
from a newer kiosk is refused: this build would not know what its tables mean. Add a step by
appending to ``UPGRADES``; never edit a released one.

History:
  1. the challenge log: ``challenge`` and its per-word results ``challenge_word``
  2. judge mode: the PIN and its failure count ``judge_access``; station ``setting``s
  3. shared logs: the local ``outbox`` of challenges waiting for the PostgreSQL server
  4. challenges tied to their game: ``challenge.table_number`` (NULL where the station does not ask)
  5. the director's view: each station's last report, ``station_heartbeat``
  6. what ruled, exactly: each challenge's youth list digest, whether its set was proven a
     published edition (and which), and the second-opinion lexicon and its verdict. Rows from
     before keep NULLs and ``edition_checked`` false: "not recorded", never "not published".
"""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import (
    Boolean,
    Column,
    DateTime,
    Engine,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    Table,
    Text,
    Uuid,
    delete,
    insert,
    inspect,
    select,
)
from sqlalchemy import text as sql  # not text(): pybabel takes text() for a message
from sqlalchemy.engine import Connection

from kiosk.core.errors import StorageError
from kiosk.core.language import marked
from kiosk.core.wording import Wording
from kiosk.storage.database import IMMEDIATE, reported_as

__all__ = ["SCHEMA_VERSION", "UPGRADES", "require_current", "schema_version", "upgrade"]

VERSION_TABLE = "kiosk_schema"
# Serialises the upgrade when several stations start at once against one PostgreSQL server.
PG_UPGRADE_LOCK_KEY = 0x6B696F736B  # "kiosk"


def _version_table(metadata: MetaData) -> Table:
    return Table(VERSION_TABLE, metadata, Column("version", Integer, primary_key=True, autoincrement=False))


def _v1_challenge_log(conn: Connection) -> None:
    metadata = MetaData()
    _version_table(metadata)
    challenge = Table(
        "challenge",
        metadata,
        Column("id", Uuid(), primary_key=True),
        Column("judged_at", DateTime(), nullable=False),
        Column("station", Text(), nullable=False),
        Column("division", Text(), nullable=False),
        Column("rule_profile", Text(), nullable=False),
        Column("pack_name", Text(), nullable=False),
        Column("pack_edition", Text(), nullable=False),
        Column("set_hash", Text(), nullable=False),
        Column("youth_rules", Boolean(), nullable=False),
        Column("word_count", Integer(), nullable=False),
        Column("verdict", Text(), nullable=False),
    )
    Index("ix_challenge_judged_at", challenge.c.judged_at)
    Index("ix_challenge_station", challenge.c.station)
    Table(
        "challenge_word",
        metadata,
        Column("challenge_id", Uuid(), ForeignKey("challenge.id", ondelete="CASCADE"), primary_key=True),
        Column("position", Integer(), primary_key=True, autoincrement=False),
        Column("word", Text(), nullable=False),
        Column("status", Text(), nullable=False),
    )
    metadata.create_all(conn)


def _v2_judge_mode(conn: Connection) -> None:
    metadata = MetaData()
    Table(
        "judge_access",
        metadata,
        Column("id", Integer(), primary_key=True, autoincrement=False),
        Column("pin_hash", Text(), nullable=True),
        Column("failures", Integer(), nullable=False),
        Column("last_failure_at", DateTime(), nullable=True),
    )
    Table(
        "setting",
        metadata,
        Column("key", Text(), primary_key=True),
        Column("value", Text(), nullable=False),
    )
    metadata.create_all(conn)


def _v3_outbox(conn: Connection) -> None:
    metadata = MetaData()
    Table(
        "outbox",
        metadata,
        Column("id", Uuid(), primary_key=True),
        Column("queued_at", DateTime(), nullable=False),
        Column("payload", Text(), nullable=False),
    )
    metadata.create_all(conn)


def _v4_table_number(conn: Connection) -> None:
    # ADD COLUMN of a nullable column: one statement both SQLite and PostgreSQL run in place.
    conn.execute(sql("ALTER TABLE challenge ADD COLUMN table_number INTEGER"))


def _v5_heartbeats(conn: Connection) -> None:
    metadata = MetaData()
    Table(
        "station_heartbeat",
        metadata,
        Column("station_id", Uuid(), primary_key=True),
        Column("station", Text(), nullable=False),
        Column("host", Text(), nullable=False),
        Column("state", Text(), nullable=False),
        Column("reason", Text(), nullable=False),
        Column("packs", Text(), nullable=False),
        Column("rule_profile", Text(), nullable=False),
        Column("ask_table", Boolean(), nullable=False),
        Column("backlog", Integer(), nullable=False),
        Column("version", Text(), nullable=False),
        Column("reported_at", DateTime(), nullable=False),
        Column("seen_at", DateTime(), nullable=False),
    )
    metadata.create_all(conn)


# Columns added to ``challenge`` by step 6, in SQL both SQLite and PostgreSQL read.
_V6_COLUMNS = (
    "youth_set_hash TEXT",
    "edition_checked BOOLEAN NOT NULL DEFAULT FALSE",
    "published_edition TEXT",
    "second_opinion_pack TEXT",
    "second_opinion_edition TEXT",
    "second_opinion_set_hash TEXT",
    "second_opinion_verdict TEXT",
)


def _v6_what_ruled(conn: Connection) -> None:
    for column in _V6_COLUMNS:
        conn.execute(sql(f"ALTER TABLE challenge ADD COLUMN {column}"))


UPGRADES: tuple[Callable[[Connection], None], ...] = (
    _v1_challenge_log,
    _v2_judge_mode,
    _v3_outbox,
    _v4_table_number,
    _v5_heartbeats,
    _v6_what_ruled,
)
SCHEMA_VERSION = len(UPGRADES)


def schema_version(conn: Connection) -> int:
    """The database's schema version; 0 for a database the kiosk has never written."""
    if not inspect(conn).has_table(VERSION_TABLE):
        return 0
    version = conn.execute(select(_version_table(MetaData()).c.version)).scalar()
    return int(version) if version is not None else 0


def _set_version(conn: Connection, version: int) -> None:
    table = _version_table(MetaData())
    conn.execute(delete(table))
    conn.execute(insert(table).values(version=version))


def _newer(where: str, version: int) -> StorageError:
    return StorageError(
        marked(
            "{where} has schema version {version}, written by a newer kiosk; this kiosk reads "
            "up to version {newest}. Install the newer kiosk on this station, or give it "
            "another data directory or database"
        ),
        where=where,
        version=version,
        newest=SCHEMA_VERSION,
    )


def require_current(engine: Engine, *, where: str = "the log database") -> None:
    """A reader's check, which never writes: raise StorageError unless the database has this
    kiosk's schema version (a station of this version upgrades an older one when it starts)."""
    with reported_as(Wording(marked("read {where}"), where=where)), engine.connect() as conn:
        version = schema_version(conn)
    if version > SCHEMA_VERSION:
        raise _newer(where, version)
    if version == 0:
        raise StorageError(
            marked("{where} holds no challenge log yet: no station of this event has written to it"),
            where=where,
        )
    if version < SCHEMA_VERSION:
        raise StorageError(
            marked(
                "{where} has schema version {version}, from an older kiosk; this kiosk reads version "
                "{newest}. A station of this kiosk version upgrades it when it starts; or read it with "
                "the kiosk version that wrote it"
            ),
            where=where,
            version=version,
            newest=SCHEMA_VERSION,
        )


def upgrade(engine: Engine, *, target: int = SCHEMA_VERSION, where: str = "the log database") -> int:
    """Bring the database up to ``target`` (the current version by default); return the version.

    Raises StorageError if the database was written by a newer kiosk.
    """
    if not 0 <= target <= SCHEMA_VERSION:
        raise ValueError(f"no schema version {target}; this kiosk knows 0 to {SCHEMA_VERSION}")
    with reported_as(Wording(marked("open or upgrade {where}"), where=where)), engine.connect() as conn:
        conn.execution_options(**{IMMEDIATE: True})
        with conn.begin():
            if conn.dialect.name == "postgresql":
                conn.execute(sql("SELECT pg_advisory_xact_lock(:key)"), {"key": PG_UPGRADE_LOCK_KEY})
            version = schema_version(conn)
            if version > SCHEMA_VERSION:
                raise _newer(where, version)
            for step in range(version + 1, target + 1):
                UPGRADES[step - 1](conn)
            if target > version:
                _set_version(conn, target)
            return max(version, target)
