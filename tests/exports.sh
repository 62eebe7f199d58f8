#!/bin/sh
# make exports: every function the library exports (a global symbol of
# one of its object files) must be called from outside its own file: by
# another file of lib/, by the command (clinic/) or by a test.  One that
# nothing else calls belongs in its file as static, or nowhere.
# Usage: exports.sh [BUILD]   (BUILD: the build folder of make, "build")
# Ends with "exports: N passed, N failed" (one case per exported function).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
B=${1:-build}
CC=${CC:-cc}
[ -f "$B/libclinic.a" ] || { echo "exports: $B/libclinic.a is missing (make first)"; exit 1; }
scratch=$(mktemp -d "${TMPDIR:-/tmp}/clinic-exports.XXXXXX")
trap 'rm -rf "$scratch"' EXIT INT TERM

# the users outside the library, compiled alone: the command and the tests
flags="-std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -Ilib -Itests/unit $(pkg-config --cflags libpcre2-8 check 2>/dev/null)"
n=0
for src in clinic/*.c tests/unit/check_*.c tests/pyvm/pyvm_run.c tests/fuzz/*.c; do
    [ -f "$src" ] || continue
    n=$((n + 1))
    # shellcheck disable=SC2086
    $CC $flags -c -o "$scratch/user$n.o" "$src" ||
        { echo "exports: cannot compile $src"; exit 1; }
done

# "FILE SYMBOL" for each defined global function, and each reference
nm -A "$B/libclinic.a" 2>/dev/null | awk '$2 == "T" { split($1, a, ":"); print a[2], $3 }' |
    sort > "$scratch/defined"
{ nm -A "$B/libclinic.a" 2>/dev/null; nm -A "$scratch"/user*.o; } |
    awk 'NF == 2 && $1 ~ /:$/ { next } $(NF-1) == "U" { split($1, a, ":"); f = a[2] != "" ? a[2] : a[1]; print f, $NF }' |
    sort -u > "$scratch/used"

pass=0 nfail=0
while read -r file sym; do
    if awk -v f="$file" -v s="$sym" '$2 == s && $1 != f { found = 1; exit } END { exit !found }' "$scratch/used"; then
        pass=$((pass + 1))
    else
        nfail=$((nfail + 1))
        if grep -q "\b$sym\b" "$scratch/used" 2>/dev/null ||
           [ "$(nm "$B/libclinic.a" 2>/dev/null | grep -c " [tT] $sym$")" -gt 0 ] &&
           grep -rqw "$sym" --include='*.c' lib | grep -q . ; then :; fi
        echo "FAIL exports: $sym (${file%.o}.c) is called from nowhere outside its file: make it static, or remove it"
    fi
done < "$scratch/defined"
echo "exports: $pass passed, $nfail failed"
[ $nfail -eq 0 ]
