"""Judge mode's door: the PIN hash and the count of wrong PINs, kept in the station's database.

The policy is pure (``kiosk.core.pin``); this class only reads and writes the single
``judge_access`` row, inside one write-locked transaction per attempt, so a restart (or a second
process) sees the same failure count and the same wait.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

from sqlalchemy import Engine
from sqlalchemy.orm import Session

from kiosk.core.language import marked
from kiosk.core.pin import PinAttempts, PinCheck, PinOutcome, hash_pin, verify_pin
from kiosk.core.wording import Wording
from kiosk.storage.database import IMMEDIATE, ReportedAs, reported_as
from kiosk.storage.schema import JudgeAccessRow

__all__ = ["JudgeAccess", "PinCheck", "PinOutcome"]

ACCESS_ROW_ID = 1


def utc_now() -> datetime:
    return datetime.now(UTC)


class JudgeAccess:
    def __init__(self, engine: Engine, *, where: str, clock: Callable[[], datetime] = utc_now) -> None:
        self._engine = engine
        self._writer = engine.execution_options(**{IMMEDIATE: True})
        self._clock = clock
        self.where = where

    def _failing(self, action: str) -> ReportedAs:
        doing = {
            "read": marked("read the judge PIN in {where}"),
            "write": marked("write the judge PIN in {where}"),
        }
        return reported_as(Wording(doing[action], where=self.where))

    @staticmethod
    def _row(session: Session) -> JudgeAccessRow:
        row = session.get(JudgeAccessRow, ACCESS_ROW_ID)
        if row is None:
            row = JudgeAccessRow(id=ACCESS_ROW_ID, pin_hash=None, failures=0, last_failure_at=None)
            session.add(row)
        return row

    def has_pin(self) -> bool:
        with self._failing("read"), Session(self._engine) as session:
            row = session.get(JudgeAccessRow, ACCESS_ROW_ID)
            return row is not None and row.pin_hash is not None

    def set_pin(self, pin: str) -> None:
        """Store a new PIN's hash and forget past failures (this is also the recovery path)."""
        encoded = hash_pin(pin)  # raises PinError for an unusable PIN, before touching the database
        with self._failing("write"), Session(self._writer) as session, session.begin():
            row = self._row(session)
            row.pin_hash = encoded
            row.failures = 0
            row.last_failure_at = None

    def attempts(self) -> PinAttempts:
        with self._failing("read"), Session(self._engine) as session:
            row = session.get(JudgeAccessRow, ACCESS_ROW_ID)
            if row is None:
                return PinAttempts()
            return PinAttempts(failures=row.failures, last_failure_at=row.last_failure_at)

    def wait_s(self) -> float:
        """Seconds before a PIN will be heard: the GUI shows this and keeps the keypad shut."""
        return self.attempts().wait_s(self._clock())

    def check_pin(self, pin: str) -> PinCheck:
        """Try a PIN: counted and persisted before the answer is returned."""
        now = self._clock()
        with self._failing("write"), Session(self._writer) as session, session.begin():
            row = session.get(JudgeAccessRow, ACCESS_ROW_ID)
            if row is None or row.pin_hash is None:
                return PinCheck(PinOutcome.NO_PIN, failures=0, wait_s=0.0)
            attempts = PinAttempts(failures=row.failures, last_failure_at=row.last_failure_at)
            wait = attempts.wait_s(now)
            if wait > 0.0:
                return PinCheck(PinOutcome.TOO_SOON, failures=attempts.failures, wait_s=wait)
            if verify_pin(pin, row.pin_hash):
                row.failures = 0
                row.last_failure_at = None
                return PinCheck(PinOutcome.ACCEPTED, failures=0, wait_s=0.0, cleared=attempts)
            attempts = attempts.failed(now)
            row.failures = attempts.failures
            row.last_failure_at = now
            return PinCheck(PinOutcome.WRONG, failures=attempts.failures, wait_s=attempts.wait_s(now))
