"""What a judge may switch on a running station: the divisions it serves, the rule profile, timings.

A ``StationChoice`` is what the station runs with now. Judge mode steps one field at a time
through fixed choices (big buttons and arrow keys, no typing); storage keeps the choice by name,
and ``resolve_choice`` turns the saved names back into a choice against the configuration at the
next start (a saved division the configuration no longer has is reported, not guessed).

The division of a challenge is the players' choice, made in each challenge (see
``kiosk.core.play.session``). What a judge chooses is which divisions the station serves: every
division of the configuration (the players choose each time), or one of them (a station in the
schools' room, say), which then judges every challenge and is named on the ready, confirm and
verdict screens.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from kiosk.core.errors import ConfigError
from kiosk.core.play.rules import POINT_KINDS, PenaltyParty, ProfileKind, RuleProfile
from kiosk.core.station.config import StationConfig, Timings

__all__ = [
    "Field",
    "StationChoice",
    "choice_fields",
    "resolve_choice",
    "saved_names",
    "stepped",
]

KEY_LOCKOUT_CHOICES_MS = (0, 250, 500, 750, 1000, 1500, 2000)
VERDICT_DISPLAY_CHOICES_MS = (3000, 5000, 8000, 10_000, 12_000, 15_000, 20_000, 30_000, 60_000)
IDLE_ENTRY_CHOICES_MS = (5000, 10_000, 15_000, 20_000, 30_000, 45_000, 60_000, 120_000)
POINTS_CHOICES = (1, 2, 3, 5, 10, 15, 20, 25, 50)
PROFILE_KINDS = (
    ProfileKind.DOUBLE,
    ProfileKind.PENALTY,
    ProfileKind.PER_TURN,
    ProfileKind.ESCALATING,
    ProfileKind.FREE,
)
PARTIES = (PenaltyParty.CHALLENGER_LOSES, PenaltyParty.CHALLENGED_GAINS, PenaltyParty.BOTH)
TIMING_KEYS = ("key_lockout_ms", "verdict_display_ms", "idle_entry_ms")


class Field(enum.Enum):
    """One line of the settings screen (judge mode's settings page words it)."""

    DIVISION = "division"
    PROFILE = "profile"
    POINTS = "points"
    PARTY = "party"
    KEY_LOCKOUT = "key lockout"
    VERDICT_DISPLAY = "verdict display"
    IDLE_ENTRY = "idle entry"


@dataclass(frozen=True)
class StationChoice:
    """``configured``: the configuration's own rule profile, which the rule's choices come back
    to with its own name and words (a national variant) when a judge steps to its kind again."""

    served: int | None  # None: every division, chosen by the players in each challenge
    rules: RuleProfile
    timings: Timings
    configured: RuleProfile | None = None


def choice_fields(choice: StationChoice, division_count: int) -> tuple[Field, ...]:
    """The lines that mean something for this choice (points only under the rules that have them;
    an escalating schedule comes from the configuration only)."""
    kind = choice.rules.kind
    hidden: set[Field] = set()
    if kind not in (ProfileKind.PENALTY, ProfileKind.PER_TURN):
        hidden.add(Field.POINTS)
    if kind not in POINT_KINDS:
        hidden.add(Field.PARTY)
    if division_count <= 1:
        hidden.add(Field.DIVISION)
    return tuple(f for f in Field if f not in hidden)


def _step_in(options: Sequence[int], current: int, delta: int) -> int:
    """The option ``delta`` places from ``current``, stopping at the ends; a value from the
    configuration that is not among the options is placed among them first."""
    values = sorted({*options, current})
    index = max(0, min(len(values) - 1, values.index(current) + delta))
    return values[index]


def stepped(choice: StationChoice, field: Field, delta: int, division_count: int) -> StationChoice:
    """The choice with one field moved ``delta`` steps; unchanged where the step would not be valid
    (the keys must be ignored for less time than the verdict is shown)."""
    if field not in choice_fields(choice, division_count):
        return choice
    rules, timings = choice.rules, choice.timings
    if field is Field.DIVISION:  # every division, then each one alone, round again
        options: list[int | None] = [None, *range(division_count)]
        return replace(choice, served=options[(options.index(choice.served) + delta) % len(options)])
    if field is Field.PROFILE:
        kind = PROFILE_KINDS[(PROFILE_KINDS.index(rules.kind) + delta) % len(PROFILE_KINDS)]
        configured = choice.configured
        if configured is not None and configured.kind is kind:
            return replace(choice, rules=configured)  # its own name and words again
        return replace(choice, rules=replace(rules, kind=kind, label="", words=()))
    if field is Field.POINTS and rules.kind is ProfileKind.PER_TURN:
        points = _step_in(POINTS_CHOICES, rules.points_per_challenge, delta)
        return replace(choice, rules=replace(rules, points_per_challenge=points))
    if field is Field.POINTS:
        points = _step_in(POINTS_CHOICES, rules.points_per_word, delta)
        return replace(choice, rules=replace(rules, points_per_word=points))
    if field is Field.PARTY:
        party = PARTIES[(PARTIES.index(rules.penalty_party) + delta) % len(PARTIES)]
        return replace(choice, rules=replace(rules, penalty_party=party))
    if field is Field.KEY_LOCKOUT:
        timings = replace(
            timings, key_lockout_ms=_step_in(KEY_LOCKOUT_CHOICES_MS, timings.key_lockout_ms, delta)
        )
    elif field is Field.VERDICT_DISPLAY:
        timings = replace(
            timings,
            verdict_display_ms=_step_in(VERDICT_DISPLAY_CHOICES_MS, timings.verdict_display_ms, delta),
        )
    else:
        timings = replace(
            timings, idle_entry_ms=_step_in(IDLE_ENTRY_CHOICES_MS, timings.idle_entry_ms, delta)
        )
    if timings.key_lockout_ms >= timings.verdict_display_ms:
        return choice
    return replace(choice, timings=timings)


def saved_names(
    choice: StationChoice, division_names: Sequence[str]
) -> tuple[str | None, str, dict[str, int]]:
    """What storage keeps: the one division served (None: every one), the rule profile's name and
    the timings in ms."""
    timings = choice.timings
    return (
        None if choice.served is None else division_names[choice.served],
        choice.rules.name,
        {key: int(getattr(timings, key)) for key in TIMING_KEYS},
    )


def resolve_choice(
    config: StationConfig,
    division: str | None,
    rule_profile: str | None,
    timings_ms: Mapping[str, int],
) -> tuple[StationChoice, tuple[str, ...]]:
    """The choice saved by a judge, over the configuration's defaults; and what could not be used."""
    problems: list[str] = []
    names = [d.name for d in config.divisions]
    served: int | None = None
    if division is not None:
        if division in names:
            served = names.index(division)
        else:
            problems.append(
                f"the saved division {division!r} is not in the configuration; serving every division"
            )
    rules = config.rules
    if rule_profile is not None:
        try:
            rules = RuleProfile.from_name(rule_profile, config.rules)
        except ConfigError as exc:
            problems.append(f"the saved rule profile is not used: {exc}")
    timings = config.timings
    known = {key: value for key, value in timings_ms.items() if key in TIMING_KEYS and value >= 0}
    if known:
        candidate = replace(timings, **known)
        if candidate.key_lockout_ms < candidate.verdict_display_ms:
            timings = candidate
        else:
            problems.append("the saved timings ignore keys for longer than the verdict is shown; not used")
    return StationChoice(served=served, rules=rules, timings=timings, configured=config.rules), tuple(
        problems
    )
