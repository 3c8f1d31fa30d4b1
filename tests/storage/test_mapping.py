"""ChallengeEntry <-> ORM row <-> database, and <-> outbox JSON: nothing lost, nothing changed."""

from __future__ import annotations

import json
import tempfile
from dataclasses import replace
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from kiosk.core.errors import StorageError
from kiosk.core.log.challenge import ChallengeEntry
from kiosk.core.play.adjudication import WordResult, WordStatus
from kiosk.storage import open_station_storage
from kiosk.storage.mapping import entry_from_json, entry_to_json, entry_to_row, row_to_entry
from tests.storage.entries import WORD, entries, make_entry


@given(entries())
def test_entry_to_row_and_back_is_the_same_entry(entry: ChallengeEntry) -> None:
    assert row_to_entry(entry_to_row(entry)) == entry


@given(entries())
# an offset with microseconds: datetime.fromisoformat drops them (hypothesis found it)
@example(make_entry(judged_at=datetime(2000, 1, 1, tzinfo=timezone(timedelta(microseconds=1)))))
def test_entry_to_outbox_json_and_back_is_the_same_entry(entry: ChallengeEntry) -> None:
    assert entry_from_json(entry_to_json(entry)) == entry


@settings(max_examples=60, deadline=None)
@given(st.lists(entries() | entries(words=WORD), min_size=1, max_size=5, unique_by=lambda e: e.challenge_id))
def test_entries_come_back_from_the_sqlite_log_unchanged(batch: list[ChallengeEntry]) -> None:
    with tempfile.TemporaryDirectory() as tmp, open_station_storage(Path(tmp)) as storage:
        for entry in batch:
            storage.log.record(entry)
        for entry in batch:
            back = storage.log.get(entry.challenge_id)
            assert back == entry
            assert back is not None
            assert back.judged_at.utcoffset() is not None
            assert back.judged_at.tzinfo is not None
            assert back.judged_at.utcoffset().total_seconds() == 0  # type: ignore[union-attr]


def test_an_outbox_entry_of_format_1_from_before_table_numbers_is_still_read() -> None:
    entry = make_entry(table=None)
    document = json.loads(entry_to_json(entry))
    del document["table"]
    document["format"] = 1
    assert entry_from_json(json.dumps(document)) == entry


@pytest.mark.parametrize("table", [0, -3, "12", 1.5])
def test_an_outbox_table_that_is_not_a_table_number_is_refused(table: object) -> None:
    document = json.loads(entry_to_json(make_entry(table=7)))
    document["table"] = table
    with pytest.raises(StorageError, match="not a table number"):
        entry_from_json(json.dumps(document))


def test_a_naive_time_is_refused() -> None:
    entry = replace(make_entry(), judged_at=datetime(2024, 5, 1, 12, 0))
    with pytest.raises(StorageError, match="naive time"):
        entry_to_row(entry)


def test_results_that_do_not_match_the_words_are_refused() -> None:
    entry = make_entry(["CAT", "DOG"])
    wrong = replace(entry, ruling=replace(entry.ruling, results=(WordResult("CAT", WordStatus.ACCEPTABLE),)))
    with pytest.raises(StorageError, match="do not match the words"):
        entry_to_row(wrong)


def test_a_nul_character_is_refused_because_postgresql_cannot_store_it() -> None:
    with pytest.raises(StorageError, match="NUL"):
        entry_to_row(replace(make_entry(), station="Table\x001"))


def test_an_unknown_word_status_in_the_database_names_the_challenge() -> None:
    entry = make_entry()
    row = entry_to_row(entry)
    row.words[0].status = "FROM_THE_FUTURE"
    with pytest.raises(StorageError, match=str(entry.challenge_id)):
        row_to_entry(row)


def test_a_row_missing_per_word_results_is_reported_not_shown_short() -> None:
    row = entry_to_row(make_entry(["CAT", "DOG"]))
    del row.words[1]
    with pytest.raises(StorageError, match="2 words but has 1"):
        row_to_entry(row)
