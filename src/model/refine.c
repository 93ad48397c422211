/* refine.c: see refine.h. */
#include "model/refine.h"

#include <math.h>

#include "model/arch.h"
#include "model/traffic.h"

#define REGISTER_PARTITIONS RC_REGISTER_PARTITIONS
/* Warps an SM needs to issue every cycle: an SM has 4 schedulers, each issuing one warp
 * instruction a cycle (Volta and later: Jia et al., "Dissecting the NVIDIA Volta GPU
 * architecture via microbenchmarking", 2018, and the Turing sequel, 2019), so with fewer than
 * 4 warps resident some schedulers idle. A warp with one dependent chain would issue only
 * every 4 cycles (the FMA latency they measure) and need 16 warps; the work model does not say
 * how independent a thread's FLOPs are, and a loop's iterations, unrolled, usually are, so
 * the FLOPs of a <flops> statement are taken as independent enough to issue every cycle. The
 * FP32 FMA microbenchmark with 4 warps per SM and 8 independent chains per thread (H100 SXM5,
 * tests/validation/measured: fma_fp32 132 x 128) is the case this decides. */
#define SCHEDULERS 4.0
#define WARPS_TO_ISSUE SCHEDULERS
/* A fused multiply-add is one instruction for 2 FLOPs (FLOPS_PER_FMA): the per-thread floor
 * counts FLOPs / 2 instructions, an unfused FLOP one, the fastest a thread's FLOPs can issue. */
/* At most 4 accesses of 16 bytes in flight per thread (assumed). */
#define MAX_THREAD_BYTES_IN_FLIGHT 64.0
/* A thread's life: its first round of accesses takes one pointer-chase latency of the level
 * plus what the thread's start and end add (RC_THREAD_START_END: its block's launch and
 * retirement, its index arithmetic, the issue of its accesses), and each further round 1.3
 * latencies, so a round averages latency x 1.3 + (the start and end - latency x 0.3) / rounds.
 * A store does not wait: where a launch keeps only stores in flight its rounds take the start
 * and end alone. Calibrated on device microbenchmarks only. The grid-stride triad against
 * warps in flight on the H100 SXM5 (tests/validation/measured, many rounds per thread) runs at
 * 1.3 times the chase latency per round at every occupancy. gpu-benches' gpu-stream (one
 * double a thread, up to 10 % occupancy; docs/architectures.md item 23) gives a `read` thread
 * (one load) a life of its DRAM chase latency plus 272, 278, 223, 200 and 210 ns on a V100, an
 * A100, an A40, an L40 and a GH200 (median 223, taken for every GPU), and an `init` thread (a
 * store alone) 267, 267, 211, 225 and 225 ns in all: the same, with no latency. gpu-l2-stream's
 * L2-resident reads agree (their L2 chase latency plus 222, 233 and 247-265 ns on the GH200,
 * the L40 and the A40; its stores alone 248 ns on the GH200). Not in the rule: a thread with
 * more streams at DRAM lives longer (gpu-stream's `scale`, a load and a store, 37 ns more at
 * the median, `triad`, three loads and a store, 117 more), where at L2 it barely does (the
 * GH200: 14 and 34 ns more), which points at DRAM's pages, not at the thread. The two figures
 * are RC_ROUND_FACTOR and RC_THREAD_START_END (refine.h). */
/* GPUs clock above the rated boost clock their peaks assume, and the lower bound allows 35 %
 * for the FLOPs, the pipes, the longest thread and the dependent chain alike: the most found
 * in a published run. On RTX 2080 Tis (rated boost 1545 MHz), FMA throughput measured 1.183
 * (mixbench), 1.223 (OpenCL-Benchmark) and 1.340 (vkpeak, a 22 GB card) times the peak of that
 * clock, each run's FP64 rate at the same clock (tests/validation/published/microbench.csv;
 * test_refine test_boost_margin). The reports state it in words: templates/markdown.xsl and
 * html.xsl ("at 1.35 times"), which a change here must follow. */
#define PEAK_MARGIN 1.35

static int64_t ceil_div(int64_t a, int64_t b)
{
    return (a + b - 1) / b;
}

static int64_t round_up(int64_t a, int64_t unit)
{
    return unit > 0 ? ceil_div(a, unit) * unit : a;
}

rc_resources rc_kernel_resources(const rc_kernel *k)
{
    rc_resources res = {k->registers, k->shared_bytes};
    if (res.shared_bytes == 0)
        for (size_t i = 0; i < k->narrays; i++)
            if (k->arrays[i].space == RC_SPACE_SHARED)
                res.shared_bytes += k->arrays[i].length * k->arrays[i].elem_bytes;
    return res;
}

static void add_precision_work(const rc_work *w, const rc_counts *c, bool dependent,
                               rc_precision_work *out)
{
    for (; w; w = w->next) {
        if (w->kind == RC_WORK_FLOPS) {
            double f = (double)c->work[w->index].m1, slots = f * rc_flop_slots(w);
            out->flops[w->precision] += f;
            out->slot_flops[w->precision] += slots;
            if (dependent)
                out->dependent_slot_flops[w->precision] += slots;
        }
        add_precision_work(w->children, c,
                           dependent || (w->kind == RC_WORK_LOOP && w->loop_dependent), out);
    }
}

void rc_precision_work_of(const rc_kernel *k, const rc_counts *c, rc_precision_work *w)
{
    *w = (rc_precision_work){{0}, {0}, {0}};
    if (c->work)
        add_precision_work(k->work, c, false, w);
}

void rc_occupancy_compute(const rc_sm_limits *sm, int64_t threads_per_block,
                          const rc_resources *res, rc_occupancy *o)
{
    int64_t warp = (int64_t)sm->warp_size.value;
    int64_t max_warps = (int64_t)sm->threads.value / warp;
    *o = (rc_occupancy){0};
    o->warps_per_block = ceil_div(threads_per_block, warp);
    o->by_threads = max_warps / o->warps_per_block;
    o->by_blocks = (int64_t)sm->blocks.value;
    o->by_registers = INT64_MAX;
    if (res->registers > 0) {
        o->registers_per_warp = round_up(res->registers * warp, (int64_t)sm->register_unit.value);
        int64_t per_partition = (int64_t)sm->registers.value / REGISTER_PARTITIONS;
        int64_t warps = per_partition / o->registers_per_warp * REGISTER_PARTITIONS;
        o->by_registers = res->registers > (int64_t)sm->registers_per_thread.value
                              ? 0 : warps / o->warps_per_block;
    }
    o->shared_per_block = round_up(res->shared_bytes + (int64_t)sm->shared_reserved.value,
                                   (int64_t)sm->shared_unit.value);
    o->by_shared = INT64_MAX;
    if (res->shared_bytes > (int64_t)sm->shared_per_block.value)
        o->by_shared = 0;
    else if (o->shared_per_block > 0)
        o->by_shared = (int64_t)sm->shared.value / o->shared_per_block;
    int64_t limits[] = {o->by_threads, o->by_blocks, o->by_registers, o->by_shared};
    o->blocks_per_sm = INT64_MAX;
    o->limit = RC_OCC_NONE;
    for (int i = 0; i < 4; i++)
        if (limits[i] < o->blocks_per_sm) {
            o->blocks_per_sm = limits[i];
            o->limit = (rc_occ_limit)i;
        }
    o->occupancy = max_warps > 0 ? (double)(o->blocks_per_sm * o->warps_per_block) / max_warps
                                 : 0;
}

const char *rc_limiter_name(rc_limiter l)
{
    static const char *const names[] = {"launch", "blocks", "latency", "occupancy", "dram",
                                        "l2", "l1-shared", "instructions", "compute-fp16",
                                        "compute-fp32", "compute-fp64"};
    return names[l];
}

static bool is_memory(rc_work_kind k)
{
    return k == RC_WORK_LOAD || k == RC_WORK_STORE || k == RC_WORK_TRAFFIC ||
           k == RC_WORK_ATOMIC;
}

/* How many iterations of a loop nvcc unrolls, for the loads they issue together (at most
 * MAX_THREAD_BYTES_IN_FLIGHT in all), else 0. "By default, the compiler unrolls small loops
 * with a known trip count" (NVIDIA CUDA C++ Programming Guide, #pragma unroll): a `to` loop
 * whose from, to and step nvcc knows counts all its iterations. An innermost loop whose
 * bounds it does not know (a runtime param, blockDim, threadIdx, ...) but whose step it does,
 * it unrolls four times, with the rest in a loop of one iteration at a time, unless the
 * variable is unsigned and the step above 1 (the trip count could wrap); a loop with a loop
 * inside, or whose step it does not know (blockDim.x, a grid stride), it does not unroll.
 * Read off the PTX of nvcc 13.0 -O3 for such loops (docs/architectures.md, "Loops bounded by
 * a kernel argument"); the SASS of ptxas 11.8 for sm_35 and sm_60 issues the four loads
 * before the first add that uses them. */
#define RUNTIME_UNROLL 4.0

static bool has_loop(const rc_work *first)
{
    for (const rc_work *w = first; w; w = w->next)
        if (w->kind == RC_WORK_LOOP || has_loop(w->children))
            return true;
    return false;
}

static double unrolled_trips(const rc_work *w, const rc_work_stats *s)
{
    int64_t v;
    if (w->kind != RC_WORK_LOOP || w->loop_while || w->step_op != RC_STEP_ADD || s->m0 <= 0 ||
        w->loop_step_runtime || !w->expr[2] || !rc_expr_is_const(w->expr[2], &v))
        return 0;
    double trips = (double)s->m1 / (double)s->m0;
    if (!w->loop_bounds_runtime)
        return trips;
    if (trips < RUNTIME_UNROLL || has_loop(w->children) || (w->loop_unsigned && v != 1))
        return 0;
    return RUNTIME_UNROLL;
}

/* What global_store_of and the statements' rule say of the global arrays stores wrote: one
 * array's index, or one of these. */
#define WRITES_NONE (-2)   /* no global array, or the statement does not run */
#define WRITES_UNNAMED (-1) /* a legacy store, which names no array, or several arrays */

/* The global array a store or atomic of `w` writes (WRITES_UNNAMED for a legacy store), or
 * WRITES_NONE where `w` writes no global array or does not run. */
static int global_store_of(const rc_kernel *k, const rc_work *w, const rc_counts *c)
{
    if ((w->kind != RC_WORK_STORE && w->kind != RC_WORK_ATOMIC) || c->work[w->index].m0 <= 0)
        return WRITES_NONE;
    if (w->array < 0)
        return WRITES_UNNAMED;
    return k->arrays[w->array].space == RC_SPACE_GLOBAL ? w->array : WRITES_NONE;
}

/* Whether a store or atomic of `first` (or nested in it) that runs writes a global array other
 * than `array`. A legacy <store count bytes> names no array and writes none the compiler could
 * tell apart: it counts as another. */
static bool stores_elsewhere(const rc_kernel *k, const rc_work *first, const rc_counts *c,
                             int array)
{
    for (const rc_work *w = first; w; w = w->next) {
        int writes = global_store_of(k, w, c);
        if (writes != WRITES_NONE && writes != array)
            return true;
        if (stores_elsewhere(k, w->children, c, array))
            return true;
    }
    return false;
}

/* Whether `w` is a load that runs, of a global array the compiler cannot take as read-only
 * (traffic.c rc_traffic_read_only): one a store into another array may have written. */
static bool loads_writable(const rc_kernel *k, const rc_work *w, const rc_counts *c)
{
    return w->kind == RC_WORK_LOAD && w->array >= 0 && c->work[w->index].m0 > 0 &&
           k->arrays[w->array].space == RC_SPACE_GLOBAL && w->array < c->memory.narrays &&
           !rc_traffic_read_only(&c->memory.arrays[w->array]);
}

/* Whether a load in `first` (or nested in it) reads a global array that a store of `body` to
 * another global array may write, as far as the compiler knows: an array that is not
 * read-only (traffic.c rc_traffic_read_only: by its read-only-path, or because the kernel
 * writes it). C lets no compiler move a load above an earlier store that may write its
 * address, so in a loop whose body stores into one array and loads from such another, the
 * next iteration's loads wait for this one's store, which waits for this one's loads: the
 * copies of an unrolled body do not keep their loads in flight together. Read off ptxas
 * 11.8's SASS for sm_35, sm_75 and sm_86 (docs/architectures.md item 19;
 * tests/validation/cuda/alias.sh): `y[i] = x[i] + y[i]` over plain pointers loads x[i + 1]
 * after the store of y[i], and y's next loads before it (same pointer, other offsets); with
 * `const float *__restrict__ x` every load of the unrolled body comes first. */
static bool loads_wait_for_stores(const rc_kernel *k, const rc_work *first,
                                  const rc_work *body, const rc_counts *c)
{
    for (const rc_work *w = first; w; w = w->next) {
        if (loads_writable(k, w, c) && stores_elsewhere(k, body, c, w->array))
            return true;
        if (loads_wait_for_stores(k, w->children, body, c))
            return true;
    }
    return false;
}

/* Whether load `w` must wait for the stores before it in its body (`stored`: the one global
 * array they wrote, WRITES_UNNAMED for several or a legacy one, WRITES_NONE for none): the rule of
 * loads_wait_for_stores, between statements. Only the body's own statements are followed: a
 * store inside a nested loop or guard splits nothing after it (those bodies count apart). */
static bool load_waits(const rc_kernel *k, const rc_work *w, const rc_counts *c, int stored)
{
    return stored != WRITES_NONE && loads_writable(k, w, c) && stored != w->array;
}

/* The most bytes the memory statements directly in one body move per execution; an
 * unrolled loop's body counts in the body around it, once per iteration. With `shared`,
 * shared-memory accesses count too, at their element's size: where shared memory shares
 * L1's pipeline (Volta on), a shared load is in flight there as a global one is.
 * A load that must wait for a store before it in the body (load_waits: C lets no compiler
 * move it above a store that may write its address) starts the body's next round: the
 * statements before it are no longer in flight with it. Read off nvcc 13.0's PTX for sm_75
 * of cuda-stride-benchmark's saxpy, three `y[i] = a * x[i] + y[i]` a loop iteration over plain
 * pointers: ld, ld, st three times over, each x load after the store before it
 * (docs/architectures.md item 27). */
static double body_bytes(const rc_kernel *k, const rc_work *first, const rc_counts *c,
                         bool shared)
{
    double here = 0, best = 0;
    int stored = WRITES_NONE;
    for (const rc_work *w = first; w; w = w->next) {
        const rc_work_stats *s = &c->work[w->index];
        if (load_waits(k, w, c, stored)) {
            best = fmax(best, here);
            here = 0;
            stored = WRITES_NONE;
        }
        int writes = global_store_of(k, w, c);
        if (writes != WRITES_NONE)
            stored = stored == WRITES_NONE || stored == writes ? writes : WRITES_UNNAMED;
        if (is_memory(w->kind) && s->m0 > 0) {
            here += (double)s->m1 / (double)s->m0;
            if (shared && w->array >= 0 && k->arrays[w->array].space == RC_SPACE_SHARED)
                here += k->arrays[w->array].elem_bytes;
        }
        if (!w->children)
            continue;
        double trips = unrolled_trips(w, s);
        if (trips > 0 && loads_wait_for_stores(k, w->children, w->children, c))
            trips = 1;
        if (trips > 0)
            here += trips * body_bytes(k, w->children, c, shared);
        else
            best = fmax(best, body_bytes(k, w->children, c, shared));
    }
    return fmax(here, best);
}

/* Whether some thread reads global memory: a load of a global array that runs, an atomic (it
 * returns the old value) or declared traffic, whose direction is not known. */
static bool keeps_loads(const rc_kernel *k, const rc_work *first, const rc_counts *c)
{
    for (const rc_work *w = first; w; w = w->next) {
        bool shared = w->array >= 0 && k->arrays[w->array].space == RC_SPACE_SHARED;
        if ((w->kind == RC_WORK_LOAD || w->kind == RC_WORK_ATOMIC ||
             w->kind == RC_WORK_TRAFFIC) && !shared && c->work[w->index].m0 > 0)
            return true;
        if (keeps_loads(k, w->children, c))
            return true;
    }
    return false;
}

double rc_thread_bytes_in_flight(const rc_kernel *k, const rc_counts *c)
{
    return fmin(body_bytes(k, k->work, c, false), MAX_THREAD_BYTES_IN_FLIGHT);
}

double rc_thread_l1_bytes_in_flight(const rc_kernel *k, const rc_counts *c)
{
    return fmin(body_bytes(k, k->work, c, true), MAX_THREAD_BYTES_IN_FLIGHT);
}

/* A request in flight holds all it costs a level, not only the bytes its lanes ask for, and
 * each level's bytes count that cost: L2 and DRAM move whole 32-byte sectors, the L2 takes a
 * line's turn for each line a store touches (the part-line rule), L1 counts 128 B for each
 * clock a request holds its pipeline (l1_wavefront_bytes). A warp whose lanes each load 4
 * bytes 32 bytes apart keeps 32 sectors in flight for its 128 bytes, so a round takes one
 * latency, as a coalesced warp's does, while its bytes at the level are eight times as many.
 * Bytes in flight at a level are therefore the requested ones x the level's bytes / the
 * requested bytes, when that is over 1, so that Little's law counts rounds, not the bytes a
 * round costs: at DRAM the DRAM bytes, which L2 reuse may bring back to the requested ones (a
 * transpose's columns); at L2 the sectors that miss L1 and the line turns; at L1 its bytes
 * over the requested ones, with the shared accesses' where shared memory shares L1's
 * pipeline (Volta on; a shared wavefront is 128 B there). Under 1 (a cache keeps what is asked
 * again, or lanes share a word) nothing changes: those rounds are not the level's. */
static double share_of(double level_bytes, double requested, const rc_counts *c)
{
    if (!c->memory_counted || requested <= 0 || level_bytes <= requested)
        return 1;
    return level_bytes / requested;
}

/* The bytes a launch's shared-memory accesses ask for: their executions x the element's size
 * (they add nothing to the counted bytes, which are global memory's). */
static double shared_requested(const rc_kernel *k, const rc_work *first, const rc_counts *c)
{
    double bytes = 0;
    for (const rc_work *w = first; w; w = w->next) {
        if (is_memory(w->kind) && w->array >= 0 &&
            k->arrays[w->array].space == RC_SPACE_SHARED)
            bytes += (double)c->work[w->index].m0 * k->arrays[w->array].elem_bytes;
        bytes += shared_requested(k, w->children, c);
    }
    return bytes;
}

/* Back-to-back launches of one kernel find in L2 what the previous launch left there, when
 * it fits: the refined estimate stands for a launch queued behind others (as a profiler's
 * series of launches runs). Not the whole L2 holds it: L2 read microbenchmarks keep their
 * full rate up to a share of the L2 that depends on the generation (rc_l2_resident_share:
 * about three quarters on A100 and H100, whose L2 is split in two partitions that may both
 * hold a line their SMs read; 93 % on Ada) and fall beyond. Data streamed through a cache
 * larger than it is evicted before its reuse (least recently used replacement keeps nothing
 * of a cyclic stream), so a footprint over that share moves all of its DRAM bytes again. */

/* The L1 and shared-memory pipeline handles one wavefront a cycle: up to 128 bytes, one cache
 * line of a global request or one conflict-free pass of a shared one (NVIDIA Nsight Compute
 * Kernel Profiling Guide, "wavefront"; 124-128 B per clock per SM measured for both, H100 SXM5
 * tests/validation/measured and gpu-benches gpu-cache). The level counts what each request
 * holds that pipeline for as bytes at the GPU file's L1 rate, which is a coalesced 32-bit
 * load's: 128 B a clock, or 64 where 16 load/store units take each request in two
 * (rc_sm_pipes.clocks_per_request). From Volta's unified L1 on (rc_sm_pipes.shared_joins_l1),
 * a global request takes its clocks by banks and lines (banks.h rc_l1_request_quarters, from
 * gpu-benches' gpu-strides), counted as 128 B / clocks_per_request a clock, its bank passes
 * at the generation's passes a clock (Turing's two clocks a pass: l1_quarters_2x2); a shared
 * wavefront 128 B (two clocks at 64 B a clock). Before Volta a global request takes the
 * larger of its sector bytes and 128 B, per array, and shared memory has its own pipeline,
 * timed apart (shared_time).
 * Traffic and legacy bytes, which name no address, count as their bytes. */
static double l1_wavefront_bytes(const rc_counts *c, const rc_sm_pipes *p)
{
    const rc_access *m = &c->memory;
    double bytes = (double)m->legacy.sector_bytes;
    if (p->shared_joins_l1)
        bytes += 128.0 * (double)m->total.shared_wavefronts;
    bool two = p->clocks_per_request >= 2, slow_banks = p->wavefronts_per_clock < 1;
    for (int i = 0; i < m->narrays; i++) {
        const rc_access_counts *a = &m->arrays[i];
        if (p->shared_joins_l1)
            bytes += 32.0 / p->clocks_per_request *
                     (double)(slow_banks ? a->l1_quarters_2x2
                              : two      ? a->l1_quarters_2
                                         : a->l1_quarters);
        else
            bytes += fmax((double)a->sector_bytes, 128.0 * (double)a->requests);
    }
    return bytes;
}

/* Stores and atomics go on from L1 to L2 request by request (L1 keeps no global stores to merge
 * them: traffic.c counts all their sectors at L2), and the L2, like L1, holds 128-byte lines of
 * four 32-byte sectors, looked up by tag, one tag per line a request touches (NVIDIA's answers
 * on its developer forums: "The L1 and L2 cache line size is 128 bytes comprised of 4 x 32B
 * sectors", forums.developer.nvidia.com t/understanding-l1-tex-cache-sectors-req/312884; tags
 * and sectors, t/pascal-l1-cache/49571). A line a request writes whole costs its sectors; one it
 * writes in part (a byte of a sector it touches there left unwritten: the L2 merges the bytes
 * it has) costs at least the generation's part-line figure (rc_part_line_bytes, measured with
 * OpenCL-Benchmark's misaligned write: about two sectors where the L2 is one pool, a line and
 * a half on GA100 and GH100). Returns what that adds to the sectors' bytes. The rule's form, a
 * line's cost for each line a store touches, was looked for because of the transpose_naive
 * validation points (tests/validation), with an assumed 128 B a line; the figure is measured
 * now, the form is not. */
static double part_line_bytes(const rc_access *m, double cost)
{
    double extra = 0;
    for (int k = 1; k <= 4; k++)
        if (cost > 32.0 * k)
            extra += (double)m->total.store_part_lines[k - 1] * (cost - 32.0 * k);
    return extra;
}

/* Whether the launch's footprint was counted from addresses, as the L2 rules below need: legacy
 * count/bytes and traffic statements name no address, so their reuse is unknown and their bytes
 * count as new each time. */
static bool footprint_from_addresses(const rc_counts *c)
{
    return c->memory_counted && c->memory.legacy.footprint_bytes == 0 &&
           c->memory.total.footprint_bytes > 0;
}

void rc_level_bytes_of(const rc_gpu *g, const rc_counts *c, const rc_l1_reuse *sim,
                       rc_level_bytes *b)
{
    *b = (rc_level_bytes){0};
    b->l2_share_fraction =
        rc_l2_resident_share(g->compute_capability, &b->l2_share_assumed, &b->l2_share_source);
    b->l2_share = g->l2_bytes * b->l2_share_fraction;
    double declared = (double)c->bytes.total;
    if (!c->memory_counted) {
        b->l1 = b->l2 = b->dram = declared;
        return;
    }
    rc_traffic t;
    rc_traffic_compute(g, c, sim, &t);
    const rc_sm_pipes *p = rc_sm_pipes_for(g->compute_capability);
    b->l1 = l1_wavefront_bytes(c, p);
    b->l1_by_requests = p->shared_joins_l1;
    b->l1_requests_assumed = p->shared_joins_l1 && p->l1_requests_assumed;
    b->part_line_cost = rc_part_line_bytes(g->compute_capability, &b->part_line_assumed,
                                           &b->part_line_source);
    b->l2_part_lines = part_line_bytes(&c->memory, b->part_line_cost);
    b->l2 = t.l2_bytes + b->l2_part_lines;
    b->footprint = (double)c->memory.total.footprint_bytes;
    b->fetched = t.dram_fetched;
    b->fetch_assumed = t.dram_fetch_assumed;
    b->fetch_source = t.dram_fetch_source;
    b->rewritten = (double)c->memory.total.rewritten_bytes;
    b->l2_resident = footprint_from_addresses(c) && b->fetched <= b->l2_share;
    b->dram = b->l2_resident ? 0 : t.dram_bytes;
}

/* What blocks resident at once reuse, their own data or each other's, they find in L2: they
 * start together and step through their loops together, so the data they share is touched
 * close in time, as NVIDIA describes for thread groups launched back to back (L. Bavoil,
 * "Optimizing Compute Shaders for L2 Locality using Thread-Group ID Swizzling", NVIDIA
 * developer blog, 2020: groups that run concurrently reuse each other's data through L2 when
 * they touch the same data). A wave then reads at most the launch's footprint from DRAM (and
 * writes back at most what it both read and wrote), so DRAM bytes are at most waves x
 * (footprint as fetched + rewritten). The fall-off rule of traffic.h, which knows
 * nothing of time, gives more when a footprint beyond the L2 is reused many times over. An
 * assumption with no constant of its own: it was looked for because of the matmul_naive 4096
 * validation point (tests/validation), 2.8 times too slow under the fall-off rule, so that
 * point is no blind test of it. It errs fast where blocks revisit, long after, more data of
 * their own than their share of the L2 holds (a wave's blocks then evict each other's data
 * before its reuse): uncommon in kernels that give each block a tile, and no validation point
 * does it. Only for a footprint counted from addresses, and on a GPU whose file gives the L2's
 * size (without it, the fall-off rule takes the L2 to hold nothing, and so does this). */
static void cap_dram_per_wave(const rc_counts *c, rc_refined *r)
{
    rc_level_bytes *b = &r->level_bytes;
    b->dram_uncapped = b->dram;
    double cap = (double)r->waves * (b->fetched + b->rewritten);
    if (footprint_from_addresses(c) && b->l2_share > 0 && r->waves > 0 && b->dram > cap) {
        b->dram = cap;
        b->dram_capped = true;
    }
}

/* Shared memory: its passes by the generation's bank rule (banks.h: Kepler's 64-bit banks
 * pair words that Maxwell and later serve in two passes), at the generation's passes per SM
 * per clock (one: 32 banks each serving one bank width a clock, rc_sm_pipes) on the active
 * SMs at the SM clock. An n-way conflict is n passes, a broadcast one. A warp alone gets its
 * passes at its own rate, half the SM's from Volta on: an SM with one warp serves no more. */
static void shared_time(const rc_gpu *g, const rc_counts *c, rc_refined *r)
{
    const rc_sm_pipes *p = rc_sm_pipes_for(g->compute_capability);
    rc_shared_time *s = &r->shared;
    const rc_access_counts *t = &c->memory.total;
    s->wavefronts = (double)(p->banks == RC_BANKS_PAIR ? t->shared_wavefronts_pair
                                                        : t->shared_wavefronts);
    s->per_clock = p->wavefronts_per_clock;
    double warps = r->warps_per_sm * p->warp_passes_per_clock;
    s->warp_bound = warps > 0 && warps < s->per_clock;
    if (s->warp_bound) {
        s->per_clock = warps;
        s->warp_assumed = p->warp_passes_assumed;
    }
    s->in_l1 = p->shared_joins_l1;
    /* A request also holds the load/store units 32 lanes / units clocks: on 16 units an SM, a
     * conflict-free 32-bit request (one wavefront) takes two clocks, a 64-bit one (two) the
     * same two (GA106: 62.8 and 126.1 B a clock). */
    s->requests = (double)t->shared_requests;
    s->clocks_per_request = p->clocks_per_request;
    s->clocks_assumed = p->clocks_per_request_assumed;
    double passes = s->per_clock > 0 ? s->wavefronts / s->per_clock : 0;
    s->requests_bound = s->requests * s->clocks_per_request > passes;
    s->clocks = fmax(passes, s->requests * s->clocks_per_request);
    double sm_clocks = (double)r->active_sms * g->sm.clock.value;
    s->time_unwaved = s->wavefronts > 0 && sm_clocks > 0 ? s->clocks / sm_clocks : 0;
    s->rate = s->time_unwaved > 0 ? s->wavefronts / s->time_unwaved : 0;
    s->time = s->time_unwaved * r->wave_factor;
}

/* 1 / rate^2 = 1 / little^2 + 1 / sustained^2: a level's rate from Little's law's. */
static double level_rate(double little, double sustained)
{
    return little > 0 && sustained > 0
               ? 1.0 / sqrt(1.0 / (little * little) + 1.0 / (sustained * sustained))
               : 0;
}

/* A level's time over the waves. An SM's L1 serves only its own blocks, and the last wave costs
 * it a full one (the wave factor, as every per-SM term). The DRAM and the L2 serve all SMs'
 * blocks together: the full waves move their bytes at the rate their blocks reach, and the
 * last wave's blocks at the rate their fewer bytes in flight reach. Where Little's law bounds
 * the rate that is their share of the full one, and the last wave costs a full one again;
 * where the sustained rate does, the launch loses nothing to its last wave. (A grid-stride
 * copy of 256 MiB on a Quadro GP100 takes 1,119 us in 2.3 waves of 1,024-thread blocks and
 * 1,131 us in one wave: nvbench's example outputs, tests/validation/published.) */
static void level_time(const rc_refined *r, rc_level_time *l, double bytes, double sustained,
                       double latency, double in_flight, bool shared_by_sms)
{
    l->bytes = bytes;
    l->sustained = sustained;
    l->latency = latency;
    /* A block's barrier steps hold no global access in flight, so DRAM's and L2's rounds take
     * them too; L1's bytes hold the shared accesses that the steps themselves time. */
    l->waits = shared_by_sms ? r->t_barriers / r->rounds : 0;
    l->latency_eff = latency * RC_ROUND_FACTOR +
                     (RC_THREAD_START_END - latency * (RC_ROUND_FACTOR - 1)) / r->rounds +
                     l->waits;
    l->in_flight = in_flight;
    l->little = in_flight > 0 ? in_flight / l->latency_eff : 0;
    l->little_bound = l->little < sustained;
    /* Bandwidth rises with the bytes in flight and bends towards the sustained rate: the two
     * combine as 1 / rate^2 = 1 / little^2 + 1 / sustained^2, which follows the triad against
     * warps in flight on the H100 SXM5 (tests/validation/measured: 114 to 2673 GB/s from 1 to
     * 64 warps per SM) within 40 %, where the smaller of the two alone is 66 % off. */
    l->rate = level_rate(l->little, sustained);
    /* The last wave's rate only where it changes the cost: 0 at L1 and in one wave. */
    l->tail_rate = 0;
    l->wave_cost = r->wave_factor;
    double per_wave = (double)r->concurrent_blocks;
    double blocks = (double)r->working_blocks;
    if (shared_by_sms && r->waves > 1 && per_wave > 0 && blocks > 0) {
        double tail = (double)r->tail_blocks;
        l->tail_rate = level_rate(l->little * tail / per_wave, sustained);
        if (l->tail_rate > 0)
            l->wave_cost = ((double)(r->waves - 1) * per_wave + tail * l->rate / l->tail_rate) /
                           blocks;
    }
    l->time = bytes > 0 && l->rate > 0 ? bytes / l->rate * l->wave_cost : 0;
}

/* Blocks in which no thread does counted work retire as soon as they start, and the SMs take
 * the next blocks in their place: the waves are those of the blocks that work. A strided copy
 * whose guard idles the last seven eighths of its grid runs its first eighth at full
 * occupancy, not every block at one eighth of its threads. Within a block that works, its idle
 * threads stay resident until it ends (working_share). */
static void waves(const rc_gpu *g, const rc_kernel *k, const rc_counts *c, rc_refined *r)
{
    r->blocks = rc_kernel_blocks(k);
    /* Counts built by hand may give blocks_active alone. */
    int64_t working = c->blocks_working > c->blocks_active ? c->blocks_working : c->blocks_active;
    r->working_blocks = working > 0 && working < r->blocks ? working : r->blocks;
    int64_t blocks = r->working_blocks;
    r->sms = (int64_t)g->sm.count.value;
    int64_t per_wave = r->sms * r->occ.blocks_per_sm;
    r->concurrent_blocks = blocks < per_wave ? blocks : per_wave;
    r->active_sms = blocks < r->sms ? blocks : r->sms;
    r->waves = per_wave > 0 ? ceil_div(blocks, per_wave) : 0;
    r->tail_blocks = r->waves > 0 ? blocks - (r->waves - 1) * per_wave : 0;
    r->wave_factor = blocks > 0 ? (double)(r->waves * r->concurrent_blocks) / blocks : 1;
    /* Blocks on each active SM, at most what it holds. */
    double blocks_per_active = r->active_sms > 0
                                   ? fmin((double)r->occ.blocks_per_sm,
                                          ceil((double)blocks / r->active_sms))
                                   : 0;
    r->warps_per_sm = blocks_per_active * r->occ.warps_per_block;
}

/* Each precision's peak: the GPU file's figure, else an assumed one. Without an FP16 peak,
 * FP16 arithmetic runs at the FP32 rate: the rate of GPUs without packed FP16 (Kepler and
 * Maxwell convert to FP32) and of Ada, whose whitepaper gives FP16 without tensor cores as
 * the FP32 figure; faster on GPUs with packed FP16, so the assumption errs slow. Without an
 * FP64 peak, FP64 at 1/32 of FP32, the ratio of NVIDIA's consumer GPUs since Maxwell
 * (datasheets: GTX TITAN X, RTX 2080 Ti, RTX 4070, RTX 4090). */
static void peaks(const rc_gpu *g, rc_refined *r)
{
    r->peak[RC_PRECISION_FP16] = g->peak_fp16 > 0 ? g->peak_fp16 : g->peak_fp32;
    r->peak_assumed[RC_PRECISION_FP16] = !(g->peak_fp16 > 0);
    r->peak[RC_PRECISION_FP32] = g->peak_fp32;
    r->peak[RC_PRECISION_FP64] = g->peak_fp64 > 0 ? g->peak_fp64 : g->peak_fp32 / 32;
    r->peak_assumed[RC_PRECISION_FP64] = !(g->peak_fp64 > 0);
}

/* The lanes of precision p a scheduler has: peak / (2 FLOPs x clock x SMs x 4 schedulers);
 * 32 when the clock or the SMs are not known. */
static double scheduler_lanes(const rc_refined *r, double clock, int p)
{
    return clock > 0 && r->sms > 0 ? r->peak[p] / (2.0 * clock * (double)r->sms * SCHEDULERS)
                                   : 32;
}

/* A scheduler issues one warp instruction a clock, or on Kepler two independent ones of one
 * warp (CUDA C++ Programming Guide, compute capability 3.x: 4 schedulers, each dispatching two
 * independent instructions, for 192 FP32 lanes an SM). A dependent loop's FLOPs are one chain
 * a thread, so they issue at most 32 lanes a scheduler a clock: the share of the peak they
 * reach, 32 over the lanes a scheduler has, at most 1. */
static double single_issue_share(const rc_refined *r, double clock, int p)
{
    double lanes = scheduler_lanes(r, clock, p);
    return lanes > 32 ? 32 / lanes : 1;
}

static void compute(const rc_gpu *g, const rc_precision_work *w, rc_refined *r)
{
    peaks(g, r);
    r->issue_fraction = fmin(1.0, r->warps_per_sm / WARPS_TO_ISSUE);
    double share = r->sms > 0 ? (double)r->active_sms / r->sms : 0;
    /* A dependent loop's warp issues one instruction an arithmetic latency (chain.h), so
     * its schedulers need that many warps each to issue every clock. */
    bool assumed;
    const char *source;
    double latency = rc_arith_latency_cycles(g->compute_capability, &assumed, &source);
    r->chain_latency = latency > 1 ? latency : 1;
    r->chain_latency_assumed = assumed;
    r->chain_issue = fmin(1.0, r->warps_per_sm / SCHEDULERS / r->chain_latency);
    for (int p = 0; p < RC_PRECISIONS; p++) {
        r->flops[p] = w->flops[p];
        r->slot_flops[p] = w->slot_flops[p];
        r->dependent_slot_flops[p] = w->dependent_slot_flops[p];
        r->single_issue[p] = single_issue_share(r, g->sm.clock.value, p);
        r->rate[p] = r->peak[p] * share * r->issue_fraction;
        r->dependent_rate[p] = r->peak[p] * share * r->chain_issue * r->single_issue[p];
        double t = 0;
        if (w->slot_flops[p] - w->dependent_slot_flops[p] > 0 && r->rate[p] > 0)
            t += (w->slot_flops[p] - w->dependent_slot_flops[p]) / r->rate[p];
        if (w->dependent_slot_flops[p] > 0 && r->dependent_rate[p] > 0)
            t += w->dependent_slot_flops[p] / r->dependent_rate[p];
        r->t_compute[p] = t * r->wave_factor;
        r->flop_rate[p] = t > 0 ? w->flops[p] / t : r->rate[p];
    }
}

/* The term that sets t_body_est, named. */
static rc_limiter limiter_of(const rc_refined *r)
{
    if (r->t_launch > r->t_body_est)
        return RC_LIMIT_LAUNCH;
    double best = fmax(r->t_thread, r->chain.time);
    rc_limiter l = RC_LIMIT_LATENCY;
    const rc_level_time *levels[] = {&r->dram, &r->l2, &r->l1};
    const rc_limiter names[] = {RC_LIMIT_DRAM, RC_LIMIT_L2, RC_LIMIT_L1};
    for (int i = 0; i < 3; i++)
        if (levels[i]->time > best) {
            best = levels[i]->time;
            l = names[i];
            /* Bytes in flight, not the level, set the rate: too few warps resident (occupancy)
             * or too few to be had at all (latency). */
            if (levels[i]->little_bound)
                l = r->occ.occupancy < 1.0 && r->working_blocks >= r->sms * r->occ.blocks_per_sm
                        ? RC_LIMIT_OCCUPANCY : RC_LIMIT_LATENCY;
        }
    if (r->shared.time > best) {
        best = r->shared.time;
        l = RC_LIMIT_L1;
    }
    if (r->atomics.time > best) {
        best = r->atomics.time;
        l = RC_LIMIT_L2;
    }
    for (int p = 0; p < 3; p++)
        if (r->t_compute[p] > best) {
            best = r->t_compute[p];
            l = (rc_limiter)(RC_LIMIT_FP16 + p);
        }
    if (r->t_pipe > best) {
        best = r->t_pipe;
        l = RC_LIMIT_PIPE;
    }
    if (r->t_blocks > best)
        l = RC_LIMIT_BLOCKS;
    return l;
}

static void add_pipe_work(const rc_work *w, const rc_counts *c, double *warp_instructions,
                          double *instructions)
{
    for (; w; w = w->next) {
        if (w->kind == RC_WORK_INSTRUCTIONS) {
            warp_instructions[w->pipe] += (double)c->work[w->index].warp_m1;
            instructions[w->pipe] += (double)c->work[w->index].m1;
        }
        add_pipe_work(w->children, c, warp_instructions, instructions);
    }
}

/* The arithmetic pipes' terms: each pipe's warp instructions, 32 results each (a warp whose
 * lanes split at a guard still issues for all 32: CUDA C++ Programming Guide, "SIMT
 * Architecture" and "Control Flow Instructions": the paths of a divergent warp are
 * serialized), at the pipe's results per clock per SM of the Guide's throughput table
 * (arch.c) on the active SMs at the SM clock; the longest is t_pipe.
 *
 * Conversions from and to 64-bit types share the FP64 unit with the FP64 arithmetic, so that
 * pipe's term adds the FP64 FLOPs' term (compute() runs first). Assumed: no document names the
 * unit that runs them, but in every column of the Guide's table their rate is the FP64
 * arithmetic's (3.0, 5.x, 6.1, 6.2, 8.6: 8, 4, 4, 4, 2 results a clock) or half of it where
 * FP64 runs at full width (3.5, 6.0, 7.0, 8.0), which a unit of their own would not follow;
 * and on the GPUs with few FP64 units, the FP64 unit is one an SM shares, outside the
 * partitions that run the rest (Nsight Compute Kernel Profiling Guide, "Pipelines": "fp64 ...
 * The implementation of FP64 varies greatly per chip", and on GPUs "where FP64 ... pipelines
 * are decoupled" the texture pipeline forwards their instructions).
 *
 * From Volta on, the special functions and the other conversions share the XU (arch.h
 * xu_shared, read in Nsight Compute's guide): the longer of the two terms adds the other. */
static void pipes_time(const rc_gpu *g, const rc_kernel *k, const rc_counts *c, rc_refined *r)
{
    double warp_instructions[RC_PIPES] = {0}, instructions[RC_PIPES] = {0};
    if (c->work)
        add_pipe_work(k->work, c, warp_instructions, instructions);
    bool exact;
    const rc_pipe_rates *pr = rc_pipe_rates_for(g->compute_capability, &exact);
    for (int p = 0; p < RC_PIPES; p++) {
        rc_pipe_time *t = &r->pipes[p];
        if (!(warp_instructions[p] > 0))
            continue;
        t->warp_instructions = warp_instructions[p];
        t->instructions = instructions[p];
        t->per_clock = pr->per_clock[p];
        t->assumed = pr->assumed[p] || !exact;
        t->source = pr->source;
        t->rate = t->per_clock * (double)r->active_sms * g->sm.clock.value;
        t->time_unwaved = t->rate > 0 ? 32.0 * t->warp_instructions / t->rate : 0;
        t->time = t->time_unwaved * r->wave_factor;
        if (p == RC_PIPE_CONVERSION64) {
            t->fp64_time = r->t_compute[RC_PRECISION_FP64];
            t->time += t->fp64_time;
        }
    }
    rc_pipe_time *sp = &r->pipes[RC_PIPE_SPECIAL], *cv = &r->pipes[RC_PIPE_CONVERSION];
    if (pr->xu_shared && sp->time > 0 && cv->time > 0) {
        rc_pipe longer = sp->time >= cv->time ? RC_PIPE_SPECIAL : RC_PIPE_CONVERSION;
        r->pipes[longer].xu_time = r->pipes[rc_xu_other(longer)].time;
        r->pipes[longer].time += r->pipes[longer].xu_time;
    }
    for (int p = 0; p < RC_PIPES; p++)
        if (r->pipes[p].time > r->t_pipe) {
            r->t_pipe = r->pipes[p].time;
            r->pipe_limit = p;
        }
}

/* Cycles one warp instruction of precision p holds its scheduler: 32 lanes over the lanes of
 * that precision a scheduler has (peak / (2 FLOPs x clock x SMs x 4 schedulers)), at least 1.
 * FP64 on GPUs with few FP64 units takes many (GTX TITAN X: 32). */
static double issue_cycles(const rc_refined *r, double clock, int p)
{
    double lanes = scheduler_lanes(r, clock, p);
    return lanes >= 32 || lanes <= 0 ? 1 : 32 / lanes;
}

/* The per-thread floor: the longest thread's FLOPs as instructions (a fused multiply-add
 * for two, an unfused add or multiply for one), one issued a cycle at best, each precision's
 * share at its issue cycles. */
static void per_thread(const rc_gpu *g, const rc_counts *c, const rc_precision_work *w,
                       rc_refined *r)
{
    double clock = g->sm.clock.value;
    double total = 0, cycles = 0;
    r->clock = clock;
    for (int p = 0; p < RC_PRECISIONS; p++)
        total += w->slot_flops[p];
    for (int p = 0; p < RC_PRECISIONS; p++)
        if (total > 0)
            cycles += w->slot_flops[p] / total * issue_cycles(r, clock, p);
    r->thread_flops_max = (double)c->flops.thread_max;
    r->thread_instructions_max = (double)c->flop_slots_thread_max / FLOPS_PER_FMA;
    r->thread_cycles_per_instruction = total > 0 ? cycles : 1;
    r->t_thread = r->thread_instructions_max * r->thread_cycles_per_instruction / clock;
    r->t_thread_lower = r->thread_instructions_max / (PEAK_MARGIN * clock);
}

/* The bytes no run can move through L1 in less than: per array, its requests' distinct
 * sectors or its lanes' bytes, whichever is fewer (a warp that reads one word moves one
 * sector, not 32 words; a strided one uses 4 bytes of each sector it moves); the rest of the
 * launch's bytes (<traffic>, which names no address) as counted. */
static double lower_l1_bytes(const rc_counts *c)
{
    const rc_access *m = &c->memory;
    double bytes = (double)c->bytes.total;
    for (int i = 0; i < m->narrays; i++) {
        const rc_access_counts *a = &m->arrays[i];
        if (a->sector_bytes < a->accessed_bytes)
            bytes -= (double)(a->accessed_bytes - a->sector_bytes);
    }
    return bytes > 0 ? bytes : 0;
}

/* The most an SM's L1 data path can move: one 128-byte wavefront a clock (NVIDIA Nsight Compute
 * Kernel Profiling Guide, "wavefront"; 124-128 B per clock measured on GV100, GA100, GH100 and,
 * with 64-bit words, GA106), or the GPU file's L1 rate where that is higher, at 1.35 x the clock
 * like the peaks. The file's rate alone bounds nothing where it is a 32-bit measurement on a
 * GPU with 16 load/store units an SM (Turing, GA10x, Ada: 64 B a clock), which 64-bit words
 * pass at twice that (GA106: 124.7 B per clock). */
static double l1_peak(const rc_gpu *g, const rc_refined *r)
{
    double path = 128.0 * (double)r->sms * g->sm.clock.value;
    return PEAK_MARGIN * fmax(g->rates.l1_bandwidth.value, path);
}

/* The barriers the thread that waits most waits at: each <barrier>'s most a thread. */
static double barriers_of(const rc_work *first, const rc_counts *c)
{
    double n = 0;
    for (const rc_work *w = first; w; w = w->next) {
        if (w->kind == RC_WORK_BARRIER)
            n += (double)c->work[w->index].thread_max;
        n += barriers_of(w->children, c);
    }
    return n;
}

/* A block waits at its barriers in turn, each a step of the generation's measured length for
 * its warps, and keeps no global access in flight meanwhile: the steps join its rounds'
 * latency at DRAM and L2 (level_time). */
static void barriers(const rc_gpu *g, const rc_kernel *k, const rc_counts *c, rc_refined *r)
{
    r->barriers = barriers_of(k->work, c);
    if (r->barriers <= 0)
        return;
    r->barrier_cycles = rc_barrier_step_cycles(g->compute_capability,
                                               (double)r->occ.warps_per_block,
                                               &r->barrier_assumed, &r->barrier_source);
    r->t_barriers = r->barriers * r->barrier_cycles / g->sm.clock.value;
}

void rc_refine(const rc_gpu *g, const rc_kernel *k, const rc_counts *c, const rc_resources *res,
               const rc_precision_work *w, const rc_level_bytes *lb, rc_refined *r)
{
    *r = (rc_refined){0};
    rc_occupancy_compute(&g->sm, rc_kernel_threads_per_block(k), res, &r->occ);
    waves(g, k, c, r);
    compute(g, w, r);
    double active_threads = c->threads_active > 0 ? (double)c->threads_active : 1;
    r->thread_bytes_in_flight = rc_thread_bytes_in_flight(k, c);
    double bytes_per_thread = (double)c->bytes.total / active_threads;
    r->rounds = r->thread_bytes_in_flight > 0
                    ? fmax(1.0, bytes_per_thread / r->thread_bytes_in_flight) : 1;
    /* Threads that do no memory work keep nothing in flight: the share of the working blocks'
     * threads that work. */
    double working_blocks_threads = (double)r->working_blocks * (double)c->threads_per_block;
    r->working_share = working_blocks_threads > 0
                           ? (double)c->threads_active / working_blocks_threads : 0;
    /* The blocks resident at once, not active SMs x the busiest SM's warps: 25 blocks on 15
     * SMs are 25 blocks' threads, not 30. */
    r->working_threads = (double)r->concurrent_blocks *
                         (double)rc_kernel_threads_per_block(k) * r->working_share;
    double in_flight = r->working_threads * r->thread_bytes_in_flight;
    const rc_gpu_rates *m = &g->rates;
    r->level_bytes = *lb;
    barriers(g, k, c, r);
    cap_dram_per_wave(c, r);
    lb = &r->level_bytes;
    double requested = (double)c->bytes.total;
    bool l1_shared = rc_sm_pipes_for(g->compute_capability)->shared_joins_l1;
    r->dram.share = share_of(lb->dram, requested, c);
    r->l2.share = share_of(lb->l2, requested, c);
    r->l1.share = share_of(lb->l1, requested + (l1_shared ? shared_requested(k, k->work, c) : 0),
                           c);
    /* A store is done when the L2 takes it: the L2 writes back (docs/architectures.md), and a
     * thread does not wait for its store, so a launch that keeps only stores in flight waits on
     * no latency at any level: its rounds take the threads' start and end (refine.h),
     * and DRAM drains the lines at its sustained rate. gpu-benches' gpu-stream `init` (one
     * double stored a thread) lives 267, 267, 211, 225 and 225 ns at up to 10 % occupancy on a
     * V100, an A100, an A40, an L40 and a GH200, where `read` lives their DRAM latency longer
     * (tests/validation/published/gpu-stream-models.sh). */
    bool stores_only = in_flight > 0 && !keeps_loads(k, k->work, c);
    level_time(r, &r->dram, lb->dram, m->dram_bandwidth.value,
               stores_only ? 0 : m->dram_latency.value, in_flight * r->dram.share, true);
    r->dram.stores_only = stores_only;
    level_time(r, &r->l2, lb->l2, m->l2_bandwidth.value, stores_only ? 0 : m->l2_latency.value,
               in_flight * r->l2.share, true);
    r->l2.stores_only = stores_only;
    double sm_share = r->sms > 0 ? (double)r->active_sms / r->sms : 0;
    /* L1's bytes hold the shared-memory wavefronts where they share its pipeline, so its
     * bytes in flight hold the shared accesses too. */
    double l1_in_flight = l1_shared ? r->working_threads * rc_thread_l1_bytes_in_flight(k, c)
                                    : in_flight;
    level_time(r, &r->l1, lb->l1, m->l1_bandwidth.value * sm_share,
               stores_only ? 0 : m->l1_latency.value, l1_in_flight * r->l1.share, false);
    r->l1.stores_only = stores_only;
    shared_time(g, c, r);
    rc_atomic_time_of(k, c, g->compute_capability, g->sm.clock.value, &r->atomics);
    pipes_time(g, k, c, r);
    per_thread(g, c, w, r);
    rc_chain_time_of(g, k, c, &r->chain);
    r->blocks_per_clock = rc_block_rate_per_clock(g->compute_capability, &r->blocks_source);
    if (r->blocks_per_clock > 0 && g->sm.clock.value > 0)
        r->t_blocks = (double)r->blocks / (r->blocks_per_clock * g->sm.clock.value);
    r->t_body_est = fmax(r->t_thread, r->chain.time);
    const double terms[] = {r->dram.time, r->l2.time, r->l1.time, r->shared.time, r->atomics.time,
                            r->t_compute[0], r->t_compute[1], r->t_compute[2], r->t_pipe,
                            r->t_blocks};
    for (size_t i = 0; i < sizeof terms / sizeof terms[0]; i++)
        r->t_body_est = fmax(r->t_body_est, terms[i]);
    r->t_launch = m->launch_back_to_back.value;
    r->t_estimate = r->t_body_est + r->t_launch;
    for (int p = 0; p < 3; p++)
        r->t_lower_compute = fmax(r->t_lower_compute, w->flops[p] / (PEAK_MARGIN * r->peak[p]));
    /* A pipe's instructions at its published rate, clocked above the boost; an assumed rate
     * bounds nothing. */
    for (int p = 0; p < RC_PIPES; p++)
        if (!r->pipes[p].assumed)
            r->t_lower_compute = fmax(r->t_lower_compute,
                                      r->pipes[p].time_unwaved / PEAK_MARGIN);
    r->t_lower_memory = lower_l1_bytes(c) / l1_peak(g, r);
    /* The chain's floor counts cycles at the boost clock, which the GPU may pass like the
     * peaks' clock. */
    r->t_lower = fmax(fmax(r->t_lower_compute, r->t_lower_memory),
                      fmax(r->t_thread_lower, r->chain.time_lower / PEAK_MARGIN));
    r->limiter = limiter_of(r);
}

bool rc_chain_bound(const rc_refined *r)
{
    return r->limiter == RC_LIMIT_LATENCY && r->chain.time > r->t_thread &&
           r->chain.time >= r->t_body_est;
}

bool rc_dependent_flops_slower(const rc_refined *r, int p)
{
    return r->dependent_slot_flops[p] > 0 && r->dependent_rate[p] < r->rate[p];
}
