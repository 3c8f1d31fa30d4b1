"""The station with a pack in another alphabet (issue 13): real packs, real widgets, real keys."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from kiosk.core.config import Division
from kiosk.ui.views import TILE_GAP
from kiosk.ui.window import StationWindow
from tests.conftest import PackFactory
from tests.ui.conftest import StationFactory, click, press, tab, type_text
from tests.ui.test_fit import assert_every_text_fits

SPANISH_WORDS = ["CHALLAPATEÑA", "CALLE", "PERRO", "NIÑO"]


@pytest.fixture
def spanish_pack(make_pack: PackFactory) -> Path:
    return make_pack(SPANISH_WORDS, alphabet="spanish", name="FISE club")


def shown_words(window: StationWindow) -> list[str]:
    return [label.text().rstrip("_") for label in window.entry.grid.words if label.isVisible()]


def test_the_touch_keyboard_has_the_packs_tiles(station: StationFactory, spanish_pack: Path) -> None:
    window = station(touch=True, divisions=(Division("Open", spanish_pack),)).window
    type_text(window, "2")
    keyboard = window.entry.keyboard
    assert keyboard is not None
    for tile in ("CH", "LL", "RR", "Ñ"):
        assert tile in keyboard.keys
    assert "K" not in keyboard.keys
    assert "W" not in keyboard.keys
    for key in ("CH", "A", "LL", "A", "P", "A", "T", "E", "Ñ", "A"):
        click(window, keyboard.keys[key])
    assert shown_words(window)[0] == TILE_GAP.join(["CH", "A", "LL", "A", "P", "A", "T", "E", "Ñ", "A"])
    assert window.entry.grid.counts[0].text() == "10 tiles"
    click(window, keyboard.keys["BACKSPACE"])  # takes off the last tile
    click(window, keyboard.keys["BACKSPACE"])
    assert shown_words(window)[0].endswith(f"T{TILE_GAP}E")
    assert_every_text_fits(window)


def test_a_spanish_play_typed_as_letters_is_judged_by_its_tiles(
    station: StationFactory, spanish_pack: Path
) -> None:
    rig = station(divisions=(Division("Open", spanish_pack),))
    window = rig.window
    type_text(window, "2challapateña calle")
    assert shown_words(window) == [
        TILE_GAP.join(["CH", "A", "LL", "A", "P", "A", "T", "E", "Ñ", "A"]),
        TILE_GAP.join(["C", "A", "LL", "E"]),
    ]
    type_text(window, " ")
    tab(window)
    assert window.stack.currentWidget() is window.verdict
    assert rig.log.entries[-1].ruling.acceptable
    assert_every_text_fits(window)


def test_letters_of_other_alphabets_are_refused_by_name(station: StationFactory, spanish_pack: Path) -> None:
    window = station(divisions=(Division("Open", spanish_pack),)).window
    type_text(window, "1k")
    notice = window.entry.notice.source
    assert '"k"' in notice
    assert "CH" in notice  # the tiles it does take
    type_text(window, "a\u0410")
    assert "Cyrillic capital letter a" in window.entry.notice.source
    assert shown_words(window) == ["A"]


def test_a_word_over_the_pack_counts_tiles(station: StationFactory, make_pack: PackFactory) -> None:
    pack = make_pack(["CHALLA", "PERO"], alphabet="spanish", max_length=4)
    window = station(divisions=(Division("Open", pack),)).window
    type_text(window, "1challa")  # six letters, four tiles: not too long
    assert window.entry.notice.source == ""
    type_text(window, "s")
    assert "5 tiles" in window.entry.notice.source


def test_the_keyboard_follows_the_divisions_alphabet(
    station: StationFactory, spanish_pack: Path, pack: Path
) -> None:
    window = station(
        touch=True, divisions=(Division("English", pack), Division("Español", spanish_pack))
    ).window
    type_text(window, "12")
    assert window.entry.keyboard is not None
    assert {"Ñ", "CH"} <= set(window.entry.keyboard.keys)
    press(window, Qt.Key.Key_Escape)  # an empty entry: back to the ready screen
    type_text(window, "11")
    assert window.entry.keyboard is not None
    assert "K" in window.entry.keyboard.keys
    assert "Ñ" not in window.entry.keyboard.keys
    assert_every_text_fits(window)
