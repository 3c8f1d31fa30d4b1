"""A shared log's server, guarded by PostgreSQL's own security: what ``kiosk shared-log setup`` makes.

One role shared by every station put its password in every ``station.toml``, and whoever held it
could write anything: rows for any station, a report dated 2099, rows no reader understood. The
server now decides who may write what, whatever a client sends. For a log database named
``kiosk`` (every role is prefixed with the database's name, so two events on one server keep apart):

    kiosk_owner     NOLOGIN. Owns the database, its tables and functions, and upgrades the schema
                    (this command runs the upgrade as it). Nobody logs in as it.
    kiosk_station   NOLOGIN, the group of the stations' roles: CONNECT; SELECT on the log (a
                    judge's recheck at any station lists every station's challenges); INSERT on
                    challenges and their words; EXECUTE on ``kiosk_report`` (its report). Nothing
                    else: no UPDATE, DELETE or TRUNCATE anywhere, no privilege on the reports'
                    table (so no lock on what the director reads), no CREATE anywhere.
    kiosk_reader    NOLOGIN, the group of read-only roles: CONNECT, SELECT on the log.
    kiosk_<name>    one LOGIN role per station, member of kiosk_station, registered in
                    ``kiosk_station_role`` with its station's name; its password is in that
                    station's ``station.toml`` and nowhere else.
    kiosk_director  LOGIN, member of kiosk_reader, for ``kiosk director``; its sessions are read
                    only as well (``default_transaction_read_only``). Its only writes: EXECUTE on
                    ``kiosk_set_round`` (the event's round, which stations stamp their challenges
                    with) and ``kiosk_retire`` (a station not to flag until it reports again),
                    both stamped by the server with its time and the role.

Why a role per station and row-level security together (schema 7, ``kiosk.storage.migrations``):
privileges are per table, so they can say that a station adds and never changes, but not whose
rows it adds; row-level security can say whose rows, but only if each station logs in as a role
of its own. So a station's role inserts challenges only under its registered station's name and
words only for the challenge it is inserting in the same transaction, and reports only through
``kiosk_report``, as its own station, one report per role, with ``seen_at`` the server's clock;
triggers stamp ``written_by`` with the session's role on every row. Forging another station's
rows, changing or deleting any row, and keeping a dead station "ready" with a time in the future
are refused by the server itself. What a station's role can still do: read the whole log (as a
judge there may), add challenges under its own name, load the server with queries (at most
``CONNECTION_LIMIT`` connections); a reader leaves out and names any row it cannot read.

This command is run by a PostgreSQL superuser (on the server: ``sudo -u postgres kiosk
shared-log setup ...``) and may be run again: after installing a newer kiosk (it upgrades the
schema and grants on every table again), to add stations, or with ``new_passwords`` to replace
every password it prints. A log whose tables another role owned (the one role every station
shared) is taken over: its tables and functions are given to ``<database>_owner``.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from sqlalchemy import Engine
from sqlalchemy import text as sql  # not text(): pybabel takes text() for a message
from sqlalchemy.engine import URL, Connection, make_url
from sqlalchemy.exc import ArgumentError

from kiosk.core.errors import StorageError
from kiosk.storage.database import describe_url, open_engine, reported_as
from kiosk.storage.migrations import upgrade

__all__ = [
    "CONNECTION_LIMIT",
    "DEFAULT_DATABASE",
    "Credential",
    "SharedLogSetUp",
    "role_names",
    "set_up_shared_log",
]

DEFAULT_DATABASE = "kiosk"
DEFAULT_ADMIN_URL = "postgresql+psycopg:///postgres"  # libpq's defaults: PGHOST, PGPORT, the socket
CONNECTION_LIMIT = 10  # connections one station's (or the director's) role may hold at once
PASSWORD_BYTES = 24  # 32 URL-safe characters: nothing to quote in a database URL
MAX_ROLE_CHARS = 63  # PostgreSQL's NAMEDATALEN - 1
_DATABASE_NAME = re.compile(r"^[a-z][a-z0-9_]{0,29}$")
_TABLES_OF_THE_LOG = ("challenge", "challenge_word", "station_heartbeat", "event_round", "station_retired")
_ALL_TABLES = (
    "kiosk_schema",
    *_TABLES_OF_THE_LOG,
    "kiosk_station_role",
    "outbox",
    "setting",
    "judge_access",
)
_FUNCTIONS = {
    "kiosk_station_name": "kiosk_station_name()",
    "kiosk_stamp_challenge": "kiosk_stamp_challenge()",
    "kiosk_stamp_heartbeat": "kiosk_stamp_heartbeat()",
    "kiosk_report": "kiosk_report(uuid, text, text, text, text, text, text, boolean, integer, text, "
    "timestamp without time zone, integer)",
    "kiosk_set_round": "kiosk_set_round(integer)",
    "kiosk_retire": "kiosk_retire(uuid, boolean)",
}
_DIRECTORS_FUNCTIONS = ("kiosk_set_round", "kiosk_retire")  # the director's only writes


@dataclass(frozen=True)
class Credential:
    """One login role of the log: a station's (``station`` its name) or the director's (None).

    ``password`` and ``url`` are None when the role existed already and kept its password."""

    role: str
    station: str | None
    password: str | None
    url: str | None

    @property
    def new(self) -> bool:
        return self.password is not None


@dataclass(frozen=True)
class SharedLogSetUp:
    database: str
    host: str
    port: int
    schema_version: int
    stations: tuple[Credential, ...]
    director: Credential | None
    taken_over: tuple[str, ...]  # the objects another role owned, now the owner's
    superusers_with_passwords: tuple[str, ...]  # roles no station may hold: they bypass everything
    tls_off: bool = False  # the server's ssl setting is off: URLs that ask for TLS cannot reach it


@dataclass(frozen=True)
class _Roles:
    owner: str
    station: str
    reader: str
    director: str


def role_names(database: str) -> _Roles:
    return _Roles(f"{database}_owner", f"{database}_station", f"{database}_reader", f"{database}_director")


def _station_role(database: str, station: str, taken: set[str]) -> str:
    """A role name for a station: the database's name and the station's, in lowercase letters,
    digits and underscores (``kiosk_table_3``), unique among ``taken``."""
    slug = re.sub(r"[^a-z0-9]+", "_", station.casefold()).strip("_") or "station"
    base = f"{database}_{slug}"[:MAX_ROLE_CHARS]
    name, number = base, 1
    while name in taken:
        number += 1
        suffix = f"_{number}"
        name = base[: MAX_ROLE_CHARS - len(suffix)] + suffix
    return name


def _ident(conn: Connection, name: str) -> str:
    return str(conn.execute(sql("SELECT quote_ident(:name)"), {"name": name}).scalar_one())


def _literal(conn: Connection, value: str) -> str:
    return str(conn.execute(sql("SELECT quote_literal(:value)"), {"value": value}).scalar_one())


def _verifier(conn: Connection, role: str, password: str) -> str:
    """The password's SCRAM verifier, made here as ``psql``'s ``\\password`` makes it: the password
    itself never reaches the server (nor its log)."""
    driver: Any = conn.connection.driver_connection
    made = driver.pgconn.encrypt_password(password.encode(), role.encode(), b"scram-sha-256")
    return bytes(made).decode("ascii")


@contextmanager
def _connected(url: URL, *, role: str | None = None) -> Iterator[Connection]:
    """An autocommit connection (CREATE DATABASE runs outside a transaction), as ``role`` if given."""
    if role is not None:
        url = url.update_query_dict({"options": f"-c role={role}"})
    engine = open_engine(url.render_as_string(hide_password=False))
    try:
        with engine.connect() as conn:
            yield conn.execution_options(isolation_level="AUTOCOMMIT")
    finally:
        engine.dispose()


def _ddl(statement: str) -> str:
    """A statement made of quoted names and literals, for ``exec_driver_sql``: no parameters, so the
    driver's placeholder sign is doubled (a password verifier never holds one, a name might)."""
    return statement.replace("%", "%%")


def _exists(conn: Connection, query: str, **values: object) -> bool:
    return conn.execute(sql(query), values).first() is not None


def _make_group(conn: Connection, role: str) -> None:
    found = conn.execute(
        sql(
            "SELECT rolcanlogin OR rolsuper OR rolcreaterole OR rolcreatedb OR rolbypassrls "
            "FROM pg_roles WHERE rolname = :r"
        ),
        {"r": role},
    ).first()
    if found is None:
        conn.exec_driver_sql(_ddl(f"CREATE ROLE {_ident(conn, role)} NOLOGIN"))
    elif found[0]:
        raise StorageError(
            f"a PostgreSQL role named {role} already exists and can log in or has powers this log's "
            f"{role} must not have; give the log another --database name, or remove that role"
        )


def set_up_shared_log(
    admin_url: str | None,
    *,
    database: str = DEFAULT_DATABASE,
    stations: Sequence[str] = (),
    director: bool = True,
    host: str | None = None,
    new_passwords: bool = False,
    tls_authority: str | None = None,
) -> SharedLogSetUp:
    """Make (or bring up to date) the shared log ``database`` and its roles: see the module docstring.

    ``admin_url``: a PostgreSQL superuser's connection (None: libpq's defaults, the local socket as
    this system user). ``host``: how stations reach the server, for the URLs it returns (None: the
    admin connection's host). ``tls_authority``: the file of the event's authority certificate as
    the stations keep it: the URLs then ask for TLS and check the server's certificate against it
    (``sslmode=verify-full``), and ``tls_off`` says whether this server has TLS switched off.
    Raises StorageError with what to do.
    """
    if not _DATABASE_NAME.match(database):
        raise StorageError(
            f"the database name {database!r} cannot name a shared log: use 1 to 30 lowercase letters, "
            "digits and underscores, starting with a letter (e.g. kiosk, club_2026)"
        )
    names = [station.strip() for station in stations]
    if any(not name or "\x00" in name for name in names) or len(set(names)) != len(names):
        raise StorageError("each --station names one station, once, and not an empty name")
    try:
        admin = make_url(admin_url or DEFAULT_ADMIN_URL)
    except ArgumentError as exc:
        raise StorageError(
            f"the admin URL '{admin_url}' cannot be read; use e.g. postgresql+psycopg://postgres@localhost/postgres"
        ) from exc
    if admin.get_backend_name() != "postgresql":
        raise StorageError(f"the shared log is a PostgreSQL database, not {admin.get_backend_name()}")
    roles = role_names(database)
    where = describe_url(admin.render_as_string(hide_password=False))
    with reported_as(f"set up the shared log on {where}"):
        with _connected(admin) as conn:
            _require_superuser(conn, where)
            port = int(conn.execute(sql("SHOW port")).scalar_one())
            tls_off = str(conn.execute(sql("SHOW ssl")).scalar_one()) != "on"
            for group in (roles.owner, roles.station, roles.reader):
                _make_group(conn, group)
            _make_database(conn, database, roles)
        event = admin.set(database=database)
        with _connected(event) as conn:
            taken_over = _take_over(conn, roles)
        as_owner = _owner_engine(event, roles.owner)
        try:
            version = upgrade(as_owner, where=f"the shared log {database}")
        finally:
            as_owner.dispose()
        with _connected(event) as conn:
            _grant(conn, roles)
            shown_host = host or admin.host or "localhost"
            reach = _Reach(shown_host, port, database, tls_authority)
            credentials = [_station_credential(conn, roles, name, new_passwords, reach) for name in names]
            made_director = _director_credential(conn, roles, new_passwords, reach) if director else None
            almighty = tuple(
                str(name)
                for name in conn.execute(
                    sql(
                        "SELECT rolname FROM pg_authid "
                        "WHERE rolsuper AND rolcanlogin AND rolpassword IS NOT NULL"
                    )
                ).scalars()
            )
    return SharedLogSetUp(
        database=database,
        host=shown_host,
        port=port,
        schema_version=version,
        stations=tuple(credentials),
        director=made_director,
        taken_over=taken_over,
        superusers_with_passwords=almighty,
        tls_off=tls_off,
    )


def _owner_engine(event: URL, owner: str) -> Engine:
    return open_engine(
        event.update_query_dict({"options": f"-c role={owner}"}).render_as_string(hide_password=False)
    )


def _require_superuser(conn: Connection, where: str) -> None:
    user, superuser = conn.execute(
        sql("SELECT current_user, rolsuper FROM pg_roles WHERE rolname = current_user")
    ).one()
    if not superuser:
        raise StorageError(
            f"setting up the shared log makes roles and a database, so it needs a PostgreSQL superuser; "
            f"{user} (on {where}) is not one. On the log's server run it as the postgres user "
            "(sudo -u postgres kiosk shared-log setup ...), or give --admin-url a superuser's URL"
        )


def _make_database(conn: Connection, database: str, roles: _Roles) -> None:
    db, owner = _ident(conn, database), _ident(conn, roles.owner)
    if _exists(conn, "SELECT 1 FROM pg_database WHERE datname = :d", d=database):
        conn.exec_driver_sql(_ddl(f"ALTER DATABASE {db} OWNER TO {owner}"))
    else:
        conn.exec_driver_sql(_ddl(f"CREATE DATABASE {db} OWNER {owner} ENCODING 'UTF8' TEMPLATE template0"))
    conn.exec_driver_sql(_ddl(f"REVOKE ALL ON DATABASE {db} FROM PUBLIC"))
    conn.exec_driver_sql(
        _ddl(f"GRANT CONNECT ON DATABASE {db} TO {_ident(conn, roles.station)}, {_ident(conn, roles.reader)}")
    )


def _take_over(conn: Connection, roles: _Roles) -> tuple[str, ...]:
    """Give the public schema and every object of the log to the owner role (a log made before
    this command was owned by the role every station shared)."""
    owner = _ident(conn, roles.owner)
    conn.exec_driver_sql(_ddl(f"ALTER SCHEMA public OWNER TO {owner}"))
    conn.execute(sql("REVOKE ALL ON SCHEMA public FROM PUBLIC"))
    # A function by the signature the catalogue gives: a log of an earlier schema has its own.
    owned = conn.execute(
        sql(
            "SELECT 'table', tablename, tableowner, quote_ident(tablename) FROM pg_tables "
            "WHERE schemaname = 'public' AND tablename = ANY(:t) UNION ALL "
            "SELECT 'function', p.proname, pg_get_userbyid(p.proowner), p.oid::regprocedure::text "
            "FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace "
            "WHERE n.nspname = 'public' AND p.proname = ANY(:f)"
        ),
        {"t": list(_ALL_TABLES), "f": list(_FUNCTIONS)},
    )
    taken: list[str] = []
    for kind, name, was, signature in owned.all():
        if was != roles.owner:
            target = f"TABLE public.{signature}" if kind == "table" else f"FUNCTION {signature}"
            conn.exec_driver_sql(_ddl(f"ALTER {target} OWNER TO {owner}"))
            taken.append(f"{kind} {name} (owned by {was})")
    return tuple(taken)


def _grant(conn: Connection, roles: _Roles) -> None:
    station, reader = _ident(conn, roles.station), _ident(conn, roles.reader)
    conn.exec_driver_sql(_ddl(f"GRANT USAGE ON SCHEMA public TO {station}, {reader}"))
    tables = ", ".join(f"public.{table}" for table in _ALL_TABLES)
    conn.exec_driver_sql(_ddl(f"REVOKE ALL ON {tables} FROM PUBLIC, {station}, {reader}"))
    log = ", ".join(f"public.{table}" for table in ("kiosk_schema", *_TABLES_OF_THE_LOG))
    conn.exec_driver_sql(_ddl(f"GRANT SELECT ON {log} TO {reader}"))
    conn.exec_driver_sql(
        _ddl(
            "GRANT SELECT ON public.kiosk_schema, public.challenge, public.challenge_word, "
            f"public.event_round TO {station}"
        )
    )
    conn.exec_driver_sql(_ddl(f"GRANT INSERT ON public.challenge, public.challenge_word TO {station}"))
    functions = ", ".join(f"public.{signature}" for signature in _FUNCTIONS.values())
    conn.exec_driver_sql(_ddl(f"REVOKE ALL ON FUNCTION {functions} FROM PUBLIC"))
    conn.exec_driver_sql(
        _ddl(f"GRANT EXECUTE ON FUNCTION public.{_FUNCTIONS['kiosk_station_name']} TO {station}, {reader}")
    )
    conn.exec_driver_sql(_ddl(f"GRANT EXECUTE ON FUNCTION public.{_FUNCTIONS['kiosk_report']} TO {station}"))


def _login_role(
    conn: Connection, role: str, group: str, new_password: bool, *, read_only: bool = False
) -> str | None:
    """Make the login role (or check the one there is ours); return its new password, if it got one."""
    found = conn.execute(
        sql(
            "SELECT r.rolsuper OR r.rolcreaterole OR r.rolcreatedb OR r.rolbypassrls, "
            "pg_has_role(r.oid, (SELECT oid FROM pg_roles WHERE rolname = :g), 'MEMBER') "
            "FROM pg_roles r WHERE r.rolname = :r"
        ),
        {"r": role, "g": group},
    ).first()
    ident = _ident(conn, role)
    password = None
    if found is None:
        password = secrets.token_urlsafe(PASSWORD_BYTES)
        verifier = _literal(conn, _verifier(conn, role, password))
        conn.exec_driver_sql(
            _ddl(
                f"CREATE ROLE {ident} LOGIN PASSWORD {verifier} CONNECTION LIMIT {CONNECTION_LIMIT} "
                f"IN ROLE {_ident(conn, group)}"
            )
        )
    else:
        powerful, member = found
        if powerful or not member:
            raise StorageError(
                f"a PostgreSQL role named {role} already exists and is not one of this log's ("
                + ("it has powers a station must not have" if powerful else f"it is not a member of {group}")
                + "); give the log another --database name, or remove that role"
            )
        if new_password:
            password = secrets.token_urlsafe(PASSWORD_BYTES)
            conn.exec_driver_sql(
                _ddl(f"ALTER ROLE {ident} PASSWORD {_literal(conn, _verifier(conn, role, password))}")
            )
    if read_only:
        conn.exec_driver_sql(_ddl(f"ALTER ROLE {ident} SET default_transaction_read_only = on"))
    return password


@dataclass(frozen=True)
class _Reach:
    """How the stations and the director reach the log, for the URLs printed."""

    host: str
    port: int
    database: str
    tls_authority: str | None  # the authority's certificate as the stations keep it: TLS, verified

    def url(self, role: str, password: str | None) -> str | None:
        if password is None:
            return None
        shown = f"[{self.host}]" if ":" in self.host else self.host
        url = f"postgresql+psycopg://{role}:{password}@{shown}:{self.port}/{self.database}"
        if self.tls_authority is not None:
            url += f"?sslmode=verify-full&sslrootcert={quote(self.tls_authority, safe='/')}"
        return url


def _station_credential(
    conn: Connection, roles: _Roles, station: str, new_password: bool, reach: _Reach
) -> Credential:
    database = reach.database
    registered = conn.execute(
        sql("SELECT role_name FROM public.kiosk_station_role WHERE station = :s"), {"s": station}
    ).scalar()
    if registered is None:
        taken = {str(name) for name in conn.execute(sql("SELECT rolname FROM pg_roles")).scalars()}
        taken |= set(vars(roles).values())
        role = _station_role(database, station, taken)
        conn.execute(
            sql("INSERT INTO public.kiosk_station_role (role_name, station) VALUES (:r, :s)"),
            {"r": role, "s": station},
        )
    else:
        role = str(registered)
    password = _login_role(conn, role, roles.station, new_password)
    return Credential(role, station, password, reach.url(role, password))


def _director_credential(conn: Connection, roles: _Roles, new_password: bool, reach: _Reach) -> Credential:
    password = _login_role(conn, roles.director, roles.reader, new_password, read_only=True)
    director = _ident(conn, roles.director)
    functions = ", ".join(f"public.{_FUNCTIONS[name]}" for name in _DIRECTORS_FUNCTIONS)
    conn.exec_driver_sql(_ddl(f"GRANT EXECUTE ON FUNCTION {functions} TO {director}"))
    return Credential(roles.director, None, password, reach.url(roles.director, password))
