/* render_pdf.c: a kernel's page of the PDF summaries for design reviews:
 * what it says, laid out with pdf_layout.h, and the font scale it is set at.
 *
 * <kernel>.pdf is one A4 page: the kernel's name and summary, its launch
 * and totals, the time table on every GPU, the roofline chart (chart.h,
 * painted as vectors by paint_hpdf.c) and the interpretation; when the
 * chart does not fit under the text at a legible size (a dozen GPUs), it
 * has a second page of its own. summary.pdf (render_pdf_summary.c) is an
 * overview followed by the same pages for each kernel, taken as drawn
 * (render_pdf_pages.c). render_pdf.h lists what these files share.
 *
 * Like every renderer this reads only the results tree and prints numbers
 * only from its *-text attributes. Text from the inputs passes through
 * pr_tx (render_pdf_text.c): a character the fonts cannot show is printed
 * as U+FFFD and reported once as a warning against its input file.
 *
 * A kernel's page is first measured at a font scale, shrunk until it fits,
 * then drawn with the same code; at the smallest scale a block that still
 * does not fit is cut with an ellipsis at the bottom margin.
 */
#include "render/render_pdf.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "paint/font.h"
#include "paint/paint_hpdf.h"
#include "render/chart.h"
#include "results/results.h"

#define X(s) ((const xmlChar *)(s))

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

/* The noun that agrees with count `attr` of n: " block" for 1, else
 * " blocks" (as words.xsl's count template in Markdown and HTML). */
static const char *noun(xmlNodePtr n, const char *attr, const char *one, const char *many)
{
    return pr_attr_is(n, attr, "1") ? one : many;
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
    xmlNodePtr est = pr_child(kernel, "estimates");
    size_t n = 0;
    for (xmlNodePtr e = est ? est->children : NULL; e && n < 2; e = e->next)
        n += pr_is_element(e, "estimate");
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
    xmlNodePtr est = pr_child(kernel, "estimates");
    size_t n = 0;
    for (xmlNodePtr e = est ? est->children : NULL; e; e = e->next)
        n += pr_is_element(e, "estimate");
    pdf_cell *cells = calloc((n + 1) * NCOLS, sizeof *cells);
    if (!cells) {
        p->oom = true;
        return 0;
    }
    for (size_t c = 0; c < NCOLS; c++)
        cells[c] = (pdf_cell){head[c], false};
    size_t r = 1;
    for (xmlNodePtr e = est ? est->children : NULL; e; e = e->next) {
        if (!pr_is_element(e, "estimate"))
            continue;
        /* With one GPU, "fastest" compares nothing: nothing is bold. */
        bool fastest = n > 1 && pr_attr_is(e, "fastest", "yes");
        for (size_t c = 0; c < NCOLS; c++)
            cells[r * NCOLS + c] = (pdf_cell){pr_tx(p, e, attrs[c], "the GPU's name"),
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
    xmlNodePtr m = pr_child(counts(k, "model"), "memory");
    if (!m)
        return "";
    char text[512];
    snprintf(text, sizeof text,
             "Accesses: %s B accessed in %s %s, %s B of sectors moved, footprint %s B%s. ",
             pr_tx(p, m, "accessed-bytes-text", "a count"), pr_tx(p, m, "requests-text", "a count"),
             noun(m, "requests", "request", "requests"),
             pr_tx(p, m, "sector-bytes-text", "a count"),
             pr_tx(p, m, "footprint-bytes-text", "a count"),
             pr_attr_is(m, "sampled", "yes") ? " (estimated from a sample of blocks)" : "");
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
    xmlNodePtr glance = pr_child(kernel, "glance");
    bool refined = glance && pr_attr_is(glance, "order", "t-estimate");
    size_t ncols = refined ? NCOLS : 1, n = 0;
    for (xmlNodePtr e = glance ? glance->children : NULL; e; e = e->next)
        n += pr_is_element(e, "row");
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
        if (!pr_is_element(e, "row"))
            continue;
        bool fastest = pr_attr_is(e, "fastest", "yes");
        for (size_t c = 0; c < ncols; c++)
            cells[r * ncols + c] = (pdf_cell){
                pr_tx(p, e, refined ? attrs[c] : c ? "t-total-text" : "gpu-name", "the glance"),
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
    xmlNodePtr g = pr_child(k, "glance");
    if (!g || !pr_child(g, "row"))
        return;
    double y = *at;
    bool several = false;
    for (xmlNodePtr e = g->children; e; e = e->next)
        several |= pr_is_element(e, "row") && pr_attr_is(e, "fastest", "yes");
    y += pr_heading(p, pr_attr_is(g, "order", "t-estimate")
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
    xmlNodePtr verdict = pr_child(g, "verdict");
    for (xmlNodePtr q = verdict ? verdict->children : NULL; q; q = q->next)
        if (pr_is_element(q, "p"))
            y += pdf_paragraph(p, &body, MARGIN_X, y, CONTENT_W, PDF_LEFT,
                               pr_tx(p, q, NULL, "the verdict")) +
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
    y += pr_title(p, pr_kernel_name(p, k), scale, y);
    pdf_style sub = {RC_FONT_REGULAR, SIZE_SUBTITLE * scale, PDF_MUTED};
    double saved = p->bottom;
    p->bottom = fmin(saved, y + 2 * scale + 4 * pdf_leading(&sub) + 0.01);
    y += 2 * scale + pdf_paragraph(p, &sub, MARGIN_X, y + 2 * scale, CONTENT_W, PDF_LEFT,
                                   pr_tx(p, pr_child(k, "summary"), NULL, "the kernel's summary"));
    p->bottom = saved;
    y += 4 * scale;
    pdf_rule(p, MARGIN_X, y, CONTENT_W, 0.6);
    *at = y + 8 * scale;
}

/* The launch: grid, block, threads and each parameter. f has room for 3
 * facts and one per parameter; returns how many were written. */
static size_t launch_facts(pdf *p, xmlNodePtr k, fact *f, size_t room)
{
    xmlNodePtr launch = pr_child(k, "launch"), params = pr_child(k, "params");
    size_t n = 0;
    f[n++] = (fact){"Grid", pdf_join(p, pr_tx(p, launch, "grid", "the grid"), " \xE2\x86\x92 ",
                                     pr_tx(p, launch, "blocks-text", ""),
                                     noun(launch, "blocks", " block", " blocks"), NULL)};
    f[n++] = (fact){"Block", pdf_join(p, pr_tx(p, launch, "block", "the block"), " \xE2\x86\x92 ",
                                      pr_tx(p, launch, "threads-per-block-text", ""),
                                      noun(launch, "threads-per-block", " thread", " threads"),
                                      " per block", NULL)};
    f[n++] = (fact){"Launched threads", pr_tx(p, launch, "threads-text", "")};
    for (xmlNodePtr q = params ? params->children : NULL; q && n < room; q = q->next) {
        if (!pr_is_element(q, "param"))
            continue;
        const char *note = pr_tx(p, q, "note", "a parameter's note");
        f[n++] = (fact){pdf_join(p, "Parameter ", pr_tx(p, q, "name", "a parameter's name"), NULL),
                        pdf_join(p, pr_tx(p, q, "value-text", ""), *note ? " (" : "", note,
                                 *note ? ")" : "", NULL)};
    }
    return n;
}

/* FLOPs per byte, in the words the Markdown and HTML reports use where
 * there is no ratio to give. */
static const char *intensity_text(pdf *p, xmlNodePtr model)
{
    bool no_flops = pr_attr_is(pr_child(model, "flops"), "total", "0");
    bool no_bytes = pr_attr_is(pr_child(model, "bytes"), "total", "0");
    if (no_bytes)
        return no_flops ? "none: no FLOPs, no bytes" : "unbounded: no bytes move";
    return pdf_join(p, pr_tx(p, pr_child(model, "intensity"), "value-text", ""), " FLOP/byte",
                    NULL);
}

/* "in 1 of 25 blocks", "in the one block", "in no block", as words.xsl
 * says it. */
static const char *in_blocks(pdf *p, xmlNodePtr blocks)
{
    if (pr_attr_is(blocks, "active", "0"))
        return "in no block";
    if (pr_attr_is(blocks, "launched", "1"))
        return "in the one block";
    return pdf_join(p, "in ", pr_tx(p, blocks, "active-text", ""), " of ",
                    pr_tx(p, blocks, "launched-text", ""), " blocks", NULL);
}

/* The work the model counts, and as launched when that differs. f has
 * room for 5 facts; returns how many were written. */
static size_t work_facts(pdf *p, xmlNodePtr k, fact *f)
{
    xmlNodePtr model = counts(k, "model"), launched = counts(k, "launch");
    xmlNodePtr th = pr_child(model, "threads"), bl = pr_child(model, "blocks");
    xmlNodePtr fl = pr_child(model, "flops"), by = pr_child(model, "bytes");
    size_t n = 0;
    f[n++] = (fact){"Active threads",
                    pdf_join(p, pr_tx(p, th, "active-text", ""), " of ",
                             pr_tx(p, th, "launched-text", ""), " (",
                             pr_tx(p, th, "active-percent-text", ""), " %), ", in_blocks(p, bl),
                             NULL)};
    f[n++] = (fact){"FLOPs", pr_tx(p, fl, "total-text", "")};
    f[n++] = (fact){"Bytes moved", pdf_join(p, pr_tx(p, by, "total-text", ""), " (",
                                            pr_tx(p, by, "mib-text", ""), " MiB)", NULL)};
    f[n++] = (fact){"Arithmetic intensity", intensity_text(p, model)};
    if (launched)
        f[n++] = (fact){
            "As launched",
            pdf_join(p, pr_tx(p, pr_child(launched, "threads"), "active-text", ""),
                     noun(pr_child(launched, "threads"), "active", " thread, ", " threads, "),
                     pr_tx(p, pr_child(launched, "flops"), "total-text", ""),
                     noun(pr_child(launched, "flops"), "total", " FLOP, ", " FLOPs, "),
                     pr_tx(p, pr_child(launched, "bytes"), "total-text", ""),
                     noun(pr_child(launched, "bytes"), "total", " byte", " bytes"),
                     " (the model's assumptions do not hold for this launch)", NULL)};
    return n;
}

/* Launch and work, side by side; returns the height. */
static double launch_and_work(pdf *p, xmlNodePtr k, double scale, double top)
{
    xmlNodePtr params = pr_child(k, "params");
    size_t nparams = 0;
    for (xmlNodePtr q = params ? params->children : NULL; q; q = q->next)
        nparams += pr_is_element(q, "param");
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
    xmlNodePtr notes = pr_child(k, "notes");
    double y = *at, w = CONTENT_W - 10 * scale, saved = p->bottom;
    double limit = *at + (4 + NOTES_MAX) * scale;
    bool first = true, cut = false;
    for (xmlNodePtr n = notes ? notes->children : NULL; n && !cut; n = n->next) {
        if (!pr_is_element(n, "note"))
            continue;
        if (first)
            y += 4 * scale;
        first = false;
        const char *text = pr_tx(p, n, NULL, "a note");
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
    xmlNodePtr interp = pr_child(k, "interpretation");
    if (!interp || !interp->children)
        return;
    pdf_style body = {RC_FONT_REGULAR, SIZE_BODY * scale, PDF_INK};
    double y = *at + 10 * scale;
    y += pr_heading(p, "Interpretation of the peak roofline", scale, y);
    for (xmlNodePtr q = interp->children; q; q = q->next)
        if (pr_is_element(q, "p"))
            y += pdf_paragraph(p, &body, MARGIN_X, y, CONTENT_W, PDF_LEFT,
                               pr_tx(p, q, NULL, "the interpretation")) +
                 3 * scale;
    *at = y;
}

/* "Inputs that changed: param k: 100 → 200; ...", or "" when none did. */
static const char *changed_inputs(pdf *p, xmlNodePtr changes)
{
    const char *inputs = "";
    for (xmlNodePtr c = changes->children; c; c = c->next)
        if (pr_is_element(c, "input"))
            inputs = pdf_join(
                p, inputs, *inputs ? "; " : "Inputs that changed: ",
                pr_tx(p, c, "kind", "a change"), " ",
                pr_attr_is(c, "kind", "gpu") ? pdf_join(p, pr_tx(p, c, "gpu", "a change"), " ", NULL)
                                             : "",
                pr_tx(p, c, "name", "a change"), ": ", pr_tx(p, c, "old", "a change"),
                " \xE2\x86\x92 ", pr_tx(p, c, "new", "a change"), NULL);
    return inputs;
}

/* "t_total (µs): GPU 1.00 → 2.00 (+100 %); ...", or "" when none moved. */
static const char *moved_estimates(pdf *p, xmlNodePtr changes)
{
    const char *moves = "";
    for (xmlNodePtr c = changes->children; c; c = c->next)
        if (pr_is_element(c, "estimate") && pr_attr_is(c, "quantity", "t_total"))
            moves = pdf_join(p, moves, *moves ? "; " : "t_total (\xC2\xB5s): ",
                             pr_tx(p, c, "gpu-name", "a change"), " ",
                             pr_tx(p, c, "old-text", "a change"), " \xE2\x86\x92 ",
                             pr_tx(p, c, "new-text", "a change"), " (",
                             pr_tx(p, c, "percent-text", "a change"), ")", NULL);
    return moves;
}

/* What changed since the baseline, when something did (--baseline);
 * advances *y. */
static void changes_since(pdf *p, xmlNodePtr k, double scale, double *at)
{
    xmlNodePtr changes = pr_child(k, "changes");
    if (!changes || !changes->children)
        return;
    pdf_style body = {RC_FONT_REGULAR, SIZE_BODY * scale, PDF_INK};
    double y = *at + 10 * scale;
    y += pr_heading(p, "Changes since the baseline", scale, y);
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
        if (pr_is_element(c, "cannot-launch"))
            y += pdf_paragraph(p, &body, MARGIN_X, y + 2 * scale, CONTENT_W, PDF_LEFT,
                               pdf_join(p, pr_tx(p, c, "message", "a GPU"),
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
    bool runs_nowhere =
        !pr_child(pr_child(k, "estimates"), "estimate") && pr_child(k, "cannot-launch");
    if (runs_nowhere) {
        y += pr_heading(p, "At a glance: this launch cannot run on any of the GPUs, so nothing is "
                        "estimated", scale, y);
        y += cannot_launch_list(p, k, scale, y) + 8 * scale;
    }
    y += launch_and_work(p, k, scale, y);
    notes_list(p, k, scale, &y);
    y += 10 * scale;
    xmlNodePtr first = pr_child(pr_child(k, "estimates"), "estimate");
    bool refined = first && xmlHasProp(first, (const xmlChar *)"t-estimate");
    y += pr_heading(p, !several_estimates(k)
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
    if (pr_child(counts(k, "model"), "memory") || pr_child(k, "glance")) {
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
void pr_kernel_page(pdf *p, xmlNodePtr k)
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

