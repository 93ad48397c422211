/* results.c: builds the results tree. See results.h. */
#include "results/results.h"

#include <math.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/buffer.h"
#include "model/estimate.h"
#include "model/traffic.h"
#include "model/refine.h"
#include "results/format.h"
#include "results/glance.h"
#include "results/interpret.h"
#include "results/launch.h"
#include "input/load.h"

#define X(s) ((const xmlChar *)(s))

/* ---- attribute helpers ------------------------------------------------ */

/* Every attribute is set once on a new node, so it is added without
 * xmlSetProp's search for one of the same name (an <estimate> has some 60
 * attributes: that search was a sixth of the tree's time). */
static void add_prop(xmlNodePtr n, const char *name, const char *value)
{
    xmlNewProp(n, X(name), X(value));
}

static void set_str(xmlNodePtr n, const char *name, const char *value)
{
    if (value)
        add_prop(n, name, value);
}

/* name="exact" name-text="1,234" */
static void set_int(xmlNodePtr n, const char *name, int64_t v)
{
    char buf[64], text_name[96];
    snprintf(buf, sizeof buf, "%lld", (long long)v);
    add_prop(n, name, buf);
    snprintf(text_name, sizeof text_name, "%s-text", name);
    add_prop(n, text_name, rc_format_int(v, buf, sizeof buf));
}

/* name="full precision" name-text="shown" (shown made by the caller) */
static void set_num(xmlNodePtr n, const char *name, double v, const char *shown)
{
    char buf[64], text_name[96];
    add_prop(n, name, rc_format_exact(v, buf, sizeof buf));
    if (shown) {
        snprintf(text_name, sizeof text_name, "%s-text", name);
        add_prop(n, text_name, shown);
    }
}

static void set_sig3(xmlNodePtr n, const char *name, double v)
{
    char buf[64];
    set_num(n, name, v, rc_format_sig3(v, buf, sizeof buf));
}

/* A time: seconds at full precision, shown in µs. */
static void set_time(xmlNodePtr n, const char *name, double seconds)
{
    char buf[64];
    set_num(n, name, seconds, rc_format_us(seconds, buf, sizeof buf));
}

static void set_bool(xmlNodePtr n, const char *name, bool v)
{
    add_prop(n, name, v ? "yes" : "no");
}

static xmlNodePtr add_text_child(xmlNodePtr parent, const char *name, const char *text)
{
    xmlNodePtr n = xmlNewChild(parent, NULL, X(name), NULL);
    if (text)
        xmlAddChild(n, xmlNewText(X(text)));
    return n;
}

xmlNodePtr rc_results_child(xmlNodePtr parent, const char *name)
{
    for (xmlNodePtr n = parent ? parent->children : NULL; n; n = n->next)
        if (n->type == XML_ELEMENT_NODE && strcmp((const char *)n->name, name) == 0)
            return n;
    return NULL;
}

/* ---- GPUs ------------------------------------------------------------- */

/* The names of rc_origin, as results.xml writes them. ORDER RC_ORIGIN */
static const char *const origin_names[] = {"published", "measured", "assumed"};

/* What the assumed launch latency stands for, and where the value comes
 * from (the gpu-small-kernels microbenchmark of gpu-benches). */
#define LAUNCH_LATENCY_ASSUMPTION                                                          \
    "one kernel launch followed by a synchronisation, as in the reference reports (5 to " \
    "10 µs in published microbenchmarks; launches queued back to back take about 1.6 to " \
    "2.6 µs)"
#define LAUNCH_LATENCY_DEFAULT_SOURCE \
    "roofcast's default, used where the GPU file gives no launch latency"

/* One figure of a GPU: its value, how people see it, and where it comes
 * from. `source` says where (for a figure of the GPU file, the file, whose
 * <source> names the datasheet or benchmark); an assumed figure also says
 * what it assumes. */
typedef struct {
    const char *name, *label, *unit;
    double value;
    const char *shown;
    rc_origin origin;
    const char *source;
    const char *assumption; /* RC_ORIGIN_ASSUMED only */
} gpu_figure;

static void add_figure(xmlNodePtr gpu, const gpu_figure *f)
{
    xmlNodePtr n = xmlNewChild(gpu, NULL, X("figure"), NULL);
    set_str(n, "name", f->name);
    set_str(n, "label", f->label);
    set_num(n, "value", f->value, f->shown);
    set_str(n, "unit", f->unit);
    set_str(n, "origin", origin_names[f->origin]);
    set_str(n, "source", f->source);
    if (f->origin == RC_ORIGIN_ASSUMED)
        set_str(n, "assumption", f->assumption);
}

/* A figure the GPU file gives, as published. */
static void add_published(xmlNodePtr n, const rc_gpu *g, const char *name, const char *label,
                          double value, const char *unit, const char *shown)
{
    add_figure(n, &(gpu_figure){name, label, unit, value, shown, RC_ORIGIN_PUBLISHED,
                                g->file, NULL});
}

/* "6 GB GDDR5", "889 MHz base": a quantity and the kind the file gives. */
static const char *si_and_kind(double value, const char *unit, const char *kind, char *out,
                               size_t size)
{
    char buf[96];
    rc_format_si(value, unit, buf, sizeof buf);
    if (kind)
        snprintf(out, size, "%s %s", buf, kind);
    else
        snprintf(out, size, "%s", buf);
    return out;
}

static void add_gpu_figures(xmlNodePtr n, const rc_gpu *g)
{
    char buf[96], b2[200];
    add_published(n, g, "peak-fp32", "FP32 peak", g->peak_fp32, "FLOP/s",
                  rc_format_si(g->peak_fp32, "FLOP/s", buf, sizeof buf));
    if (g->peak_fp64 > 0)
        add_published(n, g, "peak-fp64", "FP64 peak", g->peak_fp64, "FLOP/s",
                      rc_format_si(g->peak_fp64, "FLOP/s", buf, sizeof buf));
    add_published(n, g, "bandwidth", "Memory bandwidth", g->bandwidth, "B/s",
                  rc_format_si(g->bandwidth, "B/s", buf, sizeof buf));
    bool assumed = g->launch_latency_origin == RC_ORIGIN_ASSUMED;
    add_figure(n, &(gpu_figure){"launch-latency", "Launch latency", "s", g->launch_latency,
                                rc_format_si(g->launch_latency, "s", buf, sizeof buf),
                                g->launch_latency_origin,
                                assumed ? LAUNCH_LATENCY_DEFAULT_SOURCE : g->file,
                                LAUNCH_LATENCY_ASSUMPTION});
    double ridge = g->peak_fp32 / g->bandwidth;
    snprintf(b2, sizeof b2, "%s FLOP/byte", rc_format_sig3(ridge, buf, sizeof buf));
    add_figure(n, &(gpu_figure){"ridge", "Ridge point", "FLOP/B", ridge, b2, RC_ORIGIN_PUBLISHED,
                                "FP32 peak / memory bandwidth", NULL});
    if (g->memory_bytes > 0)
        add_published(n, g, "memory", "Memory", g->memory_bytes, "B",
                      si_and_kind(g->memory_bytes, "B", g->memory_type, b2, sizeof b2));
    if (g->l2_bytes > 0)
        add_published(n, g, "l2", "L2 cache", g->l2_bytes, "B",
                      rc_format_si(g->l2_bytes, "B", buf, sizeof buf));
    if (g->clock_hz > 0)
        add_published(n, g, "clock", "Clock of the peak", g->clock_hz, "Hz",
                      si_and_kind(g->clock_hz, "Hz", g->clock_kind, b2, sizeof b2));
}

/* The execution model's figures of a GPU, under <execution>, each with its origin and
 * source (an assumed one's source says what it assumes). */
static void add_execution_figure(xmlNodePtr n, const char *name, const char *label,
                                 const rc_gpu_figure *f, const char *unit, const char *shown)
{
    char written[200];
    if (f->written && strcmp(f->written, shown) != 0 && strstr(f->written, "cycles")) {
        snprintf(written, sizeof written, "%s (%s)", shown, f->written);
        shown = written;
    }
    add_figure(n, &(gpu_figure){name, label, unit, f->value, shown, f->origin, f->source,
                                f->source});
}

/* How a figure of the execution model is shown. */
typedef enum { SHOWN_AS_COUNT, SHOWN_AS_SI, SHOWN_AS_SI3 } shown_as;

/* A figure of a structure (rc_sm_limits or rc_gpu_rates), by its offset. */
typedef struct {
    const char *name, *label, *unit;
    size_t offset;
    shown_as shown;
} figure_field;

/* ORDER: as results.xml and the reports list them. */
static const figure_field sm_fields[] = {
    {"sm-clock", "SM clock", "Hz", offsetof(rc_sm_limits, clock), SHOWN_AS_SI},
    {"sms", "SMs", "", offsetof(rc_sm_limits, count), SHOWN_AS_COUNT},
    {"warp-size", "Warp size", "", offsetof(rc_sm_limits, warp_size), SHOWN_AS_COUNT},
    {"threads-per-sm", "Threads per SM", "", offsetof(rc_sm_limits, threads), SHOWN_AS_COUNT},
    {"blocks-per-sm", "Blocks per SM", "", offsetof(rc_sm_limits, blocks), SHOWN_AS_COUNT},
    {"registers-per-sm", "Registers per SM", "", offsetof(rc_sm_limits, registers),
     SHOWN_AS_COUNT},
    {"registers-per-thread", "Registers per thread", "",
     offsetof(rc_sm_limits, registers_per_thread), SHOWN_AS_COUNT},
    {"register-unit", "Register allocation unit", "", offsetof(rc_sm_limits, register_unit),
     SHOWN_AS_COUNT},
    {"shared-per-sm", "Shared memory per SM", "B", offsetof(rc_sm_limits, shared), SHOWN_AS_SI},
    {"shared-per-block", "Shared memory per block", "B",
     offsetof(rc_sm_limits, shared_per_block), SHOWN_AS_SI},
    {"shared-unit", "Shared memory allocation unit", "B", offsetof(rc_sm_limits, shared_unit),
     SHOWN_AS_SI},
    {"shared-reserved", "Shared memory reserved per block", "B",
     offsetof(rc_sm_limits, shared_reserved), SHOWN_AS_SI},
    {"l1-per-sm", "L1 data cache per SM", "B", offsetof(rc_sm_limits, l1), SHOWN_AS_SI},
    {"l1-shared-per-sm", "L1 and shared memory per SM", "B", offsetof(rc_sm_limits, l1_shared),
     SHOWN_AS_SI},
};

static const figure_field rate_fields[] = {
    {"dram-bandwidth", "Sustained DRAM bandwidth", "B/s", offsetof(rc_gpu_rates, dram_bandwidth),
     SHOWN_AS_SI3},
    {"l2-bandwidth", "L2 bandwidth", "B/s", offsetof(rc_gpu_rates, l2_bandwidth), SHOWN_AS_SI3},
    {"l1-bandwidth", "L1/shared bandwidth", "B/s", offsetof(rc_gpu_rates, l1_bandwidth),
     SHOWN_AS_SI3},
    {"dram-latency", "DRAM latency", "s", offsetof(rc_gpu_rates, dram_latency), SHOWN_AS_SI3},
    {"l2-latency", "L2 latency", "s", offsetof(rc_gpu_rates, l2_latency), SHOWN_AS_SI3},
    {"l1-latency", "L1 latency", "s", offsetof(rc_gpu_rates, l1_latency), SHOWN_AS_SI3},
    {"launch-back-to-back", "Launch, back to back", "s",
     offsetof(rc_gpu_rates, launch_back_to_back), SHOWN_AS_SI3},
    {"launch-synchronised", "Launch and synchronisation", "s",
     offsetof(rc_gpu_rates, launch_sync), SHOWN_AS_SI3},
};

static const char *show_field(const figure_field *d, double value, char *buf, size_t size)
{
    switch (d->shown) {
    case SHOWN_AS_COUNT:
        return rc_format_int((int64_t)value, buf, size);
    case SHOWN_AS_SI:
        return rc_format_si(value, d->unit, buf, size);
    case SHOWN_AS_SI3:
        return rc_format_si3(value, d->unit, buf, size);
    }
    return "";
}

/* Adds the figures `fields` of the structure at `base`. */
static void add_figure_fields(xmlNodePtr n, const void *base, const figure_field *fields,
                              size_t count)
{
    char buf[96];
    for (size_t i = 0; i < count; i++) {
        const figure_field *d = &fields[i];
        const rc_gpu_figure *f = (const rc_gpu_figure *)((const char *)base + d->offset);
        add_execution_figure(n, d->name, d->label, f, d->unit,
                             show_field(d, f->value, buf, sizeof buf));
    }
}

static void add_execution_figures(xmlNodePtr gpu, const rc_gpu *g)
{
    xmlNodePtr n = xmlNewChild(gpu, NULL, X("execution"), NULL);
    char buf[96];
    add_figure_fields(n, &g->sm, sm_fields, sizeof sm_fields / sizeof sm_fields[0]);
    if (g->peak_fp16 > 0)
        add_published(n, g, "peak-fp16", "FP16 peak", g->peak_fp16, "FLOP/s",
                      rc_format_si(g->peak_fp16, "FLOP/s", buf, sizeof buf));
    add_figure_fields(n, &g->rates, rate_fields, sizeof rate_fields / sizeof rate_fields[0]);
}

xmlDocPtr rc_results_new(const rc_gpu *const *gpus, size_t ngpus)
{
    xmlDocPtr doc = xmlNewDoc(X("1.0"));
    xmlNodePtr top = xmlNewDocNode(doc, NULL, X("roofcast-results"), NULL);
    xmlDocSetRootElement(doc, top);
    set_str(top, "format-version", RC_RESULTS_FORMAT_VERSION);
    xmlNodePtr list = xmlNewChild(top, NULL, X("gpus"), NULL);
    for (size_t i = 0; i < ngpus; i++) {
        const rc_gpu *g = gpus[i];
        xmlNodePtr n = xmlNewChild(list, NULL, X("gpu"), NULL);
        set_str(n, "id", g->id);
        set_str(n, "name", g->name);
        set_str(n, "file", g->file);
        add_text_child(n, "architecture", g->architecture);
        if (g->compute_capability)
            add_text_child(n, "compute-capability", g->compute_capability);
        if (g->sms > 0) {
            xmlNodePtr s = xmlNewChild(n, NULL, X("sms"), NULL);
            set_int(s, "value", g->sms);
        }
        add_gpu_figures(n, g);
        add_text_child(n, "source", g->source);
        add_execution_figures(n, g);
    }
    xmlNewChild(top, NULL, X("kernels"), NULL);
    return doc;
}

/* ---- counts ----------------------------------------------------------- */

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
    {"executions", "total-bytes"}, {"executions", "total-bytes"}};

/* The loop's second and third clauses, as C writes them. */
static void set_loop_clauses(xmlNodePtr n, const rc_work *w)
{
    set_bool(n, "closed-form", !w->body_reads_var);
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
        set_str(an, "note", a->note);
        set_access(an, &m->arrays[i]);
    }
}

static void add_counts(xmlNodePtr kernel, const char *basis, const rc_kernel *k,
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

/* ---- kernels ---------------------------------------------------------- */

/* Bytes and time at each level of the memory hierarchy (traffic.h). */
static void add_traffic(xmlNodePtr n, const rc_gpu *g, const rc_counts *c)
{
    rc_traffic t;
    rc_traffic_compute(g, c, &t);
    char buf[64];
    set_num(n, "l1-bytes", t.l1_bytes, rc_format_si3(t.l1_bytes, "B", buf, sizeof buf));
    set_num(n, "l2-bytes", t.l2_bytes, rc_format_si3(t.l2_bytes, "B", buf, sizeof buf));
    set_num(n, "dram-bytes", t.dram_bytes, rc_format_si3(t.dram_bytes, "B", buf, sizeof buf));
    set_sig3(n, "l1-per-block", t.l1_per_block);
    set_sig3(n, "resident-blocks", t.resident_blocks);
    set_sig3(n, "l1-hit-percent", 100 * t.l1_hit);
    set_sig3(n, "l2-fit-percent", 100 * t.l2_fit);
    set_time(n, "t-l1", t.t_l1);
    set_time(n, "t-l2", t.t_l2);
    set_time(n, "t-dram", t.t_dram);
    set_sig3(n, "intensity-l1", t.intensity_l1);
    set_sig3(n, "intensity-l2", t.intensity_l2);
    set_sig3(n, "intensity-dram", t.intensity_dram);
}

/* ---- the refined estimate (execution model) ----------------------------- */

static const char *const occ_limit_words[] = {"threads per SM", "blocks per SM",
                                              "registers", "shared memory", "nothing"};

static void set_rate(xmlNodePtr n, const char *name, double v, const char *unit)
{
    char buf[64];
    set_num(n, name, v, rc_format_si3(v, unit, buf, sizeof buf));
}

/* <term name value formula inputs>: one term of the refined estimate, its formula in
 * words and the numbers that went into it, so a reviewer can redo it by hand. */
static xmlNodePtr add_term(xmlNodePtr parent, const char *name, double seconds,
                           const char *formula, const char *inputs)
{
    xmlNodePtr t = xmlNewChild(parent, NULL, X("term"), NULL);
    set_str(t, "name", name);
    set_time(t, "time", seconds);
    set_str(t, "formula", formula);
    set_str(t, "inputs", inputs);
    return t;
}

static void add_level(xmlNodePtr parent, const char *name, const char *label,
                      const rc_level_time *l, double wave_factor)
{
    char a[64], b[64], c[64], d[64], e[64], f[64], g[64], inputs[600];
    xmlNodePtr t = add_term(parent, name, l->time,
                            "bytes / (little^-2 + sustained^-2)^-1/2 x wave factor, little = "
                            "bytes in flight / (latency x (1.3 + 0.7 / rounds))", NULL);
    snprintf(inputs, sizeof inputs,
             "%s bytes at %s; little = %s in flight / %s = %s; sustained %s; rate %s; x %s",
             rc_format_sig3(l->bytes, a, sizeof a), label,
             rc_format_si3(l->in_flight, "B", c, sizeof c),
             rc_format_si3(l->latency_eff, "s", d, sizeof d),
             rc_format_si3(l->little, "B/s", e, sizeof e),
             rc_format_si3(l->sustained, "B/s", b, sizeof b),
             rc_format_si3(l->rate, "B/s", f, sizeof f), rc_format_sig3(wave_factor, g, sizeof g));
    set_str(t, "inputs", inputs);
    set_num(t, "bytes", l->bytes, NULL);
    set_rate(t, "sustained", l->sustained, "B/s");
    set_time(t, "latency", l->latency);
    set_time(t, "latency-effective", l->latency_eff);
    set_rate(t, "in-flight", l->in_flight, "B");
    set_rate(t, "little", l->little, "B/s");
    set_rate(t, "rate", l->rate, "B/s");
    set_bool(t, "little-bound", l->little_bound);
}

/* Part-line stores, said when they are at least a tenth of the L2's bytes. */
#define PART_LINE_SHARE_SAID 0.1

/* When stores that write part of a 128-byte line make a good share of the L2's bytes, the
 * sentence that says so. */
static void part_line_sentence(const rc_level_bytes *lb, double l2_bytes, rc_buffer *sb)
{
    char a[64], b[64];
    if (!(lb->l2_part_lines > 0) || lb->l2_part_lines < PART_LINE_SHARE_SAID * l2_bytes)
        return;
    rc_buffer_printf(sb, " Of the %s bytes at L2, %s are the unwritten rest of 128-byte lines "
                     "that stores and atomics write in part: each line such a request touches "
                     "takes a whole line's turn at the L2.",
                     rc_format_sig3(l2_bytes, a, sizeof a),
                     rc_format_sig3(lb->l2_part_lines, b, sizeof b));
}

/* When DRAM reads the footprint once per wave instead of what the memory model's fall-off
 * rule gives, the sentence that says so: the memory section shows the larger figure. */
static void wave_cap_sentence(const rc_refined *r, rc_buffer *sb)
{
    const rc_level_bytes *lb = &r->level_bytes;
    char a[64], b[64], c[64], d[64];
    if (!lb->dram_capped)
        return;
    char per_wave[96];
    if (r->waves == 1)
        snprintf(per_wave, sizeof per_wave, "in the launch's one wave");
    else
        snprintf(per_wave, sizeof per_wave, "for each of the %s waves",
                 rc_format_int(r->waves, d, sizeof d));
    rc_buffer_printf(sb, " DRAM moves %s bytes, not the %s of \"Memory traffic by level\": at most "
                     "the footprint (%s bytes) once %s, as blocks resident at once find in L2 "
                     "what they reuse (assumed).",
                     rc_format_sig3(lb->dram, a, sizeof a),
                     rc_format_sig3(lb->dram_uncapped, b, sizeof b),
                     rc_format_sig3(lb->footprint, c, sizeof c), per_wave);
}

/* Little's law in numbers: the threads that work, resident at once, each keep so many bytes
 * in flight (the DRAM term's in-flight bytes are theirs, as every level's are). */
static void latency_sentence(const rc_refined *r, const char *occupancy, rc_buffer *sb)
{
    char a[64], b[64], c[64], who[128];
    rc_format_sig3(r->working_threads, a, sizeof a);
    /* Over several waves, blocks whose threads work and blocks whose threads do not may
     * share the GPU at once: the count is then the launch's share of working threads. */
    if (r->waves > 1 && r->working_share < 1)
        snprintf(who, sizeof who, "the threads that work, %s resident at once on average,", a);
    else
        snprintf(who, sizeof who, "the %s threads that work, resident at once,", a);
    rc_buffer_printf(sb, "Limited by memory latency: %s keep %s in flight (%s each), too few to "
                     "use the bandwidth (Little's law), at %s %% occupancy.", who,
                     rc_format_si3(r->dram.in_flight, "B", b, sizeof b),
                     rc_format_si3(r->thread_bytes_in_flight, "B", c, sizeof c), occupancy);
}

/* The sentence that names what limits the refined estimate, with its numbers. */
static void refined_sentence(const rc_refined *r, rc_buffer *sb)
{
    char a[64], b[64];
    rc_format_sig3(100 * r->occ.occupancy, a, sizeof a);
    switch (r->limiter) {
    case RC_LIMIT_LAUNCH:
        rc_buffer_printf(sb, "Limited by the launch: the body takes %s µs, less than the %s µs "
                         "a launch costs back to back.", rc_format_us(r->t_body_est, b, sizeof b),
                         rc_format_us(r->t_launch, a, sizeof a));
        return;
    case RC_LIMIT_LATENCY:
        if (r->t_thread >= r->t_body_est)
            rc_buffer_printf(sb, "Limited by latency: the longest thread's %s FLOPs take %s µs "
                             "as FMA instructions issued one a cycle, longer than any shared "
                             "resource needs.",
                             rc_format_sig3(r->thread_flops_max, a, sizeof a),
                             rc_format_us(r->t_thread, b, sizeof b));
        else
            latency_sentence(r, a, sb);
        return;
    case RC_LIMIT_OCCUPANCY:
        rc_buffer_printf(sb, "Limited by occupancy: %s %% (%s limit the blocks per SM to %lld) "
                         "keeps too few bytes in flight for the bandwidth (Little's law).", a,
                         occ_limit_words[r->occ.limit], (long long)r->occ.blocks_per_sm);
        return;
    case RC_LIMIT_L1:
        if (r->shared.time > r->l1.time) {
            char c[64], d[64];
            rc_buffer_printf(sb, "Limited by shared memory at %s %% occupancy: %s wavefronts "
                             "(bank conflicts counted), %s an SM a clock, %s.", a,
                             rc_format_sig3(r->shared.wavefronts, b, sizeof b),
                             rc_format_sig3(r->shared.per_clock, c, sizeof c),
                             rc_format_si3(r->shared.rate, "/s", d, sizeof d));
            return;
        }
        /* fall through */
    case RC_LIMIT_DRAM:
    case RC_LIMIT_L2: {
        const char *lv = r->limiter == RC_LIMIT_DRAM ? "DRAM" : r->limiter == RC_LIMIT_L2
                                                                    ? "L2" : "L1/shared";
        const rc_level_time *l = r->limiter == RC_LIMIT_DRAM ? &r->dram
                                 : r->limiter == RC_LIMIT_L2 ? &r->l2 : &r->l1;
        /* l->rate is the model's rate, the sustained figure bent by Little's law: said as
         * what the launch reaches, beside the sustained rate it cannot pass. */
        char c[64];
        rc_buffer_printf(sb, "Limited by %s bandwidth at %s %% occupancy: it reaches %s of the "
                         "%s sustained.", lv, a, rc_format_si3(l->rate, "B/s", b, sizeof b),
                         rc_format_si3(l->sustained, "B/s", c, sizeof c));
        if (r->limiter == RC_LIMIT_L2)
            part_line_sentence(&r->level_bytes, l->bytes, sb);
        return;
    }
    default: {
        int p = (int)r->limiter - (int)RC_LIMIT_FP16;
        static const char *const prec[] = {"FP16", "FP32", "FP64"};
        rc_buffer_printf(sb, "Limited by %s compute at %s %% occupancy: %s in reach of the %s "
                         "peak.", prec[p], a, rc_format_si3(r->rate[p], "FLOP/s", b, sizeof b),
                         prec[p]);
        return;
    }
    }
}

static void add_occupancy(xmlNodePtr n, const rc_occupancy *occ)
{
    xmlNodePtr o = xmlNewChild(n, NULL, X("occupancy"), NULL);
    set_int(o, "warps-per-block", occ->warps_per_block);
    static const char *const lim_names[] = {"by-threads", "by-blocks", "by-registers",
                                            "by-shared"};
    const int64_t lims[] = {occ->by_threads, occ->by_blocks, occ->by_registers,
                            occ->by_shared};
    for (int i = 0; i < 4; i++)
        if (lims[i] != INT64_MAX)
            set_int(o, lim_names[i], lims[i]);
    set_int(o, "registers-per-warp", occ->registers_per_warp);
    set_int(o, "shared-per-block", occ->shared_per_block);
    set_int(o, "blocks-per-sm", occ->blocks_per_sm);
    set_str(o, "limit", occ_limit_words[occ->limit]);
    set_sig3(o, "percent", 100 * occ->occupancy);
}

static void add_waves(xmlNodePtr n, const rc_refined *r)
{
    xmlNodePtr w = xmlNewChild(n, NULL, X("waves"), NULL);
    set_int(w, "blocks", r->blocks);
    set_int(w, "sms", r->sms);
    set_int(w, "active-sms", r->active_sms);
    set_int(w, "concurrent-blocks", r->concurrent_blocks);
    set_int(w, "waves", r->waves);
    set_int(w, "tail-blocks", r->tail_blocks);
    set_sig3(w, "wave-factor", r->wave_factor);
    set_sig3(w, "warps-per-sm", r->warps_per_sm);
    set_sig3(w, "issue-fraction", r->issue_fraction);
}

/* One compute term for each precision the kernel does work in. */
static void add_compute_terms(xmlNodePtr n, const rc_refined *r)
{
    static const char *const assumed_peak[] = {
        "assumed: no FP16 peak in the GPU file, FP16 at the FP32 rate", "",
        "assumed: no FP64 peak in the GPU file, FP64 at 1/32 of the FP32 rate"};
    char a[64], b[64], c[64], d[64], e[64], inputs[600];
    for (int p = 0; p < RC_PRECISIONS; p++) {
        if (r->t_compute[p] <= 0)
            continue;
        char name[32];
        snprintf(name, sizeof name, "compute-%s", rc_precision_name((rc_precision)p));
        snprintf(inputs, sizeof inputs, "%s FLOPs; %s peak %s%s%s x %lld / %lld SMs x %s issue = %s; x %s",
                 rc_format_sig3(r->flops[p], e, sizeof e),
                 rc_precision_name((rc_precision)p),
                 rc_format_si3(r->peak[p], "FLOP/s", a, sizeof a),
                 r->peak_assumed[p] ? " " : "", r->peak_assumed[p] ? assumed_peak[p] : "",
                 (long long)r->active_sms,
                 (long long)r->sms, rc_format_sig3(r->issue_fraction, b, sizeof b),
                 rc_format_si3(r->rate[p], "FLOP/s", c, sizeof c),
                 rc_format_sig3(r->wave_factor, d, sizeof d));
        xmlNodePtr t = add_term(n, name, r->t_compute[p],
                                "FLOPs / (peak x active SMs / SMs x min(1, warps per SM / 4)) "
                                "x wave factor", inputs);
        set_str(t, "precision", rc_precision_name((rc_precision)p));
        set_num(t, "flops", r->flops[p], NULL);
        set_rate(t, "peak", r->peak[p], "FLOP/s");
        set_str(t, "peak-origin", r->peak_assumed[p] ? "assumed" : "published");
        set_rate(t, "rate", r->rate[p], "FLOP/s");
    }
}

/* Shared memory's own term, when the kernel uses it: its wavefronts at the generation's
 * rate (refine.h). */
static void add_shared_term(xmlNodePtr n, const rc_refined *r)
{
    const rc_shared_time *s = &r->shared;
    if (s->wavefronts <= 0)
        return;
    char a[64], b[64], c[64], d[64], e[64], inputs[600];
    snprintf(inputs, sizeof inputs, "%s wavefronts (bank conflicts counted) / (%s a clock x %lld "
             "active SMs x %s = %s); x %s",
             rc_format_sig3(s->wavefronts, a, sizeof a), rc_format_sig3(s->per_clock, b, sizeof b),
             (long long)r->active_sms, rc_format_si3(r->clock, "Hz", c, sizeof c),
             rc_format_si3(s->rate, "/s", d, sizeof d), rc_format_sig3(r->wave_factor, e, sizeof e));
    xmlNodePtr t = add_term(n, "shared", s->time,
                            "shared-memory wavefronts / (wavefronts per SM per clock x active "
                            "SMs x SM clock) x wave factor", inputs);
    set_num(t, "wavefronts", s->wavefronts, NULL);
    set_rate(t, "rate", s->rate, "/s");
}

/* The memory levels' terms and the bytes each level sees. */
static void add_memory_levels(xmlNodePtr n, const rc_refined *r)
{
    const rc_level_bytes *lb = &r->level_bytes;
    const char *dram = lb->l2_resident   ? "DRAM (the footprint stays in L2 between launches)"
                       : lb->dram_capped ? "DRAM (the footprint once per wave)"
                                         : "DRAM";
    add_level(n, "dram", dram, &r->dram, r->wave_factor);
    add_level(n, "l2", lb->l2_part_lines > 0 ? "L2, part-line stores at 128 B a line" : "L2",
              &r->l2, r->wave_factor);
    add_level(n, "l1-shared", r->shared.in_l1 || r->shared.wavefronts <= 0
                                  ? "L1 and shared memory" : "L1 (shared memory apart)",
              &r->l1, r->wave_factor);
    add_shared_term(n, r);
    xmlNodePtr lbn = xmlNewChild(n, NULL, X("level-bytes"), NULL);
    set_num(lbn, "footprint", lb->footprint, NULL);
    set_num(lbn, "l2-share", lb->l2_share, NULL);
    set_num(lbn, "l2-part-lines", lb->l2_part_lines, NULL);
    set_bool(lbn, "l2-resident", lb->l2_resident);
    set_num(lbn, "dram-uncapped", lb->dram_uncapped, NULL);
    set_bool(lbn, "dram-capped", lb->dram_capped);
}

static void add_thread_term(xmlNodePtr n, const rc_refined *r)
{
    char a[64], b[64], c[64], inputs[600];
    snprintf(inputs, sizeof inputs, "%s FLOPs in the longest thread / 2 FLOPs an FMA x %s cycles "
             "an instruction / %s",
             rc_format_sig3(r->thread_flops_max, a, sizeof a),
             rc_format_sig3(r->thread_cycles_per_instruction, c, sizeof c),
             rc_format_si3(r->clock, "Hz", b, sizeof b));
    add_term(n, "per-thread", r->t_thread,
             "longest thread's FLOPs / 2 x cycles an instruction / SM clock", inputs);
}

/* The refined estimate's times, its limiter and the sentence that explains it. */
static void set_refined_times(xmlNodePtr n, const rc_refined *r)
{
    set_time(n, "t-body-est", r->t_body_est);
    set_time(n, "t-launch", r->t_launch);
    set_time(n, "t-estimate", r->t_estimate);
    set_time(n, "t-lower-compute", r->t_lower_compute);
    set_time(n, "t-lower-memory", r->t_lower_memory);
    set_time(n, "t-lower-thread", r->t_thread_lower);
    set_time(n, "t-lower", r->t_lower);
    set_str(n, "limiter", rc_limiter_name(r->limiter));
    rc_buffer sb = {0};
    refined_sentence(r, &sb);
    wave_cap_sentence(r, &sb);
    char *text = rc_buffer_take(&sb, NULL);
    add_text_child(n, "explanation", text);
    free(text);
}

static void add_refined(xmlNodePtr est, const rc_refined *r)
{
    set_sig3(est, "occupancy", r->occ.occupancy);
    set_int(est, "waves", r->waves);
    set_time(est, "t-lower", r->t_lower);
    set_time(est, "t-estimate", r->t_estimate);
    set_str(est, "limiter", rc_limiter_name(r->limiter));
    char words[128];
    set_str(est, "limiter-words", rc_glance_limiter_words(r, words, sizeof words));
    xmlNodePtr n = xmlNewChild(est, NULL, X("refined"), NULL);
    add_occupancy(n, &r->occ);
    add_waves(n, r);
    add_compute_terms(n, r);
    add_memory_levels(n, r);
    add_thread_term(n, r);
    xmlNodePtr f = xmlNewChild(n, NULL, X("flight"), NULL);
    set_sig3(f, "thread-bytes", r->thread_bytes_in_flight);
    set_sig3(f, "rounds", r->rounds);
    set_refined_times(n, r);
}

static void add_estimates(xmlNodePtr parent, const char *name,
                          const rc_gpu *const *gpus, size_t ng, const rc_estimate *est,
                          const rc_counts *traffic_of,
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
        set_str(n, "t-launch-origin", origin_names[gpus[i]->launch_latency_origin]);
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
            add_traffic(n, gpus[i], traffic_of);
        if (refined)
            add_refined(n, &refined[i]);
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
    rc_resources res = rc_kernel_resources(k);
    rc_precision_work work;
    rc_precision_work_of(k, r->model, &work);
    for (size_t i = 0; i < ng; i++) {
        rc_estimate_compute(gpus[i], r->model->flops.total, r->model->bytes.total, &est[i]);
        if (refined) {
            rc_level_bytes lb;
            rc_level_bytes_of(gpus[i], r->model, &lb);
            rc_refine(gpus[i], k, r->model, &res, &work, &lb, &refined[i]);
        }
        if (r->launch)
            rc_estimate_compute(gpus[i], r->launch->flops.total, r->launch->bytes.total, &lest[i]);
    }
    add_estimates(n, "estimates", gpus, ng, est, r->model, refined);
    rc_glance(n, &(rc_glance_facts){k, gpus, ng, r->model, est, refined});
    free(refined);
    if (r->launch)
        add_estimates(n, "launch-estimates", gpus, ng, lest, NULL, NULL);
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
        xmlNodePtr para = xmlNewChild(verdict, NULL, X("p"), NULL);
        xmlAddChild(para, xmlNewText(X(text)));
        xmlSetProp(para, X("kind"), X("cannot-launch"));
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
    add_counts(n, "model", k, r->model);
    if (r->launch)
        add_counts(n, "launch", k, r->launch);
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
