/* translate_call.c: calls in device code (translate.h): atomics, loads
 * through __ldg, math functions and their FLOPs, warp intrinsics (unknowns),
 * operators of templates' dependent operands, and __device__ functions of the
 * file, inlined. */
#include "import/translate.h"

#include <stdlib.h>
#include <string.h>

static const char *const one_flop[] = {
    "sqrt", "sqrtf", "rsqrt", "rsqrtf", "cbrt", "cbrtf", "rcbrt", "rcbrtf", "exp", "expf", "exp2",
    "exp2f", "exp10", "exp10f", "expm1", "expm1f", "log", "logf", "log2", "log2f", "log10",
    "log10f", "log1p", "log1pf", "sin", "sinf", "cos", "cosf", "tan", "tanf", "asin", "asinf",
    "acos", "acosf", "atan", "atanf", "sinh", "sinhf", "cosh", "coshf", "tanh", "tanhf", "erf",
    "erff", "erfc", "erfcf", "pow", "powf", "atan2", "atan2f", "hypot", "hypotf", "fmod", "fmodf",
    "fabs", "fabsf", "fmin", "fminf", "fmax", "fmaxf", "fdim", "fdimf", "__expf", "__logf",
    "__sinf", "__cosf", "__powf", "__fdividef", "__frcp_rn", "__fsqrt_rn", "__fadd_rn",
    "__fmul_rn", "__saturatef", "lgamma", "lgammaf", "tgamma", "tgammaf", "sinpi", "sinpif",
    "cospi", "cospif", "remainder", "remainderf", "copysign", "copysignf", "__hadd", "__hsub",
    "__hmul", "__hdiv", NULL};
static const char *const two_flops[] = {"fma", "fmaf", "__fmaf_rn", "__fma_rn", "__hfma",
                                        "__hadd2", "__hsub2", "__hmul2", NULL};
/* two lanes of an fma */
static const char *const four_flops[] = {"__hfma2", NULL};
static const char *const no_flops[] = {
    "__syncthreads", "__syncthreads_count", "__syncthreads_and", "__syncthreads_or",
    "__syncwarp", "__threadfence", "__threadfence_block", "__threadfence_system", "printf",
    "__assert_fail", "__trap", "clock", "clock64", "__nanosleep", "isnan", "isinf", "isfinite",
    "signbit", "floor", "floorf", "ceil", "ceilf", "round", "roundf", "trunc", "truncf", "rint",
    "rintf", "nearbyint", "nearbyintf", "__float2int_rn", "__float2int_rz", "__int2float_rn",
    "__float2half", "__half2float", "__floats2half2_rn", "__float2half2_rn", "__half22float2",
    "__popc", "__popcll", "__clz", "__ffs", "__brev", "__mul24", "__umul24", "sincosf",
    /* cooperative groups: a block's barrier, and the handle on the block */
    "sync", "this_thread_block", NULL};
static const char *const warp[] = {
    "__shfl_sync", "__shfl_up_sync", "__shfl_down_sync", "__shfl_xor_sync", "__shfl",
    "__shfl_up", "__shfl_down", "__shfl_xor", "__ballot_sync", "__any_sync", "__all_sync",
    "__ballot", "__any", "__all", "__activemask", "__reduce_add_sync", "__match_any_sync",
    "__match_all_sync", NULL};
static const char *const loads[] = {"__ldg", "__ldcg", "__ldca", "__ldcs", "__ldlu", "__ldcv",
                                    NULL};

static bool is_atomic(const char *name)
{
    static const char *const base[] = {"atomicAdd", "atomicSub", "atomicExch", "atomicMin",
                                       "atomicMax", "atomicInc", "atomicDec", "atomicCAS",
                                       "atomicAnd", "atomicOr",  "atomicXor", NULL};
    for (int i = 0; base[i]; i++) {
        size_t n = strlen(base[i]);
        if (strncmp(name, base[i], n) == 0 &&
            (name[n] == '\0' || strcmp(name + n, "_block") == 0 || strcmp(name + n, "_system") == 0))
            return true;
    }
    return false;
}

static tr_val inline_call(tr_ctx *c, CXCursor e, CXCursor def, const char *name, tr_val *args,
                          int nargs);

tr_val tr_call(tr_ctx *c, CXCursor e)
{
    const char *name = tr_callee_name(c, e);
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
        /* an operator in a template, on dependent operands */
        const char *op = name + 8;
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
        if (ol >= 2 && op[ol - 1] == '=' && strchr("+-*/", op[0]) && ol == 2) {
            int fk = tr_expr_float_kind(c, clang_Cursor_getArgument(e, 0));
            if (fk >= 0)
                tr_add_flops(c, fk, 1);
            return l;
        }
        return tr_arith(c, e, op, l, r, clang_getCursorType(clang_Cursor_getArgument(e, 0)),
                     clang_getCursorType(clang_Cursor_getArgument(e, 1)));
    }
    if (is_atomic(name) && nargs >= 2) {
        tr_val p = tr_expr(c, clang_Cursor_getArgument(e, 0));
        for (int i = 1; i < nargs; i++)
            tr_expr(c, clang_Cursor_getArgument(e, i));
        if (p.kind == V_PTR)
            tr_access(c, "atomic", p);
        else
            tr_add_unknown(c, e, "%s: %s", name,
                           p.why ? p.why : "an address the model cannot follow");
        return tr_data(c, "an atomic's result");
    }
    if (tr_name_in(name, loads) && nargs == 1) {
        tr_val p = tr_expr(c, clang_Cursor_getArgument(e, 0));
        return tr_load_of(c, e, p, name);
    }
    if (tr_name_in(name, warp)) {
        for (int i = 0; i < nargs; i++)
            tr_expr(c, clang_Cursor_getArgument(e, i));
        tr_add_unknown(c, e, "the warp intrinsic %s (the model has no warp-level operations)",
                       name);
        return tr_data(c, "a warp intrinsic's result");
    }
    tr_val *args = NULL;
    if (nargs) {
        args = malloc((size_t)nargs * sizeof *args);
        if (!args) {
            c->failed = true;
            return tr_data(c, "");
        }
    }
    bool all_int = nargs > 0, any_const = false, all_const = nargs > 0;
    for (int i = 0; i < nargs; i++) {
        args[i] = tr_expr(c, clang_Cursor_getArgument(e, i));
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
    } else if (tr_name_in(name, four_flops)) {
        if (!all_const)
            tr_add_flops(c, 0, 4);
        result = tr_data(c, "a floating-point value");
    } else if (tr_name_in(name, two_flops)) {
        if (!all_const) /* an fma is 2; __hadd2 and its kind are 2 lanes of 1 */
            tr_add_flops(c, fk < 0 ? 1 : fk, 2);
        result = tr_data(c, "a floating-point value");
    } else if (tr_name_in(name, one_flop) || strcmp(name, "min") == 0 || strcmp(name, "max") == 0 ||
               strcmp(name, "abs") == 0) {
        if (!all_const && fk >= 0)
            tr_add_flops(c, fk, 1);
        result = tr_data(c, "a floating-point value");
        if (all_const)
            result.fconst = true;
    } else if (tr_name_in(name, no_flops) || strncmp(name, "make_", 5) == 0 ||
               strcmp(name, "dim3") == 0) {
        result = tr_data(c, tr_printf(c, "the result of %s", name));
    } else {
        CXCursor ref = clang_getCursorReferenced(e);
        CXCursor def = clang_getCursorDefinition(ref);
        if (clang_getCursorKind(ref) == CXCursor_Constructor) {
            /* a copy or a vector built from its parts: a register */
            free(args);
            return tr_data(c, tr_printf(c, "a %s value", name));
        }
        if (clang_Cursor_isNull(def) || clang_getCursorKind(def) == CXCursor_InvalidFile) {
            /* a dependent call in a template: the one candidate, if one */
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
        if (!clang_Cursor_isNull(def) && (clang_getCursorKind(def) == CXCursor_FunctionDecl ||
                                          clang_getCursorKind(def) == CXCursor_FunctionTemplate))
            result = inline_call(c, e, def, name, args, nargs);
        else {
            tr_add_unknown(c, e, "the call to %s cannot be inlined: %s", *name ? name : "a function",
                           clang_Cursor_isNull(def) ? "its definition is not in the file"
                                                    : "it is not a plain function");
            result = tr_data(c, "the result of a call");
        }
    }
    free(args);
    return result;
}

static tr_val inline_call(tr_ctx *c, CXCursor e, CXCursor def, const char *name, tr_val *args,
                          int nargs)
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
            /* a fresh binding, even when the function is called again */
            tr_push(c, kids[i], ai < nargs ? args[ai] : tr_unknown_val(c, "a default argument"));
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
    tr_body(c, body);
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

