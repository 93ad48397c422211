/* test_access.c: the memory counts of issue 16 on small launches, each
 * worked out by hand in its comment. Arrays start 256-byte aligned, so a
 * float array's element i is at byte 4i: sector i / 8. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/diag.h"
#include "model/eval.h"
#include "model/traffic.h"
#include "input/load.h"

#include "loader_fixture.h"

/* Loads a kernel around `decls` and `work` and counts it; the counts of
 * the whole launch are in c->memory. */
static void count(const char *grid, const char *block, const char *decls, const char *work,
                  rc_counts *c)
{
    char xml[8192];
    snprintf(xml, sizeof xml,
             "<kernel id='t' name='t'><summary>s</summary><source>x</source>"
             "<launch grid='%s' block='%s'/>%s<work>%s</work></kernel>",
             grid, block, decls, work);
    rc_kernel *k = rc_load_kernel_memory(loader, "test.xml", xml, strlen(xml), diag);
    if (!k) {
        fflush(messages);
        fprintf(stderr, "load failed: %s\n", message_buf);
    }
    assert_non_null(k);
    rc_eval_error err;
    bool ok = rc_evaluate(k, false, c, &err);
    if (!ok)
        fprintf(stderr, "evaluation failed: %s\n", err.message);
    assert_true(ok);
    assert_true(c->memory_counted);
    rc_kernel_free(k);
}

/* requests, accessed, sector and footprint bytes of the whole launch. */
static void expect_global(const rc_counts *c, int64_t requests, int64_t accessed, int64_t sectors,
                          int64_t footprint)
{
    const rc_access_counts *m = &c->memory.total;
    assert_int_equal(m->requests, requests);
    assert_int_equal(m->accessed_bytes, accessed);
    assert_int_equal(m->sector_bytes, sectors);
    assert_int_equal(m->footprint_bytes, footprint);
    assert_false(c->memory.sampled);
}

#define FLOATS(n) "<array name='A' type='float' length='" #n "'/>"

/* 32 lanes read A[0..31]: bytes 0-127, 4 sectors, one request. */
static void test_coalesced(void **state)
{
    (void)state;
    rc_counts c;
    count("1", "32", FLOATS(32), "<load array='A' index='threadIdx.x'/>", &c);
    expect_global(&c, 1, 128, 128, 128);
    rc_counts_release(&c);
    /* float4: 32 x 16 = 512 bytes, 16 sectors. */
    count("1", "32", "<array name='A' type='float4' length='32'/>",
          "<load array='A' index='threadIdx.x'/>", &c);
    expect_global(&c, 1, 512, 512, 512);
    rc_counts_release(&c);
}

/* Stride 2: bytes 0, 8, ..., 248: 8 sectors for 128 bytes used. Stride 8
 * (32 bytes): every lane its own sector, 32 of them. */
static void test_strided(void **state)
{
    (void)state;
    rc_counts c;
    count("1", "32", FLOATS(64), "<load array='A' index='2 * threadIdx.x'/>", &c);
    expect_global(&c, 1, 128, 256, 256);
    rc_counts_release(&c);
    count("1", "32", FLOATS(256), "<load array='A' index='8 * threadIdx.x'/>", &c);
    expect_global(&c, 1, 128, 1024, 1024);
    rc_counts_release(&c);
}

/* Every lane reads A[0]: one sector, 128 bytes accessed. */
static void test_broadcast(void **state)
{
    (void)state;
    rc_counts c;
    count("1", "32", FLOATS(32), "<load array='A' index='0'/>", &c);
    expect_global(&c, 1, 128, 32, 32);
    rc_counts_release(&c);
}

/* A 32 x 32 block reads a column per warp: A[x * 32 + y]. Each warp (one
 * y) touches 32 sectors 128 bytes apart; 32 warps: 1,024 sectors, 32 KiB,
 * for a footprint of the whole 4 KiB array. */
static void test_transposed(void **state)
{
    (void)state;
    rc_counts c;
    count("1", "32,32", FLOATS(1024), "<load array='A' index='threadIdx.x * 32 + threadIdx.y'/>", &c);
    expect_global(&c, 32, 4096, 32768, 4096);
    rc_counts_release(&c);
    /* Row by row instead: 32 requests of 4 sectors. */
    count("1", "32,32", FLOATS(1024), "<load array='A' index='threadIdx.y * 32 + threadIdx.x'/>", &c);
    expect_global(&c, 32, 4096, 4096, 4096);
    rc_counts_release(&c);
}

/* Stores and atomics count the lines each request touches. A 32 x 32 block stores a column per
 * warp, A[x * 32 + y]: each of the 32 requests writes 4 bytes in each of 32 lines (one sector of
 * each), 32 x 32 x 32 = 32,768 sector bytes and 32 x 32 x 128 = 131,072 line bytes. Row by row:
 * one line, 4 sectors a request, 4,096 bytes either way. Loads count none; an atomic on A[0]
 * from 32 lanes is one sector of one line. */
static void test_store_lines(void **state)
{
    (void)state;
    rc_counts c;
    count("1", "32,32", FLOATS(1024), "<store array='A' index='threadIdx.x * 32 + threadIdx.y'/>", &c);
    assert_int_equal(c.memory.total.store_sector_bytes, 32768);
    assert_int_equal(c.memory.total.store_line_bytes, 131072);
    assert_int_equal(c.memory.arrays[0].store_line_bytes, 131072);
    rc_counts_release(&c);
    count("1", "32,32", FLOATS(1024), "<store array='A' index='threadIdx.y * 32 + threadIdx.x'/>", &c);
    assert_int_equal(c.memory.total.store_sector_bytes, 4096);
    assert_int_equal(c.memory.total.store_line_bytes, 4096);
    rc_counts_release(&c);
    count("1", "32,32", FLOATS(1024), "<load array='A' index='threadIdx.x * 32 + threadIdx.y'/>", &c);
    assert_int_equal(c.memory.total.store_sector_bytes, 0);
    assert_int_equal(c.memory.total.store_line_bytes, 0);
    rc_counts_release(&c);
    count("1", "32", FLOATS(32), "<atomic array='A' index='0'/>", &c);
    assert_int_equal(c.memory.total.store_sector_bytes, 32);
    assert_int_equal(c.memory.total.store_line_bytes, 128);
    rc_counts_release(&c);
}

/* 48 threads: warp 0 reads bytes 0-127 (4 sectors), warp 1 has 16 lanes,
 * bytes 128-191 (2 sectors). */
static void test_partial_last_warp(void **state)
{
    (void)state;
    rc_counts c;
    count("1", "48", FLOATS(48), "<load array='A' index='threadIdx.x'/>", &c);
    expect_global(&c, 2, 192, 192, 192);
    rc_counts_release(&c);
}

/* Even lanes only: 16 lanes, bytes 0, 8, ..., 120: still 4 sectors. A warp
 * whose lanes all skip the access makes no request. */
static void test_guarded_lanes(void **state)
{
    (void)state;
    rc_counts c;
    count("1", "32", FLOATS(32),
          "<when test='threadIdx.x % 2 == 0'><load array='A' index='threadIdx.x'/></when>", &c);
    expect_global(&c, 1, 64, 128, 128);
    rc_counts_release(&c);
    count("1", "64", FLOATS(64),
          "<when test='threadIdx.x &lt; 32'><store array='A' index='threadIdx.x'/></when>", &c);
    expect_global(&c, 1, 128, 128, 128);
    rc_counts_release(&c);
}

/* for (i = tx; i < 100; i += 32) A[i]: iterations 0-2 with 32 lanes (4
 * sectors each), iteration 3 with lanes 0-3 (bytes 384-399, 1 sector):
 * 4 requests, 400 bytes, 13 sectors, and the footprint is those 13. */
static void test_loop_iterations(void **state)
{
    (void)state;
    rc_counts c;
    count("1", "32", FLOATS(100),
          "<loop var='i' from='threadIdx.x' to='100' step='blockDim.x'>"
          "<load array='A' index='i'/></loop>", &c);
    expect_global(&c, 4, 400, 416, 416);
    rc_counts_release(&c);
}

/* Shared memory: S[32 * tx] puts all 32 words in bank 0: 32 wavefronts.
 * Padded, S[33 * tx] puts lane t in bank t: 1. S[2 * tx]: 2 words in each
 * even bank: 2. S[0]: a broadcast, 1. Shared accesses add no bytes. */
static void test_bank_conflicts(void **state)
{
    (void)state;
    static const struct {
        const char *index;
        int64_t wavefronts;
    } cases[] = {{"32 * threadIdx.x", 32}, {"33 * threadIdx.x", 1}, {"2 * threadIdx.x", 2},
                 {"0", 1}, {"threadIdx.x", 1}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char work[256];
        snprintf(work, sizeof work, "<load array='S' index='%s'/>", cases[i].index);
        rc_counts c;
        count("1", "32", "<array name='S' type='float' length='32 * 33' space='shared'/>", work, &c);
        assert_int_equal(c.memory.total.shared_requests, 1);
        if (c.memory.total.shared_wavefronts != cases[i].wavefronts)
            fprintf(stderr, "S[%s]\n", cases[i].index);
        assert_int_equal(c.memory.total.shared_wavefronts, cases[i].wavefronts);
        assert_int_equal(c.memory.total.requests, 0);
        assert_int_equal(c.bytes.total, 0);
        rc_counts_release(&c);
    }
    /* double: lane t reads words 2t and 2t+1: 64 words, 2 per bank. */
    rc_counts c;
    count("1", "32", "<array name='S' type='double' length='32' space='shared'/>",
          "<load array='S' index='threadIdx.x'/>", &c);
    assert_int_equal(c.memory.total.shared_wavefronts, 2);
    rc_counts_release(&c);
}

/* Two blocks read the same 128 bytes: each block's own footprint is 4
 * sectors (block sector bytes 256 in all), the launch's is 4 (128). */
static void test_footprint_across_blocks(void **state)
{
    (void)state;
    rc_counts c;
    count("2", "32", FLOATS(32), "<load array='A' index='threadIdx.x'/>", &c);
    expect_global(&c, 2, 256, 256, 128);
    assert_int_equal(c.memory.total.block_sector_bytes, 256);
    assert_int_equal(c.memory.total.block_footprint_max, 128);
    rc_counts_release(&c);
}

/* 8 lanes' worth of atomics on 8 ints: one request, one sector. */
static void test_atomic(void **state)
{
    (void)state;
    rc_counts c;
    count("1", "32", "<array name='H' type='int' length='8'/>",
          "<atomic array='H' index='threadIdx.x % 8'/>", &c);
    expect_global(&c, 1, 128, 32, 32);
    rc_counts_release(&c);
}

/* Counts a launch of `grid` blocks of 32 threads and checks its footprint and the bytes it
 * both reads and writes. */
static void expect_rewritten(const char *grid, const char *decls, const char *work,
                             int64_t footprint, int64_t rewritten)
{
    rc_counts c;
    count(grid, "32", decls, work, &c);
    assert_int_equal(c.memory.total.footprint_bytes, footprint);
    assert_int_equal(c.memory.total.rewritten_bytes, rewritten);
    rc_counts_release(&c);
}

/* What a launch both reads and writes (DRAM reads it in and writes it back, traffic.h). daxpy
 * on 2 blocks of 32 floats: x is read (8 sectors), y read and written in place (8 sectors):
 * footprint 16 sectors, 8 of them rewritten. A store-only array rewrites nothing; an
 * atomic-only one all it touches. */
static void test_rewritten(void **state)
{
    (void)state;
    rc_counts c;
    count("2", "32", "<array name='x' type='float' length='64'/><array name='y' type='float' length='64'/>",
          "<let name='i' value='blockIdx.x * blockDim.x + threadIdx.x'/>"
          "<load array='x' index='i'/><load array='y' index='i'/><store array='y' index='i'/>", &c);
    assert_int_equal(c.memory.total.footprint_bytes, 512);
    assert_int_equal(c.memory.arrays[0].rewritten_bytes, 0);
    assert_int_equal(c.memory.arrays[1].rewritten_bytes, 256);
    assert_int_equal(c.memory.total.rewritten_bytes, 256);
    rc_counts_release(&c);
    /* Reads A[0..31] (bytes 0-127: sectors 0-3), writes A[16..47] (bytes 64-191: sectors
     * 2-5): 4 + 4 - 6 = 2 sectors both read and written. */
    const char *a48 = "<array name='A' type='float' length='48'/>";
    expect_rewritten("1", a48, "<load array='A' index='threadIdx.x'/><store array='A' index='threadIdx.x + 16'/>",
                     192, 64);
    /* The same, written under a guard that no lane passes: nothing is written. */
    expect_rewritten("1", a48,
                     "<load array='A' index='threadIdx.x'/>"
                     "<when test='threadIdx.x &gt; 40'><store array='A' index='threadIdx.x + 16'/></when>",
                     128, 0);
    expect_rewritten("1", "<array name='A' type='float' length='32'/>",
                     "<store array='A' index='threadIdx.x'/>", 128, 0);
    expect_rewritten("1", "<array name='H' type='int' length='8'/>",
                     "<atomic array='H' index='threadIdx.x % 8'/>", 32, 32);
    /* i % 16 is not affine in blockIdx.x: enumerated, the kinds kept a sector. Reads A[0..15]
     * (sectors 0 and 1), writes A[0..7] (sector 0): one sector both. */
    count("4", "32", "<array name='A' type='float' length='16'/>",
          "<let name='i' value='blockIdx.x * blockDim.x + threadIdx.x'/>"
          "<load array='A' index='i % 16'/><store array='A' index='i % 8'/>", &c);
    assert_string_not_equal(c.memory.enumerated, "");
    assert_int_equal(c.memory.total.footprint_bytes, 64);
    assert_int_equal(c.memory.total.rewritten_bytes, 32);
    rc_counts_release(&c);
    /* Shared memory never reaches DRAM. */
    expect_rewritten("1", "<array name='s' type='float' length='32' space='shared'/>",
                     "<store array='s' index='threadIdx.x'/><load array='s' index='31 - threadIdx.x'/>",
                     0, 0);
}

/* Legacy accesses: coalesced and no reuse. 32 threads x 2 x 4 bytes = 256
 * bytes: 2 requests of 128 bytes. */
static void test_legacy(void **state)
{
    (void)state;
    rc_counts c;
    count("1", "32", "", "<load count='2' bytes='4'/>", &c);
    expect_global(&c, 2, 256, 256, 256);
    rc_counts_release(&c);
}

/* Per array, and the arrays add up: maximum_kernel's rows of vg_a are 400
 * bytes apart, so row x starts in sector 12.5 x: the footprint of its 5
 * rows (2,000 bytes) is 63 sectors, 2,016 bytes. The bytes accessed equal
 * the evaluator's bytes. */
static void test_per_array(void **state)
{
    (void)state;
    rc_counts c;
    count("5,5", "32,32",
          "<param name='k' value='100'/><array name='a' type='float' length='5 * k'/>"
          "<array name='b' type='float' length='5 * k'/>",
          "<loop var='offset' from='threadIdx.x' to='k' step='blockDim.x'>"
          "<load array='a' index='blockIdx.x * k + offset'/>"
          "<load array='b' index='blockIdx.y * k + offset'/></loop>", &c);
    assert_int_equal(c.memory.narrays, 2);
    assert_int_equal(c.memory.arrays[0].accessed_bytes, 320000);
    assert_int_equal(c.memory.arrays[0].footprint_bytes, 2016);
    assert_int_equal(c.memory.arrays[1].footprint_bytes, 2016);
    /* Per warp (one threadIdx.y row), 4 requests; 32 rows, 25 blocks. */
    assert_int_equal(c.memory.arrays[0].requests, 4 * 32 * 25);
    assert_int_equal(c.memory.total.accessed_bytes, c.bytes.total);
    /* Row 0: 13 sectors (test_loop_iterations). Row 1 is bytes 400-799:
     * iterations cover bytes 400-527 (sectors 12-16: 5), 528-655 (16-20:
     * 5), 656-783 (20-24: 5) and 784-799 (24: 1): 16. Row 2 starts at byte
     * 800, sector 25 exactly, like row 0; row 3 like row 1, row 4 like row
     * 0: 13 + 16 + 13 + 16 + 13 = 71 sectors, each row read by 32 warps in
     * each of 5 blocks. */
    assert_int_equal(c.memory.arrays[0].sector_bytes, 71LL * 32 * 5 * 32);
    rc_counts_release(&c);
}

/* A GPU of 2 SMs (2,048 threads and 32 blocks each) with `l1` bytes of L1 per SM and an
 * `l2`-byte L2, for the traffic rule; no compute capability unless the test sets one. */
static rc_gpu traffic_gpu(double l1, double l2)
{
    rc_gpu g;
    memset(&g, 0, sizeof g);
    g.sm.count.value = 2;
    g.sm.threads.value = 2048;
    g.sm.blocks.value = 32;
    g.sm.l1.value = l1;
    g.l2_bytes = l2;
    return g;
}

/* The traffic rule (traffic.h) on numbers worked by hand: 4 blocks on a
 * GPU of 2 SMs with 1,000 bytes of L1 each and a 2,000-byte L2. S = 8,000
 * sector bytes, B = 4,000 (each block's distinct sectors), F = 1,000 per
 * block, W = 3,000 footprint. 2 blocks per SM: C = 500, so L1 keeps half:
 * l2 = 4,000 + 4,000 x 0.5 = 6,000. W > L2: f = 2/3, dram = 3,000 +
 * 3,000 x 1/3 = 4,000. */
static void test_traffic_rule(void **state)
{
    (void)state;
    rc_gpu g = traffic_gpu(1000, 2000);
    g.bandwidth = 1e9;
    g.rates.l2_bandwidth.value = 2e9;
    g.rates.l1_bandwidth.value = 4e9;
    rc_counts c;
    memset(&c, 0, sizeof c);
    c.blocks_launched = 4;
    c.threads_per_block = 32;
    c.flops.total = 12000;
    c.memory.total = (rc_access_counts){.sector_bytes = 8000, .block_sector_bytes = 4000,
                                        .block_footprint_max = 1000, .footprint_bytes = 3000,
                                        .shared_wavefronts = 10};
    rc_traffic t;
    rc_traffic_compute(&g, &c, NULL, &t);
    assert_true(t.resident_blocks == 2);
    assert_true(t.l1_hit == 0.5);
    assert_true(t.l1_bytes == 8000 + 1280);
    assert_true(t.l2_bytes == 6000);
    assert_true(fabs(t.dram_bytes - 4000) < 1e-9);
    assert_true(fabs(t.t_dram - 4e-6) < 1e-15);
    assert_true(t.t_l2 == 3e-6);
    assert_true(fabs(t.intensity_l2 - 2) < 1e-12);
    /* Everything fits: DRAM moves the footprint, L2 what blocks touch. */
    g.sm.l1.value = 1e6;
    g.l2_bytes = 1e6;
    rc_traffic_compute(&g, &c, NULL, &t);
    assert_true(t.l2_bytes == 4000);
    assert_true(t.dram_bytes == 3000);
    /* 500 of the footprint's bytes both read and written: DRAM moves them twice. */
    c.memory.total.rewritten_bytes = 500;
    rc_traffic_compute(&g, &c, NULL, &t);
    assert_true(t.l2_bytes == 4000);
    assert_true(t.dram_bytes == 3500);
}

/* "L1 keeps" is h itself wherever no array with reuse bypasses L1: on 7.0 (L1 caches every
 * global load) and on 3.7 without arrays (legacy bytes only). 4 blocks, 2 an SM: C = 700 of
 * a 1,400-byte L1, F = 904, h = 700 / 904; S - B = 96. (S - B) x h / (S - B) rounds below
 * h for these numbers, which once marked the estimate as losing reuse to a read-only L1. */
static void test_l1_kept_without_bypass(void **state)
{
    (void)state;
    static char *const ccs[] = {"7.0", "3.7", NULL};
    rc_gpu g = traffic_gpu(1400, 1e6);
    rc_counts c;
    memset(&c, 0, sizeof c);
    c.blocks_launched = 4;
    c.threads_per_block = 32;
    c.memory.total = (rc_access_counts){.sector_bytes = 1000, .block_sector_bytes = 904,
                                        .block_footprint_max = 904, .footprint_bytes = 904};
    for (int i = 0; i < 3; i++) {
        g.compute_capability = ccs[i];
        rc_traffic t;
        rc_traffic_compute(&g, &c, NULL, &t);
        assert_true(t.l1_hit == 700.0 / 904);
        assert_true(t.l1_kept == t.l1_hit);
        assert_false(t.l1_reuse_bypassed);
    }
}

/* read-only-path on a GPU whose L1 caches only read-only data (5.2): 4 blocks of 32 threads
 * each load A[threadIdx.x] twice and store C[blockIdx.x * 32 + threadIdx.x]. A: S = 4 x 2 x
 * 128 = 1,024 sector bytes, B = 4 x 128 = 512 distinct per block; C: 512 and 512, always to
 * L2 (the kernel writes it). With L1 large enough, an A that takes the read-only path (not
 * said, assumed; or "yes") sends B = 512 to L2, so l2 = 512 + 512 = 1,024; an A read through an
 * ordinary pointer ("no") sends all 1,024: l2 = 1,536. On 7.0, whose L1 caches global loads,
 * the attribute changes nothing: 1,024. */
static void test_read_only_path(void **state)
{
    (void)state;
    static const char *const decls[] = {"", " read-only-path='yes'", " read-only-path='no'"};
    static const double want_52[] = {1024, 1024, 1536};
    rc_gpu g = traffic_gpu(1e6, 1e6);
    for (int i = 0; i < 3; i++) {
        char arrays[256];
        snprintf(arrays, sizeof arrays,
                 "<array name='A' type='float' length='32'%s/>"
                 "<array name='C' type='float' length='128'/>",
                 decls[i]);
        rc_counts c;
        count("4", "32", arrays,
              "<loop var='j' from='0' to='2'><load array='A' index='threadIdx.x'/></loop>"
              "<store array='C' index='blockIdx.x * 32 + threadIdx.x'/>",
              &c);
        assert_int_equal(c.memory.arrays[0].sector_bytes, 1024);
        assert_int_equal(c.memory.arrays[0].block_sector_bytes, 512);
        assert_int_equal(c.memory.arrays[0].read_only_path, (rc_read_only_path)i);
        rc_traffic t;
        g.compute_capability = "5.2";
        rc_traffic_compute(&g, &c, NULL, &t);
        assert_true(t.l2_bytes == want_52[i]);
        /* "L1 keeps": of the launch's reuse, S - B = 1,536 - 1,024 = 512 (all A's), L1 keeps
         * it all unless A bypasses L1 */
        assert_true(t.l1_hit == 1);
        assert_true(t.l1_kept == (i == 2 ? 0 : 1));
        assert_true(t.l1_reuse_bypassed == (i == 2));
        g.compute_capability = "7.0";
        rc_traffic_compute(&g, &c, NULL, &t);
        assert_true(t.l2_bytes == 1024);
        assert_true(t.l1_kept == 1);
        assert_false(t.l1_reuse_bypassed);
        rc_counts_release(&c);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_coalesced),
        cmocka_unit_test(test_strided),
        cmocka_unit_test(test_broadcast),
        cmocka_unit_test(test_transposed),
        cmocka_unit_test(test_store_lines),
        cmocka_unit_test(test_partial_last_warp),
        cmocka_unit_test(test_guarded_lanes),
        cmocka_unit_test(test_loop_iterations),
        cmocka_unit_test(test_bank_conflicts),
        cmocka_unit_test(test_footprint_across_blocks),
        cmocka_unit_test(test_atomic),
        cmocka_unit_test(test_rewritten),
        cmocka_unit_test(test_legacy),
        cmocka_unit_test(test_per_array),
        cmocka_unit_test(test_traffic_rule),
        cmocka_unit_test(test_l1_kept_without_bypass),
        cmocka_unit_test(test_read_only_path),
    };
    return cmocka_run_group_tests(tests, setup_loader, teardown_loader);
}
