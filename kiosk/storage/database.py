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

import contextlib
import os
import secrets
import sqlite3
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any
from urllib.parse import quote

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.exc import ArgumentError, SQLAlchemyError

from kiosk.core.errors import StorageError
from kiosk.core.wording import Text, Wording
from kiosk.core.words.language import marked
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
    "refuse_emptied_log",
    "reported_as",
    "sqlite_file",
    "sqlite_url",
    "stamp_identity",
    "writing",
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


SQLITE_HEADER_BYTES = 100
SQLITE_MAGIC = b"SQLite format 3\x00"
_PAGE_SIZE_AT = slice(16, 18)  # big-endian; 1 means 65536
_USER_VERSION_AT = slice(60, 64)  # the log's own number (``stamp_identity``)
_IDENTITY_LIMIT = 2**31  # user_version is a signed 32-bit integer; the number is positive


def _header_fields(header: bytes) -> tuple[int, int] | None:
    """The page size and the log's number from a database file's first 100 bytes (None: not SQLite)."""
    if len(header) < SQLITE_HEADER_BYTES or not header.startswith(SQLITE_MAGIC):
        return None
    page_size = int.from_bytes(header[_PAGE_SIZE_AT], "big")
    return (65536 if page_size == 1 else page_size), int.from_bytes(header[_USER_VERSION_AT], "big")


def stamp_identity(engine: Engine) -> int:
    """Give a SQLite log its own number (in the header's ``user_version``, if it has none yet) and
    checkpoint it into the file: ``SqliteFiles`` tells this log from another one copied over it by
    that number. Return it. Only the station, which writes the log, calls this."""
    with engine.begin() as conn:
        number = int(conn.exec_driver_sql("PRAGMA user_version").scalar_one())
        if number <= 0:
            number = secrets.randbelow(_IDENTITY_LIMIT - 1) + 1
            conn.exec_driver_sql(f"PRAGMA user_version = {number}")
    raw = engine.raw_connection()
    try:
        # Outside any transaction (the driver's own connection is in autocommit): PASSIVE waits for
        # nobody; a reader holding an older snapshot at this moment only delays it (see SqliteFiles).
        raw.driver_connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()  # type: ignore[union-attr]
    finally:
        raw.close()
    return number


def _wal_keeper(database: Path) -> sqlite3.Connection:
    """A read-only connection that keeps a log's write-ahead log from being thrown away on close.

    When the last connection to a WAL database closes, SQLite checkpoints the ``-wal`` into the
    database file and deletes it, if it can take an exclusive lock on the file. Into a log emptied
    or written over in place, that checkpoint writes the station's pages into whatever is there now
    and deletes the only copy of what was written since the last checkpoint. This connection has
    read the database (so it holds a shared lock on it, as every connection in WAL mode does) and
    is read only (so it can never checkpoint): while it is open, no other connection's close can
    take the exclusive lock, and when it closes itself it cannot checkpoint. It is closed first
    when the files are intact (the log's last connection then checkpoints as usual), last when not.
    """
    keeper = sqlite3.connect(
        f"file:{quote(str(database.absolute()))}?mode=ro",
        uri=True,
        isolation_level=None,
        check_same_thread=False,
    )
    try:
        keeper.execute("SELECT count(*) FROM sqlite_master").fetchall()
    except sqlite3.Error as exc:
        keeper.close()
        raise StorageError(
            marked("cannot check the challenge log file {path}: {detail}"), path=database, detail=str(exc)
        ) from exc
    return keeper


def _stamp(status: os.stat_result) -> tuple[int, int, int]:
    return status.st_size, status.st_mtime_ns, status.st_ctime_ns


@dataclass(frozen=True)
class _FileSeen:
    """What the check last saw of the database file: its size and time, its page size and number."""

    size: int
    mtime_ns: int
    ctime_ns: int  # changed by any write, and no program can set it back (``cp -p`` sets mtime back)
    page_size: int
    numbers: frozenset[int]  # the log's number in the header, or (until a checkpoint) the one before


class SqliteFiles:
    """The files of one SQLite log as the station opened them: the database and its WAL.

    A station holds its database open for the whole event, and SQLite trusts the files under it.
    ``check`` (before and after each commit, before the verdict is shown) notices each way they
    can be taken from it:

    - deleted, or another file renamed into place: the device and inode at each path differ from
      the ones first seen (a ``stat`` of each path);
    - emptied in place (``: > kiosk.sqlite3``): the database file's size is 0; or shrunk, which a
      log never does (the kiosk never vacuums);
    - written over in place (``cp other.sqlite3 kiosk.sqlite3``: same inode): SQLite writes the
      database file only when it checkpoints, so its size and its times (modification, and the
      inode's change time, which ``cp -p`` or ``touch`` cannot set back) change only then. When
      they change, the 100-byte header is read again through a descriptor kept open for the
      purpose, and must still be a SQLite header with the same page size and this log's own number
      (``stamp_identity``, in ``user_version``).

    The common case costs the two ``stat`` calls it always did; the header is read only after a
    checkpoint or an intruder. The descriptor is opened once and closed by ``close`` after the
    engine is disposed, never before: closing any descriptor of a file drops every POSIX lock this
    process holds on it, SQLite's included (SQLite's "How To Corrupt" §2.2).

    Not noticed: a copy of this very log taken earlier and written back over it with no change of
    size (the same number, the same size); SQLite's own checks are all that stand behind that.
    """

    def __init__(self, database: Path, *, number: int | None = None, keep_wal: bool = False) -> None:
        """``number``: the log's own number as its writer set it (``stamp_identity``); None for a
        reader, which accepts the number the header shows when ``remember`` is called. ``keep_wal``:
        the writer's files, whose write-ahead log must outlive its engine if they were changed
        under it (``settle``, then the engine disposed, then ``close``)."""
        self._keep_wal = keep_wal
        self._keeper: sqlite3.Connection | None = None
        self.database = database
        self.wal = database.with_name(database.name + "-wal")
        self.paths = (database, self.wal)
        self._number = number
        self._seen: dict[Path, tuple[int, int]] = {}
        self._file: _FileSeen | None = None
        self._fd: int | None = None
        self._lock = threading.Lock()  # the log, the settings and the heartbeats check from their threads

    def remember(self) -> None:
        """Note the files as they are now (the WAL exists once a connection has read the database)."""
        with self._lock:
            for path in self.paths:
                try:
                    status = path.stat()
                except FileNotFoundError:
                    continue
                self._seen[path] = (status.st_dev, status.st_ino)
                if path == self.database:
                    self._file = self._read_file(status, None)
            if self._keep_wal and self._keeper is None:
                self._keeper = _wal_keeper(self.database)

    def settle(self) -> None:
        """Before the log's engine is disposed: if the files are still the log's, let go of the
        write-ahead log, so that the last connection to close checkpoints it as usual; if not,
        hold on to it (see ``_wal_keeper``)."""
        try:
            self.check()
        except StorageError:
            return
        with self._lock:
            if self._keeper is not None:
                self._keeper.close()
                self._keeper = None

    def close(self) -> None:
        """Close what this holds: only once no engine of this process has the file open."""
        with self._lock:
            if self._fd is not None:
                os.close(self._fd)
                self._fd = None
            if self._keeper is not None:
                self._keeper.close()
                self._keeper = None

    def _header(self) -> bytes:
        if self._fd is None:
            flags = os.O_RDONLY | getattr(os, "O_BINARY", 0) | getattr(os, "O_CLOEXEC", 0)
            self._fd = os.open(self.database, flags)
        os.lseek(self._fd, 0, os.SEEK_SET)
        return os.read(self._fd, SQLITE_HEADER_BYTES)

    def _read_file(self, status: os.stat_result, before: _FileSeen | None) -> _FileSeen | None:
        """The database file as it is now; None if it is not this log any more (``before``: as last seen)."""
        try:
            fields = _header_fields(self._header())
        except OSError as exc:
            raise StorageError(
                marked("cannot check the challenge log file {path}: {detail}"),
                path=self.database,
                detail=exc.strerror,
            ) from exc
        if fields is None:  # not a SQLite file: what a reader found there, or not the log any more
            return _FileSeen(*_stamp(status), 0, frozenset()) if before is None else None
        page_size, number = fields
        if before is None:
            expected = frozenset({number} if self._number is None else {number, self._number})
            return _FileSeen(*_stamp(status), page_size, expected)
        if page_size != before.page_size or number not in before.numbers or status.st_size < before.size:
            return None
        settled = before.numbers if number != self._number else frozenset({number})  # checkpointed in
        return _FileSeen(*_stamp(status), page_size, settled)

    @contextlib.contextmanager
    def writing(self) -> Iterator[None]:
        """Around one write: checked before (nothing is written into a file that is not the log any
        more) and after (before the caller says it is kept); a write that fails is checked too, so
        that its error names the real problem (a log emptied under it, not "disk image malformed")."""
        self.check()
        try:
            yield
        except StorageError:
            self.check()
            raise
        self.check()

    def check(self) -> None:
        """Raise StorageError unless the files at these paths are the ones the log writes into."""
        with self._lock:
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
                if path == self.database:
                    self._check_content(status)

    def _check_content(self, status: os.stat_result) -> None:
        before = self._file
        if before is None or _stamp(status) == (before.size, before.mtime_ns, before.ctime_ns):
            if before is None:
                self._file = self._read_file(status, None)
            return
        if status.st_size == 0:
            raise StorageError(self._changed(emptied=True))
        now = self._read_file(status, before)
        if now is None:
            raise StorageError(self._changed(emptied=False))
        self._file = now

    def _changed(self, *, emptied: bool) -> Wording:
        if emptied:
            message = marked(
                "the challenge log file {path} was emptied while the station was running (its size is "
                "now 0), so no challenge can be kept there any more. Exit the station. Keep a copy of "
                "{path} and {wal}: the challenges since the log's last checkpoint are only in {wal}. "
                "Then move both out of {folder} and start the station again: it starts a new log there "
                "(and a judge sets the PIN again with 'kiosk set-pin')"
            )
        else:
            message = marked(
                "the challenge log file {path} was written over in place by another file while the "
                "station was running (a copy over it), so no challenge can be kept there any more. Exit "
                "the station. Keep a copy of {path} and {wal}: the challenges since the log's last "
                "checkpoint are only in {wal}. Then move both out of {folder} and start the station "
                "again: it starts a new log there (and a judge sets the PIN again with 'kiosk set-pin')"
            )
        return Wording(message, path=self.database, wal=self.wal, folder=self.database.parent)

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


def writing(files: SqliteFiles | None) -> contextlib.AbstractContextManager[None]:
    """``files.writing()``, or nothing to check (a PostgreSQL log, a log opened without its files)."""
    return contextlib.nullcontext() if files is None else files.writing()


class ReportedAs:
    """See ``reported_as``."""

    def __init__(self, doing: Text, also: tuple[type[Exception], ...]) -> None:
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


def reported_as(doing: Text, *also: type[Exception]) -> ReportedAs:
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


def _on_sqlite_reader_connect(dbapi_connection: Any, _record: Any) -> None:
    """A reader's connection: read only, so it never writes, never checkpoints, never upgrades."""
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute(f"PRAGMA busy_timeout = {SQLITE_BUSY_TIMEOUT_MS}")
    finally:
        cursor.close()


def refuse_emptied_log(database: Path) -> None:
    """Raise StorageError if ``database`` is empty while a write-ahead log beside it holds something.

    That is a log emptied in place while a station had it open (``: > kiosk.sqlite3``): what was
    committed since its last checkpoint is only in the ``-wal``. SQLite deletes a ``-wal`` it finds
    beside an empty database when a connection opens it (``pagerOpenWalIfPresent``: any
    connection, read-only or not; only ``immutable=1`` skips it, and then the ``-wal`` is not read
    at all), so no connection may be opened on it: this is checked before each one is.
    """
    wal = database.with_name(database.name + "-wal")
    try:
        size, wal_size = database.stat().st_size, wal.stat().st_size
    except OSError:
        return  # no database (SQLite makes one) or no -wal: nothing to lose
    if size == 0 and wal_size > 0:
        raise StorageError(
            marked(
                "the log database {path} is empty, but its write-ahead log {wal} holds {size} bytes: the "
                "log was emptied while a station was using it, and what it wrote since the last "
                "checkpoint is only in {wal}. It was not opened, so nothing more is lost. Keep a copy "
                "of both files, then move them out of {folder} to start a new log"
            ),
            path=database,
            wal=wal,
            size=wal_size,
            folder=database.parent,
        )


def _on_sqlite_begin(connection: Connection) -> None:
    immediate = connection.get_execution_options().get(IMMEDIATE, False)
    connection.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")


def _single(value: str | tuple[str, ...] | None) -> str | None:
    return " ".join(value) if isinstance(value, tuple) else value


def open_engine(url: str, *, read_only: bool = False) -> Engine:
    """An engine for a SQLite file or a PostgreSQL server, configured as the log needs it.

    ``read_only``: a SQLite file is opened read only (``mode=ro``) and must exist: a reader's
    connection never writes to it, never checkpoints it and never deletes its ``-wal`` when it
    closes; a PostgreSQL session is read only. Every SQLite connection is preceded by
    ``refuse_emptied_log``.
    """
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
            path = Path(database)
            if read_only:
                # SQLite's own URI: the path percent-encoded, opened read only
                uri = f"file:{quote(str(path.absolute()))}?mode=ro"
                parsed = parsed.set(database=uri, query={"uri": "true"})
            else:
                path.parent.mkdir(parents=True, exist_ok=True)
            engine = create_engine(parsed)
            event.listen(engine, "do_connect", lambda *_args: refuse_emptied_log(path))
            event.listen(engine, "connect", _on_sqlite_reader_connect if read_only else _on_sqlite_connect)
            event.listen(engine, "begin", _on_sqlite_begin)
            return engine
        if backend == "postgresql":
            options = _single(parsed.query.get("options"))
            if read_only:  # a reader's session refuses to write, whatever its role may do
                options = f"{options or ''} -c default_transaction_read_only=on".strip()
            return create_engine(
                parsed,
                pool_pre_ping=True,  # a server restart leaves dead pooled connections behind
                connect_args=pg_connect_args(options),
            )
    raise StorageError(
        marked("the database URL {url} names '{backend}'; the log supports sqlite and postgresql+psycopg"),
        url=describe_url(url),
        backend=backend,
    )
