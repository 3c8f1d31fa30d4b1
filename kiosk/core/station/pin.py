"""The judge PIN: how it is hashed and checked, and how long wrong guesses make a player wait.

Pure functions of their arguments: the clock and the failure count come in from the caller (the
storage layer keeps the count in the database, so a restart does not reset it). The PIN is kept
only as a scrypt hash (stdlib ``hashlib.scrypt``, no extra dependency); the cost parameters travel
in the encoded hash, so they can be raised later without breaking stored PINs.

A short PIN's hash can be brute-forced offline by whoever copies the database; the back-off is
there for the player at the keyboard, and the station's disk is the organisers' to protect.

The numbers behind the policy (``max_guesses`` computes them from the constants below):

- Three wrong PINs are free (judges mistype); then the station waits 5 s, 10 s, 20 s, 40 s and
  from then on 60 s before it hears the next one. So a judge is never kept out for more than a
  minute (``PIN_BACKOFF_MAX_S``), however many wrong PINs a player typed before, restarts included.
- Waiting at most a minute means a guesser gets at most one try a minute once the ramp is over:
  ``max_guesses`` gives 65 in the first hour, 605 in 10 hours, 2,165 in 36 hours (three days of
  play) and 4,325 in 72 hours without a break, day and night.
- A PIN has at least ``PIN_MIN_LENGTH`` = 6 digits: 1,000,000 possibilities (the touch keypad has
  only digits, so count digits). Typing non-stop for 36 hours, a guesser finds it with a chance
  of 2,165 in 1,000,000: 0.22 %, 1 in 460; 72 hours around the clock: 0.43 %, 1 in 230. With the
  old 4 digits the same 36 hours gave 22 %: too much. Each further digit divides the chance by
  ten: an organiser who wants 1 in 46,000 for a three-day event chooses 8 digits.
- Nobody types a PIN a minute for a day unseen: every wrong PIN is counted in the database, a
  judge who comes in reads "Before this PIN: N wrong PINs in a row, the last at HH:MM" on the
  menu, each one is written to the station's standard error (the journal), and ``kiosk set-pin``
  says how many it cleared.
"""

from __future__ import annotations

import base64
import enum
import hashlib
import hmac
import os
from dataclasses import dataclass, field, replace
from datetime import datetime

from kiosk.core.errors import PinError
from kiosk.core.wording import marked

__all__ = [
    "PIN_BACKOFF_BASE_S",
    "PIN_BACKOFF_MAX_S",
    "PIN_FREE_ATTEMPTS",
    "PIN_MAX_LENGTH",
    "PIN_MIN_LENGTH",
    "STATION_BACKOFF",
    "Backoff",
    "PinAttempts",
    "PinCheck",
    "PinOutcome",
    "backoff_s",
    "hash_pin",
    "max_guesses",
    "validate_pin",
    "verify_pin",
]

PIN_MIN_LENGTH = 6  # with the back-off below: a guess in 36 hours of non-stop typing is 1 in 460
PIN_MAX_LENGTH = 64
PIN_FREE_ATTEMPTS = 3  # wrong PINs allowed before any wait: judges mistype too
PIN_BACKOFF_BASE_S = 5.0  # the wait after the first failure beyond the free ones; doubles each time
PIN_BACKOFF_MAX_S = 60.0  # a judge is never kept out longer than this, whatever a player typed

SCRYPT_LOG2_N = 14  # 16 MiB of memory and tens of milliseconds per check
SCRYPT_R = 8
SCRYPT_P = 1
SCRYPT_SALT_BYTES = 16
SCRYPT_KEY_BYTES = 32
SCRYPT_MAX_MEMORY_BYTES = 256 * 1024 * 1024  # upper bound accepted from a stored hash's parameters
SCHEME = "scrypt"


def validate_pin(pin: str) -> str:
    """Return the PIN if it can be used; raise PinError saying what is wrong with it."""
    if len(pin) < PIN_MIN_LENGTH:
        raise PinError(marked("the PIN is too short: use at least {count} characters"), count=PIN_MIN_LENGTH)
    if len(pin) > PIN_MAX_LENGTH:
        raise PinError(marked("the PIN is too long: use at most {count} characters"), count=PIN_MAX_LENGTH)
    if any(not ch.isprintable() or ch.isspace() for ch in pin):
        raise PinError(marked("the PIN may not contain spaces or control characters"))
    return pin


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def _scrypt(pin: str, salt: bytes, log2_n: int, r: int, p: int, key_bytes: int) -> bytes:
    return hashlib.scrypt(
        pin.encode("utf-8"),
        salt=salt,
        n=2**log2_n,
        r=r,
        p=p,
        maxmem=SCRYPT_MAX_MEMORY_BYTES,
        dklen=key_bytes,
    )


def hash_pin(pin: str, *, salt: bytes | None = None) -> str:
    """Hash a valid PIN as ``scrypt$ln=14,r=8,p=1$<salt>$<key>`` (base64 salt and key)."""
    validate_pin(pin)
    salt = os.urandom(SCRYPT_SALT_BYTES) if salt is None else salt
    key = _scrypt(pin, salt, SCRYPT_LOG2_N, SCRYPT_R, SCRYPT_P, SCRYPT_KEY_BYTES)
    return f"{SCHEME}$ln={SCRYPT_LOG2_N},r={SCRYPT_R},p={SCRYPT_P}${_b64(salt)}${_b64(key)}"


def verify_pin(pin: str, encoded: str) -> bool:
    """True if ``pin`` hashes to ``encoded``; the comparison takes the same time either way."""
    try:
        scheme, params, salt_b64, key_b64 = encoded.split("$")
        fields = dict(item.split("=", 1) for item in params.split(","))
        log2_n, r, p = int(fields["ln"]), int(fields["r"]), int(fields["p"])
        salt = base64.b64decode(salt_b64, validate=True)
        expected = base64.b64decode(key_b64, validate=True)
    except (ValueError, KeyError) as exc:
        raise PinError("the stored judge PIN hash is damaged; set a new PIN with 'kiosk set-pin'") from exc
    if scheme != SCHEME or not (1 <= log2_n <= 20 and 1 <= r <= 32 and 1 <= p <= 16) or not expected:
        raise PinError(
            marked(
                "the stored judge PIN hash uses '{scheme}' with parameters this kiosk does not accept; set "
                "a new PIN with 'kiosk set-pin'"
            ),
            scheme=scheme,
        )
    actual = _scrypt(pin, salt, log2_n, r, p, len(expected))
    return hmac.compare_digest(actual, expected)


@dataclass(frozen=True)
class Backoff:
    """A wrong-PIN back-off: ``free`` wrong PINs in a row cost nothing, then the wait before the
    next try starts at ``base_s`` and doubles up to ``max_s``. The station's is ``STATION_BACKOFF``;
    the director's page has its own, per device (``kiosk.director.door``)."""

    free: int
    base_s: float
    max_s: float

    def wait_after(self, failures: int) -> float:
        """How long to wait after ``failures`` consecutive wrong PINs before the next try is heard."""
        if failures < self.free:
            return 0.0
        doublings = failures - self.free
        if doublings >= 32:  # far past the cap; avoid building a huge number
            return self.max_s
        return min(self.base_s * 2.0**doublings, self.max_s)

    def max_guesses(self, seconds: float) -> int:
        """The most PINs anyone can try in ``seconds`` under this back-off (typing itself taken as
        instant, the first try at 0 s): the bound the docstrings work with."""
        tried, elapsed = 0, 0.0
        while True:
            wait = self.wait_after(tried)
            if elapsed + wait > seconds:
                return tried
            elapsed += wait
            tried += 1
            if wait == self.max_s:  # from here on, one try per maximal wait
                return tried + int((seconds - elapsed) // self.max_s)


STATION_BACKOFF = Backoff(PIN_FREE_ATTEMPTS, PIN_BACKOFF_BASE_S, PIN_BACKOFF_MAX_S)


def backoff_s(failures: int) -> float:
    """How long the station waits after ``failures`` consecutive wrong PINs before the next try."""
    return STATION_BACKOFF.wait_after(failures)


def max_guesses(seconds: float) -> int:
    """The most PINs anyone can try in ``seconds`` at one station under its back-off (typing
    itself taken as instant, the first try at 0 s): the bound the module docstring works with."""
    return STATION_BACKOFF.max_guesses(seconds)


@dataclass(frozen=True)
class PinAttempts:
    """Consecutive wrong PINs and when the last one was typed (UTC, timezone-aware)."""

    failures: int = 0
    last_failure_at: datetime | None = None

    def wait_s(self, now: datetime) -> float:
        """Seconds before another PIN may be tried; 0 when one may be tried now.

        A clock set backwards never makes the wait longer than the back-off itself.
        """
        backoff = backoff_s(self.failures)
        if backoff == 0.0 or self.last_failure_at is None:
            return 0.0
        elapsed = (now - self.last_failure_at).total_seconds()
        return min(backoff, max(0.0, backoff - elapsed))

    def failed(self, now: datetime) -> PinAttempts:
        return replace(self, failures=self.failures + 1, last_failure_at=now)

    def succeeded(self) -> PinAttempts:
        return PinAttempts()


class PinOutcome(enum.Enum):
    ACCEPTED = "accepted"
    WRONG = "wrong"  # checked and wrong; the failure was counted
    TOO_SOON = "too soon"  # not checked: still inside the back-off; nothing was counted
    NO_PIN = "no PIN set"  # set one with 'kiosk set-pin'


@dataclass(frozen=True)
class PinCheck:
    """What the station's storage answered to a PIN (``JudgeAccess.check_pin``)."""

    outcome: PinOutcome
    failures: int  # consecutive wrong PINs now on record
    wait_s: float  # seconds before the next PIN will be heard
    # ACCEPTED: the wrong PINs typed before it, for the judge who just came in
    cleared: PinAttempts = field(default_factory=PinAttempts)

    @property
    def accepted(self) -> bool:
        return self.outcome is PinOutcome.ACCEPTED
