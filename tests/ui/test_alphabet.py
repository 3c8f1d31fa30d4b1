"""The station with a pack in another alphabet (issues 13 and 24): real packs, real widgets, real keys."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from kiosk.core.station.config import Division
from kiosk.core.words.alphabet import TILE_GAP
from kiosk.ui.players.keys import TouchKeyboard
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


# --- issue 24: the tiles on the board, in the players' own keyboards ------------------------------

KEYBOARD_ROWS = {  # each language's touch keyboard, row by row, as its players' keyboards have it
    "english": ["Q W E R T Y U I O P", "A S D F G H J K L", "Z X C V B N M"],
    "french": ["A Z E R T Y U I O P", "Q S D F G H J K L M", "W X C V B N"],  # AZERTY
    "german": ["Q W E R T Z U I O P Ü", "A S D F G H J K L Ö Ä", "Y X C V B N M"],  # QWERTZ
    "italian": ["Q W E R T Y U I O P", "A S D F G H J K L", "Z X C V B N M"],
    "spanish": ["Q E R RR T Y U I O P", "A S D F G H J L LL Ñ", "Z X C CH V B N M"],  # no K, W
    "catalan": ["QU E R T U I O P", "A S D F G H J L L·L Ç", "Z X C V B N NY M"],  # no K, W, Y
    "polish": ["W E Ę R T Y U I O Ó P", "A Ą S Ś D F G H J K L Ł", "Z Ź Ż C Ć B N Ń M"],  # no Q, V, X
}


def key_rows(keyboard: TouchKeyboard) -> list[list[str]]:
    """The tile keys as they stand on the screen, row by row, left to right."""
    rows: dict[int, list[tuple[int, str]]] = {}
    for label, button in keyboard.keys.items():
        if label not in ("CLEAR", "SPACE", "BACKSPACE", "JUDGE"):
            rows.setdefault(button.y(), []).append((button.x(), label))
    return [[label for _, label in sorted(row)] for _, row in sorted(rows.items())]


@pytest.mark.parametrize("name", sorted(KEYBOARD_ROWS))
def test_each_languages_touch_keyboard_is_its_players_layout(
    station: StationFactory, make_pack: PackFactory, name: str
) -> None:
    pack = make_pack(["ABC", "ABD"], alphabet=name)
    for size in ((1024, 600), (1920, 1080)):
        window = station(touch=True, divisions=(Division("Open", pack),), size=size).window
        type_text(window, "1")
        keyboard = window.entry.keyboard
        assert keyboard is not None
        assert key_rows(keyboard) == [row.split() for row in KEYBOARD_ROWS[name]]
        assert_every_text_fits(window)


def test_catalan_call_is_shown_and_judged_as_its_four_tiles(
    station: StationFactory, make_pack: PackFactory
) -> None:
    """Issue 24: CALL typed showed C A L·L and was ruled as C A L L. It is C A L L, shown and judged;
    COL·LECCIÓ is typed with its dot (or a full stop)."""
    pack = make_pack(["CALL", "COL·LECCIÓ"], alphabet="catalan")
    rig = station(divisions=(Division("Open", pack),))
    type_text(rig.window, "2call col.lecció ")
    assert shown_words(rig.window) == [TILE_GAP.join("CALL"), TILE_GAP.join(["C", "O", "L·L", *"ECCIO"])]
    assert [label.text() for label in rig.window.entry.grid.counts[:2]] == ["4 tiles", "8 tiles"]
    tab(rig.window)
    entry = rig.log.entries[-1]
    assert entry.ruling.acceptable
    assert entry.ruling.words == ("CALL", "CO[L·L]ECCIO")
    verdict_words = [label.text() for label in rig.window.verdict.grid.words if label.isVisible()]
    assert verdict_words == shown_words_after_judging(entry.ruling.words)


def test_a_catalan_word_typed_with_its_l_l_dot_gets_its_verdict_on_screen(
    station: StationFactory, make_pack: PackFactory
) -> None:
    """Found by the langs branch: at a Catalan station, COL·LECCIÓ typed with its dot was logged but
    never shown (the session kept COL·LECCIO, the ruling said CO[L·L]ECCIO, and the session took
    the ruling for another play's). The verdict is shown, in Catalan, with the tiles judged."""
    pack = make_pack(["COL·LECCIÓ", "CALL"], alphabet="catalan")
    rig = station(divisions=(Division("Obert", pack),), language="ca")
    type_text(rig.window, "1col\u00b7lecci\u00f3")
    tab(rig.window)
    assert rig.log.entries[-1].ruling.words == ("CO[L·L]ECCIO",)
    assert rig.window.stack.currentWidget() is rig.window.verdict
    assert rig.window.verdict.headline.text() == "S\u00cd \u2014 jugada V\u00c0LIDA"
    verdict_words = [label.text() for label in rig.window.verdict.grid.words if label.isVisible()]
    assert verdict_words == [TILE_GAP.join(["C", "O", "L·L", *"ECCIO"])]


def shown_words_after_judging(stored: tuple[str, ...]) -> list[str]:
    from kiosk.core.words.alphabet import tiles_of

    return [TILE_GAP.join(tiles_of(word)) for word in stored]


def test_spanish_tiles_laid_apart_are_typed_apart_and_ruled_so(
    station: StationFactory, make_pack: PackFactory
) -> None:
    """The touch keyboard's C then H are two tiles (its CH key one), and so is C+H typed: FISE's
    words hold the CH tile, so C H E is not CHE."""
    pack = make_pack(["CHE", "CALLE"], alphabet="spanish")
    rig = station(touch=True, divisions=(Division("Open", pack),))
    window = rig.window
    type_text(window, "3")
    keyboard = window.entry.keyboard
    assert keyboard is not None
    for key in ("C", "H", "E", "SPACE", "CH", "E", "SPACE"):
        click(window, keyboard.keys[key])
    type_text(window, "cal+le")
    assert shown_words(window) == [TILE_GAP.join("CHE"), TILE_GAP.join(["CH", "E"]), TILE_GAP.join("CALLE")]
    click(window, keyboard.keys["JUDGE"])
    ruling = rig.log.entries[-1].ruling
    assert ruling.words == ("CHE", "[CH]E", "CALLE")
    assert not ruling.acceptable


def test_a_refused_letter_stays_said_on_screen_until_the_play_is_judged_or_cleared(
    station: StationFactory, spanish_pack: Path
) -> None:
    window = station(divisions=(Division("Open", spanish_pack),)).window
    type_text(window, "2kiwi ca")
    assert shown_words(window) == [TILE_GAP.join("II"), TILE_GAP.join("CA")]
    notice = window.entry.notice.source
    assert '"k", "w"' in notice
    assert window.entry.notice.isVisible()
    assert_every_text_fits(window)
    press(window, Qt.Key.Key_Escape)
    assert window.entry.notice.source == ""


def test_n_and_a_combining_tilde_is_n_tilde_at_the_station(
    station: StationFactory, spanish_pack: Path
) -> None:
    rig = station(divisions=(Division("Open", spanish_pack),))
    type_text(rig.window, "1nin\u0303o")
    assert shown_words(rig.window) == [TILE_GAP.join("NIÑO")]
    tab(rig.window)
    assert rig.log.entries[-1].ruling.words == ("NIÑO",)
    assert rig.log.entries[-1].ruling.acceptable
