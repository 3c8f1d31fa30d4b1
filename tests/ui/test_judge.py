"""Judge mode on a real window over real SQLite storage: the door, the screens, the only way out."""

from __future__ import annotations

import csv
import os
import shutil
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractButton, QLabel, QWidget
from pytestqt.qtbot import QtBot

from kiosk.core.play.rules import ProfileKind
from kiosk.core.play.session import Screen
from kiosk.core.station.config import Division, JudgeSettings
from kiosk.core.station.pin import PinOutcome
from kiosk.storage import JudgeAccess
from kiosk.storage.database import open_engine, sqlite_url
from kiosk.ui.app import restore_settings
from kiosk.ui.window import StationWindow
from tests.ui.conftest import PIN, JudgeFactory, JudgeRig, MemoryLog, click, press, tab, type_text
from tests.ui.test_fit import assert_every_text_fits

Mod = Qt.KeyboardModifier
K = Qt.Key


def enter(window: StationWindow) -> None:
    press(window, K.Key_Return, "\r")


def unlock(rig: JudgeRig, pin: str = PIN) -> None:
    press(rig.window, K.Key_Escape)
    type_text(rig.window, pin)
    enter(rig.window)
    assert shown(rig.window) is rig.window.judge.menu


def shown(window: StationWindow) -> QWidget:
    """The judge page in front (a function, so that type checkers do not narrow it)."""
    return window.judge.current


def screen(rig: JudgeRig) -> Screen:
    return rig.controller.state.screen


def visible_texts(widget: QWidget) -> str:
    texts = [
        w.text()
        for w in widget.findChildren(QLabel) + widget.findChildren(QAbstractButton)
        if w.isVisible() and w.text()
    ]
    return "\n".join(texts)


def test_the_pin_opens_judge_mode_and_esc_returns_to_the_station(judge_station: JudgeFactory) -> None:
    rig = judge_station()
    window = rig.window
    press(window, K.Key_Escape)
    assert window.judge.door.title.text() == "Judge PIN"
    type_text(window, PIN[:2])
    assert window.judge.door.dots.text() == "\u25cf \u25cf"
    assert PIN[:2] not in visible_texts(window)
    type_text(window, PIN[2:])
    enter(window)
    assert shown(window) is window.judge.menu
    press(window, K.Key_Escape)
    assert window.stack.currentWidget() is window.ready
    assert not window.judging


def test_wrong_pin_back_off_survives_a_restart(judge_station: JudgeFactory) -> None:
    rig = judge_station()
    press(rig.window, K.Key_Escape)
    for _ in range(3):  # three free tries; the fourth must wait
        type_text(rig.window, "111111")
        enter(rig.window)
    door = rig.window.judge.door
    assert door.shut
    assert "3 wrong PINs in a row. Next try in 0:0" in door.message.source
    assert rig.storage.judge_access.attempts().failures == 3
    rig.storage.close()
    rig.window.hide()

    again = judge_station(pin=None)  # a new storage and window on the same data directory
    press(again.window, K.Key_Escape)
    door = again.window.judge.door
    assert door.shut
    assert "Next try in 0:0" in door.message.source
    type_text(again.window, PIN)
    enter(again.window)
    assert again.window.judge.current is door
    assert again.window.judge.session is None
    assert again.storage.judge_access.attempts().failures == 3  # the right PIN was not even heard


def test_per_word_results_appear_only_in_judge_mode(judge_station: JudgeFactory) -> None:
    rig = judge_station()
    window = rig.window
    type_text(window, "2cat catx")
    tab(window)
    assert window.stack.currentWidget() is window.verdict
    shown = visible_texts(window)
    assert "UNACCEPTABLE" in shown
    for judge_only in ("not in the lexicon", "acceptable\n", "\u2717", "\u2713"):
        assert judge_only not in shown
    rig.controller.lockout_timer.timeout.emit()
    press(window, K.Key_Space, " ")
    assert window.stack.currentWidget() is window.ready
    assert "not in the lexicon" not in visible_texts(window)

    unlock(rig)
    type_text(window, "1")
    recheck = window.judge.recheck
    assert window.judge.current is recheck
    assert recheck.words[0].isVisible()
    assert recheck.words[0].text() == "\u2713 CAT \u2014 acceptable"
    assert recheck.words[1].text() == "\u2717 CATX \u2014 not in the lexicon"
    assert "UNACCEPTABLE" in recheck.heading.text()
    assert "Station 7" in recheck.rows[0].text()


def test_exit_works_only_from_judge_mode_after_a_confirmation(
    judge_station: JudgeFactory, qtbot: QtBot
) -> None:
    rig = judge_station()
    window = rig.window
    with qtbot.assertNotEmitted(window.left):
        assert not window.close()
        press(window, K.Key_F4, "", Mod.AltModifier)
        press(window, K.Key_Q, "\x11", Mod.ControlModifier)
        press(window, K.Key_W, "\x17", Mod.ControlModifier)
        press(window, K.Key_Q, "Q", Mod.ControlModifier | Mod.AltModifier | Mod.ShiftModifier)
        press(window, K.Key_Escape)  # the door: nothing leaves from here either
        press(window, K.Key_Q, "Q", Mod.ControlModifier | Mod.AltModifier | Mod.ShiftModifier)
        enter(window)
        type_text(window, PIN)
        enter(window)
        type_text(window, "8")
        assert shown(window) is window.judge.exit_page
        assert window.judge.exit_page.headline.text() == "Exit the station?"
        press(window, K.Key_Escape)  # cancel
        assert shown(window) is window.judge.menu
        assert not window.close()
    assert window.isVisible()
    type_text(window, "8")
    with qtbot.waitSignal(window.left, timeout=1000):
        enter(window)
    assert not window.isVisible()


def test_judge_mode_locks_itself_when_left_idle(judge_station: JudgeFactory) -> None:
    rig = judge_station(judge=JudgeSettings(idle_lock_seconds=30))
    window = rig.window
    unlock(rig)
    rig.advance(29)
    assert window.judging
    assert window.judge.lock.text() == "Locks in 0:01"
    type_text(window, "2")  # any key restarts the idle time
    rig.advance(29)
    assert window.judge.current is window.judge.packs
    click(window, window.judge.menu.buttons[next(iter(window.judge.menu.buttons))])
    rig.advance(29)
    assert window.judging
    rig.advance(1)
    assert not window.judging
    assert window.stack.currentWidget() is window.ready
    press(window, K.Key_Escape)
    assert window.judge.current is window.judge.door  # the PIN again


def test_a_settings_switch_applies_at_once_and_survives_a_restart(
    judge_station: JudgeFactory, pack: Path
) -> None:
    divisions = (Division("Open", pack), Division("Schools", pack, youth_rules=True, colour="#7a3db8"))
    rig = judge_station(divisions=divisions)
    window = rig.window
    unlock(rig)
    type_text(window, "3")
    settings = window.judge.settings
    assert settings.lines[0][0].text() == "Divisions served"
    assert settings.lines[0][2].text() == "every division: players choose"
    press(window, K.Key_Right)
    press(window, K.Key_Right)  # only Schools: the station in the schools' room
    assert settings.lines[0][2].text() == "only Schools"
    press(window, K.Key_Down)
    press(window, K.Key_Right)  # challenge rule: double -> penalty
    assert "Not saved yet" in settings.notice.source
    assert list(rig.controller.state.served) == [0, 1]
    enter(window)
    assert settings.notice.source == "Saved and applied; kept after a restart"
    assert list(rig.controller.state.served) == [1]
    assert rig.controller.config.rules.kind is ProfileKind.PENALTY
    assert window.header.division.text() == "Division: Schools"
    saved = rig.storage.settings.load()
    assert (saved.division, saved.rule_profile) == ("Schools", "penalty-5-challenger_loses")
    press(window, K.Key_Escape)
    type_text(window, "7")  # back to the station
    assert window.ready.division.text() == "This station judges the Schools division only"
    type_text(window, "1za")  # no division to choose: the judge chose it for every challenge
    assert "the division (Schools)" in window.entry.prompt.text()
    tab(window)
    assert "5 points" in window.verdict.outcome.text()
    assert window.verdict.lexicon.text().startswith("Division Schools")

    rig.storage.close()
    again = judge_station(pin=None, divisions=divisions)
    assert list(again.controller.state.served) == [0, 1]  # the configuration, until the storage is read
    assert restore_settings(again.controller, again.storage) == ()
    assert list(again.controller.state.served) == [1]
    assert again.controller.config.rules.name == "penalty-5-challenger_loses"


def test_export_writes_the_log_to_a_csv_in_the_data_dir(judge_station: JudgeFactory, tmp_path: Path) -> None:
    rig = judge_station()
    window = rig.window
    type_text(window, "2cat catx")
    tab(window)
    rig.controller.verdict_timer.timeout.emit()
    unlock(rig)
    type_text(window, "5")
    export = window.judge.export
    assert str(tmp_path / "data" / "exports") in export.text.source
    enter(window)
    assert export.written is not None
    assert export.written.parent == tmp_path / "data" / "exports"
    assert str(export.written) in export.text.source
    assert "Wrote 1 challenge to this station's data folder:" in export.text.source
    rows = list(csv.DictReader(export.written.open(encoding="utf-8")))
    assert [(r["words"], r["verdict"]) for r in rows] == [("CAT CATX", "UNACCEPTABLE")]
    assert rows[0]["word_results"] == "CAT: acceptable; CATX: not in the lexicon"


def two_challenges_one_unreadable(rig: JudgeRig, data: Path) -> None:
    """Two challenges judged, the first then made unreadable (a verdict no kiosk knows), as
    another kiosk or a hand edit could leave it."""
    import sqlite3

    for words in ("1qi", "1cat"):
        type_text(rig.window, words)
        tab(rig.window)
        rig.controller.verdict_timer.timeout.emit()
    with sqlite3.connect(data / "kiosk.sqlite3") as conn:
        conn.execute("UPDATE challenge SET verdict = 'MAYBE' WHERE rowid = 1")


def test_an_export_says_how_many_challenges_it_could_not_read(
    judge_station: JudgeFactory, tmp_path: Path
) -> None:
    rig = judge_station()
    window = rig.window
    two_challenges_one_unreadable(rig, tmp_path / "data")
    unlock(rig)
    type_text(window, "5")
    enter(window)
    export = window.judge.export
    assert export.written is not None
    assert "Wrote 1 challenge to this station's data folder:" in export.text.source
    assert "1 challenge in the log cannot be read and is left out of the file." in export.text.source
    assert len(list(csv.DictReader(export.written.open(encoding="utf-8")))) == 1
    assert_every_text_fits(window)


def test_counts_packs_and_status_screens(judge_station: JudgeFactory) -> None:
    rig = judge_station()
    window = rig.window
    type_text(window, "1cat")
    tab(window)
    rig.controller.verdict_timer.timeout.emit()
    unlock(rig)
    type_text(window, "4")
    assert "Station 7  (this station): 1" in window.judge.counts.text.source
    press(window, K.Key_Escape)
    type_text(window, "2")
    packs = window.judge.packs.text.source
    assert "Club list \u2014 edition 2026: Open" in packs
    assert "7 words" in packs
    assert "unsigned" in packs
    press(window, K.Key_Escape)
    type_text(window, "6")
    status = window.judge.status.text.source
    assert "This station's log (SQLite)" in status
    assert "Kept in memory after a log failure: 0" in status


def test_a_touch_judge_gets_in_with_taps(judge_station: JudgeFactory) -> None:
    rig = judge_station(touch=True)
    window = rig.window
    button = window.ready.judge_button
    assert button is not None
    assert button.isVisible()
    assert button.height() < window.height() // 10  # small and out of the way
    click(window, button)
    door = window.judge.door
    assert door.title.text() == "Judge PIN"
    for label in (*PIN, "OK"):
        click(window, door.keys[label])
    assert shown(window) is window.judge.menu
    assert_every_text_fits(window)
    click(window, window.judge.menu.buttons[next(reversed(window.judge.menu.buttons))])
    assert shown(window) is window.judge.exit_page


@pytest.mark.parametrize("touch", [False, True])
def test_with_no_pin_set_the_door_never_offers_to_set_one(judge_station: JudgeFactory, touch: bool) -> None:
    """Whoever presses Esc first may be a player: no PIN is ever chosen at the station."""
    rig = judge_station(pin=None, touch=touch)
    window = rig.window
    press(window, K.Key_Escape)
    door = window.judge.door
    assert door.title.text() == "No judge PIN is set"
    assert "Set one on this machine's terminal:\nkiosk set-pin" in door.message.source
    for _ in range(2):  # typed twice, as the old door asked for a new PIN
        type_text(window, "135791")
        enter(window)
        if touch:
            for label in ("1", "OK"):
                assert not door.keys[label].isEnabled()
    assert shown(window) is door
    assert window.judge.session is None
    assert not rig.storage.judge_access.has_pin()


def test_the_judge_who_comes_in_hears_how_many_wrong_pins_came_before(judge_station: JudgeFactory) -> None:
    rig = judge_station()
    for _ in range(3):
        rig.storage.judge_access.check_pin("000000")
    rig.storage.judge_access.set_pin(PIN)  # (clears them: the count shown is since the last right PIN)
    for _ in range(2):
        rig.storage.judge_access.check_pin("111111")
    unlock(rig)
    warning = rig.window.judge.menu.warning
    assert warning.isVisible()
    assert warning.text().startswith("Before this PIN: 2 wrong PINs in a row, the last at ")
    assert_every_text_fits(rig.window)
    press(rig.window, K.Key_Escape)
    unlock(rig)  # the next judge: nothing new to report
    assert not rig.window.judge.menu.warning.isVisible()


def test_a_log_deleted_under_the_running_station_gives_the_fault_not_a_verdict(
    judge_station: JudgeFactory, tmp_path: Path
) -> None:
    rig = judge_station()
    type_text(rig.window, "1cat")
    tab(rig.window)
    assert screen(rig) is Screen.VERDICT
    rig.controller.verdict_timer.timeout.emit()
    for path in (tmp_path / "data").glob("kiosk.sqlite3*"):
        path.unlink()
    type_text(rig.window, "1dog")
    tab(rig.window)
    assert screen(rig) is Screen.FAULT
    assert rig.window.stack.currentWidget() is rig.window.fault
    assert [e.ruling.words for e in rig.controller.unrecorded] == [("DOG",)]
    unlock(rig)
    type_text(rig.window, "6")
    assert "was deleted while the station was running" in rig.window.judge.status.text.source


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ("empty", "was emptied while the station was running"),
        ("copy", "was written over in place by another file"),
    ],
)
def test_a_log_changed_in_place_under_the_running_station_gives_the_fault_not_a_verdict(
    judge_station: JudgeFactory, tmp_path: Path, change: str, said: str
) -> None:
    """``: > kiosk.sqlite3`` or ``cp other.sqlite3 kiosk.sqlite3``: the inode stays, the log goes."""
    from kiosk.storage import open_station_storage

    with open_station_storage(tmp_path / "other"):
        pass
    rig = judge_station()
    type_text(rig.window, "1cat")
    tab(rig.window)
    assert screen(rig) is Screen.VERDICT
    rig.controller.verdict_timer.timeout.emit()
    log = tmp_path / "data" / "kiosk.sqlite3"
    if change == "empty":
        log.open("w").close()
    else:
        shutil.copyfile(tmp_path / "other" / "kiosk.sqlite3", log)
    type_text(rig.window, "1dog")
    tab(rig.window)
    assert screen(rig) is Screen.FAULT
    assert [e.ruling.words for e in rig.controller.unrecorded] == [("DOG",)]
    unlock(rig)
    type_text(rig.window, "6")
    assert said in rig.window.judge.status.text.source


def test_the_touch_keypad_is_shut_while_the_back_off_runs(judge_station: JudgeFactory) -> None:
    rig = judge_station(touch=True)
    for _ in range(3):
        assert not rig.storage.judge_access.check_pin("000000").accepted
    click(rig.window, rig.window.ready.judge_button)  # type: ignore[arg-type]
    door = rig.window.judge.door
    assert not door.keys["1"].isEnabled()
    assert not door.keys["OK"].isEnabled()
    assert door.keys["CANCEL"].isEnabled()
    click(rig.window, door.keys["CANCEL"])
    assert rig.window.stack.currentWidget() is rig.window.ready


def test_a_fault_is_cleared_from_judge_mode(judge_station: JudgeFactory) -> None:
    broken = MemoryLog()
    broken.failing = True
    rig = judge_station(log=broken)
    type_text(rig.window, "1cat")
    tab(rig.window)
    assert rig.controller.state.screen is Screen.FAULT
    unlock(rig)
    type_text(rig.window, "1")
    assert rig.window.judge.recheck.rows[0].full_text.startswith("NOT IN THE LOG")
    assert rig.window.judge.recheck.words[0].text() == "\u2713 CAT \u2014 acceptable"
    press(rig.window, K.Key_Escape)
    type_text(rig.window, "6")
    assert "Kept in memory after a log failure: 1" in rig.window.judge.status.text.source
    broken.failing = False
    type_text(rig.window, "r")
    assert rig.window.judge.status.notice.source == "All kept challenges are now in the log"
    assert [e.ruling.words for e in broken.entries] == [("CAT",)]
    press(rig.window, K.Key_Escape)
    type_text(rig.window, "7")
    assert screen(rig) is Screen.READY
    assert rig.window.stack.currentWidget() is rig.window.ready


@pytest.mark.parametrize("size", [(1024, 600), (1280, 800), (1366, 768), (1920, 1080), (3840, 2160)])
def test_every_judge_screen_fits(judge_station: JudgeFactory, pack: Path, size: tuple[int, int]) -> None:
    divisions = (Division("Open", pack), Division("Schools", pack, youth_rules=True))
    rig = judge_station(size=size, divisions=divisions)
    window = rig.window
    type_text(window, "81" + " ".join(["WWWWWWWWWWWWWWW"] * 8))
    tab(window)
    rig.controller.verdict_timer.timeout.emit()
    unlock(rig)
    assert_every_text_fits(window)
    for button in window.judge.menu.buttons.values():
        assert button.text() == button.full_text  # a menu choice is never cut short
    for key in "123456":
        type_text(window, key)
        assert_every_text_fits(window)
        if key == "3":  # with a change not saved yet, and its notice
            press(window, K.Key_Down)
            press(window, K.Key_Right)
            assert_every_text_fits(window)
            press(window, K.Key_Escape)
            assert_every_text_fits(window)
        press(window, K.Key_Escape)
    type_text(window, "8")
    assert_every_text_fits(window)


def test_export_says_when_no_stick_is_found_and_finds_one_plugged_in_later(
    judge_station: JudgeFactory, tmp_path: Path
) -> None:
    rig = judge_station()
    window = rig.window
    type_text(window, "1cat")
    tab(window)
    rig.controller.verdict_timer.timeout.emit()
    media = tmp_path / "media"
    mounted: list[Path] = []
    export = window.judge.export
    window.judge.use_media((media,), lambda: list(mounted))
    unlock(rig)
    type_text(window, "5")
    text = export.text.source
    assert "No USB stick found. Plug one in: it appears here by itself." in text
    assert f"mounts it under {media}" in text
    assert "Save to this station's data folder:" in text
    stick = media / "judge" / "STICK"
    stick.mkdir(parents=True)
    mounted.append(stick)
    rig.advance(1.0)  # the page looks for sticks every second
    assert "Save to the USB stick (1 of 1):" in export.text.source
    assert str(stick) in export.text.source
    enter(window)
    assert export.written is not None
    assert export.written.parent == stick
    text = export.text.source
    assert "Wrote 1 challenge to the USB stick:" in text
    assert str(export.written) in text
    assert "you can take the stick out now" in text
    assert [r["words"] for r in csv.DictReader(export.written.open(encoding="utf-8"))] == ["CAT"]
    mounted.clear()
    rig.advance(1.0)  # the stick is gone: the page says what it wrote until the judge moves on
    assert "Wrote 1 challenge" in export.text.source
    press(window, K.Key_Right)
    assert "No USB stick found" in export.text.source
    assert_every_text_fits(window)


def test_the_recheck_keeps_one_type_size_for_rows_and_for_a_cards_words(judge_station: JudgeFactory) -> None:
    rig = judge_station()
    window = rig.window
    mixed = "8cat " + " ".join(["WWWWWWWWWWWWWWW"] * 3) + " qi za dog dogs"
    for words in ("1qi", "8" + " ".join(["WWWWWWWWWWWWWWW"] * 8), mixed):
        type_text(window, words)
        tab(window)
        rig.controller.verdict_timer.timeout.emit()
    unlock(rig)
    type_text(window, "1")
    recheck = window.judge.recheck
    assert len({row.font().pixelSize() for row in recheck.rows if row.full_text}) == 1
    assert recheck.rows[1].text().endswith("\u2026")  # eight long words: cut short here, whole below
    shown_words = [label for label in recheck.words if label.text()]
    assert [label.text()[2:] for label in shown_words][:2] == [
        "CAT \u2014 acceptable",
        "WWWWWWWWWWWWWWW \u2014 not in the lexicon",
    ]
    assert len({label.font().pixelSize() for label in shown_words}) == 1


def test_a_challenge_the_log_cannot_read_is_left_out_of_the_recheck_and_named(
    judge_station: JudgeFactory, tmp_path: Path
) -> None:
    """One row no reader understands (written by another kiosk, or by hand) hides nothing else."""
    rig = judge_station()
    window = rig.window
    two_challenges_one_unreadable(rig, tmp_path / "data")
    unlock(rig)
    type_text(window, "1")
    recheck = window.judge.recheck
    listed = [row.full_text for row in recheck.rows if row.full_text]
    assert len(listed) == 2  # the other challenge, then what the list leaves out
    assert listed[1].startswith("1 challenge cannot be read and is left out: ")
    assert listed[1].endswith(" (Station 7)")
    assert not recheck.rows[1].isEnabled()
    assert_every_text_fits(window)
    shots = os.environ.get("KIOSK_SHOTS")
    if shots:
        window.grab().save(str(Path(shots) / "judge-recheck-row-left-out.png"))


def test_esc_never_throws_unsaved_settings_away_silently(judge_station: JudgeFactory) -> None:
    rig = judge_station()
    window = rig.window
    unlock(rig)
    type_text(window, "3")
    settings = window.judge.settings
    press(window, K.Key_Right)  # challenge rule: double -> penalty
    press(window, K.Key_Escape)
    assert shown(window) is settings  # not left: told first
    assert settings.notice.source == (
        "The changes are not saved. Enter saves and applies them; Esc again leaves them unsaved"
    )
    enter(window)
    assert rig.controller.config.rules.kind is ProfileKind.PENALTY
    press(window, K.Key_Escape)
    assert shown(window) is window.judge.menu  # saved: Esc leaves at once

    type_text(window, "3")
    press(window, K.Key_Right)  # penalty -> free, not saved
    press(window, K.Key_Escape)
    press(window, K.Key_Escape)  # the second Esc leaves them unsaved, as it said
    assert shown(window) is window.judge.menu
    assert rig.controller.config.rules.kind is ProfileKind.PENALTY
    type_text(window, "3")
    assert settings.notice.source == ""


def test_unsaved_settings_outlive_the_idle_lock_and_say_so(judge_station: JudgeFactory) -> None:
    rig = judge_station()
    window = rig.window
    unlock(rig)
    type_text(window, "3")
    press(window, K.Key_Right)
    rig.advance(61)  # judge mode locks itself
    assert not window.judging
    unlock(rig)
    type_text(window, "3")
    settings = window.judge.settings
    assert settings.notice.source == "Not saved yet: changes kept from before"
    assert settings.lines[0][2].text() == "5-point per-word penalty"
    assert rig.controller.config.rules.kind is ProfileKind.DOUBLE  # nothing applied meanwhile


def test_a_long_log_error_stays_readable_on_the_status_page(
    judge_station: JudgeFactory, tmp_path: Path
) -> None:
    """The page used to shrink every line to ~12 px to fit one long error on one line."""
    for size in ((1024, 600), (1920, 1080)):
        rig = judge_station(size=size)
        type_text(rig.window, "1cat")
        tab(rig.window)
        rig.controller.verdict_timer.timeout.emit()
        for path in (tmp_path / "data").glob("kiosk.sqlite3*"):
            path.unlink()
        type_text(rig.window, "1dog")
        tab(rig.window)
        unlock(rig)
        type_text(rig.window, "6")
        status = rig.window.judge.status
        assert "was deleted while the station was running" in status.text.source
        assert status.text.font().pixelSize() >= size[1] // 30
        assert_every_text_fits(rig.window)
        rig.storage.close()
        rig.window.hide()


def test_the_window_title_names_the_station_once(judge_station: JudgeFactory) -> None:
    default = judge_station(station_name="Challenge station")  # the name a station has by default
    assert default.window.windowTitle() == "Challenge station"
    assert judge_station(station_name="Table 3").window.windowTitle() == "Challenge station \u2014 Table 3"


TOO_SOON = {  # what the door says to a PIN typed during a wait, in each language of the catalogue
    "en": ("Too soon: that PIN was not checked. Wait 0:0",
           "Too soon: that PIN was not checked. Type it again"),
    "fr": ("Trop tôt\u00a0: ce code n'a pas été vérifié. Attendez 0:0",
           "Trop tôt\u00a0: ce code n'a pas été vérifié. Tapez-le à nouveau"),
    "es": ("Demasiado pronto: ese PIN no se ha comprobado. Espere 0:0",
           "Demasiado pronto: ese PIN no se ha comprobado. Vuelva a escribirlo"),
}  # fmt: skip
WRONG = {"en": "wrong", "fr": "erron", "es": "err\u00f3ne"}


@pytest.mark.parametrize("language", sorted(TOO_SOON))
def test_a_right_pin_typed_during_a_wait_is_told_to_wait_never_that_it_is_wrong(
    judge_station: JudgeFactory, language: str
) -> None:
    """The door opened with no wait; meanwhile wrong PINs were counted elsewhere on this database
    (as an older director's page did), so the judge's right PIN comes too soon: it was not
    checked, and the door must say to wait, not "Wrong PIN. Next try in 0:05"."""
    rig = judge_station(language=language)
    press(rig.window, K.Key_Escape)
    door = rig.window.judge.door
    assert not door.shut
    elsewhere = JudgeAccess(open_engine(sqlite_url(rig.storage.local_path)), where="elsewhere")
    for _ in range(3):
        assert elsewhere.check_pin("000000").outcome is PinOutcome.WRONG
    type_text(rig.window, PIN)
    enter(rig.window)
    waiting, again = TOO_SOON[language]
    said = door.message.text()
    assert said.startswith(waiting), said
    assert WRONG[language] not in said.casefold()
    assert door.shut
    rig.advance(10)  # the wait is over: still not "wrong", and the door listens again
    assert door.message.text() == again
    assert not door.shut
    assert rig.storage.judge_access.attempts().failures == 3  # the right PIN was not counted
