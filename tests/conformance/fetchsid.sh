#!/bin/sh
# Fetch the reference of a dialect newer than any Debian source package
# this mirror serves (3.14, 3.15) into the conformance cache (outside the
# repository): Debian sid's binary packages pythonV-examples (Tools/clinic:
# clinic.py and libclinic/) and libpythonV-testsuite (Lib/test:
# clinic.test.c and test_clinic.py).  There is no V tree: the harness runs
# the 3.11 and 3.13 trees through this reference with -f instead.
#
#   $CACHE/apt-sid/     a private apt configuration: sid's binary index
#                       only, never the system's sources
#   $CACHE/refV/        the two packages, unpacked (dpkg -x)
#
# sid's Release file is valid for about a week; a mirror that is a
# snapshot (as this machine's is) outlives that, so apt-get does not check
# Valid-Until here: the packages are still the ones wanted.
# The machine's own apt sources are never changed: the first stanza of
# /etc/apt/sources.list.d/debian.sources (or the first "deb" line of
# /etc/apt/sources.list) is copied with its suite set to sid and its type
# to deb, and apt-get runs with -o options that point at it.
# Prints the paths the harness needs, as shell assignments: REFDIR,
# CLINIC_TEST, TEST_CLINIC.
# Usage: fetchsid.sh CACHE VERSION      (fetch314.sh and fetch315.sh)
set -eu
CACHE=$1 V=$2
mkdir -p "$CACHE"
CACHE=$(cd "$CACHE" && pwd)
ref=$CACHE/ref$(echo "$V" | tr -d .)
refdir=$ref/usr/share/doc/python$V/examples/clinic
testdir=$ref/usr/lib/python$V/test

if [ ! -f "$refdir/libclinic/clanguage.py" ] || [ ! -f "$testdir/clinic.test.c" ] ||
   [ ! -f "$testdir/test_clinic.py" ]; then
    echo "conformance: fetching python$V-examples and libpython$V-testsuite (Debian sid) into $ref" >&2
    apt=$CACHE/apt-sid
    lock=$CACHE/apt-sid.lock
    mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial"
    if [ -f /etc/apt/sources.list.d/debian.sources ]; then
        awk -v RS= 'NR==1' /etc/apt/sources.list.d/debian.sources |
            sed -e 's/^Types: .*/Types: deb/' -e 's/^Suites: .*/Suites: sid/' \
            > "$apt/sid.sources"
        set -- -o "Dir::Etc::sourcelist=$apt/sid.sources"
    else
        grep -m 1 '^deb ' /etc/apt/sources.list |
            sed -e 's/ [a-z-]*bookworm[a-z-]* / sid /' > "$apt/sid.list"
        set -- -o "Dir::Etc::sourcelist=$apt/sid.list"
    fi
    set -- "$@" -o "Dir::Etc::sourceparts=-" \
        -o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt/cache" \
        -o APT::Sandbox::User=root -o Acquire::Check-Valid-Until=false -q
    # one apt run at a time on the private lists (both dialects share them)
    exec 9>"$lock"
    flock 9 2>/dev/null || true
    if [ ! -f "$apt/updated" ] ||
       [ -n "$(find "$apt/updated" -mmin +1440 2>/dev/null)" ]; then
        apt-get "$@" update >&2 || {
            echo "conformance: apt-get update (sid sources) failed" >&2; exit 1; }
        touch "$apt/updated"
    fi
    debs=$CACHE/debs-sid
    mkdir -p "$debs"
    (cd "$debs" && rm -f "python${V}-examples_"*.deb "libpython${V}-testsuite_"*.deb &&
     apt-get "$@" download "python$V-examples" "libpython$V-testsuite" >&2) || {
        echo "conformance: apt-get download python$V-examples libpython$V-testsuite failed" >&2
        exit 1; }
    rm -rf "$ref.tmp"
    mkdir -p "$ref.tmp"
    for deb in "$debs/python${V}-examples_"*.deb "$debs/libpython${V}-testsuite_"*.deb; do
        dpkg -x "$deb" "$ref.tmp"
    done
    rm -rf "$ref"
    mv "$ref.tmp" "$ref"
    exec 9>&-
fi

echo "REFDIR='$refdir'"
echo "CLINIC_TEST='$testdir/clinic.test.c'"
echo "TEST_CLINIC='$testdir/test_clinic.py'"
