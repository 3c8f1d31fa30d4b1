"""The station's screens. Each shows a ``SessionState`` and reports taps as session events.

No view reads per-word results: the verdict screen is drawn from the verdict, the words as judged
and the number of words, so nothing on it can depend on which word failed. A word is shown as the
tiles it is (or was) judged as, never read again here: the entry shows the session's reading
(``kiosk.core.session.shown_tiles``), the verdict the stored spellings of the ruling.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PySide6.QtCore import QEvent, QObject, QPointF, QRect, Qt, Signal, SignalInstance
from PySide6.QtGui import QColor, QMouseEvent, QPainter, QPaintEvent, QPen, QResizeEvent
from PySide6.QtWidgets import (
    QGridLayout,
    QHBoxLayout,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from kiosk.core.adjudication import MAX_WORDS_PER_CHALLENGE, Verdict
from kiosk.core.alphabet import ENGLISH, TILE_GAP, Alphabet, tiles_of
from kiosk.core.edition import EditionBadge
from kiosk.core.language import Catalogue, english, marked
from kiosk.core.normalise import BOARD_MAX_LETTERS
from kiosk.core.pack import pack_title
from kiosk.core.plural import counted
from kiosk.core.rules import Outcome
from kiosk.core.session import (
    Backspace,
    DivisionSelected,
    Escape,
    Event,
    JudgePressed,
    JudgeRequested,
    Screen,
    SessionState,
    TileTyped,
    Typed,
    shown_tiles,
)
from kiosk.ui import theme
from kiosk.ui.theme import FitButton, FitLabel

__all__ = [
    "TILE_GAP",
    "DivisionCard",
    "DivisionView",
    "EntryView",
    "FaultView",
    "HeaderBar",
    "ReadyView",
    "TableView",
    "TouchKeyboard",
    "VerdictIcon",
    "VerdictView",
    "WordGrid",
]

# The session names the keyboard's keys; a touch player has these instead (each pair: the words
# for a keyboard and those for a touch screen, as English message ids; both are translated).
TOUCH_KEY_NAMES = ((marked("press TAB"), marked("tap JUDGE")), (marked("Esc"), marked("CLEAR")))
# What a screen reader says of keys whose face says too little or too much alike.
JUDGE_PLAY_NAME = marked("JUDGE: judge this play")
JUDGE_MODE_NAME = marked("Judge mode, for judges only")
ERASE_DIGIT_NAME = marked("Erase the last digit")
WORDS_PER_COLUMN = 4
MIN_GRID_ROWS = 3
CURSOR = "_"
A = Qt.AlignmentFlag


def _spacer() -> QWidget:
    spacer = QWidget()
    spacer.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Ignored)
    return spacer


SIDE_MARGIN_PERCENT = 3


class View(QWidget):
    """A screen body: keeps a side margin proportional to its width."""

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt's name)
        layout = self.layout()
        if layout is not None:
            margin = self.width() * SIDE_MARGIN_PERCENT // 100
            layout.setContentsMargins(margin, 0, margin, 0)
        super().resizeEvent(event)


def _stack(parent: QWidget, items: Sequence[tuple[QWidget, int]]) -> QVBoxLayout:
    layout = QVBoxLayout(parent)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.setSpacing(0)
    for widget, stretch in items:
        layout.addWidget(widget, stretch)
    return layout


class HeaderBar(QWidget):
    """The division's colour band with its name: visible on every screen once chosen."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("header")
        self.division = FitLabel(fill=0.6, bold=True, align=A.AlignLeft | A.AlignVCenter)
        self.division.setObjectName("header-division")
        self.station = FitLabel(fill=0.45, align=A.AlignRight | A.AlignVCenter)
        self.station.setObjectName("header-station")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.division, 6)
        layout.addWidget(self.station, 4)
        self._colour = ""

    def show_division(self, name: str, colour: str, station: str, t: Catalogue | None = None) -> None:
        self._show((t or english()).text("Division: {name}", name=name), colour, station)

    def show_divisions(self, names: Sequence[str], station: str, t: Catalogue | None = None) -> None:
        """Before a challenge's division is chosen: every division served, in no division's colour."""
        text = (t or english()).text("Divisions: {names}", names=" \u00b7 ".join(names))
        self._show(text, theme.KEY_BACKGROUND, station)

    def _show(self, text: str, colour: str, station: str) -> None:
        self.division.setText(text)
        self.station.setText(station)
        if colour != self._colour:
            self._colour = colour
            theme.paint_background(self, colour)
            text = theme.text_on(colour)
            self.division.set_colour(text)
            self.station.set_colour(text)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt's name)
        margin = max(4, self.height() // 3)
        layout = self.layout()
        assert layout is not None
        layout.setContentsMargins(margin, 0, margin, 0)
        super().resizeEvent(event)


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


@dataclass(frozen=True)
class DivisionCard:
    """What the ready and division screens say about one division the station serves."""

    name: str
    colour: str
    lexicon: str
    edition: str
    trust: str
    youth: bool
    badge: EditionBadge
    """Whether the set this division rules with is a published edition, proven from its words."""

    @property
    def described(self) -> str:
        """The division's lexicon in a few words: "ENABLE demo (enable1), school rules"."""
        return self.described_in(english())

    def described_in(self, t: Catalogue) -> str:
        """``described`` in the language of ``t``."""
        school = t.text(", school rules") if self.youth else ""
        return f"{pack_title(self.lexicon, self.edition)}{school}"


YOUTH_LINE_STRETCH = 7  # the ready screen's "School rules" line, in the stretch units of its rows


class ReadyView(View):
    """The screen between challenges: the lexicon(s), the division(s) and the question of the count."""

    tapped = Signal(object)

    def __init__(
        self, *, touch: bool, division_names: Sequence[str] = (), parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setObjectName("ready")
        self._touch = touch
        self.caption = FitLabel("Lexicon", fill=0.7, colour=theme.DIM_TEXT)
        self.caption.setObjectName("ready-caption")
        self.lexicon = FitLabel(fill=0.8, bold=True)
        self.lexicon.setObjectName("ready-lexicon")
        # The edition badge: one line per division served ("NWL2023 \u2713 published word set"),
        # all in one type size, sized for the longest, so that no division's looks more important.
        self.published = FitLabel(fill=0.75, bold=True)
        self.published.setObjectName("ready-published")
        self.published_rows = [self.published]
        self.badges = QWidget()
        self.badges.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Ignored)
        self._badge_layout = QVBoxLayout(self.badges)
        self._badge_layout.setContentsMargins(0, 0, 0, 0)
        self._badge_layout.setSpacing(0)
        self._badge_layout.addWidget(self.published, 1)
        self.published.installEventFilter(self)
        self.edition = FitLabel(fill=0.7)
        self.edition.setObjectName("ready-edition")
        self.youth = FitLabel(fill=0.7, bold=True, colour=theme.NOTICE)
        self.youth.setObjectName("ready-youth")
        self.division = FitLabel(fill=0.6, colour=theme.DIM_TEXT)
        self.division.setObjectName("ready-division")
        self.prompt = FitLabel(fill=0.8, bold=True)
        self.prompt.setObjectName("ready-prompt")
        self.count_pad: KeyPad | None = None
        items: list[tuple[QWidget, int]] = [
            (_spacer(), 1 if touch else 3),
            (self.caption, 4),
            (self.lexicon, 11 if touch else 15),
            (self.badges, self._badge_stretch(1)),
            (self.edition, 5 if touch else 7),
            (self.youth, YOUTH_LINE_STRETCH),
            (self.division, 7),
            (_spacer(), 1 if touch else 3),
            (self.prompt, 16 if touch else 18),
        ]
        if touch:
            self.count_pad = KeyPad(
                [[(str(n), Typed(str(n)), 2) for n in range(1, MAX_WORDS_PER_CHALLENGE + 1)]]
            )
            self.count_pad.tapped.connect(self.tapped)
            items.append((self.count_pad, 15))
        self.judge_button: FitButton | None = None
        if touch:
            row, self.judge_button = judge_button_row(self.tapped)
            items.append((row, 9))
        else:
            items.append((_spacer(), 4))
        self._layout = _stack(self, items)

    def _badge_stretch(self, rows: int) -> int:
        """The badges' share of the screen: a line of their own for one division, and more for
        several, up to the room the school-rules line leaves them (it is empty then)."""
        one = 7 if self._touch else 8
        return one if rows == 1 else min(one + 5 * rows, 3 * one + YOUTH_LINE_STRETCH)

    def _show_badges(self, lines: Sequence[tuple[str, EditionBadge]]) -> None:
        while len(self.published_rows) < len(lines):
            row = FitLabel(fill=0.75, bold=True)
            row.setObjectName(f"ready-published-{len(self.published_rows) + 1}")
            row.installEventFilter(self)
            self._badge_layout.addWidget(row, 1)
            self.published_rows.append(row)
        for index, row in enumerate(self.published_rows):
            if index >= len(lines):
                row.setText("")
                row.setVisible(False)
                continue
            text, badge = lines[index]
            row.setVisible(True)
            row.setText(text)
            row.set_colour(
                theme.NOTICE if badge.warning else theme.PUBLISHED if badge.published else theme.DIM_TEXT
            )
        self._layout.setStretchFactor(self.badges, self._badge_stretch(len(lines)))
        self._layout.setStretchFactor(self.youth, YOUTH_LINE_STRETCH if len(lines) == 1 else 0)
        self._match_badges()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        if event.type() == QEvent.Type.Resize and watched in self.published_rows:
            self._match_badges()
        return False

    def _match_badges(self) -> None:
        """Every division's badge in one type size: the largest in which the longest fits."""
        rows = [row for row in self.published_rows if row.isVisibleTo(self) and row.text()]
        sizes = [row.fitting_px() for row in rows if row.width() > 8 and row.height() > 4]
        shared = min(sizes) if len(sizes) > 1 else None
        for row in self.published_rows:
            row.set_max_px(shared)

    def show_ready(self, cards: Sequence[DivisionCard], *, several: bool, t: Catalogue | None = None) -> None:
        """``cards``: the divisions served now; ``several``: the configuration has more than one;
        ``t``: the language of the screen."""
        t = t or english()
        if len(cards) == 1:
            card = cards[0]
            self.caption.setText(t.text("Lexicon"))
            self.lexicon.setText(card.lexicon)
            edition = (
                t.text("edition {edition}", edition=card.edition) + " \u00b7 " if card.edition.strip() else ""
            )
            self.edition.setText(f"{edition}{card.trust}")
            self.youth.setText(t.text("School rules: youth list applied") if card.youth else "")
            only = t.text("This station judges the {name} division only", name=card.name)
            self.division.setText(only if several else "")
            self._show_badges([(card.badge.text, card.badge)])
        else:
            self.caption.setText(t.text("This station judges the divisions"))
            self.lexicon.setText(" \u00b7 ".join(card.name for card in cards))
            self.edition.setText(" \u00b7 ".join(f"{card.name}: {card.described_in(t)}" for card in cards))
            self.youth.setText("")
            self.division.setText(t.text("After the count, choose the division of your game"))
            self._show_badges([(f"{card.name}: {card.badge.text}", card.badge) for card in cards])
        keys = t.text("Tap 1 to 8") if self._touch else t.text("Press 1 to 8")
        self.prompt.setText(t.text("CHALLENGER: how many words are challenged?") + f"\n{keys}")
        if self.judge_button is not None:
            self.judge_button.setText(t.text("Judge"))
            self.judge_button.setAccessibleName(t.text(JUDGE_MODE_NAME))


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
            items.append((_centred(self.back, 30), 10))
        items.append((_spacer(), 4))
        _stack(self, items)
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
        self.notice.setText(_back_to_start(state, self._touch))

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
            items += [(_centred(self.keypad, 70), 46)]
        items.append((_spacer(), 4))
        _stack(self, items)

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
        self.notice.setText(_back_to_start(state, self._touch))


def _back_to_start(state: SessionState, touch: bool) -> str:
    """The session's notice, or the idle countdown of a screen before the words."""
    if not state.clearing_in_s:
        return state.notice
    t = state.language
    press = t.text("tap any key") if touch else t.text("press any key")
    return t.text(
        "Back to the start in {seconds} s \u2014 {press} to stay", seconds=state.clearing_in_s, press=press
    )


def _centred(widget: QWidget, percent: int) -> QWidget:
    """``widget`` in the middle of a row, ``percent`` of its width."""
    row = QWidget()
    row.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Ignored)
    layout = QHBoxLayout(row)
    layout.setContentsMargins(0, 4, 0, 4)
    side = (100 - percent) // 2
    layout.addWidget(_spacer(), side)
    layout.addWidget(widget, percent)
    layout.addWidget(_spacer(), side)
    return row


class EntryView(View):
    """Typing the words, then checking them: one view, its prompt following the state."""

    tapped = Signal(object)

    def __init__(self, *, touch: bool, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("entry")
        self._touch = touch
        self.title = FitLabel(fill=0.75, bold=True)
        self.title.setObjectName("entry-title")
        self.grid = WordGrid(show_counts=True)
        self.notice = FitLabel(fill=0.7, bold=True, colour=theme.NOTICE, wrap=True)
        self.notice.setObjectName("entry-notice")
        self.prompt = FitLabel(fill=0.8, bold=True)
        self.prompt.setObjectName("entry-prompt")
        self.keyboard: TouchKeyboard | None = None
        items: list[tuple[QWidget, int]] = [
            (self.title, 9),
            (self.grid, 36 if touch else 53),
            (self.notice, 11 if touch else 12),
            (self.prompt, 12 if touch else 18),
        ]
        if touch:
            self.keyboard = TouchKeyboard()
            self.keyboard.tapped.connect(self.tapped)
            items += [(self.keyboard, 46), (_spacer(), 2)]  # the bottom row clear of the bezel
        self._layout = _stack(self, items)

    def _keyboard_for(self, alphabet: Alphabet) -> TouchKeyboard | None:
        """The touch keyboard of the division's alphabet, in the place of the one shown before."""
        old = self.keyboard
        if old is None or old.alphabet is alphabet:
            return old
        new = TouchKeyboard(alphabet)
        new.tapped.connect(self.tapped)
        self._layout.replaceWidget(old, new)
        old.hide()  # at once: deleteLater waits for the event loop's next turn
        old.deleteLater()
        self.keyboard = new
        return new

    def show_entry(self, state: SessionState, division: str | None = None) -> None:
        """``division``: the name of the challenge's division, where the station has several; the
        table is named too, on a station that asks for it."""
        t = state.language
        entered = state.entered
        expected = state.expected
        judge = t.text("tap JUDGE") if self._touch else t.text("press TAB")
        keyboard = self._keyboard_for(state.alphabet)
        if keyboard is not None:
            keyboard.speak(t)
        if state.screen is Screen.ENTRY or state.current:
            # the title does not flip to "All typed" while the last word is still being typed
            at = min(len(state.words), expected - 1)
            self.title.setText(
                t.text("CHALLENGER: type word {number} of {count}", number=at + 1, count=expected)
            )
            cursor_at: int | None = at
        else:
            self.title.setText(t.plural("The word is typed", "All {count} words typed", expected))
            cursor_at = None
        if state.screen is Screen.ENTRY:
            if self._touch:
                self.prompt.setText(t.text("SPACE after each word\nBACKSPACE corrects \u00b7 CLEAR clears"))
            else:
                self.prompt.setText(
                    t.text("Space, comma or Enter after each word\nBackspace corrects \u00b7 Esc clears")
                )
        else:
            division_check = None if division is None else t.text("the division ({name})", name=division)
            table_check = None if state.table is None else t.text("the table ({number})", number=state.table)
            if division_check and table_check:
                check = t.text(
                    "Both players: check the spelling, {division} and {table}.",
                    division=division_check,
                    table=table_check,
                )
            elif division_check or table_check:
                check = t.text(
                    "Both players: check the spelling and {what}.", what=division_check or table_check
                )
            else:
                check = t.text("Both players: check the spelling.")
            self.prompt.setText(check + "\n" + t.text("CHALLENGED PLAYER: {judge} to judge.", judge=judge))
        notice = state.notice
        if state.clearing_in_s:
            key = t.text("tap any key") if self._touch else t.text("press any key")
            notice = t.plural(
                "Clearing in {seconds} s \u2014 {press} to keep the word",
                "Clearing in {seconds} s \u2014 {press} to keep the words",
                expected,
                seconds=state.clearing_in_s,
                press=key,
            )
        if self._touch:  # the session names the keyboard's keys; a touch player has these instead
            for key_name, touch in TOUCH_KEY_NAMES:
                notice = notice.replace(t.text(key_name), t.text(touch))
        # a character refused stays said until the play is judged or cleared, beside any other notice
        self.notice.setText("\n".join(line for line in (state.refusal, notice) if line))
        self.grid.show_words(
            [shown_tiles(state, word) for word in entered],
            expected,
            state.max_length,
            cursor_at,
            t,
            state.alphabet,
        )


class VerdictIcon(QWidget):
    """A tick in a ring for ACCEPTABLE, a cross in a ring for UNACCEPTABLE, drawn not typeset."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("verdict-icon")
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Ignored)
        self.acceptable = True

    def set_acceptable(self, acceptable: bool) -> None:
        self.acceptable = acceptable
        self.update()

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 (Qt's name)
        side = min(self.width(), self.height()) * 0.9
        cx, cy = self.width() / 2, self.height() / 2
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        pen = QPen(QColor(theme.TEXT))
        pen.setWidthF(side * 0.09)
        pen.setCapStyle(Qt.PenCapStyle.RoundCap)
        pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
        painter.setPen(pen)
        r = side / 2 - side * 0.05
        painter.drawEllipse(QPointF(cx, cy), r, r)
        s = side * 0.22
        if self.acceptable:
            painter.drawPolyline(
                [
                    QPointF(cx - s * 1.1, cy),
                    QPointF(cx - s * 0.25, cy + s * 0.85),
                    QPointF(cx + s * 1.2, cy - s * 0.9),
                ]
            )
        else:
            painter.drawLine(QPointF(cx - s, cy - s), QPointF(cx + s, cy + s))
            painter.drawLine(QPointF(cx - s, cy + s), QPointF(cx + s, cy - s))
        painter.end()


class VerdictView(View):
    """The ruling: text, icon and colour together, the words as typed, the lexicon, the outcome."""

    tapped = Signal(object)

    def __init__(self, *, touch: bool = False, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("verdict")
        self.icon = VerdictIcon()
        self.headline = FitLabel(fill=0.75, bold=True, align=A.AlignLeft | A.AlignVCenter)
        self.headline.setObjectName("verdict-headline")
        self.headline.setAccessibleDescription("The ruling on the challenged play")  # set in show_verdict
        top = QWidget()
        top.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Ignored)
        row = QHBoxLayout(top)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.icon, 2)
        row.addWidget(self.headline, 8)
        self.grid = WordGrid(show_counts=False, number_colour=theme.TEXT)  # dim text fails on red
        self.lexicon = FitLabel(fill=0.7)
        self.lexicon.setObjectName("verdict-lexicon")
        self.outcome = FitLabel(fill=0.75, bold=True)
        self.outcome.setObjectName("verdict-outcome")
        self.consequence = FitLabel(fill=0.7)
        self.consequence.setObjectName("verdict-consequence")
        self.second_opinion = FitLabel(fill=0.65)
        self.second_opinion.setObjectName("verdict-second-opinion")
        self._touch = touch
        self.footer = FitLabel(fill=0.6)
        self.footer.setObjectName("verdict-footer")
        _stack(
            self,
            [
                (top, 22),
                (self.grid, 34),
                (self.lexicon, 6),
                (self.outcome, 9),
                (self.consequence, 7),
                (self.second_opinion, 6),
                (self.footer, 5),
                (_spacer(), 2),
            ],
        )
        self._verdict: Verdict | None = None

    def show_verdict(
        self,
        verdict: Verdict,
        words: Sequence[str],
        max_length: int,
        lexicon: str,
        outcome: Outcome,
        second_opinion: str,
        division: str | None = None,
        table: int | None = None,
        t: Catalogue | None = None,
        alphabet: Alphabet = ENGLISH,
    ) -> None:
        """``division``: the challenge's division, named where the station has several; ``table``:
        the game's table, on a station that asks for it; ``t``: the language of the screen;
        ``alphabet``: the pack's, whose tiles the words are shown in."""
        t = t or english()
        acceptable = verdict is Verdict.ACCEPTABLE
        if acceptable:
            text = t.text("YES \u2014 the play is ACCEPTABLE")
        else:
            text = t.text("NO \u2014 the play is UNACCEPTABLE")
        self.headline.setText(text)
        self.headline.setAccessibleName(text)
        self.headline.setAccessibleDescription(t.text("The ruling on the challenged play"))
        self.setAccessibleName(text)
        self.icon.set_acceptable(acceptable)
        self.icon.setAccessibleName(t.text("tick") if acceptable else t.text("cross"))
        clear = t.text("tap the screen") if self._touch else t.text("press any key")
        self.footer.setText(t.text("The screen clears by itself, or {press}", press=clear))
        if verdict is not self._verdict:
            self._verdict = verdict
            colour = theme.ACCEPTABLE_BACKGROUND if acceptable else theme.UNACCEPTABLE_BACKGROUND
            theme.paint_background(self, colour)
        self.grid.show_words(
            [alphabet.stored_tiles(word) or tiles_of(word) for word in words],
            len(words),
            max_length,
            None,
            t,
            alphabet,
        )
        named = "" if division is None else t.text("Division {name}", name=division) + " \u00b7 "
        named += "" if table is None else t.text("Table {number}", number=table) + " \u00b7 "
        self.lexicon.setText(named + t.text("Lexicon: {lexicon}", lexicon=lexicon))
        self.outcome.setText(outcome.headline)
        self.consequence.setText(outcome.consequence)
        self.second_opinion.setText(second_opinion)

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt's name)
        self.tapped.emit(Typed(""))
        event.accept()


def judge_button_row(tapped: SignalInstance) -> tuple[QWidget, FitButton]:
    """Touch mode's way into judge mode: a small, quiet button in the bottom right corner."""
    button = FitButton("Judge", colour=None, key=True)
    button.setObjectName("judge-button")
    button.clicked.connect(lambda _checked=False: tapped.emit(JudgeRequested()))
    row = QWidget()
    row.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Ignored)
    layout = QHBoxLayout(row)
    layout.setContentsMargins(0, 0, 0, 10)  # clear of the screen's bezel
    layout.addWidget(_spacer(), 88)
    layout.addWidget(button, 12)
    return row, button


class FaultView(View):
    """The log could not keep the ruling: no verdict is shown until a judge deals with it."""

    tapped = Signal(object)

    def __init__(self, *, touch: bool = False, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("fault")
        theme.paint_background(self, theme.FAULT_BACKGROUND)
        self.headline = FitLabel(fill=0.75, bold=True)
        self.headline.setObjectName("fault-headline")
        self.detail = FitLabel(fill=0.8)
        items: list[tuple[QWidget, int]] = [(_spacer(), 20), (self.headline, 20), (self.detail, 16)]
        self.judge_button: FitButton | None = None
        if touch:
            row, self.judge_button = judge_button_row(self.tapped)
            items += [(_spacer(), 21), (row, 9)]
        else:
            items.append((_spacer(), 30))
        _stack(self, items)
        self.speak(english())

    def speak(self, t: Catalogue) -> None:
        """The fault's words in the language of ``t``."""
        self.headline.setText(t.text("Station fault \u2014 call a judge"))
        self.headline.setAccessibleName(t.text("Station fault: call a judge"))
        self.detail.setText(
            t.text(
                "The challenge could not be recorded, so no ruling is shown.\n"
                "It is kept on this station for the judge."
            )
        )
        if self.judge_button is not None:
            self.judge_button.setText(t.text("Judge"))
            self.judge_button.setAccessibleName(t.text(JUDGE_MODE_NAME))
