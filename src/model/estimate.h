/* estimate.h: the time model, for one kernel's counts on one GPU.
 *
 *   t_compute = FLOPs / peak_FP32      t_mem = bytes / bandwidth
 *   t_body    = max(t_compute, t_mem)  t_total = t_body + t_launch
 */
#ifndef ROOFCAST_ESTIMATE_H
#define ROOFCAST_ESTIMATE_H

#include <stdbool.h>
#include <stdint.h>

#include "model/model.h"

typedef struct {
    double t_compute, t_mem, t_body, t_launch, t_total; /* seconds */
    double intensity;     /* FLOP/byte; +inf when no bytes move but FLOPs do,
                             0 when there is no work */
    double ridge;         /* peak / bandwidth, FLOP/byte */
    double perf_roof;     /* FLOPs / t_body: what the roof allows (0 if no body) */
    double perf_attained; /* FLOPs / t_total: what one launch reaches */
    double launch_share;  /* t_launch / t_total */
    bool compute_bound;   /* t_compute > t_mem; ties count as memory bound */
    bool launch_dominated; /* t_launch > t_body */
} rc_estimate;

void rc_estimate_compute(const rc_gpu *gpu, int64_t flops, int64_t bytes,
                         rc_estimate *out);

#endif
