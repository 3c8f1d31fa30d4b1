"""The "Station not ready — call a judge" screen, shown in a kiosk session that cannot start."""

from __future__ import annotations

from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QCloseEvent, QKeyEvent
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from kiosk.ui.notready import NotReadyWindow
from kiosk.ui.theme import fits

PROBLEM = (
    "/etc/challenge-kiosk/school.kxpack is damaged: its contents do not match their SHA-256 checksum; "
    "rebuild it with lexicon-build, or copy it again from the organiser's original"
)


def _window(qtbot: QtBot, width: int, height: int) -> NotReadyWindow:
    window = NotReadyWindow(PROBLEM)
    qtbot.addWidget(window)
    window.setGeometry(QRect(0, 0, width, height))
    window.show()
    qtbot.waitExposed(window)
    return window


def test_players_read_call_a_judge_and_the_judge_reads_the_file_and_the_fix(qtbot: QtBot) -> None:
    window = _window(qtbot, 1024, 600)
    assert window.headline.text() == "Station not ready \u2014 call a judge"
    shown = window.problem.source.replace("\n", " ")
    assert "/etc/challenge-kiosk/school.kxpack is damaged" in shown
    assert "rebuild it with lexicon-build" in shown
    for label in (window.headline, window.players, window.problem, window.how):
        assert label.isVisible()
        assert fits(label.font(), label.text(), label.width(), label.height()), label.text()
        assert label.font().pixelSize() >= 10


def test_it_cannot_be_closed_only_the_judges_chord_leaves(qtbot: QtBot) -> None:
    window = _window(qtbot, 1920, 1080)
    left: list[bool] = []
    window.left.connect(lambda: left.append(True))
    close = QCloseEvent()
    QApplication.sendEvent(window, close)
    assert not close.isAccepted()
    for key, mods in (
        (Qt.Key.Key_F4, Qt.KeyboardModifier.AltModifier),
        (Qt.Key.Key_Q, Qt.KeyboardModifier.ControlModifier),
        (Qt.Key.Key_Escape, Qt.KeyboardModifier.NoModifier),
    ):
        QApplication.sendEvent(window, QKeyEvent(QKeyEvent.Type.KeyPress, key, mods))
    assert left == []
    chord = (
        Qt.KeyboardModifier.ControlModifier
        | Qt.KeyboardModifier.AltModifier
        | Qt.KeyboardModifier.ShiftModifier
    )
    QApplication.sendEvent(window, QKeyEvent(QKeyEvent.Type.KeyPress, Qt.Key.Key_Q, chord))
    assert left == [True]
