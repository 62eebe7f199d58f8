#!/bin/sh
# make conformance: fetch the reference into the cache, then run the
# harness (conformance.py) with our clinic, or with clinic.py itself when
# given --reference (make conformance-reference).  Extra arguments go to
# conformance.py (e.g. --tiers regen,tamper -v).
#   CLINIC_CACHE   cache directory (default $HOME/.cache/clinic-conformance)
#   PYTHON         interpreter for the harness and the reference (python3)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
CACHE=${CLINIC_CACHE:-${HOME:-/tmp}/.cache/clinic-conformance}
PYTHON=${PYTHON:-python3}
paths=$(sh "$here/fetch.sh" "$CACHE")
eval "$paths"
mkdir -p build
verbose=
[ -n "${CONFORMANCE_VERBOSE:-}" ] && verbose=-v
exec "$PYTHON" "$here/conformance.py" --cache "$CACHE" --tree "$TREE" \
    --refdir "$REFDIR" --clinic-test "$CLINIC_TEST" --python "$PYTHON" \
    --floor "$here/floor" --report build/conformance.json $verbose "$@"
