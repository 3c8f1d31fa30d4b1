"""A log whose files vanish (or are swapped) under a running station is noticed before a verdict.

SQLite keeps writing into the open, nameless inodes of deleted files: without a check every commit
would "succeed" and nothing would reach the disk. ``record`` must raise StorageError instead, so
the station shows its fault screen and keeps the challenge for the judge.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from kiosk.core.errors import StorageError
from kiosk.storage import LogQuery, open_station_storage
from tests.storage.entries import make_entry
from tests.storage.postgres import free_port


def log_files(folder: Path) -> list[Path]:
    return sorted(folder.glob("kiosk.sqlite3*"))


def test_deleting_the_log_files_makes_the_next_record_fail(tmp_path: Path) -> None:
    with open_station_storage(tmp_path) as storage:
        storage.log.record(make_entry(["CAT"]))
        assert [p.name for p in log_files(tmp_path)] == [
            "kiosk.sqlite3",
            "kiosk.sqlite3-shm",
            "kiosk.sqlite3-wal",
        ]
        for path in log_files(tmp_path):
            path.unlink()
        with pytest.raises(StorageError, match=r"kiosk\.sqlite3 was deleted while the station was running"):
            storage.log.record(make_entry(["DOG"]))
        with pytest.raises(StorageError, match="was deleted"):  # and every later one
            storage.log.record(make_entry(["QI"]))


@pytest.mark.parametrize("name", ["kiosk.sqlite3", "kiosk.sqlite3-wal"])
def test_a_log_file_replaced_by_another_is_noticed(tmp_path: Path, name: str) -> None:
    with open_station_storage(tmp_path) as storage:
        storage.log.record(make_entry(["CAT"]))
        target = tmp_path / name
        copy = tmp_path / "copy"
        shutil.copyfile(target, copy)
        copy.replace(target)  # same name, same bytes, another file
        with pytest.raises(StorageError, match=f"{name} was replaced by another file"):
            storage.log.record(make_entry(["DOG"]))


def test_the_write_ahead_log_alone_deleted_is_noticed(tmp_path: Path) -> None:
    with open_station_storage(tmp_path) as storage:
        storage.log.record(make_entry(["CAT"]))
        (tmp_path / "kiosk.sqlite3-wal").unlink()
        with pytest.raises(StorageError, match=r"kiosk\.sqlite3-wal was deleted"):
            storage.log.record(make_entry(["DOG"]))


def test_the_data_directory_removed_whole_is_noticed(tmp_path: Path) -> None:
    folder = tmp_path / "station"
    with open_station_storage(folder) as storage:
        storage.log.record(make_entry(["CAT"]))
        shutil.rmtree(folder)
        with pytest.raises(StorageError, match="was deleted"):
            storage.log.record(make_entry(["DOG"]))


def test_a_shared_log_checks_the_stations_own_file_too(tmp_path: Path) -> None:
    """Local first: the verdict path of a shared log is the station's SQLite file and outbox."""
    nobody = f"postgresql+psycopg://kiosk@127.0.0.1:{free_port()}/kiosk"
    with open_station_storage(tmp_path, nobody, forward_in_background=False) as storage:
        storage.log.record(make_entry(["CAT"]))
        for path in log_files(tmp_path):
            path.unlink()
        with pytest.raises(StorageError, match="was deleted"):
            storage.log.record(make_entry(["DOG"]))


def test_untouched_files_record_as_before_and_a_new_station_starts_a_new_log(tmp_path: Path) -> None:
    with open_station_storage(tmp_path) as storage:
        for word in ("CAT", "DOG", "QI"):
            storage.log.record(make_entry([word]))
        assert len(storage.log.query(LogQuery())) == 3
    for path in log_files(tmp_path):
        path.unlink()
    with open_station_storage(tmp_path) as storage:  # the restart the message asks for
        storage.log.record(make_entry(["ZA"]))
        assert [e.ruling.words for e in storage.log.query(LogQuery())] == [("ZA",)]


def test_settings_saved_into_a_deleted_database_are_not_called_saved(tmp_path: Path) -> None:
    from kiosk.storage import StationSettings

    with open_station_storage(tmp_path) as storage:
        storage.settings.save(StationSettings(rule_profile="free"))
        for path in log_files(tmp_path):
            path.unlink()
        with pytest.raises(StorageError, match="was deleted"):
            storage.settings.save(StationSettings(rule_profile="double"))
        # the judge can still get into judge mode (the PIN is read from the open file) to see why
        storage.judge_access.has_pin()
