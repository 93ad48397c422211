/* bench_access.c: how long the exact memory analysis takes on large models.
 *
 *   build/tests/bench_access [N]
 *
 * Counts a naive N x N x N matrix multiply (N = 4096 by default: 6.9 x
 * 10^10 loads) in 16 x 16 blocks, checks every memory count against its
 * closed form, and prints the time. A warp is two rows of 16 threads, so
 * per k it reads 2 sectors of A (one per row) and 2 of B (16 floats of one
 * row); each warp stores 2 x 64 bytes of C, 4 sectors. It asserts
 * exactness, never time: timing targets are read by people.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/diag.h"
#include "model/eval.h"
#include "input/load.h"

static double seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int check(const char *what, long long got, long long want)
{
    if (got == want)
        return 0;
    fprintf(stderr, "bench_access: %s = %lld, expected %lld\n", what, got, want);
    return 1;
}

int main(int argc, char **argv)
{
    long long n = argc > 1 ? atoll(argv[1]) : 4096;
    if (n < 16 || n % 16 != 0) {
        fprintf(stderr, "bench_access: N must be a multiple of 16\n");
        return 2;
    }
    char xml[4096];
    snprintf(xml, sizeof xml,
             "<kernel id='matmul' name='matmul'><summary>s</summary><source>x</source>"
             "<launch grid='N / 16, N / 16' block='16, 16'/><param name='N' value='%lld'/>"
             "<array name='A' type='float' length='N * N'/><array name='B' type='float' length='N * N'/>"
             "<array name='C' type='float' length='N * N'/><work>"
             "<let name='row' value='blockIdx.y * 16 + threadIdx.y'/>"
             "<let name='col' value='blockIdx.x * 16 + threadIdx.x'/>"
             "<loop var='k' from='0' to='N'><flops count='2'/>"
             "<load array='A' index='row * N + k'/><load array='B' index='k * N + col'/></loop>"
             "<store array='C' index='row * N + col'/></work></kernel>",
             n);
    rc_diag *diag = rc_diag_new(stderr, 1);
    rc_loader *loader = rc_loader_new(diag);
    rc_kernel *k = rc_load_kernel_memory(loader, "matmul.xml", xml, strlen(xml), diag);
    if (!k)
        return 1;
    rc_counts c;
    rc_eval_error err;
    double t0 = seconds();
    clock_t c0 = clock();
    if (!rc_evaluate(k, false, &c, &err)) {
        fprintf(stderr, "bench_access: %s\n", err.message);
        return 1;
    }
    double cpu = (double)(clock() - c0) / CLOCKS_PER_SEC, wall = seconds() - t0;
    long long warps = n * n / 32, requests = warps * n;
    const rc_access *m = &c.memory;
    int bad = 0;
    /* Past the exact budget (N = 8192 and up) the blocks are sampled; every
     * class of this model makes the same accesses, so the scaled sample
     * still gives the closed form. */
    bad |= check("A requests", m->arrays[0].requests, requests);
    bad |= check("A sector bytes", m->arrays[0].sector_bytes, requests * 2 * 32);
    bad |= check("A accessed bytes", m->arrays[0].accessed_bytes, n * n * n * 4);
    bad |= check("A footprint", m->arrays[0].footprint_bytes, n * n * 4);
    bad |= check("B requests", m->arrays[1].requests, requests);
    bad |= check("B sector bytes", m->arrays[1].sector_bytes, requests * 2 * 32);
    bad |= check("B footprint", m->arrays[1].footprint_bytes, n * n * 4);
    bad |= check("C requests", m->arrays[2].requests, warps);
    bad |= check("C sector bytes", m->arrays[2].sector_bytes, warps * 4 * 32);
    bad |= check("C footprint", m->arrays[2].footprint_bytes, n * n * 4);
    char how[128] = "exact";
    if (m->sampled)
        snprintf(how, sizeof how, "sampled: %lld of %lld block classes", (long long)m->sample_blocks,
                 (long long)m->sample_classes);
    printf("matmul N = %lld: %lld loads in %lld requests; evaluation and memory analysis "
           "%.2f s CPU, %.2f s wall, %s%s\n",
           n, 2 * n * n * n, 2 * requests + warps, cpu, wall, how, bad ? " (WRONG COUNTS)" : "");
    rc_counts_release(&c);
    rc_kernel_free(k);
    rc_loader_free(loader);
    rc_diag_free(diag);
    return bad;
}
