/* tree.h: what the files that build the results tree share (results.c,
 * results_gpus.c, results_counts.c, results_refined.c, glance.c,
 * interpret.c); not for renderers.
 *
 * The attribute helpers write each number twice, as results.h describes:
 * at full precision and, where people read it, as shown (format.c).
 */
#ifndef ROOFCAST_RESULTS_TREE_H
#define ROOFCAST_RESULTS_TREE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <libxml/tree.h>

#include "model/model.h"
#include "model/refine.h"
#include "results/format.h"

#define X(s) ((const xmlChar *)(s))

/* Every attribute is set once on a new node, so it is added without
 * xmlSetProp's search for one of the same name, which grows with the
 * node's attributes (an <estimate> has some 60; docs/benchmarks.md). */
static inline void add_prop(xmlNodePtr n, const char *name, const char *value)
{
    xmlNewProp(n, X(name), X(value));
}

static inline void set_str(xmlNodePtr n, const char *name, const char *value)
{
    if (value)
        add_prop(n, name, value);
}

/* name="exact" name-text="1,234" */
static inline void set_int(xmlNodePtr n, const char *name, int64_t v)
{
    char buf[64], text_name[96];
    snprintf(buf, sizeof buf, "%lld", (long long)v);
    add_prop(n, name, buf);
    snprintf(text_name, sizeof text_name, "%s-text", name);
    add_prop(n, text_name, rc_format_int(v, buf, sizeof buf));
}

/* name="full precision" name-text="shown" (shown made by the caller) */
static inline void set_num(xmlNodePtr n, const char *name, double v, const char *shown)
{
    char buf[64], text_name[96];
    add_prop(n, name, rc_format_exact(v, buf, sizeof buf));
    if (shown) {
        snprintf(text_name, sizeof text_name, "%s-text", name);
        add_prop(n, text_name, shown);
    }
}

static inline void set_sig3(xmlNodePtr n, const char *name, double v)
{
    char buf[64];
    set_num(n, name, v, rc_format_sig3(v, buf, sizeof buf));
}

/* A time: seconds at full precision, shown in µs. */
static inline void set_time(xmlNodePtr n, const char *name, double seconds)
{
    char buf[64];
    set_num(n, name, seconds, rc_format_us(seconds, buf, sizeof buf));
}

static inline void set_bool(xmlNodePtr n, const char *name, bool v)
{
    add_prop(n, name, v ? "yes" : "no");
}

static inline xmlNodePtr add_text_child(xmlNodePtr parent, const char *name, const char *text)
{
    xmlNodePtr n = xmlNewChild(parent, NULL, X(name), NULL);
    if (text)
        xmlAddChild(n, xmlNewText(X(text)));
    return n;
}


/* Appends <counts basis=...> of kernel k's counts c to `kernel`: threads,
 * blocks, FLOPs, bytes, intensity, the evaluation, the memory counts and
 * the work tree with each node's measures (results_counts.c). */
void rc_results_add_counts(xmlNodePtr kernel, const char *basis, const rc_kernel *k,
                           const rc_counts *c);

/* Adds the refined estimate r (the execution model) to an <estimate>: its
 * summary attributes and <refined> with occupancy, waves, each term with
 * its formula and inputs, and the sentence that explains the limiter
 * (results_refined.c). */
void rc_results_add_refined(xmlNodePtr est, const rc_refined *r);

#endif
