/* decimal.c: see decimal.h. */
#include "results/decimal.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* v = f x 2^e2 exactly (v > 0, finite), f below 2^53: the IEEE fields,
 * read without frexp and ldexp (they were a tenth of the tree's time). */
static void binary_parts(double v, uint64_t *f, int *e2)
{
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    int biased = (int)(bits >> 52 & 0x7ff);
    uint64_t fraction = bits & ((UINT64_C(1) << 52) - 1);
    *f = biased ? fraction | UINT64_C(1) << 52 : fraction; /* subnormal: no hidden bit */
    *e2 = (biased ? biased : 1) - 1075;
}

/* ---- exact comparison ----------------------------------------------- */

#ifdef __SIZEOF_INT128__
__extension__ typedef unsigned __int128 u128; /* GCC and Clang, on 64-bit targets */

/* Powers of ten that fit 64 bits. */
static const uint64_t pow10_u64[20] = {
    1u, 10u, 100u, 1000u, 10000u, 100000u, 1000000u, 10000000u, 100000000u,
    1000000000u, 10000000000u, 100000000000u, 1000000000000u, 10000000000000u,
    100000000000000u, 1000000000000000u, 10000000000000000u, 100000000000000000u,
    1000000000000000000u, 10000000000000000000u};

/* m x 10^k, k <= 22 (m below 2^54: it fits). */
static u128 times_pow10(uint64_t m, int k)
{
    u128 r = (u128)m * pow10_u64[k < 19 ? k : 19];
    return k > 19 ? r * pow10_u64[k - 19] : r;
}

/* The sign of c - m / 2^shift (0 < shift < 128). */
static int compare_fraction(u128 c, u128 m, int shift)
{
    u128 q = m >> shift;
    if (c != q)
        return c < q ? -1 : 1;
    return m == q << shift ? 0 : -1;
}

/* compare_scaled's answer in 128-bit integers, when they hold it: stores it
 * in *sign and returns true. */
static bool compare_small(uint64_t digits, int exp10, uint64_t m, int exp2, int *sign)
{
    if (exp2 >= 0 || exp2 < -127 || exp10 < -22 || exp10 > 21)
        return false;
    if (exp10 <= 0) /* digits vs m x 10^-exp10 / 2^-exp2 */
        *sign = compare_fraction(digits, times_pow10(m, -exp10), -exp2);
    else /* digits x 10^exp10 (below 2^127) vs m / 2^-exp2 */
        *sign = compare_fraction(times_pow10(digits, exp10), m, -exp2);
    return true;
}
#else
static bool compare_small(uint64_t digits, int exp10, uint64_t m, int exp2, int *sign)
{
    (void)digits, (void)exp10, (void)m, (void)exp2, (void)sign;
    return false;
}
#endif

/* Unsigned integers of up to BIG_WORDS x 32 bits. The largest compared is
 * a 57-bit mantissa times 5^340 (a decimal near the smallest subnormal) or
 * shifted by some 740 bits: about 900 bits. */
#define BIG_WORDS 64

typedef struct {
    uint32_t w[BIG_WORDS]; /* least significant first, no zero words on top */
    int n;
} big;

static void big_set(big *b, uint64_t v)
{
    b->w[0] = (uint32_t)v;
    b->w[1] = (uint32_t)(v >> 32);
    b->n = b->w[1] ? 2 : b->w[0] ? 1 : 0;
}

static void big_mul_small(big *b, uint32_t m)
{
    uint64_t carry = 0;
    for (int i = 0; i < b->n; i++) {
        uint64_t t = (uint64_t)b->w[i] * m + carry;
        b->w[i] = (uint32_t)t;
        carry = t >> 32;
    }
    if (carry)
        b->w[b->n++] = (uint32_t)carry;
}

static void big_mul_pow5(big *b, int e)
{
    static const uint32_t pow5[13] = {1,      5,       25,       125,       625,
                                      3125,   15625,   78125,    390625,    1953125,
                                      9765625, 48828125, 244140625};
    for (; e >= 13; e -= 13)
        big_mul_small(b, 1220703125u); /* 5^13, the largest that fits */
    if (e > 0)
        big_mul_small(b, pow5[e]);
}

static void big_shift_left(big *b, int bits)
{
    if (b->n == 0)
        return;
    int words = bits / 32, shift = bits % 32;
    if (shift) {
        uint32_t top = b->w[b->n - 1] >> (32 - shift);
        for (int i = b->n - 1; i > 0; i--)
            b->w[i] = b->w[i] << shift | b->w[i - 1] >> (32 - shift);
        b->w[0] <<= shift;
        if (top)
            b->w[b->n++] = top;
    }
    if (words) {
        memmove(b->w + words, b->w, (size_t)b->n * sizeof *b->w);
        memset(b->w, 0, (size_t)words * sizeof *b->w);
        b->n += words;
    }
}

static int big_compare(const big *a, const big *b)
{
    if (a->n != b->n)
        return a->n < b->n ? -1 : 1;
    for (int i = a->n - 1; i >= 0; i--)
        if (a->w[i] != b->w[i])
            return a->w[i] < b->w[i] ? -1 : 1;
    return 0;
}

/* The sign of digits x 10^exp10 - m x 2^exp2, computed exactly: both sides
 * are multiplied by 5^-exp10 and 2^-min(exp10, exp2) until integers. */
static int compare_scaled(uint64_t digits, int exp10, uint64_t m, int exp2)
{
    int sign;
    if (compare_small(digits, exp10, m, exp2, &sign))
        return sign;
    big a, b;
    big_set(&a, digits);
    big_set(&b, m);
    if (exp10 >= 0)
        big_mul_pow5(&a, exp10);
    else
        big_mul_pow5(&b, -exp10);
    if (exp10 >= exp2)
        big_shift_left(&a, exp10 - exp2);
    else
        big_shift_left(&b, exp2 - exp10);
    return big_compare(&a, &b);
}

static uint64_t mantissa_of(const rc_decimal *d)
{
    uint64_t m = 0;
    for (int i = 0; i < d->n; i++)
        m = m * 10 + (uint64_t)(d->digits[i] - '0');
    return m;
}

/* Whether strtod reads d back as v (v > 0, finite): d lies between the
 * midpoints from v to its neighbours, or on one when v's mantissa is even
 * (round half to even). Below a power of two the doubles are twice as
 * dense, so the lower midpoint is nearer. */
static bool reads_back(const rc_decimal *d, double v)
{
    uint64_t f;
    int e2;
    binary_parts(v, &f, &e2);
    bool even = (f & 1) == 0;
    bool lower_nearer = f == (UINT64_C(1) << 52) && e2 > -1074;
    uint64_t digits = mantissa_of(d);
    int exp10 = d->exp - (d->n - 1);
    int low = lower_nearer ? compare_scaled(digits, exp10, 4 * f - 1, e2 - 2)
                           : compare_scaled(digits, exp10, 2 * f - 1, e2 - 1);
    if (low < 0 || (low == 0 && !even))
        return false;
    int high = compare_scaled(digits, exp10, 2 * f + 1, e2 - 1);
    return high < 0 || (high == 0 && even);
}

/* ---- digits --------------------------------------------------------- */

static void strip_zeros(rc_decimal *d)
{
    while (d->n > 1 && d->digits[d->n - 1] == '0')
        d->n--;
    d->digits[d->n] = '\0';
    if (d->n == 1 && d->digits[0] == '0')
        d->exp = 0;
}

/* Reads printf's "d.ddde+XX" (or "de+XX"). */
static void parse_e(const char *s, rc_decimal *d)
{
    d->n = 0;
    for (; *s && *s != 'e'; s++)
        if (*s >= '0' && *s <= '9' && d->n < RC_DECIMAL_DIGITS)
            d->digits[d->n++] = *s;
    d->exp = *s == 'e' ? atoi(s + 1) : 0;
    strip_zeros(d);
}

/* printf's rounding of v (v > 0) to `precision` significant digits. */
static void printf_digits(double v, int precision, rc_decimal *d)
{
    char s[48];
    snprintf(s, sizeof s, "%.*e", precision - 1, v);
    parse_e(s, d);
}

/* Writes the 17 digits of n (10^16 <= n < 10^17) with decimal exponent x. */
static void put_seventeen(uint64_t n, int x, rc_decimal *d)
{
    for (int i = RC_DECIMAL_DIGITS - 1; i >= 0; i--, n /= 10)
        d->digits[i] = (char)('0' + n % 10);
    d->n = RC_DECIMAL_DIGITS;
    d->exp = x;
    strip_zeros(d);
}

#ifdef __SIZEOF_INT128__
/* v's 17 digits as printf rounds them (to nearest, halves to even), from
 * v = f x 2^e2 as round(f x 10^k / 2^-e2) in 128-bit integers; false where
 * that does not fit (v below about 1e-6, or 2^53 and above). *exact:
 * whether the digits are v's exact value. */
static bool digits_by_integer(double v, rc_decimal *d, bool *exact)
{
    uint64_t f;
    int e2;
    binary_parts(v, &f, &e2);
    int shift = -e2; /* v = f / 2^shift */
    int x = (int)floor(log10(v)); /* the decimal exponent, or one off */
    for (int tries = 0; tries < 3; tries++) {
        int k = RC_DECIMAL_DIGITS - 1 - x; /* v x 10^k has 17 digits */
        if (k < 0 || k > 22 || shift <= 0 || shift > 127)
            return false;
        u128 num = times_pow10(f, k); /* f < 2^53, 10^22 < 2^74: it fits */
        u128 n = num >> shift, rest = num - (n << shift);
        u128 half = (u128)1 << (shift - 1);
        if (n >= pow10_u64[RC_DECIMAL_DIGITS]) {
            x++;
            continue;
        }
        if (n < pow10_u64[RC_DECIMAL_DIGITS - 1]) {
            x--;
            continue;
        }
        if (rest > half || (rest == half && (n & 1)))
            n++;
        *exact = rest == 0;
        if (n == pow10_u64[RC_DECIMAL_DIGITS]) /* 99...9.5 rounds to 10^17 */
            put_seventeen((uint64_t)(n / 10), x + 1, d);
        else
            put_seventeen((uint64_t)n, x, d);
        return true;
    }
    return false;
}
#else
static bool digits_by_integer(double v, rc_decimal *d, bool *exact)
{
    (void)v, (void)d, (void)exact;
    return false; /* printf then */
}
#endif

/* v's first 17 significant digits, correctly rounded (v > 0). Returns
 * whether they are v's exact value, as they are for an integer below
 * 2^53. Integers (counts are most of a report's numbers) and values from
 * about 1e-6 are written without printf. */
static bool seventeen_digits(double v, rc_decimal *d)
{
    bool exact = false;
    if (!(v < 9007199254740992.0 && v == floor(v))) {
        if (!digits_by_integer(v, d, &exact))
            printf_digits(v, RC_DECIMAL_DIGITS, d);
        return exact;
    }
    char rev[RC_DECIMAL_DIGITS];
    int n = 0;
    for (uint64_t i = (uint64_t)v; i > 0; i /= 10)
        rev[n++] = (char)('0' + i % 10);
    for (int k = 0; k < n; k++)
        d->digits[k] = rev[n - 1 - k];
    d->n = n;
    d->exp = n - 1;
    strip_zeros(d);
    return true;
}

/* Keeps d's first `digits` digits, adding one to the last when `up`. */
static void truncate_digits(rc_decimal *d, int digits, bool up)
{
    d->n = digits;
    d->digits[digits] = '\0';
    int i = digits - 1;
    while (up && i >= 0 && d->digits[i] == '9')
        d->digits[i--] = '0';
    if (up && i >= 0)
        d->digits[i]++;
    else if (up) { /* 9.99 -> 10.0 */
        d->digits[0] = '1';
        d->exp++;
    }
    strip_zeros(d);
}

/* `all` (v's 17 digits) rounded to `precision` digits as printf rounds v:
 * to nearest, halves to even. From 17 rounded digits that is the same
 * except where they end in a half exactly ("...5000"), which may have been
 * rounded from either side: false then, unless they are exact. */
static bool round_like_printf(const rc_decimal *all, bool exact, int precision, rc_decimal *out)
{
    *out = *all;
    if (all->n <= precision)
        return true;
    char next = all->digits[precision];
    bool half = next == '5' && all->n == precision + 1; /* no digit after it */
    if (half && !exact)
        return false;
    bool up = half ? (all->digits[precision - 1] - '0') % 2 == 1 : next >= '5';
    truncate_digits(out, precision, up);
    return true;
}

static void candidate(double v, const rc_decimal *all, bool exact, int precision,
                      rc_decimal *out)
{
    if (!round_like_printf(all, exact, precision, out))
        printf_digits(v, precision, out);
}

static bool round_trips(double v, const rc_decimal *all, bool exact, int precision)
{
    rc_decimal d;
    candidate(v, all, exact, precision, &d);
    return reads_back(&d, v);
}

/* The fewest digits that read back, searched as format.c did with printf:
 * halving [1, 17] where a precision that works keeps working with more
 * digits (the doubles that read as v lie symmetrically around it), digit
 * by digit for a power of two. */
static int shortest_precision(double v, const rc_decimal *all, bool exact)
{
    uint64_t f;
    int e2;
    binary_parts(v, &f, &e2);
    if ((f & (f - 1)) == 0) { /* a power of two */
        int precision = 1;
        while (precision < RC_DECIMAL_DIGITS && !round_trips(v, all, exact, precision))
            precision++;
        return precision;
    }
    int lo = 1, hi = RC_DECIMAL_DIGITS; /* 17 digits always read back */
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (round_trips(v, all, exact, mid))
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

int rc_decimal_shortest(double v, rc_decimal *out)
{
    v = fabs(v);
    if (v == 0) {
        *out = (rc_decimal){.digits = "0", .n = 1, .exp = 0};
        return 1;
    }
    rc_decimal all;
    bool exact = seventeen_digits(v, &all);
    int precision = shortest_precision(v, &all, exact);
    candidate(v, &all, exact, precision, out);
    return precision;
}

void rc_decimal_round_half_up(rc_decimal *d, int digits)
{
    if (d->n > digits)
        truncate_digits(d, digits, d->digits[digits] >= '5');
}

double rc_decimal_value(const rc_decimal *d)
{
    /* Powers of ten that are exact doubles: with a mantissa below 2^53,
     * one multiplication or division rounds correctly (Clinger). */
    static const double pow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                   1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                   1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    int exp10 = d->exp - (d->n - 1);
    if (d->n <= 15 && exp10 >= -22 && exp10 <= 22) {
        double m = (double)mantissa_of(d);
        return exp10 >= 0 ? m * pow10[exp10] : m / pow10[-exp10];
    }
    char s[48];
    snprintf(s, sizeof s, "%se%d", d->digits, exp10);
    return strtod(s, NULL);
}

/* ---- printing ------------------------------------------------------- */

int rc_decimal_print_fixed(const rc_decimal *d, bool negative, int decimals, char *out)
{
    char *o = out;
    if (negative)
        *o++ = '-';
    for (int place = d->exp > 0 ? d->exp : 0; place >= -decimals; place--) {
        if (place == -1)
            *o++ = '.';
        int i = d->exp - place; /* the digit of 10^place */
        *o++ = i >= 0 && i < d->n ? d->digits[i] : '0';
    }
    *o = '\0';
    return (int)(o - out);
}

int rc_decimal_print_g(const rc_decimal *d, bool negative, int precision, char *out)
{
    if (d->exp >= -4 && d->exp < precision) {
        int decimals = d->n - 1 - d->exp;
        return rc_decimal_print_fixed(d, negative, decimals > 0 ? decimals : 0, out);
    }
    char *o = out;
    if (negative)
        *o++ = '-';
    *o++ = d->digits[0];
    if (d->n > 1) {
        *o++ = '.';
        memcpy(o, d->digits + 1, (size_t)d->n - 1);
        o += d->n - 1;
    }
    int e = abs(d->exp);
    *o++ = 'e';
    *o++ = d->exp < 0 ? '-' : '+';
    if (e >= 100)
        *o++ = (char)('0' + e / 100);
    *o++ = (char)('0' + e / 10 % 10);
    *o++ = (char)('0' + e % 10);
    *o = '\0';
    return (int)(o - out);
}
