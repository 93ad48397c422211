/* test_chart.c: the chart descriptions (chart.h), built from the results
 * tree of a real run: what they show (roofs, ridge points, the kernel's
 * points, bars) and that their text stays inside the chart without
 * colliding, with 5 and with all 12 bundled GPUs and with long names. The
 * description is tested, not pixels. Needs the DejaVu fonts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cairo.h>
#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_ADVANCES_H
#include <libxml/parser.h>
#include <libxml/tree.h>

#include "paint/painter.h"
#include "render/chart.h"
#include "results/results.h"
#include "results_of_run.h"
#include "cli/roofcast.h"

static const char *const reference_gpus[] = {"titan-black", "titan-x", "titan-v",
                                             "rtx-2080-ti", "rtx-4070"};

typedef struct {
    xmlDocPtr doc;
    rc_fonts *fonts;
} fixture;

static int setup_reference(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    f->doc = results_of_run("kernels/maximum_kernel.xml", reference_gpus, 5);
    f->fonts = rc_fonts_new(NULL);
    assert_non_null(f->fonts);
    *state = f;
    return 0;
}

static int setup_all(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    f->doc = results_of_run("kernels", NULL, 0);
    f->fonts = rc_fonts_new(NULL);
    assert_non_null(f->fonts);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    xmlFreeDoc(f->doc);
    rc_fonts_free(f->fonts);
    free(f);
    return 0;
}

static xmlNodePtr root_of(const fixture *f) { return xmlDocGetRootElement(f->doc); }
static xmlNodePtr gpus_of(const fixture *f) { return rc_results_child(root_of(f), "gpus"); }

static xmlNodePtr kernel_of(const fixture *f, const char *id)
{
    for (xmlNodePtr k = rc_results_child(root_of(f), "kernels")->children; k; k = k->next) {
        if (k->type != XML_ELEMENT_NODE)
            continue;
        xmlChar *v = xmlGetProp(k, (const xmlChar *)"id");
        bool match = strcmp((const char *)v, id) == 0;
        xmlFree(v);
        if (match)
            return k;
    }
    fail_msg("no kernel %s", id);
    return NULL;
}

static void assert_close(double got, double want)
{
    if (!(fabs(got - want) <= 1e-9 * fabs(want)))
        fail_msg("%.17g is not %.17g", got, want);
}

/* The items of `role` that are not the grey casing of a light colour. */
static size_t count_role(const rc_chart *c, rc_item_role role)
{
    size_t n = 0;
    for (size_t i = 0; i < rc_canvas_count(c); i++) {
        const rc_canvas_item *it = rc_canvas_item_at(c, i);
        n += it->role == role && !(it->stroke_width >= 3.0);
    }
    return n;
}

static const rc_canvas_item *find(const rc_chart *c, rc_item_role role, int series)
{
    for (size_t i = 0; i < rc_canvas_count(c); i++) {
        const rc_canvas_item *it = rc_canvas_item_at(c, i);
        if (it->role == role && it->series == series && !(it->stroke_width >= 3.0))
            return it;
    }
    fail_msg("no item of role %d for series %d", role, series);
    return NULL;
}

/* Every text lies inside the chart and no two texts overlap: the
 * legibility rules, on the description's own measurements. */
static void assert_text_clean(const rc_chart *c)
{
    double w = rc_chart_width(c), h = rc_chart_height(c);
    size_t n = rc_canvas_count(c);
    for (size_t i = 0; i < n; i++) {
        const rc_canvas_item *a = rc_canvas_item_at(c, i);
        if (a->kind != RC_ITEM_TEXT)
            continue;
        double shift = a->anchor == RC_ANCHOR_START ? 0 : a->anchor == RC_ANCHOR_MIDDLE ? 0.5 : 1;
        double ax0, ax1, ay0, ay1;
        if (a->angle == 0) {
            ax0 = a->x - shift * a->width, ax1 = ax0 + a->width;
            ay0 = a->y - 0.75 * a->size, ay1 = a->y + 0.2 * a->size;
        } else {
            ay1 = a->y + shift * a->width, ay0 = ay1 - a->width;
            ax0 = a->x - 0.75 * a->size, ax1 = a->x + 0.2 * a->size;
        }
        if (ax0 < -0.01 || ax1 > w + 0.01 || ay0 < -0.01 || ay1 > h + 0.01)
            fail_msg("text '%s' (%g..%g, %g..%g) leaves the %g x %g chart", a->text, ax0, ax1, ay0,
                     ay1, w, h);
        for (size_t j = i + 1; j < n; j++) {
            const rc_canvas_item *b = rc_canvas_item_at(c, j);
            if (b->kind != RC_ITEM_TEXT || b->angle != 0 || a->angle != 0)
                continue;
            double bs = b->anchor == RC_ANCHOR_START ? 0 : b->anchor == RC_ANCHOR_MIDDLE ? 0.5 : 1;
            double bx0 = b->x - bs * b->width, bx1 = bx0 + b->width;
            double by0 = b->y - 0.75 * b->size, by1 = b->y + 0.2 * b->size;
            if (ax0 < bx1 && bx0 < ax1 && ay0 < by1 && by0 < ay1)
                fail_msg("texts '%s' and '%s' overlap", a->text, b->text);
        }
    }
}

/* ---- the roofline -------------------------------------------------------- */

static void roofline_has_one_roof_per_gpu(void **state)
{
    fixture *f = *state;
    rc_chart *c = rc_chart_new_roofline(kernel_of(f, "maximum_kernel"), gpus_of(f), f->fonts);
    assert_non_null(c);
    assert_int_equal(count_role(c, RC_ROLE_ROOF), 5);
    assert_int_equal(count_role(c, RC_ROLE_RIDGE), 5);
    /* GPUs in the tree's order, by FP32 peak: TITAN Black first. */
    const rc_canvas_item *roof = find(c, RC_ROLE_ROOF, 0);
    assert_close(roof->data[0], 5.12e12 / 336e9); /* 15.238... FLOP/byte */
    assert_close(roof->data[1], 5.12e12);
    assert_int_equal(roof->npoints, 3);
    /* The knee of the path is where the ridge marker is. */
    const rc_canvas_item *ridge = find(c, RC_ROLE_RIDGE, 0);
    assert_close(ridge->data[0], 5.12e12 / 336e9);
    assert_true(fabs(ridge->x - roof->points[2]) < 1e-9 && fabs(ridge->y - roof->points[3]) < 1e-9);
    /* The slope rises 45 degrees on equal decades: y falls as x grows. */
    assert_true(roof->points[1] > roof->points[3]);
    assert_true(fabs(roof->points[3] - roof->points[5]) < 1e-9); /* flat ceiling */
    /* RTX 4070: 29 TFLOP/s over 504 GB/s. */
    assert_close(find(c, RC_ROLE_ROOF, 4)->data[0], 29e12 / 504e9);
    rc_chart_free(c);
}

static void roofline_points_at_the_kernels_intensity(void **state)
{
    fixture *f = *state;
    rc_chart *c = rc_chart_new_roofline(kernel_of(f, "maximum_kernel"), gpus_of(f), f->fonts);
    assert_int_equal(count_role(c, RC_ROLE_POINT_ROOF), 5);
    assert_int_equal(count_role(c, RC_ROLE_POINT_LAUNCH), 5);
    const rc_canvas_item *first = find(c, RC_ROLE_POINT_ROOF, 0);
    for (int s = 0; s < 5; s++) {
        const rc_canvas_item *p = find(c, RC_ROLE_POINT_ROOF, s);
        const rc_canvas_item *l = find(c, RC_ROLE_POINT_LAUNCH, s);
        assert_close(p->data[0], 0.375);
        assert_close(l->data[0], 0.375);
        assert_true(p->x == first->x && l->x == first->x); /* one intensity, one x */
        assert_true(l->y > p->y); /* the launch puts it below the roof */
        assert_true(p->has_fill && l->has_fill);
    }
    /* TITAN Black: on its memory slope, 336 GB/s x 0.375 FLOP/byte; per
     * launch 240,000 FLOPs over t_total = 1.90 + 5 us. */
    assert_close(find(c, RC_ROLE_POINT_ROOF, 0)->data[1], 336e9 * 0.375);
    assert_close(find(c, RC_ROLE_POINT_LAUNCH, 0)->data[1], 240000 / (640000 / 336e9 + 5e-6));
    /* Left of every ridge point: memory bound on every GPU. */
    for (int s = 0; s < 5; s++)
        assert_true(first->x < find(c, RC_ROLE_ROOF, s)->points[2]);
    rc_chart_free(c);
}

/* The hierarchical roofline: on every GPU, the kernel's roof performance
 * at its L1, L2 and DRAM intensities. maximum_kernel moves 727,040 bytes
 * of sectors through L1, 20,800 to L2 (each block's 26 distinct sectors,
 * 25 blocks) and its 4,032-byte footprint from DRAM (it fits every L2). */
static void roofline_points_per_memory_level(void **state)
{
    fixture *f = *state;
    rc_chart *c = rc_chart_new_roofline(kernel_of(f, "maximum_kernel"), gpus_of(f), f->fonts);
    const double want[3] = {240000.0 / 727040, 240000.0 / 20800, 240000.0 / 4032};
    for (int s = 0; s < 5; s++) {
        int level = 0;
        double y = -1;
        for (size_t i = 0; i < rc_canvas_count(c); i++) {
            const rc_canvas_item *it = rc_canvas_item_at(c, i);
            if (it->role != RC_ROLE_POINT_LEVEL || it->series != s || it->kind != RC_ITEM_MARKER ||
                it->stroke_width >= 3.0)
                continue;
            assert_true(level < 3);
            assert_close(it->data[0], want[level]);
            assert_close(it->data[1], find(c, RC_ROLE_POINT_ROOF, s)->data[1]);
            if (y >= 0)
                assert_true(it->y == y); /* one performance, three intensities */
            y = it->y;
            level++;
        }
        assert_int_equal(level, 3);
    }
    rc_chart_free(c);
}

static void roofline_labels_are_the_trees(void **state)
{
    fixture *f = *state;
    rc_chart *c = rc_chart_new_roofline(kernel_of(f, "maximum_kernel"), gpus_of(f), f->fonts);
    bool title = false, ridge = false, perf = false, axis_x = false, axis_y = false;
    for (size_t i = 0; i < rc_canvas_count(c); i++) {
        const rc_canvas_item *it = rc_canvas_item_at(c, i);
        if (it->kind != RC_ITEM_TEXT)
            continue;
        title |= strcmp(it->text, "Roofline of maximum_kernel") == 0;
        ridge |= strstr(it->text, "ridge 15.2 FLOP/byte") != NULL;
        perf |= strstr(it->text, "roof 126 GFLOP/s") != NULL;
        axis_x |= strcmp(it->text, "Arithmetic intensity (FLOP/byte)") == 0;
        axis_y |= strcmp(it->text, "Attainable performance (FLOP/s)") == 0 && it->angle == 90;
    }
    assert_true(title && ridge && perf && axis_x && axis_y);
    assert_text_clean(c);
    rc_chart_free(c);
}

/* With every bundled GPU, each gets its own colour and shape (or dash). */
static void roofline_twelve_gpus_stay_apart(void **state)
{
    fixture *f = *state;
    rc_chart *c = rc_chart_new_roofline(kernel_of(f, "maximum_kernel"), gpus_of(f), f->fonts);
    assert_int_equal(count_role(c, RC_ROLE_ROOF), 12);
    for (int a = 0; a < 12; a++)
        for (int b = a + 1; b < 12; b++) {
            const rc_canvas_item *pa = find(c, RC_ROLE_POINT_ROOF, a), *pb = find(c, RC_ROLE_POINT_ROOF, b);
            const rc_canvas_item *ra = find(c, RC_ROLE_ROOF, a), *rb = find(c, RC_ROLE_ROOF, b);
            bool same_colour = memcmp(&pa->fill, &pb->fill, sizeof pa->fill) == 0;
            bool same_dash = ra->ndash == rb->ndash &&
                             memcmp(ra->dash, rb->dash, sizeof ra->dash) == 0;
            assert_false(same_colour && pa->shape == pb->shape);
            assert_false(same_colour && same_dash);
            /* neighbours in the legend (TITAN X and L4 nearly coincide) differ in dash too */
            if (b == a + 1)
                assert_false(same_dash);
        }
    assert_text_clean(c);
    /* The legend is beside the plot, not over it: right of every roof. */
    double plot_right = 0;
    for (size_t i = 0; i < rc_canvas_count(c); i++) {
        const rc_canvas_item *it = rc_canvas_item_at(c, i);
        if (it->role == RC_ROLE_ROOF)
            plot_right = fmax(plot_right, it->points[4]);
    }
    for (size_t i = 0; i < rc_canvas_count(c); i++) {
        const rc_canvas_item *it = rc_canvas_item_at(c, i);
        if (it->role == RC_ROLE_LEGEND && it->kind == RC_ITEM_TEXT)
            assert_true(it->x > plot_right);
    }
    rc_chart_free(c);
}

/* Laid out for the PDF's column (legend below, as render_pdf.c asks for
 * it): the twelve GPUs' names all under the plot, no text overlapping or
 * outside the chart, and every per-launch point at the kernel's intensity (never a false x,
 * issue 29.5), two of them that would cover each other told apart by colour or shape. */
static void roofline_legend_below_for_a_page(void **state)
{
    fixture *f = *state;
    rc_roofline_layout layout = {511.0 / 0.76, 150, true};
    rc_chart *c = rc_chart_new_roofline_laid_out(kernel_of(f, "maximum_kernel"), gpus_of(f),
                                                 f->fonts, &layout);
    assert_non_null(c);
    assert_close(rc_chart_width(c), 511.0 / 0.76);
    assert_text_clean(c);
    double plot_bottom = 0;
    size_t names = 0;
    for (size_t i = 0; i < rc_canvas_count(c); i++) {
        const rc_canvas_item *it = rc_canvas_item_at(c, i);
        if (it->role == RC_ROLE_AXIS && it->kind == RC_ITEM_RECT)
            plot_bottom = fmax(plot_bottom, it->y + it->h);
    }
    for (size_t i = 0; i < rc_canvas_count(c); i++) {
        const rc_canvas_item *it = rc_canvas_item_at(c, i);
        if (it->role == RC_ROLE_LEGEND && it->kind == RC_ITEM_TEXT) {
            assert_true(it->y > plot_bottom);
            assert_true(it->size >= 8); /* 6 pt at the PDF's 0.76 */
            names += it->series >= 0;
        }
    }
    assert_int_equal(names, 12);
    for (int a = 0; a < 12; a++)
        for (int b = a + 1; b < 12; b++) {
            const rc_canvas_item *pa = find(c, RC_ROLE_POINT_LAUNCH, a);
            const rc_canvas_item *pb = find(c, RC_ROLE_POINT_LAUNCH, b);
            assert_non_null(pa);
            assert_non_null(pb);
            assert_true(fabs(pa->x - pb->x) < 1e-9);
            assert_close(pa->data[0], 0.375);
            bool same_colour = memcmp(&pa->stroke, &pb->stroke, sizeof pa->stroke) == 0;
            assert_false(same_colour && pa->shape == pb->shape);
        }
    /* The memory levels' points have their key under the plot too. */
    bool level_key = false;
    for (size_t i = 0; i < rc_canvas_count(c); i++) {
        const rc_canvas_item *it = rc_canvas_item_at(c, i);
        level_key |= it->role == RC_ROLE_LEGEND && it->kind == RC_ITEM_TEXT &&
                     strcmp(it->text, "small: at L1, L2, DRAM intensity") == 0;
    }
    assert_true(level_key);
    rc_chart_free(c);
}

/* Long names are wrapped or shrunk, never cut: every character shows. */
static void long_names_are_wrapped_not_cut(void **state)
{
    fixture *f = *state;
    xmlNodePtr k = xmlCopyNode(kernel_of(f, "maximum_kernel"), 1);
    const char *kname = "reduce_and_normalise_every_row_of_a_very_wide_matrix_with_a_two_pass_"
                        "shared_memory_tree_and_warp_shuffles_then_scatter_the_results";
    const char *gname = "An Extraordinarily Long Accelerator Name From A Vendor Who Likes Words";
    xmlSetProp(k, (const xmlChar *)"name", (const xmlChar *)kname);
    xmlNodePtr e = rc_results_child(rc_results_child(k, "estimates"), "estimate");
    xmlSetProp(e, (const xmlChar *)"gpu-name", (const xmlChar *)gname);
    rc_chart *charts[2] = {rc_chart_new_roofline(k, gpus_of(f), f->fonts),
                           rc_chart_new_time(k, gpus_of(f), f->fonts)};
    for (int i = 0; i < 2; i++) {
        assert_non_null(charts[i]);
        assert_text_clean(charts[i]);
        char all[4096] = "";
        for (size_t j = 0; j < rc_canvas_count(charts[i]); j++) {
            const rc_canvas_item *it = rc_canvas_item_at(charts[i], j);
            if (it->kind == RC_ITEM_TEXT && (it->role == RC_ROLE_TITLE || it->role == RC_ROLE_LEGEND ||
                                             it->role == RC_ROLE_LABEL)) {
                strncat(all, it->text, sizeof all - strlen(all) - 1);
                if (it->text[strlen(it->text) - 1] != '_')
                    strncat(all, " ", sizeof all - strlen(all) - 1);
            }
        }
        if (!strstr(all, kname) || !strstr(all, gname))
            fail_msg("a name was cut: %s", all);
        rc_chart_free(charts[i]);
    }
    xmlFreeNode(k);
}

/* ---- the time chart and the overview -------------------------------------- */

/* With a refined estimate (issue 29.5): t_estimate is the bar, t_lower and t_total are marked
 * points on each row, on one axis. maximum_kernel on the TITAN Black: t_estimate 3.59 us (the
 * launch cost), t_total 6.90 us. */
static void time_bars_are_t_estimate(void **state)
{
    fixture *f = *state;
    rc_chart *c = rc_chart_new_time(kernel_of(f, "maximum_kernel"), gpus_of(f), f->fonts);
    assert_non_null(c);
    assert_int_equal(count_role(c, RC_ROLE_BAR_ESTIMATE), 5);
    assert_int_equal(count_role(c, RC_ROLE_POINT_LOWER), 5);
    assert_int_equal(count_role(c, RC_ROLE_POINT_TOTAL), 5);
    assert_int_equal(count_role(c, RC_ROLE_BAR_BODY), 0);
    const rc_canvas_item *bar = find(c, RC_ROLE_BAR_ESTIMATE, 0);
    const rc_canvas_item *total = find(c, RC_ROLE_POINT_TOTAL, 0);
    const rc_canvas_item *lower = find(c, RC_ROLE_POINT_LOWER, 0);
    assert_true(fabs(bar->data[0] - 3.59e-6) < 0.005e-6);
    assert_close(total->data[0], 5e-6 + 640000 / 336e9);
    assert_true(lower->data[0] > 0 && lower->data[0] < bar->data[0]);
    /* one axis: the points sit where the bar's scale puts them */
    assert_true(fabs((total->x - bar->x) / bar->w - total->data[0] / bar->data[0]) < 1e-9);
    bool label = false, keys = false;
    for (size_t i = 0; i < rc_canvas_count(c); i++) {
        const rc_canvas_item *it = rc_canvas_item_at(c, i);
        if (it->role == RC_ROLE_BAR_LABEL && it->series == 0)
            label |= strcmp(it->text, "3.59 µs, the launch cost; t_total 6.90 µs") == 0;
        if (it->role == RC_ROLE_LEGEND && it->kind == RC_ITEM_TEXT)
            keys |= strcmp(it->text, "t_total: the peak roofline") == 0;
    }
    assert_true(label);
    assert_true(keys);
    assert_text_clean(c);
    rc_chart_free(c);
}

/* The lowest edge of what role `role` draws in c (paths' points, rectangles' bottoms). */
static double lowest(const rc_chart *c, rc_item_role role)
{
    double y = -1;
    for (size_t i = 0; i < rc_canvas_count(c); i++) {
        const rc_canvas_item *it = rc_canvas_item_at(c, i);
        if (it->role != role)
            continue;
        if (it->kind == RC_ITEM_RECT)
            y = fmax(y, it->y + it->h);
        for (size_t k = 0; it->kind == RC_ITEM_PATH && k < it->npoints; k++)
            y = fmax(y, it->points[2 * k + 1]);
    }
    return y;
}

/* Whether every legend item of c starts below `edge`, and there is one. */
static void assert_legend_below(const rc_chart *c, double edge)
{
    size_t n = 0;
    for (size_t i = 0; i < rc_canvas_count(c); i++) {
        const rc_canvas_item *it = rc_canvas_item_at(c, i);
        if (it->role != RC_ROLE_LEGEND)
            continue;
        double top = it->kind == RC_ITEM_TEXT     ? it->y - 0.75 * it->size
                     : it->kind == RC_ITEM_MARKER ? it->y - it->size / 2
                     : it->kind == RC_ITEM_PATH   ? it->points[1]
                                                  : it->y;
        if (!(top > edge))
            fail_msg("legend item '%s' at %g is not below the plot's bottom %g",
                     it->text ? it->text : "(shape)", top, edge);
        n++;
    }
    assert_true(n > 0);
}

/* The narrow charts (issue 29 item 5): 270 points wide, so that a phone's column shows them
 * at their own size, no text under 8 points, the legend under the plot. */
static void narrow_charts_have_the_legend_below(void **state)
{
    fixture *f = *state;
    rc_chart *t = rc_chart_new_time_narrow(kernel_of(f, "maximum_kernel"), gpus_of(f), f->fonts);
    rc_chart *r = rc_chart_new_roofline_laid_out(kernel_of(f, "maximum_kernel"), gpus_of(f),
                                                 f->fonts, &RC_ROOFLINE_NARROW);
    assert_non_null(t);
    assert_non_null(r);
    rc_chart *charts[] = {t, r};
    for (int k = 0; k < 2; k++) {
        assert_true(rc_chart_width(charts[k]) == RC_CHART_NARROW_WIDTH);
        assert_text_clean(charts[k]);
        for (size_t i = 0; i < rc_canvas_count(charts[k]); i++) {
            const rc_canvas_item *it = rc_canvas_item_at(charts[k], i);
            if (it->kind == RC_ITEM_TEXT && it->size < 8)
                fail_msg("text '%s' is set at %g points", it->text, it->size);
        }
    }
    /* The time chart: every GPU's bar, its note, the key under the grid's lowest line. */
    assert_int_equal(count_role(t, RC_ROLE_BAR_ESTIMATE), 5);
    assert_int_equal(count_role(t, RC_ROLE_POINT_TOTAL), 5);
    assert_legend_below(t, lowest(t, RC_ROLE_GRID));
    bool note = false;
    for (size_t i = 0; i < rc_canvas_count(t); i++) {
        const rc_canvas_item *it = rc_canvas_item_at(t, i);
        if (it->role == RC_ROLE_BAR_LABEL && it->series == 0)
            note |= strcmp(it->text, "3.59 µs, the launch cost; t_total 6.90 µs") == 0;
    }
    assert_true(note);
    /* The roofline: a roof per GPU, the names and keys under the plot's frame. */
    assert_int_equal(count_role(r, RC_ROLE_ROOF), 5);
    assert_legend_below(r, lowest(r, RC_ROLE_AXIS));
    rc_chart_free(t);
    rc_chart_free(r);
}

/* Without a refined estimate, the bar is t_total, split into body and launch. */
static void time_bars_split_body_and_launch(void **state)
{
    fixture *f = *state;
    xmlNodePtr k = xmlCopyNode(kernel_of(f, "maximum_kernel"), 1);
    for (xmlNodePtr e = rc_results_child(k, "estimates")->children; e; e = e->next)
        if (e->type == XML_ELEMENT_NODE)
            xmlUnsetProp(e, (const xmlChar *)"t-estimate");
    rc_chart *c = rc_chart_new_time(k, gpus_of(f), f->fonts);
    assert_non_null(c);
    assert_int_equal(count_role(c, RC_ROLE_BAR_BODY), 5);
    assert_int_equal(count_role(c, RC_ROLE_BAR_LAUNCH), 5);
    const rc_canvas_item *body = find(c, RC_ROLE_BAR_BODY, 0), *launch = find(c, RC_ROLE_BAR_LAUNCH, 0);
    assert_close(body->data[0], 640000 / 336e9);
    assert_close(launch->data[0], 5e-6);
    assert_true(fabs(launch->w / body->w - 5e-6 / (640000 / 336e9)) < 1e-9);
    assert_true(fabs(launch->x - (body->x + body->w)) < 1e-9); /* stacked */
    bool label = false;
    for (size_t i = 0; i < rc_canvas_count(c); i++) {
        const rc_canvas_item *it = rc_canvas_item_at(c, i);
        if (it->role == RC_ROLE_BAR_LABEL && it->series == 0)
            label |= strcmp(it->text, "6.90 µs, memory bound, launch 72.4 %") == 0;
    }
    assert_true(label);
    assert_int_equal(count_role(c, RC_ROLE_BAR_ESTIMATE), 0);
    assert_text_clean(c);
    rc_chart_free(c);
    xmlFreeNode(k);
}

/* Tick labels group digits as the bar labels do: "10,000", not "10000". */
static void time_ticks_group_digits(void **state)
{
    fixture *f = *state;
    xmlNodePtr k = xmlCopyNode(kernel_of(f, "maximum_kernel"), 1);
    for (xmlNodePtr e = rc_results_child(k, "estimates")->children; e; e = e->next) {
        if (e->type != XML_ELEMENT_NODE)
            continue;
        xmlSetProp(e, (const xmlChar *)"t-body", (const xmlChar *)"0.0123");
        xmlSetProp(e, (const xmlChar *)"t-total", (const xmlChar *)"0.012305");
    }
    rc_chart *c = rc_chart_new_time(k, gpus_of(f), f->fonts);
    assert_non_null(c);
    bool grouped = false;
    for (size_t i = 0; i < rc_canvas_count(c); i++) {
        const rc_canvas_item *it = rc_canvas_item_at(c, i);
        if (it->kind != RC_ITEM_TEXT)
            continue;
        grouped |= strcmp(it->text, "10,000") == 0;
        if (strcmp(it->text, "10000") == 0)
            fail_msg("an ungrouped tick label: %s", it->text);
    }
    assert_true(grouped);
    rc_chart_free(c);
    xmlFreeNode(k);
}

static void overview_has_every_kernel_on_every_gpu(void **state)
{
    fixture *f = *state;
    rc_chart *c = rc_chart_new_overview(root_of(f), f->fonts);
    assert_non_null(c);
    size_t points = 0, rings = 0;
    for (size_t i = 0; i < rc_canvas_count(c); i++) {
        const rc_canvas_item *it = rc_canvas_item_at(c, i);
        if (it->role != RC_ROLE_POINT_TIME)
            continue;
        if (it->has_fill)
            points++;
        else
            rings++;
        assert_true(it->group >= 0 && it->group < 4);
    }
    assert_int_equal(points, 4 * 12);
    /* the fastest GPUs of each kernel by t_estimate, within 10 % of its fastest: 4 + 4 + 4 + 4 */
    assert_int_equal(rings, 16);
    assert_text_clean(c);
    rc_chart_free(c);
}

/* A part of the overview (for a PDF page) has the bands of its kernels
 * only, numbered as in the whole, on the whole overview's axis, and says
 * which part it is. */
static void overview_part_has_its_kernels(void **state)
{
    fixture *f = *state;
    assert_int_equal(rc_chart_overview_kernels(root_of(f)), 4);
    rc_chart *whole = rc_chart_new_overview(root_of(f), f->fonts);
    rc_chart *part = rc_chart_new_overview_part(root_of(f), f->fonts, 760, 1, 2);
    assert_non_null(whole);
    assert_non_null(part);
    size_t points = 0;
    double x_whole = 0, x_part = 0;
    for (size_t i = 0; i < rc_canvas_count(part); i++) {
        const rc_canvas_item *it = rc_canvas_item_at(part, i);
        if (it->role == RC_ROLE_POINT_TIME && it->has_fill) {
            points++;
            assert_true(it->group == 1 || it->group == 2);
            if (it->group == 1 && it->series == 0)
                x_part = it->x;
        }
    }
    for (size_t i = 0; i < rc_canvas_count(whole); i++) {
        const rc_canvas_item *it = rc_canvas_item_at(whole, i);
        if (it->role == RC_ROLE_POINT_TIME && it->has_fill && it->group == 1 && it->series == 0)
            x_whole = it->x;
    }
    assert_int_equal(points, 2 * 12);
    assert_true(x_whole > 0);
    assert_true(x_part == x_whole); /* one axis for every part */
    bool named = false;
    for (size_t i = 0; i < rc_canvas_count(part); i++) {
        const rc_canvas_item *it = rc_canvas_item_at(part, i);
        named = named || (it->text && strstr(it->text, "here kernels 2 to 3 of 4"));
    }
    assert_true(named);
    assert_true(rc_chart_height(part) < rc_chart_height(whole));
    rc_chart_free(whole);
    rc_chart_free(part);
}

/* ---- painting -------------------------------------------------------------- */

/* A canvas painted by the painter of the table (painter.h): an SVG
 * document, or a PNG image of `scale` pixels per point. */
static char *paint_svg(const rc_chart *c, const rc_fonts *fonts, size_t *len)
{
    char *out = NULL;
    rc_paint(&rc_painter_svg, c, &(rc_paint_target){.fonts = fonts}, &out, len);
    return out;
}

static char *paint_png(const rc_chart *c, const rc_fonts *fonts, double scale, size_t *len)
{
    char *out = NULL;
    rc_paint(&rc_painter_png, c, &(rc_paint_target){.fonts = fonts, .scale = scale}, &out, len);
    return out;
}

/* Every painter of the table has its name and fills every function. */
static void painters_fill_the_table(void **state)
{
    (void)state;
    const rc_painter *painters[] = {&rc_painter_svg, &rc_painter_png, &rc_painter_pdf};
    const char *names[] = {"svg", "png", "pdf"};
    for (size_t i = 0; i < 3; i++) {
        assert_string_equal(painters[i]->name, names[i]);
        assert_non_null(painters[i]->begin);
        assert_non_null(painters[i]->path);
        assert_non_null(painters[i]->rect);
        assert_non_null(painters[i]->marker);
        assert_non_null(painters[i]->text);
        assert_non_null(painters[i]->end);
    }
}

/* The same description paints to the same bytes, whatever was painted
 * before (Cairo's SVG ids come from a process-wide counter). */
static void painting_is_deterministic(void **state)
{
    fixture *f = *state;
    rc_chart *c = rc_chart_new_roofline(kernel_of(f, "maximum_kernel"), gpus_of(f), f->fonts);
    rc_chart *t = rc_chart_new_time(kernel_of(f, "maximum_kernel"), gpus_of(f), f->fonts);
    size_t n1 = 0, n2 = 0, n3 = 0, p1 = 0, p2 = 0;
    char *a = paint_svg(c, f->fonts, &n1);
    char *other = paint_svg(t, f->fonts, &n3);
    char *b = paint_svg(c, f->fonts, &n2);
    assert_non_null(a);
    assert_non_null(b);
    assert_int_equal(n1, n2);
    assert_memory_equal(a, b, n1);
    assert_non_null(strstr(a, "<svg"));
    char *pa = paint_png(c, f->fonts, 2, &p1), *pb = paint_png(c, f->fonts, 2, &p2);
    assert_int_equal(p1, p2);
    assert_memory_equal(pa, pb, p1);
    assert_memory_equal(pa, "\x89PNG", 4);
    free(a);
    free(b);
    free(other);
    free(pa);
    free(pb);
    rc_chart_free(c);
    rc_chart_free(t);
}

/* Distinct (font, size, angle) among a chart's texts: the scaled fonts
 * Cairo makes for them at one scale. */
static size_t distinct_text_fonts(const rc_chart *c)
{
    const rc_canvas_item *seen[512];
    size_t n = 0;
    for (size_t i = 0; i < rc_canvas_count(c); i++) {
        const rc_canvas_item *it = rc_canvas_item_at(c, i);
        bool dup = it->kind != RC_ITEM_TEXT;
        for (size_t k = 0; k < n && !dup; k++)
            dup = seen[k]->font == it->font && seen[k]->size == it->size &&
                  seen[k]->angle == it->angle;
        if (!dup && n < sizeof seen / sizeof seen[0])
            seen[n++] = it;
    }
    return n;
}

/* Painting a PNG holds each scaled font it used once, until the fonts are
 * freed (font.h: Cairo 1.16 must not destroy one while workers paint). */
static void painting_holds_each_scaled_font_once(void **state)
{
    fixture *f = *state;
    rc_fonts *fonts = rc_fonts_new(NULL);
    assert_non_null(fonts);
    rc_chart *c = rc_chart_new_roofline(kernel_of(f, "maximum_kernel"), gpus_of(f), fonts);
    size_t want = distinct_text_fonts(c), len = 0;
    assert_true(want >= 3); /* title, labels, the turned axis title */
    assert_int_equal(rc_fonts_held_scaled(fonts), 0);
    free(paint_png(c, fonts, 2, &len));
    assert_int_equal(rc_fonts_held_scaled(fonts), want);
    free(paint_png(c, fonts, 2, &len));
    assert_int_equal(rc_fonts_held_scaled(fonts), want);
    free(paint_png(c, fonts, 1, &len)); /* another scale: as many again */
    assert_int_equal(rc_fonts_held_scaled(fonts), 2 * want);
    rc_chart_free(c);
    rc_fonts_free(fonts);
}

/* font.c's tables say what FreeType says, character by character. */
static void glyph_tables_match_freetype(void **state)
{
    fixture *f = *state;
    FT_Library lib;
    assert_int_equal(FT_Init_FreeType(&lib), 0);
    for (int r = 0; r < RC_FONT_COUNT; r++) {
        FT_Face face;
        assert_int_equal(FT_New_Face(lib, rc_font_path((rc_font_role)r), 0, &face), 0);
        assert_int_equal(rc_fonts_units_per_em(f->fonts, (rc_font_role)r), face->units_per_EM);
        assert_int_equal(rc_fonts_glyph_count(f->fonts, (rc_font_role)r), face->num_glyphs);
        for (unsigned long c = 0; c <= 0x1FFFF; c += c < 0x10000 ? 1 : 97) {
            FT_UInt g = FT_Get_Char_Index(face, c);
            FT_Fixed adv = 0;
            assert_int_equal(FT_Get_Advance(face, g, FT_LOAD_NO_SCALE, &adv), 0);
            rc_glyph got = rc_fonts_glyph(f->fonts, (rc_font_role)r, c);
            if (got.glyph != g || got.advance != (long)adv)
                fail_msg("role %d U+%04lX: glyph %u advance %ld, FreeType %u %ld", r, c,
                         got.glyph, got.advance, g, (long)adv);
        }
        FT_Done_Face(face);
        unsigned a = rc_fonts_glyph(f->fonts, (rc_font_role)r, 'A').glyph;
        unsigned space = rc_fonts_glyph(f->fonts, (rc_font_role)r, ' ').glyph;
        assert_true(a != 0 && space != 0 && a != space);
    }
    FT_Done_FreeType(lib);
}

static void marker_outlines(void **state)
{
    (void)state;
    double pts[20];
    assert_int_equal(rc_marker_outline(RC_MARKER_CIRCLE, 0, 0, 8, pts), 0);
    assert_int_equal(rc_marker_outline(RC_MARKER_SQUARE, 0, 0, 8, pts), 4);
    assert_int_equal(rc_marker_outline(RC_MARKER_STAR, 0, 0, 8, pts), 10);
    for (int s = 1; s < RC_MARKER_COUNT; s++) {
        size_t n = rc_marker_outline((rc_marker_shape)s, 10, 20, 8, pts);
        assert_true(n >= 3 && n <= 10);
        for (size_t i = 0; i < n; i++)
            assert_true(fabs(pts[2 * i] - 10) <= 6 && fabs(pts[2 * i + 1] - 20) <= 6);
    }
}

int main(void)
{
    const struct CMUnitTest reference[] = {
        cmocka_unit_test(roofline_has_one_roof_per_gpu),
        cmocka_unit_test(roofline_points_at_the_kernels_intensity),
        cmocka_unit_test(roofline_points_per_memory_level),
        cmocka_unit_test(roofline_labels_are_the_trees),
        cmocka_unit_test(time_bars_are_t_estimate),
        cmocka_unit_test(time_bars_split_body_and_launch),
        cmocka_unit_test(narrow_charts_have_the_legend_below),
        cmocka_unit_test(painters_fill_the_table),
        cmocka_unit_test(painting_is_deterministic),
        cmocka_unit_test(marker_outlines),
        cmocka_unit_test(glyph_tables_match_freetype),
    };
    const struct CMUnitTest bundled[] = {
        cmocka_unit_test(roofline_twelve_gpus_stay_apart),
        cmocka_unit_test(roofline_legend_below_for_a_page),
        cmocka_unit_test(long_names_are_wrapped_not_cut),
        cmocka_unit_test(time_ticks_group_digits),
        cmocka_unit_test(overview_has_every_kernel_on_every_gpu),
        cmocka_unit_test(overview_part_has_its_kernels),
        cmocka_unit_test(painting_holds_each_scaled_font_once),
    };
    int failed = cmocka_run_group_tests_name("reference GPUs", reference, setup_reference, teardown);
    failed += cmocka_run_group_tests_name("bundled GPUs", bundled, setup_all, teardown);
    return failed;
}
