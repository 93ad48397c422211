/* results_gpus.c: the results document and its <gpus>: each GPU's
 * figures with their origin and source, and the execution model's. See
 * results.h. */
#include "results/results.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "model/arch.h" /* rc_origin_name */
#include "results/tree.h"

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
    set_str(n, "origin", rc_origin_name(f->origin));
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
