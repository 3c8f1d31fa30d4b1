"""Reading organisers' word lists: formats, encodings, and bad lines named by file and line."""

from __future__ import annotations

from pathlib import Path

import pytest

from kiosk.core.errors import SourceError
from lexicon_build.reader import ListFormat, read_word_list


def _file(tmp_path: Path, data: bytes | str, name: str = "list.txt") -> Path:
    path = tmp_path / name
    path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    return path


def test_plain_list_any_case_crlf_bom_comments_blank_lines(tmp_path: Path) -> None:
    path = _file(tmp_path, b"\xef\xbb\xbf# my club list\r\ncat\r\n\r\n  Dogs  \r\n# QI is new\r\nqi\r\n")
    result = read_word_list(path)
    assert result.format is ListFormat.PLAIN
    assert result.words == ["CAT", "DOGS", "QI"]
    assert result.rejected == []


def test_zyzzyva_list_with_definitions(tmp_path: Path) -> None:
    path = _file(
        tmp_path,
        "WAX to coat with wax [v -ED, -ING, -ES]\nQI vital force [n -S]\n"
        "QIS QI, vital force [n]\nZA pizza [n -S]\n",
    )
    result = read_word_list(path)
    assert result.format is ListFormat.ZYZZYVA
    assert result.words == ["WAX", "QI", "QIS", "ZA"]


def test_a_stray_two_word_line_in_a_plain_list_is_reported_not_read(tmp_path: Path) -> None:
    path = _file(tmp_path, "cat\ndog\nice cream\nqi\n")
    result = read_word_list(path)
    assert result.words == ["CAT", "DOG", "QI"]
    assert [str(r) for r in result.rejected] == [f"{path}:3: more than one word on the line: 'ice cream'"]


def test_bad_lines_are_named_by_file_and_line(tmp_path: Path) -> None:
    path = _file(tmp_path, "cat\nd0g\n\n# fine\ncaf\u00e9\nq\nok\n")
    result = read_word_list(path)
    assert result.words == ["CAT", "OK"]
    assert [(r.line, r.file) for r in result.rejected] == [(2, str(path)), (5, str(path)), (6, str(path))]
    assert "U+0030" in result.rejected[0].reason
    assert "U+00E9" in result.rejected[1].reason
    assert "at least 2" in result.rejected[2].reason


def test_duplicates_are_counted_not_errors(tmp_path: Path) -> None:
    result = read_word_list(_file(tmp_path, "cat\nCAT\nCat\ndog\n"))
    assert result.words == ["CAT", "DOG"]
    assert result.duplicates == 2
    assert result.rejected == []


def test_words_longer_than_the_pack_allows_are_counted_as_too_long(tmp_path: Path) -> None:
    result = read_word_list(_file(tmp_path, "cat\nantidisestablishmentarianism\n"), max_length=15)
    assert result.words == ["CAT"]
    assert result.too_long == 1


def test_a_list_that_is_not_utf8_names_the_line(tmp_path: Path) -> None:
    path = _file(tmp_path, b"cat\ndog\ncaf\xe9\n")
    with pytest.raises(SourceError, match=rf"{path}:3: not UTF-8 text \(byte 0xE9\)"):
        read_word_list(path)


def test_a_binary_file_is_refused(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="is a binary file, not a word list"):
        read_word_list(_file(tmp_path, b"cat\x00\x00\x01"))


def test_a_missing_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match=r"nope\.txt: no such file"):
        read_word_list(tmp_path / "nope.txt")


def test_forced_plain_format_refuses_definitions(tmp_path: Path) -> None:
    path = _file(tmp_path, "WAX to coat with wax\nQI vital force\n")
    assert len(read_word_list(path, list_format=ListFormat.PLAIN).rejected) == 2
    assert read_word_list(path, list_format=ListFormat.ZYZZYVA).words == ["WAX", "QI"]


def test_old_mac_line_endings_and_unicode_line_separators_split_lines(tmp_path: Path) -> None:
    result = read_word_list(_file(tmp_path, "cat\rdog\u2028qi\n"))
    assert result.words == ["CAT", "DOG", "QI"]
