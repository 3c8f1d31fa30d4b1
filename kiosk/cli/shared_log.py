"""``kiosk shared-log``: set up the shared PostgreSQL log of a big event, on its server."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from kiosk.console import fail
from kiosk.core.errors import KioskError

if TYPE_CHECKING:
    pass

__all__ = ["shared_log"]


@click.group("shared-log")
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
@click.option(
    "--tls-authority",
    metavar="PATH",
    help="The event's authority certificate as the stations and the director's laptop keep it (e.g. "
    "/etc/challenge-kiosk/event-ca.pem): the URLs printed then talk to this server only over TLS and "
    'only if its certificate comes from that authority (docs/install.md, "The shared log over TLS").',
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
    tls_authority: str | None,
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
      kiosk shared-log setup --host 192.168.1.10 --tls-authority /etc/challenge-kiosk/event-ca.pem \\
          --station "Table 1" --new-passwords
    """
    import socket
    from pathlib import PurePosixPath, PureWindowsPath

    from kiosk.storage.server import set_up_shared_log

    if tls_authority is not None and not (
        PurePosixPath(tls_authority).is_absolute() or PureWindowsPath(tls_authority).is_absolute()
    ):
        fail(
            f"--tls-authority {tls_authority!r}: give the file's full path as the stations keep it, "
            "e.g. /etc/challenge-kiosk/event-ca.pem"
        )

    try:
        done = set_up_shared_log(
            admin_url,
            database=database,
            stations=stations,
            director=not no_director,
            host=host or (None if admin_url else socket.gethostname()),
            new_passwords=new_passwords,
            tls_authority=tls_authority,
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
    if tls_authority is not None:
        click.echo(
            f"Each URL asks for TLS, verified against {tls_authority}: copy the event's authority "
            "certificate there on each station and the director's laptop (never its key)."
        )
        if done.tls_off:
            click.echo(
                "Warning: this server's ssl setting is off, so no station can reach it with these URLs: "
                'give it its certificate and key (docs/install.md, "The shared log over TLS").',
                err=True,
            )
    if done.superusers_with_passwords:
        click.echo(
            f"Note: the superusers {', '.join(done.superusers_with_passwords)} log in with a password and "
            "can do anything on this server: never put their passwords in a station.toml.",
            err=True,
        )
