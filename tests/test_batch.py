"""``kiosk check --batch``'s fast path rules exactly as ``adjudicate`` does, line for line."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.core.errors import InputError
from kiosk.core.packs.lexicon import MarisaLexicon, load_lexicon
from kiosk.core.play.adjudication import MAX_WORDS_PER_CHALLENGE, adjudicate
from kiosk.core.play.batch import BatchReader, batch_rulings
from lexicon_build.builder import build_pack
from lexicon_build.recipe import Recipe, SourceSpec
from tests.conftest import write_list

WORDS = ["CAT", "CATS", "DOG", "DOGS", "QI", "ZA", "OXYPHENBUTAZONE"]


@pytest.fixture(scope="module")
def lexicon(tmp_path_factory: pytest.TempPathFactory) -> MarisaLexicon:
    folder = tmp_path_factory.mktemp("batch")
    recipe = Recipe(
        name="Batch",
        sources=(SourceSpec(path=write_list(folder / "w.txt", WORDS)),),
        youth_exclusions=SourceSpec(path=write_list(folder / "y.txt", ["DOGS"])),
    )
    return load_lexicon(build_pack(recipe).data)


def expected(line: str, lexicon: MarisaLexicon, youth: bool, max_words: int = MAX_WORDS_PER_CHALLENGE) -> str:
    try:
        return adjudicate(line, lexicon, youth=youth, max_words=max_words).verdict.value
    except InputError as exc:
        return f"INVALID: {exc}"


UPPER_TRAPS = ["stra\u00dfe", "\u017fa", "q\u0131", "\u200bqi", "DOGS\x00"]  # upper() makes A-Z of them
pieces = st.sampled_from(
    [
        *WORDS,
        "cat",
        "Dogs",
        "qI",
        "ZZ",
        "X",
        "",
        "OXYPHENBUTAZONES",
        "caf\u00e9",
        "c4t",
        "\uff31\uff29",
        *UPPER_TRAPS,
    ]
)
separators = st.sampled_from(
    [" ", ",", ", ", "\t", "  ", ",,", " \t,", "\r", "\n", "\r\n", "\xa0", "\u3000", "\x0b", ";"]
)


@settings(max_examples=500, deadline=None)
@given(
    lines=st.lists(
        st.tuples(st.lists(pieces, min_size=0, max_size=10), separators, separators).map(
            lambda t: t[1] + t[2].join(t[0]) + t[1]
        ),
        min_size=1,
        max_size=20,
    ),
    youth=st.booleans(),
    max_words=st.integers(1, 10),
)
def test_every_line_gets_what_adjudicate_gives(
    lines: list[str], youth: bool, max_words: int, lexicon: MarisaLexicon
) -> None:
    assert list(batch_rulings(lines, lexicon, youth=youth, max_words=max_words)) == [
        expected(line, lexicon, youth, max_words) for line in lines
    ]


@settings(max_examples=300, deadline=None)
@given(
    lines=st.lists(st.sampled_from([*WORDS, "cat", "Dogs", "qI", "ZZ", "X", "", "OXYPHENBUTAZONES", "c4t"])),
    youth=st.booleans(),
    max_words=st.integers(1, 3),
)
def test_word_lists_one_word_a_line_get_what_adjudicate_gives(
    lines: list[str], youth: bool, max_words: int, lexicon: MarisaLexicon
) -> None:
    """The road for a run of one-word lines (a director checking a list against its pack)."""
    expected_lines = [expected(line, lexicon, youth, max_words) for line in lines]
    assert list(batch_rulings(lines, lexicon, youth=youth, max_words=max_words)) == expected_lines


@pytest.mark.parametrize("bad", ["x", "", "caf\u00e9", "cat dog", "cat\ndog", "dogs\r", "OXYPHENBUTAZONES"])
def test_odd_lines_anywhere_in_a_long_word_list_are_ruled_like_the_others(
    lexicon: MarisaLexicon, bad: str
) -> None:
    """One regex runs over the plain lines between odd ones: an odd line first, last, alone or
    beside another gets adjudicate's answer, and so does every plain line around it."""
    lines = [WORDS[i % len(WORDS)].lower() if i % 3 else "ZAX" for i in range(3000)]
    for where in (0, 1, 1500, 1501, 1502, 2998, 2999):
        lines[where] = bad
    assert list(batch_rulings(lines, lexicon, youth=True)) == [
        expected(line, lexicon, True) for line in lines
    ]


def test_lines_are_read_from_the_manifest_alone_and_ruled_once_the_lexicon_is_there(
    lexicon: MarisaLexicon,
) -> None:
    """What kiosk check --batch reads while a pack's walk runs needs no lookup: the reader is given
    the manifest only, and the same lines give the same answers as batch_rulings."""
    lines = ["cat", "dogs", "x", "qi za", "caf\u00e9", "ZAX", "cats,dogs,qi"]
    read = BatchReader(lexicon.info, max_words=3).read(lines)
    assert read.rulings(lexicon, youth=True) == list(batch_rulings(lines, lexicon, youth=True, max_words=3))
    assert read.rulings(lexicon) == [expected(line, lexicon, False, 3) for line in lines]


def test_one_output_line_per_input_line_and_a_bad_line_never_stops_the_run(lexicon: MarisaLexicon) -> None:
    lines = ["cat dog\n", "\n", "caf\u00e9\n", "dogs\n", "x\n", "qi za\n"]
    assert list(batch_rulings(lines, lexicon, youth=True)) == [
        "ACCEPTABLE",
        "INVALID: no words were entered; type the challenged words",
        "INVALID: '\u00e9' (U+00E9 LATIN SMALL LETTER E WITH ACUTE) at position 4 of 'caf\u00e9' "
        "is not a letter A-Z",
        "UNACCEPTABLE",
        "INVALID: 'X' has 1 letter; a word has at least 2 letters",
        "ACCEPTABLE",
    ]
