#!/bin/sh
# check_cli.sh — the command line end to end: usage errors and exit
# codes, --check/--diff writing nothing, atomic writes leaving unchanged
# files alone, -o, --make (skipped directories, --exclude, one bad file
# not stopping the others); the exit status scheme for CI (0 fresh, 1
# would change, 2 error, in every mode), the summary line and -q,
# --exit-non-zero-on-write, standard input ("clinic -").  Inputs are
# blocks of directives only, whose expected output clinic.py produced.
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

# --- exit status for CI: 0 fresh, 1 would change, 2 broken -----------------------
cp expected.c fresh.c
cp in.c stale.c
printf '/*[clinic input]\nbogus line (\n[clinic start generated code]*/\n' >broken.c
for mode in --check --diff; do
    expect_status 0 "$CLINIC" $mode fresh.c
    grep -qx '0 files would be regenerated, 1 unchanged' err.txt ||
        fail "$mode fresh: summary: $(cat err.txt)"
    expect_status 1 "$CLINIC" $mode stale.c fresh.c
    grep -qx '1 file would be regenerated, 1 unchanged' err.txt ||
        fail "$mode stale: summary: $(cat err.txt)"
    expect_status 2 "$CLINIC" $mode broken.c
    expect_status 2 "$CLINIC" $mode stale.c broken.c fresh.c
    grep -qx '1 file would be regenerated, 1 unchanged, 1 failed' err.txt ||
        fail "$mode mixed: summary: $(cat err.txt)"
    expect_status 1 "$CLINIC" -q $mode stale.c fresh.c
    [ ! -s err.txt ] || fail "$mode -q printed to stderr: $(cat err.txt)"
done
expect_status 1 "$CLINIC" -q --check stale.c
[ ! -s out.txt ] || fail "--check -q listed files: $(cat out.txt)"
cmp -s stale.c in.c || fail "--check wrote stale.c"
# writing: silent when there was nothing to do, a summary when written
expect_status 0 "$CLINIC" fresh.c
[ ! -s err.txt ] || fail "a run with nothing to do printed: $(cat err.txt)"
cp in.c w1.c
expect_status 0 "$CLINIC" w1.c fresh.c
grep -qx '1 file regenerated, 1 unchanged' err.txt || fail "write summary: $(cat err.txt)"
# --exit-non-zero-on-write: 1 exactly when something was written
cp in.c w2.c
expect_status 1 "$CLINIC" --exit-non-zero-on-write w2.c
cmp -s w2.c expected.c || fail "--exit-non-zero-on-write did not write"
expect_status 0 "$CLINIC" --exit-non-zero-on-write w2.c
expect_status 2 "$CLINIC" --exit-non-zero-on-write broken.c
expect_status 2 "$CLINIC" --exit-non-zero-on-write stale.c broken.c
cp in.c stale.c
expect_status 0 "$CLINIC" --version
grep -q "CPython 3.11" out.txt || fail "--version does not name CPython 3.11: $(cat out.txt)"

# --- standard input -------------------------------------------------------------
"$CLINIC" - <in.c >stdout.txt 2>err.txt; got=$?
[ $got = 0 ] || fail "clinic - exited $got: $(cat err.txt)"
cmp -s stdout.txt expected.c || fail "clinic - did not write the result to stdout"
[ ! -s err.txt ] || fail "clinic - printed on stderr: $(cat err.txt)"
cmp -s in.c pristine.c || fail "clinic - touched a file"
echo 'no clinic here' | "$CLINIC" - >stdout.txt 2>err.txt
[ "$(cat stdout.txt)" = 'no clinic here' ] || fail "clinic - without a block: not echoed"
"$CLINIC" - --stdin-filename dir/named.c <broken.c >stdout.txt 2>err.txt; got=$?
[ $got = 2 ] || fail "clinic - on an error exited $got"
[ ! -s stdout.txt ] || fail "clinic - on an error wrote to stdout"
grep -q '^dir/named.c:2: error:' err.txt || fail "--stdin-filename not in the message: $(cat err.txt)"
printf '/*[clinic input]\nmodule m\nm.f\n    a: int\n\nDoc.\n[clinic start generated code]*/\n' >routed.c
"$CLINIC" - --stdin-filename routed.c <routed.c >stdout.txt 2>err.txt; got=$?
[ $got = 2 ] || fail "clinic - routing to a file exited $got"
grep -q "routed file ./clinic/routed.c.h would change" err.txt || fail "clinic - routed: $(cat err.txt)"
[ ! -e clinic/routed.c.h ] || fail "clinic - wrote a routed file"
"$CLINIC" routed.c 2>/dev/null
cp routed.c routed.written
git_stdin_out=$("$CLINIC" - --stdin-filename routed.c <routed.c; echo "rc=$?")
[ "$git_stdin_out" = "$(cat routed.c; echo rc=0)" ] || fail "clinic - with its routed file up to date"
expect_status 1 "$CLINIC" --check - <in.c
expect_status 0 "$CLINIC" --check - <expected.c
"$CLINIC" --diff - --stdin-filename sub/x.c <in.c >stdout.txt 2>/dev/null
head -3 stdout.txt | tr '\n' ' ' | grep -q -- '^diff --git a/sub/x.c b/sub/x.c --- a/sub/x.c +++ b/sub/x.c' ||
    fail "clinic --diff -: labels: $(head -3 stdout.txt)"
expect_status 2 "$CLINIC" - in.c
expect_status 2 "$CLINIC" -o out.c -

if [ "$failures" -ne 0 ]; then
    echo "check_cli: $failures failure(s)"
    exit 1
fi
echo "check_cli: all passed"
