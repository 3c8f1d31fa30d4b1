"""Serving the director's view: the log reader, the watcher and the app, under uvicorn.

The listening socket is bound here, before uvicorn starts, so that a port already in use is an
error the command can name (uvicorn would only log it). uvicorn runs with the pure-Python h11
protocol and the asyncio loop: nothing to compile on a director's laptop, and the same on
Windows; the protocol is uvicorn's own, guarded (``kiosk.director.connection``: a deadline for a
request's head, a bound on connections the slow cannot fill, TLS with a bounded handshake), with
the bounds of ``Limits``.
"""

from __future__ import annotations

import asyncio
import logging
import socket
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import uvicorn
from starlette.types import ASGIApp

from kiosk.director.app import director_app
from kiosk.director.connection import (
    Connections,
    RepeatFilter,
    open_files_limit,
    protocol_factory,
    quiet_loop_errors,
)
from kiosk.director.door import DirectorDoor, StoredPin
from kiosk.director.gate import Served
from kiosk.director.limits import Limits
from kiosk.director.pages import Pages
from kiosk.director.tls import Certificate, tls_context
from kiosk.director.watch import Watcher
from kiosk.storage.database import is_sqlite
from kiosk.storage.hall import HallControls
from kiosk.storage.overview import LogReader

__all__ = ["DEFAULT_HOST", "DEFAULT_PORT", "director_server", "listen", "run_director"]

DEFAULT_HOST = "127.0.0.1"  # this computer only, unless the director names the network's address
DEFAULT_PORT = 8080
GRACEFUL_SHUTDOWN_S = 2  # open pages' streams are cut after this long on Ctrl+C
LISTEN_BACKLOG = 1024  # connections the system queues before the server accepts them...
MIN_BACKLOG = 16  # ... fewer where open files are scarce (see director_server)
ACCEPT_TURNS = 4  # turns of the event loop between accept() and a closed connection's file given back


def listen(host: str, port: int) -> socket.socket:
    """A listening socket on ``host``:``port``; OSError (in use, no such address) as the system says."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(LISTEN_BACKLOG)
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


def director_server(
    app: ASGIApp, limits: Limits, certificate: Certificate | None = None
) -> tuple[uvicorn.Server, Connections]:
    """The uvicorn server for ``app`` with the guarded protocol, and its book of connections.

    The connection bound is kept under the open-files limit (raised here where the system allows)
    with ``Limits.spare_files`` left for the log, the PIN's database and the worker threads, and
    room for the connections accepted before the bound sees them: asyncio accepts up to the listen
    backlog's number of connections in each turn of its loop, hands each to its protocol two turns
    later, and a connection closed to make room gives its file back one turn after that."""
    files = open_files_limit(limits.open_files)
    usable = files - limits.spare_files
    backlog = max(MIN_BACKLOG, min(LISTEN_BACKLOG, usable // (2 * ACCEPT_TURNS)))
    connections = max(1, min(limits.connections, usable - ACCEPT_TURNS * backlog))
    book = Connections(limit=connections, per_client=limits.per_client)
    tls = None if certificate is None else tls_context(certificate)
    config = uvicorn.Config(
        app,
        loop="asyncio",
        http=protocol_factory(book, replace(limits, connections=connections), tls),  # type: ignore[arg-type]
        ws="none",
        lifespan="off",
        log_level="warning",
        timeout_keep_alive=limits.keep_alive_s,
        h11_max_incomplete_event_size=limits.head_bytes,
        backlog=backlog,
        timeout_graceful_shutdown=GRACEFUL_SHUTDOWN_S,
    )
    logging.getLogger("uvicorn.error").addFilter(RepeatFilter())
    return uvicorn.Server(config), book


def run_director(
    log_url: str,
    pin_database: Path,
    sock: socket.socket,
    *,
    lock_s: int,
    set_pin_command: str,
    certificate: Certificate | None = None,
    limits: Limits | None = None,
    started: Callable[[str], None] = print,
) -> None:
    """Serve the view of the log at ``log_url`` on ``sock`` until Ctrl+C (over HTTPS with
    ``certificate``); the judge PIN is the one kept in ``pin_database`` (a station database, only
    read, never created here)."""
    limits = limits or Limits()
    reader = LogReader(log_url)
    recent = LogReader(log_url)
    watcher = Watcher(reader)
    host, port = sock.getsockname()[:2]
    names = () if certificate is None else certificate.names
    served = Served.of(host, port, https=certificate is not None, names=names)
    shared = not is_sqlite(log_url)
    public = "the event's shared log (PostgreSQL)" if shared else "a station's own log (SQLite)"
    controls = HallControls(log_url)
    app = director_app(
        watcher,
        Pages(reader.where, public, shared=shared),
        DirectorDoor(StoredPin(pin_database, set_pin_command)),
        recent,
        lock_s=lock_s,
        served=served,
        limits=limits,
        controls=controls,
    )
    server, _book = director_server(app, limits, certificate)

    async def serve() -> None:
        quiet_loop_errors(asyncio.get_running_loop())
        await server.serve(sockets=[sock])

    watcher.start()
    try:
        started(served.url)
        asyncio.run(serve())
    except KeyboardInterrupt:  # uvicorn stops on Ctrl+C, then passes it on: stopping is the way out
        pass
    finally:
        watcher.close()
        recent.close()
        controls.close()
        sock.close()
