/* classes_warp.c: a representative block's warps in lockstep, loops by
 * classes of iterations (docs/counting.md). See classes_impl.h. */
#include "model/classes_impl.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/banks.h"
#include "model/names.h"
#include "model/warp.h"
#include "util/array.h"

cstatus cls_enumerate(cls *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->why, c->why_len, fmt, ap);
    va_end(ap);
    return C_ENUM;
}

cstatus cls_oom(cls *c)
{
    snprintf(c->why, c->why_len, "out of memory");
    return C_FAIL;
}

static bool spend(cls *c, int64_t n)
{
    c->steps += n;
    return c->steps <= c->budget;
}

static cstatus over_budget(cls *c)
{
    return cls_enumerate(c, "its classes alone need more than %lld lane-steps", (long long)c->budget);
}

/* A lane's value of e at the representative, and its range over the box
 * (unbounded when interval evaluation cannot bound it). */
static cstatus eval2(cls *c, const rc_expr *e, int l, int64_t *v, int64_t *vlo, int64_t *vhi)
{
    rc_expr_error err;
    if (!rc_expr_eval(e, &PT(c, l, 0), v, &err))
        return cls_enumerate(c, "an expression fails at some thread (%s)", err.message);
    if (vlo && !rc_expr_eval_range(e, &LO(c, l, 0), &HI(c, l, 0), vlo, vhi)) {
        *vlo = INT64_MIN;
        *vhi = INT64_MAX;
    }
    return C_OK;
}

int cls_cmp_atom(const void *pa, const void *pb)
{
    const atom *a = pa, *b = pb;
    if (a->gid != b->gid)
        return a->gid < b->gid ? -1 : 1;
    return (a->first > b->first) - (a->first < b->first);
}

bool cls_add_mul(int64_t *acc, int64_t v, int64_t m)
{
    int64_t p;
    return !__builtin_mul_overflow(v, m, &p) && !__builtin_add_overflow(*acc, p, acc);
}

/* The generators of the access w at the current stack, interned. */
static cstatus current_gid(cls *c, const rc_work *w, int *gid)
{
    if (c->cache_ver[w->index] == c->version) {
        *gid = c->cache_gid[w->index];
        return C_OK;
    }
    genlist gl = {0, 0, {{0, 0}}};
    for (int i = 0; i < c->nstack; i++) {
        const frame *f = &c->stack[i];
        int64_t step, t;
        if (__builtin_mul_overflow(f->P, c->coef[(size_t)w->index * MAX_DEPTH + (size_t)f->depth], &step) ||
            __builtin_mul_overflow(step, f->c, &step) ||
            __builtin_mul_overflow(step, (int64_t)c->arr->elem_bytes, &t))
            return cls_enumerate(c, "a loop's step in bytes overflows");
        gl.g[gl.n++] = (rc_gen){t / 32, f->m}; /* a multiple of 128 bytes by the choice of P */
    }
    if (!rc_gens_normalise(gl.g, &gl.n, &gl.shift))
        return cls_enumerate(c, "a loop's reach in bytes overflows");
    int i = 0;
    while (i < c->nlists && !(c->lists[i].n == gl.n && c->lists[i].shift == gl.shift &&
                              memcmp(c->lists[i].g, gl.g, (size_t)gl.n * sizeof gl.g[0]) == 0))
        i++;
    if (i == c->nlists) {
        if (!RC_GROW(c->lists, c->cap_lists, (size_t)c->nlists + 1))
            return cls_oom(c);
        c->lists[c->nlists++] = gl;
    }
    c->cache_ver[w->index] = c->version;
    c->cache_gid[w->index] = i;
    *gid = i;
    return C_OK;
}

void cls_compact_atoms(cls *c)
{
    atom *a = c->atoms;
    if (c->natoms > 1)
        qsort(a, c->natoms, sizeof *a, cls_cmp_atom);
    size_t n = 0;
    for (size_t i = 0; i < c->natoms; i++) {
        if (n > 0 && a[n - 1].gid == a[i].gid && a[i].first <= a[n - 1].first + a[n - 1].n) {
            int64_t end = a[i].first + a[i].n;
            if (end > a[n - 1].first + a[n - 1].n)
                a[n - 1].n = end - a[n - 1].first;
        } else
            a[n++] = a[i];
    }
    c->natoms = n;
}

static cstatus add_atom(cls *c, int64_t first, int64_t n, int gid)
{
    if (c->natoms == c->cap_atoms) {
        /* A long loop that is not compressed records a run per request:
         * joined now and then, they stay about as many as the runs they
         * make. */
        if (c->natoms >= ((size_t)1 << 16))
            cls_compact_atoms(c);
        /* Grown (doubled, 256 at first) unless joining freed half of it. */
        size_t need = c->natoms * 2 > c->cap_atoms ? c->cap_atoms + 1 : c->natoms + 1;
        if (!RC_GROW(c->atoms, c->cap_atoms, need < 256 ? 256 : need))
            return cls_oom(c);
    }
    c->atoms[c->natoms++] = (atom){first, n, gid};
    return C_OK;
}

/* The requests and words or sectors of an access, for the lanes of mask,
 * standing for warp_mult warps x the iterations of the stack. */
static int access_node(void *ctx, const rc_work *w, uint32_t mask)
{
    cls *c = ctx;
    if (!spend(c, __builtin_popcount(mask)))
        return over_budget(c);
    int64_t offset[WARP], size = c->arr->elem_bytes, threads = 0;
    /* The index must evaluate, inside the array, at every block of the
     * box and every iteration a lane stands for: shown over the ranges of
     * all the lanes at once, else lane by lane. */
    int ns = c->nslots;
    for (int s = 0; s < ns; s++) {
        c->wlo[s] = INT64_MAX;
        c->whi[s] = INT64_MIN;
    }
    for (int l = 0; l < WARP; l++) {
        if (!(mask >> l & 1))
            continue;
        for (int s = 0; s < ns; s++) {
            if (LO(c, l, s) < c->wlo[s])
                c->wlo[s] = LO(c, l, s);
            if (HI(c, l, s) > c->whi[s])
                c->whi[s] = HI(c, l, s);
        }
    }
    int64_t wlo, whi;
    bool whole = rc_expr_eval_range(w->index_expr, c->wlo, c->whi, &wlo, &whi) && wlo >= 0 &&
                 whi < c->arr->length;
    for (int l = 0; l < WARP; l++) {
        if (!(mask >> l & 1))
            continue;
        int64_t idx, lo, hi;
        TRY(eval2(c, w->index_expr, l, &idx, whole ? NULL : &lo, &hi));
        if (!whole && (lo < 0 || hi >= c->arr->length || idx < lo || idx > hi))
            return cls_enumerate(c, "the index %s of <%s> at line %d cannot be shown to stay in the "
                             "array over a class", w->index_text, rc_work_element(w->kind), w->line);
        offset[l] = idx * size;
        threads += c->weight[l];
    }
    int64_t mult = c->warp_mult;
    for (int i = 0; i < c->nstack; i++)
        if (__builtin_mul_overflow(mult, c->stack[i].m, &mult))
            return cls_enumerate(c, "a count overflows");
    rcounts *r = &c->cur;
    if (c->arr->space == RC_SPACE_SHARED) {
        bool atomic = w->kind == RC_WORK_ATOMIC;
        int64_t word = atomic ? rc_shared_atomic_passes(offset, mask, size, c->weight)
                              : rc_shared_passes(offset, mask, size, RC_BANKS_WORD);
        int64_t pair = atomic ? word : rc_shared_passes(offset, mask, size, RC_BANKS_PAIR);
        if (!cls_add_mul(&r->shared_requests, 1, mult) || !cls_add_mul(&r->wavefronts, word, mult) ||
            !cls_add_mul(&r->wavefronts_pair, pair, mult))
            return cls_enumerate(c, "a count overflows");
        return C_OK;
    }
    int64_t sec[2 * WARP];
    int d = rc_warp_sectors(offset, mask, size, sec), lines = rc_warp_lines(sec, d);
    bool ok = cls_add_mul(&r->requests, 1, mult) && cls_add_mul(&r->accessed, threads * size, mult) &&
              cls_add_mul(&r->sectors, d, mult);
    if (w->kind == RC_WORK_STORE || w->kind == RC_WORK_ATOMIC) {
        ok = ok && cls_add_mul(&r->store_sectors, d, mult) && cls_add_mul(&r->store_lines, lines, mult);
        int64_t part[4] = {0};
        rc_warp_part_lines(offset, mask, size, sec, d, part);
        for (int k = 0; k < 4; k++)
            ok = ok && cls_add_mul(&r->store_part_lines[k], part[k], mult);
    }
    int64_t q, q2, q2x2;
    rc_l1_request_quarters(w->kind == RC_WORK_LOAD, offset, mask, (int)size, d, lines, &q, &q2,
                           &q2x2);
    ok = ok && cls_add_mul(&r->l1q, q, mult) && cls_add_mul(&r->l1q2, q2, mult) &&
         cls_add_mul(&r->l1q2x2, q2x2, mult);
    if (w->kind == RC_WORK_ATOMIC && w->per_lane_operand)
        ok = ok && cls_add_mul(&r->atomic_lane_extra,
                               rc_warp_busiest_offset(offset, mask, c->weight) - 1, mult);
    if (w->kind == RC_WORK_ATOMIC)
        ok = ok && cls_add_mul(&r->atomic_multiword, rc_warp_multiword_lines(offset, mask), mult);
    if (!ok)
        return cls_enumerate(c, "a count overflows");
    int gid = 0;
    TRY(current_gid(c, w, &gid));
    for (int i = 0; i < d;) {
        int j = i + 1;
        while (j < d && sec[j] == sec[j - 1] + 1)
            j++;
        TRY(add_atom(c, sec[i], sec[j - 1] - sec[i] + 1, gid));
        i = j;
    }
    return C_OK;
}


/* for (v = a; v < b; v += c) */
static uint64_t trips(int64_t a, int64_t b, int64_t c)
{
    return a < b ? ((uint64_t)b - (uint64_t)a - 1) / (uint64_t)c + 1 : 0;
}

uint64_t cls_gcd(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* The period (in iterations) after which every access to the array in
 * the subtree has moved by a multiple of 128 bytes: the lcm of each
 * access's period; 0 on overflow. */
static int64_t period(cls *c, const rc_work *w, int depth, int64_t step)
{
    int64_t P = 1;
    for (; w; w = w->next) {
        if (w->array == c->array && w->array >= 0) {
            int64_t d;
            if (__builtin_mul_overflow(c->coef[(size_t)w->index * MAX_DEPTH + (size_t)depth], step, &d) ||
                __builtin_mul_overflow(d, (int64_t)c->arr->elem_bytes, &d))
                return 0;
            uint64_t r = (uint64_t)(d % 128 + 128) % 128;
            int64_t p = (int64_t)(128 / cls_gcd(128, r));
            P = P / (int64_t)cls_gcd((uint64_t)P, (uint64_t)p) * p;
        }
        if (w->children && c->needed[w->index]) {
            int64_t q = period(c, w->children, depth, step);
            if (q == 0)
                return 0;
            P = P / (int64_t)cls_gcd((uint64_t)P, (uint64_t)q) * q;
        }
    }
    return P;
}

/* Sets each lane's variable to iteration j's value and its range to
 * iterations j .. j + (m - 1) P of the box; false on overflow. */
static bool set_var(cls *c, const rc_work *w, uint32_t mask, const int64_t *v0, const int64_t *flo,
                    const int64_t *fhi, const int64_t *step, int64_t j, int64_t last)
{
    for (int l = 0; l < WARP; l++) {
        if (!(mask >> l & 1))
            continue;
        int64_t a, b, p;
        if (__builtin_mul_overflow(j, step[l], &a) || __builtin_add_overflow(v0[l], a, &p))
            return false;
        PT(c, l, w->slot) = p;
        if (flo[l] == INT64_MIN || fhi[l] == INT64_MAX ||
            __builtin_add_overflow(flo[l], a, &a) ||
            __builtin_mul_overflow(last, step[l], &b) || __builtin_add_overflow(fhi[l], b, &b)) {
            LO(c, l, w->slot) = INT64_MIN;
            HI(c, l, w->slot) = INT64_MAX;
        } else {
            LO(c, l, w->slot) = a;
            HI(c, l, w->slot) = b;
        }
    }
    return true;
}

/* A loop by classes of iterations (c->compress[w->index]): C_ENUM with
 * an empty why[] when this warp's lanes step differently (then it is run
 * iteration by iteration). */
static cstatus compressed_loop(cls *c, const rc_work *w, uint32_t mask, const int64_t *v0,
                               const int64_t *flo, const int64_t *fhi, const int64_t *step,
                               const int64_t *bound)
{
    int64_t s = 0, n[WARP], ends[WARP];
    int nends = 0;
    for (int l = 0; l < WARP; l++) {
        if (!(mask >> l & 1))
            continue;
        if (s == 0)
            s = step[l];
        if (step[l] != s || s <= 0) {
            c->why[0] = '\0';
            return C_ENUM;
        }
        uint64_t t = trips(v0[l], bound[l], s);
        int64_t end, x;
        if (t > (uint64_t)INT64_MAX || __builtin_mul_overflow((int64_t)t, s, &x) ||
            __builtin_add_overflow(v0[l], x, &end) ||
            (fhi[l] != INT64_MAX && __builtin_add_overflow(fhi[l], x, &end)))
            return cls_enumerate(c, "<loop> '%s' runs out of the 64-bit range", w->name);
        n[l] = (int64_t)t;
        ends[nends++] = (int64_t)t;
    }
    int depth = c->depth[w->index];
    int64_t P = period(c, w->children, depth, s);
    if (P == 0 || c->nstack == MAX_DEPTH) {
        c->why[0] = '\0';
        return C_ENUM;
    }
    nends = rc_warp_distinct(ends, nends);
    int64_t j0 = 0;
    for (int e = 0; e < nends; e++) {
        int64_t j1 = ends[e], len = j1 - j0;
        if (len <= 0)
            continue;
        uint32_t live = 0;
        for (int l = 0; l < WARP; l++)
            if ((mask >> l & 1) && n[l] >= j1)
                live |= 1u << l;
        if (len <= P) {
            for (int64_t j = j0; j < j1; j++) {
                if (!spend(c, __builtin_popcount(live)))
                    return over_budget(c);
                if (!set_var(c, w, live, v0, flo, fhi, step, j, j))
                    return cls_enumerate(c, "<loop> '%s' runs out of the 64-bit range", w->name);
                TRY(cls_run(c, w->children, live));
            }
        } else {
            for (int64_t r = 0; r < P; r++) {
                int64_t m = (len - r + P - 1) / P, j = j0 + r;
                if (!spend(c, __builtin_popcount(live)))
                    return over_budget(c);
                if (!set_var(c, w, live, v0, flo, fhi, step, j, j + (m - 1) * P))
                    return cls_enumerate(c, "<loop> '%s' runs out of the 64-bit range", w->name);
                c->stack[c->nstack++] = (frame){depth, P, s, m};
                c->version++;
                cstatus st = cls_run(c, w->children, live);
                c->nstack--;
                c->version++;
                TRY(st);
            }
        }
        j0 = j1;
    }
    return C_OK;
}

/* The walk of warp.c over the classes: its functions, then the walk. */

static int walk_spend(void *ctx, int lanes)
{
    return spend(ctx, lanes) ? C_OK : over_budget(ctx);
}

static int walk_let(void *ctx, const rc_work *w, int l)
{
    cls *c = ctx;
    return eval2(c, w->expr[0], l, &PT(c, l, w->slot), &LO(c, l, w->slot), &HI(c, l, w->slot));
}

static int walk_eval(void *ctx, const rc_work *w, int which, int l, int64_t *out)
{
    return eval2(ctx, w->expr[which], l, out, NULL, NULL);
}

/* A lane's variable steps: its range over the box moves with it while the
 * step is a shift, else it is unbounded. */
static void walk_moved(void *ctx, const rc_work *w, int l, int64_t v, int64_t next)
{
    cls *c = ctx;
    int64_t *lo = &LO(c, l, w->slot), *hi = &HI(c, l, w->slot), d;
    bool shift = w->step_op == RC_STEP_ADD || w->step_op == RC_STEP_SUB;
    if (*lo == v && *hi == v) {
        *lo = *hi = next;
    } else if (!shift || *lo == INT64_MIN || *hi == INT64_MAX ||
               __builtin_sub_overflow(next, v, &d) ||
               __builtin_add_overflow(*lo, d, lo) || __builtin_add_overflow(*hi, d, hi)) {
        *lo = INT64_MIN;
        *hi = INT64_MAX;
    }
}

static int walk_stuck(void *ctx, const rc_work *w)
{
    return cls_enumerate(ctx, "<loop> '%s' does not end", w->name);
}

static int loop_node(void *ctx, const rc_work *w, uint32_t mask);

static const rc_warp_ops walk_ops = {
    .spend = walk_spend, .let = walk_let, .eval = walk_eval, .loop = loop_node,
    .access = access_node, .moved = walk_moved, .stuck = walk_stuck};

static rc_warp walk(cls *c)
{
    return (rc_warp){&walk_ops, c, c->array, c->needed, c->reads, c->pt, c->nslots};
}

cstatus cls_run(cls *c, const rc_work *w, uint32_t mask)
{
    rc_warp wr = walk(c);
    return (cstatus)rc_warp_run(&wr, w, mask);
}

/* A loop by classes of iterations where it can be, else in lockstep
 * (rc_warp_lockstep, as access.c runs it). */
static int loop_node(void *ctx, const rc_work *w, uint32_t mask)
{
    cls *c = ctx;
    int64_t v0[WARP], flo[WARP], fhi[WARP], step[WARP], bound[WARP];
    for (int l = 0; l < WARP; l++) {
        if (!(mask >> l & 1))
            continue;
        TRY(eval2(c, w->expr[0], l, &v0[l], &flo[l], &fhi[l]));
        PT(c, l, w->slot) = v0[l];
        LO(c, l, w->slot) = flo[l];
        HI(c, l, w->slot) = fhi[l];
        TRY(eval2(c, w->expr[2], l, &step[l], NULL, NULL));
        if (!w->loop_while)
            TRY(eval2(c, w->expr[1], l, &bound[l], NULL, NULL));
    }
    if (c->compress[w->index]) {
        cstatus st = compressed_loop(c, w, mask, v0, flo, fhi, step, bound);
        if (st != C_ENUM || c->why[0])
            return st;
    }
    rc_warp wr = walk(c);
    return rc_warp_lockstep(&wr, w, mask, step, bound);
}
