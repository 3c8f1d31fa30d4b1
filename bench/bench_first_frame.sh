#!/usr/bin/env bash
# A newcomer's first impression: from a fresh, minimal Debian 12 to the station's first frame with
# README's `./dev.sh kiosk` (offscreen: `QT_QPA_PLATFORM=offscreen ./dev.sh kiosk station --smoke`).
# Prints each line of dev.sh with the seconds since it started, the total, and the size of ./.venv.
# Needs root and ../shared/tools/fresh-debian.sh (issue 19), which clones this checkout's HEAD
# (commit first) into a new root each run: the figures include apt's and pip's downloads, so the
# network and the machine's load move them as much as the project does. Run several times.
#
#   bench/bench_first_frame.sh [RUNS]      (FRESH_DEBIAN=PATH: the tool, if not in ../shared/tools)
set -euo pipefail
cd "$(dirname "$0")/.."
fresh=${FRESH_DEBIAN:-../shared/tools/fresh-debian.sh}
[ -x "$fresh" ] || { echo "no $fresh: this bench needs the fresh-machine tool of issue 19" >&2; exit 2; }
timed='
t0=$(date +%s%N)
since() { local d=$(( ($(date +%s%N) - t0) / 100000000 )); printf "%d.%d s" $((d / 10)) $((d % 10)); }
QT_QPA_PLATFORM=offscreen ./dev.sh kiosk station --smoke 2>&1 | while IFS= read -r line; do
  printf "%8s  %s\n" "$(since)" "$line"
done
echo "exit ${PIPESTATUS[0]}, first frame after $(since); ./.venv: $(du -sh .venv | cut -f1)"
'
for run in $(seq "${1:-1}"); do
  echo "== run $run ($(git rev-parse --short HEAD); $(uptime | sed 's/.*load/load/'))"
  "$fresh" 'bash /dev/stdin' <<<"$timed" | grep -v '^running in the fresh root'
done
