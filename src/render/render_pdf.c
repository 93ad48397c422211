/* render_pdf.c: the PDF summaries for design reviews, made with libharu.
 *
 * <kernel>.pdf is one A4 page: the kernel's name and summary, its launch
 * and totals, the time table on every GPU, the roofline chart (chart.h,
 * painted as vectors by paint_hpdf.c) and the interpretation. summary.pdf
 * is an overview page (t_total of every kernel on every GPU, a contents
 * list, the overview chart) followed by the same page for each kernel, with
 * a bookmark per kernel and page numbers.
 *
 * Like every renderer this reads only the results tree and prints numbers
 * only from its *-text attributes. Text is set in the TTFs of font.h,
 * embedded through libharu's UTF-8 encoder; text from the inputs passes
 * through rc_hpdf_showable, and a character the fonts cannot show is
 * printed as U+FFFD and reported once as a warning against its input file.
 *
 * Layout works in points from the page's top-left corner. Every block is
 * laid out by one function that draws when `page` is set and only measures
 * when it is NULL, so a page is first measured at a font scale, shrunk
 * until it fits, then drawn with the same code. Text is measured with the
 * embedded font's own widths and wrapped on spaces (or, for a word longer
 * than its column, between whole UTF-8 characters), so nothing is placed
 * outside the page or over other text; at the smallest scale a block that
 * still does not fit is cut with an ellipsis at the bottom margin.
 */
#include "render/render.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hpdf.h>
#include <hpdf_doc.h>
#include <hpdf_fontdef.h>
#include <hpdf_pages.h>
#include <hpdf_streams.h>
#include <zlib.h>

#include "util/buffer.h"
#include "render/chart.h"
#include "paint/font.h"
#include "paint/paint_hpdf.h"
#include "results/results.h"
#include "cli/roofcast.h"

#define X(s) ((const xmlChar *)(s))

/* A4 in points, as libharu makes it. */
#define PAGE_W 595.276
#define PAGE_H 841.89
#define MARGIN_X 42.0
#define MARGIN_TOP 40.0
#define MARGIN_BOTTOM 46.0
#define FOOTER_BASELINE (PAGE_H - 26.0)
#define CONTENT_W (PAGE_W - 2 * MARGIN_X)

/* Font sizes at scale 1. A page that does not fit is set smaller, down to
 * MIN_SCALE; the chart takes the room that is left, at least CHART_MIN. */
#define SIZE_TITLE 17.0
#define SIZE_TITLE_MIN 12.0
#define SIZE_SUBTITLE 10.0
#define SIZE_HEADING 10.5
#define SIZE_BODY 8.0
#define SIZE_TABLE 7.5
#define SIZE_FOOTER 7.0
#define MIN_SCALE 0.6
#define CHART_MIN 250.0
#define OVERVIEW_MIN_SCALE 0.4 /* the overview chart is left out below this */
#define LEADING 1.22 /* line height / font size */
#define ROW_PAD 0.3  /* a table row's space above and below, / font size */
#define FIT_SLACK 0.01 /* points: text measured to fit a column still fits it */

static const rc_rgb INK = {0.13, 0.13, 0.15};
static const rc_rgb MUTED = {0.40, 0.40, 0.44};
static const rc_rgb ACCENT = {0.09, 0.29, 0.52};
static const rc_rgb RULE = {0.70, 0.71, 0.74};
static const rc_rgb ZEBRA = {0.945, 0.953, 0.965};

typedef struct {
    rc_font_role font;
    double size;
    rc_rgb color;
} style;

/* A kernel without a page in summary.pdf (libharu failed on it). */
#define NO_PAGE SIZE_MAX

/* A link from a rectangle of an overview page to a kernel's page, made
 * once every page exists. */
typedef struct {
    size_t page, kernel;
    HPDF_Rect rect;
} page_link;

/* One PDF being made. */
typedef struct {
    rc_diag *diag;
    const char *output;     /* the file made, for messages */
    const rc_fonts *fonts;  /* the charts' measures (borrowed) */
    xmlNodePtr gpus;        /* the tree's <gpus> */
    HPDF_Doc pdf;
    rc_hpdf_fonts hf;
    struct spare_doc *spare; /* what `pdf` is kept in between PDFs */
    HPDF_FontDef def[RC_FONT_COUNT];
    int16_t *widths[RC_FONT_COUNT][256]; /* see width_of */
    HPDF_STATUS error, detail; /* the first libharu error, 0 when none */
    HPDF_Page page;         /* drawing goes here; NULL while measuring */
    double bottom;          /* nothing is placed below this */
    char **owned;           /* strings freed with the document */
    size_t nowned, capowned;
    HPDF_Page *pages;       /* every page, in order, for footers and links */
    size_t npages, cappages;
    size_t insert_at;       /* 1 + where new_page inserts; 0: at the end */
    page_link *links;
    size_t nlinks, caplinks;
    FILE *spill;            /* finished pages are sealed into it (seal_page); NULL: kept */
    bool oom;
} pdf;

static void seal_page(FILE *spill, HPDF_Page page);

/* A libharu document with both fonts loaded, kept with the fonts
 * (rc_fonts_keep) from one PDF to the next: libharu starts each new
 * document in it (HPDF_NewDoc) with the fonts it already parsed, rather
 * than reading both TTFs and making its UTF-8 encoder again, a tenth of
 * what a PDF took. */
typedef struct spare_doc {
    HPDF_Doc pdf;
    rc_hpdf_font_source source[RC_FONT_COUNT]; /* libharu reads the fonts from these */
    char name[RC_FONT_COUNT][HPDF_LIMIT_MAX_NAME_LEN + 1];
} spare_doc;

static void drop_spare(void *obj)
{
    spare_doc *d = obj;
    if (d->pdf)
        HPDF_Free(d->pdf);
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

/* What the errors roofcast can meet mean (hpdf_error.h). */
static const char *hpdf_error_text(HPDF_STATUS e)
{
    switch (e) {
    case HPDF_FAILD_TO_ALLOC_MEM:
        return "out of memory";
    case HPDF_FILE_IO_ERROR:
    case HPDF_FILE_OPEN_ERROR:
        return "cannot read a font file";
    case HPDF_INVALID_FONTDEF_DATA:
    case HPDF_TTF_INVALID_CMAP:
    case HPDF_TTF_INVALID_FOMAT:
    case HPDF_TTF_MISSING_TABLE:
        return "the font file is not a usable TrueType font";
    case HPDF_TTF_CANNOT_EMBEDDING_FONT:
        return "the font's licence flags forbid embedding it";
    case HPDF_INVALID_PARAMETER:
    case HPDF_PAGE_OUT_OF_RANGE:
    case HPDF_REAL_OUT_OF_RANGE:
        return "a drawing operation was given an invalid value";
    default:
        return "see hpdf_error.h";
    }
}

/* Reports the first libharu error; `font` names the font file it was
 * embedding, when it was. */
static void report_hpdf(pdf *p, const char *font)
{
    rc_error_at(p->diag, NULL, 0, "%s: %s%s%slibharu error 0x%04X (detail %u): %s", p->output,
                font ? "cannot embed " : "", font ? font : "", font ? ": " : "",
                (unsigned)p->error, (unsigned)p->detail, hpdf_error_text(p->error));
}

/* ---- strings owned by the document ------------------------------------ */

static const char *own(pdf *p, char *s)
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

/* Frees the strings made since p->nowned was `from`: once drawn, a page
 * holds its own copy of its text. */
static void drop_owned(pdf *p, size_t from)
{
    for (size_t i = from; i < p->nowned; i++)
        free(p->owned[i]);
    p->nowned = from;
}

/* The concatenation of the strings up to NULL, owned by p. */
static const char *join(pdf *p, ...)
{
    va_list ap;
    size_t n = 1;
    va_start(ap, p);
    for (const char *s; (s = va_arg(ap, const char *)) != NULL;)
        n += strlen(s);
    va_end(ap);
    char *out = malloc(n);
    if (out) {
        *out = '\0';
        va_start(ap, p);
        for (const char *s; (s = va_arg(ap, const char *)) != NULL;)
            strcat(out, s);
        va_end(ap);
    }
    return own(p, out);
}

/* ---- text from the tree ------------------------------------------------ */

static bool has_glyph(void *ctx, rc_font_role role, unsigned long c)
{
    pdf *p = ctx;
    return rc_fonts_glyph(p->fonts, role, c).glyph != 0;
}

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
    if (c >= 0xA0 && c <= 0x10FFFF) /* the character itself, unless a control */
        *rc_hpdf_utf8_put(shown, c) = '\0';
    for (size_t i = 0; i < rc_diag_count(p->diag); i++) {
        const rc_diag_entry *e = rc_diag_entry_at(p->diag, i);
        if (e->severity == RC_DIAG_WARNING && strncmp(e->message, key, strlen(key)) == 0 &&
            strstr(e->message, "cannot be shown in PDF output") &&
            ((!e->file && !file) || (e->file && file && strcmp(e->file, file) == 0)))
            return;
    }
    rc_warn_at(p->diag, file, 0, "%s%s%s%scannot be shown in PDF output (%s), so it is printed "
               "as U+FFFD (first in %s)", key, *shown ? "'" : "", shown, *shown ? "' " : "",
               c > 0xFFFF ? "libharu encodes only the Basic Multilingual Plane"
                          : "DejaVu Sans has no glyph for it",
               what);
}

/* Text of node n: attribute `attr`, or its content when attr is NULL, as
 * the fonts can print it (see rc_hpdf_showable), with a warning for each
 * character they cannot. Owned by p; "" when missing. `what` names the
 * text in warnings ("the kernel's name"). */
static const char *tx(pdf *p, xmlNodePtr n, const char *attr, const char *what)
{
    if (!n)
        return "";
    xmlChar *raw = attr ? xmlGetProp(n, X(attr)) : xmlNodeGetContent(n);
    if (!raw)
        return "";
    char file[4096];
    bool located = false;
    for (const char *q = (const char *)raw; *q;) {
        unsigned long c = rc_utf8_next(&q);
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r')
            continue;
        /* Text may be set in either face: both must have the character. */
        if (c > 0xFFFF || !has_glyph(p, RC_FONT_REGULAR, c) || !has_glyph(p, RC_FONT_BOLD, c)) {
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
    return own(p, both);
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

/* ---- measuring and drawing text ---------------------------------------- */

/* The width of character c in thousandths of an em, as libharu measures
 * it: HPDF_TTFontDef_GetCharWidth, which HPDF_Font_TextWidth adds up and
 * which marks the glyph for the embedded subset. Asked once per character
 * and document: pages are measured at several scales and every table cell
 * more than once, and libharu decodes and looks up each character anew. */
static int char_width(pdf *p, rc_font_role role, unsigned long c)
{
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
        HPDF_INT16 got = HPDF_TTFontDef_GetCharWidth(p->def[role], (HPDF_UINT16)c);
        *w = got < 0 ? 0 : got;
    }
    return *w;
}

static double width_of(pdf *p, const style *st, const char *s, size_t n)
{
    if (n == 0)
        return 0;
    unsigned long sum = 0;
    for (const char *q = s; q < s + n;) {
        const char *at = q;
        unsigned long c = rc_utf8_next(&q);
        if (c > 0xFFFF || (c == 0xFFFD && q - at != 3) || q > s + n) {
            /* Not text as tx makes it: measured by libharu itself. */
            HPDF_TextWidth tw =
                HPDF_Font_TextWidth(p->hf.font[st->font], (const HPDF_BYTE *)s, (HPDF_UINT)n);
            return tw.width * st->size / 1000.0;
        }
        sum += (unsigned long)char_width(p, st->font, c);
    }
    return (double)sum * st->size / 1000.0;
}

static double leading(const style *st) { return st->size * LEADING; }

/* Draws s[0..n) with its baseline at `baseline` (from the page's top). */
static void draw_text(pdf *p, const style *st, double x, double baseline, const char *s, size_t n)
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
    HPDF_Page_SetFontAndSize(p->page, p->hf.font[st->font], (HPDF_REAL)st->size);
    HPDF_Page_SetRGBFill(p->page, (HPDF_REAL)st->color.r, (HPDF_REAL)st->color.g,
                         (HPDF_REAL)st->color.b);
    HPDF_Page_SetTextMatrix(p->page, 1, 0, 0, 1, (HPDF_REAL)x, (HPDF_REAL)(PAGE_H - baseline));
    HPDF_Page_ShowText(p->page, text);
    HPDF_Page_EndText(p->page);
    if (text != small)
        free(text);
}

static void fill_rect(pdf *p, rc_rgb c, double x, double top, double w, double h)
{
    if (!p->page)
        return;
    HPDF_Page_SetRGBFill(p->page, (HPDF_REAL)c.r, (HPDF_REAL)c.g, (HPDF_REAL)c.b);
    HPDF_Page_Rectangle(p->page, (HPDF_REAL)x, (HPDF_REAL)(PAGE_H - top - h), (HPDF_REAL)w,
                        (HPDF_REAL)h);
    HPDF_Page_Fill(p->page);
}

static void hrule(pdf *p, double x, double y, double w, double width)
{
    if (!p->page)
        return;
    HPDF_Page_SetRGBStroke(p->page, (HPDF_REAL)RULE.r, (HPDF_REAL)RULE.g, (HPDF_REAL)RULE.b);
    HPDF_Page_SetLineWidth(p->page, (HPDF_REAL)width);
    HPDF_Page_MoveTo(p->page, (HPDF_REAL)x, (HPDF_REAL)(PAGE_H - y));
    HPDF_Page_LineTo(p->page, (HPDF_REAL)(x + w), (HPDF_REAL)(PAGE_H - y));
    HPDF_Page_Stroke(p->page);
}

/* ---- line breaking ----------------------------------------------------- */

typedef struct {
    const char *s;
    size_t n;
} span;

typedef struct {
    span *v;
    size_t n, cap;
} lines;

static void lines_add(pdf *p, lines *ls, const char *s, size_t n)
{
    if (ls->n == ls->cap) {
        size_t cap = ls->cap ? 2 * ls->cap : 8;
        span *v = realloc(ls->v, cap * sizeof *v);
        if (!v) {
            p->oom = true;
            return;
        }
        ls->v = v;
        ls->cap = cap;
    }
    ls->v[ls->n++] = (span){s, n};
}

/* The length of the UTF-8 character at s. */
static size_t char_len(const char *s)
{
    const char *q = s;
    rc_utf8_next(&q);
    return (size_t)(q - s);
}

/* The longest start of the word s[0..n) no wider than w: at a break after
 * '_', '-', '/', '.', ',' or ':' when there is one, else between whole
 * characters; at least one character, so that the text moves on. */
static size_t fit_word(pdf *p, const style *st, const char *s, size_t n, double w)
{
    size_t end = 0, brk = 0;
    double used = 0;
    while (end < n) {
        size_t c = char_len(s + end);
        double cw = width_of(p, st, s + end, c);
        if (used + cw > w + FIT_SLACK && end > 0)
            break;
        used += cw;
        end += c;
        if (strchr("_-/.,:", s[end - 1]) && end < n)
            brk = end;
    }
    return end < n && brk > 0 ? brk : end;
}

/* Breaks text (single spaces, no control characters: see tx) into lines no
 * wider than w. The spans point into text. */
static void wrap(pdf *p, const style *st, const char *text, double w, lines *out)
{
    const char *s = text;
    while (*s == ' ')
        s++;
    while (*s) {
        const char *end = s, *q = s;
        for (;;) {
            const char *word = q;
            while (*word == ' ')
                word++;
            if (!*word)
                break;
            const char *word_end = word + strcspn(word, " ");
            if (width_of(p, st, s, (size_t)(word_end - s)) > w + FIT_SLACK)
                break;
            end = q = word_end;
        }
        if (end == s) /* a word wider than the line */
            end = s + fit_word(p, st, s, strcspn(s, " "), w);
        lines_add(p, out, s, (size_t)(end - s));
        s = end;
        while (*s == ' ')
            s++;
    }
}

static const char ELLIPSIS[] = "\xE2\x80\xA6";

/* Draws one line of a paragraph, cut to fit w with an ellipsis when `cut`. */
static void draw_line(pdf *p, const style *st, double x, double baseline, double w, int align,
                      span line, bool cut)
{
    if (!p->page)
        return;
    if (cut) {
        double ew = width_of(p, st, ELLIPSIS, strlen(ELLIPSIS));
        size_t n = 0;
        for (size_t c; n < line.n; n += c) {
            c = char_len(line.s + n);
            if (width_of(p, st, line.s, n + c) + ew > w)
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
        draw_text(p, st, x, baseline, text, strlen(text));
        free(text);
        return;
    }
    double lw = width_of(p, st, line.s, line.n);
    double dx = align == 1 ? w - lw : align == 2 ? (w - lw) / 2 : 0;
    draw_text(p, st, x + dx, baseline, line.s, line.n);
}

/* Sets text in the column [x, x + w] from `top`: align 0 left, 1 right,
 * 2 centred. Lines that would pass p->bottom are left out and the last one
 * shown ends with an ellipsis. Returns the height used. */
static double paragraph(pdf *p, const style *st, double x, double top, double w, int align,
                        const char *text)
{
    lines ls = {NULL, 0, 0};
    wrap(p, st, text, w, &ls);
    double lh = leading(st);
    double room = floor((p->bottom - top) / lh); /* may be infinite */
    size_t shown = room >= (double)ls.n ? ls.n : room > 0 ? (size_t)room : 0;
    for (size_t i = 0; i < shown; i++)
        draw_line(p, st, x, top + i * lh + st->size, w, align, ls.v[i],
                  i + 1 == shown && shown < ls.n);
    free(ls.v);
    return shown * lh;
}

/* The height of text set in a column w wide, drawing nothing. */
static double measure(pdf *p, const style *st, double w, const char *text)
{
    HPDF_Page page = p->page;
    double bottom = p->bottom;
    p->page = NULL;
    p->bottom = INFINITY;
    double h = paragraph(p, st, 0, 0, w, 0, text);
    p->page = page;
    p->bottom = bottom;
    return h;
}

/* The widest word of text, and its whole width on one line. */
static void text_extent(pdf *p, const style *st, const char *text, double *word, double *whole)
{
    *word = 0;
    *whole = width_of(p, st, text, strlen(text));
    for (const char *s = text; *s;) {
        size_t n = strcspn(s, " ");
        *word = fmax(*word, width_of(p, st, s, n));
        s += n;
        s += strspn(s, " ");
    }
}

/* ---- tables ------------------------------------------------------------ */

typedef struct {
    const char *text;
    bool bold;
} cell;

/* A table: row 0 is the header when `header` is set. The caller owns
 * cells[nrows * ncols] and right[ncols] (right-aligned columns). Widths and
 * heights are filled by table_measure and freed by table_free. */
typedef struct {
    size_t nrows, ncols;
    cell *cells;
    const bool *right;
    bool header, zebra;
    bool even;       /* the columns after the first are made equally wide */
    double size;     /* font size */
    double pad;      /* space left and right of each cell */
    double *col_w;   /* [ncols] */
    double *row_h;   /* [nrows] */
} table;

static style cell_style(const table *t, size_t r, size_t c)
{
    bool head = t->header && r == 0;
    style st = {head || t->cells[r * t->ncols + c].bold ? RC_FONT_BOLD : RC_FONT_REGULAR,
                t->size, head ? MUTED : INK};
    return st;
}

static void table_free(table *t)
{
    free(t->col_w);
    free(t->row_h);
    t->col_w = NULL;
    t->row_h = NULL;
}

/* Column widths for a total width w, like an HTML table's automatic
 * layout, in three levels: every column's widest word (at most an equal
 * share of w: a longer one is broken between characters); then the whole
 * width of its body cells (numbers and names on one line), shared in
 * proportion to what the columns lack; then of its header, as many headers
 * as fit, the shortest first, so a header wraps before a body cell does.
 * What is left over is shared equally. Then each row's height. */
static bool table_measure(pdf *p, table *t, double w)
{
    t->col_w = calloc(t->ncols, sizeof *t->col_w);
    t->row_h = calloc(t->nrows, sizeof *t->row_h);
    double *lv = calloc(3 * t->ncols, sizeof *lv); /* lv[level * ncols + column] */
    if (!t->col_w || !t->row_h || !lv) {
        free(lv);
        table_free(t);
        p->oom = true;
        return false;
    }
    size_t nc = t->ncols;
    for (size_t r = 0; r < t->nrows; r++)
        for (size_t c = 0; c < nc; c++) {
            style st = cell_style(t, r, c);
            double word, whole;
            text_extent(p, &st, t->cells[r * nc + c].text, &word, &whole);
            bool head = t->header && r == 0;
            /* A very long word is broken rather than squeezing the others. */
            lv[c] = fmax(lv[c], fmin(word, w / (double)nc) + 2 * t->pad);
            lv[nc + c] = fmax(lv[nc + c], head ? 0 : whole + 2 * t->pad);
            lv[2 * nc + c] = fmax(lv[2 * nc + c], whole + 2 * t->pad);
        }
    double sum[3] = {0, 0, 0};
    for (size_t c = 0; c < nc; c++) {
        lv[nc + c] = fmax(lv[nc + c], lv[c]);
        lv[2 * nc + c] = fmax(lv[2 * nc + c], lv[nc + c]);
        for (int l = 0; l < 3; l++)
            sum[l] += lv[l * nc + c];
    }
    for (size_t c = 0; c < nc; c++) {
        if (w <= sum[0]) /* words are broken between characters */
            t->col_w[c] = w * lv[c] / sum[0];
        else if (w <= sum[1])
            t->col_w[c] = lv[c] + (w - sum[0]) * (lv[nc + c] - lv[c]) / (sum[1] - sum[0]);
        else
            t->col_w[c] = lv[nc + c];
    }
    /* Headers: as many as possible on one line, the shortest first. */
    double spare = w - sum[1];
    while (spare > 0) {
        size_t best = nc;
        for (size_t c = 0; c < nc; c++) {
            double lack = lv[2 * nc + c] - t->col_w[c];
            if (lack > 0 && lack <= spare &&
                (best == nc || lack < lv[2 * nc + best] - t->col_w[best]))
                best = c;
        }
        if (best == nc)
            break;
        spare -= lv[2 * nc + best] - t->col_w[best];
        t->col_w[best] = lv[2 * nc + best];
    }
    for (size_t c = 0; c < nc && spare > 0; c++)
        t->col_w[c] += spare / (double)nc;
    /* A matrix of values reads best with columns of one width. */
    if (t->even && nc > 2) {
        double share = 0;
        bool fits = true;
        for (size_t c = 1; c < nc; c++)
            share += t->col_w[c] / (double)(nc - 1);
        for (size_t c = 1; c < nc; c++)
            fits &= share >= lv[c];
        for (size_t c = 1; c < nc && fits; c++)
            t->col_w[c] = share;
    }
    free(lv);
    for (size_t r = 0; r < t->nrows; r++) {
        double h = 0;
        for (size_t c = 0; c < t->ncols; c++) {
            style st = cell_style(t, r, c);
            h = fmax(h, measure(p, &st, t->col_w[c] - 2 * t->pad, t->cells[r * t->ncols + c].text));
        }
        t->row_h[r] = h + ROW_PAD * t->size;
    }
    return true;
}

/* Draws row r at (x, top); returns its height. */
static double table_row(pdf *p, const table *t, size_t r, double x, double top)
{
    double w = 0;
    for (size_t c = 0; c < t->ncols; c++)
        w += t->col_w[c];
    bool head = t->header && r == 0;
    if (t->zebra && !head && (r - t->header) % 2 == 1)
        fill_rect(p, ZEBRA, x, top, w, t->row_h[r]);
    double cx = x;
    for (size_t c = 0; c < t->ncols; c++) {
        style st = cell_style(t, r, c);
        /* Header cells sit on the row's bottom, like the numbers below them. */
        const char *text = t->cells[r * t->ncols + c].text;
        double dy = head ? t->row_h[r] - ROW_PAD * t->size -
                               measure(p, &st, t->col_w[c] - 2 * t->pad, text)
                         : 0;
        double saved = p->bottom;
        p->bottom = INFINITY;
        paragraph(p, &st, cx + t->pad, top + ROW_PAD / 2 * t->size + dy, t->col_w[c] - 2 * t->pad,
                  t->right[c] ? 1 : 0, text);
        p->bottom = saved;
        cx += t->col_w[c];
    }
    if (head)
        hrule(p, x, top + t->row_h[r], w, 0.6);
    return t->row_h[r];
}

/* Lays out the whole table from `top`, leaving out rows that would pass
 * p->bottom. Returns the height used. */
static double table_block(pdf *p, table *t, double x, double top, double w)
{
    if (!table_measure(p, t, w))
        return 0;
    double y = top;
    for (size_t r = 0; r < t->nrows; r++) {
        if (y + t->row_h[r] > p->bottom)
            break;
        y += table_row(p, t, r, x, y);
    }
    table_free(t);
    return y - top;
}

/* ---- page furniture ----------------------------------------------------- */

/* Adds an A4 page and keeps it in p->pages; NULL on a libharu error. */
/* A new page at the end, or, while p->insert_at is set, before that page
 * (summary.pdf's overview goes before the kernels' pages made earlier). */
static HPDF_Page new_page(pdf *p)
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

static double heading(pdf *p, const char *text, double scale, double top)
{
    style st = {RC_FONT_BOLD, SIZE_HEADING * scale, ACCENT};
    return paragraph(p, &st, MARGIN_X, top, CONTENT_W, 0, text) + 3 * scale;
}

/* The title: one line shrunk to fit, down to SIZE_TITLE_MIN, then wrapped
 * onto at most three lines. Returns the height used. */
static double title(pdf *p, const char *text, double scale, double top)
{
    style st = {RC_FONT_BOLD, SIZE_TITLE * scale, INK};
    double w = width_of(p, &st, text, strlen(text));
    if (w > CONTENT_W)
        st.size = fmax(SIZE_TITLE_MIN * scale, st.size * CONTENT_W / w * 0.999);
    double saved = p->bottom;
    p->bottom = fmin(saved, top + 3 * leading(&st) + 0.01);
    double h = paragraph(p, &st, MARGIN_X, top, CONTENT_W, 0, text);
    p->bottom = saved;
    return h;
}

static void footer(pdf *p, HPDF_Page page, const char *right)
{
    HPDF_Page saved = p->page;
    p->page = page;
    style st = {RC_FONT_REGULAR, SIZE_FOOTER, MUTED};
    double rw = right ? width_of(p, &st, right, strlen(right)) : 0;
    const char *left = "roofcast " RC_VERSION " \xC2\xB7 estimates from declared work and "
                       "datasheet figures, not measurements";
    double lw = CONTENT_W - rw - (right ? 12 : 0);
    lines ls = {NULL, 0, 0};
    wrap(p, &st, left, lw, &ls);
    if (ls.n > 0)
        draw_line(p, &st, MARGIN_X, FOOTER_BASELINE, lw, 0, ls.v[0], ls.n > 1);
    free(ls.v);
    if (right)
        draw_text(p, &st, PAGE_W - MARGIN_X - rw, FOOTER_BASELINE, right, strlen(right));
    hrule(p, MARGIN_X, FOOTER_BASELINE - SIZE_FOOTER - 4, CONTENT_W, 0.4);
    p->page = saved;
}

/* ---- a kernel's page ---------------------------------------------------- */

typedef struct {
    const char *label, *value;
} fact;

/* A column of label/value pairs; returns its height. */
static double facts(pdf *p, const fact *f, size_t n, double x, double top, double w, double scale)
{
    style label = {RC_FONT_REGULAR, SIZE_BODY * scale, MUTED};
    style value = {RC_FONT_REGULAR, SIZE_BODY * scale, INK};
    /* The labels' column is as wide as the widest label, within reason. */
    double gap = 8 * scale, lw = 0;
    for (size_t i = 0; i < n; i++)
        lw = fmax(lw, width_of(p, &label, f[i].label, strlen(f[i].label)));
    lw = fmin(lw, 0.42 * w);
    double y = top;
    for (size_t i = 0; i < n; i++) {
        double h = fmax(measure(p, &label, lw, f[i].label),
                        measure(p, &value, w - lw - gap, f[i].value));
        if (y + h > p->bottom)
            break;
        paragraph(p, &label, x, y, lw, 0, f[i].label);
        paragraph(p, &value, x + lw + gap, y, w - lw - gap, 0, f[i].value);
        y += h + 1.5 * scale;
    }
    return y - top;
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
    cell *cells = calloc((n + 1) * NCOLS, sizeof *cells);
    if (!cells) {
        p->oom = true;
        return 0;
    }
    for (size_t c = 0; c < NCOLS; c++)
        cells[c] = (cell){head[c], false};
    size_t r = 1;
    for (xmlNodePtr e = est ? est->children : NULL; e; e = e->next) {
        if (!is_element(e, "estimate"))
            continue;
        bool fastest = attr_is(e, "fastest", "yes");
        for (size_t c = 0; c < NCOLS; c++)
            cells[r * NCOLS + c] = (cell){tx(p, e, attrs[c], "the GPU's name"),
                                          fastest && (c == 0 || c == 5)};
        r++;
    }
    table t = {n + 1, NCOLS, cells, right, true, true, false,
               SIZE_TABLE * scale, 3 * scale, NULL, NULL};
    double h = table_block(p, &t, MARGIN_X, top, CONTENT_W);
    free(cells);
    return h;
}

/* The blocks of a kernel's page from MARGIN_TOP down, at font scale
 * `scale`, with the chart `chart_h` high (nothing when 0). Draws when
 * p->page is set. Returns the height used; *chart_top is where the chart
 * goes. */
static double kernel_blocks(pdf *p, xmlNodePtr k, double scale, double chart_h,
                            double *chart_top)
{
    double y = MARGIN_TOP;
    xmlNodePtr model = counts(k, "model"), launched = counts(k, "launch");
    xmlNodePtr launch = child(k, "launch");
    y += title(p, kernel_name(p, k), scale, y);
    style sub = {RC_FONT_REGULAR, SIZE_SUBTITLE * scale, MUTED};
    double saved = p->bottom;
    p->bottom = fmin(saved, y + 2 * scale + 4 * leading(&sub) + 0.01);
    y += 2 * scale + paragraph(p, &sub, MARGIN_X, y + 2 * scale, CONTENT_W, 0,
                               tx(p, child(k, "summary"), NULL, "the kernel's summary"));
    p->bottom = saved;
    y += 4 * scale;
    hrule(p, MARGIN_X, y, CONTENT_W, 0.6);
    y += 8 * scale;

    /* Launch and work, side by side. */
    xmlNodePtr params = child(k, "params");
    size_t nparams = 0;
    for (xmlNodePtr q = params ? params->children : NULL; q; q = q->next)
        nparams += is_element(q, "param");
    fact *left = calloc(3 + nparams, sizeof *left), right[5];
    size_t nl = 0, nr = 0;
    if (!left) {
        p->oom = true;
        return 0;
    }
    left[nl++] = (fact){"Grid", join(p, tx(p, launch, "grid", "the grid"), " \xE2\x86\x92 ",
                                     tx(p, launch, "blocks-text", ""), " blocks", NULL)};
    left[nl++] = (fact){"Block", join(p, tx(p, launch, "block", "the block"), " \xE2\x86\x92 ",
                                      tx(p, launch, "threads-per-block-text", ""),
                                      " threads per block", NULL)};
    left[nl++] = (fact){"Launched threads", tx(p, launch, "threads-text", "")};
    for (xmlNodePtr q = params ? params->children : NULL; q && nl < 3 + nparams; q = q->next) {
        if (!is_element(q, "param"))
            continue;
        const char *note = tx(p, q, "note", "a parameter's note");
        left[nl++] = (fact){join(p, "Parameter ", tx(p, q, "name", "a parameter's name"), NULL),
                            join(p, tx(p, q, "value-text", ""), *note ? " (" : "", note,
                                 *note ? ")" : "", NULL)};
    }
    xmlNodePtr th = child(model, "threads"), bl = child(model, "blocks");
    xmlNodePtr fl = child(model, "flops"), by = child(model, "bytes");
    right[nr++] = (fact){"Active threads",
                         join(p, tx(p, th, "active-text", ""), " of ",
                              tx(p, th, "launched-text", ""),
                              " (", tx(p, th, "active-percent-text", ""), " %), in ",
                              tx(p, bl, "active-text", ""), " of ", tx(p, bl, "launched-text", ""),
                              " blocks", NULL)};
    right[nr++] = (fact){"FLOPs", tx(p, fl, "total-text", "")};
    right[nr++] = (fact){"Bytes moved", join(p, tx(p, by, "total-text", ""), " (",
                                             tx(p, by, "mib-text", ""), " MiB)", NULL)};
    right[nr++] = (fact){"Arithmetic intensity",
                         join(p, tx(p, child(model, "intensity"), "value-text", ""), " FLOP/byte",
                              NULL)};
    if (launched)
        right[nr++] = (fact){
            "As launched",
            join(p, tx(p, child(launched, "threads"), "active-text", ""), " threads, ",
                 tx(p, child(launched, "flops"), "total-text", ""), " FLOPs, ",
                 tx(p, child(launched, "bytes"), "total-text", ""),
                 " bytes (the model's assumptions do not hold for this launch)", NULL)};
    double col = (CONTENT_W - 16 * scale) / 2;
    double hl = facts(p, left, nl, MARGIN_X, y, col, scale);
    double hr = facts(p, right, nr, MARGIN_X + col + 16 * scale, y, col, scale);
    y += fmax(hl, hr);
    free(left);

    /* Notes, as a list. */
    style body = {RC_FONT_REGULAR, SIZE_BODY * scale, INK};
    xmlNodePtr notes = child(k, "notes");
    bool first = true;
    for (xmlNodePtr n = notes ? notes->children : NULL; n; n = n->next) {
        if (!is_element(n, "note"))
            continue;
        if (first)
            y += 4 * scale;
        first = false;
        const char *text = tx(p, n, NULL, "a note");
        double h = paragraph(p, &body, MARGIN_X + 10 * scale, y, CONTENT_W - 10 * scale, 0, text);
        if (h > 0)
            draw_text(p, &body, MARGIN_X, y + body.size, "\xE2\x80\xA2", 3);
        y += h + 1.5 * scale;
    }

    y += 10 * scale;
    y += heading(p, "Time per launch in \xC2\xB5s: t_total = max(t_compute, t_mem) + t_launch "
                    "(fastest in bold)", scale, y);
    y += time_table(p, k, y, scale);

    if (chart_h > 0) { /* the chart has its own title */
        y += 10 * scale;
        *chart_top = y;
        y += chart_h;
    }

    xmlNodePtr interp = child(k, "interpretation");
    if (interp && interp->children) {
        y += 10 * scale;
        y += heading(p, "Interpretation", scale, y);
        for (xmlNodePtr q = interp->children; q; q = q->next)
            if (is_element(q, "p"))
                y += paragraph(p, &body, MARGIN_X, y, CONTENT_W, 0,
                               tx(p, q, NULL, "the interpretation")) +
                     3 * scale;
    }

    /* What changed since the baseline, when something did (--baseline). */
    xmlNodePtr changes = child(k, "changes");
    if (changes && changes->children) {
        y += 10 * scale;
        y += heading(p, "Changes since the baseline", scale, y);
        const char *inputs = "";
        for (xmlNodePtr c = changes->children; c; c = c->next)
            if (is_element(c, "input"))
                inputs = join(p, inputs, *inputs ? "; " : "Inputs that changed: ",
                              tx(p, c, "kind", "a change"), " ",
                              attr_is(c, "kind", "gpu") ? join(p, tx(p, c, "gpu", "a change"), " ", NULL)
                                                         : "",
                              tx(p, c, "name", "a change"), ": ", tx(p, c, "old", "a change"),
                              " \xE2\x86\x92 ", tx(p, c, "new", "a change"), NULL);
        if (*inputs)
            y += paragraph(p, &body, MARGIN_X, y, CONTENT_W, 0, join(p, inputs, ".", NULL)) +
                 3 * scale;
        const char *moves = "";
        for (xmlNodePtr c = changes->children; c; c = c->next)
            if (is_element(c, "estimate") && attr_is(c, "quantity", "t-total"))
                moves = join(p, moves, *moves ? "; " : "t_total (\xC2\xB5s): ",
                             tx(p, c, "gpu-name", "a change"), " ", tx(p, c, "old-text", "a change"),
                             " \xE2\x86\x92 ", tx(p, c, "new-text", "a change"), " (",
                             tx(p, c, "percent-text", "a change"), ")", NULL);
        if (*moves)
            y += paragraph(p, &body, MARGIN_X, y, CONTENT_W, 0, join(p, moves, ".", NULL)) +
                 3 * scale;
    }
    return y - MARGIN_TOP;
}

/* Adds the page of kernel k: measured first at shrinking scales until its
 * text leaves the chart at least CHART_MIN (scaled), then drawn. */
static void kernel_page(pdf *p, xmlNodePtr k)
{
    rc_chart *chart = rc_chart_new_roofline(k, p->gpus, p->fonts);
    double cw = chart ? rc_chart_width(chart) : 0, ch = chart ? rc_chart_height(chart) : 0;
    double natural = cw > 0 ? ch * CONTENT_W / cw : 0; /* the chart at full width */
    double avail = PAGE_H - MARGIN_BOTTOM - MARGIN_TOP;
    double scale = 1, chart_h = 0, top = 0;
    for (;; scale -= 0.05) {
        /* Measured without the bottom margin's cut, which would hide an overflow. */
        p->page = NULL;
        p->bottom = INFINITY;
        double want = chart ? fmin(natural, CHART_MIN * scale) : 0;
        double room = avail - (kernel_blocks(p, k, scale, want, &top) - want);
        if (room >= want || scale < MIN_SCALE + 0.01) {
            /* At the smallest scale the chart gives way before any text. */
            chart_h = chart ? fmax(0, fmin(natural, room)) : 0;
            break;
        }
    }
    p->bottom = PAGE_H - MARGIN_BOTTOM;
    p->page = new_page(p);
    if (!p->page)
        goto end;
    kernel_blocks(p, k, scale, chart_h, &top);
    if (chart && chart_h > 0) {
        double s = fmin(CONTENT_W / cw, chart_h / ch);
        double x = MARGIN_X + (CONTENT_W - cw * s) / 2;
        rc_paint_hpdf(p->page, chart, &p->hf, x, top, s);
    }
end:
    rc_chart_free(chart);
    p->page = NULL;
}

/* ---- the document ------------------------------------------------------- */

/* Gives font i a ToUnicode map that readers can use (rc_hpdf_fix_to_unicode). */
static void fix_to_unicode(pdf *p, int i)
{
    if (p->hf.font[i] && !p->error && !rc_hpdf_fix_to_unicode(p->hf.font[i]))
        p->oom = true; /* the font is libharu's UTF-8 TrueType: only memory can fail */
}

/* Starts a document: libharu with compression, the UTF-8 encoder and both
 * TTFs embedded, read from the bytes font.c holds. Returns false
 * after reporting. */
static bool pdf_open(pdf *p, xmlDocPtr doc, const rc_fonts *fonts, const char *output,
                     rc_diag *diag)
{
    *p = (pdf){0};
    p->diag = diag;
    p->output = output;
    p->fonts = fonts;
    p->gpus = doc ? child(xmlDocGetRootElement(doc), "gpus") : NULL;
    p->bottom = PAGE_H - MARGIN_BOTTOM;
    p->hf.has_glyph = has_glyph;
    p->hf.ctx = p;
    p->spare = rc_fonts_take(fonts, RC_SPARE_PDF);
    if (p->spare) { /* a new document in a kept one: the fonts are loaded */
        p->pdf = p->spare->pdf;
        p->pdf->error.user_data = p;
        if (HPDF_NewDoc(p->pdf) != HPDF_OK) {
            report_hpdf(p, NULL);
            return false;
        }
        HPDF_SetCompressionMode(p->pdf, HPDF_COMP_ALL);
        HPDF_SetCurrentEncoder(p->pdf, "UTF-8");
        for (int i = 0; i < RC_FONT_COUNT && !p->error; i++) {
            p->def[i] = HPDF_GetFontDef(p->pdf, p->spare->name[i]);
            p->hf.font[i] = HPDF_GetFont(p->pdf, p->spare->name[i], "UTF-8");
            fix_to_unicode(p, i);
        }
        if (p->error || !p->hf.font[0] || !p->hf.font[1] || !p->def[0] || !p->def[1]) {
            report_hpdf(p, NULL);
            return false;
        }
    } else {
        p->spare = calloc(1, sizeof *p->spare);
        p->pdf = p->spare ? HPDF_New(on_error, p) : NULL;
        if (!p->pdf) {
            rc_error_at(diag, NULL, 0, "%s: cannot start libharu (out of memory)", output);
            return false;
        }
        p->spare->pdf = p->pdf;
        /* No PDF/A and no encryption: both add an /ID made from the time. */
        HPDF_SetCompressionMode(p->pdf, HPDF_COMP_ALL);
        HPDF_UseUTFEncodings(p->pdf);
        HPDF_SetCurrentEncoder(p->pdf, "UTF-8");
        for (int i = 0; i < RC_FONT_COUNT; i++) {
            const char *path = rc_font_path((rc_font_role)i);
            size_t len = 0;
            const unsigned char *data = rc_fonts_file(fonts, (rc_font_role)i, &len);
            const char *name = rc_hpdf_load_ttf(p->pdf, &p->spare->source[i], data, len);
            if (name && !p->error) {
                snprintf(p->spare->name[i], sizeof p->spare->name[i], "%s", name);
                /* Direct lookups first: HPDF_GetFont looks up every code point. */
                rc_hpdf_direct_cmap(p->pdf, name);
                p->def[i] = HPDF_GetFontDef(p->pdf, name);
                p->hf.font[i] = HPDF_GetFont(p->pdf, name, "UTF-8");
                fix_to_unicode(p, i);
            }
            if (p->error || !p->hf.font[i] || !p->def[i]) {
                report_hpdf(p, path);
                return false;
            }
        }
    }
    char producer[64];
    snprintf(producer, sizeof producer, "roofcast %s (libharu %s)", RC_VERSION, HPDF_GetVersion());
    HPDF_SetInfoAttr(p->pdf, HPDF_INFO_PRODUCER, producer);
    HPDF_SetInfoAttr(p->pdf, HPDF_INFO_CREATOR, "roofcast");
    return true;
}

static HPDF_STATUS write_to_sink(HPDF_Stream stream, const HPDF_BYTE *ptr, HPDF_UINT siz)
{
    const rc_sink *sink = stream->attr;
    sink->put(sink->ctx, ptr, siz);
    return HPDF_OK;
}

/* Saves the document into `sink` as libharu writes it, rather than into
 * libharu's memory stream and then a copy: summary.pdf is never whole in
 * memory. HPDF_SaveToStream writes to the document's stream, so a writer
 * stands in for it for the call. Returns false after reporting a libharu
 * failure; the sink reports its own. */
static bool pdf_write(pdf *p, const rc_sink *sink)
{
    if (p->oom) {
        rc_error_at(p->diag, NULL, 0, "%s: out of memory", p->output);
        return false;
    }
    HPDF_Stream writer = p->error ? NULL
                                  : HPDF_CallbackWriter_New(p->pdf->mmgr, write_to_sink,
                                                            (void *)sink);
    if (!writer && !p->error) {
        rc_error_at(p->diag, NULL, 0, "%s: out of memory", p->output);
        return false;
    }
    bool ok = false;
    if (writer) {
        HPDF_Stream kept = p->pdf->stream;
        p->pdf->stream = writer;
        ok = HPDF_SaveToStream(p->pdf) == HPDF_OK && !p->error;
        p->pdf->stream = kept;
        HPDF_Stream_Free(writer);
    }
    if (!ok)
        report_hpdf(p, NULL);
    return ok;
}

static void put_in_buffer(void *ctx, const void *data, size_t len)
{
    rc_buffer_put(ctx, data, len);
}

/* Saves the document to memory. Returns the file (the caller frees it), or
 * NULL after reporting. */
static char *pdf_save(pdf *p, size_t *len)
{
    rc_buffer b = {0};
    rc_sink sink = {put_in_buffer, &b};
    if (!pdf_write(p, &sink)) {
        free(b.data);
        return NULL;
    }
    char *out = rc_buffer_take(&b, len);
    if (!out)
        rc_error_at(p->diag, NULL, 0, "%s: out of memory", p->output);
    return out;
}

/* Ends the document; the libharu one is kept for the next PDF unless
 * something went wrong in it. */
static void pdf_close(pdf *p)
{
    if (p->spare && p->pdf && !p->error && !p->oom) {
        HPDF_FreeDoc(p->pdf); /* keeps the fonts and the encoder */
        p->pdf->error.user_data = NULL;
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
}

static xmlNodePtr find_kernel(xmlDocPtr doc, const char *id)
{
    xmlNodePtr kernels = child(xmlDocGetRootElement(doc), "kernels");
    for (xmlNodePtr k = kernels ? kernels->children : NULL; k; k = k->next)
        if (is_element(k, "kernel") && attr_is(k, "id", id))
            return k;
    return NULL;
}

char *rc_render_pdf_kernel(xmlDocPtr doc, const char *kernel_id, const rc_fonts *fonts,
                           size_t *len, rc_diag *diag)
{
    char output[256];
    snprintf(output, sizeof output, "%s.pdf", kernel_id);
    char *out = NULL;
    pdf p;
    if (!pdf_open(&p, doc, fonts, output, diag))
        goto end;
    xmlNodePtr k = find_kernel(doc, kernel_id);
    if (!k) {
        rc_error_at(diag, NULL, 0, "%s: no kernel '%s' in the results", output, kernel_id);
        goto end;
    }
    const char *name = kernel_name(&p, k);
    HPDF_SetInfoAttr(p.pdf, HPDF_INFO_TITLE, join(&p, name, ": execution time estimates", NULL));
    HPDF_SetInfoAttr(p.pdf, HPDF_INFO_SUBJECT,
                     tx(&p, child(k, "summary"), NULL, "the kernel's summary"));
    kernel_page(&p, k);
    for (size_t i = 0; i < p.npages; i++)
        footer(&p, p.pages[i], NULL);
    out = pdf_save(&p, len);
end:
    pdf_close(&p);
    return out;
}

/* ---- summary.pdf -------------------------------------------------------- */

/* Where the overview flows: a new page when the next block would pass the
 * bottom margin. Counts pages while measuring. */
typedef struct {
    double y;
    size_t page; /* 0-based index among the overview pages */
} flow;

static void flow_need(pdf *p, flow *f, double h)
{
    if (f->y + h <= PAGE_H - MARGIN_BOTTOM || f->y <= MARGIN_TOP)
        return;
    f->page++;
    f->y = MARGIN_TOP;
    if (p->page) {
        HPDF_Page done = p->page;
        p->page = new_page(p);
        if (p->spill && !p->error)
            seal_page(p->spill, done);
    }
}

static void add_link(pdf *p, size_t page, size_t kernel, double x, double top, double w, double h)
{
    if (!p->page)
        return;
    if (p->nlinks == p->caplinks) {
        size_t cap = p->caplinks ? 2 * p->caplinks : 16;
        page_link *v = realloc(p->links, cap * sizeof *v);
        if (!v) {
            p->oom = true;
            return;
        }
        p->links = v;
        p->caplinks = cap;
    }
    HPDF_Rect r = {(HPDF_REAL)x, (HPDF_REAL)(PAGE_H - top - h), (HPDF_REAL)(x + w),
                   (HPDF_REAL)(PAGE_H - top)};
    p->links[p->nlinks++] = (page_link){page, kernel, r};
}

typedef struct {
    xmlNodePtr *kernels, *gpus;
    size_t nk, ng;
    size_t first_kernel_page; /* 1-based page number of the first kernel */
    const size_t *kernel_page; /* each kernel's page among the kernels' pages */
} overview;

/* The t_total of kernel ki on GPU gi, bold when fastest. */
static cell time_cell(pdf *p, const overview *o, size_t ki, size_t gi)
{
    xmlChar *gid = xmlGetProp(o->gpus[gi], X("id"));
    xmlNodePtr est = child(o->kernels[ki], "estimates");
    cell c = {"\xE2\x80\x93", false};
    for (xmlNodePtr e = est ? est->children : NULL; gid && e; e = e->next)
        if (is_element(e, "estimate") && attr_is(e, "gpu", (const char *)gid)) {
            c.text = tx(p, e, "t-total-text", "");
            c.bold = attr_is(e, "fastest", "yes");
        }
    xmlFree(gid);
    return c;
}

/* The overview table: a row per GPU and a column per kernel when there are
 * no more kernels than GPUs, else the other way round; columns that do not
 * fit the width go into further bands, each repeating the row labels.
 * Rows flow onto new pages with their header. */
static void overview_table(pdf *p, const overview *o, flow *f)
{
    bool kernel_cols = o->nk <= o->ng;
    size_t nrows = kernel_cols ? o->ng : o->nk, ncols = kernel_cols ? o->nk : o->ng;
    style st = {RC_FONT_REGULAR, SIZE_TABLE, INK};
    /* Value columns per band: the widest header word or value must fit. */
    double label_w = 0;
    for (size_t r = 0; r < nrows; r++) {
        const char *s = kernel_cols ? gpu_name(p, o->gpus[r])
                                    : kernel_name(p, o->kernels[r]);
        label_w = fmax(label_w, width_of(p, &st, s, strlen(s)));
    }
    label_w = fmin(label_w + 6, CONTENT_W * 0.34);
    double min_col = 58;
    size_t per_band = (size_t)fmax(1, floor((CONTENT_W - label_w) / min_col));
    size_t nbands = (ncols + per_band - 1) / per_band;
    per_band = nbands ? (ncols + nbands - 1) / nbands : 1; /* bands of even width */
    for (size_t band = 0; band * per_band < ncols; band++) {
        size_t c0 = band * per_band, nc = ncols - c0 < per_band ? ncols - c0 : per_band;
        size_t tc = nc + 1;
        cell *cells = calloc((nrows + 1) * tc, sizeof *cells);
        bool *right = calloc(tc, sizeof *right);
        if (!cells || !right) {
            free(cells);
            free(right);
            p->oom = true;
            return;
        }
        cells[0] = (cell){kernel_cols ? "GPU \\ kernel" : "Kernel \\ GPU", false};
        for (size_t c = 0; c < nc; c++) {
            right[c + 1] = true;
            cells[c + 1] = (cell){kernel_cols ? kernel_name(p, o->kernels[c0 + c])
                                              : gpu_name(p, o->gpus[c0 + c]),
                                  false};
        }
        for (size_t r = 0; r < nrows; r++) {
            cells[(r + 1) * tc] = (cell){kernel_cols ? gpu_name(p, o->gpus[r])
                                                     : kernel_name(p, o->kernels[r]),
                                         false};
            for (size_t c = 0; c < nc; c++)
                cells[(r + 1) * tc + c + 1] = kernel_cols ? time_cell(p, o, c0 + c, r)
                                                          : time_cell(p, o, r, c0 + c);
        }
        table t = {nrows + 1, tc, cells, right, true, true, true, SIZE_TABLE, 3, NULL, NULL};
        double saved = p->bottom;
        p->bottom = INFINITY;
        if (table_measure(p, &t, CONTENT_W)) {
            f->y += band > 0 ? 10 : 0;
            for (size_t r = 0; r <= nrows; r++) {
                /* The header stays with the first row below it. */
                double need = t.row_h[r] + (r == 0 && nrows > 0 ? t.row_h[1] : 0);
                size_t before = f->page;
                flow_need(p, f, need);
                if (f->page != before && r > 0) /* the header again on the new page */
                    f->y += table_row(p, &t, 0, MARGIN_X, f->y);
                /* Kernel names link to their pages. */
                if (kernel_cols && r == 0) {
                    double x = MARGIN_X + t.col_w[0];
                    for (size_t c = 0; c < nc; c++) {
                        add_link(p, f->page, c0 + c, x, f->y, t.col_w[c + 1], t.row_h[0]);
                        x += t.col_w[c + 1];
                    }
                } else if (!kernel_cols && r > 0)
                    add_link(p, f->page, r - 1, MARGIN_X, f->y, t.col_w[0], t.row_h[r]);
                f->y += table_row(p, &t, r, MARGIN_X, f->y);
            }
        }
        p->bottom = saved;
        table_free(&t);
        free(cells);
        free(right);
    }
}

/* The overview pages: title, table, contents, rejected inputs and the
 * overview chart. */
static void overview_pages(pdf *p, xmlDocPtr doc, const overview *o, flow *f)
{
    char counts_text[96];
    snprintf(counts_text, sizeof counts_text, "%zu kernel%s on %zu GPU%s", o->nk,
             o->nk == 1 ? "" : "s", o->ng, o->ng == 1 ? "" : "s");
    f->y += title(p, "Execution time estimates", 1, f->y);
    style sub = {RC_FONT_REGULAR, SIZE_SUBTITLE, MUTED};
    f->y += 2 + paragraph(p, &sub, MARGIN_X, f->y + 2, CONTENT_W, 0,
                          join(p, counts_text, ": t_total per launch in \xC2\xB5s, from "
                               "declared work and datasheet figures. Bold: the fastest GPU for "
                               "each kernel.", NULL));
    f->y += 4;
    hrule(p, MARGIN_X, f->y, CONTENT_W, 0.6);
    f->y += 10;
    f->y += heading(p, "t_total (\xC2\xB5s) of every kernel on every GPU", 1, f->y);
    overview_table(p, o, f);

    style body = {RC_FONT_REGULAR, SIZE_BODY, INK}, bold = {RC_FONT_BOLD, SIZE_BODY, INK};
    f->y += 14;
    flow_need(p, f, 3 * SIZE_HEADING);
    f->y += heading(p, "Contents", 1, f->y);
    for (size_t i = 0; i < o->nk; i++) {
        char page_no[32];
        snprintf(page_no, sizeof page_no, "page %zu",
                 o->first_kernel_page + (o->kernel_page[i] == NO_PAGE ? i : o->kernel_page[i]));
        double pw = width_of(p, &body, page_no, strlen(page_no));
        double w = CONTENT_W - pw - 12;
        const char *name = kernel_name(p, o->kernels[i]);
        const char *summary = tx(p, child(o->kernels[i], "summary"), NULL, "the kernel's summary");
        double saved = p->bottom;
        flow_need(p, f, measure(p, &bold, w, name) + measure(p, &body, w - 10, summary));
        p->bottom = PAGE_H - MARGIN_BOTTOM;
        double top = f->y;
        f->y += paragraph(p, &bold, MARGIN_X, f->y, w, 0, name);
        f->y += paragraph(p, &body, MARGIN_X + 10, f->y, w - 10, 0, summary);
        draw_text(p, &body, PAGE_W - MARGIN_X - pw, top + body.size, page_no, strlen(page_no));
        add_link(p, f->page, i, MARGIN_X, top, CONTENT_W, f->y - top);
        p->bottom = saved;
        f->y += 4;
    }

    xmlNodePtr rejected = child(xmlDocGetRootElement(doc), "rejected");
    if (rejected && rejected->children) {
        f->y += 10;
        flow_need(p, f, 3 * SIZE_HEADING);
        f->y += heading(p, "Rejected inputs (not in this summary)", 1, f->y);
        for (xmlNodePtr r = rejected->children; r; r = r->next) {
            if (!is_element(r, "input"))
                continue;
            const char *file = tx(p, r, "file", "a file name");
            const char *line = tx(p, r, "line-text", "");
            const char *text = join(p, file, *line ? ":" : "", line, ": ",
                                    tx(p, r, "message", "a message"), NULL);
            double saved = p->bottom;
            flow_need(p, f, measure(p, &body, CONTENT_W, text));
            p->bottom = PAGE_H - MARGIN_BOTTOM;
            f->y += paragraph(p, &body, MARGIN_X, f->y, CONTENT_W, 0, text) + 2;
            p->bottom = saved;
        }
    }

    /* The overview chart in the room left on the last page, if it is
     * legible there; it adds no page. */
    rc_chart *chart = p->page ? rc_chart_new_overview(xmlDocGetRootElement(doc), p->fonts) : NULL;
    if (chart) {
        double cw = rc_chart_width(chart), ch = rc_chart_height(chart);
        double top = f->y + 14, room = PAGE_H - MARGIN_BOTTOM - top;
        double s = cw > 0 && ch > 0 ? fmin(CONTENT_W / cw, room / ch) : 0;
        if (s >= OVERVIEW_MIN_SCALE) {
            rc_paint_hpdf(p->page, chart, &p->hf, MARGIN_X + (CONTENT_W - cw * s) / 2, top, s);
            f->y = top + ch * s;
        }
        rc_chart_free(chart);
    }
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
 * libharu keeps every page until the document is saved, and a kernel's
 * page is about 47 KB of drawing operators. So once a page is drawn, its
 * operators are compressed into p.spill, the caller's scratch file, and
 * libharu is left a stream that reads them back when it saves (seal_page):
 * memory then holds the page's objects, a few KB, rather than its
 * drawing. The footers ("Page 3 of 40") are drawn at the end, into a
 * second content stream each page gets when it is sealed. Without a
 * scratch file, or once writing to it fails, pages stay in memory. This reaches into libharu's structures
 * (hpdf_pages.h, hpdf_streams.h), which libhpdf-dev installs. */
struct rc_pdf_summary {
    pdf p;
    bool open;           /* pdf_open succeeded */
    size_t nkernels, cap;
    size_t *kernel_page; /* each kernel's page among the kernels' pages; NO_PAGE: none */
};

/* Where a sealed page's compressed operators are in the spill file. Owned
 * by libharu's stream (freed by sealed_free). */
typedef struct {
    FILE *spill;
    long offset;
    HPDF_UINT32 len, pos;
} sealed_piece;

static HPDF_STATUS sealed_read(HPDF_Stream stream, HPDF_BYTE *ptr, HPDF_UINT *siz)
{
    sealed_piece *s = stream->attr;
    HPDF_UINT32 want = *siz, n = want < s->len - s->pos ? want : s->len - s->pos;
    if (n > 0 && (fseek(s->spill, s->offset + (long)s->pos, SEEK_SET) != 0 ||
                  fread(ptr, 1, n, s->spill) != n)) {
        *siz = 0;
        return HPDF_SetError(stream->error, HPDF_FILE_IO_ERROR, 0);
    }
    s->pos += n;
    *siz = n;
    return n < want ? HPDF_STREAM_EOF : HPDF_OK;
}

static HPDF_STATUS sealed_seek(HPDF_Stream stream, HPDF_INT pos, HPDF_WhenceMode mode)
{
    sealed_piece *s = stream->attr;
    long long base = mode == HPDF_SEEK_CUR ? (long long)s->pos
                   : mode == HPDF_SEEK_END ? (long long)s->len : 0;
    if (base + pos < 0 || base + pos > s->len)
        return HPDF_SetError(stream->error, HPDF_FILE_IO_ERROR, 0);
    s->pos = (HPDF_UINT32)(base + pos);
    return HPDF_OK;
}

static HPDF_INT32 sealed_tell(HPDF_Stream stream)
{
    return (HPDF_INT32)((sealed_piece *)stream->attr)->pos;
}

static HPDF_UINT32 sealed_size(HPDF_Stream stream)
{
    return ((sealed_piece *)stream->attr)->len;
}

static void sealed_free(HPDF_Stream stream)
{
    HPDF_FreeMem(stream->mmgr, stream->attr);
}

/* The stream's data is compressed already, so libharu writes it as it is
 * (filter NONE) and drops any /Filter; this puts it back. */
static HPDF_STATUS write_flate_filter(HPDF_Dict dict, HPDF_Stream stream)
{
    (void)dict;
    return HPDF_Stream_WriteStr(stream, "/Filter /FlateDecode\012");
}

/* Reads all of a memory stream; NULL when out of memory. */
static unsigned char *stream_bytes(HPDF_Stream stream, HPDF_UINT32 *len)
{
    HPDF_UINT32 size = HPDF_Stream_Size(stream);
    unsigned char *data = malloc(size ? size : 1);
    HPDF_UINT n = size;
    if (!data || HPDF_Stream_Seek(stream, 0, HPDF_SEEK_SET) != HPDF_OK ||
        (size > 0 && HPDF_Stream_Read(stream, data, &n) > HPDF_STREAM_EOF) || n != size) {
        free(data);
        return NULL;
    }
    *len = size;
    return data;
}

/* Moves `page`'s operators so far into the spill file (see rc_pdf_summary)
 * and starts the page a new content stream for what is drawn later. On any
 * failure (a full disk among them: the bytes are flushed before the page
 * counts on them) the page is left as it was, in memory. */
static void seal_page(FILE *spill, HPDF_Page page)
{
    HPDF_PageAttr attr = page->attr;
    HPDF_Dict contents = attr->contents;
    HPDF_UINT32 raw_len = 0;
    unsigned char *raw = stream_bytes(contents->stream, &raw_len);
    uLongf packed_len = compressBound(raw_len);
    unsigned char *packed = raw ? malloc(packed_len) : NULL;
    long offset = -1;
    bool ok = packed && compress2(packed, &packed_len, raw, raw_len, Z_DEFAULT_COMPRESSION) == Z_OK &&
              fseek(spill, 0, SEEK_END) == 0 && (offset = ftell(spill)) >= 0 &&
              fwrite(packed, 1, packed_len, spill) == packed_len && fflush(spill) == 0;
    free(raw);
    free(packed);
    if (!ok)
        return;
    sealed_piece *piece = HPDF_GetMem(page->mmgr, sizeof *piece);
    HPDF_Stream reader = piece ? HPDF_CallbackReader_New(page->mmgr, sealed_read, sealed_seek,
                                                         sealed_tell, sealed_size, piece)
                               : NULL;
    if (!reader || HPDF_Page_New_Content_Stream(page, NULL) != HPDF_OK) {
        if (reader)
            HPDF_Stream_Free(reader);
        if (piece)
            HPDF_FreeMem(page->mmgr, piece);
        return;
    }
    /* What is drawn later is a footer of a few hundred bytes: a smaller
     * buffer than libharu's 4 KB default. */
    HPDF_PageAttr now = page->attr;
    HPDF_Stream small = HPDF_MemStream_New(page->mmgr, 512);
    if (small) {
        HPDF_Stream_Free(now->contents->stream);
        now->contents->stream = now->stream = small;
    }
    *piece = (sealed_piece){spill, offset, (HPDF_UINT32)packed_len, 0};
    reader->free_fn = sealed_free;
    HPDF_Stream_Free(contents->stream);
    contents->stream = reader;
    contents->filter = HPDF_STREAM_FILTER_NONE;
    contents->write_fn = write_flate_filter;
}

rc_pdf_summary *rc_pdf_summary_new(const rc_fonts *fonts, FILE *scratch, rc_diag *diag)
{
    rc_pdf_summary *s = calloc(1, sizeof *s);
    if (!s) {
        rc_error_at(diag, NULL, 0, "summary.pdf: out of memory");
        return NULL;
    }
    s->open = pdf_open(&s->p, NULL, fonts, "summary.pdf", diag);
    s->p.spill = scratch;
    return s;
}

void rc_pdf_summary_add(rc_pdf_summary *s, xmlNodePtr gpus, xmlNodePtr kernel)
{
    pdf *p = &s->p;
    if (s->nkernels == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 64;
        size_t *v = realloc(s->kernel_page, cap * sizeof *v);
        if (!v) {
            p->oom = true;
            return;
        }
        s->kernel_page = v;
        s->cap = cap;
    }
    size_t page = NO_PAGE;
    if (s->open && !p->error && !p->oom) {
        size_t owned = p->nowned, before = p->npages;
        p->gpus = gpus;
        kernel_page(p, kernel);
        if (p->npages > before) {
            page = before;
            HPDF_Outline mark = HPDF_CreateOutline(p->pdf, NULL, kernel_name(p, kernel),
                                                   HPDF_GetEncoder(p->pdf, "UTF-8"));
            HPDF_Destination dst = HPDF_Page_CreateDestination(p->pages[before]);
            if (mark && dst) {
                HPDF_Destination_SetFit(dst);
                HPDF_Outline_SetDestination(mark, dst);
            }
        }
        p->gpus = NULL;
        for (size_t i = before; p->spill && i < p->npages && !p->error; i++)
            seal_page(p->spill, p->pages[i]);
        drop_owned(p, owned);
    }
    s->kernel_page[s->nkernels++] = page;
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
    if (!o.kernels || !o.gpus || p->oom) {
        rc_error_at(p->diag, NULL, 0, "summary.pdf: out of memory");
        goto end;
    }
    if (o.nk != s->nkernels) {
        rc_error_at(p->diag, NULL, 0, "summary.pdf: %zu kernel pages for %zu kernels (a bug)",
                    s->nkernels, o.nk);
        goto end;
    }
    char subject[96];
    snprintf(subject, sizeof subject,
             "t_total of %zu kernel%s on %zu GPU%s, with a page per kernel",
             o.nk, o.nk == 1 ? "" : "s", o.ng, o.ng == 1 ? "" : "s");
    HPDF_SetInfoAttr(p->pdf, HPDF_INFO_TITLE, "roofcast summary: execution time estimates");
    HPDF_SetInfoAttr(p->pdf, HPDF_INFO_SUBJECT, subject);
    HPDF_SetPageMode(p->pdf, HPDF_PAGE_MODE_USE_OUTLINE);

    /* Measure the overview first: its page count numbers the kernels' pages,
     * and those numbers are in it (a wider number could wrap a line). */
    flow f;
    o.first_kernel_page = 2;
    p->page = NULL;
    size_t owned = p->nowned;
    for (int pass = 0; pass < 3; pass++) {
        f = (flow){MARGIN_TOP, 0};
        overview_pages(p, doc, &o, &f);
        drop_owned(p, owned);
        if (o.first_kernel_page == f.page + 2)
            break;
        o.first_kernel_page = f.page + 2;
    }
    /* In front of the kernels' pages. */
    p->insert_at = 1;
    f = (flow){MARGIN_TOP, 0};
    p->page = new_page(p);
    if (p->page)
        overview_pages(p, doc, &o, &f);
    drop_owned(p, owned);
    p->page = NULL;
    size_t first = p->insert_at - 1;
    p->insert_at = 0;

    for (size_t i = 0; i < p->nlinks && !p->error; i++) {
        size_t k = p->links[i].kernel;
        if (k >= s->nkernels || s->kernel_page[k] == NO_PAGE)
            continue;
        size_t target = first + s->kernel_page[k];
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
    for (size_t i = 0; i < p->npages; i++) {
        char number[64];
        snprintf(number, sizeof number, "Page %zu of %zu", i + 1, p->npages);
        footer(p, p->pages[i], number);
    }
    out = pdf_write(p, sink);
end:
    free(o.kernels);
    free(o.gpus);
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
    rc_sink sink = {put_in_buffer, &b};
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
