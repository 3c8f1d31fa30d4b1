"""The log as a CSV file for directors: every field, the per-word results included.

Columns are only ever added at the end, so that a director's spreadsheet built on an older export
still finds its columns where they were. ``published_edition`` is the edition's name, ``none`` when
the set that ruled is not a known edition, or ``not recorded`` for challenges logged before the log
recorded it. ``round`` is the event's round the station stamped (empty before the director set
one), ``penalty`` what the ruling meant for the players under its rule, in words.

A cell that a spreadsheet would take for a formula (text starting with ``=``, ``+``, ``-``, ``@``,
a tab or a carriage return: a station's role can write any division name) is written with a
leading apostrophe, so opening the export never runs anything.

``save_csv`` is the one way a CSV file is written, by ``kiosk log export`` and by judge mode's
Export page alike: UTF-8, and on the disk (the file's bytes and its directory entry) before it
returns, so that a USB stick pulled out the moment the judge reads "Written" holds the file.
"""

from __future__ import annotations

import csv
import os
from collections.abc import Iterable
from pathlib import Path
from typing import TextIO

from kiosk.core.log.challenge import ChallengeEntry
from kiosk.core.play.rules import logged_rule

__all__ = ["CSV_COLUMNS", "entry_csv_row", "inert", "save_csv", "write_csv"]

CSV_COLUMNS = (
    "challenge_id",
    "judged_at_utc",
    "station",
    "division",
    "table",
    "rule_profile",
    "pack_name",
    "pack_edition",
    "set_hash",
    "youth_rules",
    "word_count",
    "words",
    "verdict",
    "word_results",
    "youth_set_hash",
    "published_edition",
    "second_opinion_pack",
    "second_opinion_set_hash",
    "second_opinion_verdict",
    "round",
    "penalty",
)
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def entry_csv_row(entry: ChallengeEntry) -> list[str]:
    ruling = entry.ruling
    second = entry.second_opinion
    return [
        str(entry.challenge_id),
        entry.judged_at.isoformat(),
        entry.station,
        entry.division,
        "" if entry.table is None else str(entry.table),
        entry.rule_profile,
        ruling.pack_name,
        ruling.pack_edition,
        ruling.set_hash,
        "yes" if ruling.youth_rules else "no",
        str(len(ruling.words)),
        " ".join(ruling.words),
        ruling.verdict.value,
        "; ".join(f"{result.word}: {result.status.value}" for result in ruling.results),
        ruling.youth_set_hash or "",
        _edition(entry),
        "" if second is None else second.title,
        "" if second is None else second.set_hash,
        "" if second is None else second.verdict.value,
        "" if entry.round is None else str(entry.round),
        logged_rule(entry.rule_profile).consequence(ruling.verdict, len(ruling.words)),
    ]


def _edition(entry: ChallengeEntry) -> str:
    if not entry.edition_checked:
        return "not recorded"
    return entry.published_edition or "none"


def write_csv(entries: Iterable[ChallengeEntry], out: TextIO) -> int:
    """Write a header and one line per challenge; return the number of challenges written."""
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    count = 0
    for entry in entries:
        writer.writerow([inert(cell) for cell in entry_csv_row(entry)])
        count += 1
    return count


def inert(cell: str) -> str:
    """The cell as text a spreadsheet shows and never evaluates."""
    return f"'{cell}" if cell.startswith(FORMULA_STARTS) else cell


def save_csv(entries: Iterable[ChallengeEntry], path: Path) -> int:
    """Write the CSV file at ``path`` and make it survive a power cut or a stick pulled out at once.

    Returns the number of challenges written; raises OSError (the caller names the file to the user).
    """
    with path.open("w", encoding="utf-8", newline="") as out:
        count = write_csv(entries, out)
        out.flush()
        os.fsync(out.fileno())
    _sync_folder(path.parent)
    return count


def _sync_folder(folder: Path) -> None:
    """The directory entry too: without it a new file can vanish with the stick's cache."""
    try:
        handle = os.open(folder, os.O_RDONLY)
    except OSError:
        return  # Windows cannot open a directory; its FAT driver writes the entry with the file
    try:
        os.fsync(handle)
    except OSError:
        pass  # some file systems (and Windows) cannot sync a directory: the file itself is synced
    finally:
        os.close(handle)
