"""A real station window on real packs, driven by key events and clicks."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path

import pytest
from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from kiosk.core.config import Division, StationConfig, Timings, Verifier, load_divisions
from kiosk.core.errors import StorageError
from kiosk.core.record import ChallengeEntry
from kiosk.storage import StationStorage, open_station_storage
from kiosk.ui.controller import StationController
from kiosk.ui.window import StationWindow
from tests.conftest import PackFactory

PIN = "482613"
WORDS = ["CAT", "CATS", "DOG", "DOGS", "QI", "ZA", "MMMMMMMMMMMMMMM"]


class MemoryLog:
    """A log that keeps entries in a list, and can be told to fail."""

    def __init__(self) -> None:
        self.entries: list[ChallengeEntry] = []
        self.failing = False
        self.seen_before_record: list[str] = []
        self.window: StationWindow | None = None

    def record(self, entry: ChallengeEntry) -> None:
        if self.window is not None:
            current = self.window.stack.currentWidget()
            self.seen_before_record.append(current.objectName() if current is not None else "")
        if self.failing:
            raise StorageError("the disk is full")
        self.entries.append(entry)


@dataclass
class Rig:
    window: StationWindow
    controller: StationController
    log: MemoryLog


StationFactory = Callable[..., Rig]


def press(
    window: StationWindow, key: Qt.Key, text: str = "", modifiers: Qt.KeyboardModifier | None = None
) -> None:
    mods = Qt.KeyboardModifier.NoModifier if modifiers is None else modifiers
    QApplication.sendEvent(window, QKeyEvent(QKeyEvent.Type.KeyPress, key, mods, text))


def type_text(window: StationWindow, text: str) -> None:
    """Type any text, one key event per character (safe for non-ASCII, unlike keyClicks)."""
    for char in text:
        key = Qt.Key(ord(char.upper())) if char.isascii() and char.isalnum() else Qt.Key.Key_unknown
        if char == " ":
            key = Qt.Key.Key_Space
        press(window, key, char)


def tab(window: StationWindow) -> None:
    press(window, Qt.Key.Key_Tab, "\t")


@pytest.fixture
def pack(make_pack: PackFactory) -> Path:
    return make_pack(WORDS, youth=["DOGS"], name="Club list", edition="2026")


@pytest.fixture
def station(qtbot: QtBot, pack: Path, make_pack: PackFactory) -> StationFactory:
    """``station(divisions=..., rules=..., size=(w, h), touch=False)``: a shown window and its log."""

    def factory(
        *,
        divisions: tuple[Division, ...] | None = None,
        size: tuple[int, int] = (1024, 600),
        log: MemoryLog | None = None,
        verifier: Verifier | None = None,
        **changes: object,
    ) -> Rig:
        config = StationConfig(
            divisions=divisions or (Division("Open", pack),),
            station_name="Station 7",
            timings=Timings(),
        )
        config = replace(config, **changes)  # type: ignore[arg-type]
        memory = log if log is not None else MemoryLog()
        loaded = load_divisions(config, verifier)
        controller = StationController(config, loaded, lambda: memory, verifier=verifier)
        window = StationWindow(controller)
        controller.setParent(window)  # its timers die with the window
        memory.window = window
        qtbot.addWidget(window)
        window.setGeometry(QRect(0, 0, *size))
        window.show()
        qtbot.waitExposed(window)
        return Rig(window, controller, memory)

    return factory


@dataclass
class JudgeRig:
    window: StationWindow
    controller: StationController
    storage: StationStorage
    clock: list[float]

    def advance(self, seconds: float) -> None:
        self.clock[0] += seconds
        self.window.judge.tick()


JudgeFactory = Callable[..., JudgeRig]


@pytest.fixture
def judge_station(qtbot: QtBot, pack: Path, tmp_path: Path) -> Iterator[JudgeFactory]:
    """``judge_station(pin=..., touch=..., ...)``: a station whose storage is real, in tmp_path/data."""
    opened: list[StationStorage] = []

    def factory(
        *,
        pin: str | None = PIN,
        log: MemoryLog | None = None,
        divisions: tuple[Division, ...] | None = None,
        size: tuple[int, int] = (1024, 600),
        verifier: Verifier | None = None,
        **changes: object,
    ) -> JudgeRig:
        data = tmp_path / "data"
        storage = open_station_storage(data, forward_in_background=False)
        opened.append(storage)
        if pin is not None:
            storage.judge_access.set_pin(pin)
        config = StationConfig(divisions=divisions or (Division("Open", pack),), station_name="Station 7")
        config = replace(config, **changes)  # type: ignore[arg-type]
        chosen_log = storage.log if log is None else log
        loaded = load_divisions(config, verifier)
        controller = StationController(config, loaded, lambda: chosen_log, verifier=verifier)
        clock = [1000.0]
        window = StationWindow(controller, lambda: storage, data, judge_clock=lambda: clock[0])
        controller.setParent(window)
        qtbot.addWidget(window)
        window.setGeometry(QRect(0, 0, *size))
        window.show()
        qtbot.waitExposed(window)
        return JudgeRig(window, controller, storage, clock)

    yield factory
    for storage in opened:
        storage.close()
