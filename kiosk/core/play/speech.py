"""What the station says aloud, and what it tells a screen reader: one text per step of a challenge.

A player who cannot read the screen hears each step once, in the players' language, as the screen
says it: the question of the count, the division and the table, each letter as it is typed (a
tile: Spanish CH is one), each word spelled back once it is ended and all of them before the
Tab, a character refused, a notice, the countdown of an entry left alone, the verdict and its
consequence, a station fault. ``said(before, after)`` is what a step says (None: nothing);
``screen_said(state)`` is the whole screen again, for the key that repeats it (F1).

The invariant the screen keeps, speech keeps: the verdict is said from the verdict and the rule
profile alone, never from a word or a word's result, so nothing said can tell which word failed
(``tests/test_speech.py`` proves it on the texts, ``tests/test_speech_audio.py`` on the sound).

Every text goes through the catalogue (``state.language``): most are the screens' own. A word
spelled is kept apart (``Spelled``) so that the voice says its letters one by one (espeak-ng's
``say-as characters``: "A" is the letter, not the article), and a screen reader gets its tiles
a space apart ("D O G Z").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from kiosk.core.play.adjudication import Verdict
from kiosk.core.play.notice import notice_text, refusal_text
from kiosk.core.play.rules import RuleProfile
from kiosk.core.play.session import Screen, SessionState, shown_tiles
from kiosk.core.words.language import Catalogue, marked

__all__ = ["REPEAT_KEY", "Scene", "Speech", "Spelled", "not_ready_said", "said", "screen_said"]

REPEAT_KEY = "F1"  # the key that says the screen again (any keyboard has it, and it types nothing)
# The countdown of an entry left alone is said when it starts, then at these seconds left.
SPOKEN_COUNTDOWN_S = (10, 5)


@dataclass(frozen=True)
class Spelled:
    """A word (or a letter, a digit) said tile by tile."""

    tiles: tuple[str, ...]


Part = str | Spelled


@dataclass(frozen=True)
class Speech:
    """What is said, in ``language`` (a catalogue's code: the voice), part after part."""

    language: str
    parts: tuple[Part, ...]

    @property
    def sentences(self) -> tuple[str, ...]:
        """Each part as a sentence: a word spelled is its tiles a space apart, and a part that
        ends with no stop gets one (a voice pauses there; a screen reader reads it so)."""
        said = (" ".join(p.tiles) if isinstance(p, Spelled) else p for p in self.parts)
        return tuple(s if s.endswith((".", "?", "!", ":")) else f"{s}." for s in said)

    @property
    def text(self) -> str:
        """As a screen reader gets it."""
        return " ".join(self.sentences)


@dataclass(frozen=True)
class Scene:
    """What speech needs that the session does not hold: the divisions' names (in the
    configuration's order) and the rule profile, whose words say what a verdict means."""

    division_names: tuple[str, ...]
    rules: RuleProfile
    touch: bool = False  # the players have the touch keys (JUDGE, CLEAR), not Tab and Esc


BACKSPACE_KEY = marked("Backspace")  # the key's name, said where a screen shows it as \u232b


def _keys_named(text: str, t: Catalogue) -> str:
    """``text`` with a key shown as a symbol said by its name: the keyboard's \u232b is Backspace in
    the catalogue's words; a touch key labelled after the symbol (``\u232b CORREGIR``) is said by
    its label alone."""
    name = t.text(BACKSPACE_KEY)
    return re.sub(
        r"\u232b( (\w+))?", lambda m: m[2] if m[2] and m[2].isupper() else name + (m[1] or ""), text
    )


def _plain(text: str, t: Catalogue) -> str:
    """A screen's text as a sentence to say: its lines and its middle dots are pauses, and a key
    shown as a symbol is said by its name."""
    return _keys_named(text, t).replace("\n", ". ").replace(" \u00b7 ", ". ").strip()


def _speech(state: SessionState, *parts: Part) -> Speech | None:
    kept = tuple(p for p in parts if p)
    return Speech(state.language.language, kept) if kept else None


def _count_question(t: Catalogue, scene: Scene) -> tuple[Part, ...]:
    return (
        t.text("CHALLENGER: how many words are challenged?"),
        t.text("Tap 1 to 8") if scene.touch else t.text("Press 1 to 8"),
        t.text("Press {key} to hear the screen again", key=REPEAT_KEY),
    )


def _challenged(state: SessionState) -> str:
    t = state.language
    return t.plural("{count} word challenged", "{count} words challenged", state.expected)


def _table_question(state: SessionState, scene: Scene) -> tuple[Part, ...]:
    t = state.language
    if scene.touch:
        keys = t.text("Tap the digits, then OK \u00b7 BACK starts again")
    else:
        keys = t.text("Type the digits, then Enter \u00b7 Backspace corrects \u00b7 Esc starts again")
    return (t.text("CHALLENGER: which table is your game at?"), _plain(keys, t))


def _division_question(state: SessionState, scene: Scene) -> tuple[Part, ...]:
    t = state.language
    question = t.text("Which division is your game in?")
    if scene.touch:  # the divisions are keys on the screen, tapped: their names, then how
        names = (scene.division_names[division] for division in state.served)
        return (question, *names, _plain(t.text("Tap your game's division \u00b7 BACK starts again"), t))
    choices = tuple(
        t.text("Press {number} for {name}", number=index + 1, name=scene.division_names[division])
        for index, division in enumerate(state.served)
    )
    return (question, *choices)


def _type_word(state: SessionState) -> str:
    t = state.language
    at = min(len(state.words), max(state.expected - 1, 0))
    return t.text("CHALLENGER: type word {number} of {count}", number=at + 1, count=state.expected)


def _entry_keys(state: SessionState, scene: Scene) -> str:
    t = state.language
    if scene.touch:
        return _plain(t.text("SPACE after each word\nBACKSPACE corrects \u00b7 CLEAR clears"), t)
    return _plain(t.text("Space, comma or Enter after each word\nBackspace corrects \u00b7 Esc clears"), t)


def _spelled(state: SessionState, word: str) -> Spelled:
    return Spelled(shown_tiles(state, word))


def _all_words(state: SessionState, scene: Scene) -> tuple[Part, ...]:
    """Every word typed, spelled, then what the players do next."""
    t = state.language
    parts: list[Part] = [t.plural("The word is typed", "All {count} words typed", state.expected)]
    for number, word in enumerate(state.entered, start=1):
        parts += [t.text("Word {number}", number=number), _spelled(state, word)]
    parts.append(t.text("Both players: check the spelling."))
    judge = t.text("tap JUDGE") if scene.touch else t.text("press TAB")
    parts.append(t.text("CHALLENGED PLAYER: {judge} to judge.", judge=judge))
    return tuple(parts)


def _verdict(state: SessionState, scene: Scene) -> tuple[Part, ...]:
    """The ruling and what it means: from the verdict and the number of words, never a word."""
    ruling = state.ruling
    if ruling is None:
        return ()
    t = state.language
    if ruling.verdict is Verdict.ACCEPTABLE:
        headline = t.text("The play is acceptable.")
    else:
        headline = t.text("The play is unacceptable.")
    outcome = scene.rules.outcome(ruling.verdict, len(ruling.words), t)
    return (headline, outcome.text)


def _fault(t: Catalogue) -> tuple[Part, ...]:
    return (
        t.text("Station fault: call a judge"),
        _plain(
            t.text(
                "The challenge could not be recorded, so no ruling is shown.\n"
                "It is kept on this station for the judge."
            ),
            t,
        ),
    )


def _countdown(state: SessionState, scene: Scene) -> str:
    t = state.language
    seconds = state.clearing_in_s
    if scene.touch:
        return t.plural(
            "The entry clears in {count} second: tap any key to keep it.",
            "The entry clears in {count} seconds: tap any key to keep it.",
            seconds,
        )
    return t.plural(
        "The entry clears in {count} second: press any key to keep it.",
        "The entry clears in {count} seconds: press any key to keep it.",
        seconds,
    )


def not_ready_said(t: Catalogue) -> Speech:
    """A station that cannot serve (no judge PIN, a log it cannot open), in its language: what
    its notice tells the players, said when it stops serving and at any key while it cannot (a
    blind player would otherwise press keys that do nothing and hear nothing). The judge's part of
    the notice (the problem and its fix) is read off the screen by the judge, never said."""
    call = t.text("Station not ready: call a judge")
    return Speech(t.language, (call, t.text("This station cannot judge challenges right now.")))


def screen_said(state: SessionState, scene: Scene) -> Speech | None:
    """The whole screen now, as the repeat key says it."""
    t = state.language
    screen = state.screen
    if screen is Screen.READY:
        return _speech(state, *_count_question(t, scene))
    if screen is Screen.TABLE:
        digits = Spelled(tuple(state.table_digits)) if state.table_digits else ""
        table = _table_question(state, scene)
        return _speech(state, _challenged(state), *table, digits, _notice(state, scene))
    if screen is Screen.DIVISION:
        return _speech(state, _challenged(state), *_division_question(state, scene), _notice(state, scene))
    if screen is Screen.CONFIRM:
        return _speech(state, *_all_words(state, scene), refusal_text(state), _notice(state, scene))
    if screen is Screen.ENTRY:
        parts: list[Part] = [_challenged(state), _type_word(state)]
        for number, word in enumerate(state.entered, start=1):
            parts += [t.text("Word {number}", number=number), _spelled(state, word)]
        parts += [_entry_keys(state, scene), refusal_text(state), _notice(state, scene)]
        if state.clearing_in_s:
            parts.append(_countdown(state, scene))
        return _speech(state, *parts)
    if screen is Screen.VERDICT:
        return _speech(state, *_verdict(state, scene))
    if screen is Screen.FAULT:
        return _speech(state, *_fault(t))
    return None  # JUDGING: the verdict follows at once


def said(before: SessionState, after: SessionState, scene: Scene) -> Speech | None:
    """What the step from ``before`` to ``after`` says (None: nothing new to say). Each step is
    said once: a state that changes without a step of the players' (the verdict's lock-out ending)
    says nothing."""
    t = after.language
    screen = after.screen
    if screen is not before.screen and screen not in (Screen.ENTRY, Screen.CONFIRM):
        if screen is Screen.READY:
            return _speech(after, *_count_question(t, scene))
        if screen is Screen.TABLE:
            return _speech(after, _challenged(after), *_table_question(after, scene))
        if screen is Screen.DIVISION:
            return _speech(after, _challenged(after), *_division_question(after, scene))
        if screen is Screen.VERDICT:
            return _speech(after, *_verdict(after, scene))
        if screen is Screen.FAULT:
            return _speech(after, *_fault(t))
        return None
    if screen is Screen.TABLE:
        typed = after.table_digits[len(before.table_digits) :]
        if after.table_digits.startswith(before.table_digits) and typed:
            return _speech(after, Spelled(tuple(typed)))
        return _speech(after, _notice(after, scene) if after.notice != before.notice else "")
    if screen not in (Screen.ENTRY, Screen.CONFIRM):
        return _speech(after, _notice(after, scene) if after.notice != before.notice else "")
    return _entry_said(before, after, scene)


def _notice(state: SessionState, scene: Scene) -> str:
    """The notice on screen now, worded as the screen words it (the players' keys named)."""
    return _keys_named(notice_text(state, touch=scene.touch), state.language)


def _entry_said(before: SessionState, after: SessionState, scene: Scene) -> Speech | None:
    """A step of typing: a tile, a word ended, a correction, a refusal, a notice, the countdown."""
    t = after.language
    parts: list[Part] = []
    if before.screen not in (Screen.ENTRY, Screen.CONFIRM):  # the count (or division) was chosen
        parts += [_challenged(after), _type_word(after), _entry_keys(after, scene)]
    elif len(after.words) > len(before.words):  # a word ended: spelled back
        if len(after.words) >= after.expected:
            parts += _all_words(after, scene)
        else:
            parts += [_spelled(after, after.words[-1]), _type_word(after)]
    elif after.entered != before.entered:
        shown = shown_tiles(after, after.current) if after.current else ()
        if not after.entered:
            parts.append(_type_word(after))  # cleared
        elif len(after.current) > len(before.current) and after.words == before.words and shown:
            parts.append(Spelled(shown[-1:]))  # a letter typed: the tile it made
        else:  # corrected: the word as it is now
            word = after.current or after.words[-1]
            parts += [t.text("Word {number}", number=len(after.entered)), _spelled(after, word)]
    if after.refused and after.refused != before.refused:
        parts.append(refusal_text(after))
    if after.notice and after.notice != before.notice:
        parts.append(_notice(after, scene))
    if after.clearing_in_s and not before.clearing_in_s:
        parts.append(_countdown(after, scene))
    elif after.clearing_in_s in SPOKEN_COUNTDOWN_S and after.clearing_in_s != before.clearing_in_s:
        parts.append(t.plural("{count} second", "{count} seconds", after.clearing_in_s))
    return _speech(after, *parts)
