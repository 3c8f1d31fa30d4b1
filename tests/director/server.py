"""A real director server for the attack tests: uvicorn on 127.0.0.1, in this process or as
``kiosk director`` in a child, and what a client (or an attacker) says to it on a raw socket."""

from __future__ import annotations

import asyncio
import contextlib
import re
import signal
import socket
import ssl
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from kiosk.director.app import director_app
from kiosk.director.connection import Connections
from kiosk.director.door import DirectorDoor, StoredPin
from kiosk.director.gate import Served
from kiosk.director.limits import Limits
from kiosk.director.pages import Pages
from kiosk.director.serve import director_server, listen
from kiosk.director.tls import Certificate
from kiosk.director.watch import Watcher
from kiosk.storage import StationStorage, open_station_storage
from kiosk.storage.database import sqlite_url
from kiosk.storage.hall import HallControls
from kiosk.storage.overview import LogReader
from tests.storage.postgres import free_port

__all__ = [
    "MANY_ADDRESSES",
    "PIN",
    "Child",
    "Running",
    "Slowloris",
    "ask",
    "child_director",
    "page_form",
    "running_director",
    "stop",
]

PIN = "482613"
DRIP_S = 5.0  # a slow client sends one header line this often
MANY_ADDRESSES = 50  # loopback addresses a slow crowd comes from, as many machines on a venue network
KIOSK = Path(sys.executable).parent / "kiosk"
START_S = 60.0
FORM_TOKEN = re.compile(rb'name="form" value="([0-9a-f]+)"')
FORM_COOKIE = re.compile(rb"set-cookie: ((?:__Host-)?kiosk_form=[^;]+)", re.IGNORECASE)


@dataclass
class Running:
    host: str
    port: int
    book: Connections
    door: DirectorDoor
    storage: StationStorage
    tls: ssl.SSLContext | None = None  # a client context that trusts the server's certificate

    @property
    def origin(self) -> str:
        return f"{'https' if self.tls else 'http'}://{self.host}:{self.port}"


@contextmanager
def running_director(
    data: Path, *, limits: Limits | None = None, certificate: Certificate | None = None
) -> Iterator[Running]:
    """The director's real server (the guarded protocol, the gate, the door) over a station's
    storage in ``data`` with the judge PIN set, on 127.0.0.1, in a thread of this process."""
    limits = limits or Limits()
    with open_station_storage(data) as storage:
        storage.judge_access.set_pin(PIN)
        url = sqlite_url(storage.local_path)
        watcher, recent = Watcher(LogReader(url)), LogReader(url)
        watcher.read_once()
        watcher.start()
        sock = listen("127.0.0.1", 0)
        port = sock.getsockname()[1]
        served = Served.of("127.0.0.1", port, https=certificate is not None)
        door = DirectorDoor(StoredPin(storage.local_path, "kiosk set-pin"), journal=lambda line: None)
        controls = HallControls(url)
        app = director_app(
            watcher,
            Pages(url, shared=False),
            door,
            recent,
            lock_s=60,
            served=served,
            limits=limits,
            push_check_s=0.1,
            controls=controls,
        )
        server, book = director_server(app, limits, certificate)
        thread = threading.Thread(target=lambda: asyncio.run(server.serve(sockets=[sock])), daemon=True)
        thread.start()
        deadline = time.monotonic() + START_S
        while not server.started:
            assert thread.is_alive(), "the server stopped before it started"
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.01)
        client_tls = None
        if certificate is not None:
            client_tls = ssl.create_default_context(cafile=str(certificate.certificate))
        try:
            yield Running("127.0.0.1", port, book, door, storage, client_tls)
        finally:
            server.should_exit = True
            thread.join(30)
            sock.close()
            watcher.close()
            recent.close()
            controls.close()


def _connect(running: Running | tuple[str, int], timeout_s: float, source: str | None) -> socket.socket:
    host, port = (running.host, running.port) if isinstance(running, Running) else running
    sock = socket.create_connection(
        (host, port), timeout=timeout_s, source_address=(source, 0) if source else None
    )
    if isinstance(running, Running) and running.tls is not None:
        return running.tls.wrap_socket(sock, server_hostname=host)
    return sock


def ask(
    running: Running | tuple[str, int],
    request: bytes,
    *,
    timeout_s: float = 30.0,
    source: str | None = None,
) -> bytes:
    """Send ``request`` whole on a new connection and read the answer until the server closes it
    (or it is complete, with Content-Length); b"" when the server closed without a word."""
    with _connect(running, timeout_s, source) as sock:
        with contextlib.suppress(OSError):  # closed on us mid-send: read whatever it said first
            sock.sendall(request)
        answer = b""
        while True:
            try:
                chunk = sock.recv(65536)
            except (ConnectionResetError, ssl.SSLError):
                break
            if not chunk:
                break
            answer += chunk
            head, _, body = answer.partition(b"\r\n\r\n")
            length = re.search(rb"content-length: (\d+)", head, re.IGNORECASE)
            if length and len(body) >= int(length.group(1)):
                break
        return answer


def request(
    method: str, path: str, host: str, *, headers: dict[str, str] | None = None, body: bytes = b""
) -> bytes:
    lines = [f"{method} {path} HTTP/1.1", f"Host: {host}"]
    lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
    if body or method == "POST":
        lines.append(f"Content-Length: {len(body)}")
    lines.append("Connection: close")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body


def page_form(running: Running | tuple[str, int], host: str) -> tuple[str, str]:
    """A browser's first visit to the PIN page: its form cookie and the page's form token."""
    answer = ask(running, request("GET", "/challenges", host))
    cookie, token = FORM_COOKIE.search(answer), FORM_TOKEN.search(answer)
    assert cookie is not None, answer[:2000]
    assert token is not None, answer[:2000]
    return cookie.group(1).decode(), token.group(1).decode()


def status(answer: bytes) -> int:
    match = re.match(rb"HTTP/1\.1 (\d{3}) ", answer)
    return int(match.group(1)) if match else 0


@dataclass
class Child:
    process: subprocess.Popen[bytes]
    port: int
    out: Path
    err: Path

    def rss_peak_kib(self) -> int:
        """The most memory the child has had resident (VmHWM)."""
        text = Path(f"/proc/{self.process.pid}/status").read_text()
        match = re.search(r"VmHWM:\s+(\d+) kB", text)
        assert match is not None
        return int(match.group(1))


@contextmanager
def child_director(
    data: Path, *, open_files: int | None = None, extra: tuple[str, ...] = ()
) -> Iterator[Child]:
    """``kiosk director`` on a station's data directory (PIN set), as a process of its own on
    127.0.0.1; ``open_files``: its open-files limit, soft and hard (it cannot raise it)."""
    with open_station_storage(data) as storage:
        storage.judge_access.set_pin(PIN)
    port = free_port()
    out, err = data.parent / "director.out", data.parent / "director.err"

    command = [str(KIOSK), "director", "--data-dir", str(data), "--port", str(port), *extra]
    if open_files is not None:  # soft and hard: the director cannot raise it
        command = ["sh", "-c", f'ulimit -n {open_files} && exec "$@"', "sh", *command]
    with out.open("wb") as stdout, err.open("wb") as stderr:
        process = subprocess.Popen(command, stdout=stdout, stderr=stderr)
    child = Child(process, port, out, err)
    try:
        deadline = time.monotonic() + START_S
        while True:
            assert process.poll() is None, err.read_text()
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline, err.read_text()
                time.sleep(0.1)
        yield child
    finally:
        stop(process, signal.SIGINT)


def stop(process: subprocess.Popen[bytes], how: signal.Signals) -> None:
    """Stop a process of ours with ``how`` (Ctrl+C's SIGINT, or SIGTERM), then SIGKILL after 30 s."""
    if process.poll() is None:
        process.send_signal(how)
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


class Slowloris:
    """``count`` connections dripping a request's head, reconnected when closed."""

    def __init__(self, port: int, count: int, sources: list[str]) -> None:
        self.port, self.sources = port, sources
        self.socks: list[socket.socket | None] = [None] * count
        self.reconnects = 0
        self.connect_failures = 0
        self._stop = threading.Event()
        for index in range(count):
            self._open(index)
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _open(self, index: int) -> None:
        source = self.sources[index % len(self.sources)]
        try:
            sock = socket.create_connection(("127.0.0.1", self.port), timeout=5, source_address=(source, 0))
            sock.setblocking(False)
            sock.send(f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n".encode())
        except OSError:
            self.connect_failures += 1
            self.socks[index] = None
            return
        self.socks[index] = sock

    def _run(self) -> None:
        line = 0
        while not self._stop.wait(DRIP_S):
            line += 1
            for index, sock in enumerate(self.socks):
                if self._stop.is_set():
                    return
                alive = False
                if sock is not None:
                    try:
                        sock.send(f"X-Slow-{line}: {line}\r\n".encode())
                        alive = True
                    except OSError:
                        sock.close()
                if not alive:
                    self.reconnects += 1
                    self._open(index)

    def alive(self) -> int:
        count = 0
        for sock in self.socks:
            if sock is None:
                continue
            try:
                data = sock.recv(1, socket.MSG_PEEK)
            except BlockingIOError:
                count += 1
                continue
            except OSError:
                continue
            count += bool(data)
        return count

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(60)
        for sock in self.socks:
            if sock is not None:
                sock.close()
