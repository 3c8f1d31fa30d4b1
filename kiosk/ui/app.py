"""Starting the station: one instance, the configured screen, the cursor, the screensaver.

``run_station`` is called by ``kiosk station`` with packs already loaded and verified (a pack that
fails stops the station before any window exists) and a factory for the station's storage, which
is first called after the first frame (its SQLAlchemy import costs more than Qt's start-up) and
returns the same storage every time: the log records into it, judge mode reads it.
"""

from __future__ import annotations

import gc
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QCursor
from PySide6.QtWidgets import QApplication

from kiosk.console import EXIT_ERROR
from kiosk.core.errors import KioskError
from kiosk.core.station.config import LoadedDivision, StationConfig, Verifier, load_languages
from kiosk.core.wording import Text, Wording
from kiosk.core.words.language import marked
from kiosk.paths import StationData, current_user, lock_data_dir
from kiosk.service import ServiceManager
from kiosk.ui import theme
from kiosk.ui.controller import StationController
from kiosk.ui.screen import fill_screen
from kiosk.ui.startup import application, smoke_painted
from kiosk.ui.watchdog import Watchdog
from kiosk.ui.window import StationWindow

if TYPE_CHECKING:
    from kiosk.storage import StationStorage
    from kiosk.ui.checking import CheckingWindow
    from kiosk.ui.heartbeat import StationReport
    from kiosk.ui.judge import StorageFactory

__all__ = [
    "READINESS_RECHECK_MS",
    "restore_settings",
    "run_station",
    "settle_heap",
]

EXIT_OK = 0
SERVES_BY_ITSELF = marked("This screen turns into the ready screen by itself once that is done.")
ONE_LINE = marked("Type the command as one line.")
READINESS_RECHECK_MS = 2000  # a station that is not ready looks again this often (a SQLite read)


def settle_heap() -> None:
    """Set aside what start-up made, so that the garbage collector never walks it on a verdict's path.

    Start-up leaves ~70,000 objects the collector tracks (modules, Qt's wrappers, the screens,
    SQLAlchemy's) that live as long as the station. Python walks them all in a full collection,
    which it starts by itself after enough allocations, whatever the station is doing: ~45 ms of
    CPU, landing on a Tab now and then (bench/bench_alphabet.py saw 70-100 ms on two Tabs of 200).
    Collected once here, off the verdict path, and frozen (``gc.freeze``), they are left out of
    every later collection, which then walks only what was made since.
    """
    gc.collect()
    gc.freeze()


def inhibit_screensaver() -> object | None:
    """Ask the desktop not to blank the screen (best effort: freedesktop D-Bus, where present).

    Kiosk sessions without a desktop should also run ``xset s off -dpms`` (see the station guide).
    """
    try:
        from PySide6.QtDBus import QDBusConnection, QDBusInterface
    except ImportError:
        return None
    bus = QDBusConnection.sessionBus()
    if not bus.isConnected():
        return None
    saver = QDBusInterface(
        "org.freedesktop.ScreenSaver", "/org/freedesktop/ScreenSaver", "org.freedesktop.ScreenSaver", bus
    )
    if not saver.isValid():
        return None
    return saver.call("Inhibit", "challenge-kiosk", "a challenge station is running")


def no_pin_problem(where: StationData, user: str) -> Wording:
    """Why a station with no judge PIN serves nobody, said on its not-ready screen (in its language,
    where it keeps its data included) above the command that sets one."""
    return Wording(
        marked(
            "no judge PIN is set for {where}, so this station does not serve players. A judge "
            "sets one on this machine's terminal, as the user {user}, with:"
        ),
        where=where.described,
        user=user,
    )


def restore_settings(controller: StationController, storage: StationStorage) -> tuple[str, ...]:
    """At start-up: apply what a judge chose before the restart; return what could not be used."""
    from kiosk.core.station.settings import resolve_choice

    saved = storage.settings.load()
    if saved.division is None and saved.rule_profile is None and not saved.timings_ms:
        return ()
    choice, problems = resolve_choice(controller.config, saved.division, saved.rule_profile, saved.timings_ms)
    controller.apply_choice(choice)
    return problems


def run_station(
    config: StationConfig,
    divisions: Sequence[LoadedDivision],
    where: StationData,
    storage: StorageFactory,
    *,
    smoke: bool = False,
    kiosk_session: bool = False,
    set_pin_command: str = "kiosk set-pin",
    recheck_ms: int = READINESS_RECHECK_MS,
    argv: Sequence[str] = (),
    verifier: Verifier | None = None,
    service: ServiceManager | None = None,
    replacing: CheckingWindow | None = None,
) -> int:
    """Run the station until a judge leaves it from judge mode; return the exit code.

    The station serves players only once its storage is open and a judge PIN is set. If either
    is missing after the first frame: outside a kiosk session it says why on standard error and
    exits 2 (whoever started it has the terminal the fix is typed in); in a kiosk session it shows
    "Station not ready — call a judge" with the reason and the command, checks again every
    ``recheck_ms`` (off the verdict path: no player is served meanwhile) and serves players as
    soon as it can.

    ``verifier`` is how the packs were checked at start-up: a judge's reload checks them the same way.
    ``service`` is systemd, told when the first frame is painted and, from this event loop, that the
    station still answers (``kiosk.ui.watchdog``); by default whoever ``$NOTIFY_SOCKET`` names.
    ``replacing``: the "Checking the word list…" window of a first start, closed once the station's
    own first frame is painted (``kiosk.ui.checking``).
    """
    service = service or ServiceManager.from_environment()
    app = application(["kiosk", *argv])
    app.setApplicationName("challenge-kiosk")
    access = config.access  # the look every screen is built in, before the first one
    theme.use_look(theme.Look(high_contrast=access.high_contrast, large_text=access.large_text))
    data_dir = where.data_dir
    try:
        lock = lock_data_dir(data_dir)  # one station per data directory, held by the OS until we exit
    except KioskError as exc:
        if replacing is not None:
            replacing.done()
        problem = exc.wording
        print(f"error: {problem}", file=sys.stderr, flush=True)
        if kiosk_session:
            from kiosk.ui.notready import show_not_ready

            words = load_languages(config).station
            return show_not_ready(
                problem,
                screen_index=config.screen,
                smoke=smoke,
                t=words,
                service=service,
                speech=access.speech,
            )
        return EXIT_ERROR
    controller = StationController(config, divisions, lambda: storage().log, verifier=verifier)
    window = StationWindow(controller, storage, data_dir, set_pin_command=set_pin_command)
    if not config.touch:
        QApplication.setOverrideCursor(QCursor(Qt.CursorShape.BlankCursor))
    recheck = QTimer(window)
    recheck.setInterval(recheck_ms)
    reports: list[StationReport] = []  # made after the first frame: the director's heartbeats
    not_serving: list[str] = [""]  # why the station serves no player now, for systemd's status line

    def service_status() -> str:
        if not_serving[0]:
            return f"not ready: {not_serving[0]}"
        if window.judging:
            return f"judge mode open; serves {window.serving()}"
        return f"ready: {window.serving()}"

    watchdog = Watchdog(service, service_status, window)

    def problem_now() -> tuple[Text, str]:
        """What keeps the station from serving players (and the command that fixes it), or ("", "")."""
        try:
            controller.open_log()
            if not storage().judge_access.has_pin():
                return no_pin_problem(where, current_user()), set_pin_command
        except KioskError as exc:
            return exc.wording, ""
        return "", ""

    def serve_when_ready(*, first: bool) -> None:
        problem, command = problem_now()
        for report in reports:
            report.problem = f"{problem} {command}".strip()
        not_serving[0] = f"{problem} {command}".strip()
        if not first:  # the first look is said by READY=1's status
            watchdog.update()
        if problem:
            if not kiosk_session:
                print(f"error: {problem} {command}".rstrip(), file=sys.stderr, flush=True)
                app.exit(EXIT_ERROR)
                return
            if first or not window.not_ready:
                print(f"station not ready: {problem} {command}".rstrip(), file=sys.stderr, flush=True)
            t = controller.languages.station
            how = t.text(SERVES_BY_ITSELF)
            if command:
                how = f"{t.text(ONE_LINE)} {how}"
            window.show_not_ready(problem, command=command, how=how)
            recheck.start()
            return
        recheck.stop()
        if first or window.not_ready:
            try:
                for warning in restore_settings(controller, storage()):
                    print(f"warning: {warning}", file=sys.stderr)
            except KioskError as exc:
                print(f"warning: the settings a judge saved cannot be read: {exc}", file=sys.stderr)
        if window.not_ready:
            print("station ready: serving players", file=sys.stderr, flush=True)
        window.serve_again()

    recheck.timeout.connect(lambda: serve_when_ready(first=False))

    def after_first_frame() -> None:
        if replacing is not None:
            replacing.done()
        if smoke:
            # what the ready screen asks, in the station's language: the smoke test of a bundle sees
            # its translation catalogues at work (an OSError raised in this Qt slot would be
            # swallowed and never quit: smoke_painted says so and the loop ends with 2)
            asked = window.ready.prompt.text().split("\n")[0]
            app.exit(0 if smoke_painted("ready", asked) else EXIT_ERROR)  # quit() would ask the window
            return
        window.build_screens()
        from kiosk.ui.heartbeat import StationReport

        reports.append(StationReport(window, controller, storage))
        serve_when_ready(first=True)
        watchdog.up()  # after the first look: its status says whether the station serves
        reports[0].start()
        inhibit_screensaver()
        settle_heap()  # the storage is open (or cannot be): start-up has made what it keeps

    window.first_frame_painted.connect(
        lambda: QTimer.singleShot(0, after_first_frame), Qt.ConnectionType.QueuedConnection
    )
    left: list[bool] = []  # a judge left the station ("Exit the station")

    def leave() -> None:
        left.append(True)
        watchdog.leaving("left by a judge (judge mode: Exit the station)")
        app.exit(0)

    window.left.connect(leave)
    fill_screen(window, config.screen)
    code = app.exec()
    if left and reports:  # after the loop: the window stays as it was, the wait costs no frame
        reports[0].close()
    lock.release()
    service.close()
    return EXIT_OK if code == 0 else code
