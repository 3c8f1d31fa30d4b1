"""The menu: eight numbered choices, and a warning of the wrong PINs typed before this judge's."""

from __future__ import annotations

from PySide6.QtWidgets import QGridLayout, QSizePolicy, QWidget

from kiosk.core.judge import MENU_PAGES, JudgePage, JudgeState, Typed
from kiosk.core.station.pin import PinAttempts
from kiosk.core.words.language import Catalogue, english, marked
from kiosk.core.words.plural import counted
from kiosk.ui import theme
from kiosk.ui.judge.page import Page, Send
from kiosk.ui.layout import stack
from kiosk.ui.theme import FitButton, FitLabel

__all__ = ["MENU_LABELS", "MenuPage", "warning"]

# The menu's words (the frame titles each page with its label).
MENU_LABELS = {
    JudgePage.RECHECK: marked("Recent challenges"),
    JudgePage.PACKS: marked("Packs"),
    JudgePage.SETTINGS: marked("Divisions and rules"),
    JudgePage.COUNTS: marked("Today's counts"),
    JudgePage.EXPORT: marked("Export the log"),
    JudgePage.STATUS: marked("Log status"),
    JudgePage.BACK: marked("Back to the station"),
    JudgePage.EXIT: marked("Exit the station"),
}
HINT = marked("Press 1 to 8, or tap \u00b7 Esc: back to the station")
TOUCH_HINT = marked("Tap a choice")
COLOURS = {JudgePage.BACK: theme.SAFE, JudgePage.EXIT: theme.DANGER}


def warning(cleared: PinAttempts, t: Catalogue | None = None) -> str:
    """For the judge who just came in: the wrong PINs typed before (someone guessing?)."""
    if cleared.failures == 0 or cleared.last_failure_at is None:
        return ""
    t = t or english()
    last = cleared.last_failure_at.astimezone()
    return t.text(
        "Before this PIN: {wrong} in a row, the last at {time} \u2014 has someone been guessing?",
        wrong=counted(cleared.failures, "wrong PIN", "wrong PINs", t),
        time=f"{last:%H:%M}",
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
        stack(self, [(self.warning, 10), (choices, 90)])
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
        self._labelled: Catalogue | None = None  # the catalogue the labels were written in

    def show_state(self, state: JudgeState, *, looking: bool) -> None:
        if self._labelled is not self.catalogue:  # the labels in the station's language
            self._labelled = self.catalogue
            for index, (page, button) in enumerate(self.buttons.items()):
                button.setText(f"{index + 1}  {self.catalogue.text(MENU_LABELS[page])}")
            longest = max((b.full_text for b in self.buttons.values()), key=len)
            for button in self.buttons.values():
                button.reference = longest
                button.fit_font()
        text = warning(state.cleared, self.catalogue)
        self.warning.setText(text)
        self.warning.setVisible(bool(text))
