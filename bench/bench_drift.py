"""A three-day event without drift (issue 21): one station judging 20,000 challenges, and the director
over a shared log of 100 stations and 30,000 challenges.

    QT_QPA_PLATFORM=offscreen .venv/bin/python bench/bench_drift.py [--list FILE] [--challenges N]
        [--no-station] [--no-director] [--database-url postgresql+psycopg://...]

The station: a pack built by the real builder from ``--list`` (an organiser's list; default the
shipped ``data/enable1.txt``), the real window at 1920x1080 and its controller over real storage
(SQLite, WAL, synchronous=FULL, a judge PIN set), its heartbeat report running; every challenge
typed as players type it, one key event per character (the count, the words in lower case, a
space between them: 1 to 8 words, a phony in about one play in three), Tab, and the verdict
cleared by the next player's key once the lock-out is over. Printed: Tab -> verdict painted
(the ruling, the log's commit and a synchronous repaint of the whole window: median, p99, worst)
for the whole run and for its first and last thousand (target: p99 at most 50 ms throughout),
and the resident memory and the number of live Python objects at challenge 1,000 and after
(target: at most 5 MiB more at 20,000 than at 1,000).

The director: a throwaway PostgreSQL server on loopback (Debian's binaries, as the tests start
it, fsync on), or ``--database-url``, holding 100 stations' reports and 30,000 challenges over
three days (a third of them today); ``kiosk director`` serving it, as an organiser runs it. Printed:
the board's read (what the page's watcher does every 2 s), the page (GET /, whole request,
target at most 300 ms), and how long a change (a challenge of a station not seen before) takes
to reach 20 open pages (their /events streams; target within 2 s). The page's watcher reads the
log every ``POLL_S`` and each open page's stream looks for a new reading every ``PUSH_CHECK_S``:
a change waits for both.

Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import gc
import http.client
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))  # the tests' PostgreSQL server and entries, as bench_log uses them
ENABLE = REPO / "data" / "enable1.txt"
SEED = 21
MEMORY_FROM = 1_000  # the challenge after which memory is taken as the station's settled size
STATIONS = 100
SHARED_CHALLENGES = 30_000
OPEN_PAGES = 20
PUSH_TRIALS = 5
PAGE_GETS = 30
PUSH_TIMEOUT_S = 30.0
MAX_LETTERS = 15


def resident_mib() -> float:
    status = Path("/proc/self/status").read_text(encoding="ascii")
    return int(status.split("VmRSS:")[1].split()[0]) / 1024


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


def latency_line(label: str, values: list[float]) -> str:
    return (
        f"  {label:<30} median {statistics.median(values) * 1000:6.1f} ms   "
        f"p99 {percentile(values, 0.99) * 1000:6.1f} ms   worst {max(values) * 1000:6.1f} ms   "
        f"(n={len(values):,})"
    )


# --- the station ------------------------------------------------------------------------------


def plays(words: list[str], count: int) -> list[list[str]]:
    """``count`` plays of 1-8 words as players type them (lower case); a phony in about one in three."""
    rng = random.Random(SEED)
    made = []
    for _ in range(count):
        play = [rng.choice(words).lower() for _ in range(rng.randint(1, 8))]
        if rng.random() < 0.3:  # a phony, as long as the pack allows
            where = rng.randrange(len(play))
            play[where] = play[where][: MAX_LETTERS - 1] + rng.choice("sxq")
        made.append(play)
    return made


def station(list_path: Path, count: int) -> None:
    from PySide6.QtCore import QRect, Qt
    from PySide6.QtGui import QKeyEvent
    from PySide6.QtWidgets import QApplication

    from kiosk.core.packs.verification import PackWalker, WalkCache
    from kiosk.core.play.session import Screen
    from kiosk.core.station.config import Division, StationConfig, Verifier, load_divisions
    from kiosk.storage import open_station_storage
    from kiosk.ui.app import settle_heap
    from kiosk.ui.controller import StationController
    from kiosk.ui.heartbeat import StationReport
    from kiosk.ui.window import StationWindow
    from lexicon_build.builder import build_pack
    from lexicon_build.recipe import Recipe, SourceSpec

    app = QApplication.instance() or QApplication([])
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp)
        pack = folder / "event.kxpack"
        pack.write_bytes(build_pack(Recipe(name="Event", sources=(SourceSpec(list_path),))).data)
        data = folder / "data"
        config = StationConfig(divisions=(Division("Open", pack),), station_name="Table 1")
        verifier = Verifier(walker=PackWalker(cache=WalkCache(data / "verified-packs")))
        divisions = load_divisions(config, verifier)
        storage = open_station_storage(data)  # the real log: SQLite, WAL, synchronous=FULL
        storage.judge_access.set_pin("482613")
        controller = StationController(config, divisions, lambda: storage.log, verifier=verifier)
        window = StationWindow(controller, lambda: storage, data)
        window.setGeometry(QRect(0, 0, 1920, 1080))
        window.show()
        app.processEvents()
        window.build_screens()
        report = StationReport(window, controller, lambda: storage)
        controller.open_log()
        report.start()
        settle_heap()  # as the station does once it is started
        words = list(divisions[0].lexicon.words.keys())
        print(f"station: {len(words):,} words from {list_path.name}, {count:,} challenges typed")

        def key(code: Qt.Key, text: str) -> None:
            QApplication.sendEvent(
                window, QKeyEvent(QKeyEvent.Type.KeyPress, code, Qt.KeyboardModifier.NoModifier, text)
            )
            app.processEvents()

        def typed(text: str) -> None:
            for char in text:
                code = Qt.Key.Key_Space if char == " " else Qt.Key(ord(char.upper()))
                key(code, char)

        timings: list[float] = []
        cpu_timings: list[float] = []  # the process's CPU time: what the Tab costs, whatever the load
        memory: list[tuple[int, float, int]] = []
        started = time.perf_counter()
        for number, play in enumerate(plays(words, count), start=1):
            typed(str(len(play)))
            typed(" ".join(play))
            tab = QKeyEvent(QKeyEvent.Type.KeyPress, Qt.Key.Key_Tab, Qt.KeyboardModifier.NoModifier, "\t")
            before, cpu = time.perf_counter(), time.process_time()
            QApplication.sendEvent(window, tab)
            window.repaint()
            timings.append(time.perf_counter() - before)
            cpu_timings.append(time.process_time() - cpu)
            if controller.state.screen is not Screen.VERDICT:
                raise SystemExit(f"challenge {number} did not reach a verdict: {controller.state.screen}")
            controller.lockout_timer.timeout.emit()  # the lock-out's end, without waiting 0.5 s
            key(Qt.Key.Key_Space, " ")  # the next player's first key clears the verdict
            if number in (MEMORY_FROM, count) or number % 5_000 == 0:
                gc.collect()
                memory.append((number, resident_mib(), len(gc.get_objects())))
                rate = number / (time.perf_counter() - started)
                print(
                    f"  {number:>6,} challenges: {memory[-1][1]:6.1f} MiB resident, "
                    f"{memory[-1][2]:,} Python objects ({rate:.0f} challenges/s)",
                    flush=True,
                )
        logged = storage.log.count_by_station(datetime(2000, 1, 1, tzinfo=UTC))
        report.timer.stop()
        storage.close()
    print(f"Tab -> verdict painted at 1920x1080 (ruling + SQLite commit + repaint), {count:,} challenges:")
    print(latency_line("every challenge", timings))
    print(latency_line(f"the first {MEMORY_FROM:,}", timings[:MEMORY_FROM]))
    print(latency_line(f"the last {MEMORY_FROM:,}", timings[-MEMORY_FROM:]))
    print(latency_line("CPU time of each", cpu_timings))
    print("  (target: p99 at most 50 ms)")
    first = next(m for m in memory if m[0] == MEMORY_FROM)
    last = memory[-1]
    print(
        f"memory from challenge {first[0]:,} to {last[0]:,}: {last[1] - first[1]:+.1f} MiB resident, "
        f"{last[2] - first[2]:+,} Python objects (target: at most +5 MiB)"
    )
    print(f"the log holds {sum(logged.values()):,} challenges")


# --- the director -----------------------------------------------------------------------------


def populate(url: str, now: datetime) -> None:
    """100 stations' reports and 30,000 challenges over three days, a third of them today."""
    from kiosk.core.log.heartbeat import DivisionPack, Heartbeat, StationId, StationState
    from kiosk.storage.database import open_engine
    from kiosk.storage.heartbeat import HeartbeatStore
    from kiosk.storage.log import SqlChallengeLog
    from tests.storage.entries import make_entry

    rng = random.Random(SEED)
    engine = open_engine(url)
    log = SqlChallengeLog(engine, where="the bench's server")
    log.upgrade()
    beats = HeartbeatStore(engine, where="the bench's server")
    for number in range(1, STATIONS + 1):
        beats.write(
            Heartbeat(
                station_id=StationId(uuid.UUID(int=number)),
                station=f"Table {number}",
                host=f"kiosk-{number:03}",
                state=rng.choice([StationState.READY, StationState.CHALLENGE]),
                packs=(DivisionPack("Open", "CSW", "24"), DivisionPack("Schools", "NWL", "2023")),
                rule_profile="double challenge",
                version="1.0",
                reported_at=now,
            ),
            server_clock=True,
        )

    def span_s() -> float:  # a third of the challenges within the hour, the rest over three days
        return 3 * 86_400 if rng.random() < 0.67 else 3_600

    entries = []
    for _ in range(SHARED_CHALLENGES):
        words = [f"WORD{rng.randrange(10_000)}" for _ in range(rng.randint(1, 8))]
        entries.append(
            make_entry(
                words,
                station=f"Table {rng.randint(1, STATIONS)}",
                division=rng.choice(["Open", "Schools"]),
                judged_at=now - timedelta(seconds=rng.uniform(0, span_s())),
                bad=words[:1] if rng.random() < 0.4 else (),
            )
        )
    for start in range(0, len(entries), 1_000):
        log.record_many(entries[start : start + 1_000])
    engine.dispose()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Stream(threading.Thread):
    """One open page's /events stream: the time each board event arrived, and its text."""

    def __init__(self, port: int) -> None:
        super().__init__(daemon=True)
        self.sock = socket.create_connection(("127.0.0.1", port))
        head = f"GET /events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAccept: text/event-stream\r\n\r\n"
        self.sock.sendall(head.encode("ascii"))  # the Host with its port: the director's gate checks it
        self.events: list[tuple[float, str]] = []
        self.status = ""  # the answer's status line
        self.lock = threading.Lock()

    def run(self) -> None:
        buffer = b""
        while True:
            try:
                chunk = self.sock.recv(1 << 16)
            except OSError:
                return
            if not chunk:
                return
            buffer += chunk
            if not self.status and b"\r\n" in buffer:
                self.status = buffer.split(b"\r\n", 1)[0].decode("ascii", "replace")
            while b"\r\n\r\n" in buffer or b"\n\n" in buffer:
                cut = min(i for i in (buffer.find(b"\r\n\r\n"), buffer.find(b"\n\n")) if i >= 0)
                event, buffer = buffer[:cut], buffer[cut:].lstrip(b"\r\n")
                if b"event: board" in event:
                    with self.lock:
                        self.events.append((time.perf_counter(), event.decode("utf-8", "replace")))

    def first_with(self, marker: str, after: float) -> float | None:
        with self.lock:
            return next((at for at, text in self.events if at >= after and marker in text), None)


def director(url: str, folder: Path) -> None:
    from kiosk.director.app import PUSH_CHECK_S
    from kiosk.director.watch import POLL_S
    from kiosk.storage.overview import LogReader

    now = datetime.now(UTC)
    began = time.perf_counter()
    populate(url, now)
    print(
        f"director: {STATIONS} stations and {SHARED_CHALLENGES:,} challenges written to the shared log "
        f"in {time.perf_counter() - began:.1f} s"
    )
    reader = LogReader(url)
    reads = []
    for _ in range(10):
        before = time.perf_counter()
        reader.board(now - timedelta(hours=12), now - timedelta(hours=1))
        reads.append(time.perf_counter() - before)
    reader.close()
    port = free_port()
    kiosk = [sys.executable, "-c", "from kiosk.entry import run; run()"]
    command = [
        *kiosk,
        "director",
        "--database-url",
        url,
        "--data-dir",
        str(folder / "d"),
        "--port",
        str(port),
    ]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        server.stdout.readline()  # "The director's view of the log ...:"
        time.sleep(POLL_S + 0.5)  # its first reading of the log
        pages = []
        for _ in range(PAGE_GETS):
            before = time.perf_counter()
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            connection.request("GET", "/", headers={"Host": f"127.0.0.1:{port}"})
            response = connection.getresponse()
            body = response.read()
            connection.close()
            pages.append(time.perf_counter() - before)
        streams = [Stream(port) for _ in range(OPEN_PAGES)]
        for stream in streams:
            stream.start()
        time.sleep(POLL_S + 1)
        pushes: list[float] = []
        missed = 0
        from kiosk.storage.database import open_engine
        from kiosk.storage.log import SqlChallengeLog
        from tests.storage.entries import make_entry

        engine = open_engine(url)
        log = SqlChallengeLog(engine, where="the bench's server")
        for trial in range(PUSH_TRIALS):
            name = f"Newcomer {trial}"
            time.sleep(random.Random(trial).uniform(0, POLL_S))  # at any moment of the watcher's cycle
            changed = time.perf_counter()
            log.record(make_entry(station=name))
            deadline = changed + PUSH_TIMEOUT_S
            arrived: list[float | None] = [None] * len(streams)
            while time.perf_counter() < deadline and None in arrived:
                arrived = [stream.first_with(name, changed) for stream in streams]
                time.sleep(0.01)
            pushes += [at - changed for at in arrived if at is not None]
            missed += sum(at is None for at in arrived)
        engine.dispose()
    finally:
        server.terminate()
        server.wait(timeout=30)
    print(f"the board read from the shared log ({STATIONS} stations, {SHARED_CHALLENGES:,} challenges):")
    print(latency_line("LogReader.board()", reads))
    print(f"kiosk director (uvicorn, one process), page {len(body):,} bytes:")
    print(latency_line("GET / (target <= 300 ms)", pages))
    print(
        f"a change (a new station's challenge) reaching {OPEN_PAGES} open pages, {PUSH_TRIALS} changes "
        f"(the watcher reads every {POLL_S} s; each page's stream looks every {PUSH_CHECK_S} s):"
    )
    if pushes:
        print(latency_line("change -> on every page", pushes))
        print(f"  {sum(p <= 2.0 for p in pushes)} of {len(pushes)} arrivals within 2 s (target: all)")
    if missed:
        print(f"  {missed} page(s) never showed a change within {PUSH_TIMEOUT_S:.0f} s")
        refused = {stream.status for stream in streams if " 200 " not in stream.status + " "}
        if refused:
            print(f"  the director answered their streams: {', '.join(sorted(refused))}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--list", type=Path, default=ENABLE, help="the word list of the station's pack")
    parser.add_argument("--challenges", type=int, default=20_000)
    parser.add_argument("--no-station", action="store_true")
    parser.add_argument("--no-director", action="store_true")
    parser.add_argument("--database-url", help="a PostgreSQL database to fill (default: a throwaway server)")
    args = parser.parse_args()
    print(f"machine: load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    if not args.no_station:
        station(args.list, args.challenges)
    if not args.no_director:
        with tempfile.TemporaryDirectory() as temp:
            if args.database_url:
                director(args.database_url, Path(temp))
            else:
                from tests.storage.postgres import PostgresServer, find_postgres_bin

                server = PostgresServer(find_postgres_bin(), fsync=True)
                try:
                    server.init()
                    server.start()
                    director(server.create_database(f"bench_{uuid.uuid4().hex[:8]}"), Path(temp))
                finally:
                    server.destroy()
    print(f"machine at the end: load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
