"""Engines for the log: the station's own SQLite file, or a shared PostgreSQL server.

SQLite is set up on EVERY new connection (an event listener, not a one-off statement): WAL so the
judge's reads never block the station's writes, ``synchronous=FULL`` so a committed row survives
a power cut, a busy timeout for the CLI reading while the station writes, and foreign keys on. The
Python driver's implicit transactions are turned off and SQLAlchemy's ``begin`` emits ``BEGIN``
itself, so DDL and writes run inside real transactions (SQLAlchemy's documented pysqlite recipe).

PostgreSQL connections carry bounds so a server that stops answering gives an error, not a hang
(``pg_connect_args``): ``connect_timeout`` for the whole connection set-up (TCP, TLS, start-up and
authentication), ``tcp_user_timeout`` for data the server's host never acknowledges (cable
pulled, host dropping packets), TCP keepalives for an idle pooled connection whose peer vanished,
and server-side ``statement_timeout``/``lock_timeout`` for a server that is up but stuck.
``kiosk.storage.log`` adds a client-side deadline on top, for a peer that acknowledges and never
answers.
"""

from __future__ import annotations

from pathlib import Path
from types import TracebackType
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.exc import ArgumentError, SQLAlchemyError

from kiosk.core.errors import StorageError
from kiosk.core.language import marked
from kiosk.core.wording import Wording
from kiosk.paths import LOCAL_DATABASE_NAME

__all__ = [
    "IMMEDIATE",
    "LOCAL_DATABASE_NAME",
    "PG_CONNECT_TIMEOUT_S",
    "PG_KEEPALIVE_IDLE_S",
    "PG_STATEMENT_TIMEOUT_MS",
    "PG_TCP_USER_TIMEOUT_MS",
    "SQLITE_BUSY_TIMEOUT_MS",
    "ReportedAs",
    "SqliteFiles",
    "describe_url",
    "is_sqlite",
    "local_database_path",
    "open_engine",
    "pg_connect_args",
    "reported_as",
    "sqlite_file",
    "sqlite_url",
]

SQLITE_BUSY_TIMEOUT_MS = 10_000
PG_CONNECT_TIMEOUT_S = 3  # libpq's minimum is 2; applies to each address the host name resolves to
PG_TCP_USER_TIMEOUT_MS = 5_000  # sent data unacknowledged this long: the connection is dropped
PG_KEEPALIVE_IDLE_S = 10  # an idle connection is probed after this long ...
PG_KEEPALIVE_INTERVAL_S = 3  # ... every this long ...
PG_KEEPALIVE_PROBES = 3  # ... and dropped after this many probes go unanswered
PG_STATEMENT_TIMEOUT_MS = 5_000  # the server cancels any statement running longer
PG_LOCK_TIMEOUT_MS = 5_000  # or waiting longer for a lock (the schema upgrade's advisory lock)
# Execution option: start the SQLite transaction with BEGIN IMMEDIATE (take the write lock first),
# for read-modify-write transactions such as the PIN failure count.
IMMEDIATE = "kiosk_begin_immediate"


class SqliteFiles:
    """The files of one SQLite log as the station opened them: the database and its WAL.

    A station holds its database open for the whole event. If someone deletes the files (or puts
    other files in their place) while it runs, SQLite goes on writing into the open, nameless
    inodes: every commit "succeeds", nothing reaches a file anyone can read, and the verdicts go
    on being shown. ``check`` notices that after each commit, before the verdict is shown: it
    compares the device and inode of each file now at those paths with the ones first seen (two
    ``stat`` calls, microseconds against the millisecond of the commit's fsync).
    """

    def __init__(self, database: Path) -> None:
        self.database = database
        self.paths = (database, database.with_name(database.name + "-wal"))
        self._seen: dict[Path, tuple[int, int]] = {}

    def remember(self) -> None:
        """Note the files as they are now (the WAL exists once a connection has read the database)."""
        for path in self.paths:
            try:
                status = path.stat()
            except FileNotFoundError:
                continue
            self._seen[path] = (status.st_dev, status.st_ino)

    def check(self) -> None:
        """Raise StorageError unless the files at these paths are the ones the log writes into."""
        for path in self.paths:
            try:
                status = path.stat()
            except FileNotFoundError:
                if path in self._seen or path == self.database:
                    raise StorageError(self._gone(path, deleted=True)) from None
                continue
            except OSError as exc:
                raise StorageError(
                    marked("cannot check the challenge log file {path}: {detail}"),
                    path=path,
                    detail=exc.strerror,
                ) from exc
            identity = (status.st_dev, status.st_ino)
            seen = self._seen.setdefault(path, identity)
            if identity != seen:
                raise StorageError(self._gone(path, deleted=False))

    def _gone(self, path: Path, *, deleted: bool) -> Wording:
        if deleted:
            message = marked(
                "the challenge log file {path} was deleted while the station was running, so no "
                "challenge can reach {database} any more. Exit the station and start it again: it "
                "starts a new log there (and a judge sets the PIN again with 'kiosk set-pin')"
            )
        else:
            message = marked(
                "the challenge log file {path} was replaced by another file while the station was "
                "running, so no challenge can reach {database} any more. Exit the station and start it "
                "again: it starts a new log there (and a judge sets the PIN again with 'kiosk set-pin')"
            )
        return Wording(message, path=path, database=self.database)


class ReportedAs:
    """See ``reported_as``."""

    def __init__(self, doing: str, also: tuple[type[Exception], ...]) -> None:
        self._doing = doing
        self._caught: tuple[type[Exception], ...] = (SQLAlchemyError, *also)

    def __enter__(self) -> None:
        return None

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if isinstance(exc, self._caught):
            detail = getattr(exc, "orig", None) or exc  # the driver's own words, without SQLAlchemy's
            raise StorageError(
                marked("cannot {doing}: {detail}"), doing=self._doing, detail=str(detail)
            ) from exc


def reported_as(doing: str, *also: type[Exception]) -> ReportedAs:
    """Turn a database failure inside the ``with`` block into the StorageError the UI and CLI show.

    ``doing`` completes "cannot ...", naming the data and where it is ("read the judge PIN in
    /var/lib/kiosk/kiosk.sqlite3"), as a ``Wording`` where a station may show it (judge mode says
    it in the station's language; the driver's own words stay as they are); ``also`` are other
    exceptions that mean the same (a damaged row's ValueError). The one place every storage module
    turns a driver's error into words.
    """
    return ReportedAs(doing, also)


def local_database_path(data_dir: Path) -> Path:
    return data_dir / LOCAL_DATABASE_NAME


def sqlite_url(path: Path) -> str:
    return f"sqlite+pysqlite:///{path}"


def sqlite_file(url: str) -> Path | None:
    """The file a SQLite URL names (None for another database or an in-memory one)."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or not parsed.database or parsed.database == ":memory:":
        return None
    return Path(parsed.database)


def is_sqlite(url: str) -> bool:
    """Whether ``url`` names a SQLite file; a URL that cannot be read is refused by ``open_engine``."""
    try:
        return make_url(url).get_backend_name() == "sqlite"
    except ArgumentError:
        return False


def describe_url(url: str) -> str:
    """The URL as it may be shown on a screen or in a message: never with its password."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return "<unreadable database URL>"


def pg_connect_args(url_options: str | None = None) -> dict[str, Any]:
    """psycopg connection parameters that bound every wait on the server (see the module docstring).

    ``url_options`` is an ``options`` parameter the database URL already carries: it is kept.
    """
    options = f"-c statement_timeout={PG_STATEMENT_TIMEOUT_MS} -c lock_timeout={PG_LOCK_TIMEOUT_MS}"
    return {
        "connect_timeout": PG_CONNECT_TIMEOUT_S,
        "tcp_user_timeout": PG_TCP_USER_TIMEOUT_MS,
        "keepalives": 1,
        "keepalives_idle": PG_KEEPALIVE_IDLE_S,
        "keepalives_interval": PG_KEEPALIVE_INTERVAL_S,
        "keepalives_count": PG_KEEPALIVE_PROBES,
        "options": f"{url_options} {options}" if url_options else options,
    }


def _on_sqlite_connect(dbapi_connection: Any, _record: Any) -> None:
    dbapi_connection.isolation_level = None  # we emit BEGIN ourselves (see _on_sqlite_begin)
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute(f"PRAGMA busy_timeout = {SQLITE_BUSY_TIMEOUT_MS}")
        mode = cursor.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        if str(mode).lower() != "wal":
            raise StorageError(
                marked(
                    "the log database could not switch to WAL journalling (it reports '{mode}'); keep the "
                    "data directory on a local disk, not a network share"
                ),
                mode=mode,
            )
        cursor.execute("PRAGMA synchronous = FULL")
        cursor.execute("PRAGMA foreign_keys = ON")
    finally:
        cursor.close()


def _on_sqlite_begin(connection: Connection) -> None:
    immediate = connection.get_execution_options().get(IMMEDIATE, False)
    connection.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")


def _single(value: str | tuple[str, ...] | None) -> str | None:
    return " ".join(value) if isinstance(value, tuple) else value


def open_engine(url: str) -> Engine:
    """An engine for a SQLite file or a PostgreSQL server, configured as the log needs it."""
    try:
        parsed = make_url(url)
    except ArgumentError as exc:
        raise StorageError(
            marked("the database URL '{url}' cannot be read; use e.g. postgresql+psycopg://user@host/kiosk"),
            url=url,
        ) from exc
    backend = parsed.get_backend_name()
    doing = Wording(marked("open the log database {database}"), database=describe_url(url))
    with reported_as(doing, ImportError, OSError):
        if backend == "sqlite":
            database = parsed.database
            if not database or database == ":memory:":
                raise StorageError("the log needs a SQLite file, not an in-memory database")
            Path(database).parent.mkdir(parents=True, exist_ok=True)
            engine = create_engine(parsed)
            event.listen(engine, "connect", _on_sqlite_connect)
            event.listen(engine, "begin", _on_sqlite_begin)
            return engine
        if backend == "postgresql":
            return create_engine(
                parsed,
                pool_pre_ping=True,  # a server restart leaves dead pooled connections behind
                connect_args=pg_connect_args(_single(parsed.query.get("options"))),
            )
    raise StorageError(
        marked("the database URL {url} names '{backend}'; the log supports sqlite and postgresql+psycopg"),
        url=describe_url(url),
        backend=backend,
    )
