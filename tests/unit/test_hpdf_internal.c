/* test_hpdf_internal.c: what paint/hpdf_internal.c relies on in libharu.
 *
 * hpdf_internal.c reaches into libharu's structures for what its API
 * lacks (its top comment says what and why). A libharu update may keep
 * every name and still change what a patch relies on; this fails then,
 * naming what changed, rather than the PDFs breaking silently:
 * - the library linked is the one whose headers the program was built with;
 * - every field the patches read or write is where libharu 2.3.0 has it
 *   (offset and size, recorded for 64-bit Linux);
 * - each patch does what it says: the same glyphs, widths and fonts as
 *   libharu's own calls, and a PDF written through the patched path holds
 *   the bytes it must (pages' operators, ToUnicode, widths, subsets).
 * After reviewing hpdf_internal.c against a new libharu, record the new
 * layout in FIELDS below and the version range in CMakeLists.txt. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hpdf.h>
#include <hpdf_doc.h>
#include <hpdf_encoder.h>
#include <hpdf_font.h>
#include <hpdf_fontdef.h>
#include <hpdf_pages.h>
#include <hpdf_streams.h>
#include <zlib.h>

#include "paint/font.h"
#include "paint/hpdf_internal.h"
#include "render/pdf_layout.h"
#include "util/buffer.h"

/* ---- the library and its structures ---------------------------------------- */

/* The headers hpdf_internal.c was compiled with describe the library it
 * runs with: a libharu of another version under the same file name would
 * have other structures. */
static void library_is_the_headers_version(void **state)
{
    (void)state;
    if (strcmp(HPDF_GetVersion(), HPDF_VERSION_TEXT) != 0)
        fail_msg("libharu %s is linked, but roofcast was compiled with the headers of libharu "
                 "%s: hpdf_internal.c reaches into the structures those headers describe",
                 HPDF_GetVersion(), HPDF_VERSION_TEXT);
}

/* ORDER FIELDS: each field of libharu's structures that hpdf_internal.c
 * reads or writes, where libharu 2.3.0 has it on 64-bit Linux (offset,
 * size), and what relies on it. */
#define FIELDS(F) \
    F(_HPDF_Doc_Rec, mmgr, 8, 8, "the font source's stream, the save writer") \
    F(_HPDF_Doc_Rec, error, 72, 32, "the error handler's data") \
    F(_HPDF_Doc_Rec, ttfont_tag, 128, 6, "fonts from memory: the subset tag") \
    F(_HPDF_Doc_Rec, stream, 192, 8, "saving through a callback") \
    F(_HPDF_Error_Rec, user_data, 24, 8, "the error handler's data") \
    F(_HPDF_Stream_Rec, type, 4, 4, "pages' operators in memory") \
    F(_HPDF_Stream_Rec, free_fn, 56, 8, "sealed pages") \
    F(_HPDF_Stream_Rec, mmgr, 8, 8, "sealed pages") \
    F(_HPDF_Stream_Rec, error, 16, 8, "callback streams") \
    F(_HPDF_Stream_Rec, attr, 80, 8, "callback streams") \
    F(_HPDF_Dict_Rec, header, 0, 8, "fonts in a page's resources") \
    F(_HPDF_Obj_Header, obj_class, 6, 2, "fonts in a page's resources") \
    F(_HPDF_Dict_Rec, mmgr, 8, 8, "pages, fonts' dictionaries") \
    F(_HPDF_Dict_Rec, list, 24, 8, "fonts in a page's resources") \
    F(_HPDF_Dict_Rec, write_fn, 40, 8, "streams deflated already") \
    F(_HPDF_Dict_Rec, filter, 72, 4, "streams deflated already") \
    F(_HPDF_Dict_Rec, stream, 64, 8, "pages' operators, fonts' streams") \
    F(_HPDF_Dict_Rec, attr, 88, 8, "pages, fonts") \
    F(_HPDF_Proxy_Rec, obj, 8, 8, "fonts in a page's resources") \
    F(_HPDF_DictElement_Rec, value, 128, 8, "fonts in a page's resources") \
    F(_HPDF_List_Rec, count, 24, 4, "fonts in a page's resources") \
    F(_HPDF_PageAttr_Rec, contents, 96, 8, "pages' operators") \
    F(_HPDF_PageAttr_Rec, stream, 104, 8, "sealed pages") \
    F(_HPDF_PageAttr_Rec, fonts, 8, 8, "fonts in a page's resources") \
    F(_HPDF_FontDef_Rec, base_font, 4, 128, "fonts from memory") \
    F(_HPDF_FontDef_Rec, mmgr, 136, 8, "direct glyph lookups") \
    F(_HPDF_FontDef_Rec, type, 152, 4, "direct glyph lookups, finished fonts") \
    F(_HPDF_FontDef_Rec, attr, 248, 8, "TrueType fonts' tables") \
    F(_HPDF_FontDef_Rec, descriptor, 224, 8, "finished fonts") \
    F(_HPDF_FontDef_Rec, ascent, 184, 2, "finished fonts' descriptor") \
    F(_HPDF_FontDef_Rec, descent, 186, 2, "finished fonts' descriptor") \
    F(_HPDF_FontDef_Rec, flags, 188, 4, "finished fonts' descriptor") \
    F(_HPDF_FontDef_Rec, font_bbox, 192, 16, "finished fonts' descriptor") \
    F(_HPDF_FontDef_Rec, italic_angle, 208, 2, "finished fonts' descriptor") \
    F(_HPDF_FontDef_Rec, stemv, 210, 2, "finished fonts' descriptor") \
    F(_HPDF_FontDef_Rec, x_height, 220, 2, "finished fonts' descriptor") \
    F(_HPDF_FontDef_Rec, missing_width, 216, 2, "finished fonts' widths") \
    F(_HPDF_TTFontDefAttr_Rec, base_font, 0, 128, "finished fonts' descriptor") \
    F(_HPDF_TTFontDefAttr_Rec, glyph_tbl, 224, 24, "glyph flags") \
    F(_HPDF_TTFontDefAttr_Rec, num_glyphs, 248, 2, "glyph flags") \
    F(_HPDF_TTFontDefAttr_Rec, offset_tbl, 288, 24, "fonts from memory: 'post'") \
    F(_HPDF_TTFontDefAttr_Rec, cmap, 312, 72, "direct glyph lookups") \
    F(_HPDF_TTFontDefAttr_Rec, length1, 408, 4, "finished fonts' program") \
    F(_HPDF_TTF_GryphOffsets, flgs, 16, 8, "glyph flags") \
    F(_HPDF_TTF_OffsetTbl, num_tables, 4, 2, "fonts from memory: 'post'") \
    F(_HPDF_TTF_OffsetTbl, table, 16, 8, "fonts from memory: 'post'") \
    F(_HPDF_TTF_Table, tag, 0, 4, "fonts from memory: 'post'") \
    F(_HPDF_TTF_Table, length, 12, 4, "fonts from memory: 'post'") \
    F(_HPDF_TTF_CmapRange, format, 0, 2, "direct glyph lookups") \
    F(_HPDF_TTF_CmapRange, seg_count_x2, 6, 2, "direct glyph lookups") \
    F(_HPDF_TTF_CmapRange, end_count, 16, 8, "direct glyph lookups") \
    F(_HPDF_TTF_CmapRange, start_count, 32, 8, "direct glyph lookups") \
    F(_HPDF_TTF_CmapRange, id_delta, 40, 8, "direct glyph lookups") \
    F(_HPDF_TTF_CmapRange, id_range_offset, 48, 8, "direct glyph lookups") \
    F(_HPDF_TTF_CmapRange, glyph_id_array, 56, 8, "direct glyph lookups") \
    F(_HPDF_TTF_CmapRange, glyph_id_array_count, 64, 4, "direct glyph lookups") \
    F(_HPDF_Encoder_Rec, type, 152, 4, "fonts without tables for every code") \
    F(_HPDF_Encoder_Rec, to_unicode_fn, 168, 8, "fonts without tables for every code") \
    F(_HPDF_Encoder_Rec, attr, 208, 8, "fonts without tables for every code") \
    F(_HPDF_CMapEncoderAttr_Rec, cid_map, 131072, 131072, "fonts without tables for every code") \
    F(_HPDF_FontAttr_Rec, type, 0, 4, "finished fonts") \
    F(_HPDF_FontAttr_Rec, fontdef, 24, 8, "finished fonts") \
    F(_HPDF_FontAttr_Rec, map_stream, 72, 8, "finished fonts' CIDToGIDMap") \
    F(_HPDF_FontAttr_Rec, cmap_stream, 80, 8, "finished fonts' ToUnicode") \
    F(_HPDF_FontAttr_Rec, xref, 56, 8, "finished fonts' descriptor") \
    F(_HPDF_FontAttr_Rec, descendant_font, 64, 8, "finished fonts' widths")

typedef struct {
    const char *name;
    size_t offset, size, was_offset, was_size;
    const char *why;
} field;

#define FIELD_ROW(s, m, off, size, why) \
    {#s "." #m, offsetof(struct s, m), sizeof ((struct s *)0)->m, off, size, why},

/* A field moved, resized or gone (the last fails to compile here) means
 * libharu's structures are not the ones the patches were written for. */
static void structures_are_as_recorded(void **state)
{
    (void)state;
    if (sizeof(void *) != 8 || sizeof(HPDF_UINT) != 4)
        skip(); /* recorded for 64-bit Linux only */
    static const field fields[] = {FIELDS(FIELD_ROW)};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        const field *f = &fields[i];
        if (f->offset != f->was_offset || f->size != f->was_size)
            fail_msg("libharu %s changed %s: offset %zu and size %zu, where libharu 2.3.0 has "
                     "%zu and %zu; hpdf_internal.c relies on it (%s): review that patch "
                     "against this libharu before recording the new layout",
                     HPDF_VERSION_TEXT, f->name, f->offset, f->size, f->was_offset,
                     f->was_size, f->why);
    }
}

/* ---- fonts ------------------------------------------------------------------ */

static HPDF_STATUS last_error;

static void record_error(HPDF_STATUS error_no, HPDF_STATUS detail_no, void *user)
{
    (void)detail_no;
    (void)user;
    if (!last_error)
        last_error = error_no;
}

/* The file at `path`, whole; the caller frees it. */
static unsigned char *slurp(const char *path, size_t *len)
{
    FILE *in = fopen(path, "rb");
    if (!in)
        return NULL;
    unsigned char *buf = malloc(4 << 20);
    *len = buf ? fread(buf, 1, 4 << 20, in) : 0;
    fclose(in);
    return buf;
}

/* After rc_hpdf_direct_cmap, libharu finds the same glyph for every code
 * point as its own search did. */
static void direct_cmap_keeps_every_glyph(void **state)
{
    (void)state;
    for (int r = 0; r < RC_FONT_COUNT; r++) {
        const char *path = rc_font_path((rc_font_role)r);
        FILE *probe = fopen(path, "rb");
        if (!probe)
            skip();
        fclose(probe);
        last_error = 0;
        HPDF_Doc hdoc = HPDF_New(record_error, NULL);
        assert_non_null(hdoc);
        const char *name = HPDF_LoadTTFontFromFile(hdoc, path, HPDF_TRUE);
        assert_non_null(name);
        HPDF_FontDef def = HPDF_GetFontDef(hdoc, name);
        assert_non_null(def);
        HPDF_UINT16 *before = malloc(0x10000 * sizeof *before);
        assert_non_null(before);
        for (unsigned u = 0; u <= 0xFFFF; u++)
            before[u] = HPDF_TTFontDef_GetGlyphid(def, (HPDF_UINT16)u);
        assert_true(rc_hpdf_direct_cmap(hdoc, name));
        assert_true(rc_hpdf_direct_cmap(hdoc, name)); /* already direct */
        for (unsigned u = 0; u <= 0xFFFF; u++)
            if (HPDF_TTFontDef_GetGlyphid(def, (HPDF_UINT16)u) != before[u])
                fail_msg("%s: U+%04X was glyph %u, now %u", path, u, before[u],
                         HPDF_TTFontDef_GetGlyphid(def, (HPDF_UINT16)u));
        assert_non_null(HPDF_GetFont(hdoc, name, NULL));
        assert_int_equal(last_error, 0);
        assert_false(rc_hpdf_direct_cmap(hdoc, "no such font"));
        free(before);
        HPDF_Free(hdoc);
    }
}

/* A font read from memory is the font read from its file, glyph names
 * left out; one whose licence forbids embedding is refused with libharu's
 * error, as from a file. */
static void fonts_load_from_memory(void **state)
{
    (void)state;
    const char *path = rc_font_path(RC_FONT_REGULAR);
    size_t len = 0;
    unsigned char *data = slurp(path, &len);
    if (!data || len < 1000) {
        free(data);
        skip();
    }
    last_error = 0;
    HPDF_Doc a = HPDF_New(record_error, NULL), b = HPDF_New(record_error, NULL);
    rc_hpdf_font_source src;
    const char *from_file = HPDF_LoadTTFontFromFile(a, path, HPDF_TRUE);
    const char *from_memory = rc_hpdf_load_ttf(b, &src, data, len);
    assert_non_null(from_file);
    assert_non_null(from_memory);
    assert_string_equal(from_file, from_memory);
    HPDF_FontDef fa = HPDF_GetFontDef(a, from_file), fb = HPDF_GetFontDef(b, from_memory);
    for (unsigned u = 0x20; u < 0x3000; u += 7)
        assert_int_equal(HPDF_TTFontDef_GetCharWidth(fa, (HPDF_UINT16)u),
                         HPDF_TTFontDef_GetCharWidth(fb, (HPDF_UINT16)u));
    HPDF_TTFontDefAttr attr = fb->attr;
    bool post = false;
    for (HPDF_UINT i = 0; i < attr->offset_tbl.num_tables; i++)
        if (memcmp(attr->offset_tbl.table[i].tag, "post", 4) == 0)
            post = attr->offset_tbl.table[i].length == 32;
    assert_true(post);
    /* Both make a document. */
    for (int k = 0; k < 2; k++) {
        HPDF_Doc d = k ? b : a;
        HPDF_UseUTFEncodings(d);
        HPDF_Font font = HPDF_GetFont(d, k ? from_memory : from_file, "UTF-8");
        assert_non_null(font);
        HPDF_Page page = HPDF_AddPage(d);
        HPDF_Page_BeginText(page);
        HPDF_Page_SetFontAndSize(page, font, 12);
        HPDF_Page_ShowText(page, "Roofline \xCE\xB1\xE2\x86\x92");
        HPDF_Page_EndText(page);
        assert_int_equal(HPDF_SaveToStream(d), HPDF_OK);
    }
    assert_int_equal(last_error, 0);
    HPDF_Free(a);
    HPDF_Free(b);

    /* OS/2 fsType 2: restricted licence embedding. */
    size_t n = (size_t)data[4] << 8 | data[5];
    for (size_t i = 0; i < n; i++) {
        const unsigned char *e = data + 12 + 16 * i;
        if (memcmp(e, "OS/2", 4) == 0) {
            size_t off = (size_t)e[8] << 24 | (size_t)e[9] << 16 | (size_t)e[10] << 8 | e[11];
            data[off + 8] = 0;
            data[off + 9] = 2;
        }
    }
    last_error = 0;
    HPDF_Doc c = HPDF_New(record_error, NULL);
    assert_null(rc_hpdf_load_ttf(c, &src, data, len));
    assert_int_equal(last_error, HPDF_TTF_CANNOT_EMBEDDING_FONT);
    HPDF_Free(c);
    free(data);
}

/* The (code, width) pairs of a CID font's /W array of runs "c [w1 w2 ...]",
 * as a width per code (-1: none) over the plane. */
static void read_w(HPDF_Array w, int *width)
{
    for (HPDF_UINT i = 0; i < 0x10000; i++)
        width[i] = -1;
    for (HPDF_UINT i = 0; i + 1 < w->list->count; i += 2) {
        HPDF_Number first = HPDF_Array_GetItem(w, i, HPDF_OCLASS_NUMBER);
        HPDF_Array run = HPDF_Array_GetItem(w, i + 1, HPDF_OCLASS_ARRAY);
        assert_non_null(first);
        assert_non_null(run);
        for (HPDF_UINT j = 0; j < run->list->count; j++) {
            HPDF_Number n = HPDF_Array_GetItem(run, j, HPDF_OCLASS_NUMBER);
            width[first->value + j] = n->value;
        }
    }
}

/* The CIDToGIDMap of font `f`, inflated: 2 bytes per code, big endian. */
static unsigned char *read_map(HPDF_Font f, size_t *len)
{
    HPDF_Stream s = ((HPDF_FontAttr)f->attr)->map_stream->stream;
    size_t packed_len = HPDF_Stream_Size(s);
    unsigned char *packed = malloc(packed_len), *map = malloc(0x20000);
    HPDF_UINT n = (HPDF_UINT)packed_len;
    assert_int_equal(HPDF_Stream_Seek(s, 0, HPDF_SEEK_SET), HPDF_OK);
    assert_int_equal(HPDF_Stream_Read(s, packed, &n), HPDF_OK);
    uLongf out = 0x20000;
    assert_int_equal(uncompress(map, &out, packed, (uLong)packed_len), Z_OK);
    *len = out;
    free(packed);
    return map;
}

/* A document that draws "Aé→" in the regular face: its /W and
 * CIDToGIDMap have those characters and printable ASCII (always embedded,
 * so that documents share their subset), with libharu's widths and
 * FreeType's glyphs, and a few more at most (characters drawn with a
 * glyph embedded, such as a part of é): not the 6,000 libharu lists. The
 * bold face, unused, has printable ASCII. */
static void fonts_cover_the_characters_used(void **state)
{
    (void)state;
    rc_fonts *fonts = rc_fonts_new(NULL);
    assert_non_null(fonts);
    pdf p;
    assert_true(pdf_open(&p, fonts, "t.pdf", NULL));
    p.page = pdf_new_page(&p);
    pdf_style st = {RC_FONT_REGULAR, 10, PDF_INK};
    static const char text[] = "A\xC3\xA9\xE2\x86\x92";
    pdf_text(&p, &st, 40, 100, text, strlen(text));
    size_t len = 0;
    char *file = pdf_save(&p, &len);
    assert_non_null(file);
    int *width = malloc(0x10000 * sizeof *width);
    for (int role = 0; role < RC_FONT_COUNT; role++) {
        HPDF_Font f = p.hf.font[role];
        HPDF_Dict cid = ((HPDF_FontAttr)f->attr)->descendant_font;
        read_w(HPDF_Dict_GetItem(cid, "W", HPDF_OCLASS_ARRAY), width);
        size_t map_len = 0;
        unsigned char *map = read_map(f, &map_len);
        unsigned long top = role == RC_FONT_REGULAR ? 0x2192 : 0x7E;
        assert_int_equal(map_len, 2 * (top + 1));
        size_t listed = 0;
        for (unsigned long c = 0; c < 0x10000; c++) {
            bool drawn = (c >= 0x20 && c < 0x7F) ||
                         (role == RC_FONT_REGULAR && (c == 0xE9 || c == 0x2192));
            unsigned glyph = c < map_len / 2 ? (unsigned)map[2 * c] << 8 | map[2 * c + 1] : 0;
            unsigned want_glyph = rc_fonts_glyph(fonts, (rc_font_role)role, c).glyph;
            int want = HPDF_TTFontDef_GetCharWidth(p.def[role], (HPDF_UINT16)c);
            if (drawn)
                assert_int_equal(glyph, want_glyph);
            else
                assert_true(glyph == 0 || glyph == want_glyph);
            if (glyph == 0) /* not listed: no width either */
                assert_int_equal(width[c], -1);
            else
                assert_int_equal(width[c], want == p.def[role]->missing_width ? -1 : want);
            listed += glyph != 0;
        }
        assert_in_range(listed, role == RC_FONT_REGULAR ? 97 : 95, 110);
        free(map);
    }
    free(width);
    free(file);
    pdf_close(&p);
    rc_fonts_free(fonts);
}


/* Widths libharu measures are rc_hpdf_char_width's, and measuring marks
 * the glyph used, as rc_hpdf_glyphs_used and rc_hpdf_mark_glyph see it. */
static void widths_and_glyph_flags(void **state)
{
    (void)state;
    rc_fonts *fonts = rc_fonts_new(NULL);
    assert_non_null(fonts);
    pdf p;
    assert_true(pdf_open(&p, fonts, "t.pdf", NULL));
    HPDF_FontDef def = p.def[RC_FONT_REGULAR];
    unsigned q = rc_fonts_glyph(fonts, RC_FONT_REGULAR, 'q').glyph;
    unsigned z = rc_fonts_glyph(fonts, RC_FONT_REGULAR, 0x2211).glyph; /* N-ARY SUMMATION */
    assert_true(q != 0 && z != 0);
    HPDF_TextWidth tw = HPDF_Font_TextWidth(p.hf.font[RC_FONT_REGULAR], (const HPDF_BYTE *)"q", 1);
    assert_int_equal(rc_hpdf_char_width(def, 'q'), (int)tw.width);
    size_t n = 0;
    uint16_t *used = rc_hpdf_glyphs_used(def, &n);
    assert_non_null(used);
    bool has_q = false, has_z = false;
    for (size_t i = 0; i < n; i++) {
        has_q |= used[i] == q;
        has_z |= used[i] == z;
    }
    free(used);
    if (!has_q || has_z)
        fail_msg("measuring 'q' did not mark its glyph %u alone as used (glyph_tbl.flgs): "
                 "the glyphs a page was drawn with would be missing from summary.pdf", q);
    rc_hpdf_mark_glyph(def, z);
    rc_hpdf_mark_glyph(def, 0xFFFF); /* beyond the font: ignored */
    used = rc_hpdf_glyphs_used(def, &n);
    has_z = false;
    for (size_t i = 0; i < n; i++)
        has_z |= used[i] == z;
    free(used);
    assert_true(has_z);
    pdf_close(&p);
    rc_fonts_free(fonts);
}

/* ---- documents -------------------------------------------------------------- */

static void *handled_by;

static void note_user(HPDF_STATUS error_no, HPDF_STATUS detail_no, void *user)
{
    (void)error_no;
    (void)detail_no;
    handled_by = user;
}

/* A document kept for the next PDF reports its errors to its new owner. */
static void error_data_moves(void **state)
{
    (void)state;
    int first = 0, second = 0;
    HPDF_Doc d = HPDF_New(note_user, &first);
    assert_non_null(d);
    rc_hpdf_set_error_data(d, &second);
    handled_by = NULL;
    assert_null(HPDF_GetFont(d, "no such font", NULL));
    if (handled_by != &second)
        fail_msg("after rc_hpdf_set_error_data, libharu's error handler was called with %s: "
                 "HPDF_Doc's error.user_data is no longer what the handler is given",
                 handled_by == &first ? "HPDF_New's data" : "other data");
    HPDF_Free(d);
}

/* A one-page document with a line. */
static HPDF_Doc small_doc(void)
{
    HPDF_Doc d = HPDF_New(record_error, NULL);
    assert_non_null(d);
    HPDF_SetCompressionMode(d, HPDF_COMP_ALL);
    HPDF_Page page = HPDF_AddPage(d);
    HPDF_Page_MoveTo(page, 10, 10);
    HPDF_Page_LineTo(page, 100, 200);
    HPDF_Page_Stroke(page);
    return d;
}

static void put_in(void *ctx, const void *data, size_t len) { rc_buffer_put(ctx, data, len); }

/* Saved through a callback, a document is what HPDF_SaveToStream saves. */
static void save_to_writes_what_libharu_saves(void **state)
{
    (void)state;
    last_error = 0;
    HPDF_Doc a = small_doc(), b = small_doc();
    rc_buffer got = {0};
    assert_int_equal(rc_hpdf_save_to(a, put_in, &got), 1);
    assert_int_equal(HPDF_GetStreamSize(a), 0); /* the document's own stream is left alone */
    assert_int_equal(HPDF_SaveToStream(b), HPDF_OK);
    HPDF_UINT32 size = HPDF_GetStreamSize(b), n = size;
    unsigned char *want = malloc(size);
    assert_non_null(want);
    HPDF_ReadFromStream(b, want, &n);
    assert_int_equal(n, size);
    if (got.len != size || memcmp(got.data, want, size) != 0)
        fail_msg("rc_hpdf_save_to wrote %zu bytes, HPDF_SaveToStream %u: saving no longer "
                 "writes to HPDF_Doc's stream alone",
                 got.len, (unsigned)size);
    assert_int_equal(last_error, 0);
    free(want);
    free(got.data);
    HPDF_Free(a);
    HPDF_Free(b);
}

/* ---- pages ------------------------------------------------------------------ */

/* A PDF's streams: each stream's dictionary, and its data inflated when it
 * inflates. */
typedef struct {
    const char *dict; /* from the object's start to "stream" */
    size_t dict_len;
    unsigned char *data; /* NULL: not deflated */
    size_t len;
} pdf_stream;

/* The streams of file[0..len), at most cap; returns how many. */
static size_t read_streams(const char *file, size_t len, pdf_stream *out, size_t cap)
{
    static const char begin[] = "stream\r\n", end[] = "endstream";
    size_t n = 0, obj = 0;
    for (size_t i = 0; i + sizeof begin - 1 <= len && n < cap; i++) {
        if (i + 4 <= len && memcmp(file + i, " obj", 4) == 0)
            obj = i;
        if (memcmp(file + i, begin, sizeof begin - 1) != 0 || (i > 0 && file[i - 1] == 'd'))
            continue;
        size_t from = i + sizeof begin - 1, to = from;
        while (to + sizeof end - 1 <= len && memcmp(file + to, end, sizeof end - 1) != 0)
            to++;
        uLongf out_len = 4 << 20;
        unsigned char *data = malloc(out_len);
        assert_non_null(data);
        if (uncompress(data, &out_len, (const unsigned char *)file + from, (uLong)(to - from)) !=
            Z_OK) {
            free(data);
            data = NULL;
            out_len = 0;
        }
        out[n++] = (pdf_stream){file + obj, i - obj, data, out_len};
        i = to;
    }
    return n;
}

static size_t count_in(const void *hay, size_t len, const char *needle)
{
    size_t k = strlen(needle), n = 0;
    for (size_t i = 0; i + k <= len; i++)
        n += memcmp((const char *)hay + i, needle, k) == 0;
    return n;
}

/* A page drawn and sealed into a spill file, and its operators moved into
 * two more pages (one held in memory, one sealed): the saved PDF has the
 * text drawn on each of the three, in content streams deflated at the
 * layout's level and marked /FlateDecode, the footer drawn after sealing
 * in a stream of its own, the fonts in the order the page used them, a
 * ToUnicode CMap of bfranges and the glyph subsets. */
static void patched_pages_hold_their_operators(void **state)
{
    (void)state;
    rc_fonts *fonts = rc_fonts_new(NULL);
    assert_non_null(fonts);
    pdf p;
    assert_true(pdf_open(&p, fonts, "t.pdf", NULL));
    FILE *spill = tmpfile();
    assert_non_null(spill);
    p.page = pdf_new_page(&p);
    pdf_style bold = {RC_FONT_BOLD, 10, PDF_INK}, regular = {RC_FONT_REGULAR, 10, PDF_INK};
    pdf_text(&p, &bold, 40, 100, "Sealed", 6);
    pdf_text(&p, &regular, 40, 120, "page", 4);
    uint8_t roles[4];
    assert_int_equal(pdf_page_fonts(&p, p.page, roles, 4), 2);
    assert_int_equal(roles[0], RC_FONT_BOLD);
    assert_int_equal(roles[1], RC_FONT_REGULAR);
    size_t plen = 0;
    unsigned char *packed = pdf_page_packed(p.page, &plen);
    assert_non_null(packed);
    pdf_seal_page(spill, p.page);
    if (ftell(spill) != (long)plen)
        fail_msg("the sealed page's operators are not in the spill file (%ld bytes, %zu "
                 "expected): the page's content stream was not read",
                 ftell(spill), plen);
    pdf_text(&p, &regular, 40, 800, "footer", 6);
    assert_true(pdf_add_packed_page(&p, packed, plen, roles, 2)); /* held in memory */
    p.spill = spill;
    assert_true(pdf_add_packed_page(&p, packed, plen, roles, 2)); /* sealed */
    assert_int_equal(p.npages, 3);
    size_t len = 0;
    char *file = pdf_save(&p, &len);
    assert_non_null(file);

    pdf_stream s[64];
    size_t ns = read_streams(file, len, s, 64);
    size_t sealed = 0, footer = 0, bfrange = 0, cidrange = 0;
    for (size_t i = 0; i < ns; i++) {
        if (s[i].data && count_in(s[i].dict, s[i].dict_len, "/Filter /FlateDecode") != 1)
            fail_msg("a deflated stream has no /Filter /FlateDecode in its dictionary: "
                     "libharu no longer writes a stream's dictionary through write_fn");
        if (!s[i].data)
            continue;
        /* libharu shows text in a CID font as its codes, 2 bytes each, in hex. */
        sealed += count_in(s[i].data, s[i].len, "<005300650061006C00650064> Tj");
        footer += count_in(s[i].data, s[i].len, "<0066006F006F007400650072> Tj");
        bfrange += count_in(s[i].data, s[i].len, "beginbfrange");
        cidrange += count_in(s[i].data, s[i].len, "begincidrange");
    }
    if (sealed != 3)
        fail_msg("the text drawn is on %zu pages, not 3: pages' operators were lost on the way "
                 "through rc_hpdf_page_operators, _put_packed or _seal", sealed);
    assert_int_equal(footer, 1);
    if (bfrange == 0 || cidrange != 0)
        fail_msg("ToUnicode has %zu bfranges and %zu cidranges: rc_hpdf_finish_font no longer "
                 "replaces libharu's encoding CMap", bfrange, cidrange);
    assert_int_equal(count_in(file, len, "/FontFile2"), 2);
    assert_int_equal(count_in(file, len, "/Length1 "), 2);
    assert_int_equal(count_in(file, len, "/CIDToGIDMap"), 2);
    for (size_t i = 0; i < ns; i++)
        free(s[i].data);
    free(file);
    free(packed);
    fclose(spill);
    pdf_close(&p);
    rc_fonts_free(fonts);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(library_is_the_headers_version),
        cmocka_unit_test(structures_are_as_recorded),
        cmocka_unit_test(direct_cmap_keeps_every_glyph),
        cmocka_unit_test(fonts_load_from_memory),
        cmocka_unit_test(fonts_cover_the_characters_used),
        cmocka_unit_test(widths_and_glyph_flags),
        cmocka_unit_test(error_data_moves),
        cmocka_unit_test(save_to_writes_what_libharu_saves),
        cmocka_unit_test(patched_pages_hold_their_operators),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
