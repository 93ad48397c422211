/* glance.h: "At a glance", the part of a kernel's report that leads with the answer. Part of
 * the results tree (results.h): a row per GPU ordered by the refined estimate, t_estimate,
 * fastest first (by t_total where there is no refined estimate), with what limits it in words,
 * and a short verdict: the range, what limits it, what would change it, whether the launch
 * cost decides the ranking, and why t_estimate and t_total differ where they differ more than
 * twice. Like the interpretation (interpret.h), each sentence computes its own figures over
 * exactly the GPUs it names.
 *
 * "Fastest" is a set, not one GPU: every GPU within RC_NO_DIFFERENCE of the smallest time.
 * A smaller difference is not a ranking: it is less than the uncertainty of the assumed
 * figures the estimates rest on (an assumed launch cost alone spans 1.6 to 2.6 µs between
 * GPUs measured alike).
 */
#ifndef ROOFCAST_GLANCE_H
#define ROOFCAST_GLANCE_H

#include <stdbool.h>
#include <stddef.h>

#include <libxml/tree.h>

#include "model/estimate.h"
#include "model/eval.h"
#include "model/model.h"
#include "model/refine.h"

/* Two times whose ratio is below 1 + RC_NO_DIFFERENCE show no meaningful difference. */
#define RC_NO_DIFFERENCE 0.10

/* Where t_estimate and t_total differ more than this many times, the verdict says why. */
#define RC_GLANCE_DIFFER 2.0

/* What the glance is made from; the caller owns all of it. */
typedef struct {
    const rc_kernel *kernel;
    const rc_gpu *const *gpus;    /* in the order the reports show them */
    size_t ngpus;
    const rc_counts *model;       /* the counts the estimates use */
    const rc_estimate *est;       /* peak roofline: est[i] on gpus[i] */
    const rc_refined *refined;    /* refined[i] on gpus[i]; NULL when there is none */
} rc_glance_facts;

/* fastest[i] = whether t[i] is within RC_NO_DIFFERENCE of the smallest of t[0..n-1]. A lone
 * time is compared with none: false. */
void rc_glance_fastest(const double *t, size_t n, bool *fastest);

/* What limits a refined estimate, in a few words: "the launch cost", "DRAM bandwidth at
 * 32 % occupancy", "memory latency: 160 threads at work". Writes buf[size]; returns buf. */
char *rc_glance_limiter_words(const rc_refined *r, char *buf, size_t size);

/* Whether the reports state that a level's requests hold more of it than they ask for
 * (refine.c share_of): not where the share rounds to 1.00 at three figures, as a stream's few
 * sector bytes over its requested ones do. */
bool rc_glance_share_shown(double share);

/* An arithmetic pipe as the sentences name it: "the special function units". */
const char *rc_glance_pipe_words(rc_pipe p);

/* What one iteration of the dependent chain costs, in words: "each at least one L1 hit
 * (40 cycles)", "each 3 dependent FMA instructions of 4 cycles, assumed" (the figure the
 * cost rests on is assumed). Writes buf[size]; returns buf. */
char *rc_chain_link_words(const rc_chain_time *ch, char *buf, size_t size);

/* How the per-thread floor issues the longest thread's FLOPs ("as FMA instructions issued one
 * a cycle"; the instructions counted where some FLOPs are unfused; the cycles an instruction
 * where they are more than one), into buf. */
char *rc_thread_issue_words(const rc_refined *r, char *buf, size_t size);

/* Appends <glance order="t-estimate|t-total"> to `kernel`: a <row> per GPU in that order
 * (gpu, gpu-name, rank, t-estimate, t-lower, t-total and their -text, limiter,
 * limiter-words, fastest) and a <verdict> of <p kind="...">: range, limit, change, launch,
 * differ, each where it applies. Empty when there is no GPU. Returns the new node (NULL
 * only when out of memory). */
xmlNodePtr rc_glance(xmlNodePtr kernel, const rc_glance_facts *facts);

#endif
