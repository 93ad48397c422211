/* test_pdf.c: the PDF renderer's text handling and its API (render_pdf.c,
 * paint_hpdf.c). The PDFs themselves are checked by tests/cli/pdf.sh, the
 * patches to libharu (hpdf_internal.c) by test_hpdf_internal.c. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hpdf.h>
#include <libxml/parser.h>

#include "util/buffer.h"
#include "util/diag.h"
#include "paint/font.h"
#include "paint/paint_hpdf.h"
#include "render/pdf_layout.h"
#include "render/render.h"
#include "results/results.h"
#include "results_of_run.h"

/* A font with every character but U+4E2D. */
static bool stub_has_glyph(void *ctx, rc_font_role role, unsigned long c)
{
    (void)ctx;
    (void)role;
    return c != 0x4E2D;
}

static void test_showable(void **state)
{
    (void)state;
    rc_hpdf_fonts fonts = {{NULL, NULL}, stub_has_glyph, NULL};
    static const struct {
        const char *in, *out;
    } cases[] = {
        {"6.90 \xC2\xB5s", "6.90 \xC2\xB5s"},                       /* µ kept */
        {"  a \t\n b  ", "a b"},                                     /* spaces collapsed, trimmed */
        {"\xCE\x91\xD0\x96 \xE2\x89\x88", "\xCE\x91\xD0\x96 \xE2\x89\x88"}, /* Α Ж ≈ */
        {"x\xE4\xB8\xADy", "x" RC_HPDF_REPLACEMENT "y"},             /* no glyph */
        {"\xF0\x9F\x9A\x80!", RC_HPDF_REPLACEMENT "!"},              /* outside the BMP */
        {"a\xFF" "b", "a" RC_HPDF_REPLACEMENT "b"},                  /* invalid UTF-8 */
        {"", ""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *got = rc_hpdf_showable(&fonts, RC_FONT_REGULAR, cases[i].in);
        assert_non_null(got);
        assert_string_equal(got, cases[i].out);
        free(got);
    }
}

static void test_utf8_put(void **state)
{
    (void)state;
    static const unsigned long cps[] = {0x41, 0xB5, 0x7FF, 0x800, 0x2248, 0xFFFD, 0x10000, 0x1F680};
    for (size_t i = 0; i < sizeof cps / sizeof cps[0]; i++) {
        char buf[8];
        char *end = rc_hpdf_utf8_put(buf, cps[i]);
        *end = '\0';
        const char *p = buf;
        assert_int_equal(rc_utf8_next(&p), cps[i]);
        assert_ptr_equal(p, end);
    }
}

static const char empty_results[] =
    "<roofcast-results format-version=\"1\"><gpus/><kernels/><rejected/></roofcast-results>";

/* Same tree, same bytes; an unknown kernel is reported, not rendered. */
static void test_render(void **state)
{
    (void)state;
    FILE *sink = fopen("/dev/null", "w");
    assert_non_null(sink);
    rc_diag *diag = rc_diag_new(sink, 0);
    rc_fonts *fonts = rc_fonts_new(diag);
    if (!fonts) { /* fonts-dejavu-core is missing: nothing to render with */
        rc_diag_free(diag);
        fclose(sink);
        skip();
    }
    xmlDocPtr doc = xmlReadMemory(empty_results, (int)strlen(empty_results), "t.xml", NULL, 0);
    assert_non_null(doc);
    size_t len1 = 0, len2 = 0;
    char *a = rc_render_pdf_summary(doc, fonts, &len1, diag);
    char *b = rc_render_pdf_summary(doc, fonts, &len2, diag);
    assert_non_null(a);
    assert_non_null(b);
    assert_true(len1 > 5 && memcmp(a, "%PDF-", 5) == 0);
    assert_int_equal(len1, len2);
    assert_memory_equal(a, b, len1);
    assert_int_equal(rc_diag_errors(diag), 0);

    size_t len = 0;
    assert_null(rc_render_pdf_kernel(doc, "nope", fonts, &len, NULL, NULL, diag));
    assert_int_equal(rc_diag_errors(diag), 1);
    const rc_diag_entry *e = rc_diag_entry_at(diag, rc_diag_count(diag) - 1);
    assert_string_equal(e->message, "nope.pdf: no kernel 'nope' in the results");

    free(a);
    free(b);
    xmlFreeDoc(doc);
    rc_fonts_free(fonts);
    rc_diag_free(diag);
    fclose(sink);
}

/* ---- summary.pdf's pages out of memory -------------------------------------- */

static void put(void *ctx, const void *data, size_t len)
{
    rc_buffer_put(ctx, data, len);
}

/* summary.pdf of every kernel in `doc`, made as a run makes it, with
 * finished pages written to `scratch` (or kept, with NULL). */
static char *summary_with(xmlDocPtr doc, const rc_fonts *fonts, FILE *scratch, size_t *len)
{
    rc_diag *diag = rc_diag_new(stderr, 0);
    rc_pdf_summary *s = rc_pdf_summary_new(fonts, scratch, diag);
    assert_non_null(s);
    xmlNodePtr root = xmlDocGetRootElement(doc), gpus = rc_results_child(root, "gpus");
    for (xmlNodePtr k = rc_results_child(root, "kernels")->children; k; k = k->next)
        if (k->type == XML_ELEMENT_NODE)
            rc_pdf_summary_add(s, gpus, k);
    rc_buffer b = {0};
    rc_sink sink = {put, &b};
    assert_true(rc_pdf_summary_finish(s, doc, &sink));
    rc_pdf_summary_free(s);
    assert_int_equal(rc_diag_errors(diag), 0);
    rc_diag_free(diag);
    char *out = rc_buffer_take(&b, len);
    assert_non_null(out);
    return out;
}

/* Pages sealed into a scratch file make a different file (the drawing
 * moves into a second content stream per page) that is the same on every
 * run; a scratch file that cannot be written (/dev/full: every flush
 * fails) leaves every page in memory, byte for byte as with none. The
 * pages' text is checked by tests/cli/pdf.sh. */
static void summary_pages_leave_memory(void **state)
{
    (void)state;
    xmlDocPtr doc = results_of_run("kernels", NULL, 0);
    rc_fonts *fonts = rc_fonts_new(NULL);
    assert_non_null(fonts);

    size_t kept_len = 0, full_len = 0, sealed_len = 0, again_len = 0;
    char *kept = summary_with(doc, fonts, NULL, &kept_len);
    FILE *full = fopen("/dev/full", "w+b");
    assert_non_null(full);
    char *full_out = summary_with(doc, fonts, full, &full_len);
    fclose(full);
    FILE *scratch = tmpfile(), *scratch2 = tmpfile();
    assert_non_null(scratch);
    assert_non_null(scratch2);
    char *sealed = summary_with(doc, fonts, scratch, &sealed_len);
    char *again = summary_with(doc, fonts, scratch2, &again_len);
    assert_true(ftell(scratch) > 1000); /* the pages went there */
    fclose(scratch);
    fclose(scratch2);

    assert_int_equal(full_len, kept_len);
    assert_memory_equal(full_out, kept, kept_len);
    /* Kept in memory, each of the 8 kernel pages (taken as drawn in the
     * kernel's PDF) still gets its footer in a content stream of its own:
     * drawn after the deflated operators in theirs, it was lost. */
    size_t arrays = 0;
    for (size_t i = 0; i + 11 <= kept_len; i++)
        arrays += memcmp(kept + i, "/Contents [", 11) == 0;
    assert_int_equal(arrays, 8);
    assert_true(sealed_len != kept_len || memcmp(sealed, kept, kept_len) != 0);
    assert_true(sealed_len > 5 && memcmp(sealed, "%PDF-", 5) == 0);
    assert_true(sealed_len > 6 && memcmp(sealed + sealed_len - 6, "%%EOF\n", 6) == 0);
    assert_int_equal(again_len, sealed_len);
    assert_memory_equal(again, sealed, sealed_len);
    free(kept);
    free(full_out);
    free(sealed);
    free(again);
    rc_fonts_free(fonts);
    xmlFreeDoc(doc);
}

/* ---- a kernel's pages moved into summary.pdf ------------------------------- */

static uint32_t u32_at(const char *p)
{
    const unsigned char *u = (const unsigned char *)p;
    return (uint32_t)u[0] | (uint32_t)u[1] << 8 | (uint32_t)u[2] << 16 | (uint32_t)u[3] << 24;
}

/* The pages a kernel's PDF gives are the pages made alone for a kernel
 * whose PDF is up to date, byte for byte: so summary.pdf is the same
 * whichever made them (and .roofcast-cache may keep them). Their bytes
 * hold the bookmark's title, the pages and the glyphs used (render_pdf_pages.c). */
static void kernel_pages_are_its_pdfs(void **state)
{
    (void)state;
    xmlDocPtr doc = results_of_run("kernels", NULL, 0);
    rc_fonts *fonts = rc_fonts_new(NULL);
    assert_non_null(fonts);
    rc_diag *diag = rc_diag_new(stderr, 0);
    xmlNodePtr root = xmlDocGetRootElement(doc), gpus = rc_results_child(root, "gpus");
    size_t kernels = 0;
    for (xmlNodePtr k = rc_results_child(root, "kernels")->children; k; k = k->next) {
        if (k->type != XML_ELEMENT_NODE)
            continue;
        kernels++;
        char *id = (char *)xmlGetProp(k, (const xmlChar *)"id");
        char *name = (char *)xmlGetProp(k, (const xmlChar *)"name");
        size_t len = 0, with_len = 0, alone_len = 0;
        char *with = NULL;
        char *file = rc_render_pdf_kernel(doc, id, fonts, &len, &with, &with_len, diag);
        char *alone = rc_render_pdf_pages(gpus, k, fonts, &alone_len, diag);
        assert_non_null(file);
        assert_non_null(with);
        assert_non_null(alone);
        assert_int_equal(with_len, alone_len);
        assert_memory_equal(with, alone, alone_len);
        assert_memory_equal(with, "rcpages1", 8);
        uint32_t tlen = u32_at(with + 8);
        assert_int_equal(tlen, strlen(name));
        assert_memory_equal(with + 12, name, tlen);
        uint32_t pages = u32_at(with + 12 + tlen);
        assert_true(pages == 1 || pages == 2);
        free(id);
        free(name);
        free(file);
        free(with);
        free(alone);
    }
    assert_int_equal(kernels, 4);
    assert_int_equal(rc_diag_errors(diag), 0);
    rc_diag_free(diag);
    rc_fonts_free(fonts);
    xmlFreeDoc(doc);
}

/* Pages' bytes cut short, with a byte too many or of another kind are
 * refused, reported, and summary.pdf is then not made. */
static void damaged_pages_are_refused(void **state)
{
    (void)state;
    xmlDocPtr doc = results_of_run("kernels", NULL, 0);
    rc_fonts *fonts = rc_fonts_new(NULL);
    assert_non_null(fonts);
    xmlNodePtr root = xmlDocGetRootElement(doc), gpus = rc_results_child(root, "gpus");
    xmlNodePtr k = rc_results_child(root, "kernels")->children;
    while (k->type != XML_ELEMENT_NODE)
        k = k->next;
    size_t len = 0;
    char *pages = rc_render_pdf_pages(gpus, k, fonts, &len, NULL);
    assert_non_null(pages);
    char *longer = malloc(len + 1);
    memcpy(longer, pages, len);
    longer[len] = 'x';
    char *other = malloc(len);
    memcpy(other, pages, len);
    other[7] = '2'; /* "rcpages2" */
    const struct {
        const char *bytes;
        size_t len;
    } bad[] = {{pages, len - 1}, {pages, 20}, {pages, 0}, {longer, len + 1}, {other, len}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        FILE *sink = fopen("/dev/null", "w");
        rc_diag *diag = rc_diag_new(sink, 0);
        rc_pdf_summary *s = rc_pdf_summary_new(fonts, NULL, diag);
        assert_true(rc_pdf_summary_add_pages(s, pages, len));
        assert_false(rc_pdf_summary_add_pages(s, bad[i].bytes, bad[i].len));
        assert_int_equal(rc_diag_errors(diag), 1);
        assert_string_equal(rc_diag_entry_at(diag, 0)->message,
                            "summary.pdf: a kernel's pages are not whole (a bug)");
        rc_buffer b = {0};
        rc_sink out = {put, &b};
        assert_false(rc_pdf_summary_finish(s, doc, &out));
        free(b.data);
        rc_pdf_summary_free(s);
        rc_diag_free(diag);
        fclose(sink);
    }
    free(pages);
    free(longer);
    free(other);
    rc_fonts_free(fonts);
    xmlFreeDoc(doc);
}

/* ---- the layout's work on long text ------------------------------------ */

/* `unit` `times` times over; the caller frees. */
static char *repeat(const char *unit, size_t times)
{
    size_t n = strlen(unit);
    char *s = malloc(n * times + 1);
    assert_non_null(s);
    for (size_t i = 0; i < times; i++)
        memcpy(s + i * n, unit, n);
    s[n * times] = '\0';
    return s;
}

/* The characters the layout measures to set `text` in a column 300 pt
 * wide from the top of a page, with nothing below (as a page is measured
 * before it is drawn): *h is the height it takes. */
static unsigned long long work_for(pdf *p, const char *text, double *h)
{
    pdf_style st = {RC_FONT_REGULAR, 8, PDF_INK};
    unsigned long long before = p->measured;
    *h = pdf_measure(p, &st, 300, text);
    return p->measured - before;
}

/* A text longer than a page costs the layout what a page of it costs,
 * whatever its length: words, or one word that must be broken. (Once,
 * every line was found by measuring all of the text after it, and a page
 * was measured at every font scale: 7 s for a note of 1.5 MB.) */
static void long_text_costs_a_page(void **state)
{
    (void)state;
    FILE *sink = fopen("/dev/null", "w");
    assert_non_null(sink);
    rc_diag *diag = rc_diag_new(sink, 0);
    rc_fonts *fonts = rc_fonts_new(diag);
    if (!fonts) {
        rc_diag_free(diag);
        fclose(sink);
        skip();
    }
    pdf p;
    assert_true(pdf_open(&p, fonts, "t.pdf", diag));
    static const char *const units[] = {"word ", "wxyz"};
    for (size_t u = 0; u < 2; u++) {
        char *a = repeat(units[u], 20000), *b = repeat(units[u], 200000);
        double ha = 0, hb = 0;
        unsigned long long wa = work_for(&p, a, &ha), wb = work_for(&p, b, &hb);
        /* 80 KB is several pages of 8 pt text in 300 pt: a page and a
         * line is measured, some 7,000 characters. */
        assert_true(ha > PAGE_H && ha < PAGE_H + 20);
        assert_true(hb == ha);
        assert_true(wa == wb);
        assert_true(wa > 5000 && wa < 12000);
        /* Ten lines' room: ten lines' work. */
        p.bottom = 10 * 8 * 1.22 + 0.01;
        pdf_style st = {RC_FONT_REGULAR, 8, PDF_INK};
        unsigned long long before = p.measured;
        assert_true(pdf_paragraph(&p, &st, 0, 0, 300, PDF_LEFT, b) == 10 * 8 * 1.22);
        assert_true(p.measured - before < wa / 8);
        p.bottom = INFINITY;
        free(a);
        free(b);
    }
    pdf_close(&p);
    assert_int_equal(rc_diag_errors(diag), 0);
    rc_fonts_free(fonts);
    rc_diag_free(diag);
    fclose(sink);
}

/* pdf_remember keeps each (node, attr) apart, through the table's growth,
 * until strings are freed: then nothing is recalled. */
static void texts_recalled_until_dropped(void **state)
{
    (void)state;
    rc_fonts *fonts = rc_fonts_new(NULL);
    assert_non_null(fonts);
    pdf p;
    assert_true(pdf_open(&p, fonts, "t.pdf", NULL));
    static const char *const attrs[] = {"name", "id"};
    static char nodes[1000];
    size_t from = p.nowned;
    for (size_t i = 0; i < 1000; i++)
        for (size_t a = 0; a < 2; a++) {
            char text[32];
            snprintf(text, sizeof text, "%zu %s", i, attrs[a]);
            assert_null(pdf_recall(&p, &nodes[i], attrs[a]));
            pdf_remember(&p, &nodes[i], attrs[a], pdf_join(&p, text, NULL));
        }
    for (size_t i = 0; i < 1000; i++)
        for (size_t a = 0; a < 2; a++) {
            char text[32];
            snprintf(text, sizeof text, "%zu %s", i, attrs[a]);
            const char *got = pdf_recall(&p, &nodes[i], attrs[a]);
            assert_non_null(got);
            assert_string_equal(got, text);
        }
    assert_null(pdf_recall(&p, &nodes[0], NULL));
    pdf_drop_owned(&p, from);
    for (size_t i = 0; i < 1000; i++)
        assert_null(pdf_recall(&p, &nodes[i], attrs[0]));
    pdf_close(&p);
    rc_fonts_free(fonts);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_showable),
        cmocka_unit_test(test_utf8_put),
        cmocka_unit_test(test_render),
        cmocka_unit_test(summary_pages_leave_memory),
        cmocka_unit_test(kernel_pages_are_its_pdfs),
        cmocka_unit_test(damaged_pages_are_refused),
        cmocka_unit_test(long_text_costs_a_page),
        cmocka_unit_test(texts_recalled_until_dropped),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
