/* font.h: the fonts of the charts, chosen by file, measured with FreeType.
 *
 * Charts name no font family: they use two TrueType files from Debian's
 * fonts-dejavu-core, so a chart looks the same wherever it is made and does
 * not depend on fontconfig. Whoever fills a canvas (canvas.h; the chart
 * builders, render/chart_*.c) lays text out with the widths measured here,
 * from the fonts' own advance widths (no hinting, no kerning), and every
 * painter (painter.h) draws with the same files at the same advances: SVG
 * as the glyphs' own outlines, PNG through cairo-ft with hinting off, the
 * PDF by embedding the same TTF (libharu, from the bytes of rc_fonts_file,
 * which also spaces glyphs by their advance widths). So a label measured
 * to fit, fits in every format.
 */
#ifndef ROOFCAST_FONT_H
#define ROOFCAST_FONT_H

#include <stddef.h>

#include "util/diag.h"

/* The roles text plays in a chart. ORDER RC_FONT */
typedef enum { RC_FONT_REGULAR, RC_FONT_BOLD, RC_FONT_COUNT } rc_font_role;

/* Where the fonts come from (Debian: fonts-dejavu-core). The environment
 * variable ROOFCAST_FONT_DIR, when set, replaces the directory; the file
 * names stay. */
#define RC_FONT_DIR "/usr/share/fonts/truetype/dejavu"

/* The TrueType file of `role`, e.g.
 * "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf". Returns a static
 * buffer per role, valid until the program ends. */
const char *rc_font_path(rc_font_role role);

typedef struct rc_fonts rc_fonts;

/* Loads every role's file with FreeType. Returns NULL after reporting
 * (naming the missing file and the package that ships it). Free with
 * rc_fonts_free. Measuring is safe from several threads: the widths of
 * the Basic Multilingual Plane are read into tables once, here, and only
 * read after that. */
rc_fonts *rc_fonts_new(rc_diag *diag);
void rc_fonts_free(rc_fonts *fonts);

/* The advance width, in points, of UTF-8 `text` set in `role` at `size`
 * points: the sum of the glyphs' unhinted advance widths, no kerning.
 * Invalid UTF-8 bytes count as U+FFFD. */
double rc_fonts_width(const rc_fonts *fonts, rc_font_role role, double size,
                      const char *text);

/* The font's ascent and descent (both positive, in points) at `size`. */
double rc_fonts_ascent(const rc_fonts *fonts, rc_font_role role, double size);
double rc_fonts_descent(const rc_fonts *fonts, rc_font_role role, double size);

/* The bytes of the TrueType file of `role` (rc_font_path), read once by
 * rc_fonts_new: what FreeType measures with and a PDF embeds. Borrowed,
 * valid until rc_fonts_free. */
const unsigned char *rc_fonts_file(const rc_fonts *fonts, rc_font_role role, size_t *len);

/* ---- glyphs, for the PDF painter's glyph coverage and widths ---- */

typedef struct {
    unsigned glyph; /* the font's glyph index, 0 (.notdef) when it has none */
    long advance;   /* unhinted advance width in font units */
} rc_glyph;

/* The font units per em of `role`: a glyph set at `size` points is scaled
 * by size / units. */
unsigned rc_fonts_units_per_em(const rc_fonts *fonts, rc_font_role role);

/* The number of glyphs of `role`: glyph indices are below it. */
unsigned rc_fonts_glyph_count(const rc_fonts *fonts, rc_font_role role);

/* The glyph that character c is drawn with, and its advance: what
 * rc_fonts_width adds up. */
rc_glyph rc_fonts_glyph(const rc_fonts *fonts, rc_font_role role, unsigned long c);

/* The outline of `glyph` of `role` as SVG path data in font units, y
 * upward, unhinted, as FreeType reads it from the file ("" for a glyph
 * without one, such as a space): what the SVG painter draws text with.
 * Made once per glyph and kept: borrowed, valid until rc_fonts_free; NULL
 * when memory ran out or FreeType cannot load the glyph. Safe from several
 * threads. */
const char *rc_fonts_glyph_outline(const rc_fonts *fonts, rc_font_role role, unsigned glyph);

/* ---- objects kept for reuse ---------------------------------------- */

/* What a renderer makes for every file and can use again for the next:
 * the fonts, given to every renderer and outliving them all, keep it in
 * between. ORDER RC_SPARE */
typedef enum {
    RC_SPARE_PDF,    /* a libharu document with the fonts loaded (pdf_layout.c) */
    RC_SPARE_PIXELS, /* the pixel memory of a PNG chart (paint_cairo.c) */
    RC_SPARE_COUNT
} rc_spare_kind;

/* An object of `kind` given back with rc_fonts_keep, or NULL: make one. */
void *rc_fonts_take(const rc_fonts *fonts, rc_spare_kind kind);

/* Keeps `obj` for a later rc_fonts_take; rc_fonts_free frees it with
 * drop(obj). A few are kept per kind (one per thread that renders); past
 * that, obj is dropped at once. Safe from several threads. */
void rc_fonts_keep(const rc_fonts *fonts, rc_spare_kind kind, void *obj, void (*drop)(void *));

/* Drops every object kept, when no more of their kind will be made: a
 * chart's pixels alone are 7.6 MB. Safe from several threads. */
void rc_fonts_drop_spares(const rc_fonts *fonts);

/* Decodes one UTF-8 character at *p and advances *p past it; an invalid
 * byte gives U+FFFD and advances by one. Shared with the chart builder,
 * which breaks lines between characters, never inside one. */
unsigned long rc_utf8_next(const char **p);

/* For the Cairo painter: the face of `role` as a cairo_font_face_t *,
 * made once by rc_fonts_new from its own FreeType face (so painting and
 * measuring never share one). The pointer is borrowed: it stays valid
 * until rc_fonts_free. Declared as void * so that this header does not
 * pull in Cairo. */
void *rc_fonts_cairo_face(const rc_fonts *fonts, rc_font_role role);

/* For the Cairo painter: keeps a reference to `scaled_font` (a
 * cairo_scaled_font_t *, once per distinct font; up to
 * RC_FONTS_HELD_SCALED of them) until rc_fonts_free, so that no scaled
 * font is destroyed while the workers paint. Why: Cairo 1.16 (Debian 12)
 * keeps one process-wide "most recently used" scaled font with a reference
 * of its own, and a thread that makes another font drops that reference,
 * whichever thread's font it was. When it was the last one, that thread
 * checks the font's cache lock outside any mutex (cairo_scaled_font_destroy,
 * cairo-scaled-font.c:1326) while the owner may already have found the
 * font again and locked it: the assertion aborts the run (it did once in
 * CI, in cli_golden). Each worker has faces of its own, yet the race needs
 * none shared. tests/bench/cairo_font_race.c reproduces it (4 threads, 2
 * alternating sizes): 1 of 4 runs aborted without these references, none
 * of 4 with them (a plain-Cairo version of it: 2 of 4, and 0 of 3). With
 * them, a font's last reference goes only in
 * rc_fonts_free, after the workers are done. Safe from several threads. */
#define RC_FONTS_HELD_SCALED 256
void rc_fonts_hold_scaled(const rc_fonts *fonts, void *scaled_font);

/* How many scaled fonts rc_fonts_hold_scaled holds (for the tests). */
size_t rc_fonts_held_scaled(const rc_fonts *fonts);

#endif
