/*
 * simd.h — the one place that knows which vector instructions a build
 * may use.  The searches through whole texts (the scanner's, the UTF-8
 * check, the text helpers) each have a plain C path that every CPU runs,
 * an SSE2 path where the compiler targets it, and on x86-64 under gcc or
 * clang an AVX2 path chosen at run time on processors that have it.
 * CLINIC_NO_SIMD (make CLINIC_NO_SIMD=1) builds the plain C paths alone,
 * as on a CPU without SSE2; CLINIC_NO_AVX2 (make CLINIC_NO_AVX2=1) leaves
 * out the AVX2 paths, as on a processor without AVX2.  make check builds
 * and tests both (tests/simd.sh).
 */
#ifndef CLINIC_SIMD_H
#define CLINIC_SIMD_H

#include <stdbool.h>

#include "base/compiler.h"

#if defined(__SSE2__) && !defined(CLINIC_NO_SIMD)
#define CLINIC_SSE2 1
#include <emmintrin.h>
#endif

#if defined(CLINIC_SSE2) && !defined(CLINIC_NO_AVX2) &&                     \
    defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define CLINIC_AVX2 1
#include <immintrin.h>
/* a function built for AVX2 alone, called only where clinic_have_avx2() */
#define AVX2_FUNCTION __attribute__((target("avx2")))
static inline bool clinic_have_avx2(void)
{
    return __builtin_cpu_supports("avx2");
}
#endif

#endif
