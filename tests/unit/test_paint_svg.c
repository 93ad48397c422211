/* test_paint_svg.c: the SVG painter (paint_svg.c) on the charts of a real
 * run: well-formed, every glyph of the text drawn (one <use> per glyph
 * with an outline, in a group scaled to the text's size, at its advance),
 * each outline defined once and used, the outlines FreeType's. How the SVG
 * looks is checked in a browser (tests/cli/browser.sh). Needs the DejaVu
 * fonts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

#include "paint/painter.h"
#include "render/chart.h"
#include "results/results.h"
#include "results_of_run.h"

#define X(s) ((const xmlChar *)(s))

static xmlNodePtr child(xmlNodePtr n, const char *name)
{
    for (xmlNodePtr c = n ? n->children : NULL; c; c = c->next)
        if (c->type == XML_ELEMENT_NODE && strcmp((const char *)c->name, name) == 0)
            return c;
    return NULL;
}

/* The glyphs with an outline that the chart's text items draw. */
static size_t glyphs_drawn(const rc_chart *chart, const rc_fonts *fonts, size_t *texts)
{
    size_t n = 0;
    *texts = 0;
    for (size_t i = 0; i < rc_canvas_count(chart); i++) {
        const rc_canvas_item *it = rc_canvas_item_at(chart, i);
        if (it->kind != RC_ITEM_TEXT)
            continue;
        ++*texts;
        for (const char *p = it->text; *p;) {
            rc_glyph g = rc_fonts_glyph(fonts, it->font, rc_utf8_next(&p));
            n += *rc_fonts_glyph_outline(fonts, it->font, g.glyph) != '\0';
        }
    }
    return n;
}

static void check_chart(rc_chart *chart, const rc_fonts *fonts)
{
    size_t len = 0;
    char *svg = NULL;
    rc_paint(&rc_painter_svg, chart, &(rc_paint_target){.fonts = fonts}, &svg, &len);
    assert_non_null(svg);
    assert_int_equal(strlen(svg), len);
    xmlDocPtr doc = xmlReadMemory(svg, (int)len, "chart.svg", NULL, XML_PARSE_NONET);
    assert_non_null(doc);
    xmlNodePtr root = xmlDocGetRootElement(doc), defs = child(root, "defs");
    assert_string_equal((const char *)root->name, "svg");
    assert_non_null(defs);

    /* Each definition once; count the uses of each. */
    char ids[512][16];
    int uses[512] = {0};
    size_t nids = 0;
    for (xmlNodePtr d = defs->children; d; d = d->next) {
        if (d->type != XML_ELEMENT_NODE)
            continue;
        xmlChar *id = xmlGetProp(d, X("id"));
        assert_non_null(id);
        for (size_t k = 0; k < nids; k++)
            assert_string_not_equal(ids[k], (const char *)id);
        assert_true(nids < 512);
        snprintf(ids[nids++], sizeof ids[0], "%s", (const char *)id);
        xmlFree(id);
    }
    size_t texts = 0, expected = glyphs_drawn(chart, fonts, &texts), found = 0, groups = 0;
    xmlNodePtr body = child(root, "g");
    assert_non_null(body);
    for (xmlNodePtr g = body->children; g; g = g->next) {
        if (g->type != XML_ELEMENT_NODE || strcmp((const char *)g->name, "g") != 0)
            continue;
        groups++;
        for (xmlNodePtr u = g->children; u; u = u->next) {
            xmlChar *href = xmlGetNsProp(u, X("href"), X("http://www.w3.org/1999/xlink"));
            assert_non_null(href);
            assert_int_equal(href[0], '#');
            size_t k = 0;
            while (k < nids && strcmp(ids[k], (const char *)href + 1) != 0)
                k++;
            assert_true(k < nids); /* defined */
            uses[k]++;
            found++;
            xmlFree(href);
        }
    }
    assert_int_equal(groups, texts);
    assert_int_equal(found, expected);
    for (size_t k = 0; k < nids; k++)
        assert_true(uses[k] > 0); /* no outline defined and not drawn */
    xmlFreeDoc(doc);
    free(svg);
}

static void charts_draw_every_glyph_once_defined(void **state)
{
    (void)state;
    xmlDocPtr doc = results_of_run("kernels", NULL, 0);
    rc_fonts *fonts = rc_fonts_new(NULL);
    assert_non_null(fonts);
    xmlNodePtr root = xmlDocGetRootElement(doc);
    xmlNodePtr kernel = child(child(root, "kernels"), "kernel"), gpus = child(root, "gpus");
    rc_chart *charts[3] = {rc_chart_new_roofline(kernel, gpus, fonts),
                           rc_chart_new_time(kernel, gpus, fonts),
                           rc_chart_new_overview(root, fonts)};
    for (int i = 0; i < 3; i++) {
        assert_non_null(charts[i]);
        check_chart(charts[i], fonts);
        rc_chart_free(charts[i]);
    }
    rc_fonts_free(fonts);
    xmlFreeDoc(doc);
}

/* The outlines are FreeType's, unscaled: DejaVu Sans's 'l' is a bar from
 * x 193 to 377, 1556 units high. */
static void glyph_outlines_are_freetypes(void **state)
{
    (void)state;
    rc_fonts *fonts = rc_fonts_new(NULL);
    assert_non_null(fonts);
    /* DejaVu Sans: 2048 units per em; 'l' a plain bar; a space no outline. */
    assert_int_equal(rc_fonts_units_per_em(fonts, RC_FONT_REGULAR), 2048);
    rc_glyph l = rc_fonts_glyph(fonts, RC_FONT_REGULAR, 'l');
    assert_string_equal(rc_fonts_glyph_outline(fonts, RC_FONT_REGULAR, l.glyph),
                        "M193 1556L377 1556L377 0L193 0L193 1556Z");
    rc_glyph space = rc_fonts_glyph(fonts, RC_FONT_REGULAR, ' ');
    assert_string_equal(rc_fonts_glyph_outline(fonts, RC_FONT_REGULAR, space.glyph), "");
    assert_null(rc_fonts_glyph_outline(fonts, RC_FONT_REGULAR,
                                       rc_fonts_glyph_count(fonts, RC_FONT_REGULAR)));
    rc_fonts_free(fonts);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(charts_draw_every_glyph_once_defined),
        cmocka_unit_test(glyph_outlines_are_freetypes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
