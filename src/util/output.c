/* output.c: see output.h. */

#include "util/output.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct rc_output {
    char *dir;
    rc_diag *diag;
    rc_write_fn write_fn;
    pthread_mutex_t lock;
    bool failed;
    size_t written;
    rc_output_entry *files; /* every file this run wrote or tried to write */
    size_t nfiles, files_cap;
};

/* Notes that this run makes `name`, written or not. */
static void note_file(rc_output *out, const char *name, size_t size, bool ok)
{
    pthread_mutex_lock(&out->lock);
    if (ok)
        out->written++;
    else
        out->failed = true;
    if (out->nfiles == out->files_cap) {
        size_t cap = out->files_cap ? 2 * out->files_cap : 64;
        rc_output_entry *f = realloc(out->files, cap * sizeof *f);
        if (f) {
            out->files = f;
            out->files_cap = cap;
        }
    }
    char *copy = strdup(name);
    if (copy && out->nfiles < out->files_cap)
        out->files[out->nfiles++] = (rc_output_entry){copy, size, ok};
    else {
        free(copy);
        out->failed = true; /* the list would be incomplete */
    }
    pthread_mutex_unlock(&out->lock);
}

static bool make_dirs(const char *dir)
{
    char *path = strdup(dir);
    if (!path)
        return false;
    for (char *p = path + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(path, 0777) != 0 && errno != EEXIST) {
            free(path);
            return false;
        }
        *p = '/';
    }
    bool ok = mkdir(path, 0777) == 0 || errno == EEXIST;
    free(path);
    return ok;
}

rc_output *rc_output_new(const char *dir, rc_diag *diag)
{
    struct stat st;
    if (!make_dirs(dir) || stat(dir, &st) != 0 || (!S_ISDIR(st.st_mode) && (errno = ENOTDIR))) {
        rc_fault_at(diag, dir, 0, "cannot create the output directory: %s", strerror(errno));
        return NULL;
    }
    rc_output *out = calloc(1, sizeof *out);
    if (!out)
        return NULL;
    out->dir = strdup(dir);
    out->diag = diag;
    out->write_fn = write;
    pthread_mutex_init(&out->lock, NULL);
    return out;
}

void rc_output_free(rc_output *out)
{
    if (!out)
        return;
    pthread_mutex_destroy(&out->lock);
    for (size_t i = 0; i < out->nfiles; i++)
        free(out->files[i].name);
    free(out->files);
    free(out->dir);
    free(out);
}

void rc_output_set_write_hook(rc_output *out, rc_write_fn fn)
{
    out->write_fn = fn ? fn : write;
}

static bool write_all(rc_output *out, int fd, const char *data, size_t len)
{
    while (len > 0) {
        ssize_t n = out->write_fn(fd, data, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            if (n == 0)
                errno = ENOSPC;
            return false;
        }
        data += n;
        len -= (size_t)n;
    }
    return true;
}

static bool write_file(rc_output *out, const char *name, const void *data, size_t len, bool listed)
{
    size_t plen = strlen(out->dir) + strlen(name) + 16;
    char *path = malloc(plen), *tmp = malloc(plen);
    bool ok = false;
    int fd = -1;
    if (!path || !tmp)
        goto end;
    snprintf(path, plen, "%s/%s", out->dir, name);
    snprintf(tmp, plen, "%s/.%s.XXXXXX", out->dir, name);
    fd = mkstemp(tmp);
    if (fd < 0) {
        rc_fault_at(out->diag, path, 0, "cannot write: %s", strerror(errno));
        goto end;
    }
    /* mkstemp makes the file private; reports are for everyone. */
    mode_t mask = umask(0);
    umask(mask);
    if (fchmod(fd, 0666 & ~mask) != 0 || !write_all(out, fd, data, len)) {
        rc_fault_at(out->diag, path, 0, "cannot write: %s", strerror(errno));
        close(fd);
        unlink(tmp);
        goto end;
    }
    if (close(fd) != 0) {
        rc_fault_at(out->diag, path, 0, "cannot write: %s", strerror(errno));
        unlink(tmp);
        goto end;
    }
    if (rename(tmp, path) != 0) {
        rc_fault_at(out->diag, path, 0, "cannot replace: %s", strerror(errno));
        unlink(tmp);
        goto end;
    }
    ok = true;
end:
    if (listed)
        note_file(out, name, len, ok);
    else if (!ok) {
        pthread_mutex_lock(&out->lock);
        out->failed = true;
        pthread_mutex_unlock(&out->lock);
    }
    free(path);
    free(tmp);
    return ok;
}

bool rc_output_write(rc_output *out, const char *name, const void *data, size_t len)
{
    return write_file(out, name, data, len, true);
}

bool rc_output_write_unlisted(rc_output *out, const char *name, const void *data, size_t len)
{
    return write_file(out, name, data, len, false);
}

/* ---- files written piece by piece ----------------------------------------- */

struct rc_output_file {
    rc_output *out;
    char *name, *path, *tmp;
    size_t size;
    int fd;
    int error; /* the first errno, 0 while all is well */
};

static void file_free(rc_output_file *f)
{
    free(f->name);
    free(f->path);
    free(f->tmp);
    free(f);
}

rc_output_file *rc_output_open(rc_output *out, const char *name)
{
    size_t plen = strlen(out->dir) + strlen(name) + 16;
    rc_output_file *f = calloc(1, sizeof *f);
    if (f) {
        f->out = out;
        f->path = malloc(plen);
        f->tmp = malloc(plen);
        f->name = strdup(name);
        f->fd = -1;
    }
    if (!f || !f->path || !f->tmp || !f->name) {
        rc_fault_at(out->diag, name, 0, "cannot write: out of memory");
        goto fail;
    }
    snprintf(f->path, plen, "%s/%s", out->dir, name);
    snprintf(f->tmp, plen, "%s/.%s.XXXXXX", out->dir, name);
    f->fd = mkstemp(f->tmp);
    mode_t mask = umask(0);
    umask(mask);
    if (f->fd < 0 || fchmod(f->fd, 0666 & ~mask) != 0) {
        rc_fault_at(out->diag, f->path, 0, "cannot write: %s", strerror(errno));
        if (f->fd >= 0) {
            close(f->fd);
            unlink(f->tmp);
        }
        goto fail;
    }
    return f;
fail:
    note_file(out, name, 0, false);
    if (f)
        file_free(f);
    return NULL;
}

void rc_output_append(rc_output_file *f, const void *data, size_t len)
{
    if (f && !f->error && !write_all(f->out, f->fd, data, len))
        f->error = errno ? errno : EIO;
    if (f)
        f->size += len;
}

bool rc_output_close(rc_output_file *f)
{
    if (!f)
        return false;
    if (!f->error && close(f->fd) != 0)
        f->error = errno ? errno : EIO;
    else if (f->error)
        close(f->fd);
    bool ok = !f->error;
    if (ok && rename(f->tmp, f->path) != 0) {
        rc_fault_at(f->out->diag, f->path, 0, "cannot replace: %s", strerror(errno));
        ok = false;
    } else if (!ok) {
        rc_fault_at(f->out->diag, f->path, 0, "cannot write: %s", strerror(f->error));
    }
    if (!ok)
        unlink(f->tmp);
    note_file(f->out, f->name, f->size, ok);
    file_free(f);
    return ok;
}

void rc_output_abandon(rc_output_file *f)
{
    if (!f)
        return;
    close(f->fd);
    unlink(f->tmp);
    file_free(f);
}

FILE *rc_output_scratch(rc_output *out, const char *name)
{
    size_t plen = strlen(out->dir) + strlen(name) + 24;
    char *tmp = malloc(plen);
    if (!tmp)
        return NULL;
    snprintf(tmp, plen, "%s/.%s.scratch.XXXXXX", out->dir, name);
    int fd = mkstemp(tmp);
    if (fd >= 0)
        unlink(tmp);
    free(tmp);
    FILE *f = fd >= 0 ? fdopen(fd, "w+b") : NULL;
    if (!f && fd >= 0)
        close(fd);
    return f;
}

size_t rc_output_files(const rc_output *out) { return out->nfiles; }
const rc_output_entry *rc_output_file_at(const rc_output *out, size_t i) { return &out->files[i]; }
bool rc_output_failed(const rc_output *out) { return out->failed; }
size_t rc_output_written(const rc_output *out) { return out->written; }
const char *rc_output_dir(const rc_output *out) { return out->dir; }
