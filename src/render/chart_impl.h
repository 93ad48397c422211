/* chart_impl.h: what the chart builders share, internal to render/chart_*.c.
 *
 *   chart_style.c     a GPU's colour, marker and dash; the chart's canvas
 *   chart_text.c      text wrapped into lines
 *   chart_tree.c      the results tree's attributes
 *   chart_axes.c      axes, titles, rows and the plot's frame
 *   chart_legend.c    the legend of GPUs
 *   chart_roofline.c, chart_time.c, chart_overview.c: one chart each (chart.h)
 *
 * Every chart is drawn onto a canvas (paint/canvas.h) in points; strings a
 * function returns are new, and the caller frees them with free().
 */
#ifndef ROOFCAST_CHART_IMPL_H
#define ROOFCAST_CHART_IMPL_H

#include <stdbool.h>
#include <stddef.h>

#include "render/chart.h"

#define X(s) ((const xmlChar *)(s))

/* Three sizes of type: every size of a face is a separate glyph set in an
 * SVG or PDF, so fewer sizes make smaller files. */
#define SIZE_TITLE 13.0 /* bold: the chart's title */
#define SIZE_TEXT 9.0   /* subtitles, axis titles, names, labels */
#define SIZE_SMALL 8.0  /* tick labels, legend details and keys */

#define CHART_WIDTH 760.0 /* a chart's width on the web pages, in points */
#define MARGIN 16.0       /* around a chart */

/* The colours of what every chart draws. */
static const rc_rgb ink = {0.13, 0.13, 0.13};
static const rc_rgb ink_soft = {0.33, 0.33, 0.33};
static const rc_rgb white = {1, 1, 1};
static const rc_rgb frame = {0.55, 0.55, 0.55};
static const rc_rgb grid_major = {0.85, 0.85, 0.85};
static const rc_rgb grid_minor = {0.94, 0.94, 0.94};
static const rc_rgb band = {0.965, 0.965, 0.965};
static const rc_rgb casing = {0.40, 0.40, 0.40};

/* ---- the look of a series, the canvas (chart_style.c) ------------------- */

/* GPU i's colour: with its marker shape and dash, no two of the first 64
 * GPUs look alike. */
rc_rgb chart_series_colour(int i);

/* GPU `series`'s marker at (x, y), `size` across: filled with its colour,
 * or hollow (white inside, a thicker outline) for the per-launch points.
 * Returns the marker (a light hollow one has a casing item before it). */
rc_canvas_item *chart_add_marker(rc_chart *c, rc_item_role role, int series, double x, double y,
                                 double size, bool hollow);
/* GPU `series`'s line through n points (a roof, a legend's sample): its
 * colour and dash, on a casing when light; both strokes carry `data` (2
 * numbers, or NULL). */
void chart_add_series_path(rc_chart *c, rc_item_role role, const double *pts, size_t n,
                           int series, const double *data);

/* A chart `width` points wide on a white background; NULL when out of
 * memory. chart_finish sets its height (rounded up) and returns it, or
 * NULL, the chart freed, when anything appended failed. */
rc_chart *chart_new(const rc_fonts *fonts, double width);
rc_chart *chart_finish(rc_chart *c, double height);

/* ---- text in lines (chart_text.c) ---------------------------------------- */

/* Lines of text, each owned. Start as {NULL, 0, 0}; free with
 * chart_lines_free, which leaves it empty. */
typedef struct {
    char **line;
    size_t n, cap;
} lines;

void chart_lines_free(lines *l);

/* Greedy word wrap of `text` into lines no wider than `maxw` at `size`,
 * appended to `out`; a word too wide is broken after a '_', '-', '/' or
 * '.' where one fits. Nothing is dropped. False when out of memory. */
bool chart_wrap(const rc_fonts *f, rc_font_role role, double size, const char *text, double maxw,
                lines *out);

/* Sets `text` as lines from baseline `y` down: at `size` when it fits one
 * line, else shrunk down to `min_size`, else wrapped at `min_size`.
 * Returns the y below the block. */
double chart_add_block(rc_chart *c, rc_item_role role, double x, double y, const char *text,
                       rc_font_role font, double size, double min_size, double maxw,
                       rc_anchor anchor, rc_rgb colour);

/* a, b and c joined, or NULL when out of memory. */
char *chart_join3(const char *a, const char *b, const char *c);

/* ---- the results tree (chart_tree.c) ------------------------------------- */

/* Attribute `name` of n as a number (NaN when absent), as a new string
 * ("" when absent; NULL when out of memory), or compared with `want`. */
double chart_attr_num(xmlNodePtr n, const char *name);
char *chart_attr_str(xmlNodePtr n, const char *name);
bool chart_attr_is(xmlNodePtr n, const char *name, const char *want);

/* The first element named `name` from n on among its siblings, or NULL. */
xmlNodePtr chart_next_element(xmlNodePtr n, const char *name);

#define FOR_EACH(var, parent, name)                                                          \
    for (xmlNodePtr var = chart_next_element((parent) ? (parent)->children : NULL, name); var; \
         var = chart_next_element(var->next, name))

/* The GPU's <figure name=`name`>, or NULL. */
xmlNodePtr chart_figure(xmlNodePtr gpu, const char *name);
/* The position in <gpus> of estimate `est`'s GPU (its series), or -1;
 * the <gpu> into *gpu_out when found and gpu_out is not NULL. */
int chart_gpu_index(xmlNodePtr gpus, xmlNodePtr est, xmlNodePtr *gpu_out);

/* ---- axes, titles, rows (chart_axes.c) ------------------------------------ */

typedef struct {
    double lo, hi; /* data range, powers of ten on log axes */
    double p0, p1; /* where lo and hi fall, in points */
    bool log;
} axis;

/* A plot's edges, in points. */
typedef struct {
    double left, top, right, bottom;
} plot_box;

/* Where value v falls on axis a, in points. */
double chart_to_page(const axis *a, double v);
/* A log axis from lo to hi (with margins, ending at 1, 2 or 5 x 10^k)
 * that shows at least one power of ten. */
void chart_log_range(double lo, double hi, double margin, double *out_lo, double *out_hi);

/* A tick's label under a horizontal axis whose ticks hang from `edge`. */
void chart_tick_label_below(rc_chart *c, double p, double edge, const char *text);
/* A horizontal axis's title, centred between left and right under the
 * tick labels of the axis at `edge`; chart_below_axis_title is the y
 * below it. */
void chart_axis_title_below(rc_chart *c, double left, double right, double edge, const char *text);
double chart_below_axis_title(double edge);
/* Grid lines, minor ticks and labels of log axis a: a horizontal axis
 * labels below `edge`, a vertical one left of it; grid lines from across0
 * to across1; labels as SI numbers of `unit` when `si`. */
void chart_log_axis(rc_chart *c, const axis *a, bool horizontal, double edge, double across0,
                    double across1, bool si, const char *unit);
/* The widest label chart_log_axis would print for decades lo..hi. */
double chart_log_labels_width(const rc_fonts *f, double lo, double hi, bool si, const char *unit);

/* Text turned a quarter-turn, reading upward (a vertical axis's title). */
rc_canvas_item *chart_add_rotated(rc_chart *c, rc_item_role role, double x, double y,
                                  const char *text, rc_font_role font, double size);
/* The chart's title and subtitle (NULL: none) across `maxw` from y;
 * returns the y below them. */
double chart_add_titles(rc_chart *c, double x, double y, double maxw, const char *title,
                        const char *subtitle);

/* The plot's frame, over what is drawn inside it. */
void chart_plot_frame(rc_chart *c, const plot_box *b);
/* The lines of `l` from baseline `base` down, `lh` apart, each marking
 * `series` and `group`. */
void chart_add_lines(rc_chart *c, rc_item_role role, double x, double base, double lh,
                     const lines *l, rc_font_role font, double size, rc_anchor anchor,
                     rc_rgb colour, int series, int group);
/* A row's label wrapped to `maxw`, centred on the row's middle `mid`
 * (`drop`: a line's baseline below its middle); chart_row_height is the
 * height of a row with that label, at least 24 points. */
void chart_row_label(rc_chart *c, double x, double mid, double drop, const char *text,
                     rc_font_role font, rc_anchor anchor, double maxw, int series, int group);
double chart_row_height(rc_chart *c, const char *text, double maxw);
/* n bands `h` high from the plot's top, every other one shaded. */
void chart_shade_bands(rc_chart *c, const plot_box *b, double h, size_t n);

/* ---- the legend of GPUs (chart_legend.c) ----------------------------------- */

typedef struct {
    int series;
    char *name;
    char *detail[2]; /* smaller lines under the name, or NULL */
} legend_entry;

/* The legend at (x, y), `w` wide: each entry's sample (a roof's line when
 * `with_line`, and the GPU's marker), its name wrapped, its details. With
 * `dry` it only measures. Returns the height used. */
double chart_legend(rc_chart *c, double x, double y, double w, const legend_entry *e, size_t n,
                    bool with_line, bool dry);
/* The legend beside a plot from (x, top), `w` wide, under a bold heading;
 * returns the y below it. */
double chart_legend_beside(rc_chart *c, double x, double top, double w, const char *heading,
                           const legend_entry *e, size_t n, bool with_line);
/* The legend under a plot for a narrow page: each GPU's line, marker and
 * name (no figures) in as many columns as fit `w`, filled down first;
 * returns the y below it. */
double chart_legend_columns(rc_chart *c, double x, double y, double w, const legend_entry *e,
                            size_t n);
/* Frees the n entries' strings and the array. */
void chart_legend_free(legend_entry *e, size_t n);

#endif
