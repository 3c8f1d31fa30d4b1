"""The real ``kiosk station --kiosk-session``, off screen, tells a real notify socket what systemd
needs: READY=1 only once its first frame is painted, a status that says what the screen says, and
WATCHDOG=1 pings from its event loop that stop when that loop does (``tests.watched_station``
prints when the frame is painted and can hold the loop, as a hung slot would)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

import pytest

from tests.conftest import REPO_ROOT, PackFactory

WAIT_S = 60.0  # the longest a test waits for a message that must come (a loaded machine is slow)
PING_USEC = 600_000  # a 0.6 s watchdog: a ping every 0.3 s
PING_S = PING_USEC / 2_000_000


@dataclass
class Listener:
    """A notify socket, as systemd binds one, and every datagram it got with its arrival time."""

    named: str
    receiver: socket.socket
    got: list[tuple[float, list[str]]] = field(default_factory=list)
    changed: threading.Condition = field(default_factory=threading.Condition)

    def listen(self) -> None:
        while True:
            try:
                datagram = self.receiver.recv(4096)
            except OSError:
                return
            with self.changed:
                self.got.append((time.monotonic(), datagram.decode().split("\n")))
                self.changed.notify_all()

    def wait_for(self, wanted: Callable[[list[str]], bool], after: float = 0.0) -> tuple[float, list[str]]:
        """The first message since ``after`` (a monotonic time) that ``wanted`` accepts."""
        deadline = time.monotonic() + WAIT_S
        with self.changed:
            while True:
                for when, message in self.got:
                    if when >= after and wanted(message):
                        return when, message
                left = deadline - time.monotonic()
                assert left > 0, f"no such message in {WAIT_S} s; got {self.got}"
                self.changed.wait(left)

    def pings(self, start: float, end: float) -> list[float]:
        with self.changed:
            return [when for when, message in self.got if start <= when < end and "WATCHDOG=1" in message]


@pytest.fixture(params=["path", "abstract"])
def listener(request: pytest.FixtureRequest) -> Iterator[Listener]:
    with tempfile.TemporaryDirectory(prefix="kn-") as folder:  # AF_UNIX paths: at most 108 bytes
        if request.param == "path":
            named = f"{folder}/notify"
            address: str | bytes = named
        else:
            named = f"@kiosk-test-{uuid.uuid4().hex}"
            address = b"\0" + named[1:].encode()
        receiver = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        receiver.bind(address)
        found = Listener(named, receiver)
        thread = threading.Thread(target=found.listen, daemon=True)
        thread.start()
        yield found
        receiver.shutdown(socket.SHUT_RDWR)
        receiver.close()
        thread.join(5)


@dataclass
class Station:
    process: subprocess.Popen[str]
    lines: list[tuple[str, float]] = field(default_factory=list)  # what it printed on stdout, timed
    said: threading.Event = field(default_factory=threading.Event)

    def read(self, stream: IO[str]) -> None:
        for line in stream:
            name, _, when = line.strip().rpartition(" ")
            if name in ("painted", "frozen", "thawed"):
                self.lines.append((name, float(when)))
                self.said.set()

    def when(self, name: str) -> float:
        deadline = time.monotonic() + WAIT_S
        while True:
            for said, at in self.lines:
                if said == name:
                    return at
            assert time.monotonic() < deadline, f"the station never printed {name!r}: {self.lines}"
            self.said.wait(0.1)
            self.said.clear()


@pytest.fixture
def start_station(tmp_path: Path) -> Iterator[Callable[..., Station]]:
    started: list[subprocess.Popen[str]] = []

    def start(config: Path, listener: Listener, **env: str) -> Station:
        environ = {
            **os.environ,
            "QT_QPA_PLATFORM": "offscreen",
            "KIOSK_DATA_DIR": str(tmp_path / "env-data"),
            "NOTIFY_SOCKET": listener.named,
            **env,
        }
        process = subprocess.Popen(
            [sys.executable, "-m", "tests.watched_station", "station", "--kiosk-session",
             "--config", str(config)],
            cwd=REPO_ROOT, env=environ, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        )  # fmt: skip
        started.append(process)
        station = Station(process)
        assert process.stdout is not None
        threading.Thread(target=station.read, args=(process.stdout,), daemon=True).start()
        return station

    yield start
    for process in started:
        if process.poll() is None:
            process.send_signal(signal.SIGCONT)  # a test that stopped it and failed before going on
            process.terminate()
        process.wait(30)


def station_config(tmp_path: Path, pack: Path) -> Path:
    config = tmp_path / "station.toml"
    config.write_text(
        f'data_dir = "station-data"\n[[divisions]]\nname = "Open"\npack = "{pack}"\n', encoding="utf-8"
    )
    return config


def set_pin(config: Path) -> None:
    kiosk = str(Path(sys.executable).with_name("kiosk"))
    done = subprocess.run(
        [kiosk, "set-pin", "--stdin", "--config", str(config)],
        input="579135\n", capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr


def is_ready(message: list[str]) -> bool:
    return "READY=1" in message


def status_of(message: list[str]) -> str:
    return next(line.removeprefix("STATUS=") for line in message if line.startswith("STATUS="))


def test_ready_comes_after_the_first_frame_and_says_what_the_station_serves(
    tmp_path: Path, make_pack: PackFactory, listener: Listener, start_station: Callable[..., Station]
) -> None:
    config = station_config(tmp_path, make_pack(["CAT", "DOGS"], name="Club list", edition="2026"))
    set_pin(config)
    station = start_station(config, listener)
    ready_at, ready = listener.wait_for(is_ready)
    assert station.when("painted") < ready_at
    assert status_of(ready) == "ready: Open on Club list (2026)"  # the ready screen: Club list, 2026
    assert listener.got[0][1] == ready  # nothing before it
    time.sleep(1.0)
    assert not listener.pings(0.0, time.monotonic())  # no $WATCHDOG_USEC: no pings
    assert station.process.poll() is None


def test_a_station_without_a_pin_is_up_and_says_why_then_says_when_it_serves(
    tmp_path: Path, make_pack: PackFactory, listener: Listener, start_station: Callable[..., Station]
) -> None:
    """The not-ready screen is a steady state that checks itself again: READY=1 with its reason,
    then the status follows the screen once a judge sets the PIN."""
    config = station_config(tmp_path, make_pack(["CAT", "DOGS"], name="Club list", edition="2026"))
    station = start_station(config, listener)
    ready_at, ready = listener.wait_for(is_ready)
    assert station.when("painted") < ready_at
    database = config.parent / "station-data" / "kiosk.sqlite3"
    assert status_of(ready).startswith(f"not ready: no judge PIN is set for the station database {database}")
    assert status_of(ready).endswith(f"with: kiosk set-pin --config {config}")
    set_pin(config)
    _, serving = listener.wait_for(lambda message: message[0].startswith("STATUS="), ready_at + 1e-6)
    assert serving == ["STATUS=ready: Open on Club list (2026)"]


def test_a_station_that_cannot_start_is_up_on_its_not_ready_screen(
    tmp_path: Path, listener: Listener, start_station: Callable[..., Station]
) -> None:
    config = station_config(tmp_path, tmp_path / "gone.kxpack")
    station = start_station(config, listener, WATCHDOG_USEC=str(PING_USEC))
    ready_at, ready = listener.wait_for(is_ready)
    assert station.when("painted") < ready_at
    gone = tmp_path / "gone.kxpack"
    problem = f"{config}: division 'Open', pack: {gone} does not exist; check the pack path"
    assert status_of(ready) == f"not ready: {problem}"
    listener.wait_for(lambda message: message == ["WATCHDOG=1"], ready_at)  # its loop pings too


def test_pings_come_from_the_event_loop_and_stop_while_it_is_held(
    tmp_path: Path, make_pack: PackFactory, listener: Listener, start_station: Callable[..., Station]
) -> None:
    config = station_config(tmp_path, make_pack(["CAT", "DOGS"]))
    set_pin(config)
    station = start_station(config, listener, WATCHDOG_USEC=str(PING_USEC), WATCHED_FREEZE="2:3")
    ready_at, _ = listener.wait_for(is_ready)
    frozen, thawed = station.when("frozen"), station.when("thawed")
    listener.wait_for(lambda message: message == ["WATCHDOG=1"], thawed)
    assert len(listener.pings(ready_at, frozen)) >= 3  # ~6 in 2 s; a loaded machine may drop some
    # a ping already on its way as the slot started may land just after it: allow one interval
    assert listener.pings(frozen + PING_S, thawed) == []
    assert thawed - frozen >= 3.0


def test_pings_stop_while_the_station_is_stopped_and_come_back(
    tmp_path: Path, make_pack: PackFactory, listener: Listener, start_station: Callable[..., Station]
) -> None:
    config = station_config(tmp_path, make_pack(["CAT", "DOGS"]))
    set_pin(config)
    station = start_station(config, listener, WATCHDOG_USEC=str(PING_USEC))
    ready_at, _ = listener.wait_for(is_ready)
    listener.wait_for(lambda message: message == ["WATCHDOG=1"], ready_at)
    station.process.send_signal(signal.SIGSTOP)
    stopped = time.monotonic()
    time.sleep(2.0)
    resumed = time.monotonic()
    station.process.send_signal(signal.SIGCONT)
    assert listener.pings(stopped + PING_S, resumed) == []
    listener.wait_for(lambda message: message == ["WATCHDOG=1"], resumed)
