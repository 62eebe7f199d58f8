#!/bin/sh
# make check (after make deps): every tier in turn (QUICK=1, make quick:
# build, layers, exports, unit, fixtures, pyvm-diff and cli alone), each counted in test
# cases, then one closing line "check: N passed, N failed".  A tier that
# fails does not stop the later ones; the exit status is non-zero if
# anything failed.
#
# Each tier's full output goes to build/check/TIER.log; the terminal gets
# its progress ("== ..." headings, "progress: ..." lines of long tiers,
# each script's "NAME: N passed, M failed"), every FAIL and CANNOT RUN
# line, and the tail of the log of a tier that failed.  V=1 shows
# everything.
#
# What a count counts: test cases.  A tier whose last count line is
# "NAME: N passed, M failed" counts N and M (unit: Check's tests;
# fixtures: fixtures; pyvm-diff: programs; cli: assertions; workflow, hardening: cases;
# conformance: score floors; functional: CPython's tests); a tier that is
# one check (a build, the layers, the man page, make install) counts one.
#
#   build-gcc, build-clang   -Werror builds of clinic and the unit tests
#                            (clang's in build/clang)
#   layers                   tests/layers.sh: no include of lib/ goes up a
#                            floor, and its self-test
#   exports                  tests/exports.sh: every function lib/ exports
#                            is called from outside its own file
#   unit, fixtures           make unit, make fixtures
#   pyvm-diff                make pyvm-diff: clinic's Python interpreter
#                            against python3 on generated programs
#   cli, workflow            tests/check_cli.sh, tests/workflow.sh
#   dialect                  tests/check_dialect.sh: --dialect, the tree's
#                            patchlevel.h, --make per dialect
#   man, install             groff -ww on man/clinic.1; make install into
#                            a scratch DESTDIR
#   package                  tests/package.sh: the version everywhere,
#                            make deb (lintian, unpacked into a scratch
#                            root and run on the demo), make install
#   conformance              make conformance: the floors of both
#                            dialects (floor, floor-3.13)
#   simd                     make simd: the builds without SSE2 or AVX2
#                            (tests/simd.sh), unit, fixtures, conformance
#   query                    make query: the query modes over the CPython
#                            tree, clinic.test and the fuzz corpus
#   fuzz-diff                make fuzz-diff: 300 generated 3.14/3.15
#                            declarations through clinic and each
#                            reference, the same output or refusal (known
#                            gaps: tests/fuzz/differential-pending)
#   functional               make functional
#   portable                 make portable: --target portable's code built
#                            and run on CPython 3.9-3.15 and 3.13t, and as abi3
#                            (tests/portable/run.sh; the CPythons a fresh
#                            machine lacks are installed the first time)
#   convert                  make convert: --convert's fixtures built as
#                            modules on CPython 3.9, 3.11 and 3.13 and
#                            called before and after conversion; real
#                            extensions likewise on 3.9-3.15; CPython
#                            3.13.5 built converted, its suites run on it
#                            and on the original, test by test (cached in
#                            ~/.cache/clinic-pythons/convert313)
#   hardening                make hardening (HARDENING=0 leaves it out)
set -u
MAKE=${MAKE:-make}
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
. tests/counts.sh
logs=$top/build/check
mkdir -p "$logs"
scratch=$(mktemp -d "${TMPDIR:-/tmp}/clinic-check.XXXXXX")
trap 'rm -rf "$scratch"' EXIT INT TERM
pass=0 nfail=0
summary= failures=
verbose=${V:-0}

# what of a tier's output the terminal sees (all of it with V=1)
shown() {
    if [ "$verbose" = 1 ]; then cat; return; fi
    grep --line-buffered -E '^== |^progress: |FAIL|CANNOT RUN|^[A-Za-z0-9_/ -]+: [0-9]+ passed, [0-9]+ failed' ||
        true
}

tier() {   # tier NAME COMMAND...: run, log, count
    name=$1; shift
    log=$logs/$name.log
    echo "== $name"
    t0=$(date +%s)
    : > "$log"
    { "$@"; echo $? > "$scratch/rc"; } > "$log" 2>&1 &
    job=$!
    tail -n +1 -f --pid=$job "$log" 2>/dev/null | shown
    wait $job
    rc=$(cat "$scratch/rc" 2>/dev/null || echo 1)
    counts_of "$log" "$rc"
    pass=$((pass + p)) nfail=$((nfail + f))
    secs=$(($(date +%s) - t0))
    summary="$summary
  $(printf '%-13s %5d passed, %d failed  (%d s)' "$name:" "$p" "$f" "$secs")"
    [ "$f" -eq 0 ] && return
    if [ "$verbose" != 1 ]; then
        echo "-- $name failed (exit $rc); the end of $log:"
        tail -n 25 "$log" | sed 's/^/   | /'
    fi
    # repeated after the summary, where a reader of only the end (a CI
    # log's tail) sees which cases failed
    lines=$(grep -E 'FAIL|CANNOT RUN' "$log" | grep -v ' 0 failed' | tail -n 6)
    [ -n "$lines" ] || lines=$(tail -n 2 "$log")
    failures="$failures
  $name (exit $rc):
$(printf '%s\n' "$lines" | cut -c1-200 | sed 's/^/    /')"
}
closing() {   # closing WORD: the summary, what failed, the count line
    echo "== summary (test cases; logs in build/check/)$summary"
    [ -z "$failures" ] || echo "== failed (the last FAIL lines of each log)$failures"
    echo "$1: $pass passed, $nfail failed$2"
    [ $nfail -eq 0 ]
}

quick=${QUICK:-0}
# the builds compile in as many jobs as there are processors
jobs=-j$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
tier build-gcc $MAKE $jobs --no-print-directory CC=gcc all test-bins
[ "$quick" = 1 ] ||
    tier build-clang $MAKE $jobs --no-print-directory CC=clang BUILD=build/clang \
        CLINIC_BIN=build/clang/clinic all test-bins
tier layers sh -c 'sh tests/layers.sh && sh tests/layers.sh --self-test'
tier exports sh tests/exports.sh build
tier unit $MAKE --no-print-directory CC=gcc unit
tier fixtures $MAKE --no-print-directory CC=gcc fixtures
tier pyvm-diff $MAKE --no-print-directory CC=gcc pyvm-diff
tier cli sh tests/check_cli.sh build/clinic
if [ "$quick" = 1 ]; then   # make quick: the edit-compile-test loop
    closing quick " (make check runs every tier)"
    exit
fi
tier workflow sh tests/workflow.sh build/clinic
tier dialect sh tests/check_dialect.sh build/clinic

man_check() {
    [ -f man/clinic.1 ] || { echo "man/clinic.1 is missing"; return 1; }
    out=$(LC_ALL=C.UTF-8 groff -t -man -ww -z man/clinic.1 2>&1)
    [ -z "$out" ] || { echo "$out"; return 1; }
}
install_check() {
    d=$scratch/destdir
    $MAKE --no-print-directory CC=gcc install PREFIX=/usr DESTDIR="$d" &&
    [ -x "$d/usr/bin/clinic" ] && [ -f "$d/usr/share/man/man1/clinic.1" ] &&
    "$d/usr/bin/clinic" --help >/dev/null
}
tier man man_check
tier install install_check
tier package sh tests/package.sh build/clinic
tier conformance $MAKE --no-print-directory CC=gcc conformance
tier simd $MAKE --no-print-directory simd
tier query $MAKE --no-print-directory CC=gcc query
tier fuzz-diff $MAKE --no-print-directory CC=gcc fuzz-diff

# Runtime truth: _testclinic.c regenerated by clinic, built against the
# installed Python 3.11, must pass CPython's ClinicFunctionalTest.
functional_check() {
    $MAKE --no-print-directory CC=gcc functional > "$scratch/functional" 2>&1
    rc=$?
    cat "$scratch/functional"
    n=$(sed -n 's/.*ClinicFunctionalTest: \([0-9]*\) tests OK.*/\1/p' "$scratch/functional")
    [ $rc -eq 0 ] && [ -n "$n" ] && echo "functional: $n passed, 0 failed"
    return $rc
}
tier functional functional_check
tier portable $MAKE --no-print-directory CC=gcc portable
tier convert $MAKE --no-print-directory CC=gcc convert

# make hardening (fuzz smoke, sanitizers, valgrind, malformed inputs, kill
# loop, ...); HARDENING=0 leaves it out for a quick local run.
if [ "${HARDENING:-1}" != 0 ]; then
    tier hardening $MAKE --no-print-directory CC=gcc hardening
fi

closing check ""
