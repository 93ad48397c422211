/* import.h: `roofcast import`, draft kernel files from CUDA source.
 *
 * The importer reads a CUDA file with libclang (in clang's CUDA mode,
 * without the toolkit: standin.h) and writes, per __global__ function, a
 * draft kernel file (kernels/<id>.xml) that the normal loader reads. What it
 * cannot translate is an explicit unknown in the draft (a comment at its
 * place and a <note unknown="LINE">), which a normal run refuses. Without
 * libclang at build time, rc_import_main says what is missing.
 */
#ifndef ROOFCAST_IMPORT_H
#define ROOFCAST_IMPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Runs `roofcast import ARGS...` (argv[0] is "import"). Returns the exit
 * status: 0 every draft complete, 1 a draft has unknowns or a kernel
 * failed, 2 bad usage, 3 output not written. */
int rc_import_main(int argc, char **argv, FILE *out, FILE *err);

/* NAME=EXPR of --param and --length: a C identifier, '=', a non-empty
 * expression without line breaks. On success *name and *expr point into a
 * new copy that the caller frees through *name (one allocation). On error
 * fills err (a sentence without the option's name) and returns false. */
bool rc_import_parse_assign(const char *arg, char **name, const char **expr, char *err,
                            size_t errlen);

/* --kernel NAME or NAME<ARG, ARG...>: a C identifier and its template
 * arguments (each a non-empty text without unbalanced brackets, at most 16).
 * On success *name is a new string and args[0..*nargs) point into one new
 * allocation, args[0]'s, which the caller frees (free(*name);
 * if (*nargs) free(args[0])). */
bool rc_import_parse_kernel(const char *spec, char **name, char **args, size_t *nargs,
                            char *err, size_t errlen);

#endif
