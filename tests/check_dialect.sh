#!/bin/sh
# check_dialect.sh — choosing the dialect, end to end: --dialect (and its
# usage error), the version in the Include/patchlevel.h of the CPython
# tree that holds a file (or --srcdir), the default when there is none,
# --version naming the dialects, what --make walks in each dialect, and
# --converters and --dry-run against each dialect's reference.
#
#   sh tests/check_dialect.sh [path/to/clinic]
set -u
CLINIC=${1:-${CLINIC:-build/clinic}}
case $CLINIC in /*) ;; *) CLINIC=$(pwd)/$CLINIC ;; esac
top=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${CLINIC_CACHE:-${HOME:-/tmp}/.cache/clinic-conformance}
T=$(mktemp -d "${TMPDIR:-/tmp}/check_dialect.XXXXXX")
trap 'rm -rf "$T"' EXIT
cd "$T" || exit 1
passes=0 failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
pass() { passes=$((passes + 1)); }

# A function whose output tells the dialects apart: 3.11 declares its
# keyword parser in one line, 3.13 with designated initializers, 3.14
# (and 3.15) names the counts of its _PyArg_UnpackKeywords call.
cat >f.c <<'EOF2'
/*[clinic input]
output preset block
module m
[clinic start generated code]*/

/*[clinic input]
m.f
    a: object

F.
[clinic start generated code]*/
EOF2
dialect_of() {   # dialect_of FILE: which dialect's output FILE holds
    if grep -q '/\*minpos\*/' "$1"; then echo 3.14
    elif grep -q '\.fname = "f",' "$1"; then echo 3.13
    elif grep -q '{NULL, _keywords, "f", 0}' "$1"; then echo 3.11
    else echo none; fi
}
patchlevel() {   # patchlevel DIR MAJOR MINOR
    mkdir -p "$1/Include"
    printf '#define PY_MAJOR_VERSION        %s\n#define PY_MINOR_VERSION        %s\n' \
        "$2" "$3" > "$1/Include/patchlevel.h"
}
# expect DIALECT ARGS... -- FILE: run clinic on a fresh copy of f.c
expect() {
    want=$1; shift
    file=$1; shift
    mkdir -p "$(dirname "$file")"
    cp f.c "$file"
    if ! "$CLINIC" "$@" "$file" >out.txt 2>err.txt; then
        fail "clinic $* $file: $(cat err.txt)"
        return
    fi
    got=$(dialect_of "$file")
    [ "$got" = "$want" ] && pass || fail "clinic $* $file wrote $got, not $want"
}

# no tree: the default, 3.11; --dialect wins
expect 3.11 plain/f.c
expect 3.13 plain/f.c --dialect 3.13
expect 3.11 plain/f.c --dialect=3.11

# the tree's version, from the file's own directory or any above it
patchlevel t313 3 13
expect 3.13 t313/f.c
expect 3.13 t313/Modules/deep/f.c
expect 3.11 t313/Modules/f.c --dialect 3.11
patchlevel t311 3 11
expect 3.11 t311/Modules/f.c
# a version between dialects gets the newest one not newer than it
patchlevel t312 3 12
expect 3.11 t312/Modules/f.c
patchlevel t314 3 14
expect 3.14 t314/Modules/f.c
expect 3.13 t314/Modules/f.c --dialect 3.13
patchlevel t316 3 16
expect 3.14 t316/Modules/f.c
# 3.15 tells itself from 3.14 by the width of a docstring's summary line
long_summary() {   # long_summary FILE: a function whose summary is too long
    mkdir -p "$(dirname "$1")"
    sed 's/^F\.$/A summary line that goes on and on and on, well past the seventy-two columns of 3.15./' \
        f.c > "$1"
}
long_summary t314/l.c
"$CLINIC" t314/l.c >out.txt 2>err.txt && pass || fail "3.14 refused a long summary: $(cat err.txt)"
for t in t316/l.c t314/l2.c; do
    long_summary $t
    opt=; [ $t = t314/l2.c ] && opt="--dialect 3.15"
    "$CLINIC" $opt $t >out.txt 2>err.txt && fail "3.15 accepted a long summary ($t)"
    grep -q "Summary line for 'm.f' is too long!" err.txt && pass ||
        fail "3.15, long summary: $(cat err.txt)"
done
# an older tree, or a patchlevel.h without the versions: the default
patchlevel t310 3 10
expect 3.11 t310/f.c
mkdir -p broken/Include && echo "/* nothing */" > broken/Include/patchlevel.h
expect 3.11 broken/f.c

# usage errors
"$CLINIC" --dialect 3.12 f.c >out.txt 2>err.txt
[ $? = 2 ] && pass || fail "--dialect 3.12 did not exit 2"
grep -q "argument --dialect: invalid choice: '3.12' (choose from '3.11', '3.13', '3.14', '3.15')" err.txt && pass ||
    fail "--dialect 3.12: message: $(cat err.txt)"
"$CLINIC" --dialect >out.txt 2>err.txt
[ $? = 2 ] && pass || fail "--dialect without a value did not exit 2"

# --version names the dialects, and the default
"$CLINIC" --version >out.txt 2>&1 && pass || fail "--version failed"
grep -q '^dialect 3.11: .*(the default)$' out.txt && pass || fail "--version: 3.11"
grep -q '^dialect 3.13: ' out.txt && pass || fail "--version: 3.13"
grep -q '^dialect 3.14: ' out.txt && pass || fail "--version: 3.14"
grep -q '^dialect 3.15: ' out.txt && pass || fail "--version: 3.15"
"$CLINIC" --help | grep -q -- '--dialect {3.11,3.13,3.14,3.15}' && pass || fail "--help: --dialect"
# the man page lists the dialects as --version prints them
grep '^dialect ' out.txt > version-dialects.txt
grep '^dialect 3\.[0-9]*: ' "$top/man/clinic.1" | cmp -s - version-dialects.txt && pass ||
    fail "man/clinic.1's --version example is not what --version prints: $(grep '^dialect ' "$top/man/clinic.1")"
sed -n '/^\.BI \\-\\-dialect " version"/,/^\.TP/p' "$top/man/clinic.1" > man-dialect.txt
for d in 3.11 3.13 3.14 3.15; do
    grep -q "^\.R\{0,1\}BR\{0,1\} .*$d" man-dialect.txt && pass ||
        fail "man/clinic.1: --dialect does not list $d"
done

# --make: 3.13 also walks .cpp files; the tree's version applies
mkdir -p mk/Include mk/PC
cp f.c mk/PC/w.cpp
cp f.c mk/PC/c.c
"$CLINIC" --make --srcdir mk >out.txt 2>err.txt && pass || fail "--make 3.11: $(cat err.txt)"
[ "$(dialect_of mk/PC/c.c)" = 3.11 ] && pass || fail "--make without a version: not 3.11"
cmp -s f.c mk/PC/w.cpp && pass || fail "3.11's --make processed a .cpp file"
patchlevel mk 3 13
cp f.c mk/PC/c.c
"$CLINIC" --make --srcdir mk >out.txt 2>err.txt && pass || fail "--make 3.13: $(cat err.txt)"
[ "$(dialect_of mk/PC/c.c)" = 3.13 ] && pass || fail "--make of a 3.13 tree: .c not 3.13"
[ "$(dialect_of mk/PC/w.cpp)" = 3.13 ] && pass || fail "--make of a 3.13 tree: .cpp not processed"

# --limited: the Limited C API without Py_LIMITED_API in the file (3.13)
cp f.c lim.c
"$CLINIC" --dialect 3.13 --limited lim.c >out.txt 2>err.txt && pass || fail "--limited: $(cat err.txt)"
grep -q 'PyArg_ParseTupleAndKeywords(args, kwargs' lim.c && pass || fail "--limited: no Limited C API code"
cp f.c lim.c
"$CLINIC" --dialect 3.11 --limited lim.c >out.txt 2>err.txt && pass || fail "--limited 3.11: $(cat err.txt)"
[ "$(dialect_of lim.c)" = 3.11 ] && pass || fail "--limited changed 3.11's output"

# --converters lists the dialect's converters
"$CLINIC" --converters --dialect 3.13 | grep -q '^    object()$' && pass ||
    fail "--converters --dialect 3.13: no object()"
"$CLINIC" --converters | grep -q '^    NoneType()$' && pass || fail "--converters: no NoneType()"

# --converters and --dry-run against each dialect's reference clinic.py,
# run by Debian's python3 (3.11.2: the interpreter whose set orders
# --converters follows).  The lines of a reference's listing that clinic
# does not list yet are named in tests/conformance/converters-pending
# ("DIALECT LINE", and "DIALECT ours: LINE" for what clinic prints in its
# place); the rest must be the reference's, in its order, and a pending
# line clinic lists, or one the reference does not, fails.
REF_PYTHON=${REF_PYTHON:-/usr/bin/python3}
pending=$top/tests/conformance/converters-pending
if ! "$REF_PYTHON" -c 'import sys; assert sys.version_info[:3] == (3, 11, 2)' 2>/dev/null; then
    echo "CANNOT RUN: --converters and --dry-run against the references: $REF_PYTHON is not Debian bookworm's python3 3.11.2"
    failures=$((failures + 1))
else
    for d in 3.11 3.13 3.14 3.15; do
        case $d in
            3.11) f=fetch.sh ;; 3.13) f=fetch313.sh ;; 3.14) f=fetch314.sh ;; 3.15) f=fetch315.sh ;;
        esac
        REFDIR=
        eval "$(sh "$top/tests/conformance/$f" "$CACHE" 2>/dev/null)" || true
        if [ ! -f "$REFDIR/clinic.py" ]; then
            fail "the $d reference could not be fetched into $CACHE"
            continue
        fi
        eval "ref_$(echo $d | tr -d .)=\$REFDIR"
        "$REF_PYTHON" "$REFDIR/clinic.py" --converters >ref.txt 2>&1
        "$CLINIC" --dialect $d --converters >ours.txt 2>&1
        sed -n "/^$d ours: /d; s/^$d //p" "$pending" >pend.txt
        sed -n "s/^$d ours: //p" "$pending" >pend_ours.txt
        grep -vxF -f pend.txt ref.txt >want.txt || true
        [ -s pend.txt ] || cp ref.txt want.txt
        grep -vxF -f pend_ours.txt ours.txt >got.txt || true
        [ -s pend_ours.txt ] || cp ours.txt got.txt
        if [ -s pend_ours.txt ] &&
           [ "$(grep -cxF -f pend_ours.txt ours.txt)" != "$(grep -c . pend_ours.txt)" ]; then
            fail "converters-pending: clinic no longer prints, with --dialect $d: $(grep -vxF -f ours.txt pend_ours.txt)"
        elif cmp -s want.txt got.txt; then pass; else
            fail "--converters --dialect $d differs from its reference's (pending lines aside): $(diff want.txt ours.txt | head -20)"
        fi
        missing=$(grep -vxF -f ref.txt pend.txt)
        [ -z "$missing" ] && pass || fail "converters-pending names lines the $d reference does not print: $missing"
    done
    # --dry-run: the same list as 3.14's and 3.15's, in a tree with a
    # routed file, a fresh file and -o, as given and under --make
    mkdir dry && cd dry
    printf '/*[clinic input]\noutput preset file\nmodule m\n[clinic start generated code]*/\n\n/*[clinic input]\nm.f\n    a: int\n[clinic start generated code]*/\n' >b.c
    mkdir sub && cp b.c sub/a.c
    for d in 3.14 3.15; do
        eval "refdir=\${ref_$(echo $d | tr -d .):-}"
        [ -n "$refdir" ] || continue
        for args in "sub/a.c b.c" "./sub/a.c ./b.c" "--make --srcdir ./" "--make --srcdir sub/" \
                    "-o out.c b.c" "$PWD/b.c" "b.c b.c"; do
            # shellcheck disable=SC2086
            "$REF_PYTHON" "$refdir/clinic.py" --dry-run $args >ref.txt 2>&1; rrc=$?
            # shellcheck disable=SC2086
            "$CLINIC" --dialect $d --dry-run $args >ours.txt 2>&1; orc=$?
            # a file named twice is listed once by clinic
            [ "$args" = "b.c b.c" ] && uniq ref.txt >ref1.txt && mv ref1.txt ref.txt
            grep -v '^would' ref.txt >/dev/null && fail "--dry-run $args: the $d reference failed: $(cat ref.txt)"
            [ "$rrc" = "$orc" ] && cmp -s ref.txt ours.txt && pass ||
                fail "--dialect $d --dry-run $args: exit $orc, not $rrc: $(diff ref.txt ours.txt)"
        done
        [ ! -e clinic ] && [ ! -e sub/clinic ] && [ ! -e out.c ] && pass || fail "--dry-run $d created files"
    done
    cd ..
fi

echo "check_dialect: $passes passed, $failures failed"
[ $failures -eq 0 ]
