"""What the station says, step by step, in every language: each step once, never which word failed."""

from __future__ import annotations

import re

import pytest

from kiosk.core.packs.lexicon import MarisaLexicon
from kiosk.core.play.adjudication import adjudicate
from kiosk.core.play.rules import RuleProfile
from kiosk.core.play.session import (
    Backspace,
    DivisionSelected,
    IdleWarned,
    JudgePressed,
    LockoutEnded,
    Recorded,
    Screen,
    start,
    transition,
)
from kiosk.core.play.speech import Scene, Speech, Spelled, said, screen_said
from kiosk.core.words.language import english, load_catalogue
from tests.speaking import SCENE, challenge, keys, spoken

LANGUAGES = ("en", "fr", "es")


def test_a_challenge_is_said_step_by_step_in_english(small_lexicon: MarisaLexicon) -> None:
    steps = spoken(challenge("cat qiz"), small_lexicon, english())
    said_texts = [s.text if s else None for _, s in steps]
    assert said_texts == [
        "2 words challenged. CHALLENGER: type word 1 of 2. Space, comma or Enter after each word. "
        "Backspace corrects. Esc clears.",
        "C.",
        "A.",
        "T.",
        "C A T. CHALLENGER: type word 2 of 2.",
        "Q.",
        "I.",
        "Z.",
        "All 2 words typed. Word 1. C A T. Word 2. Q I Z. Both players: check the spelling. "
        "CHALLENGED PLAYER: press TAB to judge.",
        None,  # Tab: the ruling is on its way
        "The play is unacceptable. Successful challenge. The play comes off the board: the "
        "CHALLENGED PLAYER scores nothing this turn.",
        None,  # the lock-out ends: the verdict is not said again
        "CHALLENGER: how many words are challenged? Press 1 to 8. Press F1 to hear the screen again.",
    ]


def test_letters_are_spelled_as_tiles(small_lexicon: MarisaLexicon) -> None:
    steps = spoken(keys("1ca"), small_lexicon, english())
    assert [s.parts for _, s in steps[1:] if s] == [(Spelled(("C",)),), (Spelled(("A",)),)]


@pytest.mark.parametrize("language", LANGUAGES)
def test_nothing_said_tells_which_word_failed(small_lexicon: MarisaLexicon, language: str) -> None:
    """From the Tab on, two plays with the same verdict and number of words say the same."""
    t = load_catalogue(language)

    def after_tab(words: str) -> list[Speech | None]:
        steps = spoken(challenge(words), small_lexicon, t)
        return [s for _, s in steps[-4:]]

    good_bad = after_tab("cat zax")
    assert good_bad == after_tab("zax cat") == after_tab("qix zax") == after_tab("dogz qi")
    assert after_tab("cat qi") != good_bad  # acceptable is said otherwise


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_step_says_something_once_in_every_language(
    small_lexicon: MarisaLexicon, language: str
) -> None:
    t = load_catalogue(language)
    steps = spoken(challenge("cat qi"), small_lexicon, t)
    quiet = [type(event).__name__ for event, speech in steps if speech is None]
    assert quiet == ["JudgePressed", "LockoutEnded"]  # the ruling answers the Tab at once
    for _event, speech in steps:
        if speech is not None:
            assert speech.language == language
    if language != "en":  # said in the language, not in English
        english_steps = spoken(challenge("cat qi"), small_lexicon, english())
        for (_, here), (_, there) in zip(steps, english_steps, strict=True):
            if here is not None and there is not None and not all(isinstance(p, Spelled) for p in here.parts):
                assert here.text != there.text


def test_refusals_notices_corrections_and_the_countdown_are_said() -> None:
    t = english()
    state = transition(start((15,), station_words=t), keys("2")[0]).state
    for event in keys("dog"):
        state = transition(state, event).state

    def step(event: object) -> str:
        nonlocal state
        after = transition(state, event).state  # type: ignore[arg-type]
        speech = said(state, after, SCENE)
        state = after
        return speech.text if speech else ""

    assert step(keys("1")[0]) == 'Not typed: "1" is not one of the letters A to Z.'
    assert step(Backspace()) == "Word 1. D O."
    assert step(IdleWarned(20)) == "The entry clears in 20 seconds: press any key to keep it."
    assert step(IdleWarned(19)) == ""
    assert step(IdleWarned(10)) == "10 seconds."
    assert step(JudgePressed()) == "D O. CHALLENGER: type word 2 of 2."  # Tab ends the word
    assert step(JudgePressed()) == "Type all 2 words first (1 to go)."


def test_the_repeat_key_says_the_whole_screen(small_lexicon: MarisaLexicon) -> None:
    state = start((15,), station_words=english())
    ready = screen_said(state, SCENE)
    assert ready is not None
    assert "Press F1 to hear the screen again" in ready.text
    for event in keys("2cat do"):
        state = transition(state, event).state
    entry = screen_said(state, SCENE)
    assert entry is not None
    assert "Word 1. C A T. Word 2. D O." in entry.text
    state = transition(state, keys("g\r")[0]).state
    state = transition(state, keys("\r")[0]).state
    assert state.screen is Screen.CONFIRM


def test_the_verdict_is_said_once(small_lexicon: MarisaLexicon) -> None:
    state = start((15,), station_words=english())
    for event in [*keys("1cat"), JudgePressed()]:
        state = transition(state, event).state
    verdict = transition(state, Recorded(adjudicate(state.words, small_lexicon))).state
    assert said(state, verdict, SCENE) is not None
    unlocked = transition(verdict, LockoutEnded()).state
    assert said(verdict, unlocked, SCENE) is None


ALL_LANGUAGES = ("en", "fr", "es", "it", "ca", "de", "pl")


@pytest.mark.parametrize("language", ALL_LANGUAGES)
def test_a_touch_station_says_the_touch_screen_s_keys(small_lexicon: MarisaLexicon, language: str) -> None:
    """A touch screen has JUDGE, CLEAR, BACK and OK, and is tapped: speech there says what the
    touch screens say, never the keyboard's Tab, Esc, Enter or "press" (the notices already did)."""
    t = load_catalogue(language)
    touch = Scene(("Open", "Schools"), RuleProfile(), touch=True)
    keyboard_only = {
        t.text("press TAB"),
        t.text("Press 1 to 8"),
        t.text("press any key"),
        *t.text("Type the digits, then Enter \u00b7 Backspace corrects \u00b7 Esc starts again").split(
            " \u00b7"
        ),
        *t.text("Space, comma or Enter after each word\nBackspace corrects \u00b7 Esc clears").splitlines(),
        t.text("Press {number} for {name}", number=1, name="Open"),
    }
    state = start((15, 15), ask_table=True, station_words=t)
    heard: list[str] = []

    def step(event: object) -> None:
        nonlocal state
        after = transition(state, event).state  # type: ignore[arg-type]
        for speech in (said(state, after, touch), screen_said(after, touch)):
            if speech is not None:
                heard.append(speech.text)
        state = after

    ready = screen_said(state, touch)
    assert ready is not None
    heard.append(ready.text)
    count, table, division = keys("2"), keys("12\r"), DivisionSelected(0)
    for event in [*count, IdleWarned(20), *table, division, *keys("cat"), IdleWarned(20)]:
        step(event)
    for event in keys(" qi "):
        step(event)
    assert state.screen is Screen.CONFIRM
    said_all = "\n".join(heard)
    assert t.text("tap JUDGE") in said_all
    assert t.text("Tap 1 to 8") in said_all
    countdown = t.plural(
        "The entry clears in {count} second: tap any key to keep it.",
        "The entry clears in {count} seconds: tap any key to keep it.",
        20,
    )
    assert countdown in said_all
    assert language == "en" or countdown != english().plural(
        "The entry clears in {count} second: tap any key to keep it.",
        "The entry clears in {count} seconds: tap any key to keep it.",
        20,
    )
    for text in keyboard_only:
        assert text.strip() not in said_all, f"{text!r} said on a touch station"


@pytest.mark.parametrize("language", ALL_LANGUAGES)
def test_no_key_is_said_as_its_symbol(language: str) -> None:
    """A screen shows Backspace as ⌫ (and a touch key as "⌫ CORREGIR"): the voice says the key's
    name, or the touch key's label, never the symbol, in the notices too ("Corrija con ⌫")."""
    t = load_catalogue(language)
    heard: list[str] = []
    for scene in (SCENE, Scene(("Open",), RuleProfile(), touch=True)):
        state = start((3,), station_words=t)
        for event in keys("1catsq"):
            after = transition(state, event).state
            for speech in (said(state, after, scene), screen_said(after, scene)):
                if speech is not None:
                    heard.append(speech.text)
            state = after
        assert state.notice is not None  # too long: Backspace corrects it
    said_all = "\n".join(heard)
    assert "\u232b" not in said_all
    after_name = re.findall(re.escape(t.text("Backspace")) + r" (\w+)", said_all)
    assert not [word for word in after_name if word.isupper()]  # not "Retroceso CORREGIR"
