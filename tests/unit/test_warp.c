/* test_warp.c: the walk both memory counts share (src/model/warp.c): a
 * guard's and a loop's lanes, the steps of a loop's variable, a block's
 * distinct warps, and the sectors and lines of a request, each
 * worked out by hand in its comment. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "input/load.h"
#include "model/warp.h"

#include "loader_fixture.h"

static void test_step(void **state)
{
    (void)state;
    int64_t v = 0;
    assert_true(rc_warp_step(RC_STEP_ADD, 5, 3, &v));
    assert_int_equal(v, 8);
    assert_true(rc_warp_step(RC_STEP_DIV, 100, 3, &v));
    assert_int_equal(v, 33);
    assert_true(rc_warp_step(RC_STEP_SHL, 1, 62, &v));
    assert_int_equal(v, (int64_t)1 << 62);
    assert_true(rc_warp_step(RC_STEP_SHR, -8, 1, &v));
    assert_int_equal(v, -4);
    /* Out of the 64-bit range, or no value at all: the loop does not end. */
    assert_false(rc_warp_step(RC_STEP_ADD, INT64_MAX, 1, &v));
    assert_false(rc_warp_step(RC_STEP_MUL, INT64_MAX / 2 + 1, 2, &v));
    assert_false(rc_warp_step(RC_STEP_DIV, 7, 0, &v));
    assert_false(rc_warp_step(RC_STEP_DIV, INT64_MIN, -1, &v));
    assert_false(rc_warp_step(RC_STEP_SHL, 1, 63, &v));
    assert_false(rc_warp_step(RC_STEP_SHL, -1, 1, &v));
    assert_false(rc_warp_step(RC_STEP_SHR, 8, 63, &v));
}

/* 32 lanes at offset[l] = l * stride. */
static void offsets(int64_t *offset, int64_t stride)
{
    for (int l = 0; l < RC_WARP; l++)
        offset[l] = l * stride;
}

static void test_requests(void **state)
{
    (void)state;
    int64_t offset[RC_WARP], sec[2 * RC_WARP];
    /* Consecutive floats: bytes 0 to 127, sectors 0 to 3 of one line. */
    offsets(offset, 4);
    assert_int_equal(rc_warp_sectors(offset, 0xFFFFFFFFu, 4, sec), 4);
    assert_int_equal(rc_warp_lines(sec, 4), 1);
    /* A float every 128 bytes: a sector and a line each. */
    offsets(offset, 128);
    assert_int_equal(rc_warp_sectors(offset, 0xFFFFFFFFu, 4, sec), 32);
    assert_int_equal(rc_warp_lines(sec, 32), 32);
    /* Lanes 0 and 1 only, 12-byte elements: bytes 0-11 and 12-23, sector 0. */
    offsets(offset, 12);
    assert_int_equal(rc_warp_sectors(offset, 0x3u, 12, sec), 1);
    assert_int_equal(sec[0], 0);
    int64_t v[] = {5, 1, 5, 3, 1};
    assert_int_equal(rc_warp_distinct(v, 5), 3);
    assert_int_equal(v[0], 1);
    assert_int_equal(v[1], 3);
    assert_int_equal(v[2], 5);
}

/* rc_warp_part_lines of 32 lanes `stride` bytes apart from `first`, `size` bytes each, those of
 * `mask` active: the count for 1, 2, 3 and 4 sectors a line as four decimal digits (1 sector
 * first), e.g. 32000 for 32 lines of one sector. */
static long part_lines(int64_t first, int64_t stride, uint32_t mask, int64_t size)
{
    int64_t offset[RC_WARP], sec[2 * RC_WARP], lines[4] = {0};
    for (int l = 0; l < RC_WARP; l++)
        offset[l] = first + l * stride;
    int d = rc_warp_sectors(offset, mask, size, sec);
    rc_warp_part_lines(offset, mask, size, sec, d, lines);
    return (long)(lines[0] * 1000 + lines[1] * 100 + lines[2] * 10 + lines[3]);
}

/* The lines a store writes in part, by the sectors it touches in each (rc_warp_part_lines). */
static void test_part_lines(void **state)
{
    (void)state;
    /* Consecutive floats fill their line's four sectors: none in part; with lane 5 idle, one
     * line of four sectors, one left in part. */
    assert_int_equal(part_lines(0, 4, 0xFFFFFFFFu, 4), 0);
    assert_int_equal(part_lines(0, 4, ~(1u << 5), 4), 1);
    /* A float every 64 bytes (OpenCL-Benchmark's misaligned write): two sectors in each of 16
     * lines, all in part; a column, one sector in each of 32 lines. */
    assert_int_equal(part_lines(0, 64, 0xFFFFFFFFu, 4), 1600);
    assert_int_equal(part_lines(0, 128, 0xFFFFFFFFu, 4), 32000);
    /* float4 at a 32-byte stride: each lane half a sector, 4 sectors in each of 8 lines. */
    assert_int_equal(part_lines(0, 32, 0xFFFFFFFFu, 16), 8);
    /* Doubles two lanes to a sector, the warp's 256 bytes from offset 16 (9 sectors): the first
     * and last sectors in part, in the first line (four sectors) and the third (one). */
    assert_int_equal(part_lines(16, 8, 0xFFFFFFFFu, 8), 1001);
}

static void test_signatures(void **state)
{
    (void)state;
    rc_warp_sig warps[1024 / RC_WARP];
    bool reads[RC_SLOT_FIRST_FREE] = {false};
    /* 64 threads in x, none read: one lane standing for 32 threads, and
     * the block's 2 warps alike. */
    int64_t rows[3] = {64, 1, 1};
    assert_int_equal(rc_warp_signatures(reads, rows, warps), 1);
    assert_int_equal(warps[0].n, 1);
    assert_int_equal(warps[0].weight[0], 32);
    assert_int_equal(warps[0].count, 2);
    assert_int_equal(rc_warp_lanes(&warps[0]), 0x1u);
    /* threadIdx.x read: the two warps differ, 32 lanes each. */
    reads[RC_SLOT_TID_X] = true;
    assert_int_equal(rc_warp_signatures(reads, rows, warps), 2);
    assert_int_equal(warps[1].n, 32);
    assert_int_equal(warps[1].coord[0][0], 32);
    assert_int_equal(warps[1].count, 1);
    assert_int_equal(rc_warp_lanes(&warps[1]), 0xFFFFFFFFu);
    /* 16 x 4 threads, only y read: lanes by y, 16 threads each; the two
     * warps (y 0-1, y 2-3) differ. */
    reads[RC_SLOT_TID_X] = false;
    reads[RC_SLOT_TID_Y] = true;
    int64_t rows2[3] = {16, 4, 1};
    assert_int_equal(rc_warp_signatures(reads, rows2, warps), 2);
    assert_int_equal(warps[0].n, 2);
    assert_int_equal(warps[0].weight[1], 16);
    assert_int_equal(warps[1].coord[1][1], 3);
}

/* A walk that records what it was asked: lane-steps, and for each access
 * the lanes that made it. */
typedef struct {
    const rc_kernel *k;
    int64_t values[RC_WARP][8];
    int64_t steps;
    int accesses;
    int64_t access_lanes;
    uint32_t first_mask;
} recorder;

static int rec_spend(void *ctx, int lanes)
{
    recorder *r = ctx;
    r->steps += lanes;
    return 0;
}

static int rec_eval(void *ctx, const rc_work *w, int which, int lane, int64_t *out)
{
    recorder *r = ctx;
    rc_expr_error err;
    return rc_expr_eval(w->expr[which], r->values[lane], out, &err) ? 0 : 1;
}

static int rec_let(void *ctx, const rc_work *w, int lane)
{
    recorder *r = ctx;
    return rec_eval(ctx, w, 0, lane, &r->values[lane][w->slot]);
}

static int rec_access(void *ctx, const rc_work *w, uint32_t mask)
{
    (void)w;
    recorder *r = ctx;
    if (r->accesses++ == 0)
        r->first_mask = mask;
    r->access_lanes += __builtin_popcount(mask);
    return 0;
}

static int rec_stuck(void *ctx, const rc_work *w)
{
    (void)ctx;
    (void)w;
    return 2;
}

static int rec_loop(void *ctx, const rc_work *w, uint32_t mask);

static const rc_warp_ops rec_ops = {.spend = rec_spend, .let = rec_let, .eval = rec_eval,
                                    .loop = rec_loop, .access = rec_access, .stuck = rec_stuck};

static rc_warp rec_walk(recorder *r, const bool *needed, const bool *reads)
{
    return (rc_warp){&rec_ops, r, 0, needed, reads, &r->values[0][0], 8};
}

static int rec_loop(void *ctx, const rc_work *w, uint32_t mask)
{
    recorder *r = ctx;
    int64_t step[RC_WARP], bound[RC_WARP];
    for (int l = 0; l < RC_WARP; l++) {
        if (!(mask >> l & 1))
            continue;
        rec_eval(r, w, 0, l, &r->values[l][w->slot]);
        rec_eval(r, w, 2, l, &step[l]);
        rec_eval(r, w, 1, l, &bound[l]);
    }
    bool all[16];
    memset(all, 1, sizeof all);
    rc_warp wr = rec_walk(r, all, all);
    return rc_warp_lockstep(&wr, w, mask, step, bound);
}

/* Loads a kernel of one warp whose <work> is `work` over an array A and
 * walks it with the recorder, every node needed and every slot read. */
static int walk_kernel(const char *work, recorder *r)
{
    char xml[2048];
    snprintf(xml, sizeof xml,
             "<kernel id='t' name='t'><summary>s</summary><source>x</source>"
             "<launch grid='1' block='32'/><array name='A' type='float' length='1024'/>"
             "<work>%s</work></kernel>",
             work);
    rc_kernel *k = rc_load_kernel_memory(loader, "test.xml", xml, strlen(xml), diag);
    assert_non_null(k);
    assert_true(k->nslots <= 8 && k->nwork <= 16);
    memset(r, 0, sizeof *r);
    for (int l = 0; l < RC_WARP; l++)
        r->values[l][RC_SLOT_TID_X] = l;
    bool all[16];
    memset(all, 1, sizeof all);
    rc_warp wr = rec_walk(r, all, all);
    int st = rc_warp_run(&wr, k->work, 0xFFFFFFFFu);
    rc_kernel_free(k);
    return st;
}

static void test_walk(void **state)
{
    (void)state;
    recorder r;
    /* A guard: the even lanes access, a let first (a lane-step a lane for
     * each statement run). */
    assert_int_equal(walk_kernel("<let name='h' value='threadIdx.x % 2'/>"
                                 "<when test='h == 0'><load array='A' index='threadIdx.x'/></when>",
                                 &r),
                     0);
    assert_int_equal(r.accesses, 1);
    assert_int_equal(r.first_mask, 0x55555555u);
    assert_int_equal(r.steps, 32 + 32);
    /* Lane l runs l iterations: iteration j runs the 31 - j lanes past it.
     * 31 requests of 496 lanes; the checks spend 32, then 31 down to 1. */
    assert_int_equal(walk_kernel("<loop var='i' from='0' to='threadIdx.x'>"
                                 "<load array='A' index='i'/></loop>",
                                 &r),
                     0);
    assert_int_equal(r.accesses, 31);
    assert_int_equal(r.first_mask, 0xFFFFFFFEu);
    assert_int_equal(r.access_lanes, 496);
    assert_int_equal(r.steps, 32 + 496);
    /* A status other than 0 stops the walk and comes back as it is. */
    assert_int_equal(walk_kernel("<loop var='i' from='1' while='i &gt; 0' step='*= 1'>"
                                 "<load array='A' index='0'/></loop>",
                                 &r),
                     2);
    assert_int_equal(r.accesses, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_step),
        cmocka_unit_test(test_requests),
        cmocka_unit_test(test_part_lines),
        cmocka_unit_test(test_signatures),
        cmocka_unit_test(test_walk),
    };
    return cmocka_run_group_tests(tests, setup_loader_stderr, teardown_loader);
}
