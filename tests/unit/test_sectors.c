/* test_sectors.c: sets of 32-byte sectors (src/model/sectors.c) and the sector pairs they
 * hold (sectors 2k and 2k + 1, the 64-byte halves of a line that DRAM fetches together:
 * traffic.h), each worked out by hand in its comment. Runs of 4,096 sectors or more are kept
 * as runs, shorter ones in a bitmap: a pair may hold a run's end and a bit of the bitmap. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "model/sectors.h"

/* The sectors of a set made of `n` runs {first, length}, in the order given, and in *pairs
 * (when not NULL) the sector pairs holding one or both. */
static int64_t count_runs(const int64_t (*runs)[2], size_t n, int64_t *pairs)
{
    rc_sectors *s = rc_sectors_new();
    assert_non_null(s);
    for (size_t i = 0; i < n; i++)
        assert_true(rc_sectors_add_lattice(s, runs[i][0], runs[i][1], NULL, 0));
    int64_t count = rc_sectors_count(s, pairs);
    rc_sectors_free(s);
    return count;
}

/* The set of `n` runs holds `sectors` sectors in `pairs` sector pairs. */
static void assert_counts(const int64_t (*runs)[2], size_t n, int64_t sectors, int64_t pairs)
{
    int64_t got = -1;
    assert_int_equal(count_runs(runs, n, &got), sectors);
    assert_int_equal(got, pairs);
}

/* Sectors 0, 2, 3 and 5, in the bitmap: pairs (0, 1), (2, 3) and (4, 5). */
static void test_bitmap_pairs(void **state)
{
    (void)state;
    const int64_t runs[][2] = {{0, 1}, {2, 2}, {5, 1}};
    assert_counts(runs, 3, 4, 3);
}

/* A run of sectors 1 to 8,192 and, in the bitmap, sectors 0 and 8,193: 8,194 sectors, pairs 0 to
 * 4,096 (4,097), the first and the last each holding a bit and a sector of the run. */
static void test_run_ends_share_pairs(void **state)
{
    (void)state;
    const int64_t runs[][2] = {{1, 8192}, {0, 1}, {8193, 1}};
    assert_counts(runs, 3, 8194, 4097);
}

/* A run of sectors 2 to 4,097 (pairs 1 to 2,048) and sectors 1 and 4,099 beside it, in pairs of
 * their own (0 and 2,049): 4,098 sectors, 2,050 pairs. Then two overlapping runs, 0 to 4,999
 * and 4,000 to 8,999, merged: 9,000 sectors, 4,500 pairs; without pairs asked, the count. */
static void test_runs_apart(void **state)
{
    (void)state;
    const int64_t apart[][2] = {{2, 4096}, {1, 1}, {4099, 1}};
    const int64_t overlapping[][2] = {{0, 5000}, {4000, 5000}};
    const int64_t short_run[][2] = {{7, 3}};
    assert_counts(apart, 3, 4098, 2050);
    assert_counts(overlapping, 2, 9000, 4500);
    assert_int_equal(count_runs(short_run, 1, NULL), 3);
}

/* rc_sectors_has, before the count: in a run, in the bitmap, beside both, below zero. */
static void test_has(void **state)
{
    (void)state;
    rc_sectors *s = rc_sectors_new();
    assert_non_null(s);
    assert_true(rc_sectors_add_lattice(s, 10, 5000, NULL, 0));
    assert_true(rc_sectors_add_lattice(s, 3, 1, NULL, 0));
    assert_true(rc_sectors_has(s, 10));
    assert_true(rc_sectors_has(s, 5009));
    assert_true(rc_sectors_has(s, 3));
    assert_false(rc_sectors_has(s, 5010));
    assert_false(rc_sectors_has(s, 9));
    assert_false(rc_sectors_has(s, 4));
    assert_false(rc_sectors_has(s, -1));
    rc_sectors_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bitmap_pairs),
        cmocka_unit_test(test_run_ends_share_pairs),
        cmocka_unit_test(test_runs_apart),
        cmocka_unit_test(test_has),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
