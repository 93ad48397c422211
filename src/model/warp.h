/* warp.h: one warp's lanes run through the work model in lockstep, the walk
 * that both memory counts share: the enumeration (access.c) and the
 * counting by classes (classes.c, classes_warp.c). Private to src/model/.
 *
 * The walk decides which lanes run each statement: a guard's lanes, a
 * loop's live lanes iteration by iteration, each lane's loop variable
 * stepped. What a statement does is the caller's, through a table of
 * functions (rc_warp_ops): how a lane evaluates an expression, what an
 * access counts, how a loop is entered, what a lane-step costs. Every
 * function returns 0 to go on; any other value is a status of the
 * caller's, which stops the walk and comes back from it unchanged.
 *
 * With the walk come the helpers both counts make requests with: a block's
 * distinct warps, the sectors and lines of a request (banks.h counts the
 * passes of a shared-memory request).
 */
#ifndef ROOFCAST_WARP_H
#define ROOFCAST_WARP_H

#include <stdbool.h>
#include <stdint.h>

#include "model/model.h"

#define RC_WARP 32

/* ---- a block's warps ------------------------------------------------------ */

/* A warp as the memory counts see it: its distinct threads (those that
 * differ in a thread index the accesses read; an index not read is 0) and
 * how many of its threads each stands for. */
typedef struct {
    int64_t coord[RC_WARP][3];
    int64_t weight[RC_WARP];
    int n;
    int64_t count; /* warps of the block with this signature */
} rc_warp_sig;

/* Groups the warps of a block of rows[0] x rows[1] x rows[2] threads (at
 * most 1024) by signature into warps[1024 / RC_WARP]; reads[] is by slot,
 * true for the thread indices the accesses read. Returns how many differ. */
int rc_warp_signatures(const bool *reads, const int64_t rows[3], rc_warp_sig *warps);

/* The mask of a signature's lanes: its first n. */
uint32_t rc_warp_lanes(const rc_warp_sig *w);

/* ---- the walk ------------------------------------------------------------- */

typedef struct rc_warp_ops rc_warp_ops;

/* One walk: the caller's functions and state, and what the walk reads. */
typedef struct {
    const rc_warp_ops *ops;
    void *ctx;          /* the caller's state, handed to each function of ops */
    int array;          /* the array whose accesses run; -1: every array's (l1sim.c) */
    const bool *needed; /* by node index: the node is or holds an access to it that runs */
    const bool *reads;  /* by slot: read by those accesses or around them */
    int64_t *values;    /* [RC_WARP][nslots], lane-major: each lane's slots */
    int nslots;
} rc_warp;

/* The caller's part of each statement. */
struct rc_warp_ops {
    /* Counts `lanes` more lane-steps; nonzero past the budget. */
    int (*spend)(void *ctx, int lanes);
    /* Sets the let w's slot for the lane (its slot is read). */
    int (*let)(void *ctx, const rc_work *w, int lane);
    /* *out = w->expr[which] at the lane. */
    int (*eval)(void *ctx, const rc_work *w, int which, int lane, int64_t *out);
    /* A needed loop for the lanes of mask: its start, step and bound, then
     * (at least when nothing quicker applies) rc_warp_lockstep. */
    int (*loop)(void *ctx, const rc_work *w, uint32_t mask);
    /* An access to the array by the lanes of mask. */
    int (*access)(void *ctx, const rc_work *w, uint32_t mask);
    /* The lane's loop variable steps from `from` to `to`; may be NULL. */
    void (*moved)(void *ctx, const rc_work *w, int lane, int64_t from, int64_t to);
    /* The loop w does not end: a lane's variable stays or leaves 64 bits. */
    int (*stuck)(void *ctx, const rc_work *w);
};

/* Runs the statements from w on for the lanes of mask. Returns 0, or the
 * first nonzero status a function of wr->ops returned. */
int rc_warp_run(const rc_warp *wr, const rc_work *w, uint32_t mask);

/* The loop w in lockstep, each lane's variable set to its start: iteration
 * after iteration runs the body for the lanes whose condition (w's `while`,
 * else variable < bound[lane]) still holds, then steps their variables by
 * step[lane]; a lane whose condition fails has left the loop. */
int rc_warp_lockstep(const rc_warp *wr, const rc_work *w, uint32_t mask, const int64_t *step,
                     const int64_t *bound);

/* A loop's start for the lanes of mask: each lane's variable set to `from` (its slot in
 * wr->values), its step in step[lane] and, unless a `while` loop, its bound in bound[lane],
 * all through wr->ops->eval; 0, or the first status that function gave. */
int rc_warp_loop_start(const rc_warp *wr, const rc_work *w, uint32_t mask, int64_t *step,
                       int64_t *bound);

/* *out = v op c, the step of a loop's variable; false when it leaves the
 * 64-bit range or divides by zero. */
bool rc_warp_step(rc_step_op op, int64_t v, int64_t c, int64_t *out);

/* ---- stepping -------------------------------------------------------------- */

/* Stepping, which both enumerations (access.c, l1sim.c) save evaluations with: an access
 * whose index is affine in the variable of its innermost loop (an += or -= loop whose body
 * defines no let the index reads: the caller decides) is computed from its value at the
 * lane's previous iteration of the same entry into that loop, plus the step's share, instead
 * of evaluated. Tables by work node; rc_warp_steps_free frees what _init allocated. */
typedef struct {
    const rc_work **loop;      /* by access node: the loop it steps with, or NULL */
    int64_t *coef;             /* by access node: the index's coefficient of that variable */
    uint64_t *entry;           /* by loop node: its current entry */
    uint64_t entries;          /* entries into loops so far */
    int64_t (*var)[RC_WARP], (*idx)[RC_WARP]; /* by access node and lane: the last value */
    uint64_t (*at)[RC_WARP];   /* the entry those belong to */
} rc_warp_steps;

/* Tables for `nwork` nodes; false when out of memory (free them all the same). */
bool rc_warp_steps_init(rc_warp_steps *s, int nwork);
void rc_warp_steps_free(rc_warp_steps *s);

/* Access `w` steps with `loop` (may be NULL: not stepped) where its index is affine in the
 * loop's variable. */
void rc_warp_steps_set(rc_warp_steps *s, const rc_work *w, const rc_work *loop);

/* The loop w steps with, or NULL; a new entry into `loop`. */
static inline const rc_work *rc_warp_steps_loop(const rc_warp_steps *s, const rc_work *w)
{
    return s->loop[w->index];
}
static inline void rc_warp_steps_enter(rc_warp_steps *s, const rc_work *loop)
{
    s->entry[loop->index] = ++s->entries;
}

/* *idx for the lane whose loop variable is `var`, from its last value in this entry; false
 * when there is none (or the step overflows): evaluate it, then rc_warp_steps_keep it. */
static inline bool rc_warp_steps_get(const rc_warp_steps *s, const rc_work *w, int lane,
                                     int64_t var, int64_t *idx)
{
    const rc_work *lp = s->loop[w->index];
    int64_t d, p;
    return lp && s->at[w->index][lane] == s->entry[lp->index] &&
           !__builtin_sub_overflow(var, s->var[w->index][lane], &d) &&
           !__builtin_mul_overflow(d, s->coef[w->index], &p) &&
           !__builtin_add_overflow(s->idx[w->index][lane], p, idx);
}
static inline void rc_warp_steps_keep(rc_warp_steps *s, const rc_work *w, int lane, int64_t var,
                                      int64_t idx)
{
    const rc_work *lp = s->loop[w->index];
    if (!lp)
        return;
    s->at[w->index][lane] = s->entry[lp->index];
    s->var[w->index][lane] = var;
    s->idx[w->index][lane] = idx;
}

/* ---- requests ------------------------------------------------------------- */

/* Sorts v[n] unless it already ascends, and removes repeats; returns the
 * number of distinct values. */
int rc_warp_distinct(int64_t *v, int n);

/* The distinct 32-byte sectors, ascending, in sec[2 * RC_WARP] of the
 * elements of `size` bytes (at most 32) at offset[lane] for the lanes of
 * mask; returns their number. */
int rc_warp_sectors(const int64_t *offset, uint32_t mask, int64_t size, int64_t *sec);

/* The distinct 128-byte lines among d distinct ascending sectors. */
int rc_warp_lines(const int64_t *sec, int d);

/* Of the 128-byte lines a request's distinct sectors sec[d] (rc_warp_sectors) lie in, those
 * where its active lanes' `size` bytes at offset[] leave some byte of a touched sector
 * unwritten, added to lines[k - 1] by the k sectors the request touches in the line: the lines
 * a store writes in part. */
void rc_warp_part_lines(const int64_t *offset, uint32_t mask, int64_t size, const int64_t *sec,
                        int d, int64_t lines[4]);

/* The sector pairs of a footprint (access.h footprint_pair_bytes) charge no bytes past an
 * array's end, where the model places nothing: the array's last sector when it begins a pair
 * whose other half lies past the end (the array's sectors are odd in number), else -1. */
int64_t rc_warp_end_sector(int64_t length, int elem_bytes);

/* The most threads (each lane standing for weight[lane]) that the lanes of mask put on one
 * offset: how many updates of one address a request makes. */
int64_t rc_warp_busiest_offset(const int64_t *offset, uint32_t mask, const int64_t *weight);

/* The 128-byte lines in which the lanes of mask touch two or more distinct offsets: an atomic
 * request's (request, line) pairs that update more than one address (atomics.h). */
int rc_warp_multiword_lines(const int64_t *offset, uint32_t mask);

#endif
