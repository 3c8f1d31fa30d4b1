"""The translation catalogues: complete, current, right in their plurals, chosen by configuration."""

from __future__ import annotations

import functools
import gettext
import importlib.util
import pickle
import re
import subprocess
import sys
import types
import unicodedata
from dataclasses import replace
from datetime import datetime
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

import kiosk
from kiosk.core.errors import (
    ConfigError,
    EditionTableError,
    InvalidCharacterError,
    NotAPackError,
    PackVersionError,
    StorageError,
    TileError,
)
from kiosk.core.packs.pack import read_sealed
from kiosk.core.play.adjudication import Verdict
from kiosk.core.play.notice import notice_text, refusal_text
from kiosk.core.play.rules import PenaltyParty, ProfileKind, RuleProfile
from kiosk.core.play.session import Typed, start, transition
from kiosk.core.station.config import Division, StationConfig, load_divisions, load_languages, parse_config
from kiosk.core.wording import Wording
from kiosk.core.words.alphabet import alphabets
from kiosk.core.words.language import language_names, load_catalogue, marked, spoken
from kiosk.core.words.normalise import normalise_word
from kiosk.core.words.plural import counted, one_or_many
from kiosk.storage import open_station_storage
from tests.conftest import PackFactory

LOCALE = Path(kiosk.__file__).parent / "locale"
ROOT = LOCALE.parent.parent
KEYWORDS = {
    "text": None,
    "plural": (1, 2),
    "counted": (2, 3),
    "one_or_many": (2, 3),
    "counting": (1, 2),
    "marked": None,
}


def code_messages() -> set[str]:
    """Every message the code marks (the first form of a plural), read as pybabel extract reads it."""
    found: set[str] = set()
    method_map = [
        ("core/**.py", "python"),
        ("storage/**.py", "python"),
        ("ui/**.py", "python"),
        ("paths.py", "python"),
    ]
    for _, _, message, _, _ in extract_from_dir(str(LOCALE.parent), method_map, keywords=KEYWORDS):
        found.add(message[0] if isinstance(message, tuple) else message)
    return found


def catalogue_messages(path: Path) -> dict[str, object]:
    with path.open("rb") as stream:
        catalogue = read_po(stream)
    found: dict[str, object] = {}
    for message in catalogue:
        if message.id:
            found[str(message.id[0] if isinstance(message.id, tuple | list) else message.id)] = message.string
    return found


def catalogues() -> list[Path]:
    """Every language's catalogue present (what the station speaks, English aside)."""
    return [LOCALE / code / "LC_MESSAGES" / "kiosk.po" for code in spoken() if code != "en"]


def test_every_message_of_the_code_is_in_the_template_and_every_catalogue() -> None:
    """A text added to a screen without running kiosk/locale/extract.sh fails here, naming it: the
    template and every catalogue have each message of the code (translated or still empty)."""
    wanted = code_messages()
    assert len(wanted) > 100
    assert set(catalogue_messages(LOCALE / "kiosk.pot")) == wanted, "run kiosk/locale/extract.sh"
    assert len(catalogues()) >= 4  # French, Spanish, Italian, Catalan at least
    for po in catalogues():
        assert sorted(wanted - set(catalogue_messages(po))) == [], f"{po}: run kiosk/locale/extract.sh"


def test_no_catalogue_has_a_translation_the_build_refuses() -> None:
    """A placeholder a translator misspelt would show English in its place: none, in any language."""
    for po in catalogues():
        progress, _ = _catalogue_tool().checked(po, _catalogue_tool()._template_ids())
        assert progress.refused == [], progress.said()
        assert progress.name not in ("", "English"), f"{po}: translate the language's own name"


def test_french_keeps_its_punctuation_with_the_word_before_it() -> None:
    """French sets a space before : ; ? ! and inside « »: a no-break one, or a wrapped line on
    screen can begin with a lone colon. Every French message, whichever branch added it."""
    loose = re.compile(r" [:;?!\u00bb]|\u00ab ")
    for message, translated in catalogue_messages(LOCALE / "fr" / "LC_MESSAGES" / "kiosk.po").items():
        for text in translated if isinstance(translated, tuple | list) else (translated,):
            assert not loose.search(str(text)), (message, text)


@functools.cache
def _catalogue_tool() -> types.ModuleType:
    """packaging/catalogues.py, the build's own judge of a catalogue (a script, not a package)."""
    spec = importlib.util.spec_from_file_location("catalogues", ROOT / "packaging" / "catalogues.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


HEADER = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=utf-8\\n"\n"Language: {code}\\n"\n\n'


def _tool_copy(tmp_path: Path, template: str) -> Path:
    """packaging/catalogues.py in a tree of its own, with ``template`` as kiosk.pot."""
    (tmp_path / "packaging").mkdir()
    (tmp_path / "packaging" / "catalogues.py").write_text((ROOT / "packaging" / "catalogues.py").read_text())
    (tmp_path / "kiosk" / "locale").mkdir(parents=True)
    (tmp_path / "kiosk" / "locale" / "kiosk.pot").write_text(template, encoding="utf-8")
    return tmp_path / "packaging" / "catalogues.py"


def _po(tmp_path: Path, code: str, body: str) -> Path:
    """A catalogue in the tree of ``_tool_copy``, named as the build names it (from the tree)."""
    po = Path("kiosk") / "locale" / code / "LC_MESSAGES" / "kiosk.po"
    (tmp_path / po).parent.mkdir(parents=True)
    (tmp_path / po).write_text(HEADER.format(code=code) + body, encoding="utf-8")
    return po


def _translations(mo: Path) -> gettext.GNUTranslations:
    with mo.open("rb") as stream:
        return gettext.GNUTranslations(stream)


def test_a_half_done_catalogue_compiles_with_english_for_what_it_lacks(tmp_path: Path) -> None:
    """A volunteer's catalogue with one message of four translated, one misspelt placeholder and
    one fuzzy guess: it compiles, the build counts and names what stays English, and the complete
    French catalogue beside it compiles as before."""
    template = "".join(
        f'msgid "{m}"\nmsgstr ""\n\n' for m in ("English", "Lexicon", "Table {number}", "Judge mode")
    )
    script = _tool_copy(tmp_path, template)
    french = _po(
        tmp_path,
        "fr",
        'msgid "English"\nmsgstr "Fran\u00e7ais"\n\nmsgid "Lexicon"\nmsgstr "Lexique"\n\n'
        'msgid "Table {number}"\nmsgstr "Table {number}"\n\nmsgid "Judge mode"\nmsgstr "Mode arbitre"\n',
    )
    german = _po(
        tmp_path,
        "de",
        'msgid "English"\nmsgstr "Deutsch"\n\nmsgid "Lexicon"\nmsgstr ""\n\n'
        'msgid "Table {number}"\nmsgstr "Tisch {nummer}"\n\n'
        '#, fuzzy\nmsgid "Judge mode"\nmsgstr "Schiedsrichtermodus"\n',
    )
    result = subprocess.run([sys.executable, str(script)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    said = result.stderr
    assert "de (Deutsch): 2 of 4 messages not translated yet, shown in English:" in said
    assert f"{german}:9: 'Lexicon'" in said
    assert f"{german}:16: 'Judge mode' (marked fuzzy)" in said
    assert "de (Deutsch): 1 translation(s) refused, shown in English:" in said
    refused = f"{german}:12: 'Table {{number}}': the translation has {{nummer}}, which the English has not"
    assert refused in said
    assert "fr (" not in said  # a complete catalogue is not mentioned
    words = _translations(tmp_path / german.with_suffix(".mo"))
    assert [words.gettext(m) for m in ("English", "Lexicon", "Table {number}", "Judge mode")] == [
        "Deutsch",
        "Lexicon",
        "Table {number}",
        "Judge mode",
    ]
    assert _translations(tmp_path / french.with_suffix(".mo")).gettext("Judge mode") == "Mode arbitre"


def test_a_long_list_of_missing_messages_is_counted_and_cut_short(tmp_path: Path) -> None:
    template = "".join(f'msgid "message {n}"\nmsgstr ""\n\n' for n in range(30))
    script = _tool_copy(tmp_path, template)
    po = _po(tmp_path, "pl", 'msgid "message 0"\nmsgstr "komunikat 0"\n')  # 29 not even in the file
    result = subprocess.run([sys.executable, str(script)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert "pl: 29 of 30 messages not translated yet, shown in English:" in result.stderr
    assert f"  {po}: 'message 1' (not in the file: run kiosk/locale/extract.sh)" in result.stderr
    assert "... and 19 more: python packaging/catalogues.py status pl lists them all" in result.stderr
    listed = subprocess.run([sys.executable, str(script), "status", "pl"], capture_output=True, text=True)
    assert listed.returncode == 0, listed.stderr
    assert all(f"'message {n}'" in listed.stdout for n in range(1, 30))
    summary = subprocess.run([sys.executable, str(script), "status"], capture_output=True, text=True)
    assert "pl (no name yet): 1 of 30 translated, 29 not yet" in summary.stdout


def test_a_catalogue_babel_cannot_read_fails_the_build_after_the_others(tmp_path: Path) -> None:
    """A catalogue saved in Latin-1, not UTF-8: named, not compiled, and the others are."""
    script = _tool_copy(tmp_path, 'msgid "Lexicon"\nmsgstr ""\n')
    french = _po(tmp_path, "fr", 'msgid "Lexicon"\nmsgstr "Lexique"\n')
    broken = _po(tmp_path, "ca", "")
    latin = 'msgid "Lexicon"\nmsgstr "L\u00e8xic"\n'.encode("latin-1")
    (tmp_path / broken).write_bytes((tmp_path / broken).read_bytes() + latin)
    stale = tmp_path / broken.with_suffix(".mo")
    stale.write_bytes(b"an older compiled file")
    result = subprocess.run([sys.executable, str(script)], capture_output=True, text=True)
    assert result.returncode != 0
    assert f"{broken} cannot be read, so not compiled" in result.stderr
    assert _translations(tmp_path / french.with_suffix(".mo")).gettext("Lexicon") == "Lexique"
    assert not stale.exists()  # no older words stand in for it


def test_one_command_starts_a_language_the_station_then_speaks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`catalogues.py new de`: German's catalogue, empty but for its name and its numbers (from
    Babel's locale data); compiled, the station speaks German where it is translated, English
    elsewhere, and lists it among its languages. No list in the code was edited."""
    template = (LOCALE / "kiosk.pot").read_text(encoding="utf-8")
    script = _tool_copy(tmp_path, template)
    started = subprocess.run([sys.executable, str(script), "new", "de"], capture_output=True, text=True)
    assert started.returncode == 0, started.stderr
    po = tmp_path / "kiosk" / "locale" / "de" / "LC_MESSAGES" / "kiosk.po"
    assert "started Deutsch (de): kiosk/locale/de/LC_MESSAGES/kiosk.po" in started.stdout
    again = subprocess.run([sys.executable, str(script), "new", "de"], capture_output=True, text=True)
    assert again.returncode != 0
    assert "is already there" in again.stderr
    unknown = subprocess.run([sys.executable, str(script), "new", "qq"], capture_output=True, text=True)
    assert unknown.returncode != 0
    assert "Babel knows no such language" in unknown.stderr
    with po.open("rb") as stream:
        catalogue = read_po(stream)
    assert catalogue.plural_forms == "nplurals=2; plural=(n != 1);"
    catalogue["Lexicon"].string = "Lexikon"
    with po.open("wb") as out:
        write_po(out, catalogue)
    compiled = subprocess.run([sys.executable, str(script)], capture_output=True, text=True)
    assert compiled.returncode == 0, compiled.stderr
    assert f"de (Deutsch): {len(code_messages()) - 5} of {len(code_messages())} messages" in compiled.stderr
    monkeypatch.setattr("kiosk.core.words.language._locale", lambda: tmp_path / "kiosk" / "locale")
    assert spoken() == ("en", "de")
    assert language_names() == {"en": "English", "de": "Deutsch"}
    german = load_catalogue("de")
    assert german.text("Lexicon") == "Lexikon"
    assert german.text("Judge mode") == "Judge mode"  # not translated yet: English
    assert (german.number(12345), german.number(1234), german.decimal(0.5)) == ("12.345", "1.234", "0,5")


def test_the_languages_are_the_catalogues_present() -> None:
    """English first, then each catalogue's folder; each named in its own words."""
    found = sorted(p.parent.parent.name for p in LOCALE.glob("*/LC_MESSAGES/kiosk.po"))
    assert spoken() == ("en", *found)
    assert {"fr", "es", "it", "ca"} <= set(spoken())
    names = language_names()
    assert (names["en"], names["fr"], names["es"], names["it"], names["ca"]) == (
        "English",
        "Fran\u00e7ais",
        "Espa\u00f1ol",
        "Italiano",
        "Catal\u00e0",
    )


@pytest.mark.parametrize(
    ("code", "counts"),
    [
        ("en", ["0 letters", "1 letter", "2 letters", "1,234 letters"]),
        ("fr", ["0 lettre", "1 lettre", "2 lettres", "1\u202f234 lettres"]),
        ("es", ["0 letras", "1 letra", "2 letras", "1234 letras"]),
        ("it", ["0 lettere", "1 lettera", "2 lettere", "1.234 lettere"]),
        ("ca", ["0 lletres", "1 lletra", "2 lletres", "1.234 lletres"]),
    ],
)
def test_counts_take_each_language_s_plural(code: str, counts: list[str]) -> None:
    words = load_catalogue(code)
    assert [counted(n, "letter", "letters", words) for n in (0, 1, 2, 1234)] == counts


def test_one_or_many_fills_the_count() -> None:
    french = load_catalogue("fr")
    assert (
        one_or_many(1, "The word is typed", "All {count} words are typed", french) == "Le mot est tap\u00e9"
    )
    assert one_or_many(3, "The word is typed", "All {count} words are typed", french) == (
        "Les 3 mots sont tap\u00e9s"
    )


def test_rule_consequences_speak_the_language() -> None:
    profile = RuleProfile(kind=ProfileKind.PENALTY, points_per_word=5, penalty_party=PenaltyParty.BOTH)
    outcome = profile.outcome(Verdict.ACCEPTABLE, 1, load_catalogue("es"))
    assert outcome.headline == "Impugnaci\u00f3n fallida \u2014 1 palabra \u00d7 5 puntos"
    assert outcome.consequence == (
        "La jugada se mantiene. El IMPUGNADOR pierde 5 puntos y el JUGADOR IMPUGNADO gana 5 puntos."
    )
    assert profile.title_in(load_catalogue("fr")) == "P\u00e9nalit\u00e9 par mot (5 points)"
    # a profile's own words are the organiser's, whatever the language
    own = RuleProfile(words=(("successful_headline", "Utmaning lyckades"),))
    assert own.outcome(Verdict.UNACCEPTABLE, 2, load_catalogue("fr")).headline == "Utmaning lyckades"


def test_the_session_refuses_in_the_division_s_language() -> None:
    state = start(
        (15, 15),
        station_words=load_catalogue("en"),
        division_words=(
            load_catalogue("en"),
            load_catalogue("es"),
        ),
    )
    state = transition(state, Typed("2")).state
    state = transition(state, Typed("7")).state
    assert notice_text(state) == "First the division of your game: press its number, 1 or 2"
    state = transition(state, Typed("2")).state
    state = transition(state, Typed("a ")).state
    assert notice_text(state) == "Palabra incompleta: 'A' tiene 1 letra; una palabra tiene al menos 2 letras"
    state = transition(state, Typed("\u00f1")).state
    assert refusal_text(state).startswith('No admitido: "\u00f1"')


def config(text: str, tmp_path: Path) -> object:
    return parse_config(text, where="station.toml", base=tmp_path, default_pack=tmp_path / "p.kxpack")


def test_language_per_station_and_per_division(tmp_path: Path) -> None:
    parsed = parse_config(
        'language = "FR"\n[[divisions]]\nname = "Open"\n[[divisions]]\nname = "Elite"\nlanguage = "es"\n',
        where="station.toml",
        base=tmp_path,
        default_pack=tmp_path / "p.kxpack",
    )
    assert parsed.language == "fr"
    assert [d.language for d in parsed.divisions] == [None, "es"]
    languages = load_languages(parsed)
    assert [c.language for c in (languages.station, *languages.divisions)] == ["fr", "fr", "es"]


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ('language = "xx"\n', "station.toml: language = 'xx'"),
        (
            '[[divisions]]\nname = "A"\n[[divisions]]\nname = "B"\nlanguage = "french"\n',
            "station.toml division 2: language = 'french'",
        ),
    ],
)
def test_an_unknown_language_is_refused_naming_the_key_and_the_languages(
    text: str, where: str, tmp_path: Path
) -> None:
    with pytest.raises(ConfigError) as refused:
        config(text, tmp_path)
    message = str(refused.value)
    assert message.startswith(where), message
    assert message.endswith(f"use one of {SPOKEN}"), message


def test_an_empty_text_stays_empty_in_every_language() -> None:
    """gettext answers "" with the catalogue's header: a page with no hint must show none."""
    for code in spoken():
        assert load_catalogue(code).text("") == ""


# -- errors said in the station's language -----------------------------------------------------


def test_a_storage_error_keeps_its_message_id_and_is_said_in_french(tmp_path: Path) -> None:
    """A real SQLite log deleted under a running station: English for the journal, French for the
    judge, the path as it is."""
    with open_station_storage(tmp_path / "station", forward_in_background=False) as storage:
        storage.settings.put("division", "Open")
        for path in (tmp_path / "station").glob("kiosk.sqlite3*"):
            path.unlink()
        with pytest.raises(StorageError) as refused:
            storage.settings.put("division", "Schools")
    error = refused.value
    database = tmp_path / "station" / "kiosk.sqlite3"
    assert str(error).startswith(f"the challenge log file {database} was deleted while the station")
    french = load_catalogue("fr").say(error.wording)
    assert french.startswith(
        f"le fichier du journal des contestations {database} a \u00e9t\u00e9 supprim\u00e9"
    )
    assert load_catalogue("en").say(error.wording) == str(error)


def test_a_driver_error_is_said_around_the_drivers_own_words(tmp_path: Path) -> None:
    """``reported_as``: what could not be done, in Spanish; what SQLite answered, as it answered."""
    with (
        open_station_storage(tmp_path / "station", forward_in_background=False) as storage,
        pytest.raises(StorageError) as refused,
    ):
        storage.settings.put("division", {"not", "JSON"})  # json.dumps refuses a set
    assert str(refused.value).startswith("cannot write the station settings in ")
    spanish = load_catalogue("es").say(refused.value.wording)
    assert spanish.startswith("no se puede escribir los ajustes del puesto en ")
    assert spanish.endswith(": Object of type set is not JSON serializable")


def test_an_error_written_whole_is_said_after_its_kind() -> None:
    """A message with no id (English only) still reaches a French judge with what kind of problem it
    is, in French, and the English marked as such."""
    error = PackVersionError("club.kxpack uses pack format 9")
    assert str(error) == "club.kxpack uses pack format 9"
    assert load_catalogue("fr").say(error.wording) == (
        "Le lexique a \u00e9t\u00e9 construit pour une autre version de la borne "
        "(en anglais\u00a0: club.kxpack uses pack format 9)"
    )
    assert load_catalogue("en").say(error.wording) == "club.kxpack uses pack format 9"


def test_a_damaged_pack_is_named_in_spanish(tmp_path: Path) -> None:
    pack = tmp_path / "club.kxpack"
    pack.write_bytes(b"")
    with pytest.raises(NotAPackError) as refused:
        read_sealed(pack)
    assert load_catalogue("es").say(refused.value.wording) == (
        f"{pack} est\u00e1 vac\u00edo (0 bytes), no es un l\u00e9xico; c\u00f3pielo de nuevo del original "
        "del organizador, o construya uno con 'lexicon-build build'"
    )


# -- a director's mistakes, said whole in the station's language ---------------------------------

NBSP = "\u00a0"
SPOKEN = ", ".join(f'"{code}" ({name})' for code, name in language_names().items())
DIVISION_KEYS = "colour, expect, language, name, pack, second_opinion_pack, youth_rules"
CONFIG_MISTAKES = [  # (station.toml, English, French, Spanish): what a director meets most
    (
        'language = "fr"\n[[divisions]]\nname = "Open"\nyouth_rule = true\n',
        f"station.toml division 1: unknown key 'youth_rule'; the keys here are: {DIVISION_KEYS}",
        f"station.toml, division 1{NBSP}: cl\u00e9 inconnue 'youth_rule'{NBSP}; les cl\u00e9s possibles ici "
        f"sont{NBSP}: {DIVISION_KEYS}",
        f"station.toml, divisi\u00f3n 1: clave desconocida 'youth_rule'; las claves admitidas aqu\u00ed son: "
        f"{DIVISION_KEYS}",
    ),
    (
        'touch = "yes"\n',
        "station.toml: 'touch' must be true or false (found 'yes')",
        f"station.toml{NBSP}: 'touch' doit \u00eatre true ou false (valeur trouv\u00e9e{NBSP}: 'yes')",
        "station.toml: 'touch' debe ser true o false (valor encontrado: 'yes')",
    ),
    (
        "[timings]\nverdict_display_ms = 20\n",
        "station.toml [timings]: 'verdict_display_ms' must be a whole number from 1000 to 600000 (found 20)",
        f"station.toml [timings]{NBSP}: 'verdict_display_ms' doit \u00eatre un nombre entier de 1000 \u00e0 "
        f"600000 (valeur trouv\u00e9e{NBSP}: 20)",
        "station.toml [timings]: 'verdict_display_ms' debe ser un n\u00famero entero de 1000 a 600000 "
        "(valor encontrado: 20)",
    ),
    (
        '[rules]\nprofile = "doubel"\n',
        'station.toml [rules]: \'profile\' must be one of "double", "penalty", "per_turn", '
        '"escalating", "free" (found \'doubel\')',
        f'station.toml [rules]{NBSP}: \'profile\' doit \u00eatre l\'une des valeurs "double", "penalty", '
        f'"per_turn", "escalating", "free" (valeur trouv\u00e9e{NBSP}: \'doubel\')',
        'station.toml [rules]: \'profile\' debe ser uno de los valores "double", "penalty", "per_turn", '
        '"escalating", "free" (valor encontrado: \'doubel\')',
    ),
    (
        '[[divisions]]\nname = "A"\n[[divisions]]\nname = "B"\nlanguage = "xx"\n',
        f"station.toml division 2: language = 'xx': the station does not speak it; use one of {SPOKEN}",
        f"station.toml, division 2{NBSP}: language = 'xx'{NBSP}: la borne ne parle pas cette langue{NBSP}; "
        f"utilisez l'une de celles-ci{NBSP}: {SPOKEN}",
        "station.toml, divisi\u00f3n 2: language = 'xx': el puesto no habla ese idioma; use uno de estos: "
        f"{SPOKEN}",
    ),
    (
        '[[divisions]]\nname = "Open"\n[[divisions]]\nname = "open"\n',
        "station.toml: two divisions are named 'Open'; give each its own name",
        f"station.toml{NBSP}: deux divisions s'appellent 'Open'{NBSP}; donnez \u00e0 chacune son propre nom",
        "station.toml: dos divisiones se llaman 'Open'; d\u00e9 a cada una su propio nombre",
    ),
]


CONFIG_MISTAKES += [
    (
        '[rules]\nprofile = "escalating"\nescalation = [10, 5]\n',
        "station.toml [rules]: escalation [10, 5] goes down; an escalating penalty never costs less for "
        "more words",
        f"station.toml [rules]{NBSP}: escalation [10, 5] diminue{NBSP}; une p\u00e9nalit\u00e9 progressive "
        "ne co\u00fbte jamais moins pour davantage de mots",
        "station.toml [rules]: escalation [10, 5] disminuye; una penalizaci\u00f3n progresiva nunca cuesta "
        "menos por m\u00e1s palabras",
    ),
    (
        '[[trusted_keys]]\nname = "TD"\n',
        "station.toml: trusted_keys[0]: missing public_key (a trusted key has name and public_key)",
        f"station.toml{NBSP}: trusted_keys[0]{NBSP}: il manque public_key (une cl\u00e9 de confiance a name "
        "et public_key)",
        "station.toml: trusted_keys[0]: falta public_key (una clave de confianza tiene name y public_key)",
    ),
]


@pytest.mark.parametrize(("text", "english", "french", "spanish"), CONFIG_MISTAKES)
def test_a_configuration_mistake_is_said_whole_in_french_and_spanish(
    text: str, english: str, french: str, spanish: str, tmp_path: Path
) -> None:
    """The English stays for kiosk check and the journal; the screens say the whole message in their
    language, the keys, values and file named as the file has them."""
    with pytest.raises(ConfigError) as refused:
        config(text, tmp_path)
    error = refused.value
    assert str(error) == english
    assert load_catalogue("fr").say(error.wording) == french
    assert load_catalogue("es").say(error.wording) == spanish
    assert load_catalogue("en").say(error.wording) == english


def _write_zip(path: Path) -> None:
    import zipfile

    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("club.txt", "AA\nAB\n")


@pytest.mark.parametrize(
    ("name", "make", "english", "french", "spanish"),
    [
        (
            "club.kxpack",
            lambda path: path.write_text("AARDVARK\nABACUS\nZEBRA\n" * 20, encoding="utf-8"),
            "{path} is a word list, not a lexicon pack; build a pack from it: lexicon-build build "
            "--name NAME --source {path} -o club.kxpack",
            f"{{path}} est une liste de mots, et non un lexique{NBSP}; construisez-en un lexique{NBSP}: "
            "lexicon-build build --name NAME --source {path} -o club.kxpack",
            "{path} es una lista de palabras, no un l\u00e9xico; construya un l\u00e9xico con \u00e9l: "
            "lexicon-build build --name NAME --source {path} -o club.kxpack",
        ),
        (
            "club.zip",
            _write_zip,
            "{path} is a zip archive, not a lexicon pack; unzip it and give the file inside",
            f"{{path}} est une archive zip, et non un lexique{NBSP}; d\u00e9compressez-la et donnez le "
            "fichier qu'elle contient",
            "{path} es un archivo zip, no un l\u00e9xico; descompr\u00edmalo e indique el archivo que "
            "contiene",
        ),
    ],
)
def test_a_file_of_another_kind_given_as_a_pack_is_named_in_french_and_spanish(
    name: str, make: object, english: str, french: str, spanish: str, tmp_path: Path
) -> None:
    path = tmp_path / name
    make(path)  # type: ignore[operator]
    with pytest.raises(NotAPackError) as refused:
        read_sealed(path)
    error = refused.value
    assert str(error) == english.format(path=path)
    assert load_catalogue("fr").say(error.wording) == french.format(path=path)
    assert load_catalogue("es").say(error.wording) == spanish.format(path=path)


def test_a_data_directory_that_cannot_be_used_is_said_in_french_and_spanish(tmp_path: Path) -> None:
    from kiosk.paths import check_data_dir

    blocker = tmp_path / "data"
    blocker.write_text("")  # a file where the station's folder should be
    with pytest.raises(StorageError) as refused:
        check_data_dir(blocker)
    error = refused.value
    assert str(error) == (
        f"the station's data directory {blocker} is a file, not a directory; remove it or name another folder"
    )
    assert load_catalogue("fr").say(error.wording) == (
        f"le dossier de donn\u00e9es de la borne {blocker} est un fichier, et non un dossier{NBSP}; "
        "supprimez-le ou indiquez un autre dossier"
    )
    assert load_catalogue("es").say(error.wording) == (
        f"la carpeta de datos del puesto {blocker} es un archivo, no una carpeta; elim\u00ednelo o indique "
        "otra carpeta"
    )


def test_an_edition_a_division_expects_and_a_table_that_is_a_folder_are_said_in_spanish(
    tmp_path: Path,
) -> None:
    from kiosk.core.edition import EditionTable, Expectation, KnownEdition, read_edition_table

    table = EditionTable((KnownEdition("CSW21", 3, "0" * 64, ((2, 3),), "built-in"),))
    where = Wording(marked("{where}: division {division}"), where="station.toml", division="'Open'")
    with pytest.raises(EditionTableError) as refused:
        Expectation.parse("CSW99", table, where=where)
    assert str(refused.value).startswith("station.toml: division 'Open': expect = 'CSW99' is neither")
    assert load_catalogue("es").say(refused.value.wording) == (
        "station.toml: divisi\u00f3n 'Open': expect = 'CSW99' no es ni una edici\u00f3n conocida ni la "
        "huella de un conjunto (sha256: y 64 d\u00edgitos hexadecimales). Ediciones conocidas: CSW21. "
        "A\u00f1ada la edici\u00f3n a una tabla de ediciones conocidas (known_editions) o indique la huella "
        "de su conjunto"
    )
    with pytest.raises(EditionTableError) as refused:
        read_edition_table(tmp_path)
    assert load_catalogue("es").say(refused.value.wording) == (
        f"{tmp_path} es una carpeta, no una tabla de ediciones conocidas; indique un archivo que est\u00e9 "
        "dentro"
    )


def test_a_database_url_of_another_kind_and_a_short_pin_are_said_in_french() -> None:
    from kiosk.core.errors import PinError
    from kiosk.core.station.pin import validate_pin
    from kiosk.storage.database import open_engine

    with pytest.raises(StorageError) as refused:
        open_engine("mysql://kiosk@judges/challenges")
    assert str(refused.value).endswith("names 'mysql'; the log supports sqlite and postgresql+psycopg")
    french = load_catalogue("fr").say(refused.value.wording)
    assert french.startswith("l'URL de base de donn\u00e9es mysql://")
    assert french.endswith(f"nomme 'mysql'{NBSP}; le journal accepte sqlite et postgresql+psycopg")
    with pytest.raises(PinError) as short:
        validate_pin("12")
    assert (
        load_catalogue("fr")
        .say(short.value.wording)
        .startswith(f"le code est trop court{NBSP}: utilisez au moins ")
    )


def test_a_configuration_with_a_mistake_still_states_its_language(tmp_path: Path) -> None:
    """The not-ready screen names the mistake in the language the director asked for."""
    from kiosk.core.station.config import stated_language

    path = tmp_path / "station.toml"
    path.write_text('station_name = "3"\nlanguage = "es"  # FISE\n[[divisions]]\nyouth_rule = 1\n')
    assert stated_language(path) == "es"
    path.write_text('[judge]\nlanguage = "fr"\n')  # a table's key, not the station's
    assert stated_language(path) is None
    path.write_text('language = "xx"\n')
    assert stated_language(path) is None
    assert stated_language(tmp_path / "missing.toml") is None


def test_a_wording_survives_pickling_with_its_plural() -> None:
    said = Wording.counting("{count} word", "{count} words", 3)
    again = pickle.loads(pickle.dumps(StorageError(said)))
    assert str(again) == "3 words"
    assert load_catalogue("fr").say(again.wording) == "3 mots"
    assert load_catalogue("fr").say(Wording.counting("{count} word", "{count} words", 0)) == "0 mot"


@pytest.mark.parametrize(
    ("typed", "french", "spanish"),
    [
        ("\u0430", '"\u0430" (U+0430, une lettre cyrillique)', '"\u0430" (U+0430, una letra cir\u00edlica)'),
        ("\u03bf", '"\u03bf" (U+03BF, une lettre grecque)', '"\u03bf" (U+03BF, una letra griega)'),
        ("\u0131", '"\u0131" (U+0131)', '"\u0131" (U+0131)'),  # the dotless i passes for an i
        ("\u00e9", '"\u00e9"', '"\u00e9"'),  # an accented letter shows what it is
        ("\u200b", "un caract\u00e8re invisible (U+200B)", "un car\u00e1cter invisible (U+200B)"),
        (
            "\u16a0",
            '"\u16a0" (U+16A0, une lettre d\'un autre alphabet)',
            '"\u16a0" (U+16A0, una letra de otro alfabeto)',
        ),
    ],
)
def test_a_refused_character_is_named_for_players_in_their_language(
    typed: str, french: str, spanish: str
) -> None:
    """No English Unicode name on a French or Spanish screen: the character, its code point where
    it could pass for a letter A-Z, and its alphabet in the players' words."""
    for code, named in (("fr", french), ("es", spanish)):
        words = load_catalogue(code)
        state = start((15,), station_words=words, division_words=(words,))
        state = transition(state, Typed("1")).state
        state = transition(state, Typed(f"c{typed}")).state
        assert named in refusal_text(state), refusal_text(state)
        assert "LETTER" not in refusal_text(state).upper().replace("LETTRE", "").replace("LETRA", "")
    for code in spoken()[1:]:  # every language: no English Unicode name, whatever its words
        words = load_catalogue(code)
        state = start((15,), station_words=words, division_words=(words,))
        state = transition(state, Typed("1")).state
        state = transition(state, Typed(f"c{typed}")).state
        assert refusal_text(state), code
        assert unicodedata.name(typed).upper() not in refusal_text(state).upper(), refusal_text(state)


@pytest.mark.parametrize(("alphabet", "typed"), [("spanish", "k"), ("spanish", "W"), ("polish", "q")])
@pytest.mark.parametrize("code", spoken())
def test_a_letter_a_to_z_the_alphabet_lacks_is_shown_as_it_is(alphabet: str, typed: str, code: str) -> None:
    """A Spanish K or a Polish Q is a plain letter: shown as typed, with no code point or name."""
    words = load_catalogue(code)
    state = start((15,), station_words=words, division_words=(words,), alphabets=(alphabets()[alphabet],))
    state = transition(state, Typed("1")).state
    state = transition(state, Typed(typed)).state
    assert f'"{typed}"' in refusal_text(state), refusal_text(state)
    assert "U+" not in refusal_text(state)
    assert f"({typed.lower()})" not in refusal_text(state).lower()


# -- wording a native reader flagged, each a class --------------------------------------------


def test_numbers_are_written_as_each_catalogue_says() -> None:
    """Grouping and the decimal sign come from each catalogue (no code per language): Spanish and
    Catalan group four digits differently; every language but English writes 0,6."""
    written = {code: load_catalogue(code) for code in ("en", "fr", "es", "it", "ca")}
    assert {code: t.number(1234) for code, t in written.items()} == {
        "en": "1,234",
        "fr": "1\u202f234",
        "es": "1234",
        "it": "1.234",
        "ca": "1.234",
    }
    assert {code: t.number(12345) for code, t in written.items()} == {
        "en": "12,345",
        "fr": "12\u202f345",
        "es": "12.345",
        "it": "12.345",
        "ca": "12.345",
    }
    assert [t.decimal(0.6) for t in written.values()] == ["0.6", "0,6", "0,6", "0,6", "0,6"]


def test_an_alphabet_is_named_inside_a_sentence_as_each_language_names_it() -> None:
    """Not "l'alphabet Espagnol (FISE : …)": the alphabet's own phrase, in lower case where the
    language writes it so, and the errors keep their ids for a screen to say them."""
    catalan, spanish = alphabets()["catalan"], alphabets()["spanish"]
    with pytest.raises(InvalidCharacterError) as refused:
        normalise_word("kiwi", alphabet=catalan)
    assert str(refused.value).startswith("'k' (U+006B LATIN SMALL LETTER K) at position 1 of 'kiwi' is")
    assert " not a letter of the Catalan alphabet (" in str(refused.value)
    said = {code: load_catalogue(code).say(refused.value.wording) for code in ("fr", "es", "it", "ca")}
    assert " n'est pas une lettre de l'alphabet catalan (" in said["fr"]
    assert " no es una letra del alfabeto catal\u00e1n (" in said["es"]
    assert " non \u00e8 una lettera dell'alfabeto catalano (" in said["it"]
    assert " no \u00e9s una lletra de l'alfabet catal\u00e0 (" in said["ca"]
    assert said["fr"].startswith("'k' (U+006B) en position 1 de 'kiwi'")  # no English Unicode name
    assert not any("LATIN" in text for text in said.values())
    with pytest.raises(InvalidCharacterError) as invisible:
        normalise_word("an\u200by", alphabet=catalan)
    assert "(U+200B ZERO WIDTH SPACE)" in str(invisible.value)
    assert (
        load_catalogue("ca")
        .say(invisible.value.wording)
        .startswith("un car\u00e0cter invisible (U+200B) a la")
    )
    with pytest.raises(TileError) as no_tile:
        normalise_word("qat", alphabet=catalan)
    assert "ne forment aucun jeton de l'alphabet catalan" in load_catalogue("fr").say(no_tile.value.wording)
    with pytest.raises(InvalidCharacterError) as k:
        normalise_word("kilo", alphabet=spanish)
    assert "del alfabeto espa\u00f1ol" in load_catalogue("es").say(k.value.wording)


def test_a_second_opinion_in_another_alphabet_is_refused_in_the_readers_words(make_pack: PackFactory) -> None:
    """The refusal names both alphabets as each language names them inside a sentence, never by
    the profiles' English keys ("dans l'alphabet english"); the key stays only where it is typed,
    in the build command."""
    spanish = make_pack(["CALLE", "PERRO"], alphabet="spanish")
    english = make_pack(["CALLE", "PERRO"])
    config = StationConfig(divisions=(Division("Open", spanish, second_opinion_pack=english),))
    with pytest.raises(ConfigError) as refused:
        load_divisions(config)
    assert "holds words of the English alphabet, but its pack" in str(refused.value)
    assert str(refused.value).endswith("a pack of the Spanish alphabet (lexicon-build --alphabet spanish)")
    said = {code: load_catalogue(code).say(refused.value.wording) for code in spoken()[1:]}
    assert "contient des mots de l'alphabet anglais, mais" in said["fr"]
    assert "contiene palabras del alfabeto ingl\u00e9s, pero" in said["es"]
    assert "enth\u00e4lt W\u00f6rter des englischen Alphabets" in said["de"]
    for code, text in said.items():
        assert "english" not in text.lower(), (code, text)
        assert text.count("spanish") == 1, (code, text)
        assert text.endswith("--alphabet spanish)"), (code, text)


def test_none_agrees_with_what_there_is_none_of(make_pack: PackFactory) -> None:
    """French "aucun problème" but "aucune édition": a whole sentence each, never one shared
    "none" (Spanish "ninguna edición", "ningún problema")."""
    from kiosk.core.edition import EditionTable, Expectation
    from kiosk.core.judge import Moment, Station, Status, start
    from kiosk.core.log.challenge import LogStatus
    from kiosk.core.station.settings import StationChoice
    from kiosk.ui.judge.status import status_lines

    with pytest.raises(EditionTableError) as refused:
        Expectation.parse("CSW99", EditionTable(()), where="station.toml")
    assert "\u00c9ditions connues\u00a0: aucune." in load_catalogue("fr").say(refused.value.wording)
    assert "Ediciones conocidas: ninguna." in load_catalogue("es").say(refused.value.wording)
    assert "Edizioni note: nessuna." in load_catalogue("it").say(refused.value.wording)
    assert "Edicions conegudes: cap." in load_catalogue("ca").say(refused.value.wording)

    config = StationConfig(divisions=(Division("Open", make_pack(["CAT", "DOG"])),))
    station = Station(config, load_divisions(config), StationChoice(None, config.rules, config.timings))
    state = start(station, Path("/data"), Moment(0.0, datetime.now().astimezone()))
    shared = LogStatus("postgresql+psycopg://kiosk@judges/log", shared=True, backlog=1234, last_error=None)
    state = replace(state, status=Status(log=shared))
    lines = {code: status_lines(state, load_catalogue(code)) for code in ("en", "fr", "es", "it", "ca")}
    assert "Last problem with the server: none" in lines["en"]
    assert "Dernier probl\u00e8me avec le serveur\u00a0: aucun" in lines["fr"]
    assert "\u00daltimo problema con el servidor: ninguno" in lines["es"]
    assert "Ultimo problema con il server: nessuno" in lines["it"]
    assert "\u00daltim problema amb el servidor: cap" in lines["ca"]
    assert "En attente de transmission\u00a0: 1\u202f234" in lines["fr"]  # grouped as French groups


def test_a_file_s_size_is_counted_in_the_reader_s_numbers(tmp_path: Path) -> None:
    """A table of known editions too large: its limit in bytes, grouped as the language groups
    (not 1,048,576 in French), and "byte" in the number it needs."""
    from kiosk.core.edition import MAX_TABLE_BYTES, read_edition_table

    table = tmp_path / "editions.tsv"
    table.write_bytes(b"# facts\n" * (MAX_TABLE_BYTES // 8 + 1))
    with pytest.raises(EditionTableError) as refused:
        read_edition_table(table)
    limit = f"{MAX_TABLE_BYTES:,}"
    assert f"is larger than {limit} bytes" in str(refused.value)
    french = load_catalogue("fr").say(refused.value.wording)
    assert f"d\u00e9passe {limit.replace(',', chr(0x202F))} octets" in french
