"""Serving the director's view: the log reader, the watcher and the app, under uvicorn.

The listening socket is bound here, before uvicorn starts, so that a port already in use is an
error the command can name (uvicorn would only log it). uvicorn runs with the pure-Python h11
protocol and the asyncio loop: nothing to compile on a director's laptop, and the same on
Windows.
"""

from __future__ import annotations

import socket
from collections.abc import Callable
from pathlib import Path

from kiosk.director.app import PinDoor, director_app
from kiosk.director.pages import Pages
from kiosk.director.watch import Watcher
from kiosk.storage.board import LogReader

__all__ = ["DEFAULT_HOST", "DEFAULT_PORT", "listen", "run_director"]

DEFAULT_HOST = "127.0.0.1"  # this computer only, unless the director names the network's address
DEFAULT_PORT = 8080
GRACEFUL_SHUTDOWN_S = 2  # open pages' streams are cut after this long on Ctrl+C


def listen(host: str, port: int) -> socket.socket:
    """A listening socket on ``host``:``port``; OSError (in use, no such address) as the system says."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


def run_director(
    log_url: str,
    pin_database: Path,
    sock: socket.socket,
    *,
    lock_s: int,
    set_pin_command: str,
    started: Callable[[str], None] = print,
) -> None:
    """Serve the view of the log at ``log_url`` on ``sock`` until Ctrl+C; the judge PIN is the one
    kept in ``pin_database`` (a station database, never created here)."""
    import uvicorn  # the station never loads the web server

    reader = LogReader(log_url)
    recent = LogReader(log_url)
    watcher = Watcher(reader)
    app = director_app(
        watcher, Pages(reader.where), PinDoor(pin_database, set_pin_command), recent, lock_s=lock_s
    )
    config = uvicorn.Config(
        app,
        loop="asyncio",
        http="h11",
        ws="none",
        lifespan="off",
        log_level="warning",
        timeout_graceful_shutdown=GRACEFUL_SHUTDOWN_S,
    )
    server = uvicorn.Server(config)
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    watcher.start()
    try:
        started(f"http://{shown}:{port}/")
        server.run(sockets=[sock])
    except KeyboardInterrupt:  # uvicorn stops on Ctrl+C, then passes it on: stopping is the way out
        pass
    finally:
        watcher.close()
        recent.close()
        sock.close()
