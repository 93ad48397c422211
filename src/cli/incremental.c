/* incremental.c: which files of a run are up to date, so that they are
 * kept rather than made again (issue 18.1).
 *
 * Every file is made from inputs the run can hash before it reads them:
 * a kernel's own files from the kernel file, and every file from what the
 * run key covers: roofcast itself (the executable's bytes, so a rebuilt
 * program makes everything again), the options that change what is
 * written (the formats; the GPUs chosen are the GPU files hashed), the GPU
 * files, the templates and the baseline. The overviews are made from every
 * kernel and the rejected inputs. The manifest keeps each file's key; a
 * file whose key is unchanged and which is still there with the size the
 * manifest lists is kept. Fonts and shared libraries are not hashed: after
 * upgrading them, run once with --force.
 *
 * A kernel is hashed before it is loaded, so a file edited during the run
 * gets a key older than its reports at worst, and is made again next time.
 */

#include "cli/run.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <libxml/hash.h>

#include "results/results.h"
#include "util/array.h"
#include "util/hash.h"

#define MAX_INPUT_BYTES (16u << 20) /* input/load_xml.c reads no larger file */
#define MAX_PROGRAM_BYTES (512u << 20)

static int compare_strings(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every regular file of the templates' directory, by name: a template may
 * include another. */
static uint64_t hash_templates(uint64_t h, const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return rc_hash_str(h, "templates unreadable");
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        if (!RC_GROW(names, cap, n + 1))
            break;
        if ((names[n] = strdup(e->d_name)) != NULL)
            n++;
    }
    closedir(d);
    if (n > 0)
        qsort(names, n, sizeof *names, compare_strings);
    for (size_t i = 0; i < n; i++) {
        size_t len = strlen(dir) + strlen(names[i]) + 2;
        char *path = malloc(len);
        if (path) {
            snprintf(path, len, "%s/%s", dir, names[i]);
            rc_hash_file(&h, path, MAX_INPUT_BYTES);
        }
        free(path);
        free(names[i]);
    }
    free(names);
    return h;
}

/* The baseline's results.xml, as compare.c finds it. */
static uint64_t hash_baseline(uint64_t h, const char *path)
{
    struct stat st;
    char *file = NULL;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        size_t n = strlen(path) + sizeof "/results.xml";
        file = malloc(n);
        if (file)
            snprintf(file, n, "%s/results.xml", path);
    }
    h = rc_hash_str(h, path);
    if (!rc_hash_file(&h, file ? file : path, (size_t)-1))
        h = rc_hash_str(h, "baseline unreadable");
    free(file);
    return h;
}

void run_hash_run(run_state *r)
{
    uint64_t h = rc_hash_str(RC_HASH_INIT, "roofcast " RC_VERSION);
    if (!rc_hash_file(&h, "/proc/self/exe", MAX_PROGRAM_BYTES))
        h = rc_hash_str(h, "program unreadable");
    h = rc_hash_u64(h, r->formats);
    h = rc_hash_u64(h, r->fonts != NULL);
    for (size_t i = 0; i < r->ngpus; i++)
        if (!rc_hash_file(&h, r->gpus[i]->file, MAX_INPUT_BYTES))
            h = rc_hash_str(h, r->gpus[i]->file); /* read before, gone now: never equal */
    if (*r->templates_path)
        h = hash_templates(rc_hash_str(h, r->templates_path), r->templates_path);
    if (r->options->baseline)
        h = hash_baseline(h, r->options->baseline);
    r->run_key = h ? h : 1; /* 0 means unknown */
}

uint64_t run_kernel_key(const run_state *r, const char *path)
{
    uint64_t h = r->run_key;
    if (h == 0 || !rc_hash_file(&h, path, MAX_INPUT_BYTES))
        return 0;
    return h ? h : 1;
}

/* Whether this run writes the kernel file with this suffix
 * (run_kernel_suffixes), as kernel_files.c decides. */
static bool kernel_file_written(const run_state *r, const char *suffix)
{
    unsigned f = r->formats;
    bool fonts = r->fonts != NULL;
    if (strcmp(suffix, ".md") == 0)
        return f & RC_FORMAT_MD;
    if (strcmp(suffix, ".html") == 0)
        return f & RC_FORMAT_HTML;
    if (strcmp(suffix, ".pdf") == 0)
        return fonts && (f & RC_FORMAT_PDF);
    size_t n = strlen(suffix);
    if (n > 4 && strcmp(suffix + n - 4, ".svg") == 0)
        return fonts && (f & RC_FORMAT_SVG);
    return fonts && (f & RC_FORMAT_PNG); /* the two PNG charts */
}

/* --force, or an earlier run killed midway (output.c): it may have left
 * new files under the old manifest's keys. */
static bool remake_all(const run_state *r)
{
    return r->options->force || rc_output_interrupted(r->output);
}

static void file_name(char *name, size_t n, const char *id, const char *suffix)
{
    snprintf(name, n, "%s%s", id, suffix);
}

bool run_kernel_fresh(const run_state *r, const char *id, uint64_t key)
{
    if (!r->output || remake_all(r) || key == 0)
        return false;
    size_t files = 0;
    for (const char *const *s = run_kernel_suffixes; *s; s++) {
        char name[512];
        file_name(name, sizeof name, id, *s);
        if (!kernel_file_written(r, *s))
            continue;
        if (!rc_manifest_intact(r->previous, r->output, name, key))
            return false;
        files++;
    }
    /* Without a file of its own (-f csv), nothing says that the kernel
     * was counted without error before: it is counted. */
    return files > 0;
}

void run_keep_kernel_files(run_state *r, const char *id)
{
    for (const char *const *s = run_kernel_suffixes; *s; s++) {
        char name[512];
        size_t size = 0;
        file_name(name, sizeof name, id, *s);
        if (kernel_file_written(r, *s) && rc_manifest_size(r->previous, name, &size))
            rc_output_keep(r->output, name, size);
    }
}

/* Whether this run writes overview `name` (run_overview_names): 1 yes,
 * 0 no, -1 only with a usable baseline (changes.*). */
static int overview_written(const run_state *r, const char *name)
{
    unsigned f = r->formats;
    bool fonts = r->fonts != NULL;
    if (strncmp(name, "changes.", 8) == 0)
        return -1;
    if (strcmp(name, "index.html") == 0)
        return (f & RC_FORMAT_HTML) != 0;
    if (strcmp(name, "index.svg") == 0)
        return fonts && (f & RC_FORMAT_SVG);
    if (strcmp(name, "index.png") == 0)
        return fonts && (f & RC_FORMAT_PNG);
    if (strcmp(name, "summary.pdf") == 0)
        return fonts && (f & RC_FORMAT_PDF);
    if (strcmp(name, "estimates.csv") == 0)
        return (f & RC_FORMAT_CSV) != 0;
    return (f & RC_FORMAT_XML) != 0; /* results.xml */
}

static void dump_hash(void *ctx, const void *data, size_t len)
{
    uint64_t *h = ctx;
    *h = rc_hash_bytes(*h, data, len);
}

/* The overview tree's <rejected>, as results.xml would show it. */
static uint64_t hash_rejected(uint64_t h, xmlNodePtr root)
{
    xmlNodePtr rejected = rc_results_child(root, "rejected");
    xmlBufferPtr buf = rejected ? xmlBufferCreate() : NULL;
    if (buf && xmlNodeDump(buf, rejected->doc, rejected, 0, 0) >= 0)
        dump_hash(&h, xmlBufferContent(buf), (size_t)xmlBufferLength(buf));
    else
        h = rc_hash_str(h, rejected ? "rejected unknown" : "none rejected");
    xmlBufferFree(buf);
    return h;
}

static bool overviews_intact(const run_state *r)
{
    for (const char *const *o = run_overview_names; *o; o++)
        if (overview_written(r, *o) == 1 &&
            !rc_manifest_intact(r->previous, r->output, *o, r->overview_key))
            return false;
    return true;
}

void run_decide_overviews(run_state *r)
{
    uint64_t h = r->run_key;
    for (size_t i = 0; h && i < r->nkernels; i++)
        h = r->kernels[i].key ? rc_hash_u64(h, r->kernels[i].key) : 0;
    if (h && r->overview)
        h = hash_rejected(h, xmlDocGetRootElement(r->overview));
    r->overview_key = h;
    r->overviews_fresh = r->output && !remake_all(r) && h && overviews_intact(r);
    r->need_trees = !r->overviews_fresh || r->options->baseline;
}

void run_keep_overviews(run_state *r)
{
    for (const char *const *o = run_overview_names; *o; o++) {
        size_t size = 0;
        if (overview_written(r, *o) != 0 &&
            rc_manifest_intact(r->previous, r->output, *o, r->overview_key) &&
            rc_manifest_size(r->previous, *o, &size))
            rc_output_keep(r->output, *o, size);
    }
}

static int compare_ids(const void *key, const void *item)
{
    const run_kernel *k = item;
    return strcmp(key, k->kernel->id);
}

static int compare_kernels_by_id(const void *a, const void *b)
{
    return strcmp(((const run_kernel *)a)->kernel->id, ((const run_kernel *)b)->kernel->id);
}

uint64_t run_key_of(void *ctx, const char *name)
{
    run_state *r = ctx;
    for (const char *const *o = run_overview_names; *o; o++)
        if (strcmp(name, *o) == 0)
            return r->overview_key;
    if (!r->by_id && r->nkernels > 0) { /* a copy sorted by id, made once */
        r->by_id = malloc(r->nkernels * sizeof *r->by_id);
        if (!r->by_id)
            return 0;
        memcpy(r->by_id, r->kernels, r->nkernels * sizeof *r->by_id);
        qsort(r->by_id, r->nkernels, sizeof *r->by_id, compare_kernels_by_id);
    }
    size_t n = strlen(name);
    for (const char *const *s = run_kernel_suffixes; r->by_id && *s; s++) {
        size_t sn = strlen(*s);
        if (n <= sn || strcmp(name + n - sn, *s) != 0)
            continue;
        char id[512];
        if (n - sn >= sizeof id)
            continue;
        memcpy(id, name, n - sn);
        id[n - sn] = '\0';
        const run_kernel *k = bsearch(id, r->by_id, r->nkernels, sizeof *r->by_id, compare_ids);
        if (k)
            return k->key;
    }
    return 0;
}

/* ---- subset runs ------------------------------------------------------ */

/* The format a file of kernel or overview name `name` is, as an RC_FORMAT bit; 0 for one
 * whose format says nothing (changes.*, kept with the baseline's rules). */
static unsigned format_of(const char *name)
{
    static const struct {
        const char *end;
        unsigned format;
    } ends[] = {{".md", RC_FORMAT_MD},   {".html", RC_FORMAT_HTML}, {".pdf", RC_FORMAT_PDF},
                {".svg", RC_FORMAT_SVG}, {".png", RC_FORMAT_PNG},   {".csv", RC_FORMAT_CSV},
                {".xml", RC_FORMAT_XML}};
    if (strncmp(name, "changes.", 8) == 0)
        return 0;
    size_t n = strlen(name);
    for (size_t i = 0; i < sizeof ends / sizeof ends[0]; i++) {
        size_t e = strlen(ends[i].end);
        if (n > e && strcmp(name + n - e, ends[i].end) == 0)
            return ends[i].format;
    }
    return 0;
}

/* The kernel id of one of a kernel's own files (run_kernel_suffixes) into id[n]; false for
 * any other name. */
static bool kernel_of(const char *name, char *id, size_t n)
{
    size_t len = strlen(name);
    for (const char *const *s = run_kernel_suffixes; *s; s++) {
        size_t e = strlen(*s);
        if (len > e && strcmp(name + len - e, *s) == 0 && len - e < n) {
            memcpy(id, name, len - e);
            id[len - e] = '\0';
            return true;
        }
    }
    return false;
}

/* Whether the run names a kernel file rather than only directories: then it speaks only for
 * the kernels it read. */
static bool names_kernel_files(const rc_options *o)
{
    for (size_t i = 0; i < o->ninputs; i++) {
        struct stat st;
        if (stat(o->inputs[i], &st) == 0 && !S_ISDIR(st.st_mode))
            return true;
    }
    return false;
}

size_t run_keep_others(run_state *r)
{
    const rc_options *o = r->options;
    bool subset = names_kernel_files(o);
    xmlHashTablePtr made = xmlHashCreate(64), ids = xmlHashCreate(64);
    size_t kept = 0;
    if (!made || !ids)
        goto done;
    for (size_t i = 0; i < rc_output_files(r->output); i++)
        xmlHashAddEntry(made, (const xmlChar *)rc_output_file_at(r->output, i)->name, made);
    for (size_t i = 0; i < r->nkernels; i++)
        xmlHashAddEntry(ids, (const xmlChar *)r->kernels[i].kernel->id, ids);
    for (size_t i = 0; r->previous && i < rc_manifest_count(r->previous); i++) {
        const char *name = rc_manifest_name(r->previous, i);
        char id[512];
        size_t size = 0;
        if (xmlHashLookup(made, (const xmlChar *)name))
            continue;
        unsigned f = format_of(name);
        bool other_format = f && !(r->formats & f);
        bool other_kernel = subset && kernel_of(name, id, sizeof id) &&
                            !xmlHashLookup(ids, (const xmlChar *)id);
        if ((other_format || other_kernel) && rc_manifest_size(r->previous, name, &size)) {
            rc_output_keep(r->output, name, size);
            kept++;
        }
    }
done:
    xmlHashFree(made, NULL);
    xmlHashFree(ids, NULL);
    return kept;
}
