/* painter.h: the painters of a canvas (canvas.h).
 *
 * Paints `canvas` as an SVG document (sizes in pt; paint_svg.c writes it,
 * text as the outlines of the glyphs of `fonts`) or, with Cairo, as a PNG
 * image of `scale` pixels per point (encoded by png_encode.c), in memory,
 * text drawn with the faces of `fonts`. Returns a buffer the caller frees
 * with free(), its length in *len, or NULL on failure. The output depends
 * only on the canvas: the same canvas gives the same bytes. */
#ifndef ROOFCAST_PAINTER_H
#define ROOFCAST_PAINTER_H

#include <stddef.h>

#include "paint/canvas.h"

char *rc_paint_svg(const rc_canvas *canvas, const rc_fonts *fonts, size_t *len);
char *rc_paint_png(const rc_canvas *canvas, const rc_fonts *fonts, double scale, size_t *len);

#endif
