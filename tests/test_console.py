"""kiosk.console.run_guarded, the end of both programs, for what no user mistake reaches.

A bug, ``sys.exit("text")``, Ctrl+C, an error no command caught: none may end a run with a ruling's
0 or 1. (What users do reach is driven through the real programs in test_cli_errors.py and
test_cli_output.py.)
"""

from __future__ import annotations

import sys

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
