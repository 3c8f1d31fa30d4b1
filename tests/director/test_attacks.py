"""The director's page under attack, each attack made for real against a real server on 127.0.0.1:
a cross-site form, a foreign Host (DNS rebinding), a text/plain post, huge bodies, slow and many
clients, the PIN-lockout of a station's judges, and a full disk."""

from __future__ import annotations

import json
import socket
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

import pytest

from kiosk.director.limits import Limits
from tests.director.server import (
    PIN,
    Running,
    ask,
    child_director,
    page_form,
    request,
    running_director,
    status,
)

FOREIGN = "http://evil.example"


@pytest.fixture
def director(tmp_path: Path) -> Iterator[Running]:
    with running_director(tmp_path / "station") as running:
        yield running


def pin_post(
    running: Running, pin: str, *, origin: str | None, kind: str = "application/x-www-form-urlencoded",
    form: tuple[str, str] | None = None, host: str | None = None,
) -> bytes:  # fmt: skip
    """The PIN form posted: with the page's own cookie and token (``form``) unless given others."""
    host = f"{running.host}:{running.port}" if host is None else host
    cookie, token = form or page_form(running, host)
    headers = {"Cookie": cookie, "Content-Type": kind}
    if origin is not None:
        headers["Origin"] = origin
    body = f"form={token}&pin={pin}".encode()
    return ask(running, request("POST", "/challenges", host, headers=headers, body=body))


def nothing_counted(running: Running) -> None:
    assert running.door.wrong_last_hour() == 0
    assert running.storage.judge_access.attempts().failures == 0


def test_a_form_posted_from_another_site_is_refused_before_the_door(director: Running) -> None:
    for origin in (
        FOREIGN,
        "null",
        f"http://{director.host}:{director.port + 1}",
        f"https://{director.host}:{director.port}",
    ):
        answer = pin_post(director, "000000", origin=origin)
        assert status(answer) == 403, answer[:300]
        assert b"A form sent from another page" in answer
    no_origin = pin_post(director, "000000", origin=None)  # and no Referer: not this page's form
    assert status(no_origin) == 403
    nothing_counted(director)
    own = pin_post(director, "000000", origin=director.origin)  # the page's own form is heard
    assert status(own) == 403
    assert b"Wrong PIN: 1 wrong PIN in a row from this device." in own
    assert director.door.wrong_last_hour() == 1


def test_a_post_without_this_browsers_form_token_is_refused(director: Running) -> None:
    host = f"{director.host}:{director.port}"
    cookie, _ = page_form(director, host)
    _, other_token = page_form(director, host)  # another browser's token
    for token in ("", "0" * 64, other_token):
        answer = pin_post(director, PIN, origin=director.origin, form=(cookie, token))
        assert status(answer) == 403
        assert b"This form is out of date" in answer
    nothing_counted(director)


@pytest.mark.parametrize(
    "host", ["evil.example", "evil.example:{port}", "127.0.0.2.nip.io:{port}", "127.0.0.1:{other}", "", "a b"]
)
def test_a_foreign_host_is_refused_dns_rebinding(director: Running, host: str) -> None:
    """A page of another site whose name was made to point at 127.0.0.1 sends its own name."""
    named = host.format(port=director.port, other=director.port + 1)
    answer = ask(director, request("GET", "/", named))
    assert status(answer) == 400, answer[:300]
    assert b"Station" not in answer  # no board
    own = page_form(director, f"{director.host}:{director.port}")  # even with a real token
    answer = pin_post(director, PIN, origin=f"http://{named}", host=named, form=own)
    assert status(answer) == 400  # its form is never heard
    nothing_counted(director)


def test_the_page_answers_as_it_is_served(director: Running) -> None:
    for host in (f"127.0.0.1:{director.port}", f"localhost:{director.port}", f"127.0.0.9:{director.port}"):
        answer = ask(director, request("GET", "/", host))
        assert status(answer) == 200, host
        assert b"Referrer-Policy: same-origin" in answer.replace(b"referrer-policy", b"Referrer-Policy")


def test_a_text_plain_post_is_refused_unread(director: Running) -> None:
    """A cross-site "simple" request may be text/plain: it never reaches the door."""
    for kind in ("text/plain", "multipart/form-data; boundary=x", "application/json", ""):
        answer = pin_post(director, "000000", origin=director.origin, kind=kind)
        assert status(answer) == 415, (kind, answer[:300])
    nothing_counted(director)


def test_a_declared_huge_body_is_refused_before_a_byte_of_it_is_read(director: Running) -> None:
    host = f"{director.host}:{director.port}"
    head = request("POST", "/challenges", host, headers={"Origin": director.origin})
    head = head.replace(b"Content-Length: 0", b"Content-Length: 419430400")  # 400 MB, never sent
    with socket.create_connection((director.host, director.port), timeout=30) as sock:
        sock.sendall(head)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk  # the server answers and closes without waiting for the body
    assert status(answer) == 413
    assert b"connection: close" in answer.lower()


def chunked_flood(address: tuple[str, int], host: str, total: int) -> tuple[int, bytes]:
    """POST a chunked body of ``total`` bytes as fast as the server takes it: how much it took
    before it answered and closed, and its answer."""
    block = b"x" * 65536
    chunk = f"{len(block):x}\r\n".encode() + block + b"\r\n"
    head = (
        f"POST /challenges HTTP/1.1\r\nHost: {host}\r\nTransfer-Encoding: chunked\r\n"
        "Content-Type: application/x-www-form-urlencoded\r\n\r\n"
    ).encode()
    sent = 0
    with socket.create_connection(address, timeout=30) as sock:
        sock.sendall(head)
        try:
            while sent < total:
                sock.sendall(chunk)
                sent += len(block)
        except OSError:
            pass  # closed on us: good
        answer = b""
        try:
            while part := sock.recv(65536):
                answer += part
        except OSError:
            pass
    return sent, answer


def test_huge_bodies_are_cut_while_read_and_memory_stays_bounded(tmp_path: Path) -> None:
    """Four 100 MB chunked posts at once: each is refused after 4 KiB, and the director's peak
    memory barely moves (reading them whole took a director to 2.2 GB)."""
    with child_director(tmp_path / "station") as child:
        before = child.rss_peak_kib()
        results: list[tuple[int, bytes]] = []
        address = ("127.0.0.1", child.port)
        host = f"127.0.0.1:{child.port}"
        threads = [
            threading.Thread(target=lambda: results.append(chunked_flood(address, host, 100 << 20)))
            for _ in range(4)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(120)
        peak = child.rss_peak_kib()
        page = ask(address, request("GET", "/", f"127.0.0.1:{child.port}"))
    assert len(results) == 4
    for sent, answer in results:
        assert sent < 100 << 20  # cut before the end
        assert status(answer) in (413, 0)  # 0: the reset came before the answer could be read
    assert any(status(answer) == 413 for _, answer in results)
    assert peak - before < 32 * 1024, f"peak memory grew by {(peak - before) // 1024} MiB"
    assert status(page) == 200


class SlowClients:
    """``count`` connections that each send a request's head one header line every ``every_s``
    (slowloris), from 127.0.0.1; how many of them the server still keeps open."""

    def __init__(self, address: tuple[str, int], host: str, count: int, every_s: float) -> None:
        self.socks: list[socket.socket] = []
        for _ in range(count):
            sock = socket.create_connection(address, timeout=10)
            sock.setblocking(False)
            with suppress(OSError):
                sock.send(f"GET / HTTP/1.1\r\nHost: {host}\r\n".encode())
            self.socks.append(sock)
        self.every_s = every_s
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._drip, daemon=True)
        self.thread.start()

    def _drip(self) -> None:
        n = 0
        while not self.stop.wait(self.every_s):
            n += 1
            for sock in self.socks:
                with suppress(OSError):
                    sock.send(f"X-Drip-{n}: {n}\r\n".encode())

    def still_open(self) -> int:
        alive = 0
        for sock in self.socks:
            try:
                data = sock.recv(1, socket.MSG_PEEK)
            except BlockingIOError:
                alive += 1  # nothing to read and not closed
                continue
            except OSError:
                continue
            if data:
                alive += 1
        return alive

    def close(self) -> None:
        self.stop.set()
        self.thread.join(10)
        for sock in self.socks:
            sock.close()


@contextmanager
def slow_clients(address: tuple[str, int], host: str, count: int, every_s: float) -> Iterator[SlowClients]:
    clients = SlowClients(address, host, count, every_s)
    try:
        yield clients
    finally:
        clients.close()


def timed_page(address: tuple[str, int], host: str) -> tuple[int, float]:
    started = time.monotonic()
    answer = ask(address, request("GET", "/", host), timeout_s=30)
    return status(answer), time.monotonic() - started


def test_slow_clients_are_cut_and_a_normal_page_is_answered_meanwhile(tmp_path: Path) -> None:
    """300 slowloris connections against a bound of 50: the normal page is answered at once, and
    none of the slow ones outlives the head deadline."""
    limits = Limits(connections=50, head_timeout_s=2.0)
    with running_director(tmp_path / "station", limits=limits) as director:
        address, host = (director.host, director.port), f"{director.host}:{director.port}"
        with slow_clients(address, host, 300, every_s=0.5) as slow:
            time.sleep(0.5)
            assert director.book.open <= 50
            code, took_s = timed_page(address, host)
            assert code == 200
            assert took_s < 5
            time.sleep(limits.head_timeout_s + 1.5)
            assert slow.still_open() == 0  # every slow head was cut at its deadline
            assert director.book.timed_out + director.book.evicted >= 250


def test_many_slow_clients_on_few_open_files_write_no_traceback_flood(tmp_path: Path) -> None:
    """``kiosk director`` allowed 256 open files, 600 slowloris connections: it stays reachable
    and its standard error stays a few lines (1,100 of them on 1,024 files once wrote ~208,000
    tracebacks in 50 s and made the page unreachable)."""
    with child_director(tmp_path / "station", open_files=256) as child:
        address, host = ("127.0.0.1", child.port), f"127.0.0.1:{child.port}"
        with slow_clients(address, host, 600, every_s=1.0):
            time.sleep(3)
            code, took_s = timed_page(address, host)
            time.sleep(2)
        errors = child.err.read_text()
    assert code == 200
    assert took_s < 10
    assert "Traceback" not in errors
    assert len(errors.splitlines()) < 10, errors[:3000]


def test_the_pin_lockout_attack_never_keeps_a_stations_judges_out(tmp_path: Path) -> None:
    """A script that plays the page's form properly, wrong PIN after wrong PIN: the page's own door
    backs off; the station's count stays 0 and its judge is let in at once."""
    with child_director(tmp_path / "station") as child:
        address, host = ("127.0.0.1", child.port), f"127.0.0.1:{child.port}"
        origin = f"http://{host}"
        answers = []
        for _ in range(30):
            cookie, token = page_form(address, host)
            headers = {
                "Cookie": cookie,
                "Content-Type": "application/x-www-form-urlencoded",
                "Origin": origin,
            }
            body = f"form={token}&pin=000000".encode()
            answers.append(
                status(ask(address, request("POST", "/challenges", host, headers=headers, body=body)))
            )
        cookie, token = page_form(address, host)
        headers = {"Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded", "Origin": origin}
        right = ask(
            address,
            request("POST", "/challenges", host, headers=headers, body=f"form={token}&pin={PIN}".encode()),
        )
    assert answers[:3] == [403, 403, 403]  # three free, wrong
    assert set(answers[3:]) == {429}  # then "too soon", not even checked
    assert status(right) == 429
    assert b"Too soon: that PIN was not checked. Wait" in right
    assert b"wrong PINs in a row." in right
    from kiosk.storage import open_station_storage

    with open_station_storage(tmp_path / "station") as storage:
        assert storage.judge_access.attempts().failures == 0
        assert storage.judge_access.check_pin(PIN).accepted  # the station's judge, at once


def test_a_full_disk_does_not_open_the_pages_door(tmp_path: Path) -> None:
    """The page's data directory on a full disk: 100 guesses in a row are still backed off, and
    the right PIN after them is not checked (through the page, a full disk once let 100 guesses
    through in 8 s and then the right PIN in)."""
    from tests.test_paths import in_private_tmpfs

    folder = tmp_path / "small-disk"
    child = [sys.executable, "-m", "tests.director.full_disk_child", str(folder), PIN]
    result = in_private_tmpfs(folder, "size=2m", False, *child)
    assert result.returncode == 0, result.stderr
    said = json.loads(result.stdout)
    assert said["filled"] == "No space left on device"
    assert said["wrong"][:3] == [403, 403, 403]
    assert set(said["wrong"][3:]) == {429}
    assert said["right"] == 429
    assert said["station_failures"] == 0
