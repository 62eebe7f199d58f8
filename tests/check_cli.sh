#!/bin/sh
# check_cli.sh — the command line end to end: usage errors and exit
# codes, --check/--diff writing nothing, atomic writes leaving unchanged
# files alone, -o, --make (skipped directories, --exclude, one bad file
# not stopping the others).  Inputs are blocks of directives only, whose
# expected output clinic.py produced.
#
#   sh tests/check_cli.sh [path/to/clinic]
set -u
CLINIC=${1:-${CLINIC:-clinic/clinic}}
case $CLINIC in /*) ;; *) CLINIC=$(pwd)/$CLINIC ;; esac
T=$(mktemp -d /tmp/check_cli.XXXXXX)
trap 'rm -rf "$T"' EXIT
cd "$T" || exit 1
failures=0

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
# expect_status WANT CMD...: run CMD, compare its exit status
expect_status() {
    want=$1; shift
    "$@" >out.txt 2>err.txt
    got=$?
    [ "$got" = "$want" ] || fail "$* exited $got, not $want: $(cat err.txt)"
}

cat >in.c <<'EOF'
int a;
/*[clinic input]
module foo
[clinic start generated code]*/
int b;
    /*[clinic input]
class foo.Bar "X *" "&T"
[clinic start generated code]*/
end
EOF
cat >expected.c <<'EOF'
int a;
/*[clinic input]
module foo
[clinic start generated code]*/
/*[clinic end generated code: output=da39a3ee5e6b4b0d input=bb0565424c99751c]*/
int b;
/*[clinic input]
class foo.Bar "X *" "&T"
[clinic start generated code]*/
/*[clinic end generated code: output=da39a3ee5e6b4b0d input=fc7851da1dc70fe3]*/
end
EOF

cp in.c pristine.c

# --- usage errors: exit 2 -------------------------------------------------
expect_status 2 "$CLINIC"
expect_status 2 "$CLINIC" --converters in.c
grep -q "Usage error: can't specify --converters and a filename at the same time." err.txt ||
    fail "--converters with a file: message"
expect_status 2 "$CLINIC" --make in.c
grep -q "Usage error: can't use -o or filenames with --make." err.txt ||
    fail "--make with a file: message"
expect_status 2 "$CLINIC" --make --srcdir ''
grep -q "Usage error: --srcdir must not be empty with --make." err.txt ||
    fail "empty --srcdir: message"
expect_status 2 "$CLINIC" -o x.c in.c in.c
grep -q "Usage error: can't use -o with multiple filenames." err.txt ||
    fail "-o with two files: message"
expect_status 2 "$CLINIC" --no-such-option in.c
expect_status 2 "$CLINIC" -o
expect_status 0 "$CLINIC" --version
grep -q '^clinic ' out.txt || fail "--version output"
expect_status 0 "$CLINIC" --help
grep -q 'exit status' out.txt || fail "--help documents the exit status"

# --- file errors: exit 2 ----------------------------------------------------
expect_status 2 "$CLINIC" x.py
grep -q "x.py: error: Can't identify file type for file 'x.py'" err.txt ||
    fail "python file refused: $(cat err.txt)"
expect_status 2 "$CLINIC" missing.c

# --- --check and --diff write nothing ---------------------------------------
cp in.c work.c
expect_status 1 "$CLINIC" --check work.c
[ "$(cat out.txt)" = "work.c" ] || fail "--check lists work.c: $(cat out.txt)"
cmp -s work.c in.c || fail "--check wrote the file"
expect_status 1 "$CLINIC" --diff work.c
head -3 out.txt | tr '\n' ' ' | grep -q -- '^diff --git a/work.c b/work.c --- a/work.c +++ b/work.c' ||
    fail "--diff headers"
cmp -s work.c in.c || fail "--diff wrote the file"
patch -s work.c <out.txt && cmp -s work.c expected.c || fail "--diff applies"
cp in.c work.c

# --- writing -----------------------------------------------------------------
chmod 640 work.c
expect_status 0 "$CLINIC" -v work.c
[ "$(cat out.txt)" = "work.c" ] || fail "-v prints the file name"
cmp -s work.c expected.c || fail "written output differs from clinic.py's"
[ "$(stat -c %a work.c)" = 640 ] || fail "permission bits not kept"
touch -d '2001-01-01 00:00' work.c
expect_status 0 "$CLINIC" work.c
[ "$(stat -c %Y work.c)" = "$(date -d '2001-01-01 00:00' +%s)" ] ||
    fail "an unchanged file was rewritten"
expect_status 0 "$CLINIC" --check work.c
[ -z "$(ls -A | grep clinic-)" ] || fail "temp file left behind"

# -o: the input stays, the output is written
expect_status 0 "$CLINIC" -o out.c in.c
cmp -s out.c expected.c || fail "-o output"
cmp -s in.c pristine.c || fail "-o touched the input"

# a checksum mismatch fails, -f accepts it
sed '4a\
tampered' expected.c >tampered.c
expect_status 2 "$CLINIC" tampered.c
grep -q 'Checksum mismatch!' err.txt || fail "tampered output accepted"
expect_status 0 "$CLINIC" -f tampered.c
cmp -s tampered.c expected.c || fail "-f regenerates"

# --- --make -------------------------------------------------------------------
mkdir -p tree/a tree/.git tree/build tree/b
cp in.c tree/a/x.c
cp in.c tree/.git/skipped.c
cp in.c tree/build/skipped.c
cp in.c tree/b/excluded.c
printf '/*[clinic input]\nbogus line (\n[clinic start generated code]*/\n' >tree/a/bad.c
cp in.c tree/b/y.h
echo 'no markers here' >tree/b/plain.c
expect_status 2 "$CLINIC" --make --srcdir tree --exclude b/excluded.c -v
cmp -s tree/a/x.c expected.c || fail "--make: x.c not processed"
cmp -s tree/b/y.h expected.c || fail "--make: the error in bad.c stopped y.h"
cmp -s tree/.git/skipped.c in.c || fail "--make: .git not skipped"
cmp -s tree/build/skipped.c in.c || fail "--make: build not skipped"
cmp -s tree/b/excluded.c in.c || fail "--make: --exclude ignored"
grep -q 'tree/a/bad.c:2: error:' err.txt || fail "--make: error not reported"
grep -qx 'tree/b/plain.c' out.txt || fail "--make -v lists every .c/.h file"

if [ "$failures" -ne 0 ]; then
    echo "check_cli: $failures failure(s)"
    exit 1
fi
echo "check_cli: all passed"
