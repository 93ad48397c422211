/* run.c: the pipeline, from input paths to the output directory. */

#include "roofcast.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>

#include "compare.h"
#include "diag.h"
#include "eval.h"
#include "load.h"
#include "output.h"
#include "parallel.h"
#include "chart.h"
#include "render.h"
#include "results.h"

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
    kernel_entry *kernels;  /* one per file, by file order */
    xmlDocPtr doc;          /* the results tree, read-only while rendering */
    xmlNodePtr *nodes;      /* each kernel's node in doc, by rendering job */
    unsigned formats;
    rc_templates *templates;
    rc_fonts **fonts;       /* one per worker: FreeType faces are not shared */
    rc_output *output;
    rc_timings *timings;
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

/* Job: every per-kernel file of one kernel, from a copy of the tree that
 * holds that kernel alone. */
static void render_job(void *ctx, size_t i, int worker)
{
    run_ctx *c = ctx;
    const rc_fonts *fonts = c->fonts ? c->fonts[worker] : NULL;
    double t0 = rc_thread_seconds();
    xmlDocPtr doc = rc_results_kernel_doc(c->doc, c->nodes[i]);
    xmlChar *id_attr = xmlGetProp(c->nodes[i], (const xmlChar *)"id");
    const char *id = (const char *)id_attr;
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
    xmlFree(id_attr);
    xmlFreeDoc(doc);
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
    xmlNodePtr *nodes = NULL;
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
    run_ctx ctx = {loader, diag, &kernel_files, kernels, NULL, NULL, formats,
                   NULL, NULL, NULL, timings};
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

    /* The results tree */
    double t0 = rc_thread_seconds();
    doc = rc_results_new((const rc_gpu *const *)gpus, ngpus);
    nodes = calloc(nkernels + 1, sizeof *nodes);
    for (size_t i = 0; nodes && i < nkernels; i++) {
        rc_kernel_result r = {kernels[i].kernel, &kernels[i].model,
                              kernels[i].has_launch ? &kernels[i].launch : NULL};
        nodes[i] = rc_results_add_kernel(doc, (const rc_gpu *const *)gpus, ngpus, &r);
    }
    rc_timings_add(timings, RC_STAGE_RESULTS, rc_thread_seconds() - t0);
    rc_results_add_rejected(doc, diag);
    rc_compare_summary changes = {0};
    if (o->baseline)
        rc_compare_baseline(doc, o->baseline, diag, &changes);

    if (o->check) {
        print_check_table(out, doc);
        goto end;
    }

    /* Renderers */
    output = rc_output_new(o->output_dir ? o->output_dir : "output", diag);
    if (!output) {
        status = RC_EXIT_OUTPUT;
        goto end;
    }
    unsigned wanted = (formats & RC_FORMAT_MD ? 1u << RC_TEMPLATE_MARKDOWN : 0) |
                      (formats & RC_FORMAT_HTML
                           ? 1u << RC_TEMPLATE_HTML | 1u << RC_TEMPLATE_INDEX : 0);
    if (wanted) {
        templates = rc_templates_new(templates_dir(o), wanted, diag);
        if (!templates) {
            status = RC_EXIT_OUTPUT;
            goto end;
        }
    }
    /* Without the charts' fonts the other files are still written, and the
     * HTML pages without their charts. */
    if (formats & (RC_FORMAT_HTML | RC_FORMAT_SVG | RC_FORMAT_PNG | RC_FORMAT_PDF)) {
        fonts = calloc((size_t)jobs, sizeof *fonts);
        for (int w = 0; fonts && w < jobs; w++) {
            fonts[w] = rc_fonts_new(diag);
            if (!fonts[w]) {
                status = RC_EXIT_OUTPUT;
                break;
            }
        }
        if (!fonts || status == RC_EXIT_OUTPUT) {
            for (int w = 0; fonts && w < jobs; w++)
                rc_fonts_free(fonts[w]);
            free(fonts);
            fonts = NULL;
            status = RC_EXIT_OUTPUT;
        }
    }
    ctx.doc = doc;
    ctx.nodes = nodes;
    ctx.templates = templates;
    ctx.fonts = fonts;
    ctx.output = output;
    rc_parallel_for(nodes ? nkernels : 0, jobs, render_job, &ctx, progress, "rendering");

    /* The overviews, which read every kernel. */
    const rc_fonts *font0 = fonts ? fonts[0] : NULL;
    t0 = rc_thread_seconds();
    if (formats & RC_FORMAT_HTML) {
        size_t len = 0;
        char *html = rc_render_html(templates, doc, NULL, font0, NULL, &len, diag);
        write_buffer(&ctx, "index.html", html, len);
    }
    render_charts(&ctx, doc, NULL, RC_CHART_OVERVIEW, "", font0, NULL, NULL);
    if ((formats & RC_FORMAT_PDF) && font0) {
        size_t len = 0;
        char *pdf = rc_render_pdf_summary(doc, font0, &len, diag);
        write_buffer(&ctx, "summary.pdf", pdf, len);
    }
    if (formats & RC_FORMAT_CSV) {
        size_t len = 0;
        char *csv = rc_render_csv(doc, &len);
        write_buffer(&ctx, "estimates.csv", csv, len);
    }
    if (formats & RC_FORMAT_XML) {
        size_t len = 0;
        char *xml = rc_render_results_xml(doc, &len);
        write_buffer(&ctx, "results.xml", xml, len);
    }
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
    if (doc)
        xmlFreeDoc(doc);
    free(nodes);
    rc_templates_free(templates);
    for (int w = 0; fonts && w < jobs; w++)
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
