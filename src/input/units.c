/* units.c: parsing quantities with units (see units.h).
 *
 * The number is checked against the decimal floating literal syntax first
 *
 *     [+-]? ( digits [. digits?] | . digits ) ( [eE] [+-]? digits )?
 *
 * so that hexadecimal floats, "inf", "nan" and numbers without digits are
 * refused before strtod sees them; strtod (C locale) then converts exactly
 * that span. Scales are exact powers written as literals: a prefix above the
 * base unit multiplies (5.12 * 1e12), one below it divides (5 / 1e6), so that
 * a value written in the unit of the table is the correctly rounded double of
 * number * scale whenever the number itself is exact.
 */
#include "input/units.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Longest piece of user text quoted in a message, in bytes of the input. */
#define QUOTE_MAX 40
/* Room for a quote: QUOTE_MAX bytes, "..." and the NUL. */
#define QUOTE_BUF (QUOTE_MAX + 4)

typedef struct {
    const char *name;
    double scale;
    bool divide; /* value = number / scale rather than number * scale */
} unit_def;

static const unit_def flop_rate_units[] = {
    {"FLOP/s", 1.0, false},   {"kFLOP/s", 1e3, false},
    {"MFLOP/s", 1e6, false},  {"GFLOP/s", 1e9, false},
    {"TFLOP/s", 1e12, false}, {"PFLOP/s", 1e15, false},
    {NULL, 0.0, false},
};

static const unit_def byte_rate_units[] = {
    {"B/s", 1.0, false},
    {"kB/s", 1e3, false},
    {"MB/s", 1e6, false},
    {"GB/s", 1e9, false},
    {"TB/s", 1e12, false},
    {"PB/s", 1e15, false},
    {"KiB/s", 1024.0, false},
    {"MiB/s", 1048576.0, false},
    {"GiB/s", 1073741824.0, false},
    {"TiB/s", 1099511627776.0, false},
    {"PiB/s", 1125899906842624.0, false},
    {NULL, 0.0, false},
};

static const unit_def time_units[] = {
    {"s", 1.0, false},
    {"ms", 1e3, true},
    {"us", 1e6, true},
    {"\xC2\xB5s", 1e6, true}, /* U+00B5 MICRO SIGN */
    {"\xCE\xBCs", 1e6, true}, /* U+03BC GREEK SMALL LETTER MU */
    {"ns", 1e9, true},
    {NULL, 0.0, false},
};

static const unit_def byte_units[] = {
    {"B", 1.0, false},
    {"kB", 1e3, false},
    {"MB", 1e6, false},
    {"GB", 1e9, false},
    {"TB", 1e12, false},
    {"PB", 1e15, false},
    {"KiB", 1024.0, false},
    {"MiB", 1048576.0, false},
    {"GiB", 1073741824.0, false},
    {"TiB", 1099511627776.0, false},
    {"PiB", 1125899906842624.0, false},
    {NULL, 0.0, false},
};

static const unit_def frequency_units[] = {
    {"Hz", 1.0, false},  {"kHz", 1e3, false}, {"MHz", 1e6, false},
    {"GHz", 1e9, false}, {NULL, 0.0, false},
};

typedef struct {
    const char *name;    /* rc_quantity_kind_name */
    const char *example; /* a well-formed quantity, for messages */
    const char *expected; /* the accepted units, for messages */
    const unit_def *units;
} kind_def;

static const kind_def kinds[] = {
    [RC_QTY_FLOP_RATE] = {"FLOP rate", "5.12 TFLOP/s",
                          "FLOP/s with an optional k, M, G, T or P prefix",
                          flop_rate_units},
    [RC_QTY_BYTE_RATE] = {"bandwidth", "336 GB/s",
                          "B/s with a decimal (kB/s to PB/s) or binary "
                          "(KiB/s to PiB/s) prefix",
                          byte_rate_units},
    [RC_QTY_TIME] = {"time", "5 us", "s, ms, us, \xC2\xB5s or ns", time_units},
    [RC_QTY_BYTES] = {"size", "6 GB",
                      "B with a decimal (kB to PB) or binary (KiB to PiB) "
                      "prefix",
                      byte_units},
    [RC_QTY_FREQUENCY] = {"frequency", "1455 MHz", "Hz, kHz, MHz or GHz",
                          frequency_units},
};

#define KIND_COUNT (sizeof kinds / sizeof kinds[0])

static const kind_def *find_kind(rc_quantity_kind kind)
{
    if ((unsigned)kind >= KIND_COUNT)
        return NULL;
    return &kinds[kind];
}

const char *rc_quantity_kind_name(rc_quantity_kind kind)
{
    const kind_def *k = find_kind(kind);
    return k ? k->name : "quantity";
}

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' ||
           c == '\f';
}

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

/* Length of the well-formed UTF-8 sequence at s (at most n bytes), or 0 if
 * the bytes there are not one. Overlong forms and surrogates are refused. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
    unsigned char c = s[0];
    size_t len;
    unsigned long cp;
    if (c < 0x80)
        return 1;
    if (c >= 0xC2 && c <= 0xDF) {
        len = 2;
        cp = c & 0x1Fu;
    } else if (c >= 0xE0 && c <= 0xEF) {
        len = 3;
        cp = c & 0x0Fu;
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4;
        cp = c & 0x07u;
    } else {
        return 0;
    }
    if (len > n)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xC0u) != 0x80u)
            return 0;
        cp = (cp << 6) | (s[i] & 0x3Fu);
    }
    if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
        cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return len;
}

/* Copies text[0, n) into out[outlen] for quoting in a message: at most
 * QUOTE_MAX bytes of the input, cut at a character boundary, then "..." if
 * anything was left out. Control characters (C0, DEL, C1) and bytes that are
 * not well-formed UTF-8 become '?'. out must hold QUOTE_BUF bytes. */
static void quote(const char *text, size_t n, char *out)
{
    const unsigned char *s = (const unsigned char *)text;
    size_t i = 0, o = 0;
    while (i < n) {
        size_t len = utf8_len(s + i, n - i);
        size_t step = len ? len : 1;
        if (i + step > QUOTE_MAX)
            break;
        if (len == 0 || s[i] < 0x20 || s[i] == 0x7F ||
            (len == 2 && s[i] == 0xC2 && s[i + 1] < 0xA0)) {
            out[o++] = '?';
        } else {
            memcpy(out + o, s + i, len);
            o += len;
        }
        i += step;
    }
    if (i < n) {
        memcpy(out + o, "...", 3);
        o += 3;
    }
    out[o] = '\0';
}

static bool fail(char *err, size_t errlen, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

static bool fail(char *err, size_t errlen, const char *fmt, ...)
{
    if (err && errlen > 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return false;
}

/* Length of the decimal floating literal at s (within [s, end)), or 0 if
 * there is none. */
static size_t scan_number(const char *s, const char *end)
{
    const char *p = s;
    size_t digits = 0;
    if (p < end && (*p == '+' || *p == '-'))
        p++;
    /* "0x..." would be a hexadecimal float to strtod: not a decimal number. */
    if (end - p >= 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
        return 0;
    while (p < end && is_digit(*p)) {
        p++;
        digits++;
    }
    if (p < end && *p == '.') {
        p++;
        while (p < end && is_digit(*p)) {
            p++;
            digits++;
        }
    }
    if (digits == 0)
        return 0;
    if (p < end && (*p == 'e' || *p == 'E')) {
        const char *q = p + 1;
        if (q < end && (*q == '+' || *q == '-'))
            q++;
        if (q < end && is_digit(*q)) {
            while (q < end && is_digit(*q))
                q++;
            p = q;
        }
    }
    return (size_t)(p - s);
}

/* The text's span without leading and trailing spaces. */
static void trim(const char *text, const char **start, const char **end)
{
    const char *s = text, *e = text + strlen(text);
    while (s < e && is_space(*s))
        s++;
    while (e > s && is_space(e[-1]))
        e--;
    *start = s;
    *end = e;
}

static bool no_number(const kind_def *k, const char *start, const char *end, char *err,
                      size_t errlen)
{
    char q[QUOTE_BUF];
    quote(start, (size_t)(end - start), q);
    return fail(err, errlen,
                "'%s' does not start with a number (expected a %s such "
                "as '%s')",
                q, k->name, k->example);
}

/* The number at the start of [start, end) into *number and its length into
 * *numlen, refused when it is missing or goes on ("5,12", "5.1.2"). */
static bool parse_number(const kind_def *k, const char *start, const char *end,
                         double *number, size_t *numlen, char *err, size_t errlen)
{
    char q[QUOTE_BUF];
    size_t n = scan_number(start, end);
    if (n == 0)
        return no_number(k, start, end, err, errlen);
    /* The span is a complete decimal literal, followed by something that
     * cannot extend it, so strtod stops exactly at its end. */
    char *numend = NULL;
    *number = strtod(start, &numend);
    if (numend != start + n)
        return no_number(k, start, end, err, errlen);
    const char *unit = start + n;
    /* "5,12" and "5.1.2": a number that goes on, not a unit. */
    if (unit < end - 1 && *unit == ',' && is_digit(unit[1])) {
        size_t toklen = n + 1;
        while (start + toklen < end && is_digit(start[toklen]))
            toklen++;
        quote(start, toklen, q);
        return fail(err, errlen,
                    "'%s' has a decimal comma: write the decimal point as '.' (expected "
                    "a %s such as '%s')",
                    q, k->name, k->example);
    }
    if (unit < end && (*unit == '.' || is_digit(*unit))) {
        size_t toklen = n;
        while (start + toklen < end && !is_space(start[toklen]))
            toklen++;
        quote(start, toklen, q);
        return fail(err, errlen, "malformed number '%s' (expected a %s such as '%s')", q,
                    k->name, k->example);
    }
    *numlen = n;
    return true;
}

/* The unit [unit, end) among the kind's units, or NULL after the error. */
static const unit_def *find_unit(const kind_def *k, const char *unit, const char *end,
                                 char *err, size_t errlen)
{
    size_t unitlen = (size_t)(end - unit);
    const unit_def *u = k->units;
    while (u->name &&
           !(strlen(u->name) == unitlen && memcmp(u->name, unit, unitlen) == 0))
        u++;
    if (!u->name) {
        char q[QUOTE_BUF];
        quote(unit, unitlen, q);
        fail(err, errlen, "unknown unit '%s' for a %s (expected %s)", q, k->name,
             k->expected);
        return NULL;
    }
    return u;
}

bool rc_parse_quantity(const char *text, rc_quantity_kind kind, double *value,
                       char *err, size_t errlen)
{
    const kind_def *k = find_kind(kind);
    char q[QUOTE_BUF];
    if (!k)
        return fail(err, errlen, "unknown quantity kind %d", (int)kind);
    if (!text)
        text = "";
    const char *start, *end;
    trim(text, &start, &end);
    if (start == end)
        return fail(err, errlen,
                    "empty %s, expected a number and a unit such as '%s'",
                    k->name, k->example);
    double number = 0;
    size_t numlen = 0;
    if (!parse_number(k, start, end, &number, &numlen, err, errlen))
        return false;
    const char *unit = start + numlen;
    while (unit < end && (*unit == ' ' || *unit == '\t'))
        unit++;
    if (unit == end) {
        quote(start, numlen, q);
        return fail(err, errlen,
                    "missing unit after '%s' (expected a %s such as '%s')", q,
                    k->name, k->example);
    }
    const unit_def *u = find_unit(k, unit, end, err, errlen);
    if (!u)
        return false;
    double v = u->divide ? number / u->scale : number * u->scale;
    if (!isfinite(number) || !isfinite(v)) {
        quote(start, numlen, q);
        return fail(err, errlen, "value %s is out of range", q);
    }
    if (value)
        *value = v;
    return true;
}
