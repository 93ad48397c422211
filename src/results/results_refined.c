/* results_refined.c: the refined estimate of one kernel on one GPU
 * (model/refine.h) in its <estimate>: each term with its formula and the
 * numbers that went into it, and the sentence that names what limits it.
 * See tree.h. */
#include "results/tree.h"

#include <stdlib.h>
#include <string.h>

#include "util/buffer.h"
#include "model/names.h"
#include "results/glance.h"

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
                      const rc_level_time *l, const rc_refined *r)
{
    char a[64], b[64], c[64], d[64], e[64], f[64], g[64], inputs[600], formula[200];
    /* The round's figures from refine.h, as <flight> carries them. */
    snprintf(formula, sizeof formula,
             "bytes / (little^-2 + sustained^-2)^-1/2 x the waves' cost, little = bytes in flight "
             "/ (latency x %g + (a thread's start and end - latency x %g) / rounds + barriers' "
             "time / rounds)", RC_ROUND_FACTOR, RC_ROUND_FACTOR - 1);
    xmlNodePtr t = add_term(parent, name, l->time, formula, NULL);
    snprintf(inputs, sizeof inputs,
             "%s bytes at %s; little = %s in flight / %s%s = %s; sustained %s; rate %s; x %s",
             rc_format_sig3(l->bytes, a, sizeof a), label,
             rc_format_si3(l->in_flight, "B", c, sizeof c),
             rc_format_si3(l->latency_eff, "s", d, sizeof d),
             l->stores_only ? " (the threads' start and end: only stores are in flight, and "
                             "no thread waits for a store)"
                           : "",
             rc_format_si3(l->little, "B/s", e, sizeof e),
             rc_format_si3(l->sustained, "B/s", b, sizeof b),
             rc_format_si3(l->rate, "B/s", f, sizeof f), rc_format_sig3(l->wave_cost, g, sizeof g));
    set_str(t, "inputs", inputs);
    if (l->waits > 0) { /* the barrier steps the level's rounds hold (refine.c) */
        snprintf(inputs, sizeof inputs,
                 "the %s a round holds %s barrier steps of %s cycles (%s) / %s rounds",
                 rc_format_si3(l->latency_eff, "s", d, sizeof d),
                 rc_format_sig3(r->barriers, a, sizeof a),
                 rc_format_sig3(r->barrier_cycles, b, sizeof b),
                 r->barrier_assumed ? "assumed" : "measured",
                 rc_format_sig3(r->rounds, c, sizeof c));
        set_str(t, "barrier-inputs", inputs);
    }
    set_num(t, "bytes", l->bytes, NULL);
    set_rate(t, "sustained", l->sustained, "B/s");
    set_time(t, "latency", l->latency);
    if (l->stores_only)
        set_str(t, "latency-of", "none");
    set_time(t, "latency-effective", l->latency_eff);
    set_rate(t, "in-flight", l->in_flight, "B");
    if (rc_glance_share_shown(l->share)) /* what requests hold of the level a byte asked */
        set_sig3(t, "in-flight-share", l->share);
    set_rate(t, "little", l->little, "B/s");
    set_rate(t, "rate", l->rate, "B/s");
    if (l->tail_rate > 0)
        set_rate(t, "tail-rate", l->tail_rate, "B/s");
    set_sig3(t, "wave-cost", l->wave_cost);
    set_bool(t, "little-bound", l->little_bound);
}

/* Part-line stores, said in a sentence when they are at least a tenth of the L2's bytes, and
 * named on the L2 level's line when they move the bytes shown there (3 significant figures):
 * one thread's store of a result is not worth a reader's attention. */
#define PART_LINE_SHARE_SAID 0.1
#define PART_LINE_SHARE_NAMED 0.005

/* When lines that stores write in part make a good share of the L2's bytes, the sentence that
 * says so. */
static void part_line_sentence(const rc_level_bytes *lb, double l2_bytes, rc_buffer *sb)
{
    char a[64], b[64], c[64];
    if (!(lb->l2_part_lines > 0) || lb->l2_part_lines < PART_LINE_SHARE_SAID * l2_bytes)
        return;
    rc_buffer_printf(sb, " Of the %s bytes at L2, %s are what 128-byte lines that stores and "
                     "atomics write in part cost beyond their sectors: such a line costs the L2 "
                     "at least %s B%s.",
                     rc_format_sig3(l2_bytes, a, sizeof a),
                     rc_format_sig3(lb->l2_part_lines, b, sizeof b),
                     rc_format_sig3(lb->part_line_cost, c, sizeof c),
                     lb->part_line_assumed ? " (assumed)" : "");
}

/* When DRAM reads the footprint once per wave instead of what the memory model's fall-off
 * rule gives, the sentence that says so: the memory section shows the larger figure. */
static void wave_cap_sentence(const rc_refined *r, rc_buffer *sb)
{
    const rc_level_bytes *lb = &r->level_bytes;
    char a[64], b[64], c[64], d[64], e[64];
    if (!lb->dram_capped)
        return;
    char per_wave[96];
    if (r->waves == 1)
        snprintf(per_wave, sizeof per_wave, "in the launch's one wave");
    else
        snprintf(per_wave, sizeof per_wave, "for each of the %s waves",
                 rc_format_int(r->waves, d, sizeof d));
    /* The bytes both read and written go out again (written back): the cap counts them twice. */
    char rewritten[128] = "";
    if (lb->rewritten > 0)
        snprintf(rewritten, sizeof rewritten,
                 ", %s of them both read and written and so counted twice",
                 rc_format_sig3(lb->rewritten, e, sizeof e));
    rc_buffer_printf(sb, " DRAM moves %s bytes, not the %s of \"Memory traffic by level\": at most "
                     "the footprint%s (%s bytes%s) once %s, as blocks resident at once find in L2 "
                     "what they reuse (assumed).",
                     rc_format_sig3(lb->dram, a, sizeof a),
                     rc_format_sig3(lb->dram_uncapped, b, sizeof b),
                     lb->fetched > lb->footprint ? " as DRAM fetches it" : "",
                     rc_format_sig3(lb->fetched, c, sizeof c), rewritten, per_wave);
}

/* Little's law in numbers: the threads that work, resident at once, each keep so many bytes
 * in flight (the DRAM term's in-flight bytes are theirs, counted in whole sectors where their
 * requests fetch more than they ask for: refine.c share_of). */
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
    bool sectors = rc_glance_share_shown(r->dram.share);
    rc_buffer_printf(sb, "Limited by memory latency: %s keep %s in flight (%s each%s), too few "
                     "to use the bandwidth (Little's law), at %s %% occupancy.", who,
                     rc_format_si3(r->dram.in_flight, "B", b, sizeof b),
                     rc_format_si3(r->thread_bytes_in_flight * r->dram.share, "B", c, sizeof c),
                     sectors ? " in whole sectors" : "", occupancy);
}

/* An arithmetic pipe limits: its warp instructions at its rate. */
static void pipe_sentence(const rc_refined *r, const char *occupancy, rc_buffer *sb)
{
    const rc_pipe_time *t = &r->pipes[r->pipe_limit];
    char a[64], b[64], c[64], d[64];
    if (t->fp64_time > 0) {
        rc_buffer_printf(sb, "Limited by the FP64 unit at %s %% occupancy: %s warp instructions "
                         "of conversions from and to 64-bit types, 32 results each, at %s "
                         "results an SM a clock%s, %s, and then the FP64 FLOPs' %s µs, which "
                         "the same unit runs (assumed).", occupancy,
                         rc_format_sig3(t->warp_instructions, a, sizeof a),
                         rc_format_sig3(t->per_clock, b, sizeof b),
                         t->assumed ? " (assumed)" : "",
                         rc_format_si3(t->rate, "results/s", c, sizeof c),
                         rc_format_us(t->fp64_time, d, sizeof d));
        return;
    }
    if (t->xu_time > 0) {
        rc_pipe o = rc_xu_other((rc_pipe)r->pipe_limit);
        char e[64];
        rc_buffer_printf(sb, "Limited by the XU at %s %% occupancy: %s warp instructions on %s, "
                         "32 results each, at %s results an SM a clock%s, %s, and then the %s "
                         "warp instructions on %s, %s µs, which the same unit runs.", occupancy,
                         rc_format_sig3(t->warp_instructions, a, sizeof a),
                         rc_glance_pipe_words((rc_pipe)r->pipe_limit), rc_format_sig3(t->per_clock, b, sizeof b),
                         t->assumed ? " (assumed)" : "",
                         rc_format_si3(t->rate, "results/s", c, sizeof c),
                         rc_format_sig3(r->pipes[o].warp_instructions, e, sizeof e),
                         rc_glance_pipe_words(o), rc_format_us(t->xu_time, d, sizeof d));
        return;
    }
    rc_buffer_printf(sb, "Limited by %s at %s %% occupancy: %s warp instructions of 32 results "
                     "each (a warp takes the pipe for all its lanes, whichever of them run), "
                     "%s results an SM a clock%s, %s.", rc_glance_pipe_words((rc_pipe)r->pipe_limit), occupancy,
                     rc_format_sig3(t->warp_instructions, a, sizeof a),
                     rc_format_sig3(t->per_clock, b, sizeof b), t->assumed ? " (assumed)" : "",
                     rc_format_si3(t->rate, "results/s", c, sizeof c));
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
    case RC_LIMIT_BLOCKS: {
        char c[64];
        rc_buffer_printf(sb, "Limited by the rate at which blocks start: the GPU starts %s "
                         "blocks a clock across its SMs, so the grid's %s blocks take %s µs, "
                         "longer than any other term.",
                         rc_format_sig3(r->blocks_per_clock, a, sizeof a),
                         rc_format_int(r->blocks, b, sizeof b),
                         rc_format_us(r->t_blocks, c, sizeof c));
        return;
    }
    case RC_LIMIT_LATENCY:
        if (rc_chain_bound(r)) {
            char c[160];
            rc_buffer_printf(sb, "Limited by latency: the longest thread's %s dependent "
                             "iterations, %s, take %s µs.",
                             rc_format_sig3(r->chain.iterations, a, sizeof a),
                             rc_chain_link_words(&r->chain, c, sizeof c),
                             rc_format_us(r->chain.time, b, sizeof b));
        } else if (r->t_thread >= r->t_body_est) {
            char c[200];
            rc_buffer_printf(sb, "Limited by latency: the longest thread's %s FLOPs take %s µs "
                             "%s, longer than any shared resource needs.",
                             rc_format_sig3(r->thread_flops_max, a, sizeof a),
                             rc_format_us(r->t_thread, b, sizeof b),
                             rc_thread_issue_words(r, c, sizeof c));
        } else
            latency_sentence(r, a, sb);
        return;
    case RC_LIMIT_OCCUPANCY:
        rc_buffer_printf(sb, "Limited by occupancy: %s %% (%s limit the blocks per SM to %lld) "
                         "keeps too few bytes in flight for the bandwidth (Little's law).", a,
                         occ_limit_words[r->occ.limit], (long long)r->occ.blocks_per_sm);
        return;
    case RC_LIMIT_PIPE:
        pipe_sentence(r, a, sb);
        return;
    case RC_LIMIT_L1:
        if (r->shared.time > r->l1.time) {
            char c[64], d[64], e[64];
            const rc_shared_time *s = &r->shared;
            if (s->requests_bound)
                rc_buffer_printf(sb, "Limited by shared memory at %s %% occupancy: %s requests, "
                                 "each holding an SM's load/store units %s clocks (%s%s "
                                 "wavefronts, bank conflicts counted), %s.", a,
                                 rc_format_sig3(s->requests, b, sizeof b),
                                 rc_format_sig3(s->clocks_per_request, c, sizeof c),
                                 s->clocks_assumed ? "assumed; " : "",
                                 rc_format_sig3(s->wavefronts, e, sizeof e),
                                 rc_format_si3(s->rate, " wavefronts/s", d, sizeof d));
            else
                rc_buffer_printf(sb, "Limited by shared memory at %s %% occupancy: %s wavefronts "
                                 "(bank conflicts counted), %s an SM a clock, %s.", a,
                                 rc_format_sig3(s->wavefronts, b, sizeof b),
                                 rc_format_sig3(s->per_clock, c, sizeof c),
                                 rc_format_si3(s->rate, "/s", d, sizeof d));
            return;
        }
        /* fall through */
    case RC_LIMIT_L2:
        if (r->limiter == RC_LIMIT_L2 && r->atomics.time > r->l2.time) {
            char c[64], d[64];
            bool one = r->atomics.lines == 1;
            rc_buffer_printf(sb, "Limited by atomics on few L2 lines: '%s' takes %s %s "
                             "(request, line) pairs on %s line%s, %s a line, which a line "
                             "serves one at a time at %s%s.", r->atomics.name,
                             rc_format_sig3(r->atomics.operations, a, sizeof a),
                             r->atomics.with_stores ? "atomic and store" : "atomic",
                             rc_format_int((int64_t)r->atomics.lines, b, sizeof b), one ? "" : "s",
                             rc_format_sig3(r->atomics.per_line, c, sizeof c),
                             rc_format_si3(r->atomics.rate, "/s", d, sizeof d),
                             r->atomics.assumed ? " (assumed)" : "");
            return;
        }
        /* fall through */
    case RC_LIMIT_DRAM: {
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
                         "peak", prec[p], a, rc_format_si3(r->rate[p], "FLOP/s", b, sizeof b),
                         prec[p]);
        if (r->flop_rate[p] < r->rate[p]) {
            char c[64];
            rc_buffer_printf(sb, ", of which its FLOPs reach %s (the compute term's inputs "
                             "say why)",
                             rc_format_si3(r->flop_rate[p], "FLOP/s", c, sizeof c));
        }
        rc_buffer_printf(sb, ".");
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
    if (r->working_blocks < r->blocks)
        set_int(w, "working-blocks", r->working_blocks);
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
        char slots[256] = "", single[256] = "";
        if (r->slot_flops[p] != r->flops[p]) {
            char s[64];
            snprintf(slots, sizeof slots, " (%s as FMA slots: an unfused FLOP counts 2)",
                     rc_format_sig3(r->slot_flops[p], s, sizeof s));
        }
        bool dependent_slower = rc_dependent_flops_slower(r, p);
        if (dependent_slower) {
            char s[64], q[64], u[64], v[64], l[64];
            snprintf(single, sizeof single, "; %s slot FLOPs in dependent loops at %s (a warp "
                     "issues one every %s cycles%s: issue %s; one instruction a scheduler: x %s)",
                     rc_format_sig3(r->dependent_slot_flops[p], s, sizeof s),
                     rc_format_si3(r->dependent_rate[p], "FLOP/s", u, sizeof u),
                     rc_format_sig3(r->chain_latency, l, sizeof l),
                     r->chain_latency_assumed ? ", assumed" : "",
                     rc_format_sig3(r->chain_issue, v, sizeof v),
                     rc_format_sig3(r->single_issue[p], q, sizeof q));
        }
        snprintf(inputs, sizeof inputs, "%s FLOPs%s; %s peak %s%s%s x %lld / %lld SMs x %s issue = %s%s; x %s",
                 rc_format_sig3(r->flops[p], e, sizeof e), slots,
                 rc_precision_name((rc_precision)p),
                 rc_format_si3(r->peak[p], "FLOP/s", a, sizeof a),
                 r->peak_assumed[p] ? " " : "", r->peak_assumed[p] ? assumed_peak[p] : "",
                 (long long)r->active_sms,
                 (long long)r->sms, rc_format_sig3(r->issue_fraction, b, sizeof b),
                 rc_format_si3(r->rate[p], "FLOP/s", c, sizeof c), single,
                 rc_format_sig3(r->wave_factor, d, sizeof d));
        xmlNodePtr t = add_term(n, name, r->t_compute[p],
                                r->slot_flops[p] != r->flops[p] || dependent_slower
                                    ? "(slot FLOPs / (peak x active SMs / SMs x min(1, warps "
                                      "per SM / 4)) + dependent loops' slot FLOPs / (peak x "
                                      "active SMs / SMs x min(1, warps per SM / 4 / latency) x "
                                      "single issue)) x wave factor"
                                    : "FLOPs / (peak x active SMs / SMs x min(1, warps per SM / "
                                      "4)) x wave factor",
                                inputs);
        set_str(t, "precision", rc_precision_name((rc_precision)p));
        set_num(t, "flops", r->flops[p], NULL);
        if (r->slot_flops[p] != r->flops[p])
            set_num(t, "slot-flops", r->slot_flops[p], NULL);
        if (dependent_slower) {
            set_num(t, "dependent-slot-flops", r->dependent_slot_flops[p], NULL);
            set_num(t, "chain-issue", r->chain_issue, NULL);
            set_num(t, "single-issue", r->single_issue[p], NULL);
        }
        set_rate(t, "peak", r->peak[p], "FLOP/s");
        set_str(t, "peak-origin", r->peak_assumed[p] ? "assumed" : "published");
        set_rate(t, "rate", r->rate[p], "FLOP/s");
    }
}

/* One term for each arithmetic pipe the kernel's <instructions> use (refine.h). */
static void add_pipe_terms(xmlNodePtr n, const rc_refined *r)
{
    char a[64], b[64], c[64], d[64], e[64], name[32], inputs[600];
    for (int p = 0; p < RC_PIPES; p++) {
        const rc_pipe_time *t = &r->pipes[p];
        if (!(t->warp_instructions > 0))
            continue;
        snprintf(name, sizeof name, "pipe-%s", rc_pipe_name((rc_pipe)p));
        snprintf(inputs, sizeof inputs, "%s warp instructions x 32 results / (%s a clock%s x "
                 "%lld active SMs x %s = %s); x %s",
                 rc_format_sig3(t->warp_instructions, a, sizeof a),
                 rc_format_sig3(t->per_clock, b, sizeof b), t->assumed ? " (assumed)" : "",
                 (long long)r->active_sms, rc_format_si3(r->clock, "Hz", c, sizeof c),
                 rc_format_si3(t->rate, "results/s", d, sizeof d),
                 rc_format_sig3(r->wave_factor, e, sizeof e));
        if (t->xu_time > 0) {
            size_t used = strlen(inputs);
            snprintf(inputs + used, sizeof inputs - used, "; + the %s, one unit (the XU): %s µs",
                     p == RC_PIPE_SPECIAL ? "conversions" : "special functions",
                     rc_format_us(t->xu_time, a, sizeof a));
        }
        if (t->fp64_time > 0) {
            size_t used = strlen(inputs);
            snprintf(inputs + used, sizeof inputs - used,
                     "; + FP64 FLOPs, one unit (assumed): %s µs",
                     rc_format_us(t->fp64_time, a, sizeof a));
        }
        char formula[200];
        snprintf(formula, sizeof formula, "32 x warp instructions / (results per clock per SM x "
                 "active SMs x SM clock) x wave factor%s",
                 t->fp64_time > 0 ? " + the FP64 FLOPs' term (the same unit)"
                 : t->xu_time > 0 ? " + the other XU pipe's term (the same unit)"
                                  : "");
        xmlNodePtr term = add_term(n, name, t->time, formula, inputs);
        set_str(term, "pipe", rc_pipe_name((rc_pipe)p));
        set_num(term, "warp-instructions", t->warp_instructions, NULL);
        set_num(term, "per-clock", t->per_clock, NULL);
        set_str(term, "per-clock-origin", t->assumed ? "assumed" : "published");
        set_str(term, "per-clock-source", t->source);
        set_rate(term, "rate", t->rate, "results/s");
        if (t->fp64_time > 0)
            set_time(term, "fp64-time", t->fp64_time);
        if (t->xu_time > 0)
            set_time(term, "xu-time", t->xu_time);
    }
}

/* Shared memory's own term, when the kernel uses it: its wavefronts at the generation's
 * rate (refine.h). */
static void add_shared_term(xmlNodePtr n, const rc_refined *r)
{
    const rc_shared_time *s = &r->shared;
    if (s->wavefronts <= 0)
        return;
    char a[64], b[64], c[64], e[64], f[64], g[64], warp[120] = "", inputs[700];
    /* Only a lone warp falls under the SM's rate (refine.c shared_time). */
    if (s->warp_bound)
        snprintf(warp, sizeof warp, " (one warp an SM, at a warp's own rate%s)",
                 s->warp_assumed ? ", assumed" : "");
    snprintf(inputs, sizeof inputs, "max(%s wavefronts / %s a clock%s, %s requests x %s clocks%s) "
             "/ (%lld active SMs x %s); x %s",
             rc_format_sig3(s->wavefronts, a, sizeof a), rc_format_sig3(s->per_clock, b, sizeof b),
             warp,
             rc_format_sig3(s->requests, f, sizeof f),
             rc_format_sig3(s->clocks_per_request, g, sizeof g),
             s->clocks_assumed ? " (assumed)" : "", (long long)r->active_sms,
             rc_format_si3(r->clock, "Hz", c, sizeof c), rc_format_sig3(r->wave_factor, e, sizeof e));
    xmlNodePtr t = add_term(n, "shared", s->time,
                            "max(shared-memory wavefronts (bank conflicts counted) / wavefronts "
                            "per SM per clock, warp requests x clocks a request holds the "
                            "load/store units) / (active SMs x SM clock) x wave factor", inputs);
    set_num(t, "wavefronts", s->wavefronts, NULL);
    set_rate(t, "rate", s->rate, "/s");
    if (s->warp_bound)
        set_str(t, "warp-bound", s->warp_assumed ? "assumed" : "measured");
}

/* Global atomics on few lines, when the kernel has any: the hottest array's operations per
 * line at one line's rates (atomics.h). The inputs name each kind of operation the array has,
 * with its rate and where that comes from. */
static void add_atomics_term(xmlNodePtr n, const rc_refined *r)
{
    const rc_atomic_time *t = &r->atomics;
    if (t->array < 0 || !t->name)
        return;
    char a[64], b[64], c[64], e[64], f[64];
    double single = t->operations - t->lane_extra - t->multiword;
    rc_buffer in = {0};
    rc_buffer_printf(&in, "'%s': ", t->name);
    const char *sep = "";
    if (single > 0 || (t->multiword <= 0 && t->lane_extra <= 0)) {
        rc_buffer_printf(&in, "%s (request, line) pairs of one address at %s a clock (%s)",
                         rc_format_sig3(single, a, sizeof a),
                         rc_format_sig3(RC_ATOMIC_LINE_PER_CLOCK, b, sizeof b),
                         rc_atomic_line_source);
        sep = " and ";
    }
    if (t->multiword > 0) {
        rc_buffer_printf(&in, "%s%s pairs of several addresses at %s a clock (%s)", sep,
                         rc_format_sig3(t->multiword, a, sizeof a),
                         rc_format_sig3(t->multi_per_clock, b, sizeof b), t->multi_source);
        sep = " and ";
    }
    if (t->lane_extra > 0)
        rc_buffer_printf(&in, "%s%s further updates of one address, lane by lane, at %s a clock "
                         "(%s)", sep, rc_format_sig3(t->lane_extra, a, sizeof a),
                         rc_format_sig3(t->lane_per_clock, b, sizeof b), t->lane_source);
    rc_buffer_printf(&in, " / %s line%s x %s = %s operations a line at %s a line",
                     rc_format_int((int64_t)t->lines, a, sizeof a), t->lines == 1 ? "" : "s",
                     rc_format_si3(r->clock, "Hz", e, sizeof e),
                     rc_format_sig3(t->per_line, c, sizeof c),
                     rc_format_si3(t->rate, "/s", f, sizeof f));
    char *inputs = rc_buffer_take(&in, NULL);
    xmlNodePtr x = add_term(n, "atomics", t->time,
                            "((request, line) pairs of one address of the hottest array / (0.77 "
                            "a clock) + pairs of several addresses / (the generation's pairs a "
                            "clock) + further per-lane updates of one address / (updates a "
                            "clock, lane by lane)) / its lines / SM clock",
                            inputs ? inputs : "");
    free(inputs);
    set_str(x, "array", t->name);
    set_num(x, "operations", t->operations, NULL);
    set_num(x, "lane-updates", t->lane_extra, NULL);
    set_num(x, "multiword-pairs", t->multiword, NULL);
    set_num(x, "lines", t->lines, NULL);
    set_rate(x, "rate", t->rate, "/s");
    set_str(x, "rate-origin", t->assumed ? "assumed" : "measured");
    if (t->lane_extra > 0) {
        set_num(x, "lane-rate-per-clock", t->lane_per_clock, NULL);
        set_str(x, "lane-rate-source", t->lane_source);
    }
    if (t->multiword > 0) {
        set_num(x, "multiword-rate-per-clock", t->multi_per_clock, NULL);
        set_str(x, "multiword-rate-origin", t->multi_assumed ? "assumed" : "measured");
        set_str(x, "multiword-rate-source", t->multi_source);
    }
}

/* The DRAM term's name: where the footprint stays, whether the per-wave cap applies, and lone
 * sectors fetched with their pairs where they add 0.5 % of the DRAM bytes or more (the rule
 * paragraph of the reports names them past 0.5 % of the footprint), marked where the fetch
 * size is assumed. */
static const char *dram_term_name(const rc_level_bytes *lb)
{
    if (lb->l2_resident)
        return "DRAM (the footprint stays in L2 between launches)";
    bool pairs = lb->dram > 0 && lb->fetched - lb->footprint >= PART_LINE_SHARE_NAMED * lb->dram;
    if (lb->dram_capped && !pairs)
        return "DRAM (the footprint once per wave)";
    if (lb->dram_capped)
        return lb->fetch_assumed ? "DRAM (the footprint as fetched once per wave; lone sectors "
                                   "with their pairs, assumed)"
                                 : "DRAM (the footprint as fetched once per wave)";
    if (pairs)
        return lb->fetch_assumed ? "DRAM, lone sectors fetched with their pairs (assumed)"
                                 : "DRAM, lone sectors fetched with their pairs";
    return "DRAM";
}

/* The memory levels' terms and the bytes each level sees. */
static void add_memory_levels(xmlNodePtr n, const rc_refined *r)
{
    const rc_level_bytes *lb = &r->level_bytes;
    add_level(n, "dram", dram_term_name(lb), &r->dram, r);
    char l2[80];
    if (lb->l2_part_lines >= PART_LINE_SHARE_NAMED * lb->l2) {
        char c[64];
        snprintf(l2, sizeof l2, "L2, lines stored in part at %s B%s",
                 rc_format_sig3(lb->part_line_cost, c, sizeof c),
                 lb->part_line_assumed ? " (assumed)" : "");
    } else
        snprintf(l2, sizeof l2, "L2");
    add_level(n, "l2", l2, &r->l2, r);
    const char *l1 = r->shared.in_l1 || r->shared.wavefronts <= 0
                         ? (lb->l1_requests_assumed ? "L1/shared (request clocks assumed)"
                                                    : "L1/shared")
                         : "L1 (shared memory apart)";
    add_level(n, "l1-shared", l1, &r->l1, r);
    add_shared_term(n, r);
    add_atomics_term(n, r);
    xmlNodePtr lbn = xmlNewChild(n, NULL, X("level-bytes"), NULL);
    set_num(lbn, "footprint", lb->footprint, NULL);
    set_num(lbn, "fetched", lb->fetched, NULL);
    set_str(lbn, "fetch-origin", lb->fetch_assumed ? "assumed" : "measured");
    set_str(lbn, "fetch-source", lb->fetch_source ? lb->fetch_source : "");
    set_num(lbn, "rewritten", lb->rewritten, NULL);
    set_num(lbn, "l2-share", lb->l2_share, NULL);
    set_num(lbn, "l2-share-fraction", lb->l2_share_fraction, NULL);
    set_str(lbn, "l2-share-origin", lb->l2_share_assumed ? "assumed" : "measured");
    set_str(lbn, "l2-share-source", lb->l2_share_source);
    if (lb->l1_by_requests)
        set_str(lbn, "l1-requests-origin", lb->l1_requests_assumed ? "assumed" : "measured");
    set_num(lbn, "l2-part-lines", lb->l2_part_lines, NULL);
    set_num(lbn, "part-line-cost", lb->part_line_cost, NULL);
    set_str(lbn, "part-line-origin", lb->part_line_assumed ? "assumed" : "measured");
    set_str(lbn, "part-line-source", lb->part_line_source ? lb->part_line_source : "");
    set_bool(lbn, "l2-resident", lb->l2_resident);
    set_num(lbn, "dram-uncapped", lb->dram_uncapped, NULL);
    set_bool(lbn, "dram-capped", lb->dram_capped);
}

static void add_thread_term(xmlNodePtr n, const rc_refined *r)
{
    char a[64], b[64], c[64], inputs[600];
    if (r->thread_instructions_max * 2 == r->thread_flops_max) {
        snprintf(inputs, sizeof inputs, "%s FLOPs in the longest thread / 2 FLOPs an FMA x %s "
                 "cycles an instruction / %s",
                 rc_format_sig3(r->thread_flops_max, a, sizeof a),
                 rc_format_sig3(r->thread_cycles_per_instruction, c, sizeof c),
                 rc_format_si3(r->clock, "Hz", b, sizeof b));
        add_term(n, "per-thread", r->t_thread,
                 "longest thread's FLOPs / 2 x cycles an instruction / SM clock", inputs);
        return;
    }
    char d[64];
    snprintf(inputs, sizeof inputs, "%s instructions in the longest thread (its %s FLOPs: an "
             "FMA for two, an unfused add or multiply for one) x %s cycles an instruction / %s",
             rc_format_sig3(r->thread_instructions_max, d, sizeof d),
             rc_format_sig3(r->thread_flops_max, a, sizeof a),
             rc_format_sig3(r->thread_cycles_per_instruction, c, sizeof c),
             rc_format_si3(r->clock, "Hz", b, sizeof b));
    add_term(n, "per-thread", r->t_thread,
             "longest thread's instructions x cycles an instruction / SM clock", inputs);
}

/* The dependent chain's term (chain.h), only where the kernel has dependent loops: the other
 * kernels' results stay as they were. */
static void add_chain_term(xmlNodePtr n, const rc_refined *r)
{
    const rc_chain_time *ch = &r->chain;
    if (!(ch->iterations > 0))
        return;
    char a[64], b[64], c[64], d[64], inputs[900];
    if (ch->loads)
        snprintf(inputs, sizeof inputs, "%s dependent iterations of the longest thread (the "
                 "loop of line %d) x %s cycles, one L1 hit each (the GPU's l1 latency%s) / %s",
                 rc_format_sig3(ch->iterations, a, sizeof a), ch->loop_line,
                 rc_format_sig3(ch->link_cycles, b, sizeof b),
                 ch->link_assumed ? ", assumed" : "", rc_format_si3(r->clock, "Hz", c, sizeof c));
    else
        snprintf(inputs, sizeof inputs, "%s dependent iterations of the longest thread (the "
                 "loop of line %d) x %s FMA instructions each (its FLOPs / 2, at least one) x "
                 "%s cycles (%s) / %s", rc_format_sig3(ch->iterations, a, sizeof a), ch->loop_line,
                 rc_format_sig3(ch->instructions, b, sizeof b),
                 rc_format_sig3(ch->arith_cycles, c, sizeof c), ch->arith_source,
                 rc_format_si3(r->clock, "Hz", d, sizeof d));
    xmlNodePtr t = add_term(n, "chain", ch->time,
                            "longest thread's dependent iterations x cycles an iteration / SM "
                            "clock", inputs);
    set_time(t, "lower", ch->time_lower);
}

/* The blocks' term, only on GPUs whose generation has a measured rate (arch.h
 * rc_block_rate_per_clock): the others' results stay as they were. */
static void add_blocks_term(xmlNodePtr n, const rc_refined *r)
{
    if (!(r->blocks_per_clock > 0))
        return;
    char a[64], b[64], c[64], inputs[600];
    snprintf(inputs, sizeof inputs, "%s blocks / (%s blocks a clock (%s) x %s)",
             rc_format_int(r->blocks, a, sizeof a),
             rc_format_sig3(r->blocks_per_clock, b, sizeof b), r->blocks_source,
             rc_format_si3(r->clock, "Hz", c, sizeof c));
    xmlNodePtr t = add_term(n, "blocks", r->t_blocks,
                            "the grid's blocks / (blocks the GPU starts a clock x SM clock)",
                            inputs);
    set_num(t, "blocks-per-clock", r->blocks_per_clock, NULL);
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

void rc_results_add_refined(xmlNodePtr est, const rc_refined *r)
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
    add_pipe_terms(n, r);
    add_memory_levels(n, r);
    add_thread_term(n, r);
    add_chain_term(n, r);
    add_blocks_term(n, r);
    xmlNodePtr f = xmlNewChild(n, NULL, X("flight"), NULL);
    set_sig3(f, "thread-bytes", r->thread_bytes_in_flight);
    set_sig3(f, "rounds", r->rounds);
    set_num(f, "round-factor", RC_ROUND_FACTOR, NULL);
    set_time(f, "start-end", RC_THREAD_START_END);
    if (r->barriers > 0) { /* absent without barriers */
        set_sig3(f, "barriers", r->barriers);
        set_sig3(f, "barrier-cycles", r->barrier_cycles);
        set_str(f, "barrier-origin", r->barrier_assumed ? "assumed" : "measured");
        set_str(f, "barrier-source", r->barrier_source);
        set_time(f, "barrier-time", r->t_barriers);
    }
    set_refined_times(n, r);
}
