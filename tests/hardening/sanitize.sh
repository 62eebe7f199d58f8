#!/bin/sh
# sanitize.sh BUILD: the unit tests, the fixtures, the malformed inputs and
# the conformance tiers regen/pristine/tamper with the ASan+UBSan build in
# BUILD (make sanitize builds it first).  Any
# sanitizer report fails the run; every part runs even if one fails.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
B=${1:-build-asan}
cd "$top" || exit 1
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
fails=0

echo "== sanitize: unit tests under ASan+UBSan"
sh tests/run_unit.sh $(ls "$B"/tests/check_* 2>/dev/null) || fails=$((fails + 1))
echo "== sanitize: fixtures under ASan+UBSan"
CLINIC=$B/clinic sh tests/run_fixtures.sh > "$B/sanitize-fixtures.log" 2>&1 || fails=$((fails + 1))
grep -E '^FAIL|^fixtures' "$B/sanitize-fixtures.log"
grep -E 'ERROR: (Address|Leak)Sanitizer|runtime error' "$B/sanitize-fixtures.log" | sort | uniq -c | head
echo "== sanitize: malformed inputs under ASan+UBSan"
HARDENING_MEMLIMIT_KB=0 sh tests/hardening/malformed.sh "$B/clinic" || fails=$((fails + 1))

echo "== sanitize: conformance (regen, pristine, tamper) under ASan+UBSan"
# the harness judges the output; the sanitizers' reports go to log files
logs=$B/sanitizer-logs
rm -rf "$logs"; mkdir -p "$logs"
ASAN_OPTIONS="detect_leaks=1:log_path=$top/$logs/asan" \
UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:log_path=$top/$logs/ubsan" \
    sh tests/conformance/run.sh --clinic "$B/clinic" --tiers regen,pristine,tamper \
        --report "$B/conformance.json" > "$B/sanitize-conformance.log" 2>&1 || fails=$((fails + 1))
grep -E '^conformance (.* )?(scores|floors)' "$B/sanitize-conformance.log"
if [ -n "$(ls "$logs")" ]; then
    echo "sanitize: FAIL: sanitizer reports during conformance:"
    head -n 30 "$logs"/*
    fails=$((fails + 1))
fi

if [ $fails -eq 0 ]; then echo "sanitize: passed"; else echo "sanitize: $fails parts failed"; exit 1; fi
