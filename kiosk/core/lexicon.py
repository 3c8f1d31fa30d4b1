"""Lexicons: what a ruling asks of a word list, and the marisa-trie lexicon loaded from a pack."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import marisa_trie

from kiosk.core.errors import PackCorruptError
from kiosk.core.pack import PackContents, PackInfo, parse_pack, read_pack
from kiosk.core.trust import PackTrust, TrustedKey, check_pack_signature

__all__ = [
    "WORDS_SECTION",
    "YOUTH_SECTION",
    "Lexicon",
    "MarisaLexicon",
    "load_lexicon",
]

WORDS_SECTION = "words"
YOUTH_SECTION = "youth"


class Lexicon(Protocol):
    """What adjudication needs: membership of normalised (A-Z, upper-case) words."""

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

    @property
    def info(self) -> PackInfo:
        return self.contents.info

    @property
    def has_youth_list(self) -> bool:
        return YOUTH_SECTION in self.contents.sections

    def __contains__(self, word: object) -> bool:
        return word in self.words

    def is_youth_excluded(self, word: str) -> bool:
        return word in self.youth

    @classmethod
    def from_contents(cls, contents: PackContents, trust: PackTrust | None = None) -> MarisaLexicon:
        """Parse the tries of a pack whose digest was already checked by ``parse_pack``.

        ``trust`` is the result of ``check_pack_signature``; without it the signature (if any) is
        checked here with no trusted keys, so that a bad signature is refused all the same.
        """
        if trust is None:
            trust = check_pack_signature(contents)
        where = str(contents.path) if contents.path is not None else "the pack"
        if WORDS_SECTION not in contents.sections:
            raise PackCorruptError(f"{where} has no word list section; rebuild it")
        if (YOUTH_SECTION in contents.sections) != (contents.info.youth_set_hash is not None):
            raise PackCorruptError(
                f"{where} has a manifest that does not match its sections (youth exclusion list); rebuild it"
            )
        words = marisa_trie.Trie().frombytes(contents.sections[WORDS_SECTION])
        youth_bytes = contents.sections.get(YOUTH_SECTION)
        youth = marisa_trie.Trie() if youth_bytes is None else marisa_trie.Trie().frombytes(youth_bytes)
        if len(words) != contents.info.word_count:
            raise PackCorruptError(
                f"{where} holds {len(words)} words but its manifest says "
                f"{contents.info.word_count}; rebuild it"
            )
        if len(youth) != contents.info.youth_exclusion_count:
            raise PackCorruptError(
                f"{where} holds {len(youth)} youth exclusions but its manifest says "
                f"{contents.info.youth_exclusion_count}; rebuild it"
            )
        return cls(contents=contents, words=words, youth=youth, trust=trust)


def load_lexicon(source: Path | bytes, *, trusted_keys: Iterable[TrustedKey] = ()) -> MarisaLexicon:
    """Load a pack from a file or bytes, verifying it whole before marisa parses a byte.

    The digest, then the signature, are checked first. With ``trusted_keys`` (a station's
    ``[[trusted_keys]]``), a pack not signed by one of them raises PackSignatureError; without,
    any good signature or none is accepted. ``lexicon.trust.label`` says which, for the screen.
    """
    contents = read_pack(source) if isinstance(source, Path) else parse_pack(source)
    trust = check_pack_signature(contents, trusted_keys)
    return MarisaLexicon.from_contents(contents, trust)
