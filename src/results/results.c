/* results.c: builds the results tree, a kernel at a time (its launch,
 * parameters, counts, estimates on each GPU and their interpretation), and
 * the copies that per-kernel renderers and the overviews read. The GPUs,
 * the counts and the refined estimate have files of their own. See
 * results.h. */
#include "results/results.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/buffer.h"
#include "model/arch.h" /* rc_origin_name */
#include "model/estimate.h"
#include "model/traffic.h"
#include "model/refine.h"
#include "results/tree.h"
#include "results/glance.h"
#include "results/interpret.h"
#include "results/launch.h"

xmlNodePtr rc_results_child(xmlNodePtr parent, const char *name)
{
    for (xmlNodePtr n = parent ? parent->children : NULL; n; n = n->next)
        if (n->type == XML_ELEMENT_NODE && strcmp((const char *)n->name, name) == 0)
            return n;
    return NULL;
}


/* ---- kernels ---------------------------------------------------------- */

/* Bytes and time at each level of the memory hierarchy (traffic.h). */
static void add_traffic(xmlNodePtr n, const rc_gpu *g, const rc_counts *c, const rc_l1_reuse *sim)
{
    rc_traffic t;
    rc_traffic_compute(g, c, sim, &t);
    char buf[64];
    set_num(n, "l1-bytes", t.l1_bytes, rc_format_si3(t.l1_bytes, "B", buf, sizeof buf));
    set_num(n, "l2-bytes", t.l2_bytes, rc_format_si3(t.l2_bytes, "B", buf, sizeof buf));
    set_num(n, "dram-bytes", t.dram_bytes, rc_format_si3(t.dram_bytes, "B", buf, sizeof buf));
    set_sig3(n, "l1-per-block", t.l1_per_block);
    set_sig3(n, "resident-blocks", t.resident_blocks);
    set_sig3(n, "l1-hit-percent", 100 * t.l1_kept);
    /* The run of one SM's L1 that gave the share kept (l1sim.h), to check by hand. */
    if (t.l1_simulated) {
        xmlNodePtr r = xmlNewChild(n, NULL, X("l1-run"), NULL);
        set_int(r, "blocks", sim->blocks);
        set_int(r, "warps", sim->warps);
        set_int(r, "lines", sim->lines);
        set_int(r, "touches", sim->touches);
        set_int(r, "reuse", sim->reuse);
        set_int(r, "reuse-hits", sim->reuse_hits);
        set_bool(r, "cut", sim->truncated);
    }
    /* Reuse lost to arrays that bypass an L1 which caches only read-only data. */
    if (t.l1_reuse_bypassed)
        set_str(n, "l1-read-only", "yes");
    set_sig3(n, "l2-fit-percent", 100 * t.l2_fit);
    set_time(n, "t-l1", t.t_l1);
    set_time(n, "t-l2", t.t_l2);
    set_time(n, "t-dram", t.t_dram);
    set_sig3(n, "intensity-l1", t.intensity_l1);
    set_sig3(n, "intensity-l2", t.intensity_l2);
    set_sig3(n, "intensity-dram", t.intensity_dram);
}

static void add_estimates(xmlNodePtr parent, const char *name,
                          const rc_gpu *const *gpus, size_t ng, const rc_estimate *est,
                          const rc_counts *traffic_of, const rc_l1_reuse *sims,
                          const rc_refined *refined)
{
    xmlNodePtr list = xmlNewChild(parent, NULL, X(name), NULL);
    for (size_t i = 0; i < ng; i++) {
        const rc_estimate *e = &est[i];
        xmlNodePtr n = xmlNewChild(list, NULL, X("estimate"), NULL);
        set_str(n, "gpu", gpus[i]->id);
        set_str(n, "gpu-name", gpus[i]->name);
        set_time(n, "t-compute", e->t_compute);
        set_time(n, "t-mem", e->t_mem);
        set_time(n, "t-body", e->t_body);
        set_time(n, "t-launch", e->t_launch);
        set_str(n, "t-launch-origin", rc_origin_name(gpus[i]->launch_latency_origin));
        set_time(n, "t-total", e->t_total);
        set_sig3(n, "intensity", e->intensity);
        set_sig3(n, "ridge", e->ridge);
        char buf[64];
        set_num(n, "perf-roof", e->perf_roof, rc_format_si3(e->perf_roof, "FLOP/s", buf, sizeof buf));
        set_num(n, "perf-attained", e->perf_attained,
                rc_format_si3(e->perf_attained, "FLOP/s", buf, sizeof buf));
        set_sig3(n, "launch-percent", 100 * e->launch_share);
        /* With no FLOPs and no bytes nothing bounds the body: "none". */
        set_str(n, "bound", e->t_body == 0 ? "none" : e->compute_bound ? "compute" : "memory");
        set_bool(n, "launch-dominated", e->launch_dominated);
        if (traffic_of && traffic_of->memory_counted)
            add_traffic(n, gpus[i], traffic_of, sims ? &sims[i] : NULL);
        if (refined)
            rc_results_add_refined(n, &refined[i]);
    }
    /* Mark the fastest, so no renderer has to search for it: by t_estimate where there is a
     * refined estimate (the one to plan with), else by t_total; every GPU within
     * RC_NO_DIFFERENCE of the smallest is fastest (glance.h says why). A lone GPU is
     * compared with none, so it is not called fastest. */
    double *t = calloc(ng ? ng : 1, sizeof *t);
    bool *fastest = calloc(ng ? ng : 1, sizeof *fastest);
    if (t && fastest) {
        for (size_t i = 0; i < ng; i++)
            t[i] = refined ? refined[i].t_estimate : est[i].t_total;
        rc_glance_fastest(t, ng, fastest);
        size_t i = 0;
        for (xmlNodePtr n = list->children; n; n = n->next, i++)
            set_bool(n, "fastest", fastest[i]);
    }
    free(t);
    free(fastest);
}

static char *dims_text(const int64_t d[3], char *buf, size_t size)
{
    snprintf(buf, size, "(%lld, %lld, %lld)", (long long)d[0], (long long)d[1], (long long)d[2]);
    return buf;
}

static void add_launch(xmlNodePtr n, const rc_kernel *k)
{
    char buf[64];
    xmlNodePtr launch = xmlNewChild(n, NULL, X("launch"), NULL);
    set_str(launch, "grid", dims_text(k->grid, buf, sizeof buf));
    set_str(launch, "block", dims_text(k->block, buf, sizeof buf));
    static const char *const gnames[] = {"grid-x", "grid-y", "grid-z"};
    static const char *const bnames[] = {"block-x", "block-y", "block-z"};
    for (int i = 0; i < 3; i++) {
        set_int(launch, gnames[i], k->grid[i]);
        set_int(launch, bnames[i], k->block[i]);
    }
    set_int(launch, "blocks", rc_kernel_blocks(k));
    set_int(launch, "threads-per-block", rc_kernel_threads_per_block(k));
    set_int(launch, "threads", rc_kernel_blocks(k) * rc_kernel_threads_per_block(k));
}

static void add_params_and_notes(xmlNodePtr n, const rc_kernel *k)
{
    xmlNodePtr params = xmlNewChild(n, NULL, X("params"), NULL);
    for (size_t i = 0; i < k->nparams; i++) {
        xmlNodePtr p = xmlNewChild(params, NULL, X("param"), NULL);
        set_str(p, "name", k->params[i].name);
        set_int(p, "value", k->params[i].value);
        set_str(p, "expression", k->params[i].text);
        /* nvcc does not know it when it compiles the kernel (docs/inputs.md, "Unrolling") */
        if (k->params[i].runtime)
            set_str(p, "runtime", "yes");
        set_str(p, "note", k->params[i].note);
    }
    xmlNodePtr notes = xmlNewChild(n, NULL, X("notes"), NULL);
    for (size_t i = 0; i < k->nnotes; i++)
        add_text_child(notes, "note", k->notes[i]);
}

/* Each GPU's estimates of the modelled counts (with the refined model when there is memory
 * for it) and of the launch's, if given, and the interpretation of them. Registers per thread
 * and shared memory per block for occupancy: <resources> when the kernel gives them (the
 * compiler's figures), else the shared arrays it declares. */
static void add_kernel_estimates(xmlNodePtr n, const rc_gpu *const *gpus, size_t ng,
                                 const rc_kernel_result *r)
{
    const rc_kernel *k = r->kernel;
    rc_estimate *est = calloc(ng ? ng : 1, sizeof *est);
    rc_estimate *lest = calloc(ng ? ng : 1, sizeof *lest);
    if (!est || !lest) {
        free(est);
        free(lest);
        return;
    }
    rc_refined *refined = calloc(ng ? ng : 1, sizeof *refined);
    rc_l1_reuse *sims = calloc(ng ? ng : 1, sizeof *sims);
    rc_resources res = rc_kernel_resources(k);
    rc_precision_work work;
    rc_precision_work_of(k, r->model, &work);
    for (size_t i = 0; i < ng; i++) {
        rc_estimate_compute(gpus[i], r->model->flops.total, r->model->bytes.total, &est[i]);
        if (sims)
            rc_l1_reuse_of(gpus[i], k, r->model, &sims[i]);
        if (refined) {
            rc_level_bytes lb;
            rc_level_bytes_of(gpus[i], r->model, sims ? &sims[i] : NULL, &lb);
            rc_refine(gpus[i], k, r->model, &res, &work, &lb, &refined[i]);
        }
        if (r->launch)
            rc_estimate_compute(gpus[i], r->launch->flops.total, r->launch->bytes.total, &lest[i]);
    }
    add_estimates(n, "estimates", gpus, ng, est, r->model, sims, refined);
    rc_glance(n, &(rc_glance_facts){k, gpus, ng, r->model, est, refined});
    free(refined);
    free(sims);
    if (r->launch)
        add_estimates(n, "launch-estimates", gpus, ng, lest, NULL, NULL, NULL);
    rc_interpret(n, &(rc_interpret_facts){k, gpus, ng, r->model, est, r->launch,
                                          r->launch ? lest : NULL});
    free(est);
    free(lest);
}

static bool named(xmlNodePtr n, const char *name)
{
    return n->type == XML_ELEMENT_NODE && xmlStrEqual(n->name, X(name));
}

/* At a glance names the GPUs the launch cannot run on, since its rows leave them out: one
 * sentence at the end of the verdict (none when no GPU has a row, so no verdict). */
static void say_cannot_launch(xmlNodePtr kernel)
{
    xmlNodePtr verdict = rc_results_child(rc_results_child(kernel, "glance"), "verdict");
    size_t count = 0, done = 0;
    for (xmlNodePtr c = kernel->children; c; c = c->next)
        count += named(c, "cannot-launch");
    if (!verdict || count == 0)
        return;
    rc_buffer sb = {0};
    rc_buffer_printf(&sb, "It cannot launch on ");
    for (xmlNodePtr c = kernel->children; c; c = c->next) {
        if (!named(c, "cannot-launch"))
            continue;
        xmlChar *name = xmlGetProp(c, X("gpu-name")), *why = xmlGetProp(c, X("reason"));
        rc_buffer_printf(&sb, "%sthe %s (%s)", done == 0 ? "" : done + 1 == count ? " and " : "; ",
                         (const char *)name, (const char *)why);
        done++;
        xmlFree(name);
        xmlFree(why);
    }
    rc_buffer_printf(&sb, ": %s no estimate and no rank.", count == 1 ? "that GPU has" : "those GPUs have");
    char *text = rc_buffer_take(&sb, NULL);
    if (text) {
        xmlNodePtr para = add_text_child(verdict, "p", text);
        add_prop(para, "kind", "cannot-launch");
    }
    free(text);
}

xmlNodePtr rc_results_add_kernel(xmlDocPtr doc, const rc_gpu *const *gpus,
                                 size_t ng, const rc_kernel_result *r)
{
    const rc_kernel *k = r->kernel;
    xmlNodePtr kernels = rc_results_child(xmlDocGetRootElement(doc), "kernels");
    xmlNodePtr n = xmlNewChild(kernels, NULL, X("kernel"), NULL);
    set_str(n, "id", k->id);
    set_str(n, "name", k->name);
    set_str(n, "file", k->file);
    add_text_child(n, "summary", k->summary);
    xmlNodePtr src = add_text_child(n, "source", k->source_code);
    set_str(src, "language", k->source_language);
    add_launch(n, k);
    add_params_and_notes(n, k);
    rc_results_add_counts(n, "model", k, r->model);
    if (r->launch)
        rc_results_add_counts(n, "launch", k, r->launch);
    /* A GPU the launch cannot run on gets no estimate, so no ranking, chart
     * or sentence counts it: a <cannot-launch> names it instead. */
    const rc_gpu **fit = malloc((ng ? ng : 1) * sizeof *fit);
    size_t nfit = 0;
    for (size_t i = 0; fit && i < ng; i++) {
        char why[300];
        if (rc_launch_fits(gpus[i], k, why, sizeof why))
            fit[nfit++] = gpus[i];
    }
    add_kernel_estimates(n, fit ? (const rc_gpu *const *)fit : gpus, fit ? nfit : ng, r);
    free(fit);
    for (size_t i = 0; i < ng; i++) {
        char why[300], msg[500];
        if (rc_launch_fits(gpus[i], k, why, sizeof why))
            continue;
        rc_launch_message(gpus[i], why, msg, sizeof msg);
        xmlNodePtr c = xmlNewChild(n, NULL, X("cannot-launch"), NULL);
        set_str(c, "gpu", gpus[i]->id);
        set_str(c, "gpu-name", gpus[i]->name);
        set_str(c, "reason", why);
        set_str(c, "message", msg);
    }
    say_cannot_launch(n);
    return n;
}

xmlDocPtr rc_results_kernel_doc(xmlDocPtr doc, xmlNodePtr kernel)
{
    xmlNodePtr root = xmlDocGetRootElement(doc);
    xmlDocPtr copy = xmlNewDoc(X("1.0"));
    xmlNodePtr top = xmlDocCopyNode(root, copy, 2); /* the element and its attributes */
    xmlDocSetRootElement(copy, top);
    xmlNodePtr gpus = rc_results_child(root, "gpus");
    if (gpus)
        xmlAddChild(top, xmlDocCopyNode(gpus, copy, 1));
    xmlNodePtr kernels = xmlNewChild(top, NULL, X("kernels"), NULL);
    xmlAddChild(kernels, xmlDocCopyNode(kernel, copy, 1));
    return copy;
}

/* A copy of `from` in `doc` with only the attributes named in `keep`
 * (NULL-terminated) and no children. */
static xmlNodePtr copy_some(xmlDocPtr doc, xmlNodePtr from, const char *const *keep)
{
    xmlNodePtr n = xmlNewDocNode(doc, NULL, from->name, NULL);
    for (const char *const *a = keep; n && *a; a++) {
        xmlChar *v = xmlGetProp(from, X(*a));
        if (v)
            xmlSetProp(n, X(*a), v);
        xmlFree(v);
    }
    return n;
}

xmlNodePtr rc_results_overview_kernel(xmlDocPtr doc, xmlNodePtr kernel)
{
    static const char *const kernel_attrs[] = {"id", "name", "file", NULL};
    /* What is read of the totals: the --check table's FLOPs and bytes, the
     * index's intensity. */
    static const char *const total_attrs[] = {"total-text", NULL};
    static const char *const value_attrs[] = {"value-text", NULL};
    static const char *const estimate_attrs[] = {
        "gpu", "t-total", "t-total-text", "intensity-text", "bound", "fastest",
        "launch-dominated", "t-estimate", "t-estimate-text", "limiter", "limiter-words",
        "t-lower", "t-lower-text", NULL};
    static const char *const cannot_attrs[] = {"gpu", "gpu-name", "reason", "message", NULL};
    xmlNodePtr k = copy_some(doc, kernel, kernel_attrs);
    for (xmlNodePtr c = kernel->children; k && c; c = c->next) {
        if (named(c, "summary")) {
            xmlAddChild(k, xmlDocCopyNode(c, doc, 1));
        } else if (named(c, "counts")) {
            xmlChar *basis = xmlGetProp(c, X("basis"));
            bool model = basis && xmlStrEqual(basis, X("model"));
            xmlFree(basis);
            if (!model)
                continue;
            static const char *const basis_attr[] = {"basis", NULL};
            xmlNodePtr counts = xmlAddChild(k, copy_some(doc, c, basis_attr));
            for (xmlNodePtr q = c->children; counts && q; q = q->next)
                if (named(q, "flops") || named(q, "bytes"))
                    xmlAddChild(counts, copy_some(doc, q, total_attrs));
                else if (named(q, "intensity"))
                    xmlAddChild(counts, copy_some(doc, q, value_attrs));
        } else if (named(c, "estimates")) {
            xmlNodePtr list = xmlNewDocNode(doc, NULL, c->name, NULL);
            xmlAddChild(k, list);
            for (xmlNodePtr e = c->children; list && e; e = e->next)
                if (named(e, "estimate"))
                    xmlAddChild(list, copy_some(doc, e, estimate_attrs));
        } else if (named(c, "cannot-launch")) {
            xmlAddChild(k, copy_some(doc, c, cannot_attrs));
        }
    }
    return k;
}

typedef struct {
    const rc_diag_entry *entry;
    size_t order;
} ordered_entry;

static int compare_entries(const void *a, const void *b)
{
    const ordered_entry *x = a, *y = b;
    int c = strcmp(x->entry->file ? x->entry->file : "", y->entry->file ? y->entry->file : "");
    if (c != 0)
        return c;
    return x->order < y->order ? -1 : x->order > y->order;
}

void rc_results_add_rejected(xmlDocPtr doc, const rc_diag *diag)
{
    xmlNodePtr list = xmlNewChild(xmlDocGetRootElement(doc), NULL, X("rejected"), NULL);
    size_t n = rc_diag_count(diag), m = 0;
    ordered_entry *entries = calloc(n ? n : 1, sizeof *entries);
    if (!entries)
        return;
    for (size_t i = 0; i < n; i++) {
        const rc_diag_entry *e = rc_diag_entry_at(diag, i);
        if (e->severity == RC_DIAG_ERROR)
            entries[m++] = (ordered_entry){e, i};
    }
    qsort(entries, m, sizeof *entries, compare_entries);
    for (size_t i = 0; i < m; i++) {
        const rc_diag_entry *e = entries[i].entry;
        xmlNodePtr node = xmlNewChild(list, NULL, X("input"), NULL);
        set_str(node, "file", e->file ? e->file : "");
        if (e->line > 0)
            set_int(node, "line", e->line);
        /* The first line: the caret display belongs on a terminal. */
        size_t len = strcspn(e->message, "\n");
        char *first = strndup(e->message, len);
        set_str(node, "message", first);
        free(first);
    }
    free(entries);
}

