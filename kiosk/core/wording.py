"""A text said now in English and later, on a screen, in the reader's language.

Core and storage raise, and only the UI decides what to show (``kiosk/core/errors.py``): an
error cannot know the language of the station that will show it. So an error (or a judge-mode
problem, an edition note) keeps its words as a ``Wording``: the English message id, marked for
the catalogue, and the values that fill it (a path, a count, the driver's own words, or another
``Wording``). It *is* the English text (a ``str``, as markupsafe's ``Markup`` is one), so the
journal, ``kiosk check`` and every caller that wants English need nothing; a screen says it in its
own language with ``Catalogue.say``. A plain ``str`` where a ``Wording`` could be is English that
no catalogue holds: ``say`` shows it as it is.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

__all__ = ["SUMMED_UP", "Wording", "marked"]


def marked(message: str) -> str:
    """``message`` unchanged: marks a text kept in a table (or an error's message id) for
    ``pybabel extract``, translated where it is shown (``Catalogue.text``, ``Catalogue.say``)."""
    return message


SUMMED_UP = marked("{summary}: {detail}")  # an error written whole: its kind, then the English


class Wording(str):
    """``message`` (an English message id with ``str.format`` fields) filled with ``values``."""

    message: str
    values: Mapping[str, object]
    many: str  # the plural message id, for a text that counts ("{count} word", "{count} words")
    number: int  # what it counts (not ``count``: that is str.count)

    def __new__(cls, message: str, /, **values: object) -> Wording:
        english = message.format(**values) if values else message
        return cls._made(english, message, values, "", 0)

    @classmethod
    def counting(cls, one: str, many: str, count: int, /, **values: object) -> Wording:
        """A text in the form ``count`` needs (``{count}`` is filled with it): each language's own
        plural rule is the catalogue's (``Catalogue.say``)."""
        english = (one if count == 1 else many).format(count=f"{count:,}", **values)
        return cls._made(english, one, values, many, count)

    @classmethod
    def _made(
        cls, english: str, message: str, values: Mapping[str, object], many: str, number: int
    ) -> Wording:
        made = super().__new__(cls, english)
        made.message = message
        made.values = MappingProxyType(dict(values))
        made.many = many
        made.number = number
        return made

    @classmethod
    def aside(cls, english: str, message: str, /, **values: object) -> Wording:
        """``english`` as it is in English, and ``message`` filled with ``values`` in another
        language: for what English says with words no catalogue holds (a character's Unicode
        name, "'k' (U+006B LATIN SMALL LETTER K)"), which another language says without them
        ("'k' (U+006B)") rather than glue English into its sentence."""
        return cls._made(english, message, values, "", 0)

    @classmethod
    def summed_up(cls, english: str, summary: str) -> Wording:
        """``english`` as it is, said in another language as ``summary`` (a message id) followed by
        the English: for an error whose message was written whole, without a message id."""
        values = {"summary": Wording(summary), "detail": english}
        return cls._made(english, SUMMED_UP, values, "", 0)

    def __reduce__(self) -> tuple[object, ...]:
        # pickled whole (a pack walk answers from another process): message and values both
        return (_rebuild, (str(self), self.message, dict(self.values), self.many, self.number))


def _rebuild(english: str, message: str, values: dict[str, object], many: str, number: int) -> Wording:
    return Wording._made(english, message, values, many, number)
