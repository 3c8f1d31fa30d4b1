"""The one-folder bundle is built for real and its frozen programs are smoke-tested."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT, write_list
from tests.debian import (
    QT_LIBRARY_LOG,
    Installed,
    external_libraries,
    library_problems,
    package_groups,
    plugins_outside_the_sessions,
    session_plugins,
)
from tests.outputs import read_output, report
from tests.xvfb import require

pytestmark = pytest.mark.slow


@pytest.fixture(autouse=True)
def no_display_left_behind() -> Iterator[None]:
    """A cage session these tests stop leaves its Xwayland display's lock in /tmp (written by cage,
    as the session user, ``nobody``); Debian's Xvfb -displayfd later takes that display without a
    lock of its own, and a second X server started then can take it too. After each test, once
    the cage that wrote it has gone (a few seconds at most), such a lock and its socket go."""
    yield
    if os.geteuid() != 0:
        return  # the session user is this user: cage's own exit removes what it made
    deadline = time.monotonic() + 5.0
    for lock in Path("/tmp").glob(".X*-lock"):
        try:
            if lock.stat().st_uid == 0:
                continue  # a root X server's (Xvfb's): not the sessions'
            pid = int(lock.read_text(encoding="ascii").strip(" \n\x00"))  # cage ends it with a NUL
        except (OSError, ValueError):
            continue
        while Path(f"/proc/{pid}").exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        if not Path(f"/proc/{pid}").exists():
            lock.unlink(missing_ok=True)
            Path(f"/tmp/.X11-unix/X{lock.name[2:-5]}").unlink(missing_ok=True)


@pytest.fixture(scope="module")
def bundle() -> Iterator[Path]:
    # World-readable, like /opt/challenge-kiosk: the kiosk session runs it as an unprivileged user.
    dist = Path(tempfile.mkdtemp(prefix="kiosk-dist-"))
    dist.chmod(0o755)
    env = {**os.environ, "KIOSK_VENV": str(Path(sys.executable).parent.parent)}
    try:
        built = subprocess.run(
            [str(REPO_ROOT / "packaging" / "build.sh"), str(dist)],
            check=False,
            env=env,
            capture_output=True,
            timeout=900,
        )
        if built.returncode != 0:
            pytest.fail(
                f"packaging/build.sh exited {built.returncode}"
                + report({"standard output": built.stdout, "standard error": built.stderr})
            )
        yield dist / "challenge-kiosk"
    finally:
        shutil.rmtree(dist, ignore_errors=True)


def run(program: Path, *args: str, env: Mapping[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith("KIOSK_")}
    return subprocess.run(
        [str(program), *args],
        capture_output=True,
        text=True,
        timeout=120,
        env=base if env is None else {**base, **env},
        check=False,
    )


def printed(result: subprocess.CompletedProcess[str]) -> str:
    return report({f"{Path(result.args[0]).name} (exit {result.returncode})": result.stdout + result.stderr})


def test_frozen_kiosk_rules_on_the_embedded_default_pack(bundle: Path) -> None:
    assert (bundle / "_internal" / "data" / "enable-demo.kxpack").is_file()
    ok = run(bundle / "kiosk", "check", "aardvark", "zymurgy")
    assert (ok.returncode, ok.stdout) == (0, "ACCEPTABLE\n"), printed(ok)
    bad = run(bundle / "kiosk", "check", "aardvark", "zzzz")
    assert (bad.returncode, bad.stdout) == (1, "UNACCEPTABLE\n"), printed(bad)


def test_frozen_station_starts_offscreen_to_its_ready_frame(bundle: Path, tmp_path: Path) -> None:
    env = {
        "QT_QPA_PLATFORM": "offscreen",
        "KIOSK_DATA_DIR": str(tmp_path / "data"),
        "QT_LOGGING_RULES": QT_LIBRARY_LOG,
    }
    result = run(bundle / "kiosk", "station", "--smoke", env=env)
    assert result.returncode == 0, printed(result)
    assert "ready frame painted" in result.stdout, printed(result)
    plugins = bundle / "_internal" / "PySide6" / "Qt" / "plugins"
    assert plugins_outside_the_sessions(result.stderr, plugins) == [], printed(result)


def test_the_frozen_station_speaks_french(bundle: Path, tmp_path: Path) -> None:
    """The bundle carries the compiled catalogues: a French station's ready screen asks in French."""
    config = tmp_path / "station.toml"
    config.write_text('language = "fr"\n')
    env = {
        "QT_QPA_PLATFORM": "offscreen",
        "KIOSK_DATA_DIR": str(tmp_path / "data"),
        "QT_LOGGING_RULES": QT_LIBRARY_LOG,
    }
    result = run(bundle / "kiosk", "station", "--config", str(config), "--smoke", env=env)
    assert result.returncode == 0, printed(result)
    assert "CONTESTATAIRE\u00a0: combien de mots contestez-vous\u00a0?" in result.stdout, printed(result)
    locale = REPO_ROOT / "kiosk" / "locale"
    assert sorted(
        p.parent.parent.name for p in (bundle / "_internal" / "kiosk" / "locale").glob("*/*/kiosk.mo")
    ) == sorted(p.parent.parent.name for p in locale.glob("*/LC_MESSAGES/kiosk.po"))  # every language


def test_the_frozen_director_serves_its_page_and_stops_on_ctrl_c(bundle: Path, tmp_path: Path) -> None:
    """uvicorn loads its protocol and loop by name, Jinja2 the templates from the package: the bundle
    must carry them, and the page's style sheet and script."""
    from kiosk.storage import open_station_storage
    from tests.storage.entries import make_entry
    from tests.storage.postgres import free_port

    with open_station_storage(tmp_path / "data") as storage:
        storage.log.record(make_entry(["CAT"], station="Hall 2"))
    port = free_port()
    base = {k: v for k, v in os.environ.items() if not k.startswith("KIOSK_")}
    args = [str(bundle / "kiosk"), "director", "--data-dir", str(tmp_path / "data"), "--port", str(port)]
    with subprocess.Popen(
        args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=base
    ) as served:
        try:
            page = ""
            deadline = time.monotonic() + 120
            while "Hall 2" not in page:
                assert served.poll() is None, served.communicate()[0]
                assert time.monotonic() < deadline, "the frozen director never served its page"
                try:
                    with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as response:
                        page = response.read().decode("utf-8")
                except OSError:
                    time.sleep(0.3)
            assert "Challenge stations" in page
            assert "CAT" not in page
            for name in ("style.css", "app.js"):  # the page's files, read through the frozen package
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/static/{name}", timeout=5) as response:
                    served_file = response.read()
                assert served_file == (REPO_ROOT / "kiosk" / "director" / "static" / name).read_bytes()
        finally:
            served.send_signal(signal.SIGINT)
            output = served.communicate(timeout=60)[0]
    assert served.returncode == 0, output
    assert "The director's view has stopped." in output


def test_the_frozen_station_can_ask_a_desktop_not_to_blank_the_screen(bundle: Path) -> None:
    """inhibit_screensaver needs QtDBus; without it in the bundle it silently did nothing."""
    from kiosk.ui import app

    assert "PySide6.QtDBus" in Path(app.__file__).read_text(encoding="utf-8")
    assert list((bundle / "_internal" / "PySide6").glob("QtDBus.*so")), "the bundle has no PySide6.QtDBus"


def test_frozen_lexicon_build_builds_and_verifies_a_pack(bundle: Path, tmp_path: Path) -> None:
    source = write_list(tmp_path / "club.txt", ["cat", "dogs", "qi"])
    pack = tmp_path / "club.kxpack"
    built = run(bundle / "lexicon-build", "build", "--name", "Club", "--source", str(source), "-o", str(pack))
    assert built.returncode == 0, printed(built)
    verified = run(bundle / "lexicon-build", "verify", str(pack))
    assert verified.returncode == 0, printed(verified)
    assert run(bundle / "kiosk", "check", "--pack", str(pack), "qi").stdout == "ACCEPTABLE\n"


def test_the_frozen_programs_walk_packs_and_refuse_a_forged_one(bundle: Path, tmp_path: Path) -> None:
    """Frozen, sys.executable is the program itself: the walk's child is `kiosk` (or `lexicon-build`)
    started with the internal walk argument. A forged trie behind a fresh digest is refused by the
    station's own start-up check, kiosk check and lexicon-build verify; a good pack is walked once
    and remembered in the data directory."""
    import random

    from kiosk.core.packs.pack import read_pack
    from tests.forge import edit_trie

    source = write_list(tmp_path / "club.txt", ["cat", "dogs", "ma", "mas", "qi", "za"])
    good = tmp_path / "club.kxpack"
    built = run(bundle / "lexicon-build", "build", "--name", "Club", "--source", str(source), "-o", str(good))
    assert built.returncode == 0, printed(built)
    forged = tmp_path / "forged.kxpack"
    forged.write_bytes(edit_trie(good.read_bytes(), random.Random(11)))
    data = tmp_path / "data"
    data.mkdir()
    env = {"KIOSK_DATA_DIR": str(data)}
    pin = subprocess.run(
        [str(bundle / "kiosk"), "set-pin", "--stdin"], input="482613\n", capture_output=True, text=True,
        env={**os.environ, **env}, check=False,
    )  # fmt: skip
    assert pin.returncode == 0, printed(pin)  # a station's check is OK only with a judge PIN
    for pack, code in ((good, 0), (forged, 2)):
        config = tmp_path / f"{pack.stem}.toml"
        config.write_text(f'[[divisions]]\nname = "Open"\npack = "{pack}"\n', encoding="utf-8")
        checked = run(bundle / "kiosk", "station", "--config", str(config), "--check", env=env)
        assert checked.returncode == code, printed(checked)
    assert (data / "verified-packs" / f"{read_pack(good).content_sha256}.json").is_file()
    refused = run(bundle / "kiosk", "station", "--config", str(tmp_path / "forged.toml"), "--check", env=env)
    assert f"{forged} is damaged or forged" in refused.stderr, printed(refused)
    ruled = run(bundle / "kiosk", "check", "--pack", str(forged), "ma", env=env)
    assert (ruled.returncode, ruled.stdout) == (2, ""), printed(ruled)
    verified = run(bundle / "lexicon-build", "verify", str(forged), env=env)
    assert verified.returncode == 1, printed(verified)
    assert str(forged) in verified.stderr, printed(verified)
    fine = run(bundle / "lexicon-build", "verify", str(good), env=env)
    assert fine.returncode == 0, printed(fine)
    assert "every trie walked" in fine.stdout, printed(fine)
    assert "matches no known edition" in fine.stdout, printed(fine)  # the built-in table is in the bundle


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


@dataclass
class CageSession:
    """The cage unit's own ExecStart and environment, on wlroots' headless backend, as an
    unprivileged user, in a world-writable folder (the session user writes its data there)."""

    work: Path
    argv: list[str]  # cage's arguments, then "--", then station-session and the station
    env: dict[str, str]
    prefix: list[str]  # runuser to an unprivileged user, when the tests run as root

    @classmethod
    def of(cls, bundle: Path, work: Path) -> CageSession:
        for tool in ("cage", "Xwayland"):
            if shutil.which(tool) is None:
                message = f"{tool} is not installed (./dev.sh test installs it)"
                if os.environ.get("CI"):
                    pytest.fail(message)
                pytest.skip(message)
        unit = (REPO_ROOT / "packaging" / "linux" / "challenge-kiosk.service").read_text(encoding="utf-8")
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
            "QT_LOGGING_RULES": QT_LIBRARY_LOG,
        }
        prefix: list[str] = []
        if os.geteuid() == 0:  # cage refuses to run as root, as a kiosk session never does
            prefix = ["runuser", "-u", "nobody", "--"]
        subprocess.run([*prefix, "mkdir", "-m", "700", env["XDG_RUNTIME_DIR"]], check=True)
        return cls(work, argv, env, prefix)

    @property
    def station(self) -> list[str]:
        """station-session and the station, as the unit starts them under cage."""
        return self.argv[self.argv.index("--") + 1 :]

    def command(self, argv: list[str], **env: str) -> list[str]:
        """``argv`` as the session user, with the unit's environment (and ``env``) only."""
        return [*self.prefix, "env", "-i", *(f"{k}={v}" for k, v in {**self.env, **env}.items()), *argv]


def test_frozen_station_starts_under_cage_as_the_kiosk_unit_runs_it(bundle: Path) -> None:
    """The unit's own ExecStart and environment, on wlroots' headless backend, as an unprivileged
    user. The station must paint its ready frame, print nothing but that (a Qt warning here is a
    gap in the unit, like the "C" locale was), and load only the plugins SESSION_PLUGINS names."""
    work = Path(tempfile.mkdtemp(prefix="kiosk-cage-"))
    try:
        cage = CageSession.of(bundle, work)
        out = work / "station.out"
        station = shlex.join([*cage.station, "--smoke"])
        cage_argv = cage.argv[: cage.argv.index("--") + 1]
        command = cage.command([*cage_argv, "sh", "-c", f"{station} > {out} 2>&1; echo exit=$? >> {out}"])
        try:
            session = subprocess.run(command, capture_output=True, timeout=120, check=False)
            cage_says = f"cage (exit {session.returncode})", session.stdout + session.stderr
        except subprocess.TimeoutExpired as stopped:
            cage_says = (
                "cage (still running after 120 s: stopped)",
                (stopped.stdout or b"") + (stopped.stderr or b""),
            )
        output = read_output(out)
        printed = report({cage_says[0]: cage_says[1], "the station": output})
        assert "ready frame painted" in output, printed
        assert output.rstrip().endswith("exit=0"), printed
        plugins = bundle / "_internal" / "PySide6" / "Qt" / "plugins"
        assert plugins_outside_the_sessions(output, plugins) == [], printed
        said = [
            line
            for line in output.splitlines()
            if line.strip()
            and not line.startswith("qt.core.library: ")
            and not line.endswith("unloaded library ")  # Qt's log at exit, after its category is gone
            and not line.startswith(("first frame painted", "ready frame painted", "exit="))
        ]
        assert said == [], printed
    finally:
        shutil.rmtree(work, ignore_errors=True)


def test_under_cage_the_frozen_station_tells_systemd_it_is_up_and_answers(bundle: Path) -> None:
    """The whole ExecStart of the cage unit (cage, station-session, the bundle's station in a kiosk
    session), with $NOTIFY_SOCKET and $WATCHDOG_USEC as systemd gives them to cage: they reach the
    station through cage and station-session, the first READY=1 is the station's, with its
    status, and its pings come (NotifyAccess=all lets systemd hear them from cage's child)."""
    work = Path(tempfile.mkdtemp(prefix="kiosk-cage-"))
    receiver = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    session: subprocess.Popen[bytes] | None = None
    try:
        cage = CageSession.of(bundle, work)
        set_pin = [str(bundle / "kiosk"), "set-pin", "--stdin", "--config", str(work / "station.toml")]
        pin = subprocess.run(
            cage.command(set_pin), input=b"579135\n", capture_output=True, timeout=120, check=False
        )
        assert pin.returncode == 0, pin.stderr.decode()
        notify = work / "notify"
        log = work / "cage.log"
        receiver.bind(str(notify))
        notify.chmod(0o777)  # systemd's socket takes any sender; the kernel says which unit it is
        receiver.settimeout(120)
        with log.open("wb") as written:
            session = subprocess.Popen(
                cage.command(cage.argv, NOTIFY_SOCKET=str(notify), WATCHDOG_USEC="2000000"),
                stdout=written, stderr=subprocess.STDOUT, start_new_session=True,
            )  # fmt: skip
        try:
            first = receiver.recv(4096).decode().split("\n")
            started = time.monotonic()
            ping = receiver.recv(4096).decode()  # every second: half of WATCHDOG_USEC
        except TimeoutError:
            pytest.fail(f"nothing came to the notify socket in 120 s; cage said:\n{read_output(log)}")
        assert first == ["READY=1", "STATUS=ready: Open on ENABLE demo (enable1)"], read_output(log)
        assert ping == "WATCHDOG=1", read_output(log)
        assert time.monotonic() - started < 30
    finally:
        receiver.close()
        if session is not None:
            os.killpg(session.pid, signal.SIGTERM)  # cage, runuser, the station: all ours
            try:
                session.communicate(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(session.pid, signal.SIGKILL)
                session.communicate()
        shutil.rmtree(work, ignore_errors=True)


def free_display() -> int:
    """A display number no X server here uses (others' Xvfb run beside the tests)."""
    for number in range(90, 400):
        if not Path(f"/tmp/.X{number}-lock").exists() and not Path(f"/tmp/.X11-unix/X{number}").exists():
            return number
    pytest.fail("no free X display number between 90 and 400")


def test_under_xinit_the_station_alone_says_ready(bundle: Path, tmp_path: Path) -> None:
    """The X11 unit's ExecStart (xinit, station-session, the bundle's station in a kiosk session,
    its X server through packaging/linux/x-server), with Xvfb as the ``X`` on the PATH (Xorg needs a
    console): Debian's X server says READY=1 by itself once it accepts clients (shown here with
    the same Xvfb, started bare), so through x-server it must not, and the first READY=1 is the
    station's, with its status."""
    require("xinit", "Xvfb")
    unit = (REPO_ROOT / "packaging" / "linux" / "challenge-kiosk-x11.service").read_text(encoding="utf-8")
    exec_start = re.search(r"^ExecStart=(.+)$", unit, re.MULTILINE)
    assert exec_start is not None
    config = tmp_path / "station.toml"
    pack = bundle / "_internal" / "data" / "enable-demo.kxpack"
    config.write_text(f'station_name = "X11"\n[[divisions]]\nname = "Open"\npack = "{pack}"\n')
    argv = shlex.split(
        exec_start.group(1)
        .replace("/opt/challenge-kiosk", str(bundle))
        .replace("/etc/challenge-kiosk/station.toml", str(config))
    )
    server = argv.index("--") + 1
    assert argv[server] == f"{bundle}/packaging/linux/x-server", argv
    path = tmp_path / "bin"
    path.mkdir()
    (path / "X").symlink_to(shutil.which("Xvfb") or "Xvfb")  # what the X server's "X" finds
    unit_env = dict(re.findall(r"^Environment=(\w+)=(.*)$", unit, re.MULTILINE))
    notify = Path(tempfile.mkdtemp(prefix="kn-")) / "notify"  # AF_UNIX paths: at most 108 bytes
    receiver = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    receiver.bind(str(notify))
    receiver.settimeout(60)
    env = {
        "PATH": f"{path}:{os.environ['PATH']}",
        **unit_env,
        "KIOSK_DATA_DIR": str(tmp_path / "data"),
        "HOME": str(tmp_path),
        "NOTIFY_SOCKET": str(notify),
        "WATCHDOG_USEC": "2000000",
        "QT_LOGGING_RULES": QT_LIBRARY_LOG,
    }
    pin = subprocess.run(
        [str(bundle / "kiosk"), "set-pin", "--stdin", "--config", str(config)],
        input="579135\n", env=env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert pin.returncode == 0, printed(pin)
    sessions: list[subprocess.Popen[bytes]] = []
    log = tmp_path / "xinit.log"
    try:
        bare = subprocess.Popen(  # the X server alone, as xinit would start it without x-server
            [str(path / "X"), f":{free_display()}", "-nolisten", "tcp"], env=env,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
        )  # fmt: skip
        sessions.append(bare)
        assert receiver.recv(4096) == b"READY=1"  # Debian's X server speaks for itself
        os.killpg(bare.pid, signal.SIGTERM)
        bare.wait(30)
        display = f":{free_display()}"
        with log.open("wb") as written:
            xinit = subprocess.Popen(
                [*argv[: server + 1], display, "-nolisten", "tcp", "-screen", "0", "1024x768x24"],
                env=env, stdout=written, stderr=subprocess.STDOUT, start_new_session=True,
            )  # fmt: skip
        sessions.append(xinit)
        try:
            first = receiver.recv(4096).decode().split("\n")
            ping = receiver.recv(4096).decode()
        except TimeoutError:
            pytest.fail(f"nothing came to the notify socket in 60 s; xinit said:\n{read_output(log)}")
        assert first == ["READY=1", "STATUS=ready: Open on ENABLE demo (enable1)"], read_output(log)
        assert ping == "WATCHDOG=1", read_output(log)
    finally:
        receiver.close()
        for session in sessions:
            if session.poll() is None:
                os.killpg(session.pid, signal.SIGTERM)  # xinit, its X server, the station: ours
                try:
                    session.wait(30)
                except subprocess.TimeoutExpired:
                    os.killpg(session.pid, signal.SIGKILL)
                    session.wait()
        shutil.rmtree(notify.parent, ignore_errors=True)


# --- what a station needs from Debian, worked out from the bundle (tests/debian.py) -------------


def bundle_roots(bundle: Path) -> list[Path]:
    """What the frozen programs load: themselves, libpython, every extension module, the plugins."""
    internal = bundle / "_internal"
    modules = [
        path
        for path in internal.rglob("*.so*")
        if ".cpython-" in path.name or ".abi3." in path.name or path.name.startswith("libpython")
    ]
    plugins = session_plugins(internal / "PySide6" / "Qt" / "plugins")
    return [bundle / "kiosk", bundle / "lexicon-build", *modules, *plugins]


def bundle_library_problems(bundle: Path, listed: list[str]) -> list[str]:
    # The PyInstaller bootloader runs the programs with LD_LIBRARY_PATH set to _internal.
    libraries = external_libraries(bundle_roots(bundle), [bundle / "_internal"])
    assert "libc.so.6" in libraries, "the check must see what the bundle leaves to the system"
    return library_problems(libraries, listed, Installed.read())


def test_the_bundle_needs_no_library_that_the_package_list_does_not_provide(bundle: Path) -> None:
    groups = package_groups()
    assert bundle_library_problems(bundle, [*groups["station"]]) == []


def test_the_library_check_names_the_library_a_package_left_off_the_list_would_lack(bundle: Path) -> None:
    without = [package for package in package_groups()["station"] if package != "libwayland-cursor0"]
    problems = bundle_library_problems(bundle, without)
    assert len(problems) == 1, problems
    assert problems[0].startswith("libwayland-cursor.so.0 (needed by "), problems
    assert "libqwayland.so" in problems[0] or "more" in problems[0], problems


def test_every_unit_documentation_target_is_in_the_bundle(bundle: Path) -> None:
    for unit in sorted((REPO_ROOT / "packaging" / "linux").glob("*.service")):
        text = unit.read_text(encoding="utf-8")
        targets = [
            uri for line in re.findall(r"^Documentation=(.+)$", text, re.MULTILINE) for uri in line.split()
        ]
        assert targets, f"{unit.name} names no Documentation="
        for uri in targets:
            assert uri.startswith("file:///opt/challenge-kiosk/"), f"{unit.name}: {uri} is not in the bundle"
            target = bundle / uri.removeprefix("file:///opt/challenge-kiosk/")
            assert target.is_file(), f"{unit.name}: Documentation={uri}, but the bundle has no {target}"


def test_the_bundled_guides_links_lead_to_files_in_the_bundle(bundle: Path) -> None:
    guides = sorted((bundle / "docs").glob("*.md"))
    assert {path.name for path in guides} >= {"install.md", "station.md", "judges.md", "organisers.md"}
    broken = []
    for guide in guides:
        for target in re.findall(r"\]\(([^)#\s]+)", guide.read_text(encoding="utf-8")):
            if "://" not in target and not (guide.parent / target).exists():
                broken.append(f"{guide.name}: {target}")
    assert broken == []


def test_the_frozen_kiosk_says_where_its_guides_are(bundle: Path) -> None:
    result = run(bundle / "kiosk", "--help")
    assert result.returncode == 0, printed(result)
    named = re.search(r"Guides: (\S+install\.md)", result.stdout.replace("\n", " "))
    assert named is not None, printed(result)
    assert Path(named.group(1)) == (bundle / "docs" / "install.md").resolve(), printed(result)


def test_the_frozen_station_config_check_needs_no_screen(bundle: Path, tmp_path: Path) -> None:
    """install.md's way to check a configuration, on a machine with no display at all: it works,
    and --smoke there says what to run instead; every command it advises works as written."""
    config = tmp_path / "station.toml"
    pack = bundle / "_internal" / "data" / "enable-demo.kxpack"
    config.write_text(f'station_name = "Hall"\n[[divisions]]\nname = "Open"\npack = "{pack}"\n')
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    env["KIOSK_DATA_DIR"] = str(tmp_path / "data")
    kiosk = str(bundle / "kiosk")

    def go(*command: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(command, capture_output=True, text=True, env=env, timeout=120, check=False)

    pin = subprocess.run(
        [kiosk, "set-pin", "--stdin"], input="482613\n", capture_output=True, text=True, env=env, check=False
    )
    assert pin.returncode == 0, printed(pin)
    checked = go(kiosk, "station", "--config", str(config), "--check")
    assert checked.returncode == 0, printed(checked)
    assert "Division 'Open'" in checked.stdout, printed(checked)
    assert checked.stdout.rstrip().splitlines()[-1].startswith("OK: "), printed(checked)
    smoke = go(kiosk, "station", "--config", str(config), "--smoke")
    assert smoke.returncode == 2, printed(smoke)
    advice = [line.strip() for line in smoke.stderr.splitlines() if line.startswith("  ")]
    assert len(advice) == 2, printed(smoke)
    for command in advice:
        followed = go("bash", "-c", command)
        assert followed.returncode == 0, f"advice `{command}` failed" + printed(followed)


def test_the_frozen_station_names_the_library_its_screen_plugin_lacks(bundle: Path, tmp_path: Path) -> None:
    """On a station without libwayland-cursor0 the cage unit restarted a black screen every 2 s,
    and the journal said only "Reinstalling the application may fix this problem"."""
    hidden = tmp_path / "hidden-libraries"
    hidden.mkdir()
    (hidden / "libwayland-cursor.so.0").write_bytes(b"")  # the loader stops here, as if it were missing
    env = {
        "QT_QPA_PLATFORM": "wayland",
        "LD_LIBRARY_PATH": str(hidden),
        "KIOSK_DATA_DIR": str(tmp_path / "data"),
    }
    result = run(bundle / "kiosk", "station", "--smoke", env=env)
    assert result.returncode != 0, printed(result)
    said = [line for line in result.stderr.splitlines() if line.startswith("error: ")]
    assert len(said) == 1, printed(result)
    assert "Qt's wayland plugin cannot load" in said[0], printed(result)
    assert "libwayland-cursor.so.0" in said[0], printed(result)
    assert f"install the packages of {bundle.resolve() / 'docs' / 'install.md'} (section 3)" in said[0], (
        printed(result)
    )


@pytest.mark.skipif(os.geteuid() != 0, reason="root's refusal, and runuser, need root")
def test_root_is_told_how_to_set_the_pin_as_the_stations_user_and_that_works(bundle: Path) -> None:
    """On an installed station the data directory is the kiosk user's, and root may not write
    there. The command set-pin then advises, pasted as printed into root's shell (whose PATH has no
    kiosk, in a folder that user may not enter), sets the PIN where the station looks."""
    work = Path(tempfile.mkdtemp(prefix="kiosk-root-"))  # like /etc and /var/lib: the user reaches it
    try:
        work.chmod(0o755)
        data = work / "var-lib"
        data.mkdir()
        os.chown(data, 65534, 65534)  # nobody: the station's unprivileged user
        config = work / "station.toml"
        config.write_text('station_name = "Hall"\n')
        config.chmod(0o644)
        env = {"KIOSK_DATA_DIR": str(data)}
        refused = run(bundle / "kiosk", "set-pin", "--config", str(config), "--stdin", env=env)
        assert refused.returncode == 2, printed(refused)
        assert list(data.iterdir()) == [], "root wrote into the station's folder"
        command = refused.stderr.strip().rsplit(": ", 1)[1]
        kiosk = (bundle / "kiosk").resolve()
        assert command.startswith(f"runuser -u nobody -- {kiosk} set-pin "), printed(refused)
        home = work / "root-home"
        home.mkdir(mode=0o700)
        base = {k: v for k, v in os.environ.items() if not k.startswith("KIOSK_")}
        followed = subprocess.run(
            ["bash", "-c", command], input="482613\n", capture_output=True, text=True, cwd=home,
            env={**base, "PATH": "/usr/sbin:/usr/bin:/sbin:/bin"}, timeout=120, check=False,
        )  # fmt: skip
        assert followed.returncode == 0, printed(followed)
        assert (data / "kiosk.sqlite3").stat().st_uid == 65534
        checked = subprocess.run(
            ["runuser", "-u", "nobody", "--", str(kiosk), "station", "--config", str(config), "--check"],
            capture_output=True, text=True, env={**base, **env}, timeout=120, check=False,
        )  # fmt: skip
        assert checked.returncode == 0, printed(checked)
        assert checked.stdout.rstrip().splitlines()[-1].startswith("OK: "), printed(checked)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def test_the_wheel_carries_the_directors_templates_and_static_files(tmp_path: Path) -> None:
    """pip's own build of the project (as `pip install challenge-kiosk` makes it): every template and
    static file of the director's page is in the wheel, or the page of an installed kiosk is blank."""
    source = tmp_path / "source"  # the files a clean clone has: no build folder or egg-info to help
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
        cwd=REPO_ROOT,
        capture_output=True,
        check=True,
    ).stdout.decode()
    for name in filter(None, listed.split("\0")):
        if (REPO_ROOT / name).is_file():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO_ROOT / name, source / name)
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(tmp_path), str(source)],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert built.returncode == 0, built.stdout + built.stderr
    [wheel] = tmp_path.glob("challenge_kiosk-*.whl")
    import zipfile

    with zipfile.ZipFile(wheel) as archive:
        carried = {name for name in archive.namelist() if name.startswith("kiosk/director/")}
    director = REPO_ROOT / "kiosk" / "director"
    wanted = {
        path.relative_to(REPO_ROOT).as_posix()
        for folder in ("templates", "static")
        for path in (director / folder).iterdir()
    }
    assert len(wanted) >= 4
    assert wanted <= carried, sorted(wanted - carried)
