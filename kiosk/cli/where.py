"""Where a command finds the station: --config, --data-dir and --database-url, read as the station
reads them, and the station's storage opened for a command.

``--config`` is reached one way: ``config_option``'s callback, which takes the command's own
``--config`` or else the one given before the command (``kiosk --config FILE log show``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from kiosk.console import fail
from kiosk.core.errors import KioskError
from kiosk.paths import (
    DATA_DIR_ENV,
    StationData,
    check_data_dir,
    station_data,
)
from kiosk.station import load_station_config

if TYPE_CHECKING:
    from kiosk.storage import LogForReading, StationStorage

__all__ = [
    "Given",
    "checked_data_dir",
    "config_option",
    "locate",
    "open_reading",
    "open_storage",
    "storage_options",
]

_F = TypeVar("_F", bound=Callable[..., Any])


@dataclass(frozen=True)
class Given:
    """What was given before the command (``kiosk --config FILE station``): the root's context object."""

    config_path: Path | None


def _config_given(ctx: click.Context, _param: click.Parameter, value: Path | None) -> Path | None:
    """``--config`` as given to this command, else as given before it."""
    if value is not None:
        return value
    given = ctx.find_object(Given)
    return None if given is None else given.config_path


config_option = click.option(
    "--config",
    "config_path",
    type=click.Path(path_type=Path, dir_okay=False),
    callback=_config_given,
    help="Station configuration (TOML): divisions, packs, rules, timings. Default: one division "
    "on the embedded pack.",
)


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
