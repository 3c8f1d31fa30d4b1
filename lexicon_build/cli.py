"""The ``lexicon-build`` command: organisers turn the word lists they own into packs.

A thin click layer over ``lexicon_build.builder`` and ``kiosk.core.packs.pack``. Exit codes: 0 on
success; 1 when a check ran and found a problem in what it checked (``verify``: the pack is
damaged or not signed as required; ``build``: lines that are not words); 2 for every other error
(a file that is missing, unreadable or of the wrong kind, an output that would destroy a file, a
bad value, Ctrl+C), so that a script never mistakes a mistake for a verdict. The program's entry
point is ``lexicon_build.entry.run``: ``kiosk.console.run_guarded`` around the click group ``main``.

No command writes over a file it reads, over a file of another kind, or (without ``--force``) over
one of its own kind: ``kiosk.core.files.kind.check_output`` decides, before any work is done.
The commands that sign or check signatures import ``lexicon_build.signing`` (and cryptography)
themselves, so that a build does not load it (``bench/bench_tournament.py``).
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import click

from kiosk import __version__
from kiosk.argument import OutputFile
from kiosk.console import EXIT_ERROR, fail
from kiosk.core.edition import EditionTable, PackRecognition, load_edition_table
from kiosk.core.errors import KioskError, NotAPackError, PackEditionError, PackError, SourceLinesError
from kiosk.core.files.kind import Kind, Role, recognise, refusal
from kiosk.core.files.output import check_output, same_file
from kiosk.core.packs.lexicon import MarisaLexicon, load_lexicon
from kiosk.core.packs.pack import PackInfo
from kiosk.core.packs.trust import TrustedKey
from kiosk.core.packs.verification import PackWalker, WalkCache
from kiosk.core.words.alphabet import DEFAULT_ALPHABET, Alphabet, alphabets
from kiosk.core.words.normalise import MAX_WORD_LETTERS
from kiosk.core.words.plural import counted, one_or_many
from kiosk.paths import built_in_edition_paths, station_data, walk_cache_dir
from lexicon_build.builder import build_pack, write_atomically
from lexicon_build.reader import ListFormat, read_word_list
from lexicon_build.recipe import Recipe, SourceSpec, load_recipe

__all__ = ["main"]

EXIT_PROBLEM = 1  # a check found a problem in what it checked
MIN_PASSPHRASE_CHARS = 8


# Files a command writes are OutputFile (click.Path(writable=True), read as typed): click then
# refuses an existing read-only one and a name that ends in a folder's slash, and
# tests/test_cli_errors.py knows which options are outputs.
existing_file = click.Path(path_type=Path, dir_okay=False, exists=True)
force_option = click.option(
    "--force", is_flag=True, help="Replace the output file if it exists (never a file of another kind)."
)
known_editions_option = click.option(
    "--known-editions",
    "known_editions",
    multiple=True,
    type=existing_file,
    metavar="TABLE",
    help="A table of known editions (the format of the built-in known-lexicons.tsv) to recognise "
    "packs by, beside the built-in one (repeat for more).",
)


def edition_table(added: tuple[Path, ...] = ()) -> EditionTable:
    """The built-in known editions and the organiser's; exit with the problem if one cannot be read."""
    try:
        return load_edition_table(built_in_edition_paths(), added)
    except KioskError as exc:
        fail(str(exc))


def walker(*, always: bool = False) -> PackWalker:
    """The verification walk, remembered in the data directory ($KIOSK_DATA_DIR, else the
    platform's own): a station run by the same user with the same data directory shares it."""
    return PackWalker(cache=WalkCache(walk_cache_dir(station_data(None).data_dir)), always_walk=always)


def recognise_pack_of(lexicon: MarisaLexicon, table: EditionTable) -> PackRecognition:
    """The station's recognition of a loaded pack (kiosk.core.station.config, imported only by the commands
    that load a pack: a build does not pay for the station's configuration code)."""
    from kiosk.core.station.config import recognise

    return recognise(lexicon, table)


def recognition_lines(info: PackInfo, recognition: PackRecognition) -> list[str]:
    """``word set sha256:…: matches NWL2023 as published (196,601 words)``, and the youth set."""
    lines = [f"word set {info.set_hash}: {recognition.full.sentence()}"]
    if recognition.school is not None:
        lines.append(f"with the youth list applied {info.school_set_hash}: {recognition.school.sentence()}")
    return lines + [f"note: {note}" for note in recognition.notes]


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="lexicon-build")
def main() -> None:
    """Build, inspect and compare lexicon packs for the challenge kiosk.

    \b
    Example:
      lexicon-build build --name "Club list" --source words.txt -o club.kxpack
    """


@main.command()
@click.argument("recipe", required=False, type=existing_file)
@click.option(
    "-o", "--output", required=True, type=OutputFile(Role.PACK, "club.kxpack"), help="Pack file to write."
)
@click.option("--name", help="Pack name shown on the station (without a recipe).")
@click.option("--edition", default="", help="Edition or date, e.g. 2024-01.")
@click.option("--description", default="", help="One line describing the pack.")
@click.option("--source", "sources", multiple=True, type=existing_file, help="Word list (repeat for more).")
@click.option("--youth-exclusions", type=existing_file, help="Words a youth division must not accept.")
@click.option("--max-length", type=int, default=15, show_default=True, help="Longest word kept.")
@click.option(
    "--format",
    "list_format",
    type=click.Choice([f.value for f in ListFormat]),
    default="auto",
    show_default=True,
    help="Format of the --source files: one word per line (plain), or word then definition (zyzzyva); "
    "auto reads *.dwg files as Zyzzyva word graphs (dwg).",
)
@click.option(
    "--alphabet",
    type=click.Choice(list(alphabets())),
    help="The tiles the lists are spelt in (default english: A-Z; spanish reads CH, LL, RR and Ñ, "
    "and a FISE .dwg's digits 1-4); overrides the recipe's alphabet.",
)
@click.option("--skip-invalid", is_flag=True, help="Leave out lines that are not words instead of failing.")
@click.option(
    "--expect",
    metavar="EDITION",
    help="Fail unless the word set is this edition (a known edition's name, or sha256:DIGEST); "
    "overrides the recipe's expect.",
)
@known_editions_option
@force_option
def build(
    recipe: Path | None,
    output: Path,
    name: str | None,
    edition: str,
    description: str,
    sources: tuple[Path, ...],
    youth_exclusions: Path | None,
    max_length: int,
    list_format: str,
    alphabet: str | None,
    skip_invalid: bool,
    force: bool,
    expect: str | None,
    known_editions: tuple[Path, ...],
) -> None:
    """Build a pack from a recipe, or from --name and --source files.

    Lines that are not words are listed as FILE:LINE: reason and the build fails (exit 1), unless
    --skip-invalid is given. Duplicates are counted, not errors. The word set is recognised
    against the known editions: "matches NWL2023 as published", or how it differs by length from
    the closest edition of similar size; with --expect (e.g. --expect CSW24, or expect in the
    recipe) a set that is not that edition fails the build (exit 1), saying how it differs.
    --known-editions adds a table of your own editions (the format of the built-in
    data/known-lexicons.tsv: see docs/organisers.md). The pack is never written over
    a source, the recipe or any file that is not a pack; an existing pack is replaced only with
    --force. Its folder must exist.

    \b
    Examples:
      lexicon-build build --name "Club list" --edition 2024 --source words.txt -o club.kxpack
      lexicon-build build --name School --source nwl.txt --youth-exclusions youth.txt -o school.kxpack
      lexicon-build build school-2014.toml -o school-2014.kxpack
      lexicon-build build --name Club --source base-list.txt --known-editions club-editions.tsv \\
          --expect CLUB2024 -o club-2024.kxpack
      lexicon-build build --alphabet spanish --name FISE --source FISE2.dwg -o es.kxpack
    """
    try:
        if recipe is not None:
            if sources or name or youth_exclusions:
                fail("give either a RECIPE file or --name/--source options, not both")
            plan = load_recipe(recipe)
        else:
            if not name or not sources:
                fail("without a recipe, --name and at least one --source are needed")
            fmt = ListFormat(list_format)
            plan = Recipe(
                name=name,
                edition=edition,
                description=description,
                max_length=max_length,
                sources=tuple(SourceSpec(path=p, list_format=fmt) for p in sources),
                youth_exclusions=None if youth_exclusions is None else SourceSpec(path=youth_exclusions),
            )
        if expect is not None:
            plan = replace(plan, expect=expect)
        if alphabet is not None:
            plan = replace(plan, alphabet=alphabets()[alphabet])
        table = load_edition_table(built_in_edition_paths(), (*plan.known_editions, *known_editions))
        files = [s.path for s in plan.sources] + (
            [plan.youth_exclusions.path] if plan.youth_exclusions is not None else []
        )
        inputs = files + ([recipe] if recipe is not None else [])
        check_output(output, Role.PACK, inputs=inputs, force=force, example=f"{output.stem}.kxpack")
        total_bytes = sum(p.stat().st_size for p in files if p.is_file())
        with click.progressbar(
            length=total_bytes, label="Reading word lists", file=sys.stderr, hidden=not sys.stderr.isatty()
        ) as bar:
            result = build_pack(plan, editions=table, skip_invalid=skip_invalid, progress=bar.update)
        write_atomically(output, result.data)
    except (SourceLinesError, PackEditionError) as exc:  # the check found a problem in the sources
        fail(str(exc), EXIT_PROBLEM)
    except KioskError as exc:
        fail(str(exc))
    report = result.report
    for note in report.notes:
        click.echo(f"note: {note}", err=True)
    for warning in report.warnings:
        click.echo(f"warning: {warning}", err=True)
    if report.rejected:
        click.echo(f"skipped {counted(len(report.rejected), 'invalid line', 'invalid lines')}:", err=True)
        for rejection in report.rejected[:20]:
            click.echo(f"  {rejection}", err=True)
    info = result.info
    click.echo(
        f"wrote {output}: {info.title}, {counted(info.word_count, 'word', 'words')}, "
        f"{counted(info.youth_exclusion_count, 'youth exclusion', 'youth exclusions')}, "
        f"{counted(report.duplicates, 'duplicate', 'duplicates')} ignored"
    )
    for line in recognition_lines(info, result.recognition):
        click.echo(line)


def _load(
    path: Path,
    trusted_keys: tuple[TrustedKey, ...] = (),
    *,
    always_walk: bool = False,
    pack_problem: int = EXIT_ERROR,
) -> MarisaLexicon:
    """The pack, walked (or its walk remembered); exit ``pack_problem`` if the pack is damaged,
    forged or not signed as required, 2 if the file is no pack at all or anything else is wrong."""
    try:
        return load_lexicon(path, trusted_keys=trusted_keys, walker=walker(always=always_walk))
    except NotAPackError as exc:
        fail(str(exc))
    except PackError as exc:
        fail(str(exc), pack_problem)
    except KioskError as exc:
        fail(str(exc))


def _describe(info: PackInfo, recognition: PackRecognition) -> list[str]:
    lines = [
        f"name:        {info.name}",
        f"edition:     {info.edition or '(none given)'}",
        f"description: {info.description or '(none given)'}",
        f"words:       {info.word_count:,} (2 to {info.max_length} "
        f"{'letters' if info.alphabet.simple else 'tiles'})",
        f"alphabet:    {info.alphabet.name}: {info.alphabet.letters_shown}",
        f"youth list:  {counted(info.youth_exclusion_count, 'exclusion', 'exclusions')}"
        if info.youth_set_hash is not None
        else "youth list:  none",
        *recognition_lines(info, recognition),
        f"format:      pack format {info.format_version}, normaliser {info.normaliser_version}, "
        f"built by lexicon-build {info.builder_version}",
        "sources:",
    ]
    for source in info.sources:
        limits = ""
        if source.min_length or source.max_length:
            limits = f", lengths {source.min_length or 2}-{source.max_length or info.max_length}"
        lines.append(f"  {source.file} ({source.role}, {source.words} words{limits}) sha256:{source.sha256}")
    lines.append("words by length:")
    lines.extend(f"  {length:>2}: {count}" for length, count in sorted(info.counts_by_length.items()))
    return lines


@main.command()
@click.argument("pack", type=existing_file)
@click.option(
    "--trust",
    "trust",
    multiple=True,
    metavar="PUBKEY",
    help="Require a signature by this key: a .pub file from keygen, a station config with "
    "[[trusted_keys]], or the base64 key (repeat for more).",
)
@known_editions_option
def verify(pack: Path, trust: tuple[str, ...], known_editions: tuple[Path, ...]) -> None:
    """Check a pack whole (checksum, format, signature, every trie); exit 0 if it is good, 1 if not.

    Every trie is walked in a process of its own: read whole, rebuilt and compared byte for byte,
    and the word set's digest recomputed from it and compared with the manifest. Without --trust,
    any valid signature (or none) passes and is shown; with --trust, the pack must be signed by
    one of the keys given (and only then are the edition lines it carries believed). A file that
    is not a pack at all (a word list, a recipe...) or a --trust that is no key is an error: exit
    2, with what the file is.

    \b
    Examples:
      lexicon-build verify club.kxpack
      lexicon-build verify club.kxpack --trust organiser.pub
      lexicon-build verify club.kxpack --known-editions club-editions.tsv
    """
    from lexicon_build.signing import load_trusted_keys  # cryptography: ~17 ms that build does not pay

    table = edition_table(known_editions)
    try:
        keys = load_trusted_keys(trust)
    except KioskError as exc:
        fail(str(exc))
    lexicon = _load(pack, keys, always_walk=True, pack_problem=EXIT_PROBLEM)
    info = lexicon.info
    click.echo(f"OK {pack}: {info.title}, {counted(info.word_count, 'word', 'words')}, every trie walked")
    for line in recognition_lines(info, recognise_pack_of(lexicon, table)):
        click.echo(line)
    click.echo(f"signature: {lexicon.trust.label}")


@main.command()
@click.argument("pack", type=existing_file)
@known_editions_option
def info(pack: Path, known_editions: tuple[Path, ...]) -> None:
    """Show a pack's manifest: name, edition, counts by length, sources, hashes, and the edition
    its word set is ("matches NWL2023 as published (196,601 words)", or how it differs).

    \b
    Examples:
      lexicon-build info club.kxpack
      lexicon-build info club.kxpack --known-editions club-editions.tsv
    """
    table = edition_table(known_editions)
    lexicon = _load(pack)
    for line in _describe(lexicon.info, recognise_pack_of(lexicon, table)):
        click.echo(line)


def _word_set(path: Path, alphabet: Alphabet) -> set[str]:
    problem = refusal(path, Role.PACK_OR_WORD_LIST)
    if problem is not None:
        fail(problem)
    try:
        word_list = read_word_list(path, max_length=MAX_WORD_LETTERS, alphabet=alphabet)
    except KioskError as exc:
        fail(str(exc))
    if word_list.rejected:
        fail(
            one_or_many(len(word_list.rejected), "{count} line is not a word", "{count} lines are not words")
            + f", first: {word_list.rejected[0]}"
        )
    return set(word_list.words)


def _diff_sets(old: Path, new: Path, alphabet_name: str | None) -> tuple[set[str], set[str]]:
    """Both word sets, read in one alphabet: the packs' (they must agree), else --alphabet's."""
    packs = {path: _load(path) for path in (old, new) if recognise(path).kind is Kind.PACK}
    named = sorted({lexicon.info.alphabet.name for lexicon in packs.values()})
    in_words = alphabets()[named[0]].english_name if named else ""
    if len(named) > 1:
        said = ", ".join(f"{path} is {packs[path].info.alphabet.english_name}" for path in (old, new))
        fail(f"{said}: packs in different alphabets have no words to compare")
    if alphabet_name is not None and named and named[0] != alphabet_name:
        fail(f"--alphabet {alphabet_name}, but the pack is in the {in_words} alphabet; leave --alphabet out")
    alphabet = alphabets()[alphabet_name or (named[0] if named else DEFAULT_ALPHABET)]

    def words(path: Path) -> set[str]:
        return set(packs[path].words.keys()) if path in packs else _word_set(path, alphabet)

    return words(old), words(new)


@main.command()
@click.argument("old", type=existing_file)
@click.argument("new", type=existing_file)
@click.option(
    "--added",
    "added_file",
    type=OutputFile(Role.WORD_LIST, "added.txt"),
    help="Write the added words to this file.",
)
@click.option(
    "--removed",
    "removed_file",
    type=OutputFile(Role.WORD_LIST, "removed.txt"),
    help="Write the removed words to this file.",
)
@click.option("--list/--no-list", "show", default=True, help="Print the words themselves.")
@click.option(
    "--alphabet",
    type=click.Choice(list(alphabets())),
    help="The alphabet two word lists are in (default english); a pack brings its own.",
)
@force_option
def diff(
    old: Path,
    new: Path,
    added_file: Path | None,
    removed_file: Path | None,
    show: bool,
    alphabet: str | None,
    force: bool,
) -> None:
    """Words added and removed between two packs or word lists (e.g. two editions).

    --added and --removed write word lists; they never replace OLD, NEW or a file that is not a
    word list, and an existing list only with --force.

    \b
    Example:
      lexicon-build diff nwl2020.kxpack nwl2023.kxpack --added new-words.txt --removed gone.txt
    """
    outputs = [path for path in (added_file, removed_file) if path is not None]
    if len(outputs) == 2 and (outputs[0] == outputs[1] or same_file(outputs[0], outputs[1])):
        fail(f"--added and --removed both name {outputs[0]}; give each its own file")
    try:
        for path, example in ((added_file, "added.txt"), (removed_file, "removed.txt")):
            if path is not None:
                check_output(path, Role.WORD_LIST, inputs=[old, new], force=force, example=example)
    except KioskError as exc:
        fail(str(exc))
    before, after = _diff_sets(old, new, alphabet)
    added, removed = sorted(after - before), sorted(before - after)
    try:
        for target, words in ((added_file, added), (removed_file, removed)):
            if target is not None:
                write_atomically(target, "".join(f"{w}\n" for w in words).encode("utf-8"))
    except KioskError as exc:
        fail(str(exc))
    if show:
        for word in added:
            click.echo(f"+{word}")
        for word in removed:
            click.echo(f"-{word}")
    click.echo(f"{len(added)} added, {len(removed)} removed ({len(before)} -> {len(after)} words)")


@main.command()
@click.argument("key_file", metavar="KEY", type=OutputFile(Role.PRIVATE_KEY, "organiser.key"))
@click.option("--name", required=True, help="The organiser's name, shown on stations for its signatures.")
@click.option(
    "--force", is_flag=True, help="Replace KEY and its .pub file if they exist (never other files)."
)
@click.option(
    "--passphrase",
    "ask_passphrase",
    is_flag=True,
    help="Protect KEY with a passphrase (asked twice, not shown); sign then asks for it.",
)
def keygen(key_file: Path, name: str, force: bool, ask_passphrase: bool) -> None:
    """Make an Ed25519 key pair for signing packs: KEY (private, 0600) and KEY's .pub file.

    Keep KEY on the organiser's machine, never on a station. The .pub file is a [[trusted_keys]]
    table: paste it into each station's configuration so that it accepts only packs you signed.

    \b
    Examples:
      lexicon-build keygen organiser.key --name "Club Organiser"    # writes organiser.key and .pub
      lexicon-build keygen organiser.key --name "Club Organiser" --passphrase
    """
    from lexicon_build.signing import generate_key_pair

    passphrase = None
    if ask_passphrase:
        text = click.prompt("Passphrase for the new key", hide_input=True, confirmation_prompt=True, err=True)
        if len(text) < MIN_PASSPHRASE_CHARS:
            fail(f"the passphrase is too short: use at least {MIN_PASSPHRASE_CHARS} characters")
        passphrase = text.encode("utf-8")
    try:
        pair = generate_key_pair(key_file, name, overwrite=force, passphrase=passphrase)
    except KioskError as exc:
        fail(str(exc))
    click.echo(f"wrote {pair.private_path} (private key: keep it secret, never copy it to a station)")
    click.echo(
        f"wrote {pair.public_path} (public key {pair.trusted_key.fingerprint}: paste it into station configs)"
    )


@main.command()
@click.argument("pack", type=existing_file)
@click.option("--key", "key_file", required=True, type=existing_file, help="Private key from keygen.")
@click.option(
    "-o",
    "--output",
    type=OutputFile(Role.PACK, "signed.kxpack"),
    help="Write the signed pack here (default: PACK, in place).",
)
@force_option
def sign(pack: Path, key_file: Path, output: Path | None, force: bool) -> None:
    """Sign a pack (the whole file, manifest included); an old signature is replaced.

    The pack is checked whole first: a damaged pack is never signed. In place, the file is
    replaced atomically, so a station reading it sees the old pack or the signed one. -o never
    replaces the key or a file that is not a pack, and another pack only with --force.

    \b
    Examples:
      lexicon-build sign nwl2023.kxpack --key organiser.key
      lexicon-build sign nwl2023.kxpack --key organiser.key -o nwl2023-signed.kxpack
    """
    from lexicon_build.signing import load_private_key, private_key_is_encrypted, sign_pack

    target = output if output is not None else pack
    try:
        problem = refusal(pack, Role.PACK)
        if problem is not None:
            raise NotAPackError(problem)
        if not same_file(target, pack):
            check_output(target, Role.PACK, inputs=[key_file], force=force, example="signed.kxpack")
    except KioskError as exc:
        fail(str(exc))
    passphrase = None
    if private_key_is_encrypted(key_file):
        passphrase = click.prompt(f"Passphrase for {key_file}", hide_input=True, err=True).encode("utf-8")
    try:
        private_key = load_private_key(key_file, passphrase)
        data = pack.read_bytes()
        signed = sign_pack(data, private_key, pack, walker=walker())
        write_atomically(target, signed)
        lexicon = load_lexicon(target, walker=walker())
    except KioskError as exc:
        fail(str(exc))
    except OSError as exc:
        fail(f"{pack}: {exc.strerror}")
    info = lexicon.info
    click.echo(f"signed {target} with key {lexicon.trust.fingerprint}: {info.title}")
