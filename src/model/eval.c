/* eval.c: exact counts over the launch. See eval.h.
 *
 * The model is run over boxes of index values rather than single threads:
 * every index the model reads holds a range, and expressions are evaluated
 * over ranges (rc_expr_eval_range). When every decision the model makes -
 * each guard, each loop's trip count, each count - comes out the same for
 * the whole box, one run stands for every thread in it. When one does not,
 * the box is cut in two along its widest index and each half is run. Cuts
 * happen only where the work changes, so the cost follows the number of
 * distinct behaviours, not the number of threads: maximum_kernel over
 * 65535 x 65535 blocks of 1024 threads takes a handful of runs.
 *
 * Boxes are cut along thread indices first, inside a box of blocks; a
 * decision that depends on the block indices cuts the box of blocks. So
 * every block of a box of blocks has the same work, which keeps the
 * per-block spreads exact.
 */
#include "model/eval.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/names.h"
#include "model/warp_max.h"
#include "util/array.h"
#include "util/diag.h"

/* What a run over a box says. */
typedef enum {
    R_OK,    /* every point of the box does the same work, now counted */
    R_SPLIT, /* some decision differs inside the box: cut it */
    R_FAIL   /* an input error, in ev->err */
} outcome;

/* Accumulators of one box of blocks, kept apart until the box is known to
 * need no cut, then multiplied by the blocks it stands for. */
typedef struct {
    int64_t (*m)[2];      /* m0, m1 per node, for one block of the box */
    int64_t *threads;     /* threads of one block that reached each node */
    int64_t *thread_min, *thread_max; /* m1 of one thread, per node */
    int64_t active, flops, bytes, loaded, stored, traffic;
    int64_t flops_min, flops_max, bytes_min, bytes_max; /* per active thread */
    int64_t slots_max; /* per active thread: FLOPs, an unfused one twice (eval.h) */
    int64_t (*warp_max)[RC_WARP_MAX_WARPS]; /* per node, per warp: the most m1 of a lane;
                                               NULL without <instructions> */
} block_acc;

typedef struct {
    const rc_kernel *kernel;
    bool as_launched;
    const rc_eval_options *options;
    const rc_work **nodes;  /* by rc_work.index */
    int64_t *cost;          /* what interpreting each node once costs */
    int64_t spent;          /* the cost so far, against RC_EVAL_STEP_LIMIT */
    int64_t *lo, *hi;       /* every slot's range in the current box */
    int64_t (*thread_m)[2]; /* m0, m1 per node, for one point of the box */
    block_acc blk;
    int taxes[3], baxes[3], ntaxes, nbaxes; /* the indices read */
    int64_t tmult, bmult;   /* threads and blocks each point stands for */
    int64_t box_runs;       /* thread runs of the current box of blocks, counted once it is whole */
    /* The boxes of blocks whose threads all decide alike, for the memory
     * counts by classes (classes.h); nboxes 0 once there are too many. */
    rc_block_box *boxes;
    size_t nboxes, cap_boxes;
    bool too_many_boxes;
    rc_counts *counts;
    rc_eval_error *err;
} evaluator;

static outcome fail(evaluator *ev, const rc_work *node, const char *fmt, ...)
    RC_PRINTF(3, 4);

static outcome fail(evaluator *ev, const rc_work *node, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ev->err->node = node;
    ev->err->expr = -1;
    vsnprintf(ev->err->message, sizeof ev->err->message, fmt, ap);
    va_end(ap);
    return R_FAIL;
}

static bool checked_add(int64_t *acc, int64_t v)
{
    return !__builtin_add_overflow(*acc, v, acc);
}

static bool checked_mul(int64_t a, int64_t b, int64_t *out)
{
    return !__builtin_mul_overflow(a, b, out);
}

static outcome overflow(evaluator *ev, const rc_work *w)
{
    return fail(ev, w, "the %s count of <%s> overflows 64 bits",
                w && w->kind == RC_WORK_LOOP ? "iteration" : "work",
                w ? rc_work_element(w->kind) : "work");
}

static outcome over_budget(evaluator *ev, const rc_work *w)
{
    return fail(ev, w,
                "the work model needs more than %lld evaluation steps to count: "
                "its work differs between too many threads, or a loop whose body "
                "reads its variable runs too many iterations",
                (long long)RC_EVAL_STEP_LIMIT);
}

/* Charges `n` steps; false once the budget is spent. */
static bool spend(evaluator *ev, int64_t n)
{
    return !__builtin_add_overflow(ev->spent, n, &ev->spent) &&
           ev->spent <= RC_EVAL_STEP_LIMIT;
}

/* True when every index of the box is a single value. */
static bool box_is_point(const evaluator *ev)
{
    for (int s = 0; s < RC_SLOT_FIRST_FREE; s++)
        if (ev->lo[s] != ev->hi[s])
            return false;
    return true;
}

/* Evaluates w->expr[which] over the box. At a single point a failure is
 * the input's error; elsewhere it only means the box must be cut. */
static outcome eval_range(evaluator *ev, const rc_work *w, int which, int64_t *lo, int64_t *hi)
{
    if (rc_expr_eval_range(w->expr[which], ev->lo, ev->hi, lo, hi))
        return R_OK;
    if (!box_is_point(ev))
        return R_SPLIT;
    if (rc_expr_eval(w->expr[which], ev->lo, lo, &ev->err->expr_error)) {
        *hi = *lo;
        return R_OK;
    }
    ev->err->node = w;
    ev->err->expr = which;
    ev->err->message[0] = '\0';
    return R_FAIL;
}

/* A single value over the whole box, or a cut. */
static outcome eval_one(evaluator *ev, const rc_work *w, int which, int64_t *v)
{
    int64_t hi;
    outcome r = eval_range(ev, w, which, v, &hi);
    if (r == R_OK && *v != hi)
        r = box_is_point(ev) ? R_FAIL : R_SPLIT; /* a point is exact */
    return r;
}

/* Adds weight * amount to m1 of w for this point, and weight to its m0. */
static outcome count(evaluator *ev, const rc_work *w, int64_t weight, int64_t amount)
{
    int64_t product;
    if (!checked_mul(weight, amount, &product) ||
        !checked_add(&ev->thread_m[w->index][0], weight) ||
        !checked_add(&ev->thread_m[w->index][1], product))
        return overflow(ev, w);
    return R_OK;
}

/* for (v = a; v < b; v += c): ceil((b - a) / c) iterations, c > 0 */
static uint64_t trips(int64_t a, int64_t b, int64_t c)
{
    return a < b ? ((uint64_t)b - (uint64_t)a - 1) / (uint64_t)c + 1 : 0;
}

#define ALL_AXES 7u /* a peel mask naming every block axis (cut_box) */

#define TRY(call)                  \
    do {                           \
        outcome r_ = (call);       \
        if (r_ != R_OK)            \
            return r_;             \
    } while (0)

static outcome run(evaluator *ev, const rc_work *w, int64_t weight);
static outcome run_threads(evaluator *ev, bool whole);
static outcome run_blocks(evaluator *ev, unsigned peel);

/* for (v = a; v < b; v += c), c > 0: the trip count in closed form. */
static outcome run_counted_loop(evaluator *ev, const rc_work *w, int64_t weight)
{
    int64_t a, b, c, a_hi, b_hi;
    TRY(eval_one(ev, w, 2, &c));
    if (c <= 0)
        return fail(ev, w,
                    "<loop> '%s' has step %lld: the step must be positive, "
                    "or the loop would never end",
                    w->name, (long long)c);
    TRY(eval_range(ev, w, 0, &a, &a_hi));
    TRY(eval_range(ev, w, 1, &b, &b_hi));
    uint64_t n = trips(a_hi, b, c);
    if (n != trips(a, b_hi, c))
        return R_SPLIT; /* the trip count differs inside the box */
    if (!w->body_reads_var) {
        int64_t inner;
        if (n > INT64_MAX || count(ev, w, weight, (int64_t)n) != R_OK ||
            !checked_mul(weight, (int64_t)n, &inner))
            return overflow(ev, w);
        ev->lo[w->slot] = a;
        ev->hi[w->slot] = a_hi;
        if (n > 0)
            TRY(run(ev, w->children, inner));
        return R_OK;
    }
    if (a != a_hi)
        return R_SPLIT; /* the body needs the variable's values */
    TRY(count(ev, w, weight, 0));
    int64_t v = a;
    for (uint64_t k = 0; k < n; k++) {
        if (!spend(ev, 1))
            return over_budget(ev, w);
        ev->lo[w->slot] = ev->hi[w->slot] = v;
        if (!checked_add(&ev->thread_m[w->index][1], weight))
            return overflow(ev, w);
        TRY(run(ev, w->children, weight));
        if (__builtin_add_overflow(v, c, &v))
            break; /* the next value would pass INT64_MAX >= b */
    }
    return R_OK;
}

/* v op= c; false when the result does not fit or the operation fails. */
static bool step_value(rc_step_op op, int64_t v, int64_t c, int64_t *out)
{
    switch (op) {
    case RC_STEP_ADD:
        return !__builtin_add_overflow(v, c, out);
    case RC_STEP_SUB:
        return !__builtin_sub_overflow(v, c, out);
    case RC_STEP_MUL:
        return !__builtin_mul_overflow(v, c, out);
    case RC_STEP_DIV:
        *out = v / c; /* c checked non-zero and not -1 by the caller */
        return true;
    case RC_STEP_SHL:
        if (v < 0 || v > (INT64_MAX >> c))
            return false;
        *out = v << c;
        return true;
    case RC_STEP_SHR:
        *out = v >> c; /* arithmetic shift, as C compilers do */
        return true;
    }
    return false;
}

/* The other loops as C writes them (while conditions, -=, *=, /=, <<=,
 * >>=): run one value at a time, which costs a step per iteration; a
 * geometric loop has at most 64 iterations. The variable's first value
 * and the step must be the same over the box; the condition must go the
 * same way over the box at every iteration. */
static outcome run_stepped_loop(evaluator *ev, const rc_work *w, int64_t weight)
{
    int64_t v, c, b = 0, b_hi = 0;
    TRY(eval_one(ev, w, 2, &c));
    const char *op = rc_step_op_text(w->step_op);
    if (((w->step_op == RC_STEP_ADD || w->step_op == RC_STEP_SUB) && c <= 0) ||
        ((w->step_op == RC_STEP_MUL || w->step_op == RC_STEP_DIV) && c <= 1) ||
        ((w->step_op == RC_STEP_SHL || w->step_op == RC_STEP_SHR) && (c <= 0 || c >= 63)))
        return fail(ev, w,
                    "<loop> '%s' has step '%s %lld': the step must move the variable (a positive "
                    "amount; at least 2 for *= and /=; 1 to 62 for shifts)",
                    w->name, op, (long long)c);
    TRY(eval_one(ev, w, 0, &v));
    if (!w->loop_while)
        TRY(eval_range(ev, w, 1, &b, &b_hi));
    TRY(count(ev, w, weight, 0));
    int64_t iterations = 0;
    for (;;) {
        if (!spend(ev, ev->cost[w->index]))
            return over_budget(ev, w);
        ev->lo[w->slot] = ev->hi[w->slot] = v;
        bool go;
        if (w->loop_while) {
            int64_t t, t_hi;
            TRY(eval_range(ev, w, 1, &t, &t_hi));
            if (t <= 0 && t_hi >= 0 && !(t == 0 && t_hi == 0))
                return R_SPLIT; /* true for some threads of the box only */
            go = !(t == 0 && t_hi == 0);
        } else {
            if (v >= b && v < b_hi)
                return R_SPLIT;
            go = v < b;
        }
        if (!go)
            break;
        iterations++;
        if (w->body_reads_var)
            TRY(run(ev, w->children, weight));
        int64_t next;
        if (!step_value(w->step_op, v, c, &next))
            return fail(ev, w, "<loop> '%s' leaves the 64-bit range after %lld iterations (%lld %s %lld)",
                        w->name, (long long)iterations, (long long)v, op, (long long)c);
        if (next == v)
            return fail(ev, w, "<loop> '%s' stays at %lld (%s %lld) while its condition holds: "
                        "the loop would never end", w->name, (long long)v, op, (long long)c);
        v = next;
    }
    int64_t total;
    if (!checked_mul(weight, iterations, &total) ||
        !checked_add(&ev->thread_m[w->index][1], total))
        return overflow(ev, w);
    if (!w->body_reads_var && iterations > 0)
        TRY(run(ev, w->children, total));
    return R_OK;
}

/* Runs a statement list over the current box, counting for one point.
 * `weight` is how many times the statements run (more than 1 inside a
 * loop counted in closed form). */
static outcome run(evaluator *ev, const rc_work *w, int64_t weight)
{
    for (; w; w = w->next) {
        ev->counts->steps++;
        if (!spend(ev, ev->cost[w->index]))
            return over_budget(ev, w);
        int64_t a, b, c, a_hi;
        switch (w->kind) {
        case RC_WORK_LET:
            if (w->slot >= 0)
                TRY(eval_range(ev, w, 0, &ev->lo[w->slot], &ev->hi[w->slot]));
            TRY(count(ev, w, weight, 0));
            break;
        case RC_WORK_WHEN: {
            bool taken = true;
            if (!(w->assumption && ev->as_launched)) {
                TRY(eval_range(ev, w, 0, &a, &a_hi));
                if (a == 0 && a_hi == 0)
                    taken = false;
                else if (a <= 0 && a_hi >= 0)
                    return R_SPLIT; /* true for some threads of the box only */
            }
            TRY(count(ev, w, weight, taken ? 1 : 0));
            if (taken)
                TRY(run(ev, w->children, weight));
            break;
        }
        case RC_WORK_LOOP:
            if (w->loop_while || w->step_op != RC_STEP_ADD)
                TRY(run_stepped_loop(ev, w, weight));
            else
                TRY(run_counted_loop(ev, w, weight));
            break;
        case RC_WORK_FLOPS:
        case RC_WORK_TRAFFIC:
        case RC_WORK_INSTRUCTIONS:
            TRY(eval_one(ev, w, 0, &a));
            if (a < 0)
                return fail(ev, w, "<%s> %s is negative (%lld)", rc_work_element(w->kind),
                            w->kind == RC_WORK_TRAFFIC ? "bytes" : "count", (long long)a);
            TRY(count(ev, w, weight, a));
            break;
        case RC_WORK_BARRIER: /* one a thread each time: the block's count is any thread's */
            TRY(count(ev, w, weight, 1));
            break;
        case RC_WORK_LOAD:
        case RC_WORK_STORE:
        case RC_WORK_ATOMIC:
            TRY(eval_one(ev, w, 0, &a));
            TRY(eval_one(ev, w, 1, &b));
            if (a < 0 || b < 0)
                return fail(ev, w, "<%s> %s is negative (%lld)", rc_work_element(w->kind),
                            a < 0 ? "count" : "bytes", (long long)(a < 0 ? a : b));
            if (!checked_mul(a, b, &c))
                return overflow(ev, w);
            TRY(count(ev, w, weight, c));
            break;
        }
    }
    return R_OK;
}

static void min_max(int64_t v, int64_t *lo, int64_t *hi)
{
    if (v < *lo)
        *lo = v;
    if (v > *hi)
        *hi = v;
}

/* The number of points of the box along `axes` (slot offset `base`). */
static int64_t box_volume(const evaluator *ev, int base, const int *axes, int naxes)
{
    int64_t v = 1;
    for (int a = 0; a < naxes; a++)
        v *= ev->hi[base + axes[a]] - ev->lo[base + axes[a]] + 1;
    return v;
}

/* The widest axis (a slot) of the box along `axes` that can still be cut,
 * or -1. */
static int widest(const evaluator *ev, int base, const int *axes, int naxes)
{
    int best = -1;
    int64_t width = 0;
    for (int a = 0; a < naxes; a++) {
        int64_t w = ev->hi[base + axes[a]] - ev->lo[base + axes[a]];
        if (w > width) {
            width = w;
            best = base + axes[a];
        }
    }
    return best;
}

/* The widest axis of the box along `axes` that `peel` still names (bit a
 * for axes[a]) and that is at least 3 wide, as its position a, or -1. */
static int widest_to_peel(const evaluator *ev, int base, const int *axes, int naxes,
                          unsigned peel)
{
    int best = -1;
    int64_t width = 1;
    for (int a = 0; a < naxes; a++) {
        int64_t w = ev->hi[base + axes[a]] - ev->lo[base + axes[a]];
        if ((peel >> a & 1u) && w > width) {
            width = w;
            best = a;
        }
    }
    return best;
}

/* Raises the per-warp maxima of the <instructions> the current thread box runs (every index
 * of the block it does not read spans the block); false past the step limit. */
static bool fold_warps(evaluator *ev)
{
    int64_t lo[3], hi[3];
    for (int a = 0; a < 3; a++) {
        lo[a] = 0;
        hi[a] = ev->kernel->block[a] - 1;
    }
    for (int a = 0; a < ev->ntaxes; a++) {
        lo[ev->taxes[a]] = ev->lo[RC_SLOT_TID_X + ev->taxes[a]];
        hi[ev->taxes[a]] = ev->hi[RC_SLOT_TID_X + ev->taxes[a]];
    }
    for (int i = 0; i < ev->kernel->nwork; i++)
        if (ev->nodes[i]->kind == RC_WORK_INSTRUCTIONS && ev->thread_m[i][1] > 0 &&
            !spend(ev, rc_warp_max_box(ev->blk.warp_max[i], ev->kernel->block, lo, hi,
                                       ev->thread_m[i][1])))
            return false;
    return true;
}

/* Adds the point counts of the current thread box, standing for `threads`
 * threads, to the block accumulators. */
static outcome fold_threads(evaluator *ev, int64_t threads)
{
    block_acc *b = &ev->blk;
    int64_t tf = 0, tb = 0, ts = 0, slots;
    for (int i = 0; i < ev->kernel->nwork; i++) {
        int64_t m0 = ev->thread_m[i][0], m1 = ev->thread_m[i][1];
        if (m0 == 0)
            continue;
        min_max(m1, &b->thread_min[i], &b->thread_max[i]);
        int64_t x0, x1;
        if (!checked_mul(m0, threads, &x0) || !checked_mul(m1, threads, &x1) ||
            !checked_add(&b->m[i][0], x0) || !checked_add(&b->m[i][1], x1) ||
            !checked_add(&b->threads[i], threads))
            return overflow(ev, ev->nodes[i]);
        bool ok = true;
        switch (ev->nodes[i]->kind) {
        case RC_WORK_FLOPS:
            ok = checked_add(&tf, m1) && checked_add(&b->flops, x1) &&
                 checked_mul(m1, rc_flop_slots(ev->nodes[i]), &slots) && checked_add(&ts, slots);
            break;
        case RC_WORK_LOAD:
            ok = checked_add(&tb, m1) && checked_add(&b->bytes, x1) && checked_add(&b->loaded, x1);
            break;
        case RC_WORK_STORE:
        case RC_WORK_ATOMIC: /* one read-modify-write, counted as a store */
            ok = checked_add(&tb, m1) && checked_add(&b->bytes, x1) && checked_add(&b->stored, x1);
            break;
        case RC_WORK_TRAFFIC:
            ok = checked_add(&tb, m1) && checked_add(&b->bytes, x1) && checked_add(&b->traffic, x1);
            break;
        default:
            break;
        }
        if (!ok)
            return fail(ev, NULL, "the work of one block overflows 64 bits");
    }
    if (b->warp_max && !fold_warps(ev))
        return over_budget(ev, NULL);
    if (tf > 0 || tb > 0) {
        if (!checked_add(&b->active, threads))
            return overflow(ev, NULL);
        min_max(tf, &b->flops_min, &b->flops_max);
        if (ts > b->slots_max)
            b->slots_max = ts;
        min_max(tb, &b->bytes_min, &b->bytes_max);
    }
    return R_OK;
}

/* Whether the work at one corner of the box of threads (its lowest or its
 * highest indices) still differs between the blocks of the box: then so
 * does the work of the whole box, and the box of blocks must be cut.
 * Interval evaluation only narrows as boxes shrink, so cutting the threads
 * down to that corner, as run_threads would, must end in R_SPLIT; asking
 * the corner first spares that descent. A failure at the corner (the step
 * limit reached, a count out of range) is undone, left for the descent to
 * find in its usual order and with its usual message. */
static bool corner_splits(evaluator *ev, bool highest)
{
    int64_t lo[3], hi[3];
    for (int a = 0; a < ev->ntaxes; a++) {
        int s = RC_SLOT_TID_X + ev->taxes[a];
        lo[a] = ev->lo[s], hi[a] = ev->hi[s];
        ev->lo[s] = ev->hi[s] = highest ? hi[a] : lo[a];
    }
    rc_eval_error saved = *ev->err;
    int64_t spent = ev->spent;
    memset(ev->thread_m, 0, (size_t)ev->kernel->nwork * sizeof *ev->thread_m);
    outcome r = run(ev, ev->kernel->work, 1);
    if (r == R_FAIL) {
        *ev->err = saved;
        ev->spent = spent;
    }
    for (int a = 0; a < ev->ntaxes; a++) {
        int s = RC_SLOT_TID_X + ev->taxes[a];
        ev->lo[s] = lo[a], ev->hi[s] = hi[a];
    }
    return r == R_SPLIT;
}

/* Runs the box with `slot` narrowed to lo..hi: its threads (`threads`) or
 * its blocks (with `peel` as for cut_box). */
static outcome run_slice(evaluator *ev, int slot, int64_t lo, int64_t hi, unsigned peel,
                         bool threads)
{
    int64_t was_lo = ev->lo[slot], was_hi = ev->hi[slot];
    ev->lo[slot] = lo;
    ev->hi[slot] = hi;
    outcome r = threads ? run_threads(ev, false) : run_blocks(ev, peel);
    ev->lo[slot] = was_lo;
    ev->hi[slot] = was_hi;
    return r;
}

/* Cuts the box along thread (`threads`) or block indices and runs the
 * pieces. The first cut along each axis that `peel` names (bit a for
 * axis a) peels off its first and last index; the other cuts halve the
 * widest axis. The work of blocks most often differs at the grid's edges
 * (a bounds guard true in the last block only, a stencil's border):
 * peeling isolates them at once, where halving alone takes a cut per
 * halving and multiplies the boxes along the other edges (a 2-D stencil's
 * border, on 317 x 328 blocks, took 44,000 runs). A difference inside the
 * grid costs two pieces more than halving alone, and threads are only
 * halved: their differences are more often inside the block (threadIdx.x
 * < 16, a trip count that changes at thread 4). R_SPLIT with nothing left
 * to cut: the box is a single point. */
static outcome cut_box(evaluator *ev, bool threads, unsigned peel)
{
    int base = threads ? RC_SLOT_TID_X : RC_SLOT_BID_X;
    const int *axes = threads ? ev->taxes : ev->baxes;
    int naxes = threads ? ev->ntaxes : ev->nbaxes;
    int p = widest_to_peel(ev, base, axes, naxes, peel);
    if (p >= 0) {
        int slot = base + axes[p];
        int64_t lo = ev->lo[slot], hi = ev->hi[slot];
        unsigned rest = peel & ~(1u << p);
        outcome r = run_slice(ev, slot, lo, lo, rest, threads);
        if (r == R_OK)
            r = run_slice(ev, slot, lo + 1, hi - 1, rest, threads);
        if (r == R_OK)
            r = run_slice(ev, slot, hi, hi, rest, threads);
        return r;
    }
    int slot = widest(ev, base, axes, naxes);
    if (slot < 0)
        return R_SPLIT;
    int64_t lo = ev->lo[slot], hi = ev->hi[slot], mid = lo + (hi - lo) / 2;
    outcome r = run_slice(ev, slot, lo, mid, 0, threads);
    if (r == R_OK)
        r = run_slice(ev, slot, mid + 1, hi, 0, threads);
    return r;
}

/* Runs the current box of threads, cutting it along thread indices (by
 * halves: cut_box with no axis to peel) until each piece runs the same for
 * all its threads. R_SPLIT means a decision depends on the block indices:
 * the box of blocks must be cut. `whole`: the box is every thread of a
 * block, whose corners are asked first when it holds more than one. */
static outcome run_threads(evaluator *ev, bool whole)
{
    if (!spend(ev, (int64_t)ev->kernel->nwork + 1)) /* the folding below */
        return over_budget(ev, NULL);
    memset(ev->thread_m, 0, (size_t)ev->kernel->nwork * sizeof *ev->thread_m);
    outcome r = run(ev, ev->kernel->work, 1);
    if (r == R_OK) {
        ev->box_runs++;
        int64_t threads;
        if (!checked_mul(box_volume(ev, RC_SLOT_TID_X, ev->taxes, ev->ntaxes), ev->tmult, &threads))
            return overflow(ev, NULL);
        return fold_threads(ev, threads);
    }
    if (r == R_FAIL)
        return r;
    if (widest(ev, RC_SLOT_TID_X, ev->taxes, ev->ntaxes) < 0)
        return R_SPLIT; /* one thread (or no thread index read): nothing to cut or ask */
    if (whole && (corner_splits(ev, false) || corner_splits(ev, true)))
        return R_SPLIT;
    return cut_box(ev, true, 0);
}

static void block_acc_reset(evaluator *ev)
{
    block_acc *b = &ev->blk;
    size_t n = (size_t)ev->kernel->nwork;
    memset(b->m, 0, n * sizeof *b->m);
    memset(b->threads, 0, n * sizeof *b->threads);
    for (size_t i = 0; i < n; i++) {
        b->thread_min[i] = INT64_MAX;
        b->thread_max[i] = 0;
    }
    b->active = b->flops = b->bytes = b->loaded = b->stored = b->traffic = 0;
    b->flops_min = b->bytes_min = INT64_MAX;
    b->flops_max = b->bytes_max = b->slots_max = 0;
    if (b->warp_max)
        memset(b->warp_max, 0, n * sizeof *b->warp_max);
}

/* Adds the block accumulators, standing for `blocks` blocks, to the
 * counts. */
static outcome fold_blocks(evaluator *ev, int64_t blocks)
{
    rc_counts *c = ev->counts;
    block_acc *b = &ev->blk;
    for (int i = 0; i < ev->kernel->nwork; i++) {
        if (b->m[i][0] == 0)
            continue;
        rc_work_stats *s = &c->work[i];
        min_max(b->thread_min[i], &s->thread_min, &s->thread_max);
        min_max(b->thread_max[i], &s->thread_min, &s->thread_max);
        min_max(b->m[i][1], &s->block_min, &s->block_max);
        int64_t m0, m1, th;
        if (!checked_mul(b->m[i][0], blocks, &m0) || !checked_mul(b->m[i][1], blocks, &m1) ||
            !checked_mul(b->threads[i], blocks, &th) || !checked_add(&s->m0, m0) ||
            !checked_add(&s->m1, m1) || !checked_add(&s->threads, th) ||
            !checked_add(&s->blocks, blocks))
            return overflow(ev, ev->nodes[i]);
        int64_t warps = 0;
        for (int w = 0; b->warp_max && w < RC_WARP_MAX_WARPS; w++)
            if (!checked_add(&warps, b->warp_max[i][w]))
                return overflow(ev, ev->nodes[i]);
        if (!checked_mul(warps, blocks, &warps) || !checked_add(&s->warp_m1, warps))
            return overflow(ev, ev->nodes[i]);
    }
    /* A block whose threads only run <instructions> holds its SM while they issue. */
    bool issues = false;
    for (int i = 0; i < ev->kernel->nwork; i++)
        if (ev->nodes[i]->kind == RC_WORK_INSTRUCTIONS && b->m[i][1] > 0)
            issues = true;
    if ((b->active > 0 || issues) && !checked_add(&c->blocks_working, blocks))
        return overflow(ev, NULL);
    if (b->active == 0)
        return R_OK;
    int64_t v;
    bool ok = checked_add(&c->blocks_active, blocks) &&
              checked_mul(b->active, blocks, &v) && checked_add(&c->threads_active, v) &&
              checked_mul(b->flops, blocks, &v) && checked_add(&c->flops.total, v) &&
              checked_mul(b->bytes, blocks, &v) && checked_add(&c->bytes.total, v) &&
              checked_mul(b->loaded, blocks, &v) && checked_add(&c->bytes_loaded, v) &&
              checked_mul(b->stored, blocks, &v) && checked_add(&c->bytes_stored, v) &&
              checked_mul(b->traffic, blocks, &v) && checked_add(&c->bytes_traffic, v);
    if (!ok)
        return fail(ev, NULL, "the total work of the launch overflows 64 bits");
    min_max(b->flops_min, &c->flops.thread_min, &c->flops.thread_max);
    min_max(b->flops_max, &c->flops.thread_min, &c->flops.thread_max);
    if (b->slots_max > c->flop_slots_thread_max)
        c->flop_slots_thread_max = b->slots_max;
    min_max(b->bytes_min, &c->bytes.thread_min, &c->bytes.thread_max);
    min_max(b->bytes_max, &c->bytes.thread_min, &c->bytes.thread_max);
    min_max(b->active, &c->active_per_block.block_min, &c->active_per_block.block_max);
    min_max(b->flops, &c->flops.block_min, &c->flops.block_max);
    min_max(b->bytes, &c->bytes.block_min, &c->bytes.block_max);
    return R_OK;
}

/* Records the current box of blocks (every block index, read or not). */
static bool keep_box(evaluator *ev)
{
    if (ev->too_many_boxes || ev->as_launched) /* no memory counts: no boxes needed */
        return true;
    if (ev->nboxes == RC_ACCESS_MAX_BOXES) {
        ev->too_many_boxes = true;
        return true;
    }
    if (!RC_GROW(ev->boxes, ev->cap_boxes, ev->nboxes + 1))
        return false;
    rc_block_box *b = &ev->boxes[ev->nboxes++];
    for (int a = 0; a < 3; a++) {
        b->lo[a] = 0;
        b->hi[a] = ev->kernel->grid[a] - 1;
    }
    for (int a = 0; a < ev->nbaxes; a++) {
        b->lo[ev->baxes[a]] = ev->lo[RC_SLOT_BID_X + ev->baxes[a]];
        b->hi[ev->baxes[a]] = ev->hi[RC_SLOT_BID_X + ev->baxes[a]];
    }
    return true;
}

/* Runs the current box of blocks, cutting it along block indices when the
 * work differs between its blocks (`peel` as for cut_box). Only the runs
 * of a box whose blocks all run alike are counted in thread_runs. */
static outcome run_blocks(evaluator *ev, unsigned peel)
{
    const rc_kernel *k = ev->kernel;
    block_acc_reset(ev);
    for (int a = 0; a < ev->ntaxes; a++) {
        ev->lo[RC_SLOT_TID_X + ev->taxes[a]] = 0;
        ev->hi[RC_SLOT_TID_X + ev->taxes[a]] = k->block[ev->taxes[a]] - 1;
    }
    ev->box_runs = 0;
    outcome r = run_threads(ev, true);
    if (r == R_OK) {
        ev->counts->thread_runs += ev->box_runs;
        if (!keep_box(ev))
            return fail(ev, NULL, "out of memory");
        int64_t blocks;
        if (!checked_mul(box_volume(ev, RC_SLOT_BID_X, ev->baxes, ev->nbaxes), ev->bmult, &blocks))
            return overflow(ev, NULL);
        return fold_blocks(ev, blocks);
    }
    if (r == R_FAIL)
        return r;
    r = cut_box(ev, false, peel);
    if (r == R_SPLIT) /* cannot happen: at a single point every decision is exact */
        return fail(ev, NULL, "the work model could not be counted exactly");
    return r;
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

/* The memory counts (access.c), from the evaluator's executions. */
static bool count_memory(evaluator *ev)
{
    const rc_kernel *k = ev->kernel;
    rc_counts *c = ev->counts;
    size_t n = (size_t)(k->nwork > 0 ? k->nwork : 1);
    int64_t *executions = calloc(n, sizeof *executions);
    if (!executions) {
        fail(ev, NULL, "out of memory");
        return false;
    }
    int64_t legacy = 0, legacy_block = 0;
    for (int i = 0; i < k->nwork; i++) {
        const rc_work *w = ev->nodes[i];
        executions[i] = c->work[i].m0;
        if (w->array < 0 && (w->kind == RC_WORK_LOAD || w->kind == RC_WORK_STORE ||
                             w->kind == RC_WORK_TRAFFIC)) {
            legacy += c->work[i].m1;
            legacy_block += c->work[i].block_max;
        }
    }
    const rc_work *node;
    bool ok = rc_access_analyse(k, executions, legacy, legacy_block, ev->boxes,
                                ev->too_many_boxes ? 0 : ev->nboxes, ev->options->enumerate,
                                ev->options->progress, ev->options->progress_ctx, &c->memory,
                                &node, ev->err->message, sizeof ev->err->message);
    free(executions);
    if (!ok) {
        ev->err->node = node;
        ev->err->expr = -1;
        return false;
    }
    c->memory_counted = true;
    return true;
}

/* c and err emptied, then the launch's totals and the spreads' starts. */
static void counts_init(const rc_kernel *k, rc_counts *c, rc_eval_error *err)
{
    memset(c, 0, sizeof *c);
    memset(err, 0, sizeof *err);
    err->expr = -1;
    c->nwork = k->nwork;
    c->threads_per_block = rc_kernel_threads_per_block(k);
    c->blocks_launched = rc_kernel_blocks(k);
    c->threads_launched = c->threads_per_block * c->blocks_launched;
    spread_init(&c->flops);
    spread_init(&c->bytes);
    spread_init(&c->active_per_block);
}

static bool has_instructions(const rc_work *w)
{
    for (; w; w = w->next)
        if (w->kind == RC_WORK_INSTRUCTIONS || has_instructions(w->children))
            return true;
    return false;
}

/* The evaluator's tables (freed by evaluator_free, even when this fails),
 * c->work (the caller's, released on failure) and *reads (the caller
 * frees it). */
static bool evaluator_alloc(evaluator *ev, int nslots, bool **reads)
{
    const rc_kernel *k = ev->kernel;
    rc_counts *c = ev->counts;
    size_t nn = (size_t)(k->nwork > 0 ? k->nwork : 1);
    c->work = calloc(nn, sizeof *c->work);
    ev->nodes = calloc(nn, sizeof *ev->nodes);
    ev->cost = calloc(nn, sizeof *ev->cost);
    ev->lo = calloc((size_t)nslots, sizeof *ev->lo);
    ev->hi = calloc((size_t)nslots, sizeof *ev->hi);
    ev->thread_m = calloc(nn, sizeof *ev->thread_m);
    ev->blk.m = calloc(nn, sizeof *ev->blk.m);
    ev->blk.threads = calloc(nn, sizeof *ev->blk.threads);
    ev->blk.thread_min = calloc(nn, sizeof *ev->blk.thread_min);
    ev->blk.thread_max = calloc(nn, sizeof *ev->blk.thread_max);
    *reads = calloc((size_t)nslots, sizeof **reads);
    if (has_instructions(k->work) && !(ev->blk.warp_max = calloc(nn, sizeof *ev->blk.warp_max)))
        return false;
    return c->work && ev->nodes && ev->cost && ev->lo && ev->hi && ev->thread_m && ev->blk.m &&
           ev->blk.threads && ev->blk.thread_min && ev->blk.thread_max && *reads;
}

static void evaluator_free(evaluator *ev)
{
    free(ev->nodes);
    free(ev->cost);
    free(ev->lo);
    free(ev->hi);
    free(ev->thread_m);
    free(ev->blk.m);
    free(ev->blk.threads);
    free(ev->blk.thread_min);
    free(ev->blk.thread_max);
    free(ev->blk.warp_max);
    free(ev->boxes);
}

/* Indices the model reads get ranges; the others multiply. */
static void choose_axes(evaluator *ev, const bool *reads)
{
    const rc_kernel *k = ev->kernel;
    rc_counts *c = ev->counts;
    ev->tmult = ev->bmult = 1;
    for (int a = 0; a < 3; a++) {
        c->reads_index[RC_SLOT_TID_X + a] = reads[RC_SLOT_TID_X + a];
        c->reads_index[RC_SLOT_BID_X + a] = reads[RC_SLOT_BID_X + a];
        if (reads[RC_SLOT_TID_X + a])
            ev->taxes[ev->ntaxes++] = a;
        else
            ev->tmult *= k->block[a];
        if (reads[RC_SLOT_BID_X + a]) {
            ev->baxes[ev->nbaxes++] = a;
            ev->hi[RC_SLOT_BID_X + a] = k->grid[a] - 1;
        } else
            ev->bmult *= k->grid[a];
    }
}

/* Per-node minima never reached become 0. */
static void counts_finish(rc_counts *c)
{
    for (int i = 0; i < c->nwork; i++) {
        if (c->work[i].thread_min == INT64_MAX)
            c->work[i].thread_min = 0;
        if (c->work[i].block_min == INT64_MAX)
            c->work[i].block_min = 0;
    }
}

/* The spreads' minima never reached become 0; active threads per block
 * come from the totals. */
static void spreads_finish(rc_counts *c)
{
    c->active_per_block.total = c->threads_active;
    c->active_per_block.thread_min = c->active_per_block.thread_max = 1;
    spread_finish(&c->flops);
    spread_finish(&c->bytes);
    spread_finish(&c->active_per_block);
    if (c->threads_active == 0)
        c->active_per_block.thread_min = c->active_per_block.thread_max = 0;
}

bool rc_evaluate(const rc_kernel *k, bool as_launched, rc_counts *c, rc_eval_error *err)
{
    rc_eval_options defaults = {false, NULL, NULL};
    return rc_evaluate_with(k, as_launched, &defaults, c, err);
}

bool rc_evaluate_with(const rc_kernel *k, bool as_launched, const rc_eval_options *options,
                      rc_counts *c, rc_eval_error *err)
{
    counts_init(k, c, err);
    evaluator ev;
    memset(&ev, 0, sizeof ev);
    ev.kernel = k;
    ev.as_launched = as_launched;
    ev.options = options;
    ev.counts = c;
    ev.err = err;
    int nslots = k->nslots > RC_SLOT_FIRST_FREE ? k->nslots : RC_SLOT_FIRST_FREE;
    bool *reads = NULL;
    bool ok = false;
    if (!evaluator_alloc(&ev, nslots, &reads)) {
        fail(&ev, NULL, "out of memory");
        goto end;
    }
    index_nodes(k->work, ev.nodes, ev.cost);
    for (int i = 0; i < k->nwork; i++)
        c->work[i].thread_min = c->work[i].block_min = INT64_MAX;
    mark_reads(k->work, as_launched, reads, nslots);
    choose_axes(&ev, reads);
    if (run_blocks(&ev, ALL_AXES) != R_OK)
        goto end;
    counts_finish(c);
    if (!as_launched && !count_memory(&ev))
        goto end;
    spreads_finish(c);
    ok = true;
end:
    evaluator_free(&ev);
    free(reads);
    if (!ok)
        rc_counts_release(c);
    return ok;
}

void rc_counts_release(rc_counts *c)
{
    free(c->work);
    c->work = NULL;
    rc_access_release(&c->memory);
    c->memory_counted = false;
}
