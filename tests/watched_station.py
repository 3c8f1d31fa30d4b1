"""``kiosk`` as its console script runs it, watched from outside (``python -m tests.watched_station ARGS``).

The real program, unchanged but for two things a test needs to see, added from here: the moment
the station's first frame is painted (a line ``painted <CLOCK_MONOTONIC seconds>`` on standard
output, comparable with the arrival times a test records in another process), and, with
``WATCHED_FREEZE=AFTER_S:FOR_S``, a slot that holds the GUI thread's event loop ``FOR_S`` seconds,
``AFTER_S`` seconds after that frame (``frozen <t>`` and ``thawed <t>`` printed either side), as
a slot that hangs would.
"""

from __future__ import annotations

import os
import time

from PySide6.QtCore import QTimer
from PySide6.QtGui import QPaintEvent

from kiosk.entry import run
from kiosk.ui.notready import NotReadyWindow
from kiosk.ui.window import StationWindow


def say(what: str) -> None:
    print(f"{what} {time.monotonic():.6f}", flush=True)


def freeze(seconds: float) -> None:
    say("frozen")
    time.sleep(seconds)  # the GUI thread runs nothing else meanwhile: no timer, no paint, no key
    say("thawed")


def watched(cls: type[StationWindow] | type[NotReadyWindow]) -> None:
    painted = cls.paintEvent
    seen: list[bool] = []

    def paint(self: StationWindow | NotReadyWindow, event: QPaintEvent) -> None:
        painted(self, event)  # type: ignore[arg-type]  # each class's own method, on its own instances
        if not seen:
            seen.append(True)
            say("painted")
            if planned := os.environ.get("WATCHED_FREEZE"):
                after_s, for_s = (float(part) for part in planned.split(":"))
                QTimer.singleShot(round(after_s * 1000), lambda: freeze(for_s))

    cls.paintEvent = paint  # type: ignore[method-assign]  # watched from outside, as documented above


if __name__ == "__main__":
    watched(StationWindow)
    watched(NotReadyWindow)
    run()
