#!/bin/sh
# make simd: the paths of lib/base/simd.h that this machine's default
# build does not take.  Builds with gcc and clang, -Werror:
#   build/nosimd        CLINIC_NO_SIMD=1: plain C alone (any CPU)
#   build/nosimd-clang  clang with __SSE2__ undefined, as on a CPU the
#                       compiler targets without SSE2 (built, unit tests)
#   build/noavx2        CLINIC_NO_AVX2=1: SSE2 without AVX2
# and runs the unit tests and fixtures under each, and the conformance
# floors under the plain C build.  Ends with "simd: N passed, N failed".
set -u
MAKE=${MAKE:-make}
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
. tests/counts.sh
pass=0 nfail=0
scratch=$(mktemp -d "${TMPDIR:-/tmp}/clinic-simd.XXXXXX")
trap 'rm -rf "$scratch"' EXIT INT TERM

part() {   # part NAME COMMAND...: run, show its count, add it up
    name=$1; shift
    "$@" > "$scratch/log" 2>&1
    rc=$?
    counts_of "$scratch/log" "$rc"
    pass=$((pass + p)) nfail=$((nfail + f))
    echo "simd $name: $p passed, $f failed"
    [ "$f" -eq 0 ] || tail -n 25 "$scratch/log" | sed 's/^/   | /'
}

M="$MAKE --no-print-directory"
# the builds compile in as many jobs as there are processors
B="$M -j$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)"
part nosimd-build $B CC=gcc BUILD=build/nosimd CLINIC_NO_SIMD=1 all test-bins
part nosimd-unit $M CC=gcc BUILD=build/nosimd CLINIC_NO_SIMD=1 unit
part nosimd-fixtures $M CC=gcc BUILD=build/nosimd CLINIC_NO_SIMD=1 fixtures
part nosimd-conformance $M CC=gcc BUILD=build/nosimd CLINIC_NO_SIMD=1 conformance
part nosse2-clang-build $B CC=clang BUILD=build/nosimd-clang CFLAGS=-U__SSE2__ all test-bins
part nosse2-clang-unit $M CC=clang BUILD=build/nosimd-clang CFLAGS=-U__SSE2__ unit
part noavx2-build $B CC=gcc BUILD=build/noavx2 CLINIC_NO_AVX2=1 all test-bins
part noavx2-unit $M CC=gcc BUILD=build/noavx2 CLINIC_NO_AVX2=1 unit
part noavx2-fixtures $M CC=gcc BUILD=build/noavx2 CLINIC_NO_AVX2=1 fixtures
echo "simd: $pass passed, $nfail failed"
[ $nfail -eq 0 ]
