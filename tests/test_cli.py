"""Both command-line tools, driven through click's runner: every command and exit code."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from kiosk.cli import check as kiosk_check
from kiosk.cli import kiosk
from kiosk.core.errors import InputError
from kiosk.core.packs.lexicon import load_lexicon
from kiosk.core.play.adjudication import adjudicate
from lexicon_build.cli import main as lexicon_build
from tests.conftest import PackFactory, write_list


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


@pytest.fixture
def pack(make_pack: PackFactory) -> Path:
    return make_pack(["CAT", "CATS", "DOG", "DOGS", "QI", "ZA"], youth=["DOGS"], name="Club", edition="2024")


def test_check_prints_one_verdict_and_exits_0_or_1(runner: CliRunner, pack: Path) -> None:
    ok = runner.invoke(kiosk, ["check", "--pack", str(pack), "cat", "qi"])
    assert (ok.exit_code, ok.stdout) == (0, "ACCEPTABLE\n")
    bad = runner.invoke(kiosk, ["check", "--pack", str(pack), "cat", "qix"])
    assert (bad.exit_code, bad.stdout) == (1, "UNACCEPTABLE\n")


def test_check_never_says_which_word_failed_unless_judge(runner: CliRunner, pack: Path) -> None:
    plain = runner.invoke(kiosk, ["check", "--pack", str(pack), "qix", "cat"])
    assert "QIX" not in plain.output
    judge = runner.invoke(kiosk, ["check", "--pack", str(pack), "--judge", "qix", "cat"])
    assert judge.exit_code == 1
    assert judge.stdout.splitlines()[:3] == [
        "UNACCEPTABLE",
        "  QIX              not in the lexicon",
        "  CAT              acceptable",
    ]


def test_check_applies_youth_rules_only_when_asked(runner: CliRunner, pack: Path) -> None:
    assert runner.invoke(kiosk, ["check", "--pack", str(pack), "dogs"]).exit_code == 0
    assert runner.invoke(kiosk, ["check", "--pack", str(pack), "--youth", "dogs"]).exit_code == 1


def test_youth_rules_on_a_pack_without_a_youth_list_is_an_error(
    runner: CliRunner, make_pack: PackFactory
) -> None:
    result = runner.invoke(kiosk, ["check", "--pack", str(make_pack(["CAT"])), "--youth", "cat"])
    assert result.exit_code == 2
    assert "has no youth exclusion list" in result.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["c4t"], "U+0034"),
        ([], "no words were entered"),
        (["cat"] * 9, "at most 8 words"),
        (["x" * 16], "at most 15 letters"),
    ],
)
def test_check_input_errors_exit_2_with_a_message(
    runner: CliRunner, pack: Path, args: list[str], message: str
) -> None:
    result = runner.invoke(kiosk, ["check", "--pack", str(pack), *args])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert message in result.stderr


def test_check_refuses_a_damaged_pack_with_exit_2(runner: CliRunner, pack: Path) -> None:
    pack.write_bytes(pack.read_bytes()[:-3])
    result = runner.invoke(kiosk, ["check", "--pack", str(pack), "cat"])
    assert result.exit_code == 2
    assert f"{pack} is damaged" in result.stderr


def test_check_uses_the_embedded_default_pack(runner: CliRunner) -> None:
    assert runner.invoke(kiosk, ["check", "aardvark", "zymurgy"]).stdout == "ACCEPTABLE\n"
    assert runner.invoke(kiosk, ["check", "aardvark", "zzzz"]).stdout == "UNACCEPTABLE\n"
    assert runner.invoke(kiosk, ["check", "--youth", "damn"]).stdout == "UNACCEPTABLE\n"


def test_batch_gives_one_line_per_input_line_in_order(runner: CliRunner, pack: Path, tmp_path: Path) -> None:
    slips = tmp_path / "slips.txt"
    slips.write_text("cat qi\n\nqix\ncaf\u00e9\ndogs, za\n" + "cat " * 9 + "\n", encoding="utf-8")
    result = runner.invoke(kiosk, ["check", "--pack", str(pack), "--batch", str(slips)])
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0] == "ACCEPTABLE"
    assert lines[1] == "INVALID: no words were entered; type the challenged words"
    assert lines[2] == "UNACCEPTABLE"
    assert lines[3].startswith("INVALID: '\u00e9' (U+00E9")
    assert lines[4] == "ACCEPTABLE"
    assert lines[5].startswith("INVALID: 9 words")
    assert len(lines) == 6


def test_batch_reads_standard_input_and_honours_youth(runner: CliRunner, pack: Path) -> None:
    result = runner.invoke(
        kiosk, ["check", "--pack", str(pack), "--youth", "--batch", "-"], input="dogs\ncat\n"
    )
    assert result.stdout == "UNACCEPTABLE\nACCEPTABLE\n"


# Universal newlines (CRLF, lone CR), a byte-order mark, a byte that is not UTF-8, no final newline.
STDIN_SLIPS = (
    "\ufeffcat qi\r\n\r\nqix\rcaf\u00e9\ndogs, za\r\n".encode() + b"zz\nqi\n" * 3 + b"dogs\n\xff\nlast one"
)
STDIN_LINES = ["cat qi", "", "qix", "caf\u00e9", "dogs, za", *["zz", "qi"] * 3, "dogs", "\ufffd", "last one"]


def expected_rulings(pack: Path, lines: list[str], youth: bool = False) -> str:
    lexicon = load_lexicon(pack)
    rulings = []
    for line in lines:
        try:
            rulings.append(adjudicate(line, lexicon, youth=youth).verdict.value)
        except InputError as exc:
            rulings.append(f"INVALID: {exc}")
    return "".join(f"{ruling}\n" for ruling in rulings)


@pytest.mark.parametrize("block_chars", [1, 2, 7, 1 << 20])
def test_batch_from_standard_input_is_one_ruling_per_line_whatever_the_blocks(
    runner: CliRunner, pack: Path, monkeypatch: pytest.MonkeyPatch, block_chars: int
) -> None:
    """Standard input is read in blocks; a line or a CRLF cut by a block's end is still one line."""
    monkeypatch.setattr(kiosk_check, "BATCH_BLOCK_CHARS", block_chars)
    result = runner.invoke(
        kiosk, ["check", "--pack", str(pack), "--youth", "--batch", "-"], input=STDIN_SLIPS
    )
    assert result.exit_code == 0
    assert result.stdout == expected_rulings(pack, STDIN_LINES, youth=True)


def test_batch_from_standard_input_in_a_real_process(pack: Path) -> None:
    """As a director scripts it: ``... | kiosk check --batch - > rulings.txt``."""
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "from kiosk.entry import run; run()",
            "check",
            "--pack",
            str(pack),
            "--batch",
            "-",
        ],
        input=STDIN_SLIPS,
        capture_output=True,
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, b"")
    assert done.stdout.decode("utf-8") == expected_rulings(pack, STDIN_LINES)


def test_batch_and_words_together_is_a_usage_error(runner: CliRunner, pack: Path) -> None:
    result = runner.invoke(kiosk, ["check", "--pack", str(pack), "--batch", "-", "cat"], input="")
    assert result.exit_code == 2


def test_build_info_verify_from_the_organisers_files(runner: CliRunner, tmp_path: Path) -> None:
    source = write_list(tmp_path / "club.txt", ["cat", "dogs", "qi", "cat"])
    youth = write_list(tmp_path / "youth.txt", ["dogs"])
    out = tmp_path / "club.kxpack"
    built = runner.invoke(
        lexicon_build,
        ["build", "--name", "Club", "--edition", "2024", "--source", str(source),
         "--youth-exclusions", str(youth), "-o", str(out)],
    )  # fmt: skip
    assert built.exit_code == 0, built.output
    assert "3 words, 1 youth exclusion, 1 duplicate ignored" in built.stdout
    assert out.stat().st_mode & 0o044  # readable by others: packs are for sharing
    info = runner.invoke(lexicon_build, ["info", str(out)])
    assert info.exit_code == 0
    assert "name:        Club" in info.stdout
    assert "   3: 1" in info.stdout
    assert "   4: 1" in info.stdout
    assert "   2: 1" in info.stdout
    verified = runner.invoke(lexicon_build, ["verify", str(out)])
    assert verified.exit_code == 0
    assert verified.stdout.startswith(f"OK {out}: Club 2024, 3 words")


def test_build_fails_on_bad_lines_unless_skipping(runner: CliRunner, tmp_path: Path) -> None:
    source = write_list(tmp_path / "club.txt", ["cat", "d0g", "qi"])
    out = tmp_path / "club.kxpack"
    failed = runner.invoke(
        lexicon_build, ["build", "--name", "Club", "--source", str(source), "-o", str(out)]
    )
    assert failed.exit_code == 1
    assert f"{source}:2: 'd0g'" not in failed.stderr  # the reason names the character, not a quote
    assert f"{source}:2: '0' (U+0030 DIGIT ZERO) at position 2" in failed.stderr
    assert "1 line could not be read as a word:" in failed.stderr
    assert not out.exists()
    skipped = runner.invoke(
        lexicon_build, ["build", "--name", "Club", "--source", str(source), "-o", str(out), "--skip-invalid"]
    )
    assert skipped.exit_code == 0
    assert "skipped 1 invalid line:" in skipped.stderr
    assert out.exists()


def test_build_counts_in_english_without_line_s(runner: CliRunner, tmp_path: Path) -> None:
    source = write_list(tmp_path / "club.txt", ["cat", "d0g", "qi", "x!y", "counterrevolutionary"])
    youth = write_list(tmp_path / "youth.txt", ["zebra", "yak"])
    out = tmp_path / "club.kxpack"
    failed = runner.invoke(
        lexicon_build, ["build", "--name", "Club", "--source", str(source), "-o", str(out)]
    )
    assert "2 lines could not be read as words:" in failed.stderr
    built = runner.invoke(
        lexicon_build,
        [
            "build",
            "--name",
            "Club",
            "--source",
            str(source),
            "--youth-exclusions",
            str(youth),
            "--skip-invalid",
            "-o",
            str(out),
        ],
    )
    assert built.exit_code == 0, built.output
    assert "skipped 2 invalid lines:" in built.stderr
    assert "1 word longer than 15 letters left out" in built.stderr
    assert "2 youth exclusion words are not in the base list and change nothing: YAK, ZEBRA" in built.stderr
    assert "(s)" not in failed.stderr + built.stderr


def test_build_from_a_recipe(runner: CliRunner, tmp_path: Path) -> None:
    write_list(tmp_path / "a.txt", ["cat", "dog"])
    (tmp_path / "r.toml").write_text('name = "R"\n[[sources]]\npath = "a.txt"\n', encoding="utf-8")
    result = runner.invoke(
        lexicon_build, ["build", str(tmp_path / "r.toml"), "-o", str(tmp_path / "r.kxpack")]
    )
    assert result.exit_code == 0, result.output
    both = runner.invoke(
        lexicon_build, ["build", str(tmp_path / "r.toml"), "--name", "X", "-o", str(tmp_path / "x.kxpack")]
    )
    assert both.exit_code == 2  # a mistake, not a finding: 1 is for bad lines and bad packs
    assert "not both" in both.stderr


def test_build_without_name_or_source_explains(runner: CliRunner, tmp_path: Path) -> None:
    result = runner.invoke(lexicon_build, ["build", "-o", str(tmp_path / "x.kxpack")])
    assert result.exit_code == 2
    assert "--name and at least one --source" in result.stderr


def test_verify_refuses_a_damaged_pack(runner: CliRunner, pack: Path) -> None:
    data = bytearray(pack.read_bytes())
    data[60] ^= 0xFF
    pack.write_bytes(bytes(data))
    result = runner.invoke(lexicon_build, ["verify", str(pack)])
    assert result.exit_code == 1
    assert "damaged" in result.stderr


def test_diff_between_editions_packs_and_lists(
    runner: CliRunner, make_pack: PackFactory, tmp_path: Path
) -> None:
    old = make_pack(["CAT", "DOG", "QI"])
    new_list = write_list(tmp_path / "new.txt", ["cat", "qi", "za", "qat"])
    added, removed = tmp_path / "added.txt", tmp_path / "removed.txt"
    result = runner.invoke(
        lexicon_build, ["diff", str(old), str(new_list), "--added", str(added), "--removed", str(removed)]
    )
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == ["+QAT", "+ZA", "-DOG", "2 added, 1 removed (3 -> 4 words)"]
    assert added.read_text() == "QAT\nZA\n"
    assert removed.read_text() == "DOG\n"


@pytest.mark.parametrize(
    ("cli", "command"),
    [
        (kiosk, []),
        (kiosk, ["check"]),
        (lexicon_build, []),
        (lexicon_build, ["build"]),
        (lexicon_build, ["verify"]),
        (lexicon_build, ["info"]),
        (lexicon_build, ["diff"]),
    ],
)
def test_every_command_has_help_with_an_example(runner: CliRunner, cli: object, command: list[str]) -> None:
    result = runner.invoke(cli, [*command, "--help"])  # type: ignore[arg-type]
    assert result.exit_code == 0
    assert "Example" in result.stdout


def test_a_build_loads_no_cryptography(tmp_path: Path) -> None:
    """What the build budget (bench/bench_tournament.py) depends on: only the commands that sign or
    check signatures load lexicon_build.signing, and cryptography with it."""
    probe = (
        "import atexit, sys\n"
        "atexit.register(lambda: print(sorted(m for m in sys.modules if m.startswith('cryptography'))))\n"
        "from lexicon_build.cli import main\n"
        "main()\n"
    )
    source = write_list(tmp_path / "words.txt", ["cat", "dogs"])
    build = ["build", "--name", "Club", "--source", str(source), "-o", str(tmp_path / "club.kxpack")]
    result = subprocess.run(
        [sys.executable, "-c", probe, *build], capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == "[]"
