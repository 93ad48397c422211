/* render_pdf_summary.c: summary.pdf, an overview (t_total of every kernel
 * on every GPU, a contents list, the overview chart, on as many pages as
 * they take) followed by each kernel's pages as render_pdf_pages.c gives
 * them, with a bookmark per kernel and page numbers. See render.h. */
#include "render/render_pdf.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "paint/font.h"
#include "paint/paint_hpdf.h"
#include "render/chart.h"
#include "render/render.h"
#include "results/results.h"
#include "util/array.h"
#include "util/buffer.h"

#define X(s) ((const xmlChar *)(s))

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
        xmlNodePtr e = pr_child(pr_child(o->kernels[k], "estimates"), "estimate");
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
    xmlNodePtr est = pr_child(o->kernels[ki], "estimates");
    pdf_cell c = {"\xE2\x80\x93", false};
    bool refined = overview_refined(o);
    for (xmlNodePtr e = est ? est->children : NULL; gid && e; e = e->next)
        if (pr_is_element(e, "estimate") && pr_attr_is(e, "gpu", (const char *)gid)) {
            c.text = pr_tx(p, e, estimate && refined ? "t-estimate-text" : "t-total-text", "");
            c.bold = o->ng > 1 && pr_attr_is(e, "fastest", "yes") && estimate == refined;
        }
    for (xmlNodePtr e = o->kernels[ki]->children; gid && e; e = e->next)
        if (pr_is_element(e, "cannot-launch") && pr_attr_is(e, "gpu", (const char *)gid))
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
        cells[c + 1] = (pdf_cell){kernel_cols ? pr_kernel_name(p, o->kernels[c0 + c])
                                              : pr_gpu_name(p, o->gpus[c0 + c]),
                                  false};
    }
    for (size_t r = 0; r < nrows; r++) {
        cells[(r + 1) * tc] = (pdf_cell){kernel_cols ? pr_gpu_name(p, o->gpus[r])
                                                     : pr_kernel_name(p, o->kernels[r]),
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
        const char *s = kernel_cols ? pr_gpu_name(p, o->gpus[r]) : pr_kernel_name(p, o->kernels[r]);
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
    f->y += pr_title(p, "Execution time estimates", 1, f->y);
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
        f->y += pr_heading(p, "t_estimate (\xC2\xB5s) of every kernel on every GPU", 1, f->y);
        overview_table(p, o, f, true);
        f->y += 10;
        pdf_flow_need(p, f, 3 * SIZE_HEADING);
        f->y += pr_heading(p, "Peak roofline: t_total (\xC2\xB5s) of every kernel on every GPU", 1,
                        f->y);
    } else
        f->y += pr_heading(p, "t_total (\xC2\xB5s) of every kernel on every GPU", 1, f->y);
    overview_table(p, o, f, false);
}

/* Each kernel's name and summary, its page number on the right, all a
 * link to its page. */
static void contents(pdf *p, const overview *o, pdf_flow *f)
{
    pdf_style body = {RC_FONT_REGULAR, SIZE_BODY, PDF_INK}, bold = {RC_FONT_BOLD, SIZE_BODY, PDF_INK};
    f->y += 14;
    pdf_flow_need(p, f, 3 * SIZE_HEADING);
    f->y += pr_heading(p, "Contents", 1, f->y);
    for (size_t i = 0; i < o->nk; i++) {
        char page_no[32];
        snprintf(page_no, sizeof page_no, "page %zu",
                 o->first_kernel_page +
                     (o->kernel_page[i] == PDF_NO_PAGE ? i : o->kernel_page[i]));
        double pw = pdf_width(p, &body, page_no, strlen(page_no));
        double w = CONTENT_W - pw - 12;
        const char *name = pr_kernel_name(p, o->kernels[i]);
        const char *summary =
            pr_tx(p, pr_child(o->kernels[i], "summary"), NULL, "the kernel's summary");
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
    xmlNodePtr rejected = pr_child(xmlDocGetRootElement(doc), "rejected");
    if (!rejected || !rejected->children)
        return;
    pdf_style body = {RC_FONT_REGULAR, SIZE_BODY, PDF_INK};
    f->y += 10;
    pdf_flow_need(p, f, 3 * SIZE_HEADING);
    f->y += pr_heading(p, "Rejected inputs (not in this summary)", 1, f->y);
    for (xmlNodePtr r = rejected->children; r; r = r->next) {
        if (!pr_is_element(r, "input"))
            continue;
        const char *file = pr_tx(p, r, "file", "a file name");
        const char *line = pr_tx(p, r, "line-text", "");
        const char *text = pdf_join(p, file, *line ? ":" : "", line, ": ",
                                    pr_tx(p, r, "message", "a message"), NULL);
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
        *n += pr_is_element(c, name);
    xmlNodePtr *v = calloc(*n + 1, sizeof *v);
    size_t i = 0;
    for (xmlNodePtr c = parent ? parent->children : NULL; v && c; c = c->next)
        if (pr_is_element(c, name))
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

/* Room for one more kernel's page number. */
static bool grow_kernels(rc_pdf_summary *s)
{
    return RC_GROW(s->kernel_page, s->cap, s->nkernels + 1);
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
        char *title = pr_add_pages(p, pages, len);
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
    p->gpus = pr_child(root, "gpus");
    o.kernels = elements(pr_child(root, "kernels"), "kernel", &o.nk);
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
    pr_footers(p, true);
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
    xmlNodePtr root = xmlDocGetRootElement(doc), gpus = pr_child(root, "gpus");
    xmlNodePtr kernels = pr_child(root, "kernels");
    for (xmlNodePtr k = kernels ? kernels->children : NULL; k; k = k->next)
        if (pr_is_element(k, "kernel"))
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


