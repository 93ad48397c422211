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
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
