#!/bin/sh
# concurrency.sh CLINIC: two clinic processes on the same tree at once.
#
# The same stripped CPython files (see kill_loop.sh) are processed by two
# clinic runs started together, CONCURRENCY_ROUNDS times (default 20); the
# two runs list the files in opposite orders so that they really meet.
# Both must succeed, and afterwards every file must be exactly what one
# run alone makes, with no temp file left behind.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/common.sh"
CLINIC=${1:-$top/build/clinic}
case $CLINIC in /*) ;; *) CLINIC=$(pwd)/$CLINIC ;; esac
ROUNDS=${CONCURRENCY_ROUNDS:-20}

work=$(mktemp -d "${TMPDIR:-/tmp}/clinic-concurrency.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
mkdir -p "$work/old"

tree=$(find_cpython_tree)
files=
if [ -n "$tree" ]; then
    for f in Modules/arraymodule.c Modules/_collectionsmodule.c Modules/zlibmodule.c \
             Modules/_bisectmodule.c Objects/listobject.c Objects/bytesobject.c \
             Python/bltinmodule.c Modules/_io/textio.c Modules/_io/bufferedio.c; do
        [ -f "$tree/$f" ] || continue
        mkdir -p "$work/old/$(dirname "$f")"
        cp "$tree/$f" "$work/old/$f"
        files="$files $f"
    done
else
    for f in "$top"/fixtures/functions/*.c.expected; do
        b=$(basename "$f" .expected)
        cp "$f" "$work/old/$b"
        files="$files $b"
    done
fi
(cd "$work/old" && sh "$here/strip_output.sh" $files)

cp -R "$work/old" "$work/new"
kept=
for f in $files; do
    if (cd "$work/new" && "$CLINIC" "$f") > /dev/null 2>&1; then
        kept="$kept $f"
    else
        rm -f "$work/old/$f" "$work/new/$f"
    fi
done
files=$kept
[ -n "$files" ] || { echo "concurrency: FAIL: clinic cannot process any file"; exit 1; }
reversed=$(for f in $files; do echo "$f"; done | awk '{ a[NR] = $0 } END { for (i = NR; i; i--) printf "%s ", a[i] }')
rm -rf "$work/new"
cp -R "$work/old" "$work/new"
(cd "$work/new" && "$CLINIC" $files) > /dev/null 2>&1

fails=0
r=0
while [ $r -lt "$ROUNDS" ]; do
    r=$((r + 1))
    rm -rf "$work/run"
    cp -R "$work/old" "$work/run"
    (cd "$work/run" && exec "$CLINIC" $files) > "$work/a.log" 2>&1 &
    a=$!
    (cd "$work/run" && exec "$CLINIC" $reversed) > "$work/b.log" 2>&1 &
    b=$!
    wait $a; ra=$?
    wait $b; rb=$?
    if [ $ra -ne 0 ] || [ $rb -ne 0 ]; then
        echo "concurrency: FAIL (round $r): exit statuses $ra and $rb"
        head -n 5 "$work/a.log" "$work/b.log"
        fails=$((fails + 1))
    fi
    if ! snapshot_equal "$work/run" "$work/new"; then
        echo "concurrency: FAIL (round $r): the tree differs from one run's:"
        diff -rq "$work/new" "$work/run" | head -n 10
        fails=$((fails + 1))
    fi
done
n=$(echo $files | wc -w)
echo "concurrency: $ROUNDS rounds of two runs over $n files"
if [ $fails -eq 0 ]; then echo "concurrency: passed"; else echo "concurrency: $fails failures"; exit 1; fi
