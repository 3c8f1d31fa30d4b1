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
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT
from tests.debian import package_groups, unit_groups

INSTALL = REPO_ROOT / "docs" / "install.md"
LINUX = REPO_ROOT / "packaging" / "linux"
UNITS = sorted(LINUX.glob("*.service"))
TMPFILES = LINUX / "challenge-kiosk.conf"

# What a seat manager needs on the machine for a unit's user to get the screen and the keyboard:
# Debian packages, and groups of that user. logind: pam_systemd (libpam-systemd) makes the unit's
# PAM login a logind session, and logind passes that session its devices; seatd: Debian's
# seatd.service runs `seatd -g video`, so only group video may open its socket.
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
        made = [shlex.split(line) for line in self.lines if line.startswith("useradd ")]
        assert len(made) == 1, f"install.md makes {len(made)} users: {made}"
        name = made[0][-1]
        groups = set((option(made[0], "-G", "--groups") or "").split(",")) - {""}
        for line in self.lines:
            words = shlex.split(line)
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
        return [word for word in shlex.split(installs[-1])[2:] if not word.startswith("-")]

    def as_the_user(self, user: str) -> list[list[str]]:
        """The commands the steps run as ``user`` (``runuser -u USER -- ...``), the runuser gone."""
        found = []
        for line in self.lines:
            words = shlex.split(line)
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
    assert groups == needed, (
        f"install.md gives {user} the groups {sorted(groups)}; {unit.path.name} takes its seat from "
        f"{unit.seat}, which needs {sorted(needed) or 'none'}"
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
