#!/bin/sh
# sanitize.sh BUILD: the unit tests, the fixtures and the malformed inputs
# with the ASan+UBSan build in BUILD (make sanitize builds it first).  Any
# sanitizer report fails the run; every part runs even if one fails.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
B=${1:-build-asan}
cd "$top"
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

if [ $fails -eq 0 ]; then echo "sanitize: passed"; else echo "sanitize: $fails parts failed"; exit 1; fi
