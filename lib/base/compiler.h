/*
 * compiler.h — the compiler's builtins the rest of clinic uses: bit scans
 * over the masks the vector compares give (simd.h), and the address of
 * the stack (the interpreter's bound on recursion measures it, its
 * collection reads it), and the function attributes the collection needs.
 * gcc and clang have them; elsewhere, and in the CLINIC_NO_SIMD build
 * (which is how make simd runs these portable paths), they are plain C.
 */
#ifndef CLINIC_COMPILER_H
#define CLINIC_COMPILER_H

#include <stdint.h>

#if (defined(__GNUC__) || defined(__clang__)) && !defined(CLINIC_NO_SIMD)
#define CLINIC_BUILTINS 1
#endif

/* Index of the lowest set bit of a non-zero mask. */
static inline unsigned clinic_lowest_bit64(uint64_t mask)
{
#ifdef CLINIC_BUILTINS
    return (unsigned)__builtin_ctzll(mask);
#else
    unsigned k = 0;
    while (!(mask & 1u)) {
        mask >>= 1;
        k++;
    }
    return k;
#endif
}

static inline unsigned clinic_lowest_bit(unsigned mask)
{
#ifdef CLINIC_BUILTINS
    return (unsigned)__builtin_ctz(mask);
#else
    return clinic_lowest_bit64(mask);
#endif
}

/* Index of the highest set bit of a non-zero mask. */
static inline unsigned clinic_highest_bit(unsigned mask)
{
#ifdef CLINIC_BUILTINS
    return (unsigned)(sizeof mask * 8 - 1) - (unsigned)__builtin_clz(mask);
#else
    unsigned k = 0;
    while (mask >>= 1)
        k++;
    return k;
#endif
}

/* An address in the caller's stack frame (a macro, so that it is the
   caller's): the frame's address, or that of a temporary the caller's
   block holds, which is as near for measuring how deep the stack is. */
#ifdef CLINIC_BUILTINS
#define CLINIC_STACK_ADDRESS() ((uintptr_t)__builtin_frame_address(0))
#else
#define CLINIC_STACK_ADDRESS() ((uintptr_t)(void *)&(char){0})
#endif

/* A function that keeps a frame of its own (CLINIC_NOINLINE), one whose
   body is copied into every caller, so that a constant argument (a
   divisor) is folded into it (CLINIC_ALWAYS_INLINE), and one whose
   reads the address sanitizer does not check: it reads stack and arena
   words only to compare them (CLINIC_NO_SANITIZE_ADDRESS). */
#if defined(__GNUC__) || defined(__clang__)
#define CLINIC_NOINLINE __attribute__((noinline))
#define CLINIC_ALWAYS_INLINE inline __attribute__((always_inline))
#define CLINIC_NO_SANITIZE_ADDRESS __attribute__((no_sanitize_address))
#else
#define CLINIC_NOINLINE
#define CLINIC_ALWAYS_INLINE inline
#define CLINIC_NO_SANITIZE_ADDRESS
#endif

#endif
