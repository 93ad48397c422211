/* test_chain.c: <loop dependent> and the per-thread dependent chain floor (statements.c,
 * chain.c, refine.c) against hand-computed times. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/arch.h"
#include "model/chain.h"
#include "refine_fixture.h"

/* A kernel of `block` threads in one block, an int array p of 4,096 elements, a shared int
 * array s of 64 and `work`. */
static rc_kernel *kernel(const char *block, const char *work)
{
    char launch[512];
    snprintf(launch, sizeof launch,
             "<launch grid=\"1\" block=\"%s\"/>"
             "<array name=\"p\" type=\"int\" length=\"4096\"/>"
             "<array name=\"s\" type=\"int\" length=\"64\" space=\"shared\"/>", block);
    return kernel_of(launch, work);
}

/* The refined estimate of `work` on the GPU file `gpu`. */
static void refine(const char *gpu, const char *block, const char *work, rc_refined *r)
{
    rc_gpu *g = rc_load_gpu(loader, gpu, diag);
    assert_non_null(g);
    rc_kernel *k = kernel(block, work);
    refine_on(g, k, rc_kernel_resources(k), r);
    rc_kernel_free(k);
    rc_gpu_free(g);
}

/* dependent="true" marks the loop; "false" and no attribute do not. */
static void test_parse(void **state)
{
    (void)state;
    rc_kernel *k = kernel("1", "<loop var=\"i\" from=\"0\" to=\"4\" dependent=\"true\">"
                               "<loop var=\"j\" from=\"0\" to=\"4\" dependent=\"false\">"
                               "<flops count=\"2\"/></loop></loop>"
                               "<loop var=\"m\" from=\"0\" to=\"4\"><flops count=\"2\"/></loop>");
    assert_true(k->work->loop_dependent);
    assert_false(k->work->children->loop_dependent);
    assert_false(k->work->next->loop_dependent);
    rc_kernel_free(k);
}

/* The issue's pointer chase: one thread, 1,000 dependent loads, on the H100 SXM5, whose GPU
 * file gives an L1 hit as 40 cycles (measured) at 1980 MHz:
 * 1,000 x 40 / 1.98e9 s = 20.202 us, a floor as it stands. */
static void test_pointer_chase(void **state)
{
    (void)state;
    rc_refined r;
    refine("specs/h100-sxm5.xml", "1",
           "<loop var=\"k\" from=\"0\" to=\"1000\" dependent=\"true\">"
           "<load array=\"p\" index=\"k\"/></loop>", &r);
    const rc_chain_time *ch = &r.chain;
    assert_true(ch->loads);
    assert_close(ch->iterations, 1000);
    assert_close(ch->link_cycles, 40);
    assert_false(ch->link_assumed);
    assert_close(ch->time, 1000 * 40 / 1.98e9);
    assert_true(ch->time > 20.20e-6 && ch->time < 20.21e-6);
    assert_close(ch->time_lower, ch->time);
    assert_int_equal(ch->loop_line, 1);
    /* t_lower allows the clock 35 % above the boost, as for the FLOPs. */
    assert_true(r.t_lower >= ch->time / 1.35);
    assert_true(r.t_body_est >= ch->time);
    /* The same loop, not marked: no chain, and t_lower is what it was without one. */
    rc_refined plain;
    refine("specs/h100-sxm5.xml", "1",
           "<loop var=\"k\" from=\"0\" to=\"1000\"><load array=\"p\" index=\"k\"/></loop>",
           &plain);
    assert_close(plain.chain.time, 0);
    assert_close(plain.chain.time_lower, 0);
    assert_true(plain.t_lower < 1e-6);
}

/* A recurrence of FLOPs only, s = a * s + b (one FMA, 2 FLOPs an iteration), 1,000 times on the
 * TITAN V (7.0: the guide's 4 cycles, published) at 1455 MHz: 1,000 x 4 / 1.455e9 s =
 * 2.749 us, twice the per-thread floor of 1,000 FMAs at 2 cycles each (a Volta scheduler has
 * 16 FP32 lanes, by the file's peak: about 1.374 us). */
static void test_recurrence(void **state)
{
    (void)state;
    rc_refined r;
    refine("specs/titan-v.xml", "1",
           "<loop var=\"k\" from=\"0\" to=\"1000\" dependent=\"true\"><flops count=\"2\"/></loop>",
           &r);
    const rc_chain_time *ch = &r.chain;
    assert_false(ch->loads);
    assert_close(ch->instructions, 1);
    assert_close(ch->arith_cycles, 4);
    assert_false(ch->arith_assumed);
    assert_close(ch->time, 1000 * 4 / 1.455e9);
    assert_close(ch->time_lower, ch->time);
    assert_true(r.t_thread > 1.37e-6 && r.t_thread < 1.38e-6);
    assert_close(r.t_body_est, ch->time);
    assert_close(r.t_lower, ch->time / 1.35);
    assert_int_equal(r.limiter, RC_LIMIT_LATENCY);
    assert_true(rc_chain_bound(&r));
    /* 8 FLOPs an iteration: 4 FMAs taken as dependent, 16 cycles; the floor keeps one. */
    refine("specs/titan-v.xml", "1",
           "<loop var=\"k\" from=\"0\" to=\"1000\" dependent=\"true\"><flops count=\"8\"/></loop>",
           &r);
    assert_close(r.chain.instructions, 4);
    assert_close(r.chain.time, 1000 * 16 / 1.455e9);
    assert_close(r.chain.time_lower, 1000 * 4 / 1.455e9);
    /* The GTX TITAN Black (3.5: 9 cycles, Arafa et al.'s Kepler) at its 980 MHz SM clock. */
    refine("specs/titan-black.xml", "1",
           "<loop var=\"k\" from=\"0\" to=\"1000\" dependent=\"true\"><flops count=\"2\"/></loop>",
           &r);
    assert_close(r.chain.arith_cycles, 9);
    assert_close(r.chain.time, 1000 * 9 / 980e6);
    assert_close(r.chain.time_lower, r.chain.time);
    /* The H100 SXM5 (9.0): the guide names no figure; amora's chain measures 4 cycles (as on
     * a V100), so the chain is its floor too. */
    refine("specs/h100-sxm5.xml", "1",
           "<loop var=\"k\" from=\"0\" to=\"1000\" dependent=\"true\"><flops count=\"2\"/></loop>",
           &r);
    assert_false(r.chain.arith_assumed);
    assert_close(r.chain.time, 1000 * 4 / 1.98e9);
    assert_close(r.chain.time_lower, r.chain.time);
    /* An A100 (8.0): Turing's 4 cycles assumed, no floor. */
    refine("specs/a100-sxm4-80gb.xml", "1",
           "<loop var=\"k\" from=\"0\" to=\"1000\" dependent=\"true\"><flops count=\"2\"/></loop>",
           &r);
    assert_true(r.chain.arith_assumed);
    assert_true(r.chain.link_assumed);
    assert_close(r.chain.time, 1000 * 4 / 1.41e9);
    assert_close(r.chain.time_lower, 0);
}

/* <flops fused="false">: a float add alone (a++) is an instruction of its own. One dependent
 * add an iteration is one instruction, as one FMA is, where the FLOP counted as half an FMA
 * would be rounded up to one all the same; 4 adds an iteration are 4 instructions, 16 cycles
 * on the TITAN V, where 4 FMA-counted FLOPs would be 2 (8 cycles). The compute term charges
 * each as an FMA's slot: 1,000 x 4 adds on 32 threads x 4 blocks at the TITAN V's 14.9
 * TFLOP/s peak (2 FLOPs a slot), 4 blocks on 4 of 80 SMs, 1 warp each (issue 1/4): 512,000
 * FLOPs as 1,024,000 slot FLOPs / (14.9e12 x 4 / 80 x 0.25) = 5.498 us. */
static void test_unfused_flops(void **state)
{
    (void)state;
    rc_refined r;
    refine("specs/titan-v.xml", "1",
           "<loop var=\"k\" from=\"0\" to=\"1000\" dependent=\"true\">"
           "<flops count=\"1\" fused=\"false\"/></loop>",
           &r);
    assert_close(r.chain.instructions, 1);
    refine("specs/titan-v.xml", "1",
           "<loop var=\"k\" from=\"0\" to=\"1000\" dependent=\"true\">"
           "<flops count=\"4\" fused=\"false\"/></loop>",
           &r);
    assert_close(r.chain.instructions, 4);
    assert_close(r.chain.time, 1000 * 16 / 1.455e9);
    rc_gpu *g = rc_load_gpu(loader, "specs/titan-v.xml", diag);
    assert_non_null(g);
    rc_kernel *k = kernel_of("<launch grid=\"4\" block=\"32\"/>",
                             "<loop var=\"k\" from=\"0\" to=\"1000\">"
                             "<flops count=\"4\" fused=\"false\"/></loop>");
    refine_on(g, k, rc_kernel_resources(k), &r);
    assert_close(r.flops[RC_PRECISION_FP32], 512000);
    assert_close(r.slot_flops[RC_PRECISION_FP32], 1024000);
    assert_close(r.t_compute[RC_PRECISION_FP32],
                 1024000 / (14.9e12 * 4 / 80 * 0.25) * r.wave_factor);
    rc_kernel_free(k);
    k = kernel_of("<launch grid=\"4\" block=\"32\"/>",
                  "<loop var=\"k\" from=\"0\" to=\"1000\"><flops count=\"4\"/></loop>");
    refine_on(g, k, rc_kernel_resources(k), &r);
    assert_close(r.slot_flops[RC_PRECISION_FP32], 512000);
    assert_close(r.t_compute[RC_PRECISION_FP32],
                 512000 / (14.9e12 * 4 / 80 * 0.25) * r.wave_factor);
    rc_kernel_free(k);
    rc_gpu_free(g);
}

/* The per-thread floor counts instructions: one thread's 1,000 independent loops of 3 unfused
 * adds and 4 fused FLOPs (2 FMAs) on the TITAN V: 3,000 + 2,000 = 5,000 instructions at 2
 * cycles each (16 FP32 lanes a scheduler, by the file's peak: 1.9999) at 1455 MHz, 6.872 us,
 * where FLOPs / 2 would say 3,500 (4.811 us). Counted per thread: a second thread with only
 * fused FLOPs (7,000 FLOPs, 3,500 instructions) has more FLOPs but fewer instructions; the
 * floor is the first thread's. t_lower's floor issues one a cycle at 1.35 x the clock. */
static void test_per_thread_floor_unfused(void **state)
{
    (void)state;
    rc_refined r;
    refine("specs/titan-v.xml", "2",
           "<loop var=\"k\" from=\"0\" to=\"1000\">"
           "<when test=\"threadIdx.x == 0\"><flops count=\"3\" fused=\"false\"/></when>"
           "<when test=\"threadIdx.x == 1\"><flops count=\"3\"/></when>"
           "<flops count=\"4\"/></loop>",
           &r);
    assert_close(r.thread_flops_max, 7000);
    assert_close(r.thread_instructions_max, 5000);
    double cpi = r.thread_cycles_per_instruction;
    assert_true(cpi > 1.9998 && cpi < 2.0);
    assert_close(r.t_thread, 5000 * cpi / 1.455e9);
    assert_true(r.t_thread > 6.872e-6 && r.t_thread < 6.873e-6);
    assert_close(r.t_thread_lower, 5000 / (1.35 * 1.455e9));
    /* Fused FLOPs only: FLOPs / 2. */
    refine("specs/titan-v.xml", "1",
           "<loop var=\"k\" from=\"0\" to=\"1000\"><flops count=\"4\"/></loop>", &r);
    assert_close(r.thread_instructions_max, 2000);
    assert_close(r.t_thread, 2000 * cpi / 1.455e9);
}

/* Kepler's schedulers reach the FP32 peak only by dual issue (the K40c's file: 4.29 TFLOP/s =
 * 15 SMs x 192 lanes x 2 x 745 MHz, 48 lanes a scheduler); a dependent loop's FLOPs cannot
 * pair, so they issue at 32 / 48 = 2/3 of the rate, and each warp only every 9 cycles (Arafa
 * et al.'s Kepler FMA latency): one block of 1,024 threads is 8 warps a scheduler, 8/9 of its
 * clocks. 1,000 dependent adds a thread: 1,024,000 adds, 2,048,000 slot FLOPs / (4.29e12 / 15
 * x 2/3 x 8/9) = 12.08 us; the same adds outside a dependent loop (issue 1: 32 warps over 4)
 * take 2/3 x 8/9 of that. The TITAN V (16 lanes a scheduler) needs no pairing. */
static void test_kepler_single_issue(void **state)
{
    (void)state;
    const char *dep = "<loop var=\"k\" from=\"0\" to=\"1000\" dependent=\"true\">"
                      "<flops count=\"1\" fused=\"false\"/></loop>";
    const char *indep = "<loop var=\"k\" from=\"0\" to=\"1000\">"
                        "<flops count=\"1\" fused=\"false\"/></loop>";
    rc_refined r;
    /* the file's rounded 4.29 TFLOP/s: 47.99 lanes a scheduler */
    double share = 32 / (4.29e12 / (2 * 745e6 * 15 * 4));
    refine("tests/validation/specs/tesla-k40c.xml", "1024", dep, &r);
    assert_close(r.single_issue[RC_PRECISION_FP32], share);
    assert_true(share > 0.6668 && share < 0.6669);
    assert_close(r.dependent_slot_flops[RC_PRECISION_FP32], 2048000);
    assert_close(r.chain_issue, 8.0 / 9.0);
    assert_close(r.t_compute[RC_PRECISION_FP32],
                 2048000 / (4.29e12 / 15 * share * (8.0 / 9.0)) * r.wave_factor);
    double dependent = r.t_compute[RC_PRECISION_FP32];
    refine("tests/validation/specs/tesla-k40c.xml", "1024", indep, &r);
    assert_close(r.dependent_slot_flops[RC_PRECISION_FP32], 0);
    assert_close(r.t_compute[RC_PRECISION_FP32], dependent * share * (8.0 / 9.0));
    refine("specs/titan-v.xml", "1024", dep, &r);
    assert_close(r.single_issue[RC_PRECISION_FP32], 1);
}

/* Nested dependent loops: the inner one's iterations count all its entries, 10 x 100 = 1,000
 * loads on the H100 SXM5, 20.202 us as in the chase; the outer's 10 iterations (its FLOPs
 * and the inner loads are no load of its own) are shorter. */
static void test_nested(void **state)
{
    (void)state;
    rc_refined r;
    refine("specs/h100-sxm5.xml", "1",
           "<loop var=\"i\" from=\"0\" to=\"10\" dependent=\"true\"><flops count=\"2\"/>"
           "<loop var=\"j\" from=\"0\" to=\"100\" dependent=\"true\">"
           "<load array=\"p\" index=\"i * 100 + j\"/></loop></loop>", &r);
    assert_true(r.chain.loads);
    assert_close(r.chain.iterations, 1000);
    assert_close(r.chain.time, 1000 * 40 / 1.98e9);
    assert_int_equal(r.chain.loop_line, 1);
}

/* The busiest thread sets the iterations: thread t runs t of them, 63 in a block of 64. A load
 * under a guard, or from shared memory, is no L1 hit each iteration: the FLOPs decide. */
static void test_busiest_thread_and_loads(void **state)
{
    (void)state;
    rc_refined r;
    refine("specs/h100-sxm5.xml", "64",
           "<loop var=\"k\" from=\"0\" to=\"threadIdx.x\" dependent=\"true\">"
           "<load array=\"p\" index=\"k * 64 + threadIdx.x\"/></loop>", &r);
    assert_close(r.chain.iterations, 63);
    assert_close(r.chain.time, 63 * 40 / 1.98e9);
    refine("specs/titan-v.xml", "1",
           "<loop var=\"k\" from=\"0\" to=\"100\" dependent=\"true\"><flops count=\"4\"/>"
           "<when test=\"k % 2 == 0\"><load array=\"p\" index=\"k\"/></when>"
           "<load array=\"s\" index=\"k % 64\"/></loop>", &r);
    assert_false(r.chain.loads);
    assert_close(r.chain.instructions, 2);
    assert_close(r.chain.time, 100 * 8 / 1.455e9);
    /* Neither loads nor FLOPs: no chain. */
    refine("specs/titan-v.xml", "1",
           "<loop var=\"k\" from=\"0\" to=\"100\" dependent=\"true\">"
           "<store array=\"p\" index=\"k\"/></loop>", &r);
    assert_close(r.chain.time, 0);
    assert_close(r.chain.iterations, 0);
}

/* The arithmetic latency by compute capability: Arafa et al.'s measured FMA latencies. */
static void test_arith_latency(void **state)
{
    (void)state;
    bool assumed;
    const char *source;
    assert_close(rc_arith_latency_cycles("3.5", &assumed, &source), 9);
    assert_false(assumed);
    assert_non_null(strstr(source, "9 cycles on Kepler"));
    assert_close(rc_arith_latency_cycles("5.2", &assumed, &source), 6);
    assert_false(assumed);
    assert_close(rc_arith_latency_cycles("6.0", &assumed, &source), 6);
    assert_false(assumed);
    assert_non_null(strstr(source, "6 cycles on Pascal"));
    assert_close(rc_arith_latency_cycles("7.5", &assumed, &source), 4);
    assert_false(assumed);
    assert_non_null(strstr(source, "4 cycles on Volta and Turing"));
    assert_close(rc_arith_latency_cycles("8.6", &assumed, &source), 4);
    assert_true(assumed);
    assert_close(rc_arith_latency_cycles("8.9", &assumed, &source), 4);
    assert_false(assumed);
    assert_non_null(strstr(source, "4.05 cycles (RTX 4070)"));
    assert_close(rc_arith_latency_cycles("9.0", &assumed, &source), 4);
    assert_false(assumed);
    assert_non_null(strstr(source, "4.377 cycles (H100"));
    assert_close(rc_arith_latency_cycles(NULL, &assumed, &source), 4);
    assert_true(assumed);
    assert_close(rc_arith_latency_cycles("2.0", &assumed, &source), 9);
    assert_true(assumed);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse),
        cmocka_unit_test(test_pointer_chase),
        cmocka_unit_test(test_recurrence),
        cmocka_unit_test(test_unfused_flops),
        cmocka_unit_test(test_per_thread_floor_unfused),
        cmocka_unit_test(test_kepler_single_issue),
        cmocka_unit_test(test_nested),
        cmocka_unit_test(test_busiest_thread_and_loads),
        cmocka_unit_test(test_arith_latency),
    };
    return cmocka_run_group_tests(tests, setup_loader_stderr, teardown_loader);
}
