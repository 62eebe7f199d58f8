#!/bin/sh
# memory.sh CLINIC: memory grows linearly with the input, and running out
# of it fails one file, not the run.
#
#   linear growth     generated inputs at N and 4N lines (a function
#                     docstring, parameter docstrings, printout lines,
#                     backslash-continued parameter lines): the peak RSS
#                     above an empty run's may grow at most 6 times for 4
#                     times the input (linear: about 4; the quadratic
#                     accumulation this guards against: 16, and gigabytes).
#                     Each run is capped at MEMORY_LIMIT_KB (1 GB) so a
#                     regression fails instead of taking the machine down.
#                     Peak memory, never time, is compared.
#   against clinic.py 8,000 docstring lines: our peak at most the
#                     reference's (when clinic.py is found; the test says
#                     so when it is not)
#   out of memory     --make over a tree where one file needs more memory
#                     than a 300 MB address-space limit allows: that file
#                     fails with FILE:LINE: error: out of memory and is left
#                     as it was; the others are written
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/common.sh"
t_begin memory "${1:-}"
PYTHON=${PYTHON:-python3}
LIMIT=${MEMORY_LIMIT_KB:-1048576}
REF=$(find_reference)

TIME=$(command -v time 2>/dev/null)
[ -x /usr/bin/time ] && TIME=/usr/bin/time
if ! "$TIME" -f %M true > /dev/null 2>&1; then
    echo "memory: FAIL cannot measure: GNU time (make deps installs it) is missing"
    exit 1
fi

# peak_kb FILE: clinic -o over FILE under the cap; prints the peak RSS in
# kB, or "failed" (with the reason in $T_WORK/log)
peak_kb() {
    rc=0
    (ulimit -v "$LIMIT"; exec "$TIME" -f '%M' -o "$T_WORK/peak" "$CLINIC" -o "$T_WORK/out.c" "$1") \
        > "$T_LOG" 2>&1 || rc=$?
    if [ $rc -ne 0 ]; then echo failed; else tail -n 1 "$T_WORK/peak"; fi
}

# gen KIND N: a generated input
gen() {
    "$PYTHON" - "$1" "$2" <<'EOF'
import sys
kind, n = sys.argv[1], int(sys.argv[2])
head = '/*[clinic input]\nmodule m\nm.f\n'
tail = '[clinic start generated code]*/\n'
if kind == 'docstring':
    body = '    a: int\n\nSummary.\n\n' + ''.join('Line %d of the docstring.\n' % i for i in range(n))
elif kind == 'parameter-docstring':
    body = '    a: int\n' + ''.join('        line %d of a parameter docstring\n' % i for i in range(n)) + '\nSummary.\n'
elif kind == 'printout':
    head, body = '/*[clinic input]\n', ''.join('printout line %d of text\n' % i for i in range(n))
elif kind == 'continuation':
    body = '    a: \\\n' + '        \\\n' * n + '        int = 1\n\nSummary.\n'
sys.stdout.write(head + body + tail)
EOF
}

printf '/*[clinic input]\nmodule m\n[clinic start generated code]*/\n' > "$T_WORK/empty.c"
base=$(peak_kb "$T_WORK/empty.c")
if [ "$base" = failed ]; then
    t_bad baseline "clinic failed on a trivial file: $(head -c 300 "$T_LOG")"
    base=0
fi

N=10000
for kind in docstring parameter-docstring printout continuation; do
    gen $kind $N > "$T_WORK/small.c"
    gen $kind $((4 * N)) > "$T_WORK/large.c"
    small=$(peak_kb "$T_WORK/small.c")
    large=$(peak_kb "$T_WORK/large.c")
    if [ "$small" = failed ] || [ "$large" = failed ]; then
        t_bad "$kind" "clinic failed within $LIMIT kB (small: $small, large: $large): $(head -c 200 "$T_LOG")"
        continue
    fi
    # growth of the peak above the empty run's, in tenths
    ds=$((small - base)) dl=$((large - base))
    [ $ds -lt 256 ] && ds=256   # below noise: measure against 256 kB
    growth=$((dl * 10 / ds))
    if [ $growth -le 60 ]; then
        t_ok "$kind: $N lines $small kB, $((4 * N)) lines $large kB (x$((growth / 10)).$((growth % 10)) above a $base kB empty run)"
    else
        t_bad "$kind" "$N lines $small kB, $((4 * N)) lines $large kB: grew x$((growth / 10)).$((growth % 10)) for 4x the input"
    fi
done

# ---- against clinic.py ---------------------------------------------------
gen docstring 8000 > "$T_WORK/d8000.c"
ours=$(peak_kb "$T_WORK/d8000.c")
if [ -z "$REF" ]; then
    echo "memory: cannot compare with clinic.py: reference not found (make conformance fetches it); ours: $ours kB"
    t_bad "against clinic.py" "no reference to compare with"
else
    cp "$T_WORK/d8000.c" "$T_WORK/ref.c"
    "$TIME" -f '%M' -o "$T_WORK/refpeak" "$PYTHON" "$REF" "$T_WORK/ref.c" > /dev/null 2>&1
    theirs=$(tail -n 1 "$T_WORK/refpeak")
    if [ "$ours" != failed ] && cmp -s "$T_WORK/out.c" "$T_WORK/ref.c" && [ "$ours" -le "$theirs" ]; then
        t_ok "8000 docstring lines: $ours kB, clinic.py $theirs kB, same output"
    else
        t_bad "against clinic.py" "8000 docstring lines: ours $ours kB, clinic.py $theirs kB (or outputs differ)"
    fi
fi

# ---- out of memory: one file fails, the others are written -------------------
case $CLINIC in
    */build-asan/*|*/build-fuzz/*)
        echo "memory: cannot run the out-of-memory case under a sanitizer build (it reserves terabytes of address space)";;
    *)
        t=$T_WORK/tree
        mkdir -p "$t"
        "$PYTHON" -c "
import sys
sys.stdout.write('/*[clinic input]\nmodule m\nm.f\n    a: int\n\nSummary.\n\n' + ('y' * 99 + '\n') * 600000 + '[clinic start generated code]*/\n')" > "$t/big.c"
        for i in 1 2 3; do
            printf '/*[clinic input]\nmodule m%d\n[clinic start generated code]*/\n' $i > "$t/s$i.c"
        done
        cp "$t/big.c" "$T_WORK/big.orig"
        rc=0
        (ulimit -v 300000; exec "$CLINIC" --make --srcdir "$t") > "$T_LOG" 2>&1 || rc=$?
        written=$(grep -l 'end generated code' "$t"/s*.c | wc -l)
        if [ $rc -eq 0 ] || [ $rc -gt 128 ]; then
            t_bad out-of-memory "exit $rc: $(head -c 300 "$T_LOG")"
        elif ! grep -Eq "big.c:[0-9]+: error: out of memory" "$T_LOG"; then
            t_bad out-of-memory "no FILE:LINE: error: out of memory: $(head -c 300 "$T_LOG")"
        elif ! cmp -s "$t/big.c" "$T_WORK/big.orig"; then
            t_bad out-of-memory "big.c changed"
        elif [ "$written" -ne 3 ]; then
            t_bad out-of-memory "only $written of the 3 other files written"
        else
            t_ok "out of memory: $(grep 'out of memory' "$T_LOG"); the 3 other files written"
        fi
        ;;
esac

t_end
