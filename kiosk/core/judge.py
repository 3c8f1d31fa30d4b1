"""Judge mode's idle lock: an open judge session closes itself after a minute without input.

A frozen value and pure transitions; the caller passes a monotonic clock (``time.monotonic()``), so
a wall-clock change cannot keep judge mode open. The GUI touches the session on every key or
click and asks ``remaining_s`` to arm its single timer.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["JUDGE_IDLE_LOCK_S", "JudgeSession"]

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
