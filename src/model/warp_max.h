/* warp_max.h: warp-level executions of a statement, from boxes of a block's threads.
 *
 * A warp issues an instruction for all its 32 lanes when any of them runs it: a warp whose
 * lanes split at a guard (16 lanes taking it) still takes the whole pipe for each of the
 * guarded instructions. So what a pipe serves is, per warp, the most any lane of the warp
 * runs, summed over the warps. The evaluator (eval.c) hands the boxes of threads that run
 * alike, each with its per-thread count; this keeps, per warp of a block, the largest.
 * Pure computation. Private to src/model/.
 */
#ifndef ROOFCAST_WARP_MAX_H
#define ROOFCAST_WARP_MAX_H

#include <stdint.h>

/* The warps of a block: at most 1024 threads (the loader's limit) of 32. */
#define RC_WARP_MAX_WARPS 32

/* Raises max[w] to at least `value` for every warp w of a block of block[0] x block[1] x
 * block[2] threads (x fastest) that holds a thread of the box lo[a] .. hi[a]. Returns the
 * rows (runs of consecutive x) it went through, the work it did. */
int64_t rc_warp_max_box(int64_t *max, const int64_t block[3], const int64_t lo[3],
                        const int64_t hi[3], int64_t value);

#endif
