"""``kiosk log show``, ``kiosk log export`` and ``kiosk set-pin`` through click's CliRunner."""

from __future__ import annotations

import csv
import dataclasses
import io
import os
import sqlite3
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from kiosk.cli import kiosk
from kiosk.cli.log import parse_since
from kiosk.core.log.challenge import ChallengeEntry, SecondOpinion
from kiosk.core.play.adjudication import Verdict
from kiosk.storage import CSV_COLUMNS, open_station_storage
from tests.storage.entries import make_entry
from tests.storage.postgres import free_port

T0 = datetime(2024, 5, 1, 9, 0, tzinfo=UTC)


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    directory = tmp_path / "station"
    with open_station_storage(directory) as storage:
        storage.log.record(make_entry(["CAT", "DOGZ"], station="Table 1", judged_at=T0))
        storage.log.record(make_entry(["QI"], station="Table 2", judged_at=T0 + timedelta(minutes=1)))
        storage.log.record(
            make_entry(["ZA"], station="Table 1", judged_at=T0 + timedelta(minutes=2), table=31)
        )
    return directory


def test_log_show_lists_challenges_oldest_first_with_per_word_results(data_dir: Path) -> None:
    result = CliRunner().invoke(kiosk, ["log", "show", "--data-dir", str(data_dir)])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "2024-05-01 09:00:00Z  Table 1  Open  UNACCEPTABLE  CAT DOGZ"
    assert "    DOGZ             not in the lexicon" in lines
    assert result.output.index("CAT DOGZ") < result.output.index("  QI") < result.output.index("  ZA")
    assert "double challenge, table 31, id" in result.output


def test_log_show_filters_by_station_since_and_last(data_dir: Path) -> None:
    runner = CliRunner()
    base = ["log", "show", "--data-dir", str(data_dir)]
    by_station = runner.invoke(kiosk, [*base, "--station", "Table 2"]).output
    assert "QI" in by_station
    assert "Table 1" not in by_station
    since = runner.invoke(kiosk, [*base, "--since", "2024-05-01T09:01"]).output
    assert "CAT DOGZ" not in since
    assert "QI" in since
    last = runner.invoke(kiosk, [*base, "--last", "1"]).output
    assert "ZA" in last
    assert "QI" not in last


def test_the_data_dir_comes_from_the_environment_when_no_flag_is_given(data_dir: Path) -> None:
    result = CliRunner().invoke(kiosk, ["log", "show"], env={"KIOSK_DATA_DIR": str(data_dir)})
    assert "CAT DOGZ" in result.output


def test_log_export_writes_every_field_and_the_per_word_results(data_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "log.csv"
    result = CliRunner().invoke(kiosk, ["log", "export", "--csv", str(out), "--data-dir", str(data_dir)])
    assert result.exit_code == 0, result.output
    assert "Wrote 3 challenges" in result.output
    rows = list(csv.DictReader(io.StringIO(out.read_text(encoding="utf-8"))))
    assert tuple(rows[0]) == CSV_COLUMNS
    assert rows[0]["judged_at_utc"] == "2024-05-01T09:00:00+00:00"
    assert rows[0]["words"] == "CAT DOGZ"
    assert rows[0]["verdict"] == "UNACCEPTABLE"
    assert rows[0]["word_results"] == "CAT: acceptable; DOGZ: not in the lexicon"
    assert [row["station"] for row in rows] == ["Table 1", "Table 2", "Table 1"]
    assert [row["table"] for row in rows] == ["", "", "31"]  # empty where the station does not ask


def what_ruled(entry: ChallengeEntry, division: str, name: str, edition: str | None) -> ChallengeEntry:
    ruling = dataclasses.replace(
        entry.ruling, pack_name=name, pack_edition="2024", youth_set_hash="sha256:" + "9" * 64
    )
    second = SecondOpinion("CSW21", "2021", "sha256:" + "2" * 64, Verdict.UNACCEPTABLE)
    return dataclasses.replace(
        entry,
        division=division,
        ruling=ruling,
        published_edition=edition,
        edition_checked=True,
        second_opinion=second,
    )


@pytest.fixture
def editions_dir(tmp_path: Path) -> Path:
    directory = tmp_path / "editions"
    with open_station_storage(directory) as storage:
        storage.log.record(what_ruled(make_entry(["QI"], judged_at=T0), "Schools", "School list", "NSWL2023"))
        storage.log.record(
            what_ruled(make_entry(["ZA"], judged_at=T0 + timedelta(minutes=1)), "Open", "Club list", None)
        )
        storage.log.record(
            make_entry(["CAT"], judged_at=T0 + timedelta(minutes=2))
        )  # as logged before schema 4
    return directory


def test_log_show_and_export_filter_by_division_and_lexicon(editions_dir: Path, tmp_path: Path) -> None:
    runner = CliRunner()
    base = ["log", "show", "--data-dir", str(editions_dir)]
    schools = runner.invoke(kiosk, [*base, "--division", "Schools"]).output
    assert "QI" in schools
    assert "  ZA" not in schools
    assert "    NSWL2023 (published word set); set " in schools
    assert "youth list sha256:9999" in schools
    assert "    second opinion CSW21 2021: UNACCEPTABLE; set sha256:2222" in schools
    for wanted in ("nswl2023", "School list", "school list 2024"):
        assert "QI" in runner.invoke(kiosk, [*base, "--lexicon", wanted]).output, wanted
    club = runner.invoke(kiosk, [*base, "--lexicon", "Club list"]).output
    assert "    not a published edition; set " in club
    assert "QI" not in club
    nothing = runner.invoke(kiosk, [*base, "--division", "Schools", "--lexicon", "Club list"])
    assert "No challenges in the log" in nothing.output
    old = runner.invoke(kiosk, [*base, "--lexicon", "Test list"]).output
    assert "edition not recorded" in old
    out = tmp_path / "schools.csv"
    exported = runner.invoke(
        kiosk, ["log", "export", "--csv", str(out), "--data-dir", str(editions_dir), "--division", "Schools"]
    )
    assert exported.exit_code == 0, exported.output
    [row] = list(csv.DictReader(io.StringIO(out.read_text(encoding="utf-8"))))
    assert (row["published_edition"], row["second_opinion_pack"], row["second_opinion_verdict"]) == (
        "NSWL2023",
        "CSW21 2021",
        "UNACCEPTABLE",
    )
    assert row["youth_set_hash"] == "sha256:" + "9" * 64
    every = tmp_path / "all.csv"
    runner.invoke(kiosk, ["log", "export", "--csv", str(every), "--data-dir", str(editions_dir)])
    editions = [
        row["published_edition"] for row in csv.DictReader(io.StringIO(every.read_text(encoding="utf-8")))
    ]
    assert editions == ["NSWL2023", "none", "not recorded"]


def test_set_pin_asks_twice_without_echo_and_sets_the_hash(tmp_path: Path) -> None:
    result = CliRunner().invoke(kiosk, ["set-pin", "--data-dir", str(tmp_path)], input="579135\n579135\n")
    assert result.exit_code == 0, result.output
    assert "579135" not in result.output
    with open_station_storage(tmp_path) as storage:
        assert storage.judge_access.check_pin("579135").accepted


def test_set_pin_reads_standard_input_for_scripts(tmp_path: Path) -> None:
    result = CliRunner().invoke(kiosk, ["set-pin", "--stdin", "--data-dir", str(tmp_path)], input="864297\n")
    assert result.exit_code == 0, result.output
    with open_station_storage(tmp_path) as storage:
        assert storage.judge_access.check_pin("864297").accepted


def test_a_too_short_pin_is_refused_with_exit_2(tmp_path: Path) -> None:
    result = CliRunner().invoke(kiosk, ["set-pin", "--stdin", "--data-dir", str(tmp_path)], input="12\n")
    assert result.exit_code == 2
    assert "too short" in result.output


def test_with_the_shared_server_away_show_says_it_is_local_only_and_export_refuses(
    data_dir: Path, tmp_path: Path
) -> None:
    nobody = f"postgresql+psycopg://kiosk@127.0.0.1:{free_port()}/kiosk"  # refused at once
    runner = CliRunner()
    shown = runner.invoke(kiosk, ["log", "show", "--data-dir", str(data_dir), "--database-url", nobody])
    assert shown.exit_code == 0, shown.output
    assert "cannot be reached" in shown.stderr
    assert "showing only the challenges judged at this station" in shown.stderr
    assert "CAT DOGZ" in shown.stdout
    out = tmp_path / "partial.csv"
    exported = runner.invoke(
        kiosk, ["log", "export", "--csv", str(out), "--data-dir", str(data_dir), "--database-url", nobody]
    )
    assert exported.exit_code != 0
    assert "would hold only this station's challenges" in exported.output
    assert not out.exists()


def test_a_newer_database_is_a_clear_error_not_a_traceback(tmp_path: Path) -> None:
    with open_station_storage(tmp_path):
        pass
    with sqlite3.connect(tmp_path / "kiosk.sqlite3") as conn:
        conn.execute("UPDATE kiosk_schema SET version = 999")
    result = CliRunner().invoke(kiosk, ["log", "show", "--data-dir", str(tmp_path)])
    assert result.exit_code == 2
    assert "written by a newer kiosk" in result.output


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2h", T0 - timedelta(hours=2)),
        ("30m", T0 - timedelta(minutes=30)),
        ("1d", T0 - timedelta(days=1)),
        ("2024-04-30", datetime(2024, 4, 30, tzinfo=UTC)),
        ("2024-04-30T10:00+02:00", datetime(2024, 4, 30, 8, 0, tzinfo=UTC)),
    ],
)
def test_since_accepts_durations_and_iso_times(text: str, expected: datetime) -> None:
    assert parse_since(text, T0) == expected


def test_since_refuses_other_text_with_examples() -> None:
    with pytest.raises(click.BadParameter, match="2h, 30m"):
        parse_since("yesterday", T0)


@pytest.fixture
def config_with_data_dir(tmp_path: Path) -> Path:
    """A station configuration naming its own data directory (relative to the file)."""
    config = tmp_path / "event" / "station.toml"
    config.parent.mkdir()
    config.write_text('station_name = "Table 3"\ndata_dir = "station-data"\n', encoding="utf-8")
    return config


@pytest.mark.parametrize(
    "before", [True, False], ids=["kiosk --config X set-pin", "kiosk set-pin --config X"]
)
def test_set_pin_with_a_config_writes_where_the_station_reads(
    config_with_data_dir: Path, tmp_path: Path, before: bool
) -> None:
    elsewhere = tmp_path / "env-data"  # $KIOSK_DATA_DIR comes after the config's data_dir
    args = ["--config", str(config_with_data_dir)]
    argv = [*args, "set-pin", "--stdin"] if before else ["set-pin", "--stdin", *args]
    result = CliRunner().invoke(kiosk, argv, input="579135\n", env={"KIOSK_DATA_DIR": str(elsewhere)})
    assert result.exit_code == 0, result.output
    folder = config_with_data_dir.parent / "station-data"
    assert f"the station database {folder / 'kiosk.sqlite3'}" in result.output
    assert f"data directory from data_dir in {config_with_data_dir}" in result.output
    assert not elsewhere.exists()
    with open_station_storage(folder) as storage:
        assert storage.judge_access.check_pin("579135").accepted


@pytest.mark.parametrize("before", [True, False])
def test_log_show_and_export_with_a_config_read_the_stations_log(
    config_with_data_dir: Path, tmp_path: Path, before: bool
) -> None:
    folder = config_with_data_dir.parent / "station-data"
    with open_station_storage(folder) as storage:
        storage.log.record(make_entry(["QI"], station="Table 3", judged_at=T0))
    config = ["--config", str(config_with_data_dir)]
    env = {"KIOSK_DATA_DIR": str(tmp_path / "env-data")}
    runner = CliRunner()
    shown = runner.invoke(kiosk, [*config, "log", "show"] if before else ["log", "show", *config], env=env)
    assert shown.exit_code == 0, shown.output
    assert "Table 3  Open  ACCEPTABLE  QI" in shown.stdout
    assert f"Read from the station database {folder / 'kiosk.sqlite3'}" in shown.stderr
    out = tmp_path / "log.csv"
    args = ["log", "export", "--csv", str(out)]
    exported = runner.invoke(kiosk, [*config, *args] if before else [*args, *config], env=env)
    assert exported.exit_code == 0, exported.output
    assert f"Wrote 1 challenge from the station database {folder / 'kiosk.sqlite3'}" in exported.output
    assert not (tmp_path / "env-data").exists()


def test_reading_a_folder_where_no_station_logged_is_an_error_not_an_empty_log(tmp_path: Path) -> None:
    wrong = tmp_path / "typo"
    for args in (["log", "show"], ["log", "export", "--csv", str(tmp_path / "x.csv")]):
        result = CliRunner().invoke(kiosk, [*args, "--data-dir", str(wrong)])
        assert result.exit_code == 2
        assert f"there is no station database at {wrong / 'kiosk.sqlite3'}" in result.output
        assert "--config" in result.output
    assert not wrong.exists()


def test_set_pin_random_sets_and_prints_a_six_digit_pin(tmp_path: Path) -> None:
    result = CliRunner().invoke(kiosk, ["set-pin", "--random", "--data-dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    pin = result.output.split("Demo judge PIN: ")[1].strip()
    assert len(pin) == 6
    assert pin.isdigit()
    with open_station_storage(tmp_path) as storage:
        assert storage.judge_access.check_pin(pin).accepted


def test_set_pin_says_how_many_wrong_pins_it_cleared(tmp_path: Path) -> None:
    with open_station_storage(tmp_path) as storage:
        storage.judge_access.set_pin("579135")
        for _ in range(3):
            storage.judge_access.check_pin("000000")
    result = CliRunner().invoke(kiosk, ["set-pin", "--stdin", "--data-dir", str(tmp_path)], input="864297\n")
    assert result.exit_code == 0, result.output
    assert "This cleared 3 wrong PINs in a row" in result.output


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs root to own a folder")
def test_root_does_not_write_into_a_folder_that_belongs_to_the_stations_user(tmp_path: Path) -> None:
    folder = tmp_path / "kiosk-data"
    folder.mkdir()
    os.chown(folder, 65534, 65534)  # nobody: the station's unprivileged user
    result = CliRunner().invoke(kiosk, ["set-pin", "--stdin", "--data-dir", str(folder)], input="579135\n")
    assert result.exit_code == 2
    assert "belongs to the user" in result.output
    assert "runuser -u" in result.output
    assert list(folder.iterdir()) == []


@pytest.mark.parametrize(
    ("argument", "said"),
    [
        ("--since=9999999d", "reaches back before the year 1"),
        ("--since=99999999999999999999999d", "reaches back before the year 1"),
        ("--since=0001-01-01T00:00+01:00", "outside the years 1 to 9999 once in UTC"),
        ("--since=9999-12-31T23:00-05:00", "outside the years 1 to 9999 once in UTC"),
        ("--last=99999999999999999999999", "not in the range 1<=x<=1000000"),
    ],
)
def test_a_period_or_date_out_of_range_is_the_users_mistake_not_the_logs(
    data_dir: Path, argument: str, said: str
) -> None:
    result = CliRunner().invoke(kiosk, ["log", "show", "--data-dir", str(data_dir), argument])
    assert result.exit_code == 2, result.output
    assert said in result.output
    assert "internal error" not in result.output
    assert "cannot read the challenge log" not in result.output


def test_far_but_representable_dates_are_read_as_given(data_dir: Path) -> None:
    runner = CliRunner()
    base = ["log", "show", "--data-dir", str(data_dir)]
    future = runner.invoke(kiosk, [*base, "--since", "9999-12-31T23:59"])
    assert future.exit_code == 0, future.output
    assert "No challenges in the log" in future.output
    past = runner.invoke(kiosk, [*base, "--since", "0001-01-01"])
    assert past.exit_code == 0, past.output
    assert "CAT DOGZ" in past.output


def test_a_log_query_holds_utc_times_or_refuses_them() -> None:
    from kiosk.core.log.challenge import LogQuery

    shifted = datetime(2024, 4, 30, 10, 0, tzinfo=timezone(timedelta(hours=2)))
    assert LogQuery(since=shifted).since == datetime(2024, 4, 30, 8, 0, tzinfo=UTC)
    with pytest.raises(ValueError, match="no UTC time"):
        LogQuery(until=datetime(9999, 12, 31, 23, 0, tzinfo=timezone(timedelta(hours=-5))))
    with pytest.raises(ValueError, match="time zone"):
        LogQuery(since=datetime(2024, 4, 30))
    with pytest.raises(ValueError, match="1 to 1000000"):
        LogQuery(last=0)


def test_reading_the_shared_log_from_a_computer_that_judged_nothing_creates_nothing(
    tmp_path: Path, postgres_url: str
) -> None:
    """The director's laptop: log show and export read the server and leave no station database."""
    with open_station_storage(tmp_path / "station", postgres_url, forward_in_background=False) as storage:
        storage.log.record(make_entry(["QI"], station="Table 4"))
        assert storage.log.forward_backlog() == 1
    laptop = tmp_path / "laptop"
    runner = CliRunner()
    shown = runner.invoke(kiosk, ["log", "show", "--data-dir", str(laptop), "--database-url", postgres_url])
    assert shown.exit_code == 0, shown.output
    assert (
        "Table 4  Open  UNACCEPTABLE  QI" in shown.output or "Table 4  Open  ACCEPTABLE  QI" in shown.output
    )
    out = tmp_path / "all.csv"
    exported = runner.invoke(
        kiosk, ["log", "export", "--csv", str(out), "--data-dir", str(laptop), "--database-url", postgres_url]
    )
    assert exported.exit_code == 0, exported.output
    assert "Wrote 1 challenge" in exported.output
    assert not laptop.exists()  # no stray, empty station database


@pytest.fixture
def installed_station(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """This machine as one with a station installed by docs/install.md (its data directory there),
    and a judge whose own platform data folder is elsewhere."""
    installed = tmp_path / "var-lib-challenge-kiosk"
    installed.mkdir()
    monkeypatch.setattr("kiosk.cli.pin.INSTALLED_DATA_DIR", installed)
    monkeypatch.setattr("kiosk.cli.pin.INSTALLED_CONFIG", tmp_path / "no-config.toml")
    monkeypatch.setattr("kiosk.cli.pin.INSTALLED_PROGRAM", tmp_path / "no-program")
    monkeypatch.delenv("KIOSK_DATA_DIR", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "judge-home"))
    return installed


def test_a_pin_that_no_station_would_read_is_refused_where_a_station_is_installed(
    installed_station: Path, tmp_path: Path
) -> None:
    """Following the README as root on an installed station set the PIN in root's own folder,
    silently: the station (its data in /var/lib/challenge-kiosk) stayed not ready."""
    result = CliRunner().invoke(kiosk, ["set-pin", "--stdin"], input="579135\n")
    assert result.exit_code == 2, result.output
    assert f"so this would set the PIN in {tmp_path / 'judge-home' / 'challenge-kiosk'}" in result.output
    assert f"it keeps its PIN in {installed_station}. For that station: " in result.output
    assert f"set-pin --data-dir {installed_station}; for another" in result.output
    assert not (tmp_path / "judge-home").exists(), "nothing may be written where no station reads"
    named = CliRunner().invoke(
        kiosk, ["set-pin", "--stdin", "--data-dir", str(installed_station)], input="579135\n"
    )
    assert named.exit_code == 0, named.output
    with open_station_storage(installed_station) as storage:
        assert storage.judge_access.check_pin("579135").accepted


def test_a_folder_named_anyhow_or_a_demo_pin_is_not_refused_where_a_station_is_installed(
    installed_station: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    demo = CliRunner().invoke(kiosk, ["set-pin", "--random"])  # ./dev.sh kiosk's demo station
    assert demo.exit_code == 0, demo.output
    monkeypatch.setenv("KIOSK_DATA_DIR", str(tmp_path / "mine"))
    named = CliRunner().invoke(kiosk, ["set-pin", "--stdin"], input="579135\n")
    assert named.exit_code == 0, named.output
    assert (tmp_path / "mine" / "kiosk.sqlite3").is_file()
