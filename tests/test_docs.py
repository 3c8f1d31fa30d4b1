"""Every command shown in the README and the guides is run for real.

Each ```sh block of a page runs line by line, in order, in one folder holding the files of
``docs/examples`` (with ``.venv``, ``data`` and ``docs`` pointing at the real ones, so a command
may name ``docs/examples/FILE`` as a reader in the repository's root would). A trailing
``# (exit N)`` says which exit code a line must give (0 otherwise), and ``# prints WORD`` what it
must print. A ```text block right after a
paragraph ending in "prints" must equal what the command before it printed (``~/`` in it is the
reader's home). The commands run as a reader types them: with a home of their own and nothing in
the environment that names a station's data. A block preceded by
``<!-- not run: reason -->`` is skipped, with its reason in the page.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import REPO_ROOT

PAGES = [REPO_ROOT / "README.md", *sorted((REPO_ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"(?P<before>[^\n]*)\n(?:[ \t]*\n)*```(?P<lang>\w*)[^\n]*\n(?P<body>.*?)\n```", re.DOTALL)
EXIT = re.compile(r"#.*\(exit (\d+)\)")
PRINTS = re.compile(r"#\s*prints ([A-Z]+)")


@dataclass
class Step:
    command: str
    exit_code: int
    expected_output: str | None = None


def steps(page: Path) -> list[Step]:
    text = page.read_text(encoding="utf-8")
    found: list[Step] = []
    for match in FENCE.finditer(text):
        lang, body, before = match["lang"], match["body"], match["before"].strip()
        if lang == "text" and before.endswith("prints") and found:
            found[-1].expected_output = body + "\n"
        if lang != "sh" or before.startswith("<!-- not run"):
            continue
        for line in body.replace("\\\n", " ").splitlines():
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            code, prints = EXIT.search(line), PRINTS.search(line)
            found.append(
                Step(line, int(code.group(1)) if code else 0, f"{prints.group(1)}\n" if prints else None)
            )
    return found


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_documented_commands_work_as_shown(page: Path, tmp_path: Path) -> None:
    shutil.copytree(REPO_ROOT / "docs" / "examples", tmp_path, dirs_exist_ok=True)
    venv = Path(sys.executable).parent.parent
    (tmp_path / ".venv").symlink_to(venv)
    (tmp_path / "data").symlink_to(REPO_ROOT / "data")
    (tmp_path / "docs").symlink_to(REPO_ROOT / "docs")
    # A reader's shell: the venv's programs on the PATH, a home of its own (where the station's data
    # goes when a command names no folder, as on the reader's machine), and nothing that finds a
    # station's data behind the reader's back.
    home = tmp_path / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KIOSK_", "XDG_"))}
    env |= {"PATH": f"{venv / 'bin'}{os.pathsep}{os.environ['PATH']}", "COLUMNS": "100", "HOME": str(home)}
    page_steps = steps(page)
    for step in page_steps:
        result = subprocess.run(
            ["bash", "-c", step.command],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert result.returncode == step.exit_code, (
            f"{page.name}: `{step.command}` exited {result.returncode}, expected {step.exit_code}\n"
            f"{result.stdout}{result.stderr}"
        )
        if step.expected_output is not None:
            expected = step.expected_output.replace("~/", f"{home}/")  # the reader's home, as a page says it
            assert result.stdout + result.stderr == expected, f"{page.name}: `{step.command}`"


def test_the_docs_do_show_commands() -> None:
    assert sum(len(steps(page)) for page in PAGES) >= 20


def test_the_players_card_tells_the_steps_in_the_order_the_station_asks() -> None:
    """The card once said to pick the division first; the station asks for the word count first.
    The order is taken from the station's own flow (a station asking for the table, serving two
    divisions), and each screen's words must come on the card in that order."""
    from kiosk.core.play.session import DivisionSelected, JudgePressed, Screen, Typed, start, transition

    state = start((15, 15), ask_table=True)
    screens = [state.screen]
    for event in (Typed("2"), Typed("12\r"), DivisionSelected(0), Typed("CAT DOGS "), JudgePressed()):
        state = transition(state, event).state
        if state.screen is not screens[-1]:
            screens.append(state.screen)
    assert screens == [
        Screen.READY,
        Screen.TABLE,
        Screen.DIVISION,
        Screen.ENTRY,
        Screen.CONFIRM,
        Screen.JUDGING,
    ]
    card = re.sub(r"<[^>]+>", "", (REPO_ROOT / "docs" / "player-card.html").read_text(encoding="utf-8"))
    card = " ".join(card[card.index("Challenger") :].split())
    says = {
        Screen.READY: "number of words",
        Screen.TABLE: "table number",
        Screen.DIVISION: "division",
        Screen.ENTRY: "Type each word",
        Screen.CONFIRM: "Check the spelling",
        Screen.JUDGING: "Tab to judge",
    }
    found = [card.find(says[screen]) for screen in screens]
    assert -1 not in found, dict(zip(screens, found, strict=True))
    assert found == sorted(found), f"the card tells {sorted(screens, key=lambda s: found[screens.index(s)])}"
    assert not re.search(r"division[^.]*\bfirst\b", card, re.IGNORECASE), "the count comes first"
