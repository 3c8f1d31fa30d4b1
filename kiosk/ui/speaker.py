"""Each step of a challenge said once: aloud on a station that speaks, and to screen readers always.

The words are the core's (``kiosk.core.play.speech``); this class only watches the session's states go
by, asks what each step says, and passes it on: to the voice (``kiosk.voice``, when the station's
``[access] speech`` is on) and to whatever assistive program listens, as one Qt announcement
event (AT-SPI's ``Announcement``). A state that changes without a step (the verdict's lock-out
ending) says nothing, so nothing is announced twice. ``repeat`` says the whole screen again.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QWidget

from kiosk.core.play.session import Screen, SessionState
from kiosk.ui.controller import StationController

if TYPE_CHECKING:
    # Not before the first frame: the words are needed at the first key (~4 ms of start-up, the
    # module's dataclasses), the voice only on a station that speaks.
    from kiosk.core.play.speech import Scene, Speech
    from kiosk.core.words.language import Catalogue
    from kiosk.voice import Voice

__all__ = ["SPOKEN_KEPT", "Speaker", "announce"]

# Steps kept in ``Speaker.spoken``: a whole play (8 words of 15 letters is ~130 steps) and more. A
# station says a step at each key: kept all, they piled up for as long as it ran (28,000 after
# bench_alphabet's 200 plays), and every full garbage collection walked them.
SPOKEN_KEPT = 500

# Said at once, cutting in (a screen reader may interrupt what it is reading for them).
_URGENT = (Screen.VERDICT, Screen.FAULT)


class Speaker(QObject):
    """Says what each step of the station's session says, through ``voice`` (None: silent)."""

    def __init__(
        self,
        controller: StationController,
        window: QWidget,
        *,
        aloud: bool,
        parent: QObject | None = None,
    ) -> None:
        """``aloud``: say each step through espeak-ng too (the station's ``[access] speech``)."""
        super().__init__(parent)
        self.controller = controller
        self.window = window
        self.voice: Voice | None = None
        if aloud:
            from kiosk.voice import Voice

            self.voice = Voice()
        # what was said last, for the tests (and a look in a debugger): at most 2 x SPOKEN_KEPT
        self.spoken: list[Speech] = []
        self._last = controller.state
        controller.state_changed.connect(self._on_state_changed)
        if self.voice is not None and not self.voice.available:
            print(
                "station: [access] speech is on, but espeak-ng is not installed: the station is silent "
                "(apt-get install espeak-ng; docs/install.md)",
                file=sys.stderr,
            )

    @property
    def scene(self) -> Scene:
        from kiosk.core.play.speech import Scene

        controller = self.controller
        names = tuple(d.division.name for d in controller.divisions)
        return Scene(names, controller.config.rules, touch=controller.config.touch)

    def _on_state_changed(self, state: SessionState) -> None:
        from kiosk.core.play.speech import said

        before, self._last = self._last, state
        speech = said(before, state, self.scene)
        if speech is not None:
            self.say(speech, urgent=state.screen in _URGENT and state.screen is not before.screen)

    def repeat(self) -> None:
        """The repeat key: the whole screen again."""
        from kiosk.core.play.speech import screen_said

        speech = screen_said(self.controller.state, self.scene)
        if speech is not None:
            self.say(speech, urgent=False)

    def not_ready(self, t: Catalogue) -> None:
        """The station cannot serve (its not-ready notice, in the station's language ``t``)."""
        from kiosk.core.play.speech import not_ready_said

        self.say(not_ready_said(t), urgent=True)

    def silence(self) -> None:
        """Judge mode opened (or the station stopped serving): nothing more from the players' flow."""
        if self.voice is not None:
            self.voice.stop()

    def say(self, speech: Speech, *, urgent: bool) -> None:
        self.spoken.append(speech)
        if len(self.spoken) >= 2 * SPOKEN_KEPT:  # the older half at once: O(1) a step, amortised
            del self.spoken[:SPOKEN_KEPT]
        if self.voice is not None:
            self.voice.say(speech)
        self._announce(speech.text, urgent=urgent)

    def _announce(self, message: str, *, urgent: bool) -> None:
        announce(self.window, message, urgent=urgent)


def announce(widget: QWidget, message: str, *, urgent: bool) -> None:
    """Tell screen readers (Qt forwards it only when an assistive program listens); ``urgent``:
    they may cut in on what they are reading for it."""
    # QAccessible costs ~2 ms to load: not before the first frame (the ready screen says nothing).
    from PySide6.QtGui import QAccessible, QAccessibleAnnouncementEvent

    if QAccessible.isActive():
        event = QAccessibleAnnouncementEvent(widget, message)
        if urgent:
            event.setPoliteness(QAccessible.AnnouncementPoliteness.Assertive)
        QAccessible.updateAccessibility(event)
