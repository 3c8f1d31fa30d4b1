"""What every judge page shares: the page itself and the text page (rows are the layout kit's).

A page paints a ``JudgeState`` (``show_state``) and forwards what the judge does as judge-mode
events (``send``); it decides nothing and reads no storage. Each page's words are in its own
module, in one place, so that a translation catalogue can take them over page by page.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QSizePolicy, QWidget

from kiosk.core.judge import Event, JudgeState
from kiosk.core.words.language import Catalogue, english, marked
from kiosk.ui import theme
from kiosk.ui.layout import row, spacer, stack
from kiosk.ui.theme import FitButton, FitLabel

__all__ = ["ENTER_KEY", "ESCAPE_KEY", "Page", "Send", "TextPage", "format_wait", "keyed"]

Send = Callable[[Event], None]
A = Qt.AlignmentFlag


ENTER_KEY = marked("Enter")  # the key as its keyboard names it: Entrée, Intro
ESCAPE_KEY = marked("Esc")  # Échap


def keyed(label: str, key: str, *, touch: bool) -> str:
    """A button's label with the key that does the same, e.g. "Save and apply (Enter)"; a touch
    station has no keyboard, so there the label alone."""
    return label if touch else f"{label} ({key})"


def format_wait(seconds: float) -> str:
    """A wait as a countdown, rounded up: ``0:05``, ``14:59``."""
    whole = max(0, math.ceil(seconds - 1e-9))
    return f"{whole // 60}:{whole % 60:02d}"


class Page(QWidget):
    """One judge screen: paints the state, forwards taps. Esc (and ◀ Menu) are the view's.

    ``hint`` names the keys; ``touch_hint`` says the same for a judge with only a touchscreen.
    ``looking`` is True while an answer has been awaited long enough to say so on screen.
    """

    hint = marked("Esc: back to the menu")
    touch_hint = marked("\u25c0 Menu (top left): back to the menu")

    def __init__(self, send: Send, *, touch: bool) -> None:
        super().__init__()
        self.send = send
        self.touch = touch
        self.catalogue: Catalogue = english()  # the station's language; judge mode's view sets it
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Ignored)

    def button(
        self, text: str, event: Event, *, colour: str = theme.KEY_BACKGROUND, left: bool = False
    ) -> FitButton:
        """A button that forwards ``event`` when tapped (the key it stands for, as a rule)."""
        button = FitButton(text, colour=colour, left=left)
        button.clicked.connect(lambda _checked=False: self.send(event))
        return button

    def show_state(self, state: JudgeState, *, looking: bool) -> None:
        """Paint what this page shows of ``state``."""


# A text page's type is at most that of this many lines filling its text's box: about the type of
# the settings' lines (1024x600: 27 px), whether the page says two lines or nine. Two short counts
# at the size of the whole box read as a poster, and were broken mid-sentence to grow larger still.
TEXT_PAGE_LINES = 10


class TextPage(Page):
    """A page of lines of text and a notice, with optional buttons under them."""

    def __init__(self, send: Send, *, touch: bool, buttons: Sequence[tuple[str, Event]] = ()) -> None:
        super().__init__(send, touch=touch)
        name = type(self).__name__.lower()
        self.text = FitLabel(fill=0.8, align=A.AlignLeft | A.AlignTop, wrap=True, lines=TEXT_PAGE_LINES)
        self.text.setObjectName(f"{name}-text")
        self.notice = FitLabel(fill=0.6, bold=True, colour=theme.NOTICE, wrap=True)
        self.notice.setObjectName(f"{name}-notice")
        self.commands = [self.button(label, event) for label, event in buttons]
        # The buttons' row is kept where a page has none: every text page's text gets one box, and
        # so one type size (TEXT_PAGE_LINES).
        buttons_row = row(*((b, 1) for b in self.commands), spacing=16) if self.commands else spacer()
        stack(self, [(self.text, 70), (self.notice, 10), (buttons_row, 14)])

    def show_lines(self, lines: Sequence[str]) -> None:
        self.text.setText("\n".join(lines))
