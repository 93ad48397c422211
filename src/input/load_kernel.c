/* load_kernel.c: a validated kernels/<id>.xml into an rc_kernel: the params
 * and the launch (computed on demand, so that each may read the other),
 * the arrays and resources, and the names the work model's expressions
 * read. statements.c parses <work> itself. See load.h.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input/kernel_scope.h"
#include "input/load.h"
#include "input/load_xml.h"
#include "model/names.h"

/* CUDA's launch limits (compute capability 3.0 and later). */
#define MAX_GRID_X 2147483647LL
#define MAX_GRID_YZ 65535LL
#define MAX_BLOCK_XY 1024LL
#define MAX_BLOCK_Z 64LL
#define MAX_BLOCK_THREADS 1024LL

/* The params and the launch are evaluated on demand, so that the launch may
 * use any param and a param may use blockDim and gridDim: each is computed
 * the first time something reads it, and a cycle is an error. */
enum { PENDING, BUSY, DONE, FAILED };

struct rc_header_state {
    xmlNodePtr *param_nodes; /* by param index */
    int *param_state;
    xmlNodePtr launch;
    int launch_state;
    int current;      /* the param being evaluated, or -1 for the launch */
    bool dep_failed;  /* something read a param or launch that failed */
};

static const struct {
    const char *name;
    int slot;
} index_builtins[] = {
    /* ORDER RC_SLOT */
    {"threadIdx.x", RC_SLOT_TID_X}, {"threadIdx.y", RC_SLOT_TID_Y},
    {"threadIdx.z", RC_SLOT_TID_Z}, {"blockIdx.x", RC_SLOT_BID_X},
    {"blockIdx.y", RC_SLOT_BID_Y},  {"blockIdx.z", RC_SLOT_BID_Z},
};

static bool name_is(const char *name, size_t len, const char *want)
{
    return strlen(want) == len && memcmp(name, want, len) == 0;
}

static bool eval_param(rc_scope *sc, size_t i);
static bool eval_launch(rc_scope *sc);

/* Binds a name: loop variables and lets (innermost first), params, then
 * the CUDA built-ins. */
static rc_name_binding resolve(void *ctx, const char *name, size_t len)
{
    rc_scope *sc = ctx;
    for (size_t i = sc->count; i-- > 0;)
        if (name_is(name, len, sc->entries[i].name)) {
            sc->runtime_read |= sc->entries[i].runtime;
            return sc->entries[i].binding;
        }
    const rc_kernel *k = sc->kernel;
    rc_header_state *hd = sc->hd;
    for (size_t i = 0; i < k->nparams; i++) {
        if (!k->params[i].name || !name_is(name, len, k->params[i].name))
            continue;
        /* A param sees the params before it; the launch sees them all. */
        if (hd && hd->current >= 0 && i >= (size_t)hd->current)
            break;
        if (hd && !eval_param(sc, i)) {
            hd->dep_failed = true;
            return (rc_name_binding){RC_NAME_CONST, 1, 0};
        }
        sc->runtime_read |= k->params[i].runtime;
        return (rc_name_binding){RC_NAME_CONST, k->params[i].value, 0};
    }
    for (size_t i = 0; i < sizeof index_builtins / sizeof index_builtins[0]; i++)
        if (name_is(name, len, index_builtins[i].name)) {
            sc->runtime_read = true;
            return (rc_name_binding){RC_NAME_SLOT, 0, index_builtins[i].slot};
        }
    static const char *const dims[] = {"blockDim.x", "blockDim.y", "blockDim.z",
                                       "gridDim.x",  "gridDim.y",  "gridDim.z"};
    for (int i = 0; i < 6; i++)
        if (name_is(name, len, dims[i])) {
            /* A kernel reads its launch's sizes from registers: nvcc does not know them. */
            sc->runtime_read = true;
            if (hd && !eval_launch(sc)) {
                hd->dep_failed = true;
                return (rc_name_binding){RC_NAME_CONST, 1, 0};
            }
            return (rc_name_binding){RC_NAME_CONST,
                                     i < 3 ? k->block[i] : k->grid[i - 3], 0};
        }
    if (name_is(name, len, "warpSize"))
        return (rc_name_binding){RC_NAME_CONST, 32, 0};
    return (rc_name_binding){RC_NAME_UNKNOWN, 0, 0};
}

/* Parses a constant expression of the params and the launch (a param's
 * value, a launch size, an array length). A failure of something it reads
 * was reported there, so it is not reported again. */
static bool const_attr(rc_scope *sc, const char *element, const char *attr_name,
                       const char *text, int line, int64_t *value)
{
    rc_header_state *hd = sc->hd;
    bool dep_failed = hd ? hd->dep_failed : false;
    if (hd)
        hd->dep_failed = false;
    rc_expr_error err;
    rc_expr *e = rc_expr_parse(text, resolve, sc, &err);
    bool ok = false;
    if (hd && hd->dep_failed)
        ; /* already reported */
    else if (!e)
        rc_report_expr_error(sc->diag, sc->file, line, element, attr_name, text, &err);
    else if (!rc_expr_is_const(e, value) && hd && hd->current >= 0)
        rc_error_at(sc->diag, sc->file, line,
                    "<param> '%s' must be a constant: it cannot depend on threadIdx or blockIdx",
                    sc->kernel->params[hd->current].name);
    else if (!rc_expr_is_const(e, value))
        rc_error_at(sc->diag, sc->file, line,
                    "<%s> attribute '%s' must be a constant: it cannot depend on threadIdx "
                    "or blockIdx",
                    element, attr_name);
    else
        ok = true;
    if (hd)
        hd->dep_failed = dep_failed;
    rc_expr_free(e);
    return ok;
}

/* Computes param i, unless done; false when it failed or depends on
 * itself (reported). */
static bool eval_param(rc_scope *sc, size_t i)
{
    rc_header_state *hd = sc->hd;
    rc_param *p = &sc->kernel->params[i];
    int line = xmlGetLineNo(hd->param_nodes[i]);
    if (hd->param_state[i] == DONE || hd->param_state[i] == FAILED)
        return hd->param_state[i] == DONE;
    if (hd->param_state[i] == BUSY) {
        rc_error_at(sc->diag, sc->file, line,
                    "<param> '%s' depends on itself through the launch", p->name);
        hd->param_state[i] = FAILED;
        return false;
    }
    hd->param_state[i] = BUSY;
    int saved = hd->current;
    bool saved_failed = hd->dep_failed;
    bool saved_runtime = sc->runtime_read;
    hd->current = (int)i;
    hd->dep_failed = false;
    sc->runtime_read = false;
    /* Without a text the schema has already complained. */
    bool ok = p->text && const_attr(sc, "param", "value", p->text, line, &p->value);
    p->runtime = p->runtime_said || sc->runtime_read;
    sc->runtime_read = saved_runtime;
    hd->current = saved;
    hd->dep_failed = saved_failed;
    if (hd->param_state[i] == BUSY) /* not failed by a cycle meanwhile */
        hd->param_state[i] = ok ? DONE : FAILED;
    return hd->param_state[i] == DONE;
}

/* Splits "a, b, c" at the commas outside parentheses into at most `max`
 * pieces (malloc'd); returns the number of pieces, or max + 1 when there
 * are more. */
static int split_dims(const char *text, char **pieces, int max)
{
    int n = 0, depth = 0;
    const char *start = text;
    for (const char *p = text;; p++) {
        if (*p == '(')
            depth++;
        else if (*p == ')')
            depth--;
        else if ((*p == ',' && depth == 0) || *p == '\0') {
            if (n == max) {
                for (int i = 0; i < n; i++)
                    free(pieces[i]);
                return max + 1;
            }
            pieces[n++] = strndup(start, (size_t)(p - start));
            if (*p == '\0')
                return n;
            start = p + 1;
        }
    }
}

static bool blank(const char *s)
{
    for (; *s; s++)
        if (*s != ' ' && *s != '\t' && *s != '\n' && *s != '\r')
            return false;
    return true;
}

/* grid or block: 1 to 3 constant expressions separated by commas; the
 * missing ones are 1. */
static bool read_dims(rc_scope *sc, const char *name, const char *text, int line, int64_t out[3])
{
    char q[QUOTE_BUF];
    char *pieces[3] = {NULL, NULL, NULL};
    out[0] = out[1] = out[2] = 1;
    int n = split_dims(text, pieces, 3);
    bool ok = true;
    if (n > 3 || blank(text)) {
        for (int i = 0; i < n && n <= 3; i++)
            free(pieces[i]);
        rc_error_at(sc->diag, sc->file, line,
                    "<launch> attribute '%s': '%s' is not 1 to 3 expressions separated by commas",
                    name, rc_quote(text, q));
        return false;
    }
    static const char axis[] = "xyz";
    for (int i = 0; i < n; i++) {
        char attr_name[16];
        snprintf(attr_name, sizeof attr_name, "%s", name);
        if (!const_attr(sc, "launch", attr_name, pieces[i], line, &out[i]))
            ok = false;
        else if (out[i] <= 0) {
            rc_error_at(sc->diag, sc->file, line, "<launch> %s.%c = %lld is not positive", name,
                        axis[i], (long long)out[i]);
            ok = false;
        }
        free(pieces[i]);
    }
    return ok;
}

/* CUDA's limits, and a launch whose thread count fits in 64 bits. */
static bool check_launch(rc_scope *sc, int line)
{
    rc_kernel *k = sc->kernel;
    bool ok = true;
    static const char axis[] = "xyz";
    for (int i = 0; i < 3; i++) {
        int64_t gmax = i == 0 ? MAX_GRID_X : MAX_GRID_YZ;
        int64_t bmax = i == 2 ? MAX_BLOCK_Z : MAX_BLOCK_XY;
        if (k->grid[i] > gmax) {
            rc_error_at(sc->diag, sc->file, line,
                        "<launch> grid.%c = %lld exceeds CUDA's limit of %lld",
                        axis[i], (long long)k->grid[i], (long long)gmax);
            ok = false;
        }
        if (k->block[i] > bmax) {
            rc_error_at(sc->diag, sc->file, line,
                        "<launch> block.%c = %lld exceeds CUDA's limit of %lld",
                        axis[i], (long long)k->block[i], (long long)bmax);
            ok = false;
        }
    }
    if (!ok)
        return false;
    if (rc_kernel_threads_per_block(k) > MAX_BLOCK_THREADS) {
        rc_error_at(sc->diag, sc->file, line,
                    "<launch> block %lld x %lld x %lld = %lld threads exceeds CUDA's limit of %lld threads per block",
                    (long long)k->block[0], (long long)k->block[1], (long long)k->block[2],
                    (long long)rc_kernel_threads_per_block(k), (long long)MAX_BLOCK_THREADS);
        return false;
    }
    /* Every later product of launch sizes (blocks, threads, and any part
     * of them) is at most the thread count, so checking it suffices. */
    int64_t blocks, threads;
    if (__builtin_mul_overflow(k->grid[0], k->grid[1], &blocks) ||
        __builtin_mul_overflow(blocks, k->grid[2], &blocks) ||
        __builtin_mul_overflow(blocks, rc_kernel_threads_per_block(k), &threads)) {
        rc_error_at(sc->diag, sc->file, line,
                    "<launch> grid %lld x %lld x %lld of %lld-thread blocks launches more than "
                    "%lld threads, more than roofcast can count",
                    (long long)k->grid[0], (long long)k->grid[1], (long long)k->grid[2],
                    (long long)rc_kernel_threads_per_block(k), (long long)INT64_MAX);
        return false;
    }
    return true;
}

/* Computes the launch, unless done; false when it failed (reported). */
static bool eval_launch(rc_scope *sc)
{
    rc_header_state *hd = sc->hd;
    rc_kernel *k = sc->kernel;
    int line = hd->launch ? xmlGetLineNo(hd->launch) : k->line;
    if (hd->launch_state == DONE || hd->launch_state == FAILED)
        return hd->launch_state == DONE;
    if (hd->launch_state == BUSY) {
        rc_error_at(sc->diag, sc->file, line,
                    "<launch> reads a param that uses blockDim or gridDim: they depend on each other");
        hd->launch_state = FAILED;
        return false;
    }
    if (!hd->launch || !k->grid_text || !k->block_text) { /* the schema said why */
        hd->launch_state = FAILED;
        return false;
    }
    hd->launch_state = BUSY;
    int saved = hd->current;
    bool saved_failed = hd->dep_failed;
    hd->current = -1;
    hd->dep_failed = false;
    bool ok = read_dims(sc, "grid", k->grid_text, line, k->grid);
    ok &= read_dims(sc, "block", k->block_text, line, k->block);
    ok = ok && check_launch(sc, line);
    hd->current = saved;
    hd->dep_failed = saved_failed;
    if (hd->launch_state == BUSY)
        hd->launch_state = ok ? DONE : FAILED;
    return hd->launch_state == DONE;
}

/* <array name type length [space] [read-only-path] [note]>: after the params, whose values
 * its length may use. */
static bool read_array(rc_scope *sc, xmlNodePtr n, rc_array *a)
{
    int line = xmlGetLineNo(n);
    char q[QUOTE_BUF];
    a->line = line;
    a->name = rc_xml_attr(n, "name");
    a->type = rc_xml_attr(n, "type");
    a->length_text = rc_xml_attr(n, "length");
    a->note = rc_xml_attr(n, "note");
    char *space = rc_xml_attr(n, "space");
    char *path = rc_xml_attr(n, "read-only-path");
    bool ok = a->name && a->type && a->length_text;
    if (!ok) { /* the schema has said what is missing */
        free(space);
        free(path);
        return false;
    }
    rc_kernel *k = sc->kernel;
    for (size_t i = 0; k->arrays + i < a; i++)
        if (strcmp(k->arrays[i].name, a->name) == 0) {
            rc_error_at(sc->diag, sc->file, line, "<array> '%s' is already declared at line %d",
                        a->name, k->arrays[i].line);
            ok = false;
        }
    a->elem_bytes = rc_type_size(a->type);
    if (a->elem_bytes == 0) {
        rc_error_at(sc->diag, sc->file, line,
                    "<array> type '%s' is not a C scalar or CUDA vector type (such as int, float, "
                    "double, float4 or double2)",
                    rc_quote(a->type, q));
        ok = false;
    }
    a->space = RC_SPACE_GLOBAL;
    for (int s = 0; space && s <= RC_SPACE_LOCAL; s++)
        if (strcmp(space, rc_space_name((rc_space)s)) == 0)
            a->space = (rc_space)s;
    free(space);
    /* The schema allows only "yes" and "no". */
    a->read_only_path = !path ? RC_READ_ONLY_PATH_ASSUMED
                        : strcmp(path, "yes") == 0 ? RC_READ_ONLY_PATH_YES
                                                   : RC_READ_ONLY_PATH_NO;
    free(path);
    if (a->read_only_path != RC_READ_ONLY_PATH_ASSUMED && a->space != RC_SPACE_GLOBAL) {
        rc_error_at(sc->diag, sc->file, line,
                    "<array> '%s' is in %s memory: read-only-path is for global arrays, "
                    "whose loads may take the read-only path",
                    a->name, rc_space_name(a->space));
        ok = false;
    }
    if (!const_attr(sc, "array", "length", a->length_text, line, &a->length))
        ok = false;
    else if (a->length <= 0) {
        rc_error_at(sc->diag, sc->file, line, "<array> '%s' has length %lld: it must be positive",
                    a->name, (long long)a->length);
        ok = false;
    } else if (a->length > INT64_MAX / 64) {
        rc_error_at(sc->diag, sc->file, line,
                    "<array> '%s' has length %lld: its bytes would not fit in 64 bits", a->name,
                    (long long)a->length);
        ok = false;
    }
    return ok;
}

/* <resources registers shared-bytes>: both optional, whole numbers. */
static bool read_resources(rc_scope *sc, xmlNodePtr n)
{
    int line = xmlGetLineNo(n);
    bool ok = true;
    static const char *const names[] = {"registers", "shared-bytes"};
    int64_t *out[] = {&sc->kernel->registers, &sc->kernel->shared_bytes};
    for (int i = 0; i < 2; i++) {
        char *text = rc_xml_attr(n, names[i]);
        if (!text)
            continue;
        if (!const_attr(sc, "resources", names[i], text, line, out[i]))
            ok = false;
        else if (*out[i] < 0) {
            rc_error_at(sc->diag, sc->file, line, "<resources> %s = %lld is negative", names[i],
                        (long long)*out[i]);
            ok = false;
        }
        free(text);
    }
    return ok;
}

/* Reads the params, the launch, the arrays and the resources: everything
 * the work model's expressions may read as constants. */
static bool read_header(rc_scope *sc, xmlNodePtr top)
{
    rc_kernel *k = sc->kernel;
    size_t nparams = 0, narrays = 0;
    xmlNodePtr launch = NULL;
    for (xmlNodePtr n = top->children; n; n = n->next) {
        nparams += rc_xml_is_element(n, "param");
        narrays += rc_xml_is_element(n, "array");
        if (rc_xml_is_element(n, "launch"))
            launch = n;
    }
    rc_header_state hd = {calloc(nparams + 1, sizeof *hd.param_nodes),
                       calloc(nparams + 1, sizeof *hd.param_state), launch, PENDING, -1, false};
    k->params = calloc(nparams + 1, sizeof *k->params);
    k->arrays = calloc(narrays + 1, sizeof *k->arrays);
    bool ok = hd.param_nodes && hd.param_state && k->params && k->arrays;
    if (!ok) {
        rc_error_at(sc->diag, sc->file, 0, "out of memory");
        goto end;
    }
    sc->hd = &hd;
    if (launch) {
        k->grid_text = rc_xml_attr(launch, "grid");
        k->block_text = rc_xml_attr(launch, "block");
    }
    /* Names first, so that the launch can read any param. */
    for (xmlNodePtr n = top->children; n; n = n->next) {
        if (!rc_xml_is_element(n, "param"))
            continue;
        rc_param *p = &k->params[k->nparams];
        hd.param_nodes[k->nparams] = n;
        char *name = rc_xml_attr(n, "name");
        p->text = rc_xml_attr(n, "value");
        p->note = rc_xml_attr(n, "note");
        /* The schema allows only "yes" and "no". */
        char *runtime = rc_xml_attr(n, "runtime");
        p->runtime_said = runtime && strcmp(runtime, "yes") == 0;
        free(runtime);
        if (name && !rc_scope_check_name(sc, name, "param", xmlGetLineNo(n), k->nparams)) {
            hd.param_state[k->nparams] = FAILED;
            ok = false;
        }
        p->name = name;
        k->nparams++;
    }
    ok &= eval_launch(sc);
    for (size_t i = 0; i < k->nparams; i++)
        ok &= eval_param(sc, i);
    if (!ok)
        goto end;
    for (xmlNodePtr n = top->children; n; n = n->next) {
        if (rc_xml_is_element(n, "array"))
            ok &= read_array(sc, n, &k->arrays[k->narrays++]);
        else if (rc_xml_is_element(n, "resources"))
            ok &= read_resources(sc, n);
    }
end:
    sc->hd = NULL;
    free(hd.param_nodes);
    free(hd.param_state);
    return ok;
}

static rc_kernel *kernel_from_doc(xmlDocPtr doc, const char *file, rc_diag *diag)
{
    xmlNodePtr top = xmlDocGetRootElement(doc);
    rc_kernel *k = calloc(1, sizeof *k);
    if (!k)
        return NULL;
    k->file = strdup(file);
    k->line = xmlGetLineNo(top);
    k->id = rc_xml_attr(top, "id");
    k->name = rc_xml_attr(top, "name");
    bool ok = true;
    if (!rc_xml_check_id("kernel", k->id, file, k->line, diag))
        ok = false;
    rc_scope sc = {k, NULL, 0, 0, RC_SLOT_FIRST_FREE, file, diag, NULL, resolve, false};
    size_t nnote_nodes = 0;
    for (xmlNodePtr n = top->children; n; n = n->next)
        nnote_nodes += rc_xml_is_element(n, "note");
    k->notes = calloc(nnote_nodes + 1, sizeof *k->notes);
    bool header_ok = read_header(&sc, top);
    ok &= header_ok;
    xmlNodePtr work = NULL;
    for (xmlNodePtr n = top->children; n && k->notes; n = n->next) {
        if (n->type != XML_ELEMENT_NODE)
            continue;
        if (rc_xml_is_element(n, "summary"))
            k->summary = rc_xml_text(n);
        else if (rc_xml_is_element(n, "source")) {
            k->source_language = rc_xml_attr(n, "language");
            if (!k->source_language)
                k->source_language = strdup("cuda");
            k->source_code = rc_xml_code(n);
        } else if (rc_xml_is_element(n, "work"))
            work = n;
        else if (rc_xml_is_element(n, "note")) {
            char *unknown = rc_xml_attr(n, "unknown");
            if (unknown) {
                /* a draft of roofcast import: never a silently wrong model */
                rc_error_at(diag, file, (int)xmlGetLineNo(n),
                            "the draft has an unknown at source line %s: complete the model "
                            "there by hand, then remove this <note unknown>", unknown);
                ok = false;
                free(unknown);
            }
            k->notes[k->nnotes++] = rc_xml_text(n);
        }
    }
    if (!k->notes) {
        rc_error_at(diag, file, 0, "out of memory");
        ok = false;
    }
    if (ok && work) {
        rc_parse_work(&sc, work->children, &ok);
    }
    free(sc.entries);
    if (!ok) {
        rc_kernel_free(k);
        return NULL;
    }
    return k;
}

/* Frees the document; the kernel it defines, or NULL after reporting. */
static rc_kernel *kernel_from(xmlDocPtr doc, const char *file, rc_diag *diag)
{
    rc_kernel *k = doc ? kernel_from_doc(doc, file, diag) : NULL;
    xmlFreeDoc(doc);
    return k;
}

rc_kernel *rc_load_kernel(rc_loader *loader, const char *path, rc_diag *diag)
{
    return kernel_from(rc_xml_read_path(path, loader->kernel_schema, "kernel", diag), path, diag);
}

rc_kernel *rc_load_kernel_memory(rc_loader *loader, const char *name,
                                 const char *xml, size_t len, rc_diag *diag)
{
    return kernel_from(rc_xml_read_document(name, xml, len, loader->kernel_schema, "kernel", diag),
                       name, diag);
}
