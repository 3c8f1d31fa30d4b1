"""Compile the station's translation catalogues: kiosk/locale/<code>/LC_MESSAGES/kiosk.po -> kiosk.mo.

The build runs this (setup.py's build_py for wheels and editable installs, ./dev.sh before the
tests, the PyInstaller spec for the bundle): compiled catalogues are never kept in git. Babel
reads and writes the files; a catalogue with a fuzzy or untranslated message, or one whose
placeholders differ from the English, is refused by name, so that no station shows English in
the middle of French or crashes on a placeholder a translator misspelt.

Usage: python packaging/catalogues.py [DEST_DIR]   (default: next to each .po)
"""

from __future__ import annotations

import string
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "kiosk" / "locale"
DOMAIN = "kiosk"


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def problems(po: Path) -> list[str]:
    """What keeps ``po`` from being compiled, each naming the file, line and message."""
    from babel.messages.pofile import read_po

    with po.open("rb") as stream:
        catalogue = read_po(stream)
    found = []
    for message in catalogue:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        where = f"{po}:{message.lineno}: {ids[0]!r}"
        if message.fuzzy:
            found.append(f"{where} is marked fuzzy: check the translation and remove the flag")
        elif not all(strings):
            found.append(f"{where} has no translation")
        else:
            wanted = set().union(*(_fields(i) for i in ids))
            for text in strings:
                if _fields(text) - wanted:
                    unknown = ", ".join(sorted(_fields(text) - wanted))
                    found.append(f"{where}: the translation has {{{unknown}}}, which the English has not")
    return found


def compile_catalogues(dest: Path | None = None) -> list[Path]:
    """Compile every catalogue under kiosk/locale into ``dest`` (same layout; default: in place);
    return the .mo files written. SystemExit naming every problem if a catalogue is not complete."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    sources = sorted(LOCALE.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))
    found = [problem for po in sources for problem in problems(po)]
    if found:
        raise SystemExit("translation catalogues not compiled:\n  " + "\n  ".join(found))
    written = []
    for po in sources:
        relative = po.relative_to(LOCALE).with_suffix(".mo")
        target = (LOCALE if dest is None else dest) / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        with po.open("rb") as stream:
            catalogue = read_po(stream)
        with target.open("wb") as out:
            write_mo(out, catalogue)
        written.append(target)
    return written


if __name__ == "__main__":
    compile_catalogues(Path(sys.argv[1]) if len(sys.argv) > 1 else None)
