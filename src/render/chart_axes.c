/* chart_axes.c: axes, titles and the plot furniture every chart shares. See
 * chart.h and chart_impl.h. */
#include "render/chart_impl.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "results/format.h"

double chart_to_page(const axis *a, double v)
{
    double t = a->log ? (log10(v) - log10(a->lo)) / (log10(a->hi) - log10(a->lo))
                      : (v - a->lo) / (a->hi - a->lo);
    return a->p0 + t * (a->p1 - a->p0);
}

static double decade_below(double v) { return pow(10, floor(log10(v) + 1e-9)); }

/* The nearest 1, 2 or 5 x 10^k at or below / above v: log axes end there,
 * which wastes less room than whole decades. */
static double nice_below(double v)
{
    double d = decade_below(v);
    return v >= 5 * d * (1 - 1e-9) ? 5 * d : v >= 2 * d * (1 - 1e-9) ? 2 * d : d;
}

static double nice_above(double v)
{
    double d = decade_below(v);
    return v <= d * (1 + 1e-9)       ? d
           : v <= 2 * d * (1 + 1e-9) ? 2 * d
           : v <= 5 * d * (1 + 1e-9) ? 5 * d
                                     : 10 * d;
}

/* A log axis from lo to hi (with margins) that shows at least one power of
 * ten, so that it has a labelled tick. */
void chart_log_range(double lo, double hi, double margin, double *out_lo, double *out_hi)
{
    *out_lo = nice_below(lo / margin);
    *out_hi = nice_above(hi * margin);
    if (decade_below(*out_hi) < *out_lo * (1 - 1e-9)) {
        *out_lo = decade_below(*out_lo);
        *out_hi = pow(10, ceil(log10(*out_hi) - 1e-9));
    }
}

static bool in_range(const axis *a, double v)
{
    return v >= a->lo * (1 - 1e-9) && v <= a->hi * (1 + 1e-9);
}

/* m x 10^k as a plain number: "0.02", "5", "2,000". */
static char *tick_text_log(int m, int k, char *buf, size_t size)
{
    if (k < 0)
        snprintf(buf, size, "%.*f", -k, m * pow(10, k));
    else if (k <= 15)
        rc_format_int((int64_t)llround(m * pow(10, k)), buf, size);
    else
        snprintf(buf, size, "%de%d", m, k);
    return buf;
}

/* The label of the decade 10^k: an SI number of `unit` when `si`, else a
 * plain number ("0.01", "1", "1,000"). */
static char *decade_label(int k, bool si, const char *unit, char *buf, size_t size)
{
    return si ? rc_format_si(pow(10, k), unit, buf, size) : tick_text_log(1, k, buf, size);
}

/* A tick's label under a horizontal axis whose ticks hang from `edge`. */
void chart_tick_label_below(rc_chart *c, double p, double edge, const char *text)
{
    rc_canvas_add_text(c, RC_ROLE_TICK_LABEL, p,
                       edge + 6 + rc_fonts_ascent(rc_canvas_fonts(c), RC_FONT_REGULAR, SIZE_SMALL),
                       text, RC_FONT_REGULAR, SIZE_SMALL, RC_ANCHOR_MIDDLE, ink_soft);
}

/* A horizontal axis's title, centred between left and right under the
 * tick labels of the axis at `edge`. */
void chart_axis_title_below(rc_chart *c, double left, double right, double edge, const char *text)
{
    rc_canvas_add_text(c, RC_ROLE_AXIS, (left + right) / 2,
                       edge + 6 + SIZE_SMALL * 1.25 + 6 +
                           rc_fonts_ascent(rc_canvas_fonts(c), RC_FONT_REGULAR, SIZE_TEXT),
                       text, RC_FONT_REGULAR, SIZE_TEXT, RC_ANCHOR_MIDDLE, ink);
}

/* The y below a horizontal axis at `edge`: its tick labels and title. */
double chart_below_axis_title(double edge)
{
    return edge + 6 + SIZE_SMALL * 1.25 + 6 + SIZE_TEXT * 1.3;
}

/* Grid lines, minor ticks and labels of a log axis. Horizontal axes label
 * below `edge`, vertical ones left of it. */
void chart_log_axis(rc_chart *c, const axis *a, bool horizontal, double edge, double across0,
                    double across1, bool si, const char *unit)
{
    int k0 = (int)floor(log10(a->lo) + 1e-9), k1 = (int)ceil(log10(a->hi) - 1e-9);
    int every = (k1 - k0) > 10 ? 2 : 1;
    char buf[64];
    for (int k = k0; k <= k1; k++) {
        for (int m = 2; m <= 9; m++) {
            if (!in_range(a, m * pow(10, k)))
                continue;
            double p = chart_to_page(a, m * pow(10, k));
            if (horizontal) {
                rc_canvas_add_line(c, RC_ROLE_GRID, p, across0, p, across1, grid_minor, 0.4);
                rc_canvas_add_line(c, RC_ROLE_AXIS, p, edge, p, edge + 2.5, frame, 0.6);
            } else {
                rc_canvas_add_line(c, RC_ROLE_GRID, across0, p, across1, p, grid_minor, 0.4);
                rc_canvas_add_line(c, RC_ROLE_AXIS, edge - 2.5, p, edge, p, frame, 0.6);
            }
            /* A short axis (three decades or less) gets its 2s and 5s
             * labelled too, or it would show one or two numbers. */
            if (horizontal && !si && k1 - k0 <= 3 && (m == 2 || m == 5)) {
                chart_tick_label_below(c, p, edge, tick_text_log(m, k, buf, sizeof buf));
            }
        }
        if (!in_range(a, pow(10, k)))
            continue;
        double p = chart_to_page(a, pow(10, k));
        if (horizontal) {
            rc_canvas_add_line(c, RC_ROLE_GRID, p, across0, p, across1, grid_major, 0.6);
            rc_canvas_add_line(c, RC_ROLE_AXIS, p, edge, p, edge + 4, frame, 0.8);
        } else {
            rc_canvas_add_line(c, RC_ROLE_GRID, across0, p, across1, p, grid_major, 0.6);
            rc_canvas_add_line(c, RC_ROLE_AXIS, edge - 4, p, edge, p, frame, 0.8);
        }
        if ((k - k0) % every)
            continue;
        decade_label(k, si, unit, buf, sizeof buf);
        if (horizontal)
            chart_tick_label_below(c, p, edge, buf);
        else
            rc_canvas_add_text(c, RC_ROLE_TICK_LABEL, edge - 6, p + 3, buf, RC_FONT_REGULAR,
                               SIZE_SMALL, RC_ANCHOR_END, ink_soft);
    }
}

/* The widest label log_axis would print for decades lo..hi. */
double chart_log_labels_width(const rc_fonts *f, double lo, double hi, bool si, const char *unit)
{
    double w = 0;
    char buf[64];
    for (int k = (int)ceil(log10(lo) - 1e-9); k <= (int)floor(log10(hi) + 1e-9); k++) {
        decade_label(k, si, unit, buf, sizeof buf);
        w = fmax(w, rc_fonts_width(f, RC_FONT_REGULAR, SIZE_SMALL, buf));
    }
    return w;
}

rc_canvas_item *chart_add_rotated(rc_chart *c, rc_item_role role, double x, double y,
                                  const char *text, rc_font_role font, double size)
{
    rc_canvas_item *it = rc_canvas_add_text(c, role, x, y, text, font, size, RC_ANCHOR_MIDDLE, ink);
    if (it)
        it->angle = 90;
    return it;
}

/* The chart's title and subtitle across `maxw`; returns the y below. */
double chart_add_titles(rc_chart *c, double x, double y, double maxw, const char *title,
                        const char *subtitle)
{
    y += rc_fonts_ascent(rc_canvas_fonts(c), RC_FONT_BOLD, SIZE_TITLE);
    y = chart_add_block(c, RC_ROLE_TITLE, x, y, title, RC_FONT_BOLD, SIZE_TITLE, SIZE_TEXT, maxw,
                        RC_ANCHOR_START, ink);
    if (subtitle) {
        y += 4 + rc_fonts_ascent(rc_canvas_fonts(c), RC_FONT_REGULAR, SIZE_TEXT);
        y = chart_add_block(c, RC_ROLE_TITLE, x, y, subtitle, RC_FONT_REGULAR, SIZE_TEXT, SIZE_TEXT,
                            maxw, RC_ANCHOR_START, ink_soft);
    }
    return y;
}

/* ---- plot furniture shared by the charts --------------------------------- */

/* The plot's frame, over what is drawn inside it. */
void chart_plot_frame(rc_chart *c, const plot_box *b)
{
    rc_canvas_add_rect(c, RC_ROLE_AXIS, b->left, b->top, b->right - b->left, b->bottom - b->top,
                       NULL, &frame, 0.8);
}

/* The lines of `l` from baseline `base` down, `lh` apart, each marking
 * `series` and `group`. */
void chart_add_lines(rc_chart *c, rc_item_role role, double x, double base, double lh,
                     const lines *l, rc_font_role font, double size, rc_anchor anchor,
                     rc_rgb colour, int series, int group)
{
    for (size_t j = 0; j < l->n; j++) {
        rc_canvas_item *it = rc_canvas_add_text(c, role, x, base + lh * (double)j, l->line[j], font,
                                                size, anchor, colour);
        if (it)
            it->series = series, it->group = group;
    }
}

/* A row's label (a GPU's or a kernel's name) wrapped to `maxw`, its lines
 * centred on the row's middle `mid`; `drop` is how far a line's baseline
 * sits below its middle. */
void chart_row_label(rc_chart *c, double x, double mid, double drop, const char *text,
                     rc_font_role font, rc_anchor anchor, double maxw, int series, int group)
{
    lines l = {NULL, 0, 0};
    if (!chart_wrap(rc_canvas_fonts(c), font, SIZE_TEXT, text, maxw, &l)) {
        chart_lines_free(&l);
        rc_canvas_fail(c);
        return;
    }
    double lh = SIZE_TEXT * 1.25;
    double base = mid - lh * (double)(l.n - 1) / 2 + drop;
    chart_add_lines(c, RC_ROLE_LABEL, x, base, lh, &l, font, SIZE_TEXT, anchor, ink, series, group);
    chart_lines_free(&l);
}

/* The height of a row whose label is `text` wrapped to `maxw`: its lines
 * and some air, at least 24 points. */
double chart_row_height(rc_chart *c, const char *text, double maxw)
{
    lines l = {NULL, 0, 0};
    if (!chart_wrap(rc_canvas_fonts(c), RC_FONT_REGULAR, SIZE_TEXT, text, maxw, &l)) {
        chart_lines_free(&l);
        rc_canvas_fail(c);
        return 24;
    }
    double h = fmax(24, (double)l.n * SIZE_TEXT * 1.25 + 10);
    chart_lines_free(&l);
    return h;
}

/* Bands `h` high from the plot's top, every other one shaded from the
 * first, so that one group of rows reads apart from the next. */
void chart_shade_bands(rc_chart *c, const plot_box *b, double h, size_t n)
{
    for (size_t i = 0; i < n; i += 2)
        rc_canvas_add_rect(c, RC_ROLE_NONE, b->left, b->top + (double)i * h, b->right - b->left, h,
                           &band, NULL, 0);
}
