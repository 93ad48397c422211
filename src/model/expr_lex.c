/* expr_lex.c: the lexer of work-model expressions: whole numbers (decimal
 * or hexadecimal), names (a dotted built-in such as threadIdx.x is one
 * name), operators, and what is refused (suffixes, octal, floating point,
 * stray characters), each named in its message. See expr_parser.h.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "model/expr_parser.h"

/*
** {======================================================
** Lexer
** =======================================================
*/

_Noreturn void rc_expr_error_at(parser *p, span at, const char *fmt, ...)
{
    va_list ap;
    p->err->offset = at.off;
    p->err->length = at.len;
    va_start(ap, fmt);
    vsnprintf(p->err->message, sizeof p->err->message, fmt, ap);
    va_end(ap);
    longjmp(p->jb, 1);
}

/* Token text for a message, cut to QUOTE_MAX bytes. */
const char *rc_expr_tokentext(const parser *p, span at, char buf[QUOTE_MAX + 4])
{
    size_t n = at.len > QUOTE_MAX ? QUOTE_MAX : at.len;
    memcpy(buf, p->text + at.off, n);
    strcpy(buf + n, at.len > QUOTE_MAX ? "..." : "");
    return buf;
}

static bool isdigit_(int c) { return c >= '0' && c <= '9'; }
static bool isalpha_(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
static bool isalnum_(int c) { return isalpha_(c) || isdigit_(c); }
static bool isblank_(int c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
           c == '\v';
}
static int hexvalue(int c)
{
    if (isdigit_(c)) return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static bool matchword(const char *s, size_t len, const char *word)
{
    return strlen(word) == len && memcmp(s, word, len) == 0;
}

/* "e5", "E-3", "e+10": the exponent of a floating-point constant. */
static bool is_exponent(const unsigned char *s, const unsigned char *end)
{
    if (s == end || (*s != 'e' && *s != 'E'))
        return false;
    s++;
    if (s < end && (*s == '+' || *s == '-'))
        s++;
    if (s == end)
        return false;
    while (s < end && isdigit_(*s))
        s++;
    return s == end;
}

/* NUMBER -> digits | '0' ('x' | 'X') hexdigits
 * The token is the whole run of letters, digits, '_' and '.', so that the
 * message shows "100u" or "1.5" rather than the first piece. */
static void readnumber(parser *p, token *t)
{
    const unsigned char *s = (const unsigned char *)p->text;
    size_t start = p->cur, end = start, i = start, digits;
    int base = 10;
    int64_t v = 0;
    char buf[QUOTE_MAX + 4];
    while (isalnum_(s[end]) || s[end] == '.') end++;
    t->t = TK_NUMBER;
    t->at.off = start;
    t->at.len = end - start;
    p->cur = end;
    if (s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X')) {
        base = 16;
        i += 2;
    }
    digits = i;
    while (i < end && (base == 16 ? hexvalue(s[i]) >= 0 : isdigit_(s[i])))
        i++;
    if (i == digits) /* "0x" */
        rc_expr_error_at(p, t->at, "malformed number '%s'",
                         rc_expr_tokentext(p, t->at, buf));
    if (i < end && base == 10 && (s[i] == '.' || is_exponent(s + i, s + end)))
        rc_expr_error_at(p, t->at, "'%s' is not an integer: counts, bounds and values are whole "
                         "numbers (decimal such as 3, or hexadecimal such as 0x1F)",
                         rc_expr_tokentext(p, t->at, buf));
    if (i < end) {
        size_t j = i;
        while (j < end && strchr("uUlL", s[j]) != NULL) j++;
        if (j == end)
            rc_expr_error_at(p, t->at, "integer suffixes are not supported ('%s')",
                             rc_expr_tokentext(p, t->at, buf));
        rc_expr_error_at(p, t->at, "malformed number '%s'", rc_expr_tokentext(p, t->at, buf));
    }
    if (base == 10 && s[start] == '0' && end - start > 1)
        rc_expr_error_at(p, t->at, "octal constants are not supported ('%s')",
                         rc_expr_tokentext(p, t->at, buf));
    for (i = digits; i < end; i++) {
        int d = base == 16 ? hexvalue(s[i]) : s[i] - '0';
        if (v > (INT64_MAX - d) / base)
            rc_expr_error_at(p, t->at, "integer constant too large ('%s')",
                             rc_expr_tokentext(p, t->at, buf));
        v = v * base + d;
    }
    t->num = v;
}

/* NAME -> identifier {'.' identifier}, with no blanks around the dots:
 * "threadIdx.x" reaches the resolver as one name. */
static void readname(parser *p, token *t)
{
    const unsigned char *s = (const unsigned char *)p->text;
    size_t start = p->cur, end = start, next;
    while (isalnum_(s[end])) end++;
    t->at.off = start;
    t->at.len = end - start;
    t->t = TK_NAME;
    if (matchword(p->text + start, end - start, "and")) t->t = TK_AND;
    else if (matchword(p->text + start, end - start, "or")) t->t = TK_OR;
    else if (matchword(p->text + start, end - start, "not")) t->t = TK_NOT;
    if (t->t != TK_NAME) {
        p->cur = end;
        return;
    }
    while (s[end] == '.' && isalpha_(s[end + 1])) {
        end += 2;
        while (isalnum_(s[end])) end++;
    }
    t->at.len = end - start;
    p->cur = end;
    /* min and max are functions only where called, so that a model may
     * still have a param named "min". */
    next = end;
    while (isblank_(s[next])) next++;
    if (s[next] == '(') {
        if (matchword(p->text + start, end - start, "min")) t->t = TK_MIN;
        else if (matchword(p->text + start, end - start, "max")) t->t = TK_MAX;
    }
}

/* The length of the well-formed UTF-8 character at s (NUL-terminated),
 * with its code point in *cp, or 0 when the bytes there are not one:
 * overlong forms, surrogates and values past U+10FFFF are refused. */
static size_t utf8_char(const unsigned char *s, unsigned long *cp)
{
    size_t len;
    if (s[0] >= 0xC2 && s[0] <= 0xDF) {
        len = 2;
        *cp = s[0] & 0x1Fu;
    } else if (s[0] >= 0xE0 && s[0] <= 0xEF) {
        len = 3;
        *cp = s[0] & 0x0Fu;
    } else if (s[0] >= 0xF0 && s[0] <= 0xF4) {
        len = 4;
        *cp = s[0] & 0x07u;
    } else
        return 0;
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xC0u) != 0x80u) /* the NUL stops here too */
            return 0;
        *cp = (*cp << 6) | (s[i] & 0x3Fu);
    }
    if ((len == 3 && *cp < 0x800) || (len == 4 && *cp < 0x10000) || *cp > 0x10FFFF ||
        (*cp >= 0xD800 && *cp <= 0xDFFF))
        return 0;
    return len;
}

/* Reads the next token into p->tok. */
void rc_expr_next(parser *p)
{
    const unsigned char *s = (const unsigned char *)p->text;
    token *t = &p->tok;
    int c, c1;
    while (isblank_(s[p->cur])) p->cur++;
    c = s[p->cur];
    t->at.off = p->cur;
    t->at.len = 1;
    if (c == '\0') {
        t->t = TK_EOS;
        t->at.len = 0;
        return;
    }
    if (isdigit_(c)) {
        readnumber(p, t);
        return;
    }
    if (isalpha_(c)) {
        readname(p, t);
        return;
    }
    c1 = s[p->cur + 1];
    t->t = c;
    switch (c) {
    case '(': case ')': case '?': case ':': case ',':
    case '+': case '-': case '*': case '/': case '%': case '~': case '^':
        break;
    case '!':
        t->t = c1 == '=' ? TK_NE : TK_NOT;
        break;
    case '&':
        if (c1 == '&') t->t = TK_AND;
        break;
    case '|':
        if (c1 == '|') t->t = TK_OR;
        break;
    case '<':
        if (c1 == '<') t->t = TK_SHL;
        else if (c1 == '=') t->t = TK_LE;
        break;
    case '>':
        if (c1 == '>') t->t = TK_SHR;
        else if (c1 == '=') t->t = TK_GE;
        break;
    case '=':
        if (c1 != '=')
            rc_expr_error_at(p, t->at, "unexpected '=' (did you mean '=='?)");
        t->t = TK_EQ;
        break;
    default:
        if (c >= 0x20 && c < 0x7f)
            rc_expr_error_at(p, t->at, "unexpected character '%c'", c);
        if (c >= 0x80) {
            /* A whole UTF-8 character is one token: shown as itself (but
             * for C1 controls) with its code point. */
            unsigned long cp;
            size_t n = utf8_char(s + p->cur, &cp);
            if (n > 0) {
                t->at.len = n;
                if (cp >= 0xA0)
                    rc_expr_error_at(p, t->at, "unexpected character '%.*s' (U+%04lX)", (int)n,
                                     p->text + p->cur, cp);
                rc_expr_error_at(p, t->at, "unexpected character U+%04lX", cp);
            }
        }
        rc_expr_error_at(p, t->at, "unexpected character '\\x%02X'", (unsigned)c);
    }
    /* Past here, reserved tokens are two-character operators, but for '!'. */
    if (t->t >= FIRST_RESERVED && t->t != TK_NOT) t->at.len = 2;
    p->cur += t->at.len;
}

/* }====================================================== */
