"""The one recogniser of file kinds (kiosk.core.files.kind): what it names, and that it keeps up.

Every file is made here, so what it is is known; the recogniser must say the same, and its
knowledge of this project's own files (pack magic, export header, config and recipe keys) must
match the code that writes and reads them.
"""

from __future__ import annotations

import gzip
import inspect
import struct
import tomllib
import zipfile
from pathlib import Path

import pytest

from kiosk.core.edition import HEADER_FIELDS
from kiosk.core.errors import OutputError
from kiosk.core.files import kind as filekind
from kiosk.core.files.kind import Kind, Role, recognise, recognise_bytes, refusal
from kiosk.core.files.output import check_output, output_path
from kiosk.core.packs.pack import MAGIC
from kiosk.core.station import config
from kiosk.paths import known_editions_path
from kiosk.storage import CSV_COLUMNS, write_csv
from lexicon_build import recipe
from lexicon_build.recipe import load_recipe
from tests.conftest import PackFactory
from tests.storage.entries import make_entry
from tests.test_dwg import encode_dwg

EXAMPLES = Path(__file__).resolve().parent.parent / "docs" / "examples"


def test_the_recogniser_knows_the_files_this_project_writes(tmp_path: Path) -> None:
    assert filekind.PACK_MAGIC == MAGIC
    export = tmp_path / "export.csv"
    with export.open("w", encoding="utf-8", newline="") as out:
        write_csv([make_entry(["CAT"])], out)
    assert recognise(export).kind is Kind.LOG_EXPORT
    assert ",".join(CSV_COLUMNS[:2]) + "," == filekind.LOG_EXPORT_HEADER
    example = EXAMPLES
    assert recognise(example / "station.toml").kind is Kind.STATION_CONFIG
    assert recognise(example / "school-2014.toml").kind is Kind.RECIPE
    load_recipe(example / "school-2014.toml")  # the recipe reader takes what the recogniser calls a recipe
    assert recognise(example / "club.dwg").kind is Kind.WORD_GRAPH
    assert recognise(example / "messy-list.txt").kind is Kind.WORD_LIST
    assert recognise(example / "club-editions.tsv").kind is Kind.EDITION_TABLE
    assert recognise(known_editions_path()).kind is Kind.EDITION_TABLE
    assert "\t".join(HEADER_FIELDS) + "\t" == filekind.EDITION_TABLE_HEADER


def test_the_recogniser_tells_configs_from_recipes_by_keys_they_really_have() -> None:
    """Its marker keys must be keys the config and recipe readers accept, or it would misname files."""
    config_source = inspect.getsource(config.parse_config)
    assert all(f'"{key}"' in config_source for key in filekind.STATION_CONFIG_KEYS)
    assert filekind.RECIPE_KEYS <= recipe._TOP_KEYS


def test_a_word_list_is_not_mistaken_for_toml_even_when_it_looks_like_one(tmp_path: Path) -> None:
    listing = tmp_path / "list.txt"
    listing.write_text("# club list\nAA\nAAH\nAAHED\n", encoding="utf-8")
    assert recognise(listing).kind is Kind.WORD_LIST
    assert refusal(listing, Role.WORD_LIST) is None
    zyzzyva = tmp_path / "defs.txt"
    zyzzyva.write_text("AA rough, cindery lava [n -S]\nQI vital force [n -S]\n", encoding="utf-8")
    assert refusal(zyzzyva, Role.WORD_LIST) is None
    data = tomllib.loads('name = "X"\n[[sources]]\npath = "a"\n')
    assert data["name"] == "X"


def test_check_output_refuses_a_device_or_a_pipe(tmp_path: Path) -> None:
    import os

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(OutputError, match="a device or other special file"):
        check_output(fifo, Role.PACK, force=True)


def _zip(path: Path, members: dict[str, str]) -> Path:
    with zipfile.ZipFile(path, "w") as archive:
        for name, text in members.items():
            archive.writestr(name, text)
    return path


@pytest.mark.parametrize(
    ("name", "data", "kind", "detail"),
    [
        ("w.txt.gz", gzip.compress(b"CAT\n"), Kind.COMPRESSED, "gzip"),
        ("w.pdf", b"%PDF-1.7\n%...", Kind.PDF, ""),
        ("w.png", b"\x89PNG\r\n\x1a\n" + bytes(20), Kind.IMAGE, "PNG"),
        ("w.jpg", b"\xff\xd8\xff\xe0" + bytes(20), Kind.IMAGE, "JPEG"),
        ("w.xls", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(100), Kind.SPREADSHEET, ".xls"),
        ("w.rtf", b"{\\rtf1\\ansi CAT}", Kind.WORD_DOCUMENT, "RTF"),
        ("w.sqlite3", b"SQLite format 3\x00" + bytes(100), Kind.SQLITE, ""),
        ("w.txt", "CAT\nDOG\n".encode("utf-16"), Kind.UTF16_TEXT, ""),
        ("w.txt", "CAT\nDOG\n".encode("utf-16-le"), Kind.UTF16_TEXT, ""),
        ("w.txt", "CAFÉ\nCAT\n".encode("cp1252"), Kind.OTHER_ENCODING_TEXT, ""),
        ("w.html", b"<!DOCTYPE html><html></html>", Kind.HTML, ""),
        (
            "w.key",
            b"-----BEGIN PRIVATE KEY-----\nMC4CAQ==\n-----END PRIVATE KEY-----\n",
            Kind.PRIVATE_KEY,
            "",
        ),
        ("w.txt", b"", Kind.EMPTY, ""),
        ("w.bin", bytes(range(256)) * 4, Kind.BINARY, ""),
        ("w.txt", b"# only a comment\n", Kind.TEXT, "only comments and blank lines"),
        ("w.csv", b"word,score\nCAT,5\nDOG,5\n", Kind.CSV, ""),
        ("damaged.kxpack", b"KXLEXPX\n" + bytes(60), Kind.PACK, ""),
    ],
)
def test_files_from_other_programs_are_named(name: str, data: bytes, kind: Kind, detail: str) -> None:
    assert recognise_bytes(data, name) == filekind.Recognised(kind, detail)


def test_office_documents_are_told_apart_inside_their_zip(tmp_path: Path) -> None:
    word = _zip(tmp_path / "a.docx", {"[Content_Types].xml": "", "word/document.xml": ""})
    sheet = _zip(tmp_path / "a.xlsx", {"[Content_Types].xml": "", "xl/workbook.xml": ""})
    odt = _zip(tmp_path / "a.odt", {"mimetype": "application/vnd.oasis.opendocument.text"})
    ods = _zip(tmp_path / "a.ods", {"mimetype": "application/vnd.oasis.opendocument.spreadsheet"})
    plain = _zip(tmp_path / "a.zip", {"words.txt": "CAT\n"})
    assert [recognise(p) for p in (word, sheet, odt, ods, plain)] == [
        filekind.Recognised(Kind.WORD_DOCUMENT, ".docx"),
        filekind.Recognised(Kind.SPREADSHEET, ".xlsx"),
        filekind.Recognised(Kind.WORD_DOCUMENT, ".odt"),
        filekind.Recognised(Kind.SPREADSHEET, ".ods"),
        filekind.Recognised(Kind.ZIP),
    ]


def test_zyzzyva_graphs_are_known_by_content_and_their_alphabet(tmp_path: Path) -> None:
    english = encode_dwg(["CAT", "DOGS", "QI"])
    spanish = encode_dwg(["CA1O", "2AMA", "PE3O", "4U"])
    assert recognise_bytes(english, "words.bin").kind is Kind.WORD_GRAPH  # by content, not by name
    assert recognise_bytes(spanish, "FISE2.dwg").kind is Kind.SPANISH_WORD_GRAPH
    assert recognise_bytes(english, "CSW21-R.dwg").kind is Kind.REVERSED_WORD_GRAPH
    message = refusal_for(tmp_path / "FISE2.dwg", spanish, Role.WORD_LIST)
    for tile in filekind.GRAPH_TILE_DIGITS.values():
        assert tile in message
    assert "--alphabet spanish" in message  # what reads it (issue 13)


def test_zyzzyvas_own_graphs_with_their_empty_root_slots_are_graphs_not_damaged() -> None:
    """Zyzzyva's real graphs give the root 256 edge slots, most of them empty (ODS5.dwg: edges 27
    to 256, letter byte 0x00): they are graphs, English or Spanish, and only real damage is called
    damaged (issue 24: FISE2009.dwg was 'damaged', sent to be copied again)."""
    for zyzzyva in (True, False):
        english = encode_dwg(["CAT", "DOGS", "QI"], zyzzyva=zyzzyva)
        spanish = encode_dwg(["CA1O", "2AMA", "PE3O", "4U"], zyzzyva=zyzzyva)
        assert recognise_bytes(english, "ODS5.dwg") == filekind.Recognised(Kind.WORD_GRAPH)
        assert recognise_bytes(spanish, "FISE2009.dwg") == filekind.Recognised(Kind.SPANISH_WORD_GRAPH)
    graph = encode_dwg(["CAT", "DOGS", "QI"])
    assert graph[4 + 4 * 30 : 4 + 4 * 31] == b"\0\0\0\0"  # edge 31: an empty slot
    assert graph[4 + 4 * 255 : 4 + 4 * 256] == b"\0\0\x40\0"  # edge 256: empty, last of the root
    assert recognise_bytes(encode_dwg([]), "EMPTY.dwg").kind is Kind.WORD_GRAPH
    damaged = bytearray(graph)
    damaged[4 + 4 * 30] = 7  # an empty slot with something in it
    assert recognise_bytes(bytes(damaged), "ODS5.dwg") == filekind.Recognised(Kind.WORD_GRAPH, "damaged")
    no_last_mark = bytearray(graph)
    no_last_mark[4 + 4 * 255 + 2] = 0  # the 256th slot without its last-edge mark: not Toal's layout
    assert recognise_bytes(bytes(no_last_mark), "x.dwg") == filekind.Recognised(Kind.WORD_GRAPH, "damaged")
    assert recognise_bytes(struct.pack("<i3I", 3, 0, 0, 0), "x.bin").kind is Kind.BINARY  # zeros: no graph
    damaged = bytearray(graph)
    damaged[4 + 4 * 256 + 3] = 0  # edge 257, the first past the root's slots: letter 0x00
    assert recognise_bytes(bytes(damaged), "ODS5.dwg") == filekind.Recognised(Kind.WORD_GRAPH, "damaged")


def refusal_for(path: Path, data: bytes, role: Role) -> str:
    path.write_bytes(data)
    found = refusal(path, role)
    assert found is not None
    return str(found)


def test_a_fifo_is_named_without_being_read(tmp_path: Path) -> None:
    import os

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    assert recognise(fifo).kind is Kind.SPECIAL  # reading it would wait for a writer forever


def test_a_pack_is_accepted_where_a_pack_belongs_and_named_elsewhere(make_pack: PackFactory) -> None:
    pack = make_pack(["CAT", "DOG"])
    assert refusal(pack, Role.PACK) is None
    assert refusal(pack, Role.PACK_OR_WORD_LIST) is None
    message = refusal(pack, Role.RECIPE)
    assert message is not None
    assert str(message).startswith(f"{pack} is a lexicon pack, not a pack recipe (TOML)")


@pytest.mark.parametrize("typed", ["nodir/", "nodir//", "folder/", "club.kxpack/"])
def test_an_output_named_with_a_folder_s_slash_is_never_a_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, typed: str
) -> None:
    """``-o nodir/``: Path() drops the slash; read as typed, it names a folder, whether or not one
    (or a file of that name) is there."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "folder").mkdir()
    (tmp_path / "club.kxpack").write_bytes(b"")
    with pytest.raises(OutputError) as refused:
        output_path(typed, Role.PACK, example="club.kxpack")
    message = str(refused.value)
    folder = typed.rstrip("/")
    assert message.startswith(f"{typed} ends with '/', so it names a folder, not a file")
    assert f"e.g. {folder}/club.kxpack" in message
    if folder == "nodir":
        assert "mkdir -p 'nodir'" in message
    if folder == "club.kxpack":
        assert "club.kxpack is not a folder" in message
    assert output_path("out.kxpack", Role.PACK) == Path("out.kxpack")
    assert output_path("folder/out.kxpack", Role.PACK) == Path("folder/out.kxpack")
