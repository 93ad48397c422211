/* pdf_layout.c: the document and its pages for the PDF renderer, over
 * libharu: fonts loaded once and kept between PDFs, strings owned by the
 * document, pages, links, and pages moved out of memory or between
 * documents. Text is set by pdf_layout_text.c, tables by
 * pdf_layout_table.c. See pdf_layout.h; render_pdf*.c say what goes on
 * the pages. */
#include "render/pdf_layout.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "paint/hpdf_internal.h"
#include "util/array.h"
#include "util/buffer.h"
#include "util/version.h" /* RC_VERSION */


const rc_rgb PDF_INK = {0.13, 0.13, 0.15};
const rc_rgb PDF_MUTED = {0.40, 0.40, 0.44};
const rc_rgb PDF_RULE = {0.70, 0.71, 0.74};
const rc_rgb PDF_ZEBRA = {0.945, 0.953, 0.965};

/* A libharu document with both fonts loaded, kept with the fonts
 * (rc_fonts_keep) from one PDF to the next: libharu starts each new
 * document in it (HPDF_NewDoc) with the fonts it already parsed, rather
 * than reading both TTFs and making its UTF-8 encoder again, a tenth of
 * what a PDF took. */
typedef struct spare_doc {
    HPDF_Doc pdf;
    rc_hpdf_font_source source[RC_FONT_COUNT]; /* libharu reads the fonts from these */
    char name[RC_FONT_COUNT][HPDF_LIMIT_MAX_NAME_LEN + 1];
    rc_hpdf_font_memo *memo[RC_FONT_COUNT]; /* what rc_hpdf_finish_font keeps */
} spare_doc;

static void drop_spare(void *obj)
{
    spare_doc *d = obj;
    if (d->pdf)
        HPDF_Free(d->pdf);
    for (int i = 0; i < RC_FONT_COUNT; i++)
        rc_hpdf_font_memo_free(d->memo[i]);
    free(d);
}

/* ---- libharu errors ---------------------------------------------------- */

static void on_error(HPDF_STATUS error_no, HPDF_STATUS detail_no, void *user)
{
    pdf *p = user;
    if (p->error == 0) {
        p->error = error_no;
        p->detail = detail_no;
    }
}

/* Reports the first libharu error; `font` names the font file it was
 * embedding, when it was. */
static void pdf_report(pdf *p, const char *font)
{
    rc_error_at(p->diag, NULL, 0, "%s: %s%s%slibharu error 0x%04X (detail %u): %s", p->output,
                font ? "cannot embed " : "", font ? font : "", font ? ": " : "",
                (unsigned)p->error, (unsigned)p->detail, rc_hpdf_error_text(p->error));
}

/* ---- strings owned by the document ------------------------------------ */

const char *pdf_own(pdf *p, char *s)
{
    if (!s) {
        p->oom = true;
        return "";
    }
    if (!RC_GROW(p->owned, p->capowned, p->nowned + 1)) {
        free(s);
        p->oom = true;
        return "";
    }
    p->owned[p->nowned++] = s;
    return s;
}

/* pdf_remember's entries. */
struct pdf_recalled {
    const void *node; /* NULL: a free slot */
    const char *attr, *text;
};

void pdf_drop_owned(pdf *p, size_t from)
{
    if (from < p->nowned && p->nrecalled > 0) { /* what it recalls may be freed */
        memset(p->recalled, 0, p->caprecalled * sizeof *p->recalled);
        p->nrecalled = 0;
    }
    for (size_t i = from; i < p->nowned; i++)
        free(p->owned[i]);
    p->nowned = from;
}

/* ---- text kept by its source --------------------------------------------- */

/* Where (node, attr) is in a table of `cap` slots, or the free slot where
 * it would go: open addressing, probing linearly. */
static size_t recall_slot(const struct pdf_recalled *t, size_t cap, const void *node,
                          const char *attr)
{
    uint64_t h = ((uint64_t)(uintptr_t)node ^ ((uint64_t)(uintptr_t)attr << 17)) *
                 0x9E3779B97F4A7C15u;
    size_t i = (size_t)(h >> 32) & (cap - 1);
    while (t[i].node && (t[i].node != node || t[i].attr != attr))
        i = (i + 1) & (cap - 1);
    return i;
}

const char *pdf_recall(const pdf *p, const void *node, const char *attr)
{
    if (p->caprecalled == 0)
        return NULL;
    const struct pdf_recalled *e =
        &p->recalled[recall_slot(p->recalled, p->caprecalled, node, attr)];
    return e->node ? e->text : NULL;
}

/* Doubles the table (256 slots to start); false when out of memory. */
static bool recall_grow(pdf *p)
{
    size_t cap = p->caprecalled ? 2 * p->caprecalled : 256;
    struct pdf_recalled *t = calloc(cap, sizeof *t);
    if (!t)
        return false;
    for (size_t i = 0; i < p->caprecalled; i++)
        if (p->recalled[i].node)
            t[recall_slot(t, cap, p->recalled[i].node, p->recalled[i].attr)] = p->recalled[i];
    free(p->recalled);
    p->recalled = t;
    p->caprecalled = cap;
    return true;
}

void pdf_remember(pdf *p, const void *node, const char *attr, const char *text)
{
    if (!node || (2 * (p->nrecalled + 1) > p->caprecalled && !recall_grow(p)))
        return; /* at most half full */
    struct pdf_recalled *e = &p->recalled[recall_slot(p->recalled, p->caprecalled, node, attr)];
    p->nrecalled += !e->node;
    *e = (struct pdf_recalled){node, attr, text};
}

const char *pdf_join(pdf *p, ...)
{
    va_list ap;
    size_t n = 1;
    va_start(ap, p);
    for (const char *s; (s = va_arg(ap, const char *)) != NULL;)
        n += strlen(s);
    va_end(ap);
    char *out = malloc(n), *o = out;
    if (out) {
        va_start(ap, p);
        for (const char *s; (s = va_arg(ap, const char *)) != NULL;) {
            size_t len = strlen(s);
            memcpy(o, s, len);
            o += len;
        }
        va_end(ap);
        *o = '\0';
    }
    return pdf_own(p, out);
}

/* ---- pages ------------------------------------------------------------- */

HPDF_Page pdf_new_page(pdf *p)
{
    size_t at = p->insert_at ? p->insert_at - 1 : p->npages;
    HPDF_Page page = at < p->npages ? HPDF_InsertPage(p->pdf, p->pages[at]) : HPDF_AddPage(p->pdf);
    if (!page)
        return NULL;
    HPDF_Page_SetSize(page, HPDF_PAGE_SIZE_A4, HPDF_PAGE_PORTRAIT);
    if (!RC_GROW(p->pages, p->cappages, p->npages + 1)) {
        p->oom = true;
        return page;
    }
    memmove(p->pages + at + 1, p->pages + at, (p->npages - at) * sizeof *p->pages);
    p->pages[at] = page;
    p->npages++;
    if (p->insert_at)
        p->insert_at++;
    return page;
}

void pdf_flow_need(pdf *p, pdf_flow *f, double h)
{
    if (f->y + h <= PAGE_H - MARGIN_BOTTOM || f->y <= MARGIN_TOP)
        return;
    f->page++;
    f->y = MARGIN_TOP;
    if (p->page) {
        HPDF_Page done = p->page;
        p->page = pdf_new_page(p);
        if (p->spill && !p->error)
            pdf_seal_page(p->spill, done);
    }
}

void pdf_add_link(pdf *p, size_t page, size_t target, double x, double top, double w, double h)
{
    if (!p->page)
        return;
    if (!RC_GROW(p->links, p->caplinks, p->nlinks + 1)) {
        p->oom = true;
        return;
    }
    HPDF_Rect r = {(HPDF_REAL)x, (HPDF_REAL)(PAGE_H - top - h), (HPDF_REAL)(x + w),
                   (HPDF_REAL)(PAGE_H - top)};
    p->links[p->nlinks++] = (pdf_link){page, target, r};
}

void pdf_make_links(pdf *p, size_t first, const size_t *page_of, size_t ntargets)
{
    for (size_t i = 0; i < p->nlinks && !p->error; i++) {
        size_t t = p->links[i].target;
        if (t >= ntargets || page_of[t] == PDF_NO_PAGE)
            continue;
        size_t target = first + page_of[t];
        if (p->links[i].page >= p->npages || target >= p->npages)
            continue;
        HPDF_Destination dst = HPDF_Page_CreateDestination(p->pages[target]);
        if (!dst)
            continue;
        HPDF_Destination_SetFit(dst);
        HPDF_Annotation a =
            HPDF_Page_CreateLinkAnnot(p->pages[p->links[i].page], p->links[i].rect, dst);
        if (a)
            HPDF_LinkAnnot_SetBorderStyle(a, 0, 0, 0);
    }
}

/* ---- pages moved out of memory ----------------------------------------- */

/* data[0..len) appended to the spill file, flushed before a page counts
 * on them; its offset in *at. */
static bool spill_bytes(FILE *spill, const unsigned char *data, size_t len, long *at)
{
    return fseek(spill, 0, SEEK_END) == 0 && (*at = ftell(spill)) >= 0 &&
           fwrite(data, 1, len, spill) == len && fflush(spill) == 0;
}

unsigned char *pdf_page_packed(HPDF_Page page, size_t *len)
{
    size_t raw_len = 0;
    unsigned char *raw = rc_hpdf_page_operators(page, &raw_len);
    uLongf packed_len = compressBound((uLong)raw_len);
    unsigned char *packed = raw ? malloc(packed_len) : NULL;
    if (packed && compress2(packed, &packed_len, raw, (uLong)raw_len, PDF_PAGE_ZLEVEL) != Z_OK) {
        free(packed);
        packed = NULL;
    }
    free(raw);
    *len = packed ? (size_t)packed_len : 0;
    return packed;
}

void pdf_seal_page(FILE *spill, HPDF_Page page)
{
    size_t len = 0;
    unsigned char *packed = pdf_page_packed(page, &len);
    long offset = -1;
    bool ok = packed && spill_bytes(spill, packed, len, &offset);
    free(packed);
    if (ok)
        rc_hpdf_page_seal(page, spill, offset, len); /* or left in memory */
}

size_t pdf_page_fonts(const pdf *p, HPDF_Page page, uint8_t *roles, size_t cap)
{
    size_t count = rc_hpdf_page_font_count(page), n = 0;
    for (size_t i = 0; i < count && n < cap; i++) {
        HPDF_Font font = rc_hpdf_page_font(page, i);
        int role = -1;
        for (int r = 0; r < RC_FONT_COUNT; r++)
            if (font == p->hf.font[r])
                role = r;
        if (role < 0)
            return (size_t)-1;
        roles[n++] = (uint8_t)role;
    }
    return n;
}

bool pdf_hold_packed(HPDF_Page page, const unsigned char *packed, size_t len)
{
    return rc_hpdf_page_put_packed(page, packed, len) &&
           HPDF_Page_New_Content_Stream(page, NULL) == HPDF_OK;
}

bool pdf_add_packed_page(pdf *p, const unsigned char *packed, size_t len, const uint8_t *roles,
                         size_t nroles)
{
    HPDF_Page page = pdf_new_page(p);
    if (!page || p->oom)
        return false;
    for (size_t i = 0; i < nroles; i++)
        if (roles[i] >= RC_FONT_COUNT || !rc_hpdf_page_add_font(page, p->hf.font[roles[i]]))
            return false;
    long offset = -1;
    if (p->spill && spill_bytes(p->spill, packed, len, &offset) &&
        rc_hpdf_page_seal(page, p->spill, offset, len))
        return true;
    if (!pdf_hold_packed(page, packed, len)) {
        p->oom = true;
        return false;
    }
    return true;
}

uint16_t *pdf_glyphs_used(const pdf *p, rc_font_role role, size_t *n)
{
    return rc_hpdf_glyphs_used(p->def[role], n);
}

void pdf_mark_glyph(pdf *p, rc_font_role role, unsigned glyph)
{
    rc_hpdf_mark_glyph(p->def[role], glyph);
}

/* Deflates the operators of `page` that are still in memory at
 * PDF_PAGE_ZLEVEL, rather than leave them to libharu's saving at zlib's
 * default level. Sets p->oom when memory runs out. */
static void pack_page(pdf *p, HPDF_Page page)
{
    if (!rc_hpdf_page_operators_in_memory(page))
        return;
    size_t len = 0;
    unsigned char *packed = pdf_page_packed(page, &len);
    if (!packed || !rc_hpdf_page_put_packed(page, packed, len))
        p->oom = true; /* out of memory, or the page is cut: no file */
    free(packed);
}

/* ---- the document ------------------------------------------------------- */

/* rc_hpdf_fonts's question, answered by font.c, which read the same
 * files with FreeType. */
static bool has_glyph(void *ctx, rc_font_role role, unsigned long c)
{
    pdf *p = ctx;
    return rc_fonts_glyph(p->fonts, role, c).glyph != 0;
}

/* A new document in the one kept from the last PDF: the fonts are
 * loaded. */
static bool open_kept(pdf *p)
{
    p->pdf = p->spare->pdf;
    rc_hpdf_set_error_data(p->pdf, p);
    if (HPDF_NewDoc(p->pdf) != HPDF_OK) {
        pdf_report(p, NULL);
        return false;
    }
    HPDF_SetCompressionMode(p->pdf, HPDF_COMP_ALL);
    HPDF_SetCurrentEncoder(p->pdf, "UTF-8");
    for (int i = 0; i < RC_FONT_COUNT && !p->error; i++) {
        p->def[i] = rc_hpdf_font_def(p->pdf, p->spare->name[i]);
        p->hf.font[i] = rc_hpdf_get_font(p->pdf, p->spare->name[i]);
    }
    if (p->error || !p->hf.font[0] || !p->hf.font[1] || !p->def[0] || !p->def[1]) {
        pdf_report(p, NULL);
        return false;
    }
    return true;
}

/* A new libharu document, both TTFs read from the bytes font.c holds. */
static bool open_new(pdf *p)
{
    p->spare = calloc(1, sizeof *p->spare);
    p->pdf = p->spare ? HPDF_New(on_error, p) : NULL;
    if (!p->pdf) {
        rc_error_at(p->diag, NULL, 0, "%s: cannot start libharu (out of memory)", p->output);
        return false;
    }
    p->spare->pdf = p->pdf;
    /* No PDF/A and no encryption: both add an /ID made from the time. */
    HPDF_SetCompressionMode(p->pdf, HPDF_COMP_ALL);
    HPDF_UseUTFEncodings(p->pdf);
    HPDF_SetCurrentEncoder(p->pdf, "UTF-8");
    for (int i = 0; i < RC_FONT_COUNT; i++) {
        size_t len = 0;
        const unsigned char *data = rc_fonts_file(p->fonts, (rc_font_role)i, &len);
        const char *name = rc_hpdf_load_ttf(p->pdf, &p->spare->source[i], data, len);
        if (name && !p->error) {
            snprintf(p->spare->name[i], sizeof p->spare->name[i], "%s", name);
            /* Direct lookups first: the font's widths and glyph map
             * (rc_hpdf_finish_font) look up every code point. */
            rc_hpdf_direct_cmap(p->pdf, name);
            p->def[i] = rc_hpdf_font_def(p->pdf, name);
            p->hf.font[i] = rc_hpdf_get_font(p->pdf, name);
        }
        if (p->error || !p->hf.font[i] || !p->def[i]) {
            pdf_report(p, rc_font_path((rc_font_role)i));
            return false;
        }
    }
    return true;
}

bool pdf_open(pdf *p, const rc_fonts *fonts, const char *output, rc_diag *diag)
{
    *p = (pdf){0};
    p->diag = diag;
    p->output = output;
    p->fonts = fonts;
    p->bottom = PAGE_H - MARGIN_BOTTOM;
    p->hf.has_glyph = has_glyph;
    p->hf.ctx = p;
    p->spare = rc_fonts_take(fonts, RC_SPARE_PDF);
    if (!(p->spare ? open_kept(p) : open_new(p)))
        return false;
    char producer[64];
    snprintf(producer, sizeof producer, "roofcast %s (libharu %s)", RC_VERSION, HPDF_GetVersion());
    HPDF_SetInfoAttr(p->pdf, HPDF_INFO_PRODUCER, producer);
    HPDF_SetInfoAttr(p->pdf, HPDF_INFO_CREATOR, "roofcast");
    return true;
}

/* Written as libharu writes it, rather than into libharu's memory stream
 * and then a copy: summary.pdf is never whole in memory. The sink reports
 * its own failures. */
bool pdf_write(pdf *p, const rc_sink *sink)
{
    for (int i = 0; i < RC_FONT_COUNT && !p->error && !p->oom; i++)
        if (!rc_hpdf_finish_font(p->hf.font[i], &p->spare->memo[i]))
            p->oom = true; /* the fonts are libharu's UTF-8 TrueType: only memory can fail */
    for (size_t i = 0; i < p->npages && !p->error && !p->oom; i++)
        pack_page(p, p->pages[i]);
    if (p->oom) {
        rc_error_at(p->diag, NULL, 0, "%s: out of memory", p->output);
        return false;
    }
    int saved = p->error ? 0 : rc_hpdf_save_to(p->pdf, sink->put, sink->ctx);
    if (saved < 0 && !p->error) {
        rc_error_at(p->diag, NULL, 0, "%s: out of memory", p->output);
        return false;
    }
    bool ok = saved > 0 && !p->error;
    if (!ok)
        pdf_report(p, NULL);
    return ok;
}

void pdf_put_in_buffer(void *ctx, const void *data, size_t len)
{
    rc_buffer_put(ctx, data, len);
}

char *pdf_save(pdf *p, size_t *len)
{
    rc_buffer b = {0};
    rc_sink sink = {pdf_put_in_buffer, &b};
    if (!pdf_write(p, &sink)) {
        free(b.data);
        return NULL;
    }
    char *out = rc_buffer_take(&b, len);
    if (!out)
        rc_error_at(p->diag, NULL, 0, "%s: out of memory", p->output);
    return out;
}

void pdf_close(pdf *p)
{
    if (p->spare && p->pdf && !p->error && !p->oom) {
        HPDF_FreeDoc(p->pdf); /* keeps the fonts and the encoder */
        rc_hpdf_set_error_data(p->pdf, NULL);
        rc_fonts_keep(p->fonts, RC_SPARE_PDF, p->spare, drop_spare);
    } else if (p->spare) {
        drop_spare(p->spare);
    }
    for (size_t i = 0; i < p->nowned; i++)
        free(p->owned[i]);
    for (int r = 0; r < RC_FONT_COUNT; r++)
        for (int i = 0; i < 256; i++)
            free(p->widths[r][i]);
    free(p->owned);
    free(p->pages);
    free(p->links);
    free(p->recalled);
}
