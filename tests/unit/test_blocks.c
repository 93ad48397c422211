/* test_blocks.c: the rate at which a GPU starts blocks (arch.c rc_block_rate_per_clock,
 * cuda-stride-benchmark's saxpy-mono in blocks of 64 threads on a P100, a V100 and a GV100)
 * and the term it gives the refined estimate (refine.c), against hand-computed values. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include <cmocka.h>

#include "model/arch.h"
#include "refine_fixture.h"

/* 16,777,216 blocks of 64 threads in 31.2086 ms at 1189 MHz (P100), 28.5361 ms at 1245 MHz
 * (V100) and 27.1467 ms at 1327 MHz (GV100): 0.4521, 0.4722 and 0.4657 blocks a clock, taken
 * as 0.45 for 6.0 and 0.47 for 7.0. No other generation has a rate, and none is assumed. */
static void test_rate_by_generation(void **state)
{
    (void)state;
    assert_true(fabs(16777216 / 31.2086e-3 / 1189e6 - 0.4521) < 1e-4);
    assert_true(fabs(16777216 / 28.5361e-3 / 1245e6 - 0.4722) < 1e-4);
    assert_true(fabs(16777216 / 27.1467e-3 / 1327e6 - 0.4657) < 1e-4);
    const char *source;
    assert_close(rc_block_rate_per_clock("6.0", &source), 0.45);
    assert_non_null(strstr(source, "31.21 ms on a Tesla P100 PCIe at 1189 MHz"));
    assert_close(rc_block_rate_per_clock("7.0", &source), 0.47);
    assert_non_null(strstr(source, "27.15 ms on a Quadro GV100 at 1327 MHz"));
    static const char *const none[] = {"3.5", "3.7", "5.2", "6.1", "7.2", "7.5",
                                       "8.0", "8.6", "8.9", "9.0", "10.0"};
    for (size_t i = 0; i < sizeof none / sizeof *none; i++) {
        source = "set";
        assert_true(rc_block_rate_per_clock(none[i], &source) == 0);
        assert_null(source);
    }
    assert_true(rc_block_rate_per_clock(NULL, &source) == 0);
    assert_null(source);
}

/* 16,384 blocks of 64 threads, each thread 2 FLOPs (an FMA), on the fixture's 10 SMs at
 * 1 GHz and 10 TFLOP/s: 2,097,152 FLOPs take 0.2 µs there, while 16,384 blocks at 0.47 a clock
 * take 16,384 / 0.47 GHz = 34.859574468085106 µs (0.45 a clock on 6.0: 36.408888888888889 µs),
 * the longest term: t_estimate adds the fixture's 2 µs launch. On 7.5 there is no term. */
static void test_many_small_blocks(void **state)
{
    (void)state;
    rc_kernel *k = kernel_of("<launch grid=\"16384\" block=\"64\"/>", "<flops count=\"2\"/>");
    rc_refined r;
    rc_gpu *volta = gpu_cc_dram("7.0", "1 TB/s");
    refine_on(volta, k, (rc_resources){0}, &r);
    assert_close(r.blocks_per_clock, 0.47);
    assert_close(r.t_blocks, 34.859574468085106e-6);
    assert_true(r.t_compute[RC_PRECISION_FP32] < 1e-6);
    assert_int_equal(r.limiter, RC_LIMIT_BLOCKS);
    assert_string_equal(rc_limiter_name(r.limiter), "blocks");
    assert_close(r.t_body_est, 34.859574468085106e-6);
    assert_close(r.t_estimate, 36.859574468085106e-6);
    /* Not a bound no run can beat: t_lower leaves it out. */
    assert_true(r.t_lower < 2e-6);
    rc_gpu *pascal = gpu_cc_dram("6.0", "1 TB/s");
    refine_on(pascal, k, (rc_resources){0}, &r);
    assert_close(r.t_blocks, 36.408888888888889e-6);
    assert_int_equal(r.limiter, RC_LIMIT_BLOCKS);
    rc_gpu *turing = gpu_cc_dram("7.5", "1 TB/s");
    refine_on(turing, k, (rc_resources){0}, &r);
    assert_true(r.t_blocks == 0 && r.blocks_per_clock == 0);
    assert_null(r.blocks_source);
    assert_int_not_equal(r.limiter, RC_LIMIT_BLOCKS);
    rc_gpu_free(volta);
    rc_gpu_free(pascal);
    rc_gpu_free(turing);
    rc_kernel_free(k);
}

/* Blocks in which no thread works still start: 16,384 blocks of which the guard leaves 1,024
 * working take 16,384 / 0.47 GHz, not 1,024 / 0.47 GHz. */
static void test_idle_blocks_start(void **state)
{
    (void)state;
    rc_kernel *k = kernel_of(
        "<launch grid=\"16384\" block=\"64\"/>"
        "<array name=\"x\" type=\"float\" length=\"65536\"/>",
        "<let name=\"i\" value=\"blockIdx.x * blockDim.x + threadIdx.x\"/>"
        "<when test=\"i &lt; 65536\"><load array=\"x\" index=\"i\"/></when>");
    rc_gpu *volta = gpu_cc_dram("7.0", "1 TB/s");
    rc_refined r;
    refine_on(volta, k, (rc_resources){0}, &r);
    assert_int_equal(r.working_blocks, 1024);
    assert_close(r.t_blocks, 34.859574468085106e-6);
    assert_int_equal(r.limiter, RC_LIMIT_BLOCKS);
    rc_gpu_free(volta);
    rc_kernel_free(k);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rate_by_generation),
        cmocka_unit_test(test_many_small_blocks),
        cmocka_unit_test(test_idle_blocks_start),
    };
    return cmocka_run_group_tests(tests, setup_loader, teardown_loader);
}
