"""The verification walk: a pack's tries parsed, read whole and rebuilt in a process of their own.

The digest proves a pack is what *some* builder wrote; whoever can recompute it can write any trie,
and marisa crashes the process on some tries whose digest was recomputed after a one-byte edit (on
a lookup, long after loading). So before a station parses a trie in its own process, a child
process -- which the station can afford to lose -- does it, for every trie of the pack:

1. parses it and reads every word it holds (at most as many as the manifest gives);
2. checks each is a word the normaliser gives, sorts them by byte value and recomputes the set's
   digest (``kiosk.core.edition``) and its counts by length; with a youth list, the same for the
   exclusions and for the words a youth division accepts (the set minus the exclusions);
3. rebuilds the trie from those words with ``make_trie``, the builder's own call, and compares the
   bytes: a trie that is not byte for byte the one lexicon-build makes from the words it holds is
   refused, so the only tries a station ever parses are ones marisa itself wrote -- whatever an
   edit would have made a lookup do, cache entries included.

The builder proves the pack it writes without this walk (``prove_made``): it made the tries
itself, from words it holds, so reading each once and finding exactly those words is the proof.

The parent compares what the child found with the manifest (``check_walk``): any difference, a
crash, a time-out or a refusal refuses the pack with a message naming the file. The frozen bundle
has no Python to run ``-m``: its programs take ``WALK_ARGUMENT`` as their first argument instead
(``kiosk.entry.run`` and ``lexicon_build.entry.run``, under the console guard), and
``walker_command`` picks the right command line.

A walk costs under a second for a Collins-sized pack (``bench/bench_walk.py``), so its outcome is
remembered in a ``WalkCache`` keyed by the SHA-256 of the pack's content -- the digest the reader
has just checked -- and a station starts on a known pack as fast as before. An entry vouches only
for the bytes with that digest (the name and the entry's own ``content_sha256`` must both match,
and what it records must equal the manifest again); entries written by another ``WALK_VERSION``
are ignored; and the cache folder is used only if it is the user's own and no one else may write
in it. Where it lives is ``kiosk.paths.walk_cache_dir``: a folder of the station's data directory,
which lexicon-build (run with the same data directory) shares.
"""

from __future__ import annotations

import contextlib
import faulthandler
import hashlib
import itertools
import json
import os
import re
import select
import signal
import struct
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

import marisa_trie

from kiosk.core.edition import WordSetFacts
from kiosk.core.errors import PackCorruptError, PackError
from kiosk.core.packs.pack import (
    MAX_PACK_WORDS,
    MAX_SECTION_BYTES,
    WORDS_SECTION,
    YOUTH_SECTION,
    PackContents,
    PackInfo,
)
from kiosk.core.words.alphabet import ENGLISH, Alphabet, alphabet_named
from kiosk.core.words.normalise import MIN_WORD_LETTERS

__all__ = [
    "WALK_ARGUMENT",
    "WALK_VERSION",
    "PackWalker",
    "Walk",
    "WalkCache",
    "WalkedTries",
    "WordSet",
    "check_walk",
    "child_main",
    "forking_is_safe",
    "make_trie",
    "prove_made",
    "trie_of_keys",
    "walk_tries",
    "walker_command",
    "word_set_facts",
]

WALK_VERSION = 1  # bump when the walk checks more: entries of an older walk are walked again
WALK_ARGUMENT = "--internal-walk-pack-tries"  # the frozen programs' entry into the walk
WALK_TIMEOUT_S = 120.0  # a Collins-sized pack walks in ~0.5 s; a slow station in a few seconds
WALK_MEMORY_HEADROOM_BYTES = 1 << 30  # the child's address space beyond what it starts with
_FRAME = struct.Struct("<8sQQQ16s")  # magic, most words, trie sizes, the alphabet's name
_FRAME_MAGIC = b"KXWALK2\n"
_NO_YOUTH = (1 << 64) - 1
MAX_ENTRY_BYTES = 4096
MAX_CHILD_OUTPUT_BYTES = 1 << 16


def make_trie(words: Sequence[str]) -> bytes:
    """The trie of a pack, as the builder makes it and the walk rebuilds it: one call, one result.

    marisa's ``Trie(words)`` encodes the words to UTF-8 one at a time, in a generator, and builds
    a ``BinaryTrie`` of those keys: given the keys already encoded (``WordSet.keys``: in one pass
    over the whole text), ``BinaryTrie`` makes the same bytes in two thirds of the time
    (``tests/test_walk.py`` holds the two equal).
    """
    return trie_of_keys(WordSet.utf8_keys(words))


def trie_of_keys(keys: Sequence[bytes]) -> bytes:
    """``make_trie`` of the words whose UTF-8 these keys are."""
    return bytes(marisa_trie.BinaryTrie(keys).tobytes())


@dataclass(frozen=True)
class WordSet:
    """Words sorted by byte value, each once, as the builder writes them and the walk proves them:
    the words, their UTF-8 joined by line feeds (``data``: what the set's digest is computed over),
    each word's UTF-8 (``keys``: what marisa stores) and the set's facts."""

    words: Sequence[str]
    data: bytes
    keys: list[bytes]
    facts: WordSetFacts
    spelt: bool  # every word is a spelling the walk accepts (``_spelt_in``)

    @classmethod
    def of(cls, words: Sequence[str], alphabet: Alphabet) -> WordSet:
        text = "\n".join(words)
        data = text.encode("utf-8")
        lengths, spelt = _lengths(words, text, alphabet)
        return cls(words, data, cls.utf8_keys(words, data), _facts(data, len(words), lengths), spelt)

    @staticmethod
    def utf8_keys(words: Sequence[str], data: bytes | None = None) -> list[bytes]:
        """Each word in UTF-8, the same keys as ``[w.encode() for w in words]``; ``data``: the
        words' UTF-8 joined by line feeds, if the caller has it."""
        keys = ("\n".join(words).encode("utf-8") if data is None else data).split(b"\n")
        if len(keys) == len(words):  # no word with a line feed in it
            return keys
        return [word.encode("utf-8") for word in words]


def _facts(data: bytes, count: int, lengths: Mapping[int, int]) -> WordSetFacts:
    """The facts of ``count`` words whose UTF-8, sorted and joined by line feeds, is ``data``: the
    digest is ``sorted_words_hash``'s (``LC_ALL=C sort -u | sha256sum``)."""
    digest = hashlib.sha256(data)
    if count:
        digest.update(b"\n")
    return WordSetFacts.of("sha256:" + digest.hexdigest(), count, lengths)


def word_set_facts(words: Sequence[str], alphabet: Alphabet) -> WordSetFacts:
    """A word set's digest, size and counts by length (in tiles), as the walk proves them and the
    builder writes them, for ``words`` sorted by byte value, each once."""
    return WordSet.of(words, alphabet).facts


@dataclass(frozen=True)
class WalkedTries:
    """What the walk found in a pack's tries: the word set, and with a youth list the exclusions
    (digest and number) and the set a youth division accepts."""

    words: WordSetFacts
    youth_hash: str | None = None
    youth_count: int = 0
    school: WordSetFacts | None = None

    def to_json(self) -> dict[str, object]:
        def facts(value: WordSetFacts | None) -> object:
            if value is None:
                return None
            return {
                "set_hash": value.set_hash,
                "word_count": value.word_count,
                "counts_by_length": {str(k): v for k, v in value.counts_by_length},
            }

        return {
            "words": facts(self.words),
            "youth_hash": self.youth_hash,
            "youth_count": self.youth_count,
            "school": facts(self.school),
        }

    @classmethod
    def from_json(cls, data: object) -> WalkedTries:
        """Read what a child or a cache entry says; ValueError (or KeyError, TypeError) if malformed."""

        def facts(value: object) -> WordSetFacts:
            if not isinstance(value, dict):
                raise ValueError("not an object")
            counts = value["counts_by_length"]
            if not isinstance(counts, dict):
                raise ValueError("counts_by_length is not an object")
            return WordSetFacts.of(
                _string(value["set_hash"]),
                _count(value["word_count"]),
                {int(k): _count(v) for k, v in counts.items()},
            )

        if not isinstance(data, dict):
            raise ValueError("not an object")
        youth_hash = data["youth_hash"]
        return cls(
            words=facts(data["words"]),
            youth_hash=None if youth_hash is None else _string(youth_hash),
            youth_count=_count(data["youth_count"]),
            school=None if data["school"] is None else facts(data["school"]),
        )

    @classmethod
    def claimed(cls, info: PackInfo) -> WalkedTries:
        """What a walk must find for the manifest to be true."""
        return cls(
            words=info.word_set,
            youth_hash=info.youth_set_hash,
            youth_count=info.youth_exclusion_count,
            school=info.school_word_set,
        )


TriesWalk = Callable[[bytes, "bytes | None", int, Alphabet], WalkedTries]  # walk_tries's shape


def _string(value: object) -> str:
    if not isinstance(value, str):
        raise ValueError(f"{value!r} is not text")
    return value


def _count(value: object) -> int:
    if type(value) is not int or not 0 <= value <= MAX_PACK_WORDS:
        raise ValueError(f"{value!r} is not a count of words")
    return value


class WalkRefusedError(Exception):
    """Raised inside the walk: what is wrong with a trie, in words for the organiser."""


_CAPITALS_AND_LINE_FEEDS = re.compile("[A-Z\n]*")


def _lengths(words: Sequence[str], text: str, alphabet: Alphabet) -> tuple[Counter[int], bool]:
    """How many words there are of each length (in tiles), and whether every word is a spelling the
    builder stores: for English, a word the normaliser gives (the letters A-Z in capitals, two or
    more); otherwise the alphabet's tiles, written as packs store them, at least two of them.
    ``text``: the words joined by line feeds."""
    if not words:
        return Counter(), True
    if alphabet is ENGLISH:
        lengths = Counter(map(len, words))
        short = any(length < MIN_WORD_LETTERS for length in lengths)
        return lengths, not short and _CAPITALS_AND_LINE_FEEDS.fullmatch(text) is not None
    counts = alphabet.stored_tile_counts(text)
    return (Counter(alphabet.tile_counts(words)), False) if counts is None else (Counter(counts), True)


def _keys_of(trie_bytes: bytes, most: int, what: str) -> list[bytes]:
    """Every key a trie holds, in the trie's order; WalkRefusedError if it cannot be read whole."""
    try:
        trie = marisa_trie.BinaryTrie().frombytes(trie_bytes)
    except Exception as exc:  # marisa raises RuntimeError (MARISA_FORMAT_ERROR and kin) on bad bytes
        raise WalkRefusedError(f"its {what} trie cannot be read ({exc})") from exc
    try:
        # at most one more than the manifest allows: a forged trie may never stop giving words
        keys = list(itertools.islice(trie.iterkeys(), most + 1))
    except RuntimeError as exc:  # marisa's own errors on a trie it cannot follow
        raise WalkRefusedError(f"its {what} trie cannot be read whole ({exc})") from exc
    if len(keys) > most:
        raise WalkRefusedError(f"its {what} trie holds more than the {most:,} words its manifest gives")
    if len(trie) != len(keys):
        raise WalkRefusedError(f"its {what} trie says it holds {len(trie):,} words but gives {len(keys):,}")
    return keys


def _proven_words(trie_bytes: bytes, most: int, what: str, alphabet: Alphabet) -> WordSet:
    """Every word a trie holds, sorted by byte value, with the set's facts; WalkRefusedError if it
    is not a sane trie of words, or not the trie ``make_trie`` makes from them (a trie that gives a
    word twice included: rebuilt, its words make a trie of fewer words)."""
    keys = _keys_of(trie_bytes, most, what)
    keys.sort()
    data = b"\n".join(keys)
    not_a_word = (
        f"its {what} trie holds something that is not a word of the {alphabet.english_name} alphabet"
        if alphabet is not ENGLISH
        else f"its {what} trie holds something that is not a word in capital letters"
    )
    if data.count(b"\n") != max(0, len(keys) - 1):  # a key with a line feed in it
        raise WalkRefusedError(not_a_word)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise WalkRefusedError(f"its {what} trie holds bytes that are not text ({exc.reason})") from exc
    words = text.split("\n") if keys else []
    lengths, spelt = _lengths(words, text, alphabet)
    if not spelt:
        raise WalkRefusedError(not_a_word)
    if trie_of_keys(keys) != trie_bytes:
        raise WalkRefusedError(
            f"its {what} trie is not the one lexicon-build makes from the {len(words):,} words it holds "
            "(a forged or damaged trie, or one written by a different trie library)"
        )
    return WordSet(words, data, keys, _facts(data, len(words), lengths), spelt)


def walk_tries(words: bytes, youth: bytes | None, most: int, alphabet: Alphabet = ENGLISH) -> WalkedTries:
    """The walk itself, in *this* process: call it only in the child (or on tries made here).

    ``most`` bounds the words read from each trie (the manifest's word count); ``alphabet`` is the
    one the manifest names. Raises WalkRefusedError.
    """
    found = _proven_words(words, most, "word", alphabet)
    if youth is None:
        return WalkedTries(words=found.facts)
    excluded = _proven_words(youth, most, "youth exclusion", alphabet)
    excluded_set = set(excluded.words)
    if not excluded_set.issubset(found.words):
        raise WalkRefusedError("its youth exclusion trie holds words its word trie does not")
    school = [word for word in found.words if word not in excluded_set]
    return WalkedTries(
        words=found.facts,
        youth_hash=excluded.facts.set_hash,
        youth_count=len(excluded.words),
        school=word_set_facts(school, alphabet),
    )


# --- the child process --------------------------------------------------------------------------


def _frame(contents: PackContents) -> bytes:
    words = contents.sections[WORDS_SECTION]
    youth = contents.sections.get(YOUTH_SECTION)
    header = _FRAME.pack(
        _FRAME_MAGIC,
        contents.info.word_count,
        len(words),
        _NO_YOUTH if youth is None else len(youth),
        contents.info.alphabet.name.encode("ascii"),
    )
    return header + words + (youth or b"")


def _read_exactly(stream: BinaryIO, size: int) -> bytes:
    data = stream.read(size)
    if len(data) != size:
        raise WalkRefusedError(f"the walk was given {len(data)} of {size} bytes")
    return data


def _limit_memory() -> None:
    """Bound the child's address space: a forged trie that makes marisa allocate without end fails
    the allocation here instead of driving the station's machine into swap."""
    try:
        import resource
    except ImportError:  # not on Windows: the time-out still bounds the walk
        return
    with contextlib.suppress(OSError, ValueError):
        pages = int(Path("/proc/self/statm").read_text().split()[0])
        limit = pages * os.sysconf("SC_PAGE_SIZE") + WALK_MEMORY_HEADROOM_BYTES
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def child_main(stdin: BinaryIO | None = None, stdout: BinaryIO | None = None) -> int:
    """The child: read one frame of tries from standard input, print what the walk found as JSON."""
    source = stdin if stdin is not None else sys.stdin.buffer
    out = stdout if stdout is not None else sys.stdout.buffer
    _limit_memory()
    try:
        magic, most, words_size, youth_size, name = _FRAME.unpack(_read_exactly(source, _FRAME.size))
        alphabet = alphabet_named(name.rstrip(b"\0").decode("ascii", "replace"))
        if (
            magic != _FRAME_MAGIC
            or most > MAX_PACK_WORDS
            or words_size > MAX_SECTION_BYTES
            or alphabet is None
        ):
            raise WalkRefusedError("the walk was given a frame it does not read")
        words = _read_exactly(source, words_size)
        youth = None
        if youth_size != _NO_YOUTH:
            if youth_size > MAX_SECTION_BYTES:
                raise WalkRefusedError("the walk was given a frame it does not read")
            youth = _read_exactly(source, youth_size)
        report: dict[str, object] = {"walked": walk_tries(words, youth, most, alphabet).to_json()}
    except WalkRefusedError as exc:
        report = {"refused": str(exc)}
    out.write(json.dumps(report).encode("utf-8"))
    out.flush()
    return 0


def walker_command() -> tuple[str, ...]:
    """How to start the child: this very program when frozen (its entry reads ``WALK_ARGUMENT``),
    else this Python running this module."""
    if getattr(sys, "frozen", False):
        return (sys.executable, WALK_ARGUMENT)
    return (sys.executable, "-m", "kiosk.core.packs.verification")


def _child_environment() -> dict[str, str]:
    """The parent's environment, with the folder this ``kiosk`` package came from first on the
    path, so that the child walks with the same code however the parent was started."""
    environment = dict(os.environ)
    if not getattr(sys, "frozen", False):
        import kiosk

        root = str(Path(kiosk.__file__).resolve().parent.parent)
        rest = environment.get("PYTHONPATH")
        environment["PYTHONPATH"] = root if not rest else root + os.pathsep + rest
    return environment


def _signal_name(code: int) -> str:
    try:
        return signal.Signals(code).name
    except ValueError:
        return f"signal {code}"


def check_walk(contents: PackContents, walked: WalkedTries) -> None:
    """Raise PackCorruptError, naming the file, unless the walk found what the manifest says."""
    claimed = WalkedTries.claimed(contents.info)
    if walked == claimed:
        return
    where = str(contents.path) if contents.path is not None else "the pack"
    what = "its words"
    found, said = walked.words, claimed.words
    if walked.words == claimed.words:
        what = "its youth exclusions"
        found_y = f"{walked.youth_count:,} words, {walked.youth_hash}"
        said_y = f"{claimed.youth_count:,} words, {claimed.youth_hash}"
        detail = f"the youth exclusion trie holds {found_y}, the manifest says {said_y}"
    else:
        detail = (
            f"its word trie holds {found.word_count:,} words, word set {found.set_hash[:23]}…, where "
            f"the manifest says {said.word_count:,} words, {said.set_hash[:23]}…"
        )
    raise PackCorruptError(
        f"{where} holds other words than its manifest says ({what}: {detail}): it was altered after "
        "it was built, or written by a faulty builder. Do not judge with it: copy the organiser's "
        "original again, or rebuild it with lexicon-build"
    )


class WalkCache:
    """What walks found, one small file per pack content digest, in a folder only this user writes.

    ``make_parents``: whether remembering a walk may make the folders above ``folder`` (a station
    makes its data directory; ``kiosk station --check`` leaves a missing one missing).
    """

    def __init__(self, folder: Path, *, make_parents: bool = True) -> None:
        self.folder = folder
        self.make_parents = make_parents

    def _usable(self, create: bool) -> bool:
        try:
            if create:
                self.folder.mkdir(mode=0o700, parents=self.make_parents, exist_ok=True)
            status = self.folder.stat()
        except OSError:
            return False
        if not self.folder.is_dir():
            return False
        # Another user able to write here could leave an entry that vouches for their own pack.
        return not (hasattr(os, "getuid") and (status.st_uid != os.getuid() or status.st_mode & 0o022))

    def _entry(self, content_sha256: str) -> Path:
        return self.folder / f"{content_sha256}.json"

    def get(self, content_sha256: str) -> WalkedTries | None:
        """The walk remembered for exactly this content, or None (nothing, or not to be believed)."""
        if not self._usable(create=False):
            return None
        try:
            with self._entry(content_sha256).open("rb") as stream:
                data = stream.read(MAX_ENTRY_BYTES + 1)
            if len(data) > MAX_ENTRY_BYTES:
                return None
            entry = json.loads(data)
            if (
                not isinstance(entry, dict)
                or entry.get("walk_version") != WALK_VERSION
                or entry.get("content_sha256") != content_sha256
            ):
                return None
            return WalkedTries.from_json(entry["walked"])
        except (OSError, ValueError, KeyError, TypeError, RecursionError):
            return None

    def put(self, content_sha256: str, walked: WalkedTries) -> str | None:
        """Remember a walk; return why it could not be remembered (the station runs on), or None."""
        if not self._usable(create=True):
            return (
                f"{self.folder} cannot be used to remember verified packs (it cannot be made, or is "
                "another user's, or others may write in it)"
            )
        entry = {"walk_version": WALK_VERSION, "content_sha256": content_sha256, "walked": walked.to_json()}
        try:
            handle, temp = tempfile.mkstemp(dir=self.folder, prefix=".", suffix=".tmp")
            with os.fdopen(handle, "w", encoding="utf-8") as stream:
                json.dump(entry, stream)
            Path(temp).replace(self._entry(content_sha256))
        except OSError as exc:
            with contextlib.suppress(OSError, UnboundLocalError):
                Path(temp).unlink()
            return f"{self.folder} cannot be written ({exc.strerror or exc})"
        return None


def forking_is_safe() -> bool:
    """Whether this process may walk in a forked copy of itself: on Linux, with no thread but this
    one (Qt's and a log forwarder's threads hold locks a forked copy would never see released)."""
    if not sys.platform.startswith("linux") or not hasattr(os, "fork"):
        return False
    try:
        return sum(1 for _ in Path("/proc/self/task").iterdir()) == 1
    except OSError:
        return False


class _Child:
    """A walk running in a forked copy of this process: it already holds the tries and the walk's
    code, so it starts in a few milliseconds where a new Python takes ~0.1 s to import them."""

    def __init__(self, contents: PackContents, walk: TriesWalk) -> None:
        read_end, write_end = os.pipe()
        self.pid = os.fork()
        if self.pid == 0:  # the copy: it never returns from here, whatever happens
            code = 70  # EX_SOFTWARE: the parent reports the walk as failed
            try:
                os.close(read_end)
                # the parent's standard error is a terminal or a journal: a crash here is the
                # parent's to report, as it reports a program's, without Python's dump of it
                os.dup2(os.open(os.devnull, os.O_WRONLY), 2)
                faulthandler.disable()  # it may write to a copy of standard error of its own
                _limit_memory()
                try:
                    report = _report(contents, walk)
                except BaseException as exc:  # said to the parent, which refuses the pack
                    report = {"failed": f"{type(exc).__name__}: {exc}"}
                with os.fdopen(write_end, "wb") as out:
                    out.write(json.dumps(report).encode("utf-8"))
                code = 0
            finally:
                os._exit(code)
        os.close(write_end)
        self.read_end = read_end
        self.output = bytearray()
        self.status: int | None = None

    def done(self) -> bool:
        """Whether the walk has ended (said what it found, or died), without waiting."""
        return self.status is not None or self._read(0.0)

    def finish(self, timeout_s: float) -> tuple[int, bytes]:
        """Wait for the end of the walk: its exit code (minus the signal that killed it), its output.

        Raise TimeoutError, the copy killed, if it has not ended within ``timeout_s``.
        """
        deadline = time.monotonic() + timeout_s
        while self.status is None and not self._read(max(0.0, deadline - time.monotonic())):
            if time.monotonic() >= deadline:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(self.pid, signal.SIGKILL)
                self._reap()
                raise TimeoutError
        return os.waitstatus_to_exitcode(self._reap()), bytes(self.output)

    def _read(self, wait_s: float) -> bool:
        """Read what the copy wrote within ``wait_s``; True once it has closed its end (exited)."""
        while select.select([self.read_end], [], [], wait_s)[0]:
            chunk = os.read(self.read_end, 1 << 16)
            if not chunk:
                return True
            if len(self.output) <= MAX_CHILD_OUTPUT_BYTES:
                self.output += chunk
            wait_s = 0.0
        return False

    def _reap(self) -> int:
        if self.status is None:
            os.close(self.read_end)
            self.status = os.waitpid(self.pid, 0)[1]
        return self.status


def _report(contents: PackContents, walk: TriesWalk) -> dict[str, object]:
    """What the child says: what the walk found, or why it refused the tries."""
    try:
        walked = walk(
            contents.sections[WORDS_SECTION],
            contents.sections.get(YOUTH_SECTION),
            contents.info.word_count,
            contents.info.alphabet,
        )
    except WalkRefusedError as exc:
        return {"refused": str(exc)}
    return {"walked": walked.to_json()}


@dataclass(frozen=True)
class PackWalker:
    """Walks packs in a child process before anything trusts them, remembering outcomes in ``cache``.

    ``always_walk``: walk even when the cache knows the pack (``lexicon-build verify``); the
    outcome is still remembered. ``command``: a program to walk in (``walker_command()``'s line is
    used where this process cannot fork safely); without one, the child is a forked copy of this
    process where it can be (``forking_is_safe``; ``fork`` True: whatever threads run, for the
    tests of the forked road in a test run whose Qt left threads behind), running ``walk``
    (``walk_tries``).
    """

    cache: WalkCache | None = None
    always_walk: bool = False
    command: tuple[str, ...] | None = None
    timeout_s: float = WALK_TIMEOUT_S
    warn: bool = True  # say on standard error when a walk cannot be remembered
    walk: TriesWalk = field(default=walk_tries, compare=False)
    fork: bool | None = None

    def verify(self, contents: PackContents) -> WalkedTries:
        """Walk a pack's tries (or find the walk remembered); raise PackError unless it is sound."""
        return self.start(contents).result()

    def start(self, contents: PackContents) -> Walk:
        """Start walking a pack's tries; the walk runs while the caller does other work (in a forked
        child), or has already ended (the walk remembered, or walked by a program of its own)."""
        if self.cache is not None and not self.always_walk:
            remembered = self.cache.get(contents.content_sha256)
            if remembered is not None and remembered == WalkedTries.claimed(contents.info):
                return Walk(self, contents, remembered=remembered)
        if self.command is None and (forking_is_safe() if self.fork is None else self.fork):
            return Walk(self, contents, child=_Child(contents, self.walk))
        return Walk(self, contents, ended=self._run_program(contents))

    def _run_program(self, contents: PackContents) -> tuple[int, bytes, bytes]:
        """The walk in a program of its own: its exit code, its output and its error output."""
        command = self.command if self.command is not None else walker_command()
        try:
            done = subprocess.run(
                command,
                input=_frame(contents),
                capture_output=True,
                timeout=self.timeout_s,
                env=_child_environment(),
                check=False,
            )
        except subprocess.TimeoutExpired as exc:
            raise _took_too_long(contents, self.timeout_s) from exc
        except OSError as exc:
            raise PackError(
                f"cannot check {_where(contents)}: the program that walks its tries could not be "
                f"started ({' '.join(command)}: {exc.strerror or exc}); reinstall the station software"
            ) from exc
        return done.returncode, done.stdout, done.stderr


_FIX = "do not judge with it: copy the organiser's original again, or rebuild it with lexicon-build"


def _where(contents: PackContents) -> str:
    return str(contents.path) if contents.path is not None else "the pack"


def _took_too_long(contents: PackContents, timeout_s: float) -> PackCorruptError:
    return PackCorruptError(
        f"{_where(contents)} is damaged or forged: reading its tries took more than {timeout_s:.0f} s; {_FIX}"
    )


class Walk:
    """One pack's walk, started: ``result()`` waits for it, checks it, remembers it and returns it."""

    def __init__(
        self,
        walker: PackWalker,
        contents: PackContents,
        *,
        remembered: WalkedTries | None = None,
        child: _Child | None = None,
        ended: tuple[int, bytes, bytes] | None = None,
    ) -> None:
        self.walker = walker
        self.contents = contents
        self._remembered = remembered
        self._child = child
        self._ended = ended
        self._outcome: WalkedTries | PackError | None = None

    def done(self) -> bool:
        """Whether ``result()`` would return (or raise) without waiting."""
        return self._child is None or self._outcome is not None or self._child.done()

    def result(self) -> WalkedTries:
        """What the walk found, once it is known to be what the manifest says; PackError if not."""
        if self._outcome is None:
            try:
                self._outcome = self._found()
            except PackError as exc:
                self._outcome = exc
        if isinstance(self._outcome, PackError):
            raise self._outcome
        return self._outcome

    def _found(self) -> WalkedTries:
        if self._remembered is not None:
            return self._remembered
        if self._child is not None:
            try:
                code, output = self._child.finish(self.walker.timeout_s)
            except TimeoutError as exc:
                raise _took_too_long(self.contents, self.walker.timeout_s) from exc
            walked = _read_report(self.contents, code, output, b"")
        else:
            assert self._ended is not None
            walked = _read_report(self.contents, *self._ended)
        check_walk(self.contents, walked)
        cache = self.walker.cache
        if cache is not None:
            problem = cache.put(self.contents.content_sha256, walked)
            if problem is not None and self.walker.warn:
                print(f"warning: {problem}; the packs are walked again at every start", file=sys.stderr)
        return walked


def _read_report(contents: PackContents, code: int, output: bytes, errors: bytes) -> WalkedTries:
    """What a child that ended with ``code`` found, from what it wrote; PackCorruptError if it died,
    refused the tries or said nothing that can be read."""
    where = _where(contents)
    if code < 0:
        raise PackCorruptError(
            f"{where} is damaged or forged: its tries crashed the check that walks them before a "
            f"station uses them ({_signal_name(-code)}); {_FIX}"
        )
    try:
        if code != 0 or len(output) > MAX_CHILD_OUTPUT_BYTES:
            raise ValueError(f"exit code {code}")
        report = json.loads(output)
        if "refused" in report:
            raise PackCorruptError(f"{where} is damaged or forged: {report['refused']}; {_FIX}")
        if "failed" in report:  # a forked child's own error
            errors = str(report["failed"]).encode("utf-8")
            raise ValueError("the walk raised an error")
        return WalkedTries.from_json(report["walked"])
    except (ValueError, KeyError, TypeError) as exc:
        last = errors.decode("utf-8", "replace").strip().splitlines()[-1:] or ["no message"]
        raise PackCorruptError(
            f"{where} cannot be used: the check that walks its tries failed ({exc}: {last[0][:300]}); {_FIX}"
        ) from exc


def prove_made(
    contents: PackContents,
    sections: Mapping[str, bytes],
    made: Mapping[str, WordSet],
    walked: WalkedTries,
) -> None:
    """The builder's proof of the pack it has just encoded, in this process: ``contents`` is that
    pack read back; ``sections`` the tries it made (``trie_of_keys``) of each ``made`` set of words;
    ``walked`` the facts of those sets.

    What the child's walk proves by reading each trie whole and rebuilding it, the builder knows
    of tries it made itself, so there is no rebuild: the pack holds exactly those tries, each of
    them, parsed once and read whole, holds exactly the words it was made from (each a spelling the
    walk accepts), and the manifest says what ``walked`` says. Raise PackCorruptError.
    """
    where = str(contents.path) if contents.path is not None else "the pack"
    if dict(contents.sections) != dict(sections):
        raise PackCorruptError(f"{where}: its tries did not read back as they were written")
    for name, words in made.items():
        what = "word" if name == WORDS_SECTION else "youth exclusion"
        try:
            found = _keys_of(contents.sections[name], len(words.keys), what)
        except WalkRefusedError as exc:
            raise PackCorruptError(f"{where}: {exc}") from exc
        found.sort()
        if found != words.keys:
            raise PackCorruptError(f"{where}: its {what} trie does not hold the words it was made from")
        if not words.spelt:
            raise PackCorruptError(f"{where}: its {what} trie holds something that is not a word it stores")
    check_walk(contents, walked)


if __name__ == "__main__":
    sys.exit(child_main())
