/*
 * pyexpr_bignum.c — the rest of Python's int arithmetic on PyValue's
 * decimal-text ints: comparison, subtraction, floor division and modulo,
 * powers, shifts, the bitwise operators, other bases, and hash().
 *
 * pyexpr_value.c adds decimal text directly; the rest works on
 * magnitudes in base 10^9 (little-endian uint32 limbs), which convert to
 * and from decimal text in one pass.  The interpreter (pyvm_ops.c)
 * computes in int64 and comes here only when a result would not fit.
 * Multiplication and division are schoolbook (Knuth's algorithm D), in
 * place, so an operation on n-limb operands takes O(n^2) limb steps and
 * O(n) memory: the interpreter charges its work budget by those sizes
 * (pyint_work) before it calls in.  Conversions to and from other bases
 * move as many digits per pass as a limb step can take.
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

/* x = x * k + add in place, for k and add below 2^32; x must have room
   for two more limbs. */
static void mag_mul_small_in_place(Mag *x, uint32_t k, uint32_t add)
{
    uint64_t carry = add;
    for (size_t i = 0; i < x->n; i++) {
        uint64_t v = (uint64_t)x->d[i] * k + carry;
        x->d[i] = (uint32_t)(v % LIMB_BASE);
        carry = v / LIMB_BASE;
    }
    while (carry) {
        x->d[x->n++] = (uint32_t)(carry % LIMB_BASE);
        carry /= LIMB_BASE;
    }
    mag_trim(x);
}

static Mag mag_mul(Arena *a, const Mag *x, const Mag *y)
{
    Mag m = { arena_array_of(a, uint32_t, x->n + y->n + 1), x->n + y->n };
    for (size_t i = 0; i < x->n; i++) {
        uint64_t carry = 0, xi = x->d[i];
        if (xi == 0)
            continue;
        uint32_t *row = m.d + i;
        for (size_t j = 0; j < y->n; j++) {
            /* below 10^18 + 2 * 10^9: no overflow */
            uint64_t v = xi * y->d[j] + row[j] + carry;
            row[j] = (uint32_t)(v % LIMB_BASE);
            carry = v / LIMB_BASE;
        }
        for (size_t j = y->n; carry; j++) {
            uint64_t v = row[j] + carry;
            row[j] = (uint32_t)(v % LIMB_BASE);
            carry = v / LIMB_BASE;
        }
    }
    mag_trim(&m);
    return m;
}

/* q = x / y, r = x % y (magnitudes, y nonzero), Knuth's algorithm D:
   both scaled so that y's top limb is at least half the base, each
   quotient limb is estimated from the top limbs, off by at most one
   after the test on the second limb, and corrected by adding y back. */
static void mag_divmod(Arena *a, const Mag *x, const Mag *y, Mag *q, Mag *r)
{
    size_t n = x->n, m = y->n;
    if (mag_cmp(x, y) < 0) {
        *q = (Mag){ arena_array_of(a, uint32_t, 1), 0 };
        *r = mag_copy(a, x, 0);
        return;
    }
    if (m == 1) {
        *q = mag_copy(a, x, 0);
        uint64_t rem = mag_div_small(q, y->d[0]);
        *r = (Mag){ arena_array_of(a, uint32_t, 2), 0 };
        if (rem)
            r->d[r->n++] = (uint32_t)rem;
        return;
    }
    uint32_t scale = (uint32_t)(LIMB_BASE / ((uint64_t)y->d[m - 1] + 1));
    Mag u = mag_copy(a, x, 2), v = mag_copy(a, y, 2);
    mag_mul_small_in_place(&u, scale, 0);
    mag_mul_small_in_place(&v, scale, 0);
    for (size_t i = u.n; i <= n; i++)
        u.d[i] = 0;                 /* u has n + 1 limbs, the top maybe 0 */
    q->d = arena_array_of(a, uint32_t, n - m + 1);
    q->n = n - m + 1;
    uint64_t vtop = v.d[m - 1], vnext = v.d[m - 2];
    for (size_t j = n - m + 1; j-- > 0;) {
        uint64_t num = (uint64_t)u.d[j + m] * LIMB_BASE + u.d[j + m - 1];
        uint64_t qhat = num / vtop, rhat = num % vtop;
        while (qhat >= LIMB_BASE ||
               qhat * vnext > rhat * LIMB_BASE + u.d[j + m - 2]) {
            qhat--;
            rhat += vtop;
            if (rhat >= LIMB_BASE)
                break;
        }
        /* u[j .. j+m] -= qhat * v */
        uint64_t carry = 0;
        int64_t borrow = 0;
        for (size_t i = 0; i < m; i++) {
            uint64_t p = qhat * v.d[i] + carry;
            carry = p / LIMB_BASE;
            int64_t t = (int64_t)u.d[i + j] - (int64_t)(p % LIMB_BASE) - borrow;
            borrow = t < 0;
            u.d[i + j] = (uint32_t)(t + (borrow ? LIMB_BASE : 0));
        }
        int64_t top = (int64_t)u.d[j + m] - (int64_t)carry - borrow;
        if (top < 0) {
            /* one too many: add v back; the top limb wraps to zero */
            qhat--;
            top += LIMB_BASE;
            uint64_t c = 0;
            for (size_t i = 0; i < m; i++) {
                uint64_t s = (uint64_t)u.d[i + j] + v.d[i] + c;
                u.d[i + j] = (uint32_t)(s % LIMB_BASE);
                c = s / LIMB_BASE;
            }
            top = (int64_t)(((uint64_t)top + c) % LIMB_BASE);
        }
        u.d[j + m] = (uint32_t)top;
        q->d[j] = (uint32_t)qhat;
    }
    mag_trim(q);
    u.n = m;
    mag_trim(&u);
    mag_div_small(&u, scale);
    *r = u;
}

/* Limb steps of x * y (and of x / y), for the work budget: the product
   of their lengths in limbs. */
uint64_t pyint_work(const char *x, const char *y)
{
    size_t lx = strlen(x) / 9 + 1, ly = strlen(y) / 9 + 1;
    return (uint64_t)lx * ly;
}

char *pyint_mul(Arena *a, const char *x, const char *y)
{
    Mag mx = mag_from_text(a, x), my = mag_from_text(a, y);
    Mag m = mag_mul(a, &mx, &my);
    return mag_to_text(a, &m, (*x == '-') != (*y == '-') && m.n);
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

static Mag mag_pow(Arena *a, Mag base, uint64_t n)
{
    Mag result = { arena_array_of(a, uint32_t, 2), 1 };
    result.d[0] = 1;
    while (n) {
        if (n & 1)
            result = mag_mul(a, &result, &base);
        n >>= 1;
        if (n)
            base = mag_mul(a, &base, &base);
    }
    return result;
}

char *pyint_pow(Arena *a, const char *x, uint64_t n)
{
    Mag m = mag_pow(a, mag_from_text(a, x), n);
    return mag_to_text(a, &m, *x == '-' && (n & 1) && m.n);
}

/* The most digits of base that one limb step divides out or multiplies
   in (base^k below 2^32), and base^k. */
static unsigned digits_per_step(int base, uint64_t *power)
{
    unsigned k = 0;
    uint64_t p = 1;
    while (p * (uint64_t)base < (uint64_t)1 << 32) {
        p *= (uint64_t)base;
        k++;
    }
    *power = p;
    return k;
}

char *pyint_to_base(Arena *a, const char *x, int base)
{
    static const char digits[] = "0123456789abcdefghijklmnopqrstuvwxyz";
    bool negative = *x == '-';
    Mag m = mag_from_text(a, x);
    if (m.n == 0)
        return arena_strdup(a, "0");
    uint64_t power;
    unsigned k = digits_per_step(base, &power);
    size_t cap = m.n * 30 + k + 2, len = 0;
    char *rev = arena_alloc_uninit(a, cap);
    while (m.n) {
        uint64_t chunk = mag_div_small(&m, power);
        for (unsigned i = 0; i < k && (m.n || chunk); i++) {
            rev[len++] = digits[chunk % (uint64_t)base];
            chunk /= (uint64_t)base;
        }
    }
    char *s = arena_alloc(a, len + 2), *p = s;
    if (negative)
        *p++ = '-';
    while (len)
        *p++ = rev[--len];
    return s;
}

char *pyint_from_digits(Arena *a, const char *digits, size_t n, int base)
{
    if (base == 10) {
        /* already decimal: only the leading zeros go */
        while (n > 1 && digits[0] == '0') {
            digits++;
            n--;
        }
        return n ? arena_strndup(a, digits, n) : arena_strdup(a, "0");
    }
    uint64_t power;
    unsigned k = digits_per_step(base, &power);
    /* base^n < 2^(5.2 n) < 10^(1.6 n) for base <= 36 */
    Mag m = { arena_array_of(a, uint32_t, n * 16 / 90 + 3), 0 };
    for (size_t i = 0; i < n;) {
        uint64_t chunk = 0, scale = 1;
        for (unsigned j = 0; j < k && i < n; j++, i++) {
            int c = (unsigned char)digits[i];
            int d = c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
            chunk = chunk * (uint64_t)base + (uint64_t)d;
            scale *= (uint64_t)base;
        }
        mag_mul_small_in_place(&m, (uint32_t)scale, (uint32_t)chunk);
    }
    return mag_to_text(a, &m, false);
}

/* ---- shifts and bitwise operators -------------------------------------- */

/* Two's complement in base 2^32 with n words (n large enough for the
   sign), least significant first: one division of x by 2^32 per word,
   in place. */
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
    /* 2^(32 n) < 10^(9.7 n): 32 n / 29 limbs and two spare */
    Mag m = { arena_array_of(a, uint32_t, n * 32 / 29 + 4), 0 };
    for (size_t i = n; i-- > 0;) {
        mag_mul_small_in_place(&m, 65536, w[i] >> 16);
        mag_mul_small_in_place(&m, 65536, w[i] & 0xffff);
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

/* x * 2^n: x's limbs multiplied in place by 2^29 at a time (a power of
   two below the limb base), n / 29 passes over at most the result. */
char *pyint_lshift(Arena *a, const char *x, uint64_t n)
{
    Mag m = mag_from_text(a, x);
    if (m.n == 0)
        return arena_strdup(a, "0");
    /* 2^n < 10^(n * 0.302): n / 29 + 1 limbs more than x's */
    Mag r = mag_copy(a, &m, (size_t)(n / 29) + 3);
    for (uint64_t left = n; left;) {
        unsigned k = left >= 29 ? 29 : (unsigned)left;
        mag_mul_small_in_place(&r, 1u << k, 0);
        left -= k;
    }
    return mag_to_text(a, &r, *x == '-');
}

/* floor(x / 2^n): an arithmetic shift of the two's complement. */
char *pyint_rshift(Arena *a, const char *x, uint64_t n)
{
    size_t words = words_for(x);
    if (n >= (uint64_t)words * 32)
        return arena_strdup(a, *x == '-' ? "-1" : "0");
    uint32_t *w = to_twos(a, x, words);
    uint32_t fill = *x == '-' ? UINT32_MAX : 0;
    size_t skip = (size_t)(n / 32);
    unsigned bits = (unsigned)(n % 32);
    for (size_t i = 0; i < words; i++) {
        uint32_t lo = i + skip < words ? w[i + skip] : fill;
        uint32_t hi = i + skip + 1 < words ? w[i + skip + 1] : fill;
        w[i] = bits ? (lo >> bits) | (hi << (32 - bits)) : lo;
    }
    return from_twos(a, w, words);
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
