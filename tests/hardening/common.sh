# shellcheck shell=sh
# common.sh — helpers shared by the hardening scripts (sourced, not run).
#
#   find_cpython_tree       prints a CPython 3.11 source tree, or nothing:
#                           $CLINIC_TREE, the conformance cache
#                           ($CLINIC_CACHE, default ~/.cache/clinic-conformance),
#                           then /work/ref/Python-3.11.2
#   find_reference          prints clinic.py (for comparisons), or nothing
#   now_ms                  milliseconds since the epoch
#   random_below N          a random integer in [0, N)
#   snapshot_equal A B      exit 0 when directory trees A and B hold the
#                           same files with the same bytes

cache_dir() {
    echo "${CLINIC_CACHE:-${HOME:-/tmp}/.cache/clinic-conformance}"
}

find_cpython_tree() {
    for t in "${CLINIC_TREE:-}" $(ls -d "$(cache_dir)"/src/Python-3.11*/ 2>/dev/null) \
             /work/ref/Python-3.11.2; do
        if [ -n "$t" ] && [ -f "$t/Modules/posixmodule.c" ]; then
            echo "${t%/}"
            return
        fi
    done
}

find_reference() {
    for r in "${CLINIC_PY:-}" \
             "$(cache_dir)/ref/usr/share/doc/python3.11/examples/clinic/clinic.py" \
             /work/ref/usr/share/doc/python3.11/examples/clinic/clinic.py; do
        if [ -n "$r" ] && [ -f "$r" ] && [ -f "$(dirname "$r")/cpp.py" ]; then
            echo "$r"
            return
        fi
    done
}

now_ms() {
    t=$(date +%s%N 2>/dev/null)
    case $t in *N|'') echo $(($(date +%s) * 1000)) ;; *) echo $((t / 1000000)) ;; esac
}

random_below() {
    r=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
    echo $((r % $1))
}

snapshot_equal() {
    diff -r --no-dereference "$1" "$2" > /dev/null 2>&1
}
