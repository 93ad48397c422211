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

/* The element size of a C or CUDA scalar or vector type; 0 if unknown.
 * Vector types follow CUDA's vector_types.h: char1..4 up to double1..2,
 * whose size is the component's times the count (3-vectors are not
 * padded). */
int rc_type_size(const char *type)
{
    static const struct {
        const char *name;
        int size;
        int max_vec; /* largest vector width of the type's vector name, 0: none */
        const char *vec; /* the vector types' stem */
    } scalars[] = {
        {"char", 1, 4, "char"},           {"signed char", 1, 0, NULL},
        {"unsigned char", 1, 4, "uchar"}, {"short", 2, 4, "short"},
        {"unsigned short", 2, 4, "ushort"}, {"int", 4, 4, "int"},
        {"unsigned", 4, 0, NULL},         {"unsigned int", 4, 4, "uint"},
        {"long", 8, 4, "long"},           {"unsigned long", 8, 4, "ulong"},
        {"long long", 8, 4, "longlong"},  {"unsigned long long", 8, 4, "ulonglong"},
        {"float", 4, 4, "float"},         {"double", 8, 4, "double"},
        {"half", 2, 2, "half"},           {"__half", 2, 2, "__half"},
        {"__nv_bfloat16", 2, 2, "__nv_bfloat16"}, {"bool", 1, 0, NULL},
        {"int8_t", 1, 0, NULL},  {"uint8_t", 1, 0, NULL},  {"int16_t", 2, 0, NULL},
        {"uint16_t", 2, 0, NULL}, {"int32_t", 4, 0, NULL}, {"uint32_t", 4, 0, NULL},
        {"int64_t", 8, 0, NULL}, {"uint64_t", 8, 0, NULL}, {"size_t", 8, 0, NULL},
    };
    for (size_t i = 0; i < sizeof scalars / sizeof scalars[0]; i++) {
        if (strcmp(type, scalars[i].name) == 0)
            return scalars[i].size;
        if (!scalars[i].vec)
            continue;
        size_t n = strlen(scalars[i].vec);
        if (strncmp(type, scalars[i].vec, n) == 0 && type[n] >= '1' &&
            type[n] <= '0' + scalars[i].max_vec && type[n + 1] == '\0')
            return scalars[i].size * (type[n] - '0');
    }
    return 0;
}

bool rc_type_is_integer(const char *type)
{
    static const char *const floating[] = {"float", "double", "half", "__half", "__nv_bfloat16"};
    if (rc_type_size(type) == 0)
        return false;
    for (size_t i = 0; i < sizeof floating / sizeof floating[0]; i++) {
        size_t n = strlen(floating[i]);
        if (strncmp(type, floating[i], n) == 0 &&
            (type[n] == '\0' || (type[n] >= '1' && type[n] <= '4' && type[n + 1] == '\0')))
            return false;
    }
    return true;
}
