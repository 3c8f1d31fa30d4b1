"""A text said now in English and later, on a screen, in the reader's language.

Core and storage raise, and only the UI decides what to show (``kiosk/core/errors.py``): an
error cannot know the language of the station that will show it. So an error (or a judge-mode
problem, an edition note) keeps its words as a ``Wording``: the English message id, marked for
the catalogue, and the values that fill it (a path, a count, the driver's own words, or another
``Wording``). A screen says it in its own language with ``Catalogue.say``; ``str()`` of it is the
English (the journal, ``kiosk check``), asked for by name.

A ``Wording`` is not a ``str``: it was one (as markupsafe's ``Markup`` is), and then any ``+``, any
``join`` or string method quietly turned it back into English that no screen could translate
again. Where either may stand, the type is ``Text``: a plain ``str`` there is English that no
catalogue holds (or data), and ``say`` shows it as it is.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import TypeAlias

__all__ = ["SUMMED_UP", "Text", "Wording", "marked"]


def marked(message: str) -> str:
    """``message`` unchanged: marks a text kept in a table (or an error's message id) for
    ``pybabel extract``, translated where it is shown (``Catalogue.text``, ``Catalogue.say``)."""
    return message


SUMMED_UP = marked("{summary}: {detail}")  # an error written whole: its kind, then the English


class Wording:
    """``message`` (an English message id with ``str.format`` fields) filled with ``values``.

    Frozen, and equal to another with the same message, values and English."""

    __slots__ = ("english", "many", "message", "number", "values")

    english: str  # the text in English: ``str()`` of it
    message: str
    values: Mapping[str, object]
    many: str  # the plural message id, for a text that counts ("{count} word", "{count} words")
    number: int  # what it counts

    def __init__(self, message: str, /, **values: object) -> None:
        english = message.format(**values) if values else message
        self._set(english, message, values, "", 0)

    def _set(self, english: str, message: str, values: Mapping[str, object], many: str, number: int) -> None:
        for name, value in (
            ("english", english),
            ("message", message),
            ("values", MappingProxyType(dict(values))),
            ("many", many),
            ("number", number),
        ):
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a Wording is frozen: {name} cannot be set")

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
        made = cls.__new__(cls)
        made._set(english, message, values, many, number)
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

    def __str__(self) -> str:
        return self.english

    def __bool__(self) -> bool:
        return bool(self.english)  # an empty text is nothing to say, as an empty str is

    def __repr__(self) -> str:
        return f"Wording({self.english!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Wording):
            return NotImplemented
        return (self.english, self.message, dict(self.values), self.many, self.number) == (
            other.english,
            other.message,
            dict(other.values),
            other.many,
            other.number,
        )

    def __hash__(self) -> int:
        return hash((self.english, self.message))

    def __reduce__(self) -> tuple[object, ...]:
        # pickled whole (a pack walk answers from another process): message and values both
        return (_rebuild, (self.english, self.message, dict(self.values), self.many, self.number))


Text: TypeAlias = str | Wording
"""English that no catalogue holds (or data), or words a catalogue can say."""


def _rebuild(english: str, message: str, values: dict[str, object], many: str, number: int) -> Wording:
    return Wording._made(english, message, values, many, number)
