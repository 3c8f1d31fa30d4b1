"""The verification walk and the cache that lets a station start on a known pack as fast as before.

A walker whose child program cannot start (``MISSING_PROGRAM``) proves, without any mock, whether
a load walked or trusted the cache: it fails exactly when a walk is attempted.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import marisa_trie
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk import __version__
from kiosk.cli import kiosk
from kiosk.core.errors import PackCorruptError, PackError
from kiosk.core.packs.lexicon import WORDS_SECTION, load_lexicon
from kiosk.core.packs.pack import PackInfo, encode_pack, parse_pack, read_pack
from kiosk.core.packs.verification import (
    WALK_VERSION,
    PackWalker,
    TriesWalk,
    WalkCache,
    WalkedTries,
    WalkRefusedError,
    WordSet,
    forking_is_safe,
    make_trie,
    prove_made,
    walk_tries,
    walker_command,
    word_set_facts,
)
from kiosk.core.words.alphabet import ENGLISH, Alphabet
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


@settings(max_examples=200, deadline=None)
@given(words=st.lists(st.text(max_size=12)))
def test_make_trie_makes_the_bytes_of_marisas_own_trie_of_the_words(words: list[str]) -> None:
    """The builder's tries and the walk's rebuilds are marisa's ``Trie(words)``, whatever the words
    (line feeds, repeats, any Unicode that UTF-8 encodes), however they are handed to marisa."""
    words = [w for w in words if not any(0xD800 <= ord(c) <= 0xDFFF for c in w)]  # no lone surrogates
    assert make_trie(words) == bytes(marisa_trie.Trie(words).tobytes())


def _made(words: list[str]) -> tuple[bytes, dict[str, bytes], WalkedTries]:
    """A pack encoded, as the builder encodes it, from the trie it made of ``words`` (sorted), with
    the facts it computed from them."""
    walked = WalkedTries(words=word_set_facts(words, ENGLISH))
    info = PackInfo(
        name="Made",
        edition="",
        description="",
        max_length=15,
        word_count=len(words),
        counts_by_length=dict(walked.words.counts_by_length),
        youth_exclusion_count=0,
        set_hash=walked.words.set_hash,
        youth_set_hash=None,
        sources=(),
        builder_version=__version__,
    )
    sections = {WORDS_SECTION: make_trie(words)}
    return encode_pack(info, sections), sections, walked


def test_the_builders_proof_passes_the_tries_it_made_from_the_words_it_holds() -> None:
    words = sorted(WORDS)
    data, sections, walked = _made(words)
    prove_made(parse_pack(data), sections, {WORDS_SECTION: WordSet.of(words, ENGLISH)}, walked)


@pytest.mark.parametrize(
    ("claimed", "fragment"),
    [
        (sorted([*WORDS, "ZAS"]), "does not hold the words it was made from"),  # a word it lacks
        (sorted(WORDS)[1:], "holds more than the 5 words"),  # one word more than said
        (sorted([*WORDS[:-1], "ZO"]), "does not hold the words it was made from"),  # one word other
    ],
)
def test_the_builders_proof_refuses_a_trie_that_holds_other_words(claimed: list[str], fragment: str) -> None:
    data, sections, walked = _made(sorted(WORDS))
    with pytest.raises(PackCorruptError, match=fragment):
        prove_made(parse_pack(data), sections, {WORDS_SECTION: WordSet.of(claimed, ENGLISH)}, walked)


def test_the_builders_proof_refuses_a_pack_whose_tries_are_not_the_ones_made() -> None:
    data, _, walked = _made(sorted(WORDS))
    other = {WORDS_SECTION: make_trie(sorted([*WORDS, "ZAS"]))}
    with pytest.raises(PackCorruptError, match="did not read back as they were written"):
        prove_made(parse_pack(data), other, {WORDS_SECTION: WordSet.of(sorted(WORDS), ENGLISH)}, walked)


def test_the_builders_proof_refuses_words_the_walk_would_refuse_and_facts_the_manifest_denies() -> None:
    lower = sorted(["cat", "dogs"])
    data, sections, walked = _made(lower)
    with pytest.raises(PackCorruptError, match="not a word it stores"):
        prove_made(parse_pack(data), sections, {WORDS_SECTION: WordSet.of(lower, ENGLISH)}, walked)
    data, sections, walked = _made(sorted(WORDS))
    wrong = WalkedTries(words=word_set_facts(sorted(WORDS)[1:], ENGLISH))
    with pytest.raises(PackCorruptError, match="holds other words than its manifest says"):
        prove_made(parse_pack(data), sections, {WORDS_SECTION: WordSet.of(sorted(WORDS), ENGLISH)}, wrong)


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
        # real tries whose keys would read as other words once joined: one with a line feed in it
        # (its words' digest would be another set's), the empty word
        (make_trie(["CAT", "DOG\nS"]), None, 9, "not a word in capital letters"),
        (make_trie(["", "CAT"]), None, 9, "not a word in capital letters"),
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


def _dies(words: bytes, youth: bytes | None, most: int, alphabet: Alphabet) -> WalkedTries:
    os.kill(os.getpid(), signal.SIGSEGV)
    raise AssertionError("a process killed by SIGSEGV does not go on")


def _hangs(words: bytes, youth: bytes | None, most: int, alphabet: Alphabet) -> WalkedTries:
    time.sleep(60)
    raise AssertionError("cut off long before")


def _refuses(words: bytes, youth: bytes | None, most: int, alphabet: Alphabet) -> WalkedTries:
    raise WalkRefusedError("its word trie is made of straw")


def _fails(words: bytes, youth: bytes | None, most: int, alphabet: Alphabet) -> WalkedTries:
    raise MemoryError("no room for a trie this size")


def test_a_walk_runs_in_a_forked_copy_of_this_process_when_no_other_thread_runs() -> None:
    code = "from kiosk.core.packs.verification import forking_is_safe; print(forking_is_safe())"
    check = [sys.executable, "-c", code]
    assert subprocess.run(check, capture_output=True, text=True, check=True).stdout.strip() == "True"
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        assert not forking_is_safe()  # a thread would be copied without the locks it holds
    finally:
        stop.set()
        other.join()


@pytest.mark.parametrize(
    ("walk", "fragment"),
    [
        (_dies, "crashed the check that walks them before a station uses them (SIGSEGV)"),
        (_refuses, "is damaged or forged: its word trie is made of straw"),
        (
            _fails,
            "walks its tries failed (the walk raised an error: MemoryError: no room for a trie this size)",
        ),
    ],
)
def test_a_forked_walk_that_dies_or_refuses_refuses_the_pack_naming_the_file(
    make_pack: PackFactory, walk: TriesWalk, fragment: str
) -> None:
    pack = make_pack(WORDS)
    with pytest.raises(PackCorruptError) as caught:
        load_lexicon(pack, walker=PackWalker(walk=walk, fork=True))
    assert str(pack) in str(caught.value)
    assert fragment in str(caught.value)


def test_a_forked_walk_that_never_ends_is_cut_off_and_its_process_killed(make_pack: PackFactory) -> None:
    walk = PackWalker(walk=_hangs, timeout_s=1, fork=True).start(read_pack(make_pack(WORDS)))
    assert not walk.done()
    with pytest.raises(PackCorruptError, match="reading its tries took more than 1 s"):
        walk.result()
    assert walk.done()
    with pytest.raises(PackCorruptError, match="reading its tries took more than 1 s"):
        walk.result()  # the same answer again, with no process left to wait for


def test_a_started_walk_runs_while_the_caller_works_and_is_checked_once_it_ends(
    tmp_path: Path, make_pack: PackFactory
) -> None:
    contents = read_pack(make_pack(WORDS, youth=["DOGS"]))
    cache = WalkCache(tmp_path / "cache")
    walk = PackWalker(cache=cache, fork=True).start(contents)
    assert walk.result() == WalkedTries.claimed(contents.info)
    assert walk.done()
    assert cache.get(contents.content_sha256) == WalkedTries.claimed(contents.info)  # remembered
    assert (
        PackWalker(cache=cache, walk=_dies, fork=True).start(contents).done()
    )  # from the cache: nothing runs


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
