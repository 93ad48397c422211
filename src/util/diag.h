/* diag.h: messages for the user, gated by verbosity, and the record of
 * every input that was rejected.
 *
 * Input problems are printed as "file:line: what is wrong" on the stream
 * given to rc_diag_new and recorded, so the index can list them. A
 * diagnostics object may be shared by threads: every call locks.
 */
#ifndef ROOFCAST_DIAG_H
#define ROOFCAST_DIAG_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct rc_diag rc_diag;

typedef enum {
    RC_DIAG_ERROR,   /* an input was rejected */
    RC_DIAG_WARNING, /* the input was used, but something is odd */
    RC_DIAG_FAULT,   /* an output could not be made or written (exit status 3) */
    RC_DIAG_PAIR,    /* a kernel cannot run on one GPU: that pair has no estimate, the
                        input is used for the others (exit status 1; not a rejected input) */
} rc_diag_severity;

/* One recorded message; file may be NULL for messages about no file. */
typedef struct {
    rc_diag_severity severity;
    char *file;
    int line;  /* 0 when no line applies */
    char *message;
} rc_diag_entry;

/* verbosity: 0 quiet (errors only), 1 normal, 2 verbose. The caller keeps
 * `stream` open; rc_diag_free frees the recorded entries. */
rc_diag *rc_diag_new(FILE *stream, int verbosity);
void rc_diag_free(rc_diag *d);

#if defined(__GNUC__)
#define RC_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define RC_PRINTF(a, b)
#endif

/* Prints "file:line: message" (or "file: message" when line is 0, or
 * "roofcast: message" when file is NULL) and records it. Every message
 * starts with "roofcast: " unless it is about an input file. */
void rc_error_at(rc_diag *d, const char *file, int line, const char *fmt, ...)
    RC_PRINTF(4, 5);
void rc_warn_at(rc_diag *d, const char *file, int line, const char *fmt, ...)
    RC_PRINTF(4, 5);
/* Like rc_error_at, for a problem with the output rather than an input:
 * printed as "roofcast: file:line: message" (the file is ours, not the
 * user's input), never listed among the rejected inputs. */
void rc_fault_at(rc_diag *d, const char *file, int line, const char *fmt, ...)
    RC_PRINTF(4, 5);
void rc_verror_at(rc_diag *d, rc_diag_severity sev, const char *file, int line,
                  const char *fmt, va_list ap);

/* Prints "roofcast: " and an information line when verbosity >= level. */
void rc_info(rc_diag *d, int level, const char *fmt, ...) RC_PRINTF(3, 4);

/* Like rc_error_at ("file:line: message"), for a kernel x GPU pair that
 * cannot be estimated (RC_DIAG_PAIR): not listed among the rejected inputs. */
void rc_pair_error_at(rc_diag *d, const char *file, int line, const char *fmt, ...)
    RC_PRINTF(4, 5);

/* Input errors (RC_DIAG_ERROR), output faults (RC_DIAG_FAULT) and pairs
 * not estimated (RC_DIAG_PAIR) so far. */
size_t rc_diag_errors(const rc_diag *d);
size_t rc_diag_faults(const rc_diag *d);
size_t rc_diag_pair_errors(const rc_diag *d);
size_t rc_diag_count(const rc_diag *d);
/* The number of distinct files with at least one error: the inputs
 * rejected (a file with three problems is one input). */
size_t rc_diag_error_files(const rc_diag *d);
/* True the first time `key` is given to this object, false every time
 * after, from any thread: for a message said once per run however often
 * its cause is met (a character the fonts lack, once per input file).
 * Constant time on average (a hash set), so hostile text with thousands of
 * such characters costs no more than its length. True when out of memory. */
bool rc_diag_once(rc_diag *d, const char *key);

/* The i-th recorded entry, valid until rc_diag_free. */
const rc_diag_entry *rc_diag_entry_at(const rc_diag *d, size_t i);

#endif
