"""The running station sets aside what its start-up made, so that no full garbage collection
walks it on a verdict's path (kiosk.ui.app.settle_heap; its cost is bench/bench_alphabet.py's)."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from kiosk.core.station.config import Division, StationConfig, load_divisions
from kiosk.paths import station_data
from kiosk.station import LazyStorage
from kiosk.storage import open_station_storage
from kiosk.ui.app import run_station
from kiosk.ui.window import StationWindow
from tests.ui.conftest import PIN

WAIT_MS = 20_000  # a station that never serves ends the test rather than hang it


@pytest.fixture
def thawed() -> Iterator[None]:
    """The test process's heap as it was: what the station froze is given back to the collector."""
    gc.unfreeze()
    yield
    gc.unfreeze()


@pytest.mark.usefixtures("thawed")
def test_the_station_freezes_its_start_up_heap_before_it_serves(
    qapp: QApplication, pack: Path, tmp_path: Path
) -> None:
    data = tmp_path / "data"
    with open_station_storage(data, None, forward_in_background=False) as storage:
        storage.judge_access.set_pin(PIN)
    config = StationConfig(divisions=(Division("Open", pack),), station_name="Station 7")
    lazy = LazyStorage(data, None)
    seen: dict[str, object] = {}
    give_up = QTimer()  # stopped below: it must not end a later test's event loop
    give_up.setSingleShot(True)
    give_up.timeout.connect(lambda: qapp.exit(3))

    def look() -> None:
        windows = [w for w in QApplication.topLevelWidgets() if isinstance(w, StationWindow)]
        serving = [w for w in windows if w.isVisible() and not w.not_ready and lazy.storage is not None]
        if serving and gc.get_freeze_count() > 0:
            window = serving[0]
            controller = window.controller
            seen["frozen"] = gc.get_freeze_count()
            # the controller made at start-up is set aside: no generation the collector walks holds it
            seen["walked"] = any(o is controller for o in gc.get_objects())
            seen["window"] = window
            window.left.emit()
            return
        if give_up.isActive():  # not once the test has given up
            QTimer.singleShot(20, look)

    QTimer.singleShot(0, look)
    give_up.start(WAIT_MS)
    try:
        code = run_station(config, load_divisions(config), station_data(None, data_dir=data), lazy.open)
    finally:
        give_up.stop()
        lazy.close()
        QApplication.restoreOverrideCursor()  # the station's blank cursor
        window = seen.get("window")
        if isinstance(window, StationWindow):  # it refuses to close: hidden, and deleted
            window.hide()
            window.deleteLater()
    assert code == 0
    assert seen.get("walked") is False
    assert isinstance(seen.get("frozen"), int)
