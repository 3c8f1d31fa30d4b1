"""The one normaliser against friendly and hostile input."""

from __future__ import annotations

import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.core.errors import InputError, InvalidCharacterError, WordCountError, WordLengthError
from kiosk.core.words.normalise import (
    BOARD_MAX_LETTERS,
    describe_character,
    normalise_play,
    normalise_word,
    normalise_words,
    split_words,
)


@pytest.mark.parametrize(
    ("raw", "expected"),
    [("cat", "CAT"), ("QI", "QI"), ("ZyZzYvA", "ZYZZYVA"), ("\uff31\uff49", "QI")],
)
def test_words_fold_to_upper_case_a_to_z(raw: str, expected: str) -> None:
    assert normalise_word(raw) == expected


@pytest.mark.parametrize(
    ("raw", "bad", "position"),
    [
        ("stra\u00dfe", "U+00DF", 5),  # sharp s upper-cases to SS
        ("\u017fit", "U+017F", 1),  # long s upper-cases to S
        ("\u0131t", "U+0131", 1),  # dotless i upper-cases to I
        ("caf\u00e9", "U+00E9", 4),  # precomposed accent
        ("cafe\u0301", "U+0301", 5),  # combining accent
        ("\u0441at", "U+0441", 1),  # Cyrillic es, looks like c
        ("\u03bfx", "U+03BF", 1),  # Greek omicron, looks like o
        ("ca\u200bt", "U+200B", 3),  # zero-width space
        ("ca\u00adt", "U+00AD", 3),  # soft hyphen
        ("cat\x00", "U+0000", 4),  # NUL
        ("c4t", "U+0034", 2),  # digit
        ("can't", "U+0027", 4),  # apostrophe
        ("co-op", "U+002D", 3),  # hyphen
        ("\ufeffcat", "U+FEFF", 1),  # byte-order mark
        ("\u2160\u2160", "U+2160", 1),  # Roman numeral one, a letter-like number
        ("\uff10\uff10", "U+FF10", 1),  # full-width digits are not folded
        ("ca\tt", "U+0009", 3),  # a separator inside one word
    ],
)
def test_non_letters_are_refused_by_name_and_position(raw: str, bad: str, position: int) -> None:
    with pytest.raises(InvalidCharacterError) as caught:
        normalise_word(raw)
    message = str(caught.value)
    assert bad in message
    assert f"position {position} " in message
    assert "not a letter A-Z" in message


def test_refusal_is_decided_before_case_is_changed() -> None:
    # Upper-casing first would turn these into valid-looking A-Z words.
    for raw in ("stra\u00dfe", "\u017fit", "\u0131t", "\ufb01sh"):  # the last is the fi ligature
        assert raw.upper().isascii()
        with pytest.raises(InvalidCharacterError):
            normalise_word(raw)


def test_invisible_characters_are_described_without_printing_them() -> None:
    assert describe_character("\u200b") == "(U+200B ZERO WIDTH SPACE)"
    assert describe_character("\x07") == "(U+0007)"
    assert describe_character("\u00e9") == "'\u00e9' (U+00E9 LATIN SMALL LETTER E WITH ACUTE)"


def test_length_limits_come_from_the_pack() -> None:
    assert normalise_word("a" * BOARD_MAX_LETTERS) == "A" * BOARD_MAX_LETTERS
    with pytest.raises(WordLengthError, match="16 letters; this lexicon holds words of at most 15"):
        normalise_word("a" * 16)
    assert normalise_word("a" * 21, max_length=21) == "A" * 21
    with pytest.raises(WordLengthError, match="at least 2"):
        normalise_word("a")
    with pytest.raises(WordLengthError, match="empty"):
        normalise_word("")


def test_separators_are_spaces_commas_tabs_and_newlines() -> None:
    assert split_words(" cat, dog\tqi\r\nza,,  ") == ["cat", "dog", "qi", "za"]
    assert split_words(" ,\n\t") == []


def test_a_play_is_checked_whole_before_any_lookup() -> None:
    assert normalise_play("cat dog", max_words=8) == ("CAT", "DOG")
    assert normalise_play(["cat", "dog"], max_words=8) == ("CAT", "DOG")
    with pytest.raises(WordCountError, match="no words"):
        normalise_play("  ", max_words=8)
    with pytest.raises(WordCountError, match="9 words were entered; one challenge holds at most 8"):
        normalise_play(["cat"] * 9, max_words=8)
    with pytest.raises(InvalidCharacterError, match="'d0g'"):
        normalise_play("cat d0g", max_words=8)


@given(st.text(alphabet=string.ascii_letters, min_size=2, max_size=15))
def test_every_ascii_word_normalises_to_its_upper_case(word: str) -> None:
    assert normalise_word(word) == word.upper()


@given(st.text(min_size=1, max_size=20))
def test_any_text_either_normalises_to_a_to_z_or_raises_an_input_error(raw: str) -> None:
    try:
        word = normalise_word(raw)
    except (InvalidCharacterError, WordLengthError):
        return
    assert word.isascii()
    assert word.isalpha()
    assert word.isupper()
    assert 2 <= len(word) <= BOARD_MAX_LETTERS


# --- normalise_words: the builder's bulk path must give exactly what normalise_word gives ---

# Characters that trip the one normaliser: look-alikes, letters that upper-case to others, spaces
# and line ends of every kind, and the full-width letters it folds.
TRICKY = "aZqQ\u00df\u017f\u0131\u00e9\uff31\uff49 \t\n\r\v\x1c\x1f\x85\u2028\u00a0\u200b#-1\x00"
# ... and, besides, any text at all: the bulk path must agree with the one normaliser everywhere.
tricky_words = (
    st.text(alphabet=TRICKY, max_size=8)
    | st.text(alphabet="abcXYZ", min_size=0, max_size=17)
    | st.text(max_size=20)
)


def one_by_one(words: list[str], max_length: int) -> list[str] | None:
    try:
        return [normalise_word(word, max_length=max_length) for word in words]
    except InputError:
        return None


@settings(max_examples=1000)
@given(words=st.lists(tricky_words, max_size=12), max_length=st.integers(2, 16))
def test_normalise_words_gives_what_normalise_word_gives_or_leaves_the_words_to_it(
    words: list[str], max_length: int
) -> None:
    expected = one_by_one(words, max_length)
    got = normalise_words(words, max_length=max_length)
    if got is not None:
        assert got == expected
    elif expected is not None:
        # left to normalise_word one at a time: only a word it must fold (a full-width letter)
        assert any(not word.isascii() for word in words)


@settings(max_examples=1000)
@given(
    text=st.text(alphabet=TRICKY + "bcdefghijklmnop", max_size=60) | st.text(),
    max_length=st.integers(2, 16),
)
def test_normalise_words_of_a_text_gives_what_normalise_word_gives_for_each_of_its_words(
    text: str, max_length: int
) -> None:
    expected = one_by_one(text.split(), max_length)
    got = normalise_words(text, max_length=max_length)
    if got is not None:
        assert got == expected
    elif expected is not None:
        assert not text.isascii()


@given(words=st.lists(st.text(alphabet=string.ascii_letters, min_size=2, max_size=15), max_size=30))
def test_plain_ascii_words_are_normalised_at_once(words: list[str]) -> None:
    assert normalise_words(words) == [word.upper() for word in words]
    assert normalise_words(" \n".join(words)) == [word.upper() for word in words]
