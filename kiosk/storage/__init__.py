"""The challenge log and the station's persisted settings: SQLAlchemy 2.x, no Qt.

The station and judge mode call ``open_station_storage(data_dir, database_url)`` and use its
``log`` (record, query, get, count_by_station, status, forward_backlog), ``settings`` (load, save)
and ``judge_access`` (has_pin, wait_s, check_pin, set_pin). They see ``ChallengeEntry`` values,
never ORM rows.
"""

from kiosk.storage.access import JudgeAccess, PinCheck, PinOutcome
from kiosk.storage.export import CSV_COLUMNS, save_csv, write_csv
from kiosk.storage.log import LogQuery, LogStatus, Outbox, SharedChallengeLog, SqlChallengeLog, StationLog
from kiosk.storage.migrations import SCHEMA_VERSION
from kiosk.storage.settings import SettingsStore, StationSettings
from kiosk.storage.store import (
    LogForReading,
    SharedLogCheck,
    StationStorage,
    check_shared_log,
    open_log_for_reading,
    open_station_storage,
)

__all__ = [
    "CSV_COLUMNS",
    "SCHEMA_VERSION",
    "JudgeAccess",
    "LogForReading",
    "LogQuery",
    "LogStatus",
    "Outbox",
    "PinCheck",
    "PinOutcome",
    "SettingsStore",
    "SharedChallengeLog",
    "SharedLogCheck",
    "SqlChallengeLog",
    "StationLog",
    "StationSettings",
    "StationStorage",
    "check_shared_log",
    "open_log_for_reading",
    "open_station_storage",
    "save_csv",
    "write_csv",
]
