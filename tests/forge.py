"""Forged packs, as a tamperer who can recompute the digest (but holds no trusted key) makes them.

Each forgery is laid out by the real encoder (``encode_pack``): the manifest tiles the sections and
the SHA-256 matches, so only the checks behind the digest -- the strict manifest, the walk of the
tries in a child process -- stand between it and the station.
"""

from __future__ import annotations

import dataclasses
import random
import struct
from pathlib import Path

from kiosk.core.packs.lexicon import WORDS_SECTION
from kiosk.core.packs.pack import FORMAT_VERSION, MAGIC, PackInfo, encode_pack, parse_pack
from kiosk.core.packs.verification import make_trie

__all__ = [
    "edit_trie",
    "huge_manifest",
    "random_trie",
    "swap_words",
    "with_info",
    "zero_words",
]


def edit_trie(data: bytes, rng: random.Random, section: str = WORDS_SECTION) -> bytes:
    """One byte of an (unpacked) trie changed, everything else made consistent again."""
    contents = parse_pack(data)
    trie = bytearray(contents.sections[section])
    position = rng.randrange(len(trie))
    trie[position] ^= rng.randrange(1, 256)
    return encode_pack(contents.info, {**contents.sections, section: bytes(trie)})


def random_trie(data: bytes, rng: random.Random) -> bytes:
    """The word trie replaced by random bytes of the same size, behind a fresh digest."""
    contents = parse_pack(data)
    size = len(contents.sections[WORDS_SECTION])
    return encode_pack(contents.info, {**contents.sections, WORDS_SECTION: rng.randbytes(size)})


def swap_words(data: bytes, other: bytes) -> bytes:
    """Another pack's tries under this pack's manifest (its name, its counts, its set digest)."""
    kept, swapped = parse_pack(data), parse_pack(other)
    return encode_pack(kept.info, dict(swapped.sections))


def with_info(data: bytes, **changes: object) -> bytes:
    """The same tries, a manifest with ``changes`` (field by field), a fresh digest."""
    contents = parse_pack(data)
    info: PackInfo = dataclasses.replace(contents.info, **changes)  # type: ignore[arg-type]
    return encode_pack(info, dict(contents.sections))


def zero_words(data: bytes) -> bytes:
    """A pack that holds no word at all (the builder refuses to make one)."""
    contents = parse_pack(data)
    info = dataclasses.replace(
        contents.info,
        word_count=0,
        counts_by_length={},
        youth_exclusion_count=0,
        youth_set_hash=None,
        school_set_hash=None,
        school_counts_by_length=None,
    )
    return encode_pack(info, {WORDS_SECTION: make_trie([])})


def huge_manifest(path: Path, manifest_bytes: int) -> Path:
    """A file whose header announces a manifest of ``manifest_bytes`` bytes, and is that long.

    Sparse: the disk holds a few bytes, the file reads as ``manifest_bytes`` bytes of zeros.
    """
    header = struct.pack("<8sIQI", MAGIC, FORMAT_VERSION, 24 + manifest_bytes, manifest_bytes)
    with path.open("wb") as stream:
        stream.write(header)
        stream.truncate(24 + manifest_bytes + 32)
    return path
