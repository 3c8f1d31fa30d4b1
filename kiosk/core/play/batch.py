"""Many challenges at once: one output line per input line, a bad line never stops the run.

Used by ``kiosk check --batch`` (organisers re-checking a day's challenge slips, or a director
checking a new pack against the list it was built from, one word a line). Every line gets exactly
what ``adjudicate`` gives it (``tests/test_batch.py`` holds the two together, INVALID lines
included), in two steps, as ``adjudicate`` itself decides every input error before any lookup:

1. ``BatchReader.read`` needs the pack's manifest only (so it may run while the pack's tries are
   still being walked, on a pack's first use): each line's words normalised, or its INVALID
   answer, by one of three roads, the first that applies:

   * the lines that are each one word of allowed length: found by a few passes of C code over
     many lines at a time, whatever odd lines stand among them. Where the alphabet takes A-Z words
     as they are (English, French, Italian, German), the lines of plain A-Z, upper-cased in one
     go; in the others (Spanish CH, Polish without Q), the lines made only of letters the
     alphabet takes, read as a list writes them (``Alphabet.listed_lines_at_once``), which is how
     a player's letters are read where no ``+`` or combining accent is typed;
   * a line of 1 to ``max_words`` plain A-Z words between separators (A-Z alphabets): its words,
     by a regex;
   * anything else (a character that is not a letter, a word too short or too long, too many
     words, nothing at all): ``read_play``, as ``adjudicate`` reads it, for its words or its error.
2. ``ReadLines.rulings``: the lookups, word after word, with the trie's own membership test.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

from kiosk.core.errors import InputError
from kiosk.core.packs.lexicon import Lexicon, MarisaLexicon
from kiosk.core.packs.pack import PackInfo
from kiosk.core.play.adjudication import MAX_WORDS_PER_CHALLENGE, Verdict, read_play
from kiosk.core.words.alphabet import unmatched_lines
from kiosk.core.words.normalise import MIN_WORD_LETTERS, SEPARATORS

__all__ = ["BatchReader", "ReadLines", "batch_rulings"]

# Lines read and ruled together by batch_rulings (kiosk check reads its input a block at a time).
RUN_LINES = 1 << 16
_ACCEPTABLE = Verdict.ACCEPTABLE.value
_UNACCEPTABLE = Verdict.UNACCEPTABLE.value
_VERDICTS = (_UNACCEPTABLE, _ACCEPTABLE)  # indexed by whether a play is acceptable
_SEPARATOR_CLASS = f"[{re.escape(SEPARATORS)}]"
_LETTERS = re.compile("[A-Z]+")


@dataclass(frozen=True)
class ReadLines:
    """Lines read, waiting for a lexicon: ``words`` holds line i's only word at index i ("" for
    the others; None when no line is one word); ``odd`` every other line's words, or its INVALID
    answer."""

    words: list[str] | None
    odd: dict[int, tuple[str, ...] | str]
    count: int

    def rulings(self, lexicon: Lexicon, *, youth: bool = False) -> list[str]:
        """``ACCEPTABLE``, ``UNACCEPTABLE`` or ``INVALID: reason`` for each line, in order."""
        acceptable = _acceptance(lexicon, youth)
        if self.words is None:
            answers = [_UNACCEPTABLE] * self.count
        else:
            answers = list(map(_VERDICTS.__getitem__, map(acceptable, self.words)))
        for index, read in self.odd.items():
            answers[index] = read if isinstance(read, str) else _VERDICTS[all(map(acceptable, read))]
        return answers


def _acceptance(lexicon: Lexicon, youth: bool) -> Callable[[str], bool]:
    """Whether one normalised word is acceptable, with no more calls than needed: for a pack's
    lexicon, the trie's own membership test."""
    if youth:

        def acceptable_to_youth(word: str) -> bool:
            return word in lexicon and not lexicon.is_youth_excluded(word)

        return acceptable_to_youth
    if isinstance(lexicon, MarisaLexicon):
        in_trie: Callable[[str], bool] = lexicon.words.__contains__
        return in_trie
    return lexicon.__contains__


class BatchReader:
    """Reads lines for one pack and one most number of words (its regexes compiled once)."""

    def __init__(self, info: PackInfo, *, max_words: int = MAX_WORDS_PER_CHALLENGE) -> None:
        word = f"[A-Za-z]{{{MIN_WORD_LETTERS},{info.max_length}}}"
        self._one_word_lines = re.compile(rf"(?:{word}\n)*")
        self._words_line = re.compile(
            rf"{_SEPARATOR_CLASS}*{word}(?:{_SEPARATOR_CLASS}+{word}){{0,{max_words - 1}}}{_SEPARATOR_CLASS}*"
        )
        self._plain_roads = info.alphabet.takes_ascii_as_typed
        self.info = info
        self.max_words = max_words

    def read(self, lines: Sequence[str]) -> ReadLines:
        """Every line's words, or its INVALID answer; nothing here looks a word up."""
        text = "\n".join(lines)
        # (a line holding a line break of its own would read as two: every line is then odd)
        if text.count("\n") != len(lines) - 1:
            return ReadLines(None, {index: self.line(line) for index, line in enumerate(lines)}, len(lines))
        if self._plain_roads:
            words = text.upper().split("\n")  # line for line: upper-casing never makes a line feed
            odd: Sequence[int] = list(unmatched_lines(self._one_word_lines, text))
        else:  # each line a word as a list would write it, if it is typed as one: read as typed
            listed = self.info.alphabet.listed_lines_at_once(text, self.info.max_length)
            words, odd = listed.words, listed.odd
        read: dict[int, tuple[str, ...] | str] = {index: self.line(lines[index]) for index in odd}
        for index in odd:
            words[index] = ""  # looked up for nothing, and never anything but a word
        return ReadLines(None if len(read) == len(lines) else words, read, len(lines))

    def line(self, line: str) -> tuple[str, ...] | str:
        """One line's words, or its INVALID answer."""
        if self._plain_roads and self._words_line.fullmatch(line) is not None:
            return tuple(_LETTERS.findall(line.upper()))
        try:
            return read_play(line, self.info, max_words=self.max_words)
        except InputError as exc:
            return f"INVALID: {exc}"


def batch_rulings(
    lines: Iterable[str],
    lexicon: Lexicon,
    *,
    youth: bool = False,
    max_words: int = MAX_WORDS_PER_CHALLENGE,
) -> Iterator[str]:
    """Yield ``ACCEPTABLE``, ``UNACCEPTABLE`` or ``INVALID: reason`` for each line, in order."""
    reader = BatchReader(lexicon.info, max_words=max_words)
    run: list[str] = []
    for line in lines:
        run.append(line)
        if len(run) == RUN_LINES:
            yield from reader.read(run).rulings(lexicon, youth=youth)
            run = []
    if run:
        yield from reader.read(run).rulings(lexicon, youth=youth)
