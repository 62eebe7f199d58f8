#!/bin/sh
# CPython's own test suites, run against CPython 3.13.5 built as written
# and built after `clinic --convert` of its Modules/ and Objects/ (the
# files tests/convert/cpython.sh converts): every test must end the same
# way before and after (passed, skipped, failed, error), test by test.
#
#   1. "before": the conformance cache's 3.13.5 tree, configured and made
#      the way the portable tier builds CPython (tests/portable/pythons.sh),
#      once, in $CLINIC_PYTHONS/convert313/before.
#   2. the tree's Modules/ and Objects/ converted in a scratch directory
#      (clinic --dialect 3.13 --convert); "after" is a copy of "before"
#      into which only the files that differ are copied, then made: only
#      what the conversion changed since the last run is compiled again.
#      The files suites.txt marks "!" are built as written, with its reason.
#   3. the suites: suites.txt's "always" list and those of every converted
#      file; a converted file that suites.txt does not name fails the run.
#      Each side's results are kept per suite: "before" ones until the
#      regrtest options change, "after" ones while the converted files are
#      byte for byte those of the run that made them.  A suite whose tests
#      end differently is run again on both sides, once, before it fails.
#
# A suite that cannot run here (a module this machine cannot build, a
# resource left out) is named with regrtest's reason.  Ends with
# "cpython-suites: N passed, M failed", a suite a case.
#
# usage: suites.sh [CLINIC]
#   CLINIC_CACHE    the conformance cache (~/.cache/clinic-conformance)
#   CLINIC_PYTHONS  where the two builds live (~/.cache/clinic-pythons)
#   CLINIC_SUITES   run only these suites (the default: as above)
#   JOBS            make's and regrtest's parallel jobs (2)
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
CLINIC=${1:-$top/build/clinic}
case $CLINIC in /*) ;; *) CLINIC=$top/$CLINIC ;; esac
src=${CLINIC_CACHE:-$HOME/.cache/clinic-conformance}/src313/Python-3.13.5
cache=${CLINIC_PYTHONS:-$HOME/.cache/clinic-pythons}/convert313
jobs=${JOBS:-2}
table=$here/suites.txt
# resources: none that needs the network, a display, sound, or minutes
# of CPU or gigabytes of disk
resources=all,-network,-urlfetch,-largefile,-extralargefile,-cpu,-decimal,-gui,-audio,-tzdata,-walltime
regrtest_options="-j$jobs --timeout 1200 -u $resources"
# tests left out, by name, each with its reason (printed by every run);
# outside the results' key: results kept from before a test was left out
# still hold it, the comparison sees the side that lacks it, and runs the
# suite again on both sides
left_out="test_print_exception_gh_102056"
left_out_why="test_threading's test_print_exception_gh_102056: on a loaded machine its subprocess (a recursion that interrupt_main() is to stop) ran until the 20-minute timeout, on CPython as written and converted alike"
pass=0 nfail=0
fail() { echo "FAIL cpython-suites $1"; nfail=$((nfail + 1)); }
finish() { echo "cpython-suites: $pass passed, $nfail failed"; [ $nfail -eq 0 ]; exit $?; }

if [ ! -f "$src/Include/patchlevel.h" ]; then
    echo "CANNOT RUN cpython-suites: no CPython 3.13.5 tree in $src (make conformance fetches it)"
    nfail=1; finish
fi
mkdir -p "$cache"
# one run at a time uses the builds (another helper's make check waits)
exec 9>"$cache.lock"
flock 9
scratch=$(mktemp -d "${TMPDIR:-/tmp}/clinic-convert-suites.XXXXXX")
trap 'rm -rf "$scratch"' EXIT INT TERM
t0=$(date +%s)

# --- 1. CPython as written -------------------------------------------------
stamp="$src $(grep '#define PY_VERSION ' "$src/Include/patchlevel.h")"
if [ ! -f "$cache/before/.built" ] || [ "$(cat "$cache/before/.built")" != "$stamp" ]; then
    echo "progress: building CPython 3.13.5 as written in $cache/before (5-10 minutes, once)"
    # made in place (a build knows its directory); .built says it is whole
    rm -rf "$cache/before" "$cache/after" "$cache/results"
    cp -R "$src" "$cache/before"
    if ! (cd "$cache/before" && nice ./configure -q --without-ensurepip &&
          nice make -j"$jobs") > "$scratch/before.log" 2>&1; then
        fail "CPython 3.13.5 as written does not build; the end of its log:"
        tail -n 20 "$scratch/before.log" | sed 's/^/    /'
        finish
    fi
    echo "$stamp" > "$cache/before/.built"
fi

# --- 2. converted -----------------------------------------------------------
mkdir -p "$scratch/tree"
cp -R "$src/Modules" "$src/Objects" "$scratch/tree/"
cd "$scratch/tree" || exit 1
files=$(grep -lE 'PyMethodDef' Modules/*.c Modules/*/*.c Objects/*.c | grep -v test | LC_ALL=C sort)
# shellcheck disable=SC2086
if ! "$CLINIC" -q --dialect 3.13 --convert $files 2> "$scratch/notes.txt"; then
    fail "clinic --convert failed:"; grep error "$scratch/notes.txt" | head | sed 's/^/    /'
    finish
fi
converted=
for f in $files; do cmp -s "$src/$f" "$f" || converted="$converted $f"; done
# the generated header of FILE: DIR/clinic/NAME.h
header_of() { echo "${1%/*}/clinic/${1##*/}.h"; }
suites=$(awk '$1 == "always" { for (i = 2; i <= NF; i++) print $i }' "$table")
for f in $converted; do
    line=$(awk -v f="$f" '$1 == f' "$table")
    case $line in
        "") fail "$f is converted, and suites.txt does not name its suites (or why it has none)" ;;
        *" ! "*)
            echo "built as written: $f (${line#* ! })"
            cp "$src/$f" "$f"
            h=$(header_of "$f")
            if [ -f "$src/$h" ]; then cp "$src/$h" "$h"; else rm -f "$h"; fi ;;
        *" - "*) echo "no suite: $f (${line#* - })" ;;
        *) suites="$suites $(echo "$line" | awk '{ for (i = 2; i <= NF; i++) print $i }')" ;;
    esac
done
suites=$(echo $suites | tr ' ' '\n' | LC_ALL=C sort -u)
[ -z "${CLINIC_SUITES:-}" ] || suites=$(echo $CLINIC_SUITES | tr ' ' '\n')
nconverted=$(echo $converted | wc -w)

if [ ! -f "$cache/after/.built" ]; then
    rm -rf "$cache/after" "$cache/after.tmp"
    # -a: the objects stay newer than their sources.  The copy still
    # names "before" as its build directory (sysconfig's abs_builddir):
    # regrtest's working directories are given (--tempdir)
    cp -a "$cache/before" "$cache/after.tmp"
    mv "$cache/after.tmp" "$cache/after"
fi
# the tree converted: copy what differs, drop the headers of an earlier
# conversion that this one no longer makes
find Modules Objects -type f | while read -r f; do
    cmp -s "$f" "$cache/after/$f" && continue
    mkdir -p "$cache/after/${f%/*}" && cp "$f" "$cache/after/$f"
done
(cd "$cache/after" && find Modules Objects -path '*/clinic/*.h' -type f) | while read -r h; do
    [ -f "$h" ] || rm -f "$cache/after/$h"
done
if ! (cd "$cache/after" && nice make -j"$jobs") > "$scratch/after.log" 2>&1; then
    fail "CPython 3.13.5 with the converted files does not build:"
    grep -E 'error|Error' "$scratch/after.log" | head -n 20 | sed 's/^/    /'
    finish
fi
# what the "after" results depend on: the converted files as built
after_key=$(cd "$cache/after" && for f in $converted; do
    sha256sum "$f" "$(header_of "$f")" 2>/dev/null; done | sha256sum | cut -c1-16)
# results_version: raised whenever run() reads regrtest's output otherwise
results_version=2
before_key=results$results_version:options:$(echo "$regrtest_options" | sha256sum | cut -c1-16)
after_key="$before_key converted:$after_key"
echo "progress: $nconverted files converted and built ($(($(date +%s) - t0)) s)"

# --- 3. the suites ------------------------------------------------------------
echo "left out: $left_out_why"
# run SIDE SUITE...: regrtest on SIDE's build; each suite's outcome into
# $cache/results/SIDE/SUITE (its key on the first line, then "file: ..."
# and one "TEST OUTCOME" line per test, sorted)
run() {
    side=$1; shift
    out=$cache/results/$side
    mkdir -p "$out"
    rm -f "$scratch/junit.xml"
    # shellcheck disable=SC2086
    mkdir -p "$scratch/regrtest-$side"
    (cd "$cache/$side" && TERM=${TERM:-xterm} nice ./python -m test $regrtest_options \
        --tempdir "$scratch/regrtest-$side" $(for t in $left_out; do echo "-i $t"; done) --junit-xml "$scratch/junit.xml" "$@") \
        > "$scratch/$side.regrtest" 2>&1
    "$cache/before/python" - "$scratch/junit.xml" "$scratch/$side.regrtest" "$out" \
        "$(eval echo "\$${side}_key")" "$@" <<'EOF'
import re, sys, xml.etree.ElementTree as ET
junit, log, out, key, suites = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:]
tests = {s: [] for s in suites}
# the test modules a suite runs under another name
alias = {"datetimetester": "test_datetime"}
try:
    root = ET.parse(junit).getroot()
except (OSError, ET.ParseError):
    root = ET.Element("none")
for case in root.iter("testcase"):
    name = case.get("name", "")
    outcome = "passed"
    for child in case:
        if child.tag in ("skipped", "failure", "error"):
            outcome = child.tag
    parts = name.split(".")
    suite = parts[1] if len(parts) > 1 and parts[0] == "test" else parts[0]
    suite = alias.get(suite, suite)
    if suite in tests:
        tests[suite].append(f"{name} {outcome}")
text = open(log, encoding="utf-8", errors="replace").read()
for s in suites:
    # regrtest's word for the file: passed, failed, skipped (and why),
    # resource denied, crashed ...
    m = re.findall(r"\] " + re.escape(s) + r"(?: \([^)]*\))? (passed|failed|skipped|crashed|resource denied|env changed|ran no tests|timed out)[^\n]*", text)
    why = re.findall(r"^" + re.escape(s) + r" skipped -- ([^\n]*)", text, re.M)
    status = m[-1] if m else ("no result in regrtest's output")
    if why:
        status += " -- " + why[-1]
    if not m and tests[s]:
        status = "passed"
    with open(f"{out}/{s}", "w", encoding="utf-8") as f:
        f.write(key + "\n" + "file: " + status + "\n")
        for t in sorted(tests[s]):
            f.write(t + "\n")
EOF
}

# stale SIDE: the suites whose kept results are not of this key
stale() {
    key=$(eval echo "\$${1}_key")
    for s in $suites; do
        [ "$(head -n 1 "$cache/results/$1/$s" 2>/dev/null)" = "$key" ] || echo "$s"
    done
}
for side in before after; do
    todo=$(stale $side)
    if [ -n "$todo" ]; then
        echo "progress: $side: running $(echo $todo | wc -w) suites ($(echo $todo | tr '\n' ' '))"
        # shellcheck disable=SC2086
        run $side $todo
    else
        echo "progress: $side: the results of all $(echo $suites | wc -w) suites are kept from an earlier run of the same build"
    fi
done

# compare SUITE: the two results without their keys
compare() {
    tail -n +2 "$cache/results/before/$1" > "$scratch/b"
    tail -n +2 "$cache/results/after/$1" > "$scratch/a"
    diff "$scratch/b" "$scratch/a" > "$scratch/d"
}
again=
for s in $suites; do compare "$s" || again="$again $s"; done
if [ -n "$again" ]; then
    echo "progress: ends differ in$again: run again on both sides"
    # shellcheck disable=SC2086
    run before $again
    # shellcheck disable=SC2086
    run after $again
fi
tests=0 skipped=0
for s in $suites; do
    r=$cache/results/after/$s
    n=$(tail -n +3 "$r" | wc -l)
    k=$(grep -c ' skipped$' "$r")
    bad=$(grep -c -E ' (failure|error)$' "$r")
    status=$(sed -n 2p "$r"); status=${status#file: }
    if ! compare "$s"; then
        fail "$s: tests end differently after the conversion (< before, > after):"
        head -n 20 "$scratch/d" | sed 's/^/    /'
        continue
    fi
    case $status in
        passed*|"env changed"*)
            if [ "$n" -eq 0 ]; then
                fail "$s: regrtest says $status, and none of its tests is counted (a test module of another name: the alias table of run())"
                continue
            fi ;;
        *) if [ "$n" -eq 0 ]; then
               echo "CANNOT RUN $s: $status (the same before and after)"; continue
           fi ;;
    esac
    failing=
    [ "$bad" -eq 0 ] || failing=", $bad failing on both sides"
    echo "$s: $n tests, $k skipped$failing, the same before and after ($status)"
    tests=$((tests + n)) skipped=$((skipped + k))
    pass=$((pass + 1))
done
echo "cpython-suites: $tests tests in $(echo $suites | wc -w) suites, $skipped skipped, $(($(date +%s) - t0)) s"
finish
