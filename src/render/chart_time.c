/* chart_time.c: the time chart (rc_chart_new_time). See chart.h and
 * chart_impl.h. */
#include "render/chart_impl.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/format.h"
#include "results/results.h"

/* The time chart's two parts: Okabe-Ito blue and orange. */
static const rc_rgb body_colour = {0.000, 0.447, 0.698};
static const rc_rgb launch_colour = {0.902, 0.624, 0.000};
/* The refined estimate's thin bar: Okabe-Ito vermillion. */
static const rc_rgb estimate_colour = {0.835, 0.369, 0.000};

/* ---- the time chart ------------------------------------------------------ */

/* A linear axis from 0 with a 1-2-5 step: sets *step, returns the top. */
static double nice_top(double v, double *step)
{
    if (!(v > 0)) {
        *step = 1;
        return 1;
    }
    double raw = v / 5, e = pow(10, floor(log10(raw)));
    double m = raw / e;
    double s = (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * e;
    *step = s;
    return ceil(v / s - 1e-9) * s;
}

static char *tick_text(double v, double step, char *buf, size_t size)
{
    int decimals = step >= 1 ? 0 : (int)ceil(-log10(step) - 1e-9);
    if (decimals == 0 && fabs(v) < 1e15) /* "10,000", as the bars' own labels group digits */
        rc_format_int((int64_t)llround(v), buf, size);
    else
        snprintf(buf, size, "%.*f", decimals, v);
    return buf;
}

/* The grid of a linear axis from 0 over rows from `top` to `bottom`: a
 * line each `step` (the zero line as dark as the frame), its tick and
 * label under `bottom`; then the axis line. */
static void linear_grid(rc_chart *c, const axis *a, double step, double top, double bottom)
{
    for (double t = 0; t <= a->hi + step / 2; t += step) {
        double p = chart_to_page(a, t);
        rc_canvas_add_line(c, RC_ROLE_GRID, p, top, p, bottom, t == 0 ? frame : grid_major,
                           t == 0 ? 0.8 : 0.6);
        rc_canvas_add_line(c, RC_ROLE_AXIS, p, bottom, p, bottom + 4, frame, 0.8);
        char buf[32];
        chart_tick_label_below(c, p, bottom, tick_text(t, step, buf, sizeof buf));
    }
    rc_canvas_add_line(c, RC_ROLE_AXIS, a->p0, bottom, a->p1, bottom, frame, 0.8);
}

/* A GPU's row of the time chart. */
typedef struct {
    int series;
    char *name;   /* the GPU's */
    char *note;   /* beside the bar: t_total, the bound, the launch's share */
    bool fastest; /* the note is bold */
    double body, launch, refined, total; /* s; refined is NaN when absent */
    double lower;                        /* s, t_lower; NaN when absent */
    double mid;                          /* the row's middle, in points */
} time_row;

/* The note beside a bar, as the tree prints its numbers; NULL when out
 * of memory. */
/* The note beside a refined row: "1,020 µs, memory latency: 160 threads at work, fastest;
 * t_total 41.8 µs". */
static char *refined_note(xmlNodePtr e)
{
    char *est = chart_attr_str(e, "t-estimate-text"), *words = chart_attr_str(e, "limiter-words");
    char *t = chart_attr_str(e, "t-total-text");
    size_t len = 64 + (est ? strlen(est) : 0) + (words ? strlen(words) : 0) + (t ? strlen(t) : 0);
    char *note = est && t ? malloc(len) : NULL;
    if (note)
        snprintf(note, len, "%s µs%s%s%s; t_total %s µs", est, words ? ", " : "",
                 words ? words : "", chart_attr_is(e, "fastest", "yes") ? ", fastest" : "", t);
    free(est);
    free(words);
    free(t);
    return note;
}

static char *time_note(xmlNodePtr e)
{
    if (xmlHasProp(e, (const xmlChar *)"t-estimate"))
        return refined_note(e);
    char *t = chart_attr_str(e, "t-total-text"), *bound = chart_attr_str(e, "bound");
    char *share = chart_attr_str(e, "launch-percent-text");
    size_t len =
        128 + (t ? strlen(t) : 0) + (bound ? strlen(bound) : 0) + (share ? strlen(share) : 0);
    char *note = t && bound && share ? malloc(len) : NULL;
    if (note) {
        bool no_work = strcmp(bound, "none") == 0;
        snprintf(note, len, "%s µs, %s%s, launch %s %%%s", t, no_work ? "no work" : bound,
                 no_work ? "" : " bound", share,
                 chart_attr_is(e, "fastest", "yes") ? ", fastest" : "");
    }
    free(t);
    free(bound);
    free(share);
    return note;
}

/* The widths the names and notes need, and the longest time. */
typedef struct {
    double name_w, note_w, tmax;
} time_extent;

/* The rows from the estimates; false when out of memory. */
static bool read_time_rows(xmlNodePtr estimates, xmlNodePtr gpus, const rc_fonts *fonts,
                           time_row *rows, time_extent *x)
{
    *x = (time_extent){0, 0, 0};
    size_t i = 0;
    FOR_EACH(e, estimates, "estimate") {
        time_row *row = &rows[i];
        row->series = chart_gpu_index(gpus, e, NULL);
        if (row->series < 0)
            row->series = (int)i;
        row->name = chart_attr_str(e, "gpu-name");
        row->note = time_note(e);
        if (!row->name || !row->note)
            return false;
        row->fastest = chart_attr_is(e, "fastest", "yes");
        row->body = chart_attr_num(e, "t-body"), row->launch = chart_attr_num(e, "t-launch");
        row->refined = chart_attr_num(e, "t-estimate"), row->total = chart_attr_num(e, "t-total");
        row->lower = chart_attr_num(e, "t-lower");
        rc_font_role role = row->fastest ? RC_FONT_BOLD : RC_FONT_REGULAR;
        x->note_w = fmax(x->note_w, rc_fonts_width(fonts, role, SIZE_TEXT, row->note));
        x->name_w = fmax(x->name_w, rc_fonts_width(fonts, RC_FONT_REGULAR, SIZE_TEXT, row->name));
        x->tmax = fmax(x->tmax, fmax(row->total, row->refined > 0 ? row->refined : 0));
        i++;
    }
    x->name_w = fmin(x->name_w, 170);
    x->note_w = fmin(x->note_w, 280);
    return true;
}

static void time_rows_free(time_row *rows, size_t n)
{
    for (size_t i = 0; rows && i < n; i++) {
        free(rows[i].name);
        free(rows[i].note);
    }
    free(rows);
}

/* The key to a refined chart's bar and points in a line from y; returns the y below it. */
static double refined_keys(rc_chart *c, double y)
{
    double kx = MARGIN, kb = y + rc_fonts_ascent(rc_canvas_fonts(c), RC_FONT_REGULAR, SIZE_TEXT);
    static const char *const keys[] = {"bar: t_estimate, the refined estimate",
                                       "t_lower: no run is faster", "t_total: the peak roofline"};
    for (int k = 0; k < 3; k++) {
        rc_canvas_item *it;
        if (k == 0)
            rc_canvas_add_rect(c, RC_ROLE_LEGEND, kx, kb - 8, 14, 9, &body_colour, &white, 0.5);
        else if ((it = rc_canvas_add(c, RC_ITEM_MARKER, RC_ROLE_LEGEND))) {
            it->shape = k == 1 ? RC_MARKER_DIAMOND : RC_MARKER_CIRCLE;
            it->x = kx + 7, it->y = kb - 3.5, it->size = 8;
            it->has_fill = k == 1, it->fill = ink, it->stroke = ink, it->stroke_width = 1.4;
        }
        it = rc_canvas_add_text(c, RC_ROLE_LEGEND, kx + 19, kb, keys[k], RC_FONT_REGULAR, SIZE_TEXT,
                                RC_ANCHOR_START, ink);
        kx += 19 + (it ? it->width : 0) + 18;
    }
    return kb + 12;
}

/* A refined row: the bar from 0 to t_estimate, t_lower (a filled diamond) and t_total (a
 * hollow circle) marked on the row, and the note after the farthest of them. */
static void refined_bar(rc_chart *c, const axis *ax, const time_row *row)
{
    double cy = row->mid, x0 = chart_to_page(ax, 0), x1 = chart_to_page(ax, row->refined * 1e6);
    rc_canvas_item *it =
        rc_canvas_add_rect(c, RC_ROLE_BAR_ESTIMATE, x0, cy - 6, x1 - x0, 12, &body_colour, NULL, 0);
    if (it)
        it->series = row->series, it->data[0] = row->refined;
    double marks[2] = {row->lower, row->total}, right = x1;
    for (int k = 0; k < 2; k++) {
        if (!(marks[k] >= 0))
            continue;
        double x = chart_to_page(ax, marks[k] * 1e6);
        it = rc_canvas_add(c, RC_ITEM_MARKER, k == 0 ? RC_ROLE_POINT_LOWER : RC_ROLE_POINT_TOTAL);
        if (it) {
            it->shape = k == 0 ? RC_MARKER_DIAMOND : RC_MARKER_CIRCLE;
            it->x = x, it->y = cy, it->size = 8, it->series = row->series;
            it->has_fill = k == 0, it->fill = ink, it->stroke = ink, it->stroke_width = 1.4;
            it->data[0] = marks[k];
        }
        right = fmax(right, x + 4);
    }
    rc_font_role role = row->fastest ? RC_FONT_BOLD : RC_FONT_REGULAR;
    double nx = right + 6, room = rc_canvas_width(c) - MARGIN - nx;
    if (rc_fonts_width(rc_canvas_fonts(c), role, SIZE_TEXT, row->note) <= room) {
        it = rc_canvas_add_text(c, RC_ROLE_BAR_LABEL, nx, cy + 3, row->note, role, SIZE_TEXT,
                                RC_ANCHOR_START, ink);
        if (it)
            it->series = row->series, it->data[0] = row->refined;
    } else {
        chart_add_block(c, RC_ROLE_BAR_LABEL, nx, cy - 1, row->note, role, SIZE_TEXT, SIZE_SMALL,
                        room, RC_ANCHOR_START, ink);
    }
}

/* The key to the bar's parts in a line from y; returns the y below it. */
static double time_keys(rc_chart *c, double y)
{
    double kx = MARGIN, kb = y + rc_fonts_ascent(rc_canvas_fonts(c), RC_FONT_REGULAR, SIZE_TEXT);
    static const char *const keys[] = {"body: t_body", "launch latency: t_launch",
                                       "refined estimate: t_estimate"};
    const rc_rgb *key_colours[] = {&body_colour, &launch_colour, &estimate_colour};
    for (int k = 0; k < 3; k++) {
        rc_canvas_add_rect(c, RC_ROLE_LEGEND, kx, k == 2 ? kb - 5 : kb - 8, 14, k == 2 ? 3 : 9,
                           key_colours[k], &white, 0.5);
        rc_canvas_item *it = rc_canvas_add_text(c, RC_ROLE_LEGEND, kx + 19, kb, keys[k],
                                                RC_FONT_REGULAR, SIZE_TEXT, RC_ANCHOR_START, ink);
        kx += 19 + (it ? it->width : 0) + 18;
    }
    return kb + 12;
}

/* A row's bar: t_body then t_launch, the refined estimate under them, and
 * the note after them (wrapped when it would pass the chart's edge). */
static void time_bar(rc_chart *c, const axis *ax, const time_row *row)
{
    double cy = row->mid, body = row->body, launch = row->launch;
    double x0 = chart_to_page(ax, 0), x1 = chart_to_page(ax, body * 1e6),
           x2 = chart_to_page(ax, (body + launch) * 1e6);
    rc_canvas_item *it =
        rc_canvas_add_rect(c, RC_ROLE_BAR_BODY, x0, cy - 6, x1 - x0, 12, &body_colour, NULL, 0);
    if (it)
        it->series = row->series, it->data[0] = body;
    it =
        rc_canvas_add_rect(c, RC_ROLE_BAR_LAUNCH, x1, cy - 6, x2 - x1, 12, &launch_colour, NULL, 0);
    if (it)
        it->series = row->series, it->data[0] = launch;
    rc_canvas_add_line(c, RC_ROLE_NONE, x1, cy - 6, x1, cy + 6, white, 0.8);
    if (row->refined > 0) {
        double x3 = chart_to_page(ax, row->refined * 1e6);
        it = rc_canvas_add_rect(c, RC_ROLE_BAR_ESTIMATE, x0, cy + 7, x3 - x0, 3, &estimate_colour,
                                NULL, 0);
        if (it)
            it->series = row->series, it->data[0] = row->refined;
    }
    rc_font_role role = row->fastest ? RC_FONT_BOLD : RC_FONT_REGULAR;
    double nx = x2 + 6, room = rc_canvas_width(c) - MARGIN - nx;
    if (rc_fonts_width(rc_canvas_fonts(c), role, SIZE_TEXT, row->note) <= room) {
        it = rc_canvas_add_text(c, RC_ROLE_BAR_LABEL, nx, cy + 3, row->note, role, SIZE_TEXT,
                                RC_ANCHOR_START, ink);
        if (it)
            it->series = row->series, it->data[0] = body + launch;
    } else {
        chart_add_block(c, RC_ROLE_BAR_LABEL, nx, cy - 1, row->note, role, SIZE_TEXT, SIZE_SMALL,
                        room, RC_ANCHOR_START, ink);
    }
}

rc_chart *rc_chart_new_time(xmlNodePtr kernel, xmlNodePtr gpus, const rc_fonts *fonts)
{
    xmlNodePtr estimates = rc_results_child(kernel, "estimates");
    size_t n = 0;
    FOR_EACH(e, estimates, "estimate")
        n++;
    if (n == 0)
        return NULL;
    rc_chart *c = chart_new(fonts, CHART_WIDTH), *done = NULL;
    char *name = chart_attr_str(kernel, "name");
    char *title = name ? chart_join3("Time per launch of ", name, "") : NULL;
    time_row *rows = calloc(n, sizeof *rows);
    time_extent ext;
    if (!c || !title || !rows || !read_time_rows(estimates, gpus, fonts, rows, &ext))
        goto end;
    bool refined = true;
    for (size_t i = 0; i < n; i++)
        refined = refined && rows[i].refined > 0;
    double y =
        chart_add_titles(c, MARGIN, MARGIN, CHART_WIDTH - 2 * MARGIN, title,
                         refined ? "t_estimate on each GPU, the time to plan with, as the bar; "
                                   "t_lower and t_total marked; the fastest (within 10 %) in bold"
                                 : "t_total = t_body + t_launch on each GPU, where t_body = "
                                   "max(t_compute, t_mem)");
    y = refined ? refined_keys(c, y + 10) : time_keys(c, y + 10);

    double label_x = MARGIN + 14, step;
    double top = nice_top(ext.tmax * 1e6, &step);
    axis ax = {0, top, label_x + ext.name_w + 12, CHART_WIDTH - MARGIN - ext.note_w - 10, false};
    double bottom = y; /* rows as high as their wrapped names */
    for (size_t i = 0; i < n; i++) {
        double h = chart_row_height(c, rows[i].name, ext.name_w);
        rows[i].mid = bottom + h / 2;
        bottom += h;
    }
    linear_grid(c, &ax, step, y, bottom);
    for (size_t i = 0; i < n; i++) {
        chart_add_marker(c, RC_ROLE_LABEL, rows[i].series, MARGIN + 5, rows[i].mid, 7, false);
        chart_row_label(c, label_x, rows[i].mid, SIZE_TEXT * 0.35, rows[i].name, RC_FONT_REGULAR,
                        RC_ANCHOR_START, ext.name_w, rows[i].series, -1);
        if (refined)
            refined_bar(c, &ax, &rows[i]);
        else
            time_bar(c, &ax, &rows[i]);
    }
    chart_axis_title_below(c, ax.p0, ax.p1, bottom, "Time per launch (µs)");
    done = chart_finish(c, chart_below_axis_title(bottom) + MARGIN);
    c = NULL;
end:
    if (c)
        rc_canvas_fail(c);
    time_rows_free(rows, n);
    free(title);
    free(name);
    rc_chart_free(c);
    return done;
}
