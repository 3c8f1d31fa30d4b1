"""Lexicons: what a ruling asks of a word list, and the marisa-trie lexicon loaded from a pack.

Loading a pack is one road (``load_lexicon``), each step trusting only what the one before proved:
the header and digest (``kiosk.core.pack.open_pack``), the signature against the trusted keys
before anything it covers is parsed (``kiosk.core.trust``), the manifest with every field checked
(``unseal``), then the verification walk of the tries in a child process (``kiosk.core.walk``).
Only then does marisa parse a trie in this process: ``MarisaLexicon.from_contents`` takes the
walk's findings and refuses anything they do not vouch for.

A lexicon is asked about words as the normaliser gives them. In an alphabet whose tiles are single
letters that is the stored spelling, and a lookup is one trie search, as always. Where letters can
be read as tiles more than one way (Spanish ``LL``), the pack decides: every reading is tried,
each abandoned as soon as no word of the pack starts that way (``Alphabet.spellings``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

import marisa_trie

from kiosk.core.pack import (
    WORDS_SECTION,
    YOUTH_SECTION,
    PackContents,
    PackInfo,
    open_pack,
    read_sealed,
    unseal,
)
from kiosk.core.trust import PackTrust, TrustedKey, check_pack_signature
from kiosk.core.walk import PackWalker, Walk, WalkedTries, check_walk

__all__ = [
    "WORDS_SECTION",
    "YOUTH_SECTION",
    "Lexicon",
    "LoadingLexicon",
    "MarisaLexicon",
    "load_lexicon",
    "start_loading",
]


class Lexicon(Protocol):
    """What adjudication needs: membership of normalised words (upper case, in the pack's
    alphabet: ``info.alphabet``)."""

    @property
    def info(self) -> PackInfo: ...

    def __contains__(self, word: object) -> bool: ...

    def is_youth_excluded(self, word: str) -> bool: ...


@dataclass(frozen=True)
class MarisaLexicon:
    """A lexicon backed by the marisa tries of a verified pack, and whose signature it carries."""

    contents: PackContents
    words: marisa_trie.Trie
    youth: marisa_trie.Trie
    trust: PackTrust
    walked: WalkedTries
    # whether a normalised word is its own (only) spelling: every tile of the alphabet is one letter
    plain: bool = field(default=True, compare=False)

    @property
    def info(self) -> PackInfo:
        return self.contents.info

    @property
    def has_youth_list(self) -> bool:
        return YOUTH_SECTION in self.contents.sections

    def __contains__(self, word: object) -> bool:
        if self.plain:
            return word in self.words
        return isinstance(word, str) and next(self.spellings(word), None) is not None

    def is_youth_excluded(self, word: str) -> bool:
        """Whether the word is in the pack only as spellings a youth division must not accept."""
        if self.plain:
            return word in self.youth
        found = list(self.spellings(word))
        return bool(found) and all(spelling in self.youth for spelling in found)

    def spellings(self, word: str) -> Iterator[str]:
        """The spellings of a normalised word that the pack holds, as it stores them
        (``CHALLA``: ``[CH]A[LL]A``, and ``[CH]ALLA`` too if the pack had both)."""
        if self.plain:
            if word in self.words:
                yield word
            return
        words = self.words
        yield from self.info.alphabet.spellings(
            word,
            lambda prefix: next(words.iterkeys(prefix), None) is not None,
            words.__contains__,
            self.info.max_length,
        )

    @classmethod
    def from_contents(cls, contents: PackContents, trust: PackTrust, walked: WalkedTries) -> MarisaLexicon:
        """Parse the tries of a pack that the verification walk has vouched for.

        ``trust`` is the result of ``check_pack_signature``; ``walked`` what the walk found in
        these very tries, which must be what the manifest says (PackCorruptError otherwise).
        """
        check_walk(contents, walked)
        words = marisa_trie.Trie().frombytes(contents.sections[WORDS_SECTION])
        youth_bytes = contents.sections.get(YOUTH_SECTION)
        youth = marisa_trie.Trie() if youth_bytes is None else marisa_trie.Trie().frombytes(youth_bytes)
        return cls(
            contents=contents,
            words=words,
            youth=youth,
            trust=trust,
            walked=walked,
            plain=contents.info.alphabet.simple,
        )


@dataclass(frozen=True)
class LoadingLexicon:
    """A pack whose digest, signature and manifest are checked, and whose tries are being walked:
    its manifest (``info``) may be used meanwhile, its words only once ``result()`` returns."""

    contents: PackContents
    trust: PackTrust
    walk: Walk

    @property
    def info(self) -> PackInfo:
        return self.contents.info

    @property
    def has_youth_list(self) -> bool:
        return YOUTH_SECTION in self.contents.sections

    def done(self) -> bool:
        """Whether ``result()`` would return (or raise) without waiting for the walk."""
        return self.walk.done()

    def result(self) -> MarisaLexicon:
        """The lexicon, once the walk has vouched for its tries; PackError if it does not."""
        return MarisaLexicon.from_contents(self.contents, self.trust, self.walk.result())


def start_loading(
    source: Path | bytes,
    *,
    trusted_keys: Iterable[TrustedKey] = (),
    walker: PackWalker | None = None,
) -> LoadingLexicon:
    """``load_lexicon`` up to the walk, which is started and left running (``PackWalker.start``):
    the caller may do other work, such as reading its input, before it asks for the result."""
    sealed = read_sealed(source) if isinstance(source, Path) else open_pack(source)
    trust = check_pack_signature(sealed, trusted_keys)
    contents = unseal(sealed)
    return LoadingLexicon(contents, trust, (walker if walker is not None else PackWalker()).start(contents))


def load_lexicon(
    source: Path | bytes,
    *,
    trusted_keys: Iterable[TrustedKey] = (),
    walker: PackWalker | None = None,
) -> MarisaLexicon:
    """Load a pack from a file or bytes, verified whole before marisa parses a byte here.

    The digest, then the signature, are checked first. With ``trusted_keys`` (a station's
    ``[[trusted_keys]]``), a pack not signed by one of them raises PackSignatureError before its
    manifest is parsed; without, any good signature or none is accepted. ``lexicon.trust.label``
    says which, for the screen. ``walker`` walks the tries in a child process (by default with no
    cache: the station passes one that remembers, ``kiosk.paths.cache_dir``).
    """
    return start_loading(source, trusted_keys=trusted_keys, walker=walker).result()
