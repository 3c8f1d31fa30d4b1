"""How to store a pack's trie (issue 12): marisa's settings and every compressor, size against time.

    .venv/bin/python bench/bench_pack_encoding.py [--list FILE]

For the Collins-shaped list of ``bench_tournament.py`` (or ``--list FILE``) and the embedded ENABLE
demo list: each marisa setting (number of tries, cache size, node order, tail) with its trie size,
its load time and its lookups per second; then each compressor of the standard library at several
levels, and zstandard and brotli where installed (they are not dependencies: the bench says so
when they are missing), applied to the default trie: size, compression time (what a build pays)
and unpacking time (what every station start pays, per pack). Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import bz2
import functools
import importlib
import lzma
import random
import sys
import time
import zlib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import marisa_trie
from bench_tournament import ENABLE, MAX_LETTERS, collins_shaped, dwg_bytes

PROBES = 200_000
Codec = tuple[str, Callable[[bytes], bytes], Callable[[bytes], bytes]]


def best_ms(action: Callable[[], object], runs: int = 5) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        action()
        times.append(time.perf_counter() - started)
    return min(times) * 1000


def zlib_codec(level: int, strategy: int, label: str) -> Codec:
    def pack(data: bytes) -> bytes:
        packer = zlib.compressobj(level, zlib.DEFLATED, 15, 8, strategy)
        return packer.compress(data) + packer.flush()

    return (f"zlib {level} {label}", pack, zlib.decompress)


def codecs() -> list[Codec]:
    found: list[Codec] = [
        zlib_codec(level, strategy, label)
        for level in (1, 4, 6, 9)
        for strategy, label in ((zlib.Z_DEFAULT_STRATEGY, "default"), (zlib.Z_FILTERED, "filtered"))
    ]
    found += [zlib_codec(6, zlib.Z_HUFFMAN_ONLY, "Huffman only"), zlib_codec(6, zlib.Z_RLE, "RLE")]
    found += [
        ("bz2 9", lambda d: bz2.compress(d, 9), bz2.decompress),
        ("lzma 0", lambda d: lzma.compress(d, preset=0), lzma.decompress),
        ("lzma 6", lambda d: lzma.compress(d, preset=6), lzma.decompress),
        ("lzma 9e", lambda d: lzma.compress(d, preset=9 | lzma.PRESET_EXTREME), lzma.decompress),
    ]
    try:
        zstandard = importlib.import_module("zstandard")
    except ImportError:
        print("(zstandard is not installed: pip install zstandard to compare it)")
    else:
        for level in (3, 9, 19, 22):
            packer = zstandard.ZstdCompressor(level=level)
            found.append((f"zstd {level}", packer.compress, zstandard.ZstdDecompressor().decompress))
    try:
        brotli = importlib.import_module("brotli")
    except ImportError:
        print("(brotli is not installed: pip install brotli to compare it)")
    else:
        for quality in (5, 9, 11):
            found.append((f"brotli {quality}", brotli_packer(brotli, quality), brotli.decompress))
    return found


def count_in(trie: marisa_trie.Trie, probes: Sequence[str]) -> int:
    return sum(1 for p in probes if p in trie)


def brotli_packer(brotli: Any, quality: int) -> Callable[[bytes], bytes]:
    def pack(data: bytes) -> bytes:
        packed: bytes = brotli.compress(data, quality=quality)
        return packed

    return pack


def marisa_settings(words: Sequence[str], probes: Sequence[str], default_bytes: int) -> None:
    print("  marisa setting                     trie bytes   x default   load ms   lookups/s")
    for tries in (1, 2, 3, 4, 6):
        for cache in ("TINY", "NORMAL", "HUGE"):
            for order in ("LABEL", "WEIGHT"):
                for binary in (False, True):
                    trie = marisa_trie.Trie(
                        words,
                        num_tries=tries,
                        cache_size=getattr(marisa_trie, f"{cache}_CACHE"),
                        order=getattr(marisa_trie, f"{order}_ORDER"),
                        binary=binary,
                    )
                    data = trie.tobytes()
                    load = best_ms(functools.partial(marisa_trie.Trie().frombytes, data))
                    look = best_ms(functools.partial(count_in, trie, probes), 3)
                    label = (
                        f"{tries} tries, {cache} cache, {order} order, {'binary' if binary else 'text'} tail"
                    )
                    print(
                        f"  {label:<40} {len(data):9,d}   {len(data) / default_bytes:8.4f}   {load:7.2f}"
                        f"   {len(probes) / look * 1000 / 1e6:6.2f} M"
                    )


def bench(title: str, words: list[str]) -> None:
    words = sorted(words)
    rng = random.Random(7)
    probes = [rng.choice(words) if i % 2 else rng.choice(words)[::-1] for i in range(PROBES)]
    default = marisa_trie.Trie(words).tobytes()
    graph = dwg_bytes(words)
    print(f"\n== {title}: {len(words):,} words; Zyzzyva .dwg {graph:,} B; marisa trie {len(default):,} B")
    marisa_settings(words, probes, len(default))
    print("  compressor of the default trie   bytes     x trie   x .dwg   compress ms   unpack ms")
    print(f"  {'none (pack format 1)':<30} {len(default):9,d}   1.0000   {len(default) / graph:6.3f}")
    for name, pack, unpack in codecs():
        packed = pack(default)
        assert unpack(packed) == default
        compress_ms = best_ms(functools.partial(pack, default), 3)
        unpack_ms = best_ms(functools.partial(unpack, packed))
        print(
            f"  {name:<30} {len(packed):9,d}   {len(packed) / len(default):6.4f}   {len(packed) / graph:6.3f}"
            f"   {compress_ms:11.1f}   {unpack_ms:9.2f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--list", type=Path, help="bench this word list instead of the generated one")
    args = parser.parse_args()
    if not ENABLE.is_file():
        sys.exit(f"{ENABLE} is missing: the bench makes its lists from it")
    enable = ENABLE.read_text(encoding="ascii").split()
    if args.list is None:
        bench("Collins-shaped list (bench_tournament.py)", collins_shaped(enable))
    else:
        text = args.list.read_text(encoding="utf-8-sig").split()
        bench(str(args.list), sorted({w.upper() for w in text if 2 <= len(w) <= MAX_LETTERS and w.isalpha()}))
    bench(
        "ENABLE, 2-15 letters (the embedded demo pack)", sorted({w.upper() for w in enable if len(w) <= 15})
    )


if __name__ == "__main__":
    main()
