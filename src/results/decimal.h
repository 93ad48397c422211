/* decimal.h: a double's shortest decimal, found without printf/strtod
 * round trips, for format.c.
 *
 * The shortest decimal of v is the one "%.*g" prints at the fewest
 * significant digits P (1 to 17) whose text strtod reads back as v. Finding
 * P by printing and reading back (about five snprintf+strtod pairs, each an
 * exact multi-precision conversion in glibc) was most of the results tree's
 * CPU time. Here v's 17 significant digits are printed once, each shorter
 * candidate is rounded from them, and whether a candidate reads back is
 * decided exactly, by comparing it with the midpoints between v and its
 * neighbouring doubles in integer arithmetic. The results are those of the
 * printf/strtod search for every double (tests/unit/test_format.c checks
 * them against it).
 */
#ifndef ROOFCAST_DECIMAL_H
#define ROOFCAST_DECIMAL_H

#include <stdbool.h>

#define RC_DECIMAL_DIGITS 17

/* A non-negative decimal d1.d2...dn x 10^exp: n significant digits
 * ('0' to '9', NUL-terminated), no trailing zeros (zero is "0", exp 0). */
typedef struct {
    char digits[RC_DECIMAL_DIGITS + 2];
    int n;
    int exp;
} rc_decimal;

/* The shortest decimal of |v| (v finite), and returns the precision P that
 * "%.*g" prints it with (the number of digits it has, 1 for zero). */
int rc_decimal_shortest(double v, rc_decimal *out);

/* d rounded to `digits` significant figures, halves away from zero (as a
 * reader rounds the shown decimal by hand); d itself when it is shorter. */
void rc_decimal_round_half_up(rc_decimal *d, int digits);

/* The double nearest to d (as strtod reads it). */
double rc_decimal_value(const rc_decimal *d);

/* Writes d as "%.*g" writes a double whose P-digit rounding is d (d has at
 * most P digits), with a '-' in front when `negative`; returns the length.
 * out must hold 32 bytes. */
int rc_decimal_print_g(const rc_decimal *d, bool negative, int precision, char *out);

/* Writes d in plain notation with exactly `decimals` digits after the point
 * (none, and no point, when 0), as "%.*f" writes a double nearest to d when
 * d has no digit beyond them; returns the length. out must hold
 * d->exp + decimals + 4 bytes. */
int rc_decimal_print_fixed(const rc_decimal *d, bool negative, int decimals, char *out);

#endif
