"""An alphabet with multi-letter tiles beside English on the same number of words (issues 13, 21).

    QT_QPA_PLATFORM=offscreen .venv/bin/python bench/bench_alphabet.py [--list FILE]
        [--alphabet spanish] [--words 636599] [--runs N] [--no-station]

The alphabet's list is ``--list FILE`` (a federation's own list, one word a line, written as
lists write them: ``CHALLA``), or one made here, deterministically: FISE2009's size (636,599
words), Spanish-shaped (stems of one to three syllables, each with a family of verb or noun
endings, as real lists grow), its onsets drawn with Spanish-like weights so that CH, LL and RR
stand in about one word in seven (14.5 %) and Ñ in about one in seventy; no published list is
needed. The English list beside it has as many words, Collins-shaped (``bench_tournament``'s
generator, grown to that size from ``data/enable1.txt``).

Printed, each beside its baseline measured in the same run (wall time, and the CPU time of the
whole process and the children it waited for):

* ``lexicon-build build``, whole process, for both lists, beside a bare ``marisa_trie.Trie`` of
  the alphabet's stored keys (``[CH]A[LL]A``) in a fresh process (target: at most 3 x), and the
  alphabet's build beside English's (target: at most 2 x);
* ``kiosk check --batch -`` over the whole list typed as players type it (lower case, and where
  the alphabet takes accents an accent on a vowel of one word in four: ``cállate``; English
  players type none), on the pack's first use (the walk) and once its
  walk is remembered, in words per second (target: at least 300,000, and at most 2 x English's
  time);
* Tab -> verdict at the station on the alphabet's pack (the real window and controller over real
  storage, keys typed one by one) for plays of 8 words of 15 tiles full of CH, LL and RR, half
  of them with a phony (target: p99 at most 50 ms).

Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from bench_tournament import (
    ENABLE,
    Sample,
    collins_shaped,
    compile_bytecode,
    cpu_ms,
    cpus,
    interleaved,
    load_average,
    median_ms,
    timed,
    walls,
)

from kiosk.core.words.alphabet import Alphabet, alphabets
from kiosk.core.words.normalise import normalise_list

FISE_WORDS = 636_599
SEED = 2009
TYPED_SEED = 7
BOARD_TILES = 15
PLAY_WORDS = 8
PLAYS = 200
ACCENTED = {"a": "á", "e": "é", "i": "í", "o": "ó", "u": "ú"}
# onsets with Spanish-like weights (percent-ish): CH, LL and RR make ~14.5 % of words hold one
ONSETS = [
    ("", 14), ("B", 4), ("C", 6), ("CH", 2.15), ("D", 6), ("F", 2), ("G", 3), ("J", 1.5), ("L", 5),
    ("LL", 1.85), ("M", 6), ("N", 5), ("Ñ", 0.5), ("P", 5), ("R", 5), ("RR", 1.5), ("S", 6), ("T", 6),
    ("V", 2.5), ("Z", 1), ("BR", 1), ("BL", 0.6), ("CR", 1), ("CL", 0.7), ("DR", 0.6), ("FR", 0.6),
    ("FL", 0.4), ("GR", 0.8), ("PR", 1.5), ("PL", 0.8), ("TR", 1.5), ("X", 0.3), ("Y", 1),
]  # fmt: skip
VOWELS = [("A", 12), ("E", 11), ("I", 6), ("O", 8), ("U", 4), ("IA", 1), ("IE", 1.2), ("UE", 1), ("IO", 0.6)]
CODAS = [("", 30), ("N", 4), ("S", 4), ("R", 3), ("L", 2), ("D", 0.5), ("Z", 0.5), ("C", 0.4), ("X", 0.1)]
# the endings of a verb's family and of a noun's, as lists write them (no accents)
VERB_ENDINGS = [
    "AR", "AS", "A", "AMOS", "AIS", "AN", "O", "E", "ES", "EMOS", "EIS", "EN", "ABA", "ABAS", "ABAMOS",
    "ABAIS", "ABAN", "ARE", "ARAS", "AREMOS", "AREIS", "ARAN", "ARIA", "ARIAS", "ARIAMOS", "ARIAIS",
    "ARIAN", "ANDO", "ADO", "ADA", "ADOS", "ADAS", "ASE", "ASES", "ASEMOS", "ASEIS", "ASEN", "ARAMOS",
    "ARAIS", "AD", "ADLO", "ADLA", "ARLO", "ARLA", "ARLOS", "ARLAS", "ANDOLO", "ANDOLA",
]  # fmt: skip
NOUN_ENDINGS = [
    "O", "A", "OS", "AS", "ITO", "ITA", "ITOS", "ITAS", "ON", "ONA", "ONES", "ONAS", "AZO", "AZOS",
    "ERO", "ERA", "EROS", "ERAS", "ERIA", "ERIAS", "AL", "ALES",
]  # fmt: skip
DIGRAPHS = ("CH", "LL", "RR")


def _pick(rng: random.Random, table: Sequence[tuple[str, float]]) -> str:
    roll = rng.uniform(0, sum(weight for _, weight in table))
    for item, weight in table:
        roll -= weight
        if roll <= 0:
            return item
    return table[-1][0]


def spanish_tiles(word: str) -> int:
    """Tiles of a Spanish word as a list writes it (CH, LL, RR one tile each)."""
    count = index = 0
    while index < len(word):
        index += 2 if word[index : index + 2] in DIGRAPHS else 1
        count += 1
    return count


def spanish_shaped(size: int) -> list[str]:
    """``size`` distinct Spanish-shaped words of 2 to 15 tiles, sorted, as a list writes them."""
    rng = random.Random(SEED)
    words: set[str] = set()
    while len(words) < size:
        syllables = []
        for number in range(rng.choice((1, 1, 2, 2, 2, 3))):
            onset = _pick(rng, ONSETS)
            while number and not onset:  # a vowel starts only the word
                onset = _pick(rng, ONSETS)
            syllables.append(onset + _pick(rng, VOWELS) + _pick(rng, CODAS))
        stem = "".join(syllables)
        endings = VERB_ENDINGS if rng.random() < 0.45 else NOUN_ENDINGS
        for word in [stem + ending for ending in endings] if rng.random() < 0.9 else [stem]:
            if 2 <= spanish_tiles(word) <= BOARD_TILES and len(words) < size:
                words.add(word)
    return sorted(words)


def typed(words: Sequence[str], alphabet: Alphabet) -> list[str]:
    """The words as players type them: lower case, and where the alphabet takes accented vowels
    (Spanish, French, Italian: not English), an accent on one vowel of one word in four."""
    rng = random.Random(TYPED_SEED)
    accents = all(alphabet.typed_char(char) is not None for char in ACCENTED.values())
    lines = []
    for word in words:
        line = word.lower()
        vowels = [i for i, char in enumerate(line) if char in ACCENTED]
        if accents and vowels and rng.random() < 0.25:
            at = rng.choice(vowels)
            line = line[:at] + ACCENTED[line[at]] + line[at + 1 :]
        lines.append(line)
    return lines


BARE_KEYS = """
import sys, time, marisa_trie
keys = open(sys.argv[1], encoding="utf-8").read().split("\\n")
started, cpu = time.perf_counter(), time.process_time()
marisa_trie.Trie(keys)
print(time.perf_counter() - started, time.process_time() - cpu)
"""


def bare_keys(keys_path: Path) -> Callable[[], Sample]:
    """``marisa_trie.Trie(keys)`` alone, the first in a fresh process, of the stored keys."""

    def run() -> Sample:
        done = subprocess.run(
            [sys.executable, "-c", BARE_KEYS, str(keys_path)], capture_output=True, text=True, check=True
        )
        wall, cpu = done.stdout.split()
        return Sample(float(wall), float(cpu))

    return run


def ratio(spent: Sequence[Sample], baseline: Sequence[Sample]) -> str:
    wall = statistics.median(walls(spent)) / statistics.median(walls(baseline))
    cpu = statistics.median(cpus(spent)) / statistics.median(cpus(baseline))
    return f"{wall:4.2f} x (CPU {cpu:4.2f} x)"


def build_and_batch(
    alphabet: Alphabet, lists: dict[str, tuple[Path, Path]], keys_path: Path, folder: Path, runs: int
) -> dict[str, Path]:
    """Build both packs and rule both typed lists; the packs, by alphabet name."""
    bin_dir = Path(sys.executable).parent
    env = {**os.environ, "KIOSK_DATA_DIR": str(folder / "quiet")}
    packs = {name: folder / f"{name}.kxpack" for name in lists}

    def build(name: str) -> Callable[[], Sample]:
        command = [str(bin_dir / "lexicon-build"), "build", "--alphabet", name, "--name", name]
        command += ["--source", str(lists[name][0]), "-o", str(packs[name]), "--force"]
        return lambda: timed(command, env=env)

    names = list(lists)
    build_s = interleaved(runs, *(build(name) for name in names), bare_keys(keys_path))
    built = dict(zip(names, build_s, strict=False))
    bare = build_s[-1]
    words = sum(1 for _ in lists[alphabet.name][1].open(encoding="utf-8"))
    print(f"build, whole process, median of {runs} (min-max), {words:,} words each:")
    for name in names:
        print(
            f"  lexicon-build build --alphabet {name:<8} {median_ms(walls(built[name]))}   "
            f"{cpu_ms(built[name])}"
        )
    print(
        f"  bare marisa_trie.Trie of the {alphabet.name} stored keys {median_ms(walls(bare))}   "
        f"{cpu_ms(bare)}"
    )
    print(
        f"  {alphabet.name} build / bare marisa        {ratio(built[alphabet.name], bare)}   (target <= 3 x)"
    )
    print(
        f"  {alphabet.name} build / English build     {ratio(built[alphabet.name], built['english'])}   "
        "(target <= 2 x)"
    )
    fresh = iter(range(1_000_000))

    def check(name: str, first: bool) -> Callable[[], Sample]:
        command = [str(bin_dir / "kiosk"), "check", "--pack", str(packs[name]), "--batch", "-"]

        def run() -> Sample:
            data = folder / (f"first-{next(fresh)}" if first else f"remembered-{name}")
            return timed(command, lists[name][1], {**os.environ, "KIOSK_DATA_DIR": str(data)})

        return run

    actions = [check(name, first) for name in names for first in (True, False)]
    batch_s = interleaved(runs, *actions)
    print(f"kiosk check --batch - over the whole list typed (lower case, accents), median of {runs}:")
    rates = {}
    for index, (name, first) in enumerate((name, first) for name in names for first in (True, False)):
        spent = batch_s[index]
        rates[name, first] = spent
        rate = words / statistics.median(walls(spent))
        when = "first use (walk)" if first else "walk remembered"
        target = "  (target >= 300,000)" if name == alphabet.name else ""
        print(
            f"  {name:<8} {when:<17} {rate:10,.0f} words/s   {median_ms(walls(spent))}   "
            f"{cpu_ms(spent)}{target}"
        )
    for first in (True, False):
        when = "first use" if first else "remembered"
        print(
            f"  {alphabet.name} / English, {when:<10} "
            f"{ratio(rates[alphabet.name, first], rates['english', first])}"
            "   (target <= 2 x)"
        )
    return packs


def heavy_words(words: Sequence[str], alphabet: Alphabet, count: int) -> list[str]:
    """Words of the most tiles (15 where there are such) holding the most CH, LL and RR."""
    listed = normalise_list(list(words), alphabet=alphabet)
    assert listed is not None, "the list holds a word the fast road does not read"
    ranked = sorted(
        zip(words, listed.words, listed.tiles, strict=True),
        key=lambda item: (-min(item[2], BOARD_TILES), -item[1].count("["), item[0]),
    )
    return [word for word, _, tiles in ranked[: count * 4] if tiles <= BOARD_TILES][: count * 4]


def tab_to_verdict(pack: Path, words: Sequence[str], alphabet: Alphabet, folder: Path) -> None:
    from PySide6.QtCore import QRect, Qt
    from PySide6.QtGui import QKeyEvent
    from PySide6.QtWidgets import QApplication

    from kiosk.core.packs.verification import PackWalker, WalkCache
    from kiosk.core.play.session import Screen
    from kiosk.core.station.config import Division, StationConfig, Verifier, load_divisions
    from kiosk.storage import open_station_storage
    from kiosk.ui.app import settle_heap
    from kiosk.ui.controller import StationController
    from kiosk.ui.window import StationWindow

    app = QApplication.instance() or QApplication([])
    data = folder / "station"
    config = StationConfig(divisions=(Division("Open", pack),), station_name="Mesa 1", language="es")
    verifier = Verifier(walker=PackWalker(cache=WalkCache(data / "verified-packs")))
    storage = open_station_storage(data)
    controller = StationController(config, load_divisions(config, verifier), lambda: storage.log)
    window = StationWindow(controller, lambda: storage, data)
    window.setGeometry(QRect(0, 0, 1920, 1080))
    window.show()
    app.processEvents()
    window.build_screens()
    controller.open_log()
    settle_heap()  # as the station does once it is started
    pool = heavy_words(words, alphabet, PLAY_WORDS)
    rng = random.Random(SEED)

    def key(code: Qt.Key, text: str) -> None:
        QApplication.sendEvent(
            window, QKeyEvent(QKeyEvent.Type.KeyPress, code, Qt.KeyboardModifier.NoModifier, text)
        )
        app.processEvents()

    timings: dict[str, list[float]] = {"ACCEPTABLE": [], "UNACCEPTABLE": []}
    cpu_times: list[float] = []  # the process's CPU time: what the Tab costs, whatever the load
    for number in range(PLAYS):
        play = typed(rng.sample(pool, PLAY_WORDS), alphabet)
        if number % 2:
            play[0] = play[0][:-1] + "x"  # a phony
        key(Qt.Key.Key_8, "8")
        for char in " ".join(play):
            key(Qt.Key.Key_Space if char == " " else Qt.Key.Key_unknown, char)
        before, cpu = time.perf_counter(), time.process_time()
        key_event = QKeyEvent(QKeyEvent.Type.KeyPress, Qt.Key.Key_Tab, Qt.KeyboardModifier.NoModifier, "\t")
        QApplication.sendEvent(window, key_event)
        window.repaint()
        elapsed = time.perf_counter() - before
        cpu_times.append(time.process_time() - cpu)
        if controller.state.screen is not Screen.VERDICT:
            raise SystemExit(
                f"play {number} ({' '.join(play)}) reached no verdict: {controller.state.screen}"
            )
        verdict = (
            "ACCEPTABLE"
            if controller.state.ruling is not None and controller.state.ruling.acceptable
            else "UNACCEPTABLE"
        )
        timings[verdict].append(elapsed)
        controller.lockout_timer.timeout.emit()
        key(Qt.Key.Key_Space, " ")
    storage.close()
    shown = " ".join(pool[:3])
    print(
        f"Tab -> verdict painted at 1920x1080, plays of {PLAY_WORDS} words of up to {BOARD_TILES} "
        f"tiles (e.g. {shown}):"
    )
    for verdict, values in [*timings.items(), ("CPU time", cpu_times)]:
        if values:
            ordered = sorted(values)
            p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
            print(
                f"  {verdict:<12} median {statistics.median(values) * 1000:5.1f} ms   "
                f"p99 {p99 * 1000:5.1f} ms   "
                f"worst {ordered[-1] * 1000:5.1f} ms   (n={len(values)}; target p99 <= 50 ms)"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--list", type=Path, help="the alphabet's own list (default: one made here)")
    parser.add_argument("--alphabet", choices=sorted(set(alphabets()) - {"english"}), default="spanish")
    parser.add_argument("--words", type=int, default=FISE_WORDS, help="words of the list made here")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--no-station", action="store_true")
    args = parser.parse_args()
    alphabet = alphabets()[args.alphabet]
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp)
        if args.list is not None:
            words = args.list.read_text(encoding="utf-8-sig").split()
            print(f"{alphabet.name} list: {args.list} ({len(words):,} words)")
        else:
            if alphabet.name != "spanish":
                sys.exit("only a Spanish list is made here: give the alphabet's own list with --list")
            words = spanish_shaped(args.words)
            with_digraphs = sum(any(d in w for d in DIGRAPHS) for w in words)
            print(
                f"spanish list: {len(words):,} Spanish-shaped words made here, "
                f"{with_digraphs / len(words):.1%} "
                f"with CH, LL or RR, {sum('Ñ' in w for w in words) / len(words):.1%} with Ñ"
            )
        english = collins_shaped(ENABLE.read_text(encoding="ascii").split(), size=len(words))
        if len(english) > len(words):  # fewer words than ENABLE has: as many of them, drawn
            english = sorted(random.Random(SEED).sample(english, len(words)))
        print(f"english list: {len(english):,} Collins-shaped words from {ENABLE.name}")
        lists = {}
        for name, listed in ((alphabet.name, words), ("english", english)):
            source, lines = folder / f"{name}.txt", folder / f"{name}-typed.txt"
            source.write_text("\n".join(listed) + "\n", encoding="utf-8")
            lines.write_text("\n".join(typed(listed, alphabets()[name])) + "\n", encoding="utf-8")
            lists[name] = (source, lines)
        stored = normalise_list(words, alphabet=alphabet)
        if stored is None:
            sys.exit("the list holds words the builder reads one at a time; give a clean list")
        keys_path = folder / "stored-keys.txt"
        keys_path.write_text("\n".join(sorted(set(stored.words))), encoding="utf-8")
        compile_bytecode()
        print(f"machine: {load_average()}")
        packs = build_and_batch(alphabet, lists, keys_path, folder, args.runs)
        if not args.no_station:
            tab_to_verdict(packs[alphabet.name], words, alphabet, folder)
    print(f"machine at the end: {load_average()}")


if __name__ == "__main__":
    main()
