/* format.c: see format.h. */
#include "results/format.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static bool round_trips(double v, int precision, char *buf, size_t size)
{
    snprintf(buf, size, "%.*g", precision, v);
    return strtod(buf, NULL) == v;
}

/* The fewest significant digits (1 to 17) whose "%.*g" reads back as v.
 * Every results tree formats thousands of numbers, most needing 15 to 17
 * digits, so trying each precision in turn was a third of a run's CPU time.
 * Where the doubles that read as v lie symmetrically around it (any v but
 * a power of two, whose lower neighbour is twice as near), a precision that
 * works keeps working with more digits: the finer decimal grid holds the
 * coarser one, so its nearest point is no farther. The answer is then found
 * by halving [1, 17] (about 5 tries); a power of two is searched digit by
 * digit, as before, so the result is the same for every double. */
static int shortest_precision(double v, char *buf, size_t size)
{
    int exponent;
    if (v == 0 || fabs(frexp(v, &exponent)) == 0.5) {
        int precision = 1;
        while (precision < 17 && !round_trips(v, precision, buf, size))
            precision++;
        return precision;
    }
    int lo = 1, hi = 17; /* 17 digits always read back */
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (round_trips(v, mid, buf, size))
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

/* v rounded to `digits` significant figures as a reader rounds it by hand:
 * the decimal estimates.csv shows (the shortest that reads back as v),
 * halves away from zero. printf rounds the binary value, ties to even:
 * 3.125 would become 3.12 and 2.675 (2.67499999... in binary) 2.67. */
static double round_sig(double v, int digits)
{
    char s[40];
    snprintf(s, sizeof s, "%.*e", shortest_precision(v, s, sizeof s) - 1, v);
    /* s is "[-]d.ddd...e[+-]xx": the digits without the point. */
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
    if (up) { /* 9.995 -> 10.0: one more digit in front */
        memmove(mant + 1, mant, n);
        mant[0] = '1';
        exponent++;
    }
    mant[n] = '\0';
    char out[48];
    snprintf(out, sizeof out, "%s0.%se%d", s[0] == '-' ? "-" : "", mant, exponent + 1);
    return strtod(out, NULL);
}

char *rc_format_int(int64_t v, char *buf, size_t size)
{
    snprintf(buf, size, "%lld", (long long)v);
    return group_thousands(buf, size);
}

char *rc_format_sig3(double v, char *buf, size_t size)
{
    if (!isfinite(v))
        return rc_format_exact(v, buf, size);
    if (v == 0) {
        snprintf(buf, size, "0");
        return buf;
    }
    /* Round to three significant figures first, so that 9.996 becomes
     * 10.0 and the decimals follow the rounded value's magnitude. */
    double r = round_sig(v, 3);
    int exponent = (int)floor(log10(fabs(r)));
    int decimals = exponent >= 2 ? 0 : 2 - exponent;
    snprintf(buf, size, "%.*f", decimals, r);
    return group_thousands(buf, size);
}

char *rc_format_exact(double v, char *buf, size_t size)
{
    if (isnan(v)) {
        snprintf(buf, size, "nan");
        return buf;
    }
    if (isinf(v)) {
        snprintf(buf, size, v > 0 ? "inf" : "-inf");
        return buf;
    }
    int precision = shortest_precision(v, buf, size);
    snprintf(buf, size, "%.*g", precision, v);
    /* Plain notation where people and spreadsheets read it more easily:
     * "20", not "2e+01"; "5120000000000", not "5.12e+12". */
    double mag = fabs(v);
    if (strchr(buf, 'e') && mag >= 1e-4 && mag < 1e16) {
        int exponent = (int)floor(log10(mag));
        int decimals = precision - 1 - exponent;
        snprintf(buf, size, "%.*f", decimals > 0 ? decimals : 0, v);
    }
    return buf;
}

char *rc_format_si(double v, const char *unit, char *buf, size_t size)
{
    /* ORDER from 1e-9 to 1e15 */
    static const char *const prefixes[] = {"n", "µ", "m", "", "k", "M", "G", "T", "P"};
    int p = 3;
    double scaled = v;
    if (v != 0 && isfinite(v)) {
        int e3 = (int)floor(log10(fabs(v)) / 3);
        if (e3 < -3)
            e3 = -3;
        if (e3 > 5)
            e3 = 5;
        p = e3 + 3;
        scaled = round_sig(v / pow(10, 3 * e3), 6);
        /* 999.9999999 rounds to 1000: move to the next prefix. */
        if (fabs(scaled) >= 1000 && p < 8) {
            p++;
            scaled = round_sig(scaled / 1000, 6);
        }
    }
    snprintf(buf, size, "%.6g %s%s", scaled, prefixes[p], unit);
    return buf;
}

char *rc_format_si3(double v, const char *unit, char *buf, size_t size)
{
    static const char *const prefixes[] = {"n", "µ", "m", "", "k", "M", "G", "T", "P"};
    if (v == 0 || !isfinite(v)) {
        char num[48];
        snprintf(buf, size, "%s %s", rc_format_sig3(v, num, sizeof num), unit);
        return buf;
    }
    /* Round first, so that 999.6 G becomes 1.00 T rather than 1,000 G. */
    double r = round_sig(v, 3);
    int e3 = (int)floor(log10(fabs(r)) / 3);
    if (e3 < -3)
        e3 = -3;
    if (e3 > 5)
        e3 = 5;
    char num[48];
    rc_format_sig3(r / pow(10, 3 * e3), num, sizeof num);
    snprintf(buf, size, "%s %s%s", num, prefixes[e3 + 3], unit);
    return buf;
}

char *rc_format_us(double seconds, char *buf, size_t size)
{
    return rc_format_sig3(seconds * 1e6, buf, size);
}

char *rc_format_mib(int64_t bytes, char *buf, size_t size)
{
    return rc_format_sig3((double)bytes / 1048576.0, buf, size);
}
