"""The director's PIN door on a clock the test turns: per device, for the whole page, the numbers
its docstring promises, and a try counted before the PIN is compared."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from kiosk.core.errors import StorageError
from kiosk.core.station.pin import PinOutcome
from kiosk.director.door import (
    DEVICE_BACKOFF,
    DOOR_WINDOW_S,
    DOOR_WRONG_PER_WINDOW,
    DirectorDoor,
    DoorAnswer,
    StoredPin,
    device_of,
    door_max_guesses,
)
from kiosk.storage import open_station_storage

PIN = "482613"
HOUR_S = 3600


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def stored(tmp_path: Path) -> StoredPin:
    with open_station_storage(tmp_path / "station") as storage:
        storage.judge_access.set_pin(PIN)
        return StoredPin(storage.local_path, "kiosk set-pin")


def door_on(stored: StoredPin, clock: Clock, journal: list[str] | None = None) -> DirectorDoor:
    lines = journal if journal is not None else []
    return DirectorDoor(stored, monotonic=clock, journal=lines.append)


def check(door: DirectorDoor, address: str, pin: str) -> DoorAnswer:
    return asyncio.run(door.check(address, pin))


def test_the_numbers_in_the_docstring_and_the_judges_guide() -> None:
    assert [DEVICE_BACKOFF.max_guesses(h * HOUR_S) for h in (1, 36, 72)] == [10, 150, 294]
    assert [door_max_guesses(h * HOUR_S) for h in (36, 72)] == [740, 1460]
    assert f"{door_max_guesses(36 * HOUR_S) / 10**6:.3%}" == "0.074%"
    assert f"{door_max_guesses(72 * HOUR_S) / 10**6:.3%}" == "0.146%"
    assert round(10**6 / door_max_guesses(36 * HOUR_S)) == 1351
    assert round(10**6 / door_max_guesses(72 * HOUR_S)) == 685
    assert DEVICE_BACKOFF.max_guesses(HOUR_S) < DOOR_WRONG_PER_WINDOW  # one device cannot shut it for all


def test_a_devices_wrong_pins_make_it_wait_and_never_another_device(stored: StoredPin) -> None:
    clock, journal = Clock(), list[str]()
    door = door_on(stored, clock, journal)
    said = [check(door, "10.0.0.7", "000000") for _ in range(3)]
    assert [a.outcome for a in said] == [PinOutcome.WRONG] * 3
    assert said[-1].wait_s == DEVICE_BACKOFF.base_s
    assert (
        said[-1].message("")
        == "Wrong PIN: 3 wrong PINs in a row from this device. Wait 30 s before the next try."
    )
    early = check(door, "10.0.0.7", PIN)  # the right PIN, during its own wait: not checked
    assert early.outcome is PinOutcome.TOO_SOON
    assert not early.for_everyone
    assert early.message("").startswith(
        "Too soon: that PIN was not checked. Wait 30 s: this device has typed"
    )
    assert check(door, "10.0.0.8", PIN).accepted  # another device is not kept out
    clock.now += DEVICE_BACKOFF.base_s
    assert check(door, "10.0.0.7", PIN).accepted
    assert check(door, "10.0.0.7", "000000").failures == 1  # the right PIN cleared its count
    assert journal[0] == (
        "kiosk director: a wrong PIN from 10.0.0.7 (1 in a row from there, 1 in the last hour on this page)"
    )


def test_many_devices_meet_the_pages_ceiling_which_shuts_it_for_everyone(stored: StoredPin) -> None:
    clock = Clock()
    door = door_on(stored, clock)
    for n in range(DOOR_WRONG_PER_WINDOW):
        assert check(door, f"10.0.1.{n}", "000000").outcome is PinOutcome.WRONG  # a fresh address each time
        clock.now += 1
    assert door.wrong_last_hour() == DOOR_WRONG_PER_WINDOW
    shut = check(door, "10.0.9.9", PIN)  # a judge, on a device that typed nothing wrong
    assert shut.outcome is PinOutcome.TOO_SOON
    assert shut.for_everyone
    assert shut.message("").startswith(
        "Too soon: that PIN was not checked. This page has heard 20 wrong PINs"
    )
    assert "Every station's own judge door is not affected." in shut.message("")
    assert shut.wait_s == pytest.approx(DOOR_WINDOW_S - DOOR_WRONG_PER_WINDOW)
    clock.now += shut.wait_s  # the first wrong PIN leaves the hour: one more is heard
    assert check(door, "10.0.9.9", PIN).accepted


def test_an_ipv6_device_is_its_64_and_a_mapped_ipv4_is_the_ipv4() -> None:
    assert device_of("2001:db8:1:2:aaaa::1") == device_of("2001:db8:1:2:bbbb::9") == "2001:db8:1:2::/64"
    assert device_of("2001:db8:1:3::1") != device_of("2001:db8:1:2::1")
    assert device_of("::ffff:10.0.0.7") == "10.0.0.7"
    assert device_of("testclient") == "testclient"


def test_tries_at_once_are_each_counted_before_any_is_compared(stored: StoredPin) -> None:
    """Ten tries from one device in the same instant: three are compared, seven wait."""
    clock = Clock()
    door = door_on(stored, clock)

    async def burst() -> list[DoorAnswer]:
        return await asyncio.gather(*(door.check("10.0.0.7", "000000") for _ in range(10)))

    answers = asyncio.run(burst())
    outcomes = sorted(a.outcome.value for a in answers)
    assert outcomes.count(PinOutcome.WRONG.value) == DEVICE_BACKOFF.free
    assert outcomes.count(PinOutcome.TOO_SOON.value) == 10 - DEVICE_BACKOFF.free


def test_a_pin_that_cannot_be_read_is_not_counted_and_not_checked(tmp_path: Path) -> None:
    class Broken(StoredPin):
        def read(self) -> str | None:
            raise StorageError("cannot read the judge PIN in x: disk I/O error")

    door = door_on(Broken(tmp_path / "x", "kiosk set-pin"), Clock())
    answer = check(door, "10.0.0.7", PIN)
    assert not answer.accepted
    assert answer.message("") == "The PIN was not checked: cannot read the judge PIN in x: disk I/O error"
    assert door.wrong_last_hour() == 0


def test_no_pin_set_says_how_to_set_one(tmp_path: Path) -> None:
    door = door_on(StoredPin(tmp_path / "none" / "kiosk.sqlite3", "kiosk set-pin --data-dir none"), Clock())
    answer = check(door, "10.0.0.7", PIN)
    assert answer.outcome is PinOutcome.NO_PIN
    assert "kiosk set-pin --data-dir none" in answer.message(door.stored.missing)
    assert door.wrong_last_hour() == 0
