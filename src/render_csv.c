/* render_csv.c: estimates.csv and results.xml, the files for tools. */
#include "render.h"

#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "results.h"

typedef struct {
    char *buf;
    size_t len, cap;
} buffer;

static void put(buffer *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t cap = (b->len + n + 1) * 2;
        char *p = realloc(b->buf, cap);
        if (!p)
            return;
        b->buf = p;
        b->cap = cap;
    }
    memcpy(b->buf + b->len, s, n);
    b->len += n;
    b->buf[b->len] = '\0';
}

static void puts_(buffer *b, const char *s) { put(b, s, strlen(s)); }

/* A field per RFC 4180: quoted when it holds a comma, quote or line break;
 * a cell starting with = + - @ would be a formula to a spreadsheet, so it
 * is quoted and prefixed with an apostrophe. */
static void field(buffer *b, const char *s)
{
    if (!s)
        s = "";
    bool formula = strchr("=+-@\t\r", s[0]) && s[0] != '\0' &&
                   !(s[0] == '-' && s[1] >= '0' && s[1] <= '9');
    if (!formula && !strpbrk(s, ",\"\r\n")) {
        puts_(b, s);
        return;
    }
    puts_(b, "\"");
    if (formula)
        puts_(b, "'");
    for (const char *p = s; *p; p++) {
        if (*p == '"')
            puts_(b, "\"");
        put(b, p, 1);
    }
    puts_(b, "\"");
}

static void attr_field(buffer *b, xmlNodePtr n, const char *name)
{
    xmlChar *v = xmlGetProp(n, (const xmlChar *)name);
    field(b, v ? (const char *)v : "");
    xmlFree(v);
}

char *rc_render_csv(xmlDocPtr doc, size_t *len)
{
    buffer b = {NULL, 0, 0};
    puts_(&b, "kernel,gpu,flops,bytes,intensity,t_compute_us,t_mem_us,t_body_us,"
              "t_launch_us,t_total_us,bound\r\n");
    xmlNodePtr kernels = rc_results_child(xmlDocGetRootElement(doc), "kernels");
    for (xmlNodePtr k = kernels ? kernels->children : NULL; k; k = k->next) {
        if (k->type != XML_ELEMENT_NODE)
            continue;
        xmlNodePtr counts = rc_results_child(k, "counts");
        xmlNodePtr flops = rc_results_child(counts, "flops");
        xmlNodePtr bytes = rc_results_child(counts, "bytes");
        xmlNodePtr est = rc_results_child(k, "estimates");
        for (xmlNodePtr e = est ? est->children : NULL; e; e = e->next) {
            if (e->type != XML_ELEMENT_NODE)
                continue;
            attr_field(&b, k, "id");
            puts_(&b, ",");
            attr_field(&b, e, "gpu");
            puts_(&b, ",");
            attr_field(&b, flops, "total");
            puts_(&b, ",");
            attr_field(&b, bytes, "total");
            puts_(&b, ",");
            attr_field(&b, e, "intensity");
            /* The tree holds seconds; the columns are microseconds. */
            static const char *const times[] = {"t-compute", "t-mem", "t-body",
                                                "t-launch", "t-total"};
            for (int i = 0; i < 5; i++) {
                xmlChar *v = xmlGetProp(e, (const xmlChar *)times[i]);
                char num[64];
                rc_format_exact(v ? strtod((const char *)v, NULL) * 1e6 : 0.0, num, sizeof num);
                xmlFree(v);
                puts_(&b, ",");
                puts_(&b, num);
            }
            puts_(&b, ",");
            attr_field(&b, e, "bound");
            puts_(&b, "\r\n");
        }
    }
    *len = b.len;
    return b.buf;
}

char *rc_render_results_xml(xmlDocPtr doc, size_t *len)
{
    xmlChar *mem = NULL;
    int size = 0;
    xmlDocDumpFormatMemoryEnc(doc, &mem, &size, "UTF-8", 1);
    if (!mem)
        return NULL;
    char *out = malloc((size_t)size + 1);
    if (out) {
        memcpy(out, mem, (size_t)size);
        out[size] = '\0';
        *len = (size_t)size;
    }
    xmlFree(mem);
    return out;
}
