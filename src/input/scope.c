/* scope.c: the names in scope while a kernel's file is read: new names
 * checked and pushed, expressions parsed against them (through the
 * scope's resolver, which load_kernel.c sets). See kernel_scope.h.
 */
#include <string.h>

#include "input/kernel_scope.h"
#include "input/load.h"
#include "util/array.h"

static bool is_reserved(const char *name)
{
    static const char *const reserved[] = {"threadIdx", "blockIdx", "blockDim",
                                           "gridDim",   "warpSize", "and",
                                           "or",        "not",      "min", "max"};
    for (size_t i = 0; i < sizeof reserved / sizeof reserved[0]; i++)
        if (strcmp(name, reserved[i]) == 0)
            return true;
    return false;
}

bool rc_scope_check_name(rc_scope *sc, const char *name, const char *element, int line,
                         size_t nparams)
{
    if (is_reserved(name)) {
        rc_error_at(sc->diag, sc->file, line, "<%s> name '%s' is reserved", element, name);
        return false;
    }
    for (size_t i = 0; i < sc->count; i++)
        if (strcmp(sc->entries[i].name, name) == 0) {
            rc_error_at(sc->diag, sc->file, line,
                        "<%s> name '%s' is already defined at line %d", element,
                        name, sc->entries[i].line);
            return false;
        }
    for (size_t i = 0; i < nparams; i++)
        if (sc->kernel->params[i].name && strcmp(sc->kernel->params[i].name, name) == 0) {
            rc_error_at(sc->diag, sc->file, line,
                        "<%s> name '%s' is already a <param>", element, name);
            return false;
        }
    return true;
}

bool rc_scope_check_new_name(rc_scope *sc, const char *name, const char *element, int line)
{
    return rc_scope_check_name(sc, name, element, line, sc->kernel->nparams);
}

bool rc_scope_push(rc_scope *sc, const char *name, rc_name_binding b, bool runtime, int line)
{
    if (!RC_GROW(sc->entries, sc->capacity, sc->count + 1))
        return false;
    sc->entries[sc->count++] = (rc_scope_entry){name, b, line, runtime};
    return true;
}

rc_expr *rc_scope_parse(rc_scope *sc, const char *element, const char *attr_name,
                        const char *text, int line)
{
    rc_expr_error err;
    rc_expr *e = rc_expr_parse(text, sc->resolve, sc, &err);
    if (!e)
        rc_report_expr_error(sc->diag, sc->file, line, element, attr_name, text, &err);
    return e;
}
