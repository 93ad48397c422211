/* load.h: reading specs/<id>.xml and kernels/<id>.xml into the model.
 *
 * Each file is parsed with libxml2 (no network, no entity substitution, no
 * DOCTYPE), validated against the schema compiled into the program
 * (specs/gpu.xsd, kernels/kernel.xsd), then converted. Every problem is
 * reported through the rc_diag as "file:line: what is wrong" and the file is
 * rejected as a whole: a loader returns a complete model or NULL.
 */
#ifndef ROOFCAST_LOAD_H
#define ROOFCAST_LOAD_H

#include "util/diag.h"
#include "model/expr.h"
#include "model/model.h"
#include "model/names.h" /* the names of the model's enums, for the loader's users */

typedef struct rc_loader rc_loader;

/* Compiles the schemas. Returns NULL (after reporting) if they do not
 * compile, which is a build defect. Free with rc_loader_free. A loader may
 * be used by several threads at once. */
rc_loader *rc_loader_new(rc_diag *diag);
void rc_loader_free(rc_loader *loader);

/* Returns a new GPU (the caller frees it with rc_gpu_free) or NULL. */
rc_gpu *rc_load_gpu(rc_loader *loader, const char *path, rc_diag *diag);

/* Returns a new kernel (the caller frees it with rc_kernel_free) or NULL. */
rc_kernel *rc_load_kernel(rc_loader *loader, const char *path, rc_diag *diag);

/* Parses a GPU or kernel from memory (for tests and fuzzers); `name`
 * stands for the file name in messages. */
rc_gpu *rc_load_gpu_memory(rc_loader *loader, const char *name,
                           const char *xml, size_t len, rc_diag *diag);
rc_kernel *rc_load_kernel_memory(rc_loader *loader, const char *name,
                                 const char *xml, size_t len, rc_diag *diag);

/* Reports an expression error as
 *   file:line: <element> attribute 'attr': message
 *       the expression
 *           ^~
 * so that the user sees where in the expression it went wrong. */
void rc_report_expr_error(rc_diag *diag, const char *file, int line,
                          const char *element, const char *attr,
                          const char *text, const rc_expr_error *err);

/* True for ids that are safe as file names: [A-Za-z0-9_][A-Za-z0-9_.-]*,
 * at most 100 bytes. */
bool rc_id_is_safe(const char *id);

#endif
