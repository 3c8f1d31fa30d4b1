"""The director's board as pure values: problems first in natural order, closed and retired stations
told apart, no false alarm while the log itself was away, a division judged two ways."""

from __future__ import annotations

import uuid
from dataclasses import replace
from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from kiosk.core.log.heartbeat import UNSEEN_AFTER_S, DivisionPack, Heartbeat, StationId, StationState
from kiosk.core.log.overview import Counts, Health, Judged, build_board, natural_key

NOW = datetime(2026, 5, 1, 14, 0, tzinfo=UTC)


def beat(
    name: str,
    state: StationState = StationState.READY,
    *,
    ago_s: float = 1.0,
    number: int = 1,
    rule: str = "double",
    pack: str = "CSW",
    digest: str = "sha256:aa",
) -> Heartbeat:
    return Heartbeat(
        station_id=StationId(uuid.UUID(int=number)),
        station=name,
        host="h",
        state=state,
        packs=(DivisionPack("Open", pack, "24", True, digest),),
        rule_profile=rule,
        version="1",
        seen_at=NOW - timedelta(seconds=ago_s),
    )


def test_names_sort_as_people_read_them() -> None:
    names = [
        "Station 10",
        "station 2",
        "Station 09",
        "Station 1",
        "Table",
        "Station 1b",
        "A 2 b 10",
        "A 2 b 9",
    ]
    assert sorted(names, key=natural_key) == [
        "A 2 b 9",
        "A 2 b 10",
        "Station 1",
        "Station 1b",
        "station 2",
        "Station 09",
        "Station 10",
        "Table",
    ]


@given(st.lists(st.text(max_size=12), max_size=12))
def test_natural_order_is_a_total_order_on_any_names(names: list[str]) -> None:
    ordered = sorted(names, key=natural_key)
    assert sorted(ordered, key=natural_key) == ordered
    assert sorted(names) == sorted(ordered)


def test_problems_come_first_then_at_work_closed_and_retired_each_in_natural_order() -> None:
    beats = [
        beat("Station 10", number=1),
        beat("Station 2", StationState.CLOSED, ago_s=600, number=2),  # closed: not seen, not a problem
        beat("Station 9", ago_s=UNSEEN_AFTER_S + 1, number=3),  # stopped answering
        beat("Station 1", StationState.FAULT, number=4),
        beat("Station 3", ago_s=900, number=5),  # a spare laptop, retired by the director
        beat("Station 11", StationState.JUDGE, number=6),
    ]
    board = build_board(NOW, beats, {}, {}, retired={StationId(uuid.UUID(int=5)): NOW - timedelta(minutes=5)})
    assert [(line.name, line.health) for line in board.stations] == [
        ("Station 1", Health.PROBLEM),
        ("Station 9", Health.PROBLEM),
        ("Station 10", Health.AT_WORK),
        ("Station 11", Health.AT_WORK),
        ("Station 2", Health.CLOSED),
        ("Station 3", Health.RETIRED),
    ]
    assert [(line.name, line.problem) for line in board.problems] == [
        ("Station 1", "station fault"),
        ("Station 9", "not seen"),
    ]


def test_a_retired_station_that_reports_again_is_back_and_judged_as_any_other() -> None:
    retired = {StationId(uuid.UUID(int=5)): NOW - timedelta(minutes=5)}
    back = build_board(NOW, [beat("Spare", ago_s=1, number=5)], {}, {}, retired=retired)
    assert back.stations[0].health is Health.AT_WORK
    gone_again = build_board(
        NOW + timedelta(minutes=1), [beat("Spare", ago_s=1, number=5)], {}, {}, retired=retired
    )
    assert gone_again.stations[0].health is Health.PROBLEM  # it came back after retiring: watched again


def test_no_false_alarm_in_the_seconds_after_the_log_itself_was_away() -> None:
    """The server was down for a minute: every station's last report is a minute old when the log
    answers again. They are awaited for UNSEEN_AFTER_S (their forwarders retry every few seconds),
    then a station still silent is a problem."""
    back_at = NOW - timedelta(seconds=3)
    beats = [beat("Station 1", ago_s=70, number=1), beat("Station 2", ago_s=1, number=2)]
    board = build_board(NOW, beats, {}, {}, awaited_since=back_at)
    assert [(line.name, line.health) for line in board.stations] == [
        ("Station 1", Health.AWAITED),
        ("Station 2", Health.AT_WORK),
    ]
    assert board.problems == ()
    then = NOW + timedelta(seconds=UNSEEN_AFTER_S)
    reported = [beats[0], replace(beats[1], seen_at=then - timedelta(seconds=1))]  # Station 2 reported again
    later = build_board(then, reported, {}, {}, awaited_since=back_at)
    assert [line.name for line in later.problems] == ["Station 1"]
    never = build_board(NOW, [beat("Station 1", ago_s=70, number=1)], {}, {})  # the log never went away
    assert never.stations[0].health is Health.PROBLEM


def test_a_division_judged_two_ways_now_or_today_is_a_mismatch() -> None:
    same = build_board(NOW, [beat("A", number=1), beat("B", number=2)], {}, {})
    [open_division] = same.divisions
    assert not open_division.mismatch
    assert open_division.judged_with[0].stations_now == ("A", "B")
    other_rule = build_board(
        NOW, [beat("A", number=1), beat("B", number=2, rule="penalty-5-challenger_loses")], {}, {}
    )
    assert [d.name for d in other_rule.mismatched] == ["Open"]
    other_words = build_board(NOW, [beat("A", number=1), beat("B", number=2, digest="sha256:bb")], {}, {})
    assert other_words.mismatched  # the same name and edition, other words: not the same rulings
    judged_elsewhere = build_board(
        NOW,
        [beat("A", number=1)],
        {"C": Counts(today=3)},
        {"Open": Counts(today=3)},
        judged=[Judged("C", "Open", "double", "CSW", "21", "sha256:cc", False, 3)],
    )
    [line] = judged_elsewhere.mismatched
    assert [(w.stations_now, w.stations_today, w.challenges_today) for w in line.judged_with] == [
        ((), ("C",), 3),  # today's challenges first: most of the division's rulings
        (("A",), (), 0),
    ]
    retired = build_board(
        NOW,
        [beat("A", number=1), beat("B", number=2, rule="free")],
        {},
        {},
        retired={StationId(uuid.UUID(int=2)): NOW},
    )
    assert not retired.mismatched  # a retired station judges nothing


def test_a_station_not_told_the_round_yet_is_named() -> None:
    from kiosk.core.log.overview import EventRound

    beats = [replace(beat("A", number=1), round=7), replace(beat("B", number=2), round=6)]
    board = build_board(NOW, beats, {}, {}, round=EventRound(7, NOW))
    assert [line.name for line in board.behind_round] == ["B"]
