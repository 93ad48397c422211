/* results.h: the results tree, the one place where numbers become content.
 *
 * The tree is a libxml2 document (written out as results.xml). Every
 * renderer reads it and nothing else, so the Markdown, HTML, PDF, charts and
 * CSV cannot disagree. Each number appears as a full-precision attribute
 * (`flops="240000"`) and, where people read it, with its shown form beside
 * it (`flops-text="240,000"`), made once by format.c. The interpretation's
 * sentences are made by interpret.c, from the computed facts.
 *
 * Shape (see README.md, "The results tree"):
 *   <roofcast-results format-version="1">
 *     <gpus><gpu .../>...</gpus>
 *     <kernels><kernel ...>
 *        <launch/> <params/> <notes/> <counts basis="model">...</counts>
 *        [<counts basis="launch">...</counts>] <estimates/> <interpretation/>
 *     </kernel>...</kernels>
 *     <rejected><input file= line= message=/>...</rejected>
 *   </roofcast-results>
 */
#ifndef ROOFCAST_RESULTS_H
#define ROOFCAST_RESULTS_H

#include <stddef.h>

#include <libxml/tree.h>

#include "util/diag.h"
#include "model/eval.h"
#include "model/model.h"

#define RC_RESULTS_FORMAT_VERSION "1"

/* A kernel with its counts: `model` as modelled; `launch` as the launch runs
 * it, meaningful when kernel->has_assumptions. The caller owns all of it. */
typedef struct {
    const rc_kernel *kernel;
    const rc_counts *model;
    const rc_counts *launch; /* NULL when the kernel states no assumption */
} rc_kernel_result;

/* A new document holding the GPUs and no kernels; the caller frees it with
 * xmlFreeDoc. gpus[] must stay in the order they are to be shown. */
xmlDocPtr rc_results_new(const rc_gpu *const *gpus, size_t ngpus);

/* Appends one kernel, its counts, estimates on every GPU of the document
 * and interpretation to doc's <kernels>. Returns the new <kernel> node. */
xmlNodePtr rc_results_add_kernel(xmlDocPtr doc, const rc_gpu *const *gpus,
                                 size_t ngpus, const rc_kernel_result *result);

/* A new document holding doc's root attributes, its <gpus> and a copy of
 * `kernel` alone: what a per-kernel renderer needs, without searching
 * every kernel. The caller frees it with xmlFreeDoc. Reads doc only, so
 * several threads may make their copies at once. */
xmlDocPtr rc_results_kernel_doc(xmlDocPtr doc, xmlNodePtr kernel);

/* A new <kernel> node in `doc`, not yet linked, with what the overviews
 * read of `kernel` and nothing more: its id, name and file, <summary>, the
 * model's total FLOPs and bytes and its intensity (as text), and on each
 * GPU the estimate's t-total, intensity, bound, fastest and
 * launch-dominated. A
 * run keeps this of every kernel, and each kernel's whole tree only while
 * its own files are made, so memory does not grow with a kernel's detail. */
xmlNodePtr rc_results_overview_kernel(xmlDocPtr doc, xmlNodePtr kernel);

/* Appends <rejected> with every error recorded in `diag`, ordered by file
 * (the order of the messages within a file kept), so the list does not
 * depend on which thread reported first. */
void rc_results_add_rejected(xmlDocPtr doc, const rc_diag *diag);

/* The document's first element child named `name` under `parent`. */
xmlNodePtr rc_results_child(xmlNodePtr parent, const char *name);

#endif
