"""Colours: every text readable on its background, the verdict's in high contrast."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QWidget

from kiosk.core.station.config import DEFAULT_COLOURS, Division
from kiosk.ui import theme
from kiosk.ui.theme import FitLabel
from tests.ui.conftest import MemoryLog, StationFactory, tab, type_text

VERDICT_CONTRAST = 7.0  # WCAG AAA: the ruling must read from across the table


def background_of(widget: QWidget) -> str:
    """The colour painted behind ``widget``: its own, or the nearest parent's that fills one."""
    if isinstance(widget, FitLabel) and widget.background is not None:
        return widget.background
    current: QWidget | None = widget.parentWidget()
    while current is not None:
        if current.autoFillBackground():
            return current.palette().color(current.backgroundRole()).name()
        current = current.parentWidget()
    return theme.BACKGROUND


def assert_every_label_readable(root: QWidget, minimum: float = theme.MIN_CONTRAST) -> int:
    checked = 0
    for label in root.findChildren(FitLabel):
        if label.isVisible() and label.text():
            ratio = theme.contrast_ratio(label.colour, background_of(label))
            assert ratio >= minimum, f"{label.objectName()} {label.text()!r}: contrast {ratio:.2f}"
            checked += 1
    return checked


def test_contrast_ratio_matches_wcag() -> None:
    assert theme.contrast_ratio("#000000", "#ffffff") == pytest.approx(21.0)
    assert theme.contrast_ratio("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)
    assert theme.contrast_ratio("#123456", "#123456") == pytest.approx(1.0)


def test_text_on_a_division_colour_is_readable_light_or_dark() -> None:
    for colour in DEFAULT_COLOURS:
        assert theme.contrast_ratio(theme.text_on(colour), colour) >= theme.MIN_CONTRAST, colour
    assert theme.text_on("#ffe066") == theme.DARK_TEXT  # an organiser's yellow gets dark text
    assert theme.text_on("#1f5fbf") == theme.TEXT


def test_button_colours_are_readable() -> None:
    for colour in (theme.KEY_BACKGROUND, theme.SAFE, theme.DANGER, theme.SELECTED):
        assert theme.contrast_ratio(theme.TEXT, colour) >= theme.MIN_CONTRAST, colour
    assert theme.contrast_ratio(theme.DISABLED_TEXT, theme.DISABLED_BACKGROUND) >= theme.MIN_CONTRAST


@pytest.mark.parametrize("words", ["2cat dog", "2cat dogx"])
def test_the_verdict_reads_in_high_contrast(station: StationFactory, words: str) -> None:
    window = station().window
    type_text(window, words)
    tab(window)
    assert window.stack.currentWidget() is window.verdict
    assert assert_every_label_readable(window.verdict, VERDICT_CONTRAST) >= 5  # numbers and words too
    assert assert_every_label_readable(window) >= 7


def test_every_player_screen_is_readable(station: StationFactory, pack: Path) -> None:
    divisions = (Division("Open", pack), Division("Schools", pack, youth_rules=True, colour="#ffe066"))
    window = station(divisions=divisions).window
    assert assert_every_label_readable(window) >= 5
    type_text(window, "2")
    assert window.stack.currentWidget() is window.division
    assert assert_every_label_readable(window) >= 4
    type_text(window, "2")  # the light division: dark text in its header
    assert window.header.division.text() == "Division: Schools"
    assert assert_every_label_readable(window) >= 5
    type_text(window, "cat\u00e9")
    assert window.entry.notice.source
    assert assert_every_label_readable(window) >= 5
    broken = MemoryLog()
    broken.failing = True
    faulty = station(log=broken).window
    type_text(faulty, "1cat")
    tab(faulty)
    assert faulty.stack.currentWidget() is faulty.fault
    assert assert_every_label_readable(faulty.fault, VERDICT_CONTRAST) >= 2
