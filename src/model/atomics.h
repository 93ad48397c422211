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
 * assumed (no other GPU's rate of combined requests was found; docs/architectures.md).
 *
 * Lanes with values of their own (<atomic operand="per-lane">, such as atomicAdd(&sum, x[i])),
 * or on an address that comes from data, cannot be combined: the compiler's aggregation needs
 * one value in every lane and an address it can see is one. Their updates of one address
 * follow one another. ptheywood/atomicAddBench (results at 3ea46219, kernel at b20e3e2b;
 * microbench.csv) times 65,536 threads adding 16 floats each, every lane its own, to one
 * address: 1,048,576 updates in 3.76 ms on a Tesla K80, 3.58 ms on a GTX TITAN X, 2.11 ms on
 * a TITAN X (Pascal), 2.78 ms on a TITAN V, which at their boost clocks (875, 1075, 1531,
 * 1455 MHz) is 0.32, 0.27, 0.33 and 0.26 float adds a clock (later generations take the
 * TITAN V's, assumed). Integer adds run about four times as fast: R100001's NvBench "Simple
 * Histogram" (every lane of 2^26 on one bin, the address from data) gives 1.12 a clock on
 * Turing and 1.10 on GA10x; earlier generations take their float rate for integers, assumed
 * (rc_atomic_lane_per_clock in arch.c; the array's element type chooses). So a request makes
 * one operation per line at the rate above, and each further update of its busiest address
 * (rc_access_counts.atomic_lane_extra) takes 1 / (updates a clock) more clocks of that
 * line.
 *
 * A request whose lanes update two or more addresses of one line (a block adding its bins to
 * the global ones, 32 words a request; random bins, a few lanes a line) is not one operation:
 * such a pair holds its line 16 to 19 clocks, whatever its lanes, where a one-address pair
 * holds it 1.3. Published few-lines rates give it per generation (rc_atomic_multiword_per_clock
 * in arch.c: 0.054 a clock on Turing and GA10x, 0.0605 on Hopper, others assumed), and
 * rc_access_counts.atomic_multiword counts those pairs. A request of one address per line,
 * with lanes that combine, keeps the rate above.
 *
 * The term: for each global array that some thread updates with <atomic>, the (request, line)
 * pairs its stores and atomics make (rc_access_counts.store_line_bytes / 128), shared among
 * the distinct lines it touches (its footprint's bytes / 128, rounded up: as many as its
 * sectors fill), one line at a time at
 * the rates above. The array that takes longest sets the term. Spreading the pairs evenly over the lines
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
    double lane_extra;  /* its per-lane updates beyond each request's first, on one address */
    double lane_per_clock;   /* updates of one address a line serves a clock, lane by lane */
    const char *lane_source; /* static: where lane_per_clock comes from */
    double multiword;        /* its atomic pairs that update two or more addresses of a line */
    double multi_per_clock;  /* such pairs a line serves a clock */
    bool multi_assumed;      /* multi_per_clock is another generation's */
    const char *multi_source; /* static: where multi_per_clock comes from */
    bool assumed;            /* some rate the time uses is assumed: the one-address pairs' (on
                                every GPU), the lane rate past Volta, another generation's
                                multi_per_clock */
    const char *name;   /* its name, borrowed from the kernel (valid while it is) */
    double operations;  /* its (request, line) pairs, of its <store>s too */
    bool with_stores;   /* the array also has plain <store>s: their pairs are in operations */
    double lines;       /* the distinct 128-byte lines it touches, at least 1 */
    double per_line;    /* operations / lines */
    double rate;        /* operations a line serves a second: per_line / time (the combined
                           requests' RC_ATOMIC_LINE_PER_CLOCK x clock without per-lane updates) */
    double time;        /* s, ((operations - lane_extra - multiword) / RC_ATOMIC_LINE_PER_CLOCK +
                           multiword / multi_per_clock + lane_extra / lane_per_clock) / lines /
                           clock; 0 without global atomics */
} rc_atomic_time;

/* The term of kernel `k` with counts `c` (memory counted per array) on a GPU of compute
 * capability `cc` (may be NULL) at SM clock `clock` (Hz). */
void rc_atomic_time_of(const rc_kernel *k, const rc_counts *c, const char *cc, double clock,
                       rc_atomic_time *out);

#endif
