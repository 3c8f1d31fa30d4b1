from pathlib import Path

import pytest

from kiosk.core.errors import ConfigError
from kiosk.core.play.adjudication import Verdict
from kiosk.core.play.rules import Outcome, PenaltyParty, ProfileKind, RuleProfile
from kiosk.core.station.config import load_config, parse_config


def test_per_word_penalty_states_words_times_points() -> None:
    outcome = RuleProfile(ProfileKind.PENALTY).outcome(Verdict.ACCEPTABLE, 3)
    assert outcome.headline == "Unsuccessful challenge — 3 words \u00d7 5 points"
    assert "CHALLENGER loses 15 points" in outcome.consequence


def test_one_word_is_singular() -> None:
    outcome = RuleProfile(ProfileKind.PENALTY, points_per_word=10).outcome(Verdict.ACCEPTABLE, 1)
    assert outcome.headline == "Unsuccessful challenge — 1 word \u00d7 10 points"


@pytest.mark.parametrize(
    ("party", "expected"),
    [
        (PenaltyParty.CHALLENGER_LOSES, "The CHALLENGER loses 10 points."),
        (PenaltyParty.CHALLENGED_GAINS, "The CHALLENGED PLAYER gains 10 points."),
        (PenaltyParty.BOTH, "The CHALLENGER loses 10 points and the CHALLENGED PLAYER gains 10 points."),
    ],
)
def test_who_gains_or_loses_is_configurable(party: PenaltyParty, expected: str) -> None:
    outcome = RuleProfile(ProfileKind.PENALTY, penalty_party=party).outcome(Verdict.ACCEPTABLE, 2)
    assert outcome.consequence == f"The play stands. {expected}"


def test_double_challenge_names_who_loses_the_turn() -> None:
    profile = RuleProfile(ProfileKind.DOUBLE)
    assert "CHALLENGER loses a turn" in profile.outcome(Verdict.ACCEPTABLE, 2).consequence
    assert "CHALLENGED PLAYER scores nothing" in profile.outcome(Verdict.UNACCEPTABLE, 2).consequence


def test_free_challenge_costs_nothing() -> None:
    assert "no penalty" in RuleProfile(ProfileKind.FREE).outcome(Verdict.ACCEPTABLE, 4).headline


@pytest.mark.parametrize("kind", list(ProfileKind))
def test_a_successful_challenge_always_takes_the_play_off(kind: ProfileKind) -> None:
    outcome = RuleProfile(kind).outcome(Verdict.UNACCEPTABLE, 3)
    assert outcome.headline == "Successful challenge"
    assert "comes off the board" in outcome.consequence


@pytest.mark.parametrize("points", [0, -5, 101])
def test_points_out_of_range_are_refused(points: int) -> None:
    with pytest.raises(ConfigError, match="points_per_word"):
        RuleProfile(ProfileKind.PENALTY, points_per_word=points)


def test_profile_names_for_the_log() -> None:
    assert RuleProfile(ProfileKind.DOUBLE).name == "double"
    assert RuleProfile(ProfileKind.PENALTY, penalty_party=PenaltyParty.BOTH).name == "penalty-5-both"


# --- every penalty rule in use, as configuration ------------------------------------------------

SWEDISH = """
[rules]
profile = "per_turn"
points_per_challenge = 10
name = "swedish"

[rules.words]
title = "Svenska regler: 10 poäng per felaktig utmaning"
unsuccessful_headline = "Felaktig utmaning \u2014 {points} poäng"
unsuccessful_consequence = "Draget står. UTMANAREN förlorar {points} poäng."
successful_headline = "Riktig utmaning"
successful_consequence = "Draget tas bort: den UTMANADE SPELAREN får inga poäng."
"""


def rules_from(text: str) -> RuleProfile:
    return parse_config(text, where="station.toml", base=Path(), default_pack=Path("p.kxpack")).rules


@pytest.mark.parametrize("count", [1, 2, 5, 8])
def test_the_wespa_per_turn_penalty_costs_the_same_whatever_the_word_count(count: int) -> None:
    profile = rules_from('[rules]\nprofile = "per_turn"\npoints_per_challenge = 10')
    outcome = profile.outcome(Verdict.ACCEPTABLE, count)
    assert outcome.headline == "Unsuccessful challenge \u2014 10 points"
    assert outcome.consequence == "The play stands. The CHALLENGER loses 10 points."


@pytest.mark.parametrize(("count", "points"), [(1, 5), (2, 10), (3, 20), (8, 20)])
def test_an_escalating_penalty_follows_its_schedule_the_last_step_counting_for_more_words(
    count: int, points: int
) -> None:
    profile = rules_from('[rules]\nprofile = "escalating"\nescalation = [5, 10, 20]\npenalty = "both"')
    outcome = profile.outcome(Verdict.ACCEPTABLE, count)
    assert outcome.headline.endswith(f": {points} points")
    assert f"loses {points} points and the CHALLENGED PLAYER gains {points} points" in outcome.consequence
    assert profile.title == "Escalating penalty (5, 10, 20 points)"


def test_a_national_variant_is_configuration_and_the_verdict_says_its_own_words() -> None:
    profile = rules_from(SWEDISH)
    assert profile.kind is ProfileKind.PER_TURN
    assert profile.title == "Svenska regler: 10 poäng per felaktig utmaning"
    assert profile.outcome(Verdict.ACCEPTABLE, 3) == Outcome(
        "Felaktig utmaning \u2014 10 poäng", "Draget står. UTMANAREN förlorar 10 poäng."
    )
    assert profile.outcome(Verdict.UNACCEPTABLE, 3).headline == "Riktig utmaning"
    assert profile.name == "swedish:per_turn-10-challenger_loses"


def test_a_profile_name_brings_back_the_configured_words_for_its_label_and_kind_only() -> None:
    configured = rules_from(SWEDISH)
    again = RuleProfile.from_name("swedish:per_turn-15-challenger_loses", configured)
    assert again.points_per_challenge == 15
    assert again.outcome(Verdict.ACCEPTABLE, 1).consequence == "Draget står. UTMANAREN förlorar 15 poäng."
    other = RuleProfile.from_name("penalty-5-both", configured)
    assert other.words == ()
    assert other.label == ""


@pytest.mark.parametrize(
    "profile",
    [
        RuleProfile(
            ProfileKind.PER_TURN, points_per_challenge=25, penalty_party=PenaltyParty.CHALLENGED_GAINS
        ),
        RuleProfile(ProfileKind.ESCALATING, escalation=(2, 4, 8, 16)),
        RuleProfile(ProfileKind.PER_TURN, label="swedish"),
        RuleProfile(ProfileKind.DOUBLE, label="club-rules"),
    ],
)
def test_every_profile_name_reads_back_as_the_same_profile(profile: RuleProfile) -> None:
    assert RuleProfile.from_name(profile.name) == profile


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[rules]\nprofile = "escalating"\nescalation = [10, 5]', "goes down"),
        ('[rules]\nprofile = "escalating"\nescalation = []', "'escalation' must be a list of 1 to 8"),
        ('[rules]\nescalation = [5, "ten"]', "'escalation' must be a list"),
        ("[rules]\npoints_per_challenge = 0", "'points_per_challenge' must be a whole number from 1 to 100"),
        ('[rules]\nname = "Svenska regler"', "may hold only letters"),
        ('[rules.words]\ntitle = "{points"', "station.toml \\[rules\\] \\[words\\] title"),
        ('[rules.words]\ntitle = "{poang} points"', "\\{poang\\} is not a placeholder; use \\{points\\}"),
        ('[rules.words]\nheadline = "x"', "unknown key 'headline'"),
    ],
)
def test_a_profile_that_cannot_be_used_is_refused_naming_the_key(text: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        rules_from(text)


@pytest.mark.parametrize("kind", list(ProfileKind))
@pytest.mark.parametrize("verdict", list(Verdict))
def test_no_outcome_depends_on_anything_but_the_verdict_and_the_count(
    kind: ProfileKind, verdict: Verdict
) -> None:
    profile = RuleProfile(kind)
    for count in range(1, 9):
        outcome = profile.outcome(verdict, count)
        assert "{" not in outcome.text
        assert outcome.headline
        assert outcome.consequence


def test_the_guide_s_swedish_example_says_its_own_words() -> None:
    example = Path(__file__).resolve().parent.parent / "docs" / "examples" / "rules-swedish.toml"
    profile = load_config(example, default_pack=Path("p.kxpack")).rules
    assert profile.outcome(Verdict.ACCEPTABLE, 4).text == (
        "Felaktig utmaning \u2014 10 poäng. Draget står kvar. UTMANAREN förlorar 10 poäng."
    )
    assert profile.name == "swedish:per_turn-10-challenger_loses"
