/* atomics.c: see atomics.h. */
#include "model/atomics.h"

#include <math.h>

#include "model/arch.h"

const char rc_atomic_line_source[] =
    "assumed: an RTX 4090's rate on one address, PWhiddy/webgpu-atomics-benchmark";

/* Updates of one address a line serves a clock when the lanes cannot be combined, by
 * generation (atomics.h): 1,048,576 / (time x boost clock). */
static const struct {
    int from_cc;
    double per_clock;
    const char *source;
} lane_rates[] = {
    {0, 0.32, "a Tesla K80's (Kepler), atomicAddBench: 3.76 ms at 875 MHz"},
    {500, 0.27, "a GTX TITAN X's (Maxwell), atomicAddBench: 3.58 ms at 1075 MHz"},
    {600, 0.33, "a TITAN X (Pascal)'s, atomicAddBench: 2.11 ms at 1531 MHz"},
    {700, 0.26, "a TITAN V's (Volta), atomicAddBench: 2.78 ms at 1455 MHz"},
    {705, 0.26, "assumed: a TITAN V's (Volta), atomicAddBench: 2.78 ms at 1455 MHz"},
};

static int lane_rate_row(const char *cc)
{
    int gen = rc_sm_pipes_for(cc)->from_cc, row = 0;
    for (int i = 0; i < (int)(sizeof lane_rates / sizeof lane_rates[0]); i++)
        if (lane_rates[i].from_cc <= gen)
            row = i;
    return row;
}

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
    int row = lane_rate_row(cc);
    bool multi_assumed;
    const char *multi_source;
    double lane_rate = lane_rates[row].per_clock,
           multi_rate = rc_atomic_multiword_per_clock(cc, &multi_assumed, &multi_source);
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
        double time = (single / RC_ATOMIC_LINE_PER_CLOCK + multi / multi_rate + extra / lane_rate) /
                      lines / clock;
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
        out->with_stores = runs_on(k->work, c, RC_WORK_STORE, (int)i);
    }
    if (out->array < 0)
        return;
    out->lane_per_clock = lane_rate;
    out->lane_source = lane_rates[row].source;
    out->multi_per_clock = multi_rate;
    out->multi_assumed = multi_assumed;
    out->multi_source = multi_source;
    double single = out->operations - out->lane_extra - out->multiword;
    out->assumed = single > 0 || (out->lane_extra > 0 && lane_rates[row].from_cc >= 705) ||
                   (out->multiword > 0 && multi_assumed);
    out->rate = out->per_line / out->time;
}
