/* parallel.c: see parallel.h. */
#include "util/parallel.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

struct rc_progress {
    FILE *stream;
    bool enabled;
    bool shown;
    pthread_mutex_t lock;
    double start, last;
};

static double monotonic(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

rc_progress *rc_progress_new(FILE *stream, bool enabled)
{
    rc_progress *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->stream = stream;
    p->enabled = enabled && isatty(fileno(stream));
    pthread_mutex_init(&p->lock, NULL);
    p->start = p->last = monotonic();
    return p;
}

void rc_progress_free(rc_progress *p)
{
    if (!p)
        return;
    if (p->shown) {
        fputs("\r\033[K", p->stream); /* leave the terminal as it was */
        fflush(p->stream);
    }
    pthread_mutex_destroy(&p->lock);
    free(p);
}

/* At most ten updates a second: a terminal is slower than the work. */
static void progress_show(rc_progress *p, const char *what, size_t done, size_t total)
{
    if (!p || !p->enabled)
        return;
    pthread_mutex_lock(&p->lock);
    double now = monotonic();
    if (now - p->last >= 0.1 || (done == total && p->shown)) {
        fprintf(p->stream, "\r\033[Kroofcast: %s %zu of %zu kernels, %.1f s", what, done, total,
                now - p->start);
        fflush(p->stream);
        p->shown = true;
        p->last = now;
    }
    pthread_mutex_unlock(&p->lock);
}

typedef struct {
    size_t n;
    rc_job_fn fn;
    void *ctx;
    rc_progress *progress;
    const char *what;
    atomic_size_t next, done;
} pool;

typedef struct {
    pool *pool;
    int worker;
} worker_arg;

static void *work(void *arg)
{
    worker_arg *w = arg;
    pool *p = w->pool;
    for (;;) {
        size_t i = atomic_fetch_add(&p->next, 1);
        if (i >= p->n)
            break;
        p->fn(p->ctx, i, w->worker);
        size_t done = atomic_fetch_add(&p->done, 1) + 1;
        progress_show(p->progress, p->what, done, p->n);
    }
    return NULL;
}

void rc_parallel_for(size_t n, int workers, rc_job_fn fn, void *ctx, rc_progress *progress,
                     const char *what)
{
    pool p = {n, fn, ctx, progress, what, 0, 0};
    if (workers < 1)
        workers = 1;
    if ((size_t)workers > n)
        workers = n > 0 ? (int)n : 1;
    pthread_t *threads = calloc((size_t)workers, sizeof *threads);
    worker_arg *args = calloc((size_t)workers, sizeof *args);
    int started = 0;
    /* Worker 0 is the calling thread; the others are started here. When a
     * thread cannot be started, the ones that run take its share. */
    for (int i = 1; threads && args && i < workers; i++) {
        args[i] = (worker_arg){&p, i};
        if (pthread_create(&threads[i], NULL, work, &args[i]) != 0)
            break;
        started = i;
    }
    worker_arg self = {&p, 0};
    work(&self);
    for (int i = 1; i <= started; i++)
        pthread_join(threads[i], NULL);
    free(threads);
    free(args);
}

int rc_cpu_count(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

/* ---- timings ----------------------------------------------------------- */

struct rc_timings {
    _Atomic long long ns[RC_STAGE_COUNT];
};

rc_timings *rc_timings_new(void)
{
    rc_timings *t = calloc(1, sizeof *t);
    return t;
}

void rc_timings_free(rc_timings *t) { free(t); }

double rc_thread_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void rc_timings_add(rc_timings *t, rc_stage stage, double seconds)
{
    if (t)
        atomic_fetch_add(&t->ns[stage], (long long)(seconds * 1e9));
}

void rc_timings_print(const rc_timings *t, FILE *f, size_t kernels, double wall)
{
    /* ORDER RC_STAGE */
    static const char *const names[] = {"load", "evaluate", "results tree", "markdown",
                                        "html", "svg", "png", "pdf", "overviews", "write"};
    double total = 0;
    fprintf(f, "%-14s %12s %14s\n", "stage", "cpu_s", "ms_per_kernel");
    for (int s = 0; s < RC_STAGE_COUNT; s++) {
        double sec = (double)t->ns[s] * 1e-9;
        total += sec;
        fprintf(f, "%-14s %12.3f %14.3f\n", names[s], sec,
                kernels ? sec * 1e3 / (double)kernels : 0.0);
    }
    fprintf(f, "%-14s %12.3f %14.3f\n", "all stages", total,
            kernels ? total * 1e3 / (double)kernels : 0.0);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    fprintf(f, "wall %.3f s for %zu kernels (%.3f ms per kernel); peak memory %.1f MiB\n", wall,
            kernels, kernels ? wall * 1e3 / (double)kernels : 0.0, (double)ru.ru_maxrss / 1024.0);
    /* The stages' CPU time counts the system's work for them too, which
     * can be large: ext4 makes files slowly in the minutes after many were
     * deleted (docs/benchmarks.md). */
    fprintf(f, "process cpu: user %.3f s, system %.3f s\n",
            (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6,
            (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6);
}
