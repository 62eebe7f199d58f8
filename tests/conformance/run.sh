#!/bin/sh
# make conformance: fetch the references into the cache, then run the
# harness (conformance.py) for each dialect with our clinic, or with the
# reference clinic.py itself when given --reference (make
# conformance-reference).  Ends with one line totalling every dialect's
# floors: "conformance floors: N passed, N failed".
#   --dialect D    score only dialect D (3.11, 3.13, 3.14 or 3.15); may be
#                  repeated; default: all four.  3.14 and 3.15 have no
#                  tree: their corpus is their clinic.test.c and
#                  test_clinic.py, and the 3.13 and 3.11 trees run with -f
#                  (their tiers are in sid.py)
# Other arguments go to conformance.py (e.g. --tiers regen,tamper -v).
#   CLINIC_CACHE   cache directory (default $HOME/.cache/clinic-conformance)
#   PYTHON         interpreter for the harness and both references (python3;
#                  3.13's clinic.py runs under Debian bookworm's 3.11)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
CACHE=${CLINIC_CACHE:-${HOME:-/tmp}/.cache/clinic-conformance}
PYTHON=${PYTHON:-python3}

# --dialect options are ours, wherever they are; the rest is the harness's
dialects=
n=$#
while [ $n -gt 0 ]; do
    case $1 in
        --dialect) dialects="$dialects $2"; shift 2; n=$((n - 2)) ;;
        --dialect=*) dialects="$dialects ${1#--dialect=}"; shift; n=$((n - 1)) ;;
        *) set -- "$@" "$1"; shift; n=$((n - 1)) ;;
    esac
done
[ -n "$dialects" ] || dialects="3.11 3.13 3.14 3.15"

# the third-party corpus, in every dialect: what this machine can have
# of it (thirdparty.sh names the rest, and why)
THIRDPARTY=
eval "$(sh "$here/thirdparty.sh" "$CACHE")"

mkdir -p build
verbose=
[ -n "${CONFORMANCE_VERBOSE:-}" ] && verbose=-v
log=$(mktemp "${TMPDIR:-/tmp}/clinic-conformance.XXXXXX")
trap 'rm -f "$log" "$log.rc"' EXIT INT TERM
status=0 passed=0 failed=0
for d in $dialects; do
    case $d in
        3.11) fetch=fetch.sh floor=floor ;;
        3.13) fetch=fetch313.sh floor=floor-3.13 ;;
        3.14) fetch=fetch314.sh floor=floor-3.14 ;;
        3.15) fetch=fetch315.sh floor=floor-3.15 ;;
        *) echo "conformance: unknown dialect $d (3.11, 3.13, 3.14 or 3.15)" >&2
           exit 2 ;;
    esac
    # 3.14 and 3.15: the older trees, run with -f through the reference
    F313= F311=
    case $d in
        3.14|3.15)
            eval "$(sh "$here/fetch313.sh" "$CACHE")"
            F313="3.13.5=$TREE:$CLINIC_TEST"
            eval "$(sh "$here/fetch.sh" "$CACHE")"
            F311="3.11.2=$TREE:$CLINIC_TEST" ;;
    esac
    TREE= TEST_CLINIC=
    paths=$(sh "$here/$fetch" "$CACHE")
    eval "$paths"
    { rc=0
      "$PYTHON" "$here/conformance.py" --dialect "$d" --cache "$CACHE" \
          --tree "$TREE" --test-clinic "$TEST_CLINIC" \
          --force-tree "$F313" --force-tree "$F311" \
          --refdir "$REFDIR" --clinic-test "$CLINIC_TEST" \
          --thirdparty "$THIRDPARTY" \
          --python "$PYTHON" --floor "$here/$floor" \
          --report "build/conformance-$d.json" $verbose "$@" || rc=$?
      echo $rc > "$log.rc"; } | tee "$log"
    rc=$(cat "$log.rc")
    [ $rc -eq 0 ] || status=$rc
    line=$(grep "^conformance $d floors:" "$log" | tail -n 1)
    if [ -n "$line" ]; then
        p=$(echo "$line" | sed -E 's/.*: ([0-9]+) passed, ([0-9]+) failed/\1/')
        f=$(echo "$line" | sed -E 's/.*: ([0-9]+) passed, ([0-9]+) failed/\2/')
        passed=$((passed + p)) failed=$((failed + f))
    elif [ $rc -ne 0 ]; then
        failed=$((failed + 1))
    fi
done
echo "conformance floors: $passed passed, $failed failed"
exit $status
