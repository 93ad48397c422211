/* interpret.h: the interpretation, a few sentences that say what a kernel's
 * estimates mean. Part of the results tree (results.h), made from the
 * computed facts: each statement (what bounds the kernel, the launch
 * latency's share, an assumed launch latency, how the GPUs rank, which
 * threads work, what the model's assumptions change) is one function that
 * computes its own figures over exactly the GPUs it names, so that every
 * sentence is true for the numbers beside it, whatever the input: one GPU,
 * one block, zero work, launch-dominated or mixed results.
 */
#ifndef ROOFCAST_INTERPRET_H
#define ROOFCAST_INTERPRET_H

#include <stddef.h>

#include <libxml/tree.h>

#include "model/estimate.h"
#include "model/eval.h"
#include "model/model.h"

/* What the sentences are made from; the caller owns all of it. */
typedef struct {
    const rc_kernel *kernel;
    const rc_gpu *const *gpus;    /* in the order the reports show them */
    size_t ngpus;
    const rc_counts *model;       /* the counts the estimates use */
    const rc_estimate *est;       /* est[i] on gpus[i] */
    const rc_counts *launch;      /* as launched; NULL when the model states no assumption */
    const rc_estimate *launch_est; /* on each GPU, as launched; NULL with `launch` */
} rc_interpret_facts;

/* Appends <interpretation> to `kernel`, holding a <p kind="..."> per
 * statement that applies, in reading order: bound, launch, assumed,
 * compare, threads, assumptions. Empty when there is no GPU. Returns the
 * new node (NULL only when out of memory). */
xmlNodePtr rc_interpret(xmlNodePtr kernel, const rc_interpret_facts *facts);

#endif
