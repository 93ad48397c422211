/* manifest.c: see manifest.h. */

#include "util/manifest.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/array.h"
#include "util/buffer.h"
#include "util/hash.h"

#define HEADER "roofcast-manifest 2\n"
#define HEADER_V1 "roofcast-manifest 1\n" /* no keys and no end line: read, never written */
#define MAX_BYTES (64u << 20) /* far more than 1e5 kernels need */

typedef struct {
    char *name;
    size_t size;
    uint64_t key; /* what the file was made from; 0: unknown */
} entry;

struct rc_manifest {
    entry *files; /* sorted by name, no duplicates */
    size_t count, cap;
};

static int compare_entries(const void *a, const void *b)
{
    return strcmp(((const entry *)a)->name, ((const entry *)b)->name);
}

static bool add(rc_manifest *m, const char *name, size_t size, uint64_t key)
{
    if (!RC_GROW(m->files, m->cap, m->count + 1))
        return false;
    char *copy = strdup(name);
    if (!copy)
        return false;
    m->files[m->count++] = (entry){copy, size, key};
    return true;
}

/* Sorts, and drops the second of two entries with one name. */
static void sort_unique(rc_manifest *m)
{
    if (m->count == 0)
        return;
    qsort(m->files, m->count, sizeof *m->files, compare_entries);
    size_t kept = 1;
    for (size_t i = 1; i < m->count; i++) {
        if (strcmp(m->files[i].name, m->files[kept - 1].name) == 0)
            free(m->files[i].name);
        else
            m->files[kept++] = m->files[i];
    }
    m->count = kept;
}

static void clear(rc_manifest *m)
{
    for (size_t i = 0; i < m->count; i++)
        free(m->files[i].name);
    m->count = 0;
}

void rc_manifest_free(rc_manifest *m)
{
    if (!m)
        return;
    clear(m);
    free(m->files);
    free(m);
}

size_t rc_manifest_count(const rc_manifest *m) { return m->count; }
const char *rc_manifest_name(const rc_manifest *m, size_t i) { return m->files[i].name; }

static const entry *find(const rc_manifest *m, const char *name)
{
    entry key = {(char *)name, 0, 0};
    return m->count > 0 ? bsearch(&key, m->files, m->count, sizeof *m->files, compare_entries)
                        : NULL;
}

bool rc_manifest_has(const rc_manifest *m, const char *name) { return find(m, name) != NULL; }

bool rc_manifest_size(const rc_manifest *m, const char *name, size_t *size)
{
    const entry *e = find(m, name);
    if (e)
        *size = e->size;
    return e != NULL;
}

/* A name roofcast writes: a plain file name in the output directory,
 * never a path, a hidden file or something the shell would split. Only
 * such names are ever removed, whatever a manifest says. */
static bool plain_name(const char *s)
{
    if (!*s || *s == '.')
        return false;
    for (; *s; s++)
        if (!(('a' <= *s && *s <= 'z') || ('A' <= *s && *s <= 'Z') || ('0' <= *s && *s <= '9') ||
              *s == '_' || *s == '-' || *s == '.'))
            return false;
    return true;
}

static char *path_in(const rc_output *out, const char *name)
{
    size_t n = strlen(rc_output_dir(out)) + strlen(name) + 2;
    char *path = malloc(n);
    if (path)
        snprintf(path, n, "%s/%s", rc_output_dir(out), name);
    return path;
}

/* The manifest's text (rc_read_regular: no symbolic link, no FIFO);
 * NULL with errno set and maybe *why. */
static char *read_whole(const rc_output *out, size_t *len, const char **why)
{
    return rc_read_regular(rc_output_dirfd(out), RC_MANIFEST_NAME, false, MAX_BYTES, len, why);
}

/* One "file NAME SIZE[ KEY]" line (the key in version 2 only). */
static bool parse_entry(rc_manifest *m, const char *p, bool keyed)
{
    char name[256];
    size_t size;
    unsigned long long key = 0;
    int used = 0;
    bool ok = keyed ? sscanf(p, "file %255s %zu %16llx%n", name, &size, &key, &used) == 3
                    : sscanf(p, "file %255s %zu%n", name, &size, &used) == 2;
    return ok && p[used] == '\0' && plain_name(name) && add(m, name, size, (uint64_t)key);
}

/* Parses the text after the header; false at the first line that is not
 * an entry, with *line its number. Version 2 ends with "end COUNT HASH",
 * the number of entries and the hash of every byte before that line, so
 * that a manifest cut short at a line's end or with a changed digit is
 * told from a whole one. */
static bool parse(rc_manifest *m, const char *text, size_t header_len, bool keyed, int *line)
{
    *line = 1;
    for (const char *p = text + header_len, *next; *p; p = next) {
        ++*line;
        const char *end = strchr(p, '\n');
        char copy[512]; /* the text is left whole for the end line's hash */
        if (!end || (size_t)(end - p) >= sizeof copy)
            return false; /* a torn last line, or not an entry */
        memcpy(copy, p, (size_t)(end - p));
        copy[end - p] = '\0';
        next = end + 1;
        size_t count;
        unsigned long long sum;
        int used = 0;
        if (keyed && sscanf(copy, "end %zu %16llx%n", &count, &sum, &used) == 2 &&
            copy[used] == '\0')
            return *next == '\0' && count == m->count &&
                   sum == rc_hash_bytes(RC_HASH_INIT, text, (size_t)(p - text));
        if (!parse_entry(m, copy, keyed))
            return false;
    }
    if (keyed)
        ++*line; /* where the end line should be */
    return !keyed; /* version 2 without its end line: cut short */
}

rc_manifest *rc_manifest_parse(const char *text, size_t len, int *line, bool *v1)
{
    rc_manifest *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    *line = 1;
    *v1 = false;
    bool ok = memchr(text, '\0', len) == NULL; /* a NUL would end the text early */
    if (ok && len >= strlen(HEADER) && strncmp(text, HEADER, strlen(HEADER)) == 0)
        ok = parse(m, text, strlen(HEADER), true, line);
    else if (ok && len >= strlen(HEADER_V1) && strncmp(text, HEADER_V1, strlen(HEADER_V1)) == 0)
        ok = *v1 = parse(m, text, strlen(HEADER_V1), false, line);
    else
        ok = false;
    if (!ok) {
        rc_manifest_free(m);
        return NULL;
    }
    sort_unique(m);
    return m;
}

rc_manifest *rc_manifest_read(const rc_output *out, rc_diag *diag)
{
    char *path = path_in(out, RC_MANIFEST_NAME);
    if (!path)
        return NULL;
    size_t len = 0;
    const char *why = NULL;
    char *text = read_whole(out, &len, &why);
    rc_manifest *m = NULL;
    int line = 1;
    bool v1 = false;
    if (!text) {
        if (why)
            rc_warn_at(diag, path, 0, "is %s, not roofcast's manifest: it is not read, and no "
                       "earlier file is removed", why);
        else if (errno != ENOENT)
            rc_warn_at(diag, path, 0, "cannot read: %s; no earlier files are removed",
                       strerror(errno));
    } else if (!(m = rc_manifest_parse(text, len, &line, &v1))) {
        rc_warn_at(diag, path, line, "not a whole roofcast manifest of this version; every file "
                   "is made again and no earlier file is removed");
    } else if (v1) {
        /* Version 1 has no end line: a file cut short or altered looks whole,
         * so what it lists is never removed (nor carried into this run's). */
        rc_warn_at(diag, path, 0, "a manifest of an older roofcast (version 1, without a "
                   "checksum): every file is made again and no earlier file is removed");
        clear(m);
    }
    if (!m)
        m = calloc(1, sizeof *m); /* empty: nothing is removed; NULL only when out of memory */
    free(text);
    free(path);
    return m;
}

char *rc_manifest_text(const rc_manifest *m, size_t *len)
{
    rc_buffer b = {0};
    rc_buffer_puts(&b, HEADER);
    for (size_t i = 0; i < m->count; i++)
        rc_buffer_printf(&b, "file %s %zu %016llx\n", m->files[i].name, m->files[i].size,
                         (unsigned long long)m->files[i].key);
    uint64_t sum = b.data ? rc_hash_bytes(RC_HASH_INIT, b.data, b.len) : 0;
    rc_buffer_printf(&b, "end %zu %016llx\n", m->count, (unsigned long long)sum);
    return rc_buffer_take(&b, len);
}

/* Writes `m` unless the manifest already says the same. */
static bool write_manifest(rc_output *out, const rc_manifest *m)
{
    size_t len = 0;
    char *text = rc_manifest_text(m, &len);
    if (!text)
        return false;
    size_t old_len = 0;
    const char *why;
    char *old = read_whole(out, &old_len, &why);
    bool same = old && old_len == len && memcmp(old, text, len) == 0;
    bool ok = same || rc_output_write_unlisted(out, RC_MANIFEST_NAME, text, len);
    free(old);
    free(text);
    return ok;
}

/* Removes the files `previous` lists that `current` does not. */
static size_t remove_stale(rc_output *out, const rc_manifest *previous,
                           const rc_manifest *current, rc_diag *diag, bool *all)
{
    size_t removed = 0;
    *all = true;
    for (size_t i = 0; i < previous->count; i++) {
        const char *name = previous->files[i].name;
        if (rc_manifest_has(current, name))
            continue;
        char *path = path_in(out, name);
        struct stat st;
        /* Only a regular file: a directory, a symbolic link or a FIFO put
         * there since is not what roofcast wrote. */
        if (!path || fstatat(rc_output_dirfd(out), name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
            !S_ISREG(st.st_mode)) {
            free(path);
            continue;
        }
        if (unlinkat(rc_output_dirfd(out), name, 0) == 0) {
            removed++;
            rc_info(diag, 2, "removed %s, which an earlier run wrote and this one did not",
                    path);
        } else if (errno != ENOENT) {
            rc_fault_at(diag, path, 0, "cannot remove a file of an earlier run: %s",
                        strerror(errno));
            *all = false;
        }
        free(path);
    }
    return removed;
}

/* The files `out` made or kept, as a manifest, each with the key it was
 * made from (0 for a file that failed to write, so that it is made again);
 * NULL when out of memory. */
static rc_manifest *files_made(const rc_output *out, rc_manifest_key_fn key_of, void *ctx)
{
    rc_manifest *m = calloc(1, sizeof *m);
    for (size_t i = 0; m && i < rc_output_files(out); i++) {
        const rc_output_entry *e = rc_output_file_at(out, i);
        uint64_t key = e->written && key_of ? key_of(ctx, e->name) : 0;
        if (!add(m, e->name, e->size, key)) {
            rc_manifest_free(m);
            m = NULL;
        }
    }
    if (m)
        sort_unique(m);
    return m;
}

/* `a` with the names of `b` it lacks; NULL when out of memory. */
static rc_manifest *union_of(const rc_manifest *a, const rc_manifest *b)
{
    rc_manifest *m = calloc(1, sizeof *m);
    bool ok = m != NULL;
    for (size_t i = 0; ok && i < a->count; i++)
        ok = add(m, a->files[i].name, a->files[i].size, a->files[i].key);
    for (size_t i = 0; ok && i < b->count; i++)
        ok = rc_manifest_has(a, b->files[i].name) ||
             add(m, b->files[i].name, b->files[i].size, b->files[i].key);
    if (!ok) {
        rc_manifest_free(m);
        return NULL;
    }
    sort_unique(m);
    return m;
}

bool rc_manifest_intact(const rc_manifest *m, const rc_output *out, const char *name,
                        uint64_t key)
{
    const entry *e = find(m, name);
    if (!e || e->key == 0 || e->key != key)
        return false;
    struct stat st;
    return fstatat(rc_output_dirfd(out), name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
           S_ISREG(st.st_mode) && (uintmax_t)st.st_size == (uintmax_t)e->size;
}

size_t rc_manifest_finish(rc_output *out, const rc_manifest *previous, rc_manifest_key_fn key_of,
                          void *ctx, rc_diag *diag)
{
    rc_manifest *made = files_made(out, key_of, ctx);
    rc_manifest *both = made ? union_of(made, previous) : NULL;
    size_t removed = 0;
    if (!both)
        rc_fault_at(diag, rc_output_dir(out), 0, "cannot list the files written: out of memory");
    /* Every name of the previous manifest stays listed until its file is
     * gone, so that an interruption never forgets a file to remove; after
     * a failed write, all of them stay. */
    else if (write_manifest(out, both)) {
        /* From here the manifest's keys are this run's (0 for a file that
         * failed to write): a kill no longer leaves a file it misdescribes. */
        rc_output_mark_complete(out);
        if (!rc_output_failed(out)) {
            bool all;
            removed = remove_stale(out, previous, made, diag, &all);
            if (all)
                write_manifest(out, made);
        }
    }
    rc_manifest_free(both);
    rc_manifest_free(made);
    return removed;
}

uint64_t rc_manifest_key(const rc_manifest *m, size_t i) { return m->files[i].key; }
