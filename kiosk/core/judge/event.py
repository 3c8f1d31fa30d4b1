"""What goes into judge mode's flow (events) and what comes out of it (effects).

Events: the judge's keys and taps, the clock, the station changing, and the answers to requests.
Effects: ``Request`` (work the view runs off the GUI thread; its answer comes back as an event with
the request's ticket, or as ``Failed``) and ``Order`` (what the station itself does at once).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from kiosk.core.judge.state import RECHECK_QUERY_LIMIT, Moment, Period, Station
from kiosk.core.log.challenge import ChallengeEntry, ChallengeId, LeftOut, LogStatus
from kiosk.core.packs.lexicon import MarisaLexicon
from kiosk.core.packs.trust import TrustedKey
from kiosk.core.station.config import LoadedDivision, StationConfig, Verifier
from kiosk.core.station.pin import PinCheck
from kiosk.core.station.reload import OnDisk, ReloadResult
from kiosk.core.station.settings import StationChoice
from kiosk.core.wording import Text

# -- events -------------------------------------------------------------------------------------------

__all__ = [
    "ApplyChoice",
    "CheckPacks",
    "CheckPin",
    "Closed",
    "CountsRead",
    "DoorRead",
    "Effect",
    "Event",
    "ExitStation",
    "Exported",
    "Failed",
    "Forward",
    "Forwarded",
    "Journal",
    "KeptRecorded",
    "Key",
    "Leave",
    "ListMounts",
    "LogRead",
    "MountsListed",
    "Opened",
    "Order",
    "PacksChecked",
    "PinChecked",
    "Pressed",
    "ReadCounts",
    "ReadDoor",
    "ReadLog",
    "ReadStatus",
    "RecordKept",
    "ReloadPacks",
    "Reloaded",
    "Request",
    "RowTapped",
    "SaveSettings",
    "Saved",
    "SettingStepped",
    "SettleKept",
    "StationChanged",
    "StationStepped",
    "StatusRead",
    "TakeReload",
    "Ticked",
    "Touched",
    "Typed",
    "WriteExport",
]


class Key(enum.Enum):
    ENTER = "enter"
    ESCAPE = "escape"
    BACKSPACE = "backspace"
    UP = "up"
    DOWN = "down"
    LEFT = "left"
    RIGHT = "right"
    PAGE_UP = "page up"
    PAGE_DOWN = "page down"


@dataclass(frozen=True)
class Opened:
    """Esc or the judge chord on the station (or the Judge button): the PIN door."""

    at: Moment


@dataclass(frozen=True)
class Closed:
    """The station closed judge mode: it cannot serve players now (its log or PIN went missing)."""


@dataclass(frozen=True)
class Touched:
    """A key or a tap is coming: the idle lock starts again."""

    at: Moment


@dataclass(frozen=True)
class Ticked:
    """Every second while judge mode is open: the idle lock, the countdowns, the USB sticks."""

    at: Moment


@dataclass(frozen=True)
class Typed:
    """Printable text from the keyboard, or an on-screen key that stands for it."""

    text: str


@dataclass(frozen=True)
class Pressed:
    key: Key


@dataclass(frozen=True)
class RowTapped:
    """A row of the recheck list (0 is the top row)."""

    row: int


@dataclass(frozen=True)
class StationStepped:
    """The recheck's station filter stepped: +1 the next station, -1 the one before."""

    delta: int


@dataclass(frozen=True)
class SettingStepped:
    """A settings line's ◀ (-1) or ▶ (+1) tapped."""

    line: int
    delta: int


@dataclass(frozen=True)
class StationChanged:
    """The station's controller changed something judge mode shows."""

    station: Station


@dataclass(frozen=True)
class DoorRead:
    ticket: int
    has_pin: bool
    wait_s: float


@dataclass(frozen=True)
class PinChecked:
    ticket: int
    check: PinCheck


@dataclass(frozen=True)
class LogRead:
    ticket: int
    stations: tuple[str, ...]
    entries: tuple[ChallengeEntry, ...]
    local_only: bool
    left_out: tuple[LeftOut, ...] = ()  # rows of the log that cannot be read, each named


@dataclass(frozen=True)
class CountsRead:
    ticket: int
    counts: tuple[tuple[str, int], ...]
    local_only: bool


@dataclass(frozen=True)
class StatusRead:
    ticket: int
    log: LogStatus


@dataclass(frozen=True)
class Forwarded:
    ticket: int
    count: int


@dataclass(frozen=True)
class KeptRecorded:
    """The challenges kept in memory were recorded again: these are now in the log."""

    ticket: int
    recorded: tuple[ChallengeId, ...]
    problem: Text  # why the others were not ("" when none is left)


@dataclass(frozen=True)
class Saved:
    ticket: int
    choice: StationChoice


@dataclass(frozen=True)
class PacksChecked:
    ticket: int
    on_disk: tuple[tuple[Path, OnDisk], ...]


@dataclass(frozen=True)
class Reloaded:
    ticket: int
    result: ReloadResult


@dataclass(frozen=True)
class MountsListed:
    ticket: int
    mounts: tuple[Path, ...]


@dataclass(frozen=True)
class Exported:
    ticket: int
    path: Path
    count: int
    local_only: bool
    left_out: int = 0


# -- effects --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Request:
    """Work for a worker thread; its answer comes back as an event with the same ticket."""

    ticket: int


@dataclass(frozen=True)
class ReadDoor(Request):
    """Is a PIN set, and how long is the back-off still?"""


@dataclass(frozen=True)
class CheckPin(Request):
    pin: str


@dataclass(frozen=True)
class ReadLog(Request):
    """The stations in the log, and the challenges of one period (and station), newest first."""

    period: Period
    station: str | None
    last: int = RECHECK_QUERY_LIMIT


@dataclass(frozen=True)
class ReadCounts(Request):
    since: datetime


@dataclass(frozen=True)
class ReadStatus(Request):
    pass


@dataclass(frozen=True)
class Forward(Request):
    """Send the shared log's outbox to the server now."""


@dataclass(frozen=True)
class RecordKept(Request):
    entries: tuple[ChallengeEntry, ...]


@dataclass(frozen=True)
class SaveSettings(Request):
    choice: StationChoice
    division: str | None  # what storage keeps: names, not indices (see ``saved_names``)
    rule_profile: str
    timings_ms: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class CheckPacks(Request):
    lexicons: tuple[tuple[Path, MarisaLexicon], ...]
    trusted_keys: tuple[TrustedKey, ...]


@dataclass(frozen=True)
class ReloadPacks(Request):
    config: StationConfig
    divisions: tuple[LoadedDivision, ...]
    verifier: Verifier  # the station's walk (a child process per new pack) and its known editions


@dataclass(frozen=True)
class ListMounts(Request):
    pass


@dataclass(frozen=True)
class WriteExport(Request):
    path: Path


@dataclass(frozen=True)
class Failed:
    """A request raised: a storage error, a file that could not be written. ``problem`` says why."""

    request: Request
    problem: Text


class Order:
    """Something the station itself must do, on the GUI thread, at once."""


@dataclass(frozen=True)
class Leave(Order):
    """Back to the players' screens (chosen, cancelled at the door, or locked when idle)."""

    clear_fault: bool = False  # the judge chose "Back to the station": a station fault is dealt with


@dataclass(frozen=True)
class ExitStation(Order):
    pass


@dataclass(frozen=True)
class ApplyChoice(Order):
    choice: StationChoice


@dataclass(frozen=True)
class TakeReload(Order):
    """The packs were read again: the station swaps them in (on its ready screen) if all verified.
    The view sends ``StationChanged`` once the station has taken them."""

    result: ReloadResult


@dataclass(frozen=True)
class SettleKept(Order):
    recorded: tuple[ChallengeId, ...]
    problem: Text


@dataclass(frozen=True)
class Journal(Order):
    """A line for the station's standard error (the system journal): what a judge may ask about."""

    line: str


Event = (
    Opened
    | Closed
    | Touched
    | Ticked
    | Typed
    | Pressed
    | RowTapped
    | StationStepped
    | SettingStepped
    | StationChanged
    | DoorRead
    | PinChecked
    | LogRead
    | CountsRead
    | StatusRead
    | Forwarded
    | KeptRecorded
    | Saved
    | PacksChecked
    | Reloaded
    | MountsListed
    | Exported
    | Failed
)
Effect = Request | Order
