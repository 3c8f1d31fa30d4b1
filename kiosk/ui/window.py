"""The station window: full screen, frameless, every key translated into a session event.

All window flags are set here, in one place. The window cannot be closed by a close event,
Alt+F4 or Ctrl+Q/W: the only way out is judge mode (PIN first), whose "Exit the station" asks for
a confirmation. While judge mode is shown, every key goes to it and none to the session.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QCloseEvent, QKeyEvent, QPaintEvent
from PySide6.QtWidgets import QStackedWidget, QVBoxLayout, QWidget

from kiosk.core.edition import edition_badge
from kiosk.core.packs.pack import pack_title
from kiosk.core.play.adjudication import Verdict
from kiosk.core.play.session import Event, Repeated, Screen, SessionState
from kiosk.core.wording import Text
from kiosk.core.words.language import Catalogue, english
from kiosk.ui import theme
from kiosk.ui.blank import Blank
from kiosk.ui.controller import StationController
from kiosk.ui.keymap import KEY_EVENTS, REPEAT_KEY, HeldKeys, is_shortcut, key_to_event, typed_text
from kiosk.ui.players.choice import DivisionView, TableView
from kiosk.ui.players.entry import EntryView
from kiosk.ui.players.fault import FaultView
from kiosk.ui.players.header import HeaderBar
from kiosk.ui.players.ready import DivisionCard, ReadyView
from kiosk.ui.players.verdict import VerdictView
from kiosk.ui.speaker import Speaker

if TYPE_CHECKING:  # judge mode is imported when first built, after the first frame
    from kiosk.ui.judge import JudgeView, MonotonicClock, StorageFactory
    from kiosk.ui.notready import NotReadyView

__all__ = ["StationWindow"]

APP_TITLE = "Challenge station"
HEADER_STRETCH = 9
BODY_STRETCH = 91


def window_title(station_name: str) -> str:
    """The window title, e.g. "Challenge station — Table 3" (the default name is not said twice)."""
    if station_name.casefold() == APP_TITLE.casefold():
        return APP_TITLE
    return f"{APP_TITLE} \u2014 {station_name}"


class StationWindow(QWidget):
    """Shows the controller's state; the only widget that takes the keyboard."""

    first_frame_painted = Signal()
    left = Signal()  # the station was left from judge mode

    def __init__(
        self,
        controller: StationController,
        storage: StorageFactory | None = None,
        data_dir: Path | None = None,
        *,
        judge_clock: MonotonicClock = time.monotonic,
        set_pin_command: str = "kiosk set-pin",
        parent: QWidget | None = None,
    ) -> None:
        """``storage`` opens (or returns) the station's storage: the same one the log records into."""
        super().__init__(parent)
        self.controller = controller
        self._storage = storage
        self._data_dir = data_dir if data_dir is not None else Path.cwd()
        self._judge_clock = judge_clock
        self._set_pin_command = set_pin_command
        config = controller.config
        self.setWindowTitle(window_title(config.station_name))
        self.setWindowFlags(Qt.WindowType.Window | Qt.WindowType.FramelessWindowHint)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        theme.paint_background(self, theme.BACKGROUND)
        self.header = HeaderBar()
        self.ready = ReadyView(touch=config.touch)
        self.stack = QStackedWidget()
        self.stack.addWidget(self.ready)
        self.ready.tapped.connect(self._on_tapped)
        self._entry: EntryView | None = None
        self._division: DivisionView | None = None
        self._table: TableView | None = None
        self._verdict: VerdictView | None = None
        self._fault: FaultView | None = None
        self._judge: JudgeView | None = None
        self._notice: NotReadyView | None = None
        self._blanks: list[Blank] = []  # the players' screens as built: what a finished play leaves
        self.not_ready = False  # a notice is shown instead of the players' screens: no key is heard
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.header, HEADER_STRETCH)
        layout.addWidget(self.stack, BODY_STRETCH)
        self._painted = False
        self._leaving = False
        self.judging = False
        self._pressed_on: Screen | None = None  # where the key now held (if any) was pressed
        self._held = HeldKeys()
        controller.state_changed.connect(self._on_state_changed)
        # after the screens (connected first): each step is said once its screen shows it
        self.speaker = Speaker(controller, self, aloud=config.access.speech, parent=self)
        controller.set_judge_handler(self.open_judge_mode)
        self.show_state(controller.state)

    # -- the screens behind the ready screen, built after the first frame (or when first needed) --

    @property
    def entry(self) -> EntryView:
        if self._entry is None:
            self._entry = EntryView(touch=self.controller.config.touch)
            self._entry.tapped.connect(self._on_tapped)
            self._blanks.append(Blank.of(self._entry))
            self.stack.addWidget(self._entry)
        return self._entry

    @property
    def division(self) -> DivisionView:
        if self._division is None:
            self._division = DivisionView(touch=self.controller.config.touch)
            self._division.tapped.connect(self._on_tapped)
            self._blanks.append(Blank.of(self._division))
            self.stack.addWidget(self._division)
        return self._division

    @property
    def table(self) -> TableView:
        if self._table is None:
            self._table = TableView(touch=self.controller.config.touch)
            self._table.tapped.connect(self._on_tapped)
            self._blanks.append(Blank.of(self._table))
            self.stack.addWidget(self._table)
        return self._table

    @property
    def verdict(self) -> VerdictView:
        if self._verdict is None:
            self._verdict = VerdictView(touch=self.controller.config.touch)
            self._verdict.tapped.connect(self._on_tapped)
            self._blanks.append(Blank.of(self._verdict))
            self.stack.addWidget(self._verdict)
        return self._verdict

    @property
    def fault(self) -> FaultView:
        if self._fault is None:
            self._fault = FaultView(touch=self.controller.config.touch)
            self._fault.tapped.connect(self._on_tapped)
            self.stack.addWidget(self._fault)
        return self._fault

    @property
    def judge(self) -> JudgeView:
        if self._judge is None:
            from kiosk.ui.judge import JudgeView  # its modules cost the ready frame ~10 ms: not before it

            self._judge = JudgeView(
                self.controller,
                self._storage,
                self._data_dir,
                touch=self.controller.config.touch,
                clock=self._judge_clock,
                set_pin_command=self._set_pin_command,
            )
            self._judge.finished.connect(self._on_judge_finished)
            self._judge.exit_confirmed.connect(self.leave)
            # Not in the window until a judge opens it: closed, judge mode is no part of the
            # players' window, and no program reading its accessibility tree finds a page of it.
        return self._judge

    @property
    def notice(self) -> NotReadyView:
        if self._notice is None:
            from kiosk.ui.notready import NotReadyView

            self._notice = NotReadyView()
            self.stack.addWidget(self._notice)
        return self._notice

    def show_not_ready(self, problem: Text, *, command: str = "", how: str = "") -> None:
        """Serve no player until ``serve_again``: "Station not ready — call a judge", and why."""
        notice = self.notice
        notice.show_problem(problem, command=command, how=how, t=self.controller.languages.station)
        if self.judging:
            self.judge.finish()
        if not self.not_ready:  # said when it stops serving, not at each check that finds it still so
            self.speaker.not_ready(self.controller.languages.station)
        self.not_ready = True
        self.stack.setCurrentWidget(notice)

    def serve_again(self) -> None:
        """What stopped the station is fixed: back to the players' screens."""
        if self.not_ready:
            self.not_ready = False
            self.show_state(self.controller.state)

    def build_screens(self) -> None:
        """Build every screen now, so that the first Tab pays for nothing but the ruling."""
        views: list[QWidget] = [self.entry, self.verdict, self.fault, self.judge]
        if len(self.controller.divisions) > 1:
            views.append(self.division)
        if self.controller.config.ask_table:
            views.append(self.table)
        for view in views:
            view.resize(self.stack.size())

    # -- showing ---------------------------------------------------------------------------------

    def _card(self, index: int, t: Catalogue) -> DivisionCard:
        loaded = self.controller.divisions[index]
        info = loaded.lexicon.info
        division = loaded.division
        return DivisionCard(
            name=division.name,
            colour=division.colour,
            lexicon=info.name,
            edition=info.edition,
            trust=loaded.lexicon.trust.label_in(t),
            youth=division.youth_rules,
            badge=edition_badge(loaded.recognition, division.youth_rules, info.name, t),
        )

    def serving(self) -> str:
        """The divisions served now and what each rules with, in English for the service manager's
        status line (``systemctl status``): "Open on ENABLE demo (enable1)"."""
        words = english()
        cards = (self._card(i, words) for i in self.controller.state.served)
        return "; ".join(f"{card.name} on {card.described_in(words)}" for card in cards)

    @property
    def several(self) -> bool:
        """Whether the configuration has several divisions: then each screen names the chosen one."""
        return len(self.controller.divisions) > 1

    def _show_header(self, state: SessionState) -> None:
        station = self.controller.config.station_name
        if state.division is None:  # not chosen yet: no division's colour, every division's name
            names = [self.controller.divisions[i].division.name for i in state.served]
            self.header.show_divisions(names, station, state.language)
            return
        division = self.controller.divisions[state.division].division
        self.header.show_division(division.name, division.colour, station, state.language)

    def show_state(self, state: SessionState) -> None:
        if self.not_ready:
            return
        self._show_header(state)
        if self.judging:  # judge mode stays in front; the header follows a change of divisions
            return
        screen = state.screen
        if screen is Screen.READY:
            self._forget_play()
            t = state.language
            self.ready.show_ready([self._card(i, t) for i in state.served], several=self.several, t=t)
            self.stack.setCurrentWidget(self.ready)
        elif screen is Screen.TABLE:
            self.table.show_table(state)
            self.stack.setCurrentWidget(self.table)
        elif screen is Screen.DIVISION:
            self.division.show_choices(state, [(i, self._card(i, state.language)) for i in state.served])
            self.stack.setCurrentWidget(self.division)
        elif screen in (Screen.ENTRY, Screen.CONFIRM, Screen.JUDGING):
            if screen is not Screen.JUDGING:
                name = self.controller.division.division.name if self.several else None
                self.entry.show_entry(state, name)
            self.stack.setCurrentWidget(self.entry)
        elif screen is Screen.VERDICT and state.ruling is not None:
            self._show_verdict(state)
        elif screen is Screen.FAULT:
            self.fault.speak(state.language)
            self.stack.setCurrentWidget(self.fault)

    def _show_verdict(self, state: SessionState) -> None:
        assert state.ruling is not None
        loaded = self.controller.division
        info = loaded.lexicon.info
        ruling = state.ruling
        t = state.language
        youth = " \u00b7 " + t.text("school rules") if ruling.youth_rules else ""
        second = ""
        if loaded.second_opinion is not None and self.controller.second_opinion is not None:
            other = loaded.second_opinion.info
            named = pack_title(other.name, other.edition)
            if self.controller.second_opinion is Verdict.ACCEPTABLE:
                second = t.text("Second opinion, {lexicon}: ACCEPTABLE", lexicon=named)
            else:
                second = t.text("Second opinion, {lexicon}: UNACCEPTABLE", lexicon=named)
        outcome = self.controller.config.rules.outcome(ruling.verdict, len(ruling.words), t)
        self.verdict.show_verdict(
            ruling.verdict,
            ruling.words,
            state.max_length,
            f"{pack_title(info.name, info.edition)}{youth}",
            outcome,
            second,
            loaded.division.name if self.several else None,
            state.table,
            t,
            info.alphabet,
        )
        self.stack.setCurrentWidget(self.verdict)

    def open_judge_mode(self) -> None:
        """The controller's judge handler: Esc or the judge chord on the ready screen or a fault."""
        judge = self.judge
        self.judging = True
        self.speaker.silence()
        self.stack.addWidget(judge)
        judge.open()
        self.stack.setCurrentWidget(judge)

    def _on_judge_finished(self) -> None:
        self.judging = False
        self.show_state(self.controller.state)
        self._detach_judge()

    def _detach_judge(self) -> None:
        """Judge mode out of the window: every page a judge saw (a challenge's words, each word's
        result) leaves the accessibility tree with it, hidden nodes included."""
        judge = self._judge
        if judge is not None and self.stack.indexOf(judge) >= 0:
            self.stack.removeWidget(judge)
            judge.setParent(None)  # parentless and never shown: no window

    def _forget_play(self) -> None:
        """Nothing of a pair's play stays behind once it is over: every players' screen but the
        ready screen goes back to the words it was built with (hidden screens are read too)."""
        for blank in self._blanks:
            blank.restore()

    # -- input -----------------------------------------------------------------------------------

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt's name)
        """A fresh press goes to the session as what it means; a key held down repeats as
        ``Repeated``, with the screen it was pressed on (the session decides what a repeat may do)."""
        event.accept()
        repeated = self._held.repeats(event)
        if self.not_ready:
            if not repeated:  # any key (a blind player's first) hears why nothing else answers
                self.speaker.not_ready(self.controller.languages.station)
            return
        if self.judging:
            self._pressed_on = None  # a key held from judge mode repeats nothing on the players' screens
            if typed_text(event) or not is_shortcut(event):
                self.judge.handle_key(event, repeated=repeated)
            return
        meant = key_to_event(event)
        if event.key() == REPEAT_KEY and not repeated:
            self.speaker.repeat()  # and, as any key, it keeps an entry left alone
        if repeated:
            if self._pressed_on is not None and isinstance(meant, KEY_EVENTS):
                self.controller.dispatch(Repeated(meant, self._pressed_on))
            return
        self._pressed_on = self.controller.state.screen
        self.controller.dispatch(meant)

    def keyReleaseEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt's name)
        event.accept()
        self._held.released(event)

    def focusNextPrevChild(self, next: bool) -> bool:  # noqa: N802 (Qt's names)
        return False  # Tab judges; it never moves the focus

    def _on_tapped(self, event: Event) -> None:
        if not self.not_ready:
            self.controller.dispatch(event)

    def _on_state_changed(self, state: SessionState) -> None:
        self.show_state(state)

    # -- locked down -----------------------------------------------------------------------------

    def leave(self) -> None:
        """Only judge mode's confirmed "Exit the station" calls this."""
        self._leaving = True
        self.left.emit()
        self.close()

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 (Qt's name)
        if self._leaving:
            event.accept()
        else:
            event.ignore()

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 (Qt's name)
        super().paintEvent(event)
        if not self._painted:
            self._painted = True
            self.first_frame_painted.emit()
