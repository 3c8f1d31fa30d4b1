"""What a station tells the director: its state, its packs and its backlog, every few seconds.

A station reports a ``Heartbeat`` when its state changes and every ``HEARTBEAT_INTERVAL_S``
otherwise. It goes the way challenges go (``kiosk.storage.heartbeat``): written to the station's
own database by a background thread, and forwarded to the shared server by the log's forwarder;
never on the verdict path, so a server that is down costs the station nothing. The director's
view (``kiosk.director``) reads them back, with the time the receiving database saw each one
(``seen_at``, by that database's clock, so a station's wrong clock cannot make it look alive), and
shows a station not seen for ``UNSEEN_AFTER_S`` as a problem.

The two numbers are chosen together: a station that stops answering (killed, unplugged) must be
flagged within 20 s. Its last report is at most ``HEARTBEAT_INTERVAL_S`` old when it stops; the
director flags it once ``UNSEEN_AFTER_S`` have passed since, and its page hears of it within its
read interval (``kiosk.director.watch.POLL_S``): 15 s + 1 s, plus a read. Three reports a station
fails to send in a row, not one, make it look gone, so a report delayed by a busy server is no
false alarm. A judge's "Exit the station" sends ``CLOSED`` on the way out: a station closed on
purpose is told from one that crashed.
"""

from __future__ import annotations

import enum
import uuid
from dataclasses import dataclass, replace
from datetime import datetime
from typing import NewType

__all__ = [
    "HEARTBEAT_INTERVAL_S",
    "MAX_REPORT_BACKLOG",
    "MAX_REPORT_DIGEST_CHARS",
    "MAX_REPORT_NAME_CHARS",
    "MAX_REPORT_PACKS",
    "MAX_REPORT_REASON_CHARS",
    "UNSEEN_AFTER_S",
    "DivisionPack",
    "Heartbeat",
    "StationId",
    "StationState",
    "bounded",
    "ruling_set",
]

HEARTBEAT_INTERVAL_S = 5.0  # a station reports at least this often
UNSEEN_AFTER_S = 15.0  # not seen for this long (three reports missed): the director flags the station
# What one report may hold: a station writes no more (``bounded``), and a reader leaves out a row
# that holds more (someone else wrote it), so that one row cannot fill the director's page.
MAX_REPORT_NAME_CHARS = 120  # the station's name, its host, its version, a rule, a division, a pack
MAX_REPORT_REASON_CHARS = 1000  # why it is not ready: a sentence, a command and a path or two
MAX_REPORT_PACKS = 32  # divisions one station serves
MAX_REPORT_DIGEST_CHARS = 160  # a division's ruling set: two "sha256:" digests and a "/"
MAX_REPORT_BACKLOG = 10_000_000  # challenges waiting in one station's outbox

StationId = NewType("StationId", uuid.UUID)


class StationState(enum.Enum):
    """What a station is doing, as the director reads it."""

    READY = "ready"
    CHALLENGE = "in a challenge"
    JUDGE = "judge mode"
    FAULT = "station fault"
    NOT_READY = "not ready"
    CLOSED = "closed"  # a judge left it ("Exit the station"): gone on purpose, not crashed


@dataclass(frozen=True)
class DivisionPack:
    """One division of the station, the pack it judges with, and whether it is served now.

    ``set_hash`` is the digest of the word set that rules (``Ruling.set_hash``, and under youth
    rules the youth list's digest after a "/"; "" in a report that did not say) and ``youth``
    whether the division's youth rules apply: two stations judge a division alike only if both
    agree, whatever their packs are called."""

    division: str
    pack: str
    edition: str
    served: bool = True
    set_hash: str = ""
    youth: bool = False


@dataclass(frozen=True)
class Heartbeat:
    """One report of one station. ``reason``: why it is not ready, or what the fault was."""

    station_id: StationId
    station: str
    host: str
    state: StationState
    packs: tuple[DivisionPack, ...]
    rule_profile: str
    version: str
    reason: str = ""
    ask_table: bool = False
    backlog: int = 0  # challenges waiting in the station's outbox for the shared server
    round: int | None = None  # the event's round this station stamps its challenges with now
    reported_at: datetime | None = None  # the station's clock, when written
    seen_at: datetime | None = None  # the receiving database's clock

    def same_report(self, other: Heartbeat | None) -> bool:
        """Whether ``other`` says the same, whenever it was sent."""
        if other is None:
            return False
        return replace(self, reported_at=None, seen_at=None, backlog=0) == replace(
            other, reported_at=None, seen_at=None, backlog=0
        )


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def bounded(beat: Heartbeat) -> Heartbeat:
    """The report as it is written: every text within its bound (cut with "…"), at most
    ``MAX_REPORT_PACKS`` packs, so that a reader never has to leave a real station's report out."""
    name = MAX_REPORT_NAME_CHARS
    return replace(
        beat,
        station=_cut(beat.station, name),
        host=_cut(beat.host, name),
        rule_profile=_cut(beat.rule_profile, name),
        version=_cut(beat.version, name),
        reason=_cut(beat.reason, MAX_REPORT_REASON_CHARS),
        backlog=min(max(beat.backlog, 0), MAX_REPORT_BACKLOG),
        packs=tuple(
            replace(
                p, division=_cut(p.division, name), pack=_cut(p.pack, name), edition=_cut(p.edition, name)
            )
            for p in beat.packs[:MAX_REPORT_PACKS]
        ),
    )


def ruling_set(set_hash: str, youth_set_hash: str | None, youth: bool) -> str:
    """The digest of what rules a division: the word set's, and under youth rules the youth list's
    after a "/" (as ``DivisionPack.set_hash`` and the director's comparison of divisions say it)."""
    return f"{set_hash}/{youth_set_hash}" if youth and youth_set_hash else set_hash
