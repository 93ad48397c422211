/* output.c: see output.h. */

#include "util/output.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/array.h"
#include "util/buffer.h"
#include "util/hash.h"

#define LOCK_NAME ".roofcast.lock"

/* ---- temporary files, removed on a signal ------------------------------- */

/* Every temporary file of this process that exists now, linked through
 * the writers' own records. A temporary file is made and listed under one
 * lock, so the signal thread never misses one. */
typedef struct temp_file {
    int dirfd;        /* the output directory */
    const char *name; /* in it */
    struct temp_file *prev, *next;
} temp_file;

static pthread_mutex_t temps_lock = PTHREAD_MUTEX_INITIALIZER;
static temp_file *temps;

/* Fills the last 6 characters of `name` (XXXXXX) as mkstemp does. The
 * names need not be secret, only new: O_EXCL refuses one that exists. */
static void temp_name(char *name)
{
    static const char digits[] =
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    static unsigned long long counter;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t v = rc_hash_u64(rc_hash_u64(rc_hash_u64(RC_HASH_INIT, (uint64_t)getpid()),
                                         (uint64_t)ts.tv_nsec ^ (uint64_t)ts.tv_sec << 30),
                             ++counter);
    char *x = name + strlen(name) - 6;
    for (int i = 0; i < 6; i++, v /= 62)
        x[i] = digits[v % 62];
}

/* Makes temporary file `name` (ending in XXXXXX, filled in) in directory
 * `dirfd`, like mkstemp but relative to the directory and never through a
 * symbolic link (O_EXCL), and lists it; returns the descriptor or -1. */
static int make_temp(temp_file *node, int dirfd, char *name)
{
    pthread_mutex_lock(&temps_lock);
    int fd = -1;
    for (int tries = 0; fd < 0 && tries < 100; tries++) {
        temp_name(name);
        fd = openat(dirfd, name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd < 0 && errno != EEXIST)
            break;
    }
    node->dirfd = dirfd;
    node->name = name;
    node->prev = NULL;
    node->next = fd >= 0 ? temps : NULL;
    if (fd >= 0) {
        if (temps)
            temps->prev = node;
        temps = node;
    }
    pthread_mutex_unlock(&temps_lock);
    return fd;
}

/* Unlists a temporary file once it is renamed or removed. */
static void forget_temp(temp_file *node)
{
    pthread_mutex_lock(&temps_lock);
    if (node->prev)
        node->prev->next = node->next;
    else if (temps == node)
        temps = node->next;
    if (node->next)
        node->next->prev = node->prev;
    node->prev = node->next = NULL;
    pthread_mutex_unlock(&temps_lock);
}

static sigset_t stop_signals;

/* Waits for a stop signal in an ordinary thread (so no async-signal-safety
 * is needed), removes every temporary file, and dies of the signal with
 * the lock held, so that no file is made or renamed in between. */
static void *signal_thread(void *arg)
{
    (void)arg;
    int sig = 0;
    if (sigwait(&stop_signals, &sig) != 0)
        return NULL;
    pthread_mutex_lock(&temps_lock);
    for (temp_file *t = temps; t; t = t->next)
        unlinkat(t->dirfd, t->name, 0);
    signal(sig, SIG_DFL);
    pthread_sigmask(SIG_UNBLOCK, &stop_signals, NULL);
    raise(sig);
    _exit(128 + sig); /* not reached */
}

bool rc_output_clean_on_signals(void)
{
    /* Past the file-size limit a write fails with EFBIG and is reported
     * like a full disk, instead of killing the run mid-file. */
    signal(SIGXFSZ, SIG_IGN);
    sigemptyset(&stop_signals);
    static const int stops[] = {SIGINT, SIGTERM, SIGHUP};
    for (size_t i = 0; i < sizeof stops / sizeof stops[0]; i++) {
        struct sigaction sa;
        /* A signal the caller ignores (a background job's SIGINT) stays
         * ignored. */
        if (sigaction(stops[i], NULL, &sa) == 0 && sa.sa_handler != SIG_IGN)
            sigaddset(&stop_signals, stops[i]);
    }
    pthread_t thread;
    if (pthread_sigmask(SIG_BLOCK, &stop_signals, NULL) != 0 ||
        pthread_create(&thread, NULL, signal_thread, NULL) != 0) {
        pthread_sigmask(SIG_UNBLOCK, &stop_signals, NULL);
        return false;
    }
    pthread_detach(thread);
    return true;
}

struct rc_output {
    char *dir;
    int dirfd;   /* dir, opened once: every file is opened relative to it */
    int lock_fd;
    bool interrupted; /* the lock file said an earlier run never finished */
    rc_diag *diag;
    rc_write_fn write_fn;
    pthread_mutex_t lock;
    bool failed;
    size_t written, kept;
    rc_output_entry *files; /* every file this run wrote or tried to write */
    size_t nfiles, files_cap;
};

/* Notes that this run makes `name`, written or not, or keeps it. */
static void note_entry(rc_output *out, const char *name, size_t size, bool ok, bool kept)
{
    pthread_mutex_lock(&out->lock);
    if (kept)
        out->kept++;
    else if (ok)
        out->written++;
    else
        out->failed = true;
    bool room = RC_GROW(out->files, out->files_cap, out->nfiles + 1);
    char *copy = strdup(name);
    if (copy && room)
        out->files[out->nfiles++] = (rc_output_entry){copy, size, ok, kept};
    else {
        free(copy);
        out->failed = true; /* the list would be incomplete */
    }
    pthread_mutex_unlock(&out->lock);
}

static void note_file(rc_output *out, const char *name, size_t size, bool ok)
{
    note_entry(out, name, size, ok, false);
}

void rc_output_keep(rc_output *out, const char *name, size_t size)
{
    note_entry(out, name, size, true, true);
}

/* Notes a file once made or failed: listed, or (roofcast's own
 * bookkeeping: the manifest, the cache) only its failure. */
static void note_made(rc_output *out, const char *name, size_t size, bool ok, bool listed)
{
    if (listed) {
        note_file(out, name, size, ok);
    } else if (!ok) {
        pthread_mutex_lock(&out->lock);
        out->failed = true;
        pthread_mutex_unlock(&out->lock);
    }
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

/* The lock file's text says whether a run is under way: "running" from
 * the moment a run takes the lock until its manifest lists what it made
 * (rc_output_mark_complete), empty after. A run that finds "running" knows
 * the one before was killed: it may have replaced files whose manifest
 * entries still carry the earlier keys, and its inputs may since have been
 * put back, so no file can be trusted to be up to date (incremental.c
 * makes every file again). A read-only lock file stays as it is. */
static void note_running(rc_output *out)
{
    static const char running[] = "running\n";
    char text[sizeof running] = "";
    ssize_t n = pread(out->lock_fd, text, sizeof text - 1, 0);
    out->interrupted = n > 0 && strncmp(text, running, sizeof running - 1) == 0;
    if (pwrite(out->lock_fd, running, sizeof running - 1, 0) == (ssize_t)(sizeof running - 1))
        (void)!ftruncate(out->lock_fd, sizeof running - 1);
}

bool rc_output_interrupted(const rc_output *out)
{
    return out && out->interrupted;
}

void rc_output_mark_complete(rc_output *out)
{
    if (out && out->lock_fd >= 0)
        (void)!ftruncate(out->lock_fd, 0);
}

/* What a file that is not a regular file is, for a message. */
const char *rc_file_kind(mode_t mode)
{
    if (S_ISDIR(mode))
        return "a directory";
    if (S_ISLNK(mode))
        return "a symbolic link";
    if (S_ISFIFO(mode))
        return "a FIFO";
    if (S_ISSOCK(mode))
        return "a socket";
    if (S_ISCHR(mode) || S_ISBLK(mode))
        return "a device";
    return "not a regular file";
}

int rc_open_regular(int dirfd, const char *name, int flags, bool follow, const char **why)
{
    *why = NULL;
    int fd = openat(dirfd, name, flags | O_NONBLOCK | O_NOCTTY | O_CLOEXEC |
                                     (follow ? 0 : O_NOFOLLOW), 0666);
    struct stat st;
    if (fd < 0) {
        /* O_NOFOLLOW's ELOOP: say what is there rather than "too many levels". */
        if (errno == ELOOP && !follow && fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
            S_ISLNK(st.st_mode))
            *why = "a symbolic link, which roofcast does not follow";
        else if (errno == EISDIR)
            *why = "a directory";
        return -1;
    }
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        int e = errno;
        *why = fstat(fd, &st) == 0 ? rc_file_kind(st.st_mode) : NULL;
        close(fd);
        errno = *why ? EINVAL : e;
        return -1;
    }
    /* Reads and writes of a regular file never block; this only keeps the
     * descriptor's flags as a caller expects them. */
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0)
        fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    return fd;
}

char *rc_read_regular(int dirfd, const char *name, bool follow, size_t max, size_t *len,
                      const char **why)
{
    int fd = rc_open_regular(dirfd, name, O_RDONLY, follow, why);
    if (fd < 0)
        return NULL;
    rc_buffer b = {0};
    char chunk[65536];
    ssize_t n;
    while ((n = read(fd, chunk, sizeof chunk)) != 0 && b.len <= max) {
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            break;
        rc_buffer_put(&b, chunk, (size_t)n);
    }
    int e = n < 0 ? errno : 0;
    close(fd);
    size_t got = 0;
    char *text = rc_buffer_take(&b, &got); /* NUL-terminated */
    if (len)
        *len = got;
    if (e || !text || got > max) {
        free(text);
        if (!e && text)
            *why = "too large";
        errno = e ? e : text ? EFBIG : ENOMEM;
        return NULL;
    }
    return text;
}

int rc_output_dirfd(const rc_output *out) { return out->dirfd; }

/* One run at a time per directory: an exclusive flock on its lock file,
 * held until rc_output_free (or the process ends). The lock file is opened
 * as every file there is (rc_open_regular): never through a symbolic link,
 * never blocking on a FIFO, and only a regular file is taken; anything
 * else is named and the run stops. Where the lock file can be neither
 * made nor opened because the directory is read-only, nothing can be
 * written there either, so the run goes on without it and reports each
 * file it cannot write. */
static bool take_lock(rc_output *out)
{
    size_t n = strlen(out->dir) + sizeof LOCK_NAME + 1;
    char *path = malloc(n);
    if (!path)
        return false;
    snprintf(path, n, "%s/%s", out->dir, LOCK_NAME);
    const char *why;
    out->lock_fd = rc_open_regular(out->dirfd, LOCK_NAME, O_RDWR | O_CREAT, false, &why);
    if (out->lock_fd < 0 && !why && (errno == EROFS || errno == EACCES))
        out->lock_fd = rc_open_regular(out->dirfd, LOCK_NAME, O_RDONLY, false, &why);
    bool ok = true;
    if (out->lock_fd < 0) {
        ok = !why && (errno == EROFS || errno == EACCES || errno == ENOENT);
        if (why)
            rc_fault_at(out->diag, path, 0, "is %s, not roofcast's lock file: nothing is "
                        "written into %s/ (remove it, or choose another -o)", why, out->dir);
        else if (!ok)
            rc_fault_at(out->diag, path, 0, "cannot open the lock file: %s", strerror(errno));
    } else if (flock(out->lock_fd, LOCK_EX | LOCK_NB) != 0) {
        if (errno == EWOULDBLOCK)
            rc_fault_at(out->diag, out->dir, 0, "another roofcast run is writing into this "
                        "directory (it holds %s); wait for it to end, or choose another -o",
                        LOCK_NAME);
        else
            rc_fault_at(out->diag, path, 0, "cannot lock: %s", strerror(errno));
        ok = false;
    }
    if (ok && out->lock_fd >= 0)
        note_running(out);
    free(path);
    return ok;
}

/* A temporary file an earlier run left (it was killed before it could
 * remove it): ".NAME.XXXXXX" or ".NAME.scratch.XXXXXX", NAME a file
 * roofcast writes (one of its extensions, or the manifest) and XXXXXX
 * what mkstemp puts there. */
static bool is_leftover(const char *name)
{
    size_t n = strlen(name);
    if (n < 9 || name[0] != '.' || name[n - 7] != '.')
        return false;
    for (size_t i = n - 6; i < n; i++)
        if (!(('a' <= name[i] && name[i] <= 'z') || ('A' <= name[i] && name[i] <= 'Z') ||
              ('0' <= name[i] && name[i] <= '9')))
            return false;
    size_t end = n - 7; /* name[1..end) is NAME, maybe with ".scratch" */
    if (end > 9 && strncmp(name + end - 8, ".scratch", 8) == 0)
        end -= 8;
    static const char *const ends[] = {".md", ".html", ".svg", ".png", ".pdf", ".csv",
                                       ".xml", ".roofcast-manifest", ".roofcast-cache"};
    for (size_t i = 0; i < sizeof ends / sizeof ends[0]; i++) {
        size_t e = strlen(ends[i]);
        if (end > e && strncmp(name + end - e, ends[i], e) == 0)
            return true;
    }
    return false;
}

/* Removes the temporary files earlier runs left; safe because this run
 * holds the lock, so no other run is making any. */
static void remove_leftovers(rc_output *out)
{
    if (out->lock_fd < 0)
        return;
    int fd = dup(out->dirfd);
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    if (!d) {
        if (fd >= 0)
            close(fd);
        return;
    }
    rewinddir(d); /* the duplicate shares the position */
    size_t removed = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        struct stat st;
        if (!is_leftover(e->d_name) || fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
            !S_ISREG(st.st_mode))
            continue;
        removed += unlinkat(dirfd(d), e->d_name, 0) == 0;
    }
    closedir(d);
    if (removed > 0)
        rc_info(out->diag, 1, "removed %zu temporary file%s an interrupted run left in %s/", removed,
                removed == 1 ? "" : "s", out->dir);
}

rc_output *rc_output_new(const char *dir, rc_diag *diag)
{
    struct stat st;
    if (!make_dirs(dir) || stat(dir, &st) != 0 || (!S_ISDIR(st.st_mode) && (errno = ENOTDIR))) {
        rc_fault_at(diag, dir, 0, "cannot create the output directory: %s", strerror(errno));
        return NULL;
    }
    rc_output *out = calloc(1, sizeof *out);
    if (!out) {
        rc_fault_at(diag, dir, 0, "cannot open the output directory: out of memory");
        return NULL;
    }
    out->dirfd = -1;
    out->dir = strdup(dir);
    out->diag = diag;
    out->write_fn = write;
    out->lock_fd = -1;
    pthread_mutex_init(&out->lock, NULL);
    /* Opened once: a directory renamed or replaced during the run cannot
     * send a file elsewhere. */
    out->dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (out->dirfd < 0)
        rc_fault_at(diag, dir, 0, "cannot open the output directory: %s", strerror(errno));
    if (!out->dir || out->dirfd < 0 || !take_lock(out)) {
        rc_output_free(out);
        return NULL;
    }
    remove_leftovers(out);
    if (out->interrupted)
        rc_info(diag, 1, "the last run into %s/ was interrupted: every file is made again", out->dir);
    return out;
}

void rc_output_free(rc_output *out)
{
    if (!out)
        return;
    if (out->lock_fd >= 0)
        close(out->lock_fd); /* and with it the lock */
    if (out->dirfd >= 0)
        close(out->dirfd);
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

/* ".NAME.XXXXXX": a temporary file's name in the output directory. */
static char *temp_name_for(const char *name, const char *middle)
{
    size_t n = strlen(name) + strlen(middle) + 10;
    char *tmp = malloc(n);
    if (tmp)
        snprintf(tmp, n, ".%s.%sXXXXXX", name, middle);
    return tmp;
}

static bool write_file(rc_output *out, const char *name, const void *data, size_t len, bool listed)
{
    size_t plen = strlen(out->dir) + strlen(name) + 2;
    char *path = malloc(plen), *tmp = temp_name_for(name, "");
    bool ok = false;
    int fd = -1;
    temp_file node = {0};
    if (!path || !tmp)
        goto end;
    snprintf(path, plen, "%s/%s", out->dir, name);
    fd = make_temp(&node, out->dirfd, tmp);
    if (fd < 0) {
        rc_fault_at(out->diag, path, 0, "cannot write: %s", strerror(errno));
        goto end;
    }
    /* The temporary file is private; reports are for everyone. */
    mode_t mask = umask(0);
    umask(mask);
    if (fchmod(fd, 0666 & ~mask) != 0 || !write_all(out, fd, data, len)) {
        rc_fault_at(out->diag, path, 0, "cannot write: %s", strerror(errno));
        close(fd);
        unlinkat(out->dirfd, tmp, 0);
        goto end;
    }
    if (close(fd) != 0) {
        rc_fault_at(out->diag, path, 0, "cannot write: %s", strerror(errno));
        unlinkat(out->dirfd, tmp, 0);
        goto end;
    }
    /* rename replaces whatever has the name, a symbolic link included,
     * and never writes through it. */
    if (renameat(out->dirfd, tmp, out->dirfd, name) != 0) {
        rc_fault_at(out->diag, path, 0, "cannot replace: %s", strerror(errno));
        unlinkat(out->dirfd, tmp, 0);
        goto end;
    }
    ok = true;
end:
    forget_temp(&node);
    note_made(out, name, len, ok, listed);
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
    temp_file node;
    char *name, *path, *tmp;
    size_t size;
    int fd;
    int error;   /* the first errno, 0 while all is well */
    bool listed; /* among the files written (false: roofcast's own, the cache) */
    /* Bytes appended but not yet written: libharu hands summary.pdf over in
     * pieces of a few bytes (a write(2) each is costly: docs/benchmarks.md),
     * so they are gathered into writes of STREAM_BUFFER. */
    char *buf;
    size_t buffered;
};

#define STREAM_BUFFER (64u << 10)

static void file_free(rc_output_file *f)
{
    free(f->buf);
    free(f->name);
    free(f->path);
    free(f->tmp);
    free(f);
}

static rc_output_file *open_streamed(rc_output *out, const char *name, bool listed)
{
    size_t plen = strlen(out->dir) + strlen(name) + 2;
    rc_output_file *f = calloc(1, sizeof *f);
    if (f) {
        f->out = out;
        f->path = malloc(plen);
        f->tmp = temp_name_for(name, "");
        f->name = strdup(name);
        f->fd = -1;
        f->listed = listed;
        f->buf = malloc(STREAM_BUFFER); /* without it, each piece is written at once */
    }
    if (!f || !f->path || !f->tmp || !f->name) {
        rc_fault_at(out->diag, name, 0, "cannot write: out of memory");
        goto fail;
    }
    snprintf(f->path, plen, "%s/%s", out->dir, name);
    f->fd = make_temp(&f->node, out->dirfd, f->tmp);
    mode_t mask = umask(0);
    umask(mask);
    if (f->fd < 0 || fchmod(f->fd, 0666 & ~mask) != 0) {
        rc_fault_at(out->diag, f->path, 0, "cannot write: %s", strerror(errno));
        if (f->fd >= 0) {
            close(f->fd);
            unlinkat(out->dirfd, f->tmp, 0);
            forget_temp(&f->node);
        }
        goto fail;
    }
    return f;
fail:
    note_made(out, name, 0, false, listed);
    if (f)
        file_free(f);
    return NULL;
}

rc_output_file *rc_output_open(rc_output *out, const char *name)
{
    return open_streamed(out, name, true);
}

rc_output_file *rc_output_open_unlisted(rc_output *out, const char *name)
{
    return open_streamed(out, name, false);
}

/* Writes what is buffered; notes the first error. */
static void flush_buffer(rc_output_file *f)
{
    if (f->buffered > 0 && !f->error && !write_all(f->out, f->fd, f->buf, f->buffered))
        f->error = errno ? errno : EIO;
    f->buffered = 0;
}

void rc_output_append(rc_output_file *f, const void *data, size_t len)
{
    if (!f || len == 0) /* data may then be NULL: an empty piece */
        return;
    f->size += len;
    if (f->error)
        return;
    if (f->buf && len <= STREAM_BUFFER - f->buffered) {
        memcpy(f->buf + f->buffered, data, len);
        f->buffered += len;
        return;
    }
    flush_buffer(f);
    if (f->buf && len < STREAM_BUFFER) {
        memcpy(f->buf, data, len);
        f->buffered = len;
    } else if (!f->error && !write_all(f->out, f->fd, data, len)) {
        f->error = errno ? errno : EIO;
    }
}

bool rc_output_close(rc_output_file *f)
{
    if (!f)
        return false;
    flush_buffer(f);
    if (!f->error && close(f->fd) != 0)
        f->error = errno ? errno : EIO;
    else if (f->error)
        close(f->fd);
    bool ok = !f->error;
    if (ok && renameat(f->out->dirfd, f->tmp, f->out->dirfd, f->name) != 0) {
        rc_fault_at(f->out->diag, f->path, 0, "cannot replace: %s", strerror(errno));
        ok = false;
    } else if (!ok) {
        rc_fault_at(f->out->diag, f->path, 0, "cannot write: %s", strerror(f->error));
    }
    if (!ok)
        unlinkat(f->out->dirfd, f->tmp, 0);
    forget_temp(&f->node);
    note_made(f->out, f->name, f->size, ok, f->listed);
    file_free(f);
    return ok;
}

void rc_output_abandon(rc_output_file *f)
{
    if (!f)
        return;
    close(f->fd);
    unlinkat(f->out->dirfd, f->tmp, 0);
    forget_temp(&f->node);
    file_free(f);
}

void rc_output_fail(rc_output_file *f)
{
    if (!f)
        return;
    rc_output *out = f->out;
    char *name = f->name;
    size_t size = f->size;
    bool listed = f->listed;
    f->name = NULL;
    rc_output_abandon(f);
    note_made(out, name, size, false, listed);
    free(name);
}

FILE *rc_output_scratch(rc_output *out, const char *name)
{
    char *tmp = temp_name_for(name, "scratch.");
    if (!tmp)
        return NULL;
    temp_file node;
    int fd = make_temp(&node, out->dirfd, tmp);
    if (fd >= 0) {
        unlinkat(out->dirfd, tmp, 0);
        forget_temp(&node);
    }
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
size_t rc_output_kept(const rc_output *out) { return out->kept; }
const char *rc_output_dir(const rc_output *out) { return out->dir; }
