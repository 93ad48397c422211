/* translate_expr.c: expressions to model expressions, loads, stores,
 * atomics and FLOPs (translate.h).
 *
 * FLOPs are counted as the docs state (docs/import.md, "Counting
 * FLOPs"): one per floating-point +, -, *, / (compound forms and ++/--
 * included) and per call of a math function, two per fma; none for
 * comparisons, negation, conversions, atomics or operations on constants
 * alone, which the compiler folds.
 */
#include "import/translate.h"

#include <stdlib.h>
#include <string.h>


tr_val tr_int(tr_ctx *c, const char *text, int prec)
{
    (void)c;
    tr_val v = {V_INT, text, prec, -1, false, NULL};
    return v;
}

tr_val tr_data(tr_ctx *c, const char *why)
{
    (void)c;
    tr_val v = {V_DATA, NULL, 0, -1, false, why};
    return v;
}

tr_val tr_unknown_val(tr_ctx *c, const char *why)
{
    (void)c;
    tr_val v = {V_UNKNOWN, NULL, 0, -1, false, why};
    return v;
}

static tr_val ptr(int array, const char *off, int prec)
{
    tr_val v = {V_PTR, off, prec, array, false, NULL};
    return v;
}

const char *tr_operand(tr_ctx *c, tr_val v, int prec, bool right)
{
    if (v.prec < prec || (right && v.prec == prec))
        return tr_printf(c, "(%s)", v.text);
    return v.text;
}

static int binary_prec(const char *op)
{
    static const struct {
        const char *op;
        int prec;
    } t[] = {{"*", P_MUL},   {"/", P_MUL},   {"%", P_MUL},   {"+", P_ADD},   {"-", P_ADD},
             {"<<", P_SHIFT}, {">>", P_SHIFT}, {"<", P_REL},  {">", P_REL},   {"<=", P_REL},
             {">=", P_REL},  {"==", P_EQ},   {"!=", P_EQ},   {"&", P_BAND},  {"^", P_BXOR},
             {"|", P_BOR},   {"&&", P_LAND}, {"||", P_LOR}};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (strcmp(t[i].op, op) == 0)
            return t[i].prec;
    return -1;
}

static bool is_zero(tr_val v)
{
    return v.kind == V_INT && strcmp(v.text, "0") == 0;
}

tr_val tr_compose(tr_ctx *c, tr_val l, const char *op, tr_val r)
{
    int p = binary_prec(op);
    if (strcmp(op, "+") == 0 && is_zero(l))
        return r;
    if ((strcmp(op, "+") == 0 || strcmp(op, "-") == 0) && is_zero(r))
        return l;
    const char *mop = strcmp(op, "&&") == 0 ? "and" : strcmp(op, "||") == 0 ? "or" : op;
    return tr_int(c, tr_printf(c, "%s %s %s", tr_operand(c, l, p, false), mop,
                               tr_operand(c, r, p, true)),
                  p);
}

/* ---------------------------------------------------------------- types */

static int kind_of_type_name(const char *s)
{
    if (strncmp(s, "const ", 6) == 0)
        s += 6;
    if (strcmp(s, "float") == 0 || strncmp(s, "float", 5) == 0)
        return 1;
    if (strcmp(s, "double") == 0 || strncmp(s, "double", 6) == 0)
        return 2;
    if (strcmp(s, "half") == 0 || strcmp(s, "__half") == 0 || strcmp(s, "__half2") == 0 ||
        strcmp(s, "half2") == 0 || strcmp(s, "_Float16") == 0)
        return 0;
    return -1;
}

int tr_float_kind(tr_ctx *c, CXType t)
{
    CXType ct = clang_getCanonicalType(t);
    if (ct.kind == CXType_ConstantArray || ct.kind == CXType_DependentSizedArray ||
        ct.kind == CXType_IncompleteArray || ct.kind == CXType_VariableArray)
        return tr_float_kind(c, clang_getElementType(ct));
    switch (ct.kind) {
    case CXType_Float:
        return 1;
    case CXType_Double:
    case CXType_LongDouble:
        return 2;
    case CXType_Half:
    case CXType_Float16:
        return 0;
    default:
        break;
    }
    char *sp = tr_cx(c, clang_getTypeSpelling(t));
    const char *base = strncmp(sp, "const ", 6) == 0 ? sp + 6 : sp;
    for (size_t i = 0; i < c->ntargs; i++)
        if (c->targs[i].is_type && strcmp(c->targs[i].name, base) == 0)
            return kind_of_type_name(c->targs[i].value);
    if (strcmp(base, "__half2") == 0 || strcmp(base, "half2") == 0)
        return 0;
    return -1;
}

int tr_expr_float_kind(tr_ctx *c, CXCursor e)
{
    int k = tr_float_kind(c, clang_getCursorType(e));
    if (k >= 0)
        return k;
    CXType t = clang_getCursorType(e);
    if (t.kind != CXType_Dependent && t.kind != CXType_Unexposed)
        return -1;
    unsigned n;
    CXCursor *kids = tr_children(c, e, &n);
    int best = -1;
    for (unsigned i = 0; i < n; i++) {
        enum CXCursorKind kk = clang_getCursorKind(kids[i]);
        if (kk == CXCursor_TypeRef) {
            int tk = tr_float_kind(c, clang_getCursorType(kids[i]));
            if (tk >= 0)
                return tk;
            continue;
        }
        if (!clang_isExpression(kk))
            continue;
        int ck = tr_expr_float_kind(c, kids[i]);
        if (ck > best)
            best = ck;
    }
    return best;
}

static bool is_integer_type(CXType t)
{
    CXType ct = clang_getCanonicalType(t);
    return (ct.kind >= CXType_Bool && ct.kind <= CXType_Int128 && ct.kind != CXType_Char16 &&
            ct.kind != CXType_Char32) ||
           ct.kind == CXType_Enum;
}

static bool is_pointer_type(CXType t)
{
    CXType ct = clang_getCanonicalType(t);
    return ct.kind == CXType_Pointer;
}

static bool is_array_type(CXType t)
{
    CXType ct = clang_getCanonicalType(t);
    return ct.kind == CXType_ConstantArray || ct.kind == CXType_DependentSizedArray ||
           ct.kind == CXType_IncompleteArray || ct.kind == CXType_VariableArray;
}

static const char *elems_of(tr_ctx *c, CXType t);

/* The number of elements in one `t` (an array type: its whole extent, in
 * scalar elements; else 1), as a model expression. Template parameters in a
 * dependent size become params. NULL when it cannot be said. */
const char *tr_elems_of_type(tr_ctx *c, CXType t)
{
    return elems_of(c, t);
}

static const char *elems_of(tr_ctx *c, CXType t)
{
    CXType ct = clang_getCanonicalType(t);
    if (ct.kind == CXType_ConstantArray) {
        const char *inner = elems_of(c, clang_getArrayElementType(ct));
        if (!inner)
            return NULL;
        long long n = clang_getArraySize(ct);
        return strcmp(inner, "1") == 0 ? tr_printf(c, "%lld", n)
                                       : tr_printf(c, "%lld * %s", n, inner);
    }
    if (ct.kind == CXType_DependentSizedArray) {
        /* "float [32][32 + PAD]": the sizes as written, params by name */
        char *sp = tr_cx(c, clang_getTypeSpelling(t));
        const char *out = NULL;
        for (char *p = strchr(sp, '['); p; p = strchr(p, '[')) {
            char *q = strchr(p, ']');
            if (!q)
                return NULL;
            *q = '\0';
            const char *dim = p + 1;
            for (const char *s = dim; *s; s++) {
                if ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_') {
                    const char *b = s;
                    while ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_' ||
                           (*s >= '0' && *s <= '9'))
                        s++;
                    char *id = tr_printf(c, "%.*s", (int)(s - b), b);
                    bool ok = false;
                    for (size_t i = 0; i < c->ntargs; i++)
                        if (!c->targs[i].is_type && strcmp(c->targs[i].name, id) == 0)
                            ok = true;
                    if (!ok)
                        return NULL;
                    tr_use_param(c, id);
                    s--;
                }
            }
            out = out ? tr_printf(c, "%s * (%s)", out, dim) : tr_printf(c, "(%s)", dim);
            p = q + 1;
        }
        return out;
    }
    if (is_array_type(ct))
        return NULL;
    return "1";
}

static const char *pointee_stride(tr_ctx *c, CXType ptr_type)
{
    CXType ct = clang_getCanonicalType(ptr_type);
    if (ct.kind != CXType_Pointer)
        return "1";
    const char *s = elems_of(c, clang_getPointeeType(ct));
    return s ? s : "1";
}

/* ---------------------------------------------------------------- effects */

void tr_flush_flops(tr_ctx *c)
{
    static const char *const prec[] = {" precision=\"fp16\"", "", " precision=\"fp64\""};
    for (int i = 0; i < 3; i++)
        if (c->flops[i]) {
            tr_emit(c, "<flops count=\"%lld\"%s/>", c->flops[i], prec[i]);
            c->flops[i] = 0;
        }
}

void tr_add_flops(tr_ctx *c, int kind, long long n)
{
    if (kind >= 0 && kind <= 2)
        c->flops[kind] += n;
}

void tr_access(tr_ctx *c, const char *what, tr_val p)
{
    const tr_array *a = &c->arrays[p.array];
    bool load = strcmp(what, "load") == 0;
    if (load) {
        for (size_t i = 0; i < c->nseen; i++)
            if (c->seen[i].array == p.array && strcmp(c->seen[i].index, p.text) == 0)
                return; /* read again in one statement: the compiler reuses it */
        if (c->nseen < sizeof c->seen / sizeof c->seen[0]) {
            c->seen[c->nseen].array = p.array;
            c->seen[c->nseen].index = p.text;
            c->nseen++;
        }
    } else {
        size_t k = 0;
        for (size_t i = 0; i < c->nseen; i++)
            if (c->seen[i].array != p.array)
                c->seen[k++] = c->seen[i];
        c->nseen = k;
    }
    tr_flush_flops(c);
    tr_emit(c, "<%s array=\"%s\" index=\"%s\"/>", what, a->name, tr_xml_escape(c, p.text));
}

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
    return tr_int(c, tr_printf(c, "not %s", tr_operand(c, v, P_UNARY, false)), P_UNARY);
}

static void guarded(tr_ctx *c, tr_val test, const char *body)
{
    if (!*body)
        return;
    tr_emit(c, "<when test=\"%s\">", tr_xml_escape(c, test.text));
    put_raw(c, body);
    tr_emit(c, "</when>");
}

/* ---------------------------------------------------------------- helpers */

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

const char *tr_callee_name(tr_ctx *c, CXCursor call)
{
    char *s = tr_cx(c, clang_getCursorSpelling(call));
    if (*s)
        return s;
    unsigned n;
    CXCursor *kids = tr_children(c, call, &n);
    for (int depth = 0; n > 0 && depth < 4; depth++) {
        CXCursor k = kids[0];
        char *ks = tr_cx(c, clang_getCursorSpelling(k));
        if (*ks)
            return ks;
        kids = tr_children(c, k, &n);
    }
    return "";
}

tr_val tr_load_of(tr_ctx *c, CXCursor at, tr_val p, const char *what)
{
    if (p.kind == V_PTR) {
        tr_access(c, "load", p);
        return tr_data(c, "a value read from memory");
    }
    if (p.kind == V_REGS)
        return tr_data(c, "a register array's element");
    if (p.kind == V_UNKNOWN)
        tr_add_unknown(c, at, "%s: %s", what, p.why);
    return tr_data(c, "a value read from memory");
}

bool tr_name_in(const char *name, const char *const *list)
{
    for (; *list; list++)
        if (strcmp(name, *list) == 0)
            return true;
    return false;
}

/* ---------------------------------------------------------------- assignment */

static void assign_local(tr_ctx *c, CXCursor decl, tr_val v, int line)
{
    (void)line;
    CXType t = clang_getCursorType(decl);
    if (v.kind == V_INT && is_integer_type(t) && v.prec < P_PRIMARY && !c->no_let) {
        char *cname = tr_cx(c, clang_getCursorSpelling(decl));
        const char *name = tr_new_name(c, cname);
        tr_flush_flops(c);
        tr_emit(c, "<let name=\"%s\" value=\"%s\"/>", name, tr_xml_escape(c, v.text));
        v = tr_int(c, name, P_PRIMARY);
    } else if (v.kind == V_INT && !is_integer_type(t) && !is_pointer_type(t))
        v = tr_data(c, "a floating-point value");
    tr_bind(c, decl, v);
}

static CXCursor referenced_local(tr_ctx *c, CXCursor lhs, bool *ok)
{
    CXCursor s = strip(c, lhs);
    *ok = false;
    if (clang_getCursorKind(s) == CXCursor_DeclRefExpr) {
        CXCursor d = clang_getCursorReferenced(s);
        enum CXCursorKind dk = clang_getCursorKind(d);
        if ((dk == CXCursor_VarDecl || dk == CXCursor_ParmDecl) &&
            (tr_lookup(c, d) || dk == CXCursor_ParmDecl)) {
            *ok = true;
            return d;
        }
    }
    return s;
}

/* lhs = v (v already translated). */
void tr_store_to(tr_ctx *c, CXCursor lhs, tr_val v)
{
    bool local;
    CXCursor d = referenced_local(c, lhs, &local);
    if (local) {
        assign_local(c, d, v, tr_line(lhs));
        return;
    }
    CXCursor s = strip(c, lhs);
    if (clang_getCursorKind(s) == CXCursor_MemberRefExpr) {
        unsigned n;
        CXCursor *kids = tr_children(c, s, &n);
        bool l2 = false;
        if (n == 1)
            referenced_local(c, kids[0], &l2);
        if (l2)
            return; /* a member of a local struct or vector: a register */
        tr_add_unknown(c, lhs, "a store to a member of an array element (the model stores whole elements)");
        return;
    }
    tr_val p = tr_addr(c, lhs);
    if (p.kind == V_PTR)
        tr_access(c, "store", p);
    else if (p.kind == V_UNKNOWN)
        tr_add_unknown(c, lhs, "store: %s", p.why);
}

/* ---------------------------------------------------------------- addresses */

tr_val tr_addr(tr_ctx *c, CXCursor e)
{
    e = strip(c, e);
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
        const char *stride = elems_of(c, clang_getCursorType(e));
        if (!stride)
            return tr_unknown_val(c, "an array extent the model cannot say");
        tr_val scaled = strcmp(stride, "1") == 0
                            ? idx
                            : tr_compose(c, idx, "*", tr_int(c, stride, strchr(stride, ' ') ? P_MUL : P_PRIMARY));
        tr_val off = tr_compose(c, tr_int(c, base.text, base.prec), "+", scaled);
        return ptr(base.array, off.text, off.prec);
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
    if (b)
        return b->val;
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
        if (is_pointer_type(t)) {
            int order = 0;
            int a = tr_array_for(c, d, name, clang_getPointeeType(clang_getCanonicalType(t)).kind
                                                ? clang_getPointeeType(t)
                                                : t,
                                 "global", NULL, order, tr_line(d));
            if (a < 0)
                return tr_unknown_val(c, tr_printf(c, "the element type of '%s' is not a C scalar or CUDA vector type",
                                                   name));
            return ptr(a, "0", P_PRIMARY);
        }
        if (is_integer_type(t) || t.kind == CXType_Unexposed) {
            if (!is_integer_type(t) && tr_float_kind(c, t) >= 0)
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
        if (is_array_type(t)) {
            const char *len = elems_of(c, t);
            bool constant = false;
            unsigned n;
            CXCursor *kids = tr_children(c, d, &n);
            for (unsigned i = 0; i < n; i++)
                if (clang_getCursorKind(kids[i]) == CXCursor_CUDAConstantAttr)
                    constant = true;
            CXType el = clang_getCanonicalType(t);
            while (is_array_type(el))
                el = clang_getArrayElementType(el);
            int a = tr_array_for(c, d, name, el, constant ? "constant" : "global", len, 1000,
                                 tr_line(d));
            if (a < 0 || !len)
                return tr_unknown_val(c, tr_printf(c, "the array '%s' has a type the model has no place for", name));
            return ptr(a, "0", P_PRIMARY);
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
        CXCursor b = strip(c, kids[0]);
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
        bool local;
        CXCursor d = referenced_local(c, kids[0], &local);
        const char *aop = op[0] == '+' ? "+" : "-";
        if (local) {
            tr_val old = tr_expr(c, kids[0]);
            tr_val nv;
            if (old.kind == V_INT)
                nv = tr_compose(c, old, aop, tr_int(c, "1", P_PRIMARY));
            else if (old.kind == V_PTR) {
                const char *stride = pointee_stride(c, clang_getCursorType(d));
                tr_val off = tr_compose(c, tr_int(c, old.text, old.prec), aop,
                                     tr_int(c, stride, P_MUL));
                nv = ptr(old.array, off.text, off.prec);
            } else {
                tr_add_flops(c, tr_float_kind(c, clang_getCursorType(d)), 1);
                nv = old;
            }
            assign_local(c, d, nv, tr_line(e));
            return postfix ? old : tr_lookup(c, d)->val;
        }
        tr_val p = tr_addr(c, kids[0]);
        tr_val v = tr_load_of(c, e, p, "an increment");
        tr_add_flops(c, tr_expr_float_kind(c, kids[0]), 1);
        if (p.kind == V_PTR)
            tr_access(c, "store", p);
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

tr_val tr_arith(tr_ctx *c, CXCursor e, const char *op, tr_val l, tr_val r, CXType lt, CXType rt)
{
    bool additive = strcmp(op, "+") == 0 || strcmp(op, "-") == 0;
    if (additive && l.kind == V_PTR && r.kind == V_INT) {
        const char *stride = pointee_stride(c, lt);
        tr_val s = strcmp(stride, "1") == 0 ? r : tr_compose(c, r, "*", tr_int(c, stride, P_MUL));
        tr_val off = tr_compose(c, tr_int(c, l.text, l.prec), op, s);
        return ptr(l.array, off.text, off.prec);
    }
    if (strcmp(op, "+") == 0 && r.kind == V_PTR && l.kind == V_INT)
        return tr_arith(c, e, op, r, l, rt, lt);
    if (strcmp(op, "-") == 0 && l.kind == V_PTR && r.kind == V_PTR && l.array == r.array)
        return tr_compose(c, tr_int(c, l.text, l.prec), "-", tr_int(c, r.text, r.prec));
    if (l.kind == V_INT && r.kind == V_INT && binary_prec(op) > 0)
        return tr_compose(c, l, op, r);
    if (l.kind == V_UNKNOWN)
        return l;
    if (r.kind == V_UNKNOWN)
        return r;
    int fk = tr_expr_float_kind(c, e);
    bool compare = binary_prec(op) == P_REL || binary_prec(op) == P_EQ;
    if (compare)
        fk = -1;
    if (fk >= 0 && binary_prec(op) >= P_ADD && !(l.fconst && r.fconst) &&
        (strchr("+-*/", op[0]) && op[1] == '\0'))
        tr_add_flops(c, fk, 1);
    tr_val d = tr_data(c, l.kind == V_DATA ? l.why : r.why);
    if (fk >= 0 && (l.fconst || l.kind == V_INT) && (r.fconst || r.kind == V_INT))
        d.fconst = l.fconst && r.fconst;
    return d;
}

static tr_val binary(tr_ctx *c, CXCursor e, bool compound)
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
        int fk = tr_expr_float_kind(c, kids[0]);
        if (fk >= 0 && strchr("+-*/", bop[0]) && bop[1] == '\0')
            tr_add_flops(c, fk, 1);
        if (p.kind == V_PTR)
            tr_access(c, "store", p);
        return cur;
    }
    tr_val l = tr_expr(c, kids[0]);
    tr_val r = tr_expr(c, kids[1]);
    return tr_arith(c, e, op, l, r, clang_getCursorType(kids[0]), clang_getCursorType(kids[1]));
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
        return ptr(a.array,
                   tr_printf(c, "(%s ? %s : %s)", tr_operand(c, cv, P_LOR, false), a.text, b.text),
                   P_PRIMARY);
    if (a.kind == V_UNKNOWN)
        return a;
    if (b.kind == V_UNKNOWN)
        return b;
    return tr_data(c, "a value chosen by a condition");
}

/* ---------------------------------------------------------------- dispatch */

bool tr_try_const(tr_ctx *c, CXCursor e, tr_val *out)
{
    if (!is_integer_type(clang_getCursorType(e)))
        return false;
    CXEvalResult r = clang_Cursor_Evaluate(e);
    if (!r)
        return false;
    bool ok = clang_EvalResult_getKind(r) == CXEval_Int;
    if (ok) {
        long long v = clang_EvalResult_isUnsignedInt(r)
                          ? (long long)clang_EvalResult_getAsUnsigned(r)
                          : clang_EvalResult_getAsLongLong(r);
        *out = tr_int(c, tr_printf(c, "%lld", v), v < 0 ? P_UNARY : P_PRIMARY);
    }
    clang_EvalResult_dispose(r);
    return ok;
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
        return tr_unknown_val(c, "a sizeof the importer cannot evaluate");
    case CXCursor_DeclRefExpr:
        return decl_ref(c, e);
    case CXCursor_MemberRefExpr:
        return member_ref(c, e);
    case CXCursor_ArraySubscriptExpr:
        if (is_array_type(clang_getCursorType(e)))
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
        return tr_call(c, e);
    case CXCursor_ParenExpr:
    case CXCursor_UnexposedExpr:
    case CXCursor_CStyleCastExpr:
    case CXCursor_CXXStaticCastExpr:
    case CXCursor_CXXFunctionalCastExpr:
    case CXCursor_CXXConstCastExpr:
    case CXCursor_CXXReinterpretCastExpr: {
        kids = tr_children(c, e, &n);
        CXCursor inner = clang_getNullCursor();
        for (unsigned i = 0; i < n; i++)
            if (clang_isExpression(clang_getCursorKind(kids[i])))
                inner = kids[i];
        if (clang_Cursor_isNull(inner)) {
            if (tr_try_const(c, e, &v))
                return v;
            if (k == CXCursor_UnexposedExpr && n == 0)
                return tr_data(c, "an implicit value");
            return tr_unknown_val(c, "an expression the importer cannot read");
        }
        v = tr_expr(c, inner);
        CXType to = clang_getCursorType(e);
        if (v.kind == V_INT && tr_float_kind(c, to) >= 0) {
            tr_val d = tr_data(c, "a converted integer");
            return d;
        }
        if (v.kind == V_PTR && k != CXCursor_ParenExpr && k != CXCursor_UnexposedExpr &&
            is_pointer_type(to)) {
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
