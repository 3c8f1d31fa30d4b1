"""Lexicons: what a ruling asks of a word list, and the marisa-trie lexicon loaded from a pack.

Loading a pack is one road (``load_lexicon``), each step trusting only what the one before proved:
the header and digest (``kiosk.core.packs.pack.open_pack``), the signature against the trusted keys
before anything it covers is parsed (``kiosk.core.packs.trust``), the manifest with every field checked
(``unseal``), then the verification walk of the tries in a child process (``kiosk.core.packs.verification``).
Only then does marisa parse a trie in this process: ``MarisaLexicon.from_contents`` takes the
walk's findings and refuses anything they do not vouch for.

A lexicon is asked about words as the normaliser gives them: the stored spelling of the one
reading the players saw (``kiosk.core.words.alphabet``: Spanish ``CALLE`` is ``CA[LL]E``, and only that),
so a lookup is one trie search in every alphabet. The pack never chooses between readings.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import marisa_trie

from kiosk.core.packs.pack import (
    WORDS_SECTION,
    YOUTH_SECTION,
    PackContents,
    PackInfo,
    open_pack,
    read_sealed,
    unseal,
)
from kiosk.core.packs.trust import PackTrust, TrustedKey, check_pack_signature
from kiosk.core.packs.verification import PackWalker, Walk, WalkedTries, check_walk

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
    """What adjudication needs: membership of normalised words (stored spellings in the pack's
    alphabet, ``info.alphabet``: upper case, multi-letter tiles in brackets)."""

    @property
    def info(self) -> PackInfo: ...

    def __contains__(self, word: object) -> bool: ...

    def is_youth_excluded(self, word: str) -> bool: ...


class _CheckedPack:
    """What a pack's checked manifest and sections say, whether or not its tries are walked yet."""

    contents: PackContents

    @property
    def info(self) -> PackInfo:
        return self.contents.info

    @property
    def has_youth_list(self) -> bool:
        return YOUTH_SECTION in self.contents.sections


@dataclass(frozen=True)
class MarisaLexicon(_CheckedPack):
    """A lexicon backed by the marisa tries of a verified pack, and whose signature it carries."""

    contents: PackContents
    words: marisa_trie.Trie
    youth: marisa_trie.Trie
    trust: PackTrust
    walked: WalkedTries

    def __contains__(self, word: object) -> bool:
        return word in self.words

    def is_youth_excluded(self, word: str) -> bool:
        """Whether a youth division must not accept the word (it is on the pack's youth list)."""
        return word in self.youth

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
        )


@dataclass(frozen=True)
class LoadingLexicon(_CheckedPack):
    """A pack whose digest, signature and manifest are checked, and whose tries are being walked:
    its manifest (``info``) may be used meanwhile, its words only once ``result()`` returns."""

    contents: PackContents
    trust: PackTrust
    walk: Walk

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
