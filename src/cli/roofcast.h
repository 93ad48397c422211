/* roofcast.h: the library's entry point, used by main.c, tests and
 * benchmarks. One call runs the whole pipeline:
 *
 *   load (input/load_*.c) -> evaluate (eval.c) -> results tree (results*.c)
 *     -> renderers (render_*.c) -> output directory (output.c)
 */
#ifndef ROOFCAST_H
#define ROOFCAST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "util/version.h" /* RC_VERSION */

/* Output formats, a bit each. ORDER RC_FORMAT */
enum {
    RC_FORMAT_MD = 1u << 0,
    RC_FORMAT_HTML = 1u << 1,
    RC_FORMAT_SVG = 1u << 2,
    RC_FORMAT_PNG = 1u << 3,
    RC_FORMAT_PDF = 1u << 4,
    RC_FORMAT_CSV = 1u << 5,
    RC_FORMAT_XML = 1u << 6,
    RC_FORMAT_ALL = (1u << 7) - 1
};

/* Exit statuses. */
enum {
    RC_EXIT_OK = 0,       /* everything written */
    RC_EXIT_INPUT = 1,    /* some input was rejected; the rest was written */
    RC_EXIT_USAGE = 2,    /* bad command line */
    RC_EXIT_OUTPUT = 3,   /* output could not be written */
    RC_EXIT_CHANGED = 4   /* --fail-on-change: an estimate moved too much */
};

typedef struct {
    const char *const *inputs; /* kernel files or directories */
    size_t ninputs;            /* 0: "kernels" */
    const char *specs;         /* GPU file or directory; NULL: "specs" */
    const char *output_dir;    /* NULL: "output" */
    const char *templates_dir; /* NULL: "templates", else the installed copy */
    unsigned formats;          /* RC_FORMAT_* bits; 0: all */
    const char *const *gpu_ids; /* only these GPUs; NULL: all */
    size_t ngpu_ids;
    bool check;                /* print the estimates table; write nothing */
    const char *baseline;      /* a previous output/ or results.xml; NULL: none */
    double fail_on_change;     /* percent; < 0: comparison never fails the run */
    const char *gate;          /* what --fail-on-change follows: "t_estimate" (the default)
                                  or "t_total" (--fail-on-change-of) */
    int verbosity;             /* 0 quiet, 1 normal, 2 verbose */
    int jobs;                  /* worker threads; 0: one per processor */
    bool timings;              /* print CPU time per stage, peak memory, user and system time */
    bool force;                /* make every file again, even those up to date */
} rc_options;

/* Parses a comma-separated format list ("md,csv", spaces around names
 * allowed) into *formats. Returns false for an unknown or empty name, which
 * is copied to bad[badlen]. */
bool rc_parse_formats(const char *list, unsigned *formats, char *bad, size_t badlen);

/* Runs roofcast. Messages go to `err`, the --check table to `out`.
 * Returns an RC_EXIT_* status. */
int rc_run(const rc_options *options, FILE *out, FILE *err);

#endif
