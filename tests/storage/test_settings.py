from __future__ import annotations

from pathlib import Path

import pytest

from kiosk.core.errors import StorageError
from kiosk.storage import StationSettings, StationStorage, open_station_storage


def test_settings_chosen_in_judge_mode_survive_a_restart(tmp_path: Path) -> None:
    chosen = StationSettings(division="School", rule_profile="per-word penalty", timings_ms={"verdict": 8000})
    with open_station_storage(tmp_path) as storage:
        assert storage.settings.load() == StationSettings()
        storage.settings.save(chosen)
    with open_station_storage(tmp_path) as storage:
        assert storage.settings.load() == chosen
        storage.settings.save(StationSettings())
        assert storage.settings.load() == StationSettings()


def test_station_settings_cannot_be_changed_behind_the_stores_back() -> None:
    timings = {"verdict": 8000}
    settings = StationSettings(timings_ms=timings)
    timings["verdict"] = 1
    assert settings.timings_ms["verdict"] == 8000


def test_damaged_settings_are_reported_with_what_to_do(storage: StationStorage) -> None:
    storage.settings.put("timings_ms", {"verdict": "ten seconds"})
    with pytest.raises(StorageError, match="choose the division, rule profile and timings again"):
        storage.settings.load()
