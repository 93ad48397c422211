/* test_atomics.c: the term of global atomics on few L2 lines (model/atomics.c) against
 * hand-computed cases: one counter, a few lines, a spread-out scatter, shared-memory atomics
 * (not this term) and the limiter it sets. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "model/atomics.h"
#include "refine_fixture.h"

static void atomic_time_cc(const rc_kernel *k, const char *cc, double clock, rc_atomic_time *t)
{
    rc_counts c;
    rc_eval_error err;
    assert_true(rc_evaluate(k, false, &c, &err));
    rc_atomic_time_of(k, &c, cc, clock, t);
    rc_counts_release(&c);
}

static void atomic_time(const rc_kernel *k, double clock, rc_atomic_time *t)
{
    atomic_time_cc(k, "7.0", clock, t);
}

/* Kernel k has no atomics term: no array, no name, no time. */
static void assert_no_term(const rc_kernel *k)
{
    rc_atomic_time t;
    atomic_time(k, 1e9, &t);
    assert_int_equal(t.array, -1);
    assert_null(t.name);
    assert_close(t.time, 0);
}

/* Debdeep23/test1's atomic_hotspot as its published model says: 1,024 blocks of 256 threads,
 * each adding 1 to one counter 50 times. A warp's 32 lanes on one address make one request
 * and one line: 262,144 / 32 x 50 = 409,600 operations on 1 line. At the TITAN V's 1455 MHz,
 * 0.77 x 1.455e9 = 1.12035e9 a second: 409,600 / 1.12035e9 = 365.6 us. */
static void test_one_counter(void **state)
{
    (void)state;
    rc_kernel *k = kernel_of("<launch grid=\"1024\" block=\"256\"/>"
                             "<array name=\"counter\" type=\"unsigned int\" length=\"1\"/>",
                             "<loop var=\"it\" from=\"0\" to=\"50\">"
                             "<atomic array=\"counter\" index=\"0\"/></loop>");
    rc_atomic_time t;
    atomic_time(k, 1.455e9, &t);
    assert_int_equal(t.array, 0);
    assert_string_equal(t.name, "counter");
    assert_close(t.operations, 409600);
    assert_close(t.lines, 1);
    assert_close(t.per_line, 409600);
    assert_close(t.rate, 0.77 * 1.455e9);
    assert_close(t.time, 409600 / 1.12035e9);
    assert_true(t.time > 365.5e-6 && t.time < 365.7e-6);
    assert_false(t.with_stores);
    rc_kernel_free(k);
}

/* atomicAddBench (ptheywood/atomicAddBench, microbench.csv): 65,536 threads each add their own
 * float to one address 16 times. The launch's block size came from the occupancy API; 256 is
 * taken here, which changes no count. Per request 32 updates of one address: one operation
 * at 0.77 a clock and 31 more at the generation's rate. 2,048 warps x 16 = 32,768 requests,
 * 1,015,808 further updates. On a Tesla K80 at 875 MHz: 32,768 / (0.77 x 875e6) = 48.6 us
 * + 1,015,808 / (0.32 x 875e6) = 3,627.9 us = 3,676.5 us, measured 3,764.6 (-2.3 %); on a
 * GTX TITAN X at 1075 MHz: 39.6 + 3,500.2 = 3,539.8 us, measured 3,583.4 (-1.2 %); on a
 * TITAN V at 1455 MHz: 29.2 + 2,685.2 = 2,714.4 us, measured 2,775.6 (-2.2 %); on a TITAN X
 * (Pascal) at 1531 MHz: 27.8 + 2,010.5 = 2,038.3 us, measured 2,107.4 (-3.3 %). Without
 * operand="per-lane" the lanes combine: 32,768 operations, 48.6 us on the K80. */
static void test_per_lane_one_address(void **state)
{
    (void)state;
    static const struct {
        const char *cc;
        double clock, lane_rate, measured;
    } gpus[] = {
        {"3.7", 875e6, 0.32, 3764.568e-6},
        {"5.2", 1075e6, 0.27, 3583.408e-6},
        {"7.0", 1455e6, 0.26, 2775.552e-6},
        {"6.1", 1531e6, 0.33, 2107.424e-6},
    };
    rc_kernel *k = kernel_of("<launch grid=\"256\" block=\"256\"/>"
                             "<array name=\"acc\" type=\"float\" length=\"1\"/>",
                             "<loop var=\"it\" from=\"0\" to=\"16\">"
                             "<atomic array=\"acc\" index=\"0\" operand=\"per-lane\"/></loop>");
    for (size_t i = 0; i < sizeof gpus / sizeof gpus[0]; i++) {
        rc_atomic_time t;
        atomic_time_cc(k, gpus[i].cc, gpus[i].clock, &t);
        assert_close(t.lane_extra, 1015808);
        assert_close(t.operations, 32768 + 1015808);
        assert_close(t.lines, 1);
        assert_close(t.lane_per_clock, gpus[i].lane_rate);
        double want = 32768 / (0.77 * gpus[i].clock) +
                      1015808 / (gpus[i].lane_rate * gpus[i].clock);
        assert_close(t.time, want);
        if (t.time < 0.96 * gpus[i].measured || t.time > 1.0 * gpus[i].measured)
            fail_msg("compute capability %s: %g s against %g measured", gpus[i].cc, t.time,
                     gpus[i].measured);
        assert_close(t.rate, t.per_line / t.time);
    }
    rc_kernel_free(k);
    k = kernel_of("<launch grid=\"256\" block=\"256\"/>"
                  "<array name=\"acc\" type=\"float\" length=\"1\"/>",
                  "<loop var=\"it\" from=\"0\" to=\"16\">"
                  "<atomic array=\"acc\" index=\"0\"/></loop>");
    rc_atomic_time t;
    atomic_time_cc(k, "3.7", 875e6, &t);
    assert_close(t.lane_extra, 0);
    assert_close(t.operations, 32768);
    assert_close(t.time, 32768 / (0.77 * 875e6));
    rc_kernel_free(k);
}

/* Per-lane values on distinct addresses combine as before: bins[threadIdx.x] from 8 warps of
 * a block, each one line of 32 words, 64 blocks: 512 requests, none with two lanes on one
 * address, so no further updates and 512 operations over the 8 lines. */
static void test_per_lane_distinct_addresses(void **state)
{
    (void)state;
    rc_kernel *k = kernel_of("<launch grid=\"64\" block=\"256\"/>"
                             "<array name=\"bins\" type=\"unsigned int\" length=\"256\"/>",
                             "<atomic array=\"bins\" index=\"threadIdx.x\" operand=\"per-lane\"/>");
    rc_atomic_time t;
    atomic_time_cc(k, "9.0", 1.98e9, &t);
    assert_close(t.lane_extra, 0);
    assert_close(t.operations, 512);
    assert_close(t.lines, 8);
    assert_close(t.time, 64 / (0.77 * 1.98e9));
    rc_kernel_free(k);
}

/* Plain stores to the counter are in its pairs, and the term says so: 8 warps x (3 stores + 1
 * atomic) = 32 on its one line. */
static void test_stores_share_the_line(void **state)
{
    (void)state;
    rc_kernel *k = kernel_of("<launch grid=\"1\" block=\"256\"/>"
                             "<array name=\"counter\" type=\"unsigned int\" length=\"1\"/>",
                             "<loop var=\"it\" from=\"0\" to=\"3\">"
                             "<store array=\"counter\" index=\"0\"/></loop>"
                             "<atomic array=\"counter\" index=\"0\"/>");
    rc_atomic_time t;
    atomic_time(k, 1e9, &t);
    assert_int_equal(t.array, 0);
    assert_close(t.operations, 32);
    assert_close(t.lines, 1);
    assert_true(t.with_stores);
    rc_kernel_free(k);
}

/* An <atomic> under a guard no thread takes makes the counter's plain stores no atomics:
 * no term, though 8 warps x 3 stores hit its one line. */
static void test_atomic_no_thread_runs(void **state)
{
    (void)state;
    rc_kernel *k = kernel_of("<launch grid=\"1\" block=\"256\"/>"
                             "<array name=\"counter\" type=\"unsigned int\" length=\"1\"/>",
                             "<loop var=\"it\" from=\"0\" to=\"3\">"
                             "<store array=\"counter\" index=\"0\"/></loop>"
                             "<when test=\"threadIdx.x &gt; 1000\">"
                             "<atomic array=\"counter\" index=\"0\"/></when>");
    assert_no_term(k);
    rc_kernel_free(k);
}

/* 256 bins of 4 bytes (8 lines); element i goes to bin i % 256, so each warp's request fills
 * one line: 65,536 threads = 2,048 requests, 2,048 / 8 = 256 a line, at 1 GHz 256 / 0.77e9.
 * A second array with atomics spread over 65,536 words (2,048 lines, one request each) is
 * less hot and does not set the term. */
static void test_few_lines(void **state)
{
    (void)state;
    rc_kernel *k = kernel_of("<launch grid=\"256\" block=\"256\"/>"
                             "<array name=\"wide\" type=\"int\" length=\"65536\"/>"
                             "<array name=\"bins\" type=\"int\" length=\"256\"/>",
                             "<let name=\"i\" value=\"blockIdx.x * blockDim.x + threadIdx.x\"/>"
                             "<atomic array=\"wide\" index=\"i\"/>"
                             "<atomic array=\"bins\" index=\"i % 256\"/>");
    rc_atomic_time t;
    atomic_time(k, 1e9, &t);
    assert_int_equal(t.array, 1);
    assert_string_equal(t.name, "bins");
    assert_close(t.operations, 2048);
    assert_close(t.lines, 8);
    assert_close(t.per_line, 256);
    assert_close(t.time, 256 / 0.77e9);
    rc_kernel_free(k);
}

/* Shared-memory atomics are shared memory's (banks.h), loads and stores without atomics are
 * not updates: no term. */
static void test_no_global_atomics(void **state)
{
    (void)state;
    rc_kernel *k = kernel_of("<launch grid=\"4\" block=\"64\"/>"
                             "<array name=\"s\" type=\"int\" length=\"64\" space=\"shared\"/>"
                             "<array name=\"out\" type=\"int\" length=\"1\"/>",
                             "<atomic array=\"s\" index=\"0\"/><store array=\"out\" index=\"0\"/>");
    assert_no_term(k);
    rc_kernel_free(k);
}

/* The published atomic_hotspot model on the TITAN V file: the term sets the estimate and the
 * limiter is the L2. */
static void test_limiter(void **state)
{
    (void)state;
    rc_refined r;
    refine_files("specs/titan-v.xml",
                 "tests/validation/published/models/pub-atomic_hotspot-N262144-iters50-g1024.xml",
                 &r, NULL);
    assert_close(r.atomics.time, 409600 / (0.77 * 1.455e9));
    assert_int_equal(r.limiter, RC_LIMIT_L2);
    assert_close(r.t_body_est, r.atomics.time);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_counter),
        cmocka_unit_test(test_per_lane_one_address),
        cmocka_unit_test(test_per_lane_distinct_addresses),
        cmocka_unit_test(test_stores_share_the_line),
        cmocka_unit_test(test_atomic_no_thread_runs),
        cmocka_unit_test(test_few_lines),
        cmocka_unit_test(test_no_global_atomics),
        cmocka_unit_test(test_limiter),
    };
    return cmocka_run_group_tests(tests, setup_loader_stderr, teardown_loader);
}
