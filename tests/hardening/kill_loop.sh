#!/bin/sh
# kill_loop.sh CLINIC: a write is all or nothing, whenever clinic dies.
#
# A set of CPython files (KILL_FILES, default 25), stripped of their output (and of their
# clinic/*.c.h files) so that clinic must rewrite every one, is processed
# by "CLINIC FILE..." which we SIGKILL at a random moment, KILL_ITERATIONS
# times (default 200).  After each kill every file must hold either its
# old bytes or its new ones (a file that did not exist before may still be
# absent), never anything else; leftover temp files of the killed process
# (".NAME.clinic-PID-START-XXXXXX") are counted and left in place: the
# next run over NAME must sweep them, whether it writes NAME or finds it
# up to date (a run killed just after exchanging NAME's new text in leaves
# the old one under the temp name).  Then one normal run over the tree as
# the loop left it must finish, leave exactly the new tree and no temp
# file.
#
# The files come from a CPython 3.11 tree (see common.sh); without one,
# from our own fixtures.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/common.sh"
CLINIC=${1:-$top/build/clinic}
case $CLINIC in /*) ;; *) CLINIC=$(pwd)/$CLINIC ;; esac
ITER=${KILL_ITERATIONS:-200}

work=$(mktemp -d "${TMPDIR:-/tmp}/clinic-kill.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
mkdir -p "$work/old"

tree=$(find_cpython_tree)
files=
if [ -n "$tree" ]; then
    # KILL_FILES (default 25) files with clinic blocks, the biggest first
    for f in $(cd "$tree" && grep -l 'clinic start generated code' \
                   Modules/*.c Objects/*.c Python/*.c 2>/dev/null |
               xargs ls -S | head -n "${KILL_FILES:-25}"); do
        mkdir -p "$work/old/$(dirname "$f")"
        cp "$tree/$f" "$work/old/$f"
        files="$files $f"
    done
    src="CPython tree $tree"
else
    for f in "$top"/fixtures/functions/*.c.expected; do
        b=$(basename "$f" .expected)
        cp "$f" "$work/old/$b"
        files="$files $b"
    done
    src="fixtures/functions (no CPython tree found)"
fi
(cd "$work/old" && sh "$here/strip_output.sh" $files)

# the new tree: what one uninterrupted run makes of the old one.  A file
# clinic cannot process (an unsupported construct, say) is not this test's
# business: it is dropped from the set.
cp -R "$work/old" "$work/new"
kept=
for f in $files; do
    if (cd "$work/new" && "$CLINIC" "$f") > "$work/log" 2>&1; then
        kept="$kept $f"
    else
        echo "kill-loop: skipping $f: $(head -n 1 "$work/log")"
        rm -f "$work/old/$f" "$work/new/$f"
    fi
done
files=$kept
if [ -z "$files" ]; then
    echo "kill-loop: FAIL: clinic cannot process any of the files"
    exit 1
fi
rm -rf "$work/new"
cp -R "$work/old" "$work/new"
start=$(now_ms)
if ! (cd "$work/new" && "$CLINIC" $files) > "$work/log" 2>&1; then
    echo "kill-loop: FAIL: clinic cannot process the stripped files:"
    head -n 20 "$work/log"
    exit 1
fi
span=$(($(now_ms) - start))
[ $span -lt 20 ] && span=20
nfiles=$(cd "$work/new" && find . -type f | wc -l)
echo "kill-loop: $nfiles files from $src; a full run takes ${span} ms"

# check_state: every file old or new; no other file but temp files
check_state() {
    bad=0
    for f in $(cd "$work/new" && find . -type f) $(cd "$work/old" && find . -type f); do
        if [ -f "$work/run/$f" ]; then
            if cmp -s "$work/run/$f" "$work/new/$f"; then continue; fi
            if [ -f "$work/old/$f" ] && cmp -s "$work/run/$f" "$work/old/$f"; then continue; fi
            echo "kill-loop: FAIL (iteration $i): $f is neither old nor new"
            bad=1
        elif [ -f "$work/old/$f" ]; then
            echo "kill-loop: FAIL (iteration $i): $f disappeared"
            bad=1
        fi
    done
    for f in $(cd "$work/run" && find . -type f); do
        [ -f "$work/new/$f" ] || [ -f "$work/old/$f" ] && continue
        case ${f##*/} in
            .*.clinic-*-??????)
                # left for the next run to sweep (it removes the temp files
                # of dead processes); counted once each
                grep -qxF "$f" "$work/seen" 2>/dev/null ||
                    { echo "$f" >> "$work/seen"; leftovers=$((leftovers + 1)); } ;;
            *) echo "kill-loop: FAIL (iteration $i): unexpected file $f"; bad=1 ;;
        esac
    done
    return $bad
}

cp -R "$work/old" "$work/run"
fails=0 leftovers=0 killed=0 finished=0 resets=0
i=0
while [ $i -lt "$ITER" ]; do
    i=$((i + 1))
    [ $((i % 50)) -eq 0 ] && echo "progress: kill-loop: $i of $ITER iterations, $fails failed"
    delay=$(random_below $((span + span / 4 + 1)))
    (cd "$work/run" && exec "$CLINIC" $files) > /dev/null 2>&1 &
    pid=$!
    sleep "$(awk -v d="$delay" 'BEGIN { printf "%.3f", d / 1000 }')"
    if kill -KILL $pid 2>/dev/null; then killed=$((killed + 1)); else finished=$((finished + 1)); fi
    wait $pid 2>/dev/null
    check_state || fails=$((fails + 1))
    # once everything is new, start again from the old tree
    if snapshot_equal "$work/run" "$work/new"; then
        rm -rf "$work/run"
        cp -R "$work/old" "$work/run"
        resets=$((resets + 1))
    fi
done

# a normal run finishes the job and leaves nothing behind: every file
# put back to its old text (the temp files stay), so that the run writes
# each, and each write sweeps the temp files of that file's dead makers
# (a temp file of a file no run writes again stays, as the man page says)
if ! (cd "$work/run" && "$CLINIC" $files) > "$work/log" 2>&1; then
    echo "kill-loop: FAIL: the final run failed:"; head -n 20 "$work/log"
    fails=$((fails + 1))
fi
if ! snapshot_equal "$work/run" "$work/new"; then
    echo "kill-loop: FAIL: after the final run the tree differs from a clean run's:"
    diff -rq "$work/new" "$work/run" | head -n 20
    fails=$((fails + 1))
fi

echo "kill-loop: $ITER iterations ($killed killed mid-run, $finished finished first," \
     "$resets restarts from the old tree), $leftovers temp files left by killed runs"
if [ $fails -eq 0 ]; then
    echo "kill-loop: passed"
else
    echo "kill-loop: $fails failures"
    exit 1
fi
