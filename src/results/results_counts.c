/* results_counts.c: a kernel's <counts>: what one launch does, counted
 * over every thread (model/eval.h), its memory counts (model/access.h) and
 * the work tree as the kernel file declares it. See tree.h. */
#include "results/tree.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/buffer.h"
#include "model/expr.h"
#include "input/load.h"

static void set_spread(xmlNodePtr n, const rc_spread *s)
{
    set_int(n, "total", s->total);
    set_int(n, "per-thread-min", s->thread_min);
    set_int(n, "per-thread-max", s->thread_max);
    set_int(n, "per-block-min", s->block_min);
    set_int(n, "per-block-max", s->block_max);
}

/* The names of a work node's two measures. ORDER RC_WORK */
static const char *const measure_names[][2] = {
    {"executions", NULL},          {"evaluations", "taken"},
    {"entries", "iterations"},     {"executions", "total-flops"},
    {"executions", "total-bytes"}, {"executions", "total-bytes"},
    {"executions", "total-bytes"}, {"executions", "total-bytes"},
    {"executions", "total-instructions"}, {"executions", "total-waits"}};

/* The loop's second and third clauses, as C writes them. */
static void set_loop_clauses(xmlNodePtr n, const rc_work *w)
{
    set_bool(n, "closed-form", !w->body_reads_var);
    if (w->loop_dependent) /* absent otherwise: only such loops' reports say it */
        set_bool(n, "dependent", true);
    rc_buffer cb = {0};
    if (w->loop_while)
        rc_buffer_puts(&cb, w->text[1]);
    else
        rc_buffer_printf(&cb, "%s < %s", w->name, w->text[1]);
    char *cond = rc_buffer_take(&cb, NULL);
    set_str(n, "condition", cond);
    free(cond);
    rc_buffer_printf(&cb, "%s %s %s", w->name, rc_step_op_text(w->step_op), w->text[2]);
    char *update = rc_buffer_take(&cb, NULL);
    set_str(n, "update", update);
    free(update);
}

/* What the kernel file says of a work node: its line, name, expressions and notes. */
static void set_work_source(xmlNodePtr n, const rc_kernel *k, const rc_work *w)
{
    set_int(n, "line", w->line);
    if (w->name)
        set_str(n, w->kind == RC_WORK_LOOP ? "var" : "name", w->name);
    for (int i = 0; i < RC_WORK_EXPRS; i++)
        if (w->text[i])
            set_str(n, w->attr[i], w->text[i]);
    if (w->kind == RC_WORK_FLOPS)
        set_str(n, "precision", rc_precision_name(w->precision));
    if (w->kind == RC_WORK_INSTRUCTIONS)
        set_str(n, "pipe", rc_pipe_name(w->pipe));
    set_str(n, "note", w->note);
    set_str(n, "assumption", w->assumption);
    if (w->kind == RC_WORK_LOOP)
        set_loop_clauses(n, w);
    if (w->array >= 0) {
        const rc_array *arr = &k->arrays[w->array];
        set_str(n, "array", arr->name);
        set_str(n, "index", w->index_text);
        set_str(n, "space", rc_space_name(arr->space));
    }
}

/* The amount per execution, when it is the same every time. */
static void set_per_execution(xmlNodePtr n, const rc_work *w)
{
    int64_t a = 0, b = 1;
    bool constant = false;
    switch (w->kind) {
    case RC_WORK_FLOPS:
    case RC_WORK_TRAFFIC:
    case RC_WORK_INSTRUCTIONS:
        constant = rc_expr_is_const(w->expr[0], &a);
        break;
    case RC_WORK_LOAD:
    case RC_WORK_STORE:
        constant = rc_expr_is_const(w->expr[0], &a) && rc_expr_is_const(w->expr[1], &b);
        if (constant) {
            set_int(n, "element-count", a);
            set_int(n, "element-bytes", b);
        }
        break;
    default:
        break;
    }
    if (constant)
        set_int(n, "per-execution", a * b);
}

/* The counted measures of a work node, named as measure_names says. */
static void set_work_measures(xmlNodePtr n, const rc_work *w, const rc_counts *c)
{
    const rc_work_stats *s = &c->work[w->index];
    const char *const *names = measure_names[w->kind];
    set_int(n, names[0], s->m0);
    set_int(n, "threads", s->threads);
    set_int(n, "blocks", s->blocks);
    if (names[1]) {
        set_int(n, names[1], s->m1);
        set_int(n, "per-thread-min", s->thread_min);
        set_int(n, "per-thread-max", s->thread_max);
        set_int(n, "per-block-min", s->block_min);
        set_int(n, "per-block-max", s->block_max);
    }
    /* What the pipe serves: warps issue for all their lanes (eval.h). */
    if (w->kind == RC_WORK_INSTRUCTIONS)
        set_int(n, "warp-instructions", s->warp_m1);
}

static void add_work(xmlNodePtr parent, const rc_kernel *k, const rc_work *w, const rc_counts *c)
{
    for (; w; w = w->next) {
        xmlNodePtr n = xmlNewChild(parent, NULL, X(rc_work_element(w->kind)), NULL);
        set_work_source(n, k, w);
        set_per_execution(n, w);
        set_work_measures(n, w, c);
        if (w->children)
            add_work(n, k, w->children, c);
    }
}

static void set_access(xmlNodePtr n, const rc_access_counts *a)
{
    set_int(n, "requests", a->requests);
    set_int(n, "accessed-bytes", a->accessed_bytes);
    set_int(n, "sector-bytes", a->sector_bytes);
    set_int(n, "footprint-bytes", a->footprint_bytes);
    set_int(n, "rewritten-bytes", a->rewritten_bytes);
    set_int(n, "block-sector-bytes", a->block_sector_bytes);
    set_int(n, "block-footprint-max", a->block_footprint_max);
    set_int(n, "shared-requests", a->shared_requests);
    set_int(n, "shared-wavefronts", a->shared_wavefronts);
    /* Bytes per request and sectors per request: how well accesses coalesce. */
    set_sig3(n, "sectors-per-request",
             a->requests > 0 ? (double)a->sector_bytes / 32.0 / (double)a->requests : 0);
    set_sig3(n, "efficiency-percent",
             a->sector_bytes > 0 ? 100.0 * (double)a->accessed_bytes / (double)a->sector_bytes : 0);
    set_sig3(n, "wavefronts-per-request",
             a->shared_requests > 0 ? (double)a->shared_wavefronts / (double)a->shared_requests : 0);
}

/* The memory counts: per kernel, legacy accesses, and per array. */
static void add_memory(xmlNodePtr counts, const rc_kernel *k, const rc_access *m)
{
    xmlNodePtr n = xmlNewChild(counts, NULL, X("memory"), NULL);
    set_access(n, &m->total);
    set_bool(n, "sampled", m->sampled);
    if (m->sampled) {
        set_int(n, "sample-blocks", m->sample_blocks);
        set_int(n, "sample-classes", m->sample_classes);
        set_int(n, "sample-seed", m->sample_seed);
    }
    /* Absent when every array was counted by classes (docs/counting.md). */
    set_str(n, "enumerated", m->enumerated[0] ? m->enumerated : NULL);
    if (m->legacy.accessed_bytes > 0) {
        xmlNodePtr l = xmlNewChild(n, NULL, X("legacy"), NULL);
        set_access(l, &m->legacy);
    }
    for (int i = 0; i < m->narrays; i++) {
        const rc_array *a = &k->arrays[i];
        xmlNodePtr an = xmlNewChild(n, NULL, X("array"), NULL);
        set_str(an, "name", a->name);
        set_str(an, "type", a->type);
        set_int(an, "element-bytes", a->elem_bytes);
        set_int(an, "length", a->length);
        set_str(an, "length-expr", a->length_text);
        set_str(an, "space", rc_space_name(a->space));
        if (a->read_only_path != RC_READ_ONLY_PATH_ASSUMED) /* said in the kernel file */
            set_str(an, "read-only-path", a->read_only_path == RC_READ_ONLY_PATH_YES ? "yes" : "no");
        set_str(an, "note", a->note);
        set_access(an, &m->arrays[i]);
    }
}

void rc_results_add_counts(xmlNodePtr kernel, const char *basis, const rc_kernel *k,
                           const rc_counts *c)
{
    char buf[64];
    xmlNodePtr n = xmlNewChild(kernel, NULL, X("counts"), NULL);
    set_str(n, "basis", basis);
    xmlNodePtr t = xmlNewChild(n, NULL, X("threads"), NULL);
    set_int(t, "launched", c->threads_launched);
    set_int(t, "active", c->threads_active);
    set_int(t, "per-block", c->threads_per_block);
    set_int(t, "active-per-block-min", c->active_per_block.block_min);
    set_int(t, "active-per-block-max", c->active_per_block.block_max);
    set_sig3(t, "active-percent",
             c->threads_launched ? 100.0 * (double)c->threads_active / (double)c->threads_launched : 0);
    xmlNodePtr b = xmlNewChild(n, NULL, X("blocks"), NULL);
    set_int(b, "launched", c->blocks_launched);
    set_int(b, "active", c->blocks_active);
    xmlNodePtr f = xmlNewChild(n, NULL, X("flops"), NULL);
    set_spread(f, &c->flops);
    rc_precision_work pw;
    rc_precision_work_of(k, c, &pw);
    for (int p = 0; p < RC_PRECISIONS; p++)
        set_num(f, rc_precision_name((rc_precision)p), pw.flops[p], NULL);
    xmlNodePtr by = xmlNewChild(n, NULL, X("bytes"), NULL);
    set_spread(by, &c->bytes);
    set_int(by, "loaded", c->bytes_loaded);
    set_int(by, "stored", c->bytes_stored);
    set_int(by, "traffic", c->bytes_traffic);
    set_num(by, "mib", (double)c->bytes.total / 1048576.0,
            rc_format_mib(c->bytes.total, buf, sizeof buf));
    double intensity = c->bytes.total > 0 ? (double)c->flops.total / (double)c->bytes.total
                       : c->flops.total > 0 ? INFINITY : 0;
    xmlNodePtr ai = xmlNewChild(n, NULL, X("intensity"), NULL);
    set_sig3(ai, "value", intensity);
    xmlNodePtr ev = xmlNewChild(n, NULL, X("evaluation"), NULL);
    char reads[128] = "";
    static const char *const index_names[] = {"threadIdx.x", "threadIdx.y", "threadIdx.z",
                                              "blockIdx.x",  "blockIdx.y",  "blockIdx.z"};
    for (int s = 0; s < RC_SLOT_FIRST_FREE; s++)
        if (c->reads_index[s]) {
            if (*reads)
                strcat(reads, " ");
            strcat(reads, index_names[s]);
        }
    set_str(ev, "reads", reads);
    set_int(ev, "runs", c->thread_runs);
    set_int(ev, "steps", c->steps);
    if (c->memory_counted)
        add_memory(n, k, &c->memory);
    xmlNodePtr work = xmlNewChild(n, NULL, X("work"), NULL);
    add_work(work, k, k->work, c);
}
