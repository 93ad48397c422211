/* render_pdf.h: what the files of the PDF renderer share: render_pdf.c (a
 * kernel's page), render_pdf_text.c (text from the results tree, headings,
 * titles and footers), render_pdf_pages.c (a kernel's PDF, and its pages as
 * the bytes summary.pdf takes) and render_pdf_summary.c (summary.pdf).
 * Their entry points are render.h's; they set pages with pdf_layout.h.
 *
 * Private to those files; its functions are prefixed pr_ (PDF report).
 */
#ifndef ROOFCAST_RENDER_PDF_H
#define ROOFCAST_RENDER_PDF_H

#include <stdbool.h>
#include <stddef.h>

#include <libxml/tree.h>

#include "render/pdf_layout.h"

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

/* ---- text from the tree (render_pdf_text.c) ------------------------------ */

/* Text of node n: attribute `attr`, or its content when attr is NULL, as
 * the fonts can print it (see rc_hpdf_showable), with a warning for each
 * character they cannot; cut with a notice past a length no page could
 * show. Owned by p; "" when missing. `what` names the text in warnings
 * ("the kernel's name"). Made once and recalled after (pdf_remember): a
 * page asks at every font scale it is measured at. */
const char *pr_tx(pdf *p, xmlNodePtr n, const char *attr, const char *what);

const char *pr_kernel_name(pdf *p, xmlNodePtr k);
const char *pr_gpu_name(pdf *p, xmlNodePtr g);

/* The first element child of n named `name` (rc_results_child), or NULL. */
xmlNodePtr pr_child(xmlNodePtr n, const char *name);

/* Whether n is an element named `name`. */
bool pr_is_element(xmlNodePtr n, const char *name);

/* Whether n's attribute `attr` is `value`. */
bool pr_attr_is(xmlNodePtr n, const char *attr, const char *value);

/* A heading at `top`, in the column; returns the height used. */
double pr_heading(pdf *p, const char *text, double scale, double top);

/* The title: one line shrunk to fit, down to SIZE_TITLE_MIN, then wrapped
 * onto at most three lines. Returns the height used. */
double pr_title(pdf *p, const char *text, double scale, double top);

/* Every page's footer: what the figures are, and "Page i of n" (on a
 * document of one page only when `number_single`). */
void pr_footers(pdf *p, bool number_single);

/* ---- a kernel's page (render_pdf.c) ---------------------------------------- */

/* Adds the page of kernel k (a second one when its chart does not fit
 * beside its text) to p, without footers. */
void pr_kernel_page(pdf *p, xmlNodePtr k);

/* ---- a kernel's pages as bytes (render_pdf_pages.c) ------------------------ */

/* Adds the pages in pages[0..len) (as rc_render_pdf_pages makes them) to
 * p, their glyphs marked used; returns their bookmark's title (the caller
 * frees it), or NULL when the bytes are not whole or p failed. */
char *pr_add_pages(pdf *p, const char *pages, size_t len);

#endif
