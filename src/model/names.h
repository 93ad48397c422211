/* names.h: the names the model's enums are written with, in the kernel
 * files and in every output: a work node's element and attributes, memory
 * spaces, loop steps, precisions, and the sizes of C and CUDA types.
 *
 * The loader reads these names and the evaluator and the results builder
 * write them, so they live with the enums (model.h), below both. Every
 * returned string is static. rc_precision_name (model.h), defined in
 * names.c, is the one of these that model.h declares beside its enum.
 */
#ifndef ROOFCAST_NAMES_H
#define ROOFCAST_NAMES_H

#include <stdbool.h>

#include "model/model.h"

/* The element of a work node ("let", "when", "loop", ...). */
const char *rc_work_element(rc_work_kind kind);

/* The attribute that holds expression `which` of a work node of this kind
 * ("from", "to", "step" for a loop); NULL for unused expressions and for
 * `which` outside 0 .. RC_WORK_EXPRS - 1. */
const char *rc_work_attr(rc_work_kind kind, int which);

/* The text an optional expression has when its attribute is left out (a
 * loop's step "1", an access's count "1"); NULL when there is none. */
const char *rc_work_default(rc_work_kind kind, int which);

/* "global", "shared", "constant", "local". */
const char *rc_space_name(rc_space space);

/* "+=", "-=", "*=", "/=", "<<=", ">>=". */
const char *rc_step_op_text(rc_step_op op);

/* The size in bytes of a C scalar or CUDA vector type ("float4": 16), or 0
 * when the type is not known. */
int rc_type_size(const char *type);

/* Whether a C scalar type (or CUDA vector of one) holds integers: every known type but the
 * floating ones (float, double, half, __half, __nv_bfloat16 and their vectors); false when
 * the type is not known. */
bool rc_type_is_integer(const char *type);

#endif
