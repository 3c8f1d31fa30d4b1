"""``kiosk check``: rule on a play from the command line, or on one play per line of a file."""

from __future__ import annotations

import itertools
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

import click

from kiosk.console import fail
from kiosk.core.errors import KioskError
from kiosk.core.files.kind import Role, refusal
from kiosk.core.packs.lexicon import LoadingLexicon, MarisaLexicon, start_loading
from kiosk.core.packs.verification import PackWalker, WalkCache
from kiosk.core.play.adjudication import MAX_WORDS_PER_CHALLENGE, adjudicate
from kiosk.core.play.batch import BatchReader
from kiosk.core.words.alphabet import tiles_of
from kiosk.paths import (
    default_pack_path,
    station_data,
    walk_cache_dir,
)

if TYPE_CHECKING:
    pass

__all__ = ["EXIT_ACCEPTABLE", "EXIT_UNACCEPTABLE", "check", "read_lines"]

EXIT_ACCEPTABLE = 0
EXIT_UNACCEPTABLE = 1
BATCH_BLOCK_CHARS = 1 << 20


def read_lines(stream: TextIO) -> Iterator[list[str]]:
    """A text stream's lines, without their line ends, a block at a time.

    Read in blocks rather than line by line: click's standard input is a TextIOWrapper subclass
    written in Python, whose iteration calls its ``readline`` once per line (0.27 s for 279,000
    lines against 0.03 s for a block read). The stream's own newline handling still applies.
    """
    rest: list[str] = []  # the line not yet ended, in pieces: one very long line is not copied over and over
    while block := stream.read(BATCH_BLOCK_CHARS):
        lines = block.split("\n")
        if len(lines) == 1:
            rest.append(block)
            continue
        lines[0] = "".join(rest) + lines[0]
        rest = [lines.pop()]
        yield lines
    last = "".join(rest)
    if last:
        yield [last]


def start_lexicon(pack: Path | None) -> LoadingLexicon:
    """The pack read and checked, its walk started (remembered in the data directory's cache)."""
    walker = PackWalker(cache=WalkCache(walk_cache_dir(station_data(None).data_dir)))
    try:
        return start_loading(pack if pack is not None else default_pack_path(), walker=walker)
    except KioskError as exc:
        fail(str(exc))


def finish_loading(loading: LoadingLexicon) -> MarisaLexicon:
    """The lexicon once its walk has vouched for it; exit with the problem if it does not."""
    try:
        return loading.result()
    except KioskError as exc:
        fail(str(exc))


def rule_batch(batch: TextIO, loading: LoadingLexicon, *, youth: bool, max_words: int, out: TextIO) -> None:
    """``kiosk check --batch``: every line's answer on ``out``. Lines are read (every input error
    decided, every word normalised) while the pack's walk runs; they are looked up once it is done."""
    reader = BatchReader(loading.info, max_words=max_words)
    blocks = read_lines(batch)
    waiting = []
    for lines in blocks:
        waiting.append(reader.read(lines))
        if loading.done():
            break
    lexicon = finish_loading(loading)
    for read in itertools.chain(waiting, map(reader.read, blocks)):
        out.write("\n".join(read.rulings(lexicon, youth=youth)) + "\n")
    out.flush()


pack_option = click.option(
    "--pack",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Lexicon pack to judge with (default: the embedded ENABLE demo pack).",
)
youth_option = click.option(
    "--youth", is_flag=True, help="Apply youth (school) rules: the pack's exclusion list counts."
)


@click.command()
@pack_option
@youth_option
@click.option("--judge", is_flag=True, help="Also print each word's result (judges only).")
@click.option(
    "--batch",
    "batch",
    type=click.File("r", encoding="utf-8-sig", errors="replace"),
    help="Rule on one challenge per line of FILE ('-' for standard input).",
)
@click.option(
    "--max-words",
    type=click.IntRange(1, 64),
    default=MAX_WORDS_PER_CHALLENGE,
    show_default=True,
    help="Most words one challenge may hold.",
)
@click.argument("words", nargs=-1)
def check(
    pack: Path | None,
    youth: bool,
    judge: bool,
    batch: TextIO | None,
    max_words: int,
    words: tuple[str, ...],
) -> None:
    """Rule on one challenged play: prints ACCEPTABLE (exit 0) or UNACCEPTABLE (exit 1).

    WORDS are split as the station splits what players type: at spaces and commas, so
    "CAT, DOGS" is two words. Each word is read as the station reads the same keys, one way only:
    in a pack with multi-letter tiles (Spanish CH, LL, RR) their letters are those tiles, and a
    + between two letters keeps them apart as single tiles ("C+HE" is the C and H tiles, not CH);
    Catalan L·L is typed L·L or L.L, and LL is two L tiles. Any error (a word that cannot be
    judged, a pack that cannot be used, output that cannot be written) prints a message on
    standard error and exits 2.

    \b
    Examples:
      kiosk check CAT DOGS
      kiosk check --youth --pack school.kxpack "CAT, DOGS"
      kiosk check --judge --pack fise.kxpack CALLE C+HE
      kiosk check --batch slips.txt > rulings.txt
    """
    if batch is not None and words:
        fail("give either WORDS or --batch FILE, not both")
    batch_name = getattr(batch, "name", None)  # a file's path; standard input has none, or "<stdin>"
    if isinstance(batch_name, str) and Path(batch_name).is_file():
        problem = refusal(Path(batch_name), Role.CHALLENGES)
        if problem is not None:
            fail(problem)
    loading = start_lexicon(pack)
    if youth and not loading.has_youth_list:
        fail(
            f"--youth was asked for, but the pack '{loading.info.name}' has no youth exclusion "
            "list; build one with 'lexicon-build build --youth-exclusions FILE'"
        )
    if batch is not None:
        rule_batch(batch, loading, youth=youth, max_words=max_words, out=sys.stdout)
        return
    lexicon = finish_loading(loading)
    try:
        # One text, split by the one normaliser exactly as the station and --batch split it.
        ruling = adjudicate(" ".join(words), lexicon, youth=youth, max_words=max_words)
    except KioskError as exc:
        fail(str(exc))
    click.echo(ruling.verdict.value)
    if judge:
        alphabet = lexicon.info.alphabet
        for result in ruling.results:
            tiles = ""
            if not alphabet.simple:  # the tiles judged, each apart: C A LL E, C A L·L, C A L L
                tiles = f"  (tiles: {' '.join(tiles_of(result.word))})"
            click.echo(f"  {result.word:<15}  {result.status.value}{tiles}")
        youth_note = "youth rules" if youth else "no youth rules"
        click.echo(f"  pack: {ruling.pack_name} {ruling.pack_edition} ({youth_note})")
    sys.exit(EXIT_ACCEPTABLE if ruling.acceptable else EXIT_UNACCEPTABLE)
