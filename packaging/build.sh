#!/usr/bin/env bash
# Build the one-folder bundle: dist/challenge-kiosk/{kiosk,lexicon-build,_internal/...}
# Usage: packaging/build.sh [DIST_DIR]   (default: dist)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
dist="${1:-$root/dist}"
venv="${KIOSK_VENV:-$root/.venv}"
if [ ! -x "$venv/bin/pyinstaller" ]; then
  "$venv/bin/python" -m pip install -q -e "$root[package]"
fi
"$venv/bin/pyinstaller" --noconfirm --log-level WARN \
  --distpath "$dist" --workpath "$dist/.build" "$root/packaging/challenge-kiosk.spec"
rm -rf "$dist/.build"
echo "bundle: $dist/challenge-kiosk"
