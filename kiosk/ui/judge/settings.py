"""Divisions and rules: the divisions served, the challenge rule and the timings, one line each.

The judge steps each line through fixed choices (◀ ▶ or the arrow keys, no typing); Save and apply
keeps them in the station's storage and applies them from the next challenge.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWidget

from kiosk.core.judge import JudgeState, Key, Notice, Pressed, Said, SettingStepped
from kiosk.core.play.rules import PenaltyParty, ProfileKind
from kiosk.core.station.settings import Field, StationChoice
from kiosk.core.words.language import Catalogue, english, marked
from kiosk.ui import theme
from kiosk.ui.judge.page import ENTER_KEY, Page, Send, keyed
from kiosk.ui.layout import row, spacer, stack
from kiosk.ui.theme import FitButton, FitLabel

__all__ = ["FIELD_LABELS", "SettingsPage", "notice_text", "value_text"]

A = Qt.AlignmentFlag

# The page's words.
HINT = marked("\u2191\u2193 choose a line \u00b7 \u2190\u2192 change it \u00b7 Esc: back to the menu")
TOUCH_HINT = marked("\u25c0 \u25b6 change a line \u00b7 \u25c0 Menu: back to the menu")
LESS = marked("Previous choice: {setting}")
MORE = marked("Next choice: {setting}")
SAVE = marked("Save and apply")
SAVING = marked("Saving\u2026")
FIELD_LABELS = {
    Field.DIVISION: marked("Divisions served"),
    Field.PROFILE: marked("Challenge rule"),
    Field.POINTS: marked(
        "Penalty"
    ),  # per word, or per challenge: one line (the judge's screen has room for 7)
    Field.PARTY: marked("Penalty points"),
    Field.KEY_LOCKOUT: marked("Keys ignored after a verdict"),
    Field.VERDICT_DISPLAY: marked("Verdict shown for"),
    Field.IDLE_ENTRY: marked("Unfinished entry clears after"),
}
EVERY_DIVISION = marked("every division: players choose")
PARTY_TEXT = {
    PenaltyParty.CHALLENGER_LOSES: marked("challenger loses them"),
    PenaltyParty.CHALLENGED_GAINS: marked("challenged player gains them"),
    PenaltyParty.BOTH: marked("both (IMU)"),
}


def _seconds(ms: int, t: Catalogue) -> str:
    return t.text("{seconds} s", seconds=t.decimal(ms / 1000))  # 0,6 s where the comma is decimal


def value_text(
    choice: StationChoice, field: Field, division_names: Sequence[str], t: Catalogue | None = None
) -> str:
    t = t or english()
    rules, timings = choice.rules, choice.timings
    texts = {
        Field.DIVISION: lambda: (
            t.text(EVERY_DIVISION)
            if choice.served is None
            else t.text("only {division}", division=division_names[choice.served])
        ),
        Field.PROFILE: lambda: rules.title_in(t),
        Field.POINTS: lambda: (
            t.plural(
                "{count} point per challenge", "{count} points per challenge", rules.points_per_challenge
            )
            if rules.kind is ProfileKind.PER_TURN
            else t.plural("{count} point per word", "{count} points per word", rules.points_per_word)
        ),
        Field.PARTY: lambda: t.text(PARTY_TEXT[rules.penalty_party]),
        Field.KEY_LOCKOUT: lambda: _seconds(timings.key_lockout_ms, t),
        Field.VERDICT_DISPLAY: lambda: _seconds(timings.verdict_display_ms, t),
        Field.IDLE_ENTRY: lambda: _seconds(timings.idle_entry_ms, t),
    }
    return texts[field]()


def notice_text(notice: Notice | None, *, touch: bool, t: Catalogue | None = None) -> str:
    if notice is None:
        return ""
    t = t or english()
    said = notice.said
    if said is Said.LEAVE_UNSAVED:
        if touch:
            return t.text(
                "The changes are not saved. The button below saves and applies them; \u25c0 Menu "
                "again leaves them unsaved"
            )
        return t.text(
            "The changes are not saved. Enter saves and applies them; Esc again leaves them unsaved"
        )
    texts = {
        Said.KEPT_FROM_BEFORE: marked("Not saved yet: changes kept from before"),
        Said.NOT_SAVED_YET: marked("Not saved yet"),
        Said.LOCKOUT_RULE: marked("Keys must be ignored for less time than the verdict is shown"),
        Said.SAVED: marked("Saved and applied; kept after a restart"),
    }
    if said is Said.NOT_SAVED:
        return t.text("Not saved: {problem}", problem=t.say(notice.detail))
    return t.text(texts.get(said, ""))


class SettingsPage(Page):
    hint = HINT
    touch_hint = TOUCH_HINT

    def __init__(self, send: Send, *, touch: bool) -> None:
        super().__init__(send, touch=touch)
        self.lines: list[tuple[FitLabel, FitButton, FitLabel, FitButton]] = []
        items: list[tuple[QWidget, int]] = []
        for index in range(len(Field)):
            label = FitLabel(fill=0.55, align=A.AlignRight | A.AlignVCenter)
            value = FitLabel(fill=0.6, bold=True)
            value.setObjectName(f"settings-value-{index + 1}")
            less = self.button("\u25c0", SettingStepped(index, -1))
            more = self.button("\u25b6", SettingStepped(index, 1))
            for widget, role in ((label, "label"), (less, "less"), (more, "more")):
                widget.setObjectName(f"settings-{role}-{index + 1}")
            self.lines.append((label, less, value, more))
            line = row((label, 8), (spacer(), 1), (less, 1), (value, 6), (more, 1), margin=2)
            items.append((line, 10))
        self.notice = FitLabel(fill=0.6, bold=True, colour=theme.NOTICE, wrap=True)
        self.notice.setObjectName("settings-notice")
        self.save = self.button(keyed(SAVE, "Enter", touch=touch), Pressed(Key.ENTER), colour=theme.SAFE)
        self.save.setObjectName("settings-save")
        items += [(self.notice, 8), (row((spacer(), 1), (self.save, 2), (spacer(), 1)), 12)]
        stack(self, items)

    def show_state(self, state: JudgeState, *, looking: bool) -> None:
        t = self.catalogue
        self.save.setText(keyed(t.text(SAVE), t.text(ENTER_KEY), touch=self.touch))
        settings, fields = state.settings, state.fields
        draft = settings.draft or state.station.choice
        names = state.station.division_names
        chosen_line = min(settings.line, len(fields) - 1)
        for index, (label, less, value, more) in enumerate(self.lines):
            used = index < len(fields)
            for widget in (label, less, value, more):
                widget.setVisible(used)
            if used:
                setting = t.text(FIELD_LABELS[fields[index]])
                label.setText(setting)
                less.setAccessibleName(t.text(LESS, setting=setting))  # the buttons show arrows
                more.setAccessibleName(t.text(MORE, setting=setting))
                value.setText(value_text(draft, fields[index], names, t))
                value.set_colour(theme.TEXT, theme.SELECTED if index == chosen_line else None)
        saving = looking and settings.saving is not None
        self.notice.setText(t.text(SAVING) if saving else notice_text(settings.notice, touch=self.touch, t=t))
