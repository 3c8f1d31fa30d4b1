"""Station settings chosen in judge mode (division, rule profile, timings), kept across restarts.

Stored as JSON text under a key per setting, in the station's own SQLite file. The station's
configuration file gives the defaults; what a judge chose wins until a judge changes it again.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from sqlalchemy import Engine
from sqlalchemy.orm import Session

from kiosk.core.errors import StorageError
from kiosk.core.wording import Wording
from kiosk.core.words.language import marked
from kiosk.storage.database import IMMEDIATE, SqliteFiles, reported_as, writing
from kiosk.storage.schema import SettingRow

__all__ = ["SettingsStore", "StationSettings"]

DIVISION_KEY = "division"
RULE_PROFILE_KEY = "rule_profile"
TIMINGS_KEY = "timings_ms"


def _frozen_timings(timings: Mapping[str, int]) -> Mapping[str, int]:
    return MappingProxyType(dict(timings))


@dataclass(frozen=True)
class StationSettings:
    """What a judge chose: None (or no timing) means "as the configuration file says"."""

    division: str | None = None
    rule_profile: str | None = None
    timings_ms: Mapping[str, int] = field(default_factory=lambda: _frozen_timings({}))

    def __post_init__(self) -> None:
        object.__setattr__(self, "timings_ms", _frozen_timings(self.timings_ms))


class SettingsStore:
    def __init__(self, engine: Engine, *, where: str, files: SqliteFiles | None = None) -> None:
        self._engine = engine
        self._writer = engine.execution_options(**{IMMEDIATE: True})
        self.where = where
        self._files = files  # a save into a database deleted under the station must not say "saved"

    def get(self, key: str) -> Any:
        """One setting's JSON value, or None if never set."""
        doing = Wording(marked("read the station settings in {where}"), where=self.where)
        with reported_as(doing, ValueError), Session(self._engine) as session:
            row = session.get(SettingRow, key)
            return None if row is None else json.loads(row.value)

    def put(self, key: str, value: Any) -> None:
        """Set one setting to a JSON-able value (None removes it); committed before returning."""
        doing = Wording(marked("write the station settings in {where}"), where=self.where)
        with writing(self._files), reported_as(doing, TypeError, ValueError):
            text = None if value is None else json.dumps(value, ensure_ascii=False, sort_keys=True)
            with Session(self._writer) as session, session.begin():
                row = session.get(SettingRow, key)
                if text is None:
                    if row is not None:
                        session.delete(row)
                elif row is None:
                    session.add(SettingRow(key=key, value=text))
                else:
                    row.value = text

    def load(self) -> StationSettings:
        division = self.get(DIVISION_KEY)
        profile = self.get(RULE_PROFILE_KEY)
        timings = self.get(TIMINGS_KEY) or {}
        if not (
            (division is None or isinstance(division, str))
            and (profile is None or isinstance(profile, str))
            and isinstance(timings, dict)
            and all(isinstance(k, str) and type(v) is int for k, v in timings.items())
        ):
            raise StorageError(
                marked(
                    "the station settings in {where} are damaged; choose the division, rule profile and "
                    "timings again in judge mode"
                ),
                where=self.where,
            )
        return StationSettings(division=division, rule_profile=profile, timings_ms=timings)

    def save(self, settings: StationSettings) -> None:
        self.put(DIVISION_KEY, settings.division)
        self.put(RULE_PROFILE_KEY, settings.rule_profile)
        self.put(TIMINGS_KEY, dict(settings.timings_ms) or None)
