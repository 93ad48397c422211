/* standin.h: what CUDA's toolkit would declare, for parsing device code on a
 * machine without it.
 *
 * roofcast import parses in clang's CUDA mode with -nocudainc, so nothing
 * of the toolkit is included: the execution-space attributes, the built-in
 * variables, the vector and half types, the math functions, atomics,
 * barriers and warp intrinsics are declared here (rc_standin_header, passed
 * as an -include), and every toolkit header a file names (cuda_runtime.h,
 * cublas_v2.h, ...) is an empty file in a directory searched first
 * (rc_standin_is_toolkit_header). Only declarations: the importer reads
 * calls by name, never the bodies.
 */
#ifndef ROOFCAST_STANDIN_H
#define ROOFCAST_STANDIN_H

#include <stdbool.h>

/* The text of the stand-in header: a new string the caller frees, or NULL
 * when memory runs out. */
char *rc_standin_header(void);

/* True when `name` (as written in #include, e.g. "cuda_runtime.h" or
 * "cub/cub.cuh") is a header of the CUDA toolkit or its samples, which the
 * importer replaces with an empty file. */
bool rc_standin_is_toolkit_header(const char *name);

#endif
