/* canvas.h: the drawing list every painter draws (painter.h): shapes, text
 * and their styles, apart from any drawing library and from what they show.
 *
 * A canvas (rc_canvas) is a list of items in abstract units: a page of
 * width x height points, origin at the TOP-LEFT corner, y growing DOWNWARD
 * (as in Cairo and SVG). A painter that draws with y upward (PDF, libharu)
 * maps a point (x, y) to (x, height - y). Its first item is its background,
 * a rectangle over the whole page; painters draw the items in order, each
 * over the ones before, and do no layout: whoever fills the canvas (the
 * chart builders of render/chart.h) lays text out with the widths of
 * font.h, and text appended here is measured with them.
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
 *     the baseline; `width` is the text's advance width as measured when it
 *     was appended, and the text starts at x - width * {0, 0.5, 1} for
 *     anchor START, MIDDLE, END. Painters use `width` rather than measuring
 *     again. `angle` is 0 or 90: 90 turns the text a quarter-turn
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
 *
 * Ownership: the canvas owns its items, and each item its points and text;
 * rc_canvas_free frees them all. Pointers to items (rc_canvas_add...,
 * rc_canvas_edit) are valid until the next append.
 */
#ifndef ROOFCAST_CANVAS_H
#define ROOFCAST_CANVAS_H

#include <stdbool.h>
#include <stddef.h>

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
    double width;     /* its advance width in points, measured when appended */
    rc_font_role font;
    rc_anchor anchor;
    double angle;     /* 0 or 90 (degrees, counter-clockwise) */
} rc_canvas_item;

typedef struct rc_canvas rc_canvas;

/* ---- making a canvas ---------------------------------------------------- */

/* A new canvas `width` points wide whose first item is its background, a
 * rectangle of `background` that rc_canvas_finish sizes to the page. Text
 * appended is measured with `fonts`, borrowed: they must outlive the
 * canvas. NULL when out of memory. The caller frees the canvas with
 * rc_canvas_free, or hands it to rc_canvas_finish. */
rc_canvas *rc_canvas_new(const rc_fonts *fonts, double width, rc_rgb background);

/* Sets the page's height, and its background's, to `height` points once
 * every item is appended. Returns the canvas, or NULL, the canvas freed,
 * when an append failed (out of memory). */
rc_canvas *rc_canvas_finish(rc_canvas *c, double height);

/* Frees the canvas, its items and their points and text. NULL is allowed. */
void rc_canvas_free(rc_canvas *c);

/* ---- appending items ----------------------------------------------------
 * Each returns the new item, to set more of it, or NULL when memory ran out
 * or an earlier append failed: the canvas is then marked failed (and
 * rc_canvas_finish returns NULL), so a builder checks once at the end. */

/* An item of `kind` and `role`, all else zero, series and group -1. */
rc_canvas_item *rc_canvas_add(rc_canvas *c, rc_item_kind kind, rc_item_role role);

/* An open polyline through the n points pts[0..2n) (x0, y0, x1, y1, ...),
 * copied, stroked with `colour` at `width`. */
rc_canvas_item *rc_canvas_add_path(rc_canvas *c, rc_item_role role, const double *pts, size_t n,
                                   rc_rgb colour, double width);

/* A line from (x0, y0) to (x1, y1): rc_canvas_add_path of two points. */
rc_canvas_item *rc_canvas_add_line(rc_canvas *c, rc_item_role role, double x0, double y0,
                                   double x1, double y1, rc_rgb colour, double width);

/* A rectangle from its top-left corner (x, y), filled when `fill` is not
 * NULL, stroked at `width` when `stroke` is not NULL. */
rc_canvas_item *rc_canvas_add_rect(rc_canvas *c, rc_item_role role, double x, double y, double w,
                                   double h, const rc_rgb *fill, const rc_rgb *stroke,
                                   double width);

/* One line of text, copied, anchored at (x, y) on its baseline, its width
 * measured with the canvas's fonts. */
rc_canvas_item *rc_canvas_add_text(rc_canvas *c, rc_item_role role, double x, double y,
                                   const char *text, rc_font_role font, double size,
                                   rc_anchor anchor, rc_rgb colour);

/* Marks the canvas failed, for a builder whose own allocation failed. */
void rc_canvas_fail(rc_canvas *c);
bool rc_canvas_failed(const rc_canvas *c);

/* The fonts text is measured with (borrowed). */
const rc_fonts *rc_canvas_fonts(const rc_canvas *c);

/* The i-th item, i < rc_canvas_count, to change before painting (data a
 * builder knows only after appending). */
rc_canvas_item *rc_canvas_edit(rc_canvas *c, size_t i);

/* ---- reading a canvas (painters, tests) ----------------------------- */

double rc_canvas_width(const rc_canvas *c);
double rc_canvas_height(const rc_canvas *c);
size_t rc_canvas_count(const rc_canvas *c);
/* The i-th item, i < rc_canvas_count; borrowed, valid until rc_canvas_free. */
const rc_canvas_item *rc_canvas_item_at(const rc_canvas *c, size_t i);

/* The outline of a marker centred on (x, y), `size` points across: writes
 * up to 10 vertices as x0, y0, x1, y1, ... into pts[20] and returns their
 * count, a closed polygon; returns 0 for RC_MARKER_CIRCLE, which is a
 * circle of radius size / 2. */
size_t rc_marker_outline(rc_marker_shape shape, double x, double y, double size, double pts[20]);

/* The share of a text's width that lies before its anchor point along the
 * baseline: 0 for RC_ANCHOR_START, 0.5 for MIDDLE, 1 for END. */
double rc_anchor_share(rc_anchor anchor);

#endif
