/* compare.c: what changed since the baseline. See compare.h. */
#include "results/compare.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libxml/hash.h>
#include <libxml/parser.h>

#include "util/buffer.h"
#include "util/output.h"
#include "results/format.h"
#include "results/results.h"

#define X(s) ((const xmlChar *)(s))

/* The estimate quantities compared, in seconds: the attribute of the
 * results tree's <estimate> and the name the reports, the CSV and the
 * messages give it. Every one is shown; --fail-on-change gates on one of them per
 * kernel x GPU, the one the comparison follows (rc_compare_open: t_estimate by default,
 * or t_total); the others are shown, as the reasons, but never fail a run. ORDER matters
 * for output. */
static const struct {
    const char *attr, *name;
} quantities[] = {
    {"t-total", "t_total"},    {"t-body", "t_body"},
    {"t-compute", "t_compute"}, {"t-mem", "t_mem"},
    {"t-launch", "t_launch"},  {"t-estimate", "t_estimate"},
};

/* Whether quantity q is the one the gate follows in this kernel's comparison. */
static bool tracked(size_t q, const rc_kernel_change *ch)
{
    return ch->gate && strcmp(quantities[q].name, ch->gate) == 0;
}
#define NQUANTITIES (sizeof quantities / sizeof quantities[0])

/* The GPU figures whose change explains a changed estimate. */
static const char *const gpu_figures[] = {"peak-fp32", "bandwidth", "launch-latency"};

static char *get(xmlNodePtr n, const char *name)
{
    return n ? (char *)xmlGetProp(n, X(name)) : NULL;
}

static bool is(xmlNodePtr n, const char *name)
{
    return n && n->type == XML_ELEMENT_NODE && strcmp((const char *)n->name, name) == 0;
}

/* The child of `parent` named `name` whose attribute `key` equals `value`. */
static xmlNodePtr find_by(xmlNodePtr parent, const char *name, const char *key, const char *value)
{
    for (xmlNodePtr n = parent ? parent->children : NULL; n; n = n->next) {
        if (!is(n, name))
            continue;
        char *v = get(n, key);
        bool match = v && value && strcmp(v, value) == 0;
        xmlFree(v);
        if (match)
            return n;
    }
    return NULL;
}

static xmlNodePtr counts_of(xmlNodePtr kernel)
{
    return find_by(kernel, "counts", "basis", "model");
}

/* The largest baseline read: libxml2 takes an int length, and a
 * results.xml of 10,000 kernels on 12 GPUs is some 400 MB. */
#define BASELINE_MAX ((size_t)1 << 30)

/* The baseline parsed from its text, or NULL after a warning. */
static xmlDocPtr parse_baseline(const char *file, const char *text, size_t len, rc_diag *diag)
{
    xmlDocPtr doc = len <= BASELINE_MAX
                        ? xmlReadMemory(text, (int)len, NULL, NULL,
                                        XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING)
                        : NULL;
    if (!doc) {
        const xmlError *e = xmlGetLastError();
        rc_warn_at(diag, file, e ? e->line : 0,
                   "the baseline is not a readable results.xml: nothing compared");
        return NULL;
    }
    xmlNodePtr top = xmlDocGetRootElement(doc);
    if (doc->intSubset || !is(top, "roofcast-results")) {
        rc_warn_at(diag, file, top ? xmlGetLineNo(top) : 0,
                   "the baseline is not a roofcast results.xml (expected <roofcast-results> "
                   "and no DOCTYPE): nothing compared");
        xmlFreeDoc(doc);
        return NULL;
    }
    return doc;
}

/* Reads the baseline, or returns NULL after a warning. A directory is
 * read as its results.xml, opened relative to it (openat); the file is
 * opened without blocking (a FIFO would hang the run) and read only when
 * it is a regular file (output.h: rc_open_regular). It is only read, so
 * a symbolic link the user names is followed. */
static xmlDocPtr read_baseline(const char *path, rc_diag *diag, char **file_out)
{
    char *file;
    int dirfd = open(path, O_RDONLY | O_DIRECTORY | O_NONBLOCK | O_CLOEXEC);
    if (dirfd >= 0) {
        size_t n = strlen(path) + 16;
        file = malloc(n);
        if (file)
            snprintf(file, n, "%s/results.xml", path);
    } else
        file = strdup(path);
    *file_out = file;
    if (!file) {
        if (dirfd >= 0)
            close(dirfd);
        return NULL;
    }
    const char *why = NULL;
    size_t len = 0;
    char *text = rc_read_regular(dirfd >= 0 ? dirfd : AT_FDCWD,
                                 dirfd >= 0 ? "results.xml" : path, true, BASELINE_MAX, &len,
                                 &why);
    int e = errno;
    if (dirfd >= 0)
        close(dirfd);
    if (!text) {
        if (why)
            rc_warn_at(diag, file, 0, "the baseline is %s, not a results.xml: nothing to "
                       "compare with", why);
        else
            rc_warn_at(diag, file, 0, "cannot read the baseline (%s): nothing to compare with",
                       strerror(e));
        return NULL;
    }
    xmlDocPtr doc = parse_baseline(file, text, len, diag);
    free(text);
    return doc;
}

/* "+12.5 %", "-3.00 %", "new" (from zero) */
static void percent_text(double old, double now, double *percent, char *buf, size_t size)
{
    if (old == 0) {
        *percent = INFINITY;
        snprintf(buf, size, "from 0");
        return;
    }
    *percent = (now - old) / fabs(old) * 100.0;
    char num[40];
    rc_format_sig3(*percent, num, sizeof num);
    snprintf(buf, size, "%s%s %%", *percent > 0 ? "+" : "", num);
}

static void add_simple(xmlNodePtr parent, const char *element, xmlNodePtr from)
{
    xmlNodePtr n = xmlNewChild(parent, NULL, X(element), NULL);
    char *id = get(from, "id"), *name = get(from, "name");
    xmlSetProp(n, X("id"), X(id ? id : ""));
    xmlSetProp(n, X("name"), X(name ? name : ""));
    xmlFree(id);
    xmlFree(name);
}

static void add_input(xmlNodePtr parent, const char *kind, const char *gpu, const char *name,
                      const char *old, const char *now)
{
    xmlNodePtr n = xmlNewChild(parent, NULL, X("input"), NULL);
    xmlSetProp(n, X("kind"), X(kind));
    if (gpu)
        xmlSetProp(n, X("gpu"), X(gpu));
    xmlSetProp(n, X("name"), X(name));
    xmlSetProp(n, X("old"), X(old ? old : "(none)"));
    xmlSetProp(n, X("new"), X(now ? now : "(none)"));
}

/* Adds an <input> when attribute `attr` of the two nodes differs. */
static void compare_attr(xmlNodePtr entry, const char *kind, const char *label,
                         xmlNodePtr old_node, xmlNodePtr new_node, const char *attr)
{
    char *o = get(old_node, attr), *n = get(new_node, attr);
    if (!(o && n && strcmp(o, n) == 0) && (o || n)) {
        /* Show numbers as the reports do, when the tree has their text. */
        char text_attr[96];
        snprintf(text_attr, sizeof text_attr, "%s-text", attr);
        char *ot = get(old_node, text_attr), *nt = get(new_node, text_attr);
        add_input(entry, kind, NULL, label, ot ? ot : o, nt ? nt : n);
        xmlFree(ot);
        xmlFree(nt);
    }
    xmlFree(o);
    xmlFree(n);
}

struct rc_comparison {
    xmlDocPtr base;            /* the baseline's tree */
    char *file;                /* its results.xml, for messages */
    xmlNodePtr old_gpus, old_kernels, new_gpus;
    xmlHashTablePtr old_by_id; /* the baseline's <kernel>s by id */
    xmlHashTablePtr seen;      /* ids of this run's kernels so far */
    rc_diag *diag;
    xmlNodePtr changes;        /* this run's <changes>, in no document yet */
    bool warned_missing;
    const char *gate;          /* the quantity --fail-on-change follows */
    rc_compare_summary summary;
};

/* A baseline value as a time in seconds: false when it is not a number,
 * not finite, or negative (a hand-edited or damaged results.xml). */
static bool baseline_time(const char *text, double *seconds)
{
    char *end;
    errno = 0;
    *seconds = strtod(text, &end);
    return end != text && *end == '\0' && isfinite(*seconds) && *seconds >= 0;
}

/* A changed estimate's <estimate> under the kernel's entry: the GPU, the
 * quantity and its old and new values, as numbers and as the reports show
 * them. */
static void add_estimate_change(xmlNodePtr entry, xmlNodePtr new_estimate, size_t q,
                                const char *gpu, const char *old, const char *now,
                                const char *old_text, const char *new_text,
                                const char *percent, const char *percent_text)
{
    xmlNodePtr n = xmlNewChild(entry, NULL, X("estimate"), NULL);
    char *gname = get(new_estimate, "gpu-name");
    xmlSetProp(n, X("gpu"), X(gpu));
    xmlSetProp(n, X("gpu-name"), X(gname ? gname : gpu));
    xmlFree(gname);
    xmlSetProp(n, X("quantity"), X(quantities[q].name));
    xmlSetProp(n, X("old"), X(old));
    xmlSetProp(n, X("new"), X(now));
    xmlSetProp(n, X("old-text"), X(old_text));
    xmlSetProp(n, X("new-text"), X(new_text));
    xmlSetProp(n, X("percent"), X(percent));
    xmlSetProp(n, X("percent-text"), X(percent_text));
}

/* Notes a baseline value that is not a time: shown as not compared, and
 * (for a tracked quantity) failing the --fail-on-change gate. */
static void note_unusable(xmlNodePtr entry, xmlNodePtr old_estimate, xmlNodePtr new_estimate,
                          size_t q, const char *gpu, const char *old, const char *now,
                          rc_kernel_change *ch)
{
    char nt[64];
    add_estimate_change(entry, new_estimate, q, gpu, old, now, "not a time",
                        rc_format_us(strtod(now, NULL), nt, sizeof nt), "", "not compared");
    xmlSetProp(entry->last, X("comparable"), X("no"));
    ch->estimates_changed++;
    ch->unusable++;
    if (tracked(q, ch))
        ch->unusable_tracked++;
    if (ch->unusable == 1) {
        snprintf(ch->unusable_first, sizeof ch->unusable_first, "%s on %s is '%.40s'",
                 quantities[q].name, gpu, old);
        ch->unusable_line = (int)xmlGetLineNo(old_estimate);
    }
}

/* Notes a tracked quantity's move, when it is the kernel's largest. */
static void note_gate(size_t q, const char *gpu, double percent, rc_kernel_change *ch)
{
    if (!tracked(q, ch) || !(fabs(percent) > ch->gate_percent))
        return;
    ch->gate_percent = fabs(percent);
    ch->gate_quantity = quantities[q].name;
    snprintf(ch->gate_gpu, sizeof ch->gate_gpu, "%s", gpu);
}

/* Notes a value that moved from `old` to `now` seconds. */
static void note_moved(xmlNodePtr entry, xmlNodePtr new_estimate, size_t q, const char *gpu,
                       const char *old_value, const char *new_value, double old, double now,
                       rc_kernel_change *ch)
{
    double pct;
    char ptext[96], at[64], bt[64], pt[64];
    percent_text(old, now, &pct, ptext, sizeof ptext);
    add_estimate_change(entry, new_estimate, q, gpu, old_value, new_value,
                        rc_format_us(old, at, sizeof at), rc_format_us(now, bt, sizeof bt),
                        rc_format_exact(pct, pt, sizeof pt), ptext);
    ch->estimates_changed++;
    if (fabs(pct) > ch->max_abs_percent)
        ch->max_abs_percent = fabs(pct);
    note_gate(q, gpu, pct, ch);
}

/* Compares one quantity of a GPU's estimate. Returns whether it moved (or
 * could not be compared). */
static bool compare_quantity(xmlNodePtr entry, xmlNodePtr old_estimate, xmlNodePtr new_estimate,
                             size_t q, const char *gpu, rc_kernel_change *ch)
{
    char *ov = get(old_estimate, quantities[q].attr), *nv = get(new_estimate, quantities[q].attr);
    double a = 0, b = nv ? strtod(nv, NULL) : 0;
    bool moved = false;
    if (!ov) {
        if (!ch->missing)
            ch->missing = quantities[q].name;
        /* The gate cannot say the value it follows stayed. */
        if (nv && tracked(q, ch)) {
            ch->unusable_tracked++;
            ch->missing_tracked = true;
        }
    } else if (nv && !baseline_time(ov, &a)) {
        note_unusable(entry, old_estimate, new_estimate, q, gpu, ov, nv, ch);
        moved = true;
    } else if (nv && a != b) {
        note_moved(entry, new_estimate, q, gpu, ov, nv, a, b, ch);
        moved = true;
    }
    xmlFree(ov);
    xmlFree(nv);
    return moved;
}

/* Adds an <input> for each parameter added, changed or removed. */
static void compare_params(xmlNodePtr entry, xmlNodePtr old_k, xmlNodePtr new_k)
{
    xmlNodePtr op = rc_results_child(old_k, "params"), np = rc_results_child(new_k, "params");
    for (xmlNodePtr p = np ? np->children : NULL; p; p = p->next) {
        char *pname = get(p, "name");
        xmlNodePtr q = find_by(op, "param", "name", pname);
        if (!q) {
            char *v = get(p, "value");
            add_input(entry, "param", NULL, pname, NULL, v);
            xmlFree(v);
        } else
            compare_attr(entry, "param", pname, q, p, "value");
        xmlFree(pname);
    }
    for (xmlNodePtr q = op ? op->children : NULL; q; q = q->next) {
        char *pname = get(q, "name");
        if (is(q, "param") && !find_by(np, "param", "name", pname)) {
            char *v = get(q, "value");
            add_input(entry, "param", NULL, pname, v, NULL);
            xmlFree(v);
        }
        xmlFree(pname);
    }
}

/* Adds an <input> for each change of the launch or of the counted work. */
static void compare_launch_and_counts(xmlNodePtr entry, xmlNodePtr old_k, xmlNodePtr new_k)
{
    xmlNodePtr ol = rc_results_child(old_k, "launch"), nl = rc_results_child(new_k, "launch");
    compare_attr(entry, "launch", "grid", ol, nl, "grid");
    compare_attr(entry, "launch", "block", ol, nl, "block");
    xmlNodePtr oc = counts_of(old_k), nc = counts_of(new_k);
    compare_attr(entry, "count", "FLOPs", rc_results_child(oc, "flops"),
                 rc_results_child(nc, "flops"), "total");
    compare_attr(entry, "count", "bytes", rc_results_child(oc, "bytes"),
                 rc_results_child(nc, "bytes"), "total");
    compare_attr(entry, "count", "active threads", rc_results_child(oc, "threads"),
                 rc_results_child(nc, "threads"), "active");
}

/* Adds an <input> for each figure of GPU `gpu` that changed, so a reader
 * sees why its estimates moved. */
static void compare_gpu_figures(const rc_comparison *c, xmlNodePtr entry, const char *gpu)
{
    xmlNodePtr og = find_by(c->old_gpus, "gpu", "id", gpu);
    xmlNodePtr ng = find_by(c->new_gpus, "gpu", "id", gpu);
    for (size_t f = 0; og && ng && f < sizeof gpu_figures / sizeof gpu_figures[0]; f++) {
        xmlNodePtr of = find_by(og, "figure", "name", gpu_figures[f]);
        xmlNodePtr nf = find_by(ng, "figure", "name", gpu_figures[f]);
        char *ov = get(of, "value"), *nv = get(nf, "value");
        if (ov && nv && strtod(ov, NULL) != strtod(nv, NULL)) {
            char *ot = get(of, "value-text"), *nt = get(nf, "value-text");
            add_input(entry, "gpu", gpu, gpu_figures[f], ot ? ot : ov, nt ? nt : nv);
            xmlFree(ot);
            xmlFree(nt);
        }
        xmlFree(ov);
        xmlFree(nv);
    }
}

/* Adds every estimate value that moved, and the GPU figures behind it. */
/* Whether the launch runs on GPU `gpu` changed (results/launch.h: a
 * <cannot-launch> in one run, an estimate in the other): an input change
 * named after the GPU, counted among the estimates that changed. */
static void launch_change(xmlNodePtr entry, xmlNodePtr from, const char *gpu, const char *old,
                          const char *now, rc_kernel_change *ch)
{
    char *gpu_name = get(from, "gpu-name"), name[300];
    snprintf(name, sizeof name, "launches on %s", gpu_name ? gpu_name : gpu);
    add_input(entry, "launch", gpu, name, old, now);
    xmlFree(gpu_name);
    ch->estimates_changed++;
}

static void compare_estimates(const rc_comparison *c, xmlNodePtr entry, xmlNodePtr old_k,
                              xmlNodePtr new_k, rc_kernel_change *ch)
{
    xmlNodePtr oe = rc_results_child(old_k, "estimates"), ne = rc_results_child(new_k, "estimates");
    for (xmlNodePtr e = ne ? ne->children : NULL; e; e = e->next) {
        if (!is(e, "estimate"))
            continue;
        char *gpu = get(e, "gpu");
        xmlNodePtr o = find_by(oe, "estimate", "gpu", gpu);
        if (!o && find_by(old_k, "cannot-launch", "gpu", gpu))
            launch_change(entry, e, gpu, "no", "yes", ch);
        bool gpu_moved = false;
        for (size_t q = 0; o && q < NQUANTITIES; q++)
            gpu_moved |= compare_quantity(entry, o, e, q, gpu, ch);
        if (gpu_moved)
            compare_gpu_figures(c, entry, gpu);
        xmlFree(gpu);
    }
    /* A GPU the baseline estimated and this launch cannot run on: its
     * estimates are gone, a move no percentage measures (the gate fails). */
    for (xmlNodePtr n = new_k->children; n; n = n->next) {
        char *gpu = is(n, "cannot-launch") ? get(n, "gpu") : NULL;
        char *why = gpu ? get(n, "reason") : NULL;
        if (gpu && find_by(oe, "estimate", "gpu", gpu)) {
            char now[400];
            snprintf(now, sizeof now, "no: %s", why ? why : "");
            launch_change(entry, n, gpu, "yes", now, ch);
            ch->max_abs_percent = INFINITY;
            ch->gate_percent = INFINITY;
            ch->gate_quantity = ch->gate ? ch->gate : "t_estimate";
            snprintf(ch->gate_gpu, sizeof ch->gate_gpu, "%s", gpu);
        }
        xmlFree(gpu);
        xmlFree(why);
    }
}

/* Compares one kernel present in both runs. Returns the <kernel> entry, or
 * NULL when nothing changed. */
static xmlNodePtr compare_kernel(const rc_comparison *c, xmlNodePtr old_k, xmlNodePtr new_k,
                                 rc_kernel_change *ch)
{
    xmlNodePtr entry = xmlNewNode(NULL, X("kernel"));
    char *id = get(new_k, "id"), *name = get(new_k, "name");
    xmlSetProp(entry, X("id"), X(id));
    xmlSetProp(entry, X("name"), X(name ? name : ""));
    xmlFree(id);
    xmlFree(name);
    compare_params(entry, old_k, new_k);
    compare_launch_and_counts(entry, old_k, new_k);
    compare_estimates(c, entry, old_k, new_k, ch);
    if (!entry->children) {
        xmlFreeNode(entry);
        return NULL;
    }
    return entry;
}

static void hash_free_nothing(void *payload, const xmlChar *name)
{
    (void)payload;
    (void)name;
}

/* Warns about a baseline without a format version or with one this
 * roofcast does not write. Returns the version's text (the caller frees it
 * with xmlFree), or NULL. */
static char *check_format_version(const rc_comparison *c, xmlNodePtr old_top)
{
    char *version = get(old_top, "format-version");
    char *end = NULL;
    long v = version ? strtol(version, &end, 10) : 0;
    if (!version)
        rc_warn_at(c->diag, c->file, xmlGetLineNo(old_top),
                   "the baseline has no format version (an older roofcast): comparing what it has");
    else if (end == version || *end || v < 1 || v > atol(RC_RESULTS_FORMAT_VERSION))
        rc_warn_at(c->diag, c->file, xmlGetLineNo(old_top),
                   "the baseline's format version is '%.20s', and this roofcast writes version %s: "
                   "comparing only what version %s has (ids, parameters, launch, counts, GPU "
                   "figures and the estimates t_total, t_body, t_compute, t_mem, t_launch); "
                   "anything else in the baseline is ignored",
                   version, RC_RESULTS_FORMAT_VERSION, RC_RESULTS_FORMAT_VERSION);
    return version;
}

/* Adds <gpu-added> and <gpu-removed> entries. */
static void compare_gpu_lists(rc_comparison *c)
{
    for (xmlNodePtr g = c->new_gpus ? c->new_gpus->children : NULL; g; g = g->next) {
        char *id = get(g, "id");
        if (is(g, "gpu") && c->old_gpus && !find_by(c->old_gpus, "gpu", "id", id))
            add_simple(c->changes, "gpu-added", g);
        xmlFree(id);
    }
    for (xmlNodePtr g = c->old_gpus ? c->old_gpus->children : NULL; g; g = g->next) {
        char *id = get(g, "id");
        if (is(g, "gpu") && !find_by(c->new_gpus, "gpu", "id", id))
            add_simple(c->changes, "gpu-removed", g);
        xmlFree(id);
    }
}

/* By id: a thousand kernels are a thousand lookups, not a million. An id
 * the baseline holds twice (no roofcast writes one: a file edited or put
 * together by hand) is compared against its first <kernel>, and named in
 * a warning, since the second may be the one meant. */
static void index_old_kernels(rc_comparison *c)
{
    c->old_by_id = xmlHashCreate(64);
    c->seen = xmlHashCreate(64);
    xmlHashTablePtr repeated = xmlHashCreate(8);
    rc_buffer names = {0};
    size_t nrepeated = 0;
    long first_line = 0;
    for (xmlNodePtr k = c->old_kernels ? c->old_kernels->children : NULL; k; k = k->next) {
        xmlChar *id = is(k, "kernel") ? xmlGetProp(k, X("id")) : NULL;
        if (id && c->old_by_id && xmlHashLookup(c->old_by_id, id)) {
            if (repeated && xmlHashAddEntry(repeated, id, k) == 0) {
                if (nrepeated < 10)
                    rc_buffer_printf(&names, "%s'%.100s'", nrepeated ? ", " : "",
                                     (const char *)id);
                if (nrepeated++ == 0)
                    first_line = xmlGetLineNo(k);
            }
        } else if (id && c->old_by_id) {
            xmlHashAddEntry(c->old_by_id, id, k);
        }
        xmlFree(id);
    }
    size_t len;
    char *text = rc_buffer_take(&names, &len);
    if (nrepeated > 0)
        rc_warn_at(c->diag, c->file, first_line > 0 ? (int)first_line : 0,
                   "the baseline holds kernel id%s %s%s more than once: each is compared "
                   "against its first <kernel>", nrepeated == 1 ? "" : "s", text ? text : "",
                   nrepeated > 10 ? " and more" : "");
    free(text);
    xmlHashFree(repeated, NULL);
}

static rc_comparison *open_doc(xmlDocPtr base, char *file, xmlNodePtr new_gpus, const char *gate,
                               rc_diag *diag);

rc_comparison *rc_compare_open(const char *path, xmlNodePtr new_gpus, const char *gate,
                               rc_diag *diag)
{
    char *file = NULL;
    xmlDocPtr base = read_baseline(path, diag, &file);
    return open_doc(base, file, new_gpus, gate, diag);
}

rc_comparison *rc_compare_open_text(const char *name, const char *text, size_t len,
                                    xmlNodePtr new_gpus, const char *gate, rc_diag *diag)
{
    char *file = strdup(name);
    xmlDocPtr base = file ? parse_baseline(file, text, len, diag) : NULL;
    return open_doc(base, file, new_gpus, gate, diag);
}

/* The comparison against tree `base` (NULL: none; both it and `file` are
 * taken). */
static rc_comparison *open_doc(xmlDocPtr base, char *file, xmlNodePtr new_gpus, const char *gate,
                               rc_diag *diag)
{
    rc_comparison *c = base ? calloc(1, sizeof *c) : NULL;
    if (!c) {
        xmlFreeDoc(base);
        free(file);
        return NULL;
    }
    c->base = base;
    c->file = file;
    c->diag = diag;
    c->gate = gate;
    c->new_gpus = new_gpus;
    xmlNodePtr old_top = xmlDocGetRootElement(base);
    c->old_gpus = rc_results_child(old_top, "gpus");
    c->old_kernels = rc_results_child(old_top, "kernels");
    char *version = check_format_version(c, old_top);
    c->changes = xmlNewNode(NULL, X("changes"));
    xmlSetProp(c->changes, X("baseline"), X(file));
    xmlSetProp(c->changes, X("baseline-version"), X(version ? version : "0"));
    xmlFree(version);
    if (!c->old_gpus || !c->old_kernels)
        rc_warn_at(diag, file, 0, "the baseline lacks <%s>: %s are not compared",
                   c->old_gpus ? "kernels" : "gpus", c->old_gpus ? "kernels" : "GPUs");
    compare_gpu_lists(c);
    index_old_kernels(c);
    return c;
}

void rc_compare_kernel(const rc_comparison *c, xmlNodePtr kernel, rc_kernel_change *ch)
{
    *ch = (rc_kernel_change){0};
    ch->gate = c->gate;
    if (!c->old_kernels)
        return;
    xmlChar *id = xmlGetProp(kernel, X("id"));
    xmlNodePtr old = id && c->old_by_id ? xmlHashLookup(c->old_by_id, id) : NULL;
    xmlFree(id);
    if (!old) {
        ch->entry = xmlNewNode(NULL, X("kernel-added"));
        char *kid = get(kernel, "id"), *name = get(kernel, "name");
        xmlSetProp(ch->entry, X("id"), X(kid ? kid : ""));
        xmlSetProp(ch->entry, X("name"), X(name ? name : ""));
        xmlFree(kid);
        xmlFree(name);
        return;
    }
    ch->entry = compare_kernel(c, old, kernel, ch);
    if (ch->entry) {
        /* The kernel's own report shows its part. */
        xmlNodePtr copy = xmlCopyNode(ch->entry, 1);
        xmlNodeSetName(copy, X("changes"));
        xmlSetProp(copy, X("baseline"), X(c->file));
        xmlAddChild(kernel, copy);
    }
}

void rc_compare_commit(rc_comparison *c, const char *id, rc_kernel_change *ch)
{
    if (c->seen && id)
        xmlHashAddEntry(c->seen, X(id), c->seen); /* any non-NULL payload */
    if (ch->missing && !c->warned_missing) {
        rc_warn_at(c->diag, c->file, 0,
                   "the baseline has no %s for its estimates (an older roofcast?): "
                   "those values are not compared%s", ch->missing,
                   ch->missing_tracked ? ", and --fail-on-change, which follows them, cannot pass"
                                       : "");
        c->warned_missing = true;
    }
    /* Here, in kernel order, so the messages do not depend on -j. */
    if (ch->unusable > 0)
        rc_warn_at(c->diag, c->file, ch->unusable_line,
                   "kernel '%s': the baseline's %s, not a time (a finite number of seconds, "
                   "0 or more); %zu such value%s not compared%s",
                   id ? id : "", ch->unusable_first, ch->unusable, ch->unusable == 1 ? "" : "s",
                   ch->unusable_tracked > 0 ? ", and --fail-on-change cannot pass" : "");
    rc_compare_summary *s = &c->summary;
    s->estimates_changed += ch->estimates_changed;
    s->max_abs_percent = fmax(s->max_abs_percent, ch->max_abs_percent);
    s->unusable_tracked += ch->unusable_tracked;
    if (ch->gate_percent > s->gate_percent) {
        s->gate_percent = ch->gate_percent;
        snprintf(s->gate_what, sizeof s->gate_what, "%s of %s on %s", ch->gate_quantity,
                 id ? id : "", ch->gate_gpu);
    }
    if (ch->entry)
        xmlAddChild(c->changes, ch->entry);
    ch->entry = NULL;
}

void rc_compare_finish(rc_comparison *c, xmlDocPtr doc, rc_compare_summary *summary)
{
    memset(summary, 0, sizeof *summary);
    if (!c)
        return;
    for (xmlNodePtr k = c->old_kernels ? c->old_kernels->children : NULL; k; k = k->next) {
        xmlChar *id = is(k, "kernel") ? xmlGetProp(k, X("id")) : NULL;
        if (id && !(c->seen && xmlHashLookup(c->seen, id)))
            add_simple(c->changes, "kernel-removed", k);
        xmlFree(id);
    }
    *summary = c->summary;
    summary->compared = true;
    char buf[64];
    snprintf(buf, sizeof buf, "%zu", summary->estimates_changed);
    xmlNodePtr changes = c->changes;
    xmlSetProp(changes, X("estimates-changed"), X(buf));
    xmlSetProp(changes, X("max-percent"), X(rc_format_exact(summary->max_abs_percent, buf, sizeof buf)));
    xmlSetProp(changes, X("max-percent-text"), X(rc_format_sig3(summary->max_abs_percent, buf, sizeof buf)));
    xmlSetProp(changes, X("any"), X(changes->children ? "yes" : "no"));
    xmlAddChild(xmlDocGetRootElement(doc), changes);
    c->changes = NULL;
    rc_compare_free(c);
}

void rc_compare_free(rc_comparison *c)
{
    if (!c)
        return;
    xmlHashFree(c->old_by_id, hash_free_nothing);
    xmlHashFree(c->seen, hash_free_nothing);
    xmlFreeNode(c->changes);
    xmlFreeDoc(c->base);
    free(c->file);
    free(c);
}
