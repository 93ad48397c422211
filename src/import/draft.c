/* draft.c: one kernel's draft file (draft.h). */
#include "import/draft.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "input/load.h"
#include "model/eval.h"
#include "util/diag.h"

/* A derived length is found by counting the draft with every such array
 * this long, then taking the largest index used plus one. */
#define PROBE_LENGTH (1LL << 40)

bool rc_draft_id_ok(const char *id)
{
    return rc_id_is_safe(id);
}

static void cdata(rc_buffer *b, const char *s)
{
    rc_buffer_puts(b, "<![CDATA[\n");
    for (const char *p = s; *p; p++) {
        if (strncmp(p, "]]>", 3) == 0) {
            rc_buffer_puts(b, "]]]]><![CDATA[>");
            p += 2;
        } else
            rc_buffer_put(b, p, 1);
    }
    rc_buffer_puts(b, "\n]]>");
}

static int cmp_arrays(const void *a, const void *b)
{
    const tr_array *x = a, *y = b;
    return x->order != y->order ? (x->order < y->order ? -1 : 1)
                                : (x->line != y->line ? (x->line < y->line ? -1 : 1) : 0);
}

/* A pointer param declared __restrict__ (through a typedef or a template's
 * dependent type alike: the qualifier is on the pointer itself). */
static bool restrict_param(CXCursor decl)
{
    if (clang_getCursorKind(decl) != CXCursor_ParmDecl)
        return false;
    CXType t = clang_getCursorType(decl);
    return clang_isRestrictQualifiedType(t) ||
           clang_isRestrictQualifiedType(clang_getCanonicalType(t));
}

/* Whether every global array the kernel writes is a __restrict__ pointer param: then no store
 * may write what an ordinary pointer reads, and nvcc proves that pointer read-only too
 * (`const float *x, float *__restrict__ y`: ptxas 11.8's sm_75 code loads x with
 * LDG.E.CONSTANT, the unrolled copies' loads first; docs/architectures.md item 19). */
static bool writes_all_restrict(const tr_ctx *c)
{
    for (size_t i = 0; i < c->narrays; i++) {
        const tr_array *w = &c->arrays[i];
        if (w->written && strcmp(w->space, "global") == 0 && !restrict_param(w->decl))
            return false;
    }
    return true;
}

/* The read-only-path a global array's loads take, as the code says it
 * (docs/import.md, "The read-only path"), or NULL to say nothing: "yes" for
 * loads through __ldg, a __restrict__ pointer the kernel never writes, or an
 * ordinary one where every array it writes is a __restrict__ pointer (nvcc
 * then takes the read-only path itself); "no" for one only read through an
 * ordinary pointer otherwise. Nothing for an array the kernel writes (its
 * loads go to L2 anyway, and "yes" would not load), for a restrict pointer
 * when some store's array cannot be told, and for other spaces. */
static const char *read_only_path(const tr_ctx *c, const tr_array *a)
{
    if (strcmp(a->space, "global") != 0 || a->written)
        return NULL;
    if (a->ldg)
        return "yes";
    if (restrict_param(a->decl))
        return c->untold_write ? NULL : "yes";
    return !c->untold_write && writes_all_restrict(c) ? "yes" : "no";
}

/* The draft's XML. With `probe`, derived lengths are PROBE_LENGTH and the
 * unknown notes are left out, for counting. */
static char *compose(tr_ctx *c, const rc_draft_request *rq, const char *work, const char **lens,
                     bool probe, size_t *len)
{
    rc_buffer b = {0};
    rc_buffer_puts(&b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    rc_buffer_printf(&b,
                     "<!-- A draft by roofcast import from %s (kernel %s, line %d): check it "
                     "against the code before trusting its numbers. -->\n",
                     tr_xml_escape(c, rq->source), tr_xml_escape(c, rq->name), rq->line);
    rc_buffer_printf(&b, "<kernel id=\"%s\" name=\"%s\">\n", tr_xml_escape(c, rq->id),
                     tr_xml_escape(c, rq->name));
    rc_buffer_printf(&b, "  <summary>%s, imported from %s:%d</summary>\n",
                     tr_xml_escape(c, rq->name), tr_xml_escape(c, rq->source), rq->line);
    rc_buffer_puts(&b, "  <source language=\"cuda\">");
    cdata(&b, tr_source_text(c, rq->kernel));
    rc_buffer_puts(&b, "</source>\n");
    rc_buffer_printf(&b, "  <launch grid=\"%s\" block=\"%s\"/>\n", tr_xml_escape(c, rq->grid),
                     tr_xml_escape(c, rq->block));
    /* params: the command line's and the launch site's, then template values */
    for (size_t i = 0; i < c->nparams; i++)
        rc_buffer_printf(&b, "  <param name=\"%s\" value=\"%s\"%s/>\n", c->params[i].name,
                         tr_xml_escape(c, c->params[i].expr),
                         c->params[i].runtime ? " runtime=\"yes\"" : "");
    for (size_t i = 0; i < c->ntargs; i++) {
        if (c->targs[i].is_type)
            continue;
        bool used = false, given = false;
        for (size_t u = 0; u < c->nused; u++)
            used |= strcmp(c->used_params[u], c->targs[i].name) == 0;
        for (size_t p = 0; p < c->nparams; p++)
            given |= strcmp(c->params[p].name, c->targs[i].name) == 0;
        if (used && !given)
            rc_buffer_printf(&b, "  <param name=\"%s\" value=\"%s\" note=\"template argument\"/>\n",
                             c->targs[i].name, tr_xml_escape(c, c->targs[i].value));
    }
    for (size_t i = 0; i < c->narrays; i++) {
        const tr_array *a = &c->arrays[i];
        const char *l = a->length ? a->length : probe ? tr_printf(c, "%lld", PROBE_LENGTH) : lens[i];
        bool space = strcmp(a->space, "global") != 0;
        rc_buffer_printf(&b, "  <array name=\"%s\" type=\"%s\" length=\"%s\"", a->name, a->type,
                         tr_xml_escape(c, l));
        if (space)
            rc_buffer_printf(&b, " space=\"%s\"", a->space);
        const char *rop = read_only_path(c, a);
        if (rop)
            rc_buffer_printf(&b, " read-only-path=\"%s\"", rop);
        if (!a->length && !probe && c->lengths_sampled)
            rc_buffer_puts(&b, " note=\"derived from a sample of the launch's blocks (too many to count them all): the largest index the sample touches, plus one; check it or give --length\"");
        else if (!a->length && !probe)
            rc_buffer_puts(&b, c->nunknowns
                                   ? " note=\"derived from the translated accesses only: the smallest length holding their indices (check it where the unknowns touch this array)\""
                                   : " note=\"derived: the smallest length holding every index the launch touches\"");
        rc_buffer_puts(&b, "/>\n");
    }
    if (rq->registers)
        rc_buffer_printf(&b, "  <resources registers=\"%s\"/>\n", rq->registers);
    rc_buffer_puts(&b, "  <work>\n");
    rc_buffer_puts(&b, work);
    rc_buffer_puts(&b, "  </work>\n");
    for (size_t i = 0; i < c->nnotes; i++)
        rc_buffer_printf(&b, "  <note>%s</note>\n", tr_xml_escape(c, c->notes[i]));
    if (!probe)
        for (size_t i = 0; i < c->nunknowns; i++)
            rc_buffer_printf(&b, "  <note unknown=\"%d\">Not translated (source line %d): %s.</note>\n",
                             c->unknowns[i].line, c->unknowns[i].line,
                             tr_xml_escape(c, c->unknowns[i].what));
    rc_buffer_puts(&b, "</kernel>\n");
    return rc_buffer_take(&b, len);
}

static bool write_atomic(const char *dir, const char *id, const char *data, size_t len, FILE *err)
{
    /* mkdir -p */
    char path[4200];
    if (strlen(dir) + strlen(id) + 20 > sizeof path) {
        fprintf(err, "roofcast import: %s: the path is too long\n", dir);
        return false;
    }
    snprintf(path, sizeof path, "%s", dir);
    for (char *p = path + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            if (mkdir(path, 0777) != 0 && errno != EEXIST) {
                fprintf(err, "roofcast import: %s: %s\n", path, strerror(errno));
                return false;
            }
            *p = '/';
        }
    if (mkdir(path, 0777) != 0 && errno != EEXIST) {
        fprintf(err, "roofcast import: %s: %s\n", path, strerror(errno));
        return false;
    }
    char tmp[4300], final[4300];
    snprintf(final, sizeof final, "%s/%s.xml", dir, id);
    snprintf(tmp, sizeof tmp, "%s/.%s.xml.XXXXXX", dir, id);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        fprintf(err, "roofcast import: %s: %s\n", final, strerror(errno));
        return false;
    }
    size_t done = 0;
    while (done < len) {
        ssize_t w = write(fd, data + done, len - done);
        if (w <= 0) {
            fprintf(err, "roofcast import: %s: %s\n", final, strerror(w < 0 ? errno : ENOSPC));
            close(fd);
            unlink(tmp);
            return false;
        }
        done += (size_t)w;
    }
    fchmod(fd, 0644);
    if (close(fd) != 0 || rename(tmp, final) != 0) {
        fprintf(err, "roofcast import: %s: %s\n", final, strerror(errno));
        unlink(tmp);
        return false;
    }
    return true;
}

/* Binds the template parameters of a FunctionTemplate to rq->targs. */
static bool bind_template(tr_ctx *c, const rc_draft_request *rq, FILE *err)
{
    unsigned n;
    CXCursor *kids = tr_children(c, rq->kernel, &n);
    size_t count = 0;
    for (unsigned i = 0; i < n; i++) {
        enum CXCursorKind k = clang_getCursorKind(kids[i]);
        if (k == CXCursor_TemplateTypeParameter || k == CXCursor_NonTypeTemplateParameter)
            count++;
    }
    if (!count && !rq->ntargs)
        return true;
    if (rq->ntargs != count) {
        fprintf(err, "roofcast import: %s takes %zu template argument%s; give %s with --kernel '%s<...>'%s\n",
                rq->name, count, count == 1 ? "" : "s", rq->ntargs ? "exactly those" : "them",
                rq->name, rq->ntargs ? "" : " (no launch site in the file gives them)");
        return false;
    }
    c->targs = calloc(count, sizeof *c->targs);
    if (!c->targs)
        return false;
    for (unsigned i = 0; i < n; i++) {
        enum CXCursorKind k = clang_getCursorKind(kids[i]);
        if (k != CXCursor_TemplateTypeParameter && k != CXCursor_NonTypeTemplateParameter)
            continue;
        tr_targ *t = &c->targs[c->ntargs];
        t->name = tr_cx(c, clang_getCursorSpelling(kids[i]));
        t->value = rq->targs[c->ntargs];
        t->is_type = k == CXCursor_TemplateTypeParameter;
        c->ntargs++;
    }
    return true;
}

int rc_draft_write(const rc_draft_request *rq, FILE *out, FILE *err)
{
    tr_ctx c = {0};
    c.tu = rq->tu;
    c.stmts = &tr_statements; /* inlined calls and loop bodies: statements */
    c.fma.add = c.fma.mul = clang_getNullCursor(); /* no add being translated */
    c.arena = tr_arena_new();
    int status = 0;
    char *xml = NULL, *probe = NULL;
    rc_diag *diag = NULL;
    rc_loader *loader = NULL;
    rc_kernel *k = NULL;
    tr_assign *params = NULL;
    if (!c.arena)
        return 3;
    if (!rq->grid || !rq->block) {
        fprintf(err, "%s:%d: %s: no launch: give --grid and --block (no <<<...>>> site in the file "
                     "has constant arguments)\n",
                rq->source, rq->line, rq->name);
        status = 2;
        goto done;
    }
    /* the params: the command line's, then the launch site's constants */
    unsigned nk;
    CXCursor *kids = tr_children(&c, rq->kernel, &nk);
    params = calloc(rq->nparams + nk + 1, sizeof *params);
    if (!params) {
        status = 3;
        goto done;
    }
    size_t np = 0;
    for (size_t i = 0; i < rq->nparams; i++) {
        params[np] = rq->params[i];
        params[np++].runtime = false; /* set below if the kernel takes it */
    }
    /* A param named after one of the kernel's parameters is a value nvcc does not know when
     * it compiles the kernel: runtime="yes" (a template argument or a macro is known). */
    int pi = 0;
    for (unsigned i = 0; i < nk; i++) {
        if (clang_getCursorKind(kids[i]) != CXCursor_ParmDecl)
            continue;
        const char *pn = tr_cx(&c, clang_getCursorSpelling(kids[i]));
        bool given = false;
        for (size_t j = 0; j < np; j++)
            if (strcmp(params[j].name, pn) == 0) {
                given = true;
                params[j].runtime = true;
            }
        if (!given && pi < rq->nsite_args && rq->site_args[pi]) {
            params[np].name = pn;
            params[np].expr = rq->site_args[pi];
            params[np].runtime = true;
            np++;
        }
        pi++;
    }
    c.params = params;
    c.nparams = np;
    c.lengths = rq->lengths;
    c.nlengths = rq->nlengths;
    c.shared_bytes = rq->shared_bytes;
    if (!bind_template(&c, rq, err)) {
        status = 2;
        goto done;
    }
    CXCursor body = clang_getNullCursor();
    for (unsigned i = 0; i < nk; i++)
        if (clang_getCursorKind(kids[i]) == CXCursor_CompoundStmt)
            body = kids[i];
    c.indent = 2;
    tr_body(&c, body);
    tr_flush_flops(&c);
    if (c.failed || c.out.failed) {
        status = 3;
        goto done;
    }
    if (c.nmissing) {
        fprintf(err, "%s:%d: %s: no value for ", rq->source, rq->line, rq->name);
        for (size_t i = 0; i < c.nmissing; i++)
            fprintf(err, "%s%s%s%s", i ? (i + 1 == c.nmissing ? " and " : ", ") : "",
                    c.missing[i][0] == '-' ? "" : "'", c.missing[i],
                    c.missing[i][0] == '-' ? "" : "'");
        fprintf(err, ", which the model needs (loop bounds, guards, indices or lengths): give %s\n",
                strcmp(c.missing[0], "--shared-bytes") == 0 ? "--shared-bytes EXPR"
                                                            : "--param NAME=EXPR");
        status = 2;
        goto done;
    }
    if (c.narrays > 1) /* qsort must not be given NULL, even for 0 items */
        qsort(c.arrays, c.narrays, sizeof *c.arrays, cmp_arrays);
    const char *work = c.out.data ? c.out.data : "";
    /* count the draft, with derived lengths wide open */
    size_t plen = 0;
    probe = compose(&c, rq, work, NULL, true, &plen);
    diag = rc_diag_new(err, 1);
    loader = diag ? rc_loader_new(diag) : NULL;
    if (!probe || !loader) {
        status = 3;
        goto done;
    }
    char where[400];
    snprintf(where, sizeof where, "%s:%d: %s (the draft)", rq->source, rq->line, rq->name);
    k = rc_load_kernel_memory(loader, where, probe, plen, diag);
    if (!k) {
        fprintf(err, "%s:%d: %s: the draft does not load (above): a defect of the importer or a bad option value; nothing written\n",
                rq->source, rq->line, rq->name);
        status = 1;
        goto done;
    }
    rc_counts counts;
    rc_eval_error ee;
    /* The enumeration, not the classes: only it records each array's
     * index range (access.h), exact to the element. */
    if (!rc_evaluate_with(k, false, &(rc_eval_options){.enumerate = true}, &counts, &ee)) {
        fprintf(err, "%s:%d: %s: %s%s%s; nothing written\n", rq->source, rq->line, rq->name,
                ee.node ? rc_work_element(ee.node->kind) : "", ee.node ? ": " : "",
                ee.expr >= 0 ? ee.expr_error.message : ee.message);
        status = 1;
        goto done;
    }
    const char **lens = calloc(c.narrays + 1, sizeof *lens);
    bool bad = false;
    for (size_t i = 0; lens && i < c.narrays; i++) {
        const rc_access_counts *ac = counts.memory_counted ? &counts.memory.arrays[i] : NULL;
        if (ac && ac->index_max >= ac->index_min && ac->index_min < 0) {
            fprintf(err, "%s:%d: %s: an index outside the array '%s': it reaches %lld; nothing written\n",
                    rq->source, rq->line, rq->name, c.arrays[i].name, (long long)ac->index_min);
            bad = true;
        }
        if (!c.arrays[i].length && ac && ac->index_max >= PROBE_LENGTH - 1) {
            fprintf(err, "%s:%d: %s: the array '%s' is indexed at %lld or beyond: give its length with --length; nothing written\n",
                    rq->source, rq->line, rq->name, c.arrays[i].name, PROBE_LENGTH - 1);
            bad = true;
        }
        long long l = ac && ac->index_max >= ac->index_min ? (long long)ac->index_max + 1 : 1;
        lens[i] = tr_printf(&c, "%lld", l);
    }
    c.lengths_sampled = counts.memory_counted && counts.memory.sampled;
    rc_counts_release(&counts);
    if (!lens || bad) {
        free(lens);
        status = lens ? 1 : 3;
        goto done;
    }
    size_t xlen = 0;
    xml = compose(&c, rq, work, lens, false, &xlen);
    free(lens);
    if (!xml) {
        status = 3;
        goto done;
    }
    if (!write_atomic(rq->outdir, rq->id, xml, xlen, err)) {
        status = 3;
        goto done;
    }
    if (c.nunknowns) {
        fprintf(out, "%s/%s.xml: %s, with %zu unknown%s (source line", rq->outdir, rq->id, rq->name,
                c.nunknowns, c.nunknowns == 1 ? "" : "s");
        for (size_t i = 0; i < c.nunknowns; i++)
            fprintf(out, "%s %d", i ? "," : (c.nunknowns > 1 ? "s" : ""), c.unknowns[i].line);
        fprintf(out, "): complete them by hand\n");
        for (size_t i = 0; i < c.nunknowns; i++)
            fprintf(err, "%s:%d: %s: not translated: %s\n", rq->source, c.unknowns[i].line,
                    rq->name, c.unknowns[i].what);
        status = 1;
    } else
        fprintf(out, "%s/%s.xml: %s, complete\n", rq->outdir, rq->id, rq->name);
done:
    if (k)
        rc_kernel_free(k);
    rc_loader_free(loader);
    rc_diag_free(diag);
    free(probe);
    free(xml);
    free(params);
    free(c.targs);
    free(c.out.data);
    tr_arena_free(c.arena);
    return status;
}
