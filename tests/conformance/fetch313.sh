#!/bin/sh
# Fetch the 3.13 dialect's reference into the conformance cache (outside
# the repository): the CPython 3.13.5 tree, from Debian trixie's python3.13
# source package.  The tree holds the reference itself (Tools/clinic:
# clinic.py and libclinic/) and its test file (Lib/test/clinic.test.c).
#
#   $CACHE/apt-trixie/   a private apt configuration: trixie's source
#                        index only, never the system's sources
#   $CACHE/src313/       the source package; Python-3.13.5/ the tree
#
# The machine's own apt sources are never changed: the first stanza of
# /etc/apt/sources.list.d/debian.sources (or the first "deb" line of
# /etc/apt/sources.list) is copied with its suite set to trixie and its
# type to deb-src, and apt-get runs with -o options that point at it.
# Prints the three paths the harness needs, as shell assignments.
# Usage: fetch313.sh CACHE
set -eu
CACHE=$1
mkdir -p "$CACHE"
CACHE=$(cd "$CACHE" && pwd)

tree=$(ls -d "$CACHE"/src313/Python-3.13.*/ 2>/dev/null | head -n 1 || true)
if [ -z "$tree" ] || [ ! -f "$tree/Tools/clinic/libclinic/clanguage.py" ]; then
    echo "conformance: fetching the CPython 3.13 source package (Debian trixie) into $CACHE/src313" >&2
    apt=$CACHE/apt-trixie
    rm -rf "$apt"
    mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial"
    if [ -f /etc/apt/sources.list.d/debian.sources ]; then
        awk -v RS= 'NR==1' /etc/apt/sources.list.d/debian.sources |
            sed -e 's/^Types: .*/Types: deb-src/' -e 's/^Suites: .*/Suites: trixie/' \
            > "$apt/trixie.sources"
        set -- -o "Dir::Etc::sourcelist=$apt/trixie.sources"
    else
        grep -m 1 '^deb ' /etc/apt/sources.list |
            sed -e 's/^deb /deb-src /' -e 's/ [a-z-]*bookworm[a-z-]* / trixie /' \
            > "$apt/trixie.list"
        set -- -o "Dir::Etc::sourcelist=$apt/trixie.list"
    fi
    set -- "$@" -o "Dir::Etc::sourceparts=-" \
        -o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt/cache" \
        -o APT::Sandbox::User=root -q
    apt-get "$@" update >&2 || {
        echo "conformance: apt-get update (trixie sources) failed" >&2; exit 1; }
    rm -rf "$CACHE/src313"
    mkdir -p "$CACHE/src313"
    (cd "$CACHE/src313" && apt-get "$@" source --download-only python3.13 >&2) || {
        echo "conformance: apt-get source python3.13 failed" >&2; exit 1; }
    (cd "$CACHE/src313" && tar xJf python3.13_*.orig.tar.xz)
    tree=$(ls -d "$CACHE"/src313/Python-3.13.*/ | head -n 1)
fi
tree=${tree%/}

echo "REFDIR='$tree/Tools/clinic'"
echo "TREE='$tree'"
echo "CLINIC_TEST='$tree/Lib/test/clinic.test.c'"
