"""Which edition is this? Packs recognised by their word set, whatever file they came from.

Every table here is made in the test from lists made in the test (ENABLE subsets), with digests
computed by the test itself -- or by coreutils' own ``sort`` and ``sha256sum``, the definition an
organiser can run. The shipped table is checked for its format and for holding what issue 11 names.
"""

from __future__ import annotations

import hashlib
import os
import random
import re
import shutil
import subprocess
import tracemalloc
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from kiosk.core.edition import (
    BUILT_IN_SOURCE,
    MAX_TABLE_BYTES,
    EditionBadge,
    EditionTable,
    KnownEdition,
    WordSetFacts,
    edition_badge,
    load_edition_table,
    parse_edition_lines,
    read_edition_table,
)
from kiosk.core.errors import EditionTableError, PackEditionError
from kiosk.core.packs.lexicon import load_lexicon
from kiosk.core.station.config import recognise
from kiosk.paths import built_in_edition_paths, known_editions_path
from lexicon_build.builder import build_pack
from lexicon_build.cli import main as lexicon_build
from lexicon_build.recipe import Recipe, SourceSpec, load_recipe
from lexicon_build.signing import generate_key_pair, load_private_key, sign_pack
from tests.conftest import DATA_DIR, REPO_ROOT, PackFactory, write_list

HEADER = "lexicon\twords\tsha256_of_sorted_words\twords_by_length_2_to_15\n"
# What issue 11 says the built-in table lists.
NAMED_IN_THE_ISSUE = [
    "NWL2018",
    "NWL2020",
    "NWL2023",
    "NSWL2018",
    "NSWL2020",
    "NSWL2023",
    "TWL06",
    "OTCWL2014",
    "OTCWL2016",
    "OSPD4",
    "OSPD5",
    "CSW07",
    "CSW12",
    "CSW15",
    "CSW19",
    "CSW21",
    "CSW24",
    "SOWPODS",
]


def enable_words() -> list[str]:
    return [w.upper() for w in (DATA_DIR / "enable1.txt").read_text(encoding="ascii").split() if len(w) <= 15]


def digest(words: Iterable[str]) -> str:
    """The definition, written out here: upper case, sorted by byte value, each once, each + LF."""
    unique = sorted({w.upper() for w in words}, key=lambda w: w.encode("utf-8"))
    return hashlib.sha256("".join(f"{w}\n" for w in unique).encode("utf-8")).hexdigest()


def table_line(name: str, words: Iterable[str]) -> str:
    unique = {w.upper() for w in words}
    counts = Counter(map(len, unique))
    columns = ",".join(str(counts.get(n, 0)) for n in range(2, 16))
    return f"{name}\t{len(unique)}\t{digest(unique)}\t{columns}\n"


def write_table(path: Path, lines: Sequence[str]) -> Path:
    path.write_text("# made by the test\n" + HEADER + "".join(lines), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def base() -> list[str]:
    return enable_words()[::40]  # ~4,200 words of 2 to 15 letters


@pytest.fixture
def table(tmp_path: Path, base: list[str]) -> Path:
    other = enable_words()[7::40]
    return write_table(
        tmp_path / "editions.tsv", [table_line("BASE2024", base), table_line("OTHER21", other)]
    )


def build(tmp_path: Path, words: Iterable[str], table: Path | None = None, **recipe: object) -> Path:
    source = write_list(tmp_path / f"list-{random.random()}.txt", words)
    plan = Recipe(name=str(recipe.pop("name", "Club list")), sources=(SourceSpec(path=source),), **recipe)  # type: ignore[arg-type]
    tables = [] if table is None else [table]
    result = build_pack(plan, editions=load_edition_table(known_editions_path(), tables))
    out = tmp_path / f"pack-{random.random()}.kxpack"
    out.write_bytes(result.data)
    return out


# --- the built-in table --------------------------------------------------------------------------


def test_the_shipped_table_reads_and_holds_every_edition_the_issue_names() -> None:
    path = known_editions_path()
    assert path == REPO_ROOT / "data" / "known-lexicons.tsv"  # the product's copy, never /work/shared
    editions = read_edition_table(path)
    names = [e.name for e in editions]
    assert set(NAMED_IN_THE_ISSUE) <= set(names), set(NAMED_IN_THE_ISSUE) - set(names)
    assert len(set(names)) == len(names)
    assert len({e.sha256 for e in editions}) == len(editions)
    for edition in editions:
        assert sum(count for _, count in edition.counts_by_length) == edition.words, edition.name
        assert all(2 <= length <= 15 for length, _ in edition.counts_by_length), edition.name
    by_name = {e.name: e for e in editions}
    assert by_name["NWL2023"].words == 196_601
    assert by_name["NSWL2023"].words < by_name["NWL2023"].words  # the school list: NWL minus exclusions


def test_every_line_of_the_shipped_table_has_four_tab_separated_fields() -> None:
    for number, line in enumerate(known_editions_path().read_text(encoding="utf-8").splitlines(), start=1):
        if line and not line.startswith(("#", "lexicon\t")):
            fields = line.split("\t")
            assert len(fields) == 4, f"line {number}"
            assert len(fields[3].split(",")) == 14, f"line {number}: lengths 2 to 15"


# --- the digest is the one anyone can recompute -------------------------------------------------


@pytest.mark.skipif(shutil.which("sha256sum") is None or shutil.which("sort") is None, reason="coreutils")
def test_the_set_digest_is_what_sort_u_and_sha256sum_print(tmp_path: Path, base: list[str]) -> None:
    words = list(base) + [w.lower() for w in base[:50]]  # duplicates, in the other case too
    random.Random(3).shuffle(words)
    listing = tmp_path / "list.txt"
    listing.write_bytes("".join(f"{w}\r\n" for w in words).encode("ascii"))  # CRLF, shuffled
    upper = tmp_path / "upper.txt"
    upper.write_text("".join(f"{w.upper()}\n" for w in words), encoding="ascii")
    command = f"LC_ALL=C sort -u {upper} | sha256sum"
    printed = subprocess.run(command, shell=True, capture_output=True, text=True, check=True).stdout.split()[
        0
    ]
    pack = load_lexicon(build(tmp_path, words))
    assert pack.info.set_hash == f"sha256:{printed}"
    assert printed == digest(base)


# --- recognition ---------------------------------------------------------------------------------


def test_a_pack_of_exactly_the_set_is_recognised_whatever_its_file(
    tmp_path: Path, base: list[str], table: Path
) -> None:
    messy = tmp_path / "messy.txt"
    shuffled = list(base) * 2  # every word twice
    random.Random(1).shuffle(shuffled)
    messy.write_bytes(b"\xef\xbb\xbf" + "".join(f"{w.lower()}\r\n" for w in shuffled).encode("ascii"))
    plan = Recipe(name="Typed any old name", sources=(SourceSpec(path=messy),))
    result = build_pack(plan, editions=load_edition_table(known_editions_path(), [table]))
    assert result.recognition.full.sentence() == f"matches BASE2024 as published ({len(base):,} words)"
    assert result.recognition.full.edition is not None
    assert result.recognition.full.edition.source == str(table)


def test_the_cli_says_it_for_build_info_and_verify(tmp_path: Path, base: list[str], table: Path) -> None:
    source = write_list(tmp_path / "base.txt", reversed(base))
    pack = tmp_path / "base.kxpack"
    runner = CliRunner()
    built = runner.invoke(
        lexicon_build,
        ["build", "--name", "Base", "--source", str(source), "--known-editions", str(table), "-o", str(pack)],
    )
    assert built.exit_code == 0, built.output
    expected = f"word set sha256:{digest(base)}: matches BASE2024 as published ({len(base):,} words)"
    assert expected in built.stdout.splitlines()
    for command in ("info", "verify"):
        shown = runner.invoke(lexicon_build, [command, str(pack), "--known-editions", str(table)])
        assert shown.exit_code == 0, shown.output
        assert expected in shown.stdout.splitlines(), shown.stdout
    without = runner.invoke(lexicon_build, ["info", str(pack)])
    assert f"word set sha256:{digest(base)}: matches no known edition" in without.stdout


def test_a_youth_pack_is_recognised_as_both_sets(tmp_path: Path, base: list[str]) -> None:
    excluded = base[5::97]
    school = [w for w in base if w not in set(excluded)]
    table = write_table(tmp_path / "t.tsv", [table_line("NWLX", base), table_line("NSWLX", school)])
    source = write_list(tmp_path / "nwlx.txt", base)
    youth = write_list(tmp_path / "youth.txt", excluded)
    out = tmp_path / "school.kxpack"
    built = CliRunner().invoke(
        lexicon_build,
        ["build", "--name", "School", "--source", str(source), "--youth-exclusions", str(youth),
         "--known-editions", str(table), "-o", str(out)],
    )  # fmt: skip
    assert built.exit_code == 0, built.output
    lines = built.stdout.splitlines()
    assert f"word set sha256:{digest(base)}: matches NWLX as published ({len(base):,} words)" in lines
    assert (
        f"with the youth list applied sha256:{digest(school)}: matches NSWLX as published "
        f"({len(school):,} words)"
    ) in lines
    info = load_lexicon(out).info
    assert info.school_set_hash == f"sha256:{digest(school)}"
    assert sum((info.school_counts_by_length or {}).values()) == len(school)
    # named for its whole set, it shows the set each division rules with, as a plain tick
    named = recognise(
        load_lexicon(build(tmp_path, base, table, name="NWLX", youth_exclusions=SourceSpec(youth))),
        load_edition_table(known_editions_path(), [table]),
    )
    assert edition_badge(named, True, "NWLX") == EditionBadge("NSWLX \u2713 published word set", True, False)
    assert edition_badge(named, False, "NWLX") == EditionBadge("NWLX \u2713 published word set", True, False)


def test_a_set_that_is_not_an_edition_says_how_it_differs_by_length(tmp_path: Path, base: list[str]) -> None:
    sevens = [w for w in base if len(w) == 7][:3]
    extra = next(w for w in enable_words() if len(w) == 9 and w not in set(base))
    edited = [w for w in base if w not in sevens] + [extra]
    table = write_table(tmp_path / "t.tsv", [table_line("BASE2024", base)])
    result = build_pack(
        Recipe(name="Club", sources=(SourceSpec(path=write_list(tmp_path / "e.txt", edited)),)),
        editions=load_edition_table(known_editions_path(), [table]),
    )
    assert result.recognition.full.sentence() == (
        f"matches no known edition ({len(edited):,} words); closest: BASE2024 ({len(base):,} words): "
        "3 fewer 7-letter words, 1 more 9-letter word"
    )


def test_counts_alone_never_make_a_match(tmp_path: Path, base: list[str]) -> None:
    """The same number of words of every length, one word swapped: not the edition."""
    gone = next(w for w in base if len(w) == 6)
    added = next(w for w in enable_words() if len(w) == 6 and w not in set(base))
    swapped = [w for w in base if w != gone] + [added]
    table = write_table(tmp_path / "t.tsv", [table_line("BASE2024", base)])
    pack = build(tmp_path, swapped, table)
    lexicon = load_lexicon(pack)
    recognition = recognise(lexicon, load_edition_table(known_editions_path(), [table]))
    assert not recognition.full.matched
    assert recognition.full.sentence().endswith(
        "closest: BASE2024 ("
        + f"{len(base):,}"
        + " words): as many words of every length, but not the same words"
    )


def test_a_list_far_from_every_edition_says_none_is_close(
    tmp_path: Path, base: list[str], table: Path
) -> None:
    pack = load_lexicon(build(tmp_path, base[: len(base) // 2], table))
    recognition = recognise(pack, load_edition_table(known_editions_path(), [table]))
    assert (
        recognition.full.sentence()
        == f"matches no known edition ({len(base) // 2:,} words; none of similar size)"
    )


def test_the_closest_of_the_built_in_editions_is_named() -> None:
    """SOWPODS is CSW07 and one 11-letter word: a set one 12-letter word short of SOWPODS is nearer it."""
    table = EditionTable(read_edition_table(known_editions_path()))
    sowpods = table.find("SOWPODS")
    assert sowpods is not None
    counts = dict(sowpods.counts_by_length)
    counts[12] -= 1
    facts = WordSetFacts.of("sha256:" + "0" * 64, sowpods.words - 1, counts)
    recognition = table.recognise(facts)
    assert [c.edition.name for c in recognition.closest] == ["SOWPODS"]
    assert recognition.closest[0].describe() == "1 fewer 12-letter word"


def test_editions_equally_close_are_all_named() -> None:
    table = EditionTable(
        (
            KnownEdition("LOW", 1000, "1" * 64, ((2, 100), (3, 900))),
            KnownEdition("HIGH", 1002, "2" * 64, ((2, 102), (3, 900))),
        )
    )
    recognition = table.recognise(WordSetFacts.of("sha256:" + "3" * 64, 1001, {2: 101, 3: 900}))
    assert [c.edition.name for c in recognition.closest] == ["LOW", "HIGH"]
    assert recognition.sentence() == (
        "matches no known edition (1,001 words); closest: LOW (1,000 words): 1 more 2-letter word; "
        "HIGH (1,002 words): 1 fewer 2-letter word"
    )


# --- expect ------------------------------------------------------------------------------------------


def test_a_recipe_that_expects_an_edition_fails_with_the_difference(tmp_path: Path, base: list[str]) -> None:
    sevens = [w for w in base if len(w) == 7][:3]
    short = [w for w in base if w not in sevens]
    table = write_table(tmp_path / "t.tsv", [table_line("BASE2024", base)])
    source = write_list(tmp_path / "short.txt", short)
    recipe = tmp_path / "base.toml"
    recipe.write_text(
        f'name = "Base"\nexpect = "BASE2024"\nknown_editions = ["{table.name}"]\n'
        f'[[sources]]\npath = "{source.name}"\n',
        encoding="utf-8",
    )
    with pytest.raises(PackEditionError, match="it has 3 fewer 7-letter words than BASE2024"):
        build_pack(load_recipe(recipe), editions=load_edition_table(known_editions_path(), [table]))
    out = tmp_path / "base.kxpack"
    result = CliRunner().invoke(lexicon_build, ["build", str(recipe), "-o", str(out)])
    assert result.exit_code == 1
    assert (
        "the build expects BASE2024 (expect), but these sources are not that word set: it has 3 fewer"
        in result.stderr
    )
    assert not out.exists()
    whole = write_list(tmp_path / "whole.txt", base)
    ok = CliRunner().invoke(
        lexicon_build, ["build", "--name", "Base", "--source", str(whole), "--known-editions", str(table),
                        "--expect", "base2024", "-o", str(out)],
    )  # fmt: skip
    assert ok.exit_code == 0, ok.output


def test_expect_takes_a_set_digest_and_refuses_a_name_it_does_not_know(
    tmp_path: Path, base: list[str]
) -> None:
    source = write_list(tmp_path / "base.txt", base)
    runner = CliRunner()
    out, elsewhere = tmp_path / "x.kxpack", tmp_path / "y.kxpack"

    def expecting(expect: str, output: Path) -> Result:
        command = ["build", "--name", "B", "--source", str(source), "--expect", expect, "-o", str(output)]
        return runner.invoke(lexicon_build, command)

    good = expecting(f"sha256:{digest(base)}", out)
    assert good.exit_code == 0, good.output
    other = expecting("sha256:" + "ab" * 32, elsewhere)
    assert other.exit_code == 1  # the check ran and found the sources are not that set
    assert f"its word set is sha256:{digest(base)[:16]}" in other.stderr
    assert not elsewhere.exists()
    unknown = expecting("NWL2032", elsewhere)
    assert unknown.exit_code == 2  # a mistake in the command, not a finding about the sources
    assert "expect = 'NWL2032' is neither a known edition nor a set digest" in unknown.stderr
    assert "NWL2023" in unknown.stderr  # the known editions are listed


# --- tables an organiser adds -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("NWL\t1\t" + "a" * 64 + "\t1\n", "t.tsv:1: the first line that is not a comment must be the header"),
        (HEADER + "X\t1\t" + "a" * 64 + "\n", "t.tsv:2: 3 tab-separated fields"),
        (HEADER + "X\t1\tnothex\t1" + ",0" * 13 + "\n", "t.tsv:2: 'nothex' is not a SHA-256 digest"),
        (HEADER + "X\t5\t" + "a" * 64 + "\t1" + ",0" * 13 + "\n", "add up to 1, not the 5 words"),
        (HEADER + "X\t1\t" + "a" * 64 + "\t1,0\n", "t.tsv:2: 2 counts by length; the header gives 14"),
        (
            HEADER + "X Y\t1\t" + "a" * 64 + "\t1" + ",0" * 13 + "\n",
            "the name 'X Y' is not one a station can show",
        ),
        (HEADER + ("X\t1\t" + "a" * 64 + "\t1" + ",0" * 13 + "\n") * 2, "t.tsv:3: X repeats X"),
        ("# nothing\n", "holds no header line"),
    ],
)
def test_a_table_with_a_mistake_is_refused_naming_the_line(tmp_path: Path, text: str, fragment: str) -> None:
    path = tmp_path / "t.tsv"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(EditionTableError) as caught:
        read_edition_table(path)
    assert fragment in str(caught.value)


def test_an_added_line_that_contradicts_the_built_in_table_is_refused(
    tmp_path: Path, base: list[str]
) -> None:
    forged = write_table(tmp_path / "ours.tsv", [table_line("NWL2023", base)])
    with pytest.raises(
        EditionTableError, match=r"ours.tsv: NWL2023 is given for another word set than NWL2023"
    ):
        load_edition_table(known_editions_path(), [forged])
    # the same line twice (a copy of the built-in one) is no contradiction
    built_in = parse_edition_lines(known_editions_path().read_text(encoding="utf-8"), where="built-in")
    copy = tmp_path / "copy.tsv"
    copy.write_text(HEADER + built_in[2].tsv_line() + "\n", encoding="utf-8")
    assert len(load_edition_table(known_editions_path(), [copy]).editions) == len(built_in)


def test_a_huge_file_given_as_a_table_is_refused_before_it_is_read(tmp_path: Path) -> None:
    """A word list given where the table belongs, or any large file: read no further than the bound."""
    words = write_list(tmp_path / "words.txt", enable_words())
    assert words.stat().st_size > MAX_TABLE_BYTES
    with pytest.raises(EditionTableError, match=f"{words} is larger than .* holds facts, not word lists"):
        read_edition_table(words)
    zeros = tmp_path / "disk.img"
    with zeros.open("wb") as stream:
        stream.truncate(50 << 20)
    tracemalloc.start()
    try:
        with pytest.raises(
            EditionTableError, match=f"{zeros} is a binary file, not a table of known editions"
        ):
            read_edition_table(zeros)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 4 * MAX_TABLE_BYTES


@pytest.mark.parametrize(
    ("make", "fragment"),
    [
        (lambda p: os.mkfifo(p), "is a device or other special file, not a table of known editions"),
        (lambda p: p.write_bytes(b""), "is an empty file (0 bytes)"),
        (lambda p: p.write_bytes((HEADER + "X\t1\t" + "0" * 64 + "\t1").encode("utf-16")), "saved as UTF-16"),
        (
            lambda p: shutil.copy(DATA_DIR / "enable-demo.kxpack", p),
            "is a lexicon pack, not a table of known",
        ),
    ],
    ids=["named pipe", "empty", "utf-16", "pack"],
)
def test_a_file_of_another_kind_given_as_a_table_is_named_for_what_it_is(
    tmp_path: Path, make: Callable[[Path], object], fragment: str
) -> None:
    """A named pipe used to hang the read for ever; the others said only 'not UTF-8' or 'no header'."""
    path = tmp_path / "editions.tsv"
    make(path)
    with pytest.raises(EditionTableError, match=re.escape(fragment)):
        read_edition_table(path)


# --- edition lines a pack carries: believed only under a trusted signature ----------------------


def test_a_carried_line_counts_only_when_a_trusted_key_signed_the_pack(
    tmp_path: Path, base: list[str]
) -> None:
    table = write_table(tmp_path / "new.tsv", [table_line("NEW2026", base)])
    pack = build(tmp_path, base, table)
    lexicon = load_lexicon(pack)
    assert [line.name for line in lexicon.info.known_editions] == ["NEW2026"]
    built_in_only = load_edition_table(known_editions_path())
    unsigned = recognise(lexicon, built_in_only)
    assert not unsigned.full.matched
    assert tuple(map(str, unsigned.notes)) == (
        "it carries an edition line for NEW2026, which a station believes only from a pack signed by "
        "a key it trusts",
    )
    keys = generate_key_pair(tmp_path / "naspa.key", "NASPA")
    pack.write_bytes(sign_pack(pack.read_bytes(), load_private_key(keys.private_path)))
    stranger = recognise(load_lexicon(pack), built_in_only)  # a good signature, but not a trusted key
    assert not stranger.full.matched
    trusted = recognise(load_lexicon(pack, trusted_keys=[keys.trusted_key]), built_in_only)
    assert trusted.full.edition is not None
    assert trusted.full.edition.name == "NEW2026"
    assert trusted.full.edition.source == "the pack, signed by NASPA"


def test_a_carried_line_cannot_rename_a_built_in_edition(tmp_path: Path, base: list[str]) -> None:
    """A signed pack carrying a line that contradicts the table: the line is not used, and said so."""
    table = EditionTable((KnownEdition("NEW2026", 1, "a" * 64, ((2, 1),), BUILT_IN_SOURCE),))
    ours = write_table(tmp_path / "ours.tsv", [table_line("NEW2026", base)])
    pack = build(tmp_path, base, ours)
    keys = generate_key_pair(tmp_path / "k.key", "Club")
    pack.write_bytes(sign_pack(pack.read_bytes(), load_private_key(keys.private_path)))
    recognition = recognise(load_lexicon(pack, trusted_keys=[keys.trusted_key]), table)
    assert not recognition.full.matched
    assert "its edition line for NEW2026 is not used" in str(recognition.notes[0])


def test_a_line_of_another_set_in_a_manifest_is_refused(
    tmp_path: Path, base: list[str], make_pack: PackFactory
) -> None:
    import dataclasses

    from kiosk.core.errors import PackCorruptError
    from kiosk.core.packs.pack import encode_pack, read_pack

    pack = make_pack(["CAT", "DOGS"])
    contents = read_pack(pack)
    stranger = KnownEdition("NWL2023", 2, digest(["CAT", "DOG"]), ((3, 2),))
    forged = dataclasses.replace(contents.info, known_editions=(stranger,))
    pack.write_bytes(encode_pack(forged, contents.sections))
    with pytest.raises(
        PackCorruptError, match=r"known_editions\[0\] \(NWL2023\) does not describe this pack"
    ):
        load_lexicon(pack)


# --- what the ready screen shows -----------------------------------------------------------------


def test_the_ready_screen_badge(tmp_path: Path, base: list[str], table: Path) -> None:
    editions = load_edition_table(known_editions_path(), [table])
    published = recognise(load_lexicon(build(tmp_path, base, table, name="Anything")), editions)
    assert edition_badge(published, False, "Anything").text == "BASE2024 \u2713 published word set"
    club = recognise(load_lexicon(build(tmp_path, base[:100], table, name="Club list")), editions)
    assert edition_badge(club, False, "Club list").text == "Club list \u2014 not a published edition"
    claimed = recognise(
        load_lexicon(build(tmp_path, base[1:], table, name="BASE2024", edition="2024")), editions
    )
    badge = edition_badge(claimed, False, "BASE2024")
    assert (badge.text, badge.warning) == ("\u2717 not the published BASE2024 word set", True)


def test_an_older_edition_renamed_is_shown_as_what_it_is_not_as_named(
    tmp_path: Path, base: list[str], table: Path
) -> None:
    """Last year's list built under this year's name: the set is a known edition, but not the one
    the name says; the badge says both, as a notice, never a plain tick under the wrong name."""
    editions = load_edition_table(known_editions_path(), [table])
    other = enable_words()[7::40]  # OTHER21 in the table
    renamed = recognise(load_lexicon(build(tmp_path, other, table, name="BASE2024")), editions)
    assert renamed.full.edition is not None
    assert renamed.full.edition.name == "OTHER21"
    badge = edition_badge(renamed, False, "BASE2024")
    assert (badge.text, badge.warning) == ("OTHER21 word set \u2014 not BASE2024 as named", True)
    assert renamed.lines()[-1].startswith("note: its name says BASE2024, but its words are not the BASE2024")
    named_right = recognise(load_lexicon(build(tmp_path, other, table, name="OTHER21 list")), editions)
    assert named_right.claimed is None
    assert not edition_badge(named_right, False, "OTHER21 list").warning


# --- other federations' published sets (issue 24): FISE2009, ODS4, ODS5, ZINGA ------------------

FEDERATION_SETS = {"FISE2009": "spanish", "ODS4": "french", "ODS5": "french", "ZINGA": "italian"}


def test_the_federations_sets_are_built_in_with_their_alphabets() -> None:
    """Copied from the team's facts file into data/ (the product never reads /work/shared)."""
    paths = built_in_edition_paths()
    assert paths == (
        REPO_ROOT / "data" / "known-lexicons.tsv",
        REPO_ROOT / "data" / "federation-lexicons.tsv",
    )
    federations = {e.name: e for e in read_edition_table(paths[1])}
    assert {name: e.alphabet for name, e in federations.items()} == FEDERATION_SETS
    assert federations["FISE2009"].words == 636_599
    assert dict(federations["ZINGA"].counts_by_length)[19] == 1  # words longer than the board
    table = load_edition_table(paths)
    for name, alphabet in FEDERATION_SETS.items():
        found = table.find(name)
        assert found is not None
        assert (found.alphabet, found.source) == (alphabet, BUILT_IN_SOURCE)
    assert table.find("NWL2023") is not None
    assert table.find("NWL2023").alphabet == "english"  # type: ignore[union-attr]


@pytest.mark.skipif(shutil.which("sha256sum") is None or shutil.which("sort") is None, reason="coreutils")
def test_a_spanish_set_digest_is_over_its_words_with_tiles_in_brackets_as_the_facts_define_it(
    tmp_path: Path, make_pack: PackFactory
) -> None:
    """The federations' file defines FISE2009's digest over [CH]URRO, NIÑO, CA[LL]E sorted by byte
    value (LC_ALL=C sort -u | sha256sum): a Spanish pack's set is digested the same way, so a pack
    of the very set is recognised as published, on the ready screen too."""
    words = ["CHURRO", "NIÑO", "CALLE", "CARRO", "CAZO", "ÑU", "CHE", "ZAPATO"]
    pack = load_lexicon(make_pack(words, alphabet="spanish"))
    stored = sorted(pack.words.keys())
    assert "[CH]U[RR]O" in stored
    assert "CA[LL]E" in stored
    listing = tmp_path / "stored.txt"
    listing.write_text("".join(f"{w}\n" for w in reversed(stored)), encoding="utf-8")
    printed = subprocess.run(
        f"LC_ALL=C sort -u {listing} | sha256sum", shell=True, capture_output=True, text=True, check=True
    ).stdout.split()[0]
    assert pack.info.set_hash == f"sha256:{printed}"
    counts = Counter(pack.info.alphabet.tile_count(w) for w in stored)
    columns = ",".join(str(counts.get(n, 0)) for n in range(2, 20))
    facts = tmp_path / "fise-like.tsv"
    facts.write_text(
        "lexicon\talphabet\twords\tsha256_of_sorted_words\twords_by_length_2_to_19\n"
        f"FISECLUB\tspanish\t{len(stored)}\t{printed}\t{columns}\n",
        encoding="utf-8",
    )
    recognition = recognise(pack, load_edition_table(built_in_edition_paths(), [facts]))
    assert recognition.full.edition is not None
    assert recognition.full.edition.name == "FISECLUB"
    badge = edition_badge(recognition, False, pack.info.name)
    assert badge.published
    assert "FISECLUB \u2713 published word set" in badge.text


def test_a_set_published_in_another_alphabet_is_recognised_and_the_build_says_which(
    tmp_path: Path, base: list[str]
) -> None:
    """ODS5.dwg built without --alphabet: its A-Z words are ODS5's all the same (recognised), and
    the build says the pack should be french so that French players' accents fold away."""
    facts = tmp_path / "french.tsv"
    unique = {w.upper() for w in base}
    counts = Counter(map(len, unique))
    columns = ",".join(str(counts.get(n, 0)) for n in range(2, 16))
    facts.write_text(
        "lexicon\talphabet\twords\tsha256_of_sorted_words\twords_by_length_2_to_15\n"
        f"ODSCLUB\tfrench\t{len(unique)}\t{digest(unique)}\t{columns}\n",
        encoding="utf-8",
    )
    source = write_list(tmp_path / "ods.txt", base)
    out = tmp_path / "ods.kxpack"
    built = CliRunner().invoke(
        lexicon_build,
        ["build", "--name", "ODS", "--source", str(source), "--known-editions", str(facts), "-o", str(out)],
    )
    assert built.exit_code == 0, built.output
    assert "matches ODSCLUB as published" in built.output
    assert (
        "published in the French alphabet, but the pack is English: build with --alphabet french"
        in built.output
    )
    args = ["build", "--alphabet", "french", "--name", "ODS", "--source", str(source)]
    french = CliRunner().invoke(
        lexicon_build, [*args, "--known-editions", str(facts), "-o", str(tmp_path / "fr.kxpack")]
    )
    assert french.exit_code == 0, french.output
    assert "--alphabet" not in french.output


def test_an_unrecognised_set_is_described_against_its_own_alphabets_editions_only(base: list[str]) -> None:
    facts = WordSetFacts.of("sha256:" + "0" * 64, len(base), Counter(map(len, base)))
    near = KnownEdition("NEAR", len(base) + 1, "1" * 64, facts.counts_by_length, alphabet="italian")
    table = EditionTable((near,))
    assert table.recognise(facts).closest[0].edition is near
    assert table.recognise(facts, "italian").closest[0].edition is near
    assert table.recognise(facts, "spanish").closest == ()


def test_a_table_with_an_alphabet_column_names_a_wrong_alphabet(tmp_path: Path) -> None:
    bad = tmp_path / "bad.tsv"
    bad.write_text(
        "lexicon\talphabet\twords\tsha256_of_sorted_words\twords_by_length_2_to_3\nX\tklingon\t1\t"
        + "a" * 64
        + "\t1,0\n",
        encoding="utf-8",
    )
    with pytest.raises(EditionTableError, match=r"bad.tsv:2: the alphabet 'klingon' is not one"):
        read_edition_table(bad)
