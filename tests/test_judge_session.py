from hypothesis import given
from hypothesis import strategies as st

from kiosk.core.judge import JUDGE_IDLE_LOCK_S, JudgeSession


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
    assert session.remaining_s(latest) == JUDGE_IDLE_LOCK_S
