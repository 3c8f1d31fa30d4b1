"""Alphabet profiles: a federation's tiles, how players type them, and how lists write them.

A pack declares its alphabet (``PackInfo.alphabet``); the one normaliser (``kiosk.core.normalise``)
takes the profile as data, so no code anywhere branches on a language. A profile is:

* its **tiles**, in the order a touch keyboard shows them. A tile is one letter (``A``, ``Ñ``,
  ``Ą``) or several (``CH``, ``L·L``, ``NY``): a multi-letter tile is *written* in lists and on
  screen as its letters, and may be *typed* other ways as well (Catalan ``L·L`` as ``L.L`` or
  ``LL``);
* its **folds**: what a typed character stands for before tiles are read (lower case, full-width
  Latin letters, French ``É`` → ``E`` and ``Œ`` → ``OE``, German ``ß`` → ``SS``). Every character
  that is neither a fold nor one of the profile's marks (Catalan ``·`` and ``.``) is refused by
  name, whatever the profile: a Cyrillic ``\u0410`` is never an ``A``;
* for Zyzzyva word graphs, the digits that stand for tiles (FISE: 1-4 for CH, LL, RR, Ñ).

A pack stores each word as its tiles, one after another: a one-letter tile as its letter, a
multi-letter tile in brackets (``[CH]A[LL]APATEÑA``, the notation of woogles and macondo), so the
stored form never hesitates between ``[LL]`` and ``L`` ``L``. An English word is stored exactly as
before (A-Z), and so is its digest.

Typed letters may be read as tiles in more than one way (Spanish ``LL``: the tile LL, or two Ls;
Catalan ``LL``: the tile L·L, or two Ls). The normaliser keeps such letters as typed (a *pattern*:
loose letters, and in brackets the tiles typed unmistakably, Catalan ``L·L``); ``spellings`` then
asks the pack which readings exist. Length limits count tiles, never letters.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from kiosk.core.language import marked

__all__ = [
    "DEFAULT_ALPHABET",
    "ENGLISH",
    "FISE_GRAPH_DIGITS",
    "Alphabet",
    "alphabet_named",
    "alphabets",
    "tiles_of",
]

ASCII_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_FULLWIDTH_OFFSET = 0xFF21 - ord("A")  # U+FF21 FULLWIDTH LATIN CAPITAL LETTER A
_FULLWIDTH_SMALL_OFFSET = 0xFF41 - ord("A")


@dataclass(frozen=True, eq=False)  # profiles are made once each: one is equal only to itself
class Alphabet:
    """One federation's tiles, as data.

    ``tiles``: each tile as lists and screens write it, in keyboard order. ``folds``: typed
    characters (upper case; lower case and full-width forms are derived) and the letters they stand
    for. ``typed``: further spellings players use for a multi-letter tile. ``marks``: characters
    kept in typed words only inside a tile's spelling (Catalan ``·``). ``graph_digits``: a Zyzzyva
    graph's digits and the tiles they stand for.
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
    # derived from the fields above, once, by __post_init__
    _typed_chars: Mapping[str, str] = field(init=False, repr=False, compare=False)
    _loose: Mapping[str, tuple[str, ...]] = field(init=False, repr=False, compare=False)
    _written: Mapping[str, tuple[str, ...]] = field(init=False, repr=False, compare=False)
    _marked: Mapping[str, str] = field(init=False, repr=False, compare=False)
    _longest: int = field(init=False, repr=False, compare=False)
    _tile_set: frozenset[str] = field(init=False, repr=False, compare=False)
    _fold_table: Mapping[int, str] = field(init=False, repr=False, compare=False)
    _typed_word: re.Pattern[str] = field(init=False, repr=False, compare=False)
    _written_multi: re.Pattern[str] = field(init=False, repr=False, compare=False)
    _stored_word: re.Pattern[str] = field(init=False, repr=False, compare=False)
    _loose_multi: re.Pattern[str] = field(init=False, repr=False, compare=False)
    _simple: bool = field(init=False, repr=False, compare=False)
    _bracket_letters: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # Derived tables, computed once per profile (profiles are made once, in ``alphabets()``).
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
        object.__setattr__(self, "_typed_chars", MappingProxyType(typed_chars))
        multi = tuple(tile for tile in self.tiles if len(tile) > 1)
        # what loose letters can be read as: every tile by its letters, and its typed spellings
        readings: dict[str, list[str]] = {}
        for tile in self.tiles:
            for spelling in (tile, *self.typed.get(tile, ())):
                if not any(mark in spelling for mark in self.marks):
                    readings.setdefault(spelling, []).append(tile)
        object.__setattr__(self, "_loose", MappingProxyType({k: tuple(v) for k, v in readings.items()}))
        written = {tile: (tile,) for tile in self.tiles if not any(m in tile for m in self.marks)}
        object.__setattr__(self, "_written", MappingProxyType(written))
        marked_spellings = {
            spelling: tile
            for tile in multi
            for spelling in (tile, *self.typed.get(tile, ()))
            if any(mark in spelling for mark in self.marks)
        }
        object.__setattr__(self, "_marked", MappingProxyType(marked_spellings))
        object.__setattr__(self, "_longest", max(map(len, readings)) if readings else 1)
        object.__setattr__(self, "_tile_set", frozenset(self.tiles))
        object.__setattr__(self, "_simple", all(len(tile) == 1 for tile in self.tiles))
        # when every multi-letter tile has as many letters (Spanish CH, LL, RR: 2), a stored word's
        # tiles are counted from its brackets alone; else 0 (Catalan L·L beside NY), and tile_count
        # reads the tiles
        sizes = {len(tile) for tile in multi}
        object.__setattr__(self, "_bracket_letters", sizes.pop() if len(sizes) == 1 else 0)
        # the fast road for a list's words: fold, bracket the written multi-letter tiles, check
        object.__setattr__(self, "_fold_table", MappingProxyType({ord(c): v for c, v in typed_chars.items()}))
        typed_class = "".join(re.escape(c) for c in typed_chars)
        object.__setattr__(self, "_typed_word", re.compile(f"[{typed_class}]+"))
        multi_written = sorted((t for t in multi), key=len, reverse=True)
        object.__setattr__(
            self, "_written_multi", re.compile("|".join(map(re.escape, multi_written)) or "(?!)")
        )
        singles = "".join(re.escape(t) for t in self.tiles if len(t) == 1)
        bracketed = "|".join(re.escape(f"[{t}]") for t in multi_written)
        unit = f"(?:{bracketed}|[{singles}])" if bracketed else f"[{singles}]"
        object.__setattr__(self, "_stored_word", re.compile(f"{unit}{{2,}}"))
        loose_multi = sorted((k for k in readings if len(k) > 1), key=len, reverse=True)
        object.__setattr__(self, "_loose_multi", re.compile("|".join(map(re.escape, loose_multi)) or "(?!)"))

    # --- what the profile is -------------------------------------------------------------------

    @property
    def simple(self) -> bool:
        """Every tile is one letter: a word's letters are its tiles (English, French, Polish...)."""
        return self._simple

    @property
    def takes_ascii_as_typed(self) -> bool:
        """Whether every word of the letters A-Z is, upper-cased, its own stored spelling (English,
        French, Italian, German): the fast roads for plain A-Z text apply."""
        return self.simple and all(letter in self._tile_set for letter in ASCII_LETTERS)

    @property
    def letters_shown(self) -> str:
        """The tiles for people: ``A B C CH D ... Z``."""
        return " ".join(self.tiles)

    def typed_char(self, char: str) -> str | None:
        """What one typed character stands for (letters, or a mark), or None if it is refused."""
        return self._typed_chars.get(char)

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

    # --- typed words (patterns) ----------------------------------------------------------------

    def pattern_of(self, letters: str) -> tuple[str, list[int]]:
        """Folded typed letters as a pattern (each marked spelling, Catalan ``L·L`` or ``L.L``, a
        tile in brackets), and for each unit of the pattern the index in ``letters`` it starts at.
        A mark that makes no tile stays, and no reading gets past it."""
        pattern: list[str] = []
        starts: list[int] = []
        index = 0
        for unit in _marked_units(letters, self._marked):
            pattern.append(unit)
            starts.append(index)
            index += len(unit) - 2 if unit.startswith("[") else 1
        return "".join(pattern), starts

    def pattern_units(self, pattern: str) -> list[str]:
        """A pattern as units: each loose letter, and each bracketed tile (without brackets)."""
        units: list[str] = []
        index = 0
        while index < len(pattern):
            if pattern[index] == "[":
                end = pattern.index("]", index)
                units.append(pattern[index : end + 1])
                index = end + 1
            else:
                units.append(pattern[index])
                index += 1
        return units

    def _steps(
        self, units: Sequence[str], start: int, table: Mapping[str, tuple[str, ...]] | None = None
    ) -> Iterator[tuple[str, int]]:
        """Each tile that can be read at ``units[start]``, and where reading goes on after it:
        a bracketed unit is its tile; loose letters are read by ``table`` (typed spellings unless
        another is given)."""
        unit = units[start]
        if unit.startswith("["):
            yield unit[1:-1], start + 1
            return
        readings = self._loose if table is None else table
        letters = ""
        for end in range(start, min(len(units), start + self._longest)):
            if units[end].startswith("["):
                break
            letters += units[end]
            for tile in readings.get(letters, ()):
                yield tile, end + 1

    def _longest_first(
        self, units: Sequence[str], table: Mapping[str, tuple[str, ...]] | None = None
    ) -> tuple[str, ...] | int:
        """One reading of ``units``: the longest tile first wherever the rest can still be read;
        if there is none, the index of the furthest unit any reading from the start gets to."""
        size = len(units)
        readable = [False] * (size + 1)
        readable[size] = True
        for start in range(size - 1, -1, -1):
            readable[start] = any(readable[after] for _, after in self._steps(units, start, table))
        if not readable[0]:
            reached = {0}
            for start in range(size):
                if start in reached:
                    reached.update(after for _, after in self._steps(units, start, table))
            return max(reached)
        tiles: list[str] = []
        index = 0
        while index < size:
            tile, index = max(
                (step for step in self._steps(units, index, table) if readable[step[1]]),
                key=lambda step: step[1],
            )
            tiles.append(tile)
        return tuple(tiles)

    def tile_range(self, pattern: str) -> tuple[int, int] | int:
        """The fewest and the most tiles a pattern can be read as; if none, the index of the first
        unit no reading gets past (a letter that makes no tile there, Catalan Q without U)."""
        units = self.pattern_units(pattern)
        size = len(units)
        best: list[tuple[int, int] | None] = [None] * (size + 1)
        best[size] = (0, 0)
        for start in range(size - 1, -1, -1):
            counts = [rest for _, after in self._steps(units, start) if (rest := best[after]) is not None]
            if counts:
                best[start] = (min(c[0] for c in counts) + 1, max(c[1] for c in counts) + 1)
        found = best[0]
        if found is not None:
            return found
        failed = self._longest_first(units)
        return failed if isinstance(failed, int) else 0  # pragma: no branch - best[0] agrees

    def shown_tiles(self, pattern: str) -> tuple[str, ...]:
        """One reading of a pattern for the screen: the longest tile first wherever the rest can
        still be read (``CH·A·LL·A·P·A·T·E·Ñ·A``). Letters no reading takes (a word still being
        typed, Catalan ``Q``) are shown one by one, after the part that can be read."""
        units = self.pattern_units(pattern)
        for cut in range(len(units), -1, -1):
            tiles = self._longest_first(units[:cut])
            if not isinstance(tiles, int):
                return tiles + tuple(unit.strip("[]") for unit in units[cut:])
        return ()  # pragma: no cover - an empty prefix always reads

    def display_tiles(self, word: str) -> tuple[str, ...]:
        """A word on a player's screen, typed letters or a normalised pattern alike, as tiles read
        the first way (never from the pack: the screen must not depend on which words it holds)."""
        if self.simple:
            return tuple(word)
        return self.shown_tiles(word if "[" in word else self.pattern_of(word)[0])

    def last_tile_start(self, letters: str) -> int:
        """Where in typed ``letters`` the last tile shown begins (Backspace takes it off whole)."""
        if self.simple or not letters:
            return max(0, len(letters) - 1)
        pattern, starts = self.pattern_of(letters)
        units = self.pattern_units(pattern)
        shown = self.shown_tiles(pattern)
        last = shown[-1] if shown else ""
        if units[-1].startswith("["):
            return starts[-1]
        # the last tile shown covers the last few loose letters that spell it
        for taken in range(min(self._longest, len(units)), 0, -1):
            spelt = units[-taken:]
            if not any(u.startswith("[") for u in spelt) and last in self._loose.get("".join(spelt), ()):
                return starts[len(units) - taken]
        return starts[-1]

    def spellings(
        self,
        pattern: str,
        has_prefix: Callable[[str], bool],
        holds: Callable[[str], bool],
        max_tiles: int,
    ) -> Iterator[str]:
        """Every reading of ``pattern`` a pack holds (``holds``), found by walking the readings
        and leaving any whose beginning no word of the pack has (``has_prefix``)."""
        if "[" not in pattern and self._loose_multi.search(pattern) is None:
            # no letters that spell a multi-letter tile: the word's only reading is its letters
            if (
                self._stored_word.fullmatch(pattern) is not None
                and len(pattern) <= max_tiles
                and holds(pattern)
            ):
                yield pattern
            return
        units = self.pattern_units(pattern)
        size = len(units)
        pending: list[tuple[int, str, int]] = [(0, "", 0)]
        while pending:
            index, spelt, count = pending.pop()
            while True:  # one reading only: go on without asking the pack
                if index == size:
                    if holds(spelt):
                        yield spelt
                    break
                if count >= max_tiles:
                    break
                steps = list(self._steps(units, index))
                if len(steps) == 1:
                    tile, index = steps[0]
                    spelt += tile if len(tile) == 1 else f"[{tile}]"
                    count += 1
                    continue
                for tile, after in steps:  # letters read two ways: each, if a word starts so
                    longer = spelt + (tile if len(tile) == 1 else f"[{tile}]")
                    if has_prefix(longer):
                        pending.append((after, longer, count + 1))
                break

    # --- words as lists write them -------------------------------------------------------------

    def listed_at_once(self, raw: str) -> str | None:
        """A list's word (no brackets) as stored, by a few passes of C code, or None if it needs
        ``listed_tiles`` (a character to refuse, letters that make no tile, brackets, fewer than
        two tiles): the same result as the careful road wherever this one gives one."""
        if self._typed_word.fullmatch(raw) is None:
            return None
        folded = raw.translate(self._fold_table)
        stored = self._written_multi.sub(lambda found: f"[{found.group()}]", folded)
        return stored if self._stored_word.fullmatch(stored) is not None else None

    def is_stored(self, word: str) -> bool:
        """Whether ``word`` is a spelling as packs store it, of two tiles or more (the walk's check)."""
        return self._stored_word.fullmatch(word) is not None

    def listed_tiles(self, letters: str) -> tuple[str, ...] | int:
        """A word as a list writes it (folded letters and marks, or tiles in brackets): its tiles.

        Without brackets, each multi-letter tile is read where its written letters stand (``CH``
        in a Spanish list is the tile CH; ``LL`` in a Catalan list two Ls, its tile being written
        ``L·L``), longest first where the rest can still be read. With brackets, as stored: a
        bracket holds one tile, every other letter is a tile of its own. On failure, the index of
        the first character no reading gets past.
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
        units = list(_marked_units(letters, self._marked))
        read = self._longest_first(units, self._written)
        if isinstance(read, int):  # the unit's index, as the index of its first character
            return sum(len(unit) - 2 if unit.startswith("[") else 1 for unit in units[:read])
        return read


_BRACKETED = re.compile(r"\[([^\]]*)\]")


def _marked_units(letters: str, marked_spellings: Mapping[str, str]) -> Iterator[str]:
    """Letters with each marked spelling (``L·L``, ``L.L``) made one bracketed unit."""
    index = 0
    while index < len(letters):
        for spelling, tile in marked_spellings.items():
            if letters.startswith(spelling, index):
                yield f"[{tile}]"
                index += len(spelling)
                break
        else:
            yield letters[index]
            index += 1


def tiles_of(pattern: str) -> list[str]:
    """A stored spelling or a pattern as its units, brackets taken off (for judges' screens)."""
    return [unit.strip("[]") for unit in re.findall(r"\[[^\]]*\]|.", pattern)]


def _accents(table: str) -> dict[str, str]:
    """``"ÀÂ:A ÉÈ:E"`` as a fold table."""
    folds: dict[str, str] = {}
    for group in table.split():
        chars, letters = group.split(":")
        for char in chars:
            folds[char] = letters
    return folds


_AZ = tuple(ASCII_LETTERS)
# Zyzzyva's FISE graphs write the Spanish tiles CH, LL, RR and Ñ as the digits 1-4
FISE_GRAPH_DIGITS: Mapping[str, str] = MappingProxyType({"1": "CH", "2": "LL", "3": "RR", "4": "Ñ"})

ENGLISH = Alphabet(
    name="english", title=marked("English (A-Z)"), tiles=_AZ, called=marked("the English alphabet")
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
        ),
        Alphabet(
            name="spanish",
            title=marked("Spanish (FISE: CH, LL, RR and Ñ)"),
            called=marked("the Spanish alphabet"),
            tiles=spanish_tiles,
            folds=_accents("Á:A É:E Í:I Ó:O ÚÜ:U"),
            graph_digits=FISE_GRAPH_DIGITS,
        ),
        Alphabet(
            name="catalan",
            title=marked("Catalan (Ç, L·L, NY, QU)"),
            called=marked("the Catalan alphabet"),
            tiles=catalan_tiles,
            folds=_accents("À:A ÉÈ:E ÍÏ:I ÒÓ:O ÚÜ:U Ŀ:L·"),
            typed={"L·L": ("L.L", "LL")},
            marks="·.",
        ),
        Alphabet(
            name="italian",
            title=marked("Italian (A-Z, accents typed fold away)"),
            called=marked("the Italian alphabet"),
            tiles=_AZ,
            folds=_accents("ÀÁ:A ÈÉ:E ÌÍÎ:I ÒÓ:O ÙÚ:U"),
        ),
        Alphabet(
            name="polish",
            title=marked("Polish (32 letters)"),
            called=marked("the Polish alphabet"),
            tiles=tuple("AĄBCĆDEĘFGHIJKLŁMNŃOÓPRSŚTUWYZŹŻ"),
        ),
        Alphabet(
            name="german",
            title=marked("German (A-Z with Ä, Ö, Ü)"),
            called=marked("the German alphabet"),
            tiles=tuple("AÄBCDEFGHIJKLMNOÖPQRSTUÜVWXYZ"),
            folds={"ß": "SS", "ẞ": "SS"},
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
