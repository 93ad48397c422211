/* render_changes.c: changes.csv and changes.md, the comparison with the
 * baseline (<changes>, added to the tree by results/compare.c) for tools
 * and for people (changes.md by templates/changes.xsl). */
#include "render/render.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/buffer.h"
#include "results/format.h"
#include "results/results.h"

static char *get(xmlNodePtr n, const char *name)
{
    return n ? (char *)xmlGetProp(n, (const xmlChar *)name) : NULL;
}

static bool is(xmlNodePtr n, const char *name)
{
    return n && n->type == XML_ELEMENT_NODE && strcmp((const char *)n->name, name) == 0;
}

static void csv_row(rc_buffer *b, const char *kind, const char *kernel, const char *gpu,
                    const char *quantity, const char *old, const char *now, const char *pct)
{
    const char *fields[] = {kind, kernel, gpu, quantity, old, now, pct};
    for (size_t i = 0; i < 7; i++) {
        if (i)
            rc_buffer_puts(b, ",");
        rc_buffer_csv_field(b, fields[i]);
    }
    rc_buffer_puts(b, "\r\n");
}

char *rc_render_changes_csv(xmlDocPtr doc, size_t *len)
{
    xmlNodePtr changes = rc_results_child(xmlDocGetRootElement(doc), "changes");
    if (!changes)
        return NULL;
    rc_buffer b = {0};
    rc_buffer_puts(&b, "kind,kernel,gpu,quantity,old,new,change_percent\r\n");
    for (xmlNodePtr n = changes->children; n; n = n->next) {
        if (n->type != XML_ELEMENT_NODE)
            continue;
        char *id = get(n, "id");
        if (is(n, "gpu-added") || is(n, "gpu-removed"))
            csv_row(&b, (const char *)n->name, "", id, "", "", "", "");
        else if (is(n, "kernel-added") || is(n, "kernel-removed"))
            csv_row(&b, (const char *)n->name, id, "", "", "", "", "");
        else if (is(n, "kernel")) {
            for (xmlNodePtr e = n->children; e; e = e->next) {
                char *a[6];
                const char *names[] = {"gpu", "quantity", "old", "new", "percent", "kind"};
                for (int i = 0; i < 6; i++)
                    a[i] = get(e, names[i]);
                if (is(e, "estimate")) {
                    /* seconds in the tree; microseconds like estimates.csv */
                    char o[64], w[64];
                    rc_format_exact(strtod(a[2], NULL) * 1e6, o, sizeof o);
                    rc_format_exact(strtod(a[3], NULL) * 1e6, w, sizeof w);
                    char q[80];
                    snprintf(q, sizeof q, "%s_us", a[1]);
                    for (char *p = q; *p; p++)
                        if (*p == '-')
                            *p = '_';
                    csv_row(&b, "estimate", id, a[0], q, o, w, a[4]);
                } else if (is(e, "input")) {
                    char *name = get(e, "name");
                    char kind[64];
                    snprintf(kind, sizeof kind, "input-%s", a[5] ? a[5] : "");
                    csv_row(&b, kind, id, a[0] ? a[0] : "", name, a[2], a[3], "");
                    xmlFree(name);
                }
                for (int i = 0; i < 6; i++)
                    xmlFree(a[i]);
            }
        }
        xmlFree(id);
    }
    return rc_buffer_take(&b, len);
}

char *rc_render_changes_md(rc_templates *t, xmlDocPtr doc, size_t *len, rc_diag *diag)
{
    if (!rc_results_child(xmlDocGetRootElement(doc), "changes"))
        return NULL;
    return rc_render_template(t, RC_TEMPLATE_CHANGES, doc, NULL, len, diag);
}
