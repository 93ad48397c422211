/* pdf_layout.c: pages, text flow and tables for the PDF renderer, over
 * libharu. See pdf_layout.h; render_pdf.c says what goes on the pages. */
#include "render/pdf_layout.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "paint/hpdf_internal.h"
#include "util/buffer.h"
#include "util/version.h" /* RC_VERSION */

#define LEADING 1.22 /* line height / font size */
#define ROW_PAD 0.3  /* a table row's space above and below, / font size */
#define FIT_SLACK 0.01 /* points: text measured to fit a column still fits it */

const rc_rgb PDF_INK = {0.13, 0.13, 0.15};
const rc_rgb PDF_MUTED = {0.40, 0.40, 0.44};
const rc_rgb PDF_RULE = {0.70, 0.71, 0.74};
const rc_rgb PDF_ZEBRA = {0.945, 0.953, 0.965};

/* A libharu document with both fonts loaded, kept with the fonts
 * (rc_fonts_keep) from one PDF to the next: libharu starts each new
 * document in it (HPDF_NewDoc) with the fonts it already parsed, rather
 * than reading both TTFs and making its UTF-8 encoder again, a tenth of
 * what a PDF took. */
typedef struct spare_doc {
    HPDF_Doc pdf;
    rc_hpdf_font_source source[RC_FONT_COUNT]; /* libharu reads the fonts from these */
    char name[RC_FONT_COUNT][HPDF_LIMIT_MAX_NAME_LEN + 1];
    rc_hpdf_font_memo *memo[RC_FONT_COUNT]; /* what rc_hpdf_finish_font keeps */
} spare_doc;

static void drop_spare(void *obj)
{
    spare_doc *d = obj;
    if (d->pdf)
        HPDF_Free(d->pdf);
    for (int i = 0; i < RC_FONT_COUNT; i++)
        rc_hpdf_font_memo_free(d->memo[i]);
    free(d);
}

/* ---- libharu errors ---------------------------------------------------- */

static void on_error(HPDF_STATUS error_no, HPDF_STATUS detail_no, void *user)
{
    pdf *p = user;
    if (p->error == 0) {
        p->error = error_no;
        p->detail = detail_no;
    }
}

void pdf_report(pdf *p, const char *font)
{
    rc_error_at(p->diag, NULL, 0, "%s: %s%s%slibharu error 0x%04X (detail %u): %s", p->output,
                font ? "cannot embed " : "", font ? font : "", font ? ": " : "",
                (unsigned)p->error, (unsigned)p->detail, rc_hpdf_error_text(p->error));
}

/* ---- strings owned by the document ------------------------------------ */

const char *pdf_own(pdf *p, char *s)
{
    if (!s) {
        p->oom = true;
        return "";
    }
    if (p->nowned == p->capowned) {
        size_t cap = p->capowned ? 2 * p->capowned : 64;
        char **v = realloc(p->owned, cap * sizeof *v);
        if (!v) {
            free(s);
            p->oom = true;
            return "";
        }
        p->owned = v;
        p->capowned = cap;
    }
    p->owned[p->nowned++] = s;
    return s;
}

/* pdf_remember's entries. */
struct pdf_recalled {
    const void *node; /* NULL: a free slot */
    const char *attr, *text;
};

void pdf_drop_owned(pdf *p, size_t from)
{
    if (from < p->nowned && p->nrecalled > 0) { /* what it recalls may be freed */
        memset(p->recalled, 0, p->caprecalled * sizeof *p->recalled);
        p->nrecalled = 0;
    }
    for (size_t i = from; i < p->nowned; i++)
        free(p->owned[i]);
    p->nowned = from;
}

/* ---- text kept by its source --------------------------------------------- */

/* Where (node, attr) is in a table of `cap` slots, or the free slot where
 * it would go: open addressing, probing linearly. */
static size_t recall_slot(const struct pdf_recalled *t, size_t cap, const void *node,
                          const char *attr)
{
    uint64_t h = ((uint64_t)(uintptr_t)node ^ ((uint64_t)(uintptr_t)attr << 17)) *
                 0x9E3779B97F4A7C15u;
    size_t i = (size_t)(h >> 32) & (cap - 1);
    while (t[i].node && (t[i].node != node || t[i].attr != attr))
        i = (i + 1) & (cap - 1);
    return i;
}

const char *pdf_recall(const pdf *p, const void *node, const char *attr)
{
    if (p->caprecalled == 0)
        return NULL;
    const struct pdf_recalled *e =
        &p->recalled[recall_slot(p->recalled, p->caprecalled, node, attr)];
    return e->node ? e->text : NULL;
}

/* Doubles the table (256 slots to start); false when out of memory. */
static bool recall_grow(pdf *p)
{
    size_t cap = p->caprecalled ? 2 * p->caprecalled : 256;
    struct pdf_recalled *t = calloc(cap, sizeof *t);
    if (!t)
        return false;
    for (size_t i = 0; i < p->caprecalled; i++)
        if (p->recalled[i].node)
            t[recall_slot(t, cap, p->recalled[i].node, p->recalled[i].attr)] = p->recalled[i];
    free(p->recalled);
    p->recalled = t;
    p->caprecalled = cap;
    return true;
}

void pdf_remember(pdf *p, const void *node, const char *attr, const char *text)
{
    if (!node || (2 * (p->nrecalled + 1) > p->caprecalled && !recall_grow(p)))
        return; /* at most half full */
    struct pdf_recalled *e = &p->recalled[recall_slot(p->recalled, p->caprecalled, node, attr)];
    p->nrecalled += !e->node;
    *e = (struct pdf_recalled){node, attr, text};
}

const char *pdf_join(pdf *p, ...)
{
    va_list ap;
    size_t n = 1;
    va_start(ap, p);
    for (const char *s; (s = va_arg(ap, const char *)) != NULL;)
        n += strlen(s);
    va_end(ap);
    char *out = malloc(n), *o = out;
    if (out) {
        va_start(ap, p);
        for (const char *s; (s = va_arg(ap, const char *)) != NULL;) {
            size_t len = strlen(s);
            memcpy(o, s, len);
            o += len;
        }
        va_end(ap);
        *o = '\0';
    }
    return pdf_own(p, out);
}

/* ---- measuring and drawing text ---------------------------------------- */

/* rc_hpdf_fonts's question, answered by font.c, which read the same
 * files with FreeType. */
static bool has_glyph(void *ctx, rc_font_role role, unsigned long c)
{
    pdf *p = ctx;
    return rc_fonts_glyph(p->fonts, role, c).glyph != 0;
}

/* The width of character c in thousandths of an em, as libharu measures
 * it: HPDF_TTFontDef_GetCharWidth, which HPDF_Font_TextWidth adds up and
 * which marks the glyph for the embedded subset. Asked once per character
 * and document: pages are measured at several scales and every table cell
 * more than once, and libharu decodes and looks up each character anew. */
static int char_width(pdf *p, rc_font_role role, unsigned long c)
{
    p->measured++;
    int16_t **page = &p->widths[role][c >> 8];
    if (!*page) {
        *page = malloc(256 * sizeof **page);
        if (!*page) {
            p->oom = true;
            return 0;
        }
        for (int i = 0; i < 256; i++)
            (*page)[i] = -1;
    }
    int16_t *w = &(*page)[c & 0xFF];
    if (*w < 0) {
        int got = rc_hpdf_char_width(p->def[role], (unsigned)c);
        *w = got < 0 ? 0 : (int16_t)got;
    }
    return *w;
}

double pdf_width(pdf *p, const pdf_style *st, const char *s, size_t n)
{
    if (n == 0)
        return 0;
    unsigned long sum = 0;
    for (const char *q = s; q < s + n;) {
        const char *at = q;
        unsigned long c = rc_utf8_next(&q);
        if (c > 0xFFFF || (c == 0xFFFD && q - at != 3) || q > s + n) {
            /* Not text as rc_hpdf_showable makes it: measured by libharu. */
            HPDF_TextWidth tw =
                HPDF_Font_TextWidth(p->hf.font[st->font], (const HPDF_BYTE *)s, (HPDF_UINT)n);
            return tw.width * st->size / 1000.0;
        }
        sum += (unsigned long)char_width(p, st->font, c);
    }
    return (double)sum * st->size / 1000.0;
}

double pdf_leading(const pdf_style *st) { return st->size * LEADING; }

/* Sets the font, size and fill of st on `page` where they differ from
 * the page's: they are the graphics state's, which text objects (BT ... ET)
 * and content streams leave as they are, and libharu keeps them (across
 * its GSave and GRestore too). Most texts on a page share them, and
 * writing them for each was a third of a page's operators. */
static void set_text_state(HPDF_Page page, HPDF_Font font, const pdf_style *st)
{
    HPDF_REAL size = (HPDF_REAL)st->size;
    if (HPDF_Page_GetCurrentFont(page) != font || HPDF_Page_GetCurrentFontSize(page) != size)
        HPDF_Page_SetFontAndSize(page, font, size);
    HPDF_RGBColor now = HPDF_Page_GetRGBFill(page);
    HPDF_REAL r = (HPDF_REAL)st->color.r, g = (HPDF_REAL)st->color.g, b = (HPDF_REAL)st->color.b;
    if (HPDF_Page_GetFillingColorSpace(page) != HPDF_CS_DEVICE_RGB || now.r != r || now.g != g ||
        now.b != b)
        HPDF_Page_SetRGBFill(page, r, g, b);
}

/* Draws s[0..n) with its baseline at `baseline` (from the page's top). */
void pdf_text(pdf *p, const pdf_style *st, double x, double baseline, const char *s, size_t n)
{
    if (!p->page || n == 0)
        return;
    char small[256], *text = n < sizeof small ? small : malloc(n + 1);
    if (!text) {
        p->oom = true;
        return;
    }
    memcpy(text, s, n);
    text[n] = '\0';
    HPDF_Page_BeginText(p->page);
    set_text_state(p->page, p->hf.font[st->font], st);
    HPDF_Page_SetTextMatrix(p->page, 1, 0, 0, 1, (HPDF_REAL)x, (HPDF_REAL)(PAGE_H - baseline));
    HPDF_Page_ShowText(p->page, text);
    HPDF_Page_EndText(p->page);
    if (text != small)
        free(text);
}

void pdf_fill_rect(pdf *p, rc_rgb c, double x, double top, double w, double h)
{
    if (!p->page)
        return;
    HPDF_Page_SetRGBFill(p->page, (HPDF_REAL)c.r, (HPDF_REAL)c.g, (HPDF_REAL)c.b);
    HPDF_Page_Rectangle(p->page, (HPDF_REAL)x, (HPDF_REAL)(PAGE_H - top - h), (HPDF_REAL)w,
                        (HPDF_REAL)h);
    HPDF_Page_Fill(p->page);
}

void pdf_rule(pdf *p, double x, double y, double w, double width)
{
    if (!p->page)
        return;
    HPDF_Page_SetRGBStroke(p->page, (HPDF_REAL)PDF_RULE.r, (HPDF_REAL)PDF_RULE.g, (HPDF_REAL)PDF_RULE.b);
    HPDF_Page_SetLineWidth(p->page, (HPDF_REAL)width);
    HPDF_Page_MoveTo(p->page, (HPDF_REAL)x, (HPDF_REAL)(PAGE_H - y));
    HPDF_Page_LineTo(p->page, (HPDF_REAL)(x + w), (HPDF_REAL)(PAGE_H - y));
    HPDF_Page_Stroke(p->page);
}

/* ---- line breaking ----------------------------------------------------- */

static void lines_add(pdf *p, pdf_lines *ls, const char *s, size_t n)
{
    if (ls->n == ls->cap) {
        size_t cap = ls->cap ? 2 * ls->cap : 8;
        pdf_span *v = realloc(ls->v, cap * sizeof *v);
        if (!v) {
            p->oom = true;
            return;
        }
        ls->v = v;
        ls->cap = cap;
    }
    ls->v[ls->n++] = (pdf_span){s, n};
}

/* The length of the UTF-8 character at s. */
static size_t char_len(const char *s)
{
    const char *q = s;
    rc_utf8_next(&q);
    return (size_t)(q - s);
}

/* The longest start of the word at s (up to a space or the end) no wider
 * than w: at a break after '_', '-', '/', '.', ',' or ':' when there is
 * one, else between whole characters; at least one character, so that the
 * text moves on. Reads no further than the line it makes. */
static size_t fit_word(pdf *p, const pdf_style *st, const char *s, double w)
{
    size_t end = 0, brk = 0;
    double used = 0;
    while (s[end] && s[end] != ' ') {
        size_t c = char_len(s + end);
        double cw = pdf_width(p, st, s + end, c);
        if (used + cw > w + FIT_SLACK && end > 0)
            break;
        used += cw;
        end += c;
        if (strchr("_-/.,:", s[end - 1]) && s[end] && s[end] != ' ')
            brk = end;
    }
    return s[end] && s[end] != ' ' && brk > 0 ? brk : end;
}

/* The width of the character at *q in thousandths of an em, as pdf_width
 * adds them up; moves *q past it. */
static unsigned long units_next(pdf *p, const pdf_style *st, const char **q)
{
    const char *at = *q;
    unsigned long c = rc_utf8_next(q);
    if (c > 0xFFFF || (c == 0xFFFD && *q - at != 3)) /* not as rc_hpdf_showable makes it */
        return HPDF_Font_TextWidth(p->hf.font[st->font], (const HPDF_BYTE *)at,
                                   (HPDF_UINT)(*q - at)).width;
    return (unsigned long)char_width(p, st->font, c);
}

/* Whether `units` thousandths of an em at st's size are wider than w,
 * computed as pdf_width computes widths. */
static bool wider(const pdf_style *st, unsigned long units, double w)
{
    return (double)units * st->size / 1000.0 > w + FIT_SLACK;
}

/* The end of the words from s on that fit in w: each character is
 * measured once, and nothing past the first that does not fit. s when not
 * even the first word fits. */
static const char *fit_words(pdf *p, const pdf_style *st, const char *s, double w)
{
    const char *end = s, *q = s;
    unsigned long units = 0;
    for (;;) {
        const char *word = q;
        for (; *word == ' '; word++)
            units += (unsigned long)char_width(p, st->font, ' ');
        if (!*word)
            return end;
        const char *e = word;
        while (*e && *e != ' ' && !wider(st, units, w))
            units += units_next(p, st, &e);
        if (wider(st, units, w))
            return end;
        end = q = e;
    }
}

bool pdf_wrap(pdf *p, const pdf_style *st, const char *text, double w, size_t max_lines,
              pdf_lines *out)
{
    const char *s = text;
    while (*s == ' ')
        s++;
    for (size_t n = 0; *s && n < max_lines; n++) {
        const char *end = fit_words(p, st, s, w);
        if (end == s) /* a word wider than the line */
            end = s + fit_word(p, st, s, w);
        lines_add(p, out, s, (size_t)(end - s));
        s = end;
        while (*s == ' ')
            s++;
    }
    return *s != '\0';
}

static const char ELLIPSIS[] = "\xE2\x80\xA6";

void pdf_line(pdf *p, const pdf_style *st, double x, double baseline, double w, pdf_align align,
                      pdf_span line, bool cut)
{
    if (!p->page)
        return;
    if (cut) {
        double ew = pdf_width(p, st, ELLIPSIS, strlen(ELLIPSIS));
        size_t n = 0;
        for (size_t c; n < line.n; n += c) {
            c = char_len(line.s + n);
            if (pdf_width(p, st, line.s, n + c) + ew > w)
                break;
        }
        while (n > 0 && line.s[n - 1] == ' ')
            n--;
        char *text = malloc(n + sizeof ELLIPSIS);
        if (!text) {
            p->oom = true;
            return;
        }
        memcpy(text, line.s, n);
        memcpy(text + n, ELLIPSIS, sizeof ELLIPSIS);
        pdf_text(p, st, x, baseline, text, strlen(text));
        free(text);
        return;
    }
    double lw = pdf_width(p, st, line.s, line.n);
    double dx = align == PDF_RIGHT ? w - lw : align == PDF_CENTRE ? (w - lw) / 2 : 0;
    pdf_text(p, st, x + dx, baseline, line.s, line.n);
}

double pdf_paragraph(pdf *p, const pdf_style *st, double x, double top, double w,
                     pdf_align align, const char *text)
{
    double lh = pdf_leading(st);
    double room = floor((p->bottom - top) / lh); /* may be infinite */
    /* Lines below p->bottom are not shown, and more than a page of them
     * is never needed: so they are not made, and a long text costs no
     * more than the page it fills. */
    double most = fmin(room, ceil(PAGE_H / lh));
    pdf_lines ls = {NULL, 0, 0};
    bool more = pdf_wrap(p, st, text, w, most > 0 ? (size_t)most : 0, &ls);
    for (size_t i = 0; i < ls.n; i++)
        pdf_line(p, st, x, top + i * lh + st->size, w, align, ls.v[i], i + 1 == ls.n && more);
    free(ls.v);
    return ls.n * lh;
}

double pdf_measure(pdf *p, const pdf_style *st, double w, const char *text)
{
    HPDF_Page page = p->page;
    double bottom = p->bottom;
    p->page = NULL;
    p->bottom = INFINITY;
    double h = pdf_paragraph(p, st, 0, 0, w, PDF_LEFT, text);
    p->page = page;
    p->bottom = bottom;
    return h;
}

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

/* ---- pages ------------------------------------------------------------- */

HPDF_Page pdf_new_page(pdf *p)
{
    size_t at = p->insert_at ? p->insert_at - 1 : p->npages;
    HPDF_Page page = at < p->npages ? HPDF_InsertPage(p->pdf, p->pages[at]) : HPDF_AddPage(p->pdf);
    if (!page)
        return NULL;
    HPDF_Page_SetSize(page, HPDF_PAGE_SIZE_A4, HPDF_PAGE_PORTRAIT);
    if (p->npages == p->cappages) {
        size_t cap = p->cappages ? 2 * p->cappages : 8;
        HPDF_Page *v = realloc(p->pages, cap * sizeof *v);
        if (!v) {
            p->oom = true;
            return page;
        }
        p->pages = v;
        p->cappages = cap;
    }
    memmove(p->pages + at + 1, p->pages + at, (p->npages - at) * sizeof *p->pages);
    p->pages[at] = page;
    p->npages++;
    if (p->insert_at)
        p->insert_at++;
    return page;
}

void pdf_flow_need(pdf *p, pdf_flow *f, double h)
{
    if (f->y + h <= PAGE_H - MARGIN_BOTTOM || f->y <= MARGIN_TOP)
        return;
    f->page++;
    f->y = MARGIN_TOP;
    if (p->page) {
        HPDF_Page done = p->page;
        p->page = pdf_new_page(p);
        if (p->spill && !p->error)
            pdf_seal_page(p->spill, done);
    }
}

void pdf_add_link(pdf *p, size_t page, size_t target, double x, double top, double w, double h)
{
    if (!p->page)
        return;
    if (p->nlinks == p->caplinks) {
        size_t cap = p->caplinks ? 2 * p->caplinks : 16;
        pdf_link *v = realloc(p->links, cap * sizeof *v);
        if (!v) {
            p->oom = true;
            return;
        }
        p->links = v;
        p->caplinks = cap;
    }
    HPDF_Rect r = {(HPDF_REAL)x, (HPDF_REAL)(PAGE_H - top - h), (HPDF_REAL)(x + w),
                   (HPDF_REAL)(PAGE_H - top)};
    p->links[p->nlinks++] = (pdf_link){page, target, r};
}

void pdf_make_links(pdf *p, size_t first, const size_t *page_of, size_t ntargets)
{
    for (size_t i = 0; i < p->nlinks && !p->error; i++) {
        size_t t = p->links[i].target;
        if (t >= ntargets || page_of[t] == PDF_NO_PAGE)
            continue;
        size_t target = first + page_of[t];
        if (p->links[i].page >= p->npages || target >= p->npages)
            continue;
        HPDF_Destination dst = HPDF_Page_CreateDestination(p->pages[target]);
        if (!dst)
            continue;
        HPDF_Destination_SetFit(dst);
        HPDF_Annotation a =
            HPDF_Page_CreateLinkAnnot(p->pages[p->links[i].page], p->links[i].rect, dst);
        if (a)
            HPDF_LinkAnnot_SetBorderStyle(a, 0, 0, 0);
    }
}

/* ---- pages moved out of memory ----------------------------------------- */

/* data[0..len) appended to the spill file, flushed before a page counts
 * on them; its offset in *at. */
static bool spill_bytes(FILE *spill, const unsigned char *data, size_t len, long *at)
{
    return fseek(spill, 0, SEEK_END) == 0 && (*at = ftell(spill)) >= 0 &&
           fwrite(data, 1, len, spill) == len && fflush(spill) == 0;
}

unsigned char *pdf_page_packed(HPDF_Page page, size_t *len)
{
    size_t raw_len = 0;
    unsigned char *raw = rc_hpdf_page_operators(page, &raw_len);
    uLongf packed_len = compressBound((uLong)raw_len);
    unsigned char *packed = raw ? malloc(packed_len) : NULL;
    if (packed && compress2(packed, &packed_len, raw, (uLong)raw_len, PDF_PAGE_ZLEVEL) != Z_OK) {
        free(packed);
        packed = NULL;
    }
    free(raw);
    *len = packed ? (size_t)packed_len : 0;
    return packed;
}

void pdf_seal_page(FILE *spill, HPDF_Page page)
{
    size_t len = 0;
    unsigned char *packed = pdf_page_packed(page, &len);
    long offset = -1;
    bool ok = packed && spill_bytes(spill, packed, len, &offset);
    free(packed);
    if (ok)
        rc_hpdf_page_seal(page, spill, offset, len); /* or left in memory */
}

size_t pdf_page_fonts(const pdf *p, HPDF_Page page, uint8_t *roles, size_t cap)
{
    size_t count = rc_hpdf_page_font_count(page), n = 0;
    for (size_t i = 0; i < count && n < cap; i++) {
        HPDF_Font font = rc_hpdf_page_font(page, i);
        int role = -1;
        for (int r = 0; r < RC_FONT_COUNT; r++)
            if (font == p->hf.font[r])
                role = r;
        if (role < 0)
            return (size_t)-1;
        roles[n++] = (uint8_t)role;
    }
    return n;
}

bool pdf_hold_packed(HPDF_Page page, const unsigned char *packed, size_t len)
{
    return rc_hpdf_page_put_packed(page, packed, len) &&
           HPDF_Page_New_Content_Stream(page, NULL) == HPDF_OK;
}

bool pdf_add_packed_page(pdf *p, const unsigned char *packed, size_t len, const uint8_t *roles,
                         size_t nroles)
{
    HPDF_Page page = pdf_new_page(p);
    if (!page || p->oom)
        return false;
    for (size_t i = 0; i < nroles; i++)
        if (roles[i] >= RC_FONT_COUNT || !rc_hpdf_page_add_font(page, p->hf.font[roles[i]]))
            return false;
    long offset = -1;
    if (p->spill && spill_bytes(p->spill, packed, len, &offset) &&
        rc_hpdf_page_seal(page, p->spill, offset, len))
        return true;
    if (!pdf_hold_packed(page, packed, len)) {
        p->oom = true;
        return false;
    }
    return true;
}

uint16_t *pdf_glyphs_used(const pdf *p, rc_font_role role, size_t *n)
{
    return rc_hpdf_glyphs_used(p->def[role], n);
}

void pdf_mark_glyph(pdf *p, rc_font_role role, unsigned glyph)
{
    rc_hpdf_mark_glyph(p->def[role], glyph);
}

/* Deflates the operators of `page` that are still in memory at
 * PDF_PAGE_ZLEVEL, rather than leave them to libharu's saving at zlib's
 * default level. Sets p->oom when memory runs out. */
static void pack_page(pdf *p, HPDF_Page page)
{
    if (!rc_hpdf_page_operators_in_memory(page))
        return;
    size_t raw_len = 0;
    unsigned char *raw = rc_hpdf_page_operators(page, &raw_len);
    uLongf packed_len = compressBound((uLong)raw_len);
    unsigned char *packed = raw ? malloc(packed_len) : NULL;
    if (packed && compress2(packed, &packed_len, raw, (uLong)raw_len, PDF_PAGE_ZLEVEL) == Z_OK) {
        if (!rc_hpdf_page_put_packed(page, packed, packed_len))
            p->oom = true; /* the page is cut: no file */
    } else {
        p->oom = true;
    }
    free(raw);
    free(packed);
}

/* ---- the document ------------------------------------------------------- */

/* A new document in the one kept from the last PDF: the fonts are
 * loaded. */
static bool open_kept(pdf *p)
{
    p->pdf = p->spare->pdf;
    rc_hpdf_set_error_data(p->pdf, p);
    if (HPDF_NewDoc(p->pdf) != HPDF_OK) {
        pdf_report(p, NULL);
        return false;
    }
    HPDF_SetCompressionMode(p->pdf, HPDF_COMP_ALL);
    HPDF_SetCurrentEncoder(p->pdf, "UTF-8");
    for (int i = 0; i < RC_FONT_COUNT && !p->error; i++) {
        p->def[i] = rc_hpdf_font_def(p->pdf, p->spare->name[i]);
        p->hf.font[i] = rc_hpdf_get_font(p->pdf, p->spare->name[i]);
    }
    if (p->error || !p->hf.font[0] || !p->hf.font[1] || !p->def[0] || !p->def[1]) {
        pdf_report(p, NULL);
        return false;
    }
    return true;
}

/* A new libharu document, both TTFs read from the bytes font.c holds. */
static bool open_new(pdf *p)
{
    p->spare = calloc(1, sizeof *p->spare);
    p->pdf = p->spare ? HPDF_New(on_error, p) : NULL;
    if (!p->pdf) {
        rc_error_at(p->diag, NULL, 0, "%s: cannot start libharu (out of memory)", p->output);
        return false;
    }
    p->spare->pdf = p->pdf;
    /* No PDF/A and no encryption: both add an /ID made from the time. */
    HPDF_SetCompressionMode(p->pdf, HPDF_COMP_ALL);
    HPDF_UseUTFEncodings(p->pdf);
    HPDF_SetCurrentEncoder(p->pdf, "UTF-8");
    for (int i = 0; i < RC_FONT_COUNT; i++) {
        size_t len = 0;
        const unsigned char *data = rc_fonts_file(p->fonts, (rc_font_role)i, &len);
        const char *name = rc_hpdf_load_ttf(p->pdf, &p->spare->source[i], data, len);
        if (name && !p->error) {
            snprintf(p->spare->name[i], sizeof p->spare->name[i], "%s", name);
            /* Direct lookups first: the font's widths and glyph map
             * (rc_hpdf_finish_font) look up every code point. */
            rc_hpdf_direct_cmap(p->pdf, name);
            p->def[i] = rc_hpdf_font_def(p->pdf, name);
            p->hf.font[i] = rc_hpdf_get_font(p->pdf, name);
        }
        if (p->error || !p->hf.font[i] || !p->def[i]) {
            pdf_report(p, rc_font_path((rc_font_role)i));
            return false;
        }
    }
    return true;
}

bool pdf_open(pdf *p, const rc_fonts *fonts, const char *output, rc_diag *diag)
{
    *p = (pdf){0};
    p->diag = diag;
    p->output = output;
    p->fonts = fonts;
    p->bottom = PAGE_H - MARGIN_BOTTOM;
    p->hf.has_glyph = has_glyph;
    p->hf.ctx = p;
    p->spare = rc_fonts_take(fonts, RC_SPARE_PDF);
    if (!(p->spare ? open_kept(p) : open_new(p)))
        return false;
    char producer[64];
    snprintf(producer, sizeof producer, "roofcast %s (libharu %s)", RC_VERSION, HPDF_GetVersion());
    HPDF_SetInfoAttr(p->pdf, HPDF_INFO_PRODUCER, producer);
    HPDF_SetInfoAttr(p->pdf, HPDF_INFO_CREATOR, "roofcast");
    return true;
}

/* Written as libharu writes it, rather than into libharu's memory stream
 * and then a copy: summary.pdf is never whole in memory. The sink reports
 * its own failures. */
bool pdf_write(pdf *p, const rc_sink *sink)
{
    for (int i = 0; i < RC_FONT_COUNT && !p->error && !p->oom; i++)
        if (!rc_hpdf_finish_font(p->hf.font[i], &p->spare->memo[i]))
            p->oom = true; /* the fonts are libharu's UTF-8 TrueType: only memory can fail */
    for (size_t i = 0; i < p->npages && !p->error && !p->oom; i++)
        pack_page(p, p->pages[i]);
    if (p->oom) {
        rc_error_at(p->diag, NULL, 0, "%s: out of memory", p->output);
        return false;
    }
    int saved = p->error ? 0 : rc_hpdf_save_to(p->pdf, sink->put, sink->ctx);
    if (saved < 0 && !p->error) {
        rc_error_at(p->diag, NULL, 0, "%s: out of memory", p->output);
        return false;
    }
    bool ok = saved > 0 && !p->error;
    if (!ok)
        pdf_report(p, NULL);
    return ok;
}

void pdf_put_in_buffer(void *ctx, const void *data, size_t len)
{
    rc_buffer_put(ctx, data, len);
}

char *pdf_save(pdf *p, size_t *len)
{
    rc_buffer b = {0};
    rc_sink sink = {pdf_put_in_buffer, &b};
    if (!pdf_write(p, &sink)) {
        free(b.data);
        return NULL;
    }
    char *out = rc_buffer_take(&b, len);
    if (!out)
        rc_error_at(p->diag, NULL, 0, "%s: out of memory", p->output);
    return out;
}

void pdf_close(pdf *p)
{
    if (p->spare && p->pdf && !p->error && !p->oom) {
        HPDF_FreeDoc(p->pdf); /* keeps the fonts and the encoder */
        rc_hpdf_set_error_data(p->pdf, NULL);
        rc_fonts_keep(p->fonts, RC_SPARE_PDF, p->spare, drop_spare);
    } else if (p->spare) {
        drop_spare(p->spare);
    }
    for (size_t i = 0; i < p->nowned; i++)
        free(p->owned[i]);
    for (int r = 0; r < RC_FONT_COUNT; r++)
        for (int i = 0; i < 256; i++)
            free(p->widths[r][i]);
    free(p->owned);
    free(p->pages);
    free(p->links);
    free(p->recalled);
}
