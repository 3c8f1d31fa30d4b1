"""Touch mode: the whole flow with clicks on the on-screen keys."""

from __future__ import annotations

import gettext
from pathlib import Path
from typing import ClassVar

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QPushButton
from pytestqt.qtbot import QtBot

from kiosk.core.judge import JudgePage
from kiosk.core.station.config import Division, Languages
from kiosk.core.words.language import Catalogue
from kiosk.ui import theme
from kiosk.ui.window import StationWindow
from tests.ui.conftest import PIN, JudgeFactory, MemoryLog, StationFactory, click, press, tab, type_text


def shown_keys(window: StationWindow) -> dict[str, QPushButton]:
    """The on-screen keys by label; a division's key by the division's name."""
    keys: dict[str, QPushButton] = {}
    for pad in (window.ready.count_pad, window.entry.keyboard):
        if pad is not None:
            keys.update(pad.keys)
    if window.stack.currentWidget() is window.table and window.table.keypad is not None:
        keys.update(window.table.keypad.keys)
    if window.stack.currentWidget() is window.division:
        for key in window.division.keys:
            keys[key.text().split("  ", 1)[1].split("\n")[0]] = key
        if window.division.back is not None:
            keys["BACK"] = window.division.back
    return keys


def tap(qtbot: QtBot, window: StationWindow, *labels: str) -> None:
    for label in labels:
        button = shown_keys(window)[label]
        assert button.isVisible(), label
        QTest.mouseClick(button, Qt.MouseButton.LeftButton)


def test_a_play_is_judged_with_taps_alone(station: StationFactory, qtbot: QtBot) -> None:
    rig = station(touch=True)
    window = rig.window
    assert window.entry.keyboard is not None
    tap(qtbot, window, "2")
    tap(qtbot, window, "C", "A", "T", "SPACE", "Q", "I", "X", "BACKSPACE")
    assert [w.text() for w in window.entry.grid.words[:2]] == ["CAT", "QI_"]
    assert "CHALLENGED PLAYER: tap JUDGE to judge." in window.entry.prompt.text()
    tap(qtbot, window, "SPACE", "Z")  # one letter too many: the notice names the touch keys
    assert window.entry.notice.source == (
        "All 2 words are typed: tap JUDGE to judge, or CLEAR to start again"
    )
    tap(qtbot, window, "JUDGE")
    assert window.stack.currentWidget() is window.verdict
    assert window.verdict.headline.text() == "YES \u2014 the play is ACCEPTABLE"
    assert [e.ruling.words for e in rig.log.entries] == [("CAT", "QI")]
    QTest.mouseClick(window.verdict, Qt.MouseButton.LeftButton)  # ignored during the lockout
    assert window.stack.currentWidget() is window.verdict
    rig.controller.lockout_timer.timeout.emit()
    QTest.mouseClick(window.verdict, Qt.MouseButton.LeftButton)
    assert window.stack.currentWidget() is window.ready


def test_clear_and_judge_keys_before_the_words_are_complete(station: StationFactory, qtbot: QtBot) -> None:
    rig = station(touch=True)
    tap(qtbot, rig.window, "3", "Z", "A", "JUDGE")  # JUDGE before the last word ends the word
    assert [w.text() for w in rig.window.entry.grid.words[:2]] == ["ZA", "_"]
    tap(qtbot, rig.window, "JUDGE")
    assert rig.log.entries == []
    assert rig.window.entry.notice.source == "Type all 3 words first (2 to go)"
    tap(qtbot, rig.window, "CLEAR")
    assert rig.window.entry.grid.words[0].text() == "_"
    assert rig.window.stack.currentWidget() is rig.window.entry
    tap(qtbot, rig.window, "CLEAR")
    assert rig.window.stack.currentWidget() is rig.window.ready


def test_each_challenge_taps_its_division(station: StationFactory, qtbot: QtBot, pack: Path) -> None:
    divisions = (Division("Open", pack), Division("Schools", pack, youth_rules=True))
    rig = station(touch=True, divisions=divisions)
    window = rig.window
    assert window.header.division.text() == "Divisions: Open \u00b7 Schools"
    tap(qtbot, window, "1")
    assert window.stack.currentWidget() is window.division
    assert [key.text() for key in window.division.keys] == [
        "1  Open\nClub list (2026)",
        "2  Schools\nClub list (2026), school rules",
    ]
    tap(qtbot, window, "BACK")
    assert window.stack.currentWidget() is window.ready
    tap(qtbot, window, "1", "Schools")
    assert window.header.division.text() == "Division: Schools"
    tap(qtbot, window, "D", "O", "G", "S", "JUDGE")
    assert rig.log.entries[-1].division == "Schools"
    rig.controller.verdict_timer.timeout.emit()
    assert window.header.division.text() == "Divisions: Open \u00b7 Schools"  # nothing carries over


def test_a_touch_player_taps_the_table_number(station: StationFactory, qtbot: QtBot) -> None:
    rig = station(touch=True, ask_table=True)
    window = rig.window
    tap(qtbot, window, "1")
    assert window.stack.currentWidget() is window.table
    assert assert_big_enough_for_a_finger(window) == 10 + 3  # the digits, BACK, the eraser, OK
    tap(qtbot, window, "OK")
    assert window.table.notice.text() == "First type your table number"
    tap(qtbot, window, "0")
    assert window.table.notice.text() == "Table numbers start at 1"
    tap(qtbot, window, "2", "9", "\u232b", "7", "OK")
    assert window.stack.currentWidget() is window.entry
    tap(qtbot, window, "C", "A", "T", "JUDGE")
    assert rig.log.entries[0].table == 27
    assert_big_enough_for_a_finger(window)


def assert_big_enough_for_a_finger(window: StationWindow) -> int:
    """Every visible button is at least a finger wide and tall, and its text is not cut short."""
    target = theme.touch_target_px(window.height())
    checked = 0
    for button in window.findChildren(QPushButton):
        if button.isVisible():
            name = button.objectName() or button.text()
            assert min(button.width(), button.height()) >= target, f"{name}: {button.size()} < {target} px"
            full = getattr(button, "full_text", button.text())
            assert button.text() == full or not full, f"{name} is cut short: {button.text()!r}"
            checked += 1
    return checked


@pytest.mark.parametrize("size", [(1024, 600), (1920, 1080)])
def test_every_touch_target_takes_a_finger(
    judge_station: JudgeFactory, pack: Path, size: tuple[int, int]
) -> None:
    divisions = (Division("Open", pack), Division("Schools", pack, youth_rules=True))
    rig = judge_station(size=size, divisions=divisions, touch=True)
    window = rig.window
    assert theme.touch_target_px(600) == 44
    assert assert_big_enough_for_a_finger(window) == 8 + 1  # counts, Judge
    QTest.mouseClick(window.ready.count_pad.keys["2"], Qt.MouseButton.LeftButton)  # type: ignore[union-attr]
    assert assert_big_enough_for_a_finger(window) == 2 + 1  # the divisions, BACK
    QTest.mouseClick(window.division.keys[0], Qt.MouseButton.LeftButton)
    assert assert_big_enough_for_a_finger(window) == 26 + 4
    QTest.mouseClick(window.entry.keyboard.keys["CLEAR"], Qt.MouseButton.LeftButton)  # type: ignore[union-attr]
    assert window.stack.currentWidget() is window.ready
    click(window, window.ready.judge_button)  # type: ignore[arg-type]
    assert assert_big_enough_for_a_finger(window) == 13  # the PIN pad and Cancel
    for digit in PIN + "\r":
        press(window, Qt.Key.Key_Return if digit == "\r" else Qt.Key.Key_unknown, digit)
    judge = window.judge
    assert judge.current is judge.menu
    assert assert_big_enough_for_a_finger(window) == 8
    for page in judge.menu.buttons:
        if page is JudgePage.BACK:
            continue
        click(window, judge.menu.buttons[page])
        assert assert_big_enough_for_a_finger(window) >= 1, page
        assert "Esc" not in judge.hint.text()
        click(window, judge.back)  # the way back without a keyboard
        assert judge.current is judge.menu


def test_the_recheck_rows_and_filters_take_a_finger(judge_station: JudgeFactory) -> None:
    rig = judge_station(touch=True)
    window = rig.window
    for words in ("1cat", "2qi za", "1dogs"):
        type_text(window, words)
        tab(window)
        rig.controller.verdict_timer.timeout.emit()
    click(window, window.ready.judge_button)  # type: ignore[arg-type]
    for digit in PIN:
        press(window, Qt.Key.Key_unknown, digit)
    press(window, Qt.Key.Key_Return, "\r")
    click(window, window.judge.menu.buttons[JudgePage.RECHECK])
    recheck = window.judge.recheck
    assert [row.isEnabled() for row in recheck.rows] == [True, True, True, False, False]
    assert assert_big_enough_for_a_finger(window) == 1 + 4 + 5  # Menu, the filters, the rows
    click(window, recheck.rows[2])
    assert recheck.heading.text() == "Challenge 3 of 3: ACCEPTABLE"
    assert recheck.words[0].text() == "\u2713 CAT \u2014 acceptable"


def test_the_touch_verdict_says_tap_not_key(station: StationFactory, qtbot: QtBot) -> None:
    rig = station(touch=True)
    tap(qtbot, rig.window, "1", "C", "A", "T", "JUDGE")
    assert rig.window.verdict.footer.text() == "The screen clears by itself, or tap the screen"
    keyboard = station().window
    type_text(keyboard, "1cat")
    tab(keyboard)
    assert keyboard.verdict.footer.text() == "The screen clears by itself, or press any key"


def test_the_fault_screen_judge_button_takes_a_finger(station: StationFactory, qtbot: QtBot) -> None:
    broken = MemoryLog()
    broken.failing = True
    rig = station(touch=True, log=broken)
    tap(qtbot, rig.window, "1", "C", "A", "T", "JUDGE")
    assert rig.window.stack.currentWidget() is rig.window.fault
    assert assert_big_enough_for_a_finger(rig.window) == 1


class _Reworded(gettext.NullTranslations):
    """A translation whose sentences do not repeat its key names word for word (Spanish, but the
    sentence says "pulse la tecla TAB" where the key name alone is "pulse TAB")."""

    WORDS: ClassVar[dict[str, str]] = {
        "press TAB": "pulse TAB",
        "tap JUDGE": "toque JUZGAR",
        "Esc": "Esc",
        "CLEAR": "BORRAR",
        "{all_typed}: press TAB to judge, or Esc to start again": (
            "{all_typed}: pulse la tecla TAB para juzgar, o Esc para empezar de nuevo"
        ),
        "{all_typed}: tap JUDGE to judge, or CLEAR to start again": (
            "{all_typed}: toque JUZGAR para juzgar, o BORRAR para empezar de nuevo"
        ),
    }

    def gettext(self, message: str) -> str:
        return self.WORDS.get(message, message)


def test_a_touch_notice_names_the_touch_keys_whatever_the_translation_s_wording(
    station: StationFactory, qtbot: QtBot
) -> None:
    """The notice is worded for a touch screen where it is made, never by finding the keyboard's
    key names inside a translated sentence (which broke as soon as a translator reworded one)."""
    words = Catalogue(language="es", translations=_Reworded())
    rig = station(touch=True, languages=Languages(words, (words,)))
    window = rig.window
    tap(qtbot, window, "1")
    tap(qtbot, window, "Q", "I", "SPACE", "Z")
    notice = window.entry.notice.source
    assert notice == "The word is typed: toque JUZGAR para juzgar, o BORRAR para empezar de nuevo"
    assert "TAB" not in notice
