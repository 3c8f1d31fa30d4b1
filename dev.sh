#!/usr/bin/env bash
# The two set-up commands of README.md, for a fresh machine with nothing installed by hand:
#   ./dev.sh kiosk [ARGS...]   start the station on the embedded default pack (ARGS go to `kiosk`)
#   ./dev.sh test  [ARGS...]   ruff, mypy --strict, import contracts and the whole pytest suite
# and two that other scripts use:
#   ./dev.sh bundle-setup      what packaging/build.sh needs before PyInstaller runs
#   ./dev.sh packages GROUP... the Debian packages of those groups of packaging/linux/debian-packages.txt
# It installs what is missing, and only what the command needs: Debian packages through apt-get
# when it is there, all from the one list packaging/linux/debian-packages.txt (`kiosk`: the
# station's group; `test`: the station's, cage's, the director's, the build's and the tests'), and
# the project into ./.venv (`kiosk`: the station alone; `test`: with the test tools).
set -euo pipefail
cd "$(dirname "$0")"

VENV=${KIOSK_VENV:-.venv}
PACKAGE_LIST=packaging/linux/debian-packages.txt

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

# The packages of the named groups of the list, one a line, in the list's order. A name with
# {python} in it (Python's shared library) is for Debian's own python3 only: see debian_python.
list_packages() {
  awk -v groups=" $* " -v python="$(debian_python)" '
    /^\[/ { name = $0; gsub(/[][]/, "", name); wanted = index(groups, " " name " ") > 0; next }
    { sub(/#.*/, "") }
    !wanted || !NF { next }
    index($1, "{python}") { if (python == "") next; sub(/\{python\}/, python, $1) }
    { print $1 }
  ' "$PACKAGE_LIST"
}

# The version (3.11) of the Python that makes ./.venv (the venv's own once it exists), if it is
# Debian's: Debian's python3 has libpython linked in, and PyInstaller needs the shared library of
# the same version, packaged apart. Empty for any other Python (pyenv's, a CI image's): that one
# carries its own library.
debian_python() {
  local python=python3
  [ -x "$VENV/bin/python" ] && python=$VENV/bin/python
  command -v dpkg-query >/dev/null 2>&1 && command -v "$python" >/dev/null 2>&1 || return 0
  dpkg-query -S "$(readlink -f "$(command -v "$python")")" >/dev/null 2>&1 || return 0
  "$python" -c 'import sys; print("%d.%d" % sys.version_info[:2])'
}

# The packages Python needs to make ./.venv (a Debian python3 makes none without python3-venv: no
# ensurepip), installed with the command's own in one apt-get run. A machine with no python3 at
# all gets it first: the list's {python} names the version of that python3.
python_packages() {
  command -v python3 >/dev/null 2>&1 || apt_install python3
  [ -x "$VENV/bin/python" ] || python3 -c 'import ensurepip' >/dev/null 2>&1 || echo python3-venv
}

# The project into ./.venv with the extras of pyproject.toml that the command needs: `catalogues`
# (Babel, which compiles the translations below) for the station, `package` to build the bundle,
# `test` (which holds the other two) for the suite. One stamp per set: a venv made for the station
# gets the test tools the first time ./dev.sh test runs, and pyproject.toml edited since means
# installing again, as does packaging/constraints.txt (the exact version of each package) edited.
installed() {
  [ -f "$VENV/.installed-$1" ] && [ ! pyproject.toml -nt "$VENV/.installed-$1" ] &&
    [ ! packaging/constraints.txt -nt "$VENV/.installed-$1" ]
}
python_venv() {
  local extras=$1
  if [ ! -x "$VENV/bin/python" ]; then
    say "creating $VENV"
    python3 -m venv "$VENV"
  fi
  if ! installed "$extras" && ! installed test; then
    say "installing the project ($extras) into $VENV"
    "$VENV/bin/python" -m pip install -q --disable-pip-version-check \
      -c packaging/constraints.txt -e ".[$extras]"
    touch "$VENV/.installed-$extras"
  fi
  # The translation catalogues, compiled from their .po files each time (a few ms): an edited
  # translation is on screen at the next start, never an old compiled one.
  "$VENV/bin/python" packaging/catalogues.py
}

cmd=${1:-}
shift || true
case "$cmd" in
  kiosk)
    apt_install $(python_packages) $(list_packages station)
    python_venv catalogues
    # A station with no judge PIN serves nobody: this demo station gets a fresh random PIN, printed
    # here (a tournament station's PIN is set by its judge with `kiosk set-pin`), screen or none:
    # the checks advised below find it ready.
    pin_args=()
    args=("$@")
    for ((i = 0; i < ${#args[@]}; i++)); do
      case "${args[i]}" in
        --config|--data-dir) pin_args+=("${args[i]}" "${args[i + 1]:-}"); i=$((i + 1)) ;;
        --config=*|--data-dir=*) pin_args+=("${args[i]}") ;;
      esac
    done
    "$VENV/bin/kiosk" set-pin --random "${pin_args[@]}"
    if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ] && [ -z "${QT_QPA_PLATFORM:-}" ]; then
      say "no screen here (neither DISPLAY nor WAYLAND_DISPLAY is set): on a desktop, run this"
      say "from a terminal inside the session. Without a screen you can still"
      where=""
      [ ${#pin_args[@]} -eq 0 ] || where=$(printf ' %q' "${pin_args[@]}")
      say "check the configuration, its packs, the data directory and the judge PIN:"
      say "  $VENV/bin/kiosk station$where --check"
      say "start the station off screen, paint its first frame and stop:"
      say "  QT_QPA_PLATFORM=offscreen $VENV/bin/kiosk station$where --smoke"
      say "rule on a play from the command line:"
      say "  $VENV/bin/kiosk check CAT DOGS"
      exit 1
    fi
    exec "$VENV/bin/kiosk" "$@"
    ;;
  test)
    apt_install $(python_packages) $(list_packages station cage director build test)
    python_venv test
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
    apt_install $(python_packages) $(list_packages station build)
    python_venv package
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
