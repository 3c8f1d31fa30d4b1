"""The judge PIN: stored only as a hash; wrong PINs back off, and a restart does not reset it."""

from __future__ import annotations

import json
import sqlite3
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from kiosk.core.errors import PinError
from kiosk.core.station.pin import PIN_BACKOFF_BASE_S, PIN_BACKOFF_MAX_S, PIN_FREE_ATTEMPTS
from kiosk.storage import JudgeAccess, PinOutcome, StationStorage, open_station_storage
from kiosk.storage.database import open_engine, sqlite_url


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


def door(storage: StationStorage, clock: Clock) -> JudgeAccess:
    """The storage's judge access, on a clock the test controls."""
    engine = open_engine(sqlite_url(storage.local_path))
    return JudgeAccess(engine, where=str(storage.local_path), clock=clock)


def test_without_a_pin_judge_mode_says_so(storage: StationStorage) -> None:
    assert not storage.judge_access.has_pin()
    assert storage.judge_access.check_pin("123456").outcome is PinOutcome.NO_PIN


def test_the_pin_is_stored_only_as_a_hash(storage: StationStorage) -> None:
    storage.judge_access.set_pin("864209")
    assert storage.judge_access.has_pin()
    assert b"864209" not in storage.local_path.read_bytes()
    with sqlite3.connect(storage.local_path) as conn:
        (stored,) = conn.execute("SELECT pin_hash FROM judge_access").fetchone()
    assert stored.startswith("scrypt$")
    assert "864209" not in stored


def test_an_unusable_pin_is_refused_and_the_old_one_kept(storage: StationStorage) -> None:
    storage.judge_access.set_pin("123456")
    with pytest.raises(PinError, match="too short"):
        storage.judge_access.set_pin("12")
    assert storage.judge_access.check_pin("123456").accepted


def test_wrong_pins_back_off_and_the_backoff_survives_a_restart(tmp_path: Path) -> None:
    clock = Clock()
    with open_station_storage(tmp_path) as storage:
        storage.judge_access.set_pin("246813")
        access = door(storage, clock)
        for n in range(1, PIN_FREE_ATTEMPTS + 1):
            check = access.check_pin("000000")
            assert (check.outcome, check.failures) == (PinOutcome.WRONG, n)
        assert check.wait_s == PIN_BACKOFF_BASE_S

    # The station restarts: a new store object on the same file, a little later.
    clock.advance(1)
    with open_station_storage(tmp_path) as storage:
        access = door(storage, clock)
        assert access.attempts().failures == PIN_FREE_ATTEMPTS
        assert access.wait_s() == PIN_BACKOFF_BASE_S - 1
        early = access.check_pin("246813")  # even the right PIN is not heard during the wait
        assert (early.outcome, early.failures) == (PinOutcome.TOO_SOON, PIN_FREE_ATTEMPTS)
        clock.advance(PIN_BACKOFF_BASE_S)
        again = access.check_pin("111111")
        assert (again.outcome, again.wait_s) == (PinOutcome.WRONG, 2 * PIN_BACKOFF_BASE_S)

    clock.advance(2 * PIN_BACKOFF_BASE_S)
    with open_station_storage(tmp_path) as storage:
        access = door(storage, clock)
        assert access.check_pin("246813").accepted
        assert access.attempts().failures == 0


def test_set_pin_is_the_recovery_path_and_clears_the_failures(storage: StationStorage) -> None:
    clock = Clock()
    storage.judge_access.set_pin("246813")
    access = door(storage, clock)
    for _ in range(PIN_FREE_ATTEMPTS + 3):
        clock.advance(3600)
        access.check_pin("000000")
    assert access.wait_s() > 0
    storage.judge_access.set_pin("135791")
    assert access.wait_s() == 0
    assert access.check_pin("135791").accepted


def test_however_many_wrong_pins_a_player_types_a_judge_waits_a_minute_at_most(tmp_path: Path) -> None:
    """A player cannot lock the judges out for a round; the judge hears how many PINs were tried."""
    clock = Clock()
    with open_station_storage(tmp_path) as storage:
        storage.judge_access.set_pin("246813")
        access = door(storage, clock)
        for _ in range(200):  # over two hours of wrong PINs, each as soon as the door listens
            clock.advance(access.wait_s())
            assert access.check_pin("000000").outcome is PinOutcome.WRONG
        last_wrong = clock.now
    clock.advance(1)
    with open_station_storage(tmp_path) as storage:  # a restart changes nothing
        access = door(storage, clock)
        assert 0 < access.wait_s() <= PIN_BACKOFF_MAX_S <= 60
        clock.advance(access.wait_s())
        check = access.check_pin("246813")
        assert check.accepted
        assert (check.cleared.failures, check.cleared.last_failure_at) == (200, last_wrong)
        assert access.attempts().failures == 0


def test_a_pin_try_that_cannot_be_counted_is_not_checked(tmp_path: Path) -> None:
    """A full disk: no try is counted, so none is checked, the right PIN included (fail closed);
    the right and the wrong PIN get the same answer, so the guesser learns nothing from it."""
    from tests.test_paths import in_private_tmpfs

    folder = tmp_path / "small-disk"
    tries = ["482613", "000000", "111111", "482613"]
    child = [sys.executable, "-m", "tests.storage.full_disk_child", str(folder), "482613", *tries]
    result = in_private_tmpfs(folder, "size=2m", False, *child)
    assert result.returncode == 0, result.stderr
    said = json.loads(result.stdout)
    assert said["filled"] == "No space left on device"
    refusal = f"cannot count this PIN try in {folder / 'data' / 'kiosk.sqlite3'}, so the PIN was not checked"
    for pin, outcome, detail in said["full"]:
        assert (pin, outcome) == (pin, "error")
        assert str(detail).startswith(refusal), detail
        assert "full" in str(detail)
    # space again: the same tries are counted and checked as ever
    assert said["freed"] == [["482613", "accepted", 0], ["000000", "wrong", 1], ["111111", "wrong", 2],
                             ["482613", "accepted", 0]]  # fmt: skip
