/* l1sim.h: how much of what a block reuses one SM's L1 still holds when it comes back for it,
 * found by running the SM's first wave of blocks through a model of its L1.
 *
 * The footprint rule of traffic.h (L1 keeps a block's reuse while all a block touches in the
 * whole launch fits its share of the L1) cannot tell a block that touches a lot but comes back
 * soon (a naive matrix multiply: each warp reads a sector of a row of A eight iterations in a
 * row, and the eight warps of a 16 x 16 block read the same sectors of B in one iteration) from
 * one that comes back after the L1 has turned over (one thread a row of a matrix-vector
 * product: the 32 lanes of every warp each hold a line of their own). What a cache keeps is set
 * by the distinct lines touched between two uses of a line, its reuse distance (C. Nugteren,
 * G.-J. van den Braak, H. Corporaal, H. Bal, "A detailed GPU cache model based on reuse
 * distance theory", HPCA 2014, who run each warp's accesses through a model of the L1 the same
 * way). So this runs it:
 *
 * - the blocks: those an SM holds at once (traffic.h's resident blocks), the first wave of SM
 *   0, taken to be blocks 0, S, 2S, ... of the grid in x-major order, S the GPU's SMs (the
 *   block scheduler hands out blocks round-robin over the SMs; assumed);
 * - the warps: every warp of those blocks, each its requests in program order (the walk of
 *   warp.h, all arrays at once), taking one request a turn, warp after warp (the schedulers'
 *   round-robin, assumed; latencies are not modelled);
 * - the L1: the GPU file's L1 size in 128-byte lines of four 32-byte sectors (rc_gpu.sm.l1),
 *   fully associative, the least recently used line evicted (NVIDIA publishes neither the
 *   associativity nor the replacement policy: assumed; gpu-benches' L1 sweeps keep part of a
 *   stream up to 1.2 to 2 times the L1's size, where this keeps none past it:
 *   docs/architectures.md, "What would change the model most", 13), a missed sector filled
 *   alone;
 * - what counts: loads and stores of the arrays L1 caches on the GPU (traffic.h: every global
 *   array from Volta on, only read-only ones where L1 caches only those); a store takes its
 *   line like a load (write-through, its line kept: assumed); atomics, done at L2, and shared
 *   arrays are not run. A sector a block touches for the first time is its own footprint
 *   (traffic.h's B), whether or not another block left it in L1; each later touch is reuse,
 *   and hit is the share of those the L1 still held.
 *
 * At most RC_L1SIM_SECTORS sector touches are recorded for the wave (split evenly among its
 * warps) and at most RC_L1SIM_STEPS lane-steps walked: a longer kernel is judged by the start
 * of each warp's stream (its loops run the same pattern on). Not run (simulated false, and
 * traffic.h's footprint rule applies) when the kernel has no such access, when the walk cannot
 * evaluate an index (the counts would have failed first), or when no reuse was seen in what
 * was run. */
#ifndef ROOFCAST_L1SIM_H
#define ROOFCAST_L1SIM_H

#include <stdbool.h>
#include <stdint.h>

#include "model/eval.h"
#include "model/model.h"

/* The budget: a run of 16,384 touches takes a few milliseconds for each kernel and GPU. The
 * validation kernels' shares are the same with 4 and 16 times as many touches, but for two
 * softmaxes whose rows come back later than that (docs/validation.md). */
#define RC_L1SIM_SECTORS (1 << 14)
#define RC_L1SIM_STEPS ((int64_t)1 << 20)

typedef struct {
    bool simulated;          /* the run saw reuse: hit holds */
    double hit;              /* reuse_hits / reuse */
    int64_t reuse, reuse_hits; /* sector touches that repeat a block's own, and those L1 held */
    int64_t touches;         /* sector touches run */
    int64_t blocks, warps;   /* of the wave run */
    int64_t lines;           /* the L1's lines */
    bool truncated;          /* some warp's stream was cut at its share of the budget */
} rc_l1_reuse;

/* Runs kernel k's first wave on one SM of GPU g (counts c give which arrays L1 caches and how
 * many blocks an SM holds). Fills *out; out->simulated false when it could not or saw no
 * reuse. Allocates only while it runs. */
void rc_l1_reuse_of(const rc_gpu *g, const rc_kernel *k, const rc_counts *c, rc_l1_reuse *out);

#endif
