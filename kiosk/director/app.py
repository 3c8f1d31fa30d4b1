"""The director's web app (Starlette): the board, the hall screen, their live updates, and the
judges' page.

Reads the log; its only writes are the director's own, behind the judge PIN: the event's round and
a station retired (``kiosk.storage.hall``). Every post (the PIN, "lock now", the round, retiring a
station, "still here") passes the gate first (``kiosk.director.gate``: Host, Origin, form token,
body limits). The PIN is checked by the page's own door (``kiosk.director.door``: its own count,
per device and for the page, never a station's). A PIN that is accepted opens the judges' page to
this browser, with a cookie of its own that only this process knows (``HttpOnly``,
``SameSite=Strict``, and ``Secure`` over HTTPS), until ``lock_s`` seconds (the judge idle lock of
the configuration) pass without the judge doing anything there: each page a judge asks for, and
each key, click or scroll the page's script reports ("still here"), keeps it open; what the page
does by itself (its live update, its reload without JavaScript) does not.

Live updates are server-sent events, one stream per open page, woken by the watcher after each
read of the log (no stream polls the database): a change reaches every open page within a read.
The public streams carry the same fragment to every page, rendered once per change; the judges'
page's stream carries only "a challenge arrived", and the page fetches its own list again with the
PIN's cookie. Server-sent events and not polling, by what held up (bench/bench_hall.py): a stream
is one connection answered for its whole life, which the connection bound never closes to make
room and whose head is read once (a poll is a new request's head every few seconds); a change
reaches twenty open pages within the read interval; a tab in the background keeps receiving it (a
browser slows a background page's timers to one a minute, not its events).

What the first page shows is what a hall needs (each station's state, packs, rule and counts,
the latest challenges without a word); what only the director needs (the log's location, the
database's own error, each station's host, version and full reason, commands and paths included,
the words) is on the judges' page.
"""

from __future__ import annotations

import asyncio
import contextlib
import csv
import io
import math
import secrets
import time
import uuid
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from datetime import time as day_time
from urllib.parse import urlencode

from sse_starlette import EventSourceResponse
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import QueryParams
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response, StreamingResponse
from starlette.routing import Route

from kiosk.core.errors import KioskError
from kiosk.core.log.challenge import (
    MAX_QUERY_LAST,
    MAX_ROUND,
    MAX_SEARCH_CHARS,
    ChallengeId,
    Found,
    LogQuery,
)
from kiosk.core.log.overview import natural_key
from kiosk.core.play.adjudication import Verdict
from kiosk.core.station.pin import PinOutcome
from kiosk.director.door import DirectorDoor
from kiosk.director.gate import Forms, Gate, Served, posted
from kiosk.director.limits import Limits
from kiosk.director.pages import STALE_AFTER_S, JudgesView, Pages, static_files
from kiosk.director.watch import Snapshot, Watcher
from kiosk.storage.export import CSV_COLUMNS, entry_csv_row, inert
from kiosk.storage.hall import HallControls
from kiosk.storage.overview import LogReader

__all__ = ["PAGE_ROWS", "RECENT_CHALLENGES", "Sessions", "director_app"]

PAGE_ROWS = 100  # challenges on one judges' page; "Older" shows the next
RECENT_CHALLENGES = PAGE_ROWS
CSV_BATCH = 1000  # challenges read at a time for an export, so that a long day is never held whole
PUSH_CHECK_S = 2.0  # an open page's stream looks again at least this often (the log's silence, PINs)
SSE_PING_S = 15
MAX_FILTER_CHARS = 120  # a station's or a division's name in a filter: as long as a report allows


class Sessions:
    """Browsers the PIN was typed in, each until ``lock_s`` seconds pass without the judge doing
    anything there (``touch``)."""

    def __init__(self, lock_s: int, monotonic: Callable[[], float] = time.monotonic) -> None:
        self.lock_s = lock_s
        self._monotonic = monotonic
        self._until: dict[str, float] = {}

    def open(self) -> str:
        token = secrets.token_urlsafe(32)
        self._until[token] = self._monotonic() + self.lock_s
        return token

    def valid(self, token: str | None) -> bool:
        now = self._monotonic()
        for stale in [t for t, until in self._until.items() if until <= now]:
            del self._until[stale]
        return token is not None and token in self._until

    def touch(self, token: str | None) -> bool:
        """The judge did something on the page: ``lock_s`` more. False if it had locked already."""
        if not self.valid(token):
            return False
        assert token is not None
        self._until[token] = self._monotonic() + self.lock_s
        return True

    def close(self, token: str | None) -> None:
        if token is not None:
            self._until.pop(token, None)


class Changes:
    """Wakes the open pages' streams when the watcher has read the log (it calls ``notify`` from
    its own thread); a stream waits with ``wait``."""

    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._event: asyncio.Event | None = None

    def _current(self) -> asyncio.Event:
        if self._event is None:
            self._loop = asyncio.get_running_loop()
            self._event = asyncio.Event()
        return self._event

    def notify(self) -> None:
        loop = self._loop
        if loop is not None:
            with contextlib.suppress(RuntimeError):  # the loop has closed: nobody is waiting
                loop.call_soon_threadsafe(self._wake)

    def _wake(self) -> None:
        woken = self._current()
        self._event = asyncio.Event()
        woken.set()

    async def wait(self, timeout_s: float) -> None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._current().wait(), timeout_s)


@dataclass
class _Rendered:
    """The public fragment of one view, rendered once per change for every open page."""

    key: tuple[object, ...] = ()
    text: str = ""


@dataclass
class _Asked:
    """The judges' filters, read from a query string: the log query, the fields as given, and what
    was wrong with any of them."""

    query: LogQuery
    fields: dict[str, str]
    problems: list[str] = field(default_factory=list)
    day: date | None = None


def _html(text: str, status: int = 200, headers: dict[str, str] | None = None) -> HTMLResponse:
    return HTMLResponse(text, status_code=status, headers=headers)


def read_filters(params: QueryParams, today: date) -> _Asked:
    """The judges' page's filters (``day``, ``from``, ``until``, ``station``, ``division``, ``table``,
    ``round``, ``verdict``, ``word``, and ``before`` for the next page); a field that cannot be read
    is left out and said, never an error page."""
    fields = {
        name: params.get(name, "").strip()
        for name in ("day", "from", "until", "station", "division", "table", "round", "verdict", "word")
    }
    fields = {name: value for name, value in fields.items() if value}
    problems: list[str] = []

    def number(name: str, most: int) -> int | None:
        text = fields.get(name)
        if text is None:
            return None
        if not (text.isascii() and text.isdigit() and 0 < int(text) <= most):
            problems.append(f"{name} {text[:20]!r} is not a number from 1 to {most}")
            del fields[name]
            return None
        return int(text)

    def moment(name: str) -> day_time | None:
        text = fields.get(name)
        if text is None:
            return None
        try:
            return day_time.fromisoformat(text)
        except ValueError:
            problems.append(f"{name} {text[:20]!r} is not a time of day (e.g. 14:30)")
            del fields[name]
            return None

    day = today
    if "day" in fields:
        try:
            day = date.fromisoformat(fields["day"])
        except ValueError:
            problems.append(f"day {fields['day'][:20]!r} is not a date (e.g. {today.isoformat()})")
            del fields["day"]
    start, end = moment("from"), moment("until")
    since = datetime.combine(day, start or day_time()).astimezone()
    until = (
        datetime.combine(day, end).astimezone()
        if end is not None
        else datetime.combine(day + timedelta(days=1), day_time()).astimezone()
    )
    verdict = None
    if "verdict" in fields:
        try:
            verdict = Verdict(fields["verdict"])
        except ValueError:
            problems.append(f"verdict {fields['verdict'][:20]!r} is neither ACCEPTABLE nor UNACCEPTABLE")
            del fields["verdict"]
    for name in ("station", "division"):
        if len(fields.get(name, "")) > MAX_FILTER_CHARS:
            problems.append(f"the {name} is longer than any {name}'s name")
            del fields[name]
    if len(fields.get("word", "")) > MAX_SEARCH_CHARS or "\x00" in fields.get("word", ""):
        problems.append(f"a word searched for holds at most {MAX_SEARCH_CHARS} characters")
        del fields["word"]
    before = None
    if params.get("before"):
        at, _, challenge = params["before"].partition("|")
        try:
            before = (datetime.fromisoformat(at), ChallengeId(uuid.UUID(challenge)))
            if before[0].tzinfo is None:
                raise ValueError(at)
        except ValueError:
            problems.append("the page to start from cannot be read: the list starts from the newest")
            before = None
    query = LogQuery(
        last=PAGE_ROWS,
        since=since,
        until=until,
        station=fields.get("station"),
        division=fields.get("division"),
        table=number("table", MAX_QUERY_LAST),
        round=number("round", MAX_ROUND),
        verdict=verdict,
        word=fields.get("word"),
        before=before,
    )
    return _Asked(query, fields, problems, day)


def director_app(
    watcher: Watcher,
    pages: Pages,
    door: DirectorDoor,
    recent: LogReader,
    *,
    lock_s: int,
    served: Served,
    limits: Limits | None = None,
    push_check_s: float = PUSH_CHECK_S,
    sessions: Sessions | None = None,
    controls: HallControls | None = None,
    today: Callable[[], date] = lambda: datetime.now(UTC).astimezone().date(),
) -> Starlette:
    """The app over a running ``watcher``, served as ``served`` says; ``recent`` reads the
    challenges for the judges' page; ``controls`` sets the round and retires stations (None: this
    view cannot, and says so)."""
    sessions = sessions if sessions is not None else Sessions(lock_s)
    https = served.scheme == "https"
    forms = Forms(secure=https)
    cookie = "__Host-kiosk_judge" if https else "kiosk_judge"
    changes = Changes()
    watcher.subscribe(changes.notify)
    rendered: dict[str, _Rendered] = {}
    files = static_files()

    def judge(request: Request) -> str | None:
        """The judge's session cookie, if it is open."""
        token = request.cookies.get(cookie)
        return token if sessions.valid(token) else None

    def pin_page(request: Request, message: str = "", status: int = 200, **headers: str) -> Response:
        page = pages.pin_page(message, bad=bool(message), form_token=request.state.form_token)
        return _html(page, status, headers or None)

    def refused(status: int, text: str) -> Response:
        return _html(pages.refused_page(text), status)

    def fragment(view: str, snapshot: Snapshot) -> str:
        """The public live part of ``view``, rendered once per change of what it shows."""
        silent = watcher.silent_s
        key = (snapshot.version, door.wrong_last_hour(), silent > STALE_AFTER_S)
        cached = rendered.setdefault(view, _Rendered())
        if cached.key != key:
            if view == "hall":
                text = pages.hall_fragment(snapshot, silent)
            else:
                text = pages.board_fragment(snapshot, silent, wrong_pins=door.wrong_last_hour())
            cached.key, cached.text = key, text
        return cached.text

    async def board(request: Request) -> Response:
        return _html(pages.board_page(watcher.snapshot, watcher.silent_s, wrong_pins=door.wrong_last_hour()))

    async def hall(request: Request) -> Response:
        turn = request.query_params.get("turn", "0")
        shown = int(turn) if turn.isascii() and turn.isdigit() and len(turn) < 6 else 0
        return _html(pages.hall_page(watcher.snapshot, watcher.silent_s, turn=shown))

    async def events(request: Request) -> Response:
        view = request.query_params.get("view", "board")
        if view not in ("board", "hall", "log"):
            return refused(404, "There is no such view.")

        async def stream() -> AsyncIterator[dict[str, str]]:
            sent_text: str | None = None
            sent_read: datetime | None = None
            sent_stamp: str | None = None
            while True:
                snapshot = watcher.snapshot
                if view == "log":
                    stamp = pages.log_stamp(snapshot)
                    if sent_stamp is not None and stamp != sent_stamp:
                        yield {"event": "log", "data": "new"}
                    sent_stamp = stamp
                else:
                    text = fragment(view, snapshot)
                    if text != sent_text:
                        yield {"event": view, "data": text}
                        sent_text = text
                if snapshot.read_at is not None and snapshot.read_at != sent_read:
                    yield {"event": "read", "data": f"{snapshot.read_at:%H:%M:%S}"}
                    sent_read = snapshot.read_at
                await changes.wait(push_check_s)

        return EventSourceResponse(stream(), ping=SSE_PING_S, headers={"Cache-Control": "no-store"})

    async def static(request: Request) -> Response:
        found = files.get(request.path_params["name"])
        if found is None:
            return refused(404, "There is no such file.")
        content, media = found
        return Response(content, media_type=media)

    # -- the judges' page ----------------------------------------------------------------------------

    async def found(request: Request) -> tuple[Found, str, JudgesView]:
        """The challenges the judge asked for (this page of them), why any could not be, the view."""
        asked = read_filters(request.query_params, today())
        problem = "; ".join(asked.problems)
        try:
            entries = await run_in_threadpool(recent.challenges, asked.query)
            matching = await run_in_threadpool(recent.count, _whole(asked.query))
        except KioskError as exc:
            entries, matching = Found(), 0
            problem = f"The log cannot be read: {exc}"
        snapshot = watcher.snapshot
        names = [] if snapshot.board is None else [line.name for line in snapshot.board.stations]
        divisions = [] if snapshot.board is None else [line.name for line in snapshot.board.divisions]
        older = ""
        if len(entries) == PAGE_ROWS and matching > PAGE_ROWS:
            last = entries[-1]
            older = urlencode({**asked.fields, "before": f"{last.judged_at.isoformat()}|{last.challenge_id}"})
        view = JudgesView(
            asked=asked.fields,
            matching=matching,
            older=older,
            stations=tuple(sorted({*names, *filter(None, [asked.fields.get("station")])}, key=natural_key)),
            divisions=tuple(
                sorted({*divisions, *filter(None, [asked.fields.get("division")])}, key=natural_key)
            ),
            query_string=urlencode(asked.fields),
            day_label="today" if asked.day == today() else f"on {asked.day:%Y-%m-%d}",
            day_value=f"{asked.day:%Y-%m-%d}" if asked.day else "",
        )
        return entries, problem, view

    async def challenges(request: Request) -> Response:
        token = judge(request)
        if token is None:
            return pin_page(request)
        if request.query_params.get("auto") != "1":
            sessions.touch(token)
        entries, problem, view = await found(request)
        notice = {"round": "The round is set: every station stamps its challenges with it within seconds.",
                  "retired": "Done: the board shows it as you asked until it reports again."}.get(
            request.query_params.get("done", ""), ""
        )  # fmt: skip
        page = pages.challenges_page(
            entries,
            lock_s,
            problem,
            snapshot=watcher.snapshot,
            form_token=request.state.form_token,
            view=view,
            notice=notice,
        )
        return _html(page)

    async def rows(request: Request) -> Response:
        if judge(request) is None:
            return refused(401, "The judges' page has locked itself: type the judge PIN again.")
        entries, problem, view = await found(request)
        return _html(pages.challenge_rows(entries, problem, view))

    async def export(request: Request) -> Response:
        token = judge(request)
        if token is None:
            return pin_page(request)
        sessions.touch(token)
        asked = read_filters(request.query_params, today())
        if asked.problems:
            return refused(400, "; ".join(asked.problems))
        query = _whole(asked.query)

        def lines() -> Iterator[str]:
            out = io.StringIO()
            writer = csv.writer(out, lineterminator="\n")
            writer.writerow(CSV_COLUMNS)
            page = LogQuery(**{**vars(query), "last": CSV_BATCH})
            while True:
                batch = recent.challenges(page)
                for entry in batch:
                    writer.writerow([inert(cell) for cell in entry_csv_row(entry)])
                yield out.getvalue()
                out.seek(0)
                out.truncate()
                if len(batch) < CSV_BATCH:
                    return
                last = batch[-1]
                page = LogQuery(**{**vars(page), "before": (last.judged_at, last.challenge_id)})

        name = f"challenges-{asked.day:%Y-%m-%d}.csv" if asked.day else "challenges.csv"
        return StreamingResponse(
            _threaded(lines()),
            media_type="text/csv; charset=utf-8",
            headers={"Content-Disposition": f'attachment; filename="{name}"'},
        )

    async def set_round(request: Request) -> Response:
        token = judge(request)
        if token is None:
            return pin_page(
                request, "The judges' page had locked itself: type the judge PIN, then set the round."
            )
        sessions.touch(token)
        text = posted(request).get("round", "").strip()
        if not (text.isascii() and text.isdigit() and 0 < int(text) <= MAX_ROUND):
            return await _again(request, f"The round {text[:20]!r} is not a number from 1 to {MAX_ROUND}.")
        if controls is None:
            return await _again(
                request, "This view cannot set the round (it was started without the log's URL)."
            )
        try:
            await run_in_threadpool(controls.set_round, int(text))
        except KioskError as exc:
            return await _again(request, f"The round was not set: {exc}")
        watcher.read_soon()
        return RedirectResponse("challenges?done=round", status_code=303)

    async def retire(request: Request) -> Response:
        token = judge(request)
        if token is None:
            return pin_page(request, "The judges' page had locked itself: type the judge PIN again.")
        sessions.touch(token)
        form = posted(request)
        try:
            station = uuid.UUID(form.get("station", ""))
        except ValueError:
            return await _again(request, "That station cannot be retired: reload the page and try again.")
        if controls is None:
            return await _again(request, "This view cannot retire a station.")
        try:
            await run_in_threadpool(lambda: controls.retire(station, retire=form.get("back") != "1"))
        except KioskError as exc:
            return await _again(request, f"The station was not retired: {exc}")
        watcher.read_soon()
        return RedirectResponse("challenges?done=retired", status_code=303)

    async def _again(request: Request, problem: str) -> Response:
        entries, _, view = await found(request)
        page = pages.challenges_page(
            entries,
            lock_s,
            problem,
            snapshot=watcher.snapshot,
            form_token=request.state.form_token,
            view=view,
        )
        return _html(page, 400)

    async def still_here(request: Request) -> Response:
        if not sessions.touch(request.cookies.get(cookie)):
            return refused(401, "The judges' page has locked itself: type the judge PIN again.")
        return Response(status_code=204)

    async def unlock(request: Request) -> Response:
        address = request.client.host if request.client else "unknown"
        answer = await door.check(address, posted(request).get("pin", ""))
        if not answer.accepted:
            message = answer.message(door.stored.missing)
            if answer.outcome is PinOutcome.TOO_SOON:
                return pin_page(request, message, 429, **{"Retry-After": str(math.ceil(answer.wait_s))})
            return pin_page(request, message, 503 if answer.problem else 403)
        sessions.close(request.cookies.get(cookie))
        response = RedirectResponse("challenges", status_code=303)
        # No max-age: the page stays open while the judge works there, which only this process knows.
        response.set_cookie(cookie, sessions.open(), path="/", httponly=True, samesite="strict", secure=https)
        return response

    async def lock(request: Request) -> Response:
        sessions.close(request.cookies.get(cookie))
        response = RedirectResponse("challenges", status_code=303)
        response.delete_cookie(cookie, path="/", httponly=True, samesite="strict", secure=https)
        return response

    return Starlette(
        routes=[
            Route("/", board),
            Route("/hall", hall),
            Route("/events", events),
            Route("/static/{name}", static),
            Route("/challenges", challenges, methods=["GET"]),
            Route("/challenges", unlock, methods=["POST"]),
            Route("/challenges/rows", rows, methods=["GET"]),
            Route("/challenges.csv", export, methods=["GET"]),
            Route("/round", set_round, methods=["POST"]),
            Route("/retire", retire, methods=["POST"]),
            Route("/awake", still_here, methods=["POST"]),
            Route("/lock", lock, methods=["POST"]),
        ],
        middleware=[Middleware(Gate, served=served, forms=forms, limits=limits or Limits(), refuse=refused)],
    )


def _whole(query: LogQuery) -> LogQuery:
    """The same filters over every page: no ``last``, no ``before``."""
    return LogQuery(**{**vars(query), "last": None, "before": None})


async def _threaded(lines: Iterator[str]) -> AsyncIterator[str]:
    """Each chunk of a generator that reads the database, made on a worker thread."""
    done = object()
    while True:
        chunk = await run_in_threadpool(next, lines, done)
        if chunk is done:
            return
        assert isinstance(chunk, str)
        yield chunk
