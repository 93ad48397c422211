/* refine_fixture.h: what the tests of the execution model share, over loader_fixture.h: an
 * exact comparison of computed times, a kernel written inline, and the pipeline from a kernel
 * and a GPU to the refined estimate (counts, work per precision, bytes per level), as
 * roofcast runs it. Include after cmocka.h. */
#ifndef ROOFCAST_TEST_REFINE_FIXTURE_H
#define ROOFCAST_TEST_REFINE_FIXTURE_H

#include <stdio.h>
#include <string.h>

#include "loader_fixture.h"
#include "model/eval.h"
#include "model/refine.h"

/* got equals want to 1e-9 of want: the hand computations are written to full precision. */
static inline void assert_close(double got, double want)
{
    double d = got > want ? got - want : want - got;
    if (!(d <= 1e-9 * (want > 0 ? want : -want)))
        fail_msg("got %.17g, want %.17g", got, want);
}

/* A kernel with this <launch> (and any arrays or params before the work) and this <work>;
 * the caller frees it. */
static inline rc_kernel *kernel_of(const char *launch, const char *work)
{
    char xml[2048];
    snprintf(xml, sizeof xml,
             "<kernel id=\"k\" name=\"k\"><summary>s</summary>"
             "<source language=\"cuda\">x</source>%s<work>%s</work></kernel>", launch, work);
    rc_kernel *k = rc_load_kernel_memory(loader, "k.xml", xml, strlen(xml), diag);
    assert_non_null(k);
    return k;
}

/* A GPU of compute capability `cc` with the programming guide's limits, its DRAM sustaining
 * `dram` (as a GPU file writes it). */
static inline rc_gpu *gpu_cc_dram(const char *cc, const char *dram)
{
    char xml[1024];
    snprintf(xml, sizeof xml,
             "<gpu id=\"g\" name=\"G\"><architecture>A</architecture>"
             "<compute-capability>%s</compute-capability><sms>10</sms>"
             "<peak precision=\"fp32\">10 TFLOP/s</peak><clock kind=\"boost\">1 GHz</clock>"
             "<bandwidth>120 GB/s</bandwidth><source>test</source>"
             "<measured>"
             "<bandwidth level=\"dram\" origin=\"measured\" source=\"t\">%s</bandwidth>"
             "<bandwidth level=\"l2\" origin=\"measured\" source=\"t\">1 TB/s</bandwidth>"
             "<bandwidth level=\"l1\" origin=\"measured\" source=\"t\">10 TB/s</bandwidth>"
             "<latency level=\"dram\" origin=\"measured\" source=\"t\">1000 cycles</latency>"
             "<latency level=\"l2\" origin=\"measured\" source=\"t\">200 cycles</latency>"
             "<latency level=\"l1\" origin=\"measured\" source=\"t\">30 cycles</latency>"
             "<launch kind=\"back-to-back\" origin=\"measured\" source=\"t\">2 us</launch>"
             "</measured></gpu>", cc, dram);
    rc_gpu *g = rc_load_gpu_memory(loader, "gpu.xml", xml, strlen(xml), diag);
    assert_non_null(g);
    return g;
}

/* The refined estimate of kernel k on GPU g with resources res. */
static inline void refine_on(const rc_gpu *g, const rc_kernel *k, rc_resources res,
                             rc_refined *r)
{
    rc_counts c;
    rc_eval_error err;
    assert_true(rc_evaluate(k, false, &c, &err));
    rc_precision_work w;
    rc_precision_work_of(k, &c, &w);
    rc_l1_reuse sim;
    rc_l1_reuse_of(g, k, &c, &sim);
    rc_level_bytes lb;
    rc_level_bytes_of(g, &c, &sim, &lb);
    rc_refine(g, k, &c, &res, &w, &lb, r);
    rc_counts_release(&c);
}

/* The refined estimate of kernel k on a GPU file, with the kernel's own resources; the GPU's
 * SM clock in *clock (may be NULL). */
static inline void refine_on_gpu_file(const char *gpu, const rc_kernel *k, rc_refined *r,
                                      double *clock)
{
    rc_gpu *g = rc_load_gpu(loader, gpu, diag);
    assert_non_null(g);
    refine_on(g, k, rc_kernel_resources(k), r);
    if (clock)
        *clock = g->sm.clock.value;
    rc_gpu_free(g);
}

/* The refined estimate of a kernel file on a GPU file, as refine_on_gpu_file. The strings r
 * holds borrowed from the kernel (the atomics term's array name) do not outlive this call. */
static inline void refine_files(const char *gpu, const char *kernel, rc_refined *r,
                                double *clock)
{
    rc_kernel *k = rc_load_kernel(loader, kernel, diag);
    assert_non_null(k);
    refine_on_gpu_file(gpu, k, r, clock);
    rc_kernel_free(k);
}

#endif
