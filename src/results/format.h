/* format.h: how numbers are shown to people. One module, so that every
 * renderer prints a number the same way. Results written for tools (CSV,
 * results.xml) use rc_format_exact instead.
 *
 * Every function writes a NUL-terminated string into buf[size] (truncated
 * if too small; 64 bytes is always enough) and returns buf.
 *
 * Rounding is the one a reader checks by hand: of the decimal that
 * estimates.csv shows (the shortest that reads back as the value), halves
 * away from zero: 3.125 -> "3.13", 2.675 -> "2.68", 13.45e12 FLOP/s ->
 * "13.5 TFLOP/s" (printf would round the binary value, ties to even).
 */
#ifndef ROOFCAST_FORMAT_H
#define ROOFCAST_FORMAT_H

#include <stddef.h>
#include <stdint.h>

/* 1237500 -> "1,237,500" */
char *rc_format_int(int64_t v, char *buf, size_t size);

/* Three significant figures, thousands separators: 6.904762 -> "6.90",
 * 0.046875 -> "0.0469", 123456 -> "123,000", 0 -> "0". */
char *rc_format_sig3(double v, char *buf, size_t size);

/* The shortest decimal that reads back as the same double: "5120000000000",
 * "0.375", "1.9047619047619048e-06". Non-finite values: "inf", "-inf",
 * "nan". */
char *rc_format_exact(double v, char *buf, size_t size);

/* An input figure with an SI prefix, as written by people: up to six
 * significant figures, trailing zeros dropped: (5.12e12, "FLOP/s") ->
 * "5.12 TFLOP/s", (336.5e9, "B/s") -> "336.5 GB/s", (5e-6, "s") -> "5 µs". */
char *rc_format_si(double v, const char *unit, char *buf, size_t size);

/* A computed value with an SI prefix and three significant figures:
 * (72977443609.0, "FLOP/s") -> "73.0 GFLOP/s". */
char *rc_format_si3(double v, const char *unit, char *buf, size_t size);

/* A time in microseconds with three significant figures, without unit:
 * 6.904762e-6 -> "6.90". */
char *rc_format_us(double seconds, char *buf, size_t size);

/* Bytes as MiB with three significant figures, without unit. */
char *rc_format_mib(int64_t bytes, char *buf, size_t size);

#endif
