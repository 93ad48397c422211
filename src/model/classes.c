/* classes.c: exact memory counts by classes. See classes.h and
 * docs/counting.md.
 *
 * Why it is exact. Inside one of the evaluator's boxes of blocks every
 * thread takes the same guards and runs the same trip counts in every
 * block, so a warp's requests are the same in every block but for their
 * addresses. When each access's index is affine in the block indices,
 * with the same coefficients for every access to the array, block b's
 * accesses are block a's moved by D = K . (b - a) x element bytes. A
 * request's distinct sectors, lines and banks depend on D only modulo 128
 * bytes, so the blocks of a box fall into at most 128 classes, one block
 * run for each. A block's sectors are the representative's moved by D /
 * 32 when D is a multiple of 32 bytes, so the union over a box is the
 * union of the representative's sectors moved along a lattice.
 *
 * Loops: a counted loop (+=, no `while`) whose body decides nothing on
 * its variable (no guard, loop bound or read let in the body reads it)
 * and whose accesses are affine in it repeats its iteration j's requests
 * at iteration j + P, moved by P x the per-iteration step, where P makes
 * every access's step a multiple of 128 bytes. Iterations j0 .. j0 + P - 1
 * of each stretch with the same active lanes are run, each counted for
 * the iterations it stands for, its sectors with a generator (step,
 * count) that the footprint unions expand.
 *
 * Anything these arguments do not cover - a non-affine index, accesses
 * that move differently, an index whose range over the box cannot be
 * bounded, an evaluation error - returns RC_CLASSES_ENUMERATE, and
 * access.c runs every distinct warp as before (which reports the error,
 * if it is one).
 */
#include "model/classes.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input/load.h"

#define WARP 32
#define MAX_DEPTH 16 /* loops nested around an access, at most, to be counted by classes */
#define MAX_GENS (MAX_DEPTH + 3)
#define PAGE_BITS 16 /* sectors per page of the bitmap: 65,536 */
#define PAGE_WORDS ((size_t)1 << (PAGE_BITS - 6))

/* ---- a sparse bitmap of sectors ----------------------------------------- */

typedef struct {
    int64_t page; /* sector >> PAGE_BITS, or -1 when free */
    uint64_t *bits;
} bpage;

typedef struct {
    bpage *table; /* open addressing, a power of two long */
    size_t size, used;
    bpage *last;
    int64_t count; /* bits set */
} bitmap;

static bool bm_init(bitmap *m)
{
    m->size = 16;
    m->used = 0;
    m->last = NULL;
    m->count = 0;
    m->table = malloc(m->size * sizeof *m->table);
    if (!m->table)
        return false;
    for (size_t i = 0; i < m->size; i++)
        m->table[i] = (bpage){-1, NULL};
    return true;
}

static void bm_free(bitmap *m)
{
    for (size_t i = 0; m->table && i < m->size; i++)
        if (m->table[i].page >= 0)
            free(m->table[i].bits);
    free(m->table);
    m->table = NULL;
}

static size_t bm_hash(int64_t page, size_t size)
{
    return (size_t)(((uint64_t)page * 0x9E3779B97F4A7C15ULL) >> 24) & (size - 1);
}

static bool bm_grow(bitmap *m)
{
    size_t size = m->size * 2;
    bpage *t = malloc(size * sizeof *t);
    if (!t)
        return false;
    for (size_t i = 0; i < size; i++)
        t[i] = (bpage){-1, NULL};
    for (size_t i = 0; i < m->size; i++) {
        if (m->table[i].page < 0)
            continue;
        size_t h = bm_hash(m->table[i].page, size);
        while (t[h].page >= 0)
            h = (h + 1) & (size - 1);
        t[h] = m->table[i];
    }
    free(m->table);
    m->table = t;
    m->size = size;
    m->last = NULL;
    return true;
}

static uint64_t *bm_page(bitmap *m, int64_t page)
{
    if (m->last && m->last->page == page)
        return m->last->bits;
    size_t h = bm_hash(page, m->size);
    while (m->table[h].page >= 0 && m->table[h].page != page)
        h = (h + 1) & (m->size - 1);
    if (m->table[h].page < 0) {
        if (2 * (m->used + 1) > m->size) {
            if (!bm_grow(m))
                return NULL;
            return bm_page(m, page);
        }
        uint64_t *bits = calloc(PAGE_WORDS, sizeof *bits);
        if (!bits)
            return NULL;
        m->table[h] = (bpage){page, bits};
        m->used++;
    }
    m->last = &m->table[h];
    return m->last->bits;
}

/* Sets sectors first .. first + n - 1 (n >= 1, first >= 0). */
static bool bm_set(bitmap *m, int64_t first, int64_t n)
{
    int64_t end = first + n;
    while (first < end) {
        int64_t page = first >> PAGE_BITS, page_end = (page + 1) << PAGE_BITS;
        int64_t stop = end < page_end ? end : page_end;
        uint64_t *bits = bm_page(m, page);
        if (!bits)
            return false;
        size_t a = (size_t)(first - (page << PAGE_BITS)), b = (size_t)(stop - (page << PAGE_BITS));
        while (a < b) {
            size_t w = a >> 6, lo = a & 63, hi = (b - (a & ~(size_t)63)) < 64 ? (b & 63) : 64;
            uint64_t mask = (hi == 64 ? ~0ULL : ((1ULL << hi) - 1)) & ~((1ULL << lo) - 1);
            uint64_t fresh = mask & ~bits[w];
            if (fresh == ~0ULL)
                m->count += 64;
            else if (fresh)
                m->count += __builtin_popcountll(fresh);
            bits[w] |= mask;
            a = (a & ~(size_t)63) + hi;
        }
        first = stop;
    }
    return true;
}

/* Clears sectors first .. first + n - 1 where pages exist, uncounting
 * them. */
static void bm_clear(bitmap *m, int64_t first, int64_t n)
{
    int64_t end = first + n;
    while (first < end) {
        int64_t page = first >> PAGE_BITS, page_end = (page + 1) << PAGE_BITS;
        int64_t stop = end < page_end ? end : page_end;
        size_t h = bm_hash(page, m->size);
        while (m->table[h].page >= 0 && m->table[h].page != page)
            h = (h + 1) & (m->size - 1);
        uint64_t *bits = m->table[h].page == page ? m->table[h].bits : NULL;
        size_t a = (size_t)(first - (page << PAGE_BITS)), b = (size_t)(stop - (page << PAGE_BITS));
        while (bits && a < b) {
            size_t w = a >> 6, lo = a & 63, hi = (b - (a & ~(size_t)63)) < 64 ? (b & 63) : 64;
            uint64_t mask = (hi == 64 ? ~0ULL : ((1ULL << hi) - 1)) & ~((1ULL << lo) - 1);
            if (bits[w] & mask) {
                m->count -= __builtin_popcountll(bits[w] & mask);
                bits[w] &= ~mask;
            }
            a = (a & ~(size_t)63) + hi;
        }
        first = stop;
    }
}

/* A set of sectors: long runs kept as runs (so that a footprint of a
 * billion sectors costs one entry), short ones in the bitmap. */
#define LONG_RUN 4096

typedef struct {
    int64_t first, n;
} run_t;

typedef struct {
    bitmap bm;
    run_t *runs;
    size_t nruns, cap;
} secset;

static bool ss_init(secset *s)
{
    s->runs = NULL;
    s->nruns = s->cap = 0;
    return bm_init(&s->bm);
}

static void ss_free(secset *s)
{
    bm_free(&s->bm);
    free(s->runs);
    s->runs = NULL;
}

static bool ss_add(secset *s, int64_t first, int64_t n)
{
    if (n < LONG_RUN)
        return bm_set(&s->bm, first, n);
    if (s->nruns == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 64;
        run_t *r = realloc(s->runs, cap * sizeof *r);
        if (!r)
            return false;
        s->runs = r;
        s->cap = cap;
    }
    s->runs[s->nruns++] = (run_t){first, n};
    return true;
}

static int cmp_run(const void *pa, const void *pb)
{
    const run_t *a = pa, *b = pb;
    return (a->first > b->first) - (a->first < b->first);
}

/* The sectors in the set (it is spent: call once, then ss_free). */
static int64_t ss_count(secset *s)
{
    if (s->nruns > 1)
        qsort(s->runs, s->nruns, sizeof *s->runs, cmp_run);
    int64_t total = 0, a = 0, b = -1; /* the merged run a .. b - 1 being built */
    for (size_t i = 0; i <= s->nruns; i++) {
        if (i < s->nruns && s->runs[i].first <= b) {
            int64_t end = s->runs[i].first + s->runs[i].n;
            if (end > b)
                b = end;
            continue;
        }
        if (b > a) {
            total += b - a;
            bm_clear(&s->bm, a, b - a);
        }
        if (i < s->nruns) {
            a = s->runs[i].first;
            b = a + s->runs[i].n;
        }
    }
    return total + s->bm.count;
}

/* ---- generators: a run repeated at steps of t sectors, m times ---------- */

typedef struct {
    int64_t t, m;
} gen;

typedef struct {
    int n;
    int64_t shift; /* sectors added to the run, from the negative steps made positive */
    gen g[MAX_DEPTH];
} genlist;

/* Makes every step positive (moving the start), drops steps that change
 * nothing and sorts the rest by step. False on overflow. */
static bool normalise(gen *g, int *n, int64_t *shift)
{
    int k = 0;
    for (int i = 0; i < *n; i++) {
        if (g[i].t == 0 || g[i].m <= 1)
            continue;
        if (g[i].t < 0) {
            int64_t s;
            if (g[i].t == INT64_MIN || __builtin_mul_overflow(g[i].t, g[i].m - 1, &s) ||
                __builtin_add_overflow(*shift, s, shift))
                return false;
            g[i].t = -g[i].t;
        }
        g[k++] = g[i];
    }
    *n = k;
    for (int i = 1; i < k; i++)
        for (int j = i; j > 0 && g[j].t < g[j - 1].t; j--) {
            gen x = g[j];
            g[j] = g[j - 1];
            g[j - 1] = x;
        }
    return true;
}

/* Sets the union over the lattice of runs first + sum k_i t_i .. + n - 1.
 * Steps sorted ascending, positive: while a step is at most the run's
 * length the copies along it overlap or touch and make one run; the
 * others are enumerated. */
static bool set_lattice(secset *m, int64_t first, int64_t n, const gen *g, int ng)
{
    int i = 0;
    while (i < ng && g[i].t <= n) {
        n += (g[i].m - 1) * g[i].t;
        i++;
    }
    if (i == ng)
        return ss_add(m, first, n);
    for (int64_t k = 0; k < g[i].m; k++)
        if (!set_lattice(m, first + k * g[i].t, n, g + i + 1, ng - i - 1))
            return false;
    return true;
}

/* ---- the analysis ------------------------------------------------------- */

typedef enum { C_OK, C_ENUM, C_FAIL } cstatus;

typedef struct {
    int64_t requests, accessed, sectors, store_sectors, store_lines, shared_requests, wavefronts;
} rcounts;

typedef struct {
    int64_t first, n; /* sectors */
    int gid;          /* its generators, in lists[] */
} atom;

typedef struct {
    int64_t bid[3];
    rcounts c;        /* of one block */
    atom *atoms;      /* owned; merged runs */
    size_t natoms;
    int64_t distinct; /* sectors one block touches */
    int64_t blocks;   /* blocks of the box it stands for */
} rep;

typedef struct {
    int depth;   /* of the loop among all loops around the access */
    int64_t P, c, m;
} frame;

typedef struct {
    const rc_kernel *k;
    int array;
    const rc_array *arr;
    const bool *needed, *reads;
    int nslots, nwork;
    int64_t *pt, *lo, *hi; /* [WARP][nslots]: point (the representative) and range (the box) */
    int64_t *wlo, *whi;    /* [nslots]: the ranges of a warp's active lanes together */
    int64_t weight[WARP], warp_mult;
    /* static */
    bool *compress;      /* by node: a loop counted by classes of iterations */
    int *depth;          /* by node: loops around it */
    int64_t *coef;       /* [node][MAX_DEPTH]: an access's coefficient on each enclosing loop's variable */
    bool *coef_ok;       /* [node][MAX_DEPTH] */
    int64_t K[3];        /* the accesses' coefficients on the block indices */
    /* dynamic */
    frame stack[MAX_DEPTH];
    int nstack;
    uint64_t version;
    int *cache_gid;
    uint64_t *cache_ver;
    genlist *lists;
    int nlists, cap_lists;
    atom *atoms;
    size_t natoms, cap_atoms;
    rcounts cur;
    int64_t steps, budget;
    char *why;
    size_t why_len;
} cls;

static cstatus enumerate(cls *c, const char *fmt, ...) RC_PRINTF(2, 3);

static cstatus enumerate(cls *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->why, c->why_len, fmt, ap);
    va_end(ap);
    return C_ENUM;
}

static cstatus oom(cls *c)
{
    snprintf(c->why, c->why_len, "out of memory");
    return C_FAIL;
}

#define PT(c, l, s) ((c)->pt[(size_t)(l) * (size_t)(c)->nslots + (size_t)(s)])
#define LO(c, l, s) ((c)->lo[(size_t)(l) * (size_t)(c)->nslots + (size_t)(s)])
#define HI(c, l, s) ((c)->hi[(size_t)(l) * (size_t)(c)->nslots + (size_t)(s)])
#define TRY(call)                   \
    do {                            \
        cstatus st_ = (call);       \
        if (st_ != C_OK)            \
            return st_;             \
    } while (0)

static bool spend(cls *c, int64_t n)
{
    c->steps += n;
    return c->steps <= c->budget;
}

static cstatus over_budget(cls *c)
{
    return enumerate(c, "its classes alone need more than %lld lane-steps", (long long)c->budget);
}

/* A lane's value of e at the representative, and its range over the box
 * (unbounded when interval evaluation cannot bound it). */
static cstatus eval2(cls *c, const rc_expr *e, int l, int64_t *v, int64_t *vlo, int64_t *vhi)
{
    rc_expr_error err;
    if (!rc_expr_eval(e, &PT(c, l, 0), v, &err))
        return enumerate(c, "an expression fails at some thread (%s)", err.message);
    if (vlo && !rc_expr_eval_range(e, &LO(c, l, 0), &HI(c, l, 0), vlo, vhi)) {
        *vlo = INT64_MIN;
        *vhi = INT64_MAX;
    }
    return C_OK;
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static int cmp_atom(const void *pa, const void *pb)
{
    const atom *a = pa, *b = pb;
    if (a->gid != b->gid)
        return a->gid < b->gid ? -1 : 1;
    return (a->first > b->first) - (a->first < b->first);
}

static int distinct(int64_t *v, int n)
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

static bool add_mul(int64_t *acc, int64_t v, int64_t m)
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
            return enumerate(c, "a loop's step in bytes overflows");
        gl.g[gl.n++] = (gen){t / 32, f->m}; /* a multiple of 128 bytes by the choice of P */
    }
    if (!normalise(gl.g, &gl.n, &gl.shift))
        return enumerate(c, "a loop's reach in bytes overflows");
    int i = 0;
    while (i < c->nlists && !(c->lists[i].n == gl.n && c->lists[i].shift == gl.shift &&
                              memcmp(c->lists[i].g, gl.g, (size_t)gl.n * sizeof gl.g[0]) == 0))
        i++;
    if (i == c->nlists) {
        if (c->nlists == c->cap_lists) {
            int cap = c->cap_lists ? 2 * c->cap_lists : 16;
            genlist *l = realloc(c->lists, (size_t)cap * sizeof *l);
            if (!l)
                return oom(c);
            c->lists = l;
            c->cap_lists = cap;
        }
        c->lists[c->nlists++] = gl;
    }
    c->cache_ver[w->index] = c->version;
    c->cache_gid[w->index] = i;
    *gid = i;
    return C_OK;
}

static cstatus add_atom(cls *c, int64_t first, int64_t n, int gid)
{
    if (c->natoms == c->cap_atoms) {
        size_t cap = c->cap_atoms ? 2 * c->cap_atoms : 256;
        atom *a = realloc(c->atoms, cap * sizeof *a);
        if (!a)
            return oom(c);
        c->atoms = a;
        c->cap_atoms = cap;
    }
    c->atoms[c->natoms++] = (atom){first, n, gid};
    return C_OK;
}

/* The requests and words or sectors of an access, for the lanes of mask,
 * standing for warp_mult warps x the iterations of the stack. */
static cstatus access_node(cls *c, const rc_work *w, uint32_t mask)
{
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
            return enumerate(c, "the index %s of <%s> at line %d cannot be shown to stay in the "
                             "array over a class", w->index_text, rc_work_element(w->kind), w->line);
        offset[l] = idx * size;
        threads += c->weight[l];
    }
    int64_t mult = c->warp_mult;
    for (int i = 0; i < c->nstack; i++)
        if (__builtin_mul_overflow(mult, c->stack[i].m, &mult))
            return enumerate(c, "a count overflows");
    rcounts *r = &c->cur;
    if (c->arr->space == RC_SPACE_SHARED) {
        int64_t words[4 * WARP];
        int n = 0;
        for (int l = 0; l < WARP; l++)
            if (mask >> l & 1)
                for (int64_t wd = offset[l] / 4; wd <= (offset[l] + size - 1) / 4; wd++)
                    words[n++] = wd;
        int d = distinct(words, n);
        int per_bank[32] = {0}, most = 0;
        for (int i = 0; i < d; i++) {
            int b = (int)(words[i] % 32);
            if (++per_bank[b] > most)
                most = per_bank[b];
        }
        if (!add_mul(&r->shared_requests, 1, mult) || !add_mul(&r->wavefronts, most, mult))
            return enumerate(c, "a count overflows");
        return C_OK;
    }
    int64_t sec[2 * WARP];
    int n = 0;
    for (int l = 0; l < WARP; l++) {
        if (!(mask >> l & 1))
            continue;
        for (int64_t s = offset[l] / 32; s <= (offset[l] + size - 1) / 32; s++)
            sec[n++] = s;
    }
    int d = distinct(sec, n), lines = 0;
    for (int i = 0; i < d; i++)
        if (i == 0 || sec[i] / 4 != sec[i - 1] / 4)
            lines++;
    bool ok = add_mul(&r->requests, 1, mult) && add_mul(&r->accessed, threads * size, mult) &&
              add_mul(&r->sectors, d, mult);
    if (w->kind == RC_WORK_STORE || w->kind == RC_WORK_ATOMIC)
        ok = ok && add_mul(&r->store_sectors, d, mult) && add_mul(&r->store_lines, lines, mult);
    if (!ok)
        return enumerate(c, "a count overflows");
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

static cstatus run(cls *c, const rc_work *w, uint32_t mask);

/* for (v = a; v < b; v += c) */
static uint64_t trips(int64_t a, int64_t b, int64_t c)
{
    return a < b ? ((uint64_t)b - (uint64_t)a - 1) / (uint64_t)c + 1 : 0;
}

static uint64_t gcd(uint64_t a, uint64_t b)
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
            int64_t p = (int64_t)(128 / gcd(128, r));
            P = P / (int64_t)gcd((uint64_t)P, (uint64_t)p) * p;
        }
        if (w->children && c->needed[w->index]) {
            int64_t q = period(c, w->children, depth, step);
            if (q == 0)
                return 0;
            P = P / (int64_t)gcd((uint64_t)P, (uint64_t)q) * q;
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
            return enumerate(c, "<loop> '%s' runs out of the 64-bit range", w->name);
        n[l] = (int64_t)t;
        ends[nends++] = (int64_t)t;
    }
    int depth = c->depth[w->index];
    int64_t P = period(c, w->children, depth, s);
    if (P == 0 || c->nstack == MAX_DEPTH) {
        c->why[0] = '\0';
        return C_ENUM;
    }
    nends = distinct(ends, nends);
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
                    return enumerate(c, "<loop> '%s' runs out of the 64-bit range", w->name);
                TRY(run(c, w->children, live));
            }
        } else {
            for (int64_t r = 0; r < P; r++) {
                int64_t m = (len - r + P - 1) / P, j = j0 + r;
                if (!spend(c, __builtin_popcount(live)))
                    return over_budget(c);
                if (!set_var(c, w, live, v0, flo, fhi, step, j, j + (m - 1) * P))
                    return enumerate(c, "<loop> '%s' runs out of the 64-bit range", w->name);
                c->stack[c->nstack++] = (frame){depth, P, s, m};
                c->version++;
                cstatus st = run(c, w->children, live);
                c->nstack--;
                c->version++;
                TRY(st);
            }
        }
        j0 = j1;
    }
    return C_OK;
}

/* v op= c; false when it leaves the 64-bit range (access.c's step()). */
static bool step_value(rc_step_op op, int64_t v, int64_t c, int64_t *out)
{
    switch (op) {
    case RC_STEP_ADD: return !__builtin_add_overflow(v, c, out);
    case RC_STEP_SUB: return !__builtin_sub_overflow(v, c, out);
    case RC_STEP_MUL: return !__builtin_mul_overflow(v, c, out);
    case RC_STEP_DIV: if (c == 0) return false; *out = v / c; return true;
    case RC_STEP_SHL:
        if (c < 0 || c > 62 || v < 0 || v > (INT64_MAX >> c))
            return false;
        *out = v << c;
        return true;
    case RC_STEP_SHR: if (c < 0 || c >= 63) return false; *out = v >> c; return true;
    }
    return false;
}

/* A loop in lockstep (as access.c runs it), or by classes of iterations. */
static cstatus loop_node(cls *c, const rc_work *w, uint32_t mask)
{
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
    uint32_t live = mask;
    while (live) {
        if (!spend(c, __builtin_popcount(live)))
            return over_budget(c);
        uint32_t go = 0;
        for (int l = 0; l < WARP; l++) {
            if (!(live >> l & 1))
                continue;
            int64_t t;
            if (w->loop_while)
                TRY(eval2(c, w->expr[1], l, &t, NULL, NULL));
            else
                t = PT(c, l, w->slot) < bound[l];
            if (t)
                go |= 1u << l;
        }
        live = go;
        if (!live)
            break;
        TRY(run(c, w->children, live));
        for (int l = 0; l < WARP; l++) {
            if (!(live >> l & 1))
                continue;
            int64_t *v = &PT(c, l, w->slot), next = 0;
            if (!step_value(w->step_op, *v, step[l], &next) || next == *v)
                return enumerate(c, "<loop> '%s' does not end", w->name);
            int64_t *lo = &LO(c, l, w->slot), *hi = &HI(c, l, w->slot), d;
            bool shift = w->step_op == RC_STEP_ADD || w->step_op == RC_STEP_SUB;
            if (*lo == *v && *hi == *v) {
                *lo = *hi = next;
            } else if (!shift || *lo == INT64_MIN || *hi == INT64_MAX ||
                       __builtin_sub_overflow(next, *v, &d) ||
                       __builtin_add_overflow(*lo, d, lo) || __builtin_add_overflow(*hi, d, hi)) {
                *lo = INT64_MIN;
                *hi = INT64_MAX;
            }
            *v = next;
        }
    }
    return C_OK;
}

static cstatus run(cls *c, const rc_work *w, uint32_t mask)
{
    for (; w; w = w->next) {
        switch (w->kind) {
        case RC_WORK_LET:
            if (w->slot < 0 || !c->reads[w->slot])
                break;
            if (!spend(c, __builtin_popcount(mask)))
                return over_budget(c);
            for (int l = 0; l < WARP; l++)
                if (mask >> l & 1)
                    TRY(eval2(c, w->expr[0], l, &PT(c, l, w->slot), &LO(c, l, w->slot),
                              &HI(c, l, w->slot)));
            break;
        case RC_WORK_WHEN: {
            if (!c->needed[w->index])
                break;
            if (!spend(c, __builtin_popcount(mask)))
                return over_budget(c);
            uint32_t taken = 0;
            for (int l = 0; l < WARP; l++) {
                int64_t t;
                if (!(mask >> l & 1))
                    continue;
                TRY(eval2(c, w->expr[0], l, &t, NULL, NULL));
                if (t)
                    taken |= 1u << l;
            }
            if (taken)
                TRY(run(c, w->children, taken));
            break;
        }
        case RC_WORK_LOOP:
            if (c->needed[w->index])
                TRY(loop_node(c, w, mask));
            break;
        case RC_WORK_LOAD:
        case RC_WORK_STORE:
        case RC_WORK_ATOMIC:
            if (w->array == c->array)
                TRY(access_node(c, w, mask));
            break;
        default:
            break;
        }
    }
    return C_OK;
}

/* ---- what is affine in what --------------------------------------------- */

/* How a slot moves with the block indices. */
typedef enum { S_INDEP, S_AFFINE, S_OTHER } dep_kind;

typedef struct {
    dep_kind kind;
    int64_t k[3]; /* S_AFFINE: the coefficients on blockIdx.x, y, z */
} dep;

/* How e moves with the block indices, given its slots'. */
static dep expr_dep(const rc_expr *e, const dep *slots, int nslots, bool *tmp)
{
    dep d = {S_INDEP, {0, 0, 0}};
    memset(tmp, 0, (size_t)nslots * sizeof *tmp);
    rc_expr_mark_reads(e, tmp, nslots);
    for (int s = 0; s < nslots; s++) {
        if (!tmp[s] || slots[s].kind == S_INDEP)
            continue;
        if (slots[s].kind == S_OTHER)
            return (dep){S_OTHER, {0, 0, 0}};
        int64_t co;
        if (!rc_expr_affine(e, s, &co))
            return (dep){S_OTHER, {0, 0, 0}};
        d.kind = S_AFFINE;
        for (int a = 0; a < 3; a++)
            if (!add_mul(&d.k[a], slots[s].k[a], co))
                return (dep){S_OTHER, {0, 0, 0}};
    }
    return d;
}

static void slot_deps(const rc_work *w, dep *slots, int nslots, bool *tmp)
{
    for (; w; w = w->next) {
        if (w->slot >= 0 && w->slot < nslots) {
            if (w->kind == RC_WORK_LET)
                slots[w->slot] = expr_dep(w->expr[0], slots, nslots, tmp);
            else if (w->kind == RC_WORK_LOOP) {
                dep d = expr_dep(w->expr[0], slots, nslots, tmp);
                /* var = from + j x step (step the same over a box); other
                 * steps do not keep an affine start affine */
                if (d.kind == S_AFFINE && w->step_op != RC_STEP_ADD && w->step_op != RC_STEP_SUB)
                    d.kind = S_OTHER;
                slots[w->slot] = d;
            }
        }
        slot_deps(w->children, slots, nslots, tmp);
    }
}

static bool has_read_let(const cls *c, const rc_work *w)
{
    for (; w; w = w->next)
        if ((w->kind == RC_WORK_LET && w->slot >= 0 && c->reads[w->slot]) ||
            has_read_let(c, w->children))
            return true;
    return false;
}

/* True when no guard or loop around the array's accesses in the subtree
 * reads `slot`, and every access to the array is affine in it (its
 * coefficient stored at `depth`). */
static bool body_ok(cls *c, const rc_work *w, int slot, int depth, bool *tmp)
{
    for (; w; w = w->next) {
        if (!c->needed[w->index])
            continue;
        if (w->kind == RC_WORK_WHEN || w->kind == RC_WORK_LOOP) {
            memset(tmp, 0, (size_t)c->nslots * sizeof *tmp);
            for (int i = 0; i < RC_WORK_EXPRS; i++)
                if (w->expr[i])
                    rc_expr_mark_reads(w->expr[i], tmp, c->nslots);
            if (tmp[slot])
                return false;
        }
        if (w->array == c->array && w->array >= 0 &&
            !c->coef_ok[(size_t)w->index * MAX_DEPTH + (size_t)depth])
            return false;
        if (w->children && !body_ok(c, w->children, slot, depth, tmp))
            return false;
    }
    return true;
}

/* Fills depth[], coef[] and compress[] for the subtree at loop depth d. */
static void prepare(cls *c, const rc_work *w, const rc_work **loops, int d, bool *tmp)
{
    for (; w; w = w->next) {
        c->depth[w->index] = d;
        if (w->array == c->array && w->array >= 0)
            for (int i = 0; i < d && i < MAX_DEPTH; i++) {
                size_t at = (size_t)w->index * MAX_DEPTH + (size_t)i;
                c->coef_ok[at] = rc_expr_affine(w->index_expr, loops[i]->slot, &c->coef[at]);
            }
        if (w->kind == RC_WORK_LOOP && w->slot >= 0) {
            if (d < MAX_DEPTH)
                loops[d] = w;
            prepare(c, w->children, loops, d + 1, tmp);
            c->compress[w->index] = d < MAX_DEPTH && c->needed[w->index] && !w->loop_while &&
                                    w->step_op == RC_STEP_ADD && !has_read_let(c, w->children) &&
                                    body_ok(c, w->children, w->slot, d, tmp);
        } else if (w->children)
            prepare(c, w->children, loops, d, tmp);
    }
}

/* The accesses' common coefficients on the block indices, or why not. */
static cstatus block_coefs(cls *c, const rc_work *w, const dep *slots, bool *tmp, bool *seen)
{
    for (; w; w = w->next) {
        if (w->array == c->array && w->array >= 0) {
            dep d = expr_dep(w->index_expr, slots, c->nslots, tmp);
            if (d.kind == S_OTHER)
                return enumerate(c, "the index %s of <%s> at line %d is not affine in the block "
                                 "indices", w->index_text, rc_work_element(w->kind), w->line);
            if (*seen && memcmp(d.k, c->K, sizeof d.k) != 0)
                return enumerate(c, "its accesses move differently with the block indices "
                                 "(line %d)", w->line);
            memcpy(c->K, d.k, sizeof d.k);
            *seen = true;
        }
        TRY(block_coefs(c, w->children, slots, tmp, seen));
    }
    return C_OK;
}

/* ---- blocks ------------------------------------------------------------- */

typedef struct {
    int64_t coord[WARP][3];
    int64_t weight[WARP];
    int n;
    int64_t count;
} warp_sig;

/* Runs the representative block bid (ranges: the box) into *r. */
static cstatus run_rep(cls *c, const rc_block_box *box, const int64_t bid[3], rep *r)
{
    const rc_kernel *k = c->k;
    r->atoms = NULL;
    r->natoms = 0;
    int64_t threads = k->block[0] * k->block[1] * k->block[2];
    warp_sig warps[1024 / WARP];
    int nwarps = 0;
    for (int64_t base = 0; base < threads; base += WARP) {
        warp_sig *w = &warps[nwarps];
        w->n = 0;
        w->count = 1;
        for (int64_t t = base; t < base + WARP && t < threads; t++) {
            int64_t co[3] = {t % k->block[0], t / k->block[0] % k->block[1],
                             t / (k->block[0] * k->block[1])};
            for (int a = 0; a < 3; a++)
                if (!c->reads[RC_SLOT_TID_X + a])
                    co[a] = 0;
            int i = 0;
            while (i < w->n && memcmp(w->coord[i], co, sizeof co) != 0)
                i++;
            if (i == w->n) {
                memcpy(w->coord[i], co, sizeof co);
                w->weight[i] = 0;
                w->n++;
            }
            w->weight[i]++;
        }
        int i = 0;
        while (i < nwarps && !(warps[i].n == w->n &&
                               memcmp(warps[i].coord, w->coord, (size_t)w->n * sizeof w->coord[0]) == 0 &&
                               memcmp(warps[i].weight, w->weight, (size_t)w->n * sizeof w->weight[0]) == 0))
            i++;
        if (i < nwarps)
            warps[i].count++;
        else
            nwarps++;
    }
    memset(&c->cur, 0, sizeof c->cur);
    c->natoms = 0;
    for (int i = 0; i < nwarps; i++) {
        const warp_sig *w = &warps[i];
        for (int l = 0; l < w->n; l++) {
            for (int a = 0; a < 3; a++) {
                PT(c, l, RC_SLOT_TID_X + a) = LO(c, l, RC_SLOT_TID_X + a) =
                    HI(c, l, RC_SLOT_TID_X + a) = w->coord[l][a];
                PT(c, l, RC_SLOT_BID_X + a) = bid[a];
                LO(c, l, RC_SLOT_BID_X + a) = box->lo[a];
                HI(c, l, RC_SLOT_BID_X + a) = box->hi[a];
            }
            c->weight[l] = w->weight[l];
        }
        c->warp_mult = w->count;
        uint32_t mask = w->n == WARP ? 0xFFFFFFFFu : (1u << w->n) - 1;
        TRY(run(c, k->work, mask));
    }
    r->c = c->cur;
    memcpy(r->bid, bid, sizeof r->bid);
    r->blocks = 0;
    r->distinct = 0;
    r->natoms = 0;
    r->atoms = NULL;
    if (c->natoms == 0)
        return C_OK;
    /* One run per stretch of sectors with the same generators. */
    atom *a = c->atoms;
    qsort(a, c->natoms, sizeof *a, cmp_atom);
    size_t n = 0;
    for (size_t i = 0; i < c->natoms; i++) {
        if (n > 0 && a[n - 1].gid == a[i].gid && a[i].first <= a[n - 1].first + a[n - 1].n) {
            int64_t end = a[i].first + a[i].n;
            if (end > a[n - 1].first + a[n - 1].n)
                a[n - 1].n = end - a[n - 1].first;
        } else
            a[n++] = a[i];
    }
    r->atoms = malloc(n * sizeof *r->atoms);
    if (!r->atoms)
        return oom(c);
    memcpy(r->atoms, a, n * sizeof *a);
    r->natoms = n;
    if (n == 1) {
        /* One run and its lattice: when the copies cannot meet, n x the
         * copies, with no set to build. */
        const genlist *g = &c->lists[a[0].gid];
        int64_t len = a[0].n, copies = 1, reach = 0;
        int i = 0;
        while (i < g->n && g->g[i].t <= len)
            len += (g->g[i].m - 1) * g->g[i].t, i++;
        bool apart = true;
        for (reach = len; apart && i < g->n; i++) {
            apart = g->g[i].t >= reach && !__builtin_mul_overflow(copies, g->g[i].m, &copies);
            reach = g->g[i].t * (g->g[i].m - 1) + reach;
        }
        if (apart && !__builtin_mul_overflow(len, copies, &r->distinct))
            return C_OK;
    }
    secset bm;
    if (!ss_init(&bm)) {
        ss_free(&bm);
        return oom(c);
    }
    for (size_t i = 0; i < n; i++) {
        const genlist *g = &c->lists[a[i].gid];
        if (a[i].first + g->shift < 0) {
            ss_free(&bm);
            return enumerate(c, "a sector falls before the array");
        }
        if (!set_lattice(&bm, a[i].first + g->shift, a[i].n, g->g, g->n)) {
            ss_free(&bm);
            return oom(c);
        }
    }
    r->distinct = ss_count(&bm);
    ss_free(&bm);
    return C_OK;
}

static int64_t mod128(int64_t x)
{
    return (x % 128 + 128) % 128;
}

/* The blocks of one box: classes by the remainder of the translation
 * modulo 128 bytes; their counts into *out, their sectors into fp. */
static cstatus run_box(cls *c, const rc_block_box *box, rc_access_counts *out, secset *fp,
                       int64_t *bmax)
{
    int64_t ext[3], p128[3], p32[3], kb[3];
    for (int a = 0; a < 3; a++) {
        ext[a] = box->hi[a] - box->lo[a] + 1;
        if (__builtin_mul_overflow(c->K[a], (int64_t)c->arr->elem_bytes, &kb[a]))
            return enumerate(c, "a block's move in bytes overflows");
        uint64_t r = (uint64_t)mod128(kb[a]);
        p128[a] = (int64_t)(128 / gcd(128, r));
        p32[a] = (int64_t)(32 / gcd(32, r % 32));
    }
    rep reps[128];
    int nreps = 0, rep_of[128];
    for (int i = 0; i < 128; i++)
        rep_of[i] = -1;
    cstatus st = C_OK;
    int64_t q[3];
    for (q[2] = 0; st == C_OK && q[2] < p128[2] && q[2] < ext[2]; q[2]++)
        for (q[1] = 0; st == C_OK && q[1] < p128[1] && q[1] < ext[1]; q[1]++)
            for (q[0] = 0; st == C_OK && q[0] < p128[0] && q[0] < ext[0]; q[0]++) {
                int64_t res = 0, cnt = 1, bid[3];
                for (int a = 0; a < 3; a++) {
                    res = mod128(res + mod128(kb[a]) * q[a]);
                    cnt *= (ext[a] - q[a] + p128[a] - 1) / p128[a];
                    bid[a] = box->lo[a] + q[a];
                }
                if (rep_of[res] < 0) {
                    st = run_rep(c, box, bid, &reps[nreps]);
                    if (st != C_OK) {
                        free(reps[nreps].atoms);
                        break;
                    }
                    rep_of[res] = nreps++;
                }
                reps[rep_of[res]].blocks += cnt;
            }
    for (int i = 0; st == C_OK && i < nreps; i++) {
        const rep *r = &reps[i];
        int64_t b = r->blocks;
        bool ok = add_mul(&out->requests, r->c.requests, b) &&
                  add_mul(&out->accessed_bytes, r->c.accessed, b) &&
                  add_mul(&out->sector_bytes, r->c.sectors, b) &&
                  add_mul(&out->store_sector_bytes, r->c.store_sectors, b) &&
                  add_mul(&out->store_line_bytes, r->c.store_lines, b) &&
                  add_mul(&out->shared_requests, r->c.shared_requests, b) &&
                  add_mul(&out->shared_wavefronts, r->c.wavefronts, b) &&
                  add_mul(&out->block_sector_bytes, r->distinct, b);
        if (!ok)
            st = enumerate(c, "a count overflows");
        else if (b > 0 && r->distinct > *bmax)
            *bmax = r->distinct;
    }
    /* The footprint: blocks whose moves agree modulo 32 bytes touch the
     * same sectors moved, a lattice of steps p32 along each axis. */
    for (q[2] = 0; st == C_OK && q[2] < p32[2] && q[2] < ext[2]; q[2]++)
        for (q[1] = 0; st == C_OK && q[1] < p32[1] && q[1] < ext[1]; q[1]++)
            for (q[0] = 0; st == C_OK && q[0] < p32[0] && q[0] < ext[0]; q[0]++) {
                int64_t res = 0, shift = 0;
                gen bg[3];
                for (int a = 0; a < 3; a++)
                    res = mod128(res + mod128(kb[a]) * q[a]);
                const rep *r = &reps[rep_of[res]];
                bool ok = true;
                for (int a = 0; a < 3; a++) {
                    int64_t t = 0;
                    ok = ok && add_mul(&shift, kb[a], box->lo[a] + q[a] - r->bid[a]) &&
                         !__builtin_mul_overflow(p32[a], kb[a], &t);
                    bg[a] = (gen){t / 32, (ext[a] - q[a] + p32[a] - 1) / p32[a]};
                }
                if (!ok) {
                    st = enumerate(c, "a block's move in bytes overflows");
                    break;
                }
                shift /= 32; /* a multiple of 128 bytes: the same remainder */
                for (size_t i = 0; st == C_OK && i < r->natoms; i++) {
                    const genlist *g = &c->lists[r->atoms[i].gid];
                    gen all[MAX_GENS];
                    int n = g->n + 3;
                    memcpy(all, g->g, (size_t)g->n * sizeof all[0]);
                    memcpy(all + g->n, bg, sizeof bg);
                    int64_t s = 0;
                    if (!normalise(all, &n, &s) || !add_mul(&s, 1, shift) ||
                        !add_mul(&s, 1, g->shift) || !add_mul(&s, 1, r->atoms[i].first) || s < 0)
                        st = enumerate(c, "a block's move in bytes overflows");
                    else if (!set_lattice(fp, s, r->atoms[i].n, all, n))
                        st = oom(c);
                }
            }
    for (int i = 0; i < nreps; i++)
        free(reps[i].atoms);
    return st;
}

rc_classes_status rc_classes_count(const rc_kernel *k, int array, const bool *needed,
                                   const bool *reads, const rc_block_box *boxes, size_t nboxes,
                                   int64_t budget, rc_access_counts *out, char *why,
                                   size_t why_len)
{
    memset(out, 0, sizeof *out);
    why[0] = '\0';
    cls c;
    memset(&c, 0, sizeof c);
    c.k = k;
    c.array = array;
    c.arr = &k->arrays[array];
    c.needed = needed;
    c.reads = reads;
    c.nslots = k->nslots > RC_SLOT_FIRST_FREE ? k->nslots : RC_SLOT_FIRST_FREE;
    c.nwork = k->nwork > 0 ? k->nwork : 1;
    c.budget = budget;
    c.why = why;
    c.why_len = why_len;
    c.version = 1;
    size_t nn = (size_t)c.nwork, ns = (size_t)c.nslots;
    c.pt = calloc(WARP * ns, sizeof *c.pt);
    c.lo = calloc(WARP * ns, sizeof *c.lo);
    c.hi = calloc(WARP * ns, sizeof *c.hi);
    c.wlo = calloc(ns, sizeof *c.wlo);
    c.whi = calloc(ns, sizeof *c.whi);
    c.compress = calloc(nn, sizeof *c.compress);
    c.depth = calloc(nn, sizeof *c.depth);
    c.coef = calloc(nn * MAX_DEPTH, sizeof *c.coef);
    c.coef_ok = calloc(nn * MAX_DEPTH, sizeof *c.coef_ok);
    c.cache_gid = calloc(nn, sizeof *c.cache_gid);
    c.cache_ver = calloc(nn, sizeof *c.cache_ver);
    dep *slots = calloc(ns, sizeof *slots);
    bool *tmp = calloc(ns, sizeof *tmp);
    const rc_work **loops = calloc(MAX_DEPTH, sizeof *loops);
    secset fp = {{0}, NULL, 0, 0};
    cstatus st = C_OK;
    if (!c.pt || !c.lo || !c.hi || !c.wlo || !c.whi || !c.compress || !c.depth || !c.coef || !c.coef_ok ||
        !c.cache_gid || !c.cache_ver || !slots || !tmp || !loops || !ss_init(&fp)) {
        st = oom(&c);
        goto end;
    }
    if (nboxes == 0) {
        st = enumerate(&c, "its blocks make different decisions in more than %d boxes",
                       RC_ACCESS_MAX_BOXES);
        goto end;
    }
    for (int a = 0; a < 3; a++)
        slots[RC_SLOT_BID_X + a] = (dep){S_AFFINE, {a == 0, a == 1, a == 2}};
    slot_deps(k->work, slots, c.nslots, tmp);
    bool seen = false;
    st = block_coefs(&c, k->work, slots, tmp, &seen);
    if (st != C_OK)
        goto end;
    prepare(&c, k->work, loops, 0, tmp);
    int64_t bmax = 0;
    for (size_t b = 0; st == C_OK && b < nboxes; b++)
        st = run_box(&c, &boxes[b], out, &fp, &bmax);
    if (st == C_OK) {
        int64_t fp_sectors = ss_count(&fp);
        bool ok = !__builtin_mul_overflow(fp_sectors, 32, &out->footprint_bytes) &&
                  !__builtin_mul_overflow(out->block_sector_bytes, 32, &out->block_sector_bytes) &&
                  !__builtin_mul_overflow(bmax, 32, &out->block_footprint_max) &&
                  !__builtin_mul_overflow(out->sector_bytes, 32, &out->sector_bytes) &&
                  !__builtin_mul_overflow(out->store_sector_bytes, 32, &out->store_sector_bytes) &&
                  !__builtin_mul_overflow(out->store_line_bytes, 128, &out->store_line_bytes);
        if (!ok)
            st = enumerate(&c, "a count overflows");
        else if (c.arr->space == RC_SPACE_SHARED)
            out->footprint_bytes = out->block_sector_bytes = out->block_footprint_max = 0;
    }
end:
    ss_free(&fp);
    free(c.pt);
    free(c.lo);
    free(c.hi);
    free(c.wlo);
    free(c.whi);
    free(c.compress);
    free(c.depth);
    free(c.coef);
    free(c.coef_ok);
    free(c.cache_gid);
    free(c.cache_ver);
    free(c.lists);
    free(c.atoms);
    free(slots);
    free(tmp);
    free(loops);
    if (st != C_OK)
        memset(out, 0, sizeof *out);
    return st == C_OK ? RC_CLASSES_DONE : st == C_ENUM ? RC_CLASSES_ENUMERATE : RC_CLASSES_FAIL;
}
