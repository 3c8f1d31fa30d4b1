"""``kiosk station``: a bad config or pack stops it before any window, naming the file."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import IO

import pytest
from click.testing import CliRunner

from kiosk.cli import kiosk
from tests.conftest import PackFactory


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(kiosk, list(args))
    return result.exit_code, result.output


def test_a_missing_pack_stops_the_station_naming_the_file(tmp_path: Path) -> None:
    config = tmp_path / "station.toml"
    config.write_text('[[divisions]]\nname = "Open"\npack = "missing.kxpack"\n', encoding="utf-8")
    code, output = run("station", "--config", str(config))
    assert code == 2
    assert str(tmp_path / "missing.kxpack") in output
    assert "does not exist" in output


def test_a_damaged_pack_stops_the_station(tmp_path: Path, make_pack: PackFactory) -> None:
    pack = make_pack(["CAT", "DOG"])
    data = bytearray(pack.read_bytes())
    data[40] ^= 0xFF
    pack.write_bytes(bytes(data))
    config = tmp_path / "station.toml"
    config.write_text(f'[[divisions]]\nname = "Open"\npack = "{pack}"\n', encoding="utf-8")
    code, output = run("--config", str(config))  # no subcommand: the station
    assert code == 2
    assert str(pack) in output
    assert "damaged" in output


def test_a_bad_config_stops_the_station(tmp_path: Path) -> None:
    config = tmp_path / "station.toml"
    config.write_text("[rules]\nprofile = 'tripple'\n", encoding="utf-8")
    for args in (["station", "--config", str(config)], ["--config", str(config), "station"]):
        code, output = run(*args)
        assert code == 2
        assert f"{config} [rules]: 'profile' must be one of" in output


@pytest.mark.parametrize("before", [True, False])
def test_config_is_the_same_given_before_or_after_any_command(tmp_path: Path, before: bool) -> None:
    """``kiosk --config FILE set-pin`` and ``kiosk set-pin --config FILE`` find the same data directory
    (the config's data_dir), as do ``log show`` and ``director --once``: one way to reach --config."""
    data = tmp_path / "configured data"
    config = tmp_path / "station.toml"
    config.write_text(f"data_dir = '{data}'\n", encoding="utf-8")

    def invoke(*args: str, stdin: str | None = None) -> tuple[int, str]:
        given = ["--config", str(config)]
        argv = [*given, *args] if before else [*args[:2], *given, *args[2:]]
        result = CliRunner().invoke(kiosk, argv, input=stdin)
        return result.exit_code, result.output

    code, output = invoke("set-pin", "--stdin", stdin="482615\n")
    assert code == 0, output
    assert any(data.iterdir())  # the storage was made in the config's data_dir
    code, output = invoke("log", "show")
    assert code == 0, output
    assert "there is no station database" not in output
    code, output = invoke("director", "--once")
    assert code == 0, output


def test_youth_rules_need_a_youth_list(tmp_path: Path, make_pack: PackFactory) -> None:
    pack = make_pack(["CAT", "DOG"])
    config = tmp_path / "station.toml"
    config.write_text(
        f'[[divisions]]\nname = "Kids"\npack = "{pack}"\nyouth_rules = true\n', encoding="utf-8"
    )
    code, output = run("station", "--config", str(config))
    assert code == 2
    assert "division 'Kids' applies youth rules" in output


def test_smoke_starts_the_station_and_exits_after_the_first_frame(tmp_path: Path) -> None:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    result = subprocess.run(
        [sys.executable, "-c", "from kiosk.entry import run; run()", "station", "--smoke"],
        env={**env, "KIOSK_DATA_DIR": str(tmp_path / "data")},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "ready frame painted" in result.stdout
    assert (tmp_path / "data").is_dir()


def test_in_a_kiosk_session_the_reason_stays_on_screen(tmp_path: Path) -> None:
    config = tmp_path / "station.toml"
    config.write_text('[[divisions]]\nname = "Open"\npack = "missing.kxpack"\n', encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-c", "from kiosk.entry import run; run()", "station", "--kiosk-session", "--smoke",
         "--config", str(config)],
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen", "KIOSK_DATA_DIR": str(tmp_path / "data")},
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert result.returncode == 2
    assert "not-ready frame painted" in result.stdout
    assert f"{tmp_path / 'missing.kxpack'} does not exist" in result.stderr
    assert "ready frame painted" not in result.stdout.replace("not-ready frame painted", "")


def test_a_pack_error_names_the_config_file_and_the_division(tmp_path: Path) -> None:
    config = tmp_path / "station.toml"
    config.write_text('[[divisions]]\nname = "Schools"\npack = "gone.kxpack"\n', encoding="utf-8")
    code, output = run("station", "--config", str(config))
    assert code == 2
    assert f"{config}: division 'Schools', pack: {tmp_path / 'gone.kxpack'} does not exist" in output


STATION = [sys.executable, "-c", "from kiosk.entry import run; run()", "station"]


def station_env(tmp_path: Path) -> dict[str, str]:
    return {**os.environ, "QT_QPA_PLATFORM": "offscreen", "KIOSK_DATA_DIR": str(tmp_path / "env-data")}


def config_file(tmp_path: Path, data_dir: str = "station-data") -> Path:
    config = tmp_path / "event" / "station.toml"
    config.parent.mkdir(exist_ok=True)
    config.write_text(f'station_name = "Table 3"\ndata_dir = "{data_dir}"\n', encoding="utf-8")
    return config


def next_station_line(stream: IO[str]) -> str:
    """The station's next line of its own on standard error (Qt's plugins print theirs too)."""
    for line in stream:
        if line.startswith("station "):
            return line
    return ""


def test_without_a_judge_pin_the_station_serves_nobody_and_names_the_command(tmp_path: Path) -> None:
    """Outside a kiosk session the terminal is right there: exit 2 with the exact command."""
    config = config_file(tmp_path)
    result = subprocess.run(
        [*STATION, "--config", str(config)],
        env=station_env(tmp_path), capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert result.returncode == 2, result.stderr
    assert (
        f"no judge PIN is set for the station database {config.parent / 'station-data' / 'kiosk.sqlite3'}"
        in (result.stderr)
    )
    assert f"kiosk set-pin --config {config}" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_kiosk_session_without_a_pin_waits_on_screen_and_serves_once_the_judge_sets_it(
    tmp_path: Path,
) -> None:
    """The notice names the command; typed at the terminal as shown, it makes the station ready."""
    config = config_file(tmp_path)
    env = station_env(tmp_path)
    station = subprocess.Popen(
        [*STATION, "--kiosk-session", "--config", str(config)],
        env=env, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True,
    )  # fmt: skip
    watchdog = threading.Timer(60, station.kill)  # a station that never says a word fails, not hangs
    watchdog.start()
    try:
        assert station.stderr is not None
        line = next_station_line(station.stderr)
        assert line.startswith("station not ready: no judge PIN is set"), line
        command = line.split("as the user ", 1)[1].split("with: ", 1)[1].strip()
        assert command == f"kiosk set-pin --config {config}"
        kiosk = str(Path(sys.executable).with_name("kiosk"))
        set_pin = subprocess.run(
            [kiosk, *command.split()[1:], "--stdin"],
            input="579135\n", env=env, capture_output=True, text=True, timeout=60, check=False,
        )  # fmt: skip
        assert set_pin.returncode == 0, set_pin.stderr
        assert next_station_line(station.stderr).strip() == "station ready: serving players"
        assert station.poll() is None
    finally:
        watchdog.cancel()
        station.terminate()
        station.communicate(timeout=30)


def test_a_second_station_is_refused_even_after_the_lock_file_is_deleted(tmp_path: Path) -> None:
    """One station per data directory, held by the OS: no file in the folder whose deletion lets a
    second station write the same log beside the first."""
    config = config_file(tmp_path)
    env = station_env(tmp_path)
    first = subprocess.Popen(
        [*STATION, "--kiosk-session", "--config", str(config)],
        env=env, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True,
    )  # fmt: skip
    watchdog = threading.Timer(60, first.kill)
    watchdog.start()
    try:
        assert first.stderr is not None
        assert next_station_line(first.stderr).startswith("station not ready: no judge PIN is set")
        data = config.parent / "station-data"
        for stale in data.glob("*.lock"):
            stale.unlink()  # what an organiser tidying the folder does
        second = subprocess.run(
            [*STATION, "--config", str(config)],
            env=env, capture_output=True, text=True, timeout=60, check=False,
        )  # fmt: skip
        assert second.returncode == 2
        assert f"another station is already running with the data directory {data}" in second.stderr
        assert first.poll() is None
    finally:
        watchdog.cancel()
        first.terminate()
        first.communicate(timeout=30)
    alone = subprocess.run(  # the lock goes with the first station's process
        [*STATION, "--config", str(config)], env=env, capture_output=True, text=True, timeout=60, check=False
    )
    assert "another station is already running" not in alone.stderr
    assert "no judge PIN is set" in alone.stderr


def test_a_data_dir_that_is_a_file_is_named_and_shown_in_a_kiosk_session(tmp_path: Path) -> None:
    config = config_file(tmp_path, data_dir="station-data")
    (config.parent / "station-data").write_text("", encoding="utf-8")
    plain = subprocess.run(
        [*STATION, "--config", str(config)],
        env=station_env(tmp_path), capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert plain.returncode == 2
    assert "station-data is a file, not a directory" in plain.stderr
    session = subprocess.run(
        [*STATION, "--kiosk-session", "--smoke", "--config", str(config)],
        env=station_env(tmp_path), capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert session.returncode == 2
    assert "not-ready frame painted" in session.stdout
    assert "station-data is a file, not a directory" in session.stderr


@pytest.mark.parametrize("below", ["", "sub"], ids=["the folder", "a folder in it"])
def test_set_pin_on_a_read_only_disk_says_it_as_the_station_check_does(tmp_path: Path, below: str) -> None:
    """One wording for a data directory that cannot be used: set-pin said a raw [Errno 30] (or
    SQLite's "unable to open database file") where ``station --check`` names the folder and why."""
    from tests.test_paths import in_private_tmpfs

    mounted = tmp_path / "read-only"
    folder = mounted / below if below else mounted
    kiosk = [sys.executable, "-c", "from kiosk.entry import run; run()"]
    said = {}
    for command in (["set-pin", "--random"], ["station", "--check"]):
        result = in_private_tmpfs(mounted, "ro,size=1m", False, *kiosk, *command, "--data-dir", str(folder))
        assert result.returncode == 2, result.stderr
        said[command[0]] = result.stderr.strip().splitlines()[-1]
    verb = "created" if below else "written"
    assert said["set-pin"] == (
        f"error: the station's data directory {folder} cannot be {verb}: it is on a read-only file "
        "system; give the station a folder on a writable disk (this folder comes from --data-dir)"
    )
    assert said["set-pin"] == said["station"]
    assert "Errno" not in said["set-pin"]


def test_a_read_only_data_dir_gets_its_own_reason_and_the_not_ready_screen(tmp_path: Path) -> None:
    from tests.test_paths import in_private_tmpfs

    folder = tmp_path / "read-only"
    command = [*STATION, "--kiosk-session", "--smoke", "--data-dir", str(folder)]
    result = in_private_tmpfs(folder, "ro,size=1m", False, "env", "QT_QPA_PLATFORM=offscreen", *command)
    assert result.returncode == 2, result.stderr
    assert "not-ready frame painted" in result.stdout
    assert f"the station's data directory {folder} cannot be written: it is on a read-only file system" in (
        result.stderr
    )
    assert "another station" not in result.stderr


def test_the_check_says_whether_a_station_that_speaks_can_speak(
    tmp_path: Path, make_pack: PackFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``[access] speech = true`` on a machine without espeak-ng starts a silent station (it only
    warns in its journal): the check before the event says so, and does not say OK."""
    pack = make_pack(["CAT", "DOG"])
    config = tmp_path / "station.toml"
    config.write_text(
        f'data_dir = "{tmp_path / "data"}"\n[[divisions]]\nname = "Open"\npack = "{pack}"\n'
        "[access]\nspeech = true\n",
        encoding="utf-8",
    )
    assert run("set-pin", "--config", str(config), "--random")[0] == 0
    code, output = run("station", "--config", str(config), "--check")
    assert code == 0, output
    assert "Speech: on, said by espeak-ng (" in output
    monkeypatch.setenv("PATH", str(tmp_path / "no-programs"))  # a machine without espeak-ng
    code, output = run("station", "--config", str(config), "--check")
    assert code == 2
    assert "[access] speech is on, but espeak-ng is not installed" in output
    assert "OK:" not in output
