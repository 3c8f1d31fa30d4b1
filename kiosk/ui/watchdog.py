"""The station's answers to systemd, from the GUI thread's event loop (``kiosk.service`` speaks).

``READY=1`` goes once the first frame is painted; ``WATCHDOG=1`` from a timer of this event loop,
at half the unit's ``WatchdogSec``: a loop that stops turning (a slot that never returns, a
deadlock) stops the pings, and systemd restarts the session. The status line is looked at again at
each ping and sent when it changed, so ``systemctl status`` follows the screen.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer

from kiosk.service import ServiceManager

__all__ = ["Watchdog"]


class Watchdog(QObject):
    """Tells ``manager`` the station is up, what it shows, and that its event loop still turns."""

    def __init__(
        self, manager: ServiceManager, status: Callable[[], str], parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self.manager = manager
        self._status = status
        self.timer = QTimer(self)
        if manager.watchdog_ms is not None:
            self.timer.setInterval(manager.watchdog_ms)
        self.timer.timeout.connect(self._on_timeout)

    def up(self) -> None:
        """At the first frame: ready, and the pings start (if the unit has a watchdog)."""
        self.manager.ready(self._status())
        if self.manager.watchdog_ms is not None:
            self.timer.start()

    def update(self) -> None:
        """The screen may say something else now."""
        self.manager.status(self._status())

    def leaving(self, status: str) -> None:
        """The station ends on purpose (a judge left it). A last ping gives what it does after its
        loop (its last report, closing its log: well under ``WatchdogSec``) a whole period, so
        that no watchdog kill turns a judge's exit into a restart. Not STOPPING=1: the unit's
        ExecStopPost decides what a judge's exit leads to, as it did before."""
        self.timer.stop()
        if self.manager.watchdog_ms is None:
            self.manager.status(status)
        else:
            self.manager.send("WATCHDOG=1", f"STATUS={status}")

    def _on_timeout(self) -> None:
        self.manager.watchdog()
        self.update()
