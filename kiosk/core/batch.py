"""Many challenges at once: one output line per input line, a bad line never stops the run.

Used by ``kiosk check --batch`` (organisers re-checking a day's challenge slips, or testing a new
pack). Lines made only of ASCII letters and separators take a fast path that gives exactly what
``adjudicate`` gives; anything else goes through ``adjudicate`` itself and its error message.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from kiosk.core.adjudication import MAX_WORDS_PER_CHALLENGE, adjudicate
from kiosk.core.errors import InputError
from kiosk.core.lexicon import Lexicon
from kiosk.core.normalise import MIN_WORD_LETTERS

__all__ = ["batch_rulings"]

_SEPARATORS = re.compile(r"[ ,\t]+")


def batch_rulings(
    lines: Iterable[str],
    lexicon: Lexicon,
    *,
    youth: bool = False,
    max_words: int = MAX_WORDS_PER_CHALLENGE,
) -> Iterator[str]:
    """Yield ``ACCEPTABLE``, ``UNACCEPTABLE`` or ``INVALID: reason`` for each line, in order."""
    word = f"[A-Za-z]{{{MIN_WORD_LETTERS},{lexicon.info.max_length}}}"
    fast = re.compile(rf"{word}(?:[ ,\t]+{word}){{0,{max_words - 1}}}")
    split = _SEPARATORS.split
    contains = lexicon.__contains__
    excluded = lexicon.is_youth_excluded
    for line in lines:
        text = line.strip(" ,\t\r\n")
        if fast.fullmatch(text) is not None:
            words = split(text.upper())
            ok = all(map(contains, words)) and not (youth and any(map(excluded, words)))
            yield "ACCEPTABLE" if ok else "UNACCEPTABLE"
            continue
        try:
            ruling = adjudicate(text, lexicon, youth=youth, max_words=max_words)
        except InputError as exc:
            yield f"INVALID: {exc}"
        else:
            yield ruling.verdict.value
