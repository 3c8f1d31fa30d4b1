"""The verdict screen: text, icon and colour together, the words as judged, the lexicon, the outcome.

Nothing on it depends on which word failed: it is drawn from the verdict, the words as judged (the
stored spellings of the ruling, as tiles) and the number of words.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QPointF, Qt, Signal
from PySide6.QtGui import QColor, QMouseEvent, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QHBoxLayout, QSizePolicy, QWidget

from kiosk.core.play.adjudication import Verdict
from kiosk.core.play.rules import Outcome
from kiosk.core.play.session import (
    Typed,
)
from kiosk.core.words.alphabet import ENGLISH, Alphabet, tiles_of
from kiosk.core.words.language import Catalogue, english
from kiosk.ui import theme
from kiosk.ui.layout import View, spacer, stack
from kiosk.ui.players.grid import WordGrid
from kiosk.ui.theme import FitLabel

__all__ = ["VerdictIcon", "VerdictView"]

A = Qt.AlignmentFlag


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
        stack(
            self,
            [
                (top, 22),
                (self.grid, 34),
                (self.lexicon, 6),
                (self.outcome, 9),
                (self.consequence, 7),
                (self.second_opinion, 6),
                (self.footer, 5),
                (spacer(), 2),
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
