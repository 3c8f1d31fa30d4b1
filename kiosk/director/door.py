"""The director's PIN door: its own count of wrong PINs, per device and for the whole page.

The page asks for the judge PIN kept in the data directory it was started with (often a
station's), but it never touches that station's count: a script posting wrong PINs to the page
once kept that station's judges out for as long as it liked. The stored PIN's hash is only read
(``StoredPin``); the count of wrong PINs lives in this process, on the monotonic clock, and each
try is counted before the PIN is compared, so no PIN is ever checked whose failure went uncounted
(memory cannot be full the way a disk can).

Two bounds, each worked out for a whole event (``door_max_guesses`` and ``Backoff.max_guesses``
compute them; a test keeps the numbers true):

- **Per device** (an IPv4 address, or an IPv6 /64 network: one machine can have a whole /64):
  three wrong PINs in a row are free, then the next try is heard only after 30 s, 60 s, 2 min,
  4 min, 8 min and from then on 15 min (``DEVICE_BACKOFF``). One device gets at most 10 tries in
  its first hour, 150 in 36 hours and 294 in 72 hours; a judge who mistypes three times waits
  half a minute. A device's wait is its own: it never shuts the door for another device.
- **For the whole page**: at most ``DOOR_WRONG_PER_WINDOW`` = 20 wrong PINs are heard in any
  ``DOOR_WINDOW_S`` = 60 minutes, from all devices together. That is what holds against many
  addresses at once (a laptop can take several on a venue network): at most 740 guesses in 36
  hours and 1,460 in 72 hours around the clock. Against the 1,000,000 six-digit PINs that is a
  chance of 0.074 % (1 in 1,351) and 0.146 % (1 in 685): fewer than at a station's own keyboard
  (1 in 460 and 1 in 230, ``kiosk.core.station.pin``), because a page on a network is easier to script
  than a keyboard is to stand at. An eight-digit PIN divides it by a hundred. One device alone
  cannot reach the ceiling (10 tries in its first hour); two or more that do shut the page's door
  for everyone until the hour has passed, and the page says so, why, and that every station's own
  door is not affected.

A restart of ``kiosk director`` forgets the count: only whoever runs it can restart it, and a
restart gives a guesser 20 tries more at most. Every wrong PIN is written to the director's
standard error with the device's address, and the first page shows how many were typed in the
last hour.
"""

from __future__ import annotations

import contextlib
import ipaddress
import math
import sys
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from starlette.concurrency import run_in_threadpool

from kiosk.core.errors import KioskError
from kiosk.core.station.pin import Backoff, PinOutcome, verify_pin
from kiosk.core.words.plural import counted

__all__ = [
    "DEVICE_BACKOFF",
    "DOOR_WINDOW_S",
    "DOOR_WRONG_PER_WINDOW",
    "DirectorDoor",
    "DoorAnswer",
    "StoredPin",
    "device_of",
    "door_max_guesses",
]

DEVICE_BACKOFF = Backoff(free=3, base_s=30.0, max_s=900.0)
DOOR_WRONG_PER_WINDOW = 20  # wrong PINs heard from all devices together in any DOOR_WINDOW_S
DOOR_WINDOW_S = 3600.0
IPV6_DEVICE_PREFIX = 64  # one machine on an IPv6 network may use any address of its /64


def door_max_guesses(seconds: float) -> int:
    """The most wrong PINs the page hears in ``seconds`` from any number of devices (the first at
    0 s, ``seconds`` included): the ceiling's bound the module docstring works with."""
    return DOOR_WRONG_PER_WINDOW * (math.floor(seconds / DOOR_WINDOW_S) + 1)


def device_of(address: str) -> str:
    """Who counts as one device: the IPv4 address, the /64 of an IPv6 address (an IPv4 address
    mapped into IPv6 is that IPv4 address), anything else (a test client's name) as it is."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, IPV6_DEVICE_PREFIX), strict=False))
    return str(ip)


class StoredPin:
    """The judge PIN's hash in a station database, read only (the file is never created, and its
    count of wrong PINs never written)."""

    def __init__(self, database: Path, set_pin_command: str) -> None:
        self.database = database
        self.set_pin_command = set_pin_command

    @property
    def missing(self) -> str:
        return (
            f"No judge PIN is set in {self.database}, so the challenges stay closed. Set one on this "
            f"computer with: {self.set_pin_command}"
        )

    def read(self) -> str | None:
        """The stored hash, None when no PIN is set; KioskError when it cannot be read."""
        from kiosk.storage.access import JudgeAccess
        from kiosk.storage.database import open_engine, sqlite_url

        if not self.database.is_file():
            return None
        engine = open_engine(sqlite_url(self.database))
        try:
            return JudgeAccess(engine, where=str(self.database)).pin_hash()
        finally:
            engine.dispose()


@dataclass(frozen=True)
class DoorAnswer:
    """What the door said to one PIN. ``failures``: the device's wrong PINs in a row now;
    ``wait_s``: before its next try is heard; ``for_everyone``: the wait is the page's ceiling,
    not the device's own; ``problem``: why the PIN could not be checked (nothing was counted)."""

    outcome: PinOutcome
    failures: int = 0
    wait_s: float = 0.0
    for_everyone: bool = False
    problem: str = ""

    @property
    def accepted(self) -> bool:
        return self.outcome is PinOutcome.ACCEPTED

    def message(self, missing: str) -> str:
        """What the page says (English, as the page is): a wait says wait, never "wrong PIN"."""
        if self.outcome is PinOutcome.NO_PIN:
            return missing
        if self.problem:
            return f"The PIN was not checked: {self.problem}"
        wait = _duration(self.wait_s)
        if self.outcome is PinOutcome.TOO_SOON:
            if self.for_everyone:
                return (
                    f"Too soon: that PIN was not checked. This page has heard {DOOR_WRONG_PER_WINDOW} "
                    f"wrong PINs in the last hour, from any device, so it hears no PIN for {wait}. "
                    "Every station's own judge door is not affected."
                )
            return (
                f"Too soon: that PIN was not checked. Wait {wait}: this device has typed "
                f"{counted(self.failures, 'wrong PIN')} in a row."
            )
        said = f"Wrong PIN: {counted(self.failures, 'wrong PIN')} in a row from this device."
        return f"{said} Wait {wait} before the next try." if self.wait_s > 0 else said


def _duration(seconds: float) -> str:
    whole = max(1, math.ceil(seconds - 1e-9))
    if whole < 120:
        return f"{whole} s"
    return f"{math.ceil(whole / 60)} min"


@dataclass
class _Device:
    failures: int = 0
    last_failure_s: float = 0.0


class DirectorDoor:
    """The page's PIN door (see the module docstring). ``check`` runs on the server's event loop:
    the count is taken and written there before any await, so two tries at once are counted as
    two; the comparison (scrypt, 16 MiB) runs on a worker thread, one at a time."""

    def __init__(
        self,
        stored: StoredPin,
        *,
        monotonic: Callable[[], float] = time.monotonic,
        journal: Callable[[str], None] | None = None,
    ) -> None:
        self.stored = stored
        self._monotonic = monotonic
        self._journal = journal if journal is not None else _to_stderr
        self._devices: dict[str, _Device] = {}
        self._heard: deque[float] = deque()  # when each wrong PIN of the last window was heard
        self._comparing = threading.Lock()  # one scrypt at a time, whatever arrives at once

    def _forget_old(self, now: float) -> None:
        while self._heard and self._heard[0] <= now - DOOR_WINDOW_S:
            self._heard.popleft()

    def wrong_last_hour(self) -> int:
        """Wrong PINs heard in the last ``DOOR_WINDOW_S`` (the first page shows it)."""
        self._forget_old(self._monotonic())
        return len(self._heard)

    def _refusal(self, device: _Device, now: float) -> DoorAnswer | None:
        """TOO_SOON if the device's back-off or the page's ceiling still runs, else None."""
        own = DEVICE_BACKOFF.wait_after(device.failures) - (now - device.last_failure_s)
        if device.failures and own > 0:
            return DoorAnswer(PinOutcome.TOO_SOON, failures=device.failures, wait_s=own)
        self._forget_old(now)
        if len(self._heard) >= DOOR_WRONG_PER_WINDOW:
            opens = self._heard[len(self._heard) - DOOR_WRONG_PER_WINDOW] + DOOR_WINDOW_S
            return DoorAnswer(
                PinOutcome.TOO_SOON, failures=device.failures, wait_s=opens - now, for_everyone=True
            )
        return None

    async def check(self, address: str, pin: str) -> DoorAnswer:
        """Try ``pin`` from the device at ``address``."""
        now = self._monotonic()
        key = device_of(address)
        device = self._devices.get(key, _Device())
        refused = self._refusal(device, now)
        if refused is not None:
            return refused
        # Counted as wrong before the PIN is looked at; given back if it proves right.
        device.failures += 1
        device.last_failure_s = now
        self._devices[key] = device
        self._heard.append(now)
        try:
            encoded, right = await run_in_threadpool(self._compare, pin)
        except KioskError as exc:  # nothing learnt about the PIN: the try is given back
            self._give_back(key, device, now)
            return DoorAnswer(PinOutcome.WRONG, failures=device.failures, problem=str(exc))
        if encoded is None:
            self._give_back(key, device, now)
            return DoorAnswer(PinOutcome.NO_PIN)
        if right:
            self._give_back(key, device, now)
            self._devices.pop(key, None)  # the right PIN clears the device's wrong ones
            return DoorAnswer(PinOutcome.ACCEPTED)
        self._journal(
            f"kiosk director: a wrong PIN from {address} ({device.failures} in a row from there, "
            f"{len(self._heard)} in the last hour on this page)"
        )
        return DoorAnswer(
            PinOutcome.WRONG, failures=device.failures, wait_s=DEVICE_BACKOFF.wait_after(device.failures)
        )

    def _compare(self, pin: str) -> tuple[str | None, bool]:
        with self._comparing:
            encoded = self.stored.read()
            return encoded, encoded is not None and verify_pin(pin, encoded)

    def _give_back(self, key: str, device: _Device, at: float) -> None:
        device.failures = max(0, device.failures - 1)
        if not device.failures:
            self._devices.pop(key, None)
        with contextlib.suppress(ValueError):  # already out of the window
            self._heard.remove(at)


def _to_stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)
