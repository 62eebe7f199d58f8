#!/bin/sh
# Fetch the reference into the conformance cache (outside the repository):
#   $CACHE/ref/   python3.11-examples + libpython3.11-testsuite, unpacked
#                 (clinic.py, cpp.py, clinic.test, test_clinic.py)
#   $CACHE/src/   the CPython source package; $CACHE/src/Python-3.11.2/ the tree
# Prints the three paths the harness needs, as shell assignments.
# Usage: fetch.sh CACHE
set -eu
CACHE=$1
mkdir -p "$CACHE"
CACHE=$(cd "$CACHE" && pwd)

SUDO=
[ "$(id -u)" = 0 ] || SUDO=sudo

refdir=$CACHE/ref/usr/share/doc/python3.11/examples/clinic
testfile=$CACHE/ref/usr/lib/python3.11/test/clinic.test

if [ ! -f "$refdir/clinic.py" ] || [ ! -f "$refdir/cpp.py" ] || [ ! -f "$testfile" ]; then
    echo "conformance: fetching python3.11-examples and libpython3.11-testsuite into $CACHE" >&2
    rm -rf "$CACHE/debs" "$CACHE/ref"
    mkdir -p "$CACHE/debs" "$CACHE/ref"
    # apt-get download writes to the current directory; _apt cannot write
    # into root's home, so download into a directory it can, then move.
    dl=$(mktemp -d)
    chmod 755 "$dl"
    (cd "$dl" && apt-get download -q -o APT::Sandbox::User=root python3.11-examples libpython3.11-testsuite >&2) || {
        echo "conformance: apt-get download failed (try: apt-get update)" >&2; exit 1; }
    mv "$dl"/*.deb "$CACHE/debs/"
    rmdir "$dl"
    for deb in "$CACHE"/debs/*.deb; do dpkg -x "$deb" "$CACHE/ref"; done
    # Debian may ship big examples compressed
    for f in clinic.py cpp.py; do
        [ -f "$refdir/$f" ] || { [ -f "$refdir/$f.gz" ] && gunzip -k "$refdir/$f.gz"; }
    done
fi

tree=$(ls -d "$CACHE"/src/Python-3.11*/ 2>/dev/null | head -n 1 || true)
if [ -z "$tree" ] || [ ! -f "$tree/Modules/posixmodule.c" ]; then
    echo "conformance: fetching the CPython 3.11 source package into $CACHE/src" >&2
    # Enable source packages for the main bookworm entry, if none is.
    if ! grep -rqs '^Types:.*deb-src\|^deb-src' /etc/apt/sources.list /etc/apt/sources.list.d/; then
        if [ -f /etc/apt/sources.list.d/debian.sources ]; then
            awk -v RS= 'NR==1' /etc/apt/sources.list.d/debian.sources |
                sed 's/^Types: deb$/Types: deb-src/' |
                $SUDO tee /etc/apt/sources.list.d/deb-src.sources >/dev/null
        else
            grep '^deb .*bookworm ' /etc/apt/sources.list | head -n 1 |
                sed 's/^deb /deb-src /' | $SUDO tee /etc/apt/sources.list.d/deb-src.list >/dev/null
        fi
        $SUDO apt-get update -q >&2
    fi
    rm -rf "$CACHE/src"
    mkdir -p "$CACHE/src"
    chmod 755 "$CACHE/src"
    (cd "$CACHE/src" && apt-get source -q -o APT::Sandbox::User=root --download-only python3.11 >&2) || {
        echo "conformance: apt-get source failed (try: apt-get update)" >&2; exit 1; }
    (cd "$CACHE/src" && tar xzf python3.11_*.orig.tar.gz)
    tree=$(ls -d "$CACHE"/src/Python-3.11*/ | head -n 1)
fi
tree=${tree%/}

echo "REFDIR='$refdir'"
echo "TREE='$tree'"
echo "CLINIC_TEST='$testfile'"
