/* chain.h: the per-thread dependent chain floor.
 *
 * A <loop dependent="true"> says that each iteration needs the one before it: a recurrence
 * (s = f(s)), a pointer chase, or a thread that stores into its own data and loads it back
 * the next iteration (a per-thread QR solve). However many warps an SM holds, one thread
 * runs such iterations one after another, so the thread that runs the most of them takes at
 * least their latencies end to end. Per dependent loop, with n = the iterations of its
 * busiest thread (eval.h: the loop's thread_max; a dependent loop inside another counts the
 * iterations of all its entries, so nesting multiplies by itself):
 *
 *   loads  when the body loads from global (or local) memory directly (a <load> that is a
 *          child of the loop, not under a <when> or in a nested loop, so every iteration
 *          makes one): each iteration waits at least one L1 hit, the GPU file's l1
 *          latency (a load after a store to the thread's own data cannot return sooner;
 *          docs/architectures.md, "Per-thread dependent chain")
 *   FLOPs  else, when the body does arithmetic: its FLOPs an iteration (over the launch, all
 *          of the body's statements, nested ones too; a <flops fused="false"> FLOP twice,
 *          an instruction of its own) / 2 as FMA instructions (at least
 *          one), each the generation's arithmetic latency (below). The floor counts
 *          one instruction an iteration: an iteration that needs the one before it needs
 *          at least one dependent instruction; that all its FMAs are dependent is assumed
 *
 * time = n x cycles an iteration / SM clock; the loop with the longest time sets the term.
 * The floor (time_lower) is the longest of the loops' floors, 0 for a loop whose latency
 * figure is assumed (an assumed figure bounds nothing, as for the arithmetic pipes).
 *
 * The arithmetic latency (arch.h, rc_arith_latency_cycles): a dependent FMA's as Arafa et al.
 * measure it ("Low Overhead Instruction Latency Characterization for NVIDIA GPGPUs", arXiv
 * 1905.08778; tabulated in lanl/PPT's PPT-GPU): Kepler 9 cycles, Maxwell 6, Pascal 6, Volta
 * and Turing 4; 8.x on take 4, assumed. The CUDA C++ Programming Guide ("Multiprocessor
 * Level") gives "typically about 11 clock cycles" for 3.x and "typically 4" for 7.x.
 */
#ifndef ROOFCAST_CHAIN_H
#define ROOFCAST_CHAIN_H

#include <stdbool.h>

#include "model/eval.h"
#include "model/model.h"

/* The chain term of one kernel on one GPU; all 0 (and loop_line 0) without dependent loops. */
typedef struct {
    int loop_line;          /* the kernel file's line of the loop that sets the term */
    double iterations;      /* its busiest thread's iterations */
    bool loads;             /* each iteration waits for an L1 hit */
    double instructions;    /* FLOPs: dependent FMA instructions an iteration (FLOPs / 2, >= 1) */
    double arith_cycles;    /* the arithmetic latency of the GPU's generation, cycles */
    bool arith_assumed;     /* arith_cycles is assumed (no figure in the guide) */
    const char *arith_source; /* static: where arith_cycles comes from */
    double link_cycles;     /* cycles an iteration: the L1 latency, or instructions x arith */
    bool link_assumed;      /* the figure link_cycles rests on is assumed */
    double time;            /* s, iterations x link_cycles / SM clock */
    double time_lower;      /* s, the floor over all dependent loops (0 where assumed) */
} rc_chain_time;

/* Fills *out for kernel `k` with counts `c` on GPU `g` (see above). */
void rc_chain_time_of(const rc_gpu *g, const rc_kernel *k, const rc_counts *c,
                      rc_chain_time *out);

#endif
