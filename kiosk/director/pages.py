"""The director's pages: Jinja2 templates (autoescaped: a station name is text, never markup).

Four views of one snapshot of the log (``kiosk.director.watch``):

- the **board** (``/``), for the director's laptop: problems first and counted (and named in the
  page's title, so a page in a background tab still says it), each station's state and what it
  judges with, each division judged one way or a warning, the latest challenges without a word,
  the tables that challenge most;
- the **hall** (``/hall``), for a screen in the playing hall: the same in large type that fits the
  screen without scrolling, one division at a time in turn when they do not all fit;
- the **judges' page** (``/challenges``, behind the judge PIN): every challenge of the day, found
  by station, table, division, round, time, verdict or a word, with the words, each word's result
  and what the ruling cost whom; exported as CSV; the round set; stations retired;
- a **print sheet**: the board and the judges' page print black on white, every column on the
  page (the style sheet's print rules), and a phone gets each row as a card.

The public views (board, hall, their live fragments) are for anyone on the venue's network: they
show what a hall needs, never a word, the log's location, a database's own error, a station's host
or the full reason it gives (paths, commands, user names): those are on the judges' page.

The templates (``templates/``), the style sheet, the script and the icons (``static/``) are files
of the package: the wheel carries them as package data (pyproject.toml), the one-folder bundle as
the spec's data (packaging/challenge-kiosk.spec), and both are read through the package, never
from the current folder. Every page works without JavaScript (it reloads itself instead of being
updated, and the hall turns its divisions by reloading); the script only makes it live. Times are
shown in this computer's local time, which is what the director's watch says; the log keeps UTC.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from importlib import resources
from typing import Any

from jinja2 import Environment, PackageLoader, select_autoescape

from kiosk.core.log.challenge import ChallengeEntry, Found
from kiosk.core.log.heartbeat import UNSEEN_AFTER_S
from kiosk.core.log.overview import Board, DivisionLine, Health, JudgedWith, StationLine
from kiosk.core.play.rules import logged_rule
from kiosk.core.words.plural import counted
from kiosk.director.watch import Snapshot

__all__ = ["HALL_TURN_S", "STALE_AFTER_S", "STATIC_FILES", "JudgesView", "Pages", "chip", "static_files"]

STALE_AFTER_S = 15.0  # no read has finished for this long: the page says the log is not answering
NO_SCRIPT_REFRESH_S = 10  # without JavaScript, the board and the hall reload themselves this often
HALL_TURN_S = 12  # the hall shows each division this long when they take turns
TITLE_NAMES = 3  # the page's title names this many problems, then counts the rest
FEW_NAMES = 4  # a warning names this many stations, and counts more
BOARD_FEED = 15  # the latest challenges the board lists (the hall picks each division's from more)
# The files under static/ a page may ask for, and what they are: nothing else is served.
STATIC_FILES = {
    "style.css": "text/css",
    "app.js": "text/javascript",
    "ok.svg": "image/svg+xml",
    "problem.svg": "image/svg+xml",
}


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


def _hm(moment: datetime | None) -> str:
    return "—" if moment is None else f"{moment.astimezone():%H:%M}"


def _epoch(moment: datetime | None) -> str:
    """A moment as the script counts from it (seconds since 1970, UTC)."""
    return "" if moment is None else f"{moment.timestamp():.0f}"


def _duration(seconds: float) -> str:
    whole = int(seconds)
    if whole < 120:
        return f"{whole} s"
    if whole < 7200:
        return f"{whole // 60} min"
    return f"{whole // 3600} h"


def _share(line: DivisionLine) -> str:
    share = line.counts.successful_share
    return "—" if share is None else f"{line.counts.successful_today} ({share:.0%})"


def _way(way: JudgedWith) -> str:
    """One way of judging a division, in words: the rule, the pack and its edition, youth rules."""
    pack = f"{way.pack} {way.edition}".strip()
    youth = ", youth rules" if way.youth else ""
    return f"{logged_rule(way.rule_profile).title} · {pack}{youth}"


def _digest(way: JudgedWith) -> str:
    """The word set's digest (and the youth list's), short: enough to tell two sets apart."""
    parts = [part.removeprefix("sha256:")[:8] for part in way.set_hash.split("/") if part]
    return "/".join(parts) or "not reported"


def _few(names: Sequence[str]) -> str:
    """Stations named if they are few, counted if they are many."""
    return ", ".join(names) if len(names) <= FEW_NAMES else counted(len(names), "station")


def _packs(line: StationLine) -> list[str]:
    if line.beat is None:
        return []
    return [
        f"{p.division}: {p.pack} {p.edition}".strip() + ("" if p.served else " (not served now)")
        for p in line.beat.packs
    ]


def chip(line: StationLine) -> tuple[str, str]:
    """A station's state as the page shows it: a CSS class and the words (public: no reason); the
    words are ``kiosk director --once``'s too."""
    health = line.health
    if health is Health.RETIRED:
        return "retired", "retired"
    if health is Health.CLOSED:
        return "closed", "closed by a judge"
    if health is Health.EARLIER:
        return "never", "not seen today"
    if line.beat is None:
        return "unseen", "no reports"
    if health is Health.AWAITED:
        return "awaited", "report awaited"
    if line.unseen:
        return "unseen", "not seen"
    css = {
        "ready": "ready",
        "in a challenge": "challenge",
        "judge mode": "judge",
        "station fault": "fault",
        "not ready": "not_ready",
    }.get(line.beat.state.value, "never")
    return css, line.beat.state.value


@dataclass(frozen=True)
class JudgesView:
    """What the judges' page shows besides the challenges: the filters as asked, how many match,
    where the next page starts, and the choices the filters offer."""

    asked: dict[str, str]  # the filter form's fields as the judge filled them in
    matching: int
    older: str = ""  # the query string of the next (older) page, "" on the last
    stations: tuple[str, ...] = ()
    divisions: tuple[str, ...] = ()
    query_string: str = ""  # the filters, for the CSV link and the live update
    day_label: str = "today"
    day_value: str = ""  # the day shown, as the date field writes it

    @property
    def filtered(self) -> bool:
        """Anything asked for but the day."""
        return any(name != "day" for name in self.asked)


class Pages:
    """Renders the pages; one per ``kiosk director`` (the environment is not shared). ``where``:
    the log's location, for the judges' page; ``public_where``: what the first page says of it;
    ``shared``: the log is the event's shared server (a station unseen may be judging offline)."""

    def __init__(
        self, where: str, public_where: str = "the event's challenge log", *, shared: bool = True
    ) -> None:
        self.where = where
        self.public_where = public_where
        self.shared = shared
        self.env = Environment(
            loader=PackageLoader("kiosk.director", "templates"), autoescape=select_autoescape(default=True)
        )
        self.env.globals.update(
            when=_when,
            hm=_hm,
            epoch=_epoch,
            duration=_duration,
            share=_share,
            way=_way,
            digest=_digest,
            few=_few,
            board_feed=BOARD_FEED,
            packs=_packs,
            chip=chip,
            rule=logged_rule,
            Health=Health,
            unseen_after=int(UNSEEN_AFTER_S),
            shared=shared,
            hall_turn_s=HALL_TURN_S,
            counted=counted,
        )

    # -- what every public view says ------------------------------------------------------------------

    @staticmethod
    def log_error(snapshot: Snapshot) -> str:
        """The last read's failure in full (the judges' page), or ""."""
        if snapshot.error is None:
            return ""
        since = "" if snapshot.failing_since is None else f" since {snapshot.failing_since:%H:%M:%S}"
        error = snapshot.error.strip()
        end = "" if error.endswith((".", "?", "!")) else "."
        return f"The log cannot be read{since}: {error}{end}"

    @staticmethod
    def summary(board: Board) -> str:
        """One line: how many stations, how many are problems, how many challenges."""
        total = board.total
        closed = len(board.in_health(Health.CLOSED))
        retired = len(board.in_health(Health.RETIRED))
        others = "".join(
            f", {number} {what}" for number, what in ((closed, "closed"), (retired, "retired")) if number
        )
        problems = counted(len(board.problems), "problem") if board.problems else "no problem"
        return (
            f"{counted(len(board.today), 'station')}: {problems}{others}; "
            f"{counted(total.today, 'challenge')} today, {total.last_hour} in the last hour"
        )

    @staticmethod
    def title(board: Board | None, problem: str = "") -> str:
        """The page's title: the problems first, named, so that a page in a background tab says them."""
        base = "Challenge stations"
        if board is None:
            return f"Log not read — {base}" if problem else base
        problems = board.problems
        if problems:
            named = ", ".join(f"{line.name} {line.problem}" for line in problems[:TITLE_NAMES])
            more = f" and {len(problems) - TITLE_NAMES} more" if len(problems) > TITLE_NAMES else ""
            return f"{counted(len(problems), 'problem')}: {named}{more} — {base}"
        at_work = len(board.in_health(Health.AT_WORK))
        log = "log away: " if problem else ""
        return f"{log}all {counted(at_work, 'station')} at work — {base}"

    def _context(self, snapshot: Snapshot, silent_s: float, wrong_pins: int) -> dict[str, Any]:
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
        pins = (
            f"The judges' page heard {counted(wrong_pins, 'wrong PIN')} in the last hour."
            if wrong_pins
            else ""
        )
        return {
            "board": board,
            "problem": problem,
            "summary": "" if board is None else self.summary(board),
            "title": self.title(board, problem),
            "as_of": "—" if snapshot.read_at is None else f"{snapshot.read_at:%H:%M:%S}",
            "wrong_pins": pins,
            "public_where": self.public_where,
        }

    @staticmethod
    def log_stamp(snapshot: Snapshot) -> str:
        """Changes whenever a challenge reaches the log (the judges' page then lists it)."""
        board = snapshot.board
        if board is None:
            return ""
        total = board.total
        latest = board.feed[0].judged_at.isoformat() if board.feed else ""
        return f"{total.today}/{total.last_hour}/{latest}/{sum(line.counts.today for line in board.stations)}"

    # -- the board ------------------------------------------------------------------------------------

    def board_fragment(self, snapshot: Snapshot, silent_s: float, *, wrong_pins: int = 0) -> str:
        """The board's live part (what the page's stream replaces): changes only when the log does."""
        return self.env.get_template("_board.html").render(**self._context(snapshot, silent_s, wrong_pins))

    def board_page(self, snapshot: Snapshot, silent_s: float, *, wrong_pins: int = 0) -> str:
        return self.env.get_template("board.html").render(
            zone=_zone(), refresh_s=NO_SCRIPT_REFRESH_S, **self._context(snapshot, silent_s, wrong_pins)
        )

    # -- the hall -------------------------------------------------------------------------------------

    def hall_fragment(self, snapshot: Snapshot, silent_s: float, *, turn: int = 0) -> str:
        context = self._context(snapshot, silent_s, 0)
        return self.env.get_template("_hall.html").render(turn=_turn(snapshot.board, turn), **context)

    def hall_page(self, snapshot: Snapshot, silent_s: float, *, turn: int = 0) -> str:
        board = snapshot.board
        shown = _turn(board, turn)
        count = 0 if board is None else len(board.divisions)
        following = 0 if count == 0 else (shown + 1) % count
        return self.env.get_template("hall.html").render(
            turn=shown,
            following=following,
            refresh_s=HALL_TURN_S if count > 1 else NO_SCRIPT_REFRESH_S,
            zone=_zone(),
            **self._context(snapshot, silent_s, 0),
        )

    # -- the judges' page -----------------------------------------------------------------------------

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
        view: JudgesView | None = None,
        notice: str = "",
    ) -> str:
        board = None if snapshot is None else snapshot.board
        return self.env.get_template("challenges.html").render(
            lock_s=lock_s,
            form_token=form_token,
            stations=[] if board is None else list(board.stations),
            round=None if board is None else board.round,
            log_error="" if snapshot is None else self.log_error(snapshot),
            where=self.where,
            notice=notice,
            refresh_s=max(lock_s, NO_SCRIPT_REFRESH_S),
            **self._rows_context(entries, problem, view),
        )

    def challenge_rows(self, entries: Sequence[ChallengeEntry], problem: str, view: JudgesView) -> str:
        """The judges' page's list alone (its live update)."""
        return self.env.get_template("_rows.html").render(**self._rows_context(entries, problem, view))

    def _rows_context(
        self, entries: Sequence[ChallengeEntry], problem: str, view: JudgesView | None
    ) -> dict[str, Any]:
        left_out = entries.left_out if isinstance(entries, Found) else ()
        if left_out and not problem:
            rows = counted(len(left_out), "challenge")
            named = " ".join(f"{item}." for item in left_out[:5])
            problem = f"Left out: {rows} in the log that this kiosk cannot read. {named}"
        view = view or JudgesView(asked={}, matching=len(entries))
        return {"entries": entries, "shown": len(entries), "problem": problem, "view": view}

    def refused_page(self, text: str) -> str:
        return self.env.get_template("refused.html").render(text=text)


def _zone() -> str:
    zone = datetime.now().astimezone().strftime("UTC%z")
    return f"{zone[:-2]}:{zone[-2:]}"


def _turn(board: Board | None, turn: int) -> int:
    """The division the hall shows now (they take turns), as an index into the board's divisions."""
    count = 0 if board is None else len(board.divisions)
    return 0 if count == 0 else turn % count
