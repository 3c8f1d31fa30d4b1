"""Colours, type and the one rule of sizing: text takes its size from the space it is given.

Every label's space comes from the screen (layout stretch factors, never the text), and its font
is the largest that fits that space, so nothing is truncated from 1024x600 to 4K and nothing about
a screen's layout depends on what is written in it.
"""

from __future__ import annotations

import math
import textwrap

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QResizeEvent
from PySide6.QtWidgets import QLabel, QPushButton, QSizePolicy, QWidget

__all__ = [
    "ACCEPTABLE_BACKGROUND",
    "BACKGROUND",
    "BAD",
    "DANGER",
    "DARK_TEXT",
    "DIM_TEXT",
    "DISABLED_BACKGROUND",
    "DISABLED_TEXT",
    "FAULT_BACKGROUND",
    "FONT_FAMILY",
    "GOOD",
    "KEY_BACKGROUND",
    "KEY_BORDER",
    "MIN_CONTRAST",
    "MIN_FONT_PX",
    "MIN_TOUCH_TARGET_PX",
    "NOTICE",
    "PUBLISHED",
    "QUIET_BORDER",
    "SAFE",
    "SELECTED",
    "TEXT",
    "UNACCEPTABLE_BACKGROUND",
    "FitButton",
    "FitLabel",
    "Look",
    "contrast_ratio",
    "fits",
    "largest_fitting_px",
    "look",
    "paint_background",
    "text_on",
    "touch_target_px",
    "use_look",
    "wrapped",
]

FONT_FAMILY = "DejaVu Sans"
MIN_FONT_PX = 8
# Dark screens with light text. WCAG contrast: at least 4.5:1 for every text on its background
# (tests/ui/test_theme.py checks each shown label), 7:1 for the verdict's and the fault's text.
MIN_CONTRAST = 4.5
BACKGROUND = "#101418"
TEXT = "#f5f5f5"
DARK_TEXT = "#101418"  # on a light division colour an organiser may choose
DIM_TEXT = "#c8ccd0"
NOTICE = "#ffd24d"
PUBLISHED = "#8be39b"  # a published word set, on the dark background: contrast > 9:1, and a tick too
ACCEPTABLE_BACKGROUND = "#09602a"
UNACCEPTABLE_BACKGROUND = "#a3111a"
FAULT_BACKGROUND = "#6b4300"
KEY_BACKGROUND = "#2a3038"
KEY_BORDER = "#59626e"  # a button's edge, and its face while pressed
QUIET_BORDER = "#3a424c"  # the players' small Judge button, which must not draw the eye
DISABLED_TEXT = "#9aa1a9"
DISABLED_BACKGROUND = "#1b1f24"
SAFE = "#1d6b3a"  # the way forward: JUDGE, OK, Save, Write, Back to the station
DANGER = "#8f1a1a"  # Exit the station
SELECTED = "#1f5fbf"  # the chosen line of a judge list
GOOD = "#8be39b"  # per-word results on the dark background: contrast > 9:1, and a tick or cross too
BAD = "#ff9a9a"
# A finger needs about 44 px on a 7-inch 1024x600 screen; a taller screen of the same kind gets
# the same share of its height, so every tap target is at least this tall and wide.
MIN_TOUCH_TARGET_PX = 44
TOUCH_REFERENCE_HEIGHT_PX = 600


def touch_target_px(screen_height_px: int) -> int:
    """The smallest side of a tap target on a screen this tall."""
    return max(MIN_TOUCH_TARGET_PX, screen_height_px * MIN_TOUCH_TARGET_PX // TOUCH_REFERENCE_HEIGHT_PX)


def _luminance(colour: str) -> float:
    value = QColor(colour)
    channels = []
    for channel in (value.redF(), value.greenF(), value.blueF()):
        linear = channel / 12.92 if channel <= 0.04045 else ((channel + 0.055) / 1.055) ** 2.4
        channels.append(linear)
    return 0.2126 * channels[0] + 0.7152 * channels[1] + 0.0722 * channels[2]


def contrast_ratio(foreground: str, background: str) -> float:
    """The WCAG 2 contrast ratio of two colours, from 1 (none) to 21 (black on white)."""
    light, dark = sorted((_luminance(foreground), _luminance(background)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


# -- the station's look: the colours above, or high contrast; the type as fitted, or larger -------

# High contrast (``[access] high_contrast``): black and pure white, pure yellow notices, no dim
# grey, darker verdict and button colours so that white reads on them at 10:1 or more, and
# white edges round every button.
HIGH_CONTRAST = {
    BACKGROUND: "#000000",
    TEXT: "#ffffff",
    DIM_TEXT: "#ffffff",
    NOTICE: "#ffff00",
    PUBLISHED: "#9cffa8",
    GOOD: "#9cffa8",
    BAD: "#ffb8b8",
    ACCEPTABLE_BACKGROUND: "#003311",
    UNACCEPTABLE_BACKGROUND: "#5c0000",
    FAULT_BACKGROUND: "#332000",
    KEY_BACKGROUND: "#000000",
    KEY_BORDER: "#ffffff",
    QUIET_BORDER: "#ffffff",
    DISABLED_TEXT: "#c8c8c8",
    DISABLED_BACKGROUND: "#000000",
    SAFE: "#003d18",
    DANGER: "#5c0000",
    SELECTED: "#00297a",
}
LARGE_TEXT_SCALE = 1.3  # large text (``[access] large_text``): type this much larger where it fits
MAX_FILL = 0.95  # of a label's height: a line of type never touches the next


class Look:
    """How the station draws: colours (``high_contrast``) and type (``large_text``).

    The one piece of state this module keeps: chosen once by ``kiosk.ui.app`` from the station's
    ``[access]`` settings before the first widget is built (``use_look``), and read by the widgets
    below as they style and fit themselves; a test sets its own and puts the default back. (Passing
    it into every screen's constructor waits for the players' screens' new rooms, issue 23.)
    """

    def __init__(self, *, high_contrast: bool = False, large_text: bool = False) -> None:
        self.high_contrast = high_contrast
        self.large_text = large_text

    def colour(self, colour: str) -> str:
        """``colour`` as this look paints it (an organiser's division colour stays as chosen,
        unless it is one of the station's own: the first default division colour is ``SELECTED``)."""
        return HIGH_CONTRAST.get(colour, colour) if self.high_contrast else colour

    def fill(self, fill: float) -> float:
        """The share of its height a line of type may fill."""
        return min(MAX_FILL, fill * LARGE_TEXT_SCALE) if self.large_text else fill

    @property
    def border_px(self) -> int:
        return 3 if self.high_contrast else 2


_LOOK = [Look()]  # a list, so that use_look needs no "global" statement


def look() -> Look:
    return _LOOK[0]


def use_look(chosen: Look) -> Look:
    """Draw every widget built from now on in ``chosen``; return the look it replaces."""
    before, _LOOK[0] = _LOOK[0], chosen
    return before


def text_on(background: str) -> str:
    """Light or dark text, whichever reads better on ``background`` (a division's colour)."""
    if contrast_ratio(TEXT, background) >= contrast_ratio(DARK_TEXT, background):
        return TEXT
    return DARK_TEXT


def paint_background(widget: QWidget, colour: str) -> None:
    widget.setAutoFillBackground(True)
    palette = widget.palette()
    palette.setColor(widget.backgroundRole(), QColor(look().colour(colour)))
    palette.setColor(widget.foregroundRole(), QColor(look().colour(TEXT)))
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


def wrapped(text: str, width_chars: int) -> str:
    """``text`` with every line longer than ``width_chars`` broken between words (an indented
    line's continuation keeps its indent; a word longer than the width is broken too)."""
    out: list[str] = []
    for line in _lines(text):
        if len(line) <= width_chars:
            out.append(line)
            continue
        indent = line[: len(line) - len(line.lstrip(" "))]
        out.extend(
            textwrap.wrap(
                line,
                width_chars,
                initial_indent="",
                subsequent_indent=indent + "  ",
                break_on_hyphens=False,
            )
            or [line]
        )
    return "\n".join(out)


# The line lengths (in characters) a wrapping label tries besides the text's own: one of them
# gives the largest type. A long message then reads in a few lines instead of one tiny one.
WRAP_CHARS = (96, 80, 68, 58, 50, 42, 36, 30, 24)
WRAP_GAIN = 1.1  # the fewest lines whose type is within a tenth of the largest arrangement's


class FitLabel(QLabel):
    """A label whose font is the largest that fits its box, at most ``fill`` of its height.

    ``reference`` sizes the font for a text other than the one shown (e.g. the longest possible
    word), so that the size does not depend on the text itself. ``wrap``: a text that arrives
    in long lines (a message naming a file, an error from the disk) is broken between words
    wherever that gives it a larger type, so that no line of it shrinks the whole to a size
    nobody can read; ``source`` keeps the text as it was given. ``lines``: the box is sized for
    at least this many lines, so that a text of a line or two takes the type of a page of text,
    not of a poster (and is not broken into more lines to grow larger still).

    The text is plain, never rich text: a station, division or pack name (or a word, a file name,
    an error from the disk) is shown as it is written, ``<img src=...>`` and ``&amp;`` included.
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
        wrap: bool = False,
        lines: int = 1,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setTextFormat(Qt.TextFormat.PlainText)  # before any text: Qt guesses rich text from tags
        super().setText(text)
        self._fill = look().fill(fill)
        self._reference = reference
        self._wrap = wrap
        self._lines = lines
        self.source = text
        self.colour = colour
        self.background: str | None = None  # None: the parent's background shows through
        self.max_px: int | None = None  # a cap shared by labels that must match (rows a pixel apart)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Ignored)
        self.setMinimumSize(1, 1)
        self.setAlignment(align)
        font = QFont(FONT_FAMILY)
        font.setBold(bold)
        self.setFont(font)
        self.setStyleSheet(f"color: {look().colour(colour)}; background: transparent;")
        # Until its first resize event a label has no geometry of its own (the layout gives it one
        # when the screen is shown or grabbed): fitting text to the default size is wasted work.
        self._sized = False

    def set_colour(self, colour: str, background: str | None = None) -> None:
        """The text colour (and a background of its own, for a chosen line: the text then keeps
        a margin from that box's edges, as a button's does)."""
        if (colour, background) == (self.colour, self.background):
            return
        self.colour, self.background = colour, background
        shown = look().colour(background) if background else "transparent"
        self.setStyleSheet(f"color: {look().colour(colour)}; background: {shown}; border-radius: 6px;")
        self._fit()

    def set_max_px(self, max_px: int | None) -> None:
        if max_px != self.max_px:
            self.max_px = max_px
            self._fit()

    def set_reference(self, reference: str | None) -> None:
        self._reference = reference
        self._fit()

    def setText(self, text: str) -> None:  # noqa: N802 (Qt's name)
        if text != self.source or (not self._wrap and text != self.text()):
            self.source = text
            super().setText(text)
            self._fit()

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt's name)
        super().resizeEvent(event)
        self._sized = True
        self._fit()

    def _fit(self) -> None:
        if not self._sized:
            return
        # a box of its own: the text keeps half its type size from the edge, as a button's does,
        # even when a long text (a translation) fills the width
        side = (
            0
            if self.background is None
            else max(10, self.height() // 4, math.ceil(self.height() * self._fill / 2))
        )
        if self.contentsMargins().left() != side:
            self.setContentsMargins(side, 0, side, 0)
        rect = self.contentsRect()
        if rect.width() <= 1 or rect.height() <= 1:
            return
        if self._wrap and self._reference is None:
            self._fit_wrapped(rect.width(), rect.height())
            return
        size = self._fitting(self.max_px)
        if self.font().pixelSize() != size:
            self.setFont(self._font_at(size))

    def fitting_px(self) -> int:
        """The type size the text would take on its own, whatever ``max_px`` (labels that must
        match take the smallest of theirs as their shared cap)."""
        return self._fitting(None)

    def _fitting(self, max_px: int | None) -> int:
        rect = self.contentsRect()
        text = self._reference if self._reference is not None else self.text()
        lines = max(self._lines, len(_lines(text)))
        ceiling = int(rect.height() * self._fill / lines)
        if max_px is not None:
            ceiling = min(ceiling, max_px)
        size = largest_fitting_px(self.font(), text, rect.width(), rect.height(), ceiling)
        if self._reference is not None and not fits(
            self._font_at(size), self.text(), rect.width(), rect.height()
        ):
            size = largest_fitting_px(self.font(), self.text(), rect.width(), rect.height(), size)
        return size

    def _fit_wrapped(self, width: int, height: int) -> None:
        """The arrangement of ``source`` in lines that gives the largest type, and that type; but
        a line is broken only for a type a tenth larger (WRAP_GAIN): a sentence split for a pixel
        or two reads worse than one a pixel smaller."""
        longest = max(len(line) for line in _lines(self.source))
        tried: list[tuple[str, int]] = []
        for chars in (longest, *(c for c in WRAP_CHARS if c < longest)):
            text = wrapped(self.source, chars)
            ceiling = int(height * self._fill / max(self._lines, len(_lines(text))))
            if self.max_px is not None:
                ceiling = min(ceiling, self.max_px)
            tried.append((text, largest_fitting_px(self.font(), text, width, height, ceiling)))
        largest = max(size for _, size in tried)
        best_text, best_size = min(
            (arrangement for arrangement in tried if arrangement[1] * WRAP_GAIN >= largest),
            key=lambda arrangement: (len(_lines(arrangement[0])), -arrangement[1]),
        )
        if best_text != self.text():
            super().setText(best_text)
        if self.font().pixelSize() != best_size:
            self.setFont(self._font_at(best_size))

    def _font_at(self, size: int) -> QFont:
        font = QFont(self.font())
        font.setPixelSize(size)
        return font


class FitButton(QPushButton):
    """The station's one button: its font fills it, and it never takes the keyboard focus (the
    window keeps it). The players' keys and the judge screens' buttons alike.

    ``key``: a key of the players' screens (the touch keyboard, the count pad, the divisions):
    its type is as large as fits, up to half its height, shrinking for a long label, never cut
    short. Otherwise (judge mode) the type fills two fifths of the height and a label too long to
    be read at a third of it is cut short with an ellipsis (the screen shows it whole elsewhere).
    The text keeps a margin from the button's edge that grows with the button, so that no label
    ever touches its box, from 1024x600 to 4K. ``colour`` None: a quiet button that does not draw
    the eye (the players' way into judge mode).
    """

    def __init__(
        self, text: str = "", *, colour: str | None = KEY_BACKGROUND, left: bool = False, key: bool = False
    ) -> None:
        super().__init__()
        self._show(text)
        self.full_text = text
        self.reference: str | None = None  # size the font for this text (buttons that match)
        self.fixed_px: int | None = None  # one size for a set of buttons; a longer text is cut short
        self.max_px: int | None = None  # a cap shared by buttons that must match (the division choices)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Ignored)
        self._left = left
        self._key = key
        self._colour: str | None = ""
        self._margin = -1
        self.set_colour(colour)

    @property
    def lines(self) -> int:
        return max(1, self.full_text.count("\n") + 1)

    @property
    def margin(self) -> int:
        """The room between the text and the button's edge, on each side."""
        if self._key:
            return max(4, self.height() // (5 * self.lines))
        return max(12, self.height() // 4)

    def set_colour(self, colour: str | None) -> None:
        if colour == self._colour:
            return
        self._colour = colour
        self._restyle()

    def _restyle(self) -> None:
        self._margin = self.margin
        align = f"text-align: left; padding-left: {self._margin}px;" if self._left else ""
        drawn = look()
        if self._colour is None:
            self.setStyleSheet(
                f"QPushButton {{ background: transparent; color: {drawn.colour(DIM_TEXT)}; border: 1px solid "
                f"{drawn.colour(QUIET_BORDER)}; border-radius: 6px; }} "
                f"QPushButton:pressed {{ background: {drawn.colour(QUIET_BORDER)}; }}"
            )
            return
        face = drawn.colour(self._colour)
        pressed = drawn.colour(KEY_BORDER)
        pressed_text = f" color: {text_on(pressed)};" if drawn.high_contrast else ""  # white on white
        self.setStyleSheet(
            f"QPushButton {{ background: {face}; color: {drawn.colour(text_on(self._colour))}; "
            f"border: {drawn.border_px}px solid {drawn.colour(KEY_BORDER)}; border-radius: 8px; {align} }} "
            f"QPushButton:pressed {{ background: {pressed};{pressed_text} }} "
            f"QPushButton:disabled {{ color: {drawn.colour(DISABLED_TEXT)}; "
            f"background: {drawn.colour(DISABLED_BACKGROUND)}; }}"
        )

    def setText(self, text: str) -> None:  # noqa: N802 (Qt's name)
        if text != self.full_text:
            self.full_text = text
            self.fit_font()

    def set_max_px(self, max_px: int | None) -> None:
        if max_px != self.max_px:
            self.max_px = max_px
            self.fit_font()

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt's name)
        super().resizeEvent(event)
        if self._left and self.margin != self._margin:
            self._restyle()
        self.fit_font()

    def _room(self) -> tuple[int, int]:
        """The width and height the text may take."""
        return self.width() - 2 * self.margin - 4, self.height() - (4 if self._key else 8)

    def _ceiling(self) -> int:
        lines, height = self.lines, self.height()
        if look().large_text:
            share = look().fill(0.5 if self._key else 0.4) if lines == 1 else look().fill(2 / 3) / lines
            return int(height * share)
        if self._key:
            return height // 2 if lines == 1 else height * 2 // (3 * lines)
        return height * (2 if lines == 1 else 3) // 5 // lines

    def fitting_px(self) -> int:
        """The largest type that fits this button's text (before any cap shared with others)."""
        font = QFont(FONT_FAMILY)
        font.setBold(True)
        width, height = self._room()
        ceiling = self._ceiling()
        if self.reference is not None:
            ceiling = largest_fitting_px(font, self.reference, width, height, ceiling)
        return largest_fitting_px(font, self.full_text, width, height, ceiling)

    def fit_font(self) -> None:
        """The largest font that fits. Buttons sized as a set (``reference``, the menu; ``max_px``,
        the divisions) shrink together and are never cut short; ``fixed_px`` is one size for a
        set of rows, a longer text cut short."""
        text = self.full_text
        width, height = self._room()
        if width <= 8 or height <= 4:
            self._show(text)
            return
        font = QFont(FONT_FAMILY)
        font.setBold(True)
        if self.fixed_px is not None:
            font.setPixelSize(self.fixed_px)
            self.setFont(font)
            self._show(QFontMetrics(font).elidedText(text, Qt.TextElideMode.ElideRight, width))
            return
        size = self.fitting_px()
        if self.max_px is not None:
            size = min(size, self.max_px)
        readable = max(MIN_FONT_PX, self.height() // 3)
        if not self._key and self.lines == 1 and size < readable and self.reference is None:
            size = readable  # a set (the menu) shrinks whole; a lone label is cut short instead
            font.setPixelSize(size)
            text = QFontMetrics(font).elidedText(text, Qt.TextElideMode.ElideRight, width)
        font.setPixelSize(size)
        self.setFont(font)
        self._show(text)

    def _show(self, text: str) -> None:
        """Show ``text`` as it is written: a button takes "&" for a shortcut mark (a division
        "R&D" would show "RD" and answer Alt+D), so each one is doubled to be a plain "&"."""
        super().setText(text.replace("&", "&&"))
