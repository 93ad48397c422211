/* translate_loop.c: for-loops to <loop> (translate.h): the variable, its
 * start, step and bound; variables stepped with it; pointers the body steps
 * by a constant; what the body assigns, which changes from one iteration to
 * the next. The body itself is statements: it goes to translate_stmt.c,
 * above this file, through c->stmts (tr_stmt_fns in translate.h). */
#include "import/translate.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "util/array.h"

typedef struct {
    tr_ctx *c;
    CXCursor *decls;
    int *count; /* assignments to each, anywhere in the body */
    size_t n, cap, cap_count; /* decls[] and count[] grow together */
    /* references the body declares, each bound to a variable (int &jr = j): a write
     * through refs[k] assigns vars[k] */
    CXCursor *refs, *vars;
    size_t nrefs, cap_refs, cap_vars;
} assigned;

/* The variable a write to `d` assigns: through a reference to a local, the local. */
static CXCursor written_var(assigned *a, CXCursor d)
{
    for (size_t i = a->nrefs; i-- > 0;)
        if (clang_equalCursors(a->refs[i], d))
            return a->vars[i];
    return tr_target(a->c, d); /* one declared before the loop (tr_reference) */
}

static void add_assigned(assigned *a, CXCursor target)
{
    CXCursor s = tr_strip(a->c, target);
    if (clang_getCursorKind(s) != CXCursor_DeclRefExpr)
        return;
    CXCursor d = written_var(a, clang_getCursorReferenced(s)); /* jr = 0 assigns j */
    tr_binding *b = tr_lookup(a->c, d);
    if (b && b->ref)
        return; /* a store through a reference: the reference names the same element */
    for (size_t i = 0; i < a->n; i++)
        if (clang_equalCursors(a->decls[i], d)) {
            a->count[i]++;
            return;
        }
    if (!RC_GROW(a->decls, a->cap, a->n + 1) || !RC_GROW(a->count, a->cap_count, a->n + 1))
        return;
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
    } else if (k == CXCursor_VarDecl && tr_is_writable_reference(clang_getCursorType(cur))) {
        CXCursor init = tr_last_expr(a->c, cur);
        if (!clang_Cursor_isNull(init))
            init = tr_strip(a->c, init);
        if (!clang_Cursor_isNull(init) && clang_getCursorKind(init) == CXCursor_DeclRefExpr &&
            RC_GROW(a->refs, a->cap_refs, a->nrefs + 1) &&
            RC_GROW(a->vars, a->cap_vars, a->nrefs + 1)) {
            a->vars[a->nrefs] = written_var(a, clang_getCursorReferenced(init));
            a->refs[a->nrefs++] = cur;
        }
    } else if (k == CXCursor_CallExpr) {
        /* next(j) with next(int &k): the inlined body may assign j */
        int nargs = clang_Cursor_getNumArguments(cur);
        for (int i = 0; i < nargs; i++)
            if (tr_is_writable_reference(tr_call_param_type(a->c, cur, i)))
                add_assigned(a, clang_Cursor_getArgument(cur, i));
    }
    return CXChildVisit_Recurse;
}

/* The variables declared outside `body` that it assigns. */
static void assigned_in(tr_ctx *c, CXCursor body, assigned *a)
{
    a->c = c;
    find_assigned(body, body, a); /* a body of one statement: for (...) q += 1; */
    clang_visitChildren(body, find_assigned, a);
    free(a->refs);
    free(a->vars);
    a->refs = a->vars = NULL;
    a->nrefs = 0;
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

static CXCursor referenced(tr_ctx *c, CXCursor e, bool *ok)
{
    CXCursor s = tr_strip(c, e);
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
        CXCursor r = tr_strip(c, kids[1]);
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

/* Of the declared variables, the one the condition compares directly. */
static CXCursor leading_var(tr_ctx *c, CXCursor cond, CXCursor *decls, unsigned n)
{
    CXCursor sc = tr_strip(c, cond);
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
        companion k = {decls[i], tr_last_expr(c, decls[i]), amount, {0}, {0}, op[0] == '-'};
        if (clang_Cursor_isNull(k.from_e) || unit) {
            if (clang_Cursor_isNull(k.from_e))
                return -1;
            k.amount_e = clang_getNullCursor();
        }
        comp[nc++] = k;
    }
    return lead ? nc : -1;
}

/* Whether the loop variable is of an unsigned type (unsigned, size_t): nvcc then unrolls a
 * loop of unknown bounds only when its step is 1 (<loop unsigned="true">, docs/inputs.md). */
static bool unsigned_var(CXCursor var)
{
    switch (clang_getCanonicalType(clang_getCursorType(var)).kind) {
    case CXType_UChar: case CXType_Char_U: case CXType_UShort: case CXType_UInt:
    case CXType_ULong: case CXType_ULongLong: case CXType_UInt128:
        return true;
    default:
        return false;
    }
}

/* Whether a loop body is one dependent chain of arithmetic: it touches no memory (no
 * subscript, dereference, arrow or call), holds no loop of its own, and the one
 * floating-point variable declared outside it that it assigns is updated from itself
 * (s += x, a++, s = s * t + u), so every iteration's FLOPs wait for the last's
 * (<loop dependent="true">, docs/inputs.md). Several such variables are independent
 * chains, which the attribute (every FMA of an iteration on one chain) does not describe. */
typedef struct {
    tr_ctx *c;
    CXCursor acc;     /* the accumulator */
    bool other;       /* memory, a call or a nested loop */
    bool self_update; /* an assignment to acc reads acc */
    bool plain_write; /* an assignment to acc that does not read it */
} chain_scan;

/* Whether an expression mentions the variable `decl` anywhere below it. */
typedef struct {
    CXCursor decl;
    bool found;
} ref_scan;

static enum CXChildVisitResult find_ref(CXCursor cur, CXCursor parent, CXClientData data)
{
    (void)parent;
    ref_scan *rs = data;
    if (clang_getCursorKind(cur) == CXCursor_DeclRefExpr &&
        clang_equalCursors(clang_getCursorReferenced(cur), rs->decl)) {
        rs->found = true;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Recurse;
}

static bool refers_to(CXCursor e, CXCursor decl)
{
    ref_scan rs = {decl, false};
    if (find_ref(e, e, &rs) != CXChildVisit_Break)
        clang_visitChildren(e, find_ref, &rs);
    return rs.found;
}

/* p->x: a member read through a pointer, from memory */
static bool arrow(tr_ctx *c, CXCursor cur)
{
    if (clang_getCursorKind(cur) != CXCursor_MemberRefExpr)
        return false;
    unsigned n;
    CXCursor *kids = tr_children(c, cur, &n);
    return n >= 1 && tr_is_pointer_type(clang_getCursorType(kids[0]));
}

static enum CXChildVisitResult scan_chain(CXCursor cur, CXCursor parent, CXClientData data)
{
    (void)parent;
    chain_scan *cs = data;
    enum CXCursorKind k = clang_getCursorKind(cur);
    const char *op = k == CXCursor_UnaryOperator || k == CXCursor_BinaryOperator ||
                             k == CXCursor_CompoundAssignOperator
                         ? tr_operator(cs->c, cur, NULL)
                         : NULL;
    if (k == CXCursor_ArraySubscriptExpr || k == CXCursor_CallExpr || k == CXCursor_ForStmt ||
        k == CXCursor_WhileStmt || k == CXCursor_DoStmt ||
        (k == CXCursor_UnaryOperator && op && strcmp(op, "*") == 0) || arrow(cs->c, cur)) {
        cs->other = true;
        return CXChildVisit_Break;
    }
    bool update = k == CXCursor_CompoundAssignOperator ||
                  (k == CXCursor_UnaryOperator && op && (strcmp(op, "++") == 0 || strcmp(op, "--") == 0));
    bool assign = k == CXCursor_BinaryOperator && op && strcmp(op, "=") == 0;
    if (update || assign) {
        unsigned n;
        CXCursor *kids = tr_children(cs->c, cur, &n);
        bool named = false;
        CXCursor target = n >= 1 ? referenced(cs->c, kids[0], &named) : clang_getNullCursor();
        if (named && clang_equalCursors(target, cs->acc)) {
            if (update || (n == 2 && refers_to(kids[1], cs->acc)))
                cs->self_update = true;
            else
                cs->plain_write = true;
        }
    }
    return CXChildVisit_Recurse;
}

/* Whether the body is such a chain: one floating-point variable among those it assigns
 * (as; the loop variable aside), updated from itself, and nothing else. */
static bool dependent_chain(tr_ctx *c, CXCursor body, const assigned *as, CXCursor var)
{
    CXCursor acc = clang_getNullCursor();
    for (size_t i = 0; i < as->n; i++) {
        if (clang_equalCursors(as->decls[i], var) ||
            tr_float_kind(c, clang_getCursorType(as->decls[i])) < 0)
            continue;
        if (!clang_Cursor_isNull(acc))
            return false; /* two chains */
        acc = as->decls[i];
    }
    if (clang_Cursor_isNull(acc))
        return false;
    chain_scan cs = {c, acc, false, false, false};
    if (scan_chain(body, body, &cs) != CXChildVisit_Break)
        clang_visitChildren(body, scan_chain, &cs);
    return !cs.other && cs.self_update && !cs.plain_write;
}

void tr_for_stmt(tr_ctx *c, CXCursor s)
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
            from_e = tr_last_expr(c, var);
        } else if (dn > 1 && dn <= 8 && !clang_Cursor_isNull(cond) && !clang_Cursor_isNull(inc)) {
            /* for (a = a0, b = b0; a <= aEnd; a += as, b += bs): the variable the
               condition reads leads; the others move with it */
            var = leading_var(c, cond, dk, dn);
            if (!clang_Cursor_isNull(var)) {
                from_e = tr_last_expr(c, var);
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
        !tr_is_int(clang_getCursorType(var)) || !loop_step(c, inc, var, &op, &amount, &unit)) {
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
    tr_end_statement(c);
    /* what the body assigns changes from one iteration to the next */
    assigned as = {0};
    assigned_in(c, body, &as);
    for (size_t i = 0; i < as.n; i++)
        if (clang_equalCursors(as.decls[i], var)) {
            /* the model's loop steps its variable only as the header says */
            free(as.decls);
            free(as.count);
            tr_add_unknown(c, s, "a for loop whose body changes its variable '%s'",
                           tr_cx(c, clang_getCursorSpelling(var)));
            return;
        }
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
    tr_end_statement(c);
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
    CXCursor sc = tr_strip(c, cond);
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
            tr_end_statement(c);
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
    /* the variable differs from lane to lane when its start, step or bound does */
    tr_name_from(c, mname, fv.text);
    tr_name_from(c, mname, sv.text);
    tr_name_from(c, mname, cv.text);
    const char *dep = dependent_chain(c, body, &as, var) ? " dependent=\"true\"" : "";
    if (to)
        tr_emit(c, "<loop var=\"%s\" from=\"%s\" to=\"%s\"%s%s%s%s%s>", mname,
                tr_xml_escape(c, fv.text), tr_xml_escape(c, to),
                unit && strcmp(op, "+=") == 0 ? "" : " step=\"",
                unit && strcmp(op, "+=") == 0 ? "" : tr_xml_escape(c, step),
                unit && strcmp(op, "+=") == 0 ? "" : "\"",
                unsigned_var(var) ? " unsigned=\"true\"" : "", dep);
    else
        tr_emit(c, "<loop var=\"%s\" from=\"%s\" while=\"%s\" step=\"%s\"%s>", mname,
                tr_xml_escape(c, fv.text), tr_xml_escape(c, cv.text),
                tr_xml_escape(c, tr_printf(c, "%s %s", op, sv.text)), dep);
    c->indent++;
    c->loop_depth++;
    int saved_nolet = c->no_let;
    c->no_let = 0;
    /* the body is statements: translate_stmt.c's, through c->stmts */
    if (clang_getCursorKind(body) == CXCursor_CompoundStmt)
        c->stmts->body(c, body);
    else
        c->stmts->stmt(c, body);
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

