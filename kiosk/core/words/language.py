"""The station's words in the players' language: one gettext catalogue for the core and the screens.

Every text a player or a judge reads is an English message id in the code, marked for extraction
(``pybabel extract`` reads ``_``, ``ngettext``-style ``plural`` and ``counted``; see
``kiosk/locale/README.md``), translated in ``kiosk/locale/<code>/LC_MESSAGES/kiosk.po`` and
compiled to ``kiosk.mo`` by the build (the wheel's ``build_py``, ``./dev.sh``, the bundle's spec):
no compiled catalogue is kept in git. The standard library's ``gettext`` reads the ``.mo`` at
run time, so neither the core nor the station needs Babel, and the core stays free of Qt.

The languages the station speaks are the catalogues present (``spoken()``), English always: a
volunteer adds a language by adding its folder, never by editing a list here. A catalogue may be
half done: what it lacks is English (the build says what, ``packaging/catalogues.py``). What a
language writes its own way beyond words is in its catalogue too, as messages: its name in
itself (``LANGUAGE_NAME``) and how it writes numbers (``FOUR_DIGITS``, ``THOUSANDS``, ``DECIMAL``),
so that no code branches on a language's code.

A ``Catalogue`` is a value passed to whoever writes words (the session, the rule profile, every
view); nothing here is global. English is the message ids themselves, so an English station
loads no file at all. Placeholders are ``str.format`` fields (``{count}``), filled after the
translation, so a translator may move them.
"""

from __future__ import annotations

import gettext
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from types import MappingProxyType

from kiosk.core.errors import ConfigError
from kiosk.core.wording import SUMMED_UP, Text, Wording, marked

__all__ = [
    "DECIMAL",
    "DEFAULT_LANGUAGE",
    "DOMAIN",
    "FOUR_DIGITS",
    "LANGUAGE_NAME",
    "THOUSANDS",
    "Catalogue",
    "checked_language",
    "english",
    "language_names",
    "load_catalogue",
    "marked",
    "spoken",
]

_NO_CATALOGUE = gettext.NullTranslations
DOMAIN = "kiosk"
DEFAULT_LANGUAGE = "en"
# A language's folder under kiosk/locale: an ISO 639 code, and a region where one is needed (pt_BR).
_CODE = re.compile(r"[a-z]{2,3}(?:_[A-Z]{2})?")
# Messages that say how a language writes itself rather than what it says (kiosk/locale/README.md):
# TRANSLATORS: this language's own name, as its speakers write it in a list: Français, Español, Català.
LANGUAGE_NAME = marked("English")
# TRANSLATORS: the number 1234 as this language writes it (French 1 234 with a narrow no-break space;
# Spanish 1234, no separator in a four-digit number): digits and the separator only.
FOUR_DIGITS = marked("1,234")
# TRANSLATORS: the number 12345 as this language writes it (French 12 345, Spanish 12.345).
THOUSANDS = marked("12,345")
# TRANSLATORS: the number one half as this language writes it (French and Spanish 0,5).
DECIMAL = marked("0.5")
_WRITTEN_1234 = re.compile(r"1(\D*)234")
_WRITTEN_12345 = re.compile(r"12(\D*)345")
_WRITTEN_HALF = re.compile(r"0(\D+)5")


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
        """A whole number as this language groups its digits (its ``THOUSANDS`` and ``FOUR_DIGITS``):
        1,234 · 1 234 · 1234 and 12.345. A catalogue that does not say (or says it in a way that
        cannot be read) groups as English does."""
        grouped = f"{count:,}"
        if type(self.translations) is _NO_CATALOGUE:
            return grouped
        thousands = _WRITTEN_12345.fullmatch(self.translations.gettext(THOUSANDS))
        four = _WRITTEN_1234.fullmatch(self.translations.gettext(FOUR_DIGITS))
        if abs(count) < 10_000 and four is not None and not four.group(1):
            return str(count)  # Spanish, Polish: 1234, but 12.345
        separator = thousands.group(1) if thousands is not None else ","
        return grouped.replace(",", separator)

    def decimal(self, value: float) -> str:
        """``value`` as this language writes a decimal number (its ``DECIMAL``): 0.6 · 0,6."""
        written = f"{value:g}"
        if type(self.translations) is _NO_CATALOGUE:
            return written
        half = _WRITTEN_HALF.fullmatch(self.translations.gettext(DECIMAL))
        return written if half is None else written.replace(".", half.group(1))

    @property
    def name(self) -> str:
        """This language's name in itself (its ``LANGUAGE_NAME``): English, Français, Català."""
        return self.text(LANGUAGE_NAME)


def english() -> Catalogue:
    """The message ids as they are: no file to read."""
    return Catalogue()


def _locale() -> resources.abc.Traversable:
    return resources.files("kiosk") / "locale"


def _catalogue_path(language: str) -> resources.abc.Traversable:
    return _locale() / language / "LC_MESSAGES" / f"{DOMAIN}.mo"


def spoken() -> tuple[str, ...]:
    """The codes of the languages this installation speaks: English, then every language whose
    catalogue is present under kiosk/locale (compiled, or still its ``.po``: loading it then says
    that it was not compiled), in alphabetical order."""
    found = []
    try:
        folders = list(_locale().iterdir())
    except (FileNotFoundError, NotADirectoryError):
        folders = []
    for folder in folders:
        messages = folder / "LC_MESSAGES"
        named = _CODE.fullmatch(folder.name) is not None and folder.name != DEFAULT_LANGUAGE
        if named and ((messages / f"{DOMAIN}.mo").is_file() or (messages / f"{DOMAIN}.po").is_file()):
            found.append(folder.name)
    return (DEFAULT_LANGUAGE, *sorted(found))


def language_names() -> Mapping[str, str]:
    """Each language spoken, by code, with its name in itself ("fr": "Français"), as a judge's
    list shows them; a catalogue that cannot be read is named by its code."""
    names = {}
    for code in spoken():
        try:
            names[code] = load_catalogue(code).name
        except ConfigError:
            names[code] = code
    return MappingProxyType(names)


def checked_language(language: str, *, where: Text = "language") -> str:
    """``language`` as a code the station speaks (``"fr"``); ConfigError naming ``where`` and the
    languages there are, if it speaks no such language."""
    code = language.strip()
    code = code.lower() if "_" not in code else code  # "FR" is "fr"; "pt_BR" stays as it is
    if code not in spoken():
        names = ", ".join(f'"{c}" ({name})' for c, name in language_names().items())
        raise ConfigError(
            marked("{where} = {value}: the station does not speak it; use one of {spoken}"),
            where=where,
            value=repr(language),
            spoken=names,
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
            language=code,
            path=path,
        ) from exc
    except OSError as exc:
        raise ConfigError(f"{where} = {language!r}: the catalogue {path} cannot be read: {exc}") from exc
    return Catalogue(language=code, translations=translations)
