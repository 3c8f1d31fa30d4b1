"""What a key press means at the station: the text it types, the session event it stands for,
and whether it is a key held down repeating (the window forwards; the session decides).

Qt-bound (it reads QKeyEvent) but holds no widget: the station window and judge mode use it.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeyEvent

from kiosk.core.play.session import Backspace, Escape, Event, JudgePressed, JudgeRequested, Nudged, Typed

__all__ = ["JUDGE_CHORD", "KEY_EVENTS", "REPEAT_KEY", "HeldKeys", "is_shortcut", "key_to_event", "typed_text"]

Mod = Qt.KeyboardModifier
_CHORD_MODIFIERS = Mod.ControlModifier | Mod.AltModifier | Mod.ShiftModifier | Mod.MetaModifier
_SHORTCUT_MODIFIERS = Mod.ControlModifier | Mod.AltModifier | Mod.MetaModifier
JUDGE_CHORD = (Mod.ControlModifier | Mod.AltModifier, Qt.Key.Key_J)  # Ctrl+Alt+J: judge mode
KEY_EVENTS = (Typed, Backspace, Escape, JudgePressed, JudgeRequested, Nudged)  # what a key can mean
REPEAT_KEY = Qt.Key.Key_F1  # says the screen again (types nothing): kiosk.core.play.speech.REPEAT_KEY


def typed_text(event: QKeyEvent) -> str:
    """The text a key types, whatever modifiers are held for it; "" for a key that types none.

    On Windows, AltGr arrives as Ctrl+Alt: Polish Ą is AltGr+A, and it is text. A shortcut types
    no text of its own: Ctrl+Q gives a control character, Alt+F4 and Ctrl+Alt+Del give none.
    """
    text = event.text()
    # Control characters come from keys the station ignores; everything else (invisible and
    # look-alike characters included) goes to the session, which refuses it with a reason.
    if text and not all(ord(char) < 0x20 or ord(char) == 0x7F for char in text):
        return text
    return ""


def key_to_event(event: QKeyEvent) -> Event:
    """The session event a key press stands for; ``Nudged`` for a key the flow has no use for
    (an arrow, Shift, F1, Ctrl+Q): it does nothing but keep an entry from clearing itself."""
    key = event.key()
    modifiers = event.modifiers() & _CHORD_MODIFIERS
    text = typed_text(event)
    if (modifiers, key) == JUDGE_CHORD and not text:
        return JudgeRequested()
    if modifiers & _SHORTCUT_MODIFIERS:
        # AltGr's letters are typed; Ctrl+Q, Ctrl+W, Alt+F4, Alt+Tab and friends do nothing here
        return Typed(text) if text else Nudged()
    simple: dict[int, Event] = {
        Qt.Key.Key_Tab: JudgePressed(),
        Qt.Key.Key_Backtab: JudgePressed(),
        Qt.Key.Key_Backspace: Backspace(),
        Qt.Key.Key_Escape: Escape(),
        Qt.Key.Key_Return: Typed("\r"),
        Qt.Key.Key_Enter: Typed("\r"),
    }
    if key in simple:
        return simple[key]
    return Typed(text) if text else Nudged()


def is_shortcut(event: QKeyEvent) -> bool:
    """Ctrl, Alt or Meta held (AltGr's letters excepted by the caller: they type text)."""
    return bool(event.modifiers() & _SHORTCUT_MODIFIERS)


class HeldKeys:
    """Tells a key held down (the keyboard repeating it) from a fresh press."""

    def __init__(self) -> None:
        self._released: tuple[int, int] | None = None  # the last key let go, and when (ms)

    def released(self, event: QKeyEvent) -> None:
        if not event.isAutoRepeat():
            self._released = (event.key(), event.timestamp())

    def repeats(self, event: QKeyEvent) -> bool:
        """Whether a press is the keyboard repeating a key held down.

        Qt says so itself on Windows, macOS and Wayland. Under X11 it misses repeats whose press
        has not reached it yet when it sees the release before it (most of them, on a loaded
        machine): those come as a release and a press of the same key at the same millisecond,
        which no hand can do. (A synthesised event carries no time, 0: never taken for a repeat.)
        """
        if event.isAutoRepeat():
            return True
        stamp = event.timestamp()
        return stamp != 0 and self._released == (event.key(), stamp)
