"""Reload packs from judge mode: refused whole or swapped whole, and only on the ready screen."""

from __future__ import annotations

import shutil
from pathlib import Path

from PySide6.QtCore import Qt

from kiosk.core.edition import EditionTable, KnownEdition
from kiosk.core.judge import JudgePage
from kiosk.core.packs.lexicon import load_lexicon
from kiosk.core.packs.verification import PackWalker, WalkCache
from kiosk.core.play.adjudication import Verdict
from kiosk.core.play.session import Screen
from kiosk.core.station.config import Division, Verifier
from kiosk.core.station.reload import reload_divisions
from kiosk.storage import LogQuery
from tests.conftest import PackFactory
from tests.ui.conftest import PIN, WORDS, JudgeFactory, JudgeRig, MemoryLog, click, press, tab, type_text
from tests.ui.test_fit import assert_every_text_fits
from tests.ui.test_judge import screen, unlock

K = Qt.Key
NEW_WORDS = [*WORDS, "ZAS", "QIS"]


def judge(rig: JudgeRig, words: str) -> Verdict:
    """Type a play on the station, judge it, and return to the ready screen."""
    type_text(rig.window, f"{len(words.split())}{words}")
    tab(rig.window)
    ruling = rig.controller.state.ruling
    assert ruling is not None
    rig.controller.verdict_timer.timeout.emit()
    assert screen(rig) is Screen.READY
    return ruling.verdict


def new_edition(make_pack: PackFactory, target: Path) -> None:
    shutil.copyfile(make_pack(NEW_WORDS, youth=["DOGS"], name="Club list", edition="2027"), target)


def test_a_refused_reload_by_keyboard_names_the_file_and_keeps_judging_with_the_old_pack(
    judge_station: JudgeFactory, pack: Path
) -> None:
    rig = judge_station()
    window = rig.window
    old_hash = rig.controller.division.lexicon.info.set_hash
    unlock(rig)
    type_text(window, "2")
    page = window.judge.packs
    assert f"in use: the file on disk now ({pack.name})" in page.text.source
    data = bytearray(pack.read_bytes())
    data[len(data) // 2] ^= 0x40
    pack.write_bytes(bytes(data))

    type_text(window, "r")

    assert page.notice.source == "Not reloaded: the station keeps judging with the packs it had"
    text = " ".join(page.text.source.split())
    assert f"\u2717 {pack}" in text
    assert "is damaged: its contents do not match their SHA-256 checksum" in text
    assert "Club list \u2014 edition 2026: Open" in text
    assert f"in use: an older copy kept in memory; {pack.name} on disk is refused (above)" in text
    assert_every_text_fits(window)
    press(window, K.Key_Escape)
    press(window, K.Key_Escape)
    assert not window.judging
    assert judge(rig, "CAT DOGS") is Verdict.ACCEPTABLE
    assert judge(rig, "ZAS") is Verdict.UNACCEPTABLE
    assert {e.ruling.set_hash for e in rig.storage.log.query(LogQuery())} == {old_hash}
    assert window.ready.edition.text().startswith("edition 2026")


def test_a_touch_judge_reloads_a_new_edition_and_the_station_judges_its_new_words(
    judge_station: JudgeFactory, pack: Path, make_pack: PackFactory
) -> None:
    rig = judge_station(touch=True)
    window = rig.window
    assert judge(rig, "ZAS") is Verdict.UNACCEPTABLE
    click(window, window.ready.judge_button)  # type: ignore[arg-type]
    for label in (*PIN, "OK"):
        click(window, window.judge.door.keys[label])
    click(window, window.judge.menu.buttons[JudgePage.PACKS])
    page = window.judge.packs
    assert page.reload_button.text() == "Reload packs"
    new_edition(make_pack, pack)
    assert f"in use: the file on disk now ({pack.name})" in page.text.source  # the disk is read on opening
    click(window, window.judge.back)
    click(window, window.judge.menu.buttons[JudgePage.PACKS])
    older = f"in use: an older copy kept in memory; {pack.name} on disk is now Club list 2027"
    assert older in page.text.source

    click(window, page.reload_button)

    assert page.notice.source == "Reloaded: Club list 2026 \u2192 Club list 2027, 9 words"
    assert f"in use: the file on disk now ({pack.name})" in page.text.source
    assert "verified by the reload at" in page.text.source
    assert_every_text_fits(window)
    click(window, window.judge.back)
    click(window, window.judge.menu.buttons[JudgePage.BACK])
    assert window.ready.edition.text().startswith("edition 2027")
    assert judge(rig, "ZAS QIS") is Verdict.ACCEPTABLE
    entries = rig.storage.log.query(LogQuery())
    assert [(e.ruling.pack_edition, e.ruling.verdict) for e in reversed(entries)] == [
        ("2026", Verdict.UNACCEPTABLE),
        ("2027", Verdict.ACCEPTABLE),
    ]


def test_a_reload_waits_for_the_ready_screen_and_never_swaps_under_a_players_entry(
    judge_station: JudgeFactory, pack: Path, make_pack: PackFactory
) -> None:
    rig = judge_station()
    controller = rig.controller
    old = controller.divisions
    type_text(rig.window, "2za")
    assert screen(rig) is Screen.ENTRY
    new_edition(make_pack, pack)

    result = reload_divisions(controller.config, controller.divisions)  # as if a reload came in
    controller.take_reload(result)  # while a player types

    assert result.accepted
    assert controller.divisions is old
    assert controller.pending_divisions is not None
    type_text(rig.window, " zas")
    tab(rig.window)
    ruling = controller.state.ruling
    assert ruling is not None
    assert (ruling.pack_edition, ruling.verdict) == ("2026", Verdict.UNACCEPTABLE)  # judged with the old
    assert controller.divisions is old  # not under the verdict either
    controller.verdict_timer.timeout.emit()
    assert screen(rig) is Screen.READY
    assert controller.divisions is not old
    assert controller.pending_divisions is None
    assert controller.division.lexicon.info.edition == "2027"
    assert rig.window.ready.edition.text().startswith("edition 2027")


def test_a_reload_from_a_station_fault_waits_until_the_fault_is_cleared(
    judge_station: JudgeFactory, pack: Path, make_pack: PackFactory
) -> None:
    broken = MemoryLog()
    broken.failing = True
    rig = judge_station(log=broken)
    type_text(rig.window, "1cat")
    tab(rig.window)
    assert screen(rig) is Screen.FAULT
    unlock(rig)
    type_text(rig.window, "2")
    new_edition(make_pack, pack)
    type_text(rig.window, "r")
    page = rig.window.judge.packs
    assert "used from the ready screen" in page.text.source
    assert "Club list \u2014 edition 2026" in page.text.source  # still the one in use
    assert rig.controller.division.lexicon.info.edition == "2026"
    press(rig.window, K.Key_Escape)
    type_text(rig.window, "7")  # back to the station: clears the fault
    assert screen(rig) is Screen.READY
    assert rig.controller.division.lexicon.info.edition == "2027"


def test_the_packs_page_reloads_with_the_stations_walk_and_editions_and_refuses_an_older_edition(
    judge_station: JudgeFactory, pack: Path, make_pack: PackFactory, tmp_path: Path
) -> None:
    """The reload runs on judge mode's worker, yet checks as start-up did: the station's known
    editions (here an organiser's line naming the pack in use) and the division's ``expect``."""
    info = load_lexicon(pack).info
    club = KnownEdition(
        "CLUB26", info.word_count, info.set_hash.removeprefix("sha256:"), tuple(info.counts_by_length.items())
    )
    walked = tmp_path / "walked"
    verifier = Verifier(walker=PackWalker(cache=WalkCache(walked)), editions=EditionTable((club,)))
    rig = judge_station(divisions=(Division("Open", pack, expect="CLUB26"),), verifier=verifier)
    window = rig.window
    unlock(rig)
    type_text(window, "2")
    page = window.judge.packs
    assert "    word set: matches CLUB26 as published (7 words)" in page.text.source
    new_edition(make_pack, pack)  # Club list 2027: two words more, and no longer CLUB26

    type_text(window, "r")

    assert page.notice.source == "Not reloaded: the station keeps judging with the packs it had"
    text = " ".join(page.text.source.split())
    assert (
        f"division 'Open' expects CLUB26, but its pack {pack} (Club list 2027) is not that word set" in text
    )
    assert "2 more 3-letter words than CLUB26" in text
    assert any(
        walked.iterdir()
    )  # the new file was walked, and the walk remembered where the station keeps it
    assert_every_text_fits(window)
    press(window, K.Key_Escape)
    press(window, K.Key_Escape)
    assert judge(rig, "ZAS") is Verdict.UNACCEPTABLE  # still CLUB26
