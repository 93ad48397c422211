/* paint_hpdf.c: paints a canvas (canvas.h) with libharu's path
 * and text operators, so the chart inside a PDF stays sharp at any zoom and
 * its labels are text. See paint_hpdf.h; paint_cairo.c is the reference
 * for how each item looks. */
#include "paint/paint_hpdf.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *rc_hpdf_utf8_put(char *o, unsigned long c)
{
    if (c < 0x80) {
        *o++ = (char)c;
    } else if (c < 0x800) {
        *o++ = (char)(0xC0 | (c >> 6));
        *o++ = (char)(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
        *o++ = (char)(0xE0 | (c >> 12));
        *o++ = (char)(0x80 | ((c >> 6) & 0x3F));
        *o++ = (char)(0x80 | (c & 0x3F));
    } else {
        *o++ = (char)(0xF0 | (c >> 18));
        *o++ = (char)(0x80 | ((c >> 12) & 0x3F));
        *o++ = (char)(0x80 | ((c >> 6) & 0x3F));
        *o++ = (char)(0x80 | (c & 0x3F));
    }
    return o;
}

char *rc_hpdf_showable(const rc_hpdf_fonts *fonts, rc_font_role role, const char *text)
{
    /* A replacement (3 bytes) is never longer than what it replaces, except
     * for a single invalid byte: 3 bytes per input byte always suffice. */
    char *out = malloc(3 * strlen(text) + 1), *o = out;
    if (!out)
        return NULL;
    bool space = false;
    for (const char *p = text; *p;) {
        unsigned long c = rc_utf8_next(&p);
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            space = o > out;
            continue;
        }
        if (space)
            *o++ = ' ';
        space = false;
        if (c > 0xFFFF || !fonts->has_glyph(fonts->ctx, role, c))
            c = 0xFFFD;
        o = rc_hpdf_utf8_put(o, c);
    }
    *o = '\0';
    return out;
}

/* What the page's graphics state holds, of what this painter sets: each
 * operator is written only when its value changes, rather than every
 * shape saving, setting and restoring all of it. `known` is false until
 * set. */
typedef struct {
    bool known_fill, known_stroke, known_width, known_dash, known_font;
    rc_rgb fill, stroke;
    double width, size;
    HPDF_UINT16 dash[4];
    HPDF_UINT ndash;
    HPDF_Font font;
} pen;

/* Page coordinates of a description point, and the pen. */
typedef struct {
    double x, top, scale, page_h;
    pen *pen;
} place;

static bool same_rgb(rc_rgb a, rc_rgb b) { return a.r == b.r && a.g == b.g && a.b == b.b; }

static bool set_fill(HPDF_Page page, pen *pn, rc_rgb c)
{
    if (pn->known_fill && same_rgb(pn->fill, c))
        return true;
    pn->known_fill = true;
    pn->fill = c;
    return HPDF_Page_SetRGBFill(page, (HPDF_REAL)c.r, (HPDF_REAL)c.g, (HPDF_REAL)c.b) == HPDF_OK;
}

static double px(const place *pl, double x) { return pl->x + pl->scale * x; }
static double py(const place *pl, double y) { return pl->page_h - (pl->top + pl->scale * y); }

/* libharu 2.3 takes dash lengths as whole numbers (1 to 100), so a dashed
 * stroke is drawn in a space `unit` times finer than the page's. */
static double dash_unit(const rc_canvas_item *it, double scale)
{
    double longest = 0;
    for (int i = 0; i < it->ndash && i < 4; i++)
        longest = fmax(longest, it->dash[i] * scale);
    if (it->ndash <= 0 || longest <= 0)
        return 1;
    double unit = floor(100.0 / longest);
    return unit > 10 ? 10 : unit < 1 ? 1 : unit;
}

/* Sets the stroke of `it` in a space `unit` times finer than the page's. */
static bool set_stroke(HPDF_Page page, pen *pn, const rc_canvas_item *it, double scale, double unit)
{
    bool ok = true;
    if (!pn->known_stroke || !same_rgb(pn->stroke, it->stroke)) {
        ok &= HPDF_Page_SetRGBStroke(page, (HPDF_REAL)it->stroke.r, (HPDF_REAL)it->stroke.g,
                                     (HPDF_REAL)it->stroke.b) == HPDF_OK;
        pn->known_stroke = true;
        pn->stroke = it->stroke;
    }
    double width = it->stroke_width * scale * unit;
    if (!pn->known_width || pn->width != width) {
        ok &= HPDF_Page_SetLineWidth(page, (HPDF_REAL)width) == HPDF_OK;
        pn->known_width = true;
        pn->width = width;
    }
    HPDF_UINT16 pattern[4];
    HPDF_UINT n = 0;
    for (int i = 0; i < it->ndash && i < 4; i++) {
        double v = round(it->dash[i] * scale * unit);
        pattern[n++] = (HPDF_UINT16)(v < 1 ? 1 : v > 100 ? 100 : v);
    }
    if (n % 2 == 1 && n > 1)
        n--; /* libharu takes one length or pairs */
    if (!pn->known_dash || pn->ndash != n || memcmp(pn->dash, pattern, n * sizeof *pattern) != 0) {
        ok &= HPDF_Page_SetDash(page, n ? pattern : NULL, n, 0) == HPDF_OK;
        pn->known_dash = true;
        pn->ndash = n;
        memcpy(pn->dash, pattern, n * sizeof *pattern);
    }
    return ok;
}

/* Fills and/or strokes the current path, closing it first when `closed`. */
static bool finish_path(HPDF_Page page, bool fill, bool stroke, bool closed)
{
    if (fill && stroke)
        return (closed ? HPDF_Page_ClosePathFillStroke(page) : HPDF_Page_FillStroke(page)) ==
               HPDF_OK;
    if (fill)
        return HPDF_Page_Fill(page) == HPDF_OK;
    if (stroke)
        return (closed ? HPDF_Page_ClosePathStroke(page) : HPDF_Page_Stroke(page)) == HPDF_OK;
    return HPDF_Page_EndPath(page) == HPDF_OK;
}

/* A path, rectangle or marker: its outline as vertices (pts, n), or a
 * circle (n == 0, centre cx, cy, radius r), in description points. */
static bool paint_shape(HPDF_Page page, const place *pl, const rc_canvas_item *it,
                        const double *pts, size_t n, bool closed, double cx, double cy, double r)
{
    bool fill = it->has_fill, stroke = it->stroke_width > 0;
    if (!fill && !stroke)
        return true;
    double unit = stroke ? dash_unit(it, pl->scale) : 1;
    /* A finer space for a dash lasts for this shape only: its own state. */
    pen outside = *pl->pen;
    bool ok = true;
    if (unit != 1)
        ok &= HPDF_Page_GSave(page) == HPDF_OK;
    if (fill)
        ok &= set_fill(page, pl->pen, it->fill);
    if (stroke)
        ok &= set_stroke(page, pl->pen, it, pl->scale, unit);
    if (unit != 1)
        ok &= HPDF_Page_Concat(page, (HPDF_REAL)(1 / unit), 0, 0, (HPDF_REAL)(1 / unit), 0, 0) ==
              HPDF_OK;
    if (n == 0) {
        ok &= HPDF_Page_Circle(page, (HPDF_REAL)(px(pl, cx) * unit), (HPDF_REAL)(py(pl, cy) * unit),
                               (HPDF_REAL)(r * pl->scale * unit)) == HPDF_OK;
        closed = true;
    } else {
        for (size_t i = 0; i < n; i++) {
            HPDF_REAL x = (HPDF_REAL)(px(pl, pts[2 * i]) * unit);
            HPDF_REAL y = (HPDF_REAL)(py(pl, pts[2 * i + 1]) * unit);
            ok &= (i == 0 ? HPDF_Page_MoveTo(page, x, y) : HPDF_Page_LineTo(page, x, y)) == HPDF_OK;
        }
    }
    ok &= finish_path(page, fill, stroke, closed);
    if (unit != 1) {
        ok &= HPDF_Page_GRestore(page) == HPDF_OK;
        *pl->pen = outside;
    }
    return ok;
}

static bool paint_text(HPDF_Page page, const place *pl, const rc_canvas_item *it,
                       const rc_hpdf_fonts *fonts)
{
    if (!it->text || !*it->text)
        return true;
    char *text = rc_hpdf_showable(fonts, it->font, it->text);
    if (!text)
        return false;
    HPDF_Font font = fonts->font[it->font];
    double size = it->size * pl->scale, width = it->width * pl->scale;
    HPDF_TextWidth tw = HPDF_Font_TextWidth(font, (const HPDF_BYTE *)text, (HPDF_UINT)strlen(text));
    double measured = tw.width * size / 1000.0;
    if (width > 0 && measured > width * 1.001) {
        /* A replaced character is wider: keep the laid-out box, but no
         * smaller than the smallest legible text. */
        double fitted = fmax(size * width / measured, fmin(size, RC_HPDF_MIN_TEXT));
        measured *= fitted / size;
        size = fitted;
    }
    double along = rc_anchor_share(it->anchor);
    double x = px(pl, it->x), y = py(pl, it->y);
    bool up = fabs(it->angle - 90) < 1e-9;
    bool ok = HPDF_Page_BeginText(page) == HPDF_OK;
    pen *pn = pl->pen;
    if (!pn->known_font || pn->font != font || pn->size != size) {
        ok &= HPDF_Page_SetFontAndSize(page, font, (HPDF_REAL)size) == HPDF_OK;
        pn->known_font = true;
        pn->font = font;
        pn->size = size;
    }
    ok &= set_fill(page, pn, it->fill);
    /* The text matrix turns the baseline; the anchor moves along it. */
    if (up)
        ok &= HPDF_Page_SetTextMatrix(page, 0, 1, -1, 0, (HPDF_REAL)x,
                                      (HPDF_REAL)(y - along * measured)) == HPDF_OK;
    else
        ok &= HPDF_Page_SetTextMatrix(page, 1, 0, 0, 1, (HPDF_REAL)(x - along * measured),
                                      (HPDF_REAL)y) == HPDF_OK;
    ok &= HPDF_Page_ShowText(page, text) == HPDF_OK;
    ok &= HPDF_Page_EndText(page) == HPDF_OK;
    free(text);
    return ok;
}

/* A painting in progress on a page (painter.h's rc_painter_pdf). */
typedef struct {
    HPDF_Page page;
    const rc_hpdf_fonts *fonts;
    pen pen;
    place place;
    bool ok; /* false once the page reported an error: nothing more is painted */
} painting;

static void *begin(const rc_canvas *canvas, const rc_paint_target *target)
{
    (void)canvas;
    painting *st = calloc(1, sizeof *st);
    if (!st)
        return NULL;
    HPDF_Page page = target->page;
    st->page = page;
    st->fonts = target->page_fonts;
    st->place = (place){target->x, target->top, target->scale, HPDF_Page_GetHeight(page), &st->pen};
    st->ok = HPDF_Page_GSave(page) == HPDF_OK;
    st->ok &= HPDF_Page_SetLineCap(page, HPDF_BUTT_END) == HPDF_OK;
    st->ok &= HPDF_Page_SetLineJoin(page, HPDF_MITER_JOIN) == HPDF_OK;
    return st;
}

static bool paint_path(void *state, const rc_canvas_item *it)
{
    painting *st = state;
    return st->ok = st->ok && paint_shape(st->page, &st->place, it, it->points, it->npoints,
                                          it->closed, 0, 0, 0);
}

static bool paint_rect(void *state, const rc_canvas_item *it)
{
    painting *st = state;
    double r[8] = {it->x,         it->y,         it->x + it->w, it->y,
                   it->x + it->w, it->y + it->h, it->x,         it->y + it->h};
    return st->ok = st->ok && paint_shape(st->page, &st->place, it, r, 4, true, 0, 0, 0);
}

static bool paint_marker(void *state, const rc_canvas_item *it)
{
    painting *st = state;
    double pts[20];
    size_t n = rc_marker_outline(it->shape, it->x, it->y, it->size, pts);
    return st->ok = st->ok && paint_shape(st->page, &st->place, it, pts, n, true, it->x, it->y,
                                          it->size / 2);
}

static bool paint_item_text(void *state, const rc_canvas_item *it)
{
    painting *st = state;
    return st->ok = st->ok && paint_text(st->page, &st->place, it, st->fonts);
}

static bool end(void *state, bool ok, char **bytes, size_t *len)
{
    (void)bytes, (void)len; /* paints on the page: no file */
    painting *st = state;
    ok = st->ok && ok;
    ok &= HPDF_Page_GRestore(st->page) == HPDF_OK;
    free(st);
    return ok;
}

const rc_painter rc_painter_pdf = {"pdf", begin, paint_path, paint_rect, paint_marker,
                                   paint_item_text, end};
