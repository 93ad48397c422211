/* painter.h: one table of painters, each drawing a canvas (canvas.h) with
 * one library, the way each TLS backend of curl fills one struct of
 * functions that the core calls without naming the backend.
 *
 *   rc_painter_svg  paint_svg.c    an SVG document, the markup written directly
 *   rc_painter_png  paint_cairo.c  a PNG image, rasterised by Cairo (the
 *                                  reference for how each item looks)
 *   rc_painter_pdf  paint_hpdf.c   vectors and text on a libharu PDF page
 *
 * rc_paint runs a painter over a canvas: begin, then each item in order
 * through the function of its kind, then end. Whoever paints picks a table
 * (render_chart.c: SVG or PNG; render_pdf.c: the PDF's) and calls rc_paint;
 * no caller names a backend's functions.
 */
#ifndef ROOFCAST_PAINTER_H
#define ROOFCAST_PAINTER_H

#include <stdbool.h>
#include <stddef.h>

#include "paint/canvas.h"

struct rc_hpdf_fonts; /* paint_hpdf.h */

/* Where a painting goes, as each painter needs it. */
typedef struct {
    const rc_fonts *fonts;  /* svg, png: the fonts the canvas was measured with (borrowed) */
    double scale;           /* png: pixels per point; pdf: page points per canvas point */
    void *page;             /* pdf: the HPDF_Page to paint on (borrowed) */
    const struct rc_hpdf_fonts *page_fonts; /* pdf: the fonts of that page's document */
    double x, top;          /* pdf: where the canvas's top-left corner goes, in points from
                               the page's top-left corner (y downward, as on the canvas) */
} rc_paint_target;

/* What each painter fills. The functions are called by rc_paint only. */
typedef struct rc_painter {
    const char *name; /* "svg", "png", "pdf" */
    /* Starts painting `canvas` onto `target`: returns the painting's state,
     * which end frees, or NULL when out of memory. */
    void *(*begin)(const rc_canvas *canvas, const rc_paint_target *target);
    /* One item of each kind, ORDER RC_ITEM; false when painting failed,
     * which stops it (no later item is painted). */
    bool (*path)(void *state, const rc_canvas_item *it);
    bool (*rect)(void *state, const rc_canvas_item *it);
    bool (*marker)(void *state, const rc_canvas_item *it);
    bool (*text)(void *state, const rc_canvas_item *it);
    /* Ends the painting (`ok` false when an item failed) and frees the
     * state. A painter that makes a file sets *bytes to it, which the
     * caller frees with free(), and *len to its length; one that paints on
     * a page leaves them. False when the painting failed. */
    bool (*end)(void *state, bool ok, char **bytes, size_t *len);
} rc_painter;

extern const rc_painter rc_painter_svg; /* paint_svg.c: sizes in pt, text as glyph outlines */
extern const rc_painter rc_painter_png; /* paint_cairo.c: `scale` pixels per point */
extern const rc_painter rc_painter_pdf; /* paint_hpdf.c: on a page, see paint_hpdf.h */

/* Paints every item of `canvas` in order with `painter` onto `target`. A
 * painter that makes a file sets *bytes to it, which the caller frees with
 * free(), and *len to its length; for one that paints on a page, bytes and
 * len may be NULL. Returns false when painting failed (out of memory, or
 * the page's document reported an error to its handler), *bytes then
 * NULL. The output depends only on the canvas and the target. */
bool rc_paint(const rc_painter *painter, const rc_canvas *canvas, const rc_paint_target *target,
              char **bytes, size_t *len);

#endif
