/* manifest.h: the list of the files roofcast wrote into an output
 * directory, kept there as .roofcast-manifest.
 *
 * With it a run removes the files of an earlier run that it no longer
 * writes (a kernel renamed or deleted, a format no longer asked for), and
 * never a file that roofcast did not write: only names an earlier manifest
 * lists are ever removed. Kernel ids cannot begin with '.', so the
 * manifest's name, like the temporary files', never collides with a
 * report.
 *
 * With it too a run tells which files are up to date: each entry has the
 * key of what its file was made from (cli/run.c: a hash of the kernel file,
 * the GPU files, the templates, the options and the program), and a file
 * whose key is unchanged, listed with its size and still of that size, is
 * kept as it is rather than made again.
 *
 * The file is text, one entry a line, sorted, so that two runs that wrote
 * the same files from the same inputs leave the same manifest; it ends
 * with the number of entries and a hash of the lines before (hash.h), so
 * that one cut short or altered is told from a whole one:
 *
 *   roofcast-manifest 2
 *   file NAME SIZE KEY      (KEY: 16 hex digits; 0 when unknown)
 *   end COUNT HASH
 *
 * A version 1 manifest ("file NAME SIZE" lines, no end line) is still read
 * but nothing it lists is removed (without the end line's hash a damaged
 * one cannot be told from a whole one) nor kept in the new manifest; its
 * files have no key, so all are made again.
 */
#ifndef ROOFCAST_MANIFEST_H
#define ROOFCAST_MANIFEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/diag.h"
#include "util/output.h"

#define RC_MANIFEST_NAME ".roofcast-manifest"

typedef struct rc_manifest rc_manifest;

/* Reads the manifest of `out`'s directory. A directory without one gives
 * an empty manifest; one that cannot be read or parsed gives an empty
 * manifest after a warning (so nothing is removed). NULL only when out of
 * memory. Free with rc_manifest_free. */
rc_manifest *rc_manifest_read(const rc_output *out, rc_diag *diag);
void rc_manifest_free(rc_manifest *m);

/* Parses a manifest's text (len bytes, NUL-terminated after them): NULL
 * when it is not a whole manifest of either version (*line says where) or
 * memory runs out; *v1 says it is a version 1 manifest. For
 * rc_manifest_read and the fuzz target (tests/fuzz/fuzz_manifest.c). */
rc_manifest *rc_manifest_parse(const char *text, size_t len, int *line, bool *v1);

/* The text rc_manifest_finish writes for `m` (the caller frees it); NULL
 * when out of memory. */
char *rc_manifest_text(const rc_manifest *m, size_t *len);
/* The key listed for entry i. */
uint64_t rc_manifest_key(const rc_manifest *m, size_t i);

size_t rc_manifest_count(const rc_manifest *m);
const char *rc_manifest_name(const rc_manifest *m, size_t i);
bool rc_manifest_has(const rc_manifest *m, const char *name);
/* The size listed for `name`; false when it is not listed. */
bool rc_manifest_size(const rc_manifest *m, const char *name, size_t *size);

/* Whether `name` is up to date: listed in `m` with `key` (not 0), and in
 * `out`'s directory a regular file of the size listed. */
bool rc_manifest_intact(const rc_manifest *m, const rc_output *out, const char *name,
                        uint64_t key);

/* The key of what file `name` was made from, for the new manifest; 0 when
 * unknown. */
typedef uint64_t (*rc_manifest_key_fn)(void *ctx, const char *name);

/* Ends a run's writing: the files `out` made or kept become the manifest,
 * each with the key key_of gives (0 for one that failed to write), and the
 * files `previous` lists that this run did not make are removed. When the
 * run failed to write some file (rc_output_failed), nothing is removed and
 * the new manifest keeps the previous names too, so a later run can still
 * remove them. The manifest is rewritten only when its text changes.
 * Returns the number of files removed; failures are reported as faults. */
size_t rc_manifest_finish(rc_output *out, const rc_manifest *previous, rc_manifest_key_fn key_of,
                          void *ctx, rc_diag *diag);

#endif
