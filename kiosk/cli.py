"""The ``kiosk`` program's click layer: the station, rulings, the log, the PIN and the director's view.

A thin click layer: every command calls functions that are tested on their own (``kiosk.station``
starts the station, ``kiosk.core`` rules, ``kiosk.storage`` reads the log, ``kiosk.director``
serves the director's view), and only this layer decides what to print and which exit code to
return (0 acceptable, 1 unacceptable, 2 an input, pack or configuration error).
``kiosk.entry.run`` (the console script) runs it under ``kiosk.console.run_guarded``.
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import re
import sys
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO, TypeVar

import click

from kiosk import __version__
from kiosk.argument import OutputFile
from kiosk.console import fail
from kiosk.core.adjudication import MAX_WORDS_PER_CHALLENGE, adjudicate
from kiosk.core.alphabet import tiles_of
from kiosk.core.batch import batch_rulings
from kiosk.core.config import load_divisions, load_languages
from kiosk.core.errors import KioskError
from kiosk.core.filekind import Role, check_output, refusal
from kiosk.core.lexicon import MarisaLexicon, load_lexicon
from kiosk.core.pin import PIN_MIN_LENGTH
from kiosk.core.plural import counted
from kiosk.core.record import MAX_QUERY_LAST
from kiosk.core.walk import PackWalker, WalkCache
from kiosk.paths import (
    DATA_DIR_ENV,
    INSTALLED_CONFIG,
    INSTALLED_DATA_DIR,
    INSTALLED_PROGRAM,
    PLATFORM_FOLDER,
    StationData,
    check_data_dir,
    default_pack_path,
    guide_dir,
    station_data,
    walk_cache_dir,
)
from kiosk.station import load_station_config, program_name, start_station, station_verifier

if TYPE_CHECKING:
    from kiosk.core.record import ChallengeEntry, LeftOut
    from kiosk.storage import LogForReading, StationStorage

__all__ = ["EXIT_ACCEPTABLE", "EXIT_UNACCEPTABLE", "kiosk", "parse_since"]

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


def open_lexicon(pack: Path | None) -> MarisaLexicon:
    walker = PackWalker(cache=WalkCache(walk_cache_dir(station_data(None).data_dir)))
    try:
        return load_lexicon(pack if pack is not None else default_pack_path(), walker=walker)
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


config_option = click.option(
    "--config",
    "config_path",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Station configuration (TOML): divisions, packs, rules, timings. Default: one division "
    "on the embedded pack.",
)


class KioskGroup(click.Group):
    """The ``kiosk`` group, whose help ends by saying where this installation keeps its guides."""

    def format_epilog(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        super().format_epilog(ctx, formatter)
        guides = guide_dir()
        formatter.write_paragraph()
        formatter.write_text(
            f"Guides: {guides / 'install.md'} (installing stations); station.md, judges.md and "
            f"organisers.md in the same folder."
        )


@click.group(
    cls=KioskGroup, invoke_without_command=True, context_settings={"help_option_names": ["-h", "--help"]}
)
@click.version_option(__version__, prog_name="kiosk")
@config_option
@click.pass_context
def kiosk(ctx: click.Context, config_path: Path | None) -> None:
    """The challenge kiosk: one verdict for a whole challenged play.

    With no command, starts the full-screen station.

    \b
    Examples:
      kiosk                         start the station on the embedded pack
      kiosk --config station.toml   start the station as configured
      kiosk check CAT DOGS          rule on a play from the command line
      kiosk log show --last 10      the last ten challenges, per-word results included
      kiosk set-pin                 set the judge PIN (also the way back in)
    """
    if ctx.invoked_subcommand is None:
        ctx.invoke(station, config_path=config_path)


@kiosk.command()
@config_option
@click.option(
    "--data-dir",
    type=click.Path(path_type=Path, file_okay=False),
    help=f"Where the station keeps its log and lock (default: the config's data_dir, then "
    f"${DATA_DIR_ENV}, then the platform's data folder).",
)
@click.option("--touch", is_flag=True, help="Show the on-screen keyboard and the pointer.")
@click.option("--smoke", is_flag=True, help="Exit once the ready screen is painted, printing the time taken.")
@click.option(
    "--check",
    is_flag=True,
    help="Check the configuration, every pack and the data directory, without a screen, and exit.",
)
@click.option(
    "--kiosk-session",
    is_flag=True,
    help="The machine's only program (the systemd units use it): if the station cannot start, "
    "show 'Station not ready - call a judge' with the reason on screen instead of exiting.",
)
def station(
    config_path: Path | None,
    data_dir: Path | None,
    touch: bool,
    smoke: bool,
    check: bool,
    kiosk_session: bool,
) -> None:
    """Start the full-screen challenge station.

    A bad configuration or a pack that fails verification stops it with a message naming the
    file (exit 2); with --kiosk-session the message also stays on screen for the judge.
    Leaving the station: judge mode (Esc on the ready screen, or Ctrl+Alt+J; then the judge
    PIN), then "Exit the station". Set the PIN first with 'kiosk set-pin'. On a kiosk machine
    the configuration is /etc/challenge-kiosk/station.toml.

    \b
    Examples:
      kiosk station
      kiosk station --config station.toml
      kiosk station --smoke          check that the station starts, and how fast
      kiosk station --config station.toml --check
    """
    if config_path is None:  # `kiosk --config FILE station` means the same as `kiosk station --config FILE`
        config_path = click.get_current_context().find_root().params.get("config_path")
    if check:
        check_station(config_path, data_dir)
        return
    start_station(config_path, data_dir, touch=touch, smoke=smoke, kiosk_session=kiosk_session)


def check_station(config_path: Path | None, data_dir_flag: Path | None) -> None:
    """``kiosk station --check``: what the station would start with, checked without Qt or a screen.

    The same loading as the station's (every pack read and verified, trusted keys applied), and
    the same data directory; exit 2 with the first problem, as the station would stop.
    """
    try:
        config = load_station_config(config_path)
        where_data = station_data(config, data_dir=data_dir_flag)
        divisions = load_divisions(config, station_verifier(config, where_data.data_dir, check_only=True))
        load_languages(config)
    except KioskError as exc:
        fail(str(exc))
    where = str(config_path) if config_path is not None else "none (one division on the embedded pack)"
    click.echo(f"Configuration: {where}")
    click.echo(f"Station: {config.station_name!r}, {config.rules.title.lower()}")
    for loaded in divisions:
        info, division = loaded.lexicon.info, loaded.division
        youth = ", youth rules" if division.youth_rules else ""
        click.echo(
            f"Division {division.name!r}: {division.pack}: {info.title}, {counted(info.word_count, 'word')}"
            f"{youth}, verified, {loaded.lexicon.trust.label}"
        )
        rules = "rules with the youth list applied: " if division.youth_rules else "word set: "
        click.echo(f"  {rules}{loaded.recognition.ruling(division.youth_rules).sentence()}")
        click.echo("".join(f"  note: {note}\n" for note in loaded.recognition.notes), nl=False)
        if loaded.second_opinion is not None:
            second = loaded.second_opinion.info
            click.echo(f"  second opinion: {division.second_opinion_pack}: {second.title}, verified")
    folder = where_data.data_dir
    made = [p for p in (folder.absolute(), *folder.absolute().parents) if not p.exists()]
    try:
        checked_data_dir(where_data)
    finally:
        for path in made:  # deepest first; only the empty folders this check made
            with contextlib.suppress(OSError):
                path.rmdir()
    state = "there" if folder.is_dir() else "not there yet: the station makes it when it starts"
    click.echo(f"Data directory: {folder} ({state}; from {where_data.found_by})")
    if config.database_url is not None:
        click.echo("Challenge log: the shared database of database_url (not contacted by this check)")
    if not _judge_pin_set(where_data):
        fail(
            f"no judge PIN is set for {where_data.described}, so this station would not serve players. "
            f"Set one as the user the station runs as: {where_data.set_pin_command(program_name())}"
        )
    click.echo(f"Judge PIN: set, in {where_data.local_database}")
    click.echo(
        "OK: the station can start with this configuration (on the station, --smoke checks its screen)."
    )


def _judge_pin_set(where: StationData) -> bool:
    """Whether the station's own database holds a judge PIN (a station without one serves nobody).
    A database that is not there holds none, and is not made by asking."""
    if not where.local_database.exists():
        return False
    _refuse_another_users_folder(where, "station", "--check")
    from kiosk.storage import open_station_storage  # SQLAlchemy loads only when there is a database

    try:
        with open_station_storage(where.data_dir, None, forward_in_background=False) as storage:
            return storage.judge_access.has_pin()
    except KioskError as exc:
        fail(str(exc))


@kiosk.command()
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
    lexicon = open_lexicon(pack)
    if youth and not lexicon.has_youth_list:
        fail(
            f"--youth was asked for, but the pack '{lexicon.info.name}' has no youth exclusion "
            "list; build one with 'lexicon-build build --youth-exclusions FILE'"
        )
    if batch is not None:
        out = sys.stdout
        for lines in read_lines(batch):
            out.write(
                "".join(
                    f"{ruling}\n"
                    for ruling in batch_rulings(lines, lexicon, youth=youth, max_words=max_words)
                )
            )
        out.flush()
        return
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


# --- the challenge log and the judge PIN (library first: kiosk.storage does the work) ---------

DEFAULT_SHOW_LAST = 20
_F = TypeVar("_F", bound=Callable[..., Any])
_RELATIVE = re.compile(r"^(\d+)\s*([mhd])$")
_RELATIVE_UNITS = {"m": "minutes", "h": "hours", "d": "days"}


def storage_options(command: _F) -> _F:
    """--config, --data-dir and --database-url, shared by every command that opens the station's
    storage: they find it exactly as the station does (``kiosk.paths.station_data``)."""
    command = click.option(
        "--database-url",
        metavar="URL",
        help="The log's database, e.g. postgresql+psycopg://kiosk@server/kiosk "
        "(default: the config's database_url, else the SQLite file in the data directory).",
    )(command)
    command = click.option(
        "--data-dir",
        type=click.Path(path_type=Path, file_okay=False),
        help=f"The station's data directory (default: the config's data_dir, then ${DATA_DIR_ENV}, "
        "then the platform's own).",
    )(command)
    return config_option(command)


def locate(config_path: Path | None, data_dir: Path | None, database_url: str | None) -> StationData:
    """The station's data as the station itself finds it; ``--config`` may come before the command."""
    if config_path is None:
        config_path = click.get_current_context().find_root().params.get("config_path")
    try:
        config = load_station_config(config_path)
    except KioskError as exc:
        fail(str(exc))
    return station_data(config, data_dir=data_dir, database_url=database_url)


def checked_data_dir(where: StationData) -> None:
    """The station's own check of its data directory (made, written to, its database files), said
    as ``kiosk station --check`` says it: exit 2 naming the folder, why, and where it came from."""
    try:
        check_data_dir(where.data_dir)
    except KioskError as exc:
        fail(f"{exc} (this folder comes from {where.found_by})")


def open_storage(where: StationData) -> StationStorage:
    """Open the station's storage to write to it (``kiosk set-pin``), creating it if it is not there,
    after the station's own check of its data directory."""
    from kiosk.storage import open_station_storage  # SQLAlchemy loads only for these commands

    checked_data_dir(where)
    try:
        return open_station_storage(where.data_dir, where.database_url, forward_in_background=False)
    except KioskError as exc:
        fail(str(exc))


def open_reading(where: StationData) -> LogForReading:
    """The station's log for ``log show`` and ``log export``: read only (nothing created, written,
    upgraded or checkpointed; ``kiosk.storage.open_log_for_reading``)."""
    from kiosk.storage import open_log_for_reading  # SQLAlchemy loads only for these commands

    if where.database_url is None and not where.local_database.exists():
        fail(
            f"there is no station database at {where.local_database} (data directory from "
            f"{where.found_by}): no station has logged anything there. Name the station's "
            "configuration with --config (or its folder with --data-dir)"
        )
    try:
        return open_log_for_reading(where.data_dir, where.database_url)
    except KioskError as exc:
        fail(str(exc))


def parse_since(text: str, now: datetime) -> datetime:
    """``30m``/``2h``/``1d`` ago, or an ISO date or time (UTC unless it carries an offset), in UTC.

    A moment the log cannot hold (before the year 1 or after 9999, once in UTC) is the user's
    mistake, said as such: it never reaches the database, which would be blamed for it.
    """
    relative = _RELATIVE.match(text.strip())
    if relative:
        amount, unit = int(relative.group(1)), relative.group(2)
        try:
            return (now - timedelta(**{_RELATIVE_UNITS[unit]: amount})).astimezone(UTC)
        except OverflowError:
            raise click.BadParameter(
                f"'{text}' reaches back before the year 1, further than any log; leave out --since to "
                "list every challenge, or give e.g. 30d"
            ) from None
    try:
        moment = datetime.fromisoformat(text.strip())
    except ValueError:
        raise click.BadParameter(
            f"'{text}' is not a time: use e.g. 2h, 30m, 1d, 2024-05-01 or 2024-05-01T14:00 (UTC)"
        ) from None
    try:
        return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)
    except OverflowError:
        raise click.BadParameter(
            f"'{text}' is outside the years 1 to 9999 once in UTC; give a time within them"
        ) from None


def format_entry(entry: ChallengeEntry) -> list[str]:
    ruling = entry.ruling
    when = entry.judged_at.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%SZ")
    youth = "youth rules" if ruling.youth_rules else "no youth rules"
    if ruling.youth_set_hash is not None:
        youth += f", youth list {ruling.youth_set_hash}"
    lines = [
        f"{when}  {entry.station}  {entry.division}  {ruling.verdict.value}  {' '.join(ruling.words)}",
        f"    {ruling.pack_name} {ruling.pack_edition} ({youth}), {entry.rule_profile}, "
        f"{'' if entry.table is None else f'table {entry.table}, '}id {entry.challenge_id}",
        f"    {entry.edition_text}; set {ruling.set_hash}",
    ]
    second = entry.second_opinion
    if second is not None:
        lines.append(f"    second opinion {second.title}: {second.verdict.value}; set {second.set_hash}")
    lines.extend(f"    {result.word:<15}  {result.status.value}" for result in ruling.results)
    return lines


division_option = click.option("--division", help="Only challenges judged in this division.")
lexicon_option = click.option(
    "--lexicon",
    help="Only challenges ruled with this lexicon: a pack's name, its name and edition, or the "
    "published edition its set was proven to be (e.g. NWL2023); any case.",
)


@kiosk.group()
def log() -> None:
    """Read the challenge log (directors and judges only: it shows per-word results).

    \b
    Examples:
      kiosk log show --last 10 --station "Table 3"
      kiosk log export --csv challenges.csv
    """


@log.command()
@click.option(
    "--last",
    type=click.IntRange(min=1, max=MAX_QUERY_LAST),
    default=DEFAULT_SHOW_LAST,
    show_default=True,
    help="Show the most recent N challenges.",
)
@click.option("--station", help="Only challenges judged at this station.")
@click.option("--since", help="Only challenges from this time on: 2h, 30m, 1d, or 2024-05-01T14:00 (UTC).")
@division_option
@lexicon_option
@storage_options
def show(
    last: int,
    station: str | None,
    since: str | None,
    division: str | None,
    lexicon: str | None,
    config_path: Path | None,
    data_dir: Path | None,
    database_url: str | None,
) -> None:
    """Print recent challenges, oldest first, each with its per-word results. Times are UTC.

    Each challenge says what ruled: the pack, the edition its set was proven to be (or that it
    is not a published edition), the youth list's digest under youth rules, and the second
    opinion when one was shown.

    \b
    Examples:
      kiosk log show
      kiosk log show --last 50 --since 2h
      kiosk log show --station "Table 3" --since 2024-05-01
      kiosk log show --division Schools --lexicon NSWL2023
    """
    from kiosk.storage import LogQuery

    since_at = parse_since(since, datetime.now(UTC)) if since is not None else None
    query = LogQuery(last=last, station=station, since=since_at, division=division, lexicon=lexicon)
    where = locate(config_path, data_dir, database_url)
    with open_reading(where) as storage:
        try:
            entries = storage.log.query(query)
        except KioskError as exc:
            fail(str(exc))
        status = storage.log.status()
    if status.local_only:
        click.echo(
            f"The shared log at {status.location} cannot be reached ({status.last_error}); "
            f"showing only the challenges judged at this station ({storage.local_path}).",
            err=True,
        )
    if not entries:
        click.echo(f"No challenges in the log at {status.location} match.")
    for entry in reversed(entries):
        click.echo("\n".join(format_entry(entry)))
    _say_left_out(entries.left_out, status.location)
    click.echo(f"(Read from {_log_described(where, status.location)}.)", err=True)
    if status.backlog:
        waiting = counted(status.backlog, "challenge")
        click.echo(f"{waiting} judged here wait to be forwarded to {status.location}.")


@log.command()
@click.option(
    "--csv",
    "csv_path",
    required=True,
    type=OutputFile(Role.LOG_EXPORT, "challenges.csv", allow_dash=True),
    help="Write the log to this CSV file ('-' for standard output).",
)
@click.option(
    "--force", is_flag=True, help="Replace the CSV file if it exists (never a file of another kind)."
)
@division_option
@lexicon_option
@storage_options
def export(
    csv_path: Path,
    force: bool,
    division: str | None,
    lexicon: str | None,
    config_path: Path | None,
    data_dir: Path | None,
    database_url: str | None,
) -> None:
    """Write every challenge (or those of --division and --lexicon) to a CSV file (UTF-8): all
    fields, per-word results included.

    The file is never written over the log itself or any file that is not an export; an earlier
    export is replaced only with --force.

    \b
    Examples:
      kiosk log export --csv challenges.csv
      kiosk log export --csv open.csv --division Open --lexicon CSW21
    """
    from kiosk.storage import LogQuery, save_csv, write_csv

    if str(csv_path) != "-":
        try:
            check_output(csv_path, Role.LOG_EXPORT, force=force, example="challenges.csv")
        except KioskError as exc:
            fail(str(exc))
    where = locate(config_path, data_dir, database_url)
    with open_reading(where) as storage:
        try:
            entries = storage.log.query(LogQuery(division=division, lexicon=lexicon))
        except KioskError as exc:
            fail(str(exc))
        status = storage.log.status()
    if status.local_only:
        fail(
            f"the shared log at {status.location} cannot be reached ({status.last_error}), so an "
            "export now would hold only this station's challenges; try again when the server "
            "answers, or leave out --database-url to export this station's own log"
        )
    _say_left_out(entries.left_out, status.location)
    entries.reverse()  # oldest first, as a spreadsheet reads
    source = _log_described(where, status.location)
    if str(csv_path) == "-":
        # A CSV is data for other programs: UTF-8 whatever the terminal's encoding ("Стол 3" too).
        sys.stdout.flush()
        out = io.TextIOWrapper(sys.stdout.buffer, encoding="utf-8", newline="", write_through=True)
        try:
            count = write_csv(entries, out)
            out.flush()
        finally:
            out.detach()
        click.echo(f"Wrote {counted(count, 'challenge')} from {source}.", err=True)
        return
    try:
        count = save_csv(entries, csv_path)
    except OSError as exc:
        fail(f"cannot write {csv_path}: {exc.strerror or exc}")
    click.echo(f"Wrote {counted(count, 'challenge')} from {source} to {csv_path}.")


def _say_left_out(left_out: tuple[LeftOut, ...], location: str) -> None:
    """Each row of the log a read left out, named on standard error: never a silent gap."""
    if left_out:
        rows = counted(len(left_out), "challenge")
        click.echo(f"Left out: {rows} in the log at {location} that this kiosk cannot read:", err=True)
        for why in left_out:
            click.echo(f"  {why}", err=True)


def _log_described(where: StationData, location: str) -> str:
    """Which database a command read: the shared server, or the station's own file."""
    if where.database_url is not None and location != str(where.local_database):
        return f"the shared log {location} (the station's own file: {where.described})"
    return where.described


def _refuse_another_users_folder(where: StationData, *words: str) -> None:
    """As root, never create files in a station's folder that belongs to its (unprivileged) user:
    the station could no longer write its own database. ``words``: the command, to advise it
    as that user."""
    geteuid = getattr(os, "geteuid", None)
    if geteuid is None or geteuid() != 0 or not where.data_dir.is_dir():
        return
    owner_uid = where.data_dir.stat().st_uid
    if owner_uid == 0:
        return
    fail(
        f"the station's data directory {where.data_dir} belongs to the user {_user_name(owner_uid)}, "
        f"and this runs as root: a database file root creates there would lock the station out. Run "
        f"it as {_user_name(owner_uid)}: {_as_owner(where, *words)}"
    )


def _user_name(uid: int) -> str:
    import pwd

    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return str(uid)


def _as_owner(where: StationData, *words: str) -> str:
    """``kiosk WORDS`` for this station, as the user its data directory belongs to, as a judge types
    it at this machine's terminal. runuser gives that user its own PATH: the program by its full
    path. For the installed station, the installed bundle's program: a source checkout in root's
    home is out of that user's reach."""
    program = program_name()
    if (
        not getattr(sys, "frozen", False)
        and where.data_dir.absolute() == INSTALLED_DATA_DIR
        and INSTALLED_PROGRAM.is_file()
    ):
        program = str(INSTALLED_PROGRAM)
    else:
        import shutil

        program = shutil.which(program) or program
    command = where.command(program, *words)
    me = getattr(os, "getuid", lambda: None)()  # POSIX only, as runuser is
    if me is None or not where.data_dir.is_dir() or where.data_dir.stat().st_uid == me:
        return command
    owner_uid = where.data_dir.stat().st_uid
    return f"runuser -u {_user_name(owner_uid)} -- {command}"


def _refuse_a_folder_no_station_reads(where: StationData) -> None:
    """Nothing named the data directory, so the PIN would go to this user's own folder, while this
    machine runs the installed station (docs/install.md), whose PIN is elsewhere: a judge setting
    "the" PIN as root would set root's, silently, and the station would stay not ready."""
    if where.found_by != PLATFORM_FOLDER or not INSTALLED_DATA_DIR.is_dir():
        return
    if where.data_dir.absolute() == INSTALLED_DATA_DIR:
        return
    config = INSTALLED_CONFIG if INSTALLED_CONFIG.is_file() else None
    installed = StationData(INSTALLED_DATA_DIR, None, f"${DATA_DIR_ENV}", config)
    fail(
        f"nothing names a data directory (no --data-dir, no data_dir in the configuration, no "
        f"${DATA_DIR_ENV}), so this would set the PIN in {where.data_dir}, which the station installed "
        f"on this machine does not read: it keeps its PIN in {INSTALLED_DATA_DIR}. For that station: "
        f"{_as_owner(installed, 'set-pin')}; for another, name its folder with --data-dir"
    )


@kiosk.group("shared-log")
def shared_log() -> None:
    """The shared PostgreSQL log of a big event: set up on its server, once, by its organiser.

    Run it on the log's server as the postgres user (sudo -u postgres kiosk shared-log ...).

    \b
    Examples:
      kiosk shared-log setup --station "Table 1" --station "Table 2"
    """


@shared_log.command("setup")
@click.option(
    "--station",
    "stations",
    multiple=True,
    metavar="NAME",
    help="A station, by the station_name of its station.toml exactly; once per station. It gets a "
    "database role and password of its own, which let it add its own challenges and nothing else.",
)
@click.option(
    "--database",
    default="kiosk",
    show_default=True,
    help="The log's database (its roles are named after it: kiosk_owner, kiosk_table_1, ...).",
)
@click.option(
    "--host",
    help="How the stations and the director's laptop reach this server, for the URLs printed (default: "
    "the --admin-url's host, else this computer's name).",
)
@click.option(
    "--admin-url",
    metavar="URL",
    help="A PostgreSQL superuser's connection (default: this computer's server through its local "
    "socket, as this system user: run it as the postgres user).",
)
@click.option("--no-director", is_flag=True, help="Make no role for the director's view.")
@click.option(
    "--new-passwords",
    is_flag=True,
    help="Give every named station (and the director) a new password, shown once; the old ones stop working.",
)
def shared_log_setup(
    stations: tuple[str, ...],
    database: str,
    host: str | None,
    admin_url: str | None,
    no_director: bool,
    new_passwords: bool,
) -> None:
    """Make the shared log's database, roles and privileges, or bring them up to date.

    Each station gets a role of its own whose password is only in its station.toml: with it, it
    adds challenges and reports under its own station's name only, and changes or deletes nothing
    (row-level security); the director gets a read-only role; the server's clock stamps when each
    report was seen. Run it again after installing a newer kiosk (it upgrades the log), to add a
    station, or with --new-passwords. It prints each station's database_url once. Run it on the
    log's server as the postgres user (sudo -u postgres kiosk shared-log setup ...). See the guide
    docs/install.md, "The shared log's server".

    \b
    Examples:
      kiosk shared-log setup --station "Table 1" --station "Table 2"
      kiosk shared-log setup --host 192.168.1.10 --station "Table 3"
    """
    import socket

    from kiosk.storage.server import set_up_shared_log

    try:
        done = set_up_shared_log(
            admin_url,
            database=database,
            stations=stations,
            director=not no_director,
            host=host or (None if admin_url else socket.gethostname()),
            new_passwords=new_passwords,
        )
    except KioskError as exc:
        fail(str(exc))
    click.echo(
        f"The shared log {done.database!r} on {done.host} port {done.port} is set up (schema version "
        f"{done.schema_version}): each station adds only its own rows and changes none, the director "
        "reads only, and the server's clock says when each station was last seen."
    )
    if done.stations:
        click.echo("Each station's station.toml gets its own line (that password is nowhere else):")
    for station in done.stations:
        if station.url is None:
            click.echo(f"  {station.station} (role {station.role}): its password is unchanged")
        else:
            click.echo(f"  {station.station} (role {station.role}):")
            click.echo(f'    database_url = "{station.url}"')
    if done.director is not None:
        if done.director.url is None:
            click.echo(
                f"The director's view (role {done.director.role}, read only): its password is unchanged"
            )
        else:
            click.echo(f"The director's view (role {done.director.role}, read only):")
            click.echo(f"  kiosk director --database-url '{done.director.url}' --data-dir director-data")
    if any(credential.new for credential in (*done.stations, done.director) if credential is not None):
        click.echo("Each password is shown this once; --new-passwords makes new ones.")
    if done.taken_over:
        click.echo(
            "Taken over from the role the stations shared before: "
            + "; ".join(done.taken_over)
            + ". That role no longer owns the log: remove it once no station.toml names it."
        )
    if done.superusers_with_passwords:
        click.echo(
            f"Note: the superusers {', '.join(done.superusers_with_passwords)} log in with a password and "
            "can do anything on this server: never put their passwords in a station.toml.",
            err=True,
        )


@kiosk.command("set-pin")
@click.option("--stdin", "from_stdin", is_flag=True, help="Read the PIN from one line of standard input.")
@click.option(
    "--random",
    "random_pin",
    is_flag=True,
    help=f"Choose a random {PIN_MIN_LENGTH}-digit PIN, set it and print it (for a demo station: "
    "'./dev.sh kiosk' uses it; never on a tournament station: anyone reading the terminal sees it).",
)
@storage_options
def set_pin(
    from_stdin: bool,
    random_pin: bool,
    config_path: Path | None,
    data_dir: Path | None,
    database_url: str | None,
) -> None:
    """Set the judge PIN of this station, and clear its count of wrong PINs.

    The PIN is asked twice and not shown. The station finds its data with the same --config (and
    --data-dir), so give the same ones the station is started with. This is also the way back in
    for a forgotten PIN: it needs the machine's terminal, which players do not have. A station
    with no PIN does not serve players until one is set here.

    \b
    Examples:
      kiosk set-pin --config station.toml
      printf '%s\\n' "$PIN" | kiosk set-pin --stdin
      kiosk set-pin --random         a demo PIN, printed
    """
    if from_stdin and random_pin:
        fail("give either --stdin or --random, not both")
    where = locate(config_path, data_dir, database_url)
    if not random_pin:  # a demo PIN is for the demo station, which finds its folder the same way
        _refuse_a_folder_no_station_reads(where)
    flags = ["--stdin"] if from_stdin else ["--random"] if random_pin else []
    _refuse_another_users_folder(where, "set-pin", *flags)
    if random_pin:
        import secrets

        pin = "".join(secrets.choice("0123456789") for _ in range(PIN_MIN_LENGTH))
    elif from_stdin:
        pin = sys.stdin.readline().rstrip("\r\n")
    else:
        pin = click.prompt("New judge PIN", hide_input=True, confirmation_prompt=True)
    with open_storage(where) as storage:
        try:
            before = storage.judge_access.attempts()
            storage.judge_access.set_pin(pin)
        except KioskError as exc:
            fail(str(exc))
    click.echo(f"Judge PIN set for {where.described}.")
    if random_pin:
        click.echo(f"Demo judge PIN: {pin}")
    if before.failures and before.last_failure_at is not None:
        last = before.last_failure_at.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%SZ")
        click.echo(f"This cleared {counted(before.failures, 'wrong PIN')} in a row (the last at {last}).")


@kiosk.command()
@storage_options
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="The address to serve on: 127.0.0.1 is this computer only; give this computer's address on "
    "the event's network (or 0.0.0.0) for the judges' other devices.",
)
@click.option("--port", type=click.IntRange(1, 65535), default=8080, show_default=True, help="The port.")
@click.option(
    "--once",
    is_flag=True,
    help="Read the log once, print what the page would sum up, and exit (2 if it cannot be read): "
    "a check before the event.",
)
@click.option(
    "--https",
    is_flag=True,
    help="Serve over HTTPS with this computer's own certificate, made the first time and kept in the "
    "data directory (browsers ask once to trust it: compare the fingerprint printed here). Use it "
    "with --host on a venue's network, where anyone could read the PIN and the words otherwise.",
)
@click.option(
    "--certificate",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Serve over HTTPS with this certificate (PEM) that you were given; needs --key.",
)
@click.option(
    "--key",
    "key_path",
    type=click.Path(path_type=Path, dir_okay=False),
    help="The private key (PEM, no password) of --certificate.",
)
def director(
    config_path: Path | None,
    data_dir: Path | None,
    database_url: str | None,
    host: str,
    port: int,
    once: bool,
    https: bool,
    certificate: Path | None,
    key_path: Path | None,
) -> None:
    """Serve the director's live view of every station: a read-only web page.

    Per station: its state (ready, in a challenge, judge mode, station fault, not ready and why),
    its packs, when it was last seen (red after a minute), what waits to be sent, its challenges
    today and in the last hour. Per division: the counts and the share of successful challenges.
    It reads the log the stations write (the shared PostgreSQL log of --database-url, or a
    station's SQLite log) and never writes to it. The first page shows no word; the recent
    challenges, words included, ask for the judge PIN kept in the data directory (set it with
    'kiosk set-pin' and the same --config or --data-dir); the page keeps its own count of wrong
    PINs, never the station's.

    \b
    Examples:
      kiosk director --data-dir data
      kiosk director --config station.toml --host 0.0.0.0 --port 8081 --https
      kiosk director --data-dir data --once       check that it reads the log, and exit
    """
    from kiosk.storage.database import sqlite_url

    where = locate(config_path, data_dir, database_url)
    if where.database_url is None and not where.local_database.exists():
        fail(
            f"there is no station database at {where.local_database} (data directory from "
            f"{where.found_by}): no station has logged anything there. Name the station's "
            "configuration with --config, its folder with --data-dir, or the shared log with --database-url"
        )
    log_url = where.database_url or sqlite_url(where.local_database)
    from kiosk.storage.board import LogReader

    try:
        LogReader(log_url)  # a URL that cannot be read is a mistake to say now, not a page banner
    except KioskError as exc:
        fail(str(exc))
    if (certificate is None) != (key_path is None):
        fail("--certificate and --key go together: give both, or neither (--https makes this computer's own)")
    from kiosk.director.tls import Certificate, given_certificate, kept_certificate

    tls: Certificate | None = None  # checked before --once too: the check before the event
    try:
        if certificate is not None and key_path is not None:
            tls = given_certificate(certificate, key_path)
        elif https:
            tls = kept_certificate(where.data_dir, host)
    except KioskError as exc:
        fail(str(exc))
    if once:
        _director_once(log_url)
        return
    try:
        config = load_station_config(
            config_path or click.get_current_context().find_root().params.get("config_path")
        )
    except KioskError as exc:
        fail(str(exc))
    from kiosk.director.serve import listen, run_director

    try:
        sock = listen(host, port)
    except OSError as exc:
        fail(
            f"cannot serve on {host} port {port}: {exc.strerror or exc}; "
            + ("give another --port" if exc.errno == errno.EADDRINUSE else "check --host")
        )
    command = where.set_pin_command(program_name())

    def started(url: str) -> None:
        click.echo(f"The director's view of the log {log_url_shown(log_url)}:")
        click.echo(f"  {url}   (Ctrl+C stops it)")
        if host == "127.0.0.1":
            click.echo("  Only this computer can open it; --host names an address the network reaches.")
        elif tls is None:
            click.echo(
                "  Plain HTTP: anyone on this network can read the PIN and the words; --https encrypts."
            )
        if tls is not None:
            kept = "made now" if tls.made else "kept"
            click.echo(f"  Certificate {tls.certificate} ({kept}, valid until {tls.not_after:%Y-%m-%d}),")
            click.echo(f"  SHA-256 fingerprint {tls.fingerprint}")
            click.echo(
                "  A browser that warns about it: check that it shows this fingerprint, then accept it."
            )
        click.echo(f"  The recent challenges ask for the judge PIN of {where.described}.")

    run_director(
        log_url,
        where.local_database,
        sock,
        lock_s=config.judge.idle_lock_seconds,
        set_pin_command=command,
        certificate=tls,
        started=started,
    )
    click.echo("The director's view has stopped.")


def log_url_shown(url: str) -> str:
    from kiosk.storage.database import describe_url, sqlite_file

    path = sqlite_file(url)
    return str(path) if path is not None else describe_url(url)


def _director_once(log_url: str) -> None:
    """``kiosk director --once``: the board's summary line, or why the log cannot be read."""
    from kiosk.director.pages import Pages
    from kiosk.director.watch import Watcher
    from kiosk.storage.board import LogReader

    watcher = Watcher(LogReader(log_url))
    try:
        snapshot = watcher.read_once()
    finally:
        watcher.close()
    if snapshot.error is not None or snapshot.board is None:
        fail(f"the director's view cannot read the log: {snapshot.error}")
    board = snapshot.board
    click.echo(Pages(watcher.reader.where).summary(board))
    for line in board.today:
        state = "no reports" if line.beat is None else ("not seen" if line.unseen else line.beat.state.value)
        click.echo(f"  {line.name}: {state}{' (red)' if line.red else ''}, {line.counts.today} today")
    if board.earlier:
        click.echo(f"Not seen today: {', '.join(line.name for line in board.earlier)}")
    if board.not_read:
        click.echo(f"Not read: {counted(board.not_read, 'more station report')} (more than any event has)")
    for why in board.left_out:
        click.echo(f"Left out, cannot be read: {why}")
