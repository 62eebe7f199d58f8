/*
 * pyexpr_bignum.c — the rest of Python's int arithmetic on PyValue's
 * decimal-text ints: comparison, subtraction, floor division and modulo,
 * powers, shifts, the bitwise operators, other bases, and hash().
 *
 * pyexpr_value.c adds and multiplies decimal text directly; the rest
 * works on magnitudes in base 10^9 (little-endian uint32 limbs), which
 * convert to and from decimal text in one pass.  The interpreter
 * (pyvm_ops.c) computes in int64 and comes here only when a result
 * would not fit, so simplicity beats speed: division is schoolbook with
 * a binary search per limb.
 */
#include "python/pyexpr_int.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define LIMB_BASE 1000000000u

typedef struct Mag {
    uint32_t *d;     /* limbs, least significant first */
    size_t n;        /* no leading zero limbs; 0 is n == 0 */
} Mag;

static void mag_trim(Mag *m)
{
    while (m->n && m->d[m->n - 1] == 0)
        m->n--;
}

/* The magnitude of decimal text (a leading '-' is skipped). */
static Mag mag_from_text(Arena *a, const char *s)
{
    if (*s == '-')
        s++;
    size_t len = strlen(s);
    Mag m = { arena_array_of(a, uint32_t, len / 9 + 1), 0 };
    for (size_t end = len; end > 0;) {
        size_t start = end >= 9 ? end - 9 : 0;
        uint32_t limb = 0;
        for (size_t i = start; i < end; i++)
            limb = limb * 10 + (uint32_t)(s[i] - '0');
        m.d[m.n++] = limb;
        end = start;
    }
    mag_trim(&m);
    return m;
}

static char *mag_to_text(Arena *a, const Mag *m, bool negative)
{
    if (m->n == 0)
        return arena_strdup(a, "0");
    char *s = arena_alloc(a, m->n * 9 + 2), *p = s;
    if (negative)
        *p++ = '-';
    p += sprintf(p, "%u", m->d[m->n - 1]);
    for (size_t i = m->n - 1; i-- > 0;)
        p += sprintf(p, "%09u", m->d[i]);
    return s;
}

static int mag_cmp(const Mag *x, const Mag *y)
{
    if (x->n != y->n)
        return x->n < y->n ? -1 : 1;
    for (size_t i = x->n; i-- > 0;)
        if (x->d[i] != y->d[i])
            return x->d[i] < y->d[i] ? -1 : 1;
    return 0;
}

static Mag mag_copy(Arena *a, const Mag *x, size_t extra)
{
    Mag m = { arena_array_of(a, uint32_t, x->n + extra + 1), x->n };
    if (x->n)
        memcpy(m.d, x->d, x->n * sizeof *m.d);
    return m;
}

/* x -= y, for x >= y. */
static void mag_sub_in_place(Mag *x, const Mag *y)
{
    int64_t borrow = 0;
    for (size_t i = 0; i < x->n; i++) {
        int64_t v = (int64_t)x->d[i] - borrow - (i < y->n ? y->d[i] : 0);
        borrow = v < 0;
        x->d[i] = (uint32_t)(v + (borrow ? LIMB_BASE : 0));
    }
    mag_trim(x);
}

/* x * k + add, for k and add below 2^32. */
static Mag mag_mul_small(Arena *a, const Mag *x, uint32_t k, uint32_t add)
{
    Mag m = { arena_array_of(a, uint32_t, x->n + 3), 0 };
    uint64_t carry = add;
    for (size_t i = 0; i < x->n; i++) {
        uint64_t v = (uint64_t)x->d[i] * k + carry;
        m.d[m.n++] = (uint32_t)(v % LIMB_BASE);
        carry = v / LIMB_BASE;
    }
    while (carry) {
        m.d[m.n++] = (uint32_t)(carry % LIMB_BASE);
        carry /= LIMB_BASE;
    }
    mag_trim(&m);
    return m;
}

/* x / k in place, for 0 < k <= 2^32; returns the remainder. */
static uint64_t mag_div_small(Mag *x, uint64_t k)
{
    uint64_t rem = 0;
    for (size_t i = x->n; i-- > 0;) {
        uint64_t v = rem * LIMB_BASE + x->d[i];
        x->d[i] = (uint32_t)(v / k);
        rem = v % k;
    }
    mag_trim(x);
    return rem;
}

/* q = x / y, r = x % y (magnitudes, y nonzero): per limb of x, the
   remainder grows by one limb and the quotient limb is found by binary
   search. */
static void mag_divmod(Arena *a, const Mag *x, const Mag *y, Mag *q, Mag *r)
{
    Mag rem = { arena_array_of(a, uint32_t, x->n + y->n + 2), 0 };
    q->d = arena_array_of(a, uint32_t, x->n + 1);
    q->n = x->n;
    for (size_t i = x->n; i-- > 0;) {
        /* rem = rem * BASE + x[i] */
        memmove(rem.d + 1, rem.d, rem.n * sizeof *rem.d);
        rem.d[0] = x->d[i];
        rem.n++;
        mag_trim(&rem);
        uint32_t lo = 0, hi = LIMB_BASE - 1;
        while (lo < hi) {
            uint32_t mid = lo + (hi - lo + 1) / 2;
            Mag t = mag_mul_small(a, y, mid, 0);
            if (mag_cmp(&t, &rem) <= 0)
                lo = mid;
            else
                hi = mid - 1;
        }
        q->d[i] = lo;
        if (lo) {
            Mag t = mag_mul_small(a, y, lo, 0);
            mag_sub_in_place(&rem, &t);
        }
    }
    mag_trim(q);
    *r = rem;
}

int pyint_cmp(const char *x, const char *y)
{
    bool nx = *x == '-', ny = *y == '-';
    if (nx != ny)
        return nx ? -1 : 1;
    const char *dx = x + nx, *dy = y + ny;
    size_t lx = strlen(dx), ly = strlen(dy);
    int c = lx != ly ? (lx < ly ? -1 : 1) : strcmp(dx, dy);
    if (c)
        c = c < 0 ? -1 : 1;
    return nx ? -c : c;
}

char *pyint_sub(Arena *a, const char *x, const char *y)
{
    return pyint_add(a, x, pyint_negate(a, y));
}

bool pyint_divmod(Arena *a, const char *x, const char *y, char **q, char **r)
{
    Mag mx = mag_from_text(a, x), my = mag_from_text(a, y), mq, mr;
    if (my.n == 0)
        return false;
    mag_divmod(a, &mx, &my, &mq, &mr);
    bool nx = *x == '-', ny = *y == '-';
    if (nx != ny && mr.n) {
        /* floor: the quotient rounds down, the remainder takes y's sign */
        Mag q1 = mag_copy(a, &mq, 1);
        /* q1 = mq + 1 */
        uint64_t carry = 1;
        for (size_t i = 0; i < q1.n && carry; i++) {
            uint64_t v = (uint64_t)q1.d[i] + carry;
            q1.d[i] = (uint32_t)(v % LIMB_BASE);
            carry = v / LIMB_BASE;
        }
        if (carry)
            q1.d[q1.n++] = (uint32_t)carry;
        mq = q1;
        Mag r1 = mag_copy(a, &my, 0);
        mag_sub_in_place(&r1, &mr);
        mr = r1;
    }
    if (q)
        *q = mag_to_text(a, &mq, nx != ny && mq.n);
    if (r)
        *r = mag_to_text(a, &mr, ny && mr.n);
    return true;
}

char *pyint_pow(Arena *a, const char *x, uint64_t n)
{
    char *result = arena_strdup(a, "1");
    const char *base = x;
    while (n) {
        if (n & 1)
            result = pyint_mul(a, result, base);
        n >>= 1;
        if (n)
            base = pyint_mul(a, base, base);
    }
    return result;
}

char *pyint_to_base(Arena *a, const char *x, int base)
{
    static const char digits[] = "0123456789abcdef";
    bool negative = *x == '-';
    Mag m = mag_from_text(a, x);
    if (m.n == 0)
        return arena_strdup(a, "0");
    size_t cap = m.n * 30 + 2, len = 0;
    char *rev = arena_alloc(a, cap);
    while (m.n)
        rev[len++] = digits[mag_div_small(&m, (uint64_t)base)];
    char *s = arena_alloc(a, len + 2), *p = s;
    if (negative)
        *p++ = '-';
    while (len)
        *p++ = rev[--len];
    return s;
}

/* ---- shifts and bitwise operators -------------------------------------- */

/* Two's complement in base 2^32 with n words (n large enough for the
   sign), least significant first. */
static uint32_t *to_twos(Arena *a, const char *x, size_t n)
{
    Mag m = mag_from_text(a, x);
    uint32_t *w = arena_array_of(a, uint32_t, n);
    for (size_t i = 0; i < n && m.n; i++)
        w[i] = (uint32_t)mag_div_small(&m, (uint64_t)1 << 32);
    if (*x == '-') {
        uint64_t carry = 1;
        for (size_t i = 0; i < n; i++) {
            uint64_t v = (uint64_t)(uint32_t)~w[i] + carry;
            w[i] = (uint32_t)v;
            carry = v >> 32;
        }
    }
    return w;
}

static char *from_twos(Arena *a, uint32_t *w, size_t n)
{
    bool negative = n && (w[n - 1] >> 31);
    if (negative) {
        uint64_t carry = 1;
        for (size_t i = 0; i < n; i++) {
            uint64_t v = (uint64_t)(uint32_t)~w[i] + carry;
            w[i] = (uint32_t)v;
            carry = v >> 32;
        }
    }
    Mag m = { arena_array_of(a, uint32_t, 2), 0 };
    for (size_t i = n; i-- > 0;) {
        m = mag_mul_small(a, &m, 65536, 0);
        m = mag_mul_small(a, &m, 65536, w[i]);
    }
    return mag_to_text(a, &m, negative && m.n);
}

/* words enough for x's magnitude and a sign bit */
static size_t words_for(const char *x)
{
    return strlen(x) / 9 + 2;
}

char *pyint_bitop(Arena *a, const char *x, const char *y, char op)
{
    size_t n = words_for(x) > words_for(y) ? words_for(x) : words_for(y);
    uint32_t *wx = to_twos(a, x, n), *wy = to_twos(a, y, n);
    for (size_t i = 0; i < n; i++)
        wx[i] = op == '&' ? (wx[i] & wy[i])
              : op == '|' ? (wx[i] | wy[i]) : (wx[i] ^ wy[i]);
    return from_twos(a, wx, n);
}

char *pyint_lshift(Arena *a, const char *x, uint64_t n)
{
    return pyint_mul(a, x, pyint_pow(a, "2", n));
}

char *pyint_rshift(Arena *a, const char *x, uint64_t n)
{
    char *q;
    if (n > 4000000)
        return arena_strdup(a, *x == '-' ? "-1" : "0");
    pyint_divmod(a, x, pyint_pow(a, "2", n), &q, NULL);
    return q;
}

/* hash(int): the value modulo 2^61 - 1 with x's sign; -1 becomes -2. */
int64_t pyint_hash(const char *x)
{
    const uint64_t modulus = ((uint64_t)1 << 61) - 1;
    bool negative = *x == '-';
    uint64_t h = 0;
    for (const char *p = x + negative; *p; p++) {
        /* h = (h * 10 + digit) mod 2^61-1, without overflow */
        uint64_t t = h;
        uint64_t acc = 0;
        for (int k = 0; k < 10; k++) {
            acc += t;
            if (acc >= modulus)
                acc -= modulus;
        }
        acc += (uint64_t)(*p - '0');
        if (acc >= modulus)
            acc -= modulus;
        h = acc;
    }
    int64_t r = negative ? -(int64_t)h : (int64_t)h;
    return r == -1 ? -2 : r;
}
