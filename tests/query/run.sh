#!/bin/sh
# make query: the query modes (--list, --json, --stats, --docstring) over
# the CPython 3.11.2 tree (every .c and .h file, as --make walks them),
# clinic.test and the fuzz corpus, fetched and cached as for make
# conformance.  Each line is one check; ends with "query: N passed, N
# failed".
#
#   crosscheck   every function clinic.py generates: signature, docstring
#                and METH_ flags in --json agree with what clinic.py
#                writes (tests/query/crosscheck.py); no disagreement, and
#                at least the floor query_functions of
#                tests/conformance/floor agree
#   exit         each run exits 0, or with the error status exactly when
#                the JSON reports files with errors
#   determinism  --json twice over the tree: the same bytes
#   schema       the documents are valid UTF-8 and valid against
#                schema/clinic-query.schema.json (python3-jsonschema); the
#                schema rejects a renamed member
#   jq           jq reads the tree's and clinic.test's; the count of
#                functions is the stats'
#   stats        --stats and the JSON's stats agree with counts made from
#                the JSON's functions (tree, clinic.test)
#   list         --list shows every function once
#   docstring    --docstring prints what --json has; a misspelt name is
#                answered with the right one
#   unchanged    after each mode, every file of the tree, clinic.test and
#                the corpus is byte for byte as it was
#   cli          usage errors; a file with an error among others; -v;
#                - (standard input)
#   3.13         --json and --stats over the CPython 3.13.5 tree (the 3.13
#                dialect, from its patchlevel.h): exit, schema, stats,
#                unchanged
#   3.14, 3.15   --json, --stats and --list with --dialect 3.14 and 3.15
#                over the 3.13.5 tree and their clinic.test.c: exit,
#                schema, stats, list, unchanged; @deleter and the
#                bitwise converters' overflow_deprecated
#
#   usage: run.sh [CLINIC]         (default build/clinic)
#   CLINIC_CACHE, PYTHON           as for make conformance
#   JSONSCHEMA_PYTHON              an interpreter with jsonschema
#                                  (default /usr/bin/python3, Debian's)
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
CLINIC=${1:-build/clinic}
case $CLINIC in /*) ;; *) CLINIC=$(pwd)/$CLINIC ;; esac
CACHE=${CLINIC_CACHE:-${HOME:-/tmp}/.cache/clinic-conformance}
PYTHON=${PYTHON:-python3}
JSONSCHEMA_PYTHON=${JSONSCHEMA_PYTHON:-/usr/bin/python3}
[ -x "$CLINIC" ] || { echo "query: $CLINIC is not built" >&2; exit 1; }
paths=$(sh "$top/tests/conformance/fetch.sh" "$CACHE") || exit 1
eval "$paths"

s=$(mktemp -d "${TMPDIR:-/tmp}/clinic-query.XXXXXX")
trap 'rm -rf "$s"' EXIT INT TERM
pass=0 nfail=0

check() {   # check NAME COMMAND...: one check
    name=$1; shift
    if "$@" > "$s/check.out" 2>&1; then
        pass=$((pass + 1)); echo "  ok    $name"
    else
        nfail=$((nfail + 1)); echo "  FAIL  $name"
    fi
    sed 's/^/        /' "$s/check.out" | head -n 40
}

# ---- the inputs -------------------------------------------------------------
mkdir "$s/tree" "$s/test" "$s/fuzz" "$s/seeds"
(cd "$TREE" && find . -type f \( -name '*.c' -o -name '*.h' \) | tar cf - -T -) |
    (cd "$s/tree" && tar xf -)
cp "$CLINIC_TEST" "$s/test/clinic.test.c"
CLINIC_TEST=$CLINIC_TEST sh "$top/tests/fuzz/make_corpus.sh" "$s/seeds" 2>/dev/null
[ -d "$top/build-fuzz/corpus" ] && cp "$top"/build-fuzz/corpus/* "$s/seeds/" 2>/dev/null
k=0
for f in "$s"/seeds/*; do
    k=$((k + 1))
    cp "$f" "$s/fuzz/$(printf 'seed%05d' $k).c"
done
echo "query: $(find "$s/tree" -type f | wc -l) files of $(basename "$TREE"), clinic.test, $k corpus inputs"

snapshot() { (cd "$s" && find tree test fuzz -type f | LC_ALL=C sort | xargs sha256sum); }
snapshot > "$s/before"
unchanged() {
    snapshot > "$s/after"
    cmp -s "$s/before" "$s/after" || { diff "$s/before" "$s/after" | head -n 10; return 1; }
}

# run OUT DIR ARGS...: clinic ARGS in DIR, stdout to OUT, exit status to OUT.rc
run() {
    out=$1 dir=$2; shift 2
    rc=0
    (cd "$dir" && exec "$CLINIC" "$@") > "$out" 2> "$out.err" || rc=$?
    echo $rc > "$out.rc"
}

# exit_matches DOC.json: the run's exit status is 0 exactly when the
# document has no file with an error (and never a signal)
exit_matches() {
    rc=$(cat "$1.rc")
    errors=$("$PYTHON" -c 'import json, sys
print(json.load(open(sys.argv[1], encoding="utf-8"))["stats"]["files_with_errors"])' "$1") ||
        return 1
    echo "exit $rc, $errors files with errors"
    if [ "$errors" -eq 0 ]; then [ "$rc" -eq 0 ]; else [ "$rc" -gt 0 ] && [ "$rc" -lt 128 ]; fi
}

# ---- the reference ------------------------------------------------------------
check "crosscheck: --json against what clinic.py writes" \
    "$PYTHON" "$here/crosscheck.py" --tree "$TREE" --refdir "$REFDIR" \
    --clinic-test "$CLINIC_TEST" --clinic "$CLINIC" --cache "$CACHE" \
    --python "$PYTHON" --floor "$top/tests/conformance/floor"

# ---- --json -------------------------------------------------------------------
run "$s/tree.json" "$s/tree" --json --make --srcdir .
run "$s/tree2.json" "$s/tree" --json --make --srcdir .
run "$s/test.json" "$s/test" --json clinic.test.c
run "$s/fuzz.json" "$s/fuzz" --json $(cd "$s/fuzz" && ls)
check "unchanged after --json" unchanged
check "exit: --json over the tree" exit_matches "$s/tree.json"
check "exit: --json over clinic.test" exit_matches "$s/test.json"
check "exit: --json over the fuzz corpus" exit_matches "$s/fuzz.json"
check "determinism: --json twice, the same bytes" cmp "$s/tree.json" "$s/tree2.json"
check "schema: tree, clinic.test, fuzz corpus" "$JSONSCHEMA_PYTHON" "$here/checks.py" schema \
    "$top/schema/clinic-query.schema.json" "$s/tree.json" "$s/test.json" "$s/fuzz.json"
# (not the corpus's: a lone surrogate there is written as its \uXXXX
# escape, as JSON allows and Python reads, but jq 1.6 refuses it)
jq_reads() {
    for d in "$s/tree.json" "$s/test.json"; do
        jq -e '.version == 1 and ([.files[].functions[]] | length) == .stats.functions' \
            "$d" > /dev/null || { echo "jq: $d"; return 1; }
    done
    jq -e '.stats.parsers | length > 0' "$s/tree.json"
}
check "jq: reads the tree's and clinic.test's documents" jq_reads

# ---- --stats, --list, --docstring ------------------------------------------------
run "$s/tree.stats" "$s/tree" --stats --make --srcdir .
run "$s/test.stats" "$s/test" --stats clinic.test.c
check "unchanged after --stats" unchanged
check "stats: --stats over the tree agrees with --json" \
    "$PYTHON" "$here/checks.py" stats "$s/tree.json" "$s/tree.stats"
check "stats: --stats over clinic.test agrees with --json" \
    "$PYTHON" "$here/checks.py" stats "$s/test.json" "$s/test.stats"

run "$s/tree.list" "$s/tree" --list --make --srcdir .
check "unchanged after --list" unchanged
check "list: every function of the tree once" \
    "$PYTHON" "$here/checks.py" list "$s/tree.json" "$s/tree.list"

check "docstring: as --json has them; did-you-mean" \
    "$PYTHON" "$here/checks.py" docstrings "$CLINIC" "$s/tree" "$s/tree.json" 40
check "unchanged after --docstring" unchanged

# ---- the 3.13 dialect ------------------------------------------------------------
# --make over the CPython 3.13.5 tree (.c, .h and .cpp: its
# Include/patchlevel.h makes it 3.13's): getters and setters, the new
# syntax; the document valid, its stats its own, the tree untouched.
TREE313=$(sh "$top/tests/conformance/fetch313.sh" "$CACHE" | sed -n "s/^TREE='\(.*\)'$/\1/p")
if [ -n "$TREE313" ]; then
    mkdir "$s/tree313"
    (cd "$TREE313" && find . -type f \( -name '*.c' -o -name '*.h' -o -name '*.cpp' \) |
        tar cf - -T -) | (cd "$s/tree313" && tar xf -)
    (cd "$s" && find tree313 -type f | LC_ALL=C sort | xargs sha256sum) > "$s/before313"
    run "$s/tree313.json" "$s/tree313" --json --make --srcdir .
    run "$s/tree313.stats" "$s/tree313" --stats --make --srcdir .
    check "exit: --json over the 3.13 tree" exit_matches "$s/tree313.json"
    check "schema: the 3.13 tree" "$JSONSCHEMA_PYTHON" "$here/checks.py" schema \
        "$top/schema/clinic-query.schema.json" "$s/tree313.json"
    check "stats: --stats over the 3.13 tree agrees with --json" \
        "$PYTHON" "$here/checks.py" stats "$s/tree313.json" "$s/tree313.stats"
    check "unchanged: the 3.13 tree after --json and --stats" sh -c \
        'cd "$1" && find tree313 -type f | LC_ALL=C sort | xargs sha256sum | cmp -s - before313' - "$s"
else
    nfail=$((nfail + 1)); echo "  FAIL  the 3.13 tree: tests/conformance/fetch313.sh failed"
fi

# ---- the 3.14 and 3.15 dialects ------------------------------------------------------
# --json, --stats and --list with --dialect 3.14 and 3.15 over the 3.13.5
# tree (3.15 refuses the files whose summary lines are too long: reported
# as files with errors) and over each one's clinic.test.c; and what their
# syntax adds to the document: @deleter, the bitwise converters' deprecated
# wrapping (3.15).
mkdir "$s/new"
cat > "$s/new/new.c" <<'EOF2'
/*[clinic input]
module m
class m.C "PyObject *" "&PyBaseObject_Type"
[clinic start generated code]*/

/*[clinic input]
@getter
m.C.attr
[clinic start generated code]*/

/*[clinic input]
@setter
@deleter
m.C.attr
[clinic start generated code]*/

/*[clinic input]
m.f
    a: unsigned_short(bitwise=True)
    b: unsigned_long(bitwise=True)
    c: unsigned_int
    d: 'B'
    /
[clinic start generated code]*/
EOF2
cp "$s/new/new.c" "$s/new.orig"
new_syntax() {   # new_syntax DIALECT: the new members, in --json and --list
    run "$s/new$1.json" "$s/new" --dialect "$1" --json new.c
    run "$s/new$1.list" "$s/new" --dialect "$1" --list new.c
    [ "$(cat "$s/new$1.json.rc")" = 0 ] || { cat "$s/new$1.json.err"; return 1; }
    want=false; [ "$1" = 3.15 ] && want=true
    jq -e --argjson w "$want" '[.files[0].functions[] | [.kind, .deleter]] ==
            [["getter", false], ["setter", true], ["function", false]] and
        [.files[0].functions[2].parameters[] | .overflow_deprecated] ==
            [false, $w, $w, false, $w]' "$s/new$1.json" > /dev/null ||
        { jq -c '.files[0].functions[] | [.kind, .deleter, [.parameters[].overflow_deprecated]]' \
              "$s/new$1.json"; return 1; }
    grep -qx '      m.C.attr @setter @deleter' "$s/new$1.list" &&
        grep -qx '      m.C.attr @getter' "$s/new$1.list" || { cat "$s/new$1.list"; return 1; }
    "$JSONSCHEMA_PYTHON" "$here/checks.py" schema "$top/schema/clinic-query.schema.json" \
        "$s/new$1.json" && cmp -s "$s/new/new.c" "$s/new.orig"
}
for d in 3.14 3.15; do
    fetch=fetch$(echo $d | tr -d .).sh
    TEST_D=$(sh "$top/tests/conformance/$fetch" "$CACHE" | sed -n "s/^CLINIC_TEST='\(.*\)'$/\1/p")
    check "$d: @deleter, overflow_deprecated in --json; --list" new_syntax $d
    if [ -z "$TEST_D" ] || [ -z "$TREE313" ]; then
        nfail=$((nfail + 1)); echo "  FAIL  $d: tests/conformance/$fetch or fetch313.sh failed"
        continue
    fi
    mkdir "$s/test$d"
    cp "$TEST_D" "$s/test$d/clinic.test.c"
    run "$s/tree$d.json" "$s/tree313" --dialect $d --json --make --srcdir .
    run "$s/tree$d.stats" "$s/tree313" --dialect $d --stats --make --srcdir .
    run "$s/tree$d.list" "$s/tree313" --dialect $d --list --make --srcdir .
    run "$s/test$d.json" "$s/test$d" --dialect $d --json clinic.test.c
    run "$s/test$d.stats" "$s/test$d" --dialect $d --stats clinic.test.c
    check "exit: --dialect $d --json over the 3.13 tree" exit_matches "$s/tree$d.json"
    check "exit: --dialect $d --json over its clinic.test.c" exit_matches "$s/test$d.json"
    check "schema: the 3.13 tree and clinic.test.c, --dialect $d" "$JSONSCHEMA_PYTHON" \
        "$here/checks.py" schema "$top/schema/clinic-query.schema.json" \
        "$s/tree$d.json" "$s/test$d.json"
    check "stats: --dialect $d --stats over the 3.13 tree agrees with --json" \
        "$PYTHON" "$here/checks.py" stats "$s/tree$d.json" "$s/tree$d.stats"
    check "stats: --dialect $d --stats over its clinic.test.c agrees with --json" \
        "$PYTHON" "$here/checks.py" stats "$s/test$d.json" "$s/test$d.stats"
    check "list: --dialect $d, every function of the 3.13 tree once" \
        "$PYTHON" "$here/checks.py" list "$s/tree$d.json" "$s/tree$d.list"
    check "unchanged: clinic.test.c after --dialect $d" cmp -s "$TEST_D" "$s/test$d/clinic.test.c"
done
if [ -n "$TREE313" ]; then
    check "unchanged: the 3.13 tree after --dialect 3.14 and 3.15" sh -c \
        'cd "$1" && find tree313 -type f | LC_ALL=C sort | xargs sha256sum | cmp -s - before313' - "$s"
fi

# ---- the command line ------------------------------------------------------------
mkdir "$s/cli"
cp "$top"/fixtures/query/namespace.c "$top"/fixtures/query/broken.c "$s/cli/"
usage_errors() {
    for args in "--json -o x.c namespace.c" "--json --list namespace.c" \
                "--stats --check namespace.c" "--list --diff namespace.c" \
                "--docstring"; do
        rc=0
        # shellcheck disable=SC2086
        (cd "$s/cli" && exec "$CLINIC" $args) > /dev/null 2> "$s/cli.err" || rc=$?
        [ $rc -eq 2 ] || { echo "clinic $args: exit $rc, not 2"; return 1; }
    done
    [ ! -e "$s/cli/x.c" ]
}
check "cli: usage errors (exit 2)" usage_errors
one_bad_file() {
    run "$s/cli.json" "$s/cli" -v --json broken.c namespace.c
    grep -q '^broken.c:18: error: no_such_converter is not a valid converter$' \
        "$s/cli.json.err" || { cat "$s/cli.json.err"; return 1; }
    grep -qx 'namespace.c' "$s/cli.json.err" || { echo "-v: no file name on stderr"; return 1; }
    jq -e '[.files[].path] == ["broken.c", "namespace.c"] and
           .files[0].error.line == 18 and (.files[1].functions | length) == 9' \
        "$s/cli.json" > /dev/null || { echo "jq: unexpected document"; return 1; }
    exit_matches "$s/cli.json"
}
check "cli: a file with an error, the others still reported" one_bad_file
from_stdin() {
    run "$s/cli-file.json" "$s/cli" --json namespace.c
    rc=0
    (cd "$s/cli" && exec "$CLINIC" --json --stdin-filename namespace.c -) \
        < "$s/cli/namespace.c" > "$s/cli-stdin.json" 2>&1 || rc=$?
    [ $rc -eq 0 ] && cmp "$s/cli-file.json" "$s/cli-stdin.json"
}
check "cli: - (standard input) gives the file's document" from_stdin
check "unchanged after the command line checks" \
    sh -c 'cmp -s "$1/namespace.c" "$2/namespace.c" && cmp -s "$1/broken.c" "$2/broken.c"' \
    - "$s/cli" "$top/fixtures/query"

echo "query: $pass passed, $nfail failed"
[ $nfail -eq 0 ]
