/* warp.c: one warp's lanes through the work model in lockstep. See warp.h. */
#include "model/warp.h"

#include <stdlib.h>
#include <string.h>

#include "model/expr.h"

#define VALUE(wr, lane, s) ((wr)->values[(size_t)(lane) * (size_t)(wr)->nslots + (size_t)(s)])
#define TRY(call)              \
    do {                       \
        int st_ = (call);      \
        if (st_ != 0)          \
            return st_;        \
    } while (0)

/* ---- a block's warps ------------------------------------------------------ */

static void make_sig(const bool *reads, const int64_t rows[3], int64_t base, int64_t threads,
                     rc_warp_sig *w)
{
    w->n = 0;
    w->count = 1;
    for (int64_t t = base; t < base + RC_WARP && t < threads; t++) {
        int64_t c[3] = {t % rows[0], t / rows[0] % rows[1], t / (rows[0] * rows[1])};
        for (int a = 0; a < 3; a++)
            if (!reads[RC_SLOT_TID_X + a])
                c[a] = 0; /* not read: any value does */
        int i = 0;
        while (i < w->n && memcmp(w->coord[i], c, sizeof c) != 0)
            i++;
        if (i == w->n) {
            memcpy(w->coord[i], c, sizeof c);
            w->weight[i] = 0;
            w->n++;
        }
        w->weight[i]++;
    }
}

static bool same_sig(const rc_warp_sig *a, const rc_warp_sig *b)
{
    return a->n == b->n && memcmp(a->coord, b->coord, (size_t)a->n * sizeof a->coord[0]) == 0 &&
           memcmp(a->weight, b->weight, (size_t)a->n * sizeof a->weight[0]) == 0;
}

int rc_warp_signatures(const bool *reads, const int64_t rows[3], rc_warp_sig *warps)
{
    int64_t threads = rows[0] * rows[1] * rows[2];
    int nwarps = 0;
    for (int64_t base = 0; base < threads; base += RC_WARP) {
        rc_warp_sig *w = &warps[nwarps];
        make_sig(reads, rows, base, threads, w);
        int i = 0;
        while (i < nwarps && !same_sig(&warps[i], w))
            i++;
        if (i < nwarps)
            warps[i].count++;
        else
            nwarps++;
    }
    return nwarps;
}

uint32_t rc_warp_lanes(const rc_warp_sig *w)
{
    return w->n == RC_WARP ? 0xFFFFFFFFu : (1u << w->n) - 1;
}

/* ---- the walk ------------------------------------------------------------- */

int rc_warp_run(const rc_warp *wr, const rc_work *w, uint32_t mask)
{
    const rc_warp_ops *ops = wr->ops;
    for (; w; w = w->next) {
        switch (w->kind) {
        case RC_WORK_LET:
            if (w->slot < 0 || !wr->reads[w->slot])
                break;
            TRY(ops->spend(wr->ctx, __builtin_popcount(mask)));
            for (int l = 0; l < RC_WARP; l++)
                if (mask >> l & 1)
                    TRY(ops->let(wr->ctx, w, l));
            break;
        case RC_WORK_WHEN: {
            if (!wr->needed[w->index])
                break;
            TRY(ops->spend(wr->ctx, __builtin_popcount(mask)));
            uint32_t taken = 0;
            for (int l = 0; l < RC_WARP; l++) {
                int64_t t;
                if (!(mask >> l & 1))
                    continue;
                TRY(ops->eval(wr->ctx, w, 0, l, &t));
                if (t)
                    taken |= 1u << l;
            }
            if (taken)
                TRY(rc_warp_run(wr, w->children, taken));
            break;
        }
        case RC_WORK_LOOP:
            if (wr->needed[w->index])
                TRY(ops->loop(wr->ctx, w, mask));
            break;
        case RC_WORK_LOAD:
        case RC_WORK_STORE:
        case RC_WORK_ATOMIC:
            if ((wr->array < 0 || w->array == wr->array) && wr->needed[w->index])
                TRY(ops->access(wr->ctx, w, mask));
            break;
        default:
            break;
        }
    }
    return 0;
}

int rc_warp_loop_start(const rc_warp *wr, const rc_work *w, uint32_t mask, int64_t *step,
                       int64_t *bound)
{
    const rc_warp_ops *ops = wr->ops;
    for (int l = 0; l < RC_WARP; l++) {
        if (!(mask >> l & 1))
            continue;
        TRY(ops->eval(wr->ctx, w, 0, l, &VALUE(wr, l, w->slot)));
        TRY(ops->eval(wr->ctx, w, 2, l, &step[l]));
        if (!w->loop_while)
            TRY(ops->eval(wr->ctx, w, 1, l, &bound[l]));
    }
    return 0;
}

int rc_warp_lockstep(const rc_warp *wr, const rc_work *w, uint32_t mask, const int64_t *step,
                     const int64_t *bound)
{
    const rc_warp_ops *ops = wr->ops;
    uint32_t live = mask;
    while (live) {
        TRY(ops->spend(wr->ctx, __builtin_popcount(live)));
        uint32_t go = 0;
        for (int l = 0; l < RC_WARP; l++) {
            if (!(live >> l & 1))
                continue;
            int64_t t;
            if (w->loop_while)
                TRY(ops->eval(wr->ctx, w, 1, l, &t));
            else
                t = VALUE(wr, l, w->slot) < bound[l];
            if (t)
                go |= 1u << l;
        }
        live = go;
        if (!live)
            break;
        TRY(rc_warp_run(wr, w->children, live));
        for (int l = 0; l < RC_WARP; l++) {
            if (!(live >> l & 1))
                continue;
            int64_t *v = &VALUE(wr, l, w->slot), next = 0;
            /* The evaluator has run every lane's loop: it cannot fail here
             * unless its counting stopped short of the failure. */
            if (!rc_warp_step(w->step_op, *v, step[l], &next) || next == *v)
                return ops->stuck(wr->ctx, w);
            if (ops->moved)
                ops->moved(wr->ctx, w, l, *v, next);
            *v = next;
        }
    }
    return 0;
}

bool rc_warp_step(rc_step_op op, int64_t v, int64_t c, int64_t *out)
{
    switch (op) {
    case RC_STEP_ADD: return !__builtin_add_overflow(v, c, out);
    case RC_STEP_SUB: return !__builtin_sub_overflow(v, c, out);
    case RC_STEP_MUL: return !__builtin_mul_overflow(v, c, out);
    case RC_STEP_DIV:
        if (c == 0 || (v == INT64_MIN && c == -1))
            return false;
        *out = v / c;
        return true;
    case RC_STEP_SHL:
        if (c < 0 || c > 62 || v < 0 || v > (INT64_MAX >> c))
            return false;
        *out = v << c;
        return true;
    case RC_STEP_SHR:
        if (c < 0 || c >= 63)
            return false;
        *out = v >> c;
        return true;
    }
    return false;
}

/* ---- stepping -------------------------------------------------------------- */

bool rc_warp_steps_init(rc_warp_steps *s, int nwork)
{
    size_t nn = (size_t)(nwork > 0 ? nwork : 1);
    *s = (rc_warp_steps){0};
    s->loop = calloc(nn, sizeof *s->loop);
    s->coef = calloc(nn, sizeof *s->coef);
    s->entry = calloc(nn, sizeof *s->entry);
    s->var = calloc(nn, sizeof *s->var);
    s->idx = calloc(nn, sizeof *s->idx);
    s->at = calloc(nn, sizeof *s->at);
    return s->loop && s->coef && s->entry && s->var && s->idx && s->at;
}

void rc_warp_steps_free(rc_warp_steps *s)
{
    free(s->loop);
    free(s->coef);
    free(s->entry);
    free(s->var);
    free(s->idx);
    free(s->at);
    *s = (rc_warp_steps){0};
}

void rc_warp_steps_set(rc_warp_steps *s, const rc_work *w, const rc_work *loop)
{
    int64_t coef;
    s->loop[w->index] = NULL;
    if (loop && rc_expr_affine(w->index_expr, loop->slot, &coef)) {
        s->loop[w->index] = loop;
        s->coef[w->index] = coef;
    }
}

/* ---- requests ------------------------------------------------------------- */

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

int rc_warp_distinct(int64_t *v, int n)
{
    bool sorted = true;
    for (int i = 1; i < n && sorted; i++)
        sorted = v[i - 1] <= v[i];
    if (!sorted)
        qsort(v, (size_t)n, sizeof *v, cmp_i64);
    int d = 0;
    for (int i = 0; i < n; i++)
        if (d == 0 || v[d - 1] != v[i])
            v[d++] = v[i];
    return d;
}

int rc_warp_sectors(const int64_t *offset, uint32_t mask, int64_t size, int64_t *sec)
{
    int n = 0;
    for (int l = 0; l < RC_WARP; l++) {
        if (!(mask >> l & 1))
            continue;
        for (int64_t s = offset[l] / 32; s <= (offset[l] + size - 1) / 32; s++)
            sec[n++] = s;
    }
    return rc_warp_distinct(sec, n);
}

int rc_warp_lines(const int64_t *sec, int d)
{
    int lines = 0;
    for (int i = 0; i < d; i++)
        if (i == 0 || sec[i] / 4 != sec[i - 1] / 4)
            lines++;
    return lines;
}

void rc_warp_part_lines(const int64_t *offset, uint32_t mask, int64_t size, const int64_t *sec,
                        int d, int64_t lines[4])
{
    uint32_t covered[2 * RC_WARP] = {0};
    for (int l = 0; l < RC_WARP; l++) {
        if (!(mask >> l & 1))
            continue;
        for (int64_t b = offset[l]; b < offset[l] + size;) {
            int64_t s = b / 32, end = (s + 1) * 32 < offset[l] + size ? (s + 1) * 32
                                                                       : offset[l] + size;
            int lo = 0, hi = d - 1; /* sec ascends (rc_warp_distinct) */
            while (lo < hi) {
                int mid = (lo + hi) / 2;
                if (sec[mid] < s)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            int first = (int)(b - s * 32), n = (int)(end - b);
            covered[lo] |= (n == 32 ? 0xffffffffu : ((1u << n) - 1)) << first;
            b = end;
        }
    }
    for (int i = 0; i < d;) {
        int j = i, part = 0;
        for (; j < d && sec[j] / 4 == sec[i] / 4; j++)
            part |= covered[j] != 0xffffffffu;
        if (part)
            lines[j - i - 1]++;
        i = j;
    }
}

int64_t rc_warp_end_sector(int64_t length, int elem_bytes)
{
    int64_t bytes;
    if (length <= 0 || elem_bytes <= 0 || __builtin_mul_overflow(length, (int64_t)elem_bytes, &bytes))
        return -1;
    int64_t sectors = bytes / 32 + (bytes % 32 != 0);
    return sectors % 2 ? sectors - 1 : -1;
}

int64_t rc_warp_busiest_offset(const int64_t *offset, uint32_t mask, const int64_t *weight)
{
    int64_t most = 0;
    for (int l = 0; l < RC_WARP; l++) {
        if (!(mask >> l & 1))
            continue;
        int64_t here = 0;
        for (int m = 0; m < RC_WARP; m++)
            if (mask >> m & 1 && offset[m] == offset[l])
                here += weight[m];
        if (here > most)
            most = here;
    }
    return most;
}

int rc_warp_multiword_lines(const int64_t *offset, uint32_t mask)
{
    int64_t v[RC_WARP];
    int n = 0;
    for (int l = 0; l < RC_WARP; l++)
        if (mask >> l & 1)
            v[n++] = offset[l];
    int d = rc_warp_distinct(v, n), lines = 0;
    /* v ascends: a line has two or more offsets where a run of one line is longer than one. */
    for (int i = 0; i < d;) {
        int j = i + 1;
        while (j < d && v[j] / 128 == v[i] / 128)
            j++;
        lines += j - i > 1;
        i = j;
    }
    return lines;
}
