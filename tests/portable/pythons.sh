#!/bin/sh
# The CPython interpreters the portable target is tested on, each with its
# headers, found on this machine or installed into a cache outside the
# repository.  Prints one line "X.Y /path/to/python" per version found, in
# the order asked; a version that is neither found nor installable is named
# on standard error with the reason, and the exit status is 1.
#
# usage: pythons.sh [--no-install] X.Y...
#
# Where each version comes from, first found first:
#   1. pyenv ($(pyenv root), else $PYENV_ROOT or ~/.pyenv, on PATH or not):
#      versions/X.Y.*, the newest patch level with include/pythonX.Y/Python.h
#   2. pythonX.Y on PATH (not a pyenv shim) whose sysconfig include
#      directory holds Python.h: Debian's /usr/bin/python3.11 with
#      python3.11-dev, or any other installed Python
#   3. the cache ($CLINIC_PYTHONS, default ~/.cache/clinic-pythons): a
#      build tree made by an earlier run
#   4. installing: 3.11 is Debian bookworm's python3.11-dev (apt-get);
#      3.9 and 3.13 are built from the source packages of Debian's
#      bullseye and trixie suites (apt-get source with a private apt
#      configuration copied from the system's bookworm entry; the system's
#      sources are left alone), configured and made in $CLINIC_PYTHONS/X.Y,
#      and run from their build trees.  A source tarball Python-X.Y.*.tar.*
#      in $CLINIC_PYTHON_TARBALLS (if set) is built the same way, for any
#      version: the way to give this machine 3.10 and 3.12, which no Debian
#      suite on the mirror ships (bullseye has 3.9, bookworm 3.11, trixie
#      and later 3.13 and 3.14).
set -eu
install=1
if [ "${1:-}" = --no-install ]; then install=0; shift; fi
CACHE=${CLINIC_PYTHONS:-${HOME:-/tmp}/.cache/clinic-pythons}

say() { echo "pythons: $*" >&2; }

# has_headers PY: PY runs, is CPython, and its Python.h is installed
has_headers() {
    "$1" -c '
import os, sys, sysconfig, platform
sys.exit(platform.python_implementation() != "CPython" or
         not os.path.isfile(os.path.join(sysconfig.get_paths()["include"], "Python.h")))' \
        >/dev/null 2>&1
}

# version_of PY: "X.Y" of the interpreter
version_of() {
    "$1" -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null || true
}

from_pyenv() {   # X.Y: the newest patch level pyenv has
    # pyenv's own answer, else its default root: a non-interactive shell
    # (CI's, make's) often has pyenv installed but not on PATH
    root=$(pyenv root 2>/dev/null) || root=${PYENV_ROOT:-${HOME:-/root}/.pyenv}
    [ -d "$root/versions" ] || return 1
    found= foundkey=0
    for d in "$root"/versions/"$1".*; do
        case ${d##*/} in "$1".*[!0-9.]*) continue ;; esac   # 3.13.0t, 3.12-dev
        py=$d/bin/python$1
        [ -x "$py" ] && [ -f "$d/include/python$1/Python.h" ] || continue
        key=$(echo "${d##*/}" | awk -F. '{printf "%d%03d%03d", $1, $2, $3}')
        if [ "$key" -gt "$foundkey" ]; then found=$py foundkey=$key; fi
    done
    [ -n "$found" ] && echo "$found"
}

from_path() {   # X.Y
    py=$(command -v "python$1" 2>/dev/null) || return 1
    case $py in */shims/*) return 1 ;; esac
    [ "$(version_of "$py")" = "$1" ] && has_headers "$py" && echo "$py"
}

from_cache() {   # X.Y
    py=$CACHE/$1/python
    [ -f "$CACHE/$1/.built" ] && [ -x "$py" ] && [ "$(version_of "$py")" = "$1" ] &&
        echo "$py"
}

SUDO=
if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi

apt_install() {   # PACKAGE...: those not installed yet
    missing=
    for p in "$@"; do
        case $(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true) in
            *"ok installed") ;;
            *) missing="$missing $p" ;;
        esac
    done
    [ -z "$missing" ] && return 0
    export DEBIAN_FRONTEND=noninteractive
    # shellcheck disable=SC2086
    $SUDO apt-get install -y -q --no-install-recommends $missing >&2 ||
        { $SUDO apt-get update -q >&2 &&
          $SUDO apt-get install -y -q --no-install-recommends $missing >&2; }
}

# The Debian suite whose source package has CPython X.Y, and its name.
suite_of() {
    case $1 in
        3.9) echo bullseye python3.9 ;;
        3.13) echo trixie python3.13 ;;
        *) return 1 ;;
    esac
}

# fetch_source X.Y DIR: the upstream tarball of X.Y into DIR; prints its path
fetch_source() {
    v=$1 dir=$2
    if [ -n "${CLINIC_PYTHON_TARBALLS:-}" ]; then
        for t in "$CLINIC_PYTHON_TARBALLS"/Python-"$v".*.tar.*; do
            [ -f "$t" ] && { echo "$t"; return 0; }
        done
    fi
    where=$(suite_of "$v") || {
        say "$v: no Debian suite on the mirror ships CPython $v (bullseye has 3.9," \
            "bookworm 3.11, trixie 3.13); put a Python-$v.*.tar.* source tarball in" \
            "\$CLINIC_PYTHON_TARBALLS to build it"
        return 1; }
    suite=${where% *} pkg=${where#* }
    apt=$dir/apt-$suite
    mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial"
    src=/etc/apt/sources.list.d/debian.sources
    if [ -f "$src" ]; then
        awk -v RS= 'NR==1' "$src" |
            sed -e 's/^Types: .*/Types: deb-src/' -e "s/^Suites: .*/Suites: $suite/" \
            > "$apt/deb-src.sources"
    else
        uri=$(sed -n 's/^deb \(\[[^]]*\] \)\{0,1\}\([^ ]*\) bookworm .*/\2/p' /etc/apt/sources.list | head -n 1)
        [ -n "$uri" ] || { say "$v: no bookworm entry in the apt sources to copy"; return 1; }
        echo "deb-src $uri $suite main" > "$apt/sources.list"
    fi
    if [ -f "$apt/deb-src.sources" ]; then O="-o Dir::Etc::sourcelist=$apt/deb-src.sources"
    else O="-o Dir::Etc::sourcelist=$apt/sources.list"; fi
    O="$O -o Dir::Etc::sourceparts=- -o Dir::State::Lists=$apt/lists -o Dir::Cache=$apt/cache -o APT::Sandbox::User=root"
    # shellcheck disable=SC2086
    apt-get $O update -q >&2 || { say "$v: apt-get update of $suite failed"; return 1; }
    mkdir -p "$dir/debsrc"
    # shellcheck disable=SC2086
    (cd "$dir/debsrc" && apt-get $O source -q --download-only "$pkg" >&2) ||
        { say "$v: apt-get source $pkg ($suite) failed"; return 1; }
    for t in "$dir"/debsrc/"$pkg"_*.orig.tar.*; do
        [ -f "$t" ] && { echo "$t"; return 0; }
    done
    say "$v: $pkg's source package has no orig tarball"; return 1
}

build() {   # X.Y: configure and make in $CACHE/X.Y; prints the interpreter
    v=$1 dir=$CACHE/$1
    tarball=$(fetch_source "$v" "$CACHE/src") || return 1
    rm -rf "$dir"
    mkdir -p "$dir"
    say "$v: building CPython from $(basename "$tarball") in $dir (a few minutes, once)"
    # what CPython's build needs beyond the compiler; zlib and libffi for
    # the modules the test suite imports
    apt_install gcc make pkg-config zlib1g-dev libffi-dev xz-utils ||
        { say "$v: cannot install the build dependencies"; return 1; }
    tar -xf "$tarball" -C "$dir" --strip-components=1 ||
        { say "$v: cannot unpack $tarball"; return 1; }
    log=$dir/build.log
    ( cd "$dir" && ./configure -q --without-ensurepip >"$log" 2>&1 &&
      make -j"${JOBS:-2}" >>"$log" 2>&1 ) ||
        { say "$v: the build failed; the end of $log:"; tail -n 20 "$log" >&2; return 1; }
    [ "$(version_of "$dir/python")" = "$v" ] && has_headers "$dir/python" ||
        { say "$v: the build made no working python with headers"; return 1; }
    touch "$dir/.built"
    echo "$dir/python"
}

install_one() {   # X.Y
    if [ "$1" = 3.11 ] && [ -f /etc/debian_version ]; then
        apt_install python3.11-dev && from_path 3.11 && return 0
    fi
    build "$1"
}

status=0
for v in "$@"; do
    py=$(from_pyenv "$v" || from_path "$v" || from_cache "$v") || py=
    if [ -z "$py" ] && [ $install = 1 ]; then
        py=$(install_one "$v") || py=
    fi
    if [ -n "$py" ]; then
        echo "$v $py"
    else
        say "$v: MISSING: no CPython $v with headers here"
        status=1
    fi
done
exit $status
