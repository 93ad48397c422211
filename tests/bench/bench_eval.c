/* bench_eval.c: how long exact evaluation takes on the largest launches.
 *
 *   build/tests/bench_eval [repetitions]
 *
 * Counts maximum_kernel's model on a grid of 65535 x 65535 blocks of 1024
 * threads (4.4 x 10^12 threads), checks the counts against the closed form,
 * and prints the time per evaluation; then how long models that would run
 * for hours take to be refused at the step limit (RC_EVAL_STEP_LIMIT). It
 * asserts exactness and the refusal, never time:
 * timing targets are read by people, not by the test suite.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/diag.h"
#include "model/eval.h"
#include "input/load.h"

static const char model[] =
    "<kernel id='maximum_kernel' name='maximum_kernel'><summary>s</summary>"
    "<source>x</source><launch grid='65535,65535,1' block='1024,1,1'/>"
    "<param name='k' value='100'/><work>"
    "<loop var='offset' from='threadIdx.x' to='k' step='blockDim.x'>"
    "<flops count='3'/><load count='2' bytes='4'/></loop></work></kernel>";

/* Models that read two index dimensions, on launches at CUDA's limits,
 * with their exact FLOP counts worked out by hand. */
static const struct {
    const char *what, *grid, *block, *work;
    long long flops;
} two_dims[] = {
    {"1-D guard x < n over 2^31-1 blocks of 1024", "2147483647", "1024",
     "<when test='blockIdx.x * blockDim.x + threadIdx.x &lt; 1000000000007'><flops count='1'/></when>",
     1000000000007LL},
    {"2-D bounds x < w, y < h over 65535 x 65535 blocks", "65535,65535", "1",
     "<when test='blockIdx.x &lt; 40000 and blockIdx.y &lt; 30001'><flops count='2'/></when>",
     2LL * 40000 * 30001},
    {"triangle i < j of a 1024 x 1024 tile, 65535 x 65535 blocks", "65535,65535", "32,32",
     "<when test='threadIdx.x &lt; threadIdx.y'><flops count='1'/></when>",
     32LL * 31 / 2 * 65535 * 65535},
    {"per-thread count = threadIdx.x over 2^31-1 blocks", "2147483647", "1024",
     "<flops count='threadIdx.x'/>", 1023LL * 1024 / 2 * 2147483647LL},
    {"diagonal blockIdx.x < threadIdx.x over 2^31-1 blocks", "2147483647", "1024",
     "<when test='blockIdx.x &lt; threadIdx.x'><flops count='1'/></when>", 1023LL * 1024 / 2},
};

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Models that would run for hours: each must be refused at the step limit.
 * Returns false when one is not. */
static bool time_step_limit(rc_loader *loader, rc_diag *diag)
{
    char long_count[4096] = "i";
    for (int j = 0; j < 200; j++)
        strcat(long_count, " + i % 7");
    char many[4096] = "<flops count='blockIdx.x * 1024 + threadIdx.x'/>";
    for (int j = 0; j < 30; j++)
        strcat(many, "<flops count='1'/>");
    char long_loop[8192];
    snprintf(long_loop, sizeof long_loop,
             "<loop var='i' from='0' to='1000000000000'><flops count='%s'/></loop>", long_count);
    const struct {
        const char *what, *grid, *block, *work;
    } refused[] = {
        {"10^12 iterations reading i", "1", "1",
         "<loop var='i' from='0' to='1000000000000'><flops count='i'/></loop>"},
        {"10^12 iterations of a 200-term count", "1", "1", long_loop},
        {"10^12 iterations of a guard never taken", "1", "1",
         "<loop var='i' from='0' to='1000000000000'><when test='i &lt; 0'/></loop>"},
        {"work differing per thread over 10^6 blocks of 1024", "1000000", "1024", many},
    };
    for (size_t m = 0; m < sizeof refused / sizeof refused[0]; m++) {
        char xml[16384];
        snprintf(xml, sizeof xml,
                 "<kernel id='b' name='b'><summary>s</summary><source>x</source>"
                 "<launch grid='%s' block='%s'/><work>%s</work></kernel>",
                 refused[m].grid, refused[m].block, refused[m].work);
        rc_kernel *k = rc_load_kernel_memory(loader, "bench", xml, strlen(xml), diag);
        if (!k)
            return false;
        rc_counts c;
        rc_eval_error err;
        double t0 = now();
        bool counted = rc_evaluate(k, false, &c, &err);
        double t = now() - t0;
        rc_kernel_free(k);
        if (counted) {
            rc_counts_release(&c);
            fprintf(stderr, "FAIL: %s: counted, not refused at the step limit\n", refused[m].what);
            return false;
        }
        printf("refused: %-50s %8.3f s\n", refused[m].what, t);
    }
    return true;
}

int main(int argc, char **argv)
{
    int reps = argc > 1 ? atoi(argv[1]) : 100;
    if (reps < 1)
        reps = 1;
    rc_diag *diag = rc_diag_new(stderr, 1);
    rc_loader *loader = rc_loader_new(diag);
    rc_kernel *k = loader ? rc_load_kernel_memory(loader, "bench", model, strlen(model), diag)
                          : NULL;
    int status = 1;
    if (!k)
        goto end;
    /* Threads 0-99 of each block run one iteration: 100 per block. */
    const long long blocks = 65535LL * 65535LL, iterations = 100 * blocks;
    double best = 1e9, total = 0;
    rc_counts c;
    rc_eval_error err;
    for (int r = 0; r < reps; r++) {
        double t0 = now();
        if (!rc_evaluate(k, false, &c, &err)) {
            fprintf(stderr, "evaluation failed: %s\n", err.message);
            goto end;
        }
        double t = now() - t0;
        total += t;
        if (t < best)
            best = t;
        bool exact = c.flops.total == 3 * iterations && c.bytes.total == 8 * iterations &&
                     c.threads_launched == 1024 * blocks && c.threads_active == 100 * blocks;
        long long runs = (long long)c.thread_runs;
        rc_counts_release(&c);
        if (!exact) {
            fprintf(stderr, "FAIL: counts are not exact\n");
            goto end;
        }
        if (r == 0)
            printf("maximum_kernel on 65535 x 65535 blocks of 1024 threads: "
                   "%lld FLOPs, %lld bytes, exact; %lld runs over ranges of indices\n",
                   3 * iterations, 8 * iterations, runs);
    }
    printf("evaluation: best %.1f us, mean %.1f us over %d runs\n", best * 1e6,
           total / reps * 1e6, reps);

    /* Models reading two index dimensions at CUDA's limits. */
    for (size_t m = 0; m < sizeof two_dims / sizeof two_dims[0]; m++) {
        char xml[1024];
        snprintf(xml, sizeof xml,
                 "<kernel id='b' name='b'><summary>s</summary><source>x</source>"
                 "<launch grid='%s' block='%s'/><work>%s</work></kernel>",
                 two_dims[m].grid, two_dims[m].block, two_dims[m].work);
        rc_kernel *km = rc_load_kernel_memory(loader, "bench", xml, strlen(xml), diag);
        if (!km)
            goto end;
        double t0 = now();
        bool ok = rc_evaluate(km, false, &c, &err);
        double t = now() - t0;
        if (!ok || c.flops.total != two_dims[m].flops) {
            fprintf(stderr, "FAIL: %s: %s\n", two_dims[m].what, ok ? "wrong count" : err.message);
            if (ok)
                rc_counts_release(&c);
            rc_kernel_free(km);
            goto end;
        }
        printf("%-58s %10.3f ms  %6lld runs, exact\n", two_dims[m].what, t * 1e3,
               (long long)c.thread_runs);
        rc_counts_release(&c);
        rc_kernel_free(km);
    }
    if (!time_step_limit(loader, diag))
        goto end;
    status = 0;
end:
    rc_kernel_free(k);
    rc_loader_free(loader);
    rc_diag_free(diag);
    return status;
}
