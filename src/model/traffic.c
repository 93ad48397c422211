/* traffic.c: bytes per level of the memory hierarchy. See traffic.h.
 *
 * Why this rule: L1 is a per-SM cache that keeps what a block reuses only
 * while the data touched between two uses fits it (Jia et al., "Dissecting
 * the NVIDIA Volta GPU Architecture via Microbenchmarking", 2018, find hits
 * up to the configured L1 size, then a steep fall): how much is still there
 * comes from a run of one SM's L1 (l1sim.h), or where that does not apply
 * from the most one block touches against its share (L1 keeps no store: stores'
 * sectors all go on to L2); sectors that miss go to L2 at 32-byte granularity
 * (NVIDIA's CUDA C++ Best Practices Guide, "Coalesced Access to Global
 * Memory"). L2 is shared by the whole GPU, so DRAM sees each sector once
 * (the footprint, compulsory traffic) when the launch's footprint fits the
 * L2, a sector both read and written twice (the
 * L2 writes back: read in, then written out; so daxpy, y = a x + y, moves
 * three arrays' bytes, as STREAM-style accounting counts it, where a copy
 * into an array not read moves two), and more of the L2 traffic as it
 * outgrows it (the hierarchical roofline of Yang, Kurth and Williams,
 * "Hierarchical Roofline analysis for GPUs", CCPE 2020, measures each
 * level's bytes the same way). The linear fall-off between the two is the
 * simplest rule that stays within those bounds; it is an assumption, and
 * the report says so.
 */
#include "model/traffic.h"

#include <math.h>

#include "model/arch.h"

double rc_traffic_resident_blocks(const rc_gpu *g, const rc_counts *c)
{
    double sms = g->sm.count.value > 0 ? g->sm.count.value : (g->sms > 0 ? (double)g->sms : 1);
    double resident = ceil((double)c->blocks_launched / sms);
    if (g->sm.threads.value > 0 && c->threads_per_block > 0)
        resident = fmin(resident, floor(g->sm.threads.value / (double)c->threads_per_block));
    if (g->sm.blocks.value > 0)
        resident = fmin(resident, g->sm.blocks.value);
    return resident < 1 ? 1 : resident;
}

/* Where L1 does not cache global loads by default (Kepler, Maxwell, GP104: rc_sm_pipes), only
 * read-only data takes the cached path (the read-only data cache on 3.5, the unified
 * L1/texture cache on 5.x: __ldg, or const __restrict__ pointers the compiler proves
 * read-only; Programming Guide, compute capability 3.x and 5.x, Global Memory). An <array>
 * says how its pointer is declared with read-only-path (rc_read_only_path); one that does not
 * say, and that the kernel never stores to or updates atomically, is taken as read-only and
 * cached (assumed). The sectors of the others all go to L2. */
bool rc_traffic_l1_caches(const rc_gpu *g, const rc_access_counts *a)
{
    return rc_sm_pipes_for(g->compute_capability)->l1_caches_global || rc_traffic_read_only(a);
}

bool rc_traffic_read_only(const rc_access_counts *a)
{
    return a->store_sector_bytes == 0 && a->read_only_path != RC_READ_ONLY_PATH_NO;
}

/* What DRAM moves to bring the footprint in: a sector the L2 misses comes with the other half
 * of its 64-byte half-line on GPUs that fetch 64 bytes (arch.c rc_dram_fetch_bytes), so an
 * array read or updated moves its pairs' bytes; an array only written moves its sectors (the
 * L2 writes back what was written, not what was fetched). Legacy bytes are coalesced. */
static double fetched_bytes(const rc_gpu *g, const rc_counts *c, bool *assumed,
                            const char **source)
{
    const rc_access *m = &c->memory;
    double fetch = rc_dram_fetch_bytes(g->compute_capability, assumed, source);
    double fetched = (double)m->total.footprint_bytes;
    if (fetch < 64)
        return fetched;
    for (int i = 0; i < m->narrays; i++) {
        const rc_access_counts *a = &m->arrays[i];
        if (a->store_sector_bytes < a->sector_bytes && a->footprint_pair_bytes > a->footprint_bytes)
            fetched += (double)(a->footprint_pair_bytes - a->footprint_bytes);
    }
    return fetched;
}

void rc_traffic_compute(const rc_gpu *g, const rc_counts *c, const rc_l1_reuse *sim,
                        rc_traffic *t)
{
    const rc_access_counts *m = &c->memory.total;
    double S = (double)m->sector_bytes, B = (double)m->block_sector_bytes;
    double W = (double)m->footprint_bytes, F = (double)m->block_footprint_max;
    double P = fetched_bytes(g, c, &t->dram_fetch_assumed, &t->dram_fetch_source);
    t->dram_fetched = P;
    t->resident_blocks = rc_traffic_resident_blocks(g, c);
    t->l1_per_block = g->sm.l1.value / t->resident_blocks;
    t->l1_simulated = sim && sim->simulated;
    if (t->l1_simulated)
        t->l1_hit = sim->hit;
    else
        t->l1_hit = F <= t->l1_per_block ? 1 : t->l1_per_block / F;
    t->l1_bytes = S + 128.0 * (double)m->shared_wavefronts;
    /* Stores go through L1 to L2 request by request on every generation (the L2 writes back,
     * L1 keeps no global store): their sectors all reach L2, where a block's writes to one
     * sector come close together and merge, so only its distinct ones (their share of the
     * block's sectors) can reach DRAM. */
    double uncached = 0, reuse_all = S - B, stored = 0, stored_block = 0;
    bool reuse_lost = false; /* some uncached array reuses sectors L1 would have kept */
    bool caches = rc_sm_pipes_for(g->compute_capability)->l1_caches_global;
    for (int i = 0; i < c->memory.narrays; i++) {
        const rc_access_counts *a = &c->memory.arrays[i];
        double sec = (double)a->sector_bytes, block = (double)a->block_sector_bytes;
        if (a->store_sector_bytes > 0 && sec > 0) {
            double share = (double)a->store_sector_bytes / sec;
            stored += (double)a->store_sector_bytes;
            stored_block += block * share;
            S -= sec * share;
            B -= block * share;
            sec -= sec * share;
            block -= block * share;
        }
        if (!caches && !rc_traffic_l1_caches(g, a)) {
            uncached += sec;
            S -= sec;
            B -= block;
            reuse_lost |= sec > block;
        }
    }
    t->l2_bytes = B + (S - B) * (1 - t->l1_hit) + uncached + stored;
    t->l1_reuse_bypassed = reuse_lost && reuse_all > 0 && t->l1_hit > 0;
    t->l1_kept = t->l1_reuse_bypassed ? (S - B) * t->l1_hit / reuse_all : t->l1_hit;
    if (t->l2_bytes < W)
        t->l2_bytes = W;
    t->l2_fit = P <= g->l2_bytes ? 1 : g->l2_bytes / P;
    double beyond = t->l2_bytes - stored + stored_block - W;
    t->dram_bytes = P + (double)m->rewritten_bytes +
                    (beyond > 0 ? beyond : 0) * (1 - t->l2_fit) * (W > 0 ? P / W : 1);
    t->l1_bandwidth = g->rates.l1_bandwidth.value;
    t->l2_bandwidth = g->rates.l2_bandwidth.value;
    t->dram_bandwidth = g->bandwidth;
    t->t_l1 = t->l1_bandwidth > 0 ? t->l1_bytes / t->l1_bandwidth : 0;
    t->t_l2 = t->l2_bandwidth > 0 ? t->l2_bytes / t->l2_bandwidth : 0;
    t->t_dram = t->dram_bandwidth > 0 ? t->dram_bytes / t->dram_bandwidth : 0;
    double flops = (double)c->flops.total;
    t->intensity_l1 = t->l1_bytes > 0 ? flops / t->l1_bytes : 0;
    t->intensity_l2 = t->l2_bytes > 0 ? flops / t->l2_bytes : 0;
    t->intensity_dram = t->dram_bytes > 0 ? flops / t->dram_bytes : 0;
}
