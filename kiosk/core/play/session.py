"""The station's screen flow as a pure state machine: a frozen state and one transition function.

The Qt controller owns the timers and the log and forwards every key, tap and timer to
``transition``; what to do outside the state (rule on the play and record it, open judge mode)
comes back as ``Effect`` values. The flow keeps the keys Zyzzyva's Word Judge taught players::

    READY --1..8--> [DIVISION --1..n-->] ENTRY --N words--> CONFIRM --Tab--> JUDGING --Recorded--> VERDICT
      ^  \\                                  |  ^                |                   \\--RecordFailed--> FAULT
      |   Esc: JUDGE_REQUESTED                     Backspace                           |
      +--- Esc on an empty entry, idle timeout, verdict timeout or a key after the lockout

A station that serves several divisions asks for the division in EVERY challenge, right after the
count (the DIVISION screen): nothing carries over from the players before, nothing is chosen for
them, and the division chosen fixes the pack (and its longest word) the words are typed against.
A station serving one division skips that screen.

A station configured with ``ask_table`` asks, right after the count and before the division, for
the number of the table the game is played at (the TABLE screen: digits, then Enter, Space or
Tab), so that the log ties each challenge to its game. It adds a step, so it is off by default.

The words are kept as the players typed them (``words``, ``current``: the text of the keys taken),
and every key is read by the one normaliser, ``kiosk.core.words.normalise.read_typed``, exactly as
``kiosk check`` reads the same text: a character the pack's alphabet does not take is refused
with its description, never dropped silently, and the refusal stays on screen (``refused``) until
the play is judged or the entry cleared; a combining accent joins its letter (``n`` + U+0303 is
``Ñ``). What a screen shows of a word (``shown_tiles``) is the reading that is judged, tile for
tile (``tests/test_reading.py`` proves it for every alphabet). A word longer than the pack allows
stays as typed, marked, and holds the challenge back until it is corrected: the station never
judges a word other than the one typed. Tab before the last word ends the word being typed, as in
Zyzzyva.

Each division's pack has its alphabet (``kiosk.core.words.alphabet``): the entry takes that alphabet's
letters (folded as the normaliser folds them: ``ñ`` is ``Ñ``, a French ``é`` an ``E``), counts its
tiles (Spanish ``CHALLA`` is four), and Backspace takes off the last tile shown. A key of the touch
keyboard is a tile (``TileTyped``): its C then its H are two tiles, its CH key one.

Idle clearing is announced: ``IdleWarned`` (from the controller's countdown) puts the seconds left
on screen, and any key (``Nudged`` for a key the flow has no use for) keeps the entry.

A key held down (``Repeated``) types nothing more: holding A for three seconds is one A, not
thirty, for a player with slow or unsteady hands as for anyone (each letter is a fresh press). Only
Backspace repeats, and only within the word being typed: a held Backspace erases that word back to
its start and stops there, never running on into the words before it (a fresh press goes back
into the last word). No repeat does anything else. The count, the table, the division, Tab and
Esc take fresh presses only, and a key held since another screen must be let go first: a held Tab
never clears a verdict once its lock-out ends, a held count key never chooses the division or
types in the entry, a held Esc never walks from an entry to the judges' door.

The flow keeps facts, never sentences: a ``Notice`` says what happened, with its values (a word
too short, as its tiles, and how many it has), as judge mode's state does; the screens
(``kiosk.ui.players``) say it in the players' language and name the keys of a keyboard or a touch
screen themselves.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, replace

from kiosk.core.errors import InputError, InvalidCharacterError
from kiosk.core.play.adjudication import MAX_WORDS_PER_CHALLENGE, Ruling
from kiosk.core.words.alphabet import ENGLISH, Alphabet
from kiosk.core.words.language import Catalogue, english
from kiosk.core.words.normalise import (
    MIN_WORD_LETTERS,
    SEPARATORS,
    TypedWord,
    normalise_word,
    read_typed,
    typed_tile,
)

# A word may be typed up to twice the pack's longest word (ANTIDISESTABLISHMENTARIANISM, 28
# letters, against 15): long enough to see what was typed and correct it, short enough that a key
# held down cannot run on for ever.
MAX_TYPED_LENGTH_FACTOR = 2  # times the pack's longest word
# An entry left alone warns before it clears, on screen and aloud, and any key keeps it: WCAG
# 2.2.1 (Timing Adjustable) asks for at least 20 seconds to extend a time limit with one action.
IDLE_WARNING_S = 20
# The check-the-spelling screen is not hurried: two players reading eight long words, perhaps
# calling a judge about one, need more than the typing screen's 15 s. It still clears in the end,
# so that the next pair never finds someone else's play waiting for their Tab.
CONFIRM_IDLE_MS = 120_000
MAX_TABLE_DIGITS = 3  # tables 1 to 999: the biggest events seat a few hundred games

__all__ = [
    "MAX_TABLE_DIGITS",
    "Backspace",
    "DivisionSelected",
    "Effect",
    "Escape",
    "Event",
    "FaultCleared",
    "IdleExpired",
    "IdleWarned",
    "JudgePressed",
    "JudgeRequested",
    "Length",
    "LockoutEnded",
    "Notice",
    "Nudged",
    "RecordFailed",
    "Recorded",
    "Repeated",
    "Said",
    "Screen",
    "SessionState",
    "Step",
    "TileTyped",
    "Typed",
    "VerdictExpired",
    "idle_timing",
    "judged_words",
    "shown_tiles",
    "start",
    "transition",
]


class Screen(enum.Enum):
    READY = "ready"
    TABLE = "table"  # ask_table: which table is this game at?
    DIVISION = "division"  # several divisions: which one is this game in?
    ENTRY = "entry"
    CONFIRM = "confirm"
    JUDGING = "judging"
    VERDICT = "verdict"
    FAULT = "fault"


class Effect(enum.Enum):
    JUDGE_REQUESTED = "judge_requested"  # hand over to judge mode (or the exit confirmation)
    JUDGE_PLAY = "judge_play"  # rule on ``state.words``, record it, then send Recorded or RecordFailed


class Said(enum.Enum):
    """What a notice on the players' screens is about (its words are the screens')."""

    NOT_FINISHED = "not finished"  # a word ended whose length is wrong: ``length``, ``word``
    ALL_TYPED = "all typed"  # a key after the last word: judge, or start again
    NOT_TYPED = "not typed"  # the key would run the word on past what can be typed: ``length``
    TOO_LONG = "too long"  # the word has more tiles than the pack's longest: ``length``, ``word``
    TYPE_FIRST = "type first"  # Tab before the words: ``count`` still to type
    TABLE_DIGITS_ONLY = "table digits only"
    TABLE_FROM_ONE = "table from one"
    TABLE_DIGITS_MOST = "table digits most"  # ``count``: the most digits a table number has
    TABLE_FIRST = "table first"  # Enter before any digit
    DIVISION_FIRST = "division first"  # ``count``: the divisions to choose from


class Length(enum.Enum):
    """What is wrong with a word's length."""

    UNREADABLE = "unreadable"  # letters that make no tile (yet: Catalan Q before its U)
    SHORT = "short"  # fewer tiles than MIN_WORD_LETTERS
    LONG = "long"  # more tiles than the pack's longest word


@dataclass(frozen=True)
class Notice:
    """What a screen must say besides its content: ``said``, about ``word`` (its tiles as shown)
    whose length is wrong (``length``: it has ``count`` tiles), or with the ``count`` it names."""

    said: Said
    length: Length | None = None
    word: tuple[str, ...] = ()
    count: int = 0


@dataclass(frozen=True)
class Typed:
    """Text from the keyboard: letters, separators, digits, anything."""

    text: str


@dataclass(frozen=True)
class TileTyped:
    """A tile key of the touch keyboard (``CH``, ``L·L``, ``A``): one more tile, whatever the
    letters before it (Spanish C then H are two tiles: the separator is typed for them)."""

    tile: str


@dataclass(frozen=True)
class Backspace:
    """Backspace, or the on-screen BACKSPACE key."""


@dataclass(frozen=True)
class Escape:
    """Esc, or the on-screen CLEAR or BACK key."""


@dataclass(frozen=True)
class JudgePressed:
    """Tab, or the on-screen JUDGE key."""


@dataclass(frozen=True)
class JudgeRequested:
    """The documented judge chord, from the ready screen (Esc there means the same)."""


@dataclass(frozen=True)
class DivisionSelected:
    """A division tapped on the division screen (its index in the configuration)."""

    index: int


@dataclass(frozen=True)
class Nudged:
    """A key the flow has no use for (an arrow, Shift): the players are still there."""


@dataclass(frozen=True)
class Repeated:
    """The keyboard's auto-repeat of a key held down: ``key`` is what a press of it means, and
    ``pressed_on`` the screen it was pressed on."""

    key: Typed | Backspace | Escape | JudgePressed | JudgeRequested | Nudged
    pressed_on: Screen


@dataclass(frozen=True)
class Recorded:
    """The controller ruled on the play and the log has stored it: show the verdict."""

    ruling: Ruling


@dataclass(frozen=True)
class RecordFailed:
    """The log could not store the ruling: the verdict must not be shown."""


@dataclass(frozen=True)
class FaultCleared:
    """A judge has dealt with a station fault."""


@dataclass(frozen=True)
class LockoutEnded:
    """The verdict's key lock-out is over: a key may clear it now."""


@dataclass(frozen=True)
class VerdictExpired:
    """The verdict has been shown long enough."""


@dataclass(frozen=True)
class IdleExpired:
    """Nobody touched the entry for the idle time: it clears."""


@dataclass(frozen=True)
class IdleWarned:
    """The entry clears in ``seconds`` unless a key is pressed: say so on screen."""

    seconds: int


Event = (
    Typed
    | TileTyped
    | Backspace
    | Escape
    | JudgePressed
    | JudgeRequested
    | DivisionSelected
    | Nudged
    | Repeated
    | Recorded
    | RecordFailed
    | FaultCleared
    | LockoutEnded
    | VerdictExpired
    | IdleExpired
    | IdleWarned
)
_KEYS = (Typed, TileTyped, Backspace, Escape, JudgePressed, JudgeRequested, DivisionSelected, Nudged)
_ENTRY_SCREENS = (Screen.TABLE, Screen.DIVISION, Screen.ENTRY, Screen.CONFIRM)


@dataclass(frozen=True)
class SessionState:
    """Everything a screen shows. ``words`` are complete, ``current`` is the word being typed,
    each as the text typed (the keys taken); ``shown_tiles`` reads them as the screen shows them.
    ``notice``: what the screen must say now, if anything; ``refused``: the characters refused in
    this entry, said until the play is judged or cleared.

    ``served`` are the divisions this station serves now (indices into ``max_lengths``, in the
    configuration's order); ``division`` is the one of the challenge under way, None while it is
    not chosen yet (the ready and division screens of a station serving several).
    ``ask_table``: each challenge asks for its table (``table_digits`` as typed, ``table`` once
    confirmed; None before, and always on a station that does not ask).
    """

    max_lengths: tuple[int, ...]  # per division: the longest word its pack holds
    served: tuple[int, ...] = (0,)
    division: int | None = 0
    screen: Screen = Screen.READY
    expected: int = 0
    words: tuple[str, ...] = ()
    current: str = ""
    notice: Notice | None = None
    refused: tuple[str, ...] = ()
    ruling: Ruling | None = None
    unlocked: bool = False
    clearing_in_s: int = 0  # > 0: the idle clear is coming, and the screen says so
    ask_table: bool = False
    table_digits: str = ""
    table: int | None = None
    station_words: Catalogue = field(default_factory=english)  # before a division is chosen
    division_words: tuple[Catalogue, ...] = ()  # per division; () : the station's everywhere
    alphabets: tuple[Alphabet, ...] = ()  # per division: its pack's; () : English everywhere

    @property
    def alphabet(self) -> Alphabet:
        """The alphabet words are typed in: the chosen division's pack's (before a choice, English,
        though no word is typed before a division is chosen)."""
        if self.division is not None and self.division < len(self.alphabets):
            return self.alphabets[self.division]
        return ENGLISH

    @property
    def language(self) -> Catalogue:
        """The words of the screen now: the chosen division's language; before a choice, the
        language every division served speaks, if they all speak one, else the station's."""
        if self.division is not None and self.division < len(self.division_words):
            return self.division_words[self.division]
        if self.division_words:
            spoken = {self.division_words[i].language: self.division_words[i] for i in self.served}
            if len(spoken) == 1:
                return next(iter(spoken.values()))
        return self.station_words

    @property
    def entered(self) -> tuple[str, ...]:
        """The words on screen, the one being typed included."""
        return (*self.words, self.current) if self.current else self.words

    @property
    def max_length(self) -> int:
        """The longest word of the chosen division's pack (before a choice: the longest of all)."""
        if self.division is None:
            return max(self.max_lengths[i] for i in self.served)
        return self.max_lengths[self.division]

    @property
    def choosing(self) -> bool:
        """Whether each challenge must choose its division (the station serves several)."""
        return len(self.served) > 1


@dataclass(frozen=True)
class Step:
    state: SessionState
    effects: tuple[Effect, ...] = ()


def start(
    max_lengths: tuple[int, ...],
    served: tuple[int, ...] | None = None,
    *,
    ask_table: bool = False,
    station_words: Catalogue | None = None,
    division_words: tuple[Catalogue, ...] = (),
    alphabets: tuple[Alphabet, ...] = (),
) -> SessionState:
    """The ready screen of a station with these divisions, serving ``served`` (default: all);
    ``ask_table``: each challenge asks for its table number. ``station_words``: the station's
    language (default English); ``division_words``: each division's, where they differ;
    ``alphabets``: each division's pack's alphabet (default English)."""
    if not max_lengths:
        raise ValueError("a station needs at least one division")
    chosen = tuple(range(len(max_lengths))) if served is None else served
    if not chosen or any(not 0 <= i < len(max_lengths) for i in chosen) or len(set(chosen)) != len(chosen):
        raise ValueError(f"served divisions {chosen} do not fit {len(max_lengths)} divisions")
    return SessionState(
        max_lengths=max_lengths,
        served=chosen,
        division=None if len(chosen) > 1 else chosen[0],
        ask_table=ask_table,
        station_words=english() if station_words is None else station_words,
        division_words=division_words,
        alphabets=alphabets,
    )


def idle_timing(screen: Screen, idle_entry_ms: int) -> tuple[int, int]:
    """For a screen of the entry: the quiet time before the warning (ms: ``idle_entry_ms``; the
    confirm screen waits longer) and the seconds the warning then counts down before the entry
    clears, always ``IDLE_WARNING_S``: however short the quiet time, a player has 20 s to keep it."""
    quiet_ms = max(idle_entry_ms, CONFIRM_IDLE_MS) if screen is Screen.CONFIRM else idle_entry_ms
    return quiet_ms, IDLE_WARNING_S


def _ready(state: SessionState) -> SessionState:
    """The ready screen again: nothing of this challenge carries over, its division and table included."""
    return start(
        state.max_lengths,
        state.served,
        ask_table=state.ask_table,
        station_words=state.station_words,
        division_words=state.division_words,
        alphabets=state.alphabets,
    )


def typed(state: SessionState, word: str) -> TypedWord:
    """``word`` (text typed, every character taken) read as its tiles in the division's alphabet."""
    return read_typed(word, state.alphabet)


def shown_tiles(state: SessionState, word: str) -> tuple[str, ...]:
    """What the screens show of a word typed: the tiles it will be judged as, then any letters
    that make no tile yet (``kiosk.core.words.normalise.TypedWord.shown``)."""
    return typed(state, word).shown


def judged_words(state: SessionState) -> tuple[str, ...]:
    """The words as ``adjudicate`` normalises them (what a ruling on this play holds); () if one
    cannot be judged."""
    try:
        return tuple(
            normalise_word(w, max_length=state.max_length, alphabet=state.alphabet) for w in state.words
        )
    except InputError:
        return ()


def tiles(state: SessionState, word: str) -> int | None:
    """How many tiles ``word`` (text typed) reads as; None if some of its letters make no tile
    (yet: Catalan ``Q`` before its ``U``)."""
    read = typed(state, word)
    return None if read.rest else len(read.tiles)


def _entry_screen(state: SessionState, words: tuple[str, ...], current: str) -> Screen:
    entered = (*words, current) if current else words
    complete = len(entered) == state.expected and all(_fits(state, w) for w in entered)
    return Screen.CONFIRM if complete else Screen.ENTRY


def _fits(state: SessionState, word: str) -> bool:
    counted = tiles(state, word)
    return counted is not None and MIN_WORD_LETTERS <= counted <= state.max_length


def _too_many(state: SessionState, word: str) -> bool:
    """More tiles than the pack's longest word."""
    return len(typed(state, word).tiles) > state.max_length


def _length_problem(state: SessionState, word: str) -> Notice | None:
    """What is wrong with the length of ``word`` (text typed), as a notice's facts (``said`` is
    the caller's to set); None if nothing. Lengths are tiles, and letters that make no tile are a
    problem too."""
    read = typed(state, word)
    count = len(read.tiles)
    if read.rest:
        length = Length.UNREADABLE
    elif count < MIN_WORD_LETTERS:
        length = Length.SHORT
    elif count > state.max_length:
        length = Length.LONG
    else:
        return None
    return Notice(Said.NOT_FINISHED, length, read.shown, count)


def _about_length(state: SessionState, said: Said, word: str) -> Notice | None:
    """The notice ``said`` about the length of ``word`` (text typed); None if its length is right."""
    problem = _length_problem(state, word)
    return None if problem is None else replace(problem, said=said)


def _type_char(state: SessionState, char: str) -> SessionState:
    words, current = state.words, state.current
    if char in SEPARATORS:
        if not current:
            return state
        problem = _about_length(state, Said.NOT_FINISHED, current)
        if problem:
            return replace(state, notice=problem)
        words, current = (*words, current), ""
        return replace(state, words=words, current=current, notice=None)
    if not current and len(words) >= state.expected:
        return replace(state, notice=Notice(Said.ALL_TYPED))
    try:
        typed(state, current + char)
    except InvalidCharacterError:
        return _refuse(state, char)
    if len(current) >= MAX_TYPED_LENGTH_FACTOR * state.max_length:
        notice = _about_length(state, Said.NOT_TYPED, current) or Notice(Said.NOT_TYPED)
        return replace(state, notice=notice)
    state = replace(state, current=current + char, notice=None)
    if _too_many(state, state.current):  # kept as typed, marked, and held back from judging
        return replace(state, notice=_about_length(state, Said.TOO_LONG, state.current))
    return state


def _refuse(state: SessionState, char: str) -> SessionState:
    """``char`` is not taken: say so, with every other character refused in this entry, until
    the play is judged or the entry cleared (a refusal that vanished at the next key would leave
    KIWI showing as I I with nothing said)."""
    refused = state.refused if char in state.refused else (*state.refused, char)
    return replace(state, refused=refused, notice=None)


def _typed_on_ready(state: SessionState, text: str) -> SessionState:
    for char in text:
        if char.isascii() and char.isdigit() and 1 <= int(char) <= MAX_WORDS_PER_CHALLENGE:
            return replace(state, screen=_after_count(state), expected=int(char), notice=None)
    return state


def _after_count(state: SessionState) -> Screen:
    if state.ask_table:
        return Screen.TABLE
    return Screen.DIVISION if state.choosing else Screen.ENTRY


def _on_table(state: SessionState, event: Event) -> Step:
    """Which table is this game at: digits (keyboard or keypad), then Enter, Space or Tab."""
    state = replace(state, clearing_in_s=0)
    digits = state.table_digits
    if isinstance(event, Escape | IdleExpired) or (isinstance(event, Backspace) and not digits):
        return Step(_ready(state))
    if isinstance(event, Backspace):
        return Step(replace(state, table_digits=digits[:-1], notice=None))
    done = isinstance(event, JudgePressed)
    if isinstance(event, Typed):
        for char in event.text:
            if char in SEPARATORS:
                done = True
                break
            if not (char.isascii() and char.isdigit()):
                return Step(replace(state, notice=Notice(Said.TABLE_DIGITS_ONLY)))
            if not digits and char == "0":
                return Step(replace(state, notice=Notice(Said.TABLE_FROM_ONE)))
            if len(digits) >= MAX_TABLE_DIGITS:
                notice = Notice(Said.TABLE_DIGITS_MOST, count=MAX_TABLE_DIGITS)
                return Step(replace(state, notice=notice))
            digits += char
        state = replace(state, table_digits=digits, notice=None)
    if done:
        if not digits:
            return Step(replace(state, notice=Notice(Said.TABLE_FIRST)))
        screen = Screen.DIVISION if state.choosing else Screen.ENTRY
        return Step(replace(state, screen=screen, table=int(digits), notice=None))
    return Step(state)


def _on_division(state: SessionState, event: Event) -> Step:
    """Which division is this game in: its number (1 to n, in the order shown) or a tap."""
    if isinstance(event, Escape | Backspace | IdleExpired):
        return Step(_ready(state))
    chosen: int | None = None
    if isinstance(event, DivisionSelected) and event.index in state.served:
        chosen = event.index
    elif isinstance(event, Typed):
        for char in event.text:
            if char.isascii() and char.isdigit() and 1 <= int(char) <= len(state.served):
                chosen = state.served[int(char) - 1]
                break
    if chosen is not None:
        return Step(replace(state, screen=Screen.ENTRY, division=chosen, notice=None, clearing_in_s=0))
    if isinstance(event, Typed | JudgePressed):
        notice = Notice(Said.DIVISION_FIRST, count=len(state.served))
        return Step(replace(state, notice=notice, clearing_in_s=0))
    return Step(replace(state, clearing_in_s=0))


def _on_entry(state: SessionState, event: Event) -> Step:
    state = replace(state, clearing_in_s=0)  # any key keeps the entry
    if isinstance(event, Typed):
        for char in event.text:
            state = _type_char(state, char)
    elif isinstance(event, TileTyped):
        if state.current or len(state.words) < state.expected:
            for char in typed_tile(state.current, event.tile, state.alphabet):
                state = _type_char(state, char)
        else:
            state = _type_char(state, event.tile[:1])  # all typed: say so
    elif isinstance(event, Backspace):
        if state.current:  # the last tile shown (a letter, or Spanish CH as it reads now)
            cut = typed(state, state.current).last_start
            state = replace(state, current=state.current[:cut], notice=None)
        elif state.words:
            state = replace(state, words=state.words[:-1], current=state.words[-1], notice=None)
        else:
            state = replace(state, notice=None)
        if not state.entered:  # nothing typed is left: nothing refused is left to say
            state = replace(state, refused=())
    elif isinstance(event, Escape):
        if not state.entered:
            return Step(_ready(state))
        state = replace(state, words=(), current="", notice=None, refused=())
    elif isinstance(event, JudgePressed):
        if _entry_screen(state, state.words, state.current) is Screen.CONFIRM:
            judged = replace(
                state,
                screen=Screen.JUDGING,
                words=state.entered,
                current="",
                notice=None,
                refused=(),
            )
            return Step(judged, (Effect.JUDGE_PLAY,))
        if _too_many(state, state.current):
            return Step(replace(state, notice=_about_length(state, Said.TOO_LONG, state.current)))
        if state.current and len(state.entered) < state.expected:
            state = _type_char(state, " ")  # Tab ends the word being typed, as in Zyzzyva
        elif len(state.entered) < state.expected:
            left = state.expected - len(state.entered)
            state = replace(state, notice=Notice(Said.TYPE_FIRST, count=left))
        else:
            state = _type_char(state, " ")  # the last word is too short: say why
    elif isinstance(event, IdleExpired):
        return Step(_ready(state))
    return Step(replace(state, screen=_entry_screen(state, state.words, state.current)))


_TYPING_SCREENS = (Screen.ENTRY, Screen.CONFIRM)


def _on_repeat(state: SessionState, event: Repeated) -> Step:
    """A key held down: Backspace pressed in the entry erases on within the word being typed; any
    other repeat (a letter held, a key held since another screen) only says the players are still
    there."""
    typing = state.screen in _TYPING_SCREENS and event.pressed_on in _TYPING_SCREENS
    if typing and isinstance(event.key, Backspace) and state.current:
        return transition(state, event.key)
    if state.screen in _ENTRY_SCREENS:
        return transition(state, Nudged())
    return Step(state)


def transition(state: SessionState, event: Event) -> Step:
    """The one way the flow moves: a new state, and what the controller must do for it."""
    if isinstance(event, Repeated):
        return _on_repeat(state, event)
    screen = state.screen
    if screen is Screen.READY:
        if isinstance(event, Escape | JudgeRequested):
            return Step(state, (Effect.JUDGE_REQUESTED,))
        if isinstance(event, Typed):
            return Step(_typed_on_ready(state, event.text))
        return Step(state)
    if screen in _ENTRY_SCREENS and isinstance(event, IdleWarned):
        return Step(replace(state, clearing_in_s=max(0, event.seconds)))
    if screen is Screen.TABLE:
        if isinstance(event, (*_KEYS, IdleExpired)):
            return _on_table(state, event)
        return Step(state)
    if screen is Screen.DIVISION:
        if isinstance(event, (*_KEYS, IdleExpired)):
            return _on_division(state, event)
        return Step(state)
    if screen in (Screen.ENTRY, Screen.CONFIRM):
        if isinstance(event, (*_KEYS, IdleExpired)):
            return _on_entry(state, event)
        return Step(state)
    if screen is Screen.JUDGING:
        if isinstance(event, Recorded) and event.ruling.words == judged_words(state):
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
