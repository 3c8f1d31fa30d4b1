"""Benchmark of the headless heart: prints figures, asserts nothing.

Usage: .venv/bin/python bench/bench_heart.py WORDLIST [WORDLIST ...]

For each list: build time, pack size beside ``gzip -9`` of the list, load+verify time, lookups per
second, one 8-word verdict's latency, ``kiosk check --batch`` throughput (in-process and through
the real command), each beside a Python ``set`` and an SQLite table as baselines.
"""

from __future__ import annotations

import gzip
import random
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from kiosk.core.packs.lexicon import load_lexicon
from kiosk.core.play.adjudication import adjudicate
from kiosk.core.play.batch import batch_rulings
from lexicon_build.builder import build_pack
from lexicon_build.recipe import Recipe, SourceSpec

BATCH_LINES = 300_000
LOOKUPS = 500_000


def best_of(runs: int, action: Callable[[], object]) -> float:
    """Best wall time of several runs, in seconds (the least disturbed by other processes)."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return min(times)


def bench(path: Path, workdir: Path) -> None:
    print(f"\n== {path} ({path.stat().st_size / 1e6:.2f} MB)")
    recipe = Recipe(name=path.stem, sources=(SourceSpec(path=path),))
    build_s = best_of(3, lambda: build_pack(recipe))
    result = build_pack(recipe)
    pack_path = workdir / f"{path.stem}.kxpack"
    pack_path.write_bytes(result.data)
    gzip_bytes = len(gzip.compress(path.read_bytes(), compresslevel=9))
    print(f"build:            {build_s * 1000:8.0f} ms  ({result.info.word_count} words kept, 2-15 letters)")
    pack_kb, gzip_kb = len(result.data) / 1e3, gzip_bytes / 1e3
    print(
        f"pack size:        {pack_kb:8.0f} kB  (gzip -9 of the list: {gzip_kb:.0f} kB,"
        f" ratio {pack_kb / gzip_kb:.2f})"
    )
    load_s = best_of(5, lambda: load_lexicon(pack_path))
    lexicon = load_lexicon(pack_path)
    words = list(lexicon.words.keys())
    sqlite_path = workdir / f"{path.stem}.sqlite"
    sqlite_path.unlink(missing_ok=True)
    with sqlite3.connect(sqlite_path) as db:
        db.execute("CREATE TABLE words (word TEXT PRIMARY KEY) WITHOUT ROWID")
        db.executemany("INSERT INTO words VALUES (?)", ((w,) for w in words))
    db.close()
    text_path = workdir / f"{path.stem}.txt"
    text_path.write_text("".join(f"{w}\n" for w in words), encoding="ascii")
    set_load_s = best_of(3, lambda: set(text_path.read_text(encoding="ascii").split()))
    query = "SELECT 1 FROM words WHERE word = ?"
    sqlite_load_s = best_of(5, lambda: sqlite3.connect(sqlite_path).execute(query, ("CAT",)).fetchone())
    print(
        f"load + verify:    {load_s * 1000:8.1f} ms  (set from the text list {set_load_s * 1000:.0f} ms,"
        f" sqlite open + first query {sqlite_load_s * 1000:.1f} ms, unverified;"
        f" sqlite file {sqlite_path.stat().st_size / 1e3:.0f} kB)"
    )

    rng = random.Random(7)
    probes = [rng.choice(words) if i % 2 else rng.choice(words)[::-1] for i in range(LOOKUPS)]
    as_set = set(words)
    db = sqlite3.connect(sqlite_path)
    marisa_s = best_of(3, lambda: sum(1 for p in probes if p in lexicon))
    set_s = best_of(3, lambda: sum(1 for p in probes if p in as_set))
    sqlite_probes = probes[: LOOKUPS // 10]
    sqlite_s = best_of(3, lambda: sum(1 for p in sqlite_probes if db.execute(query, (p,)).fetchone()))
    print(
        f"lookups/s:        {LOOKUPS / marisa_s / 1e6:8.2f} M   (set {LOOKUPS / set_s / 1e6:.2f} M,"
        f" sqlite {len(sqlite_probes) / sqlite_s / 1e6:.2f} M)"
    )
    set_mb = (sys.getsizeof(as_set) + sum(map(sys.getsizeof, words))) / 1e6
    print(
        f"memory:           {len(result.data) / 1e6:8.2f} MB pack in RAM"
        f"  (a Python set of the words: ~{set_mb:.0f} MB)"
    )

    play = " ".join(rng.sample(words, 8))
    latencies = []
    for _ in range(2000):
        start = time.perf_counter()
        adjudicate(play, lexicon)
        latencies.append(time.perf_counter() - start)
    print(
        f"8-word verdict:   {statistics.median(latencies) * 1e6:8.1f} us median,"
        f" {sorted(latencies)[int(len(latencies) * 0.99)] * 1e6:.1f} us p99"
    )

    lines = [" ".join(rng.sample(probes, rng.randint(1, 8))).lower() for _ in range(BATCH_LINES)]
    word_total = sum(line.count(" ") + 1 for line in lines)
    batch_s = best_of(3, lambda: sum(1 for _ in batch_rulings(lines, lexicon)))
    print(
        f"batch in-process: {word_total / batch_s / 1e3:8.0f} k words/s  ({BATCH_LINES} lines,"
        f" {word_total} words, {batch_s * 1000:.0f} ms)"
    )
    batch_file = workdir / "batch.txt"
    batch_file.write_text("\n".join(lines) + "\n", encoding="ascii")
    kiosk = Path(sys.executable).with_name("kiosk")
    command = [str(kiosk), "check", "--pack", str(pack_path), "--batch", str(batch_file)]
    cli_s = best_of(3, lambda: subprocess.run(command, check=True, stdout=subprocess.DEVNULL))
    print(
        f"kiosk --batch:    {word_total / cli_s / 1e3:8.0f} k words/s  (whole process, start-up included:"
        f" {cli_s * 1000:.0f} ms for {BATCH_LINES} lines)"
    )


def main() -> None:
    paths = [Path(arg) for arg in sys.argv[1:]]
    if not paths:
        sys.exit(__doc__)
    with tempfile.TemporaryDirectory() as folder:
        for path in paths:
            bench(path, Path(folder))


if __name__ == "__main__":
    main()
