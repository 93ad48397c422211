/* test_reference.c: the four reference kernels on the five reference GPUs
 * give exactly the counts of ../shared/seeds/README.md, and times equal to
 * the formulas applied to them (relative 1e-9). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/diag.h"
#include "model/estimate.h"
#include "model/eval.h"
#include "input/load.h"

#include "loader_fixture.h"

/* The tests run from the source directory (tests/CMakeLists.txt). */
static rc_kernel *load_kernel(const char *id)
{
    char path[256];
    snprintf(path, sizeof path, "kernels/%s.xml", id);
    rc_kernel *k = rc_load_kernel(loader, path, diag);
    assert_non_null(k);
    return k;
}

static rc_gpu *load_gpu(const char *id)
{
    char path[256];
    snprintf(path, sizeof path, "specs/%s.xml", id);
    rc_gpu *g = rc_load_gpu(loader, path, diag);
    assert_non_null(g);
    return g;
}

static void assert_close(double got, double want)
{
    if (fabs(got - want) > 1e-9 * fabs(want)) {
        fprintf(stderr, "got %.17g, want %.17g\n", got, want);
        fail();
    }
}

/* Peak FP32 and bandwidth of the five GPUs, as the seeds give them. */
static const struct {
    const char *id;
    double peak, bandwidth;
} gpus[] = {
    {"titan-black", 5.12e12, 336e9},  {"titan-x", 6.14e12, 336.5e9},
    {"titan-v", 14.9e12, 652.8e9},    {"rtx-2080-ti", 13.45e12, 616e9},
    {"rtx-4070", 29e12, 504e9},
};

/* The seeds' totals and their t_total table (us, 3 decimals). */
static const struct {
    const char *id;
    int64_t flops, bytes;
    double t_total_us[5];
} kernels[] = {
    {"maximum_kernel", 240000, 640000, {6.905, 6.902, 5.980, 6.039, 6.270}},
    {"gpuMeans", 13725, 20300, {5.060, 5.060, 5.031, 5.033, 5.040}},
    {"gpuKendall", 1237500, 1980000, {10.893, 10.884, 8.033, 8.214, 8.929}},
    {"getRestricted", 6912000, 31824000, {99.714, 99.574, 53.750, 56.662, 68.143}},
};

static void test_counts_and_times(void **state)
{
    (void)state;
    for (size_t g = 0; g < 5; g++) {
        rc_gpu *gpu = load_gpu(gpus[g].id);
        assert_true(gpu->peak_fp32 == gpus[g].peak);
        assert_true(gpu->bandwidth == gpus[g].bandwidth);
        assert_true(gpu->launch_latency == 5e-6);
        for (size_t i = 0; i < 4; i++) {
            rc_kernel *k = load_kernel(kernels[i].id);
            rc_counts c;
            rc_eval_error err;
            assert_true(rc_evaluate(k, false, &c, &err));
            assert_int_equal(c.flops.total, kernels[i].flops);
            assert_int_equal(c.bytes.total, kernels[i].bytes);
            rc_estimate e;
            rc_estimate_compute(gpu, c.flops.total, c.bytes.total, &e);
            double tc = (double)kernels[i].flops / gpus[g].peak;
            double tm = (double)kernels[i].bytes / gpus[g].bandwidth;
            assert_close(e.t_compute, tc);
            assert_close(e.t_mem, tm);
            assert_close(e.t_body, fmax(tc, tm));
            assert_close(e.t_total, fmax(tc, tm) + 5e-6);
            /* and the seeds' table, to its 3 decimals */
            assert_true(fabs(e.t_total * 1e6 - kernels[i].t_total_us[g]) <= 0.0005 + 1e-12);
            assert_false(e.compute_bound);
            rc_counts_release(&c);
            rc_kernel_free(k);
        }
        rc_gpu_free(gpu);
    }
}

/* The counts each reference report derives along the way. */
static void test_intermediate_counts(void **state)
{
    (void)state;
    rc_counts c;
    rc_eval_error err;

    rc_kernel *k = load_kernel("maximum_kernel");
    assert_true(rc_evaluate(k, false, &c, &err));
    assert_int_equal(c.work[0].m1, 80000); /* iterations */
    assert_int_equal(c.work[0].block_max, 3200);
    rc_counts_release(&c);
    rc_kernel_free(k);

    k = load_kernel("gpuMeans");
    assert_true(rc_evaluate(k, false, &c, &err));
    assert_int_equal(c.work[2].block_min, 100); /* the dim loop, per block */
    assert_int_equal(c.work[2].block_max, 100);
    assert_int_equal(c.flops.block_min, 549);
    assert_int_equal(c.flops.block_max, 549);
    assert_int_equal(c.bytes.block_max, 812);
    assert_int_equal(c.threads_active, 400);
    rc_counts_release(&c);
    rc_kernel_free(k);

    k = load_kernel("gpuKendall");
    assert_true(rc_evaluate(k, false, &c, &err));
    assert_int_equal(c.work[2].block_min, 4950); /* pairs per block */
    assert_int_equal(c.work[2].m1, 123750);
    rc_counts_release(&c);
    rc_kernel_free(k);

    /* getRestricted: 160 as the report counts, 800 as launched. */
    k = load_kernel("getRestricted");
    assert_true(rc_evaluate(k, false, &c, &err));
    assert_int_equal(c.threads_active, 160);
    assert_int_equal(c.flops.thread_max, 43200);
    assert_int_equal(c.bytes.thread_max, 198900);
    rc_counts_release(&c);
    assert_true(rc_evaluate(k, true, &c, &err));
    assert_int_equal(c.threads_active, 800);
    assert_int_equal(c.flops.total, 800 * 43200LL);
    rc_counts_release(&c);
    rc_kernel_free(k);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_counts_and_times),
        cmocka_unit_test(test_intermediate_counts),
    };
    return cmocka_run_group_tests(tests, setup_loader_stderr, teardown_loader);
}
