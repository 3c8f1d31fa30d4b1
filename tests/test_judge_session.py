import pytest
from hypothesis import given
from hypothesis import strategies as st

from kiosk.core.judge import JUDGE_IDLE_LOCK_S, Door, JudgePage, JudgeSession, menu_page
from kiosk.ui.judge.door import title
from kiosk.ui.judge.page import format_wait


def test_judge_mode_locks_after_a_minute_without_input() -> None:
    session = JudgeSession.opened(100.0)
    assert JUDGE_IDLE_LOCK_S == 60.0
    assert not session.is_locked(159.9)
    assert session.remaining_s(130.0) == 30.0
    assert session.is_locked(160.0)


def test_any_input_restarts_the_idle_minute() -> None:
    session = JudgeSession.opened(100.0).touched(150.0)
    assert not session.is_locked(200.0)
    assert session.is_locked(210.0)


@given(st.lists(st.floats(min_value=0, max_value=1e6), min_size=1))
def test_touches_in_any_order_never_move_the_lock_earlier(times: list[float]) -> None:
    session = JudgeSession.opened(times[0])
    latest = times[0]
    for now in times[1:]:
        session = session.touched(now)
        latest = max(latest, now)
    assert session.remaining_s(latest) == pytest.approx(JUDGE_IDLE_LOCK_S)  # x + 60 - x is not 60 in floats


def test_the_menu_keys_open_the_numbered_pages() -> None:
    assert menu_page("1") is JudgePage.RECHECK
    assert menu_page("8") is JudgePage.EXIT
    assert [menu_page(k) for k in ("0", "9", "a", "", "12")] == [None] * 5


def test_the_door_checks_a_typed_pin_and_shows_only_dots() -> None:
    door = Door(has_pin=True).typed_text("48").typed_text("2x6")
    assert door.typed == "482x6"
    assert "4" not in door.shown
    assert door.shown.count("\u25cf") == 5
    door = door.erased().erased().typed_text("6")
    door, action = door.submitted()
    assert action == "4826"
    assert door.typed == ""


def test_an_empty_pin_is_not_submitted() -> None:
    door = Door(has_pin=True)
    assert door.submitted() == (door, None)


def test_a_door_with_no_pin_set_never_offers_to_set_one() -> None:
    """Whoever stands at the station may be a player: the PIN is set from the terminal only."""
    door = Door(has_pin=False)
    assert title(door) == "No judge PIN is set"
    door = door.typed_text("123456")
    assert door.typed == ""
    assert door.submitted() == (door, None)


def test_waits_are_counted_down_in_minutes_and_seconds() -> None:
    assert [format_wait(s) for s in (0, 0.2, 5, 59.5, 60, 899.1)] == [
        "0:00",
        "0:01",
        "0:05",
        "1:00",
        "1:00",
        "15:00",
    ]
