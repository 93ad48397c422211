/* outputs.c: writing what a renderer made, and charts described then
 * painted: the helpers that each kernel's files (kernel_files.c) and the
 * overviews (overviews.c) both use, timed into the run's stages. */

#include "cli/run.h"

#include <stdlib.h>
#include <string.h>

#include "results/results.h"

const char *const run_kernel_suffixes[] = {".md", ".html", ".pdf", "-roofline.svg",
                                           "-roofline.png", "-time.svg", "-time.png", NULL};
const char *const run_overview_names[] = {"index.html", "index.svg", "index.png",
                                          "summary.pdf", "estimates.csv", "results.xml",
                                          "changes.md", "changes.csv", NULL};

bool run_write_buffer(run_state *r, const char *name, char *data, size_t len)
{
    if (!data)
        return false;
    double t0 = rc_thread_seconds();
    bool ok = rc_output_write(r->output, name, data, len);
    rc_timings_add(r->timings, RC_STAGE_WRITE, rc_thread_seconds() - t0);
    free(data);
    return ok;
}

/* Whether a chart is painted at all: its formats asked for (or its SVG
 * kept for a page), and the fonts loaded. */
static bool charts_wanted(const run_state *r, const rc_fonts *fonts, bool keep_svg)
{
    return fonts && ((r->formats & (RC_FORMAT_SVG | RC_FORMAT_PNG)) || keep_svg);
}

/* Whether the kernel of its own tree `doc` has an estimate on some GPU:
 * not when its launch can run on none (results/launch.h), and then it has
 * no chart (the reports name each GPU instead). */
static bool has_estimates(xmlDocPtr doc)
{
    xmlNodePtr kernels = rc_results_child(xmlDocGetRootElement(doc), "kernels");
    for (xmlNodePtr k = kernels ? kernels->children : NULL; k; k = k->next)
        if (k->type == XML_ELEMENT_NODE)
            return rc_results_child(rc_results_child(k, "estimates"), "estimate") != NULL;
    return false;
}

rc_chart *run_describe_chart(run_state *r, xmlDocPtr doc, const char *kernel_id,
                             rc_chart_kind kind, const rc_fonts *fonts, bool keep_svg)
{
    if (!charts_wanted(r, fonts, keep_svg) || (kernel_id && !has_estimates(doc)))
        return NULL;
    /* Describing counts as the first format's time. */
    bool want_svg = (r->formats & RC_FORMAT_SVG) || keep_svg;
    rc_stage stage = !kernel_id ? RC_STAGE_OVERVIEWS : want_svg ? RC_STAGE_SVG : RC_STAGE_PNG;
    double t0 = rc_thread_seconds();
    rc_chart *chart = rc_render_chart_describe(doc, kernel_id, kind, fonts, r->diag);
    rc_timings_add(r->timings, stage, rc_thread_seconds() - t0);
    return chart;
}

void run_paint_charts(run_state *r, rc_chart *chart, const char *kernel_id, const char *suffix,
                      const rc_fonts *fonts, run_kept_svg *keep)
{
    if (!chart)
        return;
    bool want_svg = (r->formats & RC_FORMAT_SVG) || keep;
    bool want_png = (r->formats & RC_FORMAT_PNG) != 0;
    rc_stage svg_stage = kernel_id ? RC_STAGE_SVG : RC_STAGE_OVERVIEWS;
    rc_stage png_stage = kernel_id ? RC_STAGE_PNG : RC_STAGE_OVERVIEWS;
    char *svg = NULL, *png = NULL;
    size_t svg_len = 0, png_len = 0;
    double t0;
    if (want_svg) {
        t0 = rc_thread_seconds();
        svg = rc_render_chart_paint(chart, RC_IMAGE_SVG, fonts, &svg_len);
        rc_timings_add(r->timings, svg_stage, rc_thread_seconds() - t0);
    }
    if (want_png) {
        t0 = rc_thread_seconds();
        png = rc_render_chart_paint(chart, RC_IMAGE_PNG, fonts, &png_len);
        rc_timings_add(r->timings, png_stage, rc_thread_seconds() - t0);
    }
    if ((want_svg && !svg) || (want_png && !png))
        rc_error_at(r->diag, NULL, 0, "cannot paint a chart of %s", kernel_id ? kernel_id : "index");
    if (keep && svg)
        *keep = (run_kept_svg){NULL, svg_len, rc_chart_width(chart), rc_chart_height(chart)};
    rc_chart_free(chart);
    char name[160];
    const char *base = kernel_id ? kernel_id : "index";
    if (keep && svg && (r->formats & RC_FORMAT_SVG)) {
        keep->svg = malloc(svg_len ? svg_len : 1);
        if (keep->svg)
            memcpy(keep->svg, svg, svg_len);
    } else if (keep && svg) {
        keep->svg = svg; /* the page's alone: no copy */
        svg = NULL;
    }
    if (r->formats & RC_FORMAT_SVG) {
        snprintf(name, sizeof name, "%s%s.svg", base, suffix);
        run_write_buffer(r, name, svg, svg_len);
    } else
        free(svg);
    if (png) {
        snprintf(name, sizeof name, "%s%s.png", base, suffix);
        run_write_buffer(r, name, png, png_len);
    }
}

void run_render_charts(run_state *r, xmlDocPtr doc, const char *kernel_id, rc_chart_kind kind,
                       const char *suffix, const rc_fonts *fonts, run_kept_svg *keep)
{
    rc_chart *chart = run_describe_chart(r, doc, kernel_id, kind, fonts, keep != NULL);
    run_paint_charts(r, chart, kernel_id, suffix, fonts, keep);
}
