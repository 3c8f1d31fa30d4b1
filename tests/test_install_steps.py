"""docs/install.md's steps for a Linux station and the files they install hold to one another.

A unit that names a user the steps never make, a seat the steps never install, or a data
directory other than the one the steps give the PIN, fails only on a real machine at boot (the
suite runs cage headless, which needs no seat). So the steps are read as a reader types them (the
``sh`` blocks of the guide) and held to the units: the user, the groups the unit's seat needs, the
packages, the program, the configuration and the data directory.
"""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

from kiosk.storage.database import SQLITE_BUSY_TIMEOUT_MS
from tests.conftest import REPO_ROOT
from tests.debian import package_groups, unit_groups

INSTALL = REPO_ROOT / "docs" / "install.md"
LINUX = REPO_ROOT / "packaging" / "linux"
UNITS = sorted(LINUX.glob("*.service"))
TMPFILES = LINUX / "challenge-kiosk.conf"

# What a seat manager needs on the machine for a unit's user to get the screen and the keyboard:
# Debian packages, and groups of that user. logind: pam_systemd (libpam-systemd) makes the unit's
# PAM login a logind session, and logind passes that session its devices (the X server's way; cage
# would need polkit too, docs/install.md); seatd: Debian's seatd.service runs `seatd -g video`, so
# only group video may open its socket.
SEATS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    "logind": (frozenset({"libpam-systemd"}), frozenset()),
    "seatd": (frozenset({"seatd"}), frozenset({"video"})),
}


@dataclass(frozen=True)
class Unit:
    path: Path
    text: str

    def setting(self, key: str) -> str:
        found = re.findall(rf"^{key}=(.*)$", self.text, re.MULTILINE)
        assert len(found) == 1, f"{self.path.name}: expected one {key}=, found {found}"
        return str(found[0])

    @property
    def environment(self) -> dict[str, str]:
        return dict(re.findall(r"^Environment=(\w+)=(.*)$", self.text, re.MULTILINE))

    @property
    def command(self) -> list[str]:
        return shlex.split(self.setting("ExecStart"))

    @property
    def station(self) -> list[str]:
        """The station's own command line (after xinit's or cage's)."""
        argv = self.command
        start = next(i for i, word in enumerate(argv) if word.endswith("/kiosk"))
        end = argv.index("--", start) if "--" in argv[start:] else len(argv)
        return argv[start:end]

    @property
    def seat(self) -> str:
        """Where the unit's compositor or X server gets the screen and the keyboard from."""
        program = Path(self.command[0]).name
        if program == "cage":  # libseat: the backend the unit names (else the first that answers)
            backend = self.environment.get("LIBSEAT_BACKEND")
            assert backend in SEATS, f"{self.path.name}: cage's seat manager is left to chance ({backend})"
            return backend
        assert program == "xinit", self.path.name
        return "logind"  # Debian's X server as a user: logind's devices (else root, which no unit gives it)


def shell_lines(text: str) -> list[str]:
    """The commands of the page's ``sh`` blocks, continuation lines joined, in page order."""
    lines: list[str] = []
    for block in re.findall(r"```sh\n(.*?)\n```", text, re.DOTALL):
        lines += [line.strip() for line in block.replace("\\\n", " ").splitlines() if line.strip()]
    return lines


def option(words: list[str], *names: str) -> str | None:
    for index, word in enumerate(words):
        if word in names and index + 1 < len(words):
            return words[index + 1]
    return None


@dataclass(frozen=True)
class Steps:
    lines: list[str]

    @classmethod
    def read(cls, text: str | None = None) -> Steps:
        return cls(shell_lines(INSTALL.read_text(encoding="utf-8") if text is None else text))

    def user(self) -> tuple[str, frozenset[str]]:
        """The user the steps make, and the groups they give it (useradd -G, usermod -aG)."""
        made = [shlex.split(line, comments=True) for line in self.lines if line.startswith("useradd ")]
        assert len(made) == 1, f"install.md makes {len(made)} users: {made}"
        name = made[0][-1]
        groups = set((option(made[0], "-G", "--groups") or "").split(",")) - {""}
        for line in self.lines:
            words = shlex.split(line, comments=True)
            if words[:1] == ["usermod"] and words[-1] == name:
                groups |= set((option(words, "-G", "-aG", "--groups") or "").split(",")) - {""}
        return name, frozenset(groups)

    def packages_for(self, unit: Unit) -> list[str]:
        """The packages of the last ``apt-get install`` before the unit is copied into place."""
        copy = f"/opt/challenge-kiosk/packaging/linux/{unit.path.name} /etc/systemd/system/"
        at = next((i for i, line in enumerate(self.lines) if copy in line), None)
        assert at is not None, f"install.md never copies {unit.path.name} into /etc/systemd/system"
        installs = [line for line in self.lines[:at] if line.startswith("apt-get install ")]
        assert installs, f"install.md installs no package before {unit.path.name}"
        return [word for word in shlex.split(installs[-1], comments=True)[2:] if not word.startswith("-")]

    def as_the_user(self, user: str) -> list[list[str]]:
        """The commands the steps run as ``user`` (``runuser -u USER -- ...``), the runuser gone."""
        found = []
        for line in self.lines:
            words = shlex.split(line, comments=True)
            if words[:3] == ["runuser", "-u", user] and words[3] == "--":
                found.append(words[4:])
        return found


def units() -> list[Unit]:
    return [Unit(path, path.read_text(encoding="utf-8")) for path in UNITS]


@pytest.mark.parametrize("unit", units(), ids=lambda unit: unit.path.name)
def test_the_steps_make_the_units_user_with_the_groups_its_seat_needs(unit: Unit) -> None:
    user, groups = Steps.read().user()
    assert unit.setting("User") == user
    needed = SEATS[unit.seat][1]
    assert needed <= groups, (
        f"install.md gives {user} the groups {sorted(groups)}; {unit.path.name} takes its seat from "
        f"{unit.seat}, which needs {sorted(needed)}"
    )
    any_unit_needs = {group for other in units() for group in SEATS[other.seat][1]}
    assert groups <= any_unit_needs, (
        f"install.md gives {user} {sorted(groups - any_unit_needs)}, which no unit needs"
    )
    lines = [line for line in TMPFILES.read_text(encoding="utf-8").splitlines() if not line.startswith("#")]
    owner = lines[0].split()
    assert owner[:3] == ["d", unit.environment["KIOSK_DATA_DIR"], "0750"], owner
    assert owner[3:5] == [user, user], f"{TMPFILES.name} gives the data directory to {owner[3:5]}"


@pytest.mark.parametrize("unit", units(), ids=lambda unit: unit.path.name)
def test_the_steps_install_the_units_packages_and_its_seat(unit: Unit) -> None:
    packages = Steps.read().packages_for(unit)
    groups = package_groups()
    named = unit_groups(unit.text)
    assert packages == [name for group in named for name in groups[group]], (
        f"install.md's apt-get before {unit.path.name} is not the groups {named} the unit names"
    )
    missing = SEATS[unit.seat][0] - set(packages)
    assert not missing, f"{unit.path.name} takes its seat from {unit.seat}, which needs {sorted(missing)}"
    if unit.seat == "logind":
        assert unit.setting("PAMName"), "only a PAM login makes a logind session"
        assert unit.setting("TTYPath").startswith("/dev/tty"), "a logind session's seat comes from its VT"
    if "XDG_RUNTIME_DIR" not in unit.environment:  # cage and Xwayland refuse to start without one
        assert unit.setting("PAMName"), f"{unit.path.name}: nothing gives the session its XDG_RUNTIME_DIR"
        assert "libpam-systemd" in packages, "only pam_systemd (logind) gives the session its XDG_RUNTIME_DIR"


@pytest.mark.parametrize("unit", units(), ids=lambda unit: unit.path.name)
def test_the_steps_set_the_pin_and_check_the_station_the_unit_starts(unit: Unit) -> None:
    """set-pin and --check find the station's data exactly as the unit's station does: the same
    program, configuration and data directory. A PIN set anywhere else leaves the station not
    ready; the check, run after it, proves it landed where the station looks."""
    steps = Steps.read()
    user, _ = steps.user()
    station = unit.station
    config = option(station, "--config")
    data = unit.environment["KIOSK_DATA_DIR"]
    commands = steps.as_the_user(user)
    ran = []
    for words in commands:
        assert words[:2] == ["env", f"KIOSK_DATA_DIR={data}"], words
        program, *args = words[2:]
        assert program == station[0], f"install.md runs {program}, the unit {station[0]}"
        assert option(args, "--config") == config, words
        ran.append(args[0] if args[0] == "set-pin" else args[-1])
    assert ran == ["set-pin", "--check"], f"install.md runs {ran} as {user}: the PIN first, then the check"


# --- the kiosk's keys: the files that turn them off, where the steps put them ------------------------

# Each file of packaging/linux that turns keys off: where the steps must install it, and the
# settings it must hold (section, key, value). Read with the parsers below, as the programs do.
KEY_FILES = {
    "challenge-kiosk-sysctl.conf": ("/etc/sysctl.d/", {("", "kernel.sysrq", "0")}),
    "challenge-kiosk-system.conf": (
        "/etc/systemd/system.conf.d/",
        {("Manager", "CtrlAltDelBurstAction", "none")},
    ),
    "challenge-kiosk-logind.conf": (
        "/etc/systemd/logind.conf.d/",
        {
            ("Login", key, "ignore")
            for key in (
                "HandlePowerKey",
                "HandleRebootKey",
                "HandleSuspendKey",
                "HandleHibernateKey",
                "HandleLidSwitch",
                "HandleLidSwitchExternalPower",
                "HandleLidSwitchDocked",
            )
        }
        | {("Login", "NAutoVTs", "0"), ("Login", "ReserveVT", "0")},
    ),
    "challenge-kiosk-xorg.conf": (
        "/etc/X11/xorg.conf.d/",
        {("ServerFlags", option, "true") for option in ("DontVTSwitch", "DontZap", "DontZoom")},
    ),
}


def settings(path: Path) -> set[tuple[str, str, str]]:
    """(section, key, value) of a sysctl.d file (no section), a systemd .conf or an xorg.conf."""
    found: set[tuple[str, str, str]] = set()
    section = ""
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        xorg = re.fullmatch(r'Section\s+"(\w+)"', line)
        if xorg or re.fullmatch(r"\[(\w+)\]", line):
            section = (xorg or re.fullmatch(r"\[(\w+)\]", line)).group(1)  # type: ignore[union-attr]
        elif line == "EndSection":
            section = ""
        elif option := re.fullmatch(r'Option\s+"(\w+)"\s+"(\w+)"', line):
            found.add((section, option.group(1), option.group(2)))
        else:
            key, sep, value = line.partition("=")
            assert sep, f"{path.name}: not a setting: {raw!r}"
            found.add((section, key.strip(), value.strip()))
    return found


@pytest.mark.parametrize("name", KEY_FILES)
def test_each_file_that_turns_keys_off_holds_its_settings_and_the_steps_install_it(name: str) -> None:
    folder, wanted = KEY_FILES[name]
    have = settings(LINUX / name)
    assert wanted <= have, f"{name} lacks {sorted(wanted - have)}"
    installs = [
        shlex.split(line, comments=True)
        for line in Steps.read().lines
        if line.startswith("install ") and f"/opt/challenge-kiosk/packaging/linux/{name}" in line
    ]
    assert len(installs) == 1, f"install.md installs {name} {len(installs)} times"
    target = installs[0][-1]
    assert target.startswith(folder), f"{name} goes to {target}, not to {folder}"
    assert target.endswith(".conf"), f"{target}: the folder's programs read only *.conf"


def test_the_steps_mask_ctrl_alt_del_and_reboot_with_every_setting_in_place() -> None:
    lines = Steps.read().lines
    assert "systemctl mask ctrl-alt-del.target" in lines
    reboot = lines.index("systemctl reboot")
    for name in ("challenge-kiosk-sysctl.conf", "challenge-kiosk-system.conf", "challenge-kiosk-logind.conf"):
        at = next(i for i, line in enumerate(lines) if f"packaging/linux/{name}" in line)
        assert at < reboot, f"{name} is installed after the reboot"


def test_cage_switches_to_no_other_console() -> None:
    """cage -s let anyone switch to a text console with Ctrl+Alt+F2, where Ctrl+Alt+Del rebooted."""
    cage = Unit(LINUX / "challenge-kiosk.service", (LINUX / "challenge-kiosk.service").read_text())
    argv = cage.command
    flags = argv[1 : argv.index("--")]
    assert flags == ["-d"], f"cage is started with {flags}: only -d (no decorations) is wanted"
    if shutil.which("cage"):
        usage = subprocess.run(["cage", "-h"], capture_output=True, text=True, check=False)
        assert re.search(r"^ -s\s+Allow VT switching", usage.stdout + usage.stderr, re.MULTILINE), (
            "cage's -s no longer means VT switching: look again at what cage's flags do"
        )


@pytest.mark.parametrize("unit", units(), ids=lambda unit: unit.path.name)
def test_only_the_judges_exit_ends_the_kiosk_session(unit: Unit, tmp_path: Path) -> None:
    """The station through station-session, then the unit's ExecStopPost, as systemd runs them
    (with a stand-in systemctl): a status 0 (judge mode's "Exit the station") starts the login
    prompt on tty1, which ends the session; a crash, a station not ready or a kill does not, and
    Restart=always restarts the station."""
    assert unit.setting("Restart") == "always"
    assert unit.setting("RuntimeDirectory") == "challenge-kiosk"
    station = unit.station
    session = unit.command[unit.command.index(station[0]) - 1]
    assert session == "/opt/challenge-kiosk/packaging/linux/station-session", unit.command
    stop_post = unit.setting("ExecStopPost")
    assert stop_post.startswith("+"), "ExecStopPost runs systemctl: it needs root (+)"
    post = shlex.split(stop_post[1:].replace("$$", "$"))  # systemd's own unescaping of $$
    bin_folder = tmp_path / "bin"
    bin_folder.mkdir()
    calls = tmp_path / "systemctl-calls"
    (bin_folder / "systemctl").write_text(f'#!/bin/sh\necho "$*" >> {calls}\n')
    (bin_folder / "systemctl").chmod(0o755)
    for ended, status in (("exit 0", 0), ("exit 2", 2), ("exit 1", 1), ("kill -KILL $$", 137)):
        runtime = tmp_path / f"run-{status}"
        runtime.mkdir()
        env = {"PATH": f"{bin_folder}:/usr/bin:/bin", "RUNTIME_DIRECTORY": str(runtime)}
        script = LINUX / "station-session"
        ran = subprocess.run([str(script), "sh", "-c", ended], env=env, check=False)
        assert ran.returncode == status
        assert (runtime / "station-exit").read_text() == f"{status}\n"
        calls.unlink(missing_ok=True)
        after = subprocess.run(post, env=env, capture_output=True, text=True, check=False)
        assert after.returncode == 0, after.stderr  # a failing ExecStopPost would mark the unit failed
        said = calls.read_text() if calls.exists() else ""
        assert said == ("--no-block start getty@tty1.service\n" if status == 0 else ""), (status, said)
    assert unit.setting("Conflicts") == "getty@tty1.service", (
        "the login prompt must take tty1 from the station"
    )


def seconds(setting: str) -> float:
    """A systemd time span as the units write it ("60s", "2min")."""
    match = re.fullmatch(r"(\d+)(s|min)", setting)
    assert match, f"write {setting!r} as seconds or minutes"
    return int(match[1]) * (60 if match[2] == "min" else 1)


@pytest.mark.parametrize("unit", units(), ids=lambda unit: unit.path.name)
def test_a_session_that_hangs_or_freezes_is_restarted_as_the_guide_says(unit: Unit) -> None:
    """Type=notify: up only at the station's READY=1, which the station (cage's or xinit's child)
    may send; a start and a watchdog timeout that the guide names as the unit has them; a
    watchdog longer than twice the longest wait the station's event loop makes on purpose."""
    assert unit.setting("Type") == "notify"
    assert unit.setting("NotifyAccess") == "all"
    assert unit.setting("Restart") == "always"
    guide = INSTALL.read_text(encoding="utf-8")
    for key in ("TimeoutStartSec", "WatchdogSec", "WatchdogSignal", "LimitCORE", "TimeoutStopSec"):
        assert f"`{key}={unit.setting(key)}`" in guide, f"install.md does not say {key}={unit.setting(key)}"
    assert seconds(unit.setting("WatchdogSec")) >= 2 * SQLITE_BUSY_TIMEOUT_MS / 1000
    assert unit.setting("LimitCORE") == "0"  # a station killed by the watchdog leaves no core file
