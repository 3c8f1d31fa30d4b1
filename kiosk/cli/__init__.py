"""The ``kiosk`` program's click layer: the station, rulings, the log, the PIN and the director's view.

A thin click layer, one module per command group: ``station``, ``check``, ``log``, ``pin``
(``set-pin``), ``shared_log`` and ``director``; ``where`` is how they find the station's files
(``--config`` reached one way). Every command calls functions tested on their own
(``kiosk.station`` starts the station, ``kiosk.core`` rules, ``kiosk.storage`` reads the log,
``kiosk.director`` serves the director's view), and only this layer decides what to print and
which exit code to return (0 acceptable, 1 unacceptable, 2 an input, pack or configuration
error). ``kiosk.entry.run`` (the console script) runs it under ``kiosk.console.run_guarded``.

A command's module is imported when that command runs (or help lists it): ``kiosk station``
does not load the log's, the PIN's or the director's code, nor the core's rooms they reach,
before its first frame.
"""

from __future__ import annotations

import importlib
from pathlib import Path

import click

from kiosk import __version__
from kiosk.cli.where import Given, config_option
from kiosk.paths import guide_dir

__all__ = ["COMMANDS", "kiosk"]

# Each command by its name: the module of this package that holds it, and its function there.
COMMANDS = {
    "check": ("check", "check"),
    "director": ("director", "director"),
    "log": ("log", "log"),
    "set-pin": ("pin", "set_pin"),
    "shared-log": ("shared_log", "shared_log"),
    "station": ("station", "station"),
}


class KioskGroup(click.Group):
    """The ``kiosk`` group: each command imported when it is asked for; the help ends by saying
    where this installation keeps its guides."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in COMMANDS:
            return None
        module, name = COMMANDS[cmd_name]
        command = getattr(importlib.import_module(f"{__name__}.{module}"), name)
        assert isinstance(command, click.Command), command
        return command

    def format_epilog(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        super().format_epilog(ctx, formatter)
        guides = guide_dir()
        formatter.write_paragraph()
        formatter.write_text(
            f"Guides: {guides / 'install.md'} (installing stations); station.md, judges.md and "
            f"organisers.md in the same folder."
        )


@click.group(
    cls=KioskGroup, invoke_without_command=True, context_settings={"help_option_names": ["-h", "--help"]}
)
@click.version_option(__version__, prog_name="kiosk")
@config_option
@click.pass_context
def kiosk(ctx: click.Context, config_path: Path | None) -> None:
    """The challenge kiosk: one verdict for a whole challenged play.

    With no command, starts the full-screen station.

    \b
    Examples:
      kiosk                         start the station on the embedded pack
      kiosk --config station.toml   start the station as configured
      kiosk check CAT DOGS          rule on a play from the command line
      kiosk log show --last 10      the last ten challenges, per-word results included
      kiosk set-pin                 set the judge PIN (also the way back in)
    """
    ctx.obj = Given(config_path)  # a command's own --config falls back on it (kiosk.cli.where)
    if ctx.invoked_subcommand is None:
        from kiosk.cli.station import station

        ctx.invoke(station, config_path=config_path)
