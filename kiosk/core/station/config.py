"""The station configuration: one TOML file an organiser copies onto every station.

Example (every key is optional; paths are relative to the file)::

    station_name = "Station 3"
    touch = false                  # on-screen keyboard, visible pointer
    screen = 0                     # which screen to fill
    database_url = "postgresql+psycopg://kiosk@judges.local/challenges"   # shared log (big events)
    data_dir = "/var/lib/challenge-kiosk"
    known_editions = ["our-editions.tsv"]   # editions to recognise beside the built-in table

    ask_table = false              # true: each challenge asks for the table number
    language = "en"                # what players and judges read: "en", or a catalogue's code ("fr", "ca")
    [rules]
    profile = "penalty"            # "double", "penalty", "per_turn", "escalating" or "free"
    points_per_word = 5            # penalty: points for every word challenged
    points_per_challenge = 10      # per_turn: points per unsuccessful challenge
    escalation = [5, 10, 20]       # escalating: points for 1, 2, 3 or more words
    penalty = "challenger_loses"   # or "challenged_gains", or "both" (the IMU rule)
    name = "swedish"               # optional: the profile's own name, written into the log
    [rules.words]                  # optional: the profile's own words (see kiosk.core.play.rules)
    unsuccessful_headline = "Unsuccessful challenge: {points} points"

    [timings]
    key_lockout_ms = 500
    verdict_display_ms = 10000
    idle_entry_ms = 15000          # quiet time before the entry warns (it then clears 20 s later)

    [access]                       # for players who cannot read the screen as it is
    speech = false                 # say every step aloud (espeak-ng; headphones in the jack); F1 repeats
    high_contrast = false          # white on black, yellow notices, no dim grey
    large_text = false             # one line less of everything, every line larger

    [[divisions]]
    name = "Open"
    pack = "csw.kxpack"
    colour = "#1f5fbf"
    second_opinion_pack = "nwl.kxpack"
    expect = "CSW24"               # refuse any pack (at start or on a reload) that is not CSW24

    [[divisions]]
    name = "Schools"
    pack = "school.kxpack"
    youth_rules = true
    language = "fr"                # this division's screens in French (default: the station's)

    [judge]
    idle_lock_seconds = 60

    [[trusted_keys]]
    name = "Tournament director"
    public_key = "base64 of the 32 raw Ed25519 bytes"

Unknown keys are refused by name (a misspelt ``youth_rule`` must not silently judge without youth
rules); only ``[judge]`` keeps keys this build does not know, for the judge-mode work.

``expect`` pins a division's edition: a known edition's name, or ``"sha256:"`` and a set digest.
A pack whose set is not that one (or, under youth rules, whose set with its youth list applied is
not) is refused at start-up and by a judge's reload, with how it differs by length.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from kiosk.core.edition import EditionTable, Expectation, PackRecognition, recognise_pack
from kiosk.core.errors import ConfigError, EditionTableError, PackEditionError, PackError
from kiosk.core.files.kind import Role, refusal_for_bytes
from kiosk.core.packs.lexicon import LoadingLexicon, MarisaLexicon, start_loading
from kiosk.core.packs.trust import SignatureStatus, TrustedKey, trusted_keys_from_config
from kiosk.core.packs.verification import PackWalker
from kiosk.core.play.adjudication import MAX_WORDS_PER_CHALLENGE
from kiosk.core.play.rules import (
    DEFAULT_ESCALATION,
    DEFAULT_POINTS_PER_CHALLENGE,
    DEFAULT_POINTS_PER_WORD,
    MAX_POINTS,
    WORD_KEYS,
    PenaltyParty,
    ProfileKind,
    RuleProfile,
    check_template,
)
from kiosk.core.wording import Text, Wording
from kiosk.core.words.language import DEFAULT_LANGUAGE, Catalogue, checked_language, load_catalogue, marked

__all__ = [
    "DEFAULT_COLOURS",
    "DEFAULT_STATION_NAME",
    "Access",
    "Division",
    "DivisionsLoading",
    "JudgeSettings",
    "Languages",
    "LoadedDivision",
    "StationConfig",
    "Timings",
    "Verifier",
    "default_config",
    "edition_problem",
    "load_config",
    "load_divisions",
    "load_languages",
    "parse_config",
    "recognise",
    "second_opinion_problem",
    "start_divisions",
    "stated_language",
    "youth_list_problem",
]

DEFAULT_STATION_NAME = "Challenge station"
DEFAULT_COLOURS = ("#1f5fbf", "#7a3db8", "#a35200", "#00707a", "#8f2f5a", "#3d6b1f")
DEFAULT_KEY_LOCKOUT_MS = 500
DEFAULT_VERDICT_DISPLAY_MS = 10_000
DEFAULT_IDLE_ENTRY_MS = 15_000
DEFAULT_JUDGE_IDLE_LOCK_SECONDS = 60
MAX_TIMING_MS = 600_000
MAX_DIVISIONS = 6
_COLOUR = re.compile(r"#[0-9a-fA-F]{6}")


@dataclass(frozen=True)
class Division:
    name: str
    pack: Path
    youth_rules: bool = False
    colour: str = DEFAULT_COLOURS[0]
    second_opinion_pack: Path | None = None
    expect: str | None = None
    language: str | None = None  # None: the station's language


@dataclass(frozen=True)
class Timings:
    key_lockout_ms: int = DEFAULT_KEY_LOCKOUT_MS
    verdict_display_ms: int = DEFAULT_VERDICT_DISPLAY_MS
    idle_entry_ms: int = DEFAULT_IDLE_ENTRY_MS


@dataclass(frozen=True)
class JudgeSettings:
    idle_lock_seconds: int = DEFAULT_JUDGE_IDLE_LOCK_SECONDS


@dataclass(frozen=True)
class Access:
    """What a station does for players who cannot read its screen as it is: ``speech`` says every
    step aloud in the players' language; ``high_contrast`` and ``large_text`` change the look."""

    speech: bool = False
    high_contrast: bool = False
    large_text: bool = False


@dataclass(frozen=True)
class StationConfig:
    divisions: tuple[Division, ...]
    station_name: str = DEFAULT_STATION_NAME
    rules: RuleProfile = field(default_factory=RuleProfile)
    timings: Timings = field(default_factory=Timings)
    touch: bool = False
    screen: int = 0
    ask_table: bool = False  # each challenge asks for its table number (a step more for players)
    language: str = DEFAULT_LANGUAGE  # what players and judges read; a division may speak its own
    database_url: str | None = None
    data_dir: Path | None = None
    judge: JudgeSettings = field(default_factory=JudgeSettings)
    access: Access = field(default_factory=Access)
    trusted_keys: tuple[TrustedKey, ...] = ()
    known_editions: tuple[Path, ...] = ()
    source: Path | None = None


def default_config(pack: Path) -> StationConfig:
    """The station with no configuration file: one division on the given (embedded) pack."""
    return StationConfig(divisions=(Division(name="Open", pack=pack),))


class _Reader:
    """Typed access to one TOML table, with errors that name the file and the key."""

    def __init__(self, table: Mapping[str, Any], where: Text) -> None:
        self.table = table
        self.where = where

    def fail(self, key: str, wanted: Text) -> ConfigError:
        """``wanted``: a ``Wording`` ("true or false"), said in the screen's language."""
        return ConfigError(
            marked("{where}: '{key}' must be {wanted} (found {found})"),
            where=self.where,
            key=key,
            wanted=wanted,
            found=repr(self.table[key]),
        )

    def check_keys(self, allowed: set[str]) -> None:
        unknown = sorted(set(self.table) - allowed)
        if unknown:
            raise ConfigError(
                marked("{where}: unknown key {key}; the keys here are: {keys}"),
                where=self.where,
                key=repr(unknown[0]),
                keys=", ".join(sorted(allowed)),
            )

    def string(self, key: str, default: str | None = None) -> str | None:
        value = self.table.get(key, default)
        if value is not None and (not isinstance(value, str) or not value.strip()):
            raise self.fail(key, Wording(marked("a non-empty string in quotes")))
        return value

    def boolean(self, key: str, default: bool) -> bool:
        value = self.table.get(key, default)
        if not isinstance(value, bool):
            raise self.fail(key, Wording(marked("true or false")))
        return value

    def integer(self, key: str, default: int, low: int, high: int) -> int:
        value = self.table.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise self.fail(key, Wording(marked("a whole number from {low} to {high}"), low=low, high=high))
        return value

    def choice(self, key: str, default: str, choices: list[str]) -> str:
        value = self.table.get(key, default)
        if value not in choices:
            raise self.fail(
                key, Wording(marked("one of {choices}"), choices=", ".join(f'"{c}"' for c in choices))
            )
        return str(value)

    def tables(self, key: str) -> list[Mapping[str, Any]]:
        value = self.table.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
            raise self.fail(key, Wording(marked("a list of tables, written [[{key}]]"), key=key))
        return value

    def sub(self, key: str) -> _Reader:
        value = self.table.get(key, {})
        if not isinstance(value, dict):
            raise self.fail(key, Wording(marked("a table, written [{key}]"), key=key))
        return _Reader(value, f"{self.where} [{key}]")


def _path(base: Path, text: str) -> Path:
    path = Path(text).expanduser()
    return path if path.is_absolute() else base / path


def _rules(reader: _Reader) -> RuleProfile:
    reader.check_keys(
        {"profile", "name", "points_per_word", "points_per_challenge", "escalation", "penalty", "words"}
    )
    kind = ProfileKind(reader.choice("profile", "double", [k.value for k in ProfileKind]))
    points = reader.integer("points_per_word", DEFAULT_POINTS_PER_WORD, 1, MAX_POINTS)
    per_challenge = reader.integer("points_per_challenge", DEFAULT_POINTS_PER_CHALLENGE, 1, MAX_POINTS)
    escalation = reader.table.get("escalation", list(DEFAULT_ESCALATION))
    if (
        not isinstance(escalation, list)
        or not all(type(step) is int for step in escalation)
        or not 0 < len(escalation) <= MAX_WORDS_PER_CHALLENGE
    ):
        raise reader.fail(
            "escalation",
            Wording(
                marked(
                    "a list of 1 to {most} whole numbers: the points for one word, two words, ... (the "
                    "last one counts for more words), e.g. [5, 10, 20]"
                ),
                most=MAX_WORDS_PER_CHALLENGE,
            ),
        )
    party = PenaltyParty(reader.choice("penalty", "challenger_loses", [p.value for p in PenaltyParty]))
    label = reader.string("name") or ""
    words_reader = reader.sub("words")
    words_reader.check_keys(set(WORD_KEYS))
    words = []
    for key in WORD_KEYS:
        text = words_reader.string(key)
        if text is not None:
            words.append((key, check_template(text, f"{words_reader.where} {key}")))
    try:
        return RuleProfile(
            kind=kind,
            points_per_word=points,
            penalty_party=party,
            points_per_challenge=per_challenge,
            escalation=tuple(escalation),
            label=label.strip(),
            words=tuple(words),
        )
    except ConfigError as exc:
        raise ConfigError(marked("{where}: {problem}"), where=reader.where, problem=exc.wording) from exc


def _timings(reader: _Reader) -> Timings:
    reader.check_keys({"key_lockout_ms", "verdict_display_ms", "idle_entry_ms"})
    lockout = reader.integer("key_lockout_ms", DEFAULT_KEY_LOCKOUT_MS, 0, MAX_TIMING_MS)
    display = reader.integer("verdict_display_ms", DEFAULT_VERDICT_DISPLAY_MS, 1000, MAX_TIMING_MS)
    idle = reader.integer("idle_entry_ms", DEFAULT_IDLE_ENTRY_MS, 1000, MAX_TIMING_MS)
    if lockout >= display:
        raise ConfigError(
            marked("{where}: key_lockout_ms ({lockout}) must be shorter than verdict_display_ms ({display})"),
            where=reader.where,
            lockout=lockout,
            display=display,
        )
    return Timings(key_lockout_ms=lockout, verdict_display_ms=display, idle_entry_ms=idle)


def _divisions(reader: _Reader, base: Path, default_pack: Path) -> tuple[Division, ...]:
    tables = reader.tables("divisions")
    if not tables:
        return (Division(name="Open", pack=default_pack),)
    if len(tables) > MAX_DIVISIONS:
        raise ConfigError(
            marked("{where}: {count} divisions; one station serves at most {most}"),
            where=reader.where,
            count=len(tables),
            most=MAX_DIVISIONS,
        )
    divisions = []
    for number, table in enumerate(tables, start=1):
        sub = _Reader(table, Wording(marked("{where} division {number}"), where=reader.where, number=number))
        sub.check_keys({"name", "pack", "youth_rules", "colour", "second_opinion_pack", "expect", "language"})
        name = sub.string("name")
        if name is None:
            raise ConfigError(marked('{where}: give it a name, e.g. name = "Open"'), where=sub.where)
        pack_text = sub.string("pack")
        colour = sub.string("colour", DEFAULT_COLOURS[(number - 1) % len(DEFAULT_COLOURS)])
        assert colour is not None
        if _COLOUR.fullmatch(colour) is None:
            raise sub.fail("colour", Wording(marked('a colour written "#rrggbb", e.g. "#1f5fbf"')))
        second = sub.string("second_opinion_pack")
        language = sub.string("language")
        divisions.append(
            Division(
                name=name.strip(),
                pack=default_pack if pack_text is None else _path(base, pack_text),
                youth_rules=sub.boolean("youth_rules", False),
                colour=colour.lower(),
                second_opinion_pack=None if second is None else _path(base, second),
                expect=sub.string("expect"),
                language=None
                if language is None
                else checked_language(
                    language, where=Wording(marked("{where}: {key}"), where=sub.where, key="language")
                ),
            )
        )
    names = [d.name.casefold() for d in divisions]
    duplicate = next((d.name for d in divisions if names.count(d.name.casefold()) > 1), None)
    if duplicate is not None:
        raise ConfigError(
            marked("{where}: two divisions are named {name}; give each its own name"),
            where=reader.where,
            name=repr(duplicate),
        )
    return tuple(divisions)


def parse_config(text: str, *, where: str, base: Path, default_pack: Path) -> StationConfig:
    """Parse configuration text; ``base`` is the folder relative paths start from."""
    import tomllib  # only stations with a configuration file pay for the TOML parser

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(
            marked("{where} is not valid TOML: {detail}"), where=where, detail=str(exc)
        ) from exc
    top = _Reader(data, where)
    top.check_keys(
        {
            "station_name",
            "touch",
            "screen",
            "ask_table",
            "language",
            "database_url",
            "data_dir",
            "rules",
            "timings",
            "divisions",
            "judge",
            "access",
            "trusted_keys",
            "known_editions",
        }
    )
    judge = top.sub("judge")
    judge.check_keys({"idle_lock_seconds"})
    access = top.sub("access")
    access.check_keys({"speech", "high_contrast", "large_text"})
    data_dir = top.string("data_dir")
    station_name = top.string("station_name", DEFAULT_STATION_NAME)
    assert station_name is not None
    return StationConfig(
        divisions=_divisions(top, base, default_pack),
        station_name=station_name.strip(),
        rules=_rules(top.sub("rules")),
        timings=_timings(top.sub("timings")),
        touch=top.boolean("touch", False),
        screen=top.integer("screen", 0, 0, 15),
        ask_table=top.boolean("ask_table", False),
        language=checked_language(
            top.string("language", DEFAULT_LANGUAGE) or "",
            where=Wording(marked("{where}: {key}"), where=where, key="language"),
        ),
        database_url=top.string("database_url"),
        data_dir=None if data_dir is None else _path(base, data_dir),
        judge=JudgeSettings(
            idle_lock_seconds=judge.integer("idle_lock_seconds", DEFAULT_JUDGE_IDLE_LOCK_SECONDS, 5, 3600)
        ),
        access=Access(
            speech=access.boolean("speech", False),
            high_contrast=access.boolean("high_contrast", False),
            large_text=access.boolean("large_text", False),
        ),
        trusted_keys=trusted_keys_from_config(top.table.get("trusted_keys", []), where),
        known_editions=_tables(top, base),
    )


def _tables(reader: _Reader, base: Path) -> tuple[Path, ...]:
    value = reader.table.get("known_editions", [])
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise reader.fail(
            "known_editions", Wording(marked('a list of file names in quotes, e.g. ["our-editions.tsv"]'))
        )
    return tuple(_path(base, v) for v in value)


def load_config(path: Path, *, default_pack: Path) -> StationConfig:
    """Read a station configuration file; raise ConfigError naming the file and the problem.

    A file of another kind (a pack, a recipe, a .pub key, an empty file...) is refused with what it
    is and what to do with it: an empty file must not start a station on the demo pack.
    """
    try:
        data = path.read_bytes()
    except FileNotFoundError as exc:
        raise ConfigError(marked("{path} does not exist; check the --config path"), path=path) from exc
    except OSError as exc:
        raise ConfigError(marked("{path} cannot be read: {detail}"), path=path, detail=exc.strerror) from exc
    problem = refusal_for_bytes(data, str(path), Role.STATION_CONFIG)
    if problem is not None:
        raise ConfigError(problem)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(marked("{path} is not UTF-8 text; save it as UTF-8"), path=path) from exc
    config = parse_config(text, where=str(path), base=path.resolve().parent, default_pack=default_pack)
    return replace(config, source=path)


_STATED_LANGUAGE = re.compile(r"""language\s*=\s*["']([A-Za-z]{2,3}(?:_[A-Za-z]{2})?)["']\s*(?:#.*)?""")


def stated_language(path: Path) -> str | None:
    """The station's language as its configuration states it (``language = "fr"`` before the first
    table), read even when the file has a mistake elsewhere: the not-ready screen names that mistake
    in the language the director asked for. None if it states none the station speaks."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("["):
            return None  # the station's own keys come before its first table
        found = _STATED_LANGUAGE.fullmatch(stripped)
        if found is not None:
            try:
                return checked_language(found.group(1))
            except ConfigError:
                return None
    return None


@dataclass(frozen=True)
class Verifier:
    """How a station checks its packs beyond the digest and the signature: the verification walk
    (whose cache makes a known pack start fast) and the known editions packs are recognised by."""

    walker: PackWalker = field(default_factory=PackWalker)
    editions: EditionTable = field(default_factory=EditionTable)


@dataclass(frozen=True)
class Languages:
    """What the screens speak: the station's catalogue, and each division's (in the configuration's
    order), which is the station's unless the division names its own language."""

    station: Catalogue
    divisions: tuple[Catalogue, ...]


def load_languages(config: StationConfig) -> Languages:
    """Every catalogue the configuration asks for, each read once; ConfigError (naming the file and
    the key) if one is missing from this installation."""
    key = "language"
    station = load_catalogue(
        config.language,
        where=key
        if config.source is None
        else Wording(marked("{where}: {key}"), where=config.source, key=key),
    )
    loaded = {station.language: station}
    for number, division in enumerate(config.divisions, start=1):
        code = division.language
        if code is not None and code not in loaded:
            place = Wording(
                marked("division {number} ({name}): {key}"), number=number, name=division.name, key=key
            )
            loaded[code] = load_catalogue(
                code,
                where=place
                if config.source is None
                else Wording(marked("{where} {place}"), where=config.source, place=place),
            )
    return Languages(
        station=station,
        divisions=tuple(station if d.language is None else loaded[d.language] for d in config.divisions),
    )


@dataclass(frozen=True)
class LoadedDivision:
    """A division with its packs loaded and verified: what the station judges with.

    ``recognition`` is what its pack's word sets are (a published edition or not), proven by the
    walk; ``recognition.ruling(youth_rules)`` the set this division rules with.
    """

    division: Division
    lexicon: MarisaLexicon
    recognition: PackRecognition
    second_opinion: MarisaLexicon | None = None


def recognise(lexicon: MarisaLexicon, editions: EditionTable) -> PackRecognition:
    """A loaded pack's sets recognised; the edition lines it carries count only if its signer is
    one the station trusts."""
    info = lexicon.info
    signed = lexicon.trust.status is SignatureStatus.SIGNED
    return recognise_pack(
        editions,
        info.word_set,
        info.school_word_set,
        carried=info.known_editions,
        vouched_by=lexicon.trust.signer if signed else None,
        title=info.title,
        alphabet=info.alphabet.name,
    )


def edition_problem(
    config: StationConfig, division: Division, lexicon: MarisaLexicon, editions: EditionTable
) -> Text | None:
    """Why this division must not judge with this pack (not the edition it expects), or None."""
    if division.expect is None:
        return None
    where = config.source if config.source is not None else Wording(marked("the station configuration"))
    wanted = Expectation.parse(
        division.expect,
        editions,
        where=Wording(marked("{where}: division {division}"), where=where, division=repr(division.name)),
    )
    info = lexicon.info
    school = info.school_word_set
    sets = [school] if division.youth_rules and school is not None else [info.word_set]
    if wanted.met_by(sets):
        return None
    return Wording(
        marked(
            "{where}: division {division} expects {edition}, but its pack {path} ({title}) is not that "
            "word set: {shortfall}. Use the pack of {edition}, or change expect"
        ),
        where=where,
        division=repr(division.name),
        edition=wanted.label,
        path=division.pack,
        title=info.title,
        shortfall=wanted.shortfall(sets),
    )


def youth_list_problem(config: StationConfig, division: Division, lexicon: MarisaLexicon) -> Text | None:
    """Why this division cannot judge with this pack (youth rules and no youth list), or None."""
    if not division.youth_rules or lexicon.has_youth_list:
        return None
    where = config.source if config.source is not None else Wording(marked("the station configuration"))
    return Wording(
        marked(
            "{where}: division {division} applies youth rules, but its pack {path} has no youth "
            "exclusion list; build one with 'lexicon-build build --youth-exclusions FILE' or set "
            "youth_rules = false"
        ),
        where=where,
        division=repr(division.name),
        path=division.pack,
    )


def second_opinion_problem(
    config: StationConfig, division: Division, lexicon: MarisaLexicon, second: MarisaLexicon
) -> Text | None:
    """Why this division's second opinion cannot be asked (its pack spells words in another
    alphabet: the same keys would be other tiles there), or None."""
    if second.info.alphabet is lexicon.info.alphabet:
        return None
    where = config.source if config.source is not None else Wording(marked("the station configuration"))
    return Wording(
        # TRANSLATORS: {other} and {alphabet} are the alphabets' own messages ("the Spanish
        # alphabet"), as after "a letter of"; {name} is lexicon-build's --alphabet value, as it is.
        marked(
            "{where}: division {division}: its second opinion pack {second} holds words of {other}, "
            "but its pack {path} holds words of {alphabet}: a second opinion must read the same "
            "tiles; give it a pack of {alphabet} (lexicon-build --alphabet {name})"
        ),
        where=where,
        division=repr(division.name),
        second=division.second_opinion_pack,
        other=second.info.alphabet.of_it,
        path=division.pack,
        alphabet=lexicon.info.alphabet.of_it,
        name=lexicon.info.alphabet.name,
    )


def load_divisions(config: StationConfig, verifier: Verifier | None = None) -> tuple[LoadedDivision, ...]:
    """Load and verify every pack the configuration names; raise PackError or ConfigError.

    With ``[[trusted_keys]]`` configured, a pack not signed by one of them is refused; every trie
    is walked (``verifier.walker``) before it is parsed here; a division that expects an edition
    refuses a pack that is not it (PackEditionError, saying how it differs).

    A station must never start with a lexicon that did not load: it would rule every play
    unacceptable. Each pack is read once, however many divisions share it.
    """
    return start_divisions(config, verifier).result()


def start_divisions(config: StationConfig, verifier: Verifier | None = None) -> DivisionsLoading:
    """``load_divisions`` begun: every pack read and its walk started, side by side, in forked
    children where that is safe; ``result()`` waits for them and raises what ``load_divisions``
    raises, in the same order. The station starts Qt meanwhile."""
    checks = verifier if verifier is not None else Verifier()
    started: dict[Path, LoadingLexicon | PackError] = {}
    for path in (p for d in config.divisions for p in (d.pack, d.second_opinion_pack) if p is not None):
        if path not in started:
            try:
                started[path] = start_loading(path, trusted_keys=config.trusted_keys, walker=checks.walker)
            except PackError as exc:  # raised by result(), where loading one by one would raise it
                started[path] = exc
    return DivisionsLoading(config, checks, started)


class DivisionsLoading:
    """Every pack of a configuration being walked; ``result()``: the divisions, verified."""

    def __init__(
        self, config: StationConfig, checks: Verifier, started: dict[Path, LoadingLexicon | PackError]
    ) -> None:
        self.config = config
        self.checks = checks
        self.started = started

    def walking(self) -> bool:
        """Whether a pack's walk is still running (a pack this data directory has not seen before):
        ``result()`` would wait for it."""
        return any(
            isinstance(loading, LoadingLexicon) and not loading.done() for loading in self.started.values()
        )

    def result(self) -> tuple[LoadedDivision, ...]:
        config, checks, started = self.config, self.checks, self.started
        cache: dict[Path, MarisaLexicon] = {}

        def load(path: Path, division: Division, role: str) -> MarisaLexicon:
            if path not in cache:
                try:
                    loading = started[path]
                    if isinstance(loading, PackError):
                        raise loading
                    cache[path] = loading.result()
                except PackError as exc:
                    if config.source is None:
                        raise
                    # The director reads which config line to look at, then what is wrong with the file.
                    raise type(exc)(
                        marked("{where}: division {division}, {key}: {problem}"),
                        where=config.source,
                        division=repr(division.name),
                        key=role,
                        problem=exc.wording,
                    ) from exc
            return cache[path]

        loaded = []
        for division in config.divisions:
            lexicon = load(division.pack, division, "pack")
            problem = youth_list_problem(config, division, lexicon)
            if problem is not None:
                raise ConfigError(problem)
            try:
                problem = edition_problem(config, division, lexicon, checks.editions)
            except EditionTableError as exc:
                raise ConfigError(exc.wording) from exc
            if problem is not None:
                raise PackEditionError(problem)
            second = (
                None
                if division.second_opinion_pack is None
                else load(division.second_opinion_pack, division, "second_opinion_pack")
            )
            problem = None if second is None else second_opinion_problem(config, division, lexicon, second)
            if problem is not None:
                raise ConfigError(problem)
            loaded.append(
                LoadedDivision(
                    division=division,
                    lexicon=lexicon,
                    second_opinion=second,
                    recognition=recognise(lexicon, checks.editions),
                )
            )
        return tuple(loaded)
