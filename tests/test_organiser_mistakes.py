"""Issue 15 §4, as an organiser meets it: files are never destroyed, and each mistake is named.

The generated matrix (tests/test_cli_errors.py) proves no command prints a traceback or exits
with a ruling's code; these tests pin down what the organiser reads and what is left on disk.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from kiosk.cli import kiosk
from lexicon_build.cli import main as lexicon_build
from tests.conftest import PackFactory, write_list
from tests.storage.entries import make_entry
from tests.test_dwg import encode_dwg

WORDS = ["CAT", "CATS", "DOG", "DOGS", "QI", "ZA"]


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


def build(runner: CliRunner, *args: str | Path) -> tuple[int, str]:
    result = runner.invoke(lexicon_build, ["build", *map(str, args)])
    return result.exit_code, result.output


def test_the_builder_never_writes_over_its_source(runner: CliRunner, tmp_path: Path) -> None:
    source = write_list(tmp_path / "list.txt", WORDS)
    before = source.read_bytes()
    (tmp_path / "link.txt").symlink_to(source)
    for output in (source, tmp_path / "." / "list.txt", tmp_path / "link.txt"):
        for force in ([], ["--force"]):
            code, output_text = build(runner, "--name", "X", "--source", source, "-o", output, *force)
            assert code == 2
            assert "also a file this command reads" in output_text
            assert "nothing was written" in output_text
    assert source.read_bytes() == before


def test_a_recipe_its_sources_and_its_youth_list_are_never_written_over(
    runner: CliRunner, tmp_path: Path
) -> None:
    write_list(tmp_path / "base.txt", WORDS)
    write_list(tmp_path / "youth.txt", ["ZA"])
    recipe = tmp_path / "r.toml"
    recipe.write_text(
        'name = "R"\n[[sources]]\npath = "base.txt"\n[youth_exclusions]\npath = "youth.txt"\n',
        encoding="utf-8",
    )
    files = {name: (tmp_path / name).read_bytes() for name in ("base.txt", "youth.txt", "r.toml")}
    for name in files:
        code, text = build(runner, recipe, "-o", tmp_path / name, "--force")
        assert code == 2, text
        assert f"{name} is also a file this command reads" in text
    assert {name: (tmp_path / name).read_bytes() for name in files} == files


def test_an_output_in_a_folder_that_does_not_exist_is_a_clear_error(
    runner: CliRunner, tmp_path: Path
) -> None:
    source = write_list(tmp_path / "list.txt", WORDS)
    code, text = build(runner, "--name", "X", "--source", source, "-o", tmp_path / "packs" / "club.kxpack")
    assert code == 2
    assert "Traceback" not in text
    assert f"the folder {tmp_path / 'packs'} does not exist" in text
    assert "mkdir -p" in text
    assert not (tmp_path / "packs").exists()  # a mistyped folder is never created


def test_an_existing_pack_is_replaced_only_with_force_and_nothing_else_ever(
    runner: CliRunner, tmp_path: Path, make_pack: PackFactory
) -> None:
    source = write_list(tmp_path / "list.txt", WORDS)
    old = make_pack(["CAT"])
    before = old.read_bytes()
    code, text = build(runner, "--name", "X", "--source", source, "-o", old)
    assert code == 2
    assert "already exists (a lexicon pack); choose another name, or pass --force" in text
    assert old.read_bytes() == before
    code, text = build(runner, "--name", "X", "--source", source, "-o", old, "--force")
    assert code == 0, text
    assert old.read_bytes() != before
    notes = write_list(tmp_path / "notes.txt", ["KEEP", "THIS"])
    code, text = build(runner, "--name", "X", "--source", source, "-o", notes, "--force")
    assert code == 2
    assert "is a word list, not a lexicon pack; it is never written over, even with --force" in text
    assert notes.read_text() == "KEEP\nTHIS\n"


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["--source", "{pack}"], "{pack} is a lexicon pack, not a word list; give the word list it was built "
         "from ('lexicon-build info {pack}' names its sources)"),
        (["{list}"], "{list} is a word list, not a pack recipe (TOML); build a pack from it: lexicon-build "
         "build --name NAME --source {list} -o list.kxpack"),
        (["--source", "{spanish}"], "{spanish} is a Spanish (FISE-style) Zyzzyva word graph; its digits "
         "1, 2, "
         "3 and 4 stand for the tiles CH, LL, RR and Ñ: build a Spanish pack from it with --alphabet "
         "spanish"),
        (["--source", "{reversed}"], "{reversed} is Zyzzyva's reversed word graph (its words are spelt "
         "backwards, for hooks); to build a pack, give the graph beside it instead ({forward})"),
    ],
)  # fmt: skip
def test_natural_mistakes_get_the_right_message(
    runner: CliRunner, tmp_path: Path, make_pack: PackFactory, args: list[str], expected: str
) -> None:
    names = {
        "pack": str(make_pack(WORDS)),
        "list": str(write_list(tmp_path / "list.txt", WORDS)),
        "spanish": str(tmp_path / "FISE2.dwg"),
        "reversed": str(tmp_path / "NWL2023-R.dwg"),
        "forward": str(tmp_path / "NWL2023.dwg"),
    }
    (tmp_path / "FISE2.dwg").write_bytes(encode_dwg(["CA1O", "2AMA", "PE3O", "4U"]))
    (tmp_path / "NWL2023-R.dwg").write_bytes(encode_dwg(["TAC", "GOD"]))
    filled = [arg.format(**names) for arg in args]
    name_option = [] if filled[0].endswith(".txt") else ["--name", "X"]
    code, text = build(runner, *name_option, *filled, "-o", tmp_path / "out.kxpack")
    assert code == 2
    assert expected.format(**names) in text.replace("\n", " ")
    assert not (tmp_path / "out.kxpack").exists()


def test_every_command_that_takes_a_pack_names_a_word_list_given_instead(
    runner: CliRunner, tmp_path: Path
) -> None:
    words = write_list(tmp_path / "words.txt", WORDS)
    expected = f"{words} is a word list, not a lexicon pack; build a pack from it"
    for cli, args in (
        (kiosk, ["check", "--pack", str(words), "CAT"]),
        (lexicon_build, ["verify", str(words)]),
        (lexicon_build, ["info", str(words)]),
        (lexicon_build, ["sign", str(words), "--key", str(words)]),
    ):
        result = runner.invoke(cli, args)
        assert result.exit_code == 2, (args, result.output)
        assert expected in result.output, (args, result.output)


def test_verify_rules_1_on_a_damaged_pack_and_2_on_a_file_that_is_no_pack(
    runner: CliRunner, tmp_path: Path, make_pack: PackFactory
) -> None:
    damaged = make_pack(WORDS)
    data = bytearray(damaged.read_bytes())
    data[60] ^= 0xFF
    damaged.write_bytes(bytes(data))
    assert runner.invoke(lexicon_build, ["verify", str(damaged)]).exit_code == 1
    recipe = tmp_path / "r.toml"
    recipe.write_text('name = "R"\n[[sources]]\npath = "a.txt"\n', encoding="utf-8")
    result = runner.invoke(lexicon_build, ["verify", str(recipe)])
    assert result.exit_code == 2
    assert "is a pack recipe, not a lexicon pack" in result.output


def test_a_station_configuration_refuses_a_recipe_a_pub_and_an_empty_file(tmp_path: Path) -> None:
    from kiosk.core.errors import ConfigError
    from kiosk.core.station.config import load_config

    recipe = tmp_path / "r.toml"
    recipe.write_text('name = "R"\n[[sources]]\npath = "a.txt"\n', encoding="utf-8")
    pub = tmp_path / "o.pub"
    pub.write_text('[[trusted_keys]]\nname = "O"\npublic_key = "x"\n', encoding="utf-8")
    empty = tmp_path / "station.toml"
    empty.write_bytes(b"")
    for path, fragment in (
        (recipe, "is a pack recipe, not a station configuration"),
        (pub, r"is a public signing key, not a station configuration \(TOML\); paste its lines"),
        (empty, r"is an empty file \(0 bytes\); copy it again"),  # it must not start the demo pack
    ):
        with pytest.raises(ConfigError, match=fragment):
            load_config(path, default_pack=tmp_path / "default.kxpack")


def test_diff_and_keygen_and_sign_never_write_over_what_they_read(
    runner: CliRunner, tmp_path: Path, make_pack: PackFactory
) -> None:
    old, new = make_pack(["CAT"]), make_pack(["CAT", "DOG"])
    before = old.read_bytes()
    result = runner.invoke(lexicon_build, ["diff", str(old), str(new), "--added", str(old), "--force"])
    assert result.exit_code == 2
    assert old.read_bytes() == before
    same = runner.invoke(
        lexicon_build, ["diff", str(old), str(new), "--added", "a.txt", "--removed", "a.txt"]
    )
    assert same.exit_code == 2
    assert "both name a.txt" in same.output
    words = write_list(tmp_path / "words.txt", WORDS)
    keygen = runner.invoke(lexicon_build, ["keygen", str(words), "--name", "K", "--force"])
    assert keygen.exit_code == 2
    assert words.read_text() == "".join(f"{w}\n" for w in WORDS)
    made = runner.invoke(lexicon_build, ["keygen", str(tmp_path / "k.key"), "--name", "K"])
    assert made.exit_code == 0, made.output
    key_before = (tmp_path / "k.key").read_bytes()
    sign = runner.invoke(
        lexicon_build, ["sign", str(old), "--key", str(tmp_path / "k.key"), "-o", str(tmp_path / "k.key")]
    )
    assert sign.exit_code == 2
    assert (tmp_path / "k.key").read_bytes() == key_before


def test_log_export_never_writes_over_the_log_or_an_earlier_export_without_force(
    runner: CliRunner, tmp_path: Path
) -> None:
    from kiosk.storage import open_station_storage

    data = tmp_path / "data"
    with open_station_storage(data) as storage:
        storage.log.record(make_entry(["CAT"]))
    database = data / "kiosk.sqlite3"
    before = database.read_bytes()
    result = runner.invoke(
        kiosk, ["log", "export", "--csv", str(database), "--data-dir", str(data), "--force"]
    )
    assert result.exit_code == 2
    assert "is a SQLite database" in result.output
    assert database.read_bytes()[:16] == before[:16]
    out = tmp_path / "log.csv"
    assert runner.invoke(kiosk, ["log", "export", "--csv", str(out), "--data-dir", str(data)]).exit_code == 0
    again = runner.invoke(kiosk, ["log", "export", "--csv", str(out), "--data-dir", str(data)])
    assert again.exit_code == 2
    assert "pass --force" in again.output
    forced = runner.invoke(kiosk, ["log", "export", "--csv", str(out), "--data-dir", str(data), "--force"])
    assert forced.exit_code == 0, forced.output


# --- one normaliser, one answer ---------------------------------------------------------------------

SEPARATED = st.lists(st.sampled_from(["cat", "DOGS", "qi", "zebraz", "Za"]), min_size=1, max_size=4).flatmap(
    lambda words: st.tuples(
        st.just(words), st.lists(st.sampled_from([" ", ",", ", ", " ,", ",,", "\t"]), min_size=len(words) - 1,
                                 max_size=len(words) - 1),
    )
)  # fmt: skip


@settings(max_examples=40, deadline=None)
@given(SEPARATED)
def test_check_splits_words_exactly_as_batch_and_the_station_do(
    small_pack: Path, play: tuple[list[str], list[str]]
) -> None:
    words, separators = play
    text = words[0] + "".join(sep + word for sep, word in zip(separators, words[1:], strict=True))
    runner = CliRunner()
    one = runner.invoke(kiosk, ["check", "--pack", str(small_pack), text])
    split_args = runner.invoke(kiosk, ["check", "--pack", str(small_pack), *text.replace(",", " ").split()])
    batch = runner.invoke(kiosk, ["check", "--pack", str(small_pack), "--batch", "-"], input=text + "\n")
    assert batch.exit_code == 0
    assert one.stdout == split_args.stdout == batch.stdout
    assert one.exit_code == split_args.exit_code == (0 if batch.stdout == "ACCEPTABLE\n" else 1)


@pytest.fixture(scope="module")
def small_pack(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from lexicon_build.builder import build_pack
    from lexicon_build.recipe import Recipe, SourceSpec

    folder = tmp_path_factory.mktemp("pack")
    source = write_list(folder / "w.txt", WORDS)
    pack = folder / "p.kxpack"
    pack.write_bytes(build_pack(Recipe(name="P", sources=(SourceSpec(path=source),))).data)
    return pack


def test_the_help_example_with_a_comma_judges_two_words(runner: CliRunner, small_pack: Path) -> None:
    result = runner.invoke(kiosk, ["check", "--pack", str(small_pack), "CAT, DOGS"])
    assert (result.exit_code, result.stdout) == (0, "ACCEPTABLE\n")


def test_a_trust_file_that_is_not_there_is_named_and_a_base64_key_with_a_slash_is_a_key(
    runner: CliRunner, make_pack: PackFactory
) -> None:
    import base64

    pack = make_pack(WORDS)
    missing = runner.invoke(lexicon_build, ["verify", str(pack), "--trust", "organiser.pub"])
    assert missing.exit_code == 2
    assert "--trust organiser.pub: no such file" in missing.output
    slashed = base64.b64encode(bytes([255, 255, 254]) + bytes(29)).decode()
    assert "/" in slashed
    unsigned = runner.invoke(lexicon_build, ["verify", str(pack), "--trust", slashed])
    assert unsigned.exit_code == 1  # read as a key: the pack is refused for not being signed by it
    assert "not signed" in unsigned.output
