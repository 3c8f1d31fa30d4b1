"""Frozen entry point of the `kiosk` program (the station and its command-line tools)."""

from kiosk.entry import run

if __name__ == "__main__":
    run()
