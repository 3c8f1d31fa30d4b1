"""Nothing is truncated, from 1024x600 to 4K, with eight words of fifteen letters."""

from __future__ import annotations

import re

import pytest
from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import (
    QAbstractButton,
    QLabel,
    QPushButton,
    QStyle,
    QStyleOptionButton,
    QWidget,
)

from kiosk.ui.window import StationWindow
from tests.ui.conftest import StationFactory, tab, type_text

EIGHT_LONG = "8" + " ".join(["WWWWWWWWWWWWWWW"] * 4 + ["MMMMMMMMMMMMMMM"] * 4)
SIZES = [(1024, 600), (1280, 800), (1920, 1080), (3840, 2160)]


def readable_px(window: QWidget) -> int:
    """The smallest type a screen may show: 12 px on a 7-inch 1024x600 panel, and the same share
    of a taller screen (22 px at 1080 lines), so that nothing is readable on the small screen
    only."""
    return max(12, window.height() // 50)


def text_widgets(window: QWidget) -> list[QWidget]:
    """Every visible label or button that shows text."""
    found: list[QWidget] = []
    for widget in window.findChildren(QLabel) + window.findChildren(QAbstractButton):
        if widget.isVisible() and widget.text() and widget.window() is window.window():
            found.append(widget)
    return found


def _aligned(outer: QRect, width: int, height: int, alignment: Qt.AlignmentFlag) -> QRect:
    if alignment & Qt.AlignmentFlag.AlignLeft:
        x = outer.left()
    elif alignment & Qt.AlignmentFlag.AlignRight:
        x = outer.right() + 1 - width
    else:
        x = outer.left() + (outer.width() - width) // 2
    if alignment & Qt.AlignmentFlag.AlignTop:
        y = outer.top()
    elif alignment & Qt.AlignmentFlag.AlignBottom:
        y = outer.bottom() + 1 - height
    else:
        y = outer.top() + (outer.height() - height) // 2
    return QRect(x, y, width, height)


def ink(widget: QWidget) -> QRect:
    """Where a label's or a button's text is drawn, in its window's coordinates."""
    metrics = QFontMetrics(widget.font())
    lines = widget.text().split("\n")  # type: ignore[attr-defined]
    width = max(metrics.horizontalAdvance(line) for line in lines)
    height = metrics.height() * len(lines)
    if isinstance(widget, QLabel):
        box, alignment = widget.contentsRect(), widget.alignment()
    else:
        assert isinstance(widget, QPushButton)
        option = QStyleOptionButton()
        widget.initStyleOption(option)
        box = widget.style().subElementRect(QStyle.SubElement.SE_PushButtonContents, option, widget)
        left = "text-align: left" in widget.styleSheet()
        alignment = Qt.AlignmentFlag.AlignLeft if left else Qt.AlignmentFlag.AlignHCenter
    local = _aligned(box, width, height, alignment)
    return QRect(widget.mapTo(widget.window(), local.topLeft()), local.size())


def frame(widget: QWidget) -> QRect:
    return QRect(widget.mapTo(widget.window(), widget.rect().topLeft()), widget.size())


def shown(widget: QWidget) -> str:
    """The text a label or a button shows."""
    return str(widget.text())  # type: ignore[attr-defined]


def boxed(widget: QWidget) -> bool:
    return isinstance(widget, QAbstractButton) or getattr(widget, "background", None) is not None


def _related(a: QWidget, b: QWidget) -> bool:
    return a.isAncestorOf(b) or b.isAncestorOf(a)


def assert_nothing_collides(window: QWidget) -> int:
    """No text runs into another text or button, nor touches the edge of its own button: a gap
    of at least a third of the type's size everywhere (at least 6 px)."""
    widgets = text_widgets(window)
    for widget in widgets:
        gap = max(6, widget.font().pixelSize() * 3 // 10)
        drawn = ink(widget)
        if boxed(widget):  # a button, or a label with a background of its own: text clear of the edge
            box = frame(widget)
            room = min(drawn.left() - box.left(), box.right() - drawn.right())
            edge = max(10, widget.font().pixelSize() // 2)
            assert room >= edge, f"{widget.objectName()} {shown(widget)!r}: {room} px to its edge, < {edge}"
        for other in widgets:
            if other is widget or _related(widget, other):
                continue
            theirs = frame(other) if boxed(other) else ink(other)
            # across: the gap; up and down, lines may share the font's empty descent and leading
            slack = widget.font().pixelSize() // 8
            near = drawn.adjusted(-gap, slack, gap, -slack)
            assert not near.intersects(theirs), (
                f"{widget.objectName()} {shown(widget)!r} runs into {other.objectName()} {shown(other)!r}"
            )
    return len(widgets)


_KEY_HINT = re.compile(r"\((?:enter|esc|tab|[a-z])\)")


def _said(text: str) -> str:
    text = _KEY_HINT.sub(" ", text.lower())
    return " ".join(re.sub(r"[!-/:-@\[-`{-~\u2014\u00b7]", " ", text).split())  # arrows stay


DATA = ("slot-", "recheck-word-", "recheck-row-")  # what players typed and the log holds: may repeat


def assert_nothing_said_twice(window: QWidget) -> int:
    """No two texts on a screen say the same, and none repeats another's phrase of 3+ words."""
    said = [
        (w, _said(w.text()))  # type: ignore[attr-defined]
        for w in text_widgets(window)
        if not w.objectName().startswith(DATA) and any(c.isalpha() for c in w.text())  # type: ignore[attr-defined]
    ]  # (a lone arrow, a key of the keypad: symbols, not sentences)
    for widget, text in said:
        for other, theirs in said:
            if other is widget or not theirs:
                continue
            assert text != theirs or text.isupper(), (
                f"{widget.objectName()} and {other.objectName()}: {text!r}"
            )
            if len(theirs.split()) >= 3:
                assert f" {theirs} " not in f" {text} ", (
                    f"{widget.objectName()} {widget.text()!r} repeats {other.objectName()} {other.text()!r}"  # type: ignore[attr-defined]
                )
    return len(said)


_NOUNS = "word|letter|challenge|PIN|pack|station|division|second"
_ONE_MANY = re.compile(rf"\b1 ({_NOUNS})s\b|\ball 1\b", re.IGNORECASE)
_MANY_ONE = re.compile(rf"\b(0|[2-9]|\d\d+) ({_NOUNS})\b", re.IGNORECASE)


def assert_counts_agree(window: QWidget) -> None:
    """ "1 word", "3 words": never "1 words", "3 word" or "All 1 word are typed"."""
    for widget in text_widgets(window):
        text = widget.text()  # type: ignore[attr-defined]
        assert not _ONE_MANY.search(text), f"{widget.objectName()}: {text!r}"
        assert not _MANY_ONE.search(text), f"{widget.objectName()}: {text!r}"


def assert_every_text_fits(window: StationWindow | QWidget) -> int:
    """Every text whole in its box, readable, clear of every other text, said once, counted right."""
    checked = 0
    smallest = readable_px(window)
    for label in window.findChildren(QLabel):
        if not label.isVisible() or not label.text():
            continue
        rect = label.contentsRect()
        metrics = QFontMetrics(label.font())
        lines = label.text().split("\n")
        widest = max(metrics.horizontalAdvance(line) for line in lines)
        assert widest <= rect.width(), f"{label.objectName()} {label.text()!r}: {widest} > {rect.width()}"
        assert metrics.height() * len(lines) <= rect.height(), f"{label.objectName()} {label.text()!r}"
        size = label.font().pixelSize()
        assert size >= smallest, f"{label.objectName()} {label.text()!r}: {size} px < {smallest}"
        checked += 1
    for button in window.findChildren(QPushButton):
        if button.isVisible():
            metrics = QFontMetrics(button.font())  # a division's key has two lines
            advance = max(metrics.horizontalAdvance(line) for line in button.text().split("\n"))
            assert advance <= button.width(), button.text()
            if button.text():
                assert button.font().pixelSize() >= smallest, (
                    f"{button.objectName()} {button.text()!r}: {button.font().pixelSize()} px < {smallest}"
                )
            checked += 1
    assert_nothing_collides(window)
    assert_nothing_said_twice(window)
    assert_counts_agree(window)
    return checked


@pytest.mark.parametrize("size", SIZES)
def test_eight_words_of_fifteen_letters_fit_on_entry_and_verdict(
    station: StationFactory, size: tuple[int, int]
) -> None:
    window = station(size=size).window
    assert assert_every_text_fits(window) > 3
    type_text(window, EIGHT_LONG)
    assert window.entry.title.text() == "CHALLENGER: type word 8 of 8"  # still typing the last one
    type_text(window, " ")
    assert window.entry.title.text() == "All 8 words typed"
    assert assert_every_text_fits(window) > 8 * 3
    tab(window)
    assert window.stack.currentWidget() is window.verdict
    assert assert_every_text_fits(window) > 8 * 2


def test_a_long_refusal_fits_at_the_smallest_size(station: StationFactory) -> None:
    window = station(size=(1024, 600)).window
    type_text(window, "1WWWWWWWWWWWWWW\u200b")
    assert "ZERO WIDTH SPACE" in window.entry.notice.source
    assert_every_text_fits(window)


def test_the_touch_screens_fit_at_the_smallest_size(station: StationFactory) -> None:
    window = station(size=(1024, 600), touch=True).window
    assert_every_text_fits(window)
    type_text(window, EIGHT_LONG)
    assert_every_text_fits(window)


def test_word_size_does_not_depend_on_the_word(station: StationFactory) -> None:
    window = station().window
    type_text(window, "2qi mmmmm")
    sizes = {label.font().pixelSize() for label in window.entry.grid.words[:2]}
    assert len(sizes) == 1
