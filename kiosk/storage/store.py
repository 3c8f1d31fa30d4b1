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

from kiosk.core.heartbeat import HEARTBEAT_INTERVAL_S
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
from kiosk.storage.migrations import upgrade
from kiosk.storage.settings import SettingsStore

__all__ = ["StationStorage", "open_station_storage"]


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
        for engine in self._engines:
            engine.dispose()

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
    try:
        upgrade(local, where=f"the station database {where}")
        local_files = SqliteFiles(local_path)
        local_files.remember()
        log: StationLog
        heartbeats = HeartbeatStore(local, where=where)
        if database_url is None:
            log = SqlChallengeLog(local, where=where, files=local_files)
        elif is_sqlite(database_url):
            log_engine = open_engine(database_url)
            engines.append(log_engine)
            log_path = sqlite_file(database_url)
            log_files = None if log_path is None else SqliteFiles(log_path)
            sql_log = SqlChallengeLog(log_engine, where=describe_url(database_url), files=log_files)
            sql_log.upgrade()
            if log_files is not None:
                log_files.remember()
            log = sql_log
            heartbeats = HeartbeatStore(log_engine, where=sql_log.where)  # where a director reads
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
        raise
    return StationStorage(
        log=log,
        settings=SettingsStore(local, where=where, files=local_files),
        judge_access=JudgeAccess(local, where=where),
        local_path=local_path,
        _engines=tuple(engines),
        heartbeats=heartbeats,
    )
