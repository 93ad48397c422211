/* chart.h: charts described once, apart from any drawing library.
 *
 * A chart description (rc_chart) is a list of drawing items in abstract
 * units: a page of width x height points, origin at the TOP-LEFT corner,
 * y growing DOWNWARD (as in Cairo and SVG). A painter that draws with y
 * upward (PDF, libharu) maps a point (x, y) to (x, height - y).
 *
 * The builders read the results tree only (results.h): every number comes
 * from an attribute of the tree and every number printed in the chart is
 * the tree's own `-text` form, so a chart cannot disagree with the reports.
 * Layout (wrapping long names, sizing the legend) is done here with the
 * widths of font.h, so painters do no layout: they draw the items in order,
 * each over the ones before (the first item is the white background).
 *
 * Painting rules, the same for every painter (paint_cairo.c is the
 * reference):
 *   - Colours are RGB in 0..1, opaque.
 *   - Strokes: `width` points, butt caps, miter joins; `ndash` > 0 makes a
 *     dash pattern of on/off lengths in points starting at phase 0.
 *   - A path or shape with `fill` set is filled first, then stroked when
 *     `stroke` is set (non-zero width).
 *   - Text is one line, in the font of its role (font.h: the same TTF
 *     files), `size` points, colour `fill`. (x, y) is the anchor point on
 *     the baseline; `width` is the text's advance width as measured by the
 *     builder, and the text starts at x - width * {0, 0.5, 1} for anchor
 *     START, MIDDLE, END. Painters use `width` rather than measuring again.
 *     `angle` is 0 or 90: 90 turns the text a quarter-turn
 *     counter-clockwise about (x, y) as seen on the page, reading upward
 *     (Cairo: rotate by -pi/2 in its y-down space; PDF: a text matrix
 *     rotated by +90 degrees in its y-up space).
 *   - Markers are drawn centred on (x, y), `size` points across; use
 *     rc_marker_outline for their vertices, so every painter draws the same
 *     shapes.
 *
 * Items also carry what they show (role, series, data), for tests and for
 * painters that add structure (PDF bookmarks, SVG titles); painting may
 * ignore these fields.
 */
#ifndef ROOFCAST_CHART_H
#define ROOFCAST_CHART_H

#include <stdbool.h>
#include <stddef.h>

#include <libxml/tree.h>

#include "paint/font.h"

typedef struct {
    double r, g, b; /* 0..1 */
} rc_rgb;

/* What an item is. ORDER RC_ITEM */
typedef enum {
    RC_ITEM_PATH,   /* a polyline, closed into a polygon when `closed` */
    RC_ITEM_RECT,   /* x, y (top-left), w, h */
    RC_ITEM_MARKER, /* a point symbol: shape, x, y, size */
    RC_ITEM_TEXT    /* one line of text */
} rc_item_kind;

/* Marker shapes. ORDER RC_MARKER */
typedef enum {
    RC_MARKER_CIRCLE,
    RC_MARKER_SQUARE,
    RC_MARKER_TRIANGLE_UP,
    RC_MARKER_DIAMOND,
    RC_MARKER_TRIANGLE_DOWN,
    RC_MARKER_PENTAGON,
    RC_MARKER_HEXAGON,
    RC_MARKER_STAR,
    RC_MARKER_COUNT
} rc_marker_shape;

typedef enum { RC_ANCHOR_START, RC_ANCHOR_MIDDLE, RC_ANCHOR_END } rc_anchor;

/* What an item shows, for tests and structure-aware painters. */
typedef enum {
    RC_ROLE_NONE,        /* decoration: background, frame */
    RC_ROLE_TITLE,       /* the chart's title and subtitle lines */
    RC_ROLE_AXIS,        /* axis lines, ticks, axis titles */
    RC_ROLE_TICK_LABEL,  /* numbers along an axis */
    RC_ROLE_GRID,        /* grid lines */
    RC_ROLE_ROOF,        /* a GPU's roof: data = its ridge point (FLOP/byte, FLOP/s) */
    RC_ROLE_RIDGE,       /* a GPU's ridge point marker: data = (ridge, peak) */
    RC_ROLE_POINT_ROOF,  /* the kernel on a roof: data = (intensity, perf-roof) */
    RC_ROLE_POINT_LAUNCH,/* the kernel per launch: data = (intensity, perf-attained) */
    RC_ROLE_INTENSITY,   /* the kernel's intensity line and its label: data x = intensity */
    RC_ROLE_BAR_BODY,    /* time chart: t_body (data x = seconds) */
    RC_ROLE_BAR_LAUNCH,  /* time chart: t_launch (data x = seconds) */
    RC_ROLE_BAR_LABEL,   /* time chart: t_total and the bound, beside the bar */
    RC_ROLE_BAR_ESTIMATE,/* time chart: the refined estimate t_estimate (data x = seconds) */
    RC_ROLE_POINT_TIME,  /* overview: a kernel's t_total on a GPU (data x = seconds) */
    RC_ROLE_LABEL,       /* row labels: GPU or kernel names */
    RC_ROLE_LEGEND,      /* anything in the legend */
    RC_ROLE_NOTE,        /* a remark printed in the plot (e.g. no point drawn) */
    RC_ROLE_POINT_LEVEL, /* hierarchical roofline: the kernel at one memory level,
                            data = (FLOPs / that level's bytes, perf-roof) */
    RC_ROLE_POINT_LOWER, /* time chart: t_lower, a bound no run beats (data x = seconds) */
    RC_ROLE_POINT_TOTAL  /* time chart: t_total, the peak roofline (data x = seconds) */
} rc_item_role;

typedef struct {
    rc_item_kind kind;
    rc_item_role role;
    int series;       /* GPU index in <gpus> order, or -1 */
    int group;        /* overview: kernel index in <kernels> order, else -1 */
    double data[2];   /* the data values the item marks (see rc_item_role), else 0 */

    /* Geometry, in points. PATH: points[npoints] as x0, y0, x1, y1, ...
     * RECT: x, y, w, h. MARKER: x, y, size. TEXT: x, y, size (and width
     * below). */
    double x, y, w, h, size;
    double *points;
    size_t npoints;
    bool closed;
    rc_marker_shape shape;

    /* Paint. A stroke is drawn when stroke_width > 0, a fill when has_fill. */
    rc_rgb stroke;
    double stroke_width;
    double dash[4];
    int ndash;
    bool has_fill;
    rc_rgb fill;      /* also the colour of text */

    /* Text. */
    char *text;       /* UTF-8, one line */
    double width;     /* its advance width in points, measured by the builder */
    rc_font_role font;
    rc_anchor anchor;
    double angle;     /* 0 or 90 (degrees, counter-clockwise) */
} rc_chart_item;

typedef struct rc_chart rc_chart;

/* ---- builders: results tree -> description -------------------------- */

/* The roofline chart of `kernel` (a <kernel> of the results tree) on every
 * GPU of its <estimates>: log-log axes (arithmetic intensity in FLOP/byte,
 * attainable performance in FLOP/s), one roof per GPU of `gpus` (the tree's
 * <gpus>: memory slope and FP32 ceiling, ridge point marked), the kernel's
 * point on every roof (perf-roof, FLOPs / t_body) and per launch
 * (perf-attained, FLOPs / t_total), the hierarchical roofline's points
 * (the same performance at each memory level's intensity: L1, L2, DRAM,
 * small, joined by a thin line), and a legend beside the plot. Text is
 * measured with `fonts`. Returns NULL if out of memory or the kernel has
 * no estimates. Free with rc_chart_free. */
rc_chart *rc_chart_new_roofline(xmlNodePtr kernel, xmlNodePtr gpus, const rc_fonts *fonts);

/* Where a roofline goes: `width` points wide; the plot `plot_height`
 * points high (0: as high as the legend beside it needs, at least 340);
 * the legend beside the plot with each GPU's figures (SVG, PNG:
 * RC_ROOFLINE_BESIDE), or, with `legend_below`, under it in columns with
 * the GPUs' names only and the per-launch points set side by side (a
 * narrow page, like the PDF's, whose time table has the figures). */
typedef struct {
    double width, plot_height;
    bool legend_below;
} rc_roofline_layout;

extern const rc_roofline_layout RC_ROOFLINE_BESIDE;

/* rc_chart_new_roofline laid out as `layout` says. */
rc_chart *rc_chart_new_roofline_laid_out(xmlNodePtr kernel, xmlNodePtr gpus, const rc_fonts *fonts,
                                         const rc_roofline_layout *layout);

/* The time chart of `kernel`: for each GPU a horizontal bar of t_total
 * stacked as t_body then t_launch on a linear axis in µs, with t_total and
 * the bounding resource beside it. `gpus` gives each GPU its symbol, as in
 * the roofline. Free with rc_chart_free. */
rc_chart *rc_chart_new_time(xmlNodePtr kernel, xmlNodePtr gpus, const rc_fonts *fonts);

/* The overview of every kernel on every GPU, from the tree's root
 * (<roofcast-results>): a band per kernel, a row per GPU in it, each GPU's
 * t_total as its symbol on a logarithmic axis in µs, the fastest ringed.
 * Free with rc_chart_free. */
rc_chart *rc_chart_new_overview(xmlNodePtr results, const rc_fonts *fonts);

/* The overview `width` points wide (rc_chart_new_overview: 760). */
rc_chart *rc_chart_new_overview_sized(xmlNodePtr results, const rc_fonts *fonts, double width);

/* How many kernels the overview shows (all, or the slowest 20). */
size_t rc_chart_overview_kernels(xmlNodePtr results);

/* A part of the overview, for pages: the bands of the `count` kernels
 * from `first` (0-based, among those the overview shows; count 0: to the
 * last), on the axis of the whole overview, the subtitle naming the part.
 * With first 0 and count 0 it is rc_chart_new_overview_sized's chart.
 * Free with rc_chart_free. */
rc_chart *rc_chart_new_overview_part(xmlNodePtr results, const rc_fonts *fonts, double width,
                                     size_t first, size_t count);

/* What every part of one overview shares (the GPUs, the kernels shown,
 * the axis), read from the tree once for many parts: the tree (borrowed)
 * must outlive it. NULL when out of memory. Free with
 * rc_chart_overview_free. rc_chart_new_overview_of(o, ...) is
 * rc_chart_new_overview_part of o's tree. */
typedef struct rc_chart_overview rc_chart_overview;
rc_chart_overview *rc_chart_overview_new(xmlNodePtr results, const rc_fonts *fonts);
rc_chart *rc_chart_new_overview_of(const rc_chart_overview *o, const rc_fonts *fonts,
                                   double width, size_t first, size_t count);
void rc_chart_overview_free(rc_chart_overview *o);

void rc_chart_free(rc_chart *chart);

/* ---- reading a description (painters, tests) ----------------------- */

double rc_chart_width(const rc_chart *chart);
double rc_chart_height(const rc_chart *chart);
size_t rc_chart_count(const rc_chart *chart);
/* The i-th item, i < rc_chart_count; borrowed, valid until rc_chart_free. */
const rc_chart_item *rc_chart_item_at(const rc_chart *chart, size_t i);

/* The outline of a marker centred on (x, y), `size` points across: writes
 * up to 10 vertices as x0, y0, x1, y1, ... into pts[20] and returns their
 * count, a closed polygon; returns 0 for RC_MARKER_CIRCLE, which is a
 * circle of radius size / 2. */
size_t rc_marker_outline(rc_marker_shape shape, double x, double y, double size, double pts[20]);

/* ---- the SVG and Cairo painters (paint_svg.c, paint_cairo.c) ---------- */

/* Paints `chart` as an SVG document (sizes in pt; paint_svg.c writes it,
 * text as the outlines of the glyphs of `fonts`) or, with Cairo, as a PNG
 * image of `scale` pixels per point (encoded by png_encode.c), in memory,
 * text drawn with the faces of `fonts`. Returns a buffer the caller frees
 * with free(), its length in *len, or NULL on failure. The output depends
 * only on the description: the same chart gives the same bytes. */
char *rc_paint_svg(const rc_chart *chart, const rc_fonts *fonts, size_t *len);
char *rc_paint_png(const rc_chart *chart, const rc_fonts *fonts, double scale, size_t *len);


#endif
