/* buffer.h: a growing text buffer, for the renderers that write text in C.
 *
 * A buffer starts as {0}; every append keeps it NUL-terminated. When memory
 * runs out the buffer is marked failed and later appends do nothing; the
 * caller checks `failed` (or a NULL from rc_buffer_take) once at the end.
 */
#ifndef ROOFCAST_BUFFER_H
#define ROOFCAST_BUFFER_H

#include <stdbool.h>
#include <stddef.h>

#include "util/diag.h" /* RC_PRINTF */

typedef struct {
    char *data;
    size_t len, cap;
    bool failed;
} rc_buffer;

void rc_buffer_put(rc_buffer *b, const char *s, size_t n);
void rc_buffer_puts(rc_buffer *b, const char *s);
void rc_buffer_printf(rc_buffer *b, const char *fmt, ...) RC_PRINTF(2, 3);

/* Appends one CSV field per RFC 4180: quoted when it holds a comma, a
 * quote or a line break; a text a spreadsheet would run as a formula
 * (starting with = + - @, tab or CR, other than a negative number) is
 * quoted and prefixed with an apostrophe. NULL is an empty field. */
void rc_buffer_csv_field(rc_buffer *b, const char *s);

/* Hands the text to the caller, who frees it; NULL (and the buffer freed)
 * when an append failed. *len gets the length. The buffer is left empty. */
char *rc_buffer_take(rc_buffer *b, size_t *len);

#endif
