"""The director's pages: Jinja2 templates (autoescaped: a station name is text, never markup).

The first page (the board and its live fragment) is public on the venue's network: it shows what
a hall needs, never the log's location, a database's own error, a station's host or the full
reason it gives (paths, commands, user names): those are on the judges' page, behind the PIN.

The templates, the style sheet and the script live here as text, so that the wheel and the
one-folder bundle carry them with no data-file rules. Times are shown in this computer's local
time, which is what the director's watch says; the log keeps UTC.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from jinja2 import DictLoader, Environment, select_autoescape

from kiosk.core.log.challenge import ChallengeEntry, Found
from kiosk.core.log.heartbeat import UNSEEN_AFTER_S, StationState
from kiosk.core.log.overview import Board, Counts, StationLine
from kiosk.core.words.plural import counted
from kiosk.director.watch import Snapshot

__all__ = ["SCRIPT", "STYLE", "Pages"]

STALE_AFTER_S = 15.0  # no read has finished for this long: the page says the log is not answering

STYLE = """
:root { --bg: #111418; --panel: #1b2027; --line: #2c333d; --text: #f2f4f7; --dim: #9aa4b2;
  --ok: #1f8a4c; --busy: #1f5fbf; --judge: #7a3db8; --bad: #c0392b; --warn: #b8860b; }
* { box-sizing: border-box; }
body { margin: 0; padding: 1.2rem 2rem; background: var(--bg); color: var(--text);
  font: 16px/1.4 "DejaVu Sans", "Segoe UI", Roboto, Helvetica, Arial, sans-serif; }
h1 { font-size: 1.6rem; margin: 0 0 .2rem; }
h2 { font-size: 1.15rem; margin: 1.4rem 0 .5rem; color: var(--dim); font-weight: normal; }
.sub { color: var(--dim); margin-bottom: .8rem; }
table { width: 100%; border-collapse: collapse; background: var(--panel); }
th, td { text-align: left; padding: .45rem .6rem; border-bottom: 1px solid var(--line);
  vertical-align: top; }
th { color: var(--dim); font-weight: normal; font-size: .85rem; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
tr.red td:first-child { box-shadow: inset 6px 0 0 var(--bad); }
tr.unseen td.seen { color: #ff7b6b; font-weight: bold; }
td.name, td.packs div, td.rule, td.seen { white-space: nowrap; }
td.state-cell { width: 34%; }
.state { display: inline-block; padding: .1rem .55rem; border-radius: 1rem; font-weight: bold;
  font-size: .9rem; white-space: nowrap; }
.s-ready { background: var(--ok); } .s-challenge { background: var(--busy); }
.s-judge { background: var(--judge); } .s-fault, .s-not_ready, .s-unseen { background: var(--bad); }
.s-never { background: #59626e; }
.why { color: #ffb4a8; font-size: .85rem; margin-top: .2rem; overflow-wrap: anywhere; }
.dim { color: var(--dim); font-size: .85rem; }
.banner { padding: .7rem 1rem; margin: .6rem 0; border-radius: .4rem; font-weight: bold; }
.banner.bad { background: #5c1d16; border: 1px solid var(--bad); }
.banner.warn { background: #4a3b0c; border: 1px solid var(--warn); }
.stale table { opacity: .55; }
.ok { color: #6fd39a; } .no { color: #ff7b6b; }
a { color: #8ab4ff; }
footer { margin-top: 1.2rem; color: var(--dim); font-size: .85rem; }
form { background: var(--panel); padding: 1.2rem; max-width: 26rem; border-radius: .4rem; }
form.inline { display: inline; background: none; padding: 0; }
form.inline button { font-size: .85rem; padding: .1rem .6rem; }
td.why-full { overflow-wrap: anywhere; font-size: .85rem; }
#station-details td:first-child { white-space: nowrap; }
input[type=password] { font-size: 1.4rem; width: 10rem; padding: .3rem; letter-spacing: .2rem; }
button { font-size: 1.1rem; padding: .35rem 1rem; margin-left: .5rem; }
ul.words { margin: 0; padding: 0; list-style: none; }
"""

SCRIPT = """
"use strict";
const board = document.getElementById("board");
const lost = document.getElementById("lost");
const source = new EventSource("events");
source.addEventListener("board", (event) => { board.innerHTML = event.data; lost.hidden = true; });
source.addEventListener("error", () => { lost.hidden = false; });
"""

TEMPLATES = {
    "layout.html": """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
{% block head %}{% endblock %}
<title>{% block title %}{% endblock %}</title>
<link rel="stylesheet" href="style.css"></head>
<body>{% block body %}{% endblock %}</body></html>
""",
    "board.html": """{% extends "layout.html" %}
{% block title %}Challenge stations — live{% endblock %}
{% block head %}<noscript><meta http-equiv="refresh" content="10"></noscript>{% endblock %}
{% block body %}
<h1>Challenge stations — live</h1>
<div class="sub">Reading {{ public_where }}. This page refreshes itself.</div>
<div id="lost" class="banner warn" hidden>This page has lost contact with <code>kiosk director</code>
on this computer (was it stopped?): trying again; what you see may be old.</div>
<div id="board">{% include "_board.html" %}</div>
<footer>Times are this computer's local time ({{ zone }}). A station not heard from for
{{ unseen_after }} s turns red. <a href="challenges">Recent challenges</a> (judge PIN: they show
the words, and each station's details).</footer>
<script src="app.js"></script>
{% endblock %}
""",
    "_board.html": """{% if problem %}<div class="banner bad" id="problem">{{ problem }}</div>{% endif %}
{% if wrong_pins %}<div class="banner warn" id="wrong-pins">{{ wrong_pins }}</div>{% endif %}
{% if board is none %}{% if not problem %}<p class="dim">Reading the log…</p>{% endif %}
{% else %}<div class="{{ 'stale' if problem else '' }}">
<div class="sub" id="as-of">As read at {{ as_of }}: {{ summary }}</div>
{% if board.left_out or board.not_read %}<div class="banner warn" id="left-out">
{%- if board.not_read %}<div>{{ board.not_read }} more station reports are in the log than this page
reads ({{ board.stations | length }} read, the most recently seen): more than any event has
stations, so someone else wrote them.</div>{% endif %}
{%- if board.left_out %}<div>Left out of this page, because they cannot be read:</div><ul>
{%- for why in board.left_out[:5] %}<li>{{ why }}</li>{% endfor %}
{%- if board.left_out | length > 5 %}<li>and {{ board.left_out | length - 5 }} more</li>{% endif %}</ul>
{%- endif %}</div>{% endif %}
<h2>Stations</h2>
<table id="stations"><thead><tr><th>Station</th><th>State</th><th>Last seen</th>
<th>Division: pack, edition</th><th>Rule</th><th class="n">Waiting to send</th>
<th class="n">Today</th><th class="n">Last hour</th><th>Last challenge</th></tr></thead><tbody>
{% for line in board.today %}
<tr class="{{ 'red' if line.red else '' }}{{ ' unseen' if line.unseen else '' }}"
 data-station="{{ line.name }}">
<td class="name"><b>{{ line.name }}</b>
{% if line.shared_name %}<div class="why">Two stations report this name: give each its own
station_name.</div>{% endif %}</td>
<td class="state-cell">{{ state(line) }}</td>
<td class="seen">{{ seen(line) }}</td>
<td class="packs">{% if line.beat %}{% for p in line.beat.packs %}<div>{{ p.division }}: {{ p.pack }}
{%- if p.edition %} {{ p.edition }}{% endif %}
{%- if not p.served %} <span class="dim">(not served now)</span>{% endif %}</div>{% endfor %}
{%- else %}<span class="dim">—</span>{% endif %}</td>
<td class="rule">{% if line.beat %}{{ line.beat.rule_profile }}
{%- if line.beat.ask_table %}<div class="dim">asks for tables</div>{% endif %}
{%- else %}<span class="dim">—</span>{% endif %}</td>
<td class="n">{% if line.beat %}{{ line.beat.backlog }}{% else %}<span class="dim">—</span>{% endif %}</td>
<td class="n">{{ line.counts.today }}</td><td class="n">{{ line.counts.last_hour }}</td>
<td>{{ when(line.counts.last_at) }}</td></tr>
{% else %}<tr><td colspan="9" class="dim">No station has reported or logged a challenge yet.</td></tr>
{% endfor %}
</tbody></table>
{% if board.earlier %}<h2>Not seen today</h2>
<div class="dim" id="earlier">{% for line in board.earlier -%}
<span data-earlier="{{ line.name }}">{{ line.name }}
{%- if line.beat %} (last seen {{ when(line.beat.seen_at) }}){% endif %}</span>{{ " · " if not loop.last }}
{%- endfor %}</div>{% endif %}
<h2>Divisions</h2>
<table id="divisions"><thead><tr><th>Division</th><th class="n">Today</th><th class="n">Last hour</th>
<th class="n">Successful today</th><th>Last challenge</th></tr></thead><tbody>
{% for d in board.divisions %}<tr data-division="{{ d.name }}"><td><b>{{ d.name }}</b></td>
<td class="n">{{ d.counts.today }}</td><td class="n">{{ d.counts.last_hour }}</td>
<td class="n">{{ share(d.counts) }}</td><td>{{ when(d.counts.last_at) }}</td></tr>
{% else %}<tr><td colspan="5" class="dim">No challenges yet.</td></tr>{% endfor %}
</tbody></table></div>{% endif %}
""",
    "pin.html": """{% extends "layout.html" %}
{% block title %}Recent challenges — judge PIN{% endblock %}
{% block body %}
<h1>Recent challenges</h1>
<div class="sub">They show the words and each word's result: judges only.
<a href=".">Back to the stations</a></div>
{% if message %}<div class="banner {{ 'bad' if bad else 'warn' }}" id="pin-message">{{ message }}</div>
{% endif %}
<form method="post" action="challenges"><label>Judge PIN
<input type="password" name="pin" inputmode="numeric" autocomplete="off" autofocus></label>
<input type="hidden" name="form" value="{{ form_token }}">
<button type="submit">Show</button></form>
{% endblock %}
""",
    "challenges.html": """{% extends "layout.html" %}
{% block title %}Recent challenges{% endblock %}
{% block head %}<meta http-equiv="refresh" content="{{ lock_s }}; url=challenges">{% endblock %}
{% block body %}
<h1>Recent challenges</h1>
<div class="sub">The last {{ shown }} in {{ where }}, newest first. This page locks itself in
{{ lock_s }} s. <a href="challenges">Refresh</a> · <a href=".">Back to the stations</a>
<form class="inline" method="post" action="lock"><input type="hidden" name="form" value="{{ form_token }}">
<button type="submit" id="lock">Lock now</button></form></div>
{% if problem %}<div class="banner bad" id="problem">{{ problem }}</div>{% endif %}
<table id="challenges"><thead><tr><th>Time</th><th>Station</th><th>Division</th><th class="n">Table</th>
<th>Verdict</th><th>Words</th><th>Rule</th></tr></thead><tbody>
{% for e in entries %}<tr><td>{{ when(e.judged_at) }}</td><td>{{ e.station }}</td><td>{{ e.division }}</td>
<td class="n">{{ e.table if e.table is not none else "—" }}</td>
<td><b class="{{ 'ok' if e.ruling.acceptable else 'no' }}">{{ e.ruling.verdict.value }}</b></td>
<td><ul class="words">{% for r in e.ruling.results %}
<li>{{ "✓" if r.status.acceptable else "✗" }} {{ r.word }}
<span class="dim">{{ r.status.value }}</span></li>{% endfor %}</ul></td>
<td class="dim">{{ e.rule_profile }}<br>{{ e.ruling.pack_name }} {{ e.ruling.pack_edition }}</td></tr>
{% else %}<tr><td colspan="7" class="dim">No challenges in the log yet.</td></tr>{% endfor %}
</tbody></table>
<h2>This view and the stations</h2>
<div class="sub" id="log-where">The log: {{ where }}.</div>
{% if log_error %}<div class="banner bad" id="log-error">{{ log_error }}</div>{% endif %}
<table id="station-details"><thead><tr><th>Station</th><th>Host</th><th>Kiosk</th><th>State</th>
<th>Why</th></tr></thead><tbody>
{% for line in stations %}<tr data-station="{{ line.name }}"><td><b>{{ line.name }}</b></td>
<td>{{ line.beat.host if line.beat else "—" }}</td><td>{{ line.beat.version if line.beat else "—" }}</td>
<td>{{ line.beat.state.value if line.beat else "no reports" }}</td>
<td class="why-full">{{ line.beat.reason if line.beat and line.beat.reason else "" }}</td></tr>
{% else %}<tr><td colspan="5" class="dim">No station has reported yet.</td></tr>{% endfor %}
</tbody></table>
{% endblock %}
""",
    "refused.html": """{% extends "layout.html" %}
{% block title %}Refused{% endblock %}
{% block body %}
<h1>Refused</h1>
<div class="banner bad" id="refused">{{ text }}</div>
<p><a href="/">The stations</a></p>
{% endblock %}
""",
}


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
        self.env = Environment(loader=DictLoader(TEMPLATES), autoescape=select_autoescape(default=True))
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
