"""The station's heartbeats say what its screen shows: ready, in a challenge, judge mode, a fault,
not ready with the reason; with its packs, its rule and whether it asks for tables."""

from __future__ import annotations

import time
from pathlib import Path

from PySide6.QtCore import Qt

from kiosk.core.log.heartbeat import DivisionPack, Heartbeat, StationState
from kiosk.core.station.config import Division
from kiosk.ui.heartbeat import StationReport
from tests.ui.conftest import PIN, JudgeFactory, JudgeRig, MemoryLog, press, tab, type_text

WAIT_S = 60


def reported(rig: JudgeRig) -> Heartbeat:
    """What the station reports now, once its reporter has written it to the station's database."""
    report = StationReport(rig.window, rig.controller, lambda: rig.storage, every_ms=3_600_000)
    sent = report.report()
    assert sent is not None
    assert rig.storage.heartbeats is not None
    deadline = time.monotonic() + WAIT_S
    while True:
        rows = rig.storage.heartbeats.all()
        if rows and rows[0].same_report(sent):
            return rows[0]
        assert time.monotonic() < deadline, f"the reporter never wrote {sent}: {rows}"
        time.sleep(0.02)


def test_every_state_of_the_station_is_reported_as_its_screen_shows_it(
    judge_station: JudgeFactory, pack: Path
) -> None:
    divisions = (Division("Open", pack), Division("Schools", pack, youth_rules=True))
    log = MemoryLog()
    rig = judge_station(divisions=divisions, ask_table=True, log=log)
    window = rig.window
    rig.controller.open_log()
    ready = reported(rig)
    assert ready.state is StationState.READY
    assert ready.station == "Station 7"
    assert ready.ask_table
    info = rig.controller.divisions[0].lexicon.info
    assert info.youth_set_hash is not None
    assert ready.packs == (  # what rules each division: the word set, and the youth list where it applies
        DivisionPack("Open", "Club list", "2026", set_hash=info.set_hash),
        DivisionPack(
            "Schools", "Club list", "2026", set_hash=f"{info.set_hash}/{info.youth_set_hash}", youth=True
        ),
    )
    assert ready.rule_profile == "double"
    type_text(window, "2")
    assert reported(rig).state is StationState.CHALLENGE
    press(window, Qt.Key.Key_Escape)
    press(window, Qt.Key.Key_Escape)
    assert reported(rig).state is StationState.JUDGE
    for digit in PIN:
        press(window, Qt.Key.Key_unknown, digit)
    window.judge.finish()
    log.failing = True
    type_text(window, "1")
    type_text(window, "5")
    press(window, Qt.Key.Key_Return, "\r")
    type_text(window, "1cat")
    tab(window)
    fault = reported(rig)
    assert fault.state is StationState.FAULT
    assert fault.reason == "the disk is full"
    window.show_not_ready("no judge PIN is set", command="kiosk set-pin")
    report = StationReport(window, rig.controller, lambda: rig.storage)
    report.problem = "no judge PIN is set kiosk set-pin"
    sent = report.report()
    assert sent is not None
    assert (sent.state, sent.reason) == (StationState.NOT_READY, "no judge PIN is set kiosk set-pin")


def test_a_station_whose_storage_is_not_open_reports_nothing(judge_station: JudgeFactory) -> None:
    rig = judge_station()
    report = StationReport(rig.window, rig.controller, lambda: rig.storage)
    assert report.report() is None  # the log was never opened: nothing to write into


def test_a_station_a_judge_leaves_says_closed_to_the_shared_log_on_its_way_out(
    judge_station: JudgeFactory, postgres_url: str
) -> None:
    """A judge's "Exit the station" is no crash: the station's last report, CLOSED, reaches the
    shared server before it goes (the director shows it closed, not missing)."""
    from tests.storage.entries import read_board

    rig = judge_station(database_url=postgres_url)
    window = rig.window
    rig.controller.open_log()
    report = StationReport(window, rig.controller, lambda: rig.storage, every_ms=3_600_000)
    report.start()
    rig.storage.send_reports()  # on the server now: ready
    [line] = read_board(postgres_url).stations
    assert line.beat is not None
    assert line.beat.state is StationState.READY
    left: list[bool] = []
    window.left.connect(lambda: left.append(True))
    press(window, Qt.Key.Key_Escape)  # the judge's door
    type_text(window, PIN)
    press(window, Qt.Key.Key_Return, "\r")
    type_text(window, "8")  # Exit the station
    press(window, Qt.Key.Key_Return, "\r")  # Yes, exit
    assert left == [True]
    closing = report.close()
    assert closing is not None
    assert closing.state is StationState.CLOSED
    [line] = read_board(postgres_url).stations
    assert line.beat is not None
    assert line.beat.state is StationState.CLOSED  # sent before the station went, not at its next start
    assert not line.red
