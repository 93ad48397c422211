/* paint_cairo.c: paints chart descriptions (chart.h) with Cairo, to SVG
 * and PNG in memory. The reference painter: chart.h's painting rules are
 * what this file does. */
#include "render/chart.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cairo-svg.h>
#include <cairo.h>
#include <png.h>
#include <zlib.h>

#include "util/buffer.h"

static const double pi = 3.14159265358979323846;

/* Cairo's write callback: the bytes go into an rc_buffer. */
static cairo_status_t buffer_write(void *closure, const unsigned char *data, unsigned int length)
{
    rc_buffer *b = closure;
    rc_buffer_put(b, (const char *)data, length);
    return b->failed ? CAIRO_STATUS_WRITE_ERROR : CAIRO_STATUS_SUCCESS;
}

static void set_colour(cairo_t *cr, rc_rgb c)
{
    cairo_set_source_rgb(cr, c.r, c.g, c.b);
}

/* Fills when the item has a fill, then strokes when it has a stroke. */
static void fill_and_stroke(cairo_t *cr, const rc_chart_item *it)
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

static void paint_text(cairo_t *cr, const rc_chart_item *it, const rc_fonts *fonts)
{
    static const double shift[] = {0, 0.5, 1}; /* ORDER rc_anchor */
    cairo_save(cr);
    cairo_set_font_face(cr, rc_fonts_cairo_face(fonts, it->font));
    cairo_set_font_size(cr, it->size);
    set_colour(cr, it->fill);
    cairo_translate(cr, it->x, it->y);
    if (it->angle != 0)
        cairo_rotate(cr, -it->angle * pi / 180);
    cairo_move_to(cr, -it->width * shift[it->anchor], 0);
    cairo_show_text(cr, it->text);
    cairo_restore(cr);
}

static void paint(cairo_t *cr, const rc_chart *chart, const rc_fonts *fonts)
{
    /* Unhinted outlines at their design advances: the widths chart.c
     * measured, at any scale, in every output. */
    cairo_font_options_t *fo = cairo_font_options_create();
    cairo_font_options_set_hint_style(fo, CAIRO_HINT_STYLE_NONE);
    cairo_font_options_set_hint_metrics(fo, CAIRO_HINT_METRICS_OFF);
    cairo_font_options_set_antialias(fo, CAIRO_ANTIALIAS_GRAY);
    cairo_set_font_options(cr, fo);
    cairo_font_options_destroy(fo);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_MITER);

    for (size_t i = 0; i < rc_chart_count(chart); i++) {
        const rc_chart_item *it = rc_chart_item_at(chart, i);
        switch (it->kind) {
        case RC_ITEM_PATH:
            for (size_t k = 0; k < it->npoints; k++) {
                if (k == 0)
                    cairo_move_to(cr, it->points[0], it->points[1]);
                else
                    cairo_line_to(cr, it->points[2 * k], it->points[2 * k + 1]);
            }
            if (it->closed)
                cairo_close_path(cr);
            fill_and_stroke(cr, it);
            break;
        case RC_ITEM_RECT:
            cairo_rectangle(cr, it->x, it->y, it->w, it->h);
            fill_and_stroke(cr, it);
            break;
        case RC_ITEM_MARKER: {
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
            break;
        }
        case RC_ITEM_TEXT:
            paint_text(cr, it, fonts);
            break;
        default:
            abort(); /* a kind this painter does not know: ORDER RC_ITEM */
        }
    }
}

static void png_write_to_buffer(png_structp png, png_bytep data, png_size_t n)
{
    rc_buffer_put(png_get_io_ptr(png), (const char *)data, n);
}

static void png_flush_nothing(png_structp png) { (void)png; }

/* Encodes an RGB24 image surface as PNG. Cairo's own writer lets libpng
 * try every row filter at zlib's default level, which made PNG encoding
 * 85 % of a whole run; one filter (Up, which suits charts: long runs of
 * equal rows) at level 1 is several times faster for files within a few
 * percent of the size. zlib's default strategy at level 1 costs the same
 * time as run-length only (Z_RLE) on these charts, and its files are 29 %
 * smaller: it also finds the repeats of glyphs and grid lines. Every other
 * single filter, or libpng's choice per row, was slower. */
static bool encode_png(cairo_surface_t *surface, rc_buffer *b)
{
    cairo_surface_flush(surface);
    int w = cairo_image_surface_get_width(surface), h = cairo_image_surface_get_height(surface);
    int stride = cairo_image_surface_get_stride(surface);
    const unsigned char *data = cairo_image_surface_get_data(surface);
    unsigned char *row = malloc((size_t)w * 3);
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    volatile bool ok = false; /* read after a longjmp from libpng */
    if (!row || !png || !info || !data)
        goto end;
    if (setjmp(png_jmpbuf(png)))
        goto end;
    png_set_write_fn(png, b, png_write_to_buffer, png_flush_nothing);
    png_set_IHDR(png, info, (png_uint_32)w, (png_uint_32)h, 8, PNG_COLOR_TYPE_RGB,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_UP);
    png_set_compression_level(png, 1);
    png_set_compression_strategy(png, Z_DEFAULT_STRATEGY);
    png_write_info(png, info);
    for (int y = 0; y < h; y++) {
        const uint32_t *px = (const uint32_t *)(const void *)(data + (size_t)y * (size_t)stride);
        for (int x = 0; x < w; x++) {
            row[3 * x] = (unsigned char)(px[x] >> 16);
            row[3 * x + 1] = (unsigned char)(px[x] >> 8);
            row[3 * x + 2] = (unsigned char)px[x];
        }
        png_write_row(png, row);
    }
    png_write_end(png, NULL);
    ok = !b->failed;
end:
    png_destroy_write_struct(png ? &png : NULL, info ? &info : NULL);
    free(row);
    return ok;
}

/* Finishes the surface into the buffer; returns it to the caller. */
static char *finish(cairo_t *cr, cairo_surface_t *surface, rc_buffer *b, bool png, size_t *len)
{
    bool ok = cairo_status(cr) == CAIRO_STATUS_SUCCESS;
    cairo_destroy(cr);
    if (png && ok)
        ok = encode_png(surface, b);
    cairo_surface_finish(surface);
    ok = ok && cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS;
    cairo_surface_destroy(surface);
    if (!ok) {
        free(b->data);
        return NULL;
    }
    return rc_buffer_take(b, len); /* NULL, the buffer freed, when an append failed */
}

/* Cairo numbers the SVG's surfaces ("surface31") from a counter global to
 * the process, so the same chart would come out with other ids after other
 * charts were drawn. Renumbers them 1, 2, ... in order of appearance, so
 * that the bytes depend on the chart alone. */
static char *renumber_surfaces(char *svg, size_t *len)
{
    static const char word[] = "surface";
    const size_t wl = sizeof word - 1;
    unsigned long seen[16];
    size_t nseen = 0;
    /* A new id is at most one digit longer than the old one it replaces. */
    char *out = malloc(2 * *len + 1), *o = out;
    if (!out) {
        free(svg);
        return NULL;
    }
    const char *p = svg, *end = svg + *len;
    while (p < end) {
        const char *hit = p + wl < end ? memchr(p, 's', (size_t)(end - p)) : NULL;
        if (!hit) {
            memcpy(o, p, (size_t)(end - p));
            o += end - p;
            break;
        }
        memcpy(o, p, (size_t)(hit - p));
        o += hit - p;
        p = hit;
        const char *d = p + wl;
        if ((size_t)(end - p) > wl && memcmp(p, word, wl) == 0 && d < end && *d >= '0' && *d <= '9') {
            unsigned long n = 0;
            while (d < end && *d >= '0' && *d <= '9')
                n = n * 10 + (unsigned long)(*d++ - '0');
            size_t k = 0;
            while (k < nseen && seen[k] != n)
                k++;
            if (k == nseen && nseen < sizeof seen / sizeof seen[0])
                seen[nseen++] = n;
            if (k < nseen)
                o += sprintf(o, "%s%zu", word, k + 1);
            else /* more surfaces than this chart draws: left as they are */
                o += sprintf(o, "%s%lu", word, n);
            p = d;
        } else {
            *o++ = *p++;
        }
    }
    *len = (size_t)(o - out);
    free(svg);
    return out;
}

char *rc_paint_svg(const rc_chart *chart, const rc_fonts *fonts, size_t *len)
{
    rc_buffer b = {0};
    cairo_surface_t *s = cairo_svg_surface_create_for_stream(buffer_write, &b, rc_chart_width(chart),
                                                             rc_chart_height(chart));
    cairo_svg_surface_restrict_to_version(s, CAIRO_SVG_VERSION_1_1);
    cairo_svg_surface_set_document_unit(s, CAIRO_SVG_UNIT_PT);
    cairo_t *cr = cairo_create(s);
    paint(cr, chart, fonts);
    char *svg = finish(cr, s, &b, false, len);
    return svg ? renumber_surfaces(svg, len) : NULL;
}

char *rc_paint_png(const rc_chart *chart, const rc_fonts *fonts, double scale, size_t *len)
{
    rc_buffer b = {0};
    int w = (int)ceil(rc_chart_width(chart) * scale), h = (int)ceil(rc_chart_height(chart) * scale);
    /* RGB24: no alpha channel, the chart paints its own white background. */
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, w, h);
    cairo_t *cr = cairo_create(s);
    cairo_scale(cr, scale, scale);
    paint(cr, chart, fonts);
    return finish(cr, s, &b, true, len);
}
