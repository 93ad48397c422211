/* pdf_layout_table.c: tables for the PDF renderer's layout, their columns
 * sized like an HTML table's automatic layout. See pdf_layout.h. */
#include "render/pdf_layout.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define ROW_PAD 0.3 /* a table row's space above and below, / font size */

/* The widest word of text, and its whole width on one line. */
static void text_extent(pdf *p, const pdf_style *st, const char *text, double *word, double *whole)
{
    *word = 0;
    *whole = pdf_width(p, st, text, strlen(text));
    for (const char *s = text; *s;) {
        size_t n = strcspn(s, " ");
        *word = fmax(*word, pdf_width(p, st, s, n));
        s += n;
        s += strspn(s, " ");
    }
}

/* ---- tables ------------------------------------------------------------ */

static pdf_style cell_style(const pdf_table *t, size_t r, size_t c)
{
    bool head = t->header && r == 0;
    pdf_style st = {head || t->cells[r * t->ncols + c].bold ? RC_FONT_BOLD : RC_FONT_REGULAR,
                t->size, head ? PDF_MUTED : PDF_INK};
    return st;
}

void pdf_table_free(pdf_table *t)
{
    free(t->col_w);
    free(t->row_h);
    t->col_w = NULL;
    t->row_h = NULL;
}

/* A table's column widths are chosen like an HTML table's automatic
 * layout, from three levels of what each column wants (level_need): its
 * widest word (at most an equal share of w: a longer one is broken
 * between characters), the whole width of its body cells (numbers and
 * names on one line), and of its header. lv[level * ncols + column]. */
enum { LV_WORD, LV_BODY, LV_HEAD, LV_COUNT };

static void level_need(pdf *p, const pdf_table *t, double w, double *lv)
{
    size_t nc = t->ncols;
    for (size_t r = 0; r < t->nrows; r++)
        for (size_t c = 0; c < nc; c++) {
            pdf_style st = cell_style(t, r, c);
            double word, whole;
            text_extent(p, &st, t->cells[r * nc + c].text, &word, &whole);
            bool head = t->header && r == 0;
            /* A very long word is broken rather than squeezing the others. */
            lv[c] = fmax(lv[c], fmin(word, w / (double)nc) + 2 * t->pad);
            lv[nc + c] = fmax(lv[nc + c], head ? 0 : whole + 2 * t->pad);
            lv[2 * nc + c] = fmax(lv[2 * nc + c], whole + 2 * t->pad);
        }
    for (size_t c = 0; c < nc; c++) {
        lv[nc + c] = fmax(lv[nc + c], lv[c]);
        lv[2 * nc + c] = fmax(lv[2 * nc + c], lv[nc + c]);
    }
}

/* Every column gets its words; what is left is shared in proportion to
 * what the columns lack of their body cells. Returns the width still
 * spare once every body cell has its line. */
static double fit_words_and_bodies(pdf_table *t, double w, const double *lv)
{
    size_t nc = t->ncols;
    double sum[2] = {0, 0};
    for (size_t c = 0; c < nc; c++) {
        sum[0] += lv[c];
        sum[1] += lv[nc + c];
    }
    for (size_t c = 0; c < nc; c++) {
        if (w <= sum[0]) /* words are broken between characters */
            t->col_w[c] = w * lv[c] / sum[0];
        else if (w <= sum[1])
            t->col_w[c] = lv[c] + (w - sum[0]) * (lv[nc + c] - lv[c]) / (sum[1] - sum[0]);
        else
            t->col_w[c] = lv[nc + c];
    }
    return w - sum[1];
}

/* As many headers as the spare width allows on one line, the shortest
 * first, so a header wraps before a body cell does; what is left over is
 * shared equally. */
static void fit_headers(pdf_table *t, double spare, const double *lv)
{
    size_t nc = t->ncols;
    const double *head = lv + 2 * nc;
    while (spare > 0) {
        size_t best = nc;
        for (size_t c = 0; c < nc; c++) {
            double lack = head[c] - t->col_w[c];
            if (lack > 0 && lack <= spare && (best == nc || lack < head[best] - t->col_w[best]))
                best = c;
        }
        if (best == nc)
            break;
        spare -= head[best] - t->col_w[best];
        t->col_w[best] = head[best];
    }
    for (size_t c = 0; c < nc && spare > 0; c++)
        t->col_w[c] += spare / (double)nc;
}

/* A matrix of values reads best with columns of one width: the columns
 * after the first share their width equally when every one keeps its
 * words. */
static void even_columns(pdf_table *t, const double *lv)
{
    size_t nc = t->ncols;
    if (!t->even || nc <= 2)
        return;
    double share = 0;
    bool fits = true;
    for (size_t c = 1; c < nc; c++)
        share += t->col_w[c] / (double)(nc - 1);
    for (size_t c = 1; c < nc; c++)
        fits &= share >= lv[c];
    for (size_t c = 1; c < nc && fits; c++)
        t->col_w[c] = share;
}

bool pdf_table_measure(pdf *p, pdf_table *t, double w)
{
    t->col_w = calloc(t->ncols, sizeof *t->col_w);
    t->row_h = calloc(t->nrows, sizeof *t->row_h);
    double *lv = calloc(LV_COUNT * t->ncols, sizeof *lv);
    if (!t->col_w || !t->row_h || !lv) {
        free(lv);
        pdf_table_free(t);
        p->oom = true;
        return false;
    }
    level_need(p, t, w, lv);
    fit_headers(t, fit_words_and_bodies(t, w, lv), lv);
    even_columns(t, lv);
    free(lv);
    for (size_t r = 0; r < t->nrows; r++) {
        double h = 0;
        for (size_t c = 0; c < t->ncols; c++) {
            pdf_style st = cell_style(t, r, c);
            h = fmax(h, pdf_measure(p, &st, t->col_w[c] - 2 * t->pad,
                                    t->cells[r * t->ncols + c].text));
        }
        t->row_h[r] = h + ROW_PAD * t->size;
    }
    return true;
}

double pdf_table_row(pdf *p, const pdf_table *t, size_t r, double x, double top)
{
    double w = 0;
    for (size_t c = 0; c < t->ncols; c++)
        w += t->col_w[c];
    bool head = t->header && r == 0;
    if (t->zebra && !head && (r - t->header) % 2 == 1)
        pdf_fill_rect(p, PDF_ZEBRA, x, top, w, t->row_h[r]);
    double cx = x;
    for (size_t c = 0; c < t->ncols; c++) {
        pdf_style st = cell_style(t, r, c);
        /* Header cells sit on the row's bottom, like the numbers below them. */
        const char *text = t->cells[r * t->ncols + c].text;
        double dy = head ? t->row_h[r] - ROW_PAD * t->size -
                               pdf_measure(p, &st, t->col_w[c] - 2 * t->pad, text)
                         : 0;
        double saved = p->bottom;
        p->bottom = INFINITY;
        pdf_paragraph(p, &st, cx + t->pad, top + ROW_PAD / 2 * t->size + dy, t->col_w[c] - 2 * t->pad,
                  t->right[c] ? PDF_RIGHT : PDF_LEFT, text);
        p->bottom = saved;
        cx += t->col_w[c];
    }
    if (head)
        pdf_rule(p, x, top + t->row_h[r], w, 0.6);
    return t->row_h[r];
}

double pdf_table_block(pdf *p, pdf_table *t, double x, double top, double w)
{
    if (!pdf_table_measure(p, t, w))
        return 0;
    double y = top;
    for (size_t r = 0; r < t->nrows; r++) {
        if (y + t->row_h[r] > p->bottom)
            break;
        y += p->page ? pdf_table_row(p, t, r, x, y) : t->row_h[r]; /* measuring: its height */
    }
    pdf_table_free(t);
    return y - top;
}

