/* render_pdf_pages.c: <kernel>.pdf, and the kernel's pages as bytes that
 * summary.pdf takes as they are (render_pdf_summary.c): written, checked
 * and read back. See render.h and render_pdf.h. */
#include "render/render_pdf.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "render/render.h"
#include "results/results.h"
#include "util/buffer.h"

#define X(s) ((const xmlChar *)(s))

static xmlNodePtr find_kernel(xmlDocPtr doc, const char *id)
{
    xmlNodePtr kernels = pr_child(xmlDocGetRootElement(doc), "kernels");
    for (xmlNodePtr k = kernels ? kernels->children : NULL; k; k = k->next)
        if (pr_is_element(k, "kernel") && pr_attr_is(k, "id", id))
            return k;
    return NULL;
}

/* ---- a kernel's pages, moved into summary.pdf ------------------------------
 *
 * The pages of a kernel are laid out and drawn once, in its own PDF (or in
 * a document only for them when that file is up to date), and taken into
 * summary.pdf as drawn (pdf_layout.h): the same pages, without the layout
 * twice, and what a later run keeps of a kernel that did not change
 * (.roofcast-cache). Their bytes, all numbers little-endian:
 *
 *   "rcpages1"  u32 title length, the bookmark's title (UTF-8)
 *   u32 pages, then per page: u8 fonts, each font's role (u8),
 *                             u32 length, the deflated operators
 *   per font role (ORDER RC_FONT): u32 glyphs, each glyph id (u16)
 */

#define PAGES_MAGIC "rcpages1"
#define PAGES_MAX_FONTS 8

static void put_u32(rc_buffer *b, size_t v)
{
    char c[4] = {(char)(v & 0xFF), (char)((v >> 8) & 0xFF), (char)((v >> 16) & 0xFF),
                 (char)((v >> 24) & 0xFF)};
    rc_buffer_put(b, c, 4);
}

/* Every page of p as bytes (malloc'd), `title` their bookmark's; NULL
 * when out of memory or a page's fonts are not p's. With `hold`, each
 * page keeps the operators so deflated, and what is drawn after (the
 * footer) goes into a stream of its own: p's file then deflates each page
 * once, not again when saved. */
static char *pages_bytes(pdf *p, const char *title, bool hold, size_t *len)
{
    rc_buffer b = {0};
    bool ok = !p->error && !p->oom;
    rc_buffer_put(&b, PAGES_MAGIC, strlen(PAGES_MAGIC));
    put_u32(&b, strlen(title));
    rc_buffer_puts(&b, title);
    put_u32(&b, p->npages);
    for (size_t i = 0; ok && i < p->npages; i++) {
        uint8_t roles[PAGES_MAX_FONTS];
        size_t nroles = pdf_page_fonts(p, p->pages[i], roles, PAGES_MAX_FONTS), plen = 0;
        unsigned char *packed = nroles <= PAGES_MAX_FONTS ? pdf_page_packed(p->pages[i], &plen)
                                                          : NULL;
        ok = packed != NULL && (!hold || pdf_hold_packed(p->pages[i], packed, plen));
        if (ok) {
            char n = (char)nroles;
            rc_buffer_put(&b, &n, 1);
            rc_buffer_put(&b, (const char *)roles, nroles);
            put_u32(&b, plen);
            rc_buffer_put(&b, (const char *)packed, plen);
        }
        free(packed);
    }
    for (int r = 0; ok && r < RC_FONT_COUNT; r++) {
        size_t n = 0;
        uint16_t *g = pdf_glyphs_used(p, (rc_font_role)r, &n);
        ok = g != NULL;
        put_u32(&b, ok ? n : 0);
        for (size_t k = 0; ok && k < n; k++) {
            char c[2] = {(char)(g[k] & 0xFF), (char)(g[k] >> 8)};
            rc_buffer_put(&b, c, 2);
        }
        free(g);
    }
    char *out = ok ? rc_buffer_take(&b, len) : NULL;
    if (!ok)
        free(b.data);
    return out;
}

/* Kernel k's pages drawn in p (before their footers) as bytes in *pages
 * (NULL there after reporting), each page then holding them (`hold`,
 * pages_bytes). */
static void keep_pages(pdf *p, xmlNodePtr k, bool hold, char **pages, size_t *pages_len)
{
    *pages = pages_bytes(p, pr_kernel_name(p, k), hold, pages_len);
    if (!*pages) {
        p->oom = true;
        rc_error_at(p->diag, NULL, 0, "%s: its pages for summary.pdf: out of memory", p->output);
    }
}

char *rc_render_pdf_kernel(xmlDocPtr doc, const char *kernel_id, const rc_fonts *fonts,
                           size_t *len, char **pages, size_t *pages_len, rc_diag *diag)
{
    char output[256];
    snprintf(output, sizeof output, "%s.pdf", kernel_id);
    char *out = NULL;
    if (pages)
        *pages = NULL;
    pdf p;
    if (!pdf_open(&p, fonts, output, diag))
        goto end;
    p.gpus = pr_child(xmlDocGetRootElement(doc), "gpus");
    xmlNodePtr k = find_kernel(doc, kernel_id);
    if (!k) {
        rc_error_at(diag, NULL, 0, "%s: no kernel '%s' in the results", output, kernel_id);
        goto end;
    }
    const char *name = pr_kernel_name(&p, k);
    HPDF_SetInfoAttr(p.pdf, HPDF_INFO_TITLE, pdf_join(&p, name, ": execution time estimates", NULL));
    HPDF_SetInfoAttr(p.pdf, HPDF_INFO_SUBJECT,
                     pr_tx(&p, pr_child(k, "summary"), NULL, "the kernel's summary"));
    pr_kernel_page(&p, k);
    /* Made whether or not the caller takes them: the pages deflated once,
     * and the file the same bytes either way. */
    char *made = NULL;
    size_t made_len = 0;
    keep_pages(&p, k, true, &made, &made_len);
    if (pages) {
        *pages = made;
        *pages_len = made_len;
    } else {
        free(made);
    }
    pr_footers(&p, false);
    out = pdf_save(&p, len);
end:
    pdf_close(&p);
    return out;
}

char *rc_render_pdf_pages(xmlNodePtr gpus, xmlNodePtr kernel, const rc_fonts *fonts, size_t *len,
                          rc_diag *diag)
{
    char *pages = NULL;
    pdf p;
    if (pdf_open(&p, fonts, "summary.pdf", diag)) {
        p.gpus = gpus;
        pr_kernel_page(&p, kernel);
        keep_pages(&p, kernel, false, &pages, len);
    }
    pdf_close(&p);
    return pages;
}

/* Reads pages' bytes (pages_bytes) front to back. */
typedef struct {
    const unsigned char *at, *end;
    bool bad;
} reader;

static const unsigned char *take(reader *rd, size_t n)
{
    if (rd->bad || (size_t)(rd->end - rd->at) < n) {
        rd->bad = true;
        return NULL;
    }
    const unsigned char *got = rd->at;
    rd->at += n;
    return got;
}

static size_t take_u32(reader *rd)
{
    const unsigned char *c = take(rd, 4);
    return c ? (size_t)c[0] | (size_t)c[1] << 8 | (size_t)c[2] << 16 | (size_t)c[3] << 24 : 0;
}

/* The pages of `rd` added to p, their glyphs marked; their title returned
 * (the caller frees it), or NULL when the bytes are not whole. */
static char *read_pages(pdf *p, reader *rd)
{
    const unsigned char *magic = take(rd, strlen(PAGES_MAGIC));
    if (!magic || memcmp(magic, PAGES_MAGIC, strlen(PAGES_MAGIC)) != 0)
        return NULL;
    size_t tlen = take_u32(rd);
    const unsigned char *t = take(rd, tlen);
    char *title = t ? malloc(tlen + 1) : NULL;
    if (title) {
        memcpy(title, t, tlen);
        title[tlen] = '\0';
    }
    size_t npages = take_u32(rd);
    for (size_t i = 0; i < npages && !rd->bad; i++) {
        const unsigned char *n = take(rd, 1);
        const unsigned char *roles = n ? take(rd, *n) : NULL;
        size_t plen = take_u32(rd);
        const unsigned char *packed = take(rd, plen);
        if (packed && !pdf_add_packed_page(p, packed, plen, roles, *n))
            return NULL;
    }
    for (int r = 0; r < RC_FONT_COUNT && !rd->bad; r++) {
        size_t n = take_u32(rd);
        const unsigned char *g = take(rd, 2 * n);
        for (size_t k = 0; g && k < n; k++)
            pdf_mark_glyph(p, (rc_font_role)r, (unsigned)(g[2 * k] | g[2 * k + 1] << 8));
    }
    if (!title || rd->bad || rd->at != rd->end) {
        free(title);
        return NULL;
    }
    return title;
}

char *pr_add_pages(pdf *p, const char *pages, size_t len)
{
    reader rd = {(const unsigned char *)pages, (const unsigned char *)pages + len, false};
    return read_pages(p, &rd);
}

/* Whether `packed` is one whole zlib stream (a page's deflated
 * operators): it inflates to its end and nothing follows. */
static bool inflates_whole(const unsigned char *packed, size_t len)
{
    z_stream z = {0};
    if (len == 0 || len > UINT_MAX || inflateInit(&z) != Z_OK)
        return false;
    unsigned char out[16384];
    z.next_in = (Bytef *)packed; /* zlib does not write it */
    z.avail_in = (uInt)len;
    int rc;
    do {
        z.next_out = out;
        z.avail_out = sizeof out;
        rc = inflate(&z, Z_NO_FLUSH);
    } while (rc == Z_OK);
    bool whole = rc == Z_STREAM_END && z.avail_in == 0;
    inflateEnd(&z);
    return whole;
}

bool rc_render_pdf_pages_whole(const char *pages, size_t len)
{
    reader rd = {(const unsigned char *)pages, (const unsigned char *)pages + len, false};
    const unsigned char *magic = take(&rd, strlen(PAGES_MAGIC));
    if (!magic || memcmp(magic, PAGES_MAGIC, strlen(PAGES_MAGIC)) != 0)
        return false;
    size_t tlen = take_u32(&rd);
    const unsigned char *t = take(&rd, tlen);
    char *title = t && tlen > 0 && !memchr(t, '\0', tlen) ? malloc(tlen + 1) : NULL;
    if (title) {
        memcpy(title, t, tlen);
        title[tlen] = '\0';
    }
    bool utf8 = title && xmlCheckUTF8((const xmlChar *)title); /* the bookmark's text */
    free(title);
    if (!utf8)
        return false;
    size_t npages = take_u32(&rd);
    if (npages == 0)
        return false;
    for (size_t i = 0; i < npages && !rd.bad; i++) {
        const unsigned char *n = take(&rd, 1);
        const unsigned char *roles = n && *n <= PAGES_MAX_FONTS ? take(&rd, *n) : NULL;
        for (size_t k = 0; roles && k < *n; k++)
            if (roles[k] >= RC_FONT_COUNT)
                return false;
        size_t plen = roles ? take_u32(&rd) : 0;
        const unsigned char *packed = roles ? take(&rd, plen) : NULL;
        if (!packed || !inflates_whole(packed, plen))
            return false;
    }
    for (int r = 0; r < RC_FONT_COUNT && !rd.bad; r++) {
        size_t n = take_u32(&rd);
        take(&rd, n > len ? len + 1 : 2 * n);
    }
    return !rd.bad && rd.at == rd.end;
}

