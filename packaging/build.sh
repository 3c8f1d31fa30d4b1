#!/usr/bin/env bash
# Build the one-folder bundle: dist/challenge-kiosk/{kiosk,lexicon-build,docs/,packaging/linux/,_internal/...}
# Usage: packaging/build.sh [DIST_DIR]   (default: dist)
# On a fresh clone it first installs what the build needs (./dev.sh bundle-setup): the station's
# Debian packages, whose libraries PyInstaller copies into the bundle, binutils, and ./.venv.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
dist="${1:-$root/dist}"
export KIOSK_VENV="${KIOSK_VENV:-$root/.venv}"
"$root/dev.sh" bundle-setup
"$KIOSK_VENV/bin/pyinstaller" --noconfirm --log-level WARN \
  --distpath "$dist" --workpath "$dist/.build" "$root/packaging/challenge-kiosk.spec"
rm -rf "$dist/.build"
echo "bundle: $dist/challenge-kiosk (guides: $dist/challenge-kiosk/docs/install.md)"
