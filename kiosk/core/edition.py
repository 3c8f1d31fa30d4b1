"""Known editions: recognising a published word set by its digest, whatever file it came from.

A table of known editions (``data/known-lexicons.tsv``, and any an organiser adds in the same
format) holds *facts*, not words: for each published word set its name, its number of words, the
SHA-256 of its words and its count of words by length. The digest is defined so that anyone can
recompute it from any copy of the list::

    LC_ALL=C sort -u list.txt | sha256sum

that is, the words (as the normaliser gives them: upper case), sorted by byte value, each once and
each followed by a line feed. A pack records the digest of its set in the same definition
(``PackInfo.set_hash``, as ``sha256:`` and the hex digits), and the station's verification walk
proves it equal to the digest of the words its trie holds (``kiosk.core.packs.verification``), so a pack is
recognised by what it holds, never by the name an organiser typed.

Only the digest makes a match. Counts by length never do: they describe how a set that matches no
known edition differs from the closest one of similar size ("3 fewer 7-letter words than CSW21"),
which tells a director whether a file was cut short, is an older edition or lost a few words.

The table's format::

    # comments and blank lines are ignored
    lexicon<TAB>words<TAB>sha256_of_sorted_words<TAB>words_by_length_2_to_15
    NWL2023<TAB>196601<TAB>7ced9121...<TAB>107,1085,4247,...,3839

The last column's header names the lengths it counts (from 2 to N); its counts add up to the
number of words. A table of other alphabets' sets (``data/federation-lexicons.tsv``) has an
``alphabet`` column after the name; without one, a set is English. A word's length counts its
tiles, and the digest is over the words as a pack of that alphabet stores them, in UTF-8: FISE's
words with their multi-letter tiles in brackets (``CA[LL]E``), sorted by byte value. The built-in
tables are ``data/known-lexicons.tsv`` and ``data/federation-lexicons.tsv``
(``kiosk.paths.built_in_edition_paths``).
"""

from __future__ import annotations

import re
import stat
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from kiosk.core.errors import EditionTableError
from kiosk.core.wording import Text, Wording
from kiosk.core.words.language import Catalogue, english, marked
from kiosk.core.words.normalise import MAX_WORD_LETTERS, MIN_WORD_LETTERS
from kiosk.core.words.plural import counted

__all__ = [
    "BUILT_IN_SOURCE",
    "CARRIED_SOURCE",
    "CLOSE_PERCENT",
    "Closeness",
    "EditionBadge",
    "EditionTable",
    "Expectation",
    "KnownEdition",
    "PackRecognition",
    "Recognition",
    "WordSetFacts",
    "digest_hex",
    "edition_badge",
    "edition_from_fields",
    "load_edition_table",
    "parse_edition_lines",
    "read_edition_table",
    "recognise_pack",
]

HEADER_FIELDS = ("lexicon", "words", "sha256_of_sorted_words")
ALPHABET_FIELD = "alphabet"  # optional, after the name; absent: English
_COUNTS_HEADER = re.compile(r"words_by_length_2_to_([0-9]{1,2})")
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]*")
_HEX_DIGEST = re.compile(r"[0-9a-f]{64}")
MAX_NAME_CHARS = 32
MAX_EDITION_WORDS = 10_000_000  # ten times the largest word list anyone publishes
MAX_TABLE_BYTES = 1 << 20  # a table of a thousand editions is ~150 kB
MAX_TABLE_EDITIONS = 5000
DIGEST_PREFIX = "sha256:"
BUILT_IN_SOURCE = "the built-in table"
CARRIED_SOURCE = "the pack"  # a line a pack's manifest carries, until a trusted signer vouches for it
# A known edition is "of similar size" when its number of words is within this many percent of the
# set's, and close enough to describe when the words by length differ by no more than that in all.
CLOSE_PERCENT = 5
MAX_LENGTHS_DESCRIBED = 6
MAX_CLOSEST_SHOWN = 3


def digest_hex(digest: str) -> str:
    """The hex digits of a set digest given as ``sha256:HEX`` or ``HEX`` (lower case)."""
    text = digest.strip().lower()
    return text[len(DIGEST_PREFIX) :] if text.startswith(DIGEST_PREFIX) else text


@dataclass(frozen=True)
class WordSetFacts:
    """A word set as the verification walk proved it: digest, size and words by length."""

    set_hash: str  # "sha256:" + hex, the definition above
    word_count: int
    counts_by_length: tuple[tuple[int, int], ...]  # (length, words), lengths ascending, no zeros

    @classmethod
    def of(cls, set_hash: str, word_count: int, counts: Mapping[int, int]) -> WordSetFacts:
        return cls(set_hash, word_count, tuple(sorted((k, v) for k, v in counts.items() if v)))

    @property
    def digest(self) -> str:
        return digest_hex(self.set_hash)


@dataclass(frozen=True)
class KnownEdition:
    """One published word set: a line of a table of known editions."""

    name: str
    words: int
    sha256: str  # hex, lower case
    counts_by_length: tuple[tuple[int, int], ...]  # (length, words), lengths ascending, no zeros
    source: str = BUILT_IN_SOURCE
    """Where the line came from: the built-in table, an organiser's file, or a signed pack."""
    alphabet: str = "english"
    """The alphabet its words are spelt in (``kiosk.core.words.alphabet``): FISE2009 is spanish."""

    @property
    def title(self) -> str:
        """``NWL2023 (196,601 words)``."""
        return f"{self.name} ({self.words:,} words)"

    def to_json(self) -> dict[str, object]:
        """The line as a pack's manifest carries it (no source: the pack's signer is its source)."""
        return {
            "name": self.name,
            "words": self.words,
            "sha256": self.sha256,
            "counts_by_length": {str(k): v for k, v in self.counts_by_length},
        }

    def tsv_line(self, longest: int = 15) -> str:
        counts = dict(self.counts_by_length)
        columns = ",".join(str(counts.get(length, 0)) for length in range(MIN_WORD_LETTERS, longest + 1))
        return f"{self.name}\t{self.words}\t{self.sha256}\t{columns}"


@dataclass(frozen=True)
class Closeness:
    """How a set differs from one known edition, length by length (more or fewer words)."""

    edition: KnownEdition
    differences: tuple[tuple[int, int], ...]  # (length, ours minus theirs), lengths ascending, no zeros

    @property
    def distance(self) -> int:
        return sum(abs(d) for _, d in self.differences)

    def describe(self, t: Catalogue | None = None) -> str:
        """``3 fewer 7-letter words, 1 more 9-letter word``, or what equal counts mean; in the
        language of ``t`` (English by default)."""
        t = t or english()
        if not self.differences:
            return t.text("as many words of every length, but not the same words")
        parts = [
            t.plural(
                "{count} more {length}-letter word", "{count} more {length}-letter words", d, length=length
            )
            if d > 0
            else t.plural(
                "{count} fewer {length}-letter word", "{count} fewer {length}-letter words", -d, length=length
            )
            for length, d in self.differences[:MAX_LENGTHS_DESCRIBED]
        ]
        rest = len(self.differences) - MAX_LENGTHS_DESCRIBED
        if rest > 0:
            parts.append(
                t.plural(
                    "and differences at {count} other length",
                    "and differences at {count} other lengths",
                    rest,
                )
            )
        return ", ".join(parts)

    def sentence(self) -> str:
        """``3 fewer 7-letter words than CSW21``: for one edition named on its own."""
        if not self.differences:
            return f"as many words of every length as {self.edition.name}, but not the same words"
        return f"{self.describe()} than {self.edition.name}"


@dataclass(frozen=True)
class Recognition:
    """What a word set is: a known edition (by digest), or none and the closest of similar size."""

    facts: WordSetFacts
    edition: KnownEdition | None
    closest: tuple[Closeness, ...] = ()

    @property
    def matched(self) -> bool:
        return self.edition is not None

    def sentence(self, t: Catalogue | None = None) -> str:
        """One line for an organiser: ``matches NWL2023 as published (196,601 words)``, or how it
        differs; in the language of ``t`` (English by default)."""
        t = t or english()
        if self.edition is not None:
            size = counted(self.edition.words, "word", "words", t)
            return t.text("matches {edition} as published ({size})", edition=self.edition.name, size=size)
        size = counted(self.facts.word_count, "word", "words", t)
        if not self.closest:
            return t.text("matches no known edition ({size}; none of similar size)", size=size)
        closest = "; ".join(f"{c.edition.title}: {c.describe(t)}" for c in self.closest)
        return t.text("matches no known edition ({size}); closest: {closest}", size=size, closest=closest)


def _counts_difference(
    ours: Iterable[tuple[int, int]], theirs: Iterable[tuple[int, int]]
) -> tuple[tuple[int, int], ...]:
    mine, other = dict(ours), dict(theirs)
    lengths = sorted(set(mine) | set(other))
    return tuple((n, mine.get(n, 0) - other.get(n, 0)) for n in lengths if mine.get(n, 0) != other.get(n, 0))


def _within(count: int, reference: int) -> bool:
    return abs(count) * 100 <= reference * CLOSE_PERCENT


@dataclass(frozen=True)
class EditionTable:
    """Every known edition a station or a build recognises: the built-in table, then any added."""

    editions: tuple[KnownEdition, ...] = ()

    def find(self, wanted: str) -> KnownEdition | None:
        """The edition named ``wanted`` (any case), or whose digest it is (``sha256:HEX`` or ``HEX``)."""
        key = wanted.strip()
        digest = digest_hex(key)
        for edition in self.editions:
            if edition.name.casefold() == key.casefold() or edition.sha256 == digest:
                return edition
        return None

    def recognise(self, facts: WordSetFacts, alphabet: str | None = None) -> Recognition:
        """The edition whose digest is the set's, else the closest editions of similar size (of
        ``alphabet``, when given: an Italian set is never described against FISE2009)."""
        for edition in self.editions:
            if edition.sha256 == facts.digest:
                return Recognition(facts, edition)
        candidates = [
            Closeness(edition, _counts_difference(facts.counts_by_length, edition.counts_by_length))
            for edition in self.editions
            if _within(facts.word_count - edition.words, edition.words)
            and (alphabet is None or edition.alphabet == alphabet)
        ]
        close = [c for c in candidates if _within(c.distance, c.edition.words)]
        if not close:
            return Recognition(facts, None)
        best = min(c.distance for c in close)
        return Recognition(facts, None, tuple(c for c in close if c.distance == best)[:MAX_CLOSEST_SHOWN])

    def with_lines(self, added: Iterable[KnownEdition]) -> EditionTable:
        """This table and ``added`` after it; raise EditionTableError on a line that contradicts one.

        A name stands for one set and a set has one name: the same line twice is kept once, a name
        with another digest (or a digest under another name) is refused, naming both sources.
        """
        editions = list(self.editions)
        for line in added:
            clash = next(
                (e for e in editions if e.name.casefold() == line.name.casefold() or e.sha256 == line.sha256),
                None,
            )
            if clash is None:
                editions.append(line)
            elif clash.name.casefold() != line.name.casefold() or clash.sha256 != line.sha256:
                what = "another word set" if clash.name.casefold() == line.name.casefold() else "the same set"
                raise EditionTableError(
                    f"{line.source}: {line.name} is given for {what} than {clash.name} in "
                    f"{clash.source} (digest {line.sha256[:16]}… against {clash.sha256[:16]}…); a name "
                    "stands for one word set: rename the line or take it out"
                )
        return EditionTable(tuple(editions))


def edition_from_fields(
    name: str,
    words: int,
    sha256: str,
    counts: Mapping[int, int],
    source: str,
    where: str,
    alphabet: str = "english",
) -> KnownEdition:
    """A checked line; raise EditionTableError naming ``where`` (the file and line)."""
    from kiosk.core.words.alphabet import alphabets  # the profiles' names, only when a table is read

    if alphabet not in alphabets():
        raise EditionTableError(
            f"{where}: the alphabet {alphabet[:40]!r} is not one this program knows "
            f"({', '.join(alphabets())})"
        )
    if len(name) > MAX_NAME_CHARS or _NAME.fullmatch(name) is None:
        raise EditionTableError(
            f"{where}: the name {name[:40]!r} is not one a station can show: use up to {MAX_NAME_CHARS} "
            "letters, digits and . _ + - (e.g. NWL2023 or OWL2.1)"
        )
    if not 1 <= words <= MAX_EDITION_WORDS:
        raise EditionTableError(
            f"{where}: {words} words is not the size of a word list (1 to {MAX_EDITION_WORDS:,})"
        )
    digest = sha256.lower()
    if _HEX_DIGEST.fullmatch(digest) is None:
        raise EditionTableError(
            f"{where}: {sha256[:70]!r} is not a SHA-256 digest (64 hex digits, as "
            "'LC_ALL=C sort -u list.txt | sha256sum' prints it)"
        )
    if sum(counts.values()) != words:
        raise EditionTableError(
            f"{where}: the words by length add up to {sum(counts.values()):,}, not the {words:,} words "
            "the line gives; copy the line again"
        )
    return KnownEdition(
        name, words, digest, tuple(sorted((k, v) for k, v in counts.items() if v)), source, alphabet
    )


def _header_lengths(line: str, where: str) -> tuple[int, bool]:
    """The longest length the header's counts go to, and whether it has an alphabet column."""
    fields = [f.strip() for f in line.split("\t")]
    alphabet = len(fields) == len(HEADER_FIELDS) + 2 and fields[1] == ALPHABET_FIELD
    if alphabet:
        del fields[1]
    if (
        len(fields) != len(HEADER_FIELDS) + 1
        or tuple(fields[:3]) != HEADER_FIELDS
        or (counts := _COUNTS_HEADER.fullmatch(fields[3])) is None
        or not MIN_WORD_LETTERS <= int(counts.group(1)) <= MAX_WORD_LETTERS
    ):
        raise EditionTableError(
            f"{where}: the first line that is not a comment must be the header "
            f"'lexicon<TAB>words<TAB>sha256_of_sorted_words<TAB>words_by_length_2_to_15' (tab-separated; "
            f"an alphabet column may follow lexicon), not {line[:80]!r}"
        )
    return int(counts.group(1)), alphabet


def parse_edition_lines(text: str, *, where: str, source: str | None = None) -> tuple[KnownEdition, ...]:
    """Read a table of known editions; raise EditionTableError naming the file, the line and the fix."""
    source = where if source is None else source
    longest: int | None = None
    with_alphabet = False
    editions: list[KnownEdition] = []
    for number, raw in enumerate(text.removeprefix("\ufeff").splitlines(), start=1):
        line = raw.rstrip("\r")
        here = f"{where}:{number}"
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if longest is None:
            longest, with_alphabet = _header_lengths(line, here)
            continue
        fields = line.split("\t")
        alphabet = "english"
        if with_alphabet and len(fields) == 5:
            alphabet = fields.pop(1).strip()
        if len(fields) != 4:
            wanted = "5 (lexicon, alphabet, words" if with_alphabet else "4 (lexicon, words"
            raise EditionTableError(
                f"{here}: {len(fields) + with_alphabet} tab-separated fields; a line has {wanted}, "
                "sha256_of_sorted_words, words_by_length): check that the separators are tabs"
            )
        name, words_text, digest, counts_text = (f.strip() for f in fields)
        columns = counts_text.split(",")
        expected = longest - MIN_WORD_LETTERS + 1
        if not words_text.isdecimal() or not all(c.strip().isdecimal() for c in columns):
            raise EditionTableError(f"{here}: the words and the words by length must be whole numbers")
        if len(columns) != expected:
            raise EditionTableError(
                f"{here}: {len(columns)} counts by length; the header gives {expected} "
                f"(lengths {MIN_WORD_LETTERS} to {longest}), separated by commas"
            )
        counts = {MIN_WORD_LETTERS + i: int(c) for i, c in enumerate(columns)}
        edition = edition_from_fields(name, int(words_text), digest, counts, source, here, alphabet)
        for other in editions:
            if other.name.casefold() == edition.name.casefold() or other.sha256 == edition.sha256:
                raise EditionTableError(
                    f"{here}: {edition.name} repeats {other.name} (the same name or the same digest); "
                    "each edition appears once"
                )
        editions.append(edition)
        if len(editions) > MAX_TABLE_EDITIONS:
            raise EditionTableError(f"{where}: more than {MAX_TABLE_EDITIONS:,} editions; split the table")
    if longest is None:
        raise EditionTableError(
            f"{where} holds no header line; a table of known editions starts with "
            "'lexicon<TAB>words<TAB>sha256_of_sorted_words<TAB>words_by_length_2_to_15'"
        )
    return tuple(editions)


def _other_kind(data: bytes, path: Path) -> Text | None:
    """What a file that is not a table is (a pack, a zip, a UTF-16 text...), as the one recogniser
    of file kinds says it; None for text, whose mistakes the table's reader names by line."""
    from kiosk.core.files.kind import Role, refusal_for_bytes  # only on the way out

    return refusal_for_bytes(data, str(path), Role.EDITION_TABLE)


def read_edition_table(path: Path, *, source: str | None = None) -> tuple[KnownEdition, ...]:
    """Read a table file (the built-in one, or an organiser's); raise EditionTableError naming it."""
    try:
        status = path.stat()
        if stat.S_ISDIR(status.st_mode):
            raise EditionTableError(
                marked("{path} is a folder, not a table of known editions; give a file inside it"), path=path
            )
        if not stat.S_ISREG(status.st_mode):  # a named pipe would never end, a device never start
            raise EditionTableError(
                marked(
                    "{path} is a device or other special file, not a table of known editions; give the "
                    "name of an ordinary file"
                ),
                path=path,
            )
        with path.open("rb") as stream:
            data = stream.read(MAX_TABLE_BYTES + 1)
    except FileNotFoundError as exc:
        raise EditionTableError(
            marked("{path} does not exist; check the path of the table of known editions"), path=path
        ) from exc
    except OSError as exc:
        raise EditionTableError(
            marked("{path} cannot be read: {detail}"), path=path, detail=exc.strerror
        ) from exc
    if len(data) > MAX_TABLE_BYTES:
        raise EditionTableError(
            _other_kind(data, path)
            or Wording.counting(
                "{path} is larger than {count} byte: a table of known editions holds facts, not word "
                "lists; give the table, not the list",
                "{path} is larger than {count} bytes: a table of known editions holds facts, not word "
                "lists; give the table, not the list",
                MAX_TABLE_BYTES,
                path=path,
            )
        )
    try:
        return parse_edition_lines(data.decode("utf-8"), where=str(path), source=source)
    except UnicodeDecodeError as exc:
        raise EditionTableError(
            _other_kind(data, path)
            or Wording(
                marked("{path} is not UTF-8 text (byte {byte}); save it as UTF-8"), path=path, byte=exc.start
            )
        ) from exc
    except EditionTableError as exc:
        raise EditionTableError(_other_kind(data, path) or exc.wording) from exc


def load_edition_table(built_in: Path | Sequence[Path], added: Sequence[Path] = ()) -> EditionTable:
    """The built-in tables (``kiosk.paths.built_in_edition_paths``), then each added file in order;
    raise EditionTableError naming the file."""
    table = EditionTable()
    for path in [built_in] if isinstance(built_in, Path) else built_in:
        table = table.with_lines(read_edition_table(path, source=BUILT_IN_SOURCE))
    for path in added:
        table = table.with_lines(read_edition_table(path))
    return table


@dataclass(frozen=True)
class Expectation:
    """An edition a recipe or a division requires: a known edition's name, or a set digest."""

    text: str
    digest: str  # hex
    edition: KnownEdition | None

    @classmethod
    def parse(cls, text: str, table: EditionTable, *, where: Text) -> Expectation:
        """Read ``expect = "NWL2023"`` or ``expect = "sha256:…"``; EditionTableError if neither."""
        edition = table.find(text)
        if edition is not None:
            return cls(text, edition.sha256, edition)
        digest = digest_hex(text)
        if _HEX_DIGEST.fullmatch(digest) is not None:
            return cls(text, digest, None)
        # TRANSLATORS: after "Known editions:" when there is none: agrees with "editions"
        known = ", ".join(e.name for e in table.editions) or Wording(marked("none"))
        raise EditionTableError(
            marked(
                "{where}: expect = {value} is neither a known edition nor a set digest (sha256: and 64 hex "
                "digits). Known editions: {known}. Add the edition to a table of known editions "
                "(known_editions), or give the digest of its set"
            ),
            where=where,
            value=repr(text[:60]),
            known=known,
        )

    @property
    def label(self) -> Text:
        if self.edition is not None:
            return self.edition.name
        return Wording(marked("the word set {digest}"), digest=f"sha256:{self.digest[:16]}\u2026")

    def met_by(self, sets: Iterable[WordSetFacts]) -> bool:
        return any(facts.digest == self.digest for facts in sets)

    def shortfall(self, sets: Sequence[WordSetFacts]) -> str:
        """How the closest of ``sets`` falls short: ``it has 3 fewer 7-letter words than CSW21``."""
        if self.edition is None:
            shown = "; ".join(f"sha256:{f.digest[:16]}… ({f.word_count:,} words)" for f in sets)
            return f"its word set is {shown}"
        edition = self.edition
        best = min(
            (
                Closeness(edition, _counts_difference(f.counts_by_length, edition.counts_by_length))
                for f in sets
            ),
            key=lambda c: c.distance,
        )
        return f"it has {best.sentence()}"


@dataclass(frozen=True)
class PackRecognition:
    """A pack's sets recognised: the whole set, and with a youth list the set a youth division uses.

    ``notes`` say what a judge or an organiser should know: edition lines the pack carries that
    were not used (unsigned, or contradicting the table). ``claimed`` is a known edition the
    pack's own name or edition names although its set is not that edition ("NWL2023", typed on a
    list with three words missing).
    """

    full: Recognition
    school: Recognition | None = None
    notes: tuple[Text, ...] = ()
    claimed: KnownEdition | None = None

    def ruling(self, youth: bool) -> Recognition:
        """The set a division rules with: the school set under youth rules, else the whole set."""
        return self.school if youth and self.school is not None else self.full

    def lines(self, t: Catalogue | None = None) -> list[str]:
        """For organisers and judges: a line per set, then the notes; in the language of ``t``
        (English by default)."""
        t = t or english()
        lines = [t.text("word set: {sentence}", sentence=self.full.sentence(t))]
        if self.school is not None:
            lines.append(t.text("with the youth list applied: {sentence}", sentence=self.school.sentence(t)))
        return lines + [t.text("note: {note}", note=t.say(note)) for note in self.notes]


_NAME_TOKEN = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]*")


def recognise_pack(
    table: EditionTable,
    full: WordSetFacts,
    school: WordSetFacts | None,
    *,
    carried: Sequence[KnownEdition] = (),
    vouched_by: str | None = None,
    title: str = "",
    alphabet: str | None = None,
) -> PackRecognition:
    """Recognise a pack's sets. ``carried`` are the edition lines of its manifest, believed only
    when ``vouched_by`` names the trusted signer; ``title`` is its name and edition, as typed;
    ``alphabet`` its alphabet's name (a set unrecognised is described against its own alphabet's
    editions only)."""
    notes: list[Text] = []
    if carried and vouched_by is not None:
        source = f"the pack, signed by {vouched_by}"
        for line in carried:
            try:
                table = table.with_lines(
                    [KnownEdition(line.name, line.words, line.sha256, line.counts_by_length, source)]
                )
            except EditionTableError as exc:
                notes.append(
                    Wording(
                        marked("its edition line for {edition} is not used: {problem}"),
                        edition=line.name,
                        problem=exc.wording,
                    )
                )
    elif carried:
        names = ", ".join(line.name for line in carried)
        notes.append(
            Wording(
                marked(
                    "it carries an edition line for {editions}, which a station believes only from a pack "
                    "signed by a key it trusts"
                ),
                editions=names,
            )
        )
    recognised = (
        table.recognise(full, alphabet),
        None if school is None else table.recognise(school, alphabet),
    )
    # A name that names a known edition its sets are not: a short list called "NWL2023", or last
    # year's edition renamed. (A youth pack named for either of its sets names what it is.)
    proven = {r.edition for r in recognised if r is not None and r.edition is not None}
    claimed = None
    for token in _NAME_TOKEN.findall(title):
        named = table.find(token) if _HEX_DIGEST.fullmatch(token.lower()) is None else None
        if named is not None:
            claimed = None if named in proven else named
            break
    if claimed is not None:
        notes.append(
            Wording(
                marked(
                    "its name says {edition}, but its words are not the {edition} word set: it was built "
                    "from another list, or the name was typed on another edition"
                ),
                edition=claimed.name,
            )
        )
    return PackRecognition(full=recognised[0], school=recognised[1], notes=tuple(notes), claimed=claimed)


@dataclass(frozen=True)
class EditionBadge:
    """The line the ready screen shows under the lexicon's name, for players and directors."""

    text: str
    published: bool  # the set that rules is a known edition: good news, unless...
    warning: bool  # ...the pack's name claims a known edition its set is not: shown as a notice


def edition_badge(
    recognition: PackRecognition, youth: bool, pack_name: str, t: Catalogue | None = None
) -> EditionBadge:
    """``NWL2023 ✓ published word set``, ``Club list — not a published edition``, or a warning
    when the name claims an edition the set is not (``NWL2020 word set — not NWL2023 as named``),
    in the language of ``t`` (English by default)."""
    t = t or english()
    ruling = recognition.ruling(youth)
    claimed = recognition.claimed
    if ruling.edition is not None and claimed is not None:
        text = t.text(
            "{edition} word set \u2014 not {claimed} as named",
            edition=ruling.edition.name,
            claimed=claimed.name,
        )
        return EditionBadge(text, published=True, warning=True)
    if ruling.edition is not None:
        text = t.text("{edition} \u2713 published word set", edition=ruling.edition.name)
        return EditionBadge(text, published=True, warning=False)
    full = recognition.full.edition
    if youth and full is not None:
        text = t.text("{edition} \u2713 published word set, with a youth list of its own", edition=full.name)
        return EditionBadge(text, published=True, warning=False)
    if claimed is not None:
        text = t.text("\u2717 not the published {claimed} word set", claimed=claimed.name)
        return EditionBadge(text, published=False, warning=True)
    text = t.text("{lexicon} \u2014 not a published edition", lexicon=pack_name)
    return EditionBadge(text, published=False, warning=False)
