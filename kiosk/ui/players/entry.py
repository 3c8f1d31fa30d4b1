"""Typing the words, then checking them: the entry screen.

No view reads per-word results. A word is shown as the tiles it will be judged as, never read
again here: the entry shows the session's reading (``kiosk.core.play.session.shown_tiles``).
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QWidget

from kiosk.core.play.notice import notice_text, refusal_text
from kiosk.core.play.session import (
    Screen,
    SessionState,
    shown_tiles,
)
from kiosk.core.words.alphabet import Alphabet
from kiosk.ui import theme
from kiosk.ui.layout import View, spacer, stack
from kiosk.ui.players.grid import WordGrid
from kiosk.ui.players.keys import TouchKeyboard
from kiosk.ui.theme import FitLabel

__all__ = ["EntryView"]

A = Qt.AlignmentFlag


class EntryView(View):
    """Typing the words, then checking them: one view, its prompt following the state."""

    tapped = Signal(object)

    def __init__(self, *, touch: bool, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("entry")
        self._touch = touch
        self.title = FitLabel(fill=0.75, bold=True)
        self.title.setObjectName("entry-title")
        self.grid = WordGrid(show_counts=True)
        self.notice = FitLabel(fill=0.7, bold=True, colour=theme.NOTICE, wrap=True)
        self.notice.setObjectName("entry-notice")
        self.prompt = FitLabel(fill=0.8, bold=True)
        self.prompt.setObjectName("entry-prompt")
        self.keyboard: TouchKeyboard | None = None
        items: list[tuple[QWidget, int]] = [
            (self.title, 9),
            (self.grid, 36 if touch else 53),
            (self.notice, 11 if touch else 12),
            (self.prompt, 12 if touch else 18),
        ]
        if touch:
            self.keyboard = TouchKeyboard()
            self.keyboard.tapped.connect(self.tapped)
            items += [(self.keyboard, 46), (spacer(), 2)]  # the bottom row clear of the bezel
        self._layout = stack(self, items)

    def _keyboard_for(self, alphabet: Alphabet) -> TouchKeyboard | None:
        """The touch keyboard of the division's alphabet, in the place of the one shown before."""
        old = self.keyboard
        if old is None or old.alphabet is alphabet:
            return old
        new = TouchKeyboard(alphabet)
        new.tapped.connect(self.tapped)
        self._layout.replaceWidget(old, new)
        old.hide()  # at once: deleteLater waits for the event loop's next turn
        old.deleteLater()
        self.keyboard = new
        return new

    def show_entry(self, state: SessionState, division: str | None = None) -> None:
        """``division``: the name of the challenge's division, where the station has several; the
        table is named too, on a station that asks for it."""
        t = state.language
        entered = state.entered
        expected = state.expected
        judge = t.text("tap JUDGE") if self._touch else t.text("press TAB")
        keyboard = self._keyboard_for(state.alphabet)
        if keyboard is not None:
            keyboard.speak(t)
        if state.screen is Screen.ENTRY or state.current:
            # the title does not flip to "All typed" while the last word is still being typed
            at = min(len(state.words), expected - 1)
            self.title.setText(
                t.text("CHALLENGER: type word {number} of {count}", number=at + 1, count=expected)
            )
            cursor_at: int | None = at
        else:
            self.title.setText(t.plural("The word is typed", "All {count} words typed", expected))
            cursor_at = None
        if state.screen is Screen.ENTRY:
            if self._touch:
                self.prompt.setText(t.text("SPACE after each word\nBACKSPACE corrects \u00b7 CLEAR clears"))
            else:
                self.prompt.setText(
                    t.text("Space, comma or Enter after each word\nBackspace corrects \u00b7 Esc clears")
                )
        else:
            division_check = None if division is None else t.text("the division ({name})", name=division)
            table_check = None if state.table is None else t.text("the table ({number})", number=state.table)
            if division_check and table_check:
                check = t.text(
                    "Both players: check the spelling, {division} and {table}.",
                    division=division_check,
                    table=table_check,
                )
            elif division_check or table_check:
                check = t.text(
                    "Both players: check the spelling and {what}.", what=division_check or table_check
                )
            else:
                check = t.text("Both players: check the spelling.")
            self.prompt.setText(check + "\n" + t.text("CHALLENGED PLAYER: {judge} to judge.", judge=judge))
        notice = notice_text(state, touch=self._touch)
        if state.clearing_in_s:
            key = t.text("tap any key") if self._touch else t.text("press any key")
            notice = t.plural(
                "Clearing in {seconds} s \u2014 {press} to keep the word",
                "Clearing in {seconds} s \u2014 {press} to keep the words",
                expected,
                seconds=state.clearing_in_s,
                press=key,
            )
        # a character refused stays said until the play is judged or cleared, beside any other notice
        self.notice.setText("\n".join(line for line in (refusal_text(state), notice) if line))
        self.grid.show_words(
            [shown_tiles(state, word) for word in entered],
            expected,
            state.max_length,
            cursor_at,
            t,
            state.alphabet,
        )
