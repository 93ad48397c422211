/* paint_hpdf.c: paints a canvas (canvas.h) with libharu's path
 * and text operators, so the chart inside a PDF stays sharp at any zoom and
 * its labels are text. See paint_hpdf.h; paint_cairo.c is the reference
 * for how each item looks. */
#include "paint/paint_hpdf.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hpdf_doc.h>
#include <hpdf_encoder.h>
#include <hpdf_font.h>
#include <hpdf_fontdef.h>
#include <hpdf_mmgr.h>
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

static HPDF_STATUS source_seek(HPDF_Stream stream, HPDF_INT pos, HPDF_WhenceMode mode)
{
    rc_hpdf_font_source *s = stream->attr;
    long long base = mode == HPDF_SEEK_CUR ? (long long)s->pos
                   : mode == HPDF_SEEK_END ? (long long)s->len : 0;
    if (base + pos < 0)
        return HPDF_SetError(stream->error, HPDF_FILE_IO_ERROR, 0);
    s->pos = (size_t)(base + pos);
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

/* ---- a font made and finished for saving ---------------------------------- */

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

/* The whole of a memory stream, malloc'd, or NULL. */
static unsigned char *mem_stream_bytes(HPDF_Stream s, size_t *len)
{
    *len = HPDF_Stream_Size(s);
    unsigned char *out = malloc(*len ? *len : 1), *o = out;
    for (HPDF_UINT i = 0; out && i < HPDF_MemStream_GetBufCount(s); i++) {
        HPDF_UINT n = 0;
        HPDF_BYTE *buf = HPDF_MemStream_GetBufPtr(s, i, &n);
        memcpy(o, buf, n);
        o += n;
    }
    return out;
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
        raw = mem_stream_bytes(s, &len);
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

char *rc_hpdf_utf8_put(char *o, unsigned long c)
{
    if (c < 0x80) {
        *o++ = (char)c;
    } else if (c < 0x800) {
        *o++ = (char)(0xC0 | (c >> 6));
        *o++ = (char)(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
        *o++ = (char)(0xE0 | (c >> 12));
        *o++ = (char)(0x80 | ((c >> 6) & 0x3F));
        *o++ = (char)(0x80 | (c & 0x3F));
    } else {
        *o++ = (char)(0xF0 | (c >> 18));
        *o++ = (char)(0x80 | ((c >> 12) & 0x3F));
        *o++ = (char)(0x80 | ((c >> 6) & 0x3F));
        *o++ = (char)(0x80 | (c & 0x3F));
    }
    return o;
}

char *rc_hpdf_showable(const rc_hpdf_fonts *fonts, rc_font_role role, const char *text)
{
    /* A replacement (3 bytes) is never longer than what it replaces, except
     * for a single invalid byte: 3 bytes per input byte always suffice. */
    char *out = malloc(3 * strlen(text) + 1), *o = out;
    if (!out)
        return NULL;
    bool space = false;
    for (const char *p = text; *p;) {
        unsigned long c = rc_utf8_next(&p);
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            space = o > out;
            continue;
        }
        if (space)
            *o++ = ' ';
        space = false;
        if (c > 0xFFFF || !fonts->has_glyph(fonts->ctx, role, c))
            c = 0xFFFD;
        o = rc_hpdf_utf8_put(o, c);
    }
    *o = '\0';
    return out;
}

/* What the page's graphics state holds, of what this painter sets: each
 * operator is written only when its value changes, rather than every
 * shape saving, setting and restoring all of it. `known` is false until
 * set. */
typedef struct {
    bool known_fill, known_stroke, known_width, known_dash, known_font;
    rc_rgb fill, stroke;
    double width, size;
    HPDF_UINT16 dash[4];
    HPDF_UINT ndash;
    HPDF_Font font;
} pen;

/* Page coordinates of a description point, and the pen. */
typedef struct {
    double x, top, scale, page_h;
    pen *pen;
} place;

static bool same_rgb(rc_rgb a, rc_rgb b) { return a.r == b.r && a.g == b.g && a.b == b.b; }

static bool set_fill(HPDF_Page page, pen *pn, rc_rgb c)
{
    if (pn->known_fill && same_rgb(pn->fill, c))
        return true;
    pn->known_fill = true;
    pn->fill = c;
    return HPDF_Page_SetRGBFill(page, (HPDF_REAL)c.r, (HPDF_REAL)c.g, (HPDF_REAL)c.b) == HPDF_OK;
}

static double px(const place *pl, double x) { return pl->x + pl->scale * x; }
static double py(const place *pl, double y) { return pl->page_h - (pl->top + pl->scale * y); }

/* libharu 2.3 takes dash lengths as whole numbers (1 to 100), so a dashed
 * stroke is drawn in a space `unit` times finer than the page's. */
static double dash_unit(const rc_canvas_item *it, double scale)
{
    double longest = 0;
    for (int i = 0; i < it->ndash && i < 4; i++)
        longest = fmax(longest, it->dash[i] * scale);
    if (it->ndash <= 0 || longest <= 0)
        return 1;
    double unit = floor(100.0 / longest);
    return unit > 10 ? 10 : unit < 1 ? 1 : unit;
}

/* Sets the stroke of `it` in a space `unit` times finer than the page's. */
static bool set_stroke(HPDF_Page page, pen *pn, const rc_canvas_item *it, double scale, double unit)
{
    bool ok = true;
    if (!pn->known_stroke || !same_rgb(pn->stroke, it->stroke)) {
        ok &= HPDF_Page_SetRGBStroke(page, (HPDF_REAL)it->stroke.r, (HPDF_REAL)it->stroke.g,
                                     (HPDF_REAL)it->stroke.b) == HPDF_OK;
        pn->known_stroke = true;
        pn->stroke = it->stroke;
    }
    double width = it->stroke_width * scale * unit;
    if (!pn->known_width || pn->width != width) {
        ok &= HPDF_Page_SetLineWidth(page, (HPDF_REAL)width) == HPDF_OK;
        pn->known_width = true;
        pn->width = width;
    }
    HPDF_UINT16 pattern[4];
    HPDF_UINT n = 0;
    for (int i = 0; i < it->ndash && i < 4; i++) {
        double v = round(it->dash[i] * scale * unit);
        pattern[n++] = (HPDF_UINT16)(v < 1 ? 1 : v > 100 ? 100 : v);
    }
    if (n % 2 == 1 && n > 1)
        n--; /* libharu takes one length or pairs */
    if (!pn->known_dash || pn->ndash != n || memcmp(pn->dash, pattern, n * sizeof *pattern) != 0) {
        ok &= HPDF_Page_SetDash(page, n ? pattern : NULL, n, 0) == HPDF_OK;
        pn->known_dash = true;
        pn->ndash = n;
        memcpy(pn->dash, pattern, n * sizeof *pattern);
    }
    return ok;
}

/* Fills and/or strokes the current path, closing it first when `closed`. */
static bool finish_path(HPDF_Page page, bool fill, bool stroke, bool closed)
{
    if (fill && stroke)
        return (closed ? HPDF_Page_ClosePathFillStroke(page) : HPDF_Page_FillStroke(page)) ==
               HPDF_OK;
    if (fill)
        return HPDF_Page_Fill(page) == HPDF_OK;
    if (stroke)
        return (closed ? HPDF_Page_ClosePathStroke(page) : HPDF_Page_Stroke(page)) == HPDF_OK;
    return HPDF_Page_EndPath(page) == HPDF_OK;
}

/* A path, rectangle or marker: its outline as vertices (pts, n), or a
 * circle (n == 0, centre cx, cy, radius r), in description points. */
static bool paint_shape(HPDF_Page page, const place *pl, const rc_canvas_item *it,
                        const double *pts, size_t n, bool closed, double cx, double cy, double r)
{
    bool fill = it->has_fill, stroke = it->stroke_width > 0;
    if (!fill && !stroke)
        return true;
    double unit = stroke ? dash_unit(it, pl->scale) : 1;
    /* A finer space for a dash lasts for this shape only: its own state. */
    pen outside = *pl->pen;
    bool ok = true;
    if (unit != 1)
        ok &= HPDF_Page_GSave(page) == HPDF_OK;
    if (fill)
        ok &= set_fill(page, pl->pen, it->fill);
    if (stroke)
        ok &= set_stroke(page, pl->pen, it, pl->scale, unit);
    if (unit != 1)
        ok &= HPDF_Page_Concat(page, (HPDF_REAL)(1 / unit), 0, 0, (HPDF_REAL)(1 / unit), 0, 0) ==
              HPDF_OK;
    if (n == 0) {
        ok &= HPDF_Page_Circle(page, (HPDF_REAL)(px(pl, cx) * unit), (HPDF_REAL)(py(pl, cy) * unit),
                               (HPDF_REAL)(r * pl->scale * unit)) == HPDF_OK;
        closed = true;
    } else {
        for (size_t i = 0; i < n; i++) {
            HPDF_REAL x = (HPDF_REAL)(px(pl, pts[2 * i]) * unit);
            HPDF_REAL y = (HPDF_REAL)(py(pl, pts[2 * i + 1]) * unit);
            ok &= (i == 0 ? HPDF_Page_MoveTo(page, x, y) : HPDF_Page_LineTo(page, x, y)) == HPDF_OK;
        }
    }
    ok &= finish_path(page, fill, stroke, closed);
    if (unit != 1) {
        ok &= HPDF_Page_GRestore(page) == HPDF_OK;
        *pl->pen = outside;
    }
    return ok;
}

static bool paint_text(HPDF_Page page, const place *pl, const rc_canvas_item *it,
                       const rc_hpdf_fonts *fonts)
{
    if (!it->text || !*it->text)
        return true;
    char *text = rc_hpdf_showable(fonts, it->font, it->text);
    if (!text)
        return false;
    HPDF_Font font = fonts->font[it->font];
    double size = it->size * pl->scale, width = it->width * pl->scale;
    HPDF_TextWidth tw = HPDF_Font_TextWidth(font, (const HPDF_BYTE *)text, (HPDF_UINT)strlen(text));
    double measured = tw.width * size / 1000.0;
    if (width > 0 && measured > width * 1.001) {
        /* A replaced character is wider: keep the laid-out box, but no
         * smaller than the smallest legible text. */
        double fitted = fmax(size * width / measured, fmin(size, RC_HPDF_MIN_TEXT));
        measured *= fitted / size;
        size = fitted;
    }
    double along = it->anchor == RC_ANCHOR_MIDDLE ? 0.5 : it->anchor == RC_ANCHOR_END ? 1 : 0;
    double x = px(pl, it->x), y = py(pl, it->y);
    bool up = fabs(it->angle - 90) < 1e-9;
    bool ok = HPDF_Page_BeginText(page) == HPDF_OK;
    pen *pn = pl->pen;
    if (!pn->known_font || pn->font != font || pn->size != size) {
        ok &= HPDF_Page_SetFontAndSize(page, font, (HPDF_REAL)size) == HPDF_OK;
        pn->known_font = true;
        pn->font = font;
        pn->size = size;
    }
    ok &= set_fill(page, pn, it->fill);
    /* The text matrix turns the baseline; the anchor moves along it. */
    if (up)
        ok &= HPDF_Page_SetTextMatrix(page, 0, 1, -1, 0, (HPDF_REAL)x,
                                      (HPDF_REAL)(y - along * measured)) == HPDF_OK;
    else
        ok &= HPDF_Page_SetTextMatrix(page, 1, 0, 0, 1, (HPDF_REAL)(x - along * measured),
                                      (HPDF_REAL)y) == HPDF_OK;
    ok &= HPDF_Page_ShowText(page, text) == HPDF_OK;
    ok &= HPDF_Page_EndText(page) == HPDF_OK;
    free(text);
    return ok;
}

/* A painting in progress on a page (painter.h's rc_painter_pdf). */
typedef struct {
    HPDF_Page page;
    const rc_hpdf_fonts *fonts;
    pen pen;
    place place;
    bool ok; /* false once the page reported an error: nothing more is painted */
} painting;

static void *begin(const rc_canvas *canvas, const rc_paint_target *target)
{
    (void)canvas;
    painting *st = calloc(1, sizeof *st);
    if (!st)
        return NULL;
    HPDF_Page page = target->page;
    st->page = page;
    st->fonts = target->page_fonts;
    st->place = (place){target->x, target->top, target->scale, HPDF_Page_GetHeight(page), &st->pen};
    st->ok = HPDF_Page_GSave(page) == HPDF_OK;
    st->ok &= HPDF_Page_SetLineCap(page, HPDF_BUTT_END) == HPDF_OK;
    st->ok &= HPDF_Page_SetLineJoin(page, HPDF_MITER_JOIN) == HPDF_OK;
    return st;
}

static bool paint_path(void *state, const rc_canvas_item *it)
{
    painting *st = state;
    return st->ok = st->ok && paint_shape(st->page, &st->place, it, it->points, it->npoints,
                                          it->closed, 0, 0, 0);
}

static bool paint_rect(void *state, const rc_canvas_item *it)
{
    painting *st = state;
    double r[8] = {it->x,         it->y,         it->x + it->w, it->y,
                   it->x + it->w, it->y + it->h, it->x,         it->y + it->h};
    return st->ok = st->ok && paint_shape(st->page, &st->place, it, r, 4, true, 0, 0, 0);
}

static bool paint_marker(void *state, const rc_canvas_item *it)
{
    painting *st = state;
    double pts[20];
    size_t n = rc_marker_outline(it->shape, it->x, it->y, it->size, pts);
    return st->ok = st->ok && paint_shape(st->page, &st->place, it, pts, n, true, it->x, it->y,
                                          it->size / 2);
}

static bool paint_item_text(void *state, const rc_canvas_item *it)
{
    painting *st = state;
    return st->ok = st->ok && paint_text(st->page, &st->place, it, st->fonts);
}

static bool end(void *state, bool ok, char **bytes, size_t *len)
{
    (void)bytes, (void)len; /* paints on the page: no file */
    painting *st = state;
    ok = st->ok && ok;
    ok &= HPDF_Page_GRestore(st->page) == HPDF_OK;
    free(st);
    return ok;
}

const rc_painter rc_painter_pdf = {"pdf", begin, paint_path, paint_rect, paint_marker,
                                   paint_item_text, end};
