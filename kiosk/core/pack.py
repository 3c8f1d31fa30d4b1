"""The lexicon pack: one self-describing file, verified whole before any trie is parsed.

A corrupt marisa file can crash Python outright or answer wrongly, so nothing of a pack is trusted
until the SHA-256 of its content matches the digest stored after it. Layout (little-endian)::

    offset  size  what
    0       8     MAGIC  b"KXLEXPK\\n"
    8       4     FORMAT_VERSION (uint32)
    12      8     content length C: bytes 0..C are covered by the digest (uint64)
    20      4     manifest length M (uint32)
    24      M     manifest: canonical JSON (sorted keys, UTF-8)
    24+M    ...   sections, back to back, in the order the manifest lists them, each stored as
                  a zlib stream (the manifest gives its stored length and its unpacked size)
    C       32    SHA-256 of bytes 0..C
    C+32    104   optional signature block: SIGNATURE_MAGIC, Ed25519 public key (32),
                  Ed25519 signature (64) over bytes 0..C+32

A file is exactly C+32 bytes, or exactly C+136 with a signature block; anything missing, altered
or appended is refused. The same manifest and sections always give the same bytes.

The digest is the only thing standing between a damaged file and marisa, which crashes the process
on corrupt trie bytes: keep every check that needs no parsing before it, and parse nothing before
it matches. Whoever can recompute the digest can write any bytes; against that, a station relies on
signatures (``kiosk.core.trust``).

Sections are compressed (format 2): marisa's own settings shrink its trie by ~1.5 % at best, zlib
by ~25 %, which takes a Collins-sized pack from 0.90 x Zyzzyva's word graph of the same words to
~0.68 x, for ~4 ms of unpacking at load (``bench/bench_pack_encoding.py`` measures every option).
Only verified bytes are unpacked, never to more than the size the manifest gives (itself at most
``MAX_SECTION_BYTES``), so a forged manifest cannot make the station exhaust its memory; zlib's own
check (Adler-32) then stands before marisa as a second, weaker, barrier.
"""

from __future__ import annotations

import hashlib
import json
import struct
import zlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kiosk import __version__
from kiosk.core.errors import NotAPackError, PackCorruptError, PackVersionError
from kiosk.core.normalise import NORMALISER_VERSION

__all__ = [
    "DIGEST_BYTES",
    "FORMAT_VERSION",
    "MAGIC",
    "PUBLIC_KEY_BYTES",
    "SIGNATURE_BLOCK_BYTES",
    "SIGNATURE_BYTES",
    "SIGNATURE_MAGIC",
    "PackContents",
    "PackInfo",
    "SignatureBlock",
    "SourceInfo",
    "encode_pack",
    "encode_signature_block",
    "pack_title",
    "parse_pack",
    "read_pack",
    "sorted_words_hash",
    "word_set_hash",
]

MAGIC = b"KXLEXPK\n"
FORMAT_VERSION = 2  # 2: sections stored as zlib streams
SIGNATURE_MAGIC = b"KXSIG01\n"
DIGEST_BYTES = 32
PUBLIC_KEY_BYTES = 32
SIGNATURE_BYTES = 64
SIGNATURE_BLOCK_BYTES = len(SIGNATURE_MAGIC) + PUBLIC_KEY_BYTES + SIGNATURE_BYTES
_HEADER = struct.Struct("<8sIQI")
MAX_MANIFEST_BYTES = 1 << 20
# A version field above this is a damaged header, not a pack from the future.
MAX_PLAUSIBLE_FORMAT_VERSION = 1000
# A header whose magic differs from MAGIC in at most this many bytes is a damaged pack.
MAGIC_DAMAGE_BYTES = 2
SECTION_ENCODING = "zlib"
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


def word_set_hash(words: Iterable[str]) -> str:
    """Hash a word set so that the same words give the same hash whatever their order."""
    return sorted_words_hash(sorted(set(words)))


def sorted_words_hash(sorted_words: Sequence[str]) -> str:
    """``word_set_hash`` of words already sorted, each once: SHA-256 of every word and a newline."""
    digest = hashlib.sha256("\n".join(sorted_words).encode("ascii"))
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
    """The manifest: everything a judge or an organiser needs to know about a pack."""

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
    format_version: int = FORMAT_VERSION
    normaliser_version: int = NORMALISER_VERSION

    @property
    def title(self) -> str:
        """Name and edition as shown to people, e.g. ``NWL2023 2023-03``."""
        return f"{self.name} {self.edition}" if self.edition else self.name

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "edition": self.edition,
            "description": self.description,
            "max_length": self.max_length,
            "word_count": self.word_count,
            "counts_by_length": {str(k): v for k, v in sorted(self.counts_by_length.items())},
            "youth_exclusion_count": self.youth_exclusion_count,
            "set_hash": self.set_hash,
            "youth_set_hash": self.youth_set_hash,
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
    def from_json(cls, data: Mapping[str, Any]) -> PackInfo:
        return cls(
            name=str(data["name"]),
            edition=str(data["edition"]),
            description=str(data["description"]),
            max_length=int(data["max_length"]),
            word_count=int(data["word_count"]),
            counts_by_length={int(k): int(v) for k, v in data["counts_by_length"].items()},
            youth_exclusion_count=int(data["youth_exclusion_count"]),
            set_hash=str(data["set_hash"]),
            youth_set_hash=None if data["youth_set_hash"] is None else str(data["youth_set_hash"]),
            sources=tuple(
                SourceInfo(
                    file=str(s["file"]),
                    sha256=str(s["sha256"]),
                    role=str(s["role"]),
                    min_length=s["min_length"],
                    max_length=s["max_length"],
                    words=int(s["words"]),
                )
                for s in data["sources"]
            ),
            builder_version=str(data["builder_version"]),
            format_version=int(data["format_version"]),
            normaliser_version=int(data["normaliser_version"]),
        )


@dataclass(frozen=True)
class SignatureBlock:
    """The raw signature block; checking it against trusted keys is the lexicon layer's job."""

    public_key: bytes
    signature: bytes
    signed_bytes: bytes = field(repr=False)


@dataclass(frozen=True)
class PackContents:
    """A pack whose digest has been checked: the manifest and the sections' bytes, unpacked."""

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


def parse_pack(data: bytes, path: Path | None = None) -> PackContents:
    """Check a pack's bytes and return its manifest and sections; raise PackError if unusable."""
    where = _describe(path)
    rebuild = "rebuild it with lexicon-build, or copy it again from the organiser's original"
    this_builder = f"lexicon-build {__version__} (the builder that ships with this station)"
    head = data[: len(MAGIC)]
    matching = sum(a == b for a, b in zip(head, MAGIC, strict=False))
    if len(head) == len(MAGIC) and head != MAGIC and matching >= len(MAGIC) - MAGIC_DAMAGE_BYTES:
        raise PackCorruptError(f"{where} is damaged: its first bytes were altered; {rebuild}")
    if data and len(data) < _HEADER.size + DIGEST_BYTES and MAGIC.startswith(head):
        raise PackCorruptError(
            f"{where} is damaged: it is only {len(data)} bytes, truncated inside its header; {rebuild}"
        )
    if head != MAGIC:
        if not data:
            raise NotAPackError(
                f"{where} is empty (0 bytes), not a lexicon pack; copy it again from the organiser's "
                "original, or build one with 'lexicon-build build'"
            )
        from kiosk.core.filekind import Role, refusal_for_bytes  # only on the way out

        raise NotAPackError(
            refusal_for_bytes(data, where, Role.PACK)
            or f"{where} is not a lexicon pack (it does not start like one); build a pack from a word "
            "list with 'lexicon-build build'"
        )
    _, format_version, content_length, manifest_length = _HEADER.unpack_from(data)
    if format_version == 0 or format_version > MAX_PLAUSIBLE_FORMAT_VERSION:
        raise PackCorruptError(
            f"{where} is damaged: its header gives pack format {format_version}, which no builder "
            f"writes; {rebuild}"
        )
    expected_sizes = (content_length + DIGEST_BYTES, content_length + DIGEST_BYTES + SIGNATURE_BLOCK_BYTES)
    damaged_checksum = f"{where} is damaged: its contents do not match their SHA-256 checksum; {rebuild}"
    if format_version != FORMAT_VERSION:
        # One bit away from ours, laid out like ours, and a checksum that fails: a flipped bit.
        one_bit_off = (format_version ^ FORMAT_VERSION).bit_count() == 1
        if one_bit_off and len(data) in expected_sizes and not _digest_matches(data, content_length):
            raise PackCorruptError(damaged_checksum)
        newer = format_version > FORMAT_VERSION
        raise PackVersionError(
            f"{where} uses pack format {format_version}, "
            + ("newer than" if newer else "older than")
            + f" the format {FORMAT_VERSION} this station reads; rebuild the pack with {this_builder}"
            + (", or update the station software" if newer else "")
        )
    if len(data) not in expected_sizes:
        state = "truncated" if len(data) < expected_sizes[0] else "longer than its builder wrote it"
        raise PackCorruptError(
            f"{where} is damaged: it is {len(data)} bytes, {state} (expected {expected_sizes[0]} "
            f"bytes, or {expected_sizes[1]} when signed); {rebuild}"
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
                f"are not a signature block; {rebuild}"
            )
        key_end = len(SIGNATURE_MAGIC) + PUBLIC_KEY_BYTES
        signature = SignatureBlock(
            public_key=bytes(block[len(SIGNATURE_MAGIC) : key_end]),
            signature=bytes(block[key_end:]),
            signed_bytes=data[: content_length + DIGEST_BYTES],
        )
    # From here on the bytes are the builder's own; a failure below is a builder bug, not damage.
    manifest_end = _HEADER.size + manifest_length
    try:
        manifest = json.loads(bytes(content[_HEADER.size : manifest_end]))
        info = PackInfo.from_json(manifest["pack"])
        stored: dict[str, tuple[bytes, int]] = {}
        cursor = manifest_end
        for entry in manifest["sections"]:
            start = manifest_end + int(entry["offset"])
            end = start + int(entry["length"])
            if start != cursor or end > content_length:
                raise ValueError("sections do not tile the pack")
            if entry["encoding"] != SECTION_ENCODING:
                raise ValueError(f"section encoding {entry['encoding']!r} is not {SECTION_ENCODING!r}")
            size = entry["size"]
            if type(size) is not int or not 0 <= size <= MAX_SECTION_BYTES:
                raise ValueError(f"section size {size!r} is not a number of bytes up to {MAX_SECTION_BYTES}")
            stored[str(entry["name"])] = (bytes(content[start:end]), size)
            cursor = end
        if cursor != content_length:
            raise ValueError("bytes after the last section")
    except (ValueError, KeyError, TypeError, AttributeError, OverflowError, RecursionError) as exc:
        raise PackCorruptError(
            f"{where} has a checksum that matches but a manifest that cannot be read ({exc}); it "
            "was written by a faulty builder: rebuild it with the lexicon-build that ships with "
            "this station"
        ) from exc
    if info.format_version != format_version:
        raise PackCorruptError(
            f"{where} has a checksum that matches but a manifest for pack format "
            f"{info.format_version} in a format {format_version} file; it was written by a faulty "
            f"builder: rebuild it with {this_builder}"
        )
    if info.normaliser_version != NORMALISER_VERSION:
        raise PackVersionError(
            f"{where} was built by lexicon-build {info.builder_version} with word normaliser "
            f"version {info.normaliser_version}, but this station uses version {NORMALISER_VERSION} "
            f"(words may be spelt differently); rebuild the pack with {this_builder}"
        )
    sections: dict[str, bytes] = {}
    for name, (packed, size) in stored.items():
        try:
            sections[name] = _unpack(packed, size)
        except ValueError as exc:
            raise PackCorruptError(
                f"{where} has a checksum that matches but its {name!r} section cannot be unpacked "
                f"({exc}); it was written by a faulty builder: rebuild it with {this_builder}"
            ) from exc
    return PackContents(
        path=path,
        info=info,
        sections=sections,
        content_sha256=digest.hex(),
        signature=signature,
    )


def read_pack(path: Path) -> PackContents:
    """Read and check a pack file; raise PackError naming the file if it cannot be used."""
    try:
        data = path.read_bytes()
    except FileNotFoundError as exc:
        raise NotAPackError(f"{path} does not exist; check the pack path") from exc
    except IsADirectoryError as exc:
        raise NotAPackError(f"{path} is a folder, not a pack file") from exc
    except OSError as exc:
        raise NotAPackError(f"{path} cannot be read: {exc.strerror}") from exc
    return parse_pack(data, path)
