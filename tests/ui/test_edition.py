"""The ready screen says which edition rules, in every division; the log says exactly what ruled."""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

from PySide6.QtCore import Qt

from kiosk.core.adjudication import Verdict
from kiosk.core.config import Division, Verifier
from kiosk.core.edition import load_edition_table
from kiosk.core.lexicon import load_lexicon
from kiosk.core.recheck import recheck_card
from kiosk.paths import known_editions_path
from kiosk.ui import theme
from tests.conftest import PackFactory
from tests.ui.conftest import WORDS, StationFactory, press, tab, type_text

SCHOOL = [w for w in WORDS if w != "DOGS"]  # the pack fixture's youth list excludes DOGS


def line(name: str, words: Iterable[str]) -> str:
    unique = sorted(set(words))
    digest = hashlib.sha256("".join(f"{w}\n" for w in unique).encode()).hexdigest()
    counts = Counter(map(len, unique))
    return f"{name}\t{len(unique)}\t{digest}\t{','.join(str(counts.get(n, 0)) for n in range(2, 16))}\n"


def verifier_knowing(tmp_path: Path, *lines: str) -> Verifier:
    table = tmp_path / "editions.tsv"
    table.write_text(
        "lexicon\twords\tsha256_of_sorted_words\twords_by_length_2_to_15\n" + "".join(lines), encoding="utf-8"
    )
    return Verifier(editions=load_edition_table(known_editions_path(), [table]))


def test_every_division_shows_its_edition_large_enough_for_players(
    station: StationFactory, pack: Path, make_pack: PackFactory, tmp_path: Path
) -> None:
    club = make_pack(["CAT", "QI"], name="Club list")
    verifier = verifier_knowing(tmp_path, line("CLUB26", WORDS), line("SCHOOL26", SCHOOL))
    divisions = (
        Division("Open", pack),
        Division("Schools", pack, youth_rules=True, colour="#7a3db8"),
        Division("Social", club, colour="#a35200"),
    )
    rig = station(divisions=divisions, verifier=verifier, size=(1024, 600))
    ready = rig.window.ready
    seen = []
    for _ in divisions:
        seen.append((ready.published.text(), ready.published.colour))
        assert ready.published.isVisible()
        # as large as the question players answer, and never cut short
        assert ready.published.font().pixelSize() >= ready.prompt.font().pixelSize(), ready.published.text()
        assert theme.fits(
            ready.published.font(), ready.published.text(), ready.published.width(), ready.published.height()
        )
        press(rig.window, Qt.Key.Key_Right)
    assert seen == [
        ("CLUB26 \u2713 published word set", theme.PUBLISHED),
        ("SCHOOL26 \u2713 published word set", theme.PUBLISHED),  # the set a youth division rules with
        ("Club list \u2014 not a published edition", theme.DIM_TEXT),
    ]


def test_a_name_that_claims_an_edition_its_words_are_not_is_shown_as_a_notice(
    station: StationFactory, make_pack: PackFactory
) -> None:
    truncated = make_pack(["CAT", "QI"], name="NWL2023", edition="2023-03")
    rig = station(
        divisions=(Division("Open", truncated),),
        verifier=Verifier(editions=load_edition_table(known_editions_path())),
    )
    ready = rig.window.ready
    assert ready.lexicon.text() == "NWL2023"  # what the organiser typed...
    assert ready.published.text() == "\u2717 not the published NWL2023 word set"  # ...and what the words are
    assert ready.published.colour == theme.NOTICE


def test_the_log_records_the_edition_the_youth_list_and_the_second_opinion(
    station: StationFactory, pack: Path, make_pack: PackFactory, tmp_path: Path
) -> None:
    other = make_pack(["CAT"], name="Other list", edition="2020")
    verifier = verifier_knowing(tmp_path, line("SCHOOL26", SCHOOL))
    divisions = (
        Division("Schools", pack, youth_rules=True, second_opinion_pack=other),
        Division("Open", pack, colour="#7a3db8"),
    )
    rig = station(divisions=divisions, verifier=verifier)
    type_text(rig.window, "2cat qi")
    tab(rig.window)
    entry = rig.log.entries[-1]
    youth_list = load_lexicon(pack).info.youth_set_hash
    assert entry.ruling.youth_set_hash == youth_list is not None
    assert (entry.edition_checked, entry.published_edition) == (True, "SCHOOL26")
    assert entry.second_opinion is not None
    assert (entry.second_opinion.title, entry.second_opinion.verdict) == (
        "Other list 2020",
        Verdict.UNACCEPTABLE,
    )
    assert entry.second_opinion.set_hash == load_lexicon(other).info.set_hash
    details = recheck_card(entry).details
    assert "SCHOOL26 (published word set)" in details
    assert f"youth list {youth_list.removeprefix('sha256:')[:12]}" in details
    assert "second opinion Other list 2020: UNACCEPTABLE" in details

    rig.controller.verdict_timer.timeout.emit()  # back to the ready screen
    press(rig.window, Qt.Key.Key_Right)  # Open: the whole set, which is no known edition
    type_text(rig.window, "1dogs")
    tab(rig.window)
    entry = rig.log.entries[-1]
    assert (entry.division, entry.edition_checked, entry.published_edition) == ("Open", True, None)
    assert entry.ruling.youth_set_hash is None
    assert entry.second_opinion is None
    assert "not a published edition" in recheck_card(entry).details
