/* parallel.h: running independent jobs on worker threads, with progress
 * for people and time per stage for benchmarks.
 */
#ifndef ROOFCAST_PARALLEL_H
#define ROOFCAST_PARALLEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Job i of n, run by worker `worker` (0 <= worker < the number of
 * workers). Jobs run in any order; each must touch only its own results
 * and per-worker state. */
typedef void (*rc_job_fn)(void *ctx, size_t i, int worker);

/* What shows progress: on a terminal only, and not with --quiet. */
typedef struct rc_progress rc_progress;

/* Progress lines go to `stream` when it is a terminal and `enabled`; else
 * nothing is printed. Free with rc_progress_free, which clears the line. */
rc_progress *rc_progress_new(FILE *stream, bool enabled);
void rc_progress_free(rc_progress *p);

/* Runs fn(ctx, i, worker) for i in [0, n) on `workers` threads (1: in the
 * calling thread). `what` names the step in progress lines ("rendering");
 * p may be NULL. */
void rc_parallel_for(size_t n, int workers, rc_job_fn fn, void *ctx, rc_progress *p,
                     const char *what);

/* The number of processors online, at least 1. */
int rc_cpu_count(void);

/* ---- time per stage, for --timings ------------------------------------ */

/* ORDER RC_STAGE */
typedef enum {
    RC_STAGE_LOAD, RC_STAGE_EVALUATE, RC_STAGE_RESULTS, RC_STAGE_MD, RC_STAGE_HTML,
    RC_STAGE_SVG, RC_STAGE_PNG, RC_STAGE_PDF, RC_STAGE_OVERVIEWS, RC_STAGE_WRITE,
    RC_STAGE_COUNT
} rc_stage;

typedef struct rc_timings rc_timings;

rc_timings *rc_timings_new(void);
void rc_timings_free(rc_timings *t);

/* The CPU time of the calling thread, in seconds; a stage's time is the
 * difference of two readings, added with rc_timings_add (thread-safe). */
double rc_thread_seconds(void);
void rc_timings_add(rc_timings *t, rc_stage stage, double seconds);

/* Prints the table: per stage, CPU seconds in all and milliseconds per
 * kernel; then wall time and peak memory, and the process's CPU time as
 * user and system time. */
void rc_timings_print(const rc_timings *t, FILE *f, size_t kernels, double wall_seconds);

#endif
