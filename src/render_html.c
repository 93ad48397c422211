/* render_html.c: the HTML report of a kernel and the index, each one
 * self-contained page made by an XSLT template (templates/html.xsl,
 * templates/index.xsl) from a copy of the results tree with the charts
 * added.
 *
 * The charts go in as base64 SVG for <img src="data:image/svg+xml;base64,
 * ...">: an image document keeps its own ids (Cairo names its glyphs and
 * surfaces "glyph0-1", "surface5" in every SVG, which would clash if two
 * SVGs were inlined in one page), runs no script, and fetches nothing. */
#include "render.h"

#include <stdlib.h>
#include <string.h>

#include "chart.h"
#include "results.h"

#define X(s) ((const xmlChar *)(s))

static char *base64(const unsigned char *data, size_t n)
{
    static const char digits[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char *out = malloc((n + 2) / 3 * 4 + 1), *o = out;
    if (!out)
        return NULL;
    size_t i = 0;
    for (; i + 2 < n; i += 3) {
        unsigned v = (unsigned)data[i] << 16 | (unsigned)data[i + 1] << 8 | data[i + 2];
        *o++ = digits[v >> 18 & 63], *o++ = digits[v >> 12 & 63];
        *o++ = digits[v >> 6 & 63], *o++ = digits[v & 63];
    }
    if (i < n) {
        unsigned v = (unsigned)data[i] << 16 | (i + 1 < n ? (unsigned)data[i + 1] << 8 : 0);
        *o++ = digits[v >> 18 & 63], *o++ = digits[v >> 12 & 63];
        *o++ = i + 1 < n ? digits[v >> 6 & 63] : '=';
        *o++ = '=';
    }
    *o = '\0';
    return out;
}

/* Appends <chart kind= media-type= width= height=>base64</chart> to
 * `charts`; the size is in CSS pixels (1 pt = 4/3 px). */
static bool add_chart(xmlNodePtr charts, const char *kind, rc_chart *chart, const rc_fonts *fonts)
{
    if (!chart)
        return false;
    size_t len = 0;
    char *svg = rc_paint_svg(chart, fonts, &len);
    char *b64 = svg ? base64((const unsigned char *)svg, len) : NULL;
    free(svg);
    if (!b64)
        return false;
    xmlNodePtr n = xmlNewChild(charts, NULL, X("chart"), NULL);
    xmlAddChild(n, xmlNewText(X(b64)));
    free(b64);
    char buf[32];
    xmlSetProp(n, X("kind"), X(kind));
    xmlSetProp(n, X("media-type"), X("image/svg+xml"));
    snprintf(buf, sizeof buf, "%.0f", rc_chart_width(chart) * 4 / 3);
    xmlSetProp(n, X("width"), X(buf));
    snprintf(buf, sizeof buf, "%.0f", rc_chart_height(chart) * 4 / 3);
    xmlSetProp(n, X("height"), X(buf));
    return true;
}

static xmlNodePtr find_kernel(xmlNodePtr root, const char *id)
{
    xmlNodePtr kernels = rc_results_child(root, "kernels");
    for (xmlNodePtr k = kernels ? kernels->children : NULL; k; k = k->next) {
        if (k->type != XML_ELEMENT_NODE)
            continue;
        xmlChar *kid = xmlGetProp(k, X("id"));
        bool match = kid && strcmp((const char *)kid, id) == 0;
        xmlFree(kid);
        if (match)
            return k;
    }
    return NULL;
}

/* A report's tree: the root's attributes, the GPUs and the one kernel, so
 * that copying stays linear in the number of kernels. */
static xmlDocPtr kernel_copy(xmlDocPtr doc, xmlNodePtr kernel)
{
    xmlNodePtr root = xmlDocGetRootElement(doc);
    xmlDocPtr copy = xmlNewDoc(X("1.0"));
    if (!copy)
        return NULL;
    xmlNodePtr top = xmlDocCopyNode(root, copy, 2); /* attributes, no children */
    xmlDocSetRootElement(copy, top);
    xmlNodePtr gpus = rc_results_child(root, "gpus");
    if (gpus)
        xmlAddChild(top, xmlDocCopyNode(gpus, copy, 1));
    xmlNodePtr kernels = xmlNewChild(top, NULL, X("kernels"), NULL);
    xmlAddChild(kernels, xmlDocCopyNode(kernel, copy, 1));
    return copy;
}

char *rc_render_html(rc_templates *t, xmlDocPtr doc, const char *kernel_id,
                     const rc_fonts *fonts, size_t *len, rc_diag *diag)
{
    xmlNodePtr root = xmlDocGetRootElement(doc);
    xmlDocPtr copy = NULL;
    xmlNodePtr where = NULL;
    if (kernel_id) {
        xmlNodePtr kernel = find_kernel(root, kernel_id);
        if (!kernel) {
            rc_error_at(diag, NULL, 0, "no kernel '%s' in the results", kernel_id);
            return NULL;
        }
        copy = kernel_copy(doc, kernel);
        where = copy ? rc_results_child(rc_results_child(xmlDocGetRootElement(copy), "kernels"),
                                        "kernel")
                     : NULL;
    } else {
        copy = xmlCopyDoc(doc, 1);
        where = copy ? xmlDocGetRootElement(copy) : NULL;
    }
    if (!where) {
        xmlFreeDoc(copy);
        return NULL;
    }
    if (fonts) {
        xmlNodePtr charts = xmlNewChild(where, NULL, X("charts"), NULL);
        xmlNodePtr gpus = rc_results_child(xmlDocGetRootElement(copy), "gpus");
        bool ok = true;
        if (kernel_id) {
            rc_chart *r = rc_chart_new_roofline(where, gpus, fonts);
            rc_chart *tm = rc_chart_new_time(where, gpus, fonts);
            ok = (!r || add_chart(charts, "roofline", r, fonts)) &&
                 (!tm || add_chart(charts, "time", tm, fonts));
            rc_chart_free(r);
            rc_chart_free(tm);
        } else {
            rc_chart *o = rc_chart_new_overview(where, fonts);
            ok = o && add_chart(charts, "overview", o, fonts);
            rc_chart_free(o);
        }
        if (!ok)
            rc_error_at(diag, NULL, 0, "cannot draw the charts of %s.html",
                        kernel_id ? kernel_id : "index");
    }
    char *out = rc_render_template(t, kernel_id ? RC_TEMPLATE_HTML : RC_TEMPLATE_INDEX, copy,
                                   kernel_id, len, diag);
    xmlFreeDoc(copy);
    return out;
}
