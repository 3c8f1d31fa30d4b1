"""The station's [access] look: high contrast and large text, on every players' screen and both sizes."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWidget

from kiosk.ui import theme
from kiosk.ui.theme import FitLabel, Look
from kiosk.ui.window import StationWindow
from tests.ui.conftest import StationFactory, press, tab, type_text
from tests.ui.test_fit import assert_every_text_fits
from tests.ui.test_theme import background_of

HIGH_CONTRAST = 10.0  # every text, white or yellow on black or a darkened verdict colour
SIZES = ((1024, 600), (1920, 1080))
# The screens a player meets, as keys typed from the ready screen (a verdict: Tab after them).
SCREENS = {
    "ready": "",
    "entry": "3cat do",
    "confirm": "2cat dogz\r",
    "acceptable": "2cat dogs\t",
    "unacceptable": "2cat dogz\t",
}


@pytest.fixture
def looking() -> Iterator[None]:
    """Each test chooses its look; the default is put back after it."""
    before = theme.look()
    yield
    theme.use_look(before)


def shown(station: StationFactory, keys: str, size: tuple[int, int]) -> StationWindow:
    window = station(size=size).window
    for chunk in keys.split("\t"):
        type_text(window, chunk.replace("\r", ""))
        if "\r" in chunk:
            press_enter(window)
    if keys.endswith("\t"):
        tab(window)
    return window


def press_enter(window: StationWindow) -> None:
    press(window, Qt.Key.Key_Return, "\r")


def labels(root: QWidget) -> list[FitLabel]:
    return [label for label in root.findChildren(FitLabel) if label.isVisible() and label.text()]


@pytest.mark.usefixtures("looking")
@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("screen", SCREENS)
def test_high_contrast_reads_at_10_to_1_everywhere(
    station: StationFactory, screen: str, size: tuple[int, int]
) -> None:
    theme.use_look(Look(high_contrast=True))
    window = shown(station, SCREENS[screen], size)
    drawn = theme.look()
    checked = labels(window)
    assert checked
    for label in checked:
        ratio = theme.contrast_ratio(drawn.colour(label.colour), drawn.colour(background_of(label)))
        assert ratio >= HIGH_CONTRAST, f"{label.objectName()} {label.text()!r}: {ratio:.1f}"
    assert_every_text_fits(window)


@pytest.mark.usefixtures("looking")
@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("screen", SCREENS)
def test_large_text_is_larger_and_still_whole(
    station: StationFactory, screen: str, size: tuple[int, int]
) -> None:
    plain = {
        label.objectName(): label.font().pixelSize()
        for label in labels(shown(station, SCREENS[screen], size))
    }
    theme.use_look(Look(large_text=True))
    window = shown(station, SCREENS[screen], size)
    large = {label.objectName(): label.font().pixelSize() for label in labels(window)}
    assert large.keys() == plain.keys()
    assert all(large[name] >= plain[name] for name in plain), (plain, large)
    assert min(large.values()) >= 1.2 * min(plain.values())  # the smallest line most of all
    assert_every_text_fits(window)
