/* eval.c: exact counts over the launch. See eval.h. */
#include "eval.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load.h"

typedef struct {
    const rc_kernel *kernel;
    bool as_launched;
    const rc_work **nodes;  /* by rc_work.index */
    int64_t *slots;
    int64_t (*thread_m)[2]; /* this thread's m0, m1 per node */
    int64_t (*block_m)[2];  /* this block's m0, m1 per node */
    int64_t *block_threads; /* threads of this block that reached each node */
    int64_t *cost;          /* what interpreting each node once costs */
    int64_t spent;          /* the cost so far, against RC_EVAL_STEP_LIMIT */
    rc_counts *counts;
    rc_eval_error *err;
} evaluator;

static bool fail(evaluator *ev, const rc_work *node, const char *fmt, ...)
    RC_PRINTF(3, 4);

static bool fail(evaluator *ev, const rc_work *node, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ev->err->node = node;
    ev->err->expr = -1;
    vsnprintf(ev->err->message, sizeof ev->err->message, fmt, ap);
    va_end(ap);
    return false;
}

static bool checked_add(int64_t *acc, int64_t v)
{
    return !__builtin_add_overflow(*acc, v, acc);
}

static bool checked_mul(int64_t a, int64_t b, int64_t *out)
{
    return !__builtin_mul_overflow(a, b, out);
}

static bool eval_expr(evaluator *ev, const rc_work *w, int which, int64_t *out)
{
    if (rc_expr_eval(w->expr[which], ev->slots, out, &ev->err->expr_error))
        return true;
    ev->err->node = w;
    ev->err->expr = which;
    ev->err->message[0] = '\0';
    return false;
}

static bool overflow(evaluator *ev, const rc_work *w)
{
    return fail(ev, w, "the %s count of <%s> overflows 64 bits",
                w->kind == RC_WORK_LOOP ? "iteration" : "work",
                rc_work_element(w->kind));
}

/* Adds weight * amount to this thread's m1 of w, and weight to its m0. */
static bool count(evaluator *ev, const rc_work *w, int64_t weight, int64_t amount)
{
    int64_t product;
    if (!checked_mul(weight, amount, &product) ||
        !checked_add(&ev->thread_m[w->index][0], weight) ||
        !checked_add(&ev->thread_m[w->index][1], product))
        return overflow(ev, w);
    return true;
}

static bool over_budget(evaluator *ev, const rc_work *w)
{
    return fail(ev, w,
                "the work model needs more than %lld evaluation steps; "
                "it cannot be counted exactly (a loop whose body reads its "
                "variable runs once per iteration)",
                (long long)RC_EVAL_STEP_LIMIT);
}

/* Charges `n` steps; false once the budget is spent. */
static bool spend(evaluator *ev, int64_t n)
{
    return !__builtin_add_overflow(ev->spent, n, &ev->spent) &&
           ev->spent <= RC_EVAL_STEP_LIMIT;
}

/* Runs a statement list for the current thread. `weight` is how many times
 * the statements run (more than 1 inside a loop counted in closed form). */
static bool run(evaluator *ev, const rc_work *w, int64_t weight)
{
    for (; w; w = w->next) {
        ev->counts->steps++;
        if (!spend(ev, ev->cost[w->index]))
            return over_budget(ev, w);
        int64_t a = 0, b = 0, c = 0;
        switch (w->kind) {
        case RC_WORK_LET:
            if (w->slot >= 0) {
                if (!eval_expr(ev, w, 0, &a))
                    return false;
                ev->slots[w->slot] = a;
            }
            if (!count(ev, w, weight, 0))
                return false;
            break;
        case RC_WORK_WHEN: {
            bool taken;
            if (w->assumption && ev->as_launched)
                taken = true;
            else {
                if (!eval_expr(ev, w, 0, &a))
                    return false;
                taken = a != 0;
            }
            if (!count(ev, w, weight, taken ? 1 : 0))
                return false;
            if (taken && !run(ev, w->children, weight))
                return false;
            break;
        }
        case RC_WORK_LOOP: {
            if (!eval_expr(ev, w, 0, &a) || !eval_expr(ev, w, 1, &b) ||
                !eval_expr(ev, w, 2, &c))
                return false;
            if (c <= 0)
                return fail(ev, w,
                            "<loop> '%s' has step %lld: the step must be positive, "
                            "or the loop would never end",
                            w->name, (long long)c);
            if (!w->body_reads_var) {
                /* for (v = a; v < b; v += c): ceil((b - a) / c) iterations */
                uint64_t trips = 0;
                if (a < b)
                    trips = ((uint64_t)b - (uint64_t)a - 1) / (uint64_t)c + 1;
                int64_t inner;
                if (trips > INT64_MAX || !count(ev, w, weight, (int64_t)trips) ||
                    !checked_mul(weight, (int64_t)trips, &inner))
                    return overflow(ev, w);
                if (trips > 0 && !run(ev, w->children, inner))
                    return false;
                break;
            }
            if (!count(ev, w, weight, 0))
                return false;
            for (int64_t v = a; v < b;) {
                if (!spend(ev, 1))
                    return over_budget(ev, w);
                ev->slots[w->slot] = v;
                if (!checked_add(&ev->thread_m[w->index][1], weight))
                    return overflow(ev, w);
                if (!run(ev, w->children, weight))
                    return false;
                if (__builtin_add_overflow(v, c, &v))
                    break; /* the next value would pass INT64_MAX >= b */
            }
            break;
        }
        case RC_WORK_FLOPS:
            if (!eval_expr(ev, w, 0, &a))
                return false;
            if (a < 0)
                return fail(ev, w, "<flops> count is negative (%lld)", (long long)a);
            if (!count(ev, w, weight, a))
                return false;
            break;
        case RC_WORK_LOAD:
        case RC_WORK_STORE:
            if (!eval_expr(ev, w, 0, &a) || !eval_expr(ev, w, 1, &b))
                return false;
            if (a < 0 || b < 0)
                return fail(ev, w, "<%s> %s is negative (%lld)", rc_work_element(w->kind),
                            a < 0 ? "count" : "bytes", (long long)(a < 0 ? a : b));
            if (!checked_mul(a, b, &c))
                return overflow(ev, w);
            if (!count(ev, w, weight, c))
                return false;
            break;
        case RC_WORK_TRAFFIC:
            if (!eval_expr(ev, w, 0, &a))
                return false;
            if (a < 0)
                return fail(ev, w, "<traffic> bytes is negative (%lld)", (long long)a);
            if (!count(ev, w, weight, a))
                return false;
            break;
        }
    }
    return true;
}

/* Fills nodes[] and, for each node, the steps one interpretation of it
 * costs: one for the statement and one per instruction of its expressions,
 * so the step limit bounds the time evaluation takes, whatever the size of
 * the expressions. */
static void index_nodes(const rc_work *w, const rc_work **nodes, int64_t *cost)
{
    for (; w; w = w->next) {
        nodes[w->index] = w;
        cost[w->index] = 1;
        for (int i = 0; i < RC_WORK_EXPRS; i++)
            if (w->expr[i])
                cost[w->index] += (int64_t)rc_expr_size(w->expr[i]);
        index_nodes(w->children, nodes, cost);
    }
}

/* Which slots the evaluation can read; assumption guards are skipped when
 * they are taken as true. */
static void mark_reads(const rc_work *w, bool as_launched, bool *reads, int nslots)
{
    for (; w; w = w->next) {
        bool skip_test = w->kind == RC_WORK_WHEN && w->assumption && as_launched;
        for (int i = skip_test ? 1 : 0; i < RC_WORK_EXPRS; i++)
            if (w->expr[i])
                rc_expr_mark_reads(w->expr[i], reads, nslots);
        mark_reads(w->children, as_launched, reads, nslots);
    }
}

static void spread_init(rc_spread *s)
{
    s->total = 0;
    s->thread_min = s->block_min = INT64_MAX;
    s->thread_max = s->block_max = 0;
}

static void spread_finish(rc_spread *s)
{
    if (s->thread_min == INT64_MAX)
        s->thread_min = 0;
    if (s->block_min == INT64_MAX)
        s->block_min = 0;
}

static void min_max(int64_t v, int64_t *lo, int64_t *hi)
{
    if (v < *lo)
        *lo = v;
    if (v > *hi)
        *hi = v;
}

/* The per-thread sums of work, from the thread's node counters. */
static void thread_work(const evaluator *ev, int64_t *flops, int64_t *bytes,
                        bool *ok)
{
    *flops = *bytes = 0;
    for (int i = 0; i < ev->kernel->nwork; i++) {
        int64_t m1 = ev->thread_m[i][1];
        switch (ev->nodes[i]->kind) {
        case RC_WORK_FLOPS:
            *ok &= checked_add(flops, m1);
            break;
        case RC_WORK_LOAD:
        case RC_WORK_STORE:
        case RC_WORK_TRAFFIC:
            *ok &= checked_add(bytes, m1);
            break;
        default:
            break;
        }
    }
}

/* One block's totals, before multiplying by the blocks it stands for. */
typedef struct {
    int64_t active, flops, bytes, loaded, stored, traffic;
} block_sums;

static bool run_block(evaluator *ev, const int *taxes, int ntaxes, int64_t tmult,
                      block_sums *bs)
{
    const rc_kernel *k = ev->kernel;
    rc_counts *c = ev->counts;
    int n = k->nwork;
    int64_t idx[3] = {0, 0, 0};
    memset(ev->block_m, 0, (size_t)n * sizeof *ev->block_m);
    memset(ev->block_threads, 0, (size_t)n * sizeof *ev->block_threads);
    memset(bs, 0, sizeof *bs);
    if (!spend(ev, (int64_t)n + 1)) /* fold_block's bookkeeping */
        return over_budget(ev, NULL);
    for (;;) {
        for (int a = 0; a < ntaxes; a++)
            ev->slots[RC_SLOT_TID_X + taxes[a]] = idx[a];
        memset(ev->thread_m, 0, (size_t)n * sizeof *ev->thread_m);
        c->thread_runs++;
        if (!spend(ev, (int64_t)n + 1)) /* the bookkeeping below, per node */
            return over_budget(ev, NULL);
        if (!run(ev, k->work, 1))
            return false;
        bool ok = true;
        for (int i = 0; i < n; i++) {
            if (ev->thread_m[i][0] == 0)
                continue;
            rc_work_stats *s = &c->work[i];
            min_max(ev->thread_m[i][1], &s->thread_min, &s->thread_max);
            int64_t m0, m1;
            ok &= checked_mul(ev->thread_m[i][0], tmult, &m0) &&
                  checked_mul(ev->thread_m[i][1], tmult, &m1) &&
                  checked_add(&ev->block_m[i][0], m0) &&
                  checked_add(&ev->block_m[i][1], m1) &&
                  checked_add(&ev->block_threads[i], tmult);
            if (!ok)
                return overflow(ev, ev->nodes[i]);
        }
        int64_t tf, tb, f, b;
        thread_work(ev, &tf, &tb, &ok);
        if (!ok || !checked_mul(tf, tmult, &f) || !checked_mul(tb, tmult, &b) ||
            !checked_add(&bs->flops, f) || !checked_add(&bs->bytes, b))
            return fail(ev, NULL, "the work of one block overflows 64 bits");
        if (tf > 0 || tb > 0) {
            bs->active += tmult;
            min_max(tf, &c->flops.thread_min, &c->flops.thread_max);
            min_max(tb, &c->bytes.thread_min, &c->bytes.thread_max);
        }
        /* Next thread index combination (x fastest, like CUDA). */
        int a = 0;
        for (; a < ntaxes; a++) {
            if (++idx[a] < k->block[taxes[a]])
                break;
            idx[a] = 0;
        }
        if (a == ntaxes)
            break;
    }
    for (int i = 0; i < n; i++) {
        int64_t m1 = ev->block_m[i][1];
        bool ok = true;
        switch (ev->nodes[i]->kind) {
        case RC_WORK_LOAD:
            ok = checked_add(&bs->loaded, m1);
            break;
        case RC_WORK_STORE:
            ok = checked_add(&bs->stored, m1);
            break;
        case RC_WORK_TRAFFIC:
            ok = checked_add(&bs->traffic, m1);
            break;
        default:
            break;
        }
        if (!ok)
            return overflow(ev, ev->nodes[i]);
    }
    return true;
}

static bool fold_block(evaluator *ev, const block_sums *bs, int64_t bmult)
{
    rc_counts *c = ev->counts;
    for (int i = 0; i < ev->kernel->nwork; i++) {
        if (ev->block_m[i][0] == 0)
            continue;
        rc_work_stats *s = &c->work[i];
        min_max(ev->block_m[i][1], &s->block_min, &s->block_max);
        int64_t m0, m1, th;
        if (!checked_mul(ev->block_m[i][0], bmult, &m0) ||
            !checked_mul(ev->block_m[i][1], bmult, &m1) ||
            !checked_mul(ev->block_threads[i], bmult, &th) ||
            !checked_add(&s->m0, m0) || !checked_add(&s->m1, m1) ||
            !checked_add(&s->threads, th) || !checked_add(&s->blocks, bmult))
            return overflow(ev, ev->nodes[i]);
    }
    if (bs->active == 0)
        return true;
    int64_t v;
    bool ok = checked_add(&c->blocks_active, bmult) &&
              checked_mul(bs->active, bmult, &v) && checked_add(&c->threads_active, v) &&
              checked_mul(bs->flops, bmult, &v) && checked_add(&c->flops.total, v) &&
              checked_mul(bs->bytes, bmult, &v) && checked_add(&c->bytes.total, v) &&
              checked_mul(bs->loaded, bmult, &v) && checked_add(&c->bytes_loaded, v) &&
              checked_mul(bs->stored, bmult, &v) && checked_add(&c->bytes_stored, v) &&
              checked_mul(bs->traffic, bmult, &v) && checked_add(&c->bytes_traffic, v);
    if (!ok)
        return fail(ev, NULL, "the total work of the launch overflows 64 bits");
    min_max(bs->active, &c->active_per_block.block_min, &c->active_per_block.block_max);
    min_max(bs->flops, &c->flops.block_min, &c->flops.block_max);
    min_max(bs->bytes, &c->bytes.block_min, &c->bytes.block_max);
    return true;
}

static const char *const index_names[RC_SLOT_FIRST_FREE] = {
    /* ORDER RC_SLOT */
    "threadIdx.x", "threadIdx.y", "threadIdx.z",
    "blockIdx.x",  "blockIdx.y",  "blockIdx.z"};

bool rc_evaluate(const rc_kernel *k, bool as_launched, rc_counts *c,
                 rc_eval_error *err)
{
    memset(c, 0, sizeof *c);
    memset(err, 0, sizeof *err);
    err->expr = -1;
    int n = k->nwork;
    c->nwork = n;
    c->threads_per_block = rc_kernel_threads_per_block(k);
    c->blocks_launched = rc_kernel_blocks(k);
    c->threads_launched = c->threads_per_block * c->blocks_launched;
    spread_init(&c->flops);
    spread_init(&c->bytes);
    spread_init(&c->active_per_block);

    evaluator ev = {k, as_launched, NULL, NULL, NULL, NULL, NULL, NULL, 0, c, err};
    size_t nn = (size_t)(n > 0 ? n : 1);
    int nslots = k->nslots > RC_SLOT_FIRST_FREE ? k->nslots : RC_SLOT_FIRST_FREE;
    c->work = calloc(nn, sizeof *c->work);
    ev.nodes = calloc(nn, sizeof *ev.nodes);
    ev.slots = calloc((size_t)nslots, sizeof *ev.slots);
    ev.thread_m = calloc(nn, sizeof *ev.thread_m);
    ev.block_m = calloc(nn, sizeof *ev.block_m);
    ev.block_threads = calloc(nn, sizeof *ev.block_threads);
    ev.cost = calloc(nn, sizeof *ev.cost);
    bool *reads = calloc((size_t)nslots, sizeof *reads);
    bool ok = false;
    if (!c->work || !ev.nodes || !ev.slots || !ev.thread_m || !ev.block_m ||
        !ev.block_threads || !ev.cost || !reads) {
        fail(&ev, NULL, "out of memory");
        goto end;
    }
    index_nodes(k->work, ev.nodes, ev.cost);
    for (int i = 0; i < n; i++) {
        c->work[i].thread_min = c->work[i].block_min = INT64_MAX;
    }
    mark_reads(k->work, as_launched, reads, nslots);

    /* Iterate over the indices the model reads; the others multiply. */
    int taxes[3], baxes[3], ntaxes = 0, nbaxes = 0;
    int64_t tmult = 1, bmult = 1, truns = 1, bruns = 1;
    for (int a = 0; a < 3; a++) {
        c->reads_index[RC_SLOT_TID_X + a] = reads[RC_SLOT_TID_X + a];
        c->reads_index[RC_SLOT_BID_X + a] = reads[RC_SLOT_BID_X + a];
        if (reads[RC_SLOT_TID_X + a]) {
            taxes[ntaxes++] = a;
            truns *= k->block[a];
        } else
            tmult *= k->block[a];
        if (reads[RC_SLOT_BID_X + a]) {
            baxes[nbaxes++] = a;
            bruns *= k->grid[a];
        } else
            bmult *= k->grid[a];
    }
    /* Every index combination costs at least its bookkeeping, a step per
     * node (see run_block): refuse at once what could never fit. */
    int64_t runs, least;
    if (!checked_mul(truns, bruns, &runs) || !checked_mul(runs, (int64_t)n + 1, &least) ||
        least > RC_EVAL_STEP_LIMIT) {
        char which[200] = "";
        for (int s = 0; s < RC_SLOT_FIRST_FREE; s++)
            if (reads[s]) {
                if (*which)
                    strcat(which, ", ");
                strcat(which, index_names[s]);
            }
        fail(&ev, NULL,
             "the work model reads %s: that is %lld x %lld index combinations, "
             "too many to count one by one (the limit is %lld for a model of %d "
             "statement%s)",
             which, (long long)bruns, (long long)truns,
             (long long)(RC_EVAL_STEP_LIMIT / ((int64_t)n + 1)), n, n == 1 ? "" : "s");
        goto end;
    }

    int64_t bidx[3] = {0, 0, 0};
    for (;;) {
        for (int a = 0; a < nbaxes; a++)
            ev.slots[RC_SLOT_BID_X + baxes[a]] = bidx[a];
        block_sums bs;
        if (!run_block(&ev, taxes, ntaxes, tmult, &bs) || !fold_block(&ev, &bs, bmult))
            goto end;
        int a = 0;
        for (; a < nbaxes; a++) {
            if (++bidx[a] < k->grid[baxes[a]])
                break;
            bidx[a] = 0;
        }
        if (a == nbaxes)
            break;
    }
    for (int i = 0; i < n; i++) {
        if (c->work[i].thread_min == INT64_MAX)
            c->work[i].thread_min = 0;
        if (c->work[i].block_min == INT64_MAX)
            c->work[i].block_min = 0;
    }
    c->active_per_block.total = c->threads_active;
    c->active_per_block.thread_min = c->active_per_block.thread_max = 1;
    spread_finish(&c->flops);
    spread_finish(&c->bytes);
    spread_finish(&c->active_per_block);
    if (c->threads_active == 0)
        c->active_per_block.thread_min = c->active_per_block.thread_max = 0;
    ok = true;
end:
    free(ev.nodes);
    free(ev.slots);
    free(ev.thread_m);
    free(ev.block_m);
    free(ev.block_threads);
    free(ev.cost);
    free(reads);
    if (!ok)
        rc_counts_release(c);
    return ok;
}

void rc_counts_release(rc_counts *c)
{
    free(c->work);
    c->work = NULL;
}
