#!/bin/sh
# concurrency.sh CLINIC: two clinic processes on the same tree at once.
#
# The same stripped CPython files (see kill_loop.sh) are processed by two
# clinic runs started together, CONCURRENCY_ROUNDS times (default 20); the
# two runs list the files in opposite orders so that they really meet.
# Both must succeed, and afterwards every file must be exactly what one
# run alone makes, with no temp file left behind.
#
# Then files replaced by another process during --make -j 4 (RACE_FILES,
# RACE_ROUNDS): none may end up holding output computed from the version
# it replaced.
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

# ---- files replaced while clinic runs ---------------------------------------------
# Another process (an editor, git checkout) renames a new version over each
# file while clinic --make -j 4 works on the tree.  clinic re-checks each
# input before renaming its result over it: a file replaced since it was
# read must be left as the other process wrote it (never clinic's output of
# the older version), with "changed while clinic was running" and exit 2.
RACE_FILES=${RACE_FILES:-300}
RACE_ROUNDS=${RACE_ROUNDS:-3}
version() {   # version N I: file I, its docstrings saying "version N"
    awk -v v="$1" -v i="$2" 'BEGIN {
        printf "/*[clinic input]\noutput preset block\nmodule m%d\n[clinic start generated code]*/\n", i
        for (k = 0; k < 20; k++)
            printf "\n/*[clinic input]\nm%d.f%d\n    a: int\n    b: object = None\n    *\n    c: str = \"x\"\n\nversion %d of f%d.\n[clinic start generated code]*/\n", i, k, v, k
    }'
}
r=0
stale_total=0 refused_total=0
while [ $r -lt "$RACE_ROUNDS" ]; do
    r=$((r + 1))
    rm -rf "$work/race" "$work/next"
    mkdir -p "$work/race" "$work/next"
    i=0
    while [ $i -lt "$RACE_FILES" ]; do
        i=$((i + 1))
        version 1 $i > "$work/race/f$i.c"
        version 2 $i > "$work/next/f$i.c"
    done
    "$CLINIC" -j 4 --make --srcdir "$work/race" > "$work/race.log" 2>&1 &
    c=$!
    i=0
    while [ $i -lt "$RACE_FILES" ]; do   # renames on one file system: atomic
        i=$((i + 1))
        mv "$work/next/f$i.c" "$work/race/f$i.c"
    done
    wait $c; rc=$?
    stale=$(grep -l 'version 1' "$work"/race/*.c | wc -l)
    refused=$(grep -c 'error: changed while clinic was running' "$work/race.log")
    others=$(grep 'error:' "$work/race.log" | grep -vc 'changed while clinic was running')
    stale_total=$((stale_total + stale)) refused_total=$((refused_total + refused))
    if [ "$stale" -ne 0 ]; then
        echo "concurrency: FAIL (race round $r): $stale files hold output of the version replaced"
        fails=$((fails + 1))
    fi
    if [ "$others" -ne 0 ] || { [ $rc -ne 0 ] && [ $rc -ne 2 ]; } ||
       { [ "$refused" -ne 0 ] && [ $rc -ne 2 ]; }; then
        echo "concurrency: FAIL (race round $r): exit $rc, $refused refused, other errors:"
        grep 'error:' "$work/race.log" | grep -v 'changed while' | head -n 3
        fails=$((fails + 1))
    fi
    if ! "$CLINIC" --make --srcdir "$work/race" > "$work/race.log" 2>&1 ||
       grep -q 'version 1' "$work"/race/*.c; then
        echo "concurrency: FAIL (race round $r): a second run does not settle the tree"
        fails=$((fails + 1))
    fi
done
echo "concurrency: $RACE_ROUNDS rounds of $RACE_FILES files replaced during --make -j 4: $refused_total refused as changed, $stale_total stale"
if [ $fails -eq 0 ]; then echo "concurrency: passed"; else echo "concurrency: $fails failures"; exit 1; fi
