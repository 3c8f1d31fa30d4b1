"""Touch mode: the whole flow with clicks on the on-screen keys."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from pytestqt.qtbot import QtBot

from kiosk.core.config import Division
from kiosk.ui.window import StationWindow
from tests.ui.conftest import StationFactory


def tap(qtbot: QtBot, window: StationWindow, *labels: str) -> None:
    for label in labels:
        pads = [window.ready.count_pad, window.ready.division_pad, window.entry.keyboard]
        button = next(pad.keys[label] for pad in pads if pad is not None and label in pad.keys)
        assert button.isVisible(), label
        QTest.mouseClick(button, Qt.MouseButton.LeftButton)


def test_a_play_is_judged_with_taps_alone(station: StationFactory, qtbot: QtBot) -> None:
    rig = station(touch=True)
    window = rig.window
    assert window.entry.keyboard is not None
    tap(qtbot, window, "2")
    tap(qtbot, window, "C", "A", "T", "SPACE", "Q", "I", "X", "BACKSPACE")
    assert [w.text() for w in window.entry.grid.words[:2]] == ["CAT", "QI_"]
    assert "press JUDGE to judge" in window.entry.prompt.text()
    tap(qtbot, window, "JUDGE")
    assert window.stack.currentWidget() is window.verdict
    assert window.verdict.headline.text() == "YES \u2014 the play is ACCEPTABLE"
    assert [e.ruling.words for e in rig.log.entries] == [("CAT", "QI")]
    QTest.mouseClick(window.verdict, Qt.MouseButton.LeftButton)  # ignored during the lockout
    assert window.stack.currentWidget() is window.verdict
    rig.controller.lockout_timer.timeout.emit()
    QTest.mouseClick(window.verdict, Qt.MouseButton.LeftButton)
    assert window.stack.currentWidget() is window.ready


def test_clear_and_judge_keys_before_the_words_are_complete(station: StationFactory, qtbot: QtBot) -> None:
    rig = station(touch=True)
    tap(qtbot, rig.window, "3", "Z", "A", "JUDGE")
    assert rig.log.entries == []
    assert "Type all 3 words first" in rig.window.entry.notice.text()
    tap(qtbot, rig.window, "CLEAR")
    assert rig.window.entry.grid.words[0].text() == "_"
    tap(qtbot, rig.window, "CLEAR")
    assert rig.window.stack.currentWidget() is rig.window.ready


def test_divisions_are_chosen_by_tapping(station: StationFactory, qtbot: QtBot, pack: Path) -> None:
    divisions = (Division("Open", pack), Division("Schools", pack, youth_rules=True))
    rig = station(touch=True, divisions=divisions)
    tap(qtbot, rig.window, "Schools")
    assert rig.window.header.division.text() == "Division: Schools"
    assert rig.window.ready.division_pad is not None
    assert rig.window.ready.division_pad.keys["Schools"].text() == "\u2713 Schools"
    assert rig.window.ready.division_pad.keys["Open"].text() == "Open"
