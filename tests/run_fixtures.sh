#!/bin/sh
# make fixtures: golden tests.  For every fixtures/GROUP/NAME.c (GROUP is
# any directory of fixtures/ but demo):
#
#   NAME.c.given.d/PATH     copied beside NAME.c first (existing files)
#   run "clinic NAME.c" in a scratch directory, then
#   NAME.c.expected         NAME.c must equal it byte for byte
#   NAME.c.expected.d/PATH  the other files there must be exactly these
#                           (without it: exactly the given files, if any)
#   NAME.err                instead: the run must fail (non-zero exit), its
#                           stderr must contain every line of NAME.err, and
#                           NAME.c and the given files must be unchanged
#                           with nothing added
#   NAME.warn               with NAME.c.expected: the run's stderr must
#                           contain every line of it (the reference's
#                           warnings)
#   GROUP/options           (optional) more arguments for every run of the
#                           group: "--dialect 3.13"
#   NAME.stderr             (optional) the run's stderr, exactly (the notes
#                           of --convert)
#   GROUP/recheck           (optional) then "clinic --check NAME.c" on the
#                           result, without the group's options, must find
#                           nothing to change (--convert's output is final)
#   NAME.c.list, NAME.c.json, NAME.c.stats
#                           also: "clinic --list NAME.c" (--json, --stats)
#                           must print exactly that on stdout, exit with
#                           the plain run's status (the error status with
#                           NAME.err), and leave every file as it was;
#                           each is one test
#
# Prints failures with a diff, a line per group and a total; exits non-zero
# on any failure.  CLINIC=path overrides ./build/clinic.  ONLY=GROUP or
# ONLY=GROUP/NAME (several, comma-separated) runs just those.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
CLINIC=${CLINIC:-$top/build/clinic}
case $CLINIC in /*) ;; *) CLINIC=$(pwd)/$CLINIC ;; esac
scratch=$(mktemp -d "${TMPDIR:-/tmp}/clinic-fixtures.XXXXXX")
trap 'rm -rf "$scratch"' EXIT INT TERM

total_pass=0
total_fail=0

# list_files DIR: relative paths of the files under DIR, sorted
list_files() {
    [ -d "$1" ] && (cd "$1" && find . -type f | sed 's|^\./||' | LC_ALL=C sort)
}

# fail NAME WHY: report one failure
fail() {
    echo "FAIL $1: $2"
    failed=1
}

run_one() {   # run_one GROUPDIR NAME
    dir=$1 name=$2 src=$2.c
    id=${dir##*/}/$name
    failed=0
    t=$scratch/run
    rm -rf "$t" "$scratch/want"
    mkdir -p "$t" "$scratch/want"
    cp "$dir/$src" "$t/"
    [ -d "$dir/$src.given.d" ] && cp -R "$dir/$src.given.d/." "$t/"
    (cd "$t" && find . -type f ! -name "$src" | sed 's|^\./||' | LC_ALL=C sort) > "$scratch/given.list"
    rc=0
    options=
    [ -f "$dir/options" ] && options=$(cat "$dir/options")
    # shellcheck disable=SC2086
    (cd "$t" && exec "$CLINIC" $options "$src") > "$scratch/stdout" 2> "$scratch/stderr" || rc=$?
    plain_rc=$rc
    if [ $rc -gt 128 ] && [ $rc -le 192 ]; then
        fail "$id" "clinic died with signal $((rc - 128))"
        sed 's/^/    /' "$scratch/stderr" | head -n 20
        return
    fi

    if [ -f "$dir/$name.err" ]; then
        if [ $rc -eq 0 ]; then
            fail "$id" "expected an error, clinic exited 0"
        fi
        while IFS= read -r line || [ -n "$line" ]; do
            [ -z "$line" ] && continue
            if ! grep -qF -- "$line" "$scratch/stderr"; then
                fail "$id" "stderr lacks: $line"
                sed 's/^/    stderr: /' "$scratch/stderr" | head -n 10
                break
            fi
        done < "$dir/$name.err"
        cmp -s "$dir/$src" "$t/$src" || fail "$id" "$src was modified"
        if [ -d "$dir/$src.given.d" ]; then
            cp -R "$dir/$src.given.d/." "$scratch/want/"
        fi
    else
        if [ $rc -ne 0 ]; then
            fail "$id" "clinic exited $rc"
            sed 's/^/    stderr: /' "$scratch/stderr" | head -n 10
            return
        fi
        if [ ! -f "$dir/$src.expected" ]; then
            fail "$id" "fixture has neither $src.expected nor $name.err"
            return
        fi
        if [ -f "$dir/$name.warn" ]; then
            while IFS= read -r line || [ -n "$line" ]; do
                [ -z "$line" ] && continue
                if ! grep -qF -- "$line" "$scratch/stderr"; then
                    fail "$id" "stderr lacks the warning: $line"
                    sed 's/^/    stderr: /' "$scratch/stderr" | head -n 10
                    break
                fi
            done < "$dir/$name.warn"
        fi
        if ! cmp -s "$dir/$src.expected" "$t/$src"; then
            fail "$id" "$src differs from $src.expected"
            diff -u "$dir/$src.expected" "$t/$src" | head -n 30 | sed 's/^/    /'
        fi
        if [ -f "$dir/$name.stderr" ] &&
           ! cmp -s "$dir/$name.stderr" "$scratch/stderr"; then
            fail "$id" "stderr differs from $name.stderr"
            diff -u "$dir/$name.stderr" "$scratch/stderr" | head -n 20 | sed 's/^/    /'
        fi
        if [ -f "$dir/recheck" ] &&
           ! (cd "$t" && "$CLINIC" -q --check "$src") > "$scratch/recheck" 2>&1; then
            fail "$id" "clinic --check would change the result again"
            head -n 10 "$scratch/recheck" | sed 's/^/    /'
        fi
        if [ -d "$dir/$src.expected.d" ]; then
            cp -R "$dir/$src.expected.d/." "$scratch/want/"
        elif [ -d "$dir/$src.given.d" ]; then
            cp -R "$dir/$src.given.d/." "$scratch/want/"
        fi
    fi
    # the other files in the scratch directory must be exactly the wanted ones
    rm -f "$t/$src"
    if ! diff -r "$scratch/want" "$t" > "$scratch/tree.diff" 2>&1; then
        fail "$id" "files beside $src differ from what is expected"
        head -n 30 "$scratch/tree.diff" | sed 's/^/    /'
    fi
}

run_query() {   # run_query GROUPDIR NAME MODE
    dir=$1 name=$2 mode=$3 src=$2.c
    id="${dir##*/}/$name --$mode"
    failed=0
    t=$scratch/run
    rm -rf "$t" "$scratch/before"
    mkdir -p "$t"
    cp "$dir/$src" "$t/"
    [ -d "$dir/$src.given.d" ] && cp -R "$dir/$src.given.d/." "$t/"
    cp -R "$t" "$scratch/before"
    rc=0
    options=
    [ -f "$dir/options" ] && options=$(cat "$dir/options")
    # shellcheck disable=SC2086
    (cd "$t" && exec "$CLINIC" $options "--$mode" "$src") > "$scratch/stdout" 2> "$scratch/stderr" || rc=$?
    if [ $rc -ne "$plain_rc" ]; then
        fail "$id" "exit $rc, where the plain run exits $plain_rc"
        sed 's/^/    stderr: /' "$scratch/stderr" | head -n 10
    fi
    if ! cmp -s "$dir/$src.$mode" "$scratch/stdout"; then
        fail "$id" "stdout differs from $src.$mode"
        diff -u "$dir/$src.$mode" "$scratch/stdout" | head -n 30 | sed 's/^/    /'
    fi
    if ! diff -r "$scratch/before" "$t" > "$scratch/tree.diff" 2>&1; then
        fail "$id" "a file was written"
        head -n 10 "$scratch/tree.diff" | sed 's/^/    /'
    fi
}

if [ ! -x "$CLINIC" ]; then
    echo "fixtures: $CLINIC is not built" >&2
fi

# wanted GROUP NAME: is the fixture selected by ONLY?
wanted() {
    [ -z "${ONLY:-}" ] && return 0
    for o in $(echo "$ONLY" | tr ',' ' '); do
        case $o in "$1"|"$1/$2"|"$1/$2.c") return 0 ;; esac
    done
    return 1
}

selected=0
for dir in "$top"/fixtures/*/; do
    dir=${dir%/}
    group=${dir##*/}
    [ "$group" = demo ] && continue
    pass=0 nfail=0
    for f in "$dir"/*.c; do
        [ -f "$f" ] || continue
        name=${f##*/}
        name=${name%.c}
        wanted "$group" "$name" || continue
        selected=$((selected + 1))
        run_one "$dir" "$name"
        if [ $failed -eq 0 ]; then pass=$((pass + 1)); else nfail=$((nfail + 1)); fi
        for mode in list json stats; do
            [ -f "$f.$mode" ] || continue
            run_query "$dir" "$name" "$mode"
            if [ $failed -eq 0 ]; then pass=$((pass + 1)); else nfail=$((nfail + 1)); fi
        done
    done
    [ $((pass + nfail)) -gt 0 ] && echo "fixtures/$group: $pass passed, $nfail failed"
    total_pass=$((total_pass + pass))
    total_fail=$((total_fail + nfail))
done

if [ -n "${ONLY:-}" ] && [ $selected -eq 0 ]; then
    echo "fixtures: ONLY=$ONLY matches no fixture"
    total_fail=1
fi
echo "fixtures: $total_pass passed, $total_fail failed"
[ -n "${RESULTS:-}" ] && echo "$total_pass $total_fail" > "$RESULTS"
[ $total_fail -eq 0 ]
