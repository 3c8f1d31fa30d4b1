"""Recent challenges: the list, and the selected challenge word by word.

Per-word results are shown here (and in the CSV export) and nowhere else on the station. Times are
the station's local time, which is what the judge's watch says; the log keeps UTC.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QGridLayout, QSizePolicy, QWidget

from kiosk.core.judge import (
    RECHECK_ROWS,
    JudgeState,
    Key,
    Period,
    PeriodKind,
    Pressed,
    RowTapped,
    StationStepped,
    first_row,
    periods,
)
from kiosk.core.log.challenge import ChallengeEntry
from kiosk.core.play.adjudication import Verdict, WordStatus
from kiosk.core.words.language import Catalogue, english, marked
from kiosk.ui import theme
from kiosk.ui.judge.page import Page, Send
from kiosk.ui.layout import row, spacer, stack
from kiosk.ui.theme import FitButton, FitLabel

__all__ = ["RecheckCard", "RecheckPage", "WordLine", "edition_text", "period_label", "recheck_card"]

A = Qt.AlignmentFlag
WORD_FILL = 0.75  # a recheck word line's type fills this share of its height
WORD_LINES = 8

# The recheck's words.
HINT = marked("\u2191\u2193 choose a challenge \u00b7 \u2190\u2192 when \u00b7 S: station \u00b7 Esc: menu")
TOUCH_HINT = marked("Tap a challenge to see each word \u00b7 tap the last line to scroll")
EVERY_STATION = marked("Every station")
NO_MATCH = marked("No challenges match.")
UNREADABLE = marked("The log cannot be read")
UNREADABLE_BECAUSE = marked("The log cannot be read: {problem}")
LOOKING = marked("Looking in the log\u2026")
LOCAL_ONLY = marked("The shared log cannot be reached: only this station's challenges are listed.")
NOT_IN_THE_LOG = marked("NOT IN THE LOG")
PERIOD_LABELS = {
    PeriodKind.LAST_15_MINUTES: marked("Last 15 minutes"),
    PeriodKind.LAST_HOUR: marked("Last hour"),
    PeriodKind.TODAY: marked("Today"),
    PeriodKind.YESTERDAY: marked("Yesterday"),
    PeriodKind.LAST_7_DAYS: marked("Last 7 days"),
    PeriodKind.EVERYTHING: marked("Everything"),
}
# The verdict and each word's result as judges read them (the log keeps the English values).
VERDICT_WORDS = {Verdict.ACCEPTABLE: marked("ACCEPTABLE"), Verdict.UNACCEPTABLE: marked("UNACCEPTABLE")}
STATUS_WORDS = {
    WordStatus.ACCEPTABLE: marked("acceptable"),
    WordStatus.NOT_IN_LEXICON: marked("not in the lexicon"),
    WordStatus.YOUTH_EXCLUDED: marked("on the youth exclusion list"),
}
MARKS = {True: "\u2713", False: "\u2717"}
# The filter buttons show arrows; a screen reader says these (in the order of ``filter_buttons``).
FILTER_NAMES = (
    marked("Earlier challenges"),
    marked("Later challenges"),
    marked("Previous station"),
    marked("Next station"),
)


def period_label(period: Period, t: Catalogue | None = None) -> str:
    t = t or english()
    if period.kind is PeriodKind.HOUR and period.since is not None and period.until is not None:
        return t.text(
            "Today {since}\u2013{until}", since=f"{period.since:%H:%M}", until=f"{period.until:%H:%M}"
        )
    return t.text(PERIOD_LABELS[period.kind])


def edition_text(entry: ChallengeEntry, t: Catalogue) -> str:
    """What the log says of the edition, for judges: ``NWL2023 (published word set)`` and kin."""
    if not entry.edition_checked:
        return t.text("edition not recorded (logged before the log recorded it)")
    if entry.published_edition is None:
        return t.text("not a published edition")
    return t.text("{edition} (published word set)", edition=entry.published_edition)


@dataclass(frozen=True)
class WordLine:
    word: str
    acceptable: bool
    status: str

    @property
    def text(self) -> str:
        return f"{MARKS[self.acceptable]} {self.word} \u2014 {self.status}"


@dataclass(frozen=True)
class RecheckCard:
    """One challenge for the judge: a one-line summary, each word's result, and the record's details."""

    summary: str
    verdict: Verdict
    words: tuple[WordLine, ...]
    details: str
    kept: bool  # judged while the log was failing: only in this station's memory


def _short(digest: str) -> str:
    """The first 12 hex digits of a ``sha256:`` digest: enough to tell sets apart on a screen."""
    return digest.removeprefix("sha256:")[:12]


def recheck_card(entry: ChallengeEntry, *, kept: bool = False, t: Catalogue | None = None) -> RecheckCard:
    t = t or english()
    ruling = entry.ruling
    local = entry.judged_at.astimezone()  # the log's UTC, as the judge's watch says it
    words = " ".join(ruling.words)
    table = "" if entry.table is None else " \u00b7 " + t.text("table {number}", number=entry.table)
    verdict = t.text(VERDICT_WORDS[ruling.verdict])
    summary = f"{local:%H:%M:%S}  {entry.station} \u00b7 {entry.division}{table}  {verdict}  {words}"
    if kept:
        summary = f"{t.text(NOT_IN_THE_LOG)} \u2014 {summary}"
    youth = t.text("youth rules") if ruling.youth_rules else t.text("no youth rules")
    digests = t.text("set {digest}", digest=_short(ruling.set_hash))
    if ruling.youth_set_hash is not None:
        digests += " \u00b7 " + t.text("youth list {digest}", digest=_short(ruling.youth_set_hash))
    second = entry.second_opinion
    opinion = (
        ""
        if second is None
        else t.text(
            "second opinion {lexicon}: {verdict}",
            lexicon=second.title,
            verdict=t.text(VERDICT_WORDS[second.verdict]),
        )
        + " \u00b7 "
    )
    identity = t.text("id {challenge}", challenge=entry.challenge_id)
    details = (
        f"{local:%Y-%m-%d %H:%M:%S %Z} \u00b7 {ruling.pack_name} {ruling.pack_edition} ({youth}) "
        f"\u00b7 {entry.rule_profile}\n"
        f"{edition_text(entry, t)} \u00b7 {digests}\n"
        f"{opinion}{identity}"
    )
    lines = tuple(
        WordLine(r.word, r.status.acceptable, t.text(STATUS_WORDS[r.status])) for r in ruling.results
    )
    return RecheckCard(summary=summary, verdict=ruling.verdict, words=lines, details=details, kept=kept)


def cards(state: JudgeState, t: Catalogue | None = None) -> list[RecheckCard]:
    """The challenges kept in memory (newest first), then the log's."""
    kept = [recheck_card(e, kept=True, t=t) for e in reversed(state.station.kept)]
    return kept + [recheck_card(e, t=t) for e in state.recheck.entries]


class RecheckPage(Page):
    hint = HINT
    touch_hint = TOUCH_HINT

    def __init__(self, send: Send, *, touch: bool) -> None:
        super().__init__(send, touch=touch)
        self.when_value = FitLabel(fill=0.6, bold=True)
        self.when_value.setObjectName("recheck-when")
        self.station_value = FitLabel(fill=0.6, bold=True)
        self.station_value.setObjectName("recheck-station")
        self.filter_buttons = [
            self.button("\u25c0", Pressed(Key.LEFT)),
            self.button("\u25b6", Pressed(Key.RIGHT)),
            self.button("\u25c0", StationStepped(-1)),
            self.button("\u25b6", StationStepped(1)),
        ]
        for button, name in zip(
            self.filter_buttons, ("earlier", "later", "station-back", "station-next"), strict=True
        ):
            button.setObjectName(f"recheck-{name}")
        filters = row(
            (self.filter_buttons[0], 1),
            (self.when_value, 5),
            (self.filter_buttons[1], 1),
            (spacer(), 1),
            (self.filter_buttons[2], 1),
            (self.station_value, 5),
            (self.filter_buttons[3], 1),
            margin=2,
        )
        self.rows: list[FitButton] = [self.button("", RowTapped(i), left=True) for i in range(RECHECK_ROWS)]
        for index, line in enumerate(self.rows):
            line.setObjectName(f"recheck-row-{index + 1}")
            line.installEventFilter(self)
            line.reference = "M" * 200  # one readable type size for every row; a long one is cut short
        self.heading = FitLabel(fill=0.7, bold=True, align=A.AlignLeft | A.AlignVCenter)
        self.heading.setObjectName("recheck-heading")
        self.words: list[FitLabel] = []
        grid = QWidget()
        grid.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Ignored)
        layout = QGridLayout(grid)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setVerticalSpacing(0)  # the lines' own leading keeps them apart: the type gets the room
        for index in range(WORD_LINES):
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
        # 1024x600 (tests/ui/test_touch.py), the selected challenge's words the rest: each word's
        # result, what a judge comes here for, in type no smaller than the list's (the details
        # under it are the smallest text of the page).
        stack(
            self,
            [
                (filters, 11),
                *((line, 10) for line in self.rows),
                (self.heading, 6),
                (grid, 20),
                (self.details, 11),  # three lines: the pack and rules, the edition and digests, the id
            ],
        )

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        if event.type() != QEvent.Type.Resize:
            return False
        # rows (and word lines) a pixel apart in height still get one type size
        if watched in self.rows:
            size = max(theme.MIN_FONT_PX, min(line.height() for line in self.rows) // 3)
            for line in self.rows:
                if line.fixed_px != size:
                    line.fixed_px = size
                    line.fit_font()
        else:
            cap = int(min(label.contentsRect().height() for label in self.words) * WORD_FILL)
            for label in self.words:
                label.set_max_px(cap)
        return False

    def show_state(self, state: JudgeState, *, looking: bool) -> None:
        t = self.catalogue
        for button, name in zip(self.filter_buttons, FILTER_NAMES, strict=True):
            button.setAccessibleName(t.text(name))
        recheck = state.recheck
        choices = periods(state.now.local)
        self.when_value.setText(period_label(choices[min(recheck.period, len(choices) - 1)], t))
        self.station_value.setText(t.text(EVERY_STATION) if recheck.station is None else recheck.station)
        waiting = looking and recheck.asking is not None
        shown_cards = [] if waiting else cards(state, t)
        first = first_row(recheck.selected, len(shown_cards))
        left_out = ""
        if recheck.left_out and not waiting:
            named = recheck.left_out[0]
            left_out = t.plural(
                "{count} challenge cannot be read and is left out: {challenge} ({station})",
                "{count} challenges cannot be read and are left out, first {challenge} ({station})",
                len(recheck.left_out),
                challenge=named.challenge,
                station=named.station,
            )
        placed = False
        for index, line in enumerate(self.rows):
            at = first + index
            if at < len(shown_cards):
                line.setText(shown_cards[at].summary)
                line.setEnabled(True)
                line.set_colour(theme.SELECTED if at == recheck.selected else theme.KEY_BACKGROUND)
            else:
                empty = LOOKING if waiting else UNREADABLE if recheck.problem else NO_MATCH
                text = t.text(empty) if index == 0 and not shown_cards else ""
                if left_out and shown_cards and not placed:
                    text, placed = left_out, True  # the line after the list says what it leaves out
                line.setText(text)
                line.setEnabled(False)
                line.set_colour(theme.KEY_BACKGROUND)
        problem = t.text(UNREADABLE_BECAUSE, problem=t.say(recheck.problem)) if recheck.problem else ""
        if recheck.local_only and not problem:
            problem = t.text(LOCAL_ONLY)
        if not shown_cards:
            self.heading.setText("")
            self.details.setText("" if looking else problem or left_out)
            for label in self.words:
                label.setText("")
            return
        card = shown_cards[min(recheck.selected, len(shown_cards) - 1)]
        self.heading.setText(
            t.text(
                "Challenge {number} of {count}: {verdict}",
                number=recheck.selected + 1,
                count=len(shown_cards),
                verdict=t.text(VERDICT_WORDS[card.verdict]),
            )
        )
        longest = max((w.text for w in card.words), key=len, default="")
        for index, label in enumerate(self.words):
            if index < len(card.words):
                line_of = card.words[index]
                label.set_reference(longest)  # one type size for the card's words
                label.setText(line_of.text)
                label.set_colour(theme.GOOD if line_of.acceptable else theme.BAD)
            else:
                label.setText("")
        details = card.details
        if left_out and not placed and not problem:
            # a full list: the note takes the line of the id (three lines is what the details hold)
            problem, details = left_out, "\n".join(details.split("\n")[:2])
        self.details.setText(f"{problem}\n{details}" if problem else details)
