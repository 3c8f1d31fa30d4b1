"""The ready screen between challenges: the lexicon(s), the division(s) and the question of the count."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtWidgets import QSizePolicy, QVBoxLayout, QWidget

from kiosk.core.edition import EditionBadge
from kiosk.core.packs.pack import pack_title
from kiosk.core.play.adjudication import MAX_WORDS_PER_CHALLENGE
from kiosk.core.play.session import (
    Typed,
)
from kiosk.core.words.language import Catalogue, english
from kiosk.ui import theme
from kiosk.ui.layout import View, spacer, stack
from kiosk.ui.players.keys import JUDGE_MODE_NAME, KeyPad, judge_button_row
from kiosk.ui.theme import FitButton, FitLabel

__all__ = ["DivisionCard", "ReadyView"]

A = Qt.AlignmentFlag


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
            (spacer(), 1 if touch else 3),
            (self.caption, 4),
            (self.lexicon, 11 if touch else 15),
            (self.badges, self._badge_stretch(1)),
            (self.edition, 5 if touch else 7),
            (self.youth, YOUTH_LINE_STRETCH),
            (self.division, 7),
            (spacer(), 1 if touch else 3),
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
            items.append((spacer(), 4))
        self._layout = stack(self, items)

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
