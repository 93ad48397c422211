/* chart_overview.c: the overview of every kernel on every GPU
 * (rc_chart_new_overview). See chart.h and chart_impl.h. */
#include "render/chart_impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "results/results.h"

/* The most kernels the overview chart shows. */
#define OVERVIEW_MAX 20

typedef struct {
    xmlNodePtr node;
    double slowest; /* its longest t_total, s */
    size_t order;   /* its place in the tree */
} overview_kernel;

/* The time the overview shows of an estimate: t_estimate, the refined estimate to plan with,
 * where there is one (the fastest are marked by it), else t_total; seconds. */
static double overview_time(xmlNodePtr e)
{
    return xmlHasProp(e, (const xmlChar *)"t-estimate") ? chart_attr_num(e, "t-estimate")
                                                        : chart_attr_num(e, "t-total");
}

/* Whether the overview shows t_estimate: the first estimate of kernel k has one (every
 * estimate has one or none, as the tree is made). */
static bool overview_refined(xmlNodePtr k)
{
    FOR_EACH(e, rc_results_child(k, "estimates"), "estimate")
        return xmlHasProp(e, (const xmlChar *)"t-estimate") != NULL;
    return false;
}

static int slower_first(const void *a, const void *b)
{
    const overview_kernel *x = a, *y = b;
    if (x->slowest != y->slowest)
        return x->slowest > y->slowest ? -1 : 1;
    return x->order < y->order ? -1 : 1;
}

static int in_order(const void *a, const void *b)
{
    const overview_kernel *x = a, *y = b;
    return x->order < y->order ? -1 : x->order > y->order;
}

/* The kernels the overview shows, in the tree's order, into `shown`
 * (room for every kernel): all of them, or past OVERVIEW_MAX the slowest,
 * since a chart of a thousand bands helps nobody (and would pass Cairo's
 * largest image). Returns how many. */
static size_t overview_pick(xmlNodePtr kernels, overview_kernel *shown)
{
    size_t nk = 0;
    FOR_EACH(k, kernels, "kernel") {
        double slowest = 0;
        FOR_EACH(e, rc_results_child(k, "estimates"), "estimate")
            slowest = fmax(slowest, overview_time(e));
        shown[nk] = (overview_kernel){k, slowest, nk};
        nk++;
    }
    if (nk > OVERVIEW_MAX) {
        qsort(shown, nk, sizeof *shown, slower_first);
        nk = OVERVIEW_MAX;
        qsort(shown, nk, sizeof *shown, in_order);
    }
    return nk;
}

/* The log axis over every shown t_total, in µs, and how wide the kernels'
 * names may be. */
static void overview_range(const overview_kernel *shown, size_t nk, const rc_fonts *fonts, axis *ax,
                           double *name_w)
{
    double tmin = INFINITY, tmax = 0, w = 0;
    for (size_t s = 0; s < nk; s++) {
        xmlNodePtr k = shown[s].node;
        char *kname = chart_attr_str(k, "name");
        if (kname)
            w = fmax(w, rc_fonts_width(fonts, RC_FONT_BOLD, SIZE_TEXT, kname));
        free(kname);
        FOR_EACH(e, rc_results_child(k, "estimates"), "estimate") {
            double t = overview_time(e) * 1e6;
            if (t > 0 && isfinite(t)) {
                tmin = fmin(tmin, t);
                tmax = fmax(tmax, t);
            }
        }
    }
    if (!(tmax > 0))
        tmin = 1, tmax = 10;
    *ax = (axis){0, 0, 0, 0, true};
    chart_log_range(tmin, tmax, 1.25, &ax->lo, &ax->hi);
    *name_w = fmin(fmax(w, 60), 150);
}

/* The overview's title and subtitle, which name the part of the chart
 * (kernels from..to of nk) when it is one; returns the y below them. */
static double overview_titles(rc_chart *c, size_t nk, size_t total, size_t ng, size_t from,
                              size_t to, bool refined)
{
    char subtitle[320], part[96] = "";
    const char *ringed = ng < 2    ? ""
                         : refined ? "; the fastest of each kernel (within 10 %) ringed"
                                   : "; the fastest GPU of each kernel ringed";
    const char *t = refined ? "t_estimate" : "t_total";
    if (to - from < nk)
        snprintf(part, sizeof part, "; here kernels %zu to %zu of %zu", from + 1, to, nk);
    if (nk < total)
        snprintf(subtitle, sizeof subtitle,
                 "%s per launch of the %zu slowest of %zu kernels (the table lists all); "
                 "a row per GPU%s%s",
                 t, nk, total, ringed, part);
    else
        snprintf(subtitle, sizeof subtitle,
                 "%s per launch; a band per kernel, a row per GPU in it%s%s", t, ringed, part);
    return chart_add_titles(c, MARGIN, MARGIN, rc_canvas_width(c) - 2 * MARGIN,
                            nk < total
                                ? "The slowest kernels on every GPU: predicted time per launch"
                                : "Every kernel on every GPU: predicted time per launch",
                            subtitle);
}

/* The GPUs' names as legend entries, in <gpus> order; NULL when out of
 * memory. Free with legend_free. */
static legend_entry *gpu_names(xmlNodePtr gpus, size_t ng)
{
    legend_entry *le = calloc(ng ? ng : 1, sizeof *le);
    size_t i = 0;
    FOR_EACH(g, gpus, "gpu") {
        if (!le)
            break;
        le[i].series = (int)i;
        le[i].name = chart_attr_str(g, "name");
        if (!le[i].name) {
            chart_legend_free(le, ng);
            return NULL;
        }
        i++;
    }
    return le;
}

/* A band's rows, each estimate's t_total as its GPU's symbol on its row
 * (row `series` of the band from `top`), the fastest ringed. */
#define OVERVIEW_ROW 9.0 /* a GPU's row in a band */
#define OVERVIEW_PAD 6.0 /* above the first row and below the last */

static void overview_points(rc_chart *c, xmlNodePtr k, xmlNodePtr gpus, const axis *ax,
                            const plot_box *b, double top, int group)
{
    size_t e_i = 0;
    FOR_EACH(e, rc_results_child(k, "estimates"), "estimate") {
        int series = chart_gpu_index(gpus, e, NULL);
        if (series < 0)
            series = (int)e_i;
        double cy = top + OVERVIEW_PAD + OVERVIEW_ROW * ((double)series + 0.5);
        double t = overview_time(e) * 1e6;
        rc_canvas_add_line(c, RC_ROLE_GRID, b->left, cy, b->right, cy, grid_major, 0.4);
        if (t > 0 && isfinite(t)) {
            double px = chart_to_page(ax, t);
            if (chart_attr_is(e, "fastest", "yes")) {
                rc_canvas_item *ring = rc_canvas_add(c, RC_ITEM_MARKER, RC_ROLE_POINT_TIME);
                if (ring) {
                    ring->shape = RC_MARKER_CIRCLE;
                    ring->x = px, ring->y = cy, ring->size = 13;
                    ring->stroke = ink, ring->stroke_width = 1.2;
                    ring->series = series, ring->group = group;
                    ring->data[0] = t / 1e6;
                }
            }
            rc_canvas_item *it = chart_add_marker(c, RC_ROLE_POINT_TIME, series, px, cy, 7, false);
            if (it)
                it->group = group, it->data[0] = t / 1e6;
        }
        e_i++;
    }
}

rc_chart *rc_chart_new_overview(xmlNodePtr results, const rc_fonts *fonts)
{
    return rc_chart_new_overview_part(results, fonts, CHART_WIDTH, 0, 0);
}

size_t rc_chart_overview_kernels(xmlNodePtr results)
{
    size_t n = 0;
    FOR_EACH(k, rc_results_child(results, "kernels"), "kernel")
        n++;
    return n < OVERVIEW_MAX ? n : OVERVIEW_MAX;
}

/* What every part of the overview shares, read from the tree once
 * (rc_chart_overview_new): reading every kernel's estimates to pick the
 * slowest was most of a part's cost, and summary.pdf makes some ten parts
 * a page while fitting them. */
struct rc_chart_overview {
    xmlNodePtr gpus;
    size_t ng, total, nk;
    legend_entry *le;
    overview_kernel *shown;
    axis ax; /* over every kernel shown, so that the parts compare */
    double name_w;
};

rc_chart_overview *rc_chart_overview_new(xmlNodePtr results, const rc_fonts *fonts)
{
    rc_chart_overview *o = calloc(1, sizeof *o);
    if (!o)
        return NULL;
    o->gpus = rc_results_child(results, "gpus");
    xmlNodePtr kernels = rc_results_child(results, "kernels");
    FOR_EACH(g, o->gpus, "gpu")
        o->ng++;
    FOR_EACH(k, kernels, "kernel")
        o->total++;
    o->le = gpu_names(o->gpus, o->ng);
    o->shown = calloc(o->total ? o->total : 1, sizeof *o->shown);
    if (!o->le || !o->shown) {
        rc_chart_overview_free(o);
        return NULL;
    }
    o->nk = overview_pick(kernels, o->shown);
    overview_range(o->shown, o->nk, fonts, &o->ax, &o->name_w);
    return o;
}

void rc_chart_overview_free(rc_chart_overview *o)
{
    if (!o)
        return;
    chart_legend_free(o->le, o->ng);
    free(o->shown);
    free(o);
}

rc_chart *rc_chart_new_overview_part(xmlNodePtr results, const rc_fonts *fonts, double width,
                                     size_t first, size_t count)
{
    rc_chart_overview *o = rc_chart_overview_new(results, fonts);
    rc_chart *c = o ? rc_chart_new_overview_of(o, fonts, width, first, count) : NULL;
    rc_chart_overview_free(o);
    return c;
}

rc_chart *rc_chart_new_overview_of(const rc_chart_overview *o, const rc_fonts *fonts, double width,
                                   size_t first, size_t count)
{
    size_t ng = o->ng, nk = o->nk;
    rc_chart *c = chart_new(fonts, width);
    if (!c)
        return NULL;
    axis ax = o->ax;
    double name_w = o->name_w;
    size_t from = first < nk ? first : nk;
    size_t to = count && count < nk - from ? from + count : nk;
    bool refined = nk > 0 && overview_refined(o->shown[0].node);
    double y = overview_titles(c, nk, o->total, ng, from, to, refined);
    const double legend_w = 190;
    double legend_x = width - MARGIN - legend_w;
    double band_h = fmax(24, (double)ng * OVERVIEW_ROW + 2 * OVERVIEW_PAD);
    plot_box b = {MARGIN + name_w + 10, y + 14, legend_x - 20, 0};
    b.bottom = b.top + (to > from ? (double)(to - from) * band_h : 40);
    ax.p0 = b.left, ax.p1 = b.right;

    chart_shade_bands(c, &b, band_h, to - from); /* then the decade grid over them */
    chart_log_axis(c, &ax, true, b.bottom, b.top, b.bottom, false, NULL);
    chart_plot_frame(c, &b);
    if (nk == 0)
        rc_canvas_add_text(c, RC_ROLE_NOTE, (b.left + b.right) / 2, b.top + 24,
                           "No kernel was estimated.", RC_FONT_REGULAR, SIZE_TEXT, RC_ANCHOR_MIDDLE,
                           ink);
    for (size_t s = from; s < to && !rc_canvas_failed(c); s++) {
        double top = b.top + (double)(s - from) * band_h;
        char *kname = chart_attr_str(o->shown[s].node, "name");
        if (!kname)
            rc_canvas_fail(c);
        else
            chart_row_label(c, b.left - 8, top + band_h / 2, 3, kname, RC_FONT_BOLD, RC_ANCHOR_END,
                            name_w, -1, (int)s);
        free(kname);
        if (!rc_canvas_failed(c))
            overview_points(c, o->shown[s].node, o->gpus, &ax, &b, top, (int)s);
    }
    chart_axis_title_below(c, b.left, b.right, b.bottom,
                           refined ? "t_estimate per launch (µs, logarithmic)"
                                   : "t_total per launch (µs, logarithmic)");
    double ly = chart_legend_beside(c, legend_x, b.top, legend_w, "GPUs", o->le, ng, false);
    return chart_finish(c, fmax(chart_below_axis_title(b.bottom), ly) + MARGIN);
}
