"""Everything a station keeps, opened in one call: the log, the settings and the judge PIN.

Open it after the first frame is painted and before the first verdict (importing SQLAlchemy takes
longer than starting Qt). Nothing here touches the network, at open time or in ``record``: a
shared server that is down does not stop the station from starting or judging; the background
forwarder (see ``kiosk.storage.log``) sends the outbox on when the server answers.
"""

from __future__ import annotations

import atexit
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import Engine

from kiosk.core.errors import StorageError
from kiosk.core.log.heartbeat import HEARTBEAT_INTERVAL_S
from kiosk.core.log.overview import EventRound
from kiosk.paths import make_data_dir
from kiosk.storage.access import JudgeAccess
from kiosk.storage.database import (
    SqliteFiles,
    describe_url,
    is_sqlite,
    local_database_path,
    open_engine,
    reported_as,
    sqlite_file,
    sqlite_url,
    stamp_identity,
)
from kiosk.storage.hall import current_round, read_round
from kiosk.storage.heartbeat import HeartbeatReporter, HeartbeatStore
from kiosk.storage.log import (
    REMOTE_DEADLINE_S,
    SHARED_RETRY_S,
    Outbox,
    SharedChallengeLog,
    SqlChallengeLog,
    StationLog,
)
from kiosk.storage.migrations import require_current, upgrade
from kiosk.storage.settings import SettingsStore

__all__ = [
    "LAST_REPORT_DEADLINE_S",
    "LogForReading",
    "SharedLogCheck",
    "StationStorage",
    "check_shared_log",
    "open_log_for_reading",
    "open_station_storage",
]

LAST_REPORT_DEADLINE_S = 3.0  # a station leaving waits at most this long for its last report to go


@dataclass
class StationStorage:
    """The station's storage. ``log`` is the ChallengeLog the station records into."""

    log: StationLog
    settings: SettingsStore
    judge_access: JudgeAccess
    local_path: Path
    _engines: tuple[Engine, ...]
    heartbeats: HeartbeatStore | None = None  # where this station's heartbeats are written
    _reporter: HeartbeatReporter | None = None
    _files: tuple[SqliteFiles, ...] = ()
    _closed: bool = False

    def __post_init__(self) -> None:
        # However the process leaves, short of a kill (an exception out of the event loop, a
        # SystemExit anywhere), the files are closed in their order: a log changed under the
        # station keeps its write-ahead log (SqliteFiles.settle). Left to the interpreter's
        # shutdown, connections close in any order, and the last one to close checkpoints the
        # station's pages into the changed file and deletes the write-ahead log.
        atexit.register(self.close)

    def heartbeat_reporter(self, interval_s: float = HEARTBEAT_INTERVAL_S) -> HeartbeatReporter:
        """The station's reporter (made and started on the first call): see kiosk.storage.heartbeat."""
        if self._reporter is None:
            assert self.heartbeats is not None
            log = self.log
            shared = log if isinstance(log, SharedChallengeLog) else None
            # the database the station stamps its challenges' round from (its own file with a shared log)
            stamping = log.engine if isinstance(log, SqlChallengeLog) else self._engines[0]

            def now_round() -> int | None:
                heard = read_round(stamping)
                return None if heard is None else heard.number

            self._reporter = HeartbeatReporter(
                self.heartbeats,
                backlog=lambda: log.status().backlog,
                round=now_round,
                written=shared.wake_forwarder if shared is not None else lambda: None,
                interval_s=interval_s,
            )
            self._reporter.start()
        return self._reporter

    def send_reports(self, deadline_s: float = LAST_REPORT_DEADLINE_S) -> None:
        """Write the latest report now and, with a shared log, send it (and whatever waits in the
        outbox) on within ``deadline_s``: the station is leaving. A server that is away is not
        waited for: the director then sees the station go quiet."""
        if self._reporter is not None:
            self._reporter.write_now()
        if isinstance(self.log, SharedChallengeLog):
            self.log.forward_now(deadline_s)

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        atexit.unregister(self.close)
        if self._reporter is not None:
            self._reporter.close()
        if isinstance(self.log, SharedChallengeLog):
            self.log.close()
        for files in self._files:
            files.settle()
        for engine in self._engines:
            engine.dispose()
        for files in self._files:  # only once no connection of this process has them open
            files.close()

    def __enter__(self) -> StationStorage:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()


def open_station_storage(
    data_dir: Path,
    database_url: str | None = None,
    *,
    forward_in_background: bool = True,
    remote_deadline_s: float = REMOTE_DEADLINE_S,
    retry_s: float = SHARED_RETRY_S,
) -> StationStorage:
    """Open (creating or upgrading) the station's SQLite file in ``data_dir``, and the log.

    ``database_url`` None: the log is in that file. A ``postgresql+psycopg://`` URL: the log is
    the shared server, local first (each challenge committed to that file and its outbox), the
    outbox forwarded by a background thread unless ``forward_in_background`` is False (then only
    ``log.forward_backlog()`` sends it); ``remote_deadline_s`` and ``retry_s`` are the shared log's
    deadline for one call to the server and its retry interval (``kiosk.storage.log``). A
    ``sqlite:///`` URL: the log is that file.
    Raises StorageError (a newer schema, a file that is not a database, a directory not writable).
    """
    local_path = local_database_path(data_dir)
    where = str(local_path)
    make_data_dir(data_dir)  # the station's wording for a folder that cannot be made, as --check says it
    local = open_engine(sqlite_url(local_path))
    engines = [local]
    files: list[SqliteFiles] = []
    try:
        upgrade(local, where=f"the station database {where}")
        local_files = SqliteFiles(local_path, number=stamp_identity(local), keep_wal=True)
        files.append(local_files)
        local_files.remember()
        log: StationLog
        heartbeats = HeartbeatStore(local, where=where, files=local_files)
        if database_url is None:
            log = SqlChallengeLog(local, where=where, files=local_files)
        elif is_sqlite(database_url):
            log_engine = open_engine(database_url)
            engines.append(log_engine)
            log_where = describe_url(database_url)
            upgrade(log_engine, where=log_where)
            log_path = sqlite_file(database_url)
            log_files = None
            if log_path is not None:
                log_files = SqliteFiles(log_path, number=stamp_identity(log_engine), keep_wal=True)
                files.append(log_files)
                log_files.remember()
            log = SqlChallengeLog(log_engine, where=log_where, files=log_files)
            heartbeats = HeartbeatStore(log_engine, where=log_where, files=log_files)  # the director reads it
        else:
            remote = open_engine(database_url)
            engines.append(remote)
            shared = SharedChallengeLog(
                SqlChallengeLog(remote, where=describe_url(database_url)),
                Outbox(local, where=where, files=local_files),
                retry_s=retry_s,
                remote_deadline_s=remote_deadline_s,
            )
            shared.forward_heartbeats(heartbeats, HeartbeatStore(remote, where=describe_url(database_url)))
            if forward_in_background:
                shared.start_forwarder()
            log = shared
    except BaseException:
        for engine in engines:
            engine.dispose()
        for opened in files:
            opened.close()
        raise
    return StationStorage(
        log=log,
        settings=SettingsStore(local, where=where, files=local_files),
        judge_access=JudgeAccess(local, where=where),
        local_path=local_path,
        _engines=tuple(engines),
        heartbeats=heartbeats,
        _files=tuple(files),
    )


@dataclass
class LogForReading:
    """A station's log opened for reading only (``kiosk log show``, ``kiosk log export``)."""

    log: StationLog
    local_path: Path
    _engines: tuple[Engine, ...]

    def close(self) -> None:
        for engine in self._engines:
            engine.dispose()

    def __enter__(self) -> LogForReading:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()


def open_log_for_reading(
    data_dir: Path, database_url: str | None = None, *, remote_deadline_s: float = REMOTE_DEADLINE_S
) -> LogForReading:
    """The log as ``open_station_storage`` would open it, for reading only: nothing is created,
    written, upgraded or checkpointed. SQLite files are opened read only (``mode=ro``), so a
    reader never deletes another process's write-ahead log, and each file is checked before it is
    opened (``refuse_emptied_log``). The station's own file must exist, except with a PostgreSQL
    ``database_url``: then the server alone is read (this computer judged nothing to add to it).
    Raises StorageError (no such file, a schema of another version, a database that cannot be read).
    """
    local_path = local_database_path(data_dir)
    where = str(local_path)
    shared = database_url is not None and not is_sqlite(database_url)
    engines: list[Engine] = []
    try:
        local: Engine | None = None
        if local_path.is_file() or not shared:
            local = open_engine(sqlite_url(local_path), read_only=True)
            engines.append(local)
            require_current(local, where=f"the station database {where}")
        log: StationLog
        if database_url is None:
            assert local is not None
            log = SqlChallengeLog(local, where=where, read_only=True)
        elif not shared:
            log_engine = open_engine(database_url, read_only=True)
            engines.append(log_engine)
            log = SqlChallengeLog(log_engine, where=describe_url(database_url), read_only=True)
            log.upgrade()
        else:
            remote = open_engine(database_url, read_only=True)
            engines.append(remote)
            server = SqlChallengeLog(remote, where=describe_url(database_url), read_only=True)
            if local is None:
                log = server
            else:
                log = SharedChallengeLog(
                    server, Outbox(local, where=where), remote_deadline_s=remote_deadline_s
                )
    except BaseException:
        for engine in engines:
            engine.dispose()
        raise
    return LogForReading(log=log, local_path=local_path, _engines=tuple(engines))


@dataclass(frozen=True)
class SharedLogCheck:
    """What ``kiosk station --check`` found at the shared log: where, the schema version, the
    station its role may add challenges for (None: not a station's role of ``kiosk shared-log
    setup``, which can write any station's), and the event's round."""

    where: str
    schema_version: int
    role: str
    registered_station: str | None
    round: EventRound | None


# What the driver says, and what the station's organiser can do about it (the first that matches).
TLS_GUIDE = 'docs/install.md, "The shared log over TLS"'
_CONNECT_HINTS = (
    ("certificate verify failed", "— the server's certificate is not signed by the authority in the file "
     "sslrootcert names, or one of the two is past its date (openssl x509 -enddate -noout -in FILE "
     "says): this station has the wrong file, the certificates are old, or something else is "
     "answering in the server's place on this network; do not judge into it until the organiser has "
     f"checked ({TLS_GUIDE})"),
    ("does not match host name", "— the server's certificate is made for another name or address: write "
     f"in database_url the host its certificate names ({TLS_GUIDE})"),
    ("root certificate file", "— copy the event's authority certificate (the file the organiser made "
     f"for the stations) to the path sslrootcert names ({TLS_GUIDE})"),
    ("server does not support ssl", "— the server at that address does not speak TLS: turn ssl on in its "
     f"postgresql.conf, or check that the address is the event's server ({TLS_GUIDE})"),
    # PostgreSQL 12 and later end every refusal of an unencrypted login with "no encryption": the
    # server's pg_hba.conf lets this computer in over TLS only (hostssl), or not at all
    ("no pg_hba.conf entry", "— the server's pg_hba.conf has no line that lets this computer in this way: "
     "if the server takes only encrypted connections (hostssl), write sslmode=verify-full and "
     f"sslrootcert=FILE in database_url ({TLS_GUIDE}); otherwise add the event network's line to its "
     "pg_hba.conf (docs/install.md, \"The shared log's server\")"),
    ("password authentication failed", "— the password in database_url is not this role's: paste the line "
     "'kiosk shared-log setup' printed for this station (run it with --new-passwords if it is lost)"),
    ("connection refused", "— nothing answers at that address and port: is the server running, with "
     "listen_addresses naming this network, and is the port in database_url its port?"),
    ("timeout expired", "— no answer from that address: check the address in database_url, the network, "
     "and the server's firewall"),
    ("does not exist", "— check the role and the database named in database_url"),
    ("could not translate host name", "— check the host name in database_url (or give its address)"),
    ("closed the connection unexpectedly", "— what answers at that address is not the event's PostgreSQL "
     "server, or the network cut the connection: check the address and port in database_url"),
)  # fmt: skip


def connect_hint(said: str) -> str:
    """What the organiser can do about what the driver said when it could not connect ("" if the
    message is none the hints know): the first hint whose words the message holds."""
    lowered = said.lower()
    return next((why for words, why in _CONNECT_HINTS if words in lowered), "")


def check_shared_log(url: str, station: str) -> SharedLogCheck:
    """Contact the shared PostgreSQL log as the station ``station`` would, within the station's own
    bounds (a few seconds), and raise StorageError with what to do if it could not judge into it:
    the server cannot be reached or refuses the password, its log is missing or of another kiosk
    version, or the role may not add this station's challenges. Reads only."""
    from sqlalchemy import func, inspect, select

    from kiosk.storage.migrations import SCHEMA_VERSION, schema_version

    where = describe_url(url)
    engine = open_engine(url, read_only=True)
    try:
        try:
            with reported_as(f"reach the shared log at {where}"), engine.connect() as conn:
                version = schema_version(conn)
                role = str(conn.execute(select(func.session_user())).scalar_one())
                registered: str | None = None
                if version >= 7:
                    registered = conn.execute(select(func.kiosk_station_name())).scalar()
                may_add = bool(
                    conn.execute(select(func.has_table_privilege("challenge", "INSERT"))).scalar()
                    if inspect(conn).has_table("challenge")
                    else True
                )
                heard = current_round(conn) if version >= 8 else None
        except StorageError as exc:
            said = " ".join(str(exc).split())  # the driver's lines, as one
            hint = connect_hint(said)
            raise StorageError(f"{said}{' ' if hint else ''}{hint}") from exc
    finally:
        engine.dispose()
    if version == 0:
        raise StorageError(
            f"the shared log at {where} holds no challenge log yet: on its server run 'kiosk shared-log "
            "setup' (docs/install.md), which makes it and this station's role"
        )
    if version > SCHEMA_VERSION:
        raise StorageError(
            f"the shared log at {where} has schema version {version}, written by a newer kiosk; this "
            f"station writes version {SCHEMA_VERSION}: install the same kiosk version on every station"
        )
    if version < SCHEMA_VERSION and registered is not None:
        raise StorageError(
            f"the shared log at {where} has schema version {version}, from an older kiosk; only its owner "
            f"may upgrade it to version {SCHEMA_VERSION}: on its server run 'kiosk shared-log setup' of "
            "this kiosk version"
        )
    if not may_add:
        raise StorageError(
            f"the database role {role} cannot add challenges to the shared log at {where} (the director's "
            "read-only role?): give this station the database_url 'kiosk shared-log setup' printed for it"
        )
    if registered is not None and registered != station:
        raise StorageError(
            f"the shared log at {where} lets the database role {role} add only station {registered!r}'s "
            f"challenges, and this station is {station!r}: give it its own database_url ('kiosk "
            f"shared-log setup --station NAME'), or the station_name {registered!r} if it is that station"
        )
    return SharedLogCheck(where, version, role, registered, heard)
