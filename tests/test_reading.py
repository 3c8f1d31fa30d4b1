"""One reading, one path (issue 24): whatever keys players press, in every alphabet, the words the
station's flow makes are ruled as ``kiosk check`` rules the same text, and the screen shows each
word as exactly the tiles it was judged as.

The station's side is the session's own transitions and the controller's own call
(``adjudicate(state.words, lexicon)``); ``kiosk check`` is run for real (``CliRunner``) with the
words the screen holds, joined as a player would type them on one line.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import event as tally
from hypothesis import strategies as st

from kiosk.cli import kiosk
from kiosk.core.packs.lexicon import MarisaLexicon, load_lexicon
from kiosk.core.play.adjudication import Ruling, adjudicate
from kiosk.core.play.notice import refusal_text
from kiosk.core.play.session import (
    Backspace,
    Effect,
    Escape,
    Event,
    JudgePressed,
    Recorded,
    Screen,
    SessionState,
    TileTyped,
    Typed,
    shown_tiles,
    start,
    transition,
)
from kiosk.core.words.alphabet import Alphabet, alphabets
from tests.conftest import PackFactory

# Our own words; where letters read two ways, the pack holds only the other one, so that a wrong
# reading gives a wrong verdict (Spanish CA·L·L·O but not CA·LL·O, CH·E but not C·H·E).
PACK_WORDS = {
    "english": ["CAT", "QI", "ZA"],
    "french": ["ETE", "COEUR", "CAFE"],
    "spanish": ["CALLE", "CA[L]LO", "CHE", "AÑO", "PERRO"],
    "catalan": ["CALL", "COL·LECCIO", "ANYS", "QUE", "FAÇANA"],
    "italian": ["PERCHE", "CASA"],
    "polish": ["ŻÓŁW", "KOT"],
    "german": ["STRASSE", "ÄRGER"],
}
# Words as players type them, right and wrong (readings the pack does not hold included).
TYPED_WORDS = {
    "english": ["cat", "qi", "za", "caT", "\u212ai"],  # a Kelvin sign for K: refused alike
    "french": ["été", "cœur", "cafe\u0301", "coeur"],
    "spanish": ["calle", "cal+le", "callo", "cal+lo", "che", "c+he", "an\u0303o", "año", "ano", "perro"],
    "catalan": [
        "call",
        "cal·l",
        "cal.l",
        "col·lecció",
        "col.leccio",
        "collecció",
        "anys",
        "que",
        "façana",
        "col\u0387lecció",  # a Greek layout's ano teleia: Unicode's own middle dot (NFC)
    ],
    "italian": ["perché", "perche\u0300", "casa"],
    "polish": ["żółw", "zo\u0301\u0142w", "kot"],
    "german": ["straße", "strasse", "ärger", "a\u0308rger"],
}
MARKS = ["+", ".", "\u00b7", "\u0140", "\u0303", "\u0301", "\u0300", "\u0308", "\u0307", "\u0328"]
OTHERS = ["k", "w", "q", "y", "0", "4", "\u0430", "\uff43", "\u00df", "-", "[", "\u200b"]
ENDS = [" ", ",", "\r", "\t"]


def keys(alphabet: Alphabet) -> st.SearchStrategy[Event]:
    """Any key a player might press at a station of this alphabet."""
    letters = sorted({c for tile in alphabet.tiles for c in tile if c.isalpha()})
    chars = sorted({*letters, *(c.lower() for c in letters), *alphabet.folds, *MARKS, *OTHERS})
    return st.one_of(
        st.builds(Typed, st.text(st.sampled_from(chars), min_size=1, max_size=4)),
        st.builds(Typed, st.sampled_from(TYPED_WORDS[alphabet.name])),
        st.builds(TileTyped, st.sampled_from(alphabet.tiles)),
        st.builds(Typed, st.text(max_size=3)),
        st.just(Backspace()),
    )


def plays(alphabet: Alphabet) -> st.SearchStrategy[list[Event]]:
    """A play's keys: the count, then for each word a word as players type it or any keys, and a
    space (now and then Tab or Esc instead), and Tab to judge; any key may be one a station
    refuses."""
    clean = st.builds(lambda text: [Typed(text)], st.sampled_from(TYPED_WORDS[alphabet.name]))
    word = st.tuples(
        st.one_of(clean, st.lists(keys(alphabet), min_size=1, max_size=6)),
        st.sampled_from([*map(Typed, ENDS), Typed(" "), Typed(" "), JudgePressed(), Escape()]),
    )
    return st.lists(word, min_size=1, max_size=4).map(
        lambda words: [
            Typed(str(len(words))),
            *(key for typed, end in words for key in (*typed, end)),
            JudgePressed(),
        ]
    )


_PACKS: dict[str, tuple[Path, MarisaLexicon]] = {}


def pack(make_pack: PackFactory, name: str) -> tuple[Path, MarisaLexicon]:
    """One small pack per alphabet, built once (packs are only read)."""
    if name not in _PACKS:
        path = make_pack(PACK_WORDS[name], alphabet=name)
        _PACKS[name] = (path, load_lexicon(path))
    return _PACKS[name]


def checked(path: Path, words: tuple[str, ...]) -> tuple[int, list[tuple[str, str]]]:
    """``kiosk check --judge`` on the words as one typed line: its exit code, and each word's line
    (the word judged, its status)."""
    result = CliRunner().invoke(kiosk, ["check", "--judge", "--pack", str(path), "--", " ".join(words)])
    per_word = []
    for line in result.output.splitlines()[1:-1]:  # the verdict, a line per word, the pack
        word, rest = line.split(maxsplit=1)
        per_word.append((word, rest.split("  (tiles:")[0].strip()))
    return result.exit_code, per_word


def assert_judged_as_shown(state: SessionState, ruling: Ruling, path: Path) -> None:
    alphabet = state.alphabet
    # the screen showed each word as the tiles it is judged as
    for typed, judged in zip(state.words, ruling.words, strict=True):
        assert shown_tiles(state, typed) == alphabet.stored_tiles(judged), (typed, judged)
    # and kiosk check, given the same text, rules the same words the same way
    code, per_word = checked(path, state.words)
    assert code == (0 if ruling.acceptable else 1)
    assert per_word == [(r.word, r.status.value) for r in ruling.results]


def test_every_alphabet_is_proved() -> None:
    """A new profile is not done until this file proves its reading too."""
    assert set(PACK_WORDS) == set(TYPED_WORDS) == set(alphabets())


@pytest.mark.parametrize("name", sorted(PACK_WORDS))
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_keys_in_any_alphabet_are_judged_as_kiosk_check_judges_the_words_shown(
    make_pack: PackFactory, name: str, data: st.DataObject
) -> None:
    alphabet = alphabets()[name]
    path, lexicon = pack(make_pack, name)
    state = start((15,), alphabets=(alphabet,))
    for event in data.draw(plays(alphabet), label="keys"):
        step = transition(state, event)
        state = step.state
        if Effect.JUDGE_PLAY in step.effects:
            ruling = adjudicate(state.words, lexicon)  # the controller's own call
            tally(f"judged {ruling.verdict.value}")
            assert_judged_as_shown(state, ruling, path)
            state = transition(state, Recorded(ruling)).state
            assert state.screen is Screen.VERDICT


@pytest.mark.parametrize(
    ("name", "keys_pressed", "tiles", "acceptable"),
    [
        # issue 24: CALL typed shows C A L L and is ruled as C A L L (it was C A L·L, ruled CAL·L)
        ("catalan", [Typed("call")], ("C", "A", "L", "L"), True),
        ("catalan", [Typed("cal.l")], ("C", "A", "L·L"), False),
        ("catalan", [TileTyped("L·L"), TileTyped("A")], ("L·L", "A"), False),
        ("catalan", [Typed("ca"), TileTyped("L"), TileTyped("L")], ("C", "A", "L", "L"), True),
        # Spanish: C and H tiles laid for CH are typed C+H, and ruled as laid
        ("spanish", [Typed("c+he")], ("C", "H", "E"), False),
        ("spanish", [TileTyped("C"), TileTyped("H"), TileTyped("E")], ("C", "H", "E"), False),
        ("spanish", [TileTyped("CH"), TileTyped("E")], ("CH", "E"), True),
        (
            "spanish",
            [Typed("ca"), TileTyped("L"), TileTyped("L"), Typed("o")],
            ("C", "A", "L", "L", "O"),
            True,
        ),
        ("spanish", [Typed("callo")], ("C", "A", "LL", "O"), False),
        # a combining tilde after n, as some keyboards send it, is Ñ at the station too
        ("spanish", [Typed("an"), Typed("\u0303"), Typed("o")], ("A", "Ñ", "O"), True),
        ("spanish", [Typed("an\u0303o")], ("A", "Ñ", "O"), True),
    ],
)
def test_the_issue_s_plays_are_ruled_as_the_board_holds_them(
    make_pack: PackFactory, name: str, keys_pressed: list[Event], tiles: tuple[str, ...], acceptable: bool
) -> None:
    alphabet = alphabets()[name]
    path, lexicon = pack(make_pack, name)
    state = transition(start((15,), alphabets=(alphabet,)), Typed("1")).state
    for event in keys_pressed:
        state = transition(state, event).state
    assert shown_tiles(state, state.current) == tiles
    step = transition(state, JudgePressed())
    assert step.effects == (Effect.JUDGE_PLAY,)
    ruling = adjudicate(step.state.words, lexicon)
    assert ruling.acceptable is acceptable
    assert_judged_as_shown(step.state, ruling, path)


def test_a_refused_letter_stays_said_until_the_play_is_judged_or_cleared(make_pack: PackFactory) -> None:
    """KIWI at a Spanish station: K and W are not FISE tiles. The screen shows I I and says
    both were refused, however many keys come after, until Tab judges or Esc clears."""
    spanish = alphabets()["spanish"]
    state = transition(start((15,), alphabets=(spanish,)), Typed("2")).state
    for char in "KIWI":
        state = transition(state, Typed(char)).state
    assert shown_tiles(state, state.current) == ("I", "I")
    assert refusal_text(state).startswith('Not typed: "K", "W" are not letters of this lexicon')
    for event in (Typed(" "), Typed("ca"), Backspace(), Typed("a")):
        state = transition(state, event).state
        assert '"K", "W"' in refusal_text(state)
    cleared = transition(state, Escape()).state
    assert (refusal_text(cleared), cleared.entered) == ("", ())
    judged = transition(transition(state, Typed("lle")).state, JudgePressed()).state
    assert judged.screen is Screen.JUDGING
    assert refusal_text(judged) == ""
    backspaced = state
    while backspaced.entered:
        backspaced = transition(backspaced, Backspace()).state
    assert refusal_text(backspaced) == ""  # nothing typed is left: nothing refused to speak of
