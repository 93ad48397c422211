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
 * from a whole one; and since a matching CRC says nothing of what wrote
 * the pieces, each must also parse as what it claims (run_share_whole).
 * A kernel whose entry fails either is counted and its tree made, as when
 * it has no entry, and the new cache holds its good share. The cache is written atomically like every file
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

#include "util/array.h"
#include "util/buffer.h"

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
 * kernels, faster than FNV-1a (rc_hash_bytes; docs/benchmarks.md). */
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
    if (!RC_GROW(c->entries, *cap, c->count + 1))
        return false;
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
        int used = 0;
        if (sscanf(line, "kernel %16" SCNx64 " %zu %zu %zu %zu %16" SCNx64 " %100s%n", &e.key,
                   &e.len[0], &e.len[1], &e.len[2], &e.len[3], &e.check, e.id, &used) != 7 ||
            strcmp(line + used, "\n") != 0 || (e.at = ftello(f)) < 0 ||
            !pieces_fit(&e, size, &total) || fseeko(f, (off_t)total, SEEK_CUR) != 0) {
            c->damaged++;
            break;
        }
        if (!add_entry(c, &cap, &e))
            break;
    }
    if (c->count > 1) /* entries is NULL when none was whole: qsort(NULL, 0, ...) is undefined */
        qsort(c->entries, c->count, sizeof *c->entries, compare_entries);
}

run_cache *run_cache_load(int fd, bool *damaged)
{
    struct stat st;
    *damaged = false;
    int copy = fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? dup(fd) : -1;
    FILE *f = copy >= 0 ? fdopen(copy, "rb") : NULL;
    if (!f && copy >= 0)
        close(copy);
    char head[sizeof CACHE_HEAD] = "";
    size_t got = f ? fread(head, 1, strlen(CACHE_HEAD), f) : 0;
    run_cache *c = NULL;
    if (f && got == strlen(CACHE_HEAD) && memcmp(head, CACHE_HEAD, got) == 0 &&
        (c = calloc(1, sizeof *c)) != NULL) {
        c->fd = fd;
        pthread_mutex_init(&c->lock, NULL);
        index_entries(c, f, st.st_size);
    } else if (f) {
        /* Another version's cache ("roofcast-cache 1\n") is only not read;
         * one cut before its header's end, or something else under its
         * name, is damage. */
        static const char family[] = "roofcast-cache ";
        bool other_version = got == strlen(CACHE_HEAD) &&
                             memcmp(head, family, strlen(family)) == 0 && head[got - 1] == '\n';
        *damaged = !other_version;
    }
    if (f)
        fclose(f);
    if (!c && fd >= 0)
        close(fd);
    return c;
}

size_t run_cache_count(const run_cache *c) { return c->count; }
const char *run_cache_id(const run_cache *c, size_t entry) { return c->entries[entry].id; }
uint64_t run_cache_key(const run_cache *c, size_t entry) { return c->entries[entry].key; }
size_t run_cache_damaged(const run_cache *c) { return c->damaged; }

/* The cache in the output directory; NULL when there is none of this
 * version (nothing is then taken from it), after a warning when what is
 * there is not one. */
static run_cache *cache_read(run_state *r)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", rc_output_dir(r->output), CACHE_NAME);
    const char *why;
    int fd = rc_open_regular(rc_output_dirfd(r->output), CACHE_NAME, O_RDONLY, false, &why);
    bool damaged = false;
    run_cache *c = fd >= 0 ? run_cache_load(fd, &damaged) : NULL;
    if (why)
        rc_warn_at(r->diag, path, 0, "is %s, not roofcast's cache: not read; every kernel is "
                   "counted", why);
    else if (damaged)
        rc_warn_at(r->diag, path, 0, "damaged (cut before its header's end, or not a roofcast "
                   "cache): not read; every kernel is counted");
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
    if (p)
        p[len] = '\0';
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

/* An element `name` with id="id", alone in `doc`'s root (`wrapped`) or
 * the root itself, and nothing else but white space. */
static bool only_element(xmlDocPtr doc, bool wrapped, const char *name, const char *id)
{
    xmlNodePtr root = doc ? xmlDocGetRootElement(doc) : NULL;
    if (!root || doc->intSubset || root->next || root->prev)
        return false;
    xmlNodePtr el = root;
    if (wrapped) {
        el = NULL;
        for (xmlNodePtr n = root->children; n; n = n->next) {
            if (n->type == XML_ELEMENT_NODE && !el)
                el = n;
            else if (n->type != XML_TEXT_NODE || !xmlIsBlankNode(n))
                return false;
        }
    }
    if (!el || el->ns || !xmlStrEqual(el->name, (const xmlChar *)name))
        return false;
    xmlChar *got = xmlGetProp(el, (const xmlChar *)"id");
    bool same = got && strcmp((const char *)got, id) == 0;
    xmlFree(got);
    return same;
}

#define PARSE_QUIET (XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING | XML_PARSE_HUGE)

/* results.xml's text of kernel `id`: one <kernel id="ID"> element, whole,
 * as a child of <kernels>. */
static bool xml_piece_whole(const char *id, const char *xml, size_t len)
{
    static const char open[] = "<kernels>", close[] = "</kernels>";
    size_t n = strlen(open) + len + strlen(close);
    char *text = len < INT_MAX - 64 ? malloc(n) : NULL;
    if (!text)
        return false;
    memcpy(text, open, strlen(open));
    memcpy(text + strlen(open), xml, len);
    memcpy(text + strlen(open) + len, close, strlen(close));
    xmlDocPtr doc = xmlReadMemory(text, (int)n, NULL, "UTF-8", PARSE_QUIET);
    bool whole = only_element(doc, true, "kernel", id);
    xmlFreeDoc(doc);
    free(text);
    return whole;
}

/* The overview part of kernel `id`: a document whose root is its <kernel>. */
static bool part_piece_whole(const char *id, const char *part, size_t len)
{
    if (len >= INT_MAX)
        return false;
    xmlDocPtr doc = xmlReadMemory(part, (int)len, NULL, "UTF-8", PARSE_QUIET);
    bool whole = only_element(doc, false, "kernel", id);
    xmlFreeDoc(doc);
    return whole;
}

/* Kernel `id`'s rows of estimates.csv: each ends in CRLF, has the file's
 * columns (RFC 4180: a quoted field may hold commas, quotes doubled and
 * line breaks) and begins with the id as the file writes it. */
static bool csv_piece_whole(const char *id, const char *csv, size_t len)
{
    rc_buffer want = {0};
    rc_buffer_csv_field(&want, id);
    size_t want_len = 0;
    char *first = rc_buffer_take(&want, &want_len);
    const char *p = csv, *end = csv + len;
    size_t rows = 0;
    bool ok = first != NULL && len > 0;
    while (ok && p < end) {
        size_t fields = 1;
        const char *row = p;
        bool in_quotes = false;
        for (; p < end; p++) {
            if (in_quotes) {
                if (*p == '"' && p + 1 < end && p[1] == '"')
                    p++;
                else if (*p == '"')
                    in_quotes = false;
            } else if (*p == '"') {
                in_quotes = true;
            } else if (*p == ',') {
                fields++;
            } else if (*p == '\r' || *p == '\n' || *p == '\0') {
                break;
            }
        }
        ok = !in_quotes && end - p >= 2 && p[0] == '\r' && p[1] == '\n' &&
             fields == rc_render_csv_columns() && (size_t)(p - row) > want_len &&
             memcmp(row, first, want_len) == 0 && row[want_len] == ',';
        p += 2;
        rows++;
    }
    free(first);
    return ok && rows > 0;
}

bool run_share_whole(const char *id, unsigned wanted, const run_share *s)
{
    return (!(wanted & RUN_SHARE_XML) || (s->xml_len > 0 && xml_piece_whole(id, s->xml, s->xml_len))) &&
           (!(wanted & RUN_SHARE_CSV) || (s->csv_len > 0 && csv_piece_whole(id, s->csv, s->csv_len))) &&
           (!(wanted & RUN_SHARE_PDF) || (s->pdf_len > 0 && rc_render_pdf_pages_whole(s->pdf, s->pdf_len))) &&
           (!(wanted & RUN_SHARE_PART) || (s->part_len > 0 && part_piece_whole(id, s->part, s->part_len)));
}

bool run_cache_take(run_cache *cache, size_t entry, unsigned wanted, run_share *s)
{
    const cache_entry *c = &cache->entries[entry];
    *s = (run_share){0};
    char **piece[4] = {&s->xml, &s->csv, &s->part, &s->pdf}; /* ORDER cache_entry len */
    size_t *len[4] = {&s->xml_len, &s->csv_len, &s->part_len, &s->pdf_len};
    off_t at = c->at;
    bool read = true;
    for (int k = 0; k < 4; k++) {
        *piece[k] = read_piece(cache->fd, at, c->len[k]);
        *len[k] = c->len[k];
        at += (off_t)c->len[k];
        read = read && *piece[k];
    }
    s->check = read ? share_check(c->id, c->key, s) : 0;
    s->checked = read;
    bool checks = s->check == c->check;
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
    checks = true; /* a fuzzer cannot make CRCs: let it reach the pieces' checks */
#endif
    /* The CRC tells damage on the disk; the pieces' own checks what an
     * earlier roofcast (or anyone) wrote under a matching CRC, which
     * would otherwise make a malformed results.xml, a wrong estimates.csv
     * or a summary.pdf that cannot be made, run after run. */
    bool whole = read && checks && run_share_whole(c->id, wanted | RUN_SHARE_PART, s);
    note_read(cache, whole);
    if (!whole)
        run_share_release(s);
    return whole;
}

bool run_cache_read(run_state *r, size_t i, run_share *s)
{
    return run_cache_take(r->cache, r->kernels[i].cache_entry, run_share_wanted(r), s);
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
