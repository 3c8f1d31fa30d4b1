"""Judge mode without the widgets: its idle lock, its menu and the PIN door in front of it.

Frozen values and pure transitions. The idle lock takes a monotonic clock (``time.monotonic()``)
from the caller, so a wall-clock change cannot keep judge mode open; the GUI touches the session
on every key or click and asks ``remaining_s`` to arm its timer. The door collects a PIN and says
what to do with it (``CheckPin``, ``SetPin``); the storage layer checks it and counts failures.
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass, replace

from kiosk.core.pin import PIN_MAX_LENGTH, PIN_MIN_LENGTH

__all__ = [
    "JUDGE_IDLE_LOCK_S",
    "MENU_PAGES",
    "CheckPin",
    "Door",
    "DoorAction",
    "DoorStage",
    "JudgePage",
    "JudgeSession",
    "SetPin",
    "format_wait",
    "menu_page",
]

JUDGE_IDLE_LOCK_S = 60.0


@dataclass(frozen=True)
class JudgeSession:
    """An unlocked judge mode: when the judge last did something, and how long it may stay idle."""

    last_activity_s: float
    idle_lock_s: float = JUDGE_IDLE_LOCK_S

    @classmethod
    def opened(cls, now_s: float, *, idle_lock_s: float = JUDGE_IDLE_LOCK_S) -> JudgeSession:
        return cls(last_activity_s=now_s, idle_lock_s=idle_lock_s)

    def touched(self, now_s: float) -> JudgeSession:
        """The judge pressed a key or clicked: the idle minute starts again."""
        return JudgeSession(last_activity_s=max(now_s, self.last_activity_s), idle_lock_s=self.idle_lock_s)

    def remaining_s(self, now_s: float) -> float:
        """Seconds until the session locks itself; 0 once it has."""
        return max(0.0, self.last_activity_s + self.idle_lock_s - now_s)

    def is_locked(self, now_s: float) -> bool:
        return self.remaining_s(now_s) == 0.0


class JudgePage(enum.Enum):
    """The judge screens. The menu's number keys open them, in this order."""

    RECHECK = "Recent challenges"
    PACKS = "Packs"
    SETTINGS = "Division and rules"
    COUNTS = "Today's counts"
    EXPORT = "Export the log"
    STATUS = "Log status"
    BACK = "Back to the station"
    EXIT = "Exit the station"


MENU_PAGES = tuple(JudgePage)


def menu_page(text: str) -> JudgePage | None:
    """The page a key opens from the menu: ``1`` to ``8``, as numbered on the screen."""
    if len(text) == 1 and text.isascii() and text.isdigit() and 1 <= int(text) <= len(MENU_PAGES):
        return MENU_PAGES[int(text) - 1]
    return None


class DoorStage(enum.Enum):
    ENTER = "enter"  # a PIN is set: type it
    CHOOSE = "choose"  # no PIN yet: choose one
    CONFIRM = "confirm"  # type the chosen PIN again


@dataclass(frozen=True)
class CheckPin:
    """Ask the station's storage whether this PIN is the judge PIN."""

    pin: str


@dataclass(frozen=True)
class SetPin:
    """Store this PIN (typed twice alike) as the judge PIN."""

    pin: str


DoorAction = CheckPin | SetPin


@dataclass(frozen=True)
class Door:
    """The PIN screen in front of judge mode: what has been typed and what to tell the judge.

    The digits are never shown, only counted. With no PIN set yet, the first judge to come in
    chooses one, typed twice (``kiosk set-pin`` before the event is the better way).
    """

    stage: DoorStage
    typed: str = ""
    chosen: str = ""
    message: str = ""

    @classmethod
    def opened(cls, *, has_pin: bool) -> Door:
        return cls(DoorStage.ENTER if has_pin else DoorStage.CHOOSE)

    @property
    def title(self) -> str:
        if self.stage is DoorStage.ENTER:
            return "Judge PIN"
        if self.stage is DoorStage.CHOOSE:
            return "No judge PIN is set yet: choose one"
        return "Type the new PIN again"

    @property
    def shown(self) -> str:
        """The PIN as the screen shows it: one dot per character, never the characters."""
        return " ".join("\u25cf" * len(self.typed)) if self.typed else ""

    def typed_text(self, text: str) -> Door:
        keep = "".join(ch for ch in text if ch.isprintable() and not ch.isspace())
        if not keep:
            return self
        return replace(self, typed=(self.typed + keep)[:PIN_MAX_LENGTH], message="")

    def erased(self) -> Door:
        return replace(self, typed=self.typed[:-1], message="")

    def cleared(self) -> Door:
        return replace(self, typed="", message="")

    def submitted(self) -> tuple[Door, DoorAction | None]:
        """Enter or OK: check the PIN, move on to confirming a new one, or set it."""
        if not self.typed:
            return self, None
        if self.stage is DoorStage.ENTER:
            return replace(self, typed=""), CheckPin(self.typed)
        if self.stage is DoorStage.CHOOSE:
            if len(self.typed) < PIN_MIN_LENGTH:
                return replace(self, typed="", message=f"Use at least {PIN_MIN_LENGTH} digits"), None
            return Door(DoorStage.CONFIRM, chosen=self.typed), None
        if self.typed != self.chosen:
            return Door(DoorStage.CHOOSE, message="The two PINs differ: choose the new PIN again"), None
        return replace(self, typed=""), SetPin(self.typed)

    def refused(self, message: str) -> Door:
        """The PIN was wrong, came too soon, or could not be set: say why and start again."""
        stage = DoorStage.ENTER if self.stage is DoorStage.ENTER else DoorStage.CHOOSE
        return Door(stage, message=message)


def format_wait(seconds: float) -> str:
    """A back-off wait as a countdown, rounded up: ``0:05``, ``14:59``."""
    whole = max(0, math.ceil(seconds - 1e-9))
    return f"{whole // 60}:{whole % 60:02d}"
