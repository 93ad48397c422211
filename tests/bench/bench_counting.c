/* bench_counting.c: how long exact counting takes on realistic launches.
 *
 *   build/tests/bench_counting [--dump] [--enumerate] [--check] [--reps N] KERNEL.xml...
 *
 * For each kernel file it runs rc_evaluate (the model's basis, with the
 * memory counts) N times (default 3) on one thread and prints the best
 * time and how the memory counts were made (docs/counting.md). --dump
 * prints every count instead, in a fixed order, so that two builds can be
 * compared with diff; --enumerate counts every array by enumeration, as
 * the differential tests do; --check counts each kernel both ways and
 * fails unless every count agrees (ctest: bench_counting_exact). Timings are read by people, never asserted: the
 * kernels in tests/bench/kernels/ are the launches docs/counting.md
 * reports.
 */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/diag.h"
#include "model/eval.h"
#include "input/load.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void dump_access(FILE *f, const char *what, const rc_access_counts *a)
{
    fprintf(f, "  %s: requests %lld accessed %lld sectors %lld footprint %lld rewritten %lld "
           "block-sectors %lld block-footprint-max %lld shared-requests %lld wavefronts %lld "
           "store-sectors %lld store-lines %lld\n",
           what, (long long)a->requests, (long long)a->accessed_bytes, (long long)a->sector_bytes,
           (long long)a->footprint_bytes, (long long)a->rewritten_bytes, (long long)a->block_sector_bytes,
           (long long)a->block_footprint_max, (long long)a->shared_requests,
           (long long)a->shared_wavefronts, (long long)a->store_sector_bytes,
           (long long)a->store_line_bytes);
}

static void dump(FILE *f, const rc_kernel *k, const rc_counts *c)
{
    fprintf(f, "%s: threads %lld/%lld blocks %lld/%lld flops %lld [%lld..%lld, %lld..%lld] "
           "bytes %lld [%lld..%lld, %lld..%lld] per-block %lld..%lld\n",
           k->id, (long long)c->threads_active, (long long)c->threads_launched,
           (long long)c->blocks_active, (long long)c->blocks_launched, (long long)c->flops.total,
           (long long)c->flops.thread_min, (long long)c->flops.thread_max,
           (long long)c->flops.block_min, (long long)c->flops.block_max,
           (long long)c->bytes.total, (long long)c->bytes.thread_min,
           (long long)c->bytes.thread_max, (long long)c->bytes.block_min,
           (long long)c->bytes.block_max, (long long)c->active_per_block.block_min,
           (long long)c->active_per_block.block_max);
    for (int i = 0; i < c->nwork; i++) {
        const rc_work_stats *s = &c->work[i];
        fprintf(f, "  node %d: %lld %lld threads %lld blocks %lld [%lld..%lld, %lld..%lld]\n", i,
               (long long)s->m0, (long long)s->m1, (long long)s->threads, (long long)s->blocks,
               (long long)s->thread_min, (long long)s->thread_max, (long long)s->block_min,
               (long long)s->block_max);
    }
    const rc_access *m = &c->memory;
    dump_access(f, "total", &m->total);
    dump_access(f, "legacy", &m->legacy);
    for (int i = 0; i < m->narrays; i++)
        dump_access(f, k->arrays[i].name, &m->arrays[i]);
    fprintf(f, "  sampled %d\n", (int)m->sampled);
}

/* Counts k both ways; true when every count agrees. */
static bool check(const rc_kernel *k)
{
    char *text[2] = {NULL, NULL};
    size_t len[2] = {0, 0};
    bool ok = true;
    for (int way = 0; way < 2; way++) {
        rc_eval_options opt = {way == 1, NULL, NULL};
        rc_counts c;
        rc_eval_error err;
        FILE *f = open_memstream(&text[way], &len[way]);
        if (!f)
            return false;
        if (rc_evaluate_with(k, false, &opt, &c, &err)) {
            dump(f, k, &c);
            rc_counts_release(&c);
        } else
            fprintf(f, "fails: %s\n", err.message);
        fclose(f);
    }
    if (strcmp(text[0], text[1]) != 0) {
        fprintf(stderr, "bench_counting: %s: the counts by classes differ from the enumeration\n"
                "classes:\n%senumeration:\n%s", k->id, text[0], text[1]);
        ok = false;
    } else
        printf("%s: every count equal by classes and by enumeration\n", k->id);
    free(text[0]);
    free(text[1]);
    return ok;
}

int main(int argc, char **argv)
{
    int reps = 3, first = 1;
    bool dumping = false, checking = false;
    rc_eval_options opt = {false, NULL, NULL};
    while (first < argc && argv[first][0] == '-') {
        if (strcmp(argv[first], "--dump") == 0)
            dumping = true, first++;
        else if (strcmp(argv[first], "--check") == 0)
            checking = true, first++;
        else if (strcmp(argv[first], "--enumerate") == 0)
            opt.enumerate = true, first++;
        else if (strcmp(argv[first], "--reps") == 0 && first + 1 < argc)
            reps = atoi(argv[first + 1]), first += 2;
        else {
            fprintf(stderr, "usage: bench_counting [--dump] [--enumerate] [--check] [--reps N] KERNEL.xml...\n");
            return 2;
        }
    }
    if (reps < 1)
        reps = 1;
    rc_diag *diag = rc_diag_new(stderr, 1);
    rc_loader *loader = rc_loader_new(diag);
    int status = 0;
    for (int f = first; f < argc; f++) {
        rc_kernel *k = rc_load_kernel(loader, argv[f], diag);
        if (!k) {
            status = 1;
            continue;
        }
        if (checking) {
            if (!check(k))
                status = 1;
            rc_kernel_free(k);
            continue;
        }
        double best = 1e30;
        for (int r = 0; r < (dumping ? 1 : reps); r++) {
            rc_counts c;
            rc_eval_error err;
            double t0 = now();
            bool ok = rc_evaluate_with(k, false, &opt, &c, &err);
            double t = now() - t0;
            if (!ok) {
                fprintf(stderr, "%s: %s\n", argv[f], err.message);
                status = 1;
                break;
            }
            if (t < best)
                best = t;
            if (dumping) {
                dump(stdout, k, &c);
                if (c.memory.enumerated[0])
                    printf("  enumerated: %s\n", c.memory.enumerated);
            }
            else if (r == reps - 1)
                printf("%-36s %10.2f ms  %s%s\n", k->id, best * 1e3,
                       c.memory.sampled ? "sampled" : "exact",
                       c.memory.enumerated[0] ? ", enumerated" : "");
            rc_counts_release(&c);
        }
        rc_kernel_free(k);
    }
    rc_loader_free(loader);
    rc_diag_free(diag);
    return status;
}
