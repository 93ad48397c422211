/* pdf_layout_text.c: text for the PDF renderer's layout: measured with
 * the embedded fonts' own widths, drawn, wrapped into columns and set as
 * paragraphs. See pdf_layout.h. */
#include "render/pdf_layout.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "paint/hpdf_internal.h"
#include "util/array.h"

#define LEADING 1.22 /* line height / font size */
#define FIT_SLACK 0.01 /* points: text measured to fit a column still fits it */

/* ---- measuring and drawing text ---------------------------------------- */

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
    if (!RC_GROW(ls->v, ls->cap, ls->n + 1)) {
        p->oom = true;
        return;
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

