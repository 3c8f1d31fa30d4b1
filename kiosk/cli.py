"""The ``kiosk`` command: the station itself, and rulings from the command line.

A thin click layer: every command calls core functions that are tested on their own, and only
this layer decides what to print and which exit code to return (0 acceptable, 1 unacceptable,
2 an input, pack or configuration error).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import NoReturn, TextIO

import click

from kiosk import __version__
from kiosk.core.adjudication import MAX_WORDS_PER_CHALLENGE, adjudicate
from kiosk.core.batch import batch_rulings
from kiosk.core.errors import KioskError
from kiosk.core.lexicon import MarisaLexicon, load_lexicon
from kiosk.paths import default_pack_path

__all__ = ["main"]

EXIT_ACCEPTABLE = 0
EXIT_UNACCEPTABLE = 1
EXIT_ERROR = 2
BATCH_CHUNK_LINES = 65536


def fail(message: str) -> NoReturn:
    click.echo(f"error: {message}", err=True)
    sys.exit(EXIT_ERROR)


def open_lexicon(pack: Path | None) -> MarisaLexicon:
    try:
        return load_lexicon(pack if pack is not None else default_pack_path())
    except KioskError as exc:
        fail(str(exc))


pack_option = click.option(
    "--pack",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Lexicon pack to judge with (default: the embedded ENABLE demo pack).",
)
youth_option = click.option(
    "--youth", is_flag=True, help="Apply youth (school) rules: the pack's exclusion list counts."
)


@click.group(invoke_without_command=True, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="kiosk")
@click.pass_context
def main(ctx: click.Context) -> None:
    """The challenge kiosk: one verdict for a whole challenged play.

    With no command, starts the station on the embedded default pack.

    \b
    Examples:
      kiosk                         start the station
      kiosk check CAT DOGS          rule on a play from the command line
    """
    if ctx.invoked_subcommand is None:
        ctx.invoke(station)


@main.command()
@pack_option
@youth_option
def station(pack: Path | None, youth: bool) -> None:
    """Start the station (a text prompt until the full-screen station lands).

    \b
    Example:
      kiosk station --pack club.kxpack
    """
    lexicon = open_lexicon(pack)
    info = lexicon.info
    click.echo(f"Lexicon: {info.title} ({info.word_count} words)")
    click.echo("Type the challenged words and press Enter (Ctrl+D to leave).")
    for line in sys.stdin:
        try:
            ruling = adjudicate(line, lexicon, youth=youth)
        except KioskError as exc:
            click.echo(f"  {exc}")
            continue
        click.echo(f"  {ruling.verdict.value}")


@main.command()
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

    An input or pack error prints a message on standard error and exits 2.

    \b
    Examples:
      kiosk check CAT DOGS
      kiosk check --youth --pack school.kxpack "CAT, DOGS"
      kiosk check --batch slips.txt > rulings.txt
    """
    if batch is not None and words:
        fail("give either WORDS or --batch FILE, not both")
    lexicon = open_lexicon(pack)
    if youth and not lexicon.has_youth_list:
        fail(
            f"--youth was asked for, but the pack '{lexicon.info.name}' has no youth exclusion "
            "list; build one with 'lexicon-build build --youth-exclusions FILE'"
        )
    if batch is not None:
        out = sys.stdout
        chunk: list[str] = []
        for line_ruling in batch_rulings(batch, lexicon, youth=youth, max_words=max_words):
            chunk.append(line_ruling)
            if len(chunk) >= BATCH_CHUNK_LINES:
                out.write("\n".join(chunk) + "\n")
                chunk.clear()
        if chunk:
            out.write("\n".join(chunk) + "\n")
        out.flush()
        return
    try:
        ruling = adjudicate(words, lexicon, youth=youth, max_words=max_words)
    except KioskError as exc:
        fail(str(exc))
    click.echo(ruling.verdict.value)
    if judge:
        for result in ruling.results:
            click.echo(f"  {result.word:<15}  {result.status.value}")
        youth_note = "youth rules" if youth else "no youth rules"
        click.echo(f"  pack: {ruling.pack_name} {ruling.pack_edition} ({youth_note})")
    sys.exit(EXIT_ACCEPTABLE if ruling.acceptable else EXIT_UNACCEPTABLE)
