/* arch.h: what is known of a GPU architecture when its file does not say.
 *
 * The per-SM limits of each compute capability are published in NVIDIA's CUDA C++
 * Programming Guide (table "Technical Specifications per Compute Capability", and the
 * sections on each compute capability for the L1 and shared-memory sizes); the allocation
 * granularities are those of NVIDIA's CUDA Occupancy Calculator (cuda_occupancy.h).
 * A GPU file may give any of them itself in <sm>; the rest come from this table, marked
 * "published" with the guide as source. For a compute capability the table does not hold,
 * the figures of the nearest older one are used and marked "assumed".
 *
 * Missing microbenchmark figures (sustained bandwidth at each level, latencies, launch
 * costs) are filled with documented architecture defaults, always marked "assumed": see
 * rc_gpu_complete in arch.c for each rule and its source.
 */
#ifndef ROOFCAST_ARCH_H
#define ROOFCAST_ARCH_H

#include <stdbool.h>

#include "model/banks.h"
#include "model/model.h"

/* The per-SM figures of one compute capability (sizes in bytes). */
typedef struct {
    const char *cc;  /* "9.0" */
    int warp_size, threads, blocks, registers, registers_per_thread, register_unit;
    int shared, shared_per_block, shared_unit, shared_reserved, l1, l1_shared;
    int fp32_lanes;  /* FP32 FMA units per SM: 2 FLOPs per lane and clock */
} rc_arch;

/* The table's entry for `cc` ("8.9"); *exact is false when `cc` is NULL or
 * not in the table and the nearest older entry (or the oldest one) stands in. */
const rc_arch *rc_arch_find(const char *cc, bool *exact);

/* How a generation's SM serves shared memory, caches global loads and issues instructions:
 * documented facts, each row with its sources (docs/architectures.md gives the reading of
 * each). Nothing here is fitted to a kernel time. */
typedef struct {
    int from_cc;                 /* major * 100 + minor: applies from this compute capability on */
    const char *generation;      /* "Kepler" */
    rc_bank_mode banks;          /* how a request's bank conflicts are counted (banks.h) */
    int bank_bytes;              /* bytes a bank serves a clock: 32 banks of this width */
    /* Shared-memory passes an SM serves a clock: one, but 0.5 on Turing, whose banks take two
     * clocks a pass; from Volta on the L1's data stage serves global loads' bank passes at the
     * same rate (refine.c l1_wavefront_bytes). */
    double wavefronts_per_clock;
    /* Clocks a warp's shared-memory request holds the SM's load/store units: 32 lanes over its
     * units (1 with 32 an SM; 2 with 16: Turing, GA10x, Ada, whose 32-bit words therefore move
     * 64 B a clock however the banks fall). */
    double clocks_per_request;
    bool clocks_per_request_assumed; /* not measured on this generation */
    /* Shared-memory passes and global requests' L1 wavefronts take turns in one pipeline
     * (Volta on: one unified L1/shared data array returning 128 B a clock); before Volta
     * shared memory has its own (Maxwell, Pascal: dedicated; Kepler: global loads do not go
     * through L1 by default). */
    bool shared_joins_l1;
    /* Where shared_joins_l1: a global request's L1 clocks by its lines and bank passes
     * (banks.h rc_l1_request_quarters) were not measured on this generation (gpu-benches'
     * gpu-strides covers GA100, GA102 and GH100). */
    bool l1_requests_assumed;
    /* Global loads cached in L1 by default, so that a block's reuse can hit there. */
    bool l1_caches_global;
    int schedulers;              /* warp schedulers per SM */
    int issue_per_scheduler;     /* instructions each issues per clock (Kepler: 2, independent) */
    const char *source;
    /* Shared-memory passes one warp's requests get a clock when no other warp's fill the
     * SM's (0: not known, no limit): a conflicted request's passes follow each other two
     * clocks apart, where two warps or more reach wavefronts_per_clock (arch.c). */
    double warp_passes_per_clock;
    bool warp_passes_assumed; /* not measured on this generation */
} rc_sm_pipes;

/* The row for compute capability `cc`: the nearest older one (the oldest for a capability
 * older than the table's; the newest, Volta's and later rules, when `cc` is NULL). */
const rc_sm_pipes *rc_sm_pipes_for(const char *cc);

/* Results per clock per SM of each arithmetic pipe (rc_pipe) on one compute capability: the
 * CUDA C++ Programming Guide's table "Throughput of Native Arithmetic Instructions (Number of
 * Results per Clock Cycle per Multiprocessor)". A warp instruction is 32 results. A figure no
 * edition of the table found gives is assumed (assumed[pipe]) and says why in `source`. */
typedef struct {
    int from_cc;                  /* major * 100 + minor: applies from this one on */
    const char *columns;          /* the table's columns the row reads: "5.0, 5.2" */
    double per_clock[RC_PIPES];   /* by rc_pipe */
    bool assumed[RC_PIPES];
    const char *source;
    /* Special functions and "all other" conversions take one unit, the XU (Volta on: arch.c
     * says where that is read), so their terms add. */
    bool xu_shared;
} rc_pipe_rates;

/* The row for compute capability `cc`: the nearest older one (the oldest for an older
 * capability, the newest when `cc` is NULL); *exact false when it is of another major
 * version (a column covers the minor versions after it, as "7.x" does). */
const rc_pipe_rates *rc_pipe_rates_for(const char *cc, bool *exact);

/* The arithmetic latency, in cycles, of compute capability `cc` ("7.0"; NULL or unknown:
 * the 7.x figure, assumed), with *assumed and *source (static) set: what a dependent
 * instruction waits for its operand, a dependent FMA's as Arafa et al. measure it (chain.h). */
double rc_arith_latency_cycles(const char *cc, bool *assumed, const char **source);

/* The (request, line) pairs of two or more addresses that one L2 line serves a clock of the
 * SM clock, on compute capability `cc` (NULL or unknown: Turing's, assumed), with *assumed and
 * *source set (atomics.h). */
double rc_atomic_multiword_per_clock(const char *cc, bool *assumed, const char **source);

/* The updates of one address a line serves a clock, lane by lane, where a warp's lanes cannot
 * be combined, for adds of integers (`integer`) or of floats on compute capability `cc` (NULL
 * or unknown: the latest generation's, assumed), with *assumed and *source set (atomics.h). */
double rc_atomic_lane_per_clock(const char *cc, bool integer, bool *assumed, const char **source);

/* The share of the L2 (0 to 1) that keeps a launch's data between back-to-back launches on
 * compute capability `cc` (NULL or unknown: three quarters, assumed), with *assumed and
 * *source (static) set; arch.c gives the microbenchmarks. */
double rc_l2_resident_share(const char *cc, bool *assumed, const char **source);

/* What the L2 spends, in bytes at its rate, on a 128-byte line a store or atomic request writes
 * in part, if that is more than the request's sectors there, on compute capability `cc` (NULL
 * or unknown: GH100's, assumed), with *assumed and *source set (refine.c). */
double rc_part_line_bytes(const char *cc, bool *assumed, const char **source);

/* The bytes DRAM moves for each 32-byte sector the L2 misses whose 64-byte half-line the
 * launch touches nowhere else: 64 (the pair's other sector comes with it) or 32. Measured on
 * Turing, assumed elsewhere; *assumed and *source say which. */
double rc_dram_fetch_bytes(const char *cc, bool *assumed, const char **source);

/* The cycles one step between two __syncthreads() takes a block of `warps` warps on compute
 * capability `cc` (NULL or unknown: the V100's, assumed), with *assumed and *source (static)
 * set: one thread's dependent shared load, add and store, then the barrier, as a
 * microbenchmark times it (arch.c); a base and about two cycles for each warp the barrier
 * waits for. */
double rc_barrier_step_cycles(const char *cc, double warps, bool *assumed, const char **source);

/* The blocks a GPU of compute capability `cc` starts a clock of its SM clock, across all its
 * SMs, with *source (static) set to the microbenchmark; 0 and NULL where none was found (only
 * 6.0 and 7.0 have one, measured; arch.c says why no other generation assumes it). */
double rc_block_rate_per_clock(const char *cc, const char **source);

/* Fills every figure of gpu->sm and gpu->rates that the file left unset
 * (value 0 and no source), each with its origin and source, and checks
 * what the figures must satisfy together. Returns false, with a message in
 * err[errlen], when they contradict each other or memory runs out. */
bool rc_gpu_complete(rc_gpu *gpu, char *err, size_t errlen);

/* Frees the strings of one figure and clears it. */
void rc_gpu_figure_clear(rc_gpu_figure *f);

/* The names of rc_origin, as results.xml writes them. ORDER RC_ORIGIN */
const char *rc_origin_name(rc_origin origin);

#endif
