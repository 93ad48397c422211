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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_strided_copy),
        cmocka_unit_test(test_all_blocks_work),
    };
    return cmocka_run_group_tests(tests, setup_loader_stderr, teardown_loader);
}
