"""Exit the station: the question, and what would be lost."""

from __future__ import annotations

from kiosk.core.judge import JudgeState, Key, Pressed
from kiosk.core.words.language import Catalogue, english, marked
from kiosk.core.words.plural import counted
from kiosk.ui import theme
from kiosk.ui.judge.page import ENTER_KEY, ESCAPE_KEY, Page, Send
from kiosk.ui.layout import row, spacer, stack
from kiosk.ui.theme import FitLabel

__all__ = ["ExitPage", "kept_warning"]

# The page's words.
QUESTION = marked("Exit the station?")
DETAIL = marked("No challenge can be judged here until the station is started again.")
YES = marked("Yes, exit")
NO = marked("No, stay")


def kept_warning(kept: int, t: Catalogue | None = None) -> str:
    if kept == 0:
        return ""
    t = t or english()
    return t.plural(
        "{challenges} kept in memory after a log failure would be lost: record it first (6 Log status) "
        "or note it (1 Recent challenges)",
        "{challenges} kept in memory after a log failure would be lost: record them first (6 Log status) "
        "or note them (1 Recent challenges)",
        kept,
        challenges=counted(kept, "challenge", "challenges", t),
    )


class ExitPage(Page):
    hint = ""
    touch_hint = ""

    def __init__(self, send: Send, *, touch: bool) -> None:
        super().__init__(send, touch=touch)
        self.headline = FitLabel(QUESTION, fill=0.75, bold=True)
        self.headline.setObjectName("exit-headline")
        self.detail = FitLabel(DETAIL, fill=0.7)
        self.kept = FitLabel(fill=0.6, bold=True, colour=theme.NOTICE, wrap=True)
        self.kept.setObjectName("exit-kept")
        exit_text = YES if touch else f"{YES}\n(Enter)"
        self.confirm = self.button(exit_text, Pressed(Key.ENTER), colour=theme.DANGER)
        self.confirm.setObjectName("exit-confirm")
        self.cancel = self.button(NO if touch else f"{NO}\n(Esc)", Pressed(Key.ESCAPE))
        self.cancel.reference = self.confirm.reference = exit_text
        self.cancel.setObjectName("exit-cancel")
        stack(
            self,
            [
                (spacer(), 8),
                (self.headline, 20),
                (self.detail, 12),
                (self.kept, 12),
                (row((self.cancel, 1), (self.confirm, 1), spacing=40), 22),
                (spacer(), 16),
            ],
        )

    def show_state(self, state: JudgeState, *, looking: bool) -> None:
        t = self.catalogue
        self.headline.setText(t.text(QUESTION))
        self.detail.setText(t.text(DETAIL))
        yes = t.text(YES) if self.touch else f"{t.text(YES)}\n({t.text(ENTER_KEY)})"
        self.confirm.setText(yes)
        self.cancel.setText(t.text(NO) if self.touch else f"{t.text(NO)}\n({t.text(ESCAPE_KEY)})")
        self.cancel.reference = self.confirm.reference = yes
        self.kept.setText(kept_warning(len(state.station.kept), t))
