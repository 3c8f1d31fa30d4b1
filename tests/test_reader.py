"""Reading organisers' word lists: formats, encodings, and bad lines named by file and line."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from kiosk.core.errors import SourceError
from kiosk.core.words.alphabet import alphabets
from lexicon_build import reader
from lexicon_build.reader import ListFormat, WordList, read_word_list


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


# --- reading a whole list at once must give exactly what reading it line by line gives ---

LINE_ENDS = ["\n", "\n", "\n", "\r\n", "\r\n", "\r", "\v", "\f", "\x1c", "\x85", "\u2028"]
SPACES = [" ", " ", "\t", "  ", "\x1f", "\xa0", "\u3000"]
CLEAN = ["cat", "DOGS", "Qi", "za", "cat", "zyzzyva", "oxyphenbutazones", "antidisestablishmentarianism"]
MESSY = [
    "caf\u00e9",
    "\uff31\uff29",
    "x",
    "d0g",
    "stra\u00dfe",
    "#",
    "# note",
    "ice cream",
    "",
    "\u200bqi",
    "#qi",
]


@st.composite
def list_texts(draw: st.DrawFn) -> str:
    """Word-list text: mostly clean (to take the whole-text path), sometimes with every oddity."""
    # each oddity alone as well as all together, so that one odd character in a clean list is tried
    pieces = st.sampled_from(draw(st.sampled_from([[*CLEAN, "# a comment", ""], CLEAN + MESSY])))
    ends = st.sampled_from(
        draw(st.sampled_from([["\n", "\r\n"], LINE_ENDS, *(["\n", e] for e in LINE_ENDS)]))
    )
    spaces = st.sampled_from(draw(st.sampled_from([["", " ", "\t"], SPACES, *(["", s] for s in SPACES)])))
    definitions = st.sampled_from(["", "", "to define it", "qi"])
    lines = draw(st.lists(st.tuples(spaces, pieces, spaces, definitions, spaces, ends)))
    return "".join(
        f"{lead}{word}{(between or ' ') + definition if definition else ''}{trail}{end}"
        for lead, word, between, definition, trail, end in lines
    )


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=list_texts(), list_format=st.sampled_from(list(ListFormat)[:3]), max_length=st.integers(2, 16))
@example(text="cat\x1fqi\ndog\n", list_format=ListFormat.PLAIN, max_length=15)  # a space, not a line end
@example(text="cat\x1cqi\ndog\n", list_format=ListFormat.PLAIN, max_length=15)  # a line end, not a space
@example(text="# note\vqi\rza\n", list_format=ListFormat.PLAIN, max_length=15)
@example(text="\x1f# note\r\nqi\u2028za", list_format=ListFormat.AUTO, max_length=15)
@example(text="qi vital force\x85za pizza\n", list_format=ListFormat.ZYZZYVA, max_length=15)
def test_a_list_read_at_once_gives_what_reading_it_line_by_line_gives(
    tmp_path: Path, text: str, list_format: ListFormat, max_length: int
) -> None:
    """Every word through the one normaliser either way: at once (``normalise_words``) for clean
    lists, one ``normalise_word`` per line otherwise; the results must not differ in anything.
    (An empty file is refused before either: a copy that failed, see test_organiser_mistakes.)"""
    assume(text != "")
    path = _file(tmp_path, text)
    got = read_word_list(path, list_format=list_format, max_length=max_length)
    by_line = WordList(path=path, sha256=got.sha256, format=got.format)
    reader._read_line_by_line(by_line, text, len(text.encode()), max_length, None)
    assert dataclasses.asdict(got) == dataclasses.asdict(by_line)


# words of the alphabets with tiles of more than one letter, as their lists write them, and
# everything those lists must refuse or read with care: brackets, separators, marks, digits
TILED = {
    "spanish": [
        "challa", "CHE", "perro", "a\u00f1o", "arrullo", "llll", "a[LL]ama", "C+HE", "\u00c1RBOL",
        "chch", "k", "x", "a[ch]", "ca[ñ]a", "rr", "n\u0303u",
    ],
    "catalan": [
        "col\u00b7lecci\u00f3", "COL.LEGI", "nyap", "quan", "call", "\u00e7a", "q", "y", "A[NY]A",
        "l\u00b7l", "\u013fl", "QUQU", "k", "NY+A",
    ],
}  # fmt: skip


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    data=st.data(),
    name=st.sampled_from(sorted(TILED)),
    ends=st.sampled_from([["\n"], ["\n", "\r\n"], ["\n", "\u2028"]]),
    max_length=st.integers(2, 16),
)
def test_a_list_in_tiles_read_at_once_gives_what_reading_it_line_by_line_gives(
    tmp_path: Path, data: st.DataObject, name: str, ends: list[str], max_length: int
) -> None:
    """The fast road of an alphabet with multi-letter tiles (``normalise_list``: the whole text
    folded and bracketed at once) against ``normalise_listed`` line by line."""
    alphabet = alphabets()[name]
    clean = [w for w in TILED[name] if alphabet.listed_at_once(w) is not None]
    pieces = data.draw(st.sampled_from([clean, TILED[name]]))
    lines = data.draw(st.lists(st.tuples(st.sampled_from(pieces), st.sampled_from(ends)), min_size=1))
    text = "".join(word + end for word, end in lines)
    path = _file(tmp_path, text)
    got = read_word_list(path, list_format=ListFormat.PLAIN, max_length=max_length, alphabet=alphabet)
    by_line = WordList(path=path, sha256=got.sha256, format=got.format)
    reader._read_line_by_line(by_line, text, len(text.encode()), max_length, None, alphabet)
    assert dataclasses.asdict(got) == dataclasses.asdict(by_line)


@pytest.mark.parametrize(
    "text",
    [
        "cat\ndogs\nqi\n",
        "\ufeff# my club list\r\ncat\r\n\r\n  Dogs  \r\n# QI is new\r\nqi",
        "AA\nAB\nAA\nantidisestablishmentarianism\n",
        "WAX to coat with wax [v -ED, -ING, -ES]\nQI vital force, caf\u00e9 [n -S]\n# done\n",
    ],
)
def test_a_clean_list_is_read_at_once_not_line_by_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str
) -> None:
    def line_by_line(*args: object) -> None:
        raise AssertionError("a clean list was read line by line")

    monkeypatch.setattr(reader, "_read_line_by_line", line_by_line)
    result = read_word_list(_file(tmp_path, text))
    assert result.words
    assert result.lines == len(text.removeprefix("\ufeff").splitlines())


def test_one_bad_line_in_a_big_clean_list_is_named_with_its_line(tmp_path: Path) -> None:
    words = [f"{a}{b}{c}" for a in "abcdefghij" for b in "klmnopqrst" for c in "uvwxyz"]
    words[444] = "d\u00f6g"
    path = _file(tmp_path, "\n".join(words) + "\n")
    result = read_word_list(path)
    assert [str(r) for r in result.rejected] == [
        f"{path}:445: '\u00f6' (U+00F6 LATIN SMALL LETTER O WITH DIAERESIS) at position 2 of "
        "'d\u00f6g' is not a letter A-Z"
    ]
    assert len(result.words) == len(words) - 1


def test_a_digit_list_holding_a_word_of_letters_that_would_read_as_one_tile_is_read(tmp_path: Path) -> None:
    """In Zyzzyva's notation RR is the R tile twice; read as a plain list writes it, it would be the
    RR tile alone (no word): the note about letters read apart names it, and nothing crashes."""
    result = read_word_list(_file(tmp_path, "1A2A\nRR\n"), alphabet=alphabets()["spanish"])
    assert result.words == ["[CH]A[LL]A", "RR"]
    assert any("R R" in note for note in result.notes)
