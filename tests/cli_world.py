"""A folder of real files for driving both programs as users do, and the programs' command trees.

``make_world(folder)`` fills a folder with what an organiser's USB stick might hold: the example
files the guides ship (``docs/examples``: word lists, a recipe, a table of the club's editions, a
station configuration), exactly as shipped, so that an example of a ``--help`` that names one of
them runs on the file a reader has; and, under names of their own, more word lists, packs built
by the real builder (one signed), keys (and the director's TLS certificate), a station data
folder with its judge PIN and a log holding a challenge from "Стол 3", and files of every wrong
kind a tired director might hand over (a zip, a Word document, a spreadsheet, a PDF, Zyzzyva's
Spanish graph, UTF-16 text...). Every file is made here, by the test, or shipped, so each one's
kind is known without asking the recogniser under test.

``commands()`` walks the click trees of ``kiosk`` and ``lexicon-build``: a new command is found
here, and the tests that use it then ask for what they need to drive it.
"""

from __future__ import annotations

import gzip
import io
import os
import random
import shutil
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import click

from kiosk.cli import kiosk
from kiosk.core.words.alphabet import alphabets
from kiosk.director.tls import kept_certificate
from kiosk.storage import open_station_storage, write_csv
from lexicon_build.builder import build_pack
from lexicon_build.cli import main as lexicon_build
from lexicon_build.recipe import Recipe, SourceSpec
from lexicon_build.signing import generate_key_pair, load_private_key, sign_pack
from tests.conftest import REPO_ROOT, write_list
from tests.storage.entries import make_entry
from tests.test_dwg import encode_dwg

PROGRAMS: dict[str, click.Group] = {"kiosk": kiosk, "lexicon-build": lexicon_build}
WORDS = ["CAT", "CATS", "DOG", "DOGS", "QI", "ZA", "ZAS", "QAT", "ZEBRA", "ZEBRAS"]
PIN = "24682468"  # also a good passphrase: 8 characters
PASSPHRASE = "correct horse"
STATION_NAME = "Стол 3"
EXAMPLES = REPO_ROOT / "docs" / "examples"  # shipped with the guides: the world never makes its own
EDITIONS = "club-editions.tsv"  # the club's own table, as shipped
EDITION = "CLUB2024"  # the edition it names: the shipped base-list.txt
EDITION_LIST = "base-list.txt"

# The test's own word for each sample's kind: what the file is, as the test made it.
SAMPLES: dict[str, str] = {
    "words.txt": "list",
    "definitions.txt": "list",
    "slips.txt": "slips",
    "club.dwg": "graph",
    "school-2014.toml": "recipe",
    "station.toml": "config",
    "club.kxpack": "pack",
    "organiser.pub": "pub",
    "organiser.key": "key",
    "export.csv": "export",
    "club-editions.tsv": "editions",
    "words.zip": "zip",
    "words.txt.gz": "gzip",
    "words.pdf": "pdf",
    "words.png": "png",
    "words.docx": "docx",
    "words.xlsx": "xlsx",
    "words.doc": "doc",
    "FISE2.dwg": "spanish graph",
    "NWL2023-R.dwg": "reversed graph",
    "utf16.txt": "utf16",
    "page.html": "html",
    "kiosk.sqlite3": "sqlite",
    "garbage.bin": "garbage",
    "empty.txt": "empty",
}
UNREADABLE = "unreadable.txt"  # chmod 000: only a process without CAP_DAC_OVERRIDE is refused
READ_ONLY_FOLDER = "read-only"  # chmod 555
UNREADABLE_FOLDER = "locked"  # chmod 000
FOLDER = "folder"
MISSING = "missing.txt"
SYMLINK_TO_WORDS = "link-to-words.txt"
FIFO = "pipe"  # a special file: as an output it must be refused, and never read


def _pack(words: list[str], path: Path, *, youth: list[str] | None = None, name: str = "Club") -> Path:
    source = write_list(path.with_suffix(".src.txt"), words)
    youth_spec = None
    if youth is not None:
        youth_spec = SourceSpec(path=write_list(path.with_suffix(".youth.txt"), youth))
    recipe = Recipe(
        name=name, edition="test", sources=(SourceSpec(path=source),), youth_exclusions=youth_spec
    )
    path.write_bytes(build_pack(recipe).data)
    source.unlink()
    if youth_spec is not None:
        youth_spec.path.unlink()
    return path


def _zip(path: Path, members: dict[str, str]) -> None:
    with zipfile.ZipFile(path, "w") as archive:
        for name, text in members.items():
            archive.writestr(name, text)


def make_world(folder: Path) -> Path:
    """Fill ``folder`` (created) with the files described in the module docstring."""
    shutil.copytree(EXAMPLES, folder, dirs_exist_ok=True)  # the guides' examples, as shipped
    write_list(folder / "words.txt", WORDS)
    write_list(folder / "nwl.txt", WORDS)
    write_list(folder / "youth.txt", ["ZA"])
    (folder / "slips.txt").write_text("cat dogs\nqi, za\nzebraz\n", encoding="utf-8")
    keys = generate_key_pair(folder / "organiser.key", "Club Organiser")
    generate_key_pair(folder / "director.key", "Director", passphrase=PASSPHRASE.encode())
    kept_certificate(folder / "tls", "127.0.0.1")  # kiosk director --certificate/--key
    signing_key = load_private_key(keys.private_path)
    club = _pack(WORDS, folder / "club.kxpack")
    club.write_bytes(sign_pack(club.read_bytes(), signing_key, club))
    _pack(WORDS, folder / "school.kxpack", youth=["ZA"], name="School")
    _pack(WORDS, folder / "club-youth.kxpack", youth=["ZA"], name="Club")  # the shipped station.toml's
    _pack(WORDS[:6], folder / "nwl2020.kxpack", name="NWL2020")
    _pack(WORDS, folder / "nwl2023.kxpack", name="NWL2023")
    data = folder / "data"
    entry = make_entry(["CAT", "DOGZ"], station=STATION_NAME, judged_at=datetime(2024, 5, 1, 9, tzinfo=UTC))
    with open_station_storage(data) as storage:
        storage.judge_access.set_pin(PIN)  # a station that has judged had a judge PIN
        storage.log.record(entry)
    with (folder / "export.csv").open("w", encoding="utf-8", newline="") as out:
        write_csv([entry], out)
    shutil.copy(data / "kiosk.sqlite3", folder / "kiosk.sqlite3")
    # Files of the wrong kind, as they come from other programs.
    _zip(folder / "words.zip", {"words.txt": "CAT\nDOG\n"})
    (folder / "words.txt.gz").write_bytes(gzip.compress(b"CAT\nDOG\n"))
    (folder / "words.pdf").write_bytes(b"%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\n%%EOF\n")
    (folder / "words.png").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(64))
    _zip(folder / "words.docx", {"[Content_Types].xml": "<Types/>", "word/document.xml": "<w:document/>"})
    _zip(folder / "words.xlsx", {"[Content_Types].xml": "<Types/>", "xl/workbook.xml": "<workbook/>"})
    (folder / "words.doc").write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(504))
    # CA2E: CA·LL·E; CHE: C·H·E (a graph's letters are tiles of their own)
    (folder / "FISE2.dwg").write_bytes(encode_dwg(["CA1O", "2AMA", "PE3O", "4U", "CASA", "CA2E", "CHE"]))
    fise = Recipe(
        name="FISE", sources=(SourceSpec(path=folder / "FISE2.dwg"),), alphabet=alphabets()["spanish"]
    )
    (folder / "fise.kxpack").write_bytes(build_pack(fise).data)
    (folder / "NWL2023-R.dwg").write_bytes(encode_dwg(["TAC", "GOD"]))
    (folder / "utf16.txt").write_bytes("CAT\r\nDOG\r\n".encode("utf-16"))
    (folder / "page.html").write_text("<!DOCTYPE html>\n<html><body><pre>CAT\nDOG</pre></body></html>\n")
    (folder / "garbage.bin").write_bytes(random.Random(15).randbytes(3000))
    (folder / "empty.txt").write_bytes(b"")
    (folder / FOLDER).mkdir()
    (folder / SYMLINK_TO_WORDS).symlink_to("words.txt")
    os.mkfifo(folder / FIFO)
    (folder / UNREADABLE).write_text("CAT\n", encoding="utf-8")
    (folder / UNREADABLE).chmod(0)
    (folder / READ_ONLY_FOLDER).mkdir()
    (folder / READ_ONLY_FOLDER).chmod(0o555)
    (folder / UNREADABLE_FOLDER).mkdir()
    (folder / UNREADABLE_FOLDER).chmod(0)
    return folder


def copy_world(world: Path, target: Path) -> Path:
    """A fresh copy of the world for one run (permissions kept, symlinks kept as links)."""
    shutil.copytree(world, target, symlinks=True, ignore=shutil.ignore_patterns(FIFO))
    os.mkfifo(target / FIFO)  # a named pipe is made, not copied
    for name in (READ_ONLY_FOLDER, UNREADABLE_FOLDER):
        (target / name).chmod((world / name).stat().st_mode & 0o777)
    return target


def release_world(folder: Path) -> None:
    """Give back permissions so that pytest can remove the folder."""
    for root, dirs, files in os.walk(folder):
        for name in dirs:
            (Path(root) / name).chmod(0o755)
        for name in files:
            path = Path(root) / name
            if not path.is_symlink():
                path.chmod(0o644)


@dataclass(frozen=True)
class Command:
    """One command of one program, found by walking its click tree."""

    program: str
    path: tuple[str, ...]  # the words after the program's name: () for the program itself
    command: click.Command

    @property
    def id(self) -> str:
        return " ".join((self.program, *self.path))


def commands() -> Iterator[Command]:
    """Every command of both programs, groups included, in the order their help lists them."""

    def walk(program: str, path: tuple[str, ...], command: click.Command) -> Iterator[Command]:
        yield Command(program, path, command)
        if isinstance(command, click.Group):
            for name in command.list_commands(click.Context(command)):
                sub = command.get_command(click.Context(command), name)
                assert sub is not None
                yield from walk(program, (*path, name), sub)

    for program, group in PROGRAMS.items():
        yield from walk(program, (), group)


def help_text(command: Command) -> str:
    """The command's --help, as a user sees it."""
    info = click.Context(command.command, info_name=command.id)
    return command.command.get_help(info)


def examples(command: Command) -> list[str]:
    """The command lines of the Examples block of the command's help, comments left out (a line
    ending in a backslash goes on on the next, as in a shell)."""
    lines = help_text(command).splitlines()
    found: list[str] = []
    inside = False
    going_on = False
    for line in lines:
        stripped = line.strip()
        if stripped in ("Example:", "Examples:"):
            inside = True
            continue
        if inside:
            if not stripped:
                if found:
                    inside = False
                continue
            if not line.startswith(" "):
                inside = False
                continue
            part = _command_part(stripped)
            if going_on:
                found[-1] = f"{found[-1][:-1].rstrip()} {part}"
            else:
                found.append(part)
            going_on = found[-1].endswith("\\")
    return found


def _command_part(line: str) -> str:
    """``kiosk check CAT    rule on a play`` -> ``kiosk check CAT``: a comment follows two spaces."""
    quote = ""
    for index, char in enumerate(line):
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif line.startswith("  ", index) or line.startswith(" #", index):
            return line[:index].rstrip()
    return line


def text_of(data: bytes) -> str:
    return io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", errors="replace").read()
