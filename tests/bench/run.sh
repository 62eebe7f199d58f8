#!/bin/sh
# make bench: our clinic against the reference clinic.py on the same
# pristine CPython tree (the files its --make walks, copied afresh for
# every run), both in --make mode, for each dialect: 3.11's clinic.py on
# the CPython 3.11.2 tree, 3.13's on the 3.13.5 tree, 3.15's on the
# 3.13.5 tree (there is no 3.15 tree here), whose instructions are also
# set against the 3.13 dialect's on the same files (the budget: within
# 10%); then clinic --json --make against --make.  Reports the median wall time of RUNS runs
# (default 5), interleaved, the ratio, CPU time and peak resident memory
# (each of one run of the tool alone: measure.c),
# instructions with one worker (callgrind), the tree doubled and the
# largest file alone.  Not a test: it fails only if a tool cannot be run
# at all.
#   usage: run.sh [CLINIC]          (default build/clinic)
#   CLINIC_CACHE, PYTHON, RUNS      as for make conformance
#   BENCH_DIALECTS                  default "3.11 3.13 3.15"
set -eu
here=$(cd "$(dirname "$0")" && pwd)
CLINIC=${1:-build/clinic}
case $CLINIC in /*) ;; *) CLINIC=$(pwd)/$CLINIC ;; esac
CACHE=${CLINIC_CACHE:-${HOME:-/tmp}/.cache/clinic-conformance}
PYTHON=${PYTHON:-python3}
RUNS=${RUNS:-5}
[ -x "$CLINIC" ] || { echo "bench: $CLINIC is not built" >&2; exit 1; }
scratch=$(mktemp -d "${TMPDIR:-/tmp}/clinic-bench.XXXXXX")
trap 'rm -rf "$scratch"' EXIT INT TERM
MEASURE=$scratch/measure
${CC:-cc} -O2 -o "$MEASURE" "$here/measure.c" ||
    { echo "bench: cannot build tests/bench/measure.c" >&2; exit 1; }

median() { sort -n | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
maxof() { sort -n | tail -n 1; }
mib() { awk '{printf "%.1f", $1 / 1024}'; }

fresh_tree() {   # a pristine copy of the listed files in $scratch/tree
    rm -rf "$scratch/tree"
    mkdir "$scratch/tree"
    (cd "$TREE" && tar cf - -T "$scratch/list") | (cd "$scratch/tree" && tar xf -)
}

# run_once NAME COMMAND...: one run in $scratch on a fresh tree; appends
# "wall peak-KiB cpu-seconds" to NAME.times
run_once() {
    name=$1; shift
    fresh_tree
    # the tool's own wall time, peak memory and CPU time (measure.c)
    (cd "$scratch" && "$MEASURE" "$scratch/$name.out" "$@") > "$scratch/t"
    read -r wall kib cpu rc < "$scratch/t"
    echo "$wall $kib $cpu" >> "$scratch/$name.times"
    # files the run changed (none for a dialect on its own pristine tree;
    # 3.15 on the 3.13.5 tree rewrites what 3.15 writes otherwise)
    changed=$(cd "$scratch/tree" && find . -type f -newer "$scratch/list" | wc -l)
    eval "${name}_rc=\$rc ${name}_changed=\$changed"
}

summarize() {   # summarize NAME LABEL: medians and the peak of NAME's runs
    name=$1 label=$2
    t=$(cut -d' ' -f1 "$scratch/$name.times" | median)
    m=$(cut -d' ' -f2 "$scratch/$name.times" | maxof)
    cpu=$(cut -d' ' -f3 "$scratch/$name.times" | median)
    eval "${name}_t=\$t ${name}_m=\$m ${name}_cpu=\$cpu"
    eval "rc=\$${name}_rc changed=\$${name}_changed"
    printf '  %-22s median %7.3f s   CPU %7.3f s   peak RSS %6.1f MiB   exit %d, files changed %d\n' \
        "$label" "$t" "$cpu" "$(echo "$m" | mib)" "$rc" "$changed"
    if [ "$rc" -ne 0 ]; then
        grep -ci 'error' "$scratch/$name.out" | awk '{print "  " $1 " error lines; first:"}'
        grep -i 'error' "$scratch/$name.out" | head -n 3 | sed 's/^/    /'
    fi
}

# runs NAME COMMAND...: RUNS runs of it
runs() {
    name=$1; shift
    : > "$scratch/$name.times"
    i=0
    while [ $i -lt "$RUNS" ]; do
        run_once "$name" "$@"
        i=$((i + 1))
    done
}

instructions() {   # instructions ARGS...: callgrind's total for clinic ARGS
    fresh_tree
    instructions_here "$@"
}
instructions_here() {   # the same on the tree as it is
    (cd "$scratch" && valgrind --tool=callgrind --callgrind-out-file="$scratch/cg.out" \
        "$CLINIC" "$@" > /dev/null 2>&1) || true
    sed -n 's/^totals: //p' "$scratch/cg.out"
}

bench_dialect() {   # bench_dialect 3.11|3.13|3.15
dialect=$1
# the tree; the reference, where it is not the tree's own; the dialect
# whose instructions on the same files this one's are set against
reffetch= base=
case $dialect in
    3.11) fetch=fetch.sh; walked="-name *.c -o -name *.h" ;;
    3.13) fetch=fetch313.sh; walked="-name *.c -o -name *.h -o -name *.cpp" ;;
    3.15) fetch=fetch313.sh; reffetch=fetch315.sh; base=3.13
          walked="-name *.c -o -name *.h -o -name *.cpp" ;;
    *) echo "bench: no dialect $dialect (3.11, 3.13 or 3.15)" >&2; exit 1 ;;
esac
paths=$(sh "$here/../conformance/$fetch" "$CACHE")
eval "$paths"
if [ -n "$reffetch" ]; then   # its REFDIR only: the tree stays
    paths=$(sh "$here/../conformance/$reffetch" "$CACHE")
    eval "$paths"
fi
rm -rf "$scratch/tree"
# the walked part of the tree: every file its --make walks, in its directory
# shellcheck disable=SC2086
(cd "$TREE" && set -f && find . -type f \( $walked \)) > "$scratch/list"

# Like for like: files our clinic refuses (it stops early in them) are left
# out for both tools, so both do the same work.  A first run finds them.
fresh_tree
(cd "$scratch" && "$CLINIC" --dialect "$dialect" --make --srcdir tree > "$scratch/probe" 2>&1) || true
sed -n 's|^tree/\([^:]*\):[0-9]*: error:.*|./\1|p' "$scratch/probe" | sort -u > "$scratch/refused"
nrefused=$(wc -l < "$scratch/refused")
grep -vxF -f "$scratch/refused" "$scratch/list" > "$scratch/list2" || true
mv "$scratch/list2" "$scratch/list"
nfiles=$(wc -l < "$scratch/list")

echo "bench $dialect: clinic --dialect $dialect --make over $nfiles files of $(basename "$TREE")," \
    "against $(basename "$(dirname "$(dirname "$REFDIR")")")'s clinic.py, $RUNS runs each, interleaved"
[ "$nrefused" -gt 0 ] && echo "  (left out for both: $nrefused files our clinic refuses:" \
    "$(sed 's|^\./||' "$scratch/refused" | tr '\n' ' '))"
: > "$scratch/ours.times"; : > "$scratch/ref.times"
i=0
while [ $i -lt "$RUNS" ]; do   # interleaved: machine noise hits both alike
    run_once ours "$CLINIC" --dialect "$dialect" --make --srcdir tree
    run_once ref "$PYTHON" "$REFDIR/clinic.py" --make --srcdir tree
    i=$((i + 1))
done
summarize ours clinic
summarize ref clinic.py
# shellcheck disable=SC2154
echo "$ours_t $ref_t" | awk '{ if ($1 > 0) printf "  ratio: clinic is %.1fx faster than clinic.py (median wall time)\n", $2 / $1 }'

# The query modes must cost no more than a plain --make over the same
# tree: --json --make against --make, in wall time and, steadier on a
# shared machine, in instructions (callgrind, one run each).
runs json "$CLINIC" --dialect "$dialect" --json --make --srcdir tree
summarize json "clinic --json"
if command -v valgrind > /dev/null 2>&1; then
    make_ir=$(instructions --dialect "$dialect" --make --srcdir tree)
    json_ir=$(instructions --dialect "$dialect" --json --make --srcdir tree)
    one_ir=$(instructions -j 1 --dialect "$dialect" --make --srcdir tree)
else
    make_ir=0 json_ir=0 one_ir=0
fi
# the stable figure: instructions with one worker (all threads counted)
echo "$one_ir" | awk '{ if ($1 > 0) printf "  instructions, clinic -j 1 --make over the tree: %.0f M (callgrind)\n", $1 / 1e6
                        else print "  instructions: valgrind is missing" }'
# A newer dialect's cost over its base's, on the same files, each tree
# up to date in its dialect (the tree is the base's: the newer dialect
# first rewrites the files whose code it writes otherwise, once, not
# measured), which is the run a user of that dialect makes every time;
# the rewriting run itself is the figure above.
if [ -n "$base" ] && [ "$one_ir" != 0 ]; then
    fresh_tree
    (cd "$scratch" && "$CLINIC" --dialect "$dialect" --make --srcdir tree > /dev/null 2>&1) || true
    settled_ir=$(instructions_here -j 1 --dialect "$dialect" --make --srcdir tree)
    base_ir=$(instructions -j 1 --dialect "$base" --make --srcdir tree)
    echo "$settled_ir $base_ir $one_ir" | awk -v b="$base" '{
        if ($2 > 0) printf "  against --dialect %s on the same files, each up to date: %.0f M against %.0f M, %+.1f%% (%s the 10%% budget); rewriting the base'"'"'s output: %.0f M\n",
            b, $1 / 1e6, $2 / 1e6, 100 * ($1 / $2 - 1), ($1 <= 1.1 * $2) ? "within" : "OVER", $3 / 1e6 }'
fi
# shellcheck disable=SC2154
echo "$ours_t $json_t $make_ir $json_ir" | awk '{
    printf "  --json --make against --make: wall time %.2fx", ($1 > 0) ? $2 / $1 : 0
    if ($3 > 0) printf ", instructions %.3fx (%.0f M against %.0f M)", $4 / $3, $4 / 1e6, $3 / 1e6
    printf "\n" }'

# Linear scaling: the tree twice, side by side (two copies under one
# --srcdir) should cost at most twice the time of one.
fresh_tree
rm -rf "$scratch/tree2"; mkdir "$scratch/tree2"
mv "$scratch/tree" "$scratch/tree2/one"
cp -R "$scratch/tree2/one" "$scratch/tree2/two"
: > "$scratch/double.times"
i=0
while [ $i -lt "$RUNS" ]; do
    rm -rf "$scratch/tree"; cp -R "$scratch/tree2" "$scratch/tree"
    (cd "$scratch" && "$MEASURE" /dev/null "$CLINIC" --dialect "$dialect" --make --srcdir tree) |
        cut -d' ' -f1-3 >> "$scratch/double.times"
    i=$((i + 1))
done
rm -rf "$scratch/tree2"
d_t=$(cut -d' ' -f1 "$scratch/double.times" | median)
d_m=$(cut -d' ' -f2 "$scratch/double.times" | maxof)
d_cpu=$(cut -d' ' -f3 "$scratch/double.times" | median)
# shellcheck disable=SC2154
printf '  tree doubled:          median %7.3f s   CPU %7.3f s   peak RSS %6.1f MiB   (%.2fx the time of one tree)\n' \
    "$d_t" "$d_cpu" "$(echo "$d_m" | mib)" "$(echo "$d_t $ours_t" | awk '{print ($2 > 0) ? $1 / $2 : 0}')"

# Peak memory should follow the largest file, not the tree: each file's
# arena is freed when the file is done.  The largest file holding a
# clinic block, run alone: time and peak RSS, ours and clinic.py's.
fresh_tree
largest=$(cd "$scratch/tree" && grep -l -F '/*[clinic input]' $(cat "$scratch/list") 2>/dev/null |
          xargs ls -l 2>/dev/null | sort -k5,5n | tail -n 1 | awk '{print $NF}')
if [ -n "$largest" ]; then
    size=$(wc -c < "$scratch/tree/$largest")
    : > "$scratch/l_ours.times"; : > "$scratch/l_ref.times"
    i=0
    while [ $i -lt "$RUNS" ]; do
        run_once l_ours "$CLINIC" --dialect "$dialect" "tree/$largest"
        run_once l_ref "$PYTHON" "$REFDIR/clinic.py" "tree/$largest"
        i=$((i + 1))
    done
    echo "  largest clinic file alone: ${largest#./} ($((size / 1024)) KiB)"
    summarize l_ours "  clinic"
    summarize l_ref "  clinic.py"
    # shellcheck disable=SC2154
    echo "$l_ours_t $l_ref_t" | awk '{ if ($1 > 0) printf "    ratio %.1fx\n", $2 / $1 }'
fi
}

for d in ${BENCH_DIALECTS:-3.11 3.13 3.15}; do
    bench_dialect "$d"
done
