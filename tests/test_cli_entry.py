"""The installed ``kiosk`` program: the click group under the guard, and what the ready frame needs."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest


def run_kiosk(*args: str, data_dir: Path) -> subprocess.CompletedProcess[str]:
    """The installed ``kiosk`` program: kiosk.entry.run."""
    script = Path(sys.executable).with_name("kiosk")
    if not script.exists():
        pytest.skip("the kiosk console script is not installed next to this Python")
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "KIOSK_DATA_DIR": str(data_dir)}
    return subprocess.run(
        [str(script), *args], env=env, capture_output=True, text=True, timeout=60, check=False
    )


def test_a_bad_config_stops_the_station_with_the_file_and_the_key(tmp_path: Path) -> None:
    config = tmp_path / "station.toml"
    config.write_text("[rules]\nprofile = 'tripple'\n", encoding="utf-8")
    real = run_kiosk("--config", str(config), data_dir=tmp_path)
    assert real.returncode == 2
    assert f"{config} [rules]: 'profile' must be one of" in real.stderr
    directory = run_kiosk("station", "--config", str(tmp_path), data_dir=tmp_path)
    assert directory.returncode == 2
    assert f"File '{tmp_path}' is a directory." in directory.stderr  # click's own message


# Loaded only by what needs them: the other commands' modules (and the core's rooms only they
# reach: the PIN's hashing, the batch reader), and the loader's probe of a failed screen plugin.
NOT_FOR_THE_READY_FRAME = (
    "ctypes",
    "kiosk.cli.check",
    "kiosk.cli.director",
    "kiosk.cli.log",
    "kiosk.cli.pin",
    "kiosk.cli.shared_log",
    "kiosk.core.play.batch",
    "kiosk.core.station.pin",
)


def test_the_ready_frame_needs_neither_judge_mode_nor_cryptography_nor_sqlalchemy(tmp_path: Path) -> None:
    """What the start-up budget (bench/bench_station.py) depends on: these load only when needed."""
    probe = (
        "import atexit, sys\n"
        "atexit.register(lambda: print(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('cryptography', 'platformdirs', 'sqlalchemy') or m.startswith('kiosk.ui.judge') "
        f"or m in {NOT_FOR_THE_READY_FRAME!r})))\n"
        "from kiosk.entry import run\n"
        "run()\n"
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


def test_the_bundle_carries_every_command_module() -> None:
    """The kiosk program imports a command's module by name when it runs (kiosk.cli.COMMANDS), so
    PyInstaller cannot find them by itself: the spec names each one."""
    from kiosk.cli import COMMANDS

    spec = (Path(__file__).parent.parent / "packaging" / "challenge-kiosk.spec").read_text(encoding="utf-8")
    missing = [module for module, _ in COMMANDS.values() if f'"kiosk.cli.{module}"' not in spec]
    assert missing == []
