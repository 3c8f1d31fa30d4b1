from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from kiosk.core.play.adjudication import Verdict
from kiosk.core.play.rules import PenaltyParty, ProfileKind, RuleProfile
from kiosk.core.station.config import Division, StationConfig, Timings
from kiosk.core.station.settings import (
    Field,
    StationChoice,
    choice_fields,
    resolve_choice,
    saved_names,
    stepped,
)
from kiosk.ui.judge.settings import value_text

CONFIG = StationConfig(
    divisions=(Division("Open", Path("a.kxpack")), Division("Schools", Path("b.kxpack"), youth_rules=True)),
    rules=RuleProfile(ProfileKind.DOUBLE),
    timings=Timings(key_lockout_ms=600),
)
NAMES = ["Open", "Schools"]


def test_rule_profiles_come_back_from_their_names() -> None:
    for profile in (
        RuleProfile(ProfileKind.DOUBLE),
        RuleProfile(ProfileKind.FREE),
        RuleProfile(ProfileKind.PENALTY, 10, PenaltyParty.BOTH),
    ):
        assert RuleProfile.from_name(profile.name) == profile


def test_a_saved_choice_wins_over_the_configuration() -> None:
    choice, problems = resolve_choice(CONFIG, "Schools", "penalty-5-both", {"verdict_display_ms": 12000})
    assert problems == ()
    assert choice.served == 1
    assert choice.rules == RuleProfile(ProfileKind.PENALTY, 5, PenaltyParty.BOTH)
    assert choice.timings == Timings(key_lockout_ms=600, verdict_display_ms=12000)
    assert saved_names(choice, NAMES) == (
        "Schools",
        "penalty-5-both",
        {"key_lockout_ms": 600, "verdict_display_ms": 12000, "idle_entry_ms": 15000},
    )


def test_saved_names_the_configuration_lost_are_reported_not_guessed() -> None:
    choice, problems = resolve_choice(CONFIG, "Juniors", "penalty-x", {"key_lockout_ms": 90000})
    assert choice == StationChoice(None, CONFIG.rules, CONFIG.timings, configured=CONFIG.rules)
    assert len(problems) == 3
    assert "'Juniors' is not in the configuration; serving every division" in problems[0]


def test_a_judge_chooses_which_divisions_the_station_serves() -> None:
    """The players choose each challenge's division; a judge may narrow the station to one."""
    choice = StationChoice(None, CONFIG.rules, CONFIG.timings)
    assert value_text(choice, Field.DIVISION, NAMES) == "every division: players choose"
    shown = []
    for _ in range(3):
        choice = stepped(choice, Field.DIVISION, 1, 2)
        shown.append(value_text(choice, Field.DIVISION, NAMES))
    assert shown == ["only Open", "only Schools", "every division: players choose"]
    assert saved_names(choice, NAMES)[0] is None
    assert saved_names(stepped(choice, Field.DIVISION, -1, 2), NAMES)[0] == "Schools"


def test_points_appear_only_under_the_penalty_rule() -> None:
    choice = StationChoice(0, RuleProfile(ProfileKind.DOUBLE), Timings())
    assert Field.POINTS not in choice_fields(choice, 2)
    choice = stepped(choice, Field.PROFILE, 1, 2)
    assert choice.rules.kind is ProfileKind.PENALTY
    assert Field.POINTS in choice_fields(choice, 2)
    assert Field.DIVISION not in choice_fields(choice, 1)
    assert value_text(stepped(choice, Field.POINTS, 1, 2), Field.POINTS, NAMES) == "10 points per word"


def test_a_value_from_the_configuration_is_stepped_from_where_it_is() -> None:
    choice = StationChoice(0, CONFIG.rules, CONFIG.timings)
    assert value_text(choice, Field.KEY_LOCKOUT, NAMES) == "0.6 s"
    assert stepped(choice, Field.KEY_LOCKOUT, 1, 2).timings.key_lockout_ms == 750
    assert stepped(choice, Field.KEY_LOCKOUT, -1, 2).timings.key_lockout_ms == 500


@given(st.lists(st.tuples(st.sampled_from(list(Field)), st.sampled_from([-1, 1])), max_size=40))
def test_stepping_never_makes_an_invalid_choice(steps: list[tuple[Field, int]]) -> None:
    choice = StationChoice(0, CONFIG.rules, CONFIG.timings)
    for field, delta in steps:
        choice = stepped(choice, field, delta, 2)
        assert choice.timings.key_lockout_ms < choice.timings.verdict_display_ms
        assert choice.served in (None, 0, 1)
        assert RuleProfile.from_name(choice.rules.name).name == choice.rules.name


SWEDISH = RuleProfile(
    ProfileKind.PER_TURN,
    points_per_challenge=10,
    label="swedish",
    words=(("unsuccessful_headline", "Felaktig utmaning \u2014 {points} poäng"),),
)


def test_a_judge_steps_through_every_rule_and_back_to_the_configured_variant_with_its_words() -> None:
    choice = StationChoice(None, SWEDISH, Timings(), configured=SWEDISH)
    kinds = []
    for _ in range(5):
        choice = stepped(choice, Field.PROFILE, 1, 2)
        kinds.append(choice.rules.kind)
        if choice.rules.kind is not ProfileKind.PER_TURN:
            assert choice.rules.words == ()
            assert choice.rules.label == ""
    assert kinds == [
        ProfileKind.ESCALATING,
        ProfileKind.FREE,
        ProfileKind.DOUBLE,
        ProfileKind.PENALTY,
        ProfileKind.PER_TURN,
    ]
    assert choice.rules == SWEDISH
    assert Field.POINTS in choice_fields(choice, 2)
    choice = stepped(choice, Field.POINTS, 1, 2)
    assert value_text(choice, Field.POINTS, NAMES) == "15 points per challenge"
    config = StationConfig(divisions=CONFIG.divisions, rules=SWEDISH)
    _, profile, _ = saved_names(choice, NAMES)
    restored, problems = resolve_choice(config, None, profile, {})
    assert problems == ()
    assert restored.rules.outcome(Verdict.ACCEPTABLE, 2).headline == "Felaktig utmaning \u2014 15 poäng"


def test_an_escalating_schedule_is_the_configuration_s_only() -> None:
    choice = StationChoice(None, RuleProfile(ProfileKind.ESCALATING), Timings())
    fields = choice_fields(choice, 1)
    assert Field.PARTY in fields
    assert Field.POINTS not in fields
