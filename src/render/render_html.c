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

#define DATA_URI_PREFIX "data:image/svg+xml;base64,"

/* The length of DATA_URI_PREFIX and n bytes in base64. */
static size_t data_uri_length(size_t n)
{
    return sizeof DATA_URI_PREFIX - 1 + (n + 2) / 3 * 4;
}

/* Writes DATA_URI_PREFIX and `data` in base64 at `out`; returns the end. */
static char *put_data_uri(char *out, const unsigned char *data, size_t n)
{
    static const char digits[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    memcpy(out, DATA_URI_PREFIX, sizeof DATA_URI_PREFIX - 1);
    char *o = out + sizeof DATA_URI_PREFIX - 1;
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
    return o;
}

/* The charts reach the page by structure, not by text: the template's
 * input has an empty <chart kind=...> and the template writes an <img>
 * with the attribute CHART_MARKER="KIND"; in the template's result tree,
 * before it is serialized, that attribute becomes src="data:...". No text
 * of the inputs can make an attribute name, so none can collide with a
 * chart (once, the page was searched for a placeholder text, which a
 * kernel's note could repeat). And a data: URI of 100 to 300 KB never goes
 * through libxslt (copied into the tree, normalize-space, an attribute
 * value template), which once took half the time of a page.
 *
 * Nor through libxml2's serializer, which copied each URI four times
 * (escaping it as a URI, quoting it) and took a third of a page's time:
 * the attribute is serialized as src="CHART_TOKEN<kind>", and each such
 * text of the page is replaced by the URI, which the serializer would
 * have written unchanged (base64 and the prefix are all characters a URI
 * keeps, and no quote). That is safe only where every token of the page
 * is one of those attributes: where the page holds more (a kernel's note
 * may say anything), the URIs go into the tree and the page is
 * serialized again. */
#define CHART_MARKER "data-roofcast-chart"
#define CHART_TOKEN "roofcast-chart:"
#define MAX_CHARTS 4 /* a report's roofline and time charts, each wide and narrow */
#define MAX_PLACED 8

typedef struct {
    const char *kind;
    const unsigned char *svg; /* the SVG file's bytes */
    size_t svg_len;
    char *painted;            /* svg, when painted here: freed with the images */
    char token[48];           /* "\"" CHART_TOKEN kind "\"", as serialized */
    xmlAttrPtr placed[MAX_PLACED]; /* the src attributes that show it */
    int nplaced;
} chart_image;

typedef struct {
    chart_image images[MAX_CHARTS];
    int count;
} chart_images;

/* Adds <chart kind= media-type= width= height=/> to `charts` and chart
 * `kind`'s SVG to `images`: `painted` (borrowed, its bytes), or painted
 * here from `chart` when NULL. `w` x `h` is its size in points, written in
 * CSS pixels (1 pt = 4/3 px). */
static bool add_chart(xmlNodePtr charts, const char *kind, const rc_chart *chart,
                      const rc_fonts *fonts, const char *painted, size_t painted_len, double w,
                      double h, chart_images *images)
{
    if ((!chart && !painted) || images->count == MAX_CHARTS)
        return false;
    chart_image image = {.kind = kind, .svg = (const unsigned char *)painted,
                         .svg_len = painted_len};
    if (!painted) {
        image.painted = rc_render_chart_paint(chart, RC_IMAGE_SVG, fonts, &image.svg_len);
        image.svg = (const unsigned char *)image.painted;
    }
    if (!image.svg)
        return false;
    snprintf(image.token, sizeof image.token, "\"%s%s\"", CHART_TOKEN, kind);
    images->images[images->count++] = image;
    xmlNodePtr n = xmlNewChild(charts, NULL, X("chart"), NULL);
    char buf[32];
    xmlSetProp(n, X("kind"), X(kind));
    xmlSetProp(n, X("media-type"), X("image/svg+xml"));
    snprintf(buf, sizeof buf, "%.0f", w * 4 / 3);
    xmlSetProp(n, X("width"), X(buf));
    snprintf(buf, sizeof buf, "%.0f", h * 4 / 3);
    xmlSetProp(n, X("height"), X(buf));
    return true;
}

/* A chart described here and added (add_chart); false when it cannot be. */
static bool add_described(xmlNodePtr charts, const char *kind, rc_chart *chart,
                          const rc_fonts *fonts, chart_images *images)
{
    bool ok = chart && add_chart(charts, kind, chart, fonts, NULL, 0, rc_chart_width(chart),
                                 rc_chart_height(chart), images);
    rc_chart_free(chart);
    return ok;
}

static void free_images(chart_images *images)
{
    for (int i = 0; i < images->count; i++)
        free(images->images[i].painted);
}

static chart_image *find_image(chart_images *images, const xmlChar *kind)
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

/* The attribute's value replaced by `text`; false when out of memory. */
static bool set_attribute_text(xmlAttrPtr attr, const char *text)
{
    xmlNodePtr value = xmlNewDocText(attr->doc, X(text));
    if (!value)
        return false;
    xmlFreeNodeList(attr->children);
    attr->children = attr->last = value;
    value->parent = (xmlNodePtr)attr;
    return true;
}

/* The attribute's value replaced by image's whole data: URI. */
static bool set_data_uri(xmlAttrPtr attr, const chart_image *image)
{
    char *uri = malloc(data_uri_length(image->svg_len) + 1);
    if (!uri)
        return false;
    *put_data_uri(uri, image->svg, image->svg_len) = '\0';
    bool ok = set_attribute_text(attr, uri);
    free(uri);
    return ok;
}

/* The marker attribute turned into src="CHART_TOKEN<kind>" (past
 * MAX_PLACED of a kind, src="data:..." at once), or removed when there is
 * no chart of its kind. */
static void put_chart(xmlNodePtr img, xmlAttrPtr marker, chart_images *images)
{
    xmlChar *kind = xmlNodeGetContent((xmlNodePtr)marker);
    chart_image *image = find_image(images, kind);
    xmlFree(kind);
    if (!image) {
        xmlRemoveProp(marker);
        return;
    }
    xmlAttrPtr old = xmlHasProp(img, X("src"));
    if (old)
        xmlRemoveProp(old);
    if ((old = xmlHasProp(img, X("srcset"))))
        xmlRemoveProp(old);
    char token[48];
    snprintf(token, sizeof token, "%s%s", CHART_TOKEN, image->kind);
    bool placed = image->nplaced < MAX_PLACED;
    if (!(placed ? set_attribute_text(marker, token) : set_data_uri(marker, image))) {
        xmlRemoveProp(marker);
        return;
    }
    /* A <picture>'s <source> names its image in srcset, an <img> in src. */
    xmlNodeSetName((xmlNodePtr)marker, X(xmlStrEqual(img->name, X("source")) ? "srcset" : "src"));
    if (placed)
        image->placed[image->nplaced++] = marker;
}

/* Every element with CHART_MARKER gets its chart's token. */
static void put_charts(xmlDocPtr result, chart_images *images)
{
    for (xmlNodePtr n = result->children; n; n = next_in_order(n)) {
        xmlAttrPtr marker = n->type == XML_ELEMENT_NODE ? xmlHasProp(n, X(CHART_MARKER)) : NULL;
        if (marker)
            put_chart(n, marker, images);
    }
}

/* The first token in [p, end) (each begins with a quote), and its image
 * in *image; NULL when there is none. */
static const char *next_token(const char *p, const char *end, const chart_images *images,
                              const chart_image **image)
{
    for (; (p = memchr(p, '"', (size_t)(end - p))); p++)
        for (int i = 0; i < images->count; i++) {
            const chart_image *candidate = &images->images[i];
            size_t n = strlen(candidate->token);
            if ((size_t)(end - p) >= n && memcmp(p, candidate->token, n) == 0) {
                *image = candidate;
                return p;
            }
        }
    return NULL;
}

/* Whether every token in the page is one of the placed attributes. */
static bool tokens_all_placed(const char *page, size_t len, const chart_images *images)
{
    int found[MAX_CHARTS] = {0};
    const chart_image *image;
    for (const char *p = page; (p = next_token(p, page + len, images, &image));
         p += strlen(image->token))
        found[image - images->images]++;
    for (int i = 0; i < images->count; i++)
        if (found[i] != images->images[i].nplaced)
            return false;
    return true;
}

/* The page with each token (quotes kept) replaced by the data: URI of its
 * chart; NULL when out of memory. */
static char *splice_uris(const char *page, size_t len, const chart_images *images,
                         size_t *out_len)
{
    size_t total = len;
    for (int i = 0; i < images->count; i++) {
        const chart_image *image = &images->images[i];
        total += (size_t)image->nplaced *
                 (data_uri_length(image->svg_len) - (strlen(image->token) - 2));
    }
    char *out = malloc(total + 1), *o = out;
    if (!out)
        return NULL;
    const char *p = page, *end = page + len, *q;
    const chart_image *image;
    while ((q = next_token(p, end, images, &image))) {
        memcpy(o, p, (size_t)(q - p));
        o += q - p;
        *o++ = '"';
        o = put_data_uri(o, image->svg, image->svg_len);
        *o++ = '"';
        p = q + strlen(image->token);
    }
    memcpy(o, p, (size_t)(end - p));
    o += end - p;
    *o = '\0';
    *out_len = (size_t)(o - out);
    return out;
}

/* The placed attributes given their whole data: URIs, for a page whose
 * text repeats a token. */
static bool put_uris_in_tree(const chart_images *images)
{
    for (int i = 0; i < images->count; i++)
        for (int k = 0; k < images->images[i].nplaced; k++)
            if (!set_data_uri(images->images[i].placed[k], &images->images[i]))
                return false;
    return true;
}

/* The page without the end tags of <source>, a void element: libxml2's
 * HTML serializer knows HTML 4's empty elements, not HTML5's, and closes
 * it. Only markup can hold the text (the serializer escapes '<' in text
 * and attribute values). Returns page, its length in *len. */
static char *without_source_end_tags(char *page, size_t *len)
{
    static const char tag[] = "</source>";
    const size_t n = sizeof tag - 1;
    if (!page)
        return NULL;
    char *o = page;
    const char *p = page, *end = page + *len;
    while (p < end) {
        if (*p == '<' && (size_t)(end - p) >= n && memcmp(p, tag, n) == 0)
            p += n;
        else
            *o++ = *p++;
    }
    *o = '\0';
    *len = (size_t)(o - page);
    return page;
}

/* rc_result_save: the page with its charts. */
static char *save_with_charts(rc_templates *t, rc_template_id id, xmlDocPtr result, void *ctx,
                              size_t *len)
{
    chart_images *images = ctx;
    put_charts(result, images);
    size_t page_len = 0;
    char *page = rc_template_save(t, id, result, &page_len);
    if (page && tokens_all_placed(page, page_len, images)) {
        char *out = splice_uris(page, page_len, images, len);
        free(page);
        return without_source_end_tags(out, len);
    }
    free(page);
    return put_uris_in_tree(images)
               ? without_source_end_tags(rc_template_save(t, id, result, len), len)
               : NULL;
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

/* Whether `doc` is already what rc_results_kernel_doc would copy of it for
 * `kernel`: its root holds only <gpus> and a <kernels> with `kernel` alone,
 * as a run's tree of one kernel does (copying that was a sixth of a page's
 * time). */
static bool is_kernel_doc(xmlNodePtr root, xmlNodePtr kernel)
{
    xmlNodePtr gpus = root->children, kernels = gpus ? gpus->next : NULL;
    return gpus && xmlStrEqual(gpus->name, X("gpus")) && kernels && !kernels->next &&
           !kernels->properties && kernel->parent == kernels && kernels->children == kernel &&
           !kernel->next;
}

/* The node a report's charts go under: the kernel in a document of its own (a copy in *copy,
 * the caller's to free, unless `doc` is one; the caller unlinks what it adds to `doc`). NULL
 * when there is none. (The index's go under the root of `doc` itself, since the index reads
 * every kernel and a copy would be as large as the run: rc_html_index_new.) */
static xmlNodePtr html_chart_parent(xmlDocPtr doc, const char *kernel_id, xmlDocPtr *copy,
                                    rc_diag *diag)
{
    xmlNodePtr root = xmlDocGetRootElement(doc);
    *copy = NULL;
    xmlNodePtr kernel = find_kernel(root, kernel_id);
    if (!kernel) {
        rc_error_at(diag, NULL, 0, "no kernel '%s' in the results", kernel_id);
        return NULL;
    }
    if (is_kernel_doc(root, kernel))
        return kernel;
    *copy = rc_results_kernel_doc(doc, kernel);
    return *copy ? rc_results_child(rc_results_child(xmlDocGetRootElement(*copy), "kernels"),
                                    "kernel")
                 : NULL;
}

/* A kernel page's two charts, roofline and time, taken as painted or
 * described and painted here, then their narrow layouts, described and
 * painted here. A chart without a description (a kernel with no estimate
 * has no roofline) is left out. */
static bool add_kernel_charts(xmlNodePtr charts, xmlNodePtr where, xmlNodePtr gpus,
                              const rc_fonts *fonts, const rc_painted_svgs *painted,
                              chart_images *images)
{
    bool ok = true;
    if (painted && painted->roofline)
        ok = add_chart(charts, "roofline", NULL, fonts, painted->roofline, painted->roofline_len,
                       painted->roofline_w, painted->roofline_h, images);
    else {
        rc_chart *r = rc_chart_new_roofline(where, gpus, fonts);
        ok = !r || add_described(charts, "roofline", r, fonts, images);
    }
    if (ok && painted && painted->time)
        ok = add_chart(charts, "time", NULL, fonts, painted->time, painted->time_len,
                       painted->time_w, painted->time_h, images);
    else if (ok) {
        rc_chart *tm = rc_chart_new_time(where, gpus, fonts);
        ok = !tm || add_described(charts, "time", tm, fonts, images);
    }
    /* The narrow layouts, which the page shows on a phone's screen in place of the wide
     * ones (html.xsl: a <picture> with a <source> for narrow windows). */
    if (ok) {
        rc_chart *r = rc_chart_new_roofline_laid_out(where, gpus, fonts, &RC_ROOFLINE_NARROW);
        ok = !r || add_described(charts, "roofline-narrow", r, fonts, images);
    }
    if (ok) {
        rc_chart *tm = rc_chart_new_time_narrow(where, gpus, fonts);
        ok = !tm || add_described(charts, "time-narrow", tm, fonts, images);
    }
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
        ok = add_described(charts, "overview", rc_chart_new_overview(where, fonts), fonts, images);
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
    if (!kernel_id) {
        rc_html_index *ix = rc_html_index_new(doc, fonts, diag);
        char *out = ix ? rc_html_index_render(t, ix, len, diag) : NULL;
        rc_html_index_free(ix);
        return out;
    }
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
    char *out = rc_render_template_edited(t, RC_TEMPLATE_HTML, input, kernel_id,
                                          save_with_charts, &images, len, diag);
    free_images(&images);
    if (copy) {
        xmlFreeDoc(copy);
    } else if (charts) { /* `doc` as it came */
        xmlUnlinkNode(charts);
        xmlFreeNode(charts);
    }
    return out;
}

struct rc_html_index {
    xmlDocPtr doc;
    xmlNodePtr charts; /* under the root of `doc`, taken out by rc_html_index_free */
    chart_images images;
};

rc_html_index *rc_html_index_new(xmlDocPtr doc, const rc_fonts *fonts, rc_diag *diag)
{
    xmlNodePtr root = xmlDocGetRootElement(doc);
    if (!root)
        return NULL;
    rc_html_index *ix = calloc(1, sizeof *ix);
    if (!ix) {
        rc_error_at(diag, NULL, 0, "index.html: out of memory");
        return NULL;
    }
    ix->doc = doc;
    if (fonts)
        ix->charts = add_html_charts(root, doc, NULL, fonts, NULL, &ix->images, diag);
    return ix;
}

char *rc_html_index_render(rc_templates *t, rc_html_index *ix, size_t *len, rc_diag *diag)
{
    return rc_render_template_edited(t, RC_TEMPLATE_INDEX, ix->doc, NULL, save_with_charts,
                                     &ix->images, len, diag);
}

void rc_html_index_free(rc_html_index *ix)
{
    if (!ix)
        return;
    free_images(&ix->images);
    if (ix->charts) { /* `doc` as it came */
        xmlUnlinkNode(ix->charts);
        xmlFreeNode(ix->charts);
    }
    free(ix);
}
