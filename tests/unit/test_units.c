/* test_units.c: cmocka tests for src/units.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "input/units.h"

/* Micro sign U+00B5 and Greek small mu U+03BC, in UTF-8. */
#define MICRO "\xC2\xB5"
#define MU "\xCE\xBC"

static void check_ok(const char *text, rc_quantity_kind kind, double expected,
                     const char *file, int line)
{
    char err[256] = "";
    double v = -12345.0;
    if (!rc_parse_quantity(text, kind, &v, err, sizeof err)) {
        print_error("'%s' as a %s: unexpected error: %s\n", text,
                    rc_quantity_kind_name(kind), err);
        _fail(file, line);
    }
    /* Exact comparison on purpose: the scales are exact powers. */
    if (!(v == expected)) {
        print_error("'%s' as a %s: got %.17g, expected %.17g\n", text,
                    rc_quantity_kind_name(kind), v, expected);
        _fail(file, line);
    }
}

static void check_err(const char *text, rc_quantity_kind kind,
                      const char *expected, const char *file, int line)
{
    char err[512] = "untouched";
    double v = -12345.0;
    if (rc_parse_quantity(text, kind, &v, err, sizeof err)) {
        print_error("'%s' as a %s: parsed as %.17g, expected error: %s\n",
                    text ? text : "(null)", rc_quantity_kind_name(kind), v,
                    expected);
        _fail(file, line);
    }
    if (v != -12345.0) {
        print_error("'%s': *value written on failure\n", text ? text : "(null)");
        _fail(file, line);
    }
    if (strcmp(err, expected) != 0) {
        print_error("'%s' as a %s:\n   got: %s\nexpected: %s\n",
                    text ? text : "(null)", rc_quantity_kind_name(kind), err,
                    expected);
        _fail(file, line);
    }
}

#define OK(text, kind, expected) \
    check_ok((text), (kind), (expected), __FILE__, __LINE__)
#define ERR(text, kind, expected) \
    check_err((text), (kind), (expected), __FILE__, __LINE__)

#define FLOPS RC_QTY_FLOP_RATE
#define BW RC_QTY_BYTE_RATE
#define TIME RC_QTY_TIME
#define SIZE RC_QTY_BYTES
#define FREQ RC_QTY_FREQUENCY

/* ---- kind names ---- */

static void test_kind_names(void **state)
{
    (void)state;
    assert_string_equal(rc_quantity_kind_name(FLOPS), "FLOP rate");
    assert_string_equal(rc_quantity_kind_name(BW), "bandwidth");
    assert_string_equal(rc_quantity_kind_name(TIME), "time");
    assert_string_equal(rc_quantity_kind_name(SIZE), "size");
    assert_string_equal(rc_quantity_kind_name(FREQ), "frequency");
}

/* ---- every unit and prefix ---- */

static void test_flop_rate_units(void **state)
{
    (void)state;
    OK("7 FLOP/s", FLOPS, 7.0);
    OK("7 kFLOP/s", FLOPS, 7.0 * 1e3);
    OK("7 MFLOP/s", FLOPS, 7.0 * 1e6);
    OK("7 GFLOP/s", FLOPS, 7.0 * 1e9);
    OK("7 TFLOP/s", FLOPS, 7.0 * 1e12);
    OK("7 PFLOP/s", FLOPS, 7.0 * 1e15);
    /* The reference figures, exactly number * 1e12. */
    OK("5.12 TFLOP/s", FLOPS, 5.12 * 1e12);
    OK("6.14 TFLOP/s", FLOPS, 6.14 * 1e12);
    OK("14.9 TFLOP/s", FLOPS, 14.9 * 1e12);
    OK("13.45 TFLOP/s", FLOPS, 13.45 * 1e12);
    OK("29 TFLOP/s", FLOPS, 29e12);
    OK("1.71 TFLOP/s", FLOPS, 1.71 * 1e12);
    OK("0.455 TFLOP/s", FLOPS, 0.455 * 1e12);
}

static void test_byte_rate_units(void **state)
{
    (void)state;
    OK("3 B/s", BW, 3.0);
    OK("3 kB/s", BW, 3e3);
    OK("3 MB/s", BW, 3e6);
    OK("3 GB/s", BW, 3e9);
    OK("3 TB/s", BW, 3e12);
    OK("3 PB/s", BW, 3e15);
    OK("1 KiB/s", BW, 1024.0);
    OK("1 MiB/s", BW, 1048576.0);
    OK("1 GiB/s", BW, 1073741824.0);
    OK("1 TiB/s", BW, 1099511627776.0);
    OK("1 PiB/s", BW, 1125899906842624.0);
    OK("1.5 GiB/s", BW, 1610612736.0);
    OK("336 GB/s", BW, 336e9);
    OK("336.5 GB/s", BW, 336.5 * 1e9);
    OK("652.8 GB/s", BW, 652.8 * 1e9);
    OK("616 GB/s", BW, 616e9);
    OK("504 GB/s", BW, 504e9);
}

static void test_time_units(void **state)
{
    (void)state;
    OK("2 s", TIME, 2.0);
    OK("1.5 ms", TIME, 1.5e-3);
    OK("5 us", TIME, 5e-6);
    OK("5 " MICRO "s", TIME, 5e-6);
    OK("5 " MU "s", TIME, 5e-6);
    OK("5" MICRO "s", TIME, 5e-6);
    OK("250 ns", TIME, 250e-9);
    OK("0.1 s", TIME, 0.1);
    OK("3 ms", TIME, 3e-3);
    OK("7 ns", TIME, 7e-9);
}

static void test_size_units(void **state)
{
    (void)state;
    OK("4 B", SIZE, 4.0);
    OK("4 kB", SIZE, 4e3);
    OK("1.5 MB", SIZE, 1.5e6);
    OK("6 GB", SIZE, 6e9);
    OK("4 TB", SIZE, 4e12);
    OK("4 PB", SIZE, 4e15);
    OK("1 KiB", SIZE, 1024.0);
    OK("1 MiB", SIZE, 1048576.0);
    OK("0.5 GiB", SIZE, 536870912.0);
    OK("1 TiB", SIZE, 1099511627776.0);
    OK("1 PiB", SIZE, 1125899906842624.0);
    OK("4.5 MB", SIZE, 4.5e6);
}

static void test_frequency_units(void **state)
{
    (void)state;
    OK("50 Hz", FREQ, 50.0);
    OK("50 kHz", FREQ, 50e3);
    OK("889 MHz", FREQ, 889e6);
    OK("1455 MHz", FREQ, 1455e6);
    OK("2.52 GHz", FREQ, 2.52 * 1e9);
}

/* ---- number forms and white space ---- */

static void test_number_forms(void **state)
{
    (void)state;
    OK("336GB/s", BW, 336e9);
    OK("5.12TFLOP/s", FLOPS, 5.12 * 1e12);
    OK(".5 GB/s", BW, 0.5e9);
    OK("1. GB/s", BW, 1e9);
    OK("1e3 MB/s", BW, 1e9);
    OK("1E3 MB/s", BW, 1e9);
    OK("2.5e-3 s", TIME, 2.5e-3);
    OK("1e+2 B", SIZE, 100.0);
    OK("+5 GB/s", BW, 5e9);
    OK("0 GB/s", BW, 0.0);
    OK("007 B", SIZE, 7.0);
    /* The sign is the caller's business. */
    OK("-5 GB/s", BW, -5e9);
    OK("-1.5 ms", TIME, -1.5e-3);
    /* Underflow is finite: accepted as (nearly) zero. */
    OK("1e-400 s", TIME, 0.0);
}

static void test_white_space(void **state)
{
    (void)state;
    OK("  336 GB/s", BW, 336e9);
    OK("336 GB/s  ", BW, 336e9);
    OK("\n\t  336 \t GB/s \r\n", BW, 336e9);
    OK("336\tGB/s", BW, 336e9);
    OK("336     GB/s", BW, 336e9);
    OK("\v\f5 us\f\v", TIME, 5e-6);
}

static void test_null_value_and_err(void **state)
{
    (void)state;
    /* value may be NULL; err may be NULL or empty on failure. */
    assert_true(rc_parse_quantity("5 us", TIME, NULL, NULL, 0));
    double v = 1.0;
    assert_false(rc_parse_quantity("5 xs", TIME, &v, NULL, 0));
    assert_true(v == 1.0);
    char err[4] = "abc";
    assert_false(rc_parse_quantity("5 xs", TIME, &v, err, 0));
    assert_string_equal(err, "abc");
    /* A short buffer gets a truncated, terminated message. */
    char small[8];
    assert_false(rc_parse_quantity("5 xs", TIME, &v, small, sizeof small));
    assert_string_equal(small, "unknown");
}

/* ---- errors ---- */

static void test_err_empty(void **state)
{
    (void)state;
    ERR("", FLOPS,
        "empty FLOP rate, expected a number and a unit such as "
        "'5.12 TFLOP/s'");
    ERR("   ", BW,
        "empty bandwidth, expected a number and a unit such as '336 GB/s'");
    ERR("\n\t", TIME,
        "empty time, expected a number and a unit such as '5 us'");
    ERR("", SIZE, "empty size, expected a number and a unit such as '6 GB'");
    ERR(NULL, FREQ,
        "empty frequency, expected a number and a unit such as '1455 MHz'");
}

static void test_err_no_number(void **state)
{
    (void)state;
    ERR("GB/s", BW,
        "'GB/s' does not start with a number (expected a bandwidth such as "
        "'336 GB/s')");
    ERR("TFLOP/s", FLOPS,
        "'TFLOP/s' does not start with a number (expected a FLOP rate such "
        "as '5.12 TFLOP/s')");
    ERR(" us ", TIME,
        "'us' does not start with a number (expected a time such as "
        "'5 us')");
    ERR("lots", SIZE,
        "'lots' does not start with a number (expected a size such as "
        "'6 GB')");
    ERR("fast MHz", FREQ,
        "'fast MHz' does not start with a number (expected a frequency such "
        "as '1455 MHz')");
    ERR("inf GB/s", BW,
        "'inf GB/s' does not start with a number (expected a bandwidth such "
        "as '336 GB/s')");
    ERR("-inf GB/s", BW,
        "'-inf GB/s' does not start with a number (expected a bandwidth such "
        "as '336 GB/s')");
    ERR("infinity GB/s", BW,
        "'infinity GB/s' does not start with a number (expected a bandwidth "
        "such as '336 GB/s')");
    ERR("nan GB/s", BW,
        "'nan GB/s' does not start with a number (expected a bandwidth such "
        "as '336 GB/s')");
    ERR("NAN(1) GB/s", BW,
        "'NAN(1) GB/s' does not start with a number (expected a bandwidth "
        "such as '336 GB/s')");
    ERR("0x10 GB/s", BW,
        "'0x10 GB/s' does not start with a number (expected a bandwidth such "
        "as '336 GB/s')");
    ERR("0X1p4 GB/s", BW,
        "'0X1p4 GB/s' does not start with a number (expected a bandwidth "
        "such as '336 GB/s')");
    ERR("-0x1.8p1 B", SIZE,
        "'-0x1.8p1 B' does not start with a number (expected a size such as "
        "'6 GB')");
    ERR(". GB/s", BW,
        "'. GB/s' does not start with a number (expected a bandwidth such as "
        "'336 GB/s')");
    ERR("+ 5 GB/s", BW,
        "'+ 5 GB/s' does not start with a number (expected a bandwidth such "
        "as '336 GB/s')");
    ERR("-", BW,
        "'-' does not start with a number (expected a bandwidth such as "
        "'336 GB/s')");
    ERR("e5 GB/s", BW,
        "'e5 GB/s' does not start with a number (expected a bandwidth such "
        "as '336 GB/s')");
    ERR("5,12 TFLOP/s", FLOPS,
        "'5,12' has a decimal comma: write the decimal point as '.' (expected a "
        "FLOP rate such as '5.12 TFLOP/s')");
    ERR("5.1.2 TFLOP/s", FLOPS,
        "malformed number '5.1.2' (expected a FLOP rate such as '5.12 TFLOP/s')");
    ERR("1e5.3 GB/s", BW,
        "malformed number '1e5.3' (expected a bandwidth such as '336 GB/s')");
    /* A comma that separates thousands is not a decimal comma, but not a
     * unit either. */
    ERR("5, TFLOP/s", FLOPS,
        "unknown unit ', TFLOP/s' for a FLOP rate (expected FLOP/s with an "
        "optional k, M, G, T or P prefix)");
}

static void test_err_missing_unit(void **state)
{
    (void)state;
    ERR("336", BW,
        "missing unit after '336' (expected a bandwidth such as '336 GB/s')");
    ERR("  336  ", BW,
        "missing unit after '336' (expected a bandwidth such as '336 GB/s')");
    ERR("5.12", FLOPS,
        "missing unit after '5.12' (expected a FLOP rate such as "
        "'5.12 TFLOP/s')");
    ERR("5", TIME,
        "missing unit after '5' (expected a time such as '5 us')");
    ERR("-6e0", SIZE,
        "missing unit after '-6e0' (expected a size such as '6 GB')");
    ERR("1455\t", FREQ,
        "missing unit after '1455' (expected a frequency such as "
        "'1455 MHz')");
    /* Without a unit, even an overflowing number is reported as such. */
    ERR("1e400", BW,
        "missing unit after '1e400' (expected a bandwidth such as "
        "'336 GB/s')");
}

static void test_err_unknown_unit(void **state)
{
    (void)state;
    ERR("5.12 TFLOPS", FLOPS,
        "unknown unit 'TFLOPS' for a FLOP rate (expected FLOP/s with an "
        "optional k, M, G, T or P prefix)");
    ERR("5 tFLOP/s", FLOPS,
        "unknown unit 'tFLOP/s' for a FLOP rate (expected FLOP/s with an "
        "optional k, M, G, T or P prefix)");
    ERR("5 TFlop/s", FLOPS,
        "unknown unit 'TFlop/s' for a FLOP rate (expected FLOP/s with an "
        "optional k, M, G, T or P prefix)");
    ERR("5 EFLOP/s", FLOPS,
        "unknown unit 'EFLOP/s' for a FLOP rate (expected FLOP/s with an "
        "optional k, M, G, T or P prefix)");
    ERR("336 GB", BW,
        "unknown unit 'GB' for a bandwidth (expected B/s with a decimal "
        "(kB/s to PB/s) or binary (KiB/s to PiB/s) prefix)");
    ERR("336 gb/s", BW,
        "unknown unit 'gb/s' for a bandwidth (expected B/s with a decimal "
        "(kB/s to PB/s) or binary (KiB/s to PiB/s) prefix)");
    ERR("336 KB/s", BW,
        "unknown unit 'KB/s' for a bandwidth (expected B/s with a decimal "
        "(kB/s to PB/s) or binary (KiB/s to PiB/s) prefix)");
    ERR("336 GB/s extra", BW,
        "unknown unit 'GB/s extra' for a bandwidth (expected B/s with a "
        "decimal (kB/s to PB/s) or binary (KiB/s to PiB/s) prefix)");
    ERR("336 GB /s", BW,
        "unknown unit 'GB /s' for a bandwidth (expected B/s with a decimal "
        "(kB/s to PB/s) or binary (KiB/s to PiB/s) prefix)");
    ERR("5 sec", TIME,
        "unknown unit 'sec' for a time (expected s, ms, us, " MICRO
        "s or ns)");
    ERR("5 Ms", TIME,
        "unknown unit 'Ms' for a time (expected s, ms, us, " MICRO
        "s or ns)");
    ERR("5 MHz", TIME,
        "unknown unit 'MHz' for a time (expected s, ms, us, " MICRO
        "s or ns)");
    ERR("1.5 mB", SIZE,
        "unknown unit 'mB' for a size (expected B with a decimal (kB to PB) "
        "or binary (KiB to PiB) prefix)");
    ERR("6 GB/s", SIZE,
        "unknown unit 'GB/s' for a size (expected B with a decimal (kB to "
        "PB) or binary (KiB to PiB) prefix)");
    ERR("1 kiB", SIZE,
        "unknown unit 'kiB' for a size (expected B with a decimal (kB to PB) "
        "or binary (KiB to PiB) prefix)");
    ERR("889 mhz", FREQ,
        "unknown unit 'mhz' for a frequency (expected Hz, kHz, MHz or GHz)");
    ERR("1 THz", FREQ,
        "unknown unit 'THz' for a frequency (expected Hz, kHz, MHz or GHz)");
    /* "1e" is the number 1 followed by the unit "e". */
    ERR("1e GB/s", BW,
        "unknown unit 'e GB/s' for a bandwidth (expected B/s with a decimal "
        "(kB/s to PB/s) or binary (KiB/s to PiB/s) prefix)");
    /* Only spaces and tabs separate number and unit. */
    ERR("336\nGB/s", BW,
        "unknown unit '?GB/s' for a bandwidth (expected B/s with a decimal "
        "(kB/s to PB/s) or binary (KiB/s to PiB/s) prefix)");
}

static void test_err_out_of_range(void **state)
{
    (void)state;
    ERR("1e400 GB/s", BW, "value 1e400 is out of range");
    ERR("-1e400 s", TIME, "value -1e400 is out of range");
    ERR("1e400 TFLOP/s", FLOPS, "value 1e400 is out of range");
    /* The number is finite but the value in base units is not. */
    ERR("1e300 PB/s", BW, "value 1e300 is out of range");
    ERR("1e300 PiB", SIZE, "value 1e300 is out of range");
    /* A long number is quoted shortened. */
    char text[512];
    memset(text, '0', sizeof text);
    text[0] = '1';
    strcpy(text + 401, " GB/s"); /* 1 followed by 400 zeros */
    ERR(text, BW,
        "value 1000000000000000000000000000000000000000... is out of range");
}

/* ---- quoting of user text ---- */

static void test_quote_truncation(void **state)
{
    (void)state;
    /* 40 bytes are quoted whole. */
    ERR("5 abcdefghijabcdefghijabcdefghijabcdefghij", TIME,
        "unknown unit 'abcdefghijabcdefghijabcdefghijabcdefghij' for a time "
        "(expected s, ms, us, " MICRO "s or ns)");
    /* 41 bytes: 40 and "...". */
    ERR("5 abcdefghijabcdefghijabcdefghijabcdefghijk", TIME,
        "unknown unit 'abcdefghijabcdefghijabcdefghijabcdefghij...' for a "
        "time (expected s, ms, us, " MICRO "s or ns)");
    /* A two-byte character across the 40-byte limit is left out whole. */
    ERR("5 abcdefghijabcdefghijabcdefghijabcdefghi\xC3\xA9xyz", TIME,
        "unknown unit 'abcdefghijabcdefghijabcdefghijabcdefghi...' for a "
        "time (expected s, ms, us, " MICRO "s or ns)");
    /* A three-byte character ending exactly at byte 40 is kept. */
    ERR("5 abcdefghijabcdefghijabcdefghijabcdefg\xE2\x82\xAC", TIME,
        "unknown unit 'abcdefghijabcdefghijabcdefghijabcdefg\xE2\x82\xAC' "
        "for a time (expected s, ms, us, " MICRO "s or ns)");
    /* ... and one ending at byte 41 is not. */
    ERR("5 abcdefghijabcdefghijabcdefghijabcdefgh\xE2\x82\xAC", TIME,
        "unknown unit 'abcdefghijabcdefghijabcdefghijabcdefgh...' for a "
        "time (expected s, ms, us, " MICRO "s or ns)");
    /* A long text without a number. */
    ERR("this is not a number, it is a sentence that goes on", BW,
        "'this is not a number, it is a sentence t...' does not start with a "
        "number (expected a bandwidth such as '336 GB/s')");
}

static void test_quote_control_characters(void **state)
{
    (void)state;
    ERR("5 G\x01" "B", SIZE,
        "unknown unit 'G?B' for a size (expected B with a decimal (kB to PB) "
        "or binary (KiB to PiB) prefix)");
    ERR("5 G\tB", SIZE,
        "unknown unit 'G?B' for a size (expected B with a decimal (kB to PB) "
        "or binary (KiB to PiB) prefix)");
    ERR("5 G\x7f" "B", SIZE,
        "unknown unit 'G?B' for a size (expected B with a decimal (kB to PB) "
        "or binary (KiB to PiB) prefix)");
    ERR("5 G\x1b[31mB", SIZE,
        "unknown unit 'G?[31mB' for a size (expected B with a decimal (kB to "
        "PB) or binary (KiB to PiB) prefix)");
    /* C1 control U+0085 and a byte that is not UTF-8. */
    ERR("5 G\xC2\x85" "B", SIZE,
        "unknown unit 'G?B' for a size (expected B with a decimal (kB to PB) "
        "or binary (KiB to PiB) prefix)");
    ERR("5 G\xFF" "B", SIZE,
        "unknown unit 'G?B' for a size (expected B with a decimal (kB to PB) "
        "or binary (KiB to PiB) prefix)");
    /* Other non-ASCII text is quoted as it is. */
    ERR("5 \xC3\xA9t\xC3\xA9", TIME,
        "unknown unit '\xC3\xA9t\xC3\xA9' for a time (expected s, ms, us, "
        MICRO "s or ns)");
    ERR("\xC2\xB5" "s", TIME,
        "'" MICRO "s' does not start with a number (expected a time such as "
        "'5 us')");
}

static void test_invalid_kind(void **state)
{
    (void)state;
    char err[128];
    double v = 0.0;
    assert_false(
        rc_parse_quantity("5 us", (rc_quantity_kind)99, &v, err, sizeof err));
    assert_string_equal(err, "unknown quantity kind 99");
    assert_string_equal(rc_quantity_kind_name((rc_quantity_kind)99),
                        "quantity");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kind_names),
        cmocka_unit_test(test_flop_rate_units),
        cmocka_unit_test(test_byte_rate_units),
        cmocka_unit_test(test_time_units),
        cmocka_unit_test(test_size_units),
        cmocka_unit_test(test_frequency_units),
        cmocka_unit_test(test_number_forms),
        cmocka_unit_test(test_white_space),
        cmocka_unit_test(test_null_value_and_err),
        cmocka_unit_test(test_err_empty),
        cmocka_unit_test(test_err_no_number),
        cmocka_unit_test(test_err_missing_unit),
        cmocka_unit_test(test_err_unknown_unit),
        cmocka_unit_test(test_err_out_of_range),
        cmocka_unit_test(test_quote_truncation),
        cmocka_unit_test(test_quote_control_characters),
        cmocka_unit_test(test_invalid_kind),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
