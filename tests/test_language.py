"""The translation catalogues: complete, current, right in their plurals, chosen by configuration."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

import kiosk
from kiosk.core.adjudication import Verdict
from kiosk.core.config import load_languages, parse_config
from kiosk.core.errors import ConfigError
from kiosk.core.language import LANGUAGES, load_catalogue
from kiosk.core.plural import counted, one_or_many
from kiosk.core.rules import PenaltyParty, ProfileKind, RuleProfile
from kiosk.core.session import Typed, start, transition

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
    method_map = [("core/**.py", "python"), ("storage/**.py", "python"), ("ui/**.py", "python")]
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
    assert profile.title_in(load_catalogue("fr")) == "P\u00e9nalit\u00e9 de 5 points par mot"
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
    assert state.notice == "First the division of your game: press its number, 1 or 2"
    state = transition(state, Typed("2")).state
    state = transition(state, Typed("a ")).state
    assert state.notice == "Palabra incompleta: 'A' tiene 1 letra; una palabra tiene al menos 2 letras"
    state = transition(state, Typed("\u00f1")).state
    assert state.notice.startswith('No admitido: "\u00f1"')


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
