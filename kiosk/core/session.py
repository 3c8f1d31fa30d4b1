"""The station's screen flow as a pure state machine: a frozen state and one transition function.

The Qt controller owns the timers and the log and forwards every key, tap and timer to
``transition``; what to do outside the state (rule on the play and record it, open judge mode)
comes back as ``Effect`` values. The flow keeps the keys Zyzzyva's Word Judge taught players::

    READY --1..8--> ENTRY --N words--> CONFIRM --Tab--> JUDGING --Recorded--> VERDICT
      ^  \\            |  ^                |                   \\--RecordFailed--> FAULT
      |   Esc: JUDGE_REQUESTED              Backspace                           |
      +--- Esc on an empty entry, idle timeout, verdict timeout or a key after the lockout

Every word is normalised as it is typed by ``kiosk.core.normalise``: a character that is not a
letter is refused with the normaliser's description of it, never dropped silently.
"""

from __future__ import annotations

import enum
import unicodedata
from dataclasses import dataclass, replace

from kiosk.core.adjudication import MAX_WORDS_PER_CHALLENGE, Ruling
from kiosk.core.errors import InputError
from kiosk.core.normalise import MIN_WORD_LETTERS, SEPARATORS, describe_character, normalise_word

__all__ = [
    "Backspace",
    "DivisionSelected",
    "DivisionStepped",
    "Effect",
    "Escape",
    "Event",
    "FaultCleared",
    "IdleExpired",
    "JudgePressed",
    "JudgeRequested",
    "LockoutEnded",
    "RecordFailed",
    "Recorded",
    "Screen",
    "SessionState",
    "Step",
    "Typed",
    "VerdictExpired",
    "start",
    "transition",
]


class Screen(enum.Enum):
    READY = "ready"
    ENTRY = "entry"
    CONFIRM = "confirm"
    JUDGING = "judging"
    VERDICT = "verdict"
    FAULT = "fault"


class Effect(enum.Enum):
    JUDGE_REQUESTED = "judge_requested"  # hand over to judge mode (or the exit confirmation)
    JUDGE_PLAY = "judge_play"  # rule on ``state.words``, record it, then send Recorded or RecordFailed


class _Signal:
    """An event with no data: immutable, and equal to every other event of its class.

    (Plain classes rather than dataclasses: each dataclass costs the station's start-up ~0.5 ms.)
    """

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        return type(self) is type(other)

    def __hash__(self) -> int:
        return hash(type(self))

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


@dataclass(frozen=True)
class Typed:
    """Text from the keyboard or the touch keyboard: letters, separators, digits, anything."""

    text: str


class Backspace(_Signal):
    __slots__ = ()


class Escape(_Signal):
    __slots__ = ()


class JudgePressed(_Signal):
    """Tab, or the on-screen JUDGE key."""

    __slots__ = ()


class JudgeRequested(_Signal):
    """The documented judge chord, from the ready screen (Esc there means the same)."""

    __slots__ = ()


@dataclass(frozen=True)
class DivisionStepped:
    delta: int


@dataclass(frozen=True)
class DivisionSelected:
    index: int


@dataclass(frozen=True)
class Recorded:
    """The controller ruled on the play and the log has stored it: show the verdict."""

    ruling: Ruling


class RecordFailed(_Signal):
    """The log could not store the ruling: the verdict must not be shown."""

    __slots__ = ()


class FaultCleared(_Signal):
    """A judge has dealt with a station fault."""

    __slots__ = ()


class LockoutEnded(_Signal):
    __slots__ = ()


class VerdictExpired(_Signal):
    __slots__ = ()


class IdleExpired(_Signal):
    __slots__ = ()


Event = (
    Typed
    | Backspace
    | Escape
    | JudgePressed
    | JudgeRequested
    | DivisionStepped
    | DivisionSelected
    | Recorded
    | RecordFailed
    | FaultCleared
    | LockoutEnded
    | VerdictExpired
    | IdleExpired
)
_KEYS = (Typed, Backspace, Escape, JudgePressed, JudgeRequested, DivisionStepped, DivisionSelected)


@dataclass(frozen=True)
class SessionState:
    """Everything a screen shows. ``words`` are complete, ``current`` is the word being typed."""

    max_lengths: tuple[int, ...]  # per division: the longest word its pack holds
    division: int = 0
    screen: Screen = Screen.READY
    expected: int = 0
    words: tuple[str, ...] = ()
    current: str = ""
    notice: str = ""
    ruling: Ruling | None = None
    unlocked: bool = False

    @property
    def entered(self) -> tuple[str, ...]:
        """The words on screen, the one being typed included."""
        return (*self.words, self.current) if self.current else self.words

    @property
    def max_length(self) -> int:
        return self.max_lengths[self.division]


@dataclass(frozen=True)
class Step:
    state: SessionState
    effects: tuple[Effect, ...] = ()


def start(max_lengths: tuple[int, ...], division: int = 0) -> SessionState:
    if not max_lengths:
        raise ValueError("a station needs at least one division")
    return SessionState(max_lengths=max_lengths, division=division % len(max_lengths))


def _ready(state: SessionState) -> SessionState:
    return SessionState(max_lengths=state.max_lengths, division=state.division)


def _entry_screen(words: tuple[str, ...], current: str, expected: int) -> Screen:
    entered = (*words, current) if current else words
    complete = len(entered) == expected and all(len(w) >= MIN_WORD_LETTERS for w in entered)
    return Screen.CONFIRM if complete else Screen.ENTRY


def _plural(count: int) -> str:
    return "1 word" if count == 1 else f"{count} words"


def _type_char(state: SessionState, char: str) -> SessionState:
    words, current = state.words, state.current
    if char in SEPARATORS:
        if not current:
            return state
        try:
            normalise_word(current, max_length=state.max_length)
        except InputError as exc:
            return replace(state, notice=f"Not finished: {exc}")
        words, current = (*words, current), ""
        return replace(state, words=words, current=current, notice="")
    if not current and len(words) >= state.expected:
        return replace(
            state,
            notice=f"All {_plural(state.expected)} are typed: press TAB to judge, or Esc to start again",
        )
    try:
        letter = normalise_word(char * MIN_WORD_LETTERS)[0]
    except InputError:
        return replace(state, notice=f"Not typed: {_name_for_players(char)} is not one of the letters A to Z")
    candidate = current + letter
    if len(candidate) > state.max_length:
        try:
            normalise_word(candidate, max_length=state.max_length)
        except InputError as exc:
            return replace(state, notice=f"Not typed: {exc}")
    return replace(state, current=candidate, notice="")


def _name_for_players(char: str) -> str:
    """Short words a player can read: the character itself, named only where that helps.

    A digit or a punctuation mark is shown as it is; a letter is shown with its name, because an
    accented or look-alike letter (Cyrillic a) can be told from A-Z only by name; an invisible
    character gets the normaliser's full description, code included.
    """
    if not char.isprintable() or char.isspace() or unicodedata.category(char).startswith(("M", "C")):
        return f"an invisible character {describe_character(char)}"
    if char.isalpha():
        name = unicodedata.name(char, "").lower()
        plain = name.removeprefix("latin small letter ").removeprefix("latin capital letter ")
        if plain == name:  # another script: its name matters, for look-alikes (Cyrillic a)
            plain = name[:1].upper() + name[1:]
        return f'"{char}" ({plain})' if plain else f'"{char}"'
    return f'"{char}"'


def _typed_on_ready(state: SessionState, text: str) -> SessionState:
    for char in text:
        if char.isascii() and char.isdigit() and 1 <= int(char) <= MAX_WORDS_PER_CHALLENGE:
            return replace(state, screen=Screen.ENTRY, expected=int(char), notice="")
    return state


def _on_entry(state: SessionState, event: Event) -> Step:
    if isinstance(event, Typed):
        for char in event.text:
            state = _type_char(state, char)
    elif isinstance(event, Backspace):
        if state.current:
            state = replace(state, current=state.current[:-1], notice="")
        elif state.words:
            state = replace(state, words=state.words[:-1], current=state.words[-1], notice="")
        else:
            state = replace(state, notice="")
    elif isinstance(event, Escape):
        if not state.entered:
            return Step(_ready(state))
        state = replace(state, words=(), current="", notice="")
    elif isinstance(event, JudgePressed):
        if _entry_screen(state.words, state.current, state.expected) is Screen.CONFIRM:
            judged = replace(state, screen=Screen.JUDGING, words=state.entered, current="", notice="")
            return Step(judged, (Effect.JUDGE_PLAY,))
        left = state.expected - len(state.entered)
        notice = f"Type all {_plural(state.expected)} first" + (f" ({left} to go)" if left > 0 else "")
        return Step(replace(state, notice=notice))
    elif isinstance(event, IdleExpired):
        return Step(_ready(state))
    return Step(replace(state, screen=_entry_screen(state.words, state.current, state.expected)))


def transition(state: SessionState, event: Event) -> Step:
    """The one way the flow moves: a new state, and what the controller must do for it."""
    screen = state.screen
    if screen is Screen.READY:
        if isinstance(event, Escape | JudgeRequested):
            return Step(state, (Effect.JUDGE_REQUESTED,))
        if isinstance(event, DivisionStepped):
            return Step(replace(state, division=(state.division + event.delta) % len(state.max_lengths)))
        if isinstance(event, DivisionSelected) and 0 <= event.index < len(state.max_lengths):
            return Step(replace(state, division=event.index))
        if isinstance(event, Typed):
            return Step(_typed_on_ready(state, event.text))
        return Step(state)
    if screen in (Screen.ENTRY, Screen.CONFIRM):
        if isinstance(event, (*_KEYS, IdleExpired)):
            return _on_entry(state, event)
        return Step(state)
    if screen is Screen.JUDGING:
        if isinstance(event, Recorded) and event.ruling.words == state.words:
            return Step(replace(state, screen=Screen.VERDICT, ruling=event.ruling, unlocked=False))
        if isinstance(event, RecordFailed):
            return Step(replace(state, screen=Screen.FAULT))
        return Step(state)
    if screen is Screen.VERDICT:
        if isinstance(event, LockoutEnded):
            return Step(replace(state, unlocked=True))
        if isinstance(event, VerdictExpired) or (state.unlocked and isinstance(event, _KEYS)):
            return Step(_ready(state))
        return Step(state)
    # FAULT: only a judge moves the station on.
    if isinstance(event, Escape | JudgeRequested):
        return Step(state, (Effect.JUDGE_REQUESTED,))
    if isinstance(event, FaultCleared):
        return Step(_ready(state))
    return Step(state)
