/* render.h: the renderers. Each reads only the results tree (results.h)
 * and returns a new buffer that the caller frees with free().
 */
#ifndef ROOFCAST_RENDER_H
#define ROOFCAST_RENDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <libxml/tree.h>

#include "util/diag.h"
#include "paint/font.h"

/* Where a renderer that writes as it goes puts the bytes, piece by piece. */
typedef struct {
    void (*put)(void *ctx, const void *data, size_t len);
    void *ctx;
} rc_sink;

/* ---- XSLT templates (templates/NAME.xsl): Markdown and HTML ---------- */

typedef struct rc_templates rc_templates;

/* The templates a run uses: the Markdown report, the HTML report, the
 * HTML index of every kernel and changes.md. ORDER RC_TEMPLATE */
typedef enum {
    RC_TEMPLATE_MARKDOWN,
    RC_TEMPLATE_HTML,
    RC_TEMPLATE_INDEX,
    RC_TEMPLATE_CHANGES,
    RC_TEMPLATE_COUNT
} rc_template_id;

/* Compiles the stylesheets in `dir` that `wanted` (a bit per
 * rc_template_id) asks for. Returns NULL after reporting. The stylesheets
 * run with file and network access forbidden. Free with rc_templates_free;
 * one rc_templates may be used from several threads. */
rc_templates *rc_templates_new(const char *dir, unsigned wanted, rc_diag *diag);
void rc_templates_free(rc_templates *t);

/* Which chart files the Markdown report links as images: "png" (the
 * default), "svg", or "" for none, as the run writes them; the templates
 * get it as the string parameter chart-images. Set it before rendering. */
void rc_templates_set_chart_images(rc_templates *t, const char *ext);

/* Applies template `id` to `doc` with the string parameter kernel-id set
 * (NULL for overviews). Returns the output (the caller frees it) and its
 * length, or NULL after reporting. */
char *rc_render_template(rc_templates *t, rc_template_id id, xmlDocPtr doc,
                         const char *kernel_id, size_t *len, rc_diag *diag);

/* Serializes a template's result tree as the stylesheet's <xsl:output>
 * says. Returns the text (the caller frees it) and its length, or NULL. */
char *rc_template_save(rc_templates *t, rc_template_id id, xmlDocPtr result, size_t *len);

/* How a template's result tree becomes the output, in place of
 * rc_template_save (the HTML pages get their charts this way, as nodes
 * and attributes that no text of the input can imitate): may change the
 * tree, then returns what rc_template_save gives or text made from it.
 * Returns NULL, after reporting, to give no output. */
typedef char *(*rc_result_save)(rc_templates *t, rc_template_id id, xmlDocPtr result,
                                void *ctx, size_t *len);

/* rc_render_template with `save` (when not NULL) making the output. */
char *rc_render_template_edited(rc_templates *t, rc_template_id id, xmlDocPtr doc,
                                const char *kernel_id, rc_result_save save, void *save_ctx,
                                size_t *len, rc_diag *diag);

/* ---- charts (chart*.c describe, the painters of paint/painter.h paint) - */

typedef enum {
    RC_CHART_ROOFLINE, /* <kernel>-roofline.svg / .png */
    RC_CHART_TIME,     /* <kernel>-time.svg / .png */
    RC_CHART_OVERVIEW  /* index.svg / .png: every kernel on every GPU */
} rc_chart_kind;

typedef enum { RC_IMAGE_SVG, RC_IMAGE_PNG } rc_image_format;

/* Pixels per point of the PNG charts: 2 keeps them sharp on high-density
 * screens and in print. */
#define RC_PNG_SCALE 2.0

/* Draws chart `kind` of kernel `kernel_id` (NULL for RC_CHART_OVERVIEW)
 * from `doc` as SVG or PNG. Returns a new buffer (the caller frees it) and
 * its length, or NULL after reporting. */
char *rc_render_chart(xmlDocPtr doc, const char *kernel_id, rc_chart_kind kind,
                      rc_image_format format, const rc_fonts *fonts, size_t *len,
                      rc_diag *diag);

/* The description of chart `kind` of kernel `kernel_id` (NULL for
 * RC_CHART_OVERVIEW), to paint in several formats with
 * rc_render_chart_paint. The caller frees it with rc_chart_free (chart.h);
 * NULL after reporting. */
struct rc_canvas *rc_render_chart_describe(xmlDocPtr doc, const char *kernel_id,
                                           rc_chart_kind kind, const rc_fonts *fonts,
                                           rc_diag *diag);

/* Paints a described chart as SVG or PNG (RC_PNG_SCALE pixels per point),
 * text with `fonts`. Returns a new buffer (the caller frees it) and its
 * length, or NULL when out of memory; reports nothing. */
char *rc_render_chart_paint(const struct rc_canvas *chart, rc_image_format format,
                            const rc_fonts *fonts, size_t *len);

/* ---- HTML (render_html.c, templates html.xsl and index.xsl) ------------ */

/* A report's charts already painted as SVG (the caller's), with their
 * descriptions' sizes in points (rc_chart_width, rc_chart_height), so the
 * page embeds those bytes instead of describing and painting the charts
 * again; NULL members, or a NULL `painted`, are described and painted
 * here. */
typedef struct {
    const char *roofline, *time;
    size_t roofline_len, time_len;
    double roofline_w, roofline_h, time_w, time_h;
} rc_painted_svgs;

/* The HTML report of kernel `kernel_id`, or the index when kernel_id is
 * NULL: one self-contained page. The template reads the tree (for a
 * report, a copy holding the GPUs and that kernel) with the charts added
 * as <charts><chart kind= media-type="image/svg+xml" width= height=/>
 * </charts>, under the <kernel> for a report and under the root for the
 * index; each element of the template's result with the attribute
 * data-roofcast-chart="KIND" gets src="data:image/svg+xml;base64,..." of
 * that chart in its place. With `fonts` NULL the pages have no charts. For
 * the index the <charts> goes into `doc` itself during the call (so not
 * while another thread reads `doc`: see rc_html_index) and is taken out
 * again: `doc` ends as it came. Returns a new buffer (the caller frees
 * it), or NULL after reporting. */
char *rc_render_html(rc_templates *t, xmlDocPtr doc, const char *kernel_id,
                     const rc_fonts *fonts, const rc_painted_svgs *painted, size_t *len,
                     rc_diag *diag);

/* The index as rc_render_html(t, doc, NULL, fonts, NULL, ...) makes it, in
 * steps, so that another thread may read `doc` while the page is made
 * (overviews.c: summary.pdf beside index.html, the two largest overviews).
 * rc_html_index_new adds the overview chart under the root of `doc`, the
 * one change the index makes to the tree, before that thread starts;
 * rc_html_index_render then only reads `doc` (libxslt numbers the
 * elements in their `content` field, which no reader of a results tree
 * uses); rc_html_index_free takes the chart out again once the other
 * thread is done. _new returns NULL when `doc` has no root (silently, as
 * there is no page to make) or when memory ran out (reported); _render
 * returns the page (the caller frees it) or NULL after reporting; _free
 * accepts NULL. */
typedef struct rc_html_index rc_html_index;

rc_html_index *rc_html_index_new(xmlDocPtr doc, const rc_fonts *fonts, rc_diag *diag);
char *rc_html_index_render(rc_templates *t, rc_html_index *ix, size_t *len, rc_diag *diag);
void rc_html_index_free(rc_html_index *ix);

/* ---- data for tools --------------------------------------------------- */

/* estimates.csv: RFC 4180, one row per kernel x GPU, full precision. */
char *rc_render_csv(xmlDocPtr doc, size_t *len);
/* The number of columns of estimates.csv's every row. */
size_t rc_render_csv_columns(void);

/* results.xml: the tree itself, indented, UTF-8. */
char *rc_render_results_xml(xmlDocPtr doc, size_t *len);

/* ---- the comparison with a baseline (render_changes.c) -------------- */

/* changes.csv: kind,kernel,gpu,quantity,old,new,change_percent (RFC 4180),
 * from doc's <changes> (compare.h). The caller frees the buffer; NULL when
 * doc has no <changes>. */
char *rc_render_changes_csv(xmlDocPtr doc, size_t *len);
/* changes.md: the same for people, by template changes.xsl (loaded in `t`).
 * The caller frees the buffer; NULL when doc has no <changes> or after
 * reporting. */
char *rc_render_changes_md(rc_templates *t, xmlDocPtr doc, size_t *len, rc_diag *diag);

/* ---- PDF summaries for design reviews (render_pdf*.c, libharu) -------- */

/* <kernel>.pdf: one A4 page for kernel `kernel_id`: its name and summary,
 * launch configuration, active threads, FLOPs and bytes, notes, the time
 * table on every GPU of `doc`, the roofline chart as vectors (chart.h) and
 * the interpretation. Text is set in the TTFs of `fonts` (font.h), embedded;
 * a character they cannot show is printed as U+FFFD and reported once as a
 * warning against its input file. The output depends only on `doc` (no
 * dates, no /ID): the same tree gives the same bytes. Returns a new buffer
 * (the caller frees it with free()) and its length in *len, or NULL after
 * reporting, libharu's errors included. */
char *rc_render_pdf_kernel(xmlDocPtr doc, const char *kernel_id, const rc_fonts *fonts,
                           size_t *len, char **pages, size_t *pages_len, rc_diag *diag);

/* A kernel's pages as summary.pdf takes them (rc_pdf_summary_add_pages):
 * rc_render_pdf_kernel gives them in *pages (when `pages` is not NULL;
 * malloc'd, the caller frees it; NULL after reporting), and this makes
 * them alone, for a kernel whose PDF is up to date (`gpus`: the <gpus> of
 * its tree). They are the kernel's pages as drawn in its PDF, without the
 * footers, with the glyphs their layout used and the bookmark's title. */
char *rc_render_pdf_pages(xmlNodePtr gpus, xmlNodePtr kernel, const rc_fonts *fonts, size_t *len,
                          rc_diag *diag);

/* summary.pdf: an overview page (t_total of every kernel on every GPU,
 * contents linking to each kernel's page, rejected inputs, and the overview
 * chart when there is room for it; more pages when it does not fit on one),
 * then each kernel's page as in rc_render_pdf_kernel, with a bookmark per
 * kernel, "Page i of n" on every page and the document's title, subject and
 * producer set. Same ownership and reporting as rc_render_pdf_kernel. */
char *rc_render_pdf_summary(xmlDocPtr doc, const rc_fonts *fonts, size_t *len, rc_diag *diag);

/* summary.pdf made as the kernels come, so that a run keeps no kernel's
 * tree after its own files are written: rc_pdf_summary_add puts kernel
 * `kernel` (with the <gpus> of its tree) on a page of its own (laid out in
 * a document of its own from the same fonts, then moved), in the order
 * of the calls; rc_pdf_summary_finish puts the overview pages of `doc` (a
 * tree of the same kernels in the same order, which may hold only what the
 * overviews read: see rc_results_overview_kernel) in front and hands the
 * file to `sink` as libharu writes it. It returns true when all of it went
 * there, false after reporting a failure (a failing sink reports its own).
 * rc_render_pdf_summary is these three calls (with no scratch file). Each
 * finished page's drawing goes to `scratch` (read and written; borrowed,
 * to be closed after rc_pdf_summary_free; see output.h's
 * rc_output_scratch) rather than staying in memory; with NULL, or where
 * writing to it fails, pages stay in memory, and the file shows the same
 * either way. Not thread-safe; `fonts` is used by this object alone while
 * it lives. Free with rc_pdf_summary_free. */
typedef struct rc_pdf_summary rc_pdf_summary;
rc_pdf_summary *rc_pdf_summary_new(const rc_fonts *fonts, FILE *scratch, rc_diag *diag);
void rc_pdf_summary_add(rc_pdf_summary *s, xmlNodePtr gpus, xmlNodePtr kernel);
/* rc_pdf_summary_add with the kernel's pages already made (`pages`, as
 * rc_render_pdf_pages gives them; borrowed): summary.pdf draws nothing of
 * a kernel itself. Returns false after reporting when they are not whole
 * (the file is then not made). */
bool rc_pdf_summary_add_pages(rc_pdf_summary *s, const char *pages, size_t len);
/* Whether `pages` (len bytes, from anywhere: .roofcast-cache) are a
 * kernel's pages as rc_render_pdf_pages makes them: the layout whole to
 * its last byte, a title of UTF-8, at least one page, each page's fonts
 * known and its operators one whole deflated stream. */
bool rc_render_pdf_pages_whole(const char *pages, size_t len);
bool rc_pdf_summary_finish(rc_pdf_summary *s, xmlDocPtr doc, const rc_sink *sink);
void rc_pdf_summary_free(rc_pdf_summary *s);

#endif
