"""Reloading packs in a running station: every pack verified, or none of them swapped in.

Organisers replace pack files during an event (a corrected edition, a newly signed pack). A judge
asks the station to read them again; ``reload_divisions`` checks every file exactly as start-up
does (``load_lexicon`` with the configured trusted keys and the verification walk, then the youth
list of a division with youth rules and the edition a division expects) and returns a new set of
divisions only if *all* of them load. One bad file and the
result carries no divisions, only the problems: the station keeps judging with the packs it had,
never with a damaged one and never with none. The caller (the station controller) decides when
to swap the new set in; the configuration itself (divisions, trusted keys) is not read again.

``check_on_disk`` is for the judge's Packs page: for each pack in use, whether it is still the file
on disk or an older copy kept in memory, and why the file on disk is not used.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from kiosk.core.errors import KioskError, PackEditionError, PackError
from kiosk.core.packs.lexicon import MarisaLexicon, load_lexicon
from kiosk.core.packs.pack import PackContents, SealedPack, read_sealed, unseal
from kiosk.core.packs.trust import PackTrust, TrustedKey, check_pack_signature
from kiosk.core.station.config import (
    Division,
    LoadedDivision,
    StationConfig,
    Verifier,
    edition_problem,
    recognise,
    second_opinion_problem,
    youth_list_problem,
)
from kiosk.core.wording import Text, Wording
from kiosk.core.words.language import marked

__all__ = [
    "DiskState",
    "OnDisk",
    "ReloadResult",
    "check_on_disk",
    "reload_divisions",
    "same_pack",
]


@dataclass(frozen=True)
class ReloadResult:
    """What a reload found: the new divisions (None when refused), the problems, what changed."""

    divisions: tuple[LoadedDivision, ...] | None
    problems: tuple[Text, ...] = ()
    """One per file or division that failed, naming the file and what to do."""
    changes: tuple[Text, ...] = ()
    """One per pack whose words or signature changed: ``NWL2023 2023-03 → NWL2023 2023-09, 196,601 words``."""

    @property
    def accepted(self) -> bool:
        return self.divisions is not None


def _identity(contents: PackContents | SealedPack, trust: PackTrust) -> tuple[object, ...]:
    signature = contents.signature
    block = None if signature is None else (signature.public_key, signature.signature)
    return (contents.content_sha256, block, trust)


def same_pack(a: MarisaLexicon, b: MarisaLexicon) -> bool:
    """The same bytes: equal content digest, and the same signature block (or none) and trust."""
    return _identity(a.contents, a.trust) == _identity(b.contents, b.trust)


def _paths(config: StationConfig) -> list[Path]:
    paths: list[Path] = []
    for division in config.divisions:
        for path in (division.pack, division.second_opinion_pack):
            if path is not None and path not in paths:
                paths.append(path)
    return paths


def _in_use(divisions: Iterable[LoadedDivision]) -> dict[Path, MarisaLexicon]:
    found: dict[Path, MarisaLexicon] = {}
    for loaded in divisions:
        for path, lexicon in (
            (loaded.division.pack, loaded.lexicon),
            (loaded.division.second_opinion_pack, loaded.second_opinion),
        ):
            if path is not None and lexicon is not None:
                found.setdefault(path, lexicon)
    return found


def _change(before: MarisaLexicon, after: MarisaLexicon) -> Text | None:
    old, new = before.info, after.info
    if old.set_hash != new.set_hash:
        if new.title == old.title:
            return Wording.counting(
                "{before} \u2192 {after} (other words), {count} word",
                "{before} \u2192 {after} (other words), {count} words",
                new.word_count,
                before=old.title,
                after=new.title,
            )
        return Wording.counting(
            "{before} \u2192 {after}, {count} word",
            "{before} \u2192 {after}, {count} words",
            new.word_count,
            before=old.title,
            after=new.title,
        )
    if before.trust.label != after.trust.label:
        return Wording(
            marked("{pack}: the same words, now {trust}"), pack=new.title, trust=after.trust.wording
        )
    return None


def reload_divisions(
    config: StationConfig, current: Sequence[LoadedDivision], verifier: Verifier | None = None
) -> ReloadResult:
    """Read every pack ``config`` names again, verified as at start-up; all of them or nothing.

    A file identical to the one in use keeps the lexicon already in memory. Every file is read
    even after one fails, so that the judge learns of every problem at once. A division that
    expects an edition refuses any other (an older signed edition too), saying how it differs.
    """
    checks = verifier if verifier is not None else Verifier()
    in_use = _in_use(current)
    loaded: dict[Path, MarisaLexicon] = {}
    problems: list[Text] = []
    for path in _paths(config):
        try:
            fresh = load_lexicon(path, trusted_keys=config.trusted_keys, walker=checks.walker)
        except KioskError as exc:  # PackError, or a ConfigError from a trusted key
            problems.append(exc.wording)
            continue
        old = in_use.get(path)
        loaded[path] = old if old is not None and same_pack(old, fresh) else fresh
    for division in config.divisions:
        lexicon = loaded.get(division.pack)
        if lexicon is None:
            continue
        youth = youth_list_problem(config, division, lexicon)
        opinion = None if division.second_opinion_pack is None else loaded.get(division.second_opinion_pack)
        other = None if opinion is None else second_opinion_problem(config, division, lexicon, opinion)
        problems += [p for p in (youth, other, _expected(config, division, lexicon, checks)) if p is not None]
    if problems:
        return ReloadResult(divisions=None, problems=tuple(problems))
    recognitions = {path: recognise(lexicon, checks.editions) for path, lexicon in loaded.items()}
    divisions = tuple(
        LoadedDivision(
            division=division,
            lexicon=loaded[division.pack],
            recognition=recognitions[division.pack],
            second_opinion=None if (second := division.second_opinion_pack) is None else loaded[second],
        )
        for division in config.divisions
    )
    changes: list[Text] = []
    for path, lexicon in loaded.items():
        old = in_use.get(path)
        change = None if old is None else _change(old, lexicon)
        if change is not None and change not in changes:
            changes.append(change)
    return ReloadResult(divisions=divisions, changes=tuple(changes))


def _expected(
    config: StationConfig, division: Division, lexicon: MarisaLexicon, checks: Verifier
) -> Text | None:
    try:
        problem = edition_problem(config, division, lexicon, checks.editions)
    except KioskError as exc:  # an expect naming no known edition: the configuration's own fault
        return exc.wording
    # its words are English (how the set differs, length by length): said after its kind
    return None if problem is None else Wording.summed_up(str(problem), PackEditionError.summary)


class DiskState(enum.Enum):
    IN_USE = "in use"  # the file on disk is the pack the station judges with
    CHANGED = "changed"  # a different pack that verifies: a reload would check it and use it
    REFUSED = "refused"  # the file on disk cannot be used: missing, damaged, wrong version or signer


@dataclass(frozen=True)
class OnDisk:
    """The file on disk now, compared with the copy of it the station judges with."""

    state: DiskState
    detail: Text = ""
    """For CHANGED the pack's name and edition; for REFUSED the problem, naming the file."""


def check_on_disk(lexicon: MarisaLexicon, trusted_keys: Iterable[TrustedKey] = ()) -> OnDisk:
    """Read the file a lexicon came from and say whether it is still that pack.

    The digest and the signature are checked, and the manifest of a file that differs; no trie is
    parsed or walked (the reload does that), and the youth-list and edition rules of a division
    are the reload's to check.
    """
    path = lexicon.contents.path
    if path is None:
        return OnDisk(DiskState.IN_USE)
    try:
        sealed = read_sealed(path)
        trust = check_pack_signature(sealed, trusted_keys)
        if _identity(sealed, trust) == _identity(lexicon.contents, lexicon.trust):
            return OnDisk(DiskState.IN_USE)
        return OnDisk(DiskState.CHANGED, unseal(sealed).info.title)
    except PackError as exc:
        return OnDisk(DiskState.REFUSED, exc.wording)
