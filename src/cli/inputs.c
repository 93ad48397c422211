/* inputs.c: the first stages of a run: the GPU files, then the kernel
 * files loaded and counted on worker threads. */

#include "cli/run.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "util/array.h"
#include "util/buffer.h"

/* ---- collecting input files ------------------------------------------ */

static void paths_add(run_paths *l, const char *path)
{
    if (!RC_GROW(l->paths, l->cap, l->count + 1))
        return;
    l->paths[l->count++] = strdup(path);
}

void run_paths_free(run_paths *l)
{
    for (size_t i = 0; i < l->count; i++)
        free(l->paths[i]);
    free(l->paths);
}

static int compare_strings(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool has_xml_suffix(const char *name)
{
    size_t n = strlen(name);
    return n > 4 && strcmp(name + n - 4, ".xml") == 0 && name[0] != '.';
}

/* A file is taken as given; a directory contributes its *.xml files in
 * name order, so runs are reproducible. */
static void collect(const char *path, run_paths *out, rc_diag *diag, const char *what)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        rc_error_at(diag, path, 0, "cannot read: %s", strerror(errno));
        return;
    }
    if (!S_ISDIR(st.st_mode)) {
        paths_add(out, path);
        return;
    }
    DIR *dir = opendir(path);
    if (!dir) {
        rc_error_at(diag, path, 0, "cannot read the directory: %s", strerror(errno));
        return;
    }
    size_t first = out->count;
    struct dirent *e;
    while ((e = readdir(dir)) != NULL) {
        if (!has_xml_suffix(e->d_name))
            continue;
        size_t n = strlen(path) + strlen(e->d_name) + 2;
        char *full = malloc(n);
        if (!full)
            continue;
        bool slash = path[strlen(path) - 1] == '/';
        snprintf(full, n, "%s%s%s", path, slash ? "" : "/", e->d_name);
        paths_add(out, full);
        free(full);
    }
    closedir(dir);
    if (out->count == first)
        rc_error_at(diag, path, 0, "no %s definitions (*.xml) in this directory", what);
    if (out->count > first) /* qsort(NULL, 0, ...) is undefined */
        qsort(out->paths + first, out->count - first, sizeof *out->paths, compare_strings);
}

/* A file's identity, to see one file named twice. */
typedef struct {
    dev_t dev;
    ino_t ino;
    size_t index; /* in the list, to keep the first naming */
} file_identity;

static int compare_identities(const void *a, const void *b)
{
    const file_identity *x = a, *y = b;
    if (x->dev != y->dev)
        return x->dev < y->dev ? -1 : 1;
    if (x->ino != y->ino)
        return x->ino < y->ino ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

/* A kernel file named twice (`k.xml k.xml`, or `kernels/k.xml kernels/`)
 * is read once, where it was first named: reading it again would only
 * reject it as a duplicate of itself. Files are told apart by device and
 * inode, so ./k.xml and k.xml are one file; a file that can no longer be
 * read is kept, for the loader to report. */
static void drop_repeated_files(run_paths *l, rc_diag *diag)
{
    file_identity *ids = malloc((l->count + 1) * sizeof *ids);
    bool *repeated = calloc(l->count + 1, sizeof *repeated);
    size_t n = 0;
    for (size_t i = 0; ids && repeated && i < l->count; i++) {
        struct stat st;
        if (stat(l->paths[i], &st) == 0)
            ids[n++] = (file_identity){st.st_dev, st.st_ino, i};
    }
    if (ids && repeated && n > 1) {
        qsort(ids, n, sizeof *ids, compare_identities);
        for (size_t i = 1; i < n; i++)
            repeated[ids[i].index] = ids[i].dev == ids[i - 1].dev && ids[i].ino == ids[i - 1].ino;
    }
    size_t kept = 0;
    for (size_t i = 0; repeated && i < l->count; i++) {
        if (repeated[i]) {
            rc_info(diag, 2, "%s: named more than once, read once", l->paths[i]);
            free(l->paths[i]);
        } else {
            l->paths[kept++] = l->paths[i];
        }
    }
    if (repeated)
        l->count = kept;
    free(ids);
    free(repeated);
}

/* ---- GPUs ------------------------------------------------------------- */

/* GPUs are shown from the lowest FP32 peak to the highest, which orders
 * them roughly by generation; the id breaks ties. */
static int compare_gpus(const void *a, const void *b)
{
    const rc_gpu *x = *(rc_gpu *const *)a, *y = *(rc_gpu *const *)b;
    if (x->peak_fp32 != y->peak_fp32)
        return x->peak_fp32 < y->peak_fp32 ? -1 : 1;
    return strcmp(x->id, y->id);
}

static bool gpu_wanted(const rc_options *o, const rc_gpu *g)
{
    bool wanted = !o->gpu_ids;
    for (size_t j = 0; o->gpu_ids && j < o->ngpu_ids; j++)
        wanted |= strcmp(o->gpu_ids[j], g->id) == 0;
    return wanted;
}

static bool gpu_duplicate(const run_state *r, const rc_gpu *g)
{
    bool duplicate = false;
    for (size_t j = 0; j < r->ngpus; j++)
        if (strcasecmp(r->gpus[j]->id, g->id) == 0) {
            rc_error_at(r->diag, g->file, g->line, "duplicate GPU id '%s' (also in %s)", g->id,
                        r->gpus[j]->file);
            duplicate = true;
        }
    return duplicate;
}

/* Every id --gpu names must have been loaded; the message for one that
 * was not lists the ids that were (`loaded`, every GPU file's id in file
 * order, wanted or not). */
static bool gpu_ids_found(run_state *r, const char *loaded, const char *specs_dir)
{
    const rc_options *o = r->options;
    bool all = true;
    for (size_t j = 0; o->gpu_ids && j < o->ngpu_ids; j++) {
        bool found = false;
        for (size_t i = 0; i < r->ngpus; i++)
            found |= strcmp(o->gpu_ids[j], r->gpus[i]->id) == 0;
        if (!found) {
            if (*loaded)
                rc_error_at(r->diag, NULL, 0, "--gpu: no GPU with id '%s' (valid ids: %s)",
                            o->gpu_ids[j], loaded);
            else
                rc_error_at(r->diag, NULL, 0, "--gpu: no GPU with id '%s' (no GPU was loaded from %s)",
                            o->gpu_ids[j], specs_dir);
            all = false;
        }
    }
    return all;
}

bool run_load_gpus(run_state *r)
{
    const rc_options *o = r->options;
    char specs[4096], tried[8192];
    if (!run_specs_path(o, specs, sizeof specs, tried, sizeof tried)) {
        rc_error_at(r->diag, NULL, 0, "no GPU files: none in %s; give them with -s PATH", tried);
        r->status = RC_EXIT_INPUT;
        return false;
    }
    collect(specs, &r->gpu_files, r->diag, "GPU");
    r->gpus = calloc(r->gpu_files.count + 1, sizeof *r->gpus);
    rc_buffer loaded = {0};
    for (size_t i = 0; r->gpus && i < r->gpu_files.count; i++) {
        rc_gpu *g = rc_load_gpu(r->loader, r->gpu_files.paths[i], r->diag);
        if (!g)
            continue;
        rc_buffer_printf(&loaded, "%s%s", loaded.len ? ", " : "", g->id);
        if (gpu_duplicate(r, g) || !gpu_wanted(o, g))
            rc_gpu_free(g);
        else
            r->gpus[r->ngpus++] = g;
    }
    bool found = gpu_ids_found(r, loaded.data ? loaded.data : "", specs);
    free(loaded.data);
    if (!found) {
        r->status = RC_EXIT_USAGE;
        return false;
    }
    if (r->ngpus == 0) {
        rc_error_at(r->diag, NULL, 0, "no usable GPU definitions: nothing to estimate%s%s%s",
                    o->specs ? "" : " (without -s, they are read from ", o->specs ? "" : specs,
                    o->specs ? "" : ")");
        r->status = RC_EXIT_INPUT;
        return false;
    }
    qsort(r->gpus, r->ngpus, sizeof *r->gpus, compare_gpus);
    return true;
}

/* ---- kernels ---------------------------------------------------------- */

/* The overview file one of kernel `id`'s files would overwrite, or NULL.
 * Compared without case, as a case-blind file system would. */
static const char *overview_taken(const char *id, const char **kernel_file)
{
    size_t n = strlen(id);
    for (const char *const *o = run_overview_names; *o; o++)
        for (const char *const *s = run_kernel_suffixes; *s; s++)
            if (strlen(*o) == n + strlen(*s) && strncasecmp(*o, id, n) == 0 &&
                strcasecmp(*o + n, *s) == 0) {
                *kernel_file = *s;
                return *o;
            }
    return NULL;
}

static void report_eval_error(rc_diag *diag, const rc_kernel *k, const rc_eval_error *err,
                              bool as_launched)
{
    const char *suffix = as_launched ? " (counting the launch as written)" : "";
    if (err->node && err->expr >= 0) {
        rc_expr_error e = err->expr_error;
        if (*suffix) {
            size_t n = strlen(e.message);
            snprintf(e.message + n, sizeof e.message - n, "%s", suffix);
        }
        rc_report_expr_error(diag, k->file, err->node->line,
                             rc_work_element(err->node->kind),
                             err->node->attr[err->expr],
                             err->node->text[err->expr], &e);
    } else
        rc_error_at(diag, k->file, err->node ? err->node->line : k->line, "%s%s",
                    err->message, suffix);
}

/* The progress of an array counted warp by warp rather than by classes
 * (docs/counting.md): a line every 2 s of the counting thread's time,
 * once it has taken 2 s. */
typedef struct {
    rc_diag *diag;
    const rc_kernel *k;
    double start, last;
} count_progress;

static void show_count_progress(void *ctx, const char *array, rc_access_pass pass, int64_t done,
                                int64_t total)
{
    count_progress *p = ctx;
    double now = rc_thread_seconds();
    if (now - p->start < 2 || now - p->last < 2)
        return;
    p->last = now;
    /* An array both read and written is counted again, its reads and its writes alone
     * (access.h): the line says which count is under way. */
    static const char *const what[] = {[RC_ACCESS_PASS_ALL] = "the accesses to",
                                       [RC_ACCESS_PASS_READS] = "the reads of",
                                       [RC_ACCESS_PASS_WRITES] = "the writes to"};
    const char *again = pass == RC_ACCESS_PASS_ALL ? "" : " alone (for what it both reads and writes)";
    rc_info(p->diag, 1, "%s: %s: counting %s '%s'%s warp by warp: %lld of %lld blocks", p->k->file,
            p->k->id, what[pass], array, again, (long long)done, (long long)total);
}

/* Counts kernel e (model, and launch when it states assumptions). On
 * failure, reports and returns false, the counts released. */
static bool count_kernel(run_state *r, run_kernel *e, rc_kernel *k)
{
    double t0 = rc_thread_seconds();
    rc_eval_error eerr;
    bool ok = false;
    count_progress progress = {r->diag, k, t0, t0};
    rc_eval_options options = {false, show_count_progress, &progress};
    if (!rc_evaluate_with(k, false, &options, &e->model, &eerr)) {
        report_eval_error(r->diag, k, &eerr, false);
    } else if (k->has_assumptions && !rc_evaluate(k, true, &e->launch, &eerr)) {
        report_eval_error(r->diag, k, &eerr, true);
        rc_counts_release(&e->model);
    } else {
        e->has_launch = k->has_assumptions;
        e->counted = ok = true;
        rc_info(r->diag, 2, "%s: %s counted exactly in %lld runs over ranges of indices", k->file,
                k->id, (long long)e->model.thread_runs);
    }
    rc_timings_add(r->timings, RC_STAGE_EVALUATE, rc_thread_seconds() - t0);
    return ok;
}

/* Job: load and count one kernel file; a kernel whose files are all up to
 * date is loaded (its id and messages are needed) but not counted, unless
 * its tree turns out to be needed (run_count_deferred). */
static void load_job(void *ctx, size_t i, int worker)
{
    run_state *r = ctx;
    (void)worker;
    run_kernel *e = &r->kernels[i];
    double t0 = rc_thread_seconds();
    const char *path = r->kernel_files.paths[i];
    e->key = r->output ? run_kernel_key(r, path) : 0; /* before loading: see incremental.c */
    rc_kernel *k = rc_load_kernel(r->loader, path, r->diag);
    rc_timings_add(r->timings, RC_STAGE_LOAD, rc_thread_seconds() - t0);
    if (!k)
        return;
    e->fresh = run_kernel_fresh(r, k->id, e->key);
    if (e->fresh || count_kernel(r, e, k))
        e->kernel = k;
    else
        rc_kernel_free(k);
}

bool run_count_kernel(run_state *r, size_t i)
{
    run_kernel *e = &r->kernels[i];
    return e->counted || count_kernel(r, e, e->kernel);
}

static bool deferred(const run_kernel *e)
{
    return e->kernel && !e->counted && !e->cached;
}

static void count_job(void *ctx, size_t i, int worker)
{
    run_state *r = ctx;
    (void)worker;
    if (deferred(&r->kernels[i]))
        run_count_kernel(r, i);
}

void run_count_deferred(run_state *r)
{
    if (!r->need_trees)
        return;
    size_t count = 0;
    for (size_t i = 0; i < r->nkernels; i++)
        count += deferred(&r->kernels[i]);
    if (count > 0)
        rc_parallel_for(r->nkernels, r->jobs, count_job, r, r->progress, "counting");
}

static void kernel_release(run_kernel *e)
{
    if (e->counted)
        rc_counts_release(&e->model);
    if (e->counted && e->has_launch)
        rc_counts_release(&e->launch);
    rc_kernel_free(e->kernel);
    e->kernel = NULL;
}

/* Ids name the output files, so an id that would overwrite an overview
 * and the second of two kernels with one id are rejected. In file order,
 * so the first file wins whatever the threads did; the good kernels are
 * compacted to the front. */
static void drop_unusable_ids(run_state *r)
{
    for (size_t i = 0; i < r->kernel_files.count; i++) {
        run_kernel *e = &r->kernels[i];
        if (!e->kernel)
            continue;
        const char *suffix, *taken = overview_taken(e->kernel->id, &suffix);
        if (taken) {
            rc_error_at(r->diag, e->kernel->file, e->kernel->line,
                        "kernel id '%s' is reserved: its report %s%s would overwrite %s, "
                        "which covers every kernel; choose another id", e->kernel->id,
                        e->kernel->id, suffix, taken);
            kernel_release(e);
            continue;
        }
        for (size_t j = 0; j < r->nkernels; j++)
            if (strcasecmp(r->kernels[j].kernel->id, e->kernel->id) == 0) {
                rc_error_at(r->diag, e->kernel->file, e->kernel->line,
                            "duplicate kernel id '%s' (also in %s); ids name the output files",
                            e->kernel->id, r->kernels[j].kernel->file);
                kernel_release(e);
                break;
            }
        if (e->kernel)
            r->kernels[r->nkernels++] = *e; /* nkernels <= i */
    }
}

bool run_load_kernels(run_state *r)
{
    const rc_options *o = r->options;
    if (o->ninputs == 0)
        collect("kernels", &r->kernel_files, r->diag, "kernel");
    for (size_t i = 0; i < o->ninputs; i++)
        collect(o->inputs[i], &r->kernel_files, r->diag, "kernel");
    drop_repeated_files(&r->kernel_files, r->diag);
    r->kernels = calloc(r->kernel_files.count + 1, sizeof *r->kernels);
    if (!r->kernels) {
        rc_fault_at(r->diag, NULL, 0, "cannot list the kernels: out of memory");
        r->status = RC_EXIT_OUTPUT;
        return false;
    }
    rc_parallel_for(r->kernel_files.count, r->jobs, load_job, r, r->progress, "counting");
    drop_unusable_ids(r);
    return true;
}
