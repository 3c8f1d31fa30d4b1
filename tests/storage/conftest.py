"""Storage fixtures: a station's storage in a temp data dir (the PostgreSQL server is tests/conftest.py's)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from kiosk.storage import StationStorage, open_station_storage


@pytest.fixture
def storage(tmp_path: Path) -> Iterator[StationStorage]:
    with open_station_storage(tmp_path / "station") as opened:
        yield opened
