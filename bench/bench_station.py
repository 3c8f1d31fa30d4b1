"""Station speed: start-up to the ready frame, beside a bare PySide6 window; Tab to the verdict.

    QT_QPA_PLATFORM=offscreen .venv/bin/python bench/bench_station.py [--list FILE] [--runs N]

On the embedded default pack (ENABLE), or a pack built here from ``--list`` (an organiser's list).

Start-up is measured from outside, the same way for both programs: from ``Popen`` to the line
each prints once its first frame is painted (the station with its pack loaded and verified):
every start after the first on a pack (its verification walk remembered in the data directory),
and the first start on a pack (walked in a child process; ``bench/bench_walk.py`` has the
walk's own figures on a Collins-sized pack).
The kiosk package's bytecode is compiled first, as ``pip install`` and PyInstaller do for a real
station (with PYTHONDONTWRITEBYTECODE set, a source tree would otherwise compile ~20 modules on
every start: ~40 ms that no installed station pays).
Tab -> verdict is measured in process: the Tab key event, the ruling, the log commit (the real
SQLite log, synchronous=FULL) and a synchronous repaint of the whole 1920x1080 window.
Targets (issue 4): start-up within 1.3x of the bare window; Tab -> verdict under 50 ms.
Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import compileall
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BARE_WINDOW = """
import sys
from PySide6.QtWidgets import QApplication, QWidget
from PySide6.QtCore import QTimer

class Window(QWidget):
    painted = False
    def paintEvent(self, event):
        super().paintEvent(event)
        if not self.painted:
            self.painted = True
            QTimer.singleShot(0, lambda: (print("painted", flush=True), app.exit(0)))

app = QApplication(sys.argv)
window = Window()
window.setGeometry(app.primaryScreen().geometry())
window.showFullScreen()
sys.exit(app.exec())
"""
STATION = "from kiosk.entry import run; run()"


def first_frame_seconds(args: list[str], env: dict[str, str]) -> float:
    started = time.perf_counter()
    process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, text=True)
    assert process.stdout is not None
    line = process.stdout.readline()
    elapsed = time.perf_counter() - started
    process.wait(timeout=60)
    if "painted" not in line:
        raise SystemExit(f"{args} did not report a painted frame (got {line!r})")
    return elapsed


def startup(runs: int, pack: Path | None) -> None:
    import kiosk

    compileall.compile_dir(Path(kiosk.__file__).parent, quiet=1)
    env = {**os.environ, "QT_QPA_PLATFORM": os.environ.get("QT_QPA_PLATFORM", "offscreen")}
    bare: list[float] = []
    station: list[float] = []
    first: list[float] = []
    with tempfile.TemporaryDirectory() as data:
        config: list[str] = []
        if pack is not None:  # the pack's station: one division on it
            station_toml = Path(data) / "station.toml"
            station_toml.write_text(f'[[divisions]]\nname = "Open"\npack = "{pack}"\n', encoding="utf-8")
            config = ["--config", str(station_toml)]
        station_args = [sys.executable, "-c", STATION, *config, "station", "--smoke", "--data-dir", data]
        first_frame_seconds([sys.executable, "-c", BARE_WINDOW], env)  # warm the file cache
        first_frame_seconds(station_args, env)  # the pack walked once, and remembered in `data`
        for run in range(runs):  # interleaved, so all see the same machine load
            bare.append(first_frame_seconds([sys.executable, "-c", BARE_WINDOW], env))
            station.append(first_frame_seconds(station_args, env))
            new_data = str(Path(data) / f"new-{run}")  # a data directory that has never seen the pack
            first.append(first_frame_seconds([*station_args[:-1], new_data], env))
    b = statistics.median(bare)
    print(f"start-up to first frame, median of {runs} (min-max):")
    for label, spent, target in (
        ("bare PySide6 window                     ", bare, ""),
        ("station, pack loaded (walk remembered)  ", station, "  (target <= 1.3x)"),
        ("station, first start on a pack (walked) ", first, ""),
    ):
        m = statistics.median(spent)
        print(
            f"  {label}{m * 1000:6.0f} ms  ({min(spent) * 1000:.0f}-{max(spent) * 1000:.0f})  "
            f"{m / b:5.2f}x{target}"
        )


def tab_to_verdict(runs: int, pack: Path | None) -> None:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QRect, Qt
    from PySide6.QtGui import QKeyEvent
    from PySide6.QtWidgets import QApplication

    from kiosk.core.play.session import Escape, LockoutEnded, Typed
    from kiosk.core.station.config import default_config, load_divisions
    from kiosk.paths import default_pack_path
    from kiosk.storage import open_station_storage
    from kiosk.ui.controller import StationController
    from kiosk.ui.window import StationWindow

    app = QApplication.instance() or QApplication([])
    config = default_config(pack if pack is not None else default_pack_path())
    with tempfile.TemporaryDirectory() as data:
        storage = open_station_storage(Path(data))  # the real log: SQLite, WAL, synchronous=FULL
        controller = StationController(config, load_divisions(config), lambda: storage.log)
        window = StationWindow(controller)
        window.setGeometry(QRect(0, 0, 1920, 1080))
        window.show()
        app.processEvents()
        timings: dict[str, list[float]] = {"ACCEPTABLE": [], "UNACCEPTABLE": []}
        plays = {"ACCEPTABLE": "3quixotry zax quiz", "UNACCEPTABLE": "3quixotry zaxx quiz"}
        for index in range(runs * 2):
            verdict = "ACCEPTABLE" if index % 2 == 0 else "UNACCEPTABLE"
            for char in plays[verdict]:
                controller.dispatch(Typed(char))
            window.repaint()
            app.processEvents()
            tab = QKeyEvent(QKeyEvent.Type.KeyPress, Qt.Key.Key_Tab, Qt.KeyboardModifier.NoModifier, "\t")
            started = time.perf_counter()
            QApplication.sendEvent(window, tab)
            window.repaint()
            elapsed = time.perf_counter() - started
            assert window.verdict.headline.text().endswith(verdict)
            timings[verdict].append(elapsed)
            controller.dispatch(LockoutEnded())
            controller.dispatch(Escape())
        storage.close()
    print(f"Tab -> verdict painted at 1920x1080 (ruling + SQLite commit + full repaint), {runs} each:")
    for verdict, values in timings.items():
        values.sort()
        p95 = values[max(0, int(len(values) * 0.95) - 1)]
        print(
            f"  {verdict:<12} median {statistics.median(values) * 1000:5.1f} ms  "
            f"p95 {p95 * 1000:5.1f} ms  max {values[-1] * 1000:5.1f} ms  (target < 50 ms)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--list", type=Path, help="a word list to build the station's pack from")
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        pack = None
        if args.list is not None:
            from lexicon_build.builder import build_pack
            from lexicon_build.recipe import Recipe, SourceSpec

            pack = Path(folder) / "bench.kxpack"
            recipe = Recipe(name="Bench", sources=(SourceSpec(args.list),))
            pack.write_bytes(build_pack(recipe, skip_invalid=True).data)
        startup(args.runs, pack)
        tab_to_verdict(args.runs * 4, pack)


if __name__ == "__main__":
    main()
