/* kernel_scope.h: the names a kernel's expressions may read, while its
 * file is turned into an rc_kernel; private to src/input/.
 *
 * load_kernel.c reads the params, the launch and the arrays and binds
 * names (the scope's resolver); statements.c parses <work>, pushing each
 * let and loop variable; scope.c keeps the names, for both. load_kernel.c
 * calls statements.c, both call scope.c, and scope.c calls neither.
 */
#ifndef ROOFCAST_KERNEL_SCOPE_H
#define ROOFCAST_KERNEL_SCOPE_H

#include <stdbool.h>
#include <stddef.h>

#include <libxml/tree.h>

#include "model/expr.h"
#include "model/model.h"
#include "util/diag.h"

/* A name visible at a point of the work model. */
typedef struct {
    const char *name;
    rc_name_binding binding;
    int line;
    bool runtime; /* a value nvcc does not know when it compiles the kernel */
} rc_scope_entry;

/* How far the params and the launch are computed (load_kernel.c). */
typedef struct rc_header_state rc_header_state;

/* The names visible at a point of the work model, innermost last, and
 * the kernel being built. */
typedef struct {
    rc_kernel *kernel;
    rc_scope_entry *entries; /* owned; the names are the work nodes' */
    size_t count, capacity;
    int next_slot;
    const char *file;
    rc_diag *diag;
    rc_header_state *hd; /* while params and the launch are read; else NULL */
    rc_name_resolver resolve; /* binds a name, ctx the scope: the entries
                                 innermost first, params, built-ins */
    /* Set by the resolver when it binds a name whose value nvcc does not know when it
     * compiles the kernel (rc_param.runtime, blockDim, gridDim, threadIdx, blockIdx, a
     * runtime let or loop variable); the caller clears it before a parse and reads it
     * after. */
    bool runtime_read;
} rc_scope;

/* ---- scope.c ---- */

/* Parses the expression `text` of <element attr_name> at `line` with the
 * names in scope. Returns it (the caller frees it) or NULL after reporting
 * the error under the expression. */
rc_expr *rc_scope_parse(rc_scope *sc, const char *element, const char *attr_name,
                        const char *text, int line);

/* True when the new name `name` of <element> neither hides a name in
 * scope nor takes a built-in's or one of the first `nparams` params';
 * false after reporting. */
bool rc_scope_check_name(rc_scope *sc, const char *name, const char *element, int line,
                         size_t nparams);

/* rc_scope_check_name against every param: for a let or loop variable. */
bool rc_scope_check_new_name(rc_scope *sc, const char *name, const char *element, int line);

/* Makes `name` (not copied: it must outlive the scope's use) visible with
 * binding b, runtime as rc_scope_entry says; false when memory runs out. */
bool rc_scope_push(rc_scope *sc, const char *name, rc_name_binding b, bool runtime, int line);

/* ---- statements.c ---- */

/* Parses the statements under <work> (first: its first child) into
 * sc->kernel->work and sets nslots, then marks the loops whose body reads
 * their variable. Clears *ok on any error (reported). */
void rc_parse_work(rc_scope *sc, xmlNodePtr first, bool *ok);

#endif
