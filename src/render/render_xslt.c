/* render_xslt.c: the renderers written as XSLT stylesheets (templates/),
 * run by libxslt with file and network access forbidden. */
#include "render/render.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/xpathInternals.h>
#include <libxslt/extensions.h>
#include <libxslt/security.h>
#include <libxslt/transform.h>
#include <libxslt/xsltInternals.h>
#include <libxslt/xsltutils.h>

#include "util/output.h" /* rc_read_regular */

#define RC_XSLT_NS "urn:roofcast"
/* No template comes near this; it only bounds what a wrong -t DIR reads. */
#define MAX_TEMPLATE_BYTES (16u << 20)

/* ORDER RC_TEMPLATE */
static const char *const template_files[RC_TEMPLATE_COUNT] = {"markdown.xsl", "html.xsl",
                                                               "index.xsl", "changes.xsl"};

struct rc_templates {
    xsltStylesheetPtr sheets[RC_TEMPLATE_COUNT];
    char *paths[RC_TEMPLATE_COUNT]; /* for messages */
    xsltSecurityPrefsPtr prefs;
    char chart_images[8];  /* the chart-images parameter: "png", "svg" or "" */
};

/* ---- Markdown escaping ---------------------------------------------- */

/* Input text rendered literally by a CommonMark + GFM renderer, on one
 * line: rc:md() of the templates (changes.xsl included). The caller frees it. */
static char *markdown_escape(const char *text)
{
    size_t n = strlen(text);
    char *out = malloc(2 * n + 1), *o = out;
    if (!out)
        return NULL;
    bool line_start = true;
    for (const char *p = text; *p; p++) {
        char c = *p;
        if (c == '\n' || c == '\r' || c == '\t')
            c = ' '; /* one line: a break would end a table row or a list item */
        /* Every ASCII punctuation character that CommonMark or GFM could
         * read as markup; a backslash before any of them is always literal. */
        bool special = strchr("\\`*_[]<>!|~&#", c) != NULL;
        if (line_start && strchr("-+=:", c))
            special = true;
        /* "1." or "1)" at the start of a line would start a list */
        if (!special && (c == '.' || c == ')') && p > text) {
            const char *q = p;
            while (q > text && q[-1] >= '0' && q[-1] <= '9')
                q--;
            if (q == text && q < p)
                special = true;
        }
        if (special && c != '\0')
            *o++ = '\\';
        *o++ = c;
        if (c != ' ')
            line_start = false;
    }
    *o = '\0';
    return out;
}

/* rc:md(string): the string escaped for Markdown. */
static void xpath_md(xmlXPathParserContextPtr ctxt, int nargs)
{
    if (nargs != 1) {
        xmlXPathSetArityError(ctxt);
        return;
    }
    xmlChar *s = xmlXPathPopString(ctxt);
    char *e = markdown_escape(s ? (const char *)s : "");
    xmlFree(s);
    valuePush(ctxt, xmlXPathNewString((const xmlChar *)(e ? e : "")));
    free(e);
}

/* The longest run of `c` in s. */
static size_t longest_run(const char *s, char c)
{
    size_t best = 0, run = 0;
    for (; *s; s++) {
        run = *s == c ? run + 1 : 0;
        if (run > best)
            best = run;
    }
    return best;
}

/* rc:fence(string): a backtick fence longer than any run in the string,
 * so that a code block cannot be closed from inside. */
static void xpath_fence(xmlXPathParserContextPtr ctxt, int nargs)
{
    if (nargs != 1) {
        xmlXPathSetArityError(ctxt);
        return;
    }
    xmlChar *s = xmlXPathPopString(ctxt);
    size_t n = longest_run(s ? (const char *)s : "", '`') + 1;
    xmlFree(s);
    if (n < 3)
        n = 3;
    char *f = malloc(n + 1);
    if (f) {
        memset(f, '`', n);
        f[n] = '\0';
    }
    valuePush(ctxt, xmlXPathNewString((const xmlChar *)(f ? f : "```")));
    free(f);
}

/* rc:code(string): an inline code span that shows the string literally. */
static void xpath_code(xmlXPathParserContextPtr ctxt, int nargs)
{
    if (nargs != 1) {
        xmlXPathSetArityError(ctxt);
        return;
    }
    xmlChar *s = xmlXPathPopString(ctxt);
    const char *text = s ? (const char *)s : "";
    size_t ticks = longest_run(text, '`') + 1, len = strlen(text);
    char *out = malloc(2 * ticks + len + 3);
    if (out) {
        char *o = out;
        memset(o, '`', ticks);
        o += ticks;
        bool pad = len == 0 || text[0] == '`' || text[len - 1] == '`' ||
                   (text[0] == ' ' && text[len - 1] == ' ');
        if (pad)
            *o++ = ' ';
        for (const char *p = text; *p; p++)
            *o++ = (*p == '\n' || *p == '\r') ? ' ' : *p;
        if (pad)
            *o++ = ' ';
        memset(o, '`', ticks);
        o += ticks;
        *o = '\0';
    }
    xmlFree(s);
    valuePush(ctxt, xmlXPathNewString((const xmlChar *)(out ? out : "")));
    free(out);
}

/* rc:md-info(string): a code fence's info string (the language), kept to
 * characters that cannot end the fence line or start markup. */
static void xpath_md_info(xmlXPathParserContextPtr ctxt, int nargs)
{
    if (nargs != 1) {
        xmlXPathSetArityError(ctxt);
        return;
    }
    xmlChar *s = xmlXPathPopString(ctxt);
    char out[33];
    size_t n = 0;
    for (const char *p = s ? (const char *)s : ""; *p && n < sizeof out - 1; p++)
        if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
            (*p >= '0' && *p <= '9') || *p == '_' || *p == '+' || *p == '-')
            out[n++] = *p;
    out[n] = '\0';
    xmlFree(s);
    valuePush(ctxt, xmlXPathNewString((const xmlChar *)out));
}

/* name() of a node: its qualified name, or "" for a node without one. */
static void qualified_name(xmlNodePtr n, char *out, size_t size)
{
    bool named = n->type == XML_ELEMENT_NODE || n->type == XML_ATTRIBUTE_NODE;
    if (named && n->ns && n->ns->prefix)
        snprintf(out, size, "%s:%s", (const char *)n->ns->prefix, (const char *)n->name);
    else
        snprintf(out, size, "%s", named ? (const char *)n->name : "");
}

/* The first attribute of element e whose name() is `name`. */
static xmlAttrPtr attribute_named(xmlNodePtr e, const char *name)
{
    char qname[256];
    for (xmlAttrPtr a = e->properties; a; a = a->next) {
        qualified_name((xmlNodePtr)a, qname, sizeof qname);
        if (strcmp(qname, name) == 0)
            return a;
    }
    return NULL;
}

/* rc:shown(node-set): the value of $a/../@*[name() = concat(name($a),
 * '-text')], the shown form beside a number of the results tree, found
 * without making a string of every attribute's name as that XPath does (a
 * report asks some 900 times, and that was a quarter of its time). */
static void xpath_shown(xmlXPathParserContextPtr ctxt, int nargs)
{
    if (nargs != 1) {
        xmlXPathSetArityError(ctxt);
        return;
    }
    xmlNodeSetPtr set = xmlXPathPopNodeSet(ctxt);
    if (xmlXPathCheckError(ctxt))
        return;
    xmlAttrPtr first = NULL;
    if (set && set->nodeNr > 0) {
        xmlXPathNodeSetSort(set);
        char name[256];
        qualified_name(set->nodeTab[0], name, sizeof name);
        strncat(name, "-text", sizeof name - strlen(name) - 1);
        for (int i = 0; i < set->nodeNr; i++) { /* the first in document order */
            xmlNodePtr parent = set->nodeTab[i]->parent;
            xmlAttrPtr a = parent && parent->type == XML_ELEMENT_NODE
                               ? attribute_named(parent, name) : NULL;
            if (a && (!first || xmlXPathCmpNodes((xmlNodePtr)a, (xmlNodePtr)first) > 0))
                first = a;
        }
    }
    xmlChar *value = first ? xmlNodeGetContent((xmlNodePtr)first) : NULL;
    valuePush(ctxt, xmlXPathNewString(value ? value : (const xmlChar *)""));
    xmlFree(value);
    xmlXPathFreeNodeSet(set);
}

/* Whether `name` is one of the space-separated words of `list`. */
static bool among(const char *name, const char *list)
{
    size_t n = strlen(name);
    for (const char *w = list; *w;) {
        size_t len = strcspn(w, " ");
        if (len == n && strncmp(w, name, n) == 0)
            return true;
        w += len;
        w += strspn(w, " ");
    }
    return false;
}

/* rc:figures(node-set, names): the <figure> children of the nodes whose
 * name attribute is one of the space-separated `names`, in document
 * order: $nodes/figure[@name = 'a' or @name = 'b'], without an XPath
 * comparison per figure and name (some 800 a report, a sixth of it). */
static void xpath_figures(xmlXPathParserContextPtr ctxt, int nargs)
{
    if (nargs != 2) {
        xmlXPathSetArityError(ctxt);
        return;
    }
    xmlChar *names = xmlXPathPopString(ctxt);
    xmlNodeSetPtr set = xmlXPathPopNodeSet(ctxt);
    if (xmlXPathCheckError(ctxt)) {
        xmlFree(names);
        return;
    }
    xmlNodeSetPtr found = xmlXPathNodeSetCreate(NULL);
    for (int i = 0; set && found && names && i < set->nodeNr; i++) {
        xmlNodePtr n = set->nodeTab[i];
        for (xmlNodePtr c = n->type == XML_ELEMENT_NODE ? n->children : NULL; c; c = c->next) {
            if (c->type != XML_ELEMENT_NODE || c->ns || !xmlStrEqual(c->name, BAD_CAST "figure"))
                continue;
            xmlAttrPtr a = attribute_named(c, "name");
            xmlChar *value = a ? xmlNodeGetContent((xmlNodePtr)a) : NULL;
            if (value && among((const char *)value, (const char *)names))
                xmlXPathNodeSetAddUnique(found, c);
            xmlFree(value);
        }
    }
    if (found)
        xmlXPathNodeSetSort(found);
    xmlFree(names);
    xmlXPathFreeNodeSet(set);
    valuePush(ctxt, xmlXPathWrapNodeSet(found));
}

/* rc:words(string): its words as wc -w counts them (runs of bytes other than ASCII white
 * space), so that markdown.xsl can keep a report within its word budget. */
static void xpath_words(xmlXPathParserContextPtr ctxt, int nargs)
{
    if (nargs != 1) {
        xmlXPathSetArityError(ctxt);
        return;
    }
    xmlChar *text = xmlXPathPopString(ctxt);
    if (xmlXPathCheckError(ctxt)) {
        xmlFree(text);
        return;
    }
    double words = 0;
    bool in_word = false;
    for (const xmlChar *p = text; p && *p; p++) {
        bool space = strchr(" \t\n\r\v\f", *p) != NULL;
        if (!space && !in_word)
            words++;
        in_word = !space;
    }
    xmlFree(text);
    valuePush(ctxt, xmlXPathNewFloat(words));
}

static pthread_once_t register_once = PTHREAD_ONCE_INIT;

static void register_functions(void)
{
    xsltRegisterExtModuleFunction((const xmlChar *)"md", (const xmlChar *)RC_XSLT_NS, xpath_md);
    xsltRegisterExtModuleFunction((const xmlChar *)"fence", (const xmlChar *)RC_XSLT_NS,
                                  xpath_fence);
    xsltRegisterExtModuleFunction((const xmlChar *)"md-info", (const xmlChar *)RC_XSLT_NS,
                                  xpath_md_info);
    xsltRegisterExtModuleFunction((const xmlChar *)"code", (const xmlChar *)RC_XSLT_NS,
                                  xpath_code);
    xsltRegisterExtModuleFunction((const xmlChar *)"shown", (const xmlChar *)RC_XSLT_NS,
                                  xpath_shown);
    xsltRegisterExtModuleFunction((const xmlChar *)"figures", (const xmlChar *)RC_XSLT_NS,
                                  xpath_figures);
    xsltRegisterExtModuleFunction((const xmlChar *)"words", (const xmlChar *)RC_XSLT_NS,
                                  xpath_words);
}

/* ---- templates -------------------------------------------------------- */

rc_templates *rc_templates_new(const char *dir, unsigned wanted, rc_diag *diag)
{
    pthread_once(&register_once, register_functions);
    rc_templates *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    rc_templates_set_chart_images(t, "png");
    t->prefs = xsltNewSecurityPrefs();
    xsltSecurityOption forbidden[] = {XSLT_SECPREF_READ_FILE, XSLT_SECPREF_WRITE_FILE,
                                      XSLT_SECPREF_CREATE_DIRECTORY,
                                      XSLT_SECPREF_READ_NETWORK,
                                      XSLT_SECPREF_WRITE_NETWORK};
    for (size_t i = 0; i < sizeof forbidden / sizeof forbidden[0]; i++)
        xsltSetSecurityPrefs(t->prefs, forbidden[i], xsltSecurityForbid);
    for (int i = 0; i < RC_TEMPLATE_COUNT; i++) {
        if (!(wanted & (1u << i)))
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, template_files[i]);
        /* Read as a regular file (rc_read_regular: a FIFO put there would
         * hang xmlReadFile), parsed under its path so its includes resolve. */
        const char *why;
        size_t len = 0;
        char *text = rc_read_regular(AT_FDCWD, path, true, MAX_TEMPLATE_BYTES, &len, &why);
        xmlDocPtr doc = text ? xmlReadMemory(text, (int)len, path, NULL,
                                             XML_PARSE_NONET | XML_PARSE_NOCDATA |
                                                 XML_PARSE_NOERROR | XML_PARSE_NOWARNING)
                             : NULL;
        free(text);
        if (!doc) {
            rc_fault_at(diag, path, 0, "cannot read the template (is --templates right?)");
            rc_templates_free(t);
            return NULL;
        }
        t->paths[i] = strdup(path);
        t->sheets[i] = xsltParseStylesheetDoc(doc);
        if (!t->sheets[i]) {
            xmlFreeDoc(doc);
            rc_fault_at(diag, path, 0, "is not a valid XSLT stylesheet");
            rc_templates_free(t);
            return NULL;
        }
    }
    return t;
}

void rc_templates_set_chart_images(rc_templates *t, const char *ext)
{
    snprintf(t->chart_images, sizeof t->chart_images, "%s",
             strcmp(ext, "png") == 0 || strcmp(ext, "svg") == 0 ? ext : "");
}

void rc_templates_free(rc_templates *t)
{
    if (!t)
        return;
    for (int i = 0; i < RC_TEMPLATE_COUNT; i++) {
        if (t->sheets[i])
            xsltFreeStylesheet(t->sheets[i]);
        free(t->paths[i]);
    }
    if (t->prefs)
        xsltFreeSecurityPrefs(t->prefs);
    free(t);
}

/* libxslt's messages during one transformation. They come in pieces, a
 * context line ("runtime error: file F line N element E") then the reason;
 * the first reason and its line are kept for one file:line message, and
 * nothing reaches stderr unformatted. */
typedef struct {
    char line_text[512];
    size_t len;
    int line;
    char reason[512];
    int reason_line;
} xslt_errors;

static void collect_xslt_error(void *ctx, const char *fmt, ...) RC_PRINTF(2, 3);

static void collect_xslt_error(void *ctx, const char *fmt, ...)
{
    xslt_errors *e = ctx;
    char piece[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(piece, sizeof piece, fmt, ap);
    va_end(ap);
    for (const char *p = piece; *p; p++) {
        if (*p != '\n') {
            if (e->len < sizeof e->line_text - 1)
                e->line_text[e->len++] = *p;
            continue;
        }
        e->line_text[e->len] = '\0';
        const char *at = strstr(e->line_text, " line ");
        if (strncmp(e->line_text, "runtime error: ", 15) == 0 && at)
            e->line = atoi(at + 6);
        else if (!e->reason[0] && e->len > 0) {
            snprintf(e->reason, sizeof e->reason, "%s", e->line_text);
            e->reason_line = e->line;
        }
        e->len = 0;
    }
}

char *rc_render_template(rc_templates *t, rc_template_id id, xmlDocPtr doc,
                         const char *kernel_id, size_t *len, rc_diag *diag)
{
    return rc_render_template_edited(t, id, doc, kernel_id, NULL, NULL, len, diag);
}

char *rc_template_save(rc_templates *t, rc_template_id id, xmlDocPtr result, size_t *len)
{
    xmlChar *mem = NULL;
    int size = 0;
    char *out = NULL;
    if (xsltSaveResultToString(&mem, &size, result, t->sheets[id]) == 0) {
        out = malloc((size_t)size + 1);
        if (out) {
            if (size > 0)
                memcpy(out, mem, (size_t)size);
            out[size] = '\0';
            *len = (size_t)size;
        }
    }
    xmlFree(mem);
    return out;
}

char *rc_render_template_edited(rc_templates *t, rc_template_id id, xmlDocPtr doc,
                                const char *kernel_id, rc_result_save save, void *save_ctx,
                                size_t *len, rc_diag *diag)
{
    xsltStylesheetPtr sheet = t->sheets[id];
    if (!sheet) {
        rc_error_at(diag, NULL, 0, "template %s was not loaded", template_files[id]);
        return NULL;
    }
    xsltTransformContextPtr ctxt = xsltNewTransformContext(sheet, doc);
    if (!ctxt)
        return NULL;
    xsltSetCtxtSecurityPrefs(t->prefs, ctxt);
    xslt_errors errors = {.len = 0};
    xsltSetTransformErrorFunc(ctxt, &errors, collect_xslt_error);
    /* Parameters are XPath expressions: pass the id as a string value. */
    const char *params[5] = {NULL, NULL, NULL, NULL, NULL};
    size_t np = 0;
    char *quoted = NULL, images[16];
    if (kernel_id) {
        size_t n = strlen(kernel_id);
        quoted = malloc(n + 3);
        if (quoted) {
            snprintf(quoted, n + 3, "'%s'", kernel_id); /* ids hold no quotes */
            params[np++] = "kernel-id";
            params[np++] = quoted;
        }
    }
    snprintf(images, sizeof images, "'%s'", t->chart_images);
    params[np++] = "chart-images";
    params[np++] = images;
    xmlDocPtr result = xsltApplyStylesheetUser(sheet, doc, params, NULL, NULL, ctxt);
    char *out = NULL;
    if (!result || ctxt->state != XSLT_STATE_OK) {
        /* The template's fault, not the input's: exit status 3. */
        rc_fault_at(diag, t->paths[id], errors.reason_line, "the template failed: %s",
                    errors.reason[0] ? errors.reason : "it produced no output");
    } else {
        out = save ? save(t, id, result, save_ctx, len) : rc_template_save(t, id, result, len);
    }
    if (result)
        xmlFreeDoc(result);
    xsltFreeTransformContext(ctxt);
    free(quoted);
    return out;
}
