/* paint_hpdf.h: the libharu side of the PDF renderer (render_pdf*.c): the
 * fonts a PDF is set in, and a painter that draws a chart description
 * (canvas.h) on a PDF page as vectors and real text.
 *
 * Private to render_pdf*.c and paint_hpdf.c; it pulls in hpdf.h, which no
 * public header does. Loading and finishing the fonts, which reaches into
 * libharu's own structures, is hpdf_internal.h's.
 */
#ifndef ROOFCAST_PAINT_HPDF_H
#define ROOFCAST_PAINT_HPDF_H

#include <stdbool.h>

#include <hpdf.h>

#include "paint/painter.h"
#include "paint/font.h"

/* The fonts of one PDF document: each role's TTF (rc_font_path) embedded
 * with libharu's UTF-8 encoder, and the question "does this font have a
 * glyph for character c?", answered by the owner (render_pdf.c asks
 * font.c, which read the same files with FreeType). Everything is borrowed from the document
 * being made; nothing here is freed on its own. */
typedef struct rc_hpdf_fonts {
    HPDF_Font font[RC_FONT_COUNT];
    bool (*has_glyph)(void *ctx, rc_font_role role, unsigned long c);
    void *ctx;
} rc_hpdf_fonts;

/* The replacement for a character the fonts cannot show: U+FFFD, which
 * DejaVu Sans draws as a visible question mark in a diamond. */
#define RC_HPDF_REPLACEMENT "\xEF\xBF\xBD"

/* `text` as the fonts of `role` can print it: each character the font has
 * no glyph for, every character outside the Basic Multilingual Plane (which
 * libharu 2.3's UTF-8 encoder cannot encode) and every invalid UTF-8 byte
 * becomes RC_HPDF_REPLACEMENT; runs of white space become one space and
 * ends are trimmed. Reports nothing: the caller warns about what it
 * replaces. Returns a new string that the caller frees with free(), or
 * NULL if out of memory. */
char *rc_hpdf_showable(const rc_hpdf_fonts *fonts, rc_font_role role, const char *text);

/* Writes the UTF-8 form of c (at most 0x10FFFF: 1 to 4 bytes, no NUL) at
 * o and returns the end. */
char *rc_hpdf_utf8_put(char *o, unsigned long c);

/* Points: text at 100 % zoom on paper is legible from this size up. */
#define RC_HPDF_MIN_TEXT 6.0

/* rc_painter_pdf (painter.h) paints a canvas on target->page with its
 * top-left corner at (target->x, target->top), in page points measured
 * from the page's top-left corner (y downward, as on the canvas), scaled
 * by target->scale (1: the canvas's own points), its text in
 * target->page_fonts. Items are painted in order with the rules of
 * canvas.h; a text item is printed with rc_hpdf_showable and, should it
 * then measure wider than the item's `width` (a replaced character), at
 * the size that fits that width, but not under RC_HPDF_MIN_TEXT. */

#endif
