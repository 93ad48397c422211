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

#include "model/names.h"
#include "model/classes_impl.h"
#include "model/warp.h"

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
            if (!cls_add_mul(&d.k[a], slots[s].k[a], co))
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
                return cls_enumerate(c, "the index %s of <%s> at line %d is not affine in the block "
                                 "indices", w->index_text, rc_work_element(w->kind), w->line);
            if (*seen && memcmp(d.k, c->K, sizeof d.k) != 0)
                return cls_enumerate(c, "its accesses move differently with the block indices "
                                 "(line %d)", w->line);
            memcpy(c->K, d.k, sizeof d.k);
            *seen = true;
        }
        TRY(block_coefs(c, w->children, slots, tmp, seen));
    }
    return C_OK;
}

/* ---- blocks ------------------------------------------------------------- */

/* Runs the representative block bid (ranges: the box) into *r. */
static cstatus run_rep(cls *c, const rc_block_box *box, const int64_t bid[3], rep *r)
{
    const rc_kernel *k = c->k;
    r->atoms = NULL;
    r->natoms = 0;
    rc_warp_sig warps[1024 / WARP];
    int nwarps = rc_warp_signatures(c->reads, k->block, warps);
    memset(&c->cur, 0, sizeof c->cur);
    c->natoms = 0;
    for (int i = 0; i < nwarps; i++) {
        const rc_warp_sig *w = &warps[i];
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
        TRY(cls_run(c, k->work, rc_warp_lanes(w)));
    }
    r->c = c->cur;
    memcpy(r->bid, bid, sizeof r->bid);
    r->blocks = 0;
    r->distinct = 0;
    r->natoms = 0;
    r->atoms = NULL;
    if (c->natoms == 0)
        return C_OK;
    cls_compact_atoms(c);
    atom *a = c->atoms;
    size_t n = c->natoms;
    r->atoms = malloc(n * sizeof *r->atoms);
    if (!r->atoms)
        return cls_oom(c);
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
    rc_sectors *bm = rc_sectors_new();
    if (!bm)
        return cls_oom(c);
    for (size_t i = 0; i < n; i++) {
        const genlist *g = &c->lists[a[i].gid];
        if (a[i].first + g->shift < 0) {
            rc_sectors_free(bm);
            return cls_enumerate(c, "a sector falls before the array");
        }
        if (!rc_sectors_add_lattice(bm, a[i].first + g->shift, a[i].n, g->g, g->n)) {
            rc_sectors_free(bm);
            return cls_oom(c);
        }
    }
    r->distinct = rc_sectors_count(bm, NULL);
    rc_sectors_free(bm);
    return C_OK;
}

static int64_t mod128(int64_t x)
{
    return (x % 128 + 128) % 128;
}

/* The blocks of one box: classes by the remainder of the translation
 * modulo 128 bytes; their counts into *out, their sectors into fp. */
static cstatus run_box(cls *c, const rc_block_box *box, rc_access_counts *out, rc_sectors *fp,
                       int64_t *bmax)
{
    int64_t ext[3], p128[3], p32[3], kb[3];
    for (int a = 0; a < 3; a++) {
        ext[a] = box->hi[a] - box->lo[a] + 1;
        if (__builtin_mul_overflow(c->K[a], (int64_t)c->arr->elem_bytes, &kb[a]))
            return cls_enumerate(c, "a block's move in bytes overflows");
        uint64_t r = (uint64_t)mod128(kb[a]);
        p128[a] = (int64_t)(128 / cls_gcd(128, r));
        p32[a] = (int64_t)(32 / cls_gcd(32, r % 32));
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
        bool ok = cls_add_mul(&out->requests, r->c.requests, b) &&
                  cls_add_mul(&out->accessed_bytes, r->c.accessed, b) &&
                  cls_add_mul(&out->sector_bytes, r->c.sectors, b) &&
                  cls_add_mul(&out->store_sector_bytes, r->c.store_sectors, b) &&
                  cls_add_mul(&out->store_line_bytes, r->c.store_lines, b) &&
                  cls_add_mul(&out->store_part_lines[0], r->c.store_part_lines[0], b) &&
                  cls_add_mul(&out->store_part_lines[1], r->c.store_part_lines[1], b) &&
                  cls_add_mul(&out->store_part_lines[2], r->c.store_part_lines[2], b) &&
                  cls_add_mul(&out->store_part_lines[3], r->c.store_part_lines[3], b) &&
                  cls_add_mul(&out->atomic_lane_extra, r->c.atomic_lane_extra, b) &&
                  cls_add_mul(&out->atomic_multiword, r->c.atomic_multiword, b) &&
                  cls_add_mul(&out->l1_quarters, r->c.l1q, b) &&
                  cls_add_mul(&out->l1_quarters_2, r->c.l1q2, b) &&
                  cls_add_mul(&out->l1_quarters_2x2, r->c.l1q2x2, b) &&
                  cls_add_mul(&out->shared_requests, r->c.shared_requests, b) &&
                  cls_add_mul(&out->shared_wavefronts, r->c.wavefronts, b) &&
                  cls_add_mul(&out->shared_wavefronts_pair, r->c.wavefronts_pair, b) &&
                  cls_add_mul(&out->block_sector_bytes, r->distinct, b);
        if (!ok)
            st = cls_enumerate(c, "a count overflows");
        else if (b > 0 && r->distinct > *bmax)
            *bmax = r->distinct;
    }
    /* The footprint: blocks whose moves agree modulo 32 bytes touch the
     * same sectors moved, a lattice of steps p32 along each axis. */
    for (q[2] = 0; st == C_OK && q[2] < p32[2] && q[2] < ext[2]; q[2]++)
        for (q[1] = 0; st == C_OK && q[1] < p32[1] && q[1] < ext[1]; q[1]++)
            for (q[0] = 0; st == C_OK && q[0] < p32[0] && q[0] < ext[0]; q[0]++) {
                int64_t res = 0, shift = 0;
                rc_gen bg[3];
                for (int a = 0; a < 3; a++)
                    res = mod128(res + mod128(kb[a]) * q[a]);
                const rep *r = &reps[rep_of[res]];
                bool ok = true;
                for (int a = 0; a < 3; a++) {
                    int64_t t = 0;
                    ok = ok && cls_add_mul(&shift, kb[a], box->lo[a] + q[a] - r->bid[a]) &&
                         !__builtin_mul_overflow(p32[a], kb[a], &t);
                    bg[a] = (rc_gen){t / 32, (ext[a] - q[a] + p32[a] - 1) / p32[a]};
                }
                if (!ok) {
                    st = cls_enumerate(c, "a block's move in bytes overflows");
                    break;
                }
                shift /= 32; /* a multiple of 128 bytes: the same remainder */
                if (r->natoms == 0)
                    continue;
                rc_lattice *ls = malloc(r->natoms * sizeof *ls);
                if (!ls) {
                    st = cls_oom(c);
                    break;
                }
                for (size_t i = 0; st == C_OK && i < r->natoms; i++) {
                    const genlist *g = &c->lists[r->atoms[i].gid];
                    rc_lattice *l = &ls[i];
                    l->ng = g->n + 3;
                    memcpy(l->g, g->g, (size_t)g->n * sizeof l->g[0]);
                    memcpy(l->g + g->n, bg, sizeof bg);
                    l->first = 0;
                    l->n = r->atoms[i].n;
                    if (!rc_gens_normalise(l->g, &l->ng, &l->first) || !cls_add_mul(&l->first, 1, shift) ||
                        !cls_add_mul(&l->first, 1, g->shift) || !cls_add_mul(&l->first, 1, r->atoms[i].first) ||
                        l->first < 0)
                        st = cls_enumerate(c, "a block's move in bytes overflows");
                }
                if (st == C_OK && !rc_sectors_add_lattices(fp, ls, r->natoms))
                    st = cls_oom(c);
                free(ls);
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
    rc_sectors *fp = rc_sectors_new();
    cstatus st = C_OK;
    if (!c.pt || !c.lo || !c.hi || !c.wlo || !c.whi || !c.compress || !c.depth || !c.coef || !c.coef_ok ||
        !c.cache_gid || !c.cache_ver || !slots || !tmp || !loops || !fp) {
        st = cls_oom(&c);
        goto end;
    }
    if (nboxes == 0) {
        st = cls_enumerate(&c, "its blocks make different decisions in more than %d boxes",
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
        st = run_box(&c, &boxes[b], out, fp, &bmax);
    if (st == C_OK) {
        /* The array's last sector alone in its pair: its other half, past the end, is not
         * charged (warp.h). */
        int64_t end = rc_warp_end_sector(c.arr->length, c.arr->elem_bytes);
        bool end_alone = end >= 0 && rc_sectors_has(fp, end) && !rc_sectors_has(fp, end + 1);
        int64_t fp_pairs = 0, fp_sectors = rc_sectors_count(fp, &fp_pairs);
        bool ok = !__builtin_mul_overflow(fp_sectors, 32, &out->footprint_bytes) &&
                  !__builtin_mul_overflow(fp_pairs, 64, &out->footprint_pair_bytes) &&
                  !__builtin_sub_overflow(out->footprint_pair_bytes, end_alone ? 32 : 0,
                                          &out->footprint_pair_bytes) &&
                  !__builtin_mul_overflow(out->block_sector_bytes, 32, &out->block_sector_bytes) &&
                  !__builtin_mul_overflow(bmax, 32, &out->block_footprint_max) &&
                  !__builtin_mul_overflow(out->sector_bytes, 32, &out->sector_bytes) &&
                  !__builtin_mul_overflow(out->store_sector_bytes, 32, &out->store_sector_bytes) &&
                  !__builtin_mul_overflow(out->store_line_bytes, 128, &out->store_line_bytes);
        if (!ok)
            st = cls_enumerate(&c, "a count overflows");
        else if (c.arr->space == RC_SPACE_SHARED)
            out->footprint_bytes = out->footprint_pair_bytes = out->block_sector_bytes =
                out->block_footprint_max = 0;
    }
end:
    rc_sectors_free(fp);
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
    out->index_min = 0; /* no index range: the enumeration's alone (access.h) */
    out->index_max = -1;
    return st == C_OK ? RC_CLASSES_DONE : st == C_ENUM ? RC_CLASSES_ENUMERATE : RC_CLASSES_FAIL;
}
