/* hpdf_internal.h: what the PDF renderer needs of libharu that its public
 * API (hpdf.h) does not offer, as plain functions over libharu's public
 * handles and types. hpdf_internal.c is the one file of src/ that reaches
 * into libharu's structures (its internal headers, hpdf_doc.h,
 * hpdf_fontdef.h, hpdf_streams.h, ...); its top comment says what each
 * patch stands in for. CMakeLists.txt accepts only the libharu versions
 * these patches were written against, and tests/unit/test_hpdf_internal.c
 * fails, naming what changed, when a libharu build no longer has what
 * they rely on.
 *
 * Private to the PDF layout (render/pdf_layout*.c) and its tests.
 */
#ifndef ROOFCAST_HPDF_INTERNAL_H
#define ROOFCAST_HPDF_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <hpdf.h>

/* ---- fonts -------------------------------------------------------------- */

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

/* The definition of font `name` loaded into `pdf` (HPDF_GetFontDef, which
 * hpdf.h does not declare), or NULL. Borrowed from the document. */
HPDF_FontDef rc_hpdf_font_def(HPDF_Doc pdf, const char *name);

/* HPDF_GetFont(pdf, name, "UTF-8") for a TrueType font, less its widths
 * and CIDToGIDMap: libharu makes both for all 65,535 codes of the plane
 * there, through the encoder (some 12 million instructions per font and
 * document, and as much again to free them), and rc_hpdf_finish_font
 * makes them anew for the characters used. So for the call the encoder
 * answers as a CMap encoder that maps one code: the font's tables cover
 * that code alone. The encoder is as it was after the call. NULL after
 * libharu's error handler was called, or when memory ran out. */
HPDF_Font rc_hpdf_get_font(HPDF_Doc pdf, const char *name);

/* The width of character `code` (at most 0xFFFF) of the TrueType font
 * `def` in thousandths of an em, as HPDF_Font_TextWidth adds it up: it
 * marks the character's glyph as used, for the embedded subset. */
int rc_hpdf_char_width(HPDF_FontDef def, unsigned code);

/* The glyphs of the TrueType font `def` marked as used so far, ascending
 * (malloc'd; the caller frees it; NULL with *n 0 when none or out of
 * memory: *n then (size_t)-1). */
uint16_t *rc_hpdf_glyphs_used(HPDF_FontDef def, size_t *n);

/* Marks glyph `glyph` of the TrueType font `def` as used: embedded when the
 * document is saved. A glyph id beyond the font's is ignored. */
void rc_hpdf_mark_glyph(HPDF_FontDef def, unsigned glyph);

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

/* ---- documents ---------------------------------------------------------- */

/* What libharu's error `e` means, for messages: a phrase for the errors
 * roofcast can meet (hpdf_error.h), else "see hpdf_error.h". */
const char *rc_hpdf_error_text(HPDF_STATUS e);

/* Makes `user` what `pdf`'s error handler is called with from now on:
 * HPDF_New takes it once, and a document kept for the next PDF has a new
 * owner. */
void rc_hpdf_set_error_data(HPDF_Doc pdf, void *user);

/* Saves `pdf` as HPDF_SaveToStream does, each piece handed to put(ctx,
 * data, len) as it is written rather than into libharu's memory stream:
 * the document is never whole in memory. Returns 1 when saved, 0 when
 * libharu failed (its error handler has the details), -1 when the writer
 * could not be made (out of memory, unless the handler was called). */
int rc_hpdf_save_to(HPDF_Doc pdf, void (*put)(void *ctx, const void *data, size_t len),
                    void *ctx);

/* ---- pages -------------------------------------------------------------- */

/* The operators in `page`'s current content stream, uncompressed
 * (malloc'd; the caller frees it), or NULL when out of memory. */
unsigned char *rc_hpdf_page_operators(HPDF_Page page, size_t *len);

/* Whether `page`'s current content stream is in memory and deflated when
 * saved: what rc_hpdf_page_put_packed may replace before saving. */
bool rc_hpdf_page_operators_in_memory(HPDF_Page page);

/* Makes packed[0..len), operators deflated already, the data of `page`'s
 * current content stream, written as it is with /Filter /FlateDecode (a
 * stream whose filter is none has no /Filter in libharu). Returns false
 * when memory runs out. */
bool rc_hpdf_page_put_packed(HPDF_Page page, const unsigned char *packed, size_t len);

/* Makes `page`'s current content stream read `len` deflated bytes at
 * `offset` of `spill` when the document is saved (the spill file must stay
 * open until then), and starts the page a new content stream, with a small
 * buffer, for what is drawn later (a footer). Returns false, the page left
 * as it was, on failure. */
bool rc_hpdf_page_seal(HPDF_Page page, FILE *spill, long offset, size_t len);

/* How many fonts `page`'s resources name, and the i-th of them
 * (i < that count), in the order the page first used them (libharu names
 * them F1, F2, ... in that order). */
size_t rc_hpdf_page_font_count(HPDF_Page page);
HPDF_Font rc_hpdf_page_font(HPDF_Page page, size_t i);

/* Adds `font` to `page`'s resources, as drawing text in it first does.
 * Returns false on a libharu error. */
bool rc_hpdf_page_add_font(HPDF_Page page, HPDF_Font font);

#endif
