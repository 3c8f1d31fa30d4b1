"""The menu: eight numbered choices, and a warning of the wrong PINs typed before this judge's."""

from __future__ import annotations

from PySide6.QtWidgets import QGridLayout, QSizePolicy, QWidget

from kiosk.core.judge import MENU_PAGES, JudgePage, JudgeState, Typed
from kiosk.core.pin import PinAttempts
from kiosk.core.plural import counted
from kiosk.ui import theme
from kiosk.ui.judge.page import Page, Send
from kiosk.ui.theme import FitButton, FitLabel
from kiosk.ui.views import _stack

__all__ = ["MENU_LABELS", "MenuPage", "warning"]

# The menu's words (the frame titles each page with its label).
MENU_LABELS = {
    JudgePage.RECHECK: "Recent challenges",
    JudgePage.PACKS: "Packs",
    JudgePage.SETTINGS: "Divisions and rules",
    JudgePage.COUNTS: "Today's counts",
    JudgePage.EXPORT: "Export the log",
    JudgePage.STATUS: "Log status",
    JudgePage.BACK: "Back to the station",
    JudgePage.EXIT: "Exit the station",
}
HINT = "Press 1 to 8, or tap \u00b7 Esc: back to the station"
TOUCH_HINT = "Tap a choice"
COLOURS = {JudgePage.BACK: theme.SAFE, JudgePage.EXIT: theme.DANGER}


def warning(cleared: PinAttempts) -> str:
    """For the judge who just came in: the wrong PINs typed before (someone guessing?)."""
    if cleared.failures == 0 or cleared.last_failure_at is None:
        return ""
    last = cleared.last_failure_at.astimezone()
    return (
        f"Before this PIN: {counted(cleared.failures, 'wrong PIN')} in a row, the last at "
        f"{last:%H:%M} \u2014 has someone been guessing?"
    )


class MenuPage(Page):
    hint = HINT
    touch_hint = TOUCH_HINT

    def __init__(self, send: Send, *, touch: bool) -> None:
        super().__init__(send, touch=touch)
        self.warning = FitLabel(fill=0.7, bold=True, colour=theme.NOTICE)
        self.warning.setObjectName("menu-warning")
        self.warning.setVisible(False)
        choices = QWidget()
        choices.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Ignored)
        grid = QGridLayout(choices)
        grid.setContentsMargins(0, 8, 0, 8)
        grid.setSpacing(10)
        _stack(self, [(self.warning, 10), (choices, 90)])
        self.buttons: dict[JudgePage, FitButton] = {}
        rows = (len(MENU_PAGES) + 1) // 2
        for index, page in enumerate(MENU_PAGES):
            number = str(index + 1)
            colour = COLOURS.get(page, theme.KEY_BACKGROUND)
            button = self.button(f"{number}  {MENU_LABELS[page]}", Typed(number), colour=colour, left=True)
            button.setObjectName(f"menu-{page.name.lower()}")
            grid.addWidget(button, index % rows, index // rows)
            self.buttons[page] = button
        longest = max((b.full_text for b in self.buttons.values()), key=len)
        for button in self.buttons.values():
            button.reference = longest  # one type size for the whole menu

    def show_state(self, state: JudgeState, *, looking: bool) -> None:
        text = warning(state.cleared)
        self.warning.setText(text)
        self.warning.setVisible(bool(text))
