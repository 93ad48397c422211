/* counting_check.c: the differential test of counting by classes. See
 * counting_check.h. */
#include "counting_check.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input/load.h"
#include "model/eval.h"
#include "util/diag.h"

/* ---- drawing a kernel ---------------------------------------------------- */

typedef struct {
    const uint8_t *d;
    size_t n, i;
    char *out;
    size_t len, cap;
    char names[24][8]; /* lets and loop variables in scope */
    int nnames, next_name, narrays;
    int shared[3];
} gen;

/* A number below n from the next byte (0 once the bytes run out). */
static unsigned pick(gen *g, unsigned n)
{
    if (n <= 1)
        return 0;
    unsigned v = g->i < g->n ? g->d[g->i++] : 0;
    return v % n;
}

static void put(gen *g, const char *fmt, ...) RC_PRINTF(2, 3);

static void put(gen *g, const char *fmt, ...)
{
    if (g->len + 1 >= g->cap)
        return;
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(g->out + g->len, g->cap - g->len, fmt, ap);
    va_end(ap);
    if (w > 0)
        g->len += (size_t)w < g->cap - g->len ? (size_t)w : g->cap - g->len - 1;
}

static const char *const builtins[] = {"threadIdx.x", "threadIdx.y", "threadIdx.z", "blockIdx.x",
                                       "blockIdx.y",  "blockIdx.z",  "blockDim.x"};

/* A name: an index, a let or loop variable in scope. */
static void atom(gen *g)
{
    unsigned k = pick(g, 10);
    if (k < 7 || g->nnames == 0)
        put(g, "%s", builtins[k % 7]);
    else
        put(g, "%s", g->names[pick(g, (unsigned)g->nnames)]);
}

/* An expression, affine or not, of non-negative values mostly. */
static void expr(gen *g)
{
    switch (pick(g, 12)) {
    case 0: /* i * i */
        atom(g), put(g, " * "), atom(g);
        break;
    case 1:
        put(g, "("), atom(g), put(g, " %% %u)", 2 + pick(g, 7));
        break;
    case 2:
        put(g, "("), atom(g), put(g, " / %u)", 2 + pick(g, 5));
        break;
    case 3:
        put(g, "min("), atom(g), put(g, ", %u)", pick(g, 40));
        break;
    case 5: /* a thread's element of a block's tile */
    case 6:
        put(g, "blockIdx.%c * %u + threadIdx.x * %u + ", "xyz"[pick(g, 3)], 1 + pick(g, 64),
            1 + pick(g, 3));
        atom(g), put(g, " * %u", pick(g, 5));
        break;
    case 4: /* a falling index */
        put(g, "%u - ", 300 + pick(g, 200)), atom(g), put(g, " * %u", pick(g, 4));
        break;
    default: /* c1 a + c2 b + c0 */
        put(g, "%u * ", pick(g, 5)), atom(g), put(g, " + %u * ", pick(g, 9)), atom(g);
        put(g, " + %u", pick(g, 40));
        break;
    }
}

static void new_name(gen *g, char *name)
{
    snprintf(name, 8, "v%d", g->next_name++);
}

static void statements(gen *g, int depth);

static void access(gen *g)
{
    static const char *const kinds[] = {"load", "load", "store", "atomic"};
    int a = (int)pick(g, (unsigned)g->narrays);
    unsigned kind = pick(g, 4);
    put(g, "<%s array='a%d' index='", kinds[kind], a);
    if (g->shared[a] && pick(g, 2))
        put(g, "threadIdx.x * %u + ", 1 + pick(g, 33)), atom(g), put(g, " %% 2");
    else
        expr(g);
    /* Atomics on odd arrays have per-lane operands (their busiest address counted): decided
     * without a byte of the input, so that the corpus draws the kernels it drew before. */
    put(g, "'%s/>", kind == 3 && a % 2 ? " operand='per-lane'" : "");
}

static void loop(gen *g, int depth)
{
    char name[8];
    new_name(g, name);
    switch (pick(g, depth > 0 ? 6 : 8)) { /* long loops at the top only */
    case 6: /* long, with lanes that may step differently */
        put(g, "<loop var='%s' from='%u' to='%u' step='%s'>", name, pick(g, 3),
            (unsigned[]){64, 100, 130, 257}[pick(g, 4)], pick(g, 4) ? "1" : "1 + threadIdx.x % 2");
        break;
    case 7:
        put(g, "<loop var='%s' from='threadIdx.x' to='%u' step='blockDim.x'>", name, 50 + pick(g, 150));
        break;
    case 0: /* geometric */
        put(g, "<loop var='%s' from='1' to='%u' step='*= 2'>", name, 2 + pick(g, 60));
        break;
    case 1: /* halving while */
        put(g, "<loop var='%s' from='%u' while='%s &gt; 0' step='&gt;&gt;= 1'>", name,
            1 + pick(g, 40), name);
        break;
    case 2: /* triangular or per-thread trip counts */
        put(g, "<loop var='%s' from='", name), atom(g);
        put(g, " %% 4' to='%u' step='%u'>", 3 + pick(g, 8), 1 + pick(g, 3));
        break;
    default: /* counted, perhaps from a block-dependent start */
        put(g, "<loop var='%s' from='", name);
        if (pick(g, 3) == 0)
            put(g, "blockIdx.x * %u", pick(g, 8));
        else
            put(g, "%u", pick(g, 3));
        put(g, "' to='%s%u' step='%u'>", pick(g, 3) ? "" : "N % 7 + ", 1 + pick(g, 9),
            1 + pick(g, 4));
        break;
    }
    int saved = g->nnames;
    if (g->nnames < 24)
        memcpy(g->names[g->nnames++], name, 8);
    statements(g, depth + 1);
    g->nnames = saved;
    put(g, "</loop>");
}

static void statement(gen *g, int depth)
{
    unsigned k = pick(g, depth >= 3 ? 3 : 7);
    switch (k) {
    case 0:
    case 1:
        access(g);
        break;
    case 2:
        put(g, "<flops count='1'/>");
        break;
    case 3: {
        char name[8];
        new_name(g, name);
        put(g, "<let name='%s' value='", name);
        expr(g);
        put(g, "'/>");
        if (g->nnames < 24)
            memcpy(g->names[g->nnames++], name, 8);
        break;
    }
    case 4: {
        int saved = g->nnames;
        put(g, "<when test='");
        switch (pick(g, 4)) {
        case 0:
            put(g, "blockIdx.x * blockDim.x + threadIdx.x &lt; N");
            break;
        case 1:
            put(g, "threadIdx.x %% %u == 0", 2 + pick(g, 3));
            break;
        default:
            expr(g), put(g, " &lt; %u", pick(g, 120));
            break;
        }
        put(g, "'>");
        statements(g, depth + 1);
        put(g, "</when>");
        g->nnames = saved;
        break;
    }
    default:
        loop(g, depth);
        break;
    }
}

static void statements(gen *g, int depth)
{
    unsigned n = 1 + pick(g, 3);
    for (unsigned i = 0; i < n; i++)
        statement(g, depth);
}

void rc_counting_kernel(const uint8_t *data, size_t size, char *xml, size_t xml_len)
{
    static const unsigned gx[] = {1, 2, 3, 5, 8, 13, 40}, gy[] = {1, 2, 3}, gz[] = {1, 2};
    static const unsigned bx[] = {1, 7, 16, 32, 33, 48, 64}, by[] = {1, 2, 3}, bz[] = {1, 2};
    static const char *const types[] = {"float", "double", "char", "short", "float4"};
    gen g = {data, size, 0, xml, 0, xml_len, {{0}}, 0, 0, 0, {0, 0, 0}};
    xml[0] = '\0';
    put(&g, "<kernel id='k' name='k'><summary>s</summary><source>x</source>"
            "<launch grid='%u, %u, %u' block='%u, %u, %u'/><param name='N' value='%u'/>",
        gx[pick(&g, 7)], gy[pick(&g, 3)], gz[pick(&g, 2)], bx[pick(&g, 7)], by[pick(&g, 3)],
        bz[pick(&g, 2)], 1 + pick(&g, 200));
    g.narrays = 1 + (int)pick(&g, 3);
    for (int a = 0; a < g.narrays; a++) {
        g.shared[a] = pick(&g, 4) == 0;
        put(&g, "<array name='a%d' type='%s' length='%u'%s/>", a, types[pick(&g, 5)],
            g.shared[a] ? 4096u : 131072u, g.shared[a] ? " space='shared'" : "");
    }
    put(&g, "<work>");
    statements(&g, 0);
    put(&g, "</work></kernel>");
}

/* ---- comparing ----------------------------------------------------------- */

typedef struct {
    char *p;
    size_t len, cap;
} text;

static void add(text *t, const char *fmt, ...) RC_PRINTF(2, 3);

static void add(text *t, const char *fmt, ...)
{
    if (t->len + 1 >= t->cap)
        return;
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(t->p + t->len, t->cap - t->len, fmt, ap);
    va_end(ap);
    if (w > 0)
        t->len += (size_t)w < t->cap - t->len ? (size_t)w : t->cap - t->len - 1;
}

static void add_access(text *t, const char *what, const rc_access_counts *a)
{
    add(t, "%s: %lld %lld %lld %lld %lld %lld %lld %lld %lld %lld %lld %lld %lld %lld %lld %lld\n",
        what, (long long)a->requests, (long long)a->accessed_bytes, (long long)a->sector_bytes,
        (long long)a->footprint_bytes, (long long)a->footprint_pair_bytes,
        (long long)a->rewritten_bytes, (long long)a->block_sector_bytes,
        (long long)a->block_footprint_max, (long long)a->shared_requests,
        (long long)a->shared_wavefronts, (long long)a->store_sector_bytes,
        (long long)a->store_line_bytes, (long long)a->atomic_lane_extra,
        (long long)a->atomic_multiword, (long long)a->l1_quarters, (long long)a->l1_quarters_2);
}

/* Every count the evaluation gives, one line each, but how it was made. */
static void describe(text *t, const rc_counts *c)
{
    const rc_spread *sp[] = {&c->flops, &c->bytes, &c->active_per_block};
    add(t, "threads %lld %lld blocks %lld %lld\n", (long long)c->threads_active,
        (long long)c->threads_launched, (long long)c->blocks_active, (long long)c->blocks_launched);
    for (int i = 0; i < 3; i++)
        add(t, "spread %d: %lld %lld %lld %lld %lld\n", i, (long long)sp[i]->total,
            (long long)sp[i]->thread_min, (long long)sp[i]->thread_max,
            (long long)sp[i]->block_min, (long long)sp[i]->block_max);
    add(t, "bytes %lld %lld %lld\n", (long long)c->bytes_loaded, (long long)c->bytes_stored,
        (long long)c->bytes_traffic);
    for (int i = 0; i < c->nwork; i++) {
        const rc_work_stats *s = &c->work[i];
        add(t, "node %d: %lld %lld %lld %lld %lld %lld %lld %lld\n", i, (long long)s->m0,
            (long long)s->m1, (long long)s->threads, (long long)s->blocks,
            (long long)s->thread_min, (long long)s->thread_max, (long long)s->block_min,
            (long long)s->block_max);
    }
    add_access(t, "total", &c->memory.total);
    add_access(t, "legacy", &c->memory.legacy);
    for (int i = 0; i < c->memory.narrays; i++) {
        char name[32];
        snprintf(name, sizeof name, "array %d", i);
        add_access(t, name, &c->memory.arrays[i]);
    }
    add(t, "sampled %d\n", (int)c->memory.sampled);
}

/* The first line where a and b differ, into report. */
static void first_difference(const char *a, const char *b, char *report, size_t n)
{
    size_t i = 0, line = 0;
    while (a[i] && a[i] == b[i])
        if (a[i++] == '\n')
            line = i;
    a += line;
    b += line;
    snprintf(report, n, "classes:     %.*s\nenumeration: %.*s\n", (int)strcspn(a, "\n"), a,
             (int)strcspn(b, "\n"), b);
}

bool rc_counting_check(const uint8_t *data, size_t size, rc_counting_outcome *outcome,
                       char *report, size_t report_len)
{
    static char xml[16384];
    memset(outcome, 0, sizeof *outcome);
    report[0] = '\0';
    rc_counting_kernel(data, size, xml, sizeof xml);
    FILE *null = fopen("/dev/null", "w");
    rc_diag *diag = rc_diag_new(null ? null : stderr, 0);
    rc_loader *loader = diag ? rc_loader_new(diag) : NULL;
    rc_kernel *k = loader ? rc_load_kernel_memory(loader, "drawn.xml", xml, strlen(xml), diag)
                          : NULL;
    bool same = true;
    if (k) {
        outcome->loaded = true;
        rc_counts c[2];
        rc_eval_error err[2];
        bool ok[2];
        static char desc[2][65536];
        for (int way = 0; way < 2; way++) {
            rc_eval_options opt = {way == 1, NULL, NULL};
            ok[way] = rc_evaluate_with(k, false, &opt, &c[way], &err[way]);
            text t = {desc[way], 0, sizeof desc[way]};
            desc[way][0] = '\0';
            if (ok[way])
                describe(&t, &c[way]);
            else
                add(&t, "fails: node %d: %s\n", err[way].node ? err[way].node->index : -1,
                    err[way].expr >= 0 ? err[way].expr_error.message : err[way].message);
        }
        outcome->counted = ok[0] && ok[1];
        outcome->by_classes = ok[0] && !c[0].memory.enumerated[0];
        /* An enumeration past its budget - sampled, or refused for one
         * block - is no reference; the classes may well count it. */
        bool sampled = (ok[1] && c[1].memory.sampled) ||
                       (!ok[1] && ok[0] && strstr(err[1].message, "lane-steps to count"));
        if (!sampled && strcmp(desc[0], desc[1]) != 0) {
            same = false;
            char diff[1024];
            first_difference(desc[0], desc[1], diff, sizeof diff);
            snprintf(report, report_len, "%s%s\n", diff, xml);
        }
        for (int way = 0; way < 2; way++)
            if (ok[way])
                rc_counts_release(&c[way]);
        rc_kernel_free(k);
    }
    rc_loader_free(loader);
    rc_diag_free(diag);
    if (null)
        fclose(null);
    return same;
}
