/* test_format.c: how numbers are shown. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/decimal.h"
#include "results/format.h"

static void test_int(void **state)
{
    (void)state;
    char b[64];
    assert_string_equal(rc_format_int(0, b, sizeof b), "0");
    assert_string_equal(rc_format_int(999, b, sizeof b), "999");
    assert_string_equal(rc_format_int(1000, b, sizeof b), "1,000");
    assert_string_equal(rc_format_int(1237500, b, sizeof b), "1,237,500");
    assert_string_equal(rc_format_int(-31824000, b, sizeof b), "-31,824,000");
    assert_string_equal(rc_format_int(INT64_MAX, b, sizeof b), "9,223,372,036,854,775,807");
}

static void test_sig3(void **state)
{
    (void)state;
    char b[64];
    assert_string_equal(rc_format_sig3(6.904761904761905, b, sizeof b), "6.90");
    assert_string_equal(rc_format_sig3(0.046875, b, sizeof b), "0.0469");
    assert_string_equal(rc_format_sig3(123456, b, sizeof b), "123,000");
    assert_string_equal(rc_format_sig3(99.714, b, sizeof b), "99.7");
    assert_string_equal(rc_format_sig3(9.996, b, sizeof b), "10.0");
    assert_string_equal(rc_format_sig3(999.6, b, sizeof b), "1,000");
    assert_string_equal(rc_format_sig3(0.375, b, sizeof b), "0.375");
    assert_string_equal(rc_format_sig3(0, b, sizeof b), "0");
    assert_string_equal(rc_format_sig3(-2.5, b, sizeof b), "-2.50");
    assert_string_equal(rc_format_sig3(INFINITY, b, sizeof b), "inf");
}

/* Halves round away from zero on the decimal a reader sees (the shortest
 * that reads back as the value, as estimates.csv prints it), not to even
 * on the binary value: 3.125 is exact in binary, and printf's "%.2f" gives
 * 3.12; 2.675 is 2.67499999... in binary. */
static void test_sig3_halves(void **state)
{
    (void)state;
    char b[64];
    assert_string_equal(rc_format_sig3(3.125, b, sizeof b), "3.13");
    assert_string_equal(rc_format_sig3(-3.125, b, sizeof b), "-3.13");
    assert_string_equal(rc_format_sig3(2.675, b, sizeof b), "2.68");
    assert_string_equal(rc_format_sig3(0.0046875, b, sizeof b), "0.00469");
    assert_string_equal(rc_format_sig3(1.0125, b, sizeof b), "1.01");  /* 1.0125 -> next digit 2 */
    assert_string_equal(rc_format_sig3(1.00499, b, sizeof b), "1.00");
    assert_string_equal(rc_format_sig3(9.995, b, sizeof b), "10.0");
    assert_string_equal(rc_format_sig3(99950, b, sizeof b), "100,000");
    assert_string_equal(rc_format_sig3(312.5, b, sizeof b), "313");
    assert_string_equal(rc_format_si3(3.125e9, "B/s", b, sizeof b), "3.13 GB/s");
    assert_string_equal(rc_format_si3(999.5e9, "B/s", b, sizeof b), "1.00 TB/s");
    assert_string_equal(rc_format_si(1.2345675e9, "B", b, sizeof b), "1.23457 GB");
    assert_string_equal(rc_format_us(3.125e-6, b, sizeof b), "3.13");
}

static void test_exact(void **state)
{
    (void)state;
    char b[64];
    assert_string_equal(rc_format_exact(5.12e12, b, sizeof b), "5120000000000");
    assert_string_equal(rc_format_exact(20, b, sizeof b), "20");
    assert_string_equal(rc_format_exact(1e-300, b, sizeof b), "1e-300");
    assert_string_equal(rc_format_exact(0.375, b, sizeof b), "0.375");
    assert_string_equal(rc_format_exact(640000.0 / 336e9, b, sizeof b), "1.9047619047619047e-06");
}

/* rc_format_exact as it was before it halved the range of precisions,
 * trying each in turn: the reference it must still agree with. */
static char *format_exact_linear(double v, char *buf, size_t size)
{
    int precision = 1;
    for (; precision <= 17; precision++) {
        snprintf(buf, size, "%.*g", precision, v);
        if (strtod(buf, NULL) == v)
            break;
    }
    double mag = fabs(v);
    if (strchr(buf, 'e') && mag >= 1e-4 && mag < 1e16) {
        int exponent = (int)floor(log10(mag));
        int decimals = precision - 1 - exponent;
        snprintf(buf, size, "%.*f", decimals > 0 ? decimals : 0, v);
    }
    return buf;
}

/* Shortest digits on doubles of every kind: random bit patterns (subnormals
 * included), powers of two (whose neighbours are not symmetric), short
 * decimals, their neighbours, and quotients like a run's times. */
static void test_exact_is_shortest(void **state)
{
    (void)state;
    uint64_t x = 88172645463325252ull; /* xorshift64 */
    char b[64], want[64];
    for (int i = 0; i < 200000; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        double v;
        switch (i % 5) {
        case 0: {
            uint64_t bits = x & ~(0x7ffull << 52);
            bits |= (uint64_t)(x % 2047) << 52; /* any finite exponent */
            memcpy(&v, &bits, sizeof v);
            break;
        }
        case 1: v = ldexp(1.0, (int)(x % 2100) - 1074); break;
        case 2: v = (double)(x % 100000) / 1000.0; break;
        case 3: v = nextafter((double)(x % 1000) / 10.0, (x & 1) ? INFINITY : 0); break;
        default: v = (double)(x % 1000000 + 1) / ((double)(x >> 40) + 336e9); break;
        }
        assert_string_equal(rc_format_exact(v, b, sizeof b), format_exact_linear(v, want, sizeof want));
    }
}

/* ---- the printf/strtod formatting, as format.c had it before decimal.c:
 * the reference every shown form must still agree with, byte for byte. */

static int old_shortest_precision(double v, char *buf, size_t size)
{
    int exponent;
    if (v == 0 || fabs(frexp(v, &exponent)) == 0.5) {
        int precision = 1;
        for (; precision < 17; precision++) {
            snprintf(buf, size, "%.*g", precision, v);
            if (strtod(buf, NULL) == v)
                break;
        }
        return precision;
    }
    int lo = 1, hi = 17;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        snprintf(buf, size, "%.*g", mid, v);
        if (strtod(buf, NULL) == v)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

static double old_round_sig(double v, int digits)
{
    char s[400]; /* room for any "%.*g", as -Wformat-truncation asks at -O1 */
    snprintf(s, sizeof s, "%.*e", old_shortest_precision(v, s, sizeof s) - 1, v);
    char *e = strchr(s, 'e');
    char *first = s + (s[0] == '-');
    char mant[24];
    size_t n = 0;
    for (char *c = first; c < e && n < sizeof mant - 1; c++)
        if (*c != '.')
            mant[n++] = *c;
    int exponent = atoi(e + 1);
    if ((int)n <= digits)
        return v;
    bool up = mant[digits] >= '5';
    n = (size_t)digits;
    for (size_t i = n; up && i-- > 0;) {
        up = mant[i] == '9';
        mant[i] = up ? '0' : (char)(mant[i] + 1);
    }
    if (up) {
        memmove(mant + 1, mant, n);
        mant[0] = '1';
        exponent++;
    }
    mant[n] = '\0';
    char out[48];
    snprintf(out, sizeof out, "%s0.%se%d", s[0] == '-' ? "-" : "", mant, exponent + 1);
    return strtod(out, NULL);
}

static char *old_group_thousands(char *buf, size_t size)
{
    char *digits = buf + (buf[0] == '-');
    size_t intlen = strcspn(digits, ".");
    size_t commas = intlen > 3 ? (intlen - 1) / 3 : 0;
    size_t len = strlen(buf);
    if (commas == 0 || len + commas + 1 > size)
        return buf;
    char *src = buf + len, *dst = buf + len + commas;
    size_t frac = len - (size_t)(digits - buf) - intlen;
    for (size_t i = 0; i <= frac; i++)
        *dst-- = *src--;
    for (size_t i = 0; i < intlen; i++) {
        *dst-- = *src--;
        if (i % 3 == 2 && i + 1 < intlen)
            *dst-- = ',';
    }
    return buf;
}

static char *old_sig3(double v, char *buf, size_t size)
{
    if (!isfinite(v) || v == 0) {
        snprintf(buf, size, "%s", isnan(v) ? "nan" : v == 0 ? "0" : v > 0 ? "inf" : "-inf");
        return buf;
    }
    double r = old_round_sig(v, 3);
    int exponent = (int)floor(log10(fabs(r)));
    int decimals = exponent >= 2 ? 0 : 2 - exponent;
    snprintf(buf, size, "%.*f", decimals, r);
    return old_group_thousands(buf, size);
}

static const char *const old_prefixes[] = {"n", "µ", "m", "", "k", "M", "G", "T", "P"};

static char *old_si(double v, const char *unit, char *buf, size_t size)
{
    int p = 3;
    double scaled = v;
    if (v != 0 && isfinite(v)) {
        int e3 = (int)floor(log10(fabs(v)) / 3);
        e3 = e3 < -3 ? -3 : e3 > 5 ? 5 : e3;
        p = e3 + 3;
        scaled = old_round_sig(v / pow(10, 3 * e3), 6);
        if (fabs(scaled) >= 1000 && p < 8) {
            p++;
            scaled = old_round_sig(scaled / 1000, 6);
        }
    }
    snprintf(buf, size, "%.6g %s%s", scaled, old_prefixes[p], unit);
    return buf;
}

static char *old_si3(double v, const char *unit, char *buf, size_t size)
{
    char num[48];
    if (v == 0 || !isfinite(v)) {
        snprintf(buf, size, "%s %s", old_sig3(v, num, sizeof num), unit);
        return buf;
    }
    double r = old_round_sig(v, 3);
    int e3 = (int)floor(log10(fabs(r)) / 3);
    e3 = e3 < -3 ? -3 : e3 > 5 ? 5 : e3;
    old_sig3(r / pow(10, 3 * e3), num, sizeof num);
    snprintf(buf, size, "%s %s%s", num, old_prefixes[e3 + 3], unit);
    return buf;
}

/* Doubles of every kind, i-th of a sequence: random bit patterns
 * (subnormals included), powers of two (whose neighbours are not
 * symmetric), short decimals and their neighbours, halves at the third
 * and sixth digit, integers below and above 2^53, exact binary fractions
 * whose 18th digit is a 5, and quotients like a run's times; negative
 * every other time round. */
static double sample(uint64_t *x, int i)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    double v;
    switch (i % 10) {
    case 0: {
        uint64_t bits = *x & ~(0x7ffull << 52);
        bits |= (uint64_t)(*x % 2047) << 52;
        memcpy(&v, &bits, sizeof v);
        break;
    }
    case 1: v = ldexp(1.0, (int)(*x % 2100) - 1074); break;
    case 2: v = (double)(*x % 100000) / 1000.0; break;
    case 3: v = nextafter((double)(*x % 1000) / 10.0, (*x & 1) ? INFINITY : 0); break;
    case 4: v = ((double)(*x % 9000 + 1000) + 0.5) * pow(10, (double)(*x >> 50) - 8200); break;
    case 5: v = (double)(*x % 1000000 * 10 + 5) * pow(10, (int)(*x >> 58) - 40); break;
    case 6: v = (double)(*x >> (*x % 60)); break;
    case 7: v = (double)(*x % 100000 + 1) * 1e-9 + 5e-6; break;
    case 8: v = (double)(*x >> 11) / (double)(1u << (*x % 12)); break; /* exact, with halves */
    default: v = (double)(*x % 1000000 + 1) / ((double)(*x >> 40) + 336e9); break;
    }
    return (i / 10) % 2 ? -v : v;
}

/* Every shown form as the printf/strtod code made it, over 100,000
 * doubles of sample()'s kinds. */
static void test_same_as_printf(void **state)
{
    (void)state;
    uint64_t x = 88172645463325252ull;
    char b[64], want[64];
    for (int i = 0; i < 100000; i++) {
        double v = sample(&x, i);
        if (!isfinite(v))
            continue;
        assert_string_equal(rc_format_sig3(v, b, sizeof b), old_sig3(v, want, sizeof want));
        assert_string_equal(rc_format_si(v, "B/s", b, sizeof b), old_si(v, "B/s", want, sizeof want));
        assert_string_equal(rc_format_si3(v, "FLOP/s", b, sizeof b),
                            old_si3(v, "FLOP/s", want, sizeof want));
        assert_string_equal(rc_format_exact(v, b, sizeof b), format_exact_linear(v, want, sizeof want));
    }
}

/* The decimal's own steps, exact strings. */
static void test_decimal_shortest(void **state)
{
    (void)state;
    rc_decimal d;
    assert_int_equal(rc_decimal_shortest(0.1, &d), 1);
    assert_string_equal(d.digits, "1");
    assert_int_equal(d.exp, -1);
    assert_int_equal(rc_decimal_shortest(-640000.0 / 336e9, &d), 17);
    assert_string_equal(d.digits, "19047619047619047");
    assert_int_equal(d.exp, -6);
    assert_int_equal(rc_decimal_shortest(5e-324, &d), 1); /* the smallest subnormal */
    assert_string_equal(d.digits, "5");
    assert_int_equal(d.exp, -324);
    assert_int_equal(rc_decimal_shortest(1.7976931348623157e308, &d), 17);
    assert_string_equal(d.digits, "17976931348623157");
    assert_int_equal(d.exp, 308);
    assert_int_equal(rc_decimal_shortest(9007199254740991.0, &d), 16); /* 2^53 - 1 */
    assert_string_equal(d.digits, "9007199254740991");
    assert_int_equal(rc_decimal_shortest(5.12e12, &d), 3);
    assert_string_equal(d.digits, "512");
    assert_int_equal(d.exp, 12);
    assert_int_equal(rc_decimal_shortest(0x1p-1022, &d), 17); /* a power of two */
    assert_string_equal(d.digits, "22250738585072014");
    assert_int_equal(d.exp, -308);
    assert_int_equal(rc_decimal_shortest(0, &d), 1);
    assert_string_equal(d.digits, "0");
    assert_int_equal(d.exp, 0);
}

static void test_decimal_round_and_value(void **state)
{
    (void)state;
    rc_decimal d = {.digits = "3125", .n = 4, .exp = 0};
    rc_decimal_round_half_up(&d, 3);
    assert_string_equal(d.digits, "313");
    assert_true(rc_decimal_value(&d) == 3.13);
    d = (rc_decimal){.digits = "9995", .n = 4, .exp = 4};
    rc_decimal_round_half_up(&d, 3);
    assert_string_equal(d.digits, "1");
    assert_int_equal(d.exp, 5);
    assert_true(rc_decimal_value(&d) == 1e5);
    d = (rc_decimal){.digits = "10049", .n = 5, .exp = -7};
    rc_decimal_round_half_up(&d, 3);
    assert_string_equal(d.digits, "1");
    assert_int_equal(d.exp, -7);
    d = (rc_decimal){.digits = "12345678901234567", .n = 17, .exp = -30};
    assert_true(rc_decimal_value(&d) == 1.2345678901234567e-30); /* beyond the fast path */
}

static void test_decimal_print(void **state)
{
    (void)state;
    char b[64];
    rc_decimal d = {.digits = "5", .n = 1, .exp = -324};
    rc_decimal_print_g(&d, false, 1, b);
    assert_string_equal(b, "5e-324");
    d = (rc_decimal){.digits = "375", .n = 3, .exp = -1};
    rc_decimal_print_g(&d, true, 3, b);
    assert_string_equal(b, "-0.375");
    d = (rc_decimal){.digits = "512", .n = 3, .exp = 12};
    rc_decimal_print_g(&d, false, 3, b);
    assert_string_equal(b, "5.12e+12");
    assert_int_equal(rc_decimal_print_fixed(&d, false, 0, b), 13);
    assert_string_equal(b, "5120000000000");
    d = (rc_decimal){.digits = "1", .n = 1, .exp = 5};
    rc_decimal_print_g(&d, false, 6, b);
    assert_string_equal(b, "100000");
    d = (rc_decimal){.digits = "1", .n = 1, .exp = -5};
    rc_decimal_print_g(&d, false, 6, b);
    assert_string_equal(b, "1e-05");
    d = (rc_decimal){.digits = "469", .n = 3, .exp = -2};
    rc_decimal_print_fixed(&d, false, 4, b);
    assert_string_equal(b, "0.0469");
    d = (rc_decimal){.digits = "69", .n = 2, .exp = 0};
    rc_decimal_print_fixed(&d, false, 2, b);
    assert_string_equal(b, "6.90");
    d = (rc_decimal){.digits = "12345", .n = 5, .exp = 2};
    rc_decimal_print_g(&d, false, 6, b);
    assert_string_equal(b, "123.45");
}

static void test_si(void **state)
{
    (void)state;
    char b[64];
    assert_string_equal(rc_format_si(5.12e12, "FLOP/s", b, sizeof b), "5.12 TFLOP/s");
    assert_string_equal(rc_format_si(336.5e9, "B/s", b, sizeof b), "336.5 GB/s");
    assert_string_equal(rc_format_si(5e-6, "s", b, sizeof b), "5 µs");
    assert_string_equal(rc_format_si(6e9, "B", b, sizeof b), "6 GB");
    assert_string_equal(rc_format_si(4.8e12, "B/s", b, sizeof b), "4.8 TB/s");
    assert_string_equal(rc_format_si(0, "B", b, sizeof b), "0 B");
}

static void test_si3(void **state)
{
    (void)state;
    char b[64];
    assert_string_equal(rc_format_si3(72977443609.0, "FLOP/s", b, sizeof b), "73.0 GFLOP/s");
    assert_string_equal(rc_format_si3(999.6e9, "FLOP/s", b, sizeof b), "1.00 TFLOP/s");
    assert_string_equal(rc_format_si3(1.04253e12, "FLOP/s", b, sizeof b), "1.04 TFLOP/s");
    assert_string_equal(rc_format_si3(0, "FLOP/s", b, sizeof b), "0 FLOP/s");
}

static void test_units_helpers(void **state)
{
    (void)state;
    char b[64];
    assert_string_equal(rc_format_us(640000.0 / 336e9 + 5e-6, b, sizeof b), "6.90");
    assert_string_equal(rc_format_mib(640000, b, sizeof b), "0.610");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_int),     cmocka_unit_test(test_sig3), cmocka_unit_test(test_sig3_halves),
        cmocka_unit_test(test_exact), cmocka_unit_test(test_exact_is_shortest),   cmocka_unit_test(test_si),
        cmocka_unit_test(test_si3),
        cmocka_unit_test(test_units_helpers),
        cmocka_unit_test(test_same_as_printf),
        cmocka_unit_test(test_decimal_shortest),
        cmocka_unit_test(test_decimal_round_and_value),
        cmocka_unit_test(test_decimal_print),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
