/* test_gpu.c: GPU files' execution-model figures: per-SM limits, measured
 * rates, latencies in cycles, and the architecture defaults (arch.c) that
 * stand in for what a file leaves out, each with its origin. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "input/load.h"
#include "model/arch.h"
#include "util/diag.h"

#include "loader_fixture.h"

/* Equal to a relative 1e-12: the figures are products of a few doubles. */
static void assert_close(double got, double want)
{
    double d = got > want ? got - want : want - got;
    if (!(d <= 1e-12 * (want > 0 ? want : -want)))
        fail_msg("got %.17g, want %.17g", got, want);
}

static rc_gpu *load_text(const char *xml)
{
    return rc_load_gpu_memory(loader, "test.xml", xml, strlen(xml), diag);
}

/* A GPU file under `dir` of the source tree: "specs" (bundled) or "tests/validation/specs". */
static rc_gpu *load_from(const char *dir, const char *name)
{
    char path[512];
    const char *src = getenv("ROOFCAST_SOURCE_DIR");
    snprintf(path, sizeof path, "%s/%s/%s", src ? src : ".", dir, name);
    return rc_load_gpu(loader, path, diag);
}

static rc_gpu *load_file(const char *name)
{
    return load_from("specs", name);
}

static rc_gpu *load_validation_file(const char *name)
{
    return load_from("tests/validation/specs", name);
}

#define MINIMAL(inner)                                                          \
    "<gpu id=\"g\" name=\"G\"><architecture>A</architecture>" inner             \
    "<peak precision=\"fp32\">10 TFLOP/s</peak><bandwidth>500 GB/s</bandwidth>" \
    "<source>test</source></gpu>"

/* The H100 SXM5 file: its <sm> as written, its boost clock. */
static void test_h100_sm_limits(void **state)
{
    (void)state;
    rc_gpu *g = load_file("h100-sxm5.xml");
    assert_non_null(g);
    assert_int_equal((int)g->sm.count.value, 132);
    assert_true(g->sm.clock.value == 1.98e9);
    assert_int_equal(g->sm.clock.origin, RC_ORIGIN_PUBLISHED);
    assert_int_equal((int)g->sm.threads.value, 2048);
    assert_int_equal((int)g->sm.blocks.value, 32);
    assert_int_equal((int)g->sm.registers.value, 65536);
    assert_int_equal((int)g->sm.register_unit.value, 256);
    assert_int_equal((int)g->sm.shared.value, 228 * 1024);
    assert_int_equal((int)g->sm.shared_per_block.value, 227 * 1024);
    assert_int_equal((int)g->sm.shared_unit.value, 128);
    assert_int_equal((int)g->sm.shared_reserved.value, 1024);
    assert_int_equal((int)g->sm.l1_shared.value, 256 * 1024);
    assert_int_equal(g->sm.threads.origin, RC_ORIGIN_PUBLISHED);
    assert_non_null(strstr(g->sm.threads.source, "CUDA C++ Programming Guide"));
    assert_string_equal(g->sm.threads.written, "2048");
    rc_gpu_free(g);
}

/* A file with only the required figures: the compute capability's table
 * row when it gives one (published), the nearest older row when it does
 * not (assumed); SMs and clock derived from the FP32 peak (assumed). */
static void test_defaults_from_compute_capability(void **state)
{
    (void)state;
    rc_gpu *g = load_text(MINIMAL("<compute-capability>7.5</compute-capability>"
                                  "<sms>40</sms>"));
    assert_non_null(g);
    assert_int_equal((int)g->sm.threads.value, 1024);
    assert_int_equal((int)g->sm.blocks.value, 16);
    assert_int_equal((int)g->sm.shared.value, 64 * 1024);
    assert_int_equal((int)g->sm.shared_unit.value, 256);
    assert_int_equal(g->sm.threads.origin, RC_ORIGIN_PUBLISHED);
    /* 10e12 / (40 SMs x 64 lanes x 2) = 1.953125 GHz */
    assert_true(g->sm.clock.value == 10e12 / (40.0 * 64 * 2));
    assert_int_equal(g->sm.clock.origin, RC_ORIGIN_ASSUMED);
    /* Every rate assumed: 85 % of 500 GB/s for DRAM; Turing's 12.8 B/clock/SM for L2. */
    assert_true(g->rates.dram_bandwidth.value == 0.85 * 500e9);
    assert_int_equal(g->rates.dram_bandwidth.origin, RC_ORIGIN_ASSUMED);
    assert_close(g->rates.l2_bandwidth.value, 12.8 * 40 * g->sm.clock.value);
    assert_int_equal(g->rates.launch_back_to_back.origin, RC_ORIGIN_ASSUMED);
    rc_gpu_free(g);

    g = load_text(MINIMAL("<compute-capability>8.7</compute-capability><sms>16</sms>"));
    assert_non_null(g);
    assert_int_equal((int)g->sm.threads.value, 1536); /* 8.6's row */
    assert_int_equal(g->sm.threads.origin, RC_ORIGIN_ASSUMED);
    assert_non_null(strstr(g->sm.threads.source, "compute capability 8.6"));
    rc_gpu_free(g);

    /* No SMs and no clock: 1.5 GHz assumed, and the SMs derived with the oldest row's
     * (Kepler's) 192 FP32 lanes when no compute capability is given. */
    g = load_text(MINIMAL(""));
    assert_non_null(g);
    assert_true(g->sm.clock.value == 1.5e9);
    assert_int_equal((int)g->sm.count.value, 17); /* 10e12 / (1.5e9 x 192 x 2) = 17.4 */
    assert_int_equal(g->sm.count.origin, RC_ORIGIN_ASSUMED);
    rc_gpu_free(g);
}

/* <measured>: each figure with its origin and source; latencies in cycles
 * become seconds at the SM clock. */
static void test_measured_figures(void **state)
{
    (void)state;
    rc_gpu *g = load_text("<gpu id=\"g\" name=\"G\"><architecture>A</architecture>"
                  "<compute-capability>9.0</compute-capability><sms>100</sms>"
                  "<peak precision=\"fp32\">10 TFLOP/s</peak>"
                  "<peak precision=\"fp16\">20 TFLOP/s</peak>"
                  "<clock kind=\"boost\">2 GHz</clock><bandwidth>500 GB/s</bandwidth>"
                  "<source>test</source>"
                  "<measured>"
                  "<latency level=\"dram\" origin=\"measured\" source=\"chase\">600 cycles</latency>"
                  "<latency level=\"l1\" origin=\"measured\" source=\"chase\">20 ns</latency>"
                  "<bandwidth level=\"dram\" origin=\"measured\" source=\"triad\">450 GB/s</bandwidth>"
                  "<launch kind=\"back-to-back\" origin=\"assumed\" source=\"a guess\">2 us</launch>"
                  "</measured></gpu>");
    assert_non_null(g);
    assert_true(g->peak_fp16 == 20e12);
    assert_true(g->rates.dram_latency.value == 600 / 2e9);
    assert_string_equal(g->rates.dram_latency.written, "600 cycles");
    assert_int_equal(g->rates.dram_latency.origin, RC_ORIGIN_MEASURED);
    assert_true(g->rates.l1_latency.value == 20e-9);
    assert_true(g->rates.dram_bandwidth.value == 450e9);
    assert_string_equal(g->rates.dram_bandwidth.source, "triad");
    assert_true(g->rates.launch_back_to_back.value == 2e-6);
    assert_int_equal(g->rates.launch_back_to_back.origin, RC_ORIGIN_ASSUMED);
    /* Not given: the L2 latency, Hopper's 265.5 cycles at 2 GHz, assumed. */
    assert_close(g->rates.l2_latency.value, 265.5 / 2e9);
    assert_int_equal(g->rates.l2_latency.origin, RC_ORIGIN_ASSUMED);
    rc_gpu_free(g);
}

/* Every bundled GPU loads, and every figure is set with a source. */
static void test_bundled_gpus_complete(void **state)
{
    (void)state;
    static const char *const files[] = {
        "a100-sxm4-80gb.xml", "h100-pcie.xml", "h100-sxm5.xml", "h200-sxm.xml",
        "l4.xml", "l40s.xml", "rtx-2080-ti.xml", "rtx-4070.xml", "rtx-4090.xml",
        "titan-black.xml", "titan-v.xml", "titan-x.xml"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        rc_gpu *g = load_file(files[i]);
        assert_non_null(g);
        const rc_gpu_figure *sm = &g->sm.count, *r = &g->rates.dram_bandwidth;
        for (size_t j = 0; j < sizeof g->sm / sizeof *sm; j++) {
            assert_non_null(sm[j].source);
            if (&sm[j] != &g->sm.shared_reserved)
                assert_true(sm[j].value > 0);
        }
        for (size_t j = 0; j < sizeof g->rates / sizeof *r; j++) {
            assert_non_null(r[j].source);
            assert_true(r[j].value > 0);
        }
        rc_gpu_free(g);
    }
}

/* The RTX 2080 Ti's device figures are the ones MT4G published for it (its sample results, in
 * tests/validation/published/microbench.csv), measured, at its printed 1545 MHz; its L1 rate,
 * not published, is Turing's assumed 64 B per clock per SM. */
static void test_rtx_2080_ti_published_figures(void **state)
{
    (void)state;
    rc_gpu *g = load_file("rtx-2080-ti.xml");
    assert_non_null(g);
    const rc_gpu_figure *measured[] = {&g->rates.l2_bandwidth, &g->rates.l1_latency,
                                       &g->rates.l2_latency, &g->rates.dram_latency};
    for (size_t i = 0; i < sizeof measured / sizeof measured[0]; i++) {
        assert_int_equal(measured[i]->origin, RC_ORIGIN_MEASURED);
        assert_true(strncmp(measured[i]->source, "caps-tum/mt4g@043c8c64 ", 23) == 0);
    }
    assert_close(g->rates.l2_bandwidth.value, 1252.0 * 1073741824.0);
    assert_close(g->rates.l1_latency.value, 66 / 1545e6);
    assert_close(g->rates.l2_latency.value, 175.6 / 1545e6);
    assert_close(g->rates.dram_latency.value, 496.2 / 1545e6);
    assert_int_equal(g->rates.l1_bandwidth.origin, RC_ORIGIN_ASSUMED);
    assert_close(g->rates.l1_bandwidth.value, 64 * 68 * 1545e6);
    rc_gpu_free(g);
}

/* Turing's published microbenchmarks beside the RTX 2080 Ti's file (microbench.csv): MT4G's
 * report for a second Turing part, the T1000 (TU117, 14 SMs, 1395 MHz printed), gives the same
 * L1 hit, 66 cycles, and a main-memory latency of 495.9 cycles, which the file's 66 and 496.2
 * cycles reproduce; an independent pointer chase on an RTX 2080 SUPER (TU104,
 * arabel1a/gpu-micro-bench) gives an L2 hit of 116.0 ns, which the file's 175.6 cycles at
 * 1545 MHz (113.7 ns) reproduce within 3 %. The same chase's L1 hit, 24.4 ns, is not
 * reproduced: the file's 66 cycles are 42.7 ns (docs/architectures.md, Turing, names the
 * difference). */
static void test_turing_published_latencies(void **state)
{
    (void)state;
    rc_gpu *g = load_file("rtx-2080-ti.xml");
    assert_non_null(g);
    double clock = 1545e6;
    assert_close(g->rates.l1_latency.value * clock, 66);
    double dram_cycles = g->rates.dram_latency.value * clock;
    assert_true(dram_cycles > 495.902 && dram_cycles < 495.902 * 1.001);
    double l2_ns = g->rates.l2_latency.value * 1e9;
    assert_true(l2_ns > 113.6 && l2_ns < 113.7);
    assert_true(l2_ns > 116.0 * 0.97 && l2_ns < 116.0);
    assert_true(g->rates.l1_latency.value * 1e9 > 24.4 * 1.7);
    rc_gpu_free(g);
}

/* No RTX 4070 (AD104) measurement is published: its cache figures are the L40's, assumed. */
static void test_rtx_4070_figures_assumed(void **state)
{
    (void)state;
    rc_gpu *g = load_file("rtx-4070.xml");
    assert_non_null(g);
    const rc_gpu_figure *borrowed[] = {&g->rates.l2_bandwidth, &g->rates.l1_bandwidth,
                                       &g->rates.l1_latency, &g->rates.l2_latency,
                                       &g->rates.dram_latency, &g->rates.launch_back_to_back};
    for (size_t i = 0; i < sizeof borrowed / sizeof borrowed[0]; i++) {
        assert_int_equal(borrowed[i]->origin, RC_ORIGIN_ASSUMED);
        assert_non_null(strstr(borrowed[i]->source, "L40"));
    }
    assert_int_equal(g->rates.dram_bandwidth.origin, RC_ORIGIN_MEASURED);
    rc_gpu_free(g);
}

static void test_arch_find(void **state)
{
    (void)state;
    bool exact;
    assert_string_equal(rc_arch_find("8.9", &exact)->cc, "8.9");
    assert_true(exact);
    assert_string_equal(rc_arch_find("12.0", &exact)->cc, "9.0");
    assert_false(exact);
    assert_string_equal(rc_arch_find("2.0", &exact)->cc, "3.5");
    assert_false(exact);
    assert_string_equal(rc_arch_find(NULL, &exact)->cc, "3.5");
    assert_false(exact);
}

/* Compute capability 3.7 (GK210, Tesla K80) takes its own row of limits and Kepler's rules
 * everywhere else, as 3.5 does: nothing falls through to a later generation's default. */
static void test_compute_capability_3_7_is_kepler(void **state)
{
    (void)state;
    bool exact, assumed;
    const char *source;
    const rc_arch *a = rc_arch_find("3.7", &exact);
    assert_string_equal(a->cc, "3.7");
    assert_true(exact);
    assert_int_equal(a->registers, 131072);
    assert_int_equal(a->shared, 112 * 1024);
    const rc_sm_pipes *p = rc_sm_pipes_for("3.7");
    assert_ptr_equal(p, rc_sm_pipes_for("3.5"));
    assert_string_equal(p->generation, "Kepler");
    assert_int_equal(p->banks, RC_BANKS_PAIR);
    assert_int_equal(p->issue_per_scheduler, 2);
    assert_false(p->l1_caches_global);
    assert_close(rc_arith_latency_cycles("3.7", &assumed, &source), 9);
    assert_false(assumed);

    rc_gpu *g = load_text(MINIMAL("<compute-capability>3.7</compute-capability><sms>13</sms>"));
    assert_non_null(g);
    assert_int_equal((int)g->sm.registers.value, 131072);
    assert_int_equal(g->sm.registers.origin, RC_ORIGIN_PUBLISHED);
    assert_non_null(strstr(g->rates.l2_bandwidth.source, "Tesla K80")); /* Kepler's default */
    rc_gpu_free(g);
}

/* The validation's Tesla K80 (tests/validation/specs/): its measured rates as written. */
static void test_tesla_k80_figures(void **state)
{
    (void)state;
    rc_gpu *g = load_validation_file("tesla-k80.xml");
    assert_non_null(g);
    assert_int_equal((int)g->sm.count.value, 13);
    assert_true(g->sm.clock.value == 875e6);
    assert_int_equal((int)g->sm.registers.value, 131072);
    assert_int_equal((int)g->sm.shared.value, 112 * 1024);
    assert_close(g->rates.dram_bandwidth.value, 176.95e9);
    assert_int_equal(g->rates.dram_bandwidth.origin, RC_ORIGIN_MEASURED);
    assert_close(g->rates.l2_bandwidth.value, 333.02e9);
    assert_int_equal(g->rates.l2_bandwidth.origin, RC_ORIGIN_MEASURED);
    assert_close(g->rates.l1_bandwidth.value, 1330.79e9);
    assert_int_equal(g->rates.dram_latency.origin, RC_ORIGIN_ASSUMED);
    rc_gpu_free(g);
}

/* The DRAM rates that published streams give the validation boards (microbench.csv):
 * cuda-stride-benchmark's saxpy on a Quadro GV100 and a P100 PCIe (the P100's assumed for the
 * Quadro GP100, the same GP100 and HBM2), clpeak's read stream on an RTX 2060, and a GTX 750's
 * clpeak share of 80 GB/s (72.28 GB/s, the same GM107) assumed for the Quadro K2200. The same
 * saxpy on a V100 PCIe (839.97 GB/s) and a K80 (173.86) lies within 3.2 % of the triads their
 * files take, which is why a saxpy stands for a triad here. */
#define STRIDE_BENCHMARK "tdd11235813/cuda-stride-benchmark@4d26a2be"
static void test_published_streams(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        double gbs;
        rc_origin origin;
        const char *source;
    } want[] = {
        {"quadro-gv100.xml", 614.08, RC_ORIGIN_MEASURED, STRIDE_BENCHMARK},
        {"tesla-p100.xml", 555.95, RC_ORIGIN_MEASURED, STRIDE_BENCHMARK},
        {"quadro-gp100.xml", 555.95, RC_ORIGIN_ASSUMED, STRIDE_BENCHMARK},
        {"rtx-2060.xml", 307.26, RC_ORIGIN_MEASURED, "krrishnarraj/clpeak@c8367cfa"},
        {"quadro-k2200.xml", 72.28 / 80 * 80.16, RC_ORIGIN_ASSUMED, "krrishnarraj/clpeak@41660aad"},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        rc_gpu *g = load_validation_file(want[i].file);
        assert_non_null(g);
        assert_true(fabs(g->rates.dram_bandwidth.value / (want[i].gbs * 1e9) - 1) < 1e-4);
        assert_int_equal(g->rates.dram_bandwidth.origin, want[i].origin);
        assert_non_null(strstr(g->rates.dram_bandwidth.source, want[i].source));
        rc_gpu_free(g);
    }
    rc_gpu *v100 = load_validation_file("tesla-v100.xml");
    rc_gpu *k80 = load_validation_file("tesla-k80.xml");
    assert_non_null(v100);
    assert_non_null(k80);
    assert_true(fabs(839.97e9 / v100->rates.dram_bandwidth.value - 1) < 0.032);
    assert_true(fabs(173.86e9 / k80->rates.dram_bandwidth.value - 1) < 0.032);
    rc_gpu_free(v100);
    rc_gpu_free(k80);
}

/* The GPU files that borrow a DRAM latency give it as the time it took where it was measured
 * (docs/architectures.md item 17): the cycles their source names over its clock, to the
 * 0.1 ns the files write. */
static void test_borrowed_dram_latencies(void **state)
{
    (void)state;
    static const struct {
        const char *file;
        bool validation; /* under tests/validation/specs/ */
        double cycles, mhz;
    } want[] = {
        {"titan-v.xml", false, 437, 1380},  {"h200-sxm.xml", false, 658, 1755},
        {"l4.xml", false, 632, 2490},       {"l40s.xml", false, 632, 2490},
        {"rtx-4070.xml", false, 632, 2490}, {"rtx-3060-laptop.xml", true, 515, 1702},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        rc_gpu *g = want[i].validation ? load_validation_file(want[i].file)
                                       : load_file(want[i].file);
        assert_non_null(g);
        char said[64];
        snprintf(said, sizeof said, "%g cycles", want[i].cycles);
        assert_non_null(strstr(g->rates.dram_latency.source, said));
        snprintf(said, sizeof said, "%g MHz", want[i].mhz);
        assert_non_null(strstr(g->rates.dram_latency.source, said));
        double ns = g->rates.dram_latency.value * 1e9, from = want[i].cycles / want[i].mhz * 1e3;
        assert_true(fabs(ns - from) <= 0.05);
        rc_gpu_free(g);
    }
}

/* Compute capability 8.6 takes GA10x's own microbenchmarks (an RTX 3060 Laptop GPU, GA106):
 * L2 1276.2 GB/s over 30 SMs at 1702 MHz = 24.99 B per clock per SM, used as 25.0; L1 64 B a
 * clock for 32-bit loads (63.6 measured); latencies 33 and 219 cycles, and DRAM's 515 cycles
 * at its 1702 MHz, 302.6 ns at any clock (a memory round trip). 8.9 keeps the
 * L40's (Ada) 14.7 B and 36, 276.5 and 632 cycles. Every figure is assumed for another GPU. */
static void test_ga10x_defaults(void **state)
{
    (void)state;
    rc_gpu *g = load_text(MINIMAL("<compute-capability>8.6</compute-capability><sms>40</sms>"));
    assert_non_null(g);
    double clock = g->sm.clock.value; /* 10e12 / (40 SMs x 128 lanes x 2) */
    assert_true(clock == 10e12 / (40.0 * 128 * 2));
    assert_close(g->rates.l2_bandwidth.value, 25.0 * 40 * clock);
    assert_close(g->rates.l1_bandwidth.value, 64.0 * 40 * clock);
    assert_close(g->rates.l1_latency.value, 33 / clock);
    assert_close(g->rates.l2_latency.value, 219 / clock);
    assert_close(g->rates.dram_latency.value, 515 / 1702e6); /* a time: 302.6 ns */
    assert_int_equal(g->rates.l2_bandwidth.origin, RC_ORIGIN_ASSUMED);
    assert_non_null(strstr(g->rates.l2_bandwidth.source, "RTX 3060 Laptop GPU, GA106"));
    rc_gpu_free(g);

    g = load_text(MINIMAL("<compute-capability>8.9</compute-capability><sms>40</sms>"));
    assert_non_null(g);
    clock = g->sm.clock.value;
    assert_close(g->rates.l2_bandwidth.value, 14.7 * 40 * clock);
    assert_close(g->rates.l2_latency.value, 276.5 / clock);
    assert_non_null(strstr(g->rates.l2_bandwidth.source, "as measured on an L40, Ada"));
    rc_gpu_free(g);
}

/* 6.1's L2 rate is a GP102's: MT4G's Quadro P6000 report reads 789.609 GiB/s on 30 SMs at its
 * printed 1645 MHz, 17.2 B per clock per SM; GP100 (6.0) keeps the V100's 20.6 (assumed). */
static void test_gp102_l2_rate(void **state)
{
    (void)state;
    double per_sm_clock = 789.609 * 1073741824.0 / (30 * 1645e6);
    assert_true(fabs(per_sm_clock - 17.2) < 0.05);
    rc_gpu *g = load_text(MINIMAL("<compute-capability>6.1</compute-capability><sms>20</sms>"));
    assert_non_null(g);
    double clock = g->sm.clock.value;
    assert_close(g->rates.l2_bandwidth.value, 17.2 * 20 * clock);
    assert_int_equal(g->rates.l2_bandwidth.origin, RC_ORIGIN_ASSUMED);
    assert_non_null(strstr(g->rates.l2_bandwidth.source, "Quadro P6000, GP102"));
    rc_gpu_free(g);

    g = load_text(MINIMAL("<compute-capability>6.0</compute-capability><sms>20</sms>"));
    assert_non_null(g);
    clock = g->sm.clock.value;
    assert_close(g->rates.l2_bandwidth.value, 20.6 * 20 * clock);
    rc_gpu_free(g);
}

/* Kepler's, Maxwell's and GP100's latencies (arch.c): Arafa et al.'s low-overhead pointer
 * chases (arXiv 1905.08778, tabulated by its authors in lanl/PPT's PPT-GPU; microbench.csv):
 * Kepler's texture-cache hit 112 (the model's L1 on Kepler is the read-only path), L2 188,
 * global memory 331 cycles; Maxwell's L1 82, L2 225, global memory 379; Pascal's (a P100) L1
 * 81, L2 252, global memory 482 on 6.0, which caches global loads in L1. 6.1, which does not,
 * takes a Quadro P6000's (GP102) MT4G p-chase: read-only path 136.0, L2 226.9, DRAM 415.3
 * cycles, rounded. Volta keeps the V100's own (gpu-benches). DRAM's are a time where the
 * measurement's clock is known (the P6000's 1645 MHz, the V100's 1380), else this GPU's
 * cycles: Arafa et al.'s boards and clocks were not read. */
static void test_arafa_latencies(void **state)
{
    (void)state;
    static const struct {
        const char *cc;
        double l1, l2, dram, dram_mhz; /* dram_mhz 0: this GPU's cycles */
        const char *said, *starts;
    } want[] = {
        {"3.5", 112, 188, 331, 0, "as measured on Kepler by Arafa et al.", "assumed: 331 cycles, "},
        {"3.7", 112, 188, 331, 0, "as measured on Kepler by Arafa et al.", "assumed: 331 cycles, "},
        {"5.2", 82, 225, 379, 0, "as measured on Maxwell by Arafa et al.", "assumed: 379 cycles, "},
        {"6.0", 81, 252, 482, 0, "as measured on Pascal (a P100) by Arafa et al.",
         "assumed: 482 cycles, "},
        {"6.1", 136, 227, 415, 1645, "as measured on a Quadro P6000, GP102 (MT4G",
         "assumed: 415 cycles at 1645 MHz, "},
        {"7.0", 30, 215, 437, 1380, "as measured on a V100", "assumed: 437 cycles at 1380 MHz, "},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        char text[512];
        snprintf(text, sizeof text,
                 MINIMAL("<compute-capability>%s</compute-capability><sms>10</sms>"), want[i].cc);
        rc_gpu *g = load_text(text);
        assert_non_null(g);
        double clock = g->sm.clock.value;
        assert_close(g->rates.l1_latency.value, want[i].l1 / clock);
        assert_close(g->rates.l2_latency.value, want[i].l2 / clock);
        assert_close(g->rates.dram_latency.value,
                     want[i].dram / (want[i].dram_mhz > 0 ? want[i].dram_mhz * 1e6 : clock));
        assert_int_equal(g->rates.dram_latency.origin, RC_ORIGIN_ASSUMED);
        assert_non_null(strstr(g->rates.dram_latency.source, want[i].said));
        assert_true(strncmp(g->rates.dram_latency.source, want[i].starts,
                            strlen(want[i].starts)) == 0);
        rc_gpu_free(g);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_h100_sm_limits),
        cmocka_unit_test(test_defaults_from_compute_capability),
        cmocka_unit_test(test_measured_figures),
        cmocka_unit_test(test_bundled_gpus_complete),
        cmocka_unit_test(test_rtx_2080_ti_published_figures),
        cmocka_unit_test(test_turing_published_latencies),
        cmocka_unit_test(test_rtx_4070_figures_assumed),
        cmocka_unit_test(test_arch_find),
        cmocka_unit_test(test_compute_capability_3_7_is_kepler),
        cmocka_unit_test(test_tesla_k80_figures),
        cmocka_unit_test(test_published_streams),
        cmocka_unit_test(test_borrowed_dram_latencies),
        cmocka_unit_test(test_ga10x_defaults),
        cmocka_unit_test(test_gp102_l2_rate),
        cmocka_unit_test(test_arafa_latencies),
    };
    return cmocka_run_group_tests(tests, setup_loader_stderr, teardown_loader);
}
