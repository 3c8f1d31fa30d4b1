"""The "Station not ready — call a judge" screen: what a kiosk session shows if it cannot start.

In a kiosk session (``kiosk station --kiosk-session``, as the systemd units start it) there is no
terminal to read an error in: a bad configuration or a pack that fails verification would leave a
blank screen restarting forever. Instead the screen says, in words a player understands, that
this station cannot judge, and tells the judge which file is wrong and why. It never judges: no
lexicon was loaded. A judge leaves it with Ctrl+Alt+Shift+Q (there is nothing to protect here:
no challenge, no log) after fixing the file; the kiosk session then starts the station again
(systemd's Restart=always).
"""

from __future__ import annotations

import textwrap

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QCloseEvent, QCursor, QKeyEvent, QPaintEvent
from PySide6.QtWidgets import QApplication, QVBoxLayout, QWidget

from kiosk.ui import theme
from kiosk.ui.screen import fill_screen
from kiosk.ui.startup import application
from kiosk.ui.theme import FitLabel
from kiosk.ui.views import View

__all__ = ["LEAVE_CHORD", "NotReadyWindow", "show_not_ready"]

LEAVE_CHORD = "Ctrl+Alt+Shift+Q"
_LEAVE_MODIFIERS = (
    Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier | Qt.KeyboardModifier.ShiftModifier
)
EXIT_ERROR = 2
PROBLEM_LINE_CHARS = 64  # the judge's message wrapped by words, then fitted to the screen


class NotReadyWindow(View):
    """Full screen, frameless, refuses to close; shows the problem for the judge."""

    first_frame_painted = Signal()
    left = Signal()

    def __init__(self, problem: str) -> None:
        super().__init__()
        self.setWindowTitle("Challenge station \u2014 not ready")
        self.setWindowFlags(Qt.WindowType.FramelessWindowHint | Qt.WindowType.WindowStaysOnTopHint)
        theme.paint_background(self, theme.FAULT_BACKGROUND)
        self.headline = FitLabel("Station not ready \u2014 call a judge", fill=0.75, bold=True)
        self.headline.setAccessibleName("Station not ready: call a judge")
        self.players = FitLabel("This station cannot judge challenges right now.", fill=0.8)
        self.problem = FitLabel(textwrap.fill(f"For the judge: {problem}", PROBLEM_LINE_CHARS), fill=0.9)
        self.how = FitLabel(f"Fix the file, then press {LEAVE_CHORD} to restart the station.", fill=0.8)
        layout = QVBoxLayout(self)  # View keeps its side margins
        for widget, stretch in ((QWidget(), 10), (self.headline, 22), (self.players, 12)):
            layout.addWidget(widget, stretch)
        for widget, stretch in ((self.problem, 30), (self.how, 10), (QWidget(), 8)):
            layout.addWidget(widget, stretch)
        self._painted = False

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 (Qt's name)
        super().paintEvent(event)
        if not self._painted:
            self._painted = True
            self.first_frame_painted.emit()

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt's name)
        event.accept()
        if event.key() == Qt.Key.Key_Q and event.modifiers() & _LEAVE_MODIFIERS == _LEAVE_MODIFIERS:
            self.left.emit()

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 (Qt's name)
        event.ignore()  # Alt+F4 and the like: only the judge's chord leaves


def show_not_ready(problem: str, *, screen_index: int = 0, smoke: bool = False) -> int:
    """Show the not-ready screen until a judge leaves it; always returns the error exit code."""
    app = application(["kiosk"])
    window = NotReadyWindow(problem)
    QApplication.setOverrideCursor(QCursor(Qt.CursorShape.BlankCursor))
    if smoke:
        window.first_frame_painted.connect(
            lambda: (print("not-ready frame painted", flush=True), QTimer.singleShot(0, lambda: app.exit(0)))
        )
    window.left.connect(lambda: app.exit(0))  # quit() would ask the window, which refuses to close
    fill_screen(window, screen_index)
    app.exec()
    return EXIT_ERROR
