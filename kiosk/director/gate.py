"""The director's gate: every request passes here before it reaches a page (ASGI middleware).

It refuses, before any page sees the request:

- a ``Host`` the server is not served as (``Served``): a foreign web page whose name is made to
  point at this computer (DNS rebinding) would otherwise be same-origin with the board and the PIN
  form. An address literal is never a rebinding (the browser's origin is that address); a name is
  one of this computer's (``localhost`` on loopback, its host name) or a certificate's;
- a body longer than ``Limits.body_bytes`` while it is read: a ``Content-Length`` past it is
  refused before a byte of the body is read, a chunked body as soon as it passes it, a body that
  trickles in for longer than ``Limits.body_timeout_s`` is cut; the connection is closed, so
  nothing more of it is read;
- on anything but GET and HEAD: an ``Origin`` (or, without one, a ``Referer``) other than this
  page's own (a form posted from another site: cross-site request forgery); a body that is not
  ``application/x-www-form-urlencoded`` (a cross-site "simple" ``text/plain`` post); and a form
  without this browser's form token.

Form tokens: every browser gets a form cookie (random, ``HttpOnly``, ``SameSite=Strict``;
``Secure`` and ``__Host-`` over HTTPS), and every page gets ``request.state.form_token``, the
HMAC of that cookie under a secret of this process. A page's form carries the token in a hidden
``form`` field; a post whose token does not match its cookie is refused. A restarted director
has a new secret: an old form is refused with "reload the page". The parsed form of an accepted
post is ``request.state.form`` (``posted``), so a page never reads a body itself.

Every response gets the security headers (``SECURITY_HEADERS``): ``Referrer-Policy: same-origin``
rather than ``no-referrer``, because with ``no-referrer`` browsers send ``Origin: null`` even on
a same-origin form post, and the Origin check would refuse the page's own form.

Starlette's ``TrustedHostMiddleware`` was not used: it ignores the port, and it cannot say "any
address literal" for a server listening on every address (``--host 0.0.0.0``), whose addresses
the standard library cannot list on every system.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import ipaddress
import secrets
import socket
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from http.cookies import CookieError, SimpleCookie
from urllib.parse import parse_qs, urlsplit

from starlette.datastructures import Headers, MutableHeaders
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from kiosk.director.limits import Limits

__all__ = ["FORM_FIELD", "SECURITY_HEADERS", "Forms", "Gate", "Served", "posted"]

FORM_FIELD = "form"  # the hidden field that carries the form token
FORM_TYPE = "application/x-www-form-urlencoded"
SAFE_METHODS = frozenset({"GET", "HEAD"})
MAX_FORM_FIELDS = 16
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; frame-ancestors 'none'; form-action 'self'",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
    "Cache-Control": "no-store",
}
WILDCARDS = frozenset({"0.0.0.0", "::"})

Refuse = Callable[[int, str], Response]


def _ip(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(text)
    except ValueError:
        return None


@dataclass(frozen=True)
class Served:
    """How this server is reached: its scheme, the address it listens on, its port, and the host
    names it answers to (lower case)."""

    scheme: str
    host: str
    port: int
    names: frozenset[str]

    @classmethod
    def of(cls, host: str, port: int, *, https: bool = False, names: Iterable[str] = ()) -> Served:
        """``names``: more host names (a certificate's). On loopback only ``localhost``; on any
        other address also this computer's own names."""
        ip = _ip(host)
        known = {name.lower().rstrip(".") for name in names}
        if ip is None or ip.is_loopback or host in WILDCARDS:
            known.add("localhost")
        if ip is None or not ip.is_loopback:
            own = socket.gethostname().lower()
            known |= {own, f"{own}.local"}
            fqdn = socket.getfqdn().lower()
            if "." in fqdn and not fqdn.startswith("localhost"):  # not a loopback name
                known.add(fqdn)
        if ip is None:
            known.add(host.lower())
        return cls("https" if https else "http", host, port, frozenset(known))

    @property
    def default_port(self) -> int:
        return 443 if self.scheme == "https" else 80

    def _split(self, authority: str) -> tuple[str, int] | None:
        try:
            parts = urlsplit(f"//{authority}")
            name, port = parts.hostname, parts.port
        except ValueError:
            return None
        if not name or parts.username is not None or parts.path:
            return None
        return name.lower().rstrip("."), port if port is not None else self.default_port

    def allows(self, host_header: str | None) -> bool:
        """Whether a request with this ``Host`` is for this server."""
        split = None if not host_header else self._split(host_header)
        if split is None:
            return False
        name, port = split
        if port != self.port:
            return False
        ip = _ip(name)
        if ip is None:
            return name in self.names
        if self.host in WILDCARDS:
            return True
        bound = _ip(self.host)
        return ip == bound or (bound is not None and bound.is_loopback and ip.is_loopback)

    def same_origin(self, url: str | None, host_header: str) -> bool:
        """Whether ``url`` (an Origin or a Referer) is this page's own origin, as its Host says."""
        if not url:
            return False
        try:
            parts = urlsplit(url)
        except ValueError:
            return False
        mine = self._split(host_header)
        return parts.scheme == self.scheme and mine is not None and self._split(parts.netloc) == mine

    @property
    def url(self) -> str:
        """The address to print (a wildcard as this computer's name)."""
        host = socket.gethostname() if self.host in WILDCARDS else self.host
        shown = f"[{host}]" if ":" in host else host
        port = "" if self.port == self.default_port else f":{self.port}"
        return f"{self.scheme}://{shown}{port}/"


class Forms:
    """Form tokens of this process: the HMAC of a browser's form cookie under a secret that lives
    and dies with the process."""

    def __init__(self, *, secure: bool) -> None:
        self._secret = secrets.token_bytes(32)
        self.secure = secure
        self.cookie = "__Host-kiosk_form" if secure else "kiosk_form"

    def token(self, browser: str) -> str:
        return hmac.new(self._secret, browser.encode("ascii", "replace"), hashlib.sha256).hexdigest()

    def valid(self, browser: str | None, token: str | None) -> bool:
        if not browser or not token:
            return False
        return hmac.compare_digest(self.token(browser), token)

    def set_cookie(self, headers: MutableHeaders, browser: str) -> None:
        secure = "; Secure" if self.secure else ""
        headers.append("set-cookie", f"{self.cookie}={browser}; Path=/; HttpOnly; SameSite=Strict{secure}")


def posted(request: Request) -> dict[str, str]:
    """The accepted form of a POST (the gate parsed and checked it): each field's first value."""
    form: dict[str, str] = request.state.form
    return form


def _cookie(headers: Headers, name: str) -> str | None:
    jar: SimpleCookie = SimpleCookie()
    try:
        jar.load(headers.get("cookie", ""))
    except CookieError:  # a malformed Cookie header is no cookie
        return None
    morsel = jar.get(name)
    value = None if morsel is None else morsel.value
    return value if value and value.isascii() and len(value) <= 64 else None


def plain_refusal(status: int, text: str) -> Response:
    return PlainTextResponse(text, status_code=status)


class Gate:
    """The middleware (see the module docstring)."""

    def __init__(
        self, app: ASGIApp, served: Served, forms: Forms, limits: Limits, refuse: Refuse = plain_refusal
    ) -> None:
        self.app = app
        self.served = served
        self.forms = forms
        self.limits = limits
        self.refuse = refuse

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        browser = _cookie(headers, self.forms.cookie)
        new_browser = None if browser else secrets.token_urlsafe(32)

        async def guarded_send(message: Message) -> None:
            if message["type"] == "http.response.start":
                out = MutableHeaders(scope=message)
                for name, value in SECURITY_HEADERS.items():
                    if name.lower() not in out:
                        out[name] = value
                if new_browser is not None:
                    self.forms.set_cookie(out, new_browser)
            await send(message)

        async def refuse(status: int, text: str, *, close: bool = False) -> None:
            response = self.refuse(status, text)
            if close:  # what is left of the body is never read: the connection ends with the answer
                response.headers["connection"] = "close"
            await response(scope, receive, guarded_send)

        host = headers.get("host")
        if not self.served.allows(host):
            await refuse(400, f"This is kiosk director; it is not served as '{host}'. Open {self.served.url}")
            return
        body = await self._body(headers, receive, refuse)
        if body is None:
            return
        state = scope.setdefault("state", {})
        state["form_token"] = self.forms.token(browser or new_browser or "")
        if scope["method"] not in SAFE_METHODS:
            form = await self._form(headers, host or "", body, browser, refuse)
            if form is None:
                return
            state["form"] = form
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, guarded_send)

    async def _body(
        self, headers: Headers, receive: Receive, refuse: Callable[..., Awaitable[None]]
    ) -> bytes | None:
        """The whole body, read within the limits; None once a refusal was sent (or the client left)."""
        limit = self.limits.body_bytes
        too_long = f"A request body may be at most {limit} bytes; this page's forms are far shorter."
        length = headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > limit):
            await refuse(413, too_long, close=True)
            return None
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.limits.body_timeout_s
        chunks: list[bytes] = []
        size = 0
        more = True
        while more:
            try:
                message = await asyncio.wait_for(receive(), timeout=max(0.0, deadline - loop.time()))
            except TimeoutError:
                await refuse(408, "The request's body came too slowly.", close=True)
                return None
            if message["type"] == "http.disconnect":
                return None
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                await refuse(413, too_long, close=True)
                return None
            chunks.append(chunk)
            more = message.get("more_body", False)
        return b"".join(chunks)

    async def _form(
        self,
        headers: Headers,
        host: str,
        body: bytes,
        browser: str | None,
        refuse: Callable[..., Awaitable[None]],
    ) -> dict[str, str] | None:
        origin = headers.get("origin")
        if not self.served.same_origin(origin if origin is not None else headers.get("referer"), host):
            await refuse(403, f"A form sent from another page ({origin or 'no origin'}) is refused.")
            return None
        kind = headers.get("content-type", "").split(";")[0].strip().lower()
        if kind != FORM_TYPE:
            await refuse(415, f"A form is sent as {FORM_TYPE}, not {kind or 'nothing'}.")
            return None
        try:
            fields = parse_qs(body.decode("utf-8"), keep_blank_values=True, max_num_fields=MAX_FORM_FIELDS)
        except (UnicodeDecodeError, ValueError):
            await refuse(400, "That form cannot be read.")
            return None
        form = {name: values[0] for name, values in fields.items()}
        if not self.forms.valid(browser, form.get(FORM_FIELD)):
            await refuse(
                403,
                "This form is out of date (kiosk director was restarted, or the page was opened "
                "elsewhere): go back, reload the page and try again.",
            )
            return None
        return form
