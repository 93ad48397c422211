/* format.c: see format.h. */
#include "results/format.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/decimal.h"

/* Inserts a ',' every three digits of the integer part of a plain decimal
 * string (optionally signed), in place. */
static char *group_thousands(char *buf, size_t size)
{
    char *digits = buf + (buf[0] == '-');
    size_t intlen = strcspn(digits, ".");
    size_t commas = intlen > 3 ? (intlen - 1) / 3 : 0;
    size_t len = strlen(buf);
    if (commas == 0 || len + commas + 1 > size)
        return buf;
    /* Walk from the end, copying and inserting separators. */
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

/* v rounded to `digits` significant figures as a reader rounds it by hand:
 * the decimal estimates.csv shows (the shortest that reads back as v),
 * halves away from zero. printf rounds the binary value, ties to even:
 * 3.125 would become 3.12 and 2.675 (2.67499999... in binary) 2.67.
 * *shown is the rounded decimal, the digits the caller prints. */
static double round_sig(double v, int digits, rc_decimal *shown)
{
    rc_decimal_shortest(v, shown);
    if (shown->n <= digits)
        return v;
    rc_decimal_round_half_up(shown, digits);
    double r = rc_decimal_value(shown);
    return v < 0 ? -r : r;
}

/* Copies text[len] into buf[size], truncated to fit, NUL-terminated. */
static char *copy_out(const char *text, size_t len, char *buf, size_t size)
{
    if (size == 0)
        return buf;
    if (len >= size)
        len = size - 1;
    memcpy(buf, text, len);
    buf[len] = '\0';
    return buf;
}

char *rc_format_int(int64_t v, char *buf, size_t size)
{
    char text[32], *o = text + sizeof text;
    uint64_t magnitude = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
    *--o = '\0';
    do
        *--o = (char)('0' + magnitude % 10);
    while ((magnitude /= 10) > 0);
    if (v < 0)
        *--o = '-';
    copy_out(o, strlen(o), buf, size);
    return group_thousands(buf, size);
}

char *rc_format_sig3(double v, char *buf, size_t size)
{
    if (!isfinite(v))
        return rc_format_exact(v, buf, size);
    if (v == 0)
        return copy_out("0", 1, buf, size);
    /* Round to three significant figures first, so that 9.996 becomes
     * 10.0 and the decimals follow the rounded value's magnitude. "%.*f"
     * of r then prints the rounded digits, where log10 gave their
     * magnitude and r, if it has no decimals, is an integer (below 2^53).
     * Else (extreme magnitudes) printf prints r. */
    rc_decimal shown;
    double r = round_sig(v, 3, &shown);
    int exponent = (int)floor(log10(fabs(r)));
    int decimals = exponent >= 2 ? 0 : 2 - exponent;
    if (exponent == shown.exp && exponent >= -20 && exponent <= 14) {
        char text[40];
        int len = rc_decimal_print_fixed(&shown, r < 0, decimals, text);
        copy_out(text, (size_t)len, buf, size);
    } else {
        snprintf(buf, size, "%.*f", decimals, r);
    }
    return group_thousands(buf, size);
}

char *rc_format_exact(double v, char *buf, size_t size)
{
    if (isnan(v))
        return copy_out("nan", 3, buf, size);
    if (isinf(v))
        return v > 0 ? copy_out("inf", 3, buf, size) : copy_out("-inf", 4, buf, size);
    rc_decimal d;
    int precision = rc_decimal_shortest(v, &d);
    char text[40];
    int len = rc_decimal_print_g(&d, signbit(v), precision, text);
    /* Plain notation where people and spreadsheets read it more easily:
     * "20", not "2e+01"; "5120000000000", not "5.12e+12". Such a v is an
     * integer (it is at least 10^precision, so its shortest decimal has
     * no decimals, and below 10^16 that decimal is a double itself), and
     * "%.0f" would print it digit for digit. */
    double mag = fabs(v);
    if (d.exp >= precision && mag >= 1e-4 && mag < 1e16)
        len = rc_decimal_print_fixed(&d, signbit(v), 0, text);
    return copy_out(text, (size_t)len, buf, size);
}

/* The SI prefixes, ORDER from 1e-9 to 1e15. */
static const char *const prefixes[] = {"n", "µ", "m", "", "k", "M", "G", "T", "P"};

/* "<number> <prefix><unit>" into buf[size], truncated to fit. */
static char *with_unit(const char *number, size_t len, const char *prefix, const char *unit,
                       char *buf, size_t size)
{
    char text[160];
    size_t lp = strlen(prefix), lu = strlen(unit);
    if (len + lp + lu + 2 > sizeof text) {
        snprintf(buf, size, "%s %s%s", number, prefix, unit);
        return buf;
    }
    memcpy(text, number, len);
    text[len] = ' ';
    memcpy(text + len + 1, prefix, lp);
    memcpy(text + len + 1 + lp, unit, lu);
    return copy_out(text, len + 1 + lp + lu, buf, size);
}

char *rc_format_si(double v, const char *unit, char *buf, size_t size)
{
    if (v == 0 || !isfinite(v)) {
        snprintf(buf, size, "%.6g %s", v, unit);
        return buf;
    }
    int e3 = (int)floor(log10(fabs(v)) / 3);
    if (e3 < -3)
        e3 = -3;
    if (e3 > 5)
        e3 = 5;
    int p = e3 + 3;
    rc_decimal shown;
    double scaled = round_sig(v / pow(10, 3 * e3), 6, &shown);
    /* 999.9999999 rounds to 1000: move to the next prefix. */
    if (fabs(scaled) >= 1000 && p < 8) {
        p++;
        scaled = round_sig(scaled / 1000, 6, &shown);
    }
    /* "%.6g" of scaled: its six-digit rounding is the shown decimal. */
    char number[40];
    int len = rc_decimal_print_g(&shown, scaled < 0, 6, number);
    return with_unit(number, (size_t)len, prefixes[p], unit, buf, size);
}

char *rc_format_si3(double v, const char *unit, char *buf, size_t size)
{
    char num[48];
    if (v == 0 || !isfinite(v)) {
        rc_format_sig3(v, num, sizeof num);
        return with_unit(num, strlen(num), "", unit, buf, size);
    }
    /* Round first, so that 999.6 G becomes 1.00 T rather than 1,000 G. */
    rc_decimal shown;
    double r = round_sig(v, 3, &shown);
    int e3 = (int)floor(log10(fabs(r)) / 3);
    if (e3 < -3)
        e3 = -3;
    if (e3 > 5)
        e3 = 5;
    rc_format_sig3(r / pow(10, 3 * e3), num, sizeof num);
    return with_unit(num, strlen(num), prefixes[e3 + 3], unit, buf, size);
}

char *rc_format_us(double seconds, char *buf, size_t size)
{
    return rc_format_sig3(seconds * 1e6, buf, size);
}

char *rc_format_mib(int64_t bytes, char *buf, size_t size)
{
    return rc_format_sig3((double)bytes / 1048576.0, buf, size);
}
