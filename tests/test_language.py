"""The translation catalogues: complete, current, right in their plurals, chosen by configuration."""

from __future__ import annotations

import pickle
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

import kiosk
from kiosk.core.errors import ConfigError, EditionTableError, NotAPackError, PackVersionError, StorageError
from kiosk.core.packs.pack import read_sealed
from kiosk.core.play.adjudication import Verdict
from kiosk.core.play.rules import PenaltyParty, ProfileKind, RuleProfile
from kiosk.core.play.session import Typed, start, transition
from kiosk.core.station.config import load_languages, parse_config
from kiosk.core.wording import Wording
from kiosk.core.words.alphabet import alphabets
from kiosk.core.words.language import LANGUAGES, load_catalogue, marked
from kiosk.core.words.plural import counted, one_or_many
from kiosk.storage import open_station_storage
from kiosk.ui.players.notice import notice_text, refusal_text

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


def test_every_message_of_the_code_is_in_every_catalogue_translated() -> None:
    """A text added to a screen without running kiosk/locale/extract.sh (and translating it) fails
    here, naming it."""
    wanted = code_messages()
    assert len(wanted) > 100
    assert set(catalogue_messages(LOCALE / "kiosk.pot")) == wanted, "run kiosk/locale/extract.sh"
    for code in LANGUAGES:
        if code == "en":
            continue
        po = LOCALE / code / "LC_MESSAGES" / "kiosk.po"
        have = catalogue_messages(po)
        assert sorted(wanted - set(have)) == [], f"{po}: run kiosk/locale/extract.sh, then translate"
        untranslated = [m for m, s in have.items() if not (all(s) if isinstance(s, tuple) else s)]
        assert untranslated == [], po


def test_the_build_refuses_an_incomplete_catalogue(tmp_path: Path) -> None:
    """packaging/catalogues.py names the file, the line and the message it will not compile."""
    script = (ROOT / "packaging" / "catalogues.py").read_text()
    po = tmp_path / "kiosk" / "locale" / "fr" / "LC_MESSAGES" / "kiosk.po"
    po.parent.mkdir(parents=True)
    po.write_text(
        'msgid ""\nmsgstr "Content-Type: text/plain; charset=utf-8\\n"\n\n'
        'msgid "Lexicon"\nmsgstr ""\n\nmsgid "Table {number}"\nmsgstr "Table {numero}"\n'
    )
    (tmp_path / "packaging").mkdir()
    (tmp_path / "packaging" / "catalogues.py").write_text(script)
    result = subprocess.run(
        [sys.executable, str(tmp_path / "packaging" / "catalogues.py")], capture_output=True, text=True
    )
    assert result.returncode != 0
    assert f"{po}:4: 'Lexicon' has no translation" in result.stderr
    assert "{numero}, which the English has not" in result.stderr
    assert not po.with_suffix(".mo").exists()


@pytest.mark.parametrize(
    ("code", "counts"),
    [
        ("en", ["0 letters", "1 letter", "2 letters", "1,234 letters"]),
        ("fr", ["0 lettre", "1 lettre", "2 lettres", "1\u202f234 lettres"]),
        ("es", ["0 letras", "1 letra", "2 letras", "1234 letras"]),
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
        ('language = "de"\n', "station.toml: language = 'de'"),
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
    assert '"en" (English), "fr" (Fran\u00e7ais), "es" (Espa\u00f1ol)' in message


def test_an_empty_text_stays_empty_in_every_language() -> None:
    """gettext answers "" with the catalogue's header: a page with no hint must show none."""
    for code in LANGUAGES:
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
        '[[divisions]]\nname = "A"\n[[divisions]]\nname = "B"\nlanguage = "de"\n',
        "station.toml division 2: language = 'de': the station does not speak it; use one of \"en\" "
        '(English), "fr" (Fran\u00e7ais), "es" (Espa\u00f1ol)',
        f"station.toml, division 2{NBSP}: language = 'de'{NBSP}: la borne ne parle pas cette langue{NBSP}; "
        f'utilisez l\'une de celles-ci{NBSP}: "en" (English), "fr" (Fran\u00e7ais), "es" (Espa\u00f1ol)',
        "station.toml, divisi\u00f3n 2: language = 'de': el puesto no habla ese idioma; use uno de estos: "
        '"en" (English), "fr" (Fran\u00e7ais), "es" (Espa\u00f1ol)',
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
    path.write_text('language = "de"\n')
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


@pytest.mark.parametrize(("alphabet", "typed"), [("spanish", "k"), ("spanish", "W"), ("polish", "q")])
@pytest.mark.parametrize("code", ["en", "fr", "es"])
def test_a_letter_a_to_z_the_alphabet_lacks_is_shown_as_it_is(alphabet: str, typed: str, code: str) -> None:
    """A Spanish K or a Polish Q is a plain letter: shown as typed, with no code point or name."""
    words = load_catalogue(code)
    state = start((15,), station_words=words, division_words=(words,), alphabets=(alphabets()[alphabet],))
    state = transition(state, Typed("1")).state
    state = transition(state, Typed(typed)).state
    assert f'"{typed}"' in refusal_text(state), refusal_text(state)
    assert "U+" not in refusal_text(state)
    assert f"({typed.lower()})" not in refusal_text(state).lower()
