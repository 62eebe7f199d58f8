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

# t_begin NAME [CLINIC]: a script's setup: T_NAME; CLINIC (absolute; by
# default the tree's build/clinic, $top being the tree); T_WORK, a scratch
# directory removed on exit (a script with more to undo sets its own trap
# after); T_LOG; is_root
t_begin() {
    T_NAME=$1
    CLINIC=${2:-$top/build/clinic}
    case $CLINIC in /*) ;; *) CLINIC=$(pwd)/$CLINIC ;; esac
    T_WORK=$(mktemp -d "${TMPDIR:-/tmp}/clinic-$1.XXXXXX")
    T_LOG=$T_WORK/log
    trap 'chmod -R u+rwx "$T_WORK" 2>/dev/null; rm -rf "$T_WORK"' EXIT INT TERM
    is_root=false
    [ "$(id -u)" = 0 ] && is_root=true
}

# Counting cases, for the scripts of tests/hardening/ (set T_NAME first):
#   t_ok CASE            a case passed
#   t_bad CASE WHY       a case failed
#   t_cannot CASE WHY    a case cannot run on this machine (not root, no
#                        chattr on this file system, ...): said loudly,
#                        counted apart, never silently skipped
#   t_end                "NAME: N passed, N failed[, N could not run]";
#                        exit status 1 if any failed
t_pass=0 t_fail=0 t_cant=0
t_ok()     { t_pass=$((t_pass + 1)); echo "$T_NAME: ok   $1"; }
t_bad()    { t_fail=$((t_fail + 1)); echo "$T_NAME: FAIL $1: $2"; }
t_cannot() { t_cant=$((t_cant + 1)); echo "$T_NAME: CANNOT RUN $1: $2"; }
t_end() {
    extra=
    [ $t_cant -gt 0 ] && extra=", $t_cant could not run on this machine (see CANNOT RUN above)"
    echo "$T_NAME: $t_pass passed, $t_fail failed$extra"
    [ $t_fail -eq 0 ]
}

# t_run DIR ARGS...: clinic ($CLINIC) in DIR; status in $rc, stdout and
# stderr in $T_LOG
t_run() {
    t_dir=$1; shift
    rc=0
    (cd "$t_dir" && exec "$CLINIC" "$@") > "$T_LOG" 2>&1 || rc=$?
}

# t_refused CASE DIR ARGS...: clinic in DIR must exit 2 with an error
# naming a file, and leave DIR byte for byte as it was (no file, no
# directory, no temp file added)
t_refused() {
    t_case=$1 t_dir=$2; shift 2
    rm -rf "$T_WORK/.before"
    cp -PR "$t_dir" "$T_WORK/.before"
    t_run "$t_dir" "$@"
    if [ $rc -ne 2 ]; then
        t_bad "$t_case" "exit $rc, not 2: $(head -c 300 "$T_LOG")"
    elif ! diff -r --no-dereference "$T_WORK/.before" "$t_dir" > /dev/null 2>&1; then
        t_bad "$t_case" "files changed: $(diff -rq --no-dereference "$T_WORK/.before" "$t_dir" 2>&1 | head -n 3)"
    elif ! grep -q ': error: ' "$T_LOG"; then
        t_bad "$t_case" "no error message: $(head -c 300 "$T_LOG")"
    else
        t_ok "$t_case ($(grep -m1 ': error: ' "$T_LOG"))"
    fi
    rm -rf "$T_WORK/.before"
}
