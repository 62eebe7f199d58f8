#!/bin/sh
# check_dialect.sh — choosing the dialect, end to end: --dialect (and its
# usage error), the version in the Include/patchlevel.h of the CPython
# tree that holds a file (or --srcdir), the default when there is none,
# --version naming the dialects, and what --make walks in each dialect.
#
#   sh tests/check_dialect.sh [path/to/clinic]
set -u
CLINIC=${1:-${CLINIC:-build/clinic}}
case $CLINIC in /*) ;; *) CLINIC=$(pwd)/$CLINIC ;; esac
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

echo "check_dialect: $passes passed, $failures failed"
[ $failures -eq 0 ]
