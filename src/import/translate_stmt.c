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

static CXCursor strip(tr_ctx *c, CXCursor e)
{
    for (;;) {
        enum CXCursorKind k = clang_getCursorKind(e);
        if (k != CXCursor_ParenExpr && k != CXCursor_UnexposedExpr)
            return e;
        unsigned n;
        CXCursor *kids = tr_children(c, e, &n);
        if (n != 1)
            return e;
        e = kids[0];
    }
}

static bool skipped(tr_ctx *c, CXCursor s)
{
    for (size_t i = 0; i < c->nskip; i++)
        if (clang_equalCursors(c->skip[i], s))
            return true;
    return false;
}

static void end_statement(tr_ctx *c)
{
    tr_flush_flops(c);
    c->nseen = 0;
}

/* ---------------------------------------------------------------- assigned variables */

typedef struct {
    tr_ctx *c;
    CXCursor *decls;
    int *count; /* assignments to each, anywhere in the body */
    size_t n, cap;
} assigned;

static void add_assigned(assigned *a, CXCursor target)
{
    CXCursor s = strip(a->c, target);
    if (clang_getCursorKind(s) != CXCursor_DeclRefExpr)
        return;
    CXCursor d = clang_getCursorReferenced(s);
    for (size_t i = 0; i < a->n; i++)
        if (clang_equalCursors(a->decls[i], d)) {
            a->count[i]++;
            return;
        }
    if (a->n == a->cap) {
        size_t cap = a->cap ? a->cap * 2 : 8;
        CXCursor *v = realloc(a->decls, cap * sizeof *v);
        if (!v)
            return;
        a->decls = v;
        int *cn = realloc(a->count, cap * sizeof *cn);
        if (!cn)
            return;
        a->count = cn;
        a->cap = cap;
    }
    a->count[a->n] = 1;
    a->decls[a->n++] = d;
}

static enum CXChildVisitResult find_assigned(CXCursor cur, CXCursor parent, CXClientData data)
{
    (void)parent;
    assigned *a = data;
    enum CXCursorKind k = clang_getCursorKind(cur);
    if (k == CXCursor_BinaryOperator || k == CXCursor_CompoundAssignOperator ||
        k == CXCursor_UnaryOperator) {
        const char *op = tr_operator(a->c, cur, NULL);
        unsigned n;
        CXCursor *kids = tr_children(a->c, cur, &n);
        if (op && n >= 1 &&
            ((k == CXCursor_BinaryOperator && strcmp(op, "=") == 0) ||
             k == CXCursor_CompoundAssignOperator ||
             (k == CXCursor_UnaryOperator && (strcmp(op, "++") == 0 || strcmp(op, "--") == 0))))
            add_assigned(a, kids[0]);
    }
    return CXChildVisit_Recurse;
}

/* The variables declared outside `body` that it assigns. */
static void assigned_in(tr_ctx *c, CXCursor body, assigned *a)
{
    a->c = c;
    clang_visitChildren(body, find_assigned, a);
    /* drop those declared inside */
    CXSourceRange r = clang_getCursorExtent(body);
    unsigned b = tr_offset(clang_getRangeStart(r)), e = tr_offset(clang_getRangeEnd(r));
    size_t k = 0;
    for (size_t i = 0; i < a->n; i++) {
        unsigned o = tr_offset(clang_getCursorLocation(a->decls[i]));
        if (!(o >= b && o < e)) {
            a->count[k] = a->count[i];
            a->decls[k++] = a->decls[i];
        }
    }
    a->n = k;
}

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

static bool is_array(CXType t)
{
    enum CXTypeKind k = clang_getCanonicalType(t).kind;
    return k == CXType_ConstantArray || k == CXType_DependentSizedArray ||
           k == CXType_IncompleteArray || k == CXType_VariableArray;
}

static bool is_int(CXType t)
{
    CXType ct = clang_getCanonicalType(t);
    return (ct.kind >= CXType_Bool && ct.kind <= CXType_Int128) || ct.kind == CXType_Enum;
}

static const char *array_length(tr_ctx *c, CXType t)
{
    /* the product of the extents, as elems_of in translate_expr.c */
    CXType ct = clang_getCanonicalType(t);
    if (ct.kind == CXType_ConstantArray) {
        const char *inner = array_length(c, clang_getArrayElementType(ct));
        if (!inner)
            return NULL;
        long long n = clang_getArraySize(ct);
        return strcmp(inner, "1") == 0 ? tr_printf(c, "%lld", n) : tr_printf(c, "%lld * %s", n, inner);
    }
    if (is_array(ct))
        return NULL;
    return "1";
}

static void var_decl(tr_ctx *c, CXCursor vd)
{
    CXType t = clang_getCursorType(vd);
    char *name = tr_cx(c, clang_getCursorSpelling(vd));
    unsigned n;
    CXCursor *kids = tr_children(c, vd, &n);
    CXCursor init = clang_getNullCursor();
    if (!is_array(t))
        for (unsigned i = 0; i < n; i++)
            if (clang_isExpression(clang_getCursorKind(kids[i])))
                init = kids[i];
    if (is_array(t)) {
        bool shared = has_child_kind(c, vd, CXCursor_CUDASharedAttr);
        /* as written: a template parameter's element type keeps its name */
        CXType el = t;
        for (int guard = 0; is_array(el) && guard < 8; guard++)
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
            len = array_length(c, t);
            if (!len) /* "float[32][32 + PAD]": template params by name */
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
        tr_bind(c, vd, is_int(t) ? tr_unknown_val(c, tr_printf(c, "'%s', declared without a value", name))
                                 : tr_data(c, tr_printf(c, "'%s'", name)));
        return;
    }
    tr_val v = tr_expr(c, init);
    if (is_int(t) && v.kind == V_INT) {
        if (v.prec < 16 && !c->no_let) {
            const char *mn = tr_new_name(c, name);
            tr_flush_flops(c);
            tr_emit(c, "<let name=\"%s\" value=\"%s\"/>", mn, tr_xml_escape(c, v.text));
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

static const char *negated(tr_ctx *c, tr_val v)
{
    return tr_printf(c, "not %s", v.prec >= 14 ? v.text : tr_printf(c, "(%s)", v.text));
}

static void return_value(tr_ctx *c, CXCursor ret)
{
    unsigned n;
    CXCursor *kids = tr_children(c, ret, &n);
    if (!n)
        return;
    tr_val v = tr_expr(c, kids[0]);
    end_statement(c);
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
                    end_statement(c);
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
                    tr_emit(c, "<when test=\"%s\">", tr_xml_escape(c, negated(c, cv)));
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
    end_statement(c);
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
            tr_emit(c, "<when test=\"%s\">", tr_xml_escape(c, negated(c, cv)));
            rc_buffer_puts(&c->out, texts[1]);
            tr_emit(c, "</when>");
        }
    } else if (*texts[0] || *texts[1])
        tr_add_unknown(c, s, "a branch on %s guards memory accesses or FLOPs",
                       cv.why ? cv.why : "data");
    /* merge what the branches assigned */
    for (size_t i = 0; i < nenv; i++) {
        tr_val a = after_then[i].val, b = after_else[i].val, o = before[i].val;
        bool ca = memcmp(&a, &o, sizeof a) != 0, cb = memcmp(&b, &o, sizeof b) != 0;
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

/* ---------------------------------------------------------------- for */

static CXCursor referenced(tr_ctx *c, CXCursor e, bool *ok)
{
    CXCursor s = strip(c, e);
    *ok = clang_getCursorKind(s) == CXCursor_DeclRefExpr;
    return *ok ? clang_getCursorReferenced(s) : s;
}

/* The step of `inc` on `var`: op ("+=", ...) and the amount's cursor. */
static bool loop_step(tr_ctx *c, CXCursor inc, CXCursor var, const char **op, CXCursor *amount,
                      bool *unit)
{
    enum CXCursorKind k = clang_getCursorKind(inc);
    unsigned n;
    CXCursor *kids = tr_children(c, inc, &n);
    const char *o = tr_operator(c, inc, NULL);
    bool ok;
    *unit = false;
    if (!o || n < 1)
        return false;
    CXCursor d = referenced(c, kids[0], &ok);
    if (!ok || !clang_equalCursors(d, var))
        return false;
    if (k == CXCursor_UnaryOperator && (strcmp(o, "++") == 0 || strcmp(o, "--") == 0)) {
        *op = o[0] == '+' ? "+=" : "-=";
        *unit = true;
        return true;
    }
    if (k == CXCursor_CompoundAssignOperator && n == 2) {
        static const char *const ops[] = {"+=", "-=", "*=", "/=", "<<=", ">>=", NULL};
        for (int i = 0; ops[i]; i++)
            if (strcmp(o, ops[i]) == 0) {
                *op = ops[i];
                *amount = kids[1];
                return true;
            }
        return false;
    }
    if (k == CXCursor_BinaryOperator && n == 2 && strcmp(o, "=") == 0) {
        CXCursor r = strip(c, kids[1]);
        unsigned rn;
        CXCursor *rk = tr_children(c, r, &rn);
        const char *ro = clang_getCursorKind(r) == CXCursor_BinaryOperator ? tr_operator(c, r, NULL) : NULL;
        if (!ro || rn != 2)
            return false;
        static const char *const ops[] = {"+", "-", "*", "/", "<<", ">>", NULL};
        for (int i = 0; ops[i]; i++)
            if (strcmp(ro, ops[i]) == 0) {
                CXCursor l = referenced(c, rk[0], &ok);
                if (ok && clang_equalCursors(l, var)) {
                    *op = tr_printf(c, "%s=", ro);
                    *amount = rk[1];
                    return true;
                }
                CXCursor rr = referenced(c, rk[1], &ok);
                if (ok && clang_equalCursors(rr, var) && (i == 0 || i == 2)) {
                    *op = tr_printf(c, "%s=", ro);
                    *amount = rk[0];
                    return true;
                }
            }
    }
    return false;
}

/* True when `text` names `name` as a whole identifier. */
static bool mentions(const char *text, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = strstr(text, name); p; p = strstr(p + 1, name)) {
        bool before = p > text && (isalnum((unsigned char)p[-1]) || p[-1] == '_' || p[-1] == '.');
        bool after = isalnum((unsigned char)p[n]) || p[n] == '_';
        if (!before && !after)
            return true;
    }
    return false;
}

static const char *paren(tr_ctx *c, tr_val v, int prec)
{
    return v.prec > prec ? v.text : tr_printf(c, "(%s)", v.text);
}

/* A pointer the loop body steps by a constant amount at its top level (the
 * tiled GEMM's `A += BLOCKSIZE`), and nowhere else: in iteration
 * (var - from) / step it has moved that many times; after the loop, trip
 * count times. Such a pointer gets those values instead of an unknown. */
static void step_pointers(tr_ctx *c, CXCursor body, const assigned *as, const tr_val *olds,
                          tr_val *afters, const char *var, tr_val from, tr_val step,
                          const char *to)
{
    unsigned bn = 0;
    CXCursor *bk = clang_getCursorKind(body) == CXCursor_CompoundStmt ? tr_children(c, body, &bn)
                                                                      : &body;
    if (clang_getCursorKind(body) != CXCursor_CompoundStmt)
        bn = 1;
    for (size_t i = 0; i < as->n; i++) {
        if (olds[i].kind != V_PTR)
            continue;
        int top = 0;
        const char *inc = NULL;
        bool ok = true;
        CXCursor *steps = calloc(bn + 1, sizeof *steps);
        if (!steps)
            return;
        for (unsigned j = 0; j < bn && ok; j++) {
            enum CXCursorKind k = clang_getCursorKind(bk[j]);
            if (k != CXCursor_CompoundAssignOperator && k != CXCursor_UnaryOperator)
                continue;
            unsigned n;
            CXCursor *kids = tr_children(c, bk[j], &n);
            bool isref;
            CXCursor d = referenced(c, kids[0], &isref);
            if (!isref || !clang_equalCursors(d, as->decls[i]))
                continue;
            const char *o = tr_operator(c, bk[j], NULL);
            const char *amt = NULL, *sign = "+";
            if (o && (strcmp(o, "++") == 0 || strcmp(o, "--") == 0)) {
                amt = "1";
                sign = o[0] == '+' ? "+" : "-";
            } else if (o && n == 2 && (strcmp(o, "+=") == 0 || strcmp(o, "-=") == 0)) {
                tr_val a = tr_expr(c, kids[1]);
                if (a.kind != V_INT || mentions(a.text, var))
                    ok = false;
                else
                    amt = paren(c, a, 12);
                sign = o[0] == '+' ? "+" : "-";
            } else
                ok = false;
            if (ok) {
                inc = inc ? tr_printf(c, "%s %s %s", inc, sign, amt)
                          : (sign[0] == '-' ? tr_printf(c, "-%s", amt) : amt);
                steps[top++] = bk[j];
            }
        }
        if (ok && top > 0 && top == as->count[i]) {
            const char *iter =
                strcmp(from.text, "0") == 0
                    ? (strcmp(step.text, "1") == 0 ? var : tr_printf(c, "%s / %s", var, paren(c, step, 13)))
                    : tr_printf(c, "(%s - %s) / %s", var, paren(c, from, 12), paren(c, step, 13));
            const char *moved = tr_printf(c, "%s%s * (%s)", strchr(iter, ' ') ? "(" : "", iter, inc);
            if (strchr(iter, ' '))
                moved = tr_printf(c, "(%s) * (%s)", iter, inc);
            tr_val now = {V_PTR, tr_printf(c, "%s + %s", paren(c, olds[i], 12), moved), 12,
                          olds[i].array, false, NULL};
            tr_bind(c, as->decls[i], now);
            const char *trips = tr_printf(c, "max(0, (%s - %s + %s - 1) / %s)", to, paren(c, from, 12),
                                          paren(c, step, 12), paren(c, step, 13));
            tr_val after = {V_PTR, tr_printf(c, "%s + %s * (%s)", paren(c, olds[i], 12), trips, inc), 12,
                            olds[i].array, false, NULL};
            afters[i] = after;
        }
        free(steps);
    }
}

typedef struct {
    CXCursor decl, from_e, amount_e;
    tr_val from, amount;
    bool minus;
} companion;

static CXCursor init_of(tr_ctx *c, CXCursor var)
{
    unsigned vn;
    CXCursor *vk = tr_children(c, var, &vn);
    CXCursor e = clang_getNullCursor();
    for (unsigned i = 0; i < vn; i++)
        if (clang_isExpression(clang_getCursorKind(vk[i])))
            e = vk[i];
    return e;
}

/* Of the declared variables, the one the condition compares directly. */
static CXCursor leading_var(tr_ctx *c, CXCursor cond, CXCursor *decls, unsigned n)
{
    CXCursor sc = strip(c, cond);
    unsigned cn;
    CXCursor *ck = tr_children(c, sc, &cn);
    for (unsigned side = 0; side < cn && side < 2; side++) {
        bool ok;
        CXCursor d = referenced(c, ck[side], &ok);
        for (unsigned i = 0; ok && i < n; i++)
            if (clang_equalCursors(decls[i], d))
                return d;
    }
    return clang_getNullCursor();
}

static void flatten_commas(tr_ctx *c, CXCursor e, CXCursor *out, int *n)
{
    const char *o = clang_getCursorKind(e) == CXCursor_BinaryOperator ? tr_operator(c, e, NULL) : NULL;
    if (o && strcmp(o, ",") == 0) {
        unsigned k;
        CXCursor *kids = tr_children(c, e, &k);
        if (k == 2) {
            flatten_commas(c, kids[0], out, n);
            flatten_commas(c, kids[1], out, n);
            return;
        }
    }
    if (*n < 9)
        out[(*n)++] = e;
}

/* The other variables' starts and steps (+= or -= an amount), and the
 * leading variable's own step in *inc; -1 when one does not fit. */
static int companions(tr_ctx *c, CXCursor *decls, unsigned n, CXCursor var, CXCursor inc,
                      companion *comp, CXCursor *lead_inc)
{
    CXCursor steps[9];
    int ns = 0, nc = 0;
    flatten_commas(c, inc, steps, &ns);
    if (ns != (int)n)
        return -1;
    bool lead = false;
    for (unsigned i = 0; i < n; i++) {
        int found = -1;
        const char *op = NULL;
        CXCursor amount = clang_getNullCursor();
        bool unit = false;
        for (int j = 0; j < ns && found < 0; j++)
            if (loop_step(c, steps[j], decls[i], &op, &amount, &unit))
                found = j;
        if (found < 0)
            return -1;
        if (clang_equalCursors(decls[i], var)) {
            *lead_inc = steps[found];
            lead = true;
            continue;
        }
        if (strcmp(op, "+=") != 0 && strcmp(op, "-=") != 0)
            return -1;
        companion k = {decls[i], init_of(c, decls[i]), amount, {0}, {0}, op[0] == '-'};
        if (clang_Cursor_isNull(k.from_e) || unit) {
            if (clang_Cursor_isNull(k.from_e))
                return -1;
            k.amount_e = clang_getNullCursor();
        }
        comp[nc++] = k;
    }
    return lead ? nc : -1;
}

static void for_stmt(tr_ctx *c, CXCursor s)
{
    unsigned n;
    CXCursor *kids = tr_children(c, s, &n);
    CXCursor body = kids[n - 1], init = clang_getNullCursor(), cond = clang_getNullCursor(),
             inc = clang_getNullCursor();
    /* which parts are present: by the two semicolons of the header */
    CXSourceRange r = clang_getCursorExtent(s);
    CXFile f;
    clang_getExpansionLocation(clang_getRangeStart(r), &f, NULL, NULL, NULL);
    unsigned hfrom = tr_offset(clang_getRangeStart(r)),
             hto = tr_offset(clang_getRangeStart(clang_getCursorExtent(body)));
    CXToken *toks = NULL;
    unsigned nt = 0, semi[2] = {0, 0}, ns = 0;
    clang_tokenize(c->tu, clang_getRange(clang_getLocationForOffset(c->tu, f, hfrom),
                                         clang_getLocationForOffset(c->tu, f, hto)),
                   &toks, &nt);
    int depth = 0;
    for (unsigned i = 0; i < nt && ns < 2; i++) {
        CXString sp = clang_getTokenSpelling(c->tu, toks[i]);
        const char *t = clang_getCString(sp);
        if (strcmp(t, "(") == 0)
            depth++;
        else if (strcmp(t, ")") == 0)
            depth--;
        else if (strcmp(t, ";") == 0 && depth == 1)
            semi[ns++] = tr_offset(clang_getTokenLocation(c->tu, toks[i]));
        clang_disposeString(sp);
    }
    clang_disposeTokens(c->tu, toks, nt);
    if (ns < 2) {
        tr_add_unknown(c, s, "a for statement the importer cannot read (inside a macro?)");
        return;
    }
    for (unsigned i = 0; i + 1 < n; i++) {
        unsigned o = tr_offset(clang_getRangeStart(clang_getCursorExtent(kids[i])));
        if (o < semi[0])
            init = kids[i];
        else if (o < semi[1])
            cond = kids[i];
        else
            inc = kids[i];
    }
    /* the variable and where it starts */
    CXCursor var = clang_getNullCursor(), from_e = clang_getNullCursor();
    bool ok = false;
    companion comp[8];
    int ncomp = 0;
    if (!clang_Cursor_isNull(init) && clang_getCursorKind(init) == CXCursor_DeclStmt) {
        unsigned dn;
        CXCursor *dk = tr_children(c, init, &dn);
        if (dn == 1 && clang_getCursorKind(dk[0]) == CXCursor_VarDecl) {
            var = dk[0];
            from_e = init_of(c, var);
        } else if (dn > 1 && dn <= 8 && !clang_Cursor_isNull(cond) && !clang_Cursor_isNull(inc)) {
            /* for (a = a0, b = b0; a <= aEnd; a += as, b += bs): the variable the
               condition reads leads; the others move with it */
            var = leading_var(c, cond, dk, dn);
            if (!clang_Cursor_isNull(var)) {
                from_e = init_of(c, var);
                ncomp = companions(c, dk, dn, var, inc, comp, &inc);
                if (ncomp < 0)
                    var = clang_getNullCursor();
            }
        }
    } else if (!clang_Cursor_isNull(init) && clang_getCursorKind(init) == CXCursor_BinaryOperator) {
        const char *o = tr_operator(c, init, NULL);
        unsigned bn;
        CXCursor *bk = tr_children(c, init, &bn);
        if (o && strcmp(o, "=") == 0 && bn == 2) {
            var = referenced(c, bk[0], &ok);
            if (!ok)
                var = clang_getNullCursor();
            from_e = bk[1];
        }
    } else if (clang_Cursor_isNull(init) && !clang_Cursor_isNull(inc)) {
        unsigned in;
        CXCursor *ik = tr_children(c, inc, &in);
        if (in >= 1) {
            var = referenced(c, ik[0], &ok);
            if (!ok)
                var = clang_getNullCursor();
        }
    }
    const char *op = NULL;
    CXCursor amount = clang_getNullCursor();
    bool unit = false;
    if (clang_Cursor_isNull(var) || clang_Cursor_isNull(cond) || clang_Cursor_isNull(inc) ||
        !is_int(clang_getCursorType(var)) || !loop_step(c, inc, var, &op, &amount, &unit)) {
        tr_add_unknown(c, s, "a for loop the model cannot follow (it needs an integer variable, a condition and a step such as i += c)");
        return;
    }
    tr_val fv;
    if (!clang_Cursor_isNull(from_e)) {
        fv = tr_expr(c, from_e);
    } else {
        tr_binding *b = tr_lookup(c, var);
        fv = b ? b->val : tr_unknown_val(c, "the loop variable's start");
    }
    end_statement(c);
    /* what the body assigns changes from one iteration to the next */
    assigned as = {0};
    assigned_in(c, body, &as);
    tr_val *olds = calloc(as.n + 1, sizeof *olds), *afters = calloc(as.n + 1, sizeof *afters);
    if (!olds || !afters) {
        free(olds);
        free(afters);
        free(as.decls);
        free(as.count);
        c->failed = true;
        return;
    }
    for (size_t i = 0; i < as.n; i++) {
        if (clang_equalCursors(as.decls[i], var))
            continue;
        tr_binding *b = tr_lookup(c, as.decls[i]);
        enum CXCursorKind dk = clang_getCursorKind(as.decls[i]);
        if (!b && dk != CXCursor_ParmDecl)
            continue;
        olds[i] = b ? b->val : tr_decl_value(c, as.decls[i], clang_getNullCursor());
        char *vn = tr_cx(c, clang_getCursorSpelling(as.decls[i]));
        if (olds[i].kind == V_INT || olds[i].kind == V_PTR || olds[i].kind == V_UNKNOWN)
            tr_bind(c, as.decls[i],
                    tr_unknown_val(c, tr_printf(c, "'%s', which the loop at source line %d changes in every iteration",
                                                vn, tr_line(s))));
    }
    char *cname = tr_cx(c, clang_getCursorSpelling(var));
    const char *mname = tr_new_name(c, cname);
    size_t saved = c->nenv;
    tr_push(c, var, tr_int(c, mname, 16));
    for (int k = 0; k < ncomp; k++)
    {
        comp[k].from = tr_expr(c, comp[k].from_e);
        comp[k].amount = clang_Cursor_isNull(comp[k].amount_e) ? tr_int(c, "1", 16)
                                                               : tr_expr(c, comp[k].amount_e);
    }
    tr_val sv = unit ? tr_int(c, "1", 16) : tr_expr(c, amount);
    tr_val cv = tr_expr(c, cond);
    end_statement(c);
    if (fv.kind != V_INT || sv.kind != V_INT || cv.kind != V_INT) {
        tr_val bad = fv.kind != V_INT ? fv : sv.kind != V_INT ? sv : cv;
        c->nenv = saved;
        tr_add_unknown(c, s, "a loop whose %s depends on %s",
                       fv.kind != V_INT ? "start" : sv.kind != V_INT ? "step" : "condition",
                       bad.why ? bad.why : "data");
        free(as.decls);
        free(as.count);
        free(olds);
        free(afters);
        return;
    }
    /* `to` form: var < X or var <= X with an ascending step */
    const char *to = NULL;
    CXCursor sc = strip(c, cond);
    if (clang_getCursorKind(sc) == CXCursor_BinaryOperator &&
        (strcmp(op, "+=") == 0 || strcmp(op, "*=") == 0 || strcmp(op, "<<=") == 0)) {
        unsigned cn;
        CXCursor *ck = tr_children(c, sc, &cn);
        const char *co = tr_operator(c, sc, NULL);
        bool lv = false, rv2 = false;
        if (cn == 2 && co) {
            CXCursor l = referenced(c, ck[0], &lv);
            CXCursor rr = referenced(c, ck[1], &rv2);
            lv = lv && clang_equalCursors(l, var);
            rv2 = rv2 && clang_equalCursors(rr, var);
            if (lv && !rv2 && (strcmp(co, "<") == 0 || strcmp(co, "<=") == 0)) {
                tr_val x = tr_expr(c, ck[1]);
                if (x.kind == V_INT && !mentions(x.text, mname))
                    to = strcmp(co, "<") == 0 ? x.text
                                              : tr_printf(c, "%s + 1", x.prec >= 12 ? x.text : tr_printf(c, "(%s)", x.text));
            } else if (rv2 && !lv && (strcmp(co, ">") == 0 || strcmp(co, ">=") == 0)) {
                tr_val x = tr_expr(c, ck[0]);
                if (x.kind == V_INT && !mentions(x.text, mname))
                    to = strcmp(co, ">") == 0 ? x.text
                                              : tr_printf(c, "%s + 1", x.prec >= 12 ? x.text : tr_printf(c, "(%s)", x.text));
            }
            end_statement(c);
        }
    }
    if (to && strcmp(op, "+=") == 0)
        step_pointers(c, body, &as, olds, afters, mname, fv, sv, to);
    for (int k = 0; k < ncomp; k++) {
        tr_val cf = comp[k].from, a = comp[k].amount;
        if (strcmp(op, "+=") != 0 || cf.kind != V_INT || a.kind != V_INT ||
            mentions(a.text, mname)) {
            tr_push(c, comp[k].decl, tr_unknown_val(c, "a loop variable that moves with another in a way the model cannot say"));
            continue;
        }
        const char *iter = strcmp(fv.text, "0") == 0
                               ? (strcmp(sv.text, "1") == 0 ? mname : tr_printf(c, "%s / %s", mname, paren(c, sv, 13)))
                               : tr_printf(c, "(%s - %s) / %s", mname, paren(c, fv, 12), paren(c, sv, 13));
        tr_push(c, comp[k].decl,
                tr_int(c, tr_printf(c, "%s %s (%s) * %s", paren(c, cf, 12), comp[k].minus ? "-" : "+", iter,
                                    paren(c, a, 13)),
                       12));
    }
    const char *step = strcmp(op, "+=") == 0 ? sv.text : tr_printf(c, "%s %s", op, sv.text);
    if (to)
        tr_emit(c, "<loop var=\"%s\" from=\"%s\" to=\"%s\"%s%s%s>", mname,
                tr_xml_escape(c, fv.text), tr_xml_escape(c, to),
                unit && strcmp(op, "+=") == 0 ? "" : " step=\"",
                unit && strcmp(op, "+=") == 0 ? "" : tr_xml_escape(c, step),
                unit && strcmp(op, "+=") == 0 ? "" : "\"");
    else
        tr_emit(c, "<loop var=\"%s\" from=\"%s\" while=\"%s\" step=\"%s\">", mname,
                tr_xml_escape(c, fv.text), tr_xml_escape(c, cv.text),
                tr_xml_escape(c, tr_printf(c, "%s %s", op, sv.text)));
    c->indent++;
    c->loop_depth++;
    int saved_nolet = c->no_let;
    c->no_let = 0;
    if (clang_getCursorKind(body) == CXCursor_CompoundStmt)
        tr_body(c, body);
    else {
        CXCursor one[1] = {body};
        (void)one;
        tr_stmt(c, body);
    }
    c->no_let = saved_nolet;
    c->loop_depth--;
    c->indent--;
    tr_emit(c, "</loop>");
    c->nenv = saved;
    for (size_t i = 0; i < as.n; i++)
        if (afters[i].kind == V_PTR)
            tr_bind(c, as.decls[i], afters[i]);
        else if (tr_lookup(c, as.decls[i])) {
            tr_val old = tr_lookup(c, as.decls[i])->val;
            if (old.kind != V_DATA) {
                char *vn = tr_cx(c, clang_getCursorSpelling(as.decls[i]));
                tr_bind(c, as.decls[i],
                        tr_unknown_val(c, tr_printf(c, "'%s' after the loop at source line %d", vn,
                                                    tr_line(s))));
            }
        }
    if (clang_getCursorKind(init) != CXCursor_DeclStmt)
        tr_bind(c, var, tr_unknown_val(c, tr_printf(c, "'%s' after the loop at source line %d",
                                                    cname, tr_line(s))));
    free(as.decls);
    free(as.count);
    free(olds);
    free(afters);
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
    if (skipped(c, s))
        return;
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
        end_statement(c);
        return;
    case CXCursor_IfStmt:
        if_stmt(c, s);
        return;
    case CXCursor_ForStmt:
        for_stmt(c, s);
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
        end_statement(c);
        return;
    }
    char *ks = tr_cx(c, clang_getCursorKindSpelling(k));
    tr_add_unknown(c, s, "a statement the importer does not translate (%s)", ks);
}
