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
import itertools
import json
import os
import signal
import struct
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
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
    sorted_words_hash,
)
from kiosk.core.words.alphabet import ENGLISH, Alphabet, alphabet_named
from kiosk.core.words.normalise import normalise_words

__all__ = [
    "WALK_ARGUMENT",
    "WALK_VERSION",
    "PackWalker",
    "WalkCache",
    "WalkedTries",
    "check_walk",
    "child_main",
    "make_trie",
    "walk_here",
    "walk_tries",
    "walker_command",
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


def make_trie(words: Iterable[str]) -> bytes:
    """The trie of a pack, as the builder makes it and the walk rebuilds it: one call, one result."""
    return bytes(marisa_trie.Trie(words).tobytes())


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


def _spelt_in(words: list[str], alphabet: Alphabet) -> bool:
    """Whether every word is a spelling the builder stores: for English, a word the normaliser
    gives; otherwise the alphabet's tiles, written as packs store them, at least two of them."""
    if alphabet is ENGLISH:
        return normalise_words(words, max_length=1 << 16) == words
    return all(map(alphabet.is_stored, words))


def _words_of(trie_bytes: bytes, most: int, what: str, alphabet: Alphabet) -> list[str]:
    """Every word a trie holds, sorted by byte value; WalkRefusedError if it is not a sane trie of words."""
    try:
        trie = marisa_trie.Trie().frombytes(trie_bytes)
    except Exception as exc:  # marisa raises RuntimeError (MARISA_FORMAT_ERROR and kin) on bad bytes
        raise WalkRefusedError(f"its {what} trie cannot be read ({exc})") from exc
    words: list[str] = []
    try:
        for word in trie.iterkeys():
            words.append(word)
            if len(words) > most:
                raise WalkRefusedError(
                    f"its {what} trie holds more than the {most:,} words its manifest gives"
                )
    except UnicodeDecodeError as exc:
        raise WalkRefusedError(f"its {what} trie holds bytes that are not text ({exc.reason})") from exc
    except RuntimeError as exc:  # marisa's own errors on a trie it cannot follow
        raise WalkRefusedError(f"its {what} trie cannot be read whole ({exc})") from exc
    if len(trie) != len(words):
        raise WalkRefusedError(f"its {what} trie says it holds {len(trie):,} words but gives {len(words):,}")
    if not _spelt_in(words, alphabet):
        raise WalkRefusedError(
            f"its {what} trie holds something that is not a word of the {alphabet.name} alphabet"
            if alphabet is not ENGLISH
            else f"its {what} trie holds something that is not a word in capital letters"
        )
    words.sort()
    if any(a == b for a, b in itertools.pairwise(words)):
        raise WalkRefusedError(f"its {what} trie holds a word twice")
    if make_trie(words) != trie_bytes:
        raise WalkRefusedError(
            f"its {what} trie is not the one lexicon-build makes from the {len(words):,} words it holds "
            "(a forged or damaged trie, or one written by a different trie library)"
        )
    return words


def _facts(words: Sequence[str], alphabet: Alphabet) -> WordSetFacts:
    """The set's digest, size and counts by length (in tiles)."""
    return WordSetFacts.of(sorted_words_hash(words), len(words), Counter(map(alphabet.counter, words)))


def walk_tries(words: bytes, youth: bytes | None, most: int, alphabet: Alphabet = ENGLISH) -> WalkedTries:
    """The walk itself, in *this* process: call it only on tries made here, or in the child.

    ``most`` bounds the words read from each trie (the manifest's word count); ``alphabet`` is the
    one the manifest names. Raises WalkRefusedError.
    """
    found = _words_of(words, most, "word", alphabet)
    if youth is None:
        return WalkedTries(words=_facts(found, alphabet))
    excluded = _words_of(youth, most, "youth exclusion", alphabet)
    excluded_set = set(excluded)
    if not excluded_set.issubset(found):
        raise WalkRefusedError("its youth exclusion trie holds words its word trie does not")
    school = [word for word in found if word not in excluded_set]
    return WalkedTries(
        words=_facts(found, alphabet),
        youth_hash=sorted_words_hash(excluded),
        youth_count=len(excluded),
        school=_facts(school, alphabet),
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


@dataclass(frozen=True)
class PackWalker:
    """Walks packs in a child process before anything trusts them, remembering outcomes in ``cache``.

    ``always_walk``: walk even when the cache knows the pack (``lexicon-build verify``); the
    outcome is still remembered. ``command``: the child's command line (``walker_command()``).
    """

    cache: WalkCache | None = None
    always_walk: bool = False
    command: tuple[str, ...] | None = None
    timeout_s: float = WALK_TIMEOUT_S
    warn: bool = True  # say on standard error when a walk cannot be remembered

    def verify(self, contents: PackContents) -> WalkedTries:
        """Walk a pack's tries (or find the walk remembered); raise PackError unless it is sound."""
        if self.cache is not None and not self.always_walk:
            remembered = self.cache.get(contents.content_sha256)
            if remembered is not None and remembered == WalkedTries.claimed(contents.info):
                return remembered
        walked = self._walk_in_child(contents)
        check_walk(contents, walked)
        if self.cache is not None:
            problem = self.cache.put(contents.content_sha256, walked)
            if problem is not None and self.warn:
                print(f"warning: {problem}; the packs are walked again at every start", file=sys.stderr)
        return walked

    def _walk_in_child(self, contents: PackContents) -> WalkedTries:
        where = str(contents.path) if contents.path is not None else "the pack"
        fix = "do not judge with it: copy the organiser's original again, or rebuild it with lexicon-build"
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
            raise PackCorruptError(
                f"{where} is damaged or forged: reading its tries took more than "
                f"{self.timeout_s:.0f} s; {fix}"
            ) from exc
        except OSError as exc:
            raise PackError(
                f"cannot check {where}: the program that walks its tries could not be started "
                f"({' '.join(command)}: {exc.strerror or exc}); reinstall the station software"
            ) from exc
        if done.returncode < 0:
            raise PackCorruptError(
                f"{where} is damaged or forged: its tries crashed the check that walks them before a "
                f"station uses them ({_signal_name(-done.returncode)}); {fix}"
            )
        try:
            if done.returncode != 0 or len(done.stdout) > MAX_CHILD_OUTPUT_BYTES:
                raise ValueError(f"exit code {done.returncode}")
            report = json.loads(done.stdout)
            if "refused" in report:
                raise PackCorruptError(f"{where} is damaged or forged: {report['refused']}; {fix}")
            return WalkedTries.from_json(report["walked"])
        except (ValueError, KeyError, TypeError) as exc:
            last = done.stderr.decode("utf-8", "replace").strip().splitlines()[-1:] or ["no message"]
            raise PackCorruptError(
                f"{where} cannot be used: the check that walks its tries failed "
                f"({exc}: {last[0][:300]}); {fix}"
            ) from exc


def walk_here(contents: PackContents) -> WalkedTries:
    """The walk in this process, for tries this process has just made (the builder's read-back)."""
    try:
        walked = walk_tries(
            contents.sections[WORDS_SECTION],
            contents.sections.get(YOUTH_SECTION),
            contents.info.word_count,
            contents.info.alphabet,
        )
    except WalkRefusedError as exc:
        where = str(contents.path) if contents.path is not None else "the pack"
        raise PackCorruptError(f"{where}: {exc}") from exc
    check_walk(contents, walked)
    return walked


if __name__ == "__main__":
    sys.exit(child_main())
