/* translate_stmt.c: statements to <let>, <when> and <loop> (translate.h).
 *
 * Control flow the model has: if/else on integer conditions, early returns
 * at a function's top level and `continue` at a loop body's top level
 * (the rest of the block goes under the negated condition), for-loops with
 * an integer variable stepped by +=, -=, *=, /=, <<= or >>= a value the
 * loop does not change. Anything else that guards memory accesses or FLOPs
 * is an unknown at its place.
 */
#include "import/translate.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- declarations */

static bool has_child_kind(tr_ctx *c, CXCursor cur, enum CXCursorKind kind)
{
    unsigned n;
    CXCursor *kids = tr_children(c, cur, &n);
    for (unsigned i = 0; i < n; i++)
        if (clang_getCursorKind(kids[i]) == kind)
            return true;
    return false;
}

static void var_decl(tr_ctx *c, CXCursor vd)
{
    CXType t = clang_getCursorType(vd);
    char *name = tr_cx(c, clang_getCursorSpelling(vd));
    CXCursor init = tr_is_array_type(t) ? clang_getNullCursor() : tr_last_expr(c, vd);
    /* float &r = a[i]: a is written (through r, or in an unknown) */
    if (!clang_Cursor_isNull(init))
        tr_mark_writable(c, t, init, false);
    if (!clang_Cursor_isNull(init) && tr_is_writable_reference(t)) {
        /* r names a[i]: loaded where it is read, stored where it is written */
        tr_binding b = tr_reference(c, init);
        b.decl = vd;
        tr_push_binding(c, b);
        return;
    }
    if (tr_is_array_type(t)) {
        bool shared = has_child_kind(c, vd, CXCursor_CUDASharedAttr);
        /* as written: a template parameter's element type keeps its name */
        CXType el = t;
        for (int guard = 0; tr_is_array_type(el) && guard < 8; guard++)
            el = clang_getElementType(el);
        if (!shared) {
            tr_add_note(c, "The thread's own array '%s' (source line %d) is taken to live in registers: its accesses are not counted.",
                        name, tr_line(vd));
            tr_val r = {V_REGS, NULL, 0, -1, false, "a register array"};
            tr_bind(c, vd, r);
            return;
        }
        const char *len = NULL;
        const char *tn;
        int bytes = 0;
        if (!tr_elem_type(c, el, &tn, &bytes)) {
            tr_add_unknown(c, vd, "the shared array '%s' has an element type the model has no place for", name);
            tr_bind(c, vd, tr_unknown_val(c, tr_printf(c, "the shared array '%s'", name)));
            return;
        }
        if (clang_getCanonicalType(t).kind == CXType_IncompleteArray) {
            if (!c->shared_bytes) {
                tr_use_param(c, "--shared-bytes");
                tr_bind(c, vd, tr_unknown_val(c, "the dynamic shared memory"));
                return;
            }
            len = tr_printf(c, "(%s) / %d", c->shared_bytes, bytes);
        } else {
            /* "float[32][32 + PAD]": template params by name */
            len = tr_elems_of_type(c, t);
        }
        if (!len) {
            tr_add_unknown(c, vd, "the size of the shared array '%s' cannot be said", name);
            tr_bind(c, vd, tr_unknown_val(c, tr_printf(c, "the shared array '%s'", name)));
            return;
        }
        int a = tr_array_for(c, vd, tr_new_name(c, name), el, "shared", len, 500, tr_line(vd));
        tr_val p = {V_PTR, "0", 16, a, false, NULL};
        tr_bind(c, vd, a >= 0 ? p : tr_unknown_val(c, "a shared array"));
        return;
    }
    if (clang_Cursor_isNull(init)) {
        tr_bind(c, vd, tr_is_int(t) ? tr_unknown_val(c, tr_printf(c, "'%s', declared without a value", name))
                                 : tr_data(c, tr_printf(c, "'%s'", name)));
        return;
    }
    tr_val v = tr_expr(c, init);
    if (tr_is_int(t) && v.kind == V_INT) {
        if (v.prec < 16 && !c->no_let) {
            const char *mn = tr_new_name(c, name);
            tr_flush_flops(c);
            tr_emit(c, "<let name=\"%s\" value=\"%s\"/>", mn, tr_xml_escape(c, v.text));
            tr_name_from(c, mn, v.text);
            v = tr_int(c, mn, 16);
        }
    } else if (v.kind == V_INT)
        v = tr_data(c, "a converted integer");
    tr_bind(c, vd, v);
}

/* ---------------------------------------------------------------- blocks */

typedef enum { EXIT_NONE, EXIT_RETURN, EXIT_CONTINUE, EXIT_BREAK } exit_kind;

static exit_kind exit_of(tr_ctx *c, CXCursor s)
{
    enum CXCursorKind k = clang_getCursorKind(s);
    if (k == CXCursor_ReturnStmt)
        return EXIT_RETURN;
    if (k == CXCursor_ContinueStmt)
        return EXIT_CONTINUE;
    if (k == CXCursor_BreakStmt)
        return EXIT_BREAK;
    if (k == CXCursor_CompoundStmt) {
        unsigned n;
        CXCursor *kids = tr_children(c, s, &n);
        return n ? exit_of(c, kids[n - 1]) : EXIT_NONE;
    }
    return EXIT_NONE;
}

static void block(tr_ctx *c, CXCursor *stmts, unsigned n, bool top);

/* The statements of a branch, without its final exit. */
static void branch_body(tr_ctx *c, CXCursor s)
{
    if (clang_getCursorKind(s) == CXCursor_CompoundStmt) {
        unsigned n;
        CXCursor *kids = tr_children(c, s, &n);
        if (n && exit_of(c, kids[n - 1]) != EXIT_NONE)
            n--;
        size_t saved = c->nenv;
        block(c, kids, n, false);
        c->nenv = saved;
    } else if (exit_of(c, s) == EXIT_NONE)
        tr_stmt(c, s);
}

static void return_value(tr_ctx *c, CXCursor ret)
{
    unsigned n;
    CXCursor *kids = tr_children(c, ret, &n);
    if (!n)
        return;
    tr_val v = tr_expr(c, kids[0]);
    tr_end_statement(c);
    /* inline_call bound the function's body; the value goes there */
    for (size_t i = c->nenv; i-- > 0;)
        if (clang_getCursorKind(c->env[i].decl) == CXCursor_CompoundStmt) {
            c->env[i].val = v;
            return;
        }
}

static bool exit_allowed(tr_ctx *c, exit_kind k, bool top)
{
    if (!top)
        return false;
    if (k == EXIT_RETURN)
        return c->loop_depth == c->fn_loop_depth;
    if (k == EXIT_CONTINUE)
        return c->loop_depth > c->fn_loop_depth;
    return false;
}

static void block(tr_ctx *c, CXCursor *stmts, unsigned n, bool top)
{
    for (unsigned i = 0; i < n; i++) {
        CXCursor s = stmts[i];
        enum CXCursorKind k = clang_getCursorKind(s);
        if (k == CXCursor_ReturnStmt || k == CXCursor_ContinueStmt || k == CXCursor_BreakStmt) {
            exit_kind ek = exit_of(c, s);
            if (ek == EXIT_RETURN && c->loop_depth == c->fn_loop_depth) {
                return_value(c, s);
                return; /* what follows is dead */
            }
            if (ek == EXIT_CONTINUE && top && c->loop_depth > c->fn_loop_depth)
                return;
            tr_add_unknown(c, s, "a %s inside %s", ek == EXIT_RETURN ? "return" : ek == EXIT_BREAK ? "break" : "continue",
                           ek == EXIT_RETURN ? "a loop" : "nested blocks");
            return;
        }
        if (k == CXCursor_IfStmt) {
            unsigned m;
            CXCursor *kids = tr_children(c, s, &m);
            if (m >= 2) {
                CXCursor cond = kids[m == 2 ? 0 : m - 3], then = kids[m == 2 ? 1 : m - 2];
                if (m == 2 || clang_getCursorKind(kids[0]) == CXCursor_DeclStmt)
                    cond = kids[m - 2], then = kids[m - 1];
                bool has_else = m >= 3 && clang_getCursorKind(kids[0]) != CXCursor_DeclStmt;
                if (has_else) {
                    cond = kids[m - 3];
                    then = kids[m - 2];
                }
                exit_kind ek = exit_of(c, then);
                if (ek != EXIT_NONE) {
                    if (!exit_allowed(c, ek, top)) {
                        tr_add_unknown(c, s, "an early %s the model cannot follow (inside %s)",
                                       ek == EXIT_RETURN ? "return" : ek == EXIT_BREAK ? "break" : "continue",
                                       top ? "a loop" : "nested blocks");
                        continue;
                    }
                    tr_val cv = tr_expr(c, cond);
                    tr_end_statement(c);
                    if (cv.kind != V_INT) {
                        tr_add_unknown(c, s, "an early exit whose condition depends on %s",
                                       cv.why ? cv.why : "data");
                        continue;
                    }
                    tr_emit(c, "<when test=\"%s\">", tr_xml_escape(c, cv.text));
                    c->indent++;
                    c->no_let++;
                    size_t saved = c->nenv;
                    branch_body(c, then);
                    c->nenv = saved;
                    c->no_let--;
                    c->indent--;
                    tr_emit(c, "</when>");
                    tr_emit(c, "<when test=\"%s\">", tr_xml_escape(c, tr_negated(c, cv)));
                    c->indent++;
                    if (has_else) {
                        /* the else branch runs first, then the rest */
                        unsigned en;
                        CXCursor *ek2 = tr_children(c, kids[m - 1], &en);
                        if (clang_getCursorKind(kids[m - 1]) == CXCursor_CompoundStmt)
                            block(c, ek2, en, top);
                        else
                            tr_stmt(c, kids[m - 1]);
                    }
                    block(c, stmts + i + 1, n - i - 1, top);
                    c->indent--;
                    tr_emit(c, "</when>");
                    return;
                }
            }
        }
        tr_stmt(c, s);
    }
}

void tr_body(tr_ctx *c, CXCursor body)
{
    unsigned n;
    CXCursor *kids = tr_children(c, body, &n);
    block(c, kids, n, true);
}

/* ---------------------------------------------------------------- if */

/* Field by field: a struct's padding is no part of its value. */
static bool same_val(tr_val a, tr_val b)
{
    return a.kind == b.kind && a.prec == b.prec && a.array == b.array && a.fconst == b.fconst &&
           a.text == b.text && a.why == b.why;
}

static void if_stmt(tr_ctx *c, CXCursor s)
{
    unsigned m;
    CXCursor *kids = tr_children(c, s, &m);
    if (m < 2) {
        tr_add_unknown(c, s, "an if statement the importer cannot read");
        return;
    }
    bool decl = clang_getCursorKind(kids[0]) == CXCursor_DeclStmt;
    bool has_else = m - (decl ? 1 : 0) == 3;
    if (decl)
        tr_stmt(c, kids[0]);
    unsigned base = decl ? 1 : 0;
    tr_val cv = tr_expr(c, kids[base]);
    tr_end_statement(c);
    /* each branch from the same bindings; then merged */
    size_t nenv = c->nenv;
    tr_binding *before = malloc((nenv + 1) * sizeof *before);
    tr_binding *after_then = malloc((nenv + 1) * sizeof *after_then);
    if (!before || !after_then) {
        free(before);
        free(after_then);
        c->failed = true;
        return;
    }
    memcpy(before, c->env, nenv * sizeof *before);
    rc_buffer saved = c->out, empty = {0};
    const char *texts[2] = {"", ""};
    for (int b = 0; b < 2; b++) {
        if (b == 1 && !has_else)
            break;
        if (b == 1) {
            memcpy(after_then, c->env, nenv * sizeof *after_then);
            memcpy(c->env, before, nenv * sizeof *before);
        }
        c->out = empty;
        c->indent++;
        c->no_let++;
        size_t keep = c->nenv;
        CXCursor br = kids[base + 1 + (unsigned)b];
        if (exit_of(c, br) != EXIT_NONE && clang_getCursorKind(br) != CXCursor_CompoundStmt)
            tr_add_unknown(c, br, "an exit inside a branch the model cannot follow");
        else if (clang_getCursorKind(br) == CXCursor_CompoundStmt) {
            unsigned bn;
            CXCursor *bk = tr_children(c, br, &bn);
            if (bn && exit_of(c, bk[bn - 1]) != EXIT_NONE)
                tr_add_unknown(c, bk[bn - 1], "an exit inside a branch the model cannot follow");
            block(c, bk, bn, false);
        } else
            tr_stmt(c, br);
        c->nenv = keep;
        c->no_let--;
        c->indent--;
        size_t len;
        char *t = rc_buffer_take(&c->out, &len);
        texts[b] = t ? tr_strdup(c, t) : "";
        free(t);
    }
    if (!has_else)
        memcpy(after_then, c->env, nenv * sizeof *after_then);
    const tr_binding *after_else = c->env; /* else's values (or the old ones) */
    if (!has_else)
        memcpy(c->env, before, nenv * sizeof *before);
    c->out = saved;
    if (cv.kind == V_INT) {
        if (*texts[0]) {
            tr_emit(c, "<when test=\"%s\">", tr_xml_escape(c, cv.text));
            rc_buffer_puts(&c->out, texts[0]);
            tr_emit(c, "</when>");
        }
        if (*texts[1]) {
            tr_emit(c, "<when test=\"%s\">", tr_xml_escape(c, tr_negated(c, cv)));
            rc_buffer_puts(&c->out, texts[1]);
            tr_emit(c, "</when>");
        }
    } else if (*texts[0] || *texts[1])
        tr_add_unknown(c, s, "a branch on %s guards memory accesses or FLOPs",
                       cv.why ? cv.why : "data");
    /* merge what the branches assigned */
    for (size_t i = 0; i < nenv; i++) {
        tr_val a = after_then[i].val, b = after_else[i].val, o = before[i].val;
        bool ca = !same_val(a, o), cb = !same_val(b, o);
        if (!ca && !cb)
            continue;
        tr_val v;
        if (cv.kind == V_INT && a.kind == V_INT && b.kind == V_INT) {
            v = tr_int(c, tr_printf(c, "%s ? %s : %s",
                                    cv.prec > 4 ? cv.text : tr_printf(c, "(%s)", cv.text),
                                    a.prec > 3 ? a.text : tr_printf(c, "(%s)", a.text),
                                    b.prec > 3 ? b.text : tr_printf(c, "(%s)", b.text)),
                       3);
            if (!c->no_let) {
                char *cn = tr_cx(c, clang_getCursorSpelling(before[i].decl));
                const char *mn = tr_new_name(c, cn);
                tr_emit(c, "<let name=\"%s\" value=\"%s\"/>", mn, tr_xml_escape(c, v.text));
                tr_name_from(c, mn, v.text);
                v = tr_int(c, mn, 16);
            }
        } else if (a.kind == V_DATA && b.kind == V_DATA)
            v = a;
        else
            v = tr_unknown_val(c, tr_printf(c, "a value assigned under a condition at source line %d",
                                            tr_line(s)));
        c->env[i].val = v;
    }
    free(before);
    free(after_then);
}

/* ---------------------------------------------------------------- statements */

static void loop_unknown(tr_ctx *c, CXCursor s, const char *what)
{
    /* a loop the model cannot count: unknown only if its body does work */
    rc_buffer saved = c->out, empty = {0};
    size_t nu = c->nunknowns;
    c->out = empty;
    unsigned n;
    CXCursor *kids = tr_children(c, s, &n);
    c->loop_depth++;
    for (unsigned i = 0; i < n; i++)
        if (!clang_isExpression(clang_getCursorKind(kids[i])))
            tr_stmt(c, kids[i]);
    c->loop_depth--;
    tr_flush_flops(c);
    bool work = c->out.len > 0;
    free(c->out.data);
    c->out = saved;
    c->nunknowns = nu;
    if (work)
        tr_add_unknown(c, s, "a %s loop: the model counts only for loops with a known step", what);
}

void tr_stmt(tr_ctx *c, CXCursor s)
{
    c->nseen = 0;
    enum CXCursorKind k = clang_getCursorKind(s);
    unsigned n;
    CXCursor *kids;
    switch (k) {
    case CXCursor_CompoundStmt: {
        size_t saved = c->nenv;
        kids = tr_children(c, s, &n);
        block(c, kids, n, false);
        c->nenv = saved;
        return;
    }
    case CXCursor_DeclStmt:
        kids = tr_children(c, s, &n);
        for (unsigned i = 0; i < n; i++)
            if (clang_getCursorKind(kids[i]) == CXCursor_VarDecl)
                var_decl(c, kids[i]);
        tr_end_statement(c);
        return;
    case CXCursor_IfStmt:
        if_stmt(c, s);
        return;
    case CXCursor_ForStmt:
        tr_for_stmt(c, s);
        return;
    case CXCursor_WhileStmt:
        loop_unknown(c, s, "while");
        return;
    case CXCursor_DoStmt:
        loop_unknown(c, s, "do-while");
        return;
    case CXCursor_NullStmt:
    case CXCursor_LabelStmt:
        return;
    case CXCursor_ReturnStmt:
    case CXCursor_BreakStmt:
    case CXCursor_ContinueStmt:
        block(c, &s, 1, false);
        return;
    case CXCursor_SwitchStmt:
    case CXCursor_GotoStmt:
    case CXCursor_AsmStmt:
    case CXCursor_MSAsmStmt:
    case CXCursor_CXXForRangeStmt:
    case CXCursor_CXXTryStmt: {
        char *ks = tr_cx(c, clang_getCursorKindSpelling(k));
        tr_add_unknown(c, s, "a statement the model has no form for (%s)", ks);
        return;
    }
    case CXCursor_UnexposedStmt: /* #pragma unroll, attributes */
        kids = tr_children(c, s, &n);
        for (unsigned i = 0; i < n; i++)
            tr_stmt(c, kids[i]);
        return;
    default:
        break;
    }
    if (clang_isExpression(k)) {
        /* an unknown value matters where it is used (an index, a bound) */
        tr_expr(c, s);
        tr_end_statement(c);
        return;
    }
    char *ks = tr_cx(c, clang_getCursorKindSpelling(k));
    tr_add_unknown(c, s, "a statement the importer does not translate (%s)", ks);
}

/* For the files below this one (translate_expr.c's inlined calls,
 * translate_loop.c's bodies), set in tr_ctx.stmts by draft.c. */
const tr_stmt_fns tr_statements = {tr_stmt, tr_body};
