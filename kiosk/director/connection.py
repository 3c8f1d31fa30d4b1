"""The director's connections: how many, from whom, and how long a request's head may take.

uvicorn gives the rest: ``timeout_keep_alive`` closes a connection idle between requests,
``h11_max_incomplete_event_size`` bounds a request's head, and its flow control stops reading a
body the page is not reading. Two things it lacks, added here in a subclass of its h11 protocol
(``GuardedH11Protocol``):

- **A deadline for a request's head.** uvicorn starts no timer before a connection's first
  request, and its keep-alive timer restarts on every byte: 3,000 connections sending a header
  line every 5 s ("slowloris") stayed open forever. Here every connection must finish its
  request's head within ``Limits.head_timeout_s`` of its start (or of the previous answer), or
  it is closed.
- **A bound on open connections that the slow cannot fill.** uvicorn's ``limit_concurrency``
  answers 503 to every new request once that many connections are open, slow ones included: the
  attacker's connections would keep everyone else out. Here (``Connections``) a new connection
  over ``Limits.connections`` makes room by closing the oldest connection still waiting for its
  request's head; a connection serving a page or a live stream is never closed for it. Only if
  none waits is the new one closed at once. A normal request's head arrives in its first packet,
  so it is read long before a thousand newer connections could push it out: it gets through, even
  from the attacker's own address. ``Limits.per_client`` bounds the connections one device has
  being answered at once (its pages and live streams), so that one device cannot hold them all.

The bound stays below the open-files limit, which ``open_files_limit`` raises where the system
allows, so the server never runs out of file descriptors: past that, asyncio retries ``accept()``
in a loop that wrote ~208,000 tracebacks in 50 s. ``quiet_loop_errors`` turns what the event loop
would still log (one line, not a traceback) into at most one line per kind every
``REPEAT_S``, and ``RepeatFilter`` does the same for uvicorn's own warnings (one per malformed
request).

Over HTTPS (``protocol_factory`` with a TLS context) the TLS handshake happens before the h11
protocol sees the connection; asyncio's ``SSLProtocol`` is built here with a handshake timeout of
``Limits.head_timeout_s`` (uvicorn would leave asyncio's default, 60 s). A handshake under way is
not counted in ``Connections``: it is bounded by that timeout and by the raised open-files limit.
"""

from __future__ import annotations

import asyncio
import logging
import ssl
import sys
import time
from asyncio.sslproto import SSLProtocol
from collections import Counter
from collections.abc import Callable
from typing import Any

import h11
from uvicorn.config import Config
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.server import ServerState

from kiosk.director.door import device_of
from kiosk.director.limits import Limits

__all__ = [
    "REPEAT_S",
    "Connections",
    "GuardedH11Protocol",
    "RepeatFilter",
    "open_files_limit",
    "protocol_factory",
    "quiet_loop_errors",
]

REPEAT_S = 10.0  # the same complaint is written at most once in this long


class Connections:
    """Every open connection of one server, by device, and which of them wait for a request's head
    (oldest first): the bound and its eviction (see the module docstring)."""

    def __init__(self, *, limit: int, per_client: int) -> None:
        self.limit = limit
        self.per_client = per_client
        self._open: dict[GuardedH11Protocol, str] = {}
        self._by_device: Counter[str] = Counter()
        self._waiting: dict[GuardedH11Protocol, None] = {}  # insertion order: oldest first
        self._waiting_by_device: dict[str, dict[GuardedH11Protocol, None]] = {}
        self.refused = 0  # closed on arrival: nothing to make room with
        self.evicted = 0  # closed to make room, while waiting for a request's head
        self.timed_out = 0  # closed for a request's head that came too slowly

    @property
    def open(self) -> int:
        return len(self._open)

    def admit(self, conn: GuardedH11Protocol, device: str) -> bool:
        """Take ``conn`` in, making room if need be; False: it must be closed at once."""
        answered = self._by_device[device] - len(self._waiting_by_device.get(device, ()))
        if answered >= self.per_client:
            self.refused += 1
            return False
        if len(self._open) >= self.limit and not self._evict(self._waiting):
            self.refused += 1
            return False
        self._open[conn] = device
        self._by_device[device] += 1
        self.waiting(conn)
        return True

    def _evict(self, waiting: dict[GuardedH11Protocol, None]) -> bool:
        victim = next(iter(waiting), None)
        if victim is None:
            return False
        self.closed(victim)
        self.evicted += 1
        victim.drop()
        return True

    def waiting(self, conn: GuardedH11Protocol) -> None:
        """``conn`` waits for a request's head (again): last in line."""
        device = self._open.get(conn)
        if device is None:
            return
        self.busy(conn)
        self._waiting[conn] = None
        self._waiting_by_device.setdefault(device, {})[conn] = None

    def busy(self, conn: GuardedH11Protocol) -> None:
        """``conn``'s request is being answered: it is not closed to make room."""
        self._waiting.pop(conn, None)
        device = self._open.get(conn)
        if device is not None:
            mine = self._waiting_by_device.get(device)
            if mine is not None:
                mine.pop(conn, None)
                if not mine:
                    del self._waiting_by_device[device]

    def closed(self, conn: GuardedH11Protocol) -> None:
        self.busy(conn)
        device = self._open.pop(conn, None)
        if device is not None:
            self._by_device[device] -= 1
            if not self._by_device[device]:
                del self._by_device[device]


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol, with a deadline on each request's head and a place in
    ``Connections`` (see the module docstring)."""

    def __init__(
        self,
        config: Config,
        server_state: ServerState,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
        *,
        book: Connections,
        head_timeout_s: float,
    ) -> None:
        super().__init__(config, server_state, app_state, _loop)
        self._book = book
        self._head_timeout_s = head_timeout_s
        self._head_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        device = device_of(self.client[0]) if self.client else "unknown"
        if not self._book.admit(self, device):
            self.drop()
            return
        self._expect_head()

    def _expect_head(self) -> None:
        self._book.waiting(self)
        if self._head_timer is not None:
            self._head_timer.cancel()
        self._head_timer = self.loop.call_later(self._head_timeout_s, self._head_too_slow)

    def _head_too_slow(self) -> None:
        self._head_timer = None
        self._book.timed_out += 1
        self.drop()

    def drop(self) -> None:
        """Close at once, whatever is buffered either way."""
        if not self.transport.is_closing():
            self.transport.abort()

    def handle_events(self) -> None:
        super().handle_events()
        if self._head_timer is not None and self.conn.their_state is not h11.IDLE:
            self._head_timer.cancel()
            self._head_timer = None
            self._book.busy(self)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if self.transport.is_closing() or self._head_timer is not None:
            return
        if self.conn.their_state is h11.IDLE:  # kept alive: the next request's head has its deadline
            self._expect_head()

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None
        self._book.closed(self)


ProtocolFactory = Callable[..., asyncio.BaseProtocol]


def protocol_factory(book: Connections, limits: Limits, tls: ssl.SSLContext | None) -> ProtocolFactory:
    """What uvicorn's ``Config(http=...)`` builds each connection with: the guarded h11 protocol,
    under TLS with a bounded handshake when ``tls`` is given (then uvicorn is given no ``ssl``)."""

    def build(
        config: Config,
        server_state: ServerState,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
    ) -> asyncio.BaseProtocol:
        inner = GuardedH11Protocol(
            config, server_state, app_state, _loop, book=book, head_timeout_s=limits.head_timeout_s
        )
        if tls is None:
            return inner
        # What loop.create_server(ssl=...) builds itself, with our handshake timeout; no waiter:
        # nobody awaits a server connection's handshake (asyncio allows None).
        return SSLProtocol(
            inner.loop,
            inner,
            tls,
            None,  # type: ignore[arg-type]
            server_side=True,
            ssl_handshake_timeout=limits.head_timeout_s,  # type: ignore[arg-type]
        )

    return build


def open_files_limit(wanted: int) -> int:
    """Raise this process's soft limit of open files towards ``wanted`` (never past the hard
    limit) and return it; on a system without such limits (Windows), ``wanted``."""
    try:
        import resource
    except ImportError:  # Windows: no per-process soft limit to raise
        return wanted
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):
            pass
    return wanted if soft == resource.RLIM_INFINITY else soft


class _Repeats:
    """How often each complaint was held back since it was last written."""

    def __init__(self, monotonic: Callable[[], float]) -> None:
        self._monotonic = monotonic
        self._last: dict[str, float] = {}
        self._held: Counter[str] = Counter()

    def let_through(self, key: str) -> tuple[bool, int]:
        """Whether to write ``key`` now, and how many like it were held back since."""
        now = self._monotonic()
        last = self._last.get(key)
        if last is not None and now - last < REPEAT_S:
            self._held[key] += 1
            return False, 0
        self._last[key] = now
        return True, self._held.pop(key, 0)


def quiet_loop_errors(
    loop: asyncio.AbstractEventLoop,
    write: Callable[[str], None] | None = None,
    monotonic: Callable[[], float] = time.monotonic,
) -> None:
    """The event loop's complaints as one line each, each kind at most once every ``REPEAT_S``."""
    repeats = _Repeats(monotonic)
    out = write if write is not None else (lambda line: print(line, file=sys.stderr, flush=True))

    def handler(_loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        message = str(context.get("message", "event loop error"))
        now, held = repeats.let_through(message)
        if not now:
            return
        exc = context.get("exception")
        more = f" ({held} more like it held back)" if held else ""
        out(f"kiosk director: {message}" + (f": {exc!r}" if exc is not None else "") + more)

    loop.set_exception_handler(handler)


class RepeatFilter(logging.Filter):
    """Lets each message of a logger through at most once every ``REPEAT_S``."""

    def __init__(self, monotonic: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self._repeats = _Repeats(monotonic)

    def filter(self, record: logging.LogRecord) -> bool:
        now, held = self._repeats.let_through(str(record.msg))
        if now and held:
            record.msg = f"{record.msg} ({held} more like it held back)"
        return now
