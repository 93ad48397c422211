/* chart.h: the charts, built from the results tree onto a canvas
 * (paint/canvas.h), apart from any drawing library.
 *
 * The builders read the results tree only (results.h): every number comes
 * from an attribute of the tree and every number printed in the chart is
 * the tree's own `-text` form, so a chart cannot disagree with the reports.
 * Layout (wrapping long names, sizing the legend) is done here with the
 * widths of font.h, so painters (paint/painter.h) do no layout: they draw
 * the canvas's items in order by its painting rules.
 */
#ifndef ROOFCAST_CHART_H
#define ROOFCAST_CHART_H

#include <stdbool.h>
#include <stddef.h>

#include <libxml/tree.h>

#include "paint/canvas.h"

/* A chart is a canvas that one of the builders below filled. */
typedef rc_canvas rc_chart;

/* ---- builders: results tree -> description -------------------------- */

/* The roofline chart of `kernel` (a <kernel> of the results tree) on every
 * GPU of its <estimates>: log-log axes (arithmetic intensity in FLOP/byte,
 * attainable performance in FLOP/s), one roof per GPU of `gpus` (the tree's
 * <gpus>: memory slope and FP32 ceiling, ridge point marked), the kernel's
 * point on every roof (perf-roof, FLOPs / t_body) and per launch
 * (perf-attained, FLOPs / t_total), the hierarchical roofline's points
 * (the same performance at each memory level's intensity: L1, L2, DRAM,
 * small, joined by a thin line), and a legend beside the plot. Text is
 * measured with `fonts`. Returns NULL if out of memory or the kernel has
 * no estimates. Free with rc_chart_free. */
rc_chart *rc_chart_new_roofline(xmlNodePtr kernel, xmlNodePtr gpus, const rc_fonts *fonts);

/* Where a roofline goes: `width` points wide; the plot `plot_height`
 * points high (0: as high as the legend beside it needs, at least 340);
 * the legend beside the plot with each GPU's figures (SVG, PNG:
 * RC_ROOFLINE_BESIDE), or, with `legend_below`, under it in columns with
 * the GPUs' names only and the per-launch points set side by side (a
 * narrow page, like the PDF's, whose time table has the figures). */
typedef struct {
    double width, plot_height;
    bool legend_below;
} rc_roofline_layout;

extern const rc_roofline_layout RC_ROOFLINE_BESIDE;

/* rc_chart_new_roofline laid out as `layout` says. */
rc_chart *rc_chart_new_roofline_laid_out(xmlNodePtr kernel, xmlNodePtr gpus, const rc_fonts *fonts,
                                         const rc_roofline_layout *layout);

/* The time chart of `kernel`: for each GPU a horizontal bar of t_total
 * stacked as t_body then t_launch on a linear axis in µs, with t_total and
 * the bounding resource beside it. `gpus` gives each GPU its symbol, as in
 * the roofline. Free with rc_chart_free. */
rc_chart *rc_chart_new_time(xmlNodePtr kernel, xmlNodePtr gpus, const rc_fonts *fonts);

/* The width of the narrow charts, in points, for a phone: at 390 CSS pixels a page's column is
 * some 366 pixels, 274 points, so a chart this wide shows its text at its own size. */
#define RC_CHART_NARROW_WIDTH 270.0

/* The roofline for a narrow screen: RC_CHART_NARROW_WIDTH wide, the GPUs' names in a column
 * under the plot and the keys under them (rc_chart_new_roofline_laid_out). */
extern const rc_roofline_layout RC_ROOFLINE_NARROW;

/* The time chart for a narrow screen: RC_CHART_NARROW_WIDTH wide, each GPU's name on a line
 * over its bar and the note under the bar, the key under the plot. NULL when out of memory or
 * the kernel has no estimates. Free with rc_chart_free. */
rc_chart *rc_chart_new_time_narrow(xmlNodePtr kernel, xmlNodePtr gpus, const rc_fonts *fonts);

/* The overview of every kernel on every GPU, from the tree's root
 * (<roofcast-results>): a band per kernel, a row per GPU in it, each GPU's
 * t_total as its symbol on a logarithmic axis in µs, the fastest ringed.
 * Free with rc_chart_free. */
rc_chart *rc_chart_new_overview(xmlNodePtr results, const rc_fonts *fonts);

/* How many kernels the overview shows (all, or the slowest 20). */
size_t rc_chart_overview_kernels(xmlNodePtr results);

/* A part of the overview, for pages: the bands of the `count` kernels
 * from `first` (0-based, among those the overview shows; count 0: to the
 * last), on the axis of the whole overview, the subtitle naming the part.
 * With first 0 and count 0 it is the whole overview `width` points wide
 * (rc_chart_new_overview's is 760).
 * Free with rc_chart_free. */
rc_chart *rc_chart_new_overview_part(xmlNodePtr results, const rc_fonts *fonts, double width,
                                     size_t first, size_t count);

/* What every part of one overview shares (the GPUs, the kernels shown,
 * the axis), read from the tree once for many parts: the tree (borrowed)
 * must outlive it. NULL when out of memory. Free with
 * rc_chart_overview_free. rc_chart_new_overview_of(o, ...) is
 * rc_chart_new_overview_part of o's tree. */
typedef struct rc_chart_overview rc_chart_overview;
rc_chart_overview *rc_chart_overview_new(xmlNodePtr results, const rc_fonts *fonts);
rc_chart *rc_chart_new_overview_of(const rc_chart_overview *o, const rc_fonts *fonts,
                                   double width, size_t first, size_t count);
void rc_chart_overview_free(rc_chart_overview *o);

/* The canvas's own functions under the chart's name, for the builders'
 * callers: a chart is freed with rc_chart_free, and its size in points is
 * rc_chart_width x rc_chart_height. */
static inline void rc_chart_free(rc_chart *chart) { rc_canvas_free(chart); }
static inline double rc_chart_width(const rc_chart *chart) { return rc_canvas_width(chart); }
static inline double rc_chart_height(const rc_chart *chart) { return rc_canvas_height(chart); }

#endif
