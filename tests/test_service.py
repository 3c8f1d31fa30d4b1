"""systemd's notify protocol as the station speaks it (``kiosk.service``), against real sockets."""

from __future__ import annotations

import socket
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from kiosk.service import ServiceManager, socket_address, watchdog_interval_ms


@pytest.fixture
def short_dir() -> Iterator[Path]:
    """A folder whose socket paths fit AF_UNIX's 108 bytes (pytest's tmp_path may not)."""
    with tempfile.TemporaryDirectory(prefix="kn-") as folder:
        yield Path(folder)


def listening_socket(named: str) -> socket.socket:
    """A datagram socket bound where ``$NOTIFY_SOCKET`` = ``named`` points, as systemd binds its own."""
    receiver = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    receiver.bind(b"\0" + named[1:].encode() if named.startswith("@") else named)
    receiver.settimeout(5)
    return receiver


@pytest.fixture(params=["path", "abstract"])
def notify_socket(request: pytest.FixtureRequest, short_dir: Path) -> Iterator[tuple[str, socket.socket]]:
    named = str(short_dir / "notify") if request.param == "path" else f"@kiosk-test-{uuid.uuid4().hex}"
    receiver = listening_socket(named)
    yield named, receiver
    receiver.close()


def fields(datagram: bytes) -> list[str]:
    return datagram.decode().split("\n")


def test_ready_status_and_pings_reach_the_socket_named_plain_or_abstract(
    notify_socket: tuple[str, socket.socket],
) -> None:
    named, receiver = notify_socket
    manager = ServiceManager.from_environment({"NOTIFY_SOCKET": named, "WATCHDOG_USEC": "30000000"})
    assert manager.listening
    assert manager.watchdog_ms == 15_000  # half the period
    manager.ready("ready: Open on ENABLE demo (enable1)")
    assert fields(receiver.recv(4096)) == ["READY=1", "STATUS=ready: Open on ENABLE demo (enable1)"]
    manager.status("ready: Open on ENABLE demo (enable1)")  # the same: nothing sent
    manager.watchdog()
    assert fields(receiver.recv(4096)) == ["WATCHDOG=1"]
    manager.status("not ready: no judge PIN is set\nfor the station")  # a newline would start a field
    assert fields(receiver.recv(4096)) == ["STATUS=not ready: no judge PIN is set for the station"]
    manager.close()


def test_without_notify_socket_nothing_is_sent_and_no_socket_is_made() -> None:
    manager = ServiceManager.from_environment({"WATCHDOG_USEC": "30000000"})
    assert not manager.listening
    assert manager.watchdog_ms is None  # no pings for nobody
    manager.ready("ready")
    manager.watchdog()
    assert manager._socket is None


@pytest.mark.parametrize(
    ("usec", "expected"),
    [("30000000", 15_000), ("1000", 1), ("1", 1), ("0", None), ("", None), ("soon", None), ("-5", None)],
)
def test_pings_come_at_half_the_watchdog_period(usec: str, expected: int | None) -> None:
    assert watchdog_interval_ms(usec) == expected


def test_socket_addresses_as_systemd_names_them() -> None:
    assert socket_address("/run/systemd/notify") == "/run/systemd/notify"
    assert socket_address("@/org/freedesktop/systemd1/notify/42") == b"\0/org/freedesktop/systemd1/notify/42"
    assert socket_address("") is None
    assert socket_address("@") is None
    assert socket_address("vsock:2:1234") is None  # a virtual machine's host: not ours to speak


def test_a_socket_that_is_gone_is_said_once_and_never_stops_the_station(short_dir: Path) -> None:
    said: list[str] = []
    gone = short_dir / "notify"
    manager = ServiceManager(str(gone), watchdog_ms=500, warn=said.append)
    manager.ready("ready")
    manager.watchdog()
    manager.watchdog()
    assert said == [f"warning: systemd cannot be told how the station is ({gone}): No such file or directory"]
    receiver = listening_socket(str(gone))  # back (systemd re-executed itself): the next one arrives
    manager.watchdog()
    assert fields(receiver.recv(4096)) == ["WATCHDOG=1"]
    receiver.close()
    manager.close()


def test_a_socket_name_the_station_cannot_use_is_said(capsys: pytest.CaptureFixture[str]) -> None:
    manager = ServiceManager.from_environment({"NOTIFY_SOCKET": "vsock:2:1234"})
    assert not manager.listening
    assert capsys.readouterr().err == (
        "warning: NOTIFY_SOCKET=vsock:2:1234 is not a socket this station can write to\n"
    )
