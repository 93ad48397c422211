/* paint_hpdf.h: the libharu side of the PDF renderer (render_pdf.c): the
 * fonts a PDF is set in, and a painter that draws a chart description
 * (canvas.h) on a PDF page as vectors and real text.
 *
 * Private to render_pdf.c and paint_hpdf.c; it pulls in hpdf.h, which no
 * public header does. Loading the fonts reaches into libharu 2.3's own
 * structures (hpdf_doc.h, hpdf_fontdef.h, installed with libhpdf-dev):
 * through its API alone, a document's fonts cost more than the rest of it.
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

/* A TrueType file in memory as libharu reads it (rc_hpdf_load_ttf). The
 * bytes are borrowed and must outlive the document. */
typedef struct {
    const unsigned char *data;
    size_t len, pos;
    size_t post; /* where the 'post' table's version is, or (size_t)-1 */
} rc_hpdf_font_source;

/* Loads the TrueType font data[0..len) into `pdf`, embedded, as
 * HPDF_LoadTTFontFromFile does from a file (the same parse, checks,
 * errors and subset tag), but from memory through `src`, which must
 * outlive the document: a file read 4 bytes at a time costs a library
 * call per read. What the PDF embeds differs in one table: 'post' keeps
 * its 32-byte header as format 3 and leaves out the glyph names (62 KB of
 * DejaVu Sans that no PDF reader uses: a CID font's glyphs are found by
 * CIDToGIDMap and its text by ToUnicode), so there is less to compress.
 * Returns the font's name for HPDF_GetFont, or NULL after libharu's error
 * handler was called. */
const char *rc_hpdf_load_ttf(HPDF_Doc pdf, rc_hpdf_font_source *src, const unsigned char *data,
                             size_t len);

/* Makes the character-to-glyph lookups of the TrueType font `name`,
 * loaded into `pdf` by HPDF_LoadTTFontFromFile, take constant time.
 * libharu 2.3 looks each character up by a linear search through the
 * font's cmap segments (HPDF_TTFontDef_GetGlyphid), and HPDF_GetFont with
 * the UTF-8 encoder looks up all 65,536 code points to build the font's
 * widths and CIDToGIDMap: 2.9 million steps per font, most of the time a
 * PDF took. This replaces the parsed cmap (the copy libharu searches, not
 * the table it embeds) by one segment over 0..0xFFFF whose glyph array
 * holds what the search found for every code point: the same glyphs,
 * looked up directly. Call it before HPDF_GetFont. Returns false, leaving
 * the font as it was, when its cmap is not the kind this can convert. */
bool rc_hpdf_direct_cmap(HPDF_Doc pdf, const char *name);

/* HPDF_GetFont(pdf, name, "UTF-8") for a TrueType font, less its widths
 * and CIDToGIDMap: libharu makes both for all 65,535 codes of the plane
 * there, through the encoder (some 12 million instructions per font and
 * document, and as much again to free them), and rc_hpdf_finish_font
 * makes them anew for the characters used. So for the call the encoder
 * answers as a CMap encoder that maps one code: the font's tables cover
 * that code alone. The encoder is as it was after the call. NULL after
 * libharu's error handler was called, or when memory ran out. */
HPDF_Font rc_hpdf_get_font(HPDF_Doc pdf, const char *name);

/* What rc_hpdf_finish_font keeps of one font from one document to the
 * next: the characters its cmap maps, the ToUnicode CMap deflated, and the
 * last few embedded subsets made, deflated. NULL to start; free with
 * rc_hpdf_font_memo_free. */
typedef struct rc_hpdf_font_memo rc_hpdf_font_memo;

void rc_hpdf_font_memo_free(rc_hpdf_font_memo *memo);

/* Finishes a TrueType font with the UTF-8 encoder (`font` from
 * HPDF_GetFont(pdf, name, "UTF-8"), its cmap made direct by
 * rc_hpdf_direct_cmap) for saving: call it once per document and font,
 * after the last text is drawn and before the document is saved.
 *
 * libharu 2.3 gives such a font a width (/W) and a CIDToGIDMap entry for
 * every code of the Basic Multilingual Plane: 48 KB of numbers and
 * 256 KB to compress per document, the most of what a one-page PDF cost.
 * Here both cover only the characters whose glyphs the document embeds
 * (those it measured or drew), with the same widths and glyphs; codes
 * it never shows need neither.
 *
 * Its ToUnicode CMap becomes one that readers can use: libharu writes
 * its encoding CMap there, a "begincidrange" that maps codes to CIDs, not
 * to text (poppler warned "Invalid 'begincidrange' operator in ToUnicode
 * CMap" on every PDF). The replacement maps every code to the character
 * it encodes (bfrange over the Basic Multilingual Plane).
 *
 * The embedded subset depends only on the glyphs used, which documents
 * set in the same fonts mostly share: it is made (and deflated) once per
 * glyph set and kept in *memo, made on first use, rather than made anew
 * per document. Returns false, the font partly finished, when it is not
 * of that kind or memory ran out. */
bool rc_hpdf_finish_font(HPDF_Font font, rc_hpdf_font_memo **memo);

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
