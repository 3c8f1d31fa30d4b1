#!/usr/bin/env bash
# The two set-up commands of README.md, for a fresh machine with nothing installed by hand:
#   ./dev.sh kiosk [ARGS...]   start the station on the embedded default pack (ARGS go to `kiosk`)
#   ./dev.sh test  [ARGS...]   ruff, mypy --strict, import contracts and the whole pytest suite
# and two that other scripts use:
#   ./dev.sh bundle-setup      what packaging/build.sh needs before PyInstaller runs
#   ./dev.sh packages GROUP... the Debian packages of those groups of packaging/linux/debian-packages.txt
# It installs what is missing: Debian packages (the station's, from the one list that
# docs/install.md quotes; PostgreSQL, Xvfb, cage and chromium for the tests) through apt-get when it is
# there, and the project into ./.venv.
set -euo pipefail
cd "$(dirname "$0")"

VENV=${KIOSK_VENV:-.venv}
PACKAGE_LIST=packaging/linux/debian-packages.txt
BUILD_PACKAGES="binutils"  # PyInstaller reads the libraries it bundles with objdump
# chromium-driver: the tests drive the director's page in the [director] group's chromium; sox
# measures the station's speech rendered to a file; at-spi2-core and python3-pyatspi: the tests
# read what the station tells a screen reader over the accessibility bus, as Orca would
TEST_PACKAGES="postgresql xvfb xauth x11-utils xdotool systemd xwayland xinit chromium-driver sox at-spi2-core python3-pyatspi"

say() { printf '%s\n' "dev.sh: $*" >&2; }

apt_install() {
  command -v dpkg-query >/dev/null 2>&1 || { say "not a Debian/Ubuntu machine: make sure these are installed: $*"; return 0; }
  local missing=()
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  local sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || {
      say "these Debian packages are missing: ${missing[*]}"
      say "install them as root (apt-get install --no-install-recommends ${missing[*]}), or install sudo, then run this again"
      exit 1
    }
    sudo=(sudo)
  fi
  say "installing Debian packages: ${missing[*]}"
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# The packages of the named groups of the list, one a line, in the list's order.
list_packages() {
  awk -v groups=" $* " '
    /^\[/ { name = $0; gsub(/[][]/, "", name); wanted = index(groups, " " name " ") > 0; next }
    { sub(/#.*/, "") }
    wanted && NF { print $1 }
  ' "$PACKAGE_LIST"
}

# A Debian python3 creates no venv without python3-venv (no ensurepip).
python_present() {
  if ! command -v python3 >/dev/null 2>&1; then
    apt_install python3 python3-venv
  elif ! python3 -c 'import ensurepip' >/dev/null 2>&1; then
    apt_install python3-venv
  fi
}

python_venv() {
  python_present
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
  # The translation catalogues, compiled from their .po files each time (a few ms): an edited
  # translation is on screen at the next start, never an old compiled one.
  "$VENV/bin/python" packaging/catalogues.py
}

cmd=${1:-}
shift || true
case "$cmd" in
  kiosk)
    apt_install $(list_packages station)
    python_venv
    if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ] && [ -z "${QT_QPA_PLATFORM:-}" ]; then
      say "no screen here (neither DISPLAY nor WAYLAND_DISPLAY is set): on a desktop, run this"
      say "from a terminal inside the session. Without a screen you can still"
      say "check the configuration, its packs and the data directory:"
      say "  $VENV/bin/kiosk station --check"
      say "start the station off screen, paint its first frame and stop:"
      say "  QT_QPA_PLATFORM=offscreen $VENV/bin/kiosk station --smoke"
      say "rule on a play from the command line:"
      say "  $VENV/bin/kiosk check CAT DOGS"
      exit 1
    fi
    # A station with no judge PIN serves nobody: this demo station gets a fresh random PIN, printed
    # here (a tournament station's PIN is set by its judge with `kiosk set-pin`).
    pin_args=()
    args=("$@")
    for ((i = 0; i < ${#args[@]}; i++)); do
      case "${args[i]}" in
        --config|--data-dir) pin_args+=("${args[i]}" "${args[i + 1]:-}"); i=$((i + 1)) ;;
        --config=*|--data-dir=*) pin_args+=("${args[i]}") ;;
      esac
    done
    "$VENV/bin/kiosk" set-pin --random "${pin_args[@]}"
    exec "$VENV/bin/kiosk" "$@"
    ;;
  test)
    apt_install $(list_packages station cage director) $BUILD_PACKAGES $TEST_PACKAGES
    python_venv
    export QT_QPA_PLATFORM=offscreen
    bin="$VENV/bin"
    "$bin/ruff" check .
    "$bin/ruff" format --check .
    "$bin/mypy"
    "$bin/lint-imports"
    "$bin/pytest" "$@"
    ;;
  bundle-setup)
    # PyInstaller copies the libraries the station's Qt finds on this machine into the bundle:
    # install the station's packages here too, so that the bundle carries what it can.
    apt_install $(list_packages station) $BUILD_PACKAGES
    python_venv
    ;;
  packages)
    [ $# -gt 0 ] || { say "usage: ./dev.sh packages GROUP... (groups: $(grep -o '^\[[a-z0-9-]*\]' "$PACKAGE_LIST" | tr -d '[]' | xargs))"; exit 2; }
    list_packages "$@"
    ;;
  *)
    say "usage: ./dev.sh kiosk [ARGS...] | ./dev.sh test [PYTEST ARGS...] | ./dev.sh bundle-setup | ./dev.sh packages GROUP..."
    exit 2
    ;;
esac
