/* Tests of the run of one SM's L1 (l1sim.h), on kernels small enough to follow by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "refine_fixture.h"
#include "model/l1sim.h"
#include "model/traffic.h"

/* A GPU of `sms` SMs of `l1` bytes of L1, compute capability `cc`. */
static rc_gpu gpu_of(double sms, double l1, char *cc)
{
    rc_gpu g;
    memset(&g, 0, sizeof g);
    g.sm.count.value = sms;
    g.sm.threads.value = 2048;
    g.sm.blocks.value = 32;
    g.sm.l1.value = l1;
    g.l2_bytes = 1e9;
    g.compute_capability = cc;
    return g;
}

/* Runs kernel k on g into *out. */
static void run(const rc_gpu *g, rc_kernel *k, rc_l1_reuse *out)
{
    rc_counts c;
    rc_eval_error err;
    assert_true(rc_evaluate(k, false, &c, &err));
    rc_l1_reuse_of(g, k, &c, out);
    rc_counts_release(&c);
    rc_kernel_free(k);
}

static void expect(const rc_l1_reuse *r, int64_t touches, int64_t reuse, int64_t hits)
{
    assert_int_equal(r->touches, touches);
    assert_int_equal(r->reuse, reuse);
    assert_int_equal(r->reuse_hits, hits);
    assert_true(r->simulated);
    assert_true(r->hit == (double)hits / (double)reuse);
}

/* Runs worked by hand, each a kernel on a GPU of `sms` SMs and `l1` bytes of L1 (7.0):
 * - broadcast: one warp reads A[k] for k = 0 to 63, every lane the same word: 64 requests of
 *   one sector; sectors 0 to 7, each the first time then 7 times again. Even an L1 of one
 *   line holds the sector between two touches: 64 touches, 56 reuse, all held.
 * - rows: each lane walks its own row (rows 1,024 floats apart), so every request touches 32
 *   sectors in 32 lines; over k = 0 to 15 a lane touches 2 sectors, each 8 times: 512
 *   touches, 64 first, 448 reuse. The 32 lines come in the same order every request, so a
 *   least-recently-used L1 of 32 lines (4,096 B) holds them all and one of 31 (4,095 B) loses
 *   each line just before it comes back: all 448 held, then none (the footprint rule would
 *   give 4,095 / 8,192).
 * - two blocks reading the same 4 sectors twice, on one SM (both resident): block 0's first
 *   read, block 1's first read (held in L1, but the block's own first touch: its footprint,
 *   not reuse), then each block's second read, held: 16 touches, 8 reuse, 8 held. On 2 SMs
 *   an SM holds one block: block 0 alone, 8 touches, 4 reuse. */
static void test_hand_worked(void **state)
{
    (void)state;
    static const char *rows_launch =
        "<launch grid=\"1\" block=\"32\"/><array name=\"A\" type=\"float\" length=\"32 * 1024\"/>";
    static const char *rows_work = "<loop var=\"k\" from=\"0\" to=\"16\">"
                                   "<load array=\"A\" index=\"threadIdx.x * 1024 + k\"/></loop>";
    static const char *pair_launch =
        "<launch grid=\"2\" block=\"32\"/><array name=\"A\" type=\"float\" length=\"32\"/>";
    static const char *pair_work =
        "<load array=\"A\" index=\"threadIdx.x\"/><load array=\"A\" index=\"threadIdx.x\"/>";
    const struct {
        const char *launch, *work;
        double sms, l1;
        int64_t touches, reuse, hits, blocks, warps, lines;
    } cases[] = {
        {"<launch grid=\"1\" block=\"32\"/><array name=\"A\" type=\"float\" length=\"64\"/>",
         "<loop var=\"k\" from=\"0\" to=\"64\"><load array=\"A\" index=\"k\"/></loop>",
         1, 128, 64, 56, 56, 1, 1, 1},
        {rows_launch, rows_work, 1, 4096, 512, 448, 448, 1, 1, 32},
        {rows_launch, rows_work, 1, 4095, 512, 448, 0, 1, 1, 31},
        {pair_launch, pair_work, 1, 1024, 16, 8, 8, 2, 2, 8},
        {pair_launch, pair_work, 2, 1024, 8, 4, 4, 1, 1, 8},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        rc_gpu g = gpu_of(cases[i].sms, cases[i].l1, "7.0");
        rc_l1_reuse r;
        run(&g, kernel_of(cases[i].launch, cases[i].work), &r);
        expect(&r, cases[i].touches, cases[i].reuse, cases[i].hits);
        assert_int_equal(r.blocks, cases[i].blocks);
        assert_int_equal(r.warps, cases[i].warps);
        assert_int_equal(r.lines, cases[i].lines);
        assert_false(r.truncated);
    }
}

/* What L1 does not keep is not run: atomics (done at L2), shared arrays, and on a GPU whose L1
 * caches only read-only data (3.5) an array the kernel stores to. A store is a touch like a
 * load where L1 caches it (7.0: 8 touches, 4 reuse). Nothing run, or no reuse seen: not
 * simulated, and traffic.h keeps its footprint rule. */
static void test_what_is_not_run(void **state)
{
    (void)state;
    static const char *launch =
        "<launch grid=\"1\" block=\"32\"/><array name=\"A\" type=\"float\" length=\"32\"/>"
        "<array name=\"S\" type=\"float\" length=\"32\" space=\"shared\"/>";
    rc_l1_reuse r;
    rc_gpu g = gpu_of(1, 1024, "7.0");
    run(&g,
        kernel_of(launch, "<atomic array=\"A\" index=\"threadIdx.x\"/>"
                          "<atomic array=\"A\" index=\"threadIdx.x\"/>"
                          "<load array=\"S\" index=\"threadIdx.x\"/>"
                          "<load array=\"S\" index=\"threadIdx.x\"/>"),
        &r);
    assert_false(r.simulated);
    assert_int_equal(r.touches, 0);
    static const char *store_load =
        "<store array=\"A\" index=\"threadIdx.x\"/><load array=\"A\" index=\"threadIdx.x\"/>";
    run(&g, kernel_of(launch, store_load), &r);
    expect(&r, 8, 4, 4);
    g.compute_capability = "3.5";
    run(&g, kernel_of(launch, store_load), &r);
    assert_false(r.simulated);
    assert_int_equal(r.touches, 0);
    /* A read once: run, no reuse. */
    g.compute_capability = "7.0";
    run(&g, kernel_of(launch, "<load array=\"A\" index=\"threadIdx.x\"/>"), &r);
    assert_false(r.simulated);
    assert_int_equal(r.touches, 4);
}

/* A warp's stream is cut at its share of RC_L1SIM_SECTORS: one warp reading A[k] for 2^20
 * values of k stops after RC_L1SIM_SECTORS touches (an eighth of them sectors, each 8 times:
 * 7 in 8 reuse, all held) and says so. */
static void test_cut(void **state)
{
    (void)state;
    rc_gpu g = gpu_of(1, 1024, "7.0");
    rc_l1_reuse r;
    run(&g,
        kernel_of("<launch grid=\"1\" block=\"32\"/>"
                  "<array name=\"A\" type=\"float\" length=\"1048576\"/>",
                  "<loop var=\"k\" from=\"0\" to=\"1048576\"><load array=\"A\" index=\"k\"/></loop>"),
        &r);
    expect(&r, RC_L1SIM_SECTORS, RC_L1SIM_SECTORS / 8 * 7, RC_L1SIM_SECTORS / 8 * 7);
    assert_true(r.truncated);
}

/* traffic.h takes the run's share where it ran: S = 512 x 32 B, B = 64 x 32 B; with the run's
 * h = 0, l2 = S; without a run, the footprint rule (F = 32 rows x 2 sectors = 2,048 B within
 * the L1's 4,095 B: h = 1) gives l2 = B. */
static void test_traffic_takes_the_run(void **state)
{
    (void)state;
    rc_gpu g = gpu_of(1, 4095, "7.0");
    rc_kernel *k = kernel_of(
        "<launch grid=\"1\" block=\"32\"/><array name=\"A\" type=\"float\" length=\"32 * 1024\"/>",
        "<loop var=\"k\" from=\"0\" to=\"16\"><load array=\"A\" index=\"threadIdx.x * 1024 + k\"/></loop>");
    rc_counts c;
    rc_eval_error err;
    assert_true(rc_evaluate(k, false, &c, &err));
    rc_l1_reuse sim;
    rc_l1_reuse_of(&g, k, &c, &sim);
    rc_traffic t;
    rc_traffic_compute(&g, &c, &sim, &t);
    assert_true(t.l1_simulated);
    assert_true(t.l1_hit == 0);
    assert_true(t.l2_bytes == 512 * 32);
    rc_traffic_compute(&g, &c, NULL, &t);
    assert_false(t.l1_simulated);
    assert_true(t.l1_hit == 1);
    assert_true(t.l2_bytes == 64 * 32);
    rc_counts_release(&c);
    rc_kernel_free(k);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hand_worked),
        cmocka_unit_test(test_what_is_not_run),
        cmocka_unit_test(test_cut),
        cmocka_unit_test(test_traffic_takes_the_run),
    };
    return cmocka_run_group_tests(tests, setup_loader, teardown_loader);
}
