"""The one-folder bundle is built for real and its frozen programs are smoke-tested."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT, write_list

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    dist = tmp_path_factory.mktemp("dist")
    env = {**os.environ, "KIOSK_VENV": str(Path(sys.executable).parent.parent)}
    subprocess.run(
        [str(REPO_ROOT / "packaging" / "build.sh"), str(dist)],
        check=True,
        env=env,
        capture_output=True,
        timeout=900,
    )
    return dist / "challenge-kiosk"


def run(program: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("KIOSK_")}
    return subprocess.run(
        [str(program), *args], capture_output=True, text=True, timeout=120, env=env, check=False
    )


def test_frozen_kiosk_rules_on_the_embedded_default_pack(bundle: Path) -> None:
    assert (bundle / "_internal" / "data" / "enable-demo.kxpack").is_file()
    ok = run(bundle / "kiosk", "check", "aardvark", "zymurgy")
    assert (ok.returncode, ok.stdout) == (0, "ACCEPTABLE\n"), ok.stderr
    bad = run(bundle / "kiosk", "check", "aardvark", "zzzz")
    assert (bad.returncode, bad.stdout) == (1, "UNACCEPTABLE\n"), bad.stderr


def test_frozen_station_starts_offscreen_to_its_ready_frame(bundle: Path, tmp_path: Path) -> None:
    env = {"QT_QPA_PLATFORM": "offscreen", "KIOSK_DATA_DIR": str(tmp_path / "data")}
    result = subprocess.run(
        [str(bundle / "kiosk"), "station", "--smoke"],
        capture_output=True, text=True, timeout=120, check=False, env={**os.environ, **env},
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    assert "ready frame painted" in result.stdout


def test_frozen_lexicon_build_builds_and_verifies_a_pack(bundle: Path, tmp_path: Path) -> None:
    source = write_list(tmp_path / "club.txt", ["cat", "dogs", "qi"])
    pack = tmp_path / "club.kxpack"
    built = run(bundle / "lexicon-build", "build", "--name", "Club", "--source", str(source), "-o", str(pack))
    assert built.returncode == 0, built.stderr
    verified = run(bundle / "lexicon-build", "verify", str(pack))
    assert verified.returncode == 0, verified.stderr
    assert run(bundle / "kiosk", "check", "--pack", str(pack), "qi").stdout == "ACCEPTABLE\n"


@pytest.mark.parametrize("unit", ["challenge-kiosk.service", "challenge-kiosk-x11.service"])
def test_kiosk_session_units_pass_systemd_analyze_verify(bundle: Path, tmp_path: Path, unit: str) -> None:
    text = (REPO_ROOT / "packaging" / "linux" / unit).read_text(encoding="utf-8")
    assert "/opt/challenge-kiosk/kiosk station" in text
    assert "Restart=always" in text
    # Point the unit at the bundle just built, as the installation guide has it copied to /opt.
    (tmp_path / unit).write_text(text.replace("/opt/challenge-kiosk", str(bundle)), encoding="utf-8")
    result = subprocess.run(
        ["systemd-analyze", "verify", str(tmp_path / unit)], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr
