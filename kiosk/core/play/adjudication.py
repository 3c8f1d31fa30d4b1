"""One verdict for a whole play: ACCEPTABLE if and only if every challenged word is acceptable.

The per-word results are kept for judges (the recheck and the log) but a player screen shows only
``Ruling.verdict``. Input errors are decided for the whole entry before any lookup, so no error
message can depend on which word is in the lexicon.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass

from kiosk.core.packs.lexicon import Lexicon
from kiosk.core.packs.pack import PackInfo
from kiosk.core.words.normalise import normalise_play

__all__ = [
    "MAX_WORDS_PER_CHALLENGE",
    "Ruling",
    "Verdict",
    "WordResult",
    "WordStatus",
    "adjudicate",
    "judge_words",
    "read_play",
]

MAX_WORDS_PER_CHALLENGE = 8


class Verdict(enum.Enum):
    ACCEPTABLE = "ACCEPTABLE"
    UNACCEPTABLE = "UNACCEPTABLE"


class WordStatus(enum.Enum):
    """Why one word was ruled as it was: for judges only, never for the player screen."""

    ACCEPTABLE = "acceptable"
    NOT_IN_LEXICON = "not in the lexicon"
    YOUTH_EXCLUDED = "on the youth exclusion list"

    @property
    def acceptable(self) -> bool:
        return self is WordStatus.ACCEPTABLE


@dataclass(frozen=True)
class WordResult:
    word: str
    status: WordStatus


@dataclass(frozen=True)
class Ruling:
    """The outcome of one challenge: the verdict, and the per-word breakdown for judges."""

    words: tuple[str, ...]
    verdict: Verdict
    results: tuple[WordResult, ...]
    youth_rules: bool
    pack_name: str
    pack_edition: str
    set_hash: str
    youth_set_hash: str | None = None
    """The digest of the youth exclusion list that applied (None without youth rules)."""

    @property
    def acceptable(self) -> bool:
        return self.verdict is Verdict.ACCEPTABLE


def _status(word: str, lexicon: Lexicon, youth: bool) -> WordStatus:
    if word not in lexicon:
        return WordStatus.NOT_IN_LEXICON
    if youth and lexicon.is_youth_excluded(word):
        return WordStatus.YOUTH_EXCLUDED
    return WordStatus.ACCEPTABLE


def judge_words(words: tuple[str, ...], lexicon: Lexicon, *, youth: bool = False) -> Ruling:
    """Rule on words already normalised by ``normalise_play`` (the station's hot path)."""
    results = tuple(WordResult(word, _status(word, lexicon, youth)) for word in words)
    verdict = (
        Verdict.ACCEPTABLE if all(result.status.acceptable for result in results) else Verdict.UNACCEPTABLE
    )
    info = lexicon.info
    return Ruling(
        words=words,
        verdict=verdict,
        results=results,
        youth_rules=youth,
        pack_name=info.name,
        pack_edition=info.edition,
        set_hash=info.set_hash,
        youth_set_hash=info.youth_set_hash if youth else None,
    )


def read_play(
    words: str | Iterable[str], info: PackInfo, *, max_words: int = MAX_WORDS_PER_CHALLENGE
) -> tuple[str, ...]:
    """A whole challenge normalised for a pack (``info``, its manifest): every input error raised
    (InputError) before any lookup, and from the manifest alone, so that no message can depend on
    which word the pack holds."""
    return normalise_play(words, max_length=info.max_length, max_words=max_words, alphabet=info.alphabet)


def adjudicate(
    words: str | Iterable[str],
    lexicon: Lexicon,
    *,
    youth: bool = False,
    max_words: int = MAX_WORDS_PER_CHALLENGE,
) -> Ruling:
    """Normalise a whole challenge, then rule on it; raise InputError before any lookup."""
    return judge_words(read_play(words, lexicon.info, max_words=max_words), lexicon, youth=youth)
