/* render_csv.c: estimates.csv and results.xml, the files for tools. */
#include "render/render.h"

#include <stdlib.h>
#include <string.h>

#include "util/buffer.h"
#include "results/format.h"
#include "results/results.h"

/* Where a column's value lives in the tree. */
typedef enum {
    FROM_KERNEL, FROM_ESTIMATE, FROM_FLOPS, FROM_BYTES, FROM_MEMORY, FROM_CANNOT
} column_source;

/* How it is written: as stored, or seconds written as microseconds. */
typedef enum { AS_STORED, AS_MICROSECONDS } column_form;

typedef struct {
    const char *header;
    column_source from;
    const char *attribute;
    column_form form;
} csv_column;

/* The template's columns, then the memory model's (issue 16), then the
 * refined estimate's (issue 17), then where t_launch came from: each group
 * is appended after the last, so a tool reading columns by position keeps
 * working. ORDER of the header line. */
static const csv_column columns[] = {
    {"kernel", FROM_KERNEL, "id", AS_STORED},
    {"gpu", FROM_ESTIMATE, "gpu", AS_STORED},
    {"flops", FROM_FLOPS, "total", AS_STORED},
    {"bytes", FROM_BYTES, "total", AS_STORED},
    {"intensity", FROM_ESTIMATE, "intensity", AS_STORED},
    {"t_compute_us", FROM_ESTIMATE, "t-compute", AS_MICROSECONDS},
    {"t_mem_us", FROM_ESTIMATE, "t-mem", AS_MICROSECONDS},
    {"t_body_us", FROM_ESTIMATE, "t-body", AS_MICROSECONDS},
    {"t_launch_us", FROM_ESTIMATE, "t-launch", AS_MICROSECONDS},
    {"t_total_us", FROM_ESTIMATE, "t-total", AS_MICROSECONDS},
    {"bound", FROM_ESTIMATE, "bound", AS_STORED},
    {"requests", FROM_MEMORY, "requests", AS_STORED},
    {"accessed_bytes", FROM_MEMORY, "accessed-bytes", AS_STORED},
    {"sector_bytes", FROM_MEMORY, "sector-bytes", AS_STORED},
    {"footprint_bytes", FROM_MEMORY, "footprint-bytes", AS_STORED},
    {"shared_requests", FROM_MEMORY, "shared-requests", AS_STORED},
    {"shared_wavefronts", FROM_MEMORY, "shared-wavefronts", AS_STORED},
    {"l2_bytes", FROM_ESTIMATE, "l2-bytes", AS_STORED},
    {"dram_bytes", FROM_ESTIMATE, "dram-bytes", AS_STORED},
    {"occupancy", FROM_ESTIMATE, "occupancy", AS_STORED},
    {"waves", FROM_ESTIMATE, "waves", AS_STORED},
    {"t_lower_us", FROM_ESTIMATE, "t-lower", AS_MICROSECONDS},
    {"t_estimate_us", FROM_ESTIMATE, "t-estimate", AS_MICROSECONDS},
    {"limiter", FROM_ESTIMATE, "limiter", AS_STORED},
    /* "assumed" where the GPU file gives no launch latency. */
    {"t_launch_origin", FROM_ESTIMATE, "t-launch-origin", AS_STORED},
    /* Why the launch cannot run on that GPU (results/launch.h), on its
     * row, which has no estimate; empty on every other row. */
    {"cannot_launch", FROM_CANNOT, "message", AS_STORED},
};

enum { NCOLUMNS = sizeof columns / sizeof columns[0] };

/* One field; an absent attribute (or element) is an empty field. */
static void put_field(rc_buffer *b, xmlNodePtr n, const csv_column *c)
{
    xmlChar *v = n ? xmlGetProp(n, (const xmlChar *)c->attribute) : NULL;
    if (v && c->form == AS_MICROSECONDS) {
        char num[64];
        rc_format_exact(strtod((const char *)v, NULL) * 1e6, num, sizeof num);
        rc_buffer_csv_field(b, num);
    } else {
        rc_buffer_csv_field(b, v ? (const char *)v : "");
    }
    xmlFree(v);
}

/* A row: of an <estimate>, or of a <cannot-launch> (its kernel's counts,
 * its GPU, its message, and no estimate). */
static void put_row(rc_buffer *b, xmlNodePtr kernel, xmlNodePtr estimate, xmlNodePtr cannot)
{
    xmlNodePtr counts = rc_results_child(kernel, "counts");
    xmlNodePtr from[] = {
        [FROM_KERNEL] = kernel,
        [FROM_ESTIMATE] = estimate,
        [FROM_FLOPS] = rc_results_child(counts, "flops"),
        [FROM_BYTES] = rc_results_child(counts, "bytes"),
        [FROM_MEMORY] = rc_results_child(counts, "memory"),
        [FROM_CANNOT] = cannot,
    };
    for (size_t i = 0; i < NCOLUMNS; i++) {
        if (i > 0)
            rc_buffer_puts(b, ",");
        xmlNodePtr n = from[columns[i].from];
        if (cannot && columns[i].from == FROM_ESTIMATE && strcmp(columns[i].attribute, "gpu") == 0)
            n = cannot; /* the row's GPU */
        put_field(b, n, &columns[i]);
    }
    rc_buffer_puts(b, "\r\n");
}

size_t rc_render_csv_columns(void) { return NCOLUMNS; }

char *rc_render_csv(xmlDocPtr doc, size_t *len)
{
    rc_buffer b = {0};
    for (size_t i = 0; i < NCOLUMNS; i++) {
        rc_buffer_puts(&b, i > 0 ? "," : "");
        rc_buffer_puts(&b, columns[i].header);
    }
    rc_buffer_puts(&b, "\r\n");
    xmlNodePtr kernels = rc_results_child(xmlDocGetRootElement(doc), "kernels");
    for (xmlNodePtr k = kernels ? kernels->children : NULL; k; k = k->next) {
        if (k->type != XML_ELEMENT_NODE)
            continue;
        xmlNodePtr est = rc_results_child(k, "estimates");
        for (xmlNodePtr e = est ? est->children : NULL; e; e = e->next)
            if (e->type == XML_ELEMENT_NODE)
                put_row(&b, k, e, NULL);
        for (xmlNodePtr c = k->children; c; c = c->next)
            if (c->type == XML_ELEMENT_NODE && xmlStrEqual(c->name, (const xmlChar *)"cannot-launch"))
                put_row(&b, k, NULL, c);
    }
    return rc_buffer_take(&b, len);
}

char *rc_render_results_xml(xmlDocPtr doc, size_t *len)
{
    xmlChar *mem = NULL;
    int size = 0;
    xmlDocDumpFormatMemoryEnc(doc, &mem, &size, "UTF-8", 1);
    if (!mem)
        return NULL;
    char *out = malloc((size_t)size + 1);
    if (out) {
        memcpy(out, mem, (size_t)size);
        out[size] = '\0';
        *len = (size_t)size;
    }
    xmlFree(mem);
    return out;
}
