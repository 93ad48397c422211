/* chart.c: chart descriptions built from the results tree. See chart.h. */
#include "render/chart.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/format.h"
#include "results/results.h"

#define X(s) ((const xmlChar *)(s))

/* Three sizes of type: every size of a face is a separate glyph set in an
 * SVG or PDF, so fewer sizes make smaller files. */
#define SIZE_TITLE 13.0 /* bold: the chart's title */
#define SIZE_TEXT 9.0   /* subtitles, axis titles, names, labels */
#define SIZE_SMALL 8.0  /* tick labels, legend details and keys */


/* ---- style ------------------------------------------------------------ */

/* Okabe-Ito's colour-blind-safe palette, with Paul Tol's olive in place of its yellow, which
 * vanishes on white (issue 29.5); the black last. ORDER PALETTE */
static const rc_rgb palette[] = {
    {0.000, 0.447, 0.698}, /* blue */
    {0.902, 0.624, 0.000}, /* orange */
    {0.000, 0.620, 0.451}, /* bluish green */
    {0.835, 0.369, 0.000}, /* vermillion */
    {0.800, 0.475, 0.655}, /* reddish purple */
    {0.337, 0.706, 0.914}, /* sky blue */
    {0.600, 0.600, 0.200}, /* olive */
    {0.000, 0.000, 0.000}, /* black */
};
#define NPALETTE (sizeof palette / sizeof palette[0])

static const rc_rgb ink = {0.13, 0.13, 0.13};
static const rc_rgb ink_soft = {0.33, 0.33, 0.33};
static const rc_rgb white = {1, 1, 1};
static const rc_rgb frame = {0.55, 0.55, 0.55};
static const rc_rgb grid_major = {0.85, 0.85, 0.85};
static const rc_rgb grid_minor = {0.94, 0.94, 0.94};
static const rc_rgb band = {0.965, 0.965, 0.965};
static const rc_rgb casing = {0.40, 0.40, 0.40};
/* The time chart's two parts: Okabe-Ito blue and orange. */
static const rc_rgb body_colour = {0.000, 0.447, 0.698};
static const rc_rgb launch_colour = {0.902, 0.624, 0.000};
/* The refined estimate's thin bar: Okabe-Ito vermillion. */
static const rc_rgb estimate_colour = {0.835, 0.369, 0.000};

/* A GPU's look: colour from the palette; past the palette's length a dash
 * pattern tells lines apart, and the marker shape shifts by one, so no two
 * of the first 64 GPUs share colour and shape. */
static rc_rgb series_colour(int i)
{
    return palette[(size_t)i % NPALETTE];
}

static rc_marker_shape series_shape(int i)
{
    return (rc_marker_shape)((i + i / (int)NPALETTE) % RC_MARKER_COUNT);
}

static int series_dash(int i, double dash[4])
{
    static const double patterns[][4] = {{0}, {6, 3}, {2, 2}, {8, 3, 2, 3}};
    static const int lengths[] = {0, 2, 2, 4};
    /* Every series' dash differs from its neighbours' and from that of the series sharing its
     * colour, so roofs that nearly coincide (TITAN X and L4) are still told apart. */
    int p = (i + i / (int)NPALETTE) % 4;
    memcpy(dash, patterns[p], sizeof patterns[p]);
    return lengths[p];
}

/* Light colours (the yellow) get a grey casing so that they stand out on
 * white. */
static bool is_light(rc_rgb c)
{
    return 0.2126 * c.r + 0.7152 * c.g + 0.0722 * c.b > 0.75;
}

/* ---- items ------------------------------------------------------------ */

/* A GPU's marker: filled with its colour, or hollow (white inside, a
 * thicker outline in its colour) for the per-launch points. */
static rc_canvas_item *add_marker(rc_chart *c, rc_item_role role, int series, double x, double y,
                                 double size, bool hollow)
{
    rc_rgb colour = series_colour(series);
    if (hollow && is_light(colour)) {
        rc_canvas_item *k = rc_canvas_add(c, RC_ITEM_MARKER, role);
        if (k) {
            k->series = series;
            k->shape = series_shape(series);
            k->x = x;
            k->y = y;
            k->size = size;
            k->stroke = casing;
            k->stroke_width = 3.0;
        }
    }
    rc_canvas_item *it = rc_canvas_add(c, RC_ITEM_MARKER, role);
    if (!it)
        return NULL;
    it->series = series;
    it->shape = series_shape(series);
    it->x = x;
    it->y = y;
    it->size = size;
    it->has_fill = true;
    if (hollow) {
        it->fill = white;
        it->stroke = colour;
        it->stroke_width = 1.6;
    } else {
        it->fill = colour;
        it->stroke = ink;
        it->stroke_width = 0.6;
    }
    return it;
}

static rc_chart *chart_new(const rc_fonts *fonts, double width)
{
    return rc_canvas_new(fonts, width, white);
}

static rc_chart *chart_finish(rc_chart *c, double height)
{
    return rc_canvas_finish(c, ceil(height));
}

/* ---- text layout ------------------------------------------------------ */

typedef struct {
    char **line;
    size_t n, cap;
} lines;

static void lines_free(lines *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->line[i]);
    free(l->line);
    *l = (lines){NULL, 0, 0};
}

static bool lines_push(lines *l, const char *s, size_t len)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 4;
        char **p = realloc(l->line, cap * sizeof *p);
        if (!p)
            return false;
        l->line = p;
        l->cap = cap;
    }
    char *copy = strndup(s, len);
    if (!copy)
        return false;
    l->line[l->n++] = copy;
    return true;
}

static double width_of(const rc_fonts *f, rc_font_role role, double size, const char *s, size_t len)
{
    char *tmp = strndup(s, len);
    if (!tmp)
        return 0;
    double w = rc_fonts_width(f, role, size, tmp);
    free(tmp);
    return w;
}

/* Breaks a word wider than `maxw` between characters, after a '_', '-',
 * '/' or '.' where one fits, so names are split where they read best. */
static bool break_word(const rc_fonts *f, rc_font_role role, double size, const char *w,
                       size_t len, double maxw, lines *out, const char **rest)
{
    const char *p = w, *end = w + len, *last_fit = NULL, *last_punct = NULL;
    while (p < end) {
        const char *q = p;
        rc_utf8_next(&q);
        if (q > end)
            q = end;
        if (width_of(f, role, size, w, (size_t)(q - w)) > maxw && last_fit)
            break;
        last_fit = q;
        if (strchr("_-/.", *p))
            last_punct = q;
        p = q;
    }
    const char *cut = last_punct && last_punct < end && last_punct > w ? last_punct : last_fit;
    if (!cut || cut >= end) {
        *rest = end;
        return lines_push(out, w, len);
    }
    *rest = cut;
    return lines_push(out, w, (size_t)(cut - w));
}

/* Greedy word wrap of `text` into lines no wider than `maxw`; a single word
 * too wide is broken (break_word). Nothing is ever dropped. */
static bool wrap(const rc_fonts *f, rc_font_role role, double size, const char *text,
                 double maxw, lines *out)
{
    const char *p = text;
    char *cur = NULL;
    size_t curlen = 0;
    bool ok = true;
    while (ok && *p) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        size_t wl = strcspn(p, " ");
        /* Try the word on the current line. */
        if (cur) {
            char *t = malloc(curlen + 1 + wl + 1);
            if (!t) {
                ok = false;
                break;
            }
            memcpy(t, cur, curlen);
            t[curlen] = ' ';
            memcpy(t + curlen + 1, p, wl);
            t[curlen + 1 + wl] = '\0';
            if (rc_fonts_width(f, role, size, t) <= maxw) {
                free(cur);
                cur = t;
                curlen += 1 + wl;
                p += wl;
                continue;
            }
            free(t);
            ok = lines_push(out, cur, curlen);
            free(cur);
            cur = NULL;
            curlen = 0;
        }
        /* The word starts a line, broken while too wide. */
        const char *w = p, *end = p + wl;
        while (ok && w < end && width_of(f, role, size, w, (size_t)(end - w)) > maxw) {
            const char *rest;
            ok = break_word(f, role, size, w, (size_t)(end - w), maxw, out, &rest);
            w = rest;
        }
        if (ok && w < end) {
            cur = strndup(w, (size_t)(end - w));
            ok = cur != NULL;
            curlen = (size_t)(end - w);
        }
        p = end;
    }
    if (ok && cur)
        ok = lines_push(out, cur, curlen);
    free(cur);
    if (ok && out->n == 0)
        ok = lines_push(out, "", 0);
    return ok;
}

/* Sets `text` as a block of lines from baseline `y` down: at `size` when it
 * fits on one line, else shrunk down to `min_size`, else wrapped at
 * `min_size`. Returns the y below the block. */
static double add_block(rc_chart *c, rc_item_role role, double x, double y, const char *text,
                        rc_font_role font, double size, double min_size, double maxw,
                        rc_anchor anchor, rc_rgb colour)
{
    while (size > min_size && rc_fonts_width(rc_canvas_fonts(c), font, size, text) > maxw)
        size -= 0.5;
    if (size < min_size)
        size = min_size;
    lines l = {NULL, 0, 0};
    if (!wrap(rc_canvas_fonts(c), font, size, text, maxw, &l)) {
        rc_canvas_fail(c);
        lines_free(&l);
        return y;
    }
    double lh = size * 1.25;
    for (size_t i = 0; i < l.n; i++)
        rc_canvas_add_text(c, role, x, y + lh * (double)i, l.line[i], font, size, anchor, colour);
    size_t n = l.n;
    lines_free(&l);
    return y + lh * (double)(n - 1) + rc_fonts_descent(rc_canvas_fonts(c), font, size);
}

/* ---- reading the tree -------------------------------------------------- */

static double attr_num(xmlNodePtr n, const char *name)
{
    xmlChar *v = n ? xmlGetProp(n, X(name)) : NULL;
    double d = v ? strtod((const char *)v, NULL) : NAN;
    xmlFree(v);
    return d;
}

/* The attribute's value as a new string ("" when absent); free() it. */
static char *attr_str(xmlNodePtr n, const char *name)
{
    xmlChar *v = n ? xmlGetProp(n, X(name)) : NULL;
    char *s = strdup(v ? (const char *)v : "");
    xmlFree(v);
    return s;
}

static bool attr_is(xmlNodePtr n, const char *name, const char *want)
{
    xmlChar *v = n ? xmlGetProp(n, X(name)) : NULL;
    bool is = v && strcmp((const char *)v, want) == 0;
    xmlFree(v);
    return is;
}

static xmlNodePtr next_element(xmlNodePtr n, const char *name)
{
    for (; n; n = n->next)
        if (n->type == XML_ELEMENT_NODE && strcmp((const char *)n->name, name) == 0)
            return n;
    return NULL;
}

#define FOR_EACH(var, parent, name)                                                    \
    for (xmlNodePtr var = next_element((parent) ? (parent)->children : NULL, name); var; \
         var = next_element(var->next, name))

static xmlNodePtr figure(xmlNodePtr gpu, const char *name)
{
    FOR_EACH(f, gpu, "figure")
        if (attr_is(f, "name", name))
            return f;
    return NULL;
}

/* The GPU's position in <gpus> (its series), or -1. */
static int gpu_index(xmlNodePtr gpus, xmlNodePtr est, xmlNodePtr *gpu_out)
{
    char *id = attr_str(est, "gpu");
    int i = 0, found = -1;
    FOR_EACH(g, gpus, "gpu") {
        if (found < 0 && id && attr_is(g, "id", id)) {
            found = i;
            if (gpu_out)
                *gpu_out = g;
        }
        i++;
    }
    free(id);
    return found;
}

/* A GPU's line (a roof, or its sample in a legend) through n points: its
 * colour and dash, on a grey casing when the colour is light. Both strokes
 * carry `data` (2 numbers, or NULL). */
static void add_series_path(rc_chart *c, rc_item_role role, const double *pts, size_t n, int series,
                            const double *data)
{
    rc_rgb col = series_colour(series);
    for (int pass = is_light(col) ? 0 : 1; pass < 2; pass++) {
        rc_canvas_item *it = rc_canvas_add_path(c, role, pts, n, pass ? col : casing, pass ? 1.6 : 3.0);
        if (!it)
            continue;
        it->series = series;
        it->ndash = series_dash(series, it->dash);
        if (data)
            it->data[0] = data[0], it->data[1] = data[1];
    }
}

/* ---- axes -------------------------------------------------------------- */

typedef struct {
    double lo, hi; /* data range, powers of ten on log axes */
    double p0, p1; /* where lo and hi fall, in points */
    bool log;
} axis;

static double to_page(const axis *a, double v)
{
    double t = a->log ? (log10(v) - log10(a->lo)) / (log10(a->hi) - log10(a->lo))
                      : (v - a->lo) / (a->hi - a->lo);
    return a->p0 + t * (a->p1 - a->p0);
}

static double decade_below(double v) { return pow(10, floor(log10(v) + 1e-9)); }

/* The nearest 1, 2 or 5 x 10^k at or below / above v: log axes end there,
 * which wastes less room than whole decades. */
static double nice_below(double v)
{
    double d = decade_below(v);
    return v >= 5 * d * (1 - 1e-9) ? 5 * d : v >= 2 * d * (1 - 1e-9) ? 2 * d : d;
}

static double nice_above(double v)
{
    double d = decade_below(v);
    return v <= d * (1 + 1e-9) ? d : v <= 2 * d * (1 + 1e-9) ? 2 * d : v <= 5 * d * (1 + 1e-9) ? 5 * d : 10 * d;
}

/* A log axis from lo to hi (with margins) that shows at least one power of
 * ten, so that it has a labelled tick. */
static void log_range(double lo, double hi, double margin, double *out_lo, double *out_hi)
{
    *out_lo = nice_below(lo / margin);
    *out_hi = nice_above(hi * margin);
    if (decade_below(*out_hi) < *out_lo * (1 - 1e-9)) {
        *out_lo = decade_below(*out_lo);
        *out_hi = pow(10, ceil(log10(*out_hi) - 1e-9));
    }
}

static bool in_range(const axis *a, double v)
{
    return v >= a->lo * (1 - 1e-9) && v <= a->hi * (1 + 1e-9);
}

/* A power of ten as a plain number: "0.01", "1", "1,000". */
static char *decade_text(int k, char *buf, size_t size);

/* m x 10^k as a plain number: "0.02", "5", "2,000". */
static char *tick_text_log(int m, int k, char *buf, size_t size)
{
    if (k < 0)
        snprintf(buf, size, "%.*f", -k, m * pow(10, k));
    else if (k <= 15)
        rc_format_int((int64_t)llround(m * pow(10, k)), buf, size);
    else
        snprintf(buf, size, "%de%d", m, k);
    return buf;
}

static char *decade_text(int k, char *buf, size_t size)
{
    if (k < 0)
        snprintf(buf, size, "%.*f", -k, pow(10, k));
    else if (k <= 15)
        rc_format_int((int64_t)llround(pow(10, k)), buf, size);
    else
        snprintf(buf, size, "1e%d", k);
    return buf;
}

/* A tick's label under a horizontal axis whose ticks hang from `edge`. */
static void tick_label_below(rc_chart *c, double p, double edge, const char *text)
{
    rc_canvas_add_text(c, RC_ROLE_TICK_LABEL, p, edge + 6 + rc_fonts_ascent(rc_canvas_fonts(c), RC_FONT_REGULAR, SIZE_SMALL),
             text, RC_FONT_REGULAR, SIZE_SMALL, RC_ANCHOR_MIDDLE, ink_soft);
}

/* A horizontal axis's title, centred between left and right under the
 * tick labels of the axis at `edge`. */
static void axis_title_below(rc_chart *c, double left, double right, double edge, const char *text)
{
    rc_canvas_add_text(c, RC_ROLE_AXIS, (left + right) / 2,
             edge + 6 + SIZE_SMALL * 1.25 + 6 + rc_fonts_ascent(rc_canvas_fonts(c), RC_FONT_REGULAR, SIZE_TEXT),
             text, RC_FONT_REGULAR, SIZE_TEXT, RC_ANCHOR_MIDDLE, ink);
}

/* The y below a horizontal axis at `edge`: its tick labels and title. */
static double below_axis_title(double edge) { return edge + 6 + SIZE_SMALL * 1.25 + 6 + SIZE_TEXT * 1.3; }

/* Grid lines, minor ticks and labels of a log axis. Horizontal axes label
 * below `edge`, vertical ones left of it. */
static void log_axis(rc_chart *c, const axis *a, bool horizontal, double edge, double across0,
                     double across1, bool si, const char *unit)
{
    int k0 = (int)floor(log10(a->lo) + 1e-9), k1 = (int)ceil(log10(a->hi) - 1e-9);
    int every = (k1 - k0) > 10 ? 2 : 1;
    char buf[64];
    for (int k = k0; k <= k1; k++) {
        for (int m = 2; m <= 9; m++) {
            if (!in_range(a, m * pow(10, k)))
                continue;
            double p = to_page(a, m * pow(10, k));
            if (horizontal) {
                rc_canvas_add_line(c, RC_ROLE_GRID, p, across0, p, across1, grid_minor, 0.4);
                rc_canvas_add_line(c, RC_ROLE_AXIS, p, edge, p, edge + 2.5, frame, 0.6);
            } else {
                rc_canvas_add_line(c, RC_ROLE_GRID, across0, p, across1, p, grid_minor, 0.4);
                rc_canvas_add_line(c, RC_ROLE_AXIS, edge - 2.5, p, edge, p, frame, 0.6);
            }
            /* A short axis (three decades or less) gets its 2s and 5s
             * labelled too, or it would show one or two numbers. */
            if (horizontal && !si && k1 - k0 <= 3 && (m == 2 || m == 5)) {
                tick_label_below(c, p, edge, tick_text_log(m, k, buf, sizeof buf));
            }
        }
        if (!in_range(a, pow(10, k)))
            continue;
        double p = to_page(a, pow(10, k));
        if (horizontal) {
            rc_canvas_add_line(c, RC_ROLE_GRID, p, across0, p, across1, grid_major, 0.6);
            rc_canvas_add_line(c, RC_ROLE_AXIS, p, edge, p, edge + 4, frame, 0.8);
        } else {
            rc_canvas_add_line(c, RC_ROLE_GRID, across0, p, across1, p, grid_major, 0.6);
            rc_canvas_add_line(c, RC_ROLE_AXIS, edge - 4, p, edge, p, frame, 0.8);
        }
        if ((k - k0) % every)
            continue;
        if (si)
            rc_format_si(pow(10, k), unit, buf, sizeof buf);
        else
            decade_text(k, buf, sizeof buf);
        if (horizontal)
            tick_label_below(c, p, edge, buf);
        else
            rc_canvas_add_text(c, RC_ROLE_TICK_LABEL, edge - 6, p + 3, buf, RC_FONT_REGULAR, SIZE_SMALL,
                     RC_ANCHOR_END, ink_soft);
    }
}

/* The widest label log_axis would print for decades lo..hi. */
static double log_labels_width(const rc_fonts *f, double lo, double hi, bool si, const char *unit)
{
    double w = 0;
    char buf[64];
    for (int k = (int)ceil(log10(lo) - 1e-9); k <= (int)floor(log10(hi) + 1e-9); k++) {
        if (si)
            rc_format_si(pow(10, k), unit, buf, sizeof buf);
        else
            decade_text(k, buf, sizeof buf);
        w = fmax(w, rc_fonts_width(f, RC_FONT_REGULAR, SIZE_SMALL, buf));
    }
    return w;
}

static rc_canvas_item *add_rotated(rc_chart *c, rc_item_role role, double x, double y,
                                  const char *text, rc_font_role font, double size)
{
    rc_canvas_item *it = rc_canvas_add_text(c, role, x, y, text, font, size, RC_ANCHOR_MIDDLE, ink);
    if (it)
        it->angle = 90;
    return it;
}

/* The chart's title and subtitle across `maxw`; returns the y below. */
static double add_titles(rc_chart *c, double x, double y, double maxw, const char *title,
                         const char *subtitle)
{
    y += rc_fonts_ascent(rc_canvas_fonts(c), RC_FONT_BOLD, SIZE_TITLE);
    y = add_block(c, RC_ROLE_TITLE, x, y, title, RC_FONT_BOLD, SIZE_TITLE, SIZE_TEXT, maxw,
                  RC_ANCHOR_START, ink);
    if (subtitle) {
        y += 4 + rc_fonts_ascent(rc_canvas_fonts(c), RC_FONT_REGULAR, SIZE_TEXT);
        y = add_block(c, RC_ROLE_TITLE, x, y, subtitle, RC_FONT_REGULAR, SIZE_TEXT, SIZE_TEXT, maxw,
                      RC_ANCHOR_START, ink_soft);
    }
    return y;
}

/* ---- plot furniture shared by the charts --------------------------------- */

/* A plot's edges, in points. */
typedef struct {
    double left, top, right, bottom;
} plot_box;

/* The plot's frame, over what is drawn inside it. */
static void plot_frame(rc_chart *c, const plot_box *b)
{
    rc_canvas_add_rect(c, RC_ROLE_AXIS, b->left, b->top, b->right - b->left, b->bottom - b->top, NULL, &frame,
             0.8);
}

/* The lines of `l` from baseline `base` down, `lh` apart, each marking
 * `series` and `group`. */
static void add_lines(rc_chart *c, rc_item_role role, double x, double base, double lh,
                      const lines *l, rc_font_role font, double size, rc_anchor anchor,
                      rc_rgb colour, int series, int group)
{
    for (size_t j = 0; j < l->n; j++) {
        rc_canvas_item *it = rc_canvas_add_text(c, role, x, base + lh * (double)j, l->line[j], font, size,
                                     anchor, colour);
        if (it)
            it->series = series, it->group = group;
    }
}

/* A row's label (a GPU's or a kernel's name) wrapped to `maxw`, its lines
 * centred on the row's middle `mid`; `drop` is how far a line's baseline
 * sits below its middle. */
static void row_label(rc_chart *c, double x, double mid, double drop, const char *text,
                      rc_font_role font, rc_anchor anchor, double maxw, int series, int group)
{
    lines l = {NULL, 0, 0};
    if (!wrap(rc_canvas_fonts(c), font, SIZE_TEXT, text, maxw, &l)) {
        lines_free(&l);
        rc_canvas_fail(c);
        return;
    }
    double lh = SIZE_TEXT * 1.25;
    double base = mid - lh * (double)(l.n - 1) / 2 + drop;
    add_lines(c, RC_ROLE_LABEL, x, base, lh, &l, font, SIZE_TEXT, anchor, ink, series, group);
    lines_free(&l);
}

/* The height of a row whose label is `text` wrapped to `maxw`: its lines
 * and some air, at least 24 points. */
static double row_height(rc_chart *c, const char *text, double maxw)
{
    lines l = {NULL, 0, 0};
    if (!wrap(rc_canvas_fonts(c), RC_FONT_REGULAR, SIZE_TEXT, text, maxw, &l)) {
        lines_free(&l);
        rc_canvas_fail(c);
        return 24;
    }
    double h = fmax(24, (double)l.n * SIZE_TEXT * 1.25 + 10);
    lines_free(&l);
    return h;
}

/* Bands `h` high from the plot's top, every other one shaded from the
 * first, so that one group of rows reads apart from the next. */
static void shade_bands(rc_chart *c, const plot_box *b, double h, size_t n)
{
    for (size_t i = 0; i < n; i += 2)
        rc_canvas_add_rect(c, RC_ROLE_NONE, b->left, b->top + (double)i * h, b->right - b->left, h, &band, NULL,
                 0);
}

/* ---- legend of GPUs ------------------------------------------------------ */

typedef struct {
    int series;
    char *name;
    char *detail[2]; /* smaller lines under the name, or NULL */
} legend_entry;

/* A legend entry's sample, `sample` wide from x on the line `mid`: a
 * roof's line when `with_line`, and the GPU's marker. */
static void legend_sample(rc_chart *c, int series, double x, double mid, double sample,
                          bool with_line)
{
    if (with_line) {
        double pts[4] = {x, mid, x + sample, mid};
        add_series_path(c, RC_ROLE_LEGEND, pts, 2, series, NULL);
    }
    add_marker(c, RC_ROLE_LEGEND, series, x + sample / 2, mid, 7, false);
}

/* The GPU legend at (x, y), `w` wide: a sample (a roof's line when
 * `with_line`, and the GPU's marker), the name wrapped, its detail lines.
 * With `dry` it only measures. Returns the height used. */
static double legend(rc_chart *c, double x, double y, double w, const legend_entry *e, size_t n,
                     bool with_line, bool dry)
{
    const double name_size = SIZE_TEXT, detail_size = SIZE_SMALL;
    double sample = with_line ? 26 : 12, tx = x + sample + 6, tw = w - sample - 6;
    double top = y;
    double asc = rc_fonts_ascent(rc_canvas_fonts(c), RC_FONT_REGULAR, name_size);
    for (size_t i = 0; i < n; i++) {
        lines l = {NULL, 0, 0};
        if (!wrap(rc_canvas_fonts(c), RC_FONT_REGULAR, name_size, e[i].name, tw, &l)) {
            rc_canvas_fail(c);
            return 0;
        }
        double base = y + asc;
        if (!dry)
            legend_sample(c, e[i].series, x, base - asc * 0.35, sample, with_line);
        for (size_t j = 0; j < l.n; j++) {
            if (!dry) {
                rc_canvas_item *it = rc_canvas_add_text(c, RC_ROLE_LEGEND, tx, base, l.line[j], RC_FONT_REGULAR,
                                             name_size, RC_ANCHOR_START, ink);
                if (it)
                    it->series = e[i].series;
            }
            base += name_size * 1.25;
        }
        lines_free(&l);
        for (int d = 0; d < 2; d++) {
            if (!e[i].detail[d] || !*e[i].detail[d])
                continue;
            if (!wrap(rc_canvas_fonts(c), RC_FONT_REGULAR, detail_size, e[i].detail[d], tw, &l)) {
                rc_canvas_fail(c);
                return 0;
            }
            for (size_t j = 0; j < l.n; j++) {
                base += detail_size * 0.15;
                if (!dry) {
                    rc_canvas_item *it = rc_canvas_add_text(c, RC_ROLE_LEGEND, tx, base, l.line[j],
                                                 RC_FONT_REGULAR, detail_size, RC_ANCHOR_START,
                                                 ink_soft);
                    if (it)
                        it->series = e[i].series;
                }
                base += detail_size * 1.2;
            }
            lines_free(&l);
        }
        y = base - asc + 5;
    }
    return y - top;
}

/* The GPU legend beside a plot, `w` wide from x: a bold heading level
 * with the plot's top, then the entries. Returns the y below it. */
static double legend_beside(rc_chart *c, double x, double top, double w, const char *heading,
                            const legend_entry *e, size_t n, bool with_line)
{
    double y = top + rc_fonts_ascent(rc_canvas_fonts(c), RC_FONT_BOLD, SIZE_TEXT);
    rc_canvas_add_text(c, RC_ROLE_LEGEND, x, y, heading, RC_FONT_BOLD, SIZE_TEXT, RC_ANCHOR_START, ink);
    y += 8;
    return y + legend(c, x, y, w, e, n, with_line, false);
}

/* The GPU legend under a plot, for a narrow page: each GPU's roof line,
 * marker and name (no figures), in as many columns as fit `w`, filled
 * down first. Returns the y below it. */
static double legend_columns(rc_chart *c, double x, double y, double w, const legend_entry *e,
                             size_t n)
{
    const double size = SIZE_SMALL, sample = 22, gap = 12, lh = size * 1.25;
    double widest = 0;
    for (size_t i = 0; i < n; i++)
        widest = fmax(widest, rc_fonts_width(rc_canvas_fonts(c), RC_FONT_REGULAR, size, e[i].name));
    size_t ncols = (size_t)fmax(1, fmin((double)n, floor((w + gap) / (sample + 6 + widest + gap))));
    size_t nrows = n ? (n + ncols - 1) / ncols : 0;
    double col_w = (w + gap) / (double)ncols, tw = col_w - gap - sample - 6;
    double asc = rc_fonts_ascent(rc_canvas_fonts(c), RC_FONT_REGULAR, size);
    for (size_t r = 0; r < nrows; r++) {
        size_t most = 1;
        for (size_t col = 0; col < ncols; col++) {
            size_t i = col * nrows + r;
            if (i >= n)
                continue;
            lines l = {NULL, 0, 0};
            if (!wrap(rc_canvas_fonts(c), RC_FONT_REGULAR, size, e[i].name, tw, &l)) {
                rc_canvas_fail(c);
                return y;
            }
            double ex = x + (double)col * col_w, base = y + asc;
            legend_sample(c, e[i].series, ex, base - asc * 0.35, sample, true);
            add_lines(c, RC_ROLE_LEGEND, ex + sample + 6, base, lh, &l, RC_FONT_REGULAR, size,
                      RC_ANCHOR_START, ink, e[i].series, -1);
            most = l.n > most ? l.n : most;
            lines_free(&l);
        }
        y += lh * (double)most + 3;
    }
    return y;
}

static void legend_free(legend_entry *e, size_t n)
{
    for (size_t i = 0; e && i < n; i++) {
        free(e[i].name);
        free(e[i].detail[0]);
        free(e[i].detail[1]);
    }
    free(e);
}

static char *join3(const char *a, const char *b, const char *c)
{
    size_t n = strlen(a) + strlen(b) + strlen(c) + 1;
    char *s = malloc(n);
    if (s)
        snprintf(s, n, "%s%s%s", a, b, c);
    return s;
}

/* ---- the roofline ------------------------------------------------------ */

typedef struct {
    int series;
    double peak, bandwidth, ridge, perf_roof, perf_launch;
    double level_ai[3]; /* FLOPs / bytes at L1, L2 and DRAM; 0 when unknown */
} roof;

#define CHART_WIDTH 760.0
#define MARGIN 16.0

/* What the roofline's symbols mean. ORDER as in symbol_key. */
static const char *const ROOFLINE_KEYS[] = {"on the roof: FLOPs / t_body",
                                            "per launch: FLOPs / t_total",
                                            "ridge point: peak / bandwidth"};

/* Key k of the roofline's symbols (0: on the roof, 1: per launch, 2: the
 * ridge point) at (x, y), its text beside it. Returns the x after it. */
static double symbol_key(rc_chart *c, int k, double x, double y, const char *text)
{
    double base = y + rc_fonts_ascent(rc_canvas_fonts(c), RC_FONT_REGULAR, SIZE_SMALL);
    rc_canvas_item *it = rc_canvas_add(c, RC_ITEM_MARKER, RC_ROLE_LEGEND);
    if (it) {
        it->shape = RC_MARKER_CIRCLE;
        it->x = x + 13, it->y = base - 3;
        it->size = k >= 2 ? 4.5 : 8; /* 2: ridge point; 3: a memory level's point */
        it->has_fill = true;
        it->fill = k == 1 ? white : ink_soft;
        it->stroke = k == 1 ? ink_soft : ink;
        it->stroke_width = k == 1 ? 1.6 : 0.6;
    }
    it = rc_canvas_add_text(c, RC_ROLE_LEGEND, x + 32, base, text, RC_FONT_REGULAR, SIZE_SMALL,
                  RC_ANCHOR_START, ink);
    return x + 32 + (it ? it->width : 0);
}

/* The keys to the symbols in a row under a plot, from x, `w` wide,
 * starting a new row where the next does not fit; `side_by_side` when the
 * per-launch points are. Returns the y below. */
static double symbol_keys_row(rc_chart *c, double x, double y, double w, bool levels)
{
    const char *keys[] = {ROOFLINE_KEYS[0], ROOFLINE_KEYS[1], ROOFLINE_KEYS[2],
                          "small: at L1, L2, DRAM intensity"};
    double at = x;
    for (int k = 0; k < (levels ? 4 : 3); k++) {
        double kw = 32 + rc_fonts_width(rc_canvas_fonts(c), RC_FONT_REGULAR, SIZE_SMALL, keys[k]);
        if (at > x && at + kw > x + w) {
            at = x;
            y += 13;
        }
        at = symbol_key(c, k, at, y, keys[k]) + 14;
    }
    return y + 13;
}

/* What the roofline's drawing steps share: the chart, the GPUs' roofs,
 * the axes and the kernel's intensity. */
typedef struct {
    rc_chart *c;
    const roof *r;
    size_t n;
    axis ax, ay;
    double ai;
    bool has_point; /* the kernel has a finite, positive intensity */
} roofline_plot;

/* The kernel's intensity: a line through the plot, labelled above it with
 * the kernel's name when that fits. */
static void draw_intensity(const roofline_plot *p, const plot_box *b, const char *name,
                           const char *ai_text)
{
    rc_chart *c = p->c;
    double px = to_page(&p->ax, p->ai);
    rc_canvas_item *it = rc_canvas_add_line(c, RC_ROLE_INTENSITY, px, b->top - 4, px, b->bottom, ink_soft, 0.8);
    if (it) {
        it->ndash = 2, it->dash[0] = 2, it->dash[1] = 2;
        it->data[0] = p->ai;
    }
    char label[128];
    snprintf(label, sizeof label, "%s: %s FLOP/byte", name, ai_text);
    double lw = rc_fonts_width(rc_canvas_fonts(c), RC_FONT_REGULAR, SIZE_TEXT, label);
    if (lw > b->right - b->left) {
        snprintf(label, sizeof label, "%s FLOP/byte", ai_text);
        lw = rc_fonts_width(rc_canvas_fonts(c), RC_FONT_REGULAR, SIZE_TEXT, label);
    }
    double lx = fmin(fmax(px, b->left + lw / 2), b->right - lw / 2);
    it = rc_canvas_add_text(c, RC_ROLE_INTENSITY, lx, b->top - 8, label, RC_FONT_REGULAR, SIZE_TEXT,
                  RC_ANCHOR_MIDDLE, ink);
    if (it)
        it->data[0] = p->ai;
}

/* The roofs: memory slope up to the ridge point, then the FP32 ceiling,
 * clipped to the plot; then the ridge points over them. */
static void draw_roofs(const roofline_plot *p)
{
    rc_chart *c = p->c;
    const axis *ax = &p->ax, *ay = &p->ay;
    const roof *r = p->r;
    size_t n = p->n;
    for (size_t i = 0; i < n; i++) {
        const roof *q = &r[i];
        if (q->series < 0)
            continue;
        double x0 = fmax(ax->lo, ay->lo / q->bandwidth);
        double pts[6] = {to_page(ax, x0), to_page(ay, q->bandwidth * x0),
                         to_page(ax, q->ridge), to_page(ay, q->peak),
                         to_page(ax, ax->hi), to_page(ay, q->peak)};
        double data[2] = {q->ridge, q->peak};
        add_series_path(c, RC_ROLE_ROOF, pts, 3, q->series, data);
    }
    for (size_t i = 0; i < n; i++) {
        const roof *q = &r[i];
        if (q->series < 0)
            continue;
        rc_canvas_item *it = rc_canvas_add(c, RC_ITEM_MARKER, RC_ROLE_RIDGE);
        if (it) {
            it->series = q->series;
            it->shape = RC_MARKER_CIRCLE;
            it->x = to_page(ax, q->ridge), it->y = to_page(ay, q->peak), it->size = 4.5;
            it->has_fill = true, it->fill = series_colour(q->series);
            it->stroke = ink, it->stroke_width = 0.6;
            it->data[0] = q->ridge, it->data[1] = q->peak;
        }
    }
}

/* The hierarchical roofline: the kernel's performance on the roof at
 * each memory level's intensity, small and joined, under its points. */
static void draw_level_points(const roofline_plot *p)
{
    rc_chart *c = p->c;
    const axis *ax = &p->ax, *ay = &p->ay;
    const roof *r = p->r;
    size_t n = p->n;
    for (size_t i = 0; p->has_point && i < n; i++) {
        const roof *q = &r[i];
        if (q->series < 0 || !(q->perf_roof > 0))
            continue;
        double y_level = to_page(ay, q->perf_roof), pts[6];
        int np = 0;
        for (int l = 0; l < 3; l++)
            if (q->level_ai[l] > 0) {
                pts[2 * np] = to_page(ax, q->level_ai[l]);
                pts[2 * np + 1] = y_level;
                np++;
            }
        if (np > 1) {
            rc_canvas_item *it = rc_canvas_add_path(c, RC_ROLE_POINT_LEVEL, pts, (size_t)np,
                                         series_colour(q->series), 0.6);
            if (it)
                it->series = q->series, it->data[1] = q->perf_roof;
        }
        for (int l = 0; l < 3; l++) {
            if (!(q->level_ai[l] > 0))
                continue;
            size_t before = rc_canvas_count(c);
            add_marker(c, RC_ROLE_POINT_LEVEL, q->series, to_page(ax, q->level_ai[l]), y_level, 4.5,
                       false);
            for (size_t k = before; k < rc_canvas_count(c); k++) {
                rc_canvas_item *m = rc_canvas_edit(c, k);
                m->data[0] = q->level_ai[l], m->data[1] = q->perf_roof;
            }
        }
    }
}

/* The kernel's points: per launch (hollow) under the roof points; or why
 * there is none. */
static void draw_kernel_points(const roofline_plot *p, const plot_box *b, bool side_by_side)
{
    rc_chart *c = p->c;
    const roof *r = p->r;
    size_t n = p->n;
    double ai = p->ai;
    if (!p->has_point) {
        const char *why = isfinite(ai) ? "No point: the kernel counts no FLOPs."
                                       : "No point: the kernel moves no bytes (unbounded intensity).";
        add_block(c, RC_ROLE_NOTE, (b->left + b->right) / 2, b->top + 20, why, RC_FONT_REGULAR,
                  SIZE_TEXT, SIZE_TEXT, b->right - b->left - 20, RC_ANCHOR_MIDDLE, ink);
        return;
    }
    double px = to_page(&p->ax, ai);
    for (size_t i = 0; i < n; i++) {
        const roof *q = &r[i];
        if (q->series < 0 || !(q->perf_launch > 0))
            continue;
        size_t before = rc_canvas_count(c);
        /* At the kernel's intensity, never beside it (a false x): GPUs whose points would
         * cover one another are told apart by their marker shapes. */
        (void)side_by_side;
        add_marker(c, RC_ROLE_POINT_LAUNCH, q->series, px, to_page(&p->ay, q->perf_launch), 8,
                   true);
        for (size_t k = before; k < rc_canvas_count(c); k++) {
            rc_canvas_item *m = rc_canvas_edit(c, k);
            m->data[0] = ai, m->data[1] = q->perf_launch;
        }
    }
    for (size_t i = 0; i < n; i++) {
        const roof *q = &r[i];
        if (q->series < 0 || !(q->perf_roof > 0))
            continue;
        rc_canvas_item *it = add_marker(c, RC_ROLE_POINT_ROOF, q->series, px,
                                       to_page(&p->ay, q->perf_roof), 8, false);
        if (it)
            it->data[0] = ai, it->data[1] = q->perf_roof;
    }
}

const rc_roofline_layout RC_ROOFLINE_BESIDE = {CHART_WIDTH, 0, false};

rc_chart *rc_chart_new_roofline(xmlNodePtr kernel, xmlNodePtr gpus, const rc_fonts *fonts)
{
    return rc_chart_new_roofline_laid_out(kernel, gpus, fonts, &RC_ROOFLINE_BESIDE);
}

/* What the roofline shows of a kernel, read from the tree. */
typedef struct {
    char *name, *flops, *bytes, *ai_text; /* as the tree prints them */
    double ai;                            /* FLOP/byte */
    bool has_point;                       /* ai is finite and positive */
    roof *r;                              /* a roof per estimate */
    legend_entry *le;                     /* a legend entry per estimate */
    size_t n;
    double xmin, xmax, ymin, ymax; /* what the axes must hold */
} roofline_data;

static void roofline_data_free(roofline_data *d)
{
    free(d->r);
    legend_free(d->le, d->n);
    free(d->name);
    free(d->flops);
    free(d->bytes);
    free(d->ai_text);
}

/* A roof's legend entry: the GPU's name, its figures, and (when the kernel
 * has a point) its performance on the roof and per launch. */
static bool roof_legend_entry(xmlNodePtr e, xmlNodePtr g, bool has_point, legend_entry *le)
{
    le->name = attr_str(e, "gpu-name");
    char *ridge = attr_str(figure(g, "ridge"), "value-text");
    char *peak = attr_str(figure(g, "peak-fp32"), "value-text");
    char *bw = attr_str(figure(g, "bandwidth"), "value-text");
    char *pr = attr_str(e, "perf-roof-text"), *pa = attr_str(e, "perf-attained-text");
    size_t dn = 64 + (ridge ? strlen(ridge) : 0) + (peak ? strlen(peak) : 0) +
                (bw ? strlen(bw) : 0) + (pr ? strlen(pr) : 0) + (pa ? strlen(pa) : 0);
    le->detail[0] = malloc(dn);
    le->detail[1] = malloc(dn);
    if (le->detail[0] && ridge && peak && bw)
        snprintf(le->detail[0], dn, "%s, %s; ridge %s", peak, bw, ridge);
    if (le->detail[1] && pr && pa) {
        if (has_point)
            snprintf(le->detail[1], dn, "roof %s; per launch %s", pr, pa);
        else
            le->detail[1][0] = '\0';
    }
    bool ok = le->name && le->detail[0] && le->detail[1] && ridge && peak && bw && pr && pa;
    free(ridge);
    free(peak);
    free(bw);
    free(pr);
    free(pa);
    return ok;
}

/* Estimate `e`, the i-th, as roof i of `d`, widening the ranges to hold
 * what is drawn of it. */
static bool read_roof(roofline_data *d, xmlNodePtr e, xmlNodePtr gpus, size_t i)
{
    xmlNodePtr g = NULL;
    roof *q = &d->r[i];
    q->series = gpu_index(gpus, e, &g);
    if (q->series < 0)
        q->series = (int)i;
    q->peak = attr_num(figure(g, "peak-fp32"), "value");
    q->bandwidth = attr_num(figure(g, "bandwidth"), "value");
    q->ridge = attr_num(figure(g, "ridge"), "value");
    q->perf_roof = attr_num(e, "perf-roof");
    q->perf_launch = attr_num(e, "perf-attained");
    static const char *const levels[] = {"intensity-l1", "intensity-l2", "intensity-dram"};
    for (int l = 0; l < 3; l++) {
        q->level_ai[l] = d->has_point && xmlHasProp(e, X(levels[l])) ? attr_num(e, levels[l]) : 0;
        if (q->level_ai[l] > 0 && isfinite(q->level_ai[l])) {
            d->xmin = fmin(d->xmin, q->level_ai[l]);
            d->xmax = fmax(d->xmax, q->level_ai[l]);
        } else
            q->level_ai[l] = 0;
    }
    if (!(q->peak > 0 && q->bandwidth > 0 && isfinite(q->ridge))) {
        q->series = -1; /* no figures: listed, not drawn */
    } else {
        d->xmin = fmin(d->xmin, q->ridge);
        d->xmax = fmax(d->xmax, q->ridge);
        d->ymax = fmax(d->ymax, q->peak);
        d->ymin = fmin(d->ymin, q->peak);
    }
    if (d->has_point && q->series >= 0) {
        if (q->perf_roof > 0)
            d->ymin = fmin(d->ymin, q->perf_roof);
        if (q->perf_launch > 0)
            d->ymin = fmin(d->ymin, q->perf_launch);
    }
    d->le[i].series = q->series >= 0 ? q->series : (int)i;
    return roof_legend_entry(e, g, d->has_point, &d->le[i]);
}

/* The roofline's data from `kernel`; false when out of memory or without
 * estimates (d->n == 0). Free with roofline_data_free either way. */
static bool read_roofline(roofline_data *d, xmlNodePtr kernel, xmlNodePtr gpus)
{
    memset(d, 0, sizeof *d);
    xmlNodePtr estimates = rc_results_child(kernel, "estimates");
    xmlNodePtr counts = rc_results_child(kernel, "counts");
    FOR_EACH(e, estimates, "estimate")
        d->n++;
    if (d->n == 0)
        return false;
    d->r = calloc(d->n, sizeof *d->r);
    d->le = calloc(d->n, sizeof *d->le);
    d->name = attr_str(kernel, "name");
    d->flops = attr_str(rc_results_child(counts, "flops"), "total-text");
    d->bytes = attr_str(rc_results_child(counts, "bytes"), "total-text");
    xmlNodePtr ai_node = rc_results_child(counts, "intensity");
    d->ai_text = attr_str(ai_node, "value-text");
    if (!d->r || !d->le || !d->name || !d->flops || !d->bytes || !d->ai_text)
        return false;
    d->ai = attr_num(ai_node, "value");
    d->has_point = isfinite(d->ai) && d->ai > 0;
    d->xmin = d->has_point ? d->ai : INFINITY, d->xmax = d->has_point ? d->ai : 0;
    d->ymin = INFINITY, d->ymax = 0;
    size_t i = 0;
    FOR_EACH(e, estimates, "estimate")
        if (!read_roof(d, e, gpus, i++))
            return false;
    return true;
}

/* The roofline's log axes over the data, with margins; an empty frame's
 * when there is nothing to draw. */
static void roofline_axes(const roofline_data *d, axis *ax, axis *ay)
{
    double xmin = d->xmin, xmax = d->xmax, ymin = d->ymin, ymax = d->ymax;
    if (!(xmax > 0)) { /* no usable GPU and no point: an empty frame */
        xmin = 0.1;
        xmax = 10;
    }
    if (!(ymax > 0)) {
        ymin = 1e9;
        ymax = 1e12;
    }
    *ax = (axis){0, 0, 0, 0, true}, *ay = (axis){0, 0, 0, 0, true};
    log_range(xmin, xmax, 2, &ax->lo, &ax->hi);
    log_range(ymin, ymax, 1.25, &ay->lo, &ay->hi);
}

/* The roofline's title and subtitle; returns the y below them. */
static double roofline_titles(rc_chart *c, const roofline_data *d)
{
    char subtitle[256];
    bool no_bytes = strcmp(d->bytes, "0") == 0, no_flops = strcmp(d->flops, "0") == 0;
    if (no_bytes) /* no ratio to give, as the reports say */
        snprintf(subtitle, sizeof subtitle, "%s FLOPs over 0 bytes: %s; one roof per GPU", d->flops,
                 no_flops ? "no intensity" : "unbounded intensity");
    else
        snprintf(subtitle, sizeof subtitle,
                 "%s FLOPs over %s bytes: %s FLOP/byte; one roof per GPU", d->flops, d->bytes,
                 d->ai_text);
    char *title = join3("Roofline of ", d->name, "");
    if (!title) {
        rc_canvas_fail(c);
        return MARGIN;
    }
    double y = add_titles(c, MARGIN, MARGIN, rc_canvas_width(c) - 2 * MARGIN, title, subtitle);
    free(title);
    return y;
}

#define ROOFLINE_LEGEND_W 244.0

/* Where the roofline's plot goes under the titles (which end at y): left
 * of its tick labels, as high as the layout or the legend beside it asks. */
static plot_box roofline_box(rc_chart *c, const roofline_data *d, const rc_roofline_layout *layout,
                             const axis *ay, double y)
{
    double width = rc_canvas_width(c);
    bool below = layout->legend_below;
    double plot_top = y + 26; /* room for the intensity label above the plot */
    double legend_x = width - MARGIN - ROOFLINE_LEGEND_W;
    double tick_w = log_labels_width(rc_canvas_fonts(c), ay->lo, ay->hi, true, "FLOP/s");
    double plot_left = MARGIN + SIZE_TEXT * 1.3 + 8 + tick_w + 6;
    double plot_right = below ? width - MARGIN - 8 : legend_x - 22;
    double legend_h = below ? 0
                            : rc_fonts_ascent(rc_canvas_fonts(c), RC_FONT_BOLD, SIZE_TEXT) + 8 +
                                  legend(c, 0, 0, ROOFLINE_LEGEND_W, d->le, d->n, true, true) + 70;
    double plot_h = layout->plot_height > 0 ? layout->plot_height : fmax(340, legend_h - 40);
    return (plot_box){plot_left, plot_top, plot_right, plot_top + plot_h};
}

/* The plot's white ground, both log axes with their grids and titles, and
 * the frame. */
static void roofline_frame(rc_chart *c, const plot_box *b, const axis *ax, const axis *ay)
{
    rc_canvas_add_rect(c, RC_ROLE_NONE, b->left, b->top, b->right - b->left, b->bottom - b->top, &white, NULL,
             0);
    log_axis(c, ax, true, b->bottom, b->top, b->bottom, false, NULL);
    log_axis(c, ay, false, b->left, b->left, b->right, true, "FLOP/s");
    plot_frame(c, b);
    axis_title_below(c, b->left, b->right, b->bottom, "Arithmetic intensity (FLOP/byte)");
    add_rotated(c, RC_ROLE_AXIS, MARGIN + rc_fonts_ascent(rc_canvas_fonts(c), RC_FONT_REGULAR, SIZE_TEXT),
                (b->top + b->bottom) / 2, "Attainable performance (FLOP/s)", RC_FONT_REGULAR,
                SIZE_TEXT);
}

/* The legend beside the plot with each GPU's figures, then the key to the
 * symbols. Returns the y below it. */
static double roofline_legend_beside(rc_chart *c, const roofline_data *d, double top)
{
    double x = rc_canvas_width(c) - MARGIN - ROOFLINE_LEGEND_W, w = ROOFLINE_LEGEND_W;
    double y = legend_beside(c, x, top, w, "GPUs: FP32 peak, bandwidth", d->le, d->n, true);
    if (!d->has_point)
        return y;
    y += 4;
    rc_canvas_add_line(c, RC_ROLE_LEGEND, x, y, x + w, y, grid_major, 0.6);
    y += 6;
    bool levels = false;
    for (size_t i = 0; i < d->n; i++)
        levels = levels || d->r[i].level_ai[0] > 0 || d->r[i].level_ai[1] > 0 || d->r[i].level_ai[2] > 0;
    for (int k = 0; k < (levels ? 4 : 3); k++) {
        symbol_key(c, k, x, y, k < 3 ? ROOFLINE_KEYS[k] : "small: at L1, L2, DRAM intensity");
        y += 13;
    }
    return y;
}

/* For a narrow page: the GPUs' names in columns under the plot, then the
 * keys in a row. Returns the y below them. */
static double roofline_legend_below(rc_chart *c, const roofline_data *d, double y)
{
    double w = rc_canvas_width(c) - 2 * MARGIN;
    y = legend_columns(c, MARGIN, y + 8, w, d->le, d->n);
    bool levels = false;
    for (size_t i = 0; i < d->n; i++)
        levels = levels || d->r[i].level_ai[0] > 0 || d->r[i].level_ai[1] > 0 || d->r[i].level_ai[2] > 0;
    if (d->has_point)
        y = symbol_keys_row(c, MARGIN, y + 4, w, levels);
    return y;
}

rc_chart *rc_chart_new_roofline_laid_out(xmlNodePtr kernel, xmlNodePtr gpus, const rc_fonts *fonts,
                                         const rc_roofline_layout *layout)
{
    roofline_data d;
    rc_chart *c = NULL, *done = NULL;
    if (!read_roofline(&d, kernel, gpus) || !(c = chart_new(fonts, layout->width)))
        goto end;
    axis ax, ay;
    roofline_axes(&d, &ax, &ay);
    plot_box box = roofline_box(c, &d, layout, &ay, roofline_titles(c, &d));
    ax.p0 = box.left, ax.p1 = box.right;
    ay.p0 = box.bottom, ay.p1 = box.top;
    roofline_frame(c, &box, &ax, &ay);

    roofline_plot rp = {c, d.r, d.n, ax, ay, d.ai, d.has_point};
    if (d.has_point)
        draw_intensity(&rp, &box, d.name, d.ai_text);
    draw_roofs(&rp);
    draw_level_points(&rp);
    draw_kernel_points(&rp, &box, layout->legend_below);

    double axis_bottom = below_axis_title(box.bottom);
    double bottom = layout->legend_below ? roofline_legend_below(c, &d, axis_bottom)
                                         : fmax(axis_bottom, roofline_legend_beside(c, &d, box.top));
    done = chart_finish(c, bottom + MARGIN);
    c = NULL;
end:
    roofline_data_free(&d);
    rc_chart_free(c);
    return done;
}

/* ---- the time chart ------------------------------------------------------ */

/* A linear axis from 0 with a 1-2-5 step: sets *step, returns the top. */
static double nice_top(double v, double *step)
{
    if (!(v > 0)) {
        *step = 1;
        return 1;
    }
    double raw = v / 5, e = pow(10, floor(log10(raw)));
    double m = raw / e;
    double s = (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * e;
    *step = s;
    return ceil(v / s - 1e-9) * s;
}

static char *tick_text(double v, double step, char *buf, size_t size)
{
    int decimals = step >= 1 ? 0 : (int)ceil(-log10(step) - 1e-9);
    if (decimals == 0 && fabs(v) < 1e15) /* "10,000", as the bars' own labels group digits */
        rc_format_int((int64_t)llround(v), buf, size);
    else
        snprintf(buf, size, "%.*f", decimals, v);
    return buf;
}

/* The grid of a linear axis from 0 over rows from `top` to `bottom`: a
 * line each `step` (the zero line as dark as the frame), its tick and
 * label under `bottom`; then the axis line. */
static void linear_grid(rc_chart *c, const axis *a, double step, double top, double bottom)
{
    for (double t = 0; t <= a->hi + step / 2; t += step) {
        double p = to_page(a, t);
        rc_canvas_add_line(c, RC_ROLE_GRID, p, top, p, bottom, t == 0 ? frame : grid_major, t == 0 ? 0.8 : 0.6);
        rc_canvas_add_line(c, RC_ROLE_AXIS, p, bottom, p, bottom + 4, frame, 0.8);
        char buf[32];
        tick_label_below(c, p, bottom, tick_text(t, step, buf, sizeof buf));
    }
    rc_canvas_add_line(c, RC_ROLE_AXIS, a->p0, bottom, a->p1, bottom, frame, 0.8);
}

/* A GPU's row of the time chart. */
typedef struct {
    int series;
    char *name;   /* the GPU's */
    char *note;   /* beside the bar: t_total, the bound, the launch's share */
    bool fastest; /* the note is bold */
    double body, launch, refined, total; /* s; refined is NaN when absent */
    double lower;                        /* s, t_lower; NaN when absent */
    double mid;                          /* the row's middle, in points */
} time_row;

/* The note beside a bar, as the tree prints its numbers; NULL when out
 * of memory. */
/* The note beside a refined row: "1,020 µs, memory latency: 160 threads at work, fastest;
 * t_total 41.8 µs". */
static char *refined_note(xmlNodePtr e)
{
    char *est = attr_str(e, "t-estimate-text"), *words = attr_str(e, "limiter-words");
    char *t = attr_str(e, "t-total-text");
    size_t len = 64 + (est ? strlen(est) : 0) + (words ? strlen(words) : 0) + (t ? strlen(t) : 0);
    char *note = est && t ? malloc(len) : NULL;
    if (note)
        snprintf(note, len, "%s µs%s%s%s; t_total %s µs", est, words ? ", " : "",
                 words ? words : "", attr_is(e, "fastest", "yes") ? ", fastest" : "", t);
    free(est);
    free(words);
    free(t);
    return note;
}

static char *time_note(xmlNodePtr e)
{
    if (xmlHasProp(e, (const xmlChar *)"t-estimate"))
        return refined_note(e);
    char *t = attr_str(e, "t-total-text"), *bound = attr_str(e, "bound");
    char *share = attr_str(e, "launch-percent-text");
    size_t len = 128 + (t ? strlen(t) : 0) + (bound ? strlen(bound) : 0) +
                 (share ? strlen(share) : 0);
    char *note = t && bound && share ? malloc(len) : NULL;
    if (note) {
        bool no_work = strcmp(bound, "none") == 0;
        snprintf(note, len, "%s µs, %s%s, launch %s %%%s", t, no_work ? "no work" : bound,
                 no_work ? "" : " bound", share, attr_is(e, "fastest", "yes") ? ", fastest" : "");
    }
    free(t);
    free(bound);
    free(share);
    return note;
}

/* The widths the names and notes need, and the longest time. */
typedef struct {
    double name_w, note_w, tmax;
} time_extent;

/* The rows from the estimates; false when out of memory. */
static bool read_time_rows(xmlNodePtr estimates, xmlNodePtr gpus, const rc_fonts *fonts,
                           time_row *rows, time_extent *x)
{
    *x = (time_extent){0, 0, 0};
    size_t i = 0;
    FOR_EACH(e, estimates, "estimate") {
        time_row *row = &rows[i];
        row->series = gpu_index(gpus, e, NULL);
        if (row->series < 0)
            row->series = (int)i;
        row->name = attr_str(e, "gpu-name");
        row->note = time_note(e);
        if (!row->name || !row->note)
            return false;
        row->fastest = attr_is(e, "fastest", "yes");
        row->body = attr_num(e, "t-body"), row->launch = attr_num(e, "t-launch");
        row->refined = attr_num(e, "t-estimate"), row->total = attr_num(e, "t-total");
        row->lower = attr_num(e, "t-lower");
        rc_font_role role = row->fastest ? RC_FONT_BOLD : RC_FONT_REGULAR;
        x->note_w = fmax(x->note_w, rc_fonts_width(fonts, role, SIZE_TEXT, row->note));
        x->name_w = fmax(x->name_w, rc_fonts_width(fonts, RC_FONT_REGULAR, SIZE_TEXT, row->name));
        x->tmax = fmax(x->tmax, fmax(row->total, row->refined > 0 ? row->refined : 0));
        i++;
    }
    x->name_w = fmin(x->name_w, 170);
    x->note_w = fmin(x->note_w, 280);
    return true;
}

static void time_rows_free(time_row *rows, size_t n)
{
    for (size_t i = 0; rows && i < n; i++) {
        free(rows[i].name);
        free(rows[i].note);
    }
    free(rows);
}

/* The key to a refined chart's bar and points in a line from y; returns the y below it. */
static double refined_keys(rc_chart *c, double y)
{
    double kx = MARGIN, kb = y + rc_fonts_ascent(rc_canvas_fonts(c), RC_FONT_REGULAR, SIZE_TEXT);
    static const char *const keys[] = {"bar: t_estimate, the refined estimate",
                                       "t_lower: no run is faster", "t_total: the peak roofline"};
    for (int k = 0; k < 3; k++) {
        rc_canvas_item *it;
        if (k == 0)
            rc_canvas_add_rect(c, RC_ROLE_LEGEND, kx, kb - 8, 14, 9, &body_colour, &white, 0.5);
        else if ((it = rc_canvas_add(c, RC_ITEM_MARKER, RC_ROLE_LEGEND))) {
            it->shape = k == 1 ? RC_MARKER_DIAMOND : RC_MARKER_CIRCLE;
            it->x = kx + 7, it->y = kb - 3.5, it->size = 8;
            it->has_fill = k == 1, it->fill = ink, it->stroke = ink, it->stroke_width = 1.4;
        }
        it = rc_canvas_add_text(c, RC_ROLE_LEGEND, kx + 19, kb, keys[k], RC_FONT_REGULAR, SIZE_TEXT,
                      RC_ANCHOR_START, ink);
        kx += 19 + (it ? it->width : 0) + 18;
    }
    return kb + 12;
}

/* A refined row: the bar from 0 to t_estimate, t_lower (a filled diamond) and t_total (a
 * hollow circle) marked on the row, and the note after the farthest of them. */
static void refined_bar(rc_chart *c, const axis *ax, const time_row *row)
{
    double cy = row->mid, x0 = to_page(ax, 0), x1 = to_page(ax, row->refined * 1e6);
    rc_canvas_item *it = rc_canvas_add_rect(c, RC_ROLE_BAR_ESTIMATE, x0, cy - 6, x1 - x0, 12, &body_colour,
                                 NULL, 0);
    if (it)
        it->series = row->series, it->data[0] = row->refined;
    double marks[2] = {row->lower, row->total}, right = x1;
    for (int k = 0; k < 2; k++) {
        if (!(marks[k] >= 0))
            continue;
        double x = to_page(ax, marks[k] * 1e6);
        it = rc_canvas_add(c, RC_ITEM_MARKER, k == 0 ? RC_ROLE_POINT_LOWER : RC_ROLE_POINT_TOTAL);
        if (it) {
            it->shape = k == 0 ? RC_MARKER_DIAMOND : RC_MARKER_CIRCLE;
            it->x = x, it->y = cy, it->size = 8, it->series = row->series;
            it->has_fill = k == 0, it->fill = ink, it->stroke = ink, it->stroke_width = 1.4;
            it->data[0] = marks[k];
        }
        right = fmax(right, x + 4);
    }
    rc_font_role role = row->fastest ? RC_FONT_BOLD : RC_FONT_REGULAR;
    double nx = right + 6, room = rc_canvas_width(c) - MARGIN - nx;
    if (rc_fonts_width(rc_canvas_fonts(c), role, SIZE_TEXT, row->note) <= room) {
        it = rc_canvas_add_text(c, RC_ROLE_BAR_LABEL, nx, cy + 3, row->note, role, SIZE_TEXT, RC_ANCHOR_START, ink);
        if (it)
            it->series = row->series, it->data[0] = row->refined;
    } else {
        add_block(c, RC_ROLE_BAR_LABEL, nx, cy - 1, row->note, role, SIZE_TEXT, SIZE_SMALL, room,
                  RC_ANCHOR_START, ink);
    }
}

/* The key to the bar's parts in a line from y; returns the y below it. */
static double time_keys(rc_chart *c, double y)
{
    double kx = MARGIN, kb = y + rc_fonts_ascent(rc_canvas_fonts(c), RC_FONT_REGULAR, SIZE_TEXT);
    static const char *const keys[] = {"body: t_body", "launch latency: t_launch",
                                       "refined estimate: t_estimate"};
    const rc_rgb *key_colours[] = {&body_colour, &launch_colour, &estimate_colour};
    for (int k = 0; k < 3; k++) {
        rc_canvas_add_rect(c, RC_ROLE_LEGEND, kx, k == 2 ? kb - 5 : kb - 8, 14, k == 2 ? 3 : 9, key_colours[k],
                 &white, 0.5);
        rc_canvas_item *it = rc_canvas_add_text(c, RC_ROLE_LEGEND, kx + 19, kb, keys[k], RC_FONT_REGULAR,
                                     SIZE_TEXT, RC_ANCHOR_START, ink);
        kx += 19 + (it ? it->width : 0) + 18;
    }
    return kb + 12;
}

/* A row's bar: t_body then t_launch, the refined estimate under them, and
 * the note after them (wrapped when it would pass the chart's edge). */
static void time_bar(rc_chart *c, const axis *ax, const time_row *row)
{
    double cy = row->mid, body = row->body, launch = row->launch;
    double x0 = to_page(ax, 0), x1 = to_page(ax, body * 1e6), x2 = to_page(ax, (body + launch) * 1e6);
    rc_canvas_item *it = rc_canvas_add_rect(c, RC_ROLE_BAR_BODY, x0, cy - 6, x1 - x0, 12, &body_colour, NULL, 0);
    if (it)
        it->series = row->series, it->data[0] = body;
    it = rc_canvas_add_rect(c, RC_ROLE_BAR_LAUNCH, x1, cy - 6, x2 - x1, 12, &launch_colour, NULL, 0);
    if (it)
        it->series = row->series, it->data[0] = launch;
    rc_canvas_add_line(c, RC_ROLE_NONE, x1, cy - 6, x1, cy + 6, white, 0.8);
    if (row->refined > 0) {
        double x3 = to_page(ax, row->refined * 1e6);
        it = rc_canvas_add_rect(c, RC_ROLE_BAR_ESTIMATE, x0, cy + 7, x3 - x0, 3, &estimate_colour, NULL, 0);
        if (it)
            it->series = row->series, it->data[0] = row->refined;
    }
    rc_font_role role = row->fastest ? RC_FONT_BOLD : RC_FONT_REGULAR;
    double nx = x2 + 6, room = rc_canvas_width(c) - MARGIN - nx;
    if (rc_fonts_width(rc_canvas_fonts(c), role, SIZE_TEXT, row->note) <= room) {
        it = rc_canvas_add_text(c, RC_ROLE_BAR_LABEL, nx, cy + 3, row->note, role, SIZE_TEXT, RC_ANCHOR_START, ink);
        if (it)
            it->series = row->series, it->data[0] = body + launch;
    } else {
        add_block(c, RC_ROLE_BAR_LABEL, nx, cy - 1, row->note, role, SIZE_TEXT, SIZE_SMALL, room,
                  RC_ANCHOR_START, ink);
    }
}

rc_chart *rc_chart_new_time(xmlNodePtr kernel, xmlNodePtr gpus, const rc_fonts *fonts)
{
    xmlNodePtr estimates = rc_results_child(kernel, "estimates");
    size_t n = 0;
    FOR_EACH(e, estimates, "estimate")
        n++;
    if (n == 0)
        return NULL;
    rc_chart *c = chart_new(fonts, CHART_WIDTH), *done = NULL;
    char *name = attr_str(kernel, "name");
    char *title = name ? join3("Time per launch of ", name, "") : NULL;
    time_row *rows = calloc(n, sizeof *rows);
    time_extent ext;
    if (!c || !title || !rows || !read_time_rows(estimates, gpus, fonts, rows, &ext))
        goto end;
    bool refined = true;
    for (size_t i = 0; i < n; i++)
        refined = refined && rows[i].refined > 0;
    double y = add_titles(c, MARGIN, MARGIN, CHART_WIDTH - 2 * MARGIN, title,
                          refined ? "t_estimate on each GPU, the time to plan with, as the bar; "
                                    "t_lower and t_total marked; the fastest (within 10 %) in bold"
                                  : "t_total = t_body + t_launch on each GPU, where t_body = "
                                    "max(t_compute, t_mem)");
    y = refined ? refined_keys(c, y + 10) : time_keys(c, y + 10);

    double label_x = MARGIN + 14, step;
    double top = nice_top(ext.tmax * 1e6, &step);
    axis ax = {0, top, label_x + ext.name_w + 12, CHART_WIDTH - MARGIN - ext.note_w - 10, false};
    double bottom = y; /* rows as high as their wrapped names */
    for (size_t i = 0; i < n; i++) {
        double h = row_height(c, rows[i].name, ext.name_w);
        rows[i].mid = bottom + h / 2;
        bottom += h;
    }
    linear_grid(c, &ax, step, y, bottom);
    for (size_t i = 0; i < n; i++) {
        add_marker(c, RC_ROLE_LABEL, rows[i].series, MARGIN + 5, rows[i].mid, 7, false);
        row_label(c, label_x, rows[i].mid, SIZE_TEXT * 0.35, rows[i].name, RC_FONT_REGULAR,
                  RC_ANCHOR_START, ext.name_w, rows[i].series, -1);
        if (refined)
            refined_bar(c, &ax, &rows[i]);
        else
            time_bar(c, &ax, &rows[i]);
    }
    axis_title_below(c, ax.p0, ax.p1, bottom, "Time per launch (µs)");
    done = chart_finish(c, below_axis_title(bottom) + MARGIN);
    c = NULL;
end:
    if (c)
        rc_canvas_fail(c);
    time_rows_free(rows, n);
    free(title);
    free(name);
    rc_chart_free(c);
    return done;
}

/* ---- the overview ---------------------------------------------------------- */

/* The most kernels the overview chart shows. */
#define OVERVIEW_MAX 20

typedef struct {
    xmlNodePtr node;
    double slowest; /* its longest t_total, s */
    size_t order;   /* its place in the tree */
} overview_kernel;

/* The time the overview shows of an estimate: t_estimate, the refined estimate to plan with,
 * where there is one (the fastest are marked by it), else t_total; seconds. */
static double overview_time(xmlNodePtr e)
{
    return xmlHasProp(e, (const xmlChar *)"t-estimate") ? attr_num(e, "t-estimate")
                                                       : attr_num(e, "t-total");
}

/* Whether the overview shows t_estimate: the first estimate of kernel k has one (every
 * estimate has one or none, as the tree is made). */
static bool overview_refined(xmlNodePtr k)
{
    FOR_EACH(e, rc_results_child(k, "estimates"), "estimate")
        return xmlHasProp(e, (const xmlChar *)"t-estimate") != NULL;
    return false;
}

static int slower_first(const void *a, const void *b)
{
    const overview_kernel *x = a, *y = b;
    if (x->slowest != y->slowest)
        return x->slowest > y->slowest ? -1 : 1;
    return x->order < y->order ? -1 : 1;
}

static int in_order(const void *a, const void *b)
{
    const overview_kernel *x = a, *y = b;
    return x->order < y->order ? -1 : x->order > y->order;
}

/* The kernels the overview shows, in the tree's order, into `shown`
 * (room for every kernel): all of them, or past OVERVIEW_MAX the slowest,
 * since a chart of a thousand bands helps nobody (and would pass Cairo's
 * largest image). Returns how many. */
static size_t overview_pick(xmlNodePtr kernels, overview_kernel *shown)
{
    size_t nk = 0;
    FOR_EACH(k, kernels, "kernel") {
        double slowest = 0;
        FOR_EACH(e, rc_results_child(k, "estimates"), "estimate")
            slowest = fmax(slowest, overview_time(e));
        shown[nk] = (overview_kernel){k, slowest, nk};
        nk++;
    }
    if (nk > OVERVIEW_MAX) {
        qsort(shown, nk, sizeof *shown, slower_first);
        nk = OVERVIEW_MAX;
        qsort(shown, nk, sizeof *shown, in_order);
    }
    return nk;
}

/* The log axis over every shown t_total, in µs, and how wide the kernels'
 * names may be. */
static void overview_range(const overview_kernel *shown, size_t nk, const rc_fonts *fonts, axis *ax,
                           double *name_w)
{
    double tmin = INFINITY, tmax = 0, w = 0;
    for (size_t s = 0; s < nk; s++) {
        xmlNodePtr k = shown[s].node;
        char *kname = attr_str(k, "name");
        if (kname)
            w = fmax(w, rc_fonts_width(fonts, RC_FONT_BOLD, SIZE_TEXT, kname));
        free(kname);
        FOR_EACH(e, rc_results_child(k, "estimates"), "estimate") {
            double t = overview_time(e) * 1e6;
            if (t > 0 && isfinite(t)) {
                tmin = fmin(tmin, t);
                tmax = fmax(tmax, t);
            }
        }
    }
    if (!(tmax > 0))
        tmin = 1, tmax = 10;
    *ax = (axis){0, 0, 0, 0, true};
    log_range(tmin, tmax, 1.25, &ax->lo, &ax->hi);
    *name_w = fmin(fmax(w, 60), 150);
}

/* The overview's title and subtitle, which name the part of the chart
 * (kernels from..to of nk) when it is one; returns the y below them. */
static double overview_titles(rc_chart *c, size_t nk, size_t total, size_t ng, size_t from,
                              size_t to, bool refined)
{
    char subtitle[320], part[96] = "";
    const char *ringed = ng < 2 ? "" : refined ? "; the fastest of each kernel (within 10 %) ringed"
                                               : "; the fastest GPU of each kernel ringed";
    const char *t = refined ? "t_estimate" : "t_total";
    if (to - from < nk)
        snprintf(part, sizeof part, "; here kernels %zu to %zu of %zu", from + 1, to, nk);
    if (nk < total)
        snprintf(subtitle, sizeof subtitle,
                 "%s per launch of the %zu slowest of %zu kernels (the table lists all); "
                 "a row per GPU%s%s", t, nk, total, ringed, part);
    else
        snprintf(subtitle, sizeof subtitle,
                 "%s per launch; a band per kernel, a row per GPU in it%s%s", t, ringed, part);
    return add_titles(c, MARGIN, MARGIN, rc_canvas_width(c) - 2 * MARGIN,
                      nk < total ? "The slowest kernels on every GPU: predicted time per launch"
                                 : "Every kernel on every GPU: predicted time per launch",
                      subtitle);
}

/* The GPUs' names as legend entries, in <gpus> order; NULL when out of
 * memory. Free with legend_free. */
static legend_entry *gpu_names(xmlNodePtr gpus, size_t ng)
{
    legend_entry *le = calloc(ng ? ng : 1, sizeof *le);
    size_t i = 0;
    FOR_EACH(g, gpus, "gpu") {
        if (!le)
            break;
        le[i].series = (int)i;
        le[i].name = attr_str(g, "name");
        if (!le[i].name) {
            legend_free(le, ng);
            return NULL;
        }
        i++;
    }
    return le;
}

/* A band's rows, each estimate's t_total as its GPU's symbol on its row
 * (row `series` of the band from `top`), the fastest ringed. */
#define OVERVIEW_ROW 9.0 /* a GPU's row in a band */
#define OVERVIEW_PAD 6.0 /* above the first row and below the last */

static void overview_points(rc_chart *c, xmlNodePtr k, xmlNodePtr gpus, const axis *ax,
                            const plot_box *b, double top, int group)
{
    size_t e_i = 0;
    FOR_EACH(e, rc_results_child(k, "estimates"), "estimate") {
        int series = gpu_index(gpus, e, NULL);
        if (series < 0)
            series = (int)e_i;
        double cy = top + OVERVIEW_PAD + OVERVIEW_ROW * ((double)series + 0.5);
        double t = overview_time(e) * 1e6;
        rc_canvas_add_line(c, RC_ROLE_GRID, b->left, cy, b->right, cy, grid_major, 0.4);
        if (t > 0 && isfinite(t)) {
            double px = to_page(ax, t);
            if (attr_is(e, "fastest", "yes")) {
                rc_canvas_item *ring = rc_canvas_add(c, RC_ITEM_MARKER, RC_ROLE_POINT_TIME);
                if (ring) {
                    ring->shape = RC_MARKER_CIRCLE;
                    ring->x = px, ring->y = cy, ring->size = 13;
                    ring->stroke = ink, ring->stroke_width = 1.2;
                    ring->series = series, ring->group = group;
                    ring->data[0] = t / 1e6;
                }
            }
            rc_canvas_item *it = add_marker(c, RC_ROLE_POINT_TIME, series, px, cy, 7, false);
            if (it)
                it->group = group, it->data[0] = t / 1e6;
        }
        e_i++;
    }
}

rc_chart *rc_chart_new_overview(xmlNodePtr results, const rc_fonts *fonts)
{
    return rc_chart_new_overview_sized(results, fonts, CHART_WIDTH);
}

rc_chart *rc_chart_new_overview_sized(xmlNodePtr results, const rc_fonts *fonts, double width)
{
    return rc_chart_new_overview_part(results, fonts, width, 0, 0);
}

size_t rc_chart_overview_kernels(xmlNodePtr results)
{
    size_t n = 0;
    FOR_EACH(k, rc_results_child(results, "kernels"), "kernel")
        n++;
    return n < OVERVIEW_MAX ? n : OVERVIEW_MAX;
}

/* What every part of the overview shares, read from the tree once
 * (rc_chart_overview_new): reading every kernel's estimates to pick the
 * slowest was most of a part's cost, and summary.pdf makes some ten parts
 * a page while fitting them. */
struct rc_chart_overview {
    xmlNodePtr gpus;
    size_t ng, total, nk;
    legend_entry *le;
    overview_kernel *shown;
    axis ax; /* over every kernel shown, so that the parts compare */
    double name_w;
};

rc_chart_overview *rc_chart_overview_new(xmlNodePtr results, const rc_fonts *fonts)
{
    rc_chart_overview *o = calloc(1, sizeof *o);
    if (!o)
        return NULL;
    o->gpus = rc_results_child(results, "gpus");
    xmlNodePtr kernels = rc_results_child(results, "kernels");
    FOR_EACH(g, o->gpus, "gpu")
        o->ng++;
    FOR_EACH(k, kernels, "kernel")
        o->total++;
    o->le = gpu_names(o->gpus, o->ng);
    o->shown = calloc(o->total ? o->total : 1, sizeof *o->shown);
    if (!o->le || !o->shown) {
        rc_chart_overview_free(o);
        return NULL;
    }
    o->nk = overview_pick(kernels, o->shown);
    overview_range(o->shown, o->nk, fonts, &o->ax, &o->name_w);
    return o;
}

void rc_chart_overview_free(rc_chart_overview *o)
{
    if (!o)
        return;
    legend_free(o->le, o->ng);
    free(o->shown);
    free(o);
}

rc_chart *rc_chart_new_overview_part(xmlNodePtr results, const rc_fonts *fonts, double width,
                                     size_t first, size_t count)
{
    rc_chart_overview *o = rc_chart_overview_new(results, fonts);
    rc_chart *c = o ? rc_chart_new_overview_of(o, fonts, width, first, count) : NULL;
    rc_chart_overview_free(o);
    return c;
}

rc_chart *rc_chart_new_overview_of(const rc_chart_overview *o, const rc_fonts *fonts,
                                   double width, size_t first, size_t count)
{
    size_t ng = o->ng, nk = o->nk;
    rc_chart *c = chart_new(fonts, width);
    if (!c)
        return NULL;
    axis ax = o->ax;
    double name_w = o->name_w;
    size_t from = first < nk ? first : nk;
    size_t to = count && count < nk - from ? from + count : nk;
    bool refined = nk > 0 && overview_refined(o->shown[0].node);
    double y = overview_titles(c, nk, o->total, ng, from, to, refined);
    const double legend_w = 190;
    double legend_x = width - MARGIN - legend_w;
    double band_h = fmax(24, (double)ng * OVERVIEW_ROW + 2 * OVERVIEW_PAD);
    plot_box b = {MARGIN + name_w + 10, y + 14, legend_x - 20, 0};
    b.bottom = b.top + (to > from ? (double)(to - from) * band_h : 40);
    ax.p0 = b.left, ax.p1 = b.right;

    shade_bands(c, &b, band_h, to - from); /* then the decade grid over them */
    log_axis(c, &ax, true, b.bottom, b.top, b.bottom, false, NULL);
    plot_frame(c, &b);
    if (nk == 0)
        rc_canvas_add_text(c, RC_ROLE_NOTE, (b.left + b.right) / 2, b.top + 24, "No kernel was estimated.",
                 RC_FONT_REGULAR, SIZE_TEXT, RC_ANCHOR_MIDDLE, ink);
    for (size_t s = from; s < to && !rc_canvas_failed(c); s++) {
        double top = b.top + (double)(s - from) * band_h;
        char *kname = attr_str(o->shown[s].node, "name");
        if (!kname)
            rc_canvas_fail(c);
        else
            row_label(c, b.left - 8, top + band_h / 2, 3, kname, RC_FONT_BOLD, RC_ANCHOR_END, name_w,
                      -1, (int)s);
        free(kname);
        if (!rc_canvas_failed(c))
            overview_points(c, o->shown[s].node, o->gpus, &ax, &b, top, (int)s);
    }
    axis_title_below(c, b.left, b.right, b.bottom,
                     refined ? "t_estimate per launch (µs, logarithmic)"
                             : "t_total per launch (µs, logarithmic)");
    double ly = legend_beside(c, legend_x, b.top, legend_w, "GPUs", o->le, ng, false);
    return chart_finish(c, fmax(below_axis_title(b.bottom), ly) + MARGIN);
}
