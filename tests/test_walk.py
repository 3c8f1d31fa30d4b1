"""The verification walk and the cache that lets a station start on a known pack as fast as before.

A walker whose child program cannot start (``MISSING_PROGRAM``) proves, without any mock, whether
a load walked or trusted the cache: it fails exactly when a walk is attempted.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import marisa_trie
import pytest
from click.testing import CliRunner

from kiosk.cli import kiosk
from kiosk.core.errors import PackCorruptError, PackError
from kiosk.core.packs.lexicon import WORDS_SECTION, load_lexicon
from kiosk.core.packs.pack import read_pack
from kiosk.core.packs.verification import (
    WALK_VERSION,
    PackWalker,
    WalkCache,
    WalkedTries,
    WalkRefusedError,
    make_trie,
    walk_tries,
    walker_command,
)
from kiosk.paths import walk_cache_dir
from lexicon_build.cli import main as lexicon_build
from tests.conftest import PackFactory

WORDS = ["CAT", "CATS", "DOG", "DOGS", "QI", "ZA"]
MISSING_PROGRAM = ("/nonexistent/walker",)


def no_walk(cache: WalkCache) -> PackWalker:
    """A walker that can only answer from the cache."""
    return PackWalker(cache=cache, command=MISSING_PROGRAM)


def test_a_walk_is_remembered_and_a_second_load_needs_no_child(
    tmp_path: Path, make_pack: PackFactory
) -> None:
    pack = make_pack(WORDS, youth=["DOGS"])
    cache = WalkCache(tmp_path / "data" / "verified-packs")
    with pytest.raises(PackError, match="could not be started"):
        load_lexicon(pack, walker=no_walk(cache))  # nothing remembered yet: it must walk
    load_lexicon(pack, walker=PackWalker(cache=cache))  # walked in a child, remembered
    lexicon = load_lexicon(pack, walker=no_walk(cache))  # from the cache alone
    assert "DOGS" in lexicon
    assert lexicon.walked == WalkedTries.claimed(lexicon.info)
    assert (tmp_path / "data" / "verified-packs").stat().st_mode & 0o777 == 0o700
    entry = json.loads((cache.folder / f"{read_pack(pack).content_sha256}.json").read_text())
    assert (entry["walk_version"], entry["content_sha256"]) == (WALK_VERSION, read_pack(pack).content_sha256)


def test_signing_a_walked_pack_needs_no_new_walk(tmp_path: Path, make_pack: PackFactory) -> None:
    """The cache is keyed by the content digest, which a signature block does not change."""
    from lexicon_build.signing import generate_key_pair, load_private_key, sign_pack

    pack = make_pack(WORDS)
    cache = WalkCache(tmp_path / "cache")
    load_lexicon(pack, walker=PackWalker(cache=cache))
    keys = generate_key_pair(tmp_path / "k.key", "Club")
    pack.write_bytes(sign_pack(pack.read_bytes(), load_private_key(keys.private_path)))
    assert load_lexicon(pack, trusted_keys=[keys.trusted_key], walker=no_walk(cache)).trust.is_trusted


def test_an_entry_cannot_vouch_for_other_bytes(tmp_path: Path, make_pack: PackFactory) -> None:
    good, other = make_pack(WORDS), make_pack([*WORDS, "ZAS"])
    cache = WalkCache(tmp_path / "cache")
    load_lexicon(good, walker=PackWalker(cache=cache))
    good_entry = cache.folder / f"{read_pack(good).content_sha256}.json"
    other_entry = cache.folder / f"{read_pack(other).content_sha256}.json"
    other_entry.write_bytes(good_entry.read_bytes())  # renamed: it names the good pack's digest inside
    with pytest.raises(PackError, match="could not be started"):
        load_lexicon(other, walker=no_walk(cache))
    # rewritten to name the other pack, but what it found is the good pack's words: not the manifest
    entry = json.loads(good_entry.read_text())
    entry["content_sha256"] = read_pack(other).content_sha256
    other_entry.write_text(json.dumps(entry))
    with pytest.raises(PackError, match="could not be started"):
        load_lexicon(other, walker=no_walk(cache))


def test_an_entry_of_another_walk_version_or_damaged_is_walked_again(
    tmp_path: Path, make_pack: PackFactory
) -> None:
    pack = make_pack(WORDS)
    cache = WalkCache(tmp_path / "cache")
    load_lexicon(pack, walker=PackWalker(cache=cache))
    path = cache.folder / f"{read_pack(pack).content_sha256}.json"
    entry = json.loads(path.read_text())
    for damaged in (
        json.dumps({**entry, "walk_version": WALK_VERSION - 1}),
        "{not json",
        json.dumps({**entry, "walked": {"words": "many"}}),
        "[" * 100_000,
        "x" * 10_000,
    ):
        path.write_text(damaged)
        with pytest.raises(PackError, match="could not be started"):
            load_lexicon(pack, walker=no_walk(cache))


def test_a_cache_folder_others_may_write_in_is_not_believed(tmp_path: Path, make_pack: PackFactory) -> None:
    pack = make_pack(WORDS)
    cache = WalkCache(tmp_path / "cache")
    load_lexicon(pack, walker=PackWalker(cache=cache))
    cache.folder.chmod(0o777)
    try:
        with pytest.raises(PackError, match="could not be started"):
            load_lexicon(pack, walker=no_walk(cache))
        assert cache.put("0" * 64, WalkedTries.claimed(read_pack(pack).info)) is not None
    finally:
        cache.folder.chmod(0o700)


def test_a_cache_that_cannot_be_written_costs_a_walk_not_the_pack(
    tmp_path: Path, make_pack: PackFactory, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    lexicon = load_lexicon(make_pack(WORDS), walker=PackWalker(cache=WalkCache(blocker / "cache")))
    assert "CAT" in lexicon
    assert "the packs are walked again at every start" in capsys.readouterr().err


def test_verify_walks_even_a_remembered_pack(tmp_path: Path, make_pack: PackFactory) -> None:
    pack = make_pack(WORDS)
    cache = WalkCache(tmp_path / "cache")
    load_lexicon(pack, walker=PackWalker(cache=cache))
    with pytest.raises(PackError, match="could not be started"):
        load_lexicon(pack, walker=PackWalker(cache=cache, always_walk=True, command=MISSING_PROGRAM))


def test_the_station_remembers_walks_in_its_data_directory(tmp_path: Path, make_pack: PackFactory) -> None:
    pack = make_pack(WORDS)
    config = tmp_path / "station.toml"
    config.write_text(f'[[divisions]]\nname = "Open"\npack = "{pack}"\n', encoding="utf-8")
    data = tmp_path / "data"
    result = subprocess.run(
        [sys.executable, "-c", "from kiosk.entry import run; run()", "station", "--smoke",
         "--config", str(config)],
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen", "KIOSK_DATA_DIR": str(data)},
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert (walk_cache_dir(data) / f"{read_pack(pack).content_sha256}.json").is_file()
    # lexicon-build, run with the same data directory, finds it (and so does kiosk check)
    assert load_lexicon(pack, walker=no_walk(WalkCache(walk_cache_dir(data))))


def test_lexicon_build_and_kiosk_check_share_the_data_directorys_cache(
    tmp_path: Path, make_pack: PackFactory
) -> None:
    pack = make_pack(WORDS)
    data = tmp_path / "data"
    shown = CliRunner().invoke(lexicon_build, ["info", str(pack)], env={"KIOSK_DATA_DIR": str(data)})
    assert shown.exit_code == 0, shown.output
    entry = walk_cache_dir(data) / f"{read_pack(pack).content_sha256}.json"
    assert entry.is_file()
    checked = CliRunner().invoke(
        kiosk, ["check", "--pack", str(pack), "cat"], env={"KIOSK_DATA_DIR": str(data)}
    )
    assert checked.exit_code == 0


# --- the walk itself ---------------------------------------------------------------------------


def test_the_walk_recomputes_every_set_from_the_tries() -> None:
    words, youth = make_trie(sorted(WORDS)), make_trie(["DOGS"])
    walked = walk_tries(words, youth, len(WORDS))
    assert walked.words.word_count == 6
    assert walked.youth_count == 1
    assert walked.school is not None
    assert walked.school.word_count == 5
    assert dict(walked.school.counts_by_length) == {2: 2, 3: 2, 4: 1}


@pytest.mark.parametrize(
    ("words", "youth", "most", "fragment"),
    [
        (make_trie(WORDS), None, 5, "holds more than the 5 words"),
        (make_trie(["CAT", "cat"]), None, 9, "not a word in capital letters"),
        (make_trie(["CAT", "A-B"]), None, 9, "not a word in capital letters"),
        (make_trie(WORDS), make_trie(["ZZZ"]), 9, "youth exclusion trie holds words its word trie does not"),
        (b"garbage" * 10, None, 9, "trie cannot be read"),
        # a real marisa trie of keys that are not UTF-8: reading it whole raised UnicodeDecodeError
        (bytes(marisa_trie.BinaryTrie([b"CAT", b"\xff\xfeQ"]).tobytes()), None, 9, "bytes that are not text"),
        (make_trie(WORDS) + b"\x00", None, 9, "is not the one lexicon-build makes"),  # a byte appended
    ],
)
def test_the_walk_refuses_what_is_not_a_sane_trie_of_words(
    words: bytes, youth: bytes | None, most: int, fragment: str
) -> None:
    with pytest.raises(WalkRefusedError, match=fragment):
        walk_tries(words, youth, most)


def test_a_trie_marisa_did_not_write_from_its_words_is_refused(make_pack: PackFactory) -> None:
    """The refusal the fuzz harness meets most: a trie whose words read back, in bytes marisa would not
    write for them (here a real trie, saved with other settings than the builder's)."""

    trie = make_trie(WORDS)
    # the same words, the trie saved with another of marisa's own settings: sane, but not the builder's
    other = bytes(marisa_trie.Trie(WORDS, num_tries=2).tobytes())
    assert other != trie
    with pytest.raises(WalkRefusedError, match="is not the one lexicon-build makes from the 6 words"):
        walk_tries(other, None, 10)


def test_the_child_reports_a_crash_as_a_refusal_naming_the_file(
    tmp_path: Path, make_pack: PackFactory
) -> None:
    """A walker whose child dies of a signal (here: a program that kills itself) refuses the pack."""
    pack = make_pack(WORDS)
    suicide = (sys.executable, "-c", "import os, signal; os.kill(os.getpid(), signal.SIGSEGV)")
    with pytest.raises(PackCorruptError) as caught:
        load_lexicon(pack, walker=PackWalker(command=suicide))
    assert str(pack) in str(caught.value)
    assert "crashed the check that walks them before a station uses them (SIGSEGV)" in str(caught.value)


def test_a_walk_that_never_ends_is_cut_off(make_pack: PackFactory) -> None:
    pack = make_pack(WORDS)
    forever = (sys.executable, "-c", "import time; time.sleep(60)")
    with pytest.raises(PackCorruptError, match="reading its tries took more than 1 s"):
        load_lexicon(pack, walker=PackWalker(command=forever, timeout_s=1))


def test_the_walker_command_is_this_python_or_the_frozen_program_itself() -> None:
    assert walker_command() == (sys.executable, "-m", "kiosk.core.packs.verification")


def test_the_child_walks_a_frame_from_standard_input(make_pack: PackFactory) -> None:
    from kiosk.core.packs.verification import _frame

    contents = read_pack(make_pack(WORDS, youth=["DOGS"]))
    done = subprocess.run(
        list(walker_command()), input=_frame(contents), capture_output=True, timeout=60, check=True
    )
    assert WalkedTries.from_json(json.loads(done.stdout)["walked"]) == WalkedTries.claimed(contents.info)
    bad = dict(contents.sections)
    bad[WORDS_SECTION] = b"junk"
    forged = type(contents)(contents.path, contents.info, bad, contents.content_sha256, None)
    done = subprocess.run(
        list(walker_command()), input=_frame(forged), capture_output=True, timeout=60, check=True
    )
    assert "cannot be read" in json.loads(done.stdout)["refused"]
