"""``kiosk station``: a bad config or pack stops it before any window, naming the file."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from kiosk.command import kiosk
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
        [sys.executable, "-c", "from kiosk.cli import main; main()", "station", "--smoke"],
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
        [sys.executable, "-c", "from kiosk.cli import main; main()", "station", "--kiosk-session", "--smoke",
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
