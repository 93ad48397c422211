/* buffer.c: see buffer.h. */
#include "util/buffer.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool reserve(rc_buffer *b, size_t more)
{
    if (b->failed)
        return false;
    if (b->len + more + 1 <= b->cap)
        return true;
    size_t cap = (b->len + more + 1) * 2;
    char *p = realloc(b->data, cap);
    if (!p) {
        b->failed = true;
        return false;
    }
    b->data = p;
    b->cap = cap;
    return true;
}

void rc_buffer_put(rc_buffer *b, const char *s, size_t n)
{
    if (!reserve(b, n))
        return;
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
}

void rc_buffer_puts(rc_buffer *b, const char *s) { rc_buffer_put(b, s, strlen(s)); }

/* Formats straight into the room left, and a second time only when the
 * text did not fit: formatting every text twice (to measure it, then to
 * write it) cost the SVG painter, whose glyph outlines go through "%s", a
 * third of its instructions. */
void rc_buffer_printf(rc_buffer *b, const char *fmt, ...)
{
    if (b->failed)
        return;
    size_t room = b->cap - b->len;
    va_list ap;
    va_start(ap, fmt);
    int need = vsnprintf(room ? b->data + b->len : NULL, room, fmt, ap);
    va_end(ap);
    if (need >= 0 && (size_t)need >= room && reserve(b, (size_t)need)) { /* it did not fit */
        va_start(ap, fmt);
        vsnprintf(b->data + b->len, b->cap - b->len, fmt, ap);
        va_end(ap);
        room = b->cap - b->len;
    }
    if (need < 0 || (size_t)need >= room) { /* a format error, or out of memory */
        if (b->data)
            b->data[b->len] = '\0'; /* what was cut short is not kept */
        return;
    }
    b->len += (size_t)need;
}

void rc_buffer_csv_field(rc_buffer *b, const char *s)
{
    if (!s)
        s = "";
    bool formula = s[0] != '\0' && strchr("=+-@\t\r", s[0]) &&
                   !(s[0] == '-' && s[1] >= '0' && s[1] <= '9');
    if (!formula && !strpbrk(s, ",\"\r\n")) {
        rc_buffer_puts(b, s);
        return;
    }
    rc_buffer_puts(b, formula ? "\"'" : "\"");
    for (const char *p = s; *p; p++) {
        if (*p == '"')
            rc_buffer_put(b, "\"", 1);
        rc_buffer_put(b, p, 1);
    }
    rc_buffer_puts(b, "\"");
}

char *rc_buffer_take(rc_buffer *b, size_t *len)
{
    char *out = b->failed ? NULL : b->data;
    if (b->failed)
        free(b->data);
    else if (!out && (out = malloc(1)) != NULL)
        *out = '\0'; /* an empty text is still a text */
    if (out && len)
        *len = b->len;
    *b = (rc_buffer){0};
    return out;
}
