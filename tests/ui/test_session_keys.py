"""The keys a kiosk session turns off outside the station reach the station as nothing it acts on.

On a station, Ctrl+Alt+F2 (another console), Ctrl+Alt+Del, Ctrl+Alt+Backspace (the X server's
"zap"), Ctrl+Alt+keypad plus/minus (X's resolution) and Alt+SysRq+B/O (the kernel's reboot and
power off) are turned off where they would act: cage started without -s, the X server's
DontVTSwitch/DontZap/DontZoom, kernel.sysrq = 0, ctrl-alt-del.target masked (docs/install.md,
"The kiosk's keys"; tests/test_install_steps.py checks those files). Turned off there, the keys
arrive at the station as ordinary key events, and the station must not act on them either: no way
out, no judge mode, no step of the challenge skipped or judged, on any screen of a challenge.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from tests.ui.conftest import Rig, StationFactory, press, tab, type_text

K = Qt.Key
M = Qt.KeyboardModifier
CTRL_ALT = M.ControlModifier | M.AltModifier

# What each chord arrives as (Qt key, text, modifiers), as a window sees it with the chord turned
# off outside: SysRq is the Print key with Alt held, then the letter with Alt still held.
CHORDS: dict[str, list[tuple[Qt.Key, str, Qt.KeyboardModifier]]] = {
    **{f"Ctrl+Alt+F{n}": [(Qt.Key(K.Key_F1.value + n - 1), "", CTRL_ALT)] for n in range(1, 13)},
    "Ctrl+Alt+Del": [(K.Key_Delete, "\x7f", CTRL_ALT)],
    "Ctrl+Alt+Backspace": [(K.Key_Backspace, "\x08", CTRL_ALT)],
    "Ctrl+Alt+keypad plus": [(K.Key_Plus, "+", CTRL_ALT | M.KeypadModifier)],
    "Ctrl+Alt+keypad minus": [(K.Key_Minus, "-", CTRL_ALT | M.KeypadModifier)],
    "Alt+SysRq+B": [(K.Key_Print, "", M.AltModifier), (K.Key_B, "b", M.AltModifier)],
    "Alt+SysRq+O": [(K.Key_SysReq, "", M.AltModifier), (K.Key_O, "o", M.AltModifier)],
    "Alt+F2": [(K.Key_F2, "", M.AltModifier)],  # a text console's own switch
}


def shown(rig: Rig) -> tuple[object, ...]:
    """Where the players are: the screen in front and the step of the challenge. (Whether a chord's
    letter is typed is the entry's own business, not a way out: Alt+B carries the text "b".)"""
    window = rig.window
    return (window.stack.currentWidget(), rig.controller.state.screen, window.judging)


def to_entry(rig: Rig) -> None:
    type_text(rig.window, "2qi")


def to_confirm(rig: Rig) -> None:
    type_text(rig.window, "2qi za ")


def to_verdict(rig: Rig) -> None:
    to_confirm(rig)
    tab(rig.window)
    rig.controller.lockout_timer.timeout.emit()  # past the 0.5 s in which keys are ignored anyway


SCREENS = {"ready": lambda rig: None, "entry": to_entry, "confirm": to_confirm, "verdict": to_verdict}


@pytest.mark.parametrize("screen", SCREENS)
def test_the_keys_a_kiosk_session_turns_off_do_nothing_at_the_station(
    station: StationFactory, qtbot: QtBot, screen: str
) -> None:
    rig = station()
    window = rig.window
    SCREENS[screen](rig)
    before, geometry = shown(rig), window.geometry()
    with qtbot.assertNotEmitted(window.left):
        for name, keys in CHORDS.items():
            for key, text, modifiers in keys:
                press(window, key, text, modifiers)
            if screen == "verdict" and shown(rig) != before:  # any key clears a verdict, as it should
                assert window.stack.currentWidget() is window.ready, name
                before = shown(rig)
            assert shown(rig) == before, f"{name} on the {screen} screen"
            assert window.isVisible()
            assert window.geometry() == geometry, name
    assert len(rig.log.entries) == (1 if screen == "verdict" else 0), "nothing judged or logged by a chord"
