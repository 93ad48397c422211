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

/* Where the next key goes: at kx on the line at *kb, or at the start of a new line when its
 * sample and text (`text`) would pass the chart's right margin. Returns the key's x. */
static double key_place(rc_chart *c, double kx, double *kb, const char *text)
{
    double w = 19 + rc_fonts_width(rc_canvas_fonts(c), RC_FONT_REGULAR, SIZE_TEXT, text);
    if (kx > MARGIN && kx + w > rc_canvas_width(c) - MARGIN) {
        *kb += SIZE_TEXT * 1.6;
        return MARGIN;
    }
    return kx;
}

/* The key to a refined chart's bar and points in lines from y; returns the y below it. */
static double refined_keys(rc_chart *c, double y)
{
    double kx = MARGIN, kb = y + rc_fonts_ascent(rc_canvas_fonts(c), RC_FONT_REGULAR, SIZE_TEXT);
    static const char *const keys[] = {"bar: t_estimate, the refined estimate",
                                       "t_lower: no run is faster", "t_total: the peak roofline"};
    for (int k = 0; k < 3; k++) {
        rc_canvas_item *it;
        kx = key_place(c, kx, &kb, keys[k]);
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

/* A row's note beside its bar from nx, on the bar's line `cy`, or wrapped into the room left
 * when it does not fit; `data` is the time it states. */
static void note_beside(rc_chart *c, const time_row *row, double nx, double cy, double data)
{
    rc_font_role role = row->fastest ? RC_FONT_BOLD : RC_FONT_REGULAR;
    double room = rc_canvas_width(c) - MARGIN - nx;
    if (rc_fonts_width(rc_canvas_fonts(c), role, SIZE_TEXT, row->note) <= room) {
        rc_canvas_item *it = rc_canvas_add_text(c, RC_ROLE_BAR_LABEL, nx, cy + 3, row->note, role,
                                                SIZE_TEXT, RC_ANCHOR_START, ink);
        if (it)
            it->series = row->series, it->data[0] = data;
    } else {
        chart_add_block(c, RC_ROLE_BAR_LABEL, nx, cy - 1, row->note, role, SIZE_TEXT, SIZE_SMALL,
                        room, RC_ANCHOR_START, ink);
    }
}

/* A refined row: the bar from 0 to t_estimate, and t_lower (a filled diamond) and t_total
 * (a hollow circle) marked on the row. Returns the x after the farthest of them. */
static double refined_bar(rc_chart *c, const axis *ax, const time_row *row)
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
    return right;
}

/* The key to the bar's parts in lines from y; returns the y below it. */
static double time_keys(rc_chart *c, double y)
{
    double kx = MARGIN, kb = y + rc_fonts_ascent(rc_canvas_fonts(c), RC_FONT_REGULAR, SIZE_TEXT);
    static const char *const keys[] = {"body: t_body", "launch latency: t_launch",
                                       "refined estimate: t_estimate"};
    const rc_rgb *key_colours[] = {&body_colour, &launch_colour, &estimate_colour};
    for (int k = 0; k < 3; k++) {
        kx = key_place(c, kx, &kb, keys[k]);
        rc_canvas_add_rect(c, RC_ROLE_LEGEND, kx, k == 2 ? kb - 5 : kb - 8, 14, k == 2 ? 3 : 9,
                           key_colours[k], &white, 0.5);
        rc_canvas_item *it = rc_canvas_add_text(c, RC_ROLE_LEGEND, kx + 19, kb, keys[k],
                                                RC_FONT_REGULAR, SIZE_TEXT, RC_ANCHOR_START, ink);
        kx += 19 + (it ? it->width : 0) + 18;
    }
    return kb + 12;
}

/* A row's bar: t_body then t_launch, and the refined estimate under them.
 * Returns the x where the bar ends. */
static double time_bar(rc_chart *c, const axis *ax, const time_row *row)
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
    return x2;
}

/* What both layouts of the time chart start from: the kernel's rows (n of them) read from
 * the tree, the titles drawn across the chart. */
typedef struct {
    rc_chart *c;
    char *name, *title;
    time_row *rows;
    size_t n;
    time_extent ext;
    bool refined; /* every row has t_estimate: its bar shows it */
} time_chart;

static void time_chart_free(time_chart *t)
{
    time_rows_free(t->rows, t->n);
    free(t->title);
    free(t->name);
    rc_chart_free(t->c);
}

/* The chart `width` wide with its rows read and its titles drawn; returns the y below the
 * titles, or -1 (t to be freed) when the kernel has no estimate or memory ran out. */
static double time_chart_start(time_chart *t, xmlNodePtr kernel, xmlNodePtr gpus,
                               const rc_fonts *fonts, double width)
{
    memset(t, 0, sizeof *t);
    xmlNodePtr estimates = rc_results_child(kernel, "estimates");
    FOR_EACH(e, estimates, "estimate")
        t->n++;
    if (t->n == 0)
        return -1;
    t->c = chart_new(fonts, width);
    t->name = chart_attr_str(kernel, "name");
    t->title = t->name ? chart_join3("Time per launch of ", t->name, "") : NULL;
    t->rows = calloc(t->n, sizeof *t->rows);
    if (!t->c || !t->title || !t->rows ||
        !read_time_rows(estimates, gpus, fonts, t->rows, &t->ext))
        return -1;
    t->refined = true;
    for (size_t i = 0; i < t->n; i++)
        t->refined = t->refined && t->rows[i].refined > 0;
    return chart_add_titles(t->c, MARGIN, MARGIN, width - 2 * MARGIN, t->title,
                            t->refined
                                ? "t_estimate on each GPU, the time to plan with, as the bar; "
                                  "t_lower and t_total marked; the fastest (within 10 %) in bold"
                                : "t_total = t_body + t_launch on each GPU, where t_body = "
                                  "max(t_compute, t_mem)");
}

/* The chart, finished `bottom` high; NULL when anything failed. */
static rc_chart *time_chart_finish(time_chart *t, double bottom)
{
    rc_chart *done = chart_finish(t->c, bottom);
    t->c = NULL;
    time_chart_free(t);
    return done;
}

rc_chart *rc_chart_new_time(xmlNodePtr kernel, xmlNodePtr gpus, const rc_fonts *fonts)
{
    time_chart t;
    double y = time_chart_start(&t, kernel, gpus, fonts, CHART_WIDTH);
    if (y < 0) {
        time_chart_free(&t);
        return NULL;
    }
    rc_chart *c = t.c;
    time_row *rows = t.rows;
    y = t.refined ? refined_keys(c, y + 10) : time_keys(c, y + 10);

    double label_x = MARGIN + 14, step;
    double top = nice_top(t.ext.tmax * 1e6, &step);
    axis ax = {0, top, label_x + t.ext.name_w + 12, CHART_WIDTH - MARGIN - t.ext.note_w - 10,
               false};
    double bottom = y; /* rows as high as their wrapped names */
    for (size_t i = 0; i < t.n; i++) {
        double h = chart_row_height(c, rows[i].name, t.ext.name_w);
        rows[i].mid = bottom + h / 2;
        bottom += h;
    }
    linear_grid(c, &ax, step, y, bottom);
    for (size_t i = 0; i < t.n; i++) {
        chart_add_marker(c, RC_ROLE_LABEL, rows[i].series, MARGIN + 5, rows[i].mid, 7, false);
        chart_row_label(c, label_x, rows[i].mid, SIZE_TEXT * 0.35, rows[i].name, RC_FONT_REGULAR,
                        RC_ANCHOR_START, t.ext.name_w, rows[i].series, -1);
        if (t.refined)
            note_beside(c, &rows[i], refined_bar(c, &ax, &rows[i]) + 6, rows[i].mid,
                        rows[i].refined);
        else
            note_beside(c, &rows[i], time_bar(c, &ax, &rows[i]) + 6, rows[i].mid,
                        rows[i].body + rows[i].launch);
    }
    chart_axis_title_below(c, ax.p0, ax.p1, bottom, "Time per launch (µs)");
    return time_chart_finish(&t, chart_below_axis_title(bottom) + MARGIN);
}

/* ---- the narrow layout ------------------------------------------------------ */

/* A narrow row's text wrapped to the chart: its name over the bar, its note under it. */
typedef struct {
    lines name, note;
} narrow_text;

#define NARROW_NAME_LH (SIZE_TEXT * 1.25)
#define NARROW_NOTE_LH (SIZE_SMALL * 1.25)

/* The rows' text wrapped to `w`, into text[n]; false when out of memory. */
static bool narrow_wrap(const time_chart *t, const rc_fonts *fonts, double w, narrow_text *text)
{
    for (size_t i = 0; i < t->n; i++) {
        rc_font_role role = t->rows[i].fastest ? RC_FONT_BOLD : RC_FONT_REGULAR;
        if (!chart_wrap(fonts, RC_FONT_REGULAR, SIZE_TEXT, t->rows[i].name, w - 14, &text[i].name) ||
            !chart_wrap(fonts, role, SIZE_SMALL, t->rows[i].note, w, &text[i].note))
            return false;
    }
    return true;
}

/* The height of narrow row i: its name's lines, the bar, its note's lines, some air. */
static double narrow_row_height(const narrow_text *text)
{
    return (double)text->name.n * NARROW_NAME_LH + 24 + (double)text->note.n * NARROW_NOTE_LH + 6;
}

/* Narrow row `row` from `top`: the GPU's marker and name, its bar (the row's middle is the
 * bar's), its note under the bar. */
static void narrow_row(rc_chart *c, const axis *ax, time_row *row, const narrow_text *text,
                       double top, bool refined)
{
    const rc_fonts *f = rc_canvas_fonts(c);
    double base = top + rc_fonts_ascent(f, RC_FONT_REGULAR, SIZE_TEXT);
    chart_add_marker(c, RC_ROLE_LABEL, row->series, MARGIN + 5, base - SIZE_TEXT * 0.35, 7, false);
    chart_add_lines(c, RC_ROLE_LABEL, MARGIN + 14, base, NARROW_NAME_LH, &text->name,
                    RC_FONT_REGULAR, SIZE_TEXT, RC_ANCHOR_START, ink, row->series, -1);
    row->mid = top + (double)text->name.n * NARROW_NAME_LH + 9;
    if (refined)
        refined_bar(c, ax, row);
    else
        time_bar(c, ax, row);
    double note = row->mid + 12 + rc_fonts_ascent(f, RC_FONT_REGULAR, SIZE_SMALL);
    chart_add_lines(c, RC_ROLE_BAR_LABEL, ax->p0, note, NARROW_NOTE_LH, &text->note,
                    row->fastest ? RC_FONT_BOLD : RC_FONT_REGULAR, SIZE_SMALL, RC_ANCHOR_START,
                    ink, row->series, -1);
}

rc_chart *rc_chart_new_time_narrow(xmlNodePtr kernel, xmlNodePtr gpus, const rc_fonts *fonts)
{
    const double width = RC_CHART_NARROW_WIDTH;
    time_chart t;
    double y = time_chart_start(&t, kernel, gpus, fonts, width);
    narrow_text *text = y < 0 ? NULL : calloc(t.n, sizeof *text);
    if (!text || !narrow_wrap(&t, fonts, width - 2 * MARGIN, text)) {
        for (size_t i = 0; text && i < t.n; i++)
            chart_lines_free(&text[i].name), chart_lines_free(&text[i].note);
        free(text);
        time_chart_free(&t);
        return NULL;
    }
    rc_chart *c = t.c;
    double step, top = nice_top(t.ext.tmax * 1e6, &step);
    axis ax = {0, top, MARGIN + 4, width - MARGIN - 4, false};
    double rows_top = y + 12, bottom = rows_top;
    for (size_t i = 0; i < t.n; i++)
        bottom += narrow_row_height(&text[i]);
    linear_grid(c, &ax, step, rows_top, bottom);
    double row_top = rows_top;
    for (size_t i = 0; i < t.n; i++) {
        narrow_row(c, &ax, &t.rows[i], &text[i], row_top + 3, t.refined);
        row_top += narrow_row_height(&text[i]);
        chart_lines_free(&text[i].name);
        chart_lines_free(&text[i].note);
    }
    free(text);
    chart_axis_title_below(c, ax.p0, ax.p1, bottom, "Time per launch (µs)");
    /* The key under the plot, where a narrow screen has room for it. */
    double keys = chart_below_axis_title(bottom) + 6;
    keys = t.refined ? refined_keys(c, keys) : time_keys(c, keys);
    return time_chart_finish(&t, keys + MARGIN - 12);
}
