"""Log status: where the log goes, what waits to be forwarded, and the challenges kept in memory."""

from __future__ import annotations

from kiosk.core.judge import JudgeState, Notice, Said, Typed
from kiosk.core.plural import counted
from kiosk.ui.judge.page import Send, TextPage, keyed

__all__ = ["StatusPage", "status_lines"]

# The page's words.
HINT = "Esc: back to the menu"
FORWARD = "Forward now"
RECORD_KEPT = "Record the kept challenges"
LOOKING = "Reading the log's status\u2026"
FORWARDING = "Forwarding to the shared log\u2026"
RECORDING = "Recording the kept challenges\u2026"


def status_lines(state: JudgeState) -> list[str]:
    status, station = state.status, state.station
    log = status.log
    if status.problem:
        return [f"The log cannot be opened: {status.problem}"]
    if log is None:
        return []
    kind = "Shared log (PostgreSQL)" if log.shared else "This station's log (SQLite)"
    lines = [f"{kind}:", f"    {log.location}"]
    if log.shared:
        lines.append(f"Waiting to be forwarded: {log.backlog}")
        lines.append(f"Last problem with the server: {log.last_error or 'none'}")
    lines.append(f"Kept in memory after a log failure: {len(station.kept)}")
    if station.last_fault:
        lines.append(f"Why the last challenge was not recorded: {station.last_fault}")
    if station.fault_shown:
        lines.append("The station shows a fault: 'Back to the station' clears it.")
    return lines


def notice_text(notice: Notice | None) -> str:
    if notice is None:
        return ""
    texts = {
        Said.FORWARDED: f"Forwarded {counted(notice.count, 'challenge')}",
        Said.NOT_FORWARDED: f"Not forwarded: {notice.detail}",
        Said.KEPT_ALL_RECORDED: "All kept challenges are now in the log",
        Said.KEPT_LEFT: f"{counted(notice.count, 'challenge')} still not recorded",
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
        status = state.status
        lines = status_lines(state)
        self.show_lines(lines if lines or not looking else [LOOKING])
        if looking and status.forwarding is not None:
            self.notice.setText(FORWARDING)
        elif looking and status.recording is not None:
            self.notice.setText(RECORDING)
        else:
            self.notice.setText(notice_text(status.notice))
        idle = not status.working
        self.commands[0].setEnabled(idle and status.log is not None and status.log.shared)
        self.commands[1].setEnabled(idle and bool(state.station.kept))
