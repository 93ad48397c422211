/* render_chart.c: the chart files, <kernel>-roofline.*, <kernel>-time.*
 * and index.*: the results tree described (chart_*.c), then painted
 * (paint/painter.h). */
#include "render/render.h"

#include <string.h>

#include "paint/painter.h"
#include "render/chart.h"
#include "results/results.h"

/* The <kernel> whose id is `id`, or NULL. */
static xmlNodePtr find_kernel(xmlDocPtr doc, const char *id)
{
    xmlNodePtr kernels = rc_results_child(xmlDocGetRootElement(doc), "kernels");
    for (xmlNodePtr k = kernels ? kernels->children : NULL; k; k = k->next) {
        if (k->type != XML_ELEMENT_NODE)
            continue;
        xmlChar *kid = xmlGetProp(k, (const xmlChar *)"id");
        bool match = kid && strcmp((const char *)kid, id) == 0;
        xmlFree(kid);
        if (match)
            return k;
    }
    return NULL;
}

static const char *kind_name(rc_chart_kind kind)
{
    return kind == RC_CHART_ROOFLINE ? "roofline" : kind == RC_CHART_TIME ? "time" : "overview";
}

/* The description of chart `kind`, or NULL after reporting. */
static rc_chart *describe(xmlDocPtr doc, const char *kernel_id, rc_chart_kind kind,
                          const rc_fonts *fonts, rc_diag *diag)
{
    xmlNodePtr root = xmlDocGetRootElement(doc);
    rc_chart *chart = NULL;
    if (kind == RC_CHART_OVERVIEW) {
        chart = rc_chart_new_overview(root, fonts);
    } else {
        xmlNodePtr kernel = find_kernel(doc, kernel_id);
        if (!kernel) {
            rc_error_at(diag, NULL, 0, "no kernel '%s' in the results", kernel_id);
            return NULL;
        }
        xmlNodePtr gpus = rc_results_child(root, "gpus");
        chart = kind == RC_CHART_ROOFLINE ? rc_chart_new_roofline(kernel, gpus, fonts)
                                          : rc_chart_new_time(kernel, gpus, fonts);
    }
    if (!chart)
        rc_error_at(diag, NULL, 0, "cannot draw the %s chart%s%s", kind_name(kind),
                    kernel_id ? " of " : "", kernel_id ? kernel_id : "");
    return chart;
}

rc_chart *rc_render_chart_describe(xmlDocPtr doc, const char *kernel_id, rc_chart_kind kind,
                                   const rc_fonts *fonts, rc_diag *diag)
{
    return describe(doc, kernel_id, kind, fonts, diag);
}

char *rc_render_chart_paint(const rc_chart *chart, rc_image_format format, const rc_fonts *fonts,
                            size_t *len)
{
    const rc_painter *painter = format == RC_IMAGE_SVG ? &rc_painter_svg : &rc_painter_png;
    rc_paint_target target = {.fonts = fonts, .scale = RC_PNG_SCALE};
    char *out = NULL;
    rc_paint(painter, chart, &target, &out, len);
    return out;
}

char *rc_render_chart(xmlDocPtr doc, const char *kernel_id, rc_chart_kind kind,
                      rc_image_format format, const rc_fonts *fonts, size_t *len, rc_diag *diag)
{
    rc_chart *chart = describe(doc, kernel_id, kind, fonts, diag);
    if (!chart)
        return NULL;
    char *out = rc_render_chart_paint(chart, format, fonts, len);
    if (!out)
        rc_error_at(diag, NULL, 0, "cannot draw the %s chart%s%s as %s", kind_name(kind),
                    kernel_id ? " of " : "", kernel_id ? kernel_id : "",
                    format == RC_IMAGE_SVG ? "SVG" : "PNG");
    rc_chart_free(chart);
    return out;
}
