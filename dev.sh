#!/usr/bin/env bash
# The two set-up commands of README.md, for a fresh machine with nothing installed by hand:
#   ./dev.sh kiosk [ARGS...]   start the station on the embedded default pack (ARGS go to `kiosk`)
#   ./dev.sh test  [ARGS...]   ruff, mypy --strict, import contracts and the whole pytest suite
# It installs what is missing: Debian packages (Qt's X11 libraries, fonts; PostgreSQL for the
# tests) through apt-get when it is there, and the project into ./.venv.
set -euo pipefail
cd "$(dirname "$0")"

VENV=${KIOSK_VENV:-.venv}
QT_RUNTIME_PACKAGES="libegl1 libgl1 libxkbcommon0 libxkbcommon-x11-0 libfontconfig1 libdbus-1-3 \
libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 libxcb-image0 libxcb-render-util0 libxcb-randr0 \
libxcb-shape0 libxcb-xinerama0 libxcb-xkb1 fonts-dejavu-core"
TEST_PACKAGES="postgresql xvfb xauth x11-utils xdotool systemd cage xwayland xinit"

say() { printf '%s\n' "dev.sh: $*" >&2; }

apt_install() {
  command -v dpkg-query >/dev/null 2>&1 || { say "not a Debian/Ubuntu machine: make sure these are installed: $*"; return 0; }
  local missing=()
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  local sudo=()
  [ "$(id -u)" -eq 0 ] || sudo=(sudo)
  say "installing Debian packages: ${missing[*]}"
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

python_venv() {
  local stamp="$VENV/.installed"
  if [ ! -x "$VENV/bin/python" ]; then
    say "creating $VENV"
    python3 -m venv "$VENV"
  fi
  if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
    say "installing the project and its test tools into $VENV"
    "$VENV/bin/python" -m pip install -q --upgrade pip
    "$VENV/bin/python" -m pip install -q -e '.[test]'
    touch "$stamp"
  fi
}

cmd=${1:-}
shift || true
case "$cmd" in
  kiosk)
    apt_install $QT_RUNTIME_PACKAGES
    python_venv
    if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ] && [ -z "${QT_QPA_PLATFORM:-}" ]; then
      say "no screen here (neither DISPLAY nor WAYLAND_DISPLAY is set)."
      say "on a desktop, run this from a terminal inside the session; on a headless machine try:"
      say "  xvfb-run -s '-screen 0 1920x1080x24' ./dev.sh kiosk"
      say "or rule from the command line: .venv/bin/kiosk check CAT DOGS"
      exit 1
    fi
    exec "$VENV/bin/kiosk" "$@"
    ;;
  test)
    apt_install $QT_RUNTIME_PACKAGES $TEST_PACKAGES
    python_venv
    export QT_QPA_PLATFORM=offscreen
    bin="$VENV/bin"
    "$bin/ruff" check .
    "$bin/ruff" format --check .
    "$bin/mypy"
    "$bin/lint-imports"
    "$bin/pytest" "$@"
    ;;
  *)
    say "usage: ./dev.sh kiosk [ARGS...] | ./dev.sh test [PYTEST ARGS...]"
    exit 2
    ;;
esac
