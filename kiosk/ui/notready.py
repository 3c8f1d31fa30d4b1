"""The "Station not ready — call a judge" screen: what a kiosk session shows if it cannot serve.

In a kiosk session (``kiosk station --kiosk-session``, as the systemd units start it) there is no
terminal to read an error in: a bad configuration, a pack that fails verification or a data
directory the station cannot write would leave a blank screen restarting forever. Instead the
screen says, in words a player understands, that this station cannot judge, and tells the judge
what is wrong and what to do. ``NotReadyWindow`` is the whole window when the station could not
start at all (no lexicon loaded): a judge leaves it with Ctrl+Alt+Shift+Q (there is nothing to
protect here: no challenge, no log) after fixing the problem, and the kiosk session starts the
station again (systemd's Restart=always). ``NotReadyView`` is the same notice inside a running
station that must not serve players yet (no judge PIN set, a log that cannot be opened): the
station checks again by itself and turns back into the ready screen once the judge has fixed it.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QCloseEvent, QCursor, QKeyEvent, QPaintEvent
from PySide6.QtWidgets import QApplication, QVBoxLayout, QWidget

from kiosk.console import EXIT_ERROR
from kiosk.core.wording import Text
from kiosk.core.words.language import Catalogue, english, marked
from kiosk.service import ServiceManager
from kiosk.ui import theme
from kiosk.ui.layout import View
from kiosk.ui.screen import fill_screen
from kiosk.ui.startup import application
from kiosk.ui.theme import FitLabel
from kiosk.ui.watchdog import Watchdog

if TYPE_CHECKING:
    from kiosk.core.play.speech import Speech
    from kiosk.voice import Voice

__all__ = ["LEAVE_CHORD", "NotReadyView", "NotReadyWindow", "show_not_ready"]

LEAVE_CHORD = "Ctrl+Alt+Shift+Q"
RESTART = marked("Fix it, then press {chord} to restart the station.")
_LEAVE_MODIFIERS = (
    Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier | Qt.KeyboardModifier.ShiftModifier
)


def command_lines(command: str) -> str:
    """A command line as a judge reads it off the screen: each option with its value on a line."""
    return re.sub(r" (?=--)", "\n    ", command)


class NotReadyView(View):
    """What players and the judge read on a station that cannot judge: inside the station window
    (no judge PIN yet, a log that cannot be opened) or as the whole window (``NotReadyWindow``).

    ``command`` is a command line for the judge to type: one line of its own, never wrapped.
    """

    def __init__(
        self, problem: Text = "", *, command: str = "", how: str = "", t: Catalogue | None = None
    ) -> None:
        super().__init__()
        self.setObjectName("not-ready")
        theme.paint_background(self, theme.FAULT_BACKGROUND)
        self.headline = FitLabel(fill=0.75, bold=True)
        self.headline.setObjectName("not-ready-headline")
        self.players = FitLabel(fill=0.8)
        self.players.setObjectName("not-ready-players")
        self.problem = FitLabel(fill=0.9, wrap=True)
        self.problem.setObjectName("not-ready-problem")
        self.command = FitLabel(fill=0.8, bold=True, colour=theme.NOTICE)
        self.command.setObjectName("not-ready-command")
        self.how = FitLabel(fill=0.8, wrap=True)
        self.how.setObjectName("not-ready-how")
        layout = QVBoxLayout(self)  # View keeps its side margins
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        for widget, stretch in (
            (QWidget(), 8),
            (self.headline, 20),
            (self.players, 11),
            (self.problem, 24),
            (self.command, 15),
            (self.how, 10),
            (QWidget(), 6),
        ):
            layout.addWidget(widget, stretch)
        self._words = t or english()
        self.show_problem(problem, command=command, how=how)

    def show_problem(
        self, problem: Text, *, command: str = "", how: str = "", t: Catalogue | None = None
    ) -> None:
        """``t``: the station's language, for every line (``problem``, a ``Wording`` from the
        configuration or the storage, said in it too; the command is typed as it is)."""
        t = t or self._words
        self._words = t
        self.headline.setText(t.text("Station not ready \u2014 call a judge"))
        self.headline.setAccessibleName(t.text("Station not ready: call a judge"))
        self.players.setText(t.text("This station cannot judge challenges right now."))
        self.problem.setText(t.text("For the judge: {problem}", problem=t.say(problem)))
        self.command.setText(command_lines(command))
        self.command.setVisible(bool(command))
        self.how.setText(how)


class NotReadyWindow(NotReadyView):
    """Full screen, frameless, refuses to close; shows the problem for the judge."""

    first_frame_painted = Signal()
    left = Signal()

    def __init__(self, problem: Text, t: Catalogue | None = None, *, speech: bool = False) -> None:
        """``t``: the station's language, when its configuration could be read far enough to say it;
        ``speech``: its ``[access] speech``, when it could: the notice is then said aloud too."""
        words = t or english()
        super().__init__(problem, how=words.text(RESTART, chord=LEAVE_CHORD), t=words)
        self.setWindowTitle("Challenge station \u2014 not ready")
        self.setWindowFlags(Qt.WindowType.FramelessWindowHint | Qt.WindowType.WindowStaysOnTopHint)
        self._painted = False
        self.voice: Voice | None = None
        if speech:
            from kiosk.voice import Voice

            self.voice = Voice()
        self.said: list[Speech] = []  # what it said, for the tests

    def say(self) -> None:
        """The players' part of the notice, aloud (if the station speaks) and to screen readers, as
        the station says it when it stops serving (``kiosk.core.play.speech.not_ready_said``)."""
        from kiosk.core.play.speech import not_ready_said
        from kiosk.ui.speaker import announce

        speech = not_ready_said(self._words)
        self.said = [*self.said[-9:], speech]
        if self.voice is not None:
            self.voice.say(speech)
        announce(self, speech.text, urgent=True)

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 (Qt's name)
        super().paintEvent(event)
        if not self._painted:
            self._painted = True
            self.first_frame_painted.emit()
            self.say()

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt's name)
        event.accept()
        if event.key() == Qt.Key.Key_Q and event.modifiers() & _LEAVE_MODIFIERS == _LEAVE_MODIFIERS:
            self.left.emit()
        elif not event.isAutoRepeat():  # any key a player presses hears why nothing answers
            self.say()

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 (Qt's name)
        event.ignore()  # Alt+F4 and the like: only the judge's chord leaves


def show_not_ready(
    problem: Text,
    *,
    screen_index: int = 0,
    smoke: bool = False,
    t: Catalogue | None = None,
    service: ServiceManager | None = None,
    speech: bool = False,
) -> int:
    """Show the not-ready screen until a judge leaves it; always returns the error exit code.

    A steady state, not a failed start: systemd is told the station is up once the screen is
    painted (its status says why it does not serve), and the watchdog's pings come from this loop.
    """
    app = application(["kiosk"])
    window = NotReadyWindow(problem, t, speech=speech)
    service = service or ServiceManager.from_environment()
    watchdog = Watchdog(service, lambda: f"not ready: {problem}", window)
    window.first_frame_painted.connect(watchdog.up, Qt.ConnectionType.QueuedConnection)
    QApplication.setOverrideCursor(QCursor(Qt.CursorShape.BlankCursor))
    if smoke:
        window.first_frame_painted.connect(
            lambda: (print("not-ready frame painted", flush=True), QTimer.singleShot(0, lambda: app.exit(0)))
        )
    window.left.connect(lambda: app.exit(0))  # quit() would ask the window, which refuses to close
    fill_screen(window, screen_index)
    app.exec()
    service.close()
    return EXIT_ERROR
