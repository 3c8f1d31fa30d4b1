"""Reading the word-list files organisers already have.

Two text formats, any case, LF or CRLF, UTF-8 with or without a BOM, ``#`` comment lines and blank
lines ignored:

* a plain list: one word per line;
* a Zyzzyva-style list: the word, then its definition on the same line
  (``WAX to coat with wax [v -ED, -ING, -ES]``).

``auto`` picks Zyzzyva when most word lines carry text after the word, so that a stray
``TWO WORDS`` line in a plain list is reported instead of being read as a word and a definition.
A Zyzzyva word graph (``lexicon_build.dwg``) is read as one, whatever its name; any other kind of
file (a pack, a recipe, a Word document...) is refused by ``kiosk.core.files.kind``, which says what
it is and what to do with it.
Every word goes through the one normaliser; a line it refuses is reported as ``FILE:LINE: reason``.

A list is read in the pack's alphabet (``kiosk.core.words.alphabet``): plain lists write multi-letter
tiles as their letters (``CHALLAPATEÑA``: CH·A·LL·A·P·A·T·E·Ñ·A), or as packs store them, in
brackets; a Zyzzyva graph, and a text list Zyzzyva wrote, spell them with its digits (FISE: 1-4 for
CH, LL, RR, Ñ; every letter then a tile of its own). A text list whose words hold such digits is
read in Zyzzyva's notation whole, as its graph is, and the build says so (with how many of its
words write CH, LL or RR as letters: two tiles each, as Zyzzyva means them). Lengths count tiles.
An English list is read as it always was, on the fast road.
"""

from __future__ import annotations

import enum
import hashlib
import itertools
import operator
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from kiosk.core.errors import InputError, InvalidCharacterError, SourceError
from kiosk.core.files.kind import Kind, Role, recognise_bytes, refusal_for_bytes
from kiosk.core.words.alphabet import ENGLISH, Alphabet, alphabets, tiles_of
from kiosk.core.words.normalise import (
    BOARD_MAX_LETTERS,
    normalise_list,
    normalise_listed,
    normalise_zyzzyva,
)
from lexicon_build.dwg import decode_dwg

__all__ = ["ListFormat", "Rejection", "WordList", "read_word_list"]

PROGRESS_EVERY_LINES = 20000


class ListFormat(enum.Enum):
    AUTO = "auto"
    PLAIN = "plain"
    ZYZZYVA = "zyzzyva"
    DWG = "dwg"


@dataclass(frozen=True)
class Rejection:
    file: str
    line: int
    reason: str
    character: str = ""  # the character refused, when that is the reason (for --alphabet advice)

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.reason}"


def alphabet_advice(rejected: list[Rejection], alphabet: Alphabet) -> str | None:
    """When every character the lines were refused for is a letter of some other alphabet (a
    Spanish list built as English: Ñ, Á), or one of the digits by which Zyzzyva writes its tiles
    (FISE: 1 for CH...), the sentence that says which ``--alphabet`` to build with; None when no
    other profile reads them all (other digits, punctuation: the lines are wrong)."""
    refused = {r.character for r in rejected if r.character}
    if not refused or any(not r.character for r in rejected):
        return None
    fits = [
        other.name
        for other in alphabets().values()
        if other is not alphabet
        and all(other.typed_char(char) is not None or char in other.graph_digits for char in refused)
    ]
    if not fits:
        return None
    named = [alphabets()[name].english_name for name in fits]  # "the Spanish tiles"
    digits = sorted(char for char in refused if char.isdigit())
    ordered = sorted({char.upper() if len(char.upper()) == 1 else char for char in refused} - set(digits))
    said = []
    if ordered:
        shown = ordered[0] if len(ordered) == 1 else f"{', '.join(ordered[:-1])} and {ordered[-1]}"
        verb = "is a letter" if len(ordered) == 1 else "are letters"
        alphabets_named = named[0] if len(named) == 1 else f"{', '.join(named[:-1])} and {named[-1]}"
        said.append(f"{shown} {verb} of the {alphabets_named} alphabet{'s' if len(fits) > 1 else ''}")
    if digits:
        tiles = alphabets()[fits[0]].graph_digits
        stand = ", ".join(f"{digit} for {tiles[digit]}" for digit in digits)
        said.append(f"the digits are how Zyzzyva writes the {named[0]} tiles ({stand})")
    if len(fits) == 1:
        return (
            f"{'; '.join(said)}: if the list is {named[0]}, build with "
            f'--alphabet {fits[0]} (alphabet = "{fits[0]}" in a recipe)'
        )
    return f"{'; '.join(said)}: if the list is in one of them, build with " + " or ".join(
        f"--alphabet {name}" for name in fits
    )


@dataclass
class WordList:
    """What one file gave: its words (normalised, first occurrence order) and what it refused."""

    path: Path
    sha256: str
    format: ListFormat
    words: list[str] = field(default_factory=list)
    rejected: list[Rejection] = field(default_factory=list)
    duplicates: int = 0
    too_long: int = 0
    lines: int = 0
    notes: list[str] = field(default_factory=list)  # how the list was read, for the build's report


def _decode(path: Path, data: bytes) -> str:
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise SourceError(
            f"{path}:{line}: not UTF-8 text (byte 0x{data[exc.start]:02X}); save the list as "
            "UTF-8 (or plain ASCII) and try again"
        ) from exc
    if "\x00" in text:
        raise SourceError(f"{path}: contains NUL bytes; this is not a text word list")
    return text


# The characters str.splitlines() ends a line at; str.split() and str.strip() also take them for
# spaces, and some spaces that are not line ends (tab, U+001F, no-break space...).
_OTHER_LINE_BREAKS = "\v\f\x1c\x1d\x1e\x85\u2028\u2029"  # than LF and CR
_LINE_BREAKS = "\n\r" + _OTHER_LINE_BREAKS
_SPACE = rf"[^\S{_LINE_BREAKS}]"  # white space inside a line
_COMMENT_LINE = re.compile(rf"^{_SPACE}*#[^{_LINE_BREAKS}]*", re.MULTILINE)
_TWO_ON_A_LINE = re.compile(rf"\S{_SPACE}+\S")
_IN_LINE_SPACE = re.compile(_SPACE)
_FIRST_TOKEN = re.compile(rf"^{_SPACE}*([^\s#]\S*)", re.MULTILINE)
DETECT_LINES = 1000
DETECT_CHARS = 1 << 18  # the first 256 KiB hold the first 1000 lines of any real list


def _word_lines(text: str) -> Iterator[tuple[int, str]]:
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            yield number, stripped


def _detect(text: str) -> ListFormat:
    with_definition = total = 0
    head = text[:DETECT_CHARS]
    for _, line in _word_lines(head if len(head) == len(text) else head[: head.rfind("\n") + 1]):
        total += 1
        with_definition += len(line.split(maxsplit=1)) > 1
        if total >= DETECT_LINES:
            break
    return ListFormat.ZYZZYVA if total and with_definition * 2 > total else ListFormat.PLAIN


def _tokens_at_once(text: str, fmt: ListFormat) -> str | list[str] | None:
    """The word of every word line, found in a few passes over the whole text (for a plain list,
    the text itself, its words one to a line); None if a line needs reading on its own (a
    plain-list line with two words on it, an unusual line end).

    The same tokens, in the same order, as ``_read_line_by_line`` takes from each line.
    """
    if _has_unusual_line_break(text):
        return None
    if fmt is ListFormat.ZYZZYVA:
        tokens: list[str] = _FIRST_TOKEN.findall(text)
        return tokens
    if "#" in text:
        text = _COMMENT_LINE.sub("", text)
    in_line_spaces = (
        any(space in text for space in "\t \x1f")
        if text.isascii()
        else _IN_LINE_SPACE.search(text) is not None  # one character class: ~2 x faster than the pair
    )
    if in_line_spaces and _TWO_ON_A_LINE.search(text) is not None:
        return None
    return text


def _has_unusual_line_break(text: str) -> bool:
    """Whether any line ends otherwise than with LF or CRLF; if none does, every line starts
    exactly where re's ``^`` matches (a search for each character: ~50 times faster than a regex)."""
    if any(char in text for char in _OTHER_LINE_BREAKS):
        return True
    return "\r" in text and text.count("\r") != text.count("\r\n")


def _line_count(text: str) -> int:
    """``len(text.splitlines())`` without making the lines, for a text whose lines end in LF or CRLF."""
    return text.count("\n") + (text != "" and not text.endswith("\n"))


def _strictly_increasing(words: list[str]) -> bool:
    return all(map(operator.lt, words, itertools.islice(words, 1, None)))


def read_word_list(
    path: Path,
    *,
    list_format: ListFormat = ListFormat.AUTO,
    max_length: int = BOARD_MAX_LETTERS,
    progress: Callable[[int], None] | None = None,
    alphabet: Alphabet = ENGLISH,
) -> WordList:
    """Read one word list in ``alphabet``. Words longer than ``max_length`` tiles are counted as
    too long, not refused.

    Raises SourceError if the file cannot be read at all; line-level problems are collected in
    ``WordList.rejected`` so that one report names every bad line.

    A list whose every word line holds one word the alphabet's fast road reads (plain A-Z in
    English, letters of the alphabet in others: nearly every real list) is read in a few passes over
    the whole text and normalised at once (``normalise_list``); any other is read line by line, each
    word through ``normalise_listed``, so that every bad line is named. Both give the same result
    (``tests/test_reader.py`` checks it against the line-by-line rules).
    """
    try:
        data = path.read_bytes()
    except FileNotFoundError as exc:
        raise SourceError(f"{path}: no such file") from exc
    except OSError as exc:
        raise SourceError(f"{path}: cannot be read ({exc.strerror})") from exc
    if _is_graph(path, data, list_format, alphabet):
        return _read_dwg(path, data, max_length, progress, alphabet)
    text = _decode(path, data)
    fmt = _detect(text) if list_format is ListFormat.AUTO else list_format
    result = WordList(path=path, sha256=hashlib.sha256(data).hexdigest(), format=fmt)
    tokens = _tokens_at_once(text, fmt)
    listed = None if tokens is None else normalise_list(tokens, alphabet=alphabet)
    if listed is None:
        digits = _tile_digits(text, alphabet)
        if digits:
            result.notes.append(
                f"{path}: read in Zyzzyva's notation, as its {alphabet.english_name} lists write words: "
                + "the digits "
                + ", ".join(f"{d} = {alphabet.graph_digits[d]}" for d in sorted(alphabet.graph_digits))
                + f" (found: {', '.join(digits)}), every letter a tile of its own"
            )
        _read_line_by_line(result, text, len(data), max_length, progress, alphabet, zyzzyva=bool(digits))
        if digits:
            apart = [w for w in result.words if _read_apart(w, alphabet)]
            if apart:
                shown = ", ".join(" ".join(tiles_of(word)) for word in apart[:5])
                result.notes.append(
                    f"{path}: {len(apart)} of its words write CH, LL or RR as letters, which Zyzzyva's "
                    f"notation reads as two tiles each (e.g. {shown}); if that is not meant, write the "
                    "tile's digit"
                )
        return result
    words = kept = listed.words
    if words and max(listed.tiles) > max_length:
        kept = list(itertools.compress(words, map(max_length.__ge__, listed.tiles)))
    result.too_long = len(words) - len(kept)
    # the first of each, in the list's order; a list without repeats (as most are) holds each word
    # once already, which comparing neighbours shows faster than hashing every word: in the list's
    # order if it is sorted, else once sorted (a list nearly sorted, as real ones are, sorts fast)
    unique = _strictly_increasing(kept) or _strictly_increasing(sorted(kept))
    result.words = kept if unique else list(dict.fromkeys(kept))
    result.duplicates = len(kept) - len(result.words)
    result.lines = _line_count(text)
    if progress is not None:
        progress(len(data))
    return result


def _read_apart(word: str, alphabet: Alphabet) -> bool:
    """Whether a word of a list in Zyzzyva's notation is other tiles once its letters are read as a
    plain list reads them (RR, the R tile twice, is one RR tile, fewer than a word has: apart too)."""
    try:
        return word != normalise_listed(word, alphabet=alphabet)
    except InputError:
        return True


def _tile_digits(text: str, alphabet: Alphabet) -> list[str]:
    """The alphabet's tile digits (FISE: 1-4) that the list's words hold, in order: a list written
    in Zyzzyva's notation (Zyzzyva's FISE text lists write CH as 1, Ñ as 4)."""
    if not alphabet.graph_digits or not any(digit in text for digit in alphabet.graph_digits):
        return []
    found: set[str] = set()
    for _, line in _word_lines(text):
        found.update(char for char in line.split(maxsplit=1)[0] if char in alphabet.graph_digits)
    return sorted(found)


def _read_line_by_line(
    result: WordList,
    text: str,
    size: int,
    max_length: int,
    progress: Callable[[int], None] | None,
    alphabet: Alphabet = ENGLISH,
    *,
    zyzzyva: bool = False,
) -> None:
    seen: set[str] = set()
    name = str(result.path)
    reported = 0
    bytes_per_line = size / max(1, text.count("\n") + 1)
    words, rejected = result.words, result.rejected
    plain = result.format is ListFormat.PLAIN
    tile_count = alphabet.counter
    number = 0
    for number, raw in enumerate(text.splitlines(), start=1):
        if progress is not None and number % PROGRESS_EVERY_LINES == 0:
            done = int(number * bytes_per_line)
            progress(done - reported)
            reported = done
        line = raw.strip()
        if not line or line[0] == "#":
            continue
        token, *rest = line.split(maxsplit=1)
        if rest and plain:
            rejected.append(Rejection(name, number, f"more than one word on the line: {line[:60]!r}"))
            continue
        try:
            word = (
                normalise_zyzzyva(token, alphabet=alphabet)
                if zyzzyva
                else normalise_listed(token, alphabet=alphabet)
            )
        except InputError as exc:
            refused = exc.character if isinstance(exc, InvalidCharacterError) else ""
            rejected.append(Rejection(name, number, str(exc), refused))
            continue
        if tile_count(word) > max_length:
            result.too_long += 1
        elif word in seen:
            result.duplicates += 1
        else:
            seen.add(word)
            words.append(word)
    result.lines = number
    if progress is not None:
        progress(size - reported)


def _is_graph(path: Path, data: bytes, list_format: ListFormat, alphabet: Alphabet) -> bool:
    """Whether to read ``data`` as a Zyzzyva graph (True) or as text (False), by what it is.

    Raise SourceError, saying what the file is and what to do, for anything that is neither.
    """
    found = recognise_bytes(data, path.name)
    if (
        found.kind is Kind.SPANISH_WORD_GRAPH
        and alphabet.graph_digits
        and list_format is not ListFormat.PLAIN
    ):
        return True
    if found.kind is Kind.WORD_GRAPH and list_format in (ListFormat.PLAIN, ListFormat.ZYZZYVA):
        raise SourceError(
            f"{path} is a Zyzzyva word graph, not a {list_format.value} text list; read it with "
            '--format auto (or format = "auto" in the recipe)'
        )
    if list_format is ListFormat.DWG and found.kind in (
        Kind.WORD_LIST,
        Kind.SPANISH_WORD_LIST,
        Kind.TEXT,
        Kind.OTHER_ENCODING_TEXT,
    ):
        raise SourceError(
            f"{path} is a text word list, not a Zyzzyva word graph; read it with --format auto "
            '(or format = "auto" in the recipe)'
        )
    graph_format = list_format is ListFormat.DWG or path.suffix.lower() == ".dwg"
    unclear = (Kind.BINARY, Kind.EMPTY, Kind.OTHER_ENCODING_TEXT)
    if found.kind is Kind.WORD_GRAPH or (graph_format and found.kind in unclear):
        return True  # a damaged graph is refused by the decoder, which says where
    problem = refusal_for_bytes(data, str(path), Role.WORD_LIST)
    if problem is not None:
        raise SourceError(problem)
    return False


def _read_dwg(
    path: Path, data: bytes, max_length: int, progress: Callable[[int], None] | None, alphabet: Alphabet
) -> WordList:
    """A Zyzzyva word graph: its words go through the one normaliser like any list's.

    Each letter of the graph is one tile and each of the alphabet's digits the tile it stands for
    (a FISE graph's ``1`` is CH, where ``C`` then ``H`` are two tiles). A rejection's number is the
    word's position in the graph's order (there are no lines).
    """
    graph = decode_dwg(data, str(path), max_length=max_length, digits=frozenset(alphabet.graph_digits))
    result = WordList(
        path=path,
        sha256=hashlib.sha256(data).hexdigest(),
        format=ListFormat.DWG,
        too_long=graph.too_long,
        lines=len(graph.words),
    )
    seen: set[str] = set()
    for number, raw in enumerate(graph.words, start=1):
        try:  # each letter a tile: a letter of the graph is never half of a CH
            word = normalise_listed(raw) if alphabet is ENGLISH else normalise_zyzzyva(raw, alphabet=alphabet)
        except InputError as exc:
            result.rejected.append(Rejection(str(path), number, f"word {number} of the graph: {exc}"))
            continue
        if word in seen:
            result.duplicates += 1
        else:
            seen.add(word)
            result.words.append(word)
    if progress is not None:
        progress(len(data))
    return result
