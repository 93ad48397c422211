/* hpdf_internal.c: the one file of src/ that reaches into libharu's
 * structures (its internal headers below, installed with libhpdf-dev), for
 * what its public API (hpdf.h) lacks. Each patch, and what it stands in
 * for:
 *
 * - Fonts from memory (rc_hpdf_load_ttf): libharu 2.3 loads a TrueType
 *   font only from a file, read a few bytes per library call. This runs
 *   HPDF_LoadTTFontFromFile's own steps (HPDF_TTFontDef_Load,
 *   HPDF_Doc_RegisterFontDef, the document's subset tag) over a callback
 *   stream, and shortens the 'post' table in the font's table directory.
 * - Direct glyph lookups (rc_hpdf_direct_cmap): there is no way to change
 *   how a font finds a character's glyph, a linear search through the
 *   parsed cmap; this rewrites the parsed cmap (HPDF_TTFontDefAttr) as one
 *   segment that indexes every code point.
 * - A font without its tables for every code (rc_hpdf_get_font): HPDF_GetFont
 *   builds /W and CIDToGIDMap for all 65,536 codes through the encoder; for
 *   the call the UTF-8 encoder's CMap (HPDF_CMapEncoderAttr) maps one code.
 * - A font finished for what the document uses (rc_hpdf_finish_font):
 *   libharu writes /W, CIDToGIDMap and the font program for every code, and
 *   an encoding CMap as ToUnicode; nothing in hpdf.h sets them. This fills
 *   the font's dictionaries and streams (HPDF_FontAttr) before saving, and
 *   the font descriptor libharu would otherwise make from its glyph flags.
 * - Widths and glyph flags (rc_hpdf_char_width, rc_hpdf_glyphs_used,
 *   rc_hpdf_mark_glyph): hpdf.h measures whole strings only, decoding and
 *   looking up each character anew, and has no way to read or set which
 *   glyphs a document embeds (the pages moved from a kernel's PDF into
 *   summary.pdf need the glyphs they were drawn with).
 * - The error handler's data (rc_hpdf_set_error_data): HPDF_New takes it
 *   once; a document kept for the next PDF has a new owner. And the error
 *   codes (rc_hpdf_error_text) are in hpdf_error.h, which declares the
 *   error's structure too, so they come with the structures.
 * - Saving through a callback (rc_hpdf_save_to): HPDF_SaveToStream saves
 *   into the document's memory stream, whole; a callback writer stands in
 *   for that stream during the call.
 * - Pages' operators (rc_hpdf_page_*): hpdf.h can neither read a page's
 *   content stream nor replace it, nor list the fonts a page uses: pages
 *   are deflated at a level of their own, moved out of memory into a spill
 *   file once drawn, and moved from one document into another.
 *
 * These rely on libharu 2.3's structures and functions: CMakeLists.txt
 * accepts only the versions they were checked against, and
 * tests/unit/test_hpdf_internal.c fails, saying what changed, when what
 * they rely on does. */
#include "paint/hpdf_internal.h"

#include <stdlib.h>
#include <string.h>

#include <hpdf_doc.h>
#include <hpdf_encoder.h>
#include <hpdf_font.h>
#include <hpdf_fontdef.h>
#include <hpdf_mmgr.h>
#include <hpdf_pages.h>
#include <hpdf_streams.h>
#include <zlib.h>

#include "util/buffer.h"

/* ---- fonts from memory --------------------------------------------------- */

static uint32_t be32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Reads like libharu's file reader: zeros past the end, HPDF_STREAM_EOF on
 * a short read. The 'post' table reads as format 3. */
static HPDF_STATUS source_read(HPDF_Stream stream, HPDF_BYTE *ptr, HPDF_UINT *siz)
{
    rc_hpdf_font_source *s = stream->attr;
    size_t want = *siz, have = s->pos < s->len ? s->len - s->pos : 0;
    size_t n = want < have ? want : have;
    memcpy(ptr, s->data + s->pos, n);
    memset(ptr + n, 0, want - n);
    static const unsigned char format3[4] = {0, 3, 0, 0};
    for (size_t k = 0; k < 4 && s->post != (size_t)-1; k++)
        if (s->post + k >= s->pos && s->post + k < s->pos + n)
            ptr[s->post + k - s->pos] = format3[k];
    s->pos += n;
    *siz = (HPDF_UINT)n;
    return n < want ? HPDF_STREAM_EOF : HPDF_OK;
}

/* Where a seek by `pos` from `mode` lands in a stream `len` bytes long that
 * stands at `cur`; the callback readers' seeks check it against their bounds. */
static long long seek_target(HPDF_INT pos, HPDF_WhenceMode mode, size_t cur, size_t len)
{
    long long base = mode == HPDF_SEEK_CUR ? (long long)cur
                   : mode == HPDF_SEEK_END ? (long long)len : 0;
    return base + pos;
}

static HPDF_STATUS source_seek(HPDF_Stream stream, HPDF_INT pos, HPDF_WhenceMode mode)
{
    rc_hpdf_font_source *s = stream->attr;
    long long to = seek_target(pos, mode, s->pos, s->len);
    if (to < 0)
        return HPDF_SetError(stream->error, HPDF_FILE_IO_ERROR, 0);
    s->pos = (size_t)to;
    return HPDF_OK;
}

static HPDF_INT32 source_tell(HPDF_Stream stream)
{
    return (HPDF_INT32)((rc_hpdf_font_source *)stream->attr)->pos;
}

static HPDF_UINT32 source_size(HPDF_Stream stream)
{
    return (HPDF_UINT32)((rc_hpdf_font_source *)stream->attr)->len;
}

/* The offset of table `tag` in the TrueType data, and its length. */
static bool find_table(const unsigned char *data, size_t len, const char *tag, size_t *off,
                       size_t *tlen)
{
    if (len < 12)
        return false;
    size_t n = (size_t)data[4] << 8 | data[5];
    for (size_t i = 0; i < n && 12 + 16 * (i + 1) <= len; i++) {
        const unsigned char *e = data + 12 + 16 * i;
        if (memcmp(e, tag, 4) == 0) {
            *off = be32(e + 8);
            *tlen = be32(e + 12);
            return *off <= len && *tlen <= len - *off;
        }
    }
    return false;
}

const char *rc_hpdf_load_ttf(HPDF_Doc pdf, rc_hpdf_font_source *src, const unsigned char *data,
                             size_t len)
{
    size_t post = 0, post_len = 0;
    bool strip = find_table(data, len, "post", &post, &post_len) && post_len > 32 &&
                 be32(data + post) == 0x00020000; /* glyph names, format 2 */
    *src = (rc_hpdf_font_source){data, len, 0, strip ? post : (size_t)-1};
    HPDF_Stream stream = HPDF_CallbackReader_New(pdf->mmgr, source_read, source_seek, source_tell,
                                                 source_size, src);
    /* As HPDF_LoadTTFontFromFile, from its stream on. */
    HPDF_FontDef def = stream ? HPDF_TTFontDef_Load(pdf->mmgr, stream, HPDF_TRUE) : NULL;
    if (def && HPDF_Doc_RegisterFontDef(pdf, def) != HPDF_OK) {
        HPDF_FontDef_Free(def);
        def = NULL;
    }
    if (!def) {
        HPDF_CheckError(&pdf->error);
        return NULL;
    }
    if (pdf->ttfont_tag[0] == 0) {
        memcpy(pdf->ttfont_tag, "HPDFAA", 6);
    } else {
        for (int i = 5; i >= 0; i--) {
            if (++pdf->ttfont_tag[i] <= 'Z')
                break;
            pdf->ttfont_tag[i] = 'A';
        }
    }
    char tag[7];
    memcpy(tag, pdf->ttfont_tag, 6);
    tag[6] = '\0';
    HPDF_TTFontDef_SetTagName(def, tag);
    /* The glyph names stay out of the embedded font: its 'post' table is
     * copied as its header only, which reads as format 3. */
    HPDF_TTFontDefAttr attr = def->attr;
    for (HPDF_UINT i = 0; strip && i < attr->offset_tbl.num_tables; i++)
        if (memcmp(attr->offset_tbl.table[i].tag, "post", 4) == 0)
            attr->offset_tbl.table[i].length = 32;
    return def->base_font;
}

/* ---- direct glyph lookups ------------------------------------------------ */

/* The glyph libharu 2.3's HPDF_TTFontDef_GetGlyphid finds for code point
 * u in a format 4 cmap of `seg` segments, found to be segment i: the same
 * arithmetic, on the same types. 0 when u is in no segment or the glyph
 * array is too short. */
static HPDF_UINT16 segment_glyph(const HPDF_TTF_CmapRange *cm, HPDF_UINT seg, HPDF_UINT i,
                                 HPDF_UINT16 u)
{
    if (cm->start_count[i] > u)
        return 0;
    if (cm->id_range_offset[i] == 0)
        return (HPDF_UINT16)(u + cm->id_delta[i]);
    HPDF_UINT idx = cm->id_range_offset[i] / 2u + (HPDF_UINT)(u - cm->start_count[i]) + i - seg;
    if (idx >= cm->glyph_id_array_count) /* libharu reads one past the end at == */
        return 0;
    return (HPDF_UINT16)(cm->glyph_id_array[idx] + cm->id_delta[i]);
}

bool rc_hpdf_direct_cmap(HPDF_Doc pdf, const char *name)
{
    HPDF_FontDef def = name ? HPDF_GetFontDef(pdf, name) : NULL;
    if (!def || def->type != HPDF_FONTDEF_TYPE_TRUETYPE || !def->attr)
        return false;
    HPDF_TTF_CmapRange *cm = &((HPDF_TTFontDefAttr)def->attr)->cmap;
    HPDF_UINT seg = cm->seg_count_x2 / 2u;
    if (cm->format != 4 || seg == 0 || !cm->end_count || !cm->start_count || !cm->id_delta ||
        !cm->id_range_offset || cm->end_count[seg - 1] != 0xFFFF)
        return false;
    for (HPDF_UINT i = 1; i < seg; i++) /* the search takes the first segment ending at or after u */
        if (cm->end_count[i] < cm->end_count[i - 1])
            return false;
    if (seg == 1 && cm->start_count[0] == 0 && cm->id_range_offset[0] == 2 &&
        cm->id_delta[0] == 0 && cm->glyph_id_array_count >= 0x10000)
        return true; /* already direct */

    /* One segment 0..0xFFFF with id_range_offset 2: index = 2 / 2 + u - 0 + 0 - 1 = u. */
    HPDF_UINT16 *end = HPDF_GetMem(def->mmgr, sizeof *end);
    HPDF_UINT16 *start = HPDF_GetMem(def->mmgr, sizeof *start);
    HPDF_INT16 *delta = HPDF_GetMem(def->mmgr, sizeof *delta);
    HPDF_UINT16 *range = HPDF_GetMem(def->mmgr, sizeof *range);
    HPDF_UINT16 *glyphs = HPDF_GetMem(def->mmgr, 0x10000 * sizeof *glyphs);
    if (!end || !start || !delta || !range || !glyphs) {
        HPDF_UINT16 *v[] = {end, start, (HPDF_UINT16 *)delta, range, glyphs};
        for (size_t k = 0; k < sizeof v / sizeof v[0]; k++)
            if (v[k])
                HPDF_FreeMem(def->mmgr, v[k]);
        return false;
    }
    HPDF_UINT i = 0;
    for (HPDF_UINT u = 0; u <= 0xFFFF; u++) {
        while (cm->end_count[i] < u) /* ends at segment seg - 1, which ends at 0xFFFF */
            i++;
        glyphs[u] = segment_glyph(cm, seg, i, (HPDF_UINT16)u);
    }
    HPDF_FreeMem(def->mmgr, cm->end_count);
    HPDF_FreeMem(def->mmgr, cm->start_count);
    HPDF_FreeMem(def->mmgr, cm->id_delta);
    HPDF_FreeMem(def->mmgr, cm->id_range_offset);
    if (cm->glyph_id_array)
        HPDF_FreeMem(def->mmgr, cm->glyph_id_array);
    *end = 0xFFFF;
    *start = 0;
    *delta = 0;
    *range = 2;
    cm->end_count = end;
    cm->start_count = start;
    cm->id_delta = delta;
    cm->id_range_offset = range;
    cm->glyph_id_array = glyphs;
    cm->glyph_id_array_count = 0x10000;
    cm->seg_count_x2 = 2;
    return true;
}

/* ---- a font without its tables for every code ----------------------------- */

HPDF_Font rc_hpdf_get_font(HPDF_Doc pdf, const char *name)
{
    HPDF_Encoder enc = HPDF_GetEncoder(pdf, "UTF-8");
    if (!enc || enc->type != HPDF_ENCODER_TYPE_DOUBLE_BYTE || !enc->attr)
        return NULL;
    HPDF_CMapEncoderAttr ea = enc->attr;
    HPDF_UINT16(*kept)[256] = malloc(sizeof ea->cid_map);
    if (!kept)
        return NULL;
    memcpy(kept, ea->cid_map, sizeof ea->cid_map);
    HPDF_Encoder_ToUnicode_Func to_unicode = enc->to_unicode_fn;
    /* CIDFontType2_New reads every entry of cid_map when the encoder's
     * to_unicode_fn is HPDF_CMapEncoder_ToUnicode, else it asks for all
     * 65,536 codes. One CID (1) makes its loops end at once. */
    memset(ea->cid_map, 0, sizeof ea->cid_map);
    ea->cid_map[1][0] = 1;
    enc->to_unicode_fn = HPDF_CMapEncoder_ToUnicode;
    HPDF_Font font = HPDF_GetFont(pdf, name, "UTF-8");
    enc->to_unicode_fn = to_unicode;
    memcpy(ea->cid_map, kept, sizeof ea->cid_map);
    free(kept);
    return font;
}

/* ---- a font finished for saving ----------------------------------------- */

/* Subsets kept per font: a run's documents mostly use one or two. */
enum { KEPT_PROGRAMS = 4 };

/* One embedded subset: the glyphs it has (libharu's glyph flags, one byte
 * per glyph), deflated, and its length before; and the CIDToGIDMap of the
 * characters it has, deflated. */
typedef struct {
    unsigned char *flags, *packed, *map;
    size_t len, map_len;
    HPDF_UINT32 length1;
} kept_program;

struct rc_hpdf_font_memo {
    HPDF_UINT16 *code, *glyph; /* each character the cmap maps to a glyph, ascending */
    size_t ncodes;
    unsigned char *to_unicode; /* the ToUnicode CMap, deflated */
    size_t to_unicode_len;
    kept_program program[KEPT_PROGRAMS]; /* the most recently used first */
    size_t nprograms;
};

static void free_program(kept_program *k)
{
    free(k->flags);
    free(k->packed);
    free(k->map);
}

void rc_hpdf_font_memo_free(rc_hpdf_font_memo *m)
{
    if (!m)
        return;
    free(m->code);
    free(m->glyph);
    free(m->to_unicode);
    for (size_t i = 0; i < m->nprograms; i++)
        free_program(&m->program[i]);
    free(m);
}

/* data[0..len) deflated at `level`: a new buffer of *packed_len bytes, or
 * NULL when out of memory. */
static unsigned char *deflated(const void *data, size_t len, int level, size_t *packed_len)
{
    uLongf n = compressBound((uLong)len);
    unsigned char *out = malloc(n);
    if (out && compress2(out, &n, data, (uLong)len, level) != Z_OK) {
        free(out);
        out = NULL;
    }
    *packed_len = n;
    return out;
}

/* libharu writes a stream whose filter is NONE as it is and leaves out
 * its /Filter: this puts the filter back for data deflated already. */
static HPDF_STATUS write_flate_filter(HPDF_Dict dict, HPDF_Stream stream)
{
    (void)dict;
    return HPDF_Stream_WriteStr(stream, "/Filter /FlateDecode\012");
}

/* Makes packed[0..len), deflated already, the data of stream `dict`. */
static bool put_packed(HPDF_Dict dict, const unsigned char *packed, size_t len)
{
    HPDF_MemStream_FreeData(dict->stream);
    dict->filter = HPDF_STREAM_FILTER_NONE;
    dict->write_fn = write_flate_filter;
    return HPDF_Stream_Write(dict->stream, packed, (HPDF_UINT)len) == HPDF_OK;
}

/* The whole of a memory stream, malloc'd, or NULL when out of memory. */
static unsigned char *stream_bytes(HPDF_Stream stream, size_t *len)
{
    HPDF_UINT32 size = HPDF_Stream_Size(stream);
    unsigned char *data = malloc(size ? size : 1);
    HPDF_UINT n = size;
    if (!data || HPDF_Stream_Seek(stream, 0, HPDF_SEEK_SET) != HPDF_OK ||
        (size > 0 && HPDF_Stream_Read(stream, data, &n) > HPDF_STREAM_EOF) || n != size) {
        free(data);
        return NULL;
    }
    *len = size;
    return data;
}

/* A ToUnicode CMap for a font whose codes are the characters of the Basic
 * Multilingual Plane themselves (libharu's UTF-8 encoder: two bytes, big
 * endian, code = CID = code point). A bfrange may vary only its last byte,
 * so the plane is 256 ranges of 256 codes, less the surrogates (D800-DFFF),
 * which stand for no character; at most 100 ranges per block. */
static void identity_to_unicode(rc_buffer *b)
{
    enum { SURROGATES = 0xD8, SURROGATES_END = 0xE0, PER_BLOCK = 100 };
    rc_buffer_puts(b, "/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n"
                      "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n"
                      "/CMapName /Adobe-Identity-UCS def\n/CMapType 2 def\n"
                      "1 begincodespacerange\n<0000> <FFFF>\nendcodespacerange\n");
    unsigned hi = 0;
    while (hi < 256) {
        unsigned n = 0, end = hi;
        for (; end < 256 && n < PER_BLOCK; end++)
            n += !(end >= SURROGATES && end < SURROGATES_END);
        rc_buffer_printf(b, "%u beginbfrange\n", n);
        for (; hi < end; hi++)
            if (hi < SURROGATES || hi >= SURROGATES_END)
                rc_buffer_printf(b, "<%02X00> <%02XFF> <%02X00>\n", hi, hi, hi);
        rc_buffer_puts(b, "endbfrange\n");
    }
    rc_buffer_puts(b, "endcmap\nCMapName currentdict /CMap defineresource pop\nend\nend\n");
}

/* The characters below U+FFFF that the font maps to a glyph: the codes
 * libharu's width and glyph tables cover. */
static bool list_codes(HPDF_FontDef def, rc_hpdf_font_memo *m)
{
    size_t n = 0;
    for (HPDF_UINT u = 0; u < 0xFFFF; u++)
        n += HPDF_TTFontDef_GetGlyphid(def, (HPDF_UINT16)u) != 0;
    m->code = malloc((n ? n : 1) * sizeof *m->code);
    m->glyph = malloc((n ? n : 1) * sizeof *m->glyph);
    if (!m->code || !m->glyph)
        return false;
    for (HPDF_UINT u = 0; u < 0xFFFF; u++) {
        HPDF_UINT16 g = HPDF_TTFontDef_GetGlyphid(def, (HPDF_UINT16)u);
        if (g != 0) {
            m->code[m->ncodes] = (HPDF_UINT16)u;
            m->glyph[m->ncodes++] = g;
        }
    }
    return true;
}

static rc_hpdf_font_memo *memo_new(HPDF_FontDef def)
{
    rc_hpdf_font_memo *m = calloc(1, sizeof *m);
    rc_buffer b = {0};
    if (m)
        identity_to_unicode(&b);
    if (!m || b.failed || !list_codes(def, m) ||
        !(m->to_unicode = deflated(b.data, b.len, Z_BEST_COMPRESSION, &m->to_unicode_len))) {
        rc_hpdf_font_memo_free(m);
        m = NULL;
    }
    free(b.data);
    return m;
}

/* The ToUnicode stream: the identity CMap in place of libharu's. */
static bool finish_to_unicode(HPDF_Dict cmap, const rc_hpdf_font_memo *m)
{
    /* The entries of a CMap used as an encoding, which a ToUnicode stream
     * has none of. */
    static const char *const keys[] = {"Type", "CMapName", "CIDSystemInfo", "WMode", "UseCMap"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        HPDF_Dict_RemoveElement(cmap, keys[i]); /* not found: nothing to do */
    return put_packed(cmap, m->to_unicode, m->to_unicode_len);
}

/* The glyph of the memo's i-th character when the document embeds it,
 * else 0. */
static HPDF_UINT16 used_glyph(const rc_hpdf_font_memo *m, HPDF_TTFontDefAttr tt, size_t i)
{
    HPDF_UINT16 g = m->glyph[i];
    return g < tt->num_glyphs && tt->glyph_tbl.flgs[g] ? g : 0;
}

/* /W as libharu makes it (runs of consecutive codes whose width is not
 * /DW), over the characters used only. */
static bool finish_widths(HPDF_FontAttr attr, const rc_hpdf_font_memo *m)
{
    HPDF_FontDef def = attr->fontdef;
    HPDF_Dict cid_font = attr->descendant_font;
    HPDF_Array w = HPDF_Array_New(cid_font->mmgr), run = NULL;
    if (!w || HPDF_Dict_Add(cid_font, "W", w) != HPDF_OK)
        return false;
    HPDF_UINT next = 0; /* the code after the run's last */
    bool ok = true;
    for (size_t i = 0; ok && i < m->ncodes; i++) {
        HPDF_UINT16 g = used_glyph(m, def->attr, i);
        HPDF_INT16 width = g ? HPDF_TTFontDef_GetGidWidth(def, g) : def->missing_width;
        if (!g || width == def->missing_width) {
            run = NULL;
            continue;
        }
        if (!run || m->code[i] != next) {
            run = HPDF_Array_New(cid_font->mmgr);
            ok = run && HPDF_Array_AddNumber(w, m->code[i]) == HPDF_OK &&
                 HPDF_Array_Add(w, run) == HPDF_OK;
        }
        ok = ok && HPDF_Array_AddNumber(run, width) == HPDF_OK;
        next = m->code[i] + 1u;
    }
    return ok;
}

/* The CIDToGIDMap up to the highest character used, deflated; 0 (no
 * glyph) for codes not used. NULL when out of memory. */
static unsigned char *packed_glyph_map(HPDF_FontDef def, const rc_hpdf_font_memo *m, size_t *len)
{
    HPDF_TTFontDefAttr tt = def->attr;
    size_t top = 0;
    for (size_t i = 0; i < m->ncodes; i++)
        if (used_glyph(m, tt, i))
            top = m->code[i] + 1u;
    unsigned char *map = calloc(2 * top + 1, 1);
    for (size_t i = 0; map && i < m->ncodes && m->code[i] < top; i++) {
        HPDF_UINT16 g = used_glyph(m, tt, i);
        map[2 * m->code[i]] = (unsigned char)(g >> 8);
        map[2 * m->code[i] + 1] = (unsigned char)g;
    }
    unsigned char *packed = map ? deflated(map, 2 * top, Z_DEFAULT_COMPRESSION, len) : NULL;
    free(map);
    return packed;
}

/* Makes the subset of the glyphs the document uses as libharu embeds it
 * (HPDF_TTFontDef_SaveFontData), deflated, and its CIDToGIDMap. */
static bool make_program(HPDF_FontDef def, const rc_hpdf_font_memo *m, kept_program *k)
{
    HPDF_TTFontDefAttr tt = def->attr;
    HPDF_Stream s = HPDF_MemStream_New(def->mmgr, 64 * 1024);
    size_t len = 0;
    unsigned char *raw = NULL;
    *k = (kept_program){0};
    if (s && HPDF_TTFontDef_SaveFontData(def, s) == HPDF_OK)
        raw = stream_bytes(s, &len);
    if (raw) {
        k->packed = deflated(raw, len, Z_DEFAULT_COMPRESSION, &k->len);
        k->flags = malloc(tt->num_glyphs);
        k->length1 = tt->length1;
        k->map = packed_glyph_map(def, m, &k->map_len);
    }
    if (k->flags)
        memcpy(k->flags, tt->glyph_tbl.flgs, tt->num_glyphs);
    if (s)
        HPDF_Stream_Free(s);
    free(raw);
    if (!k->packed || !k->flags || !k->map) {
        free_program(k);
        return false;
    }
    return true;
}

/* The subset for the glyphs flagged now: kept, or made and kept. */
static const kept_program *program_for(HPDF_FontDef def, rc_hpdf_font_memo *m)
{
    HPDF_TTFontDefAttr tt = def->attr;
    size_t at = 0;
    while (at < m->nprograms && memcmp(m->program[at].flags, tt->glyph_tbl.flgs, tt->num_glyphs))
        at++;
    kept_program k;
    if (at < m->nprograms) {
        k = m->program[at];
    } else {
        if (!make_program(def, m, &k))
            return NULL;
        if (m->nprograms == KEPT_PROGRAMS)
            free_program(&m->program[--at]);
        else
            m->nprograms++;
    }
    memmove(m->program + 1, m->program, at * sizeof *m->program);
    m->program[0] = k;
    return &m->program[0];
}

/* The font descriptor with the embedded subset k, as libharu makes it when
 * saving (CIDFontType2_BeforeWrite_Func, which keeps one set here). */
static bool finish_descriptor(HPDF_FontAttr attr, const kept_program *k)
{
    HPDF_FontDef def = attr->fontdef;
    HPDF_TTFontDefAttr tt = def->attr;
    HPDF_MMgr mmgr = attr->descendant_font->mmgr;
    HPDF_Dict descriptor = HPDF_Dict_New(mmgr);
    HPDF_Dict data = descriptor ? HPDF_DictStream_New(mmgr, attr->xref) : NULL;
    if (!data) {
        if (descriptor)
            HPDF_Dict_Free(descriptor);
        return false;
    }
    HPDF_STATUS ret = put_packed(data, k->packed, k->len) ? HPDF_OK : HPDF_FAILD_TO_ALLOC_MEM;
    ret += HPDF_Dict_Add(descriptor, "FontFile2", data);
    ret += HPDF_Dict_AddNumber(data, "Length1", (HPDF_INT32)k->length1);
    ret += HPDF_Dict_AddNumber(data, "Length2", 0);
    ret += HPDF_Dict_AddNumber(data, "Length3", 0);
    ret += HPDF_Xref_Add(attr->xref, descriptor);
    ret += HPDF_Dict_AddName(descriptor, "Type", "FontDescriptor");
    ret += HPDF_Dict_AddNumber(descriptor, "Ascent", def->ascent);
    ret += HPDF_Dict_AddNumber(descriptor, "Descent", def->descent);
    ret += HPDF_Dict_AddNumber(descriptor, "Flags", (HPDF_INT32)def->flags);
    ret += HPDF_Dict_Add(descriptor, "FontBBox", HPDF_Box_Array_New(mmgr, def->font_bbox));
    ret += HPDF_Dict_AddName(descriptor, "FontName", tt->base_font);
    ret += HPDF_Dict_AddNumber(descriptor, "ItalicAngle", def->italic_angle);
    ret += HPDF_Dict_AddNumber(descriptor, "StemV", def->stemv);
    ret += HPDF_Dict_AddNumber(descriptor, "XHeight", def->x_height);
    def->descriptor = descriptor; /* libharu's saving then adds it as it is */
    return ret == HPDF_OK;
}

bool rc_hpdf_finish_font(HPDF_Font font, rc_hpdf_font_memo **memo)
{
    HPDF_FontAttr attr = font ? font->attr : NULL;
    if (!attr || attr->type != HPDF_FONT_TYPE0_TT || !attr->map_stream || !attr->cmap_stream ||
        !attr->descendant_font || !attr->map_stream->stream || !attr->cmap_stream->stream ||
        attr->map_stream->stream->type != HPDF_STREAM_MEMORY ||
        attr->cmap_stream->stream->type != HPDF_STREAM_MEMORY ||
        attr->fontdef->type != HPDF_FONTDEF_TYPE_TRUETYPE)
        return false;
    if (!*memo && !(*memo = memo_new(attr->fontdef)))
        return false;
    for (HPDF_UINT16 c = 0x20; c < 0x7F; c++)
        HPDF_TTFontDef_GetCharWidth(attr->fontdef, c);
    if (attr->fontdef->descriptor)
        return false; /* finished already */
    const kept_program *k = program_for(attr->fontdef, *memo);
    /* Saving sets the filter of the font's ToUnicode and CIDToGIDMap
     * streams to the font's: theirs are deflated already. */
    font->filter = HPDF_STREAM_FILTER_NONE;
    return k && finish_to_unicode(attr->cmap_stream, *memo) && finish_widths(attr, *memo) &&
           put_packed(attr->map_stream, k->map, k->map_len) && finish_descriptor(attr, k);
}

/* ---- widths and glyph flags ---------------------------------------------- */

HPDF_FontDef rc_hpdf_font_def(HPDF_Doc pdf, const char *name)
{
    return HPDF_GetFontDef(pdf, name);
}

int rc_hpdf_char_width(HPDF_FontDef def, unsigned code)
{
    return HPDF_TTFontDef_GetCharWidth(def, (HPDF_UINT16)code);
}

uint16_t *rc_hpdf_glyphs_used(HPDF_FontDef def, size_t *n)
{
    HPDF_TTFontDefAttr tt = def->attr;
    size_t count = 0;
    for (unsigned g = 0; g < tt->num_glyphs; g++)
        count += tt->glyph_tbl.flgs[g] != 0;
    uint16_t *v = malloc((count ? count : 1) * sizeof *v);
    *n = v ? count : (size_t)-1;
    for (unsigned g = 0, k = 0; v && g < tt->num_glyphs; g++)
        if (tt->glyph_tbl.flgs[g])
            v[k++] = (uint16_t)g;
    return v;
}

void rc_hpdf_mark_glyph(HPDF_FontDef def, unsigned glyph)
{
    HPDF_TTFontDefAttr tt = def->attr;
    if (glyph < tt->num_glyphs)
        tt->glyph_tbl.flgs[glyph] = 1;
}

/* ---- documents ----------------------------------------------------------- */

const char *rc_hpdf_error_text(HPDF_STATUS e)
{
    switch (e) {
    case HPDF_FAILD_TO_ALLOC_MEM:
        return "out of memory";
    case HPDF_FILE_IO_ERROR:
    case HPDF_FILE_OPEN_ERROR:
        return "cannot read a font file";
    case HPDF_INVALID_FONTDEF_DATA:
    case HPDF_TTF_INVALID_CMAP:
    case HPDF_TTF_INVALID_FOMAT:
    case HPDF_TTF_MISSING_TABLE:
        return "the font file is not a usable TrueType font";
    case HPDF_TTF_CANNOT_EMBEDDING_FONT:
        return "the font's licence flags forbid embedding it";
    case HPDF_INVALID_PARAMETER:
    case HPDF_PAGE_OUT_OF_RANGE:
    case HPDF_REAL_OUT_OF_RANGE:
        return "a drawing operation was given an invalid value";
    default:
        return "see hpdf_error.h";
    }
}

void rc_hpdf_set_error_data(HPDF_Doc pdf, void *user)
{
    pdf->error.user_data = user;
}

/* Where rc_hpdf_save_to's writer hands what libharu writes. */
typedef struct {
    void (*put)(void *ctx, const void *data, size_t len);
    void *ctx;
} save_sink;

static HPDF_STATUS write_to_sink(HPDF_Stream stream, const HPDF_BYTE *ptr, HPDF_UINT siz)
{
    const save_sink *sink = stream->attr;
    sink->put(sink->ctx, ptr, siz);
    return HPDF_OK;
}

/* HPDF_SaveToStream writes to the document's stream, so a writer stands
 * in for it for the call. */
int rc_hpdf_save_to(HPDF_Doc pdf, void (*put)(void *ctx, const void *data, size_t len),
                    void *ctx)
{
    save_sink sink = {put, ctx};
    HPDF_Stream writer = HPDF_CallbackWriter_New(pdf->mmgr, write_to_sink, &sink);
    if (!writer)
        return -1;
    HPDF_Stream kept = pdf->stream;
    pdf->stream = writer;
    HPDF_STATUS ret = HPDF_SaveToStream(pdf);
    pdf->stream = kept;
    HPDF_Stream_Free(writer);
    return ret == HPDF_OK;
}

/* ---- pages ---------------------------------------------------------------- */

/* The content stream drawing on `page` goes to now. */
static HPDF_Dict page_contents(HPDF_Page page)
{
    return ((HPDF_PageAttr)page->attr)->contents;
}

unsigned char *rc_hpdf_page_operators(HPDF_Page page, size_t *len)
{
    return stream_bytes(page_contents(page)->stream, len);
}

bool rc_hpdf_page_operators_in_memory(HPDF_Page page)
{
    HPDF_Dict contents = page_contents(page);
    return contents && contents->stream && contents->stream->type == HPDF_STREAM_MEMORY &&
           (contents->filter & HPDF_STREAM_FILTER_FLATE_DECODE);
}

bool rc_hpdf_page_put_packed(HPDF_Page page, const unsigned char *packed, size_t len)
{
    return put_packed(page_contents(page), packed, len);
}

/* What rc_hpdf_page_seal leaves libharu: a stream that reads the page's
 * operators back from the spill file when the document is saved. Memory
 * then holds the page's objects, a few KB, rather than its drawing.
 *
 * Where a sealed page's compressed operators are in the spill file. Owned
 * by libharu's stream (freed by sealed_free). */
typedef struct {
    FILE *spill;
    long offset;
    HPDF_UINT32 len, pos;
} sealed_piece;

static HPDF_STATUS sealed_read(HPDF_Stream stream, HPDF_BYTE *ptr, HPDF_UINT *siz)
{
    sealed_piece *s = stream->attr;
    HPDF_UINT32 want = *siz, n = want < s->len - s->pos ? want : s->len - s->pos;
    if (n > 0 && (fseek(s->spill, s->offset + (long)s->pos, SEEK_SET) != 0 ||
                  fread(ptr, 1, n, s->spill) != n)) {
        *siz = 0;
        return HPDF_SetError(stream->error, HPDF_FILE_IO_ERROR, 0);
    }
    s->pos += n;
    *siz = n;
    return n < want ? HPDF_STREAM_EOF : HPDF_OK;
}

static HPDF_STATUS sealed_seek(HPDF_Stream stream, HPDF_INT pos, HPDF_WhenceMode mode)
{
    sealed_piece *s = stream->attr;
    long long to = seek_target(pos, mode, s->pos, s->len);
    if (to < 0 || to > s->len)
        return HPDF_SetError(stream->error, HPDF_FILE_IO_ERROR, 0);
    s->pos = (HPDF_UINT32)to;
    return HPDF_OK;
}

static HPDF_INT32 sealed_tell(HPDF_Stream stream)
{
    return (HPDF_INT32)((sealed_piece *)stream->attr)->pos;
}

static HPDF_UINT32 sealed_size(HPDF_Stream stream)
{
    return ((sealed_piece *)stream->attr)->len;
}

static void sealed_free(HPDF_Stream stream)
{
    HPDF_FreeMem(stream->mmgr, stream->attr);
}

bool rc_hpdf_page_seal(HPDF_Page page, FILE *spill, long offset, size_t len)
{
    HPDF_Dict contents = page_contents(page);
    sealed_piece *piece = HPDF_GetMem(page->mmgr, sizeof *piece);
    HPDF_Stream reader = piece ? HPDF_CallbackReader_New(page->mmgr, sealed_read, sealed_seek,
                                                         sealed_tell, sealed_size, piece)
                               : NULL;
    if (!reader || HPDF_Page_New_Content_Stream(page, NULL) != HPDF_OK) {
        if (reader)
            HPDF_Stream_Free(reader);
        if (piece)
            HPDF_FreeMem(page->mmgr, piece);
        return false;
    }
    /* What is drawn later is a footer of a few hundred bytes: a smaller
     * buffer than libharu's 4 KB default. */
    HPDF_PageAttr now = page->attr;
    HPDF_Stream small = HPDF_MemStream_New(page->mmgr, 512);
    if (small) {
        HPDF_Stream_Free(now->contents->stream);
        now->contents->stream = now->stream = small;
    }
    *piece = (sealed_piece){spill, offset, (HPDF_UINT32)len, 0};
    reader->free_fn = sealed_free;
    HPDF_Stream_Free(contents->stream);
    contents->stream = reader;
    contents->filter = HPDF_STREAM_FILTER_NONE;
    contents->write_fn = write_flate_filter;
    return true;
}

size_t rc_hpdf_page_font_count(HPDF_Page page)
{
    HPDF_Dict fonts = ((HPDF_PageAttr)page->attr)->fonts;
    return fonts ? fonts->list->count : 0;
}

HPDF_Font rc_hpdf_page_font(HPDF_Page page, size_t i)
{
    HPDF_Dict fonts = ((HPDF_PageAttr)page->attr)->fonts;
    HPDF_DictElement e = HPDF_List_ItemAt(fonts->list, (HPDF_UINT)i);
    HPDF_Obj_Header *h = e->value;
    return h->obj_class == HPDF_OCLASS_PROXY ? ((HPDF_Proxy)e->value)->obj : e->value;
}

bool rc_hpdf_page_add_font(HPDF_Page page, HPDF_Font font)
{
    return HPDF_Page_GetLocalFontName(page, font) != NULL;
}
