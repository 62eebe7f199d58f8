#!/bin/sh
# malformed.sh CLINIC: malformed and extreme inputs too big or too odd to
# commit as fixtures (fixtures/malformed/ holds the rest).
#
#   huge inputs       a line of a megabyte (in text, in a docstring, at the
#                     end without a newline), 2000 parameters, 300 nested
#                     optional groups: clinic must produce what clinic.py
#                     produces (when clinic.py is found; else: succeed and
#                     be stable on a second run)
#   resource bounds   1000 nested groups within HARDENING_MEMLIMIT_KB of
#                     virtual memory (default 1 GB; 0 = no limit, for
#                     sanitizer builds) and 60 s.  The generated switch
#                     grows with the square of the depth: at 2000 clinic.py
#                     itself peaks at 0.9 GB (we at 1.5 GB)
#   garbage           random bytes, an empty file, a directory named x.c,
#                     a missing file: no crash; errors leave files alone
#   self-destination  a file destination that resolves to the input file,
#                     spelled four ways: refused, file unchanged
#   read-only         a read-only directory: refused, file unchanged, no
#                     temp file; a read-only file in a writable directory:
#                     refused too (clinic.py silently replaces it), file
#                     and mode unchanged, no stray file
#                     (run as nobody through setpriv when we are root)
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/common.sh"
CLINIC=${1:-$top/build/clinic}
case $CLINIC in /*) ;; *) CLINIC=$(pwd)/$CLINIC ;; esac
REF=$(find_reference)
PYTHON=${PYTHON:-python3}
MEMLIMIT=${HARDENING_MEMLIMIT_KB:-1048576}

work=$(mktemp -d "${TMPDIR:-/tmp}/clinic-malformed.XXXXXX")
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT INT TERM
pass=0 fails=0
ok()  { pass=$((pass + 1)); echo "malformed: ok   $1"; }
bad() { fails=$((fails + 1)); echo "malformed: FAIL $1: $2"; }

# run DIR FILE [ARGS]: clinic in DIR; status in $rc, output in $work/log
run() {
    d=$1; shift
    rc=0
    (cd "$d" && exec "$CLINIC" "$@") > "$work/log" 2>&1 || rc=$?
    if [ $rc -gt 128 ]; then
        echo "    clinic died with signal $((rc - 128))"
    fi
}

# like_reference NAME: $work/NAME/s.c through clinic and clinic.py
like_reference() {
    name=$1
    cp -R "$work/$name" "$work/$name.ref"
    run "$work/$name" s.c
    if [ $rc -ne 0 ]; then
        bad "$name" "clinic exited $rc: $(head -c 300 "$work/log")"
        return
    fi
    if [ -n "$REF" ]; then
        (cd "$work/$name.ref" && "$PYTHON" "$REF" s.c) > /dev/null 2>&1
        if cmp -s "$work/$name/s.c" "$work/$name.ref/s.c"; then ok "$name"
        else bad "$name" "output differs from clinic.py's"; fi
    else
        cp "$work/$name/s.c" "$work/$name/first.c"
        run "$work/$name" s.c
        if [ $rc -eq 0 ] && cmp -s "$work/$name/s.c" "$work/$name/first.c"; then
            ok "$name (no clinic.py: second run stable)"
        else
            bad "$name" "a second run failed or changed the file"
        fi
    fi
    rm -rf "${work:?}/$name" "${work:?}/$name.ref"
}

# refused NAME DIR FILE [ARGS]: clinic must fail, the directory unchanged
refused() {
    name=$1 d=$2; shift 2
    cp -R "$d" "$work/before"
    run "$d" "$@"
    if [ $rc -eq 0 ]; then
        bad "$name" "clinic exited 0"
    elif [ $rc -gt 128 ]; then
        bad "$name" "clinic crashed"
    elif ! snapshot_equal "$work/before" "$d"; then
        bad "$name" "files changed: $(diff -rq "$work/before" "$d" | head -n 3)"
    elif ! grep -q 'error: ' "$work/log"; then
        bad "$name" "no error message: $(head -c 200 "$work/log")"
    else
        ok "$name"
    fi
    rm -rf "$work/before"
}

# ---- huge inputs --------------------------------------------------------------
gen() {   # gen NAME PYTHON-EXPRESSION: $work/NAME/s.c from a Python string
    mkdir -p "$work/$1"
    "$PYTHON" -c "import sys; sys.stdout.write($2)" > "$work/$1/s.c"
}
BLOCK="'/*[clinic input]\nmodule m\nm.f\n    a: int\n\nDoc.\n[clinic start generated code]*/\n'"
gen megabyte-text "'/* ' + 'x' * (1 << 20) + ' */\n' + $BLOCK"
like_reference megabyte-text
gen megabyte-docstring "'/*[clinic input]\nmodule m\nm.f\n    a: int\n\n' + 'y' * (1 << 20) + '\n[clinic start generated code]*/\n'"
like_reference megabyte-docstring
gen megabyte-no-newline "$BLOCK + 'z' * (1 << 20)"
like_reference megabyte-no-newline
gen many-parameters "'/*[clinic input]\nmodule m\nm.f\n' + ''.join('    a%d: int = %d\n' % (i, i) for i in range(2000)) + '\nDoc.\n[clinic start generated code]*/\n'"
like_reference many-parameters
gen nested-groups "'/*[clinic input]\nmodule m\nm.f\n' + '    [\n' * 300 + ''.join('    g%d: int\n    ]\n' % i for i in range(300)) + '    x: int\n    /\n\nDoc.\n[clinic start generated code]*/\n'"
like_reference nested-groups
gen nested-groups-right "'/*[clinic input]\nmodule m\nm.f\n    x: int\n' + ''.join('    [\n    g%d: int\n' % i for i in range(300)) + '    ]\n' * 300 + '    /\n\nDoc.\n[clinic start generated code]*/\n'"
like_reference nested-groups-right

# ---- resource bounds ------------------------------------------------------------
gen deep-groups "'/*[clinic input]\nmodule m\nm.f\n' + '    [\n' * 1000 + ''.join('    g%d: int\n    ]\n' % i for i in range(1000)) + '    x: int\n    /\n\nDoc.\n[clinic start generated code]*/\n'"
rc=0
if [ "$MEMLIMIT" != 0 ]; then
    (cd "$work/deep-groups" && ulimit -v "$MEMLIMIT" && exec timeout 60 "$CLINIC" s.c) > "$work/log" 2>&1 || rc=$?
else
    (cd "$work/deep-groups" && exec timeout 60 "$CLINIC" s.c) > "$work/log" 2>&1 || rc=$?
fi
if [ $rc -eq 0 ]; then ok "deep-groups (1000 nested groups within bounds)"
else bad deep-groups "1000 nested groups: exit $rc within ${MEMLIMIT} kB and 60 s: $(head -c 200 "$work/log")"; fi
rm -rf "$work/deep-groups"

# ---- garbage ----------------------------------------------------------------------
mkdir -p "$work/garbage"
head -c 65536 /dev/urandom > "$work/garbage/s.c"
run "$work/garbage" s.c
if [ $rc -gt 128 ]; then bad random-bytes "clinic crashed"; else ok random-bytes; fi
{ printf '/*[clinic input]\n'; head -c 4096 /dev/urandom | tr -d '\000' | LC_ALL=C tr -c '[:print:]\n' 'x'; } > "$work/garbage/s.c"
run "$work/garbage" s.c
if [ $rc -gt 128 ]; then bad random-block "clinic crashed"; else ok random-block; fi
: > "$work/garbage/s.c"
run "$work/garbage" s.c
if [ $rc -eq 0 ] && [ ! -s "$work/garbage/s.c" ]; then ok empty-file; else bad empty-file "exit $rc"; fi
rm -f "$work/garbage/s.c"
mkdir "$work/garbage/dir.c"
refused directory-as-input "$work/garbage" dir.c
rmdir "$work/garbage/dir.c"
refused missing-input "$work/garbage" missing.c

# ---- self-destination -------------------------------------------------------------------
mkdir -p "$work/self/sub"
for spelling in "{path}" "{dirname}/{basename}" "./{basename}" "{dirname}/../sub/{basename}"; do
    printf "/*[clinic input]\ndestination self new file '%s'\noutput everything self\n[clinic start generated code]*/\n/*[clinic input]\nspam\n[clinic start generated code]*/\n" \
        "$spelling" > "$work/self/sub/s.c"
    refused "self-destination $spelling" "$work/self/sub" s.c
done
rm -rf "$work/self"

# ---- read-only --------------------------------------------------------------------------
# as nobody when we are root (root writes anywhere)
as_user=
if [ "$(id -u)" = 0 ]; then
    if command -v setpriv > /dev/null; then
        as_user="setpriv --reuid=nobody --regid=nogroup --clear-groups"
    else
        bad read-only "running as root without setpriv: cannot drop privileges"
    fi
fi
mkdir -p "$work/ro"
cp "$CLINIC" "$work/ro/clinic"
chmod 755 "$work" "$work/ro" "$work/ro/clinic"
printf '/*[clinic input]\nmodule m\n[clinic start generated code]*/\n' > "$work/ro/s.c"

mkdir -p "$work/ro/dir"
cp "$work/ro/s.c" "$work/ro/dir/s.c"
chmod 666 "$work/ro/dir/s.c"
chmod 555 "$work/ro/dir"
cp -R "$work/ro/dir" "$work/before"
rc=0
(cd "$work/ro/dir" && $as_user ../clinic s.c) > "$work/log" 2>&1 || rc=$?
if [ $rc -eq 0 ] || [ $rc -gt 128 ]; then
    bad read-only-directory "clinic exited $rc"
elif ! snapshot_equal "$work/before" "$work/ro/dir"; then
    bad read-only-directory "the directory changed"
else
    ok "read-only-directory ($(head -n 1 "$work/log"))"
fi
chmod 755 "$work/ro/dir"
rm -rf "$work/before"

mkdir -p "$work/ro/file"
cp "$work/ro/s.c" "$work/ro/file/s.c"
chmod 444 "$work/ro/file/s.c"
chmod 777 "$work/ro/file"
rc=0
(cd "$work/ro/file" && $as_user ../clinic s.c) > "$work/log" 2>&1 || rc=$?
mode=$(ls -l "$work/ro/file/s.c" | cut -c1-10)
if [ $rc -eq 0 ]; then
    bad read-only-file "clinic rewrote a read-only file (exit 0)"
elif ! cmp -s "$work/ro/s.c" "$work/ro/file/s.c"; then
    bad read-only-file "the file changed"
elif [ "$mode" != "-r--r--r--" ]; then
    bad read-only-file "mode is now $mode"
elif ! grep -q "s.c: error: file is read-only" "$work/log"; then
    bad read-only-file "no clear message: $(head -n 1 "$work/log")"
elif [ "$(ls -A "$work/ro/file" | grep -v '^clinic$' | wc -l)" -ne 1 ]; then
    bad read-only-file "stray files: $(ls -A "$work/ro/file")"
else
    ok "read-only-file (refused: $(head -n 1 "$work/log"))"
fi

echo "malformed: $pass passed, $fails failed"
[ $fails -eq 0 ]
