"""The station's QApplication, made so that a screen Qt cannot open is explained, not just aborted.

When its platform plugin does not load, Qt aborts the process with "Reinstalling the application
may fix this problem": advice that fixes nothing, read by an operator in the journal of a kiosk
session whose screen stays black. The usual cause on Linux is a library that the plugin needs and
the machine lacks. While the application is made, Qt's messages pass through a handler here that
prints them as Qt would and, when the platform plugin failed, asks the dynamic loader which
library is missing and says what to install, before Qt aborts.
"""

from __future__ import annotations

import contextlib
import os
import re
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import QLibraryInfo, QMessageLogContext, QtMsgType, qInstallMessageHandler
from PySide6.QtWidgets import QApplication

from kiosk.paths import guide_dir

__all__ = ["application", "missing_library", "seconds_since_process_start", "smoke_painted"]

_PLUGIN_FAILED = re.compile(r'Could not load the Qt platform plugin "(?P<platform>[^"]+)"')


def application(argv: Sequence[str]) -> QApplication:
    """The process's QApplication: the existing one, or a new one whose start-up failures say why."""
    existing = QApplication.instance()
    if existing is not None:
        assert isinstance(existing, QApplication)
        return existing
    previous = qInstallMessageHandler(_explain)
    try:
        return QApplication(list(argv))
    finally:
        qInstallMessageHandler(previous)


def _explain(kind: QtMsgType, context: QMessageLogContext, message: str) -> None:
    category = context.category
    shown = message if not category or category == "default" else f"{category}: {message}"
    print(shown, file=sys.stderr, flush=True)
    failed = _PLUGIN_FAILED.search(message)
    if failed is None:
        return
    folders = [os.environ.get("QT_QPA_PLATFORM_PLUGIN_PATH", "")]
    folders.append(str(Path(QLibraryInfo.path(QLibraryInfo.LibraryPath.PluginsPath)) / "platforms"))
    for folder in filter(None, folders):
        problem = missing_library(Path(folder), failed["platform"])
        if problem is not None:
            guide = guide_dir() / "install.md"
            print(
                f"error: the station cannot open its screen: Qt's {failed['platform']} plugin cannot "
                f"load ({problem}). This machine lacks a Debian package the station needs: install "
                f"the packages of {guide} (section 3), then start the station again.",
                file=sys.stderr,
                flush=True,
            )
            return


def missing_library(folder: Path, platform: str) -> str | None:
    """What the dynamic loader says when it loads the ``platform`` plugin of ``folder``; None if
    it loads (then the plugin failed for another reason: no display, no compositor)."""
    import ctypes  # only when a plugin failed: not on the way to a station's first frame

    for plugin in sorted(folder.glob(f"libq{platform.split('-')[0]}*.so")):
        try:
            ctypes.CDLL(str(plugin))
        except OSError as exc:
            # Frozen, PyInstaller's ctypes wraps the loader's message in one of its own about
            # freezing; the loader's own (which library, and why) is its cause.
            return str(exc.__cause__ if isinstance(exc.__cause__, OSError) else exc)
    return None


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


def smoke_painted(frame: str, said: str) -> bool:
    """``--smoke``'s line for a frame painted ("ready frame painted 0.231 s after process start:"
    and what the frame says); False, said on standard error, when it cannot be written (the caller
    then exits 2)."""
    elapsed = seconds_since_process_start()
    shown = "?" if elapsed is None else f"{elapsed:.3f}"
    try:
        print(f"{frame} frame painted {shown} s after process start: {said}", flush=True)
    except OSError as exc:
        with contextlib.suppress(OSError):
            print(f"error: the smoke test cannot print its result: {exc.strerror}", file=sys.stderr)
        return False
    return True
