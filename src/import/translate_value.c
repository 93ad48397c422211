/* translate_value.c: the values of expressions and the C types they come
 * from (translate.h): making and composing values with C's precedence,
 * floating-point kinds, element counts and sizes of types (a template's
 * sizeof), pointer arithmetic,
 * loads and stores of array elements and the FLOPs of arithmetic, the
 * array a write is rooted in (read from the syntax). Nothing here
 * translates a subexpression: translate_expr.c walks the tree and calls
 * these on the values it has. */
#include "import/translate.h"

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

tr_val tr_ptr(int array, const char *off, int prec)
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

const char *tr_negated(tr_ctx *c, tr_val v)
{
    return tr_printf(c, "not %s", v.prec >= 14 ? v.text : tr_printf(c, "(%s)", v.text));
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

bool tr_is_integer_type(CXType t)
{
    CXType ct = clang_getCanonicalType(t);
    return (ct.kind >= CXType_Bool && ct.kind <= CXType_Int128 && ct.kind != CXType_Char16 &&
            ct.kind != CXType_Char32) ||
           ct.kind == CXType_Enum;
}

bool tr_is_int(CXType t)
{
    CXType ct = clang_getCanonicalType(t);
    return (ct.kind >= CXType_Bool && ct.kind <= CXType_Int128) || ct.kind == CXType_Enum;
}

bool tr_is_pointer_type(CXType t)
{
    CXType ct = clang_getCanonicalType(t);
    return ct.kind == CXType_Pointer;
}

bool tr_is_array_type(CXType t)
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
    if (tr_is_array_type(ct))
        return NULL;
    return "1";
}

const char *tr_pointee_stride(tr_ctx *c, CXType ptr_type)
{
    CXType ct = clang_getCanonicalType(ptr_type);
    if (ct.kind != CXType_Pointer)
        return "1";
    const char *s = elems_of(c, clang_getPointeeType(ct));
    return s ? s : "1";
}

/* ---------------------------------------------------------------- memory and arithmetic */

/* <load>, <store> or <atomic>; `attrs` (may be "") follows the index. */
static void access_with(tr_ctx *c, const char *what, tr_val p, const char *attrs)
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
        c->arrays[p.array].written = true; /* a store or an atomic */
        size_t k = 0;
        for (size_t i = 0; i < c->nseen; i++)
            if (c->seen[i].array != p.array)
                c->seen[k++] = c->seen[i];
        c->nseen = k;
    }
    tr_flush_flops(c);
    tr_emit(c, "<%s array=\"%s\" index=\"%s\"%s/>", what, a->name, tr_xml_escape(c, p.text),
            attrs);
}

void tr_access(tr_ctx *c, const char *what, tr_val p)
{
    access_with(c, what, p, "");
}

/* An operand the same in every lane of a warp: a constant, or an integer expression that
 * does not differ from lane to lane (tr_lane_varying: no threadIdx; params, blockIdx, loop
 * variables that are themselves uniform), so that nvcc may combine a warp's updates of one
 * address into one (atomics.h). A value read from memory, floating-point arithmetic on one,
 * or anything that mentions threadIdx may differ from lane to lane. */
static bool uniform_operand(tr_ctx *c, tr_val v)
{
    if (v.kind == V_DATA)
        return v.fconst;
    return v.kind == V_INT && v.text && *v.text && !tr_lane_varying(c, v.text);
}

void tr_atomic(tr_ctx *c, tr_val p, tr_val operand)
{
    access_with(c, "atomic", p, uniform_operand(c, operand) ? "" : " operand=\"per-lane\"");
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

/* `x`, under parentheses and conversions, as a multiply of precision fk (a * b, or a
 * template's operator* on dependent operands) that the compiler does not fold; else a null
 * cursor. A conversion to another precision leaves a multiply of another precision below:
 * (double)(a * b) with float a and b is no double multiply. */
static CXCursor multiply_of(tr_ctx *c, CXCursor x, int fk)
{
    CXCursor m = tr_strip(c, x);
    for (;;) {
        enum CXCursorKind k = clang_getCursorKind(m);
        if (k != CXCursor_CStyleCastExpr && k != CXCursor_CXXStaticCastExpr &&
            k != CXCursor_CXXFunctionalCastExpr)
            break;
        CXCursor inner = tr_last_expr(c, m);
        if (clang_Cursor_isNull(inner))
            break;
        m = tr_strip(c, inner);
    }
    enum CXCursorKind k = clang_getCursorKind(m);
    bool mul = false;
    if (k == CXCursor_BinaryOperator) {
        const char *op = tr_operator(c, m, NULL);
        mul = op && strcmp(op, "*") == 0;
    } else if (k == CXCursor_CallExpr && clang_Cursor_getNumArguments(m) == 2)
        mul = strcmp(tr_callee_name(c, m), "operator*") == 0;
    if (!mul || tr_expr_float_kind(c, m) != fk)
        return clang_getNullCursor();
    CXEvalResult r = clang_Cursor_Evaluate(m);
    if (r) { /* a constant: folded, no instruction to fuse with */
        clang_EvalResult_dispose(r);
        return clang_getNullCursor();
    }
    return m;
}

bool tr_fma_pair(tr_ctx *c, CXCursor add, const char *op, CXCursor l, CXCursor r, tr_fma *f)
{
    if (!op || (strcmp(op, "+") != 0 && strcmp(op, "-") != 0 && strcmp(op, "+=") != 0 &&
                strcmp(op, "-=") != 0))
        return false;
    f->add = add;
    f->mul = clang_getNullCursor();
    f->mul_counted = false;
    int fk = tr_expr_float_kind(c, add);
    if (fk < 0)
        return true;
    /* the left operand's multiply first: (a * b) + (c * d) is one FMA and a multiply */
    if (!clang_Cursor_isNull(l))
        f->mul = multiply_of(c, l, fk);
    if (clang_Cursor_isNull(f->mul))
        f->mul = multiply_of(c, r, fk);
    return true;
}

void tr_op_flop(tr_ctx *c, CXCursor e, const char *op, int fk)
{
    if (fk < 0)
        return;
    if (op[0] == '*' && clang_equalCursors(e, c->fma.mul)) {
        tr_add_flops(c, fk, 1); /* the multiply of an FMA */
        c->fma.mul_counted = true;
    } else if ((op[0] == '+' || op[0] == '-') && c->fma.mul_counted &&
               clang_equalCursors(e, c->fma.add))
        tr_add_flops(c, fk, 1); /* its add */
    else if (op[0] == '/')
        tr_add_flops(c, fk, 1); /* counted as before: docs/import.md, "Counting FLOPs" */
    else
        tr_add_unfused_flops(c, fk, 1); /* an add, subtract or multiply alone */
}

tr_val tr_arith(tr_ctx *c, CXCursor e, const char *op, tr_val l, tr_val r, CXType lt, CXType rt)
{
    bool additive = strcmp(op, "+") == 0 || strcmp(op, "-") == 0;
    if (additive && l.kind == V_PTR && r.kind == V_INT) {
        const char *stride = tr_pointee_stride(c, lt);
        tr_val s = strcmp(stride, "1") == 0 ? r : tr_compose(c, r, "*", tr_int(c, stride, P_MUL));
        tr_val off = tr_compose(c, tr_int(c, l.text, l.prec), op, s);
        return tr_ptr(l.array, off.text, off.prec);
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
        (strchr("+-*/", op[0]) && op[1] == '\0')) {
        tr_op_flop(c, e, op, fk);
    }
    tr_val d = tr_data(c, l.kind == V_DATA ? l.why : r.why);
    if (fk >= 0 && (l.fconst || l.kind == V_INT) && (r.fconst || r.kind == V_INT))
        d.fconst = l.fconst && r.fconst;
    return d;
}

bool tr_try_const(tr_ctx *c, CXCursor e, tr_val *out)
{
    if (!tr_is_integer_type(clang_getCursorType(e)))
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

/* ---------------------------------------------------------------- writes the model lacks */

static bool pointer_or_array(CXType t)
{
    return tr_is_pointer_type(t) || tr_is_array_type(t);
}

int tr_root_array(tr_ctx *c, CXCursor e, CXCursor *decl)
{
    for (int depth = 0; depth < 64; depth++) {
        e = tr_strip(c, e);
        enum CXCursorKind k = clang_getCursorKind(e);
        unsigned n;
        CXCursor *kids = tr_children(c, e, &n);
        const char *op = k == CXCursor_UnaryOperator ? tr_operator(c, e, NULL) : NULL;
        if ((k == CXCursor_ArraySubscriptExpr || (op && strcmp(op, "*") == 0)) &&
            tr_is_pointer_type(clang_getCursorType(e)))
            return ROOT_UNTOLD; /* a pointer read from memory (pp[0][i]): it points anywhere */
        switch (k) {
        case CXCursor_ArraySubscriptExpr: /* a[i], or i[a] */
            if (n != 2)
                return ROOT_UNTOLD;
            e = pointer_or_array(clang_getCursorType(tr_strip(c, kids[0]))) ? kids[0] : kids[1];
            continue;
        case CXCursor_MemberRefExpr: /* a[i].x, p->x: the element's array; s.ptr: untold */
            if (n != 1 || tr_is_pointer_type(clang_getCursorType(e)))
                return ROOT_UNTOLD;
            e = kids[0];
            continue;
        case CXCursor_UnaryOperator: /* *p, &a[i], p++ */
            if (n != 1)
                return ROOT_UNTOLD;
            e = kids[0];
            continue;
        case CXCursor_BinaryOperator: /* p + k, k + p, (x, p) */
            op = tr_operator(c, e, NULL);
            if (n != 2 || !op)
                return ROOT_UNTOLD;
            if (strcmp(op, ",") == 0)
                e = kids[1];
            else if (strcmp(op, "+") == 0 || strcmp(op, "-") == 0)
                e = pointer_or_array(clang_getCursorType(tr_strip(c, kids[0]))) ? kids[0] : kids[1];
            else
                return ROOT_UNTOLD;
            continue;
        case CXCursor_CStyleCastExpr:
        case CXCursor_CXXStaticCastExpr:
        case CXCursor_CXXFunctionalCastExpr:
        case CXCursor_CXXConstCastExpr:
        case CXCursor_CXXReinterpretCastExpr: {
            CXCursor inner = tr_last_expr(c, e);
            if (clang_Cursor_isNull(inner))
                return ROOT_UNTOLD;
            e = inner;
            continue;
        }
        case CXCursor_DeclRefExpr: {
            CXCursor d = tr_target(c, clang_getCursorReferenced(e));
            CXType t = clang_getCursorType(d);
            tr_binding *b = tr_lookup(c, d);
            if (b && b->ref) /* a reference bound as an element: the element's array */
                return b->elem.kind == V_PTR ? b->elem.array
                       : b->elem.kind == V_REGS ? ROOT_NONE
                                                : ROOT_MARKED;
            if (b && b->val.kind == V_PTR)
                return b->val.array;
            if (b || !pointer_or_array(t))
                return tr_is_pointer_type(t) ? ROOT_UNTOLD : ROOT_NONE;
            enum CXCursorKind dk = clang_getCursorKind(d);
            if (dk != CXCursor_ParmDecl && dk != CXCursor_VarDecl)
                return ROOT_UNTOLD;
            *decl = d; /* a param or file-scope array, declared in the model or not yet */
            return ROOT_DECL;
        }
        default:
            return ROOT_UNTOLD;
        }
    }
    return ROOT_UNTOLD;
}

void tr_mark_written(tr_ctx *c, CXCursor target)
{
    CXCursor decl = clang_getNullCursor();
    int a = tr_root_array(c, target, &decl);
    if (a >= 0)
        c->arrays[a].written = true;
    else if (a == ROOT_DECL)
        tr_mark_decl_written(c, decl);
    else if (a == ROOT_UNTOLD)
        c->untold_write = true;
}

void tr_mark_writable(tr_ctx *c, CXType t, CXCursor target, bool pointers)
{
    CXType ct = clang_getCanonicalType(t);
    bool through = ct.kind == CXType_LValueReference || ct.kind == CXType_RValueReference ||
                   (pointers && ct.kind == CXType_Pointer);
    if (through && !clang_isConstQualifiedType(clang_getCanonicalType(clang_getPointeeType(ct))))
        tr_mark_written(c, target);
}

/* ---------------------------------------------------------------- references */

bool tr_is_writable_reference(CXType t)
{
    CXType ct = clang_getCanonicalType(t);
    if (ct.kind != CXType_LValueReference)
        return false;
    CXType pointee = clang_getCanonicalType(clang_getPointeeType(ct));
    return !clang_isConstQualifiedType(pointee) && !tr_is_array_type(pointee);
}

tr_binding *tr_reference_of(tr_ctx *c, CXCursor e)
{
    CXCursor s = tr_strip(c, e);
    if (clang_getCursorKind(s) != CXCursor_DeclRefExpr)
        return NULL;
    tr_binding *b = tr_lookup(c, clang_getCursorReferenced(s));
    return b && b->ref ? b : NULL;
}

tr_val tr_read_through(tr_ctx *c, const tr_binding *b, CXCursor at)
{
    if (b->elem.kind == V_PTR || b->elem.kind == V_REGS)
        return tr_load_of(c, at, b->elem, "a load through a reference");
    return b->val;
}

void tr_store_through(tr_ctx *c, const tr_binding *b, CXCursor at)
{
    if (b->elem.kind == V_PTR)
        tr_access(c, "store", b->elem);
    else if (b->elem.kind != V_REGS)
        tr_add_unknown(c, at, "a store through the reference '%s': %s",
                       tr_cx(c, clang_getCursorSpelling(b->decl)),
                       b->elem.why ? b->elem.why : "an element the model cannot follow");
}

/* sizeof(T) or sizeof x that clang leaves unevaluated in a template: the size of the type the
 * kernel's template argument binds (tr_elem_type); alignof and anything else stay unknown. */
tr_val tr_sizeof(tr_ctx *c, CXCursor e)
{
    CXToken *tok = clang_getToken(c->tu, clang_getCursorLocation(e));
    bool is_sizeof = false;
    if (tok) {
        CXString sp = clang_getTokenSpelling(c->tu, *tok);
        is_sizeof = strcmp(clang_getCString(sp), "sizeof") == 0;
        clang_disposeString(sp);
        clang_disposeTokens(c->tu, tok, 1);
    }
    unsigned n;
    CXCursor *kids = tr_children(c, e, &n);
    const char *name;
    int bytes;
    if (is_sizeof && n == 1 && tr_elem_type(c, clang_getCursorType(kids[0]), &name, &bytes))
        return tr_int(c, tr_printf(c, "%d", bytes), P_PRIMARY);
    return tr_unknown_val(c, "a sizeof the importer cannot evaluate");
}
