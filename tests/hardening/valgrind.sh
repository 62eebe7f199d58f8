#!/bin/sh
# valgrind.sh CLINIC: clinic under valgrind (memcheck, full leak check)
# over every fixture (error fixtures too: their longjmp paths must not
# leak either; with their group's options), the fuzzer's regression
# inputs and a sample of CPython files (3.11's, and 3.13's in the 3.13
# dialect) copied to a scratch directory.  Any memcheck error or
# definite/indirect leak fails.
#
# Each run is prepared first in a directory of its own (its files, its
# label, its arguments), then the runs go in as many lanes as the machine
# has processors (VALGRIND_JOBS overrides): memcheck runs one thread, and
# a run's result depends only on its directory.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/common.sh"
CLINIC=${1:-$top/build/clinic}
case $CLINIC in /*) ;; *) CLINIC=$(pwd)/$CLINIC ;; esac
command -v valgrind > /dev/null || { echo "valgrind: FAIL: valgrind is not installed"; exit 1; }
lanes=${VALGRIND_JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)}

work=$(mktemp -d "${TMPDIR:-/tmp}/clinic-valgrind.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
runs=0

new_run() {   # new_run LABEL ARGS...: a fresh run directory, in $run
    runs=$((runs + 1))
    run=$work/runs/$runs
    mkdir -p "$run/dir"
    printf '%s\n' "$1" > "$run/label"
    shift
    printf '%s\n' "$*" > "$run/args"
}

for f in "$top"/fixtures/*/*.c; do
    group=$(basename "$(dirname "$f")")
    [ "$group" = demo ] && continue
    name=$(basename "$f")
    options=
    [ -f "$(dirname "$f")/options" ] && options=$(cat "$(dirname "$f")/options")
    new_run "$group/$name" $options "$name"
    cp "$f" "$run/dir/"
    [ -d "$f.given.d" ] && cp -R "$f.given.d/." "$run/dir/"
done

# the fuzzer's regression inputs (crashes and leaks it once found)
for f in "$top"/tests/fuzz/regressions/*; do
    [ -f "$f" ] || continue
    new_run "regressions/${f##*/}" input.c
    cp "$f" "$run/dir/input.c"
done

# a sample of a CPython tree: as it is (nothing to change), then stripped
# (everything to write); cpython_sample LABEL TREE CLINIC-OPTIONS...
cpython_sample() {
    name=$1 tree=$2
    shift 2
    sample=
    for f in Modules/arraymodule.c Modules/_collectionsmodule.c Modules/zlibmodule.c \
             Objects/listobject.c Python/bltinmodule.c Modules/_io/textio.c; do
        [ -f "$tree/$f" ] && sample="$sample $f"
    done
    for form in "" ", stripped"; do
        new_run "$name sample$form" "$@" $sample
        for f in $sample; do
            mkdir -p "$run/dir/$(dirname "$f")/clinic"
            cp "$tree/$f" "$run/dir/$f"
            h=$(dirname "$f")/clinic/$(basename "$f").h
            [ -f "$tree/$h" ] && cp "$tree/$h" "$run/dir/$h"
        done
        # shellcheck disable=SC2086
        [ -n "$form" ] && (cd "$run/dir" && sh "$here/strip_output.sh" $sample)
    done
}

tree=$(find_cpython_tree)
[ -n "$tree" ] && cpython_sample "CPython 3.11" "$tree"
tree313=$(ls -d "$(cache_dir)"/src313/Python-3.13*/ 2>/dev/null | head -n 1)
[ -n "$tree313" ] && cpython_sample "CPython 3.13" "${tree313%/}" --dialect 3.13

# one run: memcheck's exit 99 (an error or a leak) or a signal fails it
cat > "$work/one.sh" <<'ONE'
clinic=$1 run=$2
cd "$run/dir" || exit 1
rc=0
# shellcheck disable=SC2046
valgrind -q --error-exitcode=99 --leak-check=full \
    --show-leak-kinds=definite,indirect --errors-for-leak-kinds=definite,indirect \
    "$clinic" $(cat "$run/args") > "$run/log" 2>&1 || rc=$?
if [ $rc -eq 99 ] || [ $rc -gt 128 ]; then
    echo "valgrind: FAIL $(cat "$run/label") (exit $rc)"
    grep -E '==[0-9]+== (Invalid|Conditional|Use of|Source|  (at|by) |[0-9,]+ bytes in)' "$run/log" | head -n 12
    echo fail > "$run/failed"
fi
echo "$run" >> "$run/../done"
n=$(wc -l < "$run/../done")
[ $((n % 50)) -eq 0 ] && echo "progress: valgrind: $n runs done"
exit 0
ONE

start=$(date +%s)
echo "valgrind: $runs runs in $lanes lanes"
# minutes go by here: say how far it is, every 50 runs
ls "$work/runs" | sort -n | sed "s|^|$work/runs/|" |
    xargs -n 1 -P "$lanes" sh "$work/one.sh" "$CLINIC"
fails=$(ls "$work"/runs/*/failed 2>/dev/null | wc -l)
done_runs=$(wc -l < "$work/runs/done" 2>/dev/null || echo 0)
[ "$done_runs" -eq "$runs" ] || { echo "valgrind: FAIL only $done_runs of $runs runs finished"; fails=$((fails + runs - done_runs)); }
echo "valgrind: $((runs - fails)) passed, $fails failed (runs under memcheck, $(($(date +%s) - start)) s; a failure is a memcheck error or leak)"
[ "$fails" -eq 0 ]
