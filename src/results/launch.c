/* launch.c: see launch.h. */
#include "results/launch.h"

#include <stdint.h>
#include <stdio.h>

#include "model/refine.h"
#include "results/format.h"

/* rc_format_int into one of a few buffers, so that one message can hold
 * several numbers. */
#define NUMS 8 /* the most numbers one message holds (registers_why: 7) */
typedef struct {
    char buf[NUMS][32];
    int next;
} numbers;

static const char *num(numbers *n, int64_t v)
{
    char *b = n->buf[n->next++ % NUMS];
    return rc_format_int(v, b, sizeof n->buf[0]);
}

static void registers_why(const rc_sm_limits *sm, const rc_occupancy *o, int64_t threads,
                          int64_t regs, char *why, size_t len)
{
    numbers n = {0};
    int64_t file = (int64_t)sm->registers.value;
    int64_t per_thread = (int64_t)sm->registers_per_thread.value;
    if (regs > per_thread) {
        snprintf(why, len, "%s registers per thread exceed the GPU's %s", num(&n, regs),
                 num(&n, per_thread));
    } else if (threads * regs > file) {
        snprintf(why, len, "%s threads x %s registers need %s of %s", num(&n, threads),
                 num(&n, regs), num(&n, threads * regs), num(&n, file));
    } else {
        /* Within the file in all, but not once each warp's share is rounded up to the
         * allocation unit and the warps are spread over the file's quarters. */
        int64_t quarter = file / RC_REGISTER_PARTITIONS;
        int64_t each = o->registers_per_warp > 0 ? quarter / o->registers_per_warp : 0;
        snprintf(why, len, "%s threads x %s registers: %s warps of %s registers each (in units of "
                 "%s) do not fit the register file's %d quarters of %s (%s warp%s each)",
                 num(&n, threads), num(&n, regs), num(&n, o->warps_per_block),
                 num(&n, o->registers_per_warp), num(&n, (int64_t)sm->register_unit.value),
                 RC_REGISTER_PARTITIONS, num(&n, quarter), num(&n, each), each == 1 ? "" : "s");
    }
}

static void shared_why(const rc_sm_limits *sm, const rc_occupancy *o, int64_t shared, char *why,
                       size_t len)
{
    numbers n = {0};
    int64_t per_block = (int64_t)sm->shared_per_block.value;
    int64_t reserved = (int64_t)sm->shared_reserved.value;
    if (shared > per_block)
        snprintf(why, len, "%s bytes of shared memory per block exceed the GPU's %s per block",
                 num(&n, shared), num(&n, per_block));
    else if (shared == 0)
        snprintf(why, len, "the system's reserve of %s bytes of shared memory per block needs "
                 "%s of the SM's %s", num(&n, reserved), num(&n, o->shared_per_block),
                 num(&n, (int64_t)sm->shared.value));
    else
        snprintf(why, len, "%s bytes of shared memory per block and the system's reserve of %s "
                 "need %s of the SM's %s", num(&n, shared), num(&n, reserved),
                 num(&n, o->shared_per_block), num(&n, (int64_t)sm->shared.value));
}

bool rc_launch_fits(const rc_gpu *g, const rc_kernel *k, char *why, size_t len)
{
    rc_resources res = rc_kernel_resources(k);
    int64_t threads = rc_kernel_threads_per_block(k);
    rc_occupancy o;
    rc_occupancy_compute(&g->sm, threads, &res, &o);
    if (o.blocks_per_sm > 0)
        return true;
    numbers n = {0};
    switch (o.limit) {
    case RC_OCC_THREADS:
        snprintf(why, len, "%s threads per block exceed the SM's %s", num(&n, threads),
                 num(&n, (int64_t)g->sm.threads.value));
        break;
    case RC_OCC_BLOCKS:
        snprintf(why, len, "the GPU's SM holds %s blocks", num(&n, o.by_blocks));
        break;
    case RC_OCC_REGISTERS:
        registers_why(&g->sm, &o, threads, res.registers, why, len);
        break;
    case RC_OCC_SHARED:
    case RC_OCC_NONE:
        shared_why(&g->sm, &o, res.shared_bytes, why, len);
        break;
    }
    return false;
}

void rc_launch_message(const rc_gpu *g, const char *why, char *msg, size_t len)
{
    snprintf(msg, len, "cannot launch on the %s: %s", g->name, why);
}
