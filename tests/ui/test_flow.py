"""The real window, driven through the whole flow with key events."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from kiosk.core.log.challenge import record_again
from kiosk.core.play.rules import PenaltyParty, ProfileKind, RuleProfile
from kiosk.core.play.session import Screen
from kiosk.core.station.config import Division, Timings
from kiosk.ui import theme
from tests.ui.conftest import StationFactory, press, tab, type_text
from tests.ui.test_fit import assert_every_text_fits


def test_a_play_is_judged_from_count_to_verdict_and_back(station: StationFactory) -> None:
    rig = station()
    window = rig.window
    assert window.stack.currentWidget() is window.ready
    assert window.ready.lexicon.text() == "Club list"
    assert window.ready.edition.text() == "edition 2026 \u00b7 unsigned"
    type_text(window, "2")
    assert window.stack.currentWidget() is window.entry
    assert window.entry.title.text() == "CHALLENGER: type word 1 of 2"
    type_text(window, "cat qi")
    assert window.entry.grid.words[0].text() == "CAT"
    assert window.entry.grid.counts[0].text() == "3 letters"
    assert "TAB to judge" in window.entry.prompt.text()
    tab(window)
    assert window.stack.currentWidget() is window.verdict
    assert window.verdict.headline.text() == "YES \u2014 the play is ACCEPTABLE"
    assert window.verdict.headline.accessibleName() == "YES \u2014 the play is ACCEPTABLE"
    assert [w.text() for w in window.verdict.grid.words[:2]] == ["CAT", "QI"]
    assert window.verdict.lexicon.text() == "Lexicon: Club list (2026)"
    assert [e.ruling.words for e in rig.log.entries] == [("CAT", "QI")]
    assert rig.log.entries[0].station == "Station 7"
    assert rig.log.entries[0].division == "Open"
    # the entry screen was still up when the log was written: the verdict came after it
    assert rig.log.seen_before_record == ["entry"]


def test_the_unacceptable_verdict_is_text_icon_and_colour(station: StationFactory) -> None:
    window = station().window
    type_text(window, "2cat qix")
    tab(window)
    assert window.verdict.headline.text() == "NO \u2014 the play is UNACCEPTABLE"
    assert not window.verdict.icon.acceptable
    assert window.verdict.icon.accessibleName() == "cross"


@pytest.mark.parametrize(
    ("rules", "acceptable_outcome", "unacceptable_outcome"),
    [
        (RuleProfile(ProfileKind.DOUBLE), "The CHALLENGER loses a turn", "scores nothing"),
        (
            RuleProfile(ProfileKind.PENALTY),
            "Unsuccessful challenge \u2014 2 words \u00d7 5 points",
            "Successful challenge",
        ),
        (
            RuleProfile(ProfileKind.PENALTY, points_per_word=10, penalty_party=PenaltyParty.BOTH),
            "CHALLENGED PLAYER gains 20 points",
            "comes off the board",
        ),
        (RuleProfile(ProfileKind.FREE), "no penalty", "comes off the board"),
        (
            RuleProfile(ProfileKind.PER_TURN, points_per_challenge=10),
            "Unsuccessful challenge \u2014 10 points The play stands. The CHALLENGER loses 10 points.",
            "Successful challenge",
        ),
        (
            RuleProfile(ProfileKind.ESCALATING, escalation=(5, 15)),
            "Unsuccessful challenge \u2014 2 words: 15 points",
            "Successful challenge",
        ),
        (
            RuleProfile(
                ProfileKind.PER_TURN,
                label="swedish",
                words=(
                    ("unsuccessful_headline", "Felaktig utmaning \u2014 {points} poäng"),
                    ("successful_headline", "Riktig utmaning"),
                ),
            ),
            "Felaktig utmaning \u2014 10 poäng",
            "Riktig utmaning",
        ),
    ],
)
def test_every_profile_states_its_outcome(
    station: StationFactory, rules: RuleProfile, acceptable_outcome: str, unacceptable_outcome: str
) -> None:
    window = station(rules=rules).window
    type_text(window, "2cat dog")
    tab(window)
    shown = f"{window.verdict.outcome.text()} {window.verdict.consequence.text()}"
    assert acceptable_outcome in shown
    window.controller.lockout_timer.timeout.emit()
    press(window, Qt.Key.Key_Space, " ")
    type_text(window, "2cat dox")
    tab(window)
    shown = f"{window.verdict.outcome.text()} {window.verdict.consequence.text()}"
    assert unacceptable_outcome in shown


def test_each_challenge_chooses_its_division_and_every_screen_names_it(
    station: StationFactory, pack: Path
) -> None:
    """A school game is never judged under the open lexicon because the last players chose it."""
    divisions = (Division("Open", pack), Division("Schools", pack, youth_rules=True, colour="#7a3db8"))
    rig = station(divisions=divisions)
    window = rig.window
    assert window.header.division.text() == "Divisions: Open \u00b7 Schools"
    assert window.ready.lexicon.text() == "Open \u00b7 Schools"
    assert window.ready.division.text() == "After the count, choose the division of your game"
    for arrow in (Qt.Key.Key_Right, Qt.Key.Key_Left, Qt.Key.Key_Down):
        press(window, arrow)  # arrows choose nothing
    assert window.header.division.text() == "Divisions: Open \u00b7 Schools"
    type_text(window, "1")
    assert window.stack.currentWidget() is window.division
    assert window.division.title.text() == "1 word challenged"
    assert [key.text() for key in window.division.keys] == [
        "1  Open\nClub list (2026)",
        "2  Schools\nClub list (2026), school rules",
    ]
    type_text(window, "2dogs")
    assert window.header.division.text() == "Division: Schools"
    assert "check the spelling and the division (Schools)" in window.entry.prompt.text()
    tab(window)
    assert window.verdict.headline.text() == "NO \u2014 the play is UNACCEPTABLE"  # DOGS is youth-excluded
    assert (
        window.verdict.lexicon.text()
        == "Division Schools \u00b7 Lexicon: Club list (2026) \u00b7 school rules"
    )
    assert rig.log.entries[0].division == "Schools"
    assert rig.log.entries[0].ruling.youth_rules
    rig.controller.verdict_timer.timeout.emit()
    assert window.header.division.text() == "Divisions: Open \u00b7 Schools"  # nothing carries over
    type_text(window, "1")
    assert window.stack.currentWidget() is window.division  # the next players choose again
    type_text(window, "1dogs")
    tab(window)
    assert window.verdict.headline.text() == "YES \u2014 the play is ACCEPTABLE"
    assert [e.division for e in rig.log.entries] == ["Schools", "Open"]


def test_with_one_division_nothing_is_asked_and_nothing_named(station: StationFactory) -> None:
    window = station().window
    type_text(window, "1cat")
    assert window.stack.currentWidget() is window.entry
    assert window.entry.prompt.text().startswith("Both players: check the spelling.")
    tab(window)
    assert window.verdict.lexicon.text() == "Lexicon: Club list (2026)"


def test_second_opinion_is_a_smaller_line_under_the_verdict(
    station: StationFactory, pack: Path, make_pack: object
) -> None:
    other = make_pack(["CAT"], name="Other list", edition="2020")  # type: ignore[operator]
    window = station(divisions=(Division("Open", pack, second_opinion_pack=other),)).window
    type_text(window, "2cat dog")
    tab(window)
    assert window.verdict.headline.text() == "YES \u2014 the play is ACCEPTABLE"
    assert window.verdict.second_opinion.text() == "Second opinion, Other list (2020): UNACCEPTABLE"


def test_refused_characters_show_the_reason(station: StationFactory) -> None:
    window = station().window
    type_text(window, "1ca\u00e9")
    assert window.entry.grid.words[0].text() == "CA_"
    assert '"\u00e9" (e with acute)' in window.entry.notice.source
    assert window.entry.notice.isVisible()
    type_text(window, "7t")  # the refusal stays, both named, until the play is judged or cleared
    assert window.entry.grid.words[0].text() == "CAT_"
    assert '"\u00e9" (e with acute), "7" are not letters A to Z' in window.entry.notice.source


def test_tab_between_words_separates_them_as_in_zyzzyva(station: StationFactory) -> None:
    rig = station()
    type_text(rig.window, "3za")
    tab(rig.window)
    type_text(rig.window, "caf")
    assert [w.text() for w in rig.window.entry.grid.words[:2]] == ["ZA", "CAF_"]
    tab(rig.window)
    tab(rig.window)
    assert rig.window.stack.currentWidget() is rig.window.entry
    assert rig.log.entries == []
    assert rig.window.entry.notice.source == "Type all 3 words first (1 to go)"


def test_a_sixteenth_letter_stays_as_typed_marked_and_blocks_judging(station: StationFactory) -> None:
    window = station().window  # the pack's longest word has 15 letters
    type_text(window, "1antidisestablishment")
    word = window.entry.grid.words[0]
    assert word.text() == "ANTIDISESTABLISHMENT_"
    assert word.colour == theme.NOTICE
    assert window.entry.grid.counts[0].text() == "20 letters"
    assert window.entry.notice.source == (
        "Too long: 'ANTIDISESTABLISHMENT' has 20 letters; this lexicon holds words of at most 15 "
        "letters. Backspace corrects it"
    )
    tab(window)
    assert window.stack.currentWidget() is window.entry
    assert window.controller.state.screen is Screen.ENTRY
    assert_every_text_fits(window)


def test_backspace_and_escape(station: StationFactory) -> None:
    window = station().window
    type_text(window, "2cat d")
    press(window, Qt.Key.Key_Backspace)
    press(window, Qt.Key.Key_Backspace)
    assert window.entry.grid.words[0].text() == "CAT_"
    press(window, Qt.Key.Key_Escape)
    assert window.entry.grid.words[0].text() == "_"
    press(window, Qt.Key.Key_Escape)
    assert window.stack.currentWidget() is window.ready


def test_a_log_failure_shows_a_station_fault_and_keeps_the_challenge(station: StationFactory) -> None:
    rig = station()
    rig.log.failing = True
    type_text(rig.window, "2cat qi")
    tab(rig.window)
    assert rig.window.stack.currentWidget() is rig.window.fault
    assert rig.window.fault.headline.text() == "Station fault \u2014 call a judge"
    assert [e.ruling.words for e in rig.controller.unrecorded] == [("CAT", "QI")]
    assert rig.controller.state.screen is Screen.FAULT
    type_text(rig.window, "1cat")
    tab(rig.window)
    assert rig.window.stack.currentWidget() is rig.window.fault  # players cannot move on
    # judge mode's hooks: record what was kept, then clear the fault
    assert rig.controller.settle_kept(*record_again(rig.log, rig.controller.unrecorded)) == 1
    rig.log.failing = False
    assert rig.controller.settle_kept(*record_again(rig.log, rig.controller.unrecorded)) == 0
    assert [e.ruling.words for e in rig.log.entries] == [("CAT", "QI")]
    rig.controller.clear_fault()
    assert rig.window.stack.currentWidget() is rig.window.ready


def test_the_log_is_opened_lazily(station: StationFactory) -> None:
    rig = station()
    assert not rig.controller.log_open
    type_text(rig.window, "1cat")
    tab(rig.window)
    assert rig.controller.log_open


def test_timers_follow_the_configuration(station: StationFactory) -> None:
    rig = station(timings=Timings(key_lockout_ms=700, verdict_display_ms=9000, idle_entry_ms=12000))
    controller = rig.controller
    type_text(rig.window, "2ca")
    assert controller.idle_timer.isActive()
    assert controller.idle_timer.interval() == 12000  # then twenty seconds counted down
    controller.idle_timer.timeout.emit()
    for _ in range(20):
        controller.idle_countdown.timeout.emit()
    assert rig.window.stack.currentWidget() is rig.window.ready
    type_text(rig.window, "1cat")
    tab(rig.window)
    assert not controller.idle_timer.isActive()
    assert controller.lockout_timer.isActive()
    assert controller.lockout_timer.interval() == 700
    assert controller.verdict_timer.interval() == 9000
    press(rig.window, Qt.Key.Key_Space, " ")  # ignored during the lockout
    assert rig.window.stack.currentWidget() is rig.window.verdict
    controller.lockout_timer.timeout.emit()
    press(rig.window, Qt.Key.Key_Space, " ")
    assert rig.window.stack.currentWidget() is rig.window.ready


def test_the_verdict_clears_itself(station: StationFactory, qtbot: QtBot) -> None:
    rig = station(timings=Timings(key_lockout_ms=10, verdict_display_ms=1000, idle_entry_ms=1000))
    type_text(rig.window, "1cat")
    tab(rig.window)
    assert rig.window.stack.currentWidget() is rig.window.verdict
    qtbot.waitUntil(lambda: rig.window.stack.currentWidget() is rig.window.ready, timeout=5000)


def test_idle_clearing_counts_down_on_screen_and_any_key_keeps_the_words(station: StationFactory) -> None:
    rig = station()
    controller, window = rig.controller, rig.window
    type_text(window, "2cat do")
    controller.idle_timer.timeout.emit()
    assert window.entry.notice.source == "Clearing in 20 s \u2014 press any key to keep the words"
    controller.idle_countdown.timeout.emit()
    assert window.entry.notice.source.startswith("Clearing in 19 s")
    press(window, Qt.Key.Key_Shift)  # a key that types nothing still keeps the entry
    assert window.entry.notice.source == ""
    assert not controller.idle_countdown.isActive()
    assert controller.idle_timer.isActive()
    assert window.entry.grid.words[1].text() == "DO_"
    controller.idle_timer.timeout.emit()
    for _ in range(20):
        controller.idle_countdown.timeout.emit()
    assert window.stack.currentWidget() is window.ready


def test_the_check_the_spelling_screen_is_not_hurried(station: StationFactory) -> None:
    rig = station()
    type_text(rig.window, "8" + " ".join(["overcommitment"] * 8) + " ")
    assert rig.controller.state.screen is Screen.CONFIRM
    waited_ms = rig.controller.idle_timer.interval() + 5000
    assert waited_ms >= 120_000  # two minutes for two players to read eight long words


def test_a_pack_without_an_edition_shows_no_empty_brackets(
    station: StationFactory, make_pack: object
) -> None:
    plain = make_pack(["CAT", "DOG"], name="Club list", edition="")  # type: ignore[operator]
    divisions = (Division("Open", plain), Division("Schools", plain))
    window = station(divisions=divisions).window
    assert window.ready.edition.text() == "Open: Club list \u00b7 Schools: Club list"
    type_text(window, "11cat")
    tab(window)
    assert window.verdict.lexicon.text() == "Division Open \u00b7 Lexicon: Club list"
    single = station(divisions=(Division("Open", plain),)).window
    assert single.ready.edition.text() == "unsigned"


def test_ask_table_ties_the_challenge_to_its_table_on_every_screen_and_in_the_log(
    station: StationFactory, pack: Path
) -> None:
    divisions = (Division("Open", pack), Division("Schools", pack, youth_rules=True))
    rig = station(divisions=divisions, ask_table=True)
    window = rig.window
    type_text(window, "2")
    assert window.stack.currentWidget() is window.table
    assert window.table.question.text() == "CHALLENGER: which table is your game at?"
    type_text(window, "x")
    assert window.table.notice.text() == "The table number is digits only: 0 to 9"
    type_text(window, "14")
    assert window.table.number.text() == "Table 14_"
    press(window, Qt.Key.Key_Return, "\r")
    assert window.stack.currentWidget() is window.division
    type_text(window, "1cat dog")
    assert window.entry.prompt.text().startswith(
        "Both players: check the spelling, the division (Open) and the table (14)."
    )
    tab(window)
    assert window.verdict.lexicon.text().startswith("Division Open \u00b7 Table 14 \u00b7 Lexicon:")
    [entry] = rig.log.entries
    assert (entry.table, entry.division) == (14, "Open")
    rig.controller.verdict_timer.timeout.emit()
    type_text(window, "1")
    assert window.table.number.text() == "Table _"  # nothing carries over to the next players


def test_without_ask_table_no_table_is_asked_or_logged(station: StationFactory) -> None:
    rig = station()
    type_text(rig.window, "1cat")
    tab(rig.window)
    assert rig.log.entries[0].table is None
    assert "table" not in rig.window.entry.prompt.text()
