import pytest

from kiosk.core.adjudication import Verdict
from kiosk.core.errors import ConfigError
from kiosk.core.rules import PenaltyParty, ProfileKind, RuleProfile


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
