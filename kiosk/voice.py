"""The station's voice: espeak-ng, run directly, offline, in the players' language.

Why espeak-ng called directly rather than Qt's text-to-speech over speech-dispatcher: the
station's PySide6-Essentials has no QtTextToSpeech (only its type stub ships; the module is in
PySide6-Addons, hundreds of megabytes more), and the dispatcher is a daemon more on a kiosk, with
its own configuration and its own output module that calls espeak-ng in the end. espeak-ng is one
small Debian package (``packaging/linux/debian-packages.txt``) with voices for every language the
station speaks; it starts, says a letter and exits in a few milliseconds
(``bench/bench_speech.py``), and renders the same speech to a WAV file, which is how the tests
check what it says (``tests/test_speech_audio.py``).

One utterance at a time: a new one stops the one still speaking (a player typing fast hears the
letter just typed, not a queue of old ones). The sound goes to the system's default output: on a
station, the headphone jack (``docs/install.md``).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from kiosk.core.play.speech import Speech, Spelled

__all__ = ["ESPEAK", "SPEECH_RATE_WPM", "Voice", "ssml"]

ESPEAK = "espeak-ng"
SPEECH_RATE_WPM = 160  # a little slower than espeak-ng's 175: letters and numbers are heard apart
PAUSE_MS = 250  # between the parts of an utterance
TILE_PAUSE_MS = 100  # between a multi-letter tile (Spanish CH) and the letters beside it


def escape(text: str) -> str:
    """``text`` as SSML's text (xml.sax.saxutils does the same, but imports urllib.request: ~30 ms
    of the station's start-up)."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def ssml(speech: Speech) -> str:
    """``speech`` as SSML for espeak-ng: a word spelled is said letter by letter ("A" is the letter,
    not the article), a tile of several letters (Spanish CH, LL) as the tile's own name."""
    parts: list[str] = []
    for part in speech.parts:
        if not isinstance(part, Spelled):
            parts.append(escape(part))
            continue
        groups: list[str] = []  # letters in a row are spelled together; a tile of several alone
        letters = ""
        for tile in (*part.tiles, ""):
            if len(tile) == 1:
                letters += tile.lower()
                continue
            if letters:
                groups.append(f'<say-as interpret-as="characters">{escape(letters)}</say-as>')
                letters = ""
            if tile:
                groups.append(escape(tile.lower()))
        parts.append(f'<break time="{TILE_PAUSE_MS}ms"/>'.join(groups))
    pause = f'<break time="{PAUSE_MS}ms"/>'
    return f"<speak>{pause.join(parts)}</speak>"


class Voice:
    """espeak-ng saying one ``Speech`` at a time."""

    def __init__(self, program: str | None = None, *, rate_wpm: int = SPEECH_RATE_WPM) -> None:
        """``program``: the espeak-ng to run (default: the one on the PATH)."""
        self.program = program or shutil.which(ESPEAK) or ""
        self.rate_wpm = rate_wpm
        self._speaking: subprocess.Popen[bytes] | None = None

    @property
    def available(self) -> bool:
        return bool(self.program) and Path(self.program).exists()

    def _command(self, speech: Speech, *extra: str) -> list[str]:
        return [self.program, "-m", "-v", speech.language, "-s", str(self.rate_wpm), *extra, ssml(speech)]

    def say(self, speech: Speech) -> None:
        """Say ``speech`` now, cutting short what is still being said; never waits for it."""
        self.stop()
        if not self.available:
            return
        self._speaking = subprocess.Popen(
            self._command(speech),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )

    def stop(self) -> None:
        speaking, self._speaking = self._speaking, None
        if speaking is not None and speaking.poll() is None:
            speaking.terminate()
            speaking.wait()

    def render(self, speech: Speech, wav: Path) -> None:
        """Write ``speech`` to ``wav`` as it would be said (for the tests and the benchmark)."""
        subprocess.run(self._command(speech, "-w", str(wav)), check=True, capture_output=True)
