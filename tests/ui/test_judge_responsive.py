"""A judge screen never freezes on storage: the call waits on a worker thread, the page goes on.

Storage is blocked for real: another connection holds the station's SQLite write lock (as a second
process would), or another PostgreSQL session holds a lock on the shared log's table. Had the
call been made on the GUI thread, the key that started it would not return before the lock went,
and nothing below could happen while it waits.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import psycopg
from PySide6.QtCore import Qt, QTimer
from pytestqt.qtbot import QtBot

from kiosk.core.play.rules import ProfileKind
from kiosk.ui import theme
from kiosk.ui.window import StationWindow
from tests.ui.conftest import PIN, JudgeFactory, JudgeRig, press, send_key, settle, tab, type_text
from tests.ui.test_judge import shown, unlock

K = Qt.Key


@contextmanager
def sqlite_write_locked(database: Path) -> Iterator[None]:
    """Another connection holds the database's write lock until the block ends."""
    other = sqlite3.connect(database, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        yield
        other.execute("ROLLBACK")
    finally:
        other.close()


@contextmanager
def postgres_table_locked(url: str, table: str) -> Iterator[None]:
    """Another session holds an exclusive lock on ``table`` until the block ends."""
    url = url.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(url) as other, other.transaction():
        other.execute(f"LOCK TABLE {table} IN ACCESS EXCLUSIVE MODE")
        yield


def assert_the_event_loop_runs(qtbot: QtBot) -> None:
    fired: list[bool] = []
    QTimer.singleShot(0, lambda: fired.append(True))
    qtbot.waitUntil(lambda: bool(fired))


def rule_kind(rig: JudgeRig) -> ProfileKind:
    return rig.controller.config.rules.kind


def database(tmp_path: Path) -> Path:
    return tmp_path / "data" / "kiosk.sqlite3"


def test_the_door_answers_while_a_pin_check_waits_for_a_locked_database(
    judge_station: JudgeFactory, tmp_path: Path, qtbot: QtBot
) -> None:
    rig = judge_station()
    window: StationWindow = rig.window
    press(window, K.Key_Escape)  # the door (whether a PIN is set is a read: no writer holds it up)
    door = window.judge.door
    with sqlite_write_locked(database(tmp_path)):
        type_text(window, PIN)
        send_key(window, K.Key_Return, "\r")  # counting the attempt needs the write lock: it waits
        assert window.judge.busy
        qtbot.waitUntil(lambda: door.message.source == "Checking the PIN\u2026")
        assert_the_event_loop_runs(qtbot)
        send_key(window, K.Key_Escape)  # the judge can walk away meanwhile
        assert not window.judging
        assert window.stack.currentWidget() is window.ready
        assert window.judge.busy  # the check still waits for the lock
    settle(window)  # the lock is gone: the check ends ...
    assert not window.judging  # ... and opens nothing, since the judge left
    assert rig.storage.judge_access.attempts().failures == 0


def test_the_settings_answer_while_a_save_waits_for_a_locked_database(
    judge_station: JudgeFactory, tmp_path: Path, qtbot: QtBot
) -> None:
    rig = judge_station()
    window = rig.window
    unlock(rig)
    type_text(window, "3")
    settings = window.judge.settings
    press(window, K.Key_Right)  # challenge rule: double -> penalty
    press(window, K.Key_Down)
    with sqlite_write_locked(database(tmp_path)):
        send_key(window, K.Key_Return, "\r")
        qtbot.waitUntil(lambda: settings.notice.source == "Saving\u2026")
        rig.clock[0] += 20
        window.judge.tick()
        assert window.judge.lock.text() == "Locks in 0:40"  # the idle lock counts down meanwhile
        send_key(window, K.Key_Up)  # and the keys move the chosen line
        assert settings.lines[0][2].background == theme.SELECTED
        assert settings.lines[1][2].background is None
        assert window.judge.busy
        assert rule_kind(rig) is ProfileKind.DOUBLE  # applied only once saved
    settle(window)
    assert settings.notice.source == "Saved and applied; kept after a restart"
    assert rule_kind(rig) is ProfileKind.PENALTY
    assert rig.storage.settings.load().rule_profile == "penalty-5-challenger_loses"


def test_recent_challenges_answer_while_the_shared_log_is_locked(
    judge_station: JudgeFactory, postgres_url: str, qtbot: QtBot
) -> None:
    rig = judge_station(database_url=postgres_url)
    window = rig.window
    type_text(window, "1cat")
    tab(window)
    rig.controller.verdict_timer.timeout.emit()
    assert rig.storage.log.forward_backlog() == 1  # the challenge is on the server
    unlock(rig)
    recheck = window.judge.recheck
    with postgres_table_locked(postgres_url, "challenge"):
        send_key(window, K.Key_1, "1")
        qtbot.waitUntil(lambda: recheck.rows[0].full_text == "Looking in the log\u2026")
        rig.clock[0] += 5
        window.judge.tick()
        assert window.judge.lock.text() == "Locks in 0:55"
        assert_the_event_loop_runs(qtbot)
        send_key(window, K.Key_Escape)  # back to the menu, and in again, while the read waits
        assert shown(window) is window.judge.menu
        send_key(window, K.Key_1, "1")
        assert shown(window) is recheck
        assert window.judge.busy
    settle(window)
    assert "Station 7" in recheck.rows[0].full_text
    assert recheck.words[0].text() == "\u2713 CAT \u2014 acceptable"
    assert rig.storage.log.status().local_only is False  # read from the server, once it answered
