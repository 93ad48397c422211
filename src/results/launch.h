/* launch.h: whether a kernel's launch can run on a GPU at all.
 *
 * A block must be resident on one SM: its threads, its registers (per
 * warp, in the GPU's allocation unit, within each quarter of the register
 * file), its shared memory with the system's reserve, and the SM's block
 * slots (refine.h: the occupancy rules). A launch where not even one
 * block fits fails on that GPU (CUDA: "too many resources requested for
 * launch"), so it has no estimate there: the results tree says so with a
 * <cannot-launch> beside the kernel's <estimates> (results.h), every
 * report names it, and the run exits 1.
 */
#ifndef ROOFCAST_LAUNCH_H
#define ROOFCAST_LAUNCH_H

#include <stdbool.h>
#include <stddef.h>

#include "model/model.h"

/* True when one block of `k` can be resident on an SM of `g`. Otherwise
 * false, with why[len] saying what does not fit, in the reports' words:
 * "1,024 threads x 255 registers need 261,120 of 65,536". */
bool rc_launch_fits(const rc_gpu *g, const rc_kernel *k, char *why, size_t len);

/* The whole message of a pair that cannot launch, as stderr and every
 * report print it: "cannot launch on the GeForce RTX 4070: WHY". */
void rc_launch_message(const rc_gpu *g, const char *why, char *msg, size_t len);

#endif
