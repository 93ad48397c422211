/* translate_builtins.c: the CUDA builtins the importer knows by name
 * (translate.h): the math functions and the FLOPs each call counts
 * (docs/import.md, "Counting FLOPs"), atomics, the loads of the read-only
 * path, warp intrinsics, and the functions that do no counted work. Names
 * only: translate_expr.c translates the calls. */
#include "import/translate.h"

#include <string.h>

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

static bool name_in(const char *name, const char *const *list)
{
    for (; *list; list++)
        if (strcmp(name, *list) == 0)
            return true;
    return false;
}

static const char *const one_flop[] = {
    "sqrt", "sqrtf", "rsqrt", "rsqrtf", "cbrt", "cbrtf", "rcbrt", "rcbrtf", "exp", "expf", "exp2",
    "exp2f", "exp10", "exp10f", "expm1", "expm1f", "log", "logf", "log2", "log2f", "log10",
    "log10f", "log1p", "log1pf", "sin", "sinf", "cos", "cosf", "tan", "tanf", "asin", "asinf",
    "acos", "acosf", "atan", "atanf", "sinh", "sinhf", "cosh", "coshf", "tanh", "tanhf", "erf",
    "erff", "erfc", "erfcf", "pow", "powf", "atan2", "atan2f", "hypot", "hypotf", "fmod", "fmodf",
    "fabs", "fabsf", "fmin", "fminf", "fmax", "fmaxf", "fdim", "fdimf", "__expf", "__logf",
    "__sinf", "__cosf", "__log2f", "__powf", "__fdividef", "__frcp_rn", "__fsqrt_rn",
    "__saturatef", "lgamma", "lgammaf", "tgamma", "tgammaf", "sinpi", "sinpif",
    "cospi", "cospif", "remainder", "remainderf", "copysign", "copysignf", "__hdiv", NULL};
/* an add or a multiply that the compiler never contracts into an FMA: one instruction */
static const char *const alone[] = {"__fadd_rn", "__fmul_rn", "__hadd", "__hsub", "__hmul", NULL};
/* an fma; two lanes of an add or multiply in one instruction (two FLOPs an instruction, as
 * an FMA's) */
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

/* A minimum or maximum of floating-point values: one instruction of its own (FMNMX, DMNMX),
 * never part of an FMA. */
bool tr_is_min_max(const char *name)
{
    static const char *const min_max[] = {"min", "max", "fmin", "fminf", "fmax", "fmaxf", NULL};
    return name_in(name, min_max);
}

/* The conversion intrinsics: one instruction each on the conversion pipe (I2F, F2I, F2F,
 * F2FP: a pair of floats packed to halves is one), the same as a cast (docs/import.md). */
int tr_conversion_count(const char *name)
{
    static const char *const conversion[] = {
        "__int2float_rn", "__float2int_rn", "__float2int_rz", "__float2half", "__half2float",
        "__floats2half2_rn", "__float2half2_rn", NULL};
    if (name_in(name, conversion))
        return 1;
    return strcmp(name, "__half22float2") == 0 ? 2 : 0; /* two halves, two conversions */
}

/* The functions the CUDA C++ Programming Guide's throughput table names in its special-function
 * row ("32-bit floating-point reciprocal, reciprocal square root, base-2 logarithm (__log2f),
 * base 2 exponential (exp2f), sine (__sinf), cosine (__cosf)"): one instruction each on that
 * pipe. Others (expf, sqrtf, __expf, ...) may use the unit too, but how often no document
 * says, so they add none. */
int tr_special_count(const char *name)
{
    static const char *const special[] = {"rsqrtf", "__log2f", "exp2f", "__sinf", "__cosf",
                                          NULL};
    return name_in(name, special) ? 1 : 0;
}

/* The canonical type of the group a cooperative group's sync() names: `cg::sync(g)`'s argument
 * or `g.sync()`'s object; "" when it cannot be read. */
static const char *sync_group_type(tr_ctx *c, CXCursor call)
{
    CXType t;
    if (clang_Cursor_getNumArguments(call) == 1) {
        t = clang_getCursorType(clang_Cursor_getArgument(call, 0));
    } else {
        unsigned n, m;
        CXCursor *callee = tr_children(c, call, &n);
        if (n == 0 || clang_getCursorKind(callee[0]) != CXCursor_MemberRefExpr)
            return "";
        CXCursor *object = tr_children(c, callee[0], &m);
        if (m == 0)
            return "";
        /* through the implicit cast to thread_group, which declares sync(), to the object */
        while (m == 1 && clang_getCursorKind(object[0]) == CXCursor_UnexposedExpr) {
            unsigned k;
            CXCursor *inner = tr_children(c, object[0], &k);
            if (k != 1)
                break;
            object = inner;
        }
        t = clang_getCursorType(object[0]);
    }
    return tr_cx(c, clang_getTypeSpelling(clang_getCanonicalType(t)));
}

tr_sync tr_sync_of(tr_ctx *c, CXCursor call, const char *name)
{
    if (strncmp(name, "__syncthreads", 13) == 0)
        return TR_SYNC_BLOCK;
    if (strcmp(name, "__syncwarp") == 0)
        return TR_SYNC_WARP;
    if (strcmp(name, "sync") != 0)
        return TR_SYNC_NONE;
    const char *type = sync_group_type(c, call);
    if (strstr(type, "cooperative_groups::thread_block_tile"))
        return TR_SYNC_WARP;
    size_t len = strlen(type), tail = strlen("cooperative_groups::thread_block");
    if (len >= tail && strcmp(type + len - tail, "cooperative_groups::thread_block") == 0)
        return TR_SYNC_BLOCK;
    return TR_SYNC_OTHER;
}

tr_call_kind tr_call_kind_of(const char *name)
{
    if (is_atomic(name))
        return TR_CALL_ATOMIC;
    if (name_in(name, loads))
        return TR_CALL_LOAD;
    if (name_in(name, warp))
        return TR_CALL_WARP;
    if (name_in(name, four_flops))
        return TR_CALL_FOUR_FLOPS;
    if (name_in(name, two_flops))
        return TR_CALL_TWO_FLOPS;
    if (name_in(name, one_flop))
        return TR_CALL_ONE_FLOP;
    if (name_in(name, alone))
        return TR_CALL_ALONE;
    if (name_in(name, no_flops))
        return TR_CALL_NO_FLOPS;
    return TR_CALL_OTHER;
}
