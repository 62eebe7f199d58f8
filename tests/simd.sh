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

# part LANE NAME COMMAND...: run, keep its count and log for the lane
part() {
    lane=$1 name=$2; shift 2
    "$@" > "$scratch/$lane.log" 2>&1
    rc=$?
    counts_of "$scratch/$lane.log" "$rc"
    echo "$name $p $f" >> "$scratch/$lane.counts"
    [ "$f" -eq 0 ] || tail -n 25 "$scratch/$lane.log" | sed 's/^/   | /' > "$scratch/$lane.$name.tail"
}

M="$MAKE --no-print-directory"
# the builds compile in as many jobs as there are processors
B="$M -j$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)"

# two lanes side by side (their builds are apart; the tests of each
# mostly use one core), then the counts in this order
plain() {
    part a nosimd-build $B CC=gcc BUILD=build/nosimd CLINIC_NO_SIMD=1 all test-bins
    part a nosimd-unit $M CC=gcc BUILD=build/nosimd CLINIC_NO_SIMD=1 unit
    part a nosimd-fixtures $M CC=gcc BUILD=build/nosimd CLINIC_NO_SIMD=1 fixtures
    part a nosimd-conformance $M CC=gcc BUILD=build/nosimd CLINIC_NO_SIMD=1 conformance
}
no_sse2_avx2() {
    part b nosse2-clang-build $B CC=clang BUILD=build/nosimd-clang CFLAGS=-U__SSE2__ all test-bins
    part b nosse2-clang-unit $M CC=clang BUILD=build/nosimd-clang CFLAGS=-U__SSE2__ unit
    part b noavx2-build $B CC=gcc BUILD=build/noavx2 CLINIC_NO_AVX2=1 all test-bins
    part b noavx2-unit $M CC=gcc BUILD=build/noavx2 CLINIC_NO_AVX2=1 unit
    part b noavx2-fixtures $M CC=gcc BUILD=build/noavx2 CLINIC_NO_AVX2=1 fixtures
}
plain & lane_a=$!
no_sse2_avx2
wait $lane_a
for lane in a b; do
    while read -r name p f; do
        pass=$((pass + p)) nfail=$((nfail + f))
        echo "simd $name: $p passed, $f failed"
        [ ! -f "$scratch/$lane.$name.tail" ] || cat "$scratch/$lane.$name.tail"
    done < "$scratch/$lane.counts"
done
echo "simd: $pass passed, $nfail failed"
[ $nfail -eq 0 ]
