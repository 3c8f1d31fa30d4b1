"""Telling systemd how the station is: its notify protocol (``sd_notify``), with no Qt.

The kiosk units are ``Type=notify``: systemd counts the session started only when the station says
``READY=1`` (once its first frame is painted), and restarts the whole session if that does not come
within ``TimeoutStartSec`` (Debian 12's cage hangs instead of exiting when it cannot open the seat,
and nothing else would end it), or if ``WATCHDOG=1`` stops coming for ``WatchdogSec`` once it is up
(a frozen event loop). ``STATUS=`` is the line ``systemctl status`` shows a judge.

The protocol is one datagram of ``KEY=value`` lines to the ``AF_UNIX`` socket named by
``$NOTIFY_SOCKET`` (a leading ``@`` means Linux's abstract namespace); the kernel attaches the
sender's credentials, which is how systemd knows the unit. Without ``$NOTIFY_SOCKET`` (a station
started at a terminal, the tests) nothing is sent. systemd documents the protocol, not its C
wrapper, as the interface and suggests reimplementing it (sd_notify(3), "Notes"): these few
lines instead of a library. ``sdnotify`` (last released 2017) swallows every error, so a station
whose pings go nowhere would never say so; ``systemd-python`` builds against libsystemd.

What this trusts: the environment systemd gave the unit's main process, inherited through cage or
xinit and ``station-session`` (the station is their child: the units say ``NotifyAccess=all``).
For that reason ``$WATCHDOG_PID`` (cage's or xinit's process, not ours) is not checked. A message
that cannot be sent never stops a station judging: it is said once on standard error (the
journal) and the next one is tried again.
"""

from __future__ import annotations

import os
import socket
import sys
from collections.abc import Callable, Mapping

__all__ = ["NOTIFY_SEND_TIMEOUT_S", "ServiceManager", "socket_address"]

NOTIFY_SEND_TIMEOUT_S = 1.0  # the longest a message may hold the event loop (systemd reads at once)


def socket_address(named: str) -> str | bytes | None:
    """The socket address ``$NOTIFY_SOCKET`` names: a path, or an abstract name (``@name``) as the
    bytes Linux expects (a leading NUL); None for anything else (empty, or a kind this station does
    not speak, such as systemd's ``vsock:`` for virtual machines)."""
    if named.startswith("@") and len(named) > 1:
        return b"\0" + os.fsencode(named[1:])
    if named.startswith("/"):
        return named
    return None


def watchdog_interval_ms(usec: str) -> int | None:
    """How often to ping for a ``$WATCHDOG_USEC`` of ``usec``: half the period (systemd's advice),
    in milliseconds, at least 1; None if the watchdog is off or the value is not a number."""
    try:
        period = int(usec)
    except ValueError:
        return None
    if period <= 0:
        return None
    return max(1, period // 2000)


class ServiceManager:
    """The service manager that started this process, if it asked to be told (``$NOTIFY_SOCKET``)."""

    def __init__(
        self,
        address: str | bytes | None,
        *,
        watchdog_ms: int | None = None,
        warn: Callable[[str], None] | None = None,
    ) -> None:
        self.address = address
        self.watchdog_ms = watchdog_ms if address is not None else None
        self._warn = warn or (lambda line: print(line, file=sys.stderr, flush=True))
        self._socket: socket.socket | None = None
        self._warned = False
        self._status: str | None = None

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] | None = None) -> ServiceManager:
        env = os.environ if environ is None else environ
        named = env.get("NOTIFY_SOCKET", "")
        address = socket_address(named)
        manager = cls(address, watchdog_ms=watchdog_interval_ms(env.get("WATCHDOG_USEC", "")))
        if named and address is None:
            manager.warn_once(f"NOTIFY_SOCKET={named} is not a socket this station can write to")
        return manager

    @property
    def listening(self) -> bool:
        """Whether a service manager asked to be told (``$NOTIFY_SOCKET`` named a socket)."""
        return self.address is not None

    def ready(self, status: str) -> None:
        """Up: the first frame is on screen. ``status`` is what it shows, in a judge's words."""
        self._status = status
        self.send("READY=1", f"STATUS={status}")

    def status(self, status: str) -> None:
        """What the screen now shows; sent only when it changed."""
        if status != self._status:
            self._status = status
            self.send(f"STATUS={status}")

    def watchdog(self) -> None:
        """Still answering: the event loop ran the timer that calls this."""
        self.send("WATCHDOG=1")

    def send(self, *fields: str) -> None:
        """One datagram of ``fields``, a line each (a newline inside a value would start a field)."""
        if self.address is None:
            return
        message = "\n".join(field.replace("\n", " ") for field in fields).encode()
        try:
            if self._socket is None:
                self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)
                self._socket.settimeout(NOTIFY_SEND_TIMEOUT_S)
            self._socket.sendto(message, self.address)
        except OSError as exc:
            where = self.address if isinstance(self.address, str) else "@" + os.fsdecode(self.address[1:])
            self.warn_once(f"systemd cannot be told how the station is ({where}): {exc.strerror or exc}")

    def warn_once(self, line: str) -> None:
        if not self._warned:
            self._warned = True
            self._warn(f"warning: {line}")

    def close(self) -> None:
        if self._socket is not None:
            self._socket.close()
            self._socket = None
