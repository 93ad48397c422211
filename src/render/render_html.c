/* render_html.c: the HTML report of a kernel and the index, each one
 * self-contained page made by an XSLT template (templates/html.xsl,
 * templates/index.xsl) from a copy of the results tree with the charts
 * added.
 *
 * The charts go in as base64 SVG for <img src="data:image/svg+xml;base64,
 * ...">: an image document keeps its own ids (paint_svg.c names its glyphs
 * "r36", "b12" in every SVG, which would clash if two SVGs were inlined in
 * one page), runs no script, and fetches nothing. */
#include "render/render.h"

#include <stdlib.h>
#include <string.h>

#include "render/chart.h"
#include "results/results.h"

#define X(s) ((const xmlChar *)(s))

/* "data:image/svg+xml;base64," and `data` in base64, or NULL. */
static char *data_uri(const unsigned char *data, size_t n)
{
    static const char digits[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    static const char prefix[] = "data:image/svg+xml;base64,";
    char *out = malloc(sizeof prefix - 1 + (n + 2) / 3 * 4 + 1);
    if (!out)
        return NULL;
    memcpy(out, prefix, sizeof prefix - 1);
    char *o = out + sizeof prefix - 1;
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

/* The charts reach the page by structure, not by text: the template's
 * input has an empty <chart kind=...> and the template writes an <img>
 * with the attribute CHART_MARKER="KIND"; in the template's result tree,
 * before it is serialized, that attribute becomes src="data:...". No text
 * of the inputs can make an attribute name, so none can collide with a
 * chart (once, the page was searched for a placeholder text, which a
 * kernel's note could repeat). And a data: URI of 100 to 300 KB never goes
 * through libxslt (copied into the tree, normalize-space, an attribute
 * value template), which once took half the time of a page. */
#define CHART_MARKER "data-roofcast-chart"
#define MAX_CHARTS 2

typedef struct {
    const char *kind;
    char *uri; /* data: URI of the SVG */
} chart_image;

typedef struct {
    chart_image images[MAX_CHARTS];
    int count;
} chart_images;

/* Adds <chart kind= media-type= width= height=/> to `charts` and the data:
 * URI of its SVG to `images`; the size is in CSS pixels (1 pt = 4/3 px).
 * `painted`: the SVG file's bytes, or NULL to paint them here. */
static bool add_chart(xmlNodePtr charts, const char *kind, rc_chart *chart, const rc_fonts *fonts,
                      const char *painted, size_t painted_len, chart_images *images)
{
    if (!chart || images->count == MAX_CHARTS)
        return false;
    char *uri;
    if (painted) {
        uri = data_uri((const unsigned char *)painted, painted_len);
    } else {
        size_t len = 0;
        char *svg = rc_paint_svg(chart, fonts, &len);
        uri = svg ? data_uri((const unsigned char *)svg, len) : NULL;
        free(svg);
    }
    if (!uri)
        return false;
    images->images[images->count++] = (chart_image){kind, uri};
    xmlNodePtr n = xmlNewChild(charts, NULL, X("chart"), NULL);
    char buf[32];
    xmlSetProp(n, X("kind"), X(kind));
    xmlSetProp(n, X("media-type"), X("image/svg+xml"));
    snprintf(buf, sizeof buf, "%.0f", rc_chart_width(chart) * 4 / 3);
    xmlSetProp(n, X("width"), X(buf));
    snprintf(buf, sizeof buf, "%.0f", rc_chart_height(chart) * 4 / 3);
    xmlSetProp(n, X("height"), X(buf));
    return true;
}

static const chart_image *find_image(const chart_images *images, const xmlChar *kind)
{
    for (int i = 0; kind && i < images->count; i++)
        if (strcmp(images->images[i].kind, (const char *)kind) == 0)
            return &images->images[i];
    return NULL;
}

/* The node after `n` in document order, within the tree under `n`'s
 * document node. */
static xmlNodePtr next_in_order(xmlNodePtr n)
{
    if (n->type == XML_ELEMENT_NODE && n->children)
        return n->children;
    while (n && !n->next) {
        n = n->parent;
        if (n && n->type != XML_ELEMENT_NODE)
            return NULL;
    }
    return n ? n->next : NULL;
}

/* The marker attribute turned into src="data:...", or removed when there is
 * no chart of its kind. */
static void put_chart(xmlNodePtr img, xmlAttrPtr marker, const chart_images *images)
{
    xmlChar *kind = xmlNodeGetContent((xmlNodePtr)marker);
    const chart_image *image = find_image(images, kind);
    xmlFree(kind);
    if (!image) {
        xmlRemoveProp(marker);
        return;
    }
    xmlAttrPtr old = xmlHasProp(img, X("src"));
    if (old)
        xmlRemoveProp(old);
    xmlNodePtr value = xmlNewDocText(img->doc, X(image->uri));
    if (!value) {
        xmlRemoveProp(marker);
        return;
    }
    xmlFreeNodeList(marker->children);
    marker->children = marker->last = value;
    value->parent = (xmlNodePtr)marker;
    xmlNodeSetName((xmlNodePtr)marker, X("src"));
}

/* rc_result_edit: every element with CHART_MARKER gets its chart. */
static bool put_charts(xmlDocPtr result, void *ctx)
{
    for (xmlNodePtr n = result->children; n; n = next_in_order(n)) {
        xmlAttrPtr marker = n->type == XML_ELEMENT_NODE ? xmlHasProp(n, X(CHART_MARKER)) : NULL;
        if (marker)
            put_chart(n, marker, ctx);
    }
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

/* The node the charts go under: the kernel in a copy of its own (*copy, the caller's to free),
 * or for the index (kernel_id NULL) the root of `doc` itself, since the index reads every
 * kernel and a copy would be as large as the run. NULL when there is none. */
static xmlNodePtr html_chart_parent(xmlDocPtr doc, const char *kernel_id, xmlDocPtr *copy,
                                    rc_diag *diag)
{
    xmlNodePtr root = xmlDocGetRootElement(doc);
    *copy = NULL;
    if (!kernel_id)
        return root;
    xmlNodePtr kernel = find_kernel(root, kernel_id);
    if (!kernel) {
        rc_error_at(diag, NULL, 0, "no kernel '%s' in the results", kernel_id);
        return NULL;
    }
    *copy = rc_results_kernel_doc(doc, kernel);
    return *copy ? rc_results_child(rc_results_child(xmlDocGetRootElement(*copy), "kernels"),
                                    "kernel")
                 : NULL;
}

/* A kernel page's two charts, roofline and time, drawn or taken as painted. */
static bool add_kernel_charts(xmlNodePtr charts, xmlNodePtr where, xmlNodePtr gpus,
                              const rc_fonts *fonts, const rc_painted_svgs *painted,
                              chart_images *images)
{
    rc_chart *r = rc_chart_new_roofline(where, gpus, fonts);
    rc_chart *tm = rc_chart_new_time(where, gpus, fonts);
    const char *rs = painted ? painted->roofline : NULL;
    const char *ts = painted ? painted->time : NULL;
    bool ok = (!r || add_chart(charts, "roofline", r, fonts, rs,
                               painted ? painted->roofline_len : 0, images)) &&
              (!tm || add_chart(charts, "time", tm, fonts, ts,
                                painted ? painted->time_len : 0, images));
    rc_chart_free(r);
    rc_chart_free(tm);
    return ok;
}

/* The <charts> node added under `where` (the caller unlinks and frees it), with the kernel's
 * charts or the index's overview; a chart that cannot be drawn is reported on `diag`. */
static xmlNodePtr add_html_charts(xmlNodePtr where, xmlDocPtr input, const char *kernel_id,
                                  const rc_fonts *fonts, const rc_painted_svgs *painted,
                                  chart_images *images, rc_diag *diag)
{
    xmlNodePtr charts = xmlNewChild(where, NULL, X("charts"), NULL);
    xmlNodePtr gpus = rc_results_child(xmlDocGetRootElement(input), "gpus");
    bool ok = true;
    if (kernel_id) {
        ok = add_kernel_charts(charts, where, gpus, fonts, painted, images);
    } else {
        rc_chart *o = rc_chart_new_overview(where, fonts);
        ok = o && add_chart(charts, "overview", o, fonts, NULL, 0, images);
        rc_chart_free(o);
    }
    if (!ok)
        rc_error_at(diag, NULL, 0, "cannot draw the charts of %s.html",
                    kernel_id ? kernel_id : "index");
    return charts;
}

char *rc_render_html(rc_templates *t, xmlDocPtr doc, const char *kernel_id,
                     const rc_fonts *fonts, const rc_painted_svgs *painted, size_t *len,
                     rc_diag *diag)
{
    xmlDocPtr copy = NULL;
    xmlNodePtr where = html_chart_parent(doc, kernel_id, &copy, diag);
    if (!where) {
        xmlFreeDoc(copy);
        return NULL;
    }
    xmlDocPtr input = copy ? copy : doc;
    xmlNodePtr charts = NULL;
    chart_images images = {.count = 0};
    if (fonts)
        charts = add_html_charts(where, input, kernel_id, fonts, painted, &images, diag);
    rc_template_id id = kernel_id ? RC_TEMPLATE_HTML : RC_TEMPLATE_INDEX;
    char *out = rc_render_template_edited(t, id, input, kernel_id, put_charts, &images, len, diag);
    for (int i = 0; i < images.count; i++)
        free(images.images[i].uri);
    if (copy) {
        xmlFreeDoc(copy);
    } else if (charts) { /* `doc` as it came */
        xmlUnlinkNode(charts);
        xmlFreeNode(charts);
    }
    return out;
}
