/* render_changes.c: changes.csv and changes.md, the comparison with the
 * baseline (<changes>, added to the tree by results/compare.c) for tools
 * and for people. */
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

static void md(rc_buffer *b, const char *text)
{
    char *e = rc_markdown_escape(text ? text : "");
    if (e)
        rc_buffer_puts(b, e);
    else
        b->failed = true;
    free(e);
}

/* "## Kernels added" and the like: one list per kind of element, each
 * entry "- name (id)"; nothing for a kind with no entries. */
static void md_added_and_removed(rc_buffer *b, xmlNodePtr changes)
{
    static const struct {
        const char *element, *title;
    } lists[] = {{"kernel-added", "Kernels added"}, {"kernel-removed", "Kernels removed"},
                 {"gpu-added", "GPUs added"},       {"gpu-removed", "GPUs removed"}};
    for (size_t l = 0; l < sizeof lists / sizeof lists[0]; l++) {
        bool first = true;
        for (xmlNodePtr n = changes->children; n; n = n->next) {
            if (!is(n, lists[l].element))
                continue;
            if (first) {
                rc_buffer_puts(b, "## ");
                rc_buffer_puts(b, lists[l].title);
                rc_buffer_puts(b, "\n\n");
                first = false;
            }
            char *name = get(n, "name"), *id = get(n, "id");
            rc_buffer_puts(b, "- ");
            md(b, name);
            rc_buffer_puts(b, " (");
            md(b, id);
            rc_buffer_puts(b, ")\n");
            xmlFree(name);
            xmlFree(id);
        }
        if (!first)
            rc_buffer_puts(b, "\n");
    }
}

/* "- kind [gpu] name: old → new" */
static void md_input(rc_buffer *b, xmlNodePtr input)
{
    char *kind = get(input, "kind"), *name = get(input, "name"), *o = get(input, "old"),
         *w = get(input, "new"), *gpu = get(input, "gpu");
    rc_buffer_puts(b, "- ");
    md(b, kind);
    rc_buffer_puts(b, " ");
    if (gpu) {
        md(b, gpu);
        rc_buffer_puts(b, " ");
    }
    md(b, name);
    rc_buffer_puts(b, ": ");
    md(b, o);
    rc_buffer_puts(b, " → ");
    md(b, w);
    rc_buffer_puts(b, "\n");
    xmlFree(kind);
    xmlFree(name);
    xmlFree(o);
    xmlFree(w);
    xmlFree(gpu);
}

/* "| GPU | Estimate | Old | New | Change |" row */
static void md_estimate_row(rc_buffer *b, xmlNodePtr estimate)
{
    char *g = get(estimate, "gpu-name"), *q = get(estimate, "quantity"),
         *o = get(estimate, "old-text"), *w = get(estimate, "new-text"),
         *p = get(estimate, "percent-text");
    rc_buffer_puts(b, "| ");
    md(b, g);
    rc_buffer_puts(b, " | ");
    rc_buffer_puts(b, q); /* ours: t_total, written as everywhere else */
    rc_buffer_puts(b, " | ");
    rc_buffer_puts(b, o);
    rc_buffer_puts(b, " | ");
    rc_buffer_puts(b, w);
    rc_buffer_puts(b, " | ");
    rc_buffer_puts(b, p);
    rc_buffer_puts(b, " |\n");
    xmlFree(g);
    xmlFree(q);
    xmlFree(o);
    xmlFree(w);
    xmlFree(p);
}

/* A changed kernel's section: its name, the inputs that changed, then the
 * table of the estimates that moved. */
static void md_kernel(rc_buffer *b, xmlNodePtr kernel)
{
    char *name = get(kernel, "name");
    rc_buffer_puts(b, "## ");
    md(b, name);
    rc_buffer_puts(b, "\n\n");
    xmlFree(name);
    bool inputs = false, estimates = false;
    for (xmlNodePtr e = kernel->children; e; e = e->next) {
        if (!is(e, "input"))
            continue;
        if (!inputs)
            rc_buffer_puts(b, "Inputs that changed:\n\n");
        inputs = true;
        md_input(b, e);
    }
    if (inputs)
        rc_buffer_puts(b, "\n");
    for (xmlNodePtr e = kernel->children; e; e = e->next) {
        if (!is(e, "estimate"))
            continue;
        if (!estimates)
            rc_buffer_puts(b, "| GPU | Estimate | Old (µs) | New (µs) | Change |\n"
                              "| --- | --- | ---: | ---: | ---: |\n");
        estimates = true;
        md_estimate_row(b, e);
    }
    if (estimates)
        rc_buffer_puts(b, "\n");
}

char *rc_render_changes_md(xmlDocPtr doc, size_t *len)
{
    xmlNodePtr changes = rc_results_child(xmlDocGetRootElement(doc), "changes");
    if (!changes)
        return NULL;
    rc_buffer b = {0};
    char *baseline = get(changes, "baseline");
    rc_buffer_puts(&b, "# Changes since the baseline\n\nBaseline: ");
    md(&b, baseline);
    rc_buffer_puts(&b, "\n\n");
    xmlFree(baseline);
    if (!changes->children) {
        rc_buffer_puts(&b, "No changes: every kernel, GPU and estimate is as in the baseline.\n");
        return rc_buffer_take(&b, len);
    }
    md_added_and_removed(&b, changes);
    for (xmlNodePtr n = changes->children; n; n = n->next)
        if (is(n, "kernel"))
            md_kernel(&b, n);
    return rc_buffer_take(&b, len);
}
