/* names.c: the names of the model's enums. See names.h. */
#include "model/names.h"

#include <stddef.h>
#include <string.h>

/* ORDER RC_WORK */
static const char *const work_elements[] = {
    "let", "when", "loop", "flops", "load", "store", "traffic", "atomic", "instructions",
    "barrier"};
static const char *const work_attrs[][RC_WORK_EXPRS] = {
    {"value", NULL, NULL},  {"test", NULL, NULL},   {"from", "to", "step"},
    {"count", NULL, NULL},  {"count", "bytes", NULL}, {"count", "bytes", NULL},
    {"bytes", NULL, NULL},  {"count", "bytes", NULL}, {"count", NULL, NULL},
    {NULL, NULL, NULL}};
/* Defaults for optional expressions (loop step, access count). */
static const char *const work_defaults[][RC_WORK_EXPRS] = {
    {NULL, NULL, NULL}, {NULL, NULL, NULL}, {NULL, NULL, "1"}, {NULL, NULL, NULL},
    {"1", NULL, NULL},  {"1", NULL, NULL},  {NULL, NULL, NULL}, {NULL, NULL, NULL},
    {NULL, NULL, NULL}, {NULL, NULL, NULL}};

const char *rc_work_element(rc_work_kind kind) { return work_elements[kind]; }
const char *rc_work_attr(rc_work_kind kind, int which)
{
    return which >= 0 && which < RC_WORK_EXPRS ? work_attrs[kind][which] : NULL;
}
const char *rc_work_default(rc_work_kind kind, int which)
{
    return which >= 0 && which < RC_WORK_EXPRS ? work_defaults[kind][which] : NULL;
}

/* ORDER RC_SPACE */
static const char *const space_names[] = {"global", "shared", "constant", "local"};
const char *rc_space_name(rc_space space) { return space_names[space]; }

/* ORDER RC_PRECISION */
static const char *const precision_names[] = {"fp16", "fp32", "fp64"};
const char *rc_precision_name(rc_precision p) { return precision_names[p]; }

/* ORDER RC_PIPE */
static const char *const pipe_names[] = {"conversion", "conversion64", "special", "integer"};
const char *rc_pipe_name(rc_pipe p) { return pipe_names[p]; }

/* ORDER RC_STEP */
static const char *const step_ops[] = {"+=", "-=", "*=", "/=", "<<=", ">>="};
const char *rc_step_op_text(rc_step_op op) { return step_ops[op]; }

/* The C and CUDA scalar types, with their vector types' stems (CUDA's vector_types.h: char1..4
 * up to double1..2, whose size is the component's times the count; 3-vectors are not padded). */
typedef struct {
    const char *name;
    int size;
    int max_vec;     /* largest vector width of the type's vector name, 0: none */
    const char *vec; /* the vector types' stem */
    bool floating;
} scalar_type;

static const scalar_type scalars[] = {
    {"char", 1, 4, "char", false},           {"signed char", 1, 0, NULL, false},
    {"unsigned char", 1, 4, "uchar", false}, {"short", 2, 4, "short", false},
    {"unsigned short", 2, 4, "ushort", false}, {"int", 4, 4, "int", false},
    {"unsigned", 4, 0, NULL, false},         {"unsigned int", 4, 4, "uint", false},
    {"long", 8, 4, "long", false},           {"unsigned long", 8, 4, "ulong", false},
    {"long long", 8, 4, "longlong", false},  {"unsigned long long", 8, 4, "ulonglong", false},
    {"float", 4, 4, "float", true},          {"double", 8, 4, "double", true},
    {"half", 2, 2, "half", true},            {"__half", 2, 2, "__half", true},
    {"__nv_bfloat16", 2, 2, "__nv_bfloat16", true}, {"bool", 1, 0, NULL, false},
    {"int8_t", 1, 0, NULL, false},  {"uint8_t", 1, 0, NULL, false},  {"int16_t", 2, 0, NULL, false},
    {"uint16_t", 2, 0, NULL, false}, {"int32_t", 4, 0, NULL, false}, {"uint32_t", 4, 0, NULL, false},
    {"int64_t", 8, 0, NULL, false}, {"uint64_t", 8, 0, NULL, false}, {"size_t", 8, 0, NULL, false},
};

/* The scalar `type` is or whose vector it is, with the vector's width in *width (1 for the
 * scalar itself); NULL when the type is not known. */
static const scalar_type *scalar_of(const char *type, int *width)
{
    for (size_t i = 0; i < sizeof scalars / sizeof scalars[0]; i++) {
        *width = 1;
        if (strcmp(type, scalars[i].name) == 0)
            return &scalars[i];
        if (!scalars[i].vec)
            continue;
        size_t n = strlen(scalars[i].vec);
        if (strncmp(type, scalars[i].vec, n) == 0 && type[n] >= '1' &&
            type[n] <= '0' + scalars[i].max_vec && type[n + 1] == '\0') {
            *width = type[n] - '0';
            return &scalars[i];
        }
    }
    return NULL;
}

int rc_type_size(const char *type)
{
    int width;
    const scalar_type *t = scalar_of(type, &width);
    return t ? t->size * width : 0;
}

bool rc_type_is_integer(const char *type)
{
    int width;
    const scalar_type *t = scalar_of(type, &width);
    return t && !t->floating;
}
