/* eval.h: exact counts of a kernel's work over its whole launch.
 *
 * Pure computation: no I/O. The work model is run for every distinct
 * combination of the thread and block indices it reads (threadIdx.x, ...,
 * blockIdx.z); indices it never reads only multiply the counts. A loop whose
 * body does not read its variable is counted once and multiplied by its trip
 * count. So a model that reads only threadIdx.x over a grid of 65535 x 65535
 * blocks of 1024 threads runs 1024 times, not 4 x 10^12.
 */
#ifndef ROOFCAST_EVAL_H
#define ROOFCAST_EVAL_H

#include <stdbool.h>
#include <stdint.h>

#include "model/access.h"
#include "model/model.h"

/* How one work node was exercised. m0 counts executions of the node (for a
 * loop: entries into it; for a guard: evaluations); m1 counts what it
 * produced (loop: iterations; guard: times taken; flops: FLOPs; load,
 * store, traffic: bytes; let: 0). */
typedef struct {
    int64_t m0, m1;          /* over the whole launch */
    int64_t threads;         /* threads that reached the node */
    int64_t blocks;          /* blocks in which some thread reached it */
    int64_t thread_min, thread_max; /* m1 of one thread, over `threads` */
    int64_t block_min, block_max;   /* m1 of one block, over `blocks` */
    /* INSTRUCTIONS only (0 for other nodes): per warp, the most m1 of any of its lanes,
     * summed over the warps of the launch: the warp instructions a pipe serves, each for
     * all 32 lanes however many of them run it (warp_max.h). */
    int64_t warp_m1;
} rc_work_stats;

/* A count over the launch and its spread per active thread and block. */
typedef struct {
    int64_t total;
    int64_t thread_min, thread_max; /* over active threads */
    int64_t block_min, block_max;   /* over active blocks */
} rc_spread;

typedef struct {
    int64_t threads_launched, blocks_launched, threads_per_block;
    int64_t threads_active;   /* threads that do any counted work */
    int64_t blocks_active;    /* blocks with an active thread */
    int64_t blocks_working;   /* blocks with an active thread or an <instructions> that runs:
                               * the blocks that hold an SM (refine.c waves) */
    rc_spread active_per_block; /* active threads per active block */
    rc_spread flops;
    /* The most FLOPs of one active thread with each unfused one (<flops fused="false">)
     * counted twice: two a fused multiply-add instruction, as the per-thread floor issues
     * them (refine.c). Equal to flops.thread_max where every FLOP is fused. */
    int64_t flop_slots_thread_max;
    rc_spread bytes;          /* loaded + stored + traffic */
    int64_t bytes_loaded, bytes_stored, bytes_traffic;
    rc_work_stats *work;      /* kernel->nwork entries, by rc_work.index */
    int nwork;
    bool reads_index[RC_SLOT_FIRST_FREE]; /* which of the six indices the
                                             evaluation iterated over */
    /* Where the accesses go (access.h): counted for the model's basis
     * only (as_launched false); zero otherwise. */
    bool memory_counted;
    rc_access memory;
    int64_t thread_runs;      /* index combinations the model was run for */
    int64_t steps;            /* work nodes interpreted */
} rc_counts;

/* Why evaluation stopped. `node` is the work node at fault (NULL for a
 * failure of the whole model); when `expr` >= 0 the expression error is in
 * node->expr[expr] and `expr_error` says where; else `message` says why. */
typedef struct {
    const rc_work *node;
    int expr;
    rc_expr_error expr_error;
    char message[300];
} rc_eval_error;

/* Steps after which evaluation gives up (an input error, not a hang). A
 * step is a statement interpreted, an instruction of one of its expressions,
 * a loop iteration, or a node's bookkeeping for one index combination or
 * one block, so the limit bounds the time evaluation takes (a few seconds)
 * whatever the shape of the model; a model whose index combinations alone
 * would pass it is refused before it starts. */
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
/* Fuzzing builds (tests/fuzz): sanitizers make each step ~10 times slower,
 * and an input that takes seconds would be taken for a hang. */
#define RC_EVAL_STEP_LIMIT 10000000LL
#else
#define RC_EVAL_STEP_LIMIT 400000000LL
#endif

/* Counts `kernel`'s work over its launch, and without `as_launched` its
 * memory counts, by classes where they apply (docs/counting.md): the one
 * path for every caller, whatever the launch. With `as_launched`, guards marked
 * as assumptions are taken as always true, showing what the launch as
 * written does. Returns true and fills *counts (release it with
 * rc_counts_release), or false with *err filled. */
bool rc_evaluate(const rc_kernel *kernel, bool as_launched, rc_counts *counts,
                 rc_eval_error *err);

/* How rc_evaluate_with counts; rc_evaluate uses the defaults (all
 * false or NULL). */
typedef struct {
    /* Count every array's accesses by running every distinct warp, never
     * by classes (docs/counting.md): the reference the differential
     * tests hold the classes to. */
    bool enumerate;
    /* Told how an enumerated array's counting goes (access.h), so that a
     * long evaluation can show progress; may be NULL. */
    rc_access_progress progress;
    void *progress_ctx;
} rc_eval_options;

bool rc_evaluate_with(const rc_kernel *kernel, bool as_launched, const rc_eval_options *options,
                      rc_counts *counts, rc_eval_error *err);

/* Frees what rc_evaluate allocated in *counts (not counts itself). */
void rc_counts_release(rc_counts *counts);

#endif
