"""Judge mode: the PIN door, the menu and the judge screens, over the station's own storage.

The widgets only show state and forward input: the door, the menu keys, the settings choices and
the text of the recheck come from ``kiosk.core.judge``, ``kiosk.core.settings`` and
``kiosk.core.recheck``; the PIN, the failure count, the log and the saved settings from the same
``StationStorage`` the station records into (opened lazily; never a second one). Every key and
tap restarts the idle lock; an idle judge mode locks itself and returns to the station.

Per-word results are shown here and nowhere else on the station.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from PySide6.QtCore import QEvent, QObject, QStorageInfo, Qt, QTimer, Signal
from PySide6.QtGui import QFont, QFontMetrics, QKeyEvent, QResizeEvent
from PySide6.QtWidgets import QGridLayout, QHBoxLayout, QPushButton, QSizePolicy, QStackedWidget, QWidget

from kiosk.core.errors import KioskError
from kiosk.core.judge import (
    MENU_PAGES,
    Door,
    JudgePage,
    JudgeSession,
    format_wait,
    menu_page,
)
from kiosk.core.pin import PinAttempts
from kiosk.core.plural import counted
from kiosk.core.recheck import (
    REMOVABLE_MEDIA_ROOTS,
    RecheckCard,
    count_lines,
    export_file_name,
    export_folders,
    local_midnight,
    periods,
    recheck_card,
)
from kiosk.core.reload import OnDisk, ReloadResult, check_on_disk, pack_lines
from kiosk.core.session import Screen
from kiosk.core.settings import (
    Field,
    choice_fields,
    resolve_choice,
    saved_names,
    stepped,
    value_text,
)
from kiosk.ui import theme
from kiosk.ui.controller import StationController
from kiosk.ui.theme import FitLabel
from kiosk.ui.views import View, _spacer, _stack

if TYPE_CHECKING:
    from kiosk.storage import StationStorage

__all__ = ["JudgeView", "StorageFactory", "restore_settings"]

StorageFactory = Callable[[], "StationStorage"]
MonotonicClock = Callable[[], float]
A = Qt.AlignmentFlag
K = Qt.Key
TICK_MS = 1000
RECHECK_ROWS = 5
RECHECK_QUERY_LIMIT = 500
WORD_FILL = 0.75  # a recheck word line's type fills this share of its height
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)  # "since ever", for the list of stations in the log
PIN_KEYS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "\u232b", "0", "OK")
GOOD = "#8be39b"  # per-word results on the dark background: contrast > 9:1, and a tick or cross too
BAD = "#ff9a9a"
SELECTED = "#1f5fbf"
DANGER = "#8f1a1a"
SAFE = "#1d6b3a"


def _now_local() -> datetime:
    return datetime.now().astimezone()


class FitButton(QPushButton):
    """A big button whose font fills it; it never takes the keyboard focus (the window keeps it).

    Its text keeps a margin from the button's edge that grows with the button (a quarter of its
    height), so that no label ever touches its box, from 1024x600 to 4K.
    """

    def __init__(self, text: str = "", *, colour: str = theme.KEY_BACKGROUND, left: bool = False) -> None:
        super().__init__(text)
        self.full_text = text
        self.reference: str | None = None  # size the font for this text (buttons that match)
        self.fixed_px: int | None = None  # one size for a set of buttons; a longer text is cut short
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Ignored)
        self._left = left
        self._colour = ""
        self._margin = -1
        self.set_colour(colour)

    @property
    def margin(self) -> int:
        """The room between the text and the button's edge, on each side."""
        return max(12, self.height() // 4)

    def set_colour(self, colour: str) -> None:
        if colour == self._colour:
            return
        self._colour = colour
        self._restyle()

    def _restyle(self) -> None:
        self._margin = self.margin
        align = f"text-align: left; padding-left: {self._margin}px;" if self._left else ""
        self.setStyleSheet(
            f"QPushButton {{ background: {self._colour}; color: {theme.TEXT}; border: 2px solid #59626e; "
            f"border-radius: 8px; {align} }} QPushButton:pressed {{ background: #59626e; }} "
            f"QPushButton:disabled {{ color: {theme.DISABLED_TEXT}; "
            f"background: {theme.DISABLED_BACKGROUND}; }}"
        )

    def setText(self, text: str) -> None:  # noqa: N802 (Qt's name)
        if text != self.full_text:
            self.full_text = text
            self.fit_font()

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt's name)
        super().resizeEvent(event)
        if self._left and self.margin != self._margin:
            self._restyle()
        self.fit_font()

    def fit_font(self) -> None:
        """The largest font that fits; a lone one-line text that would be smaller than a third of the
        button's height is cut short with an ellipsis instead (the recheck shows it whole below).
        Buttons sized as a set (``reference``, the menu) shrink together and are never cut short."""
        text = self.full_text
        width, height = self.width() - 2 * self.margin - 4, self.height() - 8
        if width <= 8 or height <= 4:
            super().setText(text)
            return
        font = QFont(theme.FONT_FAMILY)
        font.setBold(True)
        if self.fixed_px is not None:
            font.setPixelSize(self.fixed_px)
            self.setFont(font)
            super().setText(QFontMetrics(font).elidedText(text, Qt.TextElideMode.ElideRight, width))
            return
        lines = max(1, text.count("\n") + 1)
        ceiling = self.height() * (2 if lines == 1 else 3) // 5 // lines
        if self.reference is not None:
            ceiling = theme.largest_fitting_px(font, self.reference, width, height, ceiling)
        size = theme.largest_fitting_px(font, text, width, height, ceiling)
        readable = max(theme.MIN_FONT_PX, self.height() // 3)
        if lines == 1 and size < readable and self.reference is None:  # a set (the menu) shrinks whole
            size = readable
            font.setPixelSize(size)
            text = QFontMetrics(font).elidedText(text, Qt.TextElideMode.ElideRight, width)
        font.setPixelSize(size)
        self.setFont(font)
        super().setText(text)


class Row(QWidget):
    """Widgets side by side, kept apart by a gap that grows with the row (a quarter of its
    height, at least ``spacing``): text beside a button never runs into it on a big screen."""

    def __init__(self, items: Sequence[tuple[QWidget, int]], *, spacing: int, margin: int) -> None:
        super().__init__()
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Ignored)
        self._spacing = spacing
        self._layout = QHBoxLayout(self)
        self._layout.setContentsMargins(0, margin, 0, margin)
        self._layout.setSpacing(spacing)
        for widget, stretch in items:
            self._layout.addWidget(widget, stretch)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 (Qt's name)
        spacing = max(self._spacing, self.height() // 4)
        if spacing != self._layout.spacing():
            self._layout.setSpacing(spacing)
            self._layout.activate()  # now, not after the frame: the widgets are placed already
        super().resizeEvent(event)


def _row(*items: tuple[QWidget, int], spacing: int = 8, margin: int = 4) -> QWidget:
    return Row(items, spacing=spacing, margin=margin)


class Page(QWidget):
    """One judge screen. ``key`` returns True if it used the key; Esc goes back to the menu.

    ``hint`` names the keys; ``touch_hint`` says the same for a judge with only a touchscreen.
    """

    hint = "Esc: back to the menu"
    touch_hint = "\u25c0 Menu (top left): back to the menu"

    def __init__(self, mode: JudgeView) -> None:
        super().__init__()
        self.mode = mode
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Ignored)

    def button(
        self, text: str, action: Callable[[], None], *, colour: str = theme.KEY_BACKGROUND, left: bool = False
    ) -> FitButton:
        return self.mode.button(text, action, colour=colour, left=left)

    def refresh(self) -> None:
        """Read what the page shows afresh (called each time it is opened)."""

    def tick(self) -> None:
        """Called every second while the page is shown."""

    def key(self, key: int, text: str) -> bool:
        return False

    def leaving(self) -> bool:
        """Whether the judge may leave the page now (a page with unsaved work says so first)."""
        return True


class DoorPage(Page):
    hint = "Type the PIN, then Enter \u00b7 Backspace corrects \u00b7 Esc: back to the station"
    touch_hint = "Tap the PIN, then OK \u00b7 \u232b corrects"

    def __init__(self, mode: JudgeView, *, touch: bool) -> None:
        super().__init__(mode)
        self.title = FitLabel(fill=0.7, bold=True)
        self.title.setObjectName("door-title")
        self.dots = FitLabel(fill=0.7, bold=True, reference="\u25cf " * 12)
        self.dots.setObjectName("door-dots")
        self.message = FitLabel(fill=0.7, bold=True, colour=theme.NOTICE, wrap=True)
        self.message.setObjectName("door-message")
        self.keys: dict[str, FitButton] = {}
        items: list[tuple[QWidget, int]] = (
            [(self.title, 9), (self.dots, 8), (self.message, 8)]
            if touch
            else [(self.title, 14), (self.dots, 14), (self.message, 12)]
        )
        if touch:
            pad = QWidget()
            pad.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Ignored)
            grid = QGridLayout(pad)
            grid.setSpacing(8)
            for index, label in enumerate(PIN_KEYS):
                colour = SAFE if label == "OK" else theme.KEY_BACKGROUND
                key = self.button(label, partial(self.tapped, label), colour=colour)
                key.setObjectName(f"pin-key-{label}")
                grid.addWidget(key, index // 3, index % 3)
                self.keys[label] = key
            cancel = self.button("Cancel \u2014 back to the station", mode.finish)
            cancel.setObjectName("pin-cancel")
            self.keys["CANCEL"] = cancel
            grid.addWidget(cancel, 4, 0, 1, 3)
            for r in range(5):
                grid.setRowStretch(r, 1)
            holder = _row((_spacer(), 1), (pad, 3), (_spacer(), 1))
            items.append((holder, 75))
        else:
            items.append((_spacer(), 40))
        _stack(self, items)
        self.door = Door.opened(has_pin=True)
        self.wait_s = 0.0
        self.unavailable = ""

    def open(self) -> None:
        self.unavailable = ""
        try:
            access = self.mode.storage().judge_access
            self.door = Door.opened(has_pin=access.has_pin())
            self.wait_s = access.wait_s()
        except KioskError as exc:
            self.unavailable = f"The station database cannot be read, so no PIN can be checked:\n{exc}"
            self.door = Door.opened(has_pin=True)
            self.wait_s = 0.0
        self.show_door()

    def tick(self) -> None:
        if self.wait_s > 0.0:
            try:
                self.wait_s = self.mode.storage().judge_access.wait_s()
            except KioskError:
                self.wait_s = 0.0
            self.show_door()

    @property
    def shut(self) -> bool:
        return self.wait_s > 0.0 or bool(self.unavailable)

    def show_door(self) -> None:
        door = self.door
        self.title.setText(door.title)
        self.dots.setText(door.shown or ("" if self.shut else "_"))
        if self.unavailable:
            message = self.unavailable
        elif self.wait_s > 0.0:
            reason = door.message or "Too many wrong PINs"
            message = f"{reason}. Next try in {format_wait(self.wait_s)}"
        elif door.message:
            message = door.message
        elif not door.has_pin:
            message = f"Set one on this machine's terminal:\n{self.mode.set_pin_command}"
        else:
            message = f"Forgotten? Set a new one on this machine's terminal:\n{self.mode.set_pin_command}"
        self.message.setText(message)
        # a refusal in the warning colour; the standing hint about a forgotten PIN stays quiet
        warning = bool(self.unavailable or self.wait_s > 0.0 or door.message or not door.has_pin)
        self.message.set_colour(theme.NOTICE if warning else theme.DIM_TEXT)
        for label, key in self.keys.items():
            key.setEnabled(label == "CANCEL" or not (self.shut or not door.has_pin))

    def tapped(self, label: str) -> None:
        if label == "OK":
            self.submit()
        elif label == "\u232b":
            self.door = self.door.erased()
        else:
            self.door = self.door.typed_text(label)
        self.show_door()

    def key(self, key: int, text: str) -> bool:
        if key == K.Key_Escape:
            return False  # back to the station
        if self.shut:
            return True  # the keypad is shut while the back-off runs
        if key in (K.Key_Return, K.Key_Enter):
            self.submit()
        elif key == K.Key_Backspace:
            self.door = self.door.erased()
        elif text and text.isprintable():
            self.door = self.door.typed_text(text)
        self.show_door()
        return True

    def submit(self) -> None:
        if self.shut:
            return
        self.door, action = self.door.submitted()
        if action is None:
            return
        try:
            check = self.mode.storage().judge_access.check_pin(action.pin)
        except KioskError as exc:
            self.door = self.door.refused(str(exc))
            return
        if check.accepted:
            self.mode.unlocked(cleared=check.cleared)
            return
        from kiosk.storage import PinOutcome

        if check.outcome is PinOutcome.NO_PIN:
            self.door = Door.opened(has_pin=False)
        else:
            counted = "" if check.outcome is PinOutcome.TOO_SOON else f" ({check.failures} in a row)"
            self.door = self.door.refused(f"Wrong PIN{counted}")
            if check.outcome is PinOutcome.WRONG:  # the journal keeps what the judge may ask about later
                print(f"judge mode: a wrong PIN ({check.failures} in a row)", file=sys.stderr, flush=True)
        self.wait_s = check.wait_s


class MenuPage(Page):
    hint = "Press 1 to 8, or tap \u00b7 Esc: back to the station"
    touch_hint = "Tap a choice"

    def __init__(self, mode: JudgeView) -> None:
        super().__init__(mode)
        self.warning = FitLabel(fill=0.7, bold=True, colour=theme.NOTICE)
        self.warning.setObjectName("menu-warning")
        self.warning.setVisible(False)
        choices = QWidget()
        choices.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Ignored)
        grid = QGridLayout(choices)
        grid.setContentsMargins(0, 8, 0, 8)
        grid.setSpacing(10)
        _stack(self, [(self.warning, 10), (choices, 90)])
        self.buttons: dict[JudgePage, FitButton] = {}
        rows = (len(MENU_PAGES) + 1) // 2
        for index, page in enumerate(MENU_PAGES):
            colour = {JudgePage.BACK: SAFE, JudgePage.EXIT: DANGER}.get(page, theme.KEY_BACKGROUND)
            button = self.button(
                f"{index + 1}  {page.value}", partial(mode.go, page), colour=colour, left=True
            )
            button.setObjectName(f"menu-{page.name.lower()}")
            grid.addWidget(button, index % rows, index // rows)
            self.buttons[page] = button
        longest = max((b.full_text for b in self.buttons.values()), key=len)
        for button in self.buttons.values():
            button.reference = longest  # one type size for the whole menu

    def warn_of(self, cleared: PinAttempts) -> None:
        """Tell the judge who just came in how many wrong PINs were typed before (someone guessing?)."""
        if cleared.failures == 0 or cleared.last_failure_at is None:
            self.warning.setText("")
            self.warning.setVisible(False)
            return
        last = cleared.last_failure_at.astimezone()
        self.warning.setText(
            f"Before this PIN: {counted(cleared.failures, 'wrong PIN')} in a row, the last at "
            f"{last:%H:%M} \u2014 has someone been guessing?"
        )
        self.warning.setVisible(True)

    def key(self, key: int, text: str) -> bool:
        page = menu_page(text)
        if page is None:
            return False
        self.mode.go(page)
        return True


class RecheckPage(Page):
    hint = "\u2191\u2193 choose a challenge \u00b7 \u2190\u2192 when \u00b7 S: station \u00b7 Esc: menu"
    touch_hint = "Tap a challenge to see each word \u00b7 tap the last line to scroll"

    def __init__(self, mode: JudgeView) -> None:
        super().__init__(mode)
        self.when_value = FitLabel(fill=0.6, bold=True)
        self.when_value.setObjectName("recheck-when")
        self.station_value = FitLabel(fill=0.6, bold=True)
        self.station_value.setObjectName("recheck-station")
        self.filter_buttons = [
            self.button("\u25c0", lambda: self.step_period(-1)),
            self.button("\u25b6", lambda: self.step_period(1)),
            self.button("\u25c0", lambda: self.step_station(-1)),
            self.button("\u25b6", lambda: self.step_station(1)),
        ]
        for button, name in zip(
            self.filter_buttons, ("earlier", "later", "station-back", "station-next"), strict=True
        ):
            button.setObjectName(f"recheck-{name}")
        filters = _row(
            (self.filter_buttons[0], 1),
            (self.when_value, 5),
            (self.filter_buttons[1], 1),
            (_spacer(), 1),
            (self.filter_buttons[2], 1),
            (self.station_value, 5),
            (self.filter_buttons[3], 1),
            margin=2,
        )
        self.rows = [self.button("", partial(self.select_row, i), left=True) for i in range(RECHECK_ROWS)]
        for index, row in enumerate(self.rows):
            row.setObjectName(f"recheck-row-{index + 1}")
            row.installEventFilter(self)
            row.reference = "M" * 200  # one readable type size for every row; a long one is cut short
        self.heading = FitLabel(fill=0.7, bold=True, align=A.AlignLeft | A.AlignVCenter)
        self.heading.setObjectName("recheck-heading")
        self.words: list[FitLabel] = []
        grid = QWidget()
        grid.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Ignored)
        layout = QGridLayout(grid)
        layout.setContentsMargins(0, 0, 0, 0)
        for index in range(8):
            label = FitLabel(fill=WORD_FILL, bold=True, align=A.AlignLeft | A.AlignVCenter)
            label.installEventFilter(self)
            label.setObjectName(f"recheck-word-{index + 1}")
            layout.addWidget(label, index % 4, index // 4)
            self.words.append(label)
        self.details = FitLabel(
            fill=0.75, colour=theme.DIM_TEXT, align=A.AlignLeft | A.AlignVCenter, wrap=True
        )
        self.details.setObjectName("recheck-details")
        # The filters and the rows are tap targets: they get the height a finger needs at
        # 1024x600 (tests/ui/test_touch.py), the selected challenge's words the rest.
        _stack(
            self,
            [
                (filters, 11),
                *((row, 10) for row in self.rows),
                (self.heading, 7),
                (grid, 18),
                (self.details, 12),  # three lines: the pack and rules, the edition and digests, the id
            ],
        )
        self.period_index = 2  # today
        self.station_index = 0  # every station
        self.stations: list[str | None] = [None]
        self.cards: list[RecheckCard] = []
        self.selected = 0
        self.problem = ""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        if event.type() != QEvent.Type.Resize:
            return False
        # rows (and word lines) a pixel apart in height still get one type size
        if watched in self.rows:
            size = max(theme.MIN_FONT_PX, min(row.height() for row in self.rows) // 3)
            for row in self.rows:
                if row.fixed_px != size:
                    row.fixed_px = size
                    row.fit_font()
        else:
            cap = int(min(label.contentsRect().height() for label in self.words) * WORD_FILL)
            for label in self.words:
                label.set_max_px(cap)
        return False

    def refresh(self) -> None:
        from kiosk.storage import LogQuery

        now = _now_local()
        choices = periods(now)
        self.period_index = min(self.period_index, len(choices) - 1)
        period = choices[self.period_index]
        controller = self.mode.controller
        kept = list(controller.unrecorded)
        try:
            log = self.mode.storage().log
            self.stations = [None, *sorted(log.count_by_station(EPOCH))]
            self.station_index = min(self.station_index, len(self.stations) - 1)
            station = self.stations[self.station_index]
            entries = log.query(
                LogQuery(last=RECHECK_QUERY_LIMIT, station=station, since=period.since, until=period.until)
            )
            problem = ""
        except KioskError as exc:
            entries, station, problem = [], None, f"The log cannot be read: {exc}"
        self.when_value.setText(period.label)
        self.station_value.setText("Every station" if station is None else station)
        self.cards = [recheck_card(e, kept=True) for e in reversed(kept)] + [recheck_card(e) for e in entries]
        self.selected = min(self.selected, max(0, len(self.cards) - 1))
        self.problem = problem
        self.show_cards()

    def show_cards(self) -> None:
        first = max(0, min(self.selected - RECHECK_ROWS // 2, len(self.cards) - RECHECK_ROWS))
        shown = self.cards[first : first + RECHECK_ROWS]
        for index, row in enumerate(self.rows):
            if index < len(shown):
                card = shown[index]
                row.setText(card.summary)
                row.setEnabled(True)
                chosen = first + index == self.selected
                row.set_colour(SELECTED if chosen else theme.KEY_BACKGROUND)
            else:
                empty = "The log cannot be read" if self.problem else "No challenges match."
                row.setText(empty if index == 0 and not self.cards else "")
                row.setEnabled(False)
                row.set_colour(theme.KEY_BACKGROUND)
        self._first = first
        if not self.cards:
            self.heading.setText("")
            self.details.setText(self.problem)
            for label in self.words:
                label.setText("")
            return
        card = self.cards[self.selected]
        count = len(self.cards)
        self.heading.setText(f"Challenge {self.selected + 1} of {count}: {card.verdict.value}")
        marks = {True: "\u2713", False: "\u2717"}
        texts = [f"{marks[w.acceptable]} {w.word} \u2014 {w.status}" for w in card.words]
        longest = max(texts, key=len, default="")
        for index, label in enumerate(self.words):
            if index < len(card.words):
                line = card.words[index]
                label.set_reference(longest)  # one type size for the card's words
                label.setText(texts[index])
                label.set_colour(GOOD if line.acceptable else BAD)
            else:
                label.setText("")
        self.details.setText(f"{self.problem}\n{card.details}" if self.problem else card.details)

    def select_row(self, index: int) -> None:
        self.selected = min(len(self.cards) - 1, self._first + index)
        self.show_cards()

    def step_period(self, delta: int) -> None:
        count = len(periods(_now_local()))
        self.period_index = max(0, min(count - 1, self.period_index + delta))
        self.selected = 0
        self.refresh()

    def step_station(self, delta: int) -> None:
        self.station_index = (self.station_index + delta) % max(1, len(self.stations))
        self.selected = 0
        self.refresh()

    def key(self, key: int, text: str) -> bool:
        moves: dict[int, int] = {
            K.Key_Up: -1,
            K.Key_Down: 1,
            K.Key_PageUp: -RECHECK_ROWS,
            K.Key_PageDown: RECHECK_ROWS,
        }
        if key in moves and self.cards:
            self.selected = max(0, min(len(self.cards) - 1, self.selected + moves[key]))
            self.show_cards()
        elif key in (K.Key_Left, K.Key_Right):
            self.step_period(-1 if key == K.Key_Left else 1)
        elif text.lower() == "s":
            self.step_station(1)
        else:
            return False
        return True


class TextPage(Page):
    """A page of lines of text, with optional buttons under it."""

    def __init__(self, mode: JudgeView, buttons: Sequence[tuple[str, Callable[[], None]]] = ()) -> None:
        super().__init__(mode)
        self.text = FitLabel(fill=0.8, align=A.AlignLeft | A.AlignVCenter, wrap=True)
        self.text.setObjectName(f"{type(self).__name__.lower()}-text")
        self.notice = FitLabel(fill=0.6, bold=True, colour=theme.NOTICE, wrap=True)
        self.notice.setObjectName(f"{type(self).__name__.lower()}-notice")
        self.commands = [self.button(label, action) for label, action in buttons]
        items: list[tuple[QWidget, int]] = [(self.text, 70), (self.notice, 10)]
        if self.commands:
            items.append((_row(*((b, 1) for b in self.commands), spacing=16), 14))
        _stack(self, items)

    def show_lines(self, lines: Sequence[str]) -> None:
        self.text.setText("\n".join(lines))


class PacksPage(TextPage):
    """The packs in use, whether each is still the file on disk, and Reload packs.

    A reload verifies every file as start-up does and swaps them in only if all of them load (on
    the ready screen: see ``StationController.reload_packs``); otherwise the station keeps the
    packs it had and this page says which file failed and why.
    """

    hint = "The packs are read from disk again only when asked \u00b7 Esc: back to the menu"
    touch_hint = "The packs are read from disk again only when asked \u00b7 \u25c0 Menu: back to the menu"

    def __init__(self, mode: JudgeView) -> None:
        super().__init__(mode, [(mode.keyed("Reload packs", "R"), self.reload)])
        self.reload_button = self.commands[0]
        self.reload_button.setObjectName("packs-reload")
        self.result: ReloadResult | None = None

    def refresh(self) -> None:
        self.result = None
        self.notice.setText("")
        self.show_packs()

    def show_packs(self) -> None:
        controller = self.mode.controller
        on_disk: dict[Path, OnDisk] = {}
        for loaded in controller.divisions:
            for path, lexicon in (
                (loaded.division.pack, loaded.lexicon),
                (loaded.division.second_opinion_pack, loaded.second_opinion),
            ):
                if path is not None and lexicon is not None and path not in on_disk:
                    on_disk[path] = check_on_disk(lexicon, controller.config.trusted_keys)
        when = controller.packs_verified_at
        verified = "at start-up" if when is None else f"by the reload at {when.astimezone():%H:%M}"
        waiting = controller.pending_divisions is not None
        self.show_lines(
            pack_lines(controller.divisions, on_disk, verified=verified, result=self.result, waiting=waiting)
        )

    def reload(self) -> None:
        self.result = self.mode.controller.reload_packs()
        self.notice.set_colour(GOOD if self.result.accepted else theme.NOTICE)
        self.notice.setText(self.result.summary)
        self.show_packs()

    def key(self, key: int, text: str) -> bool:
        if text.lower() == "r":
            self.reload()
            return True
        return False


class CountsPage(TextPage):
    def refresh(self) -> None:
        now = _now_local()
        try:
            counts = self.mode.storage().log.count_by_station(local_midnight(now.date()))
        except KioskError as exc:
            self.show_lines([f"The log cannot be read: {exc}"])
            return
        station = self.mode.controller.config.station_name
        self.show_lines(
            [f"Challenges today (since midnight), at {now:%H:%M}:", *count_lines(counts, station)]
        )


class StatusPage(TextPage):
    hint = "Esc: back to the menu"

    def __init__(self, mode: JudgeView) -> None:
        super().__init__(
            mode,
            [
                (mode.keyed("Forward now", "F"), self.forward),
                (mode.keyed("Record the kept challenges", "R"), self.retry),
            ],
        )

    def refresh(self) -> None:
        controller = self.mode.controller
        try:
            status = self.mode.storage().log.status()
        except KioskError as exc:
            self.show_lines([f"The log cannot be opened: {exc}"])
            return
        kind = "Shared log (PostgreSQL)" if status.shared else "This station's log (SQLite)"
        lines = [f"{kind}:", f"    {status.location}"]
        if status.shared:
            lines.append(f"Waiting to be forwarded: {status.backlog}")
        if status.shared:
            lines.append(f"Last problem with the server: {status.last_error or 'none'}")
        kept = len(controller.unrecorded)
        lines.append(f"Kept in memory after a log failure: {kept}")
        if controller.last_fault:
            lines.append(f"Why the last challenge was not recorded: {controller.last_fault}")
        if controller.state.screen is Screen.FAULT:
            lines.append("The station shows a fault: 'Back to the station' clears it.")
        self.show_lines(lines)
        self.commands[0].setEnabled(status.shared)
        self.commands[1].setEnabled(kept > 0)

    def forward(self) -> None:
        try:
            sent = self.mode.storage().log.forward_backlog()
            self.notice.setText(f"Forwarded {counted(sent, 'challenge')}")
        except KioskError as exc:
            self.notice.setText(f"Not forwarded: {exc}")
        self.refresh()

    def retry(self) -> None:
        left = self.mode.controller.retry_unrecorded()
        self.notice.setText(
            "All kept challenges are now in the log"
            if left == 0
            else f"{counted(left, 'challenge')} still not recorded"
        )
        self.refresh()

    def key(self, key: int, text: str) -> bool:
        if text.lower() == "f" and self.commands[0].isEnabled():
            self.forward()
        elif text.lower() == "r" and self.commands[1].isEnabled():
            self.retry()
        else:
            return False
        return True


def _writable_mounts() -> list[Path]:
    return [Path(v.rootPath()) for v in QStorageInfo.mountedVolumes() if v.isReady() and not v.isReadOnly()]


def _flush_to_disk(out: TextIO, folder: Path) -> None:
    """Make the file survive a stick pulled out at once: its bytes and its directory entry."""
    out.flush()
    os.fsync(out.fileno())
    try:
        handle = os.open(folder, os.O_RDONLY)
    except OSError:
        return  # Windows cannot open a directory; its FAT driver writes the entry with the file
    try:
        os.fsync(handle)
    except OSError:
        pass
    finally:
        os.close(handle)


class ExportPage(TextPage):
    """Write the log as CSV to this station's data folder or a USB stick, and say where it went.

    The list of sticks is read again every second, so a stick plugged in while the page is open
    appears (and is chosen) by itself.
    """

    hint = "\u2190\u2192 choose where \u00b7 Esc: back to the menu"
    touch_hint = "\u25c0 Folder \u25b6 chooses where \u00b7 \u25c0 Menu: back to the menu"

    def __init__(self, mode: JudgeView) -> None:
        super().__init__(
            mode,
            [
                ("\u25c0 Folder", lambda: self.step(-1)),
                (mode.keyed("Write the CSV", "Enter"), self.write),
                ("Folder \u25b6", lambda: self.step(1)),
            ],
        )
        self.write_button = self.commands[1]
        self.write_button.set_colour(SAFE)
        self.write_button.setObjectName("export-write")
        self.commands[0].setObjectName("export-folder-back")
        self.commands[2].setObjectName("export-folder-next")
        self.roots: Sequence[Path] = REMOVABLE_MEDIA_ROOTS
        self.list_mounts: Callable[[], list[Path]] = _writable_mounts
        self.folders: list[Path] = []
        self.index = 0
        self.written: Path | None = None

    def refresh(self) -> None:
        self.written = None
        self.notice.setText("")
        self.folders = []
        self.index = 0
        self.tick()

    def tick(self) -> None:
        folders = export_folders(self.mode.data_dir, self.list_mounts(), self.roots)
        if folders == self.folders:
            return
        chosen = self.folders[self.index] if self.folders else None
        new_sticks = [f for f in folders[1:] if f not in self.folders]
        if self.folders and new_sticks:
            chosen = new_sticks[0]  # a stick just plugged in is where the judge wants the file
        self.folders = folders
        self.index = folders.index(chosen) if chosen in folders else 0
        if self.written is None:
            self.show_folder()

    @property
    def sticks(self) -> int:
        return len(self.folders) - 1

    def show_folder(self) -> None:
        for button in (self.commands[0], self.commands[2]):
            button.setEnabled(self.sticks > 0)  # nowhere else to choose until a stick is found
        folder = self.folders[self.index]
        lines = ["The whole log, per-word results included, as one CSV file.", ""]
        if self.index == 0:
            lines += ["Save to this station's data folder:", f"    {folder}"]
        else:
            lines += [f"Save to the USB stick ({self.index} of {self.sticks}):", f"    {folder}"]
        lines.append("")
        if self.sticks == 0:
            roots = ", ".join(str(root) for root in self.roots)
            lines += [
                "No USB stick found. Plug one in: it appears here by itself.",
                f"(A stick is found once the system mounts it under {roots}.)",
            ]
        elif self.index == 0:
            choose = "\u25c0 Folder \u25b6" if self.mode.touch_mode else "\u2190 \u2192"
            lines.append(f"{counted(self.sticks, 'USB stick')} found: {choose} chooses it.")
        self.show_lines(lines)

    def step(self, delta: int) -> None:
        self.index = (self.index + delta) % len(self.folders)
        self.written = None
        self.notice.setText("")
        self.show_folder()

    def write(self) -> None:
        from kiosk.storage import LogQuery, write_csv

        folder = self.folders[self.index]
        path = folder / export_file_name(self.mode.controller.config.station_name, _now_local())
        try:
            entries = self.mode.storage().log.query(LogQuery())
            entries.reverse()
            folder.mkdir(parents=True, exist_ok=True)
            with path.open("w", encoding="utf-8", newline="") as out:
                count = write_csv(entries, out)
                _flush_to_disk(out, folder)
        except (KioskError, OSError) as exc:
            self.notice.setText(f"Not written: {getattr(exc, 'strerror', None) or exc}")
            return
        self.written = path
        on_stick = self.index > 0
        where = "the USB stick" if on_stick else "this station's data folder"
        lines = [f"Wrote {counted(count, 'challenge')} to {where}:", f"    {path}", ""]
        if on_stick:
            lines.append("The file is saved: you can take the stick out now.")
        else:
            lines.append("To take it away, plug in a USB stick and write it again there.")
        self.show_lines(lines)
        again = "tap Write the CSV" if self.mode.touch_mode else "press Enter"
        self.notice.setText(f"Written. To write it again, {again}")

    def key(self, key: int, text: str) -> bool:
        if key in (K.Key_Left, K.Key_Right):
            self.step(-1 if key == K.Key_Left else 1)
        elif key in (K.Key_Return, K.Key_Enter):
            self.write()
        else:
            return False
        return True


class SettingsPage(Page):
    hint = "\u2191\u2193 choose a line \u00b7 \u2190\u2192 change it \u00b7 Esc: back to the menu"
    touch_hint = "\u25c0 \u25b6 change a line \u00b7 \u25c0 Menu: back to the menu"

    def __init__(self, mode: JudgeView) -> None:
        super().__init__(mode)
        self.names = [d.division.name for d in mode.controller.divisions]
        self.lines: list[tuple[FitLabel, FitButton, FitLabel, FitButton]] = []
        items: list[tuple[QWidget, int]] = []
        for index in range(len(Field)):
            label = FitLabel(fill=0.55, align=A.AlignRight | A.AlignVCenter)
            value = FitLabel(fill=0.6, bold=True)
            value.setObjectName(f"settings-value-{index + 1}")
            less = self.button("\u25c0", partial(self.change, index, -1))
            more = self.button("\u25b6", partial(self.change, index, 1))
            for widget, role in ((label, "label"), (less, "less"), (more, "more")):
                widget.setObjectName(f"settings-{role}-{index + 1}")
            self.lines.append((label, less, value, more))
            row = _row((label, 8), (_spacer(), 1), (less, 1), (value, 6), (more, 1), margin=2)
            items.append((row, 10))
        self.notice = FitLabel(fill=0.6, bold=True, colour=theme.NOTICE, wrap=True)
        self.notice.setObjectName("settings-notice")
        self.save = self.button(mode.keyed("Save and apply", "Enter"), self.save_choice, colour=SAFE)
        self.save.setObjectName("settings-save")
        items += [(self.notice, 8), (_row((_spacer(), 1), (self.save, 2), (_spacer(), 1)), 12)]
        _stack(self, items)
        self.draft = mode.controller.choice
        self.line = 0
        self.warned = False  # the judge was told the changes are not saved

    @property
    def fields(self) -> tuple[Field, ...]:
        return choice_fields(self.draft, len(self.names))

    @property
    def unsaved(self) -> bool:
        return self.draft != self.mode.controller.choice

    def refresh(self) -> None:
        """Open the page: a draft left unsaved before (judge mode locked itself) is kept, and said."""
        self.line = 0
        self.warned = False
        if self.unsaved:
            self.notice.setText("Not saved yet: changes kept from before")
        else:
            self.notice.setText("")
        self.show_draft()

    def leaving(self) -> bool:
        """Esc (or \u25c0 Menu) with changes not saved: say so once; the second time, leave them."""
        if not self.unsaved or self.warned:
            self.draft = self.mode.controller.choice
            return True
        self.warned = True
        how = "Tap Save and apply" if self.mode.touch_mode else "Enter saves and applies them"
        again = "\u25c0 Menu again" if self.mode.touch_mode else "Esc again"
        self.notice.setText(f"The changes are not saved. {how}; {again} leaves them unsaved")
        return False

    def show_draft(self) -> None:
        fields = self.fields
        self.line = min(self.line, len(fields) - 1)
        for index, (label, less, value, more) in enumerate(self.lines):
            used = index < len(fields)
            for widget in (label, less, value, more):
                widget.setVisible(used)
            if used:
                field = fields[index]
                label.setText(field.value)
                value.setText(value_text(self.draft, field, self.names))
                chosen = index == self.line
                value.set_colour(theme.TEXT, SELECTED if chosen else None)

    def change(self, index: int, delta: int) -> None:
        self.warned = False
        fields = self.fields
        if index >= len(fields):
            return
        self.line = index
        before = self.draft
        self.draft = stepped(self.draft, fields[index], delta, len(self.names))
        if self.draft == before and fields[index] in (Field.KEY_LOCKOUT, Field.VERDICT_DISPLAY):
            self.notice.setText("Keys must be ignored for less time than the verdict is shown")
        elif self.draft != self.mode.controller.choice:
            self.notice.setText("Not saved yet")  # the button below says how
        else:
            self.notice.setText("")
        self.show_draft()

    def save_choice(self) -> None:
        division, profile, timings = saved_names(self.draft, self.names)
        from kiosk.storage import StationSettings

        try:
            self.mode.storage().settings.save(
                StationSettings(division=division, rule_profile=profile, timings_ms=timings)
            )
        except KioskError as exc:
            self.notice.setText(f"Not saved: {exc}")
            return
        self.mode.controller.apply_choice(self.draft)
        self.draft = self.mode.controller.choice
        self.notice.setText("Saved and applied; kept after a restart")

    def key(self, key: int, text: str) -> bool:
        if key in (K.Key_Up, K.Key_Down):
            self.line = max(0, min(len(self.fields) - 1, self.line + (1 if key == K.Key_Down else -1)))
            self.show_draft()
        elif key in (K.Key_Left, K.Key_Right):
            self.change(self.line, -1 if key == K.Key_Left else 1)
        elif key in (K.Key_Return, K.Key_Enter):
            self.save_choice()
        else:
            return False
        return True


class ExitPage(Page):
    hint = ""
    touch_hint = ""

    def __init__(self, mode: JudgeView) -> None:
        super().__init__(mode)
        self.headline = FitLabel("Exit the station?", fill=0.75, bold=True)
        self.headline.setObjectName("exit-headline")
        self.detail = FitLabel(
            "No challenge can be judged here until the station is started again.", fill=0.7
        )
        self.kept = FitLabel(fill=0.6, bold=True, colour=theme.NOTICE, wrap=True)
        self.kept.setObjectName("exit-kept")
        exit_text = "Yes, exit" if mode.touch_mode else "Yes, exit\n(Enter)"
        self.confirm = self.button(exit_text, mode.exit_confirmed.emit, colour=DANGER)
        self.confirm.setObjectName("exit-confirm")
        self.cancel = self.button("No, stay" if mode.touch_mode else "No, stay\n(Esc)", lambda: mode.go(None))
        self.cancel.reference = self.confirm.reference = exit_text
        self.cancel.setObjectName("exit-cancel")
        _stack(
            self,
            [
                (_spacer(), 8),
                (self.headline, 20),
                (self.detail, 12),
                (self.kept, 12),
                (_row((self.cancel, 1), (self.confirm, 1), spacing=40), 22),
                (_spacer(), 16),
            ],
        )

    def refresh(self) -> None:
        kept = len(self.mode.controller.unrecorded)
        self.kept.setText(
            ""
            if kept == 0
            else f"{counted(kept, 'challenge')} kept in memory after a log failure would be lost: "
            f"record {'it' if kept == 1 else 'them'} first (6 Log status) or note "
            f"{'it' if kept == 1 else 'them'} (1 Recent challenges)"
        )

    def key(self, key: int, text: str) -> bool:
        if key in (K.Key_Return, K.Key_Enter):
            self.mode.exit_confirmed.emit()
            return True
        return False


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
        self.set_pin_command = set_pin_command  # what the door tells a judge who forgot the PIN
        self.controller = controller
        self._storage = storage
        self.data_dir = data_dir
        self._clock = clock
        self.idle_lock_s = float(controller.config.judge.idle_lock_seconds)
        self.touch_mode = touch
        self.session: JudgeSession | None = None
        self.back = self.button("\u25c0 Menu", lambda: self.go(None))
        self.back.setObjectName("judge-back")
        self.back_gap = _spacer()  # keeps the title clear of the button
        self.title = FitLabel(fill=0.7, bold=True, align=A.AlignLeft | A.AlignVCenter)
        self.title.setObjectName("judge-title")
        self.lock = FitLabel(fill=0.55, colour=theme.DIM_TEXT, align=A.AlignRight | A.AlignVCenter)
        self.lock.setObjectName("judge-lock")
        self.hint = FitLabel(fill=0.55, colour=theme.DIM_TEXT)
        self.hint.setObjectName("judge-hint")
        self.pages = QStackedWidget()
        self.door = DoorPage(self, touch=touch)
        self.menu = MenuPage(self)
        self.recheck = RecheckPage(self)
        self.packs = PacksPage(self)
        self.settings = SettingsPage(self)
        self.counts = CountsPage(self)
        self.export = ExportPage(self)
        self.status = StatusPage(self)
        self.exit_page = ExitPage(self)
        self.page_for: dict[JudgePage, Page] = {
            JudgePage.RECHECK: self.recheck,
            JudgePage.PACKS: self.packs,
            JudgePage.SETTINGS: self.settings,
            JudgePage.COUNTS: self.counts,
            JudgePage.EXPORT: self.export,
            JudgePage.STATUS: self.status,
            JudgePage.EXIT: self.exit_page,
        }
        for page in (self.door, self.menu, *self.page_for.values()):
            self.pages.addWidget(page)
        _stack(
            self,
            [
                (_row((self.back, 2), (self.back_gap, 1), (self.title, 11), (self.lock, 4), margin=2), 9),
                (self.pages, 84),
                (self.hint, 6),
                (_spacer(), 1),
            ],
        )
        self.ticker = QTimer(self)
        self.ticker.setInterval(TICK_MS)
        self.ticker.timeout.connect(self.tick)

    # -- plumbing for the pages --------------------------------------------------------------------

    def storage(self) -> StationStorage:
        """The station's own storage (opened now if the station has not opened it yet)."""
        if self._storage is None:
            raise KioskError("this station has no database")
        return self._storage()

    def button(
        self, text: str, action: Callable[[], None], *, colour: str = theme.KEY_BACKGROUND, left: bool = False
    ) -> FitButton:
        button = FitButton(text, colour=colour, left=left)
        button.pressed.connect(self.touch)
        button.clicked.connect(lambda _checked=False: action())
        return button

    @property
    def current(self) -> Page:
        page = self.pages.currentWidget()
        assert isinstance(page, Page)
        return page

    # -- the flow ----------------------------------------------------------------------------------

    def open(self) -> None:
        """Esc or the judge chord (or the Judge button) on the station: the PIN door."""
        self.session = None
        self.door.open()
        self._show(self.door, "Judge mode \u2014 judges only")
        self.ticker.start()

    def unlocked(self, *, cleared: PinAttempts | None = None) -> None:
        """The PIN was right; ``cleared`` are the wrong PINs typed before it, shown on the menu."""
        self.session = JudgeSession.opened(self._clock(), idle_lock_s=self.idle_lock_s)
        self.menu.warn_of(cleared if cleared is not None else PinAttempts())
        self.go(None)

    def go(self, page: JudgePage | None) -> None:
        """Open a judge screen; None is the menu."""
        if self.session is None:
            return
        if page is JudgePage.BACK:
            self.finish(clear_fault=True)
            return
        if not self.current.leaving():
            return
        if page is None:
            self._show(self.menu, "Judge mode")
            return
        target = self.page_for[page]
        target.refresh()
        # the exit page's question names it already
        self._show(target, "Judge mode" if page is JudgePage.EXIT else f"Judge mode \u2014 {page.value}")

    def _show(self, page: Page, title: str) -> None:
        self.pages.setCurrentWidget(page)
        self.title.setText(title)
        self.hint.setText(page.touch_hint if self.touch_mode else page.hint)
        # a way back for a judge with no keyboard: the door has Cancel, the menu "Back to the station"
        self.back.setVisible(page is not self.door and page is not self.menu)
        self.back_gap.setVisible(self.back.isVisibleTo(self))
        self.tick()

    def keyed(self, label: str, key: str) -> str:
        """A button's label with the key that does the same, e.g. "Save and apply (Enter)"."""
        return label if self.touch_mode else f"{label} ({key})"

    def finish(self, *, clear_fault: bool = False) -> None:
        """Back to the station: chosen by the judge, cancelled at the door, or locked when idle."""
        self.session = None
        self.ticker.stop()
        if self.settings.unsaved:  # kept for the judge who comes back, who is told so
            print("judge mode: settings left unsaved (kept for the next judge)", file=sys.stderr)
        self.finished.emit()
        if clear_fault and self.controller.state.screen is Screen.FAULT:
            self.controller.clear_fault()

    def touch(self) -> None:
        if self.session is not None:
            self.session = self.session.touched(self._clock())

    def tick(self) -> None:
        """Every second: lock an idle judge mode, and count down the lock and the PIN back-off."""
        if self.session is None:
            self.lock.setText("")
            self.door.tick()
            return
        now = self._clock()
        if self.session.is_locked(now):
            print("judge mode locked itself after being left idle", file=sys.stderr)
            self.finish()
            return
        self.lock.setText(f"Locks in {format_wait(self.session.remaining_s(now))}")
        self.current.tick()

    def handle_key(self, event: QKeyEvent) -> None:
        key, text = event.key(), event.text()
        self.touch()
        page = self.current
        if page.key(key, text):
            self.tick()
            return
        if key == K.Key_Escape:
            if page is self.door or page is self.menu:
                self.finish()
            else:
                self.go(None)


def restore_settings(controller: StationController, storage: StationStorage) -> tuple[str, ...]:
    """At start-up: apply what a judge chose before the restart; return what could not be used."""
    saved = storage.settings.load()
    if saved.division is None and saved.rule_profile is None and not saved.timings_ms:
        return ()
    choice, problems = resolve_choice(controller.config, saved.division, saved.rule_profile, saved.timings_ms)
    controller.apply_choice(choice)
    return problems
