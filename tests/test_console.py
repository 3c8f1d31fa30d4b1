"""kiosk.console.run_guarded, the end of both programs, for what no user mistake reaches.

A bug, ``sys.exit("text")``, Ctrl+C, an error no command caught: none may end a run with a ruling's
0 or 1. (What users do reach is driven through the real programs in test_cli_errors.py and
test_cli_output.py.)
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from kiosk.console import run_guarded
from kiosk.core.errors import SourceError


def _guarded(action: object, capsys: pytest.CaptureFixture[str]) -> tuple[object, str]:
    with pytest.raises(SystemExit) as ended:
        run_guarded(action)  # type: ignore[arg-type]
    return ended.value.code, capsys.readouterr().err


def test_a_bug_exits_2_and_says_it_is_a_bug(capsys: pytest.CaptureFixture[str]) -> None:
    def bug() -> None:
        raise ZeroDivisionError("division by zero")

    code, err = _guarded(bug, capsys)
    assert code == 2
    assert "internal error (ZeroDivisionError: division by zero)" in err
    assert "not your mistake" in err


@pytest.mark.parametrize(
    ("action", "code", "message"),
    [
        (lambda: sys.exit(1), 1, ""),
        (lambda: sys.exit(0), 0, ""),
        (lambda: None, 0, ""),
        (lambda: sys.exit("cannot go on"), 2, "cannot go on"),
        (lambda: (_ for _ in ()).throw(KeyboardInterrupt()), 2, "Aborted"),
        (lambda: (_ for _ in ()).throw(EOFError()), 2, "Aborted"),
        (lambda: (_ for _ in ()).throw(SourceError("words.txt is empty")), 2, "error: words.txt is empty"),
        (lambda: (_ for _ in ()).throw(PermissionError(13, "Permission denied", "x.txt")), 2, "x.txt"),
    ],
)
def test_the_guard_keeps_rulings_and_turns_everything_else_into_2(
    action: object, code: int, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    ended, err = _guarded(action, capsys)
    assert ended == code
    assert message in err


@pytest.mark.parametrize(
    ("program", "args"), [("kiosk", ["check", "CAT"]), ("lexicon-build", ["info", "club.kxpack"])]
)
def test_a_broken_installation_exits_2_not_1(program: str, args: list[str], tmp_path: Path) -> None:
    """A library that fails to import (here marisa-trie) must not end a check with UNACCEPTABLE's 1."""
    (tmp_path / "marisa_trie.py").write_text("raise ImportError('simulated: marisa-trie is missing')\n")
    result = subprocess.run(
        [str(Path(sys.executable).with_name(program)), *args],
        env={**os.environ, "PYTHONPATH": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 2, result.stderr
    assert "this installation is incomplete" in result.stderr
    assert "marisa-trie is missing" in result.stderr
    assert "Traceback" not in result.stderr
