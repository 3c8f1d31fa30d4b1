"""The ``kiosk`` entry point: starts the station without loading click; hands the rest to click.

Starting the station is what ``kiosk`` does dozens of times a tournament, and players wait for it:
importing click and building its command tree costs ~15 ms, more than a tenth of a bare Qt
window's start-up (``bench/bench_station.py``). So ``main`` reads the few command lines that
start the station itself (``kiosk``, ``kiosk [--config FILE] station [--config FILE]
[--data-dir DIR] [--touch] [--smoke]``, options in any order, ``--opt VALUE`` or ``--opt=VALUE``)
and gives every other one -- ``--help``, ``--version``, ``check``, ``log``, a typo, an option
twice, a value click would refuse, shell completion -- to the click group in ``kiosk.command``,
which also owns every help text. Both ways end in ``start_station``: the same code, the same
messages, the same exit codes, under ``kiosk.console.run_guarded``.
"""

from __future__ import annotations

import os
import shlex
import stat
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

# Only the standard library and kiosk.console at import: this module is the console script's, and
# whatever else fails to import (a broken installation) must still end as an error, exit 2, never
# as a ruling's 1 -- so everything else is imported inside run_guarded.
from kiosk.console import EXIT_ERROR, run_guarded

if TYPE_CHECKING:
    from kiosk.core.config import StationConfig, Verifier
    from kiosk.core.errors import KioskError
    from kiosk.core.record import ChallengeLog
    from kiosk.storage import StationStorage

__all__ = [
    "EXIT_ACCEPTABLE",
    "EXIT_ERROR",
    "EXIT_UNACCEPTABLE",
    "StationArguments",
    "main",
    "start_station",
    "station_verifier",
]

EXIT_ACCEPTABLE = 0
EXIT_UNACCEPTABLE = 1
_STATION = "station"
# The options `kiosk station` takes (its own, and --config also before it), as click spells them.
_VALUE_OPTIONS = {"--config": "config_path", "--data-dir": "data_dir"}
_FLAG_OPTIONS = {"--touch": "touch", "--smoke": "smoke", "--kiosk-session": "kiosk_session"}
_WINDOWS_EXPANDED = "~$%*?["  # click expands these in arguments on Windows; leave such lines to it


def fail(message: str) -> NoReturn:
    import click  # only on the way out: the station starts without it

    click.echo(f"error: {message}", err=True)
    sys.exit(EXIT_ERROR)


@dataclass(frozen=True)
class StationArguments:
    """What a command line that starts the station asks for."""

    config_path: Path | None = None
    data_dir: Path | None = None
    touch: bool = False
    smoke: bool = False
    kiosk_session: bool = False


def _path_click_accepts(value: str, *, dir_okay: bool, file_okay: bool) -> bool:
    """Whether click.Path(dir_okay, file_okay) would accept ``value`` (it refuses with a message)."""
    try:
        status = Path(value).stat()
    except OSError:
        return True  # need not exist
    if not file_okay and stat.S_ISREG(status.st_mode):
        return False
    if not dir_okay and stat.S_ISDIR(status.st_mode):
        return False
    return os.access(value, os.R_OK)


def _read_options(tokens: Sequence[str], allowed: set[str], found: dict[str, str | bool]) -> int | None:
    """Read ``allowed`` options from the front of ``tokens`` into ``found``; return how many tokens
    were read, or None for anything this reader does not handle exactly as click would."""
    index = 0
    while index < len(tokens):
        name, equals, inline = tokens[index].partition("=")
        if name in _VALUE_OPTIONS and name in allowed:
            if equals:
                value, index = inline, index + 1
            elif index + 1 < len(tokens):
                value, index = tokens[index + 1], index + 2
            else:
                return None
            key = _VALUE_OPTIONS[name]
            if not value or value.startswith("-") or key in found:
                return None
            if not _path_click_accepts(value, dir_okay=key != "config_path", file_okay=key == "config_path"):
                return None
            found[key] = value
        elif not equals and name in _FLAG_OPTIONS and name in allowed:
            if _FLAG_OPTIONS[name] in found:
                return None
            found[_FLAG_OPTIONS[name]], index = True, index + 1
        else:
            return index
    return index


def station_arguments(args: Sequence[str]) -> StationArguments | None:
    """The station's arguments if ``args`` simply starts the station, else None (click decides)."""
    if any(name.startswith("_") and name.endswith("_COMPLETE") for name in os.environ):
        return None  # click's shell completion
    if os.name == "nt" and any(char in arg for arg in args for char in _WINDOWS_EXPANDED):
        return None
    root: dict[str, str | bool] = {}
    read = _read_options(args, {"--config"}, root)
    if read is None:
        return None
    rest = args[read:]
    own: dict[str, str | bool] = {}
    if rest:
        if rest[0] != _STATION:
            return None
        read = _read_options(rest[1:], set(_VALUE_OPTIONS) | set(_FLAG_OPTIONS), own)
        if read is None or read != len(rest) - 1:
            return None
    config = own.get("config_path", root.get("config_path"))  # the station's own --config wins
    folder = own.get("data_dir")
    return StationArguments(
        config_path=Path(str(config)) if config is not None else None,
        data_dir=Path(str(folder)) if folder is not None else None,
        touch=own.get("touch") is True,
        smoke=own.get("smoke") is True,
        kiosk_session=own.get("kiosk_session") is True,
    )


def main(argv: Sequence[str] | None = None) -> NoReturn:
    """The ``kiosk`` program: the station at once, anything else through click.

    Both ways run under ``kiosk.console.run_guarded``: whatever goes wrong exits 2, never a
    ruling's 0 or 1, and no output fails on the terminal's encoding.
    """
    args = sys.argv[1:] if argv is None else argv
    arguments = station_arguments(args)

    def run() -> object:
        if arguments is None:
            if getattr(sys, "frozen", False):  # frozen, the station walks packs' tries with itself
                from kiosk.core.walk import WALK_ARGUMENT, child_main

                if list(args) == [WALK_ARGUMENT]:
                    return child_main()
            from kiosk.command import kiosk

            return kiosk.main(args=None if argv is None else list(argv), standalone_mode=False)
        return start_station(
            arguments.config_path,
            arguments.data_dir,
            touch=arguments.touch,
            smoke=arguments.smoke,
            kiosk_session=arguments.kiosk_session,
        )

    run_guarded(run)


def load_station_config(config_path: Path | None) -> StationConfig:
    from kiosk.core.config import default_config, load_config
    from kiosk.paths import default_pack_path

    if config_path is None:
        return default_config(default_pack_path())
    return load_config(config_path, default_pack=default_pack_path())


def station_verifier(config: StationConfig, folder: Path, *, check_only: bool = False) -> Verifier:
    """How this station checks packs: the walk, remembered in the data directory ``folder``, and
    the built-in table of known editions with the configuration's own; raise EditionTableError
    naming a table. ``check_only``: make no folder and say nothing when a walk cannot be remembered."""
    from kiosk.core.config import Verifier
    from kiosk.core.edition import load_edition_table
    from kiosk.core.walk import PackWalker, WalkCache
    from kiosk.paths import known_editions_path, walk_cache_dir

    cache = WalkCache(walk_cache_dir(folder), make_parents=not check_only)
    walker = PackWalker(cache=cache, warn=not check_only)
    return Verifier(walker=walker, editions=load_edition_table(known_editions_path(), config.known_editions))


def no_screen(config_path: Path | None, data_dir: Path | None, environ: Mapping[str, str]) -> str | None:
    """Why Qt would abort for want of a screen, with what to do instead; None if there may be one.

    Only the certain case: Linux, Qt left to choose or told to use X11, and no display named. Qt's
    own message then ("could not connect to display", "xcb-cursor0 ... is needed") misleads.
    """
    platform = environ.get("QT_QPA_PLATFORM", "")
    if not sys.platform.startswith("linux") or platform not in ("", "xcb") or environ.get("DISPLAY"):
        return None
    if not platform and environ.get("WAYLAND_DISPLAY"):
        return None
    program = [sys.argv[0] or "kiosk", "station"]
    if config_path is not None:
        program += ["--config", str(config_path)]
    if data_dir is not None:
        program += ["--data-dir", str(data_dir)]
    return (
        "no screen to show the station on: neither DISPLAY nor WAYLAND_DISPLAY is set.\n"
        "To check the configuration, every pack and the data directory without a screen:\n"
        f"  {shlex.join([*program, '--check'])}\n"
        "To start the station off screen, paint its first frame and stop:\n"
        f"  QT_QPA_PLATFORM=offscreen {shlex.join([*program, '--smoke'])}"
    )


def not_ready(problem: KioskError, *, kiosk_session: bool, smoke: bool) -> NoReturn:
    """The station cannot start: say why on standard error, and on screen in a kiosk session."""
    if not kiosk_session:
        fail(str(problem))
    print(f"error: {problem}", file=sys.stderr, flush=True)
    from kiosk.ui.notready import show_not_ready

    sys.exit(show_not_ready(str(problem), smoke=smoke))


def start_station(
    config_path: Path | None,
    data_dir: Path | None,
    *,
    touch: bool,
    smoke: bool,
    kiosk_session: bool = False,
) -> NoReturn:
    """``kiosk station``: verify the config and every pack, then run the station until it is left.

    If either, or the data directory, cannot be used, the station never opens: the error goes to
    standard error (exit 2) and, in a kiosk session, "Station not ready — call a judge" stays on
    screen with it. A station with no judge PIN does not serve players (see ``run_station``).
    """
    from kiosk.core.config import load_divisions
    from kiosk.core.errors import KioskError
    from kiosk.paths import check_data_dir, station_data

    try:
        config = load_station_config(config_path)
        if touch:
            config = replace(config, touch=True)
        where = station_data(config, data_dir=data_dir)
        verifier = station_verifier(config, where.data_dir)  # walks are remembered in the data directory
        divisions = load_divisions(config, verifier)
    except KioskError as exc:  # on the terminal only, where there is no screen to show it on
        screen = no_screen(config_path, data_dir, os.environ) is None
        not_ready(exc, kiosk_session=kiosk_session and screen, smoke=smoke)
    screen_problem = no_screen(config_path, data_dir, os.environ)
    if screen_problem is not None:
        fail(screen_problem)
    try:
        check_data_dir(where.data_dir)
    except KioskError as exc:
        not_ready(exc, kiosk_session=kiosk_session, smoke=smoke)
    from kiosk.ui.app import run_station  # Qt is loaded only for the station itself

    storage = LazyStorage(where.data_dir, where.database_url)
    try:
        code = run_station(
            config,
            divisions,
            where,
            storage.open,
            smoke=smoke,
            kiosk_session=kiosk_session,
            set_pin_command=where.set_pin_command(program_name()),
            verifier=verifier,
        )
    finally:
        storage.close()
    sys.exit(code)


def program_name() -> str:
    """How a judge at this machine's terminal runs this program: ``kiosk`` if that is it on the
    PATH, else its full path (the bundle in /opt, a virtual environment)."""
    if getattr(sys, "frozen", False):
        program = Path(sys.executable)
    else:
        program = Path(sys.argv[0]) if sys.argv and sys.argv[0] else Path("kiosk")
        if program.stem != "kiosk":
            return "kiosk"
    import shutil

    on_path = shutil.which(program.name)
    if on_path is not None and Path(on_path).resolve() == program.resolve():
        return program.stem if program.suffix.lower() != ".exe" else program.name
    return str(program.resolve())


class LazyStorage:
    """The station's storage, opened on first use: after the first frame, before the first verdict."""

    def __init__(self, folder: Path, database_url: str | None) -> None:
        self.folder = folder
        self.database_url = database_url
        self.storage: StationStorage | None = None

    def open(self) -> StationStorage:
        """The storage, opened on the first call; the same object on every later one."""
        if self.storage is None:
            from kiosk.storage import open_station_storage  # SQLAlchemy: ~300 ms, after the first frame

            self.storage = open_station_storage(self.folder, self.database_url)
        return self.storage

    def log(self) -> ChallengeLog:
        return self.open().log

    def close(self) -> None:
        if self.storage is not None:
            self.storage.close()
