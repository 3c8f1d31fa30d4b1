from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kiosk.core.errors import PinError
from kiosk.core.station.pin import (
    PIN_BACKOFF_BASE_S,
    PIN_BACKOFF_MAX_S,
    PIN_FREE_ATTEMPTS,
    PIN_MIN_LENGTH,
    PinAttempts,
    backoff_s,
    hash_pin,
    max_guesses,
    validate_pin,
    verify_pin,
)

T0 = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)


def test_a_pin_verifies_against_its_own_hash_only() -> None:
    encoded = hash_pin("246813")
    assert verify_pin("246813", encoded)
    assert not verify_pin("246814", encoded)
    assert not verify_pin("2468130", encoded)
    assert "246813" not in encoded
    assert encoded.startswith("scrypt$")


def test_the_same_pin_hashes_differently_each_time() -> None:
    assert hash_pin("246813") != hash_pin("246813")


@pytest.mark.parametrize("encoded", ["", "scrypt$ln=14$abc", "md5$ln=14,r=8,p=1$AAAA$AAAA", "scrypt$x$!!$!!"])
def test_a_damaged_stored_hash_is_an_error_that_says_how_to_recover(encoded: str) -> None:
    with pytest.raises(PinError, match="kiosk set-pin"):
        verify_pin("246813", encoded)


@pytest.mark.parametrize(
    ("pin", "reason"),
    [("12345", "too short"), ("123 456", "spaces"), ("123\t456", "spaces"), ("9" * 65, "too long")],
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


def test_a_judge_is_never_kept_out_for_more_than_a_minute() -> None:
    assert PIN_BACKOFF_MAX_S <= 60.0
    assert max(backoff_s(n) for n in range(10_000)) == PIN_BACKOFF_MAX_S


def test_guessing_the_pin_within_a_tournament_is_hopeless() -> None:
    """The numbers of the module docstring, from the policy itself: 65 tries in the first hour,
    then one a minute; with 6 digits, 72 hours of non-stop guessing find the PIN with < 0.5 %."""
    assert PIN_MIN_LENGTH >= 6
    assert [max_guesses(hours * 3600) for hours in (1, 10, 36, 72)] == [65, 605, 2165, 4325]
    three_days_non_stop = max_guesses(72 * 3600)
    assert three_days_non_stop / 10**PIN_MIN_LENGTH < 0.005
    assert max_guesses(36 * 3600) / 10**4 > 0.2  # why 4 digits were not enough


@given(st.floats(min_value=0, max_value=4 * 3600))
def test_max_guesses_is_what_the_door_lets_through(seconds: float) -> None:
    """Try a PIN the moment the door listens, until ``seconds`` have passed: as many as max_guesses."""
    attempts, now, tried = PinAttempts(), T0, 0
    while True:
        now += timedelta(seconds=attempts.wait_s(now))
        if (now - T0).total_seconds() > seconds:
            break
        attempts, tried = attempts.failed(now), tried + 1
    assert tried == max_guesses(seconds)


def test_a_pin_shorter_than_six_digits_is_refused() -> None:
    with pytest.raises(PinError, match="at least 6"):
        validate_pin("48261")
