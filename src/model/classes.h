/* classes.h: one array's exact memory counts by classes of blocks and of
 * loop iterations (docs/counting.md), the default path of access.c.
 *
 * Blocks of one box (a box of blocks in which every thread makes the same
 * decisions: the evaluator's boxes, eval.c) whose accesses are affine in
 * the block indices repeat one block's accesses, translated. Each 32-byte
 * sector, 128-byte line and 4-byte bank count depends on the translation
 * only through its remainder modulo 128 bytes, so one block per remainder
 * is run and its counts multiplied. Loop iterations likewise, for loops
 * whose body decides nothing on the loop variable. Footprints are the
 * unions of the translated sectors, merged in closed form where
 * translations overlap and set in a sector bitmap elsewhere.
 *
 * Pure computation, no I/O.
 */
#ifndef ROOFCAST_CLASSES_H
#define ROOFCAST_CLASSES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/access.h"
#include "model/model.h"

typedef enum {
    RC_CLASSES_DONE,      /* *out holds the exact counts */
    RC_CLASSES_ENUMERATE, /* the classes do not apply: why[] says why */
    RC_CLASSES_FAIL       /* out of memory: why[] says so */
} rc_classes_status;

/* Counts the accesses to k->arrays[array] over the launch into *out (all
 * fields but none left from before). `needed` (by node index) marks the
 * nodes that are or contain accesses to the array, `reads` (by slot) the
 * slots they and the guards and loops around them read, lets closed over;
 * `boxes` partition the launch's blocks. `budget` bounds the lane-steps. */
rc_classes_status rc_classes_count(const rc_kernel *k, int array, const bool *needed,
                                   const bool *reads, const rc_block_box *boxes, size_t nboxes,
                                   int64_t budget, rc_access_counts *out, char *why,
                                   size_t why_len);

#endif
