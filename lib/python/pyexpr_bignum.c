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

#include "base/compiler.h"

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

/* ---- limbs in any base up to 2^32 ----------------------------------------

   The multiplication and the base conversions work on limbs in a base
   given as an argument: 10^9 for values, 2^30 for binary (the two's
   complement of the bitwise operators and shifts, the digits of bases
   2, 8 and 16: 30 bits, so that the products of fifteen limbs add up
   in 64 bits), base^k for the digits of other bases.  Every sum below
   fits in 64 bits for a base up to 2^32. */

#define BINARY_BASE ((uint64_t)1 << 30)
#define BINARY_BITS 30
/* Below this many limbs, schoolbook multiplication beats Karatsuba's
   split (measured: 32 to 48 are within 3% of each other). */
#define KARATSUBA_MIN 40

/* r[0..n) += a[0..na), na <= n; returns the carry out of r[n - 1]. */
static uint32_t limbs_add(uint32_t *r, size_t n, const uint32_t *a, size_t na,
                          uint64_t base)
{
    uint64_t carry = 0;
    size_t i = 0;
    for (; i < na; i++) {
        uint64_t v = (uint64_t)r[i] + a[i] + carry;
        carry = v >= base;
        r[i] = (uint32_t)(carry ? v - base : v);
    }
    for (; carry && i < n; i++) {
        uint64_t v = (uint64_t)r[i] + 1;
        carry = v >= base;
        r[i] = (uint32_t)(carry ? v - base : v);
    }
    return (uint32_t)carry;
}

/* r[0..n) -= a[0..na), na <= n; returns the borrow out of r[n - 1]. */
static uint32_t limbs_sub(uint32_t *r, size_t n, const uint32_t *a, size_t na,
                          uint64_t base)
{
    uint64_t borrow = 0;
    size_t i = 0;
    for (; i < na; i++) {
        uint64_t s = (uint64_t)a[i] + borrow;
        borrow = r[i] < s;
        r[i] = (uint32_t)(borrow ? r[i] + base - s : r[i] - s);
    }
    for (; borrow && i < n; i++) {
        borrow = r[i] == 0;
        r[i] = (uint32_t)(borrow ? base - 1 : r[i] - 1);
    }
    return (uint32_t)borrow;
}

/* r[0..nx+ny) = x * y, schoolbook, taking the carries out at each limb
   step: for a base whose products do not add up in 64 bits.  A row's
   product and carry stay below base^2 <= 2^64; the limb above a row is
   still zero when the row ends, so its carry is stored, not added. */
static void school_mul_carrying(uint32_t *r, const uint32_t *x, size_t nx,
                                const uint32_t *y, size_t ny, uint64_t base)
{
    memset(r, 0, (nx + ny) * sizeof *r);
    for (size_t i = 0; i < nx; i++) {
        uint64_t carry = 0, xi = x[i];
        if (xi == 0)
            continue;
        uint32_t *row = r + i;
        for (size_t j = 0; j < ny; j++) {
            uint64_t v = xi * y[j] + row[j] + carry;
            row[j] = (uint32_t)(v % base);
            carry = v / base;
        }
        row[ny] = (uint32_t)carry;
    }
}

/* Carries taken out of acc[0..n): each column below base, the top one
   too (what acc holds is part of a product that fits in n limbs). */
static CLINIC_ALWAYS_INLINE void take_carries(uint64_t *acc, size_t n, uint64_t base)
{
    for (size_t k = 0; k + 1 < n; k++) {
        acc[k + 1] += acc[k] / base;
        acc[k] %= base;
    }
}

/* The same, for ny < KARATSUBA_MIN and a base whose products add up in
   64 bits `rows` at a time (with a column's value and carry): x is
   taken KARATSUBA_MIN limbs at a time, its product with y summed by
   column with no carry between the limb steps, which the processor
   then overlaps, and the carries taken out every `rows` rows.  Inlined
   per base, so that the divisions by a constant become
   multiplications. */
static CLINIC_ALWAYS_INLINE void
school_mul_summing(uint32_t *r, const uint32_t *x, size_t nx,
                   const uint32_t *y, size_t ny, uint64_t base, unsigned rows)
{
    uint64_t acc[2 * KARATSUBA_MIN];
    memset(r, 0, (nx + ny) * sizeof *r);
    for (size_t off = 0; off < nx; off += KARATSUBA_MIN) {
        size_t len = nx - off < KARATSUBA_MIN ? nx - off : KARATSUBA_MIN;
        size_t n = len + ny;
        memset(acc, 0, n * sizeof *acc);
        for (size_t i = 0; i < len; i++) {
            uint64_t xi = x[off + i];
            uint64_t *column = acc + i;
            for (size_t j = 0; j < ny; j++)
                column[j] += xi * y[j];
            if (i % rows == rows - 1)
                take_carries(acc, n, base);
        }
        uint64_t carry = 0;
        size_t k = 0;
        for (; k < n; k++) {
            uint64_t v = acc[k] + r[off + k] + carry;
            r[off + k] = (uint32_t)(v % base);
            carry = v / base;
        }
        for (; carry; k++) {
            uint64_t v = r[off + k] + carry;
            r[off + k] = (uint32_t)(v % base);
            carry = v / base;
        }
    }
}

static void school_mul(uint32_t *r, const uint32_t *x, size_t nx,
                       const uint32_t *y, size_t ny, uint64_t base)
{
    /* (10^9 - 1)^2 * 16 + 2 * 10^9 + 2^34 < 2^64, and
       (2^30 - 1)^2 * 15 + 2^30 + 2^34 < 2^64 */
    if (base == LIMB_BASE)
        school_mul_summing(r, x, nx, y, ny, LIMB_BASE, 16);
    else if (base == BINARY_BASE)
        school_mul_summing(r, x, nx, y, ny, BINARY_BASE, 15);
    else
        school_mul_carrying(r, x, nx, y, ny, base);
}

/* Limbs of workspace limbs_mul needs for operands of at most n limbs:
   a balanced split takes 4 ceil(n/2) + 4 and recurses on ceil(n/2) + 1,
   an unbalanced one 2 n and recurses on n. */
static size_t mul_workspace(size_t n)
{
    return 8 * n + 64 * 8;
}

/* r[0..nx+ny) = x * y (r apart from x and y).  Karatsuba: with x and y
   split at h limbs, x0 y0 and x1 y1 go to the low and high halves of r,
   and (x0 + x1)(y0 + y1) - x0 y0 - x1 y1 is added in at h: three
   half-size products where the schoolbook takes four.  An operand at
   most half the other's length multiplies the other's pieces of its
   own length in turn. */
static void limbs_mul(uint32_t *r, const uint32_t *x, size_t nx,
                      const uint32_t *y, size_t ny, uint64_t base,
                      uint32_t *ws)
{
    if (nx < ny) {
        const uint32_t *t = x;
        size_t tn = nx;
        x = y, nx = ny, y = t, ny = tn;
    }
    if (ny < KARATSUBA_MIN) {
        school_mul(r, x, nx, y, ny, base);
        return;
    }
    size_t h = (nx + 1) / 2, n = nx + ny;
    if (ny <= h) {
        uint32_t *piece = ws;
        memset(r, 0, n * sizeof *r);
        for (size_t off = 0; off < nx; off += ny) {
            size_t len = nx - off < ny ? nx - off : ny;
            limbs_mul(piece, x + off, len, y, ny, base, ws + 2 * ny);
            limbs_add(r + off, n - off, piece, len + ny, base);
        }
        return;
    }
    size_t nx1 = nx - h, ny1 = ny - h;
    uint32_t *sx = ws, *sy = ws + h + 1, *mid = ws + 2 * h + 2;
    memcpy(sx, x, h * sizeof *sx);
    sx[h] = limbs_add(sx, h, x + h, nx1, base);
    memcpy(sy, y, h * sizeof *sy);
    sy[h] = limbs_add(sy, h, y + h, ny1, base);
    uint32_t *rest = ws + 4 * h + 4;
    limbs_mul(r, x, h, y, h, base, rest);
    limbs_mul(r + 2 * h, x + h, nx1, y + h, ny1, base, rest);
    limbs_mul(mid, sx, h + 1, sy, h + 1, base, rest);
    limbs_sub(mid, 2 * h + 2, r, 2 * h, base);
    limbs_sub(mid, 2 * h + 2, r + 2 * h, nx1 + ny1, base);
    /* mid's limbs beyond r's end are zero: the product fits in r */
    size_t room = n - h < 2 * h + 2 ? n - h : 2 * h + 2;
    limbs_add(r + h, n - h, mid, room, base);
}

/* Limb steps of limbs_mul on nx and ny limbs: its recursion, followed
   down one branch (the three products of a split are alike). */
static uint64_t mul_steps(uint64_t nx, uint64_t ny)
{
    if (nx < ny) {
        uint64_t t = nx;
        nx = ny, ny = t;
    }
    if (ny < KARATSUBA_MIN)
        return nx * ny + 1;
    uint64_t h = (nx + 1) / 2;
    if (ny <= h)
        return (nx + ny - 1) / ny * mul_steps(ny, ny);
    return 3 * mul_steps(h + 1, h + 1) + 6 * (nx + ny);
}

/* A step of school_mul_summing, where the products take nearly all
   the time, takes a quarter of the time of a step that carries
   (measured: 1.5 ns against 6 to 9 ns); the work budget counts in the
   latter. */
#define SUMMING_STEPS_PER_STEP 4

uint64_t pyint_mul_work(size_t xdigits, size_t ydigits)
{
    return mul_steps(xdigits / 9 + 1, ydigits / 9 + 1) /
           SUMMING_STEPS_PER_STEP + 1;
}

static Mag mag_mul_in_base(Arena *a, const Mag *x, const Mag *y,
                           uint64_t base)
{
    Mag m = { arena_array_of(a, uint32_t, x->n + y->n + 1), x->n + y->n };
    if (x->n == 0 || y->n == 0) {
        m.n = 0;
        return m;
    }
    size_t longer = x->n > y->n ? x->n : y->n;
    uint32_t *ws = x->n < KARATSUBA_MIN && y->n < KARATSUBA_MIN ? NULL
                 : arena_array_uninit(a, uint32_t, mul_workspace(longer));
    limbs_mul(m.d, x->d, x->n, y->d, y->n, base, ws);
    mag_trim(&m);
    return m;
}

static Mag mag_mul(Arena *a, const Mag *x, const Mag *y)
{
    return mag_mul_in_base(a, x, y, LIMB_BASE);
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

/* ---- base conversion ------------------------------------------------------

   From limbs in one base to limbs in another, divide and conquer: the
   limbs split at a power of two, h, below their count; the high part is
   converted and multiplied by from^h (kept in the target base, squared
   from from^(h/2) when first needed), and the low part's conversion is
   added.  With Karatsuba's product that takes O(n^1.6) limb steps where
   the limb-by-limb conversion takes O(n^2). */

/* Below this many limbs, a conversion multiplies in limb by limb. */
#define CONVERT_MIN 48

typedef struct Conversion {
    Arena *a;
    uint64_t from, to;         /* each at least 10^8, below 2^32 */
    Mag power[64];             /* from^(2^k) in base to, once made */
} Conversion;

/* x = x * k + add in base `base`, for k, add and x's limbs below 2^32
   (the sums stay below 2^64); x must have room for the carry's limbs. */
static void mag_mul_small_in_base(Mag *x, uint64_t k, uint64_t add,
                                  uint64_t base)
{
    uint64_t carry = add;
    for (size_t i = 0; i < x->n; i++) {
        uint64_t v = (uint64_t)x->d[i] * k + carry;
        x->d[i] = (uint32_t)(v % base);
        carry = v / base;
    }
    while (carry) {
        x->d[x->n++] = (uint32_t)(carry % base);
        carry /= base;
    }
    mag_trim(x);
}

static Mag conversion_power(Conversion *c, unsigned k)
{
    if (!c->power[k].d) {
        if (k == 0) {
            Mag p = { arena_array_of(c->a, uint32_t, 3), 0 };
            for (uint64_t v = c->from; v; v /= c->to)
                p.d[p.n++] = (uint32_t)(v % c->to);
            c->power[0] = p;
        } else {
            Mag half = conversion_power(c, k - 1);
            c->power[k] = mag_mul_in_base(c->a, &half, &half, c->to);
        }
    }
    return c->power[k];
}

/* src[0..n) in base c->from, in base c->to.  The bases are at least
   10^8, so a limb of one is at most two of the other. */
static Mag convert_limbs(Conversion *c, const uint32_t *src, size_t n)
{
    while (n && src[n - 1] == 0)
        n--;
    if (n <= CONVERT_MIN) {
        Mag m = { arena_array_of(c->a, uint32_t, 2 * n + 2), 0 };
        if (c->from == LIMB_BASE && c->to == BINARY_BASE)
            for (size_t i = n; i-- > 0;)
                mag_mul_small_in_base(&m, LIMB_BASE, src[i], BINARY_BASE);
        else if (c->from == BINARY_BASE && c->to == LIMB_BASE)
            for (size_t i = n; i-- > 0;)
                mag_mul_small_in_base(&m, BINARY_BASE, src[i], LIMB_BASE);
        else
            for (size_t i = n; i-- > 0;)
                mag_mul_small_in_base(&m, c->from, src[i], c->to);
        return m;
    }
    unsigned k = 0;
    while (((size_t)2 << k) < n)
        k++;
    size_t h = (size_t)1 << k;          /* h < n <= 2 h */
    Mag low = convert_limbs(c, src, h), high = convert_limbs(c, src + h, n - h);
    Mag power = conversion_power(c, k);
    /* high * power has a spare limb, and is above low (< power) */
    Mag m = mag_mul_in_base(c->a, &high, &power, c->to);
    uint32_t carry = limbs_add(m.d, m.n, low.d, low.n, c->to);
    if (carry)
        m.d[m.n++] = carry;
    return m;
}

static Mag convert(Arena *a, const uint32_t *src, size_t n, uint64_t from,
                   uint64_t to)
{
    Conversion c = { .a = a, .from = from, .to = to };
    return convert_limbs(&c, src, n);
}

/* Limb steps of a conversion of n limbs: its products at every level
   come to about twice the top level's, with the powers; its leaves
   multiply in CONVERT_MIN limbs per limb. */
uint64_t pyint_convert_work(size_t digits)
{
    uint64_t n = digits / 9 + 1;
    return 2 * mul_steps(n, n) / SUMMING_STEPS_PER_STEP + CONVERT_MIN * n;
}

/* The most digits of base that one limb holds (base^k below 2^32), and
   base^k. */
static unsigned digits_per_limb(int base, uint64_t *power)
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

/* The digits of a power-of-two base are the binary value's bits, a few
   at a time, from the top. */
char *pyint_to_base(Arena *a, const char *x, int base)
{
    static const char digits[] = "0123456789abcdef";
    bool negative = *x == '-';
    Mag m = mag_from_text(a, x);
    if (m.n == 0)
        return arena_strdup(a, "0");
    unsigned per_digit = 0;
    while ((1 << per_digit) < base)
        per_digit++;
    Mag w = convert(a, m.d, m.n, LIMB_BASE, BINARY_BASE);
    uint64_t bits = BINARY_BITS * (uint64_t)(w.n - 1);
    for (uint32_t top = w.d[w.n - 1]; top; top >>= 1)
        bits++;
    size_t ndigits = (size_t)((bits + per_digit - 1) / per_digit);
    char *s = arena_alloc(a, ndigits + 2), *p = s;
    if (negative)
        *p++ = '-';
    for (size_t i = ndigits; i-- > 0;) {
        uint64_t at = (uint64_t)i * per_digit;
        size_t limb = (size_t)(at / BINARY_BITS);
        unsigned shift = (unsigned)(at % BINARY_BITS);
        uint64_t v = w.d[limb] >> shift;
        if (shift + per_digit > BINARY_BITS && limb + 1 < w.n)
            v |= (uint64_t)w.d[limb + 1] << (BINARY_BITS - shift);
        *p++ = digits[v & ((uint64_t)base - 1)];
    }
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
    unsigned k = digits_per_limb(base, &power);
    /* limbs of k digits in base^k, the last (most significant) shorter */
    size_t nlimbs = (n + k - 1) / k;
    uint32_t *limbs = arena_array_of(a, uint32_t, nlimbs + 1);
    for (size_t i = 0; i < nlimbs; i++) {
        size_t end = n - i * k, start = end > k ? end - k : 0;
        uint64_t v = 0;
        for (size_t j = start; j < end; j++) {
            int c = (unsigned char)digits[j];
            v = v * (uint64_t)base +
                (uint64_t)(c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
        }
        limbs[i] = (uint32_t)v;
    }
    Mag m = convert(a, limbs, nlimbs, power, LIMB_BASE);
    return mag_to_text(a, &m, false);
}

/* round(x, -places): half to even at 10^places, on the decimal digits
   (the rounding is symmetric, so on the magnitude). */
char *pyint_round_tens(Arena *a, const char *x, uint64_t places)
{
    bool negative = *x == '-';
    const char *d = x + negative;
    size_t len = strlen(d);
    if (places == 0)
        return arena_strdup(a, x);
    if (places > len)
        return arena_strdup(a, "0");
    size_t keep = len - (size_t)places;
    /* the dropped digits against half of 10^places: 5, then zeros */
    int c = d[keep] - '5';
    for (size_t i = keep + 1; c == 0 && i < len; i++)
        c = d[i] != '0';
    bool odd = keep && (d[keep - 1] - '0') % 2;
    /* the kept digits after a spare '0', plus one when rounding up */
    char *kept = arena_alloc(a, keep + 2);
    kept[0] = '0';
    memcpy(kept + 1, d, keep);
    if (c > 0 || (c == 0 && odd)) {
        size_t i = keep;
        while (kept[i] == '9')
            kept[i--] = '0';
        kept[i]++;
    }
    size_t start = 0;
    while (start <= keep && kept[start] == '0')
        start++;
    if (start > keep)
        return arena_strdup(a, "0");
    size_t n = keep + 1 - start;
    char *s = arena_alloc(a, negative + n + (size_t)places + 1), *p = s;
    if (negative)
        *p++ = '-';
    memcpy(p, kept + start, n);
    memset(p + n, '0', (size_t)places);
    p[n + places] = '\0';
    return s;
}

/* ---- shifts and bitwise operators -------------------------------------- */

/* The bits of src[0..n), from_bits a limb, in limbs of to_bits (both
   at most 32) at dst, which has room for them; returns their count. */
static size_t repack_bits(uint32_t *dst, const uint32_t *src, size_t n,
                          unsigned from_bits, unsigned to_bits)
{
    uint64_t acc = 0, mask = ((uint64_t)1 << to_bits) - 1;
    unsigned have = 0;
    size_t out = 0;
    for (size_t i = 0; i < n; i++) {
        acc |= (uint64_t)src[i] << have;
        for (have += from_bits; have >= to_bits; have -= to_bits) {
            dst[out++] = (uint32_t)(acc & mask);
            acc >>= to_bits;
        }
    }
    if (have)
        dst[out++] = (uint32_t)acc;
    return out;
}

/* Two's complement in base 2^32 with n words (n large enough for the
   sign), least significant first. */
static uint32_t *to_twos(Arena *a, const char *x, size_t n)
{
    Mag m = mag_from_text(a, x);
    Mag b = convert(a, m.d, m.n, LIMB_BASE, BINARY_BASE);
    uint32_t *w = arena_array_of(a, uint32_t, n + b.n);
    size_t used = repack_bits(w, b.d, b.n, BINARY_BITS, 32);
    /* the words past the value's (a repacking may leave one) are zero */
    memset(w + used, 0, (n + b.n - used) * sizeof *w);
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
    uint32_t *limbs = arena_array_uninit(a, uint32_t, n * 32 / BINARY_BITS + 2);
    size_t nlimbs = repack_bits(limbs, w, n, 32, BINARY_BITS);
    Mag m = convert(a, limbs, nlimbs, BINARY_BASE, LIMB_BASE);
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

/* x * 2^n: 2^n made by squaring 2^29 (a power of two below the limb
   base), then one product. */
char *pyint_lshift(Arena *a, const char *x, uint64_t n)
{
    Mag m = mag_from_text(a, x);
    if (m.n == 0)
        return arena_strdup(a, "0");
    Mag base = { arena_array_of(a, uint32_t, 2), 1 };
    base.d[0] = 1u << 29;
    Mag p = mag_pow(a, base, n / 29);
    Mag small = { arena_array_of(a, uint32_t, 2), 1 };
    small.d[0] = 1u << (n % 29);
    p = mag_mul(a, &p, &small);
    Mag r = mag_mul(a, &m, &p);
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
