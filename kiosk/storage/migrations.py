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
  7. each row's writer: ``written_by`` on challenges and heartbeats, and ``kiosk_station_role``,
     which database role may write as which station (filled by ``kiosk shared-log setup``). On
     PostgreSQL, the server's own defences (``kiosk.storage.server`` explains the design): triggers
     that stamp ``written_by`` with the session's role and ``seen_at`` with the server's clock
     whatever a client sends, and row-level security: a station role adds challenges and reports
     only under its own station's name, adds words only to the challenge it is inserting, replaces
     only its own report, and keeps one report (a new one replaces its older ones); nobody but
     the tables' owner updates or deletes a challenge. The owner itself is not bound (a log whose
     stations all log in as its owner works as before, and is only as safe as before).
  8. the director's hall: the event's ``round`` (``event_round``, one row each time the director
     sets it; the newest is current), which each station stamps on its challenges
     (``challenge.round_number``) and reports (``station_heartbeat.round_number``); when the
     database stored each challenge (``challenge.received_at``: a challenge judged while its
     station was cut off arrives late, and the director sees it); the stations the director
     retired (``station_retired``). On PostgreSQL the server stamps ``received_at`` with its own
     clock, ``kiosk_report`` takes the round, and the director changes the round and the
     retirements only through ``kiosk_set_round`` and ``kiosk_retire`` (its role holds no write
     privilege on any table).
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
from sqlalchemy.exc import ProgrammingError

from kiosk.core.errors import StorageError
from kiosk.core.log.challenge import MAX_ROUND
from kiosk.core.wording import Wording
from kiosk.core.words.language import marked
from kiosk.storage.database import IMMEDIATE, reported_as

__all__ = [
    "INSUFFICIENT_PRIVILEGE",
    "SCHEMA_VERSION",
    "UPGRADES",
    "require_current",
    "schema_version",
    "upgrade",
]

VERSION_TABLE = "kiosk_schema"
INSUFFICIENT_PRIVILEGE = "42501"  # PostgreSQL's SQLSTATE: permission denied, must be owner
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


# The PostgreSQL side of step 7. ``{schema}`` is the schema the tables are in: functions that run
# with their owner's rights look for tables there only (never in a schema a client could create).
_V7_POSTGRES = (
    """CREATE FUNCTION kiosk_station_name() RETURNS text LANGUAGE sql STABLE SECURITY DEFINER
       SET search_path = {schema}, pg_temp
       AS $$ SELECT station FROM kiosk_station_role WHERE role_name = session_user $$""",
    # whatever a client sends: who wrote a row is the session's role; when a report was seen, now
    """CREATE FUNCTION kiosk_stamp_challenge() RETURNS trigger LANGUAGE plpgsql
       SET search_path = {schema}, pg_temp
       AS $$ BEGIN NEW.written_by := session_user; RETURN NEW; END $$""",
    """CREATE TRIGGER kiosk_stamp BEFORE INSERT ON challenge
       FOR EACH ROW EXECUTE FUNCTION kiosk_stamp_challenge()""",
    """CREATE FUNCTION kiosk_stamp_heartbeat() RETURNS trigger LANGUAGE plpgsql
       SET search_path = {schema}, pg_temp
       AS $$ BEGIN
         NEW.seen_at := timezone('UTC', now());
         NEW.written_by := session_user;
         RETURN NEW;
       END $$""",
    """CREATE TRIGGER kiosk_stamp BEFORE INSERT OR UPDATE ON station_heartbeat
       FOR EACH ROW EXECUTE FUNCTION kiosk_stamp_heartbeat()""",
    # A station reports through this function only (it holds no privilege on the table, so it
    # can neither write another station's report nor lock the table the director reads): its own
    # station's name, one report per role (a station started afresh replaces its older one).
    """CREATE FUNCTION kiosk_report(
         report_station_id uuid, report_station text, report_host text, report_state text,
         report_reason text, report_packs text, report_rule_profile text, report_ask_table boolean,
         report_backlog integer, report_version text, report_reported_at timestamp
       ) RETURNS void LANGUAGE plpgsql SECURITY DEFINER SET search_path = {schema}, pg_temp
       AS $$
       DECLARE
         registered text := kiosk_station_name();
       BEGIN
         IF registered IS NOT NULL AND report_station IS DISTINCT FROM registered THEN
           RAISE EXCEPTION USING ERRCODE = 'insufficient_privilege', MESSAGE = format(
             'the database role %s may report only as station %s, not as %s',
             session_user, quote_literal(registered), quote_literal(report_station));
         END IF;
         IF registered IS NOT NULL THEN
           DELETE FROM station_heartbeat WHERE written_by = session_user AND station_id <> report_station_id;
         END IF;
         INSERT INTO station_heartbeat AS h (station_id, station, host, state, reason, packs,
             rule_profile, ask_table, backlog, version, reported_at, seen_at)
           VALUES (report_station_id, report_station, report_host, report_state, report_reason,
             report_packs, report_rule_profile, report_ask_table, report_backlog, report_version,
             report_reported_at, timezone('UTC', now()))
           ON CONFLICT (station_id) DO UPDATE SET station = excluded.station, host = excluded.host,
             state = excluded.state, reason = excluded.reason, packs = excluded.packs,
             rule_profile = excluded.rule_profile, ask_table = excluded.ask_table,
             backlog = excluded.backlog, version = excluded.version, reported_at = excluded.reported_at
           WHERE registered IS NULL OR h.written_by = session_user;
         IF NOT FOUND THEN
           RAISE EXCEPTION USING ERRCODE = 'insufficient_privilege', MESSAGE = format(
             'the report %s belongs to another database role than %s', report_station_id, session_user);
         END IF;
       END $$""",
    *(
        f"ALTER TABLE {table} ENABLE ROW LEVEL SECURITY"
        for table in (
            "kiosk_schema",
            "challenge",
            "challenge_word",
            "station_heartbeat",
            "kiosk_station_role",
            "outbox",
            "setting",
            "judge_access",
        )
    ),
    # Privileges say who may read or insert at all (``kiosk shared-log setup`` grants them); these
    # policies say which rows. With no UPDATE or DELETE policy, no role but the owner changes a row.
    "CREATE POLICY kiosk_read ON kiosk_schema FOR SELECT USING (true)",
    "CREATE POLICY kiosk_read ON challenge FOR SELECT USING (true)",
    "CREATE POLICY kiosk_add_own ON challenge FOR INSERT WITH CHECK (station = kiosk_station_name())",
    "CREATE POLICY kiosk_read ON challenge_word FOR SELECT USING (true)",
    # words only for a challenge this role is inserting in this very transaction
    """CREATE POLICY kiosk_add_own ON challenge_word FOR INSERT WITH CHECK (EXISTS (
         SELECT 1 FROM challenge c WHERE c.id = challenge_id AND c.written_by = session_user
         AND c.xmin = pg_current_xact_id()::xid))""",
    "CREATE POLICY kiosk_read ON station_heartbeat FOR SELECT USING (true)",
)


def _v7_own_rows(conn: Connection) -> None:
    for table in ("challenge", "station_heartbeat"):
        conn.execute(sql(f"ALTER TABLE {table} ADD COLUMN written_by TEXT"))
    metadata = MetaData()
    Table(
        "kiosk_station_role",
        metadata,
        Column("role_name", Text(), primary_key=True),
        Column("station", Text(), nullable=False, unique=True),
    )
    metadata.create_all(conn)
    if conn.dialect.name == "postgresql":
        schema = conn.execute(sql("SELECT quote_ident(current_schema())")).scalar_one()
        for statement in _V7_POSTGRES:
            conn.execute(sql(statement.replace("{schema}", schema)))


# The PostgreSQL side of step 8 (``{schema}`` as in step 7).
_V8_POSTGRES = (
    """CREATE OR REPLACE FUNCTION kiosk_stamp_challenge() RETURNS trigger LANGUAGE plpgsql
       SET search_path = {schema}, pg_temp
       AS $$ BEGIN
         NEW.written_by := session_user;
         NEW.received_at := timezone('UTC', now());
         RETURN NEW;
       END $$""",
    """DROP FUNCTION kiosk_report(uuid, text, text, text, text, text, text, boolean, integer, text,
         timestamp without time zone)""",
    """CREATE FUNCTION kiosk_report(
         report_station_id uuid, report_station text, report_host text, report_state text,
         report_reason text, report_packs text, report_rule_profile text, report_ask_table boolean,
         report_backlog integer, report_version text, report_reported_at timestamp, report_round integer
       ) RETURNS void LANGUAGE plpgsql SECURITY DEFINER SET search_path = {schema}, pg_temp
       AS $$
       DECLARE
         registered text := kiosk_station_name();
       BEGIN
         IF registered IS NOT NULL AND report_station IS DISTINCT FROM registered THEN
           RAISE EXCEPTION USING ERRCODE = 'insufficient_privilege', MESSAGE = format(
             'the database role %s may report only as station %s, not as %s',
             session_user, quote_literal(registered), quote_literal(report_station));
         END IF;
         IF registered IS NOT NULL THEN
           DELETE FROM station_heartbeat WHERE written_by = session_user AND station_id <> report_station_id;
         END IF;
         INSERT INTO station_heartbeat AS h (station_id, station, host, state, reason, packs,
             rule_profile, ask_table, backlog, version, reported_at, seen_at, round_number)
           VALUES (report_station_id, report_station, report_host, report_state, report_reason,
             report_packs, report_rule_profile, report_ask_table, report_backlog, report_version,
             report_reported_at, timezone('UTC', now()), report_round)
           ON CONFLICT (station_id) DO UPDATE SET station = excluded.station, host = excluded.host,
             state = excluded.state, reason = excluded.reason, packs = excluded.packs,
             rule_profile = excluded.rule_profile, ask_table = excluded.ask_table,
             backlog = excluded.backlog, version = excluded.version, reported_at = excluded.reported_at,
             round_number = excluded.round_number
           WHERE registered IS NULL OR h.written_by = session_user;
         IF NOT FOUND THEN
           RAISE EXCEPTION USING ERRCODE = 'insufficient_privilege', MESSAGE = format(
             'the report %s belongs to another database role than %s', report_station_id, session_user);
         END IF;
       END $$""",
    # The director's only writes, each through its function: the round, and a station retired.
    """CREATE FUNCTION kiosk_set_round(new_round integer) RETURNS void LANGUAGE plpgsql
       SECURITY DEFINER SET search_path = {schema}, pg_temp
       AS $$ BEGIN
         IF new_round IS NULL OR new_round < 1 OR new_round > {max_round} THEN
           RAISE EXCEPTION USING ERRCODE = 'check_violation',
             MESSAGE = format('a round is numbered 1 to {max_round}, not %s', new_round);
         END IF;
         INSERT INTO event_round (round_number, set_at, set_by)
           VALUES (new_round, timezone('UTC', now()), session_user);
       END $$""",
    """CREATE FUNCTION kiosk_retire(retired_station uuid, retire boolean) RETURNS void LANGUAGE plpgsql
       SECURITY DEFINER SET search_path = {schema}, pg_temp
       AS $$ BEGIN
         IF retire THEN
           INSERT INTO station_retired (station_id, retired_at, retired_by)
             VALUES (retired_station, timezone('UTC', now()), session_user)
             ON CONFLICT (station_id) DO UPDATE SET retired_at = excluded.retired_at,
               retired_by = excluded.retired_by;
         ELSE
           DELETE FROM station_retired WHERE station_id = retired_station;
         END IF;
       END $$""",
    "ALTER TABLE event_round ENABLE ROW LEVEL SECURITY",
    "ALTER TABLE station_retired ENABLE ROW LEVEL SECURITY",
    "CREATE POLICY kiosk_read ON event_round FOR SELECT USING (true)",
    "CREATE POLICY kiosk_read ON station_retired FOR SELECT USING (true)",
)


def _v8_hall(conn: Connection) -> None:
    # ADD COLUMN of nullable columns, in each engine's own words for the column's kind.
    timestamp = DateTime().compile(dialect=conn.dialect)
    for column in ("round_number INTEGER", f"received_at {timestamp}"):
        conn.execute(sql(f"ALTER TABLE challenge ADD COLUMN {column}"))
    conn.execute(sql("ALTER TABLE station_heartbeat ADD COLUMN round_number INTEGER"))
    # the newest stored challenge, found at once: the director's board reads it every second
    conn.execute(sql("CREATE INDEX ix_challenge_received_at ON challenge (received_at)"))
    metadata = MetaData()
    Table(
        "event_round",
        metadata,
        Column("id", Integer(), primary_key=True, autoincrement=True),
        Column("round_number", Integer(), nullable=False),
        Column("set_at", DateTime(), nullable=False),
        Column("set_by", Text(), nullable=True),
    )
    Table(
        "station_retired",
        metadata,
        Column("station_id", Uuid(), primary_key=True),
        Column("retired_at", DateTime(), nullable=False),
        Column("retired_by", Text(), nullable=True),
    )
    metadata.create_all(conn)
    if conn.dialect.name == "postgresql":
        schema = conn.execute(sql("SELECT quote_ident(current_schema())")).scalar_one()
        for statement in _V8_POSTGRES:
            conn.execute(sql(statement.replace("{schema}", schema).replace("{max_round}", str(MAX_ROUND))))


UPGRADES: tuple[Callable[[Connection], None], ...] = (
    _v1_challenge_log,
    _v2_judge_mode,
    _v3_outbox,
    _v4_table_number,
    _v5_heartbeats,
    _v6_what_ruled,
    _v7_own_rows,
    _v8_hall,
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
        if conn.dialect.name == "postgresql":
            # Up to date (every start but the first of a new version): no lock, which any client
            # of the server could hold to keep the stations waiting.
            with conn.begin():
                version = schema_version(conn)
            if version >= target:
                if version > SCHEMA_VERSION:
                    raise _newer(where, version)
                return version
        conn.execution_options(**{IMMEDIATE: True})
        with conn.begin():
            if conn.dialect.name == "postgresql":
                conn.execute(sql("SELECT pg_advisory_xact_lock(:key)"), {"key": PG_UPGRADE_LOCK_KEY})
            version = schema_version(conn)
            if version > SCHEMA_VERSION:
                raise _newer(where, version)
            try:
                for step in range(version + 1, target + 1):
                    UPGRADES[step - 1](conn)
            except ProgrammingError as exc:
                if getattr(exc.orig, "sqlstate", None) != INSUFFICIENT_PRIVILEGE:
                    raise
                raise StorageError(
                    marked(
                        "{where} has schema version {version}, and this kiosk writes version {newest}: only "
                        "the log's owner may upgrade it. On the log's server, run 'kiosk shared-log setup' "
                        "of this kiosk version (see the guide docs/install.md)"
                    ),
                    where=where,
                    version=version,
                    newest=SCHEMA_VERSION,
                ) from exc
            if target > version:
                _set_version(conn, target)
            return max(version, target)
