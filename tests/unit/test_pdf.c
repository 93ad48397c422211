/* test_pdf.c: the PDF renderer's text handling and its API (render_pdf.c,
 * paint_hpdf.c). The PDFs themselves are checked by tests/cli/pdf.sh. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>

#include "diag.h"
#include "font.h"
#include "paint_hpdf.h"
#include "render.h"

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
    assert_null(rc_render_pdf_kernel(doc, "nope", fonts, &len, diag));
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_showable),
        cmocka_unit_test(test_utf8_put),
        cmocka_unit_test(test_render),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
