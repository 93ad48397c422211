/* kernel_cache.c: each kernel's share of the overviews, kept between runs
 * in the output directory (issue 18.1), so that a run where one kernel
 * changed makes the overviews without counting the others or making their
 * trees again.
 *
 * A kernel's share is what the files covering every kernel take from its
 * tree (run_share): its text of results.xml, its rows of estimates.csv and
 * its overview part and its pages of summary.pdf (as drawn in its own
 * PDF: render.h's rc_render_pdf_pages). The share is a function of the kernel's key
 * (incremental.c: the kernel file, the GPU files, the templates, the
 * formats, the program), so an entry with the kernel's key is its share
 * whatever run made it. The file, .roofcast-cache, is rewritten whenever
 * the overviews are, in kernel order, as the kernels are committed:
 *
 *   roofcast-cache 2
 *   kernel KEY XML_LEN CSV_LEN PART_LEN PDF_LEN CHECK ID  (KEY, CHECK: 16 hex digits)
 *   the four pieces, XML_LEN + CSV_LEN + PART_LEN + PDF_LEN bytes
 *   kernel ...
 *
 * CHECK, a CRC-32 of the id, the key and the pieces, tells a damaged entry
 * from a whole one: that kernel is then counted and its tree made, as
 * when it has no entry. The cache is written atomically like every file
 * (output.h) but is not listed in the manifest: it is roofcast's own, like
 * the manifest. --force and a run after an interrupted one do not read it.
 */

#include "cli/run.h"

#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zlib.h>

#define CACHE_NAME ".roofcast-cache"
#define CACHE_HEAD "roofcast-cache 2\n"
#define MAX_ID 100 /* kernel.xsd */

/* One kernel's entry in the cache an earlier run left. */
typedef struct {
    char id[MAX_ID + 1];
    uint64_t key, check;
    off_t at; /* where its pieces begin */
    size_t len[4]; /* ORDER run_share's pieces: xml, csv, part, pdf */
} cache_entry;

struct run_cache {
    int fd;
    cache_entry *entries; /* sorted by id */
    size_t count;
    size_t damaged; /* entries found damaged: the warning's count */
    size_t used;    /* entries read whole, standing for their kernels' trees */
    pthread_mutex_t lock; /* damaged and used, counted from the workers */
};

void run_share_release(run_share *s)
{
    free(s->xml);
    free(s->csv);
    free(s->part);
    free(s->pdf);
    *s = (run_share){0};
}

/* CRC-32 (zlib's) of the id, the key and the pieces with their lengths:
 * it tells a damaged entry from a whole one, over some 100 MB for 1,000
 * kernels, at 2.6 times FNV-1a's speed (rc_hash_bytes: 0.14 s for 100 MB
 * on the 2-core CI machine, crc32 0.053 s). */
static uint64_t share_check(const char *id, uint64_t key, const run_share *s)
{
    const char *piece[4] = {s->xml, s->csv, s->part, s->pdf}; /* ORDER cache_entry len */
    size_t len[4] = {s->xml_len, s->csv_len, s->part_len, s->pdf_len};
    unsigned char k[8];
    for (int b = 0; b < 8; b++)
        k[b] = (unsigned char)(key >> (8 * b));
    uLong c = crc32(crc32(0, (const Bytef *)id, (uInt)strlen(id)), k, 8);
    for (int i = 0; i < 4; i++) {
        for (int b = 0; b < 8; b++)
            k[b] = (unsigned char)((uint64_t)len[i] >> (8 * b));
        c = crc32(c, k, 8);
        for (size_t at = 0; at < len[i]; at += UINT_MAX / 2) { /* crc32 takes a uInt */
            size_t n = len[i] - at < UINT_MAX / 2 ? len[i] - at : UINT_MAX / 2;
            c = crc32(c, (const Bytef *)piece[i] + at, (uInt)n);
        }
    }
    return (uint64_t)c;
}

unsigned run_share_wanted(const run_state *r)
{
    unsigned f = r->formats, wanted = RUN_SHARE_PART;
    if (f & RC_FORMAT_XML)
        wanted |= RUN_SHARE_XML;
    if ((f & RC_FORMAT_PDF) && r->fonts)
        wanted |= RUN_SHARE_PDF;
    if (f & RC_FORMAT_CSV)
        wanted |= RUN_SHARE_CSV;
    return wanted;
}

/* ---- reading the cache an earlier run left ------------------------------- */

static int compare_entries(const void *a, const void *b)
{
    return strcmp(((const cache_entry *)a)->id, ((const cache_entry *)b)->id);
}

static bool add_entry(run_cache *c, size_t *cap, const cache_entry *e)
{
    if (c->count == *cap) {
        size_t n = *cap ? 2 * *cap : 256;
        cache_entry *v = realloc(c->entries, n * sizeof *v);
        if (!v)
            return false;
        c->entries = v;
        *cap = n;
    }
    c->entries[c->count++] = *e;
    return true;
}

/* Whether e's pieces lie within a file of `size` bytes; their sum in *total. */
static bool pieces_fit(const cache_entry *e, off_t size, size_t *total)
{
    *total = 0;
    for (int k = 0; k < 4; k++) {
        if (e->len[k] > (size_t)size)
            return false;
        *total += e->len[k];
    }
    return (off_t)*total <= size - e->at;
}

/* Reads the entries' lines, skipping their pieces. An entry cut short or a
 * line that is not one ends the list, as damage. */
static void index_entries(run_cache *c, FILE *f, off_t size)
{
    char line[256];
    size_t cap = 0;
    while (fgets(line, sizeof line, f)) {
        cache_entry e = {0};
        size_t total = 0;
        if (sscanf(line, "kernel %16" SCNx64 " %zu %zu %zu %zu %16" SCNx64 " %100s", &e.key,
                   &e.len[0], &e.len[1], &e.len[2], &e.len[3], &e.check, e.id) != 7 ||
            (e.at = ftello(f)) < 0 || !pieces_fit(&e, size, &total) ||
            fseeko(f, (off_t)total, SEEK_CUR) != 0) {
            c->damaged++;
            break;
        }
        if (!add_entry(c, &cap, &e))
            break;
    }
    if (c->count > 1) /* entries is NULL when none was whole: qsort(NULL, 0, ...) is undefined */
        qsort(c->entries, c->count, sizeof *c->entries, compare_entries);
}

/* The cache in the output directory; NULL when there is none of this
 * version (nothing is then taken from it). */
static run_cache *cache_read(run_state *r)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", rc_output_dir(r->output), CACHE_NAME);
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    struct stat st;
    FILE *f = fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? fdopen(dup(fd), "rb") : NULL;
    char head[sizeof CACHE_HEAD] = "";
    run_cache *c = NULL;
    if (f && fgets(head, sizeof head, f) && strcmp(head, CACHE_HEAD) == 0 &&
        (c = calloc(1, sizeof *c)) != NULL) {
        c->fd = fd;
        pthread_mutex_init(&c->lock, NULL);
        index_entries(c, f, st.st_size);
    }
    if (f)
        fclose(f);
    if (!c && fd >= 0)
        close(fd);
    return c;
}

void run_cache_free(run_cache *c)
{
    if (!c)
        return;
    close(c->fd);
    pthread_mutex_destroy(&c->lock);
    free(c->entries);
    free(c);
}

static int compare_id_entry(const void *id, const void *e)
{
    return strcmp(id, ((const cache_entry *)e)->id);
}

/* Whether the cache can stand for trees: not when every file is made
 * again (--force, an interrupted run), nor with a baseline, whose
 * comparison needs every tree anyway. */
static bool cache_usable(const run_state *r)
{
    return r->output && !r->overviews_fresh && !r->options->force && !r->options->baseline &&
           !rc_output_interrupted(r->output);
}

void run_cache_plan(run_state *r)
{
    if (!cache_usable(r) || !(r->cache = cache_read(r)))
        return;
    for (size_t i = 0; i < r->nkernels; i++) {
        run_kernel *e = &r->kernels[i];
        /* entries is NULL when the cache held no whole entry */
        const cache_entry *c = e->fresh && !e->counted && r->cache->count > 0
            ? bsearch(e->kernel->id, r->cache->entries, r->cache->count, sizeof *c, compare_id_entry)
            : NULL;
        if (c && c->key == e->key) {
            e->cached = true;
            e->cache_entry = (size_t)(c - r->cache->entries);
        }
    }
}

static char *read_piece(int fd, off_t at, size_t len)
{
    char *p = malloc(len + 1); /* never malloc(0) */
    if (p && len > 0 && pread(fd, p, len, at) != (ssize_t)len) {
        free(p);
        return NULL;
    }
    return p;
}

static void note_read(run_cache *c, bool whole)
{
    pthread_mutex_lock(&c->lock);
    if (whole)
        c->used++;
    else
        c->damaged++;
    pthread_mutex_unlock(&c->lock);
}

bool run_cache_read(run_state *r, size_t i, run_share *s)
{
    const cache_entry *c = &r->cache->entries[r->kernels[i].cache_entry];
    *s = (run_share){0};
    char **piece[4] = {&s->xml, &s->csv, &s->part, &s->pdf}; /* ORDER cache_entry len */
    size_t *len[4] = {&s->xml_len, &s->csv_len, &s->part_len, &s->pdf_len};
    off_t at = c->at;
    bool read = true;
    for (int k = 0; k < 4; k++) {
        *piece[k] = read_piece(r->cache->fd, at, c->len[k]);
        *len[k] = c->len[k];
        at += (off_t)c->len[k];
        read = read && *piece[k];
    }
    unsigned wanted = run_share_wanted(r);
    s->check = read ? share_check(c->id, c->key, s) : 0;
    s->checked = read;
    bool whole = read && s->check == c->check &&
                 (!(wanted & RUN_SHARE_XML) || s->xml_len > 0) &&
                 (!(wanted & RUN_SHARE_CSV) || s->csv_len > 0) &&
                 (!(wanted & RUN_SHARE_PDF) || s->pdf_len > 0) && s->part_len > 0;
    note_read(r->cache, whole);
    if (!whole)
        run_share_release(s);
    return whole;
}

/* ---- writing this run's cache -------------------------------------------- */

void run_cache_open(run_state *r)
{
    r->new_cache = rc_output_open_unlisted(r->output, CACHE_NAME);
    rc_output_append(r->new_cache, CACHE_HEAD, strlen(CACHE_HEAD));
}

void run_cache_add(run_state *r, size_t i, const run_share *s)
{
    if (!r->new_cache)
        return;
    const run_kernel *e = &r->kernels[i];
    char line[256];
    int n = snprintf(line, sizeof line,
                     "kernel %016" PRIx64 " %zu %zu %zu %zu %016" PRIx64 " %s\n", e->key,
                     s->xml_len, s->csv_len, s->part_len, s->pdf_len,
                     s->checked ? s->check : share_check(e->kernel->id, e->key, s),
                     e->kernel->id);
    rc_output_append(r->new_cache, line, (size_t)n);
    rc_output_append(r->new_cache, s->xml, s->xml_len);
    rc_output_append(r->new_cache, s->csv, s->csv_len);
    rc_output_append(r->new_cache, s->part, s->part_len);
    rc_output_append(r->new_cache, s->pdf, s->pdf_len);
}

/* What the earlier cache gave: the kernels it spared counting (with -v),
 * and a warning when some entry was damaged. */
static void report_cache(run_state *r, const run_cache *c)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", rc_output_dir(r->output), CACHE_NAME);
    if (c->used > 0)
        rc_info(r->diag, 2, "%zu kernel%s not counted: %s shares of the overviews were read from %s",
                c->used, c->used == 1 ? "" : "s", c->used == 1 ? "its" : "their", path);
    if (c->damaged > 0)
        rc_warn_at(r->diag, path, 0, "damaged: the kernels it holds no whole entry of are "
                   "counted again");
}

void run_cache_finish(run_state *r)
{
    if (r->new_cache)
        rc_output_close(r->new_cache);
    r->new_cache = NULL;
    if (r->cache)
        report_cache(r, r->cache);
    run_cache_free(r->cache);
    r->cache = NULL;
}
