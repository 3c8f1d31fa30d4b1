"""``kiosk station``: check the configuration, every pack and the data directory, then start Qt.

What happens before and around the station's window: a pack that fails verification, a data
directory the station cannot write or a machine with no screen stops it here, with a message
naming the file and what to do (exit 2), or, in a kiosk session, with "Station not ready — call a
judge" on the screen. The click layer (``kiosk.cli``) calls ``start_station``; Qt, click and
SQLAlchemy are each imported only where they are needed, so that the ready frame comes first.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import sys
import threading
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from kiosk.console import fail

if TYPE_CHECKING:
    from kiosk.core.errors import KioskError
    from kiosk.core.station.config import StationConfig, Verifier
    from kiosk.core.words.language import Catalogue
    from kiosk.storage import StationStorage
    from kiosk.ui.checking import CheckingWindow

__all__ = ["load_station_config", "program_name", "start_station", "station_verifier"]


def load_station_config(config_path: Path | None) -> StationConfig:
    from kiosk.core.station.config import default_config, load_config
    from kiosk.paths import default_pack_path

    if config_path is None:
        return default_config(default_pack_path())
    return load_config(config_path, default_pack=default_pack_path())


def station_verifier(config: StationConfig, folder: Path, *, check_only: bool = False) -> Verifier:
    """How this station checks packs: the walk, remembered in the data directory ``folder``, and
    the built-in table of known editions with the configuration's own; raise EditionTableError
    naming a table. ``check_only``: make no folder and say nothing when a walk cannot be remembered."""
    from kiosk.core.edition import load_edition_table
    from kiosk.core.packs.verification import PackWalker, WalkCache
    from kiosk.core.station.config import Verifier
    from kiosk.paths import built_in_edition_paths, walk_cache_dir

    cache = WalkCache(walk_cache_dir(folder), make_parents=not check_only)
    walker = PackWalker(cache=cache, warn=not check_only)
    return Verifier(
        walker=walker, editions=load_edition_table(built_in_edition_paths(), config.known_editions)
    )


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
        "To check the configuration, every pack, the data directory and the judge PIN without a screen:\n"
        f"  {shlex.join([*program, '--check'])}\n"
        "To start the station off screen, paint its first frame and stop:\n"
        f"  QT_QPA_PLATFORM=offscreen {shlex.join([*program, '--smoke'])}"
    )


def not_ready(
    problem: KioskError,
    *,
    kiosk_session: bool,
    smoke: bool,
    words: Catalogue | None = None,
    screen_index: int = 0,
    speech: bool = False,
) -> NoReturn:
    """The station cannot start: say why on standard error, and on screen in a kiosk session, in
    the station's language (``words``) if its configuration was read far enough to say it, on its
    screen (``screen_index``, the configuration's)."""
    if not kiosk_session:
        if not qt_started():
            fail(str(problem))
        with contextlib.suppress(OSError, ValueError):
            print(f"error: {problem}", file=sys.stderr, flush=True)
        from kiosk.console import EXIT_ERROR
        from kiosk.ui.exit import leave_after_qt

        leave_after_qt(EXIT_ERROR)  # Qt is up (the checking frame): never through Qt's teardown
    print(f"error: {problem}", file=sys.stderr, flush=True)
    from kiosk.ui.exit import leave_after_qt
    from kiosk.ui.notready import show_not_ready

    shown = show_not_ready(problem.wording, screen_index=screen_index, smoke=smoke, t=words, speech=speech)
    leave_after_qt(shown)


def qt_started() -> bool:
    """Whether this process has a QApplication (the checking frame made one before the walk ended)."""
    widgets = sys.modules.get("PySide6.QtWidgets")
    return widgets is not None and widgets.QApplication.instance() is not None


def station_words(config: StationConfig) -> Catalogue | None:
    """The station's language for a not-ready screen; None (English) if it cannot be loaded."""
    from kiosk.core.errors import KioskError
    from kiosk.core.words.language import load_catalogue

    try:
        return load_catalogue(config.language, where="language")
    except KioskError:
        return None


def stated_words(config_path: Path) -> Catalogue | None:
    """The language a configuration that cannot be used states (``language = "fr"``), for the
    not-ready screen that names its mistake; None (English) if it states none or it cannot be loaded."""
    from kiosk.core.errors import KioskError
    from kiosk.core.station.config import stated_language
    from kiosk.core.words.language import load_catalogue

    language = stated_language(config_path)
    if language is None:
        return None
    try:
        return load_catalogue(language)
    except KioskError:
        return None


def tracebacks_on_fatal_signals() -> None:
    """A kiosk session's station killed by systemd's watchdog (SIGABRT: its event loop stopped
    answering) or crashing in Qt first writes every thread's Python traceback to standard error,
    which is the journal: where it was stuck, for whoever reads ``journalctl -u challenge-kiosk``."""
    import faulthandler

    with contextlib.suppress(OSError, ValueError, RuntimeError):  # a standard error with no file behind it
        faulthandler.enable()


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
    from kiosk.core.errors import KioskError
    from kiosk.core.station.config import load_languages, start_divisions
    from kiosk.paths import check_data_dir, station_data

    if kiosk_session:
        tracebacks_on_fatal_signals()
    words: Catalogue | None = None  # English until the configuration says otherwise
    screen_index = 0  # the configuration's, once it is read
    speech = False  # its [access] speech, once it is read
    checking: CheckingWindow | None = None  # "Checking the word list…", on a first start

    def stop_checking() -> None:
        if checking is not None:
            checking.done()

    def cannot_start(exc: KioskError) -> NoReturn:  # on the terminal only, where there is no screen
        stop_checking()
        shown = words
        if shown is None and config_path is not None:
            shown = stated_words(config_path)  # a configuration with a mistake still says its language
        screen = no_screen(config_path, data_dir, os.environ) is None
        session = kiosk_session and screen
        not_ready(
            exc, kiosk_session=session, smoke=smoke, words=shown, screen_index=screen_index, speech=speech
        )

    try:
        config = load_station_config(config_path)
        screen_index, speech = config.screen, config.access.speech
        words = station_words(config)
        if touch:
            config = replace(config, touch=True)
        where = station_data(config, data_dir=data_dir)
        verifier = station_verifier(config, where.data_dir)  # walks are remembered in the data directory
        loading = start_divisions(config, verifier)  # a pack not seen before is walked while Qt loads
    except KioskError as exc:
        cannot_start(exc)
    screen_problem = no_screen(config_path, data_dir, os.environ)
    if screen_problem is None:
        if loading.walking():  # a pack not seen before: its walk is the longest part of the start
            checking = checking_frame(config, words, smoke=smoke)  # before the station's own screens load
        from kiosk.ui.app import run_station  # Qt is loaded only for the station itself
    try:
        divisions = loading.result()
        load_languages(config)  # every catalogue it asks for is in this installation
    except KioskError as exc:
        cannot_start(exc)
    if screen_problem is not None:
        fail(screen_problem)
    try:
        check_data_dir(where.data_dir)
    except KioskError as exc:
        stop_checking()
        not_ready(
            exc,
            kiosk_session=kiosk_session,
            smoke=smoke,
            words=words,
            screen_index=screen_index,
            speech=speech,
        )
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
            replacing=checking,
        )
    finally:
        storage.close()
    from kiosk.ui.exit import leave_after_qt

    leave_after_qt(code)


def checking_frame(config: StationConfig, words: Catalogue | None, *, smoke: bool) -> CheckingWindow:
    """The "Checking the word list…" window while the walk runs (``kiosk.ui.checking``)."""
    from kiosk.ui import theme
    from kiosk.ui.checking import show_checking
    from kiosk.ui.startup import smoke_painted

    access = config.access
    look = theme.Look(high_contrast=access.high_contrast, large_text=access.large_text)
    window = show_checking(words, screen_index=config.screen, touch=config.touch, look=look)
    if smoke and not smoke_painted("first", window.headline.text()):
        from kiosk.console import EXIT_ERROR
        from kiosk.ui.exit import leave_after_qt

        window.done()
        leave_after_qt(EXIT_ERROR)  # Qt is up: not through its teardown
    return window


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
    """The station's storage, opened on first use: after the first frame, before the first verdict.

    Judge mode asks for it on its worker threads too: one lock, so that it is opened once.
    """

    def __init__(self, folder: Path, database_url: str | None) -> None:
        self.folder = folder
        self.database_url = database_url
        self.storage: StationStorage | None = None
        self._opening = threading.Lock()

    def open(self) -> StationStorage:
        """The storage, opened on the first call; the same object on every later one."""
        with self._opening:
            if self.storage is None:
                from kiosk.storage import open_station_storage  # SQLAlchemy: ~300 ms, after the first frame

                self.storage = open_station_storage(self.folder, self.database_url)
            return self.storage

    def close(self) -> None:
        if self.storage is not None:
            self.storage.close()
