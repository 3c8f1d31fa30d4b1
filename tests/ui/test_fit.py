"""Nothing is truncated, from 1024x600 to 4K, with eight words of fifteen letters."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QLabel, QPushButton

from kiosk.ui.window import StationWindow
from tests.ui.conftest import StationFactory, tab, type_text

EIGHT_LONG = "8" + " ".join(["WWWWWWWWWWWWWWW"] * 4 + ["MMMMMMMMMMMMMMM"] * 4)
SIZES = [(1024, 600), (1280, 800), (1920, 1080), (3840, 2160)]


def assert_every_text_fits(window: StationWindow) -> int:
    checked = 0
    for label in window.findChildren(QLabel):
        if not label.isVisible() or not label.text():
            continue
        rect = label.contentsRect()
        metrics = QFontMetrics(label.font())
        lines = label.text().split("\n")
        widest = max(metrics.horizontalAdvance(line) for line in lines)
        assert widest <= rect.width(), f"{label.objectName()} {label.text()!r}: {widest} > {rect.width()}"
        assert metrics.height() * len(lines) <= rect.height(), f"{label.objectName()} {label.text()!r}"
        assert label.font().pixelSize() >= 10, f"{label.objectName()} {label.text()!r} is unreadably small"
        checked += 1
    for button in window.findChildren(QPushButton):
        if button.isVisible():
            advance = QFontMetrics(button.font()).horizontalAdvance(button.text())
            assert advance <= button.width(), button.text()
            checked += 1
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
    assert "ZERO WIDTH SPACE" in window.entry.notice.text()
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
