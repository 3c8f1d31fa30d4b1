"""Colours, type and the one rule of sizing: text takes its size from the space it is given.

Every label's space comes from the screen (layout stretch factors, never the text), and its font
is the largest that fits that space, so nothing is truncated from 1024x600 to 4K and nothing about
a screen's layout depends on what is written in it.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QResizeEvent
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget

__all__ = [
    "ACCEPTABLE_BACKGROUND",
    "BACKGROUND",
    "FAULT_BACKGROUND",
    "FONT_FAMILY",
    "MIN_FONT_PX",
    "NOTICE",
    "TEXT",
    "UNACCEPTABLE_BACKGROUND",
    "FitLabel",
    "fits",
    "largest_fitting_px",
    "paint_background",
]

FONT_FAMILY = "DejaVu Sans"
MIN_FONT_PX = 8
# Dark screens with white text: every pair below has a contrast ratio of at least 6:1.
BACKGROUND = "#101418"
TEXT = "#f5f5f5"
DIM_TEXT = "#c8ccd0"
NOTICE = "#ffd24d"
ACCEPTABLE_BACKGROUND = "#0b6b2e"
UNACCEPTABLE_BACKGROUND = "#b0121b"
FAULT_BACKGROUND = "#6b4300"
KEY_BACKGROUND = "#2a3038"


def paint_background(widget: QWidget, colour: str) -> None:
    widget.setAutoFillBackground(True)
    palette = widget.palette()
    palette.setColor(widget.backgroundRole(), QColor(colour))
    palette.setColor(widget.foregroundRole(), QColor(TEXT))
    widget.setPalette(palette)


def _lines(text: str) -> list[str]:
    return text.split("\n") if text else [""]


def fits(font: QFont, text: str, width: int, height: int) -> bool:
    """Whether every line of ``text`` fits side by side and stacked in ``width`` x ``height``."""
    metrics = QFontMetrics(font)
    lines = _lines(text)
    widest = max(metrics.horizontalAdvance(line) for line in lines)
    return widest <= width and metrics.height() * len(lines) <= height


def largest_fitting_px(font: QFont, text: str, width: int, height: int, ceiling_px: int) -> int:
    """The largest pixel size at most ``ceiling_px`` at which ``text`` fits the box.

    Text grows almost in proportion to its pixel size, so one measure at the ceiling predicts the
    answer and a step or two either side settles it. Every size measured costs Qt a new font
    engine: a bisection (seven sizes a label) was the slowest part of drawing the ready screen.
    """
    ceiling = max(MIN_FONT_PX, ceiling_px)
    probe = QFont(font)

    def fits_at(size: int) -> bool:
        probe.setPixelSize(size)
        return fits(probe, text, width, height)

    probe.setPixelSize(ceiling)
    metrics = QFontMetrics(probe)
    lines = _lines(text)
    widest = max(metrics.horizontalAdvance(line) for line in lines)
    tallest = metrics.height() * len(lines)
    if ceiling == MIN_FONT_PX or (widest <= width and tallest <= height):
        return ceiling  # never below MIN_FONT_PX, even when nothing fits
    scale = min(width / widest if widest > 0 else 1.0, height / tallest if tallest > 0 else 1.0)
    size = min(ceiling - 1, max(MIN_FONT_PX, int(ceiling * scale)))
    if fits_at(size):
        while size + 1 < ceiling and fits_at(size + 1):
            size += 1
    else:
        while size > MIN_FONT_PX and not fits_at(size):
            size -= 1
    return size


class FitLabel(QLabel):
    """A label whose font is the largest that fits its box, at most ``fill`` of its height.

    ``reference`` sizes the font for a text other than the one shown (e.g. the longest possible
    word), so that the size does not depend on the text itself.
    """

    def __init__(
        self,
        text: str = "",
        *,
        fill: float = 0.8,
        bold: bool = False,
        colour: str = TEXT,
        align: Qt.AlignmentFlag = Qt.AlignmentFlag.AlignCenter,
        reference: str | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(text, parent)
        self._fill = fill
        self._reference = reference
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Ignored)
        self.setMinimumSize(1, 1)
        self.setAlignment(align)
        font = QFont(FONT_FAMILY)
        font.setBold(bold)
        self.setFont(font)
        self.setStyleSheet(f"color: {colour}; background: transparent;")
        # Until its first resize event a label has no geometry of its own (the layout gives it one
        # when the screen is shown or grabbed): fitting text to the default size is wasted work.
        self._sized = False

    def set_reference(self, reference: str | None) -> None:
        self._reference = reference
        self._fit()

    def setText(self, text: str) -> None:  # noqa: N802 (Qt's name)
        if text != self.text():
            super().setText(text)
            self._fit()

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt's name)
        super().resizeEvent(event)
        self._sized = True
        self._fit()

    def _fit(self) -> None:
        if not self._sized:
            return
        rect = self.contentsRect()
        if rect.width() <= 1 or rect.height() <= 1:
            return
        text = self._reference if self._reference is not None else self.text()
        lines = len(_lines(text))
        ceiling = int(rect.height() * self._fill / lines)
        size = largest_fitting_px(self.font(), text, rect.width(), rect.height(), ceiling)
        if self._reference is not None and not fits(
            self._font_at(size), self.text(), rect.width(), rect.height()
        ):
            size = largest_fitting_px(self.font(), self.text(), rect.width(), rect.height(), size)
        if self.font().pixelSize() != size:
            self.setFont(self._font_at(size))

    def _font_at(self, size: int) -> QFont:
        font = QFont(self.font())
        font.setPixelSize(size)
        return font
