"""Every way a pack gets damaged is refused with a message naming the file, the fault and the fix.

Damage that leaves the checksum wrong is refused before any trie is parsed. Damage with a *fresh*
checksum (only a faulty builder or a deliberate tamperer writes that) is refused where it can be
seen without parsing garbage; against tampering proper, stations rely on signatures.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
import struct
import tracemalloc
import zlib
from pathlib import Path
from typing import Any

import marisa_trie
import pytest

from kiosk import __version__
from kiosk.core.errors import NotAPackError, PackCorruptError, PackError, PackVersionError
from kiosk.core.packs.lexicon import WORDS_SECTION, YOUTH_SECTION, load_lexicon
from kiosk.core.packs.pack import DIGEST_BYTES, FORMAT_VERSION, SIGNATURE_MAGIC, encode_pack, read_pack
from kiosk.core.words.normalise import NORMALISER_VERSION
from tests.conftest import DATA_DIR, PackFactory

WORDS = ["CAT", "CATS", "DOG", "DOGS", "QI", "ZA", "ZAS", "QAT"]
REBUILD_HINTS = ("rebuild", "lexicon-build", "copy it again")


@pytest.fixture
def pack(make_pack: PackFactory) -> Path:
    return make_pack(WORDS, youth=["DOGS"])


def refused(path: Path, error: type[PackError], *fragments: str) -> str:
    with pytest.raises(error) as caught:
        load_lexicon(path)
    message = str(caught.value)
    assert str(path) in message, message
    assert any(hint in message for hint in REBUILD_HINTS), message
    for fragment in fragments:
        assert fragment in message, message
    return message


def header(data: bytes | bytearray) -> tuple[int, int, int]:
    _, version, content_length, manifest_length = struct.unpack_from("<8sIQI", data)
    return version, content_length, manifest_length


def redigest(data: bytes | bytearray) -> bytes:
    """What a faulty builder or a tamperer writes: altered bytes with a checksum that matches."""
    out = bytearray(data)
    _, content_length, _ = header(out)
    out[content_length : content_length + DIGEST_BYTES] = hashlib.sha256(out[:content_length]).digest()
    return bytes(out)


def rewrite(path: Path, data: bytes | bytearray) -> Path:
    path.write_bytes(bytes(data))
    return path


@pytest.mark.parametrize("keep", [0.0, 0.1, 0.5, 0.9, 0.999])
def test_a_truncated_pack_is_refused(pack: Path, keep: float) -> None:
    data = pack.read_bytes()
    cut = max(1, int(len(data) * keep))
    refused(rewrite(pack, data[:cut]), PackCorruptError, "damaged")


def test_a_pack_one_byte_short_is_refused(pack: Path) -> None:
    refused(rewrite(pack, pack.read_bytes()[:-1]), PackCorruptError, "truncated")


def test_an_empty_file_is_refused(pack: Path) -> None:
    refused(rewrite(pack, b""), PackCorruptError, "empty")


@pytest.mark.parametrize(
    ("where", "fragment"),
    [
        (0, "first bytes were altered"),
        (7, "first bytes were altered"),
        (13, "damaged"),  # content length
        (21, "checksum"),  # manifest length
        (30, "checksum"),  # inside the manifest
        (-40, "checksum"),  # inside the last section
        (-1, "checksum"),  # inside the digest
    ],
)
def test_a_flipped_bit_is_refused(pack: Path, where: int, fragment: str) -> None:
    data = bytearray(pack.read_bytes())
    data[where] ^= 0x10
    refused(rewrite(pack, data), PackCorruptError, fragment)


def test_a_flipped_bit_in_every_byte_is_refused(pack: Path) -> None:
    original = pack.read_bytes()
    for position in range(len(original)):
        data = bytearray(original)
        data[position] ^= 1 << (position % 8)
        refused(rewrite(pack, data), PackError)


def manifest_of(data: bytes) -> dict[str, Any]:
    _, _, manifest_length = header(data)
    manifest: dict[str, Any] = json.loads(data[24 : 24 + manifest_length])
    return manifest


def stored_sections(data: bytes) -> dict[str, bytes]:
    """Each section's bytes as stored in the file (compressed), by name."""
    _, _, manifest_length = header(data)
    start = 24 + manifest_length
    return {
        entry["name"]: data[start + entry["offset"] : start + entry["offset"] + entry["length"]]
        for entry in manifest_of(data)["sections"]
    }


def repack(manifest: dict[str, Any], stored: list[bytes]) -> bytes:
    """A pack laid out from a manifest and stored sections, with a checksum that matches."""
    body = json.dumps(manifest, sort_keys=True, separators=(",", ":")).encode()
    content = struct.pack(
        "<8sIQI", b"KXLEXPK\n", FORMAT_VERSION, 24 + len(body) + sum(map(len, stored)), len(body)
    )
    content += body + b"".join(stored)
    return content + hashlib.sha256(content).digest()


def test_swapped_sections_are_refused(pack: Path) -> None:
    data = pack.read_bytes()
    stored = stored_sections(data)
    words, youth = stored[WORDS_SECTION], stored[YOUTH_SECTION]
    start = data.index(words)
    assert data[start + len(words) :].startswith(youth)
    swapped = data[:start] + youth + words + data[start + len(words) + len(youth) :]
    assert len(swapped) == len(data)
    refused(rewrite(pack, swapped), PackCorruptError, "checksum")


def test_swapped_sections_of_equal_length_with_a_fresh_checksum_are_refused(make_pack: PackFactory) -> None:
    path = make_pack(WORDS, youth=WORDS)  # the youth trie is the word trie, byte for byte
    contents = read_pack(path)
    # a manifest that adds up (one exclusion, the school set one word short) over the same tries
    info = dataclasses.replace(
        contents.info, youth_exclusion_count=1, school_counts_by_length={2: 2, 3: 4, 4: 1}
    )
    words = contents.sections[WORDS_SECTION]
    rewrite(path, encode_pack(info, {WORDS_SECTION: words, YOUTH_SECTION: words}))
    refused(path, PackCorruptError, "the youth exclusion trie holds 8 words", "the manifest says 1 words")


@pytest.mark.parametrize(
    ("data", "fragment"),
    [
        (b"CAT\nDOG\nQI\n", "is a word list, not a lexicon pack"),
        (b"\x03\x00\x00\x00" + b"\x00" * 12, "is a binary file, not a lexicon pack"),  # letterless graph
        (marisa_trie.Trie(["CAT", "DOG"]).tobytes(), "is a binary file, not a lexicon pack"),  # a bare trie
        (b"KXLEXPK\n", "truncated inside its header"),
    ],
)
def test_a_file_of_another_kind_is_refused(tmp_path: Path, data: bytes, fragment: str) -> None:
    message = refused(rewrite(tmp_path / "lexicon.kxpack", data), PackCorruptError, fragment)
    if "not a lexicon pack" in message:
        assert "lexicon-build build" in message


@pytest.mark.parametrize(
    ("data", "fragment"),
    [
        (b"PK\x03\x04" + b"\x00" * 100, "is a zip archive, not a lexicon pack; unzip it"),
        (b"\x89PNG\r\n\x1a\n" + b"\x00" * 100, "is an image (PNG), not a lexicon pack"),
    ],
)
def test_a_file_of_a_known_kind_is_named_as_such(tmp_path: Path, data: bytes, fragment: str) -> None:
    path = rewrite(tmp_path / "lexicon.kxpack", data)
    with pytest.raises(NotAPackError, match=re.escape(f"{path} {fragment}")):
        load_lexicon(path)


def test_a_folder_or_a_missing_file_is_refused(tmp_path: Path) -> None:
    with pytest.raises(PackCorruptError, match="is a folder"):
        load_lexicon(tmp_path)
    with pytest.raises(PackCorruptError, match="does not exist"):
        load_lexicon(tmp_path / "missing.kxpack")


def test_the_shipped_demo_pack_with_its_bytes_edited_is_refused(tmp_path: Path) -> None:
    data = bytearray((DATA_DIR / "enable-demo.kxpack").read_bytes())
    data[len(data) // 2] ^= 0x04
    refused(rewrite(tmp_path / "enable-demo.kxpack", data), PackCorruptError, "checksum")


@pytest.mark.parametrize("version", [FORMAT_VERSION + 1, FORMAT_VERSION + 7])
def test_a_newer_format_names_the_builder_to_use(pack: Path, version: int) -> None:
    data = bytearray(pack.read_bytes())
    struct.pack_into("<I", data, 8, version)
    message = refused(rewrite(pack, redigest(data)), PackVersionError, f"pack format {version}")
    assert f"lexicon-build {__version__}" in message
    assert "update the station" in message


@pytest.mark.parametrize("bit", range(10))
def test_a_flipped_bit_in_the_format_version_is_damage_not_a_version(pack: Path, bit: int) -> None:
    data = bytearray(pack.read_bytes())
    struct.pack_into("<I", data, 8, FORMAT_VERSION ^ (1 << bit))
    refused(rewrite(pack, data), PackCorruptError, "damaged")


@pytest.mark.parametrize("version", [0, 0x01000001, 0xFFFFFFFF])
def test_an_impossible_format_version_is_damage_not_a_version(pack: Path, version: int) -> None:
    data = bytearray(pack.read_bytes())
    struct.pack_into("<I", data, 8, version)
    refused(rewrite(pack, data), PackCorruptError, "damaged", "which no builder writes")


def test_another_normaliser_version_names_both_builders(pack: Path) -> None:
    contents = read_pack(pack)
    info = dataclasses.replace(
        contents.info, normaliser_version=NORMALISER_VERSION + 1, builder_version="9.9"
    )
    rewrite(pack, encode_pack(info, contents.sections))
    message = refused(pack, PackVersionError, f"normaliser version {NORMALISER_VERSION + 1}")
    assert "lexicon-build 9.9" in message
    assert f"lexicon-build {__version__}" in message


def test_a_manifest_claiming_another_format_is_refused(pack: Path) -> None:
    contents = read_pack(pack)
    info = dataclasses.replace(contents.info, format_version=FORMAT_VERSION + 1)
    refused(rewrite(pack, encode_pack(info, contents.sections)), PackCorruptError, "faulty builder")


def test_a_manifest_with_the_wrong_word_count_is_refused(pack: Path) -> None:
    contents = read_pack(pack)
    info = dataclasses.replace(contents.info, word_count=contents.info.word_count + 1)
    refused(
        rewrite(pack, encode_pack(info, contents.sections)), PackCorruptError, "adds up to 8 words, not 9"
    )


def test_a_manifest_that_forgets_the_youth_list_is_refused(pack: Path) -> None:
    contents = read_pack(pack)
    info = dataclasses.replace(
        contents.info,
        youth_set_hash=None,
        youth_exclusion_count=0,
        school_set_hash=None,
        school_counts_by_length=None,
    )
    refused(rewrite(pack, encode_pack(info, contents.sections)), PackCorruptError, "youth exclusion list")


@pytest.mark.parametrize(
    "junk", [b"\n", b"\x00" * 31, b"\x00" * 104, SIGNATURE_MAGIC + b"\x00" * 96, b"x" * 4096]
)
def test_appended_junk_is_refused(pack: Path, junk: bytes) -> None:
    data = pack.read_bytes() + junk
    with pytest.raises(PackError) as caught:
        load_lexicon(rewrite(pack, data))
    assert str(pack) in str(caught.value)


def test_a_pack_appended_to_itself_is_refused(pack: Path) -> None:
    refused(rewrite(pack, pack.read_bytes() * 2), PackCorruptError, "longer than its builder wrote it")


def test_a_manifest_spliced_from_another_pack_is_refused(make_pack: PackFactory) -> None:
    first = make_pack(WORDS, youth=["DOGS"])
    second = make_pack(["AA", "AB", "BA"], name="Other list")
    a, b = first.read_bytes(), second.read_bytes()
    _, _, manifest_a = header(a)
    version_b, content_b, manifest_b = header(b)
    spliced = a[: 24 + manifest_a] + b[24 + manifest_b :]
    refused(rewrite(first, spliced), PackCorruptError)
    # the same splice with its header and checksum made consistent: the manifest and the sections
    # no longer tile
    body = a[24 : 24 + manifest_a] + b[24 + manifest_b : content_b]
    fixed = struct.pack("<8sIQI", a[:8], version_b, 24 + len(body), manifest_a) + body
    refused(rewrite(first, redigest(fixed + b"\x00" * DIGEST_BYTES)), PackCorruptError, "faulty builder")


@pytest.mark.parametrize(
    "manifest",
    [b"not json", b"[1, 2, 3]", b'{"pack": {}}', b"[" * 100_000 + b"]" * 100_000, b'{"pack": 1e999}'],
)
def test_an_unreadable_manifest_with_a_fresh_checksum_is_refused(tmp_path: Path, manifest: bytes) -> None:
    body = manifest
    data = struct.pack("<8sIQI", b"KXLEXPK\n", FORMAT_VERSION, 24 + len(body), len(body)) + body
    path = rewrite(tmp_path / "odd.kxpack", redigest(data + b"\x00" * DIGEST_BYTES))
    refused(path, PackCorruptError, "manifest that cannot be read")


# --- the section encoding (format 2): zlib streams, unpacked only once verified, and bounded ---


@pytest.mark.parametrize("where", [0, 1, 2, 100, -5, -1])  # zlib header, the stream, its Adler-32
def test_a_damaged_section_with_a_fresh_checksum_is_refused_before_marisa_sees_it(
    pack: Path, where: int
) -> None:
    data = pack.read_bytes()
    words = stored_sections(data)[WORDS_SECTION]
    start = data.index(words)
    damaged = bytearray(data)
    damaged[start + (where % len(words))] ^= 0x5A
    refused(
        rewrite(pack, redigest(damaged)), PackCorruptError, "'words' section cannot be unpacked", "faulty"
    )


def test_a_section_cut_short_with_a_fresh_manifest_is_refused(pack: Path) -> None:
    data = pack.read_bytes()
    manifest, stored = manifest_of(data), stored_sections(data)
    cut = stored[WORDS_SECTION][: len(stored[WORDS_SECTION]) // 2]
    manifest["sections"][0]["length"] = len(cut)
    manifest["sections"][1]["offset"] = len(cut)
    rewrite(pack, repack(manifest, [cut, stored[YOUTH_SECTION]]))
    refused(pack, PackCorruptError, "cut short")


@pytest.mark.parametrize(
    ("size", "fragment"),
    [
        (2**40, "not a number of bytes up to"),  # would exhaust memory if believed
        (-1, "not a number of bytes up to"),
        ("100", "not a number of bytes up to"),
        (True, "not a number of bytes up to"),
        (1, "more than the 1 bytes"),
        (0, "more than the 0 bytes"),
        ("bigger", "bytes, not the"),
    ],
)
def test_a_section_whose_manifest_size_is_wrong_is_refused(pack: Path, size: object, fragment: str) -> None:
    data = pack.read_bytes()
    manifest, stored = manifest_of(data), stored_sections(data)
    entry = manifest["sections"][0]
    entry["size"] = entry["size"] + 1 if size == "bigger" else size
    refused(rewrite(pack, repack(manifest, list(stored.values()))), PackCorruptError, fragment)


def test_a_section_that_unpacks_to_far_more_than_its_size_is_stopped_at_its_size(tmp_path: Path) -> None:
    """A forged pack whose 'words' section is 64 KiB of zlib that would unpack to 256 MiB."""
    bomb = zlib.compress(bytes(256 << 20), 9)
    manifest = manifest_of((DATA_DIR / "enable-demo.kxpack").read_bytes())
    manifest["pack"].update(
        youth_set_hash=None, youth_exclusion_count=0, school_set_hash=None, school_counts_by_length=None
    )
    manifest["sections"] = [
        {"name": WORDS_SECTION, "offset": 0, "length": len(bomb), "encoding": "zlib", "size": 4096}
    ]
    path = rewrite(tmp_path / "bomb.kxpack", repack(manifest, [bomb]))
    tracemalloc.start()
    try:
        refused(path, PackCorruptError, "more than the 4096 bytes")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 8 << 20, f"unpacking took {peak} bytes"


@pytest.mark.parametrize("encoding", ["lzma", "none", None, 1])
def test_a_section_encoding_this_station_does_not_know_is_refused(pack: Path, encoding: object) -> None:
    data = pack.read_bytes()
    manifest, stored = manifest_of(data), stored_sections(data)
    manifest["sections"][1]["encoding"] = encoding
    refused(rewrite(pack, repack(manifest, list(stored.values()))), PackCorruptError, "section encoding")


def test_bytes_after_a_section_stream_are_refused(pack: Path) -> None:
    data = pack.read_bytes()
    manifest, stored = manifest_of(data), stored_sections(data)
    youth = stored[YOUTH_SECTION] + b"\x00"
    manifest["sections"][1]["length"] = len(youth)
    refused(rewrite(pack, repack(manifest, [stored[WORDS_SECTION], youth])), PackCorruptError, "not the")
