"""The ``kiosk`` entry point: the station starts without click; every other command line is click's."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from kiosk.cli import StationArguments, station_arguments


def test_the_command_lines_that_start_the_station(tmp_path: Path) -> None:
    config, folder = tmp_path / "station.toml", tmp_path / "data"
    assert station_arguments([]) == StationArguments()
    assert station_arguments(["station"]) == StationArguments()
    assert station_arguments(["--config", str(config)]) == StationArguments(config_path=config)
    assert station_arguments([f"--config={config}", "station"]) == StationArguments(config_path=config)
    assert station_arguments(
        ["station", "--smoke", "--data-dir", str(folder), "--touch", "--config", str(config)]
    ) == StationArguments(config_path=config, data_dir=folder, touch=True, smoke=True)
    other = tmp_path / "other.toml"  # the station's own --config wins, as in click
    assert station_arguments(["--config", str(other), "station", f"--config={config}"]) == StationArguments(
        config_path=config
    )
    assert station_arguments(["--config", "station", "station"]) == StationArguments(
        config_path=Path("station")
    )


@pytest.mark.parametrize(
    "args",
    [
        ["--help"],
        ["-h"],
        ["--version"],
        ["station", "--help"],
        ["station", "-h"],
        ["check", "CAT"],
        ["log", "show"],
        ["stat"],
        ["station", "extra"],
        ["station", "--touch", "--touch"],
        ["station", "--config", "a.toml", "--config", "b.toml"],
        ["station", "--config"],
        ["station", "--config", "--touch"],
        ["station", "--config="],
        ["station", "--touch=yes"],
        ["--data-dir", "d", "station"],
        ["--touch"],
        ["station", "--", "--touch"],
    ],
)
def test_every_other_command_line_is_left_to_click(args: list[str]) -> None:
    assert station_arguments(args) is None


def test_paths_click_would_refuse_are_left_to_click(tmp_path: Path) -> None:
    a_file = tmp_path / "file"
    a_file.write_text("", encoding="utf-8")
    assert station_arguments(["station", "--config", str(tmp_path)]) is None  # a directory
    assert station_arguments(["station", "--data-dir", str(a_file)]) is None  # a file
    assert station_arguments(["station", "--config", str(a_file), "--data-dir", str(tmp_path)]) is not None


def test_shell_completion_is_left_to_click(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("_KIOSK_COMPLETE", "bash_source")
    assert station_arguments([]) is None


CLICK_ALONE = "import sys; sys.argv[0] = 'kiosk'; from kiosk.command import kiosk; kiosk()"


def run(program: list[str], *args: str, data_dir: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "KIOSK_DATA_DIR": str(data_dir)}
    return subprocess.run([*program, *args], env=env, capture_output=True, text=True, timeout=60, check=False)


def run_kiosk(*args: str, data_dir: Path) -> subprocess.CompletedProcess[str]:
    """The installed ``kiosk`` program: kiosk.cli.main."""
    script = Path(sys.executable).with_name("kiosk")
    if not script.exists():
        pytest.skip("the kiosk console script is not installed next to this Python")
    return run([str(script)], *args, data_dir=data_dir)


def run_click_alone(*args: str, data_dir: Path) -> subprocess.CompletedProcess[str]:
    """The click group by itself, as the ``kiosk`` program was before it started the station itself."""
    return run([sys.executable, "-c", CLICK_ALONE], *args, data_dir=data_dir)


@pytest.mark.parametrize(
    "args",
    [
        ["--help"],
        ["--version"],
        ["station", "--help"],
        ["station", "--bogus"],
        ["station", "--config"],
        ["station", "--touch", "extra"],
    ],
)
def test_the_console_script_answers_as_click_does(args: list[str], tmp_path: Path) -> None:
    real, clicked = run_kiosk(*args, data_dir=tmp_path), run_click_alone(*args, data_dir=tmp_path)
    assert (real.returncode, real.stdout, real.stderr) == (clicked.returncode, clicked.stdout, clicked.stderr)


def test_a_bad_config_stops_the_quick_start_as_it_stops_click(tmp_path: Path) -> None:
    config = tmp_path / "station.toml"
    config.write_text("[rules]\nprofile = 'tripple'\n", encoding="utf-8")
    real = run_kiosk("--config", str(config), data_dir=tmp_path)
    clicked = run_click_alone("--config", str(config), data_dir=tmp_path)
    assert (real.returncode, real.stdout, real.stderr) == (clicked.returncode, clicked.stdout, clicked.stderr)
    assert real.returncode == 2
    assert f"{config} [rules]: 'profile' must be one of" in real.stderr
    directory = run_kiosk("station", "--config", str(tmp_path), data_dir=tmp_path)
    assert directory.returncode == 2
    assert f"File '{tmp_path}' is a directory." in directory.stderr  # click's own message


def test_the_ready_frame_needs_neither_click_nor_judge_mode_nor_cryptography(tmp_path: Path) -> None:
    """What the start-up budget (bench/bench_station.py) depends on: these load only when needed."""
    probe = (
        "import atexit, sys\n"
        "atexit.register(lambda: print(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('click', 'cryptography', 'platformdirs', 'sqlalchemy') or m.startswith('kiosk.ui.judge'))))\n"
        "from kiosk.cli import main\n"
        "main()\n"
    )
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    result = subprocess.run(
        [sys.executable, "-c", probe, "station", "--smoke", "--data-dir", str(tmp_path)],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "ready frame painted" in result.stdout
    assert result.stdout.splitlines()[-1] == "[]"
