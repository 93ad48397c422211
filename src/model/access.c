/* access.c: exact memory counts per warp. See access.h.
 *
 * Each array is counted by classes first (classes.c, docs/counting.md);
 * what follows is the enumeration, used where the classes do not apply
 * (and by the differential tests as their reference).
 *
 * The work model is run warp by warp, 32 lanes in lockstep, the way the
 * hardware runs it: a guard narrows the set of active lanes, a loop runs
 * while any lane is still in it, and iteration j of a loop is the same
 * iteration for every lane (so a request is one access node at one
 * iteration number). One array is analysed at a time, and only what its
 * accesses depend on is run:
 *
 * - projection: the array's accesses read some slots (their indices, the
 *   guards and loop bounds around them, the lets those read). Blocks that
 *   differ only in block indices none of those read touch the same
 *   addresses, so one block stands for all of them (a "class"); likewise
 *   the threadIdx.z (or y and z) rows of a block when neither is read and
 *   the rows below them fill whole warps;
 * - pruning: statements that contain no access to the array, and lets it
 *   does not read, are skipped;
 * - distinct sectors go into a paged map per array holding, for each
 *   32-byte sector, the last class that touched it: a sector seen for the
 *   first time adds to the footprint, one seen first in this class adds to
 *   the block's footprint.
 *
 * When the lane-steps an array would take pass RC_ACCESS_BUDGET, the
 * array's classes are sampled: one class drawn at random from each of S
 * equal strides (seeded), and the counts scaled by classes / S.
 */
#include "model/access.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/banks.h"
#include "model/classes.h"
#include "model/names.h"
#include "model/pages.h"
#include "model/warp.h"
#include "util/diag.h"

#define WARP RC_WARP
#define PAGE_BITS 12 /* sectors per page of the stamp map: 4,096 */

/* ---- the stamp map: the last class that touched each sector ----------- */

/* The stamp of `sector`, creating its page; NULL when out of memory. */
static uint32_t *map_stamp(rc_pages *m, int64_t sector)
{
    uint32_t *stamps = rc_pages_get(m, sector >> PAGE_BITS);
    return stamps ? &stamps[sector & ((1 << PAGE_BITS) - 1)] : NULL;
}

/* Whether some class touched `sector` (no page is made). */
static bool touched(rc_pages *m, int64_t sector)
{
    const uint32_t *stamps = rc_pages_find(m, sector >> PAGE_BITS);
    return stamps && stamps[sector & ((1 << PAGE_BITS) - 1)] != 0;
}

/* The bytes of a page: its stamps, and with `kinds` a byte a sector after them (the kinds of
 * access that touched it, analysis.track_rw), found with the stamp in one look-up. */
static size_t page_bytes(bool kinds)
{
    return ((size_t)1 << PAGE_BITS) * (sizeof(uint32_t) + (kinds ? 1 : 0));
}

/* The kinds byte of the sector whose stamp is *st, in a page of page_bytes(true). */
static uint8_t *stamp_kinds(uint32_t *st, int64_t sector)
{
    int64_t at = sector & ((1 << PAGE_BITS) - 1);
    return (uint8_t *)(st - at + (1 << PAGE_BITS)) + at;
}

/* ---- the analysis of one array ----------------------------------------- */

typedef enum { A_OK, A_FAIL, A_BUDGET } status;

typedef struct {
    const rc_kernel *k;
    int array;               /* the array analysed */
    const rc_array *arr;
    bool *needed;            /* by node index: the node is or contains an access to it */
    bool *reads;             /* by slot: read by its accesses or around them */
    int nslots;
    int64_t *lanes;          /* [WARP][nslots], lane-major: one lane per distinct thread */
    int64_t weight[WARP];    /* threads of the warp each lane stands for */
    int64_t warp_mult;       /* warps of the block the current one stands for */
    /* Stepping (warp.h): the indices affine in an += or -= loop's variable, where the loop
     * has no let of its own that the index reads. */
    rc_warp_steps stepping;
    /* This class's counts, for one block, before multiplying. */
    int64_t requests, accessed, sectors, shared_requests, wavefronts, block_sectors;
    int64_t wavefronts_pair; /* by Kepler's bank rule (banks.h) */
    int64_t store_sectors, store_lines; /* of store and atomic requests */
    int64_t store_part_lines[4];        /* of them, lines written in part (access.h) */
    int64_t l1q, l1q2, l1q2x2; /* rc_access_counts.l1_quarters, _2, _2x2 */
    int64_t atomic_lane_extra; /* per-lane atomics: a request's busiest address beyond one */
    int64_t atomic_multiword;  /* atomics: a request's lines of two or more addresses */
    int64_t footprint;       /* new sectors of the whole launch */
    int64_t footprint_pairs; /* new sector pairs (2k, 2k + 1) of the whole launch */
    /* While a pass of all the accesses is enumerated for an array both read and written: each
     * sector's kinds (1 read, 2 written) and the sectors that have both, for rewritten_bytes
     * without the passes of the reads and the writes alone (count_rewritten). */
    bool rewrites;           /* the array is global and both read and written */
    bool track_rw, tracked_rw; /* then each page of the map ends in a kinds byte a sector */
    int64_t rewritten;
    int64_t index_min, index_max; /* over the accesses counted */
    rc_pages map; /* the stamps, 1 << PAGE_BITS a page */
    uint32_t stamp;          /* the current class, from 1 */
    int64_t steps, budget;
    const rc_work **fail_node;
    rc_access_progress progress; /* may be NULL */
    rc_access_pass pass;         /* the count under way, for progress */
    void *progress_ctx;
    char *message;
    size_t message_len;
} analysis;

static status fail(analysis *an, const rc_work *w, const char *fmt, ...) RC_PRINTF(3, 4);

static status fail(analysis *an, const rc_work *w, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    *an->fail_node = w;
    vsnprintf(an->message, an->message_len, fmt, ap);
    va_end(ap);
    return A_FAIL;
}

#define SLOT(an, lane, s) ((an)->lanes[(size_t)(lane) * (size_t)(an)->nslots + (size_t)(s)])
#define TRY(call)                   \
    do {                            \
        status st_ = (call);        \
        if (st_ != A_OK)            \
            return st_;             \
    } while (0)

/* Evaluates w->expr[which] (or the index when which < 0) for one lane. */
static status eval_lane(analysis *an, const rc_work *w, int which, int lane, int64_t *out)
{
    const rc_expr *e = which < 0 ? w->index_expr : w->expr[which];
    rc_expr_error err;
    if (rc_expr_eval(e, &SLOT(an, lane, 0), out, &err))
        return A_OK;
    const int64_t *v = &SLOT(an, lane, 0);
    return fail(an, w, "<%s> attribute '%s': %s (thread (%lld, %lld, %lld) of block (%lld, %lld, %lld))",
                rc_work_element(w->kind), which < 0 ? "index" : w->attr[which], err.message,
                (long long)v[RC_SLOT_TID_X], (long long)v[RC_SLOT_TID_Y], (long long)v[RC_SLOT_TID_Z],
                (long long)v[RC_SLOT_BID_X], (long long)v[RC_SLOT_BID_Y], (long long)v[RC_SLOT_BID_Z]);
}

static bool spend(analysis *an, int64_t n)
{
    an->steps += n;
    return an->steps <= an->budget;
}

/* One request to global memory: the sectors of the active lanes. */
static status global_request(analysis *an, const rc_work *w, const int64_t *offset, uint32_t mask)
{
    int64_t sec[2 * WARP];
    int size = an->arr->elem_bytes;
    int d = rc_warp_sectors(offset, mask, size, sec);
    int64_t threads = 0;
    for (int l = 0; l < WARP; l++)
        if (mask >> l & 1)
            threads += an->weight[l];
    an->requests += an->warp_mult;
    an->accessed += threads * size * an->warp_mult;
    an->sectors += d * an->warp_mult;
    int lines = rc_warp_lines(sec, d);
    if (w->kind == RC_WORK_STORE || w->kind == RC_WORK_ATOMIC) {
        an->store_sectors += d * an->warp_mult;
        an->store_lines += lines * an->warp_mult;
        int64_t part[4] = {0};
        rc_warp_part_lines(offset, mask, size, sec, d, part);
        for (int k = 0; k < 4; k++)
            an->store_part_lines[k] += part[k] * an->warp_mult;
    }
    int64_t q, q2, q2x2;
    rc_l1_request_quarters(w->kind == RC_WORK_LOAD, offset, mask, size, d, lines, &q, &q2, &q2x2);
    an->l1q += q * an->warp_mult;
    an->l1q2 += q2 * an->warp_mult;
    an->l1q2x2 += q2x2 * an->warp_mult;
    if (w->kind == RC_WORK_ATOMIC && w->per_lane_operand)
        an->atomic_lane_extra +=
            (rc_warp_busiest_offset(offset, mask, an->weight) - 1) * an->warp_mult;
    if (w->kind == RC_WORK_ATOMIC)
        an->atomic_multiword += rc_warp_multiword_lines(offset, mask) * an->warp_mult;
    for (int i = 0; i < d; i++) {
        uint32_t *st = map_stamp(&an->map, sec[i]);
        if (!st)
            return fail(an, w, "out of memory");
        if (*st == 0) {
            an->footprint++;
            /* The pair's other sector is the next or previous stamp of the same page (a page
             * starts at an even sector). */
            an->footprint_pairs += st[sec[i] & 1 ? -1 : 1] == 0;
        }
        if (*st != an->stamp) {
            an->block_sectors++;
            *st = an->stamp;
        }
        if (an->track_rw) {
            uint8_t *kd = stamp_kinds(st, sec[i]);
            uint8_t was = *kd;
            *kd |= w->kind == RC_WORK_LOAD ? 1 : w->kind == RC_WORK_STORE ? 2 : 3;
            an->rewritten += was != 3 && *kd == 3;
        }
    }
    return A_OK;
}

/* One request to shared memory: its passes by each generation's bank rules (banks.h). */
static void shared_request(analysis *an, const int64_t *offset, uint32_t mask, bool atomic)
{
    int size = an->arr->elem_bytes;
    an->shared_requests += an->warp_mult;
    int64_t one = atomic ? rc_shared_atomic_passes(offset, mask, size, an->weight) : 0;
    an->wavefronts += (atomic ? one : rc_shared_passes(offset, mask, size, RC_BANKS_WORD)) *
                      an->warp_mult;
    an->wavefronts_pair += (atomic ? one : rc_shared_passes(offset, mask, size, RC_BANKS_PAIR)) *
                           an->warp_mult;
}

static int access_node(void *ctx, const rc_work *w, uint32_t mask)
{
    analysis *an = ctx;
    int64_t offset[WARP];
    if (!spend(an, __builtin_popcount(mask)))
        return A_BUDGET;
    const rc_work *lp = rc_warp_steps_loop(&an->stepping, w);
    for (int l = 0; l < WARP; l++) {
        if (!(mask >> l & 1))
            continue;
        int64_t idx, var = lp ? SLOT(an, l, lp->slot) : 0;
        if (!rc_warp_steps_get(&an->stepping, w, l, var, &idx)) {
            TRY(eval_lane(an, w, -1, l, &idx));
            rc_warp_steps_keep(&an->stepping, w, l, var, idx);
        }
        if (idx < 0 || idx >= an->arr->length) {
            const int64_t *v = &SLOT(an, l, 0);
            return fail(an, w,
                        "<%s> index %s = %lld is outside the array '%s' (0 to %lld) for thread "
                        "(%lld, %lld, %lld) of block (%lld, %lld, %lld)",
                        rc_work_element(w->kind), w->index_text, (long long)idx, an->arr->name,
                        (long long)(an->arr->length - 1), (long long)v[RC_SLOT_TID_X],
                        (long long)v[RC_SLOT_TID_Y], (long long)v[RC_SLOT_TID_Z],
                        (long long)v[RC_SLOT_BID_X], (long long)v[RC_SLOT_BID_Y],
                        (long long)v[RC_SLOT_BID_Z]);
        }
        if (idx < an->index_min)
            an->index_min = idx;
        if (idx > an->index_max)
            an->index_max = idx;
        offset[l] = idx * an->arr->elem_bytes;
    }
    if (an->arr->space == RC_SPACE_SHARED) {
        shared_request(an, offset, mask, w->kind == RC_WORK_ATOMIC);
        return A_OK;
    }
    return global_request(an, w, offset, mask);
}

/* The walk of warp.c over this analysis: its functions, then the walk. */

static int walk_spend(void *ctx, int lanes)
{
    return spend(ctx, lanes) ? A_OK : A_BUDGET;
}

static int walk_let(void *ctx, const rc_work *w, int lane)
{
    analysis *an = ctx;
    return eval_lane(an, w, 0, lane, &SLOT(an, lane, w->slot));
}

static int walk_eval(void *ctx, const rc_work *w, int which, int lane, int64_t *out)
{
    return eval_lane(ctx, w, which, lane, out);
}

static int walk_stuck(void *ctx, const rc_work *w)
{
    return fail(ctx, w, "<loop> '%s' does not end", w->name);
}

static int loop_node(void *ctx, const rc_work *w, uint32_t mask);

static const rc_warp_ops walk_ops = {
    .spend = walk_spend, .let = walk_let, .eval = walk_eval, .loop = loop_node,
    .access = access_node, .moved = NULL, .stuck = walk_stuck};

static rc_warp walk(analysis *an)
{
    return (rc_warp){&walk_ops, an, an->array, an->needed, an->reads, an->lanes, an->nslots};
}

/* A loop in lockstep (rc_warp_lockstep), each entry numbered for stepping
 * the indices affine in its variable. */
static int loop_node(void *ctx, const rc_work *w, uint32_t mask)
{
    analysis *an = ctx;
    int64_t c[WARP], bound[WARP];
    rc_warp wr = walk(an);
    TRY(rc_warp_loop_start(&wr, w, mask, c, bound));
    rc_warp_steps_enter(&an->stepping, w);
    return rc_warp_lockstep(&wr, w, mask, c, bound);
}

/* ---- what an array's accesses depend on -------------------------------- */

static void mark(const rc_expr *e, bool *reads, int nslots)
{
    if (e)
        rc_expr_mark_reads(e, reads, nslots);
}

/* The accesses each pass counts (rc_access_pass), as bits 1 << rc_work_kind: all of them, or
 * those that read or write the data (an atomic does both). */
static const unsigned pass_kinds[] = {
    [RC_ACCESS_PASS_ALL] = 1u << RC_WORK_LOAD | 1u << RC_WORK_STORE | 1u << RC_WORK_ATOMIC,
    [RC_ACCESS_PASS_READS] = 1u << RC_WORK_LOAD | 1u << RC_WORK_ATOMIC,
    [RC_ACCESS_PASS_WRITES] = 1u << RC_WORK_STORE | 1u << RC_WORK_ATOMIC,
};

/* The kinds of the accesses to `array` in the list, as bits 1 << rc_work_kind. */
static unsigned kinds_of(const rc_work *w, int array)
{
    unsigned kinds = 0;
    for (; w; w = w->next) {
        if (w->array == array && w->array >= 0)
            kinds |= 1u << w->kind;
        kinds |= kinds_of(w->children, array);
    }
    return kinds;
}

/* Marks needed[] for the nodes that are or contain accesses to `array` of
 * the `kinds`, and in reads[] the slots those accesses and their enclosing
 * guards and loops read. Returns whether the list holds such an access. */
static bool mark_needed(const rc_work *w, int array, unsigned kinds, bool *needed, bool *reads,
                        int nslots)
{
    bool any = false;
    for (; w; w = w->next) {
        bool here = w->array == array && w->array >= 0 && (kinds >> w->kind & 1u);
        if (w->children && mark_needed(w->children, array, kinds, needed, reads, nslots))
            here = true;
        needed[w->index] = here;
        if (!here)
            continue;
        any = true;
        for (int i = 0; i < RC_WORK_EXPRS; i++)
            if (w->kind == RC_WORK_WHEN || w->kind == RC_WORK_LOOP)
                mark(w->expr[i], reads, nslots);
        mark(w->index_expr, reads, nslots);
    }
    return any;
}

static int marked(const bool *reads, int nslots)
{
    int n = 0;
    for (int s = 0; s < nslots; s++)
        n += reads[s];
    return n;
}

/* Adds the reads of every let whose slot is read; *changed when that
 * marked more. */
static void close_over_lets(const rc_work *w, bool *reads, int nslots, bool *changed)
{
    for (; w; w = w->next) {
        if (w->kind == RC_WORK_LET && w->slot >= 0 && reads[w->slot]) {
            int before = marked(reads, nslots);
            mark(w->expr[0], reads, nslots);
            if (marked(reads, nslots) != before)
                *changed = true;
        }
        close_over_lets(w->children, reads, nslots, changed);
    }
}

/* ---- classes of blocks ---------------------------------------------- */

typedef struct {
    int axes[3], naxes;     /* the block axes the accesses read */
    int64_t classes;        /* blocks that differ */
    int64_t block_mult;     /* blocks each class stands for */
    int64_t rows[3];        /* the block's extent along x, y, z as run */
    int64_t thread_mult;    /* rows each run row stands for */
} shape;

static void make_shape(const rc_kernel *k, const bool *reads, shape *sh)
{
    sh->naxes = 0;
    sh->classes = sh->block_mult = sh->thread_mult = 1;
    for (int a = 0; a < 3; a++) {
        if (reads[RC_SLOT_BID_X + a]) {
            sh->axes[sh->naxes++] = a;
            sh->classes *= k->grid[a];
        } else
            sh->block_mult *= k->grid[a];
        sh->rows[a] = k->block[a];
    }
    /* Rows of z (then y) that nothing reads repeat the warps below them
     * exactly when those fill whole warps. */
    if (!reads[RC_SLOT_TID_Z] && (k->block[0] * k->block[1]) % WARP == 0) {
        sh->thread_mult *= k->block[2];
        sh->rows[2] = 1;
        if (!reads[RC_SLOT_TID_Y] && k->block[0] % WARP == 0) {
            sh->thread_mult *= k->block[1];
            sh->rows[1] = 1;
        }
    }
}

/* Runs every distinct warp of the block once, for as many warps as share
 * its signature: warps whose threads read the same indices make the same
 * accesses. */
static status run_block(analysis *an, const shape *sh, const int64_t bid[3])
{
    rc_warp_sig warps[1024 / WARP];
    int nwarps = rc_warp_signatures(an->reads, sh->rows, warps);
    rc_warp wr = walk(an);
    for (int i = 0; i < nwarps; i++) {
        const rc_warp_sig *w = &warps[i];
        for (int l = 0; l < w->n; l++) {
            int64_t *v = &SLOT(an, l, 0);
            for (int a = 0; a < 3; a++) {
                v[RC_SLOT_TID_X + a] = w->coord[l][a];
                v[RC_SLOT_BID_X + a] = bid[a];
            }
            an->weight[l] = w->weight[l];
        }
        an->warp_mult = w->count;
        TRY(rc_warp_run(&wr, an->k->work, rc_warp_lanes(w)));
    }
    return A_OK;
}

/* The block indices of class number `c` (mixed radix over the axes read). */
static void class_block(const rc_kernel *k, const shape *sh, int64_t c, int64_t bid[3])
{
    bid[0] = bid[1] = bid[2] = 0;
    for (int i = 0; i < sh->naxes; i++) {
        int a = sh->axes[i];
        bid[a] = c % k->grid[a];
        c /= k->grid[a];
    }
}

static uint32_t next_random(uint32_t *state)
{
    *state = *state * 1664525u + 1013904223u; /* Numerical Recipes' LCG */
    return *state;
}

static bool add_scaled(int64_t *acc, int64_t v, int64_t mult)
{
    int64_t p;
    return !__builtin_mul_overflow(v, mult, &p) && !__builtin_add_overflow(*acc, p, acc);
}

/* Runs `count` classes (all of them, or a stratified sample) and adds
 * their counts, scaled, to *out. */
static status run_classes(analysis *an, const shape *sh, int64_t count, rc_access_counts *out)
{
    const rc_kernel *k = an->k;
    uint32_t rng = RC_ACCESS_SEED;
    int64_t req = 0, acc = 0, sec = 0, sreq = 0, wave = 0, bsec = 0, bmax = 0, ssec = 0,
            slines = 0, wpair = 0, lextra = 0, multi = 0, l1q = 0, l1q2 = 0, l1q2x2 = 0,
            spart[4] = {0};
    for (int64_t i = 0; i < count; i++) {
        int64_t c = i;
        if (count < sh->classes) { /* one class from each of `count` strides */
            int64_t q = sh->classes / count, r = sh->classes % count;
            int64_t lo = i * q + (i < r ? i : r), width = q + (i < r);
            c = lo + (int64_t)(next_random(&rng) % (uint64_t)width);
        }
        int64_t bid[3];
        class_block(k, sh, c, bid);
        an->requests = an->accessed = an->sectors = 0;
        an->shared_requests = an->wavefronts = an->wavefronts_pair = an->block_sectors = 0;
        an->store_sectors = an->store_lines = an->atomic_lane_extra = an->atomic_multiword = 0;
        memset(an->store_part_lines, 0, sizeof an->store_part_lines);
        an->l1q = an->l1q2 = an->l1q2x2 = 0;
        an->stamp++;
        TRY(run_block(an, sh, bid));
        if (an->progress && ((i + 1) % 64 == 0 || i + 1 == count))
            an->progress(an->progress_ctx, an->arr->name, an->pass, i + 1, count);
        req += an->requests;
        acc += an->accessed;
        sec += an->sectors;
        sreq += an->shared_requests;
        wave += an->wavefronts;
        wpair += an->wavefronts_pair;
        bsec += an->block_sectors;
        ssec += an->store_sectors;
        slines += an->store_lines;
        for (int q = 0; q < 4; q++)
            spart[q] += an->store_part_lines[q];
        lextra += an->atomic_lane_extra;
        multi += an->atomic_multiword;
        l1q += an->l1q;
        l1q2 += an->l1q2;
        l1q2x2 += an->l1q2x2;
        if (an->block_sectors * 32 > bmax)
            bmax = an->block_sectors * 32;
    }
    /* Per class, every block and every folded row does the same; a sample
     * stands for classes / count as many classes. */
    int64_t mult = sh->block_mult * sh->thread_mult;
    double scale = (double)sh->classes / (double)count;
    /* The array's last sector alone in its pair: its other half, past the end, is not charged
     * (no access reaches it: an index outside the array stops the count, above). */
    int64_t end = rc_warp_end_sector(an->arr->length, an->arr->elem_bytes);
    bool end_alone = end >= 0 && touched(&an->map, end);
    int64_t footprint = an->footprint * 32, pairs = an->footprint_pairs * 64 - (end_alone ? 32 : 0);
    if (count < sh->classes) {
        double all = (double)footprint * scale, all_pairs = (double)pairs * scale;
        double most = (double)((an->arr->length * an->arr->elem_bytes + 31) / 32 * 32);
        double most_pairs = (double)((an->arr->length * an->arr->elem_bytes + 63) / 64 * 64);
        footprint = (int64_t)(all < most ? all : most);
        pairs = (int64_t)(all_pairs < most_pairs ? all_pairs : most_pairs);
    }
    int64_t vals[] = {req,       acc,          sec * 32, sreq,   wave, bsec * 32,
                      ssec * 32, slines * 128, wpair,    lextra, l1q,  l1q2, multi, l1q2x2,
                      spart[0],  spart[1],     spart[2], spart[3]};
    int64_t *dst[] = {&out->requests, &out->accessed_bytes, &out->sector_bytes,
                      &out->shared_requests, &out->shared_wavefronts, &out->block_sector_bytes,
                      &out->store_sector_bytes, &out->store_line_bytes,
                      &out->shared_wavefronts_pair, &out->atomic_lane_extra, &out->l1_quarters,
                      &out->l1_quarters_2, &out->atomic_multiword, &out->l1_quarters_2x2,
                      &out->store_part_lines[0], &out->store_part_lines[1],
                      &out->store_part_lines[2], &out->store_part_lines[3]};
    for (int i = 0; i < (int)(sizeof vals / sizeof vals[0]); i++) {
        int64_t m = i == 5 ? sh->block_mult : mult;
        int64_t v = vals[i];
        if (count < sh->classes)
            v = (int64_t)((double)v * scale + 0.5);
        if (!add_scaled(dst[i], v, m))
            return fail(an, NULL, "the memory counts of array '%s' overflow 64 bits", an->arr->name);
    }
    out->footprint_bytes = footprint;
    out->footprint_pair_bytes = pairs;
    out->block_footprint_max = bmax;
    if (an->track_rw) {
        double rewritten = (double)an->rewritten * 32 * (count < sh->classes ? scale : 1);
        out->rewritten_bytes = rewritten < (double)footprint ? (int64_t)rewritten : footprint;
        an->tracked_rw = true;
    }
    return A_OK;
}

/* An estimate of the lane-steps the exact analysis of the array takes:
 * the executions of its accesses and of the loops around them, over the
 * launch, divided by what projection saves. */
static int64_t estimate_steps(const rc_kernel *k, const bool *needed, const int64_t *executions,
                              const shape *sh)
{
    double total = 0;
    for (int i = 0; i < k->nwork; i++)
        if (needed[i])
            total += (double)executions[i];
    double saved = (double)sh->block_mult * (double)sh->thread_mult;
    double est = total / saved;
    return est > 9e18 ? INT64_MAX : (int64_t)est;
}

/* True when the subtree defines a let whose slot is read. */
static bool has_read_let(const analysis *an, const rc_work *w)
{
    for (; w; w = w->next)
        if ((w->kind == RC_WORK_LET && w->slot >= 0 && an->reads[w->slot]) ||
            has_read_let(an, w->children))
            return true;
    return false;
}

/* Finds, for each access to the array, whether it can be stepped. */
static void prepare_steps(analysis *an, const rc_work *w, const rc_work *loop)
{
    for (; w; w = w->next) {
        if (w->array == an->array && w->array >= 0)
            rc_warp_steps_set(&an->stepping, w, loop);
        if (w->kind == RC_WORK_LOOP) {
            bool steppable = (w->step_op == RC_STEP_ADD || w->step_op == RC_STEP_SUB) &&
                             !has_read_let(an, w->children);
            prepare_steps(an, w->children, steppable ? w : NULL);
        } else if (w->children)
            prepare_steps(an, w->children, loop);
    }
}

/* Adds "'name': why" to out->enumerated, or counts it among the arrays
 * that do not fit (said at the end, by rc_access_analyse). */
static void note_enumerated(rc_access *out, const char *name, const char *why)
{
    char item[400];
    snprintf(item, sizeof item, "%s'%s': %s", out->enumerated[0] ? "; " : "", name, why);
    size_t used = strlen(out->enumerated);
    if (out->enumerated_more == 0 && used + strlen(item) + 40 < sizeof out->enumerated)
        memcpy(out->enumerated + used, item, strlen(item) + 1);
    else
        out->enumerated_more++;
}

/* Whether array `i` is global and the launch both reads and writes it: an array whose
 * sectors both read and written count_rewritten counts (analysis.rewrites). */
static bool both_read_and_written(const rc_kernel *k, int i)
{
    unsigned kinds = kinds_of(k->work, i);
    return k->arrays[i].space != RC_SPACE_SHARED && (kinds & pass_kinds[RC_ACCESS_PASS_READS]) &&
           (kinds & pass_kinds[RC_ACCESS_PASS_WRITES]);
}

/* Counts the array's accesses of the pass into *ac, from a fresh stamp map. The pass of all
 * of them (out not NULL) also says in *out how they were counted (enumerated, sampled); the
 * passes of the reads and of the writes alone (out NULL) only give their footprints. */
static status analyse_array(analysis *an, const int64_t *executions, const rc_block_box *boxes,
                            size_t nboxes, bool enumerate, rc_access_pass pass,
                            rc_access_counts *ac, rc_access *out)
{
    const rc_kernel *k = an->k;
    unsigned kinds = pass_kinds[pass];
    an->pass = pass;
    an->stamp = 0;
    an->track_rw = pass == RC_ACCESS_PASS_ALL && an->rewrites;
    an->tracked_rw = false;
    if (!rc_pages_init(&an->map, page_bytes(an->track_rw)))
        return fail(an, NULL, "out of memory");
    memset(an->needed, 0, (size_t)(k->nwork > 0 ? k->nwork : 1) * sizeof *an->needed);
    memset(an->reads, 0, (size_t)an->nslots * sizeof *an->reads);
    mark_needed(k->work, an->array, kinds, an->needed, an->reads, an->nslots);
    for (bool changed = true; changed;) {
        changed = false;
        close_over_lets(k->work, an->reads, an->nslots, &changed);
    }
    if (!enumerate) {
        char why[160];
        rc_classes_status cs = rc_classes_count(k, an->array, an->needed, an->reads, boxes, nboxes,
                                                RC_ACCESS_BUDGET, ac, why, sizeof why);
        if (cs == RC_CLASSES_DONE)
            return A_OK;
        if (cs == RC_CLASSES_FAIL)
            return fail(an, NULL, "%s", why);
        if (out)
            note_enumerated(out, an->arr->name, why);
    }
    prepare_steps(an, k->work, NULL);
    shape sh;
    make_shape(k, an->reads, &sh);
    int64_t est = estimate_steps(k, an->needed, executions, &sh);
    int64_t count = sh.classes;
    an->budget = RC_ACCESS_BUDGET;
    if (est > RC_ACCESS_BUDGET / 2 && sh.classes > 1) {
        double per_class = (double)est / (double)sh.classes;
        double fit = (double)(RC_ACCESS_BUDGET / 2) / (per_class > 1 ? per_class : 1);
        count = fit < 1 ? 1 : (int64_t)fit;
        if (count > sh.classes)
            count = sh.classes;
    }
    an->steps = 0;
    an->footprint = an->footprint_pairs = 0;
    an->index_min = INT64_MAX;
    an->index_max = -1;
    an->rewritten = 0;
    status st = run_classes(an, &sh, count, ac);
    if (st == A_BUDGET && count > 1) {
        /* The estimate was short: start again on a smaller sample. */
        memset(ac, 0, sizeof *ac);
        rc_pages_free(&an->map);
        if (!rc_pages_init(&an->map, page_bytes(an->track_rw)))
            return fail(an, NULL, "out of memory");
        an->steps = 0;
        an->footprint = an->footprint_pairs = 0;
        an->rewritten = 0;
        count = count / 64 > 0 ? count / 64 : 1;
        st = run_classes(an, &sh, count, ac);
    }
    if (st == A_BUDGET)
        return fail(an, NULL,
                    "the accesses to array '%s' need more than %lld lane-steps to count even "
                    "for one block: its loops run too many iterations per thread",
                    an->arr->name, (long long)RC_ACCESS_BUDGET);
    if (st != A_OK)
        return st;
    ac->index_min = an->index_min;
    ac->index_max = an->index_max;
    if (count < sh.classes && out) {
        out->sampled = true;
        out->sample_blocks += count;
        out->sample_classes += sh.classes;
    }
    return A_OK;
}

/* The sectors of a global array that the launch both reads (loads, atomics) and writes
 * (stores, atomics), x 32. A cache that writes back (NVIDIA's L2) reads such a sector in and
 * later writes it out, so DRAM moves it twice where a sector only read, or only written
 * whole, moves once (traffic.c). The order of the accesses is not known here: a sector
 * written whole and then read needs no read-in, and is counted all the same (kernels that
 * update data read it first). An array whose pass of all its accesses was enumerated has
 * them from the kinds it kept a sector; else |reads| + |writes| - |all|, from a count (by
 * classes: cheap) of its reads alone and one of its writes alone. */
static status count_rewritten(analysis *an, const int64_t *executions, const rc_block_box *boxes,
                              size_t nboxes, bool enumerate, rc_access_counts *ac)
{
    if (!an->rewrites || an->tracked_rw)
        return A_OK;
    int64_t fp[2] = {0, 0};
    const rc_access_pass pass[2] = {RC_ACCESS_PASS_READS, RC_ACCESS_PASS_WRITES};
    for (int p = 0; p < 2; p++) {
        rc_access_counts part = {0};
        status st = analyse_array(an, executions, boxes, nboxes, enumerate, pass[p], &part, NULL);
        rc_pages_free(&an->map);
        if (st != A_OK)
            return st;
        fp[p] = part.footprint_bytes;
    }
    int64_t both = fp[0] + fp[1] - ac->footprint_bytes;
    int64_t most = fp[0] < fp[1] ? fp[0] : fp[1];
    /* Sampled passes can disagree by a sector or so; keep the count within what is possible. */
    ac->rewritten_bytes = both < 0 ? 0 : both > most ? most : both;
    return A_OK;
}

static bool sum_into(rc_access_counts *t, const rc_access_counts *a)
{
    bool ok = true;
    ok &= !__builtin_add_overflow(t->requests, a->requests, &t->requests);
    ok &= !__builtin_add_overflow(t->accessed_bytes, a->accessed_bytes, &t->accessed_bytes);
    ok &= !__builtin_add_overflow(t->sector_bytes, a->sector_bytes, &t->sector_bytes);
    ok &= !__builtin_add_overflow(t->footprint_bytes, a->footprint_bytes, &t->footprint_bytes);
    ok &= !__builtin_add_overflow(t->footprint_pair_bytes, a->footprint_pair_bytes,
                                  &t->footprint_pair_bytes);
    ok &= !__builtin_add_overflow(t->rewritten_bytes, a->rewritten_bytes, &t->rewritten_bytes);
    ok &= !__builtin_add_overflow(t->block_sector_bytes, a->block_sector_bytes, &t->block_sector_bytes);
    ok &= !__builtin_add_overflow(t->block_footprint_max, a->block_footprint_max, &t->block_footprint_max);
    ok &= !__builtin_add_overflow(t->shared_requests, a->shared_requests, &t->shared_requests);
    ok &= !__builtin_add_overflow(t->shared_wavefronts, a->shared_wavefronts, &t->shared_wavefronts);
    ok &= !__builtin_add_overflow(t->shared_wavefronts_pair, a->shared_wavefronts_pair,
                                  &t->shared_wavefronts_pair);
    ok &= !__builtin_add_overflow(t->store_sector_bytes, a->store_sector_bytes,
                                  &t->store_sector_bytes);
    ok &= !__builtin_add_overflow(t->store_line_bytes, a->store_line_bytes, &t->store_line_bytes);
    for (int k = 0; k < 4; k++)
        ok &= !__builtin_add_overflow(t->store_part_lines[k], a->store_part_lines[k],
                                      &t->store_part_lines[k]);
    ok &= !__builtin_add_overflow(t->atomic_lane_extra, a->atomic_lane_extra,
                                  &t->atomic_lane_extra);
    ok &= !__builtin_add_overflow(t->atomic_multiword, a->atomic_multiword, &t->atomic_multiword);
    ok &= !__builtin_add_overflow(t->l1_quarters, a->l1_quarters, &t->l1_quarters);
    ok &= !__builtin_add_overflow(t->l1_quarters_2, a->l1_quarters_2, &t->l1_quarters_2);
    ok &= !__builtin_add_overflow(t->l1_quarters_2x2, a->l1_quarters_2x2, &t->l1_quarters_2x2);
    return ok;
}

/* The analysis' tables for kernel k, one entry per work node or slot
 * (analysis_free frees them). False when out of memory. */
static bool analysis_init(analysis *an, const rc_kernel *k)
{
    size_t nn = (size_t)(k->nwork > 0 ? k->nwork : 1);
    an->k = k;
    an->nslots = k->nslots > RC_SLOT_FIRST_FREE ? k->nslots : RC_SLOT_FIRST_FREE;
    an->needed = calloc(nn, sizeof *an->needed);
    an->reads = calloc((size_t)an->nslots, sizeof *an->reads);
    an->lanes = calloc((size_t)WARP * (size_t)an->nslots, sizeof *an->lanes);
    bool stepping = rc_warp_steps_init(&an->stepping, k->nwork);
    return an->needed && an->reads && an->lanes && stepping;
}

static void analysis_free(analysis *an)
{
    free(an->needed);
    free(an->reads);
    free(an->lanes);
    rc_warp_steps_free(&an->stepping);
}

/* Legacy accesses (declared bytes without an address): coalesced, no
 * reuse (access.h). */
static void count_legacy(rc_access_counts *lg, int64_t legacy_bytes, int64_t legacy_block_max)
{
    lg->requests = legacy_bytes / 128 + (legacy_bytes % 128 != 0);
    lg->accessed_bytes = lg->sector_bytes = lg->footprint_bytes = legacy_bytes;
    lg->footprint_pair_bytes = legacy_bytes; /* coalesced: whole pairs */
    lg->block_sector_bytes = legacy_bytes;
    lg->block_footprint_max = legacy_block_max;
}

bool rc_access_analyse(const rc_kernel *k, const int64_t *executions, int64_t legacy_bytes,
                       int64_t legacy_block_max, const rc_block_box *boxes, size_t nboxes,
                       bool enumerate, rc_access_progress progress, void *progress_ctx,
                       rc_access *out, const rc_work **node, char *message, size_t n)
{
    memset(out, 0, sizeof *out);
    *node = NULL;
    message[0] = '\0';
    out->sample_seed = RC_ACCESS_SEED;
    out->narrays = (int)k->narrays;
    out->arrays = calloc(k->narrays + 1, sizeof *out->arrays);
    analysis an = {0};
    bool ok = false;
    if (!analysis_init(&an, k) || !out->arrays) {
        snprintf(message, n, "out of memory");
        goto end;
    }
    an.fail_node = node;
    an.progress = progress;
    an.progress_ctx = progress_ctx;
    an.message = message;
    an.message_len = n;
    for (size_t i = 0; i < k->narrays; i++) {
        an.array = (int)i;
        an.arr = &k->arrays[i];
        an.rewrites = both_read_and_written(k, (int)i);
        status st = analyse_array(&an, executions, boxes, nboxes, enumerate, RC_ACCESS_PASS_ALL,
                                  &out->arrays[i], out);
        rc_pages_free(&an.map);
        if (st == A_OK)
            st = count_rewritten(&an, executions, boxes, nboxes, enumerate, &out->arrays[i]);
        if (st != A_OK)
            goto end;
    }
    if (out->enumerated_more > 0) {
        size_t used = strlen(out->enumerated);
        snprintf(out->enumerated + used, sizeof out->enumerated - used, "; and %d more arrays",
                 out->enumerated_more);
    }
    for (size_t i = 0; i < k->narrays; i++)
        out->arrays[i].read_only_path = k->arrays[i].read_only_path;
    count_legacy(&out->legacy, legacy_bytes, legacy_block_max);
    ok = sum_into(&out->total, &out->legacy);
    for (size_t i = 0; ok && i < k->narrays; i++)
        ok = sum_into(&out->total, &out->arrays[i]);
    if (!ok)
        snprintf(message, n, "the memory counts of the launch overflow 64 bits");
end:
    analysis_free(&an);
    if (!ok)
        rc_access_release(out);
    return ok;
}

void rc_access_release(rc_access *a)
{
    free(a->arrays);
    a->arrays = NULL;
}
