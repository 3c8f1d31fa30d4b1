"""The one-folder bundle is built for real and its frozen programs are smoke-tested."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT, write_list

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def bundle() -> Iterator[Path]:
    # World-readable, like /opt/challenge-kiosk: the kiosk session runs it as an unprivileged user.
    dist = Path(tempfile.mkdtemp(prefix="kiosk-dist-"))
    dist.chmod(0o755)
    env = {**os.environ, "KIOSK_VENV": str(Path(sys.executable).parent.parent)}
    try:
        subprocess.run(
            [str(REPO_ROOT / "packaging" / "build.sh"), str(dist)],
            check=True,
            env=env,
            capture_output=True,
            timeout=900,
        )
        yield dist / "challenge-kiosk"
    finally:
        shutil.rmtree(dist, ignore_errors=True)


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


def test_frozen_station_starts_under_cage_as_the_kiosk_unit_runs_it(bundle: Path) -> None:
    """The unit's own ExecStart, on wlroots' headless backend, as an unprivileged user."""
    for tool in ("cage", "Xwayland"):
        if shutil.which(tool) is None:
            message = f"{tool} is not installed (./dev.sh test installs it)"
            if os.environ.get("CI"):
                pytest.fail(message)
            pytest.skip(message)
    unit = (REPO_ROOT / "packaging" / "linux" / "challenge-kiosk.service").read_text(encoding="utf-8")
    work = Path(tempfile.mkdtemp(prefix="kiosk-cage-"))
    try:
        work.chmod(0o777)  # the session user writes its data and runtime folders here
        config = work / "station.toml"
        pack = bundle / "_internal" / "data" / "enable-demo.kxpack"
        config.write_text(f'station_name = "Cage"\n[[divisions]]\nname = "Open"\npack = "{pack}"\n')
        exec_start = re.search(r"^ExecStart=(.+)$", unit, re.MULTILINE)
        assert exec_start is not None
        argv = shlex.split(
            exec_start.group(1)
            .replace("/opt/challenge-kiosk", str(bundle))
            .replace("/etc/challenge-kiosk/station.toml", str(config))
        )
        split = argv.index("--")
        out = work / "station.out"
        station = shlex.join([*argv[split + 1 :], "--smoke"])
        command = [*argv[: split + 1], "sh", "-c", f"{station} > {out} 2>&1; echo exit=$? >> {out}"]
        unit_env = dict(re.findall(r"^Environment=(\w+)=(.*)$", unit, re.MULTILINE))
        assert unit_env["QT_QPA_PLATFORM"] == "wayland"
        env = {
            "PATH": os.environ["PATH"],
            **unit_env,
            "KIOSK_DATA_DIR": str(work / "data"),
            "HOME": str(work),
            "XDG_RUNTIME_DIR": str(work / "runtime"),
            "WLR_BACKENDS": "headless",  # no screen here: wlroots draws into memory
            "WLR_LIBINPUT_NO_DEVICES": "1",
            "WLR_RENDERER": "pixman",
        }
        prefix: list[str] = []
        if os.geteuid() == 0:  # cage refuses to run as root, as a kiosk session never does
            prefix = ["runuser", "-u", "nobody", "--"]
        subprocess.run([*prefix, "mkdir", "-m", "700", env["XDG_RUNTIME_DIR"]], check=True)
        subprocess.run([*prefix, "env", "-i", *(f"{k}={v}" for k, v in env.items()), *command],
                       capture_output=True, timeout=120, check=False)  # fmt: skip
        output = out.read_text(encoding="utf-8", errors="replace") if out.exists() else "(no output)"
        assert "ready frame painted" in output, output
        assert output.rstrip().endswith("exit=0"), output
    finally:
        shutil.rmtree(work, ignore_errors=True)
