"""The first frame of a station on a pack it has not checked before: "Checking the word list…".

A station proves every pack it has not seen before by walking its tries whole (in a forked child,
``kiosk.core.packs.verification``) before it judges with it: on a Collins-sized pack that is the
longest part of a first start, and the screen stayed black for it. This window is painted as soon
as Qt can paint, while the walk runs; it takes no key and serves nobody, and the station window
replaces it once the walk has vouched for every pack (``run_station`` closes it after its own first
frame). A pack the walk refuses ends on the not-ready screen, as it always did.
"""

from __future__ import annotations

from PySide6.QtCore import QEventLoop, Qt, QTimer, Signal
from PySide6.QtGui import QCloseEvent, QCursor, QKeyEvent, QPaintEvent
from PySide6.QtWidgets import QApplication, QVBoxLayout, QWidget

from kiosk.core.words.language import Catalogue, english, marked
from kiosk.ui import theme
from kiosk.ui.layout import View
from kiosk.ui.screen import fill_screen
from kiosk.ui.startup import application
from kiosk.ui.theme import FitLabel

__all__ = ["CHECKING", "CheckingWindow", "show_checking"]

CHECKING = marked("Checking the word list\u2026")
OPENS_SOON = marked("The station opens in a moment.")
PAINT_WAIT_S = 10.0  # a screen that paints nothing this long: go on, the walk does not wait for it


class CheckingWindow(View):
    """Full screen, frameless, deaf to keys; says the station is checking its word list."""

    first_frame_painted = Signal()

    def __init__(self, t: Catalogue | None = None) -> None:
        super().__init__()
        words = t or english()
        self.setObjectName("checking")
        # not the station window's title: what looks for the station's window must not find this one
        self.setWindowTitle("Checking the word list (challenge kiosk)")
        # not on top: the station's window, shown over it, must be exposed to paint its first frame
        self.setWindowFlags(Qt.WindowType.FramelessWindowHint)
        theme.paint_background(self, theme.BACKGROUND)
        self.headline = FitLabel(fill=0.7, bold=True)
        self.headline.setObjectName("checking-headline")
        self.headline.setText(words.text(CHECKING))
        self.soon = FitLabel(fill=0.7)
        self.soon.setObjectName("checking-soon")
        self.soon.setText(words.text(OPENS_SOON))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        for widget, stretch in ((QWidget(), 30), (self.headline, 16), (self.soon, 9), (QWidget(), 45)):
            layout.addWidget(widget, stretch)
        self._painted = False

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 (Qt's name)
        super().paintEvent(event)
        if not self._painted:
            self._painted = True
            self.first_frame_painted.emit()

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt's name)
        event.accept()  # nothing is judged before the walk has vouched: no key does anything

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 (Qt's name)
        event.ignore()  # Alt+F4 and the like; the station closes it with ``done``

    def done(self) -> None:
        """The station's own window is up: this one goes."""
        self.hide()
        self.deleteLater()


def show_checking(
    t: Catalogue | None, *, screen_index: int = 0, touch: bool = False, look: theme.Look | None = None
) -> CheckingWindow:
    """Paint the checking window on the station's screen and return once it is painted (or after
    ``PAINT_WAIT_S``): the caller then waits for the walk, the window staying on the screen.
    ``look``: the station's (high contrast, large text), as its own screens will have it."""
    app = application(["kiosk"])
    app.setApplicationName("challenge-kiosk")
    if look is not None:
        theme.use_look(look)
    window = CheckingWindow(t)
    if not touch:
        QApplication.setOverrideCursor(QCursor(Qt.CursorShape.BlankCursor))
    waiting = QEventLoop()  # asleep until the frame is painted: the walk has the CPU meanwhile
    window.first_frame_painted.connect(waiting.quit, Qt.ConnectionType.QueuedConnection)
    give_up = QTimer(waiting)  # goes with the loop: nothing of it is left once this returns
    give_up.setSingleShot(True)
    give_up.timeout.connect(waiting.quit)
    give_up.start(int(PAINT_WAIT_S * 1000))
    fill_screen(window, screen_index)
    waiting.exec()
    app.processEvents()  # the frame's own follow-ups (the compositor's answer)
    return window
