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
    """``connections``: open at once, all clients together (more and the oldest one still sending
    its request's head makes room, else the new one is closed at once); ``per_client``: open at
    once from one device; ``head_timeout_s``: from a connection's start (or its previous answer)
    to the end of its request's head (a client that trickles headers, "slowloris", is cut then);
    ``keep_alive_s``: an idle connection between requests; ``head_bytes``: the request line and
    headers; ``body_bytes``: a request's body, refused while read; ``body_timeout_s``: to read
    it whole; ``open_files``: the soft limit of open files the director asks the system for
    (connections plus the files it needs itself, ``spare_files``)."""

    connections: int = 1000
    per_client: int = 64
    head_timeout_s: float = 10.0
    keep_alive_s: int = 5
    head_bytes: int = 8 * 1024
    body_bytes: int = 4 * 1024
    body_timeout_s: float = 10.0
    open_files: int = 4096
    spare_files: int = 64
