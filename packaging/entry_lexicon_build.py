"""Frozen entry point of the `lexicon-build` program (the organisers' pack builder)."""

from lexicon_build.cli import run

if __name__ == "__main__":
    run()
