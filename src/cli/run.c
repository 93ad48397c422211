/* run.c: rc_run, the pipeline from input paths to the output directory, as
 * a sequence of stages (run.h); here too the stages that open and finish
 * the output directory. */

#include "cli/run.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "results/format.h"
#include "results/launch.h"
#include "results/results.h"

/* ORDER RC_FORMAT */
static const char *const format_names[] = {"md", "html", "svg", "png", "pdf", "csv", "xml"};

bool rc_parse_formats(const char *list, unsigned *formats, char *bad, size_t badlen)
{
    *formats = 0;
    const char *p = list;
    while (*p) {
        while (*p == ' ' || *p == '\t') /* "md, html" as "md,html" */
            p++;
        size_t n = strcspn(p, ",");
        const char *next = p + n;
        while (n > 0 && (p[n - 1] == ' ' || p[n - 1] == '\t'))
            n--;
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
        p = next;
        if (*p == ',')
            p++;
    }
    return *formats != 0;
}

static double wall_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- opening the output directory ------------------------------------- */

static bool load_templates(run_state *r)
{
    unsigned f = r->formats;
    unsigned wanted = (f & RC_FORMAT_MD ? 1u << RC_TEMPLATE_MARKDOWN : 0) |
                      (f & RC_FORMAT_HTML ? 1u << RC_TEMPLATE_HTML | 1u << RC_TEMPLATE_INDEX : 0) |
                      (f & RC_FORMAT_MD && r->options->baseline ? 1u << RC_TEMPLATE_CHANGES : 0);
    if (!wanted)
        return true;
    char *dir = r->templates_path;
    if (run_templates_dir(r->options, r->diag, dir, sizeof r->templates_path))
        r->templates = rc_templates_new(dir, wanted, r->diag);
    /* The Markdown links the chart files this run writes, and no other. */
    if (r->templates)
        rc_templates_set_chart_images(r->templates, f & RC_FORMAT_PNG ? "png"
                                                    : f & RC_FORMAT_SVG ? "svg" : "");
    if (!r->templates)
        r->status = RC_EXIT_OUTPUT;
    return r->templates != NULL;
}

static void fonts_free(run_state *r)
{
    for (int w = 0; r->fonts && w < r->font_sets; w++)
        rc_fonts_free(r->fonts[w]);
    free(r->fonts);
    r->fonts = NULL;
}

/* One set per worker (FreeType faces are not shared), one more for
 * summary.pdf, which gets its pages from whichever worker finishes a
 * kernel. Without the fonts the other files are still written, and the
 * HTML pages without their charts, but the run fails. */
static void load_fonts(run_state *r)
{
    r->font_sets = r->jobs + ((r->formats & RC_FORMAT_PDF) != 0);
    if (!(r->formats & (RC_FORMAT_HTML | RC_FORMAT_SVG | RC_FORMAT_PNG | RC_FORMAT_PDF)))
        return;
    r->fonts = calloc((size_t)r->font_sets, sizeof *r->fonts);
    bool all = r->fonts != NULL;
    for (int w = 0; all && w < r->font_sets; w++)
        all = (r->fonts[w] = rc_fonts_new(r->diag)) != NULL;
    if (!all) {
        fonts_free(r);
        r->status = RC_EXIT_OUTPUT;
    }
}

/* The directory and its manifest, the templates and fonts, and the run's
 * key (incremental.c), before the kernels are loaded: those whose files
 * are up to date are then not counted. */
static bool open_output(run_state *r)
{
    r->output = rc_output_new(r->options->output_dir ? r->options->output_dir : "output", r->diag);
    if (r->output)
        r->previous = rc_manifest_read(r->output, r->diag);
    if (r->output && !r->previous)
        rc_fault_at(r->diag, NULL, 0, "cannot read the manifest: out of memory");
    if (!r->previous) { /* rc_output_new said why */
        r->status = RC_EXIT_OUTPUT;
        return false;
    }
    if (!load_templates(r))
        return false;
    load_fonts(r);
    double t0 = rc_thread_seconds();
    run_hash_run(r);
    rc_timings_add(r->timings, RC_STAGE_LOAD, rc_thread_seconds() - t0);
    return true;
}

/* Once the kernels are loaded: whether the overviews are up to date; the
 * kernels whose shares of them the cache holds; the others not counted,
 * when their trees are needed after all; and the files written piece by
 * piece as the kernels come, unless up to date. */
static void plan_overviews(run_state *r)
{
    run_decide_overviews(r);
    run_cache_plan(r);
    run_count_deferred(r);
    if (!r->overviews_fresh)
        run_open_overview_files(r);
}

/* Every kernel x GPU pair whose launch cannot run (results/launch.h), in
 * kernel order: an error for that pair, exit status 1; the tree gives it
 * no estimate (results.c). */
static void report_launches(run_state *r)
{
    for (size_t i = 0; i < r->nkernels; i++) {
        const rc_kernel *k = r->kernels[i].kernel;
        for (size_t g = 0; k && g < r->ngpus; g++) {
            char why[300], msg[500];
            if (rc_launch_fits(r->gpus[g], k, why, sizeof why))
                continue;
            rc_launch_message(r->gpus[g], why, msg, sizeof msg);
            rc_pair_error_at(r->diag, k->file, k->line, "%s", msg);
        }
    }
}

/* ---- finishing -------------------------------------------------------- */

/* The --check table: per kernel x GPU, t_estimate (the refined estimate to plan with) and what
 * limits it first, then the peak roofline's t_total, its bound and whether the launch latency
 * outweighs its body. A kernel without a refined estimate shows "-" for t_estimate. */
static void print_check_table(FILE *out, xmlDocPtr doc)
{
    static const char *const attrs[] = {"gpu", "intensity-text", "t-estimate-text", "limiter",
                                        "t-total-text", "bound", "launch-dominated"};
    enum { NATTRS = sizeof attrs / sizeof attrs[0] };
    fprintf(out, "%-24s %-16s %14s %14s %10s %13s %-13s %12s %-7s %s\n", "kernel", "gpu", "flops",
            "bytes", "FLOP/byte", "t_estimate_us", "limiter", "t_total_us", "bound",
            "launch-dominated");
    xmlNodePtr kernels = rc_results_child(xmlDocGetRootElement(doc), "kernels");
    for (xmlNodePtr k = kernels ? kernels->children : NULL; k; k = k->next) {
        xmlNodePtr counts = rc_results_child(k, "counts");
        xmlChar *id = xmlGetProp(k, (const xmlChar *)"id");
        xmlChar *flops = xmlGetProp(rc_results_child(counts, "flops"), (const xmlChar *)"total-text");
        xmlChar *bytes = xmlGetProp(rc_results_child(counts, "bytes"), (const xmlChar *)"total-text");
        for (xmlNodePtr e = rc_results_child(k, "estimates")->children; e; e = e->next) {
            xmlChar *v[NATTRS];
            for (size_t i = 0; i < NATTRS; i++)
                v[i] = xmlGetProp(e, (const xmlChar *)attrs[i]);
            /* No FLOPs and no bytes have no ratio: "none", as the reports say. */
            bool none = v[5] && strcmp((char *)v[5], "none") == 0;
            fprintf(out, "%-24s %-16s %14s %14s %10s %13s %-13s %12s %-7s %s\n", (char *)id,
                    (char *)v[0], (char *)flops, (char *)bytes, none ? "none" : (char *)v[1],
                    v[2] ? (char *)v[2] : "-", v[3] ? (char *)v[3] : "-", (char *)v[4],
                    (char *)v[5], (char *)v[6]);
            for (size_t i = 0; i < NATTRS; i++)
                xmlFree(v[i]);
        }
        /* A GPU the launch cannot run on: no estimate (results/launch.h). */
        for (xmlNodePtr c = k->children; c; c = c->next) {
            if (c->type != XML_ELEMENT_NODE || !xmlStrEqual(c->name, (const xmlChar *)"cannot-launch"))
                continue;
            xmlChar *gpu = xmlGetProp(c, (const xmlChar *)"gpu");
            xmlChar *why = xmlGetProp(c, (const xmlChar *)"reason");
            fprintf(out, "%-24s %-16s cannot launch: %s\n", (char *)id, (char *)gpu, (char *)why);
            xmlFree(gpu);
            xmlFree(why);
        }
        xmlFree(id);
        xmlFree(flops);
        xmlFree(bytes);
    }
}

/* --fail-on-change: exit 4 when the estimate it follows (--fail-on-change-of: t_estimate by
 * default, or t_total) moved by more than the limit on some kernel x GPU, or when the
 * baseline's value of it is missing or not a time, or the baseline could not be read at
 * all, so that nothing can be said to have stayed. Says which estimate it follows. */
static void gate_on_changes(run_state *r)
{
    const rc_compare_summary *c = &r->changes;
    double limit = r->options->fail_on_change;
    const char *gate = r->options->gate;
    if (!c->compared) {
        rc_info(r->diag, 0, "the baseline could not be compared (see the warning): "
                "--fail-on-change cannot pass");
        r->status = RC_EXIT_CHANGED;
        return;
    }
    char moved[64]; /* rounded as changes.md rounds it (format.h) */
    rc_format_sig3(c->gate_percent, moved, sizeof moved);
    if (isinf(c->gate_percent))
        rc_info(r->diag, 0, "%s changed since the baseline by no finite percentage (it moved "
                "from 0, or the launch cannot run now), more than --fail-on-change %.3g %% "
                "(which follows %s)", c->gate_what, limit, gate);
    else if (c->gate_percent > limit)
        rc_info(r->diag, 0, "%s moved by %s %% since the baseline, more than "
                "--fail-on-change %.3g %% (which follows %s)", c->gate_what, moved, limit, gate);
    else if (c->gate_percent > 0)
        rc_info(r->diag, 1, "--fail-on-change follows %s%s; its largest move, %s by %s %%, is "
                "within %.3g %%", gate, strcmp(gate, "t_total") == 0 ? ""
                : " (--fail-on-change-of t_total follows t_total)", c->gate_what, moved, limit);
    else
        rc_info(r->diag, 1, "--fail-on-change follows %s%s; no value of it moved", gate,
                strcmp(gate, "t_total") == 0 ? "" : " (--fail-on-change-of t_total follows t_total)");
    if (c->unusable_tracked > 0)
        rc_info(r->diag, 0, "%zu baseline value%s of %s %s missing or not %s (see the warnings): "
                "--fail-on-change cannot pass", c->unusable_tracked,
                c->unusable_tracked == 1 ? "" : "s", gate,
                c->unusable_tracked == 1 ? "is" : "are",
                c->unusable_tracked == 1 ? "a time" : "times");
    if (c->gate_percent > limit || c->unusable_tracked > 0)
        r->status = RC_EXIT_CHANGED;
}

/* The manifest and the files of earlier runs, the summary line, and the
 * exit status the written files give. */
static void finish_output(run_state *r)
{
    rc_progress_free(r->progress);
    r->progress = NULL;
    size_t others = run_keep_others(r);
    size_t removed = rc_manifest_finish(r->output, r->previous, run_key_of, r, r->diag);
    if (removed > 0)
        rc_info(r->diag, 1, "removed %zu file%s that an earlier run wrote into %s/ and "
                "this run did not", removed, removed == 1 ? "" : "s", rc_output_dir(r->output));
    size_t written = rc_output_written(r->output), rejected = rc_diag_error_files(r->diag);
    size_t kept = rc_output_kept(r->output) - others, pairs = rc_diag_pair_errors(r->diag);
    char kept_text[128] = "", pairs_text[96] = "";
    if (kept > 0 && others > 0)
        snprintf(kept_text, sizeof kept_text, " (%zu up to date, kept; %zu of other kernels or "
                 "formats, kept)", kept, others);
    else if (kept > 0)
        snprintf(kept_text, sizeof kept_text, " (%zu up to date, kept)", kept);
    else if (others > 0)
        snprintf(kept_text, sizeof kept_text, " (%zu of other kernels or formats, kept)", others);
    if (pairs > 0)
        snprintf(pairs_text, sizeof pairs_text, ", %zu kernel x GPU pair%s that cannot launch",
                 pairs, pairs == 1 ? "" : "s");
    rc_info(r->diag, 1, "%zu kernel%s on %zu GPU%s: %zu file%s written to %s/%s, %zu input%s rejected%s",
            r->nkernels, r->nkernels == 1 ? "" : "s", r->ngpus, r->ngpus == 1 ? "" : "s",
            written, written == 1 ? "" : "s", rc_output_dir(r->output), kept_text, rejected,
            rejected == 1 ? "" : "s", pairs_text);
    const rc_options *o = r->options;
    if (rc_output_failed(r->output) || rc_diag_faults(r->diag) > 0)
        r->status = RC_EXIT_OUTPUT;
    else if (o->fail_on_change >= 0 && o->baseline)
        gate_on_changes(r);
}

/* ---- the run ---------------------------------------------------------- */

static bool run_begin(run_state *r, const rc_options *o, FILE *err)
{
    memset(r, 0, sizeof *r);
    r->options = o;
    r->err = err;
    r->diag = rc_diag_new(err, o->verbosity);
    if (!r->diag)
        return false;
    r->timings = o->timings ? rc_timings_new() : NULL;
    r->progress = rc_progress_new(err, o->verbosity >= 1);
    r->jobs = o->jobs > 0 ? o->jobs : rc_cpu_count();
    r->formats = o->check ? 0 : o->formats ? o->formats : RC_FORMAT_ALL;
    r->loader = rc_loader_new(r->diag);
    if (!r->loader)
        r->status = RC_EXIT_INPUT;
    return r->loader != NULL;
}

/* Frees everything every stage made, and gives the exit status. */
static int run_end(run_state *r, double started)
{
    int status = r->status;
    if (status == RC_EXIT_OK &&
        (rc_diag_errors(r->diag) > 0 || rc_diag_pair_errors(r->diag) > 0))
        status = RC_EXIT_INPUT;
    rc_progress_free(r->progress);
    if (r->timings && !r->options->check)
        rc_timings_print(r->timings, r->err, r->nkernels,
                         wall_seconds() - started);
    rc_timings_free(r->timings);
    rc_pdf_summary_free(r->summary);
    if (r->scratch)
        fclose(r->scratch);
    rc_output_abandon(r->results_xml);
    rc_output_abandon(r->estimates_csv);
    rc_output_abandon(r->new_cache);
    run_cache_free(r->cache);
    free(r->results_xml_head);
    rc_compare_free(r->comparison);
    if (r->overview)
        xmlFreeDoc(r->overview);
    rc_templates_free(r->templates);
    fonts_free(r);
    rc_manifest_free(r->previous);
    rc_output_free(r->output);
    for (size_t i = 0; i < r->nkernels; i++) {
        rc_counts_release(&r->kernels[i].model);
        if (r->kernels[i].has_launch)
            rc_counts_release(&r->kernels[i].launch);
        rc_kernel_free(r->kernels[i].kernel);
    }
    free(r->kernels);
    free(r->by_id);
    for (size_t i = 0; i < r->ngpus; i++)
        rc_gpu_free(r->gpus[i]);
    free(r->gpus);
    run_paths_free(&r->gpu_files);
    run_paths_free(&r->kernel_files);
    rc_loader_free(r->loader);
    rc_diag_free(r->diag);
    return status;
}

int rc_run(const rc_options *o, FILE *out, FILE *err)
{
    double started = wall_seconds();
    run_state r;
    if (!run_begin(&r, o, err)) {
        if (!r.diag) {
            fprintf(err, "roofcast: cannot start: out of memory\n");
            return RC_EXIT_OUTPUT;
        }
    } else if (run_load_gpus(&r) && (o->check || open_output(&r)) && run_load_kernels(&r) &&
               (report_launches(&r), run_start_overview(&r))) {
        if (!o->check)
            plan_overviews(&r);
        run_render_kernels(&r);
        run_finish_comparison(&r);
        if (o->check) {
            if (r.nkernels > 0) /* no table of nothing beside the errors */
                print_check_table(out, r.overview);
        } else {
            run_render_overviews(&r);
            finish_output(&r);
        }
    }
    return run_end(&r, started);
}
