/* draft.h: one kernel's draft file: translation, XML, derived lengths and
 * the atomic write (internal to src/import). */
#ifndef ROOFCAST_IMPORT_DRAFT_H
#define ROOFCAST_IMPORT_DRAFT_H

#include <clang-c/Index.h>
#include <stdbool.h>
#include <stdio.h>

#include "import/translate.h"

typedef struct {
    CXTranslationUnit tu;
    CXCursor kernel;
    const char *name, *source, *id;
    int line;
    const char *grid, *block, *shared_bytes, *registers; /* grid/block NULL: none */
    tr_assign *params, *lengths;
    size_t nparams, nlengths;
    char *const *site_args; /* constant arguments at the launch site, by position */
    int nsite_args;
    const char *const *targs; /* template arguments, in order */
    size_t ntargs;
    const char *outdir;
} rc_draft_request;

/* Translates, checks and writes DIR/ID.xml. Returns the kernel's exit
 * status (0 complete, 1 unknowns or not imported, 2 usage, 3 not written),
 * after reporting on `err`; says what it wrote on `out`. */
int rc_draft_write(const rc_draft_request *rq, FILE *out, FILE *err);

bool rc_draft_id_ok(const char *id);

#endif
