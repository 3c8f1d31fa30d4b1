"""Reloading packs in a running station: all verified and swapped together, or none at all."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from kiosk.core.play.adjudication import Verdict, adjudicate
from kiosk.core.station.config import Division, LoadedDivision, StationConfig, load_divisions
from kiosk.core.station.reload import DiskState, ReloadResult, check_on_disk, reload_divisions
from kiosk.ui.judge.packs import pack_lines, reload_summary
from lexicon_build.signing import KeyPair, generate_key_pair, load_private_key, sign_pack
from tests.conftest import PackFactory

FIRST = ["CAT", "CATS", "DOG", "DOGS", "QI", "ZA"]
SECOND = [*FIRST, "ZAS", "QIS"]


@pytest.fixture
def organiser(tmp_path: Path) -> KeyPair:
    return generate_key_pair(tmp_path / "organiser.key", "Club Organiser")


def install(source: Path, target: Path) -> Path:
    """Copy a pack over the station's file, as an organiser does during an event."""
    shutil.copyfile(source, target)
    return target


def sign(pack: Path, keys: KeyPair) -> Path:
    pack.write_bytes(sign_pack(pack.read_bytes(), load_private_key(keys.private_path), pack))
    return pack


def verdict(words: str, loaded: LoadedDivision) -> Verdict:
    return adjudicate(words.split(), loaded.lexicon, youth=loaded.division.youth_rules).verdict


@pytest.fixture
def station_pack(make_pack: PackFactory, tmp_path: Path) -> Path:
    return install(make_pack(FIRST, youth=["DOGS"], name="Club", edition="2025"), tmp_path / "club.kxpack")


def test_a_pack_corrupted_on_disk_is_refused_and_the_old_lexicon_judges_as_before(station_pack: Path) -> None:
    config = StationConfig(divisions=(Division("Open", station_pack),))
    current = load_divisions(config)
    before = [verdict(w, current[0]) for w in ("CAT", "ZAS", "CATS DOGS", "ZZZ")]
    data = bytearray(station_pack.read_bytes())
    data[len(data) // 2] ^= 0x01
    station_pack.write_bytes(bytes(data))

    result = reload_divisions(config, current)

    assert not result.accepted
    assert result.divisions is None
    assert len(result.problems) == 1
    assert str(station_pack) in str(result.problems[0])
    assert "damaged" in str(result.problems[0])
    assert "copy it again" in str(result.problems[0])
    assert reload_summary(result) == "Not reloaded: the station keeps judging with the packs it had"
    assert [verdict(w, current[0]) for w in ("CAT", "ZAS", "CATS DOGS", "ZZZ")] == before
    disk = check_on_disk(current[0].lexicon)
    assert disk.state is DiskState.REFUSED
    assert "damaged" in str(disk.detail)


def test_a_new_edition_on_disk_is_swapped_in_and_judges_its_new_words(
    station_pack: Path, make_pack: PackFactory
) -> None:
    config = StationConfig(divisions=(Division("Open", station_pack),))
    current = load_divisions(config)
    assert verdict("ZAS", current[0]) is Verdict.UNACCEPTABLE
    install(make_pack(SECOND, youth=["DOGS"], name="Club", edition="2026"), station_pack)
    assert check_on_disk(current[0].lexicon).state is DiskState.CHANGED

    result = reload_divisions(config, current)

    assert result.accepted
    assert result.divisions is not None
    assert verdict("ZAS QIS", result.divisions[0]) is Verdict.ACCEPTABLE
    assert verdict("ZAS", current[0]) is Verdict.UNACCEPTABLE  # the old set is untouched
    assert tuple(map(str, result.changes)) == ("Club 2025 \u2192 Club 2026, 8 words",)
    assert reload_summary(result) == "Reloaded: Club 2025 \u2192 Club 2026, 8 words"
    assert check_on_disk(result.divisions[0].lexicon).state is DiskState.IN_USE


def test_an_unchanged_file_keeps_the_lexicon_in_memory(station_pack: Path) -> None:
    config = StationConfig(divisions=(Division("Open", station_pack),))
    current = load_divisions(config)
    result = reload_divisions(config, current)
    assert result.divisions is not None
    assert result.divisions[0].lexicon is current[0].lexicon
    assert result.changes == ()
    assert reload_summary(result) == "Reloaded: every pack verified again; no words changed"


def test_an_unsigned_pack_under_trusted_keys_is_refused(
    station_pack: Path, make_pack: PackFactory, organiser: KeyPair
) -> None:
    sign(station_pack, organiser)
    config = StationConfig(divisions=(Division("Open", station_pack),), trusted_keys=(organiser.trusted_key,))
    current = load_divisions(config)
    install(make_pack(SECOND, youth=["DOGS"], name="Club", edition="2026"), station_pack)

    result = reload_divisions(config, current)

    assert not result.accepted
    assert str(station_pack) in str(result.problems[0])
    assert "unsigned" in str(result.problems[0])
    assert verdict("ZAS", current[0]) is Verdict.UNACCEPTABLE
    disk = check_on_disk(current[0].lexicon, config.trusted_keys)
    assert disk.state is DiskState.REFUSED
    assert "unsigned" in str(disk.detail)


def test_a_newly_signed_pack_with_the_same_words_says_who_signed_it(
    station_pack: Path, organiser: KeyPair
) -> None:
    config = StationConfig(divisions=(Division("Open", station_pack),), trusted_keys=())
    current = load_divisions(config)
    sign(station_pack, organiser)
    result = reload_divisions(config, current)
    assert result.accepted
    assert tuple(map(str, result.changes)) == (
        f"Club 2025: the same words, now signed by an unknown key ({organiser.trusted_key.fingerprint})",
    )


def test_a_youth_list_removed_is_refused_for_a_division_with_youth_rules(
    station_pack: Path, make_pack: PackFactory
) -> None:
    config = StationConfig(divisions=(Division("Schools", station_pack, youth_rules=True),))
    current = load_divisions(config)
    install(make_pack(SECOND, name="Club", edition="2026"), station_pack)

    result = reload_divisions(config, current)

    assert not result.accepted
    assert "'Schools' applies youth rules" in str(result.problems[0])
    assert str(station_pack) in str(result.problems[0])
    assert verdict("DOGS", current[0]) is Verdict.UNACCEPTABLE  # still on the youth list


def test_one_bad_pack_keeps_every_division_on_its_old_pack_and_every_problem_is_named(
    station_pack: Path, make_pack: PackFactory, tmp_path: Path
) -> None:
    other = install(make_pack(FIRST, name="Other", edition="1"), tmp_path / "other.kxpack")
    third = install(make_pack(FIRST, name="Third", edition="1"), tmp_path / "third.kxpack")
    config = StationConfig(
        divisions=(
            Division("Open", station_pack, second_opinion_pack=third),
            Division("Lite", other),
        )
    )
    current = load_divisions(config)
    install(make_pack(SECOND, youth=["DOGS"], name="Club", edition="2026"), station_pack)  # good
    other.write_bytes(other.read_bytes()[:-5])  # truncated
    third.unlink()  # gone

    result = reload_divisions(config, current)

    assert result.divisions is None
    assert len(result.problems) == 2
    assert str(third) in str(result.problems[0])
    assert "does not exist" in str(result.problems[0])
    assert str(other) in str(result.problems[1])
    assert "truncated" in str(result.problems[1])


def test_the_packs_page_lines_say_which_file_is_in_use_and_why_the_disk_is_not(
    station_pack: Path, make_pack: PackFactory, tmp_path: Path
) -> None:
    other = install(make_pack(FIRST, name="Other", edition="1"), tmp_path / "other.kxpack")
    config = StationConfig(divisions=(Division("Open", station_pack), Division("Lite", other)))
    current = load_divisions(config)
    station_pack.write_bytes(b"not a pack at all")
    result = reload_divisions(config, current)
    on_disk = {
        station_pack: check_on_disk(current[0].lexicon),
        other: check_on_disk(current[1].lexicon),
    }

    lines = pack_lines(current, on_disk, verified="at start-up", result=result)
    text = "\n".join(lines)

    assert lines[0] == "The files the reload refused:"
    assert "Not reloaded" not in text  # the page's notice says that, once
    assert f"\u2717 {station_pack}" in text
    # the refusal once, pointed to from the pack
    assert " ".join(text.split()).count("not a lexicon pack") == 1
    assert "Club \u2014 edition 2025: Open" in text
    assert "6 words (up to 15 letters), youth list 1 word" in text
    assert "in use: an older copy kept in memory; club.kxpack on disk is refused (above)" in text
    assert "Other \u2014 edition 1: Lite" in text
    assert "in use: the file on disk now (other.kxpack)" in text
    assert "verified at start-up \u00b7 unsigned" in text


def test_the_packs_page_lines_after_a_swap_waiting_for_the_ready_screen(station_pack: Path) -> None:
    config = StationConfig(divisions=(Division("Open", station_pack),))
    current = load_divisions(config)
    result = ReloadResult(divisions=current, changes=("Club 2025 \u2192 Club 2026, 8 words",))
    lines = pack_lines(current, {}, verified="at start-up", result=result, waiting=True)
    assert "used from the ready screen" in lines[0]
    assert reload_summary(result) == "Reloaded: Club 2025 \u2192 Club 2026, 8 words"
    assert not any("Club 2025 \u2192" in line for line in lines)  # said once: in the notice
    two = ReloadResult(divisions=current, changes=("A 1 \u2192 A 2, 8 words", "B 1 \u2192 B 2, 9 words"))
    assert reload_summary(two) == "Reloaded: 2 packs changed (listed above)"
    assert pack_lines(current, {}, verified="at start-up", result=two)[:3] == [
        "Changed by the reload:",
        "  A 1 \u2192 A 2, 8 words",
        "  B 1 \u2192 B 2, 9 words",
    ]


def test_the_packs_page_counts_a_spanish_pack_in_tiles_and_names_no_empty_edition(
    make_pack: PackFactory,
) -> None:
    """FISE lengths are tiles (CH is one), so the page says "fichas", not "letters"; a pack built
    with no edition is named without a dangling "edition  :"."""
    from kiosk.core.words.language import load_catalogue

    spanish = make_pack(["CHALLA", "CALLE", "PERRO"], alphabet="spanish", name="FISE club", edition="")
    config = StationConfig(divisions=(Division("Abierta", spanish),))
    lines = pack_lines(load_divisions(config), {}, verified="at start-up")
    assert lines[:2] == ["FISE club: Abierta", "    3 words (up to 15 tiles)"]
    said = pack_lines(load_divisions(config), {}, verified="al arrancar", t=load_catalogue("es"))
    assert said[:2] == ["FISE club: Abierta", "    3 palabras (hasta 15 fichas)"]
    french = pack_lines(load_divisions(config), {}, verified="au d\u00e9marrage", t=load_catalogue("fr"))
    assert french[0] == "FISE club\u00a0: Abierta"
