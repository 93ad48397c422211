/* atomics.c: see atomics.h. */
#include "model/atomics.h"

#include <math.h>
#include <string.h>

#include "model/arch.h"
#include "model/names.h"

const char rc_atomic_line_source[] =
    "assumed: an RTX 4090's rate on one address, PWhiddy/webgpu-atomics-benchmark";

/* Updates of one address a line serves a clock when the lanes cannot be combined, by
 * generation (atomics.h), for adds of floats and of integers.
 *
 * Floats: ptheywood/atomicAddBench, 1,048,576 float adds of per-lane values to one address,
 * 1,048,576 / (time x boost clock); measured to Volta, the TITAN V's assumed after.
 *
 * Integers: R100001/Programming-Massively-Parallel-Processors at a972fb50, NvBench "Simple
 * Histogram (Different Grid and Block sizes)": 2^26 zeroes, atomicAdd(&bins[input[i]], 1),
 * every lane on bins[0], which nvcc cannot combine since the address is data; 2^21 requests
 * of 32 lanes, whatever the block size (32 to 1,024). With one operation a request at 0.77
 * a clock, the further 31 updates take the rest: 31 / (time x clock / 2^21 - 1 / 0.77).
 * Blocks of 512: GTX 1650 36.14 ms at 1590 MHz, 1.19 a clock; RTX 2060 38.05 ms at 1680 MHz,
 * 1.06 (Turing: mean 1.12); RTX 3060 1.05, 3060 Ti 1.13, 3070 Ti 1.05, 3080 36.16 ms at
 * 1710 MHz 1.10, 3060 Laptop GPU 1.31 (GA10x: median 1.10, the 3080's). Before Turing none was
 * found: the generation's float rate, assumed; GA100, Ada and Hopper take GA10x's, assumed. */
#define ADD_BENCH "atomicAddBench, float adds: "
#define SIMPLE_HIST "R100001 NvBench, Simple Histogram, integer adds: "
static const struct {
    int from_cc;
    double per_clock, int_per_clock;
    const char *source, *int_source;
} lane_rates[] = {
    {0, 0.32, 0.32, ADD_BENCH "a Tesla K80's (Kepler), 3.76 ms at 875 MHz",
     "assumed: Kepler's float adds' (" ADD_BENCH "a Tesla K80's)"},
    {500, 0.27, 0.27, ADD_BENCH "a GTX TITAN X's (Maxwell), 3.58 ms at 1075 MHz",
     "assumed: Maxwell's float adds' (" ADD_BENCH "a GTX TITAN X's)"},
    {600, 0.33, 0.33, ADD_BENCH "a TITAN X (Pascal)'s, 2.11 ms at 1531 MHz",
     "assumed: Pascal's float adds' (" ADD_BENCH "a TITAN X (Pascal)'s)"},
    {700, 0.26, 0.26, ADD_BENCH "a TITAN V's (Volta), 2.78 ms at 1455 MHz",
     "assumed: Volta's float adds' (" ADD_BENCH "a TITAN V's)"},
    {705, 0.26, 1.12, "assumed: " ADD_BENCH "a TITAN V's (Volta), 2.78 ms at 1455 MHz",
     SIMPLE_HIST "a GTX 1650 and an RTX 2060 (Turing), 36.1 and 38.0 ms"},
    {800, 0.26, 1.10, "assumed: " ADD_BENCH "a TITAN V's (Volta), 2.78 ms at 1455 MHz",
     "assumed: GA10x's, " SIMPLE_HIST "an RTX 3080, 36.2 ms at 1710 MHz"},
    {806, 0.26, 1.10, "assumed: " ADD_BENCH "a TITAN V's (Volta), 2.78 ms at 1455 MHz",
     SIMPLE_HIST "an RTX 3080, 36.2 ms at 1710 MHz (median of five GA10x)"},
    {809, 0.26, 1.10, "assumed: " ADD_BENCH "a TITAN V's (Volta), 2.78 ms at 1455 MHz",
     "assumed: GA10x's, " SIMPLE_HIST "an RTX 3080, 36.2 ms at 1710 MHz"},
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
    double multi_rate = rc_atomic_multiword_per_clock(cc, &multi_assumed, &multi_source);
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
        bool integer = rc_type_is_integer(k->arrays[i].type);
        double lane_rate = integer ? lane_rates[row].int_per_clock : lane_rates[row].per_clock;
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
        out->lane_per_clock = lane_rate;
        out->lane_source = integer ? lane_rates[row].int_source : lane_rates[row].source;
        out->with_stores = runs_on(k->work, c, RC_WORK_STORE, (int)i);
    }
    if (out->array < 0)
        return;
    out->multi_per_clock = multi_rate;
    out->multi_assumed = multi_assumed;
    out->multi_source = multi_source;
    double single = out->operations - out->lane_extra - out->multiword;
    out->assumed = single > 0 || (out->lane_extra > 0 && strncmp(out->lane_source, "assumed", 7) == 0) ||
                   (out->multiword > 0 && multi_assumed);
    out->rate = out->per_line / out->time;
}
