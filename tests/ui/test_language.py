"""The station in the players' language: every language's screens fitted, and nothing left in English.

The languages are the catalogues present (``spoken()``): a language a volunteer adds is fitted and
walked here without a line of this file changing.

The escape test runs the station in a pseudo-language compiled from kiosk.pot at test time (every
message becomes ⟦message⟧): any visible text outside the brackets that is not data (a typed
word, a division's or a lexicon's name) escaped the catalogue. The same walks run in each real
language, where what must not be left is English: a word only the English messages use ("station",
"directory", "from"), glued into a translated sentence, is found (``english_left``).
"""

from __future__ import annotations

import functools
import gettext
import io
import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractButton, QLabel, QWidget

import kiosk
from kiosk.core.errors import ConfigError, KioskError, NotAPackError
from kiosk.core.judge import MENU_PAGES, JudgePage
from kiosk.core.play.rules import PenaltyParty, ProfileKind, RuleProfile
from kiosk.core.station.config import Division, Languages, StationConfig, load_divisions
from kiosk.core.wording import SUMMED_UP
from kiosk.core.words.language import Catalogue, language_names, load_catalogue, marked, spoken
from kiosk.paths import station_data
from kiosk.station import load_station_config
from kiosk.ui.app import ONE_LINE, SERVES_BY_ITSELF, no_pin_problem
from kiosk.ui.window import StationWindow
from tests.conftest import PackFactory
from tests.ui.conftest import PIN, JudgeFactory, StationFactory, press, tab, type_text
from tests.ui.test_fit import EIGHT_LONG, SIZES, assert_every_text_fits

POT = Path(kiosk.__file__).parent / "locale" / "kiosk.pot"
IMU = RuleProfile(kind=ProfileKind.PENALTY, penalty_party=PenaltyParty.BOTH)  # the longest consequence
LANGUAGES = [code for code in spoken() if code != "en"]  # every catalogue present


def backspace(window: StationWindow) -> None:
    press(window, Qt.Key.Key_Backspace, "\b")


def enter(window: StationWindow) -> None:
    press(window, Qt.Key.Key_Return, "\r")


def visible_texts(window: QWidget) -> list[tuple[str, str]]:
    """(object name, text) of every label and button a player sees now."""
    shown: list[tuple[str, str]] = []
    widgets: list[QLabel | QAbstractButton] = [
        *window.findChildren(QLabel),
        *window.findChildren(QAbstractButton),
    ]
    for widget in widgets:
        if widget.isVisible() and widget.text():
            shown.append((widget.objectName(), widget.text()))
    return shown


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("size", SIZES)
def test_eight_long_words_fit_in_every_language(
    station: StationFactory, pack: Path, size: tuple[int, int], language: str
) -> None:
    """The longest texts each screen can show (two divisions, a table, school rules, the IMU penalty)."""
    divisions = (Division("Open", pack), Division("Écoles", pack, youth_rules=True, colour="#7a3db8"))
    rig = station(size=size, language=language, divisions=divisions, ask_table=True, rules=IMU)
    window = rig.window
    assert assert_every_text_fits(window) > 3
    type_text(window, "8")
    assert_every_text_fits(window)  # the table
    type_text(window, "123")
    enter(window)
    assert_every_text_fits(window)  # the division
    type_text(window, "2")
    type_text(window, EIGHT_LONG[1:])
    assert_every_text_fits(window)
    type_text(window, " ")
    assert assert_every_text_fits(window) > 8 * 3  # check the spelling, the division and the table
    tab(window)
    assert window.stack.currentWidget() is window.verdict
    assert assert_every_text_fits(window) > 8 * 2


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_touch_screens_fit_in_every_language(station: StationFactory, language: str) -> None:
    window = station(size=(1024, 600), touch=True, language=language).window
    assert_every_text_fits(window)
    type_text(window, EIGHT_LONG)
    assert_every_text_fits(window)
    assert window.entry.keyboard is not None
    judge = {"fr": "JUGER", "es": "JUZGAR", "it": "GIUDICA", "ca": "JUTJA"}
    expected = judge.get(language, load_catalogue(language).text("JUDGE"))
    assert window.entry.keyboard.keys["JUDGE"].text() == expected
    type_text(window, "\u00e9")  # refused: the longest notice, with the touch keys named
    assert_every_text_fits(window)


@pytest.mark.parametrize(
    ("language", "acceptable", "unacceptable", "prompt"),
    [
        ("fr", "OUI \u2014 coup VALABLE", "NON \u2014 coup NON VALABLE", "CONTESTATAIRE"),
        ("es", "S\u00cd \u2014 jugada V\u00c1LIDA", "NO \u2014 jugada NO V\u00c1LIDA", "IMPUGNADOR"),
        ("it", "S\u00cc \u2014 giocata VALIDA", "NO \u2014 giocata NON VALIDA", "CHI CONTESTA"),
        ("ca", "S\u00cd \u2014 jugada V\u00c0LIDA", "NO \u2014 jugada NO V\u00c0LIDA", "IMPUGNADOR"),
    ],
)
def test_a_play_is_judged_in_the_station_language(
    station: StationFactory, language: str, acceptable: str, unacceptable: str, prompt: str
) -> None:
    rig = station(language=language, rules=IMU)
    window = rig.window
    assert window.ready.prompt.text().startswith(prompt)
    type_text(window, "2cat dog")
    tab(window)
    assert window.verdict.headline.text() == acceptable
    rig.controller.verdict_timer.timeout.emit()
    type_text(window, "1zzz")
    tab(window)
    assert window.verdict.headline.text() == unacceptable
    assert (
        window.verdict.outcome.text()
        == {
            "fr": "Contestation r\u00e9ussie",
            "es": "Impugnaci\u00f3n acertada",
            "it": "Contestazione riuscita",
            "ca": "Impugnaci\u00f3 encertada",
        }[language]
    )


def test_the_screen_follows_the_division_of_the_challenge(station: StationFactory, pack: Path) -> None:
    """An English station with a French division: the ready and division screens speak the
    station's language; from the choice of the French division to its verdict, French; then
    English again for the next players."""
    divisions = (Division("Open", pack), Division("Classique", pack, language="fr"))
    rig = station(divisions=divisions, rules=IMU)
    window = rig.window
    assert window.ready.prompt.text().startswith("CHALLENGER: how many words")
    type_text(window, "2")
    assert window.division.question.text() == "Which division is your game in?"
    type_text(window, "2")
    assert window.header.division.text() == "Division\u00a0: Classique"
    assert window.entry.title.text() == "CONTESTATAIRE\u00a0: tapez le mot 1 sur 2"
    type_text(window, "cat dog ")
    assert window.entry.title.text() == "Les 2 mots sont tap\u00e9s"
    tab(window)
    assert window.verdict.headline.text() == "OUI \u2014 coup VALABLE"
    assert window.verdict.consequence.text() == (
        "Le coup reste jou\u00e9. Le CONTESTATAIRE perd 10 points et le JOUEUR CONTEST\u00c9 gagne 10 points."
    )
    rig.controller.verdict_timer.timeout.emit()
    assert window.ready.prompt.text().startswith("CHALLENGER: how many words")
    type_text(window, "11cat")
    assert window.entry.title.text() == "CHALLENGER: type word 1 of 1"


def test_french_counts_one_and_zero_in_the_singular(station: StationFactory) -> None:
    window = station(language="fr").window
    type_text(window, "3ca")
    assert window.entry.grid.counts[0].text() == "2 lettres"
    backspace(window)
    assert window.entry.grid.counts[0].text() == "1 lettre"
    backspace(window)
    tab(window)
    assert window.entry.notice.text() == "Tapez d'abord les 3 mots"


# -- nothing escapes the catalogue ---------------------------------------------------------------


_ENGLISH_MARK = "\u2592"  # around the English of an error written whole, in the pseudo-language


def pseudo_language() -> Catalogue:
    """Every message of kiosk.pot as ⟦message⟧, placeholders kept: compiled here with Babel. The
    English detail of an error written whole stays outside the brackets: it escaped the catalogue."""
    with POT.open("rb") as stream:
        template = read_po(stream)
    pseudo = Catalog(locale="en", domain="kiosk")
    for message in template:
        if not message.id:
            continue
        if isinstance(message.id, tuple):
            pseudo.add(message.id, tuple(f"\u27e6{text}\u27e7" for text in message.id))
        elif message.id == SUMMED_UP:  # the detail of an error written whole is English, not ours
            pseudo.add(message.id, f"\u27e6{{summary}}:\u27e7 {_ENGLISH_MARK}{{detail}}{_ENGLISH_MARK}")
        else:
            pseudo.add(message.id, f"\u27e6{message.id}\u27e7")
    compiled = io.BytesIO()
    write_mo(compiled, pseudo)
    compiled.seek(0)
    return Catalogue(language="en", translations=gettext.GNUTranslations(compiled))


_BRACKETED = re.compile("\u27e6[^\u27e6\u27e7]*\u27e7")
_ENGLISH = re.compile(f"{_ENGLISH_MARK}([^{_ENGLISH_MARK}]*){_ENGLISH_MARK}")


def escaped(text: str, data: tuple[str, ...]) -> str:
    """What of ``text`` is neither translated (bracketed) nor data: "" when all is well. The English
    of an error written whole escaped, wherever it stands (a value inside a translated message)."""
    english = " ".join(_ENGLISH.findall(text))
    text = _ENGLISH.sub(" ", text)
    while _BRACKETED.search(text):
        text = _BRACKETED.sub(" ", text)
    text = f"{text} {english}"
    for item in sorted(data, key=len, reverse=True):
        text = text.replace(item, " ")
    return " ".join(word for word in re.split(r"[^\w]+", text) if word and not word.isdigit())


_PLACEHOLDER = re.compile(r"\{[^{}]*\}")
_WORD = re.compile(r"[^\W\d_]{3,}")  # letters only, three or more


def _words(text: str) -> set[str]:
    return {word.lower() for word in _WORD.findall(_PLACEHOLDER.sub(" ", text))}


@functools.cache
def english_only(code: str) -> frozenset[str]:
    """The words the English of ``code``'s translated messages uses and none of its translations
    does ("directory", "from", "station" in French): on a screen in that language, English left.
    A message the catalogue does not translate yet is English on purpose, and not counted."""
    with (POT.parent / code / "LC_MESSAGES" / "kiosk.po").open("rb") as stream:
        catalogue = read_po(stream)
    english: set[str] = set()
    translated: set[str] = set()
    for message in catalogue:
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if not message.id or message.fuzzy or not all(strings):
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        english.update(*(_words(str(text)) for text in ids))
        translated.update(*(_words(str(text)) for text in strings))
    return frozenset(english - translated)


@dataclass(frozen=True)
class Speech:
    """A catalogue the walks run in, and what a text it shows may not hold: for the pseudo-language
    anything outside its brackets; for a real language, English (``english_only``)."""

    words: Catalogue
    code: str = ""  # "" for the pseudo-language

    def left(self, text: str, data: tuple[str, ...]) -> str:
        if not self.code:
            return escaped(text, data)
        for item in sorted(data, key=len, reverse=True):
            text = text.replace(item, " ")
        # a path or a list of keys may wrap anywhere: a word of the data is data, wherever it stands
        data_words = {word.lower() for item in data for word in _WORD.findall(item)}
        english = english_only(self.code) - data_words
        return " ".join(word for word in _WORD.findall(text) if word.lower() in english)


def speech(spoken_as: str) -> Speech:
    if spoken_as == "pseudo":
        return Speech(pseudo_language())
    return Speech(load_catalogue(spoken_as), spoken_as)


SPOKEN_AS = ["pseudo", *LANGUAGES]


def assert_nothing_escapes(window: StationWindow, data: tuple[str, ...], said: Speech | None = None) -> int:
    seen = 0
    for name, text in visible_texts(window):
        if name.startswith("slot-") and name.endswith("-word"):
            continue  # the words as typed
        if name.startswith("key-") and len(name) == 5:
            continue  # a letter or a digit of the touch keyboard
        left = said.left(text, data) if said is not None else escaped(text, data)
        assert left == "", f"{name}: {text!r} is not from the catalogue ({left!r})"
        seen += 1
    return seen


@pytest.mark.parametrize("spoken_as", SPOKEN_AS)
@pytest.mark.parametrize("touch", [False, True])
def test_every_text_on_the_players_screens_comes_from_the_catalogue(
    station: StationFactory, pack: Path, tmp_path: Path, touch: bool, spoken_as: str
) -> None:
    said = speech(spoken_as)
    words = said.words
    divisions = (Division("Open", pack), Division("Schools", pack, youth_rules=True))
    languages = Languages(station=words, divisions=(words, words))
    rig = station(divisions=divisions, languages=languages, ask_table=True, rules=IMU, touch=touch)
    window = rig.window
    data = ("Station 7", "Open", "Schools", "Club list", "2026", "OK", "\u232b", "WW", "_")
    seen = assert_nothing_escapes(window, data, said)  # ready
    type_text(window, "x")
    type_text(window, "2")
    type_text(window, "0")  # a refused table number
    seen += assert_nothing_escapes(window, data, said)
    type_text(window, "12")
    enter(window)
    type_text(window, "9")  # no such division
    seen += assert_nothing_escapes(window, data, said)
    type_text(window, "2")
    type_text(window, "c\u00e9")  # a refused letter: shown as it is, never by its English name
    seen += assert_nothing_escapes(window, (*data, "\u00e9"), said)
    type_text(window, "\u0430")  # a Cyrillic a: its code point and its alphabet, from the catalogue
    seen += assert_nothing_escapes(window, (*data, "\u0430", "U+0430"), said)
    type_text(window, " ")  # a word too short
    seen += assert_nothing_escapes(window, data, said)
    type_text(window, "at wwwwwwwwwwwwwwww")  # a word too long
    seen += assert_nothing_escapes(window, data, said)
    backspace(window)
    rig.controller.idle_timer.timeout.emit()  # the idle warning
    seen += assert_nothing_escapes(window, data, said)
    for _ in range(16):
        backspace(window)
    type_text(window, "dogs ")
    seen += assert_nothing_escapes(window, data, said)  # check the spelling, the division and the table
    tab(window)
    seen += assert_nothing_escapes(window, data, said)  # the verdict and its consequence
    rig.controller.verdict_timer.timeout.emit()
    rig.log.failing = True
    type_text(window, "11")
    enter(window)
    type_text(window, "2cat")
    tab(window)
    assert window.stack.currentWidget() is window.fault
    seen += assert_nothing_escapes(window, data, said)
    problem = NotAPackError(marked("{path} does not exist; check the pack path"), path="/srv/x.kxpack")
    window.show_not_ready(problem.wording, command="kiosk set-pin")  # the station cannot serve
    seen += assert_nothing_escapes(window, (*data, "/srv/x.kxpack", "kiosk set-pin"), said)
    # no judge PIN yet: where the station keeps it, and where that folder was named, in its words
    source = tmp_path / "station.toml"
    where = station_data(StationConfig(divisions=(), data_dir=tmp_path / "data", source=source))
    command = where.set_pin_command()
    how = f"{words.text(ONE_LINE)} {words.text(SERVES_BY_ITSELF)}"
    window.show_not_ready(no_pin_problem(where, "kiosk"), command=command, how=how)
    shown = (*data, str(where.local_database), str(source), *command.split())  # the command may wrap
    seen += assert_nothing_escapes(window, shown, said)
    assert seen > 40


@pytest.mark.parametrize("spoken_as", SPOKEN_AS)
@pytest.mark.parametrize("touch", [False, True])
def test_the_screens_of_a_pack_in_another_alphabet_come_from_the_catalogue(
    station: StationFactory, make_pack: PackFactory, touch: bool, spoken_as: str
) -> None:
    """Tiles, tile counts, letters the alphabet lacks and words too long in tiles: the texts a
    Spanish pack brings (the English-pack walk above never shows them)."""
    said = speech(spoken_as)
    words = said.words
    pack = make_pack(["CHALLA", "CALLE", "PERRO"], alphabet="spanish", name="FISE club", max_length=5)
    rig = station(divisions=(Division("Open", pack),), languages=Languages(words, (words,)), touch=touch)
    window = rig.window
    keys = ("CH", "LL", "RR", "\u00d1")  # the multi-letter tiles of the touch keyboard
    data = ("Station 7", "Open", "FISE club", "OK", "\u232b", "_", *keys)
    seen = assert_nothing_escapes(window, data, said)  # ready
    type_text(window, "2")
    type_text(window, "challa")  # tiles, counted as tiles
    seen += assert_nothing_escapes(window, data, said)
    type_text(window, "k")  # a letter A-Z that Spanish lacks
    seen += assert_nothing_escapes(window, (*data, "k"), said)
    type_text(window, " perrosss")  # six tiles: longer than the pack's five
    seen += assert_nothing_escapes(window, data, said)
    for _ in range(3):
        backspace(window)
    type_text(window, " ")
    seen += assert_nothing_escapes(window, data, said)  # check the spelling
    tab(window)
    seen += assert_nothing_escapes(window, data, said)  # the verdict
    assert seen > 12


@pytest.mark.parametrize("spoken_as", SPOKEN_AS)
def test_a_director_s_mistakes_on_the_not_ready_screen_come_from_the_catalogue(
    station: StationFactory, tmp_path: Path, spoken_as: str
) -> None:
    """Configuration mistakes and files of the wrong kind, as the judge reads them: nothing but the
    file's own keys, values and paths outside the catalogue."""
    said = speech(spoken_as)
    words = said.words
    window = station(languages=Languages(station=words, divisions=(words,))).window
    (tmp_path / "club.zip").write_bytes(b"PK\x05\x06" + bytes(18))  # an empty zip archive
    (tmp_path / "words").mkdir()
    (tmp_path / "club.txt").write_text("AARDVARK\nABACUS\nZEBRA\n" * 20, encoding="utf-8")
    keys = "colour, expect, language, name, pack, second_opinion_pack, youth_rules"
    mistakes = [
        ("[[divisions]]\nname = 'A'\nyouth_rule = true\n", ("'youth_rule'", keys)),
        ("touch = 'yes'\n", ("'touch'", "true", "false", "'yes'")),
        ("[timings]\nverdict_display_ms = 20\n", ("[timings]", "'verdict_display_ms'")),
        ("[rules]\nprofile = 'x'\n", ("[rules]", "'profile'", "'x'", *(k.value for k in ProfileKind))),
        (
            "language = 'xx'\n",
            ("language = 'xx'", *language_names(), *language_names().values()),
        ),
        ("[[divisions]]\nname = 'A'\n[[divisions]]\nname = 'a'\n", ("'a'",)),
        ("[rules]\nprofile = 'escalating'\nescalation = [10, 5]\n", ("[rules]", "escalation", "[10, 5]")),
        ("[[trusted_keys]]\nname = 'TD'\n", ("trusted_keys[0]", "name", "public_key")),
        ("[[divisions]]\nname = 'A'\npack = 'club.zip'\n", ("'A'", "pack")),
        ("[[divisions]]\nname = 'A'\npack = 'words'\n", ("'A'", "pack")),
        (
            "[[divisions]]\nname = 'A'\npack = 'club.txt'\n",
            ("'A'", "pack", "lexicon-build build --name NAME --source", "-o club.kxpack"),
        ),
    ]
    seen = 0
    for text, data in mistakes:
        config = tmp_path / "station.toml"
        config.write_text(text, encoding="utf-8")
        with pytest.raises(KioskError) as refused:
            load_divisions(load_station_config(config))
        assert isinstance(refused.value, ConfigError | NotAPackError), refused.value
        window.show_not_ready(refused.value.wording)
        paths = tuple(str(tmp_path / name) for name in ("club.zip", "words", "club.txt"))
        seen += assert_nothing_escapes(window, (*data, *paths, str(config), "Station 7", "Open"), said)
    assert seen >= 3 * len(mistakes)


def test_the_escape_check_finds_an_english_text(station: StationFactory) -> None:
    """The check itself: a text set in English, not through the catalogue, is found."""
    words = pseudo_language()
    window = station(languages=Languages(station=words, divisions=(words,))).window
    window.ready.caption.setText("Lexicon")
    with pytest.raises(AssertionError, match="ready-caption"):
        assert_nothing_escapes(window, ("Station 7", "Open", "Club list", "2026"))


def test_a_missing_compiled_catalogue_is_named(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """An installation built without its catalogues says so, instead of showing English."""
    assert load_catalogue("fr").text("Lexicon") == "Lexique"
    monkeypatch.setattr("kiosk.core.words.language._catalogue_path", lambda code: tmp_path / f"{code}.mo")
    with pytest.raises(Exception, match=r"no compiled fr catalogue .*reinstall"):
        load_catalogue("fr", where="station.toml: language")


@pytest.mark.parametrize(
    ("language", "headline"),
    [
        ("fr", "Borne indisponible \u2014 appelez un arbitre"),
        ("es", "Puesto no disponible \u2014 llame a un juez"),
        ("it", "Postazione non disponibile \u2014 chiama un arbitro"),
        ("ca", "Terminal no disponible \u2014 crideu un \u00e0rbitre"),
    ],
)
def test_a_station_not_ready_says_so_in_its_language(
    station: StationFactory, language: str, headline: str
) -> None:
    window = station(language=language).window
    window.show_not_ready(
        "no judge PIN is set for /var/lib/challenge-kiosk", command="kiosk set-pin --config x"
    )
    assert window.notice.headline.text() == headline
    assert_every_text_fits(window)


def test_wrong_pins_are_counted_in_spanish_agreeing_with_their_number(judge_station: JudgeFactory) -> None:
    window = judge_station(language="es").window
    press(window, Qt.Key.Key_Escape)
    judge = window.judge
    type_text(window, "999999")
    enter(window)
    assert judge.door.message.text() == "1 PIN err\u00f3neo seguido"  # it said "(1 seguidos)"
    type_text(window, PIN)
    enter(window)
    assert judge.menu.warning.text().startswith(
        "Antes de este PIN, una racha de 1 PIN err\u00f3neo, el \u00faltimo"
    )


@pytest.mark.parametrize("size", SIZES)
def test_the_judge_door_and_menu_speak_the_station_language(
    judge_station: JudgeFactory, size: tuple[int, int]
) -> None:
    window = judge_station(language="fr", size=size).window
    press(window, Qt.Key.Key_Escape)
    judge = window.judge
    assert judge.title.text() == "Mode arbitre \u2014 r\u00e9serv\u00e9 aux arbitres"
    assert judge.door.title.text() == "Code arbitre"
    assert_every_text_fits(window)
    type_text(window, "999999")
    enter(window)
    assert judge.door.message.text() == "1 code erron\u00e9 de suite"
    type_text(window, "999998")
    enter(window)
    assert judge.door.message.text() == "2 codes erron\u00e9s de suite"
    type_text(window, PIN)
    enter(window)
    assert judge.current is judge.menu
    assert judge.menu.buttons[JudgePage.EXIT].text() == "8  Quitter la borne"
    assert judge.menu.warning.text().startswith("Avant ce code\u00a0: 2 codes erron\u00e9s de suite")
    assert judge.hint.text() == (
        "Tapez un chiffre de 1 \u00e0 8, ou touchez \u00b7 \u00c9chap\u00a0: retour \u00e0 la borne"
    )
    assert_every_text_fits(window)
    type_text(window, "4")  # today's counts
    assert judge.counts.text.source.startswith("Contestations du jour (depuis minuit), \u00e0 ")
    assert_every_text_fits(window)
    press(window, Qt.Key.Key_Escape)
    type_text(window, "6")  # the log's status
    assert judge.status.commands[0].text() == "Transmettre maintenant (F)"
    assert judge.status.text.source.startswith("Journal de cette borne (SQLite)\u00a0:")
    assert_every_text_fits(window)
    press(window, Qt.Key.Key_Escape)
    type_text(window, "8")  # exit the station?
    assert judge.exit_page.headline.text() == "Quitter la borne\u00a0?"
    assert judge.exit_page.confirm.text() == "Oui, quitter\n(Entr\u00e9e)"
    assert_every_text_fits(window)


def test_before_the_choice_the_screens_speak_the_divisions_common_language(
    station: StationFactory, pack: Path
) -> None:
    """An English station whose two divisions both speak Spanish asks the count in Spanish."""
    divisions = (Division("Abierta", pack, language="es"), Division("Escolar", pack, language="es"))
    window = station(divisions=divisions).window
    assert window.ready.prompt.text().startswith("IMPUGNADOR: \u00bfcu\u00e1ntas palabras")
    type_text(window, "1")
    assert window.division.question.text() == "\u00bfEn qu\u00e9 divisi\u00f3n juega?"


# -- judge mode: every page, every state a judge meets, in the pseudo-language -------------------

_HEX = re.compile(r"\b[0-9a-f]{4,}\b|\b[0-9a-f]{8}-[0-9a-f-]{27}\b")  # digests and challenge ids


def full_texts(window: QWidget) -> list[tuple[str, str]]:
    """(object name, whole text) of every label and button shown: a text cut short to fit is
    read whole (``source``, ``full_text``), so that no half word passes for an escape."""
    shown: list[tuple[str, str]] = []
    widgets: list[QLabel | QAbstractButton] = [
        *window.findChildren(QLabel),
        *window.findChildren(QAbstractButton),
    ]
    for widget in widgets:
        whole = getattr(widget, "source", None) or getattr(widget, "full_text", None) or widget.text()
        if widget.isVisible() and isinstance(whole, str) and whole:
            shown.append((widget.objectName(), whole))
    return shown


def open_page(window: StationWindow, number: str) -> None:
    """Back to judge mode's menu (never out of judge mode), then the page ``number``."""
    judge = window.judge
    while judge.current is not judge.menu:
        press(window, Qt.Key.Key_Escape)
        assert window.stack.currentWidget() is judge, "Esc left judge mode"
    type_text(window, number)
    assert judge.current is judge.page_for[MENU_PAGES[int(number) - 1]]


def assert_judge_mode_speaks_the_catalogue(
    window: StationWindow, data: tuple[str, ...], where: str, said: Speech
) -> int:
    seen = 0
    for name, text in full_texts(window):
        if name.startswith("door-key-") or name.startswith("key-"):
            continue  # a digit of the PIN keypad
        left = said.left(_HEX.sub(" ", text), data)
        assert left == "", f"{where}: {name}: {text!r} is not from the catalogue ({left!r})"
        seen += 1
    return seen


@pytest.mark.parametrize("spoken_as", SPOKEN_AS)
@pytest.mark.parametrize("touch", [False, True])
def test_every_text_in_judge_mode_comes_from_the_catalogue(
    judge_station: JudgeFactory, pack: Path, tmp_path: Path, touch: bool, spoken_as: str
) -> None:
    """Door, menu and every page behind it, in each state a judge meets: a refused PIN, the
    recheck with a challenge the log lost (its storage error said in the catalogue's words),
    a reload, unsaved and saved settings, no USB stick then one, the log status after a fault."""
    said = speech(spoken_as)
    words = said.words
    divisions = (Division("Open", pack), Division("Schools", pack, youth_rules=True))
    languages = Languages(station=words, divisions=(words, words))
    rig = judge_station(divisions=divisions, languages=languages, ask_table=True, rules=IMU, touch=touch)
    window = rig.window
    data_dir = tmp_path / "data"
    media = tmp_path / "media"
    stick = media / "judge" / "STICK"
    data = (
        "Station 7",
        "Open",
        "Schools",
        "Club list",
        "2026",
        "CAT",
        "DOGS",
        "ZZZ",
        "UTC",
        str(data_dir / "exports"),
        str(data_dir / "kiosk.sqlite3"),
        "challenges-Station_7",  # the CSV file's name, the same in every language
        str(data_dir),
        str(media),
        str(stick),
        str(pack),  # a refused file is named whole
        pack.name,
        "sqlite3",
        "csv",
        "OK",
        "\u232b",
        "IMU",
        "penalty",
        "both",  # the rule profile's name, as the log keeps it
        "_",  # a PIN digit not typed yet
        "kiosk set-pin",  # a command, typed as it is
        "(R)",  # a letter key, named on the button it stands for
        "(F)",
    )
    for count, play in (("2", "dogs cat "), ("1", "zzz ")):
        type_text(window, count)
        type_text(window, "12")
        enter(window)
        type_text(window, "2")
        type_text(window, play)
        tab(window)
        rig.controller.verdict_timer.timeout.emit()
    for path in data_dir.glob("kiosk.sqlite3*"):
        path.unlink()  # the log goes: the next challenge is kept in memory, and the station says why
    type_text(window, "1")
    type_text(window, "12")
    enter(window)
    type_text(window, "1cat ")
    tab(window)
    assert window.stack.currentWidget() is window.fault
    mounted: list[Path] = []
    window.judge.use_media((media,), lambda: list(mounted))

    def check(where: str) -> int:
        return assert_judge_mode_speaks_the_catalogue(window, data, where, said)

    seen = 0
    press(window, Qt.Key.Key_Escape)
    seen += check("the door")
    type_text(window, "999999")
    enter(window)
    seen += check("a wrong PIN")
    type_text(window, PIN)
    enter(window)
    seen += check("the menu")
    open_page(window, "1")
    seen += check("the recheck")
    press(window, Qt.Key.Key_Down)
    press(window, Qt.Key.Key_Right)
    type_text(window, "s")
    seen += check("the recheck, another challenge, period and station")
    open_page(window, "2")
    seen += check("the packs")
    type_text(window, "r")
    seen += check("the packs reloaded")
    damaged = bytearray(pack.read_bytes())
    damaged[len(damaged) // 2] ^= 0x40
    pack.write_bytes(bytes(damaged))
    type_text(window, "r")
    assert words.text("The files the reload refused:") in window.judge.packs.text.source
    seen += check("a reload refused: the pack is damaged")
    open_page(window, "3")
    seen += check("the settings")
    press(window, Qt.Key.Key_Down)
    press(window, Qt.Key.Key_Right)
    seen += check("a setting changed")
    press(window, Qt.Key.Key_Escape)
    seen += check("leaving unsaved settings")
    enter(window)
    seen += check("the settings saved, or not")
    press(window, Qt.Key.Key_Escape)
    open_page(window, "4")
    seen += check("today's counts")
    open_page(window, "5")
    seen += check("the export, no stick")
    stick.mkdir(parents=True)
    mounted.append(stick)
    rig.advance(1.0)
    seen += check("the export, a stick")
    enter(window)
    seen += check("the export written, or not")
    open_page(window, "6")
    seen += check("the log status")
    open_page(window, "8")
    seen += check("exit the station?")
    assert seen > 80


def assert_shown_whole(window: QWidget, where: str) -> None:
    """No text cut short (…) to fit: a longer French or Spanish text must get a smaller type or
    more lines, never lose its end. (A recheck row is cut by design: the card below shows it all.)"""
    widgets: list[QLabel | QAbstractButton] = [
        *window.findChildren(QLabel),
        *window.findChildren(QAbstractButton),
    ]
    for widget in widgets:
        whole = getattr(widget, "source", None) or getattr(widget, "full_text", None)
        if not widget.isVisible() or not isinstance(whole, str) or not whole:
            continue
        if widget.objectName().startswith("recheck-row-"):
            continue
        shown = "".join(widget.text().split())  # lines may break anywhere, a long path too
        assert shown == "".join(whole.split()), f"{where}: {widget.objectName()} cut short: {widget.text()!r}"


@pytest.mark.parametrize("touch", [False, True])
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_judge_page_fits_in_every_language(
    judge_station: JudgeFactory, pack: Path, tmp_path: Path, language: str, touch: bool
) -> None:
    """At 1024x600, the longest cases of each page: eight 15-letter words and a kept challenge on
    the recheck, a refused reload with its damaged file, the longest settings notice, the export
    with no stick then written, the log status after the log file was deleted."""
    divisions = (Division("Open", pack), Division("\u00c9coles", pack, youth_rules=True))
    rig = judge_station(divisions=divisions, language=language, ask_table=True, rules=IMU, touch=touch)
    window = rig.window
    data_dir = tmp_path / "data"
    for play in (EIGHT_LONG, "2dogs cat "):
        type_text(window, play[0])
        type_text(window, "123")
        enter(window)
        type_text(window, "2")
        type_text(window, play[1:] + " ")
        tab(window)
        rig.controller.verdict_timer.timeout.emit()
    for path in data_dir.glob("kiosk.sqlite3*"):
        path.unlink()
    type_text(window, "1")
    type_text(window, "123")
    enter(window)
    type_text(window, "1cat ")
    tab(window)
    mounted: list[Path] = []
    window.judge.use_media((tmp_path / "media",), lambda: list(mounted))

    def fits(where: str) -> None:
        assert_every_text_fits(window)
        assert_shown_whole(window, where)

    press(window, Qt.Key.Key_Escape)
    type_text(window, "999999")
    enter(window)
    fits("a wrong PIN")
    type_text(window, PIN)
    enter(window)
    fits("the menu")
    open_page(window, "1")
    for _ in range(3):
        fits("the recheck")
        press(window, Qt.Key.Key_Down)
    open_page(window, "2")
    fits("the packs")
    damaged = bytearray(pack.read_bytes())
    damaged[len(damaged) // 2] ^= 0x40
    pack.write_bytes(bytes(damaged))
    type_text(window, "r")
    fits("a reload refused")
    open_page(window, "3")
    fits("the settings")
    for _ in range(2):
        press(window, Qt.Key.Key_Down)
    press(window, Qt.Key.Key_Right)
    press(window, Qt.Key.Key_Escape)
    fits("leaving unsaved settings")
    press(window, Qt.Key.Key_Escape)
    open_page(window, "4")
    fits("today's counts")
    open_page(window, "5")
    fits("the export, no stick")
    enter(window)
    fits("the export written, or refused")
    open_page(window, "6")
    fits("the log status after a fault")
    open_page(window, "8")
    fits("exit the station?")
