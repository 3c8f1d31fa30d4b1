"""What judge mode shows of the log, as plain text: the recheck, the periods to search, the counts.

Per-word results are formatted here and shown only on judge screens (and in the CSV export),
never on a player screen. Times are shown in the station's local time, which is what the judge's
watch says; the log keeps UTC.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from pathlib import Path

from kiosk.core.adjudication import Verdict
from kiosk.core.record import ChallengeEntry

__all__ = [
    "EXPORT_FOLDER_NAME",
    "REMOVABLE_MEDIA_ROOTS",
    "Period",
    "RecheckCard",
    "WordLine",
    "count_lines",
    "export_file_name",
    "export_folders",
    "local_midnight",
    "periods",
    "recheck_card",
]

EXPORT_FOLDER_NAME = "exports"
HOURS_LISTED = 12  # the search offers each of the last twelve hours of today
REMOVABLE_MEDIA_ROOTS = (Path("/media"), Path("/run/media"), Path("/mnt"))
_UNSAFE_IN_FILE_NAME = re.compile(r"[^A-Za-z0-9._-]+")


@dataclass(frozen=True)
class WordLine:
    word: str
    acceptable: bool
    status: str


@dataclass(frozen=True)
class RecheckCard:
    """One challenge for the judge: a one-line summary, each word's result, and the record's details."""

    summary: str
    verdict: Verdict
    words: tuple[WordLine, ...]
    details: str
    kept: bool  # judged while the log was failing: only in this station's memory


def local_time(moment: datetime) -> datetime:
    """A UTC time from the log in the station's local time zone."""
    return moment.astimezone()


def _short(digest: str) -> str:
    """The first 12 hex digits of a ``sha256:`` digest: enough to tell sets apart on a screen."""
    return digest.removeprefix("sha256:")[:12]


def recheck_card(entry: ChallengeEntry, *, kept: bool = False) -> RecheckCard:
    ruling = entry.ruling
    when = local_time(entry.judged_at).strftime("%H:%M:%S")
    words = " ".join(ruling.words)
    table = "" if entry.table is None else f" \u00b7 table {entry.table}"
    summary = f"{when}  {entry.station} \u00b7 {entry.division}{table}  {ruling.verdict.value}  {words}"
    if kept:
        summary = f"NOT IN THE LOG \u2014 {summary}"
    youth = "youth rules" if ruling.youth_rules else "no youth rules"
    day = local_time(entry.judged_at).strftime("%Y-%m-%d %H:%M:%S %Z")
    digests = f"set {_short(ruling.set_hash)}"
    if ruling.youth_set_hash is not None:
        digests += f" \u00b7 youth list {_short(ruling.youth_set_hash)}"
    second = entry.second_opinion
    opinion = "" if second is None else f"second opinion {second.title}: {second.verdict.value} \u00b7 "
    details = (
        f"{day} \u00b7 {ruling.pack_name} {ruling.pack_edition} ({youth}) \u00b7 {entry.rule_profile}\n"
        f"{entry.edition_text} \u00b7 {digests}\n"
        f"{opinion}id {entry.challenge_id}"
    )
    lines = tuple(WordLine(r.word, r.status.acceptable, r.status.value) for r in ruling.results)
    return RecheckCard(summary=summary, verdict=ruling.verdict, words=lines, details=details, kept=kept)


def local_midnight(day: date) -> datetime:
    """The start of ``day`` in the station's local time zone, as an aware datetime (DST-safe)."""
    return datetime.combine(day, time()).astimezone()


@dataclass(frozen=True)
class Period:
    """A time range to search, inclusive start, exclusive end; None means open."""

    label: str
    since: datetime | None
    until: datetime | None


def periods(now: datetime) -> tuple[Period, ...]:
    """The time ranges the recheck offers, most recent first; ``now`` is local and aware."""
    midnight = local_midnight(now.date())
    found = [
        Period("Last 15 minutes", now - timedelta(minutes=15), None),
        Period("Last hour", now - timedelta(hours=1), None),
        Period("Today", midnight, None),
    ]
    hour = now.replace(minute=0, second=0, microsecond=0)
    for _ in range(HOURS_LISTED):
        if hour < midnight:
            break
        end = hour + timedelta(hours=1)
        found.append(Period(f"Today {hour:%H:%M}\u2013{end:%H:%M}", hour, end))
        hour -= timedelta(hours=1)
    yesterday = local_midnight(now.date() - timedelta(days=1))
    found += [
        Period("Yesterday", yesterday, midnight),
        Period("Last 7 days", now - timedelta(days=7), None),
        Period("Everything", None, None),
    ]
    return tuple(found)


def count_lines(counts: Mapping[str, int], this_station: str) -> list[str]:
    """Today's challenges per station, busiest first, this station marked; a total at the end."""
    if not counts:
        return ["No challenges yet today."]
    ordered = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    lines = [
        f"{station}{'  (this station)' if station == this_station else ''}: {count}"
        for station, count in ordered
    ]
    lines.append(f"All stations: {sum(counts.values())}")
    return lines


def export_file_name(station: str, now: datetime) -> str:
    """``challenges-Station_3-2026-05-01-1432.csv``: safe on FAT-formatted USB sticks too."""
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
