/* chart_style.c: the look of a GPU's series (colour, marker, dash) and the
 * chart's canvas. See chart.h and chart_impl.h. */
#include "render/chart_impl.h"

#include <math.h>
#include <string.h>

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

/* A GPU's look: colour from the palette; past the palette's length a dash
 * pattern tells lines apart, and the marker shape shifts by one, so no two
 * of the first 64 GPUs share colour and shape. */
rc_rgb chart_series_colour(int i) { return palette[(size_t)i % NPALETTE]; }

static rc_marker_shape chart_series_shape(int i)
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
static bool chart_is_light(rc_rgb c) { return 0.2126 * c.r + 0.7152 * c.g + 0.0722 * c.b > 0.75; }

/* ---- items ------------------------------------------------------------ */

/* A GPU's marker: filled with its colour, or hollow (white inside, a
 * thicker outline in its colour) for the per-launch points. */
rc_canvas_item *chart_add_marker(rc_chart *c, rc_item_role role, int series, double x, double y,
                                 double size, bool hollow)
{
    rc_rgb colour = chart_series_colour(series);
    if (hollow && chart_is_light(colour)) {
        rc_canvas_item *k = rc_canvas_add(c, RC_ITEM_MARKER, role);
        if (k) {
            k->series = series;
            k->shape = chart_series_shape(series);
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
    it->shape = chart_series_shape(series);
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

rc_chart *chart_new(const rc_fonts *fonts, double width)
{
    return rc_canvas_new(fonts, width, white);
}

rc_chart *chart_finish(rc_chart *c, double height) { return rc_canvas_finish(c, ceil(height)); }

/* A GPU's line (a roof, or its sample in a legend) through n points: its
 * colour and dash, on a grey casing when the colour is light. Both strokes
 * carry `data` (2 numbers, or NULL). */
void chart_add_series_path(rc_chart *c, rc_item_role role, const double *pts, size_t n, int series,
                           const double *data)
{
    rc_rgb col = chart_series_colour(series);
    for (int pass = chart_is_light(col) ? 0 : 1; pass < 2; pass++) {
        rc_canvas_item *it =
            rc_canvas_add_path(c, role, pts, n, pass ? col : casing, pass ? 1.6 : 3.0);
        if (!it)
            continue;
        it->series = series;
        it->ndash = series_dash(series, it->dash);
        if (data)
            it->data[0] = data[0], it->data[1] = data[1];
    }
}
