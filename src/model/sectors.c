/* sectors.c: sets of 32-byte sectors and their unions over lattices. See
 * sectors.h. */
#include "model/sectors.h"

#include <stdlib.h>
#include <string.h>

#include "model/pages.h"
#include "util/array.h"

#define PAGE_BITS 16 /* sectors per page of the bitmap: 65,536 */
#define PAGE_WORDS ((size_t)1 << (PAGE_BITS - 6))

/* ---- a sparse bitmap of sectors ----------------------------------------- */

typedef struct {
    rc_pages pages; /* PAGE_WORDS words a page */
    int64_t count;  /* bits set */
} bitmap;

static bool bm_init(bitmap *m)
{
    m->count = 0;
    return rc_pages_init(&m->pages, PAGE_WORDS * sizeof(uint64_t));
}

/* Sets sectors first .. first + n - 1 (n >= 1, first >= 0). */
static bool bm_set(bitmap *m, int64_t first, int64_t n)
{
    int64_t end = first + n;
    while (first < end) {
        int64_t page = first >> PAGE_BITS, page_end = (page + 1) << PAGE_BITS;
        int64_t stop = end < page_end ? end : page_end;
        uint64_t *bits = rc_pages_get(&m->pages, page);
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
        uint64_t *bits = rc_pages_find(&m->pages, page);
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

/* Whether sector s is set (after bm_clear, outside the runs). */
static bool bm_test(bitmap *m, int64_t s)
{
    const uint64_t *bits = rc_pages_find(&m->pages, s >> PAGE_BITS);
    size_t a = (size_t)(s & (((int64_t)1 << PAGE_BITS) - 1));
    return bits && (bits[a >> 6] >> (a & 63) & 1);
}

/* The sector pairs (2k, 2k + 1: the two 32-byte halves of a 64-byte half-line) with a bit set.
 * A page starts at an even sector and a word holds whole pairs. */
static int64_t bm_pairs(const bitmap *m)
{
    int64_t n = 0;
    for (size_t i = 0; i < m->pages.size; i++) {
        const uint64_t *bits = m->pages.table[i].page >= 0 ? m->pages.table[i].data : NULL;
        for (size_t w = 0; bits && w < PAGE_WORDS; w++)
            if (bits[w])
                n += __builtin_popcountll((bits[w] | bits[w] >> 1) & 0x5555555555555555ULL);
    }
    return n;
}

/* A set of sectors: long runs kept as runs (so that a footprint of a
 * billion sectors costs one entry), short ones in the bitmap. */
#define LONG_RUN 4096

typedef struct {
    int64_t first, n;
} run_t;

struct rc_sectors {
    bitmap bm;
    run_t *runs;
    size_t nruns, cap;
};

rc_sectors *rc_sectors_new(void)
{
    rc_sectors *s = calloc(1, sizeof *s);
    if (s && !bm_init(&s->bm)) {
        free(s);
        return NULL;
    }
    return s;
}

void rc_sectors_free(rc_sectors *s)
{
    if (!s)
        return;
    rc_pages_free(&s->bm.pages);
    free(s->runs);
    free(s);
}

static bool ss_add(rc_sectors *s, int64_t first, int64_t n)
{
    if (n < LONG_RUN)
        return bm_set(&s->bm, first, n);
    if (!RC_GROW(s->runs, s->cap, s->nruns + 1))
        return false;
    s->runs[s->nruns++] = (run_t){first, n};
    return true;
}

static int cmp_run(const void *pa, const void *pb)
{
    const run_t *a = pa, *b = pb;
    return (a->first > b->first) - (a->first < b->first);
}

/* See sectors.h. */
bool rc_sectors_has(rc_sectors *s, int64_t sector)
{
    if (sector < 0)
        return false;
    for (size_t i = 0; i < s->nruns; i++)
        if (sector >= s->runs[i].first && sector - s->runs[i].first < s->runs[i].n)
            return true;
    return bm_test(&s->bm, sector);
}

/* See sectors.h. */
int64_t rc_sectors_count(rc_sectors *s, int64_t *pairs)
{
    if (s->nruns > 1)
        qsort(s->runs, s->nruns, sizeof *s->runs, cmp_run);
    /* Merged runs neither touch nor share a pair; a pair can hold a run's end and a bit of
     * the bitmap, counted once. */
    int64_t total = 0, run_pairs = 0, shared = 0, a = 0, b = -1; /* the run a .. b - 1 */
    for (size_t i = 0; i <= s->nruns; i++) {
        if (i < s->nruns && s->runs[i].first <= b) {
            int64_t end = s->runs[i].first + s->runs[i].n;
            if (end > b)
                b = end;
            continue;
        }
        if (b > a) {
            total += b - a;
            run_pairs += ((b - 1) >> 1) - (a >> 1) + 1;
            bm_clear(&s->bm, a, b - a);
            shared += ((a & 1) && bm_test(&s->bm, a - 1)) + ((b & 1) && bm_test(&s->bm, b));
        }
        if (i < s->nruns) {
            a = s->runs[i].first;
            b = a + s->runs[i].n;
        }
    }
    if (pairs)
        *pairs = run_pairs + bm_pairs(&s->bm) - shared;
    return total + s->bm.count;
}

/* ---- generators: a run repeated at steps of t sectors, m times ---------- */



/* Makes every step positive (moving the start), drops steps that change
 * nothing and sorts the rest by step. False on overflow. */
bool rc_gens_normalise(rc_gen *g, int *n, int64_t *shift)
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
            rc_gen x = g[j];
            g[j] = g[j - 1];
            g[j - 1] = x;
        }
    return true;
}

/* Sets the union over the lattice of runs first + sum k_i t_i .. + n - 1.
 * Steps sorted ascending, positive: while a step is at most the run's
 * length the copies along it overlap or touch and make one run; the
 * others are enumerated. */
bool rc_sectors_add_lattice(rc_sectors *m, int64_t first, int64_t n, const rc_gen *g, int ng)
{
    int i = 0;
    while (i < ng && g[i].t <= n) {
        n += (g[i].m - 1) * g[i].t;
        i++;
    }
    if (i == ng)
        return ss_add(m, first, n);
    for (int64_t k = 0; k < g[i].m; k++)
        if (!rc_sectors_add_lattice(m, first + k * g[i].t, n, g + i + 1, ng - i - 1))
            return false;
    return true;
}

/* Merges the generators the run can absorb: those whose step is at most
 * its length, smallest first. */
static void absorb(rc_lattice *l)
{
    int i = 0;
    while (i < l->ng && l->g[i].t <= l->n) {
        l->n += (l->g[i].m - 1) * l->g[i].t;
        i++;
    }
    memmove(l->g, l->g + i, (size_t)(l->ng - i) * sizeof l->g[0]);
    l->ng -= i;
}

static int cmp_lattice(const void *pa, const void *pb)
{
    const rc_lattice *a = pa, *b = pb;
    if (a->ng != b->ng)
        return a->ng < b->ng ? -1 : 1;
    for (int i = 0; i < a->ng; i++) {
        if (a->g[i].t != b->g[i].t)
            return a->g[i].t < b->g[i].t ? -1 : 1;
        if (a->g[i].m != b->g[i].m)
            return a->g[i].m < b->g[i].m ? -1 : 1;
    }
    return (a->first > b->first) - (a->first < b->first);
}

static bool same_gens(const rc_lattice *a, const rc_lattice *b)
{
    return a->ng == b->ng && memcmp(a->g, b->g, (size_t)a->ng * sizeof a->g[0]) == 0;
}

/* The union over one lattice of two runs is the union of their copies:
 * runs that touch under the same generators are joined, then absorb
 * again (a block's 16 rows, each a whole row once copied along x, join
 * into one run that the copies along y then extend). */
bool rc_sectors_add_lattices(rc_sectors *s, rc_lattice *l, size_t n)
{
    for (int pass = 0; pass < 2 && n > 0; pass++) {
        for (size_t i = 0; i < n; i++)
            absorb(&l[i]);
        qsort(l, n, sizeof *l, cmp_lattice);
        size_t k = 0;
        for (size_t i = 0; i < n; i++) {
            if (k > 0 && same_gens(&l[k - 1], &l[i]) && l[i].first <= l[k - 1].first + l[k - 1].n) {
                int64_t end = l[i].first + l[i].n;
                if (end > l[k - 1].first + l[k - 1].n)
                    l[k - 1].n = end - l[k - 1].first;
            } else
                l[k++] = l[i];
        }
        n = k;
    }
    for (size_t i = 0; i < n; i++)
        if (!rc_sectors_add_lattice(s, l[i].first, l[i].n, l[i].g, l[i].ng))
            return false;
    return true;
}
