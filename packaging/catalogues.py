"""The station's translation catalogues: compile them, start a language, say how far each one is.

    python packaging/catalogues.py [DEST_DIR]     compile every kiosk/locale/<code>/LC_MESSAGES/kiosk.po
    python packaging/catalogues.py new CODE       start a language: its kiosk.po, every message empty
    python packaging/catalogues.py status [CODE]  how many messages each language still shows in English
                                                  (with CODE: which ones, with their lines)

The build compiles (setup.py's build_py for wheels and editable installs, ./dev.sh before the
tests and the station, the PyInstaller spec for the bundle): compiled catalogues are never kept in
git. Babel reads and writes the files. A catalogue may be half done, so that a volunteer can
translate a few screens at a time: a message it does not translate yet (empty, fuzzy, or not in the
file at all) is left out of the compiled file, and the station shows its English; so is a
translation whose placeholders the English has not (it would stop the station), refused by name.
The build says both, per language, counted, on standard error, and compiles every other language
as before: one language's half-done catalogue never stops another's. Only a file Babel cannot read
at all fails the build (after the others are compiled).

Which languages exist is the folders under kiosk/locale: ``new`` makes one, and nothing else needs
editing (kiosk.core.words.language finds them).
"""

from __future__ import annotations

import string
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from babel.messages.catalog import Catalog, Message

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "kiosk" / "locale"
DOMAIN = "kiosk"
TEMPLATE = LOCALE / f"{DOMAIN}.pot"
LISTED = 10  # missing messages the build names per language; `status CODE` names them all
# The messages that say how a language writes itself (kiosk/core/words/language.py): `new` fills them from
# Babel's locale data (CLDR), for the volunteer to check.
LANGUAGE_NAME, FOUR_DIGITS, THOUSANDS, DECIMAL = "English", "1,234", "12,345", "0.5"


def _fields(text: str) -> set[str]:
    try:
        return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}
    except ValueError:  # a lone brace: no placeholder can be read
        return {"{"}


def _strings(message: Message) -> tuple[str, ...]:
    return message.string if isinstance(message.string, tuple) else (message.string,)


@dataclass
class Progress:
    """How far one language's catalogue is: what it translates, what stays English and why."""

    po: Path
    code: str
    name: str = ""
    total: int = 0  # the messages of the code (the template's), or of the file without a template
    missing: list[str] = field(default_factory=list)  # "file:line: 'message id'", not translated yet
    refused: list[str] = field(default_factory=list)  # translations left out, with why
    unreadable: str = ""  # why Babel could not read the file at all

    @property
    def translated(self) -> int:
        return self.total - len(self.missing) - len(self.refused)

    def said(self, *, listed: int | None = LISTED) -> list[str]:
        """What the build says of this catalogue: nothing when it is complete."""
        who = f"{self.code} ({self.name})" if self.name else self.code
        if self.unreadable:
            return [f"catalogues: {who}: {self.po} cannot be read, so not compiled: {self.unreadable}"]
        lines = []
        if self.missing:
            lines.append(
                f"catalogues: {who}: {len(self.missing)} of {self.total} messages not translated yet, "
                "shown in English:"
            )
            shown = self.missing if listed is None else self.missing[:listed]
            lines += [f"  {where}" for where in shown]
            if len(shown) < len(self.missing):
                lines.append(
                    f"  ... and {len(self.missing) - len(shown)} more: "
                    f"python packaging/catalogues.py status {self.code} lists them all"
                )
        if self.refused:
            lines.append(f"catalogues: {who}: {len(self.refused)} translation(s) refused, shown in English:")
            lines += [f"  {why}" for why in self.refused]
        return lines


def _template_ids() -> list[object] | None:
    """The message ids of kiosk.pot (a plural by its first form), or None without a template."""
    from babel.messages.pofile import read_po

    if not TEMPLATE.is_file():
        return None
    with TEMPLATE.open("rb") as stream:
        return [message.id for message in read_po(stream) if message.id]


def _read(po: Path) -> Catalog:
    from babel.messages.pofile import read_po

    with po.open("rb") as stream:
        return read_po(stream, abort_invalid=True)


def _shown(path: Path) -> Path:
    """``path`` as a translator finds it: from the project's folder."""
    return path.relative_to(ROOT) if path.is_relative_to(ROOT) else path


def checked(po: Path, template: list[object] | None = None) -> tuple[Progress, Catalog | None]:
    """``po`` read and judged, message by message: its progress, and the catalogue to compile (every
    message it may not use emptied, so that the station shows the English), None if unreadable."""
    progress = Progress(po=_shown(po), code=po.parent.parent.name)
    try:
        catalogue = _read(po)
    except Exception as exc:  # Babel's parse errors have no common class; the file is named
        progress.unreadable = str(exc)
        return progress, None
    wanted = template if template is not None else [m.id for m in catalogue if m.id]
    progress.total = len(wanted)
    for message_id in wanted:
        key = message_id[0] if isinstance(message_id, tuple | list) else message_id
        message = catalogue.get(key)
        if message is None:
            progress.missing.append(f"{progress.po}: {key!r} (not in the file: run kiosk/locale/extract.sh)")
            continue
        where = f"{progress.po}:{message.lineno}: {key!r}"
        strings = _strings(message)
        if message.fuzzy or not all(strings):
            progress.missing.append(where + (" (marked fuzzy)" if message.fuzzy and all(strings) else ""))
            message.string = tuple("" for _ in strings) if isinstance(message.string, tuple) else ""
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        english = set().union(*(_fields(i) for i in ids))
        unknown = sorted(set().union(*(_fields(text) for text in strings)) - english)
        if unknown:
            fields = ", ".join("{" + name + "}" for name in unknown)
            progress.refused.append(f"{where}: the translation has {fields}, which the English has not")
            message.string = tuple("" for _ in strings) if isinstance(message.string, tuple) else ""
    name = catalogue.get(LANGUAGE_NAME)
    if name is not None and isinstance(name.string, str) and name.string and not name.fuzzy:
        progress.name = name.string
    return progress, catalogue


def sources() -> list[Path]:
    return sorted(LOCALE.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))


def compile_catalogues(dest: Path | None = None, *, say: bool = True) -> list[Path]:
    """Compile every catalogue under kiosk/locale into ``dest`` (same layout; default: in place);
    return the .mo files written. What a catalogue leaves in English is said on standard error
    (``say``); SystemExit, once every other catalogue is compiled, if a file cannot be read."""
    from babel.messages.mofile import write_mo

    template = _template_ids()
    written = []
    unreadable = []
    for po in sources():
        progress, catalogue = checked(po, template)
        if say:
            for line in progress.said():
                print(line, file=sys.stderr)
        target = (LOCALE if dest is None else dest) / po.relative_to(LOCALE).with_suffix(".mo")
        if catalogue is None:
            target.unlink(missing_ok=True)  # never an older compiled file standing in for it
            unreadable.append(str(po))
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        with target.open("wb") as out:
            write_mo(out, catalogue)
        written.append(target)
    if unreadable:
        raise SystemExit("translation catalogues that cannot be read: " + ", ".join(unreadable))
    return written


def status(code: str | None = None) -> list[str]:
    """One line per language (English first: the code's own words); with ``code``, that language's
    every message still in English, file and line."""
    template = _template_ids()
    lines = [] if code else [f"en (English): the messages of the code, {len(template or [])} of them"]
    for po in sources():
        progress, _ = checked(po, template)
        if code is not None and progress.code != code:
            continue
        if code is not None:
            lines += progress.said(listed=None) or [f"{code}: every message translated"]
            continue
        if progress.unreadable:
            lines += progress.said()
            continue
        lines.append(
            f"{progress.code} ({progress.name or 'no name yet'}): {progress.translated} of "
            f"{progress.total} translated"
            + (f", {len(progress.missing)} not yet" if progress.missing else "")
            + (f", {len(progress.refused)} refused" if progress.refused else "")
        )
    if code is not None and not lines:
        start = f"python packaging/catalogues.py new {code}"
        raise SystemExit(f"no catalogue for {code!r}: start one with {start}")
    return lines


def start_language(code: str) -> Path:
    """kiosk/locale/<code>/LC_MESSAGES/kiosk.po made from kiosk.pot, every message empty but those
    saying how the language writes itself (its name, its numbers: from Babel's locale data, to check).
    SystemExit if the code is no language Babel knows, or the language is already there."""
    import re
    from datetime import UTC, datetime

    from babel import Locale, UnknownLocaleError
    from babel.messages.pofile import read_po, write_po
    from babel.numbers import format_decimal

    if re.fullmatch(r"[a-z]{2,3}(?:_[A-Z]{2})?", code) is None:
        raise SystemExit(f"{code!r} is not a language code: give its ISO 639 code, e.g. de, pl, pt_BR")
    try:
        locale = Locale.parse(code)
    except (UnknownLocaleError, ValueError) as exc:
        raise SystemExit(f"{code!r}: Babel knows no such language ({exc}); check the code") from exc
    po = LOCALE / code / "LC_MESSAGES" / f"{DOMAIN}.po"
    if po.exists():
        raise SystemExit(f"{po} is already there: translate it, or see how far it is with status {code}")
    if not TEMPLATE.is_file():
        raise SystemExit(f"{TEMPLATE} is missing: run kiosk/locale/extract.sh first")
    with TEMPLATE.open("rb") as stream:
        catalogue = read_po(stream, locale=code)
    catalogue.locale = locale
    catalogue.revision_date = datetime.now(UTC)
    catalogue.fuzzy = False
    own_name = locale.get_display_name(code) or code
    filled = {
        LANGUAGE_NAME: own_name[:1].upper() + own_name[1:],
        FOUR_DIGITS: format_decimal(1234, locale=locale),
        THOUSANDS: format_decimal(12345, locale=locale),
        DECIMAL: format_decimal(0.5, locale=locale),
    }
    for message_id, text in filled.items():
        message = catalogue.get(message_id)
        if message is not None:
            message.string = text
    po.parent.mkdir(parents=True)
    with po.open("wb") as out:
        write_po(out, catalogue, omit_header=False)
    return po


def main(argv: list[str]) -> int:
    if argv[:1] == ["new"]:
        if len(argv) != 2:
            raise SystemExit("usage: python packaging/catalogues.py new CODE   (e.g. new de)")
        po = start_language(argv[1])
        progress, _ = checked(po, _template_ids())
        print(
            f"started {progress.name} ({progress.code}): {progress.po}\n"
            f"  {progress.total} messages, {progress.translated} filled from Babel's locale data (the "
            "language's name and how it writes 1234, 12345 and 0.5): check them, then translate the rest.\n"
            "  ./dev.sh compiles it; a station speaks it with language = "
            f'"{progress.code}" (what is not translated yet is English).\n'
            f"  How far it is: python packaging/catalogues.py status {progress.code}"
        )
        return 0
    if argv[:1] == ["status"]:
        print("\n".join(status(argv[1] if len(argv) > 1 else None)))
        return 0
    compile_catalogues(Path(argv[0]) if argv else None)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
