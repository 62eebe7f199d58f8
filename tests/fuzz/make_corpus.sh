#!/bin/sh
# Seed corpus for the libFuzzer target: every fixture input and expected
# output (fixtures/**/*.c, *.c.expected), the regression inputs in
# tests/fuzz/regressions/, and CPython's clinic.test cut into one seed per
# block (a whole 100 kB file makes a slow seed; a block with its output is
# the unit the scanner and the DSL parser work on).
#
# clinic.test is looked for in $CLINIC_TEST, then in the conformance cache
# ($CLINIC_CACHE, default ~/.cache/clinic-conformance), then under
# /work/ref; without it the corpus is our fixtures alone.
#
# Usage: make_corpus.sh OUTDIR     (adds files; never removes any)
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
out=$1
mkdir -p "$out"

n=0
add() {   # add FILE NAME: copy FILE into the corpus as NAME
    cp "$1" "$out/$2"
    n=$((n + 1))
}

for f in $(cd "$top" && find fixtures -type f \( -name '*.c' -o -name '*.c.expected' \) | LC_ALL=C sort); do
    add "$top/$f" "seed-$(echo "$f" | tr '/' '_')"
done
if [ -d "$top/tests/fuzz/regressions" ]; then
    for f in "$top"/tests/fuzz/regressions/*; do
        [ -f "$f" ] && add "$f" "regression-${f##*/}"
    done
fi

cache=${CLINIC_CACHE:-${HOME:-/tmp}/.cache/clinic-conformance}
test_file=
for t in "${CLINIC_TEST:-}" "$cache/ref/usr/lib/python3.11/test/clinic.test" \
         /work/ref/usr/lib/python3.11/test/clinic.test; do
    if [ -n "$t" ] && [ -f "$t" ]; then test_file=$t; break; fi
done
if [ -n "$test_file" ]; then
    # a new seed starts at each "/*[clinic input]" line; the text before
    # the first one goes with it
    awk -v dir="$out" '
        /^\/\*\[clinic input\]/ { if (started) { close(f) } started = 1; k++ }
        { f = sprintf("%s/clinic_test-%03d.c", dir, k); print > f }
    ' "$test_file"
    n=$((n + $(ls "$out" | grep -c '^clinic_test-')))
else
    echo "make_corpus: clinic.test not found; seeding from fixtures only" >&2
fi
echo "make_corpus: $n seeds in $out" >&2
