/* classes_impl.h: what classes.c (blocks, boxes, the footprint) and
 * classes_warp.c (a representative block's warps, loops by classes of
 * iterations) share. Internal to those two files; see classes.h. */
#ifndef ROOFCAST_CLASSES_IMPL_H
#define ROOFCAST_CLASSES_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/access.h"
#include "model/sectors.h"
#include "model/warp.h"
#include "util/diag.h"

#define WARP RC_WARP
#define MAX_DEPTH 16 /* loops nested around an access, at most, to be counted by classes */
#define MAX_GENS RC_SECTORS_MAX_GENS

typedef struct {
    int n;
    int64_t shift; /* sectors added to the run, from the negative steps made positive */
    rc_gen g[MAX_DEPTH];
} genlist;


typedef enum { C_OK, C_ENUM, C_FAIL } cstatus;

typedef struct {
    int64_t requests, accessed, sectors, store_sectors, store_lines, shared_requests, wavefronts;
    int64_t wavefronts_pair; /* by Kepler's bank rule (banks.h) */
    int64_t atomic_lane_extra; /* per-lane atomics: a request's busiest address beyond one */
    int64_t atomic_multiword;  /* atomics: a request's lines of two or more addresses */
    int64_t l1q, l1q2, l1q2x2; /* rc_access_counts.l1_quarters, _2, _2x2 */
    int64_t store_part_lines[4]; /* rc_access_counts.store_part_lines */
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
    int nlists;
    size_t cap_lists;
    atom *atoms;
    size_t natoms, cap_atoms;
    rcounts cur;
    int64_t steps, budget;
    char *why;
    size_t why_len;
} cls;


#define PT(c, l, s) ((c)->pt[(size_t)(l) * (size_t)(c)->nslots + (size_t)(s)])
#define LO(c, l, s) ((c)->lo[(size_t)(l) * (size_t)(c)->nslots + (size_t)(s)])
#define HI(c, l, s) ((c)->hi[(size_t)(l) * (size_t)(c)->nslots + (size_t)(s)])
#define TRY(call)                   \
    do {                            \
        cstatus st_ = (call);       \
        if (st_ != C_OK)            \
            return st_;             \
    } while (0)

/* Records why the classes do not apply (C_ENUM) or that memory ran out
 * (C_FAIL) in c->why. */
cstatus cls_enumerate(cls *c, const char *fmt, ...) RC_PRINTF(2, 3);
cstatus cls_oom(cls *c);

/* Runs the statements w for the lanes of mask of the current warp (its
 * slots in c->pt, c->lo, c->hi), adding its requests to c->cur and its
 * sectors to c->atoms. */
cstatus cls_run(cls *c, const rc_work *w, uint32_t mask);

bool cls_add_mul(int64_t *acc, int64_t v, int64_t m); /* *acc += v x m; false on overflow */
uint64_t cls_gcd(uint64_t a, uint64_t b);
int cls_cmp_atom(const void *a, const void *b); /* by generators, then first sector */

/* Sorts c->atoms and joins the runs that touch under the same generators. */
void cls_compact_atoms(cls *c);

#endif
