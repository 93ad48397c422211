/* atomics.c: see atomics.h. */
#include "model/atomics.h"

#include <math.h>

#include "model/arch.h"
#include "model/names.h"

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

void rc_atomic_time_of(const rc_kernel *k, const rc_counts *c, const char *cc, double clock,
                       rc_atomic_time *out)
{
    *out = (rc_atomic_time){.array = -1};
    if (!c->memory_counted || !c->memory.arrays || !c->work || clock <= 0)
        return;
    bool multi_assumed, lane_assumed[2];
    const char *multi_source, *lane_source[2];
    double multi_rate = rc_atomic_multiword_per_clock(cc, &multi_assumed, &multi_source);
    double lane_rate[2] = {rc_atomic_lane_per_clock(cc, false, &lane_assumed[0], &lane_source[0]),
                           rc_atomic_lane_per_clock(cc, true, &lane_assumed[1], &lane_source[1])};
    for (size_t i = 0; i < k->narrays && (int)i < c->memory.narrays; i++) {
        if (k->arrays[i].space != RC_SPACE_GLOBAL || !runs_on(k->work, c, RC_WORK_ATOMIC, (int)i))
            continue;
        const rc_access_counts *m = &c->memory.arrays[i];
        double extra = (double)m->atomic_lane_extra, multi = (double)m->atomic_multiword;
        double operations = (double)m->store_line_bytes / 128 + extra;
        double lines = ceil((double)m->footprint_bytes / 128);
        if (lines < 1)
            lines = 1;
        double single = operations - extra - multi;
        int integer = rc_type_is_integer(k->arrays[i].type);
        double time = (single / RC_ATOMIC_LINE_PER_CLOCK + multi / multi_rate +
                       extra / lane_rate[integer]) / lines / clock;
        if (operations <= 0 || time <= out->time)
            continue;
        out->array = (int)i;
        out->name = k->arrays[i].name;
        out->lane_extra = extra;
        out->multiword = multi;
        out->operations = operations;
        out->lines = lines;
        out->per_line = operations / lines;
        out->time = time;
        out->lane_per_clock = lane_rate[integer];
        out->lane_source = lane_source[integer];
        out->assumed = single > 0 || (extra > 0 && lane_assumed[integer]) ||
                       (multi > 0 && multi_assumed);
        out->with_stores = runs_on(k->work, c, RC_WORK_STORE, (int)i);
    }
    if (out->array < 0)
        return;
    out->multi_per_clock = multi_rate;
    out->multi_assumed = multi_assumed;
    out->multi_source = multi_source;
    out->rate = out->per_line / out->time;
}
