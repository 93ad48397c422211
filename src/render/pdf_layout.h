/* pdf_layout.h: a small layout engine over libharu for the PDF renderer
 * (render_pdf*.c, which decide what the pages say): a document with its
 * fonts, A4 pages, text flowing from page to page, links between pages
 * and pages moved out of memory once drawn (pdf_layout.c); text measured
 * and wrapped into columns (pdf_layout_text.c); tables
 * (pdf_layout_table.c).
 *
 * Coordinates are points from the page's top-left corner, y downward.
 * Every block is laid out by code that draws when `p->page` is set and
 * only measures when it is NULL, so a page can be measured, fitted and
 * then drawn with the same code. Text is measured with the embedded font's
 * own widths and wrapped on spaces (or, for a word longer than its column,
 * between whole UTF-8 characters), so nothing is placed outside its column
 * or below `p->bottom`; what does not fit is cut with an ellipsis.
 *
 * Text given to this module is as rc_hpdf_showable makes it (single
 * spaces, no control characters, only characters both fonts have).
 *
 * Private to render_pdf*.c and pdf_layout*.c; it pulls in hpdf.h. What
 * libharu's API lacks (pages' operators, fonts' glyphs, saving through a
 * callback) comes from paint/hpdf_internal.h.
 */
#ifndef ROOFCAST_PDF_LAYOUT_H
#define ROOFCAST_PDF_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <hpdf.h>
#include <libxml/tree.h>

#include "paint/font.h"
#include "paint/paint_hpdf.h"
#include "render/render.h"
#include "util/diag.h"

/* A4 in points, as libharu makes it. */
#define PAGE_W 595.276
#define PAGE_H 841.89
#define MARGIN_X 42.0
#define MARGIN_TOP 40.0
#define MARGIN_BOTTOM 46.0
#define CONTENT_W (PAGE_W - 2 * MARGIN_X)

/* A target without a page (libharu failed on it): see pdf_make_links. */
#define PDF_NO_PAGE SIZE_MAX

/* The palette: text, secondary text, table rules, zebra stripes. */
extern const rc_rgb PDF_INK, PDF_MUTED, PDF_RULE, PDF_ZEBRA;

typedef struct {
    rc_font_role font;
    double size;
    rc_rgb color;
} pdf_style;

/* A link from a rectangle of a page to the page of target `target`, made
 * by pdf_make_links once every page exists. */
typedef struct {
    size_t page, target;
    HPDF_Rect rect;
} pdf_link;

/* One PDF being made: open it with pdf_open, close it with pdf_close
 * whatever happened. Fields are read by render_pdf*.c; only this module
 * changes them, except `page` and `bottom` (where drawing goes) and
 * `gpus`. */
typedef struct {
    rc_diag *diag;
    const char *output;     /* the file made, for messages */
    const rc_fonts *fonts;  /* the charts' measures (borrowed) */
    xmlNodePtr gpus;        /* the tree's <gpus>, for render_pdf.c's messages */
    HPDF_Doc pdf;
    rc_hpdf_fonts hf;
    struct spare_doc *spare; /* what `pdf` is kept in between PDFs */
    HPDF_FontDef def[RC_FONT_COUNT];
    int16_t *widths[RC_FONT_COUNT][256]; /* see pdf_width */
    HPDF_STATUS error, detail; /* the first libharu error, 0 when none */
    HPDF_Page page;         /* drawing goes here; NULL while measuring */
    double bottom;          /* nothing is placed below this */
    char **owned;           /* strings freed with the document */
    size_t nowned, capowned;
    HPDF_Page *pages;       /* every page, in order, for footers and links */
    size_t npages, cappages;
    size_t insert_at;       /* 1 + where pdf_new_page inserts; 0: at the end */
    pdf_link *links;
    size_t nlinks, caplinks;
    FILE *spill;            /* finished pages are sealed into it (pdf_seal_page); NULL: kept */
    struct pdf_recalled *recalled; /* pdf_remember's table: cap entries, a power of 2 */
    size_t nrecalled, caprecalled;
    bool oom;
    unsigned long long measured; /* characters measured so far: the layout's work */
} pdf;

/* ---- the document ------------------------------------------------------ */

/* Starts a document: libharu with compression, the UTF-8 encoder and both
 * TTFs of `fonts` embedded (a libharu document kept from the last PDF
 * when there is one). `output` names the file in messages. Returns false
 * after reporting; pdf_close is still due. */
bool pdf_open(pdf *p, const rc_fonts *fonts, const char *output, rc_diag *diag);

/* Saves the document into `sink` as libharu writes it. Returns false
 * after reporting a libharu failure or an earlier lack of memory. */
bool pdf_write(pdf *p, const rc_sink *sink);

/* An rc_sink's put that appends to the rc_buffer `ctx`. */
void pdf_put_in_buffer(void *ctx, const void *data, size_t len);

/* Saves the document to memory: the file, which the caller frees, or NULL
 * after reporting. */
char *pdf_save(pdf *p, size_t *len);

/* Frees what the document holds; the libharu document is kept for the
 * next PDF unless something went wrong in it. */
void pdf_close(pdf *p);

/* ---- strings owned by the document -------------------------------------- */

/* Takes s (malloc'd, or NULL when out of memory: then "" and p->oom). */
const char *pdf_own(pdf *p, char *s);

/* The concatenation of the strings up to NULL, owned by p. */
const char *pdf_join(pdf *p, ...);

/* Frees the strings made since p->nowned was `from`: once drawn, a page
 * holds its own copy of its text. */
void pdf_drop_owned(pdf *p, size_t from);

/* Text made from (node, attr) of the results tree (render_pdf_text.c's pr_tx):
 * a page is laid out at several font scales and then drawn, and asks for
 * each text every time; the text is made once (read from the tree, checked
 * against the fonts) and recalled after. The text recalled for (node,
 * attr), or NULL when there is none. */
const char *pdf_recall(const pdf *p, const void *node, const char *attr);

/* Keeps `text` (owned by p, or static) for pdf_recall(p, node, attr) until
 * pdf_drop_owned next frees strings. Nothing when out of memory. */
void pdf_remember(pdf *p, const void *node, const char *attr, const char *text);

/* ---- text -------------------------------------------------------------- */

/* The width of s[0..n) in points. */
double pdf_width(pdf *p, const pdf_style *st, const char *s, size_t n);

/* The height of a line. */
double pdf_leading(const pdf_style *st);

/* Draws s[0..n) with its baseline at `baseline`; nothing while measuring. */
void pdf_text(pdf *p, const pdf_style *st, double x, double baseline, const char *s, size_t n);

void pdf_fill_rect(pdf *p, rc_rgb c, double x, double top, double w, double h);

/* A horizontal rule in PDF_RULE, `width` thick, at y from x to x + w. */
void pdf_rule(pdf *p, double x, double y, double w, double width);

/* Horizontal alignment of text in its column. */
typedef enum { PDF_LEFT, PDF_RIGHT, PDF_CENTRE } pdf_align;

typedef struct {
    const char *s;
    size_t n;
} pdf_span;

/* Lines of text: spans into the text broken; the caller frees v. */
typedef struct {
    pdf_span *v;
    size_t n, cap;
} pdf_lines;

/* Breaks text into lines no wider than w, at most max_lines of them,
 * appended to *out. Returns whether text was left over. Takes time in
 * proportion to the lines made, whatever the length of the text. */
bool pdf_wrap(pdf *p, const pdf_style *st, const char *text, double w, size_t max_lines,
              pdf_lines *out);

/* Draws one line, cut to fit w with an ellipsis when `cut`. */
void pdf_line(pdf *p, const pdf_style *st, double x, double baseline, double w, pdf_align align,
              pdf_span line, bool cut);

/* Sets text in the column [x, x + w] from `top`. Lines that would pass
 * p->bottom are left out and the last one shown ends with an ellipsis.
 * Returns the height used; at most a little over a page's height, as no
 * more is measured (a text taller than the page is cut anyway). */
double pdf_paragraph(pdf *p, const pdf_style *st, double x, double top, double w,
                     pdf_align align, const char *text);

/* The height of text set in a column w wide, drawing nothing. */
double pdf_measure(pdf *p, const pdf_style *st, double w, const char *text);

/* ---- tables ------------------------------------------------------------ */

typedef struct {
    const char *text;
    bool bold;
} pdf_cell;

/* A table: row 0 is the header when `header` is set. The caller owns
 * cells[nrows * ncols] and right[ncols] (right-aligned columns). Widths and
 * heights are filled by pdf_table_measure and freed by pdf_table_free. */
typedef struct {
    size_t nrows, ncols;
    pdf_cell *cells;
    const bool *right;
    bool header, zebra;
    bool even;       /* the columns after the first are made equally wide */
    double size;     /* font size */
    double pad;      /* space left and right of each cell */
    double *col_w;   /* [ncols] */
    double *row_h;   /* [nrows] */
} pdf_table;

/* Column widths for a total width w, and each row's height. Returns false
 * when out of memory (p->oom). */
bool pdf_table_measure(pdf *p, pdf_table *t, double w);

/* Draws row r of a measured table at (x, top); returns its height. */
double pdf_table_row(pdf *p, const pdf_table *t, size_t r, double x, double top);

/* Measures and lays out the whole table from `top`, leaving out rows that
 * would pass p->bottom, and frees the measures. Returns the height used. */
double pdf_table_block(pdf *p, pdf_table *t, double x, double top, double w);

void pdf_table_free(pdf_table *t);

/* ---- pages ------------------------------------------------------------- */

/* A new A4 page at the end, or, while p->insert_at is set, before that
 * page; kept in p->pages. NULL on a libharu error. */
HPDF_Page pdf_new_page(pdf *p);

/* Where text flows: a new page when the next block would pass the bottom
 * margin. Counts pages while measuring. */
typedef struct {
    double y;
    size_t page; /* 0-based index among the flow's pages */
} pdf_flow;

/* Makes room for a block h high: a new page (the last one sealed into
 * p->spill) unless it fits or the page is still empty. */
void pdf_flow_need(pdf *p, pdf_flow *f, double h);

/* Notes a link from a rectangle of page `page` (an index of p->pages) to
 * target `target`'s page; nothing while measuring. */
void pdf_add_link(pdf *p, size_t page, size_t target, double x, double top, double w, double h);

/* Makes the links noted: target t's page is p->pages[first + page_of[t]],
 * none when page_of[t] is PDF_NO_PAGE or t >= ntargets. */
void pdf_make_links(pdf *p, size_t first, const size_t *page_of, size_t ntargets);

/* The zlib level a page's operators are deflated at (pdf_seal_page, and
 * pdf_write for pages in memory): on a page's 30 KB of text operators,
 * level 3 takes a seventh of the time of zlib's default (6, libharu's) for
 * a stream a fifth larger. */
#define PDF_PAGE_ZLEVEL 3

/* Moves `page`'s operators so far into the spill file, compressed, and
 * starts the page a new content stream for what is drawn later (a footer):
 * libharu keeps every page until the document is saved, and a page of a
 * report is about 47 KB of operators. On any failure (a full disk among
 * them) the page is left as it was, in memory. */
void pdf_seal_page(FILE *spill, HPDF_Page page);

/* ---- pages moved between documents --------------------------------------
 *
 * A kernel's pages are laid out once, in its own PDF, and go into
 * summary.pdf as they were drawn there: their operators (deflated), the
 * fonts of each page's resources in the order the page first used them
 * (libharu names them F1, F2, ... in that order) and the glyphs the layout
 * measured or drew (what the embedded subsets must hold). */

/* The operators drawn on `page` so far, deflated at PDF_PAGE_ZLEVEL
 * (malloc'd; the caller frees it), or NULL when out of memory. */
unsigned char *pdf_page_packed(HPDF_Page page, size_t *len);

/* The page's content stream holds packed[0..len) (pdf_page_packed's,
 * the operators drawn so far), written as it is with /Filter /FlateDecode
 * (as pdf_write leaves a page), and the page gets a second content stream
 * for what is drawn later (a footer), as a sealed page does: drawn into
 * the first, it would follow the deflated bytes. Returns false when
 * libharu fails or memory runs out. */
bool pdf_hold_packed(HPDF_Page page, const unsigned char *packed, size_t len);

/* The roles of the fonts in `page`'s resources, in their order; at most
 * `cap` of them. Returns how many, or (size_t)-1 when one is not p's. */
size_t pdf_page_fonts(const pdf *p, HPDF_Page page, uint8_t *roles, size_t cap);

/* A new page (pdf_new_page) whose operators are packed[0..len) (as
 * pdf_page_packed gives them) and whose resources name the fonts of
 * `roles` in that order; sealed into p->spill when there is one, so that
 * what is drawn later (a footer) goes in a content stream of its own, as
 * on a page drawn here and sealed. Returns false on a libharu error or
 * when memory runs out (p->oom). */
bool pdf_add_packed_page(pdf *p, const unsigned char *packed, size_t len, const uint8_t *roles,
                         size_t nroles);

/* The glyphs of `role`'s font that the document embeds so far, in order
 * (malloc'd; the caller frees it; NULL with *n 0 when none or out of
 * memory: *n then (size_t)-1). */
uint16_t *pdf_glyphs_used(const pdf *p, rc_font_role role, size_t *n);

/* Marks glyph `glyph` of `role`'s font as used: embedded when saved. A
 * glyph id beyond the font's is ignored. */
void pdf_mark_glyph(pdf *p, rc_font_role role, unsigned glyph);

#endif
