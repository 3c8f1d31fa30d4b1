"""The PIN door: the dots, what the door says, and the keypad of a touch station."""

from __future__ import annotations

from PySide6.QtWidgets import QGridLayout, QSizePolicy, QWidget

from kiosk.core.judge import Door, JudgeState, Key, Pressed, Typed
from kiosk.core.words.language import Catalogue, english, marked
from kiosk.ui import theme
from kiosk.ui.judge.page import Page, Send, format_wait
from kiosk.ui.layout import row, spacer, stack
from kiosk.ui.theme import FitButton, FitLabel

__all__ = ["DoorPage"]

PIN_KEYS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "\u232b", "0", "OK")
ERASE, OK, CANCEL = "\u232b", "OK", "CANCEL"

# The door's words.
HINT = marked("Type the PIN, then Enter \u00b7 Backspace corrects \u00b7 Esc: back to the station")
TOUCH_HINT = marked("Tap the PIN, then OK \u00b7 \u232b corrects")
CANCEL_TEXT = marked("Cancel \u2014 back to the station")
ERASE_NAME = marked("Erase the last digit")  # what a screen reader says of the \u232b key
TITLE = marked("Judge PIN")
NO_PIN_TITLE = marked("No judge PIN is set")
CHECKING = marked("Checking the PIN\u2026")
TOO_MANY = marked("Too many wrong PINs")
# A PIN typed while the back-off runs is not compared with anything: the door says to wait.
TOO_SOON_WAIT = marked("Too soon: that PIN was not checked. Wait {time}, then type it again")
TOO_SOON_AGAIN = marked("Too soon: that PIN was not checked. Type it again")


def title(door: Door, t: Catalogue | None = None) -> str:
    t = t or english()
    return t.text(TITLE) if door.has_pin else t.text(NO_PIN_TITLE)


def message(
    door: Door, now_s: float, set_pin_command: str, *, looking: bool, t: Catalogue | None = None
) -> tuple[str, bool]:
    """What the door says, and whether it is a warning (a refusal) or the standing hint."""
    t = t or english()
    refusal = door.refusal
    said = ""
    if refusal is not None and not refusal.too_soon:
        said = t.say(refusal.problem) or t.plural(
            "{count} wrong PIN in a row", "{count} wrong PINs in a row", refusal.failures
        )
    if door.unreadable:
        cannot = t.text("The station database cannot be read, so no PIN can be checked:")
        return f"{cannot}\n{t.say(door.unreadable)}", True
    wait = door.wait_s(now_s)
    if refusal is not None and refusal.too_soon:  # a wait, never a wrong PIN: it was not looked at
        if wait > 0.0:
            return t.text(TOO_SOON_WAIT, time=format_wait(wait)), True
        return t.text(TOO_SOON_AGAIN), True
    if wait > 0.0:
        return t.text(
            "{refusal}. Next try in {time}", refusal=said or t.text(TOO_MANY), time=format_wait(wait)
        ), True
    if said:
        return said, True
    if door.asking is not None and looking:
        return t.text(CHECKING), False
    if not door.has_pin:
        return t.text("Set one on this machine's terminal:") + f"\n{set_pin_command}", True
    return t.text("Forgotten? Set a new one on this machine's terminal:") + f"\n{set_pin_command}", False


class DoorPage(Page):
    hint = HINT
    touch_hint = TOUCH_HINT

    def __init__(self, send: Send, *, touch: bool, set_pin_command: str) -> None:
        super().__init__(send, touch=touch)
        self.set_pin_command = set_pin_command  # what the door tells a judge who forgot the PIN
        self.title = FitLabel(fill=0.7, bold=True)
        self.title.setObjectName("door-title")
        self.dots = FitLabel(fill=0.7, bold=True, reference="\u25cf " * 12)
        self.dots.setObjectName("door-dots")
        self.message = FitLabel(fill=0.7, bold=True, colour=theme.NOTICE, wrap=True)
        self.message.setObjectName("door-message")
        self.keys: dict[str, FitButton] = {}
        self.shut = False
        items: list[tuple[QWidget, int]] = (
            [(self.title, 9), (self.dots, 8), (self.message, 8)]
            if touch
            else [(self.title, 14), (self.dots, 14), (self.message, 12)]
        )
        if touch:
            pad = QWidget()
            pad.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Ignored)
            grid = QGridLayout(pad)
            grid.setSpacing(8)
            for index, label in enumerate(PIN_KEYS):
                event = {OK: Pressed(Key.ENTER), ERASE: Pressed(Key.BACKSPACE)}.get(label, Typed(label))
                key = self.button(label, event, colour=theme.SAFE if label == OK else theme.KEY_BACKGROUND)
                key.setObjectName(f"pin-key-{label}")
                grid.addWidget(key, index // 3, index % 3)
                self.keys[label] = key
            cancel = self.button(CANCEL_TEXT, Pressed(Key.ESCAPE))
            cancel.setObjectName("pin-cancel")
            self.keys[CANCEL] = cancel
            grid.addWidget(cancel, 4, 0, 1, 3)
            for r in range(5):
                grid.setRowStretch(r, 1)
            items.append((row((spacer(), 1), (pad, 3), (spacer(), 1)), 75))
        else:
            items.append((spacer(), 40))
        stack(self, items)

    def show_state(self, state: JudgeState, *, looking: bool) -> None:
        door, now_s = state.door, state.now.monotonic_s
        self.shut = door.shut(now_s) and door.has_pin
        self.title.setText(title(door, self.catalogue))
        if CANCEL in self.keys:
            self.keys[CANCEL].setText(self.catalogue.text(CANCEL_TEXT))
        if ERASE in self.keys:
            self.keys[ERASE].setAccessibleName(self.catalogue.text(ERASE_NAME))
        # the dots read as "black circle": a screen reader hears how many digits are typed
        self.dots.setAccessibleName(
            self.catalogue.plural("{count} digit typed", "{count} digits typed", len(state.door.typed))
        )
        waiting = door.shut(now_s) or door.asking is not None  # no cursor where typing is not heard
        self.dots.setText(door.shown or ("" if waiting else "_"))
        text, warning = message(door, now_s, self.set_pin_command, looking=looking, t=self.catalogue)
        self.message.setText(text)
        # a refusal in the warning colour; the standing hint about a forgotten PIN stays quiet
        self.message.set_colour(theme.NOTICE if warning else theme.DIM_TEXT)
        open_ = not door.shut(now_s) and door.asking is None
        for label, key in self.keys.items():
            key.setEnabled(label == CANCEL or open_)
