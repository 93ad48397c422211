/* chain.c: see chain.h. */
#include "model/chain.h"

#include <math.h>

#include "model/arch.h"

/* A load each iteration makes: a <load> among the loop's own children (not under a <when>,
 * not in a nested loop) from global or local memory, or a legacy load of some bytes. */
static bool loads_each_iteration(const rc_kernel *k, const rc_work *loop, const rc_counts *c)
{
    for (const rc_work *w = loop->children; w; w = w->next) {
        if (w->kind != RC_WORK_LOAD || c->work[w->index].m1 <= 0)
            continue;
        if (w->array < 0)
            return true;
        rc_space s = k->arrays[w->array].space;
        if (s == RC_SPACE_GLOBAL || s == RC_SPACE_LOCAL)
            return true;
    }
    return false;
}

/* FLOPs of a subtree over the launch, as FMA slots: an unfused FLOP counts twice. */
static double subtree_flops(const rc_work *w, const rc_counts *c)
{
    double f = 0;
    for (; w; w = w->next) {
        if (w->kind == RC_WORK_FLOPS)
            f += (double)c->work[w->index].m1 * rc_flop_slots(w);
        f += subtree_flops(w->children, c);
    }
    return f;
}

/* One of the loop's own children is a <flops> statement that did some. */
static bool flops_each_iteration(const rc_work *loop, const rc_counts *c)
{
    for (const rc_work *w = loop->children; w; w = w->next)
        if (w->kind == RC_WORK_FLOPS && c->work[w->index].m1 > 0)
            return true;
    return false;
}

/* One dependent loop's chain; the longest sets *out, and every floor counts. */
static void loop_chain(const rc_gpu *g, const rc_kernel *k, const rc_work *w,
                       const rc_counts *c, rc_chain_time *out)
{
    const rc_work_stats *s = &c->work[w->index];
    double n = (double)s->thread_max, clock = g->sm.clock.value;
    if (!(n > 0) || !(clock > 0))
        return;
    rc_chain_time t = *out;
    t.loads = loads_each_iteration(k, w, c);
    double lower_cycles = 0;
    if (t.loads) {
        t.instructions = 0;
        t.link_cycles = g->rates.l1_latency.value * clock;
        t.link_assumed = g->rates.l1_latency.origin == RC_ORIGIN_ASSUMED;
        lower_cycles = t.link_cycles;
    } else {
        double flops = subtree_flops(w->children, c);
        if (!(flops > 0))
            return;
        double per_iteration = s->m1 > 0 ? flops / (double)s->m1 / 2.0 : 1;
        t.instructions = fmax(1.0, per_iteration);
        t.link_cycles = t.instructions * t.arith_cycles;
        t.link_assumed = t.arith_assumed;
        lower_cycles = flops_each_iteration(w, c) ? t.arith_cycles : 0;
    }
    double time = n * t.link_cycles / clock;
    double lower = t.link_assumed ? 0 : n * lower_cycles / clock;
    out->time_lower = fmax(out->time_lower, lower);
    if (time > out->time) {
        t.loop_line = w->line;
        t.iterations = n;
        t.time = time;
        t.time_lower = out->time_lower;
        *out = t;
    }
}

static void walk(const rc_gpu *g, const rc_kernel *k, const rc_work *w, const rc_counts *c,
                 rc_chain_time *out)
{
    for (; w; w = w->next) {
        if (w->kind == RC_WORK_LOOP && w->loop_dependent)
            loop_chain(g, k, w, c, out);
        walk(g, k, w->children, c, out);
    }
}

void rc_chain_time_of(const rc_gpu *g, const rc_kernel *k, const rc_counts *c,
                      rc_chain_time *out)
{
    *out = (rc_chain_time){0};
    out->arith_cycles = rc_arith_latency_cycles(g->compute_capability, &out->arith_assumed,
                                                &out->arith_source);
    if (c->work)
        walk(g, k, k->work, c, out);
}
