"""The judge PIN: how it is hashed and checked, and how long wrong guesses make a player wait.

Pure functions of their arguments: the clock and the failure count come in from the caller (the
storage layer keeps the count in the database, so a restart does not reset it). The PIN is kept
only as a scrypt hash (stdlib ``hashlib.scrypt``, no extra dependency); the cost parameters travel
in the encoded hash, so they can be raised later without breaking stored PINs.

A short PIN's hash can be brute-forced offline by whoever copies the database; the back-off is
there for the player at the keyboard, and the station's disk is the organisers' to protect.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
from dataclasses import dataclass, replace
from datetime import datetime

from kiosk.core.errors import PinError

__all__ = [
    "PIN_BACKOFF_BASE_S",
    "PIN_BACKOFF_MAX_S",
    "PIN_FREE_ATTEMPTS",
    "PIN_MAX_LENGTH",
    "PIN_MIN_LENGTH",
    "PinAttempts",
    "backoff_s",
    "hash_pin",
    "validate_pin",
    "verify_pin",
]

PIN_MIN_LENGTH = 4
PIN_MAX_LENGTH = 64
PIN_FREE_ATTEMPTS = 3  # wrong PINs allowed before any wait: judges mistype too
PIN_BACKOFF_BASE_S = 5.0  # the wait after the first failure beyond the free ones; doubles each time
PIN_BACKOFF_MAX_S = 15 * 60.0  # a judge can always get in within a quarter of an hour

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
        raise PinError(f"the PIN is too short: use at least {PIN_MIN_LENGTH} characters")
    if len(pin) > PIN_MAX_LENGTH:
        raise PinError(f"the PIN is too long: use at most {PIN_MAX_LENGTH} characters")
    if any(not ch.isprintable() or ch.isspace() for ch in pin):
        raise PinError("the PIN may not contain spaces or control characters")
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
            f"the stored judge PIN hash uses '{scheme}' with parameters this kiosk does not accept; "
            "set a new PIN with 'kiosk set-pin'"
        )
    actual = _scrypt(pin, salt, log2_n, r, p, len(expected))
    return hmac.compare_digest(actual, expected)


def backoff_s(failures: int) -> float:
    """How long to wait after ``failures`` consecutive wrong PINs before the next try is heard."""
    if failures < PIN_FREE_ATTEMPTS:
        return 0.0
    doublings = failures - PIN_FREE_ATTEMPTS
    if doublings >= 32:  # far past the cap; avoid building a huge number
        return PIN_BACKOFF_MAX_S
    return min(PIN_BACKOFF_BASE_S * 2.0**doublings, PIN_BACKOFF_MAX_S)


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
