"""The director's hall at event size: 100 stations and 30,000 challenges of the day on a shared
PostgreSQL log. What a page costs, and how soon a change reaches 20 open pages: pushed (server-sent
events, what the page does) or polled (each page asking every second, the alternative), with and
without 3,000 slow clients holding the connection bound.

Starts a throwaway PostgreSQL server on loopback (Debian's binaries, as the tests do), fills the
log with SQL (100 station reports, kept alive by a thread that reports every 5 s as stations do,
and ``--challenges`` challenges over the last two hours with their words), and runs ``kiosk
director`` as a process of its own on it. Then prints:

- the board's read (``LogReader.board``, what the director does every second), in this process;
- ``GET /`` (the board), ``GET /hall``, the judges' page (the day's newest 100, and round and
  table), and the whole day as CSV: median and worst over new connections, and their size;
- push: ``--pages`` streams open on ``/events``; a challenge is added (``--trials`` times) and the
  time until each page has the new count is measured;
- poll: ``--pages`` clients each asking ``GET /`` every second on a kept-alive connection, the
  same measure (and how many of their requests failed);
- both again with ``--slow`` slow clients (a header line every 5 s, from 50 addresses) against the
  connection bound.

Prints figures; asserts nothing. Run from the repository root:

    .venv/bin/python -m bench.bench_hall [--challenges 30000] [--pages 20] [--trials 5] [--slow 3000]
"""

from __future__ import annotations

import argparse
import contextlib
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlalchemy import text

from kiosk.storage.database import open_engine
from kiosk.storage.migrations import upgrade
from kiosk.storage.overview import LogReader
from tests.director.server import MANY_ADDRESSES, Slowloris
from tests.storage.postgres import PostgresServer, find_postgres_bin, free_port

PIN = "482613"
STATIONS = 100
DIVISIONS = ("Open", "Premier", "Intermediate", "Schools", "Seniors")
KIOSK = str(Path(sys.executable).parent / "kiosk")
COUNT = re.compile(rb"([0-9][0-9,]*) challenges today")
FORM_TOKEN = re.compile(rb'name="form" value="([0-9a-f]+)"')
FORM_COOKIE = re.compile(rb"set-cookie: (kiosk_form=[^;]+)", re.IGNORECASE)
JUDGE_COOKIE = re.compile(rb"set-cookie: (kiosk_judge=[^;]+)", re.IGNORECASE)
WAIT_S = 30.0
POLL_EVERY_S = 1.0
CHALLENGE_COLUMNS = (
    "id, judged_at, station, division, rule_profile, pack_name, pack_edition, set_hash, youth_rules, "
    "word_count, verdict, table_number, edition_checked, round_number, received_at"
)


def fill(url: str, challenges: int) -> None:
    engine = open_engine(url)
    upgrade(engine)
    with engine.begin() as conn:
        conn.execute(
            text(
                "INSERT INTO station_heartbeat (station_id, station, host, state, reason, packs, "
                "rule_profile, ask_table, backlog, version, reported_at, seen_at, round_number) "
                "SELECT gen_random_uuid(), "
                "'Station ' || n, 'kiosk-' || n, 'ready', '', :packs, 'double', true, 0, '1.0', "
                "timezone('UTC', now()), timezone('UTC', now()), 5 FROM generate_series(1, :stations) n"
            ),
            {"stations": STATIONS, "packs": '[["Open", "CSW", "24", true, "sha256:aa", false]]'},
        )
        conn.execute(
            text(
                f"INSERT INTO challenge ({CHALLENGE_COLUMNS}) "
                "SELECT md5('c' || n)::uuid, timezone('UTC', now()) - n * interval '0.2 s', "
                "'Station ' || (n % :stations + 1), (CAST(:divisions AS text[]))[n % 5 + 1], "
                "'double', 'CSW', '24', 'sha256:aa', "
                "false, 2, CASE WHEN n % 3 = 0 THEN 'UNACCEPTABLE' ELSE 'ACCEPTABLE' END, n % 60 + 1, true, "
                "8 - n / (:n / 8 + 1), timezone('UTC', now()) - n * interval '0.2 s' "
                "FROM generate_series(1, :n) n"
            ),
            {"n": challenges, "stations": STATIONS, "divisions": list(DIVISIONS)},
        )
        conn.execute(
            text(
                "INSERT INTO challenge_word SELECT md5('c' || n)::uuid, w, "
                "CASE w WHEN 0 THEN 'QI' ELSE 'ZA' || n END, 'ACCEPTABLE' "
                "FROM generate_series(1, :n) n, generate_series(0, 1) w"
            ),
            {"n": challenges},
        )
        conn.execute(
            text("INSERT INTO event_round (round_number, set_at) VALUES (8, timezone('UTC', now()))")
        )
    engine.dispose()


class Alive:
    """The 100 stations reporting every 5 s, as stations do (their pages do not change for it)."""

    def __init__(self, url: str) -> None:
        self._engine = open_engine(url)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(5.0):
            with self._engine.begin() as conn:
                conn.execute(text("UPDATE station_heartbeat SET seen_at = timezone('UTC', now())"))

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(10)
        self._engine.dispose()


def add_challenge(url: str, number: int) -> None:
    engine = open_engine(url)
    with engine.begin() as conn:
        conn.execute(
            text(
                f"INSERT INTO challenge ({CHALLENGE_COLUMNS}) VALUES (md5('new' || :n)::uuid, "
                "timezone('UTC', now()), 'Station 1', 'Open', 'double', 'CSW', '24', 'sha256:aa', false, 1, "
                "'ACCEPTABLE', 1, true, 8, timezone('UTC', now()))"
            ),
            {"n": number},
        )
        conn.execute(
            text("INSERT INTO challenge_word VALUES (md5('new' || :n)::uuid, 0, 'QI', 'ACCEPTABLE')"),
            {"n": number},
        )
    engine.dispose()


def ask(port: int, request: bytes, timeout_s: float = 30.0) -> bytes:
    """A request on a new connection; the whole answer (read until the server closes it)."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout_s) as sock:
        sock.sendall(request)
        answer = b""
        while chunk := sock.recv(1 << 16):
            answer += chunk
        return answer


def get(path: str, port: int, cookies: str = "") -> bytes:
    cookie = f"Cookie: {cookies}\r\n" if cookies else ""
    return f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n{cookie}Connection: close\r\n\r\n".encode()


def timed(port: int, path: str, cookies: str = "", rounds: int = 20) -> str:
    samples, size = [], 0
    for _ in range(rounds):
        start = time.perf_counter()
        answer = ask(port, get(path, port, cookies))
        samples.append((time.perf_counter() - start) * 1000)
        size = len(answer)
        assert answer.startswith(b"HTTP/1.1 200"), answer[:300]
    return (
        f"median {statistics.median(samples):7.1f} ms, worst {max(samples):7.1f} ms, "
        f"{size / 1024:,.0f} KiB ({rounds} requests)"
    )


def unlock(port: int) -> str:
    """The judges' cookies, as a browser gets them by typing the PIN."""
    page = ask(port, get("/challenges", port))
    form = FORM_COOKIE.search(page)
    token = FORM_TOKEN.search(page)
    assert form, page[:500]
    assert token, page[:500]
    body = f"pin={PIN}&form={token.group(1).decode()}".encode()
    answer = ask(
        port,
        f"POST /challenges HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nOrigin: http://127.0.0.1:{port}\r\n"
        f"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {len(body)}\r\n"
        f"Cookie: {form.group(1).decode()}\r\nConnection: close\r\n\r\n".encode()
        + body,
    )
    judge = JUDGE_COOKIE.search(answer)
    assert judge, answer[:500]
    return f"{form.group(1).decode()}; {judge.group(1).decode()}"


class Watching:
    """``pages`` open pages, pushed to (``push``) or polling ``GET /`` every second; each notes when
    it first saw a count of challenges."""

    def __init__(self, port: int, pages: int, *, push: bool) -> None:
        self.port = port
        self.seen: list[dict[int, float]] = [{} for _ in range(pages)]
        self.failures = 0
        self._stop = threading.Event()
        self._threads = [
            threading.Thread(target=self._push if push else self._poll, args=(index,), daemon=True)
            for index in range(pages)
        ]
        for thread in self._threads:
            thread.start()

    def _note(self, index: int, data: bytes) -> None:
        now = time.monotonic()
        for match in COUNT.finditer(data):
            self.seen[index].setdefault(int(match.group(1).replace(b",", b"")), now)

    def _push(self, index: int) -> None:
        while not self._stop.is_set():
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=60) as sock:
                    sock.sendall(get("/events?view=board", self.port).replace(b"Connection: close\r\n", b""))
                    tail = b""
                    while not self._stop.is_set():
                        chunk = sock.recv(1 << 16)
                        if not chunk:
                            break
                        self._note(index, tail + chunk)
                        tail = chunk[-64:]
            except OSError:
                self.failures += 1
                time.sleep(0.2)

    def _poll(self, index: int) -> None:
        sock: socket.socket | None = None
        while not self._stop.wait(POLL_EVERY_S):
            try:
                if sock is None:
                    sock = socket.create_connection(("127.0.0.1", self.port), timeout=10)
                sock.sendall(f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n\r\n".encode())
                answer = b""
                while b"</html>" not in answer:
                    chunk = sock.recv(1 << 16)
                    if not chunk:
                        raise OSError("closed")
                    answer += chunk
                self._note(index, answer)
            except OSError:
                self.failures += 1
                if sock is not None:
                    sock.close()
                sock = None
        if sock is not None:
            sock.close()

    def until_all_see(self, count: int, since: float) -> list[float]:
        deadline = time.monotonic() + WAIT_S
        while time.monotonic() < deadline:
            if all(count in seen for seen in self.seen):
                break
            time.sleep(0.01)
        return [seen[count] - since if count in seen else float("inf") for seen in self.seen]

    def stop(self) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(2)


def latency(url: str, port: int, pages: int, trials: int, *, push: bool, base: list[int]) -> str:
    watching = Watching(port, pages, push=push)
    try:
        time.sleep(3.0)  # every page open and up to date
        delays: list[float] = []
        for _ in range(trials):
            base[0] += 1
            started = time.monotonic()
            add_challenge(url, base[0])
            delays += watching.until_all_see(base[1] + base[0], started)
            time.sleep(1.5)
    finally:
        watching.stop()
    lost = sum(1 for delay in delays if delay == float("inf"))
    shown = sorted(delay for delay in delays if delay != float("inf"))
    worst = f"{shown[-1]:.2f}" if shown else "-"
    median = f"{statistics.median(shown):.2f}" if shown else "-"
    return (
        f"{pages} pages x {trials} changes: median {median} s, worst {worst} s, "
        f"{lost} never within {WAIT_S:.0f} s, {watching.failures} failed connections or requests"
    )


@contextlib.contextmanager
def director(url: str, folder: Path) -> Iterator[int]:
    data = folder / "director"
    subprocess.run(
        [KIOSK, "set-pin", "--stdin", "--data-dir", str(data)], input=f"{PIN}\n", text=True, check=True,
        capture_output=True,
    )  # fmt: skip
    port = free_port()
    err = folder / "director.err"
    with err.open("wb") as out:
        process = subprocess.Popen(
            [KIOSK, "director", "--database-url", url, "--data-dir", str(data), "--port", str(port)],
            stdout=subprocess.DEVNULL,
            stderr=out,
        )
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                if b"Station 100" in ask(port, get("/", port), 10):
                    break
            except OSError:
                pass
            assert process.poll() is None, err.read_text()
            assert time.monotonic() < deadline, err.read_text()
            time.sleep(0.5)
        yield port
    finally:
        process.terminate()
        process.wait(30)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--challenges", type=int, default=30_000)
    parser.add_argument("--pages", type=int, default=20)
    parser.add_argument("--trials", type=int, default=5)
    parser.add_argument("--slow", type=int, default=3000)
    args = parser.parse_args()
    server = PostgresServer(find_postgres_bin())
    server.init()
    server.start()
    alive = None
    try:
        url = server.create_database("hall")
        started = time.perf_counter()
        fill(url, args.challenges)
        filled_s = time.perf_counter() - started
        print(f"log filled: {STATIONS} stations, {args.challenges:,} challenges in {filled_s:.1f} s")
        alive = Alive(url)
        reader = LogReader(url)
        midnight = datetime.now(UTC) - timedelta(hours=12)  # "today", as the director's watch says it
        counts: list[float] = []
        reads: list[float] = []
        for number in range(10):
            if number % 2 == 0:
                add_challenge(url, -number - 1)  # a new challenge: everything counted again
            start = time.perf_counter()
            reader.board(midnight, datetime.now(UTC) - timedelta(hours=1))
            (counts if number % 2 == 0 else reads).append((time.perf_counter() - start) * 1000)
        reader.close()
        print(
            f"board read after a new challenge: median {statistics.median(counts):.1f} ms, worst "
            f"{max(counts):.1f} ms; with none new (most seconds): median {statistics.median(reads):.1f} ms"
        )
        with tempfile.TemporaryDirectory() as folder, director(url, Path(folder)) as port:
            print(f"GET /                         {timed(port, '/')}")
            print(f"GET /hall                     {timed(port, '/hall')}")
            judges = unlock(port)
            print(f"judges' page, the day         {timed(port, '/challenges', judges)}")
            print(f"judges' page, round 5 table 12 {timed(port, '/challenges?round=5&table=12', judges)}")
            print(f"the day as CSV                {timed(port, '/challenges.csv', judges, rounds=3)}")
            base = [0, args.challenges + 5]  # the five the board's read above added
            pages, trials = args.pages, args.trials
            print(f"push (server-sent events)     {latency(url, port, pages, trials, push=True, base=base)}")
            print(f"poll (GET / every second)     {latency(url, port, pages, trials, push=False, base=base)}")
            sources = [f"127.0.0.{n}" for n in range(2, 2 + MANY_ADDRESSES)]
            if not args.slow:
                return
            slow = Slowloris(port, args.slow, sources)
            try:
                time.sleep(6.0)
                print(f"with {args.slow} slow clients ({slow.alive()} held open):")
                pushed = latency(url, port, pages, trials, push=True, base=base)
                print(f"  push                        {pushed}")
                polled = latency(url, port, pages, trials, push=False, base=base)
                print(f"  poll                        {polled}")
                print(f"  GET /                       {timed(port, '/', rounds=10)}")
            finally:
                slow.stop()
    finally:
        if alive is not None:
            alive.stop()
        server.destroy()


if __name__ == "__main__":
    main()
