"""What a new organiser meets on a fresh Debian machine, without a screen.

The one list of Debian packages (packaging/linux/debian-packages.txt) is what dev.sh installs,
what docs/install.md tells an organiser to install and what each unit says it needs; the source
checkout's Qt needs nothing beyond it; checking a station's configuration needs no screen; and
every command the project advises works as written. The bundle's side of the list is proved in
tests/test_packaging.py, on the bundle itself.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import PySide6
import pytest

from tests.conftest import REPO_ROOT, PackFactory, write_list
from tests.debian import (
    PACKAGE_LIST,
    Installed,
    debian_python,
    external_libraries,
    library_problems,
    package_groups,
    session_plugins,
    unit_groups,
    unit_programs,
)
from tests.outputs import report

UNITS = sorted((REPO_ROOT / "packaging" / "linux").glob("*.service"))
GUIDES = [REPO_ROOT / "README.md", *sorted((REPO_ROOT / "docs").glob("*.md"))]
VENV = Path(sys.executable).parent.parent
KIOSK = VENV / "bin" / "kiosk"


def no_screen_env(tmp_path: Path) -> dict[str, str]:
    """This machine's environment as a headless one has it: no display, Qt left to choose."""
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    return {**env, "KIOSK_DATA_DIR": str(tmp_path / "data"), "KIOSK_VENV": str(VENV)}


def run(command: list[str], env: dict[str, str], cwd: Path = REPO_ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, capture_output=True, text=True, env=env, cwd=cwd, timeout=300, check=False)


def printed(result: subprocess.CompletedProcess[str]) -> str:
    return report({f"{shlex.join(result.args)} (exit {result.returncode})": result.stdout + result.stderr})


def set_pin(env: dict[str, str], kiosk: Path = KIOSK) -> None:
    """A judge PIN for the station of ``env`` (its $KIOSK_DATA_DIR)."""
    command = [str(kiosk), "set-pin", "--stdin"]
    done = subprocess.run(command, input="482613\n", capture_output=True, text=True, env=env, check=False)
    assert done.returncode == 0, done.stdout + done.stderr


def follow(advice: list[str], env: dict[str, str]) -> None:
    """Run each advised command as written; each must work."""
    assert advice, "no advice to follow"
    for command in advice:
        followed = run(["bash", "-c", command], env)
        assert followed.returncode == 0, f"the advice `{command}` does not work" + printed(followed)


# --- the one list ----------------------------------------------------------------------------------


# The groups a reader installs by hand (docs/install.md); ./dev.sh alone installs the others.
BY_HAND = ["station", "cage", "x11", "director"]
BY_DEV_SH = ["build", "test"]


def test_dev_sh_installs_the_same_groups_the_tests_read() -> None:
    groups = package_groups(python=debian_python())
    assert list(groups) == [*BY_HAND, *BY_DEV_SH]
    for name, packages in groups.items():
        listed = run(["./dev.sh", "packages", name], {**os.environ, "KIOSK_VENV": str(VENV)})
        assert listed.returncode == 0, printed(listed)
        assert listed.stdout.split() == list(packages), printed(listed)


def python_named(tmp_path: Path, python: Path) -> dict[str, str]:
    """An environment whose python3 is ``python`` and which has no venv yet: a fresh clone's."""
    folder = tmp_path / "bin"
    folder.mkdir()
    (folder / "python3").symlink_to(python)
    return {**os.environ, "PATH": f"{folder}:/usr/bin:/bin", "KIOSK_VENV": str(tmp_path / "no-venv")}


def test_the_bundle_build_installs_the_shared_library_of_debians_python(tmp_path: Path) -> None:
    """PyInstaller needs libpython3.X.so; Debian's python3 has it linked in and ships it apart.
    The package is named after the running python3's version, whatever it is, and ships exactly
    the library that python3 names."""
    python = Path("/usr/bin/python3")
    if run(["dpkg-query", "-S", str(python.resolve())], dict(os.environ)).returncode != 0:
        pytest.skip("no Debian python3 here")
    question = "import sys, sysconfig as s; print(*sys.version_info[:2], s.get_config_var('INSTSONAME'))"
    major, minor, soname = run([str(python), "-c", question], dict(os.environ)).stdout.split()
    listed = run(["./dev.sh", "packages", "build"], python_named(tmp_path, python))
    assert listed.returncode == 0, printed(listed)
    assert f"libpython{major}.{minor}" in listed.stdout.split(), printed(listed)
    package = f"libpython{major}.{minor}"
    if run(["dpkg-query", "-W", package], dict(os.environ)).returncode != 0:
        pytest.skip(f"{package} is not installed here (./dev.sh test installs it with Debian's python3)")
    owners = run(["dpkg-query", "-S", f"*/{soname}"], dict(os.environ))
    assert f"{package}:" in owners.stdout, printed(owners)


def test_another_python_carries_its_own_library_and_asks_for_none(tmp_path: Path) -> None:
    """A Python that is not Debian's (pyenv's, a CI image's) brings its own libpython: asking apt
    for Debian's of the same version would be wrong, and for 3.13 on Debian 12 impossible."""
    if debian_python() is not None:
        pytest.skip("this Python is Debian's own")
    listed = run(["./dev.sh", "packages", "build"], python_named(tmp_path, Path(sys.executable).resolve()))
    assert listed.returncode == 0, printed(listed)
    assert listed.stdout.split() == ["binutils"], printed(listed)


def apt_get_installs(page: Path) -> list[list[str]]:
    """The packages of every ``apt-get install`` command a page shows."""
    text = page.read_text(encoding="utf-8").replace("\\\n", " ")
    commands = re.findall(r"apt-get install ([^\n`]*)", text)
    return [
        [word for word in shlex.split(command, comments=True) if not word.startswith("-")]
        for command in commands
    ]


def test_the_guides_quote_the_package_list_exactly() -> None:
    """Every apt-get install in the guides names whole groups of the list, in its order, and the
    installation guide names every group a reader installs by hand: a package added to the list
    must reach the guide."""
    groups = package_groups()
    quoted: set[str] = set()
    for page in GUIDES:
        for packages in apt_get_installs(page):
            rest = packages
            while rest:
                group = next(
                    (name for name, names in groups.items() if rest[: len(names)] == list(names)), None
                )
                assert group is not None, (
                    f"{page.name}: `apt-get install {' '.join(packages)}` is not made of whole groups "
                    f"of {PACKAGE_LIST.name} ({', '.join(groups)}): it must quote the list"
                )
                quoted.add(group)
                rest = rest[len(groups[group]) :]
    assert quoted == set(BY_HAND), f"the guides quote the group(s) {sorted(quoted)}, not {BY_HAND}"
    install = [name for packages in apt_get_installs(REPO_ROOT / "docs" / "install.md") for name in packages]
    assert set(install) == {name for group in BY_HAND for name in groups[group]}


@pytest.mark.parametrize("unit", UNITS, ids=lambda path: path.name)
def test_every_program_a_unit_runs_comes_from_its_groups_or_the_base_system(unit: Path) -> None:
    text = unit.read_text(encoding="utf-8")
    groups = package_groups()
    named = unit_groups(text)
    assert "station" in named, f"{unit.name} must say which groups of {PACKAGE_LIST.name} it needs"
    assert set(named) <= set(groups), f"{unit.name} names groups the list does not have: {named}"
    installed = Installed.read()
    covered = installed.closure([*(name for group in named for name in groups[group]), *installed.base()])
    for program in unit_programs(text):
        owner = run(["dpkg-query", "-S", program], dict(os.environ))
        assert owner.returncode == 0, (
            f"{unit.name} runs {program}, which no installed package provides" + printed(owner)
        )
        owned = [line for line in owner.stdout.splitlines() if not line.startswith("diversion by ")]
        packages = {
            name.split(":")[0].strip() for line in owned for name in line.split(": ", 1)[0].split(",")
        }
        assert covered & packages, f"{unit.name} runs {program} from {packages}, not in its groups {named}"


@pytest.mark.parametrize("unit", UNITS, ids=lambda path: path.name)
def test_the_units_run_the_station_in_a_utf8_locale_the_base_system_ships(unit: Path) -> None:
    """A fresh Debian's system locale is "C": Qt then warns on every start. The unit names one."""
    env = dict(re.findall(r"^Environment=(\w+)=(.*)$", unit.read_text(encoding="utf-8"), re.MULTILINE))
    assert "LANG" in env, f"{unit.name} sets no LANG: the station would run in the system's locale"
    language, _, codeset = env["LANG"].partition(".")
    assert re.sub(r"[^a-z0-9]", "", codeset.lower()) == "utf8", env["LANG"]
    shipped = Path("/usr/lib/locale") / f"{language}.utf8"  # glibc's own spelling of the codeset
    owner = run(["dpkg-query", "-S", str(shipped)], dict(os.environ))
    assert owner.returncode == 0, f"no package ships {shipped}" + printed(owner)
    installed = Installed.read()
    assert owner.stdout.split(":")[0] in installed.closure(installed.base()), owner.stdout


def test_the_source_checkout_needs_no_library_that_the_package_list_does_not_provide() -> None:
    """What ./dev.sh kiosk runs: this venv's PySide6 (which carries fewer libraries than the bundle)."""
    qt = Path(PySide6.__file__).parent
    used = set(
        re.findall(r"PySide6\.(Qt\w+)", "\n".join(p.read_text() for p in (REPO_ROOT / "kiosk").rglob("*.py")))
    )
    assert {"QtCore", "QtGui", "QtWidgets"} <= used
    modules = [path for name in sorted(used) for path in qt.glob(f"{name}.*so")]
    libraries = external_libraries([*modules, *session_plugins(qt / "Qt" / "plugins")])
    assert "libc.so.6" in libraries, "the check must see what PySide6 leaves to the system"
    assert library_problems(libraries, package_groups()["station"], Installed.read()) == []


# --- checking a configuration needs no screen ----------------------------------------------------

NO_QT = """
import sys
from kiosk.entry import run
try:
    run()
finally:
    print("Qt loaded" if "PySide6" in sys.modules else "no Qt", file=sys.stderr)
"""


def test_station_check_reads_the_config_packs_and_data_directory_without_qt(
    tmp_path: Path, make_pack: PackFactory
) -> None:
    pack = make_pack(["cat", "dogs"], youth=["dogs"], name="Club")
    config = tmp_path / "station.toml"
    config.write_text(
        f'station_name = "Hall 2"\n[[divisions]]\nname = "Schools"\npack = "{pack}"\nyouth_rules = true\n'
    )
    env = no_screen_env(tmp_path)
    set_pin(env)
    made = sorted((tmp_path / "data").iterdir())
    result = run([sys.executable, "-c", NO_QT, "station", "--config", str(config), "--check"], env)
    assert result.returncode == 0, printed(result)
    assert result.stdout.splitlines() == [
        f"Configuration: {config}",
        "Station: 'Hall 2', double challenge",
        f"Division 'Schools': {pack}: Club test, 2 words, youth rules, verified, unsigned",
        "  rules with the youth list applied: matches no known edition (1 word; none of similar size)",
        f"Data directory: {tmp_path / 'data'} (there; from $KIOSK_DATA_DIR)",
        f"Judge PIN: set, in {tmp_path / 'data' / 'kiosk.sqlite3'}",
        "OK: the station can start with this configuration (on the station, --smoke checks its screen).",
    ], printed(result)
    assert result.stderr == "no Qt\n", printed(result)
    left = sorted(path for path in (tmp_path / "data").iterdir() if path.name != "verified-packs")
    assert left == made, "a check must leave nothing behind but what the walk proved"


def test_station_check_is_not_ok_without_a_judge_pin_and_says_how_to_set_one(tmp_path: Path) -> None:
    """A station with no PIN serves nobody: its check must not say OK. The command it advises
    sets the PIN where the station looks, and the check then passes."""
    env = no_screen_env(tmp_path)
    result = run([str(KIOSK), "station", "--check"], env)
    assert result.returncode == 2, printed(result)
    assert "OK" not in result.stdout, printed(result)
    said = result.stderr.strip()
    assert said.startswith(
        f"error: no judge PIN is set for the station database {tmp_path / 'data' / 'kiosk.sqlite3'} "
    ), printed(result)
    assert not (tmp_path / "data").exists(), "a check must leave nothing behind"
    command = said.rsplit(": ", 1)[1]
    assert command == f"{KIOSK} set-pin --data-dir {tmp_path / 'data'}", printed(result)
    followed = subprocess.run(
        ["bash", "-c", f"{command} --stdin"], input="482613\n", capture_output=True, text=True, env=env,
        check=False,
    )  # fmt: skip
    assert followed.returncode == 0, followed.stdout + followed.stderr
    again = run([str(KIOSK), "station", "--check"], env)
    assert again.returncode == 0, printed(again)
    assert again.stdout.splitlines()[-1].startswith("OK: "), printed(again)


def test_station_check_stops_at_a_bad_pack_naming_the_config_and_the_file(tmp_path: Path) -> None:
    source = write_list(tmp_path / "club.txt", ["cat"])
    config = tmp_path / "station.toml"
    config.write_text(f'[[divisions]]\nname = "Open"\npack = "{source}"\n')
    result = run([str(KIOSK), "station", "--config", str(config), "--check"], no_screen_env(tmp_path))
    assert result.returncode == 2, printed(result)
    assert result.stderr.startswith(f"error: {config}: division 'Open', pack: "), printed(result)
    assert "Traceback" not in result.stderr


def test_station_check_refuses_a_data_directory_the_station_could_not_use(tmp_path: Path) -> None:
    blocker = write_list(tmp_path / "not-a-folder", ["x"])
    env = no_screen_env(tmp_path)
    result = run([str(KIOSK), "station", "--data-dir", str(blocker / "data"), "--check"], env)
    assert result.returncode == 2, printed(result)
    assert result.stderr == (
        f"error: the station's data directory {blocker / 'data'} cannot be created: {blocker} is a file, "
        "not a directory; name another folder (this folder comes from --data-dir)\n"
    ), printed(result)


def test_smoke_without_a_screen_says_what_to_run_instead_and_that_works(tmp_path: Path) -> None:
    """install.md's old way to check a config aborted in Qt ("xcb-cursor0 ... is needed")."""
    env = no_screen_env(tmp_path)
    result = run([str(KIOSK), "station", "--smoke"], env)
    assert result.returncode == 2, printed(result)
    assert result.stderr.startswith("error: no screen to show the station on: "), printed(result)
    assert "xcb" not in result.stderr, printed(result)
    advice = [line.strip() for line in result.stderr.splitlines() if line.startswith("  ")]
    assert [command.split()[-1] for command in advice] == ["--check", "--smoke"], printed(result)
    set_pin(env)  # a station's judge has (the check says so when not: see above)
    follow(advice, env)


# --- advice printed by the project works as written ----------------------------------------------


def test_dev_sh_kiosk_without_a_screen_advises_only_commands_that_work(tmp_path: Path) -> None:
    env = no_screen_env(tmp_path)
    result = run(["./dev.sh", "kiosk"], env)
    assert result.returncode == 1, printed(result)
    assert "no screen here" in result.stderr, printed(result)
    advice = [
        line.removeprefix("dev.sh:").strip()
        for line in result.stderr.splitlines()
        if line.startswith("dev.sh:   ")
    ]
    assert len(advice) == 3, printed(result)
    follow(advice, env)


def test_kiosk_help_says_where_the_guides_are() -> None:
    result = run([str(KIOSK), "--help"], dict(os.environ))
    assert result.returncode == 0, printed(result)
    named = re.search(r"Guides: (\S+install\.md)", result.stdout.replace("\n", " "))
    assert named is not None, printed(result)
    assert Path(named.group(1)) == REPO_ROOT / "docs" / "install.md"


def hide_library(tmp_path: Path, soname: str) -> str:
    """A folder for LD_LIBRARY_PATH whose ``soname`` is an empty file: the loader stops there, as
    it would on a machine without that library, whatever this one has installed."""
    folder = tmp_path / "hidden-libraries"
    folder.mkdir(exist_ok=True)
    (folder / soname).write_bytes(b"")
    return str(folder)


def test_a_screen_plugin_that_cannot_load_names_its_library_and_what_to_install(tmp_path: Path) -> None:
    """Qt alone says "Reinstalling the application may fix this problem" and aborts."""
    env = no_screen_env(tmp_path)
    env |= {"QT_QPA_PLATFORM": "wayland", "LD_LIBRARY_PATH": hide_library(tmp_path, "libwayland-cursor.so.0")}
    result = run([str(KIOSK), "station", "--smoke"], env)
    assert result.returncode != 0, printed(result)
    said = [line for line in result.stderr.splitlines() if line.startswith("error: ")]
    assert len(said) == 1, printed(result)
    assert said[0].startswith(
        "error: the station cannot open its screen: Qt's wayland plugin cannot load ("
    ), said
    assert "libwayland-cursor.so.0" in said[0], said
    guide = REPO_ROOT / "docs" / "install.md"
    assert said[0].endswith(f"install the packages of {guide} (section 3), then start the station again."), (
        said
    )
