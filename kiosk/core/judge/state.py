"""Judge mode's state: what every judge screen shows, frozen, and the rules that shape it.

The pages' states (the PIN door, the recheck, the counts, the log's status, the packs, the
settings draft, the export) and the pure rules behind them: the periods a recheck searches, the
folders an export can go to. Words are the pages' (``kiosk.ui.judge``): a ``Notice`` names what a
page must say, never how.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from pathlib import Path

from kiosk.core.log.challenge import ChallengeEntry, LeftOut, LogStatus, local_midnight
from kiosk.core.station.config import LoadedDivision, StationConfig, Verifier
from kiosk.core.station.pin import PIN_MAX_LENGTH, PinAttempts
from kiosk.core.station.reload import OnDisk, ReloadResult
from kiosk.core.station.settings import Field, StationChoice, choice_fields
from kiosk.core.wording import Text

JUDGE_IDLE_LOCK_S = 60.0
RECHECK_ROWS = 5  # challenges listed at once on the recheck page
RECHECK_QUERY_LIMIT = 500  # the most a recheck reads from the log for one period and station
HOURS_LISTED = 12  # the recheck offers each of the last twelve hours of today
EXPORT_FOLDER_NAME = "exports"
REMOVABLE_MEDIA_ROOTS = (Path("/media"), Path("/run/media"), Path("/mnt"))
_UNSAFE_IN_FILE_NAME = re.compile(r"[^A-Za-z0-9._-]+")

__all__ = [
    "EXPORT_FOLDER_NAME",
    "HOURS_LISTED",
    "JUDGE_IDLE_LOCK_S",
    "MENU_PAGES",
    "RECHECK_QUERY_LIMIT",
    "RECHECK_ROWS",
    "REMOVABLE_MEDIA_ROOTS",
    "TODAY_PERIOD",
    "Counts",
    "Door",
    "Export",
    "JudgePage",
    "JudgeSession",
    "JudgeState",
    "Moment",
    "Notice",
    "Packs",
    "Period",
    "PeriodKind",
    "Recheck",
    "Refusal",
    "Said",
    "Settings",
    "Station",
    "Status",
    "Written",
    "export_file_name",
    "export_folders",
    "first_row",
    "menu_page",
    "periods",
    "start",
]


# -- the pages, the clock and the station as judge mode sees it ------------------------------------


class JudgePage(enum.Enum):
    """The judge screens. The menu's number keys open the last eight, in this order."""

    DOOR = "door"
    MENU = "menu"
    RECHECK = "recheck"
    PACKS = "packs"
    SETTINGS = "settings"
    COUNTS = "counts"
    EXPORT = "export"
    STATUS = "status"
    BACK = "back"  # the menu's "Back to the station": an action, never a page shown
    EXIT = "exit"


MENU_PAGES = (
    JudgePage.RECHECK,
    JudgePage.PACKS,
    JudgePage.SETTINGS,
    JudgePage.COUNTS,
    JudgePage.EXPORT,
    JudgePage.STATUS,
    JudgePage.BACK,
    JudgePage.EXIT,
)


def menu_page(text: str) -> JudgePage | None:
    """The page a key opens from the menu: ``1`` to ``8``, as numbered on the screen."""
    if len(text) == 1 and text.isascii() and text.isdigit() and 1 <= int(text) <= len(MENU_PAGES):
        return MENU_PAGES[int(text) - 1]
    return None


@dataclass(frozen=True)
class Moment:
    """The clocks read once: monotonic seconds (the idle lock and the countdowns, which a change
    of the wall clock must not move) and the local time (what the judge's watch says)."""

    monotonic_s: float
    local: datetime


@dataclass(frozen=True)
class Station:
    """What judge mode needs of the station, copied from its controller whenever it changes."""

    config: StationConfig
    divisions: tuple[LoadedDivision, ...]
    choice: StationChoice  # the divisions served, rule profile and timings in use now
    kept: tuple[ChallengeEntry, ...] = ()  # judged while the log failed: only in this station's memory
    last_fault: Text = ""  # why the log refused the last challenge
    fault_shown: bool = False  # the players' screen shows a station fault
    packs_verified_at: datetime | None = None  # by the last reload; None: at start-up
    reload_waiting: bool = False  # a reloaded set waits for the ready screen
    verifier: Verifier = field(default_factory=Verifier)  # the walk and the known editions a reload uses

    @property
    def division_names(self) -> tuple[str, ...]:
        return tuple(d.division.name for d in self.divisions)


@dataclass(frozen=True)
class JudgeSession:
    """An unlocked judge mode: when the judge last did something, and how long it may stay idle."""

    last_activity_s: float
    idle_lock_s: float = JUDGE_IDLE_LOCK_S

    @classmethod
    def opened(cls, now_s: float, *, idle_lock_s: float = JUDGE_IDLE_LOCK_S) -> JudgeSession:
        return cls(last_activity_s=now_s, idle_lock_s=idle_lock_s)

    def touched(self, now_s: float) -> JudgeSession:
        """The judge pressed a key or clicked: the idle time starts again."""
        return JudgeSession(last_activity_s=max(now_s, self.last_activity_s), idle_lock_s=self.idle_lock_s)

    def remaining_s(self, now_s: float) -> float:
        """Seconds until the session locks itself; 0 once it has."""
        return max(0.0, self.last_activity_s + self.idle_lock_s - now_s)

    def is_locked(self, now_s: float) -> bool:
        return self.remaining_s(now_s) == 0.0


# -- what a page says besides its content: a notice, named here and worded by the page -------------


class Said(enum.Enum):
    FORWARDED = "forwarded"  # count: how many
    NOT_FORWARDED = "not forwarded"  # detail: why
    KEPT_ALL_RECORDED = "kept all recorded"
    KEPT_LEFT = "kept left"  # count: how many are still only in memory
    KEPT_FROM_BEFORE = "kept from before"  # an unsaved draft found on opening the settings
    NOT_SAVED_YET = "not saved yet"
    LOCKOUT_RULE = "lockout rule"  # the step would ignore keys for as long as the verdict shows
    LEAVE_UNSAVED = "leave unsaved"  # Esc once with changes not saved: a second Esc leaves them
    SAVED = "saved"
    NOT_SAVED = "not saved"  # detail: why
    NOT_WRITTEN = "not written"  # detail: why


@dataclass(frozen=True)
class Notice:
    said: Said
    count: int = 0
    detail: Text = ""


# -- the pages' states ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Refusal:
    """Why the door said no: a wrong PIN (``failures`` in a row now), one typed too soon and not
    checked (``too_soon``: a wait, never a wrong PIN), or a PIN that could not be checked
    (``problem``)."""

    failures: int = 0
    problem: Text = ""
    too_soon: bool = False


@dataclass(frozen=True)
class Door:
    """The PIN screen in front of judge mode.

    The digits are never shown, only counted. The door only ever checks a PIN: it never offers to
    set one, because whoever stands at the station may be a player. The PIN is set from the
    machine's terminal (``kiosk set-pin``), and a station without one does not serve players.
    """

    typed: str = ""
    has_pin: bool = True
    refusal: Refusal | None = None
    unreadable: Text = ""  # the storage could not be read, so no PIN can be checked: why
    shut_until_s: float = 0.0  # monotonic: the keypad is shut before then (the wrong-PIN back-off)
    asking: int | None = None  # the ticket of the read or the check under way

    @property
    def shown(self) -> str:
        """The PIN as the screen shows it: one dot per character, never the characters."""
        return " ".join("\u25cf" * len(self.typed)) if self.typed else ""

    def wait_s(self, now_s: float) -> float:
        """Seconds before the keypad opens again; 0 when it is open."""
        return max(0.0, self.shut_until_s - now_s)

    def shut(self, now_s: float) -> bool:
        """No PIN can be typed: the back-off runs, no PIN is set, or none can be checked."""
        return self.wait_s(now_s) > 0.0 or bool(self.unreadable) or not self.has_pin

    def typed_text(self, text: str) -> Door:
        keep = "".join(ch for ch in text if ch.isprintable() and not ch.isspace())
        if not keep or not self.has_pin:
            return self
        return replace(self, typed=(self.typed + keep)[:PIN_MAX_LENGTH], refusal=None)

    def erased(self) -> Door:
        return replace(self, typed=self.typed[:-1], refusal=None)

    def submitted(self) -> tuple[Door, str | None]:
        """Enter or OK: the PIN to check (none when none is typed or none is set)."""
        if not self.typed or not self.has_pin:
            return self, None
        return replace(self, typed=""), self.typed


class PeriodKind(enum.Enum):
    LAST_15_MINUTES = "last 15 minutes"
    LAST_HOUR = "last hour"
    TODAY = "today"
    HOUR = "an hour of today"  # from ``since`` to ``until``
    YESTERDAY = "yesterday"
    LAST_7_DAYS = "last 7 days"
    EVERYTHING = "everything"


@dataclass(frozen=True)
class Period:
    """A time range to search, inclusive start, exclusive end; None means open."""

    kind: PeriodKind
    since: datetime | None
    until: datetime | None


def periods(now: datetime) -> tuple[Period, ...]:
    """The time ranges the recheck offers, most recent first; ``now`` is local and aware."""
    midnight = local_midnight(now.date())
    found = [
        Period(PeriodKind.LAST_15_MINUTES, now - timedelta(minutes=15), None),
        Period(PeriodKind.LAST_HOUR, now - timedelta(hours=1), None),
        Period(PeriodKind.TODAY, midnight, None),
    ]
    hour = now.replace(minute=0, second=0, microsecond=0)
    for _ in range(HOURS_LISTED):
        if hour < midnight:
            break
        found.append(Period(PeriodKind.HOUR, hour, hour + timedelta(hours=1)))
        hour -= timedelta(hours=1)
    found += [
        Period(PeriodKind.YESTERDAY, local_midnight(now.date() - timedelta(days=1)), midnight),
        Period(PeriodKind.LAST_7_DAYS, now - timedelta(days=7), None),
        Period(PeriodKind.EVERYTHING, None, None),
    ]
    return tuple(found)


TODAY_PERIOD = 2  # the recheck opens on today's challenges


@dataclass(frozen=True)
class Recheck:
    """Recent challenges: the challenges kept in memory first, then the log's, newest first."""

    period: int = TODAY_PERIOD  # an index into ``periods(now)``
    station: str | None = None  # None: every station
    stations: tuple[str, ...] = ()  # the stations in the log, for the station filter
    entries: tuple[ChallengeEntry, ...] = ()
    selected: int = 0
    problem: Text = ""  # the log could not be read: why
    local_only: bool = False  # the shared log was out of reach: this station's challenges only
    left_out: tuple[LeftOut, ...] = ()  # rows of the log it could not read, each named: never hidden
    asking: int | None = None


def first_row(selected: int, count: int) -> int:
    """The card shown on the first row, so that the selected one is in the middle when it can be."""
    return max(0, min(selected - RECHECK_ROWS // 2, count - RECHECK_ROWS))


@dataclass(frozen=True)
class Counts:
    counts: tuple[tuple[str, int], ...] = ()  # challenges per station since midnight
    at: datetime | None = None  # when they were counted (local time)
    problem: Text = ""
    local_only: bool = False
    asking: int | None = None


@dataclass(frozen=True)
class Status:
    log: LogStatus | None = None
    problem: Text = ""  # the log's status could not be read: why
    notice: Notice | None = None
    asking: int | None = None
    forwarding: int | None = None
    recording: int | None = None  # the challenges kept in memory, again

    @property
    def working(self) -> bool:
        return self.forwarding is not None or self.recording is not None


@dataclass(frozen=True)
class Packs:
    on_disk: tuple[tuple[Path, OnDisk], ...] = ()  # each pack file in use, read again
    result: ReloadResult | None = None  # the last reload's, while the page stays open
    checking: int | None = None
    reloading: int | None = None
    check_after_reload: bool = False  # read the files again once the station has taken the reload


@dataclass(frozen=True)
class Settings:
    """The choice being edited. A draft not saved when judge mode locked itself is kept for the
    judge who comes back, and the page says so."""

    draft: StationChoice | None = None
    line: int = 0
    warned: bool = False  # told once that Esc leaves the changes unsaved
    notice: Notice | None = None
    saving: int | None = None


@dataclass(frozen=True)
class Written:
    path: Path
    count: int
    on_stick: bool
    local_only: bool  # the shared log was out of reach: the file holds this station's challenges only
    left_out: int = 0  # challenges in the log it could not read, so not in the file


@dataclass(frozen=True)
class Export:
    """Where the CSV goes: this station's data folder, or a USB stick (looked for every second)."""

    roots: tuple[Path, ...] = REMOVABLE_MEDIA_ROOTS  # where the system mounts removable media
    folders: tuple[Path, ...] = ()  # the data folder's exports folder, then each stick found
    index: int = 0
    listed: bool = False  # the sticks have been looked for since the page opened
    written: Written | None = None
    notice: Notice | None = None
    listing: int | None = None
    writing: int | None = None

    @property
    def sticks(self) -> int:
        return max(0, len(self.folders) - 1)


def export_file_name(station: str, now: datetime) -> str:
    """``challenges-Station_3-2026-05-01-143210.csv``: safe on FAT-formatted USB sticks too."""
    safe = _UNSAFE_IN_FILE_NAME.sub("_", station).strip("_") or "station"
    return f"challenges-{safe}-{now:%Y-%m-%d-%H%M%S}.csv"


def export_folders(
    data_dir: Path, mounts: Iterable[Path], roots: Sequence[Path] = REMOVABLE_MEDIA_ROOTS
) -> list[Path]:
    """Where judge mode can write the CSV: the data directory's exports folder, then any mounted
    volume under a removable-media root (``/media/…``, ``/run/media/…``, ``/mnt/…``)."""
    folders = [data_dir / EXPORT_FOLDER_NAME]
    for mount in mounts:
        if mount not in roots and any(mount.is_relative_to(root) for root in roots) and mount not in folders:
            folders.append(mount)
    return folders


@dataclass(frozen=True)
class JudgeState:
    """Everything the judge screens show. ``page`` None: judge mode is closed."""

    station: Station
    data_dir: Path
    now: Moment
    idle_lock_s: float = JUDGE_IDLE_LOCK_S
    page: JudgePage | None = None
    session: JudgeSession | None = None  # unlocked
    door: Door = field(default_factory=Door)
    door_touched_s: float = 0.0  # monotonic: the door was opened, or last had a key or a tap, then
    cleared: PinAttempts = field(default_factory=PinAttempts)  # wrong PINs before the right one
    recheck: Recheck = field(default_factory=Recheck)
    counts: Counts = field(default_factory=Counts)
    status: Status = field(default_factory=Status)
    packs: Packs = field(default_factory=Packs)
    settings: Settings = field(default_factory=Settings)
    export: Export = field(default_factory=Export)
    tickets: int = 0  # the last ticket given to a request

    @property
    def cards(self) -> int:
        """How many challenges the recheck lists: those kept in memory, then the log's."""
        return len(self.station.kept) + len(self.recheck.entries)

    @property
    def unsaved(self) -> bool:
        draft = self.settings.draft
        return draft is not None and draft != self.station.choice

    @property
    def fields(self) -> tuple[Field, ...]:
        """The settings lines that mean something for the draft."""
        draft = self.settings.draft or self.station.choice
        return choice_fields(draft, len(self.station.divisions))

    @property
    def asking(self) -> tuple[int, ...]:
        """The tickets of every request still out."""
        found = (
            self.door.asking,
            self.recheck.asking,
            self.counts.asking,
            self.status.asking,
            self.status.forwarding,
            self.status.recording,
            self.packs.checking,
            self.packs.reloading,
            self.settings.saving,
            self.export.listing,
            self.export.writing,
        )
        return tuple(ticket for ticket in found if ticket is not None)


def start(
    station: Station,
    data_dir: Path,
    now: Moment,
    *,
    idle_lock_s: float = JUDGE_IDLE_LOCK_S,
    media_roots: tuple[Path, ...] = REMOVABLE_MEDIA_ROOTS,
) -> JudgeState:
    """Judge mode, closed, for this station."""
    return JudgeState(
        station=station,
        data_dir=data_dir,
        now=now,
        idle_lock_s=idle_lock_s,
        export=Export(roots=media_roots),
    )
