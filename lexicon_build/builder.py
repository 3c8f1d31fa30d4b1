"""Turning a recipe into a pack: read every source, apply the rules, write one verified file.

The same recipe and sources always give the same bytes: words are a set (marisa's output does not
depend on key order), the manifest is canonical JSON and records no time or absolute path, and the
sections are compressed by zlib at a fixed level (``kiosk.core.packs.pack``; the same zlib gives the same
bytes).
"""

from __future__ import annotations

import dataclasses
import itertools
import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from kiosk import __version__
from kiosk.core.edition import (
    BUILT_IN_SOURCE,
    CARRIED_SOURCE,
    EditionTable,
    Expectation,
    PackRecognition,
    recognise_pack,
)
from kiosk.core.errors import OutputError, PackEditionError, SourceError, SourceLinesError
from kiosk.core.packs.lexicon import WORDS_SECTION, YOUTH_SECTION, MarisaLexicon
from kiosk.core.packs.pack import PackInfo, SourceInfo, encode_pack, parse_pack
from kiosk.core.packs.trust import check_pack_signature
from kiosk.core.packs.verification import WalkedTries, WordSet, prove_made, trie_of_keys, word_set_facts
from kiosk.core.words.alphabet import ENGLISH, Alphabet
from kiosk.core.words.plural import one_or_many
from lexicon_build.reader import Rejection, WordList, alphabet_advice, read_word_list
from lexicon_build.recipe import Recipe, SourceSpec

__all__ = ["BuildReport", "BuildResult", "build_pack", "write_atomically"]

MAX_REJECTIONS_SHOWN = 50
FILE_MODE = 0o666


@dataclass
class BuildReport:
    """What an organiser should read after a build: refused lines, warnings and counts."""

    lists: list[WordList] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # how lists were read (Zyzzyva's digits)
    alphabet: Alphabet = ENGLISH  # the recipe's: every list is read in it

    @property
    def rejected(self) -> list[Rejection]:
        return [r for word_list in self.lists for r in word_list.rejected]

    @property
    def duplicates(self) -> int:
        return sum(word_list.duplicates for word_list in self.lists)


@dataclass(frozen=True)
class BuildResult:
    data: bytes
    info: PackInfo
    report: BuildReport
    recognition: PackRecognition


def _read(
    spec: SourceSpec, max_length: int, report: BuildReport, progress: Callable[[int], None] | None
) -> WordList:
    word_list = read_word_list(
        spec.path,
        list_format=spec.list_format,
        max_length=max_length,
        progress=progress,
        alphabet=report.alphabet,
    )
    report.lists.append(word_list)
    report.notes.extend(word_list.notes)
    return word_list


def _source_info(spec: SourceSpec, word_list: WordList, role: str, kept: int) -> SourceInfo:
    return SourceInfo(
        file=spec.path.name,
        sha256=word_list.sha256,
        role=role,
        min_length=spec.min_length,
        max_length=spec.max_length,
        words=kept,
    )


def _union(lists: list[list[str]]) -> list[str]:
    """Every word of the lists, each once (each list already holds each of its words once).

    In the lists' own order, usually sorted already, which makes sorting them cheap.
    """
    if len(lists) == 1:
        return list(lists[0])
    return list(dict.fromkeys(itertools.chain.from_iterable(lists)))


def build_pack(
    recipe: Recipe,
    *,
    editions: EditionTable | None = None,
    skip_invalid: bool = False,
    progress: Callable[[int], None] | None = None,
) -> BuildResult:
    """Build a pack in memory. Raise SourceError listing every refused line unless skipping.

    ``editions`` are the known editions to recognise the set by (the built-in table and any the
    organiser added); lines an organiser added that describe this pack's sets travel in its
    manifest, for stations to believe once it is signed by a key they trust. With ``expect`` in the
    recipe, a set that is not that edition raises PackEditionError, saying how it differs.
    """
    table = editions if editions is not None else EditionTable()
    alphabet = recipe.alphabet
    tiles = alphabet.counter  # lengths count tiles (letters, for English)
    report = BuildReport(alphabet=alphabet)
    kept_lists: list[list[str]] = []
    sources: list[SourceInfo] = []
    for spec in recipe.sources:
        word_list = _read(spec, recipe.max_length, report, progress)
        kept = word_list.words  # the reader already left out words over the recipe's maximum
        if spec.min_length is not None or spec.max_length is not None:
            low = spec.min_length or 0
            high = spec.max_length or recipe.max_length
            kept = [w for w in kept if low <= tiles(w) <= high]
        kept_lists.append(kept)
        sources.append(_source_info(spec, word_list, "source", len(kept)))
        if word_list.too_long:
            report.warnings.append(
                f"{spec.path}: "
                + one_or_many(word_list.too_long, "{count} word longer", "{count} words longer")
                + f" than {recipe.max_length} {'letters' if alphabet.simple else 'tiles'} left out "
                "(the pack's maximum; --max-length or max_length in a recipe keeps longer words)"
            )
    youth_words: set[str] = set()
    if recipe.youth_exclusions is not None:
        spec = recipe.youth_exclusions
        word_list = _read(spec, recipe.max_length, report, progress)
        youth_words = set(word_list.words)
        sources.append(_source_info(spec, word_list, "youth_exclusions", len(youth_words)))
    if report.rejected and not skip_invalid:
        shown = report.rejected[:MAX_REJECTIONS_SHOWN]
        more = len(report.rejected) - len(shown)
        lines = [str(r) for r in shown] + ([f"... and {more} more"] if more else [])
        advice = alphabet_advice(report.rejected, alphabet)
        lines += [advice] if advice else []
        raise SourceLinesError(
            one_or_many(
                len(report.rejected),
                "{count} line could not be read as a word:\n",
                "{count} lines could not be read as words:\n",
            )
            + "\n".join(lines)
            + "\nFix the lines, or build anyway with --skip-invalid (they are left out)."
        )
    words = _union(kept_lists)
    if recipe.additions or recipe.removals:
        present = set(words)
        missing_removals = sorted(
            w for w in recipe.removals if w not in present and w not in recipe.additions
        )
        if missing_removals:
            report.warnings.append(
                f"removals not in any source (nothing to remove): {', '.join(missing_removals)}"
            )
        words += [
            w for w in dict.fromkeys(recipe.additions) if tiles(w) <= recipe.max_length and w not in present
        ]
        removed = set(recipe.removals)
        words = [w for w in words if w not in removed]
    if not words:
        raise SourceError("the sources hold no words at all; check the files and length limits")
    outside = sorted(youth_words.difference(words))
    if outside:
        sample = ", ".join(outside[:10]) + (" ..." if len(outside) > 10 else "")
        report.warnings.append(
            one_or_many(
                len(outside),
                "{count} youth exclusion word is not in the base list and changes nothing: ",
                "{count} youth exclusion words are not in the base list and change nothing: ",
            )
            + sample
        )
    if youth_words:
        youth_words.intersection_update(words)
    made = {WORDS_SECTION: WordSet.of(sorted(words), alphabet)}
    if recipe.youth_exclusions is not None:
        made[YOUTH_SECTION] = WordSet.of(sorted(youth_words), alphabet)
    ordered = made[WORDS_SECTION].words
    full = made[WORDS_SECTION].facts
    school = (
        None
        if recipe.youth_exclusions is None
        else word_set_facts([w for w in ordered if w not in youth_words], alphabet)
    )
    sections = {name: trie_of_keys(word_set.keys) for name, word_set in made.items()}
    sets = [full] if school is None else [full, school]
    if recipe.expect is not None:
        wanted = Expectation.parse(recipe.expect, table, where="lexicon-build build")
        if not wanted.met_by(sets):
            raise PackEditionError(
                f"the build expects {wanted.label} (expect), but these sources are not that word set: "
                f"{wanted.shortfall(sets)}. Check that the sources are the whole published list, "
                "or change expect"
            )
    carried = tuple(  # a line that describes this pack's set is, for the pack, in its alphabet
        dataclasses.replace(edition, source=CARRIED_SOURCE, alphabet=alphabet.name)
        for facts in sets
        if (edition := table.recognise(facts).edition) is not None and edition.source != BUILT_IN_SOURCE
    )
    youth_facts = made[YOUTH_SECTION].facts if YOUTH_SECTION in made else None
    info = PackInfo(
        name=recipe.name,
        edition=recipe.edition,
        description=recipe.description,
        max_length=recipe.max_length,
        word_count=full.word_count,
        counts_by_length=dict(full.counts_by_length),
        youth_exclusion_count=len(youth_words),
        set_hash=full.set_hash,
        youth_set_hash=None if youth_facts is None else youth_facts.set_hash,
        school_set_hash=None if school is None else school.set_hash,
        school_counts_by_length=None if school is None else dict(school.counts_by_length),
        known_editions=carried,
        sources=tuple(sources),
        builder_version=__version__,
        alphabet=alphabet,
    )
    data = encode_pack(info, sections)
    # Read back as a station reads it; the tries were made here, from words this build holds, so
    # proving them needs no second walk of what was just written (kiosk.core.packs.verification.prove_made).
    contents = parse_pack(data)
    walked = WalkedTries(
        words=full,
        youth_hash=info.youth_set_hash,
        youth_count=info.youth_exclusion_count,
        school=school,
    )
    prove_made(contents, sections, made, walked)
    lexicon = MarisaLexicon.from_contents(contents, check_pack_signature(contents), walked)
    if lexicon.info != info or any(
        w not in lexicon
        for w in recipe.additions
        if tiles(w) <= recipe.max_length and w not in recipe.removals
    ):
        raise SourceError("internal error: the pack did not read back as written; please report it")
    recognition = recognise_pack(table, full, school, title=info.title, alphabet=alphabet.name)
    published = recognition.full.edition
    if published is not None and published.alphabet != alphabet.name:
        report.warnings.append(
            f"its words are {published.name}, published in the {published.alphabet.capitalize()} alphabet, "
            f"but the pack is {alphabet.english_name}: build with --alphabet {published.alphabet} "
            f'(alphabet = "{published.alphabet}" in a recipe) so that its players type as they do'
        )
    return BuildResult(data=data, info=info, report=report, recognition=recognition)


def write_atomically(path: Path, data: bytes, *, mode: int | None = None) -> None:
    """Write a file so that a reader sees either the old file or the whole new one.

    ``mode`` None gives what any new file gets under the umask (packs are for sharing);
    otherwise exactly ``mode`` (a private key is never group-readable, whatever the umask).
    Raise OutputError if it cannot be written (full disk, no permission): nothing is left behind.
    Whether the file *may* be written over is ``kiosk.core.files.kind.check_output``'s question.
    """
    shown = path
    path = path.resolve()
    try:
        handle, temp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        raise OutputError(f"cannot write {shown}: {exc.strerror or exc}; nothing was written") from exc
    try:
        if mode is None:
            umask = os.umask(0)
            os.umask(umask)
            mode = FILE_MODE & ~umask  # mkstemp makes 0600
        Path(temp_name).chmod(mode)
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        Path(temp_name).replace(path)
    except OSError as exc:
        Path(temp_name).unlink(missing_ok=True)
        raise OutputError(
            f"cannot write {shown}: {exc.strerror or exc}; nothing was written (a file that was "
            "there is unchanged)"
        ) from exc
    except BaseException:
        Path(temp_name).unlink(missing_ok=True)
        raise
