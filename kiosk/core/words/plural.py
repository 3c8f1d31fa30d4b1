"""Counts as people read them: "1 challenge", "3 challenges"; "1 mot", "0 mot", "3 mots".

One place for it, so that no screen or command says "1 challenges" or "All 1 word are typed"
(tests/ui/test_fit.py reads every text on every screen for that). The plural form comes from the
catalogue (gettext's ``ngettext``: each language's own rule, French's "0 mot" included); without
one, it is English. Every count goes through ``counted``, and every other text that depends on a
number ("it" or "them", "The word is typed" or "All 3 words are typed") through ``one_or_many``.
Call them with both forms written out: ``pybabel extract`` reads them as ``counted:2,3`` and
``one_or_many:2,3``.
"""

from __future__ import annotations

from kiosk.core.words.language import Catalogue, english

__all__ = ["counted", "one_or_many"]


def counted(count: int, noun: str, plural: str | None = None, catalogue: Catalogue | None = None) -> str:
    """``count`` and the noun in the number it needs: ``counted(1, "word", "words")`` is "1 word"."""
    words = catalogue if catalogue is not None else english()
    many = plural if plural is not None else f"{noun}s"
    return f"{words.number(count)} {words.translations.ngettext(noun, many, count)}"


def one_or_many(count: int, one: str, many: str, catalogue: Catalogue | None = None) -> str:
    """``one`` or ``many`` as the language reads ``count``, placeholders filled (``{count}``):
    ``one_or_many(n, "record it", "record them")``."""
    words = catalogue if catalogue is not None else english()
    return words.plural(one, many, count)
