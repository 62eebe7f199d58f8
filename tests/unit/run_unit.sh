#!/bin/sh
# make unit: run every Check test binary given as an argument (forking mode)
# and add up Check's own counts ("N%: Checks: N, Failures: N, Errors: N").
# A binary that dies without that line counts as one failure.
set -u
# A case's time limit is there to catch a hang, not a busy machine: Check's
# default of 4 s failed a heavy case on two loaded cores, so a case has
# 60 s, times CK_TIMEOUT_MULTIPLIER (the sanitizer build's run sets 4).
CK_DEFAULT_TIMEOUT=${CK_DEFAULT_TIMEOUT:-60}
export CK_DEFAULT_TIMEOUT
pass=0 nfail=0
for t in "$@"; do
    if [ ! -x "$t" ]; then
        echo "unit ${t##*/}: not built"
        nfail=$((nfail + 1))
        continue
    fi
    out=$(CK_FORK=yes "./$t" 2>&1)
    rc=$?
    printf '%s\n' "$out" | grep -v '^[0-9]*%: Checks' | grep -v '^Running suite' || true
    line=$(printf '%s\n' "$out" | grep -E '^[0-9]+%: Checks: [0-9]+' | tail -n 1)
    if [ -n "$line" ]; then
        checks=$(echo "$line" | sed -E 's/.*Checks: ([0-9]+).*/\1/')
        bad=$(echo "$line" | sed -E 's/.*Failures: ([0-9]+), Errors: ([0-9]+).*/\1 \2/')
        f=$(( ${bad% *} + ${bad#* } ))
        pass=$((pass + checks - f))
        nfail=$((nfail + f))
        if [ $rc -ne 0 ] && [ $f -eq 0 ]; then nfail=$((nfail + 1)); fi
        echo "unit ${t##*/}: $((checks - f)) passed, $f failed"
    else
        nfail=$((nfail + 1))
        echo "unit ${t##*/}: no Check summary (exit $rc)"
    fi
done
echo "unit: $pass passed, $nfail failed"
[ -n "${RESULTS:-}" ] && echo "$pass $nfail" > "$RESULTS"
[ $nfail -eq 0 ]
