#!/bin/sh
# make check (after make deps): every tier in turn, each counted, then one
# closing line "check: N passed, N failed".  A tier that fails does not stop
# the later ones; the exit status is non-zero if anything failed.
#
#   build-gcc, build-clang   -Werror builds of clinic and the unit tests
#                            (clang's in build/clang); 1 check each
#   unit                     Check's own counts
#   fixtures                 one per fixture
#   man, install             groff -ww on man/clinic.1; make install into
#                            a scratch DESTDIR; 1 check each
#   conformance              one per floor in tests/conformance/floor
set -u
MAKE=${MAKE:-make}
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
res=$(mktemp -d "${TMPDIR:-/tmp}/clinic-check.XXXXXX")
trap 'rm -rf "$res"' EXIT INT TERM
pass=0 nfail=0
summary=

count() {   # count TIER PASSED FAILED
    pass=$((pass + $2))
    nfail=$((nfail + $3))
    summary="$summary
  $1: $2 passed, $3 failed"
}

one() {     # one TIER COMMAND...: a tier that is one check
    t=$1; shift
    echo "== $t"
    if "$@"; then count "$t" 1 0; else count "$t" 0 1; fi
}

one build-gcc $MAKE --no-print-directory CC=gcc all test-bins
one build-clang $MAKE --no-print-directory CC=clang BUILD=build/clang \
    CLINIC_BIN=build/clang/clinic all test-bins

echo "== unit"
if RESULTS=$res/unit $MAKE --no-print-directory CC=gcc unit && [ -f "$res/unit" ]; then :; fi
if [ -f "$res/unit" ]; then read -r p f < "$res/unit"; count unit "$p" "$f"; else count unit 0 1; fi

echo "== fixtures"
RESULTS=$res/fixtures $MAKE --no-print-directory CC=gcc fixtures
if [ -f "$res/fixtures" ]; then read -r p f < "$res/fixtures"; count fixtures "$p" "$f"; else count fixtures 0 1; fi

man_check() {
    [ -f man/clinic.1 ] || { echo "man/clinic.1 is missing"; return 1; }
    out=$(LC_ALL=C.UTF-8 groff -t -man -ww -z man/clinic.1 2>&1)
    [ -z "$out" ] || { echo "$out"; return 1; }
}
install_check() {
    d=$res/destdir
    $MAKE --no-print-directory CC=gcc install PREFIX=/usr DESTDIR="$d" >/dev/null &&
    [ -x "$d/usr/bin/clinic" ] && [ -f "$d/usr/share/man/man1/clinic.1" ] &&
    "$d/usr/bin/clinic" --help >/dev/null
}
one man man_check
one install install_check

echo "== conformance"
{ $MAKE --no-print-directory CC=gcc conformance 2>&1; echo $? > "$res/conformance.rc"; } |
    tee "$res/conformance.log"
rc=$(cat "$res/conformance.rc")
line=$(grep '^conformance floors:' "$res/conformance.log" | tail -n 1)
if [ -n "$line" ]; then
    p=$(echo "$line" | sed -E 's/.*: ([0-9]+) passed, ([0-9]+) failed/\1/')
    f=$(echo "$line" | sed -E 's/.*: ([0-9]+) passed, ([0-9]+) failed/\2/')
    [ $rc -ne 0 ] && [ "$f" -eq 0 ] && f=1
    count conformance "$p" "$f"
else
    count conformance 0 1
fi

# Opt-in (slow): make check HARDENING=1 adds make hardening (fuzz smoke,
# sanitizers, malformed inputs, kill loop, ...), counted by its own line.
if [ -n "${HARDENING:-}" ]; then
    echo "== hardening"
    { $MAKE --no-print-directory CC=gcc hardening 2>&1; echo $? > "$res/hardening.rc"; } |
        tee "$res/hardening.log"
    line=$(grep -E '^hardening: [0-9]+ passed, [0-9]+ failed' "$res/hardening.log" | tail -n 1)
    if [ -n "$line" ]; then
        p=$(echo "$line" | sed -E 's/.*: ([0-9]+) passed, ([0-9]+) failed/\1/')
        f=$(echo "$line" | sed -E 's/.*: ([0-9]+) passed, ([0-9]+) failed/\2/')
        [ "$(cat "$res/hardening.rc")" -ne 0 ] && [ "$f" -eq 0 ] && f=1
        count hardening "$p" "$f"
    else
        count hardening 0 1
    fi
fi

echo "== summary$summary"
echo "check: $pass passed, $nfail failed"
[ $nfail -eq 0 ]
