/* options.c: the argument forms of `roofcast import` (import.h). Kept apart
 * from libclang, for the fuzz target and for builds without it. */
#include "import/import.h"

#include <stdlib.h>
#include <string.h>

static bool ident_start(char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_';
}

static bool ident_char(char ch)
{
    return ident_start(ch) || (ch >= '0' && ch <= '9');
}

static size_t ident_len(const char *s)
{
    if (!ident_start(*s))
        return 0;
    size_t n = 1;
    while (ident_char(s[n]))
        n++;
    return n;
}

bool rc_import_parse_assign(const char *arg, char **name, const char **expr, char *err,
                            size_t errlen)
{
    size_t n = ident_len(arg);
    if (n == 0 || n > 100) {
        snprintf(err, errlen, "'%s' does not start with a name (expected NAME=EXPR)", arg);
        return false;
    }
    const char *eq = arg + n;
    while (*eq == ' ')
        eq++;
    if (*eq != '=') {
        snprintf(err, errlen, "'%s' has no '=' after the name (expected NAME=EXPR)", arg);
        return false;
    }
    const char *e = eq + 1;
    while (*e == ' ')
        e++;
    if (!*e) {
        snprintf(err, errlen, "'%s' has no expression after '='", arg);
        return false;
    }
    if (strpbrk(e, "\n\r\"<>&")) {
        snprintf(err, errlen, "'%s': the expression holds a line break or one of \" < > &",
                 arg);
        return false;
    }
    size_t el = strlen(e);
    char *copy = malloc(n + 1 + el + 1);
    if (!copy) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    memcpy(copy, arg, n);
    copy[n] = '\0';
    memcpy(copy + n + 1, e, el + 1);
    *name = copy;
    *expr = copy + n + 1;
    return true;
}

bool rc_import_parse_kernel(const char *spec, char **name, char **args, size_t *nargs,
                            char *err, size_t errlen)
{
    size_t n = ident_len(spec);
    *nargs = 0;
    if (n == 0 || n > 200) {
        snprintf(err, errlen, "'%s' is not a function name (expected NAME or NAME<ARGS>)", spec);
        return false;
    }
    const char *p = spec + n;
    while (*p == ' ')
        p++;
    if (*p && *p != '<') {
        snprintf(err, errlen, "'%s': unexpected '%c' after the name", spec, *p);
        return false;
    }
    char *buf = NULL;
    if (*p == '<') {
        size_t len = strlen(p);
        if (p[len - 1] != '>') {
            snprintf(err, errlen, "'%s': the template arguments do not end with '>'", spec);
            return false;
        }
        buf = malloc(len);
        if (!buf) {
            snprintf(err, errlen, "out of memory");
            return false;
        }
        memcpy(buf, p + 1, len - 2);
        buf[len - 2] = '\0';
        /* split at top-level commas */
        int depth = 0;
        char *start = buf;
        for (char *q = buf;; q++) {
            if (*q == '<' || *q == '(')
                depth++;
            else if (*q == '>' || *q == ')') {
                if (--depth < 0)
                    break;
            }
            if ((*q == ',' && depth == 0) || *q == '\0') {
                bool end = *q == '\0';
                *q = '\0';
                while (*start == ' ')
                    start++;
                char *t = q;
                while (t > start && t[-1] == ' ')
                    *--t = '\0';
                if (!*start || *nargs == 16) {
                    snprintf(err, errlen, "'%s': %s", spec,
                             *nargs == 16 ? "more than 16 template arguments"
                                          : "an empty template argument");
                    free(buf);
                    *nargs = 0;
                    return false;
                }
                args[(*nargs)++] = start;
                start = q + 1;
                if (end)
                    break;
            }
        }
        if (depth != 0) {
            snprintf(err, errlen, "'%s': unbalanced brackets in the template arguments", spec);
            free(buf);
            *nargs = 0;
            return false;
        }
        if (*nargs && args[0] != buf) {
            /* the first argument starts after spaces: keep the allocation's start first */
            memmove(buf, args[0], strlen(args[0]) + 1);
            args[0] = buf;
        }
    }
    *name = malloc(n + 1);
    if (!*name) {
        free(buf);
        *nargs = 0;
        snprintf(err, errlen, "out of memory");
        return false;
    }
    memcpy(*name, spec, n);
    (*name)[n] = '\0';
    if (!*nargs)
        free(buf);
    return true;
}
