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
 * The file is text, one entry a line, sorted, so that two runs that wrote
 * the same files leave the same manifest:
 *
 *   roofcast-manifest 1
 *   file NAME SIZE
 */
#ifndef ROOFCAST_MANIFEST_H
#define ROOFCAST_MANIFEST_H

#include <stdbool.h>
#include <stddef.h>

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

size_t rc_manifest_count(const rc_manifest *m);
const char *rc_manifest_name(const rc_manifest *m, size_t i);
bool rc_manifest_has(const rc_manifest *m, const char *name);

/* Ends a run's writing: the files `out` made become the manifest, and the
 * files `previous` lists that this run did not make are removed. When the
 * run failed to write some file (rc_output_failed), nothing is removed and
 * the new manifest keeps the previous names too, so a later run can still
 * remove them. The manifest is rewritten only when its text changes.
 * Returns the number of files removed; failures are reported as faults. */
size_t rc_manifest_finish(rc_output *out, const rc_manifest *previous, rc_diag *diag);

#endif
