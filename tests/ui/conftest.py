"""A real station window on real packs, driven by key events and clicks."""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path

import pytest
from PySide6.QtCore import QEventLoop, QRect, Qt, QThread
from PySide6.QtGui import QKeyEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QWidget
from pytestqt.qtbot import QtBot

from kiosk.core.errors import StorageError
from kiosk.core.log.challenge import ChallengeEntry, ChallengeLog
from kiosk.core.station.config import Division, Languages, StationConfig, Verifier, load_divisions
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
        app = QApplication.instance()
        if self.window is not None and app is not None and QThread.currentThread() is app.thread():
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


SETTLE_S = 30.0  # patience for judge mode's worker threads (no timing is asserted)


def settle(window: StationWindow) -> None:
    """Let judge mode's answers arrive: what a judge sees once the storage has answered.

    Judge mode reads and writes storage on worker threads (kiosk.ui.judge.work), and a key that
    asks for something is answered a few milliseconds later, through the event loop.
    """
    judge = window._judge  # only a judge mode already built can be waiting
    deadline = time.monotonic() + SETTLE_S
    while judge is not None and judge.busy:
        assert time.monotonic() < deadline, "judge mode's storage never answered"
        QApplication.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 10)
        time.sleep(0.001)


def send_key(
    window: StationWindow, key: Qt.Key, text: str = "", modifiers: Qt.KeyboardModifier | None = None
) -> None:
    """One key press, handled; judge mode's answers may still be on their way."""
    mods = Qt.KeyboardModifier.NoModifier if modifiers is None else modifiers
    QApplication.sendEvent(window, QKeyEvent(QKeyEvent.Type.KeyPress, key, mods, text))


def press(
    window: StationWindow, key: Qt.Key, text: str = "", modifiers: Qt.KeyboardModifier | None = None
) -> None:
    """One key press, and whatever judge mode asked the storage for in answer to it."""
    send_key(window, key, text, modifiers)
    settle(window)


def click(window: StationWindow, widget: QWidget) -> None:
    """Tap a button on the screen, and let judge mode answer it."""
    QTest.mouseClick(widget, Qt.MouseButton.LeftButton)
    settle(window)


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


@dataclass
class JudgeRig(Rig):
    storage: StationStorage
    clock: list[float]

    def advance(self, seconds: float) -> None:
        self.clock[0] += seconds
        self.window.judge.tick()
        settle(self.window)


StationFactory = Callable[..., Rig]
JudgeFactory = Callable[..., JudgeRig]


@pytest.fixture
def make_station(qtbot: QtBot, pack: Path, tmp_path: Path) -> Iterator[Callable[..., JudgeRig | Rig]]:
    """A shown window on real packs; with ``storage``, over real SQLite storage in tmp_path/data."""
    opened: list[StationStorage] = []

    def factory(
        *,
        storage: bool,
        database_url: str | None = None,
        pin: str | None = PIN,
        log: MemoryLog | None = None,
        divisions: tuple[Division, ...] | None = None,
        size: tuple[int, int] = (1024, 600),
        verifier: Verifier | None = None,
        languages: Languages | None = None,
        **changes: object,
    ) -> JudgeRig | Rig:
        config = StationConfig(divisions=divisions or (Division("Open", pack),), station_name="Station 7")
        config = replace(config, **changes)  # type: ignore[arg-type]
        memory = log if log is not None else MemoryLog()
        stored: StationStorage | None = None
        if storage:
            data = tmp_path / "data"
            stored = open_station_storage(data, database_url, forward_in_background=False)
            opened.append(stored)
            if pin is not None:
                stored.judge_access.set_pin(pin)
        chosen_log: ChallengeLog = memory if stored is None or log is not None else stored.log
        loaded = load_divisions(config, verifier)
        controller = StationController(
            config, loaded, lambda: chosen_log, verifier=verifier, languages=languages
        )
        clock = [1000.0]
        if stored is None:
            window = StationWindow(controller)
        else:
            window = StationWindow(
                controller, lambda: stored, tmp_path / "data", judge_clock=lambda: clock[0]
            )
        controller.setParent(window)  # its timers die with the window
        memory.window = window
        qtbot.addWidget(window)
        window.setGeometry(QRect(0, 0, *size))
        window.show()
        qtbot.waitExposed(window)
        if stored is None:
            return Rig(window, controller, memory)
        return JudgeRig(window, controller, memory, stored, clock)

    yield factory
    for stored in opened:
        stored.close()


@pytest.fixture
def station(make_station: Callable[..., Rig]) -> StationFactory:
    """``station(divisions=..., rules=..., size=(w, h), touch=False)``: a shown window and its log."""
    return functools.partial(make_station, storage=False)


@pytest.fixture
def judge_station(make_station: Callable[..., JudgeRig]) -> JudgeFactory:
    """``judge_station(pin=..., touch=..., ...)``: a station whose storage is real, in tmp_path/data."""
    return functools.partial(make_station, storage=True)
