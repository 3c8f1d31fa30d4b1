"""What the station says, as sound: espeak-ng renders each step to a WAV file, sox measures it.

Not by ear: every step of a challenge is rendered in English, French and Spanish and must be
sound (long enough, loud enough, in that language's voice); what is said after the Tab must be
the same sound, to the byte, whichever word failed; and espeak-ng's own phonemes show a spelled
letter said as the letter ("A" as "ay", not the article) and a Spanish CH tile as "che".
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from kiosk.core.packs.lexicon import MarisaLexicon
from kiosk.core.play.speech import Speech, Spelled
from kiosk.core.words.language import load_catalogue
from kiosk.core.words.language import spoken as languages_spoken
from kiosk.voice import ESPEAK, Voice, ssml
from tests.speaking import challenge, spoken

LANGUAGES = ("en", "fr", "es")
MIN_RMS = 0.01  # silence (or a voice that said nothing) measures below 0.001
MIN_LETTER_S = 0.15
MAX_LETTER_S = 1.5  # a letter typed is heard at once, not a sentence


def stat(wav: Path) -> dict[str, float]:
    """sox's measurements of a sound file: 'Length (seconds)', 'RMS amplitude' and the rest."""
    sox = shutil.which("sox")
    assert sox, "sox is missing: ./dev.sh test installs it (packaging/linux/debian-packages.txt)"
    out = subprocess.run([sox, str(wav), "-n", "stat"], capture_output=True, text=True, check=True).stderr
    found = {}
    for line in out.splitlines():
        name, _, value = line.partition(":")
        if re.fullmatch(r"\s*-?[\d.]+\s*", value):
            found[" ".join(name.split())] = float(value)
    return found


def phonemes(speech: Speech) -> str:
    """espeak-ng's phonemes for ``speech`` as the station says it."""
    out = subprocess.run(
        [ESPEAK, "-q", "-m", "-x", "-v", speech.language, ssml(speech)],
        capture_output=True,
        text=True,
        check=True,
    )
    return " ".join(out.stdout.split())


@pytest.fixture(scope="module")
def voice() -> Voice:
    found = Voice()
    assert found.available, "espeak-ng is missing: ./dev.sh installs it (packaging/linux/debian-packages.txt)"
    return found


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_step_of_a_challenge_is_heard(
    voice: Voice, small_lexicon: MarisaLexicon, language: str, tmp_path: Path
) -> None:
    steps = spoken(challenge("cat qi"), small_lexicon, load_catalogue(language))
    for index, (event, speech) in enumerate(steps):
        if speech is None:
            continue
        wav = tmp_path / f"{index}.wav"
        voice.render(speech, wav)
        measured = stat(wav)
        assert measured["RMS amplitude"] > MIN_RMS, (event, speech.text)
        if len(speech.parts) == 1 and isinstance(speech.parts[0], Spelled):  # a letter typed
            assert MIN_LETTER_S < measured["Length (seconds)"] < MAX_LETTER_S, speech.text
        else:
            assert measured["Length (seconds)"] > 1.0, speech.text


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_verdict_sounds_the_same_whichever_word_failed(
    voice: Voice, small_lexicon: MarisaLexicon, language: str, tmp_path: Path
) -> None:
    t = load_catalogue(language)
    heard = []
    for words in ("cat zax", "zax cat", "qix zax"):
        after_tab = [s for _, s in spoken(challenge(words), small_lexicon, t)[-4:] if s is not None]
        files = []
        for index, speech in enumerate(after_tab):
            wav = tmp_path / f"{words}-{index}.wav"
            voice.render(speech, wav)
            files.append(wav.read_bytes())
        heard.append(files)
    assert heard[0] == heard[1] == heard[2]
    assert len(heard[0]) == 2  # the verdict and the ready screen's question


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_language_has_its_own_voice(voice: Voice, language: str, tmp_path: Path) -> None:
    """The same text said by each language's voice is another sound: the voice follows the station."""
    t = load_catalogue(language)
    text = t.text("The play is acceptable.")
    here, english = tmp_path / "here.wav", tmp_path / "en.wav"
    voice.render(Speech(language, (text,)), here)
    voice.render(Speech("en", (text,)), english)
    assert (here.read_bytes() == english.read_bytes()) == (language == "en")


@pytest.mark.parametrize(
    ("language", "letter_a"),
    [("en", "'eI"), ("fr", "'a"), ("es", "'a")],
)
def test_a_spelled_letter_is_said_as_the_letter(language: str, letter_a: str) -> None:
    said = phonemes(Speech(language, (Spelled(("A",)),)))
    assert said.startswith(letter_a), said
    assert "a#" not in said  # English's article, "uh"
    # a word spelled is its letters said one by one (stress aside: the last letter takes it)
    whole = phonemes(Speech(language, (Spelled(tuple("DOGZ")),)))
    one_by_one = [phonemes(Speech(language, (Spelled((letter,)),))) for letter in "DOGZ"]
    assert _sounds(whole) == [sound for letter in one_by_one for sound in _sounds(letter)]


def _sounds(phonemes: str) -> list[str]:
    """espeak-ng's phonemes without stress marks and pauses, word by word."""
    return [p for p in re.split(r"[_!| ]+", phonemes.replace("'", "").replace(",", "")) if p]


def test_a_spanish_tile_of_two_letters_is_said_by_its_name() -> None:
    assert phonemes(Speech("es", (Spelled(("CH",)),))) == "tS'e"  # "che", not "ce hache"
    assert phonemes(Speech("es", (Spelled(("LL",)),))) == "'El^e"  # "elle", not "ele ele"
    assert phonemes(Speech("es", (Spelled(("C", "H")),))) != "tS'e"  # two tiles are two letters


def test_every_language_the_station_speaks_has_a_voice(voice: Voice, tmp_path: Path) -> None:
    """A station in Italian, Catalan, German or Polish speaks too: espeak-ng has each one's voice
    (a language without one would be said by espeak-ng's default, English, or not at all)."""
    for language in languages_spoken():
        listed = subprocess.run(
            [ESPEAK, f"--voices={language}"], capture_output=True, text=True, check=True
        ).stdout.splitlines()
        assert len(listed) > 1, f"espeak-ng has no voice for {language}"  # a heading, then voices
        t = load_catalogue(language)
        wav = tmp_path / f"{language}.wav"
        voice.render(Speech(language, (t.text("The play is acceptable."),)), wav)
        assert stat(wav)["RMS amplitude"] > MIN_RMS, language
