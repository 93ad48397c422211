/* chart_roofline.c: the roofline chart (rc_chart_new_roofline). See chart.h
 * and chart_impl.h. */
#include "render/chart_impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/results.h"

typedef struct {
    int series;
    double peak, bandwidth, ridge, perf_roof, perf_launch;
    double level_ai[3]; /* FLOPs / bytes at L1, L2 and DRAM; 0 when unknown */
} roof;

/* What the roofline's symbols mean. ORDER as in symbol_key. */
static const char *const ROOFLINE_KEYS[] = {
    "on the roof: FLOPs / t_body", "per launch: FLOPs / t_total", "ridge point: peak / bandwidth"};

/* Key k of the roofline's symbols (0: on the roof, 1: per launch, 2: the
 * ridge point) at (x, y), its text beside it. Returns the x after it. */
static double symbol_key(rc_chart *c, int k, double x, double y, const char *text)
{
    double base = y + rc_fonts_ascent(rc_canvas_fonts(c), RC_FONT_REGULAR, SIZE_SMALL);
    rc_canvas_item *it = rc_canvas_add(c, RC_ITEM_MARKER, RC_ROLE_LEGEND);
    if (it) {
        it->shape = RC_MARKER_CIRCLE;
        it->x = x + 13, it->y = base - 3;
        it->size = k >= 2 ? 4.5 : 8; /* 2: ridge point; 3: a memory level's point */
        it->has_fill = true;
        it->fill = k == 1 ? white : ink_soft;
        it->stroke = k == 1 ? ink_soft : ink;
        it->stroke_width = k == 1 ? 1.6 : 0.6;
    }
    it = rc_canvas_add_text(c, RC_ROLE_LEGEND, x + 32, base, text, RC_FONT_REGULAR, SIZE_SMALL,
                            RC_ANCHOR_START, ink);
    return x + 32 + (it ? it->width : 0);
}

/* The keys to the symbols in a row under a plot, from x, `w` wide,
 * starting a new row where the next does not fit; `side_by_side` when the
 * per-launch points are. Returns the y below. */
static double symbol_keys_row(rc_chart *c, double x, double y, double w, bool levels)
{
    const char *keys[] = {ROOFLINE_KEYS[0], ROOFLINE_KEYS[1], ROOFLINE_KEYS[2],
                          "small: at L1, L2, DRAM intensity"};
    double at = x;
    for (int k = 0; k < (levels ? 4 : 3); k++) {
        double kw = 32 + rc_fonts_width(rc_canvas_fonts(c), RC_FONT_REGULAR, SIZE_SMALL, keys[k]);
        if (at > x && at + kw > x + w) {
            at = x;
            y += 13;
        }
        at = symbol_key(c, k, at, y, keys[k]) + 14;
    }
    return y + 13;
}

/* What the roofline's drawing steps share: the chart, the GPUs' roofs,
 * the axes and the kernel's intensity. */
typedef struct {
    rc_chart *c;
    const roof *r;
    size_t n;
    axis ax, ay;
    double ai;
    bool has_point; /* the kernel has a finite, positive intensity */
} roofline_plot;

/* The kernel's intensity: a line through the plot, labelled above it with
 * the kernel's name when that fits. */
static void draw_intensity(const roofline_plot *p, const plot_box *b, const char *name,
                           const char *ai_text)
{
    rc_chart *c = p->c;
    double px = chart_to_page(&p->ax, p->ai);
    rc_canvas_item *it =
        rc_canvas_add_line(c, RC_ROLE_INTENSITY, px, b->top - 4, px, b->bottom, ink_soft, 0.8);
    if (it) {
        it->ndash = 2, it->dash[0] = 2, it->dash[1] = 2;
        it->data[0] = p->ai;
    }
    char label[128];
    snprintf(label, sizeof label, "%s: %s FLOP/byte", name, ai_text);
    double lw = rc_fonts_width(rc_canvas_fonts(c), RC_FONT_REGULAR, SIZE_TEXT, label);
    if (lw > b->right - b->left) {
        snprintf(label, sizeof label, "%s FLOP/byte", ai_text);
        lw = rc_fonts_width(rc_canvas_fonts(c), RC_FONT_REGULAR, SIZE_TEXT, label);
    }
    double lx = fmin(fmax(px, b->left + lw / 2), b->right - lw / 2);
    it = rc_canvas_add_text(c, RC_ROLE_INTENSITY, lx, b->top - 8, label, RC_FONT_REGULAR, SIZE_TEXT,
                            RC_ANCHOR_MIDDLE, ink);
    if (it)
        it->data[0] = p->ai;
}

/* The roofs: memory slope up to the ridge point, then the FP32 ceiling,
 * clipped to the plot; then the ridge points over them. */
static void draw_roofs(const roofline_plot *p)
{
    rc_chart *c = p->c;
    const axis *ax = &p->ax, *ay = &p->ay;
    const roof *r = p->r;
    size_t n = p->n;
    for (size_t i = 0; i < n; i++) {
        const roof *q = &r[i];
        if (q->series < 0)
            continue;
        double x0 = fmax(ax->lo, ay->lo / q->bandwidth);
        double pts[6] = {chart_to_page(ax, x0),       chart_to_page(ay, q->bandwidth * x0),
                         chart_to_page(ax, q->ridge), chart_to_page(ay, q->peak),
                         chart_to_page(ax, ax->hi),   chart_to_page(ay, q->peak)};
        double data[2] = {q->ridge, q->peak};
        chart_add_series_path(c, RC_ROLE_ROOF, pts, 3, q->series, data);
    }
    for (size_t i = 0; i < n; i++) {
        const roof *q = &r[i];
        if (q->series < 0)
            continue;
        rc_canvas_item *it = rc_canvas_add(c, RC_ITEM_MARKER, RC_ROLE_RIDGE);
        if (it) {
            it->series = q->series;
            it->shape = RC_MARKER_CIRCLE;
            it->x = chart_to_page(ax, q->ridge), it->y = chart_to_page(ay, q->peak), it->size = 4.5;
            it->has_fill = true, it->fill = chart_series_colour(q->series);
            it->stroke = ink, it->stroke_width = 0.6;
            it->data[0] = q->ridge, it->data[1] = q->peak;
        }
    }
}

/* The hierarchical roofline: the kernel's performance on the roof at
 * each memory level's intensity, small and joined, under its points. */
static void draw_level_points(const roofline_plot *p)
{
    rc_chart *c = p->c;
    const axis *ax = &p->ax, *ay = &p->ay;
    const roof *r = p->r;
    size_t n = p->n;
    for (size_t i = 0; p->has_point && i < n; i++) {
        const roof *q = &r[i];
        if (q->series < 0 || !(q->perf_roof > 0))
            continue;
        double y_level = chart_to_page(ay, q->perf_roof), pts[6];
        int np = 0;
        for (int l = 0; l < 3; l++)
            if (q->level_ai[l] > 0) {
                pts[2 * np] = chart_to_page(ax, q->level_ai[l]);
                pts[2 * np + 1] = y_level;
                np++;
            }
        if (np > 1) {
            rc_canvas_item *it = rc_canvas_add_path(c, RC_ROLE_POINT_LEVEL, pts, (size_t)np,
                                                    chart_series_colour(q->series), 0.6);
            if (it)
                it->series = q->series, it->data[1] = q->perf_roof;
        }
        for (int l = 0; l < 3; l++) {
            if (!(q->level_ai[l] > 0))
                continue;
            size_t before = rc_canvas_count(c);
            chart_add_marker(c, RC_ROLE_POINT_LEVEL, q->series, chart_to_page(ax, q->level_ai[l]),
                             y_level, 4.5, false);
            for (size_t k = before; k < rc_canvas_count(c); k++) {
                rc_canvas_item *m = rc_canvas_edit(c, k);
                m->data[0] = q->level_ai[l], m->data[1] = q->perf_roof;
            }
        }
    }
}

/* The kernel's points: per launch (hollow) under the roof points; or why
 * there is none. */
static void draw_kernel_points(const roofline_plot *p, const plot_box *b, bool side_by_side)
{
    rc_chart *c = p->c;
    const roof *r = p->r;
    size_t n = p->n;
    double ai = p->ai;
    if (!p->has_point) {
        const char *why = isfinite(ai)
                              ? "No point: the kernel counts no FLOPs."
                              : "No point: the kernel moves no bytes (unbounded intensity).";
        chart_add_block(c, RC_ROLE_NOTE, (b->left + b->right) / 2, b->top + 20, why,
                        RC_FONT_REGULAR, SIZE_TEXT, SIZE_TEXT, b->right - b->left - 20,
                        RC_ANCHOR_MIDDLE, ink);
        return;
    }
    double px = chart_to_page(&p->ax, ai);
    for (size_t i = 0; i < n; i++) {
        const roof *q = &r[i];
        if (q->series < 0 || !(q->perf_launch > 0))
            continue;
        size_t before = rc_canvas_count(c);
        /* At the kernel's intensity, never beside it (a false x): GPUs whose points would
         * cover one another are told apart by their marker shapes. */
        (void)side_by_side;
        chart_add_marker(c, RC_ROLE_POINT_LAUNCH, q->series, px,
                         chart_to_page(&p->ay, q->perf_launch), 8, true);
        for (size_t k = before; k < rc_canvas_count(c); k++) {
            rc_canvas_item *m = rc_canvas_edit(c, k);
            m->data[0] = ai, m->data[1] = q->perf_launch;
        }
    }
    for (size_t i = 0; i < n; i++) {
        const roof *q = &r[i];
        if (q->series < 0 || !(q->perf_roof > 0))
            continue;
        rc_canvas_item *it = chart_add_marker(c, RC_ROLE_POINT_ROOF, q->series, px,
                                              chart_to_page(&p->ay, q->perf_roof), 8, false);
        if (it)
            it->data[0] = ai, it->data[1] = q->perf_roof;
    }
}

const rc_roofline_layout RC_ROOFLINE_BESIDE = {CHART_WIDTH, 0, false};
const rc_roofline_layout RC_ROOFLINE_NARROW = {RC_CHART_NARROW_WIDTH, 220, true};

rc_chart *rc_chart_new_roofline(xmlNodePtr kernel, xmlNodePtr gpus, const rc_fonts *fonts)
{
    return rc_chart_new_roofline_laid_out(kernel, gpus, fonts, &RC_ROOFLINE_BESIDE);
}

/* What the roofline shows of a kernel, read from the tree. */
typedef struct {
    char *name, *flops, *bytes, *ai_text; /* as the tree prints them */
    double ai;                            /* FLOP/byte */
    bool has_point;                       /* ai is finite and positive */
    roof *r;                              /* a roof per estimate */
    legend_entry *le;                     /* a legend entry per estimate */
    size_t n;
    double xmin, xmax, ymin, ymax; /* what the axes must hold */
} roofline_data;

static void roofline_data_free(roofline_data *d)
{
    free(d->r);
    chart_legend_free(d->le, d->n);
    free(d->name);
    free(d->flops);
    free(d->bytes);
    free(d->ai_text);
}

/* A roof's legend entry: the GPU's name, its figures, and (when the kernel
 * has a point) its performance on the roof and per launch. */
static bool roof_legend_entry(xmlNodePtr e, xmlNodePtr g, bool has_point, legend_entry *le)
{
    le->name = chart_attr_str(e, "gpu-name");
    char *ridge = chart_attr_str(chart_figure(g, "ridge"), "value-text");
    char *peak = chart_attr_str(chart_figure(g, "peak-fp32"), "value-text");
    char *bw = chart_attr_str(chart_figure(g, "bandwidth"), "value-text");
    char *pr = chart_attr_str(e, "perf-roof-text"), *pa = chart_attr_str(e, "perf-attained-text");
    size_t dn = 64 + (ridge ? strlen(ridge) : 0) + (peak ? strlen(peak) : 0) +
                (bw ? strlen(bw) : 0) + (pr ? strlen(pr) : 0) + (pa ? strlen(pa) : 0);
    le->detail[0] = malloc(dn);
    le->detail[1] = malloc(dn);
    if (le->detail[0] && ridge && peak && bw)
        snprintf(le->detail[0], dn, "%s, %s; ridge %s", peak, bw, ridge);
    if (le->detail[1] && pr && pa) {
        if (has_point)
            snprintf(le->detail[1], dn, "roof %s; per launch %s", pr, pa);
        else
            le->detail[1][0] = '\0';
    }
    bool ok = le->name && le->detail[0] && le->detail[1] && ridge && peak && bw && pr && pa;
    free(ridge);
    free(peak);
    free(bw);
    free(pr);
    free(pa);
    return ok;
}

/* Estimate `e`, the i-th, as roof i of `d`, widening the ranges to hold
 * what is drawn of it. */
static bool read_roof(roofline_data *d, xmlNodePtr e, xmlNodePtr gpus, size_t i)
{
    xmlNodePtr g = NULL;
    roof *q = &d->r[i];
    q->series = chart_gpu_index(gpus, e, &g);
    if (q->series < 0)
        q->series = (int)i;
    q->peak = chart_attr_num(chart_figure(g, "peak-fp32"), "value");
    q->bandwidth = chart_attr_num(chart_figure(g, "bandwidth"), "value");
    q->ridge = chart_attr_num(chart_figure(g, "ridge"), "value");
    q->perf_roof = chart_attr_num(e, "perf-roof");
    q->perf_launch = chart_attr_num(e, "perf-attained");
    static const char *const levels[] = {"intensity-l1", "intensity-l2", "intensity-dram"};
    for (int l = 0; l < 3; l++) {
        q->level_ai[l] =
            d->has_point && xmlHasProp(e, X(levels[l])) ? chart_attr_num(e, levels[l]) : 0;
        if (q->level_ai[l] > 0 && isfinite(q->level_ai[l])) {
            d->xmin = fmin(d->xmin, q->level_ai[l]);
            d->xmax = fmax(d->xmax, q->level_ai[l]);
        } else
            q->level_ai[l] = 0;
    }
    if (!(q->peak > 0 && q->bandwidth > 0 && isfinite(q->ridge))) {
        q->series = -1; /* no figures: listed, not drawn */
    } else {
        d->xmin = fmin(d->xmin, q->ridge);
        d->xmax = fmax(d->xmax, q->ridge);
        d->ymax = fmax(d->ymax, q->peak);
        d->ymin = fmin(d->ymin, q->peak);
    }
    if (d->has_point && q->series >= 0) {
        if (q->perf_roof > 0)
            d->ymin = fmin(d->ymin, q->perf_roof);
        if (q->perf_launch > 0)
            d->ymin = fmin(d->ymin, q->perf_launch);
    }
    d->le[i].series = q->series >= 0 ? q->series : (int)i;
    return roof_legend_entry(e, g, d->has_point, &d->le[i]);
}

/* The roofline's data from `kernel`; false when out of memory or without
 * estimates (d->n == 0). Free with roofline_data_free either way. */
static bool read_roofline(roofline_data *d, xmlNodePtr kernel, xmlNodePtr gpus)
{
    memset(d, 0, sizeof *d);
    xmlNodePtr estimates = rc_results_child(kernel, "estimates");
    xmlNodePtr counts = rc_results_child(kernel, "counts");
    FOR_EACH(e, estimates, "estimate")
        d->n++;
    if (d->n == 0)
        return false;
    d->r = calloc(d->n, sizeof *d->r);
    d->le = calloc(d->n, sizeof *d->le);
    d->name = chart_attr_str(kernel, "name");
    d->flops = chart_attr_str(rc_results_child(counts, "flops"), "total-text");
    d->bytes = chart_attr_str(rc_results_child(counts, "bytes"), "total-text");
    xmlNodePtr ai_node = rc_results_child(counts, "intensity");
    d->ai_text = chart_attr_str(ai_node, "value-text");
    if (!d->r || !d->le || !d->name || !d->flops || !d->bytes || !d->ai_text)
        return false;
    d->ai = chart_attr_num(ai_node, "value");
    d->has_point = isfinite(d->ai) && d->ai > 0;
    d->xmin = d->has_point ? d->ai : INFINITY, d->xmax = d->has_point ? d->ai : 0;
    d->ymin = INFINITY, d->ymax = 0;
    size_t i = 0;
    FOR_EACH(e, estimates, "estimate")
        if (!read_roof(d, e, gpus, i++))
            return false;
    return true;
}

/* The roofline's log axes over the data, with margins; an empty frame's
 * when there is nothing to draw. */
static void roofline_axes(const roofline_data *d, axis *ax, axis *ay)
{
    double xmin = d->xmin, xmax = d->xmax, ymin = d->ymin, ymax = d->ymax;
    if (!(xmax > 0)) { /* no usable GPU and no point: an empty frame */
        xmin = 0.1;
        xmax = 10;
    }
    if (!(ymax > 0)) {
        ymin = 1e9;
        ymax = 1e12;
    }
    *ax = (axis){0, 0, 0, 0, true}, *ay = (axis){0, 0, 0, 0, true};
    chart_log_range(xmin, xmax, 2, &ax->lo, &ax->hi);
    chart_log_range(ymin, ymax, 1.25, &ay->lo, &ay->hi);
}

/* The roofline's title and subtitle; returns the y below them. */
static double roofline_titles(rc_chart *c, const roofline_data *d)
{
    char subtitle[256];
    bool no_bytes = strcmp(d->bytes, "0") == 0, no_flops = strcmp(d->flops, "0") == 0;
    if (no_bytes) /* no ratio to give, as the reports say */
        snprintf(subtitle, sizeof subtitle, "%s FLOPs over 0 bytes: %s; one roof per GPU", d->flops,
                 no_flops ? "no intensity" : "unbounded intensity");
    else
        snprintf(subtitle, sizeof subtitle,
                 "%s FLOPs over %s bytes: %s FLOP/byte; one roof per GPU", d->flops, d->bytes,
                 d->ai_text);
    char *title = chart_join3("Roofline of ", d->name, "");
    if (!title) {
        rc_canvas_fail(c);
        return MARGIN;
    }
    double y =
        chart_add_titles(c, MARGIN, MARGIN, rc_canvas_width(c) - 2 * MARGIN, title, subtitle);
    free(title);
    return y;
}

#define ROOFLINE_LEGEND_W 244.0

/* Where the roofline's plot goes under the titles (which end at y): left
 * of its tick labels, as high as the layout or the legend beside it asks. */
static plot_box roofline_box(rc_chart *c, const roofline_data *d, const rc_roofline_layout *layout,
                             const axis *ay, double y)
{
    double width = rc_canvas_width(c);
    bool below = layout->legend_below;
    double plot_top = y + 26; /* room for the intensity label above the plot */
    double legend_x = width - MARGIN - ROOFLINE_LEGEND_W;
    double tick_w = chart_log_labels_width(rc_canvas_fonts(c), ay->lo, ay->hi, true, "FLOP/s");
    double plot_left = MARGIN + SIZE_TEXT * 1.3 + 8 + tick_w + 6;
    double plot_right = below ? width - MARGIN - 8 : legend_x - 22;
    double legend_h =
        below ? 0
              : rc_fonts_ascent(rc_canvas_fonts(c), RC_FONT_BOLD, SIZE_TEXT) + 8 +
                    chart_legend(c, 0, 0, ROOFLINE_LEGEND_W, d->le, d->n, true, true) + 70;
    double plot_h = layout->plot_height > 0 ? layout->plot_height : fmax(340, legend_h - 40);
    return (plot_box){plot_left, plot_top, plot_right, plot_top + plot_h};
}

/* The plot's white ground, both log axes with their grids and titles, and
 * the frame. */
static void roofline_frame(rc_chart *c, const plot_box *b, const axis *ax, const axis *ay)
{
    rc_canvas_add_rect(c, RC_ROLE_NONE, b->left, b->top, b->right - b->left, b->bottom - b->top,
                       &white, NULL, 0);
    chart_log_axis(c, ax, true, b->bottom, b->top, b->bottom, false, NULL);
    chart_log_axis(c, ay, false, b->left, b->left, b->right, true, "FLOP/s");
    chart_plot_frame(c, b);
    chart_axis_title_below(c, b->left, b->right, b->bottom, "Arithmetic intensity (FLOP/byte)");
    chart_add_rotated(
        c, RC_ROLE_AXIS, MARGIN + rc_fonts_ascent(rc_canvas_fonts(c), RC_FONT_REGULAR, SIZE_TEXT),
        (b->top + b->bottom) / 2, "Attainable performance (FLOP/s)", RC_FONT_REGULAR, SIZE_TEXT);
}

/* The legend beside the plot with each GPU's figures, then the key to the
 * symbols. Returns the y below it. */
static double roofline_legend_beside(rc_chart *c, const roofline_data *d, double top)
{
    double x = rc_canvas_width(c) - MARGIN - ROOFLINE_LEGEND_W, w = ROOFLINE_LEGEND_W;
    double y = chart_legend_beside(c, x, top, w, "GPUs: FP32 peak, bandwidth", d->le, d->n, true);
    if (!d->has_point)
        return y;
    y += 4;
    rc_canvas_add_line(c, RC_ROLE_LEGEND, x, y, x + w, y, grid_major, 0.6);
    y += 6;
    bool levels = false;
    for (size_t i = 0; i < d->n; i++)
        levels =
            levels || d->r[i].level_ai[0] > 0 || d->r[i].level_ai[1] > 0 || d->r[i].level_ai[2] > 0;
    for (int k = 0; k < (levels ? 4 : 3); k++) {
        symbol_key(c, k, x, y, k < 3 ? ROOFLINE_KEYS[k] : "small: at L1, L2, DRAM intensity");
        y += 13;
    }
    return y;
}

/* For a narrow page: the GPUs' names in columns under the plot, then the
 * keys in a row. Returns the y below them. */
static double roofline_legend_below(rc_chart *c, const roofline_data *d, double y)
{
    double w = rc_canvas_width(c) - 2 * MARGIN;
    y = chart_legend_columns(c, MARGIN, y + 8, w, d->le, d->n);
    bool levels = false;
    for (size_t i = 0; i < d->n; i++)
        levels =
            levels || d->r[i].level_ai[0] > 0 || d->r[i].level_ai[1] > 0 || d->r[i].level_ai[2] > 0;
    if (d->has_point)
        y = symbol_keys_row(c, MARGIN, y + 4, w, levels);
    return y;
}

rc_chart *rc_chart_new_roofline_laid_out(xmlNodePtr kernel, xmlNodePtr gpus, const rc_fonts *fonts,
                                         const rc_roofline_layout *layout)
{
    roofline_data d;
    rc_chart *c = NULL, *done = NULL;
    if (!read_roofline(&d, kernel, gpus) || !(c = chart_new(fonts, layout->width)))
        goto end;
    axis ax, ay;
    roofline_axes(&d, &ax, &ay);
    plot_box box = roofline_box(c, &d, layout, &ay, roofline_titles(c, &d));
    ax.p0 = box.left, ax.p1 = box.right;
    ay.p0 = box.bottom, ay.p1 = box.top;
    roofline_frame(c, &box, &ax, &ay);

    roofline_plot rp = {c, d.r, d.n, ax, ay, d.ai, d.has_point};
    if (d.has_point)
        draw_intensity(&rp, &box, d.name, d.ai_text);
    draw_roofs(&rp);
    draw_level_points(&rp);
    draw_kernel_points(&rp, &box, layout->legend_below);

    double axis_bottom = chart_below_axis_title(box.bottom);
    double bottom = layout->legend_below
                        ? roofline_legend_below(c, &d, axis_bottom)
                        : fmax(axis_bottom, roofline_legend_beside(c, &d, box.top));
    done = chart_finish(c, bottom + MARGIN);
    c = NULL;
end:
    roofline_data_free(&d);
    rc_chart_free(c);
    return done;
}
