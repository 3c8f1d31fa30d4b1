"""Every example in every ``--help`` of both programs is run, and must work as shown.

The commands come from walking both click trees, so a new command's examples are run without
anyone listing them here. Each example runs in its own fresh copy of a folder of real files (word
lists, packs, keys, a station configuration: ``tests/cli_world.py``), with the files the example
writes removed first, as on the machine of someone who has not run it yet. An example that starts
the station runs it offscreen with ``--smoke`` (it paints the ready screen and exits); prompts get
their answers on standard input; one that starts the director's view runs it with
``--once``. Every example must exit 0 with no error and no traceback.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path

import click
import pytest

from tests.cli_world import EXAMPLES as SHIPPED
from tests.cli_world import PIN, PROGRAMS, Command, commands, copy_world, examples, make_world, release_world
from tests.storage.postgres import PostgresServer

EXAMPLES = [(command, line) for command in commands() for line in examples(command)]


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    folder = make_world(tmp_path_factory.mktemp("examples") / "world")
    yield folder
    release_world(folder)


def test_the_examples_run_on_the_example_files_the_guides_ship(world: Path) -> None:
    """An example naming a file of ``docs/examples`` runs on that file as shipped, never on one the
    tests made up under its name: an example and the guides' example table cannot disagree unseen
    (``--expect CLUB24`` passed here against a made-up table, while the shipped one says CLUB2024)."""
    shipped = {path.name: path for path in SHIPPED.iterdir() if path.is_file()}
    for name, path in shipped.items():
        assert (world / name).read_bytes() == path.read_bytes(), f"the world made its own {name}"
    named = {word for _, line in EXAMPLES for word in shlex.split(line)} & set(shipped)
    assert {"club-editions.tsv", "base-list.txt", "school-2014.toml", "station.toml"} <= named


def test_every_command_has_examples() -> None:
    missing = [command.id for command in commands() if not examples(command)]
    assert not missing, f"commands whose --help shows no example: {missing}"


def _resolve(program: str, args: list[str]) -> tuple[click.Context, list[click.Context]]:
    """Parse ``args`` as click would, without running anything: the contexts of every level."""
    group = PROGRAMS[program]
    with warnings.catch_warnings():  # protected_args: click 8's name for a group's subcommand words
        warnings.simplefilter("ignore", DeprecationWarning)
        root = group.make_context(program, list(args), resilient_parsing=True)
        contexts = [root]
        rest = [*root.protected_args, *root.args]
        command: click.Command = group
        while isinstance(command, click.Group) and rest:
            name, found, rest = command.resolve_command(contexts[-1], rest)
            assert found is not None
            assert name is not None
            child = found.make_context(name, rest, parent=contexts[-1], resilient_parsing=True)
            contexts.append(child)
            rest = [*child.protected_args, *child.args] if isinstance(found, click.Group) else []
            command = found
    return root, contexts


def _outputs(contexts: list[click.Context]) -> list[str]:
    """The values of every output option (click.Path(writable=True)) in the parsed command line."""
    found: list[str] = []
    for context in contexts:
        for param in context.command.params:
            value = context.params.get(param.name or "")
            if isinstance(param.type, click.Path) and param.type.writable and value not in (None, "-"):
                found.extend(str(v) for v in (value if isinstance(value, tuple) else (value,)))
    return found


def _as_run(line: str) -> tuple[str, list[str]]:
    """The shell line to run, and the files it writes (to remove first)."""
    words = shlex.split(line)
    pipe = words.index("|") if "|" in words else -1
    start = pipe + 1
    end = next((i for i, w in enumerate(words) if w == ">"), len(words))
    program, args = words[start], words[start + 1 : end]
    _, contexts = _resolve(program, args)
    outputs = _outputs(contexts)
    if end < len(words):
        outputs.append(words[end + 1])
    starts_station = contexts[-1].command.name == "station" or (
        len(contexts) == 1 and contexts[0].invoked_subcommand is None and program == "kiosk"
    )
    if starts_station and "--smoke" not in args:
        # `kiosk [--config F]` means `kiosk [--config F] station`; --smoke paints and exits.
        command_words = [*args, "station"] if len(contexts) == 1 else list(args)
        line = shlex.join([program, *command_words, "--smoke"])
        if outputs:  # pragma: no cover - no station example writes a file
            line += " " + shlex.join(words[end:])
    if contexts[-1].command.name == "director" and "--once" not in args:
        # The director's view serves until Ctrl+C; --once reads the log as it would, and exits.
        line = shlex.join([program, *args, "--once"])
    for context in contexts:  # keygen KEY writes KEY.pub beside it
        if context.command.name == "keygen" and context.params.get("key_file"):
            outputs.append(str(Path(str(context.params["key_file"])).with_suffix(".pub")))
    return line, outputs


@pytest.mark.parametrize(("command", "line"), EXAMPLES, ids=[line for _, line in EXAMPLES])
def test_the_example_runs_as_shown(
    command: Command, line: str, world: Path, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    folder = copy_world(world, tmp_path / "here")
    try:
        shell_line, outputs = _as_run(line)
        for output in outputs:
            (folder / output).unlink(missing_ok=True)
        venv_bin = Path(sys.executable).parent
        env = {
            **os.environ,
            "PATH": f"{venv_bin}{os.pathsep}{os.environ['PATH']}",
            "KIOSK_DATA_DIR": str(folder / "data"),
            "QT_QPA_PLATFORM": "offscreen",
            "PIN": PIN,
        }
        if command.id.startswith("kiosk shared-log"):
            # run on the log's server as its superuser: libpq's environment names the test's server
            server: PostgresServer = request.getfixturevalue("postgres_server")
            env.update(server.admin_env())
        result = subprocess.run(
            ["bash", "-c", shell_line],
            cwd=folder,
            env=env,
            input=f"{PIN}\n{PIN}\n",
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
            start_new_session=True,  # no terminal: hidden prompts read standard input
        )
        shown = f"{command.id}: `{line}` (run as `{shell_line}`)\n{result.stdout}{result.stderr}"
        assert result.returncode == 0, shown
        assert "Traceback" not in result.stderr + result.stdout, shown
        assert "error:" not in result.stderr, shown
        for output in outputs:
            assert (folder / output).exists(), f"{shown}\n{output} was not written"
    finally:
        release_world(folder)
