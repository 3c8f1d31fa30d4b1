"""What the station tells the director (``kiosk.core.log.heartbeat``), read off its window once a second.

A timer on the Qt thread reads the window and the controller (memory only: no I/O) and hands the
state to the storage's ``HeartbeatReporter``, whose own thread writes it. Reading the state rather
than hooking every screen change keeps the players' flow free of it: whatever shows on screen is
what is reported, within a second.
"""

from __future__ import annotations

import socket
from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer

from kiosk import __version__
from kiosk.core.errors import KioskError
from kiosk.core.log.heartbeat import DivisionPack, Heartbeat, StationId, StationState, ruling_set
from kiosk.core.play.session import Screen
from kiosk.ui.controller import StationController

if TYPE_CHECKING:
    from kiosk.storage import StationStorage
    from kiosk.ui.window import StationWindow

__all__ = ["REPORT_EVERY_MS", "StationReport", "heartbeat_of"]

REPORT_EVERY_MS = 1000  # the window is read this often; the reporter writes only what changed


def heartbeat_of(
    window: StationWindow,
    controller: StationController,
    station_id: StationId,
    host: str,
    problem: str,
    *,
    closed: bool = False,
) -> Heartbeat:
    """The station's state as the director reads it. ``problem``: why it does not serve players;
    ``closed``: a judge has left it ("Exit the station")."""
    state = controller.state
    reason = ""
    if closed:
        status = StationState.CLOSED
    elif window.not_ready:
        status, reason = StationState.NOT_READY, problem
    elif window.judging:
        status = StationState.JUDGE
    elif state.screen is Screen.READY:
        status = StationState.READY
    elif state.screen is Screen.FAULT:
        status, reason = StationState.FAULT, str(controller.last_fault)  # English, for the director
    else:
        status = StationState.CHALLENGE
    packs = tuple(
        DivisionPack(
            loaded.division.name,
            loaded.lexicon.info.name,
            loaded.lexicon.info.edition,
            index in state.served,
            ruling_set(
                loaded.lexicon.info.set_hash, loaded.lexicon.info.youth_set_hash, loaded.division.youth_rules
            ),
            loaded.division.youth_rules,
        )
        for index, loaded in enumerate(controller.divisions)
    )
    return Heartbeat(
        station_id=station_id,
        station=controller.config.station_name,
        host=host,
        state=status,
        packs=packs,
        rule_profile=controller.config.rules.name,
        version=__version__,
        reason=reason,
        ask_table=controller.config.ask_table,
    )


class StationReport(QObject):
    """Reads the window every ``REPORT_EVERY_MS`` and reports it, once the storage is open."""

    def __init__(
        self,
        window: StationWindow,
        controller: StationController,
        storage: Callable[[], StationStorage],
        *,
        every_ms: int = REPORT_EVERY_MS,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent if parent is not None else window)
        self._window = window
        self._controller = controller
        self._storage = storage
        self._host = socket.gethostname()
        self._station_id: StationId | None = None
        self.problem = ""  # why the station does not serve players now, as its notice says
        self._closed = False
        self.timer = QTimer(self)
        self.timer.setInterval(every_ms)
        self.timer.timeout.connect(self.report)

    def start(self) -> None:
        self.report()
        self.timer.start()

    def close(self) -> Heartbeat | None:
        """A judge has left the station: report it CLOSED and send that on now, within a few
        seconds (``StationStorage.send_reports``), so the director tells it from a crash."""
        self.timer.stop()
        self._closed = True
        beat = self.report()
        if beat is not None:
            self._storage().send_reports()
        return beat

    def report(self) -> Heartbeat | None:
        """Hand the state now to the reporter; None while the storage cannot be opened (a station
        that cannot write its own database cannot report: the director sees it go quiet)."""
        if not self._controller.log_open:  # the storage is not open (yet): nowhere to write
            return None
        try:
            storage = self._storage()
            if self._station_id is None:
                from kiosk.storage.heartbeat import station_id

                self._station_id = station_id(storage.settings)
            reporter = storage.heartbeat_reporter()
        except KioskError:
            return None
        beat = heartbeat_of(
            self._window, self._controller, self._station_id, self._host, self.problem, closed=self._closed
        )
        reporter.report(beat)
        return beat
