/*
 * pyexpr_int.h — helpers shared by the pyexpr_*.c files, not by clinic.
 *
 * Integer literals of any size are kept as decimal digit strings (the
 * PyValue convention); these convert and compare them.  UTF-8 helpers
 * are here because str values are UTF-8 and repr() works per code point.
 */
#ifndef CLINIC_PYEXPR_INT_H
#define CLINIC_PYEXPR_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "python/pyexpr.h"
#include "base/strbuf.h"

/* Digits (no underscores, no prefix) in base 2..36 to decimal text. */
char *pyint_from_digits(Arena *a, const char *digits, size_t n, int base);
/* Decimal text (optional '-') to int64; false when it does not fit. */
bool pyint_to_i64(const char *s, int64_t *out);
/* The int as a double, as float(int) would round it (false: too big). */
bool pyint_to_double(const char *s, double *out);
/* x + y and x * y in decimal text, of any size. */
char *pyint_add(Arena *a, const char *x, const char *y);
char *pyint_mul(Arena *a, const char *x, const char *y);
/* -s in decimal text. */
char *pyint_negate(Arena *a, const char *s);

/* pyexpr_bignum.c: the rest of int arithmetic in decimal text.  cmp is
   -1/0/1; divmod floors as Python's // and % do (false when y is 0);
   to_base gives the digits of x in base 2, 4, 8 or 16 (lowercase, '-' first);
   bitop is '&', '|' or '^' in two's complement; hash is hash(int). */
int pyint_cmp(const char *x, const char *y);
char *pyint_sub(Arena *a, const char *x, const char *y);
bool pyint_divmod(Arena *a, const char *x, const char *y, char **q, char **r);
char *pyint_pow(Arena *a, const char *x, uint64_t n);
char *pyint_to_base(Arena *a, const char *x, int base);
char *pyint_bitop(Arena *a, const char *x, const char *y, char op);
char *pyint_lshift(Arena *a, const char *x, uint64_t n);
char *pyint_rshift(Arena *a, const char *x, uint64_t n);
/* round(x, -places), half to even. */
char *pyint_round_tens(Arena *a, const char *x, uint64_t places);
int64_t pyint_hash(const char *x);
/* The limb steps x / y takes (to charge a budget before). */
uint64_t pyint_work(const char *x, const char *y);
/* The limb steps of x * y for ints of these many decimal digits, and of
   a conversion of such an int to or from another base (to_base,
   from_digits, the two's complement of the shifts and bit operators). */
uint64_t pyint_mul_work(size_t xdigits, size_t ydigits);
uint64_t pyint_convert_work(size_t digits);

/* repr() of a float; add_dot_0 is false inside complex reprs. */
void pyfloat_repr(StrBuf *sb, double x, bool add_dot_0);

/* repr() appended to sb. */
void pystr_repr(StrBuf *sb, const char *s, size_t len);
void pyvalue_repr(StrBuf *sb, const PyValue *v);

/* str.isprintable() of one code point (Unicode 14.0.0, as Python 3.11). */
bool unicode_isprintable(uint32_t c);

/* Decodes one UTF-8 sequence at s (n bytes left); returns its length
   and stores the code point (invalid bytes decode as themselves). */
size_t utf8_decode(const unsigned char *s, size_t n, uint32_t *cp);
void utf8_encode(StrBuf *sb, uint32_t cp);

/* sb's text copied into the arena; sb's memory released. */
char *pysb_take(StrBuf *sb, Arena *a);

/* Shared by literal_eval and the interpreter (pyexpr_literal.c): the symbol of a
   binary operator as TypeError's messages name it ("Add": "+", "Pow":
   "** or pow()"), and x % y for floats, with the divisor's sign. */
const char *py_op_symbol(const char *op);
double py_float_mod(double x, double y);
/* An int (decimal digits, any size) against a float, exactly, as Python
   orders them: -1, 0 or 1; 2 when the float is a NaN (unordered). */
int py_int_float_cmp(Arena *a, const char *digits, double f);

/* Makes values. */
PyValue py_make_int(const char *digits);
PyValue py_make_str(const char *s, size_t len);
PyValue py_make_opaque(const char *type_name, const char *repr);
/* An opaque value of that type the evaluator did not compute: what
   stands for it is never written out (see PyValue.uncomputed). */
PyValue py_make_uncomputed(const char *type_name, const char *stand_in);

#endif
