#!/bin/sh
# valgrind.sh CLINIC: clinic under valgrind (memcheck, full leak check)
# over every fixture (error fixtures too: their longjmp paths must not
# leak either; with their group's options), the fuzzer's regression
# inputs and a sample of CPython files (3.11's, and 3.13's in the 3.13
# dialect) copied to a scratch directory.  Any memcheck error or
# definite/indirect leak fails.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/common.sh"
CLINIC=${1:-$top/build/clinic}
case $CLINIC in /*) ;; *) CLINIC=$(pwd)/$CLINIC ;; esac
command -v valgrind > /dev/null || { echo "valgrind: FAIL: valgrind is not installed"; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/clinic-valgrind.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
VG="valgrind -q --error-exitcode=99 --leak-check=full --show-leak-kinds=definite,indirect --errors-for-leak-kinds=definite,indirect"
runs=0 fails=0

start=$(date +%s)
vg() {   # vg DIR ARGS...: clinic under valgrind in DIR
    runs=$((runs + 1))
    # minutes go by here: say how far it is
    [ $((runs % 50)) -eq 0 ] &&
        echo "progress: valgrind: $runs runs, $fails failed ($(($(date +%s) - start)) s)"
    rc=0
    (cd "$1" && shift && $VG "$CLINIC" "$@") > "$work/log" 2>&1 || rc=$?
    if [ $rc -eq 99 ] || [ $rc -gt 128 ]; then
        fails=$((fails + 1))
        echo "valgrind: FAIL $label (exit $rc)"
        grep -E '==[0-9]+== (Invalid|Conditional|Use of|Source|  (at|by) |[0-9,]+ bytes in)' "$work/log" | head -n 12
    fi
}

for f in "$top"/fixtures/*/*.c; do
    group=$(basename "$(dirname "$f")")
    [ "$group" = demo ] && continue
    name=$(basename "$f")
    label=$group/$name
    rm -rf "$work/run"; mkdir -p "$work/run"
    cp "$f" "$work/run/"
    [ -d "$f.given.d" ] && cp -R "$f.given.d/." "$work/run/"
    options=
    [ -f "$(dirname "$f")/options" ] && options=$(cat "$(dirname "$f")/options")
    # shellcheck disable=SC2086
    vg "$work/run" $options "$name"
done

# the fuzzer's regression inputs (crashes and leaks it once found)
for f in "$top"/tests/fuzz/regressions/*; do
    [ -f "$f" ] || continue
    label=regressions/${f##*/}
    rm -rf "$work/run"; mkdir -p "$work/run"
    cp "$f" "$work/run/input.c"
    vg "$work/run" input.c
done

# a sample of a CPython tree: as it is (nothing to change), then stripped
# (everything to write); cpython_sample LABEL TREE CLINIC-OPTIONS...
cpython_sample() {
    name=$1 tree=$2
    shift 2
    rm -rf "$work/run"; mkdir -p "$work/run"
    sample=
    for f in Modules/arraymodule.c Modules/_collectionsmodule.c Modules/zlibmodule.c \
             Objects/listobject.c Python/bltinmodule.c Modules/_io/textio.c; do
        [ -f "$tree/$f" ] || continue
        mkdir -p "$work/run/$(dirname "$f")/clinic"
        cp "$tree/$f" "$work/run/$f"
        h=$(dirname "$f")/clinic/$(basename "$f").h
        [ -f "$tree/$h" ] && cp "$tree/$h" "$work/run/$h"
        sample="$sample $f"
    done
    label="$name sample"
    vg "$work/run" "$@" $sample
    (cd "$work/run" && sh "$here/strip_output.sh" $sample)
    label="$name sample, stripped"
    vg "$work/run" "$@" $sample
}

tree=$(find_cpython_tree)
[ -n "$tree" ] && cpython_sample "CPython 3.11" "$tree"
tree313=$(ls -d "$(cache_dir)"/src313/Python-3.13*/ 2>/dev/null | head -n 1)
[ -n "$tree313" ] && cpython_sample "CPython 3.13" "${tree313%/}" --dialect 3.13

echo "valgrind: $((runs - fails)) passed, $fails failed (runs under memcheck; a failure is a memcheck error or leak)"
[ $fails -eq 0 ]
