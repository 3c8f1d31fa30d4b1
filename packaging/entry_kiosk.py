"""Frozen entry point of the `kiosk` program (the station and its command-line tools)."""

from kiosk.cli import main

if __name__ == "__main__":
    main()
