/* units.h: quantities with units, as written in specs/<id>.xml.
 *
 * A quantity is a decimal number, optional spaces, and a unit:
 * "5.12 TFLOP/s", "336 GB/s", "1.5 GiB/s", "5 us", "6 GB", "889 MHz".
 * Values are returned in base units: FLOP/s, B/s, s, B, Hz.
 */
#ifndef ROOFCAST_UNITS_H
#define ROOFCAST_UNITS_H

#include <stdbool.h>
#include <stddef.h>

typedef enum {
    RC_QTY_FLOP_RATE, /* FLOP/s with k, M, G, T, P prefixes */
    RC_QTY_BYTE_RATE, /* B/s, kB/s..PB/s (decimal), KiB/s..PiB/s (binary) */
    RC_QTY_TIME,      /* s, ms, us, µs, ns */
    RC_QTY_BYTES,     /* B, kB..PB (decimal), KiB..PiB (binary) */
    RC_QTY_FREQUENCY  /* Hz, kHz, MHz, GHz */
} rc_quantity_kind;

/* Parses `text` as a quantity of `kind`. Returns true with *value in base
 * units, or false with a message (no trailing newline) in err[errlen].
 * Leading and trailing white space is ignored. The number must be finite;
 * its sign is not checked here (callers say which values they accept). */
bool rc_parse_quantity(const char *text, rc_quantity_kind kind, double *value,
                       char *err, size_t errlen);

/* The name of a kind as used in messages: "FLOP rate", "bandwidth",
 * "time", "size", "frequency". */
const char *rc_quantity_kind_name(rc_quantity_kind kind);

#endif
