"""Every command shown in the README and the guides is run for real.

Each ```sh block of a page runs line by line, in order, in one folder holding the files of
``docs/examples`` (with ``.venv``, ``data`` and ``docs`` pointing at the real ones, so a command
may name ``docs/examples/FILE`` as a reader in the repository's root would). A trailing
``# (exit N)`` says which exit code a line must give (0 otherwise), and ``# prints WORD`` what it
must print. A ```text block right after a
paragraph ending in "prints" must equal what the command before it printed. A block preceded by
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
    env = {**os.environ, "PATH": f"{venv / 'bin'}{os.pathsep}{os.environ['PATH']}", "COLUMNS": "100"}
    env["KIOSK_DATA_DIR"] = str(tmp_path / "station-data")
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
            assert result.stdout + result.stderr == step.expected_output, f"{page.name}: `{step.command}`"


def test_the_docs_do_show_commands() -> None:
    assert sum(len(steps(page)) for page in PAGES) >= 20
