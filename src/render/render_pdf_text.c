/* render_pdf_text.c: text from the results tree as the PDF's fonts can
 * show it, and the headings, titles and footers of the PDF renderer's
 * pages. See render_pdf.h. */
#include "render/render_pdf.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "paint/font.h"
#include "paint/paint_hpdf.h"
#include "results/results.h"
#include "util/diag.h"
#include "util/version.h" /* RC_VERSION */

#define X(s) ((const xmlChar *)(s))

static const rc_rgb ACCENT = {0.09, 0.29, 0.52}; /* headings */

/* ---- text from the tree ------------------------------------------------ */

/* The input file that text of node n comes from: the GPU's for a GPU name,
 * else the nearest enclosing element that names one. */
static const char *source_file(pdf *p, xmlNodePtr n, const char *attr, char *buf, size_t size)
{
    xmlChar *f = NULL;
    if (attr && strcmp(attr, "gpu-name") == 0) {
        xmlChar *id = xmlGetProp(n, X("gpu"));
        for (xmlNodePtr g = p->gpus ? p->gpus->children : NULL; id && g && !f; g = g->next) {
            xmlChar *gid = g->type == XML_ELEMENT_NODE ? xmlGetProp(g, X("id")) : NULL;
            if (gid && xmlStrEqual(gid, id))
                f = xmlGetProp(g, X("file"));
            xmlFree(gid);
        }
        xmlFree(id);
    }
    for (; !f && n && n->type == XML_ELEMENT_NODE; n = n->parent)
        f = xmlGetProp(n, X("file"));
    snprintf(buf, size, "%s", f ? (const char *)f : "");
    xmlFree(f);
    return *buf ? buf : NULL;
}

/* Warns that character c, first met in `what`, cannot be shown: once per
 * input file and character in the whole run, as the same text appears in
 * <kernel>.pdf and summary.pdf, and often several times on a page. */
static void warn_missing(pdf *p, const char *file, unsigned long c, const char *what)
{
    char key[32], shown[8] = "";
    snprintf(key, sizeof key, "U+%04lX ", c);
    /* Once per run: a set, not a scan of the messages so far, which hostile
     * text with thousands of such characters made quadratic. */
    size_t n = strlen(key) + (file ? strlen(file) : 0) + 24;
    char *once = malloc(n);
    if (once)
        snprintf(once, n, "pdf-missing-glyph %s%s", key, file ? file : "");
    bool first = !once || rc_diag_once(p->diag, once);
    free(once);
    if (!first)
        return;
    if (c >= 0xA0 && c <= 0x10FFFF) /* the character itself, unless a control */
        *rc_hpdf_utf8_put(shown, c) = '\0';
    rc_warn_at(p->diag, file, 0, "%s%s%s%scannot be shown in PDF output (%s), so it is printed "
               "as U+FFFD (first in %s)", key, *shown ? "'" : "", shown, *shown ? "' " : "",
               c > 0xFFFF ? "libharu encodes only the Basic Multilingual Plane"
                          : "DejaVu Sans has no glyph for it",
               what);
}

/* Text longer than this many bytes is cut before it is laid out. A page
 * holds far less (a column of 6 pt text the page's size, some 40,000
 * characters of the narrowest glyphs), so no more could be seen, while a
 * long note would cost its whole length at every font scale a page is
 * measured at. */
#define TEXT_MAX (256 * 1024)

/* What ends a text cut at TEXT_MAX. */
static const char CUT_NOTICE[] = " \xE2\x80\xA6 (cut here in the PDF: the Markdown and HTML "
                                 "reports have the whole text)";

/* Cuts raw at TEXT_MAX bytes, between whole UTF-8 characters; returns
 * whether it did. */
static bool cut_long(xmlChar *raw)
{
    if (strlen((const char *)raw) <= TEXT_MAX)
        return false;
    size_t end = TEXT_MAX;
    while (end > 0 && (raw[end] & 0xC0) == 0x80)
        end--;
    raw[end] = '\0';
    return true;
}

/* Text of node n: attribute `attr`, or its content when attr is NULL, as
 * the fonts can print it (see rc_hpdf_showable), with a warning for each
 * character they cannot; cut with a notice past TEXT_MAX. Owned by p; ""
 * when missing. `what` names the text in warnings ("the kernel's name").
 * Made once and recalled after (pdf_remember): a page asks at every font
 * scale it is measured at. */
const char *pr_tx(pdf *p, xmlNodePtr n, const char *attr, const char *what)
{
    if (!n)
        return "";
    const char *kept = pdf_recall(p, n, attr);
    if (kept)
        return kept;
    xmlChar *raw = attr ? xmlGetProp(n, X(attr)) : xmlNodeGetContent(n);
    if (!raw) {
        pdf_remember(p, n, attr, "");
        return "";
    }
    bool cut = cut_long(raw);
    char file[4096];
    bool located = false;
    for (const char *q = (const char *)raw; *q;) {
        unsigned long c = rc_utf8_next(&q);
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r')
            continue;
        /* Text may be set in either face: both must have the character. */
        if (c > 0xFFFF || !p->hf.has_glyph(p->hf.ctx, RC_FONT_REGULAR, c) ||
            !p->hf.has_glyph(p->hf.ctx, RC_FONT_BOLD, c)) {
            if (!located)
                source_file(p, n, attr, file, sizeof file);
            located = true;
            warn_missing(p, *file ? file : NULL, c, *what ? what : "a number");
        }
    }
    char *shown = rc_hpdf_showable(&p->hf, RC_FONT_REGULAR, (const char *)raw);
    char *both = shown ? rc_hpdf_showable(&p->hf, RC_FONT_BOLD, shown) : NULL;
    xmlFree(raw);
    free(shown);
    const char *text = pdf_own(p, both);
    if (cut)
        text = pdf_join(p, text, CUT_NOTICE, NULL);
    pdf_remember(p, n, attr, text);
    return text;
}

const char *pr_kernel_name(pdf *p, xmlNodePtr k)
{
    return pr_tx(p, k, "name", "the kernel's name");
}

const char *pr_gpu_name(pdf *p, xmlNodePtr g) { return pr_tx(p, g, "name", "the GPU's name"); }

xmlNodePtr pr_child(xmlNodePtr n, const char *name) { return rc_results_child(n, name); }

bool pr_is_element(xmlNodePtr n, const char *name)
{
    return n && n->type == XML_ELEMENT_NODE && xmlStrEqual(n->name, X(name));
}

bool pr_attr_is(xmlNodePtr n, const char *attr, const char *value)
{
    xmlChar *v = xmlGetProp(n, X(attr));
    bool same = v && strcmp((const char *)v, value) == 0;
    xmlFree(v);
    return same;
}

double pr_heading(pdf *p, const char *text, double scale, double top)
{
    pdf_style st = {RC_FONT_BOLD, SIZE_HEADING * scale, ACCENT};
    return pdf_paragraph(p, &st, MARGIN_X, top, CONTENT_W, PDF_LEFT, text) + 3 * scale;
}

/* The title: one line shrunk to fit, down to SIZE_TITLE_MIN, then wrapped
 * onto at most three lines. Returns the height used. */
double pr_title(pdf *p, const char *text, double scale, double top)
{
    pdf_style st = {RC_FONT_BOLD, SIZE_TITLE * scale, PDF_INK};
    double w = pdf_width(p, &st, text, strlen(text));
    if (w > CONTENT_W)
        st.size = fmax(SIZE_TITLE_MIN * scale, st.size * CONTENT_W / w * 0.999);
    double saved = p->bottom;
    p->bottom = fmin(saved, top + 3 * pdf_leading(&st) + 0.01);
    double h = pdf_paragraph(p, &st, MARGIN_X, top, CONTENT_W, PDF_LEFT, text);
    p->bottom = saved;
    return h;
}

/* The footer of `page`: what the figures are, and `right` (a page number)
 * when not NULL. */
static void footer(pdf *p, HPDF_Page page, const char *right)
{
    HPDF_Page saved = p->page;
    p->page = page;
    pdf_style st = {RC_FONT_REGULAR, SIZE_FOOTER, PDF_MUTED};
    double rw = right ? pdf_width(p, &st, right, strlen(right)) : 0;
    const char *left = "roofcast " RC_VERSION " \xC2\xB7 estimates from declared work and "
                       "the GPUs' figures, not measurements";
    double lw = CONTENT_W - rw - (right ? 12 : 0);
    pdf_lines ls = {NULL, 0, 0};
    pdf_wrap(p, &st, left, lw, 2, &ls);
    if (ls.n > 0)
        pdf_line(p, &st, MARGIN_X, FOOTER_BASELINE, lw, PDF_LEFT, ls.v[0], ls.n > 1);
    free(ls.v);
    if (right)
        pdf_text(p, &st, PAGE_W - MARGIN_X - rw, FOOTER_BASELINE, right, strlen(right));
    pdf_rule(p, MARGIN_X, FOOTER_BASELINE - SIZE_FOOTER - 4, CONTENT_W, 0.4);
    p->page = saved;
}

void pr_footers(pdf *p, bool number_single)
{
    for (size_t i = 0; i < p->npages; i++) {
        char number[64];
        snprintf(number, sizeof number, "Page %zu of %zu", i + 1, p->npages);
        footer(p, p->pages[i], number_single || p->npages > 1 ? number : NULL);
    }
}

