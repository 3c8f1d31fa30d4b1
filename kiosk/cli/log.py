"""``kiosk log``: read the challenge log (show, export); ``kiosk.storage`` does the work."""

from __future__ import annotations

import io
import re
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

import click

from kiosk.argument import OutputFile
from kiosk.cli.where import locate, open_reading, storage_options
from kiosk.console import fail
from kiosk.core.errors import KioskError
from kiosk.core.files.kind import Role
from kiosk.core.files.output import check_output
from kiosk.core.log.challenge import MAX_QUERY_LAST
from kiosk.core.wording import Text
from kiosk.core.words.plural import counted
from kiosk.paths import (
    StationData,
)

if TYPE_CHECKING:
    from kiosk.core.log.challenge import ChallengeEntry, LeftOut

__all__ = ["format_entry", "log", "parse_since"]

DEFAULT_SHOW_LAST = 20
_RELATIVE = re.compile(r"^(\d+)\s*([mhd])$")
_RELATIVE_UNITS = {"m": "minutes", "h": "hours", "d": "days"}


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
        f"{'' if entry.round is None else f'round {entry.round}, '}"
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


@click.group()
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


def _log_described(where: StationData, location: str) -> Text:
    """Which database a command read: the shared server, or the station's own file."""
    if where.database_url is not None and location != str(where.local_database):
        return f"the shared log {location} (the station's own file: {where.described})"
    return where.described
