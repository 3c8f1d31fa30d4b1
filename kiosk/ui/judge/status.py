"""Log status: where the log goes, what waits to be forwarded, and the challenges kept in memory."""

from __future__ import annotations

from kiosk.core.judge import JudgeState, Notice, Said, Typed
from kiosk.core.words.language import Catalogue, english, marked
from kiosk.core.words.plural import counted
from kiosk.ui.judge.page import Send, TextPage, keyed

__all__ = ["StatusPage", "status_lines"]

# The page's words.
HINT = marked("Esc: back to the menu")
FORWARD = marked("Forward now")
RECORD_KEPT = marked("Record the kept challenges")
LOOKING = marked("Reading the log's status\u2026")
FORWARDING = marked("Forwarding to the shared log\u2026")
RECORDING = marked("Recording the kept challenges\u2026")


def status_lines(state: JudgeState, t: Catalogue | None = None) -> list[str]:
    t = t or english()
    status, station = state.status, state.station
    log = status.log
    if status.problem:
        return [t.text("The log cannot be opened: {problem}", problem=t.say(status.problem))]
    if log is None:
        return []
    kind = t.text("Shared log (PostgreSQL):") if log.shared else t.text("This station's log (SQLite):")
    lines = [kind, f"    {log.location}"]
    if log.shared:
        lines.append(t.text("Waiting to be forwarded: {count}", count=t.number(log.backlog)))
        if log.last_error:
            lines.append(t.text("Last problem with the server: {problem}", problem=t.say(log.last_error)))
        else:  # whole: "none" agrees with "problem" (French aucun), not with another noun
            lines.append(t.text("Last problem with the server: none"))
    lines.append(t.text("Kept in memory after a log failure: {count}", count=t.number(len(station.kept))))
    if station.last_fault:
        lines.append(
            t.text("Why the last challenge was not recorded: {problem}", problem=t.say(station.last_fault))
        )
    if station.fault_shown:
        lines.append(t.text("The station shows a fault: 'Back to the station' clears it."))
    return lines


def notice_text(notice: Notice | None, t: Catalogue | None = None) -> str:
    if notice is None:
        return ""
    t = t or english()
    challenges = counted(notice.count, "challenge", "challenges", t)
    texts = {
        Said.FORWARDED: t.text("Forwarded {challenges}", challenges=challenges),
        Said.NOT_FORWARDED: t.text("Not forwarded: {problem}", problem=t.say(notice.detail)),
        Said.KEPT_ALL_RECORDED: t.text("All kept challenges are now in the log"),
        Said.KEPT_LEFT: t.plural(
            "{challenges} still not recorded",
            "{challenges} still not recorded",
            notice.count,
            challenges=challenges,
        ),
    }
    return texts.get(notice.said, "")


class StatusPage(TextPage):
    hint = HINT

    def __init__(self, send: Send, *, touch: bool) -> None:
        super().__init__(
            send,
            touch=touch,
            buttons=[
                (keyed(FORWARD, "F", touch=touch), Typed("f")),
                (keyed(RECORD_KEPT, "R", touch=touch), Typed("r")),
            ],
        )

    def show_state(self, state: JudgeState, *, looking: bool) -> None:
        t = self.catalogue
        self.commands[0].setText(keyed(t.text(FORWARD), "F", touch=self.touch))
        self.commands[1].setText(keyed(t.text(RECORD_KEPT), "R", touch=self.touch))
        status = state.status
        lines = status_lines(state, t)
        self.show_lines(lines if lines or not looking else [t.text(LOOKING)])
        if looking and status.forwarding is not None:
            self.notice.setText(t.text(FORWARDING))
        elif looking and status.recording is not None:
            self.notice.setText(t.text(RECORDING))
        else:
            self.notice.setText(notice_text(status.notice, t))
        idle = not status.working
        self.commands[0].setEnabled(idle and status.log is not None and status.log.shared)
        self.commands[1].setEnabled(idle and bool(state.station.kept))
