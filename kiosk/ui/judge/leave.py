"""Exit the station: the question, and what would be lost."""

from __future__ import annotations

from kiosk.core.judge import JudgeState, Key, Pressed
from kiosk.core.plural import counted, one_or_many
from kiosk.ui import theme
from kiosk.ui.judge.page import Page, Send, row
from kiosk.ui.theme import FitLabel
from kiosk.ui.views import _spacer, _stack

__all__ = ["ExitPage", "kept_warning"]

# The page's words.
QUESTION = "Exit the station?"
DETAIL = "No challenge can be judged here until the station is started again."
YES = "Yes, exit"
NO = "No, stay"


def kept_warning(kept: int) -> str:
    if kept == 0:
        return ""
    them = one_or_many(kept, "it", "them")
    return (
        f"{counted(kept, 'challenge')} kept in memory after a log failure would be lost: "
        f"record {them} first (6 Log status) or note {them} (1 Recent challenges)"
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
        _stack(
            self,
            [
                (_spacer(), 8),
                (self.headline, 20),
                (self.detail, 12),
                (self.kept, 12),
                (row((self.cancel, 1), (self.confirm, 1), spacing=40), 22),
                (_spacer(), 16),
            ],
        )

    def show_state(self, state: JudgeState, *, looking: bool) -> None:
        self.kept.setText(kept_warning(len(state.station.kept)))
