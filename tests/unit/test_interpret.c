/* test_interpret.c: the interpretation's sentences, exactly, on made-up GPUs
 * whose figures make every number easy to check by hand:
 *
 *   GPU    peak FP32    bandwidth   ridge        launch latency
 *   Alpha  10 TFLOP/s   1 TB/s      10 FLOP/B    5 us (assumed)
 *   Beta   20 TFLOP/s   500 GB/s    40 FLOP/B    5 us (assumed)
 *   Gamma  4 TFLOP/s    2 TB/s      2 FLOP/B     3 us (given)
 *
 * Each sentence's ranges, shares and counts must cover exactly the GPUs it
 * names, and read naturally for one GPU, one thread and zero work. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include <libxml/tree.h>

#include "results/interpret.h"

#define X(s) ((const xmlChar *)(s))

static rc_gpu alpha = {.name = "Alpha", .peak_fp32 = 1e13, .bandwidth = 1e12,
                       .launch_latency = 5e-6, .launch_latency_origin = RC_ORIGIN_ASSUMED};
static rc_gpu beta = {.name = "Beta", .peak_fp32 = 2e13, .bandwidth = 5e11,
                      .launch_latency = 5e-6, .launch_latency_origin = RC_ORIGIN_ASSUMED};
static rc_gpu gamma_ = {.name = "Gamma", .peak_fp32 = 4e12, .bandwidth = 2e12,
                        .launch_latency = 3e-6, .launch_latency_origin = RC_ORIGIN_PUBLISHED};

/* Counts of a launch of `launched` threads in `blocks` blocks, `active` of
 * them working in `active_blocks`. */
static rc_counts counts(int64_t flops, int64_t bytes, int64_t launched, int64_t active,
                        int64_t blocks, int64_t active_blocks)
{
    rc_counts c = {0};
    c.flops.total = flops;
    c.bytes.total = bytes;
    c.threads_launched = launched;
    c.threads_active = active;
    c.blocks_launched = blocks;
    c.blocks_active = active_blocks;
    return c;
}

typedef struct {
    xmlDocPtr doc;
    xmlNodePtr interpretation;
} made;

/* The interpretation of kernel "k" with `model` (and `launch`, or NULL) on
 * the GPUs given. */
static made interpret(const rc_gpu *const *gpus, size_t ng, const rc_counts *model,
                      const rc_counts *launch)
{
    static rc_kernel kernel = {.name = "k"};
    rc_estimate est[3], lest[3];
    for (size_t i = 0; i < ng; i++) {
        rc_estimate_compute(gpus[i], model->flops.total, model->bytes.total, &est[i]);
        if (launch)
            rc_estimate_compute(gpus[i], launch->flops.total, launch->bytes.total, &lest[i]);
    }
    made m;
    m.doc = xmlNewDoc(X("1.0"));
    xmlNodePtr top = xmlNewDocNode(m.doc, NULL, X("kernel"), NULL);
    xmlDocSetRootElement(m.doc, top);
    m.interpretation = rc_interpret(top, &(rc_interpret_facts){&kernel, gpus, ng, model, est,
                                                              launch, launch ? lest : NULL});
    assert_non_null(m.interpretation);
    return m;
}

/* The sentence of `kind`, or "" when there is none. */
static void expect(const made *m, const char *kind, const char *want)
{
    const char *got = "";
    xmlChar *text = NULL;
    for (xmlNodePtr p = m->interpretation->children; p; p = p->next) {
        xmlChar *k = xmlGetProp(p, X("kind"));
        if (k && strcmp((const char *)k, kind) == 0) {
            text = xmlNodeGetContent(p);
            got = (const char *)text;
        }
        xmlFree(k);
    }
    assert_string_equal(got, want);
    xmlFree(text);
}

static const char *const stands_for =
    ": it stands for a launch followed by a synchronisation, as in the reference reports.";

static char *joined(const char *a, const char *b)
{
    char *s = malloc(strlen(a) + strlen(b) + 1);
    assert_non_null(s);
    strcpy(s, a);
    strcat(s, b);
    return s;
}

/* Issue 14.1: the launch sentence's ranges are over the GPUs it names. */
static void test_mixed_launch(void **state)
{
    (void)state;
    const rc_gpu *gpus[] = {&alpha, &beta, &gamma_};
    rc_counts c = counts(4000000, 4000000, 1024, 1024, 1, 1);
    made m = interpret(gpus, 3, &c, NULL);
    expect(&m, "bound",
           "k is memory bound on all 3 GPUs: its arithmetic intensity, 1.00 FLOP/byte, is below "
           "the ridge point of every GPU (2.00 to 40.0 FLOP/byte), so moving its 4,000,000 bytes "
           "takes longer than its 4,000,000 FLOPs.");
    /* Bodies 4, 8 and 2 us; latencies 5, 5 and 3 us. */
    expect(&m, "launch",
           "On Beta the body, 8.00 µs, takes longer than the launch latency (5.00 µs); launch "
           "latency dominates on Alpha and Gamma, where the body takes 2.00 to 4.00 µs against "
           "3.00 to 5.00 µs.");
    char *assumed = joined("The launch latency of 5.00 µs is assumed on Alpha and Beta (their "
                           "files give the peak roofline none)", stands_for);
    expect(&m, "assumed", assumed);
    free(assumed);
    /* The fastest by t_total is Gamma (5 us), as is the widest bandwidth; but the launch
     * latency outweighs the body on Alpha and Gamma, so the bound says nothing of how the
     * times follow the GPUs (issue 29.6): no "follows bandwidth". */
    expect(&m, "compare",
           "The Gamma is fastest at 5.00 µs and the Beta slowest at 13.0 µs, 2.60 times as long.");
    expect(&m, "threads", "All 1,024 launched threads do counted work.");
    expect(&m, "assumptions", "");
    xmlFreeDoc(m.doc);
}

/* Issue 14.2: launch latency dominates everywhere, but the latencies differ:
 * no claim that every launch pays the same. */
static void test_latencies_differ(void **state)
{
    (void)state;
    const rc_gpu *gpus[] = {&alpha, &beta, &gamma_};
    rc_counts c = counts(1000, 1000, 64, 64, 2, 2);
    made m = interpret(gpus, 3, &c, NULL);
    expect(&m, "launch",
           "Launch latency dominates on all 3 GPUs: the body takes 0.000500 to 0.00200 µs, less "
           "than the launch latency of 3.00 to 5.00 µs, which makes up 100 % of t_total.");
    /* Memory bound, but the launch is 100 % of the time: it does not "follow bandwidth". */
    expect(&m, "compare",
           "The Gamma is fastest at 3.00 µs and the Beta slowest at 5.00 µs, 1.67 times as long.");
    xmlFreeDoc(m.doc);
}

/* The same latency everywhere: the totals differ less than the bodies. */
static void test_latencies_same(void **state)
{
    (void)state;
    const rc_gpu *gpus[] = {&alpha, &beta};
    rc_counts c = counts(1000, 1000, 64, 64, 2, 2);
    made m = interpret(gpus, 2, &c, NULL);
    expect(&m, "launch",
           "Launch latency dominates on both GPUs: the body takes 0.00100 to 0.00200 µs, less "
           "than the launch latency of 5.00 µs, which makes up 100 % of t_total.");
    /* 5.001 and 5.002 us: no ranking (issue 29.2). */
    expect(&m, "compare",
           "There is no meaningful difference between the two GPUs: t_total is 5.00 µs on both "
           "to three figures; the bodies alone differ 2.00 times, but every GPU adds the same "
           "5.00 µs of launch latency.");
    char *assumed = joined("The launch latency of 5.00 µs is assumed on every GPU (no GPU file "
                           "gives the peak roofline one)", stands_for);
    expect(&m, "assumed", assumed);
    free(assumed);
    xmlFreeDoc(m.doc);
}

/* Issue 29.2: gpuMeans' 5.00 against 5.07 µs is one assumed launch latency, not a ranking.
 * Bodies 35,000 B at 1 TB/s and 500 GB/s: 0.035 and 0.070 us, t_total 5.035 and 5.070 us,
 * 0.695 % apart. */
static void test_no_meaningful_difference(void **state)
{
    (void)state;
    const rc_gpu *gpus[] = {&alpha, &beta};
    rc_counts c = counts(1000, 35000, 64, 64, 2, 2);
    made m = interpret(gpus, 2, &c, NULL);
    expect(&m, "compare",
           "There is no meaningful difference between the two GPUs: t_total is 5.04 µs on the "
           "Alpha and 5.07 µs on the Beta, 0.695 % longer, within 10 %; the bodies alone differ "
           "2.00 times, but every GPU adds the same 5.00 µs of launch latency.");
    xmlFreeDoc(m.doc);
    /* Three GPUs: Alpha 5.035 and Beta 5.070 us are within 10 % of each other but not of the
     * fastest, Gamma (3 us of launch, 0.0175 us of body): Gamma is fastest, alone. */
    const rc_gpu *three[] = {&alpha, &beta, &gamma_};
    m = interpret(three, 3, &c, NULL);
    expect(&m, "compare",
           "The Gamma is fastest at 3.02 µs and the Beta slowest at 5.07 µs, 1.68 times as long.");
    xmlFreeDoc(m.doc);
}

/* Issue 29.6: the launch figures the GPU files do give are named, with their origin, and
 * not called absent; a launch queued back to back costs what the files say. */
static void test_launch_figures(void **state)
{
    (void)state;
    rc_gpu delta = alpha, epsilon = beta;
    delta.name = "Delta";
    epsilon.name = "Epsilon";
    delta.rates.launch_sync = (rc_gpu_figure){.value = 9.7e-6, .origin = RC_ORIGIN_MEASURED,
                                              .source = "a benchmark"};
    delta.rates.launch_back_to_back = (rc_gpu_figure){.value = 2.5e-6,
                                                      .origin = RC_ORIGIN_ASSUMED,
                                                      .source = "assumed: the default"};
    epsilon.rates.launch_back_to_back = (rc_gpu_figure){.value = 1.6e-6,
                                                        .origin = RC_ORIGIN_MEASURED,
                                                        .source = "a benchmark"};
    const rc_gpu *gpus[] = {&delta, &epsilon};
    rc_counts c = counts(1000, 1000, 64, 64, 2, 2);
    made m = interpret(gpus, 2, &c, NULL);
    expect(&m, "assumed",
           "The launch latency of 5.00 µs is assumed on every GPU (no GPU file gives the peak "
           "roofline one): it stands for a launch followed by a synchronisation, as in the "
           "reference reports; the Delta's file gives a measured 9.70 µs for that, unused here. "
           "Queued back to back, a launch costs 1.60 to 2.50 µs (assumed on the Delta).");
    xmlFreeDoc(m.doc);
    /* Every back-to-back figure assumed: "(assumed)"; none: "on these GPUs". */
    epsilon.rates.launch_back_to_back.origin = RC_ORIGIN_ASSUMED;
    m = interpret(gpus, 2, &c, NULL);
    expect(&m, "assumed",
           "The launch latency of 5.00 µs is assumed on every GPU (no GPU file gives the peak "
           "roofline one): it stands for a launch followed by a synchronisation, as in the "
           "reference reports; the Delta's file gives a measured 9.70 µs for that, unused here. "
           "Queued back to back, a launch costs 1.60 to 2.50 µs (assumed).");
    xmlFreeDoc(m.doc);
    delta.rates.launch_back_to_back.origin = RC_ORIGIN_MEASURED;
    epsilon.rates.launch_back_to_back.origin = RC_ORIGIN_MEASURED;
    m = interpret(gpus, 2, &c, NULL);
    expect(&m, "assumed",
           "The launch latency of 5.00 µs is assumed on every GPU (no GPU file gives the peak "
           "roofline one): it stands for a launch followed by a synchronisation, as in the "
           "reference reports; the Delta's file gives a measured 9.70 µs for that, unused here. "
           "Queued back to back, a launch costs 1.60 to 2.50 µs on these GPUs.");
    xmlFreeDoc(m.doc);
}

/* Issue 14.7: one GPU and one thread read naturally. */
static void test_one_gpu_one_thread(void **state)
{
    (void)state;
    const rc_gpu *gpus[] = {&alpha};
    rc_counts c = counts(1, 1, 1, 1, 1, 1);
    made m = interpret(gpus, 1, &c, NULL);
    expect(&m, "bound",
           "k is memory bound on Alpha: its arithmetic intensity, 1.00 FLOP/byte, is below the "
           "ridge point (10.0 FLOP/byte), so moving its 1 byte takes longer than its 1 FLOP.");
    expect(&m, "launch",
           "Launch latency dominates on Alpha: the body takes 0.00000100 µs, less than the launch "
           "latency of 5.00 µs, which makes up 100 % of t_total.");
    char *assumed = joined("The launch latency of 5.00 µs is assumed (the GPU file gives the "
                           "peak roofline none)",
                           stands_for);
    expect(&m, "assumed", assumed);
    free(assumed);
    expect(&m, "compare", "");
    expect(&m, "threads", "The one launched thread does counted work.");
    xmlFreeDoc(m.doc);
}

/* Intensity at the ridge point: memory bound (ties are), so not "below". */
static void test_tie(void **state)
{
    (void)state;
    const rc_gpu *gpus[] = {&alpha};
    rc_counts c = counts(10, 1, 1, 1, 1, 1);
    made m = interpret(gpus, 1, &c, NULL);
    expect(&m, "bound",
           "k is memory bound on Alpha: its arithmetic intensity, 10.0 FLOP/byte, is at or below "
           "the ridge point (10.0 FLOP/byte), so moving its 1 byte takes at least as long as its "
           "10 FLOPs.");
    xmlFreeDoc(m.doc);
}

/* Issue 14.7: zero work, equal times, no thread working. */
static void test_zero_work(void **state)
{
    (void)state;
    const rc_gpu *gpus[] = {&alpha, &beta};
    rc_counts c = counts(0, 0, 1024, 0, 4, 0);
    made m = interpret(gpus, 2, &c, NULL);
    expect(&m, "bound",
           "k does no counted work: its time on every GPU is the launch latency alone.");
    expect(&m, "launch", "");
    expect(&m, "compare", "Both GPUs take the same time, 5.00 µs.");
    expect(&m, "threads", "None of the 1,024 launched threads does counted work.");
    xmlFreeDoc(m.doc);
}

/* Mixed bounds: each side's ridge points, over that side's GPUs. */
static void test_mixed_bound(void **state)
{
    (void)state;
    const rc_gpu *gpus[] = {&alpha, &beta, &gamma_};
    rc_counts c = counts(20000000, 1000000, 2048, 1, 2, 1);
    made m = interpret(gpus, 3, &c, NULL);
    expect(&m, "bound",
           "k is compute bound on Alpha and Gamma and memory bound on Beta: its arithmetic "
           "intensity, 20.0 FLOP/byte, is above the ridge points of Alpha and Gamma (2.00 to "
           "10.0 FLOP/byte) and below the ridge point of Beta (40.0 FLOP/byte).");
    expect(&m, "threads",
           "Only 1 of the 2,048 launched threads (0.0488 %) does counted work, in 1 of the 2 "
           "blocks.");
    xmlFreeDoc(m.doc);
}

/* Compute bound everywhere; the body outweighs the launch latency. */
static void test_compute_bound(void **state)
{
    (void)state;
    const rc_gpu *gpus[] = {&alpha, &beta, &gamma_};
    rc_counts c = counts(1000000000, 10000000, 4096, 2048, 4, 4);
    made m = interpret(gpus, 3, &c, NULL);
    expect(&m, "bound",
           "k is compute bound on all 3 GPUs: its arithmetic intensity, 100 FLOP/byte, is above "
           "the ridge point of every GPU (2.00 to 40.0 FLOP/byte), so its 1,000,000,000 FLOPs "
           "take longer than moving its 10,000,000 bytes.");
    /* Bodies 100, 50 and 250 us; shares 5/105, 5/55 and 3/253. */
    expect(&m, "launch",
           "The body outweighs the launch latency on all 3 GPUs: it takes 50.0 to 250 µs against "
           "3.00 to 5.00 µs of launch latency, which makes up 1.19 % to 9.09 % of t_total.");
    expect(&m, "compare",
           "The Beta is fastest at 55.0 µs and the Gamma slowest at 253 µs, 4.60 times as long. "
           "Being compute bound, it follows FP32 peak rather than bandwidth: the Gamma has the "
           "highest bandwidth (2 TB/s) but 4 TFLOP/s of FP32 peak, against 20 TFLOP/s on the "
           "Beta.");
    expect(&m, "threads",
           "Only 2,048 of the 4,096 launched threads (50.0 %) do counted work, spread over all 4 "
           "blocks.");
    xmlFreeDoc(m.doc);
}

/* The launch as written: only what differs is said. */
static void test_assumptions(void **state)
{
    (void)state;
    const rc_gpu *gpus[] = {&alpha, &gamma_};
    rc_counts c = counts(1000, 1000, 64, 10, 1, 1), l = counts(2000, 1000, 64, 10, 1, 1);
    made m = interpret(gpus, 2, &c, &l);
    /* Intensity 2 is at or below both ridge points: t_total does not move. */
    expect(&m, "assumptions",
           "The model's assumptions and the launch disagree: as launched, it would do 2,000 "
           "FLOPs instead of 1,000, which leaves t_total as shown.");
    xmlFreeDoc(m.doc);
    l = counts(8000000, 8000000, 64, 20, 1, 1);
    m = interpret(gpus, 2, &c, &l);
    /* As launched: bodies 8 and 4 us, so t_total 13 and 7 us. */
    expect(&m, "assumptions",
           "The model's assumptions and the launch disagree: as launched, 20 threads would work "
           "instead of 10, for 8,000,000 FLOPs instead of 1,000 and 8,000,000 bytes instead of "
           "1,000, and t_total would be 7.00 to 13.0 µs instead of 3.00 to 5.00 µs.");
    xmlFreeDoc(m.doc);
    m = interpret(gpus, 2, &c, &c);
    expect(&m, "assumptions",
           "The model's assumptions agree with the launch: counted as launched, the work is the "
           "same.");
    xmlFreeDoc(m.doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mixed_launch),       cmocka_unit_test(test_latencies_differ),
        cmocka_unit_test(test_latencies_same),     cmocka_unit_test(test_one_gpu_one_thread),
        cmocka_unit_test(test_tie),                cmocka_unit_test(test_zero_work),
        cmocka_unit_test(test_mixed_bound),        cmocka_unit_test(test_compute_bound),
        cmocka_unit_test(test_assumptions),        cmocka_unit_test(test_no_meaningful_difference),
        cmocka_unit_test(test_launch_figures),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
