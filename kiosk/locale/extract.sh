#!/usr/bin/env bash
# Refresh kiosk.pot from the code, then merge it into every language's kiosk.po (see README.md).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bin="${KIOSK_VENV:-$here/../../.venv}/bin"
"$bin/pybabel" extract -F "$here/babel.cfg" --no-default-keywords --project=challenge-kiosk \
  --add-comments=TRANSLATORS: -k text -k plural:1,2 -k counted:2,3 -k one_or_many:2,3 -k counting:1,2 -k marked \
  --sort-by-file --no-location -o "$here/kiosk.pot" "$here/.."
"$bin/pybabel" update -i "$here/kiosk.pot" -d "$here" -D kiosk --no-fuzzy-matching --ignore-obsolete
