#!/bin/sh
# make bench, --convert's part: fixtures/convert/keywords.c built against
# CPython 3.11 as written (PyArg_ParseTupleAndKeywords, METH_VARARGS) and
# after clinic --convert (generated parsers, METH_FASTCALL), and the calls
# of bench.calls timed on both: calls per second before and after, and
# the ratio.  Prints a line per call and "convert bench: ..." at the end.
#
# usage: run.sh [CLINIC]
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
CLINIC=${1:-build/clinic}
case $CLINIC in /*) ;; *) CLINIC=$top/$CLINIC ;; esac
py=$(sh "$top/tests/portable/pythons.sh" --no-install 3.11 2>/dev/null | awk '{print $2}')
if [ -z "$py" ]; then
    echo "convert bench: no CPython 3.11 with headers here (tests/portable/pythons.sh)"
    exit 1
fi
scratch=$(mktemp -d "${TMPDIR:-/tmp}/clinic-convert-bench.XXXXXX")
trap 'rm -rf "$scratch"' EXIT INT TERM
inc=$("$py" "$top/tests/portable/includes.py")
suffix=$("$py" -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')
for side in before after; do
    mkdir -p "$scratch/$side"
    cp "$top/fixtures/convert/keywords.c" "$scratch/$side/"
done
(cd "$scratch/after" && "$CLINIC" -q --convert keywords.c 2>/dev/null) || { echo "convert bench: --convert failed"; exit 1; }
for side in before after; do
    (cd "$scratch/$side" && ${CC:-cc} -O2 -shared -fPIC $inc -o "keywords$suffix" keywords.c) ||
        { echo "convert bench: $side does not build"; exit 1; }
    "$py" "$here/calls.py" "$scratch/$side" keywords "$here/bench.calls" > "$scratch/$side.txt" ||
        { echo "convert bench: the $side calls failed"; exit 1; }
done
echo "calls per second, CPython $("$py" -c 'import platform; print(platform.python_version())'), fixtures/convert/keywords.c before and after --convert:"
paste "$scratch/before.txt" "$scratch/after.txt" | awk -F'\t' '
    { r = $4 / $2; printf "  %-40s %10d %10d  %.2fx\n", $1, $2, $4, r; s += log(r); n++ }
    END { printf "convert bench: %d calls, geometric mean %.2fx faster after --convert\n", n, exp(s / n) }'
