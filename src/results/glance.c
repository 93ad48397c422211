/* glance.c: "At a glance", the rows and the verdict. See glance.h. */
#include "results/glance.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/format.h"
#include "results/tree.h"
#include "util/buffer.h"

void rc_glance_fastest(const double *t, size_t n, bool *fastest)
{
    double lo = INFINITY;
    for (size_t i = 0; i < n; i++)
        lo = fmin(lo, t[i]);
    for (size_t i = 0; i < n; i++)
        fastest[i] = n > 1 && t[i] <= lo * (1 + RC_NO_DIFFERENCE);
}

/* ---- what limits an estimate ------------------------------------------- */

/* The latency limiter is the longest thread when its own time is the body's. */
static bool thread_bound(const rc_refined *r)
{
    return r->limiter == RC_LIMIT_LATENCY && r->t_thread >= r->t_body_est;
}

char *rc_chain_link_words(const rc_chain_time *ch, char *buf, size_t size)
{
    char a[64], b[64];
    const char *assumed = ch->link_assumed ? ", assumed" : "";
    if (ch->loads)
        snprintf(buf, size, "each at least one L1 hit (%s cycles%s)",
                 rc_format_sig3(ch->link_cycles, a, sizeof a), assumed);
    else if (ch->instructions <= 1)
        snprintf(buf, size, "each one dependent FMA instruction (%s cycles%s)",
                 rc_format_sig3(ch->arith_cycles, a, sizeof a), assumed);
    else
        snprintf(buf, size, "each %s dependent FMA instructions of %s cycles%s",
                 rc_format_sig3(ch->instructions, a, sizeof a),
                 rc_format_sig3(ch->arith_cycles, b, sizeof b), assumed);
    return buf;
}

char *rc_thread_issue_words(const rc_refined *r, char *buf, size_t size)
{
    char a[64], b[64];
    bool fused = r->thread_instructions_max * 2 == r->thread_flops_max;
    double cpi = r->thread_cycles_per_instruction;
    char cadence[96];
    if (cpi == 1)
        snprintf(cadence, sizeof cadence, "issued one a cycle");
    else
        snprintf(cadence, sizeof cadence, "issued one every %s cycles",
                 rc_format_sig3(cpi, b, sizeof b));
    if (fused)
        snprintf(buf, size, "as FMA instructions %s", cadence);
    else
        snprintf(buf, size, "as %s instructions (an FMA for two FLOPs, an unfused add or "
                 "multiply for one) %s", rc_format_sig3(r->thread_instructions_max, a, sizeof a),
                 cadence);
    return buf;
}

/* Atomics on few L2 lines, or shared memory's wavefronts, set the estimate: terms of their own
 * beside the levels' bytes (refine.h). */
static bool atomics_bound(const rc_refined *r)
{
    return r->limiter == RC_LIMIT_L2 && r->atomics.time > r->l2.time;
}

static bool shared_bound(const rc_refined *r)
{
    return r->limiter == RC_LIMIT_L1 && r->shared.time > r->l1.time;
}

/* What takes the turns: the array's plain stores share its lines' queue (atomics.h). */
static const char *atomics_what(const rc_atomic_time *t)
{
    return t->with_stores ? "atomics and stores" : "atomics";
}

/* "1 L2 line", "8 L2 lines". */
static char *lines_words(const rc_atomic_time *t, char *buf, size_t size)
{
    char n[64];
    snprintf(buf, size, "%s L2 line%s", rc_format_int((int64_t)t->lines, n, sizeof n),
             t->lines == 1 ? "" : "s");
    return buf;
}

/* The memory level whose term is the longest: the one latency and occupancy hold back. */
static const rc_level_time *slowest_level(const rc_refined *r, const char **name)
{
    const rc_level_time *l = &r->dram;
    *name = "DRAM";
    if (r->l2.time > l->time) {
        l = &r->l2;
        *name = "L2";
    }
    if (r->l1.time > l->time) {
        l = &r->l1;
        *name = "L1/shared";
    }
    return l;
}

/* At L1, the level's bytes are its turns rather than bytes moved: a request counts the lines,
 * sectors or bank conflicts it holds L1 for (refine.c l1_wavefront_bytes), so they differ from
 * "Memory traffic by level". The sentences say so: "take L1/shared as long as 11,300,000 bytes
 * at 181 GB/s", not "move". */
static void l1_turn_words(rc_buffer *sb, const rc_level_time *l, const char *lv,
                          const char *assumed)
{
    char a[64], b[64];
    rc_buffer_printf(sb, "take %s as long as %s bytes at %s%s", lv,
                     rc_format_sig3(l->bytes, a, sizeof a),
                     rc_format_si3(l->rate, "B/s", b, sizeof b), assumed);
}

static const char *precision_words(rc_limiter l)
{
    return l == RC_LIMIT_FP16 ? "FP16" : l == RC_LIMIT_FP64 ? "FP64" : "FP32";
}

/* Each pipe as the verdict and the explanation name it (rc_glance_pipe_words). ORDER RC_PIPE */
static const char *const pipe_kinds[] = {"the conversion pipe", "the 64-bit conversion pipe",
                                         "the special function units", "the integer pipe"};

const char *rc_glance_pipe_words(rc_pipe p)
{
    return pipe_kinds[p];
}

/* The limiting pipe as the sentences name it: a term that includes another's work on the same
 * unit (refine.c pipes_time) is that unit's: the FP64 unit (64-bit conversions and FP64
 * FLOPs) or, from Volta on, the XU (special functions and conversions). */
static const char *pipe_kind(const rc_refined *r)
{
    if (r->pipe_limit == RC_PIPE_CONVERSION64 && r->pipes[r->pipe_limit].fp64_time > 0)
        return "the FP64 unit";
    if (r->pipes[r->pipe_limit].xu_time > 0)
        return "the XU (special functions and conversions)";
    return pipe_kinds[r->pipe_limit];
}

/* The limiter's kind, a few words that group GPUs: "the launch cost", "DRAM bandwidth". */
static const char *limiter_kind(const rc_refined *r)
{
    switch (r->limiter) {
    case RC_LIMIT_LAUNCH: return "the launch cost";
    case RC_LIMIT_BLOCKS: return "the rate at which blocks start";
    case RC_LIMIT_LATENCY: return rc_chain_bound(r) ? "the longest thread's dependent chain"
                                  : thread_bound(r) ? "the longest thread's latency"
                                                    : "memory latency";
    case RC_LIMIT_OCCUPANCY: return "occupancy";
    case RC_LIMIT_DRAM: return "DRAM bandwidth";
    case RC_LIMIT_L2: return atomics_bound(r) ? "atomics on few L2 lines" : "L2 bandwidth";
    case RC_LIMIT_L1: return "L1/shared bandwidth";
    case RC_LIMIT_PIPE: return pipe_kind(r);
    case RC_LIMIT_FP16: return "FP16 compute";
    case RC_LIMIT_FP64: return "FP64 compute";
    default: return "FP32 compute";
    }
}

char *rc_glance_limiter_words(const rc_refined *r, char *buf, size_t size)
{
    char a[64];
    rc_format_sig3(100 * r->occ.occupancy, a, sizeof a);
    switch (r->limiter) {
    case RC_LIMIT_LAUNCH:
        snprintf(buf, size, "the launch cost");
        break;
    case RC_LIMIT_BLOCKS:
        snprintf(buf, size, "the rate at which blocks start: %s blocks",
                 rc_format_int(r->blocks, a, sizeof a));
        break;
    case RC_LIMIT_LATENCY:
        if (rc_chain_bound(r))
            snprintf(buf, size, "latency: the longest thread's %s dependent iterations",
                     rc_format_sig3(r->chain.iterations, a, sizeof a));
        else if (thread_bound(r))
            snprintf(buf, size, "latency: the longest thread's %s FLOPs",
                     rc_format_sig3(r->thread_flops_max, a, sizeof a));
        else
            snprintf(buf, size, "memory latency: %s threads%s",
                     rc_format_sig3(r->working_threads, a, sizeof a),
                     r->waves > 1 && r->working_share < 1 ? " on average" : " at work");
        break;
    case RC_LIMIT_OCCUPANCY:
        snprintf(buf, size, "occupancy: %s %%", a);
        break;
    case RC_LIMIT_L2:
        if (atomics_bound(r)) {
            snprintf(buf, size, "atomics on %s", lines_words(&r->atomics, a, sizeof a));
            break;
        }
        /* fall through */
    default:
        snprintf(buf, size, "%s at %s %% occupancy", limiter_kind(r), a);
        break;
    }
    return buf;
}

/* ---- the facts, in the glance's order ---------------------------------- */

typedef struct {
    const rc_glance_facts *f;
    size_t *order;  /* GPU indices, fastest first */
    double *t;      /* the time the glance orders by, per GPU index */
    bool *fastest;  /* per GPU index */
    const char *t_name; /* "t_estimate" or "t_total" */
} glance;

static bool glance_init(glance *g, const rc_glance_facts *f)
{
    size_t n = f->ngpus ? f->ngpus : 1;
    *g = (glance){f, calloc(n, sizeof(size_t)), calloc(n, sizeof(double)),
                  calloc(n, sizeof(bool)), f->refined ? "t_estimate" : "t_total"};
    if (!g->order || !g->t || !g->fastest)
        return false;
    for (size_t i = 0; i < f->ngpus; i++) {
        g->order[i] = i;
        g->t[i] = f->refined ? f->refined[i].t_estimate : f->est[i].t_total;
    }
    /* Insertion sort, stable: the reports' order among equal times. (The GPUs are few, and
     * qsort has no context argument that would keep this free of shared state across the
     * threads that build kernels' results.) */
    for (size_t k = 1; k < f->ngpus; k++)
        for (size_t m = k; m > 0 && g->t[g->order[m]] < g->t[g->order[m - 1]]; m--) {
            size_t tmp = g->order[m];
            g->order[m] = g->order[m - 1];
            g->order[m - 1] = tmp;
        }
    rc_glance_fastest(g->t, f->ngpus, g->fastest);
    return true;
}

static void glance_free(glance *g)
{
    free(g->order);
    free(g->t);
    free(g->fastest);
}

static const char *name_of(const glance *g, size_t i) { return g->f->gpus[i]->name; }

static char *us(double seconds, char *buf, size_t size) { return rc_format_us(seconds, buf, size); }

/* "A", "A and B", "A, B and C": the GPUs with in[i], in the glance's order. */
static void put_names(rc_buffer *sb, const glance *g, const bool *in)
{
    size_t n = 0, seen = 0;
    for (size_t k = 0; k < g->f->ngpus; k++)
        n += in[g->order[k]];
    for (size_t k = 0; k < g->f->ngpus; k++) {
        size_t i = g->order[k];
        if (!in[i])
            continue;
        seen++;
        rc_buffer_printf(sb, "%s%s", seen == 1 ? "" : seen == n ? " and " : ", ", name_of(g, i));
    }
}

/* ---- the verdict ------------------------------------------------------- */

/* The range, and which GPUs show no meaningful difference from the fastest. */
static void say_range(rc_buffer *sb, const glance *g)
{
    const rc_glance_facts *f = g->f;
    char a[64], b[64], c[64];
    size_t first = g->order[0], last = g->order[f->ngpus - 1];
    if (f->ngpus == 1) {
        rc_buffer_printf(sb, "%s is %s µs on the %s.", g->t_name, us(g->t[first], a, sizeof a),
                         name_of(g, first));
        return;
    }
    size_t nfast = 0, last_fast = first;
    for (size_t k = 0; k < f->ngpus; k++)
        if (g->fastest[g->order[k]]) {
            nfast++;
            last_fast = g->order[k];
        }
    us(g->t[first], a, sizeof a);
    us(g->t[last], b, sizeof b);
    if (nfast == f->ngpus) {
        rc_buffer_printf(sb, "No meaningful difference between the %s GPUs: %s is %s%s%s µs on "
                         "all of them, within %d %% of the fastest.",
                         rc_format_int((int64_t)f->ngpus, c, sizeof c), g->t_name, a,
                         strcmp(a, b) ? " to " : "", strcmp(a, b) ? b : "",
                         (int)(100 * RC_NO_DIFFERENCE + 0.5));
        return;
    }
    double ratio = g->t[last] / g->t[first];
    rc_buffer_printf(sb, "%s ranges from %s µs on the %s to %s µs on the %s, %s times as long.",
                     g->t_name, a, name_of(g, first), b, name_of(g, last),
                     rc_format_sig3(ratio, c, sizeof c));
    if (nfast > 1) {
        rc_buffer_printf(sb, " No meaningful difference between the ");
        put_names(sb, g, g->fastest);
        rc_buffer_printf(sb, " (%s to %s µs, within %d %% of the fastest).", a, us(g->t[last_fast], b, sizeof b),
                         (int)(100 * RC_NO_DIFFERENCE + 0.5));
    }
}

/* What limits it, GPUs grouped by the kind of limiter, the largest group first. */
static void say_limit(rc_buffer *sb, const glance *g)
{
    const rc_glance_facts *f = g->f;
    if (!f->refined)
        return;
    size_t n = f->ngpus;
    bool *done = calloc(n, sizeof(bool)), *in = calloc(n, sizeof(bool));
    if (!done || !in) {
        free(done);
        free(in);
        return;
    }
    rc_buffer_printf(sb, "It is limited by ");
    for (size_t groups = 0;; groups++) {
        /* the largest group of GPUs not yet named, by the first of them in the order */
        const char *kind = NULL;
        size_t best = 0;
        for (size_t k = 0; k < n; k++) {
            size_t i = g->order[k], count = 0;
            if (done[i])
                continue;
            const char *ki = limiter_kind(&f->refined[i]);
            for (size_t m = 0; m < n; m++)
                count += !done[m] && strcmp(limiter_kind(&f->refined[m]), ki) == 0;
            if (count > best) {
                best = count;
                kind = ki;
            }
        }
        if (!kind)
            break;
        size_t left = 0;
        for (size_t i = 0; i < n; i++) {
            in[i] = !done[i] && strcmp(limiter_kind(&f->refined[i]), kind) == 0;
            done[i] |= in[i];
            left += !done[i];
        }
        char c[64];
        rc_buffer_printf(sb, "%s%s on ", groups == 0 ? "" : left == 0 ? " and by " : ", by ",
                         kind);
        if (best == n)
            rc_buffer_printf(sb, n == 1 ? "the %s" : n == 2 ? "both GPUs" : "all %s GPUs",
                             n == 1 ? name_of(g, 0) : rc_format_int((int64_t)n, c, sizeof c));
        else if (best <= 3) {
            rc_buffer_printf(sb, "the ");
            put_names(sb, g, in);
        } else
            rc_buffer_printf(sb, "%s GPUs", rc_format_int((int64_t)best, c, sizeof c));
    }
    rc_buffer_printf(sb, ".");
    free(done);
    free(in);
}

/* Whether the GPU file's figure behind level `l` of `r` (its sustained rate, or its latency
 * when `latency`) is assumed: the sentences that rest on it say so, as every output marks an
 * assumed figure. */
static bool level_assumed(const rc_refined *r, const rc_level_time *l, const rc_gpu *gpu,
                          bool latency)
{
    const rc_gpu_rates *m = &gpu->rates;
    const rc_gpu_figure *fig;
    if (latency && l->stores_only) /* its rounds took no latency (refine.c) */
        return false;
    if (l == &r->dram && latency)
        fig = &m->dram_latency;
    else if (l == &r->dram)
        fig = &m->dram_bandwidth;
    else if (l == &r->l2)
        fig = latency ? &m->l2_latency : &m->l2_bandwidth;
    else
        fig = latency ? &m->l1_latency : &m->l1_bandwidth;
    return fig->origin == RC_ORIGIN_ASSUMED;
}

/* What level `l`'s rounds wait on, as the sentences say it: the level's latency (lv: "DRAM"),
 * or, where the launch keeps only stores in flight, the threads' start and end (refine.c). */
static const char *rounds_wait(const rc_level_time *l, const char *lv, char *buf, size_t n)
{
    if (l->stores_only)
        return "threads' start and end";
    snprintf(buf, n, "%s latency", lv);
    return buf;
}

/* Whether the rate level `l` moves its bytes at rests on an assumed figure: its sustained rate,
 * its latency where Little's law sets the rate, at L1 the clocks a request holds it where that
 * rule was not measured on this generation, or at L2 the cost of lines stores write in part
 * where that figure was not. */
static bool rate_assumed(const rc_refined *r, const rc_level_time *l, const rc_gpu *gpu)
{
    const rc_level_bytes *lb = &r->level_bytes;
    return level_assumed(r, l, gpu, false) || (l->little_bound && level_assumed(r, l, gpu, true)) ||
           (l == &r->l1 && lb->l1_requests_assumed) ||
           (l == &r->l2 && lb->l2_part_lines > 0 && lb->part_line_assumed);
}

/* " (assumed)" after a level's rate where rate_assumed, else "". */
static const char *rate_mark(const rc_refined *r, const rc_level_time *l, const rc_gpu *gpu)
{
    return rate_assumed(r, l, gpu) ? " (assumed)" : "";
}

/* " (its request rate assumed)" where the shared-memory term is set by the clocks a request
 * holds the load/store units and that figure was not measured on this generation. */
static const char *shared_assumed(const rc_refined *r)
{
    return r->shared.requests_bound && r->shared.clocks_assumed ? " (its request rate assumed)"
                                                                 : "";
}

/* " (assumed)" after a launch cost that the GPU file does not give: queued back to back
 * (rc_gpu_rates.launch_back_to_back), or followed by a synchronisation (the peak roofline's). */
static const char *b2b_assumed(const rc_gpu *gpu)
{
    return gpu->rates.launch_back_to_back.origin == RC_ORIGIN_ASSUMED ? " (assumed)" : "";
}

static const char *sync_assumed(const rc_gpu *gpu)
{
    return gpu->launch_latency_origin == RC_ORIGIN_ASSUMED ? " (assumed)" : "";
}

bool rc_glance_share_shown(double share)
{
    return share >= 1.005;
}

/* " of sectors" after the bytes in flight where a request holds more of the level than it asks
 * for (rc_glance_share_shown): the units of that level's bytes, which the bytes in flight are
 * counted in. */
static const char *share_unit(const rc_refined *r, const rc_level_time *l)
{
    if (!rc_glance_share_shown(l->share))
        return "";
    if (l == &r->l1)
        return " of L1 clocks";
    if (l == &r->l2 && r->level_bytes.l2_part_lines > 0)
        return " of sectors and lines stored in part";
    return " of sectors";
}

/* Too few bytes in flight for the bandwidth (latency or occupancy): what would add some.
 * "(assumed)" follows the latency, "(assumed; Little's law)" the rate, "(both assumed; ...)"
 * the rate when both are. */
static void say_in_flight(rc_buffer *sb, const char *on, const rc_refined *r, const rc_gpu *gpu)
{
    char a[64], b[64], c[64], d[64], e[64];
    const char *lv;
    const rc_level_time *l = slowest_level(r, &lv);
    bool lat = level_assumed(r, l, gpu, true), rate = level_assumed(r, l, gpu, false);
    /* Over several waves that mix blocks with and without work, the count is an average. */
    bool average = r->waves > 1 && r->working_share < 1;
    rc_buffer_printf(sb, "On the %s, the %s threads at work%s keep %s%s in flight", on,
                     rc_format_sig3(r->working_threads, a, sizeof a),
                     average ? " (resident at once, on average)" : "",
                     rc_format_si3(l->in_flight, "B", b, sizeof b), share_unit(r, l));
    rc_buffer_printf(sb, ", which over the %s%s move %s of its sustained %s (%sLittle's law): "
                     "more threads at work at once (more blocks, or more working threads per "
                     "block) or more independent %s per thread would make it faster.",
                     rounds_wait(l, lv, e, sizeof e),
                     l->stores_only  ? " (no thread waits for its stores)"
                     : lat && !rate ? " (assumed)"
                                    : "",
                     rc_format_si3(l->little, "B/s", c, sizeof c),
                     rc_format_si3(l->sustained, "B/s", d, sizeof d),
                     lat && rate ? "both assumed; " : rate ? "assumed; " : "",
                     l->stores_only ? "stores" : "loads");
}

/* What would make the fastest GPU's estimate shorter, by what limits it there. */
static void say_change(rc_buffer *sb, const glance *g)
{
    const rc_glance_facts *f = g->f;
    if (!f->refined)
        return;
    size_t i = g->order[0];
    const rc_refined *r = &f->refined[i];
    char a[64], b[64];
    const char *on = name_of(g, i);
    switch (r->limiter) {
    case RC_LIMIT_LAUNCH:
        rc_buffer_printf(sb, "On the %s the body takes %s µs, less than the %s µs%s a launch "
                         "costs: fewer bytes or FLOPs would not make it faster; fewer launches, "
                         "each doing more work, would.", on, us(r->t_body_est, a, sizeof a),
                         us(r->t_launch, b, sizeof b), b2b_assumed(f->gpus[i]));
        return;
    case RC_LIMIT_BLOCKS: {
        char c[64];
        rc_buffer_printf(sb, "On the %s its %s blocks take %s µs at the %s blocks a clock the "
                         "GPU starts: fewer, larger blocks (or a loop over several elements a "
                         "thread) would make it faster; fewer bytes or FLOPs would not.", on,
                         rc_format_int(r->blocks, a, sizeof a),
                         us(r->t_blocks, b, sizeof b),
                         rc_format_sig3(r->blocks_per_clock, c, sizeof c));
        return;
    }
    case RC_LIMIT_LATENCY:
        if (rc_chain_bound(r)) {
            char c[160];
            rc_buffer_printf(sb, "On the %s the longest thread's %s dependent iterations, %s, "
                             "take %s µs: fewer dependent iterations a thread, or more chains "
                             "each shorter, would make it faster.", on,
                             rc_format_sig3(r->chain.iterations, a, sizeof a),
                             rc_chain_link_words(&r->chain, c, sizeof c),
                             us(r->chain.time, b, sizeof b));
            return;
        }
        if (thread_bound(r)) {
            rc_buffer_printf(sb, "On the %s the longest thread's %s FLOPs, one instruction after "
                             "another, take %s µs: spreading that work over more threads would "
                             "make it faster.", on, rc_format_sig3(r->thread_flops_max, a, sizeof a),
                             us(r->t_thread, b, sizeof b));
            return;
        }
        say_in_flight(sb, on, r, f->gpus[i]);
        return;
    case RC_LIMIT_OCCUPANCY:
        say_in_flight(sb, on, r, f->gpus[i]);
        return;
    case RC_LIMIT_L2:
        if (atomics_bound(r)) {
            rc_buffer_printf(sb, "On the %s its %s on '%s' take %s turns a line on %s, "
                             "one at a time: spreading the updates over more lines (or "
                             "combining them in shared memory first) would make it faster; "
                             "fewer FLOPs would not.", on, atomics_what(&r->atomics),
                             r->atomics.name,
                             rc_format_sig3(r->atomics.per_line, a, sizeof a),
                             lines_words(&r->atomics, b, sizeof b));
            return;
        }
        /* fall through */
    case RC_LIMIT_L1:
        if (shared_bound(r)) {
            rc_buffer_printf(sb, "On the %s its %s shared-memory wavefronts (bank conflicts "
                             "counted) take %s µs%s: fewer conflicts or fewer shared-memory "
                             "accesses would make it faster; fewer FLOPs would not.", on,
                             rc_format_sig3(r->shared.wavefronts, a, sizeof a),
                             us(r->shared.time, b, sizeof b), shared_assumed(r));
            return;
        }
        /* fall through */
    case RC_LIMIT_DRAM: {
        const char *lv;
        const rc_level_time *l = slowest_level(r, &lv);
        if (l == &r->l1) {
            rc_buffer_printf(sb, "On the %s its requests ", on);
            l1_turn_words(sb, l, lv, rate_mark(r, l, f->gpus[i]));
            rc_buffer_printf(sb, ": fewer requests, lines or bank conflicts would make it "
                             "faster; fewer FLOPs would not.");
            return;
        }
        rc_buffer_printf(sb, "On the %s it moves %s bytes at %s at %s%s: fewer bytes "
                         "(coalesced accesses, data reused from shared memory) would make it "
                         "faster; fewer FLOPs would not.", on, rc_format_sig3(l->bytes, a, sizeof a),
                         lv, rc_format_si3(l->rate, "B/s", b, sizeof b),
                         rate_mark(r, l, f->gpus[i]));
        return;
    }
    case RC_LIMIT_PIPE: {
        const rc_pipe_time *t = &r->pipes[r->pipe_limit];
        /* Guards help only where some lanes of a warp that issues them idle. */
        bool idle_lanes = t->instructions < 32.0 * t->warp_instructions;
        if (t->fp64_time > 0) {
            char c[64];
            rc_buffer_printf(sb, "On the %s its %s warp instructions of 64-bit conversions "
                             "(%s µs) and its FP64 FLOPs (%s µs) take the FP64 unit one after "
                             "the other (assumed): fewer of either would make it faster; fewer bytes "
                             "would not.", on, rc_format_sig3(t->warp_instructions, a, sizeof a),
                             us(t->time - t->fp64_time, b, sizeof b),
                             us(t->fp64_time, c, sizeof c));
            return;
        }
        if (t->xu_time > 0) {
            /* The other XU pipe's term is in this one's (refine.c). */
            rc_pipe o = rc_xu_other((rc_pipe)r->pipe_limit);
            char c[64], d[64];
            rc_buffer_printf(sb, "On the %s its %s warp instructions on %s (%s µs%s) and %s on "
                             "%s (%s µs%s) take the XU one after the other: fewer of either "
                             "would make it faster; fewer bytes would not.", on,
                             rc_format_sig3(t->warp_instructions, a, sizeof a),
                             pipe_kinds[r->pipe_limit], us(t->time - t->xu_time, b, sizeof b),
                             t->assumed ? "; rate assumed" : "",
                             rc_format_sig3(r->pipes[o].warp_instructions, c, sizeof c),
                             pipe_kinds[o], us(t->xu_time, d, sizeof d),
                             r->pipes[o].assumed ? "; rate assumed" : "");
            return;
        }
        rc_buffer_printf(sb, "On the %s its %s warp instructions on %s take %s µs%s: fewer of "
                         "them%s would make it faster; fewer bytes would not.", on,
                         rc_format_sig3(t->warp_instructions, a, sizeof a),
                         pipe_kinds[r->pipe_limit], us(t->time, b, sizeof b),
                         t->assumed ? " (its rate assumed)" : "",
                         idle_lanes ? ", or guards that keep a warp's lanes together," : "");
        return;
    }
    default:
        rc_buffer_printf(sb, "On the %s its %s FLOPs run at %s: fewer FLOPs would make it faster; "
                         "fewer bytes would not.", on,
                         rc_format_sig3(f->model->flops.total, a, sizeof a),
                         precision_words(r->limiter));
        return;
    }
}

/* Whether the launch cost, not the body, decides which GPU is fastest. */
static void say_launch_decides(rc_buffer *sb, const glance *g)
{
    const rc_glance_facts *f = g->f;
    size_t n = f->ngpus;
    if (!f->refined || n < 2)
        return;
    double *body = calloc(n, sizeof(double));
    bool *by_body = calloc(n, sizeof(bool));
    if (body && by_body) {
        for (size_t i = 0; i < n; i++)
            body[i] = f->refined[i].t_body_est;
        rc_glance_fastest(body, n, by_body);
        bool shared = false;
        size_t body_first = 0;
        for (size_t i = 0; i < n; i++) {
            shared |= by_body[i] && g->fastest[i];
            if (body[i] < body[body_first])
                body_first = i;
        }
        size_t first = g->order[0];
        const rc_refined *rb = &f->refined[body_first], *rf = &f->refined[first];
        if (!shared && body[body_first] > 0) {
            char a[64], b[64], c[64], d[64];
            rc_buffer_printf(sb, "The launch cost decides the ranking: by the body alone the %s "
                             "would be fastest (%s µs against %s µs on the %s), but a launch "
                             "costs %s µs%s on it against %s µs%s on the %s.",
                             name_of(g, body_first), us(rb->t_body_est, a, sizeof a),
                             us(rf->t_body_est, b, sizeof b), name_of(g, first),
                             us(rb->t_launch, c, sizeof c), b2b_assumed(f->gpus[body_first]),
                             us(rf->t_launch, d, sizeof d), b2b_assumed(f->gpus[first]),
                             name_of(g, first));
        }
    }
    free(body);
    free(by_body);
}

/* Why t_estimate is more than twice t_total on the GPU where it is most so. */
static void say_slower(rc_buffer *sb, const glance *g, size_t i)
{
    const rc_glance_facts *f = g->f;
    const rc_refined *r = &f->refined[i];
    const rc_estimate *e = &f->est[i];
    char a[64], b[64], c[64], d[64], q[64];
    rc_format_sig3(r->t_estimate / e->t_total, q, sizeof q);
    rc_buffer_printf(sb, "On the %s t_estimate is %s times t_total: ", name_of(g, i), q);
    if (r->limiter == RC_LIMIT_LAUNCH) {
        rc_buffer_printf(sb, "a launch queued back to back costs %s µs%s on it, more than the "
                         "peak roofline's whole %s µs.", us(r->t_launch, a, sizeof a),
                         b2b_assumed(f->gpus[i]), us(e->t_total, b, sizeof b));
    } else if (rc_chain_bound(r)) {
        rc_buffer_printf(sb, "its longest thread alone runs %s dependent iterations one after "
                         "another, %s µs, where the peak roofline spreads all work over the "
                         "whole GPU.", rc_format_sig3(r->chain.iterations, a, sizeof a),
                         us(r->chain.time, b, sizeof b));
    } else if (thread_bound(r)) {
        rc_buffer_printf(sb, "its longest thread alone runs %s FLOPs one instruction after "
                         "another, %s µs, where the peak roofline spreads all FLOPs over the "
                         "whole GPU.", rc_format_sig3(r->thread_flops_max, a, sizeof a),
                         us(r->t_thread, b, sizeof b));
    } else if (r->limiter == RC_LIMIT_BLOCKS) {
        rc_buffer_printf(sb, "the GPU starts its %s blocks at %s a clock, %s µs, where the peak "
                         "roofline counts only FLOPs and bytes.",
                         rc_format_int(r->blocks, a, sizeof a),
                         rc_format_sig3(r->blocks_per_clock, c, sizeof c),
                         us(r->t_blocks, b, sizeof b));
    } else if (r->limiter == RC_LIMIT_PIPE) {
        rc_buffer_printf(sb, "the peak roofline counts only FLOPs and bytes, the refined "
                         "estimate also runs %s warp instructions on %s, %s µs%s.",
                         rc_format_sig3(r->pipes[r->pipe_limit].warp_instructions, a, sizeof a),
                         pipe_kind(r), us(r->t_pipe, b, sizeof b),
                         r->pipes[r->pipe_limit].fp64_time > 0 ? " with its FP64 FLOPs"
                         : r->pipes[r->pipe_limit].xu_time > 0 ? " with the XU's other work"
                                                               : "");
    } else if (r->limiter >= RC_LIMIT_FP16) {
        int p = r->limiter - RC_LIMIT_FP16;
        if (r->flop_rate[p] >= r->rate[p])
            rc_buffer_printf(sb, "the peak roofline runs the FLOPs at the whole GPU's %s FP32 "
                             "peak, the refined estimate at the %s that %lld of its %lld SMs "
                             "reach at this occupancy.",
                             rc_format_si3(f->gpus[i]->peak_fp32, "FLOP/s", a, sizeof a),
                             rc_format_si3(r->rate[p], "FLOP/s", b, sizeof b),
                             (long long)r->active_sms, (long long)r->sms);
        else
            rc_buffer_printf(sb, "the peak roofline runs the FLOPs at the whole GPU's %s FP32 "
                             "peak, the refined estimate at %s: %lld of its %lld SMs reach %s "
                             "at this occupancy, less where%s%s%s.",
                             rc_format_si3(f->gpus[i]->peak_fp32, "FLOP/s", a, sizeof a),
                             rc_format_si3(r->flop_rate[p], "FLOP/s", b, sizeof b),
                             (long long)r->active_sms, (long long)r->sms,
                             rc_format_si3(r->rate[p], "FLOP/s", c, sizeof c),
                             r->slot_flops[p] > r->flops[p]
                                 ? " adds or multiplies alone take an instruction each" : "",
                             r->slot_flops[p] > r->flops[p] && rc_dependent_flops_slower(r, p)
                                 ? " and where" : "",
                             rc_dependent_flops_slower(r, p)
                                 ? " dependent chains issue one instruction a warp an "
                                   "arithmetic latency, without dual issue"
                                 : "");
    } else if (atomics_bound(r)) {
        rc_buffer_printf(sb, "its %s on '%s' take %s turns a line on %s, one at a time at "
                         "%s a line (%s%s µs), where the peak roofline counts only their "
                         "bytes.", atomics_what(&r->atomics), r->atomics.name,
                         rc_format_sig3(r->atomics.per_line, a, sizeof a),
                         lines_words(&r->atomics, b, sizeof b),
                         rc_format_si3(r->atomics.rate, "/s", c, sizeof c),
                         r->atomics.assumed ? "assumed; " : "", us(r->atomics.time, d, sizeof d));
    } else if (shared_bound(r)) {
        rc_buffer_printf(sb, "its %s shared-memory wavefronts (bank conflicts counted) take %s "
                         "µs%s, where the peak roofline counts no shared-memory traffic.",
                         rc_format_sig3(r->shared.wavefronts, a, sizeof a),
                         us(r->shared.time, b, sizeof b), shared_assumed(r));
    } else {
        const char *lv;
        const rc_level_time *l = slowest_level(r, &lv);
        rc_buffer_printf(sb, "the peak roofline moves its %s bytes at the datasheet's %s, the "
                         "refined estimate",
                         rc_format_int(f->model->bytes.total, a, sizeof a),
                         rc_format_si3(f->gpus[i]->bandwidth, "B/s", b, sizeof b));
        if (l == &r->l1) {
            rc_buffer_printf(sb, "'s requests ");
            l1_turn_words(sb, l, lv, "");
        } else {
            rc_buffer_printf(sb, " moves %s bytes at %s at %s", rc_format_sig3(l->bytes, c, sizeof c),
                             lv, rc_format_si3(l->rate, "B/s", d, sizeof d));
        }
        rc_buffer_printf(sb, ", ");
        if (l->little_bound)
            rc_buffer_printf(sb, "all that %s in flight reach over the %s (%s%sLittle's law).",
                             rc_format_si3(l->in_flight, "B", a, sizeof a),
                             rounds_wait(l, lv, c, sizeof c),
                             l->stores_only ? "no thread waits for its stores; " : "",
                             level_assumed(r, l, f->gpus[i], true) ? "assumed; " : "");
        else
            rc_buffer_printf(sb, "the rate it sustains%s.",
                             rate_mark(r, l, f->gpus[i]));
    }
}

/* Why t_total is more than twice t_estimate on the GPU where it is most so. */
static void say_faster(rc_buffer *sb, const glance *g, size_t i)
{
    const rc_glance_facts *f = g->f;
    const rc_refined *r = &f->refined[i];
    const rc_estimate *e = &f->est[i];
    char a[64], b[64], c[64], q[64];
    rc_format_sig3(e->t_total / r->t_estimate, q, sizeof q);
    rc_buffer_printf(sb, "On the %s t_total is %s times t_estimate: ", name_of(g, i), q);
    double launch_gap = e->t_launch - r->t_launch, gap = e->t_total - r->t_estimate;
    if (launch_gap >= 0.5 * gap) {
        rc_buffer_printf(sb, "it counts %s µs%s for a launch and a synchronisation, where "
                         "t_estimate counts %s µs%s for one queued back to back, and the body "
                         "%s µs.", us(e->t_launch, a, sizeof a),
                         sync_assumed(f->gpus[i]), us(r->t_launch, b, sizeof b),
                         b2b_assumed(f->gpus[i]), us(r->t_body_est, c, sizeof c));
    } else if (r->level_bytes.dram < (double)f->model->bytes.total) {
        rc_buffer_printf(sb, "the peak roofline moves all %s declared bytes from DRAM, ",
                         rc_format_int(f->model->bytes.total, a, sizeof a));
        if (r->level_bytes.dram == 0)
            rc_buffer_printf(sb, "the refined estimate none: the data stays in L2 between "
                             "launches.");
        else
            rc_buffer_printf(sb, "the refined estimate only the %s bytes that reach it.",
                             rc_format_sig3(r->level_bytes.dram, b, sizeof b));
    } else {
        rc_buffer_printf(sb, "the refined estimate's body, limited by %s, takes %s µs against "
                         "the peak roofline's %s µs.", limiter_kind(r),
                         us(r->t_body_est, a, sizeof a), us(e->t_body, b, sizeof b));
    }
}

static void say_differ(rc_buffer *sb, const glance *g)
{
    const rc_glance_facts *f = g->f;
    if (!f->refined)
        return;
    size_t hi = 0, lo = 0;
    for (size_t i = 1; i < f->ngpus; i++) {
        double q = f->refined[i].t_estimate / f->est[i].t_total;
        if (q > f->refined[hi].t_estimate / f->est[hi].t_total)
            hi = i;
        if (q < f->refined[lo].t_estimate / f->est[lo].t_total)
            lo = i;
    }
    bool slower = f->refined[hi].t_estimate > RC_GLANCE_DIFFER * f->est[hi].t_total;
    bool faster = f->est[lo].t_total > RC_GLANCE_DIFFER * f->refined[lo].t_estimate;
    if (slower)
        say_slower(sb, g, hi);
    if (slower && faster)
        rc_buffer_printf(sb, " ");
    if (faster)
        say_faster(sb, g, lo);
}

/* ---- the tree (tree.h's helpers: each attribute set once on a new node) -- */

static void add_row(xmlNodePtr parent, const glance *g, size_t rank)
{
    const rc_glance_facts *f = g->f;
    size_t i = g->order[rank];
    char buf[128];
    xmlNodePtr row = xmlNewChild(parent, NULL, X("row"), NULL);
    add_prop(row, "gpu", f->gpus[i]->id);
    add_prop(row, "gpu-name", f->gpus[i]->name);
    snprintf(buf, sizeof buf, "%zu", rank + 1);
    add_prop(row, "rank", buf);
    if (f->refined) {
        const rc_refined *r = &f->refined[i];
        set_time(row, "t-estimate", r->t_estimate);
        set_time(row, "t-lower", r->t_lower);
        add_prop(row, "limiter", rc_limiter_name(r->limiter));
        add_prop(row, "limiter-words", rc_glance_limiter_words(r, buf, sizeof buf));
    }
    set_time(row, "t-total", f->est[i].t_total);
    add_prop(row, "fastest", g->fastest[i] ? "yes" : "no");
}

static const struct {
    const char *kind;
    void (*say)(rc_buffer *sb, const glance *g);
} statements[] = {
    {"range", say_range},   {"limit", say_limit},   {"change", say_change},
    {"launch", say_launch_decides}, {"differ", say_differ},
};

xmlNodePtr rc_glance(xmlNodePtr kernel, const rc_glance_facts *f)
{
    xmlNodePtr gl = xmlNewChild(kernel, NULL, X("glance"), NULL);
    if (!gl || f->ngpus == 0)
        return gl;
    add_prop(gl, "order", f->refined ? "t-estimate" : "t-total");
    glance g;
    if (glance_init(&g, f)) {
        for (size_t k = 0; k < f->ngpus; k++)
            add_row(gl, &g, k);
        xmlNodePtr v = xmlNewChild(gl, NULL, X("verdict"), NULL);
        for (size_t s = 0; v && s < sizeof statements / sizeof statements[0]; s++) {
            rc_buffer sb = {0};
            statements[s].say(&sb, &g);
            char *text = rc_buffer_take(&sb, NULL);
            if (text && *text) {
                xmlNodePtr p = add_text_child(v, "p", text);
                add_prop(p, "kind", statements[s].kind);
            }
            free(text);
        }
    }
    glance_free(&g);
    return gl;
}
