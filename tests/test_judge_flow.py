"""Judge mode's flow without Qt: the state, the transition, the requests and the orders."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kiosk.core.judge import (
    ApplyChoice,
    CheckPacks,
    CheckPin,
    Closed,
    DoorRead,
    Event,
    Failed,
    Journal,
    JudgePage,
    JudgeState,
    Key,
    Leave,
    LogRead,
    Moment,
    Opened,
    PinChecked,
    Pressed,
    ReadDoor,
    ReadLog,
    Reloaded,
    ReloadPacks,
    Request,
    RowTapped,
    Saved,
    SaveSettings,
    SettingStepped,
    Station,
    StationChanged,
    StationStepped,
    Step,
    TakeReload,
    Ticked,
    Touched,
    Typed,
    start,
    transition,
)
from kiosk.core.play.rules import ProfileKind
from kiosk.core.station.config import Division, StationConfig, load_divisions
from kiosk.core.station.pin import PinAttempts, PinCheck, PinOutcome
from kiosk.core.station.reload import ReloadResult
from kiosk.core.station.settings import StationChoice
from lexicon_build.builder import build_pack
from lexicon_build.recipe import Recipe, SourceSpec

NOON = datetime(2026, 5, 1, 12, 0).astimezone()


@pytest.fixture(scope="module")
def station(tmp_path_factory: pytest.TempPathFactory) -> Station:
    folder = tmp_path_factory.mktemp("judge-flow")
    words = folder / "words.txt"
    words.write_text("CAT\nDOG\nQI\nZA\n", encoding="utf-8")
    pack = folder / "club.kxpack"
    pack.write_bytes(build_pack(Recipe(name="Club", edition="1", sources=(SourceSpec(path=words),))).data)
    config = StationConfig(divisions=(Division("Open", pack), Division("Schools", pack)), station_name="T1")
    return Station(config, load_divisions(config), StationChoice(None, config.rules, config.timings))


def at(seconds: float) -> Moment:
    return Moment(seconds, NOON)


def run(state: JudgeState, *events: Event) -> tuple[JudgeState, list[object]]:
    effects: list[object] = []
    for event in events:
        step = transition(state, event)
        state = step.state
        effects += step.effects
    return state, effects


def requests(effects: list[object]) -> list[Request]:
    return [effect for effect in effects if isinstance(effect, Request)]


def opened(station: Station) -> tuple[JudgeState, CheckPin]:
    """The door open, read, and the PIN typed and submitted: the check under way."""
    state, effects = run(start(station, Path("/data"), at(0.0)), Opened(at(0.0)))
    (read,) = requests(effects)
    assert isinstance(read, ReadDoor)
    state, effects = run(
        state, DoorRead(read.ticket, has_pin=True, wait_s=0.0), Typed("482613"), Pressed(Key.ENTER)
    )
    (check,) = requests(effects)
    assert isinstance(check, CheckPin)
    assert check.pin == "482613"
    return state, check


def unlocked(station: Station) -> JudgeState:
    state, check = opened(station)
    state, _ = run(state, PinChecked(check.ticket, PinCheck(PinOutcome.ACCEPTED, 0, 0.0)))
    assert state.page is JudgePage.MENU
    return state


def test_the_right_pin_opens_the_menu_and_a_wrong_one_shuts_the_keypad(station: Station) -> None:
    state, check = opened(station)
    wrong, effects = run(state, PinChecked(check.ticket, PinCheck(PinOutcome.WRONG, 4, 5.0)))
    assert wrong.page is JudgePage.DOOR
    assert wrong.session is None
    assert wrong.door.refusal is not None
    assert wrong.door.refusal.failures == 4
    assert wrong.door.shut(4.9)
    assert not wrong.door.shut(5.0)
    assert Journal("judge mode: a wrong PIN (4 in a row)") in effects
    assert run(wrong, Typed("1"))[0].door.typed == ""  # the keypad is shut while the back-off runs
    cleared = PinAttempts(failures=2, last_failure_at=NOON)
    right, _ = run(state, PinChecked(check.ticket, PinCheck(PinOutcome.ACCEPTED, 0, 0.0, cleared)))
    assert right.page is JudgePage.MENU
    assert right.session is not None
    assert right.cleared == cleared


def test_a_pin_accepted_after_the_judge_walked_away_opens_nothing(station: Station) -> None:
    state, check = opened(station)
    state, effects = run(state, Pressed(Key.ESCAPE))
    assert state.page is None
    assert Leave() in effects
    state, effects = run(state, PinChecked(check.ticket, PinCheck(PinOutcome.ACCEPTED, 0, 0.0)))
    assert (state.page, state.session, effects) == (None, None, [])


def test_the_door_left_idle_closes_and_the_next_pin_is_the_judge_s_alone(station: Station) -> None:
    """Esc, ``12``, and the player walks away: the door goes back to the players after the idle
    lock, digits and all, and the judge who opens it later sends only the PIN typed then."""
    state, effects = run(start(station, Path("/data"), at(0.0)), Opened(at(0.0)))
    (read,) = requests(effects)
    state, _ = run(state, DoorRead(read.ticket, has_pin=True, wait_s=0.0), Touched(at(5.0)), Typed("12"))
    assert state.door.typed == "12"
    state, effects = run(state, Ticked(at(64.0)))
    assert (state.page, effects) == (JudgePage.DOOR, [])  # 59 s since the last key
    state, effects = run(state, Ticked(at(65.0)))
    assert state.page is None
    assert state.door.typed == ""
    assert Journal("the judge PIN door closed itself after being left idle") in effects
    assert Leave() in effects
    state, effects = run(state, Opened(at(92.0)))
    (read,) = requests(effects)
    state, effects = run(
        state, DoorRead(read.ticket, has_pin=True, wait_s=0.0), Typed("482613"), Pressed(Key.ENTER)
    )
    (check,) = requests(effects)
    assert isinstance(check, CheckPin)
    assert check.pin == "482613"


def test_an_answer_to_a_question_no_longer_asked_changes_nothing(station: Station) -> None:
    state, effects = run(unlocked(station), Typed("1"))
    (first,) = requests(effects)
    assert isinstance(first, ReadLog)
    state, effects = run(state, Pressed(Key.RIGHT))  # another period: the first answer is stale
    (second,) = requests(effects)
    assert isinstance(second, ReadLog)
    assert second.ticket > first.ticket
    stale = LogRead(first.ticket, ("T9",), (), local_only=True)
    assert transition(state, stale) == Step(state)
    state, _ = run(state, LogRead(second.ticket, ("T1",), (), local_only=False))
    assert state.recheck.stations == ("T1",)
    assert state.recheck.asking is None


def test_a_save_answered_after_the_idle_lock_still_applies_what_it_saved(station: Station) -> None:
    state, effects = run(unlocked(station), Typed("3"), SettingStepped(1, 1), Pressed(Key.ENTER))
    (save,) = requests(effects)
    assert isinstance(save, SaveSettings)
    assert save.choice.rules.kind is ProfileKind.PENALTY
    assert save.rule_profile == "penalty-5-challenger_loses"
    locked, effects = run(state, Ticked(at(61.0)))
    assert locked.page is None
    assert Journal("judge mode locked itself after being left idle") in effects
    assert Journal("judge mode: settings left unsaved (kept for the next judge)") in effects
    _, effects = run(locked, Saved(save.ticket, save.choice))
    assert effects == [ApplyChoice(save.choice)]


def test_a_failed_save_says_why_and_applies_nothing(station: Station) -> None:
    state, effects = run(unlocked(station), Typed("3"), SettingStepped(1, 1), Pressed(Key.ENTER))
    (save,) = requests(effects)
    state, effects = run(state, Failed(save, "cannot write the station settings in x: disk I/O error"))
    assert effects == []
    assert state.settings.notice is not None
    assert state.settings.notice.detail == "cannot write the station settings in x: disk I/O error"
    assert state.unsaved


def test_reloaded_packs_are_read_again_only_once_the_station_has_taken_them(station: Station) -> None:
    state, _ = run(unlocked(station), Typed("2"))
    state, effects = run(state, Typed("r"))
    (reload,) = [r for r in requests(effects) if isinstance(r, ReloadPacks)]
    result = ReloadResult(divisions=station.divisions)
    state, effects = run(state, Reloaded(reload.ticket, result))
    assert effects == [TakeReload(result)]  # no check of the files yet: the station swaps first
    swapped = replace(station, packs_verified_at=NOON)
    state, effects = run(state, StationChanged(swapped))
    assert [type(r) for r in requests(effects)] == [CheckPacks]
    _, effects = run(state, StationChanged(swapped))
    assert effects == []


def test_back_to_the_station_clears_a_fault_and_the_station_can_close_judge_mode(station: Station) -> None:
    _, effects = run(unlocked(station), Typed("7"))
    assert effects == [Leave(clear_fault=True)]
    state, effects = run(unlocked(station), Closed())
    assert (state.page, effects) == (None, [Leave()])


KEYS = st.sampled_from(list(Key)).map(Pressed)
INPUT = st.one_of(
    KEYS,
    st.text(alphabet="0123456789rfsRFS\u00e9 ", max_size=3).map(Typed),
    st.integers(0, 6).map(RowTapped),
    st.sampled_from([-1, 1]).map(StationStepped),
    st.tuples(st.integers(0, 7), st.sampled_from([-1, 1])).map(lambda t: SettingStepped(*t)),
    st.floats(0, 200).map(lambda s: Ticked(at(s))),
    st.floats(0, 200).map(lambda s: Touched(at(s))),
    st.just(Opened(at(0.0))),
    st.just(Closed()),
)


@settings(max_examples=300, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    events=st.lists(
        st.one_of(INPUT, st.tuples(st.integers(0, 40), st.booleans()).map(lambda t: ("answer", *t))),
        max_size=60,
    )
)
def test_no_sequence_of_keys_taps_and_answers_opens_judge_mode_without_the_pin(
    station: Station, events: list[Event | tuple[str, int, bool]]
) -> None:
    """Whatever a player presses at the door, and whatever order the answers come in, judge mode
    opens only on the storage's "accepted"; every request gets a ticket of its own."""
    state = start(station, Path("/data"), at(0.0))
    tickets: set[int] = set()
    out: list[Request] = []
    for item in events:
        if isinstance(item, tuple):  # an answer to one of the requests made so far: wrong or right
            _, index, accepted = item
            if not out:
                continue
            request = out[index % len(out)]
            answer: Event = (
                PinChecked(request.ticket, PinCheck(PinOutcome.WRONG, 3, 5.0))
                if isinstance(request, CheckPin) and not accepted
                else PinChecked(request.ticket, PinCheck(PinOutcome.ACCEPTED, 0, 0.0))
                if isinstance(request, CheckPin)
                else DoorRead(request.ticket, has_pin=True, wait_s=0.0)
                if isinstance(request, ReadDoor)
                else Failed(request, "no")
            )
            was_locked = state.session is None
            state = transition(state, answer).state
            if was_locked and state.session is not None:
                assert isinstance(answer, PinChecked)
                assert answer.check.accepted
            continue
        assert not isinstance(item, tuple)
        was_locked = state.session is None
        step = transition(state, item)
        state = step.state
        if was_locked:
            assert state.session is None, item
        for request in requests(list(step.effects)):
            assert request.ticket not in tickets
            tickets.add(request.ticket)
            out.append(request)
        assert (state.page is None) <= (state.session is None)
        assert state.session is None or state.page not in (None, JudgePage.DOOR)
        if isinstance(item, Ticked) and state.page is JudgePage.DOOR:  # a door left idle closes
            assert item.at.monotonic_s - state.door_touched_s < state.idle_lock_s
