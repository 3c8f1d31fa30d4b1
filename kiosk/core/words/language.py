"""The station's words in the players' language: one gettext catalogue for the core and the screens.

Every text a player or a judge reads is an English message id in the code, marked for extraction
(``pybabel extract`` reads ``_``, ``ngettext``-style ``plural`` and ``counted``; see
``kiosk/locale/README.md``), translated in ``kiosk/locale/<code>/LC_MESSAGES/kiosk.po`` and
compiled to ``kiosk.mo`` by the build (the wheel's ``build_py``, ``./dev.sh``, the bundle's spec):
no compiled catalogue is kept in git. The standard library's ``gettext`` reads the ``.mo`` at
run time, so neither the core nor the station needs Babel, and the core stays free of Qt.

A ``Catalogue`` is a value passed to whoever writes words (the session, the rule profile, every
view); nothing here is global. English is the message ids themselves, so an English station
loads no file at all. Placeholders are ``str.format`` fields (``{count}``), filled after the
translation, so a translator may move them.
"""

from __future__ import annotations

import gettext
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from types import MappingProxyType

from kiosk.core.errors import ConfigError
from kiosk.core.wording import SUMMED_UP, Text, Wording, marked

__all__ = [
    "DEFAULT_LANGUAGE",
    "DOMAIN",
    "LANGUAGES",
    "Catalogue",
    "checked_language",
    "english",
    "load_catalogue",
    "marked",
]

_NO_CATALOGUE = gettext.NullTranslations
DOMAIN = "kiosk"
DEFAULT_LANGUAGE = "en"
# The languages the station speaks, each named in its own words (as a judge's list shows them).
LANGUAGES: Mapping[str, str] = MappingProxyType({"en": "English", "fr": "Français", "es": "Español"})


@dataclass(frozen=True)
class Catalogue:
    """One language's words. ``text`` and ``plural`` translate, then fill the placeholders."""

    language: str = DEFAULT_LANGUAGE
    translations: gettext.NullTranslations = field(
        default_factory=gettext.NullTranslations, compare=False, repr=False
    )

    def text(self, message: str, /, **values: object) -> str:
        """``message`` in this language, its ``{placeholders}`` filled from ``values``. An empty
        message stays empty (gettext would answer the catalogue's header)."""
        if not message:
            return ""
        translated = self.translations.gettext(message)
        return translated.format(**values) if values else translated

    @property
    def is_message_ids(self) -> bool:
        """Whether these words are the English message ids themselves, with no catalogue behind
        them (``english()``): only then may a text add English that no catalogue holds (a
        character's Unicode name). A catalogue compiled for English (a test's pseudo-language) is
        a catalogue like any other."""
        return self.language == DEFAULT_LANGUAGE and type(self.translations) is _NO_CATALOGUE

    def say(self, said: Text, /) -> str:
        """A ``Wording`` (an error's, a problem's) in this language, each value that is itself a
        ``Wording`` said too; any other text as it is (English that no catalogue holds, or data)."""
        if not isinstance(said, Wording) or not said.message or self.is_message_ids:
            return str(said)  # English is the Wording itself
        if said.message == SUMMED_UP and self.translations.gettext(str(said)) != str(said):
            return self.text(str(said))  # a message id after all, with no values to fill
        values = {k: self.say(v) if isinstance(v, Wording) else v for k, v in said.values.items()}
        if said.many:
            return self.plural(said.message, said.many, said.number, **values)
        return self.text(said.message, **values)

    def plural(self, one: str, many: str, count: int, /, **values: object) -> str:
        """The form of ``one``/``many`` this language uses for ``count`` (French says "1 mot",
        "0 mot"; English "0 words"); ``{count}`` is the count written for people (1,234)."""
        translated = self.translations.ngettext(one, many, count)
        return translated.format(count=self.number(count), **values)

    def number(self, count: int) -> str:
        """A whole number as this language groups its digits: 1,234 · 1 234 · 1.234."""
        grouped = f"{count:,}"
        if self.language == "fr":
            return grouped.replace(",", "\u202f")  # a narrow no-break space
        if self.language == "es":
            return grouped.replace(",", ".") if count >= 10_000 else grouped.replace(",", "")
        return grouped


def english() -> Catalogue:
    """The message ids as they are: no file to read."""
    return Catalogue()


def _catalogue_path(language: str) -> resources.abc.Traversable:
    return resources.files("kiosk") / "locale" / language / "LC_MESSAGES" / f"{DOMAIN}.mo"


def checked_language(language: str, *, where: Text = "language") -> str:
    """``language`` as a code the station speaks (``"fr"``); ConfigError naming ``where`` and the
    languages there are, if it speaks no such language."""
    code = language.strip().lower()
    if code not in LANGUAGES:
        spoken = ", ".join(f'"{c}" ({name})' for c, name in LANGUAGES.items())
        raise ConfigError(
            marked("{where} = {value}: the station does not speak it; use one of {spoken}"),
            where=where,
            value=repr(language),
            spoken=spoken,
        )
    return code


def load_catalogue(language: str, *, where: Text = "language") -> Catalogue:
    """The catalogue of ``language`` (``"fr"``); ConfigError naming ``where`` if the station does not
    speak it, or if this installation lacks the compiled catalogue (a build that skipped it)."""
    code = checked_language(language, where=where)
    if code == DEFAULT_LANGUAGE:
        return english()
    path = _catalogue_path(code)
    try:
        with path.open("rb") as stream:
            translations = gettext.GNUTranslations(stream)
    except FileNotFoundError as exc:
        raise ConfigError(
            marked(
                "{where} = {value}: this installation has no compiled {language} catalogue ({path}); it "
                "was built without its catalogues: reinstall it (pip install, ./dev.sh or "
                "packaging/build.sh compile them)"
            ),
            where=where,
            value=repr(language),
            language=LANGUAGES[code],
            path=path,
        ) from exc
    except OSError as exc:
        raise ConfigError(f"{where} = {language!r}: the catalogue {path} cannot be read: {exc}") from exc
    return Catalogue(language=code, translations=translations)
