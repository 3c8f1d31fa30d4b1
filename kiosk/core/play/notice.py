"""The players' notices in their language: what the session's facts (``kiosk.core.play.session.Notice``,
the characters ``refused``) say on the table, division and entry screens.

The session says what happened, never how; this module words it, naming the keys the players have:
Tab and Esc on a keyboard, JUDGE and CLEAR on a touch screen. Every message id is here, in one
place. No Qt: the session's own tests read the words through it.
"""

from __future__ import annotations

import unicodedata

from kiosk.core.play.session import Length, Notice, Said, SessionState
from kiosk.core.words.alphabet import ASCII_LETTERS, Alphabet
from kiosk.core.words.language import Catalogue, marked
from kiosk.core.words.normalise import MIN_WORD_LETTERS, describe_character

__all__ = ["notice_text", "refusal_text"]

# The scripts whose letters pass for Latin ones most often, named in the players' language; any
# other is "a letter of another alphabet". (English names the letter itself: Unicode's names are
# English.)
_SCRIPT_NAMES = {
    "CYRILLIC": marked("a Cyrillic letter"),
    "GREEK": marked("a Greek letter"),
    "ARMENIAN": marked("an Armenian letter"),
    "CHEROKEE": marked("a Cherokee letter"),
    "COPTIC": marked("a Coptic letter"),
    "HEBREW": marked("a Hebrew letter"),
    "ARABIC": marked("an Arabic letter"),
}
_ANOTHER_SCRIPT = marked("a letter of another alphabet")
_A_TO_Z = tuple(ASCII_LETTERS)
_TABLE_TEXTS = {
    Said.TABLE_DIGITS_ONLY: marked("The table number is digits only: 0 to 9"),
    Said.TABLE_FROM_ONE: marked("Table numbers start at 1"),
    Said.TABLE_DIGITS_MOST: marked("A table number has at most {count} digits"),
    Said.TABLE_FIRST: marked("First type your table number"),
}


def notice_text(state: SessionState, *, touch: bool = False) -> str:
    """What ``state.notice`` says, in the screen's language; "" for no notice. ``touch``: the
    players have a touch screen's keys, not a keyboard's."""
    notice = state.notice
    if notice is None:
        return ""
    t = state.language
    said = notice.said
    if said is Said.NOT_FINISHED:
        return t.text("Not finished: {problem}", problem=_length_problem(notice, state))
    if said is Said.NOT_TYPED:
        problem = _length_problem(notice, state) or t.text(
            "this lexicon holds words of at most {maximum} tiles", maximum=state.max_length
        )
        return t.text("Not typed: {problem}", problem=problem)
    if said is Said.TOO_LONG:
        return t.text("Too long: {problem}. Backspace corrects it", problem=_length_problem(notice, state))
    if said is Said.ALL_TYPED:
        all_typed = t.plural("The word is typed", "All {count} words are typed", state.expected)
        if touch:
            return t.text("{all_typed}: tap JUDGE to judge, or CLEAR to start again", all_typed=all_typed)
        return t.text("{all_typed}: press TAB to judge, or Esc to start again", all_typed=all_typed)
    if said is Said.TYPE_FIRST:
        text = t.plural("Type the word first", "Type all {count} words first", state.expected)
        if 0 < notice.count < state.expected:
            text += " " + t.plural("({count} to go)", "({count} to go)", notice.count)
        return text
    if said is Said.DIVISION_FIRST:
        count = notice.count
        numbers = t.text("1 or 2") if count == 2 else t.text("1 to {last}", last=count)
        return t.text("First the division of your game: press its number, {numbers}", numbers=numbers)
    return t.text(_TABLE_TEXTS[said], count=notice.count)


def _length_problem(notice: Notice, state: SessionState) -> str:
    """What is wrong with the length of the notice's word; "" if nothing. Lengths are tiles in an
    alphabet of multi-letter tiles, letters in one whose tiles are single letters."""
    t = state.language
    alphabet = state.alphabet
    shown = f"'{alphabet.shown(notice.word)}'"  # the word as the screen shows it, in quotes
    count = notice.count
    if notice.length is Length.UNREADABLE:
        return t.text("{word} cannot be read as tiles ({tiles})", word=shown, tiles=" ".join(alphabet.tiles))
    if notice.length is None:
        return ""
    if alphabet.simple:
        has = t.plural("{word} has {count} letter", "{word} has {count} letters", count, word=shown)
        if notice.length is Length.SHORT:
            limit = t.text("a word has at least {minimum} letters", minimum=MIN_WORD_LETTERS)
        else:
            limit = t.text("this lexicon holds words of at most {maximum} letters", maximum=state.max_length)
    else:
        has = t.plural("{word} has {count} tile", "{word} has {count} tiles", count, word=shown)
        if notice.length is Length.SHORT:
            limit = t.text("a word has at least {minimum} tiles", minimum=MIN_WORD_LETTERS)
        else:
            limit = t.text("this lexicon holds words of at most {maximum} tiles", maximum=state.max_length)
    return f"{has}; {limit}"


def refusal_text(state: SessionState) -> str:
    """The characters refused in this entry, named for players, in the screen's language; "" if none."""
    refused = state.refused
    if not refused:
        return ""
    t = state.language
    names = ", ".join(_name_for_players(c, t) for c in refused)
    if _is_a_to_z(state.alphabet):
        return t.plural(
            "Not typed: {characters} is not one of the letters A to Z",
            "Not typed: {characters} are not letters A to Z",
            len(refused),
            characters=names,
        )
    return t.plural(
        "Not typed: {characters} is not a letter of this lexicon ({tiles})",
        "Not typed: {characters} are not letters of this lexicon ({tiles})",
        len(refused),
        characters=names,
        tiles=" ".join(state.alphabet.tiles),
    )


def _is_a_to_z(alphabet: Alphabet) -> bool:
    """Whether the alphabet's tiles are the letters A to Z and no others (English, Italian)."""
    return alphabet.tiles == _A_TO_Z


def _code(char: str) -> str:
    return f"U+{ord(char):04X}"


def _name_for_players(char: str, t: Catalogue) -> str:
    """Short words a player can read: the character itself, named only where that helps.

    A digit, a punctuation mark or a letter A-Z (refused by an alphabet without it: Spanish K) is
    shown as it is. A letter that only looks like one of A-Z (a Cyrillic a, a dotless i) is shown
    with what tells it apart: where the words are the English message ids themselves, its Unicode
    name (Unicode's names are English); in another language its code point and, for another
    script, the script in the players' words (a twelve-year-old reads "U+0430, a Cyrillic letter",
    not "CYRILLIC SMALL LETTER A"). An accented Latin letter ("é") says enough by itself. An
    invisible character is shown by its code.
    """
    english_words = t.is_message_ids
    if not char.isprintable() or char.isspace() or unicodedata.category(char).startswith(("M", "C")):
        if english_words:
            return t.text("an invisible character {description}", description=describe_character(char))
        return t.text("an invisible character ({code})", code=_code(char))
    if not char.isalpha() or char.isascii():
        return f'"{char}"'  # a digit, a mark, or a letter A-Z some alphabets lack (Spanish K, Polish Q)
    name = unicodedata.name(char, "")
    if english_words:
        lower = name.lower()
        plain = lower.removeprefix("latin small letter ").removeprefix("latin capital letter ")
        if plain == lower:  # another script: its name matters, for look-alikes (Cyrillic a)
            plain = lower[:1].upper() + lower[1:]
        return f'"{char}" ({plain})' if plain else f'"{char}"'
    if name.startswith("LATIN "):
        base = unicodedata.decomposition(char).split(" ")[0]
        if base and not base.startswith("<") and chr(int(base, 16)).isascii():
            return f'"{char}"'  # an accented letter: it shows what it is
        return f'"{char}" ({_code(char)})'  # a Latin letter that passes for another: dotless i
    script = t.text(_SCRIPT_NAMES.get(name.partition(" ")[0], _ANOTHER_SCRIPT))
    return f'"{char}" ({_code(char)}, {script})'
