"""The verification walk (issue 11): what it costs on a Collins-sized pack, and what its cache saves.

    QT_QPA_PLATFORM=offscreen .venv/bin/python bench/bench_walk.py [--list FILE] [--runs N] [--no-station]

On the list given with ``--list`` (an organiser's own), or the Collins-shaped list of
``bench/bench_tournament.py`` (279,000 words made from ENABLE):

* the walk in a child process, as a station meets a pack it has not seen (start of the child,
  every trie read whole, the digests recomputed, the trie rebuilt and compared), and the same walk
  in this process (what the child spends beyond starting), with the child's peak memory;
* loading the pack as the station does once the walk is remembered (header, digest, manifest,
  the cache entry, marisa), beside the same load with no walk at all (what a station did before);
* ``kiosk station --smoke`` to its ready frame on that pack: a new data directory every run (the
  walk each time: the first start on a new pack), the same one (the walk remembered: every start
  after), and a bare PySide6 window.

Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from bench_station import BARE_WINDOW, first_frame_seconds
from bench_tournament import ENABLE, collins_shaped, compile_bytecode, interleaved, median_ms

from kiosk.core.packs.lexicon import MarisaLexicon, load_lexicon
from kiosk.core.packs.pack import read_pack
from kiosk.core.packs.trust import check_pack_signature
from kiosk.core.packs.verification import PackWalker, WalkCache, WalkedTries, walk_tries
from lexicon_build.builder import build_pack
from lexicon_build.recipe import Recipe, SourceSpec


def timer(action: Callable[[], object]) -> Callable[[], float]:
    def run() -> float:
        started = time.perf_counter()
        action()
        return time.perf_counter() - started

    return run


def child_peak_mib(pack: Path) -> float:
    """Peak resident memory of one walk's child (RUSAGE_CHILDREN of a process that runs only it)."""
    probe = (
        "import resource, sys\n"
        "from pathlib import Path\n"
        "from kiosk.core.packs.lexicon import load_lexicon\n"
        "load_lexicon(Path(sys.argv[1]))\n"
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe, str(pack)], capture_output=True, text=True, check=True
    )
    return int(done.stdout.strip()) / 1024


def walk_and_load(pack: Path, folder: Path, runs: int) -> None:
    contents = read_pack(pack)
    cache = WalkCache(folder / "warm" / "verified-packs")
    load_lexicon(pack, walker=PackWalker(cache=cache))  # remembered once

    def unwalked() -> MarisaLexicon:  # what a station did before: trusting the digest alone
        fresh = read_pack(pack)
        return MarisaLexicon.from_contents(
            fresh, check_pack_signature(fresh), WalkedTries.claimed(fresh.info)
        )

    child, here, warm, before = interleaved(
        runs,
        timer(lambda: PackWalker().verify(contents)),
        timer(lambda: walk_tries(contents.sections["words"], None, contents.info.word_count)),
        timer(lambda: load_lexicon(pack, walker=PackWalker(cache=cache))),
        timer(unwalked),
    )
    trie_bytes = len(contents.sections["words"])
    print(f"the walk, {contents.info.word_count:,} words, trie {trie_bytes:,} bytes, median of {runs}:")
    print(f"  in a child process (a pack not seen before)  {median_ms(child)}")
    print(f"  the same walk in this process                {median_ms(here)}")
    print(f"  the child's peak resident memory             {child_peak_mib(pack):6.0f} MiB")
    print(f"loading the pack, median of {runs}:")
    print(f"  as a station now does, the walk remembered   {median_ms(warm)}")
    print(f"  with no walk at all (before issue 11)        {median_ms(before)}")


def station(pack: Path, folder: Path, runs: int) -> None:
    env = {**os.environ, "QT_QPA_PLATFORM": os.environ.get("QT_QPA_PLATFORM", "offscreen")}
    config = folder / "station.toml"
    config.write_text(f'[[divisions]]\nname = "Open"\npack = "{pack}"\n', encoding="utf-8")
    kiosk_args = [sys.executable, "-c", "from kiosk.entry import run; run()", "--config", str(config)]
    warm_data = folder / "warm-station"
    fresh = iter(range(1_000_000))

    def cold() -> float:
        return first_frame_seconds(
            [*kiosk_args, "station", "--smoke", "--data-dir", str(folder / f"cold-{next(fresh)}")], env
        )

    first_frame_seconds([*kiosk_args, "station", "--smoke", "--data-dir", str(warm_data)], env)  # remember it
    bare_s, cold_s, warm_s = interleaved(
        runs,
        lambda: first_frame_seconds([sys.executable, "-c", BARE_WINDOW], env),
        cold,
        lambda: first_frame_seconds([*kiosk_args, "station", "--smoke", "--data-dir", str(warm_data)], env),
    )
    bare = statistics.median(bare_s)
    print(f"kiosk station --smoke to the ready frame on that pack, median of {runs}:")
    print(f"  bare PySide6 window                          {median_ms(bare_s)}")
    for label, spent in (
        ("first start on the pack (walked)   ", cold_s),
        ("every start after (walk remembered)", warm_s),
    ):
        print(f"  {label}          {median_ms(spent)}   {statistics.median(spent) / bare:4.2f} x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--list", type=Path, help="walk a pack of this word list, not the generated one")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--no-station", action="store_true", help="leave out the station rows")
    args = parser.parse_args()
    compile_bytecode()
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp)
        if args.list is not None:
            source = args.list
        else:
            words = collins_shaped(ENABLE.read_text(encoding="ascii").split())
            source = folder / "collins-shaped.txt"
            source.write_text("\n".join(words) + "\n", encoding="ascii")
        pack = folder / "collins-shaped.kxpack"
        pack.write_bytes(
            build_pack(Recipe(name="Bench", sources=(SourceSpec(source),)), skip_invalid=True).data
        )
        print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}")
        walk_and_load(pack, folder, args.runs)
        if not args.no_station:
            station(pack, folder, args.runs)
    print(f"bench CPU time: {resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime:.1f} s in child processes")


if __name__ == "__main__":
    main()
