"""Judge mode's door: the PIN hash and the count of wrong PINs, kept in the station's database.

The policy is pure (``kiosk.core.station.pin``); this class only reads and writes the single
``judge_access`` row, in write-locked transactions, so a restart (or a second process) sees the
same failure count and the same wait.

A PIN is checked only once its try is on record (fail closed): ``check_pin`` first commits the try
as a wrong PIN, then compares the PIN, then clears the count if it was right. A try that cannot be
counted (a full disk, a read-only file system, a database gone) is refused unchecked, right PIN or
wrong, so a guesser learns nothing from it and the back-off cannot be escaped by filling the disk.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

from sqlalchemy import Engine
from sqlalchemy.orm import Session

from kiosk.core.station.pin import PinAttempts, PinCheck, PinOutcome, hash_pin, verify_pin
from kiosk.core.wording import Wording
from kiosk.core.words.language import marked
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
            "count": marked("count this PIN try in {where}, so the PIN was not checked"),
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

    def pin_hash(self) -> str | None:
        """The stored hash (None: no PIN is set), for a door that keeps its own count of wrong PINs
        (the director's page) and so never writes here."""
        with self._failing("read"), Session(self._engine) as session:
            row = session.get(JudgeAccessRow, ACCESS_ROW_ID)
            return None if row is None else row.pin_hash

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
        """Try a PIN: counted and persisted before the PIN is compared (see the module docstring).

        Raises StorageError, the PIN unchecked, when the try cannot be counted.
        """
        now = self._clock()
        with self._failing("count"), Session(self._writer) as session, session.begin():
            row = session.get(JudgeAccessRow, ACCESS_ROW_ID)
            if row is None or row.pin_hash is None:
                return PinCheck(PinOutcome.NO_PIN, failures=0, wait_s=0.0)
            before = PinAttempts(failures=row.failures, last_failure_at=row.last_failure_at)
            wait = before.wait_s(now)
            if wait > 0.0:
                return PinCheck(PinOutcome.TOO_SOON, failures=before.failures, wait_s=wait)
            encoded = row.pin_hash
            counted = before.failed(now)
            row.failures = counted.failures
            row.last_failure_at = now
        # committed: this try is on record as a wrong PIN until the PIN proves right
        if not verify_pin(pin, encoded):
            return PinCheck(PinOutcome.WRONG, failures=counted.failures, wait_s=counted.wait_s(now))
        with self._failing("write"), Session(self._writer) as session, session.begin():
            row = self._row(session)
            row.failures = 0
            row.last_failure_at = None
        return PinCheck(PinOutcome.ACCEPTED, failures=0, wait_s=0.0, cleared=before)
