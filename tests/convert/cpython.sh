#!/bin/sh
# clinic --convert over the CPython 3.13.5 tree's Modules/ and Objects/
# (the conformance cache; never into the repository): every file that
# registers functions in a PyMethodDef table, the test modules aside.
# Prints a table, per file, of the functions converted and of those left
# as they are by reason (the "left" column without the functions another
# file defines), and the totals; then checks that
#
#   - clinic --check on the converted files finds nothing to change, and
#   - with a CPython 3.13 build tree (CLINIC_CPYTHON_BUILD, default the
#     portable tier's ~/.cache/clinic-pythons/3.13t when there), each
#     converted file compiles as its original does (-Wall, the build's
#     headers, Py_BUILD_CORE_BUILTIN), with no new warning or error,
#     once CPython's Tools/build/generate_global_objects.py has added the
#     keyword parsers' identifiers to a copy of Include (as CPython's
#     "make regen-global-objects" does after "make clinic").
#
# Exits non-zero when a check fails.  usage: cpython.sh [CLINIC]
#   CLINIC_CACHE          the conformance cache (~/.cache/clinic-conformance)
#   CLINIC_CPYTHON_BUILD  a configured and built CPython 3.13 tree; "" skips
#                         the compiling
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
CLINIC=${1:-$top/build/clinic}
case $CLINIC in /*) ;; *) CLINIC=$top/$CLINIC ;; esac
CACHE=${CLINIC_CACHE:-$HOME/.cache/clinic-conformance}
src=$CACHE/src313/Python-3.13.5
build=${CLINIC_CPYTHON_BUILD-$HOME/.cache/clinic-pythons/3.13t}
if [ ! -d "$src/Modules" ]; then
    echo "cpython: no CPython 3.13.5 tree in $src (make conformance fetches it)"
    exit 1
fi
scratch=$(mktemp -d "${TMPDIR:-/tmp}/clinic-convert-cpython.XXXXXX")
trap 'rm -rf "$scratch"' EXIT INT TERM
cp -R "$src/Modules" "$src/Objects" "$scratch/"
cd "$scratch" || exit 1
files=$(grep -lE 'PyMethodDef' Modules/*.c Modules/*/*.c Objects/*.c |
        grep -v test | LC_ALL=C sort)
status=0
"$CLINIC" -q --dialect 3.13 --convert $files 2> notes.txt
rc=$?
[ $rc -eq 0 ] || { echo "cpython: clinic --convert exited $rc"; grep error notes.txt | head; status=1; }

# the table: FILE converted left reason=count...
awk '
/: note: convert: [0-9]+ converted, / {
    f = $1; sub(/:$/, "", f)
    conv[f] = $4; left[f] = $6; files[++n] = f
    next
}
/ left as it is \(/ {
    f = $1; sub(/:[0-9]+:$/, "", f)
    r = $0; sub(/.* left as it is \(/, "", r); sub(/\).*/, "", r)
    why[f] = why[f] (why[f] == "" ? "" : ", ") r
    count[f, r]++; total[r]++
}
END {
    printf "%-40s %9s %5s  %s\n", "file", "converted", "left", "left, by reason"
    for (i = 1; i <= n; i++) {
        f = files[i]; s = ""
        split(why[f], rs, ", "); delete seen
        for (k in rs) if (!(rs[k] in seen)) { seen[rs[k]] = 1; s = s (s == "" ? "" : ", ") count[f, rs[k]] " " rs[k] }
        here = left[f] - count[f, "defined-elsewhere"]
        printf "%-40s %9d %5d  %s\n", f, conv[f], here, s
        tc += conv[f]; tl += here
    }
    s = ""
    for (r in total) s = s (s == "" ? "" : ", ") total[r] " " r
    printf "%-40s %9d %5d  %s\n", "total (" n " files)", tc, tl, s
    # a function another file defines is for that file to convert: not in
    # the share
    printf "converted: %d of %d functions the files define (%.0f%%); %d registered functions defined in other files\n", tc, tc + tl, tc + tl ? 100 * tc / (tc + tl) : 0, total["defined-elsewhere"]
}' notes.txt

if ! "$CLINIC" -q --dialect 3.13 --check $files > recheck.txt 2>&1; then
    echo "cpython: FAIL clinic --check changes converted files again:"
    head recheck.txt
    status=1
fi

if [ -n "$build" ] && [ -f "$build/pyconfig.h" ]; then
    # CPython's own step after clinic: the identifiers of the generated
    # keyword parsers (_Py_ID(name)) are added to the runtime's global
    # strings (make regen-global-objects), in a copy of Include
    mkdir -p Tools
    cp -R "$src/Include" "$src/Parser" "$src/PC" "$src/Programs" "$src/Python" .
    cp -R "$src/Tools/build" Tools/
    if ! ${PYTHON:-python3} Tools/build/generate_global_objects.py > regen.log 2>&1; then
        echo "cpython: FAIL generate_global_objects.py over the converted tree:"
        head -5 regen.log
        status=1
    fi
    ok=0 bad=0 skipped=0
    for f in $files; do
        cmp -s "$src/$f" "$f" && continue
        d=${f%/*} b=${f##*/}
        common="-c -O0 -Wall -Wno-unused-function -I$build -I$src/Modules/_decimal/libmpdec -I$src/Modules/_hacl/include -DPy_BUILD_CORE_BUILTIN -o /dev/null"
        # shellcheck disable=SC2086
        (cd "$src/$d" && ${CC:-cc} $common -I"$src/Include" -I"$src/Include/internal" "$b") > before.log 2>&1; rb=$?
        # shellcheck disable=SC2086
        (cd "$d" && ${CC:-cc} $common -I"$scratch/Include" -I"$scratch/Include/internal" -I"$src/$d" "$b") > after.log 2>&1; ra=$?
        if [ $rb -ne 0 ]; then skipped=$((skipped + 1)); continue; fi
        wb=$(grep -c 'warning:' before.log) wa=$(grep -c 'warning:' after.log)
        if [ $ra -ne 0 ] || [ "$wa" -gt "$wb" ]; then
            echo "cpython: FAIL $f: converted, it does not compile as before"
            grep -m5 'error\|warning' after.log | sed 's/^/    /'
            bad=$((bad + 1))
        else
            ok=$((ok + 1))
        fi
    done
    echo "compiled against $build: $ok converted files as before, $bad not, $skipped not compiled (the original needs more than the headers)"
    [ $bad -eq 0 ] || status=1
else
    echo "cpython: no CPython 3.13 build tree (CLINIC_CPYTHON_BUILD): the converted files were not compiled"
fi
exit $status
