"""The director's PIN page over a data directory whose disk is full (``python -m``, in a tmpfs).

``python -m tests.director.full_disk_child FOLDER PIN``: a station's storage in ``FOLDER/data``
with the judge PIN ``PIN``, the disk filled to the last byte, then the director's app (its real
gate and door) asked 100 wrong PINs and the right one, as fast as a script can. Prints the
answers' status codes and the station's own count as one JSON object.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from starlette.testclient import TestClient

from kiosk.director.app import director_app
from kiosk.director.door import DirectorDoor, StoredPin
from kiosk.director.gate import Served
from kiosk.director.pages import Pages
from kiosk.director.watch import Watcher
from kiosk.storage import open_station_storage
from kiosk.storage.database import sqlite_url
from kiosk.storage.overview import LogReader
from tests.storage.full_disk_child import fill

ORIGIN = "http://127.0.0.1:8080"
GUESSES = 100


def main(folder: Path, pin: str) -> None:
    with open_station_storage(folder / "data") as storage:
        storage.judge_access.set_pin(pin)
        url = sqlite_url(storage.local_path)
        watcher, recent = Watcher(LogReader(url)), LogReader(url)
        door = DirectorDoor(StoredPin(storage.local_path, "kiosk set-pin"), journal=lambda line: None)
        app = director_app(watcher, Pages(url), door, recent, lock_s=60, served=Served.of("127.0.0.1", 8080))
        filled = fill(folder / "fill")
        with TestClient(app, base_url=ORIGIN) as client:
            match = re.search(r'name="form" value="([0-9a-f]+)"', client.get("/challenges").text)
            assert match is not None
            token = match.group(1)

            def post(tried: str) -> int:
                answer = client.post(
                    "/challenges", data={"form": token, "pin": tried}, headers={"Origin": ORIGIN}
                )
                return answer.status_code

            wrong = [post(f"{n:06d}") for n in range(GUESSES)]
            right = post(pin)
        failures = storage.judge_access.attempts().failures
        watcher.close()
        recent.close()
    print(json.dumps({"filled": filled, "wrong": wrong, "right": right, "station_failures": failures}))


if __name__ == "__main__":
    main(Path(sys.argv[1]), sys.argv[2])
