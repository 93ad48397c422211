/* run.c: the pipeline, from input paths to the output directory. */

#include "cli/roofcast.h"

#include <dirent.h>
#include <pthread.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>

#include "results/compare.h"
#include "util/diag.h"
#include "model/eval.h"
#include "input/load.h"
#include "util/output.h"
#include "util/parallel.h"
#include "render/chart.h"
#include "render/render.h"
#include "results/results.h"

#ifndef RC_INSTALLED_TEMPLATES
#define RC_INSTALLED_TEMPLATES "/usr/local/share/roofcast/templates"
#endif

/* ORDER RC_FORMAT */
static const char *const format_names[] = {"md", "html", "svg", "png", "pdf", "csv", "xml"};

bool rc_parse_formats(const char *list, unsigned *formats, char *bad, size_t badlen)
{
    *formats = 0;
    const char *p = list;
    while (*p) {
        size_t n = strcspn(p, ",");
        bool known = false;
        for (size_t i = 0; i < sizeof format_names / sizeof format_names[0]; i++)
            if (strlen(format_names[i]) == n && strncmp(p, format_names[i], n) == 0) {
                *formats |= 1u << i;
                known = true;
            }
        if (!known) {
            snprintf(bad, badlen, "%.*s", (int)n, p);
            return false;
        }
        p += n;
        if (*p == ',')
            p++;
    }
    return *formats != 0;
}

/* ---- collecting input files ------------------------------------------ */

typedef struct {
    char **paths;
    size_t count, cap;
} path_list;

static void path_list_add(path_list *l, const char *path)
{
    if (l->count == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 32;
        char **p = realloc(l->paths, cap * sizeof *p);
        if (!p)
            return;
        l->paths = p;
        l->cap = cap;
    }
    l->paths[l->count++] = strdup(path);
}

static void path_list_free(path_list *l)
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
static void collect(const char *path, path_list *out, rc_diag *diag, const char *what)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        rc_error_at(diag, path, 0, "cannot read: %s", strerror(errno));
        return;
    }
    if (!S_ISDIR(st.st_mode)) {
        path_list_add(out, path);
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
        path_list_add(out, full);
        free(full);
    }
    closedir(dir);
    if (out->count == first)
        rc_error_at(diag, path, 0, "no %s definitions (*.xml) in this directory", what);
    if (out->count > first) /* qsort(NULL, 0, ...) is undefined */
        qsort(out->paths + first, out->count - first, sizeof *out->paths, compare_strings);
}

/* ---- the run ---------------------------------------------------------- */

typedef struct {
    rc_kernel *kernel; /* NULL when the file was rejected */
    rc_counts model, launch;
    bool has_launch;
} kernel_entry;

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
                             rc_work_attr(err->node->kind, err->expr),
                             err->node->text[err->expr], &e);
    } else
        rc_error_at(diag, k->file, err->node ? err->node->line : k->line, "%s%s",
                    err->message, suffix);
}

/* GPUs are shown from the lowest FP32 peak to the highest, which orders
 * them roughly by generation; the id breaks ties. */
static int compare_gpus(const void *a, const void *b)
{
    const rc_gpu *x = *(rc_gpu *const *)a, *y = *(rc_gpu *const *)b;
    if (x->peak_fp32 != y->peak_fp32)
        return x->peak_fp32 < y->peak_fp32 ? -1 : 1;
    return strcmp(x->id, y->id);
}

static void print_check_table(FILE *out, xmlDocPtr doc)
{
    fprintf(out, "%-24s %-16s %14s %14s %10s %12s %-7s %s\n", "kernel", "gpu", "flops",
            "bytes", "FLOP/byte", "t_total_us", "bound", "launch-dominated");
    xmlNodePtr kernels = rc_results_child(xmlDocGetRootElement(doc), "kernels");
    for (xmlNodePtr k = kernels ? kernels->children : NULL; k; k = k->next) {
        xmlNodePtr counts = rc_results_child(k, "counts");
        xmlChar *id = xmlGetProp(k, (const xmlChar *)"id");
        xmlChar *flops = xmlGetProp(rc_results_child(counts, "flops"), (const xmlChar *)"total-text");
        xmlChar *bytes = xmlGetProp(rc_results_child(counts, "bytes"), (const xmlChar *)"total-text");
        for (xmlNodePtr e = rc_results_child(k, "estimates")->children; e; e = e->next) {
            xmlChar *gpu = xmlGetProp(e, (const xmlChar *)"gpu");
            xmlChar *ai = xmlGetProp(e, (const xmlChar *)"intensity-text");
            xmlChar *t = xmlGetProp(e, (const xmlChar *)"t-total-text");
            xmlChar *bound = xmlGetProp(e, (const xmlChar *)"bound");
            xmlChar *dom = xmlGetProp(e, (const xmlChar *)"launch-dominated");
            fprintf(out, "%-24s %-16s %14s %14s %10s %12s %-7s %s\n", (char *)id, (char *)gpu,
                    (char *)flops, (char *)bytes, (char *)ai, (char *)t, (char *)bound,
                    (char *)dom);
            xmlFree(gpu);
            xmlFree(ai);
            xmlFree(t);
            xmlFree(bound);
            xmlFree(dom);
        }
        xmlFree(id);
        xmlFree(flops);
        xmlFree(bytes);
    }
}

static const char *templates_dir(const rc_options *o)
{
    if (o->templates_dir)
        return o->templates_dir;
    struct stat st;
    if (stat("templates/markdown.xsl", &st) == 0)
        return "templates";
    return RC_INSTALLED_TEMPLATES;
}

/* What the workers share; per-worker state is indexed by worker. */
typedef struct {
    rc_loader *loader;
    rc_diag *diag;
    const path_list *files;
    kernel_entry *kernels;  /* one per file, by file order; then compacted */
    const rc_gpu *const *gpus;
    size_t ngpus;
    unsigned formats;       /* 0 with --check: trees, no files */
    rc_templates *templates;
    rc_fonts **fonts;       /* one per worker: FreeType faces are not shared */
    rc_output *output;
    rc_timings *timings;
    rc_comparison *comparison; /* NULL without a usable baseline */

    /* What covers every kernel, added to in kernel order (see commit). */
    pthread_mutex_t lock;
    pthread_cond_t turn_changed;
    size_t turn;               /* the kernel whose turn it is to commit */
    xmlDocPtr overview;        /* the GPUs and each kernel's overview part */
    xmlNodePtr overview_kernels;
    rc_output_file *results_xml, *estimates_csv;
    rc_pdf_summary *summary;
} run_ctx;

/* Writes a buffer the renderer made, and frees it. */
static bool write_buffer(run_ctx *c, const char *name, char *data, size_t len)
{
    if (!data)
        return false;
    double t0 = rc_thread_seconds();
    bool ok = rc_output_write(c->output, name, data, len);
    rc_timings_add(c->timings, RC_STAGE_WRITE, rc_thread_seconds() - t0);
    free(data);
    return ok;
}

/* Writes the SVG and PNG of one chart, as `formats` asks; kernel_id NULL
 * for the overview (index.svg, index.png). With `keep_svg`, the SVG is
 * handed back (the caller frees it) for the HTML page to embed. */
static void render_charts(run_ctx *c, xmlDocPtr doc, const char *kernel_id, rc_chart_kind kind,
                          const char *suffix, const rc_fonts *fonts, char **keep_svg,
                          size_t *keep_len)
{
    bool want_svg = (c->formats & RC_FORMAT_SVG) || keep_svg;
    bool want_png = (c->formats & RC_FORMAT_PNG) != 0;
    if (!fonts || !(want_svg || want_png))
        return;
    /* One description, painted in each format; describing counts as the
     * first format's time. */
    rc_stage svg_stage = kernel_id ? RC_STAGE_SVG : RC_STAGE_OVERVIEWS;
    rc_stage png_stage = kernel_id ? RC_STAGE_PNG : RC_STAGE_OVERVIEWS;
    double t0 = rc_thread_seconds();
    rc_chart *chart = rc_render_chart_describe(doc, kernel_id, kind, fonts, c->diag);
    rc_timings_add(c->timings, want_svg ? svg_stage : png_stage, rc_thread_seconds() - t0);
    if (!chart)
        return;
    char *svg = NULL, *png = NULL;
    size_t svg_len = 0, png_len = 0;
    if (want_svg) {
        t0 = rc_thread_seconds();
        svg = rc_paint_svg(chart, fonts, &svg_len);
        rc_timings_add(c->timings, svg_stage, rc_thread_seconds() - t0);
    }
    if (want_png) {
        t0 = rc_thread_seconds();
        png = rc_paint_png(chart, fonts, RC_PNG_SCALE, &png_len);
        rc_timings_add(c->timings, png_stage, rc_thread_seconds() - t0);
    }
    if ((want_svg && !svg) || (want_png && !png))
        rc_error_at(c->diag, NULL, 0, "cannot paint a chart of %s", kernel_id ? kernel_id : "index");
    rc_chart_free(chart);
    char name[160];
    const char *base = kernel_id ? kernel_id : "index";
    if (keep_svg && svg) {
        *keep_svg = malloc(svg_len);
        if (*keep_svg) {
            memcpy(*keep_svg, svg, svg_len);
            *keep_len = svg_len;
        }
    }
    if (c->formats & RC_FORMAT_SVG) {
        snprintf(name, sizeof name, "%s%s.svg", base, suffix);
        write_buffer(c, name, svg, svg_len);
    } else
        free(svg);
    if (png) {
        snprintf(name, sizeof name, "%s%s.png", base, suffix);
        write_buffer(c, name, png, png_len);
    }
}

/* Job: load and count one kernel file. */
static void load_job(void *ctx, size_t i, int worker)
{
    run_ctx *c = ctx;
    (void)worker;
    kernel_entry *e = &c->kernels[i];
    double t0 = rc_thread_seconds();
    rc_kernel *k = rc_load_kernel(c->loader, c->files->paths[i], c->diag);
    double t1 = rc_thread_seconds();
    rc_timings_add(c->timings, RC_STAGE_LOAD, t1 - t0);
    if (!k)
        return;
    rc_eval_error eerr;
    if (!rc_evaluate(k, false, &e->model, &eerr)) {
        report_eval_error(c->diag, k, &eerr, false);
        rc_kernel_free(k);
    } else if (k->has_assumptions && !rc_evaluate(k, true, &e->launch, &eerr)) {
        report_eval_error(c->diag, k, &eerr, true);
        rc_counts_release(&e->model);
        rc_kernel_free(k);
    } else {
        e->has_launch = k->has_assumptions;
        e->kernel = k;
        rc_info(c->diag, 2, "%s: %s counted exactly in %lld runs over ranges of indices", k->file,
                k->id, (long long)e->model.thread_runs);
    }
    rc_timings_add(c->timings, RC_STAGE_EVALUATE, rc_thread_seconds() - t1);
}

/* Kernel i's share of the files that cover every kernel, in kernel order
 * whichever thread finished it first: its rows of results.xml and
 * estimates.csv, its page of summary.pdf, its part of the comparison and
 * its overview part. Then its tree can go. */
static void commit(run_ctx *c, size_t i, xmlNodePtr kernel, rc_kernel_change *change,
                   char *xml, size_t xml_len, char *csv, size_t csv_len)
{
    pthread_mutex_lock(&c->lock);
    while (c->turn != i)
        pthread_cond_wait(&c->turn_changed, &c->lock);
    double t0 = rc_thread_seconds();
    xmlChar *id = xmlGetProp(kernel, (const xmlChar *)"id");
    if (c->comparison)
        rc_compare_commit(c->comparison, (const char *)id, change);
    xmlFree(id);
    if (c->overview_kernels)
        xmlAddChild(c->overview_kernels, rc_results_overview_kernel(c->overview, kernel));
    if (c->summary)
        rc_pdf_summary_add(c->summary, rc_results_child(kernel->doc->children, "gpus"), kernel);
    double t1 = rc_thread_seconds();
    rc_timings_add(c->timings, RC_STAGE_OVERVIEWS, t1 - t0);
    if (xml)
        rc_output_append(c->results_xml, xml, xml_len);
    if (csv) { /* without its header line */
        const char *rows = memchr(csv, '\n', csv_len);
        rows = rows ? rows + 1 : csv + csv_len;
        rc_output_append(c->estimates_csv, rows, csv_len - (size_t)(rows - csv));
    }
    rc_timings_add(c->timings, RC_STAGE_WRITE, rc_thread_seconds() - t1);
    c->turn++;
    pthread_cond_broadcast(&c->turn_changed);
    pthread_mutex_unlock(&c->lock);
}

/* Kernel i as results.xml holds it: indented as the whole tree would be. */
static char *kernel_xml(xmlNodePtr kernel, size_t *len)
{
    xmlBufferPtr buf = xmlBufferCreate();
    char *out = NULL;
    if (buf && xmlNodeDump(buf, kernel->doc, kernel, 2, 1) >= 0) {
        size_t n = (size_t)xmlBufferLength(buf);
        out = malloc(n + 6);
        if (out) {
            memcpy(out, "    ", 4);
            memcpy(out + 4, xmlBufferContent(buf), n);
            out[n + 4] = '\n';
            *len = n + 5;
        }
    }
    xmlBufferFree(buf);
    return out;
}

/* Job: kernel i's tree, every per-kernel file from it, then its share of
 * the files that cover every kernel (commit). */
static void render_job(void *ctx, size_t i, int worker)
{
    run_ctx *c = ctx;
    const rc_fonts *fonts = c->fonts ? c->fonts[worker] : NULL;
    kernel_entry *e = &c->kernels[i];
    double t0 = rc_thread_seconds();
    xmlDocPtr doc = rc_results_new(c->gpus, c->ngpus);
    rc_kernel_result r = {e->kernel, &e->model, e->has_launch ? &e->launch : NULL};
    xmlNodePtr node = rc_results_add_kernel(doc, c->gpus, c->ngpus, &r);
    rc_kernel_change change = {0};
    if (c->comparison)
        rc_compare_kernel(c->comparison, node, &change);
    const char *id = e->kernel->id;
    rc_timings_add(c->timings, RC_STAGE_RESULTS, rc_thread_seconds() - t0);
    char name[160];
    size_t len = 0;
    if (c->formats & RC_FORMAT_MD) {
        t0 = rc_thread_seconds();
        char *md = rc_render_template(c->templates, RC_TEMPLATE_MARKDOWN, doc, id, &len, c->diag);
        rc_timings_add(c->timings, RC_STAGE_MD, rc_thread_seconds() - t0);
        snprintf(name, sizeof name, "%s.md", id);
        write_buffer(c, name, md, len);
    }
    /* The charts first, so the page embeds the SVGs just painted. */
    bool html = (c->formats & RC_FORMAT_HTML) != 0;
    char *roofline = NULL, *time = NULL;
    size_t roofline_len = 0, time_len = 0;
    render_charts(c, doc, id, RC_CHART_ROOFLINE, "-roofline", fonts, html ? &roofline : NULL,
                  &roofline_len);
    render_charts(c, doc, id, RC_CHART_TIME, "-time", fonts, html ? &time : NULL, &time_len);
    if (html) {
        rc_painted_svgs painted = {roofline, time, roofline_len, time_len};
        t0 = rc_thread_seconds();
        char *page = rc_render_html(c->templates, doc, id, fonts, &painted, &len, c->diag);
        rc_timings_add(c->timings, RC_STAGE_HTML, rc_thread_seconds() - t0);
        snprintf(name, sizeof name, "%s.html", id);
        write_buffer(c, name, page, len);
    }
    free(roofline);
    free(time);
    if ((c->formats & RC_FORMAT_PDF) && fonts) {
        t0 = rc_thread_seconds();
        char *pdf = rc_render_pdf_kernel(doc, id, fonts, &len, c->diag);
        rc_timings_add(c->timings, RC_STAGE_PDF, rc_thread_seconds() - t0);
        snprintf(name, sizeof name, "%s.pdf", id);
        write_buffer(c, name, pdf, len);
    }
    char *xml = NULL, *csv = NULL;
    size_t xml_len = 0, csv_len = 0;
    t0 = rc_thread_seconds();
    if (c->results_xml)
        xml = kernel_xml(node, &xml_len);
    if (c->estimates_csv)
        csv = rc_render_csv(doc, &csv_len);
    rc_timings_add(c->timings, RC_STAGE_RESULTS, rc_thread_seconds() - t0);
    commit(c, i, node, &change, xml, xml_len, csv, csv_len);
    free(xml);
    free(csv);
    xmlFreeNode(change.entry); /* NULL unless the commit did not take it */
    xmlFreeDoc(doc);
}

static void append_to_file(void *file, const void *data, size_t len)
{
    rc_output_append(file, data, len);
}

/* results.xml of the overview tree, cut where its kernels go: `head` is
 * what comes before them and the return value what comes after. The
 * kernels' own text is written between the two as they come. */
static char *results_xml_around_kernels(run_ctx *c, char **head, size_t *head_len, size_t *len)
{
    xmlNodePtr kernels = c->overview_kernels;
    xmlNodePtr first = kernels->children, last = kernels->last;
    kernels->children = kernels->last = NULL; /* the overview's kernels are not written */
    static const char mark_text[] = "roofcast kernels";
    xmlNodePtr mark = xmlAddChild(kernels, xmlNewDocComment(c->overview, (const xmlChar *)mark_text));
    size_t all_len = 0;
    char *all = rc_render_results_xml(c->overview, &all_len);
    xmlUnlinkNode(mark);
    xmlFreeNode(mark);
    kernels->children = first;
    kernels->last = last;
    const char *at = all ? strstr(all, "    <!--roofcast kernels-->\n") : NULL;
    if (!at) {
        free(all);
        return NULL;
    }
    size_t before = (size_t)(at - all), skip = strlen("    <!--roofcast kernels-->\n");
    if (head) {
        *head = malloc(before + 1);
        if (*head)
            memcpy(*head, all, before);
        *head_len = before;
    }
    *len = all_len - before - skip;
    memmove(all, at + skip, *len);
    return all;
}

static double wall_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int rc_run(const rc_options *o, FILE *out, FILE *err)
{
    int status = RC_EXIT_OK;
    rc_diag *diag = rc_diag_new(err, o->verbosity);
    rc_loader *loader = NULL;
    rc_output *output = NULL;
    rc_templates *templates = NULL;
    rc_fonts **fonts = NULL;
    xmlDocPtr doc = NULL;
    run_ctx ctx = {0};
    FILE *scratch = NULL; /* summary.pdf's finished pages */
    int font_sets = 0;
    rc_progress *progress = NULL;
    rc_timings *timings = o->timings ? rc_timings_new() : NULL;
    double started = wall_seconds();
    int jobs = o->jobs > 0 ? o->jobs : rc_cpu_count();
    path_list gpu_files = {0}, kernel_files = {0};
    rc_gpu **gpus = NULL;
    kernel_entry *kernels = NULL;
    size_t ngpus = 0, nkernels = 0;
    unsigned formats = o->formats ? o->formats : RC_FORMAT_ALL;
    if (!diag)
        return RC_EXIT_OUTPUT;

    loader = rc_loader_new(diag);
    if (!loader) {
        status = RC_EXIT_INPUT;
        goto end;
    }

    /* GPUs */
    collect(o->specs ? o->specs : "specs", &gpu_files, diag, "GPU");
    gpus = calloc(gpu_files.count + 1, sizeof *gpus);
    for (size_t i = 0; gpus && i < gpu_files.count; i++) {
        rc_gpu *g = rc_load_gpu(loader, gpu_files.paths[i], diag);
        if (!g)
            continue;
        bool duplicate = false;
        for (size_t j = 0; j < ngpus; j++)
            if (strcasecmp(gpus[j]->id, g->id) == 0) {
                rc_error_at(diag, g->file, g->line, "duplicate GPU id '%s' (also in %s)", g->id,
                            gpus[j]->file);
                duplicate = true;
            }
        bool wanted = !o->gpu_ids;
        for (size_t j = 0; o->gpu_ids && j < o->ngpu_ids; j++)
            wanted |= strcmp(o->gpu_ids[j], g->id) == 0;
        if (duplicate || !wanted)
            rc_gpu_free(g);
        else
            gpus[ngpus++] = g;
    }
    for (size_t j = 0; o->gpu_ids && j < o->ngpu_ids; j++) {
        bool found = false;
        for (size_t i = 0; i < ngpus; i++)
            found |= strcmp(o->gpu_ids[j], gpus[i]->id) == 0;
        if (!found) {
            rc_error_at(diag, NULL, 0, "--gpu: no GPU with id '%s' was loaded", o->gpu_ids[j]);
            status = RC_EXIT_USAGE;
        }
    }
    if (status == RC_EXIT_USAGE)
        goto end;
    if (ngpus == 0) {
        rc_error_at(diag, NULL, 0, "no usable GPU definitions: nothing to estimate");
        status = RC_EXIT_INPUT;
        goto end;
    }
    qsort(gpus, ngpus, sizeof *gpus, compare_gpus);

    /* Kernels */
    if (o->ninputs == 0)
        collect("kernels", &kernel_files, diag, "kernel");
    for (size_t i = 0; i < o->ninputs; i++)
        collect(o->inputs[i], &kernel_files, diag, "kernel");
    kernels = calloc(kernel_files.count + 1, sizeof *kernels);
    if (!kernels) {
        status = RC_EXIT_OUTPUT;
        goto end;
    }
    progress = rc_progress_new(err, o->verbosity >= 1);
    ctx.loader = loader;
    ctx.diag = diag;
    ctx.files = &kernel_files;
    ctx.kernels = kernels;
    ctx.timings = timings;
    rc_parallel_for(kernel_files.count, jobs, load_job, &ctx, progress, "counting");
    /* In file order, so the first of two files with one id wins whatever
     * the threads did. */
    for (size_t i = 0; i < kernel_files.count; i++) {
        kernel_entry *e = &kernels[i];
        if (!e->kernel)
            continue;
        for (size_t j = 0; j < nkernels; j++)
            if (strcasecmp(kernels[j].kernel->id, e->kernel->id) == 0) {
                rc_error_at(diag, e->kernel->file, e->kernel->line,
                            "duplicate kernel id '%s' (also in %s); ids name the output files",
                            e->kernel->id, kernels[j].kernel->file);
                rc_counts_release(&e->model);
                if (e->has_launch)
                    rc_counts_release(&e->launch);
                rc_kernel_free(e->kernel);
                e->kernel = NULL;
                break;
            }
        if (e->kernel)
            kernels[nkernels++] = *e; /* compact: nkernels <= i */
    }

    /* The overview tree: the GPUs, the rejected inputs, and (as they are
     * done) each kernel's overview part. Each kernel's whole tree is made
     * and dropped by its rendering job. */
    ctx.gpus = (const rc_gpu *const *)gpus;
    ctx.ngpus = ngpus;
    ctx.kernels = kernels;
    doc = rc_results_new((const rc_gpu *const *)gpus, ngpus);
    /* Names shared by every kernel's overview part are stored once. */
    if (doc && !doc->dict)
        doc->dict = xmlDictCreate();
    ctx.overview = doc;
    ctx.overview_kernels = rc_results_child(xmlDocGetRootElement(doc), "kernels");
    rc_results_add_rejected(doc, diag);
    if (o->baseline)
        ctx.comparison = rc_compare_open(o->baseline, rc_results_child(xmlDocGetRootElement(doc), "gpus"), diag);

    if (!o->check) {
        output = rc_output_new(o->output_dir ? o->output_dir : "output", diag);
        if (!output) {
            status = RC_EXIT_OUTPUT;
            goto end;
        }
    }
    unsigned wanted = (formats & RC_FORMAT_MD ? 1u << RC_TEMPLATE_MARKDOWN : 0) |
                      (formats & RC_FORMAT_HTML
                           ? 1u << RC_TEMPLATE_HTML | 1u << RC_TEMPLATE_INDEX : 0);
    if (wanted && !o->check) {
        templates = rc_templates_new(templates_dir(o), wanted, diag);
        if (!templates) {
            status = RC_EXIT_OUTPUT;
            goto end;
        }
    }
    /* Without the charts' fonts the other files are still written, and the
     * HTML pages without their charts. One set more for summary.pdf, which
     * gets its pages from whichever worker finishes a kernel. */
    font_sets = jobs + ((formats & RC_FORMAT_PDF) != 0);
    if (!o->check && (formats & (RC_FORMAT_HTML | RC_FORMAT_SVG | RC_FORMAT_PNG | RC_FORMAT_PDF))) {
        fonts = calloc((size_t)font_sets, sizeof *fonts);
        for (int w = 0; fonts && w < font_sets; w++) {
            fonts[w] = rc_fonts_new(diag);
            if (!fonts[w]) {
                status = RC_EXIT_OUTPUT;
                break;
            }
        }
        if (!fonts || status == RC_EXIT_OUTPUT) {
            for (int w = 0; fonts && w < font_sets; w++)
                rc_fonts_free(fonts[w]);
            free(fonts);
            fonts = NULL;
            status = RC_EXIT_OUTPUT;
        }
    }
    ctx.formats = o->check ? 0 : formats;
    ctx.templates = templates;
    ctx.fonts = fonts;
    ctx.output = output;
    size_t head_len = 0, tail_len = 0;
    char *head = NULL, *tail = NULL;
    if (ctx.formats & RC_FORMAT_XML) {
        tail = results_xml_around_kernels(&ctx, &head, &head_len, &tail_len);
        ctx.results_xml = head ? rc_output_open(output, "results.xml") : NULL;
        rc_output_append(ctx.results_xml, head, head_len);
    }
    if (ctx.formats & RC_FORMAT_CSV) {
        ctx.estimates_csv = rc_output_open(output, "estimates.csv");
        size_t len = 0;
        char *header = rc_render_csv(doc, &len); /* no kernels yet: the header alone */
        rc_output_append(ctx.estimates_csv, header, len);
        free(header);
    }
    if ((ctx.formats & RC_FORMAT_PDF) && fonts) {
        scratch = rc_output_scratch(output, "summary.pdf");
        if (!scratch)
            rc_info(diag, 2, "roofcast: no scratch file in %s/: summary.pdf's pages stay in memory",
                    rc_output_dir(output));
        ctx.summary = rc_pdf_summary_new(fonts[jobs], scratch, diag);
    }
    pthread_mutex_init(&ctx.lock, NULL);
    pthread_cond_init(&ctx.turn_changed, NULL);
    rc_parallel_for(nkernels, jobs, render_job, &ctx, o->check ? NULL : progress, "rendering");
    pthread_cond_destroy(&ctx.turn_changed);
    pthread_mutex_destroy(&ctx.lock);
    rc_compare_summary changes = {0};
    if (ctx.comparison) {
        rc_compare_finish(ctx.comparison, doc, &changes);
        ctx.comparison = NULL;
    }

    if (o->check) {
        print_check_table(out, doc);
        goto end;
    }

    /* The overviews, which read every kernel. */
    const rc_fonts *font0 = fonts ? fonts[0] : NULL;
    double t0 = rc_thread_seconds();
    /* summary.pdf first, and its libharu document freed, so that it and
     * the index's transform are never in memory together. */
    if (ctx.summary) {
        rc_output_file *file = rc_output_open(output, "summary.pdf");
        rc_sink sink = {append_to_file, file};
        if (file && rc_pdf_summary_finish(ctx.summary, doc, &sink))
            rc_output_close(file);
        else
            rc_output_abandon(file);
        rc_pdf_summary_free(ctx.summary);
        ctx.summary = NULL;
    }
    if (formats & RC_FORMAT_HTML) {
        size_t len = 0;
        char *html = rc_render_html(templates, doc, NULL, font0, NULL, &len, diag);
        write_buffer(&ctx, "index.html", html, len);
    }
    render_charts(&ctx, doc, NULL, RC_CHART_OVERVIEW, "", font0, NULL, NULL);
    if (ctx.estimates_csv) {
        rc_output_close(ctx.estimates_csv);
        ctx.estimates_csv = NULL;
    }
    if (ctx.results_xml) {
        free(tail);
        char *again = NULL;
        size_t again_len = 0;
        tail = results_xml_around_kernels(&ctx, &again, &again_len, &tail_len);
        if (!tail || again_len != head_len || memcmp(again, head, head_len) != 0) {
            rc_fault_at(diag, NULL, 0, "results.xml: its beginning changed during the run (a bug)");
            rc_output_abandon(ctx.results_xml);
        } else {
            rc_output_append(ctx.results_xml, tail, tail_len);
            rc_output_close(ctx.results_xml);
        }
        ctx.results_xml = NULL;
        free(again);
    }
    free(head);
    free(tail);
    head = tail = NULL;
    if (changes.compared) {
        size_t len = 0;
        char *text;
        if (formats & RC_FORMAT_MD) {
            text = rc_render_changes_md(doc, &len);
            write_buffer(&ctx, "changes.md", text, len);
        }
        if (formats & RC_FORMAT_CSV) {
            text = rc_render_changes_csv(doc, &len);
            write_buffer(&ctx, "changes.csv", text, len);
        }
    }
    rc_timings_add(timings, RC_STAGE_OVERVIEWS, rc_thread_seconds() - t0);
    rc_progress_free(progress);
    progress = NULL;
    rc_info(diag, 1, "roofcast: %zu kernel%s on %zu GPU%s: %zu file%s written to %s/, %zu input%s rejected",
            nkernels, nkernels == 1 ? "" : "s", ngpus, ngpus == 1 ? "" : "s",
            rc_output_written(output), rc_output_written(output) == 1 ? "" : "s",
            rc_output_dir(output), rc_diag_error_files(diag),
            rc_diag_error_files(diag) == 1 ? "" : "s");
    if (rc_output_failed(output) || rc_diag_faults(diag) > 0)
        status = RC_EXIT_OUTPUT;
    else if (o->fail_on_change >= 0 && changes.compared &&
             changes.max_abs_percent > o->fail_on_change) {
        rc_info(diag, 0, "roofcast: an estimate moved by %.3g %% since the baseline, more than "
                "--fail-on-change %.3g %%", changes.max_abs_percent, o->fail_on_change);
        status = RC_EXIT_CHANGED;
    }

end:
    if (status == RC_EXIT_OK && rc_diag_errors(diag) > 0)
        status = RC_EXIT_INPUT;
    rc_progress_free(progress);
    if (timings && !o->check) {
        rc_timings_print(timings, err, nkernels, wall_seconds() - started);
    }
    rc_timings_free(timings);
    rc_pdf_summary_free(ctx.summary);
    if (scratch)
        fclose(scratch);
    rc_output_abandon(ctx.results_xml);
    rc_output_abandon(ctx.estimates_csv);
    rc_compare_free(ctx.comparison);
    if (doc)
        xmlFreeDoc(doc);
    rc_templates_free(templates);
    for (int w = 0; fonts && w < font_sets; w++)
        rc_fonts_free(fonts[w]);
    free(fonts);
    rc_output_free(output);
    for (size_t i = 0; i < nkernels; i++) {
        rc_counts_release(&kernels[i].model);
        if (kernels[i].has_launch)
            rc_counts_release(&kernels[i].launch);
        rc_kernel_free(kernels[i].kernel);
    }
    free(kernels);
    for (size_t i = 0; i < ngpus; i++)
        rc_gpu_free(gpus[i]);
    free(gpus);
    path_list_free(&gpu_files);
    path_list_free(&kernel_files);
    rc_loader_free(loader);
    rc_diag_free(diag);
    return status;
}
