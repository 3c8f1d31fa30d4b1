"""The players' on-screen keys: pads of big keys that report session events, the touch keyboard of
each alphabet, and the quiet button into judge mode."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Signal, SignalInstance
from PySide6.QtWidgets import QGridLayout, QHBoxLayout, QSizePolicy, QWidget

from kiosk.core.play.session import (
    Backspace,
    Escape,
    Event,
    JudgePressed,
    JudgeRequested,
    TileTyped,
    Typed,
)
from kiosk.core.words.alphabet import ENGLISH, Alphabet
from kiosk.core.words.language import Catalogue, marked
from kiosk.ui import theme
from kiosk.ui.layout import spacer
from kiosk.ui.theme import FitButton

# What a screen reader says of keys whose face says too little or too much alike.
JUDGE_PLAY_NAME = marked("JUDGE: judge this play")
JUDGE_MODE_NAME = marked("Judge mode, for judges only")

__all__ = ["KeyPad", "TouchKeyboard", "judge_button_row", "tile_rows"]


class KeyPad(QWidget):
    """Rows of big keys; a tap is reported as the session event the key stands for."""

    tapped = Signal(object)

    def __init__(
        self, rows: Sequence[Sequence[tuple[str, Event, int]]], parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Ignored)
        self.keys: dict[str, FitButton] = {}
        grid = QGridLayout(self)
        grid.setSpacing(6)
        grid.setContentsMargins(6, 6, 6, 6)
        span_total = max(sum(span for _, _, span in row) for row in rows)
        for row_index, row in enumerate(rows):
            row_span = sum(span for _, _, span in row)
            column = (span_total - row_span) // 2
            for label, event, span in row:
                colour = theme.SAFE if isinstance(event, JudgePressed) else theme.KEY_BACKGROUND
                button = FitButton(label, colour=colour, key=True)
                button.setObjectName(f"key-{label}")
                button.clicked.connect(lambda _checked=False, e=event: self.tapped.emit(e))
                grid.addWidget(button, row_index, column, 1, span)
                self.keys[label] = button
                column += span
        for column in range(span_total):
            grid.setColumnStretch(column, 1)
        for row_index in range(len(rows)):
            grid.setRowStretch(row_index, 1)


def tile_rows(alphabet: Alphabet) -> list[list[str]]:
    """The tile keys of an alphabet, in the rows of its players' own keyboards (QWERTY, AZERTY,
    QWERTZ, Spanish with Ñ; multi-letter tiles beside their first letter): ``Alphabet.keyboard``."""
    return [row.split() for row in alphabet.keyboard]


class TouchKeyboard(KeyPad):
    """The pack's tiles in its players' layout (A-Z in AZERTY for French, Ñ and CH for Spanish...),
    with SPACE, BACKSPACE, CLEAR and JUDGE. Each tile key is one tile (``TileTyped``): Spanish C
    then H are two tiles, CH one."""

    def __init__(self, alphabet: Alphabet = ENGLISH, parent: QWidget | None = None) -> None:
        self.alphabet = alphabet
        rows: list[list[tuple[str, Event, int]]] = [
            [(tile, TileTyped(tile), 2) for tile in row] for row in tile_rows(alphabet)
        ]
        rows.append(
            [
                ("CLEAR", Escape(), 4),
                ("SPACE", Typed(" "), 6),
                ("BACKSPACE", Backspace(), 5),
                ("JUDGE", JudgePressed(), 5),
            ]
        )
        super().__init__(rows, parent)

    def speak(self, t: Catalogue) -> None:
        """The named keys in the screen's language (the letters are the letters)."""
        self.keys["CLEAR"].setText(t.text("CLEAR"))
        self.keys["SPACE"].setText(t.text("SPACE"))
        self.keys["BACKSPACE"].setText(t.text("BACKSPACE"))
        self.keys["JUDGE"].setText(t.text("JUDGE"))
        # "JUDGE" (this play) and the quiet "Judge" (judge mode) differ on screen by size and
        # place; a screen reader says what each does
        self.keys["JUDGE"].setAccessibleName(t.text(JUDGE_PLAY_NAME))


def judge_button_row(tapped: SignalInstance) -> tuple[QWidget, FitButton]:
    """Touch mode's way into judge mode: a small, quiet button in the bottom right corner."""
    button = FitButton("Judge", colour=None, key=True)
    button.setObjectName("judge-button")
    button.clicked.connect(lambda _checked=False: tapped.emit(JudgeRequested()))
    row = QWidget()
    row.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Ignored)
    layout = QHBoxLayout(row)
    layout.setContentsMargins(0, 0, 0, 10)  # clear of the screen's bezel
    layout.addWidget(spacer(), 88)
    layout.addWidget(button, 12)
    return row, button
