"""What a file is, and what to do with it: the one recogniser every command and loader uses.

Organisers hand over whatever is on the stick: the pack where the word list belongs, the word list
where the recipe belongs, a Word document, a zip, Zyzzyva's Spanish graph. Every place that takes
a file asks ``refusal(path, role)`` (or ``refusal_for_bytes``) and, when the file is of another
kind, shows one message: what the file is, what was expected, and what to do with it::

    club.txt is a word list, not a lexicon pack; build a pack from it: lexicon-build build ...

What a command may write is the other half, ``kiosk.core.files.output``.

Recognition reads the first ``HEAD_BYTES`` of a file; only a file that already looks like a word
graph, a zip or a TOML table is read whole (graphs to learn their alphabet, TOML to see its keys).
Nothing here depends on a lexicon, Qt or SQLAlchemy; the builder and the station share it.
"""

from __future__ import annotations

import codecs
import enum
import io
import os
import re
import shlex
import stat
import struct
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from kiosk.core.wording import Text, Wording, marked
from kiosk.core.words.alphabet import FISE_GRAPH_DIGITS

__all__ = [
    "GRAPH_TILE_DIGITS",
    "Kind",
    "Recognised",
    "Role",
    "recognise",
    "recognise_bytes",
    "refusal",
    "refusal_for_bytes",
]

HEAD_BYTES = 64 * 1024
MAX_TOML_BYTES = 1024 * 1024  # recipes, configs and keys are a few hundred bytes; word lists are not TOML
SAMPLE_LINES = 200
WORD_LIST_SHARE = 0.6  # lines starting with a word, among the first SAMPLE_LINES meaningful ones

# Zyzzyva's Spanish (FISE) graphs spell the tiles CH, LL, RR and Ñ with digits: the Spanish
# profile's own table (``kiosk.core.words.alphabet``); lexicon-build reads them with --alphabet spanish.
GRAPH_TILE_DIGITS = dict(FISE_GRAPH_DIGITS)
_GRAPH_HEADER = struct.Struct("<i")
# Graham Toal's DAWG, as Zyzzyva's graphs are made, gives the root node 256 edge slots (one per
# byte value): its own edges, then empty slots (0, the last one marked last edge of its node).
GRAPH_ROOT_SLOTS = 256
_LAST_EMPTY_SLOT = 1 << 22  # the root's 256th slot: empty, marked last edge of its node
_EMPTY_SLOTS = frozenset({0, _LAST_EMPTY_SLOT})
_ASCII_LETTER_BYTES = frozenset(range(ord("A"), ord("Z") + 1)) | frozenset(range(ord("a"), ord("z") + 1))
_TILE_DIGIT_BYTES = frozenset(ord(digit) for digit in GRAPH_TILE_DIGITS)
# a word of Zyzzyva's FISE lists: letters and at least one tile digit (1A2APATE4A)
_TILE_DIGITS = "".join(GRAPH_TILE_DIGITS)
_TILED_WORD = re.compile(f"(?=.*[{_TILE_DIGITS}])(?=.*[^\\W\\d_])(?:[^\\W\\d_]|[{_TILE_DIGITS}])+")

PACK_MAGIC = b"KXLEXPK\n"  # kiosk.core.packs.pack.MAGIC; pack.py imports this module, so it is spelt here
PACK_MAGIC_DAMAGE_BYTES = 2
LOG_EXPORT_HEADER = "challenge_id,judged_at_utc,"  # kiosk.storage.export.CSV_COLUMNS, first two
EDITION_TABLE_HEADER = "lexicon\twords\tsha256_of_sorted_words\t"  # kiosk.core.edition.HEADER_FIELDS
RECIPE_KEYS = frozenset(
    {"sources", "youth_exclusions", "additions", "removals", "name", "edition", "expect", "known_editions"}
)
STATION_CONFIG_KEYS = frozenset(
    {
        "station_name",
        "divisions",
        "rules",
        "timings",
        "judge",
        "touch",
        "screen",
        "database_url",
        "data_dir",
        "known_editions",
    }
)
_TOML_LINE = re.compile(r"\s*(\[\[?\s*[A-Za-z0-9_.\"-]+\s*\]\]?|[A-Za-z0-9_\"-]+\s*=)")


class Kind(enum.Enum):
    """The kinds of file an organiser, a judge or a director might hand to a command."""

    MISSING = "missing"
    FOLDER = "folder"
    SPECIAL = "special"
    UNREADABLE = "unreadable"
    EMPTY = "empty"
    PACK = "pack"
    WORD_GRAPH = "word graph"
    REVERSED_WORD_GRAPH = "reversed word graph"
    SPANISH_WORD_GRAPH = "Spanish word graph"
    SPANISH_WORD_LIST = "Spanish word list"  # Zyzzyva's FISE text list: digits 1-4 for CH, LL, RR, Ñ
    WORD_LIST = "word list"
    OTHER_ENCODING_TEXT = "text not in UTF-8"
    UTF16_TEXT = "UTF-16 text"
    RECIPE = "recipe"
    STATION_CONFIG = "station configuration"
    TOML = "TOML"
    PUBLIC_KEY = "public key"
    PRIVATE_KEY = "private key"
    LOG_EXPORT = "challenge-log export"
    EDITION_TABLE = "table of known editions"
    CSV = "CSV"
    TEXT = "text"
    SQLITE = "SQLite database"
    WORD_DOCUMENT = "word-processor document"
    SPREADSHEET = "spreadsheet"
    PRESENTATION = "presentation"
    ZIP = "zip archive"
    COMPRESSED = "compressed file"
    PDF = "PDF"
    IMAGE = "image"
    HTML = "web page"
    PROGRAM = "program"
    BINARY = "binary"


@dataclass(frozen=True)
class Recognised:
    """What a file is: its kind, and a detail such as ``.docx`` or ``gzip``."""

    kind: Kind
    detail: str = ""

    @property
    def description(self) -> Text:
        """The kind as a sentence continues it: 'club.txt is ...' (a ``Wording``)."""
        kind = Wording(_DESCRIPTIONS[self.kind])
        return Wording(marked("{kind} ({detail})"), kind=kind, detail=self.detail) if self.detail else kind

    def advice(self, path: str, role: Role | None = None) -> Text:
        """What to do with a file of this kind (given where ``role`` was wanted), ending a message
        (a ``Wording``: the commands and the path in it are values, typed as they are)."""
        text = _ROLE_ADVICE.get((role, self.kind), _ADVICE[self.kind]) if role else _ADVICE[self.kind]
        # each value is typed in a command: quoted where a shell would split it, so that the
        # advice works as printed ('my lists/FISE 2009.dwg')
        stem = shlex.quote(Path(path).stem or "NAME")
        quoted = shlex.quote(path)
        values = {
            "path": quoted,
            "stem": stem,
            "forward": shlex.quote(re.sub(r"-R(\.dwg)$", r"\1", path, flags=re.IGNORECASE)),
            "build": _BUILD.format(path=quoted, stem=stem),
            "digits": _and(list(GRAPH_TILE_DIGITS)),
            "tiles": _and(list(GRAPH_TILE_DIGITS.values())),
        }
        said = Wording(text, **values)
        if text == _UNSURE and role is not None and role.maker:
            return Wording(marked("{advice} ({maker})"), advice=said, maker=Wording(role.maker))
        return said


def _and(items: list[str]) -> Text:
    if len(items) < 2:
        return "".join(items)
    return Wording(marked("{items} and {last}"), items=", ".join(items[:-1]), last=items[-1])


_DESCRIPTIONS: dict[Kind, str] = {
    Kind.MISSING: marked("not there (no such file)"),
    Kind.FOLDER: marked("a folder"),
    Kind.SPECIAL: marked("a device or other special file"),
    Kind.UNREADABLE: marked("a file this program may not read"),
    Kind.EMPTY: marked("an empty file (0 bytes)"),
    Kind.PACK: marked("a lexicon pack"),
    Kind.WORD_GRAPH: marked("a Zyzzyva word graph"),
    Kind.REVERSED_WORD_GRAPH: marked(
        "Zyzzyva's reversed word graph (its words are spelt backwards, for hooks)"
    ),
    Kind.SPANISH_WORD_GRAPH: marked("a Spanish (FISE-style) Zyzzyva word graph"),
    Kind.SPANISH_WORD_LIST: marked("a Spanish (FISE-style) word list as Zyzzyva writes it"),
    Kind.WORD_LIST: marked("a word list"),
    Kind.OTHER_ENCODING_TEXT: marked("a text file that is not in UTF-8 (probably Windows-1252 or Latin-1)"),
    Kind.UTF16_TEXT: marked("a text file saved as UTF-16 ('Unicode' in Windows Notepad)"),
    Kind.RECIPE: marked("a pack recipe"),
    Kind.STATION_CONFIG: marked("a station configuration"),
    Kind.TOML: marked("a TOML file"),
    Kind.PUBLIC_KEY: marked("a public signing key"),
    Kind.PRIVATE_KEY: marked("a private signing key"),
    Kind.LOG_EXPORT: marked("a challenge-log export (CSV)"),
    Kind.EDITION_TABLE: marked("a table of known editions (facts about published word sets)"),
    Kind.CSV: marked("a CSV file with several columns"),
    Kind.TEXT: marked("a text file"),
    Kind.SQLITE: marked("a SQLite database (a station's challenge log is one)"),
    Kind.WORD_DOCUMENT: marked("a word-processor document"),
    Kind.SPREADSHEET: marked("a spreadsheet"),
    Kind.PRESENTATION: marked("a presentation"),
    Kind.ZIP: marked("a zip archive"),
    Kind.COMPRESSED: marked("a compressed file"),
    Kind.PDF: marked("a PDF document"),
    Kind.IMAGE: marked("an image"),
    Kind.HTML: marked("a web page (HTML)"),
    Kind.PROGRAM: marked("a program"),
    Kind.BINARY: marked("a binary file"),
}

# Advice: message ids whose commands ({build}, and those written out) are typed as they are.
_UNSURE = marked("check that this is the file you meant")
_BUILD = "lexicon-build build --name NAME --source {path} -o {stem}.kxpack"
_SPANISH_BUILD = marked(
    "its digits {digits} stand for the tiles {tiles}: build a Spanish pack from it with --alphabet "
    'spanish (alphabet = "spanish" in a recipe): lexicon-build build --alphabet spanish --name NAME '
    "--source {path} -o {stem}.kxpack"
)
_ADVICE: dict[Kind, str] = {
    Kind.MISSING: marked("check the name and the folder"),
    Kind.FOLDER: marked("give a file inside it"),
    Kind.SPECIAL: marked("give the name of an ordinary file"),
    Kind.UNREADABLE: marked("check its permissions (ls -l {path}), or copy it somewhere you may read"),
    Kind.EMPTY: marked("copy it again from the original"),
    Kind.PACK: marked(
        "a station judges with it (kiosk check --pack {path}); 'lexicon-build info {path}' shows "
        "what it holds and the word lists it was built from"
    ),
    Kind.WORD_GRAPH: marked("build a pack from it: {build}"),
    Kind.REVERSED_WORD_GRAPH: marked("to build a pack, give the graph beside it instead ({forward})"),
    Kind.SPANISH_WORD_GRAPH: _SPANISH_BUILD,
    Kind.SPANISH_WORD_LIST: _SPANISH_BUILD,
    Kind.WORD_LIST: marked("build a pack from it: {build}"),
    Kind.OTHER_ENCODING_TEXT: marked("save it again as UTF-8 (or plain ASCII) and try again"),
    Kind.UTF16_TEXT: marked("save it again as UTF-8 (in Notepad: Save as, Encoding: UTF-8) and try again"),
    Kind.RECIPE: marked("build the pack it describes: lexicon-build build {path} -o {stem}.kxpack"),
    Kind.STATION_CONFIG: marked("start a station with it: kiosk station --config {path}"),
    Kind.TOML: _UNSURE,
    Kind.PUBLIC_KEY: marked(
        "paste its lines into each station's configuration, or check a signed pack with "
        "lexicon-build verify PACK --trust {path}"
    ),
    Kind.PRIVATE_KEY: marked(
        "sign packs with it (lexicon-build sign PACK --key {path}), and never copy it to a station"
    ),
    Kind.LOG_EXPORT: marked("it was written by 'kiosk log export'; open it in a spreadsheet"),
    Kind.EDITION_TABLE: marked(
        "packs are recognised by it when it is given to lexicon-build with --known-editions {path}, or "
        "named in known_editions of a recipe or a station configuration"
    ),
    Kind.CSV: marked("save only the column of words, one word per line, as plain text (UTF-8)"),
    Kind.TEXT: _UNSURE,
    Kind.SQLITE: marked("read a station's log with kiosk log show --data-dir FOLDER (the folder holding it)"),
    Kind.WORD_DOCUMENT: marked(
        "open it and save the words as plain text (UTF-8), one word per line, and give that file"
    ),
    Kind.SPREADSHEET: marked(
        "save the column of words as a CSV or text file (UTF-8), one word per line, and give that file"
    ),
    Kind.PRESENTATION: _UNSURE,
    Kind.ZIP: marked("unzip it and give the file inside"),
    Kind.COMPRESSED: marked("decompress it and give the file inside"),
    Kind.PDF: marked("a PDF's words cannot be read reliably: get the list as a plain text file"),
    Kind.IMAGE: marked("an image holds no words a program can read: get the list as a plain text file"),
    Kind.HTML: marked(
        "it is probably the web page around the file, not the file: download the raw file (on GitHub, "
        "the Raw button) and try again"
    ),
    Kind.PROGRAM: _UNSURE,
    Kind.BINARY: _UNSURE,
}

_TEXT_AS_PACK = marked("if it is a word list, save it as UTF-8 and build a pack from it: {build}")

# Kinds a role takes as it is, and kinds that are another version of the role's own kind (the
# message then says what is wrong with it, not "X, not Y").
_PACKS = frozenset({Kind.PACK})
_LISTS = frozenset(
    {Kind.WORD_LIST, Kind.SPANISH_WORD_LIST, Kind.TEXT, Kind.WORD_GRAPH, Kind.OTHER_ENCODING_TEXT}
)
# TOML of no known kind, or text with no table at all (e.g. every line commented out): the TOML
# reader names the key or the line that is wrong.
_TOML_OF_UNKNOWN_KIND = frozenset({Kind.TOML, Kind.TEXT})
_OTHER_TEXT = frozenset({Kind.OTHER_ENCODING_TEXT, Kind.UTF16_TEXT})
_NO_VARIANTS: frozenset[Kind] = frozenset()


class Role(enum.Enum):
    """What a command expects a file to be: (noun, kinds taken, kinds that are variants of it)."""

    PACK = (marked("a lexicon pack"), _PACKS, _NO_VARIANTS)
    WORD_LIST = (
        marked("a word list"),
        _LISTS,
        frozenset({Kind.SPANISH_WORD_GRAPH, Kind.REVERSED_WORD_GRAPH, Kind.UTF16_TEXT}),
    )
    PACK_OR_WORD_LIST = (
        marked("a lexicon pack or a word list"),
        _PACKS | _LISTS,
        frozenset({Kind.SPANISH_WORD_GRAPH, Kind.REVERSED_WORD_GRAPH, Kind.UTF16_TEXT}),
    )
    RECIPE = (marked("a pack recipe (TOML)"), frozenset({Kind.RECIPE}) | _TOML_OF_UNKNOWN_KIND, _OTHER_TEXT)
    STATION_CONFIG = (
        marked("a station configuration (TOML)"),
        frozenset({Kind.STATION_CONFIG}) | _TOML_OF_UNKNOWN_KIND,
        _OTHER_TEXT,
    )
    TRUSTED_KEYS = (
        marked("a public key (.pub) or a station configuration with [[trusted_keys]]"),
        frozenset({Kind.PUBLIC_KEY, Kind.STATION_CONFIG, Kind.TOML, Kind.TEXT, Kind.WORD_LIST}),
        _NO_VARIANTS,
    )
    PRIVATE_KEY = (marked("a private signing key"), frozenset({Kind.PRIVATE_KEY}), _NO_VARIANTS)
    PUBLIC_KEY = (marked("a public signing key"), frozenset({Kind.PUBLIC_KEY}), _NO_VARIANTS)
    CHALLENGES = (
        marked("a file of challenges, one per line"),
        frozenset(
            {
                Kind.WORD_LIST,
                Kind.SPANISH_WORD_LIST,
                Kind.TEXT,
                Kind.CSV,
                Kind.OTHER_ENCODING_TEXT,
                Kind.EMPTY,
            }
        ),
        frozenset({Kind.UTF16_TEXT}),
    )
    LOG_EXPORT = (marked("a challenge-log export (CSV)"), frozenset({Kind.LOG_EXPORT}), _NO_VARIANTS)
    # Text of any kind: the table's reader names the line that is wrong (a header with spaces
    # for tabs, a count missing), which says more than "a word list, not a table".
    EDITION_TABLE = (
        marked("a table of known editions"),
        frozenset({Kind.EDITION_TABLE, Kind.WORD_LIST, Kind.TEXT, Kind.CSV, Kind.TOML}),
        _OTHER_TEXT,
    )

    def __init__(self, noun: str, takes: frozenset[Kind], variants: frozenset[Kind]) -> None:
        self.noun = noun
        self.takes = takes
        self.variants = variants

    @property
    def maker(self) -> str:
        """Where a file of this role comes from, for a file nothing else can be said about."""
        return _MAKERS.get(self, "")


_MAKERS = {
    Role.PACK: marked("a pack is a file written by lexicon-build build"),
    Role.RECIPE: marked("a recipe is a TOML file naming the word lists: see docs/organisers.md"),
    Role.STATION_CONFIG: marked("a station configuration is a TOML file: see docs/station.md"),
    Role.PRIVATE_KEY: marked("a private key is the file lexicon-build keygen wrote without .pub"),
    Role.PUBLIC_KEY: marked("a public key is the .pub file lexicon-build keygen wrote"),
    Role.TRUSTED_KEYS: marked("a public key is the .pub file lexicon-build keygen wrote"),
    Role.EDITION_TABLE: marked("a table of known editions is a text file like data/known-lexicons.tsv"),
}

# Advice that depends on what was wanted: a pack where a word list belongs has its own way out.
_ROLE_ADVICE: dict[tuple[Role, Kind], str] = {
    (Role.PACK, Kind.OTHER_ENCODING_TEXT): _TEXT_AS_PACK,
    (Role.PACK, Kind.UTF16_TEXT): _TEXT_AS_PACK,
    (Role.WORD_LIST, Kind.PACK): marked(
        "give the word list it was built from ('lexicon-build info {path}' names its sources)"
    ),
    (Role.STATION_CONFIG, Kind.PACK): marked(
        'a station judges with it when its configuration names it: pack = "{path}" under [[divisions]] '
        "(see docs/station.md)"
    ),
    (Role.PRIVATE_KEY, Kind.PUBLIC_KEY): marked(
        "that is the public half: sign with the private key made with it (lexicon-build keygen wrote both)"
    ),
    (Role.TRUSTED_KEYS, Kind.PRIVATE_KEY): marked(
        "give the .pub file made with it instead, and never hand out the private key"
    ),
    (Role.CHALLENGES, Kind.PACK): marked("to judge with it, give it as --pack {path}"),
}


def recognise(path: Path) -> Recognised:
    """What the file at ``path`` is (reading at most its head, unless its kind needs more)."""
    try:
        status = path.stat()
        if stat.S_ISDIR(status.st_mode):
            return Recognised(Kind.FOLDER)
        if not stat.S_ISREG(status.st_mode):
            return Recognised(Kind.SPECIAL)  # a device or a pipe: reading it could block or never end
        with path.open("rb") as stream:
            head = stream.read(HEAD_BYTES)
            size = os.fstat(stream.fileno()).st_size
    except FileNotFoundError:
        return Recognised(Kind.MISSING)
    except NotADirectoryError:
        return Recognised(Kind.MISSING)
    except OSError:
        return Recognised(Kind.UNREADABLE)

    def whole() -> bytes:
        if len(head) >= size:
            return head
        try:
            return path.read_bytes()
        except OSError:
            return head

    return _recognise(head, size, path.name, whole)


def recognise_bytes(data: bytes, name: str = "") -> Recognised:
    """What ``data`` (a whole file's bytes, named ``name``) is."""
    return _recognise(data[:HEAD_BYTES], len(data), name, lambda: data)


def refusal(path: Path, role: Role) -> Text | None:
    """The message for a file that is not what ``role`` takes, or None if it may be what it is."""
    return _refusal(str(path), recognise(path), role)


def refusal_for_bytes(data: bytes, where: str, role: Role) -> Text | None:
    """``refusal`` for a file already read: ``where`` names it in the message."""
    return _refusal(where, recognise_bytes(data, Path(where).name), role)


def _refusal(where: str, found: Recognised, role: Role) -> Text | None:
    if found.kind in role.takes:
        return None
    advice = found.advice(where, role)
    if found.kind in role.variants or found.kind in (
        Kind.MISSING,
        Kind.FOLDER,
        Kind.SPECIAL,
        Kind.UNREADABLE,
        Kind.EMPTY,
    ):
        return Wording(
            marked("{where} is {kind}; {advice}"), where=where, kind=found.description, advice=advice
        )
    return Wording(
        marked("{where} is {kind}, not {wanted}; {advice}"),
        where=where,
        kind=found.description,
        wanted=Wording(role.noun),
        advice=advice,
    )


# --- recognition ------------------------------------------------------------------------------


def _recognise(head: bytes, size: int, name: str, whole: Callable[[], bytes]) -> Recognised:
    if size == 0:
        return Recognised(Kind.EMPTY)
    binary = _binary_kind(head, size, name, whole)
    if binary is not None:
        return binary
    text = _text_of(head, complete=len(head) >= size)
    if text is None:
        if b"\x00" in head:
            return Recognised(Kind.BINARY)
        return Recognised(Kind.OTHER_ENCODING_TEXT)
    return _text_kind(text, size, whole)


def _near_pack_magic(head: bytes) -> bool:
    start = head[: len(PACK_MAGIC)]
    if len(start) < len(PACK_MAGIC):
        return PACK_MAGIC.startswith(start) and len(start) >= 4
    return (
        sum(a == b for a, b in zip(start, PACK_MAGIC, strict=True))
        >= len(PACK_MAGIC) - PACK_MAGIC_DAMAGE_BYTES
    )


_SIGNATURES: tuple[tuple[bytes, Kind, str], ...] = (
    (b"SQLite format 3\x00", Kind.SQLITE, ""),
    (b"%PDF-", Kind.PDF, ""),
    (b"\x89PNG\r\n\x1a\n", Kind.IMAGE, "PNG"),
    (b"\xff\xd8\xff", Kind.IMAGE, "JPEG"),
    (b"GIF87a", Kind.IMAGE, "GIF"),
    (b"GIF89a", Kind.IMAGE, "GIF"),
    (b"\x1f\x8b", Kind.COMPRESSED, "gzip"),
    (b"BZh", Kind.COMPRESSED, "bzip2"),
    (b"\xfd7zXZ\x00", Kind.COMPRESSED, "xz"),
    (b"7z\xbc\xaf\x27\x1c", Kind.COMPRESSED, "7-Zip"),
    (b"\x28\xb5\x2f\xfd", Kind.COMPRESSED, "zstd"),
    (b"Rar!\x1a\x07", Kind.COMPRESSED, "RAR"),
    (b"\x7fELF", Kind.PROGRAM, "ELF"),
    (b"{\\rtf", Kind.WORD_DOCUMENT, "RTF"),
)
_OLE2 = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"  # Office 97-2003: .doc, .xls, .ppt
_OLE2_BY_SUFFIX = {
    ".doc": (Kind.WORD_DOCUMENT, ".doc"),
    ".xls": (Kind.SPREADSHEET, ".xls"),
    ".ppt": (Kind.PRESENTATION, ".ppt"),
}


def _binary_kind(head: bytes, size: int, name: str, whole: Callable[[], bytes]) -> Recognised | None:
    if _near_pack_magic(head):
        return Recognised(Kind.PACK)
    for signature, kind, detail in _SIGNATURES:
        if head.startswith(signature):
            return Recognised(kind, detail)
    if head.startswith(_OLE2):
        kind, detail = _OLE2_BY_SUFFIX.get(
            Path(name).suffix.lower(), (Kind.WORD_DOCUMENT, "Microsoft Office")
        )
        return Recognised(kind, detail)
    if head.startswith(b"PK\x03\x04") or head.startswith(b"PK\x05\x06"):
        return _zip_kind(whole())
    if len(head) > 262 and head[257:262] == b"ustar":
        return Recognised(Kind.COMPRESSED, "tar archive")
    if head.startswith(b"MZ") and b"\x00" in head[:64]:
        return Recognised(Kind.PROGRAM, "Windows")
    graph = _graph_kind(head, size, name, whole)
    if graph is not None:
        return graph
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)) and not head.startswith(
        codecs.BOM_UTF32_LE
    ):
        return Recognised(Kind.UTF16_TEXT)
    if _looks_utf16_without_bom(head):
        return Recognised(Kind.UTF16_TEXT)
    return None


def _zip_kind(data: bytes) -> Recognised:
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            names = archive.namelist()
            mimetype = archive.read("mimetype").decode("ascii", "replace") if "mimetype" in names else ""
    except (zipfile.BadZipFile, OSError, ValueError, KeyError, EOFError):
        return Recognised(Kind.ZIP)
    if any(n.startswith("word/") for n in names) or "opendocument.text" in mimetype:
        return Recognised(Kind.WORD_DOCUMENT, ".odt" if mimetype else ".docx")
    if any(n.startswith("xl/") for n in names) or "opendocument.spreadsheet" in mimetype:
        return Recognised(Kind.SPREADSHEET, ".ods" if mimetype else ".xlsx")
    if any(n.startswith("ppt/") for n in names) or "opendocument.presentation" in mimetype:
        return Recognised(Kind.PRESENTATION, ".odp" if mimetype else ".pptx")
    return Recognised(Kind.ZIP)


def _graph_kind(head: bytes, size: int, name: str, whole: Callable[[], bytes]) -> Recognised | None:
    """A Zyzzyva graph: an edge count that gives exactly the file's size, and edges spelling letters
    (or, in the root node's slots, left empty as Toal's layout leaves them)."""
    if size < _GRAPH_HEADER.size + 4 or len(head) < _GRAPH_HEADER.size:
        return None
    (count,) = _GRAPH_HEADER.unpack_from(head)
    if count <= 0 or _GRAPH_HEADER.size + 4 * count != size:
        return None
    data = whole()
    letter_bytes = data[_GRAPH_HEADER.size + 3 :: 4]  # bits 31-24 of each little-endian edge
    root = letter_bytes[:GRAPH_ROOT_SLOTS]

    def edge(slot: int) -> int:
        return int.from_bytes(
            data[_GRAPH_HEADER.size + 4 * slot : _GRAPH_HEADER.size + 4 * slot + 4], "little"
        )

    # Toal's layout: the root's own edges, then only empty slots, the 256th marked last edge
    first_empty = root.find(0)
    slots_empty = first_empty < 0 or (
        count >= GRAPH_ROOT_SLOTS
        and edge(GRAPH_ROOT_SLOTS - 1) == _LAST_EMPTY_SLOT
        and all(edge(slot) in _EMPTY_SLOTS for slot in range(first_empty, GRAPH_ROOT_SLOTS))
    )
    letters = frozenset(letter_bytes[GRAPH_ROOT_SLOTS:]) | frozenset(
        root[: len(root) if first_empty < 0 else first_empty]
    )
    if not slots_empty or not letters <= _ASCII_LETTER_BYTES | _TILE_DIGIT_BYTES:
        return Recognised(Kind.WORD_GRAPH, "damaged") if name.lower().endswith(".dwg") else None
    if letters & _TILE_DIGIT_BYTES:
        return Recognised(Kind.SPANISH_WORD_GRAPH)
    if re.search(r"-r\.dwg$", name, re.IGNORECASE):
        return Recognised(Kind.REVERSED_WORD_GRAPH)
    return Recognised(Kind.WORD_GRAPH)


def _looks_utf16_without_bom(head: bytes) -> bool:
    """ASCII text saved as UTF-16: every other byte is NUL, the others printable or line ends."""
    sample = head[: 512 - len(head[:512]) % 2]
    if len(sample) < 8:
        return False
    for zeros, chars in ((sample[1::2], sample[0::2]), (sample[0::2], sample[1::2])):
        if zeros.count(0) == len(zeros) and all(32 <= c < 127 or c in b"\t\r\n" for c in chars):
            return True
    return False


def _text_of(head: bytes, *, complete: bool) -> str | None:
    """The head as text if it is UTF-8 without NUL bytes (a cut-off last character is fine)."""
    if b"\x00" in head:
        return None
    try:
        return codecs.getincrementaldecoder("utf-8-sig")().decode(head, final=complete)
    except UnicodeDecodeError:
        return None


def _meaningful_lines(text: str) -> list[str]:
    lines = []
    for line in text.splitlines():
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            lines.append(stripped)
            if len(lines) >= SAMPLE_LINES:
                break
    return lines


def _text_kind(text: str, size: int, whole: Callable[[], bytes]) -> Recognised:
    start = text.lstrip()[:1024].lower()
    if start.startswith(("<!doctype html", "<html")) or "<html" in start:
        return Recognised(Kind.HTML)
    if "-----BEGIN" in text[:4096]:
        if "PRIVATE KEY-----" in text[:4096]:
            return Recognised(Kind.PRIVATE_KEY)
        if "PUBLIC KEY-----" in text[:4096]:
            return Recognised(Kind.PUBLIC_KEY)
    if text.startswith(LOG_EXPORT_HEADER):
        return Recognised(Kind.LOG_EXPORT)
    lines = _meaningful_lines(text)
    if not lines:
        return Recognised(Kind.TEXT, "only comments and blank lines")
    if lines[0].startswith(EDITION_TABLE_HEADER):
        return Recognised(Kind.EDITION_TABLE)
    if size <= MAX_TOML_BYTES and _TOML_LINE.match(lines[0]):
        return _toml_kind(whole())
    if len(lines) >= 2 and all(_csv_like(line) for line in lines):
        counts = {line.count(",") for line in lines[1:]}
        if len(counts) == 1:
            return Recognised(Kind.CSV)
    firsts = [line.split(maxsplit=1)[0].replace(",", "") for line in lines]
    tiled = sum(_TILED_WORD.fullmatch(word) is not None for word in firsts)  # Zyzzyva's FISE digits
    if sum(word.isalpha() for word in firsts) + tiled >= WORD_LIST_SHARE * len(lines):
        return Recognised(Kind.SPANISH_WORD_LIST if tiled else Kind.WORD_LIST)
    return Recognised(Kind.TEXT)


def _csv_like(line: str) -> bool:
    """A line of columns: a comma, and a first field that is one token (a Zyzzyva definition's
    commas come after the word and a space)."""
    first, comma, _ = line.partition(",")
    return bool(comma) and not any(char.isspace() for char in first.strip())


def _toml_kind(data: bytes) -> Recognised:
    import tomllib  # only files that look like TOML pay for the parser

    try:
        table = tomllib.loads(data.decode("utf-8-sig"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError):
        return Recognised(Kind.TOML, "not valid TOML")
    keys = set(table)
    if keys == {"trusted_keys"}:
        return Recognised(Kind.PUBLIC_KEY)
    if keys & STATION_CONFIG_KEYS and not keys & {"sources", "name"}:
        return Recognised(Kind.STATION_CONFIG)
    if "sources" in keys or (keys and keys <= RECIPE_KEYS):
        return Recognised(Kind.RECIPE)
    return Recognised(Kind.TOML)
