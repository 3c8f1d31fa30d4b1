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
    assert ready.packs == (
        DivisionPack("Open", "Club list", "2026"),
        DivisionPack("Schools", "Club list", "2026"),
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
