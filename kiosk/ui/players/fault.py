"""The station fault: the log could not keep the ruling, so no verdict is shown until a judge comes."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QWidget

from kiosk.core.words.language import Catalogue, english
from kiosk.ui import theme
from kiosk.ui.layout import View, spacer, stack
from kiosk.ui.players.keys import JUDGE_MODE_NAME, judge_button_row
from kiosk.ui.theme import FitButton, FitLabel

__all__ = ["FaultView"]


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
        items: list[tuple[QWidget, int]] = [(spacer(), 20), (self.headline, 20), (self.detail, 16)]
        self.judge_button: FitButton | None = None
        if touch:
            row, self.judge_button = judge_button_row(self.tapped)
            items += [(spacer(), 21), (row, 9)]
        else:
            items.append((spacer(), 30))
        stack(self, items)
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
