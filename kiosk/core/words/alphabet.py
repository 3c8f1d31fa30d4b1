"""Alphabet profiles: a federation's tiles, how its players lay, type and list them.

A pack declares its alphabet (``PackInfo.alphabet``); the one normaliser (``kiosk.core.words.normalise``)
takes the profile as data, and no rule branches on a language. English keeps a road of its own in
a few places, each a fast road or the format's past, never a different rule: the plain A-Z
regular expressions of ``normalise_word``, ``normalise_listed`` and the bulk normaliser (the bulk
road tested equal to the one-word road, the station's reading to ``kiosk check``'s for every
alphabet: ``tests/test_normalise.py``, ``tests/test_reading.py``), the walk's check of a trie's
words (through that bulk normaliser), an English pack's manifest (it names no alphabet, so packs
built before alphabets keep their bytes) and ``lexicon_build``'s reader of plain lists. Everything
else reads a profile. A profile is:

* its **tiles**. A tile is one letter (``A``, ``Ñ``, ``Ą``) or several (``CH``, ``L·L``, ``NY``): a
  multi-letter tile is *written* in lists and on screen as its letters;
* its **folds**: what a typed character stands for before tiles are read (lower case, full-width
  Latin letters, French ``É`` → ``E`` and ``Œ`` → ``OE``, German ``ß`` → ``SS``). Every character
  that is neither a fold nor one of the profile's marks (Catalan ``·`` and ``.``) nor the tile
  separator is refused by name, whatever the profile: a Cyrillic ``\u0410`` is never an ``A``;
* its **federation's rules** on the tiles (``federation``, ``rules``: which letter pairs are
  tiles, which reading typed letters get, how a player types the other), its players'
  **touch keyboard** (``keyboard``: rows in the layout they know) and **physical keyboard**
  (``layout``, an XKB layout name);
* for Zyzzyva word graphs and lists, the digits that stand for tiles (FISE: 1-4 for CH, LL, RR, Ñ).

**One reading.** Typed letters are read as tiles one way only, and that is the way the screens
show them and the way they are judged; the pack is never asked about a reading nobody saw:

* a multi-letter tile is read wherever its written letters stand, the longest first where the
  rest can still be read: Spanish ``CHALLA`` is CH·A·LL·A, Catalan ``ANYS`` A·NY·S;
* a tile written with a mark is read only with its mark: Catalan L·L is typed ``L·L``, ``L.L`` or
  ``ŀl``, and ``LL`` is two L tiles (the ela palatal of CALL, CAVALL, CASTELL);
* the **tile separator** ``+`` keeps the letters either side of it apart: Spanish ``C+HE`` is the
  C and H tiles laid side by side, which FISE's rules never allow for CH, so the play is ruled on
  what the board holds. In an alphabet of single-letter tiles (English, French...) there is
  nothing to keep apart, and ``+`` is refused like any other character.

The touch keyboard's keys are tiles (``kiosk.core.play.session.TileTyped``): its C then its H are two
tiles, its CH key one; it types the separator itself where a tile would otherwise join the one
before (``kiosk.core.words.normalise.typed_tile``).

A pack stores each word as its tiles, one after another: a one-letter tile as its letter, a
multi-letter tile in brackets (``[CH]A[LL]APATEÑA``, the notation of woogles and macondo), so the
stored form never hesitates between ``[LL]`` and ``L`` ``L``. An English word is stored exactly as
before (A-Z), and so is its digest. Lists write words as players type them (one reading), or give
their tiles in brackets. Length limits count tiles, never letters.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from kiosk.core.wording import Text, Wording
from kiosk.core.words.language import marked

# Characters Unicode holds to be another one exactly (canonical singletons: NFC turns each into
# it) that a keyboard may send for a mark an alphabet takes: the Greek ano teleia for the Catalan
# middle dot (a Greek layout's key). Letters are left out: English reads A-Z by a road of its own
# (kiosk.core.words.normalise), and the station and `kiosk check` must refuse the same characters.
CANONICAL_SINGLETONS = ("\u0387",)

__all__ = [
    "DEFAULT_ALPHABET",
    "ENGLISH",
    "FISE_GRAPH_DIGITS",
    "TILE_SEPARATOR",
    "Alphabet",
    "ListedLines",
    "TileReading",
    "alphabet_named",
    "alphabets",
    "tiles_of",
    "unmatched_lines",
]

ASCII_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
# Typed between two letters, keeps them apart as single tiles (Spanish C+H: the C and H tiles).
TILE_SEPARATOR = "+"
MIN_TILES = 2  # the fewest tiles a word has (kiosk.core.words.normalise's MIN_WORD_LETTERS)
_FULLWIDTH_OFFSET = 0xFF21 - ord("A")  # U+FF21 FULLWIDTH LATIN CAPITAL LETTER A
_FULLWIDTH_SMALL_OFFSET = 0xFF41 - ord("A")


@dataclass(frozen=True)
class TileReading:
    """Folded letters read as tiles, the one way: ``tiles`` and the index in the letters each
    starts at; ``stop`` is where reading stopped (the letters' length when every letter was read;
    before it, letters that make no tile there: Catalan ``Q`` before its ``U``)."""

    tiles: tuple[str, ...]
    starts: tuple[int, ...]
    stop: int


@dataclass(frozen=True)
class ListedLines:
    """Lines read at once (``Alphabet.listed_lines_at_once``): each line's stored spelling (""
    where it needs reading on its own), the indexes of those lines, and each line's tiles."""

    words: list[str]
    odd: list[int]
    tiles: list[int]


@dataclass(frozen=True, eq=False)  # profiles are made once each: one is equal only to itself
class Alphabet:
    """One federation's tiles, as data.

    ``tiles``: each tile as lists and screens write it. ``folds``: typed characters (upper case;
    lower case and full-width forms are derived) and the letters they stand for. ``typed``: further
    spellings players use for a multi-letter tile, each with a mark (Catalan ``L.L``). ``marks``:
    characters kept in typed words only inside a tile's spelling (Catalan ``·``). ``graph_digits``:
    a Zyzzyva graph's (or list's) digits and the tiles they stand for. ``keyboard``: the touch
    keyboard's rows, tiles separated by spaces, each tile once, in the layout the players' own
    keyboards have; ``layout``: that physical keyboard (XKB layout name). ``federation`` and
    ``rules``: whose rules these are and what they say about the tiles, for people (the docs).
    """

    name: str
    title: str  # shown to people; marked for the catalogue
    tiles: tuple[str, ...]
    folds: Mapping[str, str] = field(default_factory=dict)
    typed: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    marks: str = ""
    graph_digits: Mapping[str, str] = field(default_factory=dict)
    # the alphabet named inside a sentence, whole ("the Spanish alphabet"): marked for the catalogue,
    # where each language places, declines and lower-cases it as it must ("l'alphabet espagnol")
    called: str = ""
    keyboard: tuple[str, ...] = ()
    layout: str = "us"
    federation: str = ""
    rules: str = ""
    # derived from the fields above, once, by __post_init__
    _typed_chars: Mapping[str, str] = field(init=False, repr=False, compare=False)
    _written: Mapping[str, tuple[str, ...]] = field(init=False, repr=False, compare=False)
    _marked: Mapping[str, str] = field(init=False, repr=False, compare=False)
    _longest: int = field(init=False, repr=False, compare=False)
    _tile_set: frozenset[str] = field(init=False, repr=False, compare=False)
    _fold_table: Mapping[int, str] = field(init=False, repr=False, compare=False)
    _typed_word: re.Pattern[str] = field(init=False, repr=False, compare=False)
    _written_multi: re.Pattern[str] = field(init=False, repr=False, compare=False)
    _stored_word: re.Pattern[str] = field(init=False, repr=False, compare=False)
    _stored_unit: str = field(init=False, repr=False, compare=False)
    _typed_class: str = field(init=False, repr=False, compare=False)
    _multi: tuple[str, ...] = field(init=False, repr=False, compare=False)
    _apart: bool = field(init=False, repr=False, compare=False)
    _bracketed_tile: re.Pattern[str] = field(
        init=False, repr=False, compare=False
    )  # no two multi-letter tiles share a letter
    _lines: dict[object, re.Pattern[str]] = field(init=False, repr=False, compare=False)
    _fixes: dict[str, dict[str, str] | None] = field(init=False, repr=False, compare=False)
    _simple: bool = field(init=False, repr=False, compare=False)
    _bracket_letters: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # Derived tables, computed once per profile (profiles are made once, in ``alphabets()``).
        multi = tuple(tile for tile in self.tiles if len(tile) > 1)
        for tile, spellings in self.typed.items():
            if tile not in multi or not all(any(m in s for m in self.marks) for s in spellings):
                raise ValueError(f"{self.name}: a further spelling of {tile} must carry a mark: {spellings}")
        keys = [key for row in self.keyboard for key in row.split()]
        if self.keyboard and sorted(keys) != sorted(self.tiles):
            raise ValueError(f"{self.name}: the touch keyboard must hold each tile once: {keys}")
        typed_chars: dict[str, str] = {}
        for tile in self.tiles:
            if len(tile) == 1:
                typed_chars[tile] = tile
                typed_chars[tile.lower()] = tile
                if tile in ASCII_LETTERS:
                    typed_chars[chr(ord(tile) + _FULLWIDTH_OFFSET)] = tile
                    typed_chars[chr(ord(tile) + _FULLWIDTH_SMALL_OFFSET)] = tile
        # letters that occur only inside multi-letter tiles (Catalan Y of NY, Q of QU)
        for tile in self.tiles:
            for letter in tile:
                if letter.isalpha() and letter not in typed_chars:
                    for form in (letter, letter.lower()):
                        typed_chars[form] = letter
                    if letter in ASCII_LETTERS:
                        typed_chars[chr(ord(letter) + _FULLWIDTH_OFFSET)] = letter
                        typed_chars[chr(ord(letter) + _FULLWIDTH_SMALL_OFFSET)] = letter
        for char, letters in self.folds.items():
            typed_chars[char] = letters
            if char.lower() != char and len(char.lower()) == 1:
                typed_chars.setdefault(char.lower(), letters)
        for mark in self.marks:
            typed_chars[mark] = mark
        simple = not multi
        if not simple:
            typed_chars[TILE_SEPARATOR] = TILE_SEPARATOR
        for char in CANONICAL_SINGLETONS:  # the same character to Unicode, typed another way
            same = unicodedata.normalize("NFC", char)
            if same in typed_chars:
                typed_chars.setdefault(char, typed_chars[same])
        object.__setattr__(self, "_typed_chars", MappingProxyType(typed_chars))
        # how written letters are read: every tile by its letters, unless a mark is among them
        written = {tile: (tile,) for tile in self.tiles if not any(m in tile for m in self.marks)}
        object.__setattr__(self, "_written", MappingProxyType(written))
        marked_spellings = {
            spelling: tile
            for tile in multi
            for spelling in (tile, *self.typed.get(tile, ()))
            if any(mark in spelling for mark in self.marks)
        }
        object.__setattr__(self, "_marked", MappingProxyType(marked_spellings))
        object.__setattr__(self, "_longest", max(map(len, written)) if written else 1)
        object.__setattr__(self, "_tile_set", frozenset(self.tiles))
        object.__setattr__(self, "_simple", simple)
        # when every multi-letter tile has as many letters (Spanish CH, LL, RR: 2), a stored word's
        # tiles are counted from its brackets alone; else 0 (Catalan L·L beside NY), and tile_count
        # reads the tiles
        sizes = {len(tile) for tile in multi}
        object.__setattr__(self, "_bracket_letters", sizes.pop() if len(sizes) == 1 else 0)
        # the fast road for a list's words: fold, bracket the written multi-letter tiles, check
        object.__setattr__(self, "_fold_table", MappingProxyType({ord(c): v for c, v in typed_chars.items()}))
        typed_class = "".join(re.escape(c) for c in typed_chars)
        object.__setattr__(self, "_typed_word", re.compile(f"[{typed_class}]+"))
        object.__setattr__(self, "_typed_class", typed_class)
        multi_written = sorted(multi, key=len, reverse=True)
        object.__setattr__(self, "_multi", tuple(multi_written))
        tile_choice = "|".join(map(re.escape, multi_written)) or "(?!)"
        object.__setattr__(self, "_bracketed_tile", re.compile(rf"\[(?:{tile_choice})\]"))
        tile_letters = [set(tile) for tile in multi_written]
        apart = all(a.isdisjoint(b) for i, a in enumerate(tile_letters) for b in tile_letters[i + 1 :])
        object.__setattr__(self, "_apart", apart and not any(m in t for t in multi_written for m in "[]"))
        object.__setattr__(
            self, "_written_multi", re.compile("|".join(map(re.escape, multi_written)) or "(?!)")
        )
        singles = "".join(re.escape(t) for t in self.tiles if len(t) == 1)
        bracketed = "|".join(re.escape(f"[{t}]") for t in multi_written)
        unit = f"(?:{bracketed}|[{singles}])" if bracketed else f"[{singles}]"
        object.__setattr__(self, "_stored_word", re.compile(f"{unit}{{2,}}"))
        object.__setattr__(self, "_stored_unit", unit)
        object.__setattr__(self, "_lines", {})  # line patterns, compiled when first asked for
        object.__setattr__(self, "_fixes", {})

    # --- what the profile is -------------------------------------------------------------------

    @property
    def simple(self) -> bool:
        """Every tile is one letter: a word's letters are its tiles (English, French, Polish...)."""
        return self._simple

    @property
    def english_name(self) -> str:
        """Its name inside an English sentence ("the Spanish alphabet", "its Catalan lists");
        ``name`` is the word ``--alphabet`` and a recipe take ("spanish")."""
        return self.name.capitalize()

    @property
    def takes_ascii_as_typed(self) -> bool:
        """Whether every word of the letters A-Z is, upper-cased, its own stored spelling (English,
        French, Italian, German): the fast roads for plain A-Z text apply."""
        return self.simple and all(letter in self._tile_set for letter in ASCII_LETTERS)

    @property
    def of_it(self) -> Text:
        """The alphabet named inside a sentence, after "of" ("a letter of {alphabet}", "a pack of
        {alphabet}"), for the catalogue to say as its language declines it; the title if it has no
        such phrase of its own."""
        return Wording(self.called) if self.called else self.title

    @property
    def letters_shown(self) -> str:
        """The tiles for people: ``A B C CH D ... Z``."""
        return " ".join(self.tiles)

    @property
    def separator(self) -> str:
        """The tile separator where the alphabet has one (multi-letter tiles), else ""."""
        return "" if self.simple else TILE_SEPARATOR

    def typed_char(self, char: str) -> str | None:
        """What one typed character stands for (letters, a mark, the separator), or None if it is
        refused."""
        return self._typed_chars.get(char)

    def shown(self, tiles: Sequence[str]) -> str:
        """Tiles for people, as the screens show a word: letters run together where every tile is a
        letter (``CAT``), else each tile apart (``CH A LL A``, ``TILE_GAP`` between)."""
        return "".join(tiles) if self.simple else TILE_GAP.join(tiles)

    # --- stored spellings (what a pack holds) --------------------------------------------------

    def stored(self, tiles: Sequence[str]) -> str:
        """Tiles as a pack stores them: multi-letter tiles in brackets."""
        return "".join(tile if len(tile) == 1 else f"[{tile}]" for tile in tiles)

    def stored_tiles(self, word: str) -> tuple[str, ...] | None:
        """The tiles of a stored spelling, or None if ``word`` is not one (a walk's check)."""
        tiles: list[str] = []
        tile_set = self._tile_set
        index = 0
        while index < len(word):
            char = word[index]
            if char == "[":
                end = word.find("]", index)
                tile = word[index + 1 : end] if end > index else ""
                if len(tile) < 2 or tile not in tile_set:
                    return None
                tiles.append(tile)
                index = end + 1
                continue
            if char not in tile_set:
                return None
            tiles.append(char)
            index += 1
        return tuple(tiles)

    @property
    def counter(self) -> Callable[[str], int]:
        """``tile_count``, as fast as can be: ``len`` itself for a simple alphabet."""
        return len if self._simple else self.tile_count

    def tile_count(self, stored: str) -> int:
        """How many tiles a stored spelling has (its letters, for a simple alphabet)."""
        if self.simple:
            return len(stored)
        if "[" not in stored:
            return len(stored)
        if self._bracket_letters:  # each "[CH]": its letters and two brackets, for one tile
            return len(stored) - stored.count("[") * (self._bracket_letters + 1)
        # each bracketed tile is its letters and two brackets, for one tile
        return len(stored) - sum(len(tile) + 1 for tile in _BRACKETED.findall(stored))

    def tile_counts(self, words: Sequence[str]) -> list[int]:
        """``tile_count`` of each stored spelling (none holding a line feed), in a few passes of C
        code over them all: each bracketed tile is taken as one character."""
        if self._simple:
            return list(map(len, words))
        if not words:
            return []
        return list(map(len, _BRACKETED.sub("#", "\n".join(words)).split("\n")))

    def all_stored(self, text: str) -> bool:
        """Whether every line of ``text`` (words joined by line feeds) is a spelling as packs store
        them, of two tiles or more: ``is_stored`` of each, in a few passes of C code."""
        return self.stored_tile_counts(text) is not None

    def stored_tile_counts(self, text: str) -> list[int] | None:
        """Each line's ``tile_count`` if every line of ``text`` (words joined by line feeds) is a
        stored spelling of two tiles or more (``all_stored``), else None: both from one pass."""
        if "#" in text:  # (it stands for a bracketed tile below)
            return None
        collapsed = self._bracketed_tile.sub("#", text) if "[" in text else text
        if self._single_tile_text().fullmatch(collapsed) is None:  # a bracket left: not a tile's
            return None
        counts = list(map(len, collapsed.split("\n")))
        return counts if min(counts) >= MIN_TILES else None

    def _single_tile_lines(self, most_tiles: int | None) -> re.Pattern[str]:
        """Runs of lines each of 2 to ``most_tiles`` (None: any number) single tiles or ``#``."""
        key = ("single", most_tiles)
        if key not in self._lines:
            singles = "".join(re.escape(t) for t in self.tiles if len(t) == 1)
            most = "" if most_tiles is None else str(most_tiles)
            self._lines[key] = re.compile(f"(?:[{singles}#]{{2,{most}}}\n)*")
        return self._lines[key]

    def _typed_text(self) -> re.Pattern[str]:
        """A text of characters the alphabet takes and line feeds."""
        if "typed text" not in self._lines:
            self._lines["typed text"] = re.compile(f"[{self._typed_class}\n]*")
        return self._lines["typed text"]

    def _single_tile_text(self) -> re.Pattern[str]:
        """A text of single tiles, ``#`` (a bracketed tile) and line feeds."""
        if "single text" not in self._lines:
            singles = "".join(re.escape(t) for t in self.tiles if len(t) == 1)
            self._lines["single text"] = re.compile(f"[{singles}#\n]*")
        return self._lines["single text"]

    def _typed_lines(self) -> re.Pattern[str]:
        """Runs of lines each made of characters the alphabet takes (``listed_at_once``'s first test)."""
        if "typed" not in self._lines:
            self._lines["typed"] = re.compile(f"(?:{self._typed_word.pattern}\n)*")
        return self._lines["typed"]

    def is_stored(self, word: str) -> bool:
        """Whether ``word`` is a spelling as packs store it, of two tiles or more (the walk's check)."""
        return self._stored_word.fullmatch(word) is not None

    # --- reading letters as tiles: the one reading ----------------------------------------------

    def read(self, letters: str) -> TileReading:
        """Folded letters (with the marks and separators typed) as tiles, the one way (the module's
        docstring). Reading stops at the first letter that makes no tile there."""
        units: list[str] = []
        positions: list[int] = []
        index = 0
        for unit, length in _marked_units(letters, self._marked):
            units.append(unit)
            positions.append(index)
            index += length
        tiles: list[str] = []
        starts: list[int] = []
        segment = 0
        for end in [*(i for i, unit in enumerate(units) if unit == TILE_SEPARATOR), len(units)]:
            found = self._longest_first(units, segment, end)
            for tile, at in found[0]:
                tiles.append(tile)
                starts.append(positions[at])
            if found[1] < end:  # no tile there: nothing after it is read
                return TileReading(tuple(tiles), tuple(starts), positions[found[1]])
            segment = end + 1
        return TileReading(tuple(tiles), tuple(starts), len(letters))

    def units(self, letters: str) -> Iterator[tuple[str, int]]:
        """Letters one by one as a screen shows those that make no tile, a marked spelling as its
        tile (``L.L``: ``L·L``), each with how many letters it takes."""
        for unit, length in _marked_units(letters, self._marked):
            yield unit.strip("[]") if unit.startswith("[") else unit, length

    def _steps(self, units: Sequence[str], start: int, end: int) -> Iterator[tuple[str, int]]:
        """Each tile that can be read at ``units[start]`` (before ``end``), and where reading goes on
        after it: a bracketed unit is its tile; written letters are read by ``_written``."""
        unit = units[start]
        if unit.startswith("["):
            yield unit[1:-1], start + 1
            return
        letters = ""
        for at in range(start, min(end, start + self._longest)):
            if units[at].startswith("["):
                break
            letters += units[at]
            for tile in self._written.get(letters, ()):
                yield tile, at + 1

    def _longest_first(self, units: Sequence[str], start: int, end: int) -> tuple[list[tuple[str, int]], int]:
        """``units[start:end]`` read the longest tile first wherever the rest can still be read:
        each tile and the unit it starts at. If the whole cannot be read, the longest beginning
        that can, and the index of the first unit no reading gets past."""
        readable = [False] * (end - start + 1)
        readable[end - start] = True
        for at in range(end - 1, start - 1, -1):
            readable[at - start] = any(readable[after - start] for _, after in self._steps(units, at, end))
        if not readable[0]:
            reached = {start}
            for at in range(start, end):
                if at in reached:
                    reached.update(after for _, after in self._steps(units, at, end))
            stop = max(reached)
            return self._longest_first(units, start, stop)[0], stop
        tiles: list[tuple[str, int]] = []
        at = start
        while at < end:
            tile, after = max(
                (step for step in self._steps(units, at, end) if readable[step[1] - start]),
                key=lambda step: step[1],
            )
            tiles.append((tile, at))
            at = after
        return tiles, end

    # --- words as lists write them -------------------------------------------------------------

    def listed_at_once(self, raw: str) -> str | None:
        """A list's word (no brackets) as stored, by a few passes of C code, or None if it needs
        ``listed_tiles`` (a character to refuse, letters that make no tile, brackets, separators,
        fewer than two tiles): the same result as the careful road wherever this one gives one."""
        if self._typed_word.fullmatch(raw) is None:
            return None
        folded = raw.translate(self._fold_table)
        stored = self._written_multi.sub(lambda found: f"[{found.group()}]", folded)
        return stored if self._stored_word.fullmatch(stored) is not None else None

    def listed_lines_at_once(self, text: str, most_tiles: int | None = None) -> ListedLines:
        """``listed_at_once`` of every line of ``text`` (words joined by line feeds), in a few passes
        of C code over the whole text: each line's stored spelling and its tiles, and the indexes of
        the lines (given as "") where ``listed_at_once`` gives None or the spelling has more than
        ``most_tiles`` tiles (None: any number). A multi-letter tile is written within a line:
        folding and bracketing the whole text brackets what each line alone would have."""
        stored = self._bracket_written(self._fold(text))
        # a line of 2 to most_tiles single tiles or bracketed ones is stored
        collapsed = self._bracketed_tile.sub("#", stored)
        tiles = list(map(len, collapsed.split("\n")))
        words = stored.split("\n")
        clean = (
            self._typed_text().fullmatch(text) is not None
            and self._single_tile_text().fullmatch(collapsed) is not None
            and min(tiles) >= MIN_TILES
            and (most_tiles is None or max(tiles) <= most_tiles)
        )
        if clean:  # one pass each over the whole text said so: no line needs a look of its own
            return ListedLines(words, [], tiles)
        odd = set(unmatched_lines(self._typed_lines(), text))
        odd.update(unmatched_lines(self._single_tile_lines(most_tiles), collapsed))
        for index in odd:
            words[index] = ""
        return ListedLines(words, sorted(odd), tiles)

    def _bracket_written(self, folded: str) -> str:
        """Each multi-letter tile written in ``folded`` in brackets, as ``_written_multi`` finds
        them (leftmost first, longest first): by ``str.replace`` of each tile in turn where no two
        tiles share a letter (then neither replacement can make or break a match of the other, and
        each is leftmost first, as the pattern is), ~2 x faster than a call for each match."""
        if not self._apart:
            return self._written_multi.sub(lambda found: f"[{found.group()}]", folded)
        for tile in self._multi:
            if tile in folded:
                folded = folded.replace(tile, f"[{tile}]")
        return folded

    def _fold(self, text: str) -> str:
        """``text.translate`` of the fold table, for the characters the alphabet takes (what it does
        to others does not matter: a line holding one is refused by its caller): ``upper()``, then
        each character left that does not fold to itself replaced by its fold, where that gives what
        the table gives for every character the alphabet takes (``_upper_folds``); ~3 x faster than
        translating a text that is not all ASCII character by character."""
        fixes = self._upper_folds()
        if fixes is None:
            return text.translate(self._fold_table)
        folded = text.upper()
        for char in set(self._lines_unfolded().findall(folded)):
            if char in fixes:
                folded = folded.replace(char, fixes[char])
        return folded

    def _upper_folds(self) -> dict[str, str] | None:
        """What ``_fold`` replaces after ``upper()``: every upper-cased character the alphabet takes
        that does not fold to itself, with its fold; None if upper-casing then replacing would not
        fold every character the alphabet takes exactly as the fold table does."""
        if "upper" not in self._fixes:
            table = self._typed_chars
            fixes = {char: table[char] for char in table if table[char] != char}
            same = all(
                "".join(fixes.get(c, c) for c in char.upper()) == folded for char, folded in table.items()
            )
            self._fixes["upper"] = fixes if same else None
        return self._fixes["upper"]

    def _lines_unfolded(self) -> re.Pattern[str]:
        """Any character that is not its own fold (nor a line feed)."""
        if "unfolded" not in self._lines:
            same = "".join(re.escape(c) for c, folded in self._typed_chars.items() if folded == c)
            self._lines["unfolded"] = re.compile(f"[^{same}\n]")
        return self._lines["unfolded"]

    def listed_tiles(self, letters: str) -> tuple[str, ...] | int:
        """A word as a list writes it (folded letters, marks and separators, or tiles in
        brackets): its tiles; on failure, the index of the first character no reading gets past.

        Without brackets, as players type it (``read``). With brackets, as stored: a bracket holds
        one tile, every other letter is a tile of its own.
        """
        if "[" in letters or "]" in letters:
            tiles: list[str] = []
            index = 0
            while index < len(letters):
                char = letters[index]
                if char == "[":
                    end = letters.find("]", index)
                    tile = letters[index + 1 : end] if end > index else ""
                    if tile not in self._tile_set:
                        return index
                    tiles.append(tile)
                    index = end + 1
                elif char in self._tile_set:
                    tiles.append(char)
                    index += 1
                else:
                    return index
            return tuple(tiles)
        reading = self.read(letters)
        return reading.tiles if reading.stop == len(letters) else reading.stop


# Between the tiles of a word on a player's screen: an en space, wide enough that C H and CH, L L
# and L·L are told apart at a glance (Catalan L·L has a dot of its own).
TILE_GAP = "\u2002"
_BRACKETED = re.compile(r"\[([^\]]*)\]")


def _marked_units(letters: str, marked_spellings: Mapping[str, str]) -> Iterator[tuple[str, int]]:
    """Letters with each marked spelling (``L·L``, ``L.L``) made one bracketed unit; each unit
    with how many letters it takes."""
    index = 0
    while index < len(letters):
        for spelling, tile in marked_spellings.items():
            if letters.startswith(spelling, index):
                yield f"[{tile}]", len(spelling)
                index += len(spelling)
                break
        else:
            yield letters[index], 1
            index += 1


def unmatched_lines(lines: re.Pattern[str], text: str) -> Iterator[int]:
    """The indexes of the lines of ``text`` (joined by line feeds) that are not good lines, where
    ``lines`` matches any run of good lines, each with its line feed (``(?:WORD\\n)*``): one match
    runs over each stretch of good lines between two others, so a text of good lines costs one."""
    text += "\n"
    position = 0
    index = 0
    while True:
        good = lines.match(text, position)  # it matches at any position, if only no line
        end = len(text) if good is None else good.end()
        if end == len(text):
            return
        index += text.count("\n", position, end)
        yield index
        position = text.index("\n", end) + 1
        index += 1


def tiles_of(stored: str) -> list[str]:
    """A stored spelling as its tiles, brackets taken off (for judges' screens and lines)."""
    return [unit.strip("[]") for unit in re.findall(r"\[[^\]]*\]|.", stored)]


def _accents(table: str) -> dict[str, str]:
    """``"ÀÂ:A ÉÈ:E"`` as a fold table."""
    folds: dict[str, str] = {}
    for group in table.split():
        chars, letters = group.split(":")
        for char in chars:
            folds[char] = letters
    return folds


_AZ = tuple(ASCII_LETTERS)
# Zyzzyva's FISE graphs and lists write the Spanish tiles CH, LL, RR and Ñ as the digits 1-4
FISE_GRAPH_DIGITS: Mapping[str, str] = MappingProxyType({"1": "CH", "2": "LL", "3": "RR", "4": "Ñ"})
QWERTY = ("Q W E R T Y U I O P", "A S D F G H J K L", "Z X C V B N M")

ENGLISH = Alphabet(
    name="english",
    title=marked("English (A-Z)"),
    called=marked("the English alphabet"),
    tiles=_AZ,
    keyboard=QWERTY,
    layout="us",
    federation="NASPA, WESPA, ABSP",
    rules="26 tiles A-Z, each one letter.",
)
DEFAULT_ALPHABET = ENGLISH.name


def _profiles() -> tuple[Alphabet, ...]:
    spanish_tiles = (
        *"ABC", "CH", *"DEFGHIJL", "LL", *"MNÑOPQR", "RR", *"STUVXYZ"
    )  # fmt: skip
    catalan_tiles = (
        *"ABCÇDEFGHIJL", "L·L", *"MN", "NY", *"OP", "QU", *"RSTUVXZ"
    )  # fmt: skip
    return (
        ENGLISH,
        Alphabet(
            name="french",
            title=marked("French (A-Z, accents typed fold away)"),
            called=marked("the French alphabet"),
            tiles=_AZ,
            folds=_accents("ÀÂÄ:A Ç:C ÉÈÊË:E ÎÏ:I ÔÖ:O ÙÛÜ:U Ÿ:Y Œ:OE Æ:AE"),
            keyboard=("A Z E R T Y U I O P", "Q S D F G H J K L M", "W X C V B N"),
            layout="fr",
            federation="FISF (Fédération internationale de Scrabble francophone)",
            rules=(
                "26 tiles A-Z, each one letter; the ODS writes words without accents, Œ and Æ as two "
                "letters: a typed É is E, Ç is C, Œ is OE. No tile has two letters. AZERTY keyboards "
                "(France, Belgium: layouts fr, be); Swiss players' QWERTZ (ch(fr)) types the same."
            ),
        ),
        Alphabet(
            name="spanish",
            title=marked("Spanish (FISE: CH, LL, RR and Ñ)"),
            called=marked("the Spanish alphabet"),
            tiles=spanish_tiles,
            folds=_accents("Á:A É:E Í:I Ó:O ÚÜ:U"),
            graph_digits=FISE_GRAPH_DIGITS,
            keyboard=("Q E R RR T Y U I O P", "A S D F G H J L LL Ñ", "Z X C CH V B N M"),
            layout="es",
            federation="FISE (Federación Internacional de Scrabble en Español)",
            rules=(
                "CH, LL and RR are tiles of their own, and Ñ; there is no K or W tile. FISE's rules "
                "(Reglamento, 'Letras dobles') do not allow a C and an H tile in place of the CH tile, "
                "nor two L tiles for LL, nor two R tiles for RR. Typed CH, LL and RR are those tiles "
                "(CHALLA is CH A LL A); C+H, L+L, R+R (the separator key, + beside P on a Spanish "
                "keyboard) are two single tiles side by side, as a board holding them would show. On "
                "the touch keyboard the CH, LL and RR keys are the tiles; C then H are two tiles. Ñ "
                "is typed ñ, or n followed by a combining tilde (U+0303)."
            ),
        ),
        Alphabet(
            name="catalan",
            title=marked("Catalan (Ç, L·L, NY, QU)"),
            called=marked("the Catalan alphabet"),
            tiles=catalan_tiles,
            folds=_accents("À:A ÉÈ:E ÍÏ:I ÒÓ:O ÚÜ:U Ŀ:L·"),
            typed={"L·L": ("L.L",)},
            marks="·.",
            keyboard=("QU E R T U I O P", "A S D F G H J L L·L Ç", "Z X C V B N NY M"),
            layout="es(cat)",
            federation="AJUSC (Associació de Jugadors de Scrabble en Català), FISC",
            rules=(
                "Ç, L·L (the ela geminada), NY and QU are tiles of their own; there is no K, W or Y "
                "tile, and Q only in QU. The ela palatal LL (CALL, CAVALL, CASTELL) is two L tiles. "
                "Typed L·L (Shift+3 on a Spanish or Catalan keyboard gives ·), L.L or ŀl is the L·L "
                "tile; typed LL is two L tiles; NY and QU are always their tiles (N and Y, Q and U "
                "are not tiles apart). On the touch keyboard the L·L, NY and QU keys are the tiles; "
                "L then L are two L tiles."
            ),
        ),
        Alphabet(
            name="italian",
            title=marked("Italian (A-Z, accents typed fold away)"),
            called=marked("the Italian alphabet"),
            tiles=_AZ,
            folds=_accents("ÀÁ:A ÈÉ:E ÌÍÎ:I ÒÓ:O ÙÚ:U"),
            keyboard=QWERTY,
            layout="it",
            federation="FIGS (Federazione Italiana Gioco Scrabble)",
            rules=(
                "Each tile is one letter (FIGS's set of 120 has no J, K, W, X or Y; the ZINGA list "
                "writes its words in A-Z, and the profile takes all 26 so that none is refused). "
                "Accents typed fold away (È is E). Words may be longer than 15 letters."
            ),
        ),
        Alphabet(
            name="polish",
            title=marked("Polish (32 letters)"),
            called=marked("the Polish alphabet"),
            tiles=tuple("AĄBCĆDEĘFGHIJKLŁMNŃOÓPRSŚTUWYZŹŻ"),
            keyboard=("W E Ę R T Y U I O Ó P", "A Ą S Ś D F G H J K L Ł", "Z Ź Ż C Ć B N Ń M"),
            layout="pl",
            federation="PFS (Polska Federacja Scrabble)",
            rules=(
                "32 tiles, each one letter, nine with diacritics (Ą Ć Ę Ł Ń Ó Ś Ź Ż); no Q, V or X. "
                "CH, CZ, RZ, SZ, DZ are two tiles each. Polish keyboards (programmer's layout, pl) "
                "type the diacritics with AltGr: AltGr+A is Ą, AltGr+X is Ź."
            ),
        ),
        Alphabet(
            name="german",
            title=marked("German (A-Z with Ä, Ö, Ü)"),
            called=marked("the German alphabet"),
            tiles=tuple("AÄBCDEFGHIJKLMNOÖPQRSTUÜVWXYZ"),
            folds={"ß": "SS", "ẞ": "SS"},
            keyboard=("Q W E R T Z U I O P Ü", "A S D F G H J K L Ö Ä", "Y X C V B N M"),
            layout="de",
            federation="Scrabble Deutschland e.V.",
            rules=(
                "A-Z with Ä, Ö and Ü as tiles of their own (never AE, OE, UE); ß is played as SS. "
                "No tile has two letters. QWERTZ keyboards (de; Austria de, Switzerland ch)."
            ),
        ),
    )


@functools.cache
def alphabets() -> Mapping[str, Alphabet]:
    """Every profile by name, made the first time a pack or a command asks (not at import: an
    English station never builds the others' tables)."""
    return MappingProxyType({a.name: a for a in _profiles()})


def alphabet_named(name: str) -> Alphabet | None:
    """The profile called ``name`` (``"spanish"``), or None if there is no such profile."""
    return alphabets().get(name)
