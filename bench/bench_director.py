"""The director's page under load: 3,000 slow clients, then 400 MB of bodies, and a normal page.

Starts ``kiosk director`` (a process of its own, as on a director's laptop) on a station's data
directory in a temporary folder, on 127.0.0.1, and prints, for each phase: the director's memory
(resident now and its peak), its open file descriptors, what it wrote to standard error, and the
latency of a normal page (``GET /`` on a new connection, once a second: median, worst, and how
many got no answer within 10 s).

- **slow, one address**: ``--slow`` connections from 127.0.0.1 sending a request's head one
  header line every 5 s (slowloris), each reconnected at once when the director closes it;
- **slow, many addresses**: the same from 50 loopback addresses (127.0.0.2 to 127.0.0.51), as many
  machines on a venue network would;
- **bodies**: ``--bodies`` posts of ``--body-mb`` MB each at once (chunked, and with a declared
  Content-Length), 400 MB in all by default, each sent as fast as the director takes it.

Prints figures; asserts nothing. ``--kiosk`` runs another ``kiosk`` program (an older version, to
compare); ``--open-files 1024`` gives the director a common default limit it cannot raise. Run
from the repository root:

    .venv/bin/python -m bench.bench_director [--slow 3000] [--seconds 30] [--open-files N] [--kiosk PATH]
"""

from __future__ import annotations

import argparse
import contextlib
import re
import resource
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from kiosk.storage import open_station_storage
from tests.director.server import MANY_ADDRESSES, Slowloris
from tests.storage.postgres import free_port

PROBE_EVERY_S = 1.0
PROBE_TIMEOUT_S = 10.0


class Director:
    def __init__(self, kiosk: str, folder: Path, open_files: int | None) -> None:
        data = folder / "station"
        with open_station_storage(data) as storage:
            storage.judge_access.set_pin("482613")
        self.port = free_port()
        self.err = folder / "director.err"
        with self.err.open("wb") as err:
            command = [kiosk, "director", "--data-dir", str(data), "--port", str(self.port)]
            if open_files is not None:  # soft and hard: the director cannot raise it
                command = ["sh", "-c", f'ulimit -n {open_files} && exec "$@"', "sh", *command]
            self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=err)
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                if time.monotonic() > deadline or self.process.poll() is not None:
                    raise SystemExit(f"the director did not start: {self.err.read_text()}") from None
                time.sleep(0.1)

    def status(self) -> tuple[int, int, int]:
        """Resident and peak memory (MiB), open file descriptors."""
        text = Path(f"/proc/{self.process.pid}/status").read_text()
        rss = int(re.search(r"VmRSS:\s+(\d+)", text).group(1)) // 1024  # type: ignore[union-attr]
        peak = int(re.search(r"VmHWM:\s+(\d+)", text).group(1)) // 1024  # type: ignore[union-attr]
        try:
            fds = len(list(Path(f"/proc/{self.process.pid}/fd").iterdir()))
        except OSError:
            fds = -1
        return rss, peak, fds

    def open_files_allowed(self) -> str:
        for line in Path(f"/proc/{self.process.pid}/limits").read_text().splitlines():
            if line.startswith("Max open files"):
                return line.split()[3]  # the soft limit, as the director set it for itself
        return "?"

    def stderr_lines(self) -> int:
        return len(self.err.read_bytes().splitlines())

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def get_page(port: int) -> float | None:
    """Seconds for GET / on a new connection, None without a 200 within PROBE_TIMEOUT_S."""
    started = time.monotonic()
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=PROBE_TIMEOUT_S) as sock:
            sock.sendall(f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode())
            answer = b""
            while chunk := sock.recv(65536):
                answer += chunk
    except OSError:
        return None
    return time.monotonic() - started if answer.startswith(b"HTTP/1.1 200") else None


class Probe:
    """A normal page, once a second, until stopped."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.times: list[float] = []
        self.failed = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(PROBE_EVERY_S):
            took = get_page(self.port)
            if took is None:
                self.failed += 1
            else:
                self.times.append(took)

    def stop(self) -> str:
        self._stop.set()
        self._thread.join(PROBE_TIMEOUT_S + 5)
        if not self.times:
            return f"normal page: no answer ({self.failed} tries)"
        median_ms, worst_ms = statistics.median(self.times) * 1000, max(self.times) * 1000
        return (
            f"normal page: {len(self.times)} answered, median {median_ms:.0f} ms, worst {worst_ms:.0f} ms, "
            f"{self.failed} without an answer in {PROBE_TIMEOUT_S:.0f} s"
        )


def body_flood(port: int, megabytes: int, *, chunked: bool, into: list[str]) -> None:
    """POST a body of ``megabytes`` as fast as the director takes it; what happened, into ``into``."""
    block = b"x" * 65536
    total = megabytes << 20
    framing = "Transfer-Encoding: chunked" if chunked else f"Content-Length: {total}"
    head = (
        f"POST /challenges HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n{framing}\r\n"
        "Content-Type: application/x-www-form-urlencoded\r\n\r\n"
    ).encode()
    piece = (f"{len(block):x}\r\n".encode() + block + b"\r\n") if chunked else block
    sent = 0
    started = time.monotonic()
    answer = b""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=60) as sock:
            sock.sendall(head)
            with contextlib.suppress(OSError):
                while sent < total:
                    sock.sendall(piece)
                    sent += len(block)
            with contextlib.suppress(OSError):
                while chunk := sock.recv(65536):
                    answer += chunk
    except OSError as exc:
        into.append(f"connect failed: {exc}")
        return
    took = time.monotonic() - started
    code = answer[9:12].decode() if answer.startswith(b"HTTP/1.1 ") else "none"
    kind = "chunked" if chunked else "declared"
    into.append(f"{kind}: answer {code} after {sent / (1 << 20):.1f} MB sent, {took:.2f} s")


def report(director: Director, label: str, before_lines: int) -> None:
    rss, peak, fds = director.status()
    written = director.err.read_bytes().splitlines()[before_lines:]
    print(
        f"  director: {rss} MiB resident, peak {peak} MiB, {fds} open files; {len(written)} lines on stderr"
    )
    for line in sorted(set(written), key=written.index)[:3]:
        print(f"    stderr: {line.decode(errors='replace')[:150]}")


def slow_phase(director: Director, count: int, seconds: float, sources: list[str], label: str) -> None:
    print(f"{label}: {count} slow clients from {len(sources)} address(es), {seconds:.0f} s")
    lines = director.stderr_lines()
    probe = Probe(director.port)
    started = time.monotonic()
    attack = Slowloris(director.port, count, sources)
    print(f"  {count} connected in {time.monotonic() - started:.1f} s ({attack.connect_failures} refused)")
    time.sleep(seconds)
    alive = attack.alive()
    attack.stop()
    print(f"  {probe.stop()}")
    print(
        f"  slow connections still open at the end: {alive} of {count}; "
        f"{attack.reconnects} reconnects after the director closed them"
    )
    report(director, label, lines)


def body_phase(director: Director, bodies: int, megabytes: int) -> None:
    print(f"bodies: {bodies} posts of {megabytes} MB at once ({bodies * megabytes} MB), half chunked")
    lines = director.stderr_lines()
    probe = Probe(director.port)
    said: list[str] = []
    threads = [
        threading.Thread(
            target=body_flood, args=(director.port, megabytes), kwargs={"chunked": n % 2 == 0, "into": said}
        )
        for n in range(bodies)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(600)
    time.sleep(2)
    for line in sorted(said):
        print(f"  {line}")
    print(f"  {probe.stop()}")
    report(director, "bodies", lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--slow", type=int, default=3000, help="slow clients (default 3000)")
    parser.add_argument("--seconds", type=float, default=30.0, help="each slow phase's length (default 30)")
    parser.add_argument("--bodies", type=int, default=4, help="posts at once (default 4)")
    parser.add_argument("--body-mb", type=int, default=100, help="each post's body, MB (default 100)")
    parser.add_argument("--kiosk", default=str(Path(sys.executable).parent / "kiosk"), help="the program")
    parser.add_argument("--open-files", type=int, help="the director's open-files limit (default: as given)")
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = min(hard, args.slow * 2 + 256)
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    folder = Path(tempfile.mkdtemp(prefix="bench-director-"))
    director = Director(args.kiosk, folder, args.open_files)
    try:
        rss, _, fds = director.status()
        idle = [get_page(director.port) for _ in range(20)]
        answered = [t for t in idle if t is not None]
        print(f"program: {args.kiosk}; open files allowed: {director.open_files_allowed()}")
        print(f"idle: {rss} MiB resident, {fds} open files; normal page median "
              f"{statistics.median(answered) * 1000:.1f} ms over {len(answered)}")  # fmt: skip
        slow_phase(director, args.slow, args.seconds, ["127.0.0.1"], "slow, one address")
        many = [f"127.0.0.{n}" for n in range(2, 2 + MANY_ADDRESSES)]
        slow_phase(director, args.slow, args.seconds, many, "slow, many addresses")
        body_phase(director, args.bodies, args.body_mb)
        print(f"the director is {'still running' if director.process.poll() is None else 'gone'}")
    finally:
        director.stop()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
