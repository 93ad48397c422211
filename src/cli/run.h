/* run.h: the stages of rc_run and the state they hand on, private to
 * src/cli. rc_run (run.c) reads as the data flow of the README:
 *
 *   load the GPUs                                    (inputs.c)
 *   -> open the output directory                     (run.c)
 *   -> load and evaluate the kernels                 (inputs.c), skipping the
 *      evaluation of those whose files are up to date (incremental.c)
 *   -> render each kernel, on worker threads         (kernel_files.c)
 *   -> render the overviews                          (overviews.c)
 *   -> finish the output directory                   (run.c)
 *
 * Every stage takes the one run_state; what it makes stays there until
 * run_end (run.c) frees it all, whichever stage stopped the run.
 */
#ifndef ROOFCAST_RUN_H
#define ROOFCAST_RUN_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <libxml/tree.h>

#include "cli/roofcast.h"
#include "input/load.h"
#include "model/eval.h"
#include "paint/font.h"
#include "render/chart.h"
#include "render/render.h"
#include "results/compare.h"
#include "util/diag.h"
#include "util/manifest.h"
#include "util/output.h"
#include "util/parallel.h"

/* A list of input files, owned. */
typedef struct {
    char **paths;
    size_t count, cap;
} run_paths;

/* One loaded and counted kernel. */
typedef struct {
    rc_kernel *kernel; /* NULL when the file was rejected */
    rc_counts model, launch;
    bool has_launch;
    uint64_t key;      /* what its files are made from (incremental.c); 0: unknown */
    bool fresh;        /* its files are up to date: kept, not made again */
    bool counted;      /* model (and launch) hold its counts */
    bool cached;       /* its share of the overviews is in the cache: not counted */
    size_t cache_entry; /* where, when cached (kernel_cache.c) */
} run_kernel;

/* One kernel's share of the files that cover every kernel, as text: what
 * the overviews take from its tree, and what the cache keeps between runs
 * (kernel_cache.c). The pieces are owned by the share (run_share_release);
 * one this run does not need is NULL, of length 0. */
typedef struct {
    char *xml;   /* its text of results.xml, indented as there */
    char *csv;   /* its rows of estimates.csv, without the header */
    char *part;  /* its overview part (rc_results_overview_kernel), unindented */
    char *pdf;   /* its pages of summary.pdf (rc_render_pdf_pages) */
    size_t xml_len, csv_len, part_len, pdf_len;
    uint64_t check;    /* the cache's check of it (kernel_cache.c), when `checked` */
    bool checked;
} run_share;

/* The cache an earlier run left (kernel_cache.c). */
typedef struct run_cache run_cache;

typedef struct {
    const rc_options *options;
    int status;        /* RC_EXIT_*; stages may only make it worse */
    rc_diag *diag;
    FILE *err;         /* messages, progress and --timings */
    rc_timings *timings; /* NULL without --timings */
    rc_progress *progress;
    int jobs;
    unsigned formats;  /* the files to write; 0 with --check (trees, no files) */

    /* Inputs (inputs.c). */
    rc_loader *loader;
    run_paths gpu_files, kernel_files;
    rc_gpu **gpus;     /* sorted as the reports show them */
    size_t ngpus;
    run_kernel *kernels; /* one per file, by file order; then only the good ones */
    size_t nkernels;

    /* The output directory and what renders into it (run.c). */
    rc_output *output; /* NULL with --check */
    rc_manifest *previous; /* the files an earlier run wrote */
    char templates_path[4096]; /* the templates' directory; "" when none is used */
    uint64_t run_key;  /* what every file depends on (incremental.c); 0 with --check */
    uint64_t overview_key; /* what the overviews are made from; 0: unknown */
    bool overviews_fresh; /* every overview is up to date: kept, not made again */
    bool need_trees;   /* every kernel's tree is needed (overviews or a comparison) */
    run_kernel *by_id; /* the kernels sorted by id, for run_key_of; made there */
    rc_templates *templates;
    rc_fonts **fonts;  /* one set per worker, one more for summary.pdf; NULL without */
    int font_sets;

    /* Every kernel's tree starts as a copy of this one (the GPUs, no
     * kernels), made once by run_render_kernels and freed there: copying
     * (2.6 M instructions for 12 GPUs) is cheaper than formatting every
     * GPU figure again (4.4 M). */
    xmlDocPtr tree_start;

    /* What covers every kernel (overviews.c), added to in kernel order. */
    xmlDocPtr overview; /* the GPUs, the rejected inputs, each kernel's overview part */
    xmlNodePtr overview_kernels;
    rc_comparison *comparison; /* NULL without a usable baseline */
    rc_compare_summary changes;
    rc_output_file *results_xml, *estimates_csv;
    run_cache *cache;  /* the shares an earlier run kept; NULL: none usable */
    rc_output_file *new_cache; /* this run's; NULL when the overviews are kept */
    char *results_xml_head; /* what results.xml holds before its kernels */
    size_t results_xml_head_len;
    rc_pdf_summary *summary;
    FILE *scratch;     /* summary.pdf's finished pages */
    pthread_mutex_t lock;
    pthread_cond_t turn_changed;
    size_t turn;       /* the kernel whose turn it is to commit */
} run_state;

/* ---- inputs.c --------------------------------------------------------- */

/* Loads the GPU files (o->specs), keeping those --gpu names, sorted.
 * Returns false, with r->status set, when the run cannot go on. */
bool run_load_gpus(run_state *r);

/* Loads and counts the kernel files on worker threads, then rejects, in
 * file order, an id an earlier file has (ids name the output files, so the
 * first file wins) and an id whose files would take an overview's name.
 * Returns false when the run cannot go on. */
bool run_load_kernels(run_state *r);

/* Counts kernel i now, when its cached share turned out damaged
 * (kernel_files.c). Returns false after reporting when it cannot be
 * counted. Safe from several threads. */
bool run_count_kernel(run_state *r, size_t i);

void run_paths_free(run_paths *l);

/* ---- own_files.c ------------------------------------------------------ */

/* The report templates: -t DIR (o->templates_dir) when given; else the program's own.
 * Writes the directory to dir[n]; false, after saying where it looked, when none has them. */
bool run_templates_dir(const rc_options *o, rc_diag *diag, char *dir, size_t n);

/* Where the GPU files are read from: -s PATH when given; else specs/ in the current
 * directory when there is one; else the bundled GPU files, looked for as the templates are
 * (next to the program, its install tree, the source tree it was built from, the configured
 * prefix). Writes the path to dir[n]; false, with "specs" in dir and the places tried in
 * tried[tried_len], when none has them. */
bool run_specs_path(const rc_options *o, char *dir, size_t n, char *tried, size_t tried_len);

/* ---- outputs.c: used by kernel_files.c and overviews.c -------------- */

/* The names of the files a run writes: each kernel's are its id followed
 * by one of run_kernel_suffixes, the overviews' are run_overview_names
 * (both lists end with NULL). A kernel whose id would give one of its files
 * an overview's name is refused (run_load_kernels), so no report can
 * overwrite another. Keep both lists to what kernel_files.c and
 * overviews.c write. */
extern const char *const run_kernel_suffixes[];
extern const char *const run_overview_names[];

/* Writes a buffer a renderer made, and frees it. Returns false when data
 * is NULL or the write failed. */
bool run_write_buffer(run_state *r, const char *name, char *data, size_t len);

/* A chart's SVG handed back for the HTML page to embed (the caller frees
 * `svg`), with the description's size in points. */
typedef struct {
    char *svg;
    size_t len;
    double width, height;
} run_kept_svg;

/* One chart in two steps, so that the tree it is described from can go
 * before it is painted: run_describe_chart returns NULL when no chart is
 * painted (no fonts, or neither SVG nor PNG asked for and no SVG kept);
 * run_paint_charts writes its SVG and PNG as r->formats asks and frees it;
 * kernel_id NULL for the overview (index.svg, index.png). With `keep`, the
 * SVG is handed back there (left empty when none was painted).
 * run_render_charts does both. */
rc_chart *run_describe_chart(run_state *r, xmlDocPtr doc, const char *kernel_id,
                             rc_chart_kind kind, const rc_fonts *fonts, bool keep_svg);
void run_paint_charts(run_state *r, rc_chart *chart, const char *kernel_id, const char *suffix,
                      const rc_fonts *fonts, run_kept_svg *keep);
void run_render_charts(run_state *r, xmlDocPtr doc, const char *kernel_id, rc_chart_kind kind,
                       const char *suffix, const rc_fonts *fonts, run_kept_svg *keep);

/* ---- kernel_files.c --------------------------------------------------- */

/* Renders every kernel on worker threads: its tree, its files, and its
 * share of what covers every kernel (run_commit_kernel). */
void run_render_kernels(run_state *r);

/* The share of kernel tree `kernel` (in a document of its own, which
 * gives the CSV rows): the pieces run_share_wanted names, the pages of
 * summary.pdf taken from *pages (rc_render_pdf_kernel's or
 * rc_render_pdf_pages'; NULL when not wanted). Returns false when out of
 * memory or a wanted piece is missing, `share` then empty; *pages is the
 * share's or freed either way. */
bool run_share_of_tree(const run_state *r, xmlNodePtr kernel, char **pages, size_t pages_len,
                       run_share *share);

/* Counts the kernels whose counting was skipped because their files were
 * up to date, when the overviews or a comparison need their trees after
 * all (r->need_trees) and the cache does not hold their shares, on worker
 * threads. */
void run_count_deferred(run_state *r);

/* ---- incremental.c ---------------------------------------------------- */

/* The run's key: roofcast itself, the options that change what is
 * written, the GPU files, the templates and the baseline. Call once the
 * GPUs, templates and fonts are loaded. */
void run_hash_run(run_state *r);

/* Kernel file `path`'s key: the run's key, its path and its bytes; 0 when
 * it cannot be read as a regular file (then nothing of it is kept). */
uint64_t run_kernel_key(const run_state *r, const char *path);

/* Whether every file this run writes for kernel `id` is up to date with
 * `key`; never with --force or --check. */
bool run_kernel_fresh(const run_state *r, const char *id, uint64_t key);

/* Notes kernel `id`'s files as kept (rc_output_keep). */
void run_keep_kernel_files(run_state *r, const char *id);

/* Once the kernels are loaded and the overview tree holds the rejected
 * inputs: the overviews' key (every kernel's key in order, the rejected
 * inputs), whether the overviews are up to date, and so whether every
 * kernel's tree is needed. */
void run_decide_overviews(run_state *r);

/* Notes the overviews as kept. */
void run_keep_overviews(run_state *r);

/* A run speaks only for what it was asked (issue 29.9): the files of an earlier run that it
 * did not make are kept, and stay listed, when they are of a format this run was not asked
 * for (-f), or, in a run that names kernel files (not only directories), of a kernel this run
 * did not read. A run over the same directories still removes the files of a kernel whose
 * file is gone. Call once the writing is done, before the manifest is finished; returns how
 * many files it kept. */
size_t run_keep_others(run_state *r);

/* The key a file of this run was made from, for the manifest: the
 * overviews' or its kernel's (rc_manifest_key_fn; ctx is the run_state). */
uint64_t run_key_of(void *ctx, const char *name);

/* ---- kernel_cache.c --------------------------------------------------- */

/* The pieces of a share this run's formats need (run_share). */
enum { RUN_SHARE_XML = 1, RUN_SHARE_CSV = 2, RUN_SHARE_PART = 4, RUN_SHARE_PDF = 8 };
unsigned run_share_wanted(const run_state *r);
void run_share_release(run_share *share);

/* Once the overviews are known to be made again (run_decide_overviews),
 * before run_count_deferred: the kernels whose files are up to date and
 * whose share the cache an earlier run left holds, under their key, are
 * marked `cached` and are not counted. Never with --force, after an
 * interrupted run, or with a baseline (its comparison needs every tree). */
void run_cache_plan(run_state *r);

/* Kernel i's share, read from the cache and checked. Returns false when
 * its entry is damaged (counted for the warning): the kernel is then
 * counted and its tree made. Safe from several threads. */
bool run_cache_read(run_state *r, size_t i, run_share *share);

/* The reader under run_cache_plan and run_cache_read, on its own for the
 * fuzz target (tests/fuzz/fuzz_cache.c). run_cache_load takes `fd` (a
 * cache file; closed when NULL is returned) and indexes its entries; NULL
 * when it holds no cache of this version, *damaged then saying whether it
 * is one cut before its header's end or something else (not another
 * version's). run_cache_take reads entry `entry` (0 to run_cache_count - 1,
 * sorted by id) and keeps it only when its CRC matches and every piece of
 * `wanted` (its overview part always) is what it claims (run_share_whole);
 * otherwise it is counted as damaged (run_cache_damaged) and *share left
 * empty. */
run_cache *run_cache_load(int fd, bool *damaged);
size_t run_cache_count(const run_cache *cache);
const char *run_cache_id(const run_cache *cache, size_t entry);
uint64_t run_cache_key(const run_cache *cache, size_t entry);
size_t run_cache_damaged(const run_cache *cache);
bool run_cache_take(run_cache *cache, size_t entry, unsigned wanted, run_share *share);

/* Whether the pieces of `share` that `wanted` names are kernel `id`'s, as
 * the run would make them: the XML one <kernel id> element that parses
 * as a child of <kernels>, the overview part a document of one <kernel
 * id>, the CSV whole rows of estimates.csv's columns beginning with the
 * id, the PDF whole pages (rc_render_pdf_pages_whole). */
bool run_share_whole(const char *id, unsigned wanted, const run_share *share);

/* This run's cache, opened with the overviews' files; run_cache_add puts
 * kernel i's share in it (in kernel order, from run_commit_kernel);
 * run_cache_finish renames it into place, warns of damage found in the
 * earlier one and frees that. */
void run_cache_open(run_state *r);
void run_cache_add(run_state *r, size_t i, const run_share *share);
void run_cache_finish(run_state *r);
void run_cache_free(run_cache *cache);

/* ---- overviews.c ------------------------------------------------------ */

/* The overview tree (the GPUs, the rejected inputs) and the baseline. */
bool run_start_overview(run_state *r);

/* Opens the files written piece by piece as the kernels come: results.xml,
 * estimates.csv and summary.pdf's pages. */
void run_open_overview_files(run_state *r);

/* Kernel i's share of the files that cover every kernel, in kernel order
 * whichever thread finished it: its part of the comparison (`change`, with
 * a baseline), its overview part (`part`, a node of a document of its own,
 * copied), and from `share` its pages of summary.pdf (made on the worker,
 * with its PDF or from the cache), its text of results.xml and rows of
 * estimates.csv, and its entry of the cache. Then its tree can go. With
 * `share` NULL (its files up to date and no tree needed), kernel i only
 * passes its turn. */
void run_commit_kernel(run_state *r, size_t i, rc_kernel_change *change, xmlNodePtr part,
                       const run_share *share);

/* Ends the comparison, after the last kernel. */
void run_finish_comparison(run_state *r);

/* Writes summary.pdf, index.html, index.svg/png, and closes estimates.csv,
 * results.xml and changes.*. */
void run_render_overviews(run_state *r);

#endif
