/* overviews.c: the files that cover every kernel. They are opened before
 * the kernels are rendered, take each kernel's share in kernel order as it
 * is done, and are finished after the last: results.xml and estimates.csv
 * grow piece by piece, summary.pdf a page at a time, and the overview tree
 * (a few KB a kernel) gives index.html, the overview chart, summary.pdf's
 * front pages and changes.*. */

#include "cli/run.h"

#include <stdlib.h>
#ifdef __GLIBC__
#include <malloc.h> /* malloc_trim */
#endif
#include <string.h>

#include "results/results.h"

bool run_start_overview(run_state *r)
{
    r->overview = rc_results_new((const rc_gpu *const *)r->gpus, r->ngpus);
    if (!r->overview) {
        rc_fault_at(r->diag, NULL, 0, "cannot make the overview: out of memory");
        r->status = RC_EXIT_OUTPUT;
        return false;
    }
    /* Names shared by every kernel's overview part are stored once. */
    if (!r->overview->dict)
        r->overview->dict = xmlDictCreate();
    xmlNodePtr root = xmlDocGetRootElement(r->overview);
    r->overview_kernels = rc_results_child(root, "kernels");
    rc_results_add_rejected(r->overview, r->diag);
    if (r->options->baseline)
        r->comparison = rc_compare_open(r->options->baseline, rc_results_child(root, "gpus"),
                                        r->options->gate, r->diag);
    return true;
}

/* results.xml of the overview tree, cut where its kernels go: `head` is
 * what comes before them and the return value what comes after. The
 * kernels' own text is written between the two as they come. */
static char *results_xml_around_kernels(run_state *r, char **head, size_t *head_len, size_t *len)
{
    xmlNodePtr kernels = r->overview_kernels;
    xmlNodePtr first = kernels->children, last = kernels->last;
    kernels->children = kernels->last = NULL; /* the overview's kernels are not written */
    static const char mark_text[] = "roofcast kernels";
    xmlNodePtr mark = xmlAddChild(kernels, xmlNewDocComment(r->overview, (const xmlChar *)mark_text));
    size_t all_len = 0;
    char *all = rc_render_results_xml(r->overview, &all_len);
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

void run_open_overview_files(run_state *r)
{
    if (r->formats & RC_FORMAT_XML) {
        size_t tail_len = 0;
        free(results_xml_around_kernels(r, &r->results_xml_head, &r->results_xml_head_len,
                                        &tail_len));
        r->results_xml = r->results_xml_head ? rc_output_open(r->output, "results.xml") : NULL;
        rc_output_append(r->results_xml, r->results_xml_head, r->results_xml_head_len);
    }
    if (r->formats & RC_FORMAT_CSV) {
        r->estimates_csv = rc_output_open(r->output, "estimates.csv");
        size_t len = 0;
        char *header = rc_render_csv(r->overview, &len); /* no kernels yet: the header alone */
        rc_output_append(r->estimates_csv, header, len);
        free(header);
    }
    if ((r->formats & RC_FORMAT_PDF) && r->fonts) {
        r->scratch = rc_output_scratch(r->output, "summary.pdf");
        if (!r->scratch)
            rc_info(r->diag, 2, "no scratch file in %s/: summary.pdf's pages stay in memory",
                    rc_output_dir(r->output));
        r->summary = rc_pdf_summary_new(r->fonts[r->jobs], r->scratch, r->diag);
    }
    run_cache_open(r);
}

/* The overview files' pieces of one share: results.xml's text, the CSV
 * rows, the cache entry. */
static void append_share(run_state *r, size_t i, const run_share *share)
{
    if (share->xml)
        rc_output_append(r->results_xml, share->xml, share->xml_len);
    if (share->csv)
        rc_output_append(r->estimates_csv, share->csv, share->csv_len);
    run_cache_add(r, i, share);
}

void run_commit_kernel(run_state *r, size_t i, rc_kernel_change *change, xmlNodePtr part,
                       const run_share *share)
{
    pthread_mutex_lock(&r->lock);
    while (r->turn != i)
        pthread_cond_wait(&r->turn_changed, &r->lock);
    if (!share) /* up to date, nothing of it needed */
        goto done;
    double t0 = rc_thread_seconds();
    if (r->comparison && change)
        rc_compare_commit(r->comparison, r->kernels[i].kernel->id, change);
    xmlAddChild(r->overview_kernels, xmlDocCopyNode(part, r->overview, 1));
    if (r->summary && share->pdf)
        rc_pdf_summary_add_pages(r->summary, share->pdf, share->pdf_len);
    double t1 = rc_thread_seconds();
    rc_timings_add(r->timings, RC_STAGE_OVERVIEWS, t1 - t0);
    append_share(r, i, share);
    rc_timings_add(r->timings, RC_STAGE_WRITE, rc_thread_seconds() - t1);
done:
    r->turn++;
    pthread_cond_broadcast(&r->turn_changed);
    pthread_mutex_unlock(&r->lock);
}

void run_finish_comparison(run_state *r)
{
    if (r->comparison) {
        rc_compare_finish(r->comparison, r->overview, &r->changes);
        r->comparison = NULL;
    }
}

static void append_to_file(void *file, const void *data, size_t len)
{
    rc_output_append(file, data, len);
}

/* summary.pdf from its pages and the overview tree, and its libharu
 * document freed. */
static void finish_summary_pdf(run_state *r)
{
    if (!r->summary)
        return;
    rc_output_file *file = rc_output_open(r->output, "summary.pdf");
    rc_sink sink = {append_to_file, file};
    if (file && rc_pdf_summary_finish(r->summary, r->overview, &sink))
        rc_output_close(file);
    else
        rc_output_fail(file); /* the previous summary.pdf stays, listed */
    rc_pdf_summary_free(r->summary);
    r->summary = NULL;
}

/* The two largest overviews, made side by side: both only read the
 * overview tree (render.h: rc_html_index), and each is a large part of a
 * run where one kernel changed (docs/benchmarks.md), which the other
 * would wait for. */
typedef struct {
    run_state *r;
    rc_html_index *index; /* NULL: no index.html */
    char *html;           /* index.html, made by job 1 */
    size_t html_len;
} largest_overviews;

static void largest_overview_job(void *ctx, size_t i, int worker)
{
    (void)worker;
    largest_overviews *o = ctx;
    double t0 = rc_thread_seconds();
    if (i == 0)
        finish_summary_pdf(o->r);
    else if (o->index)
        o->html = rc_html_index_render(o->r->templates, o->index, &o->html_len, o->r->diag);
    rc_timings_add(o->r->timings, RC_STAGE_OVERVIEWS, rc_thread_seconds() - t0);
}

/* summary.pdf and index.html, on two workers when the run has them. */
static void make_largest_overviews(run_state *r, const rc_fonts *font0)
{
    double t0 = rc_thread_seconds();
    largest_overviews o = {.r = r};
    if (r->formats & RC_FORMAT_HTML)
        o.index = rc_html_index_new(r->overview, font0, r->diag);
    rc_timings_add(r->timings, RC_STAGE_OVERVIEWS, rc_thread_seconds() - t0);
    rc_parallel_for(2, r->jobs < 2 ? r->jobs : 2, largest_overview_job, &o, NULL, "overviews");
    t0 = rc_thread_seconds();
    rc_html_index_free(o.index);
    rc_timings_add(r->timings, RC_STAGE_OVERVIEWS, rc_thread_seconds() - t0);
    run_write_buffer(r, "index.html", o.html, o.html_len); /* timed as a write */
}

/* The overview tree's results.xml must begin as it did when the kernels'
 * text started to follow that beginning. */
static void finish_results_xml(run_state *r)
{
    if (!r->results_xml)
        return;
    char *again = NULL;
    size_t again_len = 0, tail_len = 0;
    char *tail = results_xml_around_kernels(r, &again, &again_len, &tail_len);
    if (!tail || again_len != r->results_xml_head_len ||
        memcmp(again, r->results_xml_head, again_len) != 0) {
        rc_fault_at(r->diag, NULL, 0, "results.xml: its beginning changed during the run (a bug)");
        rc_output_fail(r->results_xml);
    } else {
        rc_output_append(r->results_xml, tail, tail_len);
        rc_output_close(r->results_xml);
    }
    r->results_xml = NULL;
    free(again);
    free(tail);
}

static void write_changes(run_state *r)
{
    if (!r->changes.compared)
        return;
    size_t len = 0;
    char *text;
    if (r->formats & RC_FORMAT_MD) {
        text = rc_render_changes_md(r->templates, r->overview, &len, r->diag);
        run_write_buffer(r, "changes.md", text, len);
    }
    if (r->formats & RC_FORMAT_CSV) {
        text = rc_render_changes_csv(r->overview, &len);
        run_write_buffer(r, "changes.csv", text, len);
    }
}

/* Gives freed memory back to the system between the run's phases: what
 * the workers freed stays in their malloc arenas otherwise, and would
 * count again in the peak when the overviews' largest pieces come. */
static void give_back_memory(void)
{
#ifdef __GLIBC__
    malloc_trim(0);
#endif
}

void run_render_overviews(run_state *r)
{
    const rc_fonts *font0 = r->fonts ? r->fonts[0] : NULL;
    if (r->overviews_fresh) {
        run_keep_overviews(r);
        return;
    }
    run_cache_finish(r);
    /* The kernels' charts and PDFs are done: what the workers kept for
     * the next one (a chart's pixels, a libharu document each) goes. */
    for (int w = 0; r->fonts && w < r->font_sets; w++)
        rc_fonts_drop_spares(r->fonts[w]);
    give_back_memory();
    make_largest_overviews(r, font0);
    give_back_memory();
    double t0 = rc_thread_seconds();
    rc_chart *chart = run_describe_chart(r, r->overview, NULL, RC_CHART_OVERVIEW, font0, false);
    if (r->estimates_csv) {
        rc_output_close(r->estimates_csv);
        r->estimates_csv = NULL;
    }
    finish_results_xml(r);
    write_changes(r);
    /* The overview tree (some 40 KB a kernel) goes before index.png's
     * pixels (30 MB for a tall index) come. */
    xmlFreeDoc(r->overview);
    r->overview = NULL;
    r->overview_kernels = NULL;
    give_back_memory();
    run_paint_charts(r, chart, NULL, "", font0, NULL);
    rc_timings_add(r->timings, RC_STAGE_OVERVIEWS, rc_thread_seconds() - t0);
}
