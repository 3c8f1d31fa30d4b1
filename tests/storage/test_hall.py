"""The director's hall in the log (schema 8): the round, stamped on each challenge as it is judged;
a station retired; what a judge looks for (table, round, verdict, a word, page after page), on a
station's SQLite file and on a PostgreSQL server alike."""

from __future__ import annotations

import dataclasses
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from kiosk.core.log.challenge import ChallengeId, LogQuery
from kiosk.core.play.adjudication import Verdict
from kiosk.storage import open_station_storage
from kiosk.storage.database import open_engine, sqlite_url
from kiosk.storage.hall import HallControls, read_round
from kiosk.storage.log import SqlChallengeLog
from kiosk.storage.migrations import upgrade
from kiosk.storage.overview import LogReader
from tests.storage.entries import make_entry

T0 = datetime(2024, 5, 1, 9, 0, tzinfo=UTC)


def test_a_station_stamps_each_challenge_with_the_round_its_log_holds(tmp_path: Path) -> None:
    with open_station_storage(tmp_path) as storage:
        url = sqlite_url(storage.local_path)
        storage.log.record(first := make_entry(["QI"]))
        controls = HallControls(url)  # the director, on this station's own log
        try:
            controls.set_round(7)
            storage.log.record(seventh := make_entry(["ZA"]))
            controls.set_round(8)
            storage.log.record(eighth := make_entry(["XU"]))
            storage.log.record(given := dataclasses.replace(make_entry(["OX"]), round=3))  # kept as given
        finally:
            controls.close()
        found = {entry.challenge_id: entry.round for entry in storage.log.query(LogQuery())}
        local = read_round(open_engine(url))
    assert found == {
        first.challenge_id: None,
        seventh.challenge_id: 7,
        eighth.challenge_id: 8,
        given.challenge_id: 3,
    }
    assert local is not None
    assert local.number == 8


def test_a_retired_station_is_back_when_it_reports_again(tmp_path: Path) -> None:
    from tests.storage.entries import make_beat

    with open_station_storage(tmp_path) as storage:
        assert storage.heartbeats is not None
        url = sqlite_url(storage.local_path)
        storage.heartbeats.write(make_beat("Spare laptop", ago_s=120, number=3))
        controls = HallControls(url)
        reader = LogReader(url)
        since = datetime.now(UTC) - timedelta(hours=1)
        try:
            controls.retire(uuid.UUID(int=3))
            [line] = reader.board(since, since).stations
            assert line.retired_at is not None
            assert not line.red
            storage.heartbeats.write(make_beat("Spare laptop", ago_s=0, number=3))  # it is back
            [line] = reader.board(since, since).stations
            assert line.retired_at is None
            controls.retire(uuid.UUID(int=3))
            controls.retire(uuid.UUID(int=3), retire=False)  # brought back by the director
            [line] = reader.board(since, since).stations
            assert line.retired_at is None
        finally:
            controls.close()
            reader.close()


@pytest.fixture(params=["sqlite", "postgresql"])
def log(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[SqlChallengeLog]:
    if request.param == "sqlite":
        url = sqlite_url(tmp_path / "log.sqlite3")
    else:
        url = request.getfixturevalue("postgres_url")
    engine = open_engine(url)
    upgrade(engine)
    yield SqlChallengeLog(engine, where="the log")
    engine.dispose()


def test_a_judge_finds_a_challenge_by_table_round_verdict_and_word(log: SqlChallengeLog) -> None:
    entries = [
        dataclasses.replace(
            make_entry(
                words, station=f"Table {n % 3}", bad=bad, table=table, judged_at=T0 + timedelta(minutes=n)
            ),
            round=round_number,
        )
        for n, (words, bad, table, round_number) in enumerate(
            [
                (["ZYZZYVA"], (), 12, 7),
                (["QUIXOTRY", "ZAX"], ("ZAX",), 12, 6),
                (["MUZJIKS"], (), 3, 7),
                (["100%_OFF"], ("100%_OFF",), 12, 7),  # LIKE's own signs are letters here
                (["CAT"], (), None, None),
            ]
        )
    ]
    log.record_many(entries)
    ids = [entry.challenge_id for entry in entries]

    def found(**asked: object) -> list[ChallengeId]:
        query = LogQuery(**asked)  # type: ignore[arg-type]
        listed = [entry.challenge_id for entry in log.query(query)]
        assert log.count(dataclasses.replace(query, last=None)) >= len(listed)
        assert all(query.matches(entry) for entry in log.query(query))  # the outbox's filter agrees
        return listed

    assert found(round=7, table=12) == [ids[3], ids[0]]
    assert found(round=6) == [ids[1]]
    assert found(verdict=Verdict.UNACCEPTABLE) == [ids[3], ids[1]]
    assert found(word="zyzz") == [ids[0]]
    assert found(word="ZAX") == [ids[1]]
    assert found(word="%") == [ids[3]]
    assert found(word="_") == [ids[3]]
    assert found(word="Q_I") == []
    assert log.count(LogQuery(table=12)) == 3
    first = found(last=2)
    assert first == [ids[4], ids[3]]
    newest_shown = next(entry for entry in entries if entry.challenge_id == first[-1])
    assert found(last=2, before=(newest_shown.judged_at, newest_shown.challenge_id)) == [ids[2], ids[1]]


def test_a_judge_finds_a_word_of_tiles_as_a_player_typed_it(log: SqlChallengeLog) -> None:
    """The log keeps a word as its pack stores it, a tile of two letters in brackets (Spanish
    [CH]A[LL]APATEÑA, Catalan CO[L·L]ECCIO); a judge types the word as the station reads typing:
    letters, the accents the alphabet folds, Catalan L·L as L.L or ŀl, Spanish + between tiles."""
    words = (["[CH]A[LL]APATEÑA", "PE[RR]O"], ["CO[L·L]ECCIO", "CALL"], ["COLLECCIO"], ["PERRO"], ["ZYZZYVA"])
    entries = [make_entry(spelled, judged_at=T0 + timedelta(minutes=n)) for n, spelled in enumerate(words)]
    log.record_many(entries)
    ids = [entry.challenge_id for entry in entries]

    def found(word: str) -> set[ChallengeId]:
        query = LogQuery(word=word)
        listed = {entry.challenge_id for entry in log.query(query)}
        assert {entry.challenge_id for entry in entries if query.matches(entry)} == listed  # the outbox's
        assert log.count(query) == len(listed)
        return listed

    assert found("challapateña") == {ids[0]}
    assert found("CHALLAPATENA") == set()  # Ñ is a letter of its own in Spanish, not an N
    assert found("call") == {ids[1]}
    assert found("perro") == {ids[0], ids[3]}  # the RR tile or two R tiles: the list shows which
    assert found("pe+rro") == {ids[0], ids[3]}
    assert found("col·lecció") == {ids[1]}
    assert found("col.lecció") == {ids[1]}
    assert found("coŀlecció") == {ids[1]}
    assert found("collecció") == {ids[2]}  # two L tiles, as the station reads it
    assert found("l·l") == {ids[1]}
    assert found("rr") == {ids[0], ids[3]}
    assert found("zyzz") == {ids[4]}
    assert found("pe[rr]o") == {ids[0], ids[3]}  # copied from the log's lines: its letters
    assert found("[") == set()  # the brackets are how the log writes a tile, not letters to find


def test_a_query_refuses_what_no_log_holds() -> None:
    for asked in ({"round": 0}, {"round": 1000}, {"table": 0}, {"word": ""}, {"word": "X" * 65}):
        with pytest.raises(ValueError, match=r"numbered 1 to|holds 1 to"):
            LogQuery(**asked)


def test_the_export_says_the_round_and_the_penalty_and_runs_no_formula() -> None:
    import csv
    import io

    from kiosk.storage import CSV_COLUMNS, write_csv

    entry = dataclasses.replace(
        make_entry(["QI", "ZAX"], bad=(), division='=HYPERLINK("http://x","Open")'),
        round=7,
        rule_profile="penalty-5-challenger_loses",
    )
    out = io.StringIO()
    write_csv([entry], out)
    row = dict(zip(CSV_COLUMNS, list(csv.reader(io.StringIO(out.getvalue())))[1], strict=True))
    assert row["round"] == "7"
    assert row["penalty"] == "The play stands. The CHALLENGER loses 10 points."
    assert row["division"] == '\'=HYPERLINK("http://x","Open")'  # text, never a formula
