/* test_pipes.c: <instructions> and the arithmetic pipes' terms (eval.c, warp_max.c, arch.c's
 * rc_pipe_rates, refine.c's pipes_time) against hand-computed counts and times. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <math.h>

#include "model/arch.h"
#include "refine_fixture.h"

/* The first <instructions> of `work` on one block of `block` threads: its lanes' total (m1)
 * and its warp instructions (warp_m1). */
static void counts_of(const char *block, const char *work, int64_t *lanes, int64_t *warps)
{
    char launch[128];
    snprintf(launch, sizeof launch, "<launch grid=\"1\" block=\"%s\"/>", block);
    rc_kernel *k = kernel_of(launch, work);
    rc_counts c;
    rc_eval_error err;
    assert_true(rc_evaluate(k, false, &c, &err));
    *lanes = *warps = -1;
    for (int i = 0; i < c.nwork; i++)
        if (c.work[i].warp_m1 > 0 && *warps < 0) {
            *lanes = c.work[i].m1;
            *warps = c.work[i].warp_m1;
        }
    rc_counts_release(&c);
    rc_kernel_free(k);
}

/* A warp issues for all 32 lanes when any of them runs the instruction: per warp, the most any
 * lane runs, summed over the warps. */
static void test_warp_counts(void **state)
{
    (void)state;
    int64_t lanes, warps;
    /* Even lanes of 2 warps, 3 each: 32 x 3 lane instructions, 2 x 3 warp instructions. */
    counts_of("64", "<when test=\"threadIdx.x % 2 == 0\">"
                    "<instructions pipe=\"conversion\" count=\"3\"/></when>", &lanes, &warps);
    assert_int_equal(lanes, 96);
    assert_int_equal(warps, 6);
    /* The first warp alone: no divergence, 32 x 3 lanes, 3 warp instructions. */
    counts_of("64", "<when test=\"threadIdx.x &lt; 32\">"
                    "<instructions pipe=\"special\" count=\"3\"/></when>", &lanes, &warps);
    assert_int_equal(lanes, 96);
    assert_int_equal(warps, 3);
    /* A count that differs by lane: warp 0's most is 31, warp 1's 63. */
    counts_of("64", "<instructions pipe=\"integer\" count=\"threadIdx.x\"/>", &lanes, &warps);
    assert_int_equal(lanes, 63 * 64 / 2);
    assert_int_equal(warps, 31 + 63);
    /* A trip count that differs by lane (0 to 3): each warp runs the longest, 3 iterations. */
    counts_of("64", "<loop var=\"j\" from=\"0\" to=\"threadIdx.x % 4\">"
                    "<instructions pipe=\"conversion64\" count=\"1\"/></loop>", &lanes, &warps);
    assert_int_equal(lanes, 16 * (0 + 1 + 2 + 3));
    assert_int_equal(warps, 2 * 3);
    /* A 16 x 4 block that reads only threadIdx.y: row y = 1 is threads 16 to 31, in warp 0;
     * rows 2 and 3 are in warp 1. */
    counts_of("16,4", "<when test=\"threadIdx.y == 1\">"
                      "<instructions pipe=\"conversion\" count=\"5\"/></when>", &lanes, &warps);
    assert_int_equal(lanes, 16 * 5);
    assert_int_equal(warps, 5);
    counts_of("16,4", "<when test=\"threadIdx.y &gt;= 1\">"
                      "<instructions pipe=\"conversion\" count=\"5\"/></when>", &lanes, &warps);
    assert_int_equal(lanes, 48 * 5);
    assert_int_equal(warps, 2 * 5);
}

/* The Programming Guide's table, row by row (arch.c). */
static void test_pipe_rates(void **state)
{
    (void)state;
    bool exact;
    const rc_pipe_rates *p = rc_pipe_rates_for("5.2", &exact);
    assert_true(exact);
    assert_close(p->per_clock[RC_PIPE_CONVERSION], 32);
    assert_close(p->per_clock[RC_PIPE_CONVERSION64], 4);
    assert_close(p->per_clock[RC_PIPE_SPECIAL], 32);
    assert_close(p->per_clock[RC_PIPE_INTEGER], 128);
    assert_false(p->assumed[RC_PIPE_CONVERSION]);
    p = rc_pipe_rates_for("7.0", &exact);
    assert_true(exact);
    assert_close(p->per_clock[RC_PIPE_CONVERSION], 16);
    assert_false(p->assumed[RC_PIPE_CONVERSION64]);
    p = rc_pipe_rates_for("7.5", &exact);
    assert_true(exact);
    /* Assumed at 7.5's FP64 rate, not the 7.x column's 16 (arch.c). */
    assert_close(p->per_clock[RC_PIPE_CONVERSION64], 2);
    assert_true(p->assumed[RC_PIPE_CONVERSION64]);
    assert_false(p->assumed[RC_PIPE_CONVERSION]);
    p = rc_pipe_rates_for("3.0", &exact);
    assert_close(p->per_clock[RC_PIPE_CONVERSION64], 8);
    assert_close(p->per_clock[RC_PIPE_INTEGER], 160);
    p = rc_pipe_rates_for("3.7", &exact);
    assert_true(exact);
    assert_close(p->per_clock[RC_PIPE_CONVERSION64], 32);
    /* The 11.6 guide's columns 8.0 and 8.6, published; 8.9 assumed as 8.6. */
    static const struct {
        const char *cc;
        double conversion64;
    } published[] = {{"8.0", 16}, {"8.6", 2}};
    for (int c = 0; c < 2; c++) {
        p = rc_pipe_rates_for(published[c].cc, &exact);
        assert_true(exact);
        assert_close(p->per_clock[RC_PIPE_CONVERSION], 16);
        assert_close(p->per_clock[RC_PIPE_CONVERSION64], published[c].conversion64);
        assert_close(p->per_clock[RC_PIPE_SPECIAL], 16);
        assert_close(p->per_clock[RC_PIPE_INTEGER], 64);
        for (int i = 0; i < RC_PIPES; i++)
            assert_false(p->assumed[i]);
    }
    /* 8.9: conversions measured (test_cvt_round_trips), the other rows assumed as 8.6. */
    p = rc_pipe_rates_for("8.9", &exact);
    assert_true(exact);
    assert_close(p->per_clock[RC_PIPE_CONVERSION], 32);
    assert_false(p->assumed[RC_PIPE_CONVERSION]);
    assert_close(p->per_clock[RC_PIPE_CONVERSION64], 2);
    for (int i = 0; i < RC_PIPES; i++)
        if (i != RC_PIPE_CONVERSION)
            assert_true(p->assumed[i]);
    p = rc_pipe_rates_for("9.0", &exact);
    assert_false(p->assumed[RC_PIPE_SPECIAL]);
    assert_true(p->assumed[RC_PIPE_CONVERSION]);
    assert_ptr_equal(rc_pipe_rates_for(NULL, &exact), p);
    assert_false(exact);
    p = rc_pipe_rates_for("2.0", &exact); /* older than the table: its oldest row */
    assert_false(exact);
    assert_close(p->per_clock[RC_PIPE_CONVERSION64], 8);
}

/* The refined estimate of the published vector_add_divergent model (1,048,576 threads in 4,096
 * blocks of 256) on a GPU file. */
static void refine_divergent(const char *gpu, rc_refined *r, double *clock)
{
    refine_files(gpu, "tests/validation/published/models/pub-vector_add_divergent-N1048576-g4096.xml",
                 r, clock);
}

/* The hand check of the issue: 1,048,576 threads are 32,768 warps; in each, the even lanes run
 * 128 int-to-float conversions, and the warp takes the conversion pipe for all 32 lanes each
 * time: 32,768 x 128 = 4,194,304 warp instructions, 134,217,728 results. The GTX TITAN X
 * (5.2: 32 results per clock per SM, 24 SMs at 1075 MHz) serves them in
 * 134,217,728 / (32 x 24 x 1.075e9) = 32,768 x 128 / 24 / 1.075e9 s = 162.57 us; 4,096
 * blocks at 8 a SM make 22 waves of 192 blocks, the last a third full: x 22 x 192 / 4,096.
 * The TITAN V (7.0: 16 per clock per SM, 80 SMs at 1455 MHz):
 * 134,217,728 / (16 x 80 x 1.455e9) = 72.07 us. */
static void test_divergent_conversions(void **state)
{
    (void)state;
    rc_refined r;
    double clock;
    refine_divergent("specs/titan-x.xml", &r, &clock);
    assert_close(clock, 1.075e9);
    const rc_pipe_time *t = &r.pipes[RC_PIPE_CONVERSION];
    assert_close(t->warp_instructions, 32768.0 * 128);
    /* The lanes' own: the even half of 1,048,576 threads, 128 each. */
    assert_close(t->instructions, 524288.0 * 128);
    assert_close(t->per_clock, 32);
    assert_false(t->assumed);
    assert_close(t->rate, 32 * 24 * 1.075e9);
    assert_close(t->time_unwaved, 32768.0 * 128 / 24 / 1.075e9);
    assert_true(t->time_unwaved > 162.5e-6 && t->time_unwaved < 162.6e-6);
    assert_close(r.wave_factor, 22.0 * 192 / 4096);
    assert_close(t->time, t->time_unwaved * 22.0 * 192 / 4096);
    assert_int_equal(r.limiter, RC_LIMIT_PIPE);
    assert_int_equal(r.pipe_limit, RC_PIPE_CONVERSION);
    assert_close(r.t_pipe, t->time);
    assert_close(r.t_body_est, t->time);
    assert_string_equal(rc_limiter_name(r.limiter), "instructions");
    /* t_lower: the published rate, 15 % above it. */
    assert_close(r.t_lower, t->time_unwaved / 1.35);
    assert_close(r.pipes[RC_PIPE_SPECIAL].time, 0);

    refine_divergent("specs/titan-v.xml", &r, &clock);
    assert_close(clock, 1.455e9);
    t = &r.pipes[RC_PIPE_CONVERSION];
    assert_close(t->per_clock, 16);
    assert_close(t->time_unwaved, 32768.0 * 128 * 32 / (16 * 80 * 1.455e9));
    assert_true(t->time_unwaved > 72.0e-6 && t->time_unwaved < 72.1e-6);
    assert_int_equal(r.limiter, RC_LIMIT_PIPE);
}

/* The same kernel on the A100 (8.0: the 11.6 guide's column gives 16 per clock per SM, 108
 * SMs at 1410 MHz): 32,768 x 128 warp instructions, 134,217,728 results, served in
 * 134,217,728 / (16 x 108 x 1.41e9) = 55.086 us. The rate is published, so t_lower is that
 * time 15 % faster, above the bytes (12.6 MB at the L1 peak) and the FLOPs. */
static void test_published_rate_a100(void **state)
{
    (void)state;
    rc_refined r;
    double clock;
    refine_divergent("specs/a100-sxm4-80gb.xml", &r, &clock);
    assert_close(clock, 1.41e9);
    const rc_pipe_time *t = &r.pipes[RC_PIPE_CONVERSION];
    assert_close(t->warp_instructions, 32768.0 * 128);
    assert_close(t->per_clock, 16);
    assert_false(t->assumed);
    assert_close(t->rate, 16 * 108 * 1.41e9);
    assert_close(t->time_unwaved, 32768.0 * 128 * 32 / (16 * 108 * 1.41e9));
    assert_true(t->time_unwaved > 55.08e-6 && t->time_unwaved < 55.09e-6);
    assert_close(r.t_lower, t->time_unwaved / 1.35);
    assert_int_equal(r.limiter, RC_LIMIT_PIPE);
}

/* Compute capability 9.0 on the H100 SXM5 (132 SMs at 1980 MHz): 264 blocks of 256 threads,
 * each thread 100 special-function instructions, are 2,112 warps x 100 = 211,200 warp
 * instructions, 6,758,400 results; at the 12.x guide's 16 per clock per SM they take
 * 6,758,400 / (16 x 132 x 1.98e9) = 1.6162 us, and bound t_lower at that time 15 % faster.
 * The same count of conversions, whose 9.0 rate is assumed, takes as long and bounds nothing. */
static void test_hopper_special_published(void **state)
{
    (void)state;
    rc_gpu *g = rc_load_gpu(loader, "specs/h100-sxm5.xml", diag);
    assert_non_null(g);
    rc_kernel *k = kernel_of("<launch grid=\"264\" block=\"256\"/>",
                             "<instructions pipe=\"special\" count=\"100\"/>");
    rc_refined r;
    refine_on(g, k, rc_kernel_resources(k), &r);
    const rc_pipe_time *t = &r.pipes[RC_PIPE_SPECIAL];
    assert_close(t->warp_instructions, 211200);
    assert_close(t->per_clock, 16);
    assert_false(t->assumed);
    assert_close(t->time_unwaved, 6758400.0 / (16 * 132 * 1.98e9));
    assert_true(t->time_unwaved > 1.6161e-6 && t->time_unwaved < 1.6162e-6);
    assert_close(r.t_lower, t->time_unwaved / 1.35);
    rc_kernel_free(k);

    k = kernel_of("<launch grid=\"264\" block=\"256\"/>",
                  "<instructions pipe=\"conversion\" count=\"100\"/>");
    refine_on(g, k, rc_kernel_resources(k), &r);
    t = &r.pipes[RC_PIPE_CONVERSION];
    assert_true(t->assumed);
    assert_close(t->time_unwaved, 6758400.0 / (16 * 132 * 1.98e9));
    assert_true(r.t_lower < t->time_unwaved / 1.35);
    rc_kernel_free(k);
    rc_gpu_free(g);
}

/* An assumed rate (compute capability 8.9: the 12.x guide's column was not found; 8.6's
 * figures are taken) times the term but bounds nothing: t_lower keeps to the bytes and
 * FLOPs. */
static void test_assumed_rate_no_bound(void **state)
{
    (void)state;
    rc_refined r;
    double clock;
    refine_divergent("specs/h100-sxm5.xml", &r, &clock);
    const rc_pipe_time *t = &r.pipes[RC_PIPE_CONVERSION];
    assert_true(t->assumed);
    assert_close(t->per_clock, 16);
    assert_true(r.t_lower < t->time_unwaved / 1.35);
    assert_true(r.t_lower_compute < t->time_unwaved / 2);
}

/* The FP64 unit runs the conversions from and to 64-bit types and the FP64 arithmetic one
 * after the other (refine.c pipes_time). The RTX 3080 convolution of 2^26 floats, each output
 * clamped in double: per thread 2 conversions (float to double and back) and 2 unfused FP64
 * operations (max and min).
 *   conversions: 2^26 / 32 x 2 = 4,194,304 warp instructions, 134,217,728 results at
 *     2 a clock x 68 SMs x 1.71 GHz = 232.56 G/s: 577.13 us;
 *   FP64: 2^26 x 2 unfused FLOPs = 268,435,456 FLOP slots at the file's 0.465 TFLOP/s
 *     (48 warps an SM issue every clock): 577.28 us;
 *   131,072 blocks of 512, 3 an SM: 643 waves of 204, the last part full, x 643 x 204 / 131,072.
 * The term is their sum, 1,154.4 us x 1.00076 = 1,155.3 us; t_lower keeps to the conversions'
 * published rate alone (the sharing is assumed): 577.13 / 1.35 = 427.50 us. */
static void test_fp64_unit_shared(void **state)
{
    (void)state;
    rc_refined r;
    double clock;
    refine_files("tests/validation/specs/rtx-3080.xml",
                 "tests/validation/published/models-3080/rtx3080-conv1d-basic.xml", &r, &clock);
    assert_close(clock, 1.71e9);
    const double wf = 643.0 * 204 / 131072;
    assert_close(r.wave_factor, wf);
    const rc_pipe_time *t = &r.pipes[RC_PIPE_CONVERSION64];
    assert_close(t->warp_instructions, 4194304);
    assert_close(t->per_clock, 2);
    assert_false(t->assumed);
    assert_close(t->time_unwaved, 134217728.0 / (2 * 68 * 1.71e9));
    assert_true(t->time_unwaved > 577.12e-6 && t->time_unwaved < 577.14e-6);
    assert_close(r.t_compute[RC_PRECISION_FP64], 268435456.0 / 0.465e12 * wf);
    assert_close(t->fp64_time, r.t_compute[RC_PRECISION_FP64]);
    assert_close(t->time, t->time_unwaved * wf + t->fp64_time);
    assert_true(t->time > 1155.2e-6 && t->time < 1155.4e-6);
    assert_int_equal(r.limiter, RC_LIMIT_PIPE);
    assert_int_equal(r.pipe_limit, RC_PIPE_CONVERSION64);
    assert_close(r.t_body_est, t->time);
    assert_close(r.t_lower, t->time_unwaved / 1.35);

    /* Conversions without FP64 FLOPs take the unit alone; the other pipes never add them. */
    rc_gpu *g = rc_load_gpu(loader, "tests/validation/specs/rtx-3080.xml", diag);
    assert_non_null(g);
    rc_kernel *k = kernel_of("<launch grid=\"68\" block=\"256\"/>",
                             "<instructions pipe=\"conversion64\" count=\"10\"/>");
    refine_on(g, k, rc_kernel_resources(k), &r);
    assert_close(r.pipes[RC_PIPE_CONVERSION64].fp64_time, 0);
    assert_close(r.pipes[RC_PIPE_CONVERSION64].time,
                 r.pipes[RC_PIPE_CONVERSION64].time_unwaved * r.wave_factor);
    rc_kernel_free(k);
    k = kernel_of("<launch grid=\"68\" block=\"256\"/>",
                  "<instructions pipe=\"special\" count=\"10\"/>"
                  "<flops count=\"10\" precision=\"fp64\"/>");
    refine_on(g, k, rc_kernel_resources(k), &r);
    assert_close(r.pipes[RC_PIPE_SPECIAL].fp64_time, 0);
    assert_close(r.pipes[RC_PIPE_SPECIAL].time,
                 r.pipes[RC_PIPE_SPECIAL].time_unwaved * r.wave_factor);
    rc_kernel_free(k);
    rc_gpu_free(g);
}

/* From Volta on, the special functions and the int-to-float conversions take one unit, the XU
 * (arch.c xu_shared): the longer term adds the other. 264 blocks of 256 threads, each thread
 * 100 rounds of 3 special-function instructions and one conversion: 2,112 warps x 300 =
 * 633,600 special and 211,200 conversion warp instructions. On the H100 SXM5 (16 a clock each,
 * 132 SMs at 1.98 GHz, one wave): 20,275,200 / 4.1818e12 = 4.8484 us and 6,758,400 / 4.1818e12 =
 * 1.6161 us, 6.4645 us together on the special pipe's term. t_lower keeps the special
 * functions' published rate alone. The GTX TITAN X (5.2) keeps the two apart. */
static void test_xu_shared(void **state)
{
    (void)state;
    const char *launch = "<launch grid=\"264\" block=\"256\"/>";
    const char *work = "<loop var=\"r\" from=\"0\" to=\"100\">"
                       "<instructions pipe=\"conversion\" count=\"1\"/>"
                       "<instructions pipe=\"special\" count=\"3\"/></loop>";
    rc_gpu *g = rc_load_gpu(loader, "specs/h100-sxm5.xml", diag);
    assert_non_null(g);
    rc_kernel *k = kernel_of(launch, work);
    rc_refined r;
    refine_on(g, k, rc_kernel_resources(k), &r);
    const rc_pipe_time *sp = &r.pipes[RC_PIPE_SPECIAL], *cv = &r.pipes[RC_PIPE_CONVERSION];
    assert_close(sp->warp_instructions, 633600);
    assert_close(cv->warp_instructions, 211200);
    assert_close(r.wave_factor, 1);
    assert_close(sp->time_unwaved, 633600.0 * 32 / (16 * 132 * 1.98e9));
    assert_close(cv->time_unwaved, 211200.0 * 32 / (16 * 132 * 1.98e9));
    assert_true(sp->time_unwaved > 4.848e-6 && sp->time_unwaved < 4.849e-6);
    assert_close(sp->xu_time, cv->time);
    assert_close(cv->xu_time, 0);
    assert_close(sp->time, sp->time_unwaved + cv->time_unwaved);
    assert_true(sp->time > 6.464e-6 && sp->time < 6.465e-6);
    assert_int_equal(r.limiter, RC_LIMIT_PIPE);
    assert_int_equal(r.pipe_limit, RC_PIPE_SPECIAL);
    assert_close(r.t_pipe, sp->time);
    assert_close(r.t_lower, sp->time_unwaved / 1.35);
    rc_kernel_free(k);
    /* Conversions the longer: they carry the sum. */
    k = kernel_of(launch, "<loop var=\"r\" from=\"0\" to=\"100\">"
                          "<instructions pipe=\"conversion\" count=\"3\"/>"
                          "<instructions pipe=\"special\" count=\"1\"/></loop>");
    refine_on(g, k, rc_kernel_resources(k), &r);
    assert_close(r.pipes[RC_PIPE_CONVERSION].xu_time, r.pipes[RC_PIPE_SPECIAL].time);
    assert_close(r.pipes[RC_PIPE_SPECIAL].xu_time, 0);
    assert_int_equal(r.pipe_limit, RC_PIPE_CONVERSION);
    rc_kernel_free(k);
    rc_gpu_free(g);

    g = rc_load_gpu(loader, "specs/titan-x.xml", diag);
    assert_non_null(g);
    k = kernel_of(launch, work);
    refine_on(g, k, rc_kernel_resources(k), &r);
    assert_close(r.pipes[RC_PIPE_SPECIAL].xu_time, 0);
    assert_close(r.pipes[RC_PIPE_CONVERSION].xu_time, 0);
    assert_close(r.pipes[RC_PIPE_SPECIAL].time,
                 r.pipes[RC_PIPE_SPECIAL].time_unwaved * r.wave_factor);
    rc_kernel_free(k);
    rc_gpu_free(g);
}

/* The 7.5 column against a TU102's own streams (connollydavid/tu102@789ff42e
 * table/tu102_ops.csv, a Quadro RTX 6000 with clocks locked at 1455 MHz, warp instructions a
 * clock per SM, x 32 lanes): an int-to-float and float-to-int pair stream 0.49999 (16.0
 * results a clock), MUFU.EX2 0.49998 (16.0), LOP3 1.96918 (63.0), and a dependent FFMA 4.07
 * cycles. The model's figures are the Programming Guide's and Arafa et al.'s; this checks
 * them within 3 %. */
static void test_turing_measured(void **state)
{
    (void)state;
    bool exact, assumed;
    const char *source;
    const rc_pipe_rates *p = rc_pipe_rates_for("7.5", &exact);
    const struct {
        rc_pipe pipe;
        double measured;
    } rows[] = {{RC_PIPE_CONVERSION, 0.499987 * 32},
                {RC_PIPE_SPECIAL, 0.49998 * 32},
                {RC_PIPE_INTEGER, 1.96918 * 32}};
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        if (fabs(p->per_clock[rows[i].pipe] / rows[i].measured - 1) > 0.03)
            fail_msg("pipe %d: model %g a clock, TU102 %g", (int)rows[i].pipe,
                     p->per_clock[rows[i].pipe], rows[i].measured);
    double latency = rc_arith_latency_cycles("7.5", &assumed, &source);
    assert_false(assumed);
    assert_true(fabs(latency / 4.07032 - 1) <= 0.03);
}

/* A published microbenchmark of the conversion pipe on four of the held-out GPUs
 * (TapiocaFox/GPU-Project@8c5fe621, src/microbenchmarking/ins_microbenchmark_*.csv, row CVT):
 * one block of 1 to 32 warps on one SM, each thread running 1,024 iterations of two
 * independent chains of `t = (int)a; a = (float)t;` (ILP 2), clock64 around the loop; the
 * best round trips a clock per SM: GTX TITAN X 16.12, TITAN V 8.00, RTX 2080 Ti 8.00, RTX
 * 4070 15.94 (peak at 8, 4, 4 and 8 warps). A round trip is two conversions, so the model's
 * rate gives per_clock / 2 of them; with 8 warps on one SM the term is
 * 8 x 1,024 x 4 warp instructions x 32 / (per_clock x 1 SM x clock). Within 3 %. */
static void test_cvt_round_trips(void **state)
{
    (void)state;
    static const struct {
        const char *gpu;
        double measured;
    } rows[] = {{"specs/titan-x.xml", 16.12},
                {"specs/titan-v.xml", 8.00},
                {"specs/rtx-2080-ti.xml", 8.00},
                {"specs/rtx-4070.xml", 15.94}};
    rc_kernel *k = kernel_of("<launch grid=\"1\" block=\"256\"/>",
                             "<loop var=\"i\" from=\"0\" to=\"1024\" dependent=\"true\">"
                             "<instructions pipe=\"conversion\" count=\"4\"/></loop>");
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        rc_refined r;
        double clock;
        refine_on_gpu_file(rows[i].gpu, k, &r, &clock);
        const rc_pipe_time *t = &r.pipes[RC_PIPE_CONVERSION];
        assert_close(t->warp_instructions, 8.0 * 1024 * 4);
        assert_false(t->assumed);
        double pairs = 256.0 * 1024 * 2 / (t->time_unwaved * clock);
        if (fabs(pairs / rows[i].measured - 1) > 0.03)
            fail_msg("%s: model %g round trips a clock, measured %g", rows[i].gpu, pairs,
                     rows[i].measured);
    }
    rc_kernel_free(k);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_warp_counts),
        cmocka_unit_test(test_pipe_rates),
        cmocka_unit_test(test_divergent_conversions),
        cmocka_unit_test(test_published_rate_a100),
        cmocka_unit_test(test_hopper_special_published),
        cmocka_unit_test(test_assumed_rate_no_bound),
        cmocka_unit_test(test_fp64_unit_shared),
        cmocka_unit_test(test_xu_shared),
        cmocka_unit_test(test_turing_measured),
        cmocka_unit_test(test_cvt_round_trips),
    };
    return cmocka_run_group_tests(tests, setup_loader_stderr, teardown_loader);
}
