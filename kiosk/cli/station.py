"""``kiosk station``: start the full-screen station, or check what it would start with."""

from __future__ import annotations

import contextlib
from pathlib import Path

import click

from kiosk.cli.where import checked_data_dir, config_option
from kiosk.console import fail
from kiosk.core.errors import KioskError
from kiosk.core.station.config import load_divisions, load_languages
from kiosk.core.words.plural import counted
from kiosk.paths import (
    DATA_DIR_ENV,
    StationData,
    station_data,
)
from kiosk.station import load_station_config, program_name, start_station, station_verifier

__all__ = ["check_station", "station"]


@click.command()
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
    if config.access.speech:
        click.echo(f"Speech: {_voice_checked()}")
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
        click.echo(f"Challenge log: {shared_log_checked(config.database_url, config.station_name)}")
    if not _judge_pin_set(where_data):
        fail(
            f"no judge PIN is set for {where_data.described}, so this station would not serve players. "
            f"Set one as the user the station runs as: {where_data.set_pin_command(program_name())}"
        )
    click.echo(f"Judge PIN: set, in {where_data.local_database}")
    click.echo(
        "OK: the station can start with this configuration (on the station, --smoke checks its screen)."
    )


def _voice_checked() -> str:
    """``--check``'s line about the voice of a station that speaks (``[access] speech``): the
    station itself only warns in its journal and runs silent without espeak-ng, which a player who
    cannot read the screen finds out at the first challenge; the check says it (exit 2)."""
    from kiosk.voice import ESPEAK, Voice

    voice = Voice()
    if not voice.available:
        fail(
            f"[access] speech is on, but {ESPEAK} is not installed: the station would be silent. "
            f"Install it (apt-get install {ESPEAK}; docs/install.md), or set speech = false"
        )
    return f"on, said by {ESPEAK} ({voice.program})"


def _judge_pin_set(where: StationData) -> bool:
    """Whether the station's own database holds a judge PIN (a station without one serves nobody).
    A database that is not there holds none, and is not made by asking."""
    if not where.local_database.exists():
        return False
    from kiosk.cli.pin import refuse_another_users_folder  # --check's: not the station's start

    refuse_another_users_folder(where, "station", "--check")
    from kiosk.storage import open_station_storage  # SQLAlchemy loads only when there is a database

    try:
        with open_station_storage(where.data_dir, None, forward_in_background=False) as storage:
            return storage.judge_access.has_pin()
    except KioskError as exc:
        fail(str(exc))


def shared_log_checked(url: str, station: str) -> str:
    """``--check``'s line about the log of ``database_url``: the shared server contacted as the
    station would (exit 2 with what to do if it could not judge into it), a SQLite file named."""
    from kiosk.storage.database import describe_url, is_sqlite

    if is_sqlite(url):
        return f"the SQLite database {describe_url(url)} (made when the station starts)"
    from kiosk.storage import check_shared_log

    try:
        found = check_shared_log(url, station)
    except KioskError as exc:
        fail(str(exc))
    who = (
        f"its role {found.role} adds station {found.registered_station!r}'s challenges"
        if found.registered_station is not None
        else f"its role {found.role} is not a station's role of 'kiosk shared-log setup' (it may write "
        "any station's rows)"
    )
    heard = "no round set yet" if found.round is None else f"round {found.round.number}"
    return f"the shared log at {found.where} answers (schema {found.schema_version}); {who}; {heard}"
