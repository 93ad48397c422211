/* render_pdf.c: the PDF summaries for design reviews: what their pages
 * say, laid out with pdf_layout.h.
 *
 * <kernel>.pdf is one A4 page: the kernel's name and summary, its launch
 * and totals, the time table on every GPU, the roofline chart (chart.h,
 * painted as vectors by paint_hpdf.c) and the interpretation; when the
 * chart does not fit under the text at a legible size (a dozen GPUs), it
 * has a second page of its own. summary.pdf is an overview (t_total of
 * every kernel on every GPU, a contents list, the overview chart, on as
 * many pages as they take) followed by the same pages for each kernel,
 * with a bookmark per kernel and page numbers.
 *
 * Like every renderer this reads only the results tree and prints numbers
 * only from its *-text attributes. Text from the inputs passes through
 * rc_hpdf_showable, and a character the fonts cannot show is printed as
 * U+FFFD and reported once as a warning against its input file.
 *
 * A kernel's page is first measured at a font scale, shrunk until it fits,
 * then drawn with the same code; at the smallest scale a block that still
 * does not fit is cut with an ellipsis at the bottom margin.
 */
#include "render/render.h"

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hpdf.h>
#include <zlib.h>

#include "paint/font.h"
#include "paint/paint_hpdf.h"
#include "render/chart.h"
#include "render/pdf_layout.h"
#include "results/results.h"
#include "util/buffer.h"
#include "util/version.h" /* RC_VERSION */

#define X(s) ((const xmlChar *)(s))

/* Font sizes at scale 1. A page that does not fit is set smaller, down to
 * MIN_SCALE, where the smallest (SIZE_TABLE) is 6 pt: no text on a page
 * at 100 % zoom is smaller. The chart is drawn at CHART_SCALE, where its
 * smallest text (8 pt in its description) is 6 pt too, in a description
 * made that much wider than the column; its plot takes the room that is
 * left, PLOT_MIN to PLOT_MAX points high in the description. */
#define SIZE_TITLE 17.0
#define SIZE_TITLE_MIN 12.0
#define SIZE_SUBTITLE 10.0
#define SIZE_HEADING 10.5
#define SIZE_BODY 8.0
#define SIZE_TABLE 7.5
#define SIZE_FOOTER 7.0
#define MIN_SCALE 0.8
#define CHART_SCALE 0.76
#define PLOT_MIN 150.0
#define PLOT_MAX 300.0
#define NEXT_PAGE (-1.0) /* a chart height: the chart is on a page of its own */
#define PLOT_PAGE 560.0  /* the plot's height on that page, at most */

#define FOOTER_BASELINE (PAGE_H - 26.0)

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
static const char *tx(pdf *p, xmlNodePtr n, const char *attr, const char *what)
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

static const char *kernel_name(pdf *p, xmlNodePtr k)
{
    return tx(p, k, "name", "the kernel's name");
}

static const char *gpu_name(pdf *p, xmlNodePtr g) { return tx(p, g, "name", "the GPU's name"); }

static xmlNodePtr child(xmlNodePtr n, const char *name) { return rc_results_child(n, name); }

static xmlNodePtr counts(xmlNodePtr kernel, const char *basis)
{
    for (xmlNodePtr c = kernel->children; c; c = c->next) {
        if (c->type != XML_ELEMENT_NODE || !xmlStrEqual(c->name, X("counts")))
            continue;
        xmlChar *b = xmlGetProp(c, X("basis"));
        bool match = b && strcmp((const char *)b, basis) == 0;
        xmlFree(b);
        if (match)
            return c;
    }
    return NULL;
}

static bool is_element(xmlNodePtr n, const char *name)
{
    return n && n->type == XML_ELEMENT_NODE && xmlStrEqual(n->name, X(name));
}

static bool attr_is(xmlNodePtr n, const char *attr, const char *value)
{
    xmlChar *v = xmlGetProp(n, X(attr));
    bool same = v && strcmp((const char *)v, value) == 0;
    xmlFree(v);
    return same;
}

/* The noun that agrees with count `attr` of n: " block" for 1, else
 * " blocks" (as words.xsl's count template in Markdown and HTML). */
static const char *noun(xmlNodePtr n, const char *attr, const char *one, const char *many)
{
    return attr_is(n, attr, "1") ? one : many;
}


static double heading(pdf *p, const char *text, double scale, double top)
{
    pdf_style st = {RC_FONT_BOLD, SIZE_HEADING * scale, ACCENT};
    return pdf_paragraph(p, &st, MARGIN_X, top, CONTENT_W, PDF_LEFT, text) + 3 * scale;
}

/* The title: one line shrunk to fit, down to SIZE_TITLE_MIN, then wrapped
 * onto at most three lines. Returns the height used. */
static double title(pdf *p, const char *text, double scale, double top)
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

/* ---- a kernel's page ---------------------------------------------------- */

typedef struct {
    const char *label, *value;
} fact;

/* A column of label/value pairs; returns its height. */
static double facts(pdf *p, const fact *f, size_t n, double x, double top, double w, double scale)
{
    pdf_style label = {RC_FONT_REGULAR, SIZE_BODY * scale, PDF_MUTED};
    pdf_style value = {RC_FONT_REGULAR, SIZE_BODY * scale, PDF_INK};
    /* The labels' column is as wide as the widest label, within reason. */
    double gap = 8 * scale, lw = 0;
    for (size_t i = 0; i < n; i++)
        lw = fmax(lw, pdf_width(p, &label, f[i].label, strlen(f[i].label)));
    lw = fmin(lw, 0.42 * w);
    double y = top;
    for (size_t i = 0; i < n; i++) {
        double h = fmax(pdf_measure(p, &label, lw, f[i].label),
                        pdf_measure(p, &value, w - lw - gap, f[i].value));
        if (y + h > p->bottom)
            break;
        pdf_paragraph(p, &label, x, y, lw, PDF_LEFT, f[i].label);
        pdf_paragraph(p, &value, x + lw + gap, y, w - lw - gap, PDF_LEFT, f[i].value);
        y += h + 1.5 * scale;
    }
    return y - top;
}

/* Whether the kernel has estimates on more than one GPU: only then does
 * "fastest" compare anything. */
static bool several_estimates(xmlNodePtr kernel)
{
    xmlNodePtr est = child(kernel, "estimates");
    size_t n = 0;
    for (xmlNodePtr e = est ? est->children : NULL; e && n < 2; e = e->next)
        n += is_element(e, "estimate");
    return n > 1;
}

/* The GPU x time table of one kernel. */
static double time_table(pdf *p, xmlNodePtr kernel, double top, double scale)
{
    static const char *const head[] = {"GPU",      "t_compute", "t_mem", "t_body",
                                       "t_launch", "t_total",   "Bound", "Launch share (%)"};
    static const char *const attrs[] = {"gpu-name",    "t-compute-text", "t-mem-text",
                                        "t-body-text", "t-launch-text",  "t-total-text",
                                        "bound",       "launch-percent-text"};
    static const bool right[] = {false, true, true, true, true, true, false, true};
    enum { NCOLS = sizeof head / sizeof head[0] };
    xmlNodePtr est = child(kernel, "estimates");
    size_t n = 0;
    for (xmlNodePtr e = est ? est->children : NULL; e; e = e->next)
        n += is_element(e, "estimate");
    pdf_cell *cells = calloc((n + 1) * NCOLS, sizeof *cells);
    if (!cells) {
        p->oom = true;
        return 0;
    }
    for (size_t c = 0; c < NCOLS; c++)
        cells[c] = (pdf_cell){head[c], false};
    size_t r = 1;
    for (xmlNodePtr e = est ? est->children : NULL; e; e = e->next) {
        if (!is_element(e, "estimate"))
            continue;
        /* With one GPU, "fastest" compares nothing: nothing is bold. */
        bool fastest = n > 1 && attr_is(e, "fastest", "yes");
        for (size_t c = 0; c < NCOLS; c++)
            cells[r * NCOLS + c] = (pdf_cell){tx(p, e, attrs[c], "the GPU's name"),
                                          fastest && (c == 0 || c == 5)};
        r++;
    }
    pdf_table t = {n + 1, NCOLS, cells, right, true, true, false,
               SIZE_TABLE * scale, 3 * scale, NULL, NULL};
    double h = pdf_table_block(p, &t, MARGIN_X, top, CONTENT_W);
    free(cells);
    return h;
}

/* "Accesses: 640,000 B in 6,400 requests, ... footprint 4,032 B. ", or "" without counted
 * accesses; says when the counts come from a sample of blocks. */
static const char *access_counts(pdf *p, xmlNodePtr k)
{
    xmlNodePtr m = child(counts(k, "model"), "memory");
    if (!m)
        return "";
    char text[512];
    snprintf(text, sizeof text,
             "Accesses: %s B accessed in %s %s, %s B of sectors moved, footprint %s B%s. ",
             tx(p, m, "accessed-bytes-text", "a count"), tx(p, m, "requests-text", "a count"),
             noun(m, "requests", "request", "requests"),
             tx(p, m, "sector-bytes-text", "a count"), tx(p, m, "footprint-bytes-text", "a count"),
             attr_is(m, "sampled", "yes") ? " (estimated from a sample of blocks)" : "");
    return pdf_join(p, text, NULL);
}

/* "At a glance": a row per GPU, fastest first by t_estimate (by t_total without a refined
 * estimate), the fastest in bold; 0 high when the tree has no glance rows. */
static double glance_table(pdf *p, xmlNodePtr kernel, double top, double scale)
{
    static const char *const head[] = {"GPU", "t_estimate", "Limited by", "t_lower", "t_total"};
    static const char *const attrs[] = {"gpu-name", "t-estimate-text", "limiter-words",
                                        "t-lower-text", "t-total-text"};
    static const bool right[] = {false, true, false, true, true};
    enum { NCOLS = sizeof head / sizeof head[0] };
    xmlNodePtr glance = child(kernel, "glance");
    bool refined = glance && attr_is(glance, "order", "t-estimate");
    size_t ncols = refined ? NCOLS : 1, n = 0;
    for (xmlNodePtr e = glance ? glance->children : NULL; e; e = e->next)
        n += is_element(e, "row");
    if (n == 0)
        return 0;
    pdf_cell *cells = calloc((n + 1) * NCOLS, sizeof *cells);
    if (!cells) {
        p->oom = true;
        return 0;
    }
    static const char *const head_total[] = {"GPU", "t_total"};
    static const bool right_total[] = {false, true};
    ncols = refined ? NCOLS : 2;
    for (size_t c = 0; c < ncols; c++)
        cells[c] = (pdf_cell){refined ? head[c] : head_total[c], false};
    size_t r = 1;
    for (xmlNodePtr e = glance->children; e; e = e->next) {
        if (!is_element(e, "row"))
            continue;
        bool fastest = attr_is(e, "fastest", "yes");
        for (size_t c = 0; c < ncols; c++)
            cells[r * ncols + c] = (pdf_cell){
                tx(p, e, refined ? attrs[c] : c ? "t-total-text" : "gpu-name", "the glance"),
                fastest && (c == 0 || c == 1)};
        r++;
    }
    pdf_table t = {n + 1, ncols, cells, refined ? right : right_total, true, true, false,
                   SIZE_TABLE * scale, 3 * scale, NULL, NULL};
    double h = pdf_table_block(p, &t, MARGIN_X, top, CONTENT_W);
    free(cells);
    return h;
}

/* "At a glance" under the header: its heading, table and verdict; advances *y. */
static void glance(pdf *p, xmlNodePtr k, double scale, double *at)
{
    xmlNodePtr g = child(k, "glance");
    if (!g || !child(g, "row"))
        return;
    double y = *at;
    bool several = false;
    for (xmlNodePtr e = g->children; e; e = e->next)
        several |= is_element(e, "row") && attr_is(e, "fastest", "yes");
    y += heading(p, attr_is(g, "order", "t-estimate")
                        ? several ? "At a glance: time per launch in \xC2\xB5s, fastest first by "
                                    "t_estimate, the refined estimate to plan with (bold: the "
                                    "fastest, within 10 % of each other); t_lower: no run is "
                                    "faster; t_total: the peak roofline below"
                                  : "At a glance: time per launch in \xC2\xB5s, fastest first by "
                                    "t_estimate, the refined estimate to plan with; t_lower: no "
                                    "run is faster; t_total: the peak roofline below"
                        : "At a glance: time per launch in \xC2\xB5s, fastest first by t_total",
                 scale, y);
    y += glance_table(p, k, y, scale);
    pdf_style body = {RC_FONT_REGULAR, SIZE_BODY * scale, PDF_INK};
    y += 4 * scale;
    for (xmlNodePtr q = child(g, "verdict") ? child(g, "verdict")->children : NULL; q; q = q->next)
        if (is_element(q, "p"))
            y += pdf_paragraph(p, &body, MARGIN_X, y, CONTENT_W, PDF_LEFT,
                               tx(p, q, NULL, "the verdict")) +
                 3 * scale;
    pdf_rule(p, MARGIN_X, y + 2 * scale, CONTENT_W, 0.6);
    *at = y + 10 * scale;
}

/* The kernel's name, its summary below and a rule, from *y on; advances
 * *y past them. (Blocks advance one y rather than return heights, so that
 * positions add up in the same order whatever the blocks.) */
static void kernel_header(pdf *p, xmlNodePtr k, double scale, double *at)
{
    double y = *at;
    y += title(p, kernel_name(p, k), scale, y);
    pdf_style sub = {RC_FONT_REGULAR, SIZE_SUBTITLE * scale, PDF_MUTED};
    double saved = p->bottom;
    p->bottom = fmin(saved, y + 2 * scale + 4 * pdf_leading(&sub) + 0.01);
    y += 2 * scale + pdf_paragraph(p, &sub, MARGIN_X, y + 2 * scale, CONTENT_W, PDF_LEFT,
                                   tx(p, child(k, "summary"), NULL, "the kernel's summary"));
    p->bottom = saved;
    y += 4 * scale;
    pdf_rule(p, MARGIN_X, y, CONTENT_W, 0.6);
    *at = y + 8 * scale;
}

/* The launch: grid, block, threads and each parameter. f has room for 3
 * facts and one per parameter; returns how many were written. */
static size_t launch_facts(pdf *p, xmlNodePtr k, fact *f, size_t room)
{
    xmlNodePtr launch = child(k, "launch"), params = child(k, "params");
    size_t n = 0;
    f[n++] = (fact){"Grid", pdf_join(p, tx(p, launch, "grid", "the grid"), " \xE2\x86\x92 ",
                                     tx(p, launch, "blocks-text", ""),
                                     noun(launch, "blocks", " block", " blocks"), NULL)};
    f[n++] = (fact){"Block", pdf_join(p, tx(p, launch, "block", "the block"), " \xE2\x86\x92 ",
                                      tx(p, launch, "threads-per-block-text", ""),
                                      noun(launch, "threads-per-block", " thread", " threads"),
                                      " per block", NULL)};
    f[n++] = (fact){"Launched threads", tx(p, launch, "threads-text", "")};
    for (xmlNodePtr q = params ? params->children : NULL; q && n < room; q = q->next) {
        if (!is_element(q, "param"))
            continue;
        const char *note = tx(p, q, "note", "a parameter's note");
        f[n++] = (fact){pdf_join(p, "Parameter ", tx(p, q, "name", "a parameter's name"), NULL),
                        pdf_join(p, tx(p, q, "value-text", ""), *note ? " (" : "", note,
                                 *note ? ")" : "", NULL)};
    }
    return n;
}

/* FLOPs per byte, in the words the Markdown and HTML reports use where
 * there is no ratio to give. */
static const char *intensity_text(pdf *p, xmlNodePtr model)
{
    bool no_flops = attr_is(child(model, "flops"), "total", "0");
    bool no_bytes = attr_is(child(model, "bytes"), "total", "0");
    if (no_bytes)
        return no_flops ? "none: no FLOPs, no bytes" : "unbounded: no bytes move";
    return pdf_join(p, tx(p, child(model, "intensity"), "value-text", ""), " FLOP/byte", NULL);
}

/* "in 1 of 25 blocks", "in the one block", "in no block", as words.xsl
 * says it. */
static const char *in_blocks(pdf *p, xmlNodePtr blocks)
{
    if (attr_is(blocks, "active", "0"))
        return "in no block";
    if (attr_is(blocks, "launched", "1"))
        return "in the one block";
    return pdf_join(p, "in ", tx(p, blocks, "active-text", ""), " of ",
                    tx(p, blocks, "launched-text", ""), " blocks", NULL);
}

/* The work the model counts, and as launched when that differs. f has
 * room for 5 facts; returns how many were written. */
static size_t work_facts(pdf *p, xmlNodePtr k, fact *f)
{
    xmlNodePtr model = counts(k, "model"), launched = counts(k, "launch");
    xmlNodePtr th = child(model, "threads"), bl = child(model, "blocks");
    xmlNodePtr fl = child(model, "flops"), by = child(model, "bytes");
    size_t n = 0;
    f[n++] = (fact){"Active threads",
                    pdf_join(p, tx(p, th, "active-text", ""), " of ",
                             tx(p, th, "launched-text", ""), " (",
                             tx(p, th, "active-percent-text", ""), " %), ", in_blocks(p, bl),
                             NULL)};
    f[n++] = (fact){"FLOPs", tx(p, fl, "total-text", "")};
    f[n++] = (fact){"Bytes moved", pdf_join(p, tx(p, by, "total-text", ""), " (",
                                            tx(p, by, "mib-text", ""), " MiB)", NULL)};
    f[n++] = (fact){"Arithmetic intensity", intensity_text(p, model)};
    if (launched)
        f[n++] = (fact){
            "As launched",
            pdf_join(p, tx(p, child(launched, "threads"), "active-text", ""),
                     noun(child(launched, "threads"), "active", " thread, ", " threads, "),
                     tx(p, child(launched, "flops"), "total-text", ""),
                     noun(child(launched, "flops"), "total", " FLOP, ", " FLOPs, "),
                     tx(p, child(launched, "bytes"), "total-text", ""),
                     noun(child(launched, "bytes"), "total", " byte", " bytes"),
                     " (the model's assumptions do not hold for this launch)", NULL)};
    return n;
}

/* Launch and work, side by side; returns the height. */
static double launch_and_work(pdf *p, xmlNodePtr k, double scale, double top)
{
    xmlNodePtr params = child(k, "params");
    size_t nparams = 0;
    for (xmlNodePtr q = params ? params->children : NULL; q; q = q->next)
        nparams += is_element(q, "param");
    fact *left = calloc(3 + nparams, sizeof *left), right[5];
    if (!left) {
        p->oom = true;
        return 0;
    }
    size_t nl = launch_facts(p, k, left, 3 + nparams), nr = work_facts(p, k, right);
    double col = (CONTENT_W - 16 * scale) / 2;
    double hl = facts(p, left, nl, MARGIN_X, top, col, scale);
    double hr = facts(p, right, nr, MARGIN_X + col + 16 * scale, top, col, scale);
    free(left);
    return fmax(hl, hr);
}

/* The notes take at most this height at scale 1 (some 18 lines): a long
 * note gives way to the estimates rather than push them off the page. */
#define NOTES_MAX 180.0

/* The kernel's notes as a list, cut with a notice when they pass
 * NOTES_MAX; advances *y past them. */
static void notes_list(pdf *p, xmlNodePtr k, double scale, double *at)
{
    pdf_style body = {RC_FONT_REGULAR, SIZE_BODY * scale, PDF_INK};
    pdf_style muted = {RC_FONT_REGULAR, SIZE_BODY * scale, PDF_MUTED};
    xmlNodePtr notes = child(k, "notes");
    double y = *at, w = CONTENT_W - 10 * scale, saved = p->bottom;
    double limit = *at + (4 + NOTES_MAX) * scale;
    bool first = true, cut = false;
    for (xmlNodePtr n = notes ? notes->children : NULL; n && !cut; n = n->next) {
        if (!is_element(n, "note"))
            continue;
        if (first)
            y += 4 * scale;
        first = false;
        const char *text = tx(p, n, NULL, "a note");
        cut = y + pdf_measure(p, &body, w, text) > limit;
        if (cut) /* the notice goes on the last line */
            p->bottom = fmin(saved, limit - pdf_leading(&body));
        double h = pdf_paragraph(p, &body, MARGIN_X + 10 * scale, y, w, PDF_LEFT, text);
        p->bottom = saved;
        if (h > 0)
            pdf_text(p, &body, MARGIN_X, y + body.size, "\xE2\x80\xA2", 3);
        y += h + 1.5 * scale;
    }
    if (cut)
        y += pdf_paragraph(p, &muted, MARGIN_X + 10 * scale, y, w, PDF_LEFT,
                           "The notes are cut here: the Markdown and HTML reports have them "
                           "whole.") +
             1.5 * scale;
    *at = y;
}

/* The interpretation's paragraphs under their heading; advances *y. */
static void interpretation(pdf *p, xmlNodePtr k, double scale, double *at)
{
    xmlNodePtr interp = child(k, "interpretation");
    if (!interp || !interp->children)
        return;
    pdf_style body = {RC_FONT_REGULAR, SIZE_BODY * scale, PDF_INK};
    double y = *at + 10 * scale;
    y += heading(p, "Interpretation of the peak roofline", scale, y);
    for (xmlNodePtr q = interp->children; q; q = q->next)
        if (is_element(q, "p"))
            y += pdf_paragraph(p, &body, MARGIN_X, y, CONTENT_W, PDF_LEFT,
                               tx(p, q, NULL, "the interpretation")) +
                 3 * scale;
    *at = y;
}

/* "Inputs that changed: param k: 100 → 200; ...", or "" when none did. */
static const char *changed_inputs(pdf *p, xmlNodePtr changes)
{
    const char *inputs = "";
    for (xmlNodePtr c = changes->children; c; c = c->next)
        if (is_element(c, "input"))
            inputs = pdf_join(
                p, inputs, *inputs ? "; " : "Inputs that changed: ", tx(p, c, "kind", "a change"),
                " ",
                attr_is(c, "kind", "gpu") ? pdf_join(p, tx(p, c, "gpu", "a change"), " ", NULL)
                                          : "",
                tx(p, c, "name", "a change"), ": ", tx(p, c, "old", "a change"), " \xE2\x86\x92 ",
                tx(p, c, "new", "a change"), NULL);
    return inputs;
}

/* "t_total (µs): GPU 1.00 → 2.00 (+100 %); ...", or "" when none moved. */
static const char *moved_estimates(pdf *p, xmlNodePtr changes)
{
    const char *moves = "";
    for (xmlNodePtr c = changes->children; c; c = c->next)
        if (is_element(c, "estimate") && attr_is(c, "quantity", "t_total"))
            moves = pdf_join(p, moves, *moves ? "; " : "t_total (\xC2\xB5s): ",
                             tx(p, c, "gpu-name", "a change"), " ",
                             tx(p, c, "old-text", "a change"), " \xE2\x86\x92 ",
                             tx(p, c, "new-text", "a change"), " (",
                             tx(p, c, "percent-text", "a change"), ")", NULL);
    return moves;
}

/* What changed since the baseline, when something did (--baseline);
 * advances *y. */
static void changes_since(pdf *p, xmlNodePtr k, double scale, double *at)
{
    xmlNodePtr changes = child(k, "changes");
    if (!changes || !changes->children)
        return;
    pdf_style body = {RC_FONT_REGULAR, SIZE_BODY * scale, PDF_INK};
    double y = *at + 10 * scale;
    y += heading(p, "Changes since the baseline", scale, y);
    const char *texts[] = {changed_inputs(p, changes), moved_estimates(p, changes)};
    for (size_t i = 0; i < 2; i++)
        if (*texts[i])
            y += pdf_paragraph(p, &body, MARGIN_X, y, CONTENT_W, PDF_LEFT,
                               pdf_join(p, texts[i], ".", NULL)) +
                 3 * scale;
    *at = y;
}

/* The chart's part of a kernel's page at `top`: the chart `chart_h` high
 * (its own title included), a line saying where it is (NEXT_PAGE), or
 * nothing (0). Draws the line when p->page is set; returns the height. */
static double chart_part(pdf *p, double scale, double chart_h, double top)
{
    if (chart_h > 0)
        return 10 * scale + chart_h;
    if (chart_h != NEXT_PAGE)
        return 0;
    pdf_style muted = {RC_FONT_REGULAR, SIZE_BODY * scale, PDF_MUTED};
    return 10 * scale + pdf_paragraph(p, &muted, MARGIN_X, top + 10 * scale, CONTENT_W, PDF_LEFT,
                                      "The roofline chart is on the next page.");
}

/* Each GPU the launch cannot run on (results/launch.h), under the time
 * table, which has no row for it. Returns the height used. */
static double cannot_launch_list(pdf *p, xmlNodePtr k, double scale, double top)
{
    pdf_style body = {RC_FONT_REGULAR, SIZE_BODY * scale, PDF_INK};
    double y = top;
    for (xmlNodePtr c = k->children; c; c = c->next)
        if (is_element(c, "cannot-launch"))
            y += pdf_paragraph(p, &body, MARGIN_X, y + 2 * scale, CONTENT_W, PDF_LEFT,
                               pdf_join(p, tx(p, c, "message", "a GPU"),
                                        "; no estimate is made there.", NULL)) +
                 2 * scale;
    return y - top;
}

/* The blocks of a kernel's page from MARGIN_TOP down, at font scale
 * `scale`, with the chart `chart_h` high (nothing when 0, a line saying
 * where it is when NEXT_PAGE). Draws when
 * p->page is set. Returns the height used; *chart_top is where the chart
 * goes. */
static double kernel_blocks(pdf *p, xmlNodePtr k, double scale, double chart_h,
                            double *chart_top)
{
    double y = MARGIN_TOP;
    kernel_header(p, k, scale, &y);
    glance(p, k, scale, &y);
    /* A launch that runs on no GPU: that is the answer, so it stands where At a glance does. */
    bool runs_nowhere = !child(child(k, "estimates"), "estimate") && child(k, "cannot-launch");
    if (runs_nowhere) {
        y += heading(p, "At a glance: this launch cannot run on any of the GPUs, so nothing is "
                        "estimated", scale, y);
        y += cannot_launch_list(p, k, scale, y) + 8 * scale;
    }
    y += launch_and_work(p, k, scale, y);
    notes_list(p, k, scale, &y);
    y += 10 * scale;
    xmlNodePtr first = child(child(k, "estimates"), "estimate");
    bool refined = first && xmlHasProp(first, (const xmlChar *)"t-estimate");
    y += heading(p, !several_estimates(k)
                        ? "Peak roofline, time per launch in \xC2\xB5s: t_total = max(t_compute, "
                          "t_mem) + t_launch"
                    : refined
                        ? "Peak roofline, time per launch in \xC2\xB5s: t_total = max(t_compute, "
                          "t_mem) + t_launch (bold: fastest by t_estimate)"
                        : "Peak roofline, time per launch in \xC2\xB5s: t_total = max(t_compute, "
                          "t_mem) + t_launch (fastest in bold)",
                 scale, y);
    y += time_table(p, k, y, scale);
    if (!runs_nowhere)
        y += cannot_launch_list(p, k, scale, y);
    if (child(counts(k, "model"), "memory") || child(k, "glance")) {
        /* The levels' and the refined estimate's tables are appendix A of the Markdown and
         * HTML reports: the page keeps to At a glance, the peak roofline and the counts. */
        pdf_style muted = {RC_FONT_REGULAR, SIZE_BODY * scale, PDF_MUTED};
        y += 4 * scale;
        y += pdf_paragraph(p, &muted, MARGIN_X, y, CONTENT_W, PDF_LEFT,
                           pdf_join(p, access_counts(p, k),
                                    "Traffic by cache level and the refined estimate's "
                                    "derivation: appendix A of the Markdown and HTML reports; "
                                    "results.xml holds every intermediate.", NULL));
    }
    *chart_top = y + 10 * scale;
    y += chart_part(p, scale, chart_h, y);
    interpretation(p, k, scale, &y);
    changes_since(p, k, scale, &y);
    return y - MARGIN_TOP;
}

/* The roofline of kernel k for the page: the plot `plot` points high in
 * the description, which is drawn at CHART_SCALE across the column. */
static rc_chart *page_chart(pdf *p, xmlNodePtr k, double plot)
{
    rc_roofline_layout layout = {CONTENT_W / CHART_SCALE, plot, true};
    return rc_chart_new_roofline_laid_out(k, p->gpus, p->fonts, &layout);
}

/* How high the page's chart is, on the page, apart from its plot; -1
 * when the kernel has no chart. */
static double chart_frame_height(pdf *p, xmlNodePtr k)
{
    rc_chart *chart = page_chart(p, k, PLOT_MIN);
    double h = chart ? (rc_chart_height(chart) - PLOT_MIN) * CHART_SCALE : -1;
    rc_chart_free(chart);
    return h;
}

/* The font scales a kernel's page may be set at: 1 - 0.05 x step, for the
 * steps 0 to last_scale_step(), down to MIN_SCALE. */
#define MAX_SCALE_STEPS 16

static double step_scale(int step) { return 1 - 0.05 * step; }

static int last_scale_step(void)
{
    int last = 0;
    while (last + 1 < MAX_SCALE_STEPS && step_scale(last) >= MIN_SCALE + 0.01)
        last++;
    return last;
}

/* The heights of kernel k's page without its chart part, at each scale
 * step measured so far (NAN: not yet): each measure is a whole layout of
 * the page, and page_scale asks for some steps twice when the chart goes
 * to the next page. */
typedef struct {
    double height[MAX_SCALE_STEPS];
} measured_text;

/* What the text of kernel k's page at scale step `step`, with the chart
 * `chart_h` high (or its note, NEXT_PAGE), leaves of the page. The parts
 * of the page are stacked, so its height is the text's without the chart
 * part plus that part's. */
static double room_at(pdf *p, xmlNodePtr k, int step, double chart_h, measured_text *m)
{
    double avail = PAGE_H - MARGIN_BOTTOM - MARGIN_TOP, top = 0;
    /* Measured without the bottom margin's cut, which would hide an overflow. */
    p->page = NULL;
    p->bottom = INFINITY;
    if (isnan(m->height[step]))
        m->height[step] = kernel_blocks(p, k, step_scale(step), 0, &top);
    double used = m->height[step] + chart_part(p, step_scale(step), chart_h, 0);
    return avail - (used - fmax(chart_h, 0));
}

/* The largest font scale step, from 1 down by 0.05 to MIN_SCALE, at which
 * the text of kernel k's page, with the chart `chart_h` high (or its note,
 * NEXT_PAGE), leaves `need` points for the chart; MIN_SCALE when none
 * does. *room is what the text leaves at that scale.
 *
 * Text set smaller never takes more height: every measure of the page
 * scales with it but the column's width, so lines break no earlier. So
 * the scales that fit are those from some step on: the largest one is
 * found by halving the steps between the largest scale (measured first)
 * and the smallest (second, since a page that fits no scale, a dozen
 * GPUs' tables, is common). */
static double page_scale(pdf *p, xmlNodePtr k, double chart_h, double need, double *room,
                         measured_text *m)
{
    int last = last_scale_step();
    *room = room_at(p, k, 0, chart_h, m);
    if (*room >= need || last == 0)
        return step_scale(0);
    double fits_room = room_at(p, k, last, chart_h, m);
    if (fits_room < need) {
        *room = fits_room;
        return step_scale(last);
    }
    int fails = 0, fits = last;
    while (fits - fails > 1) {
        int mid = (fails + fits) / 2;
        double r = room_at(p, k, mid, chart_h, m);
        if (r >= need)
            fits = mid, fits_room = r;
        else
            fails = mid;
    }
    *room = fits_room;
    return step_scale(fits);
}

/* The roofline on a page of its own, under the top margin: the plot as
 * high as PLOT_PAGE or the page allows. */
static void chart_page(pdf *p, xmlNodePtr k, double frame)
{
    double avail = PAGE_H - MARGIN_BOTTOM - MARGIN_TOP;
    rc_chart *chart = page_chart(p, k, fmax(PLOT_MIN, fmin(PLOT_PAGE, (avail - frame) / CHART_SCALE)));
    p->page = chart ? pdf_new_page(p) : NULL;
    if (p->page)
        rc_paint(&rc_painter_pdf, chart,
                 &(rc_paint_target){.page = p->page, .page_fonts = &p->hf, .x = MARGIN_X,
                                     .top = MARGIN_TOP, .scale = CHART_SCALE},
                 NULL, NULL);
    rc_chart_free(chart);
}

/* Adds the page of kernel k: measured first at shrinking scales until its
 * text leaves room for the chart with its smallest plot, then drawn, the
 * plot as high as the room allows. The chart is never scaled down (its
 * text would pass under 6 pt): at the smallest scale, without that room,
 * the chart goes on a second page, and the text is set at the largest
 * scale at which it fits the first alone. */
static void kernel_page(pdf *p, xmlNodePtr k)
{
    double frame = chart_frame_height(p, k), room;
    double smallest = frame >= 0 ? frame + PLOT_MIN * CHART_SCALE : 0, top = 0;
    measured_text m;
    for (int i = 0; i < MAX_SCALE_STEPS; i++)
        m.height[i] = NAN;
    double scale = page_scale(p, k, smallest, smallest, &room, &m);
    double chart_h = frame < 0 ? 0 : room >= smallest ? fmin(frame + PLOT_MAX * CHART_SCALE, room)
                                                      : NEXT_PAGE;
    if (chart_h == NEXT_PAGE)
        scale = page_scale(p, k, NEXT_PAGE, 0, &room, &m);
    rc_chart *chart = chart_h > 0 ? page_chart(p, k, (chart_h - frame) / CHART_SCALE) : NULL;
    p->bottom = PAGE_H - MARGIN_BOTTOM;
    p->page = pdf_new_page(p);
    if (p->page) {
        kernel_blocks(p, k, scale, chart ? rc_chart_height(chart) * CHART_SCALE : chart_h, &top);
        if (chart)
            rc_paint(&rc_painter_pdf, chart,
                     &(rc_paint_target){.page = p->page, .page_fonts = &p->hf, .x = MARGIN_X,
                                         .top = top, .scale = CHART_SCALE},
                     NULL, NULL);
        if (chart_h == NEXT_PAGE)
            chart_page(p, k, frame);
    }
    rc_chart_free(chart);
    p->page = NULL;
}

static xmlNodePtr find_kernel(xmlDocPtr doc, const char *id)
{
    xmlNodePtr kernels = child(xmlDocGetRootElement(doc), "kernels");
    for (xmlNodePtr k = kernels ? kernels->children : NULL; k; k = k->next)
        if (is_element(k, "kernel") && attr_is(k, "id", id))
            return k;
    return NULL;
}

/* ---- a kernel's pages, moved into summary.pdf ------------------------------
 *
 * The pages of a kernel are laid out and drawn once, in its own PDF (or in
 * a document only for them when that file is up to date), and taken into
 * summary.pdf as drawn (pdf_layout.h): the same pages, without the layout
 * twice, and what a later run keeps of a kernel that did not change
 * (.roofcast-cache). Their bytes, all numbers little-endian:
 *
 *   "rcpages1"  u32 title length, the bookmark's title (UTF-8)
 *   u32 pages, then per page: u8 fonts, each font's role (u8),
 *                             u32 length, the deflated operators
 *   per font role (ORDER RC_FONT): u32 glyphs, each glyph id (u16)
 */

#define PAGES_MAGIC "rcpages1"
#define PAGES_MAX_FONTS 8

static void put_u32(rc_buffer *b, size_t v)
{
    char c[4] = {(char)(v & 0xFF), (char)((v >> 8) & 0xFF), (char)((v >> 16) & 0xFF),
                 (char)((v >> 24) & 0xFF)};
    rc_buffer_put(b, c, 4);
}

/* Every page of p as bytes (malloc'd), `title` their bookmark's; NULL
 * when out of memory or a page's fonts are not p's. With `hold`, each
 * page keeps the operators so deflated, and what is drawn after (the
 * footer) goes into a stream of its own: p's file then deflates each page
 * once, not again when saved. */
static char *pages_bytes(pdf *p, const char *title, bool hold, size_t *len)
{
    rc_buffer b = {0};
    bool ok = !p->error && !p->oom;
    rc_buffer_put(&b, PAGES_MAGIC, strlen(PAGES_MAGIC));
    put_u32(&b, strlen(title));
    rc_buffer_puts(&b, title);
    put_u32(&b, p->npages);
    for (size_t i = 0; ok && i < p->npages; i++) {
        uint8_t roles[PAGES_MAX_FONTS];
        size_t nroles = pdf_page_fonts(p, p->pages[i], roles, PAGES_MAX_FONTS), plen = 0;
        unsigned char *packed = nroles <= PAGES_MAX_FONTS ? pdf_page_packed(p->pages[i], &plen)
                                                          : NULL;
        ok = packed != NULL && (!hold || pdf_hold_packed(p->pages[i], packed, plen));
        if (ok) {
            char n = (char)nroles;
            rc_buffer_put(&b, &n, 1);
            rc_buffer_put(&b, (const char *)roles, nroles);
            put_u32(&b, plen);
            rc_buffer_put(&b, (const char *)packed, plen);
        }
        free(packed);
    }
    for (int r = 0; ok && r < RC_FONT_COUNT; r++) {
        size_t n = 0;
        uint16_t *g = pdf_glyphs_used(p, (rc_font_role)r, &n);
        ok = g != NULL;
        put_u32(&b, ok ? n : 0);
        for (size_t k = 0; ok && k < n; k++) {
            char c[2] = {(char)(g[k] & 0xFF), (char)(g[k] >> 8)};
            rc_buffer_put(&b, c, 2);
        }
        free(g);
    }
    char *out = ok ? rc_buffer_take(&b, len) : NULL;
    if (!ok)
        free(b.data);
    return out;
}

/* Kernel k's pages drawn in p (before their footers) as bytes in *pages
 * (NULL there after reporting), each page then holding them (`hold`,
 * pages_bytes). */
static void keep_pages(pdf *p, xmlNodePtr k, bool hold, char **pages, size_t *pages_len)
{
    *pages = pages_bytes(p, kernel_name(p, k), hold, pages_len);
    if (!*pages) {
        p->oom = true;
        rc_error_at(p->diag, NULL, 0, "%s: its pages for summary.pdf: out of memory", p->output);
    }
}

char *rc_render_pdf_kernel(xmlDocPtr doc, const char *kernel_id, const rc_fonts *fonts,
                           size_t *len, char **pages, size_t *pages_len, rc_diag *diag)
{
    char output[256];
    snprintf(output, sizeof output, "%s.pdf", kernel_id);
    char *out = NULL;
    if (pages)
        *pages = NULL;
    pdf p;
    if (!pdf_open(&p, fonts, output, diag))
        goto end;
    p.gpus = child(xmlDocGetRootElement(doc), "gpus");
    xmlNodePtr k = find_kernel(doc, kernel_id);
    if (!k) {
        rc_error_at(diag, NULL, 0, "%s: no kernel '%s' in the results", output, kernel_id);
        goto end;
    }
    const char *name = kernel_name(&p, k);
    HPDF_SetInfoAttr(p.pdf, HPDF_INFO_TITLE, pdf_join(&p, name, ": execution time estimates", NULL));
    HPDF_SetInfoAttr(p.pdf, HPDF_INFO_SUBJECT,
                     tx(&p, child(k, "summary"), NULL, "the kernel's summary"));
    kernel_page(&p, k);
    /* Made whether or not the caller takes them: the pages deflated once,
     * and the file the same bytes either way. */
    char *made = NULL;
    size_t made_len = 0;
    keep_pages(&p, k, true, &made, &made_len);
    if (pages) {
        *pages = made;
        *pages_len = made_len;
    } else {
        free(made);
    }
    for (size_t i = 0; i < p.npages; i++) {
        char number[64];
        snprintf(number, sizeof number, "Page %zu of %zu", i + 1, p.npages);
        footer(&p, p.pages[i], p.npages > 1 ? number : NULL);
    }
    out = pdf_save(&p, len);
end:
    pdf_close(&p);
    return out;
}

char *rc_render_pdf_pages(xmlNodePtr gpus, xmlNodePtr kernel, const rc_fonts *fonts, size_t *len,
                          rc_diag *diag)
{
    char *pages = NULL;
    pdf p;
    if (pdf_open(&p, fonts, "summary.pdf", diag)) {
        p.gpus = gpus;
        kernel_page(&p, kernel);
        keep_pages(&p, kernel, false, &pages, len);
    }
    pdf_close(&p);
    return pages;
}

/* ---- summary.pdf -------------------------------------------------------- */

typedef struct {
    xmlNodePtr *kernels, *gpus;
    size_t nk, ng;
    size_t first_kernel_page; /* 1-based page number of the first kernel */
    const size_t *kernel_page; /* each kernel's page among the kernels' pages */
    rc_chart_overview *chart;  /* the overview chart's parts' common ground */
} overview;

/* The t_total of kernel ki on GPU gi, bold when fastest. */
/* Whether the overview's first table is t_estimate: the estimates have one (all or none). */
static bool overview_refined(const overview *o)
{
    for (size_t k = 0; k < o->nk; k++) {
        xmlNodePtr e = child(child(o->kernels[k], "estimates"), "estimate");
        if (e)
            return xmlHasProp(e, X("t-estimate")) != NULL;
    }
    return false;
}

/* A cell of the overview: t_estimate, the fastest bold (`estimate`), or t_total, bold only
 * where there is no t_estimate to follow. */
static pdf_cell time_cell(pdf *p, const overview *o, size_t ki, size_t gi, bool estimate)
{
    xmlChar *gid = xmlGetProp(o->gpus[gi], X("id"));
    xmlNodePtr est = child(o->kernels[ki], "estimates");
    pdf_cell c = {"\xE2\x80\x93", false};
    bool refined = overview_refined(o);
    for (xmlNodePtr e = est ? est->children : NULL; gid && e; e = e->next)
        if (is_element(e, "estimate") && attr_is(e, "gpu", (const char *)gid)) {
            c.text = tx(p, e, estimate && refined ? "t-estimate-text" : "t-total-text", "");
            c.bold = o->ng > 1 && attr_is(e, "fastest", "yes") && estimate == refined;
        }
    for (xmlNodePtr e = o->kernels[ki]->children; gid && e; e = e->next)
        if (is_element(e, "cannot-launch") && attr_is(e, "gpu", (const char *)gid))
            c.text = "cannot launch"; /* no estimate (results/launch.h) */
    xmlFree(gid);
    return c;
}

/* The overview table has a row per GPU and a column per kernel when there
 * are no more kernels than GPUs, else the other way round. */
static bool kernel_columns(const overview *o) { return o->nk <= o->ng; }

/* One band of the overview table: the row labels and value columns
 * c0..c0 + nc. Fills t's cells and right, which the caller frees, or
 * returns false when out of memory. */
static bool band_table(pdf *p, const overview *o, size_t c0, size_t nc, bool estimate,
                       pdf_table *t)
{
    bool kernel_cols = kernel_columns(o);
    size_t nrows = kernel_cols ? o->ng : o->nk, tc = nc + 1;
    pdf_cell *cells = calloc((nrows + 1) * tc, sizeof *cells);
    bool *right = calloc(tc, sizeof *right);
    if (!cells || !right) {
        free(cells);
        free(right);
        p->oom = true;
        return false;
    }
    cells[0] = (pdf_cell){kernel_cols ? "GPU \\ kernel" : "Kernel \\ GPU", false};
    for (size_t c = 0; c < nc; c++) {
        right[c + 1] = true;
        cells[c + 1] = (pdf_cell){kernel_cols ? kernel_name(p, o->kernels[c0 + c])
                                              : gpu_name(p, o->gpus[c0 + c]),
                                  false};
    }
    for (size_t r = 0; r < nrows; r++) {
        cells[(r + 1) * tc] = (pdf_cell){kernel_cols ? gpu_name(p, o->gpus[r])
                                                     : kernel_name(p, o->kernels[r]),
                                         false};
        for (size_t c = 0; c < nc; c++)
            cells[(r + 1) * tc + c + 1] = kernel_cols ? time_cell(p, o, c0 + c, r, estimate)
                                                      : time_cell(p, o, r, c0 + c, estimate);
    }
    *t = (pdf_table){nrows + 1, tc, cells, right, true, true, true, SIZE_TABLE, 3, NULL, NULL};
    return true;
}

/* Sets a measured band row by row, flowing onto new pages with its
 * header; kernel names link to their pages. */
static void flow_band(pdf *p, const overview *o, pdf_flow *f, const pdf_table *t, size_t c0)
{
    bool kernel_cols = kernel_columns(o);
    size_t nrows = t->nrows - 1, nc = t->ncols - 1;
    for (size_t r = 0; r <= nrows; r++) {
        /* The header stays with the first row below it. */
        double need = t->row_h[r] + (r == 0 && nrows > 0 ? t->row_h[1] : 0);
        size_t before = f->page;
        pdf_flow_need(p, f, need);
        if (f->page != before && r > 0) /* the header again on the new page */
            f->y += pdf_table_row(p, t, 0, MARGIN_X, f->y);
        if (kernel_cols && r == 0) {
            double x = MARGIN_X + t->col_w[0];
            for (size_t c = 0; c < nc; c++) {
                pdf_add_link(p, f->page, c0 + c, x, f->y, t->col_w[c + 1], t->row_h[0]);
                x += t->col_w[c + 1];
            }
        } else if (!kernel_cols && r > 0)
            pdf_add_link(p, f->page, r - 1, MARGIN_X, f->y, t->col_w[0], t->row_h[r]);
        f->y += pdf_table_row(p, t, r, MARGIN_X, f->y);
    }
}

/* The value columns of one band: as many as leave each at least 58 pt
 * beside the row labels, in bands of even width. */
static size_t columns_per_band(pdf *p, const overview *o)
{
    bool kernel_cols = kernel_columns(o);
    size_t nrows = kernel_cols ? o->ng : o->nk, ncols = kernel_cols ? o->nk : o->ng;
    pdf_style st = {RC_FONT_REGULAR, SIZE_TABLE, PDF_INK};
    double label_w = 0;
    for (size_t r = 0; r < nrows; r++) {
        const char *s = kernel_cols ? gpu_name(p, o->gpus[r]) : kernel_name(p, o->kernels[r]);
        label_w = fmax(label_w, pdf_width(p, &st, s, strlen(s)));
    }
    label_w = fmin(label_w + 6, CONTENT_W * 0.34);
    double min_col = 58;
    size_t per_band = (size_t)fmax(1, floor((CONTENT_W - label_w) / min_col));
    size_t nbands = (ncols + per_band - 1) / per_band;
    return nbands ? (ncols + nbands - 1) / nbands : 1;
}

/* The overview table; columns that do not fit the width go into further
 * bands, each repeating the row labels. Rows flow onto new pages with
 * their header. */
static void overview_table(pdf *p, const overview *o, pdf_flow *f, bool estimate)
{
    size_t ncols = kernel_columns(o) ? o->nk : o->ng, per_band = columns_per_band(p, o);
    for (size_t band = 0; band * per_band < ncols; band++) {
        size_t c0 = band * per_band, nc = ncols - c0 < per_band ? ncols - c0 : per_band;
        pdf_table t;
        if (!band_table(p, o, c0, nc, estimate, &t))
            return;
        double saved = p->bottom;
        p->bottom = INFINITY;
        if (pdf_table_measure(p, &t, CONTENT_W)) {
            f->y += band > 0 ? 10 : 0;
            flow_band(p, o, f, &t, c0);
        }
        p->bottom = saved;
        pdf_table_free(&t);
        free(t.cells);
        free((bool *)t.right);
    }
}

/* The overview's title, what it shows, and its table. */
static void overview_head(pdf *p, const overview *o, pdf_flow *f)
{
    char counts_text[96];
    snprintf(counts_text, sizeof counts_text, "%zu kernel%s on %zu GPU%s", o->nk,
             o->nk == 1 ? "" : "s", o->ng, o->ng == 1 ? "" : "s");
    f->y += title(p, "Execution time estimates", 1, f->y);
    pdf_style sub = {RC_FONT_REGULAR, SIZE_SUBTITLE, PDF_MUTED};
    bool refined = overview_refined(o);
    f->y += 2 + pdf_paragraph(p, &sub, MARGIN_X, f->y + 2, CONTENT_W, PDF_LEFT,
                              pdf_join(p, counts_text,
                                       refined ? ": t_estimate per launch in \xC2\xB5s, the refined "
                                                 "estimate to plan with, then t_total, the peak "
                                                 "roofline; from declared work and the GPUs' "
                                                 "figures. GPUs in the order of their FP32 peak."
                                               : ": t_total per launch in \xC2\xB5s, from "
                                                 "declared work and the GPUs' figures.",
                                       o->ng < 2 ? ""
                                       : refined ? " Bold: the fastest GPUs for each kernel by "
                                                   "t_estimate (within 10 % of its fastest)."
                                                 : " Bold: the fastest GPU for each kernel.",
                                       NULL));
    f->y += 4;
    pdf_rule(p, MARGIN_X, f->y, CONTENT_W, 0.6);
    f->y += 10;
    if (refined) {
        f->y += heading(p, "t_estimate (\xC2\xB5s) of every kernel on every GPU", 1, f->y);
        overview_table(p, o, f, true);
        f->y += 10;
        pdf_flow_need(p, f, 3 * SIZE_HEADING);
        f->y += heading(p, "Peak roofline: t_total (\xC2\xB5s) of every kernel on every GPU", 1,
                        f->y);
    } else
        f->y += heading(p, "t_total (\xC2\xB5s) of every kernel on every GPU", 1, f->y);
    overview_table(p, o, f, false);
}

/* Each kernel's name and summary, its page number on the right, all a
 * link to its page. */
static void contents(pdf *p, const overview *o, pdf_flow *f)
{
    pdf_style body = {RC_FONT_REGULAR, SIZE_BODY, PDF_INK}, bold = {RC_FONT_BOLD, SIZE_BODY, PDF_INK};
    f->y += 14;
    pdf_flow_need(p, f, 3 * SIZE_HEADING);
    f->y += heading(p, "Contents", 1, f->y);
    for (size_t i = 0; i < o->nk; i++) {
        char page_no[32];
        snprintf(page_no, sizeof page_no, "page %zu",
                 o->first_kernel_page +
                     (o->kernel_page[i] == PDF_NO_PAGE ? i : o->kernel_page[i]));
        double pw = pdf_width(p, &body, page_no, strlen(page_no));
        double w = CONTENT_W - pw - 12;
        const char *name = kernel_name(p, o->kernels[i]);
        const char *summary = tx(p, child(o->kernels[i], "summary"), NULL, "the kernel's summary");
        double saved = p->bottom;
        pdf_flow_need(p, f, pdf_measure(p, &bold, w, name) + pdf_measure(p, &body, w - 10, summary));
        p->bottom = PAGE_H - MARGIN_BOTTOM;
        double top = f->y;
        f->y += pdf_paragraph(p, &bold, MARGIN_X, f->y, w, PDF_LEFT, name);
        f->y += pdf_paragraph(p, &body, MARGIN_X + 10, f->y, w - 10, PDF_LEFT, summary);
        pdf_text(p, &body, PAGE_W - MARGIN_X - pw, top + body.size, page_no, strlen(page_no));
        pdf_add_link(p, f->page, i, MARGIN_X, top, CONTENT_W, f->y - top);
        p->bottom = saved;
        f->y += 4;
    }
}

/* The inputs the run rejected, when there are any: file:line: message. */
static void rejected_inputs(pdf *p, xmlDocPtr doc, pdf_flow *f)
{
    xmlNodePtr rejected = child(xmlDocGetRootElement(doc), "rejected");
    if (!rejected || !rejected->children)
        return;
    pdf_style body = {RC_FONT_REGULAR, SIZE_BODY, PDF_INK};
    f->y += 10;
    pdf_flow_need(p, f, 3 * SIZE_HEADING);
    f->y += heading(p, "Rejected inputs (not in this summary)", 1, f->y);
    for (xmlNodePtr r = rejected->children; r; r = r->next) {
        if (!is_element(r, "input"))
            continue;
        const char *file = tx(p, r, "file", "a file name");
        const char *line = tx(p, r, "line-text", "");
        const char *text = pdf_join(p, file, *line ? ":" : "", line, ": ",
                                    tx(p, r, "message", "a message"), NULL);
        double saved = p->bottom;
        pdf_flow_need(p, f, pdf_measure(p, &body, CONTENT_W, text));
        p->bottom = PAGE_H - MARGIN_BOTTOM;
        f->y += pdf_paragraph(p, &body, MARGIN_X, f->y, CONTENT_W, PDF_LEFT, text) + 2;
        p->bottom = saved;
    }
}

/* The part of the overview from kernel `first` that fits under f->y
 * (14 points down) at CHART_SCALE, legible: all the kernels left, or, at
 * the top of a page, as many as the page holds (at least one). NULL when
 * none fits; *count is how many it has. A part is taller the more kernels
 * it has, so the most that fit are found by halving: some 10 charts made
 * for a page of 1,000 kernels, where counting down made up to 20 a page. */
static rc_chart *overview_part(pdf *p, const rc_chart_overview *ov, const pdf_flow *f,
                               size_t first, size_t *count)
{
    double room = PAGE_H - MARGIN_BOTTOM - (f->y + 14);
    bool page_top = f->y <= MARGIN_TOP;
    double width = CONTENT_W / CHART_SCALE;
    rc_chart *best = rc_chart_new_overview_of(ov, p->fonts, width, first, *count);
    if (!best || rc_chart_height(best) * CHART_SCALE <= room || (page_top && *count <= 1))
        return best;
    rc_chart_free(best);
    if (!page_top)
        return NULL;
    /* fits(lo) (one kernel always goes at the top of a page), !fits(hi) */
    size_t lo = 1, hi = *count;
    best = NULL;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        rc_chart *chart = rc_chart_new_overview_of(ov, p->fonts, width, first, mid);
        if (!chart) {
            rc_chart_free(best);
            return NULL;
        }
        if (rc_chart_height(chart) * CHART_SCALE <= room) {
            rc_chart_free(best);
            best = chart;
            lo = mid;
        } else {
            rc_chart_free(chart);
            hi = mid;
        }
    }
    if (!best)
        best = rc_chart_new_overview_of(ov, p->fonts, width, first, lo);
    *count = lo;
    return best;
}

/* The overview chart after the rest: in the room left on the last page
 * when it fits there, else from a new page, in parts of as many kernels as
 * a page holds; always at CHART_SCALE, so no text is under 6 pt. */
static void overview_chart(pdf *p, xmlDocPtr doc, const overview *o, pdf_flow *f)
{
    xmlNodePtr root = xmlDocGetRootElement(doc);
    size_t nk = rc_chart_overview_kernels(root), first = 0;
    do {
        size_t count = nk > first ? nk - first : 0;
        rc_chart *chart = overview_part(p, o->chart, f, first, &count);
        if (!chart) {
            pdf_flow_need(p, f, INFINITY);
            count = nk > first ? nk - first : 0;
            chart = overview_part(p, o->chart, f, first, &count);
        }
        if (!chart)
            return;
        double top = f->y + 14;
        if (p->page)
            rc_paint(&rc_painter_pdf, chart,
                     &(rc_paint_target){.page = p->page, .page_fonts = &p->hf, .x = MARGIN_X,
                                         .top = top, .scale = CHART_SCALE},
                     NULL, NULL);
        f->y = top + rc_chart_height(chart) * CHART_SCALE;
        rc_chart_free(chart);
        first += count;
    } while (first < nk);
}

/* The overview pages: title, table, contents, rejected inputs and the
 * overview chart. */
static void overview_pages(pdf *p, xmlDocPtr doc, const overview *o, pdf_flow *f)
{
    overview_head(p, o, f);
    contents(p, o, f);
    rejected_inputs(p, doc, f);
    overview_chart(p, doc, o, f);
}

/* Lists the element children of `parent` named `name`; the caller frees. */
static xmlNodePtr *elements(xmlNodePtr parent, const char *name, size_t *n)
{
    *n = 0;
    for (xmlNodePtr c = parent ? parent->children : NULL; c; c = c->next)
        *n += is_element(c, name);
    xmlNodePtr *v = calloc(*n + 1, sizeof *v);
    size_t i = 0;
    for (xmlNodePtr c = parent ? parent->children : NULL; v && c; c = c->next)
        if (is_element(c, name))
            v[i++] = c;
    return v;
}

/* summary.pdf made as the kernels come: each kernel's page is added when
 * that kernel is done, so a long run keeps pages rather than the kernels'
 * trees, and the overview pages go in front of them at the end.
 *
 * Once a page is drawn, its operators are moved into p.spill, the
 * caller's scratch file (pdf_seal_page). The footers ("Page 3 of 40") are
 * drawn at the end, into a second content stream each page gets when it
 * is sealed. Without a scratch file, or once writing to it fails, pages
 * stay in memory. */
struct rc_pdf_summary {
    pdf p;
    bool open;           /* pdf_open succeeded */
    bool failed;         /* a kernel's pages could not be added */
    size_t nkernels, cap;
    size_t *kernel_page; /* each kernel's page among the kernels' pages; PDF_NO_PAGE: none */
};

rc_pdf_summary *rc_pdf_summary_new(const rc_fonts *fonts, FILE *scratch, rc_diag *diag)
{
    rc_pdf_summary *s = calloc(1, sizeof *s);
    if (!s) {
        rc_error_at(diag, NULL, 0, "summary.pdf: out of memory");
        return NULL;
    }
    s->open = pdf_open(&s->p, fonts, "summary.pdf", diag);
    s->p.spill = scratch;
    return s;
}

/* Reads pages' bytes (pages_bytes) front to back. */
typedef struct {
    const unsigned char *at, *end;
    bool bad;
} reader;

static const unsigned char *take(reader *rd, size_t n)
{
    if (rd->bad || (size_t)(rd->end - rd->at) < n) {
        rd->bad = true;
        return NULL;
    }
    const unsigned char *got = rd->at;
    rd->at += n;
    return got;
}

static size_t take_u32(reader *rd)
{
    const unsigned char *c = take(rd, 4);
    return c ? (size_t)c[0] | (size_t)c[1] << 8 | (size_t)c[2] << 16 | (size_t)c[3] << 24 : 0;
}

/* The pages of `rd` added to p, their glyphs marked; their title returned
 * (the caller frees it), or NULL when the bytes are not whole. */
static char *add_pages(pdf *p, reader *rd)
{
    const unsigned char *magic = take(rd, strlen(PAGES_MAGIC));
    if (!magic || memcmp(magic, PAGES_MAGIC, strlen(PAGES_MAGIC)) != 0)
        return NULL;
    size_t tlen = take_u32(rd);
    const unsigned char *t = take(rd, tlen);
    char *title = t ? malloc(tlen + 1) : NULL;
    if (title) {
        memcpy(title, t, tlen);
        title[tlen] = '\0';
    }
    size_t npages = take_u32(rd);
    for (size_t i = 0; i < npages && !rd->bad; i++) {
        const unsigned char *n = take(rd, 1);
        const unsigned char *roles = n ? take(rd, *n) : NULL;
        size_t plen = take_u32(rd);
        const unsigned char *packed = take(rd, plen);
        if (packed && !pdf_add_packed_page(p, packed, plen, roles, *n))
            return NULL;
    }
    for (int r = 0; r < RC_FONT_COUNT && !rd->bad; r++) {
        size_t n = take_u32(rd);
        const unsigned char *g = take(rd, 2 * n);
        for (size_t k = 0; g && k < n; k++)
            pdf_mark_glyph(p, (rc_font_role)r, (unsigned)(g[2 * k] | g[2 * k + 1] << 8));
    }
    if (!title || rd->bad || rd->at != rd->end) {
        free(title);
        return NULL;
    }
    return title;
}

/* Whether `packed` is one whole zlib stream (a page's deflated
 * operators): it inflates to its end and nothing follows. */
static bool inflates_whole(const unsigned char *packed, size_t len)
{
    z_stream z = {0};
    if (len == 0 || len > UINT_MAX || inflateInit(&z) != Z_OK)
        return false;
    unsigned char out[16384];
    z.next_in = (Bytef *)packed; /* zlib does not write it */
    z.avail_in = (uInt)len;
    int rc;
    do {
        z.next_out = out;
        z.avail_out = sizeof out;
        rc = inflate(&z, Z_NO_FLUSH);
    } while (rc == Z_OK);
    bool whole = rc == Z_STREAM_END && z.avail_in == 0;
    inflateEnd(&z);
    return whole;
}

bool rc_render_pdf_pages_whole(const char *pages, size_t len)
{
    reader rd = {(const unsigned char *)pages, (const unsigned char *)pages + len, false};
    const unsigned char *magic = take(&rd, strlen(PAGES_MAGIC));
    if (!magic || memcmp(magic, PAGES_MAGIC, strlen(PAGES_MAGIC)) != 0)
        return false;
    size_t tlen = take_u32(&rd);
    const unsigned char *t = take(&rd, tlen);
    char *title = t && tlen > 0 && !memchr(t, '\0', tlen) ? malloc(tlen + 1) : NULL;
    if (title) {
        memcpy(title, t, tlen);
        title[tlen] = '\0';
    }
    bool utf8 = title && xmlCheckUTF8((const xmlChar *)title); /* the bookmark's text */
    free(title);
    if (!utf8)
        return false;
    size_t npages = take_u32(&rd);
    if (npages == 0)
        return false;
    for (size_t i = 0; i < npages && !rd.bad; i++) {
        const unsigned char *n = take(&rd, 1);
        const unsigned char *roles = n && *n <= PAGES_MAX_FONTS ? take(&rd, *n) : NULL;
        for (size_t k = 0; roles && k < *n; k++)
            if (roles[k] >= RC_FONT_COUNT)
                return false;
        size_t plen = roles ? take_u32(&rd) : 0;
        const unsigned char *packed = roles ? take(&rd, plen) : NULL;
        if (!packed || !inflates_whole(packed, plen))
            return false;
    }
    for (int r = 0; r < RC_FONT_COUNT && !rd.bad; r++) {
        size_t n = take_u32(&rd);
        take(&rd, n > len ? len + 1 : 2 * n);
    }
    return !rd.bad && rd.at == rd.end;
}

static bool grow_kernels(rc_pdf_summary *s)
{
    if (s->nkernels < s->cap)
        return true;
    size_t cap = s->cap ? 2 * s->cap : 64;
    size_t *v = realloc(s->kernel_page, cap * sizeof *v);
    if (!v)
        return false;
    s->kernel_page = v;
    s->cap = cap;
    return true;
}

bool rc_pdf_summary_add_pages(rc_pdf_summary *s, const char *pages, size_t len)
{
    pdf *p = &s->p;
    if (!grow_kernels(s)) {
        p->oom = true;
        return false;
    }
    size_t page = PDF_NO_PAGE;
    bool whole = true;
    if (s->open && !p->error && !p->oom) {
        size_t before = p->npages;
        reader rd = {(const unsigned char *)pages, (const unsigned char *)pages + len, false};
        char *title = add_pages(p, &rd);
        whole = title != NULL;
        if (whole && p->npages > before) {
            page = before;
            HPDF_Outline mark = HPDF_CreateOutline(p->pdf, NULL, title,
                                                   HPDF_GetEncoder(p->pdf, "UTF-8"));
            HPDF_Destination dst = HPDF_Page_CreateDestination(p->pages[before]);
            if (mark && dst) {
                HPDF_Destination_SetFit(dst);
                HPDF_Outline_SetDestination(mark, dst);
            }
        }
        free(title); /* libharu keeps a copy */
        if (!whole)
            rc_error_at(p->diag, NULL, 0, "summary.pdf: a kernel's pages are not whole (a bug)");
        s->failed |= !whole;
    }
    s->kernel_page[s->nkernels++] = page;
    return whole;
}

void rc_pdf_summary_add(rc_pdf_summary *s, xmlNodePtr gpus, xmlNodePtr kernel)
{
    size_t len = 0;
    char *pages = rc_render_pdf_pages(gpus, kernel, s->p.fonts, &len, s->p.diag);
    if (pages) {
        rc_pdf_summary_add_pages(s, pages, len);
    } else if (grow_kernels(s)) {
        s->failed = true;
        s->kernel_page[s->nkernels++] = PDF_NO_PAGE;
    } else {
        s->p.oom = true;
    }
    free(pages);
}

/* summary.pdf's title and subject, and its bookmarks shown on opening. */
static void summary_info(pdf *p, const overview *o)
{
    char subject[96];
    snprintf(subject, sizeof subject,
             "t_total of %zu kernel%s on %zu GPU%s, then each kernel's report",
             o->nk, o->nk == 1 ? "" : "s", o->ng, o->ng == 1 ? "" : "s");
    HPDF_SetInfoAttr(p->pdf, HPDF_INFO_TITLE, "roofcast summary: execution time estimates");
    HPDF_SetInfoAttr(p->pdf, HPDF_INFO_SUBJECT, subject);
    HPDF_SetPageMode(p->pdf, HPDF_PAGE_MODE_USE_OUTLINE);
}

/* Sets the overview pages in front of the kernels' pages; returns the
 * index of the first. They are measured first: their page count numbers
 * the kernels' pages, and those numbers are in them (a wider number could
 * wrap a line). */
static size_t overview_in_front(pdf *p, xmlDocPtr doc, overview *o)
{
    pdf_flow f;
    o->first_kernel_page = 2;
    p->page = NULL;
    size_t owned = p->nowned;
    for (int pass = 0; pass < 3; pass++) {
        f = (pdf_flow){MARGIN_TOP, 0};
        overview_pages(p, doc, o, &f);
        pdf_drop_owned(p, owned);
        if (o->first_kernel_page == f.page + 2)
            break;
        o->first_kernel_page = f.page + 2;
    }
    p->insert_at = 1;
    f = (pdf_flow){MARGIN_TOP, 0};
    p->page = pdf_new_page(p);
    if (p->page)
        overview_pages(p, doc, o, &f);
    pdf_drop_owned(p, owned);
    p->page = NULL;
    size_t first = p->insert_at - 1;
    p->insert_at = 0;
    return first;
}

bool rc_pdf_summary_finish(rc_pdf_summary *s, xmlDocPtr doc, const rc_sink *sink)
{
    pdf *p = &s->p;
    bool out = false;
    overview o = {0};
    if (!s->open)
        return false;
    xmlNodePtr root = xmlDocGetRootElement(doc);
    p->gpus = child(root, "gpus");
    o.kernels = elements(child(root, "kernels"), "kernel", &o.nk);
    o.gpus = elements(p->gpus, "gpu", &o.ng);
    o.kernel_page = s->kernel_page;
    o.chart = rc_chart_overview_new(root, p->fonts);
    if (!o.kernels || !o.gpus || !o.chart || p->oom) {
        rc_error_at(p->diag, NULL, 0, "summary.pdf: out of memory");
        goto end;
    }
    if (s->failed)
        goto end; /* reported */
    if (o.nk != s->nkernels) {
        rc_error_at(p->diag, NULL, 0, "summary.pdf: %zu kernel pages for %zu kernels (a bug)",
                    s->nkernels, o.nk);
        goto end;
    }
    summary_info(p, &o);
    pdf_make_links(p, overview_in_front(p, doc, &o), s->kernel_page, s->nkernels);
    for (size_t i = 0; i < p->npages; i++) {
        char number[64];
        snprintf(number, sizeof number, "Page %zu of %zu", i + 1, p->npages);
        footer(p, p->pages[i], number);
    }
    out = pdf_write(p, sink);
end:
    free(o.kernels);
    free(o.gpus);
    rc_chart_overview_free(o.chart);
    return out;
}

void rc_pdf_summary_free(rc_pdf_summary *s)
{
    if (!s)
        return;
    pdf_close(&s->p);
    free(s->kernel_page);
    free(s);
}

char *rc_render_pdf_summary(xmlDocPtr doc, const rc_fonts *fonts, size_t *len, rc_diag *diag)
{
    rc_pdf_summary *s = rc_pdf_summary_new(fonts, NULL, diag);
    if (!s)
        return NULL;
    xmlNodePtr root = xmlDocGetRootElement(doc), gpus = child(root, "gpus");
    xmlNodePtr kernels = child(root, "kernels");
    for (xmlNodePtr k = kernels ? kernels->children : NULL; k; k = k->next)
        if (is_element(k, "kernel"))
            rc_pdf_summary_add(s, gpus, k);
    rc_buffer b = {0};
    rc_sink sink = {pdf_put_in_buffer, &b};
    char *out = NULL;
    if (rc_pdf_summary_finish(s, doc, &sink)) {
        out = rc_buffer_take(&b, len); /* frees the buffer when it fails */
        if (!out)
            rc_error_at(diag, NULL, 0, "summary.pdf: out of memory");
    } else {
        free(b.data);
    }
    rc_pdf_summary_free(s);
    return out;
}

