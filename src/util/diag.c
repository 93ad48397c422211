/* diag.c: see diag.h. */
#include "util/diag.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "util/array.h"

struct rc_diag {
    FILE *stream;
    int verbosity;
    pthread_mutex_t lock;
    rc_diag_entry *entries;
    size_t count, capacity;
    size_t errors, faults, pair_errors;
    size_t error_files; /* distinct files with an error, counted as they come */
    /* rc_diag_once's keys: open addressing, at most half full. */
    char **once;
    size_t once_count, once_capacity;
};

rc_diag *rc_diag_new(FILE *stream, int verbosity)
{
    rc_diag *d = calloc(1, sizeof *d);
    if (!d)
        return NULL;
    d->stream = stream;
    d->verbosity = verbosity;
    pthread_mutex_init(&d->lock, NULL);
    return d;
}

void rc_diag_free(rc_diag *d)
{
    if (!d)
        return;
    for (size_t i = 0; i < d->count; i++) {
        free(d->entries[i].file);
        free(d->entries[i].message);
    }
    free(d->entries);
    for (size_t i = 0; i < d->once_capacity; i++)
        free(d->once[i]);
    free(d->once);
    pthread_mutex_destroy(&d->lock);
    free(d);
}

static bool once_locked(rc_diag *d, const char *kind, const char *name);

static char *dup_or_null(const char *s)
{
    return s ? strdup(s) : NULL;
}

void rc_verror_at(rc_diag *d, rc_diag_severity sev, const char *file, int line,
                  const char *fmt, va_list ap)
{
    char buf[2048];
    vsnprintf(buf, sizeof buf, fmt, ap);
    pthread_mutex_lock(&d->lock);
    const char *prefix = sev == RC_DIAG_WARNING ? "warning: " : "";
    /* An input's problem is the input's ("file:line: "); an output file's
     * is the program's ("roofcast: file: "). */
    const char *program = sev == RC_DIAG_FAULT && file ? "roofcast: " : "";
    if (file && line > 0)
        fprintf(d->stream, "%s%s:%d: %s%s\n", program, file, line, prefix, buf);
    else if (file)
        fprintf(d->stream, "%s%s: %s%s\n", program, file, prefix, buf);
    else
        fprintf(d->stream, "roofcast: %s%s\n", prefix, buf);
    fflush(d->stream);
    if (RC_GROW(d->entries, d->capacity, d->count + 1)) {
        rc_diag_entry *e = &d->entries[d->count++];
        e->severity = sev;
        e->file = dup_or_null(file);
        e->line = line;
        e->message = strdup(buf);
    }
    if (sev == RC_DIAG_ERROR && file && once_locked(d, "error-file", file))
        d->error_files++;
    if (sev == RC_DIAG_ERROR)
        d->errors++;
    else if (sev == RC_DIAG_FAULT)
        d->faults++;
    else if (sev == RC_DIAG_PAIR)
        d->pair_errors++;
    pthread_mutex_unlock(&d->lock);
}

void rc_error_at(rc_diag *d, const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    rc_verror_at(d, RC_DIAG_ERROR, file, line, fmt, ap);
    va_end(ap);
}

void rc_pair_error_at(rc_diag *d, const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    rc_verror_at(d, RC_DIAG_PAIR, file, line, fmt, ap);
    va_end(ap);
}

void rc_warn_at(rc_diag *d, const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    rc_verror_at(d, RC_DIAG_WARNING, file, line, fmt, ap);
    va_end(ap);
}

void rc_fault_at(rc_diag *d, const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    rc_verror_at(d, RC_DIAG_FAULT, file, line, fmt, ap);
    va_end(ap);
}

void rc_info(rc_diag *d, int level, const char *fmt, ...)
{
    if (d->verbosity < level)
        return;
    va_list ap;
    va_start(ap, fmt);
    pthread_mutex_lock(&d->lock);
    fputs("roofcast: ", d->stream);
    vfprintf(d->stream, fmt, ap);
    fputc('\n', d->stream);
    fflush(d->stream);
    pthread_mutex_unlock(&d->lock);
    va_end(ap);
}

size_t rc_diag_errors(const rc_diag *d) { return d->errors; }
size_t rc_diag_faults(const rc_diag *d) { return d->faults; }
size_t rc_diag_pair_errors(const rc_diag *d) { return d->pair_errors; }
size_t rc_diag_count(const rc_diag *d) { return d->count; }

size_t rc_diag_error_files(const rc_diag *d) { return d->error_files; }

const rc_diag_entry *rc_diag_entry_at(const rc_diag *d, size_t i)
{
    return i < d->count ? &d->entries[i] : NULL;
}

/* FNV-1a: a key's slot in the once set. */
static size_t key_hash(const char *key)
{
    size_t h = (size_t)14695981039346656037ULL;
    for (const unsigned char *k = (const unsigned char *)key; *k; k++)
        h = (h ^ *k) * (size_t)1099511628211ULL;
    return h;
}

/* The slot of `key` in the set, or the empty slot where it would go. */
static size_t once_slot(char *const *set, size_t capacity, const char *key)
{
    size_t i = key_hash(key) & (capacity - 1);
    while (set[i] && strcmp(set[i], key) != 0)
        i = (i + 1) & (capacity - 1);
    return i;
}

/* Doubles the set (a power of two, 64 at first). False when out of
 * memory. */
static bool once_grow(rc_diag *d)
{
    size_t capacity = d->once_capacity ? 2 * d->once_capacity : 64;
    char **set = calloc(capacity, sizeof *set);
    if (!set)
        return false;
    for (size_t i = 0; i < d->once_capacity; i++)
        if (d->once[i])
            set[once_slot(set, capacity, d->once[i])] = d->once[i];
    free(d->once);
    d->once = set;
    d->once_capacity = capacity;
    return true;
}

/* rc_diag_once for the key "kind name", with the lock held. */
static bool once_locked(rc_diag *d, const char *kind, const char *name)
{
    size_t n = strlen(kind) + strlen(name) + 2;
    char *key = malloc(n);
    if (!key || (2 * (d->once_count + 1) > d->once_capacity && !once_grow(d))) {
        free(key);
        return true; /* out of memory: say it again rather than never */
    }
    snprintf(key, n, "%s %s", kind, name);
    size_t i = once_slot(d->once, d->once_capacity, key);
    if (d->once[i]) {
        free(key);
        return false;
    }
    d->once[i] = key;
    d->once_count++;
    return true;
}

bool rc_diag_once(rc_diag *d, const char *key)
{
    pthread_mutex_lock(&d->lock);
    bool first = once_locked(d, "once", key);
    pthread_mutex_unlock(&d->lock);
    return first;
}
