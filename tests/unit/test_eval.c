/* test_eval.c: the evaluator's exact counts, on small models whose counts
 * are worked out by hand in the comments. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/diag.h"
#include "model/eval.h"
#include "input/load.h"

#include "loader_fixture.h"

/* A kernel around `work`, launched on grid x block. */
static rc_kernel *kernel(const char *grid, const char *block, const char *params,
                         const char *work)
{
    char xml[16384];
    snprintf(xml, sizeof xml,
             "<kernel id='t' name='t'><summary>s</summary><source>x</source>"
             "<launch grid='%s' block='%s'/>%s<work>%s</work></kernel>",
             grid, block, params, work);
    fflush(messages);
    rc_kernel *k = rc_load_kernel_memory(loader, "test.xml", xml, strlen(xml), diag);
    if (!k) {
        fflush(messages);
        fprintf(stderr, "load failed: %s\n", message_buf);
    }
    return k;
}

static rc_counts count(rc_kernel *k, bool as_launched)
{
    rc_counts c;
    rc_eval_error err;
    bool ok = rc_evaluate(k, as_launched, &c, &err);
    if (!ok)
        fprintf(stderr, "evaluation failed: %s (%s)\n", err.message, err.expr_error.message);
    assert_true(ok);
    return c;
}

/* maximum_kernel: for each of the 32 x 32 threads, offset = tx, tx+32, ...
 * < 100: threads 0-3 run 4 iterations, 4-31 run 3: 100 per row, 3,200 per
 * block, 80,000 over 25 blocks. */
static void test_strided_loop(void **state)
{
    (void)state;
    rc_kernel *k = kernel("5,5,1", "32,32,1", "<param name='k' value='100'/>",
                          "<loop var='offset' from='threadIdx.x' to='k' step='blockDim.x'>"
                          "<flops count='3'/><load count='2' bytes='4'/></loop>");
    assert_non_null(k);
    rc_counts c = count(k, false);
    assert_int_equal(c.flops.total, 240000);
    assert_int_equal(c.bytes.total, 640000);
    assert_int_equal(c.bytes_loaded, 640000);
    assert_int_equal(c.threads_active, 25600);
    assert_int_equal(c.blocks_active, 25);
    const rc_work_stats *loop = &c.work[0];
    assert_int_equal(loop->m1, 80000);
    assert_int_equal(loop->thread_min, 3);
    assert_int_equal(loop->thread_max, 4);
    assert_int_equal(loop->block_min, 3200);
    assert_int_equal(loop->block_max, 3200);
    /* Only threadIdx.x is read, and the work changes only where the trip
     * count does (between threads 3 and 4): cutting [0, 31] in halves
     * gives [0, 3], [4, 7], [8, 15], [16, 31], four runs for 25,600
     * threads. */
    assert_int_equal(c.thread_runs, 4);
    assert_true(c.reads_index[RC_SLOT_TID_X]);
    assert_false(c.reads_index[RC_SLOT_TID_Y]);
    rc_counts_release(&c);
    rc_kernel_free(k);
}

/* gpuKendall's triangular loop on a 16 x 16 tile: every pair i < j of 100
 * samples once per block: 4,950 pairs. The inner loop's bounds depend on
 * the outer variable. */
static void test_triangular_loop(void **state)
{
    (void)state;
    rc_kernel *k = kernel("5,5,1", "16,16,1", "<param name='N' value='100'/>",
                          "<loop var='i' from='threadIdx.x' to='N' step='16'>"
                          "<loop var='j' from='i + 1 + threadIdx.y' to='N' step='16'>"
                          "<flops count='10'/></loop></loop>");
    assert_non_null(k);
    rc_counts c = count(k, false);
    assert_int_equal(c.work[1].m1, 4950 * 25);
    assert_int_equal(c.work[1].block_min, 4950);
    assert_int_equal(c.work[1].block_max, 4950);
    assert_int_equal(c.flops.total, 1237500);
    rc_counts_release(&c);
    rc_kernel_free(k);
}

/* A loop whose body reads its variable is run iteration by iteration;
 * sum over i in [0, 10) of i = 45 per thread. */
static void test_body_reads_variable(void **state)
{
    (void)state;
    rc_kernel *k = kernel("1", "4", "",
                          "<loop var='i' from='0' to='10'><flops count='i'/></loop>");
    assert_non_null(k);
    rc_counts c = count(k, false);
    assert_int_equal(c.flops.total, 45 * 4);
    /* i = 0 does no work but the thread is active through the others */
    assert_int_equal(c.threads_active, 4);
    assert_int_equal(c.flops.thread_min, 45);
    rc_counts_release(&c);
    rc_kernel_free(k);
}

/* Guards and lets: getRestricted's m = bx * 16 + tx < 5 holds for tx 0-4
 * of the blocks with bx = 0: 5 threads x 32 rows x 5 blocks (by) = 800. */
static void test_guard_and_let(void **state)
{
    (void)state;
    rc_kernel *k = kernel("5,5,1", "32,32,1", "<param name='county' value='5'/>",
                          "<let name='m' value='blockIdx.x * 16 + threadIdx.x'/>"
                          "<when test='m &lt; county'><flops count='43200'/>"
                          "<traffic bytes='198900'/></when>");
    assert_non_null(k);
    rc_counts c = count(k, false);
    assert_int_equal(c.threads_active, 800);
    assert_int_equal(c.blocks_active, 5);
    assert_int_equal(c.flops.total, 800 * 43200LL);
    assert_int_equal(c.bytes_traffic, 800 * 198900LL);
    assert_int_equal(c.work[1].m0, 25600); /* the guard is evaluated by all */
    assert_int_equal(c.work[1].m1, 800);   /* and taken by 800 */
    assert_int_equal(c.active_per_block.block_min, 160);
    assert_int_equal(c.active_per_block.block_max, 160);
    rc_counts_release(&c);
    rc_kernel_free(k);
}

/* An assumption guard is honoured as modelled and ignored as launched. */
static void test_assumption(void **state)
{
    (void)state;
    rc_kernel *k = kernel("5,5,1", "32,32,1", "<param name='county' value='5'/>",
                          "<let name='m' value='blockIdx.x * 16 + threadIdx.x'/>"
                          "<when test='m &lt; county'>"
                          "<when test='blockIdx.y == 0' assumption='one row of blocks'>"
                          "<flops count='43200'/></when></when>");
    assert_non_null(k);
    assert_true(k->has_assumptions);
    rc_counts model = count(k, false), launch = count(k, true);
    assert_int_equal(model.threads_active, 160);
    assert_int_equal(model.flops.total, 6912000);
    assert_int_equal(launch.threads_active, 800);
    assert_int_equal(launch.flops.total, 34560000);
    rc_counts_release(&model);
    rc_counts_release(&launch);
    rc_kernel_free(k);
}

/* C semantics inside the model: -7 / 2 == -3, so a loop to -7/2 from -5
 * runs 2 times (-5, -4). */
static void test_c_division_in_bounds(void **state)
{
    (void)state;
    rc_kernel *k = kernel("1", "1", "", "<loop var='i' from='-5' to='-7 / 2'><flops count='1'/></loop>");
    assert_non_null(k);
    rc_counts c = count(k, false);
    assert_int_equal(c.flops.total, 2);
    rc_counts_release(&c);
    rc_kernel_free(k);
}

/* 65535 x 65535 blocks of 1,024 threads reading only threadIdx.x, where
 * every thread runs 2 iterations: one run; the counts are exact. */
static void test_huge_grid_is_cheap(void **state)
{
    (void)state;
    rc_kernel *k = kernel("65535,65535,1", "1024", "",
                          "<loop var='o' from='threadIdx.x' to='2048' step='blockDim.x'>"
                          "<flops count='1'/></loop>");
    assert_non_null(k);
    rc_counts c = count(k, false);
    assert_int_equal(c.thread_runs, 1);
    assert_int_equal(c.flops.total, 2LL * 1024 * 65535 * 65535);
    rc_counts_release(&c);
    rc_kernel_free(k);
}

/* The kernel's FLOPs, active threads and runs (thread_runs). */
static void expect_runs(const char *grid, const char *block, const char *params, const char *work,
                        int64_t flops, int64_t threads, int64_t runs)
{
    rc_kernel *k = kernel(grid, block, params, work);
    assert_non_null(k);
    rc_counts c = count(k, false);
    assert_int_equal(c.flops.total, flops);
    assert_int_equal(c.threads_active, threads);
    assert_int_equal(c.thread_runs, runs);
    rc_counts_release(&c);
    rc_kernel_free(k);
}

/* A bounds guard true in the last block only: 100 blocks of 256 threads,
 * n = 25,500. The whole grid is undecided, so the blocks are cut; the
 * first cut peels off the first and the last block: block 0 (i < 256)
 * and blocks 1-98 (i < 25,344) run once each; in block 99 (i = 25,344 +
 * threadIdx.x, true for threadIdx.x < 156) the threads are halved:
 * [0, 127], [128, 191] cut to [128, 143], [144, 151], [152, 155],
 * [156, 159], [160, 191], and [192, 255]: 7 runs, 9 in all. */
static void test_guard_in_last_block(void **state)
{
    (void)state;
    expect_runs("100", "256", "<param name='n' value='25500'/>",
                "<let name='i' value='blockIdx.x * blockDim.x + threadIdx.x'/>"
                "<when test='i &lt; n'><flops count='1'/></when>",
                25500, 25500, 9);
}

/* A 2-D stencil's border: w x h = 317 x 475 points on 20 x 30 blocks of
 * 16 x 16, 9 FLOPs a point and 4 more on the border: 317 * 475 * 9 +
 * (2 * 317 + 2 * 475 - 4) * 4 = 1,355,175 + 6,320 FLOPs. Peeling the
 * first and last row and column of blocks leaves 9 boxes of blocks: the
 * interior runs once, and the border's threads are halved (23 to 60 runs
 * a box): 368 runs. Halving the blocks alone took 2,522, and 44,000 on
 * the benchmark's 317 x 328 blocks. */
static void test_stencil_border_is_cheap(void **state)
{
    (void)state;
    expect_runs("20,30,1", "16,16,1", "<param name='w' value='317'/><param name='h' value='475'/>",
                "<let name='x' value='blockIdx.x * blockDim.x + threadIdx.x'/>"
                "<let name='y' value='blockIdx.y * blockDim.y + threadIdx.y'/>"
                "<when test='x &lt; w and y &lt; h'><flops count='9'/>"
                "<when test='x == 0 or y == 0 or x == w - 1 or y == h - 1'>"
                "<flops count='4'/></when></when>",
                1361495, 317 * 475, 368);
}

static void expect_eval_error(const char *grid, const char *block, const char *work,
                              const char *message, const char *expr_message)
{
    rc_kernel *k = kernel(grid, block, "", work);
    assert_non_null(k);
    rc_counts c;
    rc_eval_error err;
    assert_false(rc_evaluate(k, false, &c, &err));
    if (message)
        assert_string_equal(err.message, message);
    if (expr_message)
        assert_string_equal(err.expr_error.message, expr_message);
    rc_kernel_free(k);
}

static void test_errors(void **state)
{
    (void)state;
    expect_eval_error("1", "1", "<loop var='i' from='0' to='10' step='0'><flops count='1'/></loop>",
                      "<loop> 'i' has step 0: the step must be positive, or the loop would never end",
                      NULL);
    expect_eval_error("1", "32", "<loop var='i' from='0' to='10' step='threadIdx.x - 5'><flops count='1'/></loop>",
                      "<loop> 'i' has step -5: the step must be positive, or the loop would never end",
                      NULL);
    expect_eval_error("1", "4", "<flops count='10 / threadIdx.x'/>", NULL, "division by zero");
    expect_eval_error("1", "1", "<flops count='0 - 3'/>", "<flops> count is negative (-3)", NULL);
    /* 2^62 FLOPs per iteration times 4 iterations overflows 64 bits. */
    expect_eval_error("1", "1",
                      "<loop var='i' from='0' to='4'><flops count='4611686018427387904'/></loop>",
                      "the work count of <flops> overflows 64 bits", NULL);
    /* A guard comparing block and thread indices over 2^31-1 blocks is cut
     * only along the diagonal it draws: it counts exactly, and quickly. */
    rc_kernel *k = kernel("2147483647", "1024", "",
                          "<when test='blockIdx.x &lt; threadIdx.x'><flops count='1'/></when>");
    assert_non_null(k);
    rc_counts c = count(k, false);
    assert_int_equal(c.flops.total, 1023LL * 1024 / 2); /* sum over bx < 1024 of 1023 - bx */
    assert_int_equal(c.blocks_active, 1023);
    assert_true(c.thread_runs < 100000);
    rc_counts_release(&c);
    rc_kernel_free(k);
}

/* A model that would run for hours is refused at the step limit, however
 * long its expressions: each instruction counts as a step. How long that
 * takes is measured by tests/bench/bench_eval, not asserted here. */
static void test_step_limit_refuses(void **state)
{
    (void)state;
    const char *message = "the work model needs more than 400000000 evaluation steps to count: "
                          "its work differs between too many threads, or a loop whose body reads "
                          "its variable runs too many iterations";
    char big[4096] = "i";
    for (int j = 0; j < 200; j++)
        strcat(big, " + i % 7");
    char work[8192];
    snprintf(work, sizeof work,
             "<loop var='i' from='0' to='1000000000000'><flops count='%s'/></loop>", big);
    const char *works[] = {
        "<loop var='i' from='0' to='1000000000000'><flops count='i'/></loop>",
        work,
        /* the loop variable is read by a guard that is never taken */
        "<loop var='i' from='0' to='1000000000000'><when test='i &lt; 0'/></loop>",
    };
    for (size_t j = 0; j < sizeof works / sizeof works[0]; j++) {
        expect_eval_error("1", "1", works[j], message, NULL);
    }
    /* Work that differs for every thread of a huge launch cannot be cut
     * into few boxes: it runs into the limit too. */
    char many[8192] = "<flops count='blockIdx.x * 1024 + threadIdx.x'/>";
    for (int j = 0; j < 30; j++)
        strcat(many, "<flops count='1'/>");
    expect_eval_error("1000000", "1024", many, message, NULL);
}

static void test_loader_rejects_names(void **state)
{
    (void)state;
    assert_null(kernel("1", "1", "", "<let name='threadIdx' value='1'/>"));
    assert_null(kernel("1", "1", "<param name='k' value='1'/>", "<let name='k' value='1'/>"));
    assert_null(kernel("1", "1", "", "<flops count='kk'/>"));
    assert_null(kernel("1", "2048", "", ""));
    assert_null(kernel("1", "32,32,2", "", ""));
    assert_null(kernel("1,65536", "1", "", ""));
    assert_null(kernel("0", "1", "", ""));
    fflush(messages);
    const char *want[] = {
        "test.xml:1: <let> name 'threadIdx' is reserved",
        "test.xml:1: <let> name 'k' is already a <param>",
        "test.xml:1: <flops> attribute 'count': unknown name 'kk'\n    kk\n    ^~",
        "test.xml:1: <launch> block.x = 2048 exceeds CUDA's limit of 1024",
        "test.xml:1: <launch> block 32 x 32 x 2 = 2048 threads exceeds CUDA's limit of 1024 threads per block",
        "test.xml:1: <launch> grid.y = 65536 exceeds CUDA's limit of 65535",
        "test.xml:1: <launch> grid.x = 0 is not positive",
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        if (!strstr(message_buf, want[i]))
            fprintf(stderr, "missing: %s\nin:\n%s\n", want[i], message_buf);
        assert_non_null(strstr(message_buf, want[i]));
    }
}

/* A tree reduction as CUDA writes it: for (s = 128; s > 0; s >>= 1) over a
 * block of 256: 8 levels (128, 64, ..., 1); thread t adds at level s when
 * t < s: 128 + 64 + ... + 1 = 255 FLOPs per block, over 4 blocks 1,020. */
static void test_geometric_loop(void **state)
{
    (void)state;
    rc_kernel *k = kernel("4", "256", "",
                          "<loop var='s' from='blockDim.x / 2' while='s &gt; 0' step='&gt;&gt;= 1'>"
                          "<when test='threadIdx.x &lt; s'><flops count='1'/></when></loop>");
    assert_non_null(k);
    rc_counts c = count(k, false);
    assert_int_equal(c.flops.total, 1020);
    assert_int_equal(c.work[0].m1, 8 * 1024); /* 8 levels for each of 1,024 threads */
    assert_int_equal(c.flops.thread_max, 8);   /* thread 0 adds at every level */
    assert_int_equal(c.flops.thread_min, 1);   /* threads 64-127 add once (at s = 128) */
    rc_counts_release(&c);
    rc_kernel_free(k);
    /* s *= 2 up to blockDim.x: 1, 2, 4, ..., 128: 8 iterations per thread. */
    k = kernel("1", "256", "", "<loop var='s' from='1' to='blockDim.x' step='*= 2'><flops count='1'/></loop>");
    assert_non_null(k);
    c = count(k, false);
    assert_int_equal(c.flops.total, 8 * 256);
    rc_counts_release(&c);
    rc_kernel_free(k);
}

/* for (i = tx; i >= 0; i--) runs tx + 1 times: over 32 threads 528. A
 * body that does not read i is counted once per distinct trip count. */
static void test_descending_loop(void **state)
{
    (void)state;
    rc_kernel *k = kernel("1", "32", "",
                          "<loop var='i' from='threadIdx.x' while='i &gt;= 0' step='-= 1'>"
                          "<flops count='2'/></loop>");
    assert_non_null(k);
    rc_counts c = count(k, false);
    assert_int_equal(c.flops.total, 2 * 528);
    assert_int_equal(c.work[0].m1, 528);
    rc_counts_release(&c);
    rc_kernel_free(k);
}

/* The launch is an expression of params declared after it; a param may
 * read blockDim. N = 1000 elements in blocks of 256: 4 blocks, 1,024
 * threads, 1,000 of them pass the guard. */
static void test_launch_expressions(void **state)
{
    (void)state;
    rc_kernel *k = kernel("(N + 255) / 256", "B", "<param name='N' value='1000'/><param name='B' value='256'/>"
                          "<param name='W' value='blockDim.x / warpSize'/>",
                          "<when test='blockIdx.x * blockDim.x + threadIdx.x &lt; N'><flops count='W'/></when>");
    assert_non_null(k);
    assert_int_equal(k->grid[0], 4);
    assert_int_equal(k->block[0], 256);
    rc_counts c = count(k, false);
    assert_int_equal(c.threads_launched, 1024);
    assert_int_equal(c.flops.total, 8 * 1000);
    rc_counts_release(&c);
    rc_kernel_free(k);
    /* Issue 15.3: the thread count of the largest grid of the largest
     * blocks does not fit in 64 bits: refused, not wrapped. */
    assert_null(kernel("2147483647, 65535, 65535", "1024", "", ""));
    fflush(messages);
    assert_non_null(strstr(message_buf, "launches more than 9223372036854775807 threads"));
}

/* Arrays give accesses their size; shared ones add no bytes. */
static void test_array_accesses(void **state)
{
    (void)state;
    rc_kernel *k = kernel("2", "32", "<param name='N' value='64'/><array name='A' type='float4' length='N'/>"
                          "<array name='S' type='double' length='32' space='shared'/>"
                          "<array name='H' type='int' length='8'/>",
                          "<load array='A' index='blockIdx.x * 32 + threadIdx.x'/>"
                          "<store array='S' index='threadIdx.x'/><atomic array='H' index='threadIdx.x % 8'/>");
    assert_non_null(k);
    assert_int_equal(k->arrays[0].elem_bytes, 16);
    rc_counts c = count(k, false);
    assert_int_equal(c.bytes_loaded, 64 * 16);
    assert_int_equal(c.bytes_stored, 64 * 4); /* the atomics; the shared store adds nothing */
    rc_counts_release(&c);
    rc_kernel_free(k);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_strided_loop),
        cmocka_unit_test(test_triangular_loop),
        cmocka_unit_test(test_body_reads_variable),
        cmocka_unit_test(test_guard_and_let),
        cmocka_unit_test(test_assumption),
        cmocka_unit_test(test_c_division_in_bounds),
        cmocka_unit_test(test_huge_grid_is_cheap),
        cmocka_unit_test(test_guard_in_last_block),
        cmocka_unit_test(test_stencil_border_is_cheap),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_step_limit_refuses),
        cmocka_unit_test(test_loader_rejects_names),
        cmocka_unit_test(test_geometric_loop),
        cmocka_unit_test(test_descending_loop),
        cmocka_unit_test(test_launch_expressions),
        cmocka_unit_test(test_array_accesses),
    };
    return cmocka_run_group_tests(tests, setup_loader, teardown_loader);
}
