"""Numbered schema upgrades: from every earlier version to now, data kept; newer refused."""

from __future__ import annotations

import dataclasses
import json
import uuid
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import Engine, inspect, text

from kiosk.core.errors import StorageError
from kiosk.core.log.challenge import ChallengeId, SecondOpinion
from kiosk.core.play.adjudication import Verdict, WordStatus
from kiosk.core.station.pin import hash_pin
from kiosk.storage import SCHEMA_VERSION, LogQuery, Outbox, PinOutcome, open_station_storage
from kiosk.storage.database import local_database_path, open_engine, sqlite_url
from kiosk.storage.heartbeat import HeartbeatStore
from kiosk.storage.migrations import schema_version, upgrade
from kiosk.storage.schema import Base
from tests.storage.entries import make_entry

OLD_ID = uuid.UUID("12345678-1234-5678-1234-567812345678")
QUEUED_ID = uuid.UUID("87654321-4321-8765-4321-876543218765")
QUEUED_FORMAT_1 = {
    "format": 1,
    "id": str(QUEUED_ID),
    "judged_at": "2024-05-01T09:01:00+00:00",
    "station": "Table 2",
    "division": "Open",
    "rule_profile": "double",
    "pack_name": "Test list",
    "pack_edition": "test",
    "set_hash": "abcd",
    "youth_rules": True,
    "verdict": "ACCEPTABLE",
    "results": [["QI", "ACCEPTABLE"]],
}


def engine_at(path: Path, version: int) -> Engine:
    engine = open_engine(sqlite_url(path))
    assert upgrade(engine, target=version) == version
    return engine


def write_data_of_version(engine: Engine, version: int) -> None:
    """Rows as a kiosk of that version would have written them (raw SQL, not today's models)."""
    with engine.begin() as conn:
        if version >= 1:
            conn.execute(
                text(
                    "INSERT INTO challenge (id, judged_at, station, division, rule_profile, pack_name, "
                    "pack_edition, set_hash, youth_rules, word_count, verdict) "
                    "VALUES (:id, '2024-05-01 09:00:00.000000', 'Table 1', "
                    "'Open', 'double', 'Test list', 'test', 'abcd', 0, 2, 'UNACCEPTABLE')"
                ),
                {"id": OLD_ID.hex},
            )
            conn.execute(
                text(
                    "INSERT INTO challenge_word VALUES (:id, 0, 'CAT', 'ACCEPTABLE'), "
                    "(:id, 1, 'DOGZ', 'NOT_IN_LEXICON')"
                ),
                {"id": OLD_ID.hex},
            )
        if version >= 2:
            conn.execute(text("INSERT INTO setting VALUES ('division', '\"School\"')"))
            conn.execute(
                text("INSERT INTO judge_access VALUES (1, :hash, 0, NULL)"), {"hash": hash_pin("135791")}
            )
        if version >= 3:  # a challenge queued for the shared server, in the outbox's format 1
            conn.execute(
                text("INSERT INTO outbox VALUES (:id, '2024-05-01 09:01:00.000000', :payload)"),
                {"id": QUEUED_ID.hex, "payload": json.dumps(QUEUED_FORMAT_1)},
            )


@pytest.mark.parametrize("version", range(SCHEMA_VERSION))
def test_every_earlier_version_upgrades_to_the_current_one_keeping_its_data(
    tmp_path: Path, version: int
) -> None:
    engine = engine_at(local_database_path(tmp_path), version)
    write_data_of_version(engine, version)
    engine.dispose()

    with open_station_storage(tmp_path) as storage:
        entries = storage.log.query(LogQuery())
        if version >= 1:
            [entry] = entries
            assert entry.challenge_id == ChallengeId(OLD_ID)
            assert entry.judged_at == datetime(2024, 5, 1, 9, 0, tzinfo=UTC)
            assert entry.ruling.verdict is Verdict.UNACCEPTABLE
            assert [r.status for r in entry.ruling.results] == [
                WordStatus.ACCEPTABLE,
                WordStatus.NOT_IN_LEXICON,
            ]
            # what the log did not record then is "not recorded", never "not published"
            assert (entry.edition_checked, entry.published_edition, entry.second_opinion) == (
                False,
                None,
                None,
            )
            assert entry.ruling.youth_set_hash is None
            assert entry.edition_text.startswith("edition not recorded")
            assert entry.table is None  # no table before schema 4: NULL, never a guess
            storage.log.record(make_entry(table=12))
            assert storage.log.query(LogQuery(last=1))[0].table == 12
        else:
            assert entries == []
        if version >= 2:
            assert storage.settings.load().division == "School"
            assert storage.judge_access.check_pin("135791").outcome is PinOutcome.ACCEPTED
        else:
            assert not storage.judge_access.has_pin()
    engine = open_engine(sqlite_url(local_database_path(tmp_path)))
    queued = Outbox(engine, where="the upgraded outbox").entries()
    if version >= 3:  # still forwardable after the upgrade
        assert [(e.challenge_id, e.station, e.edition_checked) for e in queued] == [
            (ChallengeId(QUEUED_ID), "Table 2", False)
        ]
    else:
        assert queued == []
    with engine.connect() as conn:
        assert schema_version(conn) == SCHEMA_VERSION
    engine.dispose()


def test_upgrading_an_up_to_date_database_changes_nothing(tmp_path: Path) -> None:
    engine = engine_at(tmp_path / "log.sqlite3", SCHEMA_VERSION)
    assert upgrade(engine) == SCHEMA_VERSION
    engine.dispose()


def test_the_upgrades_build_exactly_the_tables_the_models_describe(tmp_path: Path) -> None:
    migrated = engine_at(tmp_path / "migrated.sqlite3", SCHEMA_VERSION)
    modelled = open_engine(sqlite_url(tmp_path / "modelled.sqlite3"))
    Base.metadata.create_all(modelled)

    def shape(engine: Engine) -> dict[str, object]:
        inspector = inspect(engine)
        return {
            table: (
                sorted((c["name"], str(c["type"]), c["nullable"]) for c in inspector.get_columns(table)),
                inspector.get_pk_constraint(table)["constrained_columns"],
                sorted(index["name"] or "" for index in inspector.get_indexes(table)),
                sorted(
                    (fk["referred_table"], tuple(fk["constrained_columns"]))
                    for fk in inspector.get_foreign_keys(table)
                ),
            )
            for table in inspector.get_table_names()
        }

    assert shape(migrated) == shape(modelled)
    migrated.dispose()
    modelled.dispose()


def test_a_database_from_a_newer_kiosk_is_refused_with_a_clear_message(tmp_path: Path) -> None:
    engine = engine_at(local_database_path(tmp_path), SCHEMA_VERSION)
    with engine.begin() as conn:
        conn.execute(text("UPDATE kiosk_schema SET version = :v"), {"v": SCHEMA_VERSION + 1})
    engine.dispose()
    with pytest.raises(StorageError, match=rf"schema version {SCHEMA_VERSION + 1}, written by a newer kiosk"):
        open_station_storage(tmp_path)


def test_a_log_of_schema_5_keeps_every_row_and_records_what_ruled_from_then_on(tmp_path: Path) -> None:
    engine = engine_at(local_database_path(tmp_path), 5)
    write_data_of_version(engine, 5)
    engine.dispose()
    with open_station_storage(tmp_path) as storage:
        new = make_entry(("QI",), bad=())
        new = dataclasses.replace(
            new,
            ruling=dataclasses.replace(new.ruling, youth_rules=True, youth_set_hash="sha256:" + "1" * 64),
            published_edition="NSWL2023",
            edition_checked=True,
            second_opinion=SecondOpinion("CSW21", "2021", "sha256:" + "2" * 64, Verdict.ACCEPTABLE),
        )
        storage.log.record(new)
        by_id = {e.challenge_id: e for e in storage.log.query(LogQuery())}
    assert set(by_id) == {ChallengeId(OLD_ID), new.challenge_id}
    assert by_id[new.challenge_id] == new
    assert by_id[ChallengeId(OLD_ID)].edition_checked is False


@pytest.mark.parametrize("version", range(SCHEMA_VERSION))
def test_every_earlier_version_upgrades_in_place_on_postgresql_too(
    tmp_path: Path, postgres_url: str, version: int
) -> None:
    """The same steps on a shared PostgreSQL log, upgraded by a station of this kiosk (its owner)."""
    engine = open_engine(postgres_url)
    upgrade(engine, target=version)
    with engine.begin() as conn:
        if version >= 1:  # as a kiosk of that version wrote it: the columns of schema 1 only
            conn.execute(
                text(
                    "INSERT INTO challenge (id, judged_at, station, division, rule_profile, pack_name, "
                    "pack_edition, set_hash, youth_rules, word_count, verdict) VALUES (:id, "
                    "'2024-05-01 09:00', 'Table 1', 'Open', 'double', 'Test list', 'test', 'abcd', false, 1, "
                    "'ACCEPTABLE')"
                ),
                {"id": OLD_ID},
            )
            conn.execute(
                text("INSERT INTO challenge_word VALUES (:id, 0, 'CAT', 'ACCEPTABLE')"), {"id": OLD_ID}
            )
        if version >= 5:
            conn.execute(
                text(
                    "INSERT INTO station_heartbeat VALUES (:id, 'Table 1', 'kiosk-01', 'ready', '', '[]', "
                    "'double', false, 0, '1.0', '2024-05-01 09:00', '2024-05-01 09:00')"
                ),
                {"id": QUEUED_ID},
            )
    engine.dispose()
    with open_station_storage(tmp_path, postgres_url, forward_in_background=False) as storage:
        storage.log.record(new := make_entry(station="Table 2", table=3))
        assert storage.log.forward_backlog() == 1
        found = storage.log.query(LogQuery())
        assert not storage.log.status().local_only
    assert {e.challenge_id for e in found} == ({ChallengeId(OLD_ID)} if version >= 1 else set()) | {
        new.challenge_id
    }
    assert found.left_out == ()
    engine = open_engine(postgres_url)
    with engine.connect() as conn:
        assert schema_version(conn) == SCHEMA_VERSION
        writers = {row[0]: row[1] for row in conn.execute(text("SELECT station, written_by FROM challenge"))}
        assert writers["Table 2"] == "kiosk"  # stamped by the server: the role that inserted it
        if 1 <= version < 7:
            assert writers["Table 1"] is None  # from before: not known, never guessed
        elif version == 7:
            assert writers["Table 1"] == "kiosk"  # schema 7's trigger stamped the raw insert
        policies = {row[0] for row in conn.execute(text("SELECT tablename FROM pg_policies"))}
        assert {"challenge", "challenge_word", "station_heartbeat"} <= policies
        if version >= 5:
            assert [b.station for b in HeartbeatStore(engine, where="the log").all()] == ["Table 1"]
    engine.dispose()
