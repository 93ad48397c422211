/* test_barrier.c: <barrier> (__syncthreads()) from the kernel file to the estimate: the count
 * of the barriers a thread waits at, each generation's measured step (arch.c
 * rc_barrier_step_cycles, hotneutron/amora's V100 and H100 sweeps), and the time a block
 * spends at its barriers joining each memory level's latency a round (refine.c), all against
 * hand-computed values. */
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

/* The V100's step: 57.0 cycles at 2 warps and 119.46 at 32 make 52.84 + 2.082 a warp, within
 * 0.6 cycles of its 61.0, 69.0 and 85.88 at 4, 8 and 16; the H100's 45.27 and 106.44 make
 * 41.19 + 2.039 a warp (49.28, 57.29, 74.30 measured at 4, 8, 16). Turing, Ampere and the
 * generations before Volta take the V100's, assumed; 9.0 its own. */
static void test_step_by_generation(void **state)
{
    (void)state;
    static const struct {
        double warps, v100, h100;
    } measured[] = {{2, 57.0, 45.27}, {4, 61.0, 49.28}, {8, 69.0, 57.29},
                    {16, 85.88, 74.30}, {32, 119.46, 106.44}};
    bool assumed;
    const char *source;
    for (size_t i = 0; i < sizeof measured / sizeof *measured; i++) {
        assert_true(fabs(rc_barrier_step_cycles("7.0", measured[i].warps, &assumed, &source) -
                         measured[i].v100) < 0.6);
        assert_false(assumed);
        assert_true(fabs(rc_barrier_step_cycles("9.0", measured[i].warps, &assumed, &source) -
                         measured[i].h100) < 0.6);
        assert_false(assumed);
        assert_non_null(strstr(source, "H100 80GB HBM3"));
    }
    assert_close(rc_barrier_step_cycles("7.0", 8, &assumed, &source), 52.84 + 2.082 * 8);
    assert_non_null(strstr(source, "Tesla V100-SXM2-32GB"));
    static const char *const others[] = {"3.7", "5.2", "6.0", "7.5", "8.6", "8.9"};
    for (size_t i = 0; i < sizeof others / sizeof *others; i++) {
        assert_close(rc_barrier_step_cycles(others[i], 8, &assumed, &source),
                     52.84 + 2.082 * 8);
        assert_true(assumed);
        assert_non_null(strstr(source, "assumed: the V100's"));
    }
    assert_close(rc_barrier_step_cycles(NULL, 1, &assumed, &source), 52.84 + 2.082);
    assert_true(assumed);
    assert_non_null(strstr(source, "no compute capability"));
    assert_close(rc_barrier_step_cycles("10.0", 1, &assumed, &source), 41.19 + 2.039);
    assert_true(assumed);
}

/* A block's tree reduction: 80 blocks of 256 threads (8 warps) on the fixture's 10 SMs at
 * 1 GHz (9.0), each thread loading 4 bytes, a barrier, then 8 halvings with a barrier each:
 * 9 barriers a thread, 256 x 9 waits a block. Each is the H100's step for 8 warps, 41.19 +
 * 2.039 x 8 = 57.502 cycles; 9 of them 517.518 cycles = 517.518 ns. One round, so DRAM's
 * round is its 1 us, a thread's start and end (223 ns) and 517.518 ns = 1.740518 us, L2's
 * 0.2 us + 223 ns + 517.518 ns; L1's stays 30 + 223 ns, its bytes holding the shared accesses
 * the steps time. Without the barriers the same kernel has 1.223 us and 0.423 us. */
static void test_reduction_latency(void **state)
{
    (void)state;
    const char *launch = "<launch grid=\"80\" block=\"256\"/>"
                         "<array name=\"in\" type=\"float\" length=\"20480\"/>"
                         "<array name=\"s\" type=\"float\" length=\"256\" space=\"shared\"/>";
    const char *tree = "<load array=\"in\" index=\"blockIdx.x * 256 + threadIdx.x\"/>"
                       "<store array=\"s\" index=\"threadIdx.x\"/><barrier/>"
                       "<loop var=\"st\" from=\"128\" while=\"st &gt; 0\" step=\"&gt;&gt;= 1\">"
                       "<when test=\"threadIdx.x &lt; st\">"
                       "<load array=\"s\" index=\"threadIdx.x + st\"/>"
                       "<store array=\"s\" index=\"threadIdx.x\"/></when><barrier/></loop>";
    rc_gpu *g = gpu_cc_dram("9.0", "100 GB/s");
    rc_kernel *k = kernel_of(launch, tree);
    rc_counts c;
    rc_eval_error err;
    assert_true(rc_evaluate(k, false, &c, &err));
    const rc_work *loop = k->work->next->next->next;
    assert_int_equal(loop->children->next->kind, RC_WORK_BARRIER);
    const rc_work_stats *s = &c.work[loop->children->next->index];
    assert_int_equal(s->thread_max, 8);
    assert_int_equal(s->m0, 80 * 256 * 8);
    assert_int_equal(s->block_max, 256 * 8);
    rc_counts_release(&c);
    rc_refined r;
    refine_on(g, k, (rc_resources){0, 0}, &r);
    assert_close(r.barriers, 9);
    assert_close(r.barrier_cycles, 41.19 + 2.039 * 8);
    assert_false(r.barrier_assumed);
    assert_close(r.t_barriers, 9 * 57.502e-9);
    assert_close(r.rounds, 1);
    assert_close(r.dram.latency_eff, 1.223e-6 + 517.518e-9);
    assert_close(r.l2.latency_eff, 0.423e-6 + 517.518e-9);
    assert_close(r.l1.latency_eff, 253e-9);
    rc_kernel_free(k);
    /* The same without its barriers waits nowhere. */
    k = kernel_of(launch, "<load array=\"in\" index=\"blockIdx.x * 256 + threadIdx.x\"/>"
                          "<store array=\"s\" index=\"threadIdx.x\"/>");
    refine_on(g, k, (rc_resources){0, 0}, &r);
    assert_close(r.barriers, 0);
    assert_close(r.t_barriers, 0);
    assert_close(r.dram.latency_eff, 1.223e-6);
    rc_kernel_free(k);
    rc_gpu_free(g);
}

/* Barriers in a loop of many rounds: 10 blocks of 64 threads (2 warps) on 7.0, a loop of 100
 * trips that loads 8 bytes and waits twice (a tile's load and its use): 200 barriers of the
 * V100's 52.84 + 2.082 x 2 = 57.004 cycles, 11,400.8 ns a block, over 100 rounds: 114.008 ns
 * a round beside DRAM's 1 us x 1.3 + (223 ns - 0.3 us) / 100. A barrier no thread reaches
 * counts none. */
static void test_barriers_a_round(void **state)
{
    (void)state;
    rc_gpu *g = gpu_cc_dram("7.0", "100 GB/s");
    rc_kernel *k = kernel_of("<launch grid=\"10\" block=\"64\"/>",
                             "<loop var=\"i\" from=\"0\" while=\"i &lt; 100\" step=\"+= 1\">"
                             "<load count=\"2\" bytes=\"4\"/><barrier/><barrier/></loop>"
                             "<when test=\"threadIdx.x &gt; 64\"><barrier/></when>");
    rc_refined r;
    refine_on(g, k, (rc_resources){0, 0}, &r);
    assert_close(r.rounds, 100);
    assert_close(r.barriers, 200);
    assert_close(r.barrier_cycles, 52.84 + 2.082 * 2);
    assert_close(r.t_barriers, 200 * 57.004e-9);
    assert_close(r.dram.latency_eff, 1.3e-6 + (223e-9 - 0.3e-6) / 100 + 114.008e-9);
    rc_kernel_free(k);
    rc_gpu_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_step_by_generation),
        cmocka_unit_test(test_reduction_latency),
        cmocka_unit_test(test_barriers_a_round),
    };
    return cmocka_run_group_tests(tests, setup_loader, teardown_loader);
}
