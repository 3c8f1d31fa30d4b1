"""Judge mode's screens: a frame (``view``) over one module per page, and the work off the GUI thread.

The flow is ``kiosk.core.judge``: a frozen state, one transition, effects. ``view.JudgeView`` paints
that state and forwards keys, taps and the clock; each page (``door``, ``menu``, ``recheck``,
``packs``, ``settings``, ``counts``, ``export``, ``status``, ``leave``) paints its part and holds its
words in one place; ``work`` runs every read and write of storage, pack files and USB sticks on a
worker thread, so that no judge screen ever waits on the disk or the network.

Per-word results are shown here and nowhere else on the station.
"""

from kiosk.ui.judge.view import JudgeView, MonotonicClock
from kiosk.ui.judge.work import StorageFactory

__all__ = ["JudgeView", "MonotonicClock", "StorageFactory"]
