/* run.c: the pipeline, from input paths to the output directory. */

#include "roofcast.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "compare.h"
#include "diag.h"
#include "eval.h"
#include "load.h"
#include "output.h"
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
    qsort(out->paths + first, out->count - first, sizeof *out->paths, compare_strings);
}

/* ---- the run ---------------------------------------------------------- */

typedef struct {
    rc_kernel *kernel;
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

static bool write_buffer(rc_output *out, const char *name, char *data, size_t len)
{
    if (!data)
        return false;
    bool ok = rc_output_write(out, name, data, len);
    free(data);
    return ok;
}

/* Writes the SVG and PNG of one chart, as `formats` asks; kernel_id NULL
 * for the overview (index.svg, index.png). */
static void render_charts(xmlDocPtr doc, const char *kernel_id, rc_chart_kind kind,
                          const char *suffix, unsigned formats, const rc_fonts *fonts,
                          rc_output *output, rc_diag *diag)
{
    char name[160];
    size_t len = 0;
    if (!fonts)
        return;
    if (formats & RC_FORMAT_SVG) {
        char *svg = rc_render_chart(doc, kernel_id, kind, RC_IMAGE_SVG, fonts, &len, diag);
        snprintf(name, sizeof name, "%s%s.svg", kernel_id ? kernel_id : "index", suffix);
        write_buffer(output, name, svg, len);
    }
    if (formats & RC_FORMAT_PNG) {
        char *png = rc_render_chart(doc, kernel_id, kind, RC_IMAGE_PNG, fonts, &len, diag);
        snprintf(name, sizeof name, "%s%s.png", kernel_id ? kernel_id : "index", suffix);
        write_buffer(output, name, png, len);
    }
}

/* Writes every per-kernel file of `kernel_id` in `formats`. */
static void render_kernel(xmlDocPtr doc, const char *kernel_id, unsigned formats,
                          rc_templates *templates, const rc_fonts *fonts, rc_output *output,
                          rc_diag *diag)
{
    char name[160];
    size_t len = 0;
    if (formats & RC_FORMAT_MD) {
        char *md = rc_render_template(templates, RC_TEMPLATE_MARKDOWN, doc, kernel_id, &len, diag);
        snprintf(name, sizeof name, "%s.md", kernel_id);
        write_buffer(output, name, md, len);
    }
    if (formats & RC_FORMAT_HTML) {
        char *html = rc_render_html(templates, doc, kernel_id, fonts, &len, diag);
        snprintf(name, sizeof name, "%s.html", kernel_id);
        write_buffer(output, name, html, len);
    }
    render_charts(doc, kernel_id, RC_CHART_ROOFLINE, "-roofline", formats, fonts, output, diag);
    render_charts(doc, kernel_id, RC_CHART_TIME, "-time", formats, fonts, output, diag);
    if ((formats & RC_FORMAT_PDF) && fonts) {
        char *pdf = rc_render_pdf_kernel(doc, kernel_id, fonts, &len, diag);
        snprintf(name, sizeof name, "%s.pdf", kernel_id);
        write_buffer(output, name, pdf, len);
    }
}

int rc_run(const rc_options *o, FILE *out, FILE *err)
{
    int status = RC_EXIT_OK;
    rc_diag *diag = rc_diag_new(err, o->verbosity);
    rc_loader *loader = NULL;
    rc_output *output = NULL;
    rc_templates *templates = NULL;
    rc_fonts *fonts = NULL;
    xmlDocPtr doc = NULL;
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
    for (size_t i = 0; kernels && i < kernel_files.count; i++) {
        rc_kernel *k = rc_load_kernel(loader, kernel_files.paths[i], diag);
        if (!k)
            continue;
        bool duplicate = false;
        for (size_t j = 0; j < nkernels && !duplicate; j++)
            if (strcasecmp(kernels[j].kernel->id, k->id) == 0) {
                rc_error_at(diag, k->file, k->line,
                            "duplicate kernel id '%s' (also in %s); ids name the output files",
                            k->id, kernels[j].kernel->file);
                duplicate = true;
            }
        kernel_entry *e = &kernels[nkernels];
        rc_eval_error eerr;
        if (duplicate) {
            rc_kernel_free(k);
            continue;
        }
        if (!rc_evaluate(k, false, &e->model, &eerr)) {
            report_eval_error(diag, k, &eerr, false);
            rc_kernel_free(k);
            continue;
        }
        if (k->has_assumptions) {
            if (!rc_evaluate(k, true, &e->launch, &eerr)) {
                report_eval_error(diag, k, &eerr, true);
                rc_counts_release(&e->model);
                rc_kernel_free(k);
                continue;
            }
            e->has_launch = true;
        }
        e->kernel = k;
        nkernels++;
        rc_info(diag, 2, "%s: %s counted exactly in %lld runs over ranges of indices", k->file, k->id,
                (long long)e->model.thread_runs);
    }

    /* The results tree */
    doc = rc_results_new((const rc_gpu *const *)gpus, ngpus);
    for (size_t i = 0; i < nkernels; i++) {
        rc_kernel_result r = {kernels[i].kernel, &kernels[i].model,
                              kernels[i].has_launch ? &kernels[i].launch : NULL};
        rc_results_add_kernel(doc, (const rc_gpu *const *)gpus, ngpus, &r);
    }
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
        fonts = rc_fonts_new(diag);
        if (!fonts)
            status = RC_EXIT_OUTPUT;
    }
    for (size_t i = 0; i < nkernels; i++)
        render_kernel(doc, kernels[i].kernel->id, formats, templates, fonts, output, diag);
    if (formats & RC_FORMAT_HTML) {
        size_t len = 0;
        char *html = rc_render_html(templates, doc, NULL, fonts, &len, diag);
        write_buffer(output, "index.html", html, len);
    }
    render_charts(doc, NULL, RC_CHART_OVERVIEW, "", formats, fonts, output, diag);
    if ((formats & RC_FORMAT_PDF) && fonts) {
        size_t len = 0;
        char *pdf = rc_render_pdf_summary(doc, fonts, &len, diag);
        write_buffer(output, "summary.pdf", pdf, len);
    }
    if (formats & RC_FORMAT_CSV) {
        size_t len = 0;
        char *csv = rc_render_csv(doc, &len);
        write_buffer(output, "estimates.csv", csv, len);
    }
    if (formats & RC_FORMAT_XML) {
        size_t len = 0;
        char *xml = rc_render_results_xml(doc, &len);
        write_buffer(output, "results.xml", xml, len);
    }
    if (changes.compared) {
        size_t len = 0;
        char *text;
        if (formats & RC_FORMAT_MD) {
            text = rc_render_changes_md(doc, &len);
            write_buffer(output, "changes.md", text, len);
        }
        if (formats & RC_FORMAT_CSV) {
            text = rc_render_changes_csv(doc, &len);
            write_buffer(output, "changes.csv", text, len);
        }
    }
    rc_info(diag, 1, "roofcast: %zu kernel%s on %zu GPU%s: %zu file%s written to %s/, %zu input%s rejected",
            nkernels, nkernels == 1 ? "" : "s", ngpus, ngpus == 1 ? "" : "s",
            rc_output_written(output), rc_output_written(output) == 1 ? "" : "s",
            rc_output_dir(output), rc_diag_error_files(diag),
            rc_diag_error_files(diag) == 1 ? "" : "s");
    if (rc_output_failed(output))
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
    if (doc)
        xmlFreeDoc(doc);
    rc_templates_free(templates);
    rc_fonts_free(fonts);
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
