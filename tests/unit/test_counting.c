/* test_counting.c: counting by classes (docs/counting.md): the worked
 * examples of the document, with the numbers worked out there by hand,
 * each counted by classes (no array enumerated) and equal to the
 * enumeration; the fallback's stated reason; its progress. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/eval.h"

#include "loader_fixture.h"

static rc_kernel *load(const char *grid, const char *block, const char *decls, const char *work)
{
    char xml[8192];
    snprintf(xml, sizeof xml,
             "<kernel id='t' name='t'><summary>s</summary><source>x</source>"
             "<launch grid='%s' block='%s'/>%s<work>%s</work></kernel>",
             grid, block, decls, work);
    rc_kernel *k = rc_load_kernel_memory(loader, "test.xml", xml, strlen(xml), diag);
    assert_non_null(k);
    return k;
}

static void counts(const rc_kernel *k, const rc_eval_options *o, rc_counts *c)
{
    rc_eval_error err;
    bool ok = rc_evaluate_with(k, false, o, c, &err);
    if (!ok)
        fprintf(stderr, "evaluation failed: %s\n", err.message);
    assert_true(ok);
}

/* The array's counts by classes, checked equal to the enumeration's. */
static void by_classes(const rc_kernel *k, rc_access_counts *out)
{
    rc_eval_options classes = {false, NULL, NULL}, enumerate = {true, NULL, NULL};
    rc_counts a, b;
    counts(k, &classes, &a);
    counts(k, &enumerate, &b);
    assert_string_equal(a.memory.enumerated, "");
    /* Every count equal; the index range is the enumeration's alone (access.h). */
    rc_access_counts x = a.memory.arrays[0], y = b.memory.arrays[0];
    assert_true(x.index_max < x.index_min);
    assert_true(y.index_max >= y.index_min);
    x.index_min = y.index_min;
    x.index_max = y.index_max;
    assert_memory_equal(&x, &y, sizeof x);
    *out = a.memory.arrays[0];
    rc_counts_release(&a);
    rc_counts_release(&b);
}

/* Per-lane atomics: each request counts the updates of its busiest address beyond the first.
 * Blocks of 100 threads, threadIdx.x / 8: warps 0 to 2 put 8 lanes on each of 4 addresses (7
 * further each), warp 3 its 4 lanes (threads 96 to 99) on address 12 (3 further): 24 a block,
 * 96 over 4 blocks; by classes and enumerated alike. The 13 floats are one line: warps 0 to 2
 * update four addresses of it (a pair of two or more addresses each), warp 3 one: 3 a block,
 * 12 in all. */
static void test_per_lane_atomic(void **state)
{
    (void)state;
    rc_kernel *k = load("4", "100", "<array name='s' type='float' length='13'/>",
                        "<atomic array='s' index='threadIdx.x / 8' operand='per-lane'/>");
    rc_access_counts a;
    by_classes(k, &a);
    assert_int_equal(a.requests, 16);
    assert_int_equal(a.atomic_lane_extra, 96);
    assert_int_equal(a.atomic_multiword, 12);
    rc_kernel_free(k);
}

/* Atomics' pairs of two or more addresses: a warp updating every eighth float (32 bytes
 * apart) puts four lanes on each of 8 lines, 8 such pairs; one updating every 32nd float puts
 * one lane on each of 32 lines, none. Two warps a block, three blocks: 48 and 0. */
static void test_multiword_atomic(void **state)
{
    (void)state;
    rc_kernel *k = load("3", "64", "<array name='s' type='float' length='2048'/>",
                        "<atomic array='s' index='threadIdx.x * 8'/>");
    rc_access_counts a;
    by_classes(k, &a);
    assert_int_equal(a.requests, 6);
    assert_int_equal(a.store_line_bytes, 6 * 8 * 128);
    assert_int_equal(a.atomic_multiword, 48);
    rc_kernel_free(k);
    k = load("3", "64", "<array name='s' type='float' length='2048'/>",
             "<atomic array='s' index='threadIdx.x * 32'/>");
    by_classes(k, &a);
    assert_int_equal(a.store_line_bytes, 6 * 32 * 128);
    assert_int_equal(a.store_part_lines[0], 6 * 32);
    assert_int_equal(a.atomic_multiword, 0);
    rc_kernel_free(k);
}

/* docs/counting.md, the worked example: boxes {0}, {1, 2}, {3}; blocks
 * 0 to 2 make 8 requests of 4 sectors, block 3 8 requests of 29 sectors
 * (warp 7 has 8 lanes); the footprint is the run of 125 sectors. */
static void test_guarded_vector(void **state)
{
    (void)state;
    rc_kernel *k = load("4", "256", "<param name='N' value='1000'/>"
                                    "<array name='x' type='float' length='N'/>",
                        "<let name='i' value='blockIdx.x * 256 + threadIdx.x'/>"
                        "<when test='i &lt; N'><load array='x' index='i'/></when>");
    rc_access_counts a;
    by_classes(k, &a);
    assert_int_equal(a.requests, 32);
    assert_int_equal(a.accessed_bytes, 4000);
    assert_int_equal(a.sector_bytes, 4000);
    assert_int_equal(a.footprint_bytes, 4000);
    /* Sectors 0 to 124: pairs 0 to 62, the last holding sector 124 alone, its other half past
     * the array's end and not charged. */
    assert_int_equal(a.footprint_pair_bytes, 62 * 64 + 32);
    assert_int_equal(a.block_sector_bytes, 4000);
    assert_int_equal(a.block_footprint_max, 1024);
    rc_kernel_free(k);
}

/* docs/counting.md, the loop: P = 32 iterations of 64 run, each for 2;
 * 16 blocks x 8 warps x 64 iterations = 8,192 requests of 2 sectors; each
 * block its 16 rows of 256 bytes; the footprint the whole of A. */
static void test_rows(void **state)
{
    (void)state;
    rc_kernel *k = load("4, 4", "16, 16", "<param name='N' value='64'/>"
                                          "<array name='A' type='float' length='N * N'/>",
                        "<let name='row' value='blockIdx.y * 16 + threadIdx.y'/>"
                        "<loop var='k' from='0' to='N'><load array='A' index='row * N + k'/></loop>");
    rc_access_counts a;
    by_classes(k, &a);
    assert_int_equal(a.requests, 8192);
    assert_int_equal(a.accessed_bytes, 8192 * 32 * 4);
    assert_int_equal(a.sector_bytes, 8192 * 2 * 32);
    assert_int_equal(a.footprint_bytes, 64 * 64 * 4);
    assert_int_equal(a.block_sector_bytes, 16 * 4096);
    assert_int_equal(a.block_footprint_max, 4096);
    rc_kernel_free(k);
}

/* Stores into every second float of 3 blocks of 64 (block 1 starts at
 * byte 512): moves of 512 bytes, 0 modulo 128, one class; each warp's
 * 32 lanes span 256 bytes: 8 sectors, 2 lines a request; 2 warps a
 * block: 6 requests, 48 sectors, 12 lines; 768 bytes accessed; the
 * footprint 3 x 512 bytes, all sectors touched. */
static void test_strided_stores(void **state)
{
    (void)state;
    rc_kernel *k = load("3", "64", "<array name='y' type='float' length='1024'/>",
                        "<store array='y' index='2 * (blockIdx.x * 64 + threadIdx.x)'/>");
    rc_access_counts a;
    by_classes(k, &a);
    assert_int_equal(a.requests, 6);
    assert_int_equal(a.accessed_bytes, 768);
    assert_int_equal(a.sector_bytes, 48 * 32);
    assert_int_equal(a.store_sector_bytes, 48 * 32);
    assert_int_equal(a.store_line_bytes, 12 * 128);
    /* every second float of each sector: its 12 lines (4 sectors each) are written in part */
    assert_int_equal(a.store_part_lines[3], 12);
    assert_int_equal(a.store_part_lines[0] + a.store_part_lines[1] + a.store_part_lines[2], 0);
    assert_int_equal(a.footprint_bytes, 1536);
    assert_int_equal(a.footprint_pair_bytes, 1536);
    rc_kernel_free(k);
}

/* Sector pairs (a line's 64-byte halves, what DRAM fetches on a miss: traffic.h). A float every
 * 64 bytes: each of the 128 lanes its own sector, 2i, alone in its pair: 4 KiB of sectors,
 * 8 KiB of pairs (test_sectors has the pairs of runs). */
static void test_sector_pairs(void **state)
{
    (void)state;
    rc_kernel *k = load("2", "64", "<array name='x' type='float' length='2048'/>",
                        "<load array='x' index='16 * (blockIdx.x * 64 + threadIdx.x)'/>");
    rc_access_counts a;
    by_classes(k, &a);
    assert_int_equal(a.footprint_bytes, 128 * 32);
    assert_int_equal(a.footprint_pair_bytes, 128 * 64);
    rc_kernel_free(k);
}

typedef struct {
    int calls;
    int64_t done[8], total;
    char array[16];
} progress_log;

static void log_progress(void *ctx, const char *array, rc_access_pass pass, int64_t done,
                         int64_t total)
{
    progress_log *p = ctx;
    assert_int_equal(pass, RC_ACCESS_PASS_ALL);
    if (p->calls < 8)
        p->done[p->calls] = done;
    p->calls++;
    p->total = total;
    snprintf(p->array, sizeof p->array, "%s", array);
}

/* i % 7 is not affine in blockIdx.x: the array is enumerated, the
 * results say why, and the 200 blocks' progress is told every 64 and at
 * the end. */
static void test_fallback(void **state)
{
    (void)state;
    rc_kernel *k = load("200", "32", "<array name='h' type='int' length='7'/>",
                        "<let name='i' value='blockIdx.x * 32 + threadIdx.x'/>"
                        "<atomic array='h' index='i % 7'/>");
    progress_log log = {0, {0}, 0, ""};
    rc_eval_options o = {false, log_progress, &log};
    rc_counts c;
    counts(k, &o, &c);
    assert_string_equal(c.memory.enumerated,
                        "'h': the index i % 7 of <atomic> at line 1 is not affine in the "
                        "block indices");
    assert_int_equal(log.calls, 4);
    assert_int_equal(log.done[0], 64);
    assert_int_equal(log.done[1], 128);
    assert_int_equal(log.done[2], 192);
    assert_int_equal(log.done[3], 200);
    assert_int_equal(log.total, 200);
    assert_string_equal(log.array, "h");
    /* 200 warps, each touching all 7 ints (28 bytes, one sector). */
    assert_int_equal(c.memory.arrays[0].requests, 200);
    assert_int_equal(c.memory.arrays[0].sector_bytes, 200 * 32);
    assert_int_equal(c.memory.arrays[0].footprint_bytes, 32);
    rc_counts_release(&c);
    rc_kernel_free(k);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_guarded_vector),
        cmocka_unit_test(test_per_lane_atomic),
        cmocka_unit_test(test_multiword_atomic),
        cmocka_unit_test(test_rows),
        cmocka_unit_test(test_strided_stores),
        cmocka_unit_test(test_sector_pairs),
        cmocka_unit_test(test_fallback),
    };
    return cmocka_run_group_tests(tests, setup_loader_stderr, teardown_loader);
}
