"""Recipes: a TOML file that says which word lists make a pack, and how.

Example (the 2014 school championship: OSPD4, plus words of 9+ letters from MW11)::

    name = "School 2014"
    edition = "2014-01-30"
    description = "OSPD4 plus MW11 words of 9 letters or more"
    max_length = 15                   # optional; 15 is the board
    additions = ["QAJAQ"]             # optional words added after the sources
    removals = []                     # optional words taken out after the sources
    known_editions = ["editions.tsv"] # optional: tables of editions to recognise, beside the built-in one
    alphabet = "english"              # optional: the tiles the words are spelt in (spanish, catalan...)

    [[sources]]
    path = "ospd4.txt"                # relative to the recipe file

    [[sources]]
    path = "mw11.txt"
    min_length = 9

    [youth_exclusions]                # optional: words a youth division must not accept
    path = "youth.txt"

A recipe whose sources must be a published edition as it is says so: ``expect = "CSW21"`` (a known
edition's name, or ``"sha256:"`` and the digest of the set); the build then fails, saying how the
set differs by length, unless the set (or, with a youth list, the set with it applied) is that one.

``alphabet`` names the profile the lists are read in (``kiosk.core.words.alphabet``: english, the
default, french, spanish, catalan, italian, polish, german); lengths then count its tiles, and
additions and removals are spelt as its lists spell words.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kiosk.core.errors import InputError, SourceError
from kiosk.core.files.kind import Role, refusal_for_bytes
from kiosk.core.packs.pack import MAX_DESCRIPTION_CHARS, MAX_NAME_CHARS, text_problem
from kiosk.core.words.alphabet import ENGLISH, Alphabet, alphabets
from kiosk.core.words.normalise import BOARD_MAX_LETTERS, MAX_WORD_LETTERS, MIN_WORD_LETTERS, normalise_listed
from lexicon_build.reader import ListFormat

__all__ = ["Recipe", "SourceSpec", "alphabet_for", "load_recipe"]


@dataclass(frozen=True)
class SourceSpec:
    path: Path
    list_format: ListFormat = ListFormat.AUTO
    min_length: int | None = None
    max_length: int | None = None


@dataclass(frozen=True)
class Recipe:
    name: str
    sources: tuple[SourceSpec, ...]
    edition: str = ""
    description: str = ""
    max_length: int = BOARD_MAX_LETTERS
    youth_exclusions: SourceSpec | None = None
    additions: tuple[str, ...] = field(default=())
    removals: tuple[str, ...] = field(default=())
    expect: str | None = None
    known_editions: tuple[Path, ...] = field(default=())
    alphabet: Alphabet = ENGLISH

    def __post_init__(self) -> None:
        if not self.name.strip():
            raise SourceError('a pack needs a name (--name, or name = "..." in the recipe)')
        if not self.sources:
            raise SourceError("a pack needs at least one source word list")
        for label, text, most in (
            ("name", self.name, MAX_NAME_CHARS),
            ("edition", self.edition, MAX_NAME_CHARS),
            ("description", self.description, MAX_DESCRIPTION_CHARS),
        ):
            problem = text_problem(text, most)
            if problem is not None:
                raise SourceError(f"the pack's {label} cannot be shown on a station: {problem}")
        if not MIN_WORD_LETTERS <= self.max_length <= MAX_WORD_LETTERS:
            raise SourceError(
                f"max_length must be between {MIN_WORD_LETTERS} and {MAX_WORD_LETTERS}, not {self.max_length}"
            )


_TOP_KEYS = {
    "name",
    "edition",
    "description",
    "max_length",
    "additions",
    "removals",
    "sources",
    "youth_exclusions",
    "expect",
    "known_editions",
    "alphabet",
}
_SOURCE_KEYS = {"path", "format", "min_length", "max_length"}


_KIND_NAMES = {int: "whole number", str: "quoted text", list: "list [...]", dict: "table"}


def _expect(value: Any, kind: type, where: str) -> Any:
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise SourceError(f"{where} must be a {_KIND_NAMES[kind]}, not {value!r}")
    return value


def _source(table: Any, base: Path, where: str) -> SourceSpec:
    table = _expect(table, dict, where)
    unknown = sorted(set(table) - _SOURCE_KEYS)
    if unknown:
        raise SourceError(
            f"{where}: unknown key {unknown[0]!r}; the keys here are: {', '.join(sorted(_SOURCE_KEYS))}"
        )
    if "path" not in table:
        raise SourceError(f"{where}: missing 'path' (the word-list file)")
    fmt_name = _expect(table.get("format", "auto"), str, f"{where}.format")
    try:
        fmt = ListFormat(fmt_name)
    except ValueError:
        raise SourceError(f"{where}.format must be auto, plain, zyzzyva or dwg, not {fmt_name!r}") from None
    lengths = {
        key: None if key not in table else _expect(table[key], int, f"{where}.{key}")
        for key in ("min_length", "max_length")
    }
    return SourceSpec(
        path=(base / _expect(table["path"], str, f"{where}.path")),
        list_format=fmt,
        min_length=lengths["min_length"],
        max_length=lengths["max_length"],
    )


def alphabet_for(name: str, where: str) -> Alphabet:
    """The alphabet profile called ``name``; SourceError naming ``where`` and the profiles there are."""
    found = alphabets().get(name.strip().lower())
    if found is None:
        raise SourceError(f"{where}: there is no alphabet {name!r}; use one of {', '.join(alphabets())}")
    return found


def _words(values: Any, where: str, alphabet: Alphabet) -> tuple[str, ...]:
    words = []
    for index, value in enumerate(_expect(values, list, where)):
        try:
            word = normalise_listed(_expect(value, str, f"{where}[{index}]"), alphabet=alphabet)
        except InputError as exc:
            raise SourceError(f"{where}[{index}]: {exc}") from exc
        if alphabet.tile_count(word) > MAX_WORD_LETTERS:
            raise SourceError(f"{where}[{index}]: longer than any pack's words ({MAX_WORD_LETTERS} tiles)")
        words.append(word)
    return tuple(words)


def recipe_from_mapping(data: Mapping[str, Any], base: Path, where: str) -> Recipe:
    unknown = sorted(set(data) - _TOP_KEYS)
    if unknown:
        raise SourceError(
            f"{where}: unknown key {unknown[0]!r}; the keys here are: {', '.join(sorted(_TOP_KEYS))}"
        )
    sources = _expect(data.get("sources", []), list, f"{where}: sources")
    youth = data.get("youth_exclusions")
    expect = data.get("expect")
    tables = _expect(data.get("known_editions", []), list, f"{where}: known_editions")
    alphabet = alphabet_for(
        _expect(data.get("alphabet", "english"), str, f"{where}: alphabet"), f"{where}: alphabet"
    )
    return Recipe(
        name=_expect(data.get("name", ""), str, f"{where}: name"),
        edition=_expect(data.get("edition", ""), str, f"{where}: edition"),
        description=_expect(data.get("description", ""), str, f"{where}: description"),
        max_length=_expect(data.get("max_length", BOARD_MAX_LETTERS), int, f"{where}: max_length"),
        sources=tuple(_source(s, base, f"{where}: sources[{i}]") for i, s in enumerate(sources)),
        youth_exclusions=None if youth is None else _source(youth, base, f"{where}: youth_exclusions"),
        additions=_words(data.get("additions", []), f"{where}: additions", alphabet),
        removals=_words(data.get("removals", []), f"{where}: removals", alphabet),
        expect=None if expect is None else _expect(expect, str, f"{where}: expect"),
        known_editions=tuple(
            base / _expect(table, str, f"{where}: known_editions[{i}]") for i, table in enumerate(tables)
        ),
        alphabet=alphabet,
    )


def load_recipe(path: Path) -> Recipe:
    """Read a recipe; paths inside it are relative to the recipe's own folder.

    A file of another kind (a word list, a pack, a station configuration...) is refused with what
    it is and what to do with it.
    """
    try:
        data = path.read_bytes()
    except FileNotFoundError as exc:
        raise SourceError(f"{path}: no such recipe file") from exc
    except OSError as exc:
        raise SourceError(f"{path}: cannot be read ({exc.strerror or exc})") from exc
    problem = refusal_for_bytes(data, str(path), Role.RECIPE)
    if problem is not None:
        raise SourceError(problem)
    try:
        table = tomllib.loads(data.decode("utf-8-sig"))
    except tomllib.TOMLDecodeError as exc:
        raise SourceError(f"{path}: not valid TOML ({exc})") from exc
    except UnicodeDecodeError as exc:
        raise SourceError(f"{path}: not UTF-8 text; save the recipe as UTF-8") from exc
    return recipe_from_mapping(table, path.parent, str(path))
