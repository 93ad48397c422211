/* test_banks.c: shared-memory passes per request by each generation's bank rule (banks.h),
 * against NVIDIA's documented rules and published measurements: the access patterns of
 * kzwrime/gpu_shm_microbench (n-way conflicts took n times as long on V100 and A100,
 * tests/validation/published/microbench.csv) and nvprof's shared load transactions per
 * request on a Tesla K80 (Kepler GK210: 1.0 for a warp of float2, 2.0 for float4;
 * ekondis/gpumembench issue #1, same file). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "model/banks.h"

#define ALL 0xffffffffu

/* Lane l reads element index(l) of `elem` bytes: the passes in each mode. */
static void passes(int64_t (*index)(int, int), int arg, int elem, int *word, int *pair)
{
    int64_t off[32];
    for (int l = 0; l < 32; l++)
        off[l] = index(l, arg) * elem;
    *word = rc_shared_passes(off, ALL, elem, RC_BANKS_WORD);
    *pair = rc_shared_passes(off, ALL, elem, RC_BANKS_PAIR);
}

static int64_t lane(int l, int n) { (void)n; return l; }
static int64_t same(int l, int n) { (void)l; (void)n; return 5; }
static int64_t multicast(int l, int n) { return l / n; }
/* gpu_shm_microbench's conflict_n_way: (tx % n) * 32 + tx / n. */
static int64_t conflict(int l, int n) { return (l % n) * 32 + l / n; }
/* Mds[tx][k] of a 32 x 32 float tile: 32 * tx + k. */
static int64_t column(int l, int k) { return 32 * l + k; }

static void test_conflict_free_and_broadcast(void **state)
{
    (void)state;
    int w, p;
    passes(lane, 0, 4, &w, &p);
    assert_int_equal(w, 1);
    assert_int_equal(p, 1);
    passes(same, 0, 4, &w, &p);
    assert_int_equal(w, 1);
    assert_int_equal(p, 1);
    for (int n = 2; n <= 32; n *= 2) { /* multicast: no more than conflict-free */
        passes(multicast, n, 4, &w, &p);
        assert_int_equal(w, 1);
        assert_int_equal(p, 1);
    }
    int64_t off[32] = {0};
    assert_int_equal(rc_shared_passes(off, 0, 4, RC_BANKS_WORD), 0);
}

/* n-way conflicts: n passes in 4-byte banks (the V100 and A100 measurements: 2.00, 4.15,
 * 8.44, 16.87 and 1.97, 3.94, 7.88, 15.75 times the broadcast time). Kepler's banks serve
 * words i and i + 32 of one 64-word segment together: half as many. */
static void test_n_way(void **state)
{
    (void)state;
    int w, p;
    for (int n = 2; n <= 32; n *= 2) {
        passes(conflict, n, 4, &w, &p);
        assert_int_equal(w, n);
        assert_int_equal(p, n / 2);
    }
}

/* Issue 33: a 32 x 32 float tile read down a column is 32-way in 4-byte banks and 16-way on
 * Kepler. */
static void test_column(void **state)
{
    (void)state;
    int w, p;
    for (int k = 0; k < 32; k += 7) {
        passes(column, k, 4, &w, &p);
        assert_int_equal(w, 32);
        assert_int_equal(p, 16);
    }
}

/* Wide words, conflict-free: float2 takes 2 passes in 4-byte banks (V100: 2.03 times the
 * float time), 1 on Kepler (K80 nvprof: 1.0 transactions per request); float4 4 and 2 (V100:
 * 4.14 times; K80: 2.0). */
static void test_wide_words(void **state)
{
    (void)state;
    int w, p;
    passes(lane, 0, 8, &w, &p);
    assert_int_equal(w, 2);
    assert_int_equal(p, 1);
    passes(lane, 0, 16, &w, &p);
    assert_int_equal(w, 4);
    assert_int_equal(p, 2);
}

/* Atomics share nothing: 32 lanes updating one word take 32 passes in both modes (a read takes
 * one), and so does one lane standing for 32 threads (the counting merges threads whose indices
 * are the same, warp.h); distinct words in distinct banks one; a histogram's bins i % 256 by
 * lane: one. */
static void test_atomics(void **state)
{
    (void)state;
    int64_t off[32];
    for (int l = 0; l < 32; l++)
        off[l] = 0;
    assert_int_equal(rc_shared_atomic_passes(off, ALL, 4, NULL), 32);
    assert_int_equal(rc_shared_atomic_passes(off, 0x0000ffffu, 4, NULL), 16);
    assert_int_equal(rc_shared_passes(off, ALL, 4, RC_BANKS_WORD), 1);
    int64_t weight[32] = {32}; /* one lane standing for the warp's 32 threads */
    assert_int_equal(rc_shared_atomic_passes(off, 1u, 4, weight), 32);
    assert_int_equal(rc_shared_passes(off, 1u, 4, RC_BANKS_WORD), 1);
    for (int l = 0; l < 32; l++)
        off[l] = 4 * l;
    assert_int_equal(rc_shared_atomic_passes(off, ALL, 4, NULL), 1);
    for (int l = 0; l < 32; l++) /* two lanes to each of 16 words in 16 banks */
        off[l] = 4 * (l / 2);
    assert_int_equal(rc_shared_atomic_passes(off, ALL, 4, NULL), 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_conflict_free_and_broadcast),
        cmocka_unit_test(test_n_way),
        cmocka_unit_test(test_column),
        cmocka_unit_test(test_wide_words),
        cmocka_unit_test(test_atomics),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
