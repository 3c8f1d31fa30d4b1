"""The forgeries of issue 11, each refused with a message naming the file -- none may hurt a station.

Made by someone who can recompute the digest but holds no trusted key (``tests/forge.py``). The
random ones (tries edited a byte at a time, random trie bytes) run by the hundred in the fuzz
harness (``tests/test_pack_fuzz.py``), where a crash is pinned on its case; here, one of each, as
the organiser and the station meet them: lexicon-build verify, kiosk check --batch, the station's
start-up in a kiosk session, and a judge's reload.
"""

from __future__ import annotations

import dataclasses
import os
import random
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest
from click.testing import CliRunner

from kiosk.cli import kiosk
from kiosk.core.edition import EditionTable, KnownEdition, load_edition_table
from kiosk.core.errors import PackCorruptError, PackEditionError, PackError, PackSignatureError
from kiosk.core.packs.lexicon import load_lexicon
from kiosk.core.packs.pack import MAX_MANIFEST_BYTES, read_pack
from kiosk.core.packs.trust import TrustedKey
from kiosk.core.station.config import Division, StationConfig, Verifier, load_divisions
from kiosk.core.station.reload import reload_divisions
from kiosk.paths import known_editions_path
from lexicon_build.cli import main as lexicon_build
from lexicon_build.signing import generate_key_pair, load_private_key, sign_pack
from tests.conftest import PackFactory
from tests.forge import edit_trie, huge_manifest, random_trie, swap_words, with_info, zero_words

WORDS = ["CAT", "CATS", "DOG", "DOGS", "MA", "MAS", "MAMA", "QI", "ZA", "ZAS"]
DO_NOT_JUDGE = "do not judge with it"


@pytest.fixture
def pack(make_pack: PackFactory) -> Path:
    return make_pack(WORDS, youth=["DOGS"], name="Club list", edition="2024")


def refused(
    path: Path, error: type[PackError] = PackCorruptError, *, keys: tuple[TrustedKey, ...] = ()
) -> str:
    with pytest.raises(error) as caught:
        load_lexicon(path, trusted_keys=keys)
    message = str(caught.value)
    assert str(path) in message, message
    return message


def test_a_one_byte_trie_edit_behind_a_fresh_digest_fails_verify(pack: Path) -> None:
    """Today's verify printed OK for it, and the station then segfaulted on a play with MA."""
    pack.write_bytes(edit_trie(pack.read_bytes(), random.Random(4)))
    result = CliRunner().invoke(lexicon_build, ["verify", str(pack)])
    assert result.exit_code == 1, result.output
    assert str(pack) in result.stderr
    assert "trie" in result.stderr
    assert "OK" not in result.stdout


def test_words_swapped_under_a_kept_manifest_are_refused_everywhere(
    pack: Path, make_pack: PackFactory
) -> None:
    """Today: verify printed OK with the old set hash, the new word was ACCEPTABLE, the log said the
    old hash."""
    other = make_pack([w for w in WORDS if w != "ZAS"] + ["ZZZ"], youth=["DOGS"])
    pack.write_bytes(swap_words(pack.read_bytes(), other.read_bytes()))
    message = refused(pack)
    assert "holds other words than its manifest says" in message
    assert DO_NOT_JUDGE in message.lower()
    verify = CliRunner().invoke(lexicon_build, ["verify", str(pack)])
    assert verify.exit_code == 1
    assert "holds other words than its manifest says" in verify.stderr
    check = CliRunner().invoke(kiosk, ["check", "--pack", str(pack), "zzz"])
    assert check.exit_code == 2
    assert "ACCEPTABLE" not in check.stdout


def test_batch_reading_while_a_forged_pack_is_walked_prints_no_ruling(pack: Path, tmp_path: Path) -> None:
    """kiosk check --batch reads its input while the pack's walk runs (in a forked copy of a fresh
    process): a walk that refuses the trie leaves every line unruled, the pack named, exit 2."""
    pack.write_bytes(edit_trie(pack.read_bytes(), random.Random(4)))
    lines = "".join(f"{word.lower()}\n" for word in WORDS) * 30_000  # several blocks read meanwhile
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "from kiosk.entry import run; run()",
            "check",
            "--pack",
            str(pack),
            "--batch",
            "-",
        ],
        input=lines.encode("ascii"),
        capture_output=True,
        env={**os.environ, "KIOSK_DATA_DIR": str(tmp_path / "data")},
        check=False,
    )
    assert done.returncode == 2
    assert done.stdout == b""
    assert str(pack) in done.stderr.decode("utf-8")
    assert DO_NOT_JUDGE in done.stderr.decode("utf-8").lower()


def test_a_pack_of_no_words_is_refused(pack: Path) -> None:
    """The builder refuses to make one; one made by hand loaded and ruled every play unacceptable."""
    pack.write_bytes(zero_words(pack.read_bytes()))
    assert "pack.word_count is 0, not a whole number from 1" in refused(pack)


@pytest.mark.parametrize("max_length", [0, 1, -5, 65, True])
def test_an_impossible_max_length_is_refused_and_batch_says_so(pack: Path, max_length: object) -> None:
    """max_length 0 or 1 crashed kiosk check --batch with re.error; -5 was accepted."""
    pack.write_bytes(with_info(pack.read_bytes(), max_length=max_length))
    assert "pack.max_length is" in refused(pack)
    result = CliRunner().invoke(kiosk, ["check", "--pack", str(pack), "--batch", "-"], input="CAT\nQI\n")
    assert result.exit_code == 2
    assert "pack.max_length is" in result.stderr
    assert "Traceback" not in result.output
    assert result.stdout == ""


@pytest.mark.parametrize(
    ("changes", "fragment"),
    [
        ({"name": "Club\x1b[2J list"}, "pack.name cannot be shown"),
        ({"name": "\u202eCLUB"}, "pack.name cannot be shown"),
        ({"description": "x" * 5000}, "pack.description cannot be shown: it is 5000 characters long"),
        ({"counts_by_length": {2: 3, 3: 4, 4: 4}}, "pack.counts_by_length adds up to 11 words, not 10"),
        ({"youth_exclusion_count": 11}, "pack.youth_exclusion_count is 11"),
        ({"set_hash": "md5:abc"}, "pack.set_hash is \"md5:abc\", not 'sha256:' and 64 hex digits"),
    ],
)
def test_every_manifest_field_is_checked_before_it_is_used(
    pack: Path, changes: dict[str, object], fragment: str
) -> None:
    pack.write_bytes(with_info(pack.read_bytes(), **changes))
    assert fragment in refused(pack)


def test_a_315_mb_manifest_is_refused_from_its_header_in_bounded_memory(tmp_path: Path) -> None:
    """Today: 15 s and 1.7 GB before a station with trusted keys refused it."""
    path = huge_manifest(tmp_path / "huge.kxpack", 315_000_000)
    assert path.stat().st_size > 315_000_000
    key = TrustedKey("Organiser", bytes(range(32)))
    tracemalloc.start()
    try:
        for keys in ((), (key,)):
            message = refused(path, keys=keys)
            assert "more than any pack can be" in message or f"at most {MAX_MANIFEST_BYTES:,}" in message
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1 << 20, f"refusing it took {peak} bytes"


def test_a_manifest_over_its_bound_in_a_pack_of_plausible_size_is_refused_before_it_is_read(
    tmp_path: Path,
) -> None:
    path = huge_manifest(tmp_path / "big.kxpack", MAX_MANIFEST_BYTES + 1)
    assert f"a manifest of {MAX_MANIFEST_BYTES + 1:,} bytes" in refused(path)


def test_with_trusted_keys_an_unsigned_pack_is_refused_before_its_manifest_is_parsed(pack: Path) -> None:
    """A manifest that is not even JSON: a station with trusted keys refuses it for its signature,
    because it never parses what no trusted key signed."""
    contents = read_pack(pack)
    assert contents.signature is None
    data = bytearray(pack.read_bytes())
    start = 24
    data[start : start + 8] = b"NOT JSON"
    import hashlib
    import struct

    content_length = struct.unpack_from("<Q", data, 12)[0]
    data[content_length : content_length + 32] = hashlib.sha256(data[:content_length]).digest()
    pack.write_bytes(bytes(data))
    assert "manifest that cannot be read" in refused(pack)
    key = TrustedKey("Organiser", bytes(range(32)))
    assert "is not signed" in refused(pack, PackSignatureError, keys=(key,))


def test_random_trie_bytes_show_the_not_ready_screen_in_a_kiosk_session(pack: Path, tmp_path: Path) -> None:
    """Today: a MARISA_FORMAT_ERROR traceback and no 'not ready' screen."""
    pack.write_bytes(random_trie(pack.read_bytes(), random.Random(9)))
    config = tmp_path / "station.toml"
    config.write_text(f'[[divisions]]\nname = "Open"\npack = "{pack}"\n', encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-c", "from kiosk.entry import run; run()", "station", "--kiosk-session", "--smoke",
         "--config", str(config)],
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen", "KIOSK_DATA_DIR": str(tmp_path / "data")},
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert result.returncode == 2, result.stderr
    assert "not-ready frame painted" in result.stdout
    assert f"division 'Open', pack: {pack} is damaged or forged" in result.stderr
    assert "Traceback" not in result.stderr
    assert "MARISA" not in result.stderr or "cannot be read" in result.stderr


# --- a judge's reload, and a division that pins its edition ---------------------------------------


def signed(path: Path, key_file: Path) -> Path:
    path.write_bytes(sign_pack(path.read_bytes(), load_private_key(key_file)))
    return path


def test_an_older_signed_edition_is_refused_by_a_division_that_pins_its_edition(
    tmp_path: Path, make_pack: PackFactory
) -> None:
    """Today: with trusted keys, a reload took Club 2023 over Club 2024 without a word."""
    keys = generate_key_pair(tmp_path / "club.key", "Club")
    club_2024 = [*WORDS, "QAT", "ZAX"]
    current = signed(make_pack(club_2024, name="Club", edition="2024"), keys.private_path)
    older = signed(make_pack(WORDS, name="Club", edition="2023"), keys.private_path)
    info = read_pack(current).info
    edition = KnownEdition(
        "Club2024",
        info.word_count,
        info.set_hash.removeprefix("sha256:"),
        tuple(info.counts_by_length.items()),
        "club.tsv",
    )
    verifier = Verifier(editions=EditionTable((edition,)))
    config = StationConfig(
        divisions=(Division("Open", current, expect="Club2024"),),
        trusted_keys=(keys.trusted_key,),
        source=tmp_path / "station.toml",
    )
    loaded = load_divisions(config, verifier)
    assert loaded[0].recognition.full.edition == edition
    current.write_bytes(older.read_bytes())  # the organiser's folder now holds the older edition
    result = reload_divisions(config, loaded, verifier)
    assert not result.accepted
    [problem] = map(str, result.problems)
    assert (
        f"division 'Open' expects Club2024, but its pack {current} (Club 2023) is not that word set"
        in problem
    )
    assert "it has 2 fewer 3-letter words than Club2024" in problem
    with pytest.raises(PackEditionError, match="expects Club2024"):
        load_divisions(config, verifier)  # and a restart would not start on it either


def test_a_division_can_pin_a_set_digest_with_no_table_at_all(tmp_path: Path, make_pack: PackFactory) -> None:
    pack = make_pack(WORDS)
    digest = read_pack(pack).info.set_hash
    config = StationConfig(divisions=(Division("Open", pack, expect=digest),))
    assert load_divisions(config)  # the digest it expects
    other = StationConfig(divisions=(Division("Open", pack, expect="sha256:" + "0" * 64),))
    with pytest.raises(PackEditionError, match=r"expects the word set sha256:0000000000000000…"):
        load_divisions(other)


def test_a_youth_division_pins_the_set_it_rules_with(tmp_path: Path, make_pack: PackFactory) -> None:
    pack = make_pack(WORDS, youth=["DOGS"])
    info = read_pack(pack).info
    assert info.school_set_hash is not None
    pinned = StationConfig(divisions=(Division("Kids", pack, youth_rules=True, expect=info.school_set_hash),))
    assert load_divisions(pinned)
    whole = StationConfig(divisions=(Division("Kids", pack, youth_rules=True, expect=info.set_hash),))
    with pytest.raises(PackEditionError):
        load_divisions(whole)


def test_an_expect_naming_no_known_edition_is_a_configuration_error(
    tmp_path: Path, make_pack: PackFactory
) -> None:
    from kiosk.core.errors import ConfigError

    config = StationConfig(divisions=(Division("Open", make_pack(WORDS), expect="NWL2032"),))
    verifier = Verifier(editions=load_edition_table(known_editions_path()))
    with pytest.raises(ConfigError, match="expect = 'NWL2032' is neither a known edition nor a set digest"):
        load_divisions(config, verifier)


def test_a_reload_of_a_forged_trie_is_refused_and_the_station_keeps_its_pack(pack: Path) -> None:
    config = StationConfig(divisions=(Division("Open", pack),))
    loaded = load_divisions(config)
    pack.write_bytes(edit_trie(pack.read_bytes(), random.Random(2)))
    result = reload_divisions(config, loaded)
    assert not result.accepted
    assert str(pack) in str(result.problems[0])
    assert "damaged or forged" in str(result.problems[0]) or "holds other words" in str(result.problems[0])
    assert "MA" in loaded[0].lexicon  # the pack in memory still rules


def test_a_config_can_name_tables_of_editions_beside_the_built_in_one(
    tmp_path: Path, make_pack: PackFactory
) -> None:
    from kiosk.core.station.config import load_config
    from kiosk.station import station_verifier

    pack = make_pack(WORDS)
    info = read_pack(pack).info
    counts = ",".join(str(info.counts_by_length.get(n, 0)) for n in range(2, 16))
    table = tmp_path / "ours.tsv"
    table.write_text(
        "lexicon\twords\tsha256_of_sorted_words\twords_by_length_2_to_15\n"
        f"OURS2026\t{info.word_count}\t{info.set_hash.removeprefix('sha256:')}\t{counts}\n",
        encoding="utf-8",
    )
    config_file = tmp_path / "station.toml"
    config_file.write_text(
        f'known_editions = ["ours.tsv"]\n[[divisions]]\nname = "Open"\npack = "{pack}"\n'
        'expect = "OURS2026"\n',
        encoding="utf-8",
    )
    config = load_config(config_file, default_pack=pack)
    assert config.known_editions == (table,)
    [division] = load_divisions(config, station_verifier(config, tmp_path / "data"))
    assert division.recognition.full.edition is not None
    assert division.recognition.full.edition.name == "OURS2026"
    pin = CliRunner().invoke(
        kiosk, ["set-pin", "--stdin", "--data-dir", str(tmp_path / "d")], input="482613\n"
    )
    assert pin.exit_code == 0, pin.output  # a station's check is OK only with a judge PIN
    check = CliRunner().invoke(
        kiosk, ["station", "--config", str(config_file), "--check", "--data-dir", str(tmp_path / "d")]
    )
    assert check.exit_code == 0, check.output
    assert "  word set: matches OURS2026 as published (10 words)" in check.output.splitlines()


def test_a_mistake_in_a_table_the_config_names_stops_the_station_naming_the_line(
    tmp_path: Path, make_pack: PackFactory
) -> None:
    table = tmp_path / "ours.tsv"
    table.write_text(
        "lexicon\twords\tsha256_of_sorted_words\twords_by_length_2_to_15\nOURS\t3\tnothex\t3"
        + ",0" * 13
        + "\n",
        encoding="utf-8",
    )
    config_file = tmp_path / "station.toml"
    config_file.write_text(
        f'known_editions = ["ours.tsv"]\n[[divisions]]\nname = "Open"\npack = "{make_pack(WORDS)}"\n',
        encoding="utf-8",
    )
    result = CliRunner().invoke(kiosk, ["station", "--config", str(config_file), "--check"])
    assert result.exit_code == 2
    assert f"{table}:2: 'nothex' is not a SHA-256 digest" in result.stderr


def test_dataclasses_of_a_forged_manifest_are_never_trusted_over_the_walk(pack: Path) -> None:
    """A walk's findings that do not match the manifest are refused, whoever hands them over."""
    from kiosk.core.packs.lexicon import MarisaLexicon
    from kiosk.core.packs.trust import check_pack_signature
    from kiosk.core.packs.verification import WalkedTries

    contents = read_pack(pack)
    claimed = WalkedTries.claimed(contents.info)
    lying = dataclasses.replace(claimed, words=dataclasses.replace(claimed.words, word_count=3))
    with pytest.raises(PackCorruptError, match="holds other words than its manifest says"):
        MarisaLexicon.from_contents(contents, check_pack_signature(contents), lying)
