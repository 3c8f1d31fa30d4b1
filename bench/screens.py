"""Render every station screen to PNG at 1920x1080 and 1024x600 (into docs/screenshots/).

    QT_QPA_PLATFORM=offscreen .venv/bin/python bench/screens.py [OUT_DIR] [--alphabets] [--languages]
    QT_QPA_PLATFORM=offscreen .venv/bin/python bench/screens.py [OUT_DIR] --access

(``--alphabets``: only the shots of packs in other alphabets, 80-93; ``--languages``: only the
Italian, Catalan, German, Polish and further French and Spanish shots, 100-149: a station walked
in each language, on a pack of its own alphabet, its judge mode and its not-ready screen;
``--access``: only the high contrast and large text shots, 150-155.)

Drives the real window through the real controller with key events, on the embedded pack; the
judge screens run over real storage in a temporary data directory (PIN 4826).
"""

from __future__ import annotations

import functools
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QCoreApplication, QEventLoop, QRect, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QApplication, QWidget

from kiosk.core.edition import KnownEdition, load_edition_table
from kiosk.core.errors import StorageError
from kiosk.core.judge import REMOVABLE_MEDIA_ROOTS
from kiosk.core.log.challenge import ChallengeEntry, ChallengeId, ChallengeLog
from kiosk.core.packs.lexicon import load_lexicon
from kiosk.core.play.adjudication import adjudicate
from kiosk.core.play.rules import PenaltyParty, ProfileKind, RuleProfile
from kiosk.core.play.session import Event, TileTyped, Typed
from kiosk.core.station.config import (
    Division,
    LoadedDivision,
    StationConfig,
    Verifier,
    load_config,
    load_divisions,
)
from kiosk.core.wording import Wording
from kiosk.core.words.alphabet import alphabets
from kiosk.paths import default_pack_path, known_editions_path
from kiosk.storage import StationStorage, open_station_storage
from kiosk.ui.app import ONE_LINE, SERVES_BY_ITSELF, no_pin_problem
from kiosk.ui.controller import StationController
from kiosk.ui.theme import Look, use_look
from kiosk.ui.window import StationWindow
from lexicon_build.builder import build_pack
from lexicon_build.recipe import Recipe, SourceSpec

SIZES = ((1920, 1080), (1024, 600))
ROOT = Path(__file__).resolve().parent.parent


class MemoryLog:
    def __init__(self) -> None:
        self.entries: list[ChallengeEntry] = []

    def record(self, entry: ChallengeEntry) -> None:
        self.entries.append(entry)


class BrokenLog:
    def record(self, entry: ChallengeEntry) -> None:
        raise StorageError("the disk is full")


def key(window: StationWindow, qt_key: Qt.Key, text: str = "") -> None:
    window.keyPressEvent(QKeyEvent(QKeyEvent.Type.KeyPress, qt_key, Qt.KeyboardModifier.NoModifier, text))


RIGHT = "\x1c"
IDLE_WARNING = "\x1d"  # stands for the idle timer running out: the countdown shows
ESCAPE = "\x1b"
ENTER = "\r"
DOWN = "\x1f"
SPECIAL_KEYS = {
    "\t": Qt.Key.Key_Tab,
    RIGHT: Qt.Key.Key_Right,
    ESCAPE: Qt.Key.Key_Escape,
    ENTER: Qt.Key.Key_Return,
    DOWN: Qt.Key.Key_Down,
}
PIN = "482613"


def settle(window: StationWindow) -> None:
    """Let judge mode's storage answer (it reads and writes on worker threads)."""
    judge = window._judge
    while judge is not None and judge.busy:
        QCoreApplication.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 10)
        time.sleep(0.001)


def drive(window: StationWindow, keys: str | list[str | Event]) -> None:
    """Type ``keys``; tab, escape and the file separator (for the right arrow) press those keys;
    an event among them (a touch key: ``TileTyped("CH")``) is sent as it is."""
    settle(window)
    for char in keys:
        if not isinstance(char, str):
            window.controller.dispatch(char)
        elif char == IDLE_WARNING:
            window.controller.idle_timer.timeout.emit()
            window.controller.idle_countdown.timeout.emit()
        elif char in SPECIAL_KEYS:
            key(window, SPECIAL_KEYS[char], char if char in "\t\r" else "")
        elif window.judging:
            key(window, Qt.Key.Key_unknown, char)
        else:
            window.controller.dispatch(Typed(char))
        settle(window)


def station(
    config: StationConfig, divisions: tuple[LoadedDivision, ...], size: tuple[int, int], log: ChallengeLog
) -> StationWindow:
    controller = StationController(config, divisions, lambda: log)
    window = StationWindow(controller)
    window.setGeometry(QRect(0, 0, *size))
    window.show()
    return window


def judge_window(
    config: StationConfig,
    divisions: tuple[LoadedDivision, ...],
    storage: StationStorage,
    data: Path,
    size: tuple[int, int],
) -> StationWindow:
    """A shown station over real storage, as ``kiosk station`` runs it: judge mode reads it."""
    controller = StationController(config, divisions, lambda: storage.log)
    window = StationWindow(controller, lambda: storage, data)
    window.setGeometry(QRect(0, 0, *size))
    window.show()
    return window


def main(out: Path) -> None:
    app = QApplication.instance() or QApplication(sys.argv)
    out.mkdir(parents=True, exist_ok=True)
    pack = default_pack_path()
    single = StationConfig(
        divisions=(Division("Open", pack),),
        station_name="Station 1",
        rules=RuleProfile(ProfileKind.PENALTY, penalty_party=PenaltyParty.CHALLENGER_LOSES),
    )
    double = StationConfig(
        divisions=(
            Division("Open", pack, second_opinion_pack=pack),
            Division("Schools", pack, youth_rules=True, colour="#7a3db8"),
        ),
        station_name="Station 2",
        rules=RuleProfile(ProfileKind.DOUBLE),
    )
    # The station in French (the IMU per-word penalty: the longest consequence) and in Spanish; an
    # English station whose second division speaks French.
    french = replace(
        single, language="fr", rules=RuleProfile(ProfileKind.PENALTY, penalty_party=PenaltyParty.BOTH)
    )
    spanish = replace(single, language="es")
    mixed = replace(
        double, divisions=(double.divisions[0], replace(double.divisions[1], name="Classique", language="fr"))
    )
    swedish = load_config(ROOT / "docs" / "examples" / "rules-swedish.toml", default_pack=pack).rules
    eight = (
        "8 overcommitment overrefinement interconnecting misadventurous "
        "overspeculated understatement overstimulates presidentships"
    )
    shots: list[tuple[str, StationConfig, ChallengeLog, str]] = [
        ("01-ready", single, MemoryLog(), ""),
        ("02-ready-divisions", double, MemoryLog(), ""),
        ("03-entry-typing", single, MemoryLog(), "3quixotry zax"),
        ("04-entry-refused-character", single, MemoryLog(), "2caf\u00e9"),
        ("05-confirm", single, MemoryLog(), "3quixotry zax quiz "),
        ("06-confirm-eight-long-words", single, MemoryLog(), eight + " "),
        ("07-verdict-acceptable", single, MemoryLog(), "3quixotry zax quiz\t"),
        ("08-verdict-unacceptable", single, MemoryLog(), "3quixotry zaxx quiz\t"),
        ("09-verdict-second-opinion", double, MemoryLog(), "21cat dogs\t"),
        ("10-verdict-eight-long-words", single, MemoryLog(), eight + "\t"),
        ("11-station-fault", single, BrokenLog(), "1cat\t"),
        ("13-touch-ready", replace(double, touch=True), MemoryLog(), ""),
        ("14-touch-entry", replace(single, touch=True), MemoryLog(), "2cat do"),
        ("28-division-choice", double, MemoryLog(), "3"),
        ("29-confirm-division-named", double, MemoryLog(), "22quixotry zax "),
        ("30-entry-word-too-long", single, MemoryLog(), "2quixotry antidisestablishment"),
        ("31-entry-idle-warning", single, MemoryLog(), "3quixotry za" + IDLE_WARNING),
        ("32-touch-division-choice", replace(double, touch=True), MemoryLog(), "1"),
        ("37-table-number", replace(double, ask_table=True), MemoryLog(), "214"),
        ("38-touch-table-number", replace(single, touch=True, ask_table=True), MemoryLog(), "114"),
        ("39-confirm-table-named", replace(double, ask_table=True), MemoryLog(), "214\r2quixotry zax "),
        ("40-verdict-swedish-rules", replace(single, rules=swedish), MemoryLog(), "3quixotry zax quiz\t"),
        ("60-fr-ready", french, MemoryLog(), ""),
        ("61-fr-entry-refused-character", french, MemoryLog(), "2quixotry caf\u00e9"),
        ("62-fr-confirm", french, MemoryLog(), "3quixotry zax quiz "),
        ("63-fr-verdict-acceptable", french, MemoryLog(), "3quixotry zax quiz\t"),
        ("64-fr-verdict-unacceptable", french, MemoryLog(), "3quixotry zaxx quiz\t"),
        ("65-es-ready", spanish, MemoryLog(), ""),
        ("66-es-entry-typing", spanish, MemoryLog(), "3quixotry za"),
        ("67-es-verdict-acceptable", spanish, MemoryLog(), "2quixotry zax\t"),
        ("68-es-verdict-unacceptable", spanish, MemoryLog(), "2quixotry zaxx\t"),
        ("69-es-touch-entry", replace(spanish, touch=True), MemoryLog(), "2cat do"),
        ("70-fr-division-beside-english", mixed, MemoryLog(), "22quixotry zax "),
        # a Cyrillic a typed for an a: named by its code point and its alphabet, in Spanish
        ("79-es-entry-refused-cyrillic-letter", spanish, MemoryLog(), "2quixotry z\u0430"),
    ]
    loaded: dict[int, tuple[LoadedDivision, ...]] = {}
    for name, config, log, keys in shots:
        divisions = loaded.setdefault(id(config.divisions), load_divisions(config))
        for width, height in SIZES:
            window = station(config, divisions, (width, height), log)
            drive(window, keys)
            app.processEvents()
            path = out / f"{name}-{width}x{height}.png"
            window.grab().save(str(path))
            window.controller.lockout_timer.stop()
            window.controller.verdict_timer.stop()
            window.controller.idle_timer.stop()
            window.controller.idle_countdown.stop()
            window.deleteLater()
            print(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)
    alphabet_shots(app, out)
    access_shots(app, out)
    judge_shots(app, out, double)
    edition_shots(app, out)
    waiting_shots(app, out, single)
    not_ready_shots(app, out)
    no_pin_shots(app, out, single)
    reload_shots(app, out, pack)
    language_shots(app, out)
    app.processEvents()


def access_shots(app: QCoreApplication, out: Path) -> None:
    """The [access] looks: high contrast and large text, on the screens a player meets (150-155)."""
    pack = default_pack_path()
    config = StationConfig(divisions=(Division("Open", pack),), station_name="Station 1")
    divisions = load_divisions(config)
    looks = (("high-contrast", Look(high_contrast=True)), ("large-text", Look(large_text=True)))
    touch = replace(config, touch=True)
    screens = (
        ("150", "ready", config, ""),
        ("151", "entry", config, "3quixotry za" + IDLE_WARNING),
        ("152", "confirm", config, "3quixotry zax quiz "),
        ("153", "verdict-acceptable", config, "3quixotry zax quiz\t"),
        ("154", "verdict-unacceptable", config, "3quixotry zaxx quiz\t"),
        ("155", "touch-entry", touch, "2cat do"),
    )
    for look_name, chosen in looks:
        before = use_look(chosen)
        try:
            for number, name, shown, keys in screens:
                for width, height in SIZES:
                    window = station(shown, divisions, (width, height), MemoryLog())
                    drive(window, keys)
                    save_station_shot(app, window, out / f"{number}-{look_name}-{name}-{width}x{height}.png")
        finally:
            use_look(before)


def edition_shots(app: QCoreApplication, out: Path) -> None:
    """The ready screen's edition badge: a club's published list (in an organiser's table of known
    editions), last year's list (three words short: not a published edition), that list built
    under the name NWL2023, and all of them on one station."""
    words = [w.upper() for w in (ROOT / "data" / "enable1.txt").read_text(encoding="ascii").split()]
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp)

        def pack(name: str, edition: str, listed: list[str], *, with_youth: bool = False) -> Path:
            source = folder / f"{name}-{edition}.txt"
            source.write_text("\n".join(listed) + "\n", encoding="ascii")
            exclusions = ROOT / "data" / "demo-youth-exclusions.txt" if with_youth else None
            recipe = Recipe(
                name=name,
                edition=edition,
                sources=(SourceSpec(source),),
                youth_exclusions=None if exclusions is None else SourceSpec(exclusions),
            )
            path = folder / f"{name}-{edition}.kxpack"
            path.write_bytes(build_pack(recipe).data)
            return path

        club = pack("Club list", "2024", words, with_youth=True)
        sevens = [w for w in words if len(w) == 7][:3]
        older = pack("Club list", "2023", [w for w in words if w not in sevens])
        claimed = pack("NWL2023", "2023-03", [w for w in words if w not in sevens])
        info = load_lexicon(club).info
        assert info.school_word_set is not None
        table = folder / "club-editions.tsv"
        table.write_text(
            "# The club's own lists, as the club publishes them\n"
            "lexicon\twords\tsha256_of_sorted_words\twords_by_length_2_to_15\n"
            + "".join(
                KnownEdition(name, facts.word_count, facts.digest, facts.counts_by_length).tsv_line() + "\n"
                for name, facts in (("CLUB2024", info.word_set), ("CLUBKIDS2024", info.school_word_set))
            ),
            encoding="utf-8",
        )
        verifier = Verifier(editions=load_edition_table(known_editions_path(), [table]))
        several = (
            Division("Open", club),
            Division("Schools", club, youth_rules=True, colour="#7a3db8"),
            Division("Social", older, colour="#a35200"),
            Division("Late", claimed, colour="#1d6fa5"),
        )
        for name, divisions, touch in (
            ("46-ready-edition-published", several[:1], False),
            ("47-ready-edition-not-published", several[2:3], False),
            ("48-ready-edition-name-not-the-words", several[3:], False),
            ("49-ready-editions-divisions", several, False),
            ("50-touch-ready-editions-divisions", several, True),
        ):
            config = StationConfig(divisions=divisions, station_name="Station 4", touch=touch)
            loaded = load_divisions(config, verifier)
            for width, height in SIZES:
                save_shot(
                    app,
                    station(config, loaded, (width, height), MemoryLog()),
                    out / f"{name}-{width}x{height}.png",
                )


# Our own words in each alphabet (no published list): enough to show the tiles and a verdict.
ALPHABET_LISTS = {
    "spanish": ["CHALLAPATEÑA", "CALLE", "PERRO", "COCHE", "NIÑO", "LLAMA", "CHE"],
    "catalan": ["COL·LECCIÓ", "CALL", "ANYS", "QUE", "FAÇANA", "CAVALL"],
    "polish": ["ŻÓŁW", "ŹDŹBŁO", "GĘŚ"],
    "italian": ["SCARABEO", "TESSERA", "GIOCATA", "CASA", "GATTO", "ZAINO"],
    "french": ["ÉTÉ", "COEUR", "GARÇON"],
    "german": ["ÄRGERN", "ÄRGER", "BÜCHER", "STRASSE", "ÖLIG", "ZUG", "ÜBER"],
}


def alphabet_pack(folder: Path, alphabet: str) -> Path:
    """A pack of our own words in ``alphabet`` (ALPHABET_LISTS), built by the real builder."""
    source = folder / f"{alphabet}.txt"
    source.write_text("".join(f"{word}\n" for word in ALPHABET_LISTS[alphabet]), encoding="utf-8")
    recipe = Recipe(name=f"{alphabet.title()} club list", sources=(SourceSpec(path=source),))
    path = folder / f"{alphabet}.kxpack"
    path.write_bytes(build_pack(replace(recipe, alphabet=alphabets()[alphabet])).data)
    return path


def taps(*tiles: str) -> list[str | Event]:
    """Touch-keyboard keys, one tile each."""
    return [TileTyped(tile) for tile in tiles]


def alphabet_shots(app: QCoreApplication, out: Path) -> None:
    """Stations judging with packs in other alphabets (issues 13 and 24): the touch keyboard of the
    pack's tiles in its players' layout, the entry and the check showing the tiles judged (tiles
    apart, typed with +, tapped one by one), refusals, the verdict."""
    with tempfile.TemporaryDirectory() as folder:
        packs = {name: alphabet_pack(Path(folder), name) for name in ALPHABET_LISTS}

        def config(alphabet: str, language: str, *, touch: bool = True) -> StationConfig:
            return StationConfig(
                divisions=(Division("Open", packs[alphabet]),),
                station_name="Station 1",
                language=language,
                touch=touch,
                rules=RuleProfile(ProfileKind.DOUBLE),
            )

        spanish, catalan, polish = config("spanish", "es"), config("catalan", "ca"), config("polish", "pl")
        spanish_keys = config("spanish", "es", touch=False)
        catalan_keys = config("catalan", "ca", touch=False)
        shots: list[tuple[str, StationConfig, str | list[str | Event]]] = [
            ("80-es-touch-tiles-entry", spanish, "2challapateña calle"),
            ("81-es-touch-tiles-confirm", spanish, "2challapateña calle "),
            ("82-es-verdict-tiles", spanish, "2challapateña calle\t"),
            ("83-es-entry-refused-k", spanish_keys, "1k"),
            ("84-ca-touch-tiles-entry", catalan, "2col·lecció anys"),
            ("85-pl-touch-entry", polish, "1żółw"),
            # the touch keyboard's C then H are two tiles, its CH key one
            (
                "86-es-touch-tiles-apart-confirm",
                spanish,
                ["2", *taps("CH", "E"), " ", *taps("C", "H", "E"), " "],
            ),
            # typed on a keyboard: + keeps letters apart (the tiles FISE forbids for CH and LL)
            ("87-es-entry-separator-confirm", spanish_keys, "3che c+he cal+le "),
            # K and W refused, said until the play is judged or cleared, however many keys follow
            ("88-es-entry-refused-kiwi", spanish_keys, "2kiwi ca"),
            # Catalan CALL is C A L L; COL·LECCIÓ typed with a full stop for the dot
            ("89-ca-entry-call-confirm", catalan_keys, "3call col.lecció cavall "),
            (
                "90-ca-touch-l-l-confirm",
                catalan,
                ["2", *taps("C", "A", "L", "L"), " ", *taps("C", "O", "L·L"), *"ecció "],
            ),
            ("91-es-verdict-separate-tiles", spanish_keys, "1c+he\t"),
            ("92-fr-touch-azerty-entry", config("french", "fr"), "1garçon"),
            ("93-de-touch-qwertz-entry", config("german", "de"), "1ärger"),
        ]
        loaded: dict[str, tuple[LoadedDivision, ...]] = {}
        for name, station_config, keys in shots:
            divisions = loaded.setdefault(
                str(station_config.divisions[0].pack), load_divisions(station_config)
            )
            for width, height in SIZES:
                window = station(station_config, divisions, (width, height), MemoryLog())
                drive(window, keys)
                save_station_shot(app, window, out / f"{name}-{width}x{height}.png")


def save_shot(app: QCoreApplication, window: QWidget, path: Path) -> None:
    """Paint ``window``, save it as ``path`` and let it go."""
    app.processEvents()
    window.grab().save(str(path))
    window.deleteLater()
    print(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)


def save_station_shot(app: QCoreApplication, window: StationWindow, path: Path) -> None:
    """``save_shot``, the station's timers stopped first (none fires on a window let go)."""
    controller = window.controller
    for timer in (
        controller.lockout_timer,
        controller.verdict_timer,
        controller.idle_timer,
        controller.idle_countdown,
    ):
        timer.stop()
    save_shot(app, window, path)


def not_ready_shots(app: QCoreApplication, out: Path) -> None:
    """A kiosk session whose pack failed verification: no station, the reason for the judge."""
    from kiosk.ui.notready import NotReadyWindow

    problem = (
        "/etc/challenge-kiosk/school.kxpack is damaged: its contents do not match their SHA-256 "
        "checksum; rebuild it with lexicon-build, or copy it again from the organiser's original"
    )
    read_only = (
        "the station's data directory /var/lib/challenge-kiosk cannot be written: it is on a "
        "read-only file system; give the station a folder on a writable disk"
    )
    for name, text in (("26-station-not-ready", problem), ("36-station-not-ready-read-only", read_only)):
        for width, height in SIZES:
            window = NotReadyWindow(text)
            window.setGeometry(0, 0, width, height)
            window.show()
            save_shot(app, window, out / f"{name}-{width}x{height}.png")


def no_pin_shots(app: QCoreApplication, out: Path, config: StationConfig) -> None:
    """A kiosk session with no judge PIN yet: it serves nobody and says how a judge sets one."""

    divisions = load_divisions(config)
    for width, height in SIZES:
        window = station(config, divisions, (width, height), MemoryLog())
        show_no_pin(window, config)
        save_shot(app, window, out / f"33-station-not-ready-no-pin-{width}x{height}.png")


def show_no_pin(window: StationWindow, config: StationConfig) -> None:
    """The not-ready screen of a station with no judge PIN yet, configured from
    /etc/challenge-kiosk/station.toml with data_dir /var/lib/challenge-kiosk, as app.py says it."""
    from kiosk.paths import station_data

    source = Path("/etc/challenge-kiosk/station.toml")
    configured = replace(config, source=source, data_dir=Path("/var/lib/challenge-kiosk"))
    where = station_data(configured)
    command = where.set_pin_command("/opt/challenge-kiosk/kiosk")
    t = window.controller.languages.station
    how = f"{t.text(ONE_LINE)} {t.text(SERVES_BY_ITSELF)}"
    window.show_not_ready(no_pin_problem(where, "kiosk"), command=command, how=how)


def reload_shots(app: QCoreApplication, out: Path, pack: Path) -> None:
    """Reload packs refused: the schools pack was truncated on disk after the station started; at
    an English station, and at a French one."""
    folder = Path(tempfile.gettempdir()) / "event-packs"  # a fixed path: the shot shows it
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir()
    try:
        open_pack = folder / "open.kxpack"
        school_pack = folder / "school.kxpack"
        for target in (open_pack, school_pack):
            shutil.copyfile(pack, target)
        config = StationConfig(
            divisions=(
                Division("Open", open_pack),
                Division("Schools", school_pack, youth_rules=True, colour="#7a3db8"),
            ),
            station_name="Station 2",
        )
        divisions = load_divisions(config)
        school_pack.write_bytes(school_pack.read_bytes()[:-4096])  # a copy cut short
        with tempfile.TemporaryDirectory() as data_folder:
            data = Path(data_folder)
            with open_station_storage(data, forward_in_background=False) as storage:
                storage.judge_access.set_pin(PIN)
                for name, language in (("27-judge", "en"), ("75-fr-judge", "fr")):
                    for width, height in SIZES:
                        speaking = replace(config, language=language)
                        window = judge_window(speaking, divisions, storage, data, (width, height))
                        drive(window, ESCAPE + PIN + ENTER + "2r")
                        app.processEvents()
                        path = out / f"{name}-packs-reload-refused-{width}x{height}.png"
                        window.grab().save(str(path))
                        window.judge.ticker.stop()
                        window.deleteLater()
                        print(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def waiting_shots(app: QCoreApplication, out: Path, config: StationConfig) -> None:
    """The PIN checked while another process holds the station database's write lock: the door
    says so, and answers Esc, instead of freezing."""
    divisions = load_divisions(config)
    with tempfile.TemporaryDirectory() as folder:
        data = Path(folder)
        with open_station_storage(data, forward_in_background=False) as storage:
            storage.judge_access.set_pin(PIN)
            for width, height in SIZES:
                window = judge_window(config, divisions, storage, data, (width, height))
                drive(window, ESCAPE + PIN)
                other = sqlite3.connect(storage.local_path, isolation_level=None)
                other.execute("BEGIN IMMEDIATE")
                key(window, Qt.Key.Key_Return, ENTER)
                shown_at = time.monotonic() + 0.5  # past the moment the door says it is checking
                while time.monotonic() < shown_at:
                    app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 10)
                path = out / f"45-judge-pin-checked-while-the-database-is-locked-{width}x{height}.png"
                window.grab().save(str(path))
                other.execute("ROLLBACK")
                other.close()
                settle(window)
                window.judge.ticker.stop()
                window.deleteLater()
                print(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)


def seed(storage: StationStorage, divisions: tuple[LoadedDivision, ...]) -> None:
    """A morning of challenges at three stations, for the recheck and the counts."""
    lexicon = divisions[0].lexicon
    now = datetime.now(UTC)
    plays = [
        ("Station 2", "Open", "QUIXOTRY ZAXX QUIZ", 3),
        ("Station 1", "Open", "CAT DOGS", 9),
        ("Station 3", "Schools", "JO QI", 15),
        ("Station 2", "Open", "OVERSPECULATED", 22),
        ("Station 1", "Open", "ZZZ", 40),
    ]
    for station_name, division, words, minutes_ago in plays:
        storage.log.record(
            ChallengeEntry(
                challenge_id=ChallengeId(uuid.uuid4()),
                judged_at=now - timedelta(minutes=minutes_ago),
                station=station_name,
                division=division,
                rule_profile="double",
                ruling=adjudicate(words.split(), lexicon, youth=division == "Schools"),
                edition_checked=True,  # as a station logs now: the demo pack is no published edition
            )
        )


def wrong_pins(storage: StationStorage, count: int) -> None:
    """``count`` wrong PINs, one a minute (as fast as the door listens), the last two minutes ago."""
    from kiosk.storage import JudgeAccess
    from kiosk.storage.database import open_engine, sqlite_url

    moments = iter(datetime.now(UTC) - timedelta(minutes=2 + count - n) for n in range(count))
    engine = open_engine(sqlite_url(storage.local_path))
    access = JudgeAccess(engine, where=str(storage.local_path), clock=lambda: next(moments))
    for _ in range(count):
        access.check_pin("111111")
    engine.dispose()


def deleted_log_error(shown_as: Path) -> Wording:
    """What the log says when its file was deleted under the station (a real one, in a temp dir),
    kept to be said in the station's language."""
    with tempfile.TemporaryDirectory() as folder, open_station_storage(Path(folder)) as storage:
        for path in Path(folder).glob("kiosk.sqlite3*"):
            path.unlink()
        entry = ChallengeEntry(
            challenge_id=ChallengeId(uuid.uuid4()),
            judged_at=datetime.now(UTC),
            station="Station 2",
            division="Open",
            rule_profile="double",
            ruling=adjudicate(["CAT"], load_lexicon(default_pack_path())),
        )
        try:
            storage.log.record(entry)
        except StorageError as exc:
            said = exc.wording
            values = {k: str(v).replace(folder, str(shown_as)) for k, v in said.values.items()}
            return Wording(said.message, **values)
    raise AssertionError("the deleted log was not noticed")


def judge_shots(app: QCoreApplication, out: Path, config: StationConfig) -> None:
    divisions = load_divisions(config)
    shots = [
        ("12-judge-pin", False, ESCAPE + "48"),
        ("15-judge-menu", False, ESCAPE + PIN + ENTER),
        ("16-judge-recheck", False, ESCAPE + PIN + ENTER + "1"),
        ("17-judge-packs", False, ESCAPE + PIN + ENTER + "2"),
        ("18-judge-settings", False, ESCAPE + PIN + ENTER + "3" + DOWN + RIGHT),
        ("19-judge-counts", False, ESCAPE + PIN + ENTER + "4"),
        ("20-judge-export-no-stick", False, ESCAPE + PIN + ENTER + "5"),
        ("21-judge-status", False, ESCAPE + PIN + ENTER + "6"),
        ("22-judge-exit-confirmation", False, ESCAPE + PIN + ENTER + "8"),
        ("23-judge-touch-pin-wait", True, ""),
        ("24-judge-touch-recheck", True, "1"),
        ("25-judge-export-written-to-stick", False, ESCAPE + PIN + ENTER + "5" + RIGHT + ENTER),
        ("34-judge-menu-after-wrong-pins", False, ESCAPE + PIN + ENTER),
        ("35-judge-status-log-deleted", False, ESCAPE + PIN + ENTER + "6"),
        ("71-fr-judge-pin", False, ESCAPE + "48"),
        ("72-fr-judge-menu-after-wrong-pins", False, ESCAPE + PIN + ENTER),
        ("73-fr-judge-recheck", False, ESCAPE + PIN + ENTER + "1" + DOWN),
        ("74-fr-judge-packs", False, ESCAPE + PIN + ENTER + "2"),
        ("76-fr-judge-settings-not-saved", False, ESCAPE + PIN + ENTER + "3" + DOWN + RIGHT + ESCAPE),
        ("77-fr-judge-export-written-to-stick", False, ESCAPE + PIN + ENTER + "5" + RIGHT + ENTER),
        ("78-fr-judge-status-log-deleted", False, ESCAPE + PIN + ENTER + "6"),
    ]
    with tempfile.TemporaryDirectory() as folder:
        data = Path(folder)
        with open_station_storage(data, forward_in_background=False) as storage:
            storage.judge_access.set_pin(PIN)
            seed(storage, divisions)
            for name, touch, keys in shots:
                for width, height in SIZES:
                    touched = replace(config, station_name="Station 2", touch=touch)
                    if "-fr-" in name:  # judge mode at a French station
                        touched = replace(touched, language="fr")
                    window = judge_window(touched, divisions, storage, data, (width, height))
                    controller = window.controller
                    if "stick" in name and "no-stick" not in name:
                        stick = data / "media" / "judge" / "USB STICK"  # stands for a mounted stick
                        stick.mkdir(parents=True, exist_ok=True)
                        window.judge.use_media((data / "media",), functools.partial(list, [stick]))
                    else:
                        window.judge.use_media(REMOVABLE_MEDIA_ROOTS, list)  # the machine's own would vary
                    if name in ("34-judge-menu-after-wrong-pins", "72-fr-judge-menu-after-wrong-pins"):
                        wrong_pins(storage, 37)
                    if name in ("35-judge-status-log-deleted", "78-fr-judge-status-log-deleted"):
                        controller.last_fault = deleted_log_error(data)
                    if name == "23-judge-touch-pin-wait":
                        for _ in range(3):
                            storage.judge_access.check_pin("111111")
                        window.open_judge_mode()
                    elif touch:
                        drive(window, ESCAPE + PIN + ENTER)
                    drive(window, keys)
                    if name == "23-judge-touch-pin-wait":
                        storage.judge_access.set_pin(PIN)  # clears the failures for the next shots
                    app.processEvents()
                    path = out / f"{name}-{width}x{height}.png"
                    window.grab().save(str(path))
                    window.judge.ticker.stop()
                    window.deleteLater()
                    print(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)


IMU = RuleProfile(ProfileKind.PENALTY, penalty_party=PenaltyParty.BOTH)  # the longest consequence
# Each language's station on a pack of its alphabet (100-149): the players' screens, then judge mode
# (after 37 wrong PINs; the packs, counted in its tiles; settings left unsaved) and the not-ready
# screen of a station with no judge PIN. (name, language, alphabet, touch, keys); "judge" keys are
# typed in judge mode, "no-pin" shows the not-ready screen.
LANGUAGE_SHOTS: list[tuple[str, str, str, bool, str]] = [
    ("100-it-ready", "it", "italian", False, ""),
    ("101-it-entry-refused-character", "it", "italian", False, "2casa gatt\u00f6"),
    ("102-it-confirm", "it", "italian", False, "3scarabeo tessera giocata "),
    ("103-it-verdict-acceptable", "it", "italian", False, "3scarabeo tessera giocata\t"),
    ("104-it-verdict-unacceptable", "it", "italian", False, "2scarabeo tesserra\t"),
    ("105-it-touch-entry", "it", "italian", True, "2casa ga"),
    ("106-it-judge-menu-after-wrong-pins", "it", "italian", False, "judge"),
    ("107-it-judge-packs", "it", "italian", False, "judge2"),
    ("108-it-judge-settings-not-saved", "it", "italian", False, "judge3" + DOWN + RIGHT + ESCAPE),
    ("109-it-not-ready-no-pin", "it", "italian", False, "no-pin"),
    ("110-ca-ready", "ca", "catalan", False, ""),
    ("111-ca-entry-refused-k", "ca", "catalan", False, "2anys k"),
    ("112-ca-confirm", "ca", "catalan", False, "2col\u00b7lecci\u00f3 fa\u00e7ana "),
    ("113-ca-verdict-acceptable", "ca", "catalan", False, "2col\u00b7lecci\u00f3 fa\u00e7ana\t"),
    ("114-ca-verdict-unacceptable", "ca", "catalan", False, "2anys fa\u00e7anes\t"),
    ("115-ca-touch-tiles-entry", "ca", "catalan", True, "2col\u00b7lecci\u00f3 fa"),
    ("116-ca-judge-menu-after-wrong-pins", "ca", "catalan", False, "judge"),
    ("117-ca-judge-packs-tiles", "ca", "catalan", False, "judge2"),
    ("118-ca-judge-settings-not-saved", "ca", "catalan", False, "judge3" + DOWN + RIGHT + ESCAPE),
    ("119-ca-not-ready-no-pin", "ca", "catalan", False, "no-pin"),
    ("120-fr-not-ready-no-pin", "fr", "english", False, "no-pin"),
    ("121-es-not-ready-no-pin", "es", "spanish", False, "no-pin"),
    ("122-es-judge-menu-after-wrong-pins", "es", "spanish", False, "judge"),
    ("123-es-judge-packs-tiles", "es", "spanish", False, "judge2"),
    ("130-de-ready", "de", "german", False, ""),
    ("131-de-entry-refused-character", "de", "german", False, "2bücher \u00e9"),
    ("132-de-verdict-acceptable", "de", "german", False, "3ärgern straße zug\t"),
    ("133-de-touch-entry", "de", "german", True, "2bücher stra"),
    ("134-de-judge-menu-after-wrong-pins", "de", "german", False, "judge"),
    ("135-de-not-ready-no-pin", "de", "german", False, "no-pin"),
    ("140-pl-ready", "pl", "polish", False, ""),
    ("141-pl-confirm", "pl", "polish", False, "3\u017c\u00f3\u0142w \u017ad\u017ab\u0142o g\u0119\u015b "),
    ("142-pl-verdict-unacceptable", "pl", "polish", False, "2\u017c\u00f3\u0142w g\u0119\u015bi\t"),
    ("143-pl-judge-menu-after-wrong-pins", "pl", "polish", False, "judge"),
    ("144-pl-not-ready-no-pin", "pl", "polish", False, "no-pin"),
]


def language_shots(app: QCoreApplication, out: Path) -> None:
    with tempfile.TemporaryDirectory() as folder:
        packs = {name: alphabet_pack(Path(folder), name) for name in ALPHABET_LISTS}
        packs["english"] = default_pack_path()
        loaded: dict[str, tuple[LoadedDivision, ...]] = {}
        data = Path(folder) / "data"
        with open_station_storage(data, forward_in_background=False) as storage:
            storage.judge_access.set_pin(PIN)
            for name, language, alphabet, touch, keys in LANGUAGE_SHOTS:
                config = StationConfig(
                    divisions=(Division("Open", packs[alphabet]),),
                    station_name="Station 1",
                    language=language,
                    touch=touch,
                    rules=IMU,
                )
                divisions = loaded.setdefault(alphabet, load_divisions(config))
                for width, height in SIZES:
                    if keys.startswith("judge"):
                        storage.judge_access.set_pin(PIN)  # clears the wrong PINs of the last shot
                        wrong_pins(storage, 37)
                        window = judge_window(config, divisions, storage, data, (width, height))
                        window.judge.use_media(REMOVABLE_MEDIA_ROOTS, list)  # the machine's own would vary
                        drive(window, ESCAPE + PIN + ENTER + keys.removeprefix("judge"))
                    else:
                        window = station(config, divisions, (width, height), MemoryLog())
                        if keys == "no-pin":
                            show_no_pin(window, config)
                        else:
                            drive(window, keys)
                    app.processEvents()
                    path = out / f"{name}-{width}x{height}.png"
                    window.grab().save(str(path))
                    for timer in (
                        window.controller.lockout_timer,
                        window.controller.verdict_timer,
                        window.controller.idle_timer,
                        window.controller.idle_countdown,
                    ):
                        timer.stop()
                    if window.judging:
                        window.judge.ticker.stop()
                    window.deleteLater()
                    print(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)


if __name__ == "__main__":
    # compiled first: an edited .po shows in the shots, never a stale .mo
    subprocess.run([sys.executable, str(ROOT / "packaging" / "catalogues.py")], check=True)
    arguments = [a for a in sys.argv[1:] if a not in ("--alphabets", "--languages", "--access")]
    folder = Path(arguments[0]) if arguments else ROOT / "docs" / "screenshots"
    if "--alphabets" in sys.argv[1:] or "--languages" in sys.argv[1:]:
        application = QApplication.instance() or QApplication(sys.argv)
        folder.mkdir(parents=True, exist_ok=True)
        if "--alphabets" in sys.argv[1:]:
            alphabet_shots(application, folder)
        if "--languages" in sys.argv[1:]:
            language_shots(application, folder)
    elif "--access" in sys.argv[1:]:
        application = QApplication.instance() or QApplication(sys.argv)
        folder.mkdir(parents=True, exist_ok=True)
        access_shots(application, folder)
    else:
        main(folder)
