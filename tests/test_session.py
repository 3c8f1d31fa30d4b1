from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kiosk.core.adjudication import adjudicate
from kiosk.core.lexicon import MarisaLexicon
from kiosk.core.normalise import MIN_WORD_LETTERS
from kiosk.core.session import (
    Backspace,
    DivisionSelected,
    DivisionStepped,
    Effect,
    Escape,
    Event,
    FaultCleared,
    IdleExpired,
    JudgePressed,
    JudgeRequested,
    LockoutEnded,
    Recorded,
    RecordFailed,
    Screen,
    SessionState,
    Typed,
    VerdictExpired,
    start,
    transition,
)


def run(state: SessionState, *events: Event) -> SessionState:
    for event in events:
        state = transition(state, event).state
    return state


def entered(text: str, count: int, max_length: int = 15) -> SessionState:
    return run(start((max_length,)), Typed(str(count)), Typed(text))


def test_the_count_opens_the_entry() -> None:
    state = run(start((15,)), Typed("3"))
    assert state.screen is Screen.ENTRY
    assert state.expected == 3


def test_zero_nine_and_letters_do_not_open_the_entry() -> None:
    assert run(start((15,)), Typed("0"), Typed("9"), Typed("a")).screen is Screen.READY


def test_words_are_separated_by_space_comma_or_enter_and_upper_cased() -> None:
    state = entered("cat,dog\rqi", 3)
    assert state.entered == ("CAT", "DOG", "QI")
    assert state.screen is Screen.CONFIRM


def test_full_width_letters_are_folded_by_the_normaliser() -> None:
    assert entered("\uff21\uff22", 1).entered == ("AB",)


def test_a_non_letter_is_refused_with_the_normalisers_description() -> None:
    state = entered("ca\u00e9t", 1)
    assert state.entered == ("CAT",)
    assert state.notice == ""  # the next letter clears the notice
    state = entered("ca\u00e9", 1)
    assert state.current == "CA"
    assert state.notice == ('Not typed: "\u00e9" (e with acute) is not one of the letters A to Z')


def test_digits_in_a_word_are_refused_not_dropped() -> None:
    state = entered("c4", 1)
    assert state.current == "C"
    assert state.notice == 'Not typed: "4" is not one of the letters A to Z'


def test_look_alike_and_invisible_characters_are_named() -> None:
    assert "(Cyrillic small letter a)" in entered("c\u0430", 1).notice
    invisible = entered("c\u200b", 1).notice
    assert "an invisible character (U+200B ZERO WIDTH SPACE)" in invisible
    assert "combining" in entered("ca\u0301", 1).notice.lower()


def test_a_word_longer_than_the_pack_allows_is_refused() -> None:
    state = entered("abcdef", 1, max_length=5)
    assert state.current == "ABCDE"
    assert "at most 5 letters" in state.notice


def test_a_one_letter_word_cannot_be_finished() -> None:
    state = entered("a ", 2)
    assert state.words == ()
    assert state.current == "A"
    assert "at least 2 letters" in state.notice


def test_more_words_than_the_count_are_refused() -> None:
    state = entered("cat dog ", 2)
    state = run(state, Typed("x"))
    assert state.entered == ("CAT", "DOG")
    assert state.screen is Screen.CONFIRM
    assert "press TAB" in state.notice


def test_backspace_corrects_across_words() -> None:
    state = run(entered("cat d", 2), Backspace(), Backspace(), Backspace())
    assert state.words == ()
    assert state.current == "CA"
    assert state.screen is Screen.ENTRY


def test_escape_clears_then_returns_to_ready() -> None:
    state = run(entered("cat", 2), Escape())
    assert state.screen is Screen.ENTRY
    assert state.entered == ()
    assert run(state, Escape()).screen is Screen.READY


def test_tab_before_all_words_does_nothing_harmful() -> None:
    state = entered("cat", 2)
    step = transition(state, JudgePressed())
    assert step.effects == ()
    assert step.state.entered == ("CAT",)
    assert step.state.screen is Screen.ENTRY
    assert "Type all 2 words first (1 to go)" in step.state.notice


def test_tab_judges_then_the_verdict_shows_and_clears(small_lexicon: MarisaLexicon) -> None:
    step = transition(entered("cat qi", 2), JudgePressed())
    assert step.effects == (Effect.JUDGE_PLAY,)
    assert step.state.screen is Screen.JUDGING
    ruling = adjudicate(step.state.words, small_lexicon)
    verdict = run(step.state, Recorded(ruling))
    assert verdict.screen is Screen.VERDICT
    assert verdict.ruling == ruling
    # keys are ignored during the lockout, then any key clears
    assert run(verdict, Typed("x"), Escape()).screen is Screen.VERDICT
    assert run(verdict, LockoutEnded(), Typed("x")).screen is Screen.READY
    assert run(verdict, VerdictExpired()).screen is Screen.READY


def test_a_failed_record_shows_a_fault_not_a_verdict() -> None:
    judging = transition(entered("cat qi", 2), JudgePressed()).state
    fault = run(judging, RecordFailed())
    assert fault.screen is Screen.FAULT
    assert run(fault, Typed("3"), JudgePressed(), VerdictExpired()).screen is Screen.FAULT
    assert transition(fault, Escape()).effects == (Effect.JUDGE_REQUESTED,)
    assert run(fault, FaultCleared()).screen is Screen.READY


def test_escape_on_ready_requests_judge_mode() -> None:
    assert transition(start((15,)), Escape()).effects == (Effect.JUDGE_REQUESTED,)
    assert transition(start((15,)), JudgeRequested()).effects == (Effect.JUDGE_REQUESTED,)


def test_idle_entry_clears_to_ready_keeping_the_division() -> None:
    state = run(start((15, 15)), DivisionStepped(1), Typed("2"), Typed("cat"), IdleExpired())
    assert state.screen is Screen.READY
    assert state.division == 1


def test_divisions_change_only_on_the_ready_screen() -> None:
    state = run(start((15, 15, 15)), DivisionStepped(-1))
    assert state.division == 2
    state = run(state, DivisionSelected(1), Typed("1"), DivisionSelected(0), DivisionStepped(1))
    assert state.division == 1
    assert run(state, DivisionSelected(9)).division == 1


def test_max_length_follows_the_division() -> None:
    state = run(start((15, 4)), DivisionSelected(1), Typed("1"), Typed("abcde"))
    assert state.current == "ABCD"


KEYS = st.one_of(
    st.builds(Typed, st.text(max_size=4)),
    st.builds(Typed, st.sampled_from(["1", "2", "3", "8", " ", ",", "\r", "qi", "ab", "zz"])),
    st.just(Backspace()),
    st.just(Escape()),
    st.just(JudgePressed()),
    st.just(JudgeRequested()),
    st.builds(DivisionStepped, st.integers(-3, 3)),
    st.builds(DivisionSelected, st.integers(-1, 3)),
    st.just(LockoutEnded()),
    st.just(VerdictExpired()),
    st.just(IdleExpired()),
    st.just(RecordFailed()),
    st.just(FaultCleared()),
)


def check_consistent(state: SessionState) -> None:
    assert 0 <= state.division < len(state.max_lengths)
    for word in state.entered:
        assert word.isascii()
        assert word.isalpha()
        assert word.isupper()
        assert len(word) <= state.max_length
    for word in state.words:
        assert len(word) >= MIN_WORD_LETTERS
    if state.screen is Screen.READY:
        assert state == replace(start(state.max_lengths), division=state.division)
    else:
        assert 1 <= state.expected <= 8
        assert len(state.entered) <= state.expected
    if state.screen is Screen.ENTRY:
        complete = len(state.entered) == state.expected and all(len(w) >= 2 for w in state.entered)
        assert not complete
    if state.screen is Screen.CONFIRM:
        assert len(state.entered) == state.expected
    if state.screen in (Screen.JUDGING, Screen.VERDICT, Screen.FAULT):
        assert len(state.words) == state.expected
        assert state.current == ""
    assert (state.ruling is not None) == (state.screen is Screen.VERDICT)
    if state.ruling is not None:
        assert state.ruling.words == state.words
    if state.unlocked:
        assert state.screen is Screen.VERDICT


# The lexicon is only read, so sharing it between examples is safe.
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(keys=st.lists(KEYS, max_size=60), lengths=st.lists(st.integers(2, 15), min_size=1, max_size=3))
def test_random_key_sequences_never_reach_an_inconsistent_state(
    small_lexicon: MarisaLexicon, keys: list[Event], lengths: list[int]
) -> None:
    state = start(tuple(lengths))
    for event in keys:
        step = transition(state, event)
        state = step.state
        check_consistent(state)
        if Effect.JUDGE_PLAY in step.effects:
            assert state.screen is Screen.JUDGING
            state = transition(state, Recorded(adjudicate(state.words, small_lexicon))).state
            check_consistent(state)
