/* compare.h: what changed since a previous run (--baseline).
 *
 * The baseline is a previous results.xml (or the output directory holding
 * it). Comparing adds to the results tree, so every renderer can show it:
 *
 *   <roofcast-results>
 *     <changes baseline="path" baseline-version="1" estimates-changed="3"
 *              max-percent="12.5" max-percent-text="12.5">
 *       <gpu-added id name/> <gpu-removed id name/>
 *       <kernel-added id name/> <kernel-removed id name/>
 *       <kernel id name>      (one per kernel whose estimates or inputs changed)
 *         <input kind="param|launch|count|gpu" name old new [gpu]/>...
 *         <estimate gpu gpu-name quantity old new old-text new-text
 *                   percent percent-text/>...
 *       </kernel>
 *     </changes>
 *     <kernels><kernel ...> ... <changes> (a copy of that kernel's entry)
 *
 * A baseline that is missing, corrupt or from an older roofcast is a
 * warning: the run goes on and compares what it can.
 */
#ifndef ROOFCAST_COMPARE_H
#define ROOFCAST_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

#include <libxml/tree.h>

#include "diag.h"

typedef struct {
    bool compared;             /* a baseline was read */
    size_t estimates_changed;  /* estimate values that differ */
    double max_abs_percent;    /* the largest |change| in percent; inf when a
                                  value moved from 0 */
} rc_compare_summary;

/* Compares `doc` (this run's results tree, complete) with the baseline at
 * `path` and adds the <changes> elements. Problems with the baseline are
 * reported as warnings through `diag`. Fills *summary. */
void rc_compare_baseline(xmlDocPtr doc, const char *path, rc_diag *diag,
                         rc_compare_summary *summary);

/* changes.csv: kind,kernel,gpu,quantity,old,new,change_percent (RFC 4180).
 * changes.md: the same for people. Both from doc's <changes>; the caller
 * frees the buffers. NULL when doc has no <changes>. */
char *rc_render_changes_csv(xmlDocPtr doc, size_t *len);
char *rc_render_changes_md(xmlDocPtr doc, size_t *len);

#endif
