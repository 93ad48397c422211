/* test_atomics.c: the term of global atomics on few L2 lines (model/atomics.c) against
 * hand-computed cases: one counter, a few lines, a spread-out scatter, shared-memory atomics
 * (not this term) and the limiter it sets. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "model/atomics.h"
#include "model/names.h"
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

/* Per-lane values on distinct addresses: bins[threadIdx.x] from 8 warps of a block, each one
 * line of 32 words, 64 blocks: 512 requests, none with two lanes on one address, so no further
 * updates; 512 operations over the 8 lines, each a pair of 32 addresses: 64 a line at Hopper's
 * 0.0605 a clock (arch.c), 64 / (0.0605 x 1.98e9) = 534.3 ns. */
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
    assert_close(t.multiword, 512);
    assert_close(t.multi_per_clock, 0.0605);
    assert_false(t.multi_assumed);
    assert_close(t.time, 64 / (0.0605 * 1.98e9));
    rc_kernel_free(k);
}

/* Which element types take the integer lane rate: every known type but the floating ones. */
static void test_integer_types(void **state)
{
    (void)state;
    static const char *const integers[] = {"int", "unsigned int", "unsigned", "uint32_t",
                                           "unsigned long long", "size_t", "int4", "uchar2"};
    static const char *const others[] = {"float", "float4", "double", "double2", "half",
                                         "__half", "__half2", "__nv_bfloat16", "bogus", ""};
    for (size_t i = 0; i < sizeof integers / sizeof integers[0]; i++)
        if (!rc_type_is_integer(integers[i]))
            fail_msg("%s: not an integer type", integers[i]);
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++)
        if (rc_type_is_integer(others[i]))
            fail_msg("%s: taken as an integer type", others[i]);
}

/* Integers added lane by lane to one address (arch.c, rc_atomic_lane_per_clock): R100001's NvBench "Simple
 * Histogram" on 2^26 zeroes, atomicAdd(&bins[input[i]], 1), every lane on bins[0], which nvcc
 * cannot combine (the address is data): operand="per-lane" says so. Blocks of 512: 2^21
 * requests, each one operation at 0.77 a clock and 31 further updates at the integer rate,
 * Turing's 1.12 a clock, GA10x's 1.10. On the GTX 1650's file, 2^21 x (1 / 0.77 + 31 / 1.12) /
 * 1590 MHz = 38.22 ms (measured 36.14, +5.8 %); the RTX 2060's, 36.17 ms (38.05, -4.9 %); the
 * RTX 3080's, 36.16 ms (36.16). The same adds of floats take Volta's float rate, assumed. */
static void test_per_lane_integers(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        double rate, measured;
    } gpus[] = {
        {"tests/validation/specs/gtx-1650.xml", 1.12, 36.136571e-3},
        {"tests/validation/specs/rtx-2060.xml", 1.12, 38.049110e-3},
        {"tests/validation/specs/rtx-3080.xml", 1.10, 36.157627e-3},
    };
    const char *launch = "<launch grid=\"131072\" block=\"512\"/>"
                         "<array name=\"input\" type=\"unsigned int\" length=\"67108864\"/>"
                         "<array name=\"bins\" type=\"%s\" length=\"512\"/>";
    const char *work = "<let name=\"i\" value=\"blockIdx.x * blockDim.x + threadIdx.x\"/>"
                       "<load array=\"input\" index=\"i\"/>"
                       "<atomic array=\"bins\" index=\"0\" operand=\"per-lane\"/>";
    char text[512];
    snprintf(text, sizeof text, launch, "unsigned int");
    rc_kernel *k = kernel_of(text, work);
    snprintf(text, sizeof text, launch, "float");
    rc_kernel *kf = kernel_of(text, work);
    for (size_t i = 0; i < sizeof gpus / sizeof gpus[0]; i++) {
        rc_refined r;
        double clock;
        refine_on_gpu_file(gpus[i].file, k, &r, &clock);
        assert_close(r.atomics.lane_extra, 2097152.0 * 31);
        assert_close(r.atomics.lane_per_clock, gpus[i].rate);
        assert_null(strstr(r.atomics.lane_source, "assumed"));
        assert_true(r.atomics.assumed); /* the requests' one operation each, at 0.77 */
        assert_close(r.atomics.time, 2097152 * (1 / 0.77 + 31 / gpus[i].rate) / clock);
        double err = r.atomics.time / gpus[i].measured - 1;
        if (err < -0.06 || err > 0.06)
            fail_msg("%s: %g s against %g measured", gpus[i].file, r.atomics.time,
                     gpus[i].measured);
        refine_on_gpu_file(gpus[i].file, kf, &r, &clock);
        assert_close(r.atomics.lane_per_clock, 0.26);
        assert_non_null(strstr(r.atomics.lane_source, "assumed"));
    }
    rc_kernel_free(k);
    rc_kernel_free(kf);
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
 * one line, 32 addresses: 65,536 threads = 2,048 requests, 2,048 / 8 = 256 a line, at 1 GHz
 * and 7.0's 0.054 a clock (Turing's, assumed) 256 / 0.054e9. A second array with atomics
 * spread over 65,536 words (2,048 lines, one request each) is less hot and does not set the
 * term; a warp updating one word of each of 8 lines (threadIdx.x % 8 x 32) makes one-address
 * pairs at 0.77 a clock: 2,048 x 8 of them, on a footprint of 8 sectors that fill 2 lines
 * (the term's lines), 8,192 a line, 8,192 / 0.77e9. */
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
    assert_close(t.multiword, 2048);
    assert_true(t.multi_assumed);
    assert_close(t.time, 256 / 0.054e9);
    rc_kernel_free(k);
    k = kernel_of("<launch grid=\"256\" block=\"256\"/>"
                  "<array name=\"bins\" type=\"int\" length=\"256\"/>",
                  "<atomic array=\"bins\" index=\"threadIdx.x % 8 * 32\"/>");
    atomic_time(k, 1e9, &t);
    assert_close(t.operations, 2048 * 8);
    assert_close(t.lines, 2);
    assert_close(t.multiword, 0);
    assert_close(t.time, 8192 / 0.77e9);
    rc_kernel_free(k);
}

/* The few-lines microbenchmark the multi-address rate comes from (arch.c): R100001's NvBench
 * "Histogram Shared Bins" with blocks of 32 threads, 2^26 zeroes, 512 bins. Each of the 2^21
 * blocks zeroes its 512 shared bins, adds every element to shared bin 0, and adds its bins to
 * the global ones, 16 requests of 32 words (a line each, values of their own): 2^25 pairs of
 * 32 addresses over 16 lines, 2^21 a line. At 0.054 a clock: 2^21 / (0.054 x 1590 MHz) =
 * 24.43 ms on the GTX 1650's file (measured 23.30 ms, +4.8 %), 23.12 ms on the RTX 2060's
 * (23.97, -3.6 %), 22.71 ms on the RTX 3080's (22.61, +0.5 %). On the 3080 the term sets the
 * estimate (the limiter is the L2). On the 1650 and the 2060 the DRAM term is higher (74.0 and
 * 35.1 ms, short of bytes in flight: the limiter reads occupancy): the launch streams 268 MB, beyond their L2, and the fall-off rule (traffic.h) then
 * sends the 2 KB of bins, which every block updates and the L2 in fact keeps, to DRAM too
 * (docs/architectures.md, "What would change the model most"). */
static void test_few_lines_microbenchmark(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        double measured;
    } gpus[] = {
        {"tests/validation/specs/gtx-1650.xml", 23.299489e-3},
        {"tests/validation/specs/rtx-2060.xml", 23.971257e-3},
        {"tests/validation/specs/rtx-3080.xml", 22.606686e-3},
    };
    rc_kernel *k = kernel_of(
        "<launch grid=\"2097152\" block=\"32\"/>"
        "<array name=\"input\" type=\"unsigned int\" length=\"67108864\"/>"
        "<array name=\"bins\" type=\"unsigned int\" length=\"512\"/>"
        "<array name=\"bins_s\" type=\"unsigned int\" length=\"512\" space=\"shared\"/>",
        "<loop var=\"b\" from=\"threadIdx.x\" to=\"512\" step=\"blockDim.x\">"
        "<store array=\"bins_s\" index=\"b\"/></loop><barrier/>"
        "<loop var=\"i\" from=\"blockIdx.x * blockDim.x + threadIdx.x\" to=\"67108864\" "
        "step=\"blockDim.x * gridDim.x\"><load array=\"input\" index=\"i\"/>"
        "<atomic array=\"bins_s\" index=\"0\"/></loop><barrier/>"
        "<loop var=\"b\" from=\"threadIdx.x\" to=\"512\" step=\"blockDim.x\">"
        "<load array=\"bins_s\" index=\"b\"/>"
        "<atomic array=\"bins\" index=\"b\" operand=\"per-lane\"/></loop>");
    for (size_t i = 0; i < sizeof gpus / sizeof gpus[0]; i++) {
        rc_refined r;
        double clock;
        refine_on_gpu_file(gpus[i].file, k, &r, &clock);
        assert_string_equal(r.atomics.name, "bins");
        assert_close(r.atomics.multiword, 33554432);
        assert_close(r.atomics.lines, 16);
        assert_close(r.atomics.lane_extra, 0);
        assert_close(r.atomics.time, 2097152 / (0.054 * clock));
        double err = r.atomics.time / gpus[i].measured - 1;
        if (err < -0.05 || err > 0.05)
            fail_msg("%s: %g s against %g measured", gpus[i].file, r.atomics.time,
                     gpus[i].measured);
        if (i == 2) {
            assert_int_equal(r.limiter, RC_LIMIT_L2);
            assert_close(r.t_body_est, r.atomics.time);
        } else { /* the gap above: DRAM, its bytes in flight short, sets the estimate */
            assert_int_equal(r.limiter, RC_LIMIT_OCCUPANCY);
            assert_true(r.t_body_est > 1.4 * gpus[i].measured);
        }
    }
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
        cmocka_unit_test(test_integer_types),
        cmocka_unit_test(test_per_lane_integers),
        cmocka_unit_test(test_stores_share_the_line),
        cmocka_unit_test(test_atomic_no_thread_runs),
        cmocka_unit_test(test_few_lines),
        cmocka_unit_test(test_few_lines_microbenchmark),
        cmocka_unit_test(test_no_global_atomics),
        cmocka_unit_test(test_limiter),
    };
    return cmocka_run_group_tests(tests, setup_loader_stderr, teardown_loader);
}
