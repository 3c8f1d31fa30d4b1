"""``kiosk director``: the director's live view of every station; the work is ``kiosk.director``'s."""

from __future__ import annotations

import errno
from pathlib import Path
from typing import TYPE_CHECKING

import click

from kiosk.cli.where import locate, storage_options
from kiosk.console import fail
from kiosk.core.errors import KioskError
from kiosk.station import load_station_config, program_name

if TYPE_CHECKING:
    pass

__all__ = ["director"]


@click.command()
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
    """Serve the director's live view of every station: a web page, and a hall screen at /hall.

    Problems first (a station not seen for 15 s, a fault, not ready), named in the page's title;
    per station its state (or closed by a judge), its packs and rule in words, its round, what
    waits to be sent, its challenges today and in the last hour; per division what it is judged
    with (two ways at two stations is a warning) and its counts; the latest challenges without a
    word. It reads the log the stations write (the shared PostgreSQL log of --database-url, or a
    station's SQLite log). The judges' page, behind the judge PIN kept in the data directory (set
    it with 'kiosk set-pin' and the same --config or --data-dir), finds any challenge by round,
    table, station, division, time, verdict or word, with its words, exports CSV, sets the event's
    round and retires a station: the view's only writes. The page keeps its own count of wrong
    PINs, never the station's.

    \b
    Examples:
      kiosk director --data-dir data
      kiosk director --config station.toml --host 0.0.0.0 --port 8081 --https
      kiosk director --data-dir data --once       check that it reads the log, and exit
    """
    from kiosk.director.launch import checked_log_url, once_lines, served_certificate, started_lines

    where = locate(config_path, data_dir, database_url)
    try:
        log_url = checked_log_url(where)
        # checked before --once too: the check before the event
        tls = served_certificate(where, host, https=https, certificate=certificate, key_path=key_path)
        if once:
            click.echo("\n".join(once_lines(log_url)))
            return
        config = load_station_config(config_path)
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
    run_director(
        log_url,
        where.local_database,
        sock,
        lock_s=config.judge.idle_lock_seconds,
        set_pin_command=where.set_pin_command(program_name()),
        certificate=tls,
        started=lambda url: click.echo("\n".join(started_lines(url, log_url, host, tls, where))),
    )
    click.echo("The director's view has stopped.")
