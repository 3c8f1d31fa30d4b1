"""The director's web app (Starlette): the board, its live updates, and the judges' page.

Read-only over the log. The only posts are the judge PIN and "lock now"; both, and every post a
later page adds, pass the gate first (``kiosk.director.gate``: Host, Origin, form token, body
limits). The PIN is checked by the page's own door (``kiosk.director.door``: its own count, per
device and for the page, never a station's). A PIN that is accepted opens the judges' page to this
browser for ``lock_s`` seconds (the judge idle lock of the configuration), with a cookie of its
own that only this process knows (``HttpOnly``, ``SameSite=Strict``, and ``Secure`` over HTTPS).

What the first page shows is what a hall needs (each station's state, packs, rule and counts);
what only the director needs (the log's location, the database's own error, each station's host,
version and full reason, commands and paths included) is on the judges' page.
"""

from __future__ import annotations

import asyncio
import math
import secrets
import time
from collections.abc import AsyncIterator, Callable

from sse_starlette import EventSourceResponse
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Route

from kiosk.core.errors import KioskError
from kiosk.core.station.pin import PinOutcome
from kiosk.director.door import DirectorDoor
from kiosk.director.gate import Forms, Gate, Served, posted
from kiosk.director.limits import Limits
from kiosk.director.pages import SCRIPT, STYLE, Pages
from kiosk.director.watch import Watcher
from kiosk.storage.overview import LogReader

__all__ = ["RECENT_CHALLENGES", "Sessions", "director_app"]

RECENT_CHALLENGES = 50
PUSH_CHECK_S = 0.5  # how often an open page's stream looks for a new snapshot
SSE_PING_S = 15


class Sessions:
    """Browsers the PIN was typed in, each for ``lock_s`` seconds from then."""

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

    def close(self, token: str | None) -> None:
        if token is not None:
            self._until.pop(token, None)


def _html(text: str, status: int = 200, headers: dict[str, str] | None = None) -> HTMLResponse:
    return HTMLResponse(text, status_code=status, headers=headers)


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
) -> Starlette:
    """The app over a running ``watcher``, served as ``served`` says; ``recent`` reads the
    challenges for the judges' page."""
    sessions = sessions if sessions is not None else Sessions(lock_s)
    https = served.scheme == "https"
    forms = Forms(secure=https)
    cookie = "__Host-kiosk_judge" if https else "kiosk_judge"

    def pin_page(request: Request, message: str = "", status: int = 200, **headers: str) -> Response:
        page = pages.pin_page(message, bad=bool(message), form_token=request.state.form_token)
        return _html(page, status, headers or None)

    async def board(request: Request) -> Response:
        return _html(pages.board_page(watcher.snapshot, watcher.silent_s, wrong_pins=door.wrong_last_hour()))

    async def events(request: Request) -> Response:
        async def stream() -> AsyncIterator[dict[str, str]]:
            sent = -1
            while True:
                snapshot = watcher.snapshot
                if snapshot.version != sent:
                    sent = snapshot.version
                    fragment = pages.board_fragment(
                        snapshot, watcher.silent_s, wrong_pins=door.wrong_last_hour()
                    )
                    yield {"event": "board", "data": fragment}
                await asyncio.sleep(push_check_s)

        return EventSourceResponse(stream(), ping=SSE_PING_S, headers={"Cache-Control": "no-store"})

    async def style(request: Request) -> Response:
        return Response(STYLE, media_type="text/css")

    async def script(request: Request) -> Response:
        return Response(SCRIPT, media_type="text/javascript")

    async def challenges(request: Request) -> Response:
        if not sessions.valid(request.cookies.get(cookie)):
            return pin_page(request)
        try:
            entries = await run_in_threadpool(recent.recent, RECENT_CHALLENGES)
            problem = ""
        except KioskError as exc:
            entries, problem = [], f"The log cannot be read: {exc}"
        page = pages.challenges_page(
            entries, lock_s, problem, snapshot=watcher.snapshot, form_token=request.state.form_token
        )
        return _html(page)

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
        response.set_cookie(
            cookie, sessions.open(), max_age=lock_s, path="/", httponly=True, samesite="strict", secure=https
        )
        return response

    async def lock(request: Request) -> Response:
        sessions.close(request.cookies.get(cookie))
        response = RedirectResponse("challenges", status_code=303)
        response.delete_cookie(cookie, path="/", httponly=True, samesite="strict", secure=https)
        return response

    def refused(status: int, text: str) -> Response:
        return _html(pages.refused_page(text), status)

    return Starlette(
        routes=[
            Route("/", board),
            Route("/events", events),
            Route("/style.css", style),
            Route("/app.js", script),
            Route("/challenges", challenges, methods=["GET"]),
            Route("/challenges", unlock, methods=["POST"]),
            Route("/lock", lock, methods=["POST"]),
        ],
        middleware=[Middleware(Gate, served=served, forms=forms, limits=limits or Limits(), refuse=refused)],
    )
