"""Judge mode's frame: the title, the idle lock, the hint and the pages, over the judge-mode flow.

The flow is ``kiosk.core.judge``; this view only forwards keys, taps and the clock to it, paints
the state it gets back and carries out its effects: a request on the worker's threads
(``kiosk.ui.judge.work``), an order on the station's controller. It reads no storage itself.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import datetime
from pathlib import Path

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QStackedWidget, QWidget

from kiosk.core.judge import (
    REMOVABLE_MEDIA_ROOTS,
    ApplyChoice,
    Closed,
    Effect,
    Event,
    ExitStation,
    Journal,
    JudgePage,
    JudgeSession,
    JudgeState,
    Key,
    Leave,
    Moment,
    Opened,
    Pressed,
    Request,
    SettleKept,
    Station,
    StationChanged,
    TakeReload,
    Ticked,
    Touched,
    Typed,
    start,
    transition,
)
from kiosk.core.play.session import Screen
from kiosk.core.words.language import Catalogue, marked
from kiosk.ui import theme
from kiosk.ui.controller import StationController
from kiosk.ui.judge.counts import CountsPage
from kiosk.ui.judge.door import DoorPage
from kiosk.ui.judge.export import ExportPage
from kiosk.ui.judge.leave import ExitPage
from kiosk.ui.judge.menu import MENU_LABELS, MenuPage
from kiosk.ui.judge.packs import PacksPage
from kiosk.ui.judge.page import Page, format_wait
from kiosk.ui.judge.recheck import RecheckPage
from kiosk.ui.judge.settings import SettingsPage
from kiosk.ui.judge.status import StatusPage
from kiosk.ui.judge.work import StorageFactory, Worker, perform, writable_mounts
from kiosk.ui.layout import View, row, spacer, stack
from kiosk.ui.theme import FitButton, FitLabel

__all__ = ["JudgeView", "MonotonicClock"]

MonotonicClock = Callable[[], float]
TICK_MS = 1000
LOOKING_AFTER_MS = 250  # an answer awaited this long is said on screen ("Looking…"); sooner, it flickers
A = Qt.AlignmentFlag
K = Qt.Key
_KEYS: dict[int, Key] = {
    K.Key_Return: Key.ENTER,
    K.Key_Enter: Key.ENTER,
    K.Key_Escape: Key.ESCAPE,
    K.Key_Backspace: Key.BACKSPACE,
    K.Key_Up: Key.UP,
    K.Key_Down: Key.DOWN,
    K.Key_Left: Key.LEFT,
    K.Key_Right: Key.RIGHT,
    K.Key_PageUp: Key.PAGE_UP,
    K.Key_PageDown: Key.PAGE_DOWN,
}
# The keys a judge may hold down to repeat: moving through a list or a setting, and erasing. Any
# other key acts once per press: a held digit never types a PIN of 1111, a held Esc never leaves
# unsaved settings past their warning, a held 7 never goes on to start a challenge.
_REPEATING = frozenset({Key.UP, Key.DOWN, Key.LEFT, Key.RIGHT, Key.PAGE_UP, Key.PAGE_DOWN, Key.BACKSPACE})

# The frame's words: the title over each page and the lock's countdown.
TITLE = marked("Judge mode")
DOOR_TITLE = marked("Judge mode \u2014 judges only")
BACK = marked("\u25c0 Menu")


def _title(page: JudgePage, t: Catalogue) -> str:
    if page is JudgePage.DOOR:
        return t.text(DOOR_TITLE)
    if page in (JudgePage.MENU, JudgePage.EXIT):  # the exit page's question names it already
        return t.text(TITLE)
    return f"{t.text(TITLE)} \u2014 {t.text(MENU_LABELS[page])}"


def _locks_in(seconds: float, t: Catalogue) -> str:
    return t.text("Locks in {time}", time=format_wait(seconds))


def _now_local() -> datetime:
    return datetime.now().astimezone()


class JudgeView(View):
    """Judge mode, from the PIN door to the exit; shown in the station window's stack."""

    finished = Signal()  # back to the station (chosen, cancelled or locked)
    exit_confirmed = Signal()  # the judge confirmed leaving the station

    def __init__(
        self,
        controller: StationController,
        storage: StorageFactory | None,
        data_dir: Path,
        *,
        touch: bool,
        clock: MonotonicClock = time.monotonic,
        set_pin_command: str = "kiosk set-pin",
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("judge")
        self.controller = controller
        self.touch_mode = touch
        self._storage = storage
        self._clock = clock
        self._list_mounts: Callable[[], list[Path]] = writable_mounts
        self.state: JudgeState = start(
            self._station(),
            data_dir,
            self._moment(),
            idle_lock_s=float(controller.config.judge.idle_lock_seconds),
            media_roots=REMOVABLE_MEDIA_ROOTS,
        )
        self.looking = False  # an answer has been awaited long enough to say so
        self.worker = Worker(self._perform, self)
        self.worker.answered.connect(self._on_answered)
        self.catalogue = controller.languages.station  # judges read the station's language
        self.back = FitButton(self.catalogue.text(BACK))
        self.back.setObjectName("judge-back")
        self.back.clicked.connect(self._on_back)
        self.back_gap = spacer()  # keeps the title clear of the button
        self.title = FitLabel(fill=0.7, bold=True, align=A.AlignLeft | A.AlignVCenter)
        self.title.setObjectName("judge-title")
        self.lock = FitLabel(fill=0.55, colour=theme.DIM_TEXT, align=A.AlignRight | A.AlignVCenter)
        self.lock.setObjectName("judge-lock")
        self.hint = FitLabel(fill=0.55, colour=theme.DIM_TEXT)
        self.hint.setObjectName("judge-hint")
        send = self.send
        self.door = DoorPage(send, touch=touch, set_pin_command=set_pin_command)
        self.menu = MenuPage(send, touch=touch)
        self.recheck = RecheckPage(send, touch=touch)
        self.packs = PacksPage(send, touch=touch)
        self.settings = SettingsPage(send, touch=touch)
        self.counts = CountsPage(send, touch=touch)
        self.export = ExportPage(send, touch=touch)
        self.status = StatusPage(send, touch=touch)
        self.exit_page = ExitPage(send, touch=touch)
        self.page_for: dict[JudgePage, Page] = {
            JudgePage.DOOR: self.door,
            JudgePage.MENU: self.menu,
            JudgePage.RECHECK: self.recheck,
            JudgePage.PACKS: self.packs,
            JudgePage.SETTINGS: self.settings,
            JudgePage.COUNTS: self.counts,
            JudgePage.EXPORT: self.export,
            JudgePage.STATUS: self.status,
            JudgePage.EXIT: self.exit_page,
        }
        self.pages = QStackedWidget()
        for page in self.page_for.values():
            page.catalogue = self.catalogue
            self.pages.addWidget(page)
        stack(
            self,
            [
                (row((self.back, 2), (self.back_gap, 1), (self.title, 11), (self.lock, 4), margin=2), 9),
                (self.pages, 84),
                (self.hint, 6),
                (spacer(), 1),
            ],
        )
        self.ticker = QTimer(self)
        self.ticker.setInterval(TICK_MS)
        self.ticker.timeout.connect(self.tick)
        self._slow = QTimer(self)
        self._slow.setSingleShot(True)
        self._slow.setInterval(LOOKING_AFTER_MS)
        self._slow.timeout.connect(self._on_slow)
        for signal in (
            controller.state_changed,
            controller.challenge_recorded,
            controller.challenge_unrecorded,
            controller.packs_swapped,
        ):
            signal.connect(self._on_station_changed)

    # -- what the view reads of the world ----------------------------------------------------------

    def _moment(self) -> Moment:
        return Moment(self._clock(), _now_local())

    def _station(self) -> Station:
        controller = self.controller
        return Station(
            config=controller.config,
            divisions=controller.divisions,
            choice=controller.choice,
            kept=tuple(controller.unrecorded),
            last_fault=controller.last_fault,
            fault_shown=controller.state.screen is Screen.FAULT,
            packs_verified_at=controller.packs_verified_at,
            reload_waiting=controller.pending_divisions is not None,
            verifier=controller.verifier,
        )

    def _perform(self, request: Request) -> Event:  # on a worker thread
        return perform(request, self._storage, self.controller.open_log, self._list_mounts)

    def use_media(self, roots: Sequence[Path], list_mounts: Callable[[], list[Path]]) -> None:
        """Look for USB sticks under ``roots`` with ``list_mounts`` instead of the machine's own
        mounts (a demonstration, or a test standing in for a stick)."""
        self._list_mounts = list_mounts
        self.state = replace(self.state, export=replace(self.state.export, roots=tuple(roots)))

    # -- the flow ----------------------------------------------------------------------------------

    @property
    def session(self) -> JudgeSession | None:
        return self.state.session

    @property
    def current(self) -> Page:
        page = self.pages.currentWidget()
        assert isinstance(page, Page)
        return page

    @property
    def busy(self) -> bool:
        """Whether an answer is still awaited."""
        return self.worker.under_way > 0

    def dispatch(self, event: Event) -> None:
        step = transition(self.state, event)
        self.state = step.state
        self._paint()
        self._carry_out(step.effects)

    def send(self, event: Event) -> None:
        """A tap on a page: the judge is there (the idle lock starts again), then what was tapped."""
        self.dispatch(Touched(self._moment()))
        self.dispatch(event)

    def open(self) -> None:
        """Esc or the judge chord (or the Judge button) on the station: the PIN door."""
        self.dispatch(StationChanged(self._station()))
        self.dispatch(Opened(self._moment()))
        self.ticker.start()

    def finish(self) -> None:
        """The station closes judge mode (it cannot serve players now)."""
        self.dispatch(Closed())

    def tick(self) -> None:
        """Every second: the idle lock, the countdowns, the USB sticks."""
        self.dispatch(Ticked(self._moment()))

    def handle_key(self, event: QKeyEvent, *, repeated: bool = False) -> None:
        """A key press; ``repeated``: the keyboard's auto-repeat of a key held down."""
        key = _KEYS.get(event.key())
        text = event.text()
        held = (repeated or event.isAutoRepeat()) and key not in _REPEATING
        if held or (key is None and not (text and text.isprintable())):
            self.dispatch(Touched(self._moment()))  # a key with no use here still keeps judge mode open
            return
        self.send(Pressed(key) if key is not None else Typed(text))

    def _on_back(self) -> None:
        self.send(Pressed(Key.ESCAPE))

    def _on_station_changed(self, _what: object = None) -> None:
        self.dispatch(StationChanged(self._station()))

    def _carry_out(self, effects: tuple[Effect, ...]) -> None:
        changed = False
        for effect in effects:
            if isinstance(effect, Request):
                if not self.busy:
                    self._slow.start()
                self.worker.start(effect)
            elif isinstance(effect, Journal):
                print(effect.line, file=sys.stderr, flush=True)
            elif isinstance(effect, Leave):
                self.ticker.stop()
                self.finished.emit()
                if effect.clear_fault and self.controller.state.screen is Screen.FAULT:
                    self.controller.clear_fault()
            elif isinstance(effect, ExitStation):
                self.exit_confirmed.emit()
            elif isinstance(effect, ApplyChoice):
                self.controller.apply_choice(effect.choice)
                changed = True
            elif isinstance(effect, TakeReload):
                self.controller.take_reload(effect.result)
                changed = True
            elif isinstance(effect, SettleKept):
                self.controller.settle_kept(effect.recorded, effect.problem)
                changed = True
        if changed:
            self.dispatch(StationChanged(self._station()))

    def _on_answered(self, answer: Event) -> None:
        if not self.busy:
            self._slow.stop()
            self.looking = False
        self.dispatch(answer)

    def _on_slow(self) -> None:
        if self.busy:
            self.looking = True
            self._paint()

    # -- painting ------------------------------------------------------------------------------------

    def _paint(self) -> None:
        state = self.state
        if state.page is None:
            self.lock.setText("")
            return
        page = self.page_for[state.page]
        if self.pages.currentWidget() is not page:
            self.pages.setCurrentWidget(page)
        self.title.setText(_title(state.page, self.catalogue))
        self.hint.setText(self.catalogue.text(page.touch_hint if self.touch_mode else page.hint))
        # a way back for a judge with no keyboard: the door has Cancel, the menu "Back to the station"
        self.back.setVisible(state.page not in (JudgePage.DOOR, JudgePage.MENU))
        self.back_gap.setVisible(self.back.isVisibleTo(self))
        session = state.session
        remaining = 0.0 if session is None else session.remaining_s(state.now.monotonic_s)
        self.lock.setText("" if session is None else _locks_in(remaining, self.catalogue))
        page.show_state(state, looking=self.looking)
