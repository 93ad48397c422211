/* canvas.c: the drawing list. See canvas.h. */
#include "paint/canvas.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/array.h"

static const double pi = 3.14159265358979323846;

struct rc_canvas {
    double width, height;
    rc_canvas_item *items;
    size_t count, cap;
    bool failed; /* an append failed: rc_canvas_finish returns NULL */
    const rc_fonts *fonts;
};

rc_canvas *rc_canvas_new(const rc_fonts *fonts, double width, rc_rgb background)
{
    rc_canvas *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->fonts = fonts;
    c->width = width;
    rc_canvas_add_rect(c, RC_ROLE_NONE, 0, 0, width, 0, &background, NULL, 0);
    return c;
}

void rc_canvas_free(rc_canvas *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->count; i++) {
        free(c->items[i].points);
        free(c->items[i].text);
    }
    free(c->items);
    free(c);
}

rc_canvas *rc_canvas_finish(rc_canvas *c, double height)
{
    if (c->failed) {
        rc_canvas_free(c);
        return NULL;
    }
    c->height = height;
    c->items[0].h = height;
    return c;
}

rc_canvas_item *rc_canvas_add(rc_canvas *c, rc_item_kind kind, rc_item_role role)
{
    if (c->failed)
        return NULL;
    if (!RC_GROW(c->items, c->cap, c->count + 1)) {
        c->failed = true;
        return NULL;
    }
    rc_canvas_item *it = &c->items[c->count++];
    memset(it, 0, sizeof *it);
    it->kind = kind;
    it->role = role;
    it->series = -1;
    it->group = -1;
    return it;
}

rc_canvas_item *rc_canvas_add_path(rc_canvas *c, rc_item_role role, const double *pts, size_t n,
                                   rc_rgb colour, double width)
{
    rc_canvas_item *it = rc_canvas_add(c, RC_ITEM_PATH, role);
    if (!it)
        return NULL;
    it->points = malloc(2 * n * sizeof *it->points);
    if (!it->points) {
        c->count--;
        c->failed = true;
        return NULL;
    }
    memcpy(it->points, pts, 2 * n * sizeof *pts);
    it->npoints = n;
    it->stroke = colour;
    it->stroke_width = width;
    return it;
}

rc_canvas_item *rc_canvas_add_line(rc_canvas *c, rc_item_role role, double x0, double y0, double x1,
                                   double y1, rc_rgb colour, double width)
{
    double pts[4] = {x0, y0, x1, y1};
    return rc_canvas_add_path(c, role, pts, 2, colour, width);
}

rc_canvas_item *rc_canvas_add_rect(rc_canvas *c, rc_item_role role, double x, double y, double w,
                                   double h, const rc_rgb *fill, const rc_rgb *stroke, double width)
{
    rc_canvas_item *it = rc_canvas_add(c, RC_ITEM_RECT, role);
    if (!it)
        return NULL;
    it->x = x;
    it->y = y;
    it->w = w;
    it->h = h;
    if (fill) {
        it->has_fill = true;
        it->fill = *fill;
    }
    if (stroke) {
        it->stroke = *stroke;
        it->stroke_width = width;
    }
    return it;
}

rc_canvas_item *rc_canvas_add_text(rc_canvas *c, rc_item_role role, double x, double y,
                                   const char *text, rc_font_role font, double size,
                                   rc_anchor anchor, rc_rgb colour)
{
    rc_canvas_item *it = rc_canvas_add(c, RC_ITEM_TEXT, role);
    if (!it)
        return NULL;
    it->text = strdup(text);
    if (!it->text) {
        c->count--;
        c->failed = true;
        return NULL;
    }
    it->x = x;
    it->y = y;
    it->font = font;
    it->size = size;
    it->anchor = anchor;
    it->has_fill = true;
    it->fill = colour;
    it->width = rc_fonts_width(c->fonts, font, size, text);
    return it;
}

void rc_canvas_fail(rc_canvas *c) { c->failed = true; }
bool rc_canvas_failed(const rc_canvas *c) { return c->failed; }
const rc_fonts *rc_canvas_fonts(const rc_canvas *c) { return c->fonts; }
rc_canvas_item *rc_canvas_edit(rc_canvas *c, size_t i) { return &c->items[i]; }

double rc_canvas_width(const rc_canvas *c) { return c->width; }
double rc_canvas_height(const rc_canvas *c) { return c->height; }
size_t rc_canvas_count(const rc_canvas *c) { return c->count; }
const rc_canvas_item *rc_canvas_item_at(const rc_canvas *c, size_t i) { return &c->items[i]; }

double rc_anchor_share(rc_anchor anchor)
{
    static const double share[] = {0, 0.5, 1}; /* ORDER rc_anchor */
    return share[anchor];
}

size_t rc_marker_outline(rc_marker_shape shape, double x, double y, double size, double pts[20])
{
    double r = size / 2;
    int n = 0;
    double start = -pi / 2; /* first vertex straight up */
    double inner = 0;
    switch (shape) {
    case RC_MARKER_CIRCLE:
        return 0;
    case RC_MARKER_SQUARE:
        r *= 0.9; /* a square looks larger than a circle of the same width */
        pts[0] = x - r, pts[1] = y - r, pts[2] = x + r, pts[3] = y - r;
        pts[4] = x + r, pts[5] = y + r, pts[6] = x - r, pts[7] = y + r;
        return 4;
    case RC_MARKER_TRIANGLE_UP:
        n = 3, r *= 1.15, y += r * 0.2;
        break;
    case RC_MARKER_TRIANGLE_DOWN:
        n = 3, r *= 1.15, start = pi / 2, y -= r * 0.2;
        break;
    case RC_MARKER_DIAMOND:
        n = 4, r *= 1.15;
        break;
    case RC_MARKER_PENTAGON:
        n = 5, r *= 1.05;
        break;
    case RC_MARKER_HEXAGON:
        n = 6;
        break;
    case RC_MARKER_STAR:
        n = 5, r *= 1.2, inner = 0.45;
        break;
    default:
        return 0;
    }
    size_t k = 0;
    for (int i = 0; i < n; i++) {
        double a = start + 2 * pi * i / n;
        pts[2 * k] = x + r * cos(a);
        pts[2 * k + 1] = y + r * sin(a);
        k++;
        if (inner > 0) {
            a += pi / n;
            pts[2 * k] = x + r * inner * cos(a);
            pts[2 * k + 1] = y + r * inner * sin(a);
            k++;
        }
    }
    return k;
}
