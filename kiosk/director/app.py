"""The director's web app (Starlette): the board, its live updates, and the PIN-guarded challenges.

Read-only: the only request that is not a GET is the judge PIN, which the station database's
``JudgeAccess`` checks with its back-off (a wrong PIN here counts as one at the station). A PIN
that is accepted opens the recent challenges to this browser for ``lock_s`` seconds (the judge
idle lock of the configuration), with a cookie of its own that only this process knows.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from urllib.parse import parse_qs

from sse_starlette import EventSourceResponse
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Route

from kiosk.core.errors import KioskError
from kiosk.core.plural import counted
from kiosk.director.pages import SCRIPT, STYLE, Pages
from kiosk.director.watch import Watcher
from kiosk.storage.board import LogReader

__all__ = ["RECENT_CHALLENGES", "PinDoor", "Sessions", "director_app"]

RECENT_CHALLENGES = 50
PUSH_CHECK_S = 0.5  # how often an open page's stream looks for a new snapshot
SSE_PING_S = 15
COOKIE = "kiosk_judge"
MAX_PIN_FORM_BYTES = 1024
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}


class PinDoor:
    """The judge PIN of one station database (its ``judge_access``); the file is never created."""

    def __init__(self, database: Path, set_pin_command: str) -> None:
        self.database = database
        self.set_pin_command = set_pin_command

    def check(self, pin: str) -> tuple[bool, str]:
        """Whether ``pin`` opens the door, and what to say if not."""
        from kiosk.storage.access import JudgeAccess, PinOutcome
        from kiosk.storage.database import open_engine, sqlite_url

        no_pin = (
            f"No judge PIN is set in {self.database}, so the challenges stay closed. Set one on this "
            f"computer with: {self.set_pin_command}"
        )
        if not self.database.is_file():
            return False, no_pin
        engine = open_engine(sqlite_url(self.database))
        try:
            check = JudgeAccess(engine, where=str(self.database)).check_pin(pin)
        except KioskError as exc:
            return False, f"The PIN cannot be checked: {exc}"
        finally:
            engine.dispose()
        if check.accepted:
            return True, ""
        if check.outcome is PinOutcome.NO_PIN:
            return False, no_pin
        wait = f" Wait {int(check.wait_s + 0.999)} s before the next try." if check.wait_s > 0 else ""
        if check.outcome is PinOutcome.TOO_SOON:
            return False, f"Too soon after {counted(check.failures, 'wrong PIN')}.{wait}"
        return False, f"{counted(check.failures, 'wrong PIN')} in a row.{wait}"


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


def _html(text: str, status: int = 200) -> HTMLResponse:
    return HTMLResponse(text, status_code=status, headers=SECURITY_HEADERS)


def director_app(
    watcher: Watcher,
    pages: Pages,
    door: PinDoor,
    recent: LogReader,
    *,
    lock_s: int,
    push_check_s: float = PUSH_CHECK_S,
    sessions: Sessions | None = None,
) -> Starlette:
    """The app over a running ``watcher``; ``recent`` reads the challenges for the second page."""
    sessions = sessions if sessions is not None else Sessions(lock_s)

    async def board(request: Request) -> Response:
        return _html(pages.board_page(watcher.snapshot, watcher.silent_s))

    async def events(request: Request) -> Response:
        async def stream() -> AsyncIterator[dict[str, str]]:
            sent = -1
            while True:
                snapshot = watcher.snapshot
                if snapshot.version != sent:
                    sent = snapshot.version
                    yield {"event": "board", "data": pages.board_fragment(snapshot, watcher.silent_s)}
                await asyncio.sleep(push_check_s)

        return EventSourceResponse(stream(), ping=SSE_PING_S, headers={"Cache-Control": "no-store"})

    async def style(request: Request) -> Response:
        return Response(STYLE, media_type="text/css", headers=SECURITY_HEADERS)

    async def script(request: Request) -> Response:
        return Response(SCRIPT, media_type="text/javascript", headers=SECURITY_HEADERS)

    async def challenges(request: Request) -> Response:
        token = request.cookies.get(COOKIE)
        if request.method == "POST":
            body = await request.body()
            if len(body) > MAX_PIN_FORM_BYTES:
                return _html(pages.pin_page("That is not a PIN.", bad=True), 400)
            pin = parse_qs(body.decode("utf-8", "replace")).get("pin", [""])[0]
            accepted, message = await run_in_threadpool(door.check, pin)
            if not accepted:
                return _html(pages.pin_page(message, bad=True), 403)
            sessions.close(token)
            response = RedirectResponse("challenges", status_code=303)
            response.set_cookie(COOKIE, sessions.open(), max_age=lock_s, httponly=True, samesite="strict")
            return response
        if not sessions.valid(token):
            return _html(pages.pin_page())
        try:
            entries = await run_in_threadpool(recent.recent, RECENT_CHALLENGES)
            problem = ""
        except KioskError as exc:
            entries, problem = [], f"The log cannot be read: {exc}"
        return _html(pages.challenges_page(entries, lock_s, problem))

    async def lock(request: Request) -> Response:
        sessions.close(request.cookies.get(COOKIE))
        response = RedirectResponse("challenges", status_code=303)
        response.delete_cookie(COOKIE)
        return response

    return Starlette(
        routes=[
            Route("/", board),
            Route("/events", events),
            Route("/style.css", style),
            Route("/app.js", script),
            Route("/challenges", challenges, methods=["GET", "POST"]),
            Route("/lock", lock),
        ]
    )
