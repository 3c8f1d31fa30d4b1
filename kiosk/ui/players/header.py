"""The header band: the division's colour and name (or every division served), and the station's name."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QHBoxLayout, QWidget

from kiosk.core.words.language import Catalogue, english
from kiosk.ui import theme
from kiosk.ui.theme import FitLabel

__all__ = ["HeaderBar"]

A = Qt.AlignmentFlag


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
