/* refine.h: the execution model, the refined estimate of one kernel on one GPU.
 *
 * Pure functions of the launch, the exact counts and the GPU's figures (model.h, arch.c):
 *
 *   occupancy   blocks per SM = min(threads, blocks, registers, shared-memory limits), by the
 *               CUDA occupancy calculator's rules (registers allocated per warp in units of
 *               register-unit, in 4 partitions of the register file; shared memory per block
 *               plus the system's reserve, rounded up to shared-unit)
 *   waves       of the blocks that work (a block whose threads all idle retires at once);
 *               concurrent blocks = min(blocks, SMs x blocks per SM);
 *               waves = ceil(blocks / (SMs x blocks per SM)); the tail wave costs a full one:
 *               wave factor = waves x concurrent / blocks (1 when the grid fills the GPU evenly)
 *   rates       compute, per precision: peak x active SMs / SMs x min(1, warps per SM / 4)
 *               (4 schedulers, one warp instruction each a cycle); each memory level (bytes:
 *               rc_level_bytes, with shared-memory wavefronts at L1, the L2 keeping a
 *               footprint that fits its share of it between launches (by generation), and
 *               DRAM reading at most the footprint once per wave): the smaller of its measured
 *               sustained rate and Little's law, bytes in flight / latency, combined as
 *               1 / rate^2 = 1 / little^2 + 1 / sustained^2, where
 *               bytes in flight = blocks resident at once x threads per block x bytes a
 *               thread keeps in flight (by the threads that work; rc_thread_bytes_in_flight,
 *               at L1 from Volta on with its shared accesses; x the level's bytes / the
 *               requested bytes when over 1: what a request holds there, whole sectors, the
 *               L2's line turns, L1's clocks), and a round takes the level's latency x 1.3
 *               + (a thread's start and end, 223 ns, - the latency x 0.3) / rounds: a
 *               thread's first round one latency and its start and end, each further round
 *               1.3 latencies (calibrated on stream microbenchmarks; with only stores in
 *               flight, no latency); DRAM and L2, which serve every SM,
 *               move the last wave's bytes at the rate its blocks' bytes in flight
 *               reach, so a partial last wave
 *               costs its share where the sustained rate binds and a full wave only where
 *               Little's law does (rc_level_time.wave_cost); L1 takes the wave factor
 *   shared      shared-memory wavefronts (bank conflicts counted by the generation's bank
 *               rule, banks.h) / (wavefronts per SM per clock x active SMs x SM clock), x
 *               the wave factor (rc_sm_pipes in arch.h: one a clock, one every two clocks
 *               on Turing),
 *               and never less than its warp requests at the load/store units' rate (a
 *               request every 2 clocks on Turing, GA10x and Ada, which have 16 an SM)
 *   atomics     global atomics on few lines: the hottest array's (request, line) pairs per
 *               line, one at a time at the rate of one line (atomics.h; limiter l2)
 *   pipes       per arithmetic pipe of <instructions> (conversions, special functions, integer):
 *               32 x its warp instructions (a warp takes the pipe for all its lanes) / (results
 *               per clock per SM, arch.c rc_pipe_rates x active SMs x SM clock) x the wave
 *               factor; the longest is the instructions term
 *   per thread  the longest thread's FLOPs as FMA instructions (2 FLOPs each), one a cycle at
 *               the SM clock (more for a precision a scheduler has fewer than 32 lanes of)
 *   chain       the longest thread's dependent iterations (<loop dependent="true">), each at
 *               least one L1 hit when it loads, else its FMAs at the arithmetic latency
 *               (chain.h); limiter latency, like the per-thread floor
 *   t_body_est  the largest term, times the wave factor; t_estimate = t_body_est + the launch
 *               cost back to back
 *   t_lower     a true lower bound: FLOPs at 1.35 x the peak (GPUs clock above the rated
 *               boost), each pipe's term unwaved / 1.35 where its rate is published (not
 *               assumed), each array's sectors (or its lanes' bytes, if fewer) through the
 *               L1 data path (128 B a clock per SM, or the file's L1 rate if higher) at 1.35 x
 *               the clock, the longest thread at one FMA (2 FLOPs) a cycle and the chain's
 *               floor (chain.h) at 1.35 x the clock; no launch cost
 */
#ifndef ROOFCAST_REFINE_H
#define ROOFCAST_REFINE_H

#include <stdbool.h>
#include <stdint.h>

#include "model/atomics.h"
#include "model/chain.h"
#include "model/eval.h"
#include "model/l1sim.h"
#include "model/model.h"

/* The register file is split between 4 schedulers (cuda_occupancy.h's sub-partitions):
 * warps are counted per partition. */
#define RC_REGISTER_PARTITIONS 4

/* What limits the blocks an SM holds. ORDER RC_OCC_LIMIT */
typedef enum {
    RC_OCC_THREADS, RC_OCC_BLOCKS, RC_OCC_REGISTERS, RC_OCC_SHARED, RC_OCC_NONE
} rc_occ_limit;

typedef struct {
    int64_t warps_per_block;
    int64_t by_threads, by_blocks, by_registers, by_shared; /* blocks per SM each allows */
    int64_t registers_per_warp;  /* after rounding; 0 when registers are not given */
    int64_t shared_per_block;    /* bytes, with the reserve, after rounding */
    int64_t blocks_per_sm;       /* the smallest; 0 when one block does not fit */
    rc_occ_limit limit;
    double occupancy;            /* resident warps / the SM's maximum warps */
} rc_occupancy;

/* Registers per thread and shared memory per block (0 when not given). */
typedef struct {
    int64_t registers;
    int64_t shared_bytes;
} rc_resources;

/* Registers per thread and shared bytes per block of `k`: its <resources>; where that gives
 * no shared bytes, the declared shared arrays' bytes (length x element size) summed. */
rc_resources rc_kernel_resources(const rc_kernel *k);

void rc_occupancy_compute(const rc_sm_limits *sm, int64_t threads_per_block,
                          const rc_resources *res, rc_occupancy *out);

/* The limiter of the refined estimate. ORDER RC_LIMITER */
typedef enum {
    RC_LIMIT_LAUNCH, RC_LIMIT_BLOCKS, RC_LIMIT_LATENCY, RC_LIMIT_OCCUPANCY, RC_LIMIT_DRAM,
    RC_LIMIT_L2, RC_LIMIT_L1, RC_LIMIT_PIPE, RC_LIMIT_FP16, RC_LIMIT_FP32, RC_LIMIT_FP64
} rc_limiter;

/* "launch", "blocks" (the rate the GPU starts blocks at), ..., "l1-shared", "instructions"
 * (an arithmetic pipe other than the FMA units: rc_refined.pipe_limit names it), "compute-fp32" */
const char *rc_limiter_name(rc_limiter l);

/* A round of Little's law takes latency x RC_ROUND_FACTOR + (RC_THREAD_START_END - latency x
 * (RC_ROUND_FACTOR - 1)) / rounds (refine.c says where both come from). results.xml's
 * <flight> carries them, and the reports' formulas print them from there. */
#define RC_ROUND_FACTOR 1.3
#define RC_THREAD_START_END 223e-9 /* s */

/* One memory level's rate and time. */
typedef struct {
    double bytes;        /* at this level */
    double sustained;    /* B/s, measured (or assumed) */
    double latency;      /* s, the level's round trip */
    double latency_eff;  /* s, latency x 1.3 + (start and end - latency x 0.3) / rounds + waits */
    double waits;        /* s, t_barriers / rounds at DRAM and L2; 0 at L1 (refine.c) */
    double in_flight;    /* bytes the launch keeps in flight */
    double share;        /* level bytes in flight per requested byte in flight (share_of) */
    double little;       /* B/s, in_flight / latency_eff */
    double rate;         /* B/s, (little^-2 + sustained^-2)^-1/2 */
    /* The last wave's blocks keep fewer bytes in flight: the rate they reach, and what the
     * waves cost, time / (bytes / rate): the wave factor at L1; at DRAM and L2, which serve
     * every SM, (full waves' blocks + the last wave's x rate / tail_rate) / blocks, from 1
     * (bandwidth-bound) up to the wave factor (Little-bound). refine.c, level_time. */
    double tail_rate;    /* B/s; 0 where it plays no part (L1, one wave) */
    double wave_cost;
    double time;         /* s */
    int little_bound;    /* 1 when Little's law, not the sustained rate, sets the rate */
    /* 1 when the launch keeps only stores in flight, which end at the L2 (it writes back) and
     * which no thread waits for, so its rounds take no latency, only the threads' start and
     * end (refine.c, rc_refine; latency is then 0) */
    int stores_only;
} rc_level_time;

/* Shared memory's term: its passes (wavefronts) at the generation's rate (rc_sm_pipes). */
typedef struct {
    double wavefronts;   /* by the generation's bank rule (banks.h) */
    double per_clock;    /* wavefronts an SM serves a clock: the generation's, or fewer where
                          * its few warps cannot fill it (warp_bound) */
    bool warp_bound;     /* warps an SM x a warp's own passes a clock set per_clock */
    bool warp_assumed;   /* ... and a warp's own rate is assumed on this generation */
    double requests;     /* warp requests to shared memory */
    double clocks_per_request; /* each holds the SM's load/store units this long (arch.h) */
    bool clocks_assumed; /* clocks_per_request not measured on this generation */
    /* SM-clocks the launch's shared accesses take, summed over the active SMs:
     * max(wavefronts / per_clock, requests x clocks_per_request) */
    double clocks;
    bool requests_bound; /* the requests' clocks, not the passes, set clocks */
    double rate;         /* wavefronts/s the term achieves: wavefronts / time_unwaved */
    double time_unwaved; /* s, clocks / (active SMs x SM clock) */
    double time;         /* s, x the wave factor */
    bool in_l1;          /* its wavefronts are also in the L1 level's bytes (Volta on) */
} rc_shared_time;

/* One arithmetic pipe's term (<instructions>, arch.h rc_pipe_rates): its warp instructions,
 * each 32 results however many lanes run it (eval.h warp_m1), at the pipe's results per
 * clock per SM on the active SMs at the SM clock. */
typedef struct {
    double warp_instructions;
    double instructions; /* the lanes' own: fewer than 32 x warp_instructions where some
                          * lanes of a warp that runs them do not */
    double per_clock;    /* results an SM serves a clock */
    bool assumed;        /* per_clock is assumed (arch.c says why) */
    const char *source;  /* static: where per_clock comes from */
    double rate;         /* results/s: per_clock x active SMs x SM clock */
    double time_unwaved; /* s, 32 x warp instructions / rate */
    /* The 64-bit conversion pipe only: the FP64 FLOPs' term (t_compute[fp64]), which runs on
     * the same FP64 unit one after the conversions (assumed: refine.c says why) and is
     * included in time; 0 for the other pipes and for kernels without FP64 FLOPs. */
    double fp64_time;
    /* From Volta on, on the special or the conversion pipe, whichever term is longer: the
     * other's term, which the same unit (the XU) runs after its own (arch.h xu_shared) and
     * which is included in time; 0 otherwise. */
    double xu_time;
    double time;         /* s, x the wave factor (+ fp64_time or xu_time) */
} rc_pipe_time;

/* The other pipe of the XU (special functions and conversions): the one whose term a term
 * with xu_time > 0 includes. */
static inline rc_pipe rc_xu_other(rc_pipe p)
{
    return p == RC_PIPE_SPECIAL ? RC_PIPE_CONVERSION : RC_PIPE_SPECIAL;
}

/* FLOPs of one fused multiply-add, the instruction the per-thread floor counts. */
#define FLOPS_PER_FMA 2.0

/* Work per precision; FP32 unless the work model says otherwise. */
typedef struct {
    double flops[RC_PRECISIONS]; /* by rc_precision: fp16, fp32, fp64 */
    /* The FLOPs as the peak counts them, two an instruction: an unfused FLOP (<flops
     * fused="false">) takes an instruction of its own, so it counts twice. */
    double slot_flops[RC_PRECISIONS];
    /* Of slot_flops, those in a <loop dependent="true">: one chain a thread (chain.h), so a
     * warp never has two independent instructions for a dual-issuing scheduler to pair. */
    double dependent_slot_flops[RC_PRECISIONS];
} rc_precision_work;

/* The FLOPs of the launch by precision: each <flops> statement's count over the launch
 * (rc_counts.work[].m1) at the precision it states. They sum to c->flops.total. */
void rc_precision_work_of(const rc_kernel *k, const rc_counts *c, rc_precision_work *w);

/* The bytes each level moves for one launch queued back to back behind launches of the same
 * kernel, as t_estimate assumes (refine.c says why):
 *   l1    what each global request holds L1's pipeline for (Volta on: by its bank passes
 *         and lines, banks.h rc_l1_request_quarters; before: per array, the larger of its
 *         sector bytes and 128 B per request), + 128 B per shared-memory wavefront where
 *         shared memory shares that pipeline (Volta on; rc_sm_pipes): one wavefront (up to
 *         128 bytes) a cycle, at least one per request (refine.c l1_wavefront_bytes)
 *   l2    traffic.h's L2 bytes (every store's sectors among them), + the part-line bytes:
 *         each 128-byte line a store or atomic request writes in part costs at least the
 *         generation's part-line figure (rc_part_line_bytes; refine.c says why)
 *   dram  traffic.h's DRAM bytes; 0 when the footprint, counted from addresses (no legacy
 *         or traffic bytes), fits as DRAM fetched it the generation's share of the L2
 *         (l2_resident; three quarters, 93 % on Ada: rc_l2_resident_share): the previous
 *         launch left the data there. rc_refine then caps them at the footprint as fetched,
 *         and the sectors both read and written again, once per wave (dram_capped; refine.c
 *         says why): the blocks resident at once find in L2 what they reuse (assumed)
 * Without counted accesses (legacy count/bytes or traffic statements) every declared byte is
 * charged to each level. */
typedef struct {
    double l1, l2, dram;
    /* l1 counts each global request's clocks by its lines and bank passes (Volta on), and
     * whether that rule was only assumed on this generation (rc_sm_pipes) */
    bool l1_by_requests, l1_requests_assumed;
    double footprint;  /* B, the launch's distinct sectors; 0 without counted accesses */
    /* B, what DRAM moves to bring the footprint in (traffic.h's P): more than the footprint
     * where a lone sector comes with its pair (rc_dram_fetch_bytes); the L2 holds it */
    double fetched;
    bool fetch_assumed;
    const char *fetch_source; /* static */
    double rewritten;  /* B, those of them both read and written: DRAM takes them twice */
    double l2_part_lines; /* B added at L2 for lines stores and atomics write in part */
    double part_line_cost;   /* B such a line costs at least (rc_part_line_bytes) */
    bool part_line_assumed;  /* ... not measured on this generation */
    const char *part_line_source; /* static */
    double l2_share;   /* B, the part of the L2 a launch's data stays in */
    double l2_share_fraction;    /* of the L2's size, by generation (rc_l2_resident_share) */
    bool l2_share_assumed;
    const char *l2_share_source; /* static */
    bool l2_resident;
    /* Set by rc_refine, which knows the waves: dram before the cap, and whether the cap,
     * waves x (footprint + rewritten), made it smaller. */
    double dram_uncapped;
    bool dram_capped;
} rc_level_bytes;

/* `sim` (may be NULL): the kernel's run through the GPU's L1 (l1sim.h, traffic.h). */
void rc_level_bytes_of(const rc_gpu *gpu, const rc_counts *c, const rc_l1_reuse *sim,
                       rc_level_bytes *out);

typedef struct {
    rc_occupancy occ;
    int64_t blocks, sms, active_sms, concurrent_blocks, waves, tail_blocks;
    int64_t working_blocks;      /* blocks with a thread that does counted work or runs an
                                  * <instructions> (all when none does): the waves are theirs
                                  * (refine.c) */
    double wave_factor;
    double warps_per_sm;         /* resident on each active SM */
    double issue_fraction;       /* min(1, warps per SM / 4) */
    /* By rc_precision: the peak (FLOP/s; assumed where the GPU file gives none, see
     * refine.c), the rate in reach and the time of that precision's FLOPs. */
    double peak[RC_PRECISIONS], rate[RC_PRECISIONS], t_compute[RC_PRECISIONS];
    bool peak_assumed[RC_PRECISIONS];
    double flops[RC_PRECISIONS];
    double slot_flops[RC_PRECISIONS]; /* rc_precision_work.slot_flops: what t_compute charges */
    double dependent_slot_flops[RC_PRECISIONS]; /* of them, in dependent loops */
    /* The share of the rate a dependent loop's FLOPs reach: 32 lanes a scheduler over the
     * lanes it has (1 unless a scheduler must dual-issue to reach the peak: Kepler, 2/3). */
    double single_issue[RC_PRECISIONS];
    /* FLOP/s a dependent loop's slot FLOPs reach: peak x active SMs / SMs x chain_issue x
     * single_issue (where the others reach rate). */
    double dependent_rate[RC_PRECISIONS];
    /* The FLOP/s the precision's FLOPs reach, every rule above counted: FLOPs / (t_compute /
     * wave factor); rate where unfused FLOPs and dependent loops cost nothing more. */
    double flop_rate[RC_PRECISIONS];
    /* The issue share of a dependent loop's FLOPs: each warp issues one every arithmetic
     * latency (chain.h), so min(1, warps per SM / 4 schedulers / latency cycles); it stands
     * in for issue_fraction there. */
    double chain_issue;
    double chain_latency;        /* cycles: the arithmetic latency chain_issue divides by */
    bool chain_latency_assumed;  /* the guide gives no figure for this generation */
    double thread_bytes_in_flight, rounds;
    /* The barriers (<barrier>) the thread that waits most waits at, each a step of
     * barrier_cycles (arch.h rc_barrier_step_cycles) for the block's warps: t_barriers, a
     * time in the block's life in which it keeps no global access in flight, adds to DRAM's
     * and L2's latency a round (t_barriers / rounds); L1's bytes hold the shared accesses the
     * steps time. All 0 without barriers. */
    double barriers, barrier_cycles, t_barriers;
    bool barrier_assumed;
    const char *barrier_source; /* static */
    double working_share;   /* of the launched threads, those that do work */
    double working_threads; /* resident at once and doing work: the in-flight bytes' threads
                             * (an average over the waves when working_share < 1) */
    rc_level_bytes level_bytes;
    rc_level_time dram, l2, l1;
    rc_shared_time shared; /* limiter l1-shared when it is the longest term */
    rc_atomic_time atomics; /* limiter l2 when it is the longest term */
    rc_pipe_time pipes[RC_PIPES]; /* by rc_pipe; all 0 without <instructions> */
    int pipe_limit;        /* the pipe with the longest term (limiter instructions) */
    double t_pipe;         /* s, that term */
    double clock; /* Hz, the SM clock of the per-thread floor */
    /* The per-thread floor: the longest thread's FLOPs, its instructions (FLOPs / 2, an
     * unfused FLOP one: eval.h flop_slots_thread_max / 2), cycles an instruction. */
    double thread_flops_max, thread_instructions_max, thread_cycles_per_instruction;
    double t_thread, t_thread_lower;
    rc_chain_time chain;   /* all 0 without dependent loops */
    /* The grid's blocks at the rate the GPU starts them, across its SMs (arch.h
     * rc_block_rate_per_clock): blocks / (blocks_per_clock x SM clock). All 0 and NULL where
     * the generation has no measured rate. Not in t_lower: the rate was measured with blocks
     * that do work, and empty ones may start faster. */
    double blocks_per_clock, t_blocks;
    const char *blocks_source; /* static */
    double t_body_est, t_launch, t_estimate;
    double t_lower_compute, t_lower_memory, t_lower;
    rc_limiter limiter;
} rc_refined;


/* Bytes a thread keeps in flight: the memory statements of the one loop body (or the top
 * level) that moves the most per execution, with the loops nvcc unrolls in it once per
 * unrolled iteration (refine.c unrolled_trips), at most 64 bytes (4 accesses of 16 bytes). */
double rc_thread_bytes_in_flight(const rc_kernel *k, const rc_counts *c);

/* The same with the shared-memory accesses at their element's size, for L1 where shared
 * memory shares its pipeline (Volta on). */
double rc_thread_l1_bytes_in_flight(const rc_kernel *k, const rc_counts *c);

/* The dependent chain sets t_body_est (limiter latency): chain.time is the body's and longer
 * than the FLOPs' per-thread floor. */
bool rc_chain_bound(const rc_refined *r);

/* Whether precision p's FLOPs in dependent loops are charged below its rate (one instruction a
 * warp an arithmetic latency, no dual issue): the reports then name that rule. */
bool rc_dependent_flops_slower(const rc_refined *r, int p);

void rc_refine(const rc_gpu *gpu, const rc_kernel *k, const rc_counts *c,
               const rc_resources *res, const rc_precision_work *work,
               const rc_level_bytes *bytes, rc_refined *out);

#endif
