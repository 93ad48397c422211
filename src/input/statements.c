/* statements.c: the statements of <work> (let, when, loop, flops, load,
 * store, traffic, atomic, instructions) into the model's rc_work tree. See kernel_scope.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input/kernel_scope.h"
#include "input/load_xml.h"
#include "model/names.h"

/* A <flops> statement's precision attribute; the schema allows only the three names. */
static rc_precision read_precision(xmlNodePtr n)
{
    char *text = rc_xml_attr(n, "precision");
    rc_precision p = RC_PRECISION_FP32;
    for (int i = 0; text && i < RC_PRECISIONS; i++)
        if (strcmp(text, rc_precision_name((rc_precision)i)) == 0)
            p = (rc_precision)i;
    free(text);
    return p;
}

/* An <instructions> statement's pipe attribute; the schema requires it and allows only the
 * names of rc_pipe_name. */
static rc_pipe read_pipe(xmlNodePtr n)
{
    char *text = rc_xml_attr(n, "pipe");
    rc_pipe p = RC_PIPE_CONVERSION;
    for (int i = 0; text && i < RC_PIPES; i++)
        if (strcmp(text, rc_pipe_name((rc_pipe)i)) == 0)
            p = (rc_pipe)i;
    free(text);
    return p;
}

/* Marks in reads[] every slot that the subtree's expressions read. Array
 * indices are left out: they decide where an access goes, not how much
 * work there is. */
static void mark_subtree_reads(const rc_work *w, bool *reads, int nslots)
{
    for (; w; w = w->next) {
        for (int i = 0; i < RC_WORK_EXPRS; i++)
            if (w->expr[i])
                rc_expr_mark_reads(w->expr[i], reads, nslots);
        mark_subtree_reads(w->children, reads, nslots);
    }
}

static void analyse_loops(rc_work *w, int nslots, bool *reads)
{
    for (; w; w = w->next) {
        if (w->kind == RC_WORK_LOOP) {
            memset(reads, 0, (size_t)nslots * sizeof *reads);
            mark_subtree_reads(w->children, reads, nslots);
            w->body_reads_var = w->slot >= 0 && w->slot < nslots ? reads[w->slot] : true;
        }
        analyse_loops(w->children, nslots, reads);
    }
}

#define MAX_WORK_DEPTH 64

static rc_work *parse_block(rc_scope *sc, xmlNodePtr first, int depth, bool *ok);

/* "+= 1", "-=1", ">>= 1" ...: the operator, and the expression after it in
 * *rest; a plain expression means +=. */
static rc_step_op step_op_of(const char *text, const char **rest)
{
    const char *p = text;
    while (*p == ' ' || *p == '\t')
        p++;
    for (int op = RC_STEP_SHR; op >= RC_STEP_ADD; op--) {
        size_t n = strlen(rc_step_op_text((rc_step_op)op));
        if (strncmp(p, rc_step_op_text((rc_step_op)op), n) == 0) {
            *rest = p + n;
            return (rc_step_op)op;
        }
    }
    *rest = text;
    return RC_STEP_ADD;
}

/* A loop's attributes: from, exactly one of to and while, step and dependent. The
 * while condition is parsed once the variable is visible. */
static bool parse_loop_head(rc_scope *sc, rc_work *w, xmlNodePtr n, int line)
{
    bool ok = true;
    w->attr[0] = "from";
    w->attr[2] = "step";
    w->text[0] = rc_xml_attr(n, "from");
    char *to = rc_xml_attr(n, "to"), *cond = rc_xml_attr(n, "while");
    char *step = rc_xml_attr(n, "step");
    /* The schema allows only "true" and "false". */
    char *dependent = rc_xml_attr(n, "dependent");
    w->loop_dependent = dependent && strcmp(dependent, "true") == 0;
    free(dependent);
    char *is_unsigned = rc_xml_attr(n, "unsigned");
    w->loop_unsigned = is_unsigned && strcmp(is_unsigned, "true") == 0;
    free(is_unsigned);
    if (to && cond) {
        rc_error_at(sc->diag, sc->file, line, "<loop> takes 'to' or 'while', not both");
        ok = false;
    } else if (!to && !cond) {
        rc_error_at(sc->diag, sc->file, line, "<loop> lacks the required attribute 'to' (or 'while')");
        ok = false;
    }
    w->loop_while = cond != NULL;
    w->attr[1] = cond ? "while" : "to";
    w->text[1] = cond ? cond : to;
    if (cond)
        free(to);
    const char *rest = "1";
    w->step_op = step ? step_op_of(step, &rest) : RC_STEP_ADD;
    w->text[2] = strdup(rest);
    free(step);
    if (!w->loop_while && (w->step_op == RC_STEP_SUB || w->step_op == RC_STEP_DIV ||
                           w->step_op == RC_STEP_SHR)) {
        rc_error_at(sc->diag, sc->file, line,
                    "<loop> with step '%s' counts down: write its condition as 'while', "
                    "such as while=\"%s > 0\"",
                    rc_step_op_text(w->step_op), w->name ? w->name : "i");
        ok = false;
    }
    sc->runtime_read = false;
    if (w->text[0] && !(w->expr[0] = rc_scope_parse(sc, "loop", "from", w->text[0], line)))
        ok = false;
    if (!w->loop_while && w->text[1] &&
        !(w->expr[1] = rc_scope_parse(sc, "loop", "to", w->text[1], line)))
        ok = false;
    w->loop_bounds_runtime = sc->runtime_read;
    sc->runtime_read = false;
    if (w->text[2] && !(w->expr[2] = rc_scope_parse(sc, "loop", "step", w->text[2], line)))
        ok = false;
    w->loop_step_runtime = sc->runtime_read;
    return ok;
}

/* <load|store|atomic array index>: the element size comes from the
 * array's type; the legacy form gives count and bytes instead. */
static bool parse_access(rc_scope *sc, rc_work *w, xmlNodePtr n, int line)
{
    const char *element = rc_work_element(w->kind);
    char *array = rc_xml_attr(n, "array");
    w->index_text = rc_xml_attr(n, "index");
    w->array = -1;
    bool ok = true;
    if (!array) {
        if (w->kind == RC_WORK_ATOMIC) {
            rc_error_at(sc->diag, sc->file, line, "<atomic> lacks the required attribute 'array'");
            ok = false;
        } else if (w->index_text) {
            rc_error_at(sc->diag, sc->file, line,
                        "<%s> attribute 'index' needs an 'array' to index", element);
            ok = false;
        } else if (!xmlHasProp(n, (const xmlChar *)"bytes")) {
            rc_error_at(sc->diag, sc->file, line,
                        "<%s> lacks the required attribute 'bytes' (or 'array' and 'index')",
                        element);
            ok = false;
        }
        free(array);
        return ok;
    }
    const rc_kernel *k = sc->kernel;
    for (size_t i = 0; i < k->narrays; i++)
        if (strcmp(k->arrays[i].name, array) == 0)
            w->array = (int)i;
    char q[QUOTE_BUF];
    if (w->array < 0) {
        rc_error_at(sc->diag, sc->file, line, "<%s> array '%s' is not declared by an <array>",
                    element, rc_quote(array, q));
        ok = false;
    } else if (w->kind != RC_WORK_LOAD &&
               k->arrays[w->array].read_only_path == RC_READ_ONLY_PATH_YES) {
        rc_error_at(sc->diag, sc->file, line,
                    "<%s> writes '%s', whose <array> (line %d) says read-only-path=\"yes\": a "
                    "read-only pointer is never written",
                    element, k->arrays[w->array].name, k->arrays[w->array].line);
        ok = false;
    }
    free(array);
    if (xmlHasProp(n, (const xmlChar *)"count") || xmlHasProp(n, (const xmlChar *)"bytes")) {
        rc_error_at(sc->diag, sc->file, line,
                    "<%s> with an array takes no 'count' or 'bytes': one access moves one element "
                    "of the array's type",
                    element);
        ok = false;
    }
    if (!w->index_text) {
        rc_error_at(sc->diag, sc->file, line, "<%s> lacks the required attribute 'index'", element);
        ok = false;
    } else if (!(w->index_expr = rc_scope_parse(sc, element, "index", w->index_text, line)))
        ok = false;
    if (!ok)
        return false;
    const rc_array *a = &k->arrays[w->array];
    int bytes = a->space == RC_SPACE_SHARED ? 0 : a->elem_bytes;
    char buf[16];
    snprintf(buf, sizeof buf, "%d", bytes);
    w->attr[0] = "count";
    w->attr[1] = "bytes";
    w->text[0] = strdup("1");
    w->text[1] = strdup(buf);
    w->expr[0] = rc_scope_parse(sc, element, "count", "1", line);
    w->expr[1] = rc_scope_parse(sc, element, "bytes", buf, line);
    return w->expr[0] && w->expr[1];
}

/* The attributes of the other statements, as the tables say. */
static bool parse_exprs(rc_scope *sc, rc_work *w, xmlNodePtr n, int line)
{
    bool ok = true;
    const char *element = rc_work_element(w->kind);
    for (int i = 0; i < RC_WORK_EXPRS; i++) {
        const char *a = rc_work_attr(w->kind, i);
        if (!a)
            continue;
        w->attr[i] = a;
        w->text[i] = rc_xml_attr(n, a);
        if (!w->text[i] && rc_work_default(w->kind, i))
            w->text[i] = strdup(rc_work_default(w->kind, i));
        if (!w->text[i])
            continue; /* the schema requires it; nothing to parse */
        w->expr[i] = rc_scope_parse(sc, element, a, w->text[i], line);
        if (!w->expr[i])
            ok = false;
    }
    return ok;
}

static rc_work *parse_statement(rc_scope *sc, xmlNodePtr n, int depth, bool *ok)
{
    rc_work_kind kind;
    const char *element = (const char *)n->name;
    for (kind = RC_WORK_LET; kind <= RC_WORK_LAST; kind++)
        if (strcmp(element, rc_work_element(kind)) == 0)
            break;
    if (kind > RC_WORK_LAST) { /* the schema lets nothing else through */
        rc_error_at(sc->diag, sc->file, xmlGetLineNo(n), "unexpected <%s>", element);
        *ok = false;
        return NULL;
    }
    int line = xmlGetLineNo(n);
    if (depth > MAX_WORK_DEPTH) {
        rc_error_at(sc->diag, sc->file, line,
                    "<%s> is nested too deeply (more than %d levels)", element,
                    MAX_WORK_DEPTH);
        *ok = false;
        return NULL;
    }
    rc_work *w = calloc(1, sizeof *w);
    if (!w) {
        *ok = false;
        return NULL;
    }
    w->kind = kind;
    w->line = line;
    w->slot = -1;
    w->array = -1;
    w->index = sc->kernel->nwork++;
    w->note = rc_xml_attr(n, "note");
    w->precision = kind == RC_WORK_FLOPS ? read_precision(n) : RC_PRECISION_FP32;
    if (kind == RC_WORK_FLOPS) {
        char *fused = rc_xml_attr(n, "fused");
        w->flops_unfused = fused && strcmp(fused, "false") == 0;
        free(fused);
    }
    w->pipe = kind == RC_WORK_INSTRUCTIONS ? read_pipe(n) : RC_PIPE_CONVERSION;
    if (kind == RC_WORK_ATOMIC) {
        char *operand = rc_xml_attr(n, "operand");
        w->per_lane_operand = operand && strcmp(operand, "per-lane") == 0;
        free(operand);
    }
    if (kind == RC_WORK_WHEN)
        w->assumption = rc_xml_attr(n, "assumption");
    if (w->assumption)
        sc->kernel->has_assumptions = true;
    if (kind == RC_WORK_LOOP)
        w->name = rc_xml_attr(n, "var");
    bool fine;
    sc->runtime_read = false;
    if (kind == RC_WORK_LOOP)
        fine = parse_loop_head(sc, w, n, line);
    else if ((kind == RC_WORK_LOAD || kind == RC_WORK_STORE || kind == RC_WORK_ATOMIC) &&
             (kind == RC_WORK_ATOMIC || xmlHasProp(n, (const xmlChar *)"array") ||
              xmlHasProp(n, (const xmlChar *)"index") || !xmlHasProp(n, (const xmlChar *)"bytes")))
        fine = parse_access(sc, w, n, line);
    else
        fine = parse_exprs(sc, w, n, line);
    if (!fine)
        *ok = false;
    /* A let is a value nvcc does not know when its value reads one; a loop variable always. */
    bool runtime = kind == RC_WORK_LOOP || sc->runtime_read;
    if (kind == RC_WORK_LET || kind == RC_WORK_LOOP) {
        if (kind == RC_WORK_LET)
            w->name = rc_xml_attr(n, "name");
        if (!w->name || !rc_scope_check_new_name(sc, w->name, element, line)) {
            *ok = false;
            return w;
        }
        int64_t value;
        rc_name_binding b = {RC_NAME_SLOT, 0, 0};
        if (kind == RC_WORK_LET && w->expr[0] && rc_expr_is_const(w->expr[0], &value))
            b = (rc_name_binding){RC_NAME_CONST, value, 0};
        else
            b.slot = w->slot = sc->next_slot++;
        size_t mark = sc->count;
        rc_scope_push(sc, w->name, b, runtime, line);
        if (kind == RC_WORK_LOOP) {
            /* The variable is visible in the condition and the body only. */
            if (w->loop_while && w->text[1] &&
                !(w->expr[1] = rc_scope_parse(sc, "loop", "while", w->text[1], line)))
                *ok = false;
            w->children = parse_block(sc, n->children, depth + 1, ok);
            sc->count = mark;
        }
        return w;
    }
    if (kind == RC_WORK_WHEN) {
        size_t mark = sc->count;
        w->children = parse_block(sc, n->children, depth + 1, ok);
        sc->count = mark;
    }
    return w;
}

/* A statement list; a let stays visible to the statements after it. */
static rc_work *parse_block(rc_scope *sc, xmlNodePtr first, int depth, bool *ok)
{
    rc_work *head = NULL, **tail = &head;
    for (xmlNodePtr n = first; n; n = n->next) {
        if (n->type != XML_ELEMENT_NODE)
            continue;
        rc_work *w = parse_statement(sc, n, depth, ok);
        if (w) {
            *tail = w;
            tail = &w->next;
        }
    }
    return head;
}

void rc_parse_work(rc_scope *sc, xmlNodePtr first, bool *ok)
{
    rc_kernel *k = sc->kernel;
    k->work = parse_block(sc, first, 1, ok);
    k->nslots = sc->next_slot;
    /* Only a complete model is analysed: a loop whose variable was refused
     * has no slot. */
    bool *reads = *ok ? calloc((size_t)k->nslots, sizeof *reads) : NULL;
    if (reads)
        analyse_loops(k->work, k->nslots, reads);
    else
        *ok = false;
    free(reads);
}
