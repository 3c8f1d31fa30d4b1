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
    StationData,
)

if TYPE_CHECKING:
    pass

__all__ = ["set_pin"]


def _refuse_another_users_folder(where: StationData) -> None:
    """As root, never create files in a station's folder that belongs to its (unprivileged) user:
    the station could no longer write its own database."""
    geteuid = getattr(os, "geteuid", None)
    if geteuid is None or geteuid() != 0 or not where.data_dir.is_dir():
        return
    owner_uid = where.data_dir.stat().st_uid
    if owner_uid == 0:
        return
    import pwd

    try:
        owner = pwd.getpwuid(owner_uid).pw_name
    except KeyError:
        owner = str(owner_uid)
    command = " ".join(sys.argv[1:]) or "set-pin"
    fail(
        f"the station's data directory {where.data_dir} belongs to the user {owner}, and this runs "
        f"as root: a database file root creates there would lock the station out. Run it as "
        f"{owner}: runuser -u {owner} -- {Path(sys.argv[0]).name} {command}"
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
    _refuse_another_users_folder(where)
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
