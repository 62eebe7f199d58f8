#!/bin/sh
# sanitize.sh BUILD: the unit tests, the fixtures, the malformed inputs, the
# command line tests, the writer's hard cases (aliases, commit, special
# files, small) and the conformance tiers regen/pristine/tamper with the
# ASan+UBSan build in BUILD (make sanitize builds it first).  Any
# sanitizer report fails the run (it aborts clinic, which the case counts
# as a failure); every part runs even if one fails.  Ends with
# "sanitize: N passed, M failed", the parts' cases added up.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
B=${1:-build-asan}
cd "$top" || exit 1
. tests/counts.sh
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
pass=0 nfail=0

# part NAME COMMAND...: run under the sanitizers, log in $B, count
part() {
    name=$1; shift
    echo "== sanitize: $name under ASan+UBSan"
    log=$B/sanitize-$name.log
    rc=0
    "$@" > "$log" 2>&1 || rc=$?
    grep -E 'FAIL|CANNOT|^[A-Za-z0-9_/ -]+: [0-9]+ passed, [0-9]+ failed' "$log" | tail -n 20
    grep -E 'ERROR: (Address|Leak)Sanitizer|runtime error' "$log" | sort | uniq -c | head
    counts_of "$log" "$rc"
    pass=$((pass + p)) nfail=$((nfail + f))
}

part unit env CK_TIMEOUT_MULTIPLIER=4 sh tests/unit/run_unit.sh $(ls "$B"/tests/check_* 2>/dev/null)
part fixtures env CLINIC="$B/clinic" sh tests/run_fixtures.sh
part malformed env HARDENING_MEMLIMIT_KB=0 sh tests/hardening/malformed.sh "$B/clinic"
part cli sh tests/check_cli.sh "$B/clinic"
for t in aliases commit special small; do
    part "$t" sh "tests/hardening/$t.sh" "$B/clinic"
done

# the harness judges the output; the sanitizers' reports go to log files
conformance() {
    logs=$B/sanitizer-logs
    rm -rf "$logs"; mkdir -p "$logs"
    ASAN_OPTIONS="detect_leaks=1:log_path=$top/$logs/asan" \
    UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:log_path=$top/$logs/ubsan" \
        sh tests/conformance/run.sh --clinic "$B/clinic" --tiers regen,pristine,tamper \
            --report "$B/conformance.json"
    rc=$?
    if [ -n "$(ls "$logs")" ]; then
        echo "sanitize: FAIL: sanitizer reports during conformance:"
        head -n 30 "$logs"/*
        return 1
    fi
    return $rc
}
part conformance conformance

echo "sanitize: $pass passed, $nfail failed"
[ $nfail -eq 0 ]
