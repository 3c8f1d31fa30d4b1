"""Nothing a judge page showed, and nothing of a pair's play, stays in the accessibility tree.

A program reading the tree (a screen reader, or anything on the AT-SPI bus) reads hidden nodes
too. So, as ``test_invariance.py`` proves the screen, these walk the whole tree of Qt's
accessible interfaces, hidden nodes included: once a verdict clears, and once judge mode closes
after any of its pages, the tree holds what a station that never served anyone holds.
"""

from __future__ import annotations

from collections import Counter

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAccessible

from kiosk.core.play.session import Screen
from kiosk.core.station.config import JudgeSettings
from kiosk.ui.window import StationWindow
from tests.ui.accessible import nodes, said_anywhere
from tests.ui.conftest import PIN, JudgeFactory, JudgeRig, press, tab, type_text

K = Qt.Key
PLAY_WORDS = ("DOGZ", "CAT")
# What judge pages show of a play: the words, each word's result, its marks.
JUDGE_ONLY = ("not in the lexicon", "\u2717", "\u2713", "Challenge 1 of", *PLAY_WORDS)


def tree(window: StationWindow) -> Counter[tuple[str, ...]]:
    """Every text of every node, however deep, shown or hidden."""
    return Counter(node.texts for node in nodes(window) if node.texts)


def fresh(judge_station: JudgeFactory, **settings: object) -> JudgeRig:
    rig = judge_station(**settings)
    rig.window.build_screens()  # as the station does after its first frame
    return rig


def play(rig: JudgeRig, typed: str = "2cat dogz") -> None:
    window = rig.window
    type_text(window, typed)
    tab(window)
    assert window.stack.currentWidget() is window.verdict
    assert said_anywhere(window, "DOGZ")  # the walk does find the words while they are shown


def clear_verdict(rig: JudgeRig) -> None:
    rig.controller.lockout_timer.timeout.emit()
    press(rig.window, K.Key_Space, " ")
    assert rig.window.stack.currentWidget() is rig.window.ready


def unlock(rig: JudgeRig) -> None:
    press(rig.window, K.Key_Escape)
    type_text(rig.window, PIN)
    press(rig.window, K.Key_Return, "\r")
    assert rig.window.judge.current is rig.window.judge.menu


@pytest.mark.parametrize("touch", [False, True])
def test_a_cleared_verdict_leaves_nothing_of_the_play(judge_station: JudgeFactory, touch: bool) -> None:
    rig = fresh(judge_station, touch=touch)
    window = rig.window
    untouched = tree(window)
    for typed in ("2cat dogz", "1dogz", "3cat dogz cat"):
        play(rig, typed)
        clear_verdict(rig)
        assert said_anywhere(window, *PLAY_WORDS, "UNACCEPTABLE") == []
        assert tree(window) == untouched


def test_an_abandoned_entry_leaves_nothing_of_it(judge_station: JudgeFactory) -> None:
    rig = fresh(judge_station)
    window = rig.window
    untouched = tree(window)
    type_text(window, "2cat dog")
    press(window, K.Key_Escape)  # clears the words
    press(window, K.Key_Escape)  # back to the ready screen
    assert tree(window) == untouched
    type_text(window, "2dogz ca")
    window.controller.idle_timer.timeout.emit()
    for _ in range(60):
        if window.stack.currentWidget() is window.ready:
            break
        window.controller.idle_countdown.timeout.emit()
    assert window.stack.currentWidget() is window.ready
    assert tree(window) == untouched


# Each page of the menu, by its key, and how the judge leaves: Esc, "Back to the station", the lock.
PAGES = ("1", "2", "3", "4", "5", "6")


@pytest.mark.parametrize("leave", ["esc", "back", "lock"])
def test_no_judge_page_stays_in_the_tree_once_players_are_served(
    judge_station: JudgeFactory, leave: str
) -> None:
    rig = fresh(judge_station, judge=JudgeSettings(idle_lock_seconds=30))
    window = rig.window
    untouched = tree(window)
    play(rig)
    clear_verdict(rig)
    for page in PAGES:
        unlock(rig)
        type_text(window, page)
        assert window.judge.current is not window.judge.menu
        if page == "1":  # the recheck: each word's result, for judges only
            assert said_anywhere(window, "not in the lexicon")
        if leave == "esc":
            press(window, K.Key_Escape)
            press(window, K.Key_Escape)
        elif leave == "back":
            press(window, K.Key_Escape)
            type_text(window, "7")
        else:
            rig.advance(31)
        assert not window.judging
        assert window.stack.currentWidget() is window.ready
        assert said_anywhere(window, *JUDGE_ONLY) == []
        assert tree(window) == untouched, page
    play(rig, "2dogz cat")  # the next pair is served as before
    clear_verdict(rig)
    assert tree(window) == untouched


def test_the_door_leaves_no_digit_behind(judge_station: JudgeFactory) -> None:
    rig = fresh(judge_station)
    window = rig.window
    untouched = tree(window)
    press(window, K.Key_Escape)
    type_text(window, PIN[:3])
    press(window, K.Key_Escape)  # cancel at the door
    assert not window.judging
    assert tree(window) == untouched


# Symbols a screen reader reads as symbols, or not at all: a button shown with one of these must
# have a name in words.
SYMBOLS = ("\u25c0", "\u25b6", "\u232b")


def named_by_symbols_only(window: StationWindow) -> list[str]:
    return [
        node.path
        for node in nodes(window)
        if not node.invisible  # a hidden line (a setting this station does not have) is not read out
        and node.texts
        and any(symbol in node.texts[0] for symbol in SYMBOLS)
        and len(node.texts[0]) <= 2
    ]


@pytest.mark.parametrize("touch", [False, True])
def test_every_button_is_named_in_words_and_the_two_judges_apart(
    judge_station: JudgeFactory, touch: bool
) -> None:
    rig = fresh(judge_station, touch=touch, ask_table=True)
    window = rig.window
    judge_names = {
        text for node in nodes(window) for text in node.texts[:1] if text.casefold().startswith("judge")
    }
    if touch:  # the quiet Judge button (judge mode) and the JUDGE key (this play) say what each does
        type_text(window, "2")
        type_text(window, "12")
        press(window, K.Key_Return, "\r")
        judge_names |= {
            text for node in nodes(window) for text in node.texts[:1] if text.casefold().startswith("judge")
        }
        assert "JUDGE: judge this play" in judge_names
        assert "Judge mode, for judges only" in judge_names
        assert len({name.casefold() for name in judge_names}) == len(judge_names)
    while rig.controller.state.screen is not Screen.READY:
        press(window, K.Key_Escape)
    unlock(rig)
    for page in ("1", "3"):  # the recheck's and the settings' arrows
        type_text(window, page)
        assert named_by_symbols_only(window) == []
        press(window, K.Key_Escape)
    press(window, K.Key_Escape)
    press(window, K.Key_Escape)  # the door's erase key
    assert window.judge.current is window.judge.door
    assert named_by_symbols_only(window) == []


def test_a_word_being_typed_is_named_as_the_word_and_spelled(judge_station: JudgeFactory) -> None:
    rig = fresh(judge_station)
    type_text(rig.window, "2cat dog")
    word = rig.window.entry.grid.words[1]
    assert word.text() == "DOG_"
    iface = QAccessible.queryAccessibleInterface(word)
    assert iface is not None
    assert iface.text(QAccessible.Text.Name) == "DOG"
    assert iface.text(QAccessible.Text.Description) == "D O G"
