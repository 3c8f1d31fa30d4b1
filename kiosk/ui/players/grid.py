"""The word grid: up to eight words in slots whose place and size depend only on how many are
expected, each word shown as its tiles. The entry and the verdict both show words in it."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QSizePolicy, QWidget

from kiosk.core.play.adjudication import MAX_WORDS_PER_CHALLENGE
from kiosk.core.words.alphabet import ENGLISH, TILE_GAP, Alphabet
from kiosk.core.words.language import Catalogue, english
from kiosk.core.words.normalise import BOARD_MAX_LETTERS
from kiosk.core.words.plural import counted
from kiosk.ui import theme
from kiosk.ui.theme import FitLabel

__all__ = ["CURSOR", "WordGrid"]

A = Qt.AlignmentFlag
WORDS_PER_COLUMN = 4
MIN_GRID_ROWS = 3
CURSOR = "_"


class WordGrid(QWidget):
    """Up to eight words, each in a slot whose place and size depend only on how many are expected.

    The font is sized for the longest word the pack allows, so the grid looks the same whatever
    the words are; one to four words stand in one column, five to eight in two.
    """

    def __init__(
        self, *, show_counts: bool, number_colour: str = theme.DIM_TEXT, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Ignored)
        self._show_counts = show_counts
        self._word_colour = theme.TEXT
        self._expected = 1
        self._max_length = BOARD_MAX_LETTERS  # until the pack's own is shown
        self._alphabet = ENGLISH
        self._words = english()
        self.numbers: list[FitLabel] = []
        self.words: list[FitLabel] = []
        self.counts: list[FitLabel] = []
        for index in range(MAX_WORDS_PER_CHALLENGE):
            number = FitLabel(
                f"{index + 1}.",
                fill=0.45,
                colour=number_colour,
                align=A.AlignRight | A.AlignVCenter,
                reference="88.",  # never larger than the words beside it
            )
            word = FitLabel(fill=0.8, bold=True, align=A.AlignLeft | A.AlignVCenter)
            count = FitLabel(fill=0.4, colour=theme.DIM_TEXT, align=A.AlignLeft | A.AlignVCenter)
            for label, role in ((number, "number"), (word, "word"), (count, "count")):
                label.setParent(self)
                label.setObjectName(f"slot-{index + 1}-{role}")
            self.numbers.append(number)
            self.words.append(word)
            self.counts.append(count)

    def show_words(
        self,
        words: Sequence[Sequence[str]],
        expected: int,
        max_length: int,
        cursor_at: int | None,
        t: Catalogue | None = None,
        alphabet: Alphabet = ENGLISH,
    ) -> None:
        """Show ``words``, each given as its tiles; ``cursor_at`` is the slot being typed into
        (None: no cursor). In an alphabet with multi-letter tiles each word is shown tile by tile
        (``CH A LL A``) and counted in tiles."""
        self._words = t or english()
        self._expected = max(1, expected)
        self._max_length = max_length
        self._alphabet = alphabet
        for index in range(MAX_WORDS_PER_CHALLENGE):
            used = index < self._expected
            tiles = tuple(words[index]) if index < len(words) else ()
            text = alphabet.shown(tiles)
            shown = text + CURSOR if index == cursor_at else text
            self.numbers[index].setVisible(used)
            self.words[index].setVisible(used)
            self.counts[index].setVisible(used and self._show_counts)
            self.words[index].setText(shown)
            # a screen reader gets the word, not its cursor, and its tiles to spell ("D O G Z")
            self.words[index].setAccessibleName(text)
            self.words[index].setAccessibleDescription(" ".join(tiles))
            if not tiles:
                count = ""
            elif alphabet.simple:
                count = counted(len(tiles), "letter", "letters", self._words)
            else:
                count = counted(len(tiles), "tile", "tiles", self._words)
            self.counts[index].setText(count)
            too_long = len(tiles) > max_length  # kept as typed and marked, never cut to fit
            self.words[index].set_colour(theme.NOTICE if too_long else self._word_colour)
            self.counts[index].set_colour(theme.NOTICE if too_long else theme.DIM_TEXT)
        self._place()

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt's name)
        super().resizeEvent(event)
        self._place()

    def _place(self) -> None:
        columns = 1 if self._expected <= WORDS_PER_COLUMN else 2
        rows = -(-self._expected // columns)
        width, height = self.width(), self.height()
        row_height = height // max(rows, MIN_GRID_ROWS)
        top = (height - row_height * rows) // 2
        column_width = width // columns
        # M is as wide as most capitals; a word of many Ws shrinks its own label only.
        simple = self._alphabet.simple
        reference_word = ("" if simple else TILE_GAP).join("M" * self._max_length) + CURSOR
        reference_count = (
            counted(self._max_length, "letter", "letters", self._words)
            if simple
            else counted(self._max_length, "tile", "tiles", self._words)
        )
        for index in range(MAX_WORDS_PER_CHALLENGE):
            column, row = (index // rows, index % rows) if columns == 2 else (0, index)
            x = column * column_width
            y = top + row * row_height
            number_w = column_width * 8 // 100
            count_w = column_width * 17 // 100 if self._show_counts else 0
            tail = column_width * (10 if columns == 2 else 4) // 100  # keeps the columns apart
            word_w = column_width - number_w - count_w - tail
            gap = column_width * 2 // 100
            self.numbers[index].setGeometry(QRect(x, y, number_w, row_height))
            self.words[index].setGeometry(QRect(x + number_w + gap, y, word_w, row_height))
            self.counts[index].setGeometry(QRect(x + number_w + 2 * gap + word_w, y, count_w, row_height))
            self.words[index].set_reference(reference_word)
            self.counts[index].set_reference(reference_count)
