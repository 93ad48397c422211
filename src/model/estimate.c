/* estimate.c: see estimate.h. */
#include "model/estimate.h"

#include <math.h>

void rc_estimate_compute(const rc_gpu *gpu, int64_t flops, int64_t bytes,
                         rc_estimate *e)
{
    e->t_compute = (double)flops / gpu->peak_fp32;
    e->t_mem = (double)bytes / gpu->bandwidth;
    e->compute_bound = e->t_compute > e->t_mem;
    e->t_body = e->compute_bound ? e->t_compute : e->t_mem;
    e->t_launch = gpu->launch_latency;
    e->t_total = e->t_body + e->t_launch;
    e->ridge = gpu->peak_fp32 / gpu->bandwidth;
    if (bytes > 0)
        e->intensity = (double)flops / (double)bytes;
    else
        e->intensity = flops > 0 ? INFINITY : 0;
    e->perf_roof = e->t_body > 0 ? (double)flops / e->t_body : 0;
    e->perf_attained = e->t_total > 0 ? (double)flops / e->t_total : 0;
    e->launch_share = e->t_total > 0 ? e->t_launch / e->t_total : 0;
    e->launch_dominated = e->t_launch > e->t_body;
}
