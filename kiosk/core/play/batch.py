"""Many challenges at once: one output line per input line, a bad line never stops the run.

Used by ``kiosk check --batch`` (organisers re-checking a day's challenge slips, or a director
checking a new pack against the list it was built from, one word a line). Every line gets exactly
what ``adjudicate`` gives it (``tests/test_batch.py`` holds the two together, INVALID lines
included), by one of three roads, the first that applies:

* a run of lines that are each one plain A-Z word, of allowed length (a word list): checked as one
  text by one regex, upper-cased in one go, and looked up word after word with no other work;
* a line of 1 to ``max_words`` plain A-Z words between separators: checked by a regex, its words
  looked up;
* anything else (a character that is not a letter, a word too short or too long, too many words,
  nothing at all): ``adjudicate`` itself, for its error message.

The first two apply to packs whose alphabet takes A-Z words as they are (English, French, Italian,
German); in any other (Spanish CH, Polish without Q) every line goes the third road.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Iterator, Sequence

from kiosk.core.errors import InputError
from kiosk.core.packs.lexicon import Lexicon
from kiosk.core.play.adjudication import MAX_WORDS_PER_CHALLENGE, Verdict, adjudicate
from kiosk.core.words.normalise import MIN_WORD_LETTERS, SEPARATORS

__all__ = ["batch_rulings"]

# Lines taken together for the one-word road: a run holding one line that needs more falls back to
# the other roads for that run only.
RUN_LINES = 1024
_ACCEPTABLE = Verdict.ACCEPTABLE.value
_UNACCEPTABLE = Verdict.UNACCEPTABLE.value
_SEPARATOR_CLASS = f"[{re.escape(SEPARATORS)}]"
_LETTERS = re.compile("[A-Z]+")


class _Ruler:
    """The roads for one lexicon and one set of rules (their regexes are compiled once)."""

    def __init__(self, lexicon: Lexicon, youth: bool, max_words: int) -> None:
        word = f"[A-Za-z]{{{MIN_WORD_LETTERS},{lexicon.info.max_length}}}"
        self.one_word_lines = re.compile(rf"(?:{word}\n)*{word}")
        self.words_line = re.compile(
            rf"{_SEPARATOR_CLASS}*{word}(?:{_SEPARATOR_CLASS}+{word}){{0,{max_words - 1}}}{_SEPARATOR_CLASS}*"
        )
        self.plain_roads = lexicon.info.alphabet.takes_ascii_as_typed
        self.lexicon = lexicon
        self.youth = youth
        self.max_words = max_words
        # what decides whether one normalised word is acceptable, with no more calls than needed
        self.acceptable = self._acceptable_to_youth if youth else lexicon.__contains__

    def _acceptable_to_youth(self, word: str) -> bool:
        return word in self.lexicon and not self.lexicon.is_youth_excluded(word)

    def run(self, lines: Sequence[str]) -> list[str]:
        text = "\n".join(lines)
        # (a line holding a line break of its own would read as two)
        if not self.plain_roads:
            return [self.line(line) for line in lines]
        if text.count("\n") == len(lines) - 1 and self.one_word_lines.fullmatch(text) is not None:
            words = text.upper().split("\n")
            return [_ACCEPTABLE if ok else _UNACCEPTABLE for ok in map(self.acceptable, words)]
        return [self.line(line) for line in lines]

    def line(self, line: str) -> str:
        if self.plain_roads and self.words_line.fullmatch(line) is not None:
            ok = all(map(self.acceptable, _LETTERS.findall(line.upper())))
            return _ACCEPTABLE if ok else _UNACCEPTABLE
        try:
            ruling = adjudicate(line, self.lexicon, youth=self.youth, max_words=self.max_words)
        except InputError as exc:
            return f"INVALID: {exc}"
        return ruling.verdict.value


def batch_rulings(
    lines: Iterable[str],
    lexicon: Lexicon,
    *,
    youth: bool = False,
    max_words: int = MAX_WORDS_PER_CHALLENGE,
) -> Iterator[str]:
    """Yield ``ACCEPTABLE``, ``UNACCEPTABLE`` or ``INVALID: reason`` for each line, in order."""
    ruler = _Ruler(lexicon, youth, max_words)
    remaining = iter(lines)
    while run := list(itertools.islice(remaining, RUN_LINES)):
        yield from ruler.run(run)
