"""A TCP proxy on 127.0.0.1 in front of the test PostgreSQL server, which can turn into a blackhole.

Relaying, it passes bytes both ways. Blackholed, it is a server that stopped answering: new
connections are accepted and whatever they send is read and counted, but nothing ever comes back,
and connections that were relaying freeze (the client's data is acknowledged by the kernel and
never answered: no TCP timeout fires, like a stuck server process). Turning relaying back on ends
every blackholed or frozen connection, as a returning server's host would.
"""

from __future__ import annotations

import contextlib
import select
import socket
import threading
from types import TracebackType

ACCEPT_POLL_S = 0.05
RELAY_POLL_S = 0.05
RELAY_CHUNK_BYTES = 65536


class LoopbackProxy:
    def __init__(self, upstream_port: int, *, relaying: bool) -> None:
        self.upstream_port = upstream_port
        self._listener = socket.create_server(("127.0.0.1", 0))
        self._listener.settimeout(ACCEPT_POLL_S)
        self.port = int(self._listener.getsockname()[1])
        self._lock = threading.Lock()
        self._relaying = relaying
        self._generation = 0  # bumped on every switch: relays of an older generation freeze
        self._sockets: list[socket.socket] = []
        self._stopped = threading.Event()
        self.accepted = 0  # connections accepted while blackholed
        self.swallowed_bytes = 0  # bytes read (and never answered) while blackholed
        self._thread = threading.Thread(target=self._accept_loop, name="test-proxy", daemon=True)
        self._thread.start()

    def url(self, database_url: str) -> str:
        """The same database URL, through this proxy."""
        return database_url.replace(f":{self.upstream_port}/", f":{self.port}/")

    def blackhole(self) -> None:
        with self._lock:
            self._relaying = False
            self._generation += 1

    def relay(self) -> None:
        with self._lock:
            self._relaying = True
            self._generation += 1
            ending, self._sockets = self._sockets, []
        for sock in ending:
            _shut(sock)

    def _accept_loop(self) -> None:
        while not self._stopped.is_set():
            try:
                client, _ = self._listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            client.settimeout(None)
            with self._lock:
                self._sockets.append(client)
                relaying, generation = self._relaying, self._generation
                if not relaying:
                    self.accepted += 1
            target = self._relay if relaying else self._swallow
            threading.Thread(target=target, args=(client, generation), daemon=True).start()

    def _swallow(self, client: socket.socket, _generation: int) -> None:
        while True:
            try:
                data = client.recv(RELAY_CHUNK_BYTES)
            except OSError:
                return
            if not data:
                return
            with self._lock:
                self.swallowed_bytes += len(data)

    def _relay(self, client: socket.socket, generation: int) -> None:
        try:
            upstream = socket.create_connection(("127.0.0.1", self.upstream_port))
        except OSError:
            _shut(client)
            return
        with self._lock:
            self._sockets.append(upstream)
        peers = {client: upstream, upstream: client}
        while self._generation == generation:
            try:
                readable, _, _ = select.select(list(peers), [], [], RELAY_POLL_S)
                for sock in readable:
                    data = sock.recv(RELAY_CHUNK_BYTES)
                    if not data:
                        raise ConnectionAbortedError
                    peers[sock].sendall(data)
            except (OSError, ValueError):
                _shut(client)
                _shut(upstream)
                return
        # Blackholed: stop relaying, keep both ends open until relay() (or close()) ends them.

    def close(self) -> None:
        self._stopped.set()
        self._thread.join()
        self._listener.close()
        with self._lock:
            ending, self._sockets = self._sockets, []
        for sock in ending:
            _shut(sock)

    def __enter__(self) -> LoopbackProxy:
        return self

    def __exit__(
        self, _type: type[BaseException] | None, _exc: BaseException | None, _tb: TracebackType | None
    ) -> None:
        self.close()


def _shut(sock: socket.socket) -> None:
    """End a connection, waking any thread blocked reading it (close alone does not)."""
    with contextlib.suppress(OSError):  # already ended by the other side
        sock.shutdown(socket.SHUT_RDWR)
    sock.close()
