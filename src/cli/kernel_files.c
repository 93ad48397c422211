/* kernel_files.c: rendering each kernel on worker threads: its results
 * tree, every file of its own from that tree, then its share of the files
 * that cover every kernel (overviews.c). The tree is freed as soon as the
 * kernel is done, so a run holds as many trees as it has workers. */

#include "cli/run.h"

#include <stdlib.h>
#include <string.h>

#include "results/results.h"

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

/* The CSV of a kernel's document without its header line. */
static char *csv_rows(xmlDocPtr doc, size_t *len)
{
    size_t all_len = 0;
    char *all = rc_render_csv(doc, &all_len);
    if (!all)
        return NULL;
    const char *rows = memchr(all, '\n', all_len);
    rows = rows ? rows + 1 : all + all_len;
    *len = all_len - (size_t)(rows - all);
    memmove(all, rows, *len);
    return all;
}

/* Kernel's overview part (rc_results_overview_kernel) as text. */
static char *overview_part(xmlNodePtr kernel, size_t *len)
{
    xmlNodePtr part = rc_results_overview_kernel(kernel->doc, kernel);
    xmlBufferPtr buf = part ? xmlBufferCreate() : NULL;
    char *out = NULL;
    if (buf && xmlNodeDump(buf, kernel->doc, part, 0, 0) >= 0) {
        *len = (size_t)xmlBufferLength(buf);
        out = malloc(*len + 1);
        if (out)
            memcpy(out, xmlBufferContent(buf), *len);
    }
    xmlBufferFree(buf);
    xmlFreeNode(part);
    return out;
}

static void write_markdown(run_state *r, xmlDocPtr doc, const char *id)
{
    size_t len = 0;
    double t0 = rc_thread_seconds();
    char *md = rc_render_template(r->templates, RC_TEMPLATE_MARKDOWN, doc, id, &len, r->diag);
    rc_timings_add(r->timings, RC_STAGE_MD, rc_thread_seconds() - t0);
    char name[160];
    snprintf(name, sizeof name, "%s.md", id);
    run_write_buffer(r, name, md, len);
}

/* The charts, then the page that embeds the SVGs just painted. */
static void write_charts_and_html(run_state *r, xmlDocPtr doc, const char *id,
                                  const rc_fonts *fonts)
{
    bool html = (r->formats & RC_FORMAT_HTML) != 0;
    run_kept_svg roofline = {0}, time = {0};
    run_render_charts(r, doc, id, RC_CHART_ROOFLINE, "-roofline", fonts, html ? &roofline : NULL);
    run_render_charts(r, doc, id, RC_CHART_TIME, "-time", fonts, html ? &time : NULL);
    if (html) {
        rc_painted_svgs painted = {roofline.svg, time.svg, roofline.len, time.len,
                                   roofline.width, roofline.height, time.width, time.height};
        size_t len = 0;
        double t0 = rc_thread_seconds();
        char *page = rc_render_html(r->templates, doc, id, fonts, &painted, &len, r->diag);
        rc_timings_add(r->timings, RC_STAGE_HTML, rc_thread_seconds() - t0);
        char name[160];
        snprintf(name, sizeof name, "%s.html", id);
        run_write_buffer(r, name, page, len);
    }
    free(roofline.svg);
    free(time.svg);
}

/* The kernel's PDF, written; its pages for summary.pdf in *pages when
 * the overviews take them (NULL otherwise, or after reporting). */
static void write_pdf(run_state *r, xmlDocPtr doc, const char *id, const rc_fonts *fonts,
                      char **pages, size_t *pages_len)
{
    size_t len = 0;
    bool want = r->overview_kernels && (run_share_wanted(r) & RUN_SHARE_PDF);
    double t0 = rc_thread_seconds();
    char *pdf = rc_render_pdf_kernel(doc, id, fonts, &len, want ? pages : NULL, pages_len,
                                     r->diag);
    rc_timings_add(r->timings, RC_STAGE_PDF, rc_thread_seconds() - t0);
    char name[160];
    snprintf(name, sizeof name, "%s.pdf", id);
    run_write_buffer(r, name, pdf, len);
}

/* The kernel's pages for summary.pdf when its PDF is up to date (so not
 * drawn this run); NULL after reporting. */
static char *pages_alone(run_state *r, xmlNodePtr kernel, const rc_fonts *fonts, size_t *len)
{
    double t0 = rc_thread_seconds();
    xmlNodePtr gpus = rc_results_child(xmlDocGetRootElement(kernel->doc), "gpus");
    char *pages = rc_render_pdf_pages(gpus, kernel, fonts, len, r->diag);
    rc_timings_add(r->timings, RC_STAGE_PDF, rc_thread_seconds() - t0);
    return pages;
}

bool run_share_of_tree(const run_state *r, xmlNodePtr kernel, char **pages, size_t pages_len,
                       run_share *share)
{
    unsigned wanted = run_share_wanted(r);
    *share = (run_share){0};
    if (wanted & RUN_SHARE_XML)
        share->xml = kernel_xml(kernel, &share->xml_len);
    if (wanted & RUN_SHARE_CSV)
        share->csv = csv_rows(kernel->doc, &share->csv_len);
    share->part = overview_part(kernel, &share->part_len);
    share->pdf = *pages;
    share->pdf_len = pages_len;
    *pages = NULL;
    bool whole = (share->xml || !(wanted & RUN_SHARE_XML)) &&
                 (share->csv || !(wanted & RUN_SHARE_CSV)) &&
                 (share->pdf || !(wanted & RUN_SHARE_PDF)) && share->part;
    if (!whole)
        run_share_release(share);
    return whole;
}

/* A share's overview part as a node of a document of its own (the caller
 * frees node->doc); NULL when it cannot be read back. Parsed from its
 * text in every run, so that an overview made from the cache and one made
 * from the trees are made alike. */
static xmlNodePtr part_node(const run_share *share)
{
    xmlDocPtr doc = xmlReadMemory(share->part, (int)share->part_len, NULL, NULL,
                                  XML_PARSE_NONET | XML_PARSE_HUGE | XML_PARSE_NOERROR |
                                      XML_PARSE_NOWARNING);
    return doc ? xmlDocGetRootElement(doc) : NULL;
}

static void free_node_doc(xmlNodePtr node)
{
    if (node)
        xmlFreeDoc(node->doc);
}

/* Kernel i's share from the cache, committed without its tree (its pages
 * of summary.pdf among the pieces). Returns false when the entry is
 * damaged or cannot be read back: the caller counts the kernel and makes
 * its tree instead. */
static bool commit_cached(run_state *r, size_t i)
{
    run_share share;
    double t0 = rc_thread_seconds();
    if (!run_cache_read(r, i, &share))
        return false;
    xmlNodePtr part = part_node(&share);
    rc_timings_add(r->timings, RC_STAGE_RESULTS, rc_thread_seconds() - t0);
    if (part)
        run_commit_kernel(r, i, NULL, part, &share);
    free_node_doc(part);
    run_share_release(&share);
    return part != NULL;
}

/* Kernel i's tree, its files (unless up to date) and its share. */
static void render_tree(run_state *r, size_t i, const rc_fonts *fonts)
{
    run_kernel *e = &r->kernels[i];
    const char *id = e->kernel->id;
    double t0 = rc_thread_seconds();
    xmlDocPtr doc = r->tree_start ? xmlCopyDoc(r->tree_start, 1) : NULL;
    if (!doc) {
        rc_fault_at(r->diag, NULL, 0, "%s: its results tree: out of memory", id);
        run_commit_kernel(r, i, NULL, NULL, NULL); /* its turn passes: the others wait on it */
        return;
    }
    rc_kernel_result result = {e->kernel, &e->model, e->has_launch ? &e->launch : NULL};
    xmlNodePtr node = rc_results_add_kernel(doc, (const rc_gpu *const *)r->gpus, r->ngpus, &result);
    rc_kernel_change change = {0};
    if (r->comparison)
        rc_compare_kernel(r->comparison, node, &change);
    rc_timings_add(r->timings, RC_STAGE_RESULTS, rc_thread_seconds() - t0);

    if (!e->fresh && (r->formats & RC_FORMAT_MD))
        write_markdown(r, doc, id);
    if (!e->fresh)
        write_charts_and_html(r, doc, id, fonts);
    char *pages = NULL;
    size_t pages_len = 0;
    if (!e->fresh && (r->formats & RC_FORMAT_PDF) && fonts)
        write_pdf(r, doc, id, fonts, &pages, &pages_len);
    else if (r->overview_kernels && (run_share_wanted(r) & RUN_SHARE_PDF))
        pages = pages_alone(r, node, fonts, &pages_len);

    run_share share = {0};
    xmlNodePtr part = NULL;
    t0 = rc_thread_seconds();
    bool shared = r->overview_kernels &&
                  run_share_of_tree(r, node, &pages, pages_len, &share) &&
                  (part = part_node(&share)) != NULL;
    free(pages); /* NULL once the share took it */
    rc_timings_add(r->timings, RC_STAGE_RESULTS, rc_thread_seconds() - t0);
    if (r->overview_kernels && !shared)
        rc_fault_at(r->diag, NULL, 0, "%s: its share of the overviews: out of memory", id);
    run_commit_kernel(r, i, &change, part, shared ? &share : NULL);
    free_node_doc(part);
    run_share_release(&share);
    xmlFreeNode(change.entry); /* NULL unless the commit did not take it */
    xmlFreeDoc(doc);
}

/* Job: kernel i's share of the files that cover every kernel, from the
 * cache or from its tree, and its own files when not up to date. A kernel
 * up to date whose share is not needed only passes its turn. */
static void render_job(void *ctx, size_t i, int worker)
{
    run_state *r = ctx;
    run_kernel *e = &r->kernels[i];
    if (e->fresh)
        run_keep_kernel_files(r, e->kernel->id);
    if (e->cached && commit_cached(r, i))
        return;
    if (e->cached) /* its entry was damaged */
        run_count_kernel(r, i);
    if (!e->counted) { /* up to date, and no tree needed (or, a bug, not countable) */
        run_commit_kernel(r, i, NULL, NULL, NULL);
        return;
    }
    render_tree(r, i, r->fonts ? r->fonts[worker] : NULL);
}

void run_render_kernels(run_state *r)
{
    pthread_mutex_init(&r->lock, NULL);
    pthread_cond_init(&r->turn_changed, NULL);
    r->tree_start = rc_results_new((const rc_gpu *const *)r->gpus, r->ngpus);
    rc_parallel_for(r->nkernels, r->jobs, render_job, r,
                    r->options->check ? NULL : r->progress, "rendering");
    xmlFreeDoc(r->tree_start);
    r->tree_start = NULL;
    pthread_cond_destroy(&r->turn_changed);
    pthread_mutex_destroy(&r->lock);
}
