"""Zyzzyva ``.dwg`` word graphs: round trips through our own encoder, and damaged graphs refused."""

from __future__ import annotations

import random
import struct
from collections.abc import Iterable
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.core.errors import SourceError
from kiosk.core.packs.lexicon import load_lexicon
from lexicon_build.cli import main
from lexicon_build.dwg import (
    CHILD_MASK,
    END_OF_WORD_BIT,
    LAST_EDGE_BIT,
    LETTER_SHIFT,
    decode_dwg,
    spelt_backwards,
)
from lexicon_build.reader import ListFormat, read_word_list
from tests.conftest import DATA_DIR

TrieNode = dict[str, tuple[bool, "TrieNode"]]
Signature = tuple[tuple[str, bool, int], ...]


ROOT_SLOTS = 256  # Toal's layout, as Zyzzyva's graphs have it: the root node fills 256 edge slots


def encode_dwg(words: Iterable[str], *, zyzzyva: bool = True) -> bytes:
    """Write a minimised word graph the way Zyzzyva's files are laid out (for tests only).

    Equal sub-trees are shared, so the graph is a true DAG: one node is reached by many paths.
    As Graham Toal's dawg (and Zyzzyva's .dwg files, ODS5.dwg's edges 27 to 256 among them) lays
    it out, the root node's edges fill 256 slots: its own edges, then empty ones, the last of them
    marked the last edge of its node; every other node follows, each after the nodes it leads to.
    ``zyzzyva=False``: the root's own edges only, then the other nodes (the shape damage tests
    edit by hand).
    """
    root: TrieNode = {}
    for word in sorted(set(words)):
        node = root
        for position, letter in enumerate(word):
            end, child = node.get(letter, (False, {}))
            node[letter] = (end or position == len(word) - 1, child)
            node = child
    ids: dict[Signature, int] = {}
    order: list[Signature] = []

    def intern(node: TrieNode) -> int:
        if not node:
            return 0
        signature = tuple((letter, end, intern(child)) for letter, (end, child) in sorted(node.items()))
        if signature not in ids:
            ids[signature] = len(order) + 1
            order.append(signature)
        return ids[signature]

    root_id = intern(root)
    if not root_id:
        if not zyzzyva:
            return struct.pack("<i", 0)
        empty = [0] * (ROOT_SLOTS - 1) + [LAST_EDGE_BIT]
        return struct.pack(f"<i{ROOT_SLOTS}I", ROOT_SLOTS, *empty)
    # the root's edges come first; then every other node, children before the nodes leading to them
    root_signature = order[root_id - 1]
    layout = [root_signature] + [s for s in order if s != root_signature]
    starts: dict[int, int] = {}
    edge = 1
    for signature in layout:
        starts[ids[signature]] = edge
        edge += ROOT_SLOTS if zyzzyva and signature == root_signature else len(signature)
    values = []
    for signature in layout:
        for position, (letter, end, child_id) in enumerate(signature):
            values.append(
                (ord(letter) << LETTER_SHIFT)
                | (END_OF_WORD_BIT if end else 0)
                | (LAST_EDGE_BIT if position == len(signature) - 1 else 0)
                | (starts[child_id] if child_id else 0)
            )
        if zyzzyva and signature == root_signature:  # the root's empty slots
            values += [0] * (ROOT_SLOTS - len(signature) - 1) + [LAST_EDGE_BIT]
    return struct.pack(f"<i{len(values)}I", len(values), *values)


def edges_of(data: bytes) -> list[int]:
    (count,) = struct.unpack_from("<i", data)
    return list(struct.unpack_from(f"<{count}I", data, 4))


def with_edges(edges: list[int]) -> bytes:
    return struct.pack(f"<i{len(edges)}I", len(edges), *edges)


def enable_words(step: int, limit: int = 15) -> list[str]:
    words = (DATA_DIR / "enable1.txt").read_text(encoding="ascii").split()
    return [w.upper() for w in words[::step] if len(w) <= limit]


def test_an_enable_subset_round_trips_through_a_shared_graph(tmp_path: Path) -> None:
    words = enable_words(step=40)
    data = encode_dwg(words)
    assert len(edges_of(data)) < sum(len(w) for w in words)  # sharing happened: a real DAWG
    path = tmp_path / "ENABLE.dwg"
    path.write_bytes(data)
    result = read_word_list(path)
    assert result.format is ListFormat.DWG
    assert set(result.words) == set(words)
    assert not result.rejected
    assert result.duplicates == 0


@settings(max_examples=200, deadline=None)
@given(st.sets(st.text(alphabet="ABCDEZ", min_size=2, max_size=9)))
def test_any_word_set_round_trips(words: set[str]) -> None:
    decoded = decode_dwg(encode_dwg(words), "test.dwg", max_length=15)
    assert sorted(decoded.words) == sorted(words)
    assert decoded.too_long == 0


@settings(max_examples=100, deadline=None)
@given(st.sets(st.text(alphabet="ABQ", min_size=2, max_size=12)), st.integers(2, 12))
def test_words_longer_than_the_maximum_are_counted_not_spelt(words: set[str], max_length: int) -> None:
    decoded = decode_dwg(encode_dwg(words), "test.dwg", max_length=max_length)
    assert sorted(decoded.words) == sorted(w for w in words if len(w) <= max_length)
    assert decoded.too_long == sum(len(w) > max_length for w in words)


def test_lower_case_letters_in_a_graph_are_normalised(tmp_path: Path) -> None:
    path = tmp_path / "lower.dwg"
    path.write_bytes(encode_dwg(["qi", "za", "zas"]))
    assert read_word_list(path).words == ["QI", "ZA", "ZAS"]


def test_a_one_letter_word_is_reported_like_a_bad_line(tmp_path: Path) -> None:
    path = tmp_path / "short.dwg"
    path.write_bytes(encode_dwg(["A", "AB"]))
    result = read_word_list(path)
    assert result.words == ["AB"]
    assert len(result.rejected) == 1
    assert str(path) in str(result.rejected[0])
    assert "at least 2 letters" in str(result.rejected[0])


def test_an_empty_graph_has_no_words(tmp_path: Path) -> None:
    assert decode_dwg(struct.pack("<i", 0), "empty.dwg", max_length=15).words == []


def test_build_takes_a_dwg_source_like_a_text_list(tmp_path: Path) -> None:
    words = enable_words(step=200)
    source = tmp_path / "NWL2023.dwg"
    source.write_bytes(encode_dwg(words))
    text = tmp_path / "same.txt"
    text.write_text("\n".join(words) + "\n", encoding="ascii")
    out_dwg, out_txt = tmp_path / "from-dwg.kxpack", tmp_path / "from-txt.kxpack"
    runner = CliRunner()
    for source_file, out in ((source, out_dwg), (text, out_txt)):
        result = runner.invoke(
            main, ["build", "--name", "Graph", "--source", str(source_file), "-o", str(out)]
        )
        assert result.exit_code == 0, result.output
    from_dwg, from_txt = load_lexicon(out_dwg), load_lexicon(out_txt)
    assert from_dwg.info.set_hash == from_txt.info.set_hash
    assert from_dwg.info.sources[0].file == "NWL2023.dwg"
    assert all(w in from_dwg for w in words)


def test_a_recipe_can_name_a_dwg_source(tmp_path: Path) -> None:
    (tmp_path / "CSW.DWG").write_bytes(encode_dwg(["QI", "ZA", "XU"]))
    recipe = tmp_path / "recipe.toml"
    recipe.write_text('name = "Graph"\n[[sources]]\npath = "CSW.DWG"\nformat = "dwg"\n', encoding="utf-8")
    out = tmp_path / "out.kxpack"
    result = CliRunner().invoke(main, ["build", str(recipe), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert load_lexicon(out).info.word_count == 3


def test_diff_reads_a_dwg_against_a_pack(tmp_path: Path) -> None:
    old = tmp_path / "old.dwg"
    old.write_bytes(encode_dwg(["QI", "ZA"]))
    new = tmp_path / "new.dwg"
    new.write_bytes(encode_dwg(["QI", "ZAX"]))
    result = CliRunner().invoke(main, ["diff", str(old), str(new)])
    assert result.exit_code == 0, result.output
    assert "+ZAX" in result.output
    assert "-ZA" in result.output


def refusal(data: bytes, tmp_path: Path, name: str = "bad.dwg") -> str:
    path = tmp_path / name
    path.write_bytes(data)
    with pytest.raises(SourceError) as caught:
        read_word_list(path)
    message = str(caught.value)
    assert str(path) in message
    return message


@pytest.mark.parametrize("cut", [1, 3, 4, 7])
def test_a_truncated_graph_is_refused(tmp_path: Path, cut: int) -> None:
    data = encode_dwg(["CAT", "CATS", "DOG"])
    message = refusal(data[:-cut], tmp_path)
    assert "header says" in message
    assert "truncated" in message


def test_a_graph_with_bytes_appended_is_refused(tmp_path: Path) -> None:
    message = refusal(encode_dwg(["CAT", "DOG"]) + b"\0\0\0\0", tmp_path)
    assert "not the size its header says" in message


@pytest.mark.parametrize("data", [b"", b"\x01\x00", struct.pack("<i", -5)])
def test_a_file_that_is_no_graph_is_refused(tmp_path: Path, data: bytes) -> None:
    assert "Zyzzyva word graph" in refusal(data, tmp_path)


def test_a_text_list_named_dwg_is_read_as_the_list_it_is(tmp_path: Path) -> None:
    path = tmp_path / "club.dwg"
    path.write_bytes(b"CAT\nDOG\n")
    assert read_word_list(path).words == ["CAT", "DOG"]


def test_a_child_index_out_of_range_is_refused(tmp_path: Path) -> None:
    edges = edges_of(encode_dwg(["CAT", "DOG"], zyzzyva=False))
    edges[0] = (edges[0] & ~CHILD_MASK) | (len(edges) + 5)
    message = refusal(with_edges(edges), tmp_path)
    assert "edge 1 points to edge" in message
    assert "out of range" in message


def test_a_cycle_is_refused(tmp_path: Path) -> None:
    # root: A -> node at 2; node at 2: B (word AB), whose child is the root again
    edges = [
        (ord("A") << LETTER_SHIFT) | LAST_EDGE_BIT | 2,
        (ord("B") << LETTER_SHIFT) | END_OF_WORD_BIT | LAST_EDGE_BIT | 1,
    ]
    message = refusal(with_edges(edges), tmp_path)
    assert "cycle" in message


def test_a_self_loop_deep_in_the_graph_is_refused(tmp_path: Path) -> None:
    edges = edges_of(encode_dwg(["CAT", "CATS", "DOGS"], zyzzyva=False))
    # find an edge with a child, and point it at its own node
    index = next(i for i, e in enumerate(edges) if e & CHILD_MASK and i > 0)
    start = index
    while start > 0 and not edges[start - 1] & LAST_EDGE_BIT:
        start -= 1
    edges[index] = (edges[index] & ~CHILD_MASK) | (start + 1)
    assert "cycle" in refusal(with_edges(edges), tmp_path)


def test_a_node_without_a_last_edge_mark_is_refused(tmp_path: Path) -> None:
    edges = [e & ~LAST_EDGE_BIT for e in edges_of(encode_dwg(["QI"], zyzzyva=False))]
    assert "runs past the last edge" in refusal(with_edges(edges), tmp_path)


def test_a_non_letter_is_refused(tmp_path: Path) -> None:
    edges = edges_of(encode_dwg(["QI"]))
    edges[0] = (edges[0] & ((1 << LETTER_SHIFT) - 1)) | (ord("?") << LETTER_SHIFT)
    assert "0x3F where a letter A-Z belongs" in refusal(with_edges(edges), tmp_path)


def test_a_graph_spelling_absurdly_many_words_is_refused_before_spelling(tmp_path: Path) -> None:
    # 40 nodes of 26 edges, each edge a word and each leading to the next node: 26**40 words
    letters = [ord(c) for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ"]
    edges = []
    for level in range(40):
        child = 0 if level == 39 else (level + 1) * 26 + 1
        for position, letter in enumerate(letters):
            last = LAST_EDGE_BIT if position == 25 else 0
            edges.append((letter << LETTER_SHIFT) | END_OF_WORD_BIT | last | child)
    assert "more than" in refusal(with_edges(edges), tmp_path)


def test_the_cli_names_the_damaged_graph(tmp_path: Path) -> None:
    source = tmp_path / "NWL2023.dwg"
    source.write_bytes(encode_dwg(["CAT", "DOG"])[:-2])
    result = CliRunner().invoke(
        main, ["build", "--name", "X", "--source", str(source), "-o", str(tmp_path / "x.kxpack")]
    )
    assert result.exit_code == 2  # a source that cannot be read is a mistake to fix, not bad lines
    assert "NWL2023.dwg is damaged or not a Zyzzyva word graph" in result.output
    assert not (tmp_path / "x.kxpack").exists()


@settings(max_examples=300, deadline=None)
@given(st.data(), st.booleans())
def test_a_randomly_damaged_graph_is_refused_or_read_never_crashes(
    data: st.DataObject, zyzzyva: bool
) -> None:
    graph = bytearray(encode_dwg(["CAT", "CATS", "DOG", "DOGS", "QI", "ZA", "ZAS", "QAT"], zyzzyva=zyzzyva))
    for _ in range(data.draw(st.integers(1, 4))):
        position = data.draw(st.integers(0, len(graph) - 1))
        graph[position] = data.draw(st.integers(0, 255))
    outcome: str | list[str]
    try:
        outcome = decode_dwg(bytes(graph), "damaged.dwg", max_length=15).words
    except SourceError as exc:
        outcome = str(exc)
    if isinstance(outcome, str):
        assert "damaged.dwg" in outcome
    else:
        assert all(word.isascii() and word.isalpha() for word in outcome)


# --- Zyzzyva's reversed graphs (NAME-R.dwg): refused whatever their name (issue 24) -------------


def test_a_graph_of_words_spelt_backwards_is_refused_whatever_its_name(tmp_path: Path) -> None:
    """ODS5-R.dwg, renamed or not, built a pack of backwards words (MAISON not in the lexicon,
    NOSIAM acceptable). The words are told backwards by what they are, not by the file's name."""
    words = enable_words(step=1, limit=6)  # a whole lexicon of short words: 28,839
    backwards = tmp_path / "ODS5.dwg"  # Zyzzyva's ODS5-R.dwg, renamed
    backwards.write_bytes(encode_dwg(w[::-1] for w in words))
    message = refusal(backwards.read_bytes(), tmp_path, "ODS5.dwg")
    assert "spelt backwards" in message
    assert "without -R" in message
    out = tmp_path / "ods5.kxpack"
    result = CliRunner().invoke(main, ["build", "--name", "ODS5", "--source", str(backwards), "-o", str(out)])
    assert result.exit_code == 2
    assert "spelt backwards" in result.output
    assert not out.exists()
    forwards = tmp_path / "forwards.dwg"
    forwards.write_bytes(encode_dwg(words))
    assert set(read_word_list(forwards).words) == set(words)


def test_a_graph_named_as_the_reversed_one_is_refused_by_its_name_too(tmp_path: Path) -> None:
    """Too few words to tell by content (a club's 3): the name says it."""
    message = refusal(encode_dwg(["TAC", "SGOD", "IQ"]), tmp_path, "CLUB-R.dwg")
    assert "reversed word graph" in message


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 170_000), st.integers(1000, 6000), st.integers(0, 2**32), st.booleans())
def test_word_lists_are_never_taken_for_backwards(start: int, size: int, seed: int, run: bool) -> None:
    """Any alphabetical run of ENABLE's words (whose first letters vary least), any random handful
    of them (from 1000, the fewest the check judges): forwards is never taken for backwards. The
    whole list backwards always is; a run or a handful backwards may not be (Zyzzyva's reversed
    graphs are whole lexicons, and their name says it)."""
    words = ALL_ENABLE[start : start + size] if run else random.Random(seed).sample(ALL_ENABLE, size)
    assert spelt_backwards(words) is None


def test_a_whole_list_spelt_backwards_is_told_and_too_few_words_are_not_judged() -> None:
    assert spelt_backwards(ALL_ENABLE) is None
    assert spelt_backwards([w[::-1] for w in ALL_ENABLE]) is not None
    assert spelt_backwards([w[::-1] for w in ALL_ENABLE if len(w) <= 5]) is not None
    assert spelt_backwards([w[::-1] for w in ALL_ENABLE[::200]][:999]) is None  # too few to tell


ALL_ENABLE = enable_words(step=1)
