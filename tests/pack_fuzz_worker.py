"""Load many pack files in one process and report each outcome as a JSON line (for the fuzz test).

Run as ``python -m tests.pack_fuzz_worker JOB.json FIRST``: JOB.json lists the cases (a path, the
base64 trusted keys to load it with, and whether to load it as a station does); cases before
index FIRST are skipped. Each outcome is printed and flushed before the next load, so if the
process dies (marisa can crash it outright on a bad trie) the parent knows exactly which case
killed it and restarts after it.

A case with ``station`` goes the station's own way: a configuration with one division on the
pack, ``load_divisions`` (the walk in a child process included), then a ruling on every
two-letter play and a few longer ones -- the lookups a forged trie crashed the station on.
"""

from __future__ import annotations

import itertools
import json
import string
import sys
import traceback
from pathlib import Path

from kiosk.core.errors import PackError
from kiosk.core.packs.lexicon import MarisaLexicon, load_lexicon
from kiosk.core.packs.trust import TrustedKey
from kiosk.core.play.adjudication import adjudicate
from kiosk.core.station.config import Division, StationConfig, Verifier, load_divisions

PROBE = ["QI", "ZA", "CAT"]
PLAYS = ["".join(pair) for pair in itertools.product(string.ascii_uppercase, repeat=2)] + [
    "MAMA",
    "MAXIMA",
    "MANATEE",
    "CAT DOGS",
    "ZYMURGY",
]


def _station_lexicon(path: Path, keys: list[TrustedKey]) -> MarisaLexicon:
    config = StationConfig(divisions=(Division("Open", path),), trusted_keys=tuple(keys))
    [division] = load_divisions(config, Verifier())
    for play in PLAYS:
        adjudicate(play, division.lexicon)
    return division.lexicon


def run(job_file: Path, first: int) -> None:
    cases = json.loads(job_file.read_text(encoding="utf-8"))
    for index in range(first, len(cases)):
        case = cases[index]
        keys = [TrustedKey.from_base64(f"key {n}", text) for n, text in enumerate(case["keys"])]
        outcome: dict[str, object] = {"index": index}
        try:
            path = Path(case["path"])
            lexicon = (
                _station_lexicon(path, keys) if case.get("station") else load_lexicon(path, trusted_keys=keys)
            )
            outcome.update(outcome="accepted", words=len(lexicon.words), probe=[w in lexicon for w in PROBE])
        except PackError as exc:
            outcome.update(outcome="refused", error=type(exc).__name__, message=str(exc))
        except Exception as exc:  # anything that is not a clean refusal is what we are looking for
            outcome.update(outcome="unexpected", error=type(exc).__name__, message=traceback.format_exc())
        sys.stdout.write(json.dumps(outcome) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    run(Path(sys.argv[1]), int(sys.argv[2]))
