"""A challenge played through the session, with what the station says at each step."""

from __future__ import annotations

from collections.abc import Sequence

from kiosk.core.packs.lexicon import Lexicon
from kiosk.core.play.adjudication import adjudicate
from kiosk.core.play.rules import RuleProfile
from kiosk.core.play.session import (
    Event,
    JudgePressed,
    LockoutEnded,
    Recorded,
    Typed,
    VerdictExpired,
    start,
    transition,
)
from kiosk.core.play.speech import Scene, Speech, said
from kiosk.core.words.language import Catalogue

SCENE = Scene(("Open",), RuleProfile())


def keys(text: str) -> list[Event]:
    return [Typed(char) for char in text]


def spoken(
    events: Sequence[Event], lexicon: Lexicon, t: Catalogue, max_length: int = 15
) -> list[tuple[Event, Speech | None]]:
    """Each event and what its step said; a Tab that judges is answered by the ruling (Recorded),
    whose step's speech is listed with it."""
    state = start((max_length,), station_words=t)
    out: list[tuple[Event, Speech | None]] = []
    for event in events:
        step = transition(state, event)
        out.append((event, said(state, step.state, SCENE)))
        state = step.state
        if step.effects:
            recorded = Recorded(adjudicate(state.words, lexicon))
            step = transition(state, recorded)
            out.append((recorded, said(state, step.state, SCENE)))
            state = step.state
    return out


def challenge(words: str) -> list[Event]:
    """A whole challenge: the count, the words, Enter, Tab, the lock-out ending, the verdict ending."""
    return [
        *keys(f"{len(words.split())}{words}\r"),
        JudgePressed(),
        LockoutEnded(),
        VerdictExpired(),
    ]
