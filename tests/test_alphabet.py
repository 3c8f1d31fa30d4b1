"""Alphabet profiles (issues 13 and 24): packs built by the real builder from tiny lists in each
alphabet, typed words read as the station reads them (one reading: the tiles shown are the tiles
judged, the separator + types the other), tiles counted, and everything else refused by name."""

from __future__ import annotations

import hashlib
import re
import shlex
import struct
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.cli import kiosk
from kiosk.core.errors import (
    InputError,
    InvalidCharacterError,
    PackCorruptError,
    PackVersionError,
    SourceError,
    SourceLinesError,
    TileError,
    WordLengthError,
)
from kiosk.core.packs.lexicon import WORDS_SECTION, MarisaLexicon, load_lexicon
from kiosk.core.packs.pack import encode_pack, parse_pack, read_pack
from kiosk.core.packs.verification import make_trie
from kiosk.core.play.adjudication import adjudicate
from kiosk.core.play.batch import batch_rulings
from kiosk.core.words.alphabet import ENGLISH, alphabets
from kiosk.core.words.normalise import normalise_listed, normalise_word, read_typed, typed_tile
from lexicon_build.builder import build_pack
from lexicon_build.cli import main as lexicon_build
from lexicon_build.recipe import Recipe, SourceSpec, load_recipe
from tests.conftest import PackFactory, write_list
from tests.test_dwg import encode_dwg

SPANISH = alphabets()["spanish"]
CATALAN = alphabets()["catalan"]
# Our own words, real or not: no published list is needed to prove the tiles.
SPANISH_WORDS = ["CHALLAPATEÑA", "CALLE", "PERRO", "COCHE", "niño", "ÁRBOL", "CHE"]
CATALAN_WORDS = ["COL·LECCIÓ", "CALL", "ANYS", "QUE", "FAÇANA", "PEL.LÍCULA"]


def spanish(make_pack: PackFactory, words: list[str] = SPANISH_WORDS, **options: object) -> MarisaLexicon:
    return load_lexicon(make_pack(words, alphabet="spanish", **options))


def ruled(play: str, lexicon: MarisaLexicon) -> bool:
    return adjudicate(play, lexicon).acceptable


# --- Spanish: CH, LL, RR and Ñ -----------------------------------------------------------------


def test_a_spanish_word_typed_as_letters_is_read_as_its_tiles(make_pack: PackFactory) -> None:
    lexicon = spanish(make_pack)
    assert ruled("CHALLAPATEÑA", lexicon)
    assert ruled("challapateña", lexicon)
    assert ruled("calle perro coche niño", lexicon)
    assert ruled("arbol", lexicon)  # typed accents fold away; Ñ does not
    assert not ruled("nino", lexicon)
    assert read_typed("challapateña", SPANISH).tiles == (
        "CH", "A", "LL", "A", "P", "A", "T", "E", "Ñ", "A",
    )  # fmt: skip
    assert normalise_word("CHALLAPATEÑA", alphabet=SPANISH) == "[CH]A[LL]APATEÑA"
    assert "[CH]A[LL]APATEÑA" in lexicon


def test_a_pack_counts_tiles_not_letters(make_pack: PackFactory) -> None:
    lexicon = spanish(make_pack)
    counts = lexicon.info.counts_by_length
    assert counts[10] == 1  # CHALLAPATEÑA: 12 letters, 10 tiles
    assert 12 not in counts
    short = spanish(make_pack, ["CHALLA", "CALLES", "PERO"], max_length=4)
    assert ruled("CHALLA", short)  # 6 letters, 4 tiles: fits a pack of 4
    assert short.info.word_count == 2  # CALLES (5 tiles) is too long for it
    with pytest.raises(WordLengthError) as caught:
        adjudicate("calles", short)
    assert (caught.value.tiles, caught.value.limit, caught.value.alphabet) == (5, 4, "spanish")
    assert "5 tiles" in str(caught.value)


def test_typed_letters_have_one_reading_and_the_separator_types_the_other(make_pack: PackFactory) -> None:
    """FISE: C and H tiles never stand for CH (nor L+L for LL, R+R for RR). Typed CH is the tile;
    C+H is the two tiles, as a board holding them shows them. The pack never picks a reading."""
    lexicon = spanish(make_pack, ["CA[L]LO", "CALLA", "[CH]E", "CARRO"])
    assert normalise_word("callo", alphabet=SPANISH) == "CA[LL]O"
    assert not ruled("callo", lexicon)  # CA·LL·O: the pack holds only CA·L·L·O
    assert ruled("cal+lo", lexicon)
    assert ruled("calla che carro", lexicon)
    assert normalise_word("c+he", alphabet=SPANISH) == "CHE"
    assert not ruled("C+HE", lexicon)  # the C and H tiles laid for CHE: not the word
    assert not ruled("CAL+LA", lexicon)
    assert not ruled("car+ro", lexicon)
    assert ruled("CHE", lexicon)
    both = spanish(make_pack, ["CA[L]LO", "CALLO"])
    assert ruled("CALLO", both)
    assert ruled("CAL+LO", both)
    assert adjudicate("CALLO CAL+LO", both).words == ("CA[LL]O", "CALLO")


@pytest.mark.parametrize(
    ("typed", "error", "character", "position"),
    [
        ("KIWI", InvalidCharacterError, "K", 1),  # no K in FISE
        ("c\u0410lle", InvalidCharacterError, "\u0410", 2),  # Cyrillic A, a look-alike
        ("CA[LL]E", InvalidCharacterError, "[", 3),  # players type letters, never the pack's notation
        ("FAÇADA", InvalidCharacterError, "Ç", 3),  # Catalan's, not Spanish
        ("stra\u00dfe", InvalidCharacterError, "\u00df", 5),
    ],
)
def test_spanish_refuses_what_is_not_its_letters_by_name(
    typed: str, error: type[InputError], character: str, position: int
) -> None:
    with pytest.raises(error) as caught:
        normalise_word(typed, alphabet=SPANISH)
    refused = caught.value
    assert isinstance(refused, InvalidCharacterError)
    assert (refused.character, refused.position, refused.word, refused.alphabet) == (
        character, position, typed, "spanish",
    )  # fmt: skip
    assert f"U+{ord(character):04X}" in str(refused)
    assert "Spanish" in str(refused)


# --- Catalan: Ç, L·L, NY, QU ---------------------------------------------------------------------


def test_catalan_l_l_is_typed_three_ways_and_ll_is_two_l_tiles(make_pack: PackFactory) -> None:
    lexicon = load_lexicon(make_pack([*CATALAN_WORDS, "CAVALL"], alphabet="catalan"))
    for typed in ("col·lecció", "COL.LECCIO", "coŀlecció"):
        assert ruled(typed, lexicon), typed
    assert ruled("pel·lícula anys que façana", lexicon)
    # CALL, CAVALL are written with two L tiles (the ela palatal): typed LL is those, and only those
    assert read_typed("CALL", CATALAN).tiles == ("C", "A", "L", "L")
    assert ruled("CALL cavall", lexicon)
    assert not ruled("CAL·L", lexicon)
    assert not ruled("cal.l", lexicon)
    assert not ruled("collecció", lexicon)  # C·O·L·L·E...: two L tiles, not the L·L tile of the word
    assert lexicon.info.counts_by_length[8] == 2  # CO·L·L·E·C·C·I·O and P·E·L·L·Í·C·U·L·A... in tiles
    assert read_typed("quanys", CATALAN).tiles == ("QU", "A", "NY", "S")
    assert normalise_word("quanys", alphabet=CATALAN) == "[QU]A[NY]S"


def test_a_judge_reads_the_catalan_l_l_tile_apart_from_two_ls(make_pack: PackFactory) -> None:
    """`kiosk check --judge` shows each word as its tiles, apart by spaces: COL·LECCIÓ's L·L tile is
    not to be taken for the two L tiles of CALL (a dot between tiles made both read L·L)."""
    pack = make_pack(["COL·LECCIÓ", "CALL"], alphabet="catalan", name="DISC club")
    checked = CliRunner().invoke(kiosk, ["check", "--judge", "--pack", str(pack), "col·lecció call"])
    assert checked.exit_code == 0, checked.output
    lines = checked.output.splitlines()
    assert lines[1].endswith("(tiles: C O L·L E C C I O)"), lines
    assert lines[2].endswith("(tiles: C A L L)"), lines


@pytest.mark.parametrize(
    ("typed", "position"),
    [("QAT", 1), ("AQ", 2), ("YA", 1), ("A.B", 2), ("BA·", 3), ("AN+YS", 4), ("Q+UE", 1)],
)
def test_catalan_letters_that_make_no_tile_are_refused_where_they_stand(typed: str, position: int) -> None:
    with pytest.raises(TileError) as caught:
        normalise_word(typed, alphabet=CATALAN)
    assert (caught.value.position, caught.value.word, caught.value.alphabet) == (position, typed, "catalan")
    assert f"position {position}" in str(caught.value)


# --- French, Italian, Polish, German -------------------------------------------------------------


def test_french_accents_fold_away(make_pack: PackFactory) -> None:
    lexicon = load_lexicon(make_pack(["ÉTÉ", "COEUR", "GARCON"], alphabet="french"))
    assert lexicon.info.alphabet is alphabets()["french"]
    assert ruled("été cœur garçon", lexicon)
    assert ruled("ETE", lexicon)
    assert ruled("cafe\u0301"[:0] + "e\u0301te\u0301", lexicon)  # combining accents, as some keyboards send
    with pytest.raises(InvalidCharacterError):
        adjudicate("niño", lexicon)


def test_italian_words_may_be_longer_than_the_board(make_pack: PackFactory) -> None:
    long_word = "PRECIPITEVOLISSIMEVOLMENTE"  # 26 letters
    lexicon = load_lexicon(make_pack([long_word, "PERCHE"], alphabet="italian", max_length=30))
    assert lexicon.info.max_length == 30
    assert ruled(long_word.lower(), lexicon)
    assert ruled("perché", lexicon)
    board = load_lexicon(make_pack([long_word, "PERCHE"], alphabet="italian"))
    assert board.info.word_count == 1
    with pytest.raises(WordLengthError, match="at most 15"):
        adjudicate(long_word, board)


def test_polish_has_its_32_letters_and_no_q_v_x(make_pack: PackFactory) -> None:
    polish = alphabets()["polish"]
    assert len(polish.tiles) == 32
    lexicon = load_lexicon(make_pack(["ŻÓŁW", "ŹDŹBŁO", "ZOLW"], alphabet="polish"))
    assert ruled("żółw źdźbło", lexicon)
    assert adjudicate("żółw", lexicon).words == ("ŻÓŁW",)
    assert lexicon.info.counts_by_length == {4: 2, 6: 1}
    for letter in "QVX":
        with pytest.raises(InvalidCharacterError):
            normalise_word(f"A{letter}", alphabet=polish)


def test_german_sharp_s_is_typed_as_ss_and_umlauts_are_tiles(make_pack: PackFactory) -> None:
    lexicon = load_lexicon(make_pack(["STRASSE", "ÄRGER", "ARGER"], alphabet="german"))
    assert ruled("straße ärger", lexicon)
    assert ruled("STRA\u1e9eE", lexicon)  # capital sharp s
    assert ruled("arger", lexicon)
    assert adjudicate("ärger", lexicon).words == ("ÄRGER",)
    with pytest.raises(InvalidCharacterError):
        adjudicate("stra\u017fe", lexicon)  # long s is no s


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(sorted(alphabets())), st.text(min_size=1, max_size=20))
def test_any_text_in_any_alphabet_is_one_reading_of_its_tiles_or_an_input_error(name: str, raw: str) -> None:
    alphabet = alphabets()[name]
    try:
        stored = normalise_word(raw, alphabet=alphabet)
    except InputError as exc:
        refused_in = exc.alphabet
        assert refused_in == name
        return
    tiles = read_typed(raw, alphabet).tiles
    assert alphabet.stored_tiles(stored) == tiles  # the word judged is the reading shown
    assert 2 <= len(tiles) <= 15
    assert all(tile in alphabet.tiles for tile in tiles)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(sorted(alphabets())), st.data())
def test_every_stored_spelling_can_be_typed_and_the_touch_keyboard_types_it(
    name: str, data: st.DataObject
) -> None:
    """Any tiles, keyed one by one on the touch keyboard (each key a tile), are read as those
    tiles: C then H is C·H, a separator typed where letters would join."""
    alphabet = alphabets()[name]
    tiles = data.draw(st.lists(st.sampled_from(alphabet.tiles), min_size=2, max_size=8))
    stored = alphabet.stored(tiles)
    assert alphabet.stored_tiles(stored) == tuple(tiles)
    assert alphabet.tile_count(stored) == alphabet.counter(stored) == len(tiles)
    if alphabet is not ENGLISH:  # an English list is A-Z, no brackets
        assert normalise_listed("".join(f"[{tile}]" for tile in tiles), alphabet=alphabet) == stored
    typed = ""
    for tile in tiles:
        typed += typed_tile(typed, tile, alphabet)
    assert read_typed(typed, alphabet).tiles == tuple(tiles)
    assert normalise_word(typed, alphabet=alphabet, max_length=64) == stored
    separated = bool(alphabet.separator) and alphabet.separator in typed  # only where letters would join
    assert separated == (read_typed("".join(tiles), alphabet).tiles != tuple(tiles))


@pytest.mark.parametrize("name", sorted(alphabets()))
def test_each_profile_records_its_federations_rules_and_its_players_keyboards(name: str) -> None:
    """Issue 24: which letter pairs are tiles, the reading typed letters get, how to type the
    other, the touch keyboard in the players' layout and the physical keyboard, written down."""
    alphabet = alphabets()[name]
    assert alphabet.federation
    assert alphabet.rules
    assert alphabet.layout
    assert sorted(key for row in alphabet.keyboard for key in row.split()) == sorted(alphabet.tiles)
    for tile in (t for t in alphabet.tiles if len(t) > 1):
        assert tile in alphabet.rules  # each multi-letter tile and how it is typed
        assert "touch keyboard" in alphabet.rules
    assert (alphabet.separator == "+") == (not alphabet.simple)
    if name == "spanish":
        assert "C+H" in alphabet.rules


def test_english_is_what_it_always_was() -> None:
    assert normalise_word("cat") == normalise_word("cat", alphabet=ENGLISH) == "CAT"
    with pytest.raises(InvalidCharacterError, match="is not a letter A-Z"):
        normalise_word("ñu")


# --- the pack records its alphabet ---------------------------------------------------------------


def test_the_manifest_names_the_alphabet_and_english_packs_stay_as_they_were(make_pack: PackFactory) -> None:
    english = read_pack(make_pack(["CAT", "DOG"]))
    assert b'"alphabet"' not in english_manifest(english.path)
    assert english.info.alphabet is ENGLISH
    contents = read_pack(make_pack(SPANISH_WORDS, alphabet="spanish"))
    assert contents.info.alphabet is SPANISH
    assert b'"alphabet":"spanish"' in english_manifest(contents.path)


def english_manifest(path: Path | None) -> bytes:
    assert path is not None
    data = path.read_bytes()
    (length,) = struct.unpack_from("<I", data, 20)
    return data[24 : 24 + length]


def test_a_pack_of_an_alphabet_the_station_does_not_know_is_refused_clearly(make_pack: PackFactory) -> None:
    data = make_pack(SPANISH_WORDS, alphabet="spanish").read_bytes()
    content = data[:-32].replace(b'"alphabet":"spanish"', b'"alphabet":"klingon"')
    forged = content + hashlib.sha256(content).digest()
    with pytest.raises(PackVersionError, match=r'alphabet this station does not know.*"klingon"'):
        parse_pack(forged)
    content = data[:-32].replace(b'"alphabet":"spanish"', b'"alphabet":[1,2,3,4]')
    with pytest.raises(PackCorruptError, match=r"pack\.alphabet is .*not a non-empty text"):
        parse_pack(content + hashlib.sha256(content).digest())


def test_the_walk_refuses_a_pack_whose_words_are_not_its_alphabet(make_pack: PackFactory) -> None:
    contents = parse_pack(make_pack(["CHALLA", "PERRO"], alphabet="spanish").read_bytes())
    forged = encode_pack(contents.info, {WORDS_SECTION: make_trie(["KASA", "PERRO"])})  # no K in FISE
    with pytest.raises(PackCorruptError, match="not a word of the Spanish alphabet"):
        load_lexicon(forged)


# --- readers: plain lists, Zyzzyva graphs, recipes ------------------------------------------------


def test_a_fise_graph_is_read_with_its_digits_as_tiles(tmp_path: Path) -> None:
    graph = tmp_path / "FISE.dwg"
    graph.write_bytes(encode_dwg(["CA1O", "2AMA", "PE3O", "4U", "1A2APATE4A", "CHE"]))
    result = build_pack(Recipe(name="FISE", sources=(SourceSpec(path=graph),), alphabet=SPANISH))
    lexicon = load_lexicon(result.data)
    assert set(lexicon.words.keys()) == {"CA[CH]O", "[LL]AMA", "PE[RR]O", "ÑU", "[CH]A[LL]APATEÑA", "CHE"}
    assert ruled("cacho llama perro ñu challapateña", lexicon)
    assert ruled("C+HE", lexicon)  # C then H: the graph says so, and so is it typed
    assert not ruled("CHE", lexicon)  # the CH tile: not in this graph
    with pytest.raises(SourceError, match=r"Spanish .*--alphabet spanish"):
        build_pack(Recipe(name="FISE", sources=(SourceSpec(path=graph),)))


def test_lexicon_build_and_kiosk_check_a_spanish_graph(tmp_path: Path) -> None:
    graph = tmp_path / "FISE2009.dwg"
    graph.write_bytes(encode_dwg(["CA1O", "1A2APATE4A", "PE3O"]))
    pack = tmp_path / "es.kxpack"
    runner = CliRunner()
    built = runner.invoke(
        lexicon_build,
        ["build", "--alphabet", "spanish", "--name", "FISE", "--source", str(graph), "-o", str(pack)],
    )
    assert built.exit_code == 0, built.output
    checked = runner.invoke(kiosk, ["check", "--judge", "--pack", str(pack), "CHALLAPATEÑA"])
    assert checked.exit_code == 0, checked.output
    assert "[CH]A[LL]APATEÑA" in checked.output
    assert "(tiles: CH A LL A P A T E Ñ A)" in checked.output
    refused = runner.invoke(kiosk, ["check", "--pack", str(pack), "KAKO"])
    assert refused.exit_code == 2
    assert "'K' (U+004B" in refused.output
    slips = tmp_path / "slips.txt"
    slips.write_text("challapateña\ncacho perro\nperó\nKILO\n\n", encoding="utf-8")
    batch = runner.invoke(kiosk, ["check", "--pack", str(pack), "--batch", str(slips)])
    assert batch.output.splitlines()[:3] == ["ACCEPTABLE", "ACCEPTABLE", "UNACCEPTABLE"]
    assert batch.output.splitlines()[3].startswith("INVALID: 'K'")


FISE_ZYZZYVA = ["CA1O", "1A2APATE4A", "PE3O", "4U", "CHE", "2AMA", "CA2E", "NI4O"]


def test_kiosk_check_on_a_zyzzyva_fise_graph_gives_a_build_command_that_works_as_printed(
    tmp_path: Path,
) -> None:
    """Issue 24: FISE2009.dwg (Zyzzyva-shaped, its root's empty slots and all) was called damaged,
    and the command suggested lacked --alphabet spanish. The advice is run exactly as printed."""
    graph = tmp_path / "Zyzzyva words" / "FISE 2009.dwg"  # as a stick holds it, spaces and all
    graph.parent.mkdir()
    graph.write_bytes(encode_dwg(FISE_ZYZZYVA))
    refused = CliRunner().invoke(kiosk, ["check", "--pack", str(graph), "CHE"])
    assert refused.exit_code == 2
    assert "damaged" not in refused.output
    command = re.search(r"lexicon-build build [^\n]*?\.kxpack", refused.output)
    assert command is not None, refused.output
    assert "--alphabet spanish" in command.group()
    args = shlex.split(command.group())[1:]  # exactly as printed, NAME and all
    built = subprocess.run(
        [str(Path(sys.executable).with_name("lexicon-build")), *args],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert built.returncode == 0, built.stderr
    pack = next(tmp_path.glob("*.kxpack"))
    lexicon = load_lexicon(pack)
    assert lexicon.info.alphabet is SPANISH
    assert ruled("challapateña ñu C+HE", lexicon)


def test_zyzzyvas_fise_text_list_writes_tiles_as_digits_and_is_read_with_alphabet_spanish(
    tmp_path: Path,
) -> None:
    """Zyzzyva's Spanish text list (1=CH 2=LL 3=RR 4=Ñ; a letter is always a tile of its own):
    built with --alphabet spanish it gives the pack its graph gives; without, the refusal says what
    the digits are and what reads them."""
    text = write_list(tmp_path / "FISE2009.txt", FISE_ZYZZYVA)
    graph = tmp_path / "FISE2009.dwg"
    graph.write_bytes(encode_dwg(FISE_ZYZZYVA))
    runner = CliRunner()
    packs = {}
    for source in (text, graph):
        out = tmp_path / f"{source.suffix[1:]}.kxpack"
        args = ["build", "--alphabet", "spanish", "--name", "FISE", "--source", str(source), "-o", str(out)]
        result = runner.invoke(lexicon_build, args)
        assert result.exit_code == 0, result.output
        packs[source.suffix] = load_lexicon(out)
    assert packs[".txt"].info.set_hash == packs[".dwg"].info.set_hash
    assert set(packs[".txt"].words.keys()) >= {"CA[CH]O", "[CH]A[LL]APATEÑA", "CHE", "ÑU"}
    result = runner.invoke(
        lexicon_build,
        [
            "build",
            "--alphabet",
            "spanish",
            "--name",
            "F",
            "--source",
            str(text),
            "-o",
            str(tmp_path / "n.kxpack"),
        ],
    )
    assert "note: " in result.output
    assert "1 = CH, 2 = LL, 3 = RR, 4 = Ñ" in result.output
    assert "1 of its words write CH, LL or RR as letters" in result.output  # CHE: C, H, E
    english = runner.invoke(
        lexicon_build, ["build", "--name", "F", "--source", str(text), "-o", str(tmp_path / "e.kxpack")]
    )
    assert english.exit_code == 1
    assert "the digits are how Zyzzyva writes the Spanish tiles (1 for CH, 2 for LL, 3 for RR, 4 for Ñ)" in (
        english.output
    )
    assert "--alphabet spanish" in english.output


def adjudicated(lines: list[str], lexicon: MarisaLexicon) -> list[str]:
    """What ``adjudicate`` says of each line, as ``kiosk check --batch`` prints it."""
    said = []
    for line in lines:
        try:
            said.append(adjudicate(line, lexicon).verdict.value)
        except InputError as exc:
            said.append(f"INVALID: {exc}")
    return said


TYPED_PIECES = {
    "spanish": [
        "challa", "CALLE", "perro", "coche", "niño", "árbol", "che", "c+he", "Ñu", "n\u0303u", "kiwi",
        "chchchchchchchchx", "llllllllllllllll", "ll", "c", "calle perro", "ÚLTIMO", "\uff43\uff48e",
        "a\u0301rbol", "[ch]a", "c#e", "rr+", "",
    ],
    "catalan": [
        "col·lecció", "COL.LECCIÓ", "pel·lícula", "call", "anys", "que", "façana", "ŀl", "q", "qu",
        "l·l", "nyny", "y", "ç", "col·lecció anys", "L.L", "+", "",
    ],
}  # fmt: skip
TYPED_LEXICONS: dict[tuple[str, int], MarisaLexicon] = {}


@settings(max_examples=200, deadline=None)
@given(
    data=st.data(),
    name=st.sampled_from(sorted(TYPED_PIECES)),
    max_length=st.integers(3, 16),
)
def test_batch_reads_lines_as_the_station_reads_what_is_typed_in_every_alphabet(
    tmp_path_factory: pytest.TempPathFactory, data: st.DataObject, name: str, max_length: int
) -> None:
    """The batch's road of whole lines at once (letters read as a list writes them) against
    ``adjudicate`` line by line, with what players type: lower case, accents (composed or
    combining), full-width letters, separators, words too long or too short, and noise."""
    lines = data.draw(st.lists(st.sampled_from(TYPED_PIECES[name]), min_size=1, max_size=40))
    if (name, max_length) not in TYPED_LEXICONS:
        folder = tmp_path_factory.mktemp("typed")
        listed = SPANISH_WORDS if name == "spanish" else CATALAN_WORDS
        recipe = Recipe(
            name="Typed",
            max_length=max_length,
            sources=(SourceSpec(path=write_list(folder / "w.txt", listed)),),
            alphabet=alphabets()[name],
        )
        TYPED_LEXICONS[name, max_length] = load_lexicon(build_pack(recipe).data)
    lexicon = TYPED_LEXICONS[name, max_length]
    assert list(batch_rulings(lines, lexicon)) == adjudicated(lines, lexicon)


def test_batch_gives_what_adjudicate_gives_in_spanish(make_pack: PackFactory) -> None:
    lexicon = spanish(make_pack)
    lines = ["CHALLAPATEÑA", "calle, perro", "KIWI", "", "c", "nino coche"]
    assert list(batch_rulings(lines, lexicon)) == adjudicated(lines, lexicon)


def test_a_bad_line_in_a_spanish_list_is_named_by_file_and_line(tmp_path: Path) -> None:
    source = write_list(tmp_path / "es.txt", ["CALLE", "PERRO", "KIWI", "CA\u041b\u041bE"])
    with pytest.raises(SourceLinesError) as caught:
        build_pack(Recipe(name="es", sources=(SourceSpec(path=source),), alphabet=SPANISH))
    message = str(caught.value)
    assert f"{source}:3: 'K' (U+004B" in message
    assert f"{source}:4: 'Л' (U+041B CYRILLIC CAPITAL LETTER EL) at position 3" in message


def test_a_list_built_in_the_wrong_alphabet_says_which_alphabet_reads_it(tmp_path: Path) -> None:
    source = write_list(tmp_path / "es.txt", SPANISH_WORDS)
    with pytest.raises(SourceLinesError) as caught:
        build_pack(Recipe(name="es", sources=(SourceSpec(path=source),)))
    assert "Ñ and Á are letters" not in str(caught.value)  # named in order, each once
    assert (
        "Á and Ñ are letters of the Spanish alphabet: if the list is Spanish, build with --alphabet spanish"
        in str(caught.value)
    )
    french = write_list(tmp_path / "fr.txt", ["CAFÉ", "NAÏVE"])
    with pytest.raises(SourceLinesError, match="--alphabet french or --alphabet catalan") as caught:
        build_pack(Recipe(name="fr", sources=(SourceSpec(path=french),)))
    assert "of the French and Catalan alphabets" in str(caught.value)  # languages' names, in a sentence
    wrong = write_list(tmp_path / "wrong.txt", ["NIÑO", "D0G"])  # a digit is no alphabet's letter
    with pytest.raises(SourceLinesError) as caught:
        build_pack(Recipe(name="x", sources=(SourceSpec(path=wrong),)))
    assert "--alphabet" not in str(caught.value)


def test_diff_reads_lists_in_the_pack_s_alphabet(tmp_path: Path, make_pack: PackFactory) -> None:
    runner = CliRunner()
    pack = make_pack(SPANISH_WORDS, alphabet="spanish")
    newer = write_list(tmp_path / "new.txt", ["CHALLAPATEÑA", "CALLE", "ÑU"])
    added = tmp_path / "added.txt"
    result = runner.invoke(lexicon_build, ["diff", str(pack), str(newer), "--added", str(added)])
    assert result.exit_code == 0, result.output
    assert "+ÑU\n" in result.stdout
    assert "-CO[CH]E\n" in result.stdout
    assert "1 added, 5 removed (7 -> 3 words)" in result.stdout
    assert added.read_text(encoding="utf-8") == "ÑU\n"
    older = write_list(tmp_path / "old.txt", SPANISH_WORDS)
    lists = runner.invoke(
        lexicon_build, ["diff", "--alphabet", "spanish", str(older), str(newer), "--no-list"]
    )
    assert lists.exit_code == 0, lists.output
    assert lists.stdout == "1 added, 5 removed (7 -> 3 words)\n"
    english = make_pack(["CAT", "DOG"])
    mixed = runner.invoke(lexicon_build, ["diff", str(pack), str(english)])
    assert mixed.exit_code == 2
    assert f"{pack} is Spanish, {english} is English" in mixed.stderr
    told = runner.invoke(lexicon_build, ["diff", "--alphabet", "french", str(pack), str(newer)])
    assert told.exit_code == 2
    assert "the pack is in the Spanish alphabet" in told.stderr


def test_a_recipe_names_its_alphabet(tmp_path: Path) -> None:
    write_list(tmp_path / "ca.txt", CATALAN_WORDS)
    recipe = tmp_path / "ca.toml"
    recipe.write_text(
        'name = "Català"\nalphabet = "catalan"\nadditions = ["NYAM"]\n[[sources]]\npath = "ca.txt"\n',
        encoding="utf-8",
    )
    plan = load_recipe(recipe)
    assert plan.alphabet is CATALAN
    assert plan.additions == ("[NY]AM",)
    lexicon = load_lexicon(build_pack(plan).data)
    assert ruled("nyam col.lecció", lexicon)
    recipe.write_text('name = "X"\nalphabet = "klingon"\n[[sources]]\npath = "ca.txt"\n', encoding="utf-8")
    with pytest.raises(SourceError, match="alphabet 'klingon'; use one of english, french, spanish"):
        load_recipe(recipe)


def test_a_second_opinion_in_another_alphabet_is_refused(tmp_path: Path, make_pack: PackFactory) -> None:
    """A second opinion reads the words judged: in another alphabet the same keys are other tiles
    (Spanish CALLE is C A LL E; in English, five letters), so the station does not start with one."""
    from kiosk.core.errors import ConfigError
    from kiosk.core.station.config import Division, StationConfig, load_divisions

    spanish_pack = make_pack(SPANISH_WORDS, alphabet="spanish")
    english_pack = make_pack(["CALLE", "PERRO"])
    config = StationConfig(divisions=(Division("Open", spanish_pack, second_opinion_pack=english_pack),))
    refusal = r"second opinion pack .* holds words of the English alphabet, but its pack"
    with pytest.raises(ConfigError, match=refusal):
        load_divisions(config)
    same = make_pack(SPANISH_WORDS[:3], alphabet="spanish")
    config = StationConfig(divisions=(Division("Open", spanish_pack, second_opinion_pack=same),))
    assert load_divisions(config)[0].second_opinion is not None


@settings(max_examples=400, deadline=None)
@given(
    name=st.sampled_from(["spanish", "catalan", "german"]),
    words=st.lists(
        st.text(alphabet="ABCHLRÑ[]#·NYQU+\n É", max_size=8)
        | st.sampled_from(["[CH]A[LL]A", "CA[RR]O", "[L·L]A", "[NY]A", "[QU]E", "[CH]", "A[XY]", "A#"]),
        max_size=12,
    ),
)
def test_a_whole_texts_stored_spellings_are_checked_as_each_spelling_is(name: str, words: list[str]) -> None:
    """``Alphabet.all_stored`` (the walk's one pass over a pack's words) against ``is_stored`` of
    each word, whatever the text holds: brackets that hold no tile, a # that is no tile, line feeds."""
    alphabet = alphabets()[name]
    text = "\n".join(words)
    assert alphabet.all_stored(text) == all(alphabet.is_stored(w) for w in text.split("\n"))


def test_the_greek_ano_teleia_is_the_catalan_middle_dot_and_nothing_elsewhere() -> None:
    """U+0387 is U+00B7 to Unicode (NFC makes one the other): a Greek keyboard's key gives the
    Catalan L·L tile on the station and in `kiosk check` alike; no other alphabet takes it."""
    catalan = alphabets()["catalan"]
    assert read_typed("col\u0387lecció", catalan).tiles == read_typed("col·lecció", catalan).tiles
    assert normalise_word("COL\u0387LECCIÓ", alphabet=catalan) == "CO[L·L]ECCIO"
    for name, alphabet in alphabets().items():
        if name != "catalan":
            assert alphabet.typed_char("\u0387") is None, name
