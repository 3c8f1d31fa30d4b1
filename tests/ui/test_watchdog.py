"""The station's side of systemd's watchdog, in its own event loop, against a real socket."""

from __future__ import annotations

import socket
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from kiosk.service import ServiceManager
from kiosk.ui.watchdog import Watchdog


@pytest.fixture
def receiver() -> Iterator[tuple[str, socket.socket]]:
    with tempfile.TemporaryDirectory(prefix="kn-") as folder:  # AF_UNIX paths: at most 108 bytes
        named = str(Path(folder) / "notify")
        listening = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        listening.bind(named)
        listening.setblocking(False)  # read between turns of the event loop, which is this thread's
        yield named, listening
        listening.close()


def received(qtbot: QtBot, listening: socket.socket) -> list[str]:
    """The next message, the event loop turning while it is awaited (5 s at most)."""
    got: list[bytes] = []

    def arrived() -> bool:
        try:
            got.append(listening.recv(4096))
        except BlockingIOError:
            return False
        return True

    qtbot.waitUntil(arrived, timeout=5000)
    return got[0].decode().split("\n")


def test_a_judge_leaving_gives_the_exit_a_whole_watchdog_period(
    qtbot: QtBot, receiver: tuple[str, socket.socket]
) -> None:
    """Pinged as it leaves (its loop is over, its last report and log closing still to come), so
    a watchdog kill cannot turn a judge's exit into a restart; no ping comes after."""
    named, listening = receiver
    manager = ServiceManager.from_environment({"NOTIFY_SOCKET": named, "WATCHDOG_USEC": "200000"})
    watchdog = Watchdog(manager, lambda: "ready: Open on Club list (2026)")
    watchdog.up()
    assert received(qtbot, listening) == ["READY=1", "STATUS=ready: Open on Club list (2026)"]
    assert received(qtbot, listening) == ["WATCHDOG=1"]  # from this thread's event loop, every 0.1 s
    watchdog.leaving("left by a judge (judge mode: Exit the station)")
    while (message := received(qtbot, listening)) == ["WATCHDOG=1"]:
        pass  # a ping already sent before the judge left
    assert message == ["WATCHDOG=1", "STATUS=left by a judge (judge mode: Exit the station)"]
    qtbot.wait(500)  # five periods of the timer, had it not stopped
    with pytest.raises(BlockingIOError):
        listening.recv(4096)
    manager.close()


def test_without_a_watchdog_leaving_only_says_so(qtbot: QtBot, receiver: tuple[str, socket.socket]) -> None:
    named, listening = receiver
    manager = ServiceManager.from_environment({"NOTIFY_SOCKET": named})
    watchdog = Watchdog(manager, lambda: "ready")
    watchdog.up()
    assert received(qtbot, listening) == ["READY=1", "STATUS=ready"]
    assert not watchdog.timer.isActive()
    watchdog.leaving("left by a judge (judge mode: Exit the station)")
    assert received(qtbot, listening) == ["STATUS=left by a judge (judge mode: Exit the station)"]
    manager.close()
