/* access.h: where a kernel's memory accesses go, counted exactly per warp.
 *
 * Definitions (README, "Memory counts"):
 * - A warp is 32 consecutive threads of a block, threads numbered x
 *   fastest, then y, then z.
 * - A request is one access element executed by the lanes of one warp with
 *   the same iteration numbers of every enclosing loop; lanes that skip it
 *   through a guard, or whose loop has ended, are inactive.
 * - Arrays start at 256-byte aligned addresses and do not overlap.
 * - Global memory (arrays in the global, constant and local spaces):
 *   requests; accessed_bytes (active lanes x element size); sector_bytes
 *   (per request, the distinct 32-byte sectors its lanes touch, summed,
 *   x 32); footprint_bytes (distinct sectors the whole launch touches, x 32);
 *   rewritten_bytes (of those, the ones it both reads and writes, x 32).
 * - Shared memory: shared_requests, and shared_wavefronts (per request,
 *   the largest number of distinct 4-byte words that fall into one of the
 *   32 banks; one word read by many lanes is a broadcast);
 *   shared_wavefronts_pair, the same by Kepler's rule, where a bank serves
 *   64 bits a clock (banks.h).
 * - Legacy accesses (<load count bytes>, <store>, <traffic>) carry no
 *   address: they count as perfectly coalesced and without reuse, so their
 *   accessed, sector and footprint bytes all equal their bytes and their
 *   requests are those bytes / 128, rounded up (a warp of 4-byte lanes).
 *
 * Pure computation, no I/O. See access.c for how it stays fast.
 */
#ifndef ROOFCAST_ACCESS_H
#define ROOFCAST_ACCESS_H

#include <stdbool.h>
#include <stdint.h>

#include "model/model.h"

typedef struct {
    int64_t requests, accessed_bytes, sector_bytes, footprint_bytes;
    /* Of the footprint, the sector pairs (a line's 64-byte halves) it touches, x 64: what DRAM
     * moves where it fetches a lone sector with its pair (refine.c, rc_dram_fetch_bytes). */
    int64_t footprint_pair_bytes;
    /* Over blocks, the distinct sectors each block touches, x 32, summed:
     * what reaches L2 when L1 keeps everything a block reuses. */
    int64_t block_sector_bytes;
    int64_t block_footprint_max; /* the most one block touches, bytes */
    /* Of the footprint, the sectors the launch both reads (loads, atomics) and writes (stores,
     * atomics), x 32: DRAM reads them in and writes them back (traffic.c). */
    int64_t rewritten_bytes;
    int64_t shared_requests, shared_wavefronts, shared_wavefronts_pair;
    /* Stores and atomics to global memory: per request, the distinct
     * 32-byte sectors (x 32) and the distinct 128-byte lines (x 128) its
     * lanes touch, summed. L1 writes them through to L2 request by request,
     * where each line a request touches takes a line's turn (refine.c). */
    int64_t store_sector_bytes, store_line_bytes;
    /* Of the lines store and atomic requests touch, those a request writes in part (some byte
     * of a sector it touches there left unwritten), by the sectors it touches in the line
     * (store_part_lines[k - 1]: k sectors), summed over requests. The L2 merges such a line's
     * bytes at a cost of its own (refine.c). */
    int64_t store_part_lines[4];
    /* What each global request holds L1 for, in quarter clocks, summed; with load/store units
     * that take a request in one clock (l1_quarters) and in two (l1_quarters_2), and in two
     * with banks that take two clocks a pass (l1_quarters_2x2: Turing). A load: the
     * largest of that floor, its 32-bit bank passes (as shared memory's, RC_BANKS_WORD) and
     * its distinct 128-byte lines + 2 (the tag stage takes about four a clock). A store or
     * atomic: the larger of the floor and its sectors. Calibrated on gpu-benches' gpu-strides
     * (refine.c l1_wavefront_bytes). */
    int64_t l1_quarters, l1_quarters_2, l1_quarters_2x2;
    /* Atomics with operand="per-lane": per request, the updates of its busiest address
     * beyond the first, summed. Those lanes cannot be combined and follow one another
     * (atomics.h). */
    int64_t atomic_lane_extra;
    /* Atomics: per request, the 128-byte lines in which its lanes update two or more
     * addresses, summed. Such a pair holds its line longer than a one-address one
     * (atomics.h). */
    int64_t atomic_multiword;
    /* The smallest and largest index the counted accesses used (max < min
     * when none), filled by the enumeration only (rc_eval_options.enumerate;
     * counting by classes leaves max < min): `roofcast import` derives an
     * array's length from them. */
    int64_t index_min, index_max;
    /* Not a count: the array's declaration (rc_array.read_only_path), for the L1 rule of
     * traffic.c; totals keep RC_READ_ONLY_PATH_ASSUMED. */
    rc_read_only_path read_only_path;
} rc_access_counts;

/* A box of blocks, lo[a] to hi[a] along each axis a: the evaluator cuts
 * the launch into boxes in each of which every thread makes the same
 * decisions (guards, trip counts) in every block (eval.c). */
typedef struct {
    int64_t lo[3], hi[3];
} rc_block_box;

/* The most boxes the evaluator hands on; a launch cut into more has its
 * arrays enumerated. */
#define RC_ACCESS_MAX_BOXES (1 << 16)

/* The memory counts of a launch. */
typedef struct {
    rc_access_counts total;    /* every array and the legacy accesses */
    rc_access_counts legacy;   /* the legacy accesses alone */
    rc_access_counts *arrays;  /* by rc_kernel.arrays; owned */
    int narrays;
    /* When the exact analysis of some array would pass the budget, that
     * array's counts come from a sample of its blocks (stated in the
     * report): blocks sampled out of the blocks that differ. */
    bool sampled;
    int64_t sample_blocks, sample_classes;
    uint32_t sample_seed;
    /* Empty when every array was counted by classes (docs/counting.md);
     * else the arrays that were enumerated and why ("'A': why; 'B':
     * why", ending "; and N more arrays" when they do not all fit). */
    char enumerated[480];
    int enumerated_more; /* arrays enumerated that enumerated[] does not name */
} rc_access;

/* Lane-steps (one lane through one statement) the exact analysis may
 * take before it falls back to a sample. */
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
#define RC_ACCESS_BUDGET 2000000LL
#else
#define RC_ACCESS_BUDGET 600000000LL
#endif

/* The seed of the sample, so that a sampled report can be repeated. */
#define RC_ACCESS_SEED 20261123u

/* Which accesses of an array a count runs: all of them, then, for an array the launch both
 * reads and writes, its reads alone and its writes alone (for rewritten_bytes). */
typedef enum { RC_ACCESS_PASS_ALL, RC_ACCESS_PASS_READS, RC_ACCESS_PASS_WRITES } rc_access_pass;

/* Told, while an array is enumerated, how many of its blocks that differ
 * are done, and in which pass: every 64 blocks and at the last (done == total). */
typedef void (*rc_access_progress)(void *ctx, const char *array, rc_access_pass pass,
                                   int64_t done, int64_t total);

/* Counts the accesses of `k`'s model (assumption guards as written).
 * From the evaluator: `executions` of each node over the launch (by
 * rc_work.index, to size the work), the bytes of the legacy accesses and
 * the most of them one block moves, and the boxes of blocks that
 * partition the launch (nboxes 0: not known). Each array is counted by
 * classes (classes.h) where they apply and `enumerate` is false, else by
 * running every distinct warp, telling `progress` (may be NULL) how far it
 * is. Returns true and fills *out (release with
 * rc_access_release), or false with the node at fault (or NULL) in *node
 * and the reason in message[n]. */
bool rc_access_analyse(const rc_kernel *k, const int64_t *executions, int64_t legacy_bytes,
                       int64_t legacy_block_max, const rc_block_box *boxes, size_t nboxes,
                       bool enumerate, rc_access_progress progress, void *progress_ctx,
                       rc_access *out, const rc_work **node, char *message, size_t n);

void rc_access_release(rc_access *a);

#endif
