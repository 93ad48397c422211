/* sectors.h: sets of 32-byte sectors, and the union of a run of sectors
 * copied over a lattice, in closed form where the copies touch
 * (docs/counting.md).
 *
 * A generator (t, m) copies a run m times at steps of t sectors; a run
 * with several generators is copied over their lattice. Pure computation.
 */
#ifndef ROOFCAST_SECTORS_H
#define ROOFCAST_SECTORS_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

/* Generators of one run, at most: 16 nested loops and 3 block axes. */
#define RC_SECTORS_MAX_GENS 19

typedef struct {
    int64_t t, m; /* step in sectors, copies */
} rc_gen;

/* A run first .. first + n - 1 (first >= 0, n >= 1) and its generators,
 * normalised (rc_gens_normalise). */
typedef struct {
    int64_t first, n;
    int ng;
    rc_gen g[RC_SECTORS_MAX_GENS];
} rc_lattice;

/* Makes every step positive (adding to *shift what that moves the run's
 * start by), drops the generators that change nothing and sorts the rest
 * by step. False on overflow. */
bool rc_gens_normalise(rc_gen *g, int *n, int64_t *shift);

typedef struct rc_sectors rc_sectors;

/* An empty set, or NULL when out of memory; the caller frees it with
 * rc_sectors_free. */
rc_sectors *rc_sectors_new(void);
void rc_sectors_free(rc_sectors *s);

/* Adds the run first .. first + n - 1 copied over the lattice of g[ng]
 * (normalised). False when out of memory. */
bool rc_sectors_add_lattice(rc_sectors *s, int64_t first, int64_t n, const rc_gen *g, int ng);

/* Adds the lattices l[n] (reordered and merged in place): runs that touch
 * under the same generators are joined first, so that their copies can
 * merge in closed form. False when out of memory. */
bool rc_sectors_add_lattices(rc_sectors *s, rc_lattice *l, size_t n);

/* Whether the set holds `sector` (before rc_sectors_count). */
bool rc_sectors_has(rc_sectors *s, int64_t sector);

/* The number of sectors in the set, and with pairs not NULL the number of sector pairs
 * (sectors 2k and 2k + 1, a line's 64-byte halves) holding one or both. It spends the set:
 * call it once, then rc_sectors_free. */
int64_t rc_sectors_count(rc_sectors *s, int64_t *pairs);

#endif
