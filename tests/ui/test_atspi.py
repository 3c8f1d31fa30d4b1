"""What a screen reader hears from the station: the AT-SPI events on a real accessibility bus.

The station runs under Xvfb as a kiosk session runs it, with at-spi2-core's bus and Qt's AT-SPI
bridge on (QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1, as when Orca runs), typed into with real key
events; ``atspi_listen.py`` listens with pyatspi, as Orca does. Every step of a challenge must be
announced, once, with the words ``kiosk.core.play.speech`` gives it: the verdict once (it was twice),
and nothing after the Tab that names a word.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from kiosk.core.packs.lexicon import load_lexicon
from kiosk.core.play.session import JudgePressed
from kiosk.core.words.language import english
from tests.conftest import REPO_ROOT
from tests.outputs import read_output, report
from tests.speaking import keys, spoken
from tests.test_x11_station import _wait_for, _window_id, display  # noqa: F401 (a fixture)
from tests.xvfb import require

pytestmark = pytest.mark.slow

SYSTEM_PYTHON = "/usr/bin/python3"  # Debian's, with python3-pyatspi
BUS_LAUNCHER = "/usr/libexec/at-spi-bus-launcher"
LISTENER = Path(__file__).with_name("atspi_listen.py")
PLAY = "2cat dogz"


@pytest.fixture
def accessibility_bus(display: str, tmp_path: Path) -> Iterator[dict[str, str]]:  # noqa: F811
    """A session bus of its own with at-spi2-core's accessibility bus on it: the environment to run in."""
    require("dbus-daemon")
    for program in (SYSTEM_PYTHON, BUS_LAUNCHER):
        if not Path(program).exists():
            message = f"{program} is missing (./dev.sh test installs at-spi2-core and python3-pyatspi)"
            if os.environ.get("CI"):
                pytest.fail(message)
            pytest.skip(message)
    runtime = tmp_path / "run"
    runtime.mkdir(mode=0o700)
    env = {**os.environ, "DISPLAY": display, "XDG_RUNTIME_DIR": str(runtime)}
    env.pop("DBUS_SESSION_BUS_ADDRESS", None)
    session = subprocess.Popen(
        ["dbus-daemon", "--session", "--nofork", "--print-address=1"],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
    )  # fmt: skip
    assert session.stdout is not None
    env["DBUS_SESSION_BUS_ADDRESS"] = session.stdout.readline().strip()
    with (tmp_path / "bus.log").open("wb") as log:
        launcher = subprocess.Popen([BUS_LAUNCHER, "--launch-immediately"], env=env, stdout=log, stderr=log)
    try:
        yield env
    finally:
        for process in (launcher, session):
            process.terminate()
            process.wait(timeout=10)


def test_a_screen_reader_hears_every_step_of_a_challenge_once(
    accessibility_bus: dict[str, str], tmp_path: Path
) -> None:
    env = {
        **accessibility_bus,
        "QT_QPA_PLATFORM": "xcb",
        "QT_LINUX_ACCESSIBILITY_ALWAYS_ON": "1",
        "KIOSK_DATA_DIR": str(tmp_path / "data"),
    }
    kiosk = Path(sys.executable).with_name("kiosk")
    heard_file, listener_out, station_out = (
        tmp_path / "heard.jsonl",
        tmp_path / "listener.out",
        tmp_path / "station.out",
    )

    def told() -> str:
        return report(
            {
                "the listener": read_output(listener_out),
                "the station": read_output(station_out),
                "the bus": read_output(tmp_path / "bus.log"),
                "heard": read_output(heard_file) if heard_file.exists() else "",
            }
        )

    def announcements() -> list[dict[str, object]]:
        if not heard_file.exists():
            return []
        lines = heard_file.read_text(encoding="utf-8").splitlines()
        return [e for e in map(json.loads, lines) if e["type"] == "object:announcement"]

    with listener_out.open("wb") as out:
        listener = subprocess.Popen(
            [SYSTEM_PYTHON, str(LISTENER), str(heard_file)], env=env, stdout=out, stderr=out
        )
    subprocess.run([str(kiosk), "set-pin", "--random"], env=env, capture_output=True, check=True)
    station: subprocess.Popen[bytes] | None = None
    try:
        _wait_for(lambda: "listening" in read_output(listener_out), 30, "the listener", told)
        with station_out.open("wb") as out:
            station = subprocess.Popen([str(kiosk), "station"], env=env, stdout=out, stderr=subprocess.STDOUT)
        _wait_for(lambda: _window_id(env) != "", 30, "the station window", told)
        wid = _window_id(env)
        time.sleep(1.0)  # the ready screen's key lock-out
        for command in (
            ["key", PLAY[0]],
            ["type", "--delay", "60", PLAY[1:]],
            ["key", "Return"],
            ["key", "Tab"],
        ):
            subprocess.run(["xdotool", command[0], "--window", wid, *command[1:]], env=env, check=True)
            time.sleep(0.4)
        _wait_for(
            lambda: any("unacceptable" in str(e["any"]) for e in announcements()), 15, "the verdict", told
        )
        time.sleep(1.5)  # three times the verdict's lock-out: its end must announce nothing more
    finally:
        for process in (station, listener):
            if process is not None:
                process.terminate()
                process.wait(timeout=10)

    pack = load_lexicon(REPO_ROOT / "data" / "enable-demo.kxpack")
    steps = spoken([*keys(f"{PLAY}\r"), JudgePressed()], pack, english())
    expected = [speech.text for _, speech in steps if speech is not None]
    heard = announcements()
    assert [e["any"] for e in heard] == expected, told()
    assert {e["app"] for e in heard} == {"challenge-kiosk"}
    verdict = heard[-1]
    assert verdict["detail1"] == 2, "the verdict is said at once (assertive)" + told()  # AT-SPI: 1 polite
    assert all(e["detail1"] == 1 for e in heard[:-1])
