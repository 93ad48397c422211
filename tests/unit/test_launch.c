/* test_launch.c: whether a launch can run on a GPU at all (results/launch.c), and the
 * reason it gives, against hand-computed cases of the occupancy rules (refine.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "input/load.h"
#include "results/launch.h"
#include "util/diag.h"

static rc_diag *diag;
static rc_loader *loader;

static int setup(void **state)
{
    (void)state;
    diag = rc_diag_new(stderr, 1);
    loader = rc_loader_new(diag);
    return loader ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    rc_loader_free(loader);
    rc_diag_free(diag);
    return 0;
}

/* A GPU of compute capability `cc` with the programming guide's limits (arch.c). */
static rc_gpu *gpu_cc(const char *cc)
{
    char xml[512];
    snprintf(xml, sizeof xml,
             "<gpu id=\"g\" name=\"Test GPU\"><architecture>A</architecture>"
             "<compute-capability>%s</compute-capability><sms>10</sms>"
             "<peak precision=\"fp32\">10 TFLOP/s</peak><clock kind=\"boost\">1 GHz</clock>"
             "<bandwidth>120 GB/s</bandwidth><source>test</source></gpu>", cc);
    rc_gpu *g = rc_load_gpu_memory(loader, "gpu.xml", xml, strlen(xml), diag);
    assert_non_null(g);
    return g;
}

static rc_kernel *kernel(const char *block, const char *resources)
{
    char xml[1024];
    snprintf(xml, sizeof xml,
             "<kernel id=\"k\" name=\"k\"><summary>s</summary><source language=\"cuda\">x</source>"
             "<launch grid=\"1,1,1\" block=\"%s\"/>%s<work><flops count=\"1\"/></work></kernel>",
             block, resources);
    rc_kernel *k = rc_load_kernel_memory(loader, "k.xml", xml, strlen(xml), diag);
    assert_non_null(k);
    return k;
}

/* Checks kernel (block, resources) on compute capability cc: fits, or not with `why`. */
static void check(const char *cc, const char *block, const char *resources, const char *why)
{
    rc_gpu *g = gpu_cc(cc);
    rc_kernel *k = kernel(block, resources);
    char got[300] = "";
    bool fits = rc_launch_fits(g, k, got, sizeof got);
    if (why) {
        assert_false(fits);
        assert_string_equal(got, why);
    } else {
        assert_true(fits);
    }
    rc_kernel_free(k);
    rc_gpu_free(g);
}

/* 1,024 threads x 64 registers = 65,536, the whole file: one block fits. One more register
 * a thread (65 x 32 = 2,080 a warp, 2,304 in units of 256) does not. */
static void test_fits(void **state)
{
    (void)state;
    check("9.0", "1024,1,1", "<resources registers=\"64\"/>", NULL);
    check("9.0", "256,1,1", "", NULL);
    check("8.9", "128,1,1", "<resources shared-bytes=\"101376\"/>", NULL); /* 99 KiB */
}

/* The case: 1,024 x 255 = 261,120 registers, the file holds 65,536. */
static void test_registers(void **state)
{
    (void)state;
    check("9.0", "1024,1,1", "<resources registers=\"255\"/>",
          "1,024 threads x 255 registers need 261,120 of 65,536");
    check("9.0", "32,1,1", "<resources registers=\"256\"/>",
          "256 registers per thread exceed the GPU's 255");
}

/* Within the file in all (800 x 80 = 64,000 of 65,536), but 80 x 32 = 2,560 registers a warp
 * leave 6 warps in each quarter of 16,384: 24 warps, and the block has 25. */
static void test_register_quarters(void **state)
{
    (void)state;
    check("9.0", "800,1,1", "<resources registers=\"80\"/>",
          "800 threads x 80 registers: 25 warps of 2,560 registers each (in units of 256) do not "
          "fit the register file's 4 quarters of 16,384 (6 warps each)");
}

/* 8.9: at most 99 KiB (101,376 B) a block. */
static void test_shared(void **state)
{
    (void)state;
    check("8.9", "128,1,1", "<resources shared-bytes=\"101377\"/>",
          "101,377 bytes of shared memory per block exceed the GPU's 101,376 per block");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fits),
        cmocka_unit_test(test_registers),
        cmocka_unit_test(test_register_quarters),
        cmocka_unit_test(test_shared),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
