"""The station's own controller without a window, for crash and multi-station tests (``python -m``).

Streams challenges through the real ``StationController`` the station runs (``kiosk.ui.controller``),
keyed in as players key them: the count, the words, Tab. The controller rules on the play,
records it in the log and only then moves to the verdict screen; the child prints the verdict line
``VERDICT <uuid> <verdict> backlog=<n>`` when the controller shows the verdict, never before. ``n``
is how many earlier challenges still waited for the shared server when this one was judged (0 for
a local log). With ``--stop-file``, stops when the file appears, forwards its backlog and prints
``DONE``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

from PySide6.QtCore import QCoreApplication

from kiosk.core.errors import StorageError
from kiosk.core.log.challenge import ChallengeEntry
from kiosk.core.play.session import JudgePressed, Screen, SessionState, Typed, VerdictExpired
from kiosk.core.station.config import Division, StationConfig, load_divisions
from kiosk.storage import open_station_storage
from kiosk.ui.controller import StationController

WORDS = ("CAT", "CATS", "DOG", "DOGS", "QI", "ZA", "QIX", "DOGZ", "ZAS")
FORWARD_PATIENCE_S = 60.0


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--data-dir", type=Path, required=True)
    parser.add_argument("--pack", type=Path, required=True)
    parser.add_argument("--station", default="Table 1")
    parser.add_argument("--database-url")
    parser.add_argument("--stop-file", type=Path)
    parser.add_argument("--interval-s", type=float, default=0.0)
    parser.add_argument("--tracebacks", action="store_true", help="as a kiosk session's station does")
    args = parser.parse_args(argv)
    if args.tracebacks:
        from kiosk.station import tracebacks_on_fatal_signals

        tracebacks_on_fatal_signals()

    app = QCoreApplication([sys.argv[0]])  # the controller's timers need one; none of them fires here
    config = StationConfig(divisions=(Division("Open", args.pack),), station_name=args.station)
    storage = open_station_storage(args.data_dir, args.database_url)
    controller = StationController(config, load_divisions(config), lambda: storage.log)
    recorded: list[ChallengeEntry] = []
    backlog = [0]

    def shown(state: SessionState) -> None:
        """The controller's screen changed: a verdict shown is printed now (a slot must not raise)."""
        if state.screen is Screen.VERDICT and state.ruling is not None and recorded:
            verdict = state.ruling.verdict.value
            print(f"VERDICT {recorded[-1].challenge_id} {verdict} backlog={backlog[0]}", flush=True)

    controller.challenge_recorded.connect(recorded.append)
    controller.state_changed.connect(shown)
    rng = random.Random()
    print("READY", flush=True)
    while args.stop_file is None or not args.stop_file.exists():
        words = rng.choices(WORDS, k=rng.randint(1, 4))
        backlog[0] = storage.log.status().backlog if args.database_url else 0
        controller.dispatch(Typed(str(len(words))))
        controller.dispatch(Typed(" ".join(words)))
        controller.dispatch(JudgePressed())  # judged, recorded, and only then the verdict
        if controller.state.screen is not Screen.VERDICT:
            raise SystemExit(
                f"no verdict shown: the station is on its {controller.state.screen.value} screen"
            )
        if recorded[-1].ruling != controller.state.ruling:
            raise SystemExit("the verdict shown is not the challenge recorded last")
        controller.dispatch(VerdictExpired())
        if args.interval_s:
            time.sleep(args.interval_s)
    deadline = time.monotonic() + FORWARD_PATIENCE_S
    while storage.log.status().backlog:
        try:
            storage.log.forward_backlog()
        except StorageError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)
    storage.close()
    del app
    print("DONE", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
