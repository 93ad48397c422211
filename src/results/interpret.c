/* interpret.c: the interpretation's sentences. See interpret.h. */
#include "results/interpret.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/arch.h"
#include "results/format.h"
#include "results/glance.h"
#include "results/tree.h"
#include "util/buffer.h"

/* ---- sets of GPUs ------------------------------------------------------- */

/* The GPUs a sentence names: in[i] for gpus[i]. */
typedef struct {
    bool *in;
    size_t n;     /* how many are in */
    size_t total; /* how many GPUs there are */
} gpu_set;

typedef bool (*gpu_test)(const rc_interpret_facts *f, size_t i);

static bool is_compute_bound(const rc_interpret_facts *f, size_t i)
{
    return f->est[i].compute_bound;
}

static bool is_memory_bound(const rc_interpret_facts *f, size_t i)
{
    return !f->est[i].compute_bound;
}

static bool is_launch_dominated(const rc_interpret_facts *f, size_t i)
{
    return f->est[i].launch_dominated;
}

static bool is_body_dominated(const rc_interpret_facts *f, size_t i)
{
    return !f->est[i].launch_dominated;
}

static bool has_assumed_latency(const rc_interpret_facts *f, size_t i)
{
    return f->gpus[i]->launch_latency_origin == RC_ORIGIN_ASSUMED;
}

static bool any_gpu(const rc_interpret_facts *f, size_t i)
{
    (void)f;
    (void)i;
    return true;
}

/* The GPUs that pass `test`; free with set_free. in == NULL when out of
 * memory (the set is then empty). */
static gpu_set set_of(const rc_interpret_facts *f, gpu_test test)
{
    gpu_set s = {calloc(f->ngpus ? f->ngpus : 1, sizeof(bool)), 0, f->ngpus};
    for (size_t i = 0; s.in && i < f->ngpus; i++)
        if ((s.in[i] = test(f, i)))
            s.n++;
    return s;
}

static void set_free(gpu_set *s)
{
    free(s->in);
    s->in = NULL;
}

/* "A", "A and B", "A, B and C". */
static void put_names(rc_buffer *sb, const rc_interpret_facts *f, const gpu_set *s)
{
    size_t seen = 0;
    for (size_t i = 0; i < f->ngpus; i++) {
        if (!s->in || !s->in[i])
            continue;
        seen++;
        rc_buffer_printf(sb, "%s%s", seen == 1 ? "" : seen == s->n ? " and " : ", ",
                         f->gpus[i]->name);
    }
}

/* The set as a sentence names it: "all 5 GPUs", "both GPUs", the one GPU's
 * name, or the names of some. */
static void put_set(rc_buffer *sb, const rc_interpret_facts *f, const gpu_set *s)
{
    if (s->n == s->total && s->total > 2)
        rc_buffer_printf(sb, "all %zu GPUs", s->total);
    else if (s->n == s->total && s->total == 2)
        rc_buffer_printf(sb, "both GPUs");
    else
        put_names(sb, f, s);
}

/* ---- ranges over a set -------------------------------------------------- */

typedef struct {
    double lo, hi;
} range;

typedef double (*gpu_figure)(const rc_interpret_facts *f, size_t i);

static double t_body(const rc_interpret_facts *f, size_t i) { return f->est[i].t_body; }
static double t_launch(const rc_interpret_facts *f, size_t i) { return f->est[i].t_launch; }
static double t_total(const rc_interpret_facts *f, size_t i) { return f->est[i].t_total; }
static double ridge(const rc_interpret_facts *f, size_t i) { return f->est[i].ridge; }
static double launch_percent(const rc_interpret_facts *f, size_t i)
{
    return 100 * f->est[i].launch_share;
}
static double launch_t_total(const rc_interpret_facts *f, size_t i)
{
    return f->launch_est[i].t_total;
}

/* The smallest and largest of `figure` over the GPUs in `s`. */
static range range_over(const rc_interpret_facts *f, const gpu_set *s, gpu_figure figure)
{
    range r = {INFINITY, -INFINITY};
    for (size_t i = 0; i < f->ngpus; i++)
        if (s->in && s->in[i]) {
            r.lo = fmin(r.lo, figure(f, i));
            r.hi = fmax(r.hi, figure(f, i));
        }
    return r;
}

typedef char *(*formatter)(double v, char *buf, size_t size);

static char *as_us(double seconds, char *buf, size_t size)
{
    return rc_format_us(seconds, buf, size);
}

/* "3.03 to 5.89 µs", or "5.00 µs" when both ends read the same. */
static void put_range(rc_buffer *sb, range r, formatter fmt, const char *unit)
{
    char lo[64], hi[64];
    fmt(r.lo, lo, sizeof lo);
    fmt(r.hi, hi, sizeof hi);
    if (strcmp(lo, hi) == 0)
        rc_buffer_printf(sb, "%s%s", lo, unit);
    else if (strcmp(unit, " %") == 0)
        rc_buffer_printf(sb, "%s%s to %s%s", lo, unit, hi, unit);
    else
        rc_buffer_printf(sb, "%s to %s%s", lo, hi, unit);
}

/* "1 byte", "640,000 bytes". */
static void put_count(rc_buffer *sb, int64_t n, const char *one, const char *many)
{
    char buf[64];
    rc_buffer_printf(sb, "%s %s", rc_format_int(n, buf, sizeof buf), n == 1 ? one : many);
}

/* ---- the statements ----------------------------------------------------- */

static bool no_work(const rc_interpret_facts *f)
{
    return f->model->flops.total == 0 && f->model->bytes.total == 0;
}

/* "... below the ridge point of every GPU (15.2 to 57.5 FLOP/byte)", with
 * the range over `s`. */
static void put_ridges(rc_buffer *sb, const rc_interpret_facts *f, const gpu_set *s,
                       const char *side)
{
    rc_buffer_printf(sb, "%s the ridge point", side);
    if (s->total == 1)
        rc_buffer_printf(sb, " (");
    else if (s->n == s->total)
        rc_buffer_printf(sb, s->total == 2 ? " of both GPUs (" : " of every GPU (");
    else {
        rc_buffer_printf(sb, "%s of ", s->n == 1 ? "" : "s");
        put_names(sb, f, s);
        rc_buffer_printf(sb, " (");
    }
    put_range(sb, range_over(f, s, ridge), rc_format_sig3, " FLOP/byte");
    rc_buffer_printf(sb, ")");
}

/* What bounds the body: compute or memory, and why (the intensity against
 * the ridge points of the GPUs on each side). */
static void say_bound(rc_buffer *sb, const rc_interpret_facts *f)
{
    const char *name = f->kernel->name;
    const rc_counts *c = f->model;
    char a[64];
    if (no_work(f)) {
        rc_buffer_printf(sb, "%s does no counted work: its time %sis the launch latency alone.",
                         name, f->ngpus > 1 ? "on every GPU " : "");
        return;
    }
    gpu_set compute = set_of(f, is_compute_bound), memory = set_of(f, is_memory_bound);
    /* Ties count as memory bound (estimate.h): then "below" would not hold. */
    bool tie = false;
    for (size_t i = 0; i < f->ngpus; i++)
        tie |= f->est[i].t_compute == f->est[i].t_mem;
    const char *intensity = isinf(f->est[0].intensity) ? "unbounded (no bytes move)"
                            : rc_format_sig3(f->est[0].intensity, a, sizeof a);
    if (compute.n == 0 || memory.n == 0) {
        gpu_set *all = compute.n ? &compute : &memory;
        rc_buffer_printf(sb, "%s is %s bound on ", name, compute.n ? "compute" : "memory");
        put_set(sb, f, all);
        rc_buffer_printf(sb, ": its arithmetic intensity, %s%s, is ", intensity,
                         isinf(f->est[0].intensity) ? "" : " FLOP/byte");
        put_ridges(sb, f, all, compute.n ? "above" : tie ? "at or below" : "below");
        if (c->flops.total == 0) {
            rc_buffer_printf(sb, ": it does no FLOPs, so its body is the time to move its ");
            put_count(sb, c->bytes.total, "byte", "bytes");
        } else if (c->bytes.total > 0) {
            rc_buffer_printf(sb, compute.n ? ", so its " : ", so moving its ");
            if (compute.n) {
                put_count(sb, c->flops.total, "FLOP", "FLOPs");
                rc_buffer_printf(sb, " take longer than moving its ");
                put_count(sb, c->bytes.total, "byte", "bytes");
            } else {
                put_count(sb, c->bytes.total, "byte", "bytes");
                rc_buffer_printf(sb, tie ? " takes at least as long as its " : " takes longer than its ");
                put_count(sb, c->flops.total, "FLOP", "FLOPs");
            }
        }
        rc_buffer_printf(sb, ".");
    } else {
        rc_buffer_printf(sb, "%s is compute bound on ", name);
        put_names(sb, f, &compute);
        rc_buffer_printf(sb, " and memory bound on ");
        put_names(sb, f, &memory);
        rc_buffer_printf(sb, ": its arithmetic intensity, %s FLOP/byte, is ", intensity);
        put_ridges(sb, f, &compute, "above");
        rc_buffer_printf(sb, " and ");
        put_ridges(sb, f, &memory, tie ? "at or below" : "below");
        rc_buffer_printf(sb, ".");
    }
    set_free(&compute);
    set_free(&memory);
}

/* The launch latency's share on the GPUs `s`, e.g. "which makes up 5.01 %
 * to 9.30 % of t_total". */
static void put_share(rc_buffer *sb, const rc_interpret_facts *f, const gpu_set *s)
{
    rc_buffer_printf(sb, "which makes up ");
    put_range(sb, range_over(f, s, launch_percent), rc_format_sig3, " %");
    rc_buffer_printf(sb, " of t_total");
}

/* The body's time and the launch latency over the GPUs `s`, each a range
 * in µs, between the words given: "<before_body>0.1 to 2 µs<before_launch>
 * 5 µs<after>". */
static void put_times(rc_buffer *sb, const rc_interpret_facts *f, const gpu_set *s,
                      const char *before_body, const char *before_launch, const char *after)
{
    rc_buffer_printf(sb, "%s", before_body);
    put_range(sb, range_over(f, s, t_body), as_us, " µs");
    rc_buffer_printf(sb, "%s", before_launch);
    put_range(sb, range_over(f, s, t_launch), as_us, " µs");
    rc_buffer_printf(sb, "%s", after);
}

/* The GPUs `s`, the second group of a sentence that named the others: by name up to three,
 * else "the other 9 GPUs". */
static void put_others(rc_buffer *sb, const rc_interpret_facts *f, const gpu_set *s)
{
    if (s->n <= 3)
        put_names(sb, f, s);
    else
        rc_buffer_printf(sb, "the other %zu GPUs", s->n);
}

/* Whether the launch latency or the body is the larger part of t_total,
 * each range over the GPUs named beside it. */
static void say_launch(rc_buffer *sb, const rc_interpret_facts *f)
{
    if (no_work(f))
        return; /* say_bound said it: the time is the launch latency */
    gpu_set launch = set_of(f, is_launch_dominated), body = set_of(f, is_body_dominated);
    if (body.n == 0) {
        rc_buffer_printf(sb, "Launch latency dominates on ");
        put_set(sb, f, &launch);
        put_times(sb, f, &launch, ": the body takes ", ", less than the launch latency of ",
                  ", ");
        put_share(sb, f, &launch);
        rc_buffer_printf(sb, ".");
    } else if (launch.n == 0) {
        rc_buffer_printf(sb, "The body outweighs the launch latency on ");
        put_set(sb, f, &body);
        put_times(sb, f, &body, ": it takes ", " against ", " of launch latency, ");
        put_share(sb, f, &body);
        rc_buffer_printf(sb, ".");
    } else if (body.n < launch.n) {
        /* the smaller group named first; the larger, past three, counted */
        rc_buffer_printf(sb, "On ");
        put_names(sb, f, &body);
        put_times(sb, f, &body, " the body, ", ", takes longer than the launch latency (", ")");
        rc_buffer_printf(sb, "; launch latency dominates on ");
        put_others(sb, f, &launch);
        put_times(sb, f, &launch, ", where the body takes ", " against ", ".");
    } else {
        rc_buffer_printf(sb, "Launch latency dominates on ");
        put_names(sb, f, &launch);
        put_times(sb, f, &launch, ", where the body takes ", " against ",
                  " of launch latency; on ");
        put_others(sb, f, &body);
        put_times(sb, f, &body, " the body, ", ", takes longer than the launch latency (", ").");
    }
    set_free(&launch);
    set_free(&body);
}

static bool gives_sync_launch(const rc_interpret_facts *f, size_t i)
{
    const rc_gpu_figure *s = &f->gpus[i]->rates.launch_sync;
    return s->source && s->origin != RC_ORIGIN_ASSUMED;
}

static bool has_back_to_back(const rc_interpret_facts *f, size_t i)
{
    return f->gpus[i]->rates.launch_back_to_back.source != NULL;
}

/* A back-to-back launch cost the GPU file does not give. */
static bool back_to_back_assumed(const rc_interpret_facts *f, size_t i)
{
    return has_back_to_back(f, i) &&
           f->gpus[i]->rates.launch_back_to_back.origin == RC_ORIGIN_ASSUMED;
}

static double back_to_back(const rc_interpret_facts *f, size_t i)
{
    return f->gpus[i]->rates.launch_back_to_back.value;
}

/* Which GPUs' launch latency (the peak roofline's t_launch, a GPU file's <launch-latency>) is
 * roofcast's assumption, what it stands for, the launch figures the GPU files do give (the
 * refined estimate's, which the peak roofline does not use), and what a launch queued back
 * to back costs on these GPUs. */
static void say_assumed_latency(rc_buffer *sb, const rc_interpret_facts *f)
{
    gpu_set assumed = set_of(f, has_assumed_latency);
    if (assumed.n > 0) {
        range r = range_over(f, &assumed, t_launch);
        char lo[64], hi[64];
        bool one_value = strcmp(as_us(r.lo, lo, sizeof lo), as_us(r.hi, hi, sizeof hi)) == 0;
        rc_buffer_printf(sb, one_value ? "The launch latency of " : "The launch latencies of ");
        put_range(sb, r, as_us, " µs");
        rc_buffer_printf(sb, one_value ? " is assumed" : " are assumed");
        if (assumed.total == 1)
            rc_buffer_printf(sb, " (the GPU file gives the peak roofline none)");
        else if (assumed.n == assumed.total)
            rc_buffer_printf(sb, " on every GPU (no GPU file gives the peak roofline one)");
        else {
            rc_buffer_printf(sb, " on ");
            put_names(sb, f, &assumed);
            rc_buffer_printf(sb, assumed.n == 1 ? " (its file gives the peak roofline none)"
                                                : " (their files give the peak roofline none)");
        }
        rc_buffer_printf(sb, ": it stands for a launch followed by a synchronisation, as in the "
                             "reference reports");
        gpu_set sync = set_of(f, gives_sync_launch);
        size_t seen = 0;
        for (size_t i = 0; i < f->ngpus && sync.in; i++) {
            if (!sync.in[i] || !assumed.in || !assumed.in[i])
                continue;
            const rc_gpu_figure *g = &f->gpus[i]->rates.launch_sync;
            char v[64];
            rc_buffer_printf(sb, "%s the %s's file gives a %s %s µs for that, ",
                             seen++ == 0 ? ";" : ", and", f->gpus[i]->name,
                             rc_origin_name(g->origin), as_us(g->value, v, sizeof v));
            rc_buffer_printf(sb, "unused here");
        }
        set_free(&sync);
        gpu_set b2b = set_of(f, has_back_to_back);
        if (b2b.n > 0) {
            /* Which of these figures the GPU files do not give: said, as every assumed
             * figure is ("(assumed)" when all are, "(assumed on the Delta)" when one is,
             * "(assumed on 7)" when more are). */
            gpu_set guessed = set_of(f, back_to_back_assumed);
            rc_buffer_printf(sb, ". Queued back to back, a launch costs ");
            range q = range_over(f, &b2b, back_to_back);
            put_range(sb, q, as_us, " µs");
            if (b2b.n == b2b.total && b2b.total > 1 && guessed.n == 0)
                rc_buffer_printf(sb, " on these GPUs");
            else if (b2b.n < b2b.total) {
                rc_buffer_printf(sb, " on ");
                put_names(sb, f, &b2b);
            }
            if (guessed.n == b2b.n)
                rc_buffer_printf(sb, " (assumed)");
            else if (guessed.n == 1) {
                rc_buffer_printf(sb, " (assumed on the ");
                put_names(sb, f, &guessed);
                rc_buffer_printf(sb, ")");
            } else if (guessed.n > 0)
                rc_buffer_printf(sb, " (assumed on %zu)", guessed.n);
            set_free(&guessed);
        }
        set_free(&b2b);
        rc_buffer_printf(sb, ".");
    }
    set_free(&assumed);
}

/* The index of the GPU with the smallest (sign -1: largest) figure. */
static size_t extreme(const rc_interpret_facts *f, gpu_figure figure, int sign)
{
    size_t best = 0;
    for (size_t i = 1; i < f->ngpus; i++)
        if (sign * figure(f, i) > sign * figure(f, best))
            best = i;
    return best;
}

static double peak_fp32(const rc_interpret_facts *f, size_t i) { return f->gpus[i]->peak_fp32; }
static double bandwidth(const rc_interpret_facts *f, size_t i) { return f->gpus[i]->bandwidth; }

/* Why the times spread as they do: bodies bound by one resource follow
 * that resource, not the other; a latency every GPU pays alike narrows the
 * totals' spread. Each clause only where it holds. */
static void put_spread_reason(rc_buffer *sb, const rc_interpret_facts *f)
{
    gpu_set all = set_of(f, any_gpu), launch = set_of(f, is_launch_dominated);
    range lat = range_over(f, &all, t_launch), body = range_over(f, &all, t_body);
    if (launch.n == all.n && lat.lo == lat.hi && lat.lo > 0 && body.lo > 0 && body.hi > body.lo) {
        char a[64], d[64];
        rc_buffer_printf(sb, "; the bodies alone differ %s times, but every GPU adds the same "
                             "%s µs of launch latency",
                         rc_format_sig3(body.hi / body.lo, a, sizeof a),
                         as_us(lat.lo, d, sizeof d));
    }
    rc_buffer_printf(sb, ".");
    gpu_set compute = set_of(f, is_compute_bound);
    /* Which roof a body is under says how the times follow the GPUs only where the body, not
     * the launch latency, makes up most of them. */
    bool bodies = launch.n == 0;
    bool memory_bound = bodies && compute.n == 0 && f->model->bytes.total > 0;
    bool compute_bound = bodies && compute.n == all.n && f->model->flops.total > 0;
    size_t top_peak = extreme(f, peak_fp32, 1), top_bw = extreme(f, bandwidth, 1);
    char a[64], b[64], d[64];
    if (memory_bound && top_peak != top_bw && bandwidth(f, top_bw) > bandwidth(f, top_peak))
        rc_buffer_printf(sb, " Being memory bound, it follows bandwidth rather than FP32 peak: the "
                             "%s has the highest peak (%s) but %s of bandwidth, against %s on the %s.",
                         f->gpus[top_peak]->name,
                         rc_format_si(peak_fp32(f, top_peak), "FLOP/s", a, sizeof a),
                         rc_format_si(bandwidth(f, top_peak), "B/s", b, sizeof b),
                         rc_format_si(bandwidth(f, top_bw), "B/s", d, sizeof d),
                         f->gpus[top_bw]->name);
    else if (compute_bound && top_peak != top_bw && peak_fp32(f, top_peak) > peak_fp32(f, top_bw))
        rc_buffer_printf(sb, " Being compute bound, it follows FP32 peak rather than bandwidth: "
                             "the %s has the highest bandwidth (%s) but %s of FP32 peak, against "
                             "%s on the %s.",
                         f->gpus[top_bw]->name, rc_format_si(bandwidth(f, top_bw), "B/s", a, sizeof a),
                         rc_format_si(peak_fp32(f, top_bw), "FLOP/s", b, sizeof b),
                         rc_format_si(peak_fp32(f, top_peak), "FLOP/s", d, sizeof d),
                         f->gpus[top_peak]->name);
    set_free(&compute);
    set_free(&launch);
    set_free(&all);
}

/* " (no meaningful difference from the B and C, within 10 %)": the GPUs other than the
 * fastest whose t_total is within RC_NO_DIFFERENCE of its. */
static void near_fastest(rc_buffer *sb, const rc_interpret_facts *f, size_t fastest)
{
    gpu_set near = {calloc(f->ngpus ? f->ngpus : 1, sizeof(bool)), 0, f->ngpus};
    for (size_t i = 0; near.in && i < f->ngpus; i++)
        if (i != fastest && t_total(f, i) <= t_total(f, fastest) * (1 + RC_NO_DIFFERENCE)) {
            near.in[i] = true;
            near.n++;
        }
    if (near.n > 0) {
        rc_buffer_printf(sb, " (no meaningful difference from the ");
        put_names(sb, f, &near);
        rc_buffer_printf(sb, ", within %d %%)", (int)(100 * RC_NO_DIFFERENCE + 0.5));
    }
    set_free(&near);
}

/* Which GPU is fastest and which slowest, and by how much; differences under
 * RC_NO_DIFFERENCE are not a ranking (glance.h). */
static void say_ranking(rc_buffer *sb, const rc_interpret_facts *f)
{
    if (f->ngpus < 2)
        return;
    size_t fastest = extreme(f, t_total, -1), slowest = extreme(f, t_total, 1);
    char a[64], b[64], d[64];
    double ratio = t_total(f, slowest) / t_total(f, fastest);
    char all_n[64];
    if (f->ngpus == 2)
        snprintf(all_n, sizeof all_n, "Both GPUs");
    else
        snprintf(all_n, sizeof all_n, "All %zu GPUs", f->ngpus);
    if (t_total(f, slowest) == t_total(f, fastest)) {
        rc_buffer_printf(sb, "%s take the same time, %s µs.", all_n,
                         as_us(t_total(f, fastest), a, sizeof a));
        return;
    }
    as_us(t_total(f, fastest), a, sizeof a);
    as_us(t_total(f, slowest), b, sizeof b);
    if (ratio < 1 + RC_NO_DIFFERENCE && strcmp(a, b) == 0) {
        rc_buffer_printf(sb, "There is no meaningful difference between %s: t_total is %s µs on "
                             "%s to three figures", f->ngpus == 2 ? "the two GPUs" : "them",
                         a, f->ngpus == 2 ? "both" : "all of them");
        put_spread_reason(sb, f);
        return;
    }
    if (ratio < 1 + RC_NO_DIFFERENCE) {
        char n[64];
        if (f->ngpus == 2)
            snprintf(n, sizeof n, "the two GPUs");
        else
            snprintf(n, sizeof n, "the %zu GPUs", f->ngpus);
        rc_buffer_printf(sb, "There is no meaningful difference between %s: t_total is %s µs on "
                             "the %s and %s µs on the %s, %s %% longer, within %d %%",
                         n, a, f->gpus[fastest]->name,
                         b, f->gpus[slowest]->name,
                         rc_format_sig3(100 * (ratio - 1), d, sizeof d),
                         (int)(100 * RC_NO_DIFFERENCE + 0.5));
        put_spread_reason(sb, f);
        return;
    }
    if (strcmp(a, b) == 0)
        rc_buffer_printf(sb, "%s take %s µs to three figures: the %s is fastest and the %s "
                             "slowest, ", all_n, a, f->gpus[fastest]->name, f->gpus[slowest]->name);
    else {
        rc_buffer_printf(sb, "The %s is fastest at %s µs", f->gpus[fastest]->name, a);
        near_fastest(sb, f, fastest);
        rc_buffer_printf(sb, " and the %s slowest at %s µs, ", f->gpus[slowest]->name, b);
    }
    if (ratio < 1.1)
        rc_buffer_printf(sb, "%s %% longer", rc_format_sig3(100 * (ratio - 1), d, sizeof d));
    else
        rc_buffer_printf(sb, "%s times as long", rc_format_sig3(ratio, d, sizeof d));
    put_spread_reason(sb, f);
}

/* How many of the launched threads, and blocks, do counted work. */
static void say_threads(rc_buffer *sb, const rc_interpret_facts *f)
{
    const rc_counts *c = f->model;
    char a[64], b[64], d[64];
    int64_t launched = c->threads_launched, active = c->threads_active;
    if (active == launched)
        rc_buffer_printf(sb, launched == 1   ? "The one launched thread does counted work."
                             : launched == 2 ? "Both launched threads do counted work."
                                             : "All %s launched threads do counted work.",
                         rc_format_int(launched, a, sizeof a));
    else if (active == 0)
        rc_buffer_printf(sb, launched == 2 ? "Neither launched thread does counted work."
                                           : "None of the %s launched threads does counted work.",
                         rc_format_int(launched, a, sizeof a));
    else {
        rc_buffer_printf(sb, "Only %s of the %s launched threads (%s %%) %s counted work",
                         rc_format_int(active, a, sizeof a), rc_format_int(launched, b, sizeof b),
                         rc_format_sig3(100.0 * (double)active / (double)launched, d, sizeof d),
                         active == 1 ? "does" : "do");
        if (c->blocks_active < c->blocks_launched)
            rc_buffer_printf(sb, ", in %s of the %s blocks",
                             rc_format_int(c->blocks_active, a, sizeof a),
                             rc_format_int(c->blocks_launched, b, sizeof b));
        else if (c->blocks_launched > 1)
            rc_buffer_printf(sb, ", spread over all %s blocks",
                             rc_format_int(c->blocks_launched, a, sizeof a));
        rc_buffer_printf(sb, ".");
    }
}

/* "800 threads would work instead of 160, for 34,560,000 FLOPs instead of
 * 6,912,000 and ...": a clause per count that differs. */
static void put_launch_differences(rc_buffer *sb, const rc_counts *model, const rc_counts *launch)
{
    char was[64];
    const char *sep = "";
    if (launch->threads_active != model->threads_active) {
        put_count(sb, launch->threads_active, "thread", "threads");
        rc_buffer_printf(sb, " would work instead of %s",
                         rc_format_int(model->threads_active, was, sizeof was));
        sep = ", for ";
    }
    if (launch->flops.total != model->flops.total) {
        rc_buffer_printf(sb, "%s", *sep ? sep : "it would do ");
        put_count(sb, launch->flops.total, "FLOP", "FLOPs");
        rc_buffer_printf(sb, " instead of %s", rc_format_int(model->flops.total, was, sizeof was));
        sep = " and ";
    }
    if (launch->bytes.total != model->bytes.total) {
        rc_buffer_printf(sb, "%s", *sep ? sep : "it would move ");
        put_count(sb, launch->bytes.total, "byte", "bytes");
        rc_buffer_printf(sb, " instead of %s", rc_format_int(model->bytes.total, was, sizeof was));
    }
}

/* What the model's assumptions change: the launch as written counted
 * beside the model. */
static void say_assumptions(rc_buffer *sb, const rc_interpret_facts *f)
{
    const rc_counts *c = f->model, *l = f->launch;
    if (!l)
        return;
    if (l->flops.total == c->flops.total && l->bytes.total == c->bytes.total &&
        l->threads_active == c->threads_active) {
        rc_buffer_printf(sb, "The model's assumptions agree with the launch: counted as launched, "
                             "the work is the same.");
        return;
    }
    rc_buffer_printf(sb, "The model's assumptions and the launch disagree: as launched, ");
    put_launch_differences(sb, c, l);
    gpu_set all = set_of(f, any_gpu);
    range launched = range_over(f, &all, launch_t_total), modelled = range_over(f, &all, t_total);
    set_free(&all);
    char lo[64], hi[64];
    if (strcmp(as_us(launched.lo, lo, sizeof lo), as_us(modelled.lo, hi, sizeof hi)) == 0 &&
        strcmp(as_us(launched.hi, lo, sizeof lo), as_us(modelled.hi, hi, sizeof hi)) == 0) {
        rc_buffer_printf(sb, ", which leaves t_total as shown.");
        return;
    }
    rc_buffer_printf(sb, ", and t_total would be ");
    put_range(sb, launched, as_us, " µs");
    rc_buffer_printf(sb, " instead of ");
    put_range(sb, modelled, as_us, " µs");
    rc_buffer_printf(sb, ".");
}

/* ---- the interpretation ------------------------------------------------- */

/* The statements in reading order. */
static const struct {
    const char *kind;
    void (*say)(rc_buffer *sb, const rc_interpret_facts *f);
} statements[] = {
    {"bound", say_bound},     {"launch", say_launch},   {"assumed", say_assumed_latency},
    {"compare", say_ranking}, {"threads", say_threads}, {"assumptions", say_assumptions},
};

xmlNodePtr rc_interpret(xmlNodePtr kernel, const rc_interpret_facts *f)
{
    xmlNodePtr in = xmlNewChild(kernel, NULL, X("interpretation"), NULL);
    if (!in || f->ngpus == 0)
        return in;
    for (size_t s = 0; s < sizeof statements / sizeof statements[0]; s++) {
        rc_buffer sb = {0};
        statements[s].say(&sb, f);
        char *text = rc_buffer_take(&sb, NULL);
        if (text && *text) {
            xmlNodePtr p = add_text_child(in, "p", text);
            add_prop(p, "kind", statements[s].kind);
        }
        free(text);
    }
    return in;
}
