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

That is the English profile, every pack's alphabet unless its manifest names another. Every
function here takes the pack's ``Alphabet`` (``kiosk.core.words.alphabet``) as data: its letters, what
typed accents fold to, its multi-letter tiles. Whatever the profile, a character it does not list
is refused by name (a Cyrillic ``\u0410`` in a Spanish word as in an English one), and lengths count
tiles. A word typed is read as tiles one way only (``read_typed``; ``kiosk.core.words.alphabet`` says
how), the way the station's screens show it: ``normalise_word`` gives that reading as the pack
stores it, ``normalise_listed`` a *list*'s word (the same reading, or tiles in brackets). For
English both are the word in A-Z. The station types through ``read_typed`` too, so the station and
``kiosk check`` read the same text the same way, down to a combining accent.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from kiosk.core.errors import InvalidCharacterError, TileError, WordCountError, WordLengthError
from kiosk.core.wording import Wording
from kiosk.core.words.alphabet import ENGLISH, Alphabet, ListedLines
from kiosk.core.words.language import marked

__all__ = [
    "ANY_LENGTH",
    "BOARD_MAX_LETTERS",
    "MAX_WORD_LETTERS",
    "MIN_WORD_LETTERS",
    "NORMALISER_VERSION",
    "SEPARATORS",
    "TypedWord",
    "describe_character",
    "normalise_list",
    "normalise_listed",
    "normalise_play",
    "normalise_word",
    "normalise_words",
    "normalise_zyzzyva",
    "read_typed",
    "split_words",
    "typed_tile",
]

NORMALISER_VERSION = 1
MIN_WORD_LETTERS = 2
BOARD_MAX_LETTERS = 15
MAX_WORD_LETTERS = 64  # the longest a pack may allow (a recipe's max_length), board or not
SEPARATORS = " ,\t\r\n"
ANY_LENGTH = 10**6  # a list's words are read whatever their length; the pack's maximum comes after
# The station reads a play's words again at every key (the entry shows each word's tiles) and at Tab
# (the ruling judges them): the same text always reads the same way, so the last readings are kept
# (~5 ms of a Tab on 8 Spanish words of 15 tiles, read three times each).
READINGS_KEPT = 512

_FULLWIDTH_FOLD = {
    **{code: code - 0xFF21 + ord("A") for code in range(0xFF21, 0xFF3B)},
    **{code: code - 0xFF41 + ord("A") for code in range(0xFF41, 0xFF5B)},
}
_ASCII_WORD = re.compile(r"[A-Za-z]+")
_SEPARATOR_RUN = re.compile(r"[ ,\t\r\n]+")
_ASCII_LETTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
# The messages of other alphabets than English (English keeps its own, as before), marked for the
# catalogue; their facts are the errors' attributes too.
# (``alphabet`` is the alphabet's whole name in a sentence, "the Spanish alphabet": ``Alphabet.of_it``)
# TRANSLATORS: {alphabet} is a message of its own ("the Spanish alphabet"): translate both to fit
# (French "de l'alphabet espagnol"; Spanish "del {alphabet}", the alphabet being "alfabeto español").
NOT_A_LETTER_OF = marked(
    "{character} at position {position} of {word} is not a letter of {alphabet} ({letters})"
)
NO_TILE_AT = marked("{word}: the letters from position {position} make no tile of {alphabet} ({letters})")
TOO_FEW_TILES = marked("{word} has {count} tile; a word has at least {minimum} tiles")
TOO_MANY_TILES = marked("{word} has {count} tiles; this lexicon holds words of at most {maximum} tiles")


def describe_character(char: str) -> str:
    """Name a character so that an invisible or look-alike one can be told apart on screen."""
    name = unicodedata.name(char, "")
    code = f"U+{ord(char):04X}"
    shown = char if char.isprintable() and not char.isspace() else ""
    label = f"{code} {name}" if name else code
    return f"'{shown}' ({label})" if shown else f"({label})"


def _character(char: str) -> Wording:
    """``char`` named in a message: in English as ``describe_character`` names it (its Unicode name
    too); in another language by its code point alone, with no English name glued in."""
    code = f"U+{ord(char):04X}"
    if char.isprintable() and not char.isspace():
        return Wording.aside(
            describe_character(char), marked("'{character}' ({code})"), character=char, code=code
        )
    return Wording.aside(describe_character(char), marked("an invisible character ({code})"), code=code)


def _is_foldable(char: str) -> bool:
    return char in _ASCII_LETTERS or ord(char) in _FULLWIDTH_FOLD


def normalise_word(raw: str, *, max_length: int = BOARD_MAX_LETTERS, alphabet: Alphabet = ENGLISH) -> str:
    """Return ``raw`` as the pack's alphabet reads it, or raise an InputError that names the problem.

    ``max_length`` comes from the pack (15, the board, unless the organiser chose otherwise), in
    tiles. For English the word is upper-case A-Z; in another alphabet it is the one reading of
    the letters (``read_typed``) as the pack stores it, multi-letter tiles in brackets
    (``challa``: ``[CH]A[LL]A``; ``c+ha``: ``CHA``, the C and H tiles).
    """
    if alphabet is not ENGLISH:
        return _typed_word(raw, max_length, alphabet)
    if _ASCII_WORD.fullmatch(raw) is None:
        for position, char in enumerate(raw, start=1):
            if not _is_foldable(char):
                raise InvalidCharacterError(
                    f"{describe_character(char)} at position {position} of {raw!r} is not a letter A-Z",
                    character=char,
                    position=position,
                    word=raw,
                )
        if not raw:
            raise WordLengthError("an empty word cannot be judged", word=raw)
        raw = raw.translate(_FULLWIDTH_FOLD)
    word = raw.upper()
    if len(word) < MIN_WORD_LETTERS:
        raise WordLengthError(
            f"{word!r} has {len(word)} letter; a word has at least {MIN_WORD_LETTERS} letters",
            word=raw,
            tiles=len(word),
            limit=MIN_WORD_LETTERS,
        )
    if len(word) > max_length:
        raise WordLengthError(
            f"{word!r} has {len(word)} letters; this lexicon holds words of at most {max_length} letters",
            word=raw,
            tiles=len(word),
            limit=max_length,
        )
    return word


def _folded(raw: str, alphabet: Alphabet, keep: str = "") -> tuple[str, list[int]]:
    """``raw`` with each character as the alphabet folds it, and the position (from 1) in ``raw``
    each character of the result came from; InvalidCharacterError for any it does not list.

    A combining accent after a letter (``E`` + U+0301, as some keyboards send ``É``) is taken with
    its letter when the two make one character the alphabet lists; otherwise it is refused.
    ``keep``: characters passed through as they are (a list's brackets).
    """
    letters: list[str] = []
    positions: list[int] = []
    index = 0
    while index < len(raw):
        char = raw[index]
        width = 1
        if index + 1 < len(raw) and unicodedata.combining(raw[index + 1]):
            composed = unicodedata.normalize("NFC", raw[index : index + 2])
            if len(composed) == 1 and alphabet.typed_char(composed) is not None:
                char, width = composed, 2
        folded = char if char in keep else alphabet.typed_char(char)
        if folded is None:
            raise InvalidCharacterError(
                Wording(
                    NOT_A_LETTER_OF,
                    character=_character(char),
                    position=index + 1,
                    word=repr(raw),
                    alphabet=alphabet.of_it,
                    letters=alphabet.letters_shown,
                ),
                character=char,
                position=index + 1,
                word=raw,
                alphabet=alphabet.name,
            )
        letters.append(folded)
        positions.extend([index + 1] * len(folded))
        index += width
    return "".join(letters), positions


def _counted(word: str, tiles: tuple[int, int], max_length: int, alphabet: Alphabet) -> None:
    fewest, most = tiles
    if most < MIN_WORD_LETTERS:
        raise WordLengthError(
            Wording(TOO_FEW_TILES, word=repr(word), count=most, minimum=MIN_WORD_LETTERS),
            word=word,
            tiles=most,
            limit=MIN_WORD_LETTERS,
            alphabet=alphabet.name,
        )
    if fewest > max_length:
        raise WordLengthError(
            Wording(TOO_MANY_TILES, word=repr(word), count=fewest, maximum=max_length),
            word=word,
            tiles=fewest,
            limit=max_length,
            alphabet=alphabet.name,
        )


def _no_tile(raw: str, position: int, alphabet: Alphabet) -> TileError:
    return TileError(
        Wording(
            NO_TILE_AT,
            word=repr(raw),
            position=position,
            alphabet=alphabet.of_it,
            letters=alphabet.letters_shown,
        ),
        position=position,
        word=raw,
        alphabet=alphabet.name,
    )


def _typed_word(raw: str, max_length: int, alphabet: Alphabet) -> str:
    if not raw:
        raise WordLengthError("an empty word cannot be judged", word=raw, alphabet=alphabet.name)
    typed = read_typed(raw, alphabet)
    if typed.rest:
        raise _no_tile(raw, typed.rest_starts[0] + 1, alphabet)
    count = len(typed.tiles)
    _counted(raw, (count, count), max_length, alphabet)
    return alphabet.stored(typed.tiles)


@dataclass(frozen=True)
class TypedWord:
    """Text as typed, read as the tiles it will be judged as (``read_typed``).

    ``tiles`` are read the one way (``kiosk.core.words.alphabet``), and ``starts`` says where in the text
    each begins (Backspace takes a tile off whole). ``rest`` are the letters after them that make
    no tile there (a Catalan ``Q`` before its ``U``, a separator that separates nothing from a
    letter that is only half a tile), each with where it begins: a word with a rest cannot be judged.
    """

    tiles: tuple[str, ...]
    starts: tuple[int, ...]
    rest: tuple[str, ...] = ()
    rest_starts: tuple[int, ...] = ()

    @property
    def shown(self) -> tuple[str, ...]:
        """What a screen shows of the word: its tiles, then what makes no tile yet."""
        return self.tiles + self.rest

    @property
    def last_start(self) -> int:
        """Where the last thing shown begins in the text (0 for nothing)."""
        return (self.starts + self.rest_starts or (0,))[-1]


@functools.lru_cache(maxsize=READINGS_KEPT)
def read_typed(raw: str, alphabet: Alphabet = ENGLISH) -> TypedWord:
    """``raw`` as a player typed it, read as the tiles it will be judged as; InvalidCharacterError
    for a character the alphabet does not take (named, with its position).

    The station's typing and ``kiosk check`` both come here (``normalise_word`` judges what this
    reads): a combining accent is composed with its letter (``n`` + U+0303 is ``Ñ``) where the
    alphabet lists the result, characters fold, and the letters are read the one way. Nothing
    here depends on the words of any pack.
    """
    letters, positions = _folded(raw, alphabet)
    reading = alphabet.read(letters)
    starts = tuple(positions[index] - 1 for index in reading.starts)
    rest: list[str] = []
    rest_starts: list[int] = []
    index = reading.stop
    for unit, length in alphabet.units(letters[reading.stop :]):
        rest.append(unit)
        rest_starts.append(positions[index] - 1)
        index += length
    return TypedWord(reading.tiles, starts, tuple(rest), tuple(rest_starts))


def typed_tile(raw: str, tile: str, alphabet: Alphabet = ENGLISH) -> str:
    """What to type after ``raw`` (text typed, every character taken) so that ``tile`` is read as
    one more tile and nothing before it changes: its letters, or the tile separator and its
    letters (Spanish L after L: ``+L``, two L tiles and not the LL tile). The touch keyboard's keys
    are tiles, and come here."""
    if alphabet.simple or tile not in alphabet.tiles:  # not a key of this keyboard: its letters,
        return tile  # each taken or refused as typed
    before = read_typed(raw, alphabet)
    if before.rest:
        return tile
    if read_typed(raw + tile, alphabet).tiles == (*before.tiles, tile):
        return tile
    return alphabet.separator + tile


def normalise_listed(raw: str, *, alphabet: Alphabet = ENGLISH) -> str:
    """A word as a list writes it, as the pack stores it (``kiosk.core.words.alphabet``); InputError if
    it is not one. Any length: the builder applies the pack's maximum, counting tiles.

    For English, ``normalise_word``'s A-Z. Otherwise each multi-letter tile is read where the list
    writes its letters (``CH`` in Spanish, ``L·L`` in Catalan, where ``LL`` is two Ls); a word may
    instead give its tiles as packs store them, multi-letter tiles in brackets (``[CH]A[LL]A``),
    to spell what letters alone cannot (two Ls side by side in a Spanish word).
    """
    if alphabet is ENGLISH:
        return normalise_word(raw, max_length=ANY_LENGTH)
    at_once = alphabet.listed_at_once(raw)
    if at_once is not None:
        return at_once
    if not raw:
        raise WordLengthError("an empty word cannot be judged", word=raw, alphabet=alphabet.name)
    letters, positions = _folded(raw, alphabet, keep="[]")
    tiles = alphabet.listed_tiles(letters)
    if isinstance(tiles, int):
        raise _no_tile(raw, positions[tiles] if tiles < len(positions) else len(raw), alphabet)
    _counted(raw, (len(tiles), len(tiles)), ANY_LENGTH, alphabet)
    return alphabet.stored(tiles)


def normalise_zyzzyva(raw: str, *, alphabet: Alphabet) -> str:
    """A word as Zyzzyva's graphs and text lists write it, as the pack stores it: each letter a
    tile of its own, each of the alphabet's digits the tile it stands for (FISE: ``1A2A`` is
    CH·A·LL·A, ``4U`` is Ñ·U, and ``CHE`` C·H·E: Zyzzyva writes the CH tile ``1``, always).
    InputError, naming the character and its position, for anything else."""
    if not raw:
        raise WordLengthError("an empty word cannot be judged", word=raw, alphabet=alphabet.name)
    digits = alphabet.graph_digits
    letters, positions = _folded(raw, alphabet, keep="".join(digits))
    tiles: list[str] = []
    for index, char in enumerate(letters):
        tile = digits.get(char, char)
        if tile not in alphabet.tiles:  # a mark, the separator, a Catalan Y on its own
            raise _no_tile(raw, positions[index], alphabet)
        tiles.append(tile)
    _counted(raw, (len(tiles), len(tiles)), ANY_LENGTH, alphabet)
    return alphabet.stored(tiles)


def normalise_words(
    raw: str | Sequence[str], *, max_length: int = BOARD_MAX_LETTERS, alphabet: Alphabet = ENGLISH
) -> list[str] | None:
    """``normalise_word`` of many words at once, or None if any of them needs it one at a time.

    ``raw`` is the words, or a text of words separated by white space. For whole word lists (the
    builder reads ~280,000 words): when every word is made only of the ASCII letters A-Z in either
    case and its length is allowed, which is what nearly every line of a real list is,
    ``normalise_word`` would return each one upper-cased, and that is done here in a few passes
    over the whole list instead of a call per word. Anything else (a full-width letter to fold, a
    character or a length it refuses) gives None: the caller then normalises word by word, so that
    every refusal is named with its own message. Only for English: any other alphabet gives None.
    """
    if alphabet is not ENGLISH:
        return None
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


def normalise_list(raw: str | Sequence[str], *, alphabet: Alphabet = ENGLISH) -> ListedLines | None:
    """``normalise_listed`` of a whole list's words at once (any length: the builder applies the
    pack's maximum), with their tiles, or None if any of them needs it one at a time (the caller
    then reads them one by one, naming each refusal). ``raw``: the words, or a text of words
    separated by white space. For English, ``normalise_words``; otherwise
    ``Alphabet.listed_lines_at_once``, the road of C code ``normalise_listed`` takes for one word,
    taken over the whole list."""
    if alphabet is ENGLISH:
        words = normalise_words(raw, max_length=ANY_LENGTH)
        return None if words is None else ListedLines(words, [], list(map(len, words)))
    words = raw.split() if isinstance(raw, str) else list(raw)
    if not words:
        return ListedLines([], [], [])
    text = "\n".join(words)
    if text.count("\n") != len(words) - 1:  # a word with a line break in it
        return None
    listed = alphabet.listed_lines_at_once(text)
    return None if listed.odd else listed


def split_words(text: str) -> list[str]:
    """Split an entry on spaces, commas, tabs and newlines; empty pieces are dropped."""
    return [piece for piece in _SEPARATOR_RUN.split(text) if piece]


def normalise_play(
    words: str | Iterable[str],
    *,
    max_length: int = BOARD_MAX_LETTERS,
    max_words: int,
    alphabet: Alphabet = ENGLISH,
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
    return tuple(normalise_word(piece, max_length=max_length, alphabet=alphabet) for piece in pieces)
