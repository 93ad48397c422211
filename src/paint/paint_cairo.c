/* paint_cairo.c: paints canvases (canvas.h) with Cairo as PNG images in
 * memory. The reference painter: canvas.h's painting rules are
 * what this file does. (SVG: paint_svg.c.) */
#include "paint/painter.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cairo.h>

#include "paint/png_encode.h"
#include "util/buffer.h"

static const double pi = 3.14159265358979323846;

static void set_colour(cairo_t *cr, rc_rgb c)
{
    cairo_set_source_rgb(cr, c.r, c.g, c.b);
}

/* Fills when the item has a fill, then strokes when it has a stroke. */
static void fill_and_stroke(cairo_t *cr, const rc_canvas_item *it)
{
    if (it->has_fill) {
        set_colour(cr, it->fill);
        cairo_fill_preserve(cr);
    }
    if (it->stroke_width > 0) {
        set_colour(cr, it->stroke);
        cairo_set_line_width(cr, it->stroke_width);
        cairo_set_dash(cr, it->dash, it->ndash, 0);
        cairo_stroke_preserve(cr);
    }
    cairo_new_path(cr);
}

/* A painting in progress: the context over the pixels, and what end
 * needs to encode and keep them. */
typedef struct {
    cairo_t *cr;
    cairo_surface_t *surface;
    const rc_fonts *fonts;
    struct pixels *px;
} painting;

static bool paint_path(void *state, const rc_canvas_item *it)
{
    cairo_t *cr = ((painting *)state)->cr;
    for (size_t k = 0; k < it->npoints; k++) {
        if (k == 0)
            cairo_move_to(cr, it->points[0], it->points[1]);
        else
            cairo_line_to(cr, it->points[2 * k], it->points[2 * k + 1]);
    }
    if (it->closed)
        cairo_close_path(cr);
    fill_and_stroke(cr, it);
    return true;
}

static bool paint_rect(void *state, const rc_canvas_item *it)
{
    cairo_t *cr = ((painting *)state)->cr;
    cairo_rectangle(cr, it->x, it->y, it->w, it->h);
    fill_and_stroke(cr, it);
    return true;
}

static bool paint_marker(void *state, const rc_canvas_item *it)
{
    cairo_t *cr = ((painting *)state)->cr;
    double pts[20];
    size_t n = rc_marker_outline(it->shape, it->x, it->y, it->size, pts);
    if (n == 0) {
        cairo_new_sub_path(cr);
        cairo_arc(cr, it->x, it->y, it->size / 2, 0, 2 * pi);
    } else {
        cairo_move_to(cr, pts[0], pts[1]);
        for (size_t k = 1; k < n; k++)
            cairo_line_to(cr, pts[2 * k], pts[2 * k + 1]);
    }
    cairo_close_path(cr);
    fill_and_stroke(cr, it);
    return true;
}

static bool paint_text(void *state, const rc_canvas_item *it)
{
    cairo_t *cr = ((painting *)state)->cr;
    const rc_fonts *fonts = ((painting *)state)->fonts;
    cairo_save(cr);
    cairo_set_font_face(cr, rc_fonts_cairo_face(fonts, it->font));
    cairo_set_font_size(cr, it->size);
    set_colour(cr, it->fill);
    cairo_translate(cr, it->x, it->y);
    if (it->angle != 0)
        cairo_rotate(cr, -it->angle * pi / 180);
    cairo_move_to(cr, -it->width * rc_anchor_share(it->anchor), 0);
    cairo_show_text(cr, it->text);
    /* Before cairo_restore lets the context's reference go (font.h says why). */
    rc_fonts_hold_scaled(fonts, cairo_get_scaled_font(cr));
    cairo_restore(cr);
    return true;
}

/* What every item is drawn with. */
static void set_up(cairo_t *cr)
{
    /* Unhinted outlines at their design advances: the widths the chart
     * measured, at any scale, in every output. */
    cairo_font_options_t *fo = cairo_font_options_create();
    cairo_font_options_set_hint_style(fo, CAIRO_HINT_STYLE_NONE);
    cairo_font_options_set_hint_metrics(fo, CAIRO_HINT_METRICS_OFF);
    cairo_font_options_set_antialias(fo, CAIRO_ANTIALIAS_GRAY);
    cairo_set_font_options(cr, fo);
    cairo_font_options_destroy(fo);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_MITER);
}

/* Encodes the RGB24 image surface as PNG (png_encode.h says why not
 * cairo_surface_write_to_png, nor libpng with zlib). */
static bool encode_png(cairo_surface_t *surface, rc_png_encoder *encoder, rc_buffer *b)
{
    cairo_surface_flush(surface);
    const unsigned char *data = cairo_image_surface_get_data(surface);
    return data && rc_png_encoder_encode(encoder, data, cairo_image_surface_get_width(surface),
                                         cairo_image_surface_get_height(surface),
                                         (size_t)cairo_image_surface_get_stride(surface), b);
}

/* Encodes the surface into the buffer; returns it to the caller. */
static char *finish(cairo_t *cr, cairo_surface_t *surface, rc_png_encoder *encoder, rc_buffer *b,
                    size_t *len)
{
    bool ok = cairo_status(cr) == CAIRO_STATUS_SUCCESS;
    cairo_destroy(cr);
    if (ok)
        ok = encode_png(surface, encoder, b);
    cairo_surface_finish(surface);
    ok = ok && cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS;
    cairo_surface_destroy(surface);
    if (!ok) {
        free(b->data);
        return NULL;
    }
    return rc_buffer_take(b, len); /* NULL, the buffer freed, when an append failed */
}

/* Pixel memory and the PNG encoder's, kept from one chart to the next
 * (rc_fonts_keep): a new image surface's memory came fresh from the
 * system for every chart, and touching it the first time cost more than
 * drawing. */
typedef struct pixels {
    unsigned char *data;
    size_t size;
    rc_png_encoder *encoder;
} pixels;

#define KEEP_PIXELS_UP_TO (16u << 20) /* the overview (30 MB) is not kept */

static void drop_pixels(void *p)
{
    free(((pixels *)p)->data);
    rc_png_encoder_free(((pixels *)p)->encoder);
    free(p);
}

/* Whether the chart's first item, its background, paints every pixel of
 * a w x h surface opaquely and whole: then what the memory held before
 * cannot show, and it need not be cleared. */
static bool covers_surface(const rc_canvas *chart, double scale, int w, int h)
{
    if (rc_canvas_count(chart) == 0)
        return false;
    const rc_canvas_item *bg = rc_canvas_item_at(chart, 0);
    return bg->kind == RC_ITEM_RECT && bg->has_fill && bg->stroke_width <= 0 && bg->x == 0 &&
           bg->y == 0 && bg->w * scale >= w && bg->h * scale >= h;
}

static void *begin(const rc_canvas *canvas, const rc_paint_target *target)
{
    double scale = target->scale;
    const rc_fonts *fonts = target->fonts;
    int w = (int)ceil(rc_canvas_width(canvas) * scale), h = (int)ceil(rc_canvas_height(canvas) * scale);
    int stride = cairo_format_stride_for_width(CAIRO_FORMAT_RGB24, w);
    if (stride <= 0 || h <= 0)
        return NULL;
    size_t need = (size_t)stride * (size_t)h;
    painting *p = malloc(sizeof *p);
    pixels *px = p ? rc_fonts_take(fonts, RC_SPARE_PIXELS) : NULL;
    if (p && !px)
        px = calloc(1, sizeof *px);
    if (px && px->size < need) {
        free(px->data);
        px->data = malloc(need);
        px->size = px->data ? need : 0;
    }
    if (px && !px->encoder)
        px->encoder = rc_png_encoder_new();
    if (!px || !px->data || !px->encoder) {
        if (px)
            drop_pixels(px);
        free(p);
        return NULL;
    }
    if (!covers_surface(canvas, scale, w, h))
        memset(px->data, 0, need); /* as a new surface starts */
    /* RGB24: no alpha channel, the chart paints its own white background. */
    p->surface = cairo_image_surface_create_for_data(px->data, CAIRO_FORMAT_RGB24, w, h, stride);
    p->cr = cairo_create(p->surface);
    p->fonts = fonts;
    p->px = px;
    cairo_scale(p->cr, scale, scale);
    set_up(p->cr);
    return p;
}

static bool end(void *state, bool ok, char **bytes, size_t *len)
{
    painting *p = state;
    rc_buffer b = {0};
    if (ok) {
        *bytes = finish(p->cr, p->surface, p->px->encoder, &b, len);
    } else {
        cairo_destroy(p->cr);
        cairo_surface_destroy(p->surface);
    }
    if (p->px->size <= KEEP_PIXELS_UP_TO)
        rc_fonts_keep(p->fonts, RC_SPARE_PIXELS, p->px, drop_pixels);
    else
        drop_pixels(p->px);
    free(p);
    return ok && *bytes;
}

const rc_painter rc_painter_png = {"png", begin, paint_path, paint_rect, paint_marker, paint_text,
                                   end};
