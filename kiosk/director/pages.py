"""The director's pages: Jinja2 templates (autoescaped: a station name is text, never markup).

The first page (the board and its live fragment) is public on the venue's network: it shows what
a hall needs, never the log's location, a database's own error, a station's host or the full
reason it gives (paths, commands, user names): those are on the judges' page, behind the PIN.

The templates (``templates/``), the style sheet and the script (``static/``) are files of the
package: the wheel carries them as package data (pyproject.toml), the one-folder bundle as the
spec's data (packaging/challenge-kiosk.spec), and both are read through the package, never from
the current folder. Times are shown in this computer's local
time, which is what the director's watch says; the log keeps UTC.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from importlib import resources

from jinja2 import Environment, PackageLoader, select_autoescape

from kiosk.core.board import Board, Counts, StationLine
from kiosk.core.heartbeat import UNSEEN_AFTER_S, StationState
from kiosk.core.plural import counted
from kiosk.core.record import ChallengeEntry, Found
from kiosk.director.watch import Snapshot

__all__ = ["STATIC_FILES", "Pages", "static_files"]

STALE_AFTER_S = 15.0  # no read has finished for this long: the page says the log is not answering
# The files under static/ a page may ask for, and what they are: nothing else is served.
STATIC_FILES = {"style.css": "text/css", "app.js": "text/javascript"}


def static_files() -> dict[str, tuple[bytes, str]]:
    """Each static file's bytes and media type, read once from the package."""
    folder = resources.files("kiosk.director") / "static"
    return {name: ((folder / name).read_bytes(), media) for name, media in STATIC_FILES.items()}


def _when(moment: datetime | None) -> str:
    if moment is None:
        return "—"
    local = moment.astimezone()
    today = datetime.now(local.tzinfo).date()
    return f"{local:%H:%M:%S}" if local.date() == today else f"{local:%Y-%m-%d %H:%M}"


def _ago(seconds: float) -> str:
    whole = int(seconds)
    if whole < 120:
        return f"{whole} s ago"
    if whole < 7200:
        return f"{whole // 60} min ago"
    return f"{whole // 3600} h ago"


def _seen(line: StationLine) -> str:
    if line.beat is None or line.unseen_s is None:
        return "never reported"
    return _ago(line.unseen_s)


def _share(counts: Counts) -> str:
    share = counts.successful_share
    return "—" if share is None else f"{counts.successful_today} ({share:.0%})"


class Pages:
    """Renders the pages; one per ``kiosk director`` (the environment is not shared). ``where``:
    the log's location, for the judges' page; ``public_where``: what the first page says of it."""

    def __init__(self, where: str, public_where: str = "the event's challenge log") -> None:
        self.where = where
        self.public_where = public_where
        self.env = Environment(
            loader=PackageLoader("kiosk.director", "templates"), autoescape=select_autoescape(default=True)
        )
        self.env.globals.update(when=_when, seen=_seen, share=_share, state=self._state_markup)

    def _state_markup(self, line: StationLine) -> object:
        from markupsafe import Markup, escape

        if line.beat is None:
            return Markup('<span class="state s-never">no reports</span>')
        if line.unseen:
            return Markup('<span class="state s-unseen">not seen</span>') + Markup(
                '<div class="why">last said: {}</div>'
            ).format(escape(line.beat.state.value))
        state = line.beat.state
        css = {
            StationState.READY: "ready",
            StationState.CHALLENGE: "challenge",
            StationState.JUDGE: "judge",
            StationState.FAULT: "fault",
            StationState.NOT_READY: "not_ready",
        }[state]
        markup = Markup('<span class="state s-{}">{}</span>').format(css, state.value)
        if line.beat.reason:  # its words name paths and commands: the judges' page has them
            markup += Markup('<div class="why">why: on the judges\' page</div>')
        return markup

    @staticmethod
    def log_error(snapshot: Snapshot) -> str:
        """The last read's failure in full (the judges' page), or ""."""
        if snapshot.error is None:
            return ""
        since = "" if snapshot.failing_since is None else f" since {snapshot.failing_since:%H:%M:%S}"
        error = snapshot.error.strip()
        end = "" if error.endswith((".", "?", "!")) else "."
        return f"The log cannot be read{since}: {error}{end}"

    def _board_context(self, snapshot: Snapshot, silent_s: float, wrong_pins: int) -> dict[str, object]:
        board = snapshot.board
        problem = ""
        if snapshot.error is not None:
            since = "" if snapshot.failing_since is None else f" since {snapshot.failing_since:%H:%M:%S}"
            problem = f"The log cannot be read{since} (why: on the judges' page)."
            if board is not None and snapshot.read_at is not None:
                problem += f" Shown: what it said at {snapshot.read_at:%H:%M:%S}."
            problem += " This page carries on and catches up when the log answers."
        elif silent_s > STALE_AFTER_S and snapshot.version:
            problem = f"The log has not answered for {int(silent_s)} s; what is shown may be old."
        summary = ""
        as_of = ""
        if board is not None:
            summary = self.summary(board)
            as_of = "—" if snapshot.read_at is None else f"{snapshot.read_at:%H:%M:%S}"
        pins = (
            f"The judges' page heard {counted(wrong_pins, 'wrong PIN')} in the last hour."
            if wrong_pins
            else ""
        )
        return {"board": board, "problem": problem, "summary": summary, "as_of": as_of, "wrong_pins": pins}

    @staticmethod
    def summary(board: Board) -> str:
        """One line: how many stations, how many in red, how many challenges."""
        total = board.total
        red = sum(1 for line in board.stations if line.red)
        return (
            f"{counted(len(board.today), 'station')}, {red} in red; "
            f"{counted(total.today, 'challenge')} today, {total.last_hour} in the last hour"
        )

    def board_fragment(self, snapshot: Snapshot, silent_s: float, *, wrong_pins: int = 0) -> str:
        context = self._board_context(snapshot, silent_s, wrong_pins)
        return self.env.get_template("_board.html").render(**context)

    def board_page(self, snapshot: Snapshot, silent_s: float, *, wrong_pins: int = 0) -> str:
        zone = datetime.now().astimezone().strftime("UTC%z")
        zone = f"{zone[:-2]}:{zone[-2:]}"
        return self.env.get_template("board.html").render(
            public_where=self.public_where,
            zone=zone,
            unseen_after=int(UNSEEN_AFTER_S),
            **self._board_context(snapshot, silent_s, wrong_pins),
        )

    def pin_page(self, message: str = "", *, bad: bool = False, form_token: str = "") -> str:
        return self.env.get_template("pin.html").render(message=message, bad=bad, form_token=form_token)

    def challenges_page(
        self,
        entries: Sequence[ChallengeEntry],
        lock_s: int,
        problem: str = "",
        *,
        snapshot: Snapshot | None = None,
        form_token: str = "",
    ) -> str:
        board = None if snapshot is None else snapshot.board
        stations = [] if board is None else [*board.today, *board.earlier]
        left_out = entries.left_out if isinstance(entries, Found) else ()
        if left_out and not problem:
            rows = counted(len(left_out), "challenge")
            named = " ".join(f"{item}." for item in left_out[:5])
            problem = f"Left out: {rows} in the log that this kiosk cannot read. {named}"
        return self.env.get_template("challenges.html").render(
            entries=entries,
            shown=len(entries),
            where=self.where,
            lock_s=lock_s,
            problem=problem,
            form_token=form_token,
            stations=stations,
            log_error="" if snapshot is None else self.log_error(snapshot),
        )

    def refused_page(self, text: str) -> str:
        return self.env.get_template("refused.html").render(text=text)
