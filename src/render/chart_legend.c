/* chart_legend.c: the legend of GPUs, beside a plot or in columns under it.
 * See chart.h and chart_impl.h. */
#include "render/chart_impl.h"

#include <math.h>
#include <stdlib.h>

/* A legend entry's sample, `sample` wide from x on the line `mid`: a
 * roof's line when `with_line`, and the GPU's marker. */
static void legend_sample(rc_chart *c, int series, double x, double mid, double sample,
                          bool with_line)
{
    if (with_line) {
        double pts[4] = {x, mid, x + sample, mid};
        chart_add_series_path(c, RC_ROLE_LEGEND, pts, 2, series, NULL);
    }
    chart_add_marker(c, RC_ROLE_LEGEND, series, x + sample / 2, mid, 7, false);
}

/* `text` wrapped to `tw` at `size`, each line on its baseline from *base
 * down: `before` is added to *base ahead of each line, `after` behind it,
 * so *base ends below the text. Nothing is drawn when `dry`. False when
 * out of memory. */
static bool legend_text(rc_chart *c, double tx, double tw, double *base, const char *text,
                        double size, double before, double after, rc_rgb colour, int series,
                        bool dry)
{
    lines l = {NULL, 0, 0};
    if (!chart_wrap(rc_canvas_fonts(c), RC_FONT_REGULAR, size, text, tw, &l)) {
        chart_lines_free(&l);
        return false;
    }
    for (size_t j = 0; j < l.n; j++) {
        *base += before;
        if (!dry) {
            rc_canvas_item *it = rc_canvas_add_text(c, RC_ROLE_LEGEND, tx, *base, l.line[j],
                                                    RC_FONT_REGULAR, size, RC_ANCHOR_START, colour);
            if (it)
                it->series = series;
        }
        *base += after;
    }
    chart_lines_free(&l);
    return true;
}

/* The GPU legend at (x, y), `w` wide: a sample (a roof's line when
 * `with_line`, and the GPU's marker), the name wrapped, its detail lines.
 * With `dry` it only measures. Returns the height used. */
double chart_legend(rc_chart *c, double x, double y, double w, const legend_entry *e, size_t n,
                    bool with_line, bool dry)
{
    const double name_size = SIZE_TEXT, detail_size = SIZE_SMALL;
    double sample = with_line ? 26 : 12, tx = x + sample + 6, tw = w - sample - 6;
    double top = y;
    double asc = rc_fonts_ascent(rc_canvas_fonts(c), RC_FONT_REGULAR, name_size);
    for (size_t i = 0; i < n; i++) {
        double base = y + asc;
        if (!dry)
            legend_sample(c, e[i].series, x, base - asc * 0.35, sample, with_line);
        bool ok = legend_text(c, tx, tw, &base, e[i].name, name_size, 0, name_size * 1.25, ink,
                              e[i].series, dry);
        for (int d = 0; ok && d < 2; d++)
            if (e[i].detail[d] && *e[i].detail[d])
                ok = legend_text(c, tx, tw, &base, e[i].detail[d], detail_size,
                                 detail_size * 0.15, detail_size * 1.2, ink_soft, e[i].series, dry);
        if (!ok) {
            rc_canvas_fail(c);
            return 0;
        }
        y = base - asc + 5;
    }
    return y - top;
}

/* The GPU legend beside a plot, `w` wide from x: a bold heading level
 * with the plot's top, then the entries. Returns the y below it. */
double chart_legend_beside(rc_chart *c, double x, double top, double w, const char *heading,
                           const legend_entry *e, size_t n, bool with_line)
{
    double y = top + rc_fonts_ascent(rc_canvas_fonts(c), RC_FONT_BOLD, SIZE_TEXT);
    rc_canvas_add_text(c, RC_ROLE_LEGEND, x, y, heading, RC_FONT_BOLD, SIZE_TEXT, RC_ANCHOR_START,
                       ink);
    y += 8;
    return y + chart_legend(c, x, y, w, e, n, with_line, false);
}

/* The GPU legend under a plot, for a narrow page: each GPU's roof line,
 * marker and name (no figures), in as many columns as fit `w`, filled
 * down first. Returns the y below it. */
double chart_legend_columns(rc_chart *c, double x, double y, double w, const legend_entry *e,
                            size_t n)
{
    const double size = SIZE_SMALL, sample = 22, gap = 12, lh = size * 1.25;
    double widest = 0;
    for (size_t i = 0; i < n; i++)
        widest = fmax(widest, rc_fonts_width(rc_canvas_fonts(c), RC_FONT_REGULAR, size, e[i].name));
    size_t ncols = (size_t)fmax(1, fmin((double)n, floor((w + gap) / (sample + 6 + widest + gap))));
    size_t nrows = n ? (n + ncols - 1) / ncols : 0;
    double col_w = (w + gap) / (double)ncols, tw = col_w - gap - sample - 6;
    double asc = rc_fonts_ascent(rc_canvas_fonts(c), RC_FONT_REGULAR, size);
    for (size_t r = 0; r < nrows; r++) {
        size_t most = 1;
        for (size_t col = 0; col < ncols; col++) {
            size_t i = col * nrows + r;
            if (i >= n)
                continue;
            lines l = {NULL, 0, 0};
            if (!chart_wrap(rc_canvas_fonts(c), RC_FONT_REGULAR, size, e[i].name, tw, &l)) {
                rc_canvas_fail(c);
                return y;
            }
            double ex = x + (double)col * col_w, base = y + asc;
            legend_sample(c, e[i].series, ex, base - asc * 0.35, sample, true);
            chart_add_lines(c, RC_ROLE_LEGEND, ex + sample + 6, base, lh, &l, RC_FONT_REGULAR, size,
                            RC_ANCHOR_START, ink, e[i].series, -1);
            most = l.n > most ? l.n : most;
            chart_lines_free(&l);
        }
        y += lh * (double)most + 3;
    }
    return y;
}

void chart_legend_free(legend_entry *e, size_t n)
{
    for (size_t i = 0; e && i < n; i++) {
        free(e[i].name);
        free(e[i].detail[0]);
        free(e[i].detail[1]);
    }
    free(e);
}
