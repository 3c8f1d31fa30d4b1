"""Counts as people read them: "1 challenge", "3 challenges", "0 challenges".

One place for it, so that no screen or command says "1 challenges" or "All 1 word are typed"
(tests/ui/test_fit.py reads every text on every screen for that). A translation catalogue will
own plurals later; until then every count goes through ``counted``.
"""

from __future__ import annotations

__all__ = ["counted"]


def counted(count: int, noun: str, plural: str | None = None) -> str:
    """``count`` and the noun in the number it needs: ``counted(1, "word")`` is "1 word"."""
    many = plural if plural is not None else f"{noun}s"
    return f"{count:,} {noun if count == 1 else many}"
