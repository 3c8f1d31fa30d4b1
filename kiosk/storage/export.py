"""The log as a CSV file for directors: every field, the per-word results included."""

from __future__ import annotations

import csv
from collections.abc import Iterable
from typing import TextIO

from kiosk.core.record import ChallengeEntry

__all__ = ["CSV_COLUMNS", "entry_csv_row", "write_csv"]

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
)


def entry_csv_row(entry: ChallengeEntry) -> list[str]:
    ruling = entry.ruling
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
    ]


def write_csv(entries: Iterable[ChallengeEntry], out: TextIO) -> int:
    """Write a header and one line per challenge; return the number of challenges written."""
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    count = 0
    for entry in entries:
        writer.writerow(entry_csv_row(entry))
        count += 1
    return count
