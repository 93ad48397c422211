/* chart_text.c: text set in lines: greedy wrapping of names and notes. See
 * chart.h and chart_impl.h. */
#include "render/chart_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/array.h"

void chart_lines_free(lines *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->line[i]);
    free(l->line);
    *l = (lines){NULL, 0, 0};
}

static bool lines_push(lines *l, const char *s, size_t len)
{
    if (!RC_GROW(l->line, l->cap, l->n + 1))
        return false;
    char *copy = strndup(s, len);
    if (!copy)
        return false;
    l->line[l->n++] = copy;
    return true;
}

static double width_of(const rc_fonts *f, rc_font_role role, double size, const char *s, size_t len)
{
    char *tmp = strndup(s, len);
    if (!tmp)
        return 0;
    double w = rc_fonts_width(f, role, size, tmp);
    free(tmp);
    return w;
}

/* Breaks a word wider than `maxw` between characters, after a '_', '-',
 * '/' or '.' where one fits, so names are split where they read best. */
static bool break_word(const rc_fonts *f, rc_font_role role, double size, const char *w, size_t len,
                       double maxw, lines *out, const char **rest)
{
    const char *p = w, *end = w + len, *last_fit = NULL, *last_punct = NULL;
    while (p < end) {
        const char *q = p;
        rc_utf8_next(&q);
        if (q > end)
            q = end;
        if (width_of(f, role, size, w, (size_t)(q - w)) > maxw && last_fit)
            break;
        last_fit = q;
        if (strchr("_-/.", *p))
            last_punct = q;
        p = q;
    }
    const char *cut = last_punct && last_punct < end && last_punct > w ? last_punct : last_fit;
    if (!cut || cut >= end) {
        *rest = end;
        return lines_push(out, w, len);
    }
    *rest = cut;
    return lines_push(out, w, (size_t)(cut - w));
}

/* Greedy word wrap of `text` into lines no wider than `maxw`; a single word
 * too wide is broken (break_word). Nothing is ever dropped. */
bool chart_wrap(const rc_fonts *f, rc_font_role role, double size, const char *text, double maxw,
                lines *out)
{
    const char *p = text;
    char *cur = NULL;
    size_t curlen = 0;
    bool ok = true;
    while (ok && *p) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        size_t wl = strcspn(p, " ");
        /* Try the word on the current line. */
        if (cur) {
            char *t = malloc(curlen + 1 + wl + 1);
            if (!t) {
                ok = false;
                break;
            }
            memcpy(t, cur, curlen);
            t[curlen] = ' ';
            memcpy(t + curlen + 1, p, wl);
            t[curlen + 1 + wl] = '\0';
            if (rc_fonts_width(f, role, size, t) <= maxw) {
                free(cur);
                cur = t;
                curlen += 1 + wl;
                p += wl;
                continue;
            }
            free(t);
            ok = lines_push(out, cur, curlen);
            free(cur);
            cur = NULL;
            curlen = 0;
        }
        /* The word starts a line, broken while too wide. */
        const char *w = p, *end = p + wl;
        while (ok && w < end && width_of(f, role, size, w, (size_t)(end - w)) > maxw) {
            const char *rest;
            ok = break_word(f, role, size, w, (size_t)(end - w), maxw, out, &rest);
            w = rest;
        }
        if (ok && w < end) {
            cur = strndup(w, (size_t)(end - w));
            ok = cur != NULL;
            curlen = (size_t)(end - w);
        }
        p = end;
    }
    if (ok && cur)
        ok = lines_push(out, cur, curlen);
    free(cur);
    if (ok && out->n == 0)
        ok = lines_push(out, "", 0);
    return ok;
}

/* Sets `text` as a block of lines from baseline `y` down: at `size` when it
 * fits on one line, else shrunk down to `min_size`, else wrapped at
 * `min_size`. Returns the y below the block. */
double chart_add_block(rc_chart *c, rc_item_role role, double x, double y, const char *text,
                       rc_font_role font, double size, double min_size, double maxw,
                       rc_anchor anchor, rc_rgb colour)
{
    while (size > min_size && rc_fonts_width(rc_canvas_fonts(c), font, size, text) > maxw)
        size -= 0.5;
    if (size < min_size)
        size = min_size;
    lines l = {NULL, 0, 0};
    if (!chart_wrap(rc_canvas_fonts(c), font, size, text, maxw, &l)) {
        rc_canvas_fail(c);
        chart_lines_free(&l);
        return y;
    }
    double lh = size * 1.25;
    for (size_t i = 0; i < l.n; i++)
        rc_canvas_add_text(c, role, x, y + lh * (double)i, l.line[i], font, size, anchor, colour);
    size_t n = l.n;
    chart_lines_free(&l);
    return y + lh * (double)(n - 1) + rc_fonts_descent(rc_canvas_fonts(c), font, size);
}

char *chart_join3(const char *a, const char *b, const char *c)
{
    size_t n = strlen(a) + strlen(b) + strlen(c) + 1;
    char *s = malloc(n);
    if (s)
        snprintf(s, n, "%s%s%s", a, b, c);
    return s;
}
