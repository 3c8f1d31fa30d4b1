"""The ready screen says which edition rules, in every division; the log says exactly what ruled."""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication, QWidget

from kiosk.core.edition import load_edition_table
from kiosk.core.packs.lexicon import load_lexicon
from kiosk.core.play.adjudication import Verdict
from kiosk.core.station.config import Division, Verifier
from kiosk.paths import known_editions_path
from kiosk.ui import theme
from kiosk.ui.judge.recheck import recheck_card
from tests.conftest import PackFactory
from tests.ui.conftest import WORDS, Rig, StationFactory, tab, type_text

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


def readable_px(window: QWidget) -> int:
    """tests/ui/test_fit.py's smallest type a screen may show (12 px at 600 lines, and the same share
    of a taller screen)."""
    return max(12, window.height() // 50)


def check_badges_are_seen(rig: Rig) -> list[tuple[str, str]]:
    """Every badge shown, in one type size, whole, at least twice the smallest readable size and
    never smaller than another line of the ready screen but the lexicon and the question."""
    QApplication.processEvents()  # the layout follows a change of divisions served, as on screen
    ready = rig.window.ready
    rows = [row for row in ready.published_rows if row.isVisible()]
    assert rows
    sizes = {row.font().pixelSize() for row in rows}
    assert len(sizes) == 1, [(row.text(), row.font().pixelSize()) for row in rows]
    size = sizes.pop()
    assert size >= 2 * readable_px(rig.window), (size, rig.window.size())
    for other in (ready.caption, ready.edition, ready.youth, ready.division):
        assert size >= other.font().pixelSize(), (other.objectName(), other.text())
    for row in rows:
        assert theme.fits(row.font(), row.text(), row.width(), row.height()), row.text()
    return [(row.text(), row.colour) for row in rows]


@pytest.mark.parametrize("touch", [False, True])
@pytest.mark.parametrize("size", [(1024, 600), (1920, 1080)])
def test_every_division_shows_its_edition_large_enough_for_players(
    station: StationFactory,
    pack: Path,
    make_pack: PackFactory,
    tmp_path: Path,
    touch: bool,
    size: tuple[int, int],
) -> None:
    """A station serving several divisions shows each one's badge on the ready screen, where the
    players of every division look before the count."""
    club = make_pack(["CAT", "QI"], name="Club list")
    claims = make_pack(["CAT", "QI", "ZA"], name="NWL2023", edition="2023-03")
    verifier = verifier_knowing(tmp_path, line("CLUB26", WORDS), line("SCHOOL26", SCHOOL))
    divisions = (
        Division("Open", pack),
        Division("Schools", pack, youth_rules=True, colour="#7a3db8"),
        Division("Social", club, colour="#a35200"),
        Division("Late", claims, colour="#1d6fa5"),
    )
    rig = station(divisions=divisions, verifier=verifier, size=size, touch=touch)
    assert check_badges_are_seen(rig) == [
        ("Open: CLUB26 \u2713 published word set", theme.PUBLISHED),
        (
            "Schools: SCHOOL26 \u2713 published word set",
            theme.PUBLISHED,
        ),  # the set a youth division rules with
        ("Social: Club list \u2014 not a published edition", theme.DIM_TEXT),
        ("Late: \u2717 not the published NWL2023 word set", theme.NOTICE),
    ]


@pytest.mark.parametrize("touch", [False, True])
def test_a_station_serving_one_division_shows_that_divisions_edition(
    station: StationFactory, pack: Path, make_pack: PackFactory, tmp_path: Path, touch: bool
) -> None:
    """One division on its own, or one of several when a judge has the station serve only it."""
    club = make_pack(["CAT", "QI"], name="Club list")
    verifier = verifier_knowing(tmp_path, line("CLUB26", WORDS), line("SCHOOL26", SCHOOL))
    alone = station(divisions=(Division("Schools", pack, youth_rules=True),), verifier=verifier, touch=touch)
    assert check_badges_are_seen(alone) == [("SCHOOL26 \u2713 published word set", theme.PUBLISHED)]
    divisions = (Division("Open", pack), Division("Social", club, colour="#a35200"))
    rig = station(divisions=divisions, verifier=verifier, touch=touch)
    assert len(check_badges_are_seen(rig)) == 2
    for index, expected in ((1, ("Club list \u2014 not a published edition", theme.DIM_TEXT)), (0, None)):
        rig.controller.apply_choice(replace(rig.controller.choice, served=index))
        assert rig.window.ready.division.text().startswith("This station judges the ")
        shown = check_badges_are_seen(rig)
        assert shown == [expected or ("CLUB26 \u2713 published word set", theme.PUBLISHED)]
    rig.controller.apply_choice(replace(rig.controller.choice, served=None))  # both again
    assert [text for text, _ in check_badges_are_seen(rig)] == [
        "Open: CLUB26 \u2713 published word set",
        "Social: Club list \u2014 not a published edition",
    ]


def test_a_name_that_claims_an_edition_its_words_are_not_is_shown_as_a_notice(
    station: StationFactory, make_pack: PackFactory, tmp_path: Path
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
    # last year's edition under this year's name: a known set, but not the one named
    renamed = make_pack(WORDS, name="SCHOOL26")
    verifier = verifier_knowing(tmp_path, line("CLUB26", WORDS), line("SCHOOL26", SCHOOL))
    rig = station(divisions=(Division("Open", renamed),), verifier=verifier)
    assert check_badges_are_seen(rig) == [("CLUB26 word set \u2014 not SCHOOL26 as named", theme.NOTICE)]


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
    type_text(rig.window, "21cat qi")  # two words, division 1 (Schools)
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
    type_text(rig.window, "12dogs")  # one word, division 2 (Open): the whole set, no known edition
    tab(rig.window)
    entry = rig.log.entries[-1]
    assert (entry.division, entry.edition_checked, entry.published_edition) == ("Open", True, None)
    assert entry.ruling.youth_set_hash is None
    assert entry.second_opinion is None
    assert "not a published edition" in recheck_card(entry).details
