"""Fuzz: thousands of random corruptions of real packs, each loaded in a worker subprocess.

A corrupt trie can kill Python outright, so the loads run in a separate process that reports each
outcome before the next; a crash is pinned on the case that caused it and the worker restarts after
it. Every corruption must be refused cleanly (a PackError naming the file); one that happens to
leave the bytes as they were must load.

Then the forgeries of issue 11, made by someone who recomputes the digest: tries edited a byte at
a time, random trie bytes, loaded the station's own way (``load_divisions``, then a ruling on every
two-letter play); none may be accepted, and none may take the worker down with it.
"""

from __future__ import annotations

import base64
import hashlib
import json
import random
import subprocess
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from kiosk.core.errors import PackError
from kiosk.core.packs.lexicon import YOUTH_SECTION
from kiosk.core.packs.pack import SIGNATURE_MAGIC, parse_pack
from lexicon_build.signing import generate_key_pair, load_private_key, sign_pack
from tests.conftest import DATA_DIR, REPO_ROOT, PackFactory
from tests.forge import edit_trie, random_trie

SEED = 20240611
SMALL_PACK_CASES = 2500  # for each of the unsigned and the signed small pack
DEMO_PACK_CASES = 300  # the shipped ENABLE pack, 330 kB each: fewer, for disk and time
# Forged tries: each is walked in a child process (~0.2 s for the small pack, ~0.6 s for the demo).
TRIE_EDITS = 60
YOUTH_TRIE_EDITS = 15
RANDOM_TRIES = 10
DEMO_TRIE_EDITS = 12
REFUSAL_REASONS = (
    "crashed the check",
    "is not the one lexicon-build makes",
    "trie cannot be read",
    "holds bytes that are not text",
    "holds something that is not a word",
    "says it holds",
    "holds more than",
    "holds other words",
)
WORKER_TIMEOUT_S = 300
WHAT_TO_DO = ("rebuild", "lexicon-build", "copy", "ask the organiser")

Corruption = Callable[[random.Random, bytes, bytes], bytes]


def flip_bits(rng: random.Random, data: bytes, other: bytes) -> bytes:
    out = bytearray(data)
    for _ in range(rng.choice([1, 1, 1, 2, 3, 8])):
        out[rng.randrange(len(out))] ^= 1 << rng.randrange(8)
    return bytes(out)


def random_bytes(rng: random.Random, data: bytes, other: bytes) -> bytes:
    out = bytearray(data)
    for _ in range(rng.randint(1, 16)):
        out[rng.randrange(len(out))] = rng.randrange(256)
    return bytes(out)


def truncate(rng: random.Random, data: bytes, other: bytes) -> bytes:
    return data[: rng.randrange(len(data))]


def append_junk(rng: random.Random, data: bytes, other: bytes) -> bytes:
    junk = rng.randbytes(rng.choice([1, 8, 32, 104, rng.randint(1, 400)]))
    if rng.random() < 0.3:
        junk = (SIGNATURE_MAGIC + junk)[: max(len(junk), len(SIGNATURE_MAGIC))]
    return data + junk


def zero_range(rng: random.Random, data: bytes, other: bytes) -> bytes:
    start = rng.randrange(len(data))
    length = rng.choice([1, 16, 512, 4096])
    return data[:start] + bytes(min(length, len(data) - start)) + data[start + length :]


def swap_chunks(rng: random.Random, data: bytes, other: bytes) -> bytes:
    length = rng.randint(1, max(1, len(data) // 8))
    a, b = sorted(rng.sample(range(len(data) - length), 2))
    if b < a + length:
        return flip_bits(rng, data, other)
    return data[:a] + data[b : b + length] + data[a + length : b] + data[a : a + length] + data[b + length :]


def splice_manifest(rng: random.Random, data: bytes, other: bytes) -> bytes:
    """Another pack's header and manifest in front of this pack's sections (or the reverse)."""
    first, second = (other, data) if rng.random() < 0.5 else (data, other)
    head_a = 24 + int.from_bytes(first[20:24], "little")
    head_b = 24 + int.from_bytes(second[20:24], "little")
    return first[:head_a] + second[head_b:]


def splice_region(rng: random.Random, data: bytes, other: bytes) -> bytes:
    """A stretch of another pack's bytes over the same offsets (a mixed-up copy)."""
    start = rng.randrange(min(len(data), len(other)))
    end = min(len(data), len(other), start + rng.randint(1, 2048))
    return data[:start] + other[start:end] + data[end:]


def _content_length(data: bytes) -> int:
    return int.from_bytes(data[12:20], "little")


def damage_a_section_and_redigest(rng: random.Random, data: bytes, other: bytes) -> bytes:
    """A faulty builder or a tamperer: bytes of a compressed section altered, the SHA-256 made to
    match again (without a valid signature). zlib must refuse the stream before marisa sees it."""
    manifest_length = int.from_bytes(data[20:24], "little")
    sections = json.loads(data[24 : 24 + manifest_length])["sections"]
    section = rng.choice(sections)
    start = 24 + manifest_length + section["offset"]
    out = bytearray(data)
    for _ in range(rng.choice([1, 1, 2, 8])):
        out[start + rng.randrange(section["length"])] ^= 1 << rng.randrange(8)
    end = _content_length(data)
    out[end : end + 32] = hashlib.sha256(out[:end]).digest()
    return bytes(out)


CORRUPTIONS: list[Corruption] = [
    flip_bits,
    flip_bits,
    random_bytes,
    truncate,
    append_junk,
    zero_range,
    swap_chunks,
    splice_manifest,
    splice_region,
    damage_a_section_and_redigest,
]


@dataclass(frozen=True)
class Case:
    path: Path
    kind: str
    keys: tuple[str, ...]
    unchanged: bool
    station: bool = False  # load it as a station does, and rule on plays with it


def same_pack(data: bytes, base: bytes) -> bool:
    """Whether a station must take ``data`` for ``base``: the same bytes, or (behind a fresh
    checksum and no signature) sections that unpack to the same bytes, as when only the padding
    bits after a zlib stream's last block were flipped. Checked without marisa (parse_pack)."""
    if data == base:
        return True
    try:
        damaged, original = parse_pack(data), parse_pack(base)
    except PackError:
        return False
    return (
        damaged.signature is None and damaged.sections == original.sections and damaged.info == original.info
    )


def corrupt_into(
    folder: Path, rng: random.Random, base: bytes, other: bytes, count: int, keys: tuple[str, ...], label: str
) -> list[Case]:
    cases = []
    for n in range(count):
        corruption = rng.choice(CORRUPTIONS)
        data = corruption(rng, base, other)
        path = folder / f"{label}-{n:05d}-{corruption.__name__}.kxpack"
        path.write_bytes(data)
        cases.append(Case(path, f"{label}/{corruption.__name__}", keys, unchanged=same_pack(data, base)))
    return cases


def run_worker(cases: list[Case], job_file: Path) -> tuple[dict[int, dict[str, object]], dict[int, str]]:
    """Load every case in worker processes; return the outcomes and the cases that crashed one."""
    job_file.write_text(
        json.dumps([{"path": str(c.path), "keys": list(c.keys), "station": c.station} for c in cases]),
        encoding="utf-8",
    )
    outcomes: dict[int, dict[str, object]] = {}
    crashes: dict[int, str] = {}
    first = 0
    while first < len(cases):
        done = subprocess.run(
            [sys.executable, "-m", "tests.pack_fuzz_worker", str(job_file), str(first)],
            cwd=REPO_ROOT,
            capture_output=True,
            text=True,
            timeout=WORKER_TIMEOUT_S,
            check=False,
        )
        for line in done.stdout.splitlines():
            outcome = json.loads(line)
            outcomes[int(outcome["index"])] = outcome
        finished = max([first - 1, *(i for i in outcomes if i >= first)]) + 1
        if done.returncode == 0 and finished == len(cases):
            break
        if finished == len(cases):
            crashes[len(cases)] = (
                f"worker exited {done.returncode} after the last case: {done.stderr[-2000:]}"
            )
            break
        crashes[finished] = f"exit code {done.returncode}; stderr: {done.stderr[-2000:]}"
        first = finished + 1
    return outcomes, crashes


@pytest.mark.slow
def test_thousands_of_corrupt_packs_are_all_refused_cleanly(tmp_path: Path, make_pack: PackFactory) -> None:
    rng = random.Random(SEED)
    enable = (DATA_DIR / "enable1.txt").read_text(encoding="ascii").split()
    words = [w for w in enable[::97] if len(w) <= 15] + ["qi", "za", "cat"]
    other_words = [w for w in enable[5::211] if len(w) <= 15]
    unsigned = make_pack(words, youth=words[::50]).read_bytes()
    other = make_pack(other_words, name="Other list").read_bytes()
    keys = generate_key_pair(tmp_path / "organiser.key", "Organiser")
    signed = sign_pack(unsigned, load_private_key(keys.private_path))
    trusted = (base64.b64encode(keys.trusted_key.public_key).decode("ascii"),)
    demo = (DATA_DIR / "enable-demo.kxpack").read_bytes()

    folder = tmp_path / "corrupt"
    folder.mkdir()
    cases = [
        *corrupt_into(folder, rng, unsigned, other, SMALL_PACK_CASES, (), "unsigned"),
        *corrupt_into(folder, rng, signed, other, SMALL_PACK_CASES, trusted, "signed"),
        *corrupt_into(folder, rng, demo, unsigned, DEMO_PACK_CASES, (), "demo"),
    ]
    outcomes, crashes = run_worker(cases, tmp_path / "job.json")

    assert not crashes, {cases[i].kind if i < len(cases) else "end": why for i, why in crashes.items()}
    assert sorted(outcomes) == list(range(len(cases)))
    problems = []
    for index, case in enumerate(cases):
        outcome = outcomes[index]
        if case.unchanged:
            if outcome["outcome"] != "accepted":
                problems.append(f"{case.path.name}: unchanged bytes were not accepted: {outcome}")
        elif outcome["outcome"] != "refused":
            problems.append(f"{case.path.name}: {outcome}")
        elif str(case.path) not in str(outcome["message"]):
            problems.append(f"{case.path.name}: message does not name the file: {outcome['message']}")
        elif not any(hint in str(outcome["message"]) for hint in WHAT_TO_DO):
            problems.append(f"{case.path.name}: message does not say what to do: {outcome['message']}")
    assert not problems, "\n".join(problems[:20])
    refusals = Counter(str(o.get("error")) for o in outcomes.values())
    assert refusals["PackCorruptError"] > len(cases) // 2
    unpacking = [i for i, c in enumerate(cases) if c.kind.endswith("redigest") and not c.unchanged]
    assert unpacking, "no section was damaged behind a fresh checksum"
    assert all(
        "section cannot be unpacked" in str(outcomes[i]["message"])
        for i in unpacking
        if cases[i].kind.startswith(("unsigned", "demo"))
    )
    assert refusals["PackSignatureError"] > 0  # signature blocks damaged, or stripped by truncation


def test_the_harness_pins_a_crash_on_its_case_and_carries_on(tmp_path: Path, make_pack: PackFactory) -> None:
    good = make_pack(["QI", "ZA"])
    # a trusted key that is not base64 kills the worker before the load: a stand-in for a crash
    cases = [
        Case(good, "good", (), True),
        Case(good, "dies", ("not base64!",), True),
        Case(good, "good", (), True),
    ]
    outcomes, crashes = run_worker(cases, tmp_path / "job.json")
    assert sorted(outcomes) == [0, 2]
    assert list(crashes) == [1]
    assert "exit code 1" in crashes[1]


@pytest.mark.slow
def test_forged_tries_behind_a_fresh_digest_never_reach_the_station(
    tmp_path: Path, make_pack: PackFactory
) -> None:
    """Issue 11: a one-byte edit of the trie with the digest recomputed segfaulted the station on a
    later lookup (6 of 40 edits); random trie bytes gave a MARISA_FORMAT_ERROR traceback."""
    rng = random.Random(SEED + 11)
    enable = (DATA_DIR / "enable1.txt").read_text(encoding="ascii").split()
    words = [w for w in enable[::97] if len(w) <= 15] + ["ma", "mas", "qi", "za", "cat"]
    small = make_pack(words, youth=words[::50]).read_bytes()
    demo = (DATA_DIR / "enable-demo.kxpack").read_bytes()
    folder = tmp_path / "forged"
    folder.mkdir()
    made: list[tuple[str, bytes]] = [
        *(("trie-edit", edit_trie(small, rng)) for _ in range(TRIE_EDITS)),
        *(("youth-trie-edit", edit_trie(small, rng, YOUTH_SECTION)) for _ in range(YOUTH_TRIE_EDITS)),
        *(("random-trie", random_trie(small, rng)) for _ in range(RANDOM_TRIES)),
        *(("demo-trie-edit", edit_trie(demo, rng)) for _ in range(DEMO_TRIE_EDITS)),
    ]
    cases = []
    for n, (kind, data) in enumerate(made):
        path = folder / f"{n:03d}-{kind}.kxpack"
        path.write_bytes(data)
        cases.append(Case(path, kind, (), unchanged=False, station=True))
    good = folder / "untouched.kxpack"
    good.write_bytes(small)
    cases.append(Case(good, "untouched", (), unchanged=True, station=True))

    outcomes, crashes = run_worker(cases, tmp_path / "job.json")

    assert not crashes, {cases[i].kind if i < len(cases) else "end": why for i, why in crashes.items()}
    assert outcomes[len(cases) - 1]["outcome"] == "accepted", outcomes[len(cases) - 1]
    problems = []
    for index, case in enumerate(cases[:-1]):
        outcome = outcomes[index]
        message = str(outcome.get("message"))
        if outcome["outcome"] != "refused":
            problems.append(f"{case.path.name}: {outcome}")
        elif str(case.path) not in message or "do not judge with it" not in message.lower():
            problems.append(f"{case.path.name}: the message does not name the file and what to do: {message}")
    assert not problems, "\n".join(problems[:20])
    reasons = Counter(
        next((r for r in REFUSAL_REASONS if r in str(outcomes[i]["message"])), "other")
        for i in range(len(made))
    )
    print(f"forged tries refused: {dict(reasons)}")  # shown with -s: how the walk caught them
