"""Starting the director's view from a station's files: the log it reads, the certificate it serves
with, what it says once it listens, and ``--once``'s summary.

The command (``kiosk.cli.director``) only prints these lines and exits; every refusal here is a
``KioskError`` saying what to do. The server's own modules load only when they are needed: a
``--once`` check or a refusal never starts uvicorn, and plain HTTP never loads the certificate code.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kiosk.core.errors import ConfigError, StorageError
from kiosk.core.words.plural import counted
from kiosk.paths import StationData

if TYPE_CHECKING:
    from pathlib import Path

    from kiosk.director.tls import Certificate

__all__ = [
    "LOCAL_ONLY_HOST",
    "checked_log_url",
    "log_url_shown",
    "once_lines",
    "served_certificate",
    "started_lines",
]

LOCAL_ONLY_HOST = "127.0.0.1"


def checked_log_url(where: StationData) -> str:
    """The log the view reads (the shared server's, else the station's SQLite file), checked to be
    readable now: a URL that cannot be read is a mistake to say at the start, not a page banner."""
    from kiosk.storage.database import sqlite_url
    from kiosk.storage.overview import LogReader

    if where.database_url is None and not where.local_database.exists():
        raise StorageError(
            f"there is no station database at {where.local_database} (data directory from "
            f"{where.found_by}): no station has logged anything there. Name the station's "
            "configuration with --config, its folder with --data-dir, or the shared log with --database-url"
        )
    log_url = where.database_url or sqlite_url(where.local_database)
    LogReader(log_url)
    return log_url


def served_certificate(
    where: StationData, host: str, *, https: bool, certificate: Path | None, key_path: Path | None
) -> Certificate | None:
    """The certificate of HTTPS: the one given (with its key), this computer's own kept in the
    data directory (``https``), or None for plain HTTP."""
    if (certificate is None) != (key_path is None):
        raise ConfigError(
            "--certificate and --key go together: give both, or neither (--https makes this computer's own)"
        )
    if certificate is not None and key_path is not None:
        from kiosk.director.tls import given_certificate

        return given_certificate(certificate, key_path)
    if https:
        from kiosk.director.tls import kept_certificate

        return kept_certificate(where.data_dir, host)
    return None


def log_url_shown(url: str) -> str:
    """A log's URL for people: the SQLite file's path, or the server without its password."""
    from kiosk.storage.database import describe_url, sqlite_file

    path = sqlite_file(url)
    return str(path) if path is not None else describe_url(url)


def started_lines(
    url: str, log_url: str, host: str, tls: Certificate | None, where: StationData
) -> list[str]:
    """What the command says once the view listens at ``url``."""
    lines = [f"The director's view of the log {log_url_shown(log_url)}:", f"  {url}   (Ctrl+C stops it)"]
    if host == LOCAL_ONLY_HOST:
        lines.append("  Only this computer can open it; --host names an address the network reaches.")
    elif tls is None:
        lines.append("  Plain HTTP: anyone on this network can read the PIN and the words; --https encrypts.")
    if tls is not None:
        kept = "made now" if tls.made else "kept"
        lines += [
            f"  Certificate {tls.certificate} ({kept}, valid until {tls.not_after:%Y-%m-%d}),",
            f"  SHA-256 fingerprint {tls.fingerprint}",
            "  A browser that warns about it: check that it shows this fingerprint, then accept it.",
        ]
    lines.append(f"  The recent challenges ask for the judge PIN of {where.described}.")
    return lines


def once_lines(log_url: str) -> list[str]:
    """``kiosk director --once``: the overview's summary, or StorageError saying why the log cannot
    be read."""
    from kiosk.director.pages import Pages, chip
    from kiosk.director.watch import Watcher
    from kiosk.storage.overview import LogReader

    watcher = Watcher(LogReader(log_url))
    try:
        snapshot = watcher.read_once()
    finally:
        watcher.close()
    if snapshot.error is not None or snapshot.board is None:
        raise StorageError(f"the director's view cannot read the log: {snapshot.error}")
    board = snapshot.board
    lines = [Pages(watcher.reader.where).summary(board)]
    for line in board.today:  # each state in the board's words: closed and retired are no problem
        _, state = chip(line)
        lines.append(f"  {line.name}: {state}{' (problem)' if line.red else ''}, {line.counts.today} today")
    if board.earlier:
        lines.append(f"Not seen today: {', '.join(line.name for line in board.earlier)}")
    if board.not_read:
        lines.append(f"Not read: {counted(board.not_read, 'more station report')} (more than any event has)")
    lines.extend(f"Left out, cannot be read: {why}" for why in board.left_out)
    return lines
