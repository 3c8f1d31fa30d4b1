"""ChallengeEntry (the frozen value the station judges with) to and from rows and outbox JSON.

The only place that knows both shapes. Reading refuses values this kiosk does not know (a verdict
or word status written by a newer kiosk) with a StorageError naming the challenge.
"""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime
from typing import Any

from kiosk.core.errors import StorageError
from kiosk.core.log.challenge import MAX_ROUND, ChallengeEntry, ChallengeId, SecondOpinion
from kiosk.core.play.adjudication import Ruling, Verdict, WordResult, WordStatus
from kiosk.storage.schema import ChallengeRow, ChallengeWordRow

__all__ = ["entry_from_json", "entry_to_json", "entry_to_row", "row_to_entry"]

# A row outside these is not a challenge any station wrote: it is left out of a read, and named.
MAX_LOGGED_WORDS = 64  # the most words ``kiosk check --max-words`` or a station lets one challenge hold
EARLIEST_SHOWN = datetime(1, 1, 2, tzinfo=UTC)  # shown in any time zone without leaving the calendar
LATEST_SHOWN = datetime(9999, 12, 30, tzinfo=UTC)
JSON_FORMAT = (
    4  # 4: the round; 3: what ruled (youth list digest, published edition, second opinion); 2: the table
)
READABLE_JSON_FORMATS = (1, 2, 3, 4)  # an outbox written before an upgrade is still forwarded


def _check_entry(entry: ChallengeEntry) -> None:
    if entry.judged_at.tzinfo is None or entry.judged_at.utcoffset() is None:
        raise StorageError(
            f"challenge {entry.challenge_id} has a naive time {entry.judged_at.isoformat()}; "
            "the log keeps UTC times only"
        )
    ruling = entry.ruling
    second = entry.second_opinion
    texts = (
        entry.station,
        entry.division,
        entry.rule_profile,
        ruling.pack_name,
        ruling.pack_edition,
        ruling.set_hash,
        ruling.youth_set_hash or "",
        entry.published_edition or "",
        *(() if second is None else (second.pack_name, second.pack_edition, second.set_hash)),
    )
    if any("\x00" in value for value in (*texts, *ruling.words)):
        raise StorageError(
            f"challenge {entry.challenge_id} holds a NUL character, which PostgreSQL cannot store; "
            "remove it from the station configuration"
        )
    if tuple(result.word for result in ruling.results) != ruling.words:
        raise StorageError(
            f"challenge {entry.challenge_id}: the per-word results {ruling.results!r} do not match "
            f"the words {ruling.words!r}"
        )


def entry_to_row(entry: ChallengeEntry) -> ChallengeRow:
    _check_entry(entry)
    ruling = entry.ruling
    second = entry.second_opinion
    return ChallengeRow(
        id=entry.challenge_id,
        judged_at=entry.judged_at,
        station=entry.station,
        division=entry.division,
        rule_profile=entry.rule_profile,
        pack_name=ruling.pack_name,
        pack_edition=ruling.pack_edition,
        set_hash=ruling.set_hash,
        youth_rules=ruling.youth_rules,
        word_count=len(ruling.words),
        verdict=ruling.verdict.value,
        youth_set_hash=ruling.youth_set_hash,
        edition_checked=entry.edition_checked,
        published_edition=entry.published_edition,
        second_opinion_pack=None if second is None else second.pack_name,
        second_opinion_edition=None if second is None else second.pack_edition,
        second_opinion_set_hash=None if second is None else second.set_hash,
        second_opinion_verdict=None if second is None else second.verdict.value,
        table_number=entry.table,
        round_number=entry.round,
        words=[
            ChallengeWordRow(position=position, word=result.word, status=result.status.name)
            for position, result in enumerate(ruling.results)
        ],
    )


def _verdict(value: str, challenge: object) -> Verdict:
    try:
        return Verdict(value)
    except ValueError:
        raise StorageError(
            f"challenge {challenge} in the log has the verdict '{value}', which this kiosk does not "
            "know; read the log with the kiosk version that wrote it"
        ) from None


def _status(name: str, challenge: object) -> WordStatus:
    try:
        return WordStatus[name]
    except KeyError:
        raise StorageError(
            f"challenge {challenge} in the log has the word status '{name}', which this kiosk does "
            "not know; read the log with the kiosk version that wrote it"
        ) from None


def row_to_entry(row: ChallengeRow) -> ChallengeEntry:
    if not 1 <= row.word_count <= MAX_LOGGED_WORDS:
        raise StorageError(
            f"challenge {row.id} in the log lists {row.word_count} words; a challenge holds 1 to "
            f"{MAX_LOGGED_WORDS}: the database has been edited or damaged"
        )
    if not EARLIEST_SHOWN <= row.judged_at <= LATEST_SHOWN:
        raise StorageError(
            f"challenge {row.id} in the log is dated {row.judged_at.isoformat()}, a time no screen can "
            "show in every time zone: the database has been edited or damaged"
        )
    word_rows = sorted(row.words, key=lambda word_row: word_row.position)
    if len(word_rows) != row.word_count:
        raise StorageError(
            f"challenge {row.id} in the log lists {row.word_count} words but has "
            f"{len(word_rows)} per-word results; the database has been edited or damaged"
        )
    results = tuple(WordResult(word_row.word, _status(word_row.status, row.id)) for word_row in word_rows)
    return ChallengeEntry(
        challenge_id=ChallengeId(row.id),
        judged_at=row.judged_at,
        station=row.station,
        division=row.division,
        rule_profile=row.rule_profile,
        table=_table(row.table_number, row.id, "log"),
        round=_round(row.round_number, row.id, "log"),
        ruling=Ruling(
            words=tuple(result.word for result in results),
            verdict=_verdict(row.verdict, row.id),
            results=results,
            youth_rules=row.youth_rules,
            pack_name=row.pack_name,
            pack_edition=row.pack_edition,
            set_hash=row.set_hash,
            youth_set_hash=row.youth_set_hash,
        ),
        published_edition=row.published_edition,
        edition_checked=row.edition_checked,
        second_opinion=_second_opinion(
            row.id,
            row.second_opinion_pack,
            row.second_opinion_edition,
            row.second_opinion_set_hash,
            row.second_opinion_verdict,
        ),
    )


def _second_opinion(challenge: object, *fields: object) -> SecondOpinion | None:
    """The second opinion of a row or an outbox entry: all four fields, or none of them."""
    if all(value is None for value in fields):
        return None
    if not all(isinstance(value, str) for value in fields):
        raise StorageError(
            f"challenge {challenge} in the log has part of a second opinion; the database has been "
            "edited or damaged"
        )
    name, edition, set_hash, verdict = (str(value) for value in fields)
    return SecondOpinion(name, edition, set_hash, _verdict(verdict, challenge))


def _table(value: object, challenge: object, where: str = "outbox") -> int | None:
    if value is None or (type(value) is int and value > 0):
        return value
    raise StorageError(f"challenge {challenge} in the {where} has the table {value!r}, not a table number")


def _round(value: object, challenge: object, where: str = "outbox") -> int | None:
    if value is None or (type(value) is int and 0 < value <= MAX_ROUND):
        return value
    raise StorageError(f"challenge {challenge} in the {where} has the round {value!r}, not a round number")


def entry_to_json(entry: ChallengeEntry) -> str:
    _check_entry(entry)
    ruling = entry.ruling
    document: dict[str, Any] = {
        "format": JSON_FORMAT,
        "id": str(entry.challenge_id),
        # in UTC: fromisoformat drops an offset's seconds and microseconds, and the row stores UTC too
        "judged_at": entry.judged_at.astimezone(UTC).isoformat(),
        "station": entry.station,
        "division": entry.division,
        "rule_profile": entry.rule_profile,
        "pack_name": ruling.pack_name,
        "pack_edition": ruling.pack_edition,
        "set_hash": ruling.set_hash,
        "youth_rules": ruling.youth_rules,
        "verdict": ruling.verdict.value,
        "results": [[result.word, result.status.name] for result in ruling.results],
        "youth_set_hash": ruling.youth_set_hash,
        "edition_checked": entry.edition_checked,
        "published_edition": entry.published_edition,
        "second_opinion": None
        if (second := entry.second_opinion) is None
        else [second.pack_name, second.pack_edition, second.set_hash, second.verdict.value],
        "table": entry.table,
        "round": entry.round,
    }
    return json.dumps(document, ensure_ascii=False)


def entry_from_json(payload: str) -> ChallengeEntry:
    try:
        document = json.loads(payload)
        if document.get("format") not in READABLE_JSON_FORMATS:
            raise StorageError(
                f"an outbox entry has format {document.get('format')!r}; this kiosk reads formats "
                f"{READABLE_JSON_FORMATS}: forward it with the kiosk version that wrote it"
            )
        challenge = uuid.UUID(document["id"])
        results = tuple(WordResult(word, _status(status, challenge)) for word, status in document["results"])
        return ChallengeEntry(
            challenge_id=ChallengeId(challenge),
            judged_at=datetime.fromisoformat(document["judged_at"]),
            station=document["station"],
            division=document["division"],
            rule_profile=document["rule_profile"],
            table=_table(document.get("table"), challenge),
            round=_round(document.get("round"), challenge),
            ruling=Ruling(
                words=tuple(result.word for result in results),
                verdict=_verdict(document["verdict"], challenge),
                results=results,
                youth_rules=bool(document["youth_rules"]),
                pack_name=document["pack_name"],
                pack_edition=document["pack_edition"],
                set_hash=document["set_hash"],
                youth_set_hash=document.get("youth_set_hash"),
            ),
            published_edition=document.get("published_edition"),
            edition_checked=bool(document.get("edition_checked", False)),
            second_opinion=_second_opinion(challenge, *(document.get("second_opinion") or [None] * 4)),
        )
    except (ValueError, KeyError, TypeError) as exc:
        raise StorageError(f"an outbox entry cannot be read ({exc}); the local database is damaged") from exc
