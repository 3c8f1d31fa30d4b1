"""The lexicon pack: one self-describing file, verified whole before any trie is parsed.

A corrupt marisa file can crash Python outright or answer wrongly, so nothing of a pack is trusted
until the SHA-256 of its content matches the digest stored after it. Layout (little-endian)::

    offset  size  what
    0       8     MAGIC  b"KXLEXPK\\n"
    8       4     FORMAT_VERSION (uint32)
    12      8     content length C: bytes 0..C are covered by the digest (uint64)
    20      4     manifest length M (uint32), at most MAX_MANIFEST_BYTES
    24      M     manifest: canonical JSON (sorted keys, UTF-8)
    24+M    ...   sections, back to back, in the order the manifest lists them, each stored as
                  a zlib stream (the manifest gives its stored length and its unpacked size)
    C       32    SHA-256 of bytes 0..C
    C+32    104   optional signature block: SIGNATURE_MAGIC, Ed25519 public key (32),
                  Ed25519 signature (64) over bytes 0..C+32

A file is exactly C+32 bytes, or exactly C+136 with a signature block; anything missing, altered
or appended is refused. The same manifest and sections always give the same bytes.

Reading is in three steps, each trusting nothing the step before did not prove:

1. ``open_pack`` / ``read_sealed``: the header, bounded before anything is read whole (a file over
   ``MAX_PACK_BYTES``, or a manifest over ``MAX_MANIFEST_BYTES``, is refused from its first 24
   bytes), the length, the digest and the signature block. Nothing is parsed: a ``SealedPack``.
2. ``kiosk.core.packs.trust.check_pack_signature``: the signature against the station's trusted keys,
   so that a station with ``[[trusted_keys]]`` parses nothing a stranger wrote.
3. ``unseal``: the manifest, every field checked for type, range and consistency before it is
   used (``MANIFEST_FIELDS``), then the sections unpacked, never beyond their stated size.

The digest proves no accident; whoever recomputes it can write any bytes, and a trie whose digest
was recomputed after an edit can crash marisa. So the tries are not parsed here at all: the
verification walk (``kiosk.core.packs.verification``) parses them in a process of its own, proves
them to be the tries the builder makes from the words they hold, and recomputes the word set's digest.

Format 3 (this one) made the manifest strict (unknown keys refused), added the digest and counts
of the set a youth division rules with (``school_set_hash``) and the known-edition lines a signed
pack may carry; format 2 stored sections as zlib streams. Sections are compressed: marisa's own
settings shrink its trie by ~1.5 % at best, zlib by ~25 %, which takes a Collins-sized pack from
0.90 x Zyzzyva's word graph of the same words to ~0.68 x, for ~4 ms of unpacking at load
(``bench/bench_pack_encoding.py`` measures every option); zlib's own check (Adler-32) then stands
before marisa as a further, weaker, barrier.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import struct
import unicodedata
import zlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kiosk import __version__
from kiosk.core.edition import CARRIED_SOURCE, KnownEdition, WordSetFacts, edition_from_fields
from kiosk.core.errors import EditionTableError, NotAPackError, PackCorruptError, PackVersionError
from kiosk.core.wording import Text, Wording, marked
from kiosk.core.words.alphabet import ENGLISH, Alphabet, alphabet_named, alphabets
from kiosk.core.words.normalise import MAX_WORD_LETTERS, MIN_WORD_LETTERS, NORMALISER_VERSION

__all__ = [
    "DIGEST_BYTES",
    "FORMAT_VERSION",
    "MAGIC",
    "MAX_MANIFEST_BYTES",
    "MAX_PACK_BYTES",
    "MAX_PACK_WORDS",
    "PUBLIC_KEY_BYTES",
    "SIGNATURE_BLOCK_BYTES",
    "SIGNATURE_BYTES",
    "SIGNATURE_MAGIC",
    "WORDS_SECTION",
    "YOUTH_SECTION",
    "PackContents",
    "PackInfo",
    "SealedPack",
    "SignatureBlock",
    "SourceInfo",
    "encode_pack",
    "encode_signature_block",
    "open_pack",
    "pack_title",
    "parse_pack",
    "read_pack",
    "read_sealed",
    "sorted_words_hash",
    "text_problem",
    "unseal",
    "word_set_hash",
]

MAGIC = b"KXLEXPK\n"
FORMAT_VERSION = 3  # 3: strict manifest, school set, edition lines; 2: sections stored as zlib streams
SIGNATURE_MAGIC = b"KXSIG01\n"
DIGEST_BYTES = 32
PUBLIC_KEY_BYTES = 32
SIGNATURE_BYTES = 64
SIGNATURE_BLOCK_BYTES = len(SIGNATURE_MAGIC) + PUBLIC_KEY_BYTES + SIGNATURE_BYTES
_HEADER = struct.Struct("<8sIQI")
HEADER_BYTES = _HEADER.size
# A Collins pack's manifest is ~1.5 kB; the bound is what the reader may hold before the digest.
MAX_MANIFEST_BYTES = 1 << 20
# A version field above this is a damaged header, not a pack from the future.
MAX_PLAUSIBLE_FORMAT_VERSION = 1000
# A header whose magic differs from MAGIC in at most this many bytes is a damaged pack.
MAGIC_DAMAGE_BYTES = 2
SECTION_ENCODING = "zlib"
WORDS_SECTION = "words"
YOUTH_SECTION = "youth"
# zlib with Huffman coding alone: a marisa trie is mostly bit vectors, in which deflate finds few
# repeated strings to point back to, so leaving that search out costs nothing in size and halves
# the time: a Collins-sized trie to 0.75 x in 10 ms, where level 1 gives 0.77 x in 18 ms and
# level 9 0.74 x in 140 ms; unpacking takes ~4 ms whichever (bench/bench_pack_encoding.py). The
# level does not matter with this strategy. The same zlib always writes the same bytes.
ZLIB_LEVEL = 6
ZLIB_STRATEGY = zlib.Z_HUFFMAN_ONLY
ZLIB_WINDOW_BITS = 15
ZLIB_MEMORY_LEVEL = 8
# A Collins trie unpacks to ~0.75 MB; a section claiming more than this is a forged manifest.
MAX_SECTION_BYTES = 64 << 20
# The most a pack file can be: a manifest and two sections at their largest (zlib never stores more
# than a few bytes per 16 kB above the unpacked size), with room to spare. A Collins pack is 0.6 MB.
MAX_PACK_BYTES = MAX_MANIFEST_BYTES + 3 * MAX_SECTION_BYTES
MAX_PACK_WORDS = 10_000_000  # ten times the largest word list anyone publishes
MAX_NAME_CHARS = 100
MAX_DESCRIPTION_CHARS = 1000
MAX_FILE_NAME_CHARS = 255
MAX_VERSION_CHARS = 40
MAX_SOURCES = 64
MAX_EDITION_LINES = 2  # the full set and the school set: a pack vouches for its own sets only
_SET_HASH = re.compile(r"sha256:[0-9a-f]{64}")
_HEX_DIGEST = re.compile(r"[0-9a-f]{64}")
_LENGTH_KEY = re.compile(r"[1-9][0-9]{0,2}")
# Characters a name shown on a station must not hold: control, format (zero-width, bidi overrides),
# surrogate, private-use and unassigned code points, and line or paragraph separators.
_UNSHOWABLE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
SOURCE_ROLES = ("source", "youth_exclusions")


def text_problem(text: str, max_chars: int) -> str | None:
    """Why ``text`` cannot be a name on a station (too long, or an invisible or control character)."""
    if len(text) > max_chars:
        return f"it is {len(text)} characters long; at most {max_chars}"
    for char in text:
        if unicodedata.category(char) in _UNSHOWABLE_CATEGORIES:
            return f"it holds the character U+{ord(char):04X}, which a screen cannot show"
    return None


def word_set_hash(words: Iterable[str]) -> str:
    """Hash a word set so that the same words give the same hash whatever their order."""
    return sorted_words_hash(sorted(set(words)))


def sorted_words_hash(sorted_words: Sequence[str]) -> str:
    """``word_set_hash`` of words already sorted, each once: SHA-256 of every word and a line feed.

    The definition of ``kiosk.core.edition``: ``LC_ALL=C sort -u list.txt | sha256sum``. Python
    sorts strings by code point, which for UTF-8 is the order of their bytes.
    """
    digest = hashlib.sha256("\n".join(sorted_words).encode("utf-8"))
    if sorted_words:
        digest.update(b"\n")
    return "sha256:" + digest.hexdigest()


@dataclass(frozen=True)
class SourceInfo:
    """One word-list file a pack was built from, as recorded in the manifest."""

    file: str
    sha256: str
    role: str = "source"
    min_length: int | None = None
    max_length: int | None = None
    words: int = 0


def pack_title(name: str, edition: str) -> str:
    """A pack as screens name it: "NWL2023 (2023-09)", or just the name when it has no edition."""
    return f"{name} ({edition})" if edition.strip() else name


@dataclass(frozen=True)
class PackInfo:
    """The manifest: everything a judge or an organiser needs to know about a pack.

    ``set_hash`` is the digest of the pack's words (``kiosk.core.edition``); with a youth list,
    ``youth_set_hash`` is the digest of the exclusions and ``school_set_hash`` (with
    ``school_counts_by_length``) the digest of the words a division with youth rules accepts: the
    set minus the exclusions (NWL2023 with its exclusions is NSWL2023). ``alphabet`` is the profile
    its words are spelt in (``kiosk.core.words.alphabet``); lengths count its tiles. The manifest names
    it only when it is not English, so a pack of A-Z words is the same bytes it always was, and
    a pack from before alphabets (no field) is English. ``known_editions`` are
    lines the builder was given for these sets; a station believes them only from a pack signed by
    a key it trusts.
    """

    name: str
    edition: str
    description: str
    max_length: int
    word_count: int
    counts_by_length: Mapping[int, int]
    youth_exclusion_count: int
    set_hash: str
    youth_set_hash: str | None
    sources: tuple[SourceInfo, ...]
    builder_version: str
    school_set_hash: str | None = None
    school_counts_by_length: Mapping[int, int] | None = None
    known_editions: tuple[KnownEdition, ...] = ()
    format_version: int = FORMAT_VERSION
    normaliser_version: int = NORMALISER_VERSION
    alphabet: Alphabet = ENGLISH

    @property
    def title(self) -> str:
        """Name and edition as shown to people, e.g. ``NWL2023 2023-03``."""
        return f"{self.name} {self.edition}" if self.edition else self.name

    @property
    def word_set(self) -> WordSetFacts:
        """The pack's words as a set to recognise."""
        return WordSetFacts.of(self.set_hash, self.word_count, self.counts_by_length)

    @property
    def school_word_set(self) -> WordSetFacts | None:
        """The words a division with youth rules accepts, or None without a youth list."""
        if self.school_set_hash is None or self.school_counts_by_length is None:
            return None
        return WordSetFacts.of(
            self.school_set_hash, self.word_count - self.youth_exclusion_count, self.school_counts_by_length
        )

    def to_json(self) -> dict[str, Any]:
        def counts(mapping: Mapping[int, int]) -> dict[str, int]:
            return {str(k): v for k, v in sorted(mapping.items())}

        alphabet = {} if self.alphabet is ENGLISH else {"alphabet": self.alphabet.name}
        return alphabet | {
            "name": self.name,
            "edition": self.edition,
            "description": self.description,
            "max_length": self.max_length,
            "word_count": self.word_count,
            "counts_by_length": counts(self.counts_by_length),
            "youth_exclusion_count": self.youth_exclusion_count,
            "set_hash": self.set_hash,
            "youth_set_hash": self.youth_set_hash,
            "school_set_hash": self.school_set_hash,
            "school_counts_by_length": None
            if self.school_counts_by_length is None
            else counts(self.school_counts_by_length),
            "known_editions": [line.to_json() for line in self.known_editions],
            "sources": [
                {
                    "file": s.file,
                    "sha256": s.sha256,
                    "role": s.role,
                    "min_length": s.min_length,
                    "max_length": s.max_length,
                    "words": s.words,
                }
                for s in self.sources
            ],
            "builder_version": self.builder_version,
            "format_version": self.format_version,
            "normaliser_version": self.normaliser_version,
        }

    @classmethod
    def from_json(cls, data: object) -> PackInfo:
        """The manifest's ``pack`` object, every field checked; ValueError says which is wrong."""
        return _pack_info(data)


# --- checking a manifest: every field's type, range and consistency, before any is used ---------


class _Manifest:
    """Typed reads of one JSON object, each raising ValueError that names the field."""

    def __init__(
        self, value: object, where: str, required: frozenset[str], optional: frozenset[str] = frozenset()
    ):
        if not isinstance(value, dict):
            raise ValueError(f"{where} is not an object")
        unknown = sorted(set(value) - required - optional)
        missing = sorted(required - set(value))
        if unknown:
            raise ValueError(f"{where} has the unknown field {unknown[0][:40]!r}")
        if missing:
            raise ValueError(f"{where} lacks the field {missing[0]!r}")
        self.value: dict[str, object] = value
        self.where = where

    def _name(self, key: str) -> str:
        return f"{self.where}.{key}"

    def integer(self, key: str, low: int, high: int) -> int:
        value = self.value[key]
        if type(value) is not int or not low <= value <= high:
            raise ValueError(f"{self._name(key)} is {_shown(value)}, not a whole number from {low} to {high}")
        return value

    def optional_integer(self, key: str, low: int, high: int) -> int | None:
        return None if self.value.get(key) is None else self.integer(key, low, high)

    def string(self, key: str, max_chars: int, *, empty: bool = True) -> str:
        value = self.value[key]
        if not isinstance(value, str) or (not empty and not value.strip()):
            raise ValueError(
                f"{self._name(key)} is {_shown(value)}, not {'a' if empty else 'a non-empty'} text"
            )
        problem = text_problem(value, max_chars)
        if problem is not None:
            raise ValueError(f"{self._name(key)} cannot be shown: {problem}")
        return value

    def pattern(self, key: str, regex: re.Pattern[str], what: str) -> str:
        value = self.value[key]
        if not isinstance(value, str) or regex.fullmatch(value) is None:
            raise ValueError(f"{self._name(key)} is {_shown(value)}, not {what}")
        return value

    def optional_pattern(self, key: str, regex: re.Pattern[str], what: str) -> str | None:
        return None if self.value.get(key) is None else self.pattern(key, regex, what)

    def counts(self, key: str, max_length: int, total: int) -> dict[int, int]:
        value = self.value[key]
        if not isinstance(value, dict):
            raise ValueError(f"{self._name(key)} is {_shown(value)}, not an object of counts")
        counts: dict[int, int] = {}
        for length_text, count in value.items():
            if _LENGTH_KEY.fullmatch(length_text) is None or not (
                MIN_WORD_LETTERS <= int(length_text) <= max_length
            ):
                raise ValueError(
                    f"{self._name(key)} counts words of length {length_text[:10]!r}; lengths go from "
                    f"{MIN_WORD_LETTERS} to the pack's max_length {max_length}"
                )
            if type(count) is not int or not 1 <= count <= MAX_PACK_WORDS:
                raise ValueError(f"{self._name(key)}[{length_text}] is {_shown(count)}, not a count of words")
            counts[int(length_text)] = count
        if sum(counts.values()) != total:
            raise ValueError(f"{self._name(key)} adds up to {sum(counts.values())} words, not {total}")
        return dict(sorted(counts.items()))

    def items(self, key: str, most: int) -> list[object]:
        value = self.value[key]
        if not isinstance(value, list) or len(value) > most:
            raise ValueError(f"{self._name(key)} is not a list of at most {most} entries")
        return value


def _shown(value: object) -> str:
    text = json.dumps(value)
    return text if len(text) <= 40 else text[:37] + "..."


_PACK_FIELDS = frozenset(
    {
        "name",
        "edition",
        "description",
        "max_length",
        "word_count",
        "counts_by_length",
        "youth_exclusion_count",
        "set_hash",
        "youth_set_hash",
        "school_set_hash",
        "school_counts_by_length",
        "known_editions",
        "sources",
        "builder_version",
        "format_version",
        "normaliser_version",
    }
)
_OPTIONAL_PACK_FIELDS = frozenset({"alphabet"})  # absent: English (packs from before alphabets)
_SOURCE_FIELDS = frozenset({"file", "sha256", "role", "min_length", "max_length", "words"})
_EDITION_FIELDS = frozenset({"name", "words", "sha256", "counts_by_length"})
_SECTION_FIELDS = frozenset({"name", "offset", "length", "encoding", "size"})
MANIFEST_FIELDS = {
    "pack": _PACK_FIELDS | _OPTIONAL_PACK_FIELDS,
    "sources[]": _SOURCE_FIELDS,
    "sections[]": _SECTION_FIELDS,
}
_SET_HASH_WHAT = "'sha256:' and 64 hex digits"


def _source(value: object, where: str) -> SourceInfo:
    entry = _Manifest(value, where, _SOURCE_FIELDS)
    role = entry.string("role", 40)
    if role not in SOURCE_ROLES:
        raise ValueError(f"{where}.role is {_shown(role)}, not one of {', '.join(SOURCE_ROLES)}")
    return SourceInfo(
        file=entry.string("file", MAX_FILE_NAME_CHARS),
        sha256=entry.pattern("sha256", _HEX_DIGEST, "64 hex digits"),
        role=role,
        min_length=entry.optional_integer("min_length", 0, MAX_WORD_LETTERS),
        max_length=entry.optional_integer("max_length", 0, MAX_WORD_LETTERS),
        words=entry.integer("words", 0, MAX_PACK_WORDS),
    )


def _edition_line(
    value: object, where: str, sets: Sequence[WordSetFacts], max_length: int, alphabet: Alphabet
) -> KnownEdition:
    """A known-edition line the manifest carries: it describes the pack's own set, in its alphabet."""
    entry = _Manifest(value, where, _EDITION_FIELDS)
    words = entry.integer("words", 1, MAX_PACK_WORDS)
    counts = entry.counts("counts_by_length", max_length, words)
    try:
        line = edition_from_fields(
            entry.string("name", 40),
            words,
            entry.pattern("sha256", _HEX_DIGEST, "64 hex digits"),
            counts,
            CARRIED_SOURCE,
            where,
            alphabet.name,
        )
    except EditionTableError as exc:
        raise ValueError(str(exc)) from exc
    described = WordSetFacts.of("sha256:" + line.sha256, line.words, dict(line.counts_by_length))
    if described not in sets:
        raise ValueError(f"{where} ({line.name}) does not describe this pack's word set")
    return line


class UnknownAlphabetError(ValueError):
    """A manifest naming an alphabet this build has no profile for (a newer builder's)."""


def _alphabet(pack: _Manifest) -> Alphabet:
    if "alphabet" not in pack.value:
        return ENGLISH
    name = pack.string("alphabet", 40, empty=False)
    found = alphabet_named(name)
    if found is None:
        known = ", ".join(alphabets())
        raise UnknownAlphabetError(
            f"pack.alphabet is {_shown(name)}, not one of the alphabets this station knows ({known})"
        )
    return found


def _pack_info(data: object) -> PackInfo:
    pack = _Manifest(data, "pack", _PACK_FIELDS, _OPTIONAL_PACK_FIELDS)
    alphabet = _alphabet(pack)
    max_length = pack.integer("max_length", MIN_WORD_LETTERS, MAX_WORD_LETTERS)
    word_count = pack.integer("word_count", 1, MAX_PACK_WORDS)
    youth_count = pack.integer("youth_exclusion_count", 0, word_count)
    set_hash = pack.pattern("set_hash", _SET_HASH, _SET_HASH_WHAT)
    counts = pack.counts("counts_by_length", max_length, word_count)
    youth_hash = pack.optional_pattern("youth_set_hash", _SET_HASH, _SET_HASH_WHAT)
    school_hash = pack.optional_pattern("school_set_hash", _SET_HASH, _SET_HASH_WHAT)
    has_youth = youth_hash is not None
    if (school_hash is not None) != has_youth or (
        pack.value["school_counts_by_length"] is not None
    ) != has_youth:
        raise ValueError(
            "pack.school_set_hash and school_counts_by_length are given if and only if a youth list is"
        )
    if not has_youth and youth_count:
        raise ValueError(f"pack.youth_exclusion_count is {youth_count} but the pack has no youth list")
    school_counts = (
        None
        if not has_youth
        else pack.counts("school_counts_by_length", max_length, word_count - youth_count)
    )
    if school_counts is not None and any(count > counts.get(n, 0) for n, count in school_counts.items()):
        raise ValueError("pack.school_counts_by_length counts more words of a length than the pack holds")
    sets = [WordSetFacts.of(set_hash, word_count, counts)]
    if school_hash is not None and school_counts is not None:
        sets.append(WordSetFacts.of(school_hash, word_count - youth_count, school_counts))
    lines = tuple(
        _edition_line(value, f"pack.known_editions[{i}]", sets, max_length, alphabet)
        for i, value in enumerate(pack.items("known_editions", MAX_EDITION_LINES))
    )
    if len({line.sha256 for line in lines}) != len(lines):
        raise ValueError("pack.known_editions names one word set twice")
    return PackInfo(
        name=pack.string("name", MAX_NAME_CHARS, empty=False),
        edition=pack.string("edition", MAX_NAME_CHARS),
        description=pack.string("description", MAX_DESCRIPTION_CHARS),
        max_length=max_length,
        word_count=word_count,
        counts_by_length=counts,
        youth_exclusion_count=youth_count,
        set_hash=set_hash,
        youth_set_hash=youth_hash,
        school_set_hash=school_hash,
        school_counts_by_length=school_counts,
        known_editions=lines,
        sources=tuple(
            _source(value, f"pack.sources[{i}]") for i, value in enumerate(pack.items("sources", MAX_SOURCES))
        ),
        builder_version=pack.string("builder_version", MAX_VERSION_CHARS),
        format_version=pack.integer("format_version", 1, MAX_PLAUSIBLE_FORMAT_VERSION),
        normaliser_version=pack.integer("normaliser_version", 1, MAX_PLAUSIBLE_FORMAT_VERSION),
        alphabet=alphabet,
    )


@dataclass(frozen=True)
class _Section:
    name: str
    start: int
    end: int
    size: int


def _sections(value: object, manifest_end: int, content_length: int, has_youth: bool) -> list[_Section]:
    if not isinstance(value, list) or not 1 <= len(value) <= 2:
        raise ValueError("sections is not a list of one or two sections")
    sections: list[_Section] = []
    cursor = manifest_end
    for index, item in enumerate(value):
        entry = _Manifest(item, f"sections[{index}]", _SECTION_FIELDS)
        name = entry.string("name", 40)
        if name not in (WORDS_SECTION, YOUTH_SECTION) or any(s.name == name for s in sections):
            raise ValueError(
                f"sections[{index}] is named {_shown(name)}: a pack has one 'words' and one 'youth'"
            )
        if entry.value["encoding"] != SECTION_ENCODING:
            raise ValueError(
                f"section encoding {_shown(entry.value['encoding'])} is not {SECTION_ENCODING!r}"
            )
        size = entry.value["size"]
        if type(size) is not int or not 0 <= size <= MAX_SECTION_BYTES:
            raise ValueError(
                f"section size {_shown(size)} is not a number of bytes up to {MAX_SECTION_BYTES}"
            )
        start = manifest_end + entry.integer("offset", 0, MAX_PACK_BYTES)
        end = start + entry.integer("length", 1, MAX_PACK_BYTES)
        if start != cursor or end > content_length:
            raise ValueError("sections do not tile the pack")
        sections.append(_Section(name, start, end, size))
        cursor = end
    if cursor != content_length:
        raise ValueError("bytes after the last section")
    names = [s.name for s in sections]
    if names[0] != WORDS_SECTION or (YOUTH_SECTION in names) != has_youth:
        raise ValueError(
            "the sections are not the word list"
            + (" and the youth exclusion list" if has_youth else "")
            + " the manifest describes (youth exclusion list)"
        )
    return sections


@dataclass(frozen=True)
class SignatureBlock:
    """The raw signature block; checking it against trusted keys is the trust module's job."""

    public_key: bytes
    signature: bytes
    signed_bytes: bytes = field(repr=False)


@dataclass(frozen=True)
class SealedPack:
    """A pack whose header, length and digest are checked, and nothing parsed: what a signature
    check needs (``kiosk.core.packs.trust``), before ``unseal`` reads what the signature covers."""

    path: Path | None
    data: bytes = field(repr=False)
    content_length: int
    manifest_length: int
    content_sha256: str
    signature: SignatureBlock | None


@dataclass(frozen=True)
class PackContents:
    """A pack whose digest has been checked: the manifest and the sections' bytes, unpacked.

    The tries in ``sections`` are not proven sane: only the verification walk does that.
    """

    path: Path | None
    info: PackInfo
    sections: Mapping[str, bytes]
    content_sha256: str
    signature: SignatureBlock | None


def _canonical_json(data: Mapping[str, Any]) -> bytes:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()


def _compress(data: bytes) -> bytes:
    packer = zlib.compressobj(ZLIB_LEVEL, zlib.DEFLATED, ZLIB_WINDOW_BITS, ZLIB_MEMORY_LEVEL, ZLIB_STRATEGY)
    return packer.compress(data) + packer.flush()


def _unpack(stored: bytes, size: int) -> bytes:
    """A section's zlib stream unpacked, never to more than ``size`` + 1 bytes; ValueError unless
    it is one whole stream that gives exactly ``size`` bytes."""
    unpacker = zlib.decompressobj(ZLIB_WINDOW_BITS)
    try:
        data = unpacker.decompress(stored, size + 1)  # a bound of 0 would mean none: hence + 1
    except zlib.error as exc:
        raise ValueError(f"not a zlib stream: {exc}") from exc
    if len(data) > size:
        raise ValueError(f"it unpacks to more than the {size} bytes the manifest gives")
    if not unpacker.eof:
        raise ValueError(f"its zlib stream is cut short after {len(data)} of {size} bytes")
    if unpacker.unused_data or len(data) != size:
        raise ValueError(f"it unpacks to {len(data)} bytes, not the {size} the manifest gives")
    return data


def encode_pack(info: PackInfo, sections: Mapping[str, bytes]) -> bytes:
    """Serialise a pack (unsigned) from its sections' bytes, which it compresses.

    Section order is the mapping's order; keep it fixed.
    """
    layout = []
    stored = []
    offset = 0
    for name, data in sections.items():
        packed = _compress(data)
        layout.append(
            {
                "name": name,
                "offset": offset,
                "length": len(packed),
                "encoding": SECTION_ENCODING,
                "size": len(data),
            }
        )
        stored.append(packed)
        offset += len(packed)
    manifest = _canonical_json({"pack": info.to_json(), "sections": layout})
    content_length = _HEADER.size + len(manifest) + offset
    header = _HEADER.pack(MAGIC, FORMAT_VERSION, content_length, len(manifest))
    content = b"".join([header, manifest, *stored])
    return content + hashlib.sha256(content).digest()


def encode_signature_block(public_key: bytes, signature: bytes) -> bytes:
    """The block appended after a pack's digest; the signature covers every byte before it."""
    if len(public_key) != PUBLIC_KEY_BYTES or len(signature) != SIGNATURE_BYTES:
        raise ValueError("an Ed25519 public key is 32 bytes and a signature 64")
    return SIGNATURE_MAGIC + public_key + signature


def _describe(path: Path | None) -> str:
    return str(path) if path is not None else "the pack"


def _digest_matches(data: bytes, content_length: int) -> bool:
    digest = hashlib.sha256(memoryview(data)[:content_length]).digest()
    return digest == data[content_length : content_length + DIGEST_BYTES]


_REBUILD = marked("rebuild it with lexicon-build, or copy it again from the organiser's original")


def _this_builder() -> Text:
    return Wording(
        marked("lexicon-build {version} (the builder that ships with this station)"), version=__version__
    )


def _not_a_pack(head: bytes, where: str) -> NotAPackError:
    """A file that does not start like a pack: what it is (a word list, a zip...) and what to do."""
    from kiosk.core.files.kind import Role, refusal_for_bytes  # only on the way out

    return NotAPackError(
        refusal_for_bytes(head, where, Role.PACK)
        or Wording(
            marked(
                "{path} is not a lexicon pack (it does not start like one); build a pack from a word list "
                "with 'lexicon-build build'"
            ),
            path=where,
        )
    )


def _check_bounds(head: bytes, size: int, where: str) -> None:
    """What the first bytes and the size alone prove wrong, before a file is read whole."""
    if size > MAX_PACK_BYTES:
        if not head.startswith(MAGIC):
            raise _not_a_pack(head, where)
        raise PackCorruptError(
            f"{where} is damaged or forged: it is {size:,} bytes, more than any pack can be (at most "
            f"{MAX_PACK_BYTES:,}); {_REBUILD}"
        )
    if len(head) < _HEADER.size or head[: len(MAGIC)] != MAGIC:
        return  # the checks on the whole bytes say what it is
    _, format_version, _, manifest_length = _HEADER.unpack_from(head)
    if format_version != FORMAT_VERSION:
        return
    if manifest_length > MAX_MANIFEST_BYTES:
        raise PackCorruptError(
            f"{where} is damaged or forged: its header gives a manifest of {manifest_length:,} bytes, "
            f"and a pack's manifest is at most {MAX_MANIFEST_BYTES:,}; {_REBUILD}"
        )


def open_pack(data: bytes, path: Path | None = None) -> SealedPack:
    """Check a pack's header, length, digest and signature block; parse nothing; raise PackError."""
    where = _describe(path)
    rebuild: dict[str, object] = {"path": where, "what_to_do": Wording(_REBUILD)}
    _check_bounds(data[: _HEADER.size], len(data), where)
    head = data[: len(MAGIC)]
    matching = sum(a == b for a, b in zip(head, MAGIC, strict=False))
    if len(head) == len(MAGIC) and head != MAGIC and matching >= len(MAGIC) - MAGIC_DAMAGE_BYTES:
        raise PackCorruptError(
            marked("{path} is damaged: its first bytes were altered; {what_to_do}"), **rebuild
        )
    if data and len(data) < _HEADER.size + DIGEST_BYTES and MAGIC.startswith(head):
        raise PackCorruptError(
            marked("{path} is damaged: it is only {size} bytes, truncated inside its header; {what_to_do}"),
            size=len(data),
            **rebuild,
        )
    if head != MAGIC:
        if not data:
            raise NotAPackError(
                marked(
                    "{path} is empty (0 bytes), not a lexicon pack; copy it again from the organiser's "
                    "original, or build one with 'lexicon-build build'"
                ),
                path=where,
            )
        raise _not_a_pack(data, where)
    _, format_version, content_length, manifest_length = _HEADER.unpack_from(data)
    if format_version == 0 or format_version > MAX_PLAUSIBLE_FORMAT_VERSION:
        raise PackCorruptError(
            f"{where} is damaged: its header gives pack format {format_version}, which no builder "
            f"writes; {_REBUILD}"
        )
    expected_sizes = (content_length + DIGEST_BYTES, content_length + DIGEST_BYTES + SIGNATURE_BLOCK_BYTES)
    damaged_checksum = Wording(
        marked("{path} is damaged: its contents do not match their SHA-256 checksum; {what_to_do}"), **rebuild
    )
    if format_version != FORMAT_VERSION:
        # One bit away from ours, laid out like ours, and a checksum that fails: a flipped bit.
        one_bit_off = (format_version ^ FORMAT_VERSION).bit_count() == 1
        if one_bit_off and len(data) in expected_sizes and not _digest_matches(data, content_length):
            raise PackCorruptError(damaged_checksum)
        newer = format_version > FORMAT_VERSION
        raise PackVersionError(
            marked(
                "{path} uses pack format {found}, newer than the format {ours} this station reads; rebuild "
                "the pack with {builder}, or update the station software"
            )
            if newer
            else marked(
                "{path} uses pack format {found}, older than the format {ours} this station reads; rebuild "
                "the pack with {builder}"
            ),
            path=where,
            found=format_version,
            ours=FORMAT_VERSION,
            builder=_this_builder(),
        )
    if len(data) not in expected_sizes:
        if len(data) < expected_sizes[0]:
            wrong_size = marked(
                "{path} is damaged: it is {size} bytes, truncated (expected {unsigned} bytes, or {signed} "
                "when signed); {what_to_do}"
            )
        else:
            wrong_size = marked(
                "{path} is damaged: it is {size} bytes, longer than its builder wrote it (expected "
                "{unsigned} bytes, or {signed} when signed); {what_to_do}"
            )
        raise PackCorruptError(
            wrong_size, size=len(data), unsigned=expected_sizes[0], signed=expected_sizes[1], **rebuild
        )
    content = memoryview(data)[:content_length]
    digest = hashlib.sha256(content).digest()
    if digest != data[content_length : content_length + DIGEST_BYTES]:
        raise PackCorruptError(damaged_checksum)
    signature = None
    if len(data) == expected_sizes[1]:
        block = data[content_length + DIGEST_BYTES :]
        if block[: len(SIGNATURE_MAGIC)] != SIGNATURE_MAGIC:
            raise PackCorruptError(
                f"{where} is damaged: it has {SIGNATURE_BLOCK_BYTES} bytes after its checksum that "
                f"are not a signature block; {_REBUILD}"
            )
        key_end = len(SIGNATURE_MAGIC) + PUBLIC_KEY_BYTES
        signature = SignatureBlock(
            public_key=bytes(block[len(SIGNATURE_MAGIC) : key_end]),
            signature=bytes(block[key_end:]),
            signed_bytes=data[: content_length + DIGEST_BYTES],
        )
    return SealedPack(
        path=path,
        data=data,
        content_length=content_length,
        manifest_length=manifest_length,
        content_sha256=digest.hex(),
        signature=signature,
    )


def unseal(sealed: SealedPack) -> PackContents:
    """Parse a sealed pack's manifest, every field checked, and unpack its sections; raise PackError.

    Call it only once the signature has been checked (``check_pack_signature``): a station with
    trusted keys must not parse what a stranger wrote.
    """
    where = _describe(sealed.path)
    faulty = (
        "it was written by a faulty builder or altered after it was built; do not judge with it: "
        f"rebuild it with {_this_builder()}"
    )
    content = memoryview(sealed.data)[: sealed.content_length]
    manifest_end = _HEADER.size + sealed.manifest_length
    try:
        manifest = _Manifest(
            json.loads(bytes(content[_HEADER.size : manifest_end])),
            "the manifest",
            frozenset({"pack", "sections"}),
        )
        info = _pack_info(manifest.value["pack"])
        layout = _sections(
            manifest.value["sections"], manifest_end, sealed.content_length, info.youth_set_hash is not None
        )
    except UnknownAlphabetError as exc:
        raise PackVersionError(
            f"{where} is spelt in an alphabet this station does not know ({exc}); update the station "
            f"software, or rebuild the pack with {_this_builder()} naming one of those alphabets"
        ) from exc
    except (ValueError, RecursionError) as exc:
        raise PackCorruptError(
            f"{where} has a checksum that matches but a manifest that cannot be read ({exc}); {faulty}"
        ) from exc
    header_format = _HEADER.unpack_from(sealed.data)[1]
    if info.format_version != header_format:
        raise PackCorruptError(
            f"{where} has a checksum that matches but a manifest for pack format "
            f"{info.format_version} in a format {header_format} file; {faulty}"
        )
    if info.normaliser_version != NORMALISER_VERSION:
        raise PackVersionError(
            marked(
                "{path} was built by lexicon-build {version} with word normaliser version {found}, but "
                "this station uses version {ours} (words may be spelt differently); rebuild the pack with "
                "{builder}"
            ),
            path=where,
            version=info.builder_version,
            found=info.normaliser_version,
            ours=NORMALISER_VERSION,
            builder=_this_builder(),
        )
    sections: dict[str, bytes] = {}
    for section in layout:
        try:
            sections[section.name] = _unpack(bytes(content[section.start : section.end]), section.size)
        except ValueError as exc:
            raise PackCorruptError(
                f"{where} has a checksum that matches but its {section.name!r} section cannot be unpacked "
                f"({exc}); {faulty}"
            ) from exc
    return PackContents(
        path=sealed.path,
        info=info,
        sections=sections,
        content_sha256=sealed.content_sha256,
        signature=sealed.signature,
    )


def parse_pack(data: bytes, path: Path | None = None) -> PackContents:
    """Check a pack's bytes and return its manifest and sections, with no signature policy applied."""
    return unseal(open_pack(data, path))


def read_sealed(path: Path) -> SealedPack:
    """Read a pack file and check it as ``open_pack`` does; a file too large for a pack, or whose
    header gives an impossible manifest, is refused from its first bytes, before it is read whole."""
    try:
        with path.open("rb") as stream:
            size = os.fstat(stream.fileno()).st_size
            head = stream.read(_HEADER.size)
            _check_bounds(head, size, str(path))
            data = head + stream.read(max(0, size - len(head)) + 1)  # + 1: a file still growing
    except FileNotFoundError as exc:
        raise NotAPackError(marked("{path} does not exist; check the pack path"), path=path) from exc
    except IsADirectoryError as exc:
        raise NotAPackError(marked("{path} is a folder, not a pack file"), path=path) from exc
    except OSError as exc:
        raise NotAPackError(
            marked("{path} cannot be read: {detail}"), path=path, detail=exc.strerror
        ) from exc
    return open_pack(data, path)


def read_pack(path: Path) -> PackContents:
    """Read and check a pack file; raise PackError naming the file if it cannot be used."""
    return unseal(read_sealed(path))
