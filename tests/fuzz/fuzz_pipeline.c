/* fuzz_pipeline.c: see fuzz_pipeline.h. */
#include "fuzz_pipeline.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>

#include "util/diag.h"
#include "model/eval.h"
#include "model/expr.h"
#include "input/load.h"
#include "model/model.h"
#include "render/render.h"
#include "paint/font.h"
#include "results/results.h"

#ifndef ROOFCAST_SOURCE_DIR
#error "ROOFCAST_SOURCE_DIR must name the source tree (templates, bundled inputs)"
#endif

static struct {
    FILE *devnull;
    rc_loader *loader;
    rc_templates *templates;
    rc_fonts *fonts;
    bool every_pdf;     /* RC_FUZZ_EVERY_PDF set: no sampling */
    char *kernel, *gpu; /* the bundled stand-ins */
    size_t kernel_len, gpu_len;
} fz;

/* Something the pipeline must never do happened: stop loudly, so that the
 * fuzzer keeps the input. */
static void broken(const char *what, const char *detail)
{
    fprintf(stderr, "fuzz_pipeline: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    abort();
}

void rc_fuzz_broken(const char *what, const char *detail)
{
    broken(what, detail);
}

static char *slurp(const char *relative, size_t *len)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", ROOFCAST_SOURCE_DIR, relative);
    FILE *f = fopen(path, "rb");
    if (!f)
        broken("cannot open", path);
    char *buf = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (n == cap) {
            cap = cap ? 2 * cap : 65536;
            buf = realloc(buf, cap);
            if (!buf)
                broken("out of memory", NULL);
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        if (got == 0)
            break;
        n += got;
    }
    fclose(f);
    *len = n;
    return buf;
}

static void init(void)
{
    if (fz.loader)
        return;
    fz.devnull = fopen("/dev/null", "w");
    rc_diag *diag = rc_diag_new(stderr, 0);
    if (!fz.devnull || !diag)
        broken("cannot start", NULL);
    fz.loader = rc_loader_new(diag);
    /* Every template the program has, so that new renderers are fuzzed
     * as soon as they exist. */
    fz.templates = rc_templates_new(ROOFCAST_SOURCE_DIR "/templates",
                                    (1u << RC_TEMPLATE_COUNT) - 1, diag);
    fz.fonts = rc_fonts_new(diag);
    if (!fz.loader || !fz.templates || !fz.fonts)
        broken("cannot load the schemas, templates or fonts", NULL);
    rc_diag_free(diag);
    const char *every = getenv("RC_FUZZ_EVERY_PDF");
    fz.every_pdf = every && *every && strcmp(every, "0") != 0;
    fz.kernel = slurp("kernels/maximum_kernel.xml", &fz.kernel_len);
    fz.gpu = slurp("specs/titan-black.xml", &fz.gpu_len);
}

/* Mirrors run.c: an evaluation error is reported like a load error, so
 * the message code (the caret display) runs on fuzzed text too. */
static void report(rc_diag *diag, const rc_kernel *k, const rc_eval_error *err)
{
    if (err->node && err->expr >= 0)
        rc_report_expr_error(diag, k->file, err->node->line,
                             rc_work_element(err->node->kind),
                             err->node->attr[err->expr],
                             err->node->text[err->expr], &err->expr_error);
    else
        rc_error_at(diag, k->file, err->node ? err->node->line : k->line, "%s",
                    err->message);
}

/* The renderers' outputs: XML must parse again, and none may be NULL. */
static void check_xml(const char *what, const char *buf, size_t len)
{
    xmlDocPtr doc = xmlReadMemory(buf, (int)len, what, NULL,
                                  XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
    if (!doc)
        broken("a renderer's XML does not parse", what);
    xmlFreeDoc(doc);
}

/* A renderer's output: not NULL, and what its format starts with. */
static void check_output(const char *what, char *out, size_t len, const char *magic)
{
    if (!out)
        broken("a renderer failed", what);
    if (len < strlen(magic) || memcmp(out, magic, strlen(magic)) != 0)
        broken("a renderer's output does not start as its format does", what);
    free(out);
}

/* Every renderer, as run.c calls them: the kernel's own files when it was
 * reported, then the overviews. */
/* Every renderer, as run.c calls them: the kernel's own files when it was
 * reported, then the overviews. (Each call comes before its check: `len`
 * is set by the call.) A PDF takes ~30 ms, libharu embedding the fonts
 * each time, ten times the rest together: while fuzzing, the PDFs are made
 * for one input in eight, chosen by the input's hash so that a replay takes
 * the same path; the regression drivers set RC_FUZZ_EVERY_PDF. */
static void render_all(xmlDocPtr doc, const char *kernel_id, bool pdf, bool pictures,
                       rc_diag *diag)
{
    size_t len = 0;
    char *out;
    static const rc_chart_kind kinds[] = {RC_CHART_ROOFLINE, RC_CHART_TIME};
    if (kernel_id) {
        out = rc_render_template(fz.templates, RC_TEMPLATE_MARKDOWN, doc, kernel_id, &len, diag);
        check_output("markdown", out, len, "");
    }
    if (kernel_id && pictures) {
        out = rc_render_html(fz.templates, doc, kernel_id, fz.fonts, NULL, &len, diag);
        check_output("html", out, len, "<!DOCTYPE html>");
        for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
            out = rc_render_chart(doc, kernel_id, kinds[i], RC_IMAGE_SVG, fz.fonts, &len, diag);
            if (!out)
                broken("a chart failed", kernel_id);
            check_xml("chart.svg", out, len);
            free(out);
            out = rc_render_chart(doc, kernel_id, kinds[i], RC_IMAGE_PNG, fz.fonts, &len, diag);
            check_output("chart.png", out, len, "\x89PNG\r\n\x1a\n");
        }
        if (pdf) {
            out = rc_render_pdf_kernel(doc, kernel_id, fz.fonts, &len, NULL, NULL, diag);
            check_output("kernel.pdf", out, len, "%PDF-");
        }
    }
    /* The index lists the rejected inputs, so it is made for every input;
     * its charts (drawn with fonts) only when there is a kernel to draw. */
    if (pictures) {
        out = rc_render_html(fz.templates, doc, NULL, kernel_id ? fz.fonts : NULL, NULL, &len, diag);
        check_output("index.html", out, len, "<!DOCTYPE html>");
    }
    if (pictures && kernel_id) {
        out = rc_render_chart(doc, NULL, RC_CHART_OVERVIEW, RC_IMAGE_SVG, fz.fonts, &len, diag);
        if (!out)
            broken("the overview chart failed", NULL);
        check_xml("index.svg", out, len);
        free(out);
    }
    if (pdf && pictures) {
        out = rc_render_pdf_summary(doc, fz.fonts, &len, diag);
        check_output("summary.pdf", out, len, "%PDF-");
    }
    out = rc_render_csv(doc, &len);
    check_output("estimates.csv", out, len, "kernel,gpu,");
    out = rc_render_results_xml(doc, &len);
    if (!out)
        broken("the results.xml renderer failed", NULL);
    check_xml("results.xml", out, len);
    free(out);
}

/* FNV-1a: a cheap, stable hash of the input. */
static uint32_t hash(const char *s, size_t n, uint32_t h)
{
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 16777619u;
    return h;
}

/* The pipeline; `pictures`: also HTML, charts and PDF (else Markdown, CSV
 * and results.xml only). */
static void pipeline(const char *kernel_xml, size_t kernel_len, const char *gpu_xml,
                     size_t gpu_len, bool pictures)
{
    init();
    if (!kernel_xml) {
        kernel_xml = fz.kernel;
        kernel_len = fz.kernel_len;
    }
    if (!gpu_xml) {
        gpu_xml = fz.gpu;
        gpu_len = fz.gpu_len;
    }
    rc_diag *diag = rc_diag_new(fz.devnull, 0);
    if (!diag)
        broken("out of memory", NULL);
    rc_gpu *g = rc_load_gpu_memory(fz.loader, "fuzz-gpu.xml", gpu_xml, gpu_len, diag);
    rc_kernel *k = rc_load_kernel_memory(fz.loader, "fuzz-kernel.xml", kernel_xml, kernel_len,
                                         diag);
    size_t errors = rc_diag_errors(diag);
    if ((!g || !k) && errors == 0)
        broken("an input was rejected without a message", NULL);
    if (g && (!rc_id_is_safe(g->id) || !(g->peak_fp32 > 0) || !(g->bandwidth > 0)))
        broken("an unsafe GPU was accepted", g->id);
    if (k && !rc_id_is_safe(k->id))
        broken("an unsafe kernel id was accepted", k->id);

    rc_counts model, launch;
    rc_eval_error err;
    bool has_model = false, has_launch = false;
    if (k) {
        has_model = rc_evaluate(k, false, &model, &err);
        if (!has_model)
            report(diag, k, &err);
        else if (k->has_assumptions) {
            has_launch = rc_evaluate(k, true, &launch, &err);
            if (!has_launch) {
                report(diag, k, &err);
                rc_counts_release(&model);
                has_model = false;
            }
        }
    }
    const rc_gpu *gpus[1] = {g};
    size_t ngpus = g ? 1 : 0;
    xmlDocPtr doc = rc_results_new(gpus, ngpus);
    bool reported = has_model && ngpus > 0;
    if (reported) {
        rc_kernel_result r = {k, &model, has_launch ? &launch : NULL};
        rc_results_add_kernel(doc, gpus, ngpus, &r);
    }
    rc_results_add_rejected(doc, diag);
    bool pdf = fz.every_pdf ||
               hash(gpu_xml, gpu_len, hash(kernel_xml, kernel_len, 2166136261u)) % 8 == 0;
    render_all(doc, reported ? k->id : NULL, pdf, pictures, diag);

    xmlFreeDoc(doc);
    if (has_model)
        rc_counts_release(&model);
    if (has_launch)
        rc_counts_release(&launch);
    rc_kernel_free(k);
    rc_gpu_free(g);
    rc_diag_free(diag);
}

void rc_fuzz_pipeline(const char *kernel_xml, size_t kernel_len, const char *gpu_xml,
                      size_t gpu_len)
{
    pipeline(kernel_xml, kernel_len, gpu_xml, gpu_len, true);
}

/* ---- expressions ------------------------------------------------------- */

/* threadIdx.x, blockIdx.x and n are read from slots; k and blockDim.x are
 * constants; every other name is unknown. */
static rc_name_binding resolve(void *ctx, const char *name, size_t len)
{
    (void)ctx;
    static const struct {
        const char *name;
        rc_name_binding b;
    } names[] = {
        {"threadIdx.x", {RC_NAME_SLOT, 0, 0}},
        {"blockIdx.x", {RC_NAME_SLOT, 0, 1}},
        {"n", {RC_NAME_SLOT, 0, 2}},
        {"k", {RC_NAME_CONST, 100, 0}},
        {"blockDim.x", {RC_NAME_CONST, 32, 0}},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strlen(names[i].name) == len && memcmp(names[i].name, name, len) == 0)
            return names[i].b;
    return (rc_name_binding){RC_NAME_UNKNOWN, 0, 0};
}

/* The text with XML's five special characters written as references. */
static char *xml_escape(const char *s)
{
    size_t n = strlen(s);
    char *out = malloc(6 * n + 1), *o = out;
    if (!out)
        broken("out of memory", NULL);
    for (; *s; s++) {
        const char *r = NULL;
        switch (*s) {
        case '&': r = "&amp;"; break;
        case '<': r = "&lt;"; break;
        case '>': r = "&gt;"; break;
        case '"': r = "&quot;"; break;
        case '\'': r = "&apos;"; break;
        default: *o++ = *s; continue;
        }
        o += strlen(strcpy(o, r));
    }
    *o = '\0';
    return out;
}

/* rc_expr_eval_range must be sound: when it answers for a box, every point
 * of the box evaluates without error to a value inside the answer. Checked
 * at the corners and the middle of a few boxes of the three slots. */
static void check_ranges(const rc_expr *e, const char *text)
{
    static const int64_t boxes[][2][3] = {
        {{0, 0, 0}, {31, 3, 5}},
        {{-5, 1, -100}, {5, 1, 100}},
        {{0, 0, 0}, {1023, 65534, 0}},
        {{INT64_MAX - 4, -1, INT64_MIN}, {INT64_MAX, 1, INT64_MIN + 4}},
        {{7, 7, 7}, {7, 7, 7}},
    };
    for (size_t b = 0; b < sizeof boxes / sizeof boxes[0]; b++) {
        const int64_t *lo = boxes[b][0], *hi = boxes[b][1];
        int64_t out_lo, out_hi;
        if (!rc_expr_eval_range(e, lo, hi, &out_lo, &out_hi))
            continue;
        if (out_lo > out_hi)
            broken("an empty range", text);
        for (int corner = 0; corner < 27; corner++) {
            int64_t point[3];
            for (int s = 0, c = corner; s < 3; s++, c /= 3)
                point[s] = c % 3 == 0 ? lo[s] : c % 3 == 1 ? hi[s]
                                                           : lo[s] + (hi[s] - lo[s]) / 2;
            int64_t v;
            rc_expr_error err;
            if (!rc_expr_eval(e, point, &v, &err))
                broken("a range answered for a box in which a point fails", text);
            if (v < out_lo || v > out_hi)
                broken("a point's value lies outside the range answered for its box", text);
        }
    }
}

void rc_fuzz_expression(const char *data, size_t len)
{
    init();
    char *text = malloc(len + 1);
    if (!text)
        broken("out of memory", NULL);
    memcpy(text, data, len);
    text[len] = '\0';
    size_t tlen = strlen(text); /* the parser sees up to the first NUL */

    rc_expr_error err;
    rc_expr *e = rc_expr_parse(text, resolve, NULL, &err);
    if (!e) {
        if (!err.message[0] || err.offset > tlen || err.length > tlen - err.offset)
            broken("a parse error without a message or a place", err.message);
        rc_diag *diag = rc_diag_new(fz.devnull, 0);
        rc_report_expr_error(diag, "fuzz.xml", 1, "flops", "count", text, &err);
        rc_diag_free(diag);
    } else {
        bool reads[3] = {false, false, false};
        rc_expr_mark_reads(e, reads, 3);
        if (rc_expr_size(e) < 1)
            broken("an expression of size 0", text);
        int64_t value = 0;
        bool constant = rc_expr_is_const(e, &value);
        static const int64_t probes[][3] = {
            {0, 0, 0},  {1, 1, 1},       {31, 4, -1},
            {-1, 7, 2}, {INT64_MAX, 0, INT64_MIN}, {INT64_MIN, -1, INT64_MAX},
        };
        for (size_t i = 0; i < sizeof probes / sizeof probes[0]; i++) {
            int64_t out;
            rc_expr_error eerr;
            bool ok = rc_expr_eval(e, probes[i], &out, &eerr);
            if (constant && (!ok || out != value))
                broken("a constant expression evaluates to something else", text);
            if (!ok && (!eerr.message[0] || eerr.offset > tlen ||
                        eerr.length > tlen - eerr.offset))
                broken("an evaluation error without a message or a place", eerr.message);
        }
        check_ranges(e, text);
        rc_expr_free(e);
    }

    /* The same text as a guard, a count and a loop's byte count. */
    char *esc = xml_escape(text);
    size_t cap = 3 * strlen(esc) + 1024;
    char *xml = malloc(cap);
    if (!xml)
        broken("out of memory", NULL);
    int n = snprintf(xml, cap,
                     "<kernel id=\"fuzz\" name=\"fuzz\"><summary>s</summary><source>x</source>"
                     "<launch grid=\"3,2\" block=\"8,4\"/><param name=\"k\" value=\"100\"/>"
                     "<work><let name=\"n\" value=\"threadIdx.x * 3\"/>"
                     "<when test=\"%s\"><flops count=\"%s\"/></when>"
                     "<loop var=\"i\" from=\"0\" to=\"4\"><traffic bytes=\"%s\"/></loop>"
                     "</work></kernel>",
                     esc, esc, esc);
    /* The pictures and PDFs are fuzzed by the kernel and GPU targets; here
     * they would only slow the search for expressions tenfold. */
    pipeline(xml, (size_t)n, NULL, 0, false);
    free(xml);
    free(esc);
    free(text);
}

/* ---- what the readers' targets share --------------------------------------- */

const rc_fonts *rc_fuzz_fonts(void)
{
    init();
    return fz.fonts;
}

rc_templates *rc_fuzz_templates(void)
{
    init();
    return fz.templates;
}

FILE *rc_fuzz_quiet(void)
{
    init();
    return fz.devnull;
}

/* One bundled kernel, counted on the bundled GPU, added to `doc`. */
static void add_bundled(xmlDocPtr doc, const rc_gpu *const *gpus, size_t ngpus,
                        const char *relative, rc_diag *diag)
{
    size_t len = 0;
    char *xml = slurp(relative, &len);
    rc_kernel *k = rc_load_kernel_memory(fz.loader, relative, xml, len, diag);
    free(xml);
    rc_counts model;
    rc_eval_error err;
    if (!k || !rc_evaluate(k, false, &model, &err))
        broken("a bundled kernel does not load", relative);
    rc_kernel_result r = {k, &model, NULL};
    rc_results_add_kernel(doc, gpus, ngpus, &r);
    rc_counts_release(&model);
    rc_kernel_free(k);
}

xmlDocPtr rc_fuzz_bundled_results(void)
{
    static xmlDocPtr made;
    init();
    if (!made) {
        rc_diag *diag = rc_diag_new(fz.devnull, 0);
        size_t len = 0;
        char *xml = slurp("specs/rtx-4070.xml", &len);
        rc_gpu *g[2] = {rc_load_gpu_memory(fz.loader, "titan-black.xml", fz.gpu, fz.gpu_len, diag),
                        rc_load_gpu_memory(fz.loader, "rtx-4070.xml", xml, len, diag)};
        free(xml);
        if (!diag || !g[0] || !g[1])
            broken("the bundled GPUs do not load", NULL);
        const rc_gpu *gpus[2] = {g[0], g[1]};
        made = rc_results_new(gpus, 2);
        add_bundled(made, gpus, 2, "kernels/gpuMeans.xml", diag);
        add_bundled(made, gpus, 2, "kernels/maximum_kernel.xml", diag);
        rc_gpu_free(g[0]);
        rc_gpu_free(g[1]);
        rc_diag_free(diag);
    }
    return xmlCopyDoc(made, 1);
}
