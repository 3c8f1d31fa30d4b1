"""Everything a station keeps, opened in one call: the log, the settings and the judge PIN.

Open it after the first frame is painted and before the first verdict (importing SQLAlchemy takes
longer than starting Qt). Nothing here touches the network, at open time or in ``record``: a
shared server that is down does not stop the station from starting or judging; the background
forwarder (see ``kiosk.storage.log``) sends the outbox on when the server answers.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import Engine

from kiosk.core.log.heartbeat import HEARTBEAT_INTERVAL_S
from kiosk.paths import make_data_dir
from kiosk.storage.access import JudgeAccess
from kiosk.storage.database import (
    SqliteFiles,
    describe_url,
    is_sqlite,
    local_database_path,
    open_engine,
    sqlite_file,
    sqlite_url,
    stamp_identity,
)
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

__all__ = ["LogForReading", "StationStorage", "open_log_for_reading", "open_station_storage"]


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

    def heartbeat_reporter(self, interval_s: float = HEARTBEAT_INTERVAL_S) -> HeartbeatReporter:
        """The station's reporter (made and started on the first call): see kiosk.storage.heartbeat."""
        if self._reporter is None:
            assert self.heartbeats is not None
            log = self.log
            shared = log if isinstance(log, SharedChallengeLog) else None
            self._reporter = HeartbeatReporter(
                self.heartbeats,
                backlog=lambda: log.status().backlog,
                written=shared.wake_forwarder if shared is not None else lambda: None,
                interval_s=interval_s,
            )
            self._reporter.start()
        return self._reporter

    def close(self) -> None:
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
