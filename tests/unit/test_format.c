/* test_format.c: how numbers are shown. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>

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
        cmocka_unit_test(test_int),     cmocka_unit_test(test_sig3),
        cmocka_unit_test(test_exact),   cmocka_unit_test(test_si),
        cmocka_unit_test(test_si3),
        cmocka_unit_test(test_units_helpers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
