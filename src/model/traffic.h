/* traffic.h: the bytes each level of the memory hierarchy moves, for one
 * kernel's memory counts on one GPU. A pure function of the counts
 * (access.h) and the GPU's cache sizes; README "Memory traffic by level".
 *
 *   L1 (and shared memory): sector_bytes + 128 x shared_wavefronts
 *   L2:   l2 = B + (S - B) x (1 - h)
 *         S: sector_bytes; B: block_sector_bytes (each block's distinct
 *         sectors, summed); h: the share of the rest (what blocks reuse)
 *         that a run of one SM's L1 finds still there (l1sim.h), or where
 *         that did not run, h = min(1, C_block / F_block), F_block the most
 *         one block touches and C_block the L1 of an SM shared by the
 *         blocks resident on it. Where L1 does not
 *         cache global loads by default (Kepler, Maxwell; arch.h rc_sm_pipes), only
 *         read-only arrays keep their reuse: read-only-path="yes", or, not said, an
 *         array the kernel never writes (assumed const __restrict__); the others'
 *         sectors all go to L2
 *   DRAM: dram = P + R + (l2 - W) x (1 - f) x P / W, f = min(1, L2 size / P)
 *         W: footprint_bytes; P: what DRAM moves to bring it in, W where it
 *         fetches 32 bytes a sector, else the sector pairs (64-byte half-lines)
 *         of the arrays read or updated and the sectors of those only written
 *         (traffic.c fetched_bytes); R: rewritten_bytes, the sectors both read
 *         and written, which the L2 writes back after reading them in
 */
#ifndef ROOFCAST_TRAFFIC_H
#define ROOFCAST_TRAFFIC_H

#include <stdbool.h>

#include "model/eval.h"
#include "model/l1sim.h"
#include "model/model.h"

typedef struct {
    double l1_bytes, l2_bytes, dram_bytes;
    double l1_per_block;     /* C_block, bytes */
    double resident_blocks;  /* per SM, sharing its L1 */
    double l1_hit;           /* h */
    bool l1_simulated;       /* h is the run of one SM's L1 (l1sim.h), not C_block / F_block */
    /* The share of the launch's reuse (S - B over every array) that L1 keeps: h, less where
     * arrays bypass L1 (written ones, or read-only-path="no", on GPUs whose L1 caches only
     * read-only data); exactly h when no array bypasses L1 with reuse of its own. What the
     * reports call "L1 keeps". */
    double l1_kept;
    /* Whether l1_kept is below h: some array with reuse bypasses a read-only L1. Set from the
     * arrays, not by comparing the two (rounding makes (S - B) x h / (S - B) differ from h). */
    bool l1_reuse_bypassed;
    double l2_fit;           /* f */
    double dram_fetched;     /* P */
    bool dram_fetch_assumed; /* the generation's fetch size is assumed (arch.c) */
    const char *dram_fetch_source; /* static */
    double l1_bandwidth, l2_bandwidth, dram_bandwidth; /* B/s */
    double t_l1, t_l2, t_dram; /* s: each level's bytes at its bandwidth */
    double intensity_l1, intensity_l2, intensity_dram; /* FLOP/byte; 0 without bytes */
} rc_traffic;

/* `sim` (may be NULL) is the kernel's run through the GPU's L1 (l1sim.h): when it saw reuse,
 * its share kept is h; else h is the footprint rule's. */
void rc_traffic_compute(const rc_gpu *gpu, const rc_counts *counts, const rc_l1_reuse *sim,
                        rc_traffic *out);

/* Blocks resident on an SM and sharing its L1: the launch's blocks over the SMs, at most what
 * the SM's threads and blocks allow. At least 1. */
double rc_traffic_resident_blocks(const rc_gpu *gpu, const rc_counts *counts);

/* Whether L1 keeps the array's sectors on this GPU (every global array where L1 caches global
 * loads, else only read-only ones; see traffic.c). */
bool rc_traffic_l1_caches(const rc_gpu *gpu, const rc_access_counts *array);

/* Whether an array is read-only to the compiler: its read-only-path is not "no" and the launch
 * never stores to it or updates it atomically. Its loads may take the read-only path, and no
 * store of the kernel may write what they read (refine.c, loads_wait_for_stores). */
bool rc_traffic_read_only(const rc_access_counts *array);

#endif
