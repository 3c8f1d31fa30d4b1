"""Judge mode without the widgets: its idle lock, its menu and the PIN door in front of it.

Frozen values and pure transitions. The idle lock takes a monotonic clock (``time.monotonic()``)
from the caller, so a wall-clock change cannot keep judge mode open; the GUI touches the session
on every key or click and asks ``remaining_s`` to arm its timer. The door collects a PIN and asks
for it to be checked (``CheckPin``); the storage layer checks it and counts failures.
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass, replace

from kiosk.core.pin import PIN_MAX_LENGTH

__all__ = [
    "JUDGE_IDLE_LOCK_S",
    "MENU_PAGES",
    "CheckPin",
    "Door",
    "JudgePage",
    "JudgeSession",
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
    SETTINGS = "Divisions and rules"
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


@dataclass(frozen=True)
class CheckPin:
    """Ask the station's storage whether this PIN is the judge PIN."""

    pin: str


@dataclass(frozen=True)
class Door:
    """The PIN screen in front of judge mode: what has been typed and what to tell the judge.

    The digits are never shown, only counted. The door only ever checks a PIN: it never offers to
    set one, because whoever stands at the station may be a player. The PIN is set from the
    machine's terminal (``kiosk set-pin``), and a station without one does not serve players.
    """

    typed: str = ""
    message: str = ""
    has_pin: bool = True

    @classmethod
    def opened(cls, *, has_pin: bool) -> Door:
        return cls(has_pin=has_pin)

    @property
    def title(self) -> str:
        return "Judge PIN" if self.has_pin else "No judge PIN is set"

    @property
    def shown(self) -> str:
        """The PIN as the screen shows it: one dot per character, never the characters."""
        return " ".join("\u25cf" * len(self.typed)) if self.typed else ""

    def typed_text(self, text: str) -> Door:
        keep = "".join(ch for ch in text if ch.isprintable() and not ch.isspace())
        if not keep or not self.has_pin:
            return self
        return replace(self, typed=(self.typed + keep)[:PIN_MAX_LENGTH], message="")

    def erased(self) -> Door:
        return replace(self, typed=self.typed[:-1], message="")

    def cleared(self) -> Door:
        return replace(self, typed="", message="")

    def submitted(self) -> tuple[Door, CheckPin | None]:
        """Enter or OK: check the PIN (nothing to check when none is typed or none is set)."""
        if not self.typed or not self.has_pin:
            return self, None
        return replace(self, typed=""), CheckPin(self.typed)

    def refused(self, message: str) -> Door:
        """The PIN was wrong, came too soon, or could not be checked: say why and start again."""
        return Door(message=message, has_pin=self.has_pin)


def format_wait(seconds: float) -> str:
    """A back-off wait as a countdown, rounded up: ``0:05``, ``14:59``."""
    whole = max(0, math.ceil(seconds - 1e-9))
    return f"{whole // 60}:{whole % 60:02d}"
