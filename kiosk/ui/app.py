"""Starting the station: one instance, the configured screen, the cursor, the screensaver.

``run_station`` is called by ``kiosk station`` with packs already loaded and verified (a pack that
fails stops the station before any window exists) and a factory for the station's storage, which
is first called after the first frame (its SQLAlchemy import costs more than Qt's start-up) and
returns the same storage every time: the log records into it, judge mode reads it.
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QLockFile, Qt, QTimer
from PySide6.QtGui import QCursor
from PySide6.QtWidgets import QApplication

from kiosk.core.config import LoadedDivision, StationConfig
from kiosk.core.errors import KioskError
from kiosk.ui.controller import StationController
from kiosk.ui.screen import fill_screen
from kiosk.ui.startup import application
from kiosk.ui.window import StationWindow

if TYPE_CHECKING:
    from kiosk.ui.judge import StorageFactory

__all__ = ["LOCK_FILE_NAME", "run_station", "seconds_since_process_start"]

LOCK_FILE_NAME = "station.lock"
EXIT_OK = 0
EXIT_ERROR = 2


def seconds_since_process_start() -> float | None:
    """Wall time since this process was started (Linux; 10 ms resolution), or None elsewhere."""
    try:
        fields = Path("/proc/self/stat").read_text().rsplit(")", 1)[1].split()
        uptime = float(Path("/proc/uptime").read_text().split()[0])
    except (OSError, IndexError, ValueError):
        return None
    ticks = os.sysconf("SC_CLK_TCK")
    started = int(fields[19]) / ticks  # field 22 of stat, counted after the command name
    # /proc/uptime has 10 ms resolution too; CLOCK_BOOTTIME is finer and counts the same thing.
    now = time.clock_gettime(time.CLOCK_BOOTTIME) if hasattr(time, "CLOCK_BOOTTIME") else uptime
    return max(0.0, now - started)


def inhibit_screensaver() -> object | None:
    """Ask the desktop not to blank the screen (best effort: freedesktop D-Bus, where present).

    Kiosk sessions without a desktop should also run ``xset s off -dpms`` (see the station guide).
    """
    try:
        from PySide6.QtDBus import QDBusConnection, QDBusInterface
    except ImportError:
        return None
    bus = QDBusConnection.sessionBus()
    if not bus.isConnected():
        return None
    saver = QDBusInterface(
        "org.freedesktop.ScreenSaver", "/org/freedesktop/ScreenSaver", "org.freedesktop.ScreenSaver", bus
    )
    if not saver.isValid():
        return None
    return saver.call("Inhibit", "challenge-kiosk", "a challenge station is running")


def run_station(
    config: StationConfig,
    divisions: Sequence[LoadedDivision],
    data_dir: Path,
    storage: StorageFactory,
    *,
    smoke: bool = False,
    argv: Sequence[str] = (),
) -> int:
    """Run the station until a judge leaves it from judge mode; return the exit code."""
    app = application(["kiosk", *argv])
    app.setApplicationName("challenge-kiosk")
    try:
        data_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        print(f"error: the data directory {data_dir} cannot be created: {exc.strerror}", file=sys.stderr)
        return EXIT_ERROR
    lock = QLockFile(str(data_dir / LOCK_FILE_NAME))
    if not lock.tryLock(0):
        print(
            f"error: another station is already running with the data directory {data_dir} "
            f"(lock file {data_dir / LOCK_FILE_NAME}); stop it first",
            file=sys.stderr,
        )
        return EXIT_ERROR
    controller = StationController(config, divisions, lambda: storage().log)
    window = StationWindow(controller, storage, data_dir)
    if not config.touch:
        QApplication.setOverrideCursor(QCursor(Qt.CursorShape.BlankCursor))

    def after_first_frame() -> None:
        if smoke:
            elapsed = seconds_since_process_start()
            shown = "?" if elapsed is None else f"{elapsed:.3f}"
            try:
                print(f"ready frame painted {shown} s after process start", flush=True)
            except OSError as exc:  # raised in a Qt slot, it would be swallowed and never quit
                with contextlib.suppress(OSError):
                    print(f"error: the smoke test cannot print its result: {exc.strerror}", file=sys.stderr)
                app.exit(EXIT_ERROR)
                return
            app.exit(0)  # quit() would ask the window, which refuses to close
            return
        window.build_screens()
        from kiosk.ui.judge import restore_settings  # loaded by build_screens, after the first frame

        try:
            controller.open_log()
            for problem in restore_settings(controller, storage()):
                print(f"warning: {problem}", file=sys.stderr)
        except KioskError as exc:  # the first verdict will show the station fault
            print(f"station fault: {exc}", file=sys.stderr)
        inhibit_screensaver()

    window.first_frame_painted.connect(
        lambda: QTimer.singleShot(0, after_first_frame), Qt.ConnectionType.QueuedConnection
    )
    window.left.connect(lambda: app.exit(0))
    fill_screen(window, config.screen)
    code = app.exec()
    lock.unlock()
    return EXIT_OK if code == 0 else code
