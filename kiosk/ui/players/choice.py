"""The questions asked after the count on some stations: which division the game is in, and which table."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtWidgets import QSizePolicy, QVBoxLayout, QWidget

from kiosk.core.play.notice import notice_text
from kiosk.core.play.session import (
    Backspace,
    DivisionSelected,
    Escape,
    Event,
    SessionState,
    Typed,
)
from kiosk.core.words.language import marked
from kiosk.ui import theme
from kiosk.ui.layout import View, centred, spacer, stack
from kiosk.ui.players.grid import CURSOR
from kiosk.ui.players.keys import KeyPad
from kiosk.ui.players.ready import DivisionCard
from kiosk.ui.theme import FitButton, FitLabel

__all__ = ["DivisionView", "TableView", "back_to_start"]

A = Qt.AlignmentFlag
ERASE_DIGIT_NAME = marked("Erase the last digit")  # the table's \u232b key, for a screen reader


class DivisionView(View):
    """Which division is this game in? Asked in every challenge of a station serving several."""

    tapped = Signal(object)

    def __init__(self, *, touch: bool, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("division")
        self._touch = touch
        self.title = FitLabel(fill=0.75, bold=True)
        self.title.setObjectName("division-title")
        self.question = FitLabel(fill=0.8, bold=True)
        self.question.setObjectName("division-question")
        self.choices = QWidget()
        self.choices.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Ignored)
        self._rows = QVBoxLayout(self.choices)
        self._rows.setContentsMargins(0, 0, 0, 0)
        self._rows.setSpacing(10)
        self.keys: list[FitButton] = []
        self.notice = FitLabel(fill=0.7, bold=True, colour=theme.NOTICE, wrap=True)
        self.notice.setObjectName("division-notice")
        self.prompt = FitLabel(fill=0.7)
        self.prompt.setObjectName("division-prompt")
        items: list[tuple[QWidget, int]] = [
            (self.title, 9),
            (self.question, 14),
            (self.choices, 46),
            (self.notice, 8),
            (self.prompt, 9),
        ]
        self.back: FitButton | None = None
        if touch:
            self.back = FitButton("BACK", key=True)
            self.back.setObjectName("key-BACK")
            self.back.clicked.connect(lambda _checked=False: self.tapped.emit(Escape()))
            items.append((centred(self.back, 30), 10))
        items.append((spacer(), 4))
        stack(self, items)
        self._shown: tuple[DivisionCard, ...] = ()
        self._language = ""

    def show_choices(self, state: SessionState, cards: Sequence[tuple[int, DivisionCard]]) -> None:
        """``cards``: the divisions served, each with its index in the configuration."""
        t = state.language
        self.title.setText(t.plural("{count} word challenged", "{count} words challenged", state.expected))
        self.question.setText(t.text("Which division is your game in?"))
        if self.back is not None:
            self.back.setText(t.text("BACK"))
        shown = tuple(card for _, card in cards)
        if shown != self._shown or t.language != self._language:
            self._shown = shown
            self._language = t.language
            for key in self.keys:
                key.setParent(None)
                key.deleteLater()
            self.keys = []
            for number, (index, card) in enumerate(cards, start=1):
                key = FitButton(
                    f"{number}  {card.name}\n{card.described_in(t)}", colour=card.colour, key=True
                )
                key.setObjectName(f"division-choice-{number}")
                chosen = DivisionSelected(index)
                key.clicked.connect(lambda _checked=False, e=chosen: self.tapped.emit(e))
                key.installEventFilter(self)
                self._rows.addWidget(key, 1)
                self.keys.append(key)
            self._match_sizes()
        count = len(cards)
        if count == 2:
            numbers = t.text("1 or 2")
        elif count == 3:
            numbers = t.text("1, 2 or 3")
        else:
            numbers = t.text("1 to {last}", last=count)
        if self._touch:
            self.prompt.setText(t.text("Tap your game's division \u00b7 BACK starts again"))
        else:
            self.prompt.setText(t.text("Press {numbers} \u00b7 Esc starts again", numbers=numbers))
        self.notice.setText(back_to_start(state, self._touch))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        if event.type() == QEvent.Type.Resize and watched in self.keys:
            self._match_sizes()
        return False

    def _match_sizes(self) -> None:
        """Every division's key in one type size: none looks more important than another."""
        sizes = [key.fitting_px() for key in self.keys if key.width() > 8 and key.height() > 4]
        shared = min(sizes) if sizes else None
        for key in self.keys:
            key.set_max_px(shared)


class TableView(View):
    """Which table is this game at? Asked after the count on a station configured with ask_table."""

    tapped = Signal(object)

    def __init__(self, *, touch: bool, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("table")
        self._touch = touch
        self.title = FitLabel(fill=0.75, bold=True)
        self.title.setObjectName("table-title")
        self.question = FitLabel(fill=0.8, bold=True)
        self.question.setObjectName("table-question")
        self.number = FitLabel(fill=0.8, bold=True, reference="Table 888_")
        self.number.setObjectName("table-number")
        self.notice = FitLabel(fill=0.7, bold=True, colour=theme.NOTICE, wrap=True)
        self.notice.setObjectName("table-notice")
        self.prompt = FitLabel(fill=0.7)
        self.prompt.setObjectName("table-prompt")
        items: list[tuple[QWidget, int]] = [
            (self.title, 9),
            (self.question, 14),
            (self.number, 24 if touch else 34),
            (self.notice, 9),
            (self.prompt, 9),
        ]
        self.keypad: KeyPad | None = None
        if touch:
            # Three rows, so that every key takes a finger on a 600-pixel-high screen.
            digits: list[list[tuple[str, Event, int]]] = [
                [(str(n % 10), Typed(str(n % 10)), 2) for n in range(first, first + 5)] for first in (1, 6)
            ]
            digits.append([("BACK", Escape(), 3), ("\u232b", Backspace(), 3), ("OK", Typed("\r"), 4)])
            self.keypad = KeyPad(digits)
            self.keypad.tapped.connect(self.tapped)
            items += [(centred(self.keypad, 70), 46)]
        items.append((spacer(), 4))
        stack(self, items)

    def show_table(self, state: SessionState) -> None:
        t = state.language
        self.title.setText(t.plural("{count} word challenged", "{count} words challenged", state.expected))
        self.question.setText(t.text("CHALLENGER: which table is your game at?"))
        self.number.setText(t.text("Table {number}", number=f"{state.table_digits}{CURSOR}"))
        if self.keypad is not None:
            self.keypad.keys["BACK"].setText(t.text("BACK"))
            self.keypad.keys["\u232b"].setAccessibleName(t.text(ERASE_DIGIT_NAME))
        if self._touch:
            self.prompt.setText(t.text("Tap the digits, then OK \u00b7 BACK starts again"))
        else:
            self.prompt.setText(
                t.text("Type the digits, then Enter \u00b7 Backspace corrects \u00b7 Esc starts again")
            )
        self.notice.setText(back_to_start(state, self._touch))


def back_to_start(state: SessionState, touch: bool) -> str:
    """The session's notice, or the idle countdown of a screen before the words."""
    if not state.clearing_in_s:
        return notice_text(state, touch=touch)
    t = state.language
    press = t.text("tap any key") if touch else t.text("press any key")
    return t.text(
        "Back to the start in {seconds} s \u2014 {press} to stay", seconds=state.clearing_in_s, press=press
    )
