from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kiosk.core.errors import PinError
from kiosk.core.pin import (
    PIN_BACKOFF_BASE_S,
    PIN_BACKOFF_MAX_S,
    PIN_FREE_ATTEMPTS,
    PinAttempts,
    backoff_s,
    hash_pin,
    validate_pin,
    verify_pin,
)

T0 = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)


def test_a_pin_verifies_against_its_own_hash_only() -> None:
    encoded = hash_pin("2468")
    assert verify_pin("2468", encoded)
    assert not verify_pin("2469", encoded)
    assert not verify_pin("24680", encoded)
    assert "2468" not in encoded
    assert encoded.startswith("scrypt$")


def test_the_same_pin_hashes_differently_each_time() -> None:
    assert hash_pin("2468") != hash_pin("2468")


@pytest.mark.parametrize("encoded", ["", "scrypt$ln=14$abc", "md5$ln=14,r=8,p=1$AAAA$AAAA", "scrypt$x$!!$!!"])
def test_a_damaged_stored_hash_is_an_error_that_says_how_to_recover(encoded: str) -> None:
    with pytest.raises(PinError, match="kiosk set-pin"):
        verify_pin("2468", encoded)


@pytest.mark.parametrize(
    ("pin", "reason"),
    [("123", "too short"), ("12 34", "spaces"), ("12\t34", "spaces"), ("9" * 65, "too long")],
)
def test_unusable_pins_are_refused_with_the_reason(pin: str, reason: str) -> None:
    with pytest.raises(PinError, match=reason):
        validate_pin(pin)


def test_backoff_is_free_at_first_then_doubles_up_to_the_cap() -> None:
    assert [backoff_s(n) for n in range(PIN_FREE_ATTEMPTS)] == [0.0] * PIN_FREE_ATTEMPTS
    assert backoff_s(PIN_FREE_ATTEMPTS) == PIN_BACKOFF_BASE_S
    assert backoff_s(PIN_FREE_ATTEMPTS + 1) == 2 * PIN_BACKOFF_BASE_S
    assert backoff_s(PIN_FREE_ATTEMPTS + 2) == 4 * PIN_BACKOFF_BASE_S
    assert backoff_s(10_000) == PIN_BACKOFF_MAX_S


@given(st.integers(min_value=0, max_value=10_000))
def test_backoff_never_shrinks_with_more_failures_and_never_exceeds_the_cap(failures: int) -> None:
    assert 0.0 <= backoff_s(failures) <= backoff_s(failures + 1) <= PIN_BACKOFF_MAX_S


def test_the_wait_counts_down_from_the_last_failure() -> None:
    attempts = PinAttempts()
    for _ in range(PIN_FREE_ATTEMPTS):
        assert attempts.wait_s(T0) == 0.0
        attempts = attempts.failed(T0)
    assert attempts.wait_s(T0) == PIN_BACKOFF_BASE_S
    assert attempts.wait_s(T0 + timedelta(seconds=2)) == PIN_BACKOFF_BASE_S - 2
    assert attempts.wait_s(T0 + timedelta(seconds=PIN_BACKOFF_BASE_S)) == 0.0
    assert attempts.succeeded() == PinAttempts()


@given(
    st.integers(min_value=0, max_value=100),
    st.timedeltas(min_value=timedelta(days=-400), max_value=timedelta(days=400)),
)
def test_no_clock_change_makes_the_wait_longer_than_the_backoff(failures: int, shift: timedelta) -> None:
    attempts = PinAttempts(failures=failures, last_failure_at=T0)
    assert 0.0 <= attempts.wait_s(T0 + shift) <= backoff_s(failures)
