#!/bin/sh
# make fuzz-diff: the differential run of gen_dsl.c's declarations
# against the 3.14 and 3.15 references (tests/fuzz/differential.py), the
# references fetched and cached as for make conformance, run by Debian's
# python3 (3.11.2, whose set orders messages follow).
#
#   sh tests/fuzz/differential.sh CLINIC GEN_DSL_RUN [FIRST:COUNT] [-v]
#   CLINIC_CACHE, REF_PYTHON (default /usr/bin/python3)
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
CLINIC=$1 GEN=$2 SEEDS=${3:-1:300}
shift 2; [ $# -gt 0 ] && shift
CACHE=${CLINIC_CACHE:-${HOME:-/tmp}/.cache/clinic-conformance}
REF_PYTHON=${REF_PYTHON:-/usr/bin/python3}
if ! "$REF_PYTHON" -c 'import sys; assert sys.version_info[:3] == (3, 11, 2)' 2>/dev/null; then
    echo "fuzz-diff: CANNOT RUN: $REF_PYTHON is not Debian bookworm's python3 3.11.2"
    echo "fuzz-diff: 0 passed, 1 failed"
    exit 1
fi
refdirs=
for d in 3.14 3.15; do
    REFDIR=
    eval "$(sh "$top/tests/conformance/fetch$(echo $d | tr -d .).sh" "$CACHE")" || true
    if [ ! -f "$REFDIR/clinic.py" ]; then
        echo "fuzz-diff: CANNOT RUN: the $d reference could not be fetched into $CACHE"
        echo "fuzz-diff: 0 passed, 1 failed"
        exit 1
    fi
    refdirs="$refdirs --refdir $d=$REFDIR"
done
# shellcheck disable=SC2086
exec "$REF_PYTHON" "$top/tests/fuzz/differential.py" --clinic "$CLINIC" --gen "$GEN" \
    $refdirs --seeds "$SEEDS" --python "$REF_PYTHON" --cache "$CACHE" \
    --work "$top/build/fuzz-diff" "$@"
