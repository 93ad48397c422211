/* atomics.c: see atomics.h. */
#include "model/atomics.h"

#include <math.h>

const char rc_atomic_line_source[] =
    "assumed: an RTX 4090's rate on one address, PWhiddy/webgpu-atomics-benchmark";

/* Whether some statement of kind `kind` under `w` (its siblings included) that some thread
 * runs (counts `c`) accesses array `a`: an <atomic> under a guard no thread takes makes no
 * array's stores atomics. */
static bool runs_on(const rc_work *w, const rc_counts *c, rc_work_kind kind, int a)
{
    for (; w; w = w->next)
        if ((w->kind == kind && w->array == a && c->work[w->index].m0 > 0) ||
            runs_on(w->children, c, kind, a))
            return true;
    return false;
}

void rc_atomic_time_of(const rc_kernel *k, const rc_counts *c, double clock, rc_atomic_time *out)
{
    *out = (rc_atomic_time){.array = -1};
    if (!c->memory_counted || !c->memory.arrays || !c->work || clock <= 0)
        return;
    for (size_t i = 0; i < k->narrays && (int)i < c->memory.narrays; i++) {
        if (k->arrays[i].space != RC_SPACE_GLOBAL || !runs_on(k->work, c, RC_WORK_ATOMIC, (int)i))
            continue;
        const rc_access_counts *m = &c->memory.arrays[i];
        double operations = (double)m->store_line_bytes / 128;
        double lines = ceil((double)m->footprint_bytes / 128);
        if (lines < 1)
            lines = 1;
        if (operations <= 0 || operations / lines <= out->per_line)
            continue;
        out->array = (int)i;
        out->name = k->arrays[i].name;
        out->operations = operations;
        out->lines = lines;
        out->per_line = operations / lines;
        out->with_stores = runs_on(k->work, c, RC_WORK_STORE, (int)i);
    }
    if (out->array < 0)
        return;
    out->rate = RC_ATOMIC_LINE_PER_CLOCK * clock;
    out->time = out->per_line / out->rate;
}
