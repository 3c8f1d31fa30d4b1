"""Load many pack files in one process and report each outcome as a JSON line (for the fuzz test).

Run as ``python -m tests.pack_fuzz_worker JOB.json FIRST``: JOB.json lists the cases (a path and
the base64 trusted keys to load it with); cases before index FIRST are skipped. Each outcome is
printed and flushed before the next load, so if the process dies (marisa can crash it outright on
a bad trie) the parent knows exactly which case killed it and restarts after it.
"""

from __future__ import annotations

import json
import sys
import traceback
from pathlib import Path

from kiosk.core.errors import PackError
from kiosk.core.lexicon import load_lexicon
from kiosk.core.trust import TrustedKey


def run(job_file: Path, first: int) -> None:
    cases = json.loads(job_file.read_text(encoding="utf-8"))
    for index in range(first, len(cases)):
        case = cases[index]
        keys = [TrustedKey.from_base64(f"key {n}", text) for n, text in enumerate(case["keys"])]
        outcome: dict[str, object] = {"index": index}
        try:
            lexicon = load_lexicon(Path(case["path"]), trusted_keys=keys)
            probe = ["QI", "ZA", "CAT"]
            outcome.update(outcome="accepted", words=len(lexicon.words), probe=[w in lexicon for w in probe])
        except PackError as exc:
            outcome.update(outcome="refused", error=type(exc).__name__, message=str(exc))
        except Exception as exc:  # anything that is not a clean refusal is what we are looking for
            outcome.update(outcome="unexpected", error=type(exc).__name__, message=traceback.format_exc())
        sys.stdout.write(json.dumps(outcome) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    run(Path(sys.argv[1]), int(sys.argv[2]))
