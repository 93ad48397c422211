/* output.h: writing the output directory, each file whole or not at all.
 *
 * Every file is written to a temporary file in the same directory and
 * renamed into place, so a crash, a full disk or a kill leaves either the
 * previous file or the new one, never a torn one. Errors are reported with
 * the path and the system's reason.
 */
#ifndef ROOFCAST_OUTPUT_H
#define ROOFCAST_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include "util/diag.h"

typedef struct rc_output rc_output;

/* A hook that stands in for write(2), so tests can inject faults such as
 * a full disk. NULL restores the real write. */
typedef ssize_t (*rc_write_fn)(int fd, const void *buf, size_t len);

/* Creates `dir` (and its parents) when missing and takes its lock
 * (.roofcast.lock, flock), so that one run at a time writes there; then
 * removes the temporary files an interrupted run left (by their names:
 * see output.c). Returns NULL after reporting when the directory cannot
 * be created or another run holds the lock. Free with rc_output_free,
 * which releases the lock. */
rc_output *rc_output_new(const char *dir, rc_diag *diag);
void rc_output_free(rc_output *out);

/* For programs (main.c), before any other thread starts: on SIGINT,
 * SIGTERM or SIGHUP, every temporary file in the making is removed and the
 * process dies of the signal (the shell sees 128 + its number: 130, 143,
 * 129), leaving each output file either as it was or complete. SIGXFSZ is
 * ignored, so a file past the size limit fails to write like a full disk.
 * Returns false when the signal thread cannot be started. */
bool rc_output_clean_on_signals(void);

void rc_output_set_write_hook(rc_output *out, rc_write_fn fn);

/* Writes `name` (a plain file name, no '/') atomically. Returns false after
 * reporting; rc_output_failed then stays true. Safe from several threads. */
bool rc_output_write(rc_output *out, const char *name, const void *data, size_t len);

/* Like rc_output_write, for roofcast's own bookkeeping (the manifest):
 * neither listed among the files written nor counted. */
bool rc_output_write_unlisted(rc_output *out, const char *name, const void *data, size_t len);

/* A file written piece by piece, for the files that cover every kernel
 * (results.xml, estimates.csv, summary.pdf): the pieces go to a temporary
 * file as they come, gathered into writes of up to 64 KB, and
 * rc_output_close writes the rest and renames it into place. rc_output_open returns
 * NULL after reporting. rc_output_append keeps the first error, which
 * rc_output_close reports (returning false, the temporary file removed);
 * rc_output_abandon removes it without a word. Both close and abandon free
 * the handle. One thread at a time per file. */
typedef struct rc_output_file rc_output_file;
rc_output_file *rc_output_open(rc_output *out, const char *name);
/* The same for roofcast's own bookkeeping (the overviews' cache), like
 * rc_output_write_unlisted: not listed, not counted, only a failure noted. */
rc_output_file *rc_output_open_unlisted(rc_output *out, const char *name);
void rc_output_append(rc_output_file *f, const void *data, size_t len);
bool rc_output_close(rc_output_file *f);
void rc_output_abandon(rc_output_file *f);
/* rc_output_abandon for a file that should have been made: noted as failed
 * (rc_output_failed), so the previous file stays, listed in the manifest,
 * and nothing of the earlier run is removed. The caller has reported why. */
void rc_output_fail(rc_output_file *f);

/* A scratch file in the output directory for data on its way to an output
 * file that is too large to keep in memory (summary.pdf's finished pages).
 * It has no name (unlinked as soon as made), so nothing is left behind
 * whatever happens, and it lives on the disk the outputs go to rather
 * than in /tmp, which may be memory. Returns NULL, reporting nothing, when
 * it cannot be made: the caller keeps the data in memory instead. The
 * caller fcloses it. */
FILE *rc_output_scratch(rc_output *out, const char *name);

/* Notes that the file `name` of `size` bytes, up to date, is kept as it
 * is: listed among the run's files (the manifest keeps it), not written
 * and not counted as written. Safe from several threads. */
void rc_output_keep(rc_output *out, const char *name, size_t size);

/* The files this run wrote, tried to write or kept, in the order they were
 * finished (rc_output_write, rc_output_close, a failed rc_output_open, or
 * rc_output_keep): what the manifest lists (manifest.h). Call once the
 * writing threads are done; entries are valid until rc_output_free. */
typedef struct {
    char *name;
    size_t size; /* bytes written, or the size of the file kept */
    bool written; /* false: the write failed, and the previous file is as it was */
    bool kept;    /* up to date, left as it was (rc_output_keep) */
} rc_output_entry;
size_t rc_output_files(const rc_output *out);
const rc_output_entry *rc_output_file_at(const rc_output *out, size_t i);

/* Whether the lock file says that the last run into this directory was
 * killed before it finished its manifest (output.c): then no file there
 * can be trusted to match its manifest entry. */
bool rc_output_interrupted(const rc_output *out);
/* Called once the manifest lists what this run made (manifest.c): the
 * next run need not distrust its files. */
void rc_output_mark_complete(rc_output *out);

/* ---- opening a file by name, safely ---------------------------------------
 *
 * Every file roofcast opens in the output directory, and the baseline, is
 * opened relative to its directory's descriptor (openat), so a directory
 * renamed or replaced during the run cannot send it elsewhere; with
 * O_NONBLOCK, so a FIFO there cannot hang the run; and taken only when it
 * is a regular file. In the output directory no symbolic link is followed
 * (follow false): files are written to a new temporary file (O_EXCL) and
 * renamed over the old name, and removed by unlinkat, so nothing outside
 * the directory is ever written, truncated or removed. */

/* openat(dirfd, name, flags | O_NONBLOCK | O_CLOEXEC [| O_NOFOLLOW]) (mode
 * 0666 with O_CREAT), kept only when a regular file (O_NONBLOCK cleared
 * again). Returns the descriptor, or -1 with errno set and, when the name
 * is there but is not a regular file, *why saying what it is ("a FIFO",
 * "a directory", "a symbolic link, which roofcast does not follow");
 * *why is NULL otherwise. */
int rc_open_regular(int dirfd, const char *name, int flags, bool follow, const char **why);

/* The whole regular file, NUL-terminated (it may hold other NULs: *len is
 * its length); NULL with errno set and *why as rc_open_regular's, or
 * "too large" past `max` bytes. The caller frees it. */
char *rc_read_regular(int dirfd, const char *name, bool follow, size_t max, size_t *len,
                      const char **why);

/* "a directory", "a FIFO", ... for a file type that is not a regular file. */
const char *rc_file_kind(mode_t mode);

/* The output directory's descriptor, for rc_open_regular, fstatat and
 * unlinkat; valid until rc_output_free. */
int rc_output_dirfd(const rc_output *out);

bool rc_output_failed(const rc_output *out);
size_t rc_output_written(const rc_output *out);
size_t rc_output_kept(const rc_output *out);
const char *rc_output_dir(const rc_output *out);

#endif
