/* translate_expr.c: expressions to model expressions, loads, stores,
 * atomics and FLOPs (translate.h): the walk over an expression's tree,
 * calls included, whose arguments are expressions; a __device__ function
 * is inlined, its body sent to the statements through c->stmts. The work
 * on the values found (composing, pointers, loads) is translate_value.c's.
 *
 * FLOPs are counted as the docs state (docs/import.md, "Counting
 * FLOPs"): one per floating-point +, -, *, / (compound forms and ++/--
 * included; tr_arith counts the plain ones) and per call of a math
 * function, two per fma; none for comparisons, negation, conversions,
 * atomics or operations on constants alone, which the compiler folds.
 * Conversions and the special functions the Programming Guide names are
 * instructions on their pipes ("Counting conversions and special
 * functions": count_conversion, tr_special_count).
 * A + or - whose operand is a multiply of its precision is one FMA with
 * it, as nvcc contracts them (binary, tr_fma_pair): both FLOPs fused;
 * any other add, subtract or multiply, and ++/--, is an instruction of
 * its own (unfused). Divisions and calls are counted fused, as before.
 */
#include "import/translate.h"

#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- effects */

/* Effects translated aside, to be put under a guard or dropped. */
typedef struct {
    rc_buffer saved;
    size_t nseen;
} capture;

static void capture_begin(tr_ctx *c, capture *cap)
{
    tr_flush_flops(c);
    cap->saved = c->out;
    cap->nseen = c->nseen;
    rc_buffer empty = {0};
    c->out = empty;
    c->indent++;
}

/* Returns the captured text (arena), "" when nothing was emitted. */
static const char *capture_end(tr_ctx *c, capture *cap)
{
    tr_flush_flops(c);
    c->indent--;
    size_t n = 0;
    char *t = rc_buffer_take(&c->out, &n);
    const char *r = t ? tr_strdup(c, t) : "";
    free(t);
    c->out = cap->saved;
    c->nseen = cap->nseen;
    return r;
}

static void put_raw(tr_ctx *c, const char *text)
{
    rc_buffer_puts(&c->out, text);
}

static tr_val negate(tr_ctx *c, tr_val v)
{
    return tr_int(c, tr_negated(c, v), P_UNARY);
}

static void guarded(tr_ctx *c, tr_val test, const char *body)
{
    if (!*body)
        return;
    tr_emit(c, "<when test=\"%s\">", tr_xml_escape(c, test.text));
    put_raw(c, body);
    tr_emit(c, "</when>");
}

/* ---------------------------------------------------------------- assignment */

static void assign_local(tr_ctx *c, CXCursor decl, tr_val v, int line)
{
    (void)line;
    CXType t = clang_getCursorType(decl);
    if (v.kind == V_INT && tr_is_integer_type(t) && v.prec < P_PRIMARY && !c->no_let) {
        char *cname = tr_cx(c, clang_getCursorSpelling(decl));
        const char *name = tr_new_name(c, cname);
        tr_flush_flops(c);
        tr_emit(c, "<let name=\"%s\" value=\"%s\"/>", name, tr_xml_escape(c, v.text));
        tr_name_from(c, name, v.text);
        v = tr_int(c, name, P_PRIMARY);
    } else if (v.kind == V_INT && !tr_is_integer_type(t) && !tr_is_pointer_type(t))
        v = tr_data(c, "a floating-point value");
    tr_bind(c, decl, v);
}

static CXCursor referenced_local(tr_ctx *c, CXCursor lhs, bool *ok)
{
    CXCursor s = tr_strip(c, lhs);
    *ok = false;
    if (clang_getCursorKind(s) == CXCursor_DeclRefExpr) {
        CXCursor d = tr_target(c, clang_getCursorReferenced(s)); /* jr = 0 with int &jr = j */
        enum CXCursorKind dk = clang_getCursorKind(d);
        if ((dk == CXCursor_VarDecl || dk == CXCursor_ParmDecl) &&
            (tr_lookup(c, d) || dk == CXCursor_ParmDecl)) {
            *ok = true;
            return d;
        }
    }
    return s;
}

/* ---------------------------------------------------------------- stores */

/* lhs = v (v already translated). */
void tr_store_to(tr_ctx *c, CXCursor lhs, tr_val v)
{
    tr_binding *rb = tr_reference_of(c, lhs);
    if (rb) { /* r = v with float &r = a[i]: a store to a[i] */
        tr_store_through(c, rb, lhs);
        return;
    }
    bool local;
    CXCursor d = referenced_local(c, lhs, &local);
    if (local) {
        assign_local(c, d, v, tr_line(lhs));
        return;
    }
    CXCursor s = tr_strip(c, lhs);
    if (clang_getCursorKind(s) == CXCursor_MemberRefExpr) {
        unsigned n;
        CXCursor *kids = tr_children(c, s, &n);
        bool l2 = false;
        if (n == 1 && !tr_reference_of(c, kids[0]))
            referenced_local(c, kids[0], &l2);
        if (l2)
            return; /* a member of a local struct or vector: a register */
        tr_mark_written(c, lhs);
        tr_add_unknown(c, lhs, "a store to a member of an array element (the model stores whole elements)");
        return;
    }
    tr_val p = tr_addr(c, lhs);
    if (p.kind == V_PTR)
        tr_access(c, "store", p);
    else if (p.kind == V_UNKNOWN) {
        tr_mark_written(c, lhs);
        tr_add_unknown(c, lhs, "store: %s", p.why);
    }
}

/* ---------------------------------------------------------------- references */

tr_binding tr_reference(tr_ctx *c, CXCursor init)
{
    tr_binding b = {.decl = clang_getNullCursor()};
    tr_binding *named = tr_reference_of(c, init);
    if (named) { /* float &s = r: r's element */
        b = *named;
        return b;
    }
    CXCursor decl = clang_getNullCursor();
    CXCursor s = tr_strip(c, init);
    bool local;
    CXCursor target = referenced_local(c, s, &local);
    if (local) { /* int &j = i: i, read and assigned as j */
        b.to_local = true;
        b.target = target;
        return b;
    }
    if (tr_root_array(c, s, &decl) == ROOT_NONE) {
        b.val = tr_expr(c, init); /* a register array's element, a member of a local */
        return b;
    }
    b.ref = true;
    enum CXCursorKind k = clang_getCursorKind(s);
    const char *op = k == CXCursor_UnaryOperator ? tr_operator(c, s, NULL) : NULL;
    if (k == CXCursor_ArraySubscriptExpr || (op && strcmp(op, "*") == 0)) {
        b.elem = tr_addr(c, s);
        if (b.elem.kind == V_UNKNOWN) /* read where bound, as a value would be */
            b.val = tr_load_of(c, s, b.elem, op ? "a load through a pointer" : "a load");
        return b;
    }
    /* a member of an element (a[i].x), a call's result, a choice (c ? a[i] : b[i]) */
    b.val = tr_expr(c, init);
    b.elem = tr_unknown_val(c, k == CXCursor_MemberRefExpr
                                   ? "a member of an array element (the model stores whole elements)"
                                   : "an element the model cannot follow");
    return b;
}

/* ---------------------------------------------------------------- addresses */

tr_val tr_addr(tr_ctx *c, CXCursor e)
{
    e = tr_strip(c, e);
    enum CXCursorKind k = clang_getCursorKind(e);
    unsigned n;
    CXCursor *kids = tr_children(c, e, &n);
    if (k == CXCursor_ArraySubscriptExpr && n == 2) {
        tr_val base = tr_expr(c, kids[0]);
        tr_val idx = tr_expr(c, kids[1]);
        if (base.kind == V_REGS)
            return base;
        if (base.kind != V_PTR)
            return tr_unknown_val(c, base.why ? base.why : "the array is not known");
        if (idx.kind != V_INT)
            return tr_unknown_val(c, tr_printf(c, "the index into '%s' depends on %s",
                                               c->arrays[base.array].name,
                                               idx.why ? idx.why : "data"));
        const char *stride = tr_elems_of_type(c, clang_getCursorType(e));
        if (!stride)
            return tr_unknown_val(c, "an array extent the model cannot say");
        tr_val scaled = strcmp(stride, "1") == 0
                            ? idx
                            : tr_compose(c, idx, "*", tr_int(c, stride, strchr(stride, ' ') ? P_MUL : P_PRIMARY));
        tr_val off = tr_compose(c, tr_int(c, base.text, base.prec), "+", scaled);
        return tr_ptr(base.array, off.text, off.prec);
    }
    if (k == CXCursor_UnaryOperator && n == 1) {
        const char *op = tr_operator(c, e, NULL);
        if (op && strcmp(op, "*") == 0) {
            tr_val p = tr_expr(c, kids[0]);
            if (p.kind == V_PTR || p.kind == V_REGS || p.kind == V_UNKNOWN)
                return p;
            return tr_unknown_val(c, "a pointer the model cannot follow");
        }
    }
    tr_binding *rb = tr_reference_of(c, e);
    if (rb)
        return rb->elem; /* &r, with float &r = a[i]: &a[i] */
    if (k == CXCursor_DeclRefExpr || k == CXCursor_MemberRefExpr) {
        tr_val v = tr_expr(c, e);
        if (v.kind == V_PTR || v.kind == V_REGS)
            return v;
        return tr_unknown_val(c, "the address of a variable");
    }
    tr_val v = tr_expr(c, e);
    if (v.kind == V_PTR || v.kind == V_UNKNOWN)
        return v;
    return tr_unknown_val(c, "an address the model cannot follow");
}

/* ---------------------------------------------------------------- references */

static tr_val decl_ref(tr_ctx *c, CXCursor e)
{
    return tr_decl_value(c, clang_getCursorReferenced(e), e);
}

tr_val tr_decl_value(tr_ctx *c, CXCursor d, CXCursor e)
{
    tr_binding *b = tr_lookup(c, d);
    if (b && b->to_local)
        return tr_decl_value(c, b->target, e);
    if (b)
        return b->ref ? tr_read_through(c, b, e) : b->val;
    enum CXCursorKind dk = clang_getCursorKind(d);
    char *name = tr_cx(c, clang_getCursorSpelling(d));
    CXType t = clang_getCursorType(d);
    if (dk == CXCursor_NonTypeTemplateParameter) {
        tr_use_param(c, name);
        return tr_int(c, name, P_PRIMARY);
    }
    if (dk == CXCursor_EnumConstantDecl)
        return tr_int(c, tr_printf(c, "%lld", clang_getEnumConstantDeclValue(d)), P_PRIMARY);
    if (strcmp(name, "warpSize") == 0)
        return tr_int(c, "warpSize", P_PRIMARY);
    if (dk == CXCursor_ParmDecl) {
        if (tr_is_pointer_type(t)) {
            /* the pointee as written (a template's T, bound by name), or
             * through a typedef of the pointer type */
            CXType el = clang_getPointeeType(t);
            if (el.kind == CXType_Invalid)
                el = clang_getPointeeType(clang_getCanonicalType(t));
            int a = tr_array_for(c, d, name, el, "global", NULL, 0, tr_line(d));
            if (a < 0)
                return tr_unknown_val(c, tr_printf(c, "the element type of '%s' is not a C scalar or CUDA vector type",
                                                   name));
            return tr_ptr(a, "0", P_PRIMARY);
        }
        if (tr_is_integer_type(t) || t.kind == CXType_Unexposed) {
            if (!tr_is_integer_type(t) && tr_float_kind(c, t) >= 0)
                return tr_data(c, tr_printf(c, "the floating-point param '%s'", name));
            tr_use_param(c, name);
            return tr_int(c, name, P_PRIMARY);
        }
        if (tr_float_kind(c, t) >= 0)
            return tr_data(c, tr_printf(c, "the floating-point param '%s'", name));
        return tr_unknown_val(c, tr_printf(c, "the param '%s' of a type the model has no place for", name));
    }
    if (dk == CXCursor_VarDecl) {
        /* a file-scope variable: a constant, or a __device__/__constant__ array */
        CXEvalResult r = clang_Cursor_Evaluate(e);
        if (r) {
            if (clang_EvalResult_getKind(r) == CXEval_Int) {
                long long v = clang_EvalResult_getAsLongLong(r);
                clang_EvalResult_dispose(r);
                return tr_int(c, tr_printf(c, "%lld", v), v < 0 ? P_UNARY : P_PRIMARY);
            }
            clang_EvalResult_dispose(r);
        }
        if (tr_is_array_type(t)) {
            const char *len = tr_elems_of_type(c, t);
            bool constant = false;
            unsigned n;
            CXCursor *kids = tr_children(c, d, &n);
            for (unsigned i = 0; i < n; i++)
                if (clang_getCursorKind(kids[i]) == CXCursor_CUDAConstantAttr)
                    constant = true;
            CXType el = clang_getCanonicalType(t);
            while (tr_is_array_type(el))
                el = clang_getArrayElementType(el);
            int a = tr_array_for(c, d, name, el, constant ? "constant" : "global", len, 1000,
                                 tr_line(d));
            if (a < 0 || !len)
                return tr_unknown_val(c, tr_printf(c, "the array '%s' has a type the model has no place for", name));
            return tr_ptr(a, "0", P_PRIMARY);
        }
        if (tr_float_kind(c, t) >= 0)
            return tr_data(c, tr_printf(c, "the variable '%s'", name));
        return tr_unknown_val(c, tr_printf(c, "the variable '%s', whose value the model does not know", name));
    }
    return tr_unknown_val(c, tr_printf(c, "'%s'", name));
}

static tr_val member_ref(tr_ctx *c, CXCursor e)
{
    unsigned n;
    CXCursor *kids = tr_children(c, e, &n);
    char *member = tr_cx(c, clang_getCursorSpelling(e));
    if (n == 1) {
        CXCursor b = tr_strip(c, kids[0]);
        if (clang_getCursorKind(b) == CXCursor_DeclRefExpr) {
            char *bn = tr_cx(c, clang_getCursorSpelling(b));
            if ((strcmp(bn, "threadIdx") == 0 || strcmp(bn, "blockIdx") == 0 ||
                 strcmp(bn, "blockDim") == 0 || strcmp(bn, "gridDim") == 0) &&
                (strcmp(member, "x") == 0 || strcmp(member, "y") == 0 || strcmp(member, "z") == 0))
                return tr_int(c, tr_printf(c, "%s.%s", bn, member), P_PRIMARY);
        }
        tr_val base = tr_expr(c, kids[0]);
        if (base.kind == V_PTR) /* p->x */
            return tr_load_of(c, e, base, "a member through a pointer");
        if (base.kind == V_UNKNOWN)
            return base;
    }
    return tr_data(c, tr_printf(c, "the member '%s'", member));
}

/* ---------------------------------------------------------------- operators */

static tr_val unary(tr_ctx *c, CXCursor e)
{
    unsigned n;
    CXCursor *kids = tr_children(c, e, &n);
    bool postfix = false;
    const char *op = tr_operator(c, e, &postfix);
    tr_val folded;
    if (n == 1 && !op && tr_try_const(c, e, &folded))
        return folded;
    if (n != 1 || !op)
        return tr_unknown_val(c, "an operator inside a macro the importer cannot read");
    if (strcmp(op, "&") == 0)
        return tr_addr(c, kids[0]);
    if (strcmp(op, "*") == 0) {
        tr_val p = tr_expr(c, kids[0]);
        return tr_load_of(c, e, p, "a load through a pointer");
    }
    if (strcmp(op, "++") == 0 || strcmp(op, "--") == 0) {
        tr_binding *rb = tr_reference_of(c, kids[0]);
        if (rb) { /* through a reference: as a[i]++ */
            tr_val v = tr_expr(c, kids[0]);
            tr_add_unfused_flops(c, tr_expr_float_kind(c, kids[0]), 1);
            tr_store_through(c, rb, e);
            return v;
        }
        bool local;
        CXCursor d = referenced_local(c, kids[0], &local);
        const char *aop = op[0] == '+' ? "+" : "-";
        if (local) {
            tr_val old = tr_expr(c, kids[0]);
            tr_val nv;
            if (old.kind == V_INT)
                nv = tr_compose(c, old, aop, tr_int(c, "1", P_PRIMARY));
            else if (old.kind == V_PTR) {
                const char *stride = tr_pointee_stride(c, clang_getCursorType(d));
                tr_val off = tr_compose(c, tr_int(c, old.text, old.prec), aop,
                                     tr_int(c, stride, P_MUL));
                nv = tr_ptr(old.array, off.text, off.prec);
            } else {
                tr_add_unfused_flops(c, tr_float_kind(c, clang_getCursorType(d)), 1);
                nv = old;
            }
            assign_local(c, d, nv, tr_line(e));
            return postfix ? old : tr_lookup(c, d)->val;
        }
        tr_val p = tr_addr(c, kids[0]);
        tr_val v = tr_load_of(c, e, p, "an increment");
        tr_add_unfused_flops(c, tr_expr_float_kind(c, kids[0]), 1);
        if (p.kind == V_PTR)
            tr_access(c, "store", p);
        else if (p.kind == V_UNKNOWN)
            tr_mark_written(c, kids[0]);
        return v;
    }
    tr_val v = tr_expr(c, kids[0]);
    if (v.kind != V_INT)
        return v.kind == V_UNKNOWN ? v : tr_data(c, v.why);
    if (strcmp(op, "!") == 0)
        return negate(c, v);
    if (strcmp(op, "+") == 0)
        return v;
    return tr_int(c, tr_printf(c, "%s%s", op, tr_operand(c, v, P_UNARY, false)), P_UNARY);
}

static tr_val binary_op(tr_ctx *c, CXCursor e, bool compound)
{
    unsigned n;
    CXCursor *kids = tr_children(c, e, &n);
    const char *op = tr_operator(c, e, NULL);
    tr_val folded;
    if (n == 2 && !op && !compound && tr_try_const(c, e, &folded))
        return folded; /* a constant inside a macro: clang folds it */
    if (n != 2 || !op)
        return tr_unknown_val(c, "an operator inside a macro the importer cannot read");
    if (!compound && strcmp(op, "=") == 0) {
        tr_val v = tr_expr(c, kids[1]);
        tr_store_to(c, kids[0], v);
        return v;
    }
    if (strcmp(op, ",") == 0) {
        tr_expr(c, kids[0]);
        return tr_expr(c, kids[1]);
    }
    if (!compound && (strcmp(op, "&&") == 0 || strcmp(op, "||") == 0)) {
        tr_val l = tr_expr(c, kids[0]);
        capture cap;
        capture_begin(c, &cap);
        tr_val r = tr_expr(c, kids[1]);
        const char *body = capture_end(c, &cap);
        if (*body) {
            if (l.kind == V_INT)
                guarded(c, op[0] == '&' ? l : negate(c, l), body);
            else
                tr_add_unknown(c, e, "the right operand of '%s' reads memory only when the left one, which depends on data, lets it",
                               op);
        }
        if (l.kind == V_INT && r.kind == V_INT)
            return tr_compose(c, l, op, r);
        return tr_data(c, "a condition on data");
    }
    if (compound) {
        size_t ol = strlen(op);
        if (ol < 2 || op[ol - 1] != '=')
            return tr_unknown_val(c, "an operator the importer cannot read");
        const char *bop = tr_printf(c, "%.*s", (int)(ol - 1), op);
        tr_val r = tr_expr(c, kids[1]);
        int fk = tr_expr_float_kind(c, kids[0]);
        bool counted = fk >= 0 && strchr("+-*/", bop[0]) && bop[1] == '\0';
        tr_binding *rb = tr_reference_of(c, kids[0]);
        if (rb) { /* through a reference: as a[i] += r */
            tr_val cur = tr_expr(c, kids[0]);
            if (counted)
                tr_op_flop(c, e, bop, fk);
            tr_store_through(c, rb, e);
            return cur;
        }
        bool local;
        CXCursor d = referenced_local(c, kids[0], &local);
        if (local) {
            tr_val cur = tr_expr(c, kids[0]);
            tr_val nv = tr_arith(c, e, bop, cur, r, clang_getCursorType(d), clang_getCursorType(kids[1]));
            assign_local(c, d, nv, tr_line(e));
            return tr_lookup(c, d)->val;
        }
        tr_val p = tr_addr(c, kids[0]);
        tr_val cur = tr_load_of(c, e, p, "a compound assignment");
        if (counted)
            tr_op_flop(c, e, bop, fk);
        if (p.kind == V_PTR)
            tr_access(c, "store", p);
        else if (p.kind == V_UNKNOWN)
            tr_mark_written(c, kids[0]);
        return cur;
    }
    tr_val l = tr_expr(c, kids[0]);
    tr_val r = tr_expr(c, kids[1]);
    return tr_arith(c, e, op, l, r, clang_getCursorType(kids[0]), clang_getCursorType(kids[1]));
}

/* A binary operator or a compound assignment; a + or - with a multiply for an operand is an
 * FMA with it (tr_fma_pair). */
static tr_val binary(tr_ctx *c, CXCursor e, bool compound)
{
    unsigned n;
    CXCursor *kids = tr_children(c, e, &n);
    if (n != 2)
        return binary_op(c, e, compound);
    tr_fma outer = c->fma, f;
    if (!tr_fma_pair(c, e, tr_operator(c, e, NULL), compound ? clang_getNullCursor() : kids[0],
                     kids[1], &f))
        return binary_op(c, e, compound);
    c->fma = f;
    tr_val v = binary_op(c, e, compound);
    c->fma = outer;
    return v;
}

static tr_val conditional(tr_ctx *c, CXCursor e)
{
    unsigned n;
    CXCursor *kids = tr_children(c, e, &n);
    if (n != 3)
        return tr_unknown_val(c, "a conditional expression the importer cannot read");
    tr_val cv = tr_expr(c, kids[0]);
    capture cap;
    capture_begin(c, &cap);
    tr_val a = tr_expr(c, kids[1]);
    const char *ta = capture_end(c, &cap);
    capture_begin(c, &cap);
    tr_val b = tr_expr(c, kids[2]);
    const char *tb = capture_end(c, &cap);
    if (*ta || *tb) {
        if (cv.kind == V_INT) {
            guarded(c, cv, ta);
            guarded(c, negate(c, cv), tb);
        } else
            tr_add_unknown(c, e, "which side of '?:' reads memory depends on data");
    }
    if (cv.kind == V_INT && a.kind == V_INT && b.kind == V_INT)
        return tr_int(c, tr_printf(c, "%s ? %s : %s", tr_operand(c, cv, P_LOR, false),
                                   tr_operand(c, a, P_COND, false), tr_operand(c, b, P_COND, true)),
                      P_COND);
    if (cv.kind == V_INT && a.kind == V_PTR && b.kind == V_PTR && a.array == b.array)
        return tr_ptr(a.array,
                   tr_printf(c, "(%s ? %s : %s)", tr_operand(c, cv, P_LOR, false), a.text, b.text),
                   P_PRIMARY);
    if (a.kind == V_UNKNOWN)
        return a;
    if (b.kind == V_UNKNOWN)
        return b;
    return tr_data(c, "a value chosen by a condition");
}

/* ---------------------------------------------------------------- calls
 *
 * Atomics, loads through __ldg, math functions and their FLOPs, warp
 * intrinsics (unknowns), operators of templates' dependent operands, and
 * __device__ functions of the file, inlined (their bodies translated by
 * the statement translator, through c->stmts). */

static tr_val inline_call(tr_ctx *c, CXCursor e, CXCursor def, const char *name, tr_val *args,
                          const tr_binding *refs, int nargs);

/* The definition a call that names no builtin goes to: the function, or in a template the
 * one candidate of a dependent call; a null cursor when there is none, and something other
 * than a function (a constructor) where inlinable says so. */
static CXCursor definition_of(tr_ctx *c, CXCursor e)
{
    CXCursor def = clang_getCursorDefinition(clang_getCursorReferenced(e));
    if (clang_Cursor_isNull(def) || clang_getCursorKind(def) == CXCursor_InvalidFile) {
        unsigned n;
        CXCursor *kids = tr_children(c, e, &n);
        for (unsigned i = 0; i < n && clang_Cursor_isNull(def); i++) {
            unsigned m;
            CXCursor *gk = tr_children(c, kids[i], &m);
            CXCursor o = clang_getCursorKind(kids[i]) == CXCursor_OverloadedDeclRef
                             ? kids[i]
                             : (m == 1 && clang_getCursorKind(gk[0]) == CXCursor_OverloadedDeclRef
                                    ? gk[0]
                                    : clang_getNullCursor());
            if (!clang_Cursor_isNull(o) && clang_getNumOverloadedDecls(o) == 1)
                def = clang_getCursorDefinition(clang_getOverloadedDecl(o, 0));
        }
    }
    return def;
}

static bool inlinable(CXCursor def)
{
    enum CXCursorKind k = clang_Cursor_isNull(def) ? CXCursor_InvalidFile : clang_getCursorKind(def);
    return k == CXCursor_FunctionDecl || k == CXCursor_FunctionTemplate;
}

/* The type of the i-th parameter of the function def (an invalid type past the last). */
static CXType param_type(tr_ctx *c, CXCursor def, int i)
{
    unsigned n;
    CXCursor *kids = tr_children(c, def, &n);
    for (unsigned k = 0; k < n; k++)
        if (clang_getCursorKind(kids[k]) == CXCursor_ParmDecl && i-- == 0)
            return clang_getCursorType(kids[k]);
    CXType none = {CXType_Invalid, {NULL, NULL}};
    return none;
}

CXType tr_call_param_type(tr_ctx *c, CXCursor call, int i)
{
    CXCursor def = definition_of(c, call);
    if (inlinable(def))
        return param_type(c, def, i);
    CXType none = {CXType_Invalid, {NULL, NULL}};
    return none;
}

/* A builtin's argument i (sincosf's &s[i]), which it writes when it is a pointer to a type
 * not const: a <store> to the element, after the call has read its arguments; nothing for a
 * local's address or a register array's; an unknown when the element cannot be said. */
static void pointer_output(tr_ctx *c, CXCursor call, const char *name, int i, tr_val p)
{
    CXCursor arg = clang_Cursor_getArgument(call, i);
    CXType t = clang_getCanonicalType(clang_getCursorType(arg));
    if (t.kind != CXType_Pointer ||
        clang_isConstQualifiedType(clang_getCanonicalType(clang_getPointeeType(t))))
        return;
    CXCursor decl = clang_getNullCursor();
    if (p.kind == V_PTR)
        tr_access(c, "store", p);
    else if (p.kind != V_REGS && tr_root_array(c, arg, &decl) != ROOT_NONE) {
        tr_mark_written(c, arg);
        tr_add_unknown(c, call, "a store by %s through its argument %d: %s", name, i + 1,
                       p.kind == V_UNKNOWN && p.why ? p.why : "a pointer the model cannot follow");
    }
}

/* An operator in a template, on dependent operands: operator`op` with nargs (1 or 2)
 * arguments. */
static tr_val dependent_operator(tr_ctx *c, CXCursor e, const char *op, int nargs)
{
    tr_val l = tr_expr(c, clang_Cursor_getArgument(e, 0));
    if (nargs == 1) {
        if (strcmp(op, "-") == 0 || strcmp(op, "+") == 0)
            return l;
        return tr_unknown_val(c, tr_printf(c, "the operator '%s'", op));
    }
    tr_val r = tr_expr(c, clang_Cursor_getArgument(e, 1));
    size_t ol = strlen(op);
    if (strcmp(op, "=") == 0) {
        tr_store_to(c, clang_Cursor_getArgument(e, 0), r);
        return r;
    }
    if (ol == 2 && op[1] == '=' && strchr("+-*/", op[0])) {
        tr_mark_written(c, clang_Cursor_getArgument(e, 0));
        int fk = tr_expr_float_kind(c, clang_Cursor_getArgument(e, 0));
        tr_op_flop(c, e, op, fk);
        return l;
    }
    return tr_arith(c, e, op, l, r, clang_getCursorType(clang_Cursor_getArgument(e, 0)),
                    clang_getCursorType(clang_Cursor_getArgument(e, 1)));
}

static tr_val call(tr_ctx *c, CXCursor e)
{
    const char *name = tr_callee_name(c, e);
    tr_call_kind kind = tr_call_kind_of(name);
    /* __mul24(a, b) and friends on integers: the product */
    if ((strcmp(name, "__mul24") == 0 || strcmp(name, "__umul24") == 0) &&
        clang_Cursor_getNumArguments(e) == 2) {
        tr_val a = tr_expr(c, clang_Cursor_getArgument(e, 0));
        tr_val b = tr_expr(c, clang_Cursor_getArgument(e, 1));
        if (a.kind == V_INT && b.kind == V_INT)
            return tr_compose(c, a, "*", b);
        return tr_data(c, "a product of data");
    }
    int nargs = clang_Cursor_getNumArguments(e);
    if (nargs < 0)
        nargs = 0;
    if (strncmp(name, "operator", 8) == 0 && nargs >= 1 && nargs <= 2) {
        tr_fma outer = c->fma, f; /* a + or - with a multiply for an operand: an FMA */
        CXCursor l = name[8] && name[9] == '=' ? clang_getNullCursor() : clang_Cursor_getArgument(e, 0);
        if (nargs != 2 || !tr_fma_pair(c, e, name + 8, l, clang_Cursor_getArgument(e, 1), &f))
            return dependent_operator(c, e, name + 8, nargs);
        c->fma = f;
        tr_val v = dependent_operator(c, e, name + 8, nargs);
        c->fma = outer;
        return v;
    }
    if (kind == TR_CALL_ATOMIC && nargs >= 2) {
        tr_val p = tr_expr(c, clang_Cursor_getArgument(e, 0));
        tr_val operand = tr_expr(c, clang_Cursor_getArgument(e, 1));
        for (int i = 2; i < nargs; i++)
            tr_expr(c, clang_Cursor_getArgument(e, i));
        /* A compare-and-swap or an exchange returns each lane's own old value: never
         * combined, whatever the operand. */
        if (strncmp(name, "atomicCAS", 9) == 0 || strncmp(name, "atomicExch", 10) == 0)
            operand = tr_data(c, "the lane's own old value");
        if (p.kind == V_PTR)
            tr_atomic(c, p, operand);
        else {
            tr_mark_written(c, clang_Cursor_getArgument(e, 0));
            tr_add_unknown(c, e, "%s: %s", name,
                           p.why ? p.why : "an address the model cannot follow");
        }
        return tr_data(c, "an atomic's result");
    }
    if (kind == TR_CALL_LOAD && nargs == 1) {
        tr_val p = tr_expr(c, clang_Cursor_getArgument(e, 0));
        if (p.kind == V_PTR && strcmp(name, "__ldg") == 0)
            c->arrays[p.array].ldg = true; /* the read-only path */
        return tr_load_of(c, e, p, name);
    }
    if (kind == TR_CALL_WARP) {
        for (int i = 0; i < nargs; i++)
            tr_expr(c, clang_Cursor_getArgument(e, i));
        tr_add_unknown(c, e, "the warp intrinsic %s (the model has no warp-level operations)",
                       name);
        return tr_data(c, "a warp intrinsic's result");
    }
    bool builtin = kind == TR_CALL_FOUR_FLOPS || kind == TR_CALL_TWO_FLOPS ||
                   kind == TR_CALL_ONE_FLOP || kind == TR_CALL_ALONE || kind == TR_CALL_NO_FLOPS ||
                   strncmp(name, "make_", 5) == 0 || strcmp(name, "dim3") == 0 ||
                   strcmp(name, "min") == 0 || strcmp(name, "max") == 0 || strcmp(name, "abs") == 0;
    CXCursor def = builtin ? clang_getNullCursor() : definition_of(c, e);
    tr_val *args = NULL;
    tr_binding *refs = NULL; /* an inlined function's reference params' bindings */
    if (nargs) {
        args = malloc((size_t)nargs * sizeof *args);
        refs = calloc((size_t)nargs, sizeof *refs);
        if (!args || !refs) {
            free(args);
            free(refs);
            c->failed = true;
            return tr_data(c, "");
        }
    }
    bool all_int = nargs > 0, any_const = false, all_const = nargs > 0;
    for (int i = 0; i < nargs; i++) {
        CXCursor arg = clang_Cursor_getArgument(e, i);
        if (inlinable(def) && tr_is_writable_reference(param_type(c, def, i))) {
            /* set(a[i]) with set(float &v): v names a[i], nothing is read yet */
            refs[i] = tr_reference(c, arg);
            args[i] = refs[i].ref || refs[i].to_local ? tr_data(c, "an argument bound to a reference")
                                                      : refs[i].val;
        } else
            args[i] = tr_expr(c, arg);
        all_int &= args[i].kind == V_INT;
        any_const |= args[i].fconst;
        all_const &= args[i].fconst || args[i].kind == V_INT;
    }
    (void)any_const;
    tr_val result;
    int fk = tr_expr_float_kind(c, e);
    if ((strcmp(name, "min") == 0 || strcmp(name, "max") == 0 || strcmp(name, "umin") == 0 ||
         strcmp(name, "umax") == 0) &&
        nargs == 2 && all_int) {
        result = tr_int(c, tr_printf(c, "%s(%s, %s)", name[0] == 'u' ? name + 1 : name,
                                     args[0].text, args[1].text),
                        P_PRIMARY);
    } else if ((strcmp(name, "abs") == 0 || strcmp(name, "llabs") == 0) && nargs == 1 && all_int) {
        result = tr_int(c, tr_printf(c, "max(%s, -%s)", args[0].text,
                                     tr_operand(c, args[0], P_UNARY, false)),
                        P_PRIMARY);
    } else if (kind == TR_CALL_FOUR_FLOPS) {
        if (!all_const)
            tr_add_flops(c, 0, 4);
        result = tr_data(c, "a floating-point value");
    } else if (kind == TR_CALL_TWO_FLOPS) {
        if (!all_const) /* an fma is 2; __hadd2 and its kind are 2 lanes of 1 */
            tr_add_flops(c, fk < 0 ? 1 : fk, 2);
        result = tr_data(c, "a floating-point value");
    } else if (kind == TR_CALL_ONE_FLOP || kind == TR_CALL_ALONE || strcmp(name, "min") == 0 ||
               strcmp(name, "max") == 0 || strcmp(name, "abs") == 0) {
        if (!all_const && (kind == TR_CALL_ALONE || tr_is_min_max(name))) {
            /* __fadd_rn: an add no compiler contracts; a min or max: an instruction of its
             * own (FMNMX, DMNMX), never part of an FMA */
            tr_add_unfused_flops(c, fk, 1);
            /* CUDA's mixed min(float, double) converts its float to double inside */
            if (fk == 2 && tr_is_min_max(name))
                for (int i = 0; i < nargs; i++)
                    if (!args[i].fconst &&
                        tr_float_kind(c, clang_getCursorType(clang_Cursor_getArgument(e, i))) == 1)
                        tr_add_instructions(c, TR_PIPE_CONVERSION64, 1);
        } else if (!all_const && fk >= 0) {
            tr_add_flops(c, fk, 1);
            tr_add_instructions(c, TR_PIPE_SPECIAL, tr_special_count(name));
        }
        result = tr_data(c, "a floating-point value");
        if (all_const)
            result.fconst = true;
    } else if (kind == TR_CALL_NO_FLOPS || strncmp(name, "make_", 5) == 0 ||
               strcmp(name, "dim3") == 0) {
        /* A block's barrier, after what the statement did before it; a warp's is none of
         * the model's, and one on any other group the model cannot say. */
        tr_sync sync = tr_sync_of(c, e, name);
        if (sync == TR_SYNC_BLOCK) {
            tr_flush_flops(c);
            tr_emit(c, "<barrier/>");
        } else if (sync == TR_SYNC_OTHER) {
            tr_add_unknown(c, e, "the barrier of a cooperative group that is not a thread block "
                                 "or a tile of one (the model has a block's barrier only)");
        }
        /* a conversion intrinsic of a literal is folded; of an index, it is not */
        bool folded = nargs > 0;
        for (int i = 0; i < nargs; i++) {
            tr_val k_val;
            folded &= args[i].fconst ||
                      (args[i].kind == V_INT &&
                       tr_try_const(c, clang_Cursor_getArgument(e, i), &k_val));
        }
        if (!folded)
            tr_add_instructions(c, TR_PIPE_CONVERSION, tr_conversion_count(name));
        /* sincosf(x, &s[i], &c[i]) writes through its pointers; printf only reads them */
        for (int i = 0; i < nargs && strcmp(name, "printf") != 0; i++)
            pointer_output(c, e, name, i, args[i]);
        result = tr_data(c, tr_printf(c, "the result of %s", name));
    } else {
        if (clang_getCursorKind(clang_getCursorReferenced(e)) == CXCursor_Constructor) {
            /* a copy or a vector built from its parts: a register */
            free(args);
            free(refs);
            return tr_data(c, tr_printf(c, "a %s value", name));
        }
        if (inlinable(def))
            result = inline_call(c, e, def, name, args, refs, nargs);
        else {
            /* it may write through any pointer it is given */
            for (int i = 0; i < nargs; i++)
                if (args[i].kind == V_PTR)
                    c->arrays[args[i].array].written = true;
                else if (tr_is_pointer_type(clang_getCursorType(clang_Cursor_getArgument(e, i))))
                    tr_mark_written(c, clang_Cursor_getArgument(e, i));
            tr_add_unknown(c, e, "the call to %s cannot be inlined: %s", *name ? name : "a function",
                           clang_Cursor_isNull(def) ? "its definition is not in the file"
                                                    : "it is not a plain function");
            result = tr_data(c, "the result of a call");
        }
    }
    free(args);
    free(refs);
    return result;
}

static tr_val inline_call(tr_ctx *c, CXCursor e, CXCursor def, const char *name, tr_val *args,
                          const tr_binding *refs, int nargs)
{
    if (c->depth >= 16) {
        tr_add_unknown(c, e, "the call to %s is nested too deeply (recursion?)", name);
        return tr_data(c, "");
    }
    unsigned n;
    CXCursor *kids = tr_children(c, def, &n);
    size_t saved_env = c->nenv;
    int ai = 0;
    CXCursor body = clang_getNullCursor();
    for (unsigned i = 0; i < n; i++) {
        enum CXCursorKind k = clang_getCursorKind(kids[i]);
        if (k == CXCursor_ParmDecl) {
            /* a fresh binding, even when the function is called again; a reference param
             * bound as an element or to a local (refs) names it, as one declared in the body */
            if (ai < nargs && (refs[ai].ref || refs[ai].to_local)) {
                tr_binding b = refs[ai];
                b.decl = kids[i];
                tr_push_binding(c, b);
            } else
                tr_push(c, kids[i], ai < nargs ? args[ai] : tr_unknown_val(c, "a default argument"));
            if (ai < nargs)
                tr_mark_writable(c, clang_getCursorType(kids[i]), clang_Cursor_getArgument(e, ai),
                                 false);
            ai++;
        } else if (k == CXCursor_CompoundStmt)
            body = kids[i];
    }
    if (clang_Cursor_isNull(body)) {
        c->nenv = saved_env;
        tr_add_unknown(c, e, "the call to %s cannot be inlined: no body", name);
        return tr_data(c, "");
    }
    c->depth++;
    int saved_loops = c->fn_loop_depth;
    c->fn_loop_depth = c->loop_depth;
    tr_push(c, body, tr_data(c, tr_printf(c, "the result of %s", name)));
    c->stmts->body(c, body);
    c->fn_loop_depth = saved_loops;
    c->depth--;
    tr_val r = tr_data(c, "");
    /* the value of the return statement, kept by tr_body under the def */
    for (size_t i = saved_env; i < c->nenv; i++)
        if (clang_equalCursors(c->env[i].decl, body))
            r = c->env[i].val;
    c->nenv = saved_env;
    return r;
}


/* ---------------------------------------------------------------- dispatch */

/* A cast, written or implicit, between a floating-point type and another floating-point or
 * integer type is an instruction (F2F, I2F, F2I): on the pipe of conversions from and to
 * 64-bit types when either side is a double or a 64-bit integer, else on the conversion
 * pipe (CUDA C++ Programming Guide, "Throughput of Native Arithmetic Instructions"). A
 * literal's conversion the compiler folds; casts between integers, and to or from bool, are
 * not conversions. */
static void count_conversion(tr_ctx *c, CXCursor inner, tr_val v, CXType to)
{
    CXType from = clang_getCursorType(inner);
    /* most implicit casts keep the type (an lvalue read): nothing to look up */
    if (clang_equalTypes(clang_getCanonicalType(from), clang_getCanonicalType(to)))
        return;
    int fk_to = tr_float_kind(c, to), fk_from = tr_float_kind(c, from);
    if ((fk_to < 0 && fk_from < 0) || fk_to == fk_from)
        return;
    if ((fk_to < 0 && !tr_is_integer_type(to)) || (fk_from < 0 && !tr_is_integer_type(from)))
        return;
    /* a float tested as a truth value is a compare, not a conversion */
    if (clang_getCanonicalType(to).kind == CXType_Bool ||
        clang_getCanonicalType(from).kind == CXType_Bool)
        return;
    tr_val folded;
    if (v.fconst || (v.kind == V_INT && tr_try_const(c, inner, &folded)))
        return;
    CXType int_side = clang_getCanonicalType(fk_to < 0 ? to : from);
    bool wide = fk_to == 2 || fk_from == 2 ||
                ((fk_to < 0 || fk_from < 0) && clang_Type_getSizeOf(int_side) == 8);
    tr_add_instructions(c, wide ? TR_PIPE_CONVERSION64 : TR_PIPE_CONVERSION, 1);
}

tr_val tr_expr(tr_ctx *c, CXCursor e)
{
    enum CXCursorKind k = clang_getCursorKind(e);
    unsigned n;
    CXCursor *kids;
    tr_val v;
    switch (k) {
    case CXCursor_IntegerLiteral:
    case CXCursor_CharacterLiteral:
    case CXCursor_CXXBoolLiteralExpr:
        if (tr_try_const(c, e, &v))
            return v;
        return tr_unknown_val(c, "a literal the importer cannot read");
    case CXCursor_FloatingLiteral:
        v = tr_data(c, "a floating-point constant");
        v.fconst = true;
        return v;
    case CXCursor_StringLiteral:
        return tr_data(c, "a string");
    case CXCursor_UnaryExpr: /* sizeof, alignof */
        if (tr_try_const(c, e, &v))
            return v;
        return tr_sizeof(c, e);
    case CXCursor_DeclRefExpr:
        return decl_ref(c, e);
    case CXCursor_MemberRefExpr:
        return member_ref(c, e);
    case CXCursor_ArraySubscriptExpr:
        if (tr_is_array_type(clang_getCursorType(e)))
            return tr_addr(c, e); /* a row of a multi-dimensional array */
        return tr_load_of(c, e, tr_addr(c, e), "a load");
    case CXCursor_UnaryOperator:
        return unary(c, e);
    case CXCursor_BinaryOperator:
        return binary(c, e, false);
    case CXCursor_CompoundAssignOperator:
        return binary(c, e, true);
    case CXCursor_ConditionalOperator:
        return conditional(c, e);
    case CXCursor_CallExpr:
        return call(c, e);
    case CXCursor_ParenExpr:
    case CXCursor_UnexposedExpr:
    case CXCursor_CStyleCastExpr:
    case CXCursor_CXXStaticCastExpr:
    case CXCursor_CXXFunctionalCastExpr:
    case CXCursor_CXXConstCastExpr:
    case CXCursor_CXXReinterpretCastExpr: {
        CXCursor inner = tr_last_expr(c, e);
        if (clang_Cursor_isNull(inner)) {
            if (tr_try_const(c, e, &v))
                return v;
            if (k == CXCursor_UnexposedExpr && (tr_children(c, e, &n), n == 0))
                return tr_data(c, "an implicit value");
            return tr_unknown_val(c, "an expression the importer cannot read");
        }
        v = tr_expr(c, inner);
        CXType to = clang_getCursorType(e);
        if (k != CXCursor_ParenExpr)
            count_conversion(c, inner, v, to);
        if (v.kind == V_INT && tr_float_kind(c, to) >= 0) {
            tr_val d = tr_data(c, "a converted integer");
            return d;
        }
        if (v.kind == V_PTR && k != CXCursor_ParenExpr && k != CXCursor_UnexposedExpr &&
            tr_is_pointer_type(to)) {
            int tb = 0;
            const char *tn;
            if (!tr_elem_type(c, clang_getPointeeType(clang_getCanonicalType(to)), &tn, &tb) ||
                tb != c->arrays[v.array].elem_bytes)
                return tr_unknown_val(c, tr_printf(c, "'%s' read through a pointer of another element type",
                                                   c->arrays[v.array].name));
        }
        return v;
    }
    case CXCursor_InitListExpr:
        kids = tr_children(c, e, &n);
        for (unsigned i = 0; i < n; i++)
            tr_expr(c, kids[i]);
        return tr_data(c, "an initialiser list");
    default:
        break;
    }
    if (tr_try_const(c, e, &v))
        return v;
    char *ks = tr_cx(c, clang_getCursorKindSpelling(k));
    return tr_unknown_val(c, tr_printf(c, "an expression of a kind the importer does not translate (%s)", ks));
}
