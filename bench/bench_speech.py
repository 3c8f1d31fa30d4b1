"""Benchmark of the station's voice: prints figures, asserts nothing.

Usage: .venv/bin/python bench/bench_speech.py [RUNS]

For a letter typed, a word spelled back and the verdict, in English, French and Spanish: how long
espeak-ng takes from being started to its first sound (its audio written to stdout, so that no
sound card is needed), to its last, and how long the sound lasts; and what ``Voice.say`` costs
the GUI thread (it starts the process and returns).
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time

from kiosk.core.play.speech import Speech, Spelled
from kiosk.voice import Voice

SAMPLE_RATE_HZ = 22_050  # espeak-ng's voices
BYTES_PER_SAMPLE = 2
WAV_HEADER_BYTES = 44
CASES = {
    "en": ("The play is unacceptable.", "Successful challenge."),
    "fr": ("Le coup n'est pas valable.", "Contestation réussie."),
    "es": ("La jugada no es válida.", "Impugnación con éxito."),
}


def first_and_last(voice: Voice, speech: Speech) -> tuple[float, float, float]:
    """Seconds from start to the first audio byte past the header, to the end; the sound's length."""
    command = [*voice._command(speech, "--stdout")]
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert process.stdout is not None
    head = process.stdout.read(WAV_HEADER_BYTES + 1)
    first = time.perf_counter() - started
    rest = process.stdout.read()
    process.wait()
    last = time.perf_counter() - started
    samples = (len(head) + len(rest) - WAV_HEADER_BYTES) / BYTES_PER_SAMPLE
    return first, last, samples / SAMPLE_RATE_HZ


def median_ms(values: list[float]) -> str:
    return f"{statistics.median(values) * 1000:7.1f} ms"


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    voice = Voice()
    if not voice.available:
        sys.exit("espeak-ng is not installed")
    print(f"espeak-ng at {voice.program}, {runs} runs each, medians")
    print(f"{'':14} {'to first sound':>16} {'to last':>12} {'sound lasts':>12}")
    for language, (headline, outcome) in CASES.items():
        cases = {
            "letter": Speech(language, (Spelled(("A",)),)),
            "word": Speech(language, (Spelled(tuple("QUIXOTRY")),)),
            "verdict": Speech(language, (headline, outcome)),
        }
        for name, speech in cases.items():
            figures = [first_and_last(voice, speech) for _ in range(runs)]
            first, last, length = (list(column) for column in zip(*figures, strict=True))
            print(
                f"{language} {name:11} {median_ms(first):>16} {median_ms(last):>12} "
                f"{statistics.median(length):10.2f} s"
            )
    calls = []
    speech = Speech("en", (Spelled(("A",)),))
    silent = Voice(voice.program)
    for _ in range(runs):
        started = time.perf_counter()
        silent.say(speech)
        calls.append(time.perf_counter() - started)
    silent.stop()
    print(f"Voice.say (the GUI thread's cost, the process started and left running): {median_ms(calls)}")


if __name__ == "__main__":
    main()
