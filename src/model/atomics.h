/* atomics.h: global atomics that pile onto few lines of the L2.
 *
 * An atomic on global memory is done at the L2, by the slice that holds its line, one
 * operation after another for one address. How many operations a warp's request makes: one
 * per line it touches. The lanes of a warp that update one address are combined into one
 * operation: NVIDIA, "CUDA Pro Tip: Optimized Filtering with Warp-Aggregated Atomics"
 * (developer blog, updated November 2017: "The NVCC compiler now performs warp aggregation
 * for atomics automatically in many cases"), and the rate below cannot be reached otherwise.
 * The rate of one line, in operations per clock:
 *
 *   RC_ATOMIC_LINE_PER_CLOCK = 0.77: one address of an RTX 4090 (AD102) took 62e9 atomic adds
 *   a second from 15,000,000 threads of 32 adds each (PWhiddy/webgpu-atomics-benchmark at
 *   7af4d373, README and benchmark.js, MIT; timed with the host's clock around one dispatch,
 *   so the device's own rate is at least that): 15e6 / 32 warps x 32 requests = 15e6 warp
 *   requests in 15e6 x 32 / 62e9 = 7.74 ms, 1.94e9 a second, 0.77 a clock at the card's
 *   2520 MHz boost clock. 62e9 adds a second on one address would be 25 a clock one lane at a
 *   time: the lanes of a request are combined.
 *
 * The clock is the SM clock of the GPU file, and the figure is the RTX 4090's on every GPU:
 * assumed (no other GPU's rate on one address was found; docs/architectures.md).
 *
 * The term: for each global array that some thread updates with <atomic>, the (request, line)
 * pairs its stores and atomics make (rc_access_counts.store_line_bytes / 128), shared among
 * the distinct lines it touches (its footprint's bytes / 128, rounded up: as many as its
 * sectors fill), one line at a time at
 * the rate above. The hottest array sets the term. Spreading the pairs evenly over the lines
 * gives the least the busiest line can have, so the term errs fast where a few lines take
 * most updates. It needs no wave factor: a line serves its operations one after another
 * whichever blocks send them.
 */
#ifndef ROOFCAST_ATOMICS_H
#define ROOFCAST_ATOMICS_H

#include <stdbool.h>

#include "model/eval.h"
#include "model/model.h"

#define RC_ATOMIC_LINE_PER_CLOCK 0.77

/* Where the rate comes from, as the reports print it. */
extern const char rc_atomic_line_source[];

typedef struct {
    int array;          /* the hottest array's index in rc_kernel.arrays; -1: no global atomics */
    const char *name;   /* its name, borrowed from the kernel (valid while it is) */
    double operations;  /* its (request, line) pairs, of its <store>s too */
    bool with_stores;   /* the array also has plain <store>s: their pairs are in operations */
    double lines;       /* the distinct 128-byte lines it touches, at least 1 */
    double per_line;    /* operations / lines */
    double rate;        /* operations a line serves a second: RC_ATOMIC_LINE_PER_CLOCK x clock */
    double time;        /* s, per_line / rate; 0 without global atomics */
} rc_atomic_time;

/* The term of kernel `k` with counts `c` (memory counted per array) at SM clock `clock` (Hz). */
void rc_atomic_time_of(const rc_kernel *k, const rc_counts *c, double clock, rc_atomic_time *out);

#endif
