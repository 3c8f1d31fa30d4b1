"""How a station process ends once Qt ran (kiosk/ui/exit.py): on Wayland, every exit handler but
PySide's, whose teardown of the QApplication can deadlock in Qt Wayland; elsewhere Python's exit.

Run in a process of its own (the handlers of this test process must not run): the platform's name
is set by the script, Qt itself runs offscreen. A Qt post routine tells whether the QApplication
was torn down.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = """
import atexit, sys
from pathlib import Path
from PySide6 import QtCore
from PySide6.QtWidgets import QApplication
import kiosk.ui.exit as leaving

out = Path(sys.argv[1])
app = QApplication([])
QtCore.qAddPostRoutine(lambda: out.joinpath("torn-down").write_text("yes"))
atexit.register(lambda: out.joinpath("handler-ran").write_text("yes"))


class Platform:
    @staticmethod
    def platformName() -> str:
        return sys.argv[2]


leaving.QGuiApplication = Platform
leaving.leave_after_qt(3)
"""


@pytest.mark.parametrize(
    ("platform", "torn_down"),
    [("wayland", False), ("wayland-egl", False), ("offscreen", True), ("xcb", True)],
)
def test_the_exit_code_and_every_handler_and_qt_s_teardown_only_off_wayland(
    tmp_path: Path, platform: str, torn_down: bool
) -> None:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(tmp_path), platform],
        env={"QT_QPA_PLATFORM": "offscreen", "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 3, done.stderr
    assert (tmp_path / "handler-ran").is_file(), done.stderr  # the station's own handlers still run
    assert (tmp_path / "torn-down").is_file() is torn_down, done.stderr
