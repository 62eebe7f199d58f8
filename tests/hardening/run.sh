#!/bin/sh
# run.sh "MAKE" CLINIC: make hardening.  Every part runs even when an
# earlier one fails; ends with "hardening: N passed, N failed" (one check
# per part) and a non-zero status if any part failed.
#
#   fuzz-smoke     seeds + regressions replayed, 30 s of fuzzing, the
#                  generator's sweep of the natives and 200 seeds (clang)
#   sanitize       unit tests, fixtures, malformed inputs under ASan+UBSan
#   fixtures       fixtures/malformed/ alone, through tests/run_fixtures.sh
#   malformed      tests/hardening/malformed.sh
#   aliases        tests/hardening/aliases.sh: the input under another name
#   memory         tests/hardening/memory.sh: linear growth, out of memory
#   commit         tests/hardening/commit.sh: all or nothing (root cases:
#                  chattr, bind mount, tmpfs)
#   special-files  tests/hardening/special.sh: FIFOs, devices, long names
#   small          tests/hardening/small.sh: stdout errors, --make errors
#                  and excludes, setuid, owner, hard links
#   kill-loop      tests/hardening/kill_loop.sh (KILL_ITERATIONS, 200)
#   concurrency    tests/hardening/concurrency.sh
#   line-endings   tests/hardening/line_endings.sh
#   bounds         tests/hardening/bounds.sh: hostile python blocks within
#                  10 s and 600 MiB each, one memory cap for -j 4
#
# The count is of test cases: a part that prints "NAME: N passed, M failed"
# as its last such line counts N and M; any other part counts as one.
set -u
MAKE=${1:-make}
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
CLINIC=${2:-$top/build/clinic}
case $CLINIC in /*) ;; *) CLINIC=$top/$CLINIC ;; esac
cd "$top" || exit 1
. tests/counts.sh
pass=0 nfail=0 summary=

log=$(mktemp "${TMPDIR:-/tmp}/clinic-hardening.XXXXXX")
trap 'rm -f "$log"' EXIT INT TERM

part() {   # part NAME COMMAND...
    name=$1; shift
    echo "== hardening: $name"
    t0=$(date +%s)
    { "$@"; echo $? > "$log.rc"; } 2>&1 | tee "$log"
    rc=$(cat "$log.rc"); rm -f "$log.rc"
    counts_of "$log" "$rc"
    pass=$((pass + p)) nfail=$((nfail + f))
    summary="$summary
  $name: $p passed, $f failed ($(($(date +%s) - t0)) s)"
}

# fixtures/malformed alone: the harness's runner in a tree holding only it
malformed_fixtures() {
    t=$(mktemp -d "${TMPDIR:-/tmp}/clinic-malformed-fixtures.XXXXXX")
    mkdir -p "$t/tests" "$t/fixtures"
    cp tests/run_fixtures.sh "$t/tests/"
    cp -R fixtures/malformed "$t/fixtures/"
    CLINIC=$CLINIC RESULTS='' sh "$t/tests/run_fixtures.sh"
    rc=$?
    rm -rf "$t"
    return $rc
}

part fuzz-smoke $MAKE --no-print-directory fuzz-smoke
part sanitize $MAKE --no-print-directory sanitize
part fixtures-malformed malformed_fixtures
part malformed sh tests/hardening/malformed.sh "$CLINIC"
part aliases sh tests/hardening/aliases.sh "$CLINIC"
part memory sh tests/hardening/memory.sh "$CLINIC"
part commit sh tests/hardening/commit.sh "$CLINIC"
part special-files sh tests/hardening/special.sh "$CLINIC"
part small sh tests/hardening/small.sh "$CLINIC"
part kill-loop sh tests/hardening/kill_loop.sh "$CLINIC"
part concurrency sh tests/hardening/concurrency.sh "$CLINIC"
part line-endings sh tests/hardening/line_endings.sh "$CLINIC"
part bounds sh tests/hardening/bounds.sh "$CLINIC"
part valgrind $MAKE --no-print-directory valgrind

echo "== hardening summary$summary"
echo "hardening: $pass passed, $nfail failed"
[ $nfail -eq 0 ]
