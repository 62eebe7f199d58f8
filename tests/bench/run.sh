#!/bin/sh
# make bench: our clinic against the reference clinic.py on the same
# pristine CPython tree (the files its --make walks, copied afresh for
# every run), both in --make mode, for each dialect: 3.11's clinic.py on
# the CPython 3.11.2 tree, 3.13's on the 3.13.5 tree; then clinic --json
# --make against --make.  Reports the median wall time of RUNS runs
# (default 5), the ratio, and the peak resident memory.  Not a test: it
# fails only if a tool cannot be run at all.
#   usage: run.sh [CLINIC]          (default clinic/clinic)
#   CLINIC_CACHE, PYTHON, RUNS      as for make conformance
#   BENCH_DIALECTS                  default "3.11 3.13"
set -eu
here=$(cd "$(dirname "$0")" && pwd)
CLINIC=${1:-clinic/clinic}
case $CLINIC in /*) ;; *) CLINIC=$(pwd)/$CLINIC ;; esac
CACHE=${CLINIC_CACHE:-${HOME:-/tmp}/.cache/clinic-conformance}
PYTHON=${PYTHON:-python3}
RUNS=${RUNS:-5}
[ -x /usr/bin/time ] || { echo "bench: /usr/bin/time is missing (make deps)" >&2; exit 1; }
[ -x "$CLINIC" ] || { echo "bench: $CLINIC is not built" >&2; exit 1; }
scratch=$(mktemp -d "${TMPDIR:-/tmp}/clinic-bench.XXXXXX")
trap 'rm -rf "$scratch"' EXIT INT TERM

bench_dialect() {   # bench_dialect 3.11|3.13
dialect=$1
case $dialect in
    3.11) fetch=fetch.sh; walked="-name *.c -o -name *.h" ;;
    3.13) fetch=fetch313.sh; walked="-name *.c -o -name *.h -o -name *.cpp" ;;
esac
paths=$(sh "$here/../conformance/$fetch" "$CACHE")
eval "$paths"
rm -rf "$scratch/tree"
# the walked part of the tree: every file its --make walks, in its directory
# shellcheck disable=SC2086
(cd "$TREE" && set -f && find . -type f \( $walked \)) > "$scratch/list"

# Like for like: files our clinic refuses (it stops early in them) are left
# out for both tools, so both do the same work.  A first run finds them.
mkdir "$scratch/tree"
(cd "$TREE" && tar cf - -T "$scratch/list") | (cd "$scratch/tree" && tar xf -)
(cd "$scratch" && "$CLINIC" --dialect "$dialect" --make --srcdir tree > "$scratch/probe" 2>&1) || true
sed -n 's|^tree/\([^:]*\):[0-9]*: error:.*|./\1|p' "$scratch/probe" | sort -u > "$scratch/refused"
nrefused=$(wc -l < "$scratch/refused")
grep -vxF -f "$scratch/refused" "$scratch/list" > "$scratch/list2" || true
mv "$scratch/list2" "$scratch/list"
nfiles=$(wc -l < "$scratch/list")

median() { sort -n | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
maxof() { sort -n | tail -n 1; }

bench() {   # bench VAR LABEL COMMAND...   (run in a fresh copy, as --srcdir tree)
    name=$1 label=$2; shift 2
    : > "$scratch/$name.times"
    i=0
    while [ $i -lt "$RUNS" ]; do
        rm -rf "$scratch/tree"
        mkdir "$scratch/tree"
        (cd "$TREE" && tar cf - -T "$scratch/list") | (cd "$scratch/tree" && tar xf -)
        rc=0
        (cd "$scratch" && /usr/bin/time -f '%e %M' -o "$scratch/t" "$@" > "$scratch/$name.out" 2>&1) || rc=$?
        tail -n 1 "$scratch/t" >> "$scratch/$name.times"
        # files the run changed (there should be none: the tree is pristine)
        changed=$(cd "$scratch/tree" && find . -type f -newer "$scratch/list" | wc -l)
        i=$((i + 1))
    done
    t=$(cut -d' ' -f1 "$scratch/$name.times" | median)
    m=$(cut -d' ' -f2 "$scratch/$name.times" | maxof)
    eval "${name}_t=\$t ${name}_m=\$m ${name}_rc=\$rc ${name}_changed=\$changed"
    printf '  %-22s median %7.2f s   peak RSS %7.1f MiB   exit %d, files changed %d\n' \
        "$label" "$t" "$(echo "$m" | awk '{print $1/1024}')" "$rc" "$changed"
    if [ "$rc" -ne 0 ]; then
        grep -ci 'error' "$scratch/$name.out" | awk '{print "  " $1 " error lines; first:"}'
        grep -i 'error' "$scratch/$name.out" | head -n 3 | sed 's/^/    /'
    fi
}

echo "bench $dialect: clinic --make over $nfiles files of $(basename "$TREE"), $RUNS runs each"
[ "$nrefused" -gt 0 ] && echo "  (left out for both: $nrefused files our clinic refuses:" \
    "$(sed 's|^\./||' "$scratch/refused" | tr '\n' ' '))"
bench ours clinic "$CLINIC" --dialect "$dialect" --make --srcdir tree
bench ref clinic.py "$PYTHON" "$REFDIR/clinic.py" --make --srcdir tree
# shellcheck disable=SC2154
echo "$ours_t $ref_t" | awk '{ if ($1 > 0) printf "  ratio: clinic is %.1fx faster than clinic.py (median wall time)\n", $2 / $1 }'

# The query modes must cost no more than a plain --make over the same
# tree: --json --make against --make, in wall time and, steadier on a
# shared machine, in instructions (callgrind, one run each).
bench json "clinic --json" "$CLINIC" --dialect "$dialect" --json --make --srcdir tree
instructions() {   # instructions ARGS...: callgrind's total for clinic ARGS
    rm -rf "$scratch/tree"
    mkdir "$scratch/tree"
    (cd "$TREE" && tar cf - -T "$scratch/list") | (cd "$scratch/tree" && tar xf -)
    (cd "$scratch" && valgrind --tool=callgrind --callgrind-out-file="$scratch/cg.out" \
        "$CLINIC" "$@" > /dev/null 2>&1) || true
    sed -n 's/^totals: //p' "$scratch/cg.out"
}
if command -v valgrind > /dev/null 2>&1; then
    make_ir=$(instructions --dialect "$dialect" --make --srcdir tree)
    json_ir=$(instructions --dialect "$dialect" --json --make --srcdir tree)
else
    make_ir=0 json_ir=0
fi
# shellcheck disable=SC2154
echo "$ours_t $json_t $make_ir $json_ir" | awk '{
    printf "  --json --make against --make: wall time %.2fx", ($1 > 0) ? $2 / $1 : 0
    if ($3 > 0) printf ", instructions %.3fx (%.0f M against %.0f M)", $4 / $3, $4 / 1e6, $3 / 1e6
    printf "\n" }'

# Peak memory should follow the largest file, not the tree: each file's
# arena is freed when the file is done.  Our peak RSS on the largest file
# holding a clinic block, run alone, against the whole-tree figure above.
rm -rf "$scratch/tree"
mkdir "$scratch/tree"
(cd "$TREE" && tar cf - -T "$scratch/list") | (cd "$scratch/tree" && tar xf -)
largest=$(cd "$scratch/tree" && grep -l -F '/*[clinic input]' $(cat "$scratch/list") 2>/dev/null |
          xargs ls -l 2>/dev/null | sort -k5,5n | tail -n 1 | awk '{print $NF}')
if [ -n "$largest" ]; then
    (cd "$scratch" && /usr/bin/time -f '%M' -o "$scratch/t1" "$CLINIC" --dialect "$dialect" "tree/$largest" > /dev/null 2>&1) || true
    one=$(tail -n 1 "$scratch/t1")
    size=$(wc -c < "$scratch/tree/$largest")
    # shellcheck disable=SC2154
    printf '  peak RSS: whole tree %.1f MiB; largest clinic file alone (%s, %d KiB) %.1f MiB\n' \
        "$(echo "$ours_m" | awk '{print $1/1024}')" "${largest#./}" "$((size / 1024))" \
        "$(echo "$one" | awk '{print $1/1024}')"
fi
}

for d in ${BENCH_DIALECTS:-3.11 3.13}; do
    bench_dialect "$d"
done
