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
 *                   percent percent-text [comparable="no"]/>...
 *           (quantity: t_total, t_body, t_compute, t_mem, t_launch or t_estimate;
 *            comparable="no": the baseline's value is not a time)
 *       </kernel>
 *     </changes>
 *     <kernels><kernel ...> ... <changes> (a copy of that kernel's entry)
 *
 * A baseline that is missing, corrupt, from an older or a newer roofcast,
 * or holding values that are not times (NaN, infinite, negative) is a
 * warning: the run goes on and compares what it can.
 */
#ifndef ROOFCAST_COMPARE_H
#define ROOFCAST_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

#include <libxml/tree.h>

#include "util/diag.h"

typedef struct {
    bool compared;             /* a baseline was read */
    size_t estimates_changed;  /* estimate values that differ */
    double max_abs_percent;    /* the largest |change| in percent; inf when a
                                  value moved from 0 */
    /* The --fail-on-change gate follows one quantity per kernel x GPU (rc_compare_open's
     * `gate`: t_estimate or t_total) only: */
    double gate_percent;       /* the largest |change| of one, in percent */
    char gate_what[320];       /* which: "t_total of gpuMeans on titan-black" */
    size_t unusable_tracked;   /* baseline values of one that are not times
                                  (NaN, infinite, negative): the gate fails */
} rc_compare_summary;

/* A comparison in progress, made as the kernels come (see run.c):
 * rc_compare_open reads the baseline and notes GPUs added and removed
 * against this run's <gpus>; it returns NULL, after a warning, when there
 * is no usable baseline. For each kernel, rc_compare_kernel compares its
 * <kernel> (in that kernel's own tree) and adds to it the <changes> its
 * reports show; it only reads the comparison, so several threads may call
 * it at once. rc_compare_commit then takes that kernel's part into the
 * run's <changes>, in kernel order (it is not thread-safe). Last,
 * rc_compare_finish notes the kernels removed, adds <changes> to the root
 * of `doc`, fills *summary and frees the comparison; rc_compare_free frees
 * one that is not finished. */
typedef struct rc_comparison rc_comparison;

typedef struct {
    xmlNodePtr entry;          /* the kernel's part of <changes>, or NULL */
    size_t estimates_changed;
    double max_abs_percent;
    const char *missing;       /* a quantity the baseline lacks, or NULL */
    bool missing_tracked;      /* the baseline lacks the quantity the gate follows */
    const char *gate;          /* the quantity the gate follows (the comparison's) */
    double gate_percent;       /* as in rc_compare_summary, for this kernel */
    const char *gate_quantity; /* which: "t_total" */
    char gate_gpu[128];        /* on which GPU */
    size_t unusable, unusable_tracked; /* baseline values that are not times */
    char unusable_first[200];  /* the first: "t_total on titan-black is 'nan'" */
    int unusable_line;         /* its line in the baseline */
} rc_kernel_change;

/* `gate`: the quantity --fail-on-change follows, "t_estimate" or "t_total" (borrowed; it
 * must outlive the comparison). */
rc_comparison *rc_compare_open(const char *path, xmlNodePtr new_gpus, const char *gate,
                               rc_diag *diag);
/* rc_compare_open with the baseline's text (len bytes) in memory, `name`
 * naming it in messages: for the fuzz target (tests/fuzz/fuzz_baseline.c). */
rc_comparison *rc_compare_open_text(const char *name, const char *text, size_t len,
                                    xmlNodePtr new_gpus, const char *gate, rc_diag *diag);
void rc_compare_kernel(const rc_comparison *c, xmlNodePtr kernel, rc_kernel_change *change);
void rc_compare_commit(rc_comparison *c, const char *kernel_id, rc_kernel_change *change);
void rc_compare_finish(rc_comparison *c, xmlDocPtr doc, rc_compare_summary *summary);
void rc_compare_free(rc_comparison *c);

#endif
