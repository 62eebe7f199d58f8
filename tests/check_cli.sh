#!/bin/sh
# check_cli.sh — the command line end to end: usage errors and exit
# codes, --check/--diff/--dry-run writing nothing, atomic writes leaving unchanged
# files alone, -o, --make (skipped directories, --exclude, one bad file
# not stopping the others); the exit status scheme for CI (0 fresh, 1
# would change, 2 error, in every mode), the summary line and -q,
# --exit-non-zero-on-write, standard input ("clinic -"); files clinic
# writes beside its output (the portable header, routed files) never
# through a symlink nor over a user's header, a file named twice, a tree
# with refused files under --check, --json and --make; --convert with
# --check, --diff and --convert-only.  Inputs are
# blocks of directives only, whose expected output clinic.py produced.
#
#   sh tests/check_cli.sh [path/to/clinic]
set -u
CLINIC=${1:-${CLINIC:-build/clinic}}
TOP_FIXTURES=$(cd "$(dirname "$0")/.." && pwd)/fixtures
case $CLINIC in /*) ;; *) CLINIC=$(pwd)/$CLINIC ;; esac
T=$(mktemp -d /tmp/check_cli.XXXXXX)
trap 'rm -rf "$T"' EXIT
cd "$T" || exit 1
failures=0

passes=0
fail() { echo "cli: FAIL $*"; failures=$((failures + 1)); }
pass() { passes=$((passes + 1)); }
# expect_status WANT CMD...: run CMD, compare its exit status
expect_status() {
    want=$1; shift
    "$@" >out.txt 2>err.txt
    got=$?
    [ "$got" = "$want" ] && pass || fail "$* exited $got, not $want: $(cat err.txt)"
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
grep -q "Usage error: can't specify --converters and a filename at the same time." err.txt && pass ||
    fail "--converters with a file: message"
expect_status 2 "$CLINIC" --make in.c
grep -q "Usage error: can't use -o or filenames with --make." err.txt && pass ||
    fail "--make with a file: message"
expect_status 2 "$CLINIC" --make --srcdir ''
grep -q "Usage error: --srcdir must not be empty with --make." err.txt && pass ||
    fail "empty --srcdir: message"
expect_status 2 "$CLINIC" -o x.c in.c in.c
grep -q "Usage error: can't use -o with multiple filenames." err.txt && pass ||
    fail "-o with two files: message"
expect_status 2 "$CLINIC" --no-such-option in.c
expect_status 2 "$CLINIC" -o
expect_status 0 "$CLINIC" --version
grep -q '^clinic ' out.txt && pass || fail "--version output"
expect_status 0 "$CLINIC" --help
grep -q 'exit status' out.txt && pass || fail "--help documents the exit status"

# --- file errors: exit 2 ----------------------------------------------------
expect_status 2 "$CLINIC" x.py
grep -q "x.py: error: Can't identify file type for file 'x.py'" err.txt && pass ||
    fail "python file refused: $(cat err.txt)"
expect_status 2 "$CLINIC" missing.c

# --- --check and --diff write nothing ---------------------------------------
cp in.c work.c
expect_status 1 "$CLINIC" --check work.c
[ "$(cat out.txt)" = "work.c" ] && pass || fail "--check lists work.c: $(cat out.txt)"
cmp -s work.c in.c && pass || fail "--check wrote the file"
expect_status 1 "$CLINIC" --diff work.c
head -3 out.txt | tr '\n' ' ' | grep -q -- '^diff --git a/work.c b/work.c --- a/work.c +++ b/work.c' && pass ||
    fail "--diff headers"
cmp -s work.c in.c && pass || fail "--diff wrote the file"
patch -s work.c <out.txt && cmp -s work.c expected.c && pass || fail "--diff applies"
cp in.c work.c

# --- --dry-run (3.14's): nothing written, "would create/update PATH" -------
# sorted, once after all files, exit 0; in every dialect.  PATH is the
# path as clinic computed it: as given, routed files beside it under
# {dirname}/clinic/ ("." for a bare name), normalised under 3.14's --make.
mkdir dry && cd dry
cat >routed.c <<'EOF2'
/*[clinic input]
output preset file
module m
[clinic start generated code]*/

/*[clinic input]
m.f
    a: int
[clinic start generated code]*/
EOF2
mkdir sub && cp routed.c sub/a.c && cp ../in.c sub/b.c && cp ../expected.c fresh.c
cp -r . ../dry.orig
for d in 3.11 3.13 3.14 3.15; do
    expect_status 0 "$CLINIC" --dialect $d --dry-run sub/a.c routed.c sub/b.c fresh.c
    printf '%s\n' 'would create ./clinic/routed.c.h' 'would update routed.c' \
        'would update sub/a.c' 'would update sub/b.c' 'would create sub/clinic/a.c.h' |
        cmp -s - out.txt && pass || fail "--dry-run --dialect $d: $(cat out.txt)"
    [ ! -s err.txt ] && pass || fail "--dry-run --dialect $d: stderr: $(cat err.txt)"
done
diff -r -x out.txt -x err.txt . ../dry.orig >/dev/null && pass || fail "--dry-run wrote something"
expect_status 0 "$CLINIC" --dry-run fresh.c
[ ! -s out.txt ] && [ ! -s err.txt ] && pass || fail "--dry-run of a fresh file: $(cat out.txt err.txt)"
expect_status 0 "$CLINIC" --dry-run ./sub/a.c "$PWD/routed.c"
printf '%s\n' 'would update ./sub/a.c' 'would create ./sub/clinic/a.c.h' \
    "would create $PWD/clinic/routed.c.h" "would update $PWD/routed.c" |
    cmp -s - out.txt && pass || fail "--dry-run paths as given: $(cat out.txt)"
# -o: the output is created, the input not reported
expect_status 0 "$CLINIC" --dry-run -o out.c sub/b.c
[ "$(cat out.txt)" = "would create out.c" ] && [ ! -e out.c ] && pass || fail "--dry-run -o: $(cat out.txt)"
# -v: the file names go to stderr, stdout holds the list alone
expect_status 0 "$CLINIC" --dry-run -v sub/b.c
[ "$(cat out.txt)" = "would update sub/b.c" ] && [ "$(cat err.txt)" = "sub/b.c" ] && pass ||
    fail "--dry-run -v: $(cat out.txt) / $(cat err.txt)"
# --make: 3.14 and 3.15 normalise the walk's paths, 3.11 and 3.13 do not
for d in 3.14 3.15; do
    expect_status 0 "$CLINIC" --dialect $d --dry-run --make --srcdir ./
    printf '%s\n' 'would create ./clinic/routed.c.h' 'would update routed.c' \
        'would update sub/a.c' 'would update sub/b.c' 'would create sub/clinic/a.c.h' |
        cmp -s - out.txt && pass || fail "--dry-run --make --dialect $d: $(cat out.txt)"
done
expect_status 0 "$CLINIC" --dialect 3.13 --dry-run --make --srcdir ./
printf '%s\n' 'would create ./clinic/routed.c.h' 'would update ./routed.c' \
    'would update ./sub/a.c' 'would update ./sub/b.c' 'would create ./sub/clinic/a.c.h' |
    cmp -s - out.txt && pass || fail "--dry-run --make --dialect 3.13: $(cat out.txt)"
diff -r -x out.txt -x err.txt . ../dry.orig >/dev/null && pass || fail "--dry-run --make wrote something"
# an error: reported, exit 2, and the list (after it) names what a run
# would still write (3.14's stops at the error and lists nothing)
printf '/*[clinic input]\nbogus line (\n[clinic start generated code]*/\n' >bad.c
"$CLINIC" --dry-run routed.c bad.c sub/b.c >out.txt 2>&1; got=$?
[ "$got" = 2 ] && pass || fail "--dry-run with an error exited $got"
grep -q '^bad.c:[0-9]*: error: ' out.txt && [ "$(tail -n 3 out.txt | tr '\n' ' ')" = \
    "would create ./clinic/routed.c.h would update routed.c would update sub/b.c " ] && pass ||
    fail "--dry-run with an error: $(cat out.txt)"
rm bad.c
# a checksum mismatch is an error; -f lists the file
sed '4a\
tampered' fresh.c >tampered.c
expect_status 2 "$CLINIC" --dry-run tampered.c
grep -q 'Checksum mismatch!' err.txt && [ ! -s out.txt ] && pass || fail "--dry-run accepted a tampered file"
expect_status 0 "$CLINIC" --dry-run -f tampered.c
[ "$(cat out.txt)" = "would update tampered.c" ] && pass || fail "--dry-run -f: $(cat out.txt)"
rm tampered.c
# a file named twice is listed once; standard input under its name
expect_status 0 "$CLINIC" --dry-run sub/b.c ./sub/b.c
[ "$(cat out.txt)" = "would update sub/b.c" ] && pass || fail "--dry-run of a file named twice: $(cat out.txt)"
expect_status 0 "$CLINIC" --dry-run - --stdin-filename x/s.c <sub/b.c
[ "$(cat out.txt)" = "would update x/s.c" ] && pass || fail "--dry-run -: $(cat out.txt)"
# --diff and --check win over --dry-run (3.14's --diff wins too)
expect_status 1 "$CLINIC" --dry-run --diff sub/b.c
grep -q '^diff --git a/sub/b.c b/sub/b.c' out.txt && ! grep -q '^would' out.txt && pass ||
    fail "--dry-run --diff: $(head -3 out.txt)"
expect_status 1 "$CLINIC" --dry-run --check sub/b.c
[ "$(cat out.txt)" = "sub/b.c" ] && pass || fail "--dry-run --check: $(cat out.txt)"
# with --converters or a query mode: a usage error
expect_status 2 "$CLINIC" --converters --dry-run
grep -q "Usage error: can't use --dry-run, --check or --diff with --converters." err.txt && pass ||
    fail "--converters --dry-run: $(cat err.txt)"
expect_status 2 "$CLINIC" --list --dry-run sub/b.c
diff -r -x out.txt -x err.txt . ../dry.orig >/dev/null && pass || fail "--dry-run wrote something"
cd ..

# --- writing -----------------------------------------------------------------
chmod 640 work.c
expect_status 0 "$CLINIC" -v work.c
[ "$(cat out.txt)" = "work.c" ] && pass || fail "-v prints the file name"
cmp -s work.c expected.c && pass || fail "written output differs from clinic.py's"
[ "$(stat -c %a work.c)" = 640 ] && pass || fail "permission bits not kept"
touch -d '2001-01-01 00:00' work.c
expect_status 0 "$CLINIC" work.c
[ "$(stat -c %Y work.c)" = "$(date -d '2001-01-01 00:00' +%s)" ] && pass ||
    fail "an unchanged file was rewritten"
expect_status 0 "$CLINIC" --check work.c
[ -z "$(ls -A | grep clinic-)" ] && pass || fail "temp file left behind"

# -o: the input stays, the output is written
expect_status 0 "$CLINIC" -o out.c in.c
cmp -s out.c expected.c && pass || fail "-o output"
cmp -s in.c pristine.c && pass || fail "-o touched the input"

# a checksum mismatch fails, -f accepts it
sed '4a\
tampered' expected.c >tampered.c
expect_status 2 "$CLINIC" tampered.c
grep -q 'Checksum mismatch!' err.txt && pass || fail "tampered output accepted"
expect_status 0 "$CLINIC" -f tampered.c
cmp -s tampered.c expected.c && pass || fail "-f regenerates"

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
cmp -s tree/a/x.c expected.c && pass || fail "--make: x.c not processed"
cmp -s tree/b/y.h expected.c && pass || fail "--make: the error in bad.c stopped y.h"
cmp -s tree/.git/skipped.c in.c && pass || fail "--make: .git not skipped"
cmp -s tree/build/skipped.c in.c && pass || fail "--make: build not skipped"
cmp -s tree/b/excluded.c in.c && pass || fail "--make: --exclude ignored"
grep -q 'tree/a/bad.c:2: error:' err.txt && pass || fail "--make: error not reported"
grep -qx 'tree/b/plain.c' out.txt && pass || fail "--make -v lists every .c/.h file"
cp out.txt make-default.out; cp err.txt make-default.err

# -j: the number of workers changes neither what is printed nor its order
for j in 1 2 7; do
    rm -rf tree-j; cp -R tree tree-j
    cp in.c tree-j/a/x.c; cp in.c tree-j/b/y.h
    "$CLINIC" -j $j --make --srcdir tree-j --exclude b/excluded.c -v >out.txt 2>err.txt
    sed 's|^tree/|tree-j/|' make-default.out | cmp -s - out.txt && pass ||
        fail "-j $j: stdout differs: $(cat out.txt)"
    sed 's|^tree/|tree-j/|' make-default.err | cmp -s - err.txt && pass ||
        fail "-j $j: stderr differs: $(cat err.txt)"
    cmp -s tree-j/a/x.c expected.c && pass || fail "-j $j: x.c not processed"
done
# --make lists the tree ahead of the commits, yet sees what earlier files
# create, as a walk listing each directory in its turn does: m.c creates
# clinic/m.c.h (clinic/ already listed), a/x.c creates b/new/x.c.h (b/
# listed, new/ not there yet); both are then processed in their turn.
for j in 1 2 7; do
    rm -rf ahead; mkdir -p ahead/clinic ahead/a ahead/b
    printf '/*[clinic input]\nmodule m\nm.f\n    a: int\n\nDoc.\n[clinic start generated code]*/\n' >ahead/m.c
    echo 'int z;' >ahead/clinic/z.h
    printf '/*[clinic input]\ndestination other new file {dirname}/../b/new/{basename}.h\noutput everything other\nmodule n\nn.g\n    a: int\n\nDoc.\n[clinic start generated code]*/\n' >ahead/a/x.c
    echo 'int y;' >ahead/b/y.c
    expect_status 0 "$CLINIC" -j $j -v --make --srcdir ahead
    printf 'ahead/m.c\nahead/a/x.c\nahead/b/y.c\nahead/b/new/x.c.h\nahead/clinic/m.c.h\nahead/clinic/z.h\n' |
        cmp -s - out.txt && pass || fail "-j $j: files created ahead of the walk: $(cat out.txt)"
    grep -qx '4 files regenerated, 4 unchanged' err.txt && pass || fail "-j $j: summary: $(cat err.txt)"
done
expect_status 2 "$CLINIC" -j 0 --make --srcdir tree
grep -q 'argument -j/--jobs: must be from 1 to 256' err.txt && pass || fail "-j 0: message"
expect_status 2 "$CLINIC" --jobs=two --make --srcdir tree
grep -q "argument -j/--jobs: invalid int value: 'two'" err.txt && pass || fail "-j two: message"
expect_status 2 "$CLINIC" --make --srcdir tree -j

# --- exit status for CI: 0 fresh, 1 would change, 2 broken -----------------------
cp expected.c fresh.c
cp in.c stale.c
printf '/*[clinic input]\nbogus line (\n[clinic start generated code]*/\n' >broken.c
for mode in --check --diff; do
    expect_status 0 "$CLINIC" $mode fresh.c
    grep -qx '0 files would be regenerated, 1 unchanged' err.txt && pass ||
        fail "$mode fresh: summary: $(cat err.txt)"
    expect_status 1 "$CLINIC" $mode stale.c fresh.c
    grep -qx '1 file would be regenerated, 1 unchanged' err.txt && pass ||
        fail "$mode stale: summary: $(cat err.txt)"
    expect_status 2 "$CLINIC" $mode broken.c
    expect_status 2 "$CLINIC" $mode stale.c broken.c fresh.c
    grep -qx '1 file would be regenerated, 1 unchanged, 1 failed' err.txt && pass ||
        fail "$mode mixed: summary: $(cat err.txt)"
    expect_status 1 "$CLINIC" -q $mode stale.c fresh.c
    [ ! -s err.txt ] && pass || fail "$mode -q printed to stderr: $(cat err.txt)"
done
expect_status 1 "$CLINIC" -q --check stale.c
[ ! -s out.txt ] && pass || fail "--check -q listed files: $(cat out.txt)"
cmp -s stale.c in.c && pass || fail "--check wrote stale.c"
# writing: silent when there was nothing to do, a summary when written
expect_status 0 "$CLINIC" fresh.c
[ ! -s err.txt ] && pass || fail "a run with nothing to do printed: $(cat err.txt)"
cp in.c w1.c
expect_status 0 "$CLINIC" w1.c fresh.c
grep -qx '1 file regenerated, 1 unchanged' err.txt && pass || fail "write summary: $(cat err.txt)"
# --exit-non-zero-on-write: 1 exactly when something was written
cp in.c w2.c
expect_status 1 "$CLINIC" --exit-non-zero-on-write w2.c
cmp -s w2.c expected.c && pass || fail "--exit-non-zero-on-write did not write"
expect_status 0 "$CLINIC" --exit-non-zero-on-write w2.c
expect_status 2 "$CLINIC" --exit-non-zero-on-write broken.c
expect_status 2 "$CLINIC" --exit-non-zero-on-write stale.c broken.c
cp in.c stale.c
expect_status 0 "$CLINIC" --version
grep -q "CPython 3.11" out.txt && pass || fail "--version does not name CPython 3.11: $(cat out.txt)"

# --- standard input -------------------------------------------------------------
"$CLINIC" - <in.c >stdout.txt 2>err.txt; got=$?
[ $got = 0 ] && pass || fail "clinic - exited $got: $(cat err.txt)"
cmp -s stdout.txt expected.c && pass || fail "clinic - did not write the result to stdout"
[ ! -s err.txt ] && pass || fail "clinic - printed on stderr: $(cat err.txt)"
cmp -s in.c pristine.c && pass || fail "clinic - touched a file"
echo 'no clinic here' | "$CLINIC" - >stdout.txt 2>err.txt
[ "$(cat stdout.txt)" = 'no clinic here' ] && pass || fail "clinic - without a block: not echoed"
"$CLINIC" - --stdin-filename dir/named.c <broken.c >stdout.txt 2>err.txt; got=$?
[ $got = 2 ] && pass || fail "clinic - on an error exited $got"
[ ! -s stdout.txt ] && pass || fail "clinic - on an error wrote to stdout"
grep -q '^dir/named.c:2: error:' err.txt && pass || fail "--stdin-filename not in the message: $(cat err.txt)"
printf '/*[clinic input]\nmodule m\nm.f\n    a: int\n\nDoc.\n[clinic start generated code]*/\n' >routed.c
"$CLINIC" - --stdin-filename routed.c <routed.c >stdout.txt 2>err.txt; got=$?
[ $got = 2 ] && pass || fail "clinic - routing to a file exited $got"
grep -q "routed file ./clinic/routed.c.h would change" err.txt && pass || fail "clinic - routed: $(cat err.txt)"
[ ! -e clinic/routed.c.h ] && pass || fail "clinic - wrote a routed file"
"$CLINIC" routed.c 2>/dev/null
cp routed.c routed.written
git_stdin_out=$("$CLINIC" - --stdin-filename routed.c <routed.c; echo "rc=$?")
[ "$git_stdin_out" = "$(cat routed.c; echo rc=0)" ] && pass || fail "clinic - with its routed file up to date"

# --- checksums remembered across the files of a run (clinic/sums.c) ------
# --make reads clinic/routed.c.h twice: as routed.c's destination and as a
# file of its own.  A rewrite by the first (of the same length: the same
# offsets) must not let the second use a sum of the old text; edited
# output is caught both times.
for j in 1 2; do
    rm -rf sums; mkdir -p sums/clinic
    sed 's/^Doc\.$/Dox./' routed.c >sums/routed.c
    cp clinic/routed.c.h sums/clinic/routed.c.h
    expect_status 0 "$CLINIC" -j $j --make --srcdir sums
    grep -q 'Dox\.' sums/clinic/routed.c.h && pass || fail "-j $j: routed.c.h not rewritten"
    expect_status 0 "$CLINIC" -j $j --check --make --srcdir sums
    sed 's/Dox\./Doc!/' sums/clinic/routed.c.h >sums/x && mv sums/x sums/clinic/routed.c.h
    expect_status 2 "$CLINIC" -j $j --check --make --srcdir sums
    [ "$(grep -c 'routed.c.h:[0-9]*: error: Checksum mismatch' err.txt)" = 2 ] && pass ||
        fail "-j $j: edited routed output not caught twice: $(cat err.txt)"
done
# --- large files (over 512 KiB), checked a piece at a time (job.c) -------
# Each case: a megabyte and more of plain lines, then what decides; the
# answer must be the one the whole file gives.
awk 'BEGIN { for (i = 0; i < 40000; i++) printf "int x%d = %d; /* [filler] */\n", i, i }' >filler.txt
rm -rf large; mkdir large
cat filler.txt in.c >large/marker_late.c
cat filler.txt expected.c >large/expected_late.c
cat in.c filler.txt >large/marker_early.c
cat expected.c filler.txt >large/expected_early.c
for c in late early; do
    for j in 1 2; do
        cp large/marker_$c.c large/x.c
        expect_status 0 "$CLINIC" -j $j large/x.c
        cmp -s large/x.c large/expected_$c.c && pass || fail "-j $j: large file, marker $c: not regenerated"
    done
done
{ cat filler.txt; printf 'char *s = "\377";\n'; } >large/bad.c
expect_status 2 "$CLINIC" large/bad.c
grep -q "large/bad.c: error: 'utf-8' codec can't decode byte 0xff in position $(($(wc -c <filler.txt) + 11)): invalid start byte" err.txt && pass ||
    fail "large file, bad UTF-8 after a megabyte: $(cat err.txt)"
{ printf 'int y;'; awk 'BEGIN { for (i = 0; i < 70000; i++) printf "          " }'; printf '\n'; cat in.c; } >large/long.c
expect_status 0 "$CLINIC" large/long.c
grep -q 'end generated code' large/long.c && pass || fail "large file, a line longer than a piece: marker missed"
tr '\n' '\r' <filler.txt >large/plain_cr.c
cp large/plain_cr.c large/plain_cr.orig
rm large/bad.c
expect_status 0 "$CLINIC" --make --srcdir large
cmp -s large/plain_cr.c large/plain_cr.orig && pass || fail "large file without a marker changed"

"$CLINIC" -v - <in.c >stdout.txt 2>err.txt
cmp -s stdout.txt expected.c && pass || fail "clinic -v -: -v wrote to stdout"
expect_status 1 "$CLINIC" --check - <in.c
expect_status 0 "$CLINIC" --check - <expected.c
"$CLINIC" --diff - --stdin-filename sub/x.c <in.c >stdout.txt 2>/dev/null
head -3 stdout.txt | tr '\n' ' ' | grep -q -- '^diff --git a/sub/x.c b/sub/x.c --- a/sub/x.c +++ b/sub/x.c' && pass ||
    fail "clinic --diff -: labels: $(head -3 stdout.txt)"
expect_status 2 "$CLINIC" - in.c
expect_status 2 "$CLINIC" -o out.c -

# --- files clinic writes beside its output (item 1 of issue 28) ----------
# The portable target's clinic_portable.h and routed files are clinic's to
# name: never written through a symlink, and the header never over a file
# clinic did not write (unless -f).  --check counts and --diff shows them.
rm -rf beside; mkdir beside
printf '/*[clinic input]\noutput preset block\nmodule m\nm.f\n    a: int\n    /\n[clinic start generated code]*/\n' >beside/p.c
cp beside/p.c beside/p.orig
echo victim >beside/victim.txt
ln -s victim.txt beside/clinic_portable.h
expect_status 2 "$CLINIC" --target portable beside/p.c
grep -q "^beside/p.c:[0-9]*: error: Destination file 'beside/clinic_portable.h' is a symbolic link" err.txt && pass ||
    fail "portable header through a symlink: $(cat err.txt)"
[ "$(cat beside/victim.txt)" = victim ] && cmp -s beside/p.c beside/p.orig && [ -L beside/clinic_portable.h ] && pass ||
    fail "portable header through a symlink: files changed"
expect_status 2 "$CLINIC" --target portable -f --make --srcdir beside
[ "$(cat beside/victim.txt)" = victim ] && pass || fail "--make -f wrote through the header's symlink"
rm beside/clinic_portable.h
echo '/* my own header */' >beside/clinic_portable.h
expect_status 2 "$CLINIC" --target portable beside/p.c
grep -q "error: 'beside/clinic_portable.h' exists and is not the header clinic writes" err.txt && pass ||
    fail "a header clinic did not write: $(cat err.txt)"
expect_status 2 "$CLINIC" --target portable --check beside/p.c
[ "$(cat beside/clinic_portable.h)" = '/* my own header */' ] && cmp -s beside/p.c beside/p.orig && pass ||
    fail "a header clinic did not write: files changed"
expect_status 0 "$CLINIC" --target portable -f beside/p.c
grep -q 'clinic_portable.h -- what the argument parsers' beside/clinic_portable.h && pass ||
    fail "-f did not replace a header clinic did not write"
# an older header of clinic's (its first line, another text) is rewritten
{ head -n 2 beside/clinic_portable.h; echo ' * an older version */'; } >beside/old.h
mv beside/old.h beside/clinic_portable.h
cp beside/p.orig beside/p.c
expect_status 1 "$CLINIC" --target portable --check beside/p.c
[ "$(cat out.txt)" = "$(printf 'beside/clinic_portable.h\nbeside/p.c')" ] && pass ||
    fail "--check and the header: $(cat out.txt)"
grep -q '^2 files would be regenerated' err.txt && pass || fail "--check count with the header: $(cat err.txt)"
"$CLINIC" --target portable --diff beside/p.c >out.txt 2>/dev/null
[ "$(grep -c '^diff --git' out.txt)" = 2 ] && grep -q '^+++ b/beside/clinic_portable.h$' out.txt && pass ||
    fail "--diff and the header: $(grep '^diff' out.txt)"
expect_status 0 "$CLINIC" --target portable beside/p.c
grep -q '^2 files regenerated' err.txt && pass || fail "write count with the header: $(cat err.txt)"
# two inputs beside one header: --make --check counts it once, as a write does
rm -rf twoin; mkdir twoin
cp beside/p.orig twoin/a.c; cp beside/p.orig twoin/b.c
expect_status 1 "$CLINIC" --target portable --make --srcdir twoin --check
[ "$(grep -c clinic_portable.h out.txt)" = 1 ] && grep -q '^3 files would be regenerated' err.txt && pass ||
    fail "--make --check with a shared header: $(cat out.txt err.txt)"
"$CLINIC" --target portable --make --srcdir twoin --diff >out.txt 2>/dev/null
[ "$(grep -c '^diff --git a/twoin/clinic_portable.h' out.txt)" = 1 ] && pass ||
    fail "--make --diff with a shared header: $(grep '^diff' out.txt)"
expect_status 0 "$CLINIC" --target portable --make --srcdir twoin
grep -q '^3 files regenerated' err.txt && pass || fail "--make with a shared header: $(cat err.txt)"
# a routed file that is a symlink: refused, whatever it points to
rm -rf rlink; mkdir -p rlink/clinic
printf '/*[clinic input]\nmodule m\nm.f\n    a: int\n\nDoc.\n[clinic start generated code]*/\n' >rlink/r.c
cp rlink/r.c rlink/r.orig
echo victim >rlink/victim.txt
ln -s ../victim.txt rlink/clinic/r.c.h
expect_status 2 "$CLINIC" rlink/r.c
grep -q "^rlink/r.c:[0-9]*: error: Destination file 'rlink/clinic/r.c.h' is a symbolic link" err.txt && pass ||
    fail "routed file through a symlink: $(cat err.txt)"
expect_status 2 "$CLINIC" -f rlink/r.c
[ "$(cat rlink/victim.txt)" = victim ] && cmp -s rlink/r.c rlink/r.orig && [ -L rlink/clinic/r.c.h ] && pass ||
    fail "routed file through a symlink: files changed"
ln -sf ../nowhere.txt rlink/clinic/r.c.h   # dangling: not created either
expect_status 2 "$CLINIC" rlink/r.c
[ ! -e rlink/nowhere.txt ] && pass || fail "routed file through a dangling symlink: created its target"
# a directory on the routed file's way that is a symlink: refused too
rm -rf rlink/clinic; mkdir rlink/elsewhere; ln -s elsewhere rlink/clinic
expect_status 2 "$CLINIC" rlink/r.c
grep -q "^rlink/r.c:[0-9]*: error: Destination file rlink/clinic/r.c.h would be written through rlink/clinic, a symbolic link" err.txt && pass ||
    fail "routed file through a symlinked directory: $(cat err.txt)"
[ -z "$(ls rlink/elsewhere)" ] && cmp -s rlink/r.c rlink/r.orig && pass ||
    fail "routed file through a symlinked directory: files changed"
expect_status 2 "$CLINIC" --check rlink/r.c
# the input itself may be a symlink: written through, as always
rm -rf ilink; mkdir ilink
cp in.c ilink/real.c; ln -s real.c ilink/link.c
expect_status 0 "$CLINIC" ilink/link.c
[ -L ilink/link.c ] && cmp -s ilink/real.c expected.c && pass || fail "input through a symlink not written through"

# --- a file named twice is processed once ---------------------------------
rm -rf twice; mkdir twice
cp in.c twice/a.c; ln -s a.c twice/l.c
expect_status 1 "$CLINIC" --diff twice/a.c ./twice/a.c twice/l.c "$PWD/twice/a.c" twice//a.c
[ "$(grep -c '^diff --git' out.txt)" = 1 ] && grep -q '^1 file would be regenerated, 0 unchanged' err.txt && pass ||
    fail "--diff of a file named twice: $(grep -c '^diff' out.txt) diffs; $(cat err.txt)"
expect_status 0 "$CLINIC" twice/a.c ./twice/a.c
grep -q '^1 file regenerated, 0 unchanged' err.txt && pass || fail "a file named twice: $(cat err.txt)"

# --- a tree where some files are refused (item 6 of issue 28) -------------
# The others are written or reported, --json stays valid JSON, exit 2.
rm -rf mixed; mkdir -p mixed/clinic
for n in 1 2 3; do cp in.c mixed/good$n.c; done
cp expected.c mixed/bad_sum.c
sed -i 's/output=da39a3ee5e6b4b0d input=bb0565424c99751c/output=0000000000000000 input=bb0565424c99751c/' mixed/bad_sum.c
printf '/*[clinic input]\nmodule m\nm.f\n    a: int\n\nDoc.\n[clinic start generated code]*/\n' >mixed/linked.c
echo victim >mixed/victim.txt
ln -s ../victim.txt mixed/clinic/linked.c.h
printf '/*[clinic input]\nmodule m\nm.f\n    a: nosuchconverter\n[clinic start generated code]*/\n' >mixed/bad_dsl.c
printf 'int x = 1;\n/*[clinic input]\n' >mixed/unterminated.c
cp -R mixed mixed.orig
expect_status 2 "$CLINIC" --make --srcdir mixed --check
[ "$(sort out.txt | tr '\n' ' ')" = "mixed/good1.c mixed/good2.c mixed/good3.c " ] && pass ||
    fail "--check over a tree with refused files: $(cat out.txt)"
grep -q '3 files would be regenerated, .* 4 failed' err.txt && pass || fail "--check summary: $(tail -n 1 err.txt)"
diff -r mixed mixed.orig >/dev/null && pass || fail "--check over a tree with refused files wrote something"
"$CLINIC" --make --srcdir mixed --json >json.txt 2>err.txt; got=$?
[ "$got" = 2 ] && pass || fail "--json over a tree with refused files exited $got"
python3 -m json.tool json.txt >/dev/null 2>&1 && pass || fail "--json over a tree with refused files: invalid JSON"
[ "$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["files"]))' json.txt 2>/dev/null)" = 7 ] && pass ||
    fail "--json over a tree with refused files: not every file listed"
expect_status 2 "$CLINIC" -j 2 --make --srcdir mixed
for n in 1 2 3; do
    cmp -s mixed/good$n.c expected.c && pass || fail "--make over a tree with refused files: good$n.c not written"
done
for f in bad_sum.c linked.c bad_dsl.c unterminated.c victim.txt; do
    cmp -s mixed/$f mixed.orig/$f && pass || fail "--make over a tree with refused files: $f changed"
done
grep -q '3 files regenerated, [0-9]* unchanged, 4 failed' err.txt && pass || fail "--make summary: $(tail -n 1 err.txt)"

# --- --convert: --check and --diff write nothing, --convert-only --------
mkdir conv && cp "$TOP_FIXTURES/convert/keywords.c" conv/k.c && cp conv/k.c conv/k.orig
expect_status 1 "$CLINIC" --convert --check conv/k.c
grep -qx 'conv/k.c' out.txt && pass || fail "--convert --check: $(cat out.txt)"
cmp -s conv/k.c conv/k.orig && [ ! -d conv/clinic ] && pass || fail "--convert --check wrote something"
expect_status 1 "$CLINIC" --convert --diff conv/k.c
grep -q '^+KEYWORDS_OPEN_IMPL\|^+    KEYWORDS_OPEN_METHODDEF' out.txt && grep -q '^+++ b/conv/clinic/k.c.h' out.txt && pass ||
    fail "--convert --diff: $(head -n 5 out.txt)"
cmp -s conv/k.c conv/k.orig && [ ! -d conv/clinic ] && pass || fail "--convert --diff wrote something"
expect_status 0 "$CLINIC" --convert-only keywords.open conv/k.c
grep -q 'KEYWORDS_OPEN_METHODDEF' conv/k.c && ! grep -q 'KEYWORDS_ANSWER_METHODDEF' conv/k.c && pass ||
    fail "--convert-only converted the wrong functions"
expect_status 0 "$CLINIC" --check conv/k.c
expect_status 0 "$CLINIC" --convert conv/k.c
grep -q 'KEYWORDS_ANSWER_METHODDEF' conv/k.c && pass || fail "--convert after --convert-only: $(cat err.txt)"
# a function before the module declaration an earlier run wrote: that
# block (declarations only) moves up before it
cp conv/k.orig conv/late.c
"$CLINIC" --convert-only answer conv/late.c >/dev/null 2>&1
expect_status 0 "$CLINIC" --convert conv/late.c
grep -q "late.c: note: convert: 4 converted, 0 left as they are" err.txt &&
    [ "$(grep -c '^module keywords$' conv/late.c)" = 1 ] &&
    [ "$(grep -n '^module keywords$' conv/late.c | cut -d: -f1)" -lt "$(grep -n '^keywords.open$' conv/late.c | cut -d: -f1)" ] &&
    pass || fail "--convert before an existing module declaration: $(cat err.txt)"
expect_status 0 "$CLINIC" --check conv/late.c
expect_status 0 "$CLINIC" --convert --check conv/k.c
expect_status 2 "$CLINIC" --convert-only

# --- "Did you mean": the interpreter's traceback (3.13+) offers it, 3.11's
# traceback.format_exc() does not ------------------------------------------
printf '/*[python input]\nprint(int_convertr)\n[python start generated code]*/\n' > suggest.c
expect_status 2 "$CLINIC" --dialect 3.11 suggest.c
[ "$(tail -1 err.txt)" = "NameError: name 'int_convertr' is not defined" ] && pass ||
    fail "3.11 NameError line: $(cat err.txt)"
expect_status 2 "$CLINIC" --dialect 3.13 suggest.c
[ "$(tail -1 err.txt)" = "NameError: name 'int_convertr' is not defined. Did you mean: 'int_converter'?" ] && pass ||
    fail "3.13 NameError line: $(cat err.txt)"

# --- what a converter's method prints goes to standard output, as
# clinic.py's does, and not into the next python block's output -----------
cat > printing.c <<'EOF'
/*[python input]
class loud_converter(int_converter):
    def converter_init(self):
        print('init', self.name)
    def pre_render(self):
        print('pre_render', self.name)
        super().pre_render()
[python start generated code]*/
/*[clinic input]
output preset block
f
    a: loud
[clinic start generated code]*/
/*[python input]
print('block')
[python start generated code]*/
EOF
expect_status 0 "$CLINIC" -q printing.c
[ "$(cat out.txt)" = "$(printf 'init a\npre_render a')" ] && pass ||
    fail "a converter's prints on standard output: $(cat out.txt)"
grep -q '^init a' printing.c && fail "a converter's print went into a block" || pass
grep -q '^block$' printing.c && pass || fail "the block's own print is lost"

echo "cli: $passes passed, $failures failed"
[ "$failures" -eq 0 ]
