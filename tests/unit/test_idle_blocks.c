/* test_idle_blocks.c: blocks whose threads all idle retire at once, so the waves and the
 * threads in flight are those of the blocks that work (refine.c, waves). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "refine_fixture.h"

/* C[8 i] = A[8 i] for 8 i < N, N = 1,048,576, launched as 4,096 blocks of 256 threads: the
 * 131,072 threads that work are the first 512 blocks, whole. On the RTX 2080 Ti (68 SMs, 1,024
 * threads an SM: 4 blocks) 272 blocks run at once: the 512 working blocks take 2 waves (272,
 * then 240), wave factor 2 x 272 / 512 = 1.0625, and all 272 x 256 = 69,632 threads resident at
 * once work. Counted over the 4,096 launched blocks it would be 16 waves of threads of which
 * one in eight works. */
static void test_strided_copy(void **state)
{
    (void)state;
    rc_refined r;
    refine_files("specs/rtx-2080-ti.xml",
                 "tests/validation/published/models/pub-strided_copy_8-N1048576-g4096.xml", &r, NULL);
    assert_int_equal(r.blocks, 4096);
    assert_int_equal(r.working_blocks, 512);
    assert_int_equal(r.occ.blocks_per_sm, 4);
    assert_int_equal(r.concurrent_blocks, 272);
    assert_int_equal(r.waves, 2);
    assert_int_equal(r.tail_blocks, 240);
    assert_close(r.wave_factor, 1.0625);
    assert_close(r.working_share, 1);
    assert_close(r.working_threads, 69632);
    assert_int_equal(r.active_sms, 68);
}

/* Every block works (the same copy launched as 512 blocks): the same waves. */
static void test_all_blocks_work(void **state)
{
    (void)state;
    rc_refined r;
    refine_files("specs/rtx-2080-ti.xml",
                 "tests/validation/published/models/pub-strided_copy_8-N1048576-g512.xml", &r, NULL);
    assert_int_equal(r.blocks, 512);
    assert_int_equal(r.working_blocks, 512);
    assert_int_equal(r.waves, 2);
    assert_close(r.wave_factor, 1.0625);
    assert_close(r.working_threads, 69632);
}

/* A block whose threads only run <instructions> still holds its SM: 1,024 blocks of 256
 * threads each run 100 special-function instructions, only block 0 loads. On the TITAN V (80
 * SMs, 8 blocks an SM: 640 at once, 16 results a clock an SM at 1455 MHz) all 1,024 blocks
 * take 2 waves, wave factor 2 x 640 / 1,024 = 1.25, and the 819,200 warp instructions take
 * 32 x 819,200 / (16 x 80 x 1.455e9) x 1.25 s. Counted as the one block that loads, the pipe
 * would run them all on one SM, 80 times as long. */
static void test_instructions_hold_sms(void **state)
{
    (void)state;
    rc_gpu *g = rc_load_gpu(loader, "specs/titan-v.xml", diag);
    assert_non_null(g);
    rc_kernel *k = kernel_of("<launch grid=\"1024\" block=\"256\"/>"
                             "<array name=\"a\" type=\"float\" length=\"256\"/>",
                             "<when test=\"blockIdx.x == 0\">"
                             "<load array=\"a\" index=\"threadIdx.x\"/></when>"
                             "<instructions pipe=\"special\" count=\"100\"/>");
    rc_refined r;
    refine_on(g, k, rc_kernel_resources(k), &r);
    assert_int_equal(r.working_blocks, 1024);
    assert_int_equal(r.active_sms, 80);
    assert_int_equal(r.waves, 2);
    assert_close(r.wave_factor, 1.25);
    assert_close(r.pipes[RC_PIPE_SPECIAL].warp_instructions, 819200);
    assert_close(r.t_pipe, 32.0 * 819200 / (16 * 80 * 1.455e9) * 1.25);
    /* The threads in flight are still the one block's that load. */
    assert_close(r.working_share, 256.0 / (1024 * 256));
    rc_kernel_free(k);
    rc_gpu_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_strided_copy),
        cmocka_unit_test(test_all_blocks_work),
        cmocka_unit_test(test_instructions_hold_sms),
    };
    return cmocka_run_group_tests(tests, setup_loader_stderr, teardown_loader);
}
