"""What a station's heartbeats cost its verdict path: record() latency with and without them.

The heartbeat thread writes to the same SQLite file as record() (one small transaction, synced):
a record() that comes while a heartbeat commits waits for it. This prints record()'s latency
(median, 95th and 99th percentile, worst) with no reporter, with the real one (a write at each
change and every 15 s: a record() at a moment it writes is rare), and with a reporter writing
every 10 ms (a worst case no station reaches), plus how long one heartbeat write takes.

Prints figures; asserts nothing. Run from the repository root:

    .venv/bin/python -m bench.bench_heartbeat [--count 300]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
import uuid
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

from kiosk.core.log.heartbeat import DivisionPack, Heartbeat, StationId, StationState
from kiosk.storage import StationStorage, open_station_storage
from tests.storage.entries import make_entry


def beat(state: StationState) -> Heartbeat:
    return Heartbeat(
        station_id=StationId(uuid.uuid4()),
        station="Table 1",
        host="bench",
        state=state,
        packs=(DivisionPack("Open", "CSW", "24"),),
        rule_profile="double",
        version="bench",
    )


def figures(label: str, samples_ms: list[float]) -> None:
    ordered = sorted(samples_ms)

    def pick(share: float) -> float:
        return ordered[min(len(ordered) - 1, int(share * len(ordered)))]

    print(
        f"{label:<48} median {statistics.median(ordered):6.2f} ms   p95 {pick(0.95):6.2f}   "
        f"p99 {pick(0.99):6.2f}   worst {ordered[-1]:6.2f}"
    )


def records(storage: StationStorage, count: int, *, interval_s: float = 0.005) -> list[float]:
    storage.log.record(make_entry())  # warm up
    samples = []
    for _ in range(count):
        entry = make_entry()
        start = time.perf_counter()
        storage.log.record(entry)
        samples.append((time.perf_counter() - start) * 1000)
        time.sleep(interval_s)  # players take seconds; this leaves the reporter room to write
    return samples


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=300)
    count = parser.parse_args().count
    with tempfile.TemporaryDirectory() as tmp:
        with open_station_storage(Path(tmp) / "none") as storage:
            figures("record(), no heartbeats", records(storage, count))
        with open_station_storage(Path(tmp) / "real") as storage:
            reporter = storage.heartbeat_reporter()
            reporter.report(beat(StationState.READY))
            figures("record(), the station's reporter (15 s)", records(storage, count))
        with open_station_storage(Path(tmp) / "busy") as storage:
            reporter = storage.heartbeat_reporter(interval_s=0.01)
            states = list(StationState)
            reporter.report(beat(StationState.READY))
            samples = records(storage, count)
            figures("record(), a heartbeat every 10 ms (worst case)", samples)
            assert storage.heartbeats is not None
            writes = []
            sample = replace(beat(states[0]), reported_at=datetime.now(UTC))
            for index in range(count):
                start = time.perf_counter()
                storage.heartbeats.write(replace(sample, state=states[index % len(states)]))
                writes.append((time.perf_counter() - start) * 1000)
            figures("one heartbeat write (the reporter's thread)", writes)


if __name__ == "__main__":
    main()
