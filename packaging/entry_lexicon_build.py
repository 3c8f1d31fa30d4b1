"""Frozen entry point of the `lexicon-build` program (the organisers' pack builder)."""

from lexicon_build.entry import run

if __name__ == "__main__":
    run()
