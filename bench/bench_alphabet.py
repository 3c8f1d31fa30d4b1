"""Benchmark of a pack with multi-letter tiles: prints figures, asserts nothing.

Usage: .venv/bin/python bench/bench_alphabet.py [--words 640000] [--alphabet spanish]

Generates a synthetic list of that many distinct words (seeded, Spanish-like syllables, with the
alphabet's multi-letter tiles in about one word in three; no published list is needed), writes
it as a plain UTF-8 list, then times the real builder on it and prints the pack's size, the
load and verification walk, typed-word lookups per second (each typed word read as its one
reading of tiles, then one trie lookup) and one 8-word verdict's latency.
"""

from __future__ import annotations

import argparse
import gzip
import random
import statistics
import tempfile
import time
from pathlib import Path

from kiosk.core.packs.lexicon import load_lexicon
from kiosk.core.packs.verification import PackWalker
from kiosk.core.play.adjudication import adjudicate
from kiosk.core.words.alphabet import Alphabet, alphabets
from lexicon_build.builder import build_pack
from lexicon_build.recipe import Recipe, SourceSpec

LOOKUPS = 200_000
SEED = 13


def synthetic_words(alphabet: Alphabet, count: int, rng: random.Random) -> list[str]:
    """``count`` distinct words of 2 to 15 tiles, written as a list writes them."""
    vowels = [t for t in alphabet.tiles if t in "AEIOU"]
    consonants = [t for t in alphabet.tiles if t not in vowels]
    words: set[str] = set()
    while len(words) < count:
        tiles: list[str] = []
        for _ in range(rng.randint(1, 6)):
            tiles += [rng.choice(consonants), rng.choice(vowels)]
            if rng.random() < 0.2:
                tiles.append(rng.choice(consonants))
        tiles = tiles[: rng.randint(2, 15)]
        words.add("".join(tiles))
    return sorted(words)


def best_of(runs: int, action: object) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        action()  # type: ignore[operator]
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--words", type=int, default=640_000)
    parser.add_argument("--alphabet", choices=sorted(alphabets()), default="spanish")
    parser.add_argument("--runs", type=int, default=3)
    options = parser.parse_args()
    alphabet = alphabets()[options.alphabet]
    rng = random.Random(SEED)
    words = synthetic_words(alphabet, options.words, rng)
    multi = sum(any(len(t) > 1 and t in w for t in alphabet.tiles) for w in words)
    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "words.txt"
        source.write_text("".join(f"{w}\n" for w in words), encoding="utf-8")
        size_mb = source.stat().st_size / 1e6
        print(f"list:         {len(words):,} words ({multi:,} with multi-letter tiles), {size_mb:.1f} MB")
        recipe = Recipe(name="bench", sources=(SourceSpec(path=source),), alphabet=alphabet)
        build_s = best_of(options.runs, lambda: build_pack(recipe))
        result = build_pack(recipe)
        gzip_kb = len(gzip.compress(source.read_bytes(), compresslevel=9)) / 1e3
        kept = result.info.word_count
        print(f"build:        {build_s:8.2f} s   (best of {options.runs}, {options.alphabet}, {kept:,} kept)")
        print(f"pack size:    {len(result.data) / 1e3:8.0f} kB  (gzip -9 of the list: {gzip_kb:.0f} kB)")
        pack = Path(folder) / "bench.kxpack"
        pack.write_bytes(result.data)
        walk_s = best_of(options.runs, lambda: load_lexicon(pack, walker=PackWalker()))
        print(f"load + walk:  {walk_s * 1000:8.0f} ms  (the walk in a child process, no cache)")
        lexicon = load_lexicon(pack)
        probes = [rng.choice(words) if i % 2 else rng.choice(words)[::-1] for i in range(LOOKUPS)]
        patterns = []  # the typed words as the normaliser gives them (stored spellings)
        for probe in probes:
            try:
                patterns.append(adjudicate(probe, lexicon).words[0])
            except Exception:  # a reversed word may read as no tiles (Catalan U before Q)
                continue
        lookup_s = best_of(options.runs, lambda: sum(1 for p in patterns if p in lexicon))
        print(f"lookups/s:    {len(patterns) / lookup_s / 1e3:8.0f} k (typed words as tiles, a lookup each)")
        play = " ".join(rng.sample(words, 8))
        latencies = []
        for _ in range(2000):
            start = time.perf_counter()
            adjudicate(play, lexicon)
            latencies.append(time.perf_counter() - start)
        print(f"8-word verdict: {statistics.median(latencies) * 1e6:6.0f} us median")


if __name__ == "__main__":
    main()
