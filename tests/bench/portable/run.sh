#!/bin/sh
# make bench, second part: the cost of the portable target's parsers.
# tests/bench/portable/bench.c is regenerated twice, by clinic (3.11's
# output) and by clinic --target portable, and both are built against the
# same CPython 3.11; calls.py times the same calls on both and on the same
# signature parsed by PyArg_ParseTupleAndKeywords, interleaved, best of
# several rounds.  Not a test: it reports, and fails only if something
# cannot be built or run.
#   usage: run.sh [CLINIC]         NUMBER, REPEAT: calls per round, rounds
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
CLINIC=${1:-build/clinic}
case $CLINIC in /*) ;; *) CLINIC=$top/$CLINIC ;; esac
PY=$(sh "$top/tests/portable/pythons.sh" 3.11 | sed -n 's/^3.11 //p')
[ -n "$PY" ] || { echo "bench: no CPython 3.11 with headers" >&2; exit 1; }

out=$top/build/bench-portable
rm -rf "$out"
mkdir -p "$out/3.11" "$out/portable"
cp "$here/bench.c" "$out/3.11/"
cp "$here/bench.c" "$out/portable/"
(cd "$out/3.11" && "$CLINIC" -q bench.c)
(cd "$out/portable" && "$CLINIC" -q --target portable bench.c)
inc=$("$PY" -c '
import sysconfig
p = sysconfig.get_paths()
print(" ".join(sorted({"-I" + p["include"], "-I" + p["platinclude"]})))')
suffix=$("$PY" -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')
for d in 3.11 portable; do
    # shellcheck disable=SC2086
    ${CC:-cc} -shared -fPIC -O2 -std=c11 -Wall -Wextra -Werror \
        -Wno-missing-field-initializers $inc \
        -o "$out/$d/bench$suffix" "$out/$d/bench.c"
done

echo "Calls per second on $("$PY" -c 'import sys; print(sys.version.split()[0])')" \
     "(best of ${REPEAT:-9} rounds of ${NUMBER:-200000} calls),"
echo "and the parsing's own time per call (less that of a call that parses nothing):"
echo
PYTHONDONTWRITEBYTECODE=1 "$PY" "$here/calls.py" "$out/3.11" "$out/portable" \
    "${NUMBER:-200000}" "${REPEAT:-9}" | awk '
function m(x) { return sprintf("%5.1fM", x / 1e6) }
BEGIN {
    printf "%-16s %16s %16s %16s %8s %8s\n", "call", "3.11 output", "portable",
           "PyArg_Parse...", "port/3.11", "port/PTAK"
}
{
    split($2, a, ":"); split($3, b, ":"); split($4, c, ":")
    printf "%-16s %6s %5.1f ns %6s %5.1f ns %6s %5.1f ns %8.2f %8.1fx\n", $1,
           m(a[1]), a[2], m(b[1]), b[2], m(c[1]), c[2], b[1] / a[1], b[1] / c[1]
}'
