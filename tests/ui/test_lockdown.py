"""The station cannot be closed by players; leaving is judge mode's alone (see test_judge.py)."""

from __future__ import annotations

import sys

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot

from kiosk.core.play.session import Screen
from kiosk.paths import lock_data_dir, station_data
from kiosk.storage import StationStorage
from kiosk.ui.app import run_station
from tests.ui.conftest import StationFactory, press, tab, type_text

Mod = Qt.KeyboardModifier


def test_the_window_is_frameless_and_refuses_to_close(station: StationFactory) -> None:
    window = station().window
    assert window.windowFlags() & Qt.WindowType.FramelessWindowHint
    assert not window.close()
    assert window.isVisible()


def test_quit_keys_do_nothing(station: StationFactory) -> None:
    window = station().window
    press(window, Qt.Key.Key_Q, "\x11", Mod.ControlModifier)
    press(window, Qt.Key.Key_W, "\x17", Mod.ControlModifier)
    press(window, Qt.Key.Key_F4, "", Mod.AltModifier)
    assert window.isVisible()
    assert window.stack.currentWidget() is window.ready
    type_text(window, "1ca")
    press(window, Qt.Key.Key_W, "\x17", Mod.ControlModifier)
    assert window.entry.grid.words[0].text() == "CA_"


def test_esc_opens_the_judge_pin_door_and_the_old_exit_chord_is_gone(
    station: StationFactory, qtbot: QtBot
) -> None:
    window = station().window
    press(window, Qt.Key.Key_Escape)
    assert window.stack.currentWidget() is window.judge
    assert window.judge.current is window.judge.door
    with qtbot.assertNotEmitted(window.left):
        press(window, Qt.Key.Key_Q, "Q", Mod.ControlModifier | Mod.AltModifier | Mod.ShiftModifier)
        press(window, Qt.Key.Key_Q, "\x11", Mod.ControlModifier)
        press(window, Qt.Key.Key_F4, "", Mod.AltModifier)
        assert not window.close()
    assert window.isVisible()
    press(window, Qt.Key.Key_Escape)
    assert window.stack.currentWidget() is window.ready


def test_the_judge_chord_goes_to_the_judge_handler(station: StationFactory) -> None:
    rig = station()
    calls: list[Screen] = []
    rig.controller.set_judge_handler(lambda: calls.append(rig.controller.state.screen))
    press(rig.window, Qt.Key.Key_J, "\n", Mod.ControlModifier | Mod.AltModifier)
    press(rig.window, Qt.Key.Key_Escape)
    assert calls == [Screen.READY, Screen.READY]


def test_the_verdict_is_announced_by_name(station: StationFactory) -> None:
    window = station().window
    type_text(window, "1cat")
    tab(window)
    assert window.verdict.accessibleName() == "YES \u2014 the play is ACCEPTABLE"
    assert isinstance(window.verdict.headline, QLabel)


def test_a_second_station_on_the_same_data_dir_is_refused(
    station: StationFactory, tmp_path: object, capsys: object
) -> None:
    from pathlib import Path

    data = Path(str(tmp_path)) / "data"
    data.mkdir()
    lock = lock_data_dir(data)
    rig = station()

    def no_storage() -> StationStorage:
        raise AssertionError("a refused station must not open the storage")

    where = station_data(None, data_dir=data)
    code = run_station(rig.controller.config, rig.controller.divisions, where, no_storage)
    lock.release()
    assert code == 2
    err = capsys.readouterr().err  # type: ignore[attr-defined]
    assert "another station is already running" in err
    assert str(data) in err


def test_void_qt_calls_do_not_leak_references_to_none(station: StationFactory) -> None:
    """PySide6 6.12.0 under Python 3.11 dropped a reference to None on each void call (abort)."""
    window = station().window
    before = sys.getrefcount(None)
    for _ in range(2000):
        window.entry.notice.setText("x")
        window.entry.notice.setText("")
    assert sys.getrefcount(None) - before > -100
