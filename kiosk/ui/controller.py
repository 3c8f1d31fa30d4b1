"""The station controller: owns the timers and the log, forwards every event to the session.

The flow itself is ``kiosk.core.play.session``; this class only carries out its effects. A ruling is
recorded in the log *before* the verdict is shown: if the log fails, the station shows a fault
and keeps the challenge in memory for the judge. The log is opened lazily (its import may cost
more than Qt's), after the first frame and before the first verdict.

Judge mode may reload the packs from disk (and hands the result to ``take_reload``): a set that
verified whole waits here until the station is on the ready screen, and is then swapped in for
every division at once, never under a player's entry or verdict.
"""

from __future__ import annotations

import sys
import traceback
import uuid
from collections.abc import Callable, Collection, Sequence
from dataclasses import replace
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer, Signal

from kiosk.core.errors import StorageError
from kiosk.core.log.challenge import ChallengeEntry, ChallengeId, ChallengeLog, SecondOpinion
from kiosk.core.play.adjudication import Verdict, adjudicate, judge_words
from kiosk.core.play.session import (
    Effect,
    Event,
    FaultCleared,
    IdleExpired,
    IdleWarned,
    LockoutEnded,
    Recorded,
    RecordFailed,
    Screen,
    SessionState,
    VerdictExpired,
    idle_timing,
    start,
    transition,
)
from kiosk.core.station.config import Languages, LoadedDivision, StationConfig, Verifier, load_languages
from kiosk.core.wording import Text, Wording

if TYPE_CHECKING:  # judge mode's: imported when it asks
    from kiosk.core.station.reload import ReloadResult
    from kiosk.core.station.settings import StationChoice

__all__ = ["LogFactory", "StationController"]

LogFactory = Callable[[], ChallengeLog]
Clock = Callable[[], datetime]


def _utc_now() -> datetime:
    return datetime.now(UTC)


class StationController(QObject):
    """One station's flow: session state, timers, judging and the log."""

    state_changed = Signal(object)  # SessionState
    judge_mode_requested = Signal()
    challenge_recorded = Signal(object)  # ChallengeEntry
    challenge_unrecorded = Signal(object)  # ChallengeEntry kept in memory after a log failure
    packs_swapped = Signal(object)  # the tuple of LoadedDivision now in use

    def __init__(
        self,
        config: StationConfig,
        divisions: Sequence[LoadedDivision],
        log_factory: LogFactory,
        *,
        judge_handler: Callable[[], None] | None = None,
        clock: Clock = _utc_now,
        verifier: Verifier | None = None,
        languages: Languages | None = None,
        parent: QObject | None = None,
    ) -> None:
        """``languages``: the catalogues the configuration asks for (default: read them now)."""
        super().__init__(parent)
        self.verifier = verifier if verifier is not None else Verifier()
        if not divisions:
            raise ValueError("a station needs at least one division")
        self.config = config
        self.configured_rules = config.rules  # the configuration's own, whatever a judge chooses
        self.divisions = tuple(divisions)
        self._log_factory = log_factory
        self._log: ChallengeLog | None = None
        self._judge_handler = judge_handler
        self._clock = clock
        self.unrecorded: list[ChallengeEntry] = []
        self.last_fault: Text = ""  # why the log refused the last challenge, for judge mode's Log status
        self.second_opinion: Verdict | None = None
        self.pending_divisions: tuple[LoadedDivision, ...] | None = None  # reloaded, not yet in use
        self.packs_verified_at: datetime | None = None  # by the last reload; None: at start-up
        self.languages = load_languages(config) if languages is None else languages
        self._state = start(
            tuple(d.lexicon.info.max_length for d in self.divisions),
            ask_table=config.ask_table,
            station_words=self.languages.station,
            division_words=self.languages.divisions,
            alphabets=tuple(d.lexicon.info.alphabet for d in self.divisions),
        )
        timings = config.timings
        self.lockout_timer = self._timer(timings.key_lockout_ms, LockoutEnded())
        self.verdict_timer = self._timer(timings.verdict_display_ms, VerdictExpired())
        # An entry left alone: quiet for a while (idle_timer), then counted down on screen
        # second by second (idle_countdown), then cleared. Any key starts it all again.
        self.idle_timer = QTimer(self)
        self.idle_timer.setSingleShot(True)
        self.idle_timer.timeout.connect(self._idle_warn)
        self.idle_countdown = QTimer(self)
        self.idle_countdown.setInterval(1000)
        self.idle_countdown.timeout.connect(self._idle_tick)
        self._idle_left_s = 0
        self._idle_warning_s = 0

    def _timer(self, interval_ms: int, event: Event) -> QTimer:
        timer = QTimer(self)
        timer.setSingleShot(True)
        timer.setInterval(interval_ms)
        timer.timeout.connect(lambda: self.dispatch(event))
        return timer

    @property
    def state(self) -> SessionState:
        return self._state

    @property
    def division(self) -> LoadedDivision:
        """The division of the challenge under way (between challenges: the first one served)."""
        state = self._state
        return self.divisions[state.division if state.division is not None else state.served[0]]

    @property
    def log_open(self) -> bool:
        return self._log is not None

    def set_judge_handler(self, handler: Callable[[], None] | None) -> None:
        """Who answers Esc on the ready screen (and on a fault): judge mode."""
        self._judge_handler = handler

    @property
    def choice(self) -> StationChoice:
        """The divisions served, rule profile and timings the station runs with now."""
        from kiosk.core.station.settings import StationChoice

        served = self._state.served
        only = None if len(served) == len(self.divisions) else served[0]
        return StationChoice(only, self.config.rules, self.config.timings, self.configured_rules)

    def apply_choice(self, choice: StationChoice) -> None:
        """Judge mode switched the divisions served, rule profile or timings: from the next challenge.

        The divisions served change only between challenges (ready screen or fault), never under
        a player's entry; the timings take effect the next time each timer starts.
        """
        self.config = replace(self.config, rules=choice.rules, timings=choice.timings)
        self.lockout_timer.setInterval(choice.timings.key_lockout_ms)
        self.verdict_timer.setInterval(choice.timings.verdict_display_ms)
        state = self._state
        count = len(self.divisions)
        served = tuple(range(count)) if choice.served is None else (choice.served % count,)
        if served == state.served:
            return
        if state.screen is Screen.READY:
            self._state = start(
                state.max_lengths,
                served,
                ask_table=state.ask_table,
                station_words=state.station_words,
                division_words=state.division_words,
                alphabets=state.alphabets,
            )
        elif state.screen is Screen.FAULT:
            self._state = replace(state, served=served)
        else:
            return
        self.state_changed.emit(self._state)

    def take_reload(self, result: ReloadResult) -> None:
        """For judge mode, which read every pack again: swap them in on the ready screen if all
        verified. A refused reload changes nothing the station judges with (and drops a swap still
        waiting)."""
        self.pending_divisions = result.divisions
        self._swap_if_ready()

    def _swap_if_ready(self) -> None:
        pending = self.pending_divisions
        if pending is None or self._state.screen is not Screen.READY:
            return
        self.pending_divisions = None
        self.divisions = pending
        self.packs_verified_at = self._clock()
        max_lengths = tuple(d.lexicon.info.max_length for d in pending)
        alphabets = tuple(d.lexicon.info.alphabet for d in pending)
        self._state = replace(self._state, max_lengths=max_lengths, alphabets=alphabets)
        self.state_changed.emit(self._state)
        self.packs_swapped.emit(pending)

    def open_log(self) -> ChallengeLog:
        """Open the log if it is not open yet; raise StorageError if it cannot be opened."""
        if self._log is None:
            self._log = self._log_factory()
        return self._log

    def settle_kept(self, recorded: Collection[ChallengeId], problem: Text = "") -> int:
        """For judge mode, which recorded the kept challenges again
        (``kiosk.core.log.challenge.record_again``): forget those now in the log; ``problem`` is why
        the others are not. Return how many remain."""
        now_logged = [entry for entry in self.unrecorded if entry.challenge_id in recorded]
        self.unrecorded = [entry for entry in self.unrecorded if entry.challenge_id not in recorded]
        if problem:
            self.last_fault = problem
        for entry in now_logged:
            self.challenge_recorded.emit(entry)
        return len(self.unrecorded)

    def clear_fault(self) -> None:
        """For judge mode: the judge has dealt with the fault; back to the ready screen."""
        self.dispatch(FaultCleared())

    def _idle_warn(self) -> None:
        self._idle_left_s = self._idle_warning_s
        self.idle_countdown.start()
        self.dispatch(IdleWarned(self._idle_left_s))

    def _idle_tick(self) -> None:
        self._idle_left_s -= 1
        if self._idle_left_s <= 0:
            self.idle_countdown.stop()
            self.dispatch(IdleExpired())
        else:
            self.dispatch(IdleWarned(self._idle_left_s))

    def dispatch(self, event: Event) -> None:
        before = self._state
        step = transition(before, event)
        self._state = step.state
        self._run_timers(before, step.state, event)
        if step.state != before:
            self.state_changed.emit(step.state)
        for effect in step.effects:
            if effect is Effect.JUDGE_PLAY:
                self._judge()
            elif effect is Effect.JUDGE_REQUESTED:
                self.judge_mode_requested.emit()
                if self._judge_handler is not None:
                    self._judge_handler()
        self._swap_if_ready()

    def _run_timers(self, before: SessionState, after: SessionState, event: Event) -> None:
        if after.screen is Screen.VERDICT:
            if before.screen is not Screen.VERDICT:
                self.lockout_timer.start()
                self.verdict_timer.start()
        else:
            self.lockout_timer.stop()
            self.verdict_timer.stop()
        if after.screen not in (Screen.TABLE, Screen.DIVISION, Screen.ENTRY, Screen.CONFIRM):
            self.idle_timer.stop()
            self.idle_countdown.stop()
        elif not isinstance(event, IdleWarned):  # a key (or a new screen): the quiet time starts again
            self.idle_countdown.stop()
            quiet_ms, self._idle_warning_s = idle_timing(after.screen, self.config.timings.idle_entry_ms)
            self.idle_timer.start(quiet_ms)

    def _judge(self) -> None:
        state = self._state
        division = self.division
        try:
            ruling = adjudicate(state.words, division.lexicon, youth=division.division.youth_rules)
        except Exception:  # cannot happen for words the session accepted; never leave JUDGING stuck
            print(f"station fault: no ruling: {traceback.format_exc()}", file=sys.stderr)
            self.dispatch(RecordFailed())
            return
        second = division.second_opinion
        self.second_opinion = (
            None
            if second is None
            else judge_words(ruling.words, second, youth=division.division.youth_rules).verdict
        )
        edition = division.recognition.ruling(division.division.youth_rules).edition
        entry = ChallengeEntry(
            challenge_id=ChallengeId(uuid.uuid4()),
            judged_at=self._clock(),
            station=self.config.station_name,
            division=division.division.name,
            rule_profile=self.config.rules.name,
            ruling=ruling,
            table=state.table,
            published_edition=None if edition is None else edition.name,
            edition_checked=True,
            second_opinion=None
            if second is None or self.second_opinion is None
            else SecondOpinion(
                second.info.name, second.info.edition, second.info.set_hash, self.second_opinion
            ),
        )
        try:
            self.open_log().record(entry)
        except StorageError as exc:
            self._fault(entry, exc.wording)
            return
        except Exception:  # the verdict must never be shown unlogged, whatever broke
            self._fault(entry, traceback.format_exc())
            return
        self.challenge_recorded.emit(entry)
        self.dispatch(Recorded(ruling))

    def _fault(self, entry: ChallengeEntry, reason: Text) -> None:
        print(f"station fault: the challenge log failed: {reason}", file=sys.stderr)
        if isinstance(reason, Wording):  # a storage error: judge mode says it in the station's language
            self.last_fault = reason
        else:  # a traceback: its last line
            self.last_fault = reason.strip().splitlines()[-1] if reason.strip() else "unknown"
        self.unrecorded.append(entry)
        self.challenge_unrecorded.emit(entry)
        self.dispatch(RecordFailed())
