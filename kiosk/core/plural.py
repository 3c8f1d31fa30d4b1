"""Counts as people read them: "1 challenge", "3 challenges", "0 challenges".

One place for it, so that no screen or command says "1 challenges" or "All 1 word are typed"
(tests/ui/test_fit.py reads every text on every screen for that). A translation catalogue will
own plurals later; until then every count goes through ``counted``, and every other text that
depends on a number ("it" or "them", "The word is typed" or "All 3 words are typed") through
``one_or_many``.
"""

from __future__ import annotations

__all__ = ["counted", "one_or_many"]


def counted(count: int, noun: str, plural: str | None = None) -> str:
    """``count`` and the noun in the number it needs: ``counted(1, "word")`` is "1 word"."""
    many = plural if plural is not None else f"{noun}s"
    return f"{count:,} {noun if count == 1 else many}"


def one_or_many(count: int, one: str, many: str) -> str:
    """``one`` for a count of 1, else ``many``: ``one_or_many(n, "record it", "record them")``."""
    return one if count == 1 else many
