"""``kiosk set-pin``: set the judge PIN of a station (also the way back in for a forgotten one)."""

from __future__ import annotations

import os
import sys
from datetime import UTC
from pathlib import Path
from typing import TYPE_CHECKING

import click

from kiosk.cli.where import locate, open_storage, storage_options
from kiosk.console import fail
from kiosk.core.errors import KioskError
from kiosk.core.station.pin import PIN_MIN_LENGTH
from kiosk.core.words.plural import counted
from kiosk.paths import (
    DATA_DIR_ENV,
    INSTALLED_CONFIG,
    INSTALLED_DATA_DIR,
    INSTALLED_PROGRAM,
    PLATFORM_FOLDER,
    StationData,
)
from kiosk.station import program_name

if TYPE_CHECKING:
    pass

__all__ = ["refuse_another_users_folder", "set_pin"]


def refuse_another_users_folder(where: StationData, *words: str) -> None:
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


@click.command("set-pin")
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
    refuse_another_users_folder(where, "set-pin", *flags)
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
