#!/bin/sh
# The CPython interpreters the portable target is tested on, each with its
# headers, found on this machine or installed into a cache outside the
# repository.  Prints one line per version asked, in that order:
#
#   X.Y PYTHON [RUNNER...]   found: run PYTHON, and the compiler that builds
#                            against it, as RUNNER... PYTHON ... (no RUNNER:
#                            on this machine; else tests/portable/chroot.sh
#                            ROOT, to which the caller adds --bind DIR for
#                            each directory the command reads or writes)
#   X.Y none REASON          this machine cannot have it, and why (3.10 and
#                            3.12 without pyenv or $CLINIC_PYTHON_TARBALLS)
#
# A version missing for any other reason (a failed download or build, a
# pyenv without it) is named on standard error with the reason, and the
# exit status is 1.  X.Y is 3.9 ... 3.15, or 3.13t: CPython 3.13 built
# free-threaded (--disable-gil).
#
# usage: pythons.sh [--no-install] X.Y...
#
# Where each version comes from, first found first:
#   1. pyenv ($(pyenv root), else $PYENV_ROOT or ~/.pyenv, on PATH or not):
#      versions/X.Y.* (3.13t: versions/3.13.*t), the newest patch level
#      with its headers
#   2. pythonX.Y (python3.13t) on PATH (not a pyenv shim) whose sysconfig
#      include directory holds Python.h: Debian's /usr/bin/python3.11 with
#      python3.11-dev, or any other installed Python
#   3. the cache ($CLINIC_PYTHONS, default ~/.cache/clinic-pythons): a
#      build tree or root made by an earlier run
#   4. installing: 3.11 is Debian bookworm's python3.11-dev (apt-get);
#      3.9 and 3.13 are built from the source packages of Debian's
#      bullseye and trixie suites (apt-get source with a private apt
#      configuration copied from the system's first entry; the system's
#      sources are left alone), configured and made in $CLINIC_PYTHONS/X.Y,
#      and run from their build trees; 3.13t is trixie's 3.13 built the
#      same way with --disable-gil, in $CLINIC_PYTHONS/3.13t.  3.14 and
#      3.15 are Debian sid's python3.14-dev and python3.15-dev in a root
#      made once by debootstrap --variant=minbase sid (with gcc and clang,
#      the compilers the tier builds with), $CLINIC_PYTHONS/sid, used
#      through chroot.sh; it needs root (or sudo) and debootstrap (make
#      deps).  A source tarball Python-X.Y.*.tar.* in
#      $CLINIC_PYTHON_TARBALLS (if set) is built the same way, for any
#      version: the way to give this machine 3.10 and 3.12, which no
#      Debian suite on the mirror ships (bullseye has 3.9, bookworm 3.11,
#      trixie 3.13, sid 3.14 and 3.15).
#
# Each version is installed under a lock ($CLINIC_PYTHONS/X.Y.lock, the
# root under sid.lock), so concurrent runs build it once; the sid root is
# made in the background, beside the builds.
set -eu
install=1
if [ "${1:-}" = --no-install ]; then install=0; shift; fi
CACHE=${CLINIC_PYTHONS:-${HOME:-/tmp}/.cache/clinic-pythons}
here=$(cd "$(dirname "$0")" && pwd)
SID_ROOT=$CACHE/sid
SID_VERSIONS="3.14 3.15"
# what the root holds: the CPythons' headers and the tier's two compilers
SID_PACKAGES="python3.14-dev python3.15-dev gcc clang"

say() { echo "pythons: $*" >&2; }

# has_headers PY [RUNNER...]: PY runs, is CPython, and its Python.h is installed
has_headers() {
    py=$1; shift
    "$@" "$py" -c '
import os, sys, sysconfig, platform
sys.exit(platform.python_implementation() != "CPython" or
         not os.path.isfile(os.path.join(sysconfig.get_paths()["include"], "Python.h")))' \
        >/dev/null 2>&1
}

# version_of PY [RUNNER...]: "X.Y" of the interpreter, "X.Yt" when it is
# free-threaded
version_of() {
    py=$1; shift
    "$@" "$py" -c '
import sys, sysconfig
print("%d.%d%s" % (sys.version_info[:2] +
                   ("t" if sysconfig.get_config_var("Py_GIL_DISABLED") else "",)))' \
        2>/dev/null || true
}

pyenv_root() {
    # pyenv's own answer, else its default root: a non-interactive shell
    # (CI's, make's) often has pyenv installed but not on PATH
    root=$(pyenv root 2>/dev/null) || root=${PYENV_ROOT:-${HOME:-/root}/.pyenv}
    [ -d "$root/versions" ] && echo "$root"
}

from_pyenv() {   # X.Y or X.Yt: the newest patch level pyenv has
    root=$(pyenv_root) || return 1
    xy=${1%t} t=
    [ "$xy" = "$1" ] || t=t
    found= foundkey=0
    for d in "$root"/versions/"$xy".*; do
        n=${d##*/}
        case $t in
            t) case $n in "$xy".*t) n=${n%t} ;; *) continue ;; esac ;;
        esac
        case $n in "$xy".*[!0-9.]*) continue ;; esac   # 3.13.0t, 3.12-dev
        py=$d/bin/python$1
        [ -x "$py" ] && [ -f "$d/include/python$1/Python.h" ] || continue
        key=$(echo "$n" | awk -F. '{printf "%d%03d%03d", $1, $2, $3}')
        if [ "$key" -gt "$foundkey" ]; then found=$py foundkey=$key; fi
    done
    [ -n "$found" ] && echo "$found"
}

from_path() {   # X.Y
    py=$(command -v "python$1" 2>/dev/null) || return 1
    case $py in */shims/*) return 1 ;; esac
    [ "$(version_of "$py")" = "$1" ] && has_headers "$py" && echo "$py"
}

sid_runner() { echo "$here/chroot.sh $SID_ROOT"; }

from_cache() {   # X.Y
    case " $SID_VERSIONS " in
        *" $1 "*)
            [ -f "$SID_ROOT.ready" ] && [ "$(cat "$SID_ROOT.ready")" = "$SID_PACKAGES" ] || return 1
            # shellcheck disable=SC2046
            [ "$(version_of /usr/bin/python"$1" $(sid_runner))" = "$1" ] || return 1
            echo "/usr/bin/python$1 $(sid_runner)"
            return 0 ;;
    esac
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
        3.13|3.13t) echo trixie python3.13 ;;
        *) return 1 ;;
    esac
}

# The machine's Debian mirror: the first URI of its apt sources
mirror() {
    src=/etc/apt/sources.list.d/debian.sources
    if [ -f "$src" ]; then
        awk -v RS= 'NR==1' "$src" | sed -n 's/^URIs: *\([^ ]*\).*/\1/p' | head -n 1
    else
        sed -n 's/^deb \(\[[^]]*\] \)\{0,1\}\([^ ]*\) .*/\2/p' /etc/apt/sources.list | head -n 1
    fi
}

# Why this machine cannot have X.Y, when it cannot: no Debian suite ships
# it, no pyenv, no tarballs given.  Prints the reason, else fails.
unobtainable() {
    [ "$1" = 3.10 ] || [ "$1" = 3.12 ] || return 1
    [ -z "${CLINIC_PYTHON_TARBALLS:-}" ] && ! pyenv_root >/dev/null || return 1
    echo 'not in any Debian suite here; give pyenv or $CLINIC_PYTHON_TARBALLS'
}

# fetch_source X.Y DIR: the upstream tarball of X.Y into DIR; prints its path
fetch_source() {
    v=$1 dir=$2
    if [ -n "${CLINIC_PYTHON_TARBALLS:-}" ]; then
        for t in "$CLINIC_PYTHON_TARBALLS"/Python-"${v%t}".*.tar.*; do
            [ -f "$t" ] && { echo "$t"; return 0; }
        done
    fi
    where=$(suite_of "$v") || {
        if root=$(pyenv_root); then
            say "$v: pyenv ($root) has no CPython $v with headers (pyenv install $v)," \
                "and no Debian suite on the mirror ships it"
        else
            say "$v: no Debian suite on the mirror ships CPython $v (bullseye has 3.9," \
                "bookworm 3.11, trixie 3.13, sid 3.14 and 3.15); put a Python-$v.*.tar.*" \
                "source tarball in \$CLINIC_PYTHON_TARBALLS to build it"
        fi
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
        uri=$(mirror)
        [ -n "$uri" ] || { say "$v: no entry in the apt sources to copy"; return 1; }
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

build() {   # X.Y or X.Yt: configure and make in $CACHE/X.Y; prints the interpreter
    v=$1 dir=$CACHE/$1
    flags=--without-ensurepip
    case $v in *t) flags="$flags --disable-gil" ;; esac
    # one fetch at a time: the source packages share $CACHE/src
    exec 6>"$CACHE/src.lock"
    flock 6
    tarball=$(fetch_source "$v" "$CACHE/src") || { exec 6>&-; return 1; }
    exec 6>&-
    rm -rf "$dir"
    mkdir -p "$dir"
    say "$v: building CPython from $(basename "$tarball") ($flags) in $dir (a few minutes, once)"
    # what CPython's build needs beyond the compiler; zlib and libffi for
    # the modules the test suite imports
    apt_install gcc make pkg-config zlib1g-dev libffi-dev xz-utils ||
        { say "$v: cannot install the build dependencies"; return 1; }
    tar -xf "$tarball" -C "$dir" --strip-components=1 ||
        { say "$v: cannot unpack $tarball"; return 1; }
    log=$dir/build.log
    # shellcheck disable=SC2086
    ( cd "$dir" && ./configure -q $flags >"$log" 2>&1 &&
      make -j"${JOBS:-2}" >>"$log" 2>&1 ) ||
        { say "$v: the build failed; the end of $log:"; tail -n 20 "$log" >&2; return 1; }
    [ "$(version_of "$dir/python")" = "$v" ] && has_headers "$dir/python" ||
        { say "$v: the build made no working python with headers"; return 1; }
    touch "$dir/.built"
    echo "$dir/python"
}

# The sid root: debootstrap'd once with $SID_PACKAGES; a root made with
# fewer packages gets the missing ones.  Holds sid.lock exclusive.
make_sid_root() {
    command -v debootstrap >/dev/null 2>&1 || [ -x /usr/sbin/debootstrap ] || {
        say "3.14, 3.15: debootstrap is not installed (make deps installs it)"; return 1; }
    [ "$(id -u)" = 0 ] || sudo -n true 2>/dev/null || {
        say "3.14, 3.15: making and entering the sid root needs root or sudo"; return 1; }
    exec 8>"$SID_ROOT.lock"
    flock 8
    if [ -f "$SID_ROOT.ready" ] && [ "$(cat "$SID_ROOT.ready")" = "$SID_PACKAGES" ]; then
        exec 8>&-; return 0
    fi
    log=$CACHE/sid.log
    if [ ! -f "$SID_ROOT.ready" ]; then
        uri=$(mirror)
        [ -n "$uri" ] || { say "3.14, 3.15: no mirror in the apt sources"; exec 8>&-; return 1; }
        say "3.14, 3.15: making a Debian sid root in $SID_ROOT with debootstrap (about 2 minutes and 1 GB, once; log: $log)"
        $SUDO rm -rf "$SID_ROOT"
        PATH=$PATH:/usr/sbin:/sbin $SUDO debootstrap --variant=minbase \
            --include="$(echo "$SID_PACKAGES" | tr ' ' ,)" sid "$SID_ROOT" "$uri" > "$log" 2>&1 || {
            say "3.14, 3.15: debootstrap sid failed; the end of $log:"; tail -n 20 "$log" >&2
            exec 8>&-; return 1; }
    else
        # sid's Release file says how long it is valid; a mirror that is a
        # snapshot outlives that, and its packages are still what we want
        say "3.14, 3.15: installing $SID_PACKAGES in $SID_ROOT (log: $log)"
        # shellcheck disable=SC2086
        CLINIC_ROOT_LOCKED=1 "$here/chroot.sh" "$SID_ROOT" env DEBIAN_FRONTEND=noninteractive \
            sh -c 'apt-get -o Acquire::Check-Valid-Until=false update -q &&
                   apt-get install -y -q --no-install-recommends "$@"' \
            sh $SID_PACKAGES > "$log" 2>&1 || {
            say "3.14, 3.15: apt-get install in the sid root failed; the end of $log:"
            tail -n 20 "$log" >&2; exec 8>&-; return 1; }
    fi
    echo "$SID_PACKAGES" > "$SID_ROOT.ready"
    exec 8>&-
}

install_one() {   # X.Y
    case " $SID_VERSIONS " in
        *" $1 "*)
            make_sid_root || return 1
            from_cache "$1" && return 0
            say "$1: no python$1 runs in the sid root $SID_ROOT:" \
                "$("$here/chroot.sh" "$SID_ROOT" python"$1" -c pass 2>&1 | tail -n 1)"
            return 1 ;;
    esac
    if [ "$1" = 3.11 ] && [ -f /etc/debian_version ]; then
        apt_install python3.11-dev && from_path 3.11 && return 0
    fi
    # one build of a version at a time; a concurrent run's build is used
    exec 7>"$CACHE/$1.lock"
    flock 7
    from_cache "$1" || build "$1"
    rc=$?
    exec 7>&-
    return $rc
}

mkdir -p "$CACHE"
# The sid root is made mostly by downloading and unpacking: begun at
# once, beside the builds of the other versions, when one of its
# versions is asked for and it is not there (sid.lock makes the two
# calls one)
sid_maker=
if [ $install = 1 ] && [ ! -f "$SID_ROOT.ready" ]; then
    for v in "$@"; do
        case " $SID_VERSIONS " in
            *" $v "*) if ! from_pyenv "$v" >/dev/null && ! from_path "$v" >/dev/null; then
                          make_sid_root &
                          sid_maker=$!
                          break
                      fi ;;
        esac
    done
fi
status=0
for v in "$@"; do
    case $v in
        3.[0-9]|3.[0-9][0-9]|3.13t) ;;
        *) say "$v: not a version this script knows (X.Y, or 3.13t)"; status=1; continue ;;
    esac
    py=$(from_pyenv "$v" || from_path "$v" || from_cache "$v") || py=
    if [ -z "$py" ] && why=$(unobtainable "$v"); then
        echo "$v none $why"
        continue
    fi
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
[ -z "$sid_maker" ] || wait "$sid_maker" || true
exit $status
