/* l1sim.c: one SM's L1 run through its first wave of blocks. See l1sim.h.
 *
 * Two steps: each warp of the wave is walked alone (warp.h) and its sector touches recorded in
 * program order, request by request; then the warps' streams are interleaved a request a turn
 * through the L1, a list of lines in order of use with a hash table from line to place. The
 * recording keeps the walk apart from the interleaving, which warp.h's walk (a recursion over
 * the work model per warp) could not pause in. */
#include "model/l1sim.h"

#include <stdlib.h>
#include <string.h>

#include "model/traffic.h"
#include "model/warp.h"
#include "util/array.h"

#define WARP RC_WARP
#define ARRAY_SHIFT 44 /* sector ids: the array's number above its sectors (2^44 of them) */

/* ---- recording a warp's stream ------------------------------------------ */

typedef struct {
    int64_t *sec;     /* sector ids, request after request */
    uint16_t *len;    /* sectors of each request */
    int64_t nsec, nreq;
    size_t cap_sec, cap_req; /* RC_GROW's capacities */
} stream;

typedef struct {
    const rc_kernel *k;
    const bool *cached; /* by array */
    const bool *needed; /* by node: it is or holds a load or store of a cached array */
    const bool *reads;  /* by slot: all true (every let runs) */
    /* Stepping (warp.h), as access.c's enumeration does, in += or -= loops with no let in
     * their body (every let runs here). */
    rc_warp_steps stepping;
    int64_t *lanes;     /* [WARP][nslots] */
    int nslots;
    stream *st;         /* the warp being recorded */
    int64_t sector_cap; /* its share of RC_L1SIM_SECTORS */
    int64_t steps, step_cap;
    bool cut;           /* some warp's stream reached sector_cap or step_cap */
} recorder;

enum { GO = 0, STOP = 1, FAIL = 2 }; /* STOP: this warp's share is used up */

#define SLOT(r, lane, s) ((r)->lanes[(size_t)(lane) * (size_t)(r)->nslots + (size_t)(s)])

static int rec_spend(void *ctx, int lanes)
{
    recorder *r = ctx;
    r->steps += lanes;
    if (r->steps > r->step_cap) {
        r->cut = true;
        return STOP;
    }
    return GO;
}

static int rec_eval(void *ctx, const rc_work *w, int which, int lane, int64_t *out)
{
    recorder *r = ctx;
    rc_expr_error err;
    const rc_expr *e = which < 0 ? w->index_expr : w->expr[which];
    return e && rc_expr_eval(e, &SLOT(r, lane, 0), out, &err) ? GO : FAIL;
}

static int rec_let(void *ctx, const rc_work *w, int lane)
{
    recorder *r = ctx;
    return rec_eval(ctx, w, 0, lane, &SLOT(r, lane, w->slot));
}

/* rc_warp_distinct for a request's sectors, which here are most often a few values again and
 * again (the rows of a 2-D block): keep the distinct ones as they come and sort those by
 * insertion, with no call through qsort's pointer; a long run of new values goes to
 * rc_warp_distinct. */
static int distinct(int64_t *v, int n)
{
    int d = 0;
    for (int i = 0; i < n; i++) {
        int64_t x = v[i];
        int j = d - 1;
        while (j >= 0 && v[j] != x)
            j--;
        if (j >= 0)
            continue;
        if (d >= 8) /* many distinct: sorting them all is cheaper */
            return rc_warp_distinct(v, n);
        v[d++] = x;
    }
    for (int i = 1; i < d; i++) {
        int64_t x = v[i];
        int j = i;
        for (; j > 0 && v[j - 1] > x; j--)
            v[j] = v[j - 1];
        v[j] = x;
    }
    return d;
}

static int rec_access(void *ctx, const rc_work *w, uint32_t mask)
{
    recorder *r = ctx;
    if (w->kind == RC_WORK_ATOMIC || !r->cached[w->array])
        return GO;
    const rc_array *a = &r->k->arrays[w->array];
    int64_t offset[WARP], sec[2 * WARP];
    const rc_work *lp = rc_warp_steps_loop(&r->stepping, w);
    for (int l = 0; l < WARP; l++) {
        if (!(mask >> l & 1))
            continue;
        int64_t idx, var = lp ? SLOT(r, l, lp->slot) : 0;
        if (!rc_warp_steps_get(&r->stepping, w, l, var, &idx)) {
            if (rec_eval(ctx, w, -1, l, &idx) != GO)
                return FAIL;
            rc_warp_steps_keep(&r->stepping, w, l, var, idx);
        }
        if (idx < 0 || idx >= a->length)
            return FAIL;
        offset[l] = idx * a->elem_bytes;
    }
    /* The lanes' sectors (offsets are not negative here), then the distinct ones. */
    int n = 0;
    for (int l = 0; l < WARP; l++)
        if (mask >> l & 1)
            for (int64_t x = offset[l] >> 5; x <= (offset[l] + a->elem_bytes - 1) >> 5; x++)
                sec[n++] = x;
    int d = distinct(sec, n);
    stream *s = r->st;
    if (s->nsec + d > r->sector_cap) {
        r->cut = true;
        return STOP;
    }
    if (!RC_GROW(s->sec, s->cap_sec, (size_t)(s->nsec + d)) ||
        !RC_GROW(s->len, s->cap_req, (size_t)s->nreq + 1))
        return FAIL;
    for (int i = 0; i < d; i++)
        s->sec[s->nsec++] = sec[i] + ((int64_t)(w->array + 1) << ARRAY_SHIFT);
    s->len[s->nreq++] = (uint16_t)d;
    return GO;
}

static int rec_stuck(void *ctx, const rc_work *w)
{
    (void)ctx;
    (void)w;
    return FAIL;
}

static int rec_loop(void *ctx, const rc_work *w, uint32_t mask);

static const rc_warp_ops rec_ops = {.spend = rec_spend, .let = rec_let, .eval = rec_eval,
                                    .loop = rec_loop, .access = rec_access, .moved = NULL,
                                    .stuck = rec_stuck};

static rc_warp walk_of(recorder *r)
{
    return (rc_warp){&rec_ops, r, -1, r->needed, r->reads, r->lanes, r->nslots};
}

static int rec_loop(void *ctx, const rc_work *w, uint32_t mask)
{
    recorder *r = ctx;
    int64_t c[WARP], bound[WARP];
    rc_warp wr = walk_of(r);
    int st = rc_warp_loop_start(&wr, w, mask, c, bound);
    if (st != GO)
        return st;
    rc_warp_steps_enter(&r->stepping, w);
    return rc_warp_lockstep(&wr, w, mask, c, bound);
}

static bool has_let(const rc_work *w)
{
    for (; w; w = w->next)
        if (w->kind == RC_WORK_LET || has_let(w->children))
            return true;
    return false;
}

/* For each load and store, the loop it can be stepped with (see recorder), if any. */
static void prepare_steps(recorder *r, const rc_work *w, const rc_work *loop)
{
    for (; w; w = w->next) {
        if ((w->kind == RC_WORK_LOAD || w->kind == RC_WORK_STORE) && w->array >= 0)
            rc_warp_steps_set(&r->stepping, w, loop);
        if (w->kind == RC_WORK_LOOP) {
            bool steppable = (w->step_op == RC_STEP_ADD || w->step_op == RC_STEP_SUB) &&
                             !has_let(w->children);
            prepare_steps(r, w->children, steppable ? w : NULL);
        } else if (w->children)
            prepare_steps(r, w->children, loop);
    }
}

/* Marks needed[] for the nodes that are or contain a load or store of a cached array. */
static bool mark_needed(const rc_work *w, const bool *cached, bool *needed)
{
    bool any = false;
    for (; w; w = w->next) {
        bool here = (w->kind == RC_WORK_LOAD || w->kind == RC_WORK_STORE) && w->array >= 0 &&
                    cached[w->array];
        if (w->children && mark_needed(w->children, cached, needed))
            here = true;
        needed[w->index] = here;
        any |= here;
    }
    return any;
}

/* Records warp `warp` of linear block `b` into *s; FAIL when the walk cannot go on. */
static int record_warp(recorder *r, int64_t b, int64_t warp, stream *s)
{
    const rc_kernel *k = r->k;
    int64_t bid[3] = {b % k->grid[0], b / k->grid[0] % k->grid[1],
                      b / (k->grid[0] * k->grid[1])};
    int64_t threads = rc_kernel_threads_per_block(k);
    uint32_t mask = 0;
    for (int l = 0; l < WARP; l++) {
        int64_t t = warp * WARP + l;
        if (t >= threads)
            break;
        int64_t *v = &SLOT(r, l, 0);
        v[RC_SLOT_TID_X] = t % k->block[0];
        v[RC_SLOT_TID_Y] = t / k->block[0] % k->block[1];
        v[RC_SLOT_TID_Z] = t / (k->block[0] * k->block[1]);
        for (int a = 0; a < 3; a++)
            v[RC_SLOT_BID_X + a] = bid[a];
        mask |= 1u << l;
    }
    r->st = s;
    r->steps = 0;
    rc_warp wr = walk_of(r);
    int st = rc_warp_run(&wr, k->work, mask);
    return st == FAIL ? FAIL : GO;
}

/* ---- the L1 ---------------------------------------------------------------- */

/* Lines in order of use (a list through prev/next, head the most recent), found by tag
 * through an open-addressing table with linear probing. A table of its own, not rc_pages
 * (pages.h), which neither removes entries (an evicted line must go) nor suits a few scattered
 * sectors: its pages hold 4,096 sectors each, 32 KiB a touched page here, so a run's 16,384
 * scattered touches could make 512 MiB of pages. The same holds for `touched` below. */
typedef struct {
    int64_t *tag;
    uint8_t *valid;        /* sectors held, a bit each */
    int32_t *prev, *next;
    int32_t head, tail, used, cap;
    int32_t *table;        /* line slot, or -1 */
    uint64_t tmask;
} cache;

static uint64_t hash64(int64_t x)
{
    uint64_t h = (uint64_t)x * 0x9E3779B97F4A7C15ull;
    return h ^ (h >> 29);
}

static bool cache_init(cache *c, int32_t lines)
{
    memset(c, 0, sizeof *c);
    c->cap = lines;
    uint64_t size = 4;
    while (size < (uint64_t)lines * 2)
        size *= 2;
    c->tmask = size - 1;
    c->tag = malloc((size_t)lines * sizeof *c->tag);
    c->valid = malloc((size_t)lines);
    c->prev = malloc((size_t)lines * sizeof *c->prev);
    c->next = malloc((size_t)lines * sizeof *c->next);
    c->table = malloc((size_t)size * sizeof *c->table);
    if (!c->tag || !c->valid || !c->prev || !c->next || !c->table)
        return false;
    for (uint64_t i = 0; i < size; i++)
        c->table[i] = -1;
    c->head = c->tail = -1;
    return true;
}

static void cache_free(cache *c)
{
    free(c->tag);
    free(c->valid);
    free(c->prev);
    free(c->next);
    free(c->table);
}

/* The table position of the line tagged `tag`, or of the empty place it would take. */
static uint64_t probe(const cache *c, int64_t tag)
{
    uint64_t i = hash64(tag) & c->tmask;
    while (c->table[i] >= 0 && c->tag[c->table[i]] != tag)
        i = (i + 1) & c->tmask;
    return i;
}

/* Removes table position i, moving up the entries after it that probing would not find. */
static void table_remove(cache *c, uint64_t i)
{
    uint64_t j = i;
    for (;;) {
        c->table[i] = -1;
        for (;;) {
            j = (j + 1) & c->tmask;
            if (c->table[j] < 0)
                return;
            uint64_t home = hash64(c->tag[c->table[j]]) & c->tmask;
            /* Stays when its home lies cyclically in (i, j]. */
            if (i <= j ? (i < home && home <= j) : (i < home || home <= j))
                continue;
            break;
        }
        c->table[i] = c->table[j];
        i = j;
    }
}

static void unlink_line(cache *c, int32_t s)
{
    if (c->prev[s] >= 0)
        c->next[c->prev[s]] = c->next[s];
    else
        c->head = c->next[s];
    if (c->next[s] >= 0)
        c->prev[c->next[s]] = c->prev[s];
    else
        c->tail = c->prev[s];
}

static void push_front(cache *c, int32_t s)
{
    c->prev[s] = -1;
    c->next[s] = c->head;
    if (c->head >= 0)
        c->prev[c->head] = s;
    c->head = s;
    if (c->tail < 0)
        c->tail = s;
}

/* One touch of sector id `sec`: true when L1 held it. The line becomes the most recent. */
static bool cache_touch(cache *c, int64_t sec)
{
    int64_t tag = sec >> 2;
    uint8_t bit = (uint8_t)(1u << (sec & 3));
    uint64_t i = probe(c, tag);
    int32_t s = c->table[i];
    if (s >= 0) {
        bool hit = c->valid[s] & bit;
        c->valid[s] |= bit;
        unlink_line(c, s);
        push_front(c, s);
        return hit;
    }
    if (c->used < c->cap)
        s = c->used++;
    else {
        s = c->tail;
        unlink_line(c, s);
        table_remove(c, probe(c, c->tag[s]));
        i = probe(c, tag);
    }
    c->tag[s] = tag;
    c->valid[s] = bit;
    c->table[i] = s;
    push_front(c, s);
    return false;
}

/* ---- which blocks touched a sector ---------------------------------------- */

typedef struct {
    int64_t *key;
    uint64_t *blocks; /* a bit a block of the wave (at most 64 resident) */
    uint64_t mask;
} touched;

static bool touched_init(touched *t, int64_t entries)
{
    uint64_t size = 16;
    while (size < (uint64_t)entries * 2)
        size *= 2;
    t->mask = size - 1;
    t->key = malloc((size_t)size * sizeof *t->key);
    t->blocks = calloc((size_t)size, sizeof *t->blocks);
    if (!t->key || !t->blocks)
        return false;
    for (uint64_t i = 0; i < size; i++)
        t->key[i] = -1;
    return true;
}

/* True when block `b` touched `sec` before; marks it touched. */
static bool touched_before(touched *t, int64_t sec, int b)
{
    uint64_t i = hash64(sec) & t->mask;
    while (t->key[i] >= 0 && t->key[i] != sec)
        i = (i + 1) & t->mask;
    t->key[i] = sec;
    bool before = t->blocks[i] >> b & 1;
    t->blocks[i] |= 1ull << b;
    return before;
}

/* ---- the run ---------------------------------------------------------------- */

/* Interleaves the streams a request a turn through an L1 of `lines` lines. */
static bool interleave(const stream *s, const int *block, int64_t n, int64_t total,
                       int32_t lines, rc_l1_reuse *out)
{
    cache c;
    touched t = {0};
    int64_t *req = calloc((size_t)(n ? n : 1), sizeof *req);
    int64_t *at = calloc((size_t)(n ? n : 1), sizeof *at);
    bool ok = cache_init(&c, lines) && touched_init(&t, total) && req && at;
    for (bool more = ok; more;) {
        more = false;
        for (int64_t w = 0; w < n; w++) {
            if (req[w] >= s[w].nreq)
                continue;
            more = true;
            for (int j = 0; j < s[w].len[req[w]]; j++) {
                int64_t sec = s[w].sec[at[w]++];
                bool reuse = touched_before(&t, sec, block[w]);
                bool hit = cache_touch(&c, sec);
                out->touches++;
                out->reuse += reuse;
                out->reuse_hits += reuse && hit;
            }
            req[w]++;
        }
    }
    cache_free(&c);
    free(t.key);
    free(t.blocks);
    free(req);
    free(at);
    return ok;
}

void rc_l1_reuse_of(const rc_gpu *g, const rc_kernel *k, const rc_counts *c, rc_l1_reuse *out)
{
    *out = (rc_l1_reuse){0};
    double l1 = g->sm.l1.value;
    int64_t sms = (int64_t)(g->sm.count.value > 0 ? g->sm.count.value : g->sms);
    if (!k || !c->memory_counted || c->memory.legacy.sector_bytes > 0 || l1 < 128 || sms < 1 ||
        k->narrays == 0)
        return;
    bool *cached = calloc(k->narrays, sizeof *cached);
    bool *needed = calloc((size_t)(k->nwork > 0 ? k->nwork : 1), sizeof *needed);
    int nslots = k->nslots > RC_SLOT_FIRST_FREE ? k->nslots : RC_SLOT_FIRST_FREE;
    bool *reads = malloc((size_t)nslots * sizeof *reads);
    int64_t *lanes = calloc((size_t)WARP * (size_t)nslots, sizeof *lanes);
    int64_t blocks = 0, warps_per_block = (rc_kernel_threads_per_block(k) + WARP - 1) / WARP;
    stream *s = NULL;
    int *block = NULL;
    rc_warp_steps *steps = NULL; /* freed at end once made */
    if (!cached || !needed || !reads || !lanes)
        goto end;
    for (size_t i = 0; i < k->narrays && i < (size_t)c->memory.narrays; i++)
        cached[i] = k->arrays[i].space == RC_SPACE_GLOBAL &&
                    rc_traffic_l1_caches(g, &c->memory.arrays[i]);
    if (!mark_needed(k->work, cached, needed))
        goto end;
    for (int i = 0; i < nslots; i++)
        reads[i] = true;
    int64_t resident = (int64_t)rc_traffic_resident_blocks(g, c);
    for (int64_t b = 0; b < resident && b * sms < rc_kernel_blocks(k) && b < 64; b++)
        blocks++;
    int64_t n = blocks * warps_per_block;
    s = calloc((size_t)(n ? n : 1), sizeof *s);
    block = calloc((size_t)(n ? n : 1), sizeof *block);
    if (!s || !block || n == 0)
        goto end;
    recorder rec = {.k = k, .cached = cached, .needed = needed, .reads = reads, .lanes = lanes,
                    .nslots = nslots, .sector_cap = RC_L1SIM_SECTORS / n,
                    .step_cap = RC_L1SIM_STEPS / n};
    steps = &rec.stepping;
    if (!rc_warp_steps_init(steps, k->nwork))
        goto end;
    prepare_steps(&rec, k->work, NULL);
    int64_t total = 0;
    for (int64_t b = 0; b < blocks; b++)
        for (int64_t w = 0; w < warps_per_block; w++) {
            int64_t i = b * warps_per_block + w;
            block[i] = (int)b;
            if (record_warp(&rec, b * sms, w, &s[i]) != GO)
                goto end;
            total += s[i].nsec;
        }
    out->blocks = blocks;
    out->warps = n;
    out->truncated = rec.cut;
    out->lines = (int64_t)(l1 / 128);
    /* A stream of `total` touches fills at most `total` lines: an L1 with more evicts nothing
     * either, so a larger one (a GPU file may say anything) is run at that size. */
    int64_t run_lines = out->lines < total ? out->lines : total > 0 ? total : 1;
    if (interleave(s, block, n, total, (int32_t)run_lines, out) && out->reuse > 0) {
        out->simulated = true;
        out->hit = (double)out->reuse_hits / (double)out->reuse;
    }
end:
    /* Not simulated: nothing else holds, but the touches run stay counted (0 when nothing
     * ran, some when the run saw no reuse), so that a test can tell the two apart. */
    if (!out->simulated) {
        int64_t keep = out->touches;
        *out = (rc_l1_reuse){0};
        out->touches = keep;
    }
    for (int64_t i = 0; s && i < blocks * warps_per_block; i++) {
        free(s[i].sec);
        free(s[i].len);
    }
    if (steps)
        rc_warp_steps_free(steps);
    free(s);
    free(block);
    free(cached);
    free(needed);
    free(reads);
    free(lanes);
}
