"""The layout kit every screen is built with: players' screens and judge pages alike.

A screen body is a ``View`` (side margins that grow with its width) holding a ``stack`` of widgets,
top to bottom, each with its share of the height; ``spacer`` is an empty share; ``row`` puts
widgets side by side with a gap that grows with the row, ``centred`` one widget in the middle of a
row. Nothing here knows a screen, a word or a session: ``kiosk.ui.players`` and
``kiosk.ui.judge`` both build on it, and neither imports the other.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QHBoxLayout, QSizePolicy, QVBoxLayout, QWidget

__all__ = ["SIDE_MARGIN_PERCENT", "Row", "View", "centred", "row", "spacer", "stack"]

SIDE_MARGIN_PERCENT = 3


class View(QWidget):
    """A screen body: keeps a side margin proportional to its width."""

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt's name)
        layout = self.layout()
        if layout is not None:
            margin = self.width() * SIDE_MARGIN_PERCENT // 100
            layout.setContentsMargins(margin, 0, margin, 0)
        super().resizeEvent(event)


def spacer() -> QWidget:
    """An empty share of a stack or a row: it takes its stretch, and no size of its own."""
    empty = QWidget()
    empty.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Ignored)
    return empty


def stack(parent: QWidget, items: Sequence[tuple[QWidget, int]]) -> QVBoxLayout:
    """``items`` top to bottom in ``parent``, each ``(widget, stretch)``: no margins, no gaps."""
    layout = QVBoxLayout(parent)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.setSpacing(0)
    for widget, stretch in items:
        layout.addWidget(widget, stretch)
    return layout


class Row(QWidget):
    """Widgets side by side, kept apart by a gap that grows with the row (a quarter of its
    height, at least ``spacing``): text beside a button never runs into it on a big screen."""

    def __init__(self, items: Sequence[tuple[QWidget, int]], *, spacing: int, margin: int) -> None:
        super().__init__()
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Ignored)
        self._spacing = spacing
        self._layout = QHBoxLayout(self)
        self._layout.setContentsMargins(0, margin, 0, margin)
        self._layout.setSpacing(spacing)
        for widget, stretch in items:
            self._layout.addWidget(widget, stretch)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt's name)
        spacing = max(self._spacing, self.height() // 4)
        if spacing != self._layout.spacing():
            self._layout.setSpacing(spacing)
            self._layout.activate()  # now, not after the frame: the widgets are placed already
        super().resizeEvent(event)


def row(*items: tuple[QWidget, int], spacing: int = 8, margin: int = 4) -> QWidget:
    """``items`` left to right, each ``(widget, stretch)`` (a ``Row``)."""
    return Row(items, spacing=spacing, margin=margin)


def centred(widget: QWidget, percent: int) -> QWidget:
    """``widget`` in the middle of a row, ``percent`` of its width."""
    middle = QWidget()
    middle.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Ignored)
    layout = QHBoxLayout(middle)
    layout.setContentsMargins(0, 4, 0, 4)
    side = (100 - percent) // 2
    layout.addWidget(spacer(), side)
    layout.addWidget(widget, percent)
    layout.addWidget(spacer(), side)
    return middle
