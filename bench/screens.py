"""Render every station screen to PNG at 1920x1080 and 1024x600 (into docs/screenshots/).

    QT_QPA_PLATFORM=offscreen .venv/bin/python bench/screens.py [OUT_DIR]

Drives the real window through the real controller with key events, on the embedded pack.
"""

from __future__ import annotations

import os
import sys
from dataclasses import replace
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QApplication

from kiosk.core.config import Division, LoadedDivision, StationConfig, load_divisions
from kiosk.core.errors import StorageError
from kiosk.core.record import ChallengeEntry, ChallengeLog
from kiosk.core.rules import PenaltyParty, ProfileKind, RuleProfile
from kiosk.core.session import Typed
from kiosk.paths import default_pack_path
from kiosk.ui.controller import StationController
from kiosk.ui.window import StationWindow

SIZES = ((1920, 1080), (1024, 600))
ROOT = Path(__file__).resolve().parent.parent


class MemoryLog:
    def __init__(self) -> None:
        self.entries: list[ChallengeEntry] = []

    def record(self, entry: ChallengeEntry) -> None:
        self.entries.append(entry)


class BrokenLog:
    def record(self, entry: ChallengeEntry) -> None:
        raise StorageError("the disk is full")


def key(window: StationWindow, qt_key: Qt.Key, text: str = "") -> None:
    window.keyPressEvent(QKeyEvent(QKeyEvent.Type.KeyPress, qt_key, Qt.KeyboardModifier.NoModifier, text))


RIGHT = "\x1c"
ESCAPE = "\x1b"
SPECIAL_KEYS = {"\t": Qt.Key.Key_Tab, RIGHT: Qt.Key.Key_Right, ESCAPE: Qt.Key.Key_Escape}


def drive(window: StationWindow, keys: str) -> None:
    """Type ``keys``; tab, escape and the file separator (for the right arrow) press those keys."""
    for char in keys:
        if char in SPECIAL_KEYS:
            key(window, SPECIAL_KEYS[char], char if char == "\t" else "")
        else:
            window.controller.dispatch(Typed(char))


def station(
    config: StationConfig, divisions: tuple[LoadedDivision, ...], size: tuple[int, int], log: ChallengeLog
) -> StationWindow:
    controller = StationController(config, divisions, lambda: log)
    window = StationWindow(controller)
    window.setGeometry(QRect(0, 0, *size))
    window.show()
    return window


def main(out: Path) -> None:
    app = QApplication.instance() or QApplication(sys.argv)
    out.mkdir(parents=True, exist_ok=True)
    pack = default_pack_path()
    single = StationConfig(
        divisions=(Division("Open", pack),),
        station_name="Station 1",
        rules=RuleProfile(ProfileKind.PENALTY, penalty_party=PenaltyParty.CHALLENGER_LOSES),
    )
    double = StationConfig(
        divisions=(
            Division("Open", pack, second_opinion_pack=pack),
            Division("Schools", pack, youth_rules=True, colour="#7a3db8"),
        ),
        station_name="Station 2",
        rules=RuleProfile(ProfileKind.DOUBLE),
    )
    eight = (
        "8 overcommitment overrefinement interconnecting misadventurous "
        "overspeculated understatement overstimulates presidentships"
    )
    shots: list[tuple[str, StationConfig, ChallengeLog, str]] = [
        ("01-ready", single, MemoryLog(), ""),
        ("02-ready-divisions-school", double, MemoryLog(), RIGHT),
        ("03-entry-typing", single, MemoryLog(), "3quixotry zax"),
        ("04-entry-refused-character", single, MemoryLog(), "2caf\u00e9"),
        ("05-confirm", single, MemoryLog(), "3quixotry zax quiz"),
        ("06-confirm-eight-long-words", single, MemoryLog(), eight),
        ("07-verdict-acceptable", single, MemoryLog(), "3quixotry zax quiz\t"),
        ("08-verdict-unacceptable", single, MemoryLog(), "3quixotry zaxx quiz\t"),
        ("09-verdict-second-opinion", double, MemoryLog(), "2cat dogs\t"),
        ("10-verdict-eight-long-words", single, MemoryLog(), eight + "\t"),
        ("11-station-fault", single, BrokenLog(), "1cat\t"),
        ("12-exit-confirmation", single, MemoryLog(), ESCAPE),
        ("13-touch-ready", replace(double, touch=True), MemoryLog(), ""),
        ("14-touch-entry", replace(single, touch=True), MemoryLog(), "2cat do"),
    ]
    loaded: dict[int, tuple[LoadedDivision, ...]] = {}
    for name, config, log, keys in shots:
        divisions = loaded.setdefault(id(config.divisions), load_divisions(config))
        for width, height in SIZES:
            window = station(config, divisions, (width, height), log)
            drive(window, keys)
            app.processEvents()
            path = out / f"{name}-{width}x{height}.png"
            window.grab().save(str(path))
            window.controller.lockout_timer.stop()
            window.controller.verdict_timer.stop()
            window.controller.idle_timer.stop()
            window.deleteLater()
            print(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)
    app.processEvents()


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "screenshots")
