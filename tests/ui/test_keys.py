"""The station's keys as a hostile venue presses them: held down, typed with AltGr, left on the
judges' door; and names from a configuration or a pack that look like markup."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QKeyEvent, QKeySequence
from PySide6.QtWidgets import QAbstractButton, QApplication, QLabel, QWidget

from kiosk.core.judge import JudgePage
from kiosk.core.play.session import Screen
from kiosk.core.station.config import Division
from kiosk.ui.window import StationWindow
from tests.conftest import PackFactory
from tests.ui.conftest import PIN, JudgeFactory, Rig, StationFactory, press, settle, tab, type_text

Mod = Qt.KeyboardModifier
K = Qt.Key
ALT_GR = Mod.ControlModifier | Mod.AltModifier  # what Windows reports for AltGr


def hold(window: StationWindow, key: Qt.Key, text: str = "", times: int = 3) -> None:
    """The keyboard's auto-repeat of a key held down: ``times`` repeated presses, no release."""
    for _ in range(times):
        QApplication.sendEvent(window, QKeyEvent(QKeyEvent.Type.KeyPress, key, Mod.NoModifier, text, True))
        settle(window)


def shown(window: StationWindow) -> QWidget:
    """The judge page in front (a function, so that type checkers do not narrow it)."""
    return window.judge.current


def screen(rig: Rig) -> Screen:
    return rig.controller.state.screen


def enter(window: StationWindow) -> None:
    press(window, K.Key_Return, "\r")


# -- §4: a verdict can be flashed away; a held key acts once -------------------------------------


def test_a_held_tab_never_clears_the_verdict_after_the_lockout(station: StationFactory) -> None:
    rig = station()
    window = rig.window
    type_text(window, "2cat qi")
    tab(window)  # the press that judges; the key stays down
    assert window.stack.currentWidget() is window.verdict
    hold(window, K.Key_Tab, "\t")
    rig.controller.lockout_timer.timeout.emit()  # the 0.5 s lock-out ends with Tab still held
    hold(window, K.Key_Tab, "\t", times=20)
    assert window.stack.currentWidget() is window.verdict
    assert rig.controller.state.screen is Screen.VERDICT
    hold(window, K.Key_Space, " ")  # any key held from before: the same
    assert window.stack.currentWidget() is window.verdict
    tab(window)  # let go, and pressed again after the lock-out: that clears it
    assert window.stack.currentWidget() is window.ready


def send_at(window: StationWindow, kind: QKeyEvent.Type, key: Qt.Key, text: str, stamp_ms: int) -> None:
    event = QKeyEvent(kind, key, Mod.NoModifier, text)
    event.setTimestamp(stamp_ms)
    QApplication.sendEvent(window, event)


def test_a_repeat_qt_does_not_flag_under_x11_is_still_a_repeat(station: StationFactory) -> None:
    """Under X11, Qt flags a repeat only if its press is already queued when it reads the release
    before it; most come unflagged, as a release and a press of the same millisecond."""
    rig = station()
    window = rig.window
    type_text(window, "2cat qi")
    send_at(window, QKeyEvent.Type.KeyPress, K.Key_Tab, "\t", 1000)  # the press that judges
    assert window.stack.currentWidget() is window.verdict
    rig.controller.lockout_timer.timeout.emit()
    for stamp in range(1660, 3000, 40):  # the X server's repeats, unflagged
        send_at(window, QKeyEvent.Type.KeyRelease, K.Key_Tab, "\t", stamp)
        send_at(window, QKeyEvent.Type.KeyPress, K.Key_Tab, "\t", stamp)
    assert window.stack.currentWidget() is window.verdict
    send_at(window, QKeyEvent.Type.KeyRelease, K.Key_Tab, "\t", 3010)  # let go...
    send_at(window, QKeyEvent.Type.KeyPress, K.Key_Tab, "\t", 3250)  # ...and pressed again
    assert window.stack.currentWidget() is window.ready


def test_a_held_count_key_never_chooses_the_division(station: StationFactory, pack: Path) -> None:
    divisions = (Division("Open", pack), Division("Schools", pack, youth_rules=True))
    rig = station(divisions=divisions)
    type_text(rig.window, "2")
    hold(rig.window, K.Key_2, "2")
    assert screen(rig) is Screen.DIVISION
    assert rig.controller.state.division is None
    type_text(rig.window, "1")
    hold(rig.window, K.Key_1, "1")  # no "1 is not a letter" on the entry it opened
    assert screen(rig) is Screen.ENTRY
    assert rig.window.entry.notice.source == ""


def test_a_held_esc_clears_the_entry_and_stays_there(station: StationFactory) -> None:
    rig = station()
    window = rig.window
    type_text(window, "2cat do")
    press(window, K.Key_Escape)
    hold(window, K.Key_Escape, "\x1b", times=10)
    assert window.stack.currentWidget() is window.entry
    assert not window.judging
    assert rig.controller.state.entered == ()


def test_a_held_letter_types_once_and_a_held_backspace_stops_at_the_words_start(
    station: StationFactory,
) -> None:
    rig = station()
    type_text(rig.window, "2cat do")
    hold(rig.window, K.Key_O, "o", times=30)  # three seconds of auto-repeat
    assert rig.controller.state.entered == ("cat", "do")
    hold(rig.window, K.Key_Backspace, "\b", times=10)
    state = rig.controller.state
    assert (state.words, state.current) == (("cat",), "")  # DO erased; CAT stays for a fresh press


def test_in_judge_mode_a_held_key_acts_once_except_moving_and_erasing(judge_station: JudgeFactory) -> None:
    rig = judge_station()
    window = rig.window
    press(window, K.Key_Escape)
    hold(window, K.Key_Escape, "\x1b")  # the Esc that opened the door, still down
    assert shown(window) is window.judge.door
    type_text(window, PIN[0])
    hold(window, Qt.Key(ord(PIN[0])), PIN[0], times=4)  # a digit held: one digit
    assert window.judge.door.dots.text() == "\u25cf"
    hold(window, K.Key_Backspace, "\b", times=2)  # erasing repeats
    assert window.judge.door.dots.text() == "_"
    type_text(window, PIN)
    enter(window)
    hold(window, K.Key_Return, "\r")
    assert shown(window) is window.judge.menu
    type_text(window, "7")  # back to the station...
    hold(window, K.Key_7, "7", times=5)  # ...and the held 7 starts no challenge of seven words
    assert window.stack.currentWidget() is window.ready
    assert rig.controller.state.screen is Screen.READY


def test_a_held_esc_keeps_the_unsaved_settings_warning(judge_station: JudgeFactory) -> None:
    rig = judge_station()
    window = rig.window
    press(window, K.Key_Escape)
    type_text(window, PIN)
    enter(window)
    type_text(window, "3")
    press(window, K.Key_Down)
    press(window, K.Key_Right)
    assert window.judge.state.unsaved
    press(window, K.Key_Escape)
    hold(window, K.Key_Escape, "\x1b", times=5)
    assert window.judge.current is window.judge.settings  # the warning stands: a second press leaves
    assert window.judge.state.unsaved


# -- §3: the judges' door forgets a player's digits ----------------------------------------------


def test_the_door_left_idle_goes_back_to_the_players_and_forgets_the_digits(
    judge_station: JudgeFactory,
) -> None:
    rig = judge_station()
    window = rig.window
    lock_s = float(rig.controller.config.judge.idle_lock_seconds)
    press(window, K.Key_Escape)
    type_text(window, "12")  # a player's digits, then the player walks away
    assert window.judge.door.dots.text() == "\u25cf \u25cf"
    rig.advance(lock_s - 1)
    assert shown(window) is window.judge.door  # not yet
    rig.advance(1)
    assert window.stack.currentWidget() is window.ready
    assert not window.judging
    type_text(window, "1cat")  # the next players find their own screens
    assert rig.controller.state.screen is Screen.CONFIRM
    press(window, K.Key_Escape)
    press(window, K.Key_Escape)
    press(window, K.Key_Escape)  # the judge comes, and types the PIN alone
    assert window.judge.door.dots.text() == "_"
    type_text(window, PIN)
    enter(window)
    assert shown(window) is window.judge.menu
    assert rig.storage.judge_access.attempts().failures == 0


def test_a_key_on_the_door_keeps_it_open(judge_station: JudgeFactory) -> None:
    rig = judge_station()
    window = rig.window
    lock_s = float(rig.controller.config.judge.idle_lock_seconds)
    press(window, K.Key_Escape)
    rig.advance(lock_s - 2)
    type_text(window, PIN[:3])  # a judge typing slowly
    rig.advance(lock_s - 2)
    type_text(window, PIN[3:])
    enter(window)
    assert window.judge.state.page is JudgePage.MENU


def test_the_door_closes_during_a_back_off_too(judge_station: JudgeFactory) -> None:
    """A player who typed three wrong PINs leaves a shut door: it goes back to the players, and
    the wait is still there (it is kept in storage) when a judge opens it again."""
    rig = judge_station()
    window = rig.window
    press(window, K.Key_Escape)
    for _ in range(3):
        type_text(window, "111111")
        enter(window)
    assert window.judge.door.shut
    rig.advance(float(rig.controller.config.judge.idle_lock_seconds))
    assert window.stack.currentWidget() is window.ready
    assert rig.storage.judge_access.attempts().failures == 3


# -- §8: AltGr (Ctrl+Alt on Windows) types text; a shortcut types none -----------------------------


def test_altgr_letters_are_typed_on_a_polish_pack(station: StationFactory, make_pack: PackFactory) -> None:
    pack = make_pack(["ŻÓŁW", "KOT", "ĄĆĘŁŃÓŚŹŻ"], alphabet="polish", name="PL club")
    rig = station(divisions=(Division("Otwarta", pack),))
    window = rig.window
    type_text(window, "1")
    for char in "ąćęłńóśźż":
        press(window, Qt.Key(ord(char.upper())), char, ALT_GR)
    assert rig.controller.state.current == "ąćęłńóśźż"
    press(window, K.Key_Q, "", ALT_GR)  # Ctrl+Alt+Q: no text, a shortcut: nothing typed
    press(window, K.Key_Q, "\x11", Mod.ControlModifier)  # Ctrl+Q: a control character
    press(window, K.Key_Tab, "\t", Mod.AltModifier)  # Alt+Tab does not judge
    assert rig.controller.state.current == "ąćęłńóśźż"
    assert rig.controller.state.screen is Screen.CONFIRM


def test_the_judge_chord_still_opens_judge_mode_and_altgr_reaches_the_door(
    judge_station: JudgeFactory,
) -> None:
    rig = judge_station()
    window = rig.window
    press(window, K.Key_J, "\n", Mod.ControlModifier | Mod.AltModifier)  # X11: Ctrl+J is a line feed
    assert window.judge.current is window.judge.door
    press(window, K.Key_Escape)
    press(window, K.Key_J, "", Mod.ControlModifier | Mod.AltModifier)  # Windows: no text at all
    assert window.judge.current is window.judge.door
    press(window, K.Key_L, "ł", ALT_GR)  # a PIN may hold any character; AltGr's are heard
    assert window.judge.door.dots.text() == "\u25cf"
    press(window, K.Key_F4, "", Mod.AltModifier)
    assert window.judge.door.dots.text() == "\u25cf"


# -- §8: every name is plain text, on every screen --------------------------------------------------

HOSTILE = '<img src="missing.png"><b>R&amp;D</b> & Co'


def assert_plain(window: QWidget, where: str) -> int:
    """Every label shows plain text, and no button's text makes a shortcut of a name's "&"."""
    checked = 0
    for label in window.findChildren(QLabel):
        name = label.objectName()
        assert label.textFormat() is Qt.TextFormat.PlainText, f"{where}: {name}: {label.text()!r}"
        checked += 1
    for button in window.findChildren(QAbstractButton):
        assert QKeySequence.mnemonic(button.text()).isEmpty(), f"{where}: {button.text()!r} makes a shortcut"
        checked += 1
    return checked


@pytest.mark.parametrize("touch", [False, True])
def test_names_from_the_configuration_and_the_pack_are_plain_text_everywhere(
    judge_station: JudgeFactory, make_pack: PackFactory, touch: bool
) -> None:
    pack = make_pack(["CAT", "DOGS", "QI"], youth=["DOGS"], name=f"{HOSTILE} list", edition="<i>2026</i>")
    divisions = (Division(f"Open {HOSTILE}", pack), Division("K&ids", pack, youth_rules=True))
    rig = judge_station(divisions=divisions, station_name=HOSTILE, ask_table=True, touch=touch)
    window = rig.window
    window.build_screens()
    seen = assert_plain(window, "ready")
    assert window.header.station.text() == HOSTILE
    assert HOSTILE in window.header.division.text()
    type_text(window, "2")
    seen += assert_plain(window, "table")
    type_text(window, "12")
    enter(window)
    seen += assert_plain(window, "division")
    type_text(window, "1")
    type_text(window, "cat dogs")
    seen += assert_plain(window, "entry")
    assert window.header.division.text() == f"Division: Open {HOSTILE}"
    tab(window)
    seen += assert_plain(window, "verdict")
    assert HOSTILE in window.verdict.lexicon.text()
    rig.controller.verdict_timer.timeout.emit()
    press(window, K.Key_Escape)
    seen += assert_plain(window, "door")
    type_text(window, PIN)
    enter(window)
    for number in "123456":
        type_text(window, number)
        seen += assert_plain(window, f"judge page {number}")
        press(window, K.Key_Escape)
    type_text(window, "8")
    seen += assert_plain(window, "exit")
    press(window, K.Key_Escape)
    press(window, K.Key_Escape)
    window.show_not_ready(f"{HOSTILE} is not ready", command=f"kiosk set-pin --config '{HOSTILE}'")
    seen += assert_plain(window, "not ready")
    assert seen > 200
