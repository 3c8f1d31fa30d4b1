"""Zyzzyva's ``.dwg`` word graphs: the licensed lexicons organisers already have on disk.

The format (Graham Toal's DAWG, as Zyzzyva writes it), little-endian::

    int32     N, the number of edges
    uint32    N edges, numbered from 1; the root node starts at edge 1

A node is a run of consecutive edges ending with the edge whose "last edge" bit is set. Edge bits:

    31-24  the letter (ASCII); in a FISE graph the digits 1-4 stand for the tiles CH, LL, RR and Ñ
    23     end of word: the path to here, this letter included, is a word
    22     last edge of its node
    21     unused
    20-0   index of the child node's first edge (0: no child)

The root node fills the first 256 edge slots (Graham Toal's layout, one slot per byte value): its
own edges, then empty slots (0; the last one, 256, only marked last edge of its node), which spell
nothing. ODS5.dwg's edges 27 to 256 are such slots.

A ``NAME-R.dwg`` beside a graph holds the reversed words (for hooks); judging does not need it, and
a graph whose words are spelt backwards is refused whatever its name (``spelt_backwards``).

Nothing in the file is trusted: the size must match N, every child index must be in range, every
letter must be a letter, and the graph must have no cycle (which would spell endless words). The
words under each node are counted first, so a graph that would spell absurdly many words is refused
before any is spelt.
"""

from __future__ import annotations

import math
import struct
import sys
from array import array
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from kiosk.core.errors import SourceError

__all__ = ["DwgWords", "decode_dwg"]

HEADER = struct.Struct("<i")
EDGE_BYTES = 4
LETTER_SHIFT = 24
END_OF_WORD_BIT = 1 << 23
LAST_EDGE_BIT = 1 << 22
CHILD_MASK = (1 << 21) - 1
ROOT_EDGE = 1
ROOT_SLOTS = 256  # kiosk.core.files.kind.GRAPH_ROOT_SLOTS
_EMPTY_SLOTS = frozenset({0, LAST_EDGE_BIT})
# Collins, the largest tournament lexicon, has about 280 000 words; a graph spelling more than
# this is damaged or not a lexicon, and spelling it would only exhaust memory.
MAX_DWG_WORDS = 5_000_000
_LETTERS = frozenset(range(ord("A"), ord("Z") + 1)) | frozenset(range(ord("a"), ord("z") + 1))
_AGAIN = "copy it again from the Zyzzyva installation (the words folder), or export a text list"
# A graph whose words are spelt backwards (Zyzzyva's NAME-R.dwg, kept beside each graph for hooks)
# is refused whatever its name, when two signs agree. A word list's words end in fewer ways than
# they begin (-S, -ED, -ING; -A, -O, -ES; -EN, -ER), so their last letters, and last two, vary less
# than their first: ENABLE's first letters carry 4.30 bits, its last 3.19 (first two 7.05, last
# two 5.77; its words of up to 6 letters 4.36 and 3.66, 7.33 and 6.88). And a word is far more
# often another word with a letter added at its end (CAT, CATS) than at its start (LAY, SLAY):
# 61,779 to 11,590 in ENABLE. Spelt backwards, both turn round. An alphabetical run of a list (one
# letter's words) has the first sign and not the second; a random handful, neither: neither is
# taken for backwards (tests/test_dwg.py), and fewer words than REVERSED_MIN_WORDS are not judged.
REVERSED_MIN_WORDS = 1000
REVERSED_MARGIN_BITS = 0.5
REVERSED_HOOKS_RATIO = 1.5

Edge = tuple[str, bool, int]  # letter, end of word, child node's first edge (0: none)


@dataclass(frozen=True)
class DwgWords:
    """The words a graph spells up to ``max_length`` letters (letters as stored), and how many more."""

    words: list[str]
    too_long: int
    edges: int


def _edges(data: bytes, where: str) -> array[int]:
    if len(data) < HEADER.size:
        raise SourceError(
            f"{where} is not a Zyzzyva word graph: it is {len(data)} bytes, too short to hold even its "
            f"edge count; {_AGAIN}"
        )
    (count,) = HEADER.unpack_from(data)
    expected = HEADER.size + EDGE_BYTES * count
    if count < 0 or len(data) != expected:
        state = "truncated" if count >= 0 and len(data) < expected else "not the size its header says"
        raise SourceError(
            f"{where} is damaged or not a Zyzzyva word graph: its header says {count} edges "
            f"({max(expected, 0)} bytes), but the file is {len(data)} bytes ({state}); {_AGAIN}"
        )
    edges = array("I")
    if edges.itemsize != EDGE_BYTES:  # pragma: no cover - every platform Python runs on today
        edges = array("L")
    edges.frombytes(data[HEADER.size :])
    if sys.byteorder != "little":  # pragma: no cover - big-endian machines
        edges.byteswap()
    return edges


def _node(edges: array[int], start: int, where: str, letters: frozenset[int] = _LETTERS) -> list[Edge]:
    """The edges of the node whose first edge is ``start`` (numbered from 1)."""
    node: list[Edge] = []
    index = start
    while True:
        if index > len(edges):
            raise SourceError(
                f"{where} is damaged: the node starting at edge {start} runs past the last edge "
                f"({len(edges)}) without a last-edge mark; {_AGAIN}"
            )
        value = edges[index - 1]
        letter = value >> LETTER_SHIFT
        if start == ROOT_EDGE and index <= ROOT_SLOTS and value in _EMPTY_SLOTS:
            if value & LAST_EDGE_BIT:  # an empty slot of the root's: spells nothing
                return node
            index += 1
            continue
        if letter not in letters:
            digits = "".join(sorted(chr(c) for c in letters - _LETTERS))
            belongs = f"a letter A-Z or a tile digit {digits}" if digits else "a letter A-Z"
            raise SourceError(
                f"{where} is damaged or not a Zyzzyva word graph: edge {index} holds byte "
                f"0x{letter:02X} where {belongs} belongs; {_AGAIN}"
            )
        child = value & CHILD_MASK
        if child > len(edges):
            raise SourceError(
                f"{where} is damaged: edge {index} points to edge {child}, but the graph has only "
                f"{len(edges)} edges (index out of range); {_AGAIN}"
            )
        node.append((chr(letter), bool(value & END_OF_WORD_BIT), child))
        if value & LAST_EDGE_BIT:
            return node
        index += 1


def _count_words(
    edges: array[int], where: str, letters: frozenset[int]
) -> tuple[dict[int, list[Edge]], dict[int, int]]:
    """Parse every node reachable from the root and count the words under each; refuse cycles."""
    nodes: dict[int, list[Edge]] = {}
    counts: dict[int, int] = {}
    on_path: set[int] = set()
    stack: list[tuple[int, int]] = [(ROOT_EDGE, 0)]  # node, how many of its edges are done
    nodes[ROOT_EDGE] = _node(edges, ROOT_EDGE, where, letters)
    on_path.add(ROOT_EDGE)
    while stack:
        start, done = stack[-1]
        node = nodes[start]
        if done < len(node):
            stack[-1] = (start, done + 1)
            child = node[done][2]
            if child == 0 or child in counts:
                continue
            if child in on_path:
                raise SourceError(
                    f"{where} is damaged: its graph has a cycle (edge {start + done} leads back to the "
                    f"node at edge {child}), so it would spell endless words; {_AGAIN}"
                )
            nodes[child] = _node(edges, child, where, letters)
            on_path.add(child)
            stack.append((child, 0))
            continue
        total = sum(end + (counts[child] if child else 0) for _, end, child in node)
        if total > MAX_DWG_WORDS:
            raise SourceError(
                f"{where} would spell more than {MAX_DWG_WORDS} words, far more than any lexicon; it "
                f"is damaged or not a word list; {_AGAIN}"
            )
        counts[start] = total
        on_path.discard(start)
        stack.pop()
    return nodes, counts


def _bits(symbols: Iterable[str]) -> float:
    """The entropy of a sequence of symbols, in bits: how much they vary."""
    counts = Counter(symbols)
    total = sum(counts.values())
    return -sum(n / total * math.log2(n / total) for n in counts.values())


def spelt_backwards(words: Sequence[str]) -> tuple[float, float] | None:
    """The bits of variety of the words' first and of their last letters, when the words are spelt
    backwards (the two signs above: the last letter varies more than the first by the margin, the
    last two more than the first two, and words grow at their start more often than at their end
    by the ratio); None when they are not, or are too few to tell."""
    if len(words) < REVERSED_MIN_WORDS:
        return None
    first, last = _bits(w[0] for w in words), _bits(w[-1] for w in words)
    first_two, last_two = _bits(w[:2] for w in words), _bits(w[-2:] for w in words)
    if last - first <= REVERSED_MARGIN_BITS or last_two <= first_two:
        return None
    known = set(words)
    added_at_end = sum(w[:-1] in known for w in words)
    added_at_start = sum(w[1:] in known for w in words)
    if added_at_start <= REVERSED_HOOKS_RATIO * added_at_end:
        return None
    return first, last


def decode_dwg(data: bytes, where: str, *, max_length: int, digits: frozenset[str] = frozenset()) -> DwgWords:
    """Spell every word of a ``.dwg`` graph; raise SourceError naming ``where`` if it is unusable.

    ``digits``: the digits that stand for tiles in this alphabet's graphs (spelt as they are;
    the reader turns them into tiles). Words longer than ``max_length`` symbols (tiles) are
    counted in ``too_long``, not spelt.
    """
    edges = _edges(data, where)
    if not edges:
        return DwgWords(words=[], too_long=0, edges=0)
    nodes, counts = _count_words(edges, where, _LETTERS | frozenset(map(ord, digits)))
    words: list[str] = []
    too_long = 0
    pending: list[tuple[str, bool, int]] = [
        (letter, end, child) for letter, end, child in reversed(nodes[ROOT_EDGE])
    ]
    while pending:
        word, end, child = pending.pop()
        if len(word) > max_length:
            too_long += end + (counts[child] if child else 0)
            continue
        if end:
            words.append(word)
        if child:
            pending.extend((word + letter, e, c) for letter, e, c in reversed(nodes[child]))
    backwards = spelt_backwards(words)
    if backwards is not None:
        raise SourceError(
            f"{where} holds its words spelt backwards, like the reversed graph Zyzzyva keeps beside "
            f"each graph for hooks (NAME-R.dwg): its words' last letters vary more than their first "
            f"({backwards[1]:.2f} bits against {backwards[0]:.2f}), the other way round from any word "
            "list; give the graph beside it, the same name without -R (e.g. ODS5.dwg for ODS5-R.dwg)"
        )
    return DwgWords(words=words, too_long=too_long, edges=len(edges))
