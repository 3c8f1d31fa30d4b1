"""A log whose files vanish (or are swapped) under a running station is noticed before a verdict.

SQLite keeps writing into the open, nameless inodes of deleted files: without a check every commit
would "succeed" and nothing would reach the disk. ``record`` must raise StorageError instead, so
the station shows its fault screen and keeps the challenge for the judge.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from kiosk.core.errors import StorageError
from kiosk.storage import LogQuery, StationSettings, open_station_storage
from tests.conftest import REPO_ROOT, PackFactory
from tests.storage.entries import make_entry
from tests.storage.postgres import free_port

CHILD_TIMEOUT_S = 60


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


# -- changed in place: same inode, other bytes ------------------------------------------------------


def wal_of(folder: Path) -> Path:
    return folder / "kiosk.sqlite3-wal"


def test_a_log_emptied_in_place_is_noticed_and_its_write_ahead_log_kept(tmp_path: Path) -> None:
    """``: > kiosk.sqlite3`` (an organiser "clearing the log") keeps the inode the station writes."""
    from kiosk.storage import open_log_for_reading

    with open_station_storage(tmp_path) as storage:
        storage.log.record(make_entry(["CAT"]))
        (tmp_path / "kiosk.sqlite3").open("w").close()
        with pytest.raises(StorageError, match=r"kiosk\.sqlite3 was emptied while the station was running"):
            storage.log.record(make_entry(["DOG"]))
        with pytest.raises(StorageError, match="was emptied"):
            storage.settings.save(StationSettings(rule_profile="free"))
        held = wal_of(tmp_path).read_bytes()
        assert held
    # the station started again (or set-pin) opens nothing over it: SQLite would delete the -wal
    with pytest.raises(StorageError, match=r"is empty, but its write-ahead log .*kiosk\.sqlite3-wal holds"):
        open_station_storage(tmp_path)
    with pytest.raises(StorageError, match="is empty, but its write-ahead log"):
        open_log_for_reading(tmp_path)
    assert wal_of(tmp_path).read_bytes() == held


def test_a_log_written_over_in_place_by_another_log_is_noticed(tmp_path: Path) -> None:
    """``cp other.sqlite3 kiosk.sqlite3``: the same inode, another station's database in it."""
    with open_station_storage(tmp_path / "other") as other:
        other.log.record(make_entry(["QI"], station="Table 2"))
    with open_station_storage(tmp_path / "station") as storage:
        storage.log.record(make_entry(["CAT"]))
        shutil.copyfile(tmp_path / "other" / "kiosk.sqlite3", tmp_path / "station" / "kiosk.sqlite3")
        with pytest.raises(StorageError, match=r"kiosk\.sqlite3 was written over in place by another file"):
            storage.log.record(make_entry(["DOG"]))


def test_a_log_written_over_with_its_size_and_time_put_back_is_noticed(tmp_path: Path) -> None:
    """``cp -p`` (or ``touch -r``) sets the modification time back; the inode's change time it cannot."""
    with open_station_storage(tmp_path / "other"):
        pass
    log = tmp_path / "station" / "kiosk.sqlite3"
    with open_station_storage(tmp_path / "station") as storage:
        storage.log.record(make_entry(["CAT"]))
        other = (tmp_path / "other" / "kiosk.sqlite3").read_bytes()
        before = log.stat()
        assert len(other) == before.st_size  # two fresh logs: the same size
        with log.open("r+b") as out:
            out.write(other)
        os.utime(log, ns=(before.st_atime_ns, before.st_mtime_ns))
        assert (log.stat().st_size, log.stat().st_mtime_ns) == (before.st_size, before.st_mtime_ns)
        with pytest.raises(StorageError, match="was written over in place"):
            storage.log.record(make_entry(["DOG"]))


@pytest.mark.parametrize("content", [b"not a database at all\n", b"SQLite format 3\x00" + b"\x00" * 4000])
def test_a_log_file_overwritten_with_something_else_is_noticed(tmp_path: Path, content: bytes) -> None:
    with open_station_storage(tmp_path) as storage:
        storage.log.record(make_entry(["CAT"]))
        (tmp_path / "kiosk.sqlite3").write_bytes(content)
        with pytest.raises(StorageError, match="was written over in place"):
            storage.log.record(make_entry(["DOG"]))


def test_an_earlier_copy_of_the_same_log_written_back_is_noticed_by_its_size(tmp_path: Path) -> None:
    log = tmp_path / "kiosk.sqlite3"
    with open_station_storage(tmp_path) as storage:
        storage.log.record(make_entry(["CAT"]))
        earlier = log.read_bytes()
        for _ in range(60):
            storage.log.record(make_entry(["DOG" * 5] * 8))
        with sqlite3.connect(log) as reader:  # a checkpoint by another connection: the file grows
            reader.execute("PRAGMA wal_checkpoint(PASSIVE)")
        storage.log.record(make_entry(["QI"]))  # its own log, checkpointed: still the log
        assert log.stat().st_size > len(earlier)
        with log.open("r+b") as out:  # written back in place
            out.write(earlier)
            out.truncate()
        with pytest.raises(StorageError, match="was written over in place"):
            storage.log.record(make_entry(["ZA"]))


def test_checkpoints_by_the_station_and_by_other_programs_are_not_taken_for_intruders(
    tmp_path: Path,
) -> None:
    log = tmp_path / "kiosk.sqlite3"
    with open_station_storage(tmp_path) as storage:
        for round_number in range(3):
            for _ in range(20):
                storage.log.record(make_entry(["CAT"] * 8))
            done = subprocess.run(  # another process (kiosk set-pin, a reader) checkpoints the log
                [sys.executable, "-c", CHECKPOINT, str(log)], capture_output=True, text=True, check=False
            )
            assert done.returncode == 0, done.stderr
            storage.settings.save(StationSettings(rule_profile=f"free-{round_number}"))
        storage.log.record(make_entry(["QI"]))
        assert len(storage.log.query(LogQuery())) == 61


CHECKPOINT = "import sqlite3, sys; sqlite3.connect(sys.argv[1]).execute('PRAGMA wal_checkpoint(TRUNCATE)')"


def test_a_new_log_gets_a_number_of_its_own_in_its_header(tmp_path: Path) -> None:
    numbers = set()
    for name in ("one", "two"):
        with open_station_storage(tmp_path / name):
            pass
        header = (tmp_path / name / "kiosk.sqlite3").read_bytes()[:100]
        numbers.add(int.from_bytes(header[60:64], "big"))
    assert len(numbers) == 2
    assert 0 not in numbers


def test_no_program_of_the_kiosk_throws_away_the_write_ahead_log_of_a_log_emptied_under_a_station(
    tmp_path: Path,
) -> None:
    """SQLite deletes a ``-wal`` beside an empty database as soon as any connection opens it: the
    challenges since the last checkpoint would go. Every reader (and ``set-pin``) says so instead."""
    from click.testing import CliRunner

    from kiosk.cli import kiosk
    from kiosk.storage.database import sqlite_url
    from kiosk.storage.overview import LogReader

    data = tmp_path / "station"
    with open_station_storage(data) as station:  # the station runs on
        for word in ("CAT", "DOG", "QI"):
            station.log.record(make_entry([word]))
        (data / "kiosk.sqlite3").open("w").close()
        held = wal_of(data).read_bytes()
        runner = CliRunner()
        commands = [
            ["log", "show", "--data-dir", str(data)],
            ["log", "export", "--csv", str(tmp_path / "out.csv"), "--data-dir", str(data)],
            ["director", "--data-dir", str(data), "--once"],
            ["set-pin", "--stdin", "--data-dir", str(data)],
        ]
        for command in commands:
            result = runner.invoke(kiosk, command, input="482613\n")
            assert result.exit_code == 2, (command, result.output)
            assert "is empty, but its write-ahead log" in result.output, (command, result.output)
            assert "database is locked" not in result.output
            assert wal_of(data).read_bytes() == held, command
        reader = LogReader(sqlite_url(data / "kiosk.sqlite3"))
        with pytest.raises(StorageError, match="is empty, but its write-ahead log"):
            reader.board(datetime.now(UTC), datetime.now(UTC))
        reader.close()
        assert wal_of(data).read_bytes() == held
        with pytest.raises(StorageError, match="was emptied"):
            station.log.record(make_entry(["ZA"]))
    assert wal_of(data).read_bytes()[: len(held)] == held  # the station's exit kept it too
    assert (data / "kiosk.sqlite3").stat().st_size == 0  # and wrote nothing into the emptied file


def test_a_running_station_emptied_under_it_shows_no_verdict_after(
    tmp_path: Path, make_pack: PackFactory
) -> None:
    """The station's own controller in another process, keyed in as players key it."""
    data = tmp_path / "station"
    child = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tests.storage.station_child",
            "--data-dir",
            str(data),
            "--pack",
            str(make_pack(["CAT", "CATS", "DOG", "DOGS", "QI", "ZA"])),
            "--interval-s",
            "0.05",
        ],
        cwd=REPO_ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert child.stdout is not None
    try:
        assert child.stdout.readline().strip() == "READY"
        shown = [child.stdout.readline() for _ in range(5)]
        assert all(line.startswith("VERDICT ") for line in shown)
        (data / "kiosk.sqlite3").open("w").close()
        out, err = child.communicate(timeout=CHILD_TIMEOUT_S)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert child.returncode != 0
    assert "no verdict shown: the station is on its fault screen" in err
    assert len(out.splitlines()) <= 1  # at most the challenge already committed when the file was emptied
    assert wal_of(data).stat().st_size > 0
