/* render_html.c: the HTML report of a kernel and the index, each one
 * self-contained page made by an XSLT template (templates/html.xsl,
 * templates/index.xsl) from a copy of the results tree with the charts
 * added.
 *
 * The charts go in as base64 SVG for <img src="data:image/svg+xml;base64,
 * ...">: an image document keeps its own ids (Cairo names its glyphs and
 * surfaces "glyph0-1", "surface5" in every SVG, which would clash if two
 * SVGs were inlined in one page), runs no script, and fetches nothing. */
#include "render/render.h"

#include <stdlib.h>
#include <string.h>

#include "render/chart.h"
#include "results/results.h"

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

/* A chart's base64 SVG stands in the template's input as a short
 * placeholder, spliced into the page afterwards: a data: URI of 100 to
 * 300 KB went through libxslt and libxml2 a character at a time several
 * times over (copied into the tree, normalize-space, the attribute value
 * template, URI and attribute escaping when serialized), half the time of
 * a page. The placeholder and base64 are both made of characters those
 * steps leave as they are (letters, digits, '-'; '+', '/', '='), so the
 * page is the same either way. Should the placeholder not come out
 * exactly once (an input's text could hold it), the page is made again
 * with the base64 in the tree. */
typedef struct {
    char placeholder[48];
    char *b64;
    size_t len;
} chart_data;

#define MAX_CHARTS 2

/* Appends <chart kind= media-type= width= height=>DATA</chart> to
 * `charts`, DATA being the placeholder (c->b64 keeps the base64); the size
 * is in CSS pixels (1 pt = 4/3 px). */
static bool add_chart(xmlNodePtr charts, const char *kind, rc_chart *chart, const rc_fonts *fonts,
                      const char *painted, size_t painted_len, chart_data *c)
{
    if (!chart)
        return false;
    if (painted) /* the SVG file's bytes: painting it again would give the same */
        c->b64 = base64((const unsigned char *)painted, painted_len);
    else {
        size_t len = 0;
        char *svg = rc_paint_svg(chart, fonts, &len);
        c->b64 = svg ? base64((const unsigned char *)svg, len) : NULL;
        free(svg);
    }
    if (!c->b64)
        return false;
    c->len = strlen(c->b64);
    snprintf(c->placeholder, sizeof c->placeholder, "roofcast-chart-%s-placeholder", kind);
    xmlNodePtr n = xmlNewChild(charts, NULL, X("chart"), NULL);
    xmlAddChild(n, xmlNewText(X(c->placeholder)));
    char buf[32];
    xmlSetProp(n, X("kind"), X(kind));
    xmlSetProp(n, X("media-type"), X("image/svg+xml"));
    snprintf(buf, sizeof buf, "%.0f", rc_chart_width(chart) * 4 / 3);
    xmlSetProp(n, X("width"), X(buf));
    snprintf(buf, sizeof buf, "%.0f", rc_chart_height(chart) * 4 / 3);
    xmlSetProp(n, X("height"), X(buf));
    return true;
}

/* The occurrences of `what` in s[0..n), up to 2. */
static int occurrences(const char *s, size_t n, const char *what, const char **first)
{
    size_t wl = strlen(what);
    int count = 0;
    *first = NULL;
    for (const char *p = s; count < 2 && (size_t)(p - s) + wl <= n;) {
        const char *hit = memchr(p, what[0], n - (size_t)(p - s) - wl + 1);
        if (!hit)
            break;
        if (memcmp(hit, what, wl) == 0) {
            if (!count++)
                *first = hit;
            p = hit + wl;
        } else
            p = hit + 1;
    }
    return count;
}

/* The page with each placeholder replaced by its base64, or NULL when a
 * placeholder is not there exactly once. Frees `page` when it returns
 * another buffer. */
static char *splice_charts(char *page, size_t *len, const chart_data *c, int n)
{
    for (int i = 0; i < n; i++) {
        const char *at;
        if (occurrences(page, *len, c[i].placeholder, &at) != 1)
            return NULL;
        size_t before = (size_t)(at - page), pl = strlen(c[i].placeholder);
        size_t after = *len - before - pl;
        char *out = malloc(before + c[i].len + after + 1);
        if (!out)
            return NULL;
        memcpy(out, page, before);
        memcpy(out + before, c[i].b64, c[i].len);
        memcpy(out + before + c[i].len, at + pl, after);
        out[before + c[i].len + after] = '\0';
        *len = before + c[i].len + after;
        free(page);
        page = out;
    }
    return page;
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

char *rc_render_html(rc_templates *t, xmlDocPtr doc, const char *kernel_id,
                     const rc_fonts *fonts, const rc_painted_svgs *painted, size_t *len,
                     rc_diag *diag)
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
        copy = rc_results_kernel_doc(doc, kernel);
        where = copy ? rc_results_child(rc_results_child(xmlDocGetRootElement(copy), "kernels"),
                                        "kernel")
                     : NULL;
    } else {
        /* The index reads every kernel: its <charts> goes into `doc` itself
         * for the call, rather than into a copy as large as the run. */
        where = root;
    }
    if (!where) {
        xmlFreeDoc(copy);
        return NULL;
    }
    xmlDocPtr input = copy ? copy : doc;
    xmlNodePtr charts = NULL;
    chart_data charts_data[MAX_CHARTS];
    int ncharts = 0;
    memset(charts_data, 0, sizeof charts_data);
    if (fonts) {
        charts = xmlNewChild(where, NULL, X("charts"), NULL);
        xmlNodePtr gpus = rc_results_child(xmlDocGetRootElement(input), "gpus");
        bool ok = true;
        if (kernel_id) {
            rc_chart *r = rc_chart_new_roofline(where, gpus, fonts);
            rc_chart *tm = rc_chart_new_time(where, gpus, fonts);
            const char *rs = painted ? painted->roofline : NULL;
            const char *ts = painted ? painted->time : NULL;
            ok = (!r || add_chart(charts, "roofline", r, fonts, rs,
                                  painted ? painted->roofline_len : 0, &charts_data[ncharts++])) &&
                 (!tm || add_chart(charts, "time", tm, fonts, ts,
                                   painted ? painted->time_len : 0, &charts_data[ncharts++]));
            rc_chart_free(r);
            rc_chart_free(tm);
        } else {
            rc_chart *o = rc_chart_new_overview(where, fonts);
            ok = o && add_chart(charts, "overview", o, fonts, NULL, 0, &charts_data[ncharts++]);
            rc_chart_free(o);
        }
        if (!ok)
            rc_error_at(diag, NULL, 0, "cannot draw the charts of %s.html",
                        kernel_id ? kernel_id : "index");
        while (ncharts > 0 && !charts_data[ncharts - 1].b64)
            ncharts--;
    }
    rc_template_id id = kernel_id ? RC_TEMPLATE_HTML : RC_TEMPLATE_INDEX;
    char *out = rc_render_template(t, id, input, kernel_id, len, diag);
    char *spliced = out && ncharts ? splice_charts(out, len, charts_data, ncharts) : out;
    if (out && !spliced) {
        /* A placeholder was not there once: the base64 goes in the tree. */
        free(out);
        int i = 0;
        for (xmlNodePtr c = charts ? charts->children : NULL; c && i < ncharts; c = c->next, i++)
            xmlNodeSetContent(c, X(charts_data[i].b64));
        spliced = rc_render_template(t, id, input, kernel_id, len, diag);
    }
    for (int i = 0; i < MAX_CHARTS; i++)
        free(charts_data[i].b64);
    out = spliced;
    if (copy) {
        xmlFreeDoc(copy);
    } else if (charts) { /* `doc` as it came */
        xmlUnlinkNode(charts);
        xmlFreeNode(charts);
    }
    return out;
}
