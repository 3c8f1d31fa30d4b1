"""The one normaliser: what counts as a word, for the pack builder and the station alike.

marisa lookups are exact, so two normalisers would disagree silently; the builder and the station
import these functions and every pack records ``NORMALISER_VERSION``.

What is a letter is decided *before* case is changed: ``'\u00df'.upper()`` is ``'SS'`` (sharp s),
``'\u017f'.upper()`` is ``'S'`` (long s) and ``'\u0131'.upper()`` is ``'I'`` (dotless i), so
upper-casing first would let those through. A word is
made only of the 26 letters A-Z in either case; every other character (accented and look-alike
letters, digits, punctuation, zero-width and control characters) is refused by name. Full-width
Latin letters (U+FF21-U+FF3A, U+FF41-U+FF5A, typed by East Asian input methods) are folded to A-Z:
they are the same letters in a wider glyph and cannot be mistaken for anything else.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence

from kiosk.core.errors import InvalidCharacterError, WordCountError, WordLengthError

__all__ = [
    "BOARD_MAX_LETTERS",
    "MIN_WORD_LETTERS",
    "NORMALISER_VERSION",
    "SEPARATORS",
    "describe_character",
    "normalise_play",
    "normalise_word",
    "normalise_words",
    "split_words",
]

NORMALISER_VERSION = 1
MIN_WORD_LETTERS = 2
BOARD_MAX_LETTERS = 15
SEPARATORS = " ,\t\r\n"

_FULLWIDTH_FOLD = {
    **{code: code - 0xFF21 + ord("A") for code in range(0xFF21, 0xFF3B)},
    **{code: code - 0xFF41 + ord("A") for code in range(0xFF41, 0xFF5B)},
}
_ASCII_WORD = re.compile(r"[A-Za-z]+")
_SEPARATOR_RUN = re.compile(r"[ ,\t\r\n]+")
_ASCII_LETTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")


def describe_character(char: str) -> str:
    """Name a character so that an invisible or look-alike one can be told apart on screen."""
    name = unicodedata.name(char, "")
    code = f"U+{ord(char):04X}"
    shown = char if char.isprintable() and not char.isspace() else ""
    label = f"{code} {name}" if name else code
    return f"'{shown}' ({label})" if shown else f"({label})"


def _is_foldable(char: str) -> bool:
    return char in _ASCII_LETTERS or ord(char) in _FULLWIDTH_FOLD


def normalise_word(raw: str, *, max_length: int = BOARD_MAX_LETTERS) -> str:
    """Return ``raw`` as upper-case A-Z, or raise an InputError that names the problem.

    ``max_length`` comes from the pack (15, the board, unless the organiser chose otherwise).
    """
    if _ASCII_WORD.fullmatch(raw) is None:
        for position, char in enumerate(raw, start=1):
            if not _is_foldable(char):
                raise InvalidCharacterError(
                    f"{describe_character(char)} at position {position} of {raw!r} is not a letter A-Z"
                )
        if not raw:
            raise WordLengthError("an empty word cannot be judged")
        raw = raw.translate(_FULLWIDTH_FOLD)
    word = raw.upper()
    if len(word) < MIN_WORD_LETTERS:
        raise WordLengthError(
            f"{word!r} has {len(word)} letter; a word has at least {MIN_WORD_LETTERS} letters"
        )
    if len(word) > max_length:
        raise WordLengthError(
            f"{word!r} has {len(word)} letters; this lexicon holds words of at most {max_length} letters"
        )
    return word


def normalise_words(raw: str | Sequence[str], *, max_length: int = BOARD_MAX_LETTERS) -> list[str] | None:
    """``normalise_word`` of many words at once, or None if any of them needs it one at a time.

    ``raw`` is the words, or a text of words separated by white space. For whole word lists (the
    builder reads ~280,000 words): when every word is made only of the ASCII letters A-Z in either
    case and its length is allowed, which is what nearly every line of a real list is,
    ``normalise_word`` would return each one upper-cased, and that is done here in a few passes
    over the whole list instead of a call per word. Anything else (a full-width letter to fold, a
    character or a length it refuses) gives None: the caller then normalises word by word, so that
    every refusal is named with its own message.
    """
    if isinstance(raw, str):
        if not raw.isascii():
            return None
        words = raw.upper().split()
    else:
        joined = "\n".join(raw)
        if not joined.isascii():
            return None
        words = joined.upper().split("\n") if raw else []
        if len(words) != len(raw):  # a word with a line break in it
            return None
    if not words:
        return []
    if not "".join(words).isalpha():  # ASCII and alphabetic: only A-Z
        return None
    lengths = list(map(len, words))
    if min(lengths) < MIN_WORD_LETTERS or max(lengths) > max_length:
        return None
    return words


def split_words(text: str) -> list[str]:
    """Split an entry on spaces, commas, tabs and newlines; empty pieces are dropped."""
    return [piece for piece in _SEPARATOR_RUN.split(text) if piece]


def normalise_play(
    words: str | Iterable[str],
    *,
    max_length: int = BOARD_MAX_LETTERS,
    max_words: int,
) -> tuple[str, ...]:
    """Normalise a whole challenge, deciding every input error before any lookup is made.

    ``words`` is either the raw text typed (split on the separators) or the words already split.
    The first bad word raises; nothing here depends on any lexicon, so no message can reveal
    whether a word is acceptable.
    """
    pieces = split_words(words) if isinstance(words, str) else list(words)
    if not pieces:
        raise WordCountError("no words were entered; type the challenged words")
    if len(pieces) > max_words:
        raise WordCountError(
            f"{len(pieces)} words were entered; one challenge holds at most {max_words} words"
        )
    return tuple(normalise_word(piece, max_length=max_length) for piece in pieces)
