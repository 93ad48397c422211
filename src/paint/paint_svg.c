/* paint_svg.c: paints canvases (canvas.h) as SVG documents, by the
 * canvas's painting rules, writing the markup directly.
 *
 * Why not Cairo's SVG surface (which paint_cairo.c used): it drew each
 * glyph as an outline once per font size and direction, and each glyph of
 * the text as a <use> with its position in six decimals, so that outlines
 * and positions were half of a chart's 270 KB; it spent most of its time
 * printing them. Here a glyph's outline is defined once per chart in font
 * units (the same unhinted outline FreeType gives Cairo), and each line of
 * text is a group scaled to its size whose glyphs sit at their advance
 * widths, whole font units. Shapes are the same paths, colours and stroke
 * settings as Cairo's (Cairo's miter limit, 10, set on the root). */
#include "paint/painter.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/buffer.h"

static const double pi = 3.14159265358979323846;

typedef struct {
    rc_buffer body;
    const rc_canvas *canvas;
    const rc_fonts *fonts;
    unsigned char *used[RC_FONT_COUNT]; /* glyphs drawn, by index */
    bool failed;
} svg_writer;

/* A number as Cairo's SVG surface prints one: at most six decimals, no
 * trailing zeros, no exponent. */
static void put_number(rc_buffer *b, double v)
{
    char s[40], *e = s + sizeof s, *p = e;
    if (!(fabs(v) < 1e12))
        v = 0; /* not a coordinate of any chart; keeps the markup valid */
    long long q = llround(fabs(v) * 1e6);
    long long whole = q / 1000000, frac = q % 1000000;
    if (frac) {
        int digits = 6;
        while (frac % 10 == 0)
            frac /= 10, digits--;
        while (digits--)
            *--p = (char)('0' + frac % 10), frac /= 10;
        *--p = '.';
    }
    do
        *--p = (char)('0' + whole % 10), whole /= 10;
    while (whole);
    if (v < 0 && q != 0)
        *--p = '-';
    rc_buffer_put(b, p, (size_t)(e - p));
}

/* A whole number in decimal. */
static void put_count(rc_buffer *b, unsigned long v)
{
    char s[24], *e = s + sizeof s, *p = e;
    do
        *--p = (char)('0' + v % 10), v /= 10;
    while (v);
    rc_buffer_put(b, p, (size_t)(e - p));
}

/* A glyph's id: its font role's letter and its index ("r42"). */
static void put_glyph_id(rc_buffer *b, char role, unsigned glyph)
{
    rc_buffer_put(b, &role, 1);
    put_count(b, glyph);
}

static void put_colour(rc_buffer *b, rc_rgb c)
{
    rc_buffer_puts(b, "rgb(");
    put_number(b, c.r * 100);
    rc_buffer_puts(b, "%,");
    put_number(b, c.g * 100);
    rc_buffer_puts(b, "%,");
    put_number(b, c.b * 100);
    rc_buffer_puts(b, "%)");
}

/* fill= and the stroke's attributes of a shape, and the element's end. */
static void put_paint(rc_buffer *b, const rc_canvas_item *it)
{
    rc_buffer_puts(b, " fill=\"");
    if (it->has_fill)
        put_colour(b, it->fill);
    else
        rc_buffer_puts(b, "none");
    rc_buffer_puts(b, "\"");
    if (it->stroke_width > 0) {
        rc_buffer_puts(b, " stroke=\"");
        put_colour(b, it->stroke);
        rc_buffer_puts(b, "\" stroke-width=\"");
        put_number(b, it->stroke_width);
        rc_buffer_puts(b, "\"");
        if (it->ndash > 0) {
            rc_buffer_puts(b, " stroke-dasharray=\"");
            for (int k = 0; k < it->ndash; k++) {
                if (k)
                    rc_buffer_puts(b, ",");
                put_number(b, it->dash[k]);
            }
            rc_buffer_puts(b, "\"");
        }
    }
    rc_buffer_puts(b, "/>\n");
}

static void put_point(rc_buffer *b, char command, double x, double y)
{
    rc_buffer_put(b, &command, 1);
    put_number(b, x);
    rc_buffer_puts(b, " ");
    put_number(b, y);
}

static bool paint_path(void *state, const rc_canvas_item *it)
{
    rc_buffer *b = &((svg_writer *)state)->body;
    if (it->npoints == 0)
        return true;
    rc_buffer_puts(b, "<path d=\"");
    for (size_t k = 0; k < it->npoints; k++)
        put_point(b, k == 0 ? 'M' : 'L', it->points[2 * k], it->points[2 * k + 1]);
    if (it->closed)
        rc_buffer_puts(b, "Z");
    rc_buffer_puts(b, "\"");
    put_paint(b, it);
    return true;
}

static bool paint_rect(void *state, const rc_canvas_item *it)
{
    rc_buffer *b = &((svg_writer *)state)->body;
    rc_buffer_puts(b, "<path d=\"");
    put_point(b, 'M', it->x, it->y);
    put_point(b, 'L', it->x + it->w, it->y);
    put_point(b, 'L', it->x + it->w, it->y + it->h);
    put_point(b, 'L', it->x, it->y + it->h);
    rc_buffer_puts(b, "Z\"");
    put_paint(b, it);
    return true;
}

static bool paint_marker(void *state, const rc_canvas_item *it)
{
    rc_buffer *b = &((svg_writer *)state)->body;
    double pts[20];
    size_t n = rc_marker_outline(it->shape, it->x, it->y, it->size, pts);
    if (n == 0) {
        rc_buffer_puts(b, "<circle cx=\"");
        put_number(b, it->x);
        rc_buffer_puts(b, "\" cy=\"");
        put_number(b, it->y);
        rc_buffer_puts(b, "\" r=\"");
        put_number(b, it->size / 2);
        rc_buffer_puts(b, "\"");
    } else {
        rc_buffer_puts(b, "<path d=\"");
        for (size_t k = 0; k < n; k++)
            put_point(b, k == 0 ? 'M' : 'L', pts[2 * k], pts[2 * k + 1]);
        rc_buffer_puts(b, "Z\"");
    }
    put_paint(b, it);
    return true;
}

static const char role_letter[RC_FONT_COUNT] = {'r', 'b'}; /* ORDER RC_FONT */

/* One line of text: a group that maps font units to the page (scaled to
 * the size, y flipped, turned by the angle, its origin where the text
 * starts), holding each glyph at its advance. */
static bool paint_text(void *state, const rc_canvas_item *it)
{
    svg_writer *w = state;
    rc_buffer *b = &w->body;
    double s = it->size / rc_fonts_units_per_em(w->fonts, it->font);
    double start = -it->width * rc_anchor_share(it->anchor);
    double c = 1, sn = 0; /* cos and sin of -angle: y points down */
    if (it->angle == 90)
        c = 0, sn = -1;
    else if (it->angle != 0)
        c = cos(-it->angle * pi / 180), sn = sin(-it->angle * pi / 180);
    double m[6] = {s * c, s * sn, s * sn, -s * c, it->x + c * start, it->y + sn * start};
    rc_buffer_puts(b, "<g fill=\"");
    put_colour(b, it->fill);
    rc_buffer_puts(b, "\" transform=\"matrix(");
    for (int k = 0; k < 6; k++) {
        if (k)
            rc_buffer_puts(b, " ");
        put_number(b, m[k]);
    }
    rc_buffer_puts(b, ")\">");
    long at = 0;
    for (const char *p = it->text; *p;) {
        rc_glyph g = rc_fonts_glyph(w->fonts, it->font, rc_utf8_next(&p));
        const char *outline = rc_fonts_glyph_outline(w->fonts, it->font, g.glyph);
        if (!outline) {
            w->failed = true;
        } else if (*outline) {
            w->used[it->font][g.glyph] = 1;
            rc_buffer_puts(b, "<use xlink:href=\"#");
            put_glyph_id(b, role_letter[it->font], g.glyph);
            rc_buffer_puts(b, "\"");
            if (at != 0) { /* advances are not negative */
                rc_buffer_puts(b, " x=\"");
                put_count(b, (unsigned long)at);
                rc_buffer_puts(b, "\"");
            }
            rc_buffer_puts(b, "/>");
        }
        at += g.advance;
    }
    rc_buffer_puts(b, "</g>\n");
    return !w->failed;
}

/* <defs>: every glyph the text used, once, by font and glyph index. */
static void put_glyphs(rc_buffer *out, const svg_writer *w)
{
    rc_buffer_puts(out, "<defs>\n");
    for (int r = 0; r < RC_FONT_COUNT; r++) {
        unsigned count = rc_fonts_glyph_count(w->fonts, (rc_font_role)r);
        for (unsigned g = 0; g < count; g++) {
            if (!w->used[r][g])
                continue;
            rc_buffer_puts(out, "<path id=\"");
            put_glyph_id(out, role_letter[r], g);
            rc_buffer_puts(out, "\" d=\"");
            rc_buffer_puts(out, rc_fonts_glyph_outline(w->fonts, (rc_font_role)r, g));
            rc_buffer_puts(out, "\"/>\n");
        }
    }
    rc_buffer_puts(out, "</defs>\n");
}

static void *begin(const rc_canvas *canvas, const rc_paint_target *target)
{
    svg_writer *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->canvas = canvas;
    w->fonts = target->fonts;
    for (int r = 0; r < RC_FONT_COUNT; r++) {
        w->used[r] = calloc(rc_fonts_glyph_count(w->fonts, (rc_font_role)r) + 1, 1);
        w->failed |= !w->used[r];
    }
    if (w->failed) {
        for (int r = 0; r < RC_FONT_COUNT; r++)
            free(w->used[r]);
        free(w);
        return NULL;
    }
    return w;
}

/* The document: the root, the glyphs used, then the items painted. */
static bool end(void *state, bool ok, char **bytes, size_t *len)
{
    svg_writer *w = state;
    const rc_canvas *canvas = w->canvas;
    rc_buffer out = {0};
    ok = ok && !w->failed;
    if (ok) {
        rc_buffer_puts(&out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                             "<svg xmlns=\"http://www.w3.org/2000/svg\" "
                             "xmlns:xlink=\"http://www.w3.org/1999/xlink\" width=\"");
        put_number(&out, rc_canvas_width(canvas));
        rc_buffer_puts(&out, "pt\" height=\"");
        put_number(&out, rc_canvas_height(canvas));
        rc_buffer_puts(&out, "pt\" viewBox=\"0 0 ");
        put_number(&out, rc_canvas_width(canvas));
        rc_buffer_puts(&out, " ");
        put_number(&out, rc_canvas_height(canvas));
        rc_buffer_puts(&out, "\" version=\"1.1\">\n");
        put_glyphs(&out, w);
        rc_buffer_puts(&out, "<g stroke-miterlimit=\"10\">\n");
        if (w->body.data)
            rc_buffer_put(&out, w->body.data, w->body.len);
        rc_buffer_puts(&out, "</g>\n</svg>\n");
    }
    for (int r = 0; r < RC_FONT_COUNT; r++)
        free(w->used[r]);
    ok = ok && !w->body.failed;
    free(w->body.data);
    free(w);
    if (!ok) {
        free(out.data);
        return false;
    }
    *bytes = rc_buffer_take(&out, len);
    return *bytes != NULL;
}

const rc_painter rc_painter_svg = {"svg", begin, paint_path, paint_rect, paint_marker, paint_text,
                                   end};
