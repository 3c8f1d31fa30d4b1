"""The director's bounds on what a client may cost it, each with its reason.

A director's page serves a handful of browsers: the director's laptop, a hall screen, a few
judges' phones. Each browser holds at most six connections to it and one live stream per open
page. Everything here is far above that and far below what a hostile laptop on the venue's network
could otherwise take (3,000 connections sending a header line every 5 s; 400 MB posts).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Limits"]


@dataclass(frozen=True)
class Limits:
    """Each bound, in the unit its name says:

    - ``connections``: open at once, all clients together; one more makes room by closing the
      oldest one still sending its request's head, or is closed at once if none is;
    - ``per_client``: connections being answered at once for one device (pages, live streams);
    - ``head_timeout_s``: from a connection's start (or its previous answer) to the end of its
      request's head; a client that trickles headers ("slowloris") is cut then;
    - ``keep_alive_s``: an idle connection between requests (uvicorn's ``timeout_keep_alive``);
    - ``head_bytes``: a request's line and headers (h11's ``max_incomplete_event_size``);
    - ``body_bytes``: a request's body, refused while it is read; ``body_timeout_s``: to read it;
    - ``open_files``: the soft limit of open files the director asks the system for, of which
      ``spare_files`` are kept for the log, the PIN's database and the worker threads.
    """

    connections: int = 1000
    per_client: int = 64
    head_timeout_s: float = 10.0
    keep_alive_s: int = 5
    head_bytes: int = 8 * 1024
    body_bytes: int = 4 * 1024
    body_timeout_s: float = 10.0
    open_files: int = 4096
    spare_files: int = 64
