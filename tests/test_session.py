import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from kiosk.core.packs.lexicon import MarisaLexicon, load_lexicon
from kiosk.core.play.adjudication import adjudicate
from kiosk.core.play.notice import notice_text, refusal_text
from kiosk.core.play.session import (
    MAX_TABLE_DIGITS,
    Backspace,
    DivisionSelected,
    Effect,
    Escape,
    Event,
    FaultCleared,
    IdleExpired,
    IdleWarned,
    JudgePressed,
    JudgeRequested,
    LockoutEnded,
    Nudged,
    Recorded,
    RecordFailed,
    Repeated,
    Screen,
    SessionState,
    TileTyped,
    Typed,
    VerdictExpired,
    idle_timing,
    judged_words,
    shown_tiles,
    start,
    tiles,
    transition,
)
from kiosk.core.words.alphabet import alphabets
from kiosk.core.words.normalise import MIN_WORD_LETTERS
from tests.conftest import PackFactory


def shown(state: SessionState) -> tuple[str, ...]:
    """The words on screen, as the entry shows them (each word's tiles)."""
    return tuple(state.alphabet.shown(shown_tiles(state, word)) for word in state.entered)


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
    assert state.entered == ("cat", "dog", "qi")  # as typed
    assert shown(state) == ("CAT", "DOG", "QI")
    assert state.screen is Screen.CONFIRM


def test_full_width_letters_are_folded_by_the_normaliser() -> None:
    assert shown(entered("\uff21\uff22", 1)) == ("AB",)


def test_a_non_letter_is_refused_with_the_normalisers_description() -> None:
    state = entered("ca\u00e9t", 1)
    assert shown(state) == ("CAT",)
    # the refusal stays until the play is judged or cleared: CAT on screen, é said refused
    assert refusal_text(state) == 'Not typed: "\u00e9" (e with acute) is not one of the letters A to Z'
    state = entered("ca\u00e9", 1)
    assert state.current == "ca"
    assert refusal_text(state) == ('Not typed: "\u00e9" (e with acute) is not one of the letters A to Z')


def test_digits_in_a_word_are_refused_not_dropped() -> None:
    state = entered("c4", 1)
    assert state.current == "c"
    assert refusal_text(state) == 'Not typed: "4" is not one of the letters A to Z'


def test_look_alike_and_invisible_characters_are_named() -> None:
    assert "(Cyrillic small letter a)" in refusal_text(entered("c\u0430", 1))
    invisible = refusal_text(entered("c\u200b", 1))
    assert "an invisible character (U+200B ZERO WIDTH SPACE)" in invisible
    assert "combining" in refusal_text(entered("ca\u0301", 1)).lower()


def test_a_word_longer_than_the_pack_allows_stays_as_typed_and_is_never_judged() -> None:
    """The station never judges a word other than the one typed (it used to cut it to fit)."""
    state = entered("abcdef", 1, max_length=5)
    assert shown(state) == ("ABCDEF",)
    assert notice_text(state) == (
        "Too long: 'ABCDEF' has 6 letters; this lexicon holds words of at most 5 letters. "
        "Backspace corrects it"
    )
    assert state.screen is Screen.ENTRY
    for key in (JudgePressed(), Typed(" "), Typed("\r")):
        step = transition(state, key)
        assert step.effects == ()
        assert step.state.current == "abcdef"
        assert "'ABCDEF' has 6 letters" in notice_text(step.state)
    corrected = run(state, Backspace())
    assert corrected.current == "abcde"
    assert corrected.screen is Screen.CONFIRM
    assert transition(corrected, JudgePressed()).effects == (Effect.JUDGE_PLAY,)


def test_a_key_held_down_stops_at_twice_the_longest_word() -> None:
    state = entered("a" * 40, 1, max_length=15)
    assert state.current == "a" * 30
    assert notice_text(state).startswith("Not typed: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' has 30 letters")


def test_a_one_letter_word_cannot_be_finished() -> None:
    state = entered("a ", 2)
    assert state.words == ()
    assert state.current == "a"
    assert "at least 2 letters" in notice_text(state)


def test_more_words_than_the_count_are_refused() -> None:
    state = entered("cat dog ", 2)
    state = run(state, Typed("x"))
    assert state.entered == ("cat", "dog")
    assert state.screen is Screen.CONFIRM
    assert notice_text(state) == "All 2 words are typed: press TAB to judge, or Esc to start again"
    one = run(entered("cat ", 1), Typed("x"))
    assert notice_text(one) == "The word is typed: press TAB to judge, or Esc to start again"


def test_backspace_corrects_across_words() -> None:
    state = run(entered("cat d", 2), Backspace(), Backspace(), Backspace())
    assert state.words == ()
    assert state.current == "ca"
    assert state.screen is Screen.ENTRY


def test_escape_clears_then_returns_to_ready() -> None:
    state = run(entered("cat", 2), Escape())
    assert state.screen is Screen.ENTRY
    assert state.entered == ()
    assert run(state, Escape()).screen is Screen.READY


def test_tab_before_the_last_word_ends_the_word_being_typed() -> None:
    """Zyzzyva players press Tab between words: ZA, Tab, CAF is ZA and CAF, never ZACAF."""
    state = run(entered("za", 3), JudgePressed(), Typed("caf"))
    assert state.words == ("za",)
    assert state.current == "caf"
    step = transition(state, JudgePressed())
    assert step.effects == ()
    assert step.state.words == ("za", "caf")
    step = transition(run(step.state, Typed("qi")), JudgePressed())  # the last word: Tab judges
    assert step.effects == (Effect.JUDGE_PLAY,)
    assert judged_words(step.state) == ("ZA", "CAF", "QI")


def test_tab_with_nothing_being_typed_says_what_is_missing() -> None:
    state = run(entered("cat ", 2), JudgePressed())
    assert state.entered == ("cat",)
    assert notice_text(state) == "Type all 2 words first (1 to go)"
    assert notice_text(run(start((15,)), Typed("1"), JudgePressed())) == "Type the word first"
    state = run(entered("cat a", 2), JudgePressed())  # a one-letter last word is not judged
    assert state.current == "a"
    assert "at least 2 letters" in notice_text(state)


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


def test_a_held_tab_never_clears_the_verdict_only_a_fresh_press_after_the_lockout(
    small_lexicon: MarisaLexicon,
) -> None:
    judging = transition(entered("cat qi", 2), JudgePressed()).state
    verdict = run(judging, Recorded(adjudicate(judging.words, small_lexicon)), LockoutEnded())
    held = Repeated(JudgePressed(), pressed_on=Screen.CONFIRM)
    for event in (held, held, Repeated(Typed("x"), Screen.VERDICT), Repeated(Nudged(), Screen.VERDICT)):
        step = transition(verdict, event)
        assert (step.state, step.effects) == (verdict, ())
    assert run(verdict, held, held, JudgePressed()).screen is Screen.READY  # let go, pressed again


def test_a_held_count_key_neither_chooses_the_division_nor_types_in_the_entry() -> None:
    division = run(start((15, 15)), Typed("2"))
    assert division.screen is Screen.DIVISION
    assert run(division, Repeated(Typed("2"), Screen.READY)) == division
    entry = run(start((15,)), Typed("2"))
    assert run(entry, Repeated(Typed("2"), Screen.READY)) == entry  # no "2 is not a letter"
    table = run(start((15,), ask_table=True), Typed("2"))
    assert run(table, *[Repeated(Typed("2"), Screen.READY)] * 3).table_digits == ""


def test_a_held_esc_clears_the_entry_once_and_never_opens_the_judges_door() -> None:
    state = entered("cat do", 2)
    state = run(state, Escape())
    assert (state.screen, state.entered) == (Screen.ENTRY, ())
    for _ in range(3):
        step = transition(state, Repeated(Escape(), Screen.ENTRY))
        assert (step.state.screen, step.effects) == (Screen.ENTRY, ())
    assert transition(start((15,)), Repeated(Escape(), Screen.ENTRY)).effects == ()


def test_a_held_letter_types_once_and_keeps_the_entry() -> None:
    state = run(entered("ca", 1), Typed("t"), *[Repeated(Typed("t"), Screen.ENTRY)] * 30)
    assert state.current == "cat"  # three seconds of auto-repeat: one T
    warned = run(state, IdleWarned(3))
    assert run(warned, Repeated(Typed("t"), Screen.ENTRY)).clearing_in_s == 0  # still there
    assert run(warned, Repeated(JudgePressed(), Screen.ENTRY)).clearing_in_s == 0
    assert run(entered("cat do", 2), Repeated(Typed(" "), Screen.ENTRY)).entered == ("cat", "do")


def test_a_held_backspace_erases_the_word_being_typed_and_stops_at_its_start() -> None:
    state = run(entered("cat dog", 2), Backspace(), *[Repeated(Backspace(), Screen.ENTRY)] * 30)
    assert (state.words, state.current) == (("cat",), "")  # DOG erased, CAT kept
    state = run(state, Backspace())  # a fresh press goes back into the word before
    assert (state.words, state.current) == ((), "cat")
    state = run(state, Repeated(Backspace(), Screen.CONFIRM))
    assert state.current == "ca"


def test_escape_on_ready_requests_judge_mode() -> None:
    assert transition(start((15,)), Escape()).effects == (Effect.JUDGE_REQUESTED,)
    assert transition(start((15,)), JudgeRequested()).effects == (Effect.JUDGE_REQUESTED,)


def test_idle_entry_clears_to_ready() -> None:
    state = run(start((15,)), Typed("2"), Typed("cat"), IdleExpired())
    assert state == start((15,))


def test_idle_clearing_is_announced_and_any_key_keeps_the_entry() -> None:
    state = run(start((15,)), Typed("2"), Typed("cat"), IdleWarned(5))
    assert state.clearing_in_s == 5
    assert state.current == "cat"
    assert run(state, IdleWarned(4)).clearing_in_s == 4
    for key in (Nudged(), Typed("s"), Backspace(), JudgePressed()):
        kept = run(state, key)
        assert kept.clearing_in_s == 0
        assert kept.screen in (Screen.ENTRY, Screen.CONFIRM)


def test_the_confirm_step_is_not_hurried() -> None:
    quiet_ms, warning_s = idle_timing(Screen.ENTRY, 15_000)
    assert (quiet_ms, warning_s) == (15_000, 20)
    quiet_ms, warning_s = idle_timing(Screen.CONFIRM, 15_000)
    assert quiet_ms + warning_s * 1000 >= 120_000


@pytest.mark.parametrize("idle_entry_ms", [1000, 15_000, 600_000])
@pytest.mark.parametrize("screen", [Screen.TABLE, Screen.DIVISION, Screen.ENTRY, Screen.CONFIRM])
def test_every_entry_screen_warns_at_least_20_seconds_before_it_clears(
    screen: Screen, idle_entry_ms: int
) -> None:
    """WCAG 2.2.1: a time limit a player can extend with one action, warned 20 s or more ahead."""
    quiet_ms, warning_s = idle_timing(screen, idle_entry_ms)
    assert warning_s >= 20
    assert quiet_ms >= idle_entry_ms


def test_with_several_divisions_each_challenge_chooses_its_own() -> None:
    state = run(start((15, 15)), Typed("2"))
    assert state.screen is Screen.DIVISION
    assert state.division is None
    state = run(state, Typed("2"))
    assert (state.screen, state.division) == (Screen.ENTRY, 1)
    state = run(state, Typed("cat qi"), JudgePressed())
    assert state.screen is Screen.JUDGING
    assert state.division == 1
    again = run(state, RecordFailed(), FaultCleared(), Typed("1"))
    assert again.screen is Screen.DIVISION  # nothing carries over to the next players
    assert again.division is None


def test_the_division_screen_takes_only_a_division_and_esc_goes_back() -> None:
    state = run(start((15, 15, 15)), Typed("3"))
    for key in (Typed("4"), Typed("a"), JudgePressed()):
        refused = run(state, key)
        assert refused.screen is Screen.DIVISION
        assert notice_text(refused) == "First the division of your game: press its number, 1 to 3"
    assert run(state, DivisionSelected(2)).division == 2
    assert run(state, DivisionSelected(7)).screen is Screen.DIVISION
    assert run(state, Escape()).screen is Screen.READY
    assert run(state, Backspace()).screen is Screen.READY
    assert run(state, IdleExpired()) == start((15, 15, 15))


def test_one_division_asks_nothing() -> None:
    state = run(start((15,)), Typed("1"))
    assert (state.screen, state.division) == (Screen.ENTRY, 0)
    only_schools = run(start((15, 15), served=(1,)), Typed("1"))
    assert (only_schools.screen, only_schools.division) == (Screen.ENTRY, 1)
    assert run(start((15, 15, 15), served=(2, 0)), Typed("1"), Typed("1")).division == 2


def test_max_length_follows_the_chosen_division() -> None:
    state = run(start((15, 4)), Typed("1"), Typed("2"), Typed("abcde"))
    assert state.current == "abcde"
    assert "at most 4 letters" in notice_text(state)
    assert state.screen is Screen.ENTRY


def test_ask_table_asks_for_the_table_after_the_count_and_before_the_division() -> None:
    state = run(start((15, 15), ask_table=True), Typed("2"))
    assert state.screen is Screen.TABLE
    state = run(state, Typed("1"), Typed("2"))
    assert (state.table_digits, state.table) == ("12", None)
    state = run(state, Typed("\r"))
    assert state.screen is Screen.DIVISION
    assert state.table == 12
    state = run(state, Typed("2"), Typed("cat dog"))
    assert state.screen is Screen.CONFIRM
    assert (state.division, state.table) == (1, 12)


def test_the_table_takes_digits_only_and_says_why_not() -> None:
    state = run(start((15,), ask_table=True), Typed("1"))
    assert notice_text(run(state, Typed("a"))) == "The table number is digits only: 0 to 9"
    assert notice_text(run(state, Typed("0"))) == "Table numbers start at 1"
    assert notice_text(run(state, Typed("\r"))) == "First type your table number"
    assert notice_text(run(state, JudgePressed())) == "First type your table number"
    full = run(state, Typed("999"), Typed("1"))
    assert full.table_digits == "999"
    assert notice_text(full) == "A table number has at most 3 digits"
    assert run(state, Typed("7"), Backspace(), Typed("8"), JudgePressed()).table == 8  # Tab confirms too
    assert run(state, Typed("40 ")).table == 40
    assert run(state, Typed("40 ")).screen is Screen.ENTRY  # one division: straight to the words


def test_the_table_screen_goes_back_with_esc_backspace_or_idle_and_nothing_carries_over() -> None:
    state = run(start((15,), ask_table=True), Typed("1"), Typed("5"))
    assert run(state, Escape()).screen is Screen.READY
    assert run(state, Backspace(), Backspace()).screen is Screen.READY
    assert run(state, IdleExpired()).screen is Screen.READY
    again = run(state, Typed("\r"), Escape(), Typed("2"))
    assert again.screen is Screen.TABLE
    assert (again.table, again.table_digits) == (None, "")
    assert run(start((15,)), Typed("1")).screen is Screen.ENTRY  # off by default


KEYS = st.one_of(
    st.builds(Typed, st.text(max_size=4)),
    st.builds(
        Typed, st.sampled_from(["1", "2", "3", "8", " ", ",", "\r", "qi", "ab", "zz", "0", "12", "9\r"])
    ),
    st.just(Backspace()),
    st.just(Escape()),
    st.just(JudgePressed()),
    st.just(JudgeRequested()),
    st.builds(DivisionSelected, st.integers(-1, 3)),
    st.just(Nudged()),
    st.builds(IdleWarned, st.integers(0, 5)),
    st.just(LockoutEnded()),
    st.just(VerdictExpired()),
    st.just(IdleExpired()),
    st.just(RecordFailed()),
    st.just(FaultCleared()),
)
HELD = st.builds(
    Repeated,
    st.one_of(
        st.builds(Typed, st.sampled_from(["1", "2", "a", "q", " ", "\r", "0"])),
        st.sampled_from([Backspace(), Escape(), JudgePressed(), JudgeRequested(), Nudged()]),
    ),
    st.sampled_from(list(Screen)),
)


def check_consistent(state: SessionState) -> None:
    if state.division is None:
        assert state.choosing
        assert state.screen in (Screen.READY, Screen.TABLE, Screen.DIVISION)
    else:
        assert state.division in state.served

    # lengths in tiles (letters in English): the one reading of the word must fit the pack
    def fits(word: str) -> bool:
        counted = tiles(state, word)
        return counted is not None and MIN_WORD_LETTERS <= counted <= state.max_length

    for word in state.entered:
        for tile in shown_tiles(state, word):  # every character taken reads (never raises)
            assert tile in state.alphabet.tiles or not tile.isalpha()
        if not state.alphabets:
            assert all(tile in "ABCDEFGHIJKLMNOPQRSTUVWXYZ" for tile in shown_tiles(state, word))
    if refusal_text(state):
        assert state.screen in (Screen.ENTRY, Screen.CONFIRM)
        assert state.refused
    for word in state.words:  # a word too long stays the one being typed, never a finished word
        assert fits(word), word
    assert len(state.current) <= 2 * state.max_length
    if state.screen is Screen.READY:
        assert state == start(
            state.max_lengths, state.served, ask_table=state.ask_table, alphabets=state.alphabets
        )
    else:
        assert 1 <= state.expected <= 8
        assert len(state.entered) <= state.expected
    if state.screen is Screen.ENTRY:
        # a word longer than the pack allows holds the challenge back on this screen, as typed
        complete = len(state.entered) == state.expected and all(map(fits, state.entered))
        assert not complete
    if state.screen is Screen.CONFIRM:
        assert len(state.entered) == state.expected
    if state.screen in (Screen.JUDGING, Screen.VERDICT, Screen.FAULT):
        assert len(state.words) == state.expected
        assert len(judged_words(state)) == state.expected  # every word can be judged as shown
        assert state.current == ""
        assert state.division is not None
    if state.clearing_in_s:
        assert state.screen in (Screen.TABLE, Screen.DIVISION, Screen.ENTRY, Screen.CONFIRM)
    # A table is asked for exactly where the station asks for one, and fixed before the words.
    assert len(state.table_digits) <= MAX_TABLE_DIGITS
    assert state.table_digits == "" or state.table_digits[0] != "0"
    if not state.ask_table:
        assert state.table is None
        assert state.screen is not Screen.TABLE
    elif state.screen in (Screen.READY, Screen.TABLE):
        assert state.table is None
    else:
        assert state.table is not None
        assert 1 <= state.table <= 999
        assert str(state.table) == state.table_digits
    assert (state.ruling is not None) == (state.screen is Screen.VERDICT)
    if state.ruling is not None:
        assert state.ruling.words == judged_words(state)
    if state.unlocked:
        assert state.screen is Screen.VERDICT


# The lexicon is only read, so sharing it between examples is safe.
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    keys=st.lists(st.one_of(KEYS, HELD), max_size=60),
    lengths=st.lists(st.integers(2, 15), min_size=1, max_size=3),
    served=st.lists(st.integers(0, 2), min_size=1, max_size=3, unique=True),
    ask_table=st.booleans(),
)
@example(keys=[Typed("1"), Typed("A"), Typed("AA")], lengths=[2], served=[0], ask_table=False)  # too long
def test_random_key_sequences_never_reach_an_inconsistent_state(
    small_lexicon: MarisaLexicon, keys: list[Event], lengths: list[int], served: list[int], ask_table: bool
) -> None:
    state = start(tuple(lengths), tuple(i for i in served if i < len(lengths)) or (0,), ask_table=ask_table)
    for event in keys:
        step = transition(state, event)
        if isinstance(event, Repeated):  # a key held down moves no screen: it types, at most
            typing = (Screen.ENTRY, Screen.CONFIRM)
            assert step.effects == ()
            assert step.state.screen is state.screen or {step.state.screen, state.screen} <= set(typing)
        state = step.state
        check_consistent(state)
        if Effect.JUDGE_PLAY in step.effects:
            assert state.screen is Screen.JUDGING
            state = transition(state, Recorded(adjudicate(state.words, small_lexicon))).state
            check_consistent(state)


# Our own words in three alphabets with multi-letter tiles or letters beyond A-Z.
TILE_WORDS = {
    "spanish": ["CHALLA", "CALLE", "PERRO", "NIÑO"],
    "catalan": ["COL·LECCIO", "ANYS", "QUE"],
    "polish": ["ŻÓŁW", "KOT"],
}
TILE_KEYS = st.one_of(
    KEYS,
    st.builds(
        Typed,
        st.sampled_from(
            ["ch", "ll", "rr", "ñ", "n\u0303", "+", "l·l", "l.l", "ny", "qu", "ż", "ó", "k", "w", "ß"]
        ),
    ),
    st.builds(TileTyped, st.sampled_from(["CH", "C", "H", "L", "LL", "L·L", "NY", "QU", "Ż", "A"])),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    keys=st.lists(TILE_KEYS, max_size=60),
    names=st.lists(st.sampled_from(sorted(TILE_WORDS)), min_size=1, max_size=3),
    lengths=st.lists(st.integers(2, 15), min_size=3, max_size=3),
    ask_table=st.booleans(),
)
@example(  # a Spanish play of tiles, judged: CH·A·LL·A
    keys=[Typed("1"), Typed("challa"), JudgePressed()], names=["spanish"], lengths=[4, 4, 4], ask_table=False
)
@example(  # a key of another alphabet's keyboard on a Spanish station: refused, never an error
    keys=[Typed("1"), TileTyped("L·L")], names=["spanish"], lengths=[2, 2, 2], ask_table=False
)
def test_random_keys_on_packs_in_other_alphabets_never_reach_an_inconsistent_state(
    make_pack: PackFactory, keys: list[Event], names: list[str], lengths: list[int], ask_table: bool
) -> None:
    """The players' flow with tiles (Spanish CH, Catalan L·L, Polish Ż): every sequence keeps the
    state consistent and every play it sends is judged by its division's pack without an error."""
    packs = {name: _tile_pack(make_pack, name) for name in set(names)}
    maxima = tuple(lengths[: len(names)])
    state = start(maxima, ask_table=ask_table, alphabets=tuple(alphabets()[name] for name in names))
    for event in keys:
        step = transition(state, event)
        state = step.state
        check_consistent(state)
        if Effect.JUDGE_PLAY in step.effects:
            assert state.division is not None
            ruling = adjudicate(state.words, packs[names[state.division]])
            state = transition(state, Recorded(ruling)).state
            check_consistent(state)


_TILE_PACKS: dict[str, MarisaLexicon] = {}


def _tile_pack(make_pack: PackFactory, name: str) -> MarisaLexicon:
    """One small pack per alphabet, built once: packs are only read."""
    if name not in _TILE_PACKS:
        _TILE_PACKS[name] = load_lexicon(make_pack(TILE_WORDS[name], alphabet=name))
    return _TILE_PACKS[name]
